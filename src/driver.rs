//! One driver for every engine that runs in slices (`xc::Sliced`): the
//! search, the CDCL solver, the memo counts and the diagram, the frontier,
//! the min-cost searches. It keeps the engine behind a lock with a cancel
//! flag, and `run` goes in slices with the GIL released, seeing Ctrl-C,
//! `cancel()`, the budget (its units, deadline, stop flag and memory
//! limit) between them (`interrupt::in_budget`); `drive` does the same
//! with a step of the caller's own (a search's next solution, a count
//! reached). The Python classes only convert what goes in and comes out.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use pyo3::prelude::*;

use crate::budget::{Budget, RunBudget};
use crate::errors;
use crate::interrupt::{in_budget, until_stopped};

/// What the driver needs of an engine beyond its slices.
pub trait Driven: xc::Sliced + Send {
    /// The work done so far, in the units of its slices (nodes,
    /// transitions): budgets are counted on it.
    fn work(&self) -> u64;
    /// The bytes it holds, and who holds them (for the memory limit).
    fn held(&self) -> (u64, &'static str) {
        (0, "")
    }
    /// The run's stop flag, for an engine that looks at it inside its own
    /// steps (by default none does: the driver looks between slices).
    fn watch(&mut self, _halt: Option<Arc<AtomicBool>>) {}
}

/// How long a slice should take when its size adapts (min-cost searches,
/// whose nodes cost very different times): long enough that the lock and
/// the checks cost nothing, short enough that Ctrl-C is answered at once.
const SLICE_TIME: Duration = Duration::from_millis(40);

/// An engine, run from Python in slices.
pub struct Driver<M> {
    engine: Mutex<M>,
    cancelled: AtomicBool,
    /// What the engine is, for messages ("the memo search").
    what: &'static str,
    /// The size of a slice, and the most it may grow to when it adapts.
    slice: AtomicU64,
    most: u64,
    adapts: bool,
}

impl<M: Driven> Driver<M>
where
    M::Outcome: Send,
{
    /// Slices of `slice` units of work each.
    pub fn new(engine: M, what: &'static str, slice: u64) -> Self {
        Driver {
            engine: Mutex::new(engine),
            cancelled: AtomicBool::new(false),
            what,
            slice: AtomicU64::new(slice),
            most: slice,
            adapts: false,
        }
    }

    /// Slices that grow or shrink (from one unit up to `most`) so that each
    /// takes about `SLICE_TIME`.
    pub fn adaptive(engine: M, what: &'static str, most: u64) -> Self {
        Driver {
            slice: AtomicU64::new(1),
            adapts: true,
            ..Driver::new(engine, what, most)
        }
    }

    /// Slices of `most` units that shrink where they take more than
    /// `SLICE_TIME` (and grow back, up to `most`, where they take less than
    /// an eighth of it): the search's, whose first slice settles most small
    /// problems in one go and whose nodes on a board of 90,000 cells cost a
    /// thousand times those on a puzzle.
    pub fn shrinking(engine: M, what: &'static str, most: u64) -> Self {
        Driver {
            adapts: true,
            ..Driver::new(engine, what, most)
        }
    }

    pub fn lock(&self) -> PyResult<MutexGuard<'_, M>> {
        let what = self.what;
        self.engine
            .lock()
            .map_err(|_| errors::internal(format!("{what} failed in another thread")))
    }

    /// What is left of the run's `budget` for this engine (its nodes are
    /// counted from the engine's start).
    pub fn budget(&self, budget: Option<&RunBudget<'_>>) -> PyResult<Budget> {
        let done = self.lock()?.work();
        Ok(Budget::after(budget, done))
    }

    /// Stops a running `run` from another thread, at the end of its slice.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    /// Runs until the outcome, or until the budget (its units of work, its
    /// deadline, its stop flag) or `cancel()` (None). Ctrl-C raises
    /// KeyboardInterrupt; past the budget's memory limit, a MemoryError
    /// (the caller says what to do) rather than growing until the
    /// allocator aborts the process.
    pub fn run(&self, py: Python<'_>, budget: &Budget) -> PyResult<Option<M::Outcome>> {
        self.drive(py, budget, |engine, n| {
            engine.run(xc::Slice::work(n)).ready()
        })
    }

    /// [`Self::run`] with the caller's own step: `step(engine, n)` does at
    /// most `n` units of work (a slice) and returns the answer if it has
    /// one (a search's next solution, a count reached). The driver counts
    /// the work on `Driven::work`, sizes the slices and watches the budget.
    pub fn drive<T: Send>(
        &self,
        py: Python<'_>,
        budget: &Budget,
        mut step: impl FnMut(&mut M, u64) -> Option<T> + Send,
    ) -> PyResult<Option<T>> {
        self.lock()?.watch(budget.stop.clone());
        let step = |n: u64| {
            let mut engine = self.lock()?;
            let before = engine.work();
            let size = self.slice.load(Ordering::Relaxed);
            let start = Instant::now();
            let answer = step(&mut engine, n.min(size));
            if self.adapts {
                let took = start.elapsed();
                if took > SLICE_TIME {
                    self.slice.store((size / 2).max(1), Ordering::Relaxed);
                } else if took < SLICE_TIME / 8 {
                    self.slice
                        .store(size.saturating_mul(2).min(self.most), Ordering::Relaxed);
                }
            }
            // (Saturating: counters that went back would wrap to a spent budget.)
            Ok((answer, engine.work().saturating_sub(before)))
        };
        let held = || Ok(self.lock()?.held());
        in_budget(py, self.what, &self.cancelled, budget, step, held)
    }

    /// For an engine that cannot stop between slices often (the CDCL
    /// solver, stopped by a flag it watches, `halt`): runs `work` once on a
    /// thread of its own while this one waits without the GIL; Ctrl-C,
    /// `cancel()` and the budget's stop flag raise `halt`. A signal's
    /// exception comes back beside the result.
    pub fn watch<T: Send>(
        &self,
        py: Python<'_>,
        budget: &Budget,
        halt: &AtomicBool,
        work: impl FnOnce(&mut M) -> T + Send,
    ) -> PyResult<(T, Option<PyErr>)> {
        if self.cancelled.load(Ordering::Relaxed) {
            halt.store(true, Ordering::Relaxed);
        }
        let mut engine = self.lock()?;
        let engine: &mut M = &mut engine;
        until_stopped(py, self.what, halt, budget.stop.as_deref(), || work(engine))
    }

    /// Was `cancel()` called?
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }
}
