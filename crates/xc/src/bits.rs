//! Algorithms X and C on bitsets, for problems with few options.
//!
//! Dancing cells spend most of their time *hiding*: every option that
//! conflicts with a chosen one leaves the set of each of its other items, one
//! swap at a time. When a problem has at most a few thousand options, the set
//! of options still available fits in a few dozen 64-bit words, and choosing
//! an option becomes `live &= !conflict[o]`, one word at a time, where
//! `conflict[o]` (computed once) holds every option that cannot go with `o`:
//! those sharing a primary item, an uncolored secondary item, or a secondary
//! item with another color. The only bookkeeping left is the number of live
//! options of each primary item, which Knuth's MRV rule needs; it is
//! decremented for each option that dies, and a count that reaches zero ends
//! the move at once (a dead end, found before the node is entered).
//!
//! Each level keeps its own copy of `live` and of the counts, so backing up
//! costs nothing. The search is Algorithm X as in the dancing-cells engine:
//! the same rule for choosing items (fewest live options; ties go to the last
//! item by number here, by position in the active list there), the same moves.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::bitmasks::{self, Masks};
pub(crate) use crate::bitmasks::{COVERED, Count};
use crate::machine::{Engine, Limits, MAX_PROBE_DEPTH, MOST_ESTIMATE, Machine, Move, Solve, Step};
use crate::problem::CompiledProblem;
use crate::rng::Rng;
use crate::stats::Stats;

/// Problems with more options than this use dancing cells: the conflict
/// table grows as the square of the number of options.
pub const MAX_OPTIONS: usize = 4096;
/// Problems with more primary items than this use dancing cells: every level
/// copies one count per primary item.
pub const MAX_PRIMARY: usize = 1024;

/// The tables of a problem, fixed once built.
#[derive(Clone, Debug)]
pub(crate) struct Bits {
    /// Words per set of options.
    pub w: usize,
    pub n_primary: usize,
    pub n_options: usize,
    /// `itemset[i * w..(i + 1) * w]`: the options of primary item `i`.
    pub itemset: Vec<u64>,
    /// `conflict[o * w..(o + 1) * w]`: the options incompatible with `o` (`o`
    /// included); empty when `masks` holds them instead.
    pub conflict: Vec<u64>,
    /// The clashes item by item, for problems past [`MAX_OPTIONS`] options.
    pub(crate) masks: Option<Box<Masks>>,
    /// The primary items of option `o`: `prim[prim_start[o]..prim_start[o + 1]]`.
    pub prim: Vec<u32>,
    pub prim_start: Vec<u32>,
    /// Option number in the problem of each internal option number (the
    /// internal numbering is shuffled for a random order).
    pub external: Vec<u32>,
    /// Internal number of each option of the problem.
    pub internal: Vec<u32>,
    /// Initial number of options of each primary item.
    pub counts: Vec<Count>,
}

impl Bits {
    /// Do the square tables of `p` fit (at most [`MAX_OPTIONS`] options)?
    pub fn suits(p: &CompiledProblem) -> bool {
        !p.has_multiplicities() && p.n_options() <= MAX_OPTIONS && p.n_primary() <= MAX_PRIMARY
    }

    /// Can `p` be searched on bitsets, with the square table or with masks
    /// item by item ([`bitmasks`])?
    pub fn suits_search(p: &CompiledProblem) -> bool {
        Bits::suits(p) || Bits::suits_masks(p)
    }

    /// Too big for the square table, but not for masks.
    fn suits_masks(p: &CompiledProblem) -> bool {
        !p.has_multiplicities()
            && p.n_options() > MAX_OPTIONS
            && p.n_options() <= bitmasks::MAX_OPTIONS
            && p.n_primary() <= MAX_PRIMARY
            && bitmasks::mask_words(p).is_some_and(|x| x <= bitmasks::MAX_MASK_WORDS)
    }

    /// Should a search of `p` run on bitsets rather than dancing cells (the
    /// automatic choice)? Where they suit, unless the problem has colors and
    /// its primary items have few options each (fewer than `SPARSE_OPTIONS`
    /// on average). Then most nodes are deep in the tree, forced moves and
    /// two-way choices where few options are left, and there a node of
    /// dancing cells touches a few entries while a node of bitsets still
    /// copies and scans its whole frame and purifies by masks. Measured on
    /// the same trees: dancing cells 1.3x faster on a 12x12 slitherlink
    /// (5.3 options per primary item) and 7x on Knuth's indicator problem
    /// (2.9), both colored; bitsets 1.45-1.9x faster on 9x9 trominoes (9.5),
    /// 16x16 Sudoku (16), queens (14) and pentominoes (171). Without colors
    /// bitsets won where sparse too: his SUDOKU-DLX of a puzzle with 15
    /// givens (5.3 options an item, 348 options) 1.7x, perfect matchings of
    /// a cubic graph on 80 vertices (3) 1.5x, planted random covers (4-5)
    /// 1.1-1.4x a node, and even on 400 vertices (600 options).
    pub fn pays(p: &CompiledProblem) -> bool {
        let n1 = p.n_primary();
        let primary_entries = p
            .option_item()
            .iter()
            .filter(|&&i| (i as usize) < n1)
            .count();
        if p.n_options() > MAX_OPTIONS {
            // Past the square table: where every option has one primary
            // item and the items have many options, as in word rectangles
            // (words of 64 options of one item, counted by `count_ones`).
            // (The masks' bound, a sort of every entry, is checked last.)
            return primary_entries >= DENSE_MASK_OPTIONS * n1
                && bitmasks::one_primary_each(p)
                && Bits::suits_masks(p);
        }
        Bits::suits(p) && (!p.has_colors() || primary_entries >= SPARSE_OPTIONS * n1)
    }

