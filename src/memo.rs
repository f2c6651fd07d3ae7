//! What `MemoCount` and `MemoZdd` share: a memo search (see the `xc`
//! crate's `memo` module) driven from Python in slices like `Search`: the GIL
//! is released for each slice, and between slices Ctrl-C, `cancel()` and the
//! caller's budgets are seen.

use std::sync::atomic::AtomicBool;
use std::sync::{Mutex, MutexGuard};

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt};

use crate::errors;
use crate::interrupt::in_budget;
use crate::problem::PyCompiledProblem;

const SLICE_NODES: u64 = 1 << 14;

pub fn to_int<'py>(py: Python<'py>, n: &xc::Number) -> PyResult<Bound<'py, PyAny>> {
    let bytes = PyBytes::new(py, &n.to_le_bytes());
    py.get_type::<PyInt>()
        .call_method1("from_bytes", (bytes, "little"))
}

/// A memo search of either kind, with what the Python class needs around it.
pub struct Driver<V> {
    memo: Mutex<xc::Memo<V>>,
    pub cancelled: AtomicBool,
}

impl<V: xc::Tally + Send> Driver<V> {
    pub fn new(problem: &PyCompiledProblem, memo_bytes: usize, branching: &str) -> PyResult<Self> {
        let branching = match branching {
            "mrv" => xc::Branching::Mrv,
            "first" => xc::Branching::First,
            other => {
                return Err(errors::invalid(format!(
                    "branching must be 'mrv' or 'first', not {other:?}"
                )))
            }
        };
        let memo = xc::Memo::new(&problem.inner, branching, memo_bytes)
            .map_err(|e| errors::problem(e.to_string()))?;
        Ok(Driver {
            memo: Mutex::new(memo),
            cancelled: AtomicBool::new(false),
        })
    }

    pub fn lock(&self) -> PyResult<MutexGuard<'_, xc::Memo<V>>> {
        self.memo
            .lock()
            .map_err(|_| errors::internal("the memo search failed in another thread"))
    }

    /// Runs until the end (the value), or until `node_limit` more nodes,
    /// `seconds`, or `cancel()` (None). Ctrl-C raises KeyboardInterrupt.
    ///
    /// `memory_limit` bounds the memo and the diagram together, in bytes:
    /// past it the run stops with a MemoryError (the caller says what to do),
    /// rather than growing until the allocator aborts the process.
    pub fn run(
        &self,
        py: Python<'_>,
        node_limit: Option<u64>,
        seconds: Option<f64>,
        memory_limit: Option<u64>,
    ) -> PyResult<Option<V>> {
        let step = |n: u64| {
            let mut memo = self.lock()?;
            let before = memo.stats().nodes;
            let value = memo.run(n.min(SLICE_NODES));
            Ok((value, memo.stats().nodes - before))
        };
        // Past the memory budget the run stops with a MemoryError.
        let held = || {
            let memo = self.lock()?;
            // A diagram node is 12 bytes, and its vector may hold twice that.
            let bytes = memo.stats().bytes + 24 * memo.nodes().len() as u64;
            Ok((bytes, "the memo and the diagram hold"))
        };
        let (cancelled, what) = (&self.cancelled, "the memo search");
        in_budget(
            py,
            what,
            cancelled,
            node_limit,
            seconds,
            memory_limit,
            step,
            held,
        )
    }

    pub fn stats(&self) -> PyResult<(u64, u64, u64, u64, u64)> {
        let s = self.lock()?.stats();
        Ok((s.nodes, s.hits, s.entries, s.evictions, s.bytes))
    }
}
