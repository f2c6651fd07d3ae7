//! The CDCL backend (`sat::Sat`) for Python: solutions one at a time, within
//! a conflict budget and a deadline, stopped by Ctrl-C, `cancel()` or the
//! run's stop flag. The solver cannot stop between two of its steps from
//! outside, so the one driver runs each call on a thread of its own and
//! raises the flag its terminate callback watches (`Driver::watch`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use pyo3::prelude::*;
use xc::{Next, Poll, Sliced};

use crate::budget::RunBudget;
use crate::driver::{Driven, Driver};
use crate::problem::PyCompiledProblem;
use crate::stats::PySatStats;

/// Entries and options up to which the encoding is written here, on the
/// calling thread: some 50 ms at most (a Ctrl-C is answered when it ends),
/// where a thread of its own cost a puzzle's encoding 8% more (queens 10:
/// 550 us against 510 us).
const INLINE_ENTRIES: usize = 20_000;

#[pyclass(name = "SatSearch", module = "covering._core", frozen)]
pub struct PySatSearch {
    driver: Driver<sat::Sat>,
    /// The flag the solver's terminate callback watches.
    halt: Arc<AtomicBool>,
}

/// The CDCL solver's work is its decisions (its nodes, to budgets).
impl Driven for sat::Sat {
    fn work(&self) -> u64 {
        self.stats().decisions
    }
}

#[pymethods]
impl PySatSearch {
    /// The clauses of `problem` in a fresh CaDiCaL solver.
    #[new]
    fn new(py: Python<'_>, problem: &PyCompiledProblem) -> PyResult<Self> {
        let p = problem.inner.clone();
        let sat = if p.n_entries() + p.n_options() <= INLINE_ENTRIES {
            Some(sat::Sat::new(&p))
        } else {
            // Apart: a Ctrl-C is not kept waiting for CaDiCaL's steps.
            crate::interrupt::apart(py, "the CDCL encoding", move |halt| {
                sat::Sat::new_until(&p, halt)
            })??
        };
        let sat =
            sat.ok_or_else(|| crate::errors::internal("the CDCL encoding stopped".to_string()))?;
        let halt = sat.stop_flag();
        Ok(PySatSearch {
            driver: Driver::new(sat, "the CDCL search", u64::MAX),
            halt,
        })
    }

    /// The next solution: ("solution", option ids), ("exhausted", []) or
    /// ("stopped", []) when the solver's `conflicts` or the run's `budget`
    /// (its nodes: the solver's decisions; both counted from the solver's
    /// start), `cancel()` or the budget's flag came first.
    /// Ctrl-C raises KeyboardInterrupt (the search can go on afterwards).
    #[pyo3(signature = (conflicts=None, budget=None))]
    fn next(
        &self,
        py: Python<'_>,
        conflicts: Option<u64>,
        budget: Option<RunBudget<'_>>,
    ) -> PyResult<(&'static str, Vec<u32>)> {
        let done = self.driver.lock()?.stats().conflicts;
        let conflicts = conflicts.map(|c| c.saturating_sub(done));
        let budget = self.driver.budget(budget.as_ref())?;
        if budget.is_spent() {
            return Ok(("stopped", Vec::new()));
        }
        let slice = xc::Slice {
            work: budget.units.unwrap_or(u64::MAX),
            conflicts,
            deadline: budget.deadline,
            updates: None,
        };
        let (found, signal) = self.driver.watch(py, &budget, &self.halt, |sat| {
            let poll = Sliced::run(sat, slice);
            let mut ids = Vec::new();
            if poll == Poll::Ready(Next::Solution) {
                sat.solution_into(&mut ids);
            }
            (poll, ids)
        })?;
        let (poll, ids) = found;
        if poll == Poll::Pending {
            // Stopped by the flag (Ctrl-C, cancel, the run's stop) or a
            // budget: lower it, so that the next call goes on.
            self.halt.store(false, Ordering::Relaxed);
        }
        if let Some(e) = signal {
            return Err(e);
        }
        Ok(match poll {
            Poll::Ready(Next::Solution) => ("solution", ids),
            Poll::Ready(Next::Exhausted) => ("exhausted", Vec::new()),
            Poll::Pending => ("stopped", Vec::new()),
        })
    }

    /// Stops a running `next` from another thread, within milliseconds.
    fn cancel(&self) {
        self.halt.store(true, Ordering::Relaxed);
    }

    /// (solutions, conflicts, decisions, propagations, solves, variables,
    /// clauses).
    #[getter]
    fn stats(&self) -> PyResult<PySatStats> {
        Ok(PySatStats::from(&self.driver.lock()?.stats()))
    }

    /// Has every solution been found?
    #[getter]
    fn exhausted(&self) -> PyResult<bool> {
        Ok(self.driver.lock()?.exhausted())
    }
}