    /// Does a search of `p` with `engine` dance on bitsets (else on cells)?
    pub fn chosen(engine: Engine, p: &CompiledProblem) -> bool {
        match engine {
            Engine::Cells | Engine::CellsBy(_) => false,
            Engine::Auto => Bits::pays(p),
            Engine::Bits => Bits::suits_search(p),
        }
    }
}

/// Options per primary item (on average) below which a problem with colors
/// is sparse: dancing cells search it faster than bitsets (see
/// [`Bits::pays`]).
const SPARSE_OPTIONS: usize = 7;

/// The options `0..m`, in a random order with `rng`: internal option `k` is
/// the problem's option `numbering(..)[k]`.
pub(crate) fn numbering(m: usize, rng: Option<&mut Rng>) -> Vec<u32> {
    let mut external: Vec<u32> = (0..m as u32).collect();
    if let Some(rng) = rng {
        for k in (1..m).rev() {
            let r = rng.below(k as u64 + 1) as usize;
            external.swap(k, r);
        }
    }
    external
}

/// Options per primary item (on average) from which a problem past the
/// square table is searched on bitsets with masks (see [`Bits::pays`]).
const DENSE_MASK_OPTIONS: usize = 64;

impl Bits {
    /// The tables of `p` (which must suit); with `rng`, options are numbered
    /// in a random order, so that each item tries its options in that order.
    pub fn new(p: &CompiledProblem, rng: Option<&mut Rng>) -> Bits {
        Bits::with_order(p, numbering(p.n_options(), rng))
    }

    /// The tables of `p` (which must suit), internal option `k` being the
    /// problem's option `external[k]` (a permutation).
    pub fn with_order(p: &CompiledProblem, external: Vec<u32>) -> Bits {
        Bits::build(p, external, false)
    }

    /// The tables of a bitset search of `p` (which must suit, see
    /// [`Bits::suits_search`]): the square table where it fits, else masks
    /// item by item. With masks, options that each have one primary item
    /// are numbered item by item (each item keeps the order of its own).
    pub fn for_search(p: &CompiledProblem, rng: Option<&mut Rng>) -> Bits {
        if Bits::suits(p) {
            return Bits::new(p, rng);
        }
        let mut external = numbering(p.n_options(), rng);
        if bitmasks::one_primary_each(p) {
            let n1 = p.n_primary() as u32;
            let first = |o: u32| {
                p.option(o as usize)
                    .iter()
                    .copied()
                    .find(|&i| i < n1)
                    .unwrap_or(u32::MAX)
            };
            external.sort_by_key(|&o| first(o)); // stable
        }
        Bits::build(p, external, true)
    }

    pub(crate) fn build(p: &CompiledProblem, external: Vec<u32>, masked: bool) -> Bits {
        let m = p.n_options();
        let n1 = p.n_primary();
        let w = m.div_ceil(64).max(1);
        let mut internal = vec![0u32; m];
        for (k, &o) in external.iter().enumerate() {
            internal[o as usize] = k as u32;
        }
        let mut itemset = vec![0u64; n1 * w];
        let mut counts: Vec<Count> = vec![0; n1];
        let mut prim = Vec::new();
        let mut prim_start = vec![0u32];
        // (option, color) pairs of each secondary item (for the square table).
        let mut secondary: Vec<Vec<(u32, u32)>> = vec![Vec::new(); p.n_secondary()];
        for k in 0..m {
            let o = external[k] as usize;
            let start = p.option_start()[o] as usize;
            for (j, &i) in p.option(o).iter().enumerate() {
                let i = i as usize;
                if i < n1 {
                    itemset[i * w + k / 64] |= 1 << (k % 64);
                    counts[i] += 1;
                    prim.push(i as u32);
                } else if !masked {
                    secondary[i - n1].push((k as u32, p.color_at(start + j)));
                }
            }
            prim_start.push(prim.len() as u32);
        }
        if masked {
            let masks = Masks::new(p, &external, &prim, &prim_start);
            return Bits {
                w,
                n_primary: n1,
                n_options: m,
                itemset,
                conflict: Vec::new(),
                masks: Some(Box::new(masks)),
                prim,
                prim_start,
                external,
                internal,
                counts,
            };
        }
        let mut conflict = vec![0u64; m * w];
        for k in 0..m {
            let row = &mut conflict[k * w..(k + 1) * w];
            for &i in &prim[prim_start[k] as usize..prim_start[k + 1] as usize] {
                for (r, s) in row
                    .iter_mut()
                    .zip(&itemset[i as usize * w..(i as usize + 1) * w])
                {
                    *r |= s;
                }
            }
            row[k / 64] |= 1 << (k % 64);
        }
        secondary_clashes(&mut conflict, w, &mut secondary);
        Bits {
            w,
            n_primary: n1,
            n_options: m,
            itemset,
            conflict,
            masks: None,
            prim,
            prim_start,
            external,
            internal,
            counts,
        }
    }

