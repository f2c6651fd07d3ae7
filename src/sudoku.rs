//! Batch Sudoku: a file of puzzles solved in Rust, one compiled problem for
//! all of them, on every core.
//!
//! The Python module `covering.puzzles.sudoku` builds the exact cover problem
//! (seed 001's four families of items) with option `(r * n + c) * n + d` for
//! digit `d + 1` in row `r`, column `c`; the engine's puzzle floor
//! (`puzzles::sudoku`) solves typed grids. This file converts: lines of
//! symbols to grids, answers back to lines, spread over threads, so that no
//! Python runs per puzzle. Its reading of a line (a bad character, a wrong
//! length, a symbol twice in a unit, each naming the cell) is the only one:
//! `Sudoku.parse` in Python reads a puzzle by it too (`parse_line`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use puzzles::bands::nonzero_bits;
use puzzles::sudoku::{Answer, Mode, Solver};
use pyo3::prelude::*;

use crate::budget::RunBudget;
use crate::errors;
use crate::problem::PyCompiledProblem;

/// The count of `problem` when it is the matrix of a 9 x 9 Sudoku, read
/// whatever its names and orders (`puzzles::bands::matrix`), by the band
/// solver on `threads` threads (the puzzle cut into pieces, each taken by
/// the next thread free): (count, complete, guesses); None when it is not
/// one. Ctrl-C or the flag of the run's `budget` stop it within a
/// millisecond, and then `complete` is False and the count is the
/// solutions found so far.
#[pyfunction]
#[pyo3(signature = (problem, threads=1, budget=None))]
pub fn sudoku_matrix_count(
    py: Python<'_>,
    problem: &PyCompiledProblem,
    threads: usize,
    budget: Option<RunBudget<'_>>,
) -> PyResult<Option<(u64, bool, u64)>> {
    let Some(cells) = puzzles::bands::matrix::puzzle_of(&problem.inner) else {
        return Ok(None);
    };
    // (As many threads as the API allows, whatever a caller asks.)
    let threads = threads.clamp(1, 4096);
    // Pieces enough that threads that draw short ones are kept busy.
    let pieces = if threads == 1 {
        vec![cells]
    } else {
        puzzles::bands::matrix::cut(&cells, 32 * threads)
    };
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let watch = budget.as_ref().map(|b| b.stop.flag());
    let jobs: Vec<_> = (0..threads)
        .map(|_| {
            let (pieces, next, stop) = (&pieces, &next, &stop);
            move || {
                let (mut count, mut guesses, mut complete) = (0u64, 0u64, true);
                while let Some(piece) = pieces.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let out = puzzles::bands::solve(piece, u64::MAX, stop)?;
                    count += out.count;
                    guesses += out.guesses;
                    if !out.complete {
                        complete = false;
                        break;
                    }
                }
                Some((count, complete, guesses))
            }
        })
        .collect();
    // A signal only stops the threads here: the count says how far they got.
    let (parts, _signal) =
        crate::interrupt::on_threads(py, "the Sudoku count", &stop, watch, jobs)?;
    let mut total = (0u64, true, 0u64);
    for part in parts {
        let (count, complete, guesses) =
            part.ok_or_else(|| errors::internal("a Sudoku read from a matrix is not a grid"))?;
        total = (total.0 + count, total.1 && complete, total.2 + guesses);
    }
    Ok(Some(total))
}

/// Solves many puzzles of one size.
#[pyclass(name = "SudokuBatch", module = "covering._core", frozen)]
pub struct PySudokuBatch {
    problem: Arc<xc::CompiledProblem>,
    /// Nodes of dancing links per puzzle before the rest of the portfolio.
    portfolio_nodes: u64,
    /// Cells on a side.
    n: usize,
    symbols: Vec<char>,
    /// The value (1..=n) of each symbol, 0 for a blank.
    values: HashMap<char, u8>,
    /// The same for ASCII characters, `NOT_A_SYMBOL` for the others (and
    /// for every byte past 127, so that a byte indexes it unchecked).
    ascii: [u8; 256],
    /// Each value's symbol as a byte (index 1..=n), when every symbol is
    /// ASCII.
    ascii_symbols: Option<[u8; 256]>,
    /// Each cell's row, column and box (no division per given).
    units: Vec<[u16; 3]>,
}

const NOT_A_SYMBOL: u8 = u8::MAX;

/// Why a line is not a puzzle: the message names the cell.
type LineError = String;

/// The output lines (one text, each line ended by a newline: one string
/// to Python, not one per line), the errors as (line number, message),
/// whether every line was answered (false after Ctrl-C), and the lines
/// (numbers from 0) left heavy: past the node budget of dancing links, for
/// the rest of the portfolio (their output lines are empty).
type Answers = (String, Vec<(usize, String)>, bool, Vec<usize>);

