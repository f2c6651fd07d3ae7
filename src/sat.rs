//! The CDCL backend (`xc::Sat`) for Python: solutions one at a time, within
//! a conflict budget and a deadline, stopped by Ctrl-C or `cancel()`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use pyo3::prelude::*;
use xc::Solve;

use crate::errors;
use crate::problem::PyCompiledProblem;

#[pyclass(name = "SatSearch", module = "covering._core", frozen)]
pub struct PySatSearch {
    inner: Mutex<xc::Sat>,
    stop: Arc<AtomicBool>,
}

impl PySatSearch {
    fn lock(&self) -> PyResult<MutexGuard<'_, xc::Sat>> {
        self.inner
            .lock()
            .map_err(|_| errors::internal("the CDCL search is broken"))
    }
}

#[pymethods]
impl PySatSearch {
    /// The clauses of `problem` in a fresh CaDiCaL solver.
    #[new]
    fn new(py: Python<'_>, problem: &PyCompiledProblem) -> PyResult<Self> {
        let p = problem.inner.clone();
        let (sat, signal) = crate::interrupt::until_interrupted(py, "the CDCL encoding", |halt| {
            xc::Sat::new_until(&p, halt)
        })?;
        if let Some(e) = signal {
            return Err(e);
        }
        let sat =
            sat.ok_or_else(|| crate::errors::internal("the CDCL encoding stopped".to_string()))?;
        let stop = sat.stop_flag();
        Ok(PySatSearch {
            inner: Mutex::new(sat),
            stop,
        })
    }

    /// The next solution: ("solution", option ids), ("exhausted", []) or
    /// ("stopped", []) when `conflicts` more conflicts, `decisions` more
    /// decisions, `seconds` or `cancel()` came first. Ctrl-C raises
    /// KeyboardInterrupt (the search can go on afterwards).
    #[pyo3(signature = (conflicts=None, decisions=None, seconds=None))]
    fn next(
        &self,
        py: Python<'_>,
        conflicts: Option<u64>,
        decisions: Option<u64>,
        seconds: Option<f64>,
    ) -> PyResult<(&'static str, Vec<u32>)> {
        let deadline = crate::budget::deadline(seconds)?;
        let mut sat = self.lock()?;
        let sat: &mut xc::Sat = &mut sat;
        sat.set_deadline(deadline);
        // Through the interface of every engine: its nodes are decisions,
        // its updates conflicts.
        let used = Solve::stats(sat);
        let limits = xc::Limits {
            nodes: decisions.map_or(u64::MAX, |d| used.nodes.saturating_add(d)),
            updates: conflicts.map_or(u64::MAX, |c| used.updates.saturating_add(c)),
        };
        let (step, signal) =
            crate::interrupt::until_interrupted_with(py, "the CDCL search", &self.stop, || {
                sat.run(limits)
            })?;
        if step == xc::Step::Paused {
            // Stopped by the flag (Ctrl-C or cancel) or a budget: lower it, so
            // that the next call goes on.
            self.stop.store(false, Ordering::Relaxed);
        }
        if let Some(e) = signal {
            return Err(e);
        }
        Ok(match step {
            xc::Step::Solution => {
                let mut ids = Vec::new();
                sat.solution_into(&mut ids);
                ("solution", ids)
            }
            xc::Step::Exhausted => ("exhausted", Vec::new()),
            xc::Step::Paused => ("stopped", Vec::new()),
        })
    }

    /// Stops a running `next` from another thread, within milliseconds.
    fn cancel(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// (solutions, conflicts, decisions, propagations, solves, variables,
    /// clauses).
    #[getter]
    fn stats(&self) -> PyResult<(u64, u64, u64, u64, u64, u64, u64)> {
        let s = self.lock()?.stats();
        Ok((
            s.solutions,
            s.conflicts,
            s.decisions,
            s.propagations,
            s.solves,
            s.variables,
            s.clauses,
        ))
    }

    /// Has every solution been found?
    #[getter]
    fn exhausted(&self) -> PyResult<bool> {
        Ok(self.lock()?.exhausted())
    }
}
