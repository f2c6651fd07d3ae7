//! The memo's table: open addressing over a flat arena of keys, on one
//! thread or in shards that a pool's threads share.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::Tally;

/// Entries put back between two looks at the stop flag while a table doubles.
const HALT_EVERY: usize = 1 << 14;

fn is_up(halt: Option<&AtomicBool>) -> bool {
    halt.is_some_and(|h| h.load(Ordering::Relaxed))
}

/// Probe window of the table: a key lives in one of these slots after its home.
///
/// Linear probing makes runs of full slots much longer than the load
/// suggests: with a window of 8, some window of a large table was full at a
/// sixth of its capacity, and the table doubled again and again (4 M slots
/// for the 0.7 M sub-problems of the 6 x 10 pentominoes). With 32 it grows
/// on load (half full) as meant, and a miss still stops at the first empty
/// slot.
const WINDOW: usize = 32;

/// Asks for the cache line that holds `at[0]` (x86-64; elsewhere nothing).
#[inline(always)]
fn prefetch<T>(at: &[T]) {
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

/// The memo: open addressing over a flat arena of keys.
pub(super) struct Table<V> {
    w: usize,
    /// `hash[s]`: the hash of the key in slot `s`, 0 for an empty slot.
    hash: Vec<u64>,
    keys: Vec<u64>,
    counts: Vec<V>,
    /// Nodes the entry's sub-tree took to count: what eviction keeps.
    work: Vec<u32>,
    entries: usize,
    evictions: u64,
    budget: usize,
    /// Bytes the values hold outside their slots (big counts), kept as they
    /// come and go so that `bytes` is quick.
    heap: usize,
}

impl<V: Tally> Table<V> {
    pub(super) fn slot_bytes(w: usize) -> usize {
        8 + 8 * w + std::mem::size_of::<V>() + 4
    }

    pub(super) fn new(w: usize, budget: usize) -> Table<V> {
        let mut t = Table {
            w,
            hash: Vec::new(),
            keys: Vec::new(),
            counts: Vec::new(),
            work: Vec::new(),
            entries: 0,
            evictions: 0,
            budget,
            heap: 0,
        };
        let cap = (1usize << 12).min(t.max_slots()).max(WINDOW);
        t.allocate(cap);
        t
    }

    /// The most slots the budget pays for (a power of two).
    pub(super) fn max_slots(&self) -> usize {
        let n = (self.budget / Table::<V>::slot_bytes(self.w)).max(WINDOW);
        1 << (usize::BITS - 1 - n.leading_zeros())
    }

    fn allocate(&mut self, cap: usize) {
        self.hash = vec![0; cap];
        self.keys = vec![0; cap * self.w];
        self.counts = vec![V::nothing(); cap];
        self.work = vec![0; cap];
        self.entries = 0;
        self.heap = 0;
    }

    pub(super) fn bytes(&self) -> usize {
        self.hash.len() * Table::<V>::slot_bytes(self.w) + self.heap
    }

    #[inline]
    fn slots(&self, h: u64) -> impl Iterator<Item = usize> {
        let mask = self.hash.len() - 1;
        // (The low bit of a hash is always 1: it marks a full slot.)
        let home = ((h >> 1) as usize) & mask;
        (0..WINDOW.min(self.hash.len())).map(move |d| (home + d) & mask)
    }

    pub(super) fn get(&self, h: u64, key: &[u64]) -> Option<(&V, u32)> {
        let w = self.w;
        for s in self.slots(h) {
            if self.hash[s] == 0 {
                // A key takes the first empty slot of its window, and a slot
                // once full never empties (eviction replaces in place), so
                // the key is not further on. The sub-problem is stored here
                // when counted: its lines are fetched now, while it is.
                prefetch(&self.keys[s * w..]);
                prefetch(&self.counts[s..]);
                prefetch(&self.work[s..]);
                return None;
            }
            if self.hash[s] == h && &self.keys[s * w..(s + 1) * w] == key {
                return Some((&self.counts[s], self.work[s]));
            }
        }
        None
    }

    pub(super) fn can_grow(&self) -> bool {
        2 * self.hash.len() <= self.max_slots()
    }

    pub(super) fn put(
        &mut self,
        h: u64,
        key: &[u64],
        count: V,
        work: u32,
        halt: Option<&AtomicBool>,
    ) {
        if 2 * (self.entries + 1) > self.hash.len() && self.can_grow() && !is_up(halt) {
            self.grow(halt);
        }
        let w = self.w;
        // An empty slot in the window, else the cheapest entry to count again.
        let mut target = None;
        let mut cheapest = (u32::MAX, 0);
        for s in self.slots(h) {
            if self.hash[s] == 0 {
                target = Some(s);
                break;
            }
            if self.work[s] < cheapest.0 {
                cheapest = (self.work[s], s);
            }
        }
        let s = match target {
            Some(s) => {
                self.entries += 1;
                s
            }
            None if self.can_grow() && !is_up(halt) => {
                // A crowded window while the budget allows more room.
                self.grow(halt);
                return self.put(h, key, count, work, halt);
            }
            None => {
                if cheapest.0 > work {
                    return; // everything in the window was dearer to count
                }
                self.evictions += 1;
                cheapest.1
            }
        };
        self.hash[s] = h;
        self.keys[s * w..(s + 1) * w].copy_from_slice(key);
        self.heap = self.heap + count.heap_bytes() - self.counts[s].heap_bytes();
        self.counts[s] = count;
        self.work[s] = work;
    }

    /// Doubles the table and puts the entries back (an entry whose window
    /// is full is dropped: the memo is a cache). Once `halt` is up the run
    /// is stopping: the entries not yet put back are dropped too, so that
    /// a table of gigabytes (0.9 s to double at one) does not hold the stop
    /// up; a count that goes on later finds fewer sub-problems, never a
    /// wrong one.
    fn grow(&mut self, halt: Option<&AtomicBool>) {
        let hash = std::mem::take(&mut self.hash);
        let keys = std::mem::take(&mut self.keys);
        let counts = std::mem::take(&mut self.counts);
        let work = std::mem::take(&mut self.work);
        self.allocate(2 * hash.len());
        let w = self.w;
        for (s, count) in counts.into_iter().enumerate() {
            if s % HALT_EVERY == 0 && is_up(halt) {
                break;
            }
            if hash[s] != 0 {
                self.put(hash[s], &keys[s * w..(s + 1) * w], count, work[s], None);
            }
        }
    }
}

/// Where a memo keeps its entries: a table of its own, or shards of one
/// table that the threads of a pool share (each shard behind its lock, the
/// shard chosen by the high bits of the hash), so that a sub-problem counted
/// by one thread is found by the others.
pub(super) enum Store<V> {
    Own(Table<V>),
    Shared(Arc<Shards<V>>),
}

/// A table cut into shards that threads share.
pub(crate) struct Shards<V> {
    shards: Vec<std::sync::Mutex<Table<V>>>,
}

impl<V: Tally> Shards<V> {
    /// `count` shards (a power of two) of keys of `w` words, holding about `budget` bytes together.
    pub(crate) fn new(w: usize, budget: usize, count: usize) -> Shards<V> {
        let count = count.next_power_of_two();
        Shards {
            shards: (0..count)
                .map(|_| std::sync::Mutex::new(Table::new(w, budget / count)))
                .collect(),
        }
    }

    fn shard(&self, h: u64) -> std::sync::MutexGuard<'_, Table<V>> {
        let k = (h >> 40) as usize & (self.shards.len() - 1);
        // A lock is poisoned only if a thread panicked holding it; the
        // table is still whole (a put either happened or not).
        self.shards[k].lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl<V: Tally> Store<V> {
    /// The value of `key` and the nodes its sub-tree took, if held.
    pub(super) fn get(&self, h: u64, key: &[u64]) -> Option<(V, u32)> {
        match self {
            Store::Own(t) => t.get(h, key).map(|(v, w)| (v.clone(), w)),
            Store::Shared(s) => s.shard(h).get(h, key).map(|(v, w)| (v.clone(), w)),
        }
    }

    pub(super) fn put(
        &mut self,
        h: u64,
        key: &[u64],
        value: V,
        work: u32,
        halt: Option<&AtomicBool>,
    ) {
        match self {
            Store::Own(t) => t.put(h, key, value, work, halt),
            Store::Shared(s) => s.shard(h).put(h, key, value, work, halt),
        }
    }

    /// (entries, evictions, bytes).
    pub(super) fn usage(&self) -> (u64, u64, u64) {
        let one = |t: &Table<V>| (t.entries as u64, t.evictions, t.bytes() as u64);
        match self {
            Store::Own(t) => one(t),
            Store::Shared(s) => s.shards.iter().fold((0, 0, 0), |(a, b, c), t| {
                let (x, y, z) = one(&t.lock().unwrap_or_else(|e| e.into_inner()));
                (a + x, b + y, c + z)
            }),
        }
    }
}
