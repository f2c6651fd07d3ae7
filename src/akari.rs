//! The Akari encoding (the `xc` crate's `akari` module), for Python.

use std::sync::Arc;

use pyo3::prelude::*;

use crate::errors::{self, to_py};
use crate::problem::PyCompiledProblem;

/// The cells of a rows x cols grid given as row-major bytes (`.` white,
/// `#` black, `0`-`4` numbered black); an error names the first bad cell.
fn read_grid(rows: usize, cols: usize, grid: &[u8]) -> PyResult<Vec<puzzles::akari::Cell>> {
    if rows.checked_mul(cols) != Some(grid.len()) {
        return Err(errors::invalid(format!(
            "a {rows} x {cols} grid has {} cells, not {}",
            rows.saturating_mul(cols),
            grid.len()
        )));
    }
    grid.iter()
        .map(|&b| puzzles::akari::Cell::from_byte(b))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| {
            let k = grid
                .iter()
                .position(|&b| puzzles::akari::Cell::from_byte(b).is_none())
                .unwrap_or(0);
            errors::invalid(format!(
                "row {}, column {}: {:?} is not one of . # 0 1 2 3 4",
                k / cols.max(1) + 1,
                k % cols.max(1) + 1,
                grid[k] as char
            ))
        })
}

/// The exact cover problem of a rows x cols Akari grid given as row-major
/// bytes (`.` white, `#` black, `0`-`4` numbered black; at least one white
/// cell): (problem, the cell of each option's light (2**32 - 1 for an
/// option that is no light: a long segment's "lit" or "dark"), what each
/// item stands for as (kind, cell) with kind "cell", "number", "row",
/// "column", "row_lit" or "column_lit").
#[pyfunction]
#[allow(clippy::type_complexity)]
pub fn akari_problem(
    rows: usize,
    cols: usize,
    grid: &[u8],
) -> PyResult<(PyCompiledProblem, Vec<u32>, Vec<(&'static str, u32)>)> {
    let cells = read_grid(rows, cols, grid)?;
    if !cells.contains(&puzzles::akari::Cell::White) {
        return Err(errors::invalid("the grid has no white cell"));
    }
    let a = puzzles::akari::akari(rows, cols, &cells).map_err(to_py)?;
    let items = a
        .items
        .iter()
        .map(|i| match *i {
            puzzles::akari::AkariItem::Cell(z) => ("cell", z),
            puzzles::akari::AkariItem::Number(z) => ("number", z),
            puzzles::akari::AkariItem::Row(z) => ("row", z),
            puzzles::akari::AkariItem::Column(z) => ("column", z),
            puzzles::akari::AkariItem::RowLit(z) => ("row_lit", z),
            puzzles::akari::AkariItem::ColumnLit(z) => ("column_lit", z),
        })
        .collect();
    Ok((
        PyCompiledProblem {
            inner: Arc::new(a.problem),
        },
        a.option_cell,
        items,
    ))
}

/// About what the encoding of a grid and a search on it will hold, in
/// bytes, before it is built (`puzzles::akari::encoding_bytes`).
#[pyfunction]
pub fn akari_encoding_bytes(rows: usize, cols: usize, grid: &[u8]) -> PyResult<u64> {
    let cells = read_grid(rows, cols, grid)?;
    Ok(puzzles::akari::encoding_bytes(rows, cols, &cells))
}

/// The grader's levels by name, both ways.
const LEVELS: [(&str, puzzles::akari_grade::Level); 3] = [
    ("easy", puzzles::akari_grade::Level::Easy),
    ("medium", puzzles::akari_grade::Level::Medium),
    ("hard", puzzles::akari_grade::Level::Hard),
];

fn level(name: &str) -> PyResult<puzzles::akari_grade::Level> {
    LEVELS
        .iter()
        .find(|&&(n, _)| n == name)
        .map(|&(_, l)| l)
        .ok_or_else(|| {
            errors::invalid(format!(
                "difficulty must be easy, medium or hard, not {name:?}"
            ))
        })
}

/// The easiest level ("easy", "medium", "hard") whose deductions solve the
/// rows x cols grid (bytes as `akari_problem` takes them), or None.
#[pyfunction]
pub fn akari_difficulty(
    py: Python<'_>,
    rows: usize,
    cols: usize,
    grid: &[u8],
) -> PyResult<Option<&'static str>> {
    use puzzles::akari_grade::{code, difficulty};
    let cells: Vec<u8> = read_grid(rows, cols, grid)?.into_iter().map(code).collect();
    let found = py.detach(|| difficulty(rows, cols, &cells));
    // (LEVELS is in the order of the levels' discriminants.)
    Ok(found.map(|l| LEVELS[l as usize].0))
}