    /// The primary items of internal option `k`.
    #[inline(always)]
    pub fn prim(&self, k: usize) -> &[u32] {
        // SAFETY: prim_start has n_options + 1 increasing entries within prim.
        unsafe {
            let a = *self.prim_start.get_unchecked(k) as usize;
            let b = *self.prim_start.get_unchecked(k + 1) as usize;
            self.prim.get_unchecked(a..b)
        }
    }
}

/// Takes option `k` into the state `(live, counts)`, in place: the options
/// that clash with it die, and each of their primary items loses one. With
/// `CHECK`, stops (returning false) as soon as an uncovered primary item has
/// no option left; `hint` gets an item whose count fell to 1, if any.
#[inline(always)]
pub(crate) fn apply<const CHECK: bool>(
    bits: &Bits,
    live: &mut [u64],
    counts: &mut [Count],
    k: usize,
    updates: &mut u64,
    hint: &mut u32,
) -> bool {
    let w = bits.w;
    for &i in bits.prim(k) {
        counts[i as usize] = COVERED;
    }
    if let Some(masks) = &bits.masks {
        return masks.apply::<CHECK>(&bits.prim, &bits.prim_start, live, counts, k, updates, hint);
    }
    let conflict = &bits.conflict[k * w..(k + 1) * w];
    let mut found = u32::MAX;
    let mut n = 0u64; // updates, kept in a register
    for (j, (l, &c)) in live.iter_mut().zip(conflict).enumerate() {
        let dying = *l & c;
        *l &= !c;
        if !bitmasks::kill::<CHECK>(
            &bits.prim,
            &bits.prim_start,
            counts,
            j,
            dying,
            &mut n,
            &mut found,
        ) {
            *updates += n;
            *hint = found;
            return false;
        }
    }
    *updates += n;
    *hint = found;
    true
}

/// Adds to each option's row of `conflict` (`w` words a row) the options it
/// clashes with on secondary items, from each item's users `(option,
/// color)`: two options that share a secondary item clash unless both give
/// it the same color.
pub(crate) fn secondary_clashes(conflict: &mut [u64], w: usize, secondary: &mut [Vec<(u32, u32)>]) {
    for users in secondary.iter_mut() {
        // Few users (at most a row's words): by pairs, fewer steps.
        if users.len() <= w {
            for &(a, ca) in users.iter() {
                for &(b, cb) in users.iter() {
                    if ca == 0 || ca != cb {
                        conflict[a as usize * w + b as usize / 64] |= 1 << (b % 64);
                    }
                }
            }
            continue;
        }
        // Many users (a letter cell of word rectangles is in a third of
        // the words): by sets, not pairs. An option clashes with every
        // user but those of its own color (all of them if it has none):
        // w words an option, where the pairs took the users' number
        // (0.13 s of building the tables of 10,000 words, twice per count).
        let mut all = vec![0u64; w];
        for &(b, _) in users.iter() {
            all[b as usize / 64] |= 1 << (b % 64);
        }
        users.sort_unstable_by_key(|&(_, c)| c);
        let mut same = vec![0u64; w];
        for group in users.chunk_by(|x, y| x.1 == y.1) {
            let color = group[0].1;
            same.iter_mut().for_each(|x| *x = 0);
            if color != 0 {
                for &(b, _) in group {
                    same[b as usize / 64] |= 1 << (b % 64);
                }
            }
            for &(a, _) in group {
                let row = &mut conflict[a as usize * w..(a as usize + 1) * w];
                for ((r, x), y) in row.iter_mut().zip(&all).zip(&same) {
                    *r |= x & !y;
                }
            }
        }
    }
}

/// The next live option of item `i` after internal option `after` (or from
/// the start when `after` is `None`).
#[inline(always)]
pub(crate) fn next_option(
    bits: &Bits,
    live: &[u64],
    i: usize,
    after: Option<usize>,
) -> Option<usize> {
    let w = bits.w;
    next_in(&bits.itemset[i * w..(i + 1) * w], live, after)
}

/// The first option after `after` (or from the start when `after` is
/// `None`) that is in both `set` and `live`.
#[inline(always)]
pub(crate) fn next_in(set: &[u64], live: &[u64], after: Option<usize>) -> Option<usize> {
    let (mut j, mut mask) = match after {
        None => (0, !0u64),
        Some(k) => (
            k / 64,
            if k % 64 == 63 {
                0
            } else {
                !0u64 << (k % 64 + 1)
            },
        ),
    };
    while j < set.len() {
        let word = set[j] & live[j] & mask;
        if word != 0 {
            return Some(j * 64 + word.trailing_zeros() as usize);
        }
        j += 1;
        mask = !0;
    }
    None
}

/// How many live options of item `i` come before internal option `k` (for the progress path).
pub(crate) fn rank(bits: &Bits, live: &[u64], i: usize, k: usize) -> u32 {
    let w = bits.w;
    let set = &bits.itemset[i * w..(i + 1) * w];
    let mut r = 0;
    for j in 0..=k / 64 {
        let mut word = set[j] & live[j];
        if j == k / 64 {
            word &= (1u64 << (k % 64)) - 1;
        }
        r += word.count_ones();
    }
    r
}

