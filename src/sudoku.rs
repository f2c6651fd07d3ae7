//! Batch Sudoku: a file of puzzles solved in Rust, one compiled problem for
//! all of them, the givens forced per puzzle, on every core.
//!
//! The Python module `covering.puzzles.sudoku` builds the exact cover problem
//! (seed 001's four families of items) with option `(r * n + c) * n + d` for
//! digit `d` in row `r`, column `c`; this file only parses lines, forces the
//! givens, runs the engine and formats the answers, so that no Python runs
//! per puzzle.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::problem::PyCompiledProblem;

/// What to do with each puzzle.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// The first solution.
    Solve,
    /// The solution, and a proof that it is the only one.
    Unique,
    /// The number of solutions, up to a cap.
    Count(u64),
}

/// Solves many puzzles of one size.
#[pyclass(name = "SudokuBatch", module = "covering._core", frozen)]
pub struct PySudokuBatch {
    problem: Arc<xc::CompiledProblem>,
    /// Nodes of dancing links per puzzle before the CDCL solver takes over.
    portfolio_nodes: u64,
    /// Cells on a side.
    n: usize,
    /// Box height and width.
    box_rows: usize,
    box_cols: usize,
    symbols: Vec<char>,
    /// The value (1..=n) of each symbol, 0 for a blank.
    values: HashMap<char, u8>,
    /// The same for ASCII characters, `NOT_A_SYMBOL` for the others.
    ascii: [u8; 128],
}

const NOT_A_SYMBOL: u8 = u8::MAX;

/// Why a line is not a puzzle: the message names the cell.
type LineError = String;

/// The output lines, the errors as (line number, message), and whether
/// every line was answered (false after Ctrl-C).
type Answers = (Vec<String>, Vec<(usize, String)>, bool);

/// What one thread needs: its own search (reset for each puzzle) and buffers.
struct Worker {
    search: xc::Search,
    solution: Vec<u32>,
    cells: Vec<u8>,
}

impl PySudokuBatch {
    /// The givens of one line (0 = blank), or what is wrong with it.
    fn parse(&self, line: &str, cells: &mut Vec<u8>) -> Result<(), LineError> {
        let n = self.n;
        cells.clear();
        for ch in line.chars() {
            let v = if ch.is_ascii() {
                self.ascii[ch as usize]
            } else {
                *self.values.get(&ch).unwrap_or(&NOT_A_SYMBOL)
            };
            if v == NOT_A_SYMBOL {
                let k = cells.len();
                if k < n * n {
                    return Err(format!(
                        "r{}c{}: bad character {ch:?}",
                        k / n + 1,
                        k % n + 1
                    ));
                }
                return Err(format!("wrong length: more than {} cells", n * n));
            }
            cells.push(v);
        }
        if cells.len() != n * n {
            return Err(format!(
                "wrong length: {} cells, expected {}",
                cells.len(),
                n * n
            ));
        }
        // Two equal givens in a unit: bit masks find it, a scan names both cells.
        let mut masks = [[0u64; 64]; 3];
        for (k, &v) in cells.iter().enumerate() {
            if v == 0 {
                continue;
            }
            let (r, c) = (k / n, k % n);
            let b = (r / self.box_rows) * (n / self.box_cols) + c / self.box_cols;
            let bit = 1u64 << (v - 1);
            for (kind, unit) in [(0usize, r), (1, c), (2, b)] {
                if masks[kind][unit] & bit != 0 {
                    let other = (0..k)
                        .find(|&j| {
                            let (rj, cj) = (j / n, j % n);
                            let bj =
                                (rj / self.box_rows) * (n / self.box_cols) + cj / self.box_cols;
                            cells[j] == v && [rj, cj, bj][kind] == unit
                        })
                        .unwrap_or(k);
                    return Err(format!(
                        "r{}c{}: {} is already in r{}c{}, in the same {}",
                        r + 1,
                        c + 1,
                        self.symbols[v as usize - 1],
                        other / n + 1,
                        other % n + 1,
                        ["row", "column", "box"][kind]
                    ));
                }
                masks[kind][unit] |= bit;
            }
        }
        Ok(())
    }

