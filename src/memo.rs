//! `MemoCount`: a memo count (see the `xc` crate's `memo` module), driven
//! from Python in slices like `Search`: the GIL is released for each slice,
//! and between slices Ctrl-C, `cancel()` and the caller's budgets are seen.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt};

use crate::errors::ProblemError;
use crate::problem::PyCompiledProblem;

const SLICE_NODES: u64 = 1 << 14;

#[pyclass(name = "MemoCount", module = "covering._core", frozen)]
pub struct PyMemoCount {
    count: Mutex<xc::MemoCount>,
    cancelled: AtomicBool,
}

fn to_int<'py>(py: Python<'py>, n: &xc::Number) -> PyResult<Bound<'py, PyAny>> {
    let bytes = PyBytes::new(py, &n.to_le_bytes());
    py.get_type::<PyInt>()
        .call_method1("from_bytes", (bytes, "little"))
}

impl PyMemoCount {
    fn lock(&self) -> PyResult<MutexGuard<'_, xc::MemoCount>> {
        self.count
            .lock()
            .map_err(|_| PyRuntimeError::new_err("the memo count failed in another thread"))
    }
}

#[pymethods]
impl PyMemoCount {
    /// A memo count of `problem` with a memo of about `memo_bytes` bytes;
    /// `branching` is "mrv" (fewest options first) or "first" (first
    /// uncovered item). ProblemError if the problem has multiplicities or
    /// too many options.
    #[new]
    #[pyo3(signature = (problem, memo_bytes, branching="mrv"))]
    fn new(problem: &PyCompiledProblem, memo_bytes: usize, branching: &str) -> PyResult<Self> {
        let branching = match branching {
            "mrv" => xc::Branching::Mrv,
            "first" => xc::Branching::First,
            other => {
                return Err(PyValueError::new_err(format!(
                    "branching must be 'mrv' or 'first', not {other:?}"
                )))
            }
        };
        let count = xc::MemoCount::new(&problem.inner, branching, memo_bytes)
            .map_err(|e| ProblemError::new_err(e.to_string()))?;
        Ok(PyMemoCount {
            count: Mutex::new(count),
            cancelled: AtomicBool::new(false),
        })
    }

    /// Counts until the end (returns the count), or until `node_limit` more
    /// nodes, `seconds`, or `cancel()` (returns None; `partial` says how
    /// many solutions are counted so far). Ctrl-C raises KeyboardInterrupt.
    #[pyo3(signature = (node_limit=None, seconds=None))]
    fn run<'py>(
        &self,
        py: Python<'py>,
        node_limit: Option<u64>,
        seconds: Option<f64>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let deadline = seconds.map(|s| Instant::now() + Duration::from_secs_f64(s.max(0.0)));
        let mut left = node_limit.unwrap_or(u64::MAX);
        loop {
            if self.cancelled.load(Ordering::Relaxed) || left == 0 {
                return Ok(None);
            }
            let slice = left.min(SLICE_NODES);
            let result = py.detach(|| {
                let mut count = self.lock()?;
                let before = count.stats().nodes;
                catch_unwind(AssertUnwindSafe(|| {
                    let r = count.run(slice);
                    (r, count.stats().nodes - before)
                }))
                .map_err(|_| PyRuntimeError::new_err("internal error in the memo count"))
            })?;
            if let (Some(n), _) = &result {
                return Ok(Some(to_int(py, n)?));
            }
            left = left.saturating_sub(result.1.max(1));
            py.check_signals()?;
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return Ok(None);
            }
        }
    }

    /// The solutions counted so far (all of them once `run` has returned the count).
    #[getter]
    fn partial<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let n = self.lock()?.partial();
        to_int(py, &n)
    }

    /// Stops a running count from another thread, at the end of its slice.
    fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    /// (nodes, hits, entries, evictions, bytes): nodes searched, sub-problems
    /// found in the memo, entries held, entries evicted, bytes held.
    #[getter]
    fn stats(&self) -> PyResult<(u64, u64, u64, u64, u64)> {
        let s = self.lock()?.stats();
        Ok((s.nodes, s.hits, s.entries, s.evictions, s.bytes))
    }
}
