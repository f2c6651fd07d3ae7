//! The resumable search: Knuth's Algorithm X/C (as in SSXCC) and Algorithm M
//! (as in DLX3, on sparse sets), with an explicit choice stack and no recursion.
//!
//! [`Search::run`] and [`Search::count`] execute steps until something worth
//! reporting happens: a solution ([`Step::Solution`]), a budget reached
//! ([`Step::Paused`]), or the end of the tree ([`Step::Exhausted`]). The state
//! machine is Knuth's: `forward` enters a level and chooses an item, `advance`
//! moves to its next option, `try` commits that option, `backup`/`recover`
//! undo it. Its position is saved in `resume`, so a caller can stop after any
//! step and continue later: that one loop serves iterators, counts, limits,
//! Ctrl-C and progress reports alike.
//!
//! Two loops share the data structure:
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

use crate::cells::{at, Cells, Counters};
use crate::problem::CompiledProblem;
use crate::rng::Rng;
use crate::stats::{fraction_done, Stats};

/// What a slice of search ended with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A solution is ready in [`Search::solution`].
    Solution,
    /// A budget of [`Limits`] was reached (or, when counting, the target count);
    /// calling again continues where it stopped.
    Paused,
    /// The whole tree has been explored.
    Exhausted,
}

/// Absolute values of the counters at which a slice pauses.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Pause before entering a node once `stats().nodes` has reached this.
    pub nodes: u64,
    /// Pause before entering a node once `stats().updates` has reached this.
    pub updates: u64,
}

impl Limits {
    /// No limit at all.
    pub const NONE: Limits = Limits { nodes: u64::MAX, updates: u64::MAX };
}

/// Where the state machine stands between two slices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
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
    Done,
}

/// The "no option" choice of Algorithm M's null branch.
const NULL: u32 = u32::MAX;

/// One search over a compiled problem, with its own copy of the dancing cells.
#[derive(Clone, Debug)]
pub struct Search {
    problem: Arc<CompiledProblem>,
    cells: Cells,
    counters: Counters,
    nodes: u64,
    solutions: u64,
    max_level: usize,
    level: usize,
    /// Levels below `base` hold forced options (see [`Search::force`]).
    base: usize,
    /// The node chosen at each level (`NULL` for Algorithm M's null branch).
    choice: Vec<u32>,
    /// The item branched on at each level.
    best: Vec<u32>,
    /// Algorithm M: the size of `best`'s set on entering the level (Knuth's
    /// FT, first tweak), to untweak; also the branching degree, for progress.
    ft: Vec<u32>,
    deg: Vec<u32>,
    /// Position in `set` of the next option to try at the current level.
    cur: u32,
    state: State,
    sol_len: usize,
    rng: Option<Rng>,
    mcc: bool,
    colors: bool,
}

impl Search {
    /// A search over `problem`; with a `seed`, options are tried in a random
    /// order and ties between items are broken at random (reproducibly).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use xc::{CompiledProblem, Search, Step, Limits};
    /// // Knuth's first example (TAOCP 7.2.2.1-(5)): items a..g, six options.
    /// let opts: Vec<Vec<u32>> = vec![vec![2, 4], vec![0, 3, 6], vec![1, 2, 5],
    ///                                vec![0, 3, 5], vec![1, 6], vec![3, 4, 6]];
    /// let mut start = vec![0];
    /// for o in &opts { start.push(start.last().unwrap() + o.len() as u32); }
    /// let p = CompiledProblem::new(7, 0, vec![1; 7], vec![1; 7], start,
    ///                              opts.concat(), vec![]).unwrap();
    /// let mut s = Search::new(Arc::new(p), None);
    /// assert_eq!(s.run(Limits::NONE), Step::Solution);
    /// assert_eq!(s.solution(), vec![0, 3, 4]);
    /// assert_eq!(s.run(Limits::NONE), Step::Exhausted);
    /// ```
    pub fn new(problem: Arc<CompiledProblem>, seed: Option<u64>) -> Search {
        let mut rng = seed.map(Rng::new);
        let cells = Cells::new(&problem, rng.as_mut());
        // A level chooses a distinct option, or (Algorithm M) gives up on a
        // primary item for good; so this many levels always suffice.
        let depth = problem.n_options() + problem.n_primary() + 1;
        let mcc = problem.has_multiplicities();
        let colors = problem.has_colors();
        Search {
            problem,
            cells,
            counters: Counters::default(),
            nodes: 0,
            solutions: 0,
            max_level: 0,
            level: 0,
            base: 0,
            choice: vec![0; depth],
            best: vec![0; depth],
            ft: if mcc { vec![0; depth] } else { Vec::new() },
            deg: if mcc { vec![0; depth] } else { Vec::new() },
            cur: 0,
            state: State::Forward,
            sol_len: 0,
            rng,
            mcc,
            colors,
        }
    }

