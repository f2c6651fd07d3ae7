//! Algorithms X, C and M on dancing cells: the general engine.
//!
//! See `front.rs` for the shape of the state machine; this file holds the
//! two loops over the sparse sets of `cells/`:
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

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::core::machine::{
    Engine, Heuristic, Limits, MAX_PROBE_DEPTH, MOST_ESTIMATE, Machine, Move, Solve, Step, room,
};
use crate::core::problem::CompiledProblem;
use crate::core::rng::Rng;
use crate::core::stats::Stats;
use crate::search::cells::{Cells, Counters, WHOLE_WALK, at};

mod branch;
mod mcc;
pub(crate) mod pairs;
mod probe;
mod xcc;

use branch::{BINARY, FEWEST, LEARN, Learned, fits_unclamped};

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
/// (Algorithms X and C: C2 `Forward` to C8 `DoneWithLevel`; Algorithm M the
/// same states, its step M8 setting nothing back: the level above does).
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
    /// Where the level's tries start from (Algorithms X and C), as `(trail
    /// length, active primaries, end of active secondaries)`.
    mark: (u32, u32, u32),
    /// Algorithm M: where the current try starts (its M7 mark; M8 sets
    /// nothing back, the level above does).
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
    /// Algorithms X and C: how many primary items every option holds, or 0
    /// if they differ (see [`pairs::leaf_items`]).
    leaf: u32,
    /// With this many active primary items, two options' worth, a branch
    /// is counted to its end by `count_pairs`: twice `leaf`, where it can
    /// (see [`pairs::last_levels`]); else 0.
    pairs_at: u32,
    /// The options' items as masks for `count_pairs`, where they pay.
    masks: Option<Arc<pairs::Masks>>,
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
        let (leaf, pairs_at, masks) = pairs::last_levels(&problem, &cells);
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
            leaf,
            pairs_at,
            masks,
        })
    }

    /// Covers item `x` (step C4, or M4 and M6 when a bound is used up): it
    /// leaves the active items and its options are hidden from all other sets.
    /// With `WHOLE` and long options, which is only where nothing walks
    /// that set afterwards (not for the item a level branches on), by the
    /// walk of [`Cells::long_walk`]: as a ring of fixed length, or whole,
    /// from the set too (see [`Cells::hide_each`]).
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
            self.cover_long::<TRAIL, BOUNDS, CHECK>(x, end, c)
        } else {
            cells.hide_each::<TRAIL, CHECK, BOUNDS, 0>(x, end, c)
        }
    }

    /// The hiding of [`Self::cover`] with `WHOLE` and long options, by the
    /// walk of [`Cells::long_walk`]. Out of line, as [`Self::commit_long`] is.
    #[inline(never)]
    fn cover_long<const TRAIL: bool, const BOUNDS: bool, const CHECK: bool>(
        &mut self,
        x: u32,
        end: u32,
        c: &mut Counters,
    ) -> bool {
        let cells = &mut self.cells;
        match cells.long_walk() {
            5 => cells.hide_each::<TRAIL, CHECK, BOUNDS, 5>(x, end, c),
            6 => cells.hide_each::<TRAIL, CHECK, BOUNDS, 6>(x, end, c),
            7 => cells.hide_each::<TRAIL, CHECK, BOUNDS, 7>(x, end, c),
            8 => cells.hide_each::<TRAIL, CHECK, BOUNDS, 8>(x, end, c),
            _ => cells.hide_each::<TRAIL, CHECK, BOUNDS, WHOLE_WALK>(x, end, c),
        }
    }

    /// Where a search loop starts (Algorithms X, C and M alike): room made
    /// for a level more, and the counters, level, state and current node
    /// where the last run of the loop stopped.
    #[inline(always)]
    pub(super) fn resume(&mut self) -> (Counters, usize, State, u32) {
        self.cells.make_room();
        (self.counters, self.level, self.state, self.cur)
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
    /// Long options (more than 4 items on average) are hidden by the walk
    /// of [`Cells::long_walk`]: as a ring of their length where they all
    /// have the same, up to 8, else whole from their first node; short ones
    /// as a ring of 2 to 4 nodes or from the node after the one met, as
    /// Knuth's programs do (see [`Cells::hide_each`]).
    #[inline(always)]
    fn commit<const COLORS: bool, const TRAIL: bool, const CHECK: bool>(
        &mut self,
        cur: u32,
        c: &mut Counters,
    ) -> bool {
        if self.cells.long_options {
            self.commit_long::<COLORS, TRAIL, CHECK>(cur, c)
        } else {
            self.commit_as::<COLORS, TRAIL, CHECK, 0>(cur, c)
        }
    }

    /// [`Self::commit`] for long options, by the walk of
    /// [`Cells::long_walk`]. Out of line, so that the search loop of the
    /// short options keeps its code as it was: inlined there, the choice of
    /// walk took the L-tromino 9x9 and queens 14 2% longer (0.784 s against
    /// 0.768 s, six pairs).
    #[inline(never)]
    fn commit_long<const COLORS: bool, const TRAIL: bool, const CHECK: bool>(
        &mut self,
        cur: u32,
        c: &mut Counters,
    ) -> bool {
        match self.cells.long_walk() {
            5 => self.commit_as::<COLORS, TRAIL, CHECK, 5>(cur, c),
            6 => self.commit_as::<COLORS, TRAIL, CHECK, 6>(cur, c),
            7 => self.commit_as::<COLORS, TRAIL, CHECK, 7>(cur, c),
            8 => self.commit_as::<COLORS, TRAIL, CHECK, 8>(cur, c),
            _ => self.commit_as::<COLORS, TRAIL, CHECK, WHOLE_WALK>(cur, c),
        }
    }

    /// [`Self::commit`], with `WALK` saying how options are hidden (see
    /// [`Cells::hide_each`]). Kept out
    /// of line: inlined into the search loop, its hide loop lost its
    /// registers to the loop around it (the base of `set` was reloaded from
    /// the stack five times an update), and the pentominoes took 10% longer;
    /// and one body for both ways of hiding took the pentominoes 6x10 13%
    /// longer (3.13 s against 2.75 s).
    #[inline(never)]
    fn commit_as<const COLORS: bool, const TRAIL: bool, const CHECK: bool, const WALK: u32>(
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
            let mut end = cc + cells.size(cc);
            c.mems += 1 + (end - cc) as u64;
            let loc = at!(cells.nd, pp).loc;
            if loc < end {
                // The option itself is still listed here: a forced move,
                // whose item was not covered (`run_xcc`). It goes to the
                // set's end and is left out of the hide, so that it is
                // hidden nowhere: covering its item hid it from each of
                // its items' sets, two removals on the L-tromino, which
                // nothing read. (Inside the live part of a set the order
                // is free: setting sizes back restores the set.)
                end -= 1;
                cells.swap_in_set(loc, end);
            }
            if !COLORS || cc < pbound || at!(cells.clr, pp) == 0 {
                // Long options (`WALK` not 0): each is walked as a ring
                // or whole, with no spacer to step over.
                if !cells.hide_each::<TRAIL, CHECK, false, WALK>(cc, end, c) {
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
        if self.spent(&c, limits) {
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

    /// Is a budget of `limits` spent (nodes or updates)? Asked before each
    /// node is entered or counted, the search then pausing there.
    #[inline(always)]
    fn spent(&self, c: &Counters, limits: Limits) -> bool {
        self.nodes >= limits.nodes || c.updates >= limits.updates
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
    fn frontier(&self, most: usize) -> Option<Vec<(usize, Vec<Move>)>> {
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
                    room(&pieces, most)?;
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
                    room(&pieces, most)?;
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
            room(&pieces, most)?;
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
                room(&pieces, most)?;
                let mut piece = path.clone();
                piece.push(Move::Include(self.option_of(at!(self.cells.set, q))));
                pieces.push((depth, piece));
            }
            path.push(Move::Include(self.option_of(at!(self.cells.set, self.cur))));
            depth += 1;
        }
        room(&pieces, most)?;
        pieces.push((depth, path));
        Some(pieces)
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

#[cfg(test)]
mod tests;
