//! Minimum-cost exact cover and the K best solutions: Knuth's DLX5, with
//! prices from the linear relaxation and with multiplicities.
//!
//! Each option has a nonnegative cost; a solution costs the sum of its
//! options. As in DLX5, each item with a fixed number of uses (`lo == hi`)
//! is *taxed*: the tax is taken off every option containing the item. Every
//! solution pays the same total tax, so the order of solutions is
//! unchanged, and an option's *net cost* says how much dearer it is than
//! the taxes of its items. Item lists are sorted by net cost, so the
//! cheapest option still usable is the first of its list, and an option
//! whose net cost would reach the cost to beat (the K-th best so far, the
//! *cutoff*) is never hidden nor tried: it stays behind as a harmless
//! "zombie", past every threshold below it.
//!
//! The taxes are where this goes past DLX5. DLX5 taxes item by item, each
//! the least net cost left to its options (a maximal dual solution, found
//! greedily). Here the taxes come first from the dual of the linear
//! relaxation, approached by Barahona and Anbil's volume algorithm on its
//! Lagrangian (`pricing.rs`, then made feasible so that no net cost is
//! negative), and DLX5's greedy taxes are raised on top. The total tax is
//! then close to the relaxation's optimum, a lower bound on every solution,
//! and the net costs are its reduced costs: where the relaxation is tight
//! (L-tromino tilings with random costs: 1150 of an optimum of 1263 on
//! 12x12), nearly every option is dearer than the gap and never enters the
//! search (9.0 s for DLX5 against 0.03 s, K = 10); where it is loose
//! (pentominoes: 51 of 241), the search is DLX5's. Prices are fractions
//! held in units of `1/SCALE` (costs are multiplied by `SCALE`), exactly.
//! Bounds at each node (Knuth's `z` and `Z` heuristics, a greedy dual of
//! the rest, a few Lagrangian steps warm-started from the parent's
//! multipliers, with options fixed out by their reduced costs) were
//! measured and left out of this search: they cost more than they saved
//! (on crew-like set partitions of 200 rows, 10 s and 20 s instead of
//! 0.55 s to the proof). The Lagrangian bound at each node lives on in the
//! dives of set partitioning problems ([`Cheapest`], `partition.rs`), which
//! look for solutions rather than proofs.
//! So were rounds under ceilings before a first solution (only solutions
//! within 0.1% of the bound, then 0.2%, ..., each round that ends empty a
//! proof that none is cheaper): the airline crew instance air03 took 927
//! nodes to the proof instead of 59,989, but the time is the pricing's
//! (0.19 s against 0.32 s), and where the relaxation is far from the
//! optimum the rounds repeat the search (nw-like pairings 40 x 20,040:
//! 0.34 s against 0.21 s; random XCC with colors, K = 100: 3.1 s against
//! 2.5 s).
//!
//! Two things make the prices count. Every solution's cost is whole, so a
//! solution worth keeping costs a whole unit less than the K-th best: the
//! bar a net cost must stay under is the K-th best's net cost less
//! `scale - 1`, and a fractional bound is rounded up for free (tilings
//! whose covers all cost the same are then proven at the first cover). And
//! once K solutions are known, the search starts over with prices aimed at
//! the K-th best cost ([`Cheapest`]).
//!
//! The search is DLX2's dancing links (cover, hide, purify) with DLX5's
//! thresholds and branching rule (fewest usable options, ties to the
//! dearest cheapest option); Knuth's step names (`forward`, `advance`,
//! `recover`, `backup`, `backdown`) name the steps. Problems with few
//! options and no multiplicities get the same search on bitsets
//! ([`MinCostBits`], about three times faster on pentominoes); [`Cheapest`]
//! picks. The net costs and the K best kept are shared (`pricing.rs`).
//!
//! Multiplicities (DLX5 has none): an item covered `lo..=hi` times stays
//! open until it is covered `hi` times or a branch decides to use it no
//! more (once it has `lo`); branching on an item that stays open tries each
//! usable option in turn and then *excludes* it, so that each set of options
//! is met once. Only items with `lo == hi` are taxed (others are covered a
//! varying number of times, which would change the tax a solution pays).
//!
//! Net costs and sums are 64-bit: [`MinCost::new`] refuses costs whose sum
//! over all options does not fit (and uses whole prices when the scaled
//! costs would not fit).
//!
//! ```
//! use xc::{CompiledProblem, MinCost, Poll, Slice, Sliced};
//! // Cover {0, 1} by {0, 1} (cost 5), or by {0} (cost 1) and {1} (cost 2).
//! let p = CompiledProblem::new(2, 0, vec![1; 2], vec![1; 2],
//!     vec![0, 2, 3, 4], vec![0, 1, 0, 1], vec![]).unwrap();
//! let mut m = MinCost::new(&p, &[5, 1, 2], 2).unwrap();
//! assert_eq!(m.run(Slice::ALL), Poll::Ready(()));
//! let best: Vec<(u64, Vec<u32>)> = m.ledger().best();
//! assert_eq!(best, vec![(3, vec![1, 2]), (5, vec![0])]);
//! ```

//!
//! The code, by job: `dlx5.rs` is the search on dancing links
//! ([`MinCost`]); `portfolio.rs` is [`Cheapest`], the search a problem gets,
//! with the reductions before it and its restart; `dive.rs` its dives in
//! the branch and bound on Lagrangian bounds; `race.rs` the LP tree beside
//! it, scheduled by work.

mod dive;
mod dlx5;
mod neighbourhood;
mod portfolio;
mod race;
#[cfg(test)]
mod tests;

pub use dlx5::MinCost;
pub use portfolio::Cheapest;
