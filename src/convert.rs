//! Arrays across the boundary as bytes: a million options cross as one
//! copy of native-endian `u32`s (Python's `array("I")`), not a Python int each.

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::errors;

/// Native-endian bytes of a `u32` array (Python reads them as `array("I")`).
pub fn u32_bytes<'py>(py: Python<'py>, v: &[u32]) -> Bound<'py, PyBytes> {
    PyBytes::new_with(py, v.len() * 4, |buf| {
        for (chunk, x) in buf.chunks_exact_mut(4).zip(v) {
            chunk.copy_from_slice(&x.to_ne_bytes());
        }
        Ok(())
    })
    .expect("bytes of a known size")
}

/// A `u32` array from native-endian bytes.
pub fn from_u32_bytes(b: &[u8], what: &str) -> PyResult<Vec<u32>> {
    if !b.len().is_multiple_of(4) {
        return Err(errors::invalid(format!(
            "{what}: {} bytes are no array of 32-bit numbers",
            b.len()
        )));
    }
    Ok(b.chunks_exact(4)
        .map(|c| u32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

/// The engines by name: "auto", "cells" or "bits", or dancing cells with
/// another of Knuth's rules: "cells-wtd" (weights), "cells-frb" (failure
/// rates) or "cells-binary" (binary branching).
const ENGINES: [(&str, xc::Engine); 6] = [
    ("auto", xc::Engine::Auto),
    ("cells", xc::Engine::Cells),
    ("bits", xc::Engine::Bits),
    ("cells-wtd", xc::Engine::CellsBy(xc::Heuristic::Weighted)),
    ("cells-frb", xc::Engine::CellsBy(xc::Heuristic::FailureRate)),
    ("cells-binary", xc::Engine::CellsBy(xc::Heuristic::Binary)),
];

/// The engine named `name` (one of [`ENGINES`]).
pub fn engine(name: &str) -> PyResult<xc::Engine> {
    match ENGINES.iter().find(|(n, _)| *n == name) {
        Some(&(_, e)) => Ok(e),
        None => {
            let names: Vec<String> = ENGINES.iter().map(|(n, _)| format!("'{n}'")).collect();
            Err(errors::invalid(format!(
                "engine must be one of {}, not {name:?}",
                names.join(", ")
            )))
        }
    }
}

/// The name of `engine` (as [`engine`] reads it).
pub fn engine_name(engine: xc::Engine) -> &'static str {
    ENGINES
        .iter()
        .find(|(_, e)| *e == engine)
        .map_or("cells", |(n, _)| n)
}

/// ValueError unless `order` is a permutation of `problem`'s primary items.
pub fn check_order(problem: &xc::CompiledProblem, order: &[u32]) -> PyResult<()> {
    let n1 = problem.n_primary();
    let mut seen = vec![false; n1];
    for &i in order {
        if i as usize >= n1 || std::mem::replace(&mut seen[i as usize], true) {
            return Err(errors::invalid(format!(
                "an item order is a permutation of the {n1} primary items: {i} is out of range or repeated"
            )));
        }
    }
    if order.len() != n1 {
        return Err(errors::invalid(format!(
            "an item order is a permutation of the {n1} primary items, not {} of them",
            order.len()
        )));
    }
    Ok(())
}
