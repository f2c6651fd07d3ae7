//! Time budgets, read the same way by every call that takes `seconds`.

use std::time::{Duration, Instant};

use crate::errors;
use pyo3::PyResult;

/// The moment `seconds` from now, or None for no limit: infinity, or a time
/// too far away for the clock (`1e20` seconds), is no limit; NaN and
/// negative numbers are errors. (The Python layer checks first; this keeps
/// the binding from panicking whatever it is given.)
pub fn deadline(seconds: Option<f64>) -> PyResult<Option<Instant>> {
    let Some(s) = seconds else { return Ok(None) };
    if s.is_nan() || s < 0.0 {
        return Err(errors::invalid(format!(
            "seconds must be a non-negative number, not {s}"
        )));
    }
    Ok(Duration::try_from_secs_f64(s)
        .ok()
        .and_then(|d| Instant::now().checked_add(d)))
}