/// Algorithms X and C on the tables of [`Bits`], resumable like the
/// dancing-cells search (see `search.rs` for the state machine).
/// Where the bitset search stands between two slices: a position in Knuth's
/// steps of Algorithm X (`Forward` X2-X3, `Advance` X5-X7, `DoneWithLevel`
/// X8; `Leaf` lists the last item's options).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Forward,
    Advance,
    DoneWithLevel,
    Leaf,
    Done,
}

#[derive(Clone, Debug)]
pub(crate) struct BitSearch {
    problem: Arc<CompiledProblem>,
    bits: Arc<Bits>,
    /// `live[l * w..(l + 1) * w]`: the options still available at level `l`.
    live: Vec<u64>,
    /// `counts[l * n..(l + 1) * n]`: live options of each primary item at level
    /// `l` (`COVERED` for a covered item).
    counts: Vec<Count>,
    /// Uncovered primary items at each level.
    remaining: Vec<u32>,
    best: Vec<u32>,
    /// The (internal) option chosen at each level.
    choice: Vec<u32>,
    /// The branching degree at each level, for the progress path.
    deg: Vec<u32>,
    /// The (internal) options forced before the search, all at level 1.
    forced: Vec<u32>,
    /// At each level, an item whose count fell to 1 in the commit that made
    /// the level (`u32::MAX` if none): probably a forced move, checked first.
    hint: Vec<u32>,
    /// The (internal) options of forced moves taken in place, on the frame
    /// of the level that found them (see [`BitSearch::search`]): those of
    /// the levels on the current path, in order of level.
    absorbed: Vec<u32>,
    /// At each level that branched, the length of `absorbed` as it did:
    /// the end of the forced moves of that level and the ones above it.
    absorbed_end: Vec<usize>,
    level: usize,
    base: usize,
    state: State,
    sol_len: usize,
    nodes: u64,
    updates: u64,
    mems: u64,
    solutions: u64,
    max_level: usize,
    rng: Option<Rng>,
}

impl BitSearch {
    pub fn new(problem: Arc<CompiledProblem>, seed: Option<u64>) -> BitSearch {
        let mut rng = seed.map(Rng::new);
        let bits = Bits::for_search(&problem, rng.as_mut());
        BitSearch::with_bits(problem, bits, rng)
    }

    /// Does this search hold its clashes as masks (past the square table)?
    #[cfg(test)]
    pub(crate) fn bits_masked(&self) -> bool {
        self.bits.masks.is_some()
    }

    /// A search of `problem` on the tables `bits` (built for it).
    pub(crate) fn with_bits(
        problem: Arc<CompiledProblem>,
        bits: Bits,
        rng: Option<Rng>,
    ) -> BitSearch {
        // Every level covers at least one primary item.
        let depth = bits.n_primary + 2;
        let mut live = vec![0u64; depth * bits.w];
        for k in 0..bits.n_options {
            live[k / 64] |= 1 << (k % 64);
        }
        let mut counts: Vec<Count> = vec![0; depth * bits.n_primary];
        counts[..bits.n_primary].copy_from_slice(&bits.counts);
        let mut remaining = vec![0u32; depth];
        remaining[0] = bits.n_primary as u32;
        BitSearch {
            problem,
            bits: Arc::new(bits),
            live,
            counts,
            remaining,
            best: vec![0; depth],
            choice: vec![0; depth],
            deg: vec![0; depth],
            forced: Vec::new(),
            hint: vec![u32::MAX; depth],
            absorbed: Vec::new(),
            absorbed_end: vec![0; depth],
            level: 0,
            base: 0,
            state: State::Forward,
            sol_len: 0,
            nodes: 0,
            updates: 0,
            mems: 0,
            solutions: 0,
            max_level: 0,
            rng,
        }
    }

    /// Commits option `k` from level `l` into level `l + 1`; with `CHECK`,
    /// stops at the first item left without options (returns false).
    #[inline(always)]
    fn commit_at<const CHECK: bool>(&mut self, l: usize, k: usize) -> bool {
        let (w, n) = (self.bits.w, self.bits.n_primary);
        self.live.copy_within(l * w..(l + 1) * w, (l + 1) * w);
        self.counts.copy_within(l * n..(l + 1) * n, (l + 1) * n);
        self.mems += (2 * w + n) as u64;
        self.remaining[l + 1] = self.remaining[l];
        self.take_at::<CHECK>(l + 1, k)
    }

    /// Takes option `k` on level `f`'s own frame, in place (see [`apply`]):
    /// its primary items leave the uncovered ones; false at a dead end.
    #[inline(always)]
    fn take_at<const CHECK: bool>(&mut self, f: usize, k: usize) -> bool {
        let (w, n) = (self.bits.w, self.bits.n_primary);
        let ok = apply::<CHECK>(
            &self.bits,
            &mut self.live[f * w..(f + 1) * w],
            &mut self.counts[f * n..(f + 1) * n],
            k,
            &mut self.updates,
            &mut self.hint[f],
        );
        self.remaining[f] -= self.bits.prim(k).len() as u32;
        ok
    }