/// A generated puzzle (see `puzzles::akari_gen::generate`) as row-major
/// bytes (`.` `#` `0`-`4`), from `seed`. Ctrl-C raises KeyboardInterrupt.
#[pyfunction]
#[pyo3(signature = (rows, cols, seed, black, difficulty, symmetry))]
pub fn akari_generate<'py>(
    py: Python<'py>,
    rows: usize,
    cols: usize,
    seed: u64,
    black: f64,
    difficulty: &str,
    symmetry: &str,
) -> PyResult<Bound<'py, pyo3::types::PyBytes>> {
    use puzzles::akari_gen::{generate, Symmetry};
    use puzzles::akari_grade::cell;
    let level = level(difficulty)?;
    let symmetry = match symmetry {
        "none" => Symmetry::None,
        "rotate" => Symmetry::Rotate,
        "mirror" => Symmetry::Mirror,
        _ => {
            return Err(errors::invalid(format!(
                "symmetry must be none, rotate or mirror, not {symmetry:?}"
            )))
        }
    };
    if rows == 0 || cols == 0 || !(0.0..=1.0).contains(&black) {
        return Err(errors::invalid(format!(
            "a puzzle needs rows and cols >= 1 and 0 <= black <= 1, not {rows}, {cols}, {black}"
        )));
    }
    let (cells, signal) = crate::interrupt::until_interrupted(py, "the Akari generator", |stop| {
        generate(
            rows,
            cols,
            black,
            level,
            symmetry,
            &mut xc::Rng::new(seed),
            stop,
        )
    })?;
    if let Some(e) = signal {
        return Err(e);
    }
    let cells = cells.ok_or_else(|| errors::invalid("stopped"))?;
    let text: Vec<u8> = cells.into_iter().map(|c| cell(c).to_byte()).collect();
    Ok(pyo3::types::PyBytes::new(py, &text))
}

/// A heavy puzzle's stage, as `akari_batch` hands it to Python.
type BatchStage = (
    PyCompiledProblem,
    Option<crate::search::PySearch>,
    u64,
    u64,
    u64,
    Vec<Vec<u32>>,
);

/// The first stage of each puzzle's portfolio (`puzzles::akari_batch`):
/// `grids` as (rows, cols, row-major bytes), `want` solutions (1: solve;
/// 2: unique) within `total` nodes, on `threads` threads, without the GIL.
/// Returns, for each puzzle in order, ("settled", lights: a list of sorted
/// cell indices per solution, None), ("heavy", None, stage) for the
/// caller's portfolio, or ("stopped", None, None) once Ctrl-C or the run's
/// `budget` flag stopped the batch; and whether Ctrl-C did (the caller
/// shows the answers, then raises KeyboardInterrupt). A heavy puzzle's
/// stage is where its restarts stopped (`puzzles::akari_batch::Stage`):
/// (problem, the run under way or None, run, run budget, nodes spent,
/// solutions found as option ids), or None where the batch did not search
/// it. A bad grid is a ValueError naming the puzzle, row and column.
#[pyfunction]
#[pyo3(signature = (grids, want, total, threads=1, budget=None))]
#[allow(clippy::type_complexity)]
pub fn akari_batch(
    py: Python<'_>,
    grids: Vec<(usize, usize, Vec<u8>)>,
    want: usize,
    total: u64,
    threads: usize,
    budget: Option<crate::budget::RunBudget<'_>>,
) -> PyResult<(
    Vec<(&'static str, Option<Vec<Vec<u32>>>, Option<BatchStage>)>,
    bool,
)> {
    use puzzles::akari_batch::{answer, Answer};
    let puzzles = grids
        .iter()
        .enumerate()
        .map(|(k, (rows, cols, grid))| {
            read_grid(*rows, *cols, grid)
                .map(|cells| (*rows, *cols, cells))
                .map_err(|e| errors::invalid(format!("puzzle {}: {}", k + 1, e.value(py))))
        })
        .collect::<PyResult<Vec<_>>>()?;
    let watch = budget.as_ref().map(|b| b.stop.flag());
    let stop = std::sync::atomic::AtomicBool::new(false);
    let (answers, signal) =
        crate::interrupt::until_stopped(py, "the Akari batch", &stop, watch, || {
            answer(&puzzles, want, total, threads, &stop)
        })?;
    let answers = answers
        .into_iter()
        .map(|a| match a {
            Answer::Settled(found) => ("settled", Some(found), None),
            Answer::Heavy(stage) => (
                "heavy",
                None,
                stage.map(|s| {
                    (
                        PyCompiledProblem { inner: s.problem },
                        s.search.map(crate::search::PySearch::of),
                        s.run,
                        s.run_budget,
                        s.spent,
                        s.found,
                    )
                }),
            ),
            Answer::Stopped => ("stopped", None, None),
        })
        .collect();
    Ok((answers, signal.is_some()))
}

/// The node budget of the first randomized run (`puzzles::akari_batch::first_budget`):
/// the restarts of `covering.restart` and the batch's first stage read it here, so
/// that they run the same runs.
#[pyfunction]
pub fn restart_first_budget(problem: &PyCompiledProblem) -> u64 {
    puzzles::akari_batch::first_budget(&problem.inner)
}
