//! Counting with a memo of sub-problems (Nishino et al.'s DXZ idea).
//!
//! The search is Algorithm X of TAOCP 7.2.2.1, its steps labelled X2-X8
//! where they are implemented, with each level a copy of its parent rather
//! than a change undone, and DXZ's two steps beside them: a sub-problem is
//! looked up before it is searched, and stored when its level is left.
//!
//! After some options are chosen, what is left to solve depends only on the
//! set of options still available: the uncovered primary items are exactly
//! the primary items of those options (an uncovered item with none is a dead
//! end, cut before it is ever looked up), and with colors the options left
//! already say which colors each secondary item still accepts. So the set of
//! live options, as the bitset the bitset engine keeps at each level anyway,
//! is an exact key: two nodes with the same key have the same number of
//! solutions below them, and the second one is not searched. The table
//! compares whole keys, never a hash alone, so a collision costs time and
//! never a wrong count.
//!
//! Without colors a shorter key says the same: the items not yet touched by a
//! chosen option (primary items uncovered, secondary items unused). An option
//! is live exactly when all its items are untouched, so the two keys name
//! the same sub-problem; the item key takes a bit per item instead of one
//! per option (2 words instead of 33 for the pentominoes). With colors the
//! item key has a bit for each pair of a secondary item and a color that
//! some live option has ([`ItemKey`]), and where that makes more words than
//! the options, the live options are the key.
//!
//! The table has a memory budget. It grows to the budget, then works as a
//! cache: a new entry replaces the one in its probe window whose sub-tree took
//! the fewest nodes to count. An evicted sub-problem is counted again if it
//! comes back, so the count stays exact.
//!
//! Counts are exact at any size: 128-bit words, and limbs of 64 bits past
//! that ([`Number`]).
//!
//! The same search builds a diagram of all the solutions instead of their
//! number ([`MemoZdd`]): a sub-problem's value is then a node, and the
//! memo makes the diagram share the sub-problems exactly as the count
//! shares their counts (Nishino et al.'s ZDD; see [`ZddNode`]).
//!
//! A sub-problem whose items fall into parts that no live option joins (the
//! observation behind Nishino et al.'s DXD and the "blocks" of DynDXD) is
//! counted part by part, each part a sub-problem of its own in the same
//! memo, and its count is the product. Under the MRV rule, which goes from
//! part to part as the counts of their items say, the parts are looked for
//! at the root and then only while the looking has cost at most a
//! `1 / CHECK_SHARE` of the search's own work, so a problem that never
//! splits pays little; the count is the same either way.
//!
//! The search is Algorithm X on the bitset tables, with an explicit stack
//! and in slices ([`Memo::run`]), so a caller can stop between slices.
//! Multiplicities are not supported: Algorithm M removes options for a while
//! as it branches, so the live options alone do not say what is left to do.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::core::bits::{Bits, COVERED, Count, apply_each};
use crate::core::number::{Number, hash};
use crate::core::problem::CompiledProblem;
use crate::core::sliced::{Poll, Slice, Sliced};

mod key;
mod table;
mod tally;
#[cfg(test)]
mod tests;

use key::ItemKey;
pub(crate) use table::Shards;
use table::{Store, Table};
pub use tally::{Tally, ZddNode};

/// Memo counting needs the conflict table of the bitset engine, whose size
/// grows as the square of the number of options: 16,000 options take 31 MiB.
pub const MEMO_MAX_OPTIONS: usize = 16_000;

/// The memo's table when its caller names no size: 1 GiB.
pub const MEMO_DEFAULT_BYTES: u64 = 1 << 30;

/// The bytes a memo may hold: `asked` (the caller's `memo_bytes`), else
/// [`MEMO_DEFAULT_BYTES`], never past the run's memory limit `limit`, and
/// without a size asked never past half of it (what the count's other
/// tables and the problem need). Past it the memo evicts: the count stays
/// exact, only slower.
///
/// ```
/// use xc::memo_budget;
/// assert_eq!(memo_budget(None, 1 << 40), 1 << 30);
/// assert_eq!(memo_budget(None, 1 << 20), 1 << 19);
/// assert_eq!(memo_budget(Some(5), 1 << 20), 5);
/// assert_eq!(memo_budget(Some(1 << 30), 1 << 20), 1 << 20);
/// ```
pub fn memo_budget(asked: Option<u64>, limit: u64) -> u64 {
    match asked {
        None => MEMO_DEFAULT_BYTES.min(limit / 2),
        Some(n) => n.min(limit),
    }
}

