//! Long engine calls on a thread of their own, so that Ctrl-C is seen while
//! they run: the calling thread naps without the GIL and checks for signals
//! between naps (Python only runs signal handlers on the main thread, with
//! the GIL), then raises the stop flag the engine call watches.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// Runs `work(stop)` on a scoped thread until it returns; a signal (Ctrl-C)
/// sets `stop`, and its exception is returned beside the result, for the
/// caller to raise or to turn into a partial answer.
pub fn until_interrupted<T: Send>(
    py: Python<'_>,
    what: &str,
    work: impl FnOnce(&AtomicBool) -> T + Send,
) -> PyResult<(T, Option<PyErr>)> {
    let stop = AtomicBool::new(false);
    until_interrupted_with(py, what, &stop, || work(&stop))
}

/// [`until_interrupted`], raising a flag the work already watches (the CDCL
/// solver's, read by its terminate callback).
pub fn until_interrupted_with<T: Send>(
    py: Python<'_>,
    what: &str,
    stop: &AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> PyResult<(T, Option<PyErr>)> {
    let mut signal = None;
    let result = std::thread::scope(|s| {
        let running = s.spawn(work);
        // Short naps first, so that quick calls return quickly.
        let mut nap = Duration::from_micros(100);
        while !running.is_finished() {
            py.detach(|| std::thread::sleep(nap));
            nap = (nap * 2).min(Duration::from_millis(20));
            if signal.is_none() {
                if let Err(e) = py.check_signals() {
                    signal = Some(e);
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
        running.join()
    })
    .map_err(|_| PyRuntimeError::new_err(format!("internal error in {what}")))?;
    Ok((result, signal))
}
