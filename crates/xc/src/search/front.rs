//! The resumable search: the public face of the engine.
//!
//! [`Search::run`] and [`Search::count`] execute steps until something worth
//! reporting happens: a solution ([`Step::Solution`]), a budget reached
//! ([`Step::Paused`]), or the end of the tree ([`Step::Exhausted`]). The state
//! machine is Knuth's: `forward` enters a level and chooses an item, `advance`
//! moves to its next option, `try` commits that option, `backup`/`recover`
//! undo it. Its position is saved between calls, so a caller can stop after
//! any step and continue later: that one loop serves iterators, counts,
//! limits, Ctrl-C and progress reports alike. There is no recursion: the
//! choices live in arrays, one entry per level.
//!
//! Three machines serve it, chosen per problem ([`Engine::Auto`]):
//! * dancing cells (`cells/`, `cellsearch/`), Knuth's sparse sets, for
//!   every problem: Algorithms X, C and M;
//! * bitsets (`bits.rs`), for problems without multiplicities that have at
//!   most a few thousand options, where choosing an option is a few dozen
//!   word operations instead of hundreds of set updates: chosen where their
//!   work per node, from the problem's shape, is not well above the cells'
//!   (`Bits::pays`; many primary items with short options favour the
//!   cells); past that, up to [`crate::core::bitmasks::MAX_OPTIONS`] options, with
//!   the clashes kept item by item (`bitmasks.rs`), where every option has
//!   one primary item and the items have many options (word rectangles);
//! * bitsets for multiplicities (`mbits.rs`, Algorithm M), up to a few
//!   thousand options, chosen where a node's scan of the items costs at most
//!   twice what a try of the cells hides (`MBits::pays`: long options, as in
//!   Knuth's MOTLEY-DLX).
//!
//! All choose items by Knuth's rules (fewest options left, or Algorithm M's
//! least branching degree; ties to the item declared first, or nearest the
//! last one branched on), so they walk the same tree, but for the order in
//! which each tries an item's options.

use std::sync::Arc;

use crate::core::bits::Bits;
use crate::core::machine::{Engine, Limits, Machine, Move, Solve, Step};
use crate::core::problem::CompiledProblem;
use crate::core::rng::Rng;
use crate::core::sliced::{Next, Poll, Slice, Sliced};
use crate::core::stats::Stats;
use crate::search::bitsearch::BitSearch;
use crate::search::cellsearch::CellSearch;
use crate::search::mbits::{MBitSearch, MBits};

/// One search over a compiled problem, with its own working state: a
/// `Machine` (dancing cells or bitsets) and what every machine shares.
#[derive(Debug)]
pub struct Search {
    machine: Box<dyn Machine>,
}

impl Clone for Search {
    fn clone(&self) -> Search {
        Search {
            machine: self.machine.boxed_clone(),
        }
    }
}

impl Search {
    /// A search over `problem`; with a `seed`, options are tried in a random
    /// order and ties between items are broken at random (reproducibly).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use xc::{CompiledProblem, Next, Poll, Search, Slice, Sliced};
    /// // Knuth's first example (TAOCP 7.2.2.1-(5)): items a..g, six options.
    /// let opts: Vec<Vec<u32>> = vec![vec![2, 4], vec![0, 3, 6], vec![1, 2, 5],
    ///                                vec![0, 3, 5], vec![1, 6], vec![3, 4, 6]];
    /// let mut start = vec![0];
    /// for o in &opts { start.push(start.last().unwrap() + o.len() as u32); }
    /// let p = CompiledProblem::new(7, 0, vec![1; 7], vec![1; 7], start,
    ///                              opts.concat(), vec![]).unwrap();
    /// let mut s = Search::new(Arc::new(p), None);
    /// assert_eq!(s.run(Slice::ALL), Poll::Ready(Next::Solution));
    /// assert_eq!(s.solution(), vec![0, 3, 4]);
    /// assert_eq!(s.run(Slice::ALL), Poll::Ready(Next::Exhausted));
    /// ```
    pub fn new(problem: Arc<CompiledProblem>, seed: Option<u64>) -> Search {
        Search::with_engine(problem, seed, Engine::Auto)
    }

