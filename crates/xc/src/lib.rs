//! The engine of `covering`: exact cover by Knuth's Algorithm X, with
//! secondary items and colors (Algorithm C) and multiplicities (Algorithm M),
//! danced on sparse sets as in Knuth's SSXCC.
//!
//! The crate is Rust (with CaDiCaL, C++, vendored by the `cadical-sys` crate,
//! for the CDCL engine, [`Sat`]) and never sees a string: a [`CompiledProblem`] is a
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

mod bitmasks;
mod bits;
mod canon;
mod cells;
mod cellsearch;
mod cliques;
mod copies;
pub mod footprint;
mod frontier;
pub mod kasteleyn;
mod lp_tree;
mod machine;
mod mbits;
mod mcc_order;
mod memo;
mod memo_pool;
mod mincost;
mod mincost_bits;
mod number;
mod order;
mod partition;
pub mod plan;
mod pricing;
mod problem;
mod reduce;
mod rng;
mod sat;
mod search;
mod simplex;
mod sliced;
mod split;
mod stats;
mod together;
mod volume;

pub use canon::is_canonical;
pub use cliques::clique_cuts;
pub use copies::{Kept, cheapest_copies};
pub use frontier::{Frontier, FrontierError, FrontierProgress, field_widths};
pub use lp_tree::LpTree;
pub use machine::{Engine, Heuristic, Move};
pub use mcc_order::{choose as choose_order, choose_until as choose_order_until};
pub use memo::{
    Branching, MEMO_MAX_OPTIONS, Memo, MemoCount, MemoError, MemoStats, MemoZdd, Tally, ZddNode,
};
pub use memo_pool::MemoPool;
pub use mincost::{Cheapest, MinCost};
pub use mincost_bits::MinCostBits;
pub use number::Number;
pub use order::{
    ItemOrder, choose_until as choose_order_by_prediction_until, profile as order_profile,
};
pub use partition::Partition;
pub use pricing::{CostError, Ledger, MinCostStats};
pub use problem::{CompiledProblem, Error, Sifted, sift_options};
pub use reduce::{Reduced, reduce};
pub use rng::Rng;
pub use sat::{Sat, SatStats};
pub use search::Search;
pub use simplex::{DualSimplex, LpStatus};
pub use sliced::{Next, Poll, Slice, Sliced};
pub use split::{AtomicF64, Estimated, Piece, Pool, Report, Shared, split, split_until};
pub use stats::{Stats, fraction_done, fraction_explored};
pub use together::{Merged, merge_together};