/// What one thread needs: its own solver and a buffer.
struct Worker {
    solver: Solver,
    cells: Vec<u8>,
    seen: Vec<u64>,
    /// A solved line's bytes, before they join the output.
    line: Vec<u8>,
}

impl PySudokuBatch {
    /// The givens of one line (0 = blank), or what is wrong with it.
    /// The one reading of a puzzle's line, for the batch and for
    /// `covering.puzzles.sudoku.Sudoku.parse` alike (`seen`: room for a bit
    /// per unit and value, kept between lines).
    fn parse(&self, line: &str, cells: &mut Vec<u8>, seen: &mut Vec<u64>) -> Result<(), LineError> {
        let n = self.n;
        cells.clear();
        if line.is_ascii() {
            // Nearly every file: a byte a cell, no decoding (and no push
            // a byte: the room is made first).
            cells.resize(line.len(), 0);
            for (v, b) in cells.iter_mut().zip(line.bytes()) {
                *v = self.ascii[b as usize];
            }
            // (`contains` on bytes is a vector search; the position only
            // for a bad line.)
            if cells.contains(&NOT_A_SYMBOL) {
                let k = cells.iter().position(|&v| v == NOT_A_SYMBOL).unwrap_or(0);
                return Err(self.bad_character(k, line.as_bytes()[k] as char));
            }
        } else {
            for ch in line.chars() {
                let v = if ch.is_ascii() {
                    self.ascii[ch as usize]
                } else {
                    *self.values.get(&ch).unwrap_or(&NOT_A_SYMBOL)
                };
                if v == NOT_A_SYMBOL {
                    return Err(self.bad_character(cells.len(), ch));
                }
                cells.push(v);
            }
        }
        if cells.len() != n * n {
            return Err(format!(
                "wrong length: {} cells, expected {}",
                cells.len(),
                n * n
            ));
        }
        // Two equal givens in a unit: a bit per (kind of unit, unit, value)
        // finds it, with no branch on a bit (a scan then names both cells).
        seen.clear();
        let mut twice = 0u64;
        if n <= 64 {
            // A word of values per unit; the givens by masks of 64 cells,
            // no branch per cell (the blanks of a 9 x 9 grid fall at
            // random).
            seen.resize(3 * n, 0);
            let (units, seen) = (&self.units[..n * n], &mut seen[..3 * n]);
            for (part, chunk) in cells.chunks(64).enumerate() {
                let mut g = nonzero_bits(chunk);
                while g != 0 {
                    let k = 64 * part + g.trailing_zeros() as usize;
                    g &= g - 1;
                    let bit = 1u64 << (cells[k] - 1);
                    let [r, c, b] = units[k].map(usize::from);
                    let (c, b) = (n + c, 2 * n + b);
                    twice |= (seen[r] | seen[c] | seen[b]) & bit;
                    seen[r] |= bit;
                    seen[c] |= bit;
                    seen[b] |= bit;
                }
            }
        } else {
            seen.resize((3 * n * n).div_ceil(64), 0);
            for (k, &v) in cells.iter().enumerate() {
                if v != 0 {
                    twice |= self.mark(seen, k, v);
                }
            }
        }
        if twice != 0 {
            return Err(self.given_twice(cells));
        }
        Ok(())
    }

    /// Notes given `v` of cell `k` in its three units; nonzero if one of
    /// them had it already.
    #[inline(always)]
    fn mark(&self, seen: &mut [u64], k: usize, v: u8) -> u64 {
        let n = self.n;
        let mut twice = 0;
        for (kind, &unit) in self.units[k].iter().enumerate() {
            let at = (kind * n + unit as usize) * n + (v as usize - 1);
            let (word, bit) = (at / 64, 1u64 << (at % 64));
            twice |= seen[word] & bit;
            seen[word] |= bit;
        }
        twice
    }

    /// Which two givens share a unit (the first such pair in reading
    /// order), for a line known to hold one.
    fn given_twice(&self, cells: &[u8]) -> LineError {
        let n = self.n;
        for (k, &v) in cells.iter().enumerate() {
            if v == 0 {
                continue;
            }
            for (kind, &unit) in self.units[k].iter().enumerate() {
                if let Some(other) = (0..k).find(|&j| cells[j] == v && self.units[j][kind] == unit)
                {
                    return format!(
                        "r{}c{}: {} is already in r{}c{}, in the same {}",
                        k / n + 1,
                        k % n + 1,
                        self.symbols[v as usize - 1],
                        other / n + 1,
                        other % n + 1,
                        ["row", "column", "box"][kind]
                    );
                }
            }
        }
        "a symbol twice in a unit".to_string()
    }