/// Is this the count of a covered item? `apply` sets a covered item's count
/// to `COVERED` (32,767) and may then decrement it once per option of the
/// item, so it stays above 32,767 - 16,000, while a live count is at most
/// the number of options.
#[inline(always)]
fn covered(c: Count) -> bool {
    c as usize > MEMO_MAX_OPTIONS
}

/// The uncovered primary item with the fewest live options (the first on
/// ties: Knuth's MRV rule), or None when every item is covered.
///
/// The least count is found a block at a time, each block's least by a
/// loop the compiler turns into vector minima, and then its first place in
/// the block that held it: one scalar `min_by_key` over the counts took
/// two thirds of a memo node on Knuth's indicator problem (729 items:
/// 17.4 s against 5.4 s by the "first" rule, on the same 5.5M nodes).
#[inline]
pub(crate) fn fewest(counts: &[Count]) -> Option<usize> {
    const BLOCK: usize = 32;
    let (mut least, mut block) = (Count::MAX, 0);
    for (j, b) in counts.chunks(BLOCK).enumerate() {
        let m = b.iter().copied().fold(Count::MAX, Count::min);
        if m < least {
            (least, block) = (m, j);
        }
    }
    if covered(least) {
        // (No items at all leave `least` at `Count::MAX`, covered too.)
        return None;
    }
    let from = block * BLOCK;
    counts[from..]
        .iter()
        .position(|&c| c == least)
        .map(|k| from + k)
}

/// Clears in an item key `untouched` what taking option `k` clears
/// (`option_item[option_start[k]..option_start[k + 1]]`, [`ItemKey`]'s
/// `clear`).
#[inline]
pub(crate) fn touch(untouched: &mut [u64], option_start: &[u32], option_item: &[u32], k: usize) {
    let (from, to) = (option_start[k] as usize, option_start[k + 1] as usize);
    for &i in &option_item[from..to] {
        untouched[i as usize / 64] &= !(1 << (i % 64));
    }
}

/// How the item to branch on is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Branching {
    /// Knuth's rule: the item with the fewest live options (first on ties).
    Mrv,
    /// The first uncovered primary item in the problem's order, unless some
    /// item has a single option left (a forced move). On a board whose cells
    /// are listed row by row, the sub-problems are then the ragged frontiers
    /// of a transfer matrix, few and often met again.
    First,
}

/// What happened in a memo count so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoStats {
    /// Nodes entered (sub-problems counted by search, not found in the memo).
    pub nodes: u64,
    /// Sub-problems found in the memo.
    pub hits: u64,
    /// Nodes the sub-problems found in the memo took when they were
    /// counted: what the memo saved, at least (a count's own hits saved
    /// more). Against `nodes`, it says how much the memo shrinks the tree
    /// even where few lookups hit (Knuth's indicator problem: 1% of them,
    /// high in the tree, for a tree 60 times smaller).
    pub saved: u64,
    /// Entries in the memo now.
    pub entries: u64,
    /// Entries replaced because the memo was at its budget.
    pub evictions: u64,
    /// Bytes the memo holds now.
    pub bytes: u64,
}

/// The looking for parts may cost this share of the search's work at most
/// (in words of state copied and items visited).
const CHECK_SHARE: u64 = 16;

/// A level whose sub-problem falls into parts no live option joins: each
/// part is counted as a sub-problem of its own, one after another at the
/// level below, and the level's count is their product.
struct Parts<V> {
    /// `live[j * w..(j + 1) * w]`: the live options of part `j`.
    live: Vec<u64>,
    /// `untouched[j * kw..(j + 1) * kw]`: the bits of part `j`'s options (its
    /// item key; empty where the live options are the key).
    untouched: Vec<u64>,
    /// The part of each uncovered primary item.
    part_of: Vec<u32>,
    count: usize,
    next: usize,
    product: V,
}

