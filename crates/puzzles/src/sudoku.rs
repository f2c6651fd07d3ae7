//! Sudoku in batches: one compiled problem for every puzzle of a size, the
//! givens forced per puzzle, dancing links within a node budget (the rare
//! heavy puzzle is answered `Heavy`, for the rest of the one portfolio,
//! which is the caller's); the 9 x 9 puzzles go to the band solver
//! (`puzzles::bands`), made for that size alone.
//!
//! The caller builds the exact cover problem (seed 001's four families of
//! items: cell, row-digit, column-digit, box-digit) with option
//! `(r * n + c) * n + d` for digit `d + 1` in row `r`, column `c`, and
//! checks the givens (no two equal in a unit); grids here are typed: one
//! value per cell, row-major, `0` blank and `1..=n` a digit.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::bands;
use xc::{CompiledProblem, Poll, Search, Slice, Sliced};

/// What to find for each puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The first solution.
    Solve,
    /// The solution, and a proof that it is the only one.
    Unique,
    /// The number of solutions, up to a cap.
    Count(u64),
}

/// The answer for one puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The solution (each cell's digit, `1..=n`); in mode `Unique`, the only one.
    Solved(Vec<u8>),
    NoSolution,
    /// Mode `Unique`: more than one solution.
    Multiple,
    /// Mode `Count`: the solutions, up to the cap; `complete` is false when
    /// the stop flag cut the count short.
    Count {
        count: u64,
        complete: bool,
    },
    /// The stop flag was raised first (modes `Solve` and `Unique`).
    Stopped,
    /// Dancing links went past the portfolio's node budget (modes `Solve`
    /// and `Unique`, sizes other than 9 x 9): the rest of the portfolio
    /// (the CDCL solver) is the caller's.
    Heavy,
}

/// Nodes between two looks at the stop flag (well under a millisecond).
const SLICE: u64 = 1 << 14;

/// A solver of the puzzles of one size; one per thread (it keeps its search,
/// reset for each puzzle).
pub struct Solver {
    n: usize,
    /// Nodes of dancing links per puzzle before the CDCL solver takes over.
    portfolio_nodes: u64,
    search: Search,
    solution: Vec<u32>,
}

/// How one search for the next solution ended.
enum Next {
    Solution,
    End,
    Stopped,
    OverBudget,
}

/// What the first two solutions of a search said.
enum Two {
    /// A solution (kept in `Solver::solution`), and in mode `Unique` no other.
    Found,
    NoSolution,
    Multiple,
    Stopped,
}

impl Solver {
    /// A solver for `problem`, the compiled Sudoku of `n` x `n` cells.
    pub fn new(problem: Arc<CompiledProblem>, n: usize, portfolio_nodes: u64) -> Solver {
        Solver {
            search: Search::new(problem, None),
            n,
            portfolio_nodes,
            solution: Vec::new(),
        }
    }

    /// The answer for the puzzle `cells` (n * n values, givens checked).
    pub fn answer(&mut self, cells: &[u8], mode: Mode, stop: &AtomicBool) -> Answer {
        let n = self.n;
        if n == 9 {
            return by_bands(cells, mode, stop);
        }
        let s = &mut self.search;
        s.reset();
        for (k, &v) in cells.iter().enumerate() {
            if v != 0 && !s.force((k * n + v as usize - 1) as u32) {
                // Cannot happen once the units are checked; stay exact anyway.
                return match mode {
                    Mode::Count(_) => Answer::Count {
                        count: 0,
                        complete: true,
                    },
                    _ => Answer::NoSolution,
                };
            }
        }
        if let Mode::Count(cap) = mode {
            let complete = counted(s, stop, cap);
            let count = s.stats().solutions.min(cap);
            return Answer::Count { count, complete };
        }
        let unique = mode == Mode::Unique;
        // Dancing links within the portfolio's node budget: the fast first
        // stage of the one portfolio (Python's `covering.solving`), which
        // takes over a heavy puzzle (rare: the batch's speed is the dancing
        // links' everywhere else).
        let budget = s.stats().nodes.saturating_add(self.portfolio_nodes);
        let solution = &mut self.solution;
        match first_two(s, unique, stop, budget, solution) {
            Some(two) => self.finish(two),
            None => Answer::Heavy,
        }
    }

