//! Branch and bound on the linear relaxation of set partitioning, solved
//! exactly at every node by the dual simplex (the `lp` crate): what proves
//! the airline crew instances whose relaxation is a percent or two under
//! the optimum and whose thousands of columns keep the search on dancing
//! links from ever closing that gap (air04, air05).
//!
//! How it goes (the plan of a MIP solver, kept to what set partitioning
//! needs, every rule chosen by measure on air04 and air05):
//!
//! - **The root, with restarts.** The relaxation is solved; with a cost to
//!   beat known (found by the search on dancing links or its dives, which
//!   `Cheapest` of `mincost/` runs beside this), every column whose reduced
//!   cost is more than the gap leaves, and DLX-PRE's reductions
//!   (`reduce.rs`: an item whose options all hold another, an option that
//!   blocks an item) take out rows and columns that can no longer be in a
//!   solution; the smaller relaxation is solved again, while that keeps
//!   shrinking it. air04 goes from 823 x 8,904 to 560 x 4,600 (an
//!   iteration of the simplex costs the square of the rows). A better cost
//!   to beat arriving early in the tree starts the root over.
//! - **Clique cuts at the root** (the `lp` crate's `cliques.rs`): rows `sum x_j <= 1` over
//!   options that meet two by two, which the relaxation's solution breaks,
//!   added in rounds (the basis kept) while a round raises the bound by
//!   [`CUT_GAIN`] of what the rounds have; those the final root does not
//!   lean on leave again. air05's root goes from 25,877.6 to 25,968.2 (the
//!   optimum 26,374), air04's from 55,535.4 to 55,640.1; seeded proofs
//!   of both in ten column orders took 68.8 s in all instead of 75.4 s,
//!   and the race of `mincost/` on air05's five 80.3 s instead of 99.1 s.
//!   They stay through restarts, on the columns left.
//! - **Nodes, best bound first**, each a set of columns fixed at 0 or 1;
//!   a node's bound is the simplex's dual bound, valid for any multipliers
//!   (a node is cut only when it passes the cost to beat less 1, costs
//!   being whole, by a margin over rounding). After a branch the child of
//!   least estimate (its bound plus the gain its pseudocosts foresee) is
//!   solved next while it stays in the lower [`PLUNGE`] of the gap (a
//!   *plunge*, SCIP's rule): what finds the tree's own solutions (air05:
//!   26,510 in 5 s, where best first alone took 28 s to its first).
//! - **Branching on a column** (`x_j = 1`, `x_j = 0`), the one whose two
//!   children raise the bound most (the product of the two gains): *reliability
//!   branching*, each gain estimated by the column's pseudocosts (the mean
//!   gain per unit of change seen so far) once it has [`RELIABLE`] of them,
//!   and else tried (*strong branching*: the child's relaxation, at most
//!   [`STRONG_ITERATIONS`] iterations of the simplex from the node's basis)
//!   for the [`STRONG_CANDIDATES`] columns nearest to 1/2. A child found
//!   empty or cut by its trial is not made: the column is fixed the other
//!   way in the node's one child. A trial, like a node's solve, ends as
//!   soon as its bound passes the cost to beat (the simplex's cutoff).
//! - **Reduced-cost fixing** at every node: a column at 0 whose reduced
//!   cost is more than the gap is fixed at 0 below it, one at 1 whose
//!   reduced cost is less than minus the gap at 1.
//!
//! The K best: a node whose relaxation's solution is whole holds that
//! solution; with K = 1 nothing else in it is worth keeping, and with a
//! larger K its columns are fixed at 1 one by one (each fix a branch, the
//! other side the rest of the node), so that each solution is met once,
//! at the node where all its columns are fixed. A bound cuts only nodes
//! that cannot hold one of the K cheapest.
//!
//! The search goes in slices of simplex iterations ([`LpTree::search_for`]),
//! keeping its place inside a solve or a trial, so that Ctrl-C is seen
//! between two slices. Every solution offered is checked as an exact cover
//! of the problem given, whatever the floating point said.
//!
//! ```
//! use xc::{CompiledProblem, LpTree};
//! // Cover {0, 1} by {0, 1} (cost 5), or by {0} (cost 1) and {1} (cost 2).
//! let p = CompiledProblem::new(2, 0, vec![1; 2], vec![1; 2],
//!     vec![0, 2, 3, 4], vec![0, 1, 0, 1], vec![]).unwrap();
//! let mut t = LpTree::new(&p, &[5, 1, 2], 2).unwrap();
//! while !t.search_for(10) {}
//! assert_eq!(t.ledger().best(), vec![(3, vec![1, 2]), (5, vec![0])]);
//! ```

