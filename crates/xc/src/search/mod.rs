//! Finding solutions: dancing cells (Knuth's SSXCC steps), the bitset
//! machines, the `Search` that holds one machine, the tree cut into pieces
//! for threads, and the memory each engine will take. Looks down to the core
//! only.

pub(crate) mod bitsearch;
pub(crate) mod cells;
pub(crate) mod cellsearch;
pub mod footprint;
pub(crate) mod front;
pub(crate) mod mbits;
pub(crate) mod split;
