//! Algorithm M on bitsets: multiplicities, for problems with few options.
//!
//! The bitset search of `bits.rs` holds the options still available in a
//! few words, and taking an option kills, one word at a time, every option
//! it clashes with. With multiplicities (Knuth's Algorithm M, an item `i`
//! to be covered between `lo(i)` and `hi(i)` times) two options of the same
//! item no longer clash: they clash only once the item has taken `hi(i)`.
//! So the tables split in two:
//! * `kill[k]`, computed once: the options that die with option `k` whatever
//!   else was taken, those sharing an item of capacity 1 with it (a primary
//!   item with `hi` 1, an uncolored secondary item, a secondary item given
//!   another color), and `k` itself;
//! * each primary item's bound, `hi` less what it has taken, kept per level:
//!   an item whose bound reaches 0 kills its own options.
//!
//! Nothing else is kept: no count of options per item. Each node counts the
//! live options of each item still open by `count_ones`, as it scans for
//! the item to branch on (a few dozen words per item where a problem has a
//! few hundred options); a node of dancing cells, where an option of Knuth's
//! MOTLEY-DLX holds a dozen items and each hides its options one by one,
//! costs several times that.
//!
//! The search is Algorithm M as the dancing cells run it (`cellsearch/`),
//! the same tree but for the order of each item's options: the item of
//! least branching degree `len + s - b + 1` (`b` its bound, `s` the least of
//! its slack `hi - lo` and `b`), ties to the smaller `s`, the longer list,
//! then the item nearest the last one branched on; an item of degree 1 with
//! no option left is passed over. The branches of item `i` are its live
//! options in turn, each taken with the ones before it left out (Knuth's
//! "tweaks"), and last, where its lower bound is met, the branch that gives
//! `i` nothing more. Each level keeps its own frame (live options, bounds),
//! so backing up costs nothing.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::core::bits::{MAX_OPTIONS, MAX_PRIMARY, next_in, numbering, secondary_clashes};
use crate::core::machine::{
    Engine, Limits, MAX_PROBE_DEPTH, MOST_ESTIMATE, Machine, Move, Solve, Step, room,
};
use crate::core::problem::CompiledProblem;
use crate::core::rng::Rng;
use crate::core::stats::Stats;

/// How much more a node's scan may cost than a try of the cells, in the
/// estimates of [`MBits::pays`].
const PAYS: u64 = 2;

/// The tables of a problem, fixed once built.
#[derive(Clone, Debug)]
pub(crate) struct MBits {
    /// Words per set of options.
    w: usize,
    n_primary: usize,
    n_options: usize,
    /// `itemset[i * w..(i + 1) * w]`: the options of primary item `i`.
    itemset: Vec<u64>,
    /// `kill[k * w..(k + 1) * w]`: the options that die with option `k`
    /// (see the module's text), `k` included.
    kill: Vec<u64>,
    /// The primary items of option `k`: `prim[prim_start[k]..prim_start[k + 1]]`.
    prim: Vec<u32>,
    prim_start: Vec<u32>,
    /// Each primary item's upper bound and slack (`hi - lo`).
    hi: Vec<u32>,
    slack: Vec<u32>,
    /// Option number in the problem of each internal option number.
    external: Vec<u32>,
    /// Internal number of each option of the problem.
    internal: Vec<u32>,
}

impl MBits {
    /// Can `p` be searched by Algorithm M on bitsets: multiplicities, and
    /// options and primary items in the bitset search's bounds?
    pub fn suits(p: &CompiledProblem) -> bool {
        p.has_multiplicities() && p.n_options() <= MAX_OPTIONS && p.n_primary() <= MAX_PRIMARY
    }

