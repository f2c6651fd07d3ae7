//! The one place where engine errors become Python exceptions.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::PyErr;

create_exception!(
    covering._core,
    ProblemError,
    PyValueError,
    "A problem the engine cannot accept (a ValueError); the message names the item or option."
);

/// Engine errors name items and options by index; the Python builder has
/// already checked names, so reaching this means arrays built by hand.
pub fn to_py(e: xc::Error) -> PyErr {
    ProblemError::new_err(e.to_string())
}
