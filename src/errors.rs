//! The one place where Python exceptions are made: every error the binding
//! raises is built here, so its kinds (and their Python classes) are seen at
//! a glance.

use pyo3::create_exception;
use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyValueError};
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
    problem(e.to_string())
}

/// A problem an engine cannot take (a `ProblemError`, a `ValueError`).
pub fn problem(message: impl Into<String>) -> PyErr {
    ProblemError::new_err(message.into())
}

/// An argument the binding cannot accept (a `ValueError`; the Python layer
/// checks first, so this names what it got).
pub fn invalid(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}

/// Something that cannot happen unless a thread of the engine panicked or a
/// lock was poisoned: a `RuntimeError` naming where, never a crash.
pub fn internal(message: impl Into<String>) -> PyErr {
    PyRuntimeError::new_err(message.into())
}

/// A memory budget the caller gave was too small (a `MemoryError`).
pub fn out_of_memory(message: impl Into<String>) -> PyErr {
    PyMemoryError::new_err(message.into())
}
