//! The budgets of a call, read the same way by every class that runs the
//! engine: units of work, a deadline, a memory limit, and the run's stop
//! flag (`StopFlag`, held by Python's `covering.limits.Budget`), which
//! Ctrl-C and the command line's deadline raise and every engine sees
//! between two of its slices.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::errors;
use pyo3::prelude::*;

/// A flag that stops every engine run given it, from any thread: set once,
/// seen by the engines between their slices (within milliseconds).
#[pyclass(name = "StopFlag", module = "covering._core", frozen)]
#[derive(Default)]
pub struct PyStopFlag {
    flag: Arc<AtomicBool>,
}

impl PyStopFlag {
    pub fn flag(&self) -> &AtomicBool {
        &self.flag
    }
}

#[pymethods]
impl PyStopFlag {
    #[new]
    fn new() -> Self {
        PyStopFlag::default()
    }

    /// Stops the runs that watch this flag.
    fn set(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    /// Lowers the flag: runs given it go on again.
    fn clear(&self) {
        self.flag.store(false, Ordering::Relaxed);
    }

    fn is_set(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }
}

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

/// The budgets of one call into the engine: at most `units` more units of
/// work (nodes, transitions, decisions), until `deadline`, holding at most
/// `memory` bytes, while `stop` is down. None: no such limit.
#[derive(Clone, Copy, Default)]
pub struct Budget<'a> {
    pub units: Option<u64>,
    pub deadline: Option<Instant>,
    pub memory: Option<u64>,
    pub stop: Option<&'a AtomicBool>,
}

impl<'a> Budget<'a> {
    /// The budget of a call's arguments (`seconds` counted from now).
    pub fn of(
        units: Option<u64>,
        seconds: Option<f64>,
        memory: Option<u64>,
        stop: Option<&'a PyStopFlag>,
    ) -> PyResult<Budget<'a>> {
        Ok(Budget {
            units,
            deadline: deadline(seconds)?,
            memory,
            stop: stop.map(PyStopFlag::flag),
        })
    }

    /// Is the run's stop flag up, or the deadline past?
    pub fn is_spent(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}
