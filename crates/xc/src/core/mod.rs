//! The data every family shares: the compiled problem and its checks, the
//! preprocessing, the sliced run protocol, counters, exact numbers, the
//! seeded generator, the machine interface the engines implement, and the
//! bit tables (the options' clashes as words) that search, counting and cost
//! all take. Looks at nothing above it.

pub(crate) mod bitmasks;
pub(crate) mod bits;
pub(crate) mod canon;
pub(crate) mod machine;
pub(crate) mod number;
pub(crate) mod problem;
pub(crate) mod reduce;
pub(crate) mod rng;
pub(crate) mod sliced;
pub(crate) mod stats;