    /// The answer for one valid puzzle, appended to `out`; false if `stop`
    /// was seen first (then `out` holds the count so far in mode Count).
    fn answer(
        &self,
        w: &mut Worker,
        cells: &[u8],
        mode: Mode,
        stop: &AtomicBool,
        out: &mut String,
    ) -> bool {
        let n = self.n;
        let s = &mut w.search;
        s.reset();
        for (k, &v) in cells.iter().enumerate() {
            if v != 0 && !s.force((k * n + v as usize - 1) as u32) {
                // Cannot happen once the units are checked; stay exact anyway.
                out.push_str(if let Mode::Count(_) = mode {
                    "0"
                } else {
                    "no solution"
                });
                return true;
            }
        }
        match mode {
            Mode::Count(cap) => {
                let done = !matches!(sliced(s, stop, Some(cap), u64::MAX), Ran::Stopped);
                out.push_str(&s.stats().solutions.min(cap).to_string());
                done
            }
            Mode::Solve | Mode::Unique => {
                // Dancing links within the portfolio's node budget, then the
                // CDCL solver (a heavy puzzle: rare, and the batch's speed is
                // the dancing links' everywhere else).
                let budget = s.stats().nodes.saturating_add(self.portfolio_nodes);
                match sliced(s, stop, None, budget) {
                    Ran::Stopped => return false,
                    Ran::OverBudget => return self.answer_by_sat(w, cells, mode, stop, out),
                    Ran::Step(xc::Step::Solution) => {}
                    Ran::Step(_) => {
                        out.push_str("no solution");
                        return true;
                    }
                }
                s.solution_into(&mut w.solution);
                if mode == Mode::Unique {
                    match sliced(s, stop, Some(2), budget) {
                        Ran::Stopped => return false,
                        Ran::OverBudget => return self.answer_by_sat(w, cells, mode, stop, out),
                        Ran::Step(xc::Step::Paused) => {
                            out.push_str("multiple");
                            return true;
                        }
                        Ran::Step(_) => {}
                    }
                }
                self.write_grid(&w.solution, out);
                true
            }
        }
    }

    fn write_grid(&self, solution: &[u32], out: &mut String) {
        let n = self.n;
        let mut grid = vec![0u32; n * n];
        for &o in solution {
            grid[o as usize / n] = o % n as u32;
        }
        out.extend(grid.iter().map(|&d| self.symbols[d as usize]));
    }

    /// The answer by the CDCL solver, the givens as unit clauses; false if
    /// `stop` was seen first.
    fn answer_by_sat(
        &self,
        w: &mut Worker,
        cells: &[u8],
        mode: Mode,
        stop: &AtomicBool,
        out: &mut String,
    ) -> bool {
        let n = self.n;
        let mut sat = xc::Sat::new(&self.problem);
        for (k, &v) in cells.iter().enumerate() {
            if v != 0 {
                sat.require((k * n + v as usize - 1) as u32);
            }
        }
        let next = |sat: &mut xc::Sat| loop {
            match sat.next(&xc::SatBudget {
                conflicts: Some(SAT_SLICE),
                ..xc::SatBudget::default()
            }) {
                xc::SatStep::Stopped if stop.load(Ordering::Relaxed) => return None,
                xc::SatStep::Stopped => {}
                step => return Some(step),
            }
        };
        match next(&mut sat) {
            None => return false,
            Some(xc::SatStep::Solution(ids)) => w.solution = ids,
            Some(_) => {
                out.push_str("no solution");
                return true;
            }
        }
        if mode == Mode::Unique {
            match next(&mut sat) {
                None => return false,
                Some(xc::SatStep::Solution(_)) => {
                    out.push_str("multiple");
                    return true;
                }
                Some(_) => {}
            }
        }
        self.write_grid(&w.solution, out);
        true
    }

    fn worker(&self) -> Worker {
        Worker {
            search: xc::Search::new(self.problem.clone(), None),
            solution: Vec::new(),
            cells: Vec::new(),
        }
    }

