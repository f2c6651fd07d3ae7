//! The frontier's tables: the states of one step, each a key of fields
//! (one per live item) with its number of ways. Dense arrays indexed by key
//! where the frontier is narrow; hashed tables of exact keys otherwise.

use crate::core::number::{Number, hash};
use crate::core::prefetch;

/// One item's field in a key whose bit 0 is the first bit of the item being
/// settled: `rel` bits up, `width` wide (a field may straddle two words).
#[inline(always)]
pub(super) fn get(key: &[u64], rel: u64, width: u32) -> u64 {
    let (w, s) = ((rel >> 6) as usize, (rel & 63) as u32);
    let mut v = key[w] >> s;
    if s + width > 64 {
        v |= key[w + 1] << (64 - s);
    }
    v & ((1u64 << width) - 1)
}

#[inline(always)]
pub(super) fn set(key: &mut [u64], rel: u64, width: u32, v: u64) {
    let (w, s) = ((rel >> 6) as usize, (rel & 63) as u32);
    let mask = (1u64 << width) - 1;
    key[w] = (key[w] & !(mask << s)) | (v << s);
    if s + width > 64 {
        let r = 64 - s;
        key[w + 1] = (key[w + 1] & !(mask >> r)) | (v >> r);
    }
}

/// What an entry of an option does to its item's field: a primary item's
/// count goes up by one; a secondary item takes a color (1..) or is used
/// alone (`value == EXCLUSIVE`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    pub(super) item: u32,
    pub(super) value: u64,
}

/// The states of one step: keys in one buffer, counts beside them, an
/// open-addressing index (linear probing) over them. A slot holds a state's
/// number and the high half of its key's hash, so that a probe reads a key
/// (a second trip to memory in a big table) only where the halves agree.
#[derive(Debug)]
pub(super) struct States {
    pub(super) kw: usize,
    pub(super) keys: Vec<u64>,
    pub(super) counts: Vec<Number>,
    pub(super) slots: Vec<u64>,
    /// States added but not yet put in (see [`States::add`]), first in first
    /// out: a ring of [`WAIT`] + 1 hashes, counts and keys (`kw` words
    /// each), from `first`, `waiting` of them.
    wait_hash: Vec<u64>,
    wait_count: Vec<Number>,
    wait_key: Vec<u64>,
    first: usize,
    waiting: usize,
}

/// States that wait, their slots' lines asked for, before they are put in a
/// table past a core's cache: by the time a state is put in, its line has
/// come (the walk to memory of one state overlapped with the work of the
/// next ones).
const WAIT: usize = 8;

pub(super) const EMPTY: u64 = u64::MAX;

/// The bits of a slot that hold the high half of its key's hash; the state's
/// number is in the others.
pub(super) const TAG: u64 = !0xFFFF_FFFF;

/// A slot: the state's number, the hash's high half above it.
#[inline(always)]
pub(super) fn slot_of(s: usize, h: u64) -> u64 {
    (h & TAG) | s as u64
}

/// Slots of a sparse table past which its probes go to memory (a table of
/// 2^20 slots holds some 30 MB of keys, counts and slots), and what such a
/// trip costs in mems.
pub(super) const FAR_SLOTS: usize = 1 << 20;
pub(super) const FAR_MEMS: u64 = 40;
/// Slots past which a table has left a core's own cache (2^16 slots and
/// their keys and counts: some 1.5 MB) for the shared one, and what such
/// a trip costs in mems: on graph covers (Rome graphs of about 100
/// vertices, frontiers of 41 bits, 0.4-3M states) a mem took 7-8.5 ns
/// without it, against 4 priced.
pub(super) const NEAR_SLOTS: usize = 1 << 16;
pub(super) const NEAR_MEMS: u64 = 12;
/// Mems of hashing a word of a key.
pub(super) const HASH_MEMS: u64 = 4;
/// Mems of a transition's own bookkeeping (its count read, its loop).
pub(super) const TRANSITION_MEMS: u64 = 3;

impl States {
    pub(super) fn new(kw: usize) -> States {
        States {
            kw,
            keys: Vec::new(),
            counts: Vec::new(),
            slots: vec![EMPTY; 16],
            wait_hash: Vec::new(),
            wait_count: Vec::new(),
            wait_key: Vec::new(),
            first: 0,
            waiting: 0,
        }
    }

    pub(super) fn len(&self) -> usize {
        self.counts.len()
    }

    pub(super) fn key(&self, s: usize) -> &[u64] {
        &self.keys[s * self.kw..(s + 1) * self.kw]
    }

