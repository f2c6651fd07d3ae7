//! Algorithms X, C and M on dancing cells: the general engine.
//!
//! See `search.rs` for the shape of the state machine; this file holds the
//! two loops over the sparse sets of `cells.rs`:
//! * `run_xcc` (Algorithms X and C): every primary item is covered exactly
//!   once, so the branch at each level tries each option of one item.
//! * `run_mcc` (Algorithm M): a primary item may take between `lo` and `hi`
//!   options. Knuth's "tweak" makes each option of the branching item either
//!   the next one it takes, or excluded for the rest of this level; the final
//!   "null" branch, allowed once the lower bound is met, gives it no more.
//!
//! Each loop is generic over `COLORS` (does any option color a secondary
//! item?) and `COUNT` (count solutions instead of stopping at each), so plain
//! exact cover runs code with no color test and no per-solution exit.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::cells::{at, Cells, Counters};
use crate::machine::{
    Engine, Heuristic, Limits, Machine, Move, Solve, Step, MAX_PROBE_DEPTH, MOST_ESTIMATE,
};
use crate::problem::CompiledProblem;
use crate::rng::Rng;
use crate::stats::Stats;

/// The "no option" choice of Algorithm M's null branch.
const NULL: u32 = u32::MAX;

/// At most this many items in every option are looked for (see
/// `CellSearch::universal`): a test on each full item goes through them.
const MOST_UNIVERSAL: usize = 4;

/// Algorithm M's choice when every active item may take nothing more (its
/// lower bound met, no option left): the node is a solution, as if no item
/// were left.
const ALL_MET: (u32, i64) = (u32::MAX, i64::MAX);

/// One search over a compiled problem, with its own copy of the dancing cells.
/// Where the search stands between two slices: a position in Knuth's steps
/// (Algorithms X and C: C2 `Forward` to C8 `DoneWithLevel`; Algorithm M also
/// `Restore`, its step M8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum State {
    Forward,
    Advance,
    Try,
    Backup,
    DoneWithLevel,
    Recover,
    /// Listing the options of the last primary item without covering it.
    Leaf,
    /// Algorithm M: restore the branching item of this level (step M8).
    Restore,
    /// Binary branching: the level's option, tried, is now left out, and
    /// the node below chooses again.
    Exclude,
    Done,
}

/// What a level of the search holds; kept side by side, one level a cache line.
#[derive(Clone, Copy, Debug, Default)]
struct Level {
    /// The node chosen (`NULL` for Algorithm M's null branch).
    choice: u32,
    /// The item branched on.
    best: u32,
    /// Where the level's tries start from (Algorithm M: where the level
    /// starts), as `(trail length, active primaries, end of active secondaries)`.
    mark: (u32, u32, u32),
    /// Algorithm M: where the current try starts (its M7 mark; `mark` is
    /// then its M8 mark).
    tries: (u32, u32, u32),
    /// Algorithm M: the size of `best`'s set on entering the level (Knuth's
    /// FT, first tweak), to untweak; also the branching degree, for progress.
    ft: u32,
    deg: u32,
    /// Algorithm M: how many options of `best` were tweaked, and whether the
    /// level branches plainly (exactly one more option).
    tw: u32,
    plain: bool,
    /// The level has one branch only (a forced move): it saves no mark, its
    /// try starts no epoch, and nothing is set back on leaving it, since the
    /// nearest level above with a choice sets back everything below it (as
    /// SSXCC saves no sizes for a forced move).
    forced: bool,
    /// Binary branching: the level's option is left out (its second
    /// branch), not taken.
    out: bool,
}

/// The levels, indexed without bounds checks in release builds: a level is
/// made (see [`Levels::reach`]) when the search first enters it, before any
/// use, and the debug builds check each index. They grow as needed, so that
/// a copy of a search (a probe) does not copy room for the deepest tree.
#[derive(Clone, Debug)]
struct Levels(Vec<Level>);

impl Levels {
    /// Makes sure level `l` exists.
    #[inline(always)]
    fn reach(&mut self, l: usize) {
        if l >= self.0.len() {
            self.grow(l);
        }
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self, l: usize) {
        let n = (2 * self.0.len()).max(l + 1).max(16);
        self.0.resize(n, Level::default());
    }
}

impl std::ops::Index<usize> for Levels {
    type Output = Level;
    #[inline(always)]
    fn index(&self, l: usize) -> &Level {
        debug_assert!(l < self.0.len());
        unsafe { self.0.get_unchecked(l) }
    }
}

impl std::ops::IndexMut<usize> for Levels {
    #[inline(always)]
    fn index_mut(&mut self, l: usize) -> &mut Level {
        debug_assert!(l < self.0.len());
        unsafe { self.0.get_unchecked_mut(l) }
    }
}

#[derive(Clone, Debug)]
pub(crate) struct CellSearch {
    problem: Arc<CompiledProblem>,
    cells: Cells,
    /// The cells as built, for `reset`.
    initial: Arc<Cells>,
    counters: Counters,
    nodes: u64,
    solutions: u64,
    max_level: usize,
    level: usize,
    /// Levels below `base` hold forced options (see [`Search::force`]).
    base: usize,
    /// What each level holds.
    lv: Levels,
    /// Position in `set` of the next option to try at the current level.
    cur: u32,
    state: State,
    sol_len: usize,
    rng: Option<Rng>,
    mcc: bool,
    colors: bool,
    /// Where in `item` the last scan for a branching item found a forced
    /// one; the next scan starts there (see [`Self::choose_xcc`] and
    /// [`Self::choose_mcc`]).
    scan_from: u32,
    /// Algorithm M: the last item branched on that was not forced (ties
    /// between items go to the nearest one, see [`Self::choose_mcc`]).
    anchor: u32,
    /// Algorithm M: the positions in `item` of the items a scan passed over
    /// (lower bound met, no option left), taken out of the active items
    /// when the scan ends ([`Self::retire_met`]).
    met: Vec<u32>,
    /// Algorithm M: every field of the choice's packed number fits without
    /// clamping (see [`fits_unclamped`]).
    narrow: bool,
    /// Does every primary item have no slack (`lo == hi`)? Then Algorithm
    /// M's choice does not read the slack.
    exact: bool,
    /// Algorithm M: does a try stop as soon as an item is left with fewer
    /// options than it must take (see [`Self::commit_mcc`])? Where some item
    /// has slack: on exact multiplicities (dominoes, every cell twice) it
    /// cut no nodes and cost 14%.
    check: bool,
    /// Algorithm M: the primary items in every option (by base; at most
    /// [`MOST_UNIVERSAL`]), such as QUEENDOM-DLX's count of queens. When one
    /// is full, no option is left: whether the node is a solution is read
    /// from the bounds, where covering it would hide every option left (see
    /// [`Self::commit_mcc`]).
    universal: Vec<u32>,
    /// Algorithm M: the node entered has no option left and every item's
    /// lower bound met (a solution, see `universal`); cleared on leaving it.
    no_options: bool,
    /// The branching rule, when it is not the fewest options, and what it
    /// has learned, if it learns (boxed: the fewest options' search carries
    /// a pointer).
    rule: Option<Heuristic>,
    learned: Option<Box<Learned>>,
}

/// Which loop of Algorithms X and C runs (`run_xcc`'s `RULE`): the
/// fewest options, a rule that learns, binary branching.
const FEWEST: u8 = 0;
const LEARN: u8 = 1;
const BINARY: u8 = 2;

/// What a branching rule that learns from failed tries ([`Heuristic`])
/// knows of each primary item, indexed by the item's base in `set` (Knuth
/// keeps it beside the item's size, in `set` too).
#[derive(Clone, Debug)]
struct Learned {
    rule: Heuristic,
    /// Each item's weight ([`Heuristic::Weighted`], 1 at first) or failure
    /// rate ([`Heuristic::FailureRate`], 1/2 at first): the item's size (or
    /// degree) is divided by it.
    per: Vec<f64>,
    /// [`Heuristic::FailureRate`]: each item's tries so far, plus one.
    tries: Vec<f64>,
}

impl Learned {
    /// What `rule` learns, for items below `pbound`; None for a rule that
    /// learns nothing.
    fn new(rule: Heuristic, pbound: u32) -> Option<Learned> {
        let n = pbound as usize;
        let (per, tries) = match rule {
            Heuristic::Weighted => (vec![1.0; n], Vec::new()),
            Heuristic::FailureRate => (vec![0.5; n], vec![1.0; n]),
            Heuristic::Binary => return None,
        };
        Some(Learned { rule, per, tries })
    }

    /// Back to what nothing has been learned yet.
    fn reset(&mut self) {
        let n = self.per.len() as u32;
        *self = Learned::new(self.rule, n).expect("a rule that learns");
    }

    /// A try of an option of `best` left item `wiped` with too few options.
    #[cold]
    #[inline(never)]
    fn failed(&mut self, best: u32, wiped: u32) {
        match self.rule {
            Heuristic::Weighted => self.per[wiped as usize] += 1.0,
            Heuristic::FailureRate => {
                let (b, fr) = (best as usize, self.per[best as usize]);
                self.tries[b] += 1.0;
                self.per[b] = fr + (1.0 - fr) / self.tries[b];
            }
            Heuristic::Binary => {}
        }
    }

    /// A try of an option of `best` went on to the level below.
    #[inline(always)]
    fn passed(&mut self, best: u32) {
        if self.rule == Heuristic::FailureRate {
            let (b, fr) = (best as usize, self.per[best as usize]);
            self.tries[b] += 1.0;
            self.per[b] = fr - fr / self.tries[b];
        }
    }
}