    /// The answer, with the grid of the solution kept when one was found.
    fn finish(&self, two: Two) -> Answer {
        match two {
            Two::Found => {
                let n = self.n;
                let mut grid = vec![0u8; n * n];
                for &o in &self.solution {
                    grid[o as usize / n] = (o as usize % n + 1) as u8;
                }
                Answer::Solved(grid)
            }
            Two::NoSolution => Answer::NoSolution,
            Two::Multiple => Answer::Multiple,
            Two::Stopped => Answer::Stopped,
        }
    }
}

/// The answer for a 9 x 9 puzzle, by the band solver.
fn by_bands(cells: &[u8], mode: Mode, stop: &AtomicBool) -> Answer {
    let limit = match mode {
        Mode::Solve => 1,
        Mode::Unique => 2,
        Mode::Count(cap) => cap,
    };
    let Some(out) = bands::solve(cells, limit, stop) else {
        // Not 81 values of 0..=9: no grid of this size can hold it.
        return match mode {
            Mode::Count(_) => Answer::Count {
                count: 0,
                complete: true,
            },
            _ => Answer::NoSolution,
        };
    };
    match (mode, out.count, out.first) {
        (Mode::Count(_), count, _) => Answer::Count {
            count,
            complete: out.complete || count >= limit,
        },
        _ if !out.complete => Answer::Stopped,
        (Mode::Unique, 2.., _) => Answer::Multiple,
        (_, _, Some(grid)) => Answer::Solved(grid.to_vec()),
        (_, _, None) => Answer::NoSolution,
    }
}

/// The first solution of `s` (kept in `solution`) and, if `unique`,
/// whether there is a second; None when it went over `budget` nodes.
fn first_two(
    s: &mut Search,
    unique: bool,
    stop: &AtomicBool,
    budget: u64,
    solution: &mut Vec<u32>,
) -> Option<Two> {
    match next(s, stop, budget) {
        Next::Solution => s.solution_into(solution),
        Next::End => return Some(Two::NoSolution),
        Next::Stopped => return Some(Two::Stopped),
        Next::OverBudget => return None,
    }
    if unique {
        match next(s, stop, budget) {
            Next::Solution => return Some(Two::Multiple),
            Next::End => {}
            Next::Stopped => return Some(Two::Stopped),
            Next::OverBudget => return None,
        }
    }
    Some(Two::Found)
}

/// The next slice of `s`: `SLICE` nodes (no further than `most` nodes in
/// all) and 64 times as many updates.
fn slice(s: &Search, most: u64) -> Slice {
    Slice {
        work: SLICE.min(most.saturating_sub(s.stats().nodes)),
        updates: Some(64 * SLICE),
        ..Slice::ALL
    }
}

/// Runs `s` until its next solution or its end, in slices with a look at
/// `stop` between them; `OverBudget` past `budget` nodes.
fn next(s: &mut Search, stop: &AtomicBool, budget: u64) -> Next {
    loop {
        if s.stats().nodes >= budget {
            return Next::OverBudget;
        }
        match Sliced::run(s, slice(s, budget)) {
            Poll::Ready(xc::Next::Solution) => return Next::Solution,
            Poll::Ready(xc::Next::Exhausted) => return Next::End,
            Poll::Pending if stop.load(Ordering::Relaxed) => return Next::Stopped,
            Poll::Pending => {}
        }
    }
}

