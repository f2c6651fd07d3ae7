//! The engine of `covering`: exact cover by Knuth's Algorithm X, with
//! secondary items and colors (Algorithm C) and multiplicities (Algorithm M),
//! danced on sparse sets as in Knuth's SSXCC.
//!
//! The crate is Rust alone (the CDCL engine, which needs CaDiCaL's C++, is the
//! crate `covering-sat`; the LP relaxation is `covering-lp`) and never sees a
//! string: a [`CompiledProblem`] is a
//! set of flat arrays (items numbered primary first, colors as small
//! integers), and a [`Search`] explores it step by step, resumable after any
//! solution or budget, without recursion.
//!
//! ```
//! use std::sync::Arc;
//! use xc::{CompiledProblem, Search};
//! // Cover {0, 1, 2} exactly with the options {0, 1}, {2}, {0}, {1, 2}.
//! let p = CompiledProblem::new(3, 0, vec![1; 3], vec![1; 3],
//!     vec![0, 2, 3, 4, 6], vec![0, 1, 2, 0, 1, 2], vec![]).unwrap();
//! let mut s = Search::new(Arc::new(p), None);
//! assert_eq!(s.count_all(), 2);
//! ```

// The families, each looking only down: core at the bottom; search on it;
// counting and cost beside each other on search (neither imports the other).
// docs/ARCHITECTURE.md draws it and tests/test_layers.py checks it.
mod core;
mod cost;
mod counting;
mod search;

pub use counting::{kasteleyn, plan, steps};
pub use search::footprint;

pub use core::canon::is_canonical;
pub use core::machine::{Engine, Heuristic, Move};
pub use core::number::Number;
pub use core::problem::{CompiledProblem, Error, Sifted, sift_options};
pub use core::reduce::{Reduced, reduce};
pub use core::rng::Rng;
pub use core::sliced::{Next, Poll, Slice, Sliced};
pub use core::stats::{Stats, fraction_done, fraction_explored};
pub use cost::copies::{Kept, cheapest_copies};
pub use cost::lp_tree::LpTree;
pub use cost::mincost::{Cheapest, MinCost};
pub use cost::mincost_bits::MinCostBits;
pub use cost::partition::Partition;
pub use cost::pricing::{CostError, Ledger, MinCostStats};
pub use cost::together::{Merged, merge_together};
pub use counting::frontier::{Frontier, FrontierError, FrontierProgress, field_widths};
pub use counting::mcc_order::{choose as choose_order, choose_until as choose_order_until};
pub use counting::memo::{
    Branching, MEMO_DEFAULT_BYTES, MEMO_MAX_OPTIONS, Memo, MemoCount, MemoError, MemoStats,
    MemoZdd, Tally, ZddNode, memo_budget,
};
pub use counting::memo_pool::MemoPool;
pub use counting::order::{
    ItemOrder, choose_until as choose_order_by_prediction_until, profile as order_profile,
};
pub use lp::{DualSimplex, LpStatus, clique_cuts};
pub use search::front::Search;
pub use search::split::{AtomicF64, Estimated, Piece, Pool, Report, Shared, split, split_until};
