//! `MemoZdd`: the diagram (ZDD) of all the solutions, built by the memo search.

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::budget::RunBudget;
use crate::driver::Driver;
use crate::errors;
use crate::memo;
use crate::problem::PyCompiledProblem;
use crate::stats::PyMemoStats;

#[pyclass(name = "MemoZdd", module = "covering._core", frozen)]
pub struct PyMemoZdd {
    driver: Driver<xc::Memo<u32>>,
}

#[pymethods]
impl PyMemoZdd {
    /// The search of `MemoCount`, building the diagram of all the solutions
    /// (node ids: 0 no solution, 1 the empty solution, k + 2 the k-th node).
    #[new]
    #[pyo3(signature = (problem, memo_bytes, branching="mrv"))]
    fn new(problem: &PyCompiledProblem, memo_bytes: usize, branching: &str) -> PyResult<Self> {
        Ok(PyMemoZdd {
            driver: Driver::adaptive(
                xc::Memo::new(&problem.inner, memo::branching(branching)?, memo_bytes)
                    .map_err(|e| errors::problem(e.to_string()))?,
                "the memo search",
                memo::SLICE_NODES,
            ),
        })
    }

    /// Builds until the end (returns the root's id), or until the run's
    /// `budget` (its nodes counted from the start, its memory, its flag) or
    /// `cancel()` stops it (returns None).
    #[pyo3(signature = (budget=None))]
    fn run(&self, py: Python<'_>, budget: Option<RunBudget<'_>>) -> PyResult<Option<u32>> {
        let budget = self.driver.budget(budget.as_ref())?;
        self.driver.run(py, &budget)
    }

    /// The diagram's nodes so far as little-endian u32 triples (option, lo, hi).
    fn nodes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let memo = self.driver.lock()?;
        let mut out = Vec::with_capacity(12 * memo.nodes().len());
        for n in memo.nodes() {
            for x in [n.option, n.lo, n.hi] {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        Ok(PyBytes::new(py, &out))
    }

    /// Stops a running search from another thread, at the end of its slice.
    fn cancel(&self) {
        self.driver.cancel();
    }

    /// Its counters, as for `MemoCount`.
    #[getter]
    fn stats(&self) -> PyResult<PyMemoStats> {
        Ok(PyMemoStats::from(&self.driver.lock()?.stats()))
    }
}