    /// The problem being solved.
    pub fn problem(&self) -> &Arc<CompiledProblem> {
        &self.problem
    }

    /// The counters so far.
    pub fn stats(&self) -> Stats {
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
    pub fn is_exhausted(&self) -> bool {
        self.state == State::Done
    }

    /// The options of the solution just reported by [`Step::Solution`], in
    /// increasing order (forced options included).
    pub fn solution(&self) -> Vec<u32> {
        let mut out = Vec::with_capacity(self.sol_len);
        self.solution_into(&mut out);
        out
    }

    /// Like [`Self::solution`], reusing `out`'s allocation.
    pub fn solution_into(&self, out: &mut Vec<u32>) {
        out.clear();
        for &node in &self.choice[..self.sol_len] {
            if node != NULL {
                out.push(self.cells.node_option[node as usize]);
            }
        }
        out.sort_unstable();
    }

    /// Puts option `o` into every solution, before the search starts; returns
    /// false (and changes nothing) when `o` conflicts with the options already
    /// forced, in which case the problem has no solution at all.
    ///
    /// This is how a Sudoku's givens are placed without rebuilding the problem.
    pub fn force(&mut self, o: u32) -> bool {
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
            if self.colors {
                self.cells.hide::<true>(x, &mut c);
            } else {
                self.cells.hide::<false>(x, &mut c);
            }
            self.cells.remove_from_own_set(x, &mut c);
            let b = self.cells.bound(i) - 1;
            self.cells.set_bound(i, b);
            if b == 0 {
                self.cover(i, &mut c);
            }
            if self.colors {
                self.commit_mcc::<true>(x, &mut c);
            } else {
                self.commit_mcc::<false>(x, &mut c);
            }
        } else {
            self.cover(i, &mut c);
            if self.colors {
                self.commit::<true>(x, &mut c);
            } else {
                self.commit::<false>(x, &mut c);
            }
        }
        self.counters = c;
        self.choice[self.level] = x;
        self.best[self.level] = i;
        self.level += 1;
        self.base = self.level;
        true
    }

    fn cover(&mut self, i: u32, c: &mut Counters) {
        if self.colors {
            self.cells.cover::<true>(i, c)
        } else {
            self.cells.cover::<false>(i, c)
        }
    }

    /// Runs until the next solution, the end, or the limits.
    pub fn run(&mut self, limits: Limits) -> Step {
        match (self.mcc, self.colors) {
            (false, false) => self.run_xcc::<false, false>(limits, u64::MAX),
            (false, true) => self.run_xcc::<true, false>(limits, u64::MAX),
            (true, false) => self.run_mcc::<false, false>(limits, u64::MAX),
            (true, true) => self.run_mcc::<true, false>(limits, u64::MAX),
        }
    }

    /// Counts solutions without reporting them, until the end ([`Step::Exhausted`]),
    /// the limits, or `stats().solutions >= target` (both [`Step::Paused`]).
    /// When the last primary item is reached, its options are counted without
    /// being tried one by one, so the count may pass `target` a little.
    pub fn count(&mut self, limits: Limits, target: u64) -> Step {
        match (self.mcc, self.colors) {
            (false, false) => self.run_xcc::<false, true>(limits, target),
            (false, true) => self.run_xcc::<true, true>(limits, target),
            (true, false) => self.run_mcc::<false, true>(limits, target),
            (true, true) => self.run_mcc::<true, true>(limits, target),
        }
    }

