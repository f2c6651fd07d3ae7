//! The 9 x 9 Sudoku by bands: a solver for the one size that is solved by
//! the million, where the general engine's dancing links lose to bit tricks.
//!
//! The grid is three bands of three rows. For each digit and band, the cells
//! of the band where the digit may still go are 27 bits (a row of the band is
//! 9 of them, a box-row, or *minirow*, 3); that is 27 words of 27 bits for the
//! whole grid (the idea of zhouyundong's solver, as championed on the Enjoy
//! Sudoku forum; written anew here from the rules below). On these words:
//!
//! - **within a band**, the digit goes once in each of its three rows and
//!   once in each of its three boxes: which row takes which box is a
//!   permutation of three, so only minirows on some permutation of the
//!   minirows still open are kept (a table of the 512 patterns). This is
//!   locked candidates of both kinds and hidden singles in boxes at once; a
//!   row left with one cell places the digit there (a hidden single);
//! - **across bands**, a stack's three columns take the digit once each,
//!   one in each band: which band takes which column is a permutation, so a
//!   band keeps a column only when the two other bands can take the stack's
//!   two other columns, one each (a column that a band can no longer avoid
//!   is so closed in the two others; on the 1,905 forum-hardest puzzles this
//!   took the guesses from 100.2 to 81.6 a puzzle and the time to 0.91).
//!   After a guess the rule runs with each word's turn; before the first,
//!   a word's turn closes only a band's one column of a stack and the whole
//!   rule runs when the rest is stuck (run with every turn there, it cost
//!   the 17-clue puzzles, most of which need no guess, 5-10%);
//! - **naked singles**: counting each cell's digits by bit-sliced adders over
//!   the nine words of a band finds the cells with one digit (placed), none
//!   (a contradiction) and two (where to guess);
//! - **guesses** when stuck: a cell of two digits, each tried in turn on a
//!   copy of the grid (a cell of the fewest digits when there is none); of
//!   the cells of two digits, the one with the most unplaced cells among
//!   its peers, whose guess places or closes the most.
//!
//! These are the scalar rules (`Grid::settle`, in `grid`). Where the machine has
//! AVX2 or AVX-512, the same rules run on the 27 words at once in vector
//! registers (`simd`), to the same settled grids; `builds` chooses at
//! run time.
//!
//! A solution is checked against the rules before it is counted (every unit
//! holds each digit once): a mistake here would show as a panic (an internal
//! error in the batch, which catches it), never as a wrong grid or count. Grids are typed as in `puzzles::sudoku`: 81 values,
//! row-major, `0` blank and `1..=9` a digit.

use std::sync::atomic::AtomicBool;

use builds::Found;
use grid::Grid;
pub use grid::nonzero_bits;

mod builds;
mod grid;
pub mod matrix;
#[cfg(target_arch = "x86_64")]
mod simd;

/// What a search of one puzzle found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The solutions, up to the limit asked.
    pub count: u64,
    /// The first solution found.
    pub first: Option<[u8; 81]>,
    /// False if the stop flag cut the search short.
    pub complete: bool,
    /// The guesses made (the search's nodes).
    pub guesses: u64,
}

/// Solves the 9 x 9 puzzle `cells` (81 values, `0` a blank): the solutions
/// up to `limit` (1: the first; 2: the first and whether it is unique), the
/// first kept, with a look at `stop` every thousand guesses. None if `cells`
/// is not 81 values of `0..=9`.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use puzzles::bands::solve;
/// let line = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
/// let cells: Vec<u8> = line.bytes().map(|b| if b == b'.' { 0 } else { b - b'0' }).collect();
/// let out = solve(&cells, 2, &AtomicBool::new(false)).expect("a 9 x 9 grid");
/// assert_eq!(out.count, 1);
/// assert_eq!(out.first.unwrap()[0], 4);
/// ```
pub fn solve(cells: &[u8], limit: u64, stop: &AtomicBool) -> Option<Outcome> {
    solve_in(cells, limit, stop, builds::best())
}

/// [`solve`], in the build `build` (see [`builds`]; the tests run each
/// one the machine has against the baseline).
fn solve_in(cells: &[u8], limit: u64, stop: &AtomicBool, build: u8) -> Option<Outcome> {
    let cells: &[u8; 81] = cells.try_into().ok()?;
    if cells.iter().any(|&v| v > 9) {
        return None;
    }
    let mut found = Found {
        limit,
        count: 0,
        first: None,
        guesses: 0,
        stop,
        stopped: false,
    };
    if let Some(grid) = Grid::with_givens(cells).filter(|_| limit > 0) {
        builds::search_from(grid, &mut found, build);
    }
    Some(Outcome {
        count: found.count.min(limit),
        first: found.first,
        complete: !found.stopped,
        guesses: found.guesses,
    })
}

#[cfg(test)]
mod tests;