    /// What is wrong with a character that is no symbol or blank, found
    /// after `k` cells.
    fn bad_character(&self, k: usize, ch: char) -> LineError {
        let n = self.n;
        if k < n * n {
            return format!("r{}c{}: bad character {ch:?}", k / n + 1, k % n + 1);
        }
        format!("wrong length: more than {} cells", n * n)
    }

    /// The answer for one valid puzzle, appended to `out` (nothing for a
    /// heavy one, `heavy` then true); false if `stop` was seen first (then
    /// `out` holds the count so far in mode Count).
    fn answer(
        &self,
        w: &mut Worker,
        cells: &[u8],
        mode: Mode,
        stop: &AtomicBool,
        out: &mut String,
        heavy: &mut bool,
    ) -> bool {
        match w.solver.answer(cells, mode, stop) {
            Answer::Solved(grid) => {
                // A byte a cell where every symbol is ASCII (checked once,
                // when the batch is made), not a char pushed at a time.
                let bytes = self.ascii_symbols.as_ref().and_then(|table| {
                    w.line.clear();
                    w.line.extend(grid.iter().map(|&d| table[d as usize]));
                    std::str::from_utf8(&w.line).ok()
                });
                match bytes {
                    Some(line) => out.push_str(line),
                    None => out.extend(grid.iter().map(|&d| self.symbols[d as usize - 1])),
                }
            }
            Answer::NoSolution => out.push_str("no solution"),
            Answer::Multiple => out.push_str("multiple"),
            Answer::Count { count, complete } => {
                out.push_str(&count.to_string());
                return complete;
            }
            Answer::Heavy => *heavy = true,
            Answer::Stopped => return false,
        }
        true
    }

    fn worker(&self) -> Worker {
        Worker {
            solver: Solver::new(self.problem.clone(), self.n, self.portfolio_nodes),
            cells: Vec::new(),
            seen: Vec::new(),
            line: Vec::new(),
        }
    }

    /// Answers for a run of lines: the output lines and the errors (line
    /// index, message). If `stop` is seen, the answers end with the line
    /// being worked on (its count so far, in mode Count) and `complete` is false.
    fn run_lines(&self, w: &mut Worker, lines: &[&str], mode: Mode, stop: &AtomicBool) -> Part {
        let mut part = Part {
            outputs: String::with_capacity(answers_room(lines)),
            errors: Vec::new(),
            complete: true,
            heavy: Vec::new(),
        };
        let mut cells = std::mem::take(&mut w.cells);
        let mut seen = std::mem::take(&mut w.seen);
        for (i, raw) in lines.iter().enumerate() {
            // The blanks of the one text reader (`covering.textio`): C's isspace.
            let line = raw.trim_matches([' ', '\t', '\x0b', '\x0c', '\r']);
            let out = &mut part.outputs;
            // A look at `stop` before each line: an easy puzzle's search
            // ends before its first look, and a round of them can outlast
            // the command line's grace after a deadline.
            let mut done = !stop.load(Ordering::Relaxed);
            let mut heavy = false;
            if done && !line.is_empty() {
                match self.parse(line, &mut cells, &mut seen) {
                    Ok(()) => done = self.answer(w, &cells, mode, stop, out, &mut heavy),
                    Err(e) => {
                        out.push_str("error");
                        part.errors.push((i, e));
                    }
                }
            }
            out.push('\n');
            if heavy {
                part.heavy.push(i);
            }
            if !done {
                part.complete = false;
                break;
            }
        }
        w.cells = cells;
        w.seen = seen;
        part
    }
}

/// Room for the answers to `lines`, each with its newline: an answer line
/// is at most 12 characters longer than its input line ("no solution" for
/// one cell, "error" for one character), so the room stays in proportion
/// to the text however hostile it is (not to the lines times the size).
fn answers_room(lines: &[&str]) -> usize {
    lines
        .iter()
        .fold(0usize, |room, line| room.saturating_add(line.len() + 13))
}

/// What one thread answered.
struct Part {
    /// The output lines, each ended by a newline.
    outputs: String,
    errors: Vec<(usize, String)>,
    complete: bool,
    heavy: Vec<usize>,
}

