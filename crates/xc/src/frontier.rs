//! Counting at the frontier: the transfer-matrix method, on any exact cover
//! problem (XC, colors, multiplicities), keeping only the live sub-problems.
//!
//! Decide the options in the order of their first primary item: at item `p`,
//! the options whose first primary item is `p` are the ones not yet decided,
//! and a set of them is taken that brings `p`'s count within its bounds
//! (for exact cover: one option when `p` is still uncovered, none when an
//! earlier option covered it). After that, `p` is settled for good, and
//! what is left to do depends only on the *frontier*: how far each later
//! item is covered (a count for a primary item, unused / a color / used for
//! a secondary one). So the states of one step are the distinct frontiers,
//! each with the number of ways to reach it; two ways that reach the same
//! frontier are merged, and a step needs the states of the step before only:
//! memory grows with the widest frontier, never with all the sub-problems
//! met. On a board numbered row by row that is a band of about two rows,
//! the broken-profile method of tiling counts.
//!
//! A state is a key of `kw` words, one field of bits per item (a primary
//! item's count, a secondary item's value); fields of items already settled,
//! and of secondary items no undecided option has, are zero, so frontiers
//! that differ only there are the same state. Counts are exact at any size
//! ([`Number`]).
//!
//! The count runs in slices ([`Frontier::run`]): a caller can stop between
//! them, and read how far it got ([`Frontier::progress`]).
//!
//! ```
//! use xc::{CompiledProblem, Frontier};
//! // Cover {0, 1, 2} exactly with {0, 1}, {2}, {0}, {1, 2}: two ways.
//! let p = CompiledProblem::new(3, 0, vec![1; 3], vec![1; 3],
//!     vec![0, 2, 3, 4, 6], vec![0, 1, 2, 0, 1, 2], vec![]).unwrap();
//! let mut f = Frontier::new(&p).unwrap();
//! assert_eq!(f.count().to_u128(), Some(2));
//! ```

use crate::memo::{hash, Number};
use crate::problem::CompiledProblem;

/// Bits of a primary item's field at most (counts up to 65,535).
const MAX_FIELD: u32 = 16;

/// Why a problem cannot be counted at the frontier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FrontierError {
    /// An item's count or colors need a field wider than `MAX_FIELD` bits.
    FieldTooWide(usize),
}

impl std::fmt::Display for FrontierError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FrontierError::FieldTooWide(i) => write!(
                f,
                "item {i} has bounds or colors too many for a frontier count (at most 2^{MAX_FIELD} - 1)"
            ),
        }
    }
}

/// One item's field in a key whose bit 0 is the first bit of the item being
/// settled: `rel` bits up, `width` wide (a field may straddle two words).
#[inline(always)]
fn get(key: &[u64], rel: u64, width: u32) -> u64 {
    let (w, s) = ((rel >> 6) as usize, (rel & 63) as u32);
    let mut v = key[w] >> s;
    if s + width > 64 {
        v |= key[w + 1] << (64 - s);
    }
    v & ((1u64 << width) - 1)
}

#[inline(always)]
fn set(key: &mut [u64], rel: u64, width: u32, v: u64) {
    let (w, s) = ((rel >> 6) as usize, (rel & 63) as u32);
    let mask = (1u64 << width) - 1;
    key[w] = (key[w] & !(mask << s)) | (v << s);
    if s + width > 64 {
        let r = 64 - s;
        key[w + 1] = (key[w + 1] & !(mask >> r)) | (v >> r);
    }
}

/// `key >>= by` bits (`by` < 64), across its words.
#[inline(always)]
fn shift_down(key: &mut [u64], by: u32) {
    if by == 0 {
        return;
    }
    for k in 0..key.len() {
        let high = key.get(k + 1).map_or(0, |&x| x << (64 - by));
        key[k] = (key[k] >> by) | high;
    }
}

/// What an entry of an option does to its item's field: a primary item's
/// count goes up by one; a secondary item takes a color (1..) or is used
/// alone (`value == EXCLUSIVE`).
#[derive(Clone, Copy, Debug)]
struct Entry {
    item: u32,
    value: u64,
}

