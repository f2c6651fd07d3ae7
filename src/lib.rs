//! The Python binding of `covering`: converts arguments and results, and
//! runs the engines in slices with the GIL released. It holds one reading
//! of text: a Sudoku line (`sudoku.rs`), so that a batch of puzzles is read
//! on the engine's threads, and `Sudoku.parse` reads a puzzle the same way.
//! The engine is the `xc` crate; the Python package wraps these classes.

use pyo3::prelude::*;

mod akari;
mod budget;
mod convert;
mod dlx;
mod driver;
mod errors;
mod footprint;
mod frontier;
mod interrupt;
mod kasteleyn;
mod lp;
mod memo;
mod memo_count;
mod memo_zdd;
mod mincost;
mod parallel;
mod plan;
mod problem;
mod queens;
mod sat;
mod search;
mod stats;
mod sudoku;

#[pymodule]
mod _core {
    /// The most options a memo count takes (its bitset conflict table grows
    /// as their square).
    #[pymodule_export]
    const MEMO_MAX_OPTIONS: usize = xc::MEMO_MAX_OPTIONS;
    /// Akari's row and column segments longer than this are encoded in
    /// linear space (the puzzles crate's `akari::LONG`).
    #[pymodule_export]
    const AKARI_LONG: usize = puzzles::akari::LONG;
    #[pymodule_export]
    use crate::akari::akari_batch;
    #[pymodule_export]
    use crate::akari::akari_difficulty;
    #[pymodule_export]
    use crate::akari::akari_encoding_bytes;
    #[pymodule_export]
    use crate::akari::akari_generate;
    #[pymodule_export]
    use crate::akari::akari_problem;
    #[pymodule_export]
    use crate::akari::restart_first_budget;
    #[pymodule_export]
    use crate::budget::PyStopFlag;
    #[pymodule_export]
    use crate::dlx::dlx_shape;
    #[pymodule_export]
    use crate::dlx::read_dlx;
    #[pymodule_export]
    use crate::dlx::read_orlib;
    #[pymodule_export]
    use crate::errors::ProblemError;
    #[pymodule_export]
    use crate::footprint::akari_grid_bytes;
    #[pymodule_export]
    use crate::footprint::board_bytes;
    #[pymodule_export]
    use crate::footprint::dlx_held_bytes;
    #[pymodule_export]
    use crate::footprint::memo_budget;
    #[pymodule_export]
    use crate::footprint::named_problem_bytes;
    #[pymodule_export]
    use crate::footprint::orlib_held_bytes;
    #[pymodule_export]
    use crate::footprint::queens_bytes;
    #[pymodule_export]
    use crate::footprint::queens_sequence_bytes;
    #[pymodule_export]
    use crate::frontier::choose_item_order;
    #[pymodule_export]
    use crate::frontier::PyFrontierCount;
    #[pymodule_export]
    use crate::kasteleyn::kasteleyn_check;
    #[pymodule_export]
    use crate::kasteleyn::kasteleyn_count;
    #[pymodule_export]
    use crate::lp::lp_relaxation;
    #[pymodule_export]
    use crate::lp::lp_tree_best;
    #[pymodule_export]
    use crate::memo_count::PyMemoCount;
    #[pymodule_export]
    use crate::memo_zdd::PyMemoZdd;
    #[pymodule_export]
    use crate::mincost::PyMinCostSearch;
    #[pymodule_export]
    use crate::parallel::estimate_nodes;
    #[pymodule_export]
    use crate::parallel::split_pieces;
    #[pymodule_export]
    use crate::parallel::PyPool;
    #[pymodule_export]
    use crate::plan::PyCountPlan;
    #[pymodule_export]
    use crate::plan::PyCountSteps;
    #[pymodule_export]
    use crate::plan::PyRace;
    #[pymodule_export]
    use crate::problem::sift_options;
    #[pymodule_export]
    use crate::problem::PyCompiledProblem;
    #[pymodule_export]
    use crate::queens::count_queens;
    #[pymodule_export]
    use crate::queens::PyInfiniteQueens;
    #[pymodule_export]
    use crate::sat::PySatSearch;
    #[pymodule_export]
    use crate::search::PySearch;
    #[pymodule_export]
    use crate::stats::PyFrontierProgress;
    #[pymodule_export]
    use crate::stats::PyMemoStats;
    #[pymodule_export]
    use crate::stats::PyMinCostCounters;
    #[pymodule_export]
    use crate::stats::PyPoolProgress;
    #[pymodule_export]
    use crate::stats::PySatStats;
    #[pymodule_export]
    use crate::stats::PyStats;
    #[pymodule_export]
    use crate::sudoku::sudoku_matrix_count;
    #[pymodule_export]
    use crate::sudoku::PySudokuBatch;
}
