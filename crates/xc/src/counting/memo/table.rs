//! The memo's table: open addressing over slots of 16 bytes that point
//! into arenas of keys and counts, on one thread or in shards that a pool's
//! threads share.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::Tally;
use crate::core::prefetch;

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

/// A slot of the table: where an entry is, found by its hash.
#[derive(Clone, Copy)]
struct Slot {
    /// The hash of the entry's key, 0 for an empty slot.
    hash: u64,
    /// The entry's place in the arenas of keys and counts.
    entry: u32,
    /// Nodes the entry's sub-tree took to count: what eviction keeps.
    work: u32,
}

const EMPTY: Slot = Slot {
    hash: 0,
    entry: 0,
    work: 0,
};

/// The memo: open addressing over small slots, each pointing into arenas
/// where keys and counts are kept in the order they came.
///
/// Nearly every lookup misses (on Knuth's indicator problem, 1 in 85
/// hits), and the store that follows a miss writes a new entry: slots of
/// 16 bytes keep the lookup to one line of a table a sixth of the size of
/// one that holds the keys, and the store writes its key and count at the
/// arenas' ends, in lines just written, instead of at a random place. The
/// arenas are never rehashed: a table that doubles moves its slots only,
/// and an arena grows where it is (a large block is moved by its pages),
/// so that memory the kernel must clear for us is about half of what a
/// table of keys touched doubling after doubling.
pub(super) struct Table<V> {
    w: usize,
    slots: Vec<Slot>,
    /// Entry `e`'s key: `keys[e * w..(e + 1) * w]`.
    keys: Vec<u64>,
    /// Entry `e`'s count.
    counts: Vec<V>,
    /// The most entries the budget pays for beside the slots.
    most: usize,
    /// Entries whose slot was lost when the slots doubled (their window
    /// full): their places in the arenas stay taken.
    lost: usize,
    evictions: u64,
    budget: usize,
    /// Bytes the values hold outside the arena (big counts), kept as they
    /// come and go so that `bytes` is quick.
    heap: usize,
}

impl<V: Tally> Table<V> {
    /// Bytes of an entry in the arenas.
    fn entry_bytes(w: usize) -> usize {
        8 * w + std::mem::size_of::<V>()
    }

    pub(super) fn new(w: usize, budget: usize) -> Table<V> {
        let mut t = Table {
            w,
            slots: Vec::new(),
            keys: Vec::new(),
            counts: Vec::new(),
            most: 0,
            lost: 0,
            evictions: 0,
            budget,
            heap: 0,
        };
        let cap = (1usize << 12).min(t.max_slots()).max(WINDOW);
        t.slots = vec![EMPTY; cap];
        t.set_most();
        t
    }

    /// The most slots the budget pays for (a power of two), counting the
    /// entries of a table at most half full, and no more than entries can
    /// be numbered.
    pub(super) fn max_slots(&self) -> usize {
        let per = std::mem::size_of::<Slot>() + Table::<V>::entry_bytes(self.w) / 2;
        let n = (self.budget / per).clamp(WINDOW, 1 << 32);
        1 << (usize::BITS - 1 - n.leading_zeros())
    }

    fn set_most(&mut self) {
        let left = self
            .budget
            .saturating_sub(self.slots.len() * std::mem::size_of::<Slot>());
        // At least half the slots (the budget's share of them) and at most
        // all of them, whatever the arena's share.
        self.most = (left / Table::<V>::entry_bytes(self.w))
            .max(self.slots.len() / 2)
            .min(self.slots.len());
    }