impl CellSearch {
    /// A search over `problem`, its options shuffled when there is a `seed`,
    /// branching on the fewest options or by another rule (`branching`);
    /// given up (`None`) once `stop` is raised.
    pub fn new_until(
        problem: Arc<CompiledProblem>,
        seed: Option<u64>,
        branching: Option<Heuristic>,
        stop: &AtomicBool,
    ) -> Option<CellSearch> {
        let mut rng = seed.map(Rng::new);
        let mut cells = Cells::new_until(&problem, rng.as_mut(), stop)?;
        if branching == Some(Heuristic::Binary) {
            // Binary branching starts an epoch for each option left out,
            // not for each item covered: a snapshot of every item at each
            // would pass the trail's room (his windmill dominoes did).
            cells.snapshot = false;
        }
        if stop.load(Ordering::Relaxed) {
            return None; // (the copy for `reset` below is as long again)
        }
        let mcc = problem.has_multiplicities();
        let colors = problem.has_colors();
        let narrow = fits_unclamped(&cells);
        let exact = problem.lo() == problem.hi();
        let learned = branching
            .and_then(|rule| Learned::new(rule, cells.pbound))
            .map(Box::new);
        let universal = if mcc {
            let n1 = problem.n_primary();
            cells.item[..n1]
                .iter()
                .copied()
                .filter(|&x| cells.size(x) as usize == problem.n_options())
                .take(MOST_UNIVERSAL)
                .collect()
        } else {
            Vec::new()
        };
        Some(CellSearch {
            problem,
            initial: Arc::new(cells.clone()),
            cells,
            counters: Counters::default(),
            nodes: 0,
            solutions: 0,
            max_level: 0,
            level: 0,
            base: 0,
            lv: Levels(Vec::new()),
            cur: 0,
            state: State::Forward,
            sol_len: 0,
            rng,
            mcc,
            colors,
            scan_from: 0,
            anchor: 0,
            met: Vec::new(),
            narrow,
            exact,
            // A rule that learns from failed tries needs them found.
            check: !exact || learned.is_some(),
            universal,
            no_options: false,
            rule: branching,
            learned,
        })
    }

    /// Does Algorithm X or C branch in two (take the option or leave it
    /// out)? (Algorithm M's tweaks branch so already.)
    fn binary(&self) -> bool {
        !self.mcc && self.rule == Some(Heuristic::Binary)
    }

    /// Chooses the primary item to branch on (step C3), by the search's
    /// rule. Returns `(item, size)`; a size of 0 is a dead end.
    #[inline(always)]
    fn choose_xcc(&mut self, c: &mut Counters) -> (u32, u32) {
        self.choose_xcc_as(self.learned.is_some(), c)
    }

    /// [`Self::choose_xcc`], told whether the rule learns: the search loop
    /// knows it at compile time (its `RULE`), so the loop of the fewest
    /// options tests nothing for it.
    #[inline(always)]
    fn choose_xcc_as(&mut self, learns: bool, c: &mut Counters) -> (u32, u32) {
        if learns || self.rng.is_some() {
            return self.choose_scanning(c);
        }
        self.choose_fewest(c)
    }

    /// [`Self::choose_xcc`] by a scan from where the last forced item was
    /// found, wrapping round: a forced move or a dead end as soon as seen,
    /// else the fewest options, per unit of what the rule learned of the
    /// item when it learns ([`Heuristic`]); exact ties go to a random item
    /// when randomizing, else to the item declared first, as in Knuth's
    /// programs. Starting where the last forced item was found, a chain of
    /// forced moves (100,000 of them on a long Akari row) costs a step each,
    /// not a scan of every item each; and as the order of forced moves does
    /// not change the tree, nothing random is lost.
    #[inline(never)]
    fn choose_scanning(&mut self, c: &mut Counters) -> (u32, u32) {
        let per = self.learned.as_deref().map(|l| &l.per[..]);
        let (cells, rng) = (&self.cells, &mut self.rng);
        let mems = 2 + per.is_some() as u64;
        let active = cells.active;
        let from = scan_start(self.scan_from, active);
        let (mut best, mut t, mut score) = (u32::MAX, u32::MAX, f64::INFINITY);
        let mut ties = 0u64;
        for j in 0..active {
            let k = wrapped(from, j, active);
            let x = at!(cells.item, k);
            let s = cells.size(x);
            if s <= 1 {
                c.mems += mems * (j as u64 + 1);
                self.scan_from = k;
                return (x, s);
            }
            let v = per.map_or(s as f64, |per| s as f64 / per[x as usize]);
            if let Some(rng) = rng.as_mut() {
                if v < score {
                    (best, t, score, ties) = (x, s, v, 1);
                } else if v == score {
                    ties += 1;
                    if rng.below(ties) == 0 {
                        (best, t) = (x, s);
                    }
                }
            } else if v < score || (v == score && x < best) {
                (best, t, score) = (x, s, v);
            }
        }
        c.mems += mems * active as u64;
        (best, t)
    }

    /// Chooses the primary item with the fewest options (Knuth's MRV
    /// heuristic), not randomizing (see [`Self::choose_scanning`] for
    /// that). Returns `(item, size)`; a size of 0 is a dead end.
    #[inline(always)]
    fn choose_fewest(&mut self, c: &mut Counters) -> (u32, u32) {
        let cells = &self.cells;
        let mut t = u32::MAX;
        let mut best = 0;
        // Ties go to the item declared first, as in Knuth's SSXCC (a
        // rule he credits to P. Weigel): problem makers order their
        // items for it (his QUEENS-DLX from the middle out), and where
        // they do the trees shrink: his 12x12 slitherlink from 129M nodes
        // (ties to the last active item) to 67.5M, his 14 queens from
        // 6.1M to 4.1M. A dead end or a forced move is taken as soon as
        // it is seen, the scan going down from where the last one was
        // found, then from the end: a chain of forced moves is local. (On
        // Knuth's indicator problem, whose 729 levels are nearly all
        // forced, the count took 12.2 s this way, 14.0 s scanning from the
        // end each time.) After a level that was not forced, the scan
        // starts from the end again. Where no item is forced, the whole
        // list is scanned and the tie rule is the whole scan's.
        let active = cells.active;
        // Down from the last forced item (`from` is one past it), then from the end.
        let from = if self.scan_from < active {
            self.scan_from + 1
        } else {
            active
        };
        for (start, end, before) in [(0, from, 0), (from, active, from)] {
            let mut k = end;
            while k > start {
                k -= 1;
                let x = at!(cells.item, k);
                let s = cells.size(x);
                if s <= 1 {
                    c.mems += 2 * (before + end - k) as u64;
                    self.scan_from = k;
                    return (x, s);
                }
                // Without a branch on the comparison (a new least size is
                // seen at random places of the scan, so it was mispredicted).
                let better = s < t || (s == t && x < best);
                t = if better { s } else { t };
                best = if better { x } else { best };
            }
        }
        self.scan_from = u32::MAX; // no chain: the next scan from the end
        c.mems += 2 * cells.active as u64;
        (best, t)
    }

    /// Covers item `x` (step C4, or M4 and M6 when a bound is used up): it
    /// leaves the active items and its options are hidden from all other sets.
    /// With `WHOLE` and long options, from its own set too (see
    /// [`Cells::hide_whole`]): only where nothing walks that set afterwards,
    /// not for the item a level branches on.
    #[inline(always)]
    fn cover<const TRAIL: bool, const BOUNDS: bool, const CHECK: bool, const WHOLE: bool>(
        &mut self,
        x: u32,
        c: &mut Counters,
    ) -> bool {
        let cells = &mut self.cells;
        let k = cells.pos(x);
        if x < cells.pbound {
            cells.deactivate(x, k);
        } else {
            cells.deactivate_secondary(x, k);
        }
        let end = x + cells.size(x);
        c.mems += 5 + (end - x) as u64;
        if WHOLE && cells.long_options {
            cells.hide_each::<TRAIL, CHECK, BOUNDS, true>(x, end, c)
        } else {
            cells.hide_each::<TRAIL, CHECK, BOUNDS, false>(x, end, c)
        }
    }

    /// Takes the option of node `cur` into the solution (step C5, "cover all
    /// other items of x_l"): its items leave the active ones, then the options
    /// of the uncolored ones are hidden, and the colored secondary ones are
    /// purified (their options of other colors hidden) unless an earlier
    /// choice purified them already.
    ///
    /// With `CHECK`, it stops as soon as some other active primary item is
    /// left with no option, and returns false; the caller then restores the
    /// epoch. Most nodes of a tiling search are such dead ends (two thirds of
    /// them on the pentominoes), and this skips the rest of their covering
    /// and the visit of the empty node.
    ///
    /// Long options (more than 4 items on average) are hidden whole, walked
    /// from their first node (see [`Cells::hide_whole`]); short ones from the
    /// node after the one met, as Knuth's programs do.
    #[inline(always)]
    fn commit<const COLORS: bool, const TRAIL: bool, const CHECK: bool>(
        &mut self,
        cur: u32,
        c: &mut Counters,
    ) -> bool {
        if self.cells.long_options {
            self.commit_as::<COLORS, TRAIL, CHECK, true>(cur, c)
        } else {
            self.commit_as::<COLORS, TRAIL, CHECK, false>(cur, c)
        }
    }