    /// The uncovered primary item with the fewest live options (ties: the
    /// first declared, as in Knuth's SSXCC and the dancing cells, or a
    /// random one), with that number.
    #[inline(always)]
    fn choose(&mut self, l: usize) -> (u32, u32) {
        let n = self.bits.n_primary;
        let counts = &self.counts[l * n..(l + 1) * n];
        // A forced move found by the commit that made this level is as good
        // as any (no count is 0 above the forced levels), and saves the scan.
        let hint = self.hint[l];
        if l > self.base && hint != u32::MAX && counts[hint as usize] == 1 {
            self.mems += 1;
            return (hint, 1);
        }
        self.mems += n as u64;
        // The smallest count (a loop the compiler turns into vector minima),
        // then the first item that has it, or a random one among them.
        let t = counts.iter().copied().min().unwrap_or(COVERED);
        let t32 = t as u32;
        if let Some(rng) = self.rng.as_mut() {
            let ties = counts.iter().filter(|&&c| c == t).count() as u64;
            let pick = rng.below(ties) as usize;
            let best = counts
                .iter()
                .enumerate()
                .filter(|&(_, &c)| c == t)
                .nth(pick)
                .map_or(0, |(i, _)| i);
            return (best as u32, t32);
        }
        let best = counts.iter().position(|&c| c == t).unwrap_or(0);
        (best as u32, t32)
    }

    /// Algorithm X, Knuth's steps X2-X8 on bitsets. Each level works on its
    /// own frame (live options, counts), written from the level above when an
    /// option is tried: covering is that copy, and uncovering (X7) and
    /// uncommitting (X6) are nothing at all, the frame above being untouched.
    fn search<const COUNT: bool>(&mut self, limits: Limits, target: u64) -> Step {
        let w = self.bits.w;
        let mut level = self.level;
        let mut state = self.state;
        loop {
            match state {
                State::Forward => {
                    // X2: enter level l (pausing first if a budget is reached).
                    if self.nodes >= limits.nodes || self.updates >= limits.updates {
                        self.level = level;
                        self.state = State::Forward;
                        return Step::Paused;
                    }
                    self.nodes += 1;
                    self.max_level = self.max_level.max(level + self.absorbed.len());
                    if self.remaining[level] == 0 {
                        // Only reachable when forced options cover everything.
                        self.sol_len = level;
                        self.solutions += 1;
                        state = State::DoneWithLevel;
                        if !COUNT || self.solutions >= target {
                            self.level = level;
                            self.state = state;
                            return if COUNT { Step::Paused } else { Step::Solution };
                        }
                        continue;
                    }
                    // X3: choose the item i (X4, covering it, is done by
                    // each option's frame in X5).
                    let (i, t) = self.choose(level);
                    self.best[level] = i;
                    self.deg[level] = t;
                    self.choice[level] = u32::MAX; // before the first option
                    if t == 0 {
                        state = State::DoneWithLevel;
                    } else if t == 1 && level > self.base && self.remaining[level] > 1 {
                        // A forced move, taken on this level's own frame:
                        // its one option is the only way on, so the frame
                        // as it was is never needed again (backing up past
                        // this level, the level above writes a fresh one).
                        // Nine nodes in ten of a Sudoku count are forced,
                        // and each saved the copy of a frame. Its node is
                        // counted as the level below's would be.
                        let k = next_option(
                            &self.bits,
                            &self.live[level * w..(level + 1) * w],
                            i as usize,
                            None,
                        )
                        .expect("an item with one live option");
                        self.mems += self.bits.n_primary as u64;
                        if !self.take_at::<true>(level, k) {
                            state = State::DoneWithLevel; // a dead end
                            continue;
                        }
                        self.absorbed.push(k as u32);
                        if self.remaining[level] == 0 {
                            self.sol_len = level;
                            self.solutions += 1;
                            self.max_level = self.max_level.max(level + self.absorbed.len());
                            state = State::DoneWithLevel;
                            if !COUNT || self.solutions >= target {
                                self.level = level;
                                self.state = state;
                                return if COUNT { Step::Paused } else { Step::Solution };
                            }
                        }
                        // (Else X2 again on this level, as the level below.)
                    } else if self.remaining[level] == 1 {
                        // The last primary item: each live option of it is a
                        // solution (see the dancing-cells search).
                        self.absorbed_end[level] = self.absorbed.len();
                        self.max_level = self.max_level.max(level + 1 + self.absorbed.len());
                        if COUNT {
                            self.solutions += t as u64;
                            state = State::DoneWithLevel;
                            if self.solutions >= target {
                                self.level = level;
                                self.state = state;
                                return Step::Paused;
                            }
                        } else {
                            state = State::Leaf;
                        }
                    } else {
                        self.absorbed_end[level] = self.absorbed.len();
                        state = State::Advance;
                    }
                }
                State::Leaf => {
                    // (Not a step of Knuth's: the last item's options, each a
                    // solution, listed without a frame.)
                    let i = self.best[level] as usize;
                    let after = self.choice[level];
                    let after = if after == u32::MAX {
                        None
                    } else {
                        Some(after as usize)
                    };
                    let live = &self.live[level * w..(level + 1) * w];
                    if COUNT {
                        // The rest of the leaf's options, counted at once.
                        let mut k = after;
                        while let Some(x) = next_option(&self.bits, live, i, k) {
                            self.solutions += 1;
                            k = Some(x);
                        }
                        state = State::DoneWithLevel;
                        continue;
                    }
                    match next_option(&self.bits, live, i, after) {
                        None => state = State::DoneWithLevel,
                        Some(k) => {
                            self.choice[level] = k as u32;
                            self.sol_len = level + 1;
                            self.solutions += 1;
                            self.level = level;
                            self.state = State::Leaf;
                            return Step::Solution;
                        }
                    }
                }
                State::Advance => {
                    // X5 (and X6, trying again): the next live option x_l of
                    // i; its frame for level l + 1, then X2 there. None left:
                    // X7, with nothing to uncover.
                    let i = self.best[level] as usize;
                    let after = self.choice[level];
                    let after = if after == u32::MAX {
                        None
                    } else {
                        Some(after as usize)
                    };
                    let next =
                        next_option(&self.bits, &self.live[level * w..(level + 1) * w], i, after);
                    let Some(k) = next else {
                        state = State::DoneWithLevel;
                        continue;
                    };
                    self.choice[level] = k as u32;
                    // The forced moves of the levels below, from the last try, go.
                    self.absorbed.truncate(self.absorbed_end[level]);
                    if !self.commit_at::<true>(level, k) {
                        continue; // a dead end: next option
                    }
                    if self.remaining[level + 1] == 0 {
                        self.sol_len = level + 1;
                        self.solutions += 1;
                        self.max_level = self.max_level.max(level + 1 + self.absorbed.len());
                        if !COUNT || self.solutions >= target {
                            self.level = level;
                            self.state = State::Advance;
                            return if COUNT { Step::Paused } else { Step::Solution };
                        }
                    } else {
                        level += 1;
                        state = State::Forward;
                    }
                }
                State::DoneWithLevel => {
                    // X8: leave level l; at the base level, the search is over.
                    if level == self.base {
                        self.level = level;
                        self.state = State::Done;
                        return Step::Exhausted;
                    }
                    level -= 1;
                    state = State::Advance;
                }
                State::Done => {
                    self.level = level;
                    return Step::Exhausted;
                }
            }
        }
    }
}