    /// Should a search of `p` run here rather than on dancing cells (the
    /// automatic choice)? Where it suits and a node's scan, a set of `w`
    /// words for each primary item, is at most [`PAYS`] times what a try
    /// costs the cells, estimated as the lengths of the items of an average
    /// option (each one's options are hidden). Measured by
    /// `benchmarks/mcc_bits.py` (docs/notes/benchmark-notebook.md, "Late (2026-11-27)"): Knuth's
    /// MOTLEY-DLX 6 7 scans 477 words a node where a try hides some 981
    /// options (0.49), and its search is 2.7x faster here; QUEENDOM-DLX 8 5
    /// (0.10) 1.4x, tilings with multiplicities (1.0) 3-4x. Akari boards
    /// have many items, each in a few options: at 1.1-2.2 the two tie or
    /// the bitsets win, at 3.5 the cells are 1.2x faster, at 7.5 1.4x. The
    /// estimate misses REDRECT-DLX 4 5 (0.64), 1.4x slower here: its naming
    /// items of bounds 0:n stay open, scanned at every node, where the cells
    /// hide a dozen options a try.
    pub fn pays(p: &CompiledProblem) -> bool {
        if !MBits::suits(p) {
            return false;
        }
        let (m, n1) = (p.n_options() as u64, p.n_primary() as u64);
        let w = m.div_ceil(64).max(1);
        let mut len = vec![0u64; p.n_items()];
        for &i in p.option_item() {
            len[i as usize] += 1;
        }
        let hidden: u64 = len.iter().map(|l| l * l).sum();
        n1 * w * m <= PAYS * hidden
    }

    /// Does a search of `p` with `engine` run here (else on dancing cells)?
    /// Automatically where it pays, and where it suits when bitsets are
    /// asked for.
    pub fn chosen(engine: Engine, p: &CompiledProblem) -> bool {
        match engine {
            Engine::Auto => MBits::pays(p),
            Engine::Bits => MBits::suits(p),
            Engine::Cells | Engine::CellsBy(_) => false,
        }
    }

    /// The tables of `p` (which must suit); with `rng`, options are numbered
    /// in a random order, so that each item tries its options in that order.
    pub fn new(p: &CompiledProblem, rng: Option<&mut Rng>) -> MBits {
        let m = p.n_options();
        let n1 = p.n_primary();
        let w = m.div_ceil(64).max(1);
        let external = numbering(m, rng);
        let mut internal = vec![0u32; m];
        for (k, &o) in external.iter().enumerate() {
            internal[o as usize] = k as u32;
        }
        let (hi, lo) = (p.hi().to_vec(), p.lo());
        let slack: Vec<u32> = hi.iter().zip(lo).map(|(h, l)| h - l).collect();
        let mut itemset = vec![0u64; n1 * w];
        let mut prim = Vec::new();
        let mut prim_start = vec![0u32];
        let mut secondary: Vec<Vec<(u32, u32)>> = vec![Vec::new(); p.n_secondary()];
        for k in 0..m {
            let o = external[k] as usize;
            let start = p.option_start()[o] as usize;
            for (j, &i) in p.option(o).iter().enumerate() {
                let i = i as usize;
                if i < n1 {
                    itemset[i * w + k / 64] |= 1 << (k % 64);
                    prim.push(i as u32);
                } else {
                    secondary[i - n1].push((k as u32, p.color_at(start + j)));
                }
            }
            prim_start.push(prim.len() as u32);
        }
        let mut kill = vec![0u64; m * w];
        for k in 0..m {
            let row = &mut kill[k * w..(k + 1) * w];
            for &i in &prim[prim_start[k] as usize..prim_start[k + 1] as usize] {
                if hi[i as usize] == 1 {
                    let set = &itemset[i as usize * w..(i as usize + 1) * w];
                    row.iter_mut().zip(set).for_each(|(r, s)| *r |= s);
                }
            }
            row[k / 64] |= 1 << (k % 64);
        }
        secondary_clashes(&mut kill, w, &mut secondary);
        MBits {
            w,
            n_primary: n1,
            n_options: m,
            itemset,
            kill,
            prim,
            prim_start,
            hi,
            slack,
            external,
            internal,
        }
    }

    /// The options of primary item `i`.
    #[inline(always)]
    fn set(&self, i: usize) -> &[u64] {
        &self.itemset[i * self.w..(i + 1) * self.w]
    }

    /// The primary items of internal option `k`.
    #[inline(always)]
    fn prim(&self, k: usize) -> &[u32] {
        &self.prim[self.prim_start[k] as usize..self.prim_start[k + 1] as usize]
    }
}

/// Takes the options of `set` out of `live`; how many were live.
#[inline(always)]
fn kill(live: &mut [u64], set: &[u64]) -> u32 {
    let mut dead = 0;
    for (l, &x) in live.iter_mut().zip(set) {
        dead += (*l & x).count_ones();
        *l &= !x;
    }
    dead
}

