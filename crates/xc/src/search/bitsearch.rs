//! Algorithms X and C on the bit tables of [`crate::core::bits`]: the
//! search itself, resumable like the dancing-cells search (see `front.rs`
//! for the state machine). The tables and the moves they allow are in the
//! core, where counting and cost take them too.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::core::bitmasks::{first_equal, none_over_one};
use crate::core::bits::{Bits, COVERED, Count, apply, next_option, rank};
use crate::core::machine::{
    Engine, Limits, MAX_PROBE_DEPTH, MOST_ESTIMATE, Machine, Move, Solve, Step, room,
};
use crate::core::problem::CompiledProblem;
use crate::core::rng::Rng;
use crate::core::stats::Stats;

/// Algorithms X and C on the tables of [`Bits`], resumable like the
/// dancing-cells search (see `front.rs` for the state machine).
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
    /// `counts[l * f..(l + 1) * f]`, `f` = [`BitSearch::frame`]: live
    /// options of each primary item at level
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
    /// No secondary items: where every uncovered item has one live option,
    /// those options are a solution (see [`BitSearch::search`]).
    tail_whole: bool,
}

impl BitSearch {
    pub fn new(problem: Arc<CompiledProblem>, seed: Option<u64>) -> BitSearch {
        let mut rng = seed.map(Rng::new);
        let bits = Bits::for_search(&problem, rng.as_mut());
        BitSearch::with_bits(problem, bits, rng)
    }