/// Pieces of the search tree: what the parallel and distributed counts need.
impl BitSearch {
    /// Makes level 1 the working frame of forced and excluded options.
    fn base_frame(&mut self) {
        if self.base == 0 {
            let (w, n) = (self.bits.w, self.bits.n_primary);
            self.live.copy_within(0..w, w);
            self.counts.copy_within(0..n, n);
            self.remaining[1] = self.remaining[0];
            self.hint[1] = u32::MAX;
            self.level = 1;
            self.base = 1;
        }
    }
}

impl Solve for BitSearch {
    fn stats(&self) -> Stats {
        Stats {
            nodes: self.nodes,
            updates: self.updates,
            mems: self.mems,
            cleansings: 0,
            solutions: self.solutions,
            max_level: self.max_level as u64,
        }
    }

    fn is_exhausted(&self) -> bool {
        self.state == State::Done
    }

    fn solution_into(&self, out: &mut Vec<u32>) {
        out.clear();
        out.extend(self.forced.iter().map(|&k| self.bits.external[k as usize]));
        out.extend(
            self.choice[self.base.min(self.sol_len)..self.sol_len]
                .iter()
                .chain(&self.absorbed)
                .map(|&k| self.bits.external[k as usize]),
        );
    }

    fn force(&mut self, o: u32) -> bool {
        assert!(
            self.level == self.base && self.state == State::Forward && self.nodes == 0,
            "options can only be forced before the search starts"
        );
        if o as usize >= self.bits.n_options {
            return false;
        }
        let k = self.bits.internal[o as usize] as usize;
        let l = self.level;
        let w = self.bits.w;
        if self.live[l * w + k / 64] >> (k % 64) & 1 == 0 {
            return false;
        }
        // Any item left without options shows up as a zero count at the next
        // node. The forced options share level 1, applied there in place.
        if self.base == 0 {
            self.commit_at::<false>(0, k);
            self.level = 1;
            self.base = 1;
        } else {
            let (w, n) = (self.bits.w, self.bits.n_primary);
            apply::<false>(
                &self.bits,
                &mut self.live[w..2 * w],
                &mut self.counts[n..2 * n],
                k,
                &mut self.updates,
                &mut self.hint[1],
            );
            self.remaining[1] -= self.bits.prim(k).len() as u32;
        }
        self.forced.push(k as u32);
        true
    }

    fn run(&mut self, limits: Limits) -> Step {
        self.search::<false>(limits, u64::MAX)
    }
}

impl Machine for BitSearch {
    fn engine(&self) -> Engine {
        Engine::Bits
    }

    /// Back to the state before any search or forcing. Level 0's frame is
    /// never written after construction, so this is only bookkeeping.
    fn reset(&mut self) {
        (self.level, self.base, self.sol_len, self.max_level) = (0, 0, 0, 0);
        (self.nodes, self.updates, self.mems, self.solutions) = (0, 0, 0, 0);
        self.state = State::Forward;
        self.forced.clear();
        self.absorbed.clear();
    }

    fn problem(&self) -> &Arc<CompiledProblem> {
        &self.problem
    }

    /// Leaves option `o` out of every solution, before the search starts;
    /// false (and no change) if it could not be chosen anyway.
    fn exclude(&mut self, o: u32) -> bool {
        assert!(
            self.level == self.base && self.state == State::Forward && self.nodes == 0,
            "options can only be excluded before the search starts"
        );
        if o as usize >= self.bits.n_options {
            return false;
        }
        let k = self.bits.internal[o as usize] as usize;
        let w = self.bits.w;
        if self.live[self.level * w + k / 64] >> (k % 64) & 1 == 0 {
            return false;
        }
        self.base_frame();
        let n = self.bits.n_primary;
        self.live[w + k / 64] &= !(1 << (k % 64));
        for &i in self.bits.prim(k) {
            self.counts[n + i as usize] -= 1;
        }
        true
    }

