//! What `MemoCount` and `MemoZdd` share: the memo searches (see the `xc`
//! crate's `memo` module) as the one driver runs them (`driver.rs`), the
//! rule by its name, counts as Python ints.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt};

use crate::driver::Driven;
use crate::errors;

/// The most nodes in a slice of a memo search (its slices adapt to take
/// about the driver's `SLICE_TIME`: a node of a big board costs some
/// microseconds, and 2^14 of them ran 120 ms past a deadline).
pub const SLICE_NODES: u64 = 1 << 14;

pub fn to_int<'py>(py: Python<'py>, n: &xc::Number) -> PyResult<Bound<'py, PyAny>> {
    let bytes = PyBytes::new(py, &n.to_le_bytes());
    py.get_type::<PyInt>()
        .call_method1("from_bytes", (bytes, "little"))
}

/// The memo in slices of nodes; what it holds is the memo and, when it
/// builds a diagram, the diagram's nodes.
impl<V: xc::Tally + Send> Driven for xc::Memo<V> {
    fn work(&self) -> u64 {
        self.stats().nodes
    }
    fn held(&self) -> (u64, &'static str) {
        // A diagram node is 12 bytes, and its vector may hold twice that.
        let bytes = self.stats().bytes + 24 * self.nodes().len() as u64;
        (bytes, "the memo and the diagram hold")
    }
    fn watch(&mut self, halt: Option<Arc<AtomicBool>>) {
        xc::Memo::watch(self, halt);
    }
}

impl Driven for xc::MemoPool {
    fn work(&self) -> u64 {
        self.stats().nodes
    }
    fn held(&self) -> (u64, &'static str) {
        (self.stats().bytes, "the memo holds")
    }
    fn watch(&mut self, halt: Option<Arc<AtomicBool>>) {
        xc::MemoPool::watch(self, halt);
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