    /// The data structure a search for a first solution dances on: dancing
    /// cells, whose options change places as they are hidden and restored
    /// and so spread the search over the problem, where bitsets try each
    /// item's options in one fixed order (the first of 64 queens: 166 nodes
    /// on cells, millions on bitsets); but bitsets with masks where they pay
    /// (past the square table, see `Bits::pays`): there a node of cells
    /// hides thousands of options one by one (word rectangles 6x6 of
    /// 88,224 options: 52 us a node on cells, 10 on bitsets); and Algorithm
    /// M on bitsets where it pays (`MBits::pays`): there the cells too try
    /// an item's options in much the same order, and a node of bitsets costs
    /// a fraction of theirs (Knuth's MOTLEY-DLX 5 12, which has no solution:
    /// 0.12 s where the cells took 0.34 s, the whole command; the benchmark notebook,
    /// "Late (2026-11-27)").
    ///
    /// ```
    /// use xc::{CompiledProblem, Engine, Search};
    /// let p = CompiledProblem::new(1, 0, vec![1], vec![1], vec![0, 1], vec![0], vec![]).unwrap();
    /// assert_eq!(Search::first_engine(&p), Engine::Cells);
    /// ```
    pub fn first_engine(problem: &CompiledProblem) -> Engine {
        if problem.n_options() > crate::core::bits::MAX_OPTIONS && Bits::pays(problem)
            || MBits::pays(problem)
        {
            Engine::Bits
        } else {
            Engine::Cells
        }
    }

    /// The engine whose search in the input order races that of
    /// [`Search::first_engine`] for a first solution, node slices given to
    /// the one that has done the less work (see the portfolio in Python):
    /// bitsets beside the cells, where bitsets are what a count takes.
    /// The cells find first solutions in trees where bitsets take millions
    /// of nodes (the first of 100 queens: 101 nodes on cells, over 3
    /// million on bitsets), and a bitset node costs a quarter to a tenth of
    /// theirs, so that a tree searched to its end takes little more than
    /// the bitsets' time (Knuth's windmill dominoes 3 x 6, which have no
    /// solution: 0.16 s on cells, 0.04 s on bitsets, 0.06 s raced). None
    /// where the first engine is already bitsets: with masks (there a node
    /// of cells hides thousands of options) and for multiplicities, where
    /// the cells, at a fifth of the time, never won on his MOTLEY-DLX and
    /// QUEENDOM-DLX and cost their share.
    ///
    /// ```
    /// use xc::{CompiledProblem, Engine, Search};
    /// // One item, one option: cells first, bitsets for a count.
    /// let p = CompiledProblem::new(1, 0, vec![1], vec![1], vec![0, 1], vec![0], vec![]).unwrap();
    /// assert_eq!(Search::first_beside(&p), Some(Engine::Bits));
    /// assert_eq!(Search::first_engine(&p), Engine::Cells);
    /// // An item taken once or twice: multiplicities run alone.
    /// let m = CompiledProblem::new(1, 0, vec![1], vec![2], vec![0, 1, 2], vec![0, 0], vec![]).unwrap();
    /// assert_eq!(Search::first_beside(&m), None);
    /// ```
    pub fn first_beside(problem: &CompiledProblem) -> Option<Engine> {
        // Where a count takes the square table, the first search is on
        // cells: bitsets go first only with masks or multiplicities. (So
        // this asks `Bits::pays` once, where asking `first_engine` and
        // `engine_for` asked it up to three times, each a pass over every
        // entry.)
        (problem.n_options() <= crate::core::bits::MAX_OPTIONS && Bits::pays(problem))
            .then_some(Engine::Bits)
    }

    /// The data structure a search of `problem` with `engine` dances on
    /// (bitsets or dancing cells; a branching rule's engine is cells).
    ///
    /// ```
    /// use xc::{CompiledProblem, Engine, Search};
    /// let p = CompiledProblem::new(1, 0, vec![1], vec![1], vec![0, 1], vec![0], vec![]).unwrap();
    /// assert_eq!(Search::engine_for(&p, Engine::Cells), Engine::Cells);
    /// ```
    pub fn engine_for(problem: &CompiledProblem, engine: Engine) -> Engine {
        if Bits::chosen(engine, problem) || MBits::chosen(engine, problem) {
            Engine::Bits
        } else {
            Engine::Cells
        }
    }

    /// Like [`Search::new`], with the data structure chosen by the caller.
    pub fn with_engine(problem: Arc<CompiledProblem>, seed: Option<u64>, engine: Engine) -> Search {
        let never = std::sync::atomic::AtomicBool::new(false);
        Search::with_engine_until(problem, seed, engine, &never).expect("never stopped")
    }

