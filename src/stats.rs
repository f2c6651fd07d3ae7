//! `Stats`: the cost counters of a search, as Python sees them.

use pyo3::prelude::*;

/// The cost counters of a search (Knuth's: nodes, updates, mems, ...).
#[pyclass(name = "Stats", module = "covering._core", frozen, get_all, eq)]
#[derive(Clone, PartialEq)]
pub struct PyStats {
    /// Search-tree nodes entered.
    nodes: u64,
    /// Options removed from an item's set (dancing cells), or item counts
    /// decremented (bitsets).
    updates: u64,
    /// Approximate 64-bit memory accesses.
    mems: u64,
    /// Purification steps of secondary items (colors).
    cleansings: u64,
    /// Solutions found (or counted) so far.
    solutions: u64,
    /// Deepest level reached.
    max_level: u64,
}

#[pymethods]
impl PyStats {
    /// The counters as given (so that a `Stats` pickles, and compares equal
    /// after a round trip).
    #[new]
    #[pyo3(signature = (nodes=0, updates=0, mems=0, cleansings=0, solutions=0, max_level=0))]
    fn new(
        nodes: u64,
        updates: u64,
        mems: u64,
        cleansings: u64,
        solutions: u64,
        max_level: u64,
    ) -> Self {
        PyStats {
            nodes,
            updates,
            mems,
            cleansings,
            solutions,
            max_level,
        }
    }

    fn __getnewargs__(&self) -> (u64, u64, u64, u64, u64, u64) {
        (
            self.nodes,
            self.updates,
            self.mems,
            self.cleansings,
            self.solutions,
            self.max_level,
        )
    }

    fn __repr__(&self) -> String {
        format!(
            "Stats(nodes={}, updates={}, mems={}, cleansings={}, solutions={}, max_level={})",
            self.nodes, self.updates, self.mems, self.cleansings, self.solutions, self.max_level
        )
    }
}

impl From<xc::Stats> for PyStats {
    fn from(s: xc::Stats) -> Self {
        PyStats {
            nodes: s.nodes,
            updates: s.updates,
            mems: s.mems,
            cleansings: s.cleansings,
            solutions: s.solutions,
            max_level: s.max_level,
        }
    }
}