    /// Answers for a run of lines: the output lines and the errors (line
    /// index, message). If `stop` is seen, the answers end with the line
    /// being worked on (its count so far, in mode Count) and `complete` is false.
    fn run_lines(&self, w: &mut Worker, lines: &[&str], mode: Mode, stop: &AtomicBool) -> Part {
        let mut part = Part {
            outputs: Vec::with_capacity(lines.len()),
            errors: Vec::new(),
            complete: true,
        };
        let mut cells = std::mem::take(&mut w.cells);
        for (i, raw) in lines.iter().enumerate() {
            // The blanks of the one text reader (`covering.textio`): C's isspace.
            let line = raw.trim_matches([' ', '\t', '\x0b', '\x0c', '\r']);
            let mut out = String::with_capacity(self.n * self.n);
            let mut done = true;
            if !line.is_empty() {
                match self.parse(line, &mut cells) {
                    Ok(()) => done = self.answer(w, &cells, mode, stop, &mut out),
                    Err(e) => {
                        out.push_str("error");
                        part.errors.push((i, e));
                    }
                }
            }
            part.outputs.push(out);
            if !done {
                part.complete = false;
                break;
            }
        }
        w.cells = cells;
        part
    }
}

/// What one thread answered.
struct Part {
    outputs: Vec<String>,
    errors: Vec<(usize, String)>,
    complete: bool,
}

/// Nodes between two looks at the stop flag (well under a millisecond).
const SLICE: u64 = 1 << 14;

/// Conflicts between two looks at the stop flag.
const SAT_SLICE: u64 = 10_000;

/// How a sliced run ended.
enum Ran {
    Step(xc::Step),
    Stopped,
    OverBudget,
}

/// Runs the search in slices until the next solution (`target` None) or
/// until `target` solutions are counted (then the step is `Paused`), or its
/// end; `Stopped` if `stop` was seen first, `OverBudget` past `budget` nodes.
fn sliced(s: &mut xc::Search, stop: &AtomicBool, target: Option<u64>, budget: u64) -> Ran {
    loop {
        let st = s.stats();
        if st.nodes >= budget {
            return Ran::OverBudget;
        }
        let limits = xc::Limits {
            nodes: st.nodes.saturating_add(SLICE).min(budget),
            updates: st.updates.saturating_add(64 * SLICE),
        };
        let step = match target {
            None => s.run(limits),
            Some(t) => s.count(limits, t),
        };
        if step != xc::Step::Paused || target.is_some_and(|t| s.stats().solutions >= t) {
            return Ran::Step(step);
        }
        if stop.load(Ordering::Relaxed) {
            return Ran::Stopped;
        }
    }
}

#[pymethods]
impl PySudokuBatch {
    /// A batch solver for puzzles of `n` x `n` cells with boxes of
    /// `box_rows` x `box_cols`, written with `symbols` (n of them) and blanks
    /// `blanks`; `problem` is the compiled problem of that size. A puzzle
    /// that takes dancing links more than `portfolio_nodes` nodes to solve
    /// (or prove unique) goes to the CDCL solver.
    #[new]
    #[pyo3(signature = (problem, n, box_rows, box_cols, symbols, blanks, portfolio_nodes=200_000))]
    fn new(
        problem: &PyCompiledProblem,
        n: usize,
        box_rows: usize,
        box_cols: usize,
        symbols: &str,
        blanks: &str,
        portfolio_nodes: u64,
    ) -> PyResult<Self> {
        let symbols: Vec<char> = symbols.chars().collect();
        if n == 0 || box_rows * box_cols != n || symbols.len() != n {
            return Err(PyValueError::new_err(
                "a sudoku needs n symbols and boxes of n cells",
            ));
        }
        if problem.inner.n_options() != n * n * n || problem.inner.n_primary() != 4 * n * n {
            return Err(PyValueError::new_err(
                "the compiled problem is not a sudoku of that size",
            ));
        }
        let mut values = HashMap::new();
        for ch in blanks.chars() {
            values.insert(ch, 0u8);
        }
        for (k, &ch) in symbols.iter().enumerate() {
            values.insert(ch, (k + 1) as u8);
        }
        if values.len() != symbols.len() + blanks.chars().filter(|c| !symbols.contains(c)).count() {
            return Err(PyValueError::new_err("the symbols must be distinct"));
        }
        if n > 64 {
            return Err(PyValueError::new_err(
                "sudokus of more than 64 symbols are not supported",
            ));
        }
        let mut ascii = [NOT_A_SYMBOL; 128];
        for (&ch, &v) in &values {
            if ch.is_ascii() {
                ascii[ch as usize] = v;
            }
        }
        Ok(PySudokuBatch {
            problem: problem.inner.clone(),
            portfolio_nodes,
            n,
            box_rows,
            box_cols,
            symbols,
            values,
            ascii,
        })
    }