    /// [`Self::commit`], with `WHOLE` saying how options are hidden. Kept out
    /// of line: inlined into the search loop, its hide loop lost its
    /// registers to the loop around it (the base of `set` was reloaded from
    /// the stack five times an update), and the pentominoes took 10% longer;
    /// and one body for both ways of hiding took the pentominoes 6x10 13%
    /// longer (3.13 s against 2.75 s).
    #[inline(never)]
    fn commit_as<const COLORS: bool, const TRAIL: bool, const CHECK: bool, const WHOLE: bool>(
        &mut self,
        cur: u32,
        c: &mut Counters,
    ) -> bool {
        let cells = &mut self.cells;
        let (pbound, osactive) = (cells.pbound, cells.sactive);
        let mut pp = cur + 1;
        while pp != cur {
            let cc = at!(cells.nd, pp).itm;
            if cc <= 0 {
                pp = (pp as i32 + cc) as u32;
                continue;
            }
            let cc = cc as u32;
            let k = cells.pos(cc);
            if cc < pbound {
                cells.deactivate(cc, k);
            } else if k < osactive {
                cells.deactivate_secondary(cc, k);
            }
            c.mems += 4;
            pp += 1;
        }
        let mut pp = cur + 1;
        while pp != cur {
            let cc = at!(cells.nd, pp).itm;
            if cc <= 0 {
                pp = (pp as i32 + cc) as u32;
                continue;
            }
            let cc = cc as u32;
            c.mems += 1;
            if cc >= pbound && cells.pos(cc) >= osactive {
                pp += 1; // purified by an earlier choice (to this color)
                continue;
            }
            let end = cc + cells.size(cc);
            c.mems += 1 + (end - cc) as u64;
            if !COLORS || cc < pbound || at!(cells.clr, pp) == 0 {
                // Long options (`WHOLE`): each is walked whole, from its
                // first node, with no spacer to step over.
                if !cells.hide_each::<TRAIL, CHECK, false, WHOLE>(cc, end, c) {
                    return false;
                }
            } else {
                let color = at!(cells.clr, pp);
                if !cells.purify::<TRAIL, CHECK, false>(cc, color, c) {
                    return false;
                }
            }
            pp += 1;
        }
        true
    }

    /// Sets level `level`'s state back to how it was before its current try:
    /// the sizes saved on the trail and the active items.
    #[inline(always)]
    fn restore(&mut self, level: usize, c: &mut Counters) {
        let (mark, active, sactive) = self.lv[level].mark;
        self.cells.restore::<false>(mark as usize, c);
        self.cells.active = active;
        self.cells.sactive = sactive;
    }

    fn save(&mut self, level: usize, state: State, c: Counters) {
        self.level = level;
        self.state = state;
        self.counters = c;
    }

    /// Step 2 of Algorithms C and M (C2, M2), the same in both: enter
    /// `level`, pausing first (the place saved) if a budget of `limits` is
    /// reached; with no primary item left, a solution: reported (or, when
    /// counting, a pause once `target` is reached), else `state` becomes
    /// [`State::DoneWithLevel`] and the count goes on. `Some(step)`: return it.
    #[inline(always)]
    fn enter<const COUNT: bool>(
        &mut self,
        level: usize,
        state: &mut State,
        c: Counters,
        limits: Limits,
        target: u64,
    ) -> Option<Step> {
        if self.nodes >= limits.nodes || c.updates >= limits.updates {
            self.save(level, State::Forward, c);
            return Some(Step::Paused);
        }
        self.nodes += 1;
        self.lv.reach(level);
        if level > self.max_level {
            self.max_level = level;
        }
        if self.cells.active == 0 {
            return self.visit::<COUNT>(level, state, c, target);
        }
        None
    }

    /// The node entered at `level` is a solution: count it, and pause (or
    /// hand it out) if the caller wants it.
    fn visit<const COUNT: bool>(
        &mut self,
        level: usize,
        state: &mut State,
        c: Counters,
        target: u64,
    ) -> Option<Step> {
        self.sol_len = level;
        self.solutions += 1;
        *state = State::DoneWithLevel;
        if !COUNT || self.solutions >= target {
            self.save(level, *state, c);
            return Some(if COUNT { Step::Paused } else { Step::Solution });
        }
        None
    }

    /// Algorithms X and C, branching by `RULE`: on each option of the item
    /// with the fewest options ([`FEWEST`]) or of the one a learning rule
    /// chooses ([`LEARN`]), or in two ([`BINARY`]; Knuth's SSXCC-BINARY: the
    /// first option of the item with the fewest options, taken, then left
    /// out). A copy of the loop each, so that the fewest options' loop has
    /// no test for the others.
    fn run_xcc<const COLORS: bool, const COUNT: bool, const RULE: u8>(
        &mut self,
        limits: Limits,
        target: u64,
    ) -> Step {
        self.cells.make_room();
        let mut c = self.counters;
        let mut level = self.level;
        let mut state = self.state;
        let mut cur = self.cur;
        let mut best = self.lv.0.get(level).map_or(0, |l| l.best);
        if state == State::Recover {
            // Resuming after a solution: the level's choice tells where we were.
            let node = self.lv[level].choice;
            best = at!(self.cells.nd, node).itm as u32;
            cur = at!(self.cells.nd, node).loc;
        }
        loop {
            match state {
                State::Forward => {
                    // C2: enter level l (pausing first if a budget is reached).
                    // (No primary item left is only reachable when forced
                    // options cover everything.)
                    if let Some(step) = self.enter::<COUNT>(level, &mut state, c, limits, target) {
                        return step;
                    }
                    if state == State::DoneWithLevel {
                        continue;
                    }
                    // C3: choose the item i.
                    let (x, t) = self.choose_xcc_as(RULE == LEARN, &mut c);
                    best = x;
                    self.lv[level].best = x;
                    if RULE == BINARY {
                        self.lv[level].out = false;
                    }
                    if t == 0 {
                        // Item x was left empty by covering the item above
                        // (which tries do not check): a failed try there.
                        if RULE == LEARN && level > self.base {
                            self.cells.wiped = x;
                            self.learn_failure(self.lv[level - 1].best);
                        }
                        state = State::DoneWithLevel;
                    } else if self.cells.active == 1 {
                        // The last primary item: each of its options completes
                        // a solution, since every option still listed is
                        // compatible with the choices made, and no two of them
                        // can go together. No need to cover anything.
                        if level + 1 > self.max_level {
                            self.max_level = level + 1;
                        }
                        if COUNT {
                            self.solutions += t as u64;
                            state = State::DoneWithLevel;
                            if self.solutions >= target {
                                self.save(level, state, c);
                                return Step::Paused;
                            }
                        } else {
                            cur = x;
                            state = State::Leaf;
                        }
                    } else if RULE == BINARY && t > 1 {
                        // Two branches: i's first option, taken (i covered)
                        // then left out; both start from the level's mark.
                        self.lv[level].forced = false;
                        self.lv[level].mark = self.mark_now();
                        self.cells.new_epoch();
                        self.cover::<true, false, false, false>(x, &mut c);
                        cur = x;
                        state = State::Try;
                    } else {
                        // C4: cover i; its tries will each start from here.
                        self.cover::<true, false, false, false>(x, &mut c);
                        self.lv[level].forced = t == 1;
                        if t > 1 {
                            self.lv[level].mark = self.mark_now();
                        }
                        cur = x;
                        state = State::Try;
                    }
                }
                State::Leaf => {
                    // (Not a step of Knuth's: the last item's options, each a
                    // solution, listed without covering anything.)
                    if cur >= best + self.cells.size(best) {
                        state = State::DoneWithLevel;
                        continue;
                    }
                    if COUNT {
                        self.solutions += (best + self.cells.size(best) - cur) as u64;
                        state = State::DoneWithLevel;
                        continue;
                    }
                    self.lv[level].choice = at!(self.cells.set, cur);
                    cur += 1;
                    self.sol_len = level + 1;
                    self.solutions += 1;
                    self.cur = cur;
                    self.save(level, State::Leaf, c);
                    return Step::Solution;
                }
                State::Advance => {
                    // C5, its test: every option of i tried? Then C7.
                    if cur >= best + self.cells.size(best) {
                        state = State::Backup;
                        continue;
                    }
                    // A pause between two tries when the updates are spent:
                    // on a big problem, the failed tries of one level (each
                    // hiding thousands of options) can take a second
                    // without entering a node, where the other pauses are.
                    if c.updates >= limits.updates {
                        self.cur = cur;
                        self.save(level, State::Advance, c);
                        return Step::Paused;
                    }
                    state = State::Try;
                }
                State::Try => {
                    // C5: try x_l, committing its other items; then C2 at level l + 1.
                    let node = at!(self.cells.set, cur);
                    self.lv[level].choice = node;
                    let forced = self.lv[level].forced;
                    if !forced && RULE != BINARY {
                        self.cells.new_epoch();
                    }
                    if !self.commit::<COLORS, true, true>(node, &mut c) {
                        if RULE == LEARN {
                            self.learn_failure(best);
                        }
                        if RULE == BINARY && !forced {
                            state = State::Exclude;
                            continue;
                        }
                        if !forced {
                            self.restore(level, &mut c);
                        }
                        cur += 1;
                        state = State::Advance;
                        continue;
                    }
                    if RULE == LEARN {
                        self.learn_success(best);
                    }
                    if self.cells.active == 0 {
                        self.sol_len = level + 1;
                        self.solutions += 1;
                        if level + 1 > self.max_level {
                            self.max_level = level + 1;
                        }
                        state = State::Recover;
                        if !COUNT || self.solutions >= target {
                            self.save(level, state, c);
                            return if COUNT { Step::Paused } else { Step::Solution };
                        }
                    } else {
                        level += 1;
                        state = State::Forward;
                    }
                }
                State::Backup => {
                    // C7: backtrack. Nothing to uncover: the try of the level
                    // above (C6) sets back what covering i changed.
                    state = State::DoneWithLevel;
                }
                State::DoneWithLevel => {
                    // C8: leave level l; at the base level, the search is over.
                    if level == self.base {
                        self.save(level, State::Done, c);
                        return Step::Exhausted;
                    }
                    level -= 1;
                    if RULE == BINARY && self.lv[level].out {
                        continue; // both its branches are done
                    }
                    let node = self.lv[level].choice;
                    best = at!(self.cells.nd, node).itm as u32;
                    cur = at!(self.cells.nd, node).loc;
                    state = State::Recover;
                }
                State::Recover => {
                    // C6: try again: undo x_l's try, and on to the next option (C5).
                    if self.lv[level].forced {
                        state = State::DoneWithLevel; // no next option
                        continue;
                    }
                    if RULE == BINARY {
                        state = State::Exclude;
                        continue;
                    }
                    self.restore(level, &mut c);
                    cur += 1;
                    state = State::Advance;
                }
                State::Exclude => {
                    // The second branch: back to the level's start (i not
                    // covered), its option left out of every set, and a new
                    // choice below. A dead end if that leaves an item with
                    // no option; the level above sets it back either way.
                    self.restore(level, &mut c);
                    self.cells.new_epoch();
                    let node = self.lv[level].choice;
                    self.lv[level].out = true;
                    if self.cells.hide_trailed::<true, true, false>(node, &mut c) {
                        self.cells.touch(best);
                        self.cells.remove_from_own_set(node, &mut c);
                        level += 1;
                        state = State::Forward;
                    } else {
                        state = State::DoneWithLevel;
                    }
                }
                State::Done => {
                    self.save(level, State::Done, c);
                    return Step::Exhausted;
                }
                State::Restore => unreachable!("Algorithm M state in Algorithm X/C"),
            }
        }
    }