/// `choice` of a level before its first branch.
const BEFORE: u32 = u32::MAX;
/// `choice` of a level on its last branch, the one that gives its item
/// nothing more.
const NULL: u32 = u32::MAX - 1;
/// What [`MBitSearch::choose`] returns when every open item's lower bound is
/// met and none has an option left: a solution.
const ALL_MET: (u32, u32) = (u32::MAX, 0);

/// A level of the search: the item it branches on, its degree, the branch
/// being explored (an internal option, [`BEFORE`] or [`NULL`]) and how many
/// branches have been taken.
#[derive(Clone, Copy, Debug, Default)]
struct Level {
    best: u32,
    deg: u32,
    choice: u32,
    tried: u32,
}

/// Where the search stands between two slices: a position in Knuth's steps
/// of Algorithm M (`Forward` M2-M3, `Advance` M5-M7, `DoneWithLevel` M8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Forward,
    Advance,
    DoneWithLevel,
    Done,
}

/// Algorithm M on the tables of [`MBits`], resumable like the other machines.
#[derive(Clone, Debug)]
pub(crate) struct MBitSearch {
    problem: Arc<CompiledProblem>,
    bits: Arc<MBits>,
    /// `live[l * w..(l + 1) * w]`: the options still available at level `l`
    /// (frames are added as the search goes deeper).
    live: Vec<u64>,
    /// `bound[l * n..(l + 1) * n]`: what each primary item may still take at
    /// level `l` (0: closed).
    bound: Vec<u32>,
    lv: Vec<Level>,
    /// The (internal) options forced before the search, all on level 1.
    forced: Vec<u32>,
    /// The item of the last choice that was not forced (ties go to the item
    /// nearest it).
    anchor: u32,
    level: usize,
    base: usize,
    state: State,
    sol_len: usize,
    /// The counters: nodes, updates (options killed), mems (words copied
    /// and scanned), solutions, the deepest level.
    tally: Stats,
    rng: Option<Rng>,
}

impl MBitSearch {
    pub fn new(problem: Arc<CompiledProblem>, seed: Option<u64>) -> MBitSearch {
        let mut rng = seed.map(Rng::new);
        let bits = MBits::new(&problem, rng.as_mut());
        let (w, n) = (bits.w, bits.n_primary);
        let depth = 2;
        let mut live = vec![0u64; depth * w];
        for k in 0..bits.n_options {
            live[k / 64] |= 1 << (k % 64);
        }
        let mut bound = vec![0u32; depth * n];
        bound[..n].copy_from_slice(&bits.hi);
        MBitSearch {
            problem,
            bits: Arc::new(bits),
            live,
            bound,
            lv: vec![Level::default(); depth],
            forced: Vec::new(),
            anchor: 0,
            level: 0,
            base: 0,
            state: State::Forward,
            sol_len: 0,
            tally: Stats::default(),
            rng,
        }
    }

    /// Makes room for frame `f` (frames are added as the search goes
    /// deeper: the deepest path is rarely near its bound, an option or an
    /// item closed per level).
    #[inline(always)]
    fn room(&mut self, f: usize) {
        if self.lv.len() <= f {
            self.grow(f);
        }
    }

    #[cold]
    fn grow(&mut self, f: usize) {
        let depth = (f + 1).max(2 * self.lv.len());
        self.live.resize(depth * self.bits.w, 0);
        self.bound.resize(depth * self.bits.n_primary, 0);
        self.lv.resize(depth, Level::default());
    }

    /// Writes level `l`'s frame into level `l + 1`'s.
    #[inline(always)]
    fn copy_frame(&mut self, l: usize) {
        self.room(l + 1);
        let (w, n) = (self.bits.w, self.bits.n_primary);
        self.live.copy_within(l * w..(l + 1) * w, (l + 1) * w);
        self.bound.copy_within(l * n..(l + 1) * n, (l + 1) * n);
        self.tally.mems += (w + n) as u64;
    }