//!
//! The code, by job: this file holds the tree's state, its constants and
//! its one loop ([`LpTree::search_for`]); `root.rs` the root (the
//! relaxation built, sifted, cut, fixed and restarted); `nodes.rs` the
//! nodes (the next one picked, solved, its whole solutions kept);
//! `branching.rs` where to branch (pseudocosts, strong branching).

mod branching;
mod nodes;
mod root;
#[cfg(test)]
mod tests;

use std::collections::{BinaryHeap, HashSet};
use std::sync::atomic::AtomicBool;

use crate::core::problem::CompiledProblem;
use crate::core::reduce::reduce;
use crate::cost::partition::Partition;
use crate::cost::pricing::{CostError, Ledger, MinCostStats, check_length};
use lp::clique_cuts;
use lp::{DualSimplex, LpStatus};

/// Rows at most: the simplex keeps a dense inverse (8 m^2 bytes, an
/// iteration about m^2 steps and an inversion up to m^3: a few tens of
/// milliseconds at this size, inside one slice). The root's cuts add as
/// many rows at most.
pub const LP_ROWS: usize = 1000;
/// Entries at most: OR-Library's largest, us01, has 13.6 million, in a
/// million columns (the reductions of the root run inside one slice, and
/// a root of many columns is sifted: [`SIFT_COLUMNS`]).
pub const LP_ENTRIES: usize = 20_000_000;
/// A root of more columns than this is solved by *sifting*: the
/// relaxation of a few columns a row (those of least cost an entry, and
/// the cost to beat's), priced in whole by its multipliers, the columns
/// of negative reduced cost added, again until none is left; then fixed
/// by its reduced costs, which shrinks it. An iteration on every column
/// costs their entries: 15 ms on pairings of 145 rows and a million
/// columns, whose root took 667 iterations in 10 s.
pub const SIFT_COLUMNS: usize = 50_000;
/// Columns a row in sifting's first relaxation, and columns a row added
/// at each pricing at most.
const SIFT_PER_ROW: usize = 10;
const SIFT_ADD_PER_ROW: usize = 10;
/// A reduced cost under this is negative to sifting.
const SIFT_TOL: f64 = -1e-7;
/// Columns nearest to 1/2 tried by strong branching at a node, at most.
pub const STRONG_CANDIDATES: usize = 8;
/// Iterations of a strong branching trial, at most (its bound is valid
/// however far it got).
pub const STRONG_ITERATIONS: u64 = 100;
/// Pseudocosts of a column, on each side, before its estimate is trusted
/// (2 rather than 4: with their optima known, air04's trees took 48 s in
/// all over five orders of its columns instead of 68 s, air05's 35 s
/// instead of 33 s; strong branching is three quarters of the iterations).
pub const RELIABLE: u32 = 2;
/// Strong branching's budget: its trials take at most this share of the
/// other iterations (the relaxations of the root and the nodes) and
/// [`STRONG_FREE`] more; past it a node's column is chosen by pseudocosts
/// alone, an untried column's by the mean (SCIP's *sbiterquot* and
/// *sbiterofs*). On a generated crew-like 400 x 6,000 the trials were 96%
/// of the iterations, 2,500 a node, as a column is seldom tried twice
/// among thousands: the tree saw 55 nodes in a minute, 533 with the budget.
/// air04 and air05 in three column orders each, the least of two runs:
/// 175.4 s in all without it, 152.9 s with it, each of the six faster.
const STRONG_SHARE: f64 = 1.0;
const STRONG_FREE: u64 = 10_000;
/// The work of one reduction at most (its units, about 2 ns each: air04
/// and air05 take 56 million, pairings of 80 x 30,080 500 million).
const REDUCE_WORK: u64 = 60_000_000;
/// Entries at most of a problem reduced (see [`LpTree::shrink`]).
const REDUCE_ENTRIES: usize = 500_000;
/// Solves of the root at most, each after fixing and reducing.
const ROUNDS: u32 = 4;
/// Rounds of clique cuts at the root at most, cuts a round at most, and
/// the least gain of a round, against the rounds' so far, for another.
const CUT_ROUNDS: u32 = 10;
const CUTS_A_ROUND: usize = 50;
const CUT_GAIN: f64 = 0.1;
/// A restart pays when it takes out this share of the columns left.
const RESTART_SHARE: f64 = 0.1;
/// Restarts in the tree at most, and only in its first nodes.
const RESTARTS: u32 = 4;
const RESTART_NODES: u64 = 500;
/// How deep in the gap between the best open node and the cost to beat a
/// plunge may go on (SCIP's *maxplungequot*); with no cost to beat, every
/// plunge goes on (to a first solution).
const PLUNGE: f64 = 0.25;
/// A value this near 0 or 1 is whole.
const WHOLE: f64 = 1e-6;