    /// Answers every line of `text`: the solution (same symbols), "no solution",
    /// "multiple" (mode "unique"), the count (mode "count", capped at `cap`),
    /// "error", or an empty line for an empty one. Returns the output lines,
    /// the errors as (line number from 1, message), and True. Runs on
    /// `threads` threads without the GIL; Ctrl-C stops them within a
    /// millisecond, and then the answers end with the line worked on (its
    /// count so far, in mode "count") and the last value is False.
    #[pyo3(signature = (text, mode="solve", cap=1000, threads=1))]
    fn run(
        &self,
        py: Python<'_>,
        text: &str,
        mode: &str,
        cap: u64,
        threads: usize,
    ) -> PyResult<Answers> {
        let mode = match mode {
            "solve" => Mode::Solve,
            "unique" => Mode::Unique,
            "count" => Mode::Count(cap.max(1)),
            other => {
                return Err(PyValueError::new_err(format!(
                    "mode must be solve, unique or count, not {other:?}"
                )))
            }
        };
        let lines: Vec<&str> = text.lines().collect();
        let threads = threads.max(1);
        let round = 4096 * threads;
        let mut workers: Vec<Worker> = (0..threads).map(|_| self.worker()).collect();
        let mut outputs = Vec::with_capacity(lines.len());
        let mut errors = Vec::new();
        let stop = AtomicBool::new(false);
        for (r, chunk) in lines.chunks(round).enumerate() {
            let per = chunk.len().div_ceil(threads).max(1);
            // The lines are answered on scoped threads while this one watches
            // for Ctrl-C; the threads look at `stop` between slices of a search.
            let parts = std::thread::scope(|s| {
                // Each thread says when it is done, so that this one wakes at
                // once (a nap would idle the end of every round).
                let (done, finished) = channel::<()>();
                let handles: Vec<_> = chunk
                    .chunks(per)
                    .zip(workers.iter_mut())
                    .map(|(part, w)| {
                        let (stop, done) = (&stop, done.clone());
                        s.spawn(move || {
                            let answers = self.run_lines(w, part, mode, stop);
                            let _ = done.send(());
                            answers
                        })
                    })
                    .collect();
                drop(done);
                // (A receiver is not Sync; the lock lets it wait without the GIL.)
                let finished = std::sync::Mutex::new(finished);
                let wait = || match finished.lock() {
                    Ok(rx) => rx.recv_timeout(Duration::from_millis(20)),
                    Err(_) => Err(RecvTimeoutError::Disconnected),
                };
                let mut left = handles.len();
                while left > 0 {
                    match py.detach(wait) {
                        Ok(()) => left -= 1,
                        Err(RecvTimeoutError::Disconnected) => break, // a thread panicked
                        Err(RecvTimeoutError::Timeout) => {
                            if py.check_signals().is_err() {
                                stop.store(true, Ordering::Relaxed);
                            }
                        }
                    }
                }
                handles
                    .into_iter()
                    .map(|h| h.join())
                    .collect::<Result<Vec<_>, _>>()
            })
            .map_err(|_| PyRuntimeError::new_err("internal error in the sudoku solver"))?;
            for (p, part) in parts.into_iter().enumerate() {
                let first = r * round + p * per;
                errors.extend(part.errors.into_iter().map(|(i, e)| (first + i + 1, e)));
                outputs.extend(part.outputs);
                if !part.complete {
                    // The answers end here: later parts do not follow on.
                    return Ok((outputs, errors, false));
                }
            }
            if stop.load(Ordering::Relaxed) {
                return Ok((outputs, errors, false));
            }
        }
        Ok((outputs, errors, true))
    }
}