    fn count(&mut self, limits: Limits, target: u64) -> Step {
        self.search::<true>(limits, target)
    }

    fn progress(&self) -> Vec<(u32, u32)> {
        let top = if self.state == State::Done {
            self.base
        } else {
            self.level
        };
        let (w, n) = (self.bits.w, self.bits.n_primary);
        (self.base..top)
            .map(|l| {
                let live = &self.live[l * w..(l + 1) * w];
                let k = rank(
                    &self.bits,
                    live,
                    self.best[l] as usize,
                    self.choice[l] as usize,
                ) + 1;
                let _ = n;
                (k, self.deg[l].max(k))
            })
            .collect()
    }

    /// The unexplored part of a search paused before entering a node (see
    /// the dancing-cells search).
    fn frontier(&self) -> Vec<(usize, Vec<Move>)> {
        assert!(
            self.state == State::Forward,
            "a frontier is taken before entering a node"
        );
        let w = self.bits.w;
        let mut pieces = Vec::new();
        let mut path = Vec::new();
        let mut taken = 0; // forced moves of the levels above put on the path
        for l in self.base..self.level {
            let (i, k) = (self.best[l] as usize, self.choice[l] as usize);
            // The level's forced moves, taken in place before it branched.
            let end = self.absorbed_end[l];
            path.extend(
                self.absorbed[taken..end]
                    .iter()
                    .map(|&x| Move::Include(self.bits.external[x as usize])),
            );
            taken = end;
            let live = &self.live[l * w..(l + 1) * w];
            let mut after = Some(k);
            while let Some(x) = next_option(&self.bits, live, i, after) {
                let mut piece = path.clone();
                piece.push(Move::Include(self.bits.external[x]));
                pieces.push((l - self.base, piece));
                after = Some(x);
            }
            path.push(Move::Include(self.bits.external[k]));
        }
        path.extend(
            self.absorbed[taken..]
                .iter()
                .map(|&x| Move::Include(self.bits.external[x as usize])),
        );
        pieces.push((self.level - self.base, path));
        pieces
    }

    /// The branches of the node a fresh search starts at: None if that node
    /// is a solution, else the pieces (possibly none: a dead end).
    fn children(&mut self) -> Option<Vec<Vec<Move>>> {
        assert!(self.level == self.base && self.state == State::Forward && self.nodes == 0);
        let l = self.level;
        if self.remaining[l] == 0 {
            return None;
        }
        let (i, t) = self.choose(l);
        let w = self.bits.w;
        let mut out = Vec::new();
        if t == 0 {
            return Some(out); // a dead end
        }
        let mut after = None;
        while let Some(x) = next_option(
            &self.bits,
            &self.live[l * w..(l + 1) * w],
            i as usize,
            after,
        ) {
            out.push(vec![Move::Include(self.bits.external[x])]);
            after = Some(x);
        }
        Some(out)
    }

    /// One of Knuth's random probes (see the dancing-cells search); the
    /// frames above the current level serve as scratch. Bitsets hold at most
    /// a few thousand options, so a probe is short and `halt` is not watched.
    fn probe(&mut self, rng: &mut Rng, _halt: &AtomicBool, spent: &mut u64) -> Option<f64> {
        let counted = (self.updates, self.mems);
        let estimate = self.walk(rng);
        *spent += self.updates - counted.0;
        (self.updates, self.mems) = counted;
        Some(estimate)
    }
}