/// What a level turned out to be when entered.
#[derive(PartialEq, Eq)]
enum Entered {
    /// Every primary item is covered: one solution.
    Solution,
    /// It branches on an item, its options in `todo`.
    Branch,
    /// It splits into parts (`parts`).
    Split,
}

/// A memo search in progress: Algorithm X with an explicit stack, each
/// level holding its live options (also its key), the counts of its items,
/// the options still to try and its value so far (a count, or a node).
pub struct Memo<V> {
    bits: Arc<Bits>,
    /// Words per key.
    kw: usize,
    /// `untouched[l * kw..(l + 1) * kw]`: the item key of level `l` (see
    /// [`ItemKey`]); empty where the live options are the shorter key.
    untouched: Vec<u64>,
    /// All the items of each option (for the parts).
    option_start: Vec<u32>,
    option_item: Vec<u32>,
    /// The item key's bits: each option's own, and those it clears.
    key: ItemKey,
    /// With colors and the item key, the pairs of an item and a color
    /// (`np`), and `pair_counts[l * np..(l + 1) * np]`: the live options of
    /// level `l` that have each (16 bits hold them: at most
    /// [`MEMO_MAX_OPTIONS`] options).
    np: usize,
    pair_counts: Vec<u16>,
    branching: Branching,
    table: Store<V>,
    /// The run's stop flag, if it gave one (`watch`): a table that would
    /// double once it is up does not.
    halt: Option<Arc<AtomicBool>>,
    /// Per level: `live`, the options of the branching item still to try, the counts.
    live: Vec<u64>,
    todo: Vec<u64>,
    counts: Vec<Count>,
    hash: Vec<u64>,
    sum: Vec<V>,
    /// `chosen[l]`: the option taken at level l - 1 that made level l.
    chosen: Vec<usize>,
    /// Nodes entered when the level was entered.
    started: Vec<u64>,
    /// The level being worked on; `None` before the start and after the end.
    level: Option<usize>,
    result: Option<V>,
    stats: MemoStats,
    /// The diagram built so far (always empty when counting).
    nodes: Vec<ZddNode>,
    /// Per level: its parts, when it splits.
    parts: Vec<Option<Parts<V>>>,
    /// Look for parts at all (`V::SPLITS` unless turned off).
    split: bool,
    /// Union-find over the items, for the parts: parent and the epoch it was
    /// set in; `slot` numbers the parts by their roots while they are found.
    parent: Vec<u32>,
    stamp: Vec<u32>,
    slot: Vec<u32>,
    epoch: u32,
    /// Work of the search and of the looking for parts, in words.
    spent: u64,
    checked: u64,
    /// Levels split into parts.
    splits: u64,
}

/// A memo count: the number of solutions.
pub type MemoCount = Memo<Number>;

/// The memo goes in slices of nodes; its outcome is the count (or the
/// diagram's root).
impl<V: Tally> Sliced for Memo<V> {
    type Outcome = V;

    fn run(&mut self, slice: Slice) -> Poll<V> {
        self.advance(slice.work).map_or(Poll::Pending, Poll::Ready)
    }
}

/// A memo search that builds the diagram of all the solutions: `run` and
/// `count` return its root, [`Memo::nodes`] its nodes (see [`ZddNode`]).
/// The diagram is kept whole (the memory budget bounds only the memo: a
/// sub-problem evicted and met again is built again, as new nodes).
pub type MemoZdd = Memo<u32>;

/// Why a problem cannot be counted with the memo.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemoError {
    Multiplicities,
    TooManyOptions(usize),
}

impl std::fmt::Display for MemoError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MemoError::Multiplicities => write!(
                f,
                "memo counting does not support multiplicities (items with bounds other than 1:1): \
                 Algorithm M removes options for a while as it branches, so the options left are \
                 not a sound key; count without the memo"
            ),
            MemoError::TooManyOptions(m) => write!(
                f,
                "memo counting supports at most {MEMO_MAX_OPTIONS} options, this problem has {m}; \
                 count without the memo"
            ),
        }
    }
}

