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

const SLICE_NODES: u64 = 1 << 14;

pub fn to_int<'py>(py: Python<'py>, n: &xc::Number) -> PyResult<Bound<'py, PyAny>> {
    let bytes = PyBytes::new(py, &n.to_le_bytes());
    py.get_type::<PyInt>()
        .call_method1("from_bytes", (bytes, "little"))
}

/// What a driver runs in slices: a memo search, or a pool of them.
pub trait Sliced: Send {
    type Value: Send;
    fn run(&mut self, nodes: u64) -> Option<Self::Value>;
    fn stats(&self) -> xc::MemoStats;
    /// Bytes held: the memo, and a diagram's nodes if any.
    fn held(&self) -> u64;
}

impl<V: xc::Tally + Send> Sliced for xc::Memo<V> {
    type Value = V;
    fn run(&mut self, nodes: u64) -> Option<V> {
        xc::Memo::run(self, nodes)
    }
    fn stats(&self) -> xc::MemoStats {
        xc::Memo::stats(self)
    }
    fn held(&self) -> u64 {
        // A diagram node is 12 bytes, and its vector may hold twice that.
        self.stats().bytes + 24 * self.nodes().len() as u64
    }
}

impl Sliced for xc::MemoPool {
    type Value = xc::Number;
    fn run(&mut self, nodes: u64) -> Option<xc::Number> {
        xc::MemoPool::run(self, nodes)
    }
    fn stats(&self) -> xc::MemoStats {
        xc::MemoPool::stats(self)
    }
    fn held(&self) -> u64 {
        self.stats().bytes
    }
}

/// The rule named `branching`.
pub fn branching(name: &str) -> PyResult<xc::Branching> {
    match name {
        "mrv" => Ok(xc::Branching::Mrv),
        "first" => Ok(xc::Branching::First),
        other => Err(errors::invalid(format!(
            "branching must be 'mrv' or 'first', not {other:?}"
        ))),
    }
}

/// A memo search of either kind, with what the Python class needs around it.
pub struct Driver<M> {
    memo: Mutex<M>,
    pub cancelled: AtomicBool,
}

impl<M: Sliced> Driver<M> {
    pub fn new(memo: M) -> Self {
        Driver {
            memo: Mutex::new(memo),
            cancelled: AtomicBool::new(false),
        }
    }

    pub fn lock(&self) -> PyResult<MutexGuard<'_, M>> {
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
    ) -> PyResult<Option<M::Value>> {
        let step = |n: u64| {
            let mut memo = self.lock()?;
            let before = memo.stats().nodes;
            let value = memo.run(n.min(SLICE_NODES));
            Ok((value, memo.stats().nodes - before))
        };
        // Past the memory budget the run stops with a MemoryError.
        let held = || Ok((self.lock()?.held(), "the memo and the diagram hold"));
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