impl BitSearch {
    /// [`Machine::probe`]'s walk down from the current level.
    fn walk(&mut self, rng: &mut Rng) -> f64 {
        let w = self.bits.w;
        let (mut total, mut width) = (1.0f64, 1.0f64);
        let mut l = self.level;
        loop {
            if self.remaining[l] == 0 || l - self.level >= MAX_PROBE_DEPTH {
                return total;
            }
            let (i, t) = self.choose(l);
            if t == 0 {
                return total;
            }
            width *= t as f64;
            total += width;
            if total >= MOST_ESTIMATE {
                return MOST_ESTIMATE;
            }
            let r = rng.below(t as u64);
            let mut x = None;
            for _ in 0..=r {
                x = next_option(&self.bits, &self.live[l * w..(l + 1) * w], i as usize, x);
            }
            let Some(x) = x else { return total };
            if !self.commit_at::<true>(l, x) {
                return total;
            }
            l += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::bitmasks::one_primary_each;
    use crate::cellsearch::CellSearch;
    use crate::machine::{Limits, Machine, Solve, Step};
    use crate::rng::Rng;

    /// A random problem with colors: `n1` primary items, `n2` secondary,
    /// `m` options; with `one`, each option has one primary item (else one
    /// to three).
    fn random(rng: &mut Rng, n1: u32, n2: u32, m: usize, one: bool) -> CompiledProblem {
        let (mut start, mut item, mut color) = (vec![0u32], Vec::new(), Vec::new());
        for _ in 0..m {
            let mut o: Vec<(u32, u32)> = Vec::new();
            let k = if one {
                1
            } else {
                (1 + rng.below(3)).min(n1 as u64)
            };
            while (o.len() as u64) < k {
                let i = rng.below(n1 as u64) as u32;
                if !o.iter().any(|&(j, _)| j == i) {
                    o.push((i, 0));
                }
            }
            for i in n1..n1 + n2 {
                if rng.below(3) == 0 {
                    o.push((i, rng.below(3) as u32));
                }
            }
            item.extend(o.iter().map(|&(i, _)| i));
            color.extend(o.iter().map(|&(_, c)| c));
            start.push(item.len() as u32);
        }
        let n = n1 as usize;
        CompiledProblem::new(n1, n2, vec![1; n], vec![1; n], start, item, color).unwrap()
    }

    /// Every solution of `s`, each sorted, all sorted.
    fn solutions(s: &mut dyn Solve) -> Vec<Vec<u32>> {
        let mut all = Vec::new();
        let mut one = Vec::new();
        while s.run(Limits::NONE) == Step::Solution {
            s.solution_into(&mut one);
            one.sort_unstable();
            all.push(one.clone());
        }
        all.sort_unstable();
        all
    }

    /// The search on masks, its options in `external`'s order.
    fn masked(p: &Arc<CompiledProblem>, external: Vec<u32>) -> BitSearch {
        BitSearch::with_bits(p.clone(), Bits::build(p, external, true), None)
    }

    #[test]
    fn masks_find_what_the_square_table_and_the_cells_find() {
        let mut rng = Rng::new(41);
        for trial in 0..300 {
            let one = trial % 2 == 0;
            // Up to 200 options on at most three primary items: masks
            // across several words of the live set, a tree still small.
            let wide = trial % 3 == 0;
            let m = 1 + rng.below(if wide { 200 } else { 30 }) as usize;
            let n1 = 1 + rng.below(if wide { 3 } else { 6 }) as u32;
            let n2 = rng.below(5) as u32;
            let p = Arc::new(random(&mut rng, n1, n2, m, one));
            let want = solutions(
                &mut CellSearch::new_until(p.clone(), None, None, &Default::default()).unwrap(),
            );
            let dense = solutions(&mut BitSearch::with_bits(
                p.clone(),
                Bits::new(&p, None),
                None,
            ));
            assert_eq!(dense, want, "trial {trial}: the square table");
            let mut order: Vec<u32> = (0..m as u32).collect();
            assert_eq!(
                solutions(&mut masked(&p, order.clone())),
                want,
                "trial {trial}"
            );
            // Shuffled, and grouped by primary item as `Bits::for_search` does.
            for k in (1..m).rev() {
                order.swap(k, rng.below(k as u64 + 1) as usize);
            }
            assert_eq!(
                solutions(&mut masked(&p, order.clone())),
                want,
                "trial {trial}"
            );
            order.sort_by_key(|&o| p.option(o as usize).iter().copied().find(|&i| i < n1));
            let mut s = masked(&p, order);
            assert_eq!(solutions(&mut s), want, "trial {trial}: grouped");
            s.reset();
            s.count(Limits::NONE, u64::MAX);
            assert_eq!(
                s.stats().solutions,
                want.len() as u64,
                "trial {trial}: count"
            );
        }
    }

    #[test]
    fn past_the_square_table_the_search_takes_masks() {
        // Word squares 3x3 of 700 random words over 20 letters: rows R0-R2
        // and columns C0-C2 (primary), a cell for each letter's place.
        let mut rng = Rng::new(7);
        let mut words: Vec<u32> = (0..20 * 20 * 20).collect();
        for k in (1..words.len()).rev() {
            words.swap(k, rng.below(k as u64 + 1) as usize);
        }
        words.truncate(700);
        let (n1, n2) = (6u32, 9u32);
        let (mut start, mut item, mut color) = (vec![0u32], Vec::new(), Vec::new());
        for line in 0..6 {
            for &word in &words {
                item.push(line);
                color.push(0);
                for place in 0..3 {
                    let cell = if line < 3 {
                        line * 3 + place
                    } else {
                        place * 3 + line - 3
                    };
                    item.push(n1 + cell);
                    color.push(1 + word / [400, 20, 1][place as usize] % 20);
                }
                start.push(item.len() as u32);
            }
        }
        let n = n1 as usize;
        let p = CompiledProblem::new(n1, n2, vec![1; n], vec![1; n], start, item, color).unwrap();
        assert!(p.n_options() > crate::bits::MAX_OPTIONS);
        assert!(Bits::pays(&p) && one_primary_each(&p));
        let p = Arc::new(p);
        let mut cells = CellSearch::new_until(p.clone(), None, None, &Default::default()).unwrap();
        cells.count(Limits::NONE, u64::MAX);
        let mut bits = BitSearch::new(p.clone(), None);
        assert!(bits.bits_masked());
        bits.count(Limits::NONE, u64::MAX);
        assert!(cells.stats().solutions > 1000);
        assert_eq!(bits.stats().solutions, cells.stats().solutions);
        // A random order of options too.
        let mut shuffled = BitSearch::new(p.clone(), Some(5));
        shuffled.count(Limits::NONE, u64::MAX);
        assert_eq!(shuffled.stats().solutions, cells.stats().solutions);
    }
}