impl<V: Tally> Memo<V> {
    /// A memo search of `problem`, whose memo holds at most about `budget` bytes.
    pub fn new(
        problem: &CompiledProblem,
        branching: Branching,
        budget: usize,
    ) -> Result<Memo<V>, MemoError> {
        if problem.has_multiplicities() {
            return Err(MemoError::Multiplicities);
        }
        if problem.n_options() > MEMO_MAX_OPTIONS {
            return Err(MemoError::TooManyOptions(problem.n_options()));
        }
        Ok(Memo::with_bits(
            problem,
            Arc::new(Bits::new(problem, None)),
            branching,
            budget,
        ))
    }

    /// A memo search of `problem` (which the memo can take) on its tables
    /// `bits`, built once for the workers of a pool.
    pub(crate) fn with_bits(
        problem: &CompiledProblem,
        bits: Arc<Bits>,
        branching: Branching,
        budget: usize,
    ) -> Memo<V> {
        let w = bits.w;
        let n = bits.n_primary;
        // Every level covers at least one primary item.
        let depth = n + 2;
        let mut live = vec![0u64; depth * w];
        for k in 0..bits.n_options {
            live[k / 64] |= 1 << (k % 64);
        }
        let mut counts = vec![0; depth * n];
        counts[..n].copy_from_slice(&bits.counts);
        // The item key, unless the live options are fewer words (with many
        // colors an item).
        let key = ItemKey::of(problem);
        let (kw, untouched) = if problem.has_colors() && key.n.div_ceil(64) >= w {
            (w, Vec::new())
        } else {
            let kw = key.n.div_ceil(64).max(1);
            let mut untouched = vec![0u64; depth * kw];
            for i in 0..key.n {
                untouched[i / 64] |= 1 << (i % 64);
            }
            (kw, untouched)
        };
        let np = if untouched.is_empty() { 0 } else { key.pairs() };
        let mut memo = Memo {
            table: Store::Own(Table::new(kw, budget)),
            halt: None,
            kw,
            untouched,
            option_start: problem.option_start().to_vec(),
            option_item: problem.option_item().to_vec(),
            key,
            np,
            pair_counts: vec![0; depth * np],
            bits,
            branching,
            live,
            todo: vec![0; depth * w],
            counts,
            hash: vec![0; depth],
            sum: vec![V::nothing(); depth],
            chosen: vec![0; depth],
            started: vec![0; depth],
            level: None,
            result: None,
            stats: MemoStats::default(),
            nodes: Vec::new(),
            parts: (0..depth).map(|_| None).collect(),
            split: V::SPLITS && branching == Branching::Mrv,
            parent: vec![0; problem.n_items()],
            stamp: vec![0; problem.n_items()],
            slot: vec![u32::MAX; problem.n_items()],
            epoch: 0,
            spent: 0,
            checked: 0,
            splits: 0,
        };
        memo.settle_pairs(0);
        memo
    }

    /// Watches the run's stop flag `halt` (None: none): once it is up, a
    /// table that would double does not, and one doubling stops, dropping
    /// the entries not yet put back (the stop is not held up for a second
    /// by a table of gigabytes).
    pub fn watch(&mut self, halt: Option<Arc<AtomicBool>>) {
        self.halt = halt;
    }

    /// Keeps the memo's entries in `shards` (shared with other memos of the
    /// same problem) instead of a table of its own.
    pub(crate) fn share(&mut self, shards: Arc<Shards<V>>) {
        self.table = Store::Shared(shards);
    }

    /// Words per key: the item key's, or the live options' where those are fewer.
    pub fn key_words(&self) -> usize {
        self.kw
    }

    /// The tables the search runs on.
    pub(crate) fn bits(&self) -> &Arc<Bits> {
        &self.bits
    }

    /// The state of the whole problem: its live options, the counts of its
    /// primary items, and its untouched items (empty when the live options
    /// are the key, with colors).
    pub(crate) fn root_state(&self) -> (Vec<u64>, Vec<Count>, Vec<u64>) {
        let (w, n, kw) = (self.bits.w, self.bits.n_primary, self.kw);
        let untouched = if self.untouched.is_empty() {
            Vec::new()
        } else {
            self.untouched[..kw].to_vec()
        };
        (
            self.live[..w].to_vec(),
            self.counts[..n].to_vec(),
            untouched,
        )
    }

