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

impl PyStats {
    /// The engine's counters back.
    pub fn to_xc(&self) -> xc::Stats {
        xc::Stats {
            nodes: self.nodes,
            updates: self.updates,
            mems: self.mems,
            cleansings: self.cleansings,
            solutions: self.solutions,
            max_level: self.max_level,
        }
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

/// A frozen Python class of named counters, made from the engine's struct
/// of the same fields: what every engine's stats and progress come back as
/// (never a tuple read by position). Each pickles and compares by value.
macro_rules! counters {
    ($(#[$doc:meta])* $name:ident = $py:literal from $from:ty {
        $($(#[$fdoc:meta])* $field:ident: $ty:ty),* $(,)?
    } $({ $($methods:tt)* })?) => {
        $(#[$doc])*
        #[pyclass(name = $py, module = "covering._core", frozen, get_all, eq)]
        #[derive(Clone, PartialEq)]
        pub struct $name {
            $($(#[$fdoc])* pub $field: $ty,)*
        }

        #[pymethods]
        impl $name {
            #[new]
            fn new($($field: $ty),*) -> Self {
                $name { $($field),* }
            }

            fn __getnewargs__(&self) -> ($($ty,)*) {
                ($(self.$field,)*)
            }

            fn __repr__(&self) -> String {
                let fields: Vec<String> = vec![$(format!("{}={}", stringify!($field), self.$field)),*];
                format!("{}({})", $py, fields.join(", "))
            }

            $($($methods)*)?
        }

        impl From<&$from> for $name {
            fn from(s: &$from) -> Self {
                $name { $($field: s.$field),* }
            }
        }
    };
}

counters! {
    /// The counters of a memo count or diagram.
    PyMemoStats = "MemoStats" from xc::MemoStats {
        /// Nodes entered (sub-problems counted by search).
        nodes: u64,
        /// Sub-problems found in the memo.
        hits: u64,
        /// Entries held, and entries replaced at the memo's budget.
        entries: u64,
        evictions: u64,
        /// Bytes the memo holds.
        bytes: u64,
        /// Nodes the sub-problems found in the memo took when they were counted.
        saved: u64,
    }
}

counters! {
    /// Where a frontier count stands.
    PyFrontierProgress = "FrontierProgress" from xc::FrontierProgress {
        /// Primary items settled, of `items`.
        item: u64,
        items: u64,
        /// States of the step under way, and the most held at once.
        states: u64,
        peak_states: u64,
        /// Bytes held now.
        bytes: u64,
        /// Transitions tried (its nodes, to budgets).
        work: u64,
        /// Approximate memory accesses, as Knuth counts mems.
        mems: u64,
    } {
        /// Its transitions: what a budget's nodes count on the frontier.
        #[getter]
        fn nodes(&self) -> u64 {
            self.work
        }
    }
}

counters! {
    /// The counters of a minimum-cost search.
    PyMinCostCounters = "MinCostCounters" from xc::MinCostStats {
        /// Nodes entered, options hidden.
        nodes: u64,
        updates: u64,
        /// Solutions kept when found (each cheaper than the K-th best of its time).
        improvements: u64,
        /// Deepest level reached.
        max_level: u64,
    }
}

counters! {
    /// The counters of a CDCL search (CaDiCaL's, over every call).
    PySatStats = "SatStats" from sat::SatStats {
        /// Solutions found.
        solutions: u64,
        /// Conflicts analysed, decisions taken, literals propagated.
        conflicts: u64,
        decisions: u64,
        propagations: u64,
        /// Calls of the solver (one per solution, and one that ends).
        solves: u64,
        /// Variables and clauses of the encoding (blocking clauses included).
        variables: u64,
        clauses: u64,
    } {
        /// The decisions: the nodes of the CDCL search (what a budget's nodes count).
        #[getter]
        fn nodes(&self) -> u64 {
            self.decisions
        }
    }
}

/// The pool's counters at one moment (read from its atomics).
pub struct PoolSnapshot {
    pub nodes: u64,
    pub solutions: u64,
    pub pieces_done: u64,
    pub pieces_made: u64,
    pub fraction: f64,
}

counters! {
    /// Where the engine's threads stand, over all their runs.
    PyPoolProgress = "PoolProgress" from PoolSnapshot {
        /// Nodes entered and solutions found, all threads together.
        nodes: u64,
        solutions: u64,
        /// Pieces searched to the end (or cut up), and pieces handed out.
        pieces_done: u64,
        pieces_made: u64,
        /// The weight of the work done (the fraction of the tree, when the pieces started at 1).
        fraction: f64,
    }
}
