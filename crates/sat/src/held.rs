//! The CaDiCaL solver as a search holds it: freed on a thread of its own
//! where it is big.
//!
//! Freeing CaDiCaL's tables is a walk over every clause: 2.5 s for the 13
//! million clauses of a random problem of a million options. A solver is
//! dropped as a Ctrl-C unwinds (an encoding stopped half-way, or the search
//! whose stage the exception leaves), and the user waited those seconds for
//! the answer to it: 1-4 s, where 0.2 s is asked. So past
//! [`FREED_APART`] clauses the drop hands the solver to a thread that frees
//! it while the caller goes on (a process that exits does not wait for it).

use std::mem::ManuallyDrop;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicU64, Ordering};

/// Clauses past which a solver is freed on a thread of its own (some 50 ms
/// of freeing; below that, the thread would cost more than it saves).
pub const FREED_APART: u64 = 250_000;

/// Solvers handed to a freeing thread so far (for the tests).
static APART: AtomicU64 = AtomicU64::new(0);

/// A solver and the clauses written into it so far.
pub(crate) struct Held {
    solver: ManuallyDrop<cadical_sys::CaDiCal>,
    /// Clauses added (the encoding's and the blocking ones).
    pub clauses: u64,
}

/// The solver on its way to the freeing thread.
struct Moved(cadical_sys::CaDiCal);

// SAFETY: as for `Sat` (lib.rs): the solver keeps no thread-local state and
// its terminator is `Send`; once moved here nothing else refers to it, so the
// one thread that frees it is its only user.
unsafe impl Send for Moved {}

impl Moved {
    /// (A method, so that the thread's closure takes the whole `Moved`, not
    /// its field: the solver alone is not `Send`.)
    fn free(self) {
        drop(self.0);
    }
}

impl Held {
    pub fn new(solver: cadical_sys::CaDiCal) -> Held {
        Held {
            solver: ManuallyDrop::new(solver),
            clauses: 0,
        }
    }
}

impl Deref for Held {
    type Target = cadical_sys::CaDiCal;
    fn deref(&self) -> &cadical_sys::CaDiCal {
        &self.solver
    }
}

impl DerefMut for Held {
    fn deref_mut(&mut self) -> &mut cadical_sys::CaDiCal {
        &mut self.solver
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        // SAFETY: taken once, here, and never used again.
        let solver = unsafe { ManuallyDrop::take(&mut self.solver) };
        if self.clauses <= FREED_APART {
            return; // (dropped here)
        }
        let moved = Moved(solver);
        APART.fetch_add(1, Ordering::Relaxed);
        // Where no thread can be had, the closure and the solver in it are
        // dropped here, as for a small one.
        let _ = std::thread::Builder::new()
            .name("cadical-free".into())
            .spawn(move || moved.free());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_big_solver_is_freed_apart_and_a_small_one_here() {
        for (clauses, apart) in [(FREED_APART, 0), (FREED_APART + 1, 1)] {
            let mut held = Held::new(cadical_sys::CaDiCal::new());
            held.add(1);
            held.add(0);
            held.clauses = clauses;
            assert_eq!(held.solve(), cadical_sys::Status::SATISFIABLE);
            let before = APART.load(Ordering::Relaxed);
            drop(held);
            assert_eq!(APART.load(Ordering::Relaxed) - before, apart);
        }
    }
}