    /// Adds `count` to the state `key` (made if new), or, in a table past
    /// a core's cache, asks for the line of its slot and puts it in later,
    /// after [`WAIT`] more states or at [`States::settle`]; the cost in mems
    /// (see [`FrontierProgress::mems`]) of what was put in.
    pub(super) fn add(&mut self, key: &[u64], count: &Number) -> u64 {
        let h = hash(key);
        if self.waiting == 0 && self.slots.len() <= NEAR_SLOTS {
            return self.put(h, key, count);
        }
        prefetch(&self.slots[self.home(h)..]);
        if self.wait_hash.is_empty() {
            self.wait_hash = vec![0; WAIT + 1];
            self.wait_count = vec![Number::ZERO; WAIT + 1];
            self.wait_key = vec![0; (WAIT + 1) * self.kw];
        }
        let last = (self.first + self.waiting) % (WAIT + 1);
        self.wait_hash[last] = h;
        self.wait_count[last].clone_from(count);
        self.wait_key[last * self.kw..(last + 1) * self.kw].copy_from_slice(key);
        self.waiting += 1;
        if self.waiting <= WAIT {
            return 0;
        }
        self.put_first()
    }

    /// Puts in the state that has waited longest (there is one); its mems.
    fn put_first(&mut self) -> u64 {
        let f = self.first;
        let (keys, counts) = (
            std::mem::take(&mut self.wait_key),
            std::mem::take(&mut self.wait_count),
        );
        let mems = self.put(
            self.wait_hash[f],
            &keys[f * self.kw..(f + 1) * self.kw],
            &counts[f],
        );
        (self.wait_key, self.wait_count) = (keys, counts);
        self.first = (f + 1) % (WAIT + 1);
        self.waiting -= 1;
        mems
    }

    /// Puts in every state that waits (before the table is read); their mems.
    pub(super) fn settle(&mut self) -> u64 {
        let mut mems = 0;
        while self.waiting > 0 {
            mems += self.put_first();
        }
        mems
    }

    /// The slot where the probes for hash `h` start.
    #[inline]
    fn home(&self, h: u64) -> usize {
        h as usize & (self.slots.len() - 1)
    }

    /// Adds `count` to the state `key` of hash `h` (made if new); its mems.
    fn put(&mut self, h: u64, key: &[u64], count: &Number) -> u64 {
        if 2 * (self.len() + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let tag = h & TAG;
        let mut at = self.home(h);
        // A table past the caches costs a trip to memory for the slot and
        // one for the key or count.
        let far = if self.slots.len() > FAR_SLOTS {
            FAR_MEMS
        } else if self.slots.len() > NEAR_SLOTS {
            NEAR_MEMS
        } else {
            0
        };
        // Hashing a word takes two multiplications and three shifts.
        let mut mems = far + HASH_MEMS * self.kw as u64;
        loop {
            mems += 1;
            let slot = self.slots[at];
            if slot == EMPTY {
                self.slots[at] = slot_of(self.len(), h);
                self.keys.extend_from_slice(key);
                self.counts.push(count.clone());
                return mems;
            }
            if slot & TAG == tag {
                let s = (slot & !TAG) as usize;
                mems += self.kw as u64;
                let stored = &self.keys[s * self.kw..(s + 1) * self.kw];
                if stored.iter().zip(key).all(|(a, b)| a == b) {
                    self.counts[s].add(count);
                    return mems + far;
                }
            }
            at = (at + 1) & mask;
        }
    }

    pub(super) fn grow(&mut self) {
        let n = self.slots.len() * 2;
        self.slots = vec![EMPTY; n];
        let mask = n - 1;
        for s in 0..self.len() {
            let h = hash(self.key(s));
            let mut at = self.home(h);
            while self.slots[at] != EMPTY {
                at = (at + 1) & mask;
            }
            self.slots[at] = slot_of(s, h);
        }
    }

    /// The bytes held.
    pub(super) fn bytes(&self) -> usize {
        self.keys.capacity() * 8
            + self.counts.capacity() * std::mem::size_of::<Number>()
            + self.slots.capacity() * 8
    }
}

/// The states of one step when every key fits in `bits` bits: a count for
/// each possible key, indexed by it (no hashing), a bitmap of the keys in
/// use, walked in increasing order (the next step's keys then come in
/// nearly increasing order too, so the counts are touched nearly in
/// sequence). A count is 128 bits in `cells`, and for the rare key whose
/// count passes that, its multiples of 2^128 in `high`, so counts stay exact
/// at any size.
///
/// A key is kept at its place turned right by `rot` of its `bits` bits (a
/// rotation: every key has its own place). A binary step turns the table
/// of each step so that the field settled next is its lowest bit, as the
/// keys of a window sliding over the items were (0fa138b): the fields that
/// change together are then the low bits, and the states of a step are
/// read and written in sequence, where fields kept in fixed places (one
/// slot a field while it lives) scatter the writes across the table. The
/// L-tromino count of 18 x 18, 2^20 keys of 16 bytes: 0.62 s fixed, 0.24 s
/// turned.
#[derive(Debug)]
pub(super) struct Dense {
    pub(super) cells: Vec<u128>,
    pub(super) used: Vec<u64>,
    pub(super) len: usize,
    pub(super) high: std::collections::HashMap<u32, Number>,
    pub(super) bits: u32,
    pub(super) rot: u32,
}

/// `x` (of `bits` bits) turned right by `r`.
#[inline(always)]
pub(super) fn rotr(x: u64, r: u32, bits: u32) -> u64 {
    let r = r % bits.max(1);
    if r == 0 {
        return x;
    }
    ((x >> r) | (x << (bits - r))) & (u64::MAX >> (64 - bits))
}

/// Keys of at most this many bits go to a [`Dense`] table (two tables of
/// 2^22 counts: 128 MiB).
pub(super) const DENSE_BITS: u64 = 22;

/// `n` as its low 128 bits and the rest (multiples of 2^128), if any.
pub(super) fn split128(n: &Number) -> (u128, Option<Number>) {
    match n {
        Number::Small(x) => (*x, None),
        Number::Big(v) => {
            let low = v[0] as u128 | (v.get(1).copied().unwrap_or(0) as u128) << 64;
            let rest: Vec<u64> = v.iter().skip(2).copied().collect();
            let high =
                (!rest.is_empty() && rest.iter().any(|&x| x != 0)).then_some(Number::Big(rest));
            (low, high)
        }
    }
}

impl Dense {
    /// The place of `key`.
    #[inline(always)]
    pub(super) fn place(&self, key: u64) -> usize {
        rotr(key, self.rot, self.bits) as usize
    }

