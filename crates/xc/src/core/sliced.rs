//! The one way every long run of the engine goes: in slices. A run (the
//! search, the CDCL solver, the memo, the frontier, the min-cost searches)
//! does at most a slice's work, then returns, keeping its place: the caller
//! (the binding) checks Ctrl-C, the clock and a cancel flag between slices,
//! and calls again.
//!
//! ```
//! use xc::{Branching, CompiledProblem, MemoCount, Poll, Slice, Sliced};
//! // Items {0, 1}; options {0}, {1}, {0, 1}: two solutions.
//! let p = CompiledProblem::new(2, 0, vec![1; 2], vec![1; 2],
//!     vec![0, 1, 2, 4], vec![0, 1, 0, 1], vec![]).unwrap();
//! let mut m = MemoCount::new(&p, Branching::Mrv, 1 << 20).unwrap();
//! let count = loop {
//!     if let Poll::Ready(n) = m.run(Slice::work(1)) {
//!         break n;
//!     }
//! };
//! assert_eq!(count.to_u128(), Some(2));
//! ```

use std::time::Instant;

/// What one slice of a run ended with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Poll<T> {
    /// The run reached an outcome (a count, a solution, the end).
    Ready(T),
    /// The slice's budget ran out first: call again to go on.
    Pending,
}

impl<T> Poll<T> {
    /// Did the run reach its outcome?
    pub fn is_ready(&self) -> bool {
        matches!(self, Poll::Ready(_))
    }

    /// Is the run to be called again?
    pub fn is_pending(&self) -> bool {
        matches!(self, Poll::Pending)
    }

    /// The outcome, if the run reached one.
    pub fn ready(self) -> Option<T> {
        match self {
            Poll::Ready(t) => Some(t),
            Poll::Pending => None,
        }
    }
}

/// The budget of one slice, counted from the call: `work` units (the
/// nodes of a search, the memo or a min-cost search; the transitions of the
/// frontier; the decisions of the CDCL solver); for dancing links also
/// `updates` (a node of a problem of a million options may do that many by
/// itself); and for the CDCL solver, which cannot stop between two of its
/// steps from outside, also its conflicts and a deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slice {
    pub work: u64,
    pub updates: Option<u64>,
    pub conflicts: Option<u64>,
    pub deadline: Option<Instant>,
}

impl Slice {
    /// No limit at all: the run goes to its outcome.
    pub const ALL: Slice = Slice {
        work: u64::MAX,
        updates: None,
        conflicts: None,
        deadline: None,
    };

    /// At most `work` units of work.
    pub fn work(work: u64) -> Slice {
        Slice { work, ..Slice::ALL }
    }
}

/// The outcome of a run that reports solutions one by one (the search,
/// the CDCL solver): the next solution (read with `solution_into`), or the
/// end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    Solution,
    Exhausted,
}

/// A run that goes in slices (see the module's text).
pub trait Sliced {
    /// What the run ends with: a count, the next solution or the end, ...
    type Outcome;
    /// Runs for at most `slice`, keeping its place: [`Poll::Ready`] with the
    /// outcome, or [`Poll::Pending`] to be called again.
    fn run(&mut self, slice: Slice) -> Poll<Self::Outcome>;
}
