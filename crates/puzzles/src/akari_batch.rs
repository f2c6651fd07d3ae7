//! Akari's batch: the first stage of each puzzle's portfolio, for many
//! puzzles in one call, on threads.
//!
//! A puzzle's `solve` and `unique` run one portfolio (the Python layer's
//! `covering.solving.portfolio`): randomized restarts of dancing links
//! (Gomes, Selman and Kautz's; `covering.restart`) for a first stage of
//! `total` nodes, then turns with the CDCL solver where the tree is heavy.
//! The first stage settles nearly every human-made puzzle in a millisecond,
//! so a batch runs it here for every puzzle, without a call per puzzle, and
//! hands back the few it leaves heavy with where their runs stopped
//! ([`Stage`]): the caller's portfolio, whose first stage is this one (the
//! same runs, seeds and node counts), goes on from there, so every answer,
//! and the solution shown, is the one a single call gives. The stage is
//! counted in nodes, never in time: the same answers on every machine and
//! any number of threads.
//!
//! ```
//! use puzzles::akari::Cell;
//! use puzzles::akari_batch::{Answer, answer};
//! use std::sync::atomic::AtomicBool;
//! // Two white cells in a row: a light on either one.
//! let grid = vec![Cell::White, Cell::White];
//! let answers = answer(&[(1, 2, grid)], 2, 5_000, 1, &AtomicBool::new(false));
//! assert_eq!(answers, vec![Answer::Settled(vec![vec![0], vec![1]])]);
//! ```

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use xc::{CompiledProblem, Engine, Next, Poll, Search, Slice, Sliced};

use crate::akari::{Cell, NO_CELL, akari};

/// What the first stage made of a puzzle.
#[derive(Debug, PartialEq)]
pub enum Answer {
    /// Settled: its solutions, up to the number wanted (fewer: there are no
    /// more), each the sorted cells (row-major) of its lights.
    Settled(Vec<Vec<u32>>),
    /// Not settled in the stage: the caller's portfolio goes on with it,
    /// from where the stage stopped when there is one (none: a grid
    /// without white cells, or one too large to encode, is not for this
    /// stage to answer).
    Heavy(Option<Stage>),
    /// The stop flag went up before it was settled.
    Stopped,
}

/// Where a puzzle's restarts stopped without settling it: the state of
/// the Python layer's `restart.Restarts` after the same nodes, so that its
/// portfolio goes on from here rather than searching the stage's nodes
/// again (on the 970 human-made puzzles, the 12 that go on took 0.22 s,
/// 0.09 s of it the stage searched a second time).
pub struct Stage {
    /// The encoded puzzle the runs search.
    pub problem: Arc<CompiledProblem>,
    /// The run under way, paused (None: the next run starts afresh).
    pub search: Option<Search>,
    /// The run's number: its seed, but for a plain first run.
    pub run: u64,
    /// The run's node budget.
    pub run_budget: u64,
    /// Nodes of the runs before it.
    pub spent: u64,
    /// The distinct solutions found (sorted option ids), in order.
    pub found: Vec<Vec<u32>>,
}

impl PartialEq for Stage {
    /// The same state (the search's own by its counters).
    fn eq(&self, other: &Stage) -> bool {
        let nodes = |s: &Stage| s.search.as_ref().map(|s| s.stats().nodes);
        (
            self.run,
            self.run_budget,
            self.spent,
            &self.found,
            nodes(self),
        ) == (
            other.run,
            other.run_budget,
            other.spent,
            &other.found,
            nodes(other),
        )
    }
}

impl std::fmt::Debug for Stage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stage")
            .field("run", &self.run)
            .field("run_budget", &self.run_budget)
            .field("spent", &self.spent)
            .field("found", &self.found)
            .finish_non_exhaustive()
    }
}

/// Nodes between two looks at the stop flag.
const LOOK: u64 = 4096;

/// The most memory the stages of a batch's heavy puzzles hold together
/// (their searches, estimated by `xc::footprint`): past it a heavy puzzle
/// is handed back without its stage, and its portfolio starts over, the
/// same answer for more work. (Before the caller reaches them, the stages
/// of a chunk of big boards would otherwise all be held at once.)
const STAGES_HELD: u64 = 256 << 20;