    /// Takes option `k` on frame `f`, in place: the options it kills die,
    /// each of its primary items takes one, and an item that has taken its
    /// upper bound kills its own options.
    #[inline(always)]
    fn take(&mut self, f: usize, k: usize) {
        let bits = &*self.bits;
        let (w, n) = (bits.w, bits.n_primary);
        let live = &mut self.live[f * w..(f + 1) * w];
        let bound = &mut self.bound[f * n..(f + 1) * n];
        let mut dead = kill(live, &bits.kill[k * w..(k + 1) * w]);
        for &i in bits.prim(k) {
            let b = &mut bound[i as usize];
            *b -= 1;
            if *b == 0 && bits.hi[i as usize] > 1 {
                dead += kill(live, bits.set(i as usize));
            }
        }
        self.tally.updates += dead as u64;
    }

    /// Closes primary item `i` on frame `f`: it takes nothing more.
    fn close(&mut self, f: usize, i: usize) {
        let bits = &*self.bits;
        let (w, n) = (bits.w, bits.n_primary);
        let dead = kill(&mut self.live[f * w..(f + 1) * w], bits.set(i));
        self.bound[f * n + i] = 0;
        self.tally.updates += dead as u64;
    }

    /// The branch of level `l` that takes option `k` of item `i`, the
    /// options of `i` before it left out: level `l + 1`'s frame.
    #[inline(always)]
    fn commit(&mut self, l: usize, i: usize, k: usize) {
        self.copy_frame(l);
        let w = self.bits.w;
        let below = &mut self.live[(l + 1) * w..(l + 2) * w];
        let set = self.bits.set(i);
        for j in 0..k / 64 {
            below[j] &= !set[j];
        }
        below[k / 64] &= !(set[k / 64] & ((1u64 << (k % 64)) - 1));
        self.take(l + 1, k);
    }

    /// The last branch of level `l`, which gives item `i` nothing more.
    fn commit_null(&mut self, l: usize, i: usize) {
        self.copy_frame(l);
        self.close(l + 1, i);
    }

    /// The primary item to branch on at level `l`, by the rule of the
    /// module's text, with its branching degree: degree 0 at a dead end,
    /// [`ALL_MET`] at a solution. An item of degree 1 is taken as soon as
    /// it is seen (a forced move). With a random order, exact ties go to a
    /// random one.
    #[inline(always)]
    fn choose(&mut self, l: usize) -> (u32, u32) {
        let bits = &*self.bits;
        let (w, n) = (bits.w, bits.n_primary);
        let live = &self.live[l * w..(l + 1) * w];
        let bound = &self.bound[l * n..(l + 1) * n];
        let anchor = self.anchor;
        let (mut best, mut key) = ALL_MET;
        let mut best_key = u64::MAX;
        let mut ties = 0u64;
        let mut scanned = 0u64;
        for (i, &b) in bound.iter().enumerate() {
            if b == 0 {
                continue;
            }
            scanned += 1;
            let c: u32 = live
                .iter()
                .zip(&bits.itemset[i * w..(i + 1) * w])
                .map(|(a, s)| (a & s).count_ones())
                .sum();
            let s = bits.slack[i].min(b);
            let need = b - s;
            if c < need {
                self.tally.mems += scanned * w as u64;
                return (i as u32, 0);
            }
            let t = c - need + 1;
            if t == 1 {
                if c == 0 {
                    continue; // nothing to force: passed over
                }
                self.tally.mems += scanned * w as u64;
                return (i as u32, 1);
            }
            // Degree (13 bits: at most 4,097), slack (clamped to 10 bits),
            // then more options (13 bits), then nearer the anchor (16 bits).
            let this = (t as u64) << 40
                | (s.min(1023) as u64) << 30
                | (8191 - c as u64) << 16
                | (i as u32).abs_diff(anchor) as u64;
            if this < best_key {
                (best, key, best_key, ties) = (i as u32, t, this, 1);
            } else if this == best_key
                && let Some(rng) = self.rng.as_mut()
            {
                ties += 1;
                if rng.below(ties) == 0 {
                    (best, key) = (i as u32, t);
                }
            }
        }
        self.tally.mems += scanned * w as u64;
        if best != ALL_MET.0 {
            self.anchor = best;
        }
        (best, key)
    }

    /// How many of the `deg` branches on item `i` at level `l` take an
    /// option (the rest, if any, is the one that gives `i` nothing more).
    fn option_branches(&self, l: usize, i: u32, deg: u32) -> u32 {
        let b = self.bound[l * self.bits.n_primary + i as usize];
        if b <= self.bits.slack[i as usize] {
            deg - 1 // the lower bound is met: the last branch is null
        } else {
            deg
        }
    }