    /// Starts over on the sub-problem of state `(live, counts, untouched)`
    /// (as [`Memo::root_state`] gives it), keeping what the memo holds: its
    /// entries are of sub-problems, whatever the search they came from.
    pub(crate) fn restart(&mut self, live: &[u64], counts: &[Count], untouched: &[u64]) {
        self.live[..live.len()].copy_from_slice(live);
        self.counts[..counts.len()].copy_from_slice(counts);
        self.untouched[..untouched.len()].copy_from_slice(untouched);
        self.settle_pairs(0);
        self.level = None;
        self.result = None;
    }

    /// What taking each option clears in the item key (for [`touch`]).
    pub(crate) fn options(&self) -> (&[u32], &[u32]) {
        self.key.cleared()
    }

    /// With the item key of pairs, level `l`'s pair counts and its key's
    /// pairs' bits, from its live options (at the root, a restart and a
    /// part: a level met by taking an option updates them instead).
    fn settle_pairs(&mut self, l: usize) {
        if self.np > 0 {
            let (w, np, kw) = (self.bits.w, self.np, self.kw);
            self.key.count_pairs(
                &self.live[l * w..(l + 1) * w],
                &mut self.pair_counts[l * np..(l + 1) * np],
                &mut self.untouched[l * kw..(l + 1) * kw],
            );
        }
    }

    /// The item key `untouched` of the live options `live` once [`touch`]ed:
    /// with colors, its pairs' bits set to those of the live options.
    pub(crate) fn settle_key(&self, live: &[u64], untouched: &mut [u64]) {
        if self.np > 0 {
            self.key.count_pairs(live, &mut vec![0; self.np], untouched);
        }
    }

    /// Whether to count parts no option joins apart (on by default where the
    /// value allows it and the rule is MRV; off, the count is the same, found
    /// without products). The "first" rule takes the items in an order that
    /// finishes a part before the next (the frontier's order), so parts gain
    /// it little, and the looking cost 1.26x on matchings of a cubic graph.
    pub fn set_split(&mut self, on: bool) {
        self.split = on && V::SPLITS && self.branching == Branching::Mrv;
    }

    /// Nodes entered so far (`stats().nodes`, without adding up the memo).
    pub fn nodes_entered(&self) -> u64 {
        self.stats.nodes
    }

    /// Levels that split into parts so far.
    pub fn splits(&self) -> u64 {
        self.splits
    }

    /// The nodes of the diagram built so far (empty when counting).
    pub fn nodes(&self) -> &[ZddNode] {
        &self.nodes
    }

    pub fn stats(&self) -> MemoStats {
        let (entries, evictions, bytes) = self.table.usage();
        MemoStats {
            entries,
            evictions,
            bytes,
            ..self.stats
        }
    }

    /// Step X3 of Algorithm X: the item to branch on at level `l`, or `None`
    /// when every primary item is covered (a solution, X2's visit).
    fn choose(&self, l: usize) -> Option<usize> {
        let n = self.bits.n_primary;
        let counts = &self.counts[l * n..(l + 1) * n];
        match self.branching {
            Branching::Mrv => fewest(counts),
            Branching::First => {
                let first = counts.iter().position(|&c| !covered(c))?;
                if counts[first] > 1
                    && let Some(j) = counts[first + 1..].iter().position(|&c| c == 1)
                {
                    return Some(first + 1 + j);
                }
                Some(first)
            }
        }
    }

    /// Step X2, entering level `l`, whose live options and counts are set: a
    /// solution, a branching item (X3; its options in `todo`), or, where
    /// `may_split` and the looking is paid for, parts no live option joins
    /// (DXD's split, counted part by part).
    fn enter(&mut self, l: usize, may_split: bool) -> Entered {
        let chosen = self.choose(l);
        self.enter_chosen(l, may_split, chosen)
    }