/// Counts the solutions of `s` up to `cap`, in slices between looks at
/// `stop`; false if `stop` cut it short.
fn counted(s: &mut Search, stop: &AtomicBool, cap: u64) -> bool {
    loop {
        if s.count_in(slice(s, u64::MAX), cap).ready().is_some() {
            return true;
        }
        if stop.load(Ordering::Relaxed) {
            return false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The compiled Sudoku of `n` = `b` * `b` cells a side (the caller's
    /// encoding, written again here).
    fn sudoku(b: usize) -> Arc<CompiledProblem> {
        let n = b * b;
        let mut start = vec![0u32];
        let mut item = Vec::new();
        for r in 0..n {
            for c in 0..n {
                for d in 0..n {
                    let bx = (r / b) * b + c / b;
                    item.extend_from_slice(&[
                        (r * n + c) as u32,
                        (n * n + r * n + d) as u32,
                        (2 * n * n + c * n + d) as u32,
                        (3 * n * n + bx * n + d) as u32,
                    ]);
                    start.push(item.len() as u32);
                }
            }
        }
        let items = 4 * n * n;
        let p = CompiledProblem::new(
            items as u32,
            0,
            vec![1; items],
            vec![1; items],
            start,
            item,
            vec![],
        );
        Arc::new(p.expect("a valid problem"))
    }

    #[test]
    fn a_puzzle_past_the_node_budget_is_heavy() {
        let stop = AtomicBool::new(false);
        let mut s = Solver::new(sudoku(2), 4, 0);
        let mut grid = vec![0u8; 16];
        grid[0] = 1;
        assert_eq!(s.answer(&grid, Mode::Solve, &stop), Answer::Heavy);
        assert_eq!(s.answer(&grid, Mode::Unique, &stop), Answer::Heavy);
        // A count is never handed on: 288 grids, a quarter with 1 in r1c1.
        assert_eq!(
            s.answer(&grid, Mode::Count(1000), &stop),
            Answer::Count {
                count: 72,
                complete: true
            }
        );
    }

    #[test]
    fn the_modes_agree() {
        let stop = AtomicBool::new(false);
        // The 4 x 4 grids: 288 of them; two givens leave several.
        let p = sudoku(2);
        let mut grid = vec![0u8; 16];
        {
            let mut s = Solver::new(p.clone(), 4, 200_000);
            grid[0] = 1;
            grid[5] = 3;
            let count = s.answer(&grid, Mode::Count(1000), &stop);
            assert_eq!(
                count,
                Answer::Count {
                    count: 24,
                    complete: true
                }
            );
            assert_eq!(s.answer(&grid, Mode::Unique, &stop), Answer::Multiple);
            let Answer::Solved(full) = s.answer(&grid, Mode::Solve, &stop) else {
                panic!("no solution")
            };
            assert!(full[0] == 1 && full[5] == 3);
            // Every unit holds each digit once.
            for unit in 0..4 {
                let row: Vec<u8> = (0..4).map(|c| full[unit * 4 + c]).collect();
                let col: Vec<u8> = (0..4).map(|r| full[r * 4 + unit]).collect();
                let bx: Vec<u8> = (0..4)
                    .map(|k| full[(unit / 2 * 2 + k / 2) * 4 + unit % 2 * 2 + k % 2])
                    .collect();
                for mut u in [row, col, bx] {
                    u.sort();
                    assert_eq!(u, vec![1, 2, 3, 4]);
                }
            }
            // The solution given but one cell: unique, found again.
            let mut one = full.clone();
            one[15] = 0;
            assert_eq!(
                s.answer(&one, Mode::Unique, &stop),
                Answer::Solved(full.clone())
            );
            // No two givens alike in a unit, but r1c4 sees 1, 2 (its row),
            // 4 (its box) and 3 (its column): no solution.
            let mut bad = vec![0u8; 16];
            bad[0] = 1;
            bad[1] = 2;
            bad[6] = 4;
            bad[11] = 3;
            assert_eq!(s.answer(&bad, Mode::Solve, &stop), Answer::NoSolution);
        }
        let stopped = AtomicBool::new(true);
        let mut s = Solver::new(sudoku(3), 9, 200_000);
        let empty = vec![0u8; 81];
        assert!(matches!(
            s.answer(&empty, Mode::Count(u64::MAX), &stopped),
            Answer::Count {
                complete: false,
                ..
            }
        ));
    }
}