    /// Chooses the primary item of least branching degree `len + s - b + 1`
    /// (`b` its bound, `s = min(slack, b)`); ties go to the smaller `s`, then
    /// to the longer list, as in Knuth's DLX3, then to the item nearest (in
    /// the order of items) to the last one branched on. That last rule keeps
    /// the search in one region of a big problem: a choice that leaves its
    /// region without solution is found out before choices elsewhere pile up
    /// on top of it (on sparse Akari boards it cut the runs that lose
    /// themselves by about half). Returns `(item, degree)`.
    ///
    /// An item of degree 1 or less is taken as soon as it is seen: nothing
    /// can beat it (degree 0 is a dead end, degree 1 a forced move, and the
    /// order of forced moves does not change the tree). But an item of
    /// degree 1 with no option left has nothing to force (its lower bound is
    /// met): it is passed over, as SSMCC does, where a level of its own (a
    /// null branch) would cost a node each time; if every active item is
    /// such, the node is a solution ([`ALL_MET`]). A search of Knuth's
    /// REDRECT-DLX 4 5, whose 25 naming items of bounds 0:n run out of
    /// options all the time, went from 14.77M nodes and 0.62 s to 3.20M and
    /// 0.51 s; his MOTLEY-DLX 7 7 from 7.52M nodes and 3.83 s to 4.10M and
    /// 3.61 s; his QUEENDOM-DLX 8 5 from 0.99M to 0.68M nodes.
    ///
    /// On problems such as
    /// Akari, with tens of thousands of items and long chains of forced
    /// moves, a full scan per node would cost most of the time; a forced
    /// item usually appears near the last one (a chain is local), so the
    /// scan starts where the last one was found and wraps around.
    ///
    /// The rules are packed into one number per item and the least is kept
    /// (without randomizing, no branch to mispredict, which on the domino
    /// problems of Algorithm M, a few items a node, is what the scan cost);
    /// past 2^21 options of degree, 1023 of slack, 8191 options in the list
    /// or 2^20 places of distance, the next rule decides. When randomizing,
    /// items with the same number are exact ties, one taken at random.
    #[inline(always)]
    fn choose_mcc(&mut self, c: &mut Counters) -> (u32, i64) {
        if self.no_options {
            return ALL_MET;
        }
        if self.learned.is_some() {
            return self.choose_learned_mcc(c);
        }
        if self.rng.is_some() {
            return self.choose_mcc_random(c);
        }
        if self.narrow {
            // The scan is most of a node's time on the domino problems.
            if self.exact {
                return self.choose_mcc_in::<false, true, true>(c);
            }
            return self.choose_mcc_in::<false, true, false>(c);
        }
        self.choose_mcc_in::<false, false, false>(c)
    }

    /// [`Self::choose_mcc`] by a rule that learns ([`Heuristic`]): the least
    /// branching degree per unit of what the rule learned of the item, ties
    /// to the smaller slack, the longer list, then the item declared first,
    /// as in Knuth's SSMCC-WTD (or to a random one when randomizing); a
    /// degree of 1 or less as soon as seen.
    #[inline(never)]
    fn choose_learned_mcc(&mut self, c: &mut Counters) -> (u32, i64) {
        let Some(learned) = self.learned.as_deref() else {
            return self.choose_mcc_in::<false, false, false>(c);
        };
        let cells = &self.cells;
        let active = cells.active;
        let from = scan_start(self.scan_from, active);
        let (mut best, mut degree_of_best) = (u32::MAX, i64::MAX);
        let mut key = (f64::INFINITY, u32::MAX, 0u32);
        let mut ties = 0u64;
        for j in 0..active {
            let k = wrapped(from, j, active);
            let x = at!(cells.item, k);
            let (t, s, l) = degree(cells, x);
            if t <= 1 {
                if t == 1 && l == 0 {
                    self.met.push(k);
                    continue; // nothing to force: passed over
                }
                c.mems += 3 * (j as u64 + 1);
                self.scan_from = k;
                self.retire_met();
                return (x, t);
            }
            let this = (t as f64 / learned.per[x as usize], s, l);
            // Less per unit, then less slack, then more options.
            let order = this
                .0
                .total_cmp(&key.0)
                .then(this.1.cmp(&key.1))
                .then(key.2.cmp(&this.2));
            if let Some(rng) = self.rng.as_mut() {
                if order.is_lt() {
                    (best, degree_of_best, key, ties) = (x, t, this, 1);
                } else if order.is_eq() {
                    ties += 1;
                    if rng.below(ties) == 0 {
                        (best, degree_of_best) = (x, t);
                    }
                }
            } else if order.is_lt() || (order.is_eq() && x < best) {
                (best, degree_of_best, key) = (x, t, this);
            }
        }
        c.mems += 3 * active as u64;
        self.scan_from = u32::MAX;
        self.retire_met();
        if best == u32::MAX {
            return ALL_MET;
        }
        (best, degree_of_best)
    }

    /// [`Self::choose_mcc`] when randomizing, kept out of the hot loop.
    #[inline(never)]
    fn choose_mcc_random(&mut self, c: &mut Counters) -> (u32, i64) {
        self.choose_mcc_in::<true, false, false>(c)
    }

    /// [`Self::choose_mcc`]; with `RANDOM`, exact ties go to a random one;
    /// with `NARROW`, the problem's numbers all fit the packed fields
    /// ([`fits_unclamped`]) and nothing is clamped, the same choice.
    #[inline(always)]
    fn choose_mcc_in<const RANDOM: bool, const NARROW: bool, const EXACT: bool>(
        &mut self,
        c: &mut Counters,
    ) -> (u32, i64) {
        let cells = &self.cells;
        let active = cells.active;
        let from = scan_start(self.scan_from, active);
        let anchor = self.anchor;
        // (No packed number is u64::MAX: a degree past 2^21 - 1 needs as
        // many options, which leave the list's field 0.)
        let (mut best, mut key) = (u32::MAX, u64::MAX);
        let mut ties = 0u64;
        // From where the last forced item was found to the end, then from
        // the start: `before` is how far the scan had gone when its range began.
        for (start, end, before) in [(from, active, 0), (0, from, active - from)] {
            for k in start..end {
                let x = at!(cells.item, k);
                let (t, s, l) = if EXACT {
                    // No slack: `s` is 0, and the slack need not be read.
                    let l = cells.size(x);
                    (l as i64 - cells.bound(x) as i64 + 1, 0, l)
                } else {
                    degree(cells, x)
                };
                if t <= 1 {
                    if !EXACT && t == 1 && l == 0 {
                        self.met.push(k);
                        continue; // nothing to force: passed over
                    }
                    c.mems += 3 * (before + k - start + 1) as u64;
                    self.scan_from = k;
                    self.retire_met();
                    return (x, t);
                }
                let (t, s, l, d) = (t as u64, s as u64, l as u64, x.abs_diff(anchor) as u64);
                let this = if NARROW {
                    t << 43 | s << 33 | (NARROW_LEN as u64 - l) << 20 | d
                } else {
                    t.min((1 << 21) - 1) << 43
                        | s.min((1 << 10) - 1) << 33
                        | (NARROW_LEN as u64 - l.min(NARROW_LEN as u64)) << 20
                        | d.min((1 << 20) - 1)
                };
                if RANDOM {
                    if this < key {
                        (best, key, ties) = (x, this, 1);
                    } else if this == key {
                        ties += 1;
                        if let Some(rng) = self.rng.as_mut() {
                            if rng.below(ties) == 0 {
                                best = x;
                            }
                        }
                    }
                } else {
                    let better = this < key;
                    key = if better { this } else { key };
                    best = if better { x } else { best };
                }
            }
        }
        c.mems += 3 * active as u64;
        self.retire_met();
        if best == u32::MAX {
            return ALL_MET;
        }
        self.anchor = best;
        (best, degree(&self.cells, best).0)
    }

    /// Takes the items the scan passed over out of the active ones, as the
    /// null branch of a level of their own would, but without the level:
    /// a passed-over item left active is scanned again at every node below,
    /// and keeps a scan from stopping at the first forced item it meets
    /// (a randomized run on a 100 x 100 Akari board, where most items end
    /// so: 4.7 times the time per node, and 3.6 times the updates). The
    /// marks of the levels above set `active` back, so they return when the
    /// search backs up past this node. Positions are taken from the highest
    /// down: each leaves by a swap with the last active item, which then
    /// never is one still to go.
    #[inline(never)]
    fn retire_met(&mut self) {
        if self.met.is_empty() {
            return;
        }
        self.met.sort_unstable_by(|a, b| b.cmp(a));
        for j in 0..self.met.len() {
            let k = self.met[j];
            let x = at!(self.cells.item, k);
            self.cells.deactivate(x, k);
        }
        self.met.clear();
    }