/// A node: the columns it fixes (beyond the root's), a valid lower bound
/// on its solutions, and the estimate it is ordered by.
struct Node {
    bound: f64,
    estimate: f64,
    depth: u32,
    fixes: Vec<(u32, bool)>,
}

/// The open nodes in a max-heap: least bound first, then deepest.
struct Open(Node);

impl PartialEq for Open {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}
impl Eq for Open {}
impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Open {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other
            .0
            .bound
            .total_cmp(&self.0.bound)
            .then(self.0.depth.cmp(&other.0.depth))
    }
}

/// Strong branching under way at a node whose relaxation is solved.
struct Strong {
    node: Node,
    obj: f64,
    x: Vec<f64>,
    /// The node's fixes and its reduced-cost fixes: its children's.
    fixes: Vec<(u32, bool)>,
    /// The fractional columns, nearest to 1/2 first, and the children's
    /// bounds found for each (`NAN`: not tried).
    candidates: Vec<u32>,
    tried: Vec<[f64; 2]>,
    /// The candidate and side under trial, and its copy of the simplex.
    next: usize,
    side: usize,
    trial: Option<(DualSimplex, u64)>,
}

/// What the search does next.
enum Step {
    /// The relaxation of the problem left is to be built (for the root's
    /// solve `round`).
    Build(u32),
    /// The root's relaxation is being solved (`round` of [`ROUNDS`]).
    Root(u32),
    /// The next open node is to be taken.
    Pick,
    /// A node's relaxation is being solved.
    Solve(Node),
    Strong(Box<Strong>),
}

