//! Code that serves one puzzle, on typed grids (no text): the engine's
//! puzzle floor.

pub mod akari_gen;
pub mod sudoku;