    /// Takes the option of node `x` into the solution (step M6): every other
    /// primary item uses up one unit of its bound and is covered when none is
    /// left; secondary items are covered or purified as in Algorithm C.
    ///
    /// With `CHECK`, it stops as soon as some active item is left with fewer
    /// options than it must still take, and returns false (the caller sets
    /// the try back), as SSMCC does: the dead end is not entered as a node.
    /// Measured: his queendom 8,5 went from 9.5M nodes and 2.45 s to 0.99M
    /// and 2.05 s, motley 6x7 from 0.35 s to 0.32 s; redrect 4x5, whose
    /// items mostly take any number, from 0.59 s to 0.61 s (the test on
    /// every removal).
    #[inline(always)]
    fn commit_mcc<const COLORS: bool, const TRAIL: bool, const CHECK: bool>(
        &mut self,
        x: u32,
        c: &mut Counters,
    ) -> bool {
        if CHECK {
            // Every bound first: a hide below checks each item against
            // what it must still take, this option's share already taken.
            let mut pp = self.after(x);
            while pp != x {
                let cc = at!(self.cells.nd, pp).itm as u32;
                if cc < self.cells.pbound {
                    self.use_bound::<TRAIL>(cc);
                    c.mems += 2;
                }
                pp = self.after(pp);
            }
        }
        let mut pp = x + 1;
        while pp != x {
            let cc = at!(self.cells.nd, pp).itm;
            if cc <= 0 {
                pp = (pp as i32 + cc) as u32;
                continue;
            }
            let cc = cc as u32;
            c.mems += 2;
            if cc < self.cells.pbound {
                let b = if CHECK {
                    self.cells.bound(cc)
                } else {
                    self.use_bound::<TRAIL>(cc)
                };
                if b == 0 && CHECK && self.universal.contains(&cc) {
                    // No option is left once cc is full (every one holds
                    // it), and every bound is taken: the node below is a
                    // solution if no item must take more, else a dead end.
                    // QUEENDOM-DLX 8 5 hid some 60 options of 25 items at
                    // each fifth queen to find that.
                    return self.needs_met(c);
                }
                if b == 0 && !self.cover::<TRAIL, true, CHECK, true>(cc, c) {
                    return false;
                }
            } else if self.cells.pos(cc) < self.cells.sactive {
                if !COLORS || at!(self.cells.clr, pp) == 0 {
                    if !self.cover::<TRAIL, true, CHECK, true>(cc, c) {
                        return false;
                    }
                } else {
                    let k = self.cells.pos(cc);
                    self.cells.deactivate_secondary(cc, k);
                    let color = at!(self.cells.clr, pp);
                    if !self.cells.purify::<TRAIL, CHECK, true>(cc, color, c) {
                        return false;
                    }
                }
            }
            pp += 1;
        }
        true
    }

    /// Has every active primary item taken at least its lower bound? If so,
    /// the node entered next is a solution (`no_options`).
    fn needs_met(&mut self, c: &mut Counters) -> bool {
        let cells = &self.cells;
        let active = cells.active as usize;
        c.mems += 2 * active as u64;
        let met = cells.item[..active]
            .iter()
            .all(|&x| cells.bound(x) <= cells.slack(x));
        self.no_options = met;
        met
    }

    /// The node after `pp` in its option, round past the spacer.
    #[inline(always)]
    fn after(&self, pp: u32) -> u32 {
        let q = pp + 1;
        let cc = at!(self.cells.nd, q).itm;
        if cc <= 0 {
            (q as i32 + cc) as u32
        } else {
            q
        }
    }

    /// Uses one unit of primary item `cc`'s bound (saved on the trail first
    /// with `TRAIL`); returns what is left.
    #[inline(always)]
    fn use_bound<const TRAIL: bool>(&mut self, cc: u32) -> u32 {
        if TRAIL {
            self.cells.touch(cc);
        }
        let b = self.cells.bound(cc) - 1;
        self.cells.set_bound(cc, b);
        b
    }

    /// Sets the cells back to a mark of Algorithm M (sizes, bounds, active items).
    #[inline(always)]
    fn restore_mcc(&mut self, mark: (u32, u32, u32), c: &mut Counters) {
        let (tlen, active, sactive) = mark;
        self.cells.restore::<true>(tlen as usize, c);
        self.cells.active = active;
        self.cells.sactive = sactive;
    }

    /// The loop for this problem and rule: Algorithm M, or X and C with
    /// or without colors, by [`FEWEST`], [`LEARN`] or [`BINARY`].
    fn dispatch<const COUNT: bool>(&mut self, limits: Limits, target: u64) -> Step {
        if self.mcc {
            return if self.colors {
                self.run_mcc::<true, COUNT>(limits, target)
            } else {
                self.run_mcc::<false, COUNT>(limits, target)
            };
        }
        let rule = if self.binary() {
            BINARY
        } else if self.learned.is_some() {
            LEARN
        } else {
            FEWEST
        };
        match (self.colors, rule) {
            (false, FEWEST) => self.run_xcc::<false, COUNT, FEWEST>(limits, target),
            (true, FEWEST) => self.run_xcc::<true, COUNT, FEWEST>(limits, target),
            (false, LEARN) => self.run_xcc::<false, COUNT, LEARN>(limits, target),
            (true, LEARN) => self.run_xcc::<true, COUNT, LEARN>(limits, target),
            (false, _) => self.run_xcc::<false, COUNT, BINARY>(limits, target),
            (true, _) => self.run_xcc::<true, COUNT, BINARY>(limits, target),
        }
    }

    /// A try of an option of `best` went on to the level below: what a
    /// learning rule takes from it.
    #[inline(always)]
    fn learn_success(&mut self, best: u32) {
        if let Some(learned) = self.learned.as_deref_mut() {
            learned.passed(best);
        }
    }

    /// A try of an option of `best` left an item (`cells.wiped`) with too
    /// few options: what a learning rule takes from it.
    #[cold]
    #[inline(never)]
    fn learn_failure(&mut self, best: u32) {
        let wiped = self.cells.wiped;
        if let Some(learned) = self.learned.as_deref_mut() {
            learned.failed(best, wiped);
        }
    }

    fn mark_now(&self) -> (u32, u32, u32) {
        (
            self.cells.tlen as u32,
            self.cells.active,
            self.cells.sactive,
        )
    }

    /// Algorithm M (TAOCP 7.2.2.1), on sparse sets. Each level saves where
    /// it started (`mark`, set back at M8) and where each of its tries starts
    /// (`tries`, set back at M7); in between, the trail records what changed.
    fn run_mcc<const COLORS: bool, const COUNT: bool>(
        &mut self,
        limits: Limits,
        target: u64,
    ) -> Step {
        self.cells.make_room();
        let mut c = self.counters;
        let mut level = self.level;
        let mut state = self.state;
        let mut cur = self.cur;
        loop {
            match state {
                State::Forward => {
                    // M2: enter the level.
                    if let Some(step) = self.enter::<COUNT>(level, &mut state, c, limits, target) {
                        return step;
                    }
                    if state == State::DoneWithLevel {
                        continue;
                    }
                    // M3: choose the item i.
                    let (i, score) = self.choose_mcc(&mut c);
                    if (i, score) == ALL_MET {
                        if let Some(step) = self.visit::<COUNT>(level, &mut state, c, target) {
                            return step;
                        }
                        continue;
                    }
                    if score <= 0 {
                        state = State::DoneWithLevel; // too few options left for i
                        continue;
                    }
                    // M4: prepare to branch on i.
                    self.lv[level].best = i;
                    self.lv[level].deg = score as u32;
                    let forced = score == 1;
                    self.lv[level].forced = forced;
                    if !forced {
                        self.lv[level].mark = self.mark_now();
                        self.cells.new_epoch();
                    }
                    self.cells.touch(i);
                    let b = self.cells.bound(i) - 1;
                    self.cells.set_bound(i, b);
                    if b == 0 {
                        self.cover::<true, true, false, false>(i, &mut c);
                    }
                    self.lv[level].ft = self.cells.size(i);
                    self.lv[level].tw = 0;
                    self.lv[level].plain = b == 0 && self.cells.slack(i) == 0;
                    cur = i;
                    state = State::Advance;
                }
                State::Advance => {
                    // M5: possibly tweak the next option.
                    let i = self.lv[level].best;
                    let b = self.cells.bound(i);
                    let slack = self.cells.slack(i);
                    let s = self.cells.size(i);
                    if b == 0 && slack == 0 {
                        // Exactly one more: plain branching over the covered item.
                        if cur >= i + s {
                            state = State::Restore;
                        } else {
                            self.lv[level].choice = at!(self.cells.set, cur);
                            state = State::Try;
                        }
                    } else if s as i64 <= b as i64 - slack as i64 {
                        state = State::Restore; // the lower bound can no longer be met
                    } else if s > 0 {
                        // The tweak lasts until M8: an epoch of its own, under
                        // the level's mark, above its tries' marks.
                        let x = at!(self.cells.set, i);
                        if !self.lv[level].forced {
                            self.cells.new_epoch();
                        }
                        if b != 0 {
                            self.cells.hide_one::<true, false, true>(x, &mut c);
                        }
                        self.cells.touch(i);
                        self.cells.remove_from_own_set(x, &mut c);
                        self.lv[level].tw += 1;
                        self.lv[level].choice = x;
                        state = State::Try;
                    } else {
                        // The null branch: i takes no more options. (A fresh
                        // epoch: the last try's was set back, and a forced
                        // level below works in the epoch it finds.)
                        if !self.lv[level].forced {
                            self.cells.new_epoch();
                        }
                        if b != 0 {
                            let k = self.cells.pos(i);
                            self.cells.deactivate(i, k);
                        }
                        self.lv[level].choice = NULL;
                        level += 1;
                        state = State::Forward;
                    }
                }
                State::Try => {
                    // M6: try the option.
                    let x = self.lv[level].choice;
                    if !self.lv[level].forced {
                        self.lv[level].tries = self.mark_now();
                        self.cells.new_epoch();
                    }
                    level += 1;
                    let taken = if self.check {
                        self.commit_mcc::<COLORS, true, true>(x, &mut c)
                    } else {
                        self.commit_mcc::<COLORS, true, false>(x, &mut c)
                    };
                    if self.learned.is_some() {
                        let best = self.lv[level - 1].best;
                        if taken {
                            self.learn_success(best);
                        } else {
                            self.learn_failure(best);
                        }
                    }
                    state = if taken {
                        State::Forward
                    } else {
                        // Some item can no longer meet its lower bound: a
                        // dead end found before the node below is entered.
                        State::DoneWithLevel
                    };
                }
                State::DoneWithLevel => {
                    // M9: leave the level.
                    self.no_options = false;
                    if level == self.base {
                        self.save(level, State::Done, c);
                        return Step::Exhausted;
                    }
                    level -= 1;
                    let x = self.lv[level].choice;
                    if self.lv[level].forced {
                        continue; // its one branch is done; on up (M9)
                    } else if x == NULL {
                        state = State::Restore;
                    } else {
                        // M7: try again.
                        self.restore_mcc(self.lv[level].tries, &mut c);
                        if self.lv[level].plain {
                            cur = at!(self.cells.nd, x).loc + 1;
                        }
                        state = State::Advance;
                    }
                }
                State::Restore => {
                    // M8: restore i: everything since the level began (a
                    // forced level leaves that to the level above).
                    if !self.lv[level].forced {
                        self.restore_mcc(self.lv[level].mark, &mut c);
                    }
                    state = State::DoneWithLevel;
                }
                State::Done => {
                    self.save(level, State::Done, c);
                    return Step::Exhausted;
                }
                State::Backup | State::Recover | State::Leaf | State::Exclude => {
                    unreachable!("Algorithm X state in Algorithm M")
                }
            }
        }
    }
}

