//! What a puzzle's own structures hold in the host language before any
//! engine is built (a board's cells, a grid's rows, the n-queens problem
//! with names, the state of the infinite queens sequence), so that a size no
//! machine holds is refused before it is built. Engines estimate their own
//! share (`xc::footprint`, `akari::encoding_bytes`). Every figure saturates.
//!
//! ```
//! use puzzles::footprint;
//! assert_eq!(footprint::board_bytes(64), 12_800);
//! assert_eq!(footprint::board_bytes(u64::MAX), u64::MAX);
//! ```

/// Bytes per cell of a board held by a tiling puzzle: a tuple of two ints
/// in a tuple and in a set.
const BOARD_PER_CELL: u64 = 200;

/// Bytes per cell of an Akari grid held as text rows (its rows, and the
/// lists that build them), before any encoding.
const GRID_PER_CELL: u64 = 16;

/// Bytes per square of the n-queens problem with names (its options'
/// labels and four items each, then the compiled copy and the search).
const QUEENS_PER_SQUARE: u64 = 1000;

/// Bytes of the infinite sequence's state per term: bit arrays for rows
/// and diagonals up to about 2.6 n, grown by doubling.
const SEQUENCE_PER_TERM: u64 = 2;

/// A tiling puzzle's board of `cells` cells.
pub fn board_bytes(cells: u64) -> u64 {
    BOARD_PER_CELL.saturating_mul(cells)
}

/// An Akari grid of `cells` cells, read.
pub fn grid_bytes(cells: u64) -> u64 {
    GRID_PER_CELL.saturating_mul(cells)
}

/// The n-queens problem on an `n` x `n` board, with names.
pub fn queens_bytes(n: u64) -> u64 {
    QUEENS_PER_SQUARE.saturating_mul(n).saturating_mul(n)
}

/// The infinite queens sequence's state for its first `terms` terms.
pub fn sequence_bytes(terms: u64) -> u64 {
    SEQUENCE_PER_TERM.saturating_mul(terms)
}
