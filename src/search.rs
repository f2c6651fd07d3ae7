//! `Search`: one run of the engine, driven from Python in slices.
//!
//! The one driver (`crate::driver`) runs it in slices of at most
//! `SLICE_NODES` nodes and `SLICE_UPDATES` updates, fewer nodes where they
//! took more than some 40 ms (slices that shrink),
//! the GIL released; between slices it sees signals (so Ctrl-C raises
//! KeyboardInterrupt at once), `cancel()` from another thread, the run's
//! stop flag and the caller's node and time budgets. The search sits
//! behind a lock held only inside a slice, so another thread may read the
//! stats or cancel while a search runs.

use std::sync::MutexGuard;

use pyo3::prelude::*;
use xc::{Next, Poll, Sliced};

use crate::budget::{Budget, RunBudget};
use crate::convert;
use crate::driver::{Driven, Driver};
use crate::errors;
use crate::problem::PyCompiledProblem;
use crate::stats::PyStats;

const SLICE_NODES: u64 = 1 << 16;
const SLICE_UPDATES: u64 = 1 << 20;

/// A search over a compiled problem: the engine's state between calls.
#[pyclass(name = "Search", module = "covering._core", frozen)]
pub struct PySearch {
    driver: Driver<xc::Search>,
}

/// A frontier's pieces as moves (`parallel::from_moves`), each with its share.
type Shares = Vec<(Vec<i64>, f64)>;

/// The search's slices are counted in nodes.
impl Driven for xc::Search {
    fn work(&self) -> u64 {
        self.stats().nodes
    }
}

enum Goal<'a> {
    Next,
    Count(u64),
    /// Count the solutions that are canonical under these option permutations.
    Canonical(&'a [Vec<u32>]),
}

/// Problems with fewer entries are laid out on the calling thread: a few
/// milliseconds, less than starting a thread to watch for Ctrl-C.
const LAID_OUT_AT_ONCE: usize = 1 << 16;

impl PySearch {
    /// A search made in the engine, for Python to go on with.
    pub fn of(search: xc::Search) -> PySearch {
        PySearch {
            // Slices that shrink where they are slow: a node of an L-tromino
            // board of 300 x 300 scans 90,000 items for the one to branch
            // on, and every slice of `SLICE_NODES` took 1.3 s there, deaf
            // to Ctrl-C and to a budget of seconds. (Starting small cost
            // the counts 5-13%: a count that ended within its first slice
            // was cut at 0.01 s and split among threads.) Where the search
            // pauses changes nothing it finds.
            driver: Driver::shrinking(search, "the search engine", SLICE_NODES),
        }
    }

    fn lock(&self) -> PyResult<MutexGuard<'_, xc::Search>> {
        self.driver.lock()
    }

    /// Runs slices until the goal, the end, a budget, a signal or
    /// cancel(): the next solution, or None.
    fn drive(
        &self,
        py: Python<'_>,
        goal: Goal<'_>,
        budget: &Budget,
        kept: &mut u64,
    ) -> PyResult<Option<Vec<u32>>> {
        // A slice of `n` nodes, and of SLICE_UPDATES updates: a node of a
        // problem of a million options may take that many by itself.
        let step = |search: &mut xc::Search, n: u64| {
            if search.is_exhausted() {
                return Some(None);
            }
            let slice = xc::Slice {
                work: n,
                updates: Some(SLICE_UPDATES),
                ..xc::Slice::ALL
            };
            let poll = match goal {
                Goal::Next => Sliced::run(search, slice),
                // A count stops once it has reached its target.
                Goal::Count(target) => match search.count_in(slice, target) {
                    Poll::Ready(_) => Poll::Ready(Next::Exhausted),
                    Poll::Pending => Poll::Pending,
                },
                Goal::Canonical(perms) => {
                    let (mut sol, mut scratch) = (Vec::new(), Vec::new());
                    // The slice's nodes and updates count from the start
                    // of the whole walk, not from each solution's.
                    let st = search.stats();
                    let (nodes, updates) = (
                        st.nodes.saturating_add(n),
                        st.updates.saturating_add(SLICE_UPDATES),
                    );
                    loop {
                        let st = search.stats();
                        let left = xc::Slice {
                            work: nodes.saturating_sub(st.nodes),
                            updates: Some(updates.saturating_sub(st.updates)),
                            ..slice
                        };
                        let poll = Sliced::run(search, left);
                        if poll != Poll::Ready(Next::Solution) {
                            break poll;
                        }
                        search.solution_into(&mut sol);
                        *kept += xc::is_canonical(&sol, perms, &mut scratch) as u64;
                    }
                }
            };
            match poll {
                Poll::Ready(Next::Solution) => Some(Some(search.solution())),
                Poll::Ready(Next::Exhausted) => Some(None),
                Poll::Pending => None,
            }
        };
        Ok(self.driver.drive(py, budget, step)?.flatten())
    }
}

#[pymethods]
impl PySearch {
    /// A search over `problem`; `seed` randomizes the order of options and the
    /// choice among equally good items; `engine` is "auto", "cells" or "bits".
    #[new]
    #[pyo3(signature = (problem, seed=None, engine="auto"))]
    fn new(
        py: Python<'_>,
        problem: &PyCompiledProblem,
        seed: Option<u64>,
        engine: &str,
    ) -> PyResult<Self> {
        let engine = convert::engine(engine)?;
        let p = problem.inner.clone();
        let search = if p.n_entries() < LAID_OUT_AT_ONCE {
            xc::Search::with_engine(p, seed, engine)
        } else {
            // Most of a second for a million options: laid out on a thread
            // of its own, so that Ctrl-C is answered meanwhile.
            let (search, signal) = crate::interrupt::until_interrupted(py, "the search", |stop| {
                xc::Search::with_engine_until(p, seed, engine, stop)
            })?;
            if let Some(e) = signal {
                return Err(e);
            }
            search.ok_or_else(|| errors::internal("the search was stopped".to_string()))?
        };
        Ok(PySearch::of(search))
    }