/// The K cheapest solutions of a set partitioning problem by branch and
/// bound on its linear relaxation (see the module's text).
pub struct LpTree {
    problem: CompiledProblem,
    costs: Vec<u64>,
    ledger: Ledger,
    k: usize,
    /// The problem the relaxation is of: its option `o` is the problem's
    /// option `options[o]`, on the rows `rows[start[o]..start[o + 1]]` of
    /// `m`.
    options: Vec<u32>,
    start: Vec<u32>,
    rows: Vec<u32>,
    m: usize,
    lp: Option<DualSimplex>,
    /// While the root is sifted (see [`SIFT_COLUMNS`]): the relaxation's
    /// column `j` is the problem left's `working[j]`. None: they are the
    /// same.
    working: Option<Vec<usize>>,
    /// Columns past which the root is sifted, and its first columns a row
    /// ([`SIFT_COLUMNS`], [`SIFT_PER_ROW`]; the tests sift small problems
    /// from few), and the pricings of sifting that added columns so far.
    sift_columns: usize,
    sift_per_row: usize,
    pricings: u64,
    /// Entries past which the problem is not reduced ([`REDUCE_ENTRIES`];
    /// the tests, small problems too).
    reduce_entries: usize,
    /// Whether the search has given up (see [`Self::has_given_up`]).
    given_up: bool,
    /// The columns the current node fixed (put back to 0..1 for the next).
    applied: Vec<u32>,
    open: BinaryHeap<Open>,
    /// The child of the last node branched on to be solved next (a
    /// *plunge*), if it is promising enough (see [`PLUNGE`]).
    plunge: Option<Node>,
    step: Step,
    /// Pseudocosts by column and side (x_j = 0, x_j = 1): gains per unit
    /// of change summed, and how many.
    pseudo: [Vec<(f64, u32)>; 2],
    /// The root's bound and reduced costs, and the bar they were last
    /// looked at with: a better bar may call for a restart.
    root: Option<(f64, Vec<f64>, f64)>,
    restarts: u32,
    /// The root's cuts (the `lp` crate's `cliques.rs`), each by the problem's ids of its
    /// options (so that they outlive a restart); the rounds of them since
    /// the root was built, and its bound before them and before the last.
    cuts: Vec<Vec<u32>>,
    cut_rounds: u32,
    cut_bounds: Option<(f64, f64)>,
    /// The solutions offered so far (their options sorted).
    found: HashSet<Vec<u32>>,
    tree_nodes: u64,
    /// Iterations of strong branching's trials so far, and its budget
    /// ([`STRONG_SHARE`], [`STRONG_FREE`]; the tests, tight ones).
    strong_iterations: u64,
    strong_share: f64,
    strong_free: u64,
    /// Trials begun, and nodes branched on by pseudocosts alone, the
    /// budget spent.
    trials: u64,
    past_budget: u64,
    stats: MinCostStats,
    iterations: u64,
    done: bool,
    never: AtomicBool,
}

impl LpTree {
    /// Can `problem` be searched so: set partitioning ([`Partition::suits`])
    /// of at most [`LP_ROWS`] rows and [`LP_ENTRIES`] entries.
    pub fn suits(problem: &CompiledProblem, costs: &[u64]) -> bool {
        Partition::suits(problem, costs)
            && problem.n_primary() <= LP_ROWS
            && problem.n_entries() <= LP_ENTRIES
    }

    /// A search for the `k` cheapest solutions of `problem` (which
    /// [`Self::suits`]), `costs[o]` the cost of option `o`. Nothing is
    /// solved yet.
    pub fn new(problem: &CompiledProblem, costs: &[u64], k: usize) -> Result<LpTree, CostError> {
        check_length(problem, costs)?;
        let ledger = Ledger::untaxed(costs, k)?;
        Ok(LpTree {
            problem: problem.clone(),
            costs: costs.to_vec(),
            ledger,
            k,
            options: (0..problem.n_options() as u32).collect(),
            start: problem.option_start().to_vec(),
            rows: problem.option_item().to_vec(),
            m: problem.n_primary(),
            lp: None,
            working: None,
            sift_columns: SIFT_COLUMNS,
            sift_per_row: SIFT_PER_ROW,
            pricings: 0,
            reduce_entries: REDUCE_ENTRIES,
            given_up: false,
            applied: Vec::new(),
            open: BinaryHeap::new(),
            plunge: None,
            step: Step::Build(0),
            pseudo: [Vec::new(), Vec::new()],
            root: None,
            restarts: 0,
            cuts: Vec::new(),
            cut_rounds: 0,
            cut_bounds: None,
            found: HashSet::new(),
            tree_nodes: 0,
            strong_iterations: 0,
            strong_share: STRONG_SHARE,
            strong_free: STRONG_FREE,
            trials: 0,
            past_budget: 0,
            stats: MinCostStats::default(),
            iterations: 0,
            done: false,
            never: AtomicBool::new(false),
        })
    }