    /// Knuth's progress path: for each level above the forced ones, the choice
    /// being explored as `(k, d)`, "the k-th of d".
    pub fn progress(&self) -> Vec<(u32, u32)> {
        let mut path = Vec::new();
        let top = if self.state == State::Done { self.base } else { self.level };
        for l in self.base..top {
            let i = self.best[l];
            let node = self.choice[l];
            if self.mcc {
                let d = self.deg[l];
                let k = if node == NULL {
                    d
                } else if self.cells.bound(i) == 0 && self.cells.slack(i) == 0 {
                    at!(self.cells.nd, node).loc - i + 1
                } else {
                    self.ft[l] - self.cells.size(i)
                };
                path.push((k.min(d).max(1), d.max(1)));
            } else {
                path.push((at!(self.cells.nd, node).loc - i + 1, self.cells.size(i)));
            }
        }
        path
    }

    /// Knuth's estimate of the fraction of the tree explored (0 to 1).
    pub fn fraction_done(&self) -> f64 {
        if self.state == State::Done {
            1.0
        } else {
            fraction_done(&self.progress())
        }
    }

    /// Chooses the primary item with the fewest options (Knuth's MRV
    /// heuristic); ties go to the first in the active list, or to a random one
    /// when randomizing. Returns `(item, size)`.
    #[inline(always)]
    fn choose_xcc(&mut self, c: &mut Counters) -> (u32, u32) {
        let cells = &self.cells;
        let mut t = u32::MAX;
        let mut best = 0;
        if let Some(rng) = self.rng.as_mut() {
            let mut ties = 0u64;
            for k in 0..cells.active {
                let x = at!(cells.item, k);
                let s = cells.size(x);
                if s < t {
                    t = s;
                    best = x;
                    ties = 1;
                } else if s == t {
                    ties += 1;
                    if rng.below(ties) == 0 {
                        best = x;
                    }
                }
            }
        } else {
            // Scanning from the end breaks ties in favour of the item that
            // entered the active list last; on the pentominoes this visits 12%
            // fewer nodes than the first-in-list rule (3.60M against 4.11M).
            let mut k = cells.active;
            while k > 0 {
                k -= 1;
                let x = at!(cells.item, k);
                let s = cells.size(x);
                if s < t {
                    t = s;
                    best = x;
                    if s == 0 {
                        break; // a dead end: no need to look further
                    }
                }
            }
        }
        c.mems += 2 * cells.active as u64;
        (best, t)
    }

    /// Chooses all the other items of the option of node `cur` (Knuth's
    /// "cover all other items of cur_node"): cover the uncolored ones, purify
    /// the colored ones, skip those already purified to this color.
    #[inline(always)]
    fn commit<const COLORS: bool>(&mut self, cur: u32, c: &mut Counters) {
        let cells = &mut self.cells;
        let mut pp = cur + 1;
        while pp != cur {
            let cc = at!(cells.nd, pp).itm;
            if cc <= 0 {
                pp = (pp as i32 + cc) as u32;
                continue;
            }
            c.mems += 1;
            if !COLORS {
                cells.cover::<false>(cc as u32, c);
            } else {
                let k = at!(cells.clr, pp);
                if k == 0 {
                    cells.cover::<true>(cc as u32, c);
                } else if k > 0 {
                    cells.purify(pp, c);
                }
            }
            pp += 1;
        }
    }