/// Pieces of the search tree: what the parallel and distributed counts need.
impl CellSearch {
    /// The node of option `o` in its first primary item.
    fn primary_node(&self, o: u32) -> u32 {
        let mut x = self.cells.option_node[o as usize];
        while self.cells.pos(at!(self.cells.nd, x).itm as u32) >= self.cells.second {
            x += 1;
        }
        x
    }

    fn option_of(&self, node: u32) -> u32 {
        self.cells.option_of(node)
    }
}

/// The largest list length of [`fits_unclamped`] (13 bits).
const NARROW_LEN: u32 = (1 << 13) - 1;

/// Whether the packed number of [`CellSearch::choose_mcc`] needs no clamp on
/// these cells: lists of at most 8191 options (so degrees below 2^21, as a
/// degree is at most a length plus one), slacks below 1024 and item places
/// below 2^20 (their distances too). Lists only shrink and slacks never
/// change, so what holds when built holds for the whole search.
fn fits_unclamped(cells: &Cells) -> bool {
    let items = &cells.item[..cells.active as usize];
    cells.set.len() < 1 << 20
        && items
            .iter()
            .all(|&x| cells.size(x) <= NARROW_LEN && cells.slack(x) < 1 << 10)
}

/// Algorithm M's branching degree of item `x`, `len + s - b + 1` (`b` its
/// bound, `s = min(slack, b)`), with `s` and `len`.
#[inline(always)]
fn degree(cells: &Cells, x: u32) -> (i64, u32, u32) {
    let b = cells.bound(x);
    let s = cells.slack(x).min(b);
    let l = cells.size(x);
    (l as i64 + s as i64 - b as i64 + 1, s, l)
}

/// Where a scan of the `active` items that looks for a forced one starts:
/// where the last one was found, if that position is still in the list.
#[inline(always)]
fn scan_start(last: u32, active: u32) -> u32 {
    if last < active {
        last
    } else {
        0
    }
}

/// The `j`-th position of a scan from `from` that wraps around `active`.
#[inline(always)]
fn wrapped(from: u32, j: u32, active: u32) -> u32 {
    if from + j < active {
        from + j
    } else {
        from + j - active
    }
}

impl Solve for CellSearch {
    /// The counters so far.
    fn stats(&self) -> Stats {
        Stats {
            nodes: self.nodes,
            updates: self.counters.updates,
            mems: self.counters.mems,
            cleansings: self.counters.cleansings,
            solutions: self.solutions,
            max_level: self.max_level as u64,
        }
    }

    /// Has the whole tree been explored?
    fn is_exhausted(&self) -> bool {
        self.state == State::Done
    }

    /// The options of the solution just reported (unsorted).
    fn solution_into(&self, out: &mut Vec<u32>) {
        out.clear();
        for l in &self.lv.0[..self.sol_len] {
            if l.choice != NULL && !(self.binary() && l.out) {
                out.push(self.cells.option_of(l.choice));
            }
        }
    }

    /// Puts option `o` into every solution, before the search starts; returns
    /// false (and changes nothing) when `o` conflicts with the options already
    /// forced, in which case the problem has no solution at all.
    ///
    /// This is how a Sudoku's givens are placed without rebuilding the problem.
    fn force(&mut self, o: u32) -> bool {
        assert!(
            self.level == self.base && self.state == State::Forward && self.nodes == 0,
            "options can only be forced before the search starts"
        );
        if o as usize >= self.problem.n_options() || !self.cells.option_is_live(o) {
            return false;
        }
        // The node of `o` in its first primary item, which plays the branching item.
        let mut x = self.cells.option_node[o as usize];
        while self.cells.pos(at!(self.cells.nd, x).itm as u32) >= self.cells.second {
            x += 1;
        }
        let i = at!(self.cells.nd, x).itm as u32;
        let mut c = self.counters;
        if self.mcc {
            self.cells.hide_trailed::<false, false, false>(x, &mut c);
            self.cells.remove_from_own_set(x, &mut c);
            let b = self.cells.bound(i) - 1;
            self.cells.set_bound(i, b);
            if b == 0 {
                self.cover::<false, false, false, false>(i, &mut c);
            }
            if self.colors {
                self.commit_mcc::<true, false, false>(x, &mut c);
            } else {
                self.commit_mcc::<false, false, false>(x, &mut c);
            }
        } else {
            // For good: the levels below `base` are never undone.
            self.cover::<false, false, false, false>(i, &mut c);
            if self.colors {
                self.commit::<true, false, false>(x, &mut c);
            } else {
                self.commit::<false, false, false>(x, &mut c);
            }
        }
        self.counters = c;
        self.lv.reach(self.level);
        self.lv[self.level].choice = x;
        self.lv[self.level].best = i;
        self.level += 1;
        self.base = self.level;
        true
    }

    /// Runs until the next solution, the end, or the limits.
    fn run(&mut self, limits: Limits) -> Step {
        self.dispatch::<false>(limits, u64::MAX)
    }
}

impl Machine for CellSearch {
    fn engine(&self) -> Engine {
        match self.rule {
            Some(rule) => Engine::CellsBy(rule),
            None => Engine::Cells,
        }
    }

    /// Back to the state before any search or forcing, keeping the allocations.
    fn reset(&mut self) {
        self.cells.clone_from(&self.initial);
        self.counters = Counters::default();
        (self.nodes, self.solutions, self.max_level) = (0, 0, 0);
        (self.level, self.base, self.cur, self.sol_len) = (0, 0, 0, 0);
        (self.scan_from, self.anchor) = (0, 0);
        self.no_options = false;
        self.state = State::Forward;
        if let Some(learned) = self.learned.as_deref_mut() {
            learned.reset();
        }
    }

