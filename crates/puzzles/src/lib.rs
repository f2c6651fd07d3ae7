//! Code that serves one puzzle, on typed grids (no text): the floor above
//! the engine. Each puzzle builds on the engine crate below (a
//! `CompiledProblem`, a `Search`), and the engine knows none of them.
//!
//! ```
//! // n-queens on 8 x 8, by the bitboard counter, on one thread.
//! assert_eq!(puzzles::queens::count_queens(8, 1), 92);
//! ```

pub mod akari;
pub mod akari_batch;
pub mod akari_gen;
pub mod akari_grade;
pub mod bands;
pub mod footprint;
pub mod queens;
pub mod sudoku;