    /// [`Memo::enter`] with X3's item already chosen (`choice`, from
    /// [`Memo::choose`] on this level's counts).
    fn enter_chosen(&mut self, l: usize, may_split: bool, choice: Option<usize>) -> Entered {
        self.stats.nodes += 1;
        self.started[l] = self.stats.nodes;
        self.sum[l] = V::nothing();
        self.parts[l] = None;
        let w = self.bits.w;
        self.spent += (w + self.bits.n_primary + self.kw) as u64;
        let Some(i) = choice else {
            self.sum[l] = V::one();
            return Entered::Solution;
        };
        if may_split
            && self.split
            && (l == 0 || self.checked * CHECK_SHARE <= self.spent)
            && let Some(parts) = self.find_parts(l)
        {
            self.parts[l] = Some(parts);
            self.splits += 1;
            return Entered::Split;
        }
        let set = &self.bits.itemset[i * w..(i + 1) * w];
        let live = &self.live[l * w..(l + 1) * w];
        for ((t, &a), &b) in self.todo[l * w..].iter_mut().zip(live).zip(set) {
            *t = a & b;
        }
        Entered::Branch
    }

    /// The root of item `i`'s set (halving the path on the way).
    fn find(&mut self, mut i: u32) -> u32 {
        while self.parent[i as usize] != i {
            let p = self.parent[self.parent[i as usize] as usize];
            self.parent[i as usize] = p;
            i = p;
        }
        i
    }

