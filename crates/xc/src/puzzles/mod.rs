//! Code that serves one puzzle, on typed grids (no text): the engine's
//! puzzle floor. Each builds on the engine below (a `CompiledProblem`, a
//! `Search`, the CDCL `Sat`) and never the other way round.

pub mod akari;
pub mod akari_gen;
pub mod bands;
pub mod queens;
pub mod sudoku;