    pub(super) fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>()
            + self.keys.capacity() * 8
            + self.counts.capacity() * std::mem::size_of::<V>()
            + self.heap
    }

    /// Entries that a lookup can find.
    pub(super) fn entries(&self) -> usize {
        self.counts.len() - self.lost
    }

    /// The slot where `h`'s window starts.
    #[inline]
    fn home(&self, h: u64) -> usize {
        // (The low bit of a hash is always 1: it marks a full slot.)
        ((h >> 1) as usize) & (self.slots.len() - 1)
    }

    #[inline]
    fn window(&self, h: u64) -> impl Iterator<Item = usize> {
        let (home, mask) = (self.home(h), self.slots.len() - 1);
        (0..WINDOW.min(self.slots.len())).map(move |d| (home + d) & mask)
    }

    /// Asks for the line of `h`'s home slot, where [`Table::get`] looks first.
    #[inline]
    pub(super) fn prefetch(&self, h: u64) {
        prefetch(&self.slots[self.home(h)..]);
    }

    pub(super) fn get(&self, h: u64, key: &[u64]) -> Option<(&V, u32)> {
        let w = self.w;
        for s in self.window(h) {
            let slot = self.slots[s];
            if slot.hash == 0 {
                // A key takes the first empty slot of its window, and a slot
                // once full never empties (eviction replaces in place), so
                // the key is not further on.
                return None;
            }
            let e = slot.entry as usize;
            if slot.hash == h && &self.keys[e * w..(e + 1) * w] == key {
                return Some((&self.counts[e], slot.work));
            }
        }
        None
    }

    pub(super) fn can_grow(&self) -> bool {
        2 * self.slots.len() <= self.max_slots()
    }

    pub(super) fn put(
        &mut self,
        h: u64,
        key: &[u64],
        count: V,
        work: u32,
        halt: Option<&AtomicBool>,
    ) {
        if 2 * (self.counts.len() + 1) > self.slots.len() && self.can_grow() && !is_up(halt) {
            self.grow(halt);
        }
        let w = self.w;
        // An empty slot in the window (while the arenas have room), else the
        // cheapest entry to count again.
        let mut target = None;
        let mut cheapest = (u32::MAX, 0);
        for s in self.window(h) {
            let slot = &self.slots[s];
            if slot.hash == 0 {
                target = Some(s);
                break;
            }
            if slot.work < cheapest.0 {
                cheapest = (slot.work, s);
            }
        }
        if target.is_some() && self.counts.len() >= self.most {
            target = None; // the arenas are at the budget: replace, if any
        }
        let (s, e) = match target {
            Some(s) => {
                let e = self.counts.len();
                if e == self.counts.capacity() && is_up(halt) {
                    return; // a stopping run's arenas do not grow either
                }
                self.reserve();
                self.keys.extend_from_slice(key);
                self.heap += count.heap_bytes();
                self.counts.push(count);
                (s, e)
            }
            None if self.can_grow() && !is_up(halt) => {
                // A crowded window while the budget allows more room.
                self.grow(halt);
                return self.put(h, key, count, work, halt);
            }
            None => {
                if cheapest.0 > work || cheapest.0 == u32::MAX {
                    return; // everything in the window was dearer to count
                }
                self.evictions += 1;
                let (s, e) = (cheapest.1, self.slots[cheapest.1].entry as usize);
                self.keys[e * w..(e + 1) * w].copy_from_slice(key);
                self.heap = self.heap + count.heap_bytes() - self.counts[e].heap_bytes();
                self.counts[e] = count;
                (s, e)
            }
        };
        self.slots[s] = Slot {
            hash: h,
            entry: e as u32,
            work,
        };
    }

    /// Room in the arenas for one more entry: they grow by half again, at
    /// most to what the budget pays for (`most`), so that the budget holds.
    fn reserve(&mut self) {
        let n = self.counts.len();
        if n < self.counts.capacity() {
            return;
        }
        let to = (n + n / 2).max(1 << 10).min(self.most).max(n + 1);
        self.counts.reserve_exact(to - n);
        self.keys.reserve_exact(to * self.w - self.keys.len());
    }

    /// Doubles the slots and puts them back (an entry whose window is full
    /// is dropped: the memo is a cache; its place in the arenas stays
    /// taken). The keys and counts stay where they are. Once `halt` is up
    /// the run is stopping: the slots not yet put back are dropped too, so
    /// that a table of gigabytes does not hold the stop up; a count that
    /// goes on later finds fewer sub-problems, never a wrong one.
    fn grow(&mut self, halt: Option<&AtomicBool>) {
        let twice = vec![EMPTY; 2 * self.slots.len()];
        let old = std::mem::replace(&mut self.slots, twice);
        self.set_most();
        for (k, &slot) in old.iter().enumerate() {
            if k % HALT_EVERY == 0 && is_up(halt) {
                self.lost += old[k..].iter().filter(|s| s.hash != 0).count();
                break;
            }
            if slot.hash == 0 {
                continue;
            }
            let free = self.window(slot.hash).find(|&s| self.slots[s].hash == 0);
            match free {
                Some(s) => self.slots[s] = slot,
                None => self.lost += 1,
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
    /// Asks for the line where [`Store::get`] looks first for `h` (a table
    /// of its own; the shards are behind locks).
    #[inline]
    pub(super) fn prefetch(&self, h: u64) {
        if let Store::Own(t) = self {
            t.prefetch(h);
        }
    }

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
        let one = |t: &Table<V>| (t.entries() as u64, t.evictions, t.bytes() as u64);
        match self {
            Store::Own(t) => one(t),
            Store::Shared(s) => s.shards.iter().fold((0, 0, 0), |(a, b, c), t| {
                let (x, y, z) = one(&t.lock().unwrap_or_else(|e| e.into_inner()));
                (a + x, b + y, c + z)
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::number::{Number, hash};
    use crate::core::rng::Rng;

    #[test]
    fn a_table_finds_what_it_kept_and_keeps_to_its_budget() {
        // Keys of 3 words, many more than a small budget holds: whatever a
        // lookup finds is the count stored with that key (an eviction
        // replaces a key and its count together), the bytes stay within the
        // budget, and a large budget keeps every key.
        let mut rng = Rng::new(3);
        let keys: Vec<[u64; 3]> = (0..20_000)
            .map(|_| [rng.below(1 << 20), rng.below(1 << 20), rng.below(1 << 20)])
            .collect();
        let distinct: std::collections::HashSet<_> = keys.iter().collect();
        assert_eq!(distinct.len(), keys.len()); // (as the memo puts only what it missed)
        for budget in [1 << 12, 1 << 16, 1 << 20, 1 << 26] {
            let mut t = Table::<Number>::new(3, budget);
            for (n, k) in keys.iter().enumerate() {
                t.put(
                    hash(k),
                    k,
                    Number::Small(n as u128),
                    1 + (n % 7) as u32,
                    None,
                );
            }
            let mut found = 0;
            for (n, k) in keys.iter().enumerate() {
                if let Some((v, work)) = t.get(hash(k), k) {
                    assert_eq!(*v, Number::Small(n as u128), "budget {budget}, key {n}");
                    assert_eq!(work, 1 + (n % 7) as u32);
                    found += 1;
                }
            }
            assert!(t.bytes() <= budget, "{} bytes against {budget}", t.bytes());
            let (entries, evictions, _) = Store::Own(t).usage();
            if budget == 1 << 26 {
                assert_eq!((found, evictions), (keys.len(), 0));
            } else {
                assert!(evictions > 0 && found < keys.len(), "budget {budget}");
            }
            assert!(entries as usize <= keys.len());
        }
    }
}
