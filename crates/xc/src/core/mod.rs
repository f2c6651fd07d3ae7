//! The data every family shares: the compiled problem and its checks, the
//! preprocessing, the sliced run protocol, counters, exact numbers, the
//! seeded generator, the machine interface the engines implement, and the
//! bit tables (the options' clashes as words) that search, counting and cost
//! all take; and the prefetch of a cache line that the tables of counts use.
//! Looks at nothing above it.

pub(crate) mod bitmasks;
pub(crate) mod bits;
pub(crate) mod canon;
pub(crate) mod machine;
pub(crate) mod number;
pub(crate) mod problem;
pub(crate) mod reduce;
pub(crate) mod rng;
pub(crate) mod sliced;
pub(crate) mod stats;

/// Asks for the cache line that holds `at[0]` (x86-64; elsewhere nothing):
/// a table far past the caches asks for a slot's line before the work
/// that reads it (the memo's and the frontier's).
#[inline(always)]
pub(crate) fn prefetch<T>(at: &[T]) {
    #[cfg(target_arch = "x86_64")]
    if !at.is_empty() {
        // SAFETY: a prefetch reads nothing and cannot fault; the address is
        // inside a live slice.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                at.as_ptr() as *const i8
            );
        }
    }
}
