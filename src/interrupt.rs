//! How long engine work answers Ctrl-C, `cancel()` and time budgets, in one
//! of two ways:
//! * [`in_slices`]: work that can pause (a search, a memo count) runs in
//!   short slices with the GIL released; between slices, signals, the cancel
//!   flag and the deadline are checked.
//! * [`until_interrupted`]: work that cannot pause often runs on a thread
//!   of its own; the calling thread naps without the GIL and checks for
//!   signals between naps (Python only runs signal handlers on the main
//!   thread, with the GIL), then raises the stop flag the work watches.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::errors;
use pyo3::prelude::*;

/// What one slice of work ended with.
pub enum Slice<T> {
    /// The answer: stop slicing.
    Done(T),
    /// Paused at the end of the slice: go on, unless stopped.
    More,
}

/// The one slice-and-detach loop: runs `slice` without the GIL (a panic in
/// it becomes an internal error naming `what`, never an abort) until it is
/// `Done`; between slices, runs `between` (with the GIL, for the caller's
/// own stops: a count reached, a memory budget; `Some` ends the loop with
/// that answer), raises a pending signal, and returns `None` once
/// `cancelled` is set or the deadline has passed.
pub fn in_slices<T: Send>(
    py: Python<'_>,
    what: &str,
    cancelled: &AtomicBool,
    deadline: Option<Instant>,
    mut slice: impl FnMut() -> PyResult<Slice<T>> + Send,
    mut between: impl FnMut() -> PyResult<Option<Option<T>>>,
) -> PyResult<Option<T>> {
    loop {
        if cancelled.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let done = py.detach(|| {
            catch_unwind(AssertUnwindSafe(&mut slice))
                .map_err(|_| errors::internal(format!("internal error in {what}")))?
        })?;
        if let Slice::Done(answer) = done {
            return Ok(Some(answer));
        }
        if let Some(answer) = between()? {
            return Ok(answer);
        }
        py.check_signals()?;
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Ok(None);
        }
    }
}

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
    .map_err(|_| errors::internal(format!("internal error in {what}")))?;
    Ok((result, signal))
}