    /// Undoes [`Self::commit`], walking the option leftward.
    #[inline(always)]
    fn uncommit<const COLORS: bool>(&mut self, cur: u32, c: &mut Counters) {
        let cells = &mut self.cells;
        let mut pp = cur - 1;
        while pp != cur {
            let node = at!(cells.nd, pp);
            if node.itm <= 0 {
                pp += node.loc;
                continue;
            }
            c.mems += 1;
            if !COLORS {
                cells.uncover::<false>(node.itm as u32, c);
            } else {
                let k = at!(cells.clr, pp);
                if k == 0 {
                    cells.uncover::<true>(node.itm as u32, c);
                } else if k > 0 {
                    cells.unpurify(pp, c);
                }
            }
            pp -= 1;
        }
    }

    fn save(&mut self, level: usize, state: State, c: Counters) {
        self.level = level;
        self.state = state;
        self.counters = c;
    }

    /// Algorithms X and C.
    fn run_xcc<const COLORS: bool, const COUNT: bool>(&mut self, limits: Limits, target: u64) -> Step {
        let mut c = self.counters;
        let mut level = self.level;
        let mut state = self.state;
        let mut cur = self.cur;
        let mut best = self.best.get(level).copied().unwrap_or(0);
        if state == State::Recover {
            // Resuming after a solution: the level's choice tells where we were.
            let node = self.choice[level];
            best = at!(self.cells.nd, node).itm as u32;
            cur = at!(self.cells.nd, node).loc;
        }
        loop {
            match state {
                State::Forward => {
                    if self.nodes >= limits.nodes || c.updates >= limits.updates {
                        self.save(level, State::Forward, c);
                        return Step::Paused;
                    }
                    self.nodes += 1;
                    if level > self.max_level {
                        self.max_level = level;
                    }
                    if self.cells.active == 0 {
                        // Only reachable when forced options cover everything.
                        self.sol_len = level;
                        self.solutions += 1;
                        state = State::DoneWithLevel;
                        if !COUNT {
                            self.save(level, state, c);
                            return Step::Solution;
                        }
                        continue;
                    }
                    let (x, t) = self.choose_xcc(&mut c);
                    best = x;
                    self.best[level] = x;
                    if t == 0 {
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
                    } else {
                        self.cells.cover::<COLORS>(x, &mut c);
                        cur = x;
                        state = State::Try;
                    }
                }
                State::Leaf => {
                    if cur >= best + self.cells.size(best) {
                        state = State::DoneWithLevel;
                        continue;
                    }
                    if COUNT {
                        self.solutions += (best + self.cells.size(best) - cur) as u64;
                        state = State::DoneWithLevel;
                        continue;
                    }
                    self.choice[level] = at!(self.cells.set, cur);
                    cur += 1;
                    self.sol_len = level + 1;
                    self.solutions += 1;
                    self.cur = cur;
                    self.save(level, State::Leaf, c);
                    return Step::Solution;
                }
                State::Advance => {
                    state = if cur >= best + self.cells.size(best) { State::Backup } else { State::Try };
                }
                State::Try => {
                    let node = at!(self.cells.set, cur);
                    self.choice[level] = node;
                    self.commit::<COLORS>(node, &mut c);
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
                    self.cells.uncover::<COLORS>(best, &mut c);
                    state = State::DoneWithLevel;
                }
                State::DoneWithLevel => {
                    if level == self.base {
                        self.save(level, State::Done, c);
                        return Step::Exhausted;
                    }
                    level -= 1;
                    let node = self.choice[level];
                    best = at!(self.cells.nd, node).itm as u32;
                    cur = at!(self.cells.nd, node).loc;
                    state = State::Recover;
                }
                State::Recover => {
                    let node = self.choice[level];
                    self.uncommit::<COLORS>(node, &mut c);
                    cur += 1;
                    state = State::Advance;
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
    /// to the longer list, as in Knuth's DLX3. Returns `(item, degree)`.
    #[inline(always)]
    fn choose_mcc(&mut self, c: &mut Counters) -> (u32, i64) {
        let cells = &self.cells;
        let mut score = i64::MAX;
        let (mut best, mut best_s, mut best_l) = (0u32, 0u32, 0u32);
        let mut ties = 0u64;
        for k in 0..cells.active {
            let x = at!(cells.item, k);
            let b = cells.bound(x);
            let s = cells.slack(x).min(b);
            let l = cells.size(x);
            let t = l as i64 + s as i64 - b as i64 + 1;
            if t < score || (t == score && (s < best_s || (s == best_s && l > best_l))) {
                (score, best, best_s, best_l) = (t, x, s, l);
                ties = 1;
            } else if t == score && s == best_s && l == best_l {
                ties += 1;
                if let Some(rng) = self.rng.as_mut() {
                    if rng.below(ties) == 0 {
                        best = x;
                    }
                }
            }
        }
        c.mems += 3 * cells.active as u64;
        (best, score)
    }

    /// Takes the option of node `x` into the solution (step M6): every other
    /// primary item uses up one unit of its bound and is covered when none is
    /// left; secondary items are covered or purified as in Algorithm C.
    #[inline(always)]
    fn commit_mcc<const COLORS: bool>(&mut self, x: u32, c: &mut Counters) {
        let cells = &mut self.cells;
        let mut pp = x + 1;
        while pp != x {
            let cc = at!(cells.nd, pp).itm;
            if cc <= 0 {
                pp = (pp as i32 + cc) as u32;
                continue;
            }
            let cc = cc as u32;
            c.mems += 2;
            if cells.pos(cc) < cells.second {
                let b = cells.bound(cc) - 1;
                cells.set_bound(cc, b);
                if b == 0 {
                    cells.cover::<COLORS>(cc, c);
                }
            } else if !COLORS || at!(cells.clr, pp) == 0 {
                cells.cover::<COLORS>(cc, c);
            } else if at!(cells.clr, pp) > 0 {
                cells.purify(pp, c);
            }
            pp += 1;
        }
    }

    /// Undoes [`Self::commit_mcc`], walking leftward.
    #[inline(always)]
    fn uncommit_mcc<const COLORS: bool>(&mut self, x: u32, c: &mut Counters) {
        let cells = &mut self.cells;
        let mut pp = x - 1;
        while pp != x {
            let node = at!(cells.nd, pp);
            if node.itm <= 0 {
                pp += node.loc;
                continue;
            }
            let cc = node.itm as u32;
            c.mems += 2;
            if cells.pos(cc) < cells.second {
                let b = cells.bound(cc);
                if b == 0 {
                    cells.uncover::<COLORS>(cc, c);
                }
                cells.set_bound(cc, b + 1);
            } else if !COLORS || at!(cells.clr, pp) == 0 {
                cells.uncover::<COLORS>(cc, c);
            } else if at!(cells.clr, pp) > 0 {
                cells.unpurify(pp, c);
            }
            pp -= 1;
        }
    }

    /// Algorithm M (TAOCP 7.2.2.1), on sparse sets.
    fn run_mcc<const COLORS: bool, const COUNT: bool>(&mut self, limits: Limits, target: u64) -> Step {
        let mut c = self.counters;
        let mut level = self.level;
        let mut state = self.state;
        let mut cur = self.cur;
        loop {
            match state {
                State::Forward => {
                    // M2: enter the level.
                    if self.nodes >= limits.nodes || c.updates >= limits.updates {
                        self.save(level, State::Forward, c);
                        return Step::Paused;
                    }
                    self.nodes += 1;
                    if level > self.max_level {
                        self.max_level = level;
                    }
                    if self.cells.active == 0 {
                        self.sol_len = level;
                        self.solutions += 1;
                        state = State::DoneWithLevel;
                        if !COUNT || self.solutions >= target {
                            self.save(level, state, c);
                            return if COUNT { Step::Paused } else { Step::Solution };
                        }
                        continue;
                    }
                    // M3: choose the item i.
                    let (i, score) = self.choose_mcc(&mut c);
                    if score <= 0 {
                        state = State::DoneWithLevel; // too few options left for i
                        continue;
                    }
                    // M4: prepare to branch on i.
                    self.best[level] = i;
                    self.deg[level] = score as u32;
                    let b = self.cells.bound(i) - 1;
                    self.cells.set_bound(i, b);
                    if b == 0 {
                        self.cells.cover::<COLORS>(i, &mut c);
                    }
                    self.ft[level] = self.cells.size(i);
                    cur = i;
                    state = State::Advance;
                }
                State::Advance => {
                    // M5: possibly tweak the next option.
                    let i = self.best[level];
                    let b = self.cells.bound(i);
                    let slack = self.cells.slack(i);
                    let s = self.cells.size(i);
                    if b == 0 && slack == 0 {
                        // Exactly one more: plain branching over the covered item.
                        if cur >= i + s {
                            state = State::Restore;
                        } else {
                            self.choice[level] = at!(self.cells.set, cur);
                            state = State::Try;
                        }
                    } else if s as i64 <= b as i64 - slack as i64 {
                        state = State::Restore; // the lower bound can no longer be met
                    } else if s > 0 {
                        let x = at!(self.cells.set, i);
                        if b != 0 {
                            self.cells.hide::<COLORS>(x, &mut c);
                        }
                        self.cells.remove_from_own_set(x, &mut c);
                        self.choice[level] = x;
                        state = State::Try;
                    } else {
                        // The null branch: i takes no more options.
                        if b != 0 {
                            let k = self.cells.pos(i);
                            self.cells.deactivate(i, k);
                        }
                        self.choice[level] = NULL;
                        level += 1;
                        state = State::Forward;
                    }
                }
                State::Try => {
                    // M6: try the option.
                    let x = self.choice[level];
                    self.commit_mcc::<COLORS>(x, &mut c);
                    level += 1;
                    state = State::Forward;
                }
                State::DoneWithLevel => {
                    // M9: leave the level.
                    if level == self.base {
                        self.save(level, State::Done, c);
                        return Step::Exhausted;
                    }
                    level -= 1;
                    let x = self.choice[level];
                    let i = self.best[level];
                    if x == NULL {
                        if self.cells.bound(i) != 0 {
                            self.cells.active += 1; // reactivate i
                        }
                        state = State::Restore;
                    } else {
                        // M7: try again.
                        self.uncommit_mcc::<COLORS>(x, &mut c);
                        if self.cells.bound(i) == 0 && self.cells.slack(i) == 0 {
                            cur = at!(self.cells.nd, x).loc + 1;
                        }
                        state = State::Advance;
                    }
                }
                State::Restore => {
                    // M8: restore i (uncover, or untweak).
                    let i = self.best[level];
                    let b = self.cells.bound(i);
                    if b == 0 && self.cells.slack(i) == 0 {
                        self.cells.uncover::<COLORS>(i, &mut c);
                    } else {
                        let s = self.cells.size(i);
                        let f = self.ft[level];
                        if b != 0 {
                            for q in i + s..i + f {
                                let x = at!(self.cells.set, q);
                                self.cells.unhide::<COLORS>(x, &mut c);
                            }
                        }
                        self.cells.set_size(i, f);
                        if b == 0 {
                            self.cells.uncover::<COLORS>(i, &mut c);
                        }
                    }
                    self.cells.set_bound(i, b + 1);
                    state = State::DoneWithLevel;
                }
                State::Done => {
                    self.save(level, State::Done, c);
                    return Step::Exhausted;
                }
                State::Backup | State::Recover | State::Leaf => {
                    unreachable!("Algorithm X state in Algorithm M")
                }
            }
        }
    }
}

impl Search {
    /// Total solutions, by running to the end (a convenience for tests and
    /// the Rust benches; Python drives [`Search::count`] in slices).
    pub fn count_all(&mut self) -> u64 {
        while self.count(Limits::NONE, u64::MAX) != Step::Exhausted {}
        self.solutions
    }

    /// All remaining solutions (for tests).
    pub fn all_solutions(&mut self) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        while self.run(Limits::NONE) == Step::Solution {
            out.push(self.solution());
        }
        out
    }
}

#[allow(dead_code)]
fn assert_send_sync() {
    fn is<T: Send + Sync>() {}
    is::<Search>();
}