    /// [`Search::with_engine`], given up (`None`) once `stop` is raised: the
    /// dancing cells of a million options take most of a second to lay out.
    /// (Bitsets only take problems of a few thousand options: built at once.)
    pub fn with_engine_until(
        problem: Arc<CompiledProblem>,
        seed: Option<u64>,
        engine: Engine,
        stop: &std::sync::atomic::AtomicBool,
    ) -> Option<Search> {
        let machine: Box<dyn Machine> = if Bits::chosen(engine, &problem) {
            Box::new(BitSearch::new(problem, seed))
        } else if MBits::chosen(engine, &problem) {
            Box::new(MBitSearch::new(problem, seed))
        } else {
            let branching = match engine {
                Engine::CellsBy(b) => Some(b),
                _ => None,
            };
            Box::new(CellSearch::new_until(problem, seed, branching, stop)?)
        };
        Some(Search { machine })
    }

    /// The data structure this search dances on.
    pub fn engine(&self) -> Engine {
        self.machine.engine()
    }

    /// Back to the state before any search or forcing (with the same random
    /// order, if any), keeping the allocations: for solving many variants of
    /// one problem, such as Sudoku puzzles that differ by their givens.
    pub fn reset(&mut self) {
        self.machine.reset()
    }

    /// The problem being solved.
    pub fn problem(&self) -> &Arc<CompiledProblem> {
        self.machine.problem()
    }

    /// The counters so far.
    pub fn stats(&self) -> Stats {
        self.machine.stats()
    }

    /// Has the whole tree been explored?
    pub fn is_exhausted(&self) -> bool {
        self.machine.is_exhausted()
    }

    /// The options of the solution just reported by [`Step::Solution`], in
    /// increasing order (forced options included).
    pub fn solution(&self) -> Vec<u32> {
        let mut out = Vec::new();
        self.solution_into(&mut out);
        out
    }

    /// Like [`Self::solution`], reusing `out`'s allocation.
    pub fn solution_into(&self, out: &mut Vec<u32>) {
        self.machine.solution_into(out);
        out.sort_unstable();
    }

    /// Puts option `o` into every solution, before the search starts; returns
    /// false (and changes nothing) when `o` conflicts with the options already
    /// forced, in which case the problem has no solution at all.
    ///
    /// This is how a Sudoku's givens are placed without rebuilding the problem.
    /// It panics if the search has started.
    pub fn force(&mut self, o: u32) -> bool {
        self.machine.force(o)
    }

    /// Leaves option `o` out of every solution, before the search starts;
    /// false (and no change) when it could not be chosen anyway.
    pub fn exclude(&mut self, o: u32) -> bool {
        self.machine.exclude(o)
    }

    /// Applies the moves of a piece, before the search starts; false when an
    /// included option clashes with the moves before it (the piece is empty).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use xc::{CompiledProblem, Move, Search};
    /// // Items 0 1; options {0} {1} {0 1}: two solutions, one without option 2.
    /// let p = CompiledProblem::new(2, 0, vec![1; 2], vec![1; 2], vec![0, 1, 2, 4],
    ///                              vec![0, 1, 0, 1], vec![]).unwrap();
    /// let mut s = Search::new(Arc::new(p), None);
    /// assert!(s.apply(&[Move::Exclude(2)]));
    /// assert_eq!(s.count_all(), 1);
    /// ```
    pub fn apply(&mut self, moves: &[Move]) -> bool {
        for &m in moves {
            match m {
                Move::Include(o) => {
                    if !self.force(o) {
                        return false;
                    }
                }
                Move::Exclude(o) => {
                    self.exclude(o);
                }
            }
        }
        true
    }

    /// The unexplored part of a search paused before a node ([`Step::Paused`]
    /// on a node or update limit): pieces, as moves after those applied, that
    /// together hold exactly the solutions not yet found.
    pub fn frontier(&self) -> Vec<Vec<Move>> {
        self.tagged_frontier().into_iter().map(|(_, p)| p).collect()
    }

    /// The frontier with each piece's share of the tree of the paused
    /// search, by Knuth's uniform-tree assumption: a branch at depth `l`
    /// weighs `1 / (d_0 ... d_l)` of the progress path's degrees, and the
    /// node about to be entered weighs the product down to it. The shares
    /// add up to at most 1; the rest, `1 - sum`, is the part explored.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use xc::{CompiledProblem, Poll, Search, Slice, Sliced};
    /// // Items A and B, four options each: 16 solutions.
    /// let p = Arc::new(CompiledProblem::new(2, 0, vec![1; 2], vec![1; 2],
    ///     (0..=8).collect(), vec![0, 0, 0, 0, 1, 1, 1, 1], vec![]).unwrap());
    /// let mut s = Search::new(p, None);
    /// // Paused below the root, on the first of its four branches.
    /// assert_eq!(s.run(Slice::work(1)), Poll::Pending);
    /// let shares: Vec<f64> = s.frontier_shares().into_iter().map(|(_, w)| w).collect();
    /// assert_eq!(shares, vec![0.25; 4]);
    /// ```
    pub fn frontier_shares(&self) -> Vec<(Vec<Move>, f64)> {
        self.frontier_shares_within(usize::MAX)
            .expect("no frontier has usize::MAX pieces")
    }

