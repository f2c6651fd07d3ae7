//! The budgets of a call, read the same way by every class that runs the
//! engine: units of work, a deadline, a memory limit, and the run's stop
//! flag (`StopFlag`, held by Python's `covering.limits.Budget`), which
//! Ctrl-C and the command line's deadline raise and every engine sees
//! between two of its slices.

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock, Weak};
use std::time::{Duration, Instant};

use crate::errors;
use pyo3::prelude::*;

/// Why a flag went up: what ran out, as Python's `Budget` names it.
const REASONS: [&str; 6] = ["", "interrupt", "seconds", "nodes", "memory", "conflicts"];

/// The state behind a `StopFlag`: raised once (with the first reason), and
/// raising its children with it.
#[derive(Default)]
struct Flag {
    /// Shared with the engines that hold on to it (`PyStopFlag::shared`).
    up: Arc<AtomicBool>,
    why: AtomicU8,
    children: Mutex<Vec<Weak<Flag>>>,
}

impl Flag {
    fn raise(&self, why: u8) {
        // The first reason stays: what ran out first is what is reported.
        let _ = self
            .why
            .compare_exchange(0, why, Ordering::Relaxed, Ordering::Relaxed);
        self.up.store(true, Ordering::Relaxed);
        let children = std::mem::take(&mut *lock(&self.children));
        for child in children.iter().filter_map(Weak::upgrade) {
            child.raise(why);
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panic while the lock was held leaves nothing half-done here.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The one thread that raises flags at their deadlines (started on the first
/// `arm`): engines watch the flag alone, and a run's deadline reaches every
/// one of them (the threads of a pool, the queens counter, the CDCL solver)
/// without each keeping a clock.
struct Alarms {
    due: Mutex<Vec<(Instant, Weak<Flag>)>>,
    wake: Condvar,
}

fn alarms() -> &'static Alarms {
    static ALARMS: OnceLock<&'static Alarms> = OnceLock::new();
    ALARMS.get_or_init(|| {
        let alarms: &'static Alarms = Box::leak(Box::new(Alarms {
            due: Mutex::new(Vec::new()),
            wake: Condvar::new(),
        }));
        let spawned = std::thread::Builder::new()
            .name("covering-deadlines".into())
            .spawn(move || alarms.ring_forever());
        // Without the thread, flags are raised by `is_set` and the engines'
        // own deadlines (every call passes both): slower to stop, never wrong.
        drop(spawned);
        alarms
    })
}

impl Alarms {
    fn ring_forever(&self) {
        let mut due = lock(&self.due);
        loop {
            let now = Instant::now();
            due.retain(|(at, flag)| match flag.upgrade() {
                Some(f) if *at <= now => {
                    f.raise(SECONDS);
                    false
                }
                Some(f) => !f.up.load(Ordering::Relaxed),
                None => false,
            });
            due = match due.iter().map(|(at, _)| *at).min() {
                Some(next) => {
                    let wait = next.saturating_duration_since(Instant::now());
                    self.wake
                        .wait_timeout(due, wait)
                        .unwrap_or_else(|e| e.into_inner())
                        .0
                }
                None => self
                    .wake
                    .wait(due)
                    .unwrap_or_else(std::sync::PoisonError::into_inner),
            };
        }
    }
}

const SECONDS: u8 = 2;

/// A flag that stops every engine run given it, from any thread: set once,
/// seen by the engines between their slices (within milliseconds). It may
/// carry a deadline (`arm`), at which it rises by itself with the reason
/// "seconds", and children (`child`), which rise with it.
#[pyclass(name = "StopFlag", module = "covering._core", frozen)]
#[derive(Default)]
pub struct PyStopFlag {
    flag: Arc<Flag>,
    deadline: Mutex<Option<Instant>>,
}

impl PyStopFlag {
    pub fn flag(&self) -> &AtomicBool {
        &self.flag.up
    }

    /// The flag itself, for an engine that looks at it inside its own
    /// steps (the memo, before its table doubles), not only between slices.
    pub fn shared(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.flag.up)
    }

    /// The flag's deadline, if it was armed.
    pub fn deadline(&self) -> Option<Instant> {
        *lock(&self.deadline)
    }
}

#[pymethods]
impl PyStopFlag {
    #[new]
    fn new() -> Self {
        PyStopFlag::default()
    }

