//! Linear programs of set partitioning for `covering`, and nothing of exact
//! cover: a 0/1 matrix by columns ([`Table`]), its relaxation solved by a
//! bounded dual simplex ([`DualSimplex`]), and clique cuts that tighten it
//! ([`clique_cuts`]). The engine's branch and bound (`covering-xc`,
//! `cost/lp_tree`) hands it columns in compressed form and reads back
//! values, multipliers and bounds.
//!
//! Why a simplex of our own and not HiGHS's, whose presolve and cuts are
//! stronger: the branch and bound needs what a library solver does not
//! give. A solve paused at an iteration limit goes on with the very pivots
//! of one solve, so that the tree runs in slices of work beside the search
//! (the race is scheduled by work, and the same command gives the same
//! answer on a busy machine); strong branching copies a relaxation that
//! shares its matrix (`Arc`), not the whole model; a cutoff ends a solve as
//! soon as its bound passes the cost to beat the search traded in; and the
//! crate builds with cargo alone (HiGHS's C++ build takes minutes, its Rust
//! binding needs libclang and cmake). Nor is a solve of its own slower:
//! the root relaxations of the generated crew-like instances of 200, 400
//! and 646 rows took 0.055 s, 0.30 s and 0.70 s of CPU here against HiGHS's
//! dual simplex's 0.105 s, 0.35 s and 0.62 s (scipy's, in the same
//! process), nw-like pairings of 80 x 30,080 0.18 s against 0.44 s, to the
//! same optima. The tests in tests/test_lp.py hold its optima to HiGHS's
//! on random, degenerate, badly scaled (costs 1 to 2^50: within 4e-15 of
//! HiGHS's, relatively) and infeasible relaxations, so no scaling is done:
//! the tolerances are met without it.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use lp::{DualSimplex, LpStatus};
//! // Rows {0, 1}; columns {0, 1} (cost 5), {0} (cost 1), {1} (cost 2).
//! let mut lp = DualSimplex::new(2, &[0, 2, 3, 4], &[0, 1, 0, 1], &[5.0, 1.0, 2.0], &[1.0, 1.0]);
//! assert_eq!(lp.solve(u64::MAX, &AtomicBool::new(false)), LpStatus::Optimal);
//! assert!((lp.bound() - 3.0).abs() < 1e-9);
//! ```

mod cliques;
mod simplex;
mod table;

pub use cliques::clique_cuts;
pub use simplex::{DualSimplex, LpStatus, REFACTOR};
pub use table::{Columns, Table, TableError};