/// The node budget of the first run: the depth of the deepest search there
/// can be (a level per option, plus Algorithm M's null branches, a level per
/// primary item), so that a run which hardly backtracks finishes within it.
/// The one figure: the Python layer's `restart.first_budget` reads it too.
pub fn first_budget(problem: &CompiledProblem) -> u64 {
    (problem.n_options() as u64 + problem.n_primary() as u64).max(1024)
}

/// Up to `want` distinct solutions (sorted option ids) of `problem` by
/// randomized restarts within `total` nodes, the first run in the input
/// order where `plain_first` (a board with segments in linear space): Ok
/// when that settled it (`want` found, or a run saw its whole tree), else
/// where the runs stopped, when the nodes ran out first or the stop flag
/// went up (the caller looks). The runs are those of the Python layer's
/// `restart.Restarts`, called once for `want` solutions within `total`
/// nodes.
pub fn restarts(
    problem: &Arc<CompiledProblem>,
    want: usize,
    total: u64,
    plain_first: bool,
    stop: &AtomicBool,
) -> Result<Vec<Vec<u32>>, Stage> {
    let mut found: Vec<Vec<u32>> = Vec::new();
    let mut run_budget = first_budget(problem);
    let (mut run, mut spent) = (0u64, 0u64);
    let mut search: Option<Search> = None;
    let stage = |search, run, run_budget, spent, found| Stage {
        problem: problem.clone(),
        search,
        run,
        run_budget,
        spent,
        found,
    };
    while found.len() < want {
        if stop.load(Ordering::Relaxed) {
            return Err(stage(search, run, run_budget, spent, found));
        }
        let s = search.get_or_insert_with(|| {
            let seed = if plain_first && run == 0 {
                None
            } else {
                Some(run)
            };
            Search::with_engine(problem.clone(), seed, Engine::Auto)
        });
        let nodes = s.stats().nodes;
        let cap = run_budget.min(total.saturating_sub(spent));
        if nodes >= cap {
            if nodes >= run_budget {
                // The run's budget ran out: the next run, twice as much.
                spent += nodes;
                search = None;
                run += 1;
                run_budget = run_budget.saturating_mul(2);
                continue;
            }
            // The stage's nodes are spent.
            return Err(stage(search, run, run_budget, spent, found));
        }
        match s.run(Slice::work((cap - nodes).min(LOOK))) {
            Poll::Ready(Next::Solution) => {
                let ids = s.solution();
                if !found.contains(&ids) {
                    found.push(ids);
                }
            }
            Poll::Ready(Next::Exhausted) => return Ok(found),
            Poll::Pending => {}
        }
    }
    Ok(found)
}

/// The first stage of each puzzle (`(rows, cols, cells)`), wanting `want`
/// solutions (1: solve; 2: is it unique?) within `total` nodes, on
/// `threads` threads; the answers in the puzzles' order. Puzzles not yet
/// begun when `stop` goes up answer [`Answer::Stopped`].
pub fn answer(
    puzzles: &[(usize, usize, Vec<Cell>)],
    want: usize,
    total: u64,
    threads: usize,
    stop: &AtomicBool,
) -> Vec<Answer> {
    let answers = Mutex::new(
        (0..puzzles.len())
            .map(|_| Answer::Stopped)
            .collect::<Vec<_>>(),
    );
    let next = AtomicUsize::new(0);
    let held = AtomicU64::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, 256).min(puzzles.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= puzzles.len() || stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let (rows, cols, grid) = &puzzles[k];
                    let a = match one(*rows, *cols, grid, want, total, stop) {
                        Answer::Heavy(Some(stage)) => {
                            Answer::Heavy(kept(stage, &held, STAGES_HELD))
                        }
                        a => a,
                    };
                    answers.lock().unwrap_or_else(|e| e.into_inner())[k] = a;
                }
            });
        }
    });
    answers.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// `stage`, if the stages kept so far (`held` bytes) leave room for it
/// within `most` bytes ([`STAGES_HELD`]).
fn kept(stage: Stage, held: &AtomicU64, most: u64) -> Option<Stage> {
    let p = &stage.problem;
    let bytes =
        xc::footprint::search_bytes(p, Engine::Auto) + 4 * (p.n_entries() + p.n_options()) as u64;
    let before = held.fetch_add(bytes, Ordering::Relaxed);
    if before + bytes <= most {
        Some(stage)
    } else {
        held.fetch_sub(bytes, Ordering::Relaxed);
        None
    }
}