    /// The key at place `k`.
    pub(super) fn key(&self, k: usize) -> u64 {
        rotr(k as u64, self.bits - self.rot % self.bits.max(1), self.bits)
    }

    /// Adds `count` (below 2^128) to the key at place `k`.
    #[inline(always)]
    pub(super) fn add_low(&mut self, k: usize, count: u128) {
        let bit = 1u64 << (k % 64);
        if self.used[k / 64] & bit == 0 {
            self.used[k / 64] |= bit;
            self.len += 1;
        }
        let (sum, carry) = self.cells[k].overflowing_add(count);
        self.cells[k] = sum;
        if carry {
            self.high
                .entry(k as u32)
                .or_insert(Number::ZERO)
                .add(&Number::Small(1));
        }
    }
}

#[derive(Debug)]
pub(super) enum Table {
    Sparse(States),
    Dense(Dense),
}

impl Table {
    pub(super) fn new(kw: usize, dense_bits: Option<u64>) -> Table {
        match dense_bits {
            Some(b) => Table::Dense(Dense {
                cells: vec![0; 1 << b],
                used: vec![0; (1usize << b).div_ceil(64)],
                len: 0,
                high: std::collections::HashMap::new(),
                bits: b as u32,
                rot: 0,
            }),
            None => Table::Sparse(States::new(kw)),
        }
    }

    pub(super) fn len(&self) -> usize {
        match self {
            Table::Sparse(s) => s.len(),
            Table::Dense(d) => d.len,
        }
    }

    /// The first state at or after place `at` (an index, or for a dense
    /// table a key): its place, its key into `key`, its count.
    pub(super) fn entry(&self, at: usize, key: &mut [u64]) -> Option<(usize, Number)> {
        match self {
            Table::Sparse(s) => {
                if at >= s.len() {
                    return None;
                }
                key.copy_from_slice(s.key(at));
                Some((at, s.counts[at].clone()))
            }
            Table::Dense(d) => {
                let mut w = at / 64;
                if w >= d.used.len() {
                    return None;
                }
                let mut bits = d.used[w] & (u64::MAX << (at % 64));
                while bits == 0 {
                    w += 1;
                    if w == d.used.len() {
                        return None;
                    }
                    bits = d.used[w];
                }
                let k = w * 64 + bits.trailing_zeros() as usize;
                key.fill(0);
                key[0] = d.key(k);
                let low = d.cells[k];
                let count = match d.high.get(&(k as u32)) {
                    None => Number::Small(low),
                    Some(h) => {
                        let mut limbs = vec![low as u64, (low >> 64) as u64];
                        match h {
                            Number::Small(x) => limbs.extend([*x as u64, (*x >> 64) as u64]),
                            Number::Big(v) => limbs.extend_from_slice(v),
                        }
                        Number::Big(limbs)
                    }
                };
                Some((k, count))
            }
        }
    }

