//! Knuth's `.dlx` format read by the `dlx` crate, for Python: bytes in, the
//! arrays of the problem and the names out (labels stay spans of the input).

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::convert::u32_bytes;
use crate::errors::to_py;
use crate::interrupt::until_interrupted_with;
use crate::problem::PyCompiledProblem;

fn kind_of(k: dlx::ErrorKind) -> (&'static str, Vec<String>) {
    use dlx::ErrorKind as K;
    match k {
        K::NotUtf8 { column, byte } => ("not_utf8", vec![column.to_string(), byte.to_string()]),
        K::Control { column, code } => ("control", vec![column.to_string(), code.to_string()]),
        K::Empty => ("empty", vec![]),
        K::SecondBar => ("second_bar", vec![]),
        K::IllegalSecondary(n) => ("illegal_secondary", vec![n]),
        K::IllegalPrimary(n) => ("illegal_primary", vec![n]),
        K::EmptyItemName => ("empty_item_name", vec![]),
        K::UpperBoundZero(n) => ("upper_bound_zero", vec![n]),
        K::LowerExceedsUpper { name, lo, hi } => ("lower_exceeds_upper", vec![name, lo, hi]),
        K::DeclaredTwice(n) => ("declared_twice", vec![n]),
        K::NoPrimary => ("no_primary", vec![]),
        K::EmptyNameIn(t) => ("empty_name_in", vec![t]),
        K::EmptyColor(n) => ("empty_color", vec![n]),
        K::UnknownItem(n) => ("unknown_item", vec![n]),
        K::AppearsTwice(n) => ("appears_twice", vec![n]),
        K::ColorOnPrimary(n) => ("color_on_primary", vec![n]),
        K::BadCost(w) => ("bad_cost", vec![w]),
        K::CostTooLarge(w) => ("cost_too_large", vec![w]),
        K::TooLarge => ("too_large", vec![]),
        K::Stopped => ("stopped", vec![]),
    }
}

fn text(data: &[u8], (a, b): dlx::Span) -> String {
    String::from_utf8_lossy(&data[a..b]).into_owned()
}

/// (lines, blanks) of the bytes of a `.dlx` file (`dlx::shape`), answering
/// Ctrl-C: what its read will hold is estimated from them first.
#[pyfunction]
pub fn dlx_shape(py: Python<'_>, data: &[u8]) -> PyResult<(u64, u64)> {
    let stop = dlx::Stop::default();
    let (result, signal) = until_interrupted_with(py, "the .dlx reader", &stop.flag, || {
        dlx::shape(data, &stop)
    })?;
    if let Some(e) = signal {
        return Err(e);
    }
    Ok(result.unwrap_or((0, 0)))
}