#[pymethods]
impl PySudokuBatch {
    /// A batch solver for puzzles of `n` x `n` cells with boxes of
    /// `box_rows` x `box_cols`, written with `symbols` (n of them) and blanks
    /// `blanks`; `problem` is the compiled problem of that size. A puzzle
    /// that takes dancing links more than `portfolio_nodes` nodes to solve
    /// (or prove unique) is left heavy, for the rest of the portfolio.
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
            return Err(errors::invalid(
                "a sudoku needs n symbols and boxes of n cells",
            ));
        }
        // The compiled problem (and the 9 x 9 band solver) has square boxes.
        if box_rows != box_cols {
            return Err(errors::invalid("the boxes must be square"));
        }
        if problem.inner.n_options() != n * n * n || problem.inner.n_primary() != 4 * n * n {
            return Err(errors::invalid(
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
            return Err(errors::invalid("the symbols must be distinct"));
        }
        if n > 255 {
            return Err(errors::invalid(
                "sudokus of more than 255 symbols are not supported",
            ));
        }
        let mut ascii = [NOT_A_SYMBOL; 256];
        for (&ch, &v) in &values {
            if ch.is_ascii() {
                ascii[ch as usize] = v;
            }
        }
        let ascii_symbols = symbols.iter().all(char::is_ascii).then(|| {
            let mut table = [b'?'; 256];
            for (k, &ch) in symbols.iter().enumerate() {
                table[k + 1] = ch as u8;
            }
            table
        });
        Ok(PySudokuBatch {
            problem: problem.inner.clone(),
            portfolio_nodes,
            n,
            symbols,
            values,
            ascii,
            ascii_symbols,
            units: (0..n * n)
                .map(|k| {
                    let (r, c) = (k / n, k % n);
                    [r, c, (r / box_rows) * (n / box_cols) + c / box_cols].map(|u| u as u16)
                })
                .collect(),
        })
    }

    /// The givens of one puzzle's line (0 = blank), read as the batch reads
    /// each line; a `ValueError` naming the cell when it is not a puzzle (a
    /// bad character, a wrong length, a symbol twice in a unit).
    fn parse_line(&self, line: &str) -> PyResult<Vec<u8>> {
        let (mut cells, mut seen) = (Vec::new(), Vec::new());
        self.parse(line, &mut cells, &mut seen)
            .map_err(errors::invalid)?;
        Ok(cells)
    }

    /// Answers every line of `text`: the solution (same symbols), "no solution",
    /// "multiple" (mode "unique"), the count (mode "count", capped at `cap`),
    /// "error", or an empty line for an empty one. Returns the output lines
    /// as one text (each ended by a newline), the errors as (line number
    /// from 1, message), True, and the heavy
    /// lines (from 0; their outputs empty). Runs on `threads` threads
    /// without the GIL; Ctrl-C or the flag of the run's `budget` stops them within a
    /// millisecond, and then the answers end with the line worked on (its
    /// count so far, in mode "count") and the third value is False.
    #[pyo3(signature = (text, mode="solve", cap=None, threads=1, budget=None))]
    fn run(
        &self,
        py: Python<'_>,
        text: &str,
        mode: &str,
        cap: Option<u64>,
        threads: usize,
        budget: Option<RunBudget<'_>>,
    ) -> PyResult<Answers> {
        let cap = cap.unwrap_or(u64::MAX);
        let mode = match mode {
            "solve" => Mode::Solve,
            "unique" => Mode::Unique,
            "count" => Mode::Count(cap.max(1)),
            other => {
                return Err(errors::invalid(format!(
                    "mode must be solve, unique or count, not {other:?}"
                )))
            }
        };
        let lines: Vec<&str> = text.lines().collect();
        let threads = threads.max(1);
        let round = 4096 * threads;
        let mut workers: Vec<Worker> = (0..threads).map(|_| self.worker()).collect();
        let mut outputs = String::with_capacity(answers_room(&lines));
        let mut errors = Vec::new();
        let mut heavy = Vec::new();
        let watch = budget.as_ref().map(|b| b.stop.flag());
        let stop = AtomicBool::new(false);
        for (r, chunk) in lines.chunks(round).enumerate() {
            let per = chunk.len().div_ceil(threads).max(1);
            // The lines are answered on threads while this one watches for
            // Ctrl-C; the threads look at `stop` between slices of a search.
            // A signal only stops them here: the answers say how far they got.
            let jobs: Vec<_> = chunk
                .chunks(per)
                .zip(workers.iter_mut())
                .map(|(part, w)| {
                    let stop = &stop;
                    move || self.run_lines(w, part, mode, stop)
                })
                .collect();
            let (parts, _signal) =
                crate::interrupt::on_threads(py, "the sudoku solver", &stop, watch, jobs)?;
            for (p, part) in parts.into_iter().enumerate() {
                let first = r * round + p * per;
                errors.extend(part.errors.into_iter().map(|(i, e)| (first + i + 1, e)));
                heavy.extend(part.heavy.into_iter().map(|i| first + i));
                outputs.push_str(&part.outputs);
                if !part.complete {
                    // The answers end here: later parts do not follow on.
                    return Ok((outputs, errors, false, heavy));
                }
            }
            if stop.load(Ordering::Relaxed) || watch.is_some_and(|w| w.load(Ordering::Relaxed)) {
                return Ok((outputs, errors, false, heavy));
            }
        }
        Ok((outputs, errors, true, heavy))
    }
}