/// The states of one step: keys in one buffer, counts beside them, an
/// open-addressing index (linear probing) over them.
#[derive(Debug)]
struct States {
    kw: usize,
    keys: Vec<u64>,
    counts: Vec<Number>,
    slots: Vec<u32>,
}

const EMPTY: u32 = u32::MAX;

impl States {
    fn new(kw: usize) -> States {
        States {
            kw,
            keys: Vec::new(),
            counts: Vec::new(),
            slots: vec![EMPTY; 16],
        }
    }

    fn len(&self) -> usize {
        self.counts.len()
    }

    fn key(&self, s: usize) -> &[u64] {
        &self.keys[s * self.kw..(s + 1) * self.kw]
    }

    /// Adds `count` to the state `key` (made if new).
    fn add(&mut self, key: &[u64], count: &Number) {
        if 2 * (self.len() + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut at = hash(key) as usize & mask;
        loop {
            let s = self.slots[at];
            if s == EMPTY {
                self.slots[at] = self.len() as u32;
                self.keys.extend_from_slice(key);
                self.counts.push(count.clone());
                return;
            }
            if self.key(s as usize) == key {
                self.counts[s as usize].add(count);
                return;
            }
            at = (at + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let n = self.slots.len() * 2;
        self.slots = vec![EMPTY; n];
        let mask = n - 1;
        for s in 0..self.len() {
            let mut at = hash(self.key(s)) as usize & mask;
            while self.slots[at] != EMPTY {
                at = (at + 1) & mask;
            }
            self.slots[at] = s as u32;
        }
    }

    /// The bytes held.
    fn bytes(&self) -> usize {
        self.keys.capacity() * 8
            + self.counts.capacity() * std::mem::size_of::<Number>()
            + self.slots.capacity() * 4
    }
}

/// The states of one step when every key fits in `bits` bits: a count for
/// each possible key, indexed by it (no hashing), a bitmap of the keys in
/// use, walked in increasing order (the next step's keys then come in
/// nearly increasing order too, so the counts are touched nearly in
/// sequence). A count is 128 bits in `cells`, and for the rare key whose
/// count passes that, its multiples of 2^128 in `high`, so counts stay exact
/// at any size.
#[derive(Debug)]
struct Dense {
    cells: Vec<u128>,
    used: Vec<u64>,
    len: usize,
    high: std::collections::HashMap<u32, Number>,
}

/// Keys of at most this many bits go to a [`Dense`] table (two tables of
/// 2^22 counts: 128 MiB).
const DENSE_BITS: u64 = 22;

/// `n` as its low 128 bits and the rest (multiples of 2^128), if any.
fn split128(n: &Number) -> (u128, Option<Number>) {
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
    /// Adds `count` (below 2^128) to key `k`.
    #[inline(always)]
    fn add_low(&mut self, k: usize, count: u128) {
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
enum Table {
    Sparse(States),
    Dense(Dense),
}

impl Table {
    fn new(kw: usize, dense_bits: Option<u64>) -> Table {
        match dense_bits {
            Some(b) => Table::Dense(Dense {
                cells: vec![0; 1 << b],
                used: vec![0; (1usize << b).div_ceil(64)],
                len: 0,
                high: std::collections::HashMap::new(),
            }),
            None => Table::Sparse(States::new(kw)),
        }
    }

    fn len(&self) -> usize {
        match self {
            Table::Sparse(s) => s.len(),
            Table::Dense(d) => d.len,
        }
    }

    /// The first state at or after place `at` (an index, or for a dense
    /// table a key): its place, its key into `key`, its count.
    fn entry(&self, at: usize, key: &mut [u64]) -> Option<(usize, Number)> {
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
                key[0] = k as u64;
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

    fn add(&mut self, key: &[u64], count: &Number) {
        match self {
            Table::Sparse(s) => s.add(key, count),
            Table::Dense(d) if matches!(count, Number::Small(_)) => {
                let Number::Small(c) = count else {
                    unreachable!()
                };
                d.add_low(key[0] as usize, *c);
            }
            Table::Dense(d) => {
                let k = key[0] as usize;
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
            }
        }
    }

    /// Is the count of dense key `k` past 128 bits?
    fn is_high(&self, k: usize) -> bool {
        matches!(self, Table::Dense(d) if d.high.contains_key(&(k as u32)))
    }

    /// Empties the table, keeping its room.
    fn clear(&mut self) {
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

    fn bytes(&self) -> usize {
        match self {
            Table::Sparse(s) => s.bytes(),
            Table::Dense(d) => d.cells.capacity() * 16 + d.used.capacity() * 8 + d.high.len() * 64,
        }
    }

    fn total(&self, kw: usize) -> Number {
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

/// How far a frontier count has got.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrontierProgress {
    /// Items settled (of `items`).
    pub item: u64,
    pub items: u64,
    /// States of the step under way (done and made).
    pub states: u64,
    /// The most states held at once so far.
    pub peak_states: u64,
    /// The bytes held now.
    pub bytes: u64,
    /// Transitions tried (a state and a set of options).
    pub work: u64,
}

/// A frontier count in progress (see the module's text).
#[derive(Debug)]
pub struct Frontier {
    n_primary: usize,
    kw: usize,
    span: u64,
    /// Each item's field: where it starts (bits, all fields end to end in
    /// item order) and how wide it is. A key holds the fields from the
    /// item being settled on, so it is as wide as the widest window an
    /// option spans from its first primary item, not as all the items.
    off: Vec<u64>,
    width: Vec<u32>,
    lo: Vec<u64>,
    hi: Vec<u64>,
    /// Value of a secondary item used without a color.
    exclusive: Vec<u64>,
    /// The options decided at primary item `p`: `group[group_start[p]..group_start[p + 1]]`,
    /// each a run of `entries`.
    group_start: Vec<u32>,
    group: Vec<(u32, u32)>,
    entries: Vec<Entry>,
    /// Secondary items whose last option is decided at `p`: cleared after it.
    retire_start: Vec<u32>,
    retire: Vec<u32>,
    /// Exact cover without colors or multiplicities, on a dense table: an
    /// option is a mask of the window (bit 0 its first primary item), and a
    /// step is a few word operations per state ([`Frontier::binary_step`]).
    /// `masks` is per option of `group`, `retire_masks` per item.
    binary: bool,
    /// The binary part of this step is done (the general part is under way).
    binary_done: bool,
    masks: Vec<u64>,
    retire_masks: Vec<u64>,
    /// The step: item `p`, the states before it (`cur`), the next ones, and
    /// the next state of `cur` to move.
    p: usize,
    cur: Table,
    next: Table,

    at: usize,
    /// Room for a key being made, and for a key settled.
    scratch: Vec<u64>,
    settled: Vec<u64>,
    result: Option<Number>,
    progress: FrontierProgress,
}

impl Frontier {
    /// A frontier count of `problem`.
    pub fn new(problem: &CompiledProblem) -> Result<Frontier, FrontierError> {
        let n = problem.n_items();
        let n1 = problem.n_primary();
        let (plo, phi) = (problem.lo(), problem.hi());
        // Each secondary item's colors, numbered from 1 on that item.
        let mut local: Vec<Vec<u32>> = vec![Vec::new(); n - n1];
        let mut plain = vec![false; n - n1];
        for o in 0..problem.n_options() {
            let colors = problem.option_colors(o);
            for (k, &i) in problem.option(o).iter().enumerate() {
                let i = i as usize;
                if i >= n1 {
                    let c = colors.get(k).copied().unwrap_or(0);
                    if c == 0 {
                        plain[i - n1] = true;
                    } else {
                        local[i - n1].push(c);
                    }
                }
            }
        }
        for colors in &mut local {
            colors.sort_unstable();
            colors.dedup();
        }
        let mut off = Vec::with_capacity(n + 1);
        let mut width = Vec::with_capacity(n);
        let mut exclusive = vec![0u64; n];
        let mut at = 0u64;
        for i in 0..n {
            let top: u64 = if i < n1 {
                phi[i] as u64
            } else {
                let k = local[i - n1].len() as u64;
                exclusive[i] = k + 1;
                if plain[i - n1] || k == 0 {
                    k + 1
                } else {
                    k
                }
            };
            let w = (64 - top.leading_zeros()).max(1);
            if w > MAX_FIELD {
                return Err(FrontierError::FieldTooWide(i));
            }
            off.push(at);
            width.push(w);
            at += w as u64;
        }
        off.push(at);
        // Options by their first primary item; every option has one.
        let first = |o: usize| {
            *problem
                .option(o)
                .iter()
                .filter(|&&i| (i as usize) < n1)
                .min()
                .unwrap()
        };
        let mut count = vec![0u32; n1 + 1];
        for o in 0..problem.n_options() {
            count[first(o) as usize + 1] += 1;
        }
        for p in 0..n1 {
            count[p + 1] += count[p];
        }
        let group_start = count.clone();
        let mut fill = count;
        let mut group = vec![(0, 0); problem.n_options()];
        let mut entries = Vec::with_capacity(problem.n_entries());
        let mut last = vec![0usize; n - n1];
        // The widest window of fields an option spans from its first
        // primary item: every state fits in it.
        let mut span = 1u64;
        for o in 0..problem.n_options() {
            let p = first(o) as usize;
            let start = entries.len() as u32;
            let colors = problem.option_colors(o);
            for (k, &i) in problem.option(o).iter().enumerate() {
                let value = if (i as usize) < n1 {
                    1
                } else {
                    let s = i as usize - n1;
                    last[s] = last[s].max(p);
                    match colors.get(k).copied().unwrap_or(0) {
                        0 => exclusive[i as usize],
                        c => local[s].binary_search(&c).map_or(0, |k| k as u64 + 1),
                    }
                };
                entries.push(Entry { item: i, value });
                span = span.max(off[i as usize + 1] - off[p]);
            }
            group[fill[p] as usize] = (start, entries.len() as u32);
            fill[p] += 1;
        }
        let mut retire_start = vec![0u32; n1 + 1];
        for &p in &last {
            retire_start[p + 1] += 1;
        }
        for p in 0..n1 {
            retire_start[p + 1] += retire_start[p];
        }
        let mut fill = retire_start.clone();
        let mut retire = vec![0u32; n - n1];
        for (s, &p) in last.iter().enumerate() {
            retire[fill[p] as usize] = (n1 + s) as u32;
            fill[p] += 1;
        }
        // A word more, for a field that straddles the last one.
        let kw = span.div_ceil(64) as usize + 1;
        let dense_bits = (span <= DENSE_BITS).then_some(span);
        let binary = dense_bits.is_some()
            && width.iter().all(|&w| w == 1)
            && plo.iter().all(|&l| l == 1)
            && local.iter().all(|c| c.is_empty());
        let (mut masks, mut retire_masks) = (Vec::new(), Vec::new());
        if binary {
            for p in 0..n1 {
                for &(a, b) in &group[group_start[p] as usize..group_start[p + 1] as usize] {
                    let m = entries[a as usize..b as usize]
                        .iter()
                        .fold(0u64, |m, e| m | 1 << (off[e.item as usize] - off[p]));
                    masks.push(m);
                }
                let r = retire[retire_start[p] as usize..retire_start[p + 1] as usize]
                    .iter()
                    .map(|&i| off[i as usize] - off[p])
                    .filter(|&rel| rel < 64)
                    .fold(0u64, |m, rel| m | 1 << rel);
                retire_masks.push(r);
            }
        }
        let mut cur = Table::new(kw, dense_bits);
        cur.add(&vec![0u64; kw], &Number::Small(1));
        Ok(Frontier {
            n_primary: n1,
            kw,
            span,
            off,
            width,
            lo: plo.iter().map(|&x| x as u64).collect(),
            hi: phi.iter().map(|&x| x as u64).collect(),
            exclusive,
            group_start,
            group,
            entries,
            retire_start,
            retire,
            binary,
            binary_done: false,
            masks,
            retire_masks,
            p: 0,
            cur,
            next: Table::new(kw, dense_bits),
            at: 0,
            scratch: vec![0; kw],
            settled: vec![0; kw],
            result: None,
            progress: FrontierProgress {
                items: n1 as u64,
                ..FrontierProgress::default()
            },
        })
    }

    /// The bits of a state's key: the widest window of items an option
    /// spans from its first primary item. A step holds at most 2^this states.
    pub fn key_bits(&self) -> u64 {
        self.span
    }

    /// How far the count has got.
    pub fn progress(&self) -> FrontierProgress {
        FrontierProgress {
            item: self.p as u64,
            states: (self.cur.len() + self.next.len()) as u64,
            bytes: (self.cur.bytes() + self.next.bytes()) as u64,
            ..self.progress
        }
    }

    /// Works for about `work` more transitions; the count when done.
    pub fn run(&mut self, work: u64) -> Option<Number> {
        if let Some(r) = &self.result {
            return Some(r.clone());
        }
        let stop = self.progress.work.saturating_add(work);
        let mut key = vec![0u64; self.kw];
        while self.p < self.n_primary {
            if self.binary && !self.binary_done {
                if !self.binary_step(stop) {
                    return None;
                }
                self.binary_done = true;
            }
            while let Some((at, count)) = self.cur.entry(self.at, &mut key) {
                if self.progress.work >= stop {
                    return None;
                }
                // After a binary step, only the states past 128 bits are left.
                if !self.binary || self.cur.is_high(at) {
                    self.step(&mut key, &count);
                }
                self.at = at + 1;
            }
            self.binary_done = false;
            let held = (self.cur.len() + self.next.len()) as u64;
            self.progress.peak_states = self.progress.peak_states.max(held);
            self.cur.clear();
            std::mem::swap(&mut self.cur, &mut self.next);
            self.at = 0;
            self.p += 1;
        }
        let total = self.cur.total(self.kw);
        self.cur = Table::new(self.kw, None);
        self.next = Table::new(self.kw, None);
        self.result = Some(total.clone());
        Some(total)
    }

    /// A step of a binary problem (see `binary`) from state `self.at` on,
    /// straight on the dense tables; false when the work budget `stop` is
    /// spent first (`self.at` is where to go on). A state whose count has
    /// passed 128 bits is left to the general step, after this one.
    fn binary_step(&mut self, stop: u64) -> bool {
        let p = self.p;
        let group = self.group_start[p] as usize..self.group_start[p + 1] as usize;
        let clear = !(self.retire_masks[p] | 1);
        let Frontier {
            cur,
            next,
            masks,
            progress,
            at,
            ..
        } = self;
        let (Table::Dense(cur), Table::Dense(next)) = (&*cur, next) else {
            return true;
        };
        let masks = &masks[group];
        let mut w = *at / 64;
        let mut bits = match cur.used.get(w) {
            Some(&b) => b & (u64::MAX << (*at % 64)),
            None => 0,
        };
        loop {
            while bits == 0 {
                w += 1;
                if w >= cur.used.len() {
                    // Done; the general step sees only the states past 128 bits.
                    *at = if cur.high.is_empty() {
                        cur.cells.len()
                    } else {
                        0
                    };
                    return true;
                }
                bits = cur.used[w];
            }
            let k = w * 64 + bits.trailing_zeros() as usize;
            if progress.work >= stop {
                *at = k;
                return false;
            }
            bits &= bits - 1;
            if cur.high.contains_key(&(k as u32)) {
                continue;
            }
            let count = cur.cells[k];
            let k = k as u64;
            progress.work += 1;
            if k & 1 != 0 {
                next.add_low(((k & clear) >> 1) as usize, count);
            } else {
                progress.work += masks.len() as u64;
                for &m in masks {
                    if k & m == 0 {
                        next.add_low((((k | m) & clear) >> 1) as usize, count);
                    }
                }
            }
        }
    }

    /// Runs to the end: the count.
    pub fn count(&mut self) -> Number {
        loop {
            if let Some(r) = self.run(u64::MAX) {
                return r;
            }
        }
    }

    /// Moves one state across item `p`: every set of the options decided at
    /// `p` that fits the state and brings `p` within its bounds.
    fn step(&mut self, key: &mut [u64], count: &Number) {
        let p = self.p;
        let have = get(key, 0, self.width[p]);
        let need = self.lo[p].saturating_sub(have);
        let room = self.hi[p] - have;
        let (from, to) = (
            self.group_start[p] as usize,
            self.group_start[p + 1] as usize,
        );
        if room <= 1 {
            // Exact cover's case, without copies: no option (p is covered)
            // or exactly one.
            self.progress.work += 1;
            if need == 0 {
                self.settle(key, count);
            }
            if room == 1 {
                let mut scratch = std::mem::take(&mut self.scratch);
                for g in from..to {
                    self.progress.work += 1;
                    let (a, b) = self.group[g];
                    scratch.copy_from_slice(key);
                    if self.take(&mut scratch, a as usize, b as usize) {
                        self.settle(&scratch, count);
                    }
                }
                self.scratch = scratch;
            }
            return;
        }
        self.choose(key, count, from, to, need, room);
    }

    /// Takes options `from..to` of the group or not, `need` to `room` of
    /// them more (depth first, `key` as it was on return).
    fn choose(
        &mut self,
        key: &mut [u64],
        count: &Number,
        from: usize,
        to: usize,
        need: u64,
        room: u64,
    ) {
        self.progress.work += 1;
        if need == 0 {
            self.settle(key, count);
        }
        if room == 0 {
            return;
        }
        let saved: Vec<u64> = key.to_vec();
        for g in from..to {
            // Not enough options left to meet the need.
            if ((to - g) as u64) < need {
                return;
            }
            let (a, b) = self.group[g];
            if self.take(key, a as usize, b as usize) {
                self.choose(key, count, g + 1, to, need.saturating_sub(1), room - 1);
            }
            key.copy_from_slice(&saved);
        }
    }

    /// Puts the option of entries `a..b` into `key`, or false if it does not fit.
    fn take(&self, key: &mut [u64], a: usize, b: usize) -> bool {
        let base = self.off[self.p];
        for e in &self.entries[a..b] {
            let i = e.item as usize;
            let (rel, w) = (self.off[i] - base, self.width[i]);
            let v = get(key, rel, w);
            if i < self.n_primary {
                if v >= self.hi[i] {
                    return false;
                }
                set(key, rel, w, v + 1);
            } else if e.value == self.exclusive[i] {
                if v != 0 {
                    return false;
                }
                set(key, rel, w, e.value);
            } else {
                if v != 0 && v != e.value {
                    return false;
                }
                set(key, rel, w, e.value);
            }
        }
        true
    }

    /// `key` with item `p` settled: into the next step's states, its fields
    /// shifted down so that the next item's field starts at bit 0.
    fn settle(&mut self, key: &[u64], count: &Number) {
        let p = self.p;
        let base = self.off[p];
        let window = 64 * self.kw as u64;
        let k = &mut self.settled;
        k.copy_from_slice(key);
        set(k, 0, self.width[p], 0);
        for r in self.retire_start[p] as usize..self.retire_start[p + 1] as usize {
            let i = self.retire[r] as usize;
            let rel = self.off[i] - base;
            // A field past the window was never set.
            if rel + (self.width[i] as u64) <= window {
                set(k, rel, self.width[i], 0);
            }
        }
        shift_down(k, self.width[p]);
        self.next.add(k, count);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Search;
    use std::sync::Arc;

    fn both(p: CompiledProblem) {
        let by_search = Search::new(Arc::new(p.clone()), None).count_all();
        assert_eq!(
            Frontier::new(&p).unwrap().count().to_u128(),
            Some(by_search as u128)
        );
    }

    #[test]
    fn exact_cover() {
        both(
            CompiledProblem::new(
                3,
                0,
                vec![1; 3],
                vec![1; 3],
                vec![0, 2, 3, 4, 6],
                vec![0, 1, 2, 0, 1, 2],
                vec![],
            )
            .unwrap(),
        );
    }

    #[test]
    fn colors_and_multiplicities() {
        // Items 0 (1..2 times), 1; secondary 2 with colors.
        let p = CompiledProblem::new(
            2,
            1,
            vec![1, 1],
            vec![2, 1],
            vec![0, 2, 4, 5, 7],
            vec![0, 2, 1, 2, 0, 0, 1],
            vec![0, 1, 0, 1, 0, 0, 0],
        )
        .unwrap();
        both(p);
    }
}
