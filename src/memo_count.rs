//! `MemoCount`: counting by memoized sub-problems.

use pyo3::prelude::*;

use crate::budget::RunBudget;
use crate::driver::Driver;
use crate::errors;
use crate::memo::{self, to_int};
use crate::problem::PyCompiledProblem;
use crate::stats::PyMemoStats;

#[pyclass(name = "MemoCount", module = "covering._core", frozen)]
pub struct PyMemoCount {
    driver: Driver<xc::MemoPool>,
}

#[pymethods]
impl PyMemoCount {
    /// A memo count of `problem` with a memo of about `memo_bytes` bytes;
    /// `branching` is "mrv" (fewest options first) or "first" (first
    /// uncovered item); `split`: count parts that no option joins apart and
    /// multiply (the same count either way); `threads`: sub-problems counted
    /// on that many threads (taken as 1 to 256) sharing one memo.
    /// ProblemError if the problem has multiplicities or too many options.
    #[new]
    #[pyo3(signature = (problem, memo_bytes, branching="mrv", split=true, threads=1))]
    fn new(
        py: Python<'_>,
        problem: &PyCompiledProblem,
        memo_bytes: usize,
        branching: &str,
        split: bool,
        threads: usize,
    ) -> PyResult<Self> {
        let rule = memo::branching(branching)?;
        let inner = &problem.inner;
        let mut pool = py
            .detach(|| xc::MemoPool::new(inner, rule, memo_bytes, threads.clamp(1, 256)))
            .map_err(|e| errors::problem(e.to_string()))?;
        pool.set_split(split);
        Ok(PyMemoCount {
            driver: Driver::adaptive(pool, "the memo search", memo::SLICE_NODES),
        })
    }

    /// Sub-problems the count is split into among the threads (1 on one thread).
    #[getter]
    fn tasks(&self) -> PyResult<usize> {
        Ok(self.driver.lock()?.tasks())
    }

    /// Levels split into parts so far.
    #[getter]
    fn splits(&self) -> PyResult<u64> {
        Ok(self.driver.lock()?.splits())
    }

    /// Counts until the end (returns the count), or until the run's
    /// `budget` (its nodes counted from the start, its memory, its flag) or
    /// `cancel()` stops it (returns None; `partial` says how many solutions
    /// are counted so far). Ctrl-C raises KeyboardInterrupt.
    #[pyo3(signature = (budget=None))]
    fn run<'py>(
        &self,
        py: Python<'py>,
        budget: Option<RunBudget<'_>>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let budget = self.driver.budget(budget.as_ref())?;
        match self.driver.run(py, &budget)? {
            Some(n) => Ok(Some(to_int(py, &n)?)),
            None => Ok(None),
        }
    }

    /// The solutions counted so far (all of them once `run` has returned the count).
    #[getter]
    fn partial<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let n = self.driver.lock()?.partial();
        to_int(py, &n)
    }

    /// Stops a running count from another thread, at the end of its slice.
    fn cancel(&self) {
        self.driver.cancel();
    }

    /// (nodes, hits, entries, evictions, bytes, saved): nodes searched,
    /// sub-problems found in the memo, entries held, entries evicted, bytes
    /// held, and the nodes the sub-problems found took to count.
    #[getter]
    fn stats(&self) -> PyResult<PyMemoStats> {
        Ok(PyMemoStats::from(&self.driver.lock()?.stats()))
    }
}
