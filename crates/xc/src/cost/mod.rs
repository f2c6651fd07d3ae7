//! Minimum cost and the K best: Knuth's DLX5 taxed by Lagrangian prices, the
//! set partitioning reductions (copies, options that go together), the LP
//! relaxation and its branch and bound, and the portfolio that races them.
//! Looks down to search and the core; never at counting.

pub(crate) mod copies;
pub(crate) mod lp_tree;
pub(crate) mod mincost;
pub(crate) mod mincost_bits;
pub(crate) mod partition;
pub(crate) mod pricing;
#[cfg(test)]
pub(crate) mod testing;
pub(crate) mod together;
pub(crate) mod volume;