    /// The problem being solved.
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
        if o as usize >= self.problem.n_options() || !self.cells.option_is_live(o) {
            return false;
        }
        let x = self.primary_node(o);
        let mut c = self.counters;
        self.cells.hide_trailed::<false, false, false>(x, &mut c);
        self.cells.remove_from_own_set(x, &mut c);
        self.counters = c;
        true
    }

    /// Counts solutions without reporting them, until the end ([`Step::Exhausted`]),
    /// the limits, or `stats().solutions >= target` (both [`Step::Paused`]).
    /// When the last primary item is reached, its options are counted without
    /// being tried one by one, so the count may pass `target` a little.
    fn count(&mut self, limits: Limits, target: u64) -> Step {
        self.dispatch::<true>(limits, target)
    }

    /// Knuth's progress path: for each level above the forced ones, the choice
    /// being explored as `(k, d)`, "the k-th of d".
    fn progress(&self) -> Vec<(u32, u32)> {
        let mut path = Vec::new();
        let top = if self.state == State::Done {
            self.base
        } else {
            self.level
        };
        for l in self.base..top {
            let i = self.lv[l].best;
            let node = self.lv[l].choice;
            if self.mcc {
                let d = self.lv[l].deg;
                let k = if node == NULL {
                    d
                } else if self.cells.bound(i) == 0 && self.cells.slack(i) == 0 {
                    at!(self.cells.nd, node).loc - i + 1
                } else {
                    self.lv[l].ft - self.cells.size(i)
                };
                path.push((k.min(d).max(1), d.max(1)));
            } else if self.binary() && !self.lv[l].forced {
                // Two branches: the option taken, then left out.
                path.push((1 + self.lv[l].out as u32, 2));
            } else {
                path.push((at!(self.cells.nd, node).loc - i + 1, self.cells.size(i)));
            }
        }
        if self.state == State::Advance && !self.mcc {
            // Paused between two tries (Algorithm X or C): the next is
            // the one being explored.
            let i = self.lv[self.level].best;
            path.push((self.cur - i + 1, self.cells.size(i)));
        }
        path
    }

    /// The unexplored part of a search paused before entering a node, as
    /// pieces (moves after the ones already applied): the node itself, and
    /// the branches not yet taken at each level above it. Paused between two
    /// tries of a level (Algorithm X or C), the branches not yet taken there
    /// too, the next one playing the node.
    fn frontier(&self) -> Vec<(usize, Vec<Move>)> {
        let between = self.state == State::Advance && !self.mcc;
        assert!(
            self.state == State::Forward || between,
            "a frontier is taken before entering a node or a try"
        );
        let mut pieces = Vec::new();
        let mut path = Vec::new();
        for l in self.base..self.level {
            let (i, x) = (self.lv[l].best, self.lv[l].choice);
            if self.binary() && !self.lv[l].forced {
                // Binary branching: the option left out is the branch not
                // yet taken, unless it is the one being explored.
                let o = self.option_of(x);
                if self.lv[l].out {
                    path.push(Move::Exclude(o));
                } else {
                    let mut piece = path.clone();
                    piece.push(Move::Exclude(o));
                    pieces.push((l - self.base, piece));
                    path.push(Move::Include(o));
                }
                continue;
            }
            if !self.mcc || self.lv[l].plain {
                // Each later option of the (covered, frozen) item is a branch.
                let node = at!(self.cells.nd, x);
                let end = node.itm as u32 + self.cells.size(node.itm as u32);
                for q in node.loc + 1..end {
                    let mut piece = path.clone();
                    piece.push(Move::Include(self.option_of(at!(self.cells.set, q))));
                    pieces.push((l - self.base, piece));
                }
                path.push(Move::Include(self.option_of(x)));
                continue;
            }
            // Algorithm M, tweaking: the tweaked options sit at the end of
            // i's run, the latest (the current choice) first.
            let (ft, tw) = (self.lv[l].ft, self.lv[l].tw);
            let tweaked: Vec<u32> = (i + ft - tw..i + ft)
                .map(|q| self.option_of(at!(self.cells.set, q)))
                .collect();
            if x == NULL {
                path.extend(tweaked.iter().map(|&o| Move::Exclude(o)));
                continue;
            }
            // The branches left: none of the tweaked options.
            let mut rest = path.clone();
            rest.extend(tweaked.iter().map(|&o| Move::Exclude(o)));
            pieces.push((l - self.base, rest));
            path.extend(tweaked[1..].iter().map(|&o| Move::Exclude(o)));
            path.push(Move::Include(tweaked[0]));
        }
        let mut depth = self.level - self.base;
        if between {
            // The options after the next, each a branch of this level; the
            // next one is the node below (its share that of a whole node).
            let i = self.lv[self.level].best;
            for q in self.cur + 1..i + self.cells.size(i) {
                let mut piece = path.clone();
                piece.push(Move::Include(self.option_of(at!(self.cells.set, q))));
                pieces.push((depth, piece));
            }
            path.push(Move::Include(self.option_of(at!(self.cells.set, self.cur))));
            depth += 1;
        }
        pieces.push((depth, path));
        pieces
    }

    /// The branches of the node a fresh search starts at: None if that node
    /// is a solution, else the pieces (possibly none: a dead end).
    fn children(&mut self) -> Option<Vec<Vec<Move>>> {
        assert!(self.level == self.base && self.state == State::Forward && self.nodes == 0);
        if self.cells.active == 0 {
            return None;
        }
        let mut c = self.counters;
        if !self.mcc {
            let (best, t) = self.choose_xcc(&mut c);
            return Some(
                (best..best + t)
                    .map(|q| vec![Move::Include(self.option_of(at!(self.cells.set, q)))])
                    .collect(),
            );
        }
        let (i, score) = self.choose_mcc(&mut c);
        if (i, score) == ALL_MET {
            return None;
        }
        if score <= 0 {
            return Some(Vec::new());
        }
        let (b, slack, s) = (
            self.cells.bound(i) - 1,
            self.cells.slack(i),
            self.cells.size(i),
        );
        let opts: Vec<u32> = (i..i + s)
            .map(|q| self.option_of(at!(self.cells.set, q)))
            .collect();
        if b == 0 && slack == 0 {
            return Some(opts.iter().map(|&o| vec![Move::Include(o)]).collect());
        }
        // As Algorithm M tweaks: the j-th branch takes option j, the ones
        // before it left out; the last gives i nothing more, if it may.
        let mut out = Vec::new();
        for j in 0..=opts.len() {
            let left = (opts.len() - j) as i64;
            if left <= b as i64 - slack as i64 {
                break;
            }
            let mut piece: Vec<Move> = opts[..j].iter().map(|&o| Move::Exclude(o)).collect();
            if j < opts.len() {
                piece.push(Move::Include(opts[j]));
            }
            out.push(piece);
        }
        Some(out)
    }

    /// One of Knuth's random probes from the node a fresh search starts at:
    /// a random path down, and the estimate 1 + d1 + d1 d2 + ... of the
    /// number of nodes below (d the branching degrees met).
    ///
    /// The path is taken in place, in one epoch of the trail, and undone at
    /// the end: a copy of the cells per probe cost a tenth of a second on a
    /// million options, more than the walk down.
    fn probe(&mut self, rng: &mut Rng, halt: &AtomicBool, spent: &mut u64) -> Option<f64> {
        let saved = (self.scan_from, self.anchor, self.rng.clone());
        self.cells.make_room();
        // The mark before the epoch: an epoch may start with a snapshot of
        // the sizes, which the mark must take back too.
        let mark = self.mark_now();
        self.cells.new_epoch();
        let mut c = self.counters;
        let estimate = if self.mcc {
            self.probe_walk::<true>(rng, halt, &mut c)
        } else {
            self.probe_walk::<false>(rng, halt, &mut c)
        };
        if self.mcc {
            self.restore_mcc(mark, &mut c);
        } else {
            self.cells.restore::<false>(mark.0 as usize, &mut c);
            (self.cells.active, self.cells.sactive) = (mark.1, mark.2);
        }
        (self.scan_from, self.anchor, self.rng) = saved;
        *spent += c.updates - self.counters.updates;
        estimate
    }
}

impl CellSearch {
    /// [`Machine::probe`]'s walk (on the trail, not undone): in Algorithms
    /// X and C a random option of the chosen item is committed; in
    /// Algorithm M (`MCC`) the option of a random node of the chosen item is
    /// taken, as [`Solve::force`] takes one.
    fn probe_walk<const MCC: bool>(
        &mut self,
        rng: &mut Rng,
        halt: &AtomicBool,
        c: &mut Counters,
    ) -> Option<f64> {
        let (mut total, mut width) = (1.0f64, 1.0f64);
        for _ in 0..MAX_PROBE_DEPTH {
            if halt.load(Ordering::Relaxed) {
                return None;
            }
            if self.cells.active == 0 {
                return Some(total);
            }
            // The item, its branching degree, and its nodes to pick from.
            let (i, degree, size) = if MCC {
                let (i, score) = self.choose_mcc(c);
                if (i, score) == ALL_MET {
                    return Some(total);
                }
                (i, score, self.cells.size(i))
            } else {
                let (best, t) = self.choose_xcc(c);
                (best, t as i64, t)
            };
            if degree <= 0 || size == 0 {
                return Some(total);
            }
            width *= degree as f64;
            total += width;
            if total >= MOST_ESTIMATE {
                return Some(MOST_ESTIMATE);
            }
            let ok = if MCC {
                self.branch_on_trail(i, degree as u32, rng, c)
            } else {
                let x = at!(self.cells.set, i + rng.below(size as u64) as u32);
                self.cover::<true, false, false, false>(i, c);
                if self.colors {
                    self.commit::<true, true, true>(x, c)
                } else {
                    self.commit::<false, true, true>(x, c)
                }
            };
            if !ok {
                return Some(total);
            }
        }
        Some(total)
    }

    /// A random one of the `degree` branches Algorithm M makes at item `i`
    /// (see `children`), on the trail, for a probe: branch j leaves out the
    /// first j options of `i`'s set and takes the next, the last gives `i`
    /// nothing more if its slack allows. A probe that took a random option
    /// without leaving the earlier ones out walked a tree that meets each
    /// set of options in every order: on REDRECT-DLX, whose items take up
    /// to eight rectangles, 500 times the nodes the search visits.
    fn branch_on_trail(&mut self, i: u32, degree: u32, rng: &mut Rng, c: &mut Counters) -> bool {
        let (b, slack, s) = (
            self.cells.bound(i) - 1,
            self.cells.slack(i),
            self.cells.size(i),
        );
        let j = rng.below(degree as u64) as u32;
        if b == 0 && slack == 0 {
            // i is covered by the option taken: the ones before it go anyway.
            let x = at!(self.cells.set, i + j);
            return self.take_on_trail(self.option_of(x), c);
        }
        let opts: Vec<u32> = (i..i + s.min(j + 1))
            .map(|q| self.option_of(at!(self.cells.set, q)))
            .collect();
        for &o in opts.iter().take(j as usize) {
            if !self.exclude_on_trail(o, c) {
                return false;
            }
        }
        match opts.get(j as usize) {
            Some(&o) => self.take_on_trail(o, c),
            None => true,
        }
    }

