//! The Akari encoding (the `xc` crate's `akari` module), for Python.

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::errors::to_py;
use crate::problem::PyCompiledProblem;

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
    if rows.checked_mul(cols) != Some(grid.len()) {
        return Err(PyValueError::new_err(format!(
            "a {rows} x {cols} grid has {} cells, not {}",
            rows.saturating_mul(cols),
            grid.len()
        )));
    }
    let cells = grid
        .iter()
        .map(|&b| xc::AkariCell::from_byte(b))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| {
            let k = grid
                .iter()
                .position(|&b| xc::AkariCell::from_byte(b).is_none())
                .unwrap_or(0);
            PyValueError::new_err(format!(
                "row {}, column {}: {:?} is not one of . # 0 1 2 3 4",
                k / cols.max(1) + 1,
                k % cols.max(1) + 1,
                grid[k] as char
            ))
        })?;
    if !cells.contains(&xc::AkariCell::White) {
        return Err(PyValueError::new_err("the grid has no white cell"));
    }
    let a = xc::akari(rows, cols, &cells).map_err(to_py)?;
    let items = a
        .items
        .iter()
        .map(|i| match *i {
            xc::AkariItem::Cell(z) => ("cell", z),
            xc::AkariItem::Number(z) => ("number", z),
            xc::AkariItem::Row(z) => ("row", z),
            xc::AkariItem::Column(z) => ("column", z),
            xc::AkariItem::RowLit(z) => ("row_lit", z),
            xc::AkariItem::ColumnLit(z) => ("column_lit", z),
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