    /// Stops the runs that watch this flag (and its children), for
    /// `reason` ("interrupt" unless given: "seconds", "nodes", "memory",
    /// "conflicts").
    #[pyo3(signature = (reason = "interrupt"))]
    fn set(&self, reason: &str) -> PyResult<()> {
        let why = REASONS
            .iter()
            .position(|r| *r == reason && !r.is_empty())
            .ok_or_else(|| errors::invalid(format!("no such reason to stop: {reason:?}")))?;
        self.flag.raise(why as u8);
        Ok(())
    }

    fn is_set(&self) -> bool {
        if !self.flag.up.load(Ordering::Relaxed)
            && self.deadline().is_some_and(|d| Instant::now() >= d)
        {
            self.flag.raise(SECONDS);
        }
        self.flag.up.load(Ordering::Relaxed)
    }

    /// Why the flag went up (None while it is down).
    #[getter]
    fn reason(&self) -> Option<&'static str> {
        if !self.is_set() {
            return None;
        }
        Some(REASONS[usize::from(self.flag.why.load(Ordering::Relaxed)).min(REASONS.len() - 1)])
            .filter(|r| !r.is_empty())
            .or(Some("interrupt"))
    }

    /// Raises the flag `seconds` from now, with the reason "seconds" (an
    /// earlier deadline stays; infinity is none).
    fn arm(&self, seconds: f64) -> PyResult<()> {
        let Some(at) = deadline(Some(seconds))? else {
            return Ok(());
        };
        {
            let mut mine = lock(&self.deadline);
            if mine.is_some_and(|d| d <= at) {
                return Ok(());
            }
            *mine = Some(at);
        }
        let alarms = alarms();
        lock(&alarms.due).push((at, Arc::downgrade(&self.flag)));
        alarms.wake.notify_one();
        Ok(())
    }

    /// A new flag that rises when this one does (with its reason), and
    /// may also rise on its own (its own deadline), leaving this one down.
    fn child(&self) -> PyStopFlag {
        let child = PyStopFlag {
            flag: Arc::new(Flag::default()),
            deadline: Mutex::new(self.deadline()),
        };
        let mut children = lock(&self.flag.children);
        children.retain(|c| c.strong_count() > 0);
        children.push(Arc::downgrade(&child.flag));
        drop(children);
        // Raised already (or just now, between the two lines): the child too.
        if self.flag.up.load(Ordering::Relaxed) {
            child
                .flag
                .raise(self.flag.why.load(Ordering::Relaxed).max(1));
        }
        child
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

/// The binding's one spelling of a run's budget: Python's
/// `covering.limits.Budget`, read by attribute, given as `budget=` to every
/// engine run. `nodes` counts the engine's work from its start (nodes,
/// transitions, decisions: each engine its own unit), `memory` the bytes it
/// may hold, and `stop` is the run's flag, which also carries the deadline.
#[derive(FromPyObject)]
pub struct RunBudget<'py> {
    #[pyo3(attribute("nodes"))]
    pub nodes: Option<u64>,
    #[pyo3(attribute("memory"))]
    pub memory: Option<u64>,
    #[pyo3(attribute("stop"))]
    pub stop: PyRef<'py, PyStopFlag>,
}

/// The budgets of one call into the engine: at most `units` more units of
/// work (nodes, transitions, decisions), until `deadline`, holding at most
/// `memory` bytes, while `stop` is down. None: no such limit.
#[derive(Clone, Default)]
pub struct Budget {
    pub units: Option<u64>,
    pub deadline: Option<Instant>,
    pub memory: Option<u64>,
    /// The run's flag, shared: the driver looks at it between slices, an
    /// engine that holds on to it (the memo) inside its steps too.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Budget {
    /// The budget of a call on an engine that has done `done` units of
    /// work: what is left of the run's `budget` (None: no limit at all).
    pub fn after(budget: Option<&RunBudget<'_>>, done: u64) -> Budget {
        let Some(b) = budget else {
            return Budget::default();
        };
        Budget {
            units: b.nodes.map(|n| n.saturating_sub(done)),
            // (The flag rises by itself at its deadline; the driver also
            // looks at the clock, in case the alarms' thread could not start.)
            deadline: b.stop.deadline(),
            memory: b.memory,
            stop: Some(b.stop.shared()),
        }
    }

    /// Is the run's stop flag up, or the deadline past?
    pub fn is_spent(&self) -> bool {
        self.stop
            .as_deref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}
