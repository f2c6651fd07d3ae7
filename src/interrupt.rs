//! How long engine work answers Ctrl-C, `cancel()` and time budgets, in one
//! of two ways:
//! * [`in_slices`]: work that can pause (a search, a memo count) runs in
//!   short slices with the GIL released; between slices, signals, the cancel
//!   flag and the deadline are checked.
//! * [`until_interrupted`] and [`on_threads`]: work that cannot pause often
//!   runs on threads of its own; the calling thread waits without the GIL,
//!   wakes when a thread is done or every 20 ms to check for signals (Python
//!   only runs signal handlers on the main thread, with the GIL), and on a
//!   signal raises the stop flag the work watches.
//! * [`apart`]: as [`until_interrupted`], for work with steps that cannot be
//!   stopped for a second or so (CaDiCaL taking millions of variables): on
//!   a signal the caller returns at once and leaves the work to stop on its
//!   own thread.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::budget::Budget;

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
/// `cancelled` is set, or the budget's stop flag, or its deadline has
/// passed.
pub fn in_slices<T: Send>(
    py: Python<'_>,
    what: &str,
    cancelled: &AtomicBool,
    budget: &Budget,
    mut slice: impl FnMut() -> PyResult<Slice<T>> + Send,
    mut between: impl FnMut() -> PyResult<Option<Option<T>>>,
) -> PyResult<Option<T>> {
    loop {
        if cancelled.load(Ordering::Relaxed) || budget.is_spent() {
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
    }
}

/// [`in_slices`] for work counted in units (nodes, transitions) within the
/// budget's `units` (None: no limit): `step(n)` runs at most `n` units
/// without the GIL and returns the answer, if it has one, and the units it
/// spent (at least one is counted, so the budget always runs down). The
/// units spent, `cancelled`, the stop flag or the deadline end the loop
/// with None. With a `memory` limit, `held()` gives between slices the
/// bytes held and the words that name them ("the frontier holds"): past
/// the limit, a MemoryError.
pub fn in_budget<T: Send>(
    py: Python<'_>,
    what: &str,
    cancelled: &AtomicBool,
    budget: &Budget,
    mut step: impl FnMut(u64) -> PyResult<(Option<T>, u64)> + Send,
    mut held: impl FnMut() -> PyResult<(u64, &'static str)>,
) -> PyResult<Option<T>> {
    let memory_limit = budget.memory;
    let mut left = budget.units.unwrap_or(u64::MAX);
    let slice = || {
        if left == 0 {
            return Ok(Slice::Done(None));
        }
        let (answer, spent) = step(left)?;
        left = left.saturating_sub(spent.max(1));
        Ok(match answer {
            Some(v) => Slice::Done(Some(v)),
            None => Slice::More,
        })
    };
    let between = || {
        if let Some(most) = memory_limit {
            let (bytes, holder) = held()?;
            if bytes > most {
                return Err(errors::out_of_memory(format!(
                    "{holder} {bytes} bytes, past the limit of {most}"
                )));
            }
        }
        Ok(None)
    };
    Ok(in_slices(py, what, cancelled, budget, slice, between)?.flatten())
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
    until_stopped(py, what, stop, None, work)
}

/// [`until_interrupted_with`], also raising `stop` when `watch` (a run's
/// stop flag) goes up.
pub fn until_stopped<T: Send>(
    py: Python<'_>,
    what: &str,
    stop: &AtomicBool,
    watch: Option<&AtomicBool>,
    work: impl FnOnce() -> T + Send,
) -> PyResult<(T, Option<PyErr>)> {
    let (mut results, signal) = on_threads(py, what, stop, watch, vec![work])?;
    match results.pop() {
        Some(result) => Ok((result, signal)),
        None => Err(errors::internal(format!("internal error in {what}"))),
    }
}

/// The one batch runner: runs each job on a scoped thread of its own while
/// the calling thread waits without the GIL, waking as soon as a job is
/// done (a nap would idle the end of every batch) and every 20 ms to check
/// for signals; a signal (Ctrl-C), or `watch` (a run's stop flag) going
/// up, raises `stop`, which the jobs watch; a signal's exception is
/// returned beside the results, in the jobs' order. A panic in a job
/// becomes an internal error naming `what`.
pub fn on_threads<T: Send, F: FnOnce() -> T + Send>(
    py: Python<'_>,
    what: &str,
    stop: &AtomicBool,
    watch: Option<&AtomicBool>,
    jobs: Vec<F>,
) -> PyResult<(Vec<T>, Option<PyErr>)> {
    let mut signal = None;
    let results = std::thread::scope(|s| {
        let (done, finished) = channel::<()>();
        let handles: Vec<_> = jobs
            .into_iter()
            .map(|job| {
                let done = done.clone();
                s.spawn(move || {
                    // Sent even when the job panics (the guard drops).
                    let _guard = Signal(done);
                    job()
                })
            })
            .collect();
        drop(done);
        let finished = Ticks::new(finished);
        let mut left = handles.len();
        while left > 0 {
            match finished.next(py) {
                Ok(()) => left -= 1,
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => {
                    if watch.is_some_and(|w| w.load(Ordering::Relaxed)) {
                        stop.store(true, Ordering::Relaxed);
                    }
                    if signal.is_none() {
                        if let Err(e) = py.check_signals() {
                            signal = Some(e);
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                }
            }
        }
        handles
            .into_iter()
            .map(|h| h.join())
            .collect::<Result<Vec<T>, _>>()
    })
    .map_err(|_| errors::internal(format!("internal error in {what}")))?;
    Ok((results, signal))
}

/// Runs `work(stop)` on a thread of its own, which the caller does not wait
/// for once a signal (Ctrl-C) has come: then `stop` is raised and the
/// signal's exception returned at once, and the work ends by itself
/// (dropping what it built, on that thread). Without a signal, its result.
/// For work whose single steps run long: the CDCL encoding of a million
/// options declares its 5 million variables to CaDiCaL in one call (0.75 s),
/// and before that one doubling of its tables took 1.8 s, where a Ctrl-C is
/// answered in 0.2 s. A panic in the work becomes an internal error naming
/// `what`.
pub fn apart<T: Send + 'static>(
    py: Python<'_>,
    what: &str,
    work: impl FnOnce(&AtomicBool) -> T + Send + 'static,
) -> PyResult<Result<T, PyErr>> {
    let stop = Arc::new(AtomicBool::new(false));
    let (done, finished) = channel::<Option<T>>();
    let flag = Arc::clone(&stop);
    std::thread::Builder::new()
        .name("covering-apart".into())
        .spawn(move || {
            // (None: it panicked.)
            let result = catch_unwind(AssertUnwindSafe(|| work(&flag))).ok();
            let _ = done.send(result);
        })
        .map_err(|e| errors::internal(format!("{what}: no thread: {e}")))?;
    let finished = Ticks::new(finished);
    loop {
        match finished.next(py) {
            Ok(Some(result)) => return Ok(Ok(result)),
            Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                return Err(errors::internal(format!("internal error in {what}")));
            }
            Err(RecvTimeoutError::Timeout) => {
                if let Err(e) = py.check_signals() {
                    stop.store(true, Ordering::Relaxed);
                    return Ok(Err(e));
                }
            }
        }
    }
}

/// What the calling thread waits on while work runs on threads of its own:
/// the next message, or a tick (20 ms) without one, to look for signals
/// (Python only runs their handlers on the main thread, with the GIL).
struct Ticks<T>(Mutex<Receiver<T>>);

impl<T: Send> Ticks<T> {
    fn new(rx: Receiver<T>) -> Self {
        // (A receiver is not Sync; the lock lets it wait without the GIL.)
        Ticks(Mutex::new(rx))
    }

    /// The next message, waited for without the GIL for at most a tick.
    fn next(&self, py: Python<'_>) -> Result<T, RecvTimeoutError> {
        py.detach(|| match self.0.lock() {
            Ok(rx) => rx.recv_timeout(Duration::from_millis(20)),
            Err(_) => Err(RecvTimeoutError::Disconnected),
        })
    }
}

/// Tells the waiting thread that a job has ended, however it ended.
struct Signal(Sender<()>);

impl Drop for Signal {
    fn drop(&mut self) {
        let _ = self.0.send(());
    }
}