/// The first stage of one puzzle.
fn one(
    rows: usize,
    cols: usize,
    grid: &[Cell],
    want: usize,
    total: u64,
    stop: &AtomicBool,
) -> Answer {
    if !grid.contains(&Cell::White) {
        return Answer::Heavy(None); // (nothing to light: the caller answers from the numbers)
    }
    let Ok(encoded) = akari(rows, cols, grid) else {
        return Answer::Heavy(None);
    };
    // A segment in linear space has options of no light: the input order
    // goes straight to a solution where a random one wanders.
    let plain_first = encoded.option_cell.contains(&NO_CELL);
    let problem = Arc::new(encoded.problem);
    match restarts(&problem, want, total, plain_first, stop) {
        Ok(found) => Answer::Settled(
            found
                .iter()
                .map(|ids| {
                    let mut lights: Vec<u32> = ids
                        .iter()
                        .map(|&o| encoded.option_cell[o as usize])
                        .filter(|&z| z != NO_CELL)
                        .collect();
                    lights.sort_unstable();
                    lights
                })
                .collect(),
        ),
        Err(_) if stop.load(Ordering::Relaxed) => Answer::Stopped,
        Err(stage) => Answer::Heavy(Some(stage)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&str]) -> (usize, usize, Vec<Cell>) {
        let cells = rows
            .iter()
            .flat_map(|r| r.bytes().map(|b| Cell::from_byte(b).unwrap()))
            .collect();
        (rows.len(), rows[0].len(), cells)
    }

    #[test]
    fn answers_in_order_on_any_number_of_threads() {
        let puzzles = vec![
            grid(&["..", ".."]),
            grid(&["1.", ".."]),
            grid(&["#4#", "4.4", "#4#"]),
            grid(&[".#.", "#.#", ".#."]),
        ];
        let stop = AtomicBool::new(false);
        let one = answer(&puzzles, 2, 5_000, 1, &stop);
        for threads in [2, 3, 8] {
            assert_eq!(answer(&puzzles, 2, 5_000, threads, &stop), one);
        }
        // 2 x 2 open: a light in each of two opposite corners, two ways.
        assert!(matches!(&one[0], Answer::Settled(s) if s.len() == 2));
        // Four 4s round one cell cannot all be satisfied by one light there.
        assert_eq!(one[2], Answer::Settled(vec![]));
        // Five lonely cells: one way.
        assert_eq!(one[3], Answer::Settled(vec![vec![0, 2, 4, 6, 8]]));
    }

    #[test]
    fn a_heavy_puzzle_leaves_where_its_runs_stopped() {
        // Each stage cut short holds the nodes searched so far, and fewer
        // solutions than wanted, of a puzzle the whole stage settles.
        let puzzles = vec![grid(&["....", "....", "...."]), grid(&[".....", "#...#"])];
        let stop = AtomicBool::new(false);
        let whole = answer(&puzzles, 2, 5_000, 1, &stop);
        for total in 1..12 {
            for (a, full) in answer(&puzzles, 2, total, 1, &stop).iter().zip(&whole) {
                let Answer::Heavy(Some(stage)) = a else {
                    assert_eq!(a, full);
                    continue;
                };
                let nodes = stage.search.as_ref().map_or(0, |s| s.stats().nodes);
                assert_eq!(stage.spent + nodes, total);
                assert!(stage.found.len() < 2);
                assert!(matches!(full, Answer::Settled(_)), "{full:?}");
            }
        }
    }

    #[test]
    fn stages_are_kept_within_their_memory() {
        let (rows, cols, cells) = grid(&["....", "....", "...."]);
        let stop = AtomicBool::new(false);
        let stage = || {
            let problem = Arc::new(akari(rows, cols, &cells).unwrap().problem);
            restarts(&problem, 2, 3, false, &stop).unwrap_err()
        };
        let held = AtomicU64::new(0);
        assert!(kept(stage(), &held, 1 << 20).is_some());
        let one = held.load(Ordering::Relaxed);
        assert!(one > 0);
        // Room for one more, not two.
        let most = 2 * one + one / 2;
        assert!(kept(stage(), &held, most).is_some());
        assert!(kept(stage(), &held, most).is_none());
        assert_eq!(held.load(Ordering::Relaxed), 2 * one);
    }

    #[test]
    fn stops_when_asked() {
        let stop = AtomicBool::new(true);
        assert_eq!(
            answer(&[grid(&[".."])], 1, 5_000, 1, &stop),
            vec![Answer::Stopped]
        );
    }
}