    /// Leaves option `o` out, on the trail, for a probe: false when `o` is
    /// not live.
    fn exclude_on_trail(&mut self, o: u32, c: &mut Counters) -> bool {
        if !self.cells.option_is_live(o) {
            return false;
        }
        let x = self.primary_node(o);
        let i = at!(self.cells.nd, x).itm as u32;
        self.cells.hide_one::<true, false, true>(x, c);
        self.cells.touch(i);
        self.cells.remove_from_own_set(x, c);
        true
    }

    /// [`Solve::force`] of option `o` on the trail (Algorithm M), for a
    /// probe: false, with nothing more done, when `o` is not live.
    fn take_on_trail(&mut self, o: u32, c: &mut Counters) -> bool {
        // Out of every set, then counted against the items it covers.
        if !self.exclude_on_trail(o, c) {
            return false;
        }
        let x = self.primary_node(o);
        let i = at!(self.cells.nd, x).itm as u32;
        let b = self.cells.bound(i) - 1;
        self.cells.set_bound(i, b);
        if b == 0 {
            self.cover::<true, true, false, false>(i, c);
        }
        if self.colors {
            self.commit_mcc::<true, true, false>(x, c);
        } else {
            self.commit_mcc::<false, true, false>(x, c);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A random problem with multiplicities: items covered between lo and
    /// hi times, some secondary, options of one to four items.
    fn random_mcc(rng: &mut Rng) -> CompiledProblem {
        random_mcc_with(rng, false)
    }

    /// [`random_mcc`]; with `exact`, every item covered exactly its bound
    /// (1 to 3) times.
    fn random_mcc_with(rng: &mut Rng, exact: bool) -> CompiledProblem {
        loop {
            let n_primary = 3 + rng.below(8) as u32;
            let n_secondary = rng.below(3) as u32;
            let n_items = (n_primary + n_secondary) as u64;
            let lo: Vec<u32> = (0..n_primary)
                .map(|_| rng.below(3) as u32 + exact as u32)
                .collect();
            let hi: Vec<u32> = if exact {
                lo.clone()
            } else {
                lo.iter().map(|&l| l.max(1) + rng.below(3) as u32).collect()
            };
            let (mut start, mut item) = (vec![0u32], Vec::new());
            for _ in 0..10 + rng.below(40) {
                let mut items: Vec<u32> = (0..1 + rng.below(4))
                    .map(|_| rng.below(n_items) as u32)
                    .collect();
                items.sort_unstable();
                items.dedup();
                item.extend(items);
                start.push(item.len() as u32);
            }
            let color = vec![0; item.len()];
            if let Ok(p) = CompiledProblem::new(n_primary, n_secondary, lo, hi, start, item, color)
            {
                return p;
            }
        }
    }

    #[test]
    fn the_choice_without_slack_is_the_general_one() {
        // Same tree when every item's bounds are equal, whether the choice
        // reads the slack (0) or knows it is 0.
        let mut rng = Rng::new(32);
        let mut exact_seen = 0;
        for _ in 0..300 {
            let p = Arc::new(random_mcc_with(&mut rng, true));
            let never = AtomicBool::new(false);
            let mut general = CellSearch::new_until(p.clone(), None, None, &never).unwrap();
            let mut exact = CellSearch::new_until(p, None, None, &never).unwrap();
            exact_seen += exact.exact as u32;
            general.exact = false;
            general.count(Limits::NONE, u64::MAX);
            exact.count(Limits::NONE, u64::MAX);
            let (a, b) = (general.stats(), exact.stats());
            assert_eq!(
                (a.solutions, a.nodes, a.mems),
                (b.solutions, b.nodes, b.mems)
            );
        }
        assert_eq!(exact_seen, 300);
    }

    #[test]
    fn the_unclamped_choice_is_the_clamped_one() {
        // Same tree (nodes, mems, solutions) with and without the clamps of
        // the packed number, on problems where both apply.
        let mut rng = Rng::new(31);
        // The same first 20,000 nodes (a count may run far longer).
        let limits = Limits {
            nodes: 20_000,
            updates: u64::MAX,
        };
        let mut narrow_seen = 0;
        for _ in 0..300 {
            let p = Arc::new(random_mcc(&mut rng));
            let never = AtomicBool::new(false);
            let mut clamped = CellSearch::new_until(p.clone(), None, None, &never).unwrap();
            let mut unclamped = CellSearch::new_until(p, None, None, &never).unwrap();
            narrow_seen += unclamped.narrow as u32;
            clamped.narrow = false;
            clamped.count(limits, u64::MAX);
            unclamped.count(limits, u64::MAX);
            let (a, b) = (clamped.stats(), unclamped.stats());
            assert_eq!(
                (a.solutions, a.nodes, a.mems),
                (b.solutions, b.nodes, b.mems)
            );
        }
        assert_eq!(narrow_seen, 300);
    }

    #[test]
    fn the_learning_rules_count_what_the_fewest_options_count() {
        // Other trees, the same solutions, and what the rules learned is
        // forgotten on a reset (the same tree again).
        let mut rng = Rng::new(33);
        let never = AtomicBool::new(false);
        let mut learned_something = 0;
        for _ in 0..300 {
            let p = Arc::new(random_mcc(&mut rng));
            let mut plain = CellSearch::new_until(p.clone(), None, None, &never).unwrap();
            let small = Limits {
                nodes: 100_000,
                updates: u64::MAX,
            };
            if plain.count(small, u64::MAX) != Step::Exhausted {
                continue; // (a tree too big for a unit test)
            }
            for rule in [
                Heuristic::Weighted,
                Heuristic::FailureRate,
                Heuristic::Binary,
            ] {
                let mut s = CellSearch::new_until(p.clone(), None, Some(rule), &never).unwrap();
                assert_eq!(s.engine(), Engine::CellsBy(rule));
                s.count(Limits::NONE, u64::MAX);
                let first = s.stats();
                assert_eq!(first.solutions, plain.stats().solutions);
                if let Some(learned) = s.learned.as_deref() {
                    let start = if rule == Heuristic::Weighted {
                        1.0
                    } else {
                        0.5
                    };
                    learned_something += learned.per.iter().any(|&w| w != start) as u32;
                }
                s.reset();
                s.count(Limits::NONE, u64::MAX);
                assert_eq!(
                    (s.stats().nodes, s.stats().solutions),
                    (first.nodes, first.solutions)
                );
            }
        }
        assert!(learned_something > 100, "{learned_something}");
    }

    /// A random problem with long options over few items, of the kind
    /// dancing cells take snapshots for: 3 to 6 primary items, many
    /// options of each (one primary item and 4 to 7 of 20 to 40 secondary
    /// ones), as in his windmill dominoes.
    fn random_long(rng: &mut Rng) -> CompiledProblem {
        loop {
            let n1 = 3 + rng.below(4) as u32;
            let n2 = 20 + rng.below(21) as u32;
            let (mut start, mut item) = (vec![0u32], Vec::new());
            for _ in 0..60 + rng.below(100) {
                let mut items: Vec<u32> = (0..4 + rng.below(4))
                    .map(|_| n1 + rng.below(n2 as u64) as u32)
                    .collect();
                items.push(rng.below(n1 as u64) as u32);
                items.sort_unstable();
                items.dedup();
                item.extend(items);
                start.push(item.len() as u32);
            }
            let color = vec![0; item.len()];
            let (lo, hi) = (vec![1; n1 as usize], vec![1; n1 as usize]);
            if let Ok(p) = CompiledProblem::new(n1, n2, lo, hi, start, item, color) {
                return p;
            }
        }
    }

    #[test]
    fn binary_branching_keeps_to_the_trail_on_long_options() {
        // Binary branching has a level per option left out, not one per
        // item covered: more epochs along a path than snapshots of every
        // item have room for (his windmill dominoes overran the trail).
        let mut rng = Rng::new(34);
        let never = AtomicBool::new(false);
        for _ in 0..300 {
            let p = Arc::new(random_long(&mut rng));
            let mut plain = CellSearch::new_until(p.clone(), None, None, &never).unwrap();
            plain.count(Limits::NONE, u64::MAX);
            let mut binary =
                CellSearch::new_until(p.clone(), None, Some(Heuristic::Binary), &never).unwrap();
            binary.count(Limits::NONE, u64::MAX);
            assert_eq!(binary.stats().solutions, plain.stats().solutions);
            assert!(binary.cells.tlen <= binary.cells.trail.len());
        }
    }

    #[test]
    fn the_probes_of_algorithm_m_estimate_its_tree() {
        // Knuth's estimate is unbiased for the tree its probes walk. Walking
        // Algorithm M's branches (an option, the ones before it left out),
        // the mean of many probes comes near the nodes a count visits; a
        // probe that took a random option alone met each set of options in
        // every order, and overestimated by orders of magnitude where items
        // take several options (REDRECT-DLX: 500 times).
        let mut rng = Rng::new(43);
        let never = AtomicBool::new(false);
        let mut ratios = Vec::new();
        while ratios.len() < 100 {
            let p = Arc::new(random_mcc(&mut rng));
            let mut s = CellSearch::new_until(p, None, None, &never).unwrap();
            s.count(Limits::NONE, u64::MAX);
            let nodes = s.stats().nodes as f64 + 1.0;
            if !(100.0..100_000.0).contains(&nodes) {
                continue;
            }
            let mut s = CellSearch::new_until(s.problem.clone(), None, None, &never).unwrap();
            let probes = 2000;
            let mut e = 0.0;
            for _ in 0..probes {
                let mut spent = 0;
                e += s.probe(&mut rng, &never, &mut spent).unwrap();
            }
            ratios.push(e / probes as f64 / nodes);
        }
        ratios.sort_by(f64::total_cmp);
        let median = ratios[ratios.len() / 2];
        assert!(
            (0.8..1.25).contains(&median),
            "median estimate / nodes {median}"
        );
    }
}