    /// Counters so far (a node: a relaxation solved, of the root or of a
    /// node).
    pub fn stats(&self) -> MinCostStats {
        self.stats
    }

    /// Iterations of the simplex so far, over every solve and trial.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// The rows and columns of the relaxation now.
    pub fn size(&self) -> (usize, usize) {
        (self.m, self.options.len())
    }

    /// The least bound of the open nodes (the root's before the tree), or
    /// None before the root is solved.
    pub fn lower_bound(&self) -> Option<f64> {
        let open = (self.open.iter().map(|o| &o.0))
            .chain(&self.plunge)
            .map(|n| n.bound)
            .reduce(f64::min);
        let current = match &self.step {
            Step::Solve(node) => Some(node.bound),
            Step::Strong(s) => Some(s.obj),
            _ => None,
        };
        match (open, current) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b).or(self.root.as_ref().map(|r| r.0)),
        }
    }

    /// The problem cut to the `per_row` times rows columns of least
    /// reduced cost at the tree's root (those of its solution among them):
    /// a *restricted master*, whose solutions are the problem's, where a
    /// search finds good ones far sooner than in the whole (a dive of
    /// `partition.rs` found air04's 56,138, the optimum 56,137, in about a
    /// second with 5 columns a row). The problem, its costs, and the
    /// problem's id of each of its options; None before the root is
    /// solved.
    pub fn restricted(&self, per_row: f64) -> Option<(CompiledProblem, Vec<u64>, Vec<u32>)> {
        let (_, d, _) = self.root.as_ref()?;
        let mut order: Vec<usize> = (0..self.options.len()).collect();
        order.sort_by(|&a, &b| d[a].total_cmp(&d[b]).then(a.cmp(&b)));
        order.truncate(((per_row * self.m as f64) as usize).max(1));
        order.sort_unstable();
        let p = self.cut_to(&order)?;
        let options: Vec<u32> = order.iter().map(|&j| self.options[j]).collect();
        let costs = options.iter().map(|&o| self.costs[o as usize]).collect();
        Some((p, costs, options))
    }

    /// Whether the search is over: the solutions kept are the K best.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Whether the search has given up, proving nothing: a sifted root
    /// that its reduced costs did not shrink and that is too big to be
    /// solved whole ([`REDUCE_ENTRIES`]). Its relaxation is too far
    /// under the cost to beat to fix columns, so its tree would work on
    /// all of them: on 145 rows and a million columns an iteration took
    /// 15 ms, and the whole root was not solved in a minute.
    pub fn has_given_up(&self) -> bool {
        self.given_up
    }

    /// Gives up at once (for the tests of a search it races beside).
    #[cfg(test)]
    pub(crate) fn give_up_now(&mut self) {
        self.given_up = true;
    }

    /// Solutions known already (cost, options): kept, and not kept again
    /// when the search meets them; their cost to beat cuts nodes at once.
    pub fn seed(&mut self, known: Vec<(u64, Vec<u32>)>) {
        self.ledger.seed(known);
    }

    /// The solutions kept, the cost to beat, the optimum so far.
    pub fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    /// The bound a node must stay under (see [`Ledger::bar`]).
    fn bar(&self) -> f64 {
        self.ledger.bar()
    }

    /// Searches for about `iterations` more iterations of the simplex (at
    /// least one step); true when the search is over.
    pub fn search_for(&mut self, iterations: u64) -> bool {
        let until = self.iterations.saturating_add(iterations.max(1));
        while !self.done && !self.given_up && self.iterations < until {
            let left = until - self.iterations;
            match std::mem::replace(&mut self.step, Step::Pick) {
                Step::Build(round) => self.build(round),
                Step::Root(round) => self.solve_root(round, left),
                Step::Pick => self.pick(),
                Step::Solve(node) => self.solve_node(node, left),
                Step::Strong(s) => self.strong(s, left),
            }
        }
        self.done
    }
}