    /// Puts option `option` in every solution (before the search starts);
    /// False when it conflicts with the options forced before it.
    fn force(&self, option: u32) -> PyResult<bool> {
        let mut s = self.lock()?;
        if s.stats().nodes > 0 || s.is_exhausted() {
            return Err(errors::internal(
                "options can only be forced before the search starts",
            ));
        }
        if option as usize >= s.problem().n_options() {
            return Err(errors::invalid(format!("no option {option}")));
        }
        Ok(s.force(option))
    }

    /// The next solution as a list of option ids (increasing), or None when
    /// the search is exhausted, cancelled, or stopped by the run's `budget`
    /// (its nodes counted from the search's start).
    #[pyo3(signature = (budget=None))]
    fn next_solution(
        &self,
        py: Python<'_>,
        budget: Option<RunBudget<'_>>,
    ) -> PyResult<Option<Vec<u32>>> {
        let budget = self.driver.budget(budget.as_ref())?;
        self.drive(py, Goal::Next, &budget, &mut 0)
    }

    /// Counts solutions until the end, or until `target` are known, or a budget
    /// stops it; returns the number counted so far (check `exhausted`).
    #[pyo3(signature = (target=None, budget=None))]
    fn count(
        &self,
        py: Python<'_>,
        target: Option<u64>,
        budget: Option<RunBudget<'_>>,
    ) -> PyResult<u64> {
        let budget = self.driver.budget(budget.as_ref())?;
        let target = target.unwrap_or(u64::MAX);
        self.drive(py, Goal::Count(target), &budget, &mut 0)?;
        Ok(self.lock()?.stats().solutions)
    }

    /// Counts the solutions not yet seen that are canonical: no larger, as
    /// sorted lists of option ids, than their images under `perms` (each a
    /// map of option ids, forming a group of symmetries with the identity).
    /// Returns the number of canonical solutions found by this call (check
    /// `exhausted`), and whether Ctrl-C stopped it; `stats.solutions` counts
    /// them all.
    #[pyo3(signature = (perms, budget=None))]
    fn count_canonical(
        &self,
        py: Python<'_>,
        perms: Vec<Vec<u32>>,
        budget: Option<RunBudget<'_>>,
    ) -> PyResult<(u64, bool)> {
        let mut kept = 0;
        let budget = self.driver.budget(budget.as_ref())?;
        match self.drive(py, Goal::Canonical(&perms), &budget, &mut kept) {
            Ok(_) => Ok((kept, false)),
            // Ctrl-C: the canonical solutions counted so far go back with it
            // (the caller raises), since no count of them is kept elsewhere.
            Err(e) if e.is_instance_of::<pyo3::exceptions::PyKeyboardInterrupt>(py) => {
                Ok((kept, true))
            }
            Err(e) => Err(e),
        }
    }

    /// Stops a running search from another thread, at the end of its slice.
    fn cancel(&self) {
        self.driver.cancel();
    }

    /// Has the whole search tree been explored?
    #[getter]
    fn exhausted(&self) -> PyResult<bool> {
        Ok(self.lock()?.is_exhausted())
    }

    /// Was cancel() called?
    #[getter]
    fn cancelled(&self) -> bool {
        self.driver.is_cancelled()
    }

    /// The cost counters so far.
    #[getter]
    fn stats(&self) -> PyResult<PyStats> {
        Ok(self.lock()?.stats().into())
    }

    /// The data structure in use, "cells" or "bits", or "cells-wtd",
    /// "cells-frb" or "cells-binary" (dancing cells with that branching rule).
    #[getter]
    fn engine(&self) -> PyResult<&'static str> {
        Ok(convert::engine_name(self.lock()?.engine()))
    }

    /// What a search stopped by a budget has not explored, as pieces (see
    /// `covering.parallel`): empty once the search is exhausted.
    fn frontier(&self) -> PyResult<Vec<Vec<i64>>> {
        let s = self.lock()?;
        if s.is_exhausted() {
            return Ok(Vec::new());
        }
        Ok(s.frontier()
            .iter()
            .map(|m| crate::parallel::from_moves(m))
            .collect())
    }

    /// The frontier with each piece's share of the tree (Knuth's
    /// uniform-tree estimate): the shares add up to the part not explored.
    /// None where it would have more than `most` pieces.
    #[pyo3(signature = (most=None))]
    fn frontier_shares(&self, most: Option<usize>) -> PyResult<Option<Shares>> {
        let s = self.lock()?;
        if s.is_exhausted() {
            return Ok(Some(Vec::new()));
        }
        Ok(s.frontier_shares_within(most.unwrap_or(usize::MAX))
            .map(|f| {
                f.iter()
                    .map(|(m, w)| (crate::parallel::from_moves(m), *w))
                    .collect()
            }))
    }

    /// Knuth's progress path: (k, d) at each level, "choice k of d".
    fn progress(&self) -> PyResult<Vec<(u32, u32)>> {
        Ok(self.lock()?.progress())
    }

    /// Knuth's estimate of the fraction of the search tree explored.
    fn fraction_done(&self) -> PyResult<f64> {
        Ok(self.lock()?.fraction_done())
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Vec<u32>>> {
        self.next_solution(py, None)
    }
}
