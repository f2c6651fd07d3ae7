//! The memory estimates of the crates below, for the Python layer's size
//! checks (`covering.sizes`): every byte figure lives in Rust, beside the
//! structure it counts. Sizes cross as Python ints of any size; one past
//! 2^64 - 1 is read as 2^64 - 1 (the estimates saturate anyway).

use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;

use crate::errors;

/// A size from Python: a non-negative int, saturated at 2^64 - 1.
pub struct Size(u64);

impl<'py> FromPyObject<'_, 'py> for Size {
    type Error = PyErr;

    fn extract(obj: Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        match obj.extract::<u64>() {
            Ok(n) => Ok(Size(n)),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) && obj.gt(0)? => {
                Ok(Size(u64::MAX))
            }
            Err(_) => Err(errors::invalid(format!(
                "a size must be an integer >= 0, not {}",
                &*obj
            ))),
        }
    }
}

/// Bytes of a problem of `options` options and `entries` entries built
/// with names (`xc::footprint::named_problem_bytes`).
#[pyfunction]
pub fn named_problem_bytes(options: Size, entries: Size) -> u64 {
    xc::footprint::named_problem_bytes(options.0, entries.0)
}

/// Bytes of a tiling puzzle's board of `cells` cells.
#[pyfunction]
pub fn board_bytes(cells: Size) -> u64 {
    puzzles::footprint::board_bytes(cells.0)
}

/// Bytes of an Akari grid of `cells` cells, read as text.
#[pyfunction]
pub fn akari_grid_bytes(cells: Size) -> u64 {
    puzzles::footprint::grid_bytes(cells.0)
}

/// Bytes of the n-queens problem with names.
#[pyfunction]
pub fn queens_bytes(n: Size) -> u64 {
    puzzles::footprint::queens_bytes(n.0)
}

/// Bytes of the infinite queens sequence's state for `terms` terms.
#[pyfunction]
pub fn queens_sequence_bytes(terms: Size) -> u64 {
    puzzles::footprint::sequence_bytes(terms.0)
}

/// Bytes reading a `.dlx` file holds (`dlx::held_bytes`).
#[pyfunction]
pub fn dlx_held_bytes(size: Size, lines: Size, words: Size) -> u64 {
    dlx::held_bytes(size.0, lines.0, words.0)
}

/// Bytes the problem of an OR-Library file holds (`dlx::orlib::held_bytes`).
#[pyfunction]
pub fn orlib_held_bytes(rows: Size, entries: Size) -> u64 {
    dlx::orlib::held_bytes(rows.0, entries.0)
}

/// The bytes a memo may hold (`xc::memo_budget`): `asked`, else the
/// default, within the run's memory `limit`.
#[pyfunction]
#[pyo3(signature = (asked, limit))]
pub fn memo_budget(asked: Option<Size>, limit: Size) -> u64 {
    xc::memo_budget(asked.map(|s| s.0), limit.0)
}