    /// [`Search::frontier_shares`], or None as soon as it would have more
    /// than `most` pieces: each is a copy of the path above it, and the
    /// frontier of a search 30,000 levels deep (an L-tromino board of 300 x
    /// 300) took 96 s to make, where the caller wanted a few hundred pieces
    /// or none.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use xc::{CompiledProblem, Poll, Search, Slice, Sliced};
    /// let p = Arc::new(CompiledProblem::new(2, 0, vec![1; 2], vec![1; 2],
    ///     (0..=8).collect(), vec![0, 0, 0, 0, 1, 1, 1, 1], vec![]).unwrap());
    /// let mut s = Search::new(p, None);
    /// assert_eq!(s.run(Slice::work(1)), Poll::Pending);
    /// assert_eq!(s.frontier_shares_within(4).map(|f| f.len()), Some(4));
    /// assert!(s.frontier_shares_within(3).is_none());
    /// ```
    pub fn frontier_shares_within(&self, most: usize) -> Option<Vec<(Vec<Move>, f64)>> {
        let tagged = self.machine.frontier(most)?;
        let path = self.progress();
        // Width of one branch at each depth, and the branches made there.
        let mut width = Vec::with_capacity(path.len() + 1);
        let mut w = 1.0;
        for &(_, d) in &path {
            w /= d.max(1) as f64;
            width.push(w);
        }
        width.push(w);
        let mut made = vec![0usize; width.len()];
        for (l, _) in &tagged {
            made[(*l).min(path.len())] += 1;
        }
        Some(
            tagged
                .into_iter()
                .map(|(l, piece)| {
                    let l = l.min(path.len());
                    let share = match path.get(l) {
                        // The branches after choice k of d at depth l share
                        // (d - k) widths (Algorithm M may make fewer pieces).
                        Some(&(k, d)) => d.saturating_sub(k) as f64 * width[l] / made[l] as f64,
                        None => width[l],
                    };
                    (piece, share)
                })
                .collect(),
        )
    }

    fn tagged_frontier(&self) -> Vec<(usize, Vec<Move>)> {
        self.machine
            .frontier(usize::MAX)
            .expect("no frontier has usize::MAX pieces")
    }

    /// The branches of the first node of a search not yet started: None if
    /// the node is itself a solution, else one piece per branch (none at a
    /// dead end). Their solutions partition the search's.
    pub fn children(&mut self) -> Option<Vec<Vec<Move>>> {
        self.machine.children()
    }

    /// Knuth's estimate of the number of nodes of the search (not yet
    /// started), averaged over `probes` random paths down the tree.
    pub fn estimate(&mut self, probes: u32, rng: &mut Rng) -> f64 {
        let never = std::sync::atomic::AtomicBool::new(false);
        self.estimate_until(probes, rng, &never).unwrap_or(0.0)
    }

    /// [`Self::estimate`], given up (`None`) when `halt` is raised: a probe
    /// of a problem of a million options walks thousands of options per
    /// level, so the flag is checked at every level of every probe.
    pub fn estimate_until(
        &mut self,
        probes: u32,
        rng: &mut Rng,
        halt: &std::sync::atomic::AtomicBool,
    ) -> Option<f64> {
        let mut unlimited = u64::MAX;
        self.estimate_within(probes, rng, halt, &mut unlimited)
    }

    /// [`Self::estimate_until`] within a budget of `updates`, taken down by
    /// each probe's: the probes stop once it is spent (after the first,
    /// which is always made). A probe of a million options takes millions
    /// of updates, each a cache miss, where one of a puzzle takes hundreds;
    /// a budget in updates, unlike one in seconds, gives the same estimate
    /// on every machine.
    pub fn estimate_within(
        &mut self,
        probes: u32,
        rng: &mut Rng,
        halt: &std::sync::atomic::AtomicBool,
        updates: &mut u64,
    ) -> Option<f64> {
        let (mut total, mut made) = (0.0, 0u32);
        while made < probes.max(1) {
            let mut spent = 0;
            total += self.machine.probe(rng, halt, &mut spent)?;
            made += 1;
            *updates = updates.saturating_sub(spent);
            if *updates == 0 {
                break;
            }
        }
        Some((total / made as f64).min(crate::core::machine::MOST_ESTIMATE))
    }