    /// Adds `count` to the state `key`; the cost in mems.
    pub(super) fn add(&mut self, key: &[u64], count: &Number) -> u64 {
        match self {
            Table::Sparse(s) => s.add(key, count),
            Table::Dense(d) if matches!(count, Number::Small(_)) => {
                let Number::Small(c) = count else {
                    unreachable!()
                };
                d.add_low(d.place(key[0]), *c);
                1
            }
            Table::Dense(d) => {
                let k = d.place(key[0]);
                let bit = 1u64 << (k % 64);
                if d.used[k / 64] & bit == 0 {
                    d.used[k / 64] |= bit;
                    d.len += 1;
                }
                let (low, high) = split128(count);
                let (sum, carry) = d.cells[k].overflowing_add(low);
                d.cells[k] = sum;
                if carry || high.is_some() {
                    let h = d.high.entry(k as u32).or_insert(Number::ZERO);
                    if carry {
                        h.add(&Number::Small(1));
                    }
                    if let Some(x) = high {
                        h.add(&x);
                    }
                }
                1
            }
        }
    }

    /// Puts in the states that wait in a sparse table (see [`States::add`]);
    /// their mems. Every reader of the table comes after it.
    pub(super) fn settle(&mut self) -> u64 {
        match self {
            Table::Sparse(s) => s.settle(),
            Table::Dense(_) => 0,
        }
    }

    /// Turns an empty dense table (see [`Dense`]) so that the field at
    /// `slot` is its lowest bit.
    pub(super) fn turn(&mut self, slot: u64) {
        if let Table::Dense(d) = self {
            debug_assert!(d.len == 0, "only an empty table is turned");
            d.rot = (slot % d.bits.max(1) as u64) as u32;
        }
    }

    /// Empties the table, keeping its room.
    pub(super) fn clear(&mut self) {
        match self {
            Table::Sparse(s) => *s = States::new(s.kw),
            Table::Dense(d) => {
                for (w, bits) in d.used.iter_mut().enumerate() {
                    let mut b = *bits;
                    while b != 0 {
                        d.cells[w * 64 + b.trailing_zeros() as usize] = 0;
                        b &= b - 1;
                    }
                    *bits = 0;
                }
                d.len = 0;
                d.high.clear();
            }
        }
    }

    pub(super) fn bytes(&self) -> usize {
        match self {
            Table::Sparse(s) => s.bytes(),
            Table::Dense(d) => d.cells.capacity() * 16 + d.used.capacity() * 8 + d.high.len() * 64,
        }
    }

    pub(super) fn total(&self, kw: usize) -> Number {
        let mut total = Number::ZERO;
        let mut key = vec![0u64; kw];
        let mut at = 0;
        while let Some((k, c)) = self.entry(at, &mut key) {
            total.add(&c);
            at = k + 1;
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::Rng;

    #[test]
    fn states_that_wait_for_their_lines_add_up_as_at_once() {
        // Enough states that the table passes a core's cache (and states
        // wait, in a ring, before they go in), each key added several
        // times: after `settle` every state holds the sum of its counts, the
        // states numbered in the order they first came, and the mems are
        // those of putting each in at once.
        let mut rng = Rng::new(5);
        let n = 3 * NEAR_SLOTS as u64;
        let adds: Vec<([u64; 2], u64)> = (0..4 * n)
            .map(|_| ([rng.below(n), rng.below(3)], 1 + rng.below(1000)))
            .collect();
        let mut waited = States::new(2);
        let mut mems = 0;
        for (k, c) in &adds {
            mems += waited.add(k, &Number::Small(u128::from(*c)));
        }
        mems += waited.settle();
        assert!(waited.slots.len() > NEAR_SLOTS);
        let mut direct = States::new(2);
        let mut direct_mems = 0;
        for (k, c) in &adds {
            direct_mems += direct.put(hash(k), k, &Number::Small(u128::from(*c)));
        }
        assert_eq!(mems, direct_mems);
        assert_eq!(waited.keys, direct.keys);
        assert_eq!(waited.counts, direct.counts);
        let mut sums = std::collections::HashMap::new();
        for (k, c) in &adds {
            *sums.entry(*k).or_insert(0u128) += u128::from(*c);
        }
        assert_eq!(waited.len(), sums.len());
        for s in 0..waited.len() {
            let k = [waited.key(s)[0], waited.key(s)[1]];
            assert_eq!(waited.counts[s], Number::Small(sums[&k]));
        }
    }
}