    /// The live options of level `l`'s item before internal option `k`
    /// (all of them for [`NULL`]), as the problem numbers them.
    fn tried_before(&self, l: usize, k: u32) -> Vec<u32> {
        let w = self.bits.w;
        let (live, set) = (
            &self.live[l * w..(l + 1) * w],
            self.bits.set(self.lv[l].best as usize),
        );
        let mut out = Vec::new();
        let mut after = None;
        while let Some(x) = next_in(set, live, after) {
            if k != NULL && x >= k as usize {
                break;
            }
            out.push(self.bits.external[x]);
            after = Some(x);
        }
        out
    }

    /// Algorithm M, Knuth's steps M2-M8 on bitsets. Each level works on its
    /// own frame, written from the level above when a branch is taken:
    /// covering is that copy, and uncovering is nothing at all.
    fn search<const COUNT: bool>(&mut self, limits: Limits, target: u64) -> Step {
        let w = self.bits.w;
        let mut level = self.level;
        let mut state = self.state;
        loop {
            match state {
                State::Forward => {
                    // M2: enter level l (pausing first if a budget is reached).
                    if self.tally.nodes >= limits.nodes || self.tally.updates >= limits.updates {
                        self.level = level;
                        self.state = State::Forward;
                        return Step::Paused;
                    }
                    self.tally.nodes += 1;
                    self.tally.max_level = self.tally.max_level.max(level as u64);
                    // M3: choose the item i.
                    let (i, t) = self.choose(level);
                    if (i, t) == ALL_MET {
                        self.sol_len = level;
                        self.tally.solutions += 1;
                        state = State::DoneWithLevel;
                        if !COUNT || self.tally.solutions >= target {
                            self.level = level;
                            self.state = state;
                            return if COUNT { Step::Paused } else { Step::Solution };
                        }
                        continue;
                    }
                    if t == 0 {
                        state = State::DoneWithLevel; // a dead end
                        continue;
                    }
                    self.lv[level] = Level {
                        best: i,
                        deg: t,
                        choice: BEFORE,
                        tried: 0,
                    };
                    state = State::Advance;
                }
                State::Advance => {
                    // M5-M7: the next branch of level l, its frame written
                    // for level l + 1; none left: M8.
                    let lv = self.lv[level];
                    let i = lv.best as usize;
                    if lv.choice == NULL {
                        state = State::DoneWithLevel;
                        continue;
                    }
                    if lv.tried < self.option_branches(level, lv.best, lv.deg) {
                        let after = (lv.choice != BEFORE).then_some(lv.choice as usize);
                        let k = next_in(
                            self.bits.set(i),
                            &self.live[level * w..(level + 1) * w],
                            after,
                        )
                        .expect("the degree counts the options left");
                        self.lv[level].choice = k as u32;
                        self.lv[level].tried += 1;
                        self.commit(level, i, k);
                    } else if lv.tried < lv.deg {
                        self.lv[level].choice = NULL;
                        self.lv[level].tried += 1;
                        self.commit_null(level, i);
                    } else {
                        state = State::DoneWithLevel;
                        continue;
                    }
                    level += 1;
                    state = State::Forward;
                }
                State::DoneWithLevel => {
                    // M8: leave level l; at the base level, the search is over.
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

    /// Makes level 1 the working frame of forced and excluded options.
    fn base_frame(&mut self) {
        if self.base == 0 {
            self.copy_frame(0);
            self.level = 1;
            self.base = 1;
        }
    }

    /// The internal number of option `o`, if it is live where the search
    /// will start (which it must not have done: options are forced and
    /// excluded before it).
    fn live_before_start(&self, o: u32) -> Option<usize> {
        assert!(
            self.level == self.base && self.state == State::Forward && self.tally.nodes == 0,
            "options can only be forced or excluded before the search starts"
        );
        let k = *self.bits.internal.get(o as usize)? as usize;
        let f = self.level;
        (self.live[f * self.bits.w + k / 64] >> (k % 64) & 1 == 1).then_some(k)
    }

    /// [`Machine::probe`]'s walk down from the current level.
    fn walk(&mut self, rng: &mut Rng) -> f64 {
        let w = self.bits.w;
        let (mut total, mut width) = (1.0f64, 1.0f64);
        let mut l = self.level;
        loop {
            if l - self.level >= MAX_PROBE_DEPTH {
                return total;
            }
            let (i, t) = self.choose(l);
            if (i, t) == ALL_MET || t == 0 {
                return total;
            }
            width *= t as f64;
            total += width;
            if total >= MOST_ESTIMATE {
                return MOST_ESTIMATE;
            }
            let r = rng.below(t as u64) as u32;
            if r < self.option_branches(l, i, t) {
                let mut x = None;
                for _ in 0..=r {
                    x = next_in(self.bits.set(i as usize), &self.live[l * w..(l + 1) * w], x);
                }
                let Some(k) = x else { return total };
                self.commit(l, i as usize, k);
            } else {
                self.commit_null(l, i as usize);
            }
            l += 1;
        }
    }
}

impl Solve for MBitSearch {
    fn stats(&self) -> Stats {
        self.tally
    }

    fn is_exhausted(&self) -> bool {
        self.state == State::Done
    }

    fn solution_into(&self, out: &mut Vec<u32>) {
        out.clear();
        out.extend(self.forced.iter().map(|&k| self.bits.external[k as usize]));
        out.extend(
            self.lv[self.base.min(self.sol_len)..self.sol_len]
                .iter()
                .filter(|lv| lv.choice != NULL)
                .map(|lv| self.bits.external[lv.choice as usize]),
        );
    }

    fn force(&mut self, o: u32) -> bool {
        let Some(k) = self.live_before_start(o) else {
            return false;
        };
        // The forced options share level 1, taken there in place.
        self.base_frame();
        self.take(1, k);
        self.forced.push(k as u32);
        true
    }

    fn run(&mut self, limits: Limits) -> Step {
        self.search::<false>(limits, u64::MAX)
    }
}

impl Machine for MBitSearch {
    fn engine(&self) -> Engine {
        Engine::Bits
    }

    /// Back to the state before any search or forcing. Level 0's frame is
    /// never written after construction, so this is only bookkeeping.
    fn reset(&mut self) {
        (self.level, self.base, self.sol_len) = (0, 0, 0);
        self.tally = Stats::default();
        self.state = State::Forward;
        self.forced.clear();
        self.anchor = 0;
    }

    fn problem(&self) -> &Arc<CompiledProblem> {
        &self.problem
    }

    /// Leaves option `o` out of every solution, before the search starts;
    /// false (and no change) if it could not be chosen anyway.
    fn exclude(&mut self, o: u32) -> bool {
        let Some(k) = self.live_before_start(o) else {
            return false;
        };
        self.base_frame();
        self.live[self.bits.w + k / 64] &= !(1 << (k % 64));
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
        (self.base..top)
            .map(|l| {
                let lv = self.lv[l];
                (lv.tried, lv.deg.max(lv.tried))
            })
            .collect()
    }

    /// The unexplored part of a search paused before entering a node: the
    /// node itself, and at each level above it one piece for the branches
    /// not yet taken, which leave out every option tried there (as the
    /// dancing cells' Algorithm M does).
    fn frontier(&self, most: usize) -> Option<Vec<(usize, Vec<Move>)>> {
        assert!(
            self.state == State::Forward,
            "a frontier is taken before entering a node"
        );
        let mut pieces = Vec::new();
        let mut path = Vec::new();
        for l in self.base..self.level {
            let lv = self.lv[l];
            let tweaked = self.tried_before(l, lv.choice);
            path.extend(tweaked.iter().map(|&o| Move::Exclude(o)));
            if lv.choice == NULL {
                continue;
            }
            let o = self.bits.external[lv.choice as usize];
            if lv.tried < lv.deg {
                room(&pieces, most)?;
                let mut rest = path.clone();
                rest.push(Move::Exclude(o));
                pieces.push((l - self.base, rest));
            }
            path.push(Move::Include(o));
        }
        room(&pieces, most)?;
        pieces.push((self.level - self.base, path));
        Some(pieces)
    }

    /// The branches of the node a fresh search starts at: None if that node
    /// is a solution, else the pieces (possibly none: a dead end).
    fn children(&mut self) -> Option<Vec<Vec<Move>>> {
        assert!(self.level == self.base && self.state == State::Forward && self.tally.nodes == 0);
        let l = self.level;
        let anchor = self.anchor;
        let (i, t) = self.choose(l);
        self.anchor = anchor;
        if (i, t) == ALL_MET {
            return None;
        }
        if t == 0 {
            return Some(Vec::new());
        }
        self.lv[l] = Level {
            best: i,
            deg: t,
            choice: BEFORE,
            tried: 0,
        };
        let opts = self.tried_before(l, NULL);
        let branches = self.option_branches(l, i, t) as usize;
        let mut out: Vec<Vec<Move>> = (0..branches)
            .map(|j| {
                let mut piece: Vec<Move> = opts[..j].iter().map(|&o| Move::Exclude(o)).collect();
                piece.push(Move::Include(opts[j]));
                piece
            })
            .collect();
        if branches < t as usize {
            out.push(opts.iter().map(|&o| Move::Exclude(o)).collect());
        }
        Some(out)
    }

    /// One of Knuth's random probes (see the dancing-cells search); the
    /// frames above the current level serve as scratch. Bitsets hold at most
    /// a few thousand options, so a probe is short and `halt` is not watched.
    fn probe(&mut self, rng: &mut Rng, _halt: &AtomicBool, spent: &mut u64) -> Option<f64> {
        let kept = (self.tally.updates, self.tally.mems, self.anchor);
        let estimate = self.walk(rng);
        *spent += self.tally.updates - kept.0;
        (self.tally.updates, self.tally.mems, self.anchor) = kept;
        Some(estimate)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A problem of `n1` primary items of bounds `lo..=hi`, whose options
    /// are the runs of `len` consecutive items (wrapping around).
    fn runs(n1: u32, len: u32, lo: u32, hi: u32) -> CompiledProblem {
        let (mut start, mut item) = (vec![0u32], Vec::new());
        for a in 0..n1 {
            item.extend((0..len).map(|k| (a + k) % n1));
            start.push(item.len() as u32);
        }
        let n = n1 as usize;
        CompiledProblem::new(n1, 0, vec![lo; n], vec![hi; n], start, item, vec![]).unwrap()
    }

    #[test]
    fn long_options_pay_and_many_short_ones_do_not() {
        // Options of 12 items in 48: a try hides 12 * 12 entries, a node
        // scans 48 words.
        assert!(MBits::pays(&runs(48, 12, 1, 2)));
        // Options of 2 items in 1,000: a try hides 4 entries, a node scans
        // 1,000 items of 16 words.
        let short = runs(1000, 2, 1, 2);
        assert!(MBits::suits(&short) && !MBits::pays(&short));
        assert!(MBits::chosen(Engine::Bits, &short) && !MBits::chosen(Engine::Auto, &short));
        // Without multiplicities: not Algorithm M's.
        assert!(!MBits::suits(&runs(48, 12, 1, 1)));
    }

    #[test]
    fn counts_and_lists_what_the_cells_do() {
        // Every item covered one to three times by runs of 3 of 9 items:
        // against the dancing cells, in the given and a random order, and
        // in slices of one node each.
        let p = Arc::new(runs(9, 3, 1, 3));
        let mut cells = crate::search::cellsearch::CellSearch::new_until(
            p.clone(),
            None,
            None,
            &AtomicBool::new(false),
        )
        .unwrap();
        let want = cells.all_solutions().len() as u64;
        assert!(want > 10);
        for seed in [None, Some(3)] {
            let mut s = MBitSearch::new(p.clone(), seed);
            let mut got = 0;
            while s.run(Limits::NONE) == Step::Solution {
                let mut one = Vec::new();
                s.solution_into(&mut one);
                assert!(p.is_solution(&one), "{one:?}");
                got += 1;
            }
            assert_eq!(got, want);
            let mut s = MBitSearch::new(p.clone(), seed);
            let mut nodes = 0;
            while s.count(
                Limits {
                    nodes: nodes + 1,
                    updates: u64::MAX,
                },
                u64::MAX,
            ) == Step::Paused
            {
                nodes = s.stats().nodes;
            }
            assert_eq!(s.stats().solutions, want);
        }
    }
}