    /// Runs until the next solution, the end, or the limits.
    pub(crate) fn run(&mut self, limits: Limits) -> Step {
        self.machine.run(limits)
    }

    /// Counts solutions without reporting them, until the end ([`Step::Exhausted`]),
    /// the limits, or `stats().solutions >= target` (both [`Step::Paused`]).
    /// When the last primary item is reached, its options are counted without
    /// being tried one by one, so the count may pass `target` a little.
    pub(crate) fn count(&mut self, limits: Limits, target: u64) -> Step {
        self.machine.count(limits, target)
    }

    /// The absolute limits of a slice counted from now.
    fn limits(&self, slice: Slice) -> Limits {
        let st = self.stats();
        Limits {
            nodes: st.nodes.saturating_add(slice.work),
            updates: slice
                .updates
                .map_or(u64::MAX, |u| st.updates.saturating_add(u)),
        }
    }

    /// Counts solutions without reporting them, for at most `slice`:
    /// [`Poll::Ready`] with `stats().solutions` at the end or once it has
    /// reached `target` (it may pass it a little: the options of the last
    /// primary item are counted without being tried one by one), else
    /// [`Poll::Pending`], to be called again. (The count's form of the one
    /// run protocol, [`Sliced`].)
    pub fn count_in(&mut self, slice: Slice, target: u64) -> Poll<u64> {
        let limits = self.limits(slice);
        let step = self.machine.count(limits, target);
        let solutions = self.stats().solutions;
        if step == Step::Exhausted || solutions >= target {
            Poll::Ready(solutions)
        } else {
            Poll::Pending
        }
    }

    /// Knuth's progress path: for each level above the forced ones, the choice
    /// being explored as `(k, d)`, "the k-th of d".
    pub fn progress(&self) -> Vec<(u32, u32)> {
        self.machine.progress()
    }

    /// Knuth's estimate of the fraction of the tree explored (0 to 1).
    pub fn fraction_done(&self) -> f64 {
        if self.is_exhausted() {
            1.0
        } else {
            crate::core::stats::fraction_done(&self.progress())
        }
    }

    /// The part of the tree searched to the end ([`crate::fraction_explored`]):
    /// never more than [`Search::fraction_done`], and what splitting the
    /// search here leaves out of its frontier's shares.
    pub fn fraction_explored(&self) -> f64 {
        if self.is_exhausted() {
            1.0
        } else {
            crate::core::stats::fraction_explored(&self.progress())
        }
    }

    /// Total solutions, by running to the end (a convenience for tests and
    /// the Rust examples; Python drives [`Search::count`] in slices).
    pub fn count_all(&mut self) -> u64 {
        while self.count(Limits::NONE, u64::MAX) != Step::Exhausted {}
        self.stats().solutions
    }

    /// All remaining solutions (for tests): [`Solve::all_solutions`].
    pub fn all_solutions(&mut self) -> Vec<Vec<u32>> {
        Solve::all_solutions(self)
    }
}

/// The methods of the same names above.
impl Solve for Search {
    fn force(&mut self, o: u32) -> bool {
        Search::force(self, o)
    }
    fn run(&mut self, limits: Limits) -> Step {
        Search::run(self, limits)
    }
    fn solution_into(&self, out: &mut Vec<u32>) {
        Search::solution_into(self, out)
    }
    fn stats(&self) -> Stats {
        Search::stats(self)
    }
    fn is_exhausted(&self) -> bool {
        Search::is_exhausted(self)
    }
}

#[allow(dead_code)]
fn assert_send_sync() {
    fn is<T: Send + Sync>() {}
    is::<Search>();
}

/// The search in slices of nodes; the outcome is the next solution (read
/// with `solution`) or the end.
impl Sliced for Search {
    type Outcome = Next;

    fn run(&mut self, slice: Slice) -> Poll<Next> {
        let limits = self.limits(slice);
        match Search::run(self, limits) {
            Step::Solution => Poll::Ready(Next::Solution),
            Step::Exhausted => Poll::Ready(Next::Exhausted),
            Step::Paused => Poll::Pending,
        }
    }
}