/// Reads the bytes of a `.dlx` file, answering Ctrl-C as it goes. On
/// success a dict: `items` (names, primary first), `n_primary`, `lo`, `hi`
/// (Python ints of any size), `colors` (names of colors 1, 2, ...),
/// `compiled` (a `CompiledProblem`, or None when a bound leaves the engine
/// nothing to solve), `option_start`, `option_item`, `option_color` (bytes
/// of native `u32`), `labels` (bytes of native `u64` pairs: each option's
/// line as start and end in `data`), `option_cost` (bytes of native `u64`,
/// or None when no option has a cost), `skipped` ((line, text) of the first
/// few options without primary item) and `n_skipped`. On an error of the
/// file, a tuple (kind, line, the line's text, fields as strings), for the
/// Python layer to word.
#[pyfunction]
pub fn read_dlx<'py>(py: Python<'py>, data: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    let stop = dlx::Stop::default();
    let (result, signal) =
        until_interrupted_with(py, "the .dlx reader", &stop.flag, || dlx::read(data, &stop))?;
    if let Some(e) = signal {
        return Err(e);
    }
    let file = match result {
        Ok(file) => file,
        Err(e) => {
            let (kind, fields) = kind_of(e.kind);
            return (kind, e.line, e.text, fields)
                .into_pyobject(py)
                .map(|t| t.into_any());
        }
    };
    let int = py.import("builtins")?.getattr("int")?;
    let number = |b: &dlx::Bound| -> PyResult<Bound<'py, PyAny>> {
        match b.value {
            Some(v) => Ok(v.into_pyobject(py)?.into_any()),
            None => int.call1((b.digits.as_str(),)),
        }
    };
    let lo = file.lo.iter().map(number).collect::<PyResult<Vec<_>>>()?;
    let hi = file.hi.iter().map(number).collect::<PyResult<Vec<_>>>()?;
    let wide = |b: &[dlx::Bound]| {
        b.iter()
            .map(|x| x.value.unwrap_or(u64::MAX))
            .collect::<Vec<u64>>()
    };
    let n_items = file.items.len() as u32;
    let d = PyDict::new(py);
    d.set_item(
        "items",
        file.items
            .iter()
            .map(|&s| text(data, s))
            .collect::<Vec<_>>(),
    )?;
    d.set_item("n_primary", file.n_primary)?;
    d.set_item(
        "colors",
        file.colors
            .iter()
            .map(|&s| text(data, s))
            .collect::<Vec<_>>(),
    )?;
    d.set_item("option_start", u32_bytes(py, &file.option_start))?;
    d.set_item("option_item", u32_bytes(py, &file.option_item))?;
    d.set_item("option_color", u32_bytes(py, &file.option_color))?;
    let labels = PyBytes::new_with(py, file.labels.len() * 16, |buf| {
        for (chunk, &(a, b)) in buf.chunks_exact_mut(16).zip(&file.labels) {
            chunk[..8].copy_from_slice(&(a as u64).to_ne_bytes());
            chunk[8..].copy_from_slice(&(b as u64).to_ne_bytes());
        }
        Ok(())
    })?;
    d.set_item("labels", labels)?;
    if file.option_cost.is_empty() {
        d.set_item("option_cost", py.None())?;
    } else {
        let costs = PyBytes::new_with(py, file.option_cost.len() * 8, |buf| {
            for (chunk, c) in buf.chunks_exact_mut(8).zip(&file.option_cost) {
                chunk.copy_from_slice(&c.to_ne_bytes());
            }
            Ok(())
        })?;
        d.set_item("option_cost", costs)?;
    }
    let skipped: Vec<(u64, String)> = file
        .skipped
        .iter()
        .map(|s| (s.line, text(data, s.span)))
        .collect();
    d.set_item("skipped", skipped)?;
    d.set_item("n_skipped", file.n_skipped)?;
    let compiled = xc::CompiledProblem::with_wide_bounds(
        file.n_primary,
        n_items - file.n_primary,
        wide(&file.lo),
        wide(&file.hi),
        file.option_start,
        file.option_item,
        file.option_color,
    )
    .map_err(to_py)?;
    d.set_item(
        "compiled",
        PyCompiledProblem {
            inner: Arc::new(compiled),
        },
    )?;
    d.set_item("lo", lo)?;
    d.set_item("hi", hi)?;
    Ok(d.into_any())
}

/// The words of an OR-Library reading error: (kind, fields).
fn orlib_kind(k: dlx::orlib::OrLibErrorKind) -> (&'static str, Vec<String>) {
    use dlx::orlib::OrLibErrorKind as K;
    match k {
        K::Text(e) => kind_of(e.kind),
        K::Empty => ("empty", vec![]),
        K::NotANumber { what, word } => ("not_a_number", vec![what.to_string(), word]),
        K::TooLarge { what, word } => ("too_large_number", vec![what.to_string(), word]),
        K::Truncated { column, expected } => {
            ("truncated", vec![column.to_string(), expected.to_string()])
        }
        K::TooFewColumns { columns, found } => (
            "too_few_columns",
            vec![columns.to_string(), found.to_string()],
        ),
        K::Trailing(w) => ("trailing", vec![w]),
        K::RowOutOfRange { column, row, rows } => (
            "row_out_of_range",
            vec![column.to_string(), row.to_string(), rows.to_string()],
        ),
        K::RowTwice { column, row } => ("row_twice", vec![column.to_string(), row.to_string()]),
        K::EmptyColumn { column } => ("empty_column", vec![column.to_string()]),
        K::CoveringLayout => ("covering_layout", vec![]),
    }
}

/// Reads the bytes of an OR-Library set partitioning file (`dlx::orlib`),
/// answering Ctrl-C: (rows, costs, start, item), the arrays as bytes
/// (native u64 costs, u32 CSR), or (kind, line, fields) for an error.
#[pyfunction]
pub fn read_orlib<'py>(py: Python<'py>, data: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    let stop = dlx::Stop::default();
    let (result, signal) = until_interrupted_with(py, "the OR-Library reader", &stop.flag, || {
        dlx::orlib::read(data, &stop)
    })?;
    if let Some(e) = signal {
        return Err(e);
    }
    match result {
        Ok(f) => {
            let costs: Vec<u8> = f.costs.iter().flat_map(|c| c.to_ne_bytes()).collect();
            (
                f.rows,
                PyBytes::new(py, &costs),
                u32_bytes(py, &f.start),
                u32_bytes(py, &f.item),
            )
                .into_pyobject(py)
                .map(|t| t.into_any())
        }
        Err(e) => {
            let (kind, fields) = orlib_kind(e.kind);
            (kind, e.line, fields)
                .into_pyobject(py)
                .map(|t| t.into_any())
        }
    }
}