    /// The parts of level `l`'s sub-problem, if it has two or more: the sets
    /// of items joined by its live options (union-find over the items of
    /// each), each with at least one uncovered primary item. Options whose
    /// part has no primary item are never taken, and are left out.
    fn find_parts(&mut self, l: usize) -> Option<Parts<V>> {
        let (w, n, kw) = (self.bits.w, self.bits.n_primary, self.kw);
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.fill(0);
            self.epoch = 1;
        }
        let epoch = self.epoch;
        let mut visited = n as u64;
        // The live options, once (both passes below walk them).
        let mut options = Vec::new();
        for (j, &word) in self.live[l * w..(l + 1) * w].iter().enumerate() {
            let mut word = word;
            while word != 0 {
                options.push(j * 64 + word.trailing_zeros() as usize);
                word &= word - 1;
            }
        }
        for &k in &options {
            let (a, b) = (
                self.option_start[k] as usize,
                self.option_start[k + 1] as usize,
            );
            visited += (b - a) as u64;
            let first = self.option_item[a];
            if self.stamp[first as usize] != epoch {
                self.stamp[first as usize] = epoch;
                self.parent[first as usize] = first;
            }
            let r = self.find(first);
            for t in a + 1..b {
                let i = self.option_item[t];
                if self.stamp[i as usize] != epoch {
                    self.stamp[i as usize] = epoch;
                    self.parent[i as usize] = r;
                } else {
                    let s = self.find(i);
                    if s != r {
                        self.parent[s as usize] = r;
                    }
                }
            }
        }
        // Number the parts by the uncovered primary items (an uncovered item
        // has a live option, so it was met above).
        let mut part_of = vec![u32::MAX; n];
        let mut roots: Vec<u32> = Vec::new();
        for (i, part) in part_of.iter_mut().enumerate() {
            if covered(self.counts[l * n + i]) {
                continue;
            }
            let r = self.find(i as u32);
            let p = match self.slot[r as usize] {
                u32::MAX => {
                    self.slot[r as usize] = roots.len() as u32;
                    roots.push(r);
                    roots.len() as u32 - 1
                }
                p => p,
            };
            *part = p;
        }
        let count = roots.len();
        if count < 2 {
            for &r in &roots {
                self.slot[r as usize] = u32::MAX;
            }
            self.checked += visited;
            return None;
        }
        let mut live = vec![0u64; count * w];
        let mut untouched = vec![
            0u64;
            if self.untouched.is_empty() {
                0
            } else {
                count * kw
            }
        ];
        for &k in &options {
            let r = self.find(self.option_item[self.option_start[k] as usize]);
            let p = self.slot[r as usize];
            if p == u32::MAX {
                continue;
            }
            let p = p as usize;
            live[p * w + k / 64] |= 1 << (k % 64);
            if !untouched.is_empty() {
                let (a, b) = (
                    self.key.own_start[k] as usize,
                    self.key.own_start[k + 1] as usize,
                );
                visited += (b - a) as u64;
                for &i in &self.key.own[a..b] {
                    untouched[p * kw + i as usize / 64] |= 1 << (i % 64);
                }
            }
        }
        for &r in &roots {
            self.slot[r as usize] = u32::MAX;
        }
        self.checked += visited;
        Some(Parts {
            live,
            untouched,
            part_of,
            count,
            next: 0,
            product: V::one(),
        })
    }

    /// Makes level `l + 1` part `j` of level `l`: its live options, its
    /// items (the others covered as far as the branching rule sees), its key.
    fn enter_part(&mut self, l: usize, j: usize) {
        let (w, n, kw) = (self.bits.w, self.bits.n_primary, self.kw);
        let parts = self.parts[l].as_ref().expect("a level in parts");
        self.live[(l + 1) * w..(l + 2) * w].copy_from_slice(&parts.live[j * w..(j + 1) * w]);
        let (above, below) = self.counts.split_at_mut((l + 1) * n);
        for (i, c) in below[..n].iter_mut().enumerate() {
            *c = if parts.part_of[i] == j as u32 {
                above[l * n + i]
            } else {
                COVERED
            };
        }
        if !self.untouched.is_empty() {
            self.untouched[(l + 1) * kw..(l + 2) * kw]
                .copy_from_slice(&parts.untouched[j * kw..(j + 1) * kw]);
        }
        self.settle_pairs(l + 1);
        self.chosen[l + 1] = usize::MAX;
    }

    /// Step X8, leaving level `l` once counted (`value`): it goes into the
    /// memo (but the root; DXZ's store) and into its parent's value, a sum of
    /// branches or a product of parts.
    /// Returns the parent's level, or None when the root is done (`result`).
    fn close(&mut self, l: usize, value: V) -> Option<usize> {
        if l == 0 {
            self.level = None;
            self.result = Some(value);
            return None;
        }
        let work = (self.stats.nodes - self.started[l] + 1).min(u32::MAX as u64) as u32;
        let kw = self.kw;
        let keys = if self.untouched.is_empty() {
            &self.live
        } else {
            &self.untouched
        };
        self.table.put(
            self.hash[l],
            &keys[l * kw..(l + 1) * kw],
            value.clone(),
            work,
            self.halt.as_deref(),
        );
        let up = l - 1;
        match self.parts[up].as_mut() {
            Some(parts) => parts.product.times(&value),
            None => self.sum[up].join(self.chosen[l], &value, &mut self.nodes),
        }
        Some(up)
    }

    /// The key of level `l`.
    fn key(&self, l: usize) -> &[u64] {
        if self.untouched.is_empty() {
            &self.live[l * self.kw..(l + 1) * self.kw]
        } else {
            &self.untouched[l * self.kw..(l + 1) * self.kw]
        }
    }

    /// Steps X5 and X6: the next option to try at level `l`, taken out of its
    /// to-do set (None: X7, every option tried).
    fn next(&mut self, l: usize) -> Option<usize> {
        let w = self.bits.w;
        for j in 0..w {
            let word = &mut self.todo[l * w + j];
            if *word != 0 {
                let b = word.trailing_zeros() as usize;
                *word &= *word - 1;
                return Some(j * 64 + b);
            }
        }
        None
    }

    /// Searches for at most about `nodes` more nodes; the value (count or
    /// root) when done (the body of [`Sliced::run`]).
    pub(crate) fn advance(&mut self, nodes: u64) -> Option<V> {
        if let Some(r) = &self.result {
            return Some(r.clone());
        }
        let (w, n) = (self.bits.w, self.bits.n_primary);
        let stop = self.stats.nodes.saturating_add(nodes);
        let mut l = match self.level {
            Some(l) => l,
            None => {
                if self.counts[..n].contains(&0) {
                    self.result = Some(V::nothing());
                    return self.result.clone();
                }
                if self.enter(0, true) == Entered::Solution {
                    self.result = Some(V::one());
                    return self.result.clone();
                }
                0
            }
        };
        let bits = Arc::clone(&self.bits);
        let mut updates = 0;
        let mut hint = 0;
        loop {
            if self.stats.nodes >= stop {
                self.level = Some(l);
                return None;
            }
            if let Some(parts) = self.parts[l].as_mut() {
                // A level in parts: count its next part below it, or close it
                // (at once when a part has no solution).
                if parts.next == parts.count || parts.product.is_nothing() {
                    let value = std::mem::replace(&mut parts.product, V::nothing());
                    self.parts[l] = None;
                    match self.close(l, value) {
                        Some(up) => l = up,
                        None => return self.result.clone(),
                    }
                    continue;
                }
                let j = parts.next;
                parts.next += 1;
                self.enter_part(l, j);
                let h = hash(self.key(l + 1));
                if let Some((c, work)) = self.table.get(h, self.key(l + 1)) {
                    self.stats.hits += 1;
                    self.stats.saved += u64::from(work);
                    if let Some(parts) = self.parts[l].as_mut() {
                        parts.product.times(&c);
                    }
                    continue;
                }
                self.hash[l + 1] = h;
                // A part is joined by its options: it does not split again at once.
                self.enter(l + 1, false);
                l += 1;
                continue;
            }
            let Some(k) = self.next(l) else {
                // Level l is counted: remember it, and add it to its parent.
                let sum = std::mem::replace(&mut self.sum[l], V::nothing());
                match self.close(l, sum) {
                    Some(up) => l = up,
                    None => return self.result.clone(),
                }
                continue;
            };
            // X4-X5, a level copied rather than undone: the child is this
            // level with option k taken (its items covered, clashes hidden).
            let (a, b) = self.live.split_at_mut((l + 1) * w);
            b[..w].copy_from_slice(&a[l * w..]);
            let (a, b) = self.counts.split_at_mut((l + 1) * n);
            b[..n].copy_from_slice(&a[l * n..]);
            let child_live = &mut self.live[(l + 1) * w..(l + 2) * w];
            let child_counts = &mut self.counts[(l + 1) * n..(l + 2) * n];
            if !apply_each::<true>(&bits, child_live, child_counts, k, &mut updates, &mut hint) {
                continue; // an uncovered item lost its last option
            }
            if !self.untouched.is_empty() {
                let kw = self.kw;
                let (a, b) = self.untouched.split_at_mut((l + 1) * kw);
                let child = &mut b[..kw];
                child.copy_from_slice(&a[l * kw..]);
                let (starts, cleared) = self.key.cleared();
                touch(child, starts, cleared, k);
                if self.np > 0 {
                    let np = self.np;
                    let (a, b) = self.pair_counts.split_at_mut((l + 1) * np);
                    let counts = &mut b[..np];
                    counts.copy_from_slice(&a[l * np..]);
                    self.key.drop_pairs(
                        &self.live[l * w..(l + 1) * w],
                        &self.live[(l + 1) * w..(l + 2) * w],
                        counts,
                        child,
                    );
                }
            }
            // DXZ's lookup: a sub-problem met before is not searched again.
            // Nearly every lookup misses, and most wait on a line of a table
            // of many megabytes: the line is asked for first, and the child's
            // X3 (a scan of its counts) done while it comes; on a hit (about
            // one lookup in a hundred) that scan is thrown away.
            let h = hash(self.key(l + 1));
            self.table.prefetch(h);
            let choice = self.choose(l + 1);
            if let Some((c, work)) = self.table.get(h, self.key(l + 1)) {
                self.stats.hits += 1;
                self.stats.saved += u64::from(work);
                self.sum[l].join(k, &c, &mut self.nodes);
                continue;
            }
            self.hash[l + 1] = h;
            if self.enter_chosen(l + 1, true, choice) == Entered::Solution {
                self.sum[l].join(k, &V::one(), &mut self.nodes);
            } else {
                self.chosen[l + 1] = k;
                l += 1;
            }
        }
    }

    /// Searches to the end: the count, or the root of the diagram.
    pub fn count(&mut self) -> V {
        loop {
            if let Some(r) = self.advance(u64::MAX) {
                return r;
            }
        }
    }
}

impl Memo<Number> {
    /// The solutions counted so far: the sums of the levels on the stack
    /// (each sub-tree finished below them); the whole count once done.
    pub fn partial(&self) -> Number {
        if let Some(r) = &self.result {
            return r.clone();
        }
        let mut total = Number::ZERO;
        if let Some(l) = self.level {
            // Below a level in parts, the sums are of a part, not of the whole.
            for (s, parts) in self.sum[..=l].iter().zip(&self.parts) {
                if parts.is_some() {
                    break;
                }
                total.add(s);
            }
        }
        total
    }
}