    /// The counts of a level: one per primary item, then the sink of
    /// [`Bits::pad_rows`].
    #[inline(always)]
    fn frame(&self) -> usize {
        self.bits.n_primary + 1
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
        let mut bits = bits;
        bits.pad_rows();
        let depth = bits.n_primary + 2;
        let mut live = vec![0u64; depth * bits.w];
        for k in 0..bits.n_options {
            live[k / 64] |= 1 << (k % 64);
        }
        // Each frame of counts ends with the sink of `pad_rows`.
        let f = bits.n_primary + 1;
        let mut counts: Vec<Count> = vec![COVERED; depth * f];
        counts[..bits.n_primary].copy_from_slice(&bits.counts);
        let mut remaining = vec![0u32; depth];
        remaining[0] = bits.n_primary as u32;
        let tail_whole = problem.n_secondary() == 0;
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
            tail_whole,
        }
    }

    /// Commits option `k` from level `l` into level `l + 1`; with `CHECK`,
    /// stops at the first item left without options (returns false).
    #[inline(always)]
    fn commit_at<const CHECK: bool>(&mut self, l: usize, k: usize) -> bool {
        let (w, n, f) = (self.bits.w, self.bits.n_primary, self.frame());
        self.live.copy_within(l * w..(l + 1) * w, (l + 1) * w);
        self.counts.copy_within(l * f..(l + 1) * f, (l + 1) * f);
        self.mems += (2 * w + n) as u64;
        self.remaining[l + 1] = self.remaining[l];
        self.take_at::<CHECK>(l + 1, k)
    }

    /// Takes option `k` on level `f`'s own frame, in place (see [`apply`]):
    /// its primary items leave the uncovered ones; false at a dead end.
    #[inline(always)]
    fn take_at<const CHECK: bool>(&mut self, f: usize, k: usize) -> bool {
        let (w, n) = (self.bits.w, self.frame());
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
        let (i, t, _) = self.choose_whole(l);
        (i, t)
    }

    /// [`BitSearch::choose`], and whether the live options are one
    /// solution of what is left: each uncovered item has one, found by a
    /// scan of the counts (not the hint), and the problem has no secondary
    /// items (see `tail_whole`).
    #[inline(always)]
    fn choose_whole(&mut self, l: usize) -> (u32, u32, bool) {
        let (n, f) = (self.bits.n_primary, self.frame());
        let counts = &self.counts[l * f..l * f + n];
        // A forced move found by the commit that made this level is as good
        // as any (no count is 0 above the forced levels), and saves the scan.
        let hint = self.hint[l];
        if l > self.base && hint != u32::MAX && counts[hint as usize] == 1 {
            self.mems += 1;
            return (hint, 1, false);
        }
        self.mems += n as u64;
        // The smallest count (a loop the compiler turns into vector minima),
        // then the first item that has it, or a random one among them.
        let t = counts.iter().copied().min().unwrap_or(COVERED);
        let t32 = t as u32;
        // The end of a branch: a scan that finds a 1 after a move that made
        // none (the hint was empty) is often where every item left has one
        // option. Looked at only then, where the counts were just read.
        let whole = t == 1 && self.tail_whole && none_over_one(counts);
        if whole {
            self.mems += n as u64;
        }
        if let Some(rng) = self.rng.as_mut() {
            let ties = counts.iter().filter(|&&c| c == t).count() as u64;
            let pick = rng.below(ties) as usize;
            let best = counts
                .iter()
                .enumerate()
                .filter(|&(_, &c)| c == t)
                .nth(pick)
                .map_or(0, |(i, _)| i);
            return (best as u32, t32, whole);
        }
        let best = first_equal(counts, t);
        (if best < n { best as u32 } else { 0 }, t32, whole)
    }

    /// A solution ends at `level`: the choices of the levels above it and
    /// the forced moves taken. Counted; the step to return with, when the
    /// search stops there (a solution to show, or the count's target met),
    /// leaving the level done.
    #[inline(always)]
    fn solution_at<const COUNT: bool>(&mut self, level: usize, target: u64) -> Option<Step> {
        self.sol_len = level;
        self.solutions += 1;
        if !COUNT || self.solutions >= target {
            self.level = level;
            self.state = State::DoneWithLevel;
            return Some(if COUNT { Step::Paused } else { Step::Solution });
        }
        None
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
                        state = State::DoneWithLevel;
                        if let Some(step) = self.solution_at::<COUNT>(level, target) {
                            return step;
                        }
                        continue;
                    }
                    // X3: choose the item i (X4, covering it, is done by
                    // each option's frame in X5).
                    let (i, t, whole) = self.choose_whole(level);
                    self.best[level] = i;
                    self.deg[level] = t;
                    self.choice[level] = u32::MAX; // before the first option
                    if whole {
                        // Every uncovered item has one live option. No two
                        // of those share an item (it would have two), so
                        // they cover what is left, and with no secondary
                        // items they clash nowhere: one solution, without
                        // the forced moves that would take them one by one
                        // (each a scan of the counts, as no count falls).
                        // A Sudoku count's branches end so.
                        let live = &self.live[level * w..(level + 1) * w];
                        let k: usize = live.iter().map(|x| x.count_ones() as usize).sum();
                        let depth = level + self.absorbed.len() + k;
                        self.max_level = self.max_level.max(depth);
                        if !COUNT {
                            // A solution to show: its options are the forced moves'.
                            for (j, &x) in live.iter().enumerate() {
                                let mut x = x;
                                while x != 0 {
                                    self.absorbed.push((j * 64) as u32 + x.trailing_zeros());
                                    x &= x - 1;
                                }
                            }
                        }
                        state = State::DoneWithLevel;
                        if let Some(step) = self.solution_at::<COUNT>(level, target) {
                            return step;
                        }
                    } else if t == 0 {
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
                            self.max_level = self.max_level.max(level + self.absorbed.len());
                            state = State::DoneWithLevel;
                            if let Some(step) = self.solution_at::<COUNT>(level, target) {
                                return step;
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
            let (w, f) = (self.bits.w, self.frame());
            self.live.copy_within(0..w, w);
            self.counts.copy_within(0..f, f);
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
            let (w, f) = (self.bits.w, self.frame());
            apply::<false>(
                &self.bits,
                &mut self.live[w..2 * w],
                &mut self.counts[f..2 * f],
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
        let f = self.frame();
        self.live[w + k / 64] &= !(1 << (k % 64));
        for &i in self.bits.prim(k) {
            self.counts[f + i as usize] -= 1;
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
    fn frontier(&self, most: usize) -> Option<Vec<(usize, Vec<Move>)>> {
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
                room(&pieces, most)?;
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
        room(&pieces, most)?;
        pieces.push((self.level - self.base, path));
        Some(pieces)
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
#[path = "bitsearch_tests.rs"]
mod tests;
