//! Counting solutions without listing them: the memo of sub-problems and its
//! ZDD, the frontier (transfer matrix) and its item orders, Kasteleyn's
//! determinant, and the plan that chooses among them. Looks down to search
//! and the core; never at cost.

pub(crate) mod frontier;
pub mod kasteleyn;
pub(crate) mod mcc_order;
pub(crate) mod memo;
pub(crate) mod memo_pool;
pub(crate) mod order;
pub mod plan;
pub mod steps;
