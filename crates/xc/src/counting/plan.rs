//! The counting plan: which method counts a problem, on which machine and
//! in which item order, and why; every rule and every price of the choice
//! is here (the caller runs what the plan asks and reports back; the order
//! of steps 1 to 5 is [`crate::steps::Steps`], which answers "what next").
//!
//! The methods: Kasteleyn's determinant for planar matchings, the
//! frontier (`counting::frontier`), the memo (`counting::memo`), the
//! search. The plan is measured, never timed, so that the same problem
//! always goes the same way. This is the one account of its steps (the
//! Python `covering.counting` runs them; the docs link here):
//!
//! 0. a problem of at most [`FIRST_LOOK_ENTRIES`] entries is searched for
//!    [`FIRST_LOOK`] nodes before anything is named or estimated
//!    ([`CountPlan::first_look`]); a planar matching problem is counted by
//!    Kasteleyn's determinant (past [`KASTELEYN_ITEMS`] primary items a
//!    frontier the plan is sure of goes first:
//!    [`CountPlan::frontier_before_kasteleyn`]); primary items of bounds
//!    0:1 are made secondary, and a problem of at most
//!    [`REDUCE_WORK_MOST`] / [`REDUCE_WORK`] entries is reduced as Knuth's
//!    DLX-PRE reduces it ([`CountPlan::reduce_work`]), the count taking the
//!    problem it leaves if that took out [`REDUCE_SHARE`] of the options
//!    or an item ([`CountPlan::keeps_reduction`]);
//! 1. a tree that Knuth's estimate puts under [`SMALL_TREE`] nodes is
//!    searched (up to [`SMALL_TREE_CHECK`] times that), one it puts under
//!    [`SMALL_TREE_MAYBE`] times that is searched for [`SMALL_TREE`] nodes
//!    first ([`CountPlan::small_tree`]);
//! 2. an item order predicted under 2^[`FRONTIER_SURE`] transitions, or at
//!    most [`FRONTIER_BITS`] wide, is counted at the frontier at once;
//! 3. the memo is probed for [`CountPlan::probe_nodes`] nodes with each
//!    rule, and is in the running if its sub-problems came back
//!    ([`CountPlan::memo_in_running`]);
//! 4. the candidates in the running race in turns of growing work, each
//!    priced in one unit (about a nanosecond of a core) from its own
//!    counters ([`CountPlan::search_cost`], [`frontier_cost`],
//!    [`CountPlan::memo_cost`]; [`Race`]);
//! 5. a memo that is not in the running but could count gets a stint of
//!    [`MEMO_STINT`] of what the cheapest other candidate is predicted to
//!    cost ([`CountPlan::memo_stint`]): where its savings compound past
//!    what a probe sees (Latin squares of order 6: 2.3x fewer nodes in the
//!    probe, 450x in the end) it finishes first, and elsewhere it costs
//!    that share at most.
//!
//! Each candidate weighed is kept with its cost, predicted or measured
//! ([`CountPlan::candidates`]), for the count's report.
//!
//! ```
//! use xc::plan::{CountPlan, Machine};
//! let mut plan = CountPlan::new(Machine::Cells, false, 100, false);
//! plan.set_estimate(5_000.0);
//! assert_eq!(plan.small_tree(), Some((4 * xc::plan::SMALL_TREE, true)));
//! ```

use crate::core::bits::MAX_OPTIONS as SQUARE_TABLE;
use crate::core::machine::Engine;
use crate::core::problem::CompiledProblem;
use crate::core::stats::Stats;
use crate::search::front::Search;

/// The machine a search of the problem dances on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Machine {
    /// Dancing cells (Algorithms X and C).
    Cells,
    /// Dancing cells with multiplicities (Algorithm M).
    MCells,
    /// Bitsets of the square table (at most 4,096 options).
    Bits,
    /// Bitsets with masks (past the square table, thousands of options).
    Masks,
    /// Bitsets with multiplicities.
    MBits,
}

impl Machine {
    /// The machine a count's search of `p` with `engine` runs on.
    pub fn of(p: &CompiledProblem, engine: Engine) -> Machine {
        let bits = Search::engine_for(p, engine) == Engine::Bits;
        match (p.has_multiplicities(), bits) {
            (true, true) => Machine::MBits,
            (true, false) => Machine::MCells,
            (false, true) if p.n_options() > SQUARE_TABLE => Machine::Masks,
            (false, true) => Machine::Bits,
            (false, false) => Machine::Cells,
        }
    }
}

/// The methods a count weighs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Kasteleyn,
    Frontier,
    Memo,
    Search,
}

/// A candidate weighed: its method, its cost in the plan's unit (about a
/// nanosecond of a core), and whether that cost was measured (a run's own
/// counters) or predicted (an estimate).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    pub method: Method,
    pub cost: f64,
    pub measured: bool,
}

/// Before any estimate, a problem of at most [`FIRST_LOOK_ENTRIES`] entries
/// is searched for this many nodes: a puzzle's tree (an Akari board of 25 x
/// 25 takes a few hundred) is counted before its estimate, its reduction
/// or its names would cost ten times the count; a bigger tree loses some
/// 30 us to it. Puzzles have a few thousand entries (Akari 25 x 25 some
/// 2,000, Sudoku 2,916, pentominoes 6x10 12,336); past 20,000 the look
/// costs more than it saves (set partitions of 12, 24,576 entries: 2,000
/// nodes over 4,095 options took 0.1 s, where the frontier counts in 0.07).
pub const FIRST_LOOK: u64 = 2_000;
pub const FIRST_LOOK_ENTRIES: u64 = 20_000;
/// Past this many primary items a matching problem asks the frontier
/// first, and takes it if the plan is sure of its order: Kasteleyn's
/// embedding works in time that grows with the square of the items (a
/// board 4 x 5,000: 2.9 s; 100 x 100: 2 s, where no other method counts).
pub const KASTELEYN_ITEMS: u64 = 5_000;
/// Search trees estimated below this many nodes are searched at once (up
/// to [`SMALL_TREE_CHECK`] times as many: past that the estimate was wrong).
pub const SMALL_TREE: u64 = 100_000;
pub const SMALL_TREE_CHECK: u64 = 4;
/// Trees estimated below this many times [`SMALL_TREE`] are searched for
/// [`SMALL_TREE`] nodes first (about the work of the memo's probes).
pub const SMALL_TREE_MAYBE: u64 = 10;
/// An order whose predicted transitions are at most 2^this (a second or
/// so), or whose frontier is at most [`FRONTIER_BITS`] wide (a step then
/// holds at most 2^22 states: boards row by row), is counted at once.
pub const FRONTIER_SURE: f64 = 26.0;
pub const FRONTIER_BITS: u64 = 22;
/// Past 2^this predicted transitions the frontier is not tried, unless its
/// order was weighed by a trial (with multiplicities the prediction runs
/// high by many bits; REDRECT-DLX 5 5: 2^50 predicted, 5.8M transitions,
/// 0.4 s, where the search takes 16 s).
pub const FRONTIER_HOPELESS: f64 = 48.0;
/// Nodes of each memo probe, for a problem of at most [`PROBE_WORDS`] * 64
/// options; fewer for wider ones (no fewer than [`PROBE_LEAST`]), whose
/// memo nodes cost more each (Knuth's 3x4 word rectangles, 9,986 options:
/// 17 us a node; their share of sub-problems found again is the same
/// after 4,000).
pub const PROBE_NODES: u64 = 20_000;
pub const PROBE_WORDS: u64 = 32;
pub const PROBE_LEAST: u64 = 2_000;
/// Sub-problems found again per node searched, past which the memo is in
/// the running.
pub const HIT_RATIO: f64 = 0.3;
/// Or: the nodes searched and saved against those searched ("shrink"),
/// past which the memo is in the running however few its hits: a probe
/// whose few hits saved most of what it searched is finding sub-problems
/// high in the tree, and their savings multiply as it goes on (Knuth's
/// indicator problem for monotone functions of 6 variables: 2.3x in the
/// probe, 60x in the end; the memo 5.4 s, the search 11.6 s). Below it
/// (`benchmarks/memo_probe.py`): 1.0-1.62x on queens, windmill dominoes,
/// pentominoes and word rectangles, where the search wins.
pub const SHRINK: f64 = 1.8;
/// Against bitsets with masks a node of the memo costs some ten of the
/// search's (word rectangles 3x4: 7.6 us against 0.7), so hits alone do not
/// put the memo in the running: its nodes must shrink this much.
pub const MASKED_SHRINK: f64 = 8.0;
/// Against the square table's bitsets shrinking alone puts the memo in
/// the running only past this (hits still do): Knuth's Sudoku with 14 of a
/// 17-clue puzzle's givens, 3.0x in the probe and 8.3x in the end, the memo
/// 13.4 s where the search on bitsets takes 9.0 s.
pub const BITS_SHRINK: f64 = 8.0;
/// What a node of the search costs, in frontier transitions: the
/// search's estimate against the frontier's prediction.
pub const SEARCH_NODES_PER_TRANSITION: f64 = 0.1;
/// Bits by which the search's estimate must fall below the frontier's
/// prediction for the search to run without the frontier.
pub const FRONTIER_SLACK: f64 = 10.0;
/// The prices of the plan's unit, about a nanosecond of a core, from each
/// method's own counters, never from a clock (`benchmarks/race_prices.py`):
/// a frontier's mem took 2-7 ns on Knuth's REDRECT-, MOTLEY-, QUEENDOM-,
/// SUDOKU- and SLITHERLINK-DLX files, polyiamonds and tromino boards; a node
/// of dancing cells 15 ns (50 ns in Algorithm M) and 0.45 ns a mem; a node
/// of bitsets 10 ns, a nanosecond an update and an eighth of one a word
/// copied or scanned; Algorithm M on bitsets 100 ns a node and 0.6 a word.
pub const FRONTIER_MEM_COST: f64 = 4.0;
pub const CELLS_NODE_COST: f64 = 15.0;
pub const MCC_NODE_COST: f64 = 50.0;
pub const CELLS_MEM_COST: f64 = 0.45;
pub const BITS_NODE_COST: f64 = 10.0;
pub const MBITS_NODE_COST: f64 = 100.0;
pub const MBITS_MEM_COST: f64 = 0.6;
/// A memo node: its fixed part and a word of its key (the live options,
/// hashed and kept): 0.9 us a node on Latin squares of order 6 (4 words),
/// 7.6 us on word rectangles 3x4 (156 words).
pub const MEMO_NODE_COST: f64 = 500.0;
pub const MEMO_WORD_COST: f64 = 45.0;
/// A frontier transition, predicted (the frontier against the memo's
/// stint): some 150 units (a tenth of a search node's worth of
/// transitions, `SEARCH_NODES_PER_TRANSITION`, at cells' price).
pub const TRANSITION_COST: f64 = CELLS_NODE_COST / SEARCH_NODES_PER_TRANSITION;
/// The memo's stint where it is not in the running (step 5): this share of
/// the cheapest other candidate's predicted cost.
pub const MEMO_STINT: f64 = 0.25;
/// The first turn of the race against the search, in the unit (a tenth of
/// a second or so), and each method's first slice before its price is
/// known: transitions, nodes.
pub const FIRST_COST: f64 = 1e8;
pub const FIRST_FRONTIER_WORK: u64 = 1 << 16;
pub const FIRST_SEARCH_NODES: u64 = 10_000;
/// The frontier's turns against the search: as long as the search's until
/// the frontier has spent this share of what the whole search is estimated
/// to cost, then this share of the search's (a search that wins loses
/// about a quarter to it; REDRECT-DLX 3 8: the search 8x faster; copies of
/// polyiamonds on a 5x5 rhombus: the frontier 14x faster).
pub const FRONTIER_FREE: f64 = 0.25;
pub const FRONTIER_SHARE: f64 = 0.25;
/// [`FRONTIER_FREE`] where the frontier's order was weighed by a trial (a
/// problem with multiplicities, `counting::mcc_order`): there the frontier's
/// prediction runs many bits high and says nothing of which method wins,
/// so the frontier may spend what the whole search is estimated to cost.
/// Of 29 boards of pieces taken a number of times (POLYOMINO-DLX,
/// POLYIAMOND-DLX, REDRECT-DLX), 23 race, and the frontier finishes first
/// on 21. At a quarter it had often given up most of its turns to the
/// search and run to 2-5x its time alone: tetrominoes 2-3 times each on
/// 7x8 took 7.1 s, now 1.5 (the frontier alone 1.5); the hexiamonds 0-1
/// and tetriamonds 0-2 times each on a 6x4 rhombus 3.1 s, now 1.3 (the
/// search had won); five boards of a few tenths of a second 0.42-0.59 of
/// their time. Where the search wins (two boards) the race costs 1.13 and
/// 1.21 of what it did.
pub const FRONTIER_FREE_TRIED: f64 = 1.0;
/// Probes of Knuth's estimate that sets the frontier's free part
/// ([`CountPlan::race_probes`]).
pub const RACE_PROBES: u64 = 256;
/// The race against the memo (and of the memo's two rules): the memo runs
/// first in each turn (its price is known from the start), the frontier
/// (or the other rule) then up to its share of the turn, and each turn's
/// work is this many times the last one's: the loser spends at most this
/// many times the winner's work, where doubling let it spend twice
/// (memo rules on paths of a sparse graph: at 1.5x, 2.75x the winner's
/// time in all).
pub const MEMO_RACE_GROWTH: f64 = 1.25;
/// The frontier's share of a turn against a memo whose probe found its
/// sub-problems again at [`HIT_RATIO`] and shrank past [`SHRINK`]: graph
/// covers (Rome graphs of about 100 vertices: hits 0.66-0.68 a node, a
/// shrink of 4.5-5) count by the memo in 0.16-0.8 s where the frontier
/// takes 2-4 s; an equal share gave 2.6x the memo's time.
pub const FRONTIER_SHARE_MEMO: f64 = 0.5;
/// Knuth's estimate of the search tree is made of this many random paths
/// (the tree's size for step 1); [`RACE_PROBES`] for the race.
pub const ESTIMATE_PROBES: u64 = 16;
/// The reduction before a count (step 0, as Knuth's DLX-PRE) works for at
/// most this many units (entries looked at) an entry of the problem:
/// Knuth's pentominoes 6x10 take 1,911 units an entry to reduce in full
/// (23.6M, 40 ms), his slitherlinks about 160; his word rectangles 3x4
/// took 17,000 (0.9 s, to take out 1% of the options), which this stops
/// well short of.
pub const REDUCE_WORK: u64 = 2_000;
/// Problems whose reduction would take more units than this (about 0.1
/// s) are not reduced (25,000 entries): the reduction's setup and the
/// problem it builds cost more than its budget (a random file of a million
/// options took 3.6 s, 1.5 s of it in the engine, for 50M units of work).
pub const REDUCE_WORK_MOST: u64 = 50_000_000;
/// The share of the options the reduction must take out for the count to
/// use the problem it leaves (which is built anew): a 12x12 slitherlink
/// loses half its options, and its memo count takes a third of the time.
pub const REDUCE_SHARE: f64 = 0.02;

/// The price of a frontier count's work so far: its mems.
pub fn frontier_cost(mems: u64) -> f64 {
    FRONTIER_MEM_COST * mems as f64
}

/// Why the memo is in the running, or not, after its probes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MemoWhy {
    /// Its sub-problems came back at [`HIT_RATIO`] a node or more.
    Repeats,
    /// Few came back, but high in the tree: its nodes shrank this much.
    HighInTree(f64),
    /// Few came back.
    Few,
}

/// A count's plan: what is known of the problem and what was weighed.
#[derive(Clone, Debug)]
pub struct CountPlan {
    pub machine: Machine,
    /// The problem's entries and primary items (the first look's and
    /// Kasteleyn's size rules, the reduction's budget) and its options.
    pub entries: u64,
    pub primary: u64,
    pub options: u64,
    /// Too many options for the memo (past `MEMO_MAX_OPTIONS`): no
    /// estimate, no probe.
    pub too_many: bool,
    /// The memo cannot count it (too many options, or multiplicities).
    pub no_memo: bool,
    /// Words of a memo key (64 options a word).
    pub words: u64,
    pub multiplicities: bool,
    /// Knuth's estimate of the search tree, in nodes.
    pub estimate: Option<f64>,
    /// The frontier's order: its width in bits, log2 of its predicted
    /// transitions, and whether a trial run weighed it.
    pub order: Option<(u64, f64, bool)>,
    /// The best memo probe so far: (hits a node, shrink), and the other
    /// rule's.
    pub probe: Option<(f64, f64)>,
    pub other_probe: Option<(f64, f64)>,
    pub candidates: Vec<Candidate>,
}

impl CountPlan {
    pub fn new(
        machine: Machine,
        multiplicities: bool,
        options: usize,
        too_many: bool,
    ) -> CountPlan {
        CountPlan {
            machine,
            entries: 0,
            primary: 0,
            options: options as u64,
            too_many,
            no_memo: too_many || multiplicities,
            words: (options as u64).div_ceil(64).max(1),
            multiplicities,
            estimate: None,
            order: None,
            probe: None,
            other_probe: None,
            candidates: Vec::new(),
        }
    }

    /// The plan of a count of `p` whose search runs with `engine`.
    pub fn of(p: &CompiledProblem, engine: Engine) -> CountPlan {
        let too_many = p.n_options() > crate::counting::memo::MEMO_MAX_OPTIONS;
        let mut plan = CountPlan::new(
            Machine::of(p, engine),
            p.has_multiplicities(),
            p.n_options(),
            too_many,
        );
        plan.entries = p.n_entries() as u64;
        plan.primary = p.n_primary() as u64;
        plan
    }

    /// Before anything else: the nodes of a first look at the tree, for a
    /// problem of at most [`FIRST_LOOK_ENTRIES`] entries.
    pub fn first_look(&self) -> Option<u64> {
        (self.entries <= FIRST_LOOK_ENTRIES).then_some(FIRST_LOOK)
    }

    /// Step 0, for a planar matching problem: is a frontier the plan is
    /// sure of tried before the determinant (past [`KASTELEYN_ITEMS`])?
    pub fn frontier_before_kasteleyn(&self) -> bool {
        self.primary > KASTELEYN_ITEMS
    }

    /// Step 0: the units of work the reduction may take, None when the
    /// problem is too big to reduce.
    pub fn reduce_work(&self) -> Option<u64> {
        let work = REDUCE_WORK.saturating_mul(self.entries);
        (work <= REDUCE_WORK_MOST).then_some(work)
    }

    /// Step 0: is the problem a reduction left worth counting instead,
    /// having taken out `options` options and `items` items?
    pub fn keeps_reduction(&self, options: u64, items: u64) -> bool {
        items > 0 || options as f64 >= REDUCE_SHARE * self.options as f64
    }

    /// The random paths of Knuth's estimate for step 1, None where the
    /// memo cannot count the problem for its many options (no estimate:
    /// it would cost more than it tells).
    pub fn estimate_probes(&self) -> Option<u64> {
        (!self.too_many).then_some(ESTIMATE_PROBES)
    }

    /// The random paths of the estimate that sets the frontier's free part
    /// in its race with the search: sixteen probes of a heavy-tailed tree
    /// run low (tetrominoes 1-3 times each on a 6x8 board: 0.5M for 5M
    /// nodes; 256 probes, 2 ms: 3.4-6M).
    pub fn race_probes(&self) -> Option<u64> {
        (!self.too_many).then_some(RACE_PROBES)
    }

    /// Why the memo is in the running or not, after its probes.
    pub fn memo_why(&self) -> MemoWhy {
        match self.probe {
            Some((ratio, _)) if ratio >= HIT_RATIO => MemoWhy::Repeats,
            Some((_, shrink)) if self.memo_in_running() => MemoWhy::HighInTree(shrink),
            _ => MemoWhy::Few,
        }
    }

    /// Step 5 in memo nodes (see [`CountPlan::memo_stint`]).
    pub fn memo_stint_nodes(&self, races: bool) -> Option<u64> {
        self.memo_stint(races)
            .map(|units| (units / self.memo_cost(1)) as u64)
    }

    /// Step 4: a race of the frontier against the memo (`memo`) or the
    /// search, whose tree Knuth's estimate puts at `estimate` nodes.
    pub fn race(&self, memo: bool, estimate: Option<f64>) -> Race {
        let frontier_share = match self.probe {
            Some((ratio, shrink)) if memo && ratio >= HIT_RATIO && shrink >= SHRINK => {
                FRONTIER_SHARE_MEMO
            }
            _ => 1.0,
        };
        Race {
            memo,
            estimate: if memo { None } else { estimate },
            free: if self.order.is_some_and(|(_, _, tried)| tried) {
                FRONTIER_FREE_TRIED
            } else {
                FRONTIER_FREE
            },
            target: FIRST_COST,
            frontier_share,
            search_price: None,
        }
    }

    /// Weighs `method` at `cost` (measured, or predicted).
    pub fn weigh(&mut self, method: Method, cost: f64, measured: bool) {
        self.candidates
            .retain(|c| c.method != method || (c.measured && !measured));
        if !self.candidates.iter().any(|c| c.method == method) {
            self.candidates.push(Candidate {
                method,
                cost,
                measured,
            });
        }
    }

    /// Knuth's estimate of the search tree: the search's predicted cost.
    pub fn set_estimate(&mut self, nodes: f64) {
        self.estimate = Some(nodes);
        let price = self.node_price();
        self.weigh(Method::Search, nodes * price, false);
    }

    /// The frontier's order, and its predicted cost.
    pub fn set_order(&mut self, width: u64, cost: f64, tried: bool) {
        self.order = Some((width, cost, tried));
        self.weigh(Method::Frontier, cost.exp2() * TRANSITION_COST, false);
    }

    /// Step 1: how many nodes to search first, and whether the estimate is
    /// sure enough that the search goes on to the end within them (None:
    /// the tree is not thought small).
    pub fn small_tree(&self) -> Option<(u64, bool)> {
        let e = self.estimate?;
        if e >= (SMALL_TREE_MAYBE * SMALL_TREE) as f64 {
            return None;
        }
        // Near the bound the estimate may overrate the tree (pi-day:
        // 214,783 for 7,049 nodes). With multiplicities no more than that:
        // Algorithm M's estimate runs low on heavy tails (each tetromino 0-3
        // times on a 5x8 board: 90,607 for 565,053 nodes).
        let sure = e < SMALL_TREE as f64 && !self.multiplicities;
        Some((
            if sure {
                SMALL_TREE_CHECK * SMALL_TREE
            } else {
                SMALL_TREE
            },
            sure,
        ))
    }

    /// Step 2: is the frontier counted at once?
    pub fn frontier_now(&self) -> bool {
        self.order
            .is_some_and(|(width, cost, _)| cost <= FRONTIER_SURE || width <= FRONTIER_BITS)
    }

    /// Step 3: the nodes of each memo probe.
    pub fn probe_nodes(&self) -> u64 {
        PROBE_LEAST.max(PROBE_NODES.min(PROBE_NODES * PROBE_WORDS / self.words))
    }

    /// A memo probe's measures: keeps the better of the probes (by hits,
    /// then by shrink where hits are few), and the other's.
    pub fn probed(&mut self, ratio: f64, shrink: f64) -> bool {
        let better = match self.probe {
            None => true,
            Some((r, s)) => {
                if ratio >= HIT_RATIO || r >= HIT_RATIO {
                    ratio > r
                } else {
                    shrink > s
                }
            }
        };
        if better {
            self.other_probe = self.probe;
            self.probe = Some((ratio, shrink));
        } else {
            self.other_probe = Some((ratio, shrink));
        }
        better
    }

    /// Would a probe of these measures put the memo in the running?
    fn in_running(&self, (ratio, shrink): (f64, f64)) -> bool {
        match self.machine {
            Machine::Masks => shrink >= MASKED_SHRINK,
            Machine::Bits => ratio >= HIT_RATIO || shrink >= BITS_SHRINK,
            _ => ratio >= HIT_RATIO || shrink >= SHRINK,
        }
    }

    /// Step 4 without the frontier: do the memo's two rules race each
    /// other? Where both probes would put the memo in the running, which
    /// rule's tree is the smaller is not told by a probe: on paths of
    /// sparse graphs (vertices and edges as items, each path of a few
    /// vertices an option, each item alone) the rule with more hits took
    /// 16x the time of the other on one graph, and the rule whose nodes
    /// shrank more 8x on another. The race costs the winner's time once
    /// more at most. Two probes of the same hits and shrink walked the same
    /// tree (the rules chose alike at every node: on Knuth's indicator
    /// problems every item has one option or two, and both rules take a
    /// forced item, else the first in the input's order), and a race would
    /// count it twice.
    pub fn rules_race(&self, frontier_races: bool) -> bool {
        !frontier_races
            && self.memo_in_running()
            && self
                .other_probe
                .is_some_and(|p| self.in_running(p) && Some(p) != self.probe)
    }

    /// Is the memo in the running after its probes? Its hits or its
    /// shrink against dancing cells; against the square table's bitsets
    /// its hits or [`BITS_SHRINK`]; against masks [`MASKED_SHRINK`] alone.
    pub fn memo_in_running(&self) -> bool {
        self.probe.is_some_and(|p| self.in_running(p))
    }

    /// Step 4: is the frontier in the race? Not past
    /// [`FRONTIER_HOPELESS`] (unless a trial weighed its order), nor where
    /// Knuth's estimate of the search, in transitions, is far below its
    /// prediction (which runs high by a few bits on boards and by far more
    /// where options rule each other out, as in queens); with
    /// multiplicities the prediction says nothing, and it always runs.
    pub fn frontier_in_running(&self) -> bool {
        let Some((_, cost, tried)) = self.order else {
            return false;
        };
        if cost > FRONTIER_HOPELESS && !tried {
            return false;
        }
        match self.estimate {
            None => true,
            Some(e) => {
                let search_bits = (e / SEARCH_NODES_PER_TRANSITION).max(1.0).log2();
                self.multiplicities || search_bits >= cost - FRONTIER_SLACK
            }
        }
    }

    /// Step 5: the memo's stint, in the unit, where it could count but is
    /// not in the running: [`MEMO_STINT`] of the cheapest other
    /// candidate's predicted cost (the frontier's only if it `races`).
    /// None where the memo cannot count or is in the running.
    pub fn memo_stint(&self, races: bool) -> Option<f64> {
        if self.no_memo || self.memo_in_running() || self.probe.is_none() {
            return None;
        }
        let frontier = races && self.frontier_in_running();
        let cheapest = self
            .candidates
            .iter()
            .filter(|c| c.method == Method::Search || (c.method == Method::Frontier && frontier))
            .map(|c| c.cost)
            .fold(f64::INFINITY, f64::min);
        cheapest.is_finite().then_some(MEMO_STINT * cheapest)
    }

    /// The fixed price of a search node on this plan's machine.
    fn node_price(&self) -> f64 {
        match self.machine {
            Machine::Cells => CELLS_NODE_COST,
            Machine::MCells => MCC_NODE_COST,
            Machine::Bits | Machine::Masks => BITS_NODE_COST,
            Machine::MBits => MBITS_NODE_COST,
        }
    }

    /// The work of a search so far, in the unit, from its own counters:
    /// dancing cells count Knuth's mems; bitsets count the options a commit
    /// removes (`updates`, each a scattered write) and the words they copy
    /// and scan (`mems`, in vector loops: an eighth each); Algorithm M on
    /// bitsets the words it copies and scans.
    pub fn search_cost(&self, s: &Stats) -> f64 {
        let (nodes, mems) = (s.nodes as f64, s.mems as f64);
        match self.machine {
            Machine::MBits => MBITS_NODE_COST * nodes + MBITS_MEM_COST * mems,
            Machine::Bits | Machine::Masks => {
                BITS_NODE_COST * nodes + s.updates as f64 + mems / 8.0
            }
            Machine::Cells | Machine::MCells => self.node_price() * nodes + CELLS_MEM_COST * mems,
        }
    }

    /// The work of a memo count of `nodes` nodes, in the unit.
    pub fn memo_cost(&self, nodes: u64) -> f64 {
        nodes as f64 * (MEMO_NODE_COST + MEMO_WORD_COST * self.words as f64)
    }
}

/// Step 4: the turns of a race of the frontier against the memo or the
/// search, in turns of growing work in the plan's unit, each method's
/// turn ending where its work reaches its share of the turn's target,
/// its next slice sized by its price so far. The caller runs the slices
/// and reports the counters; a method out of memory drops out.
#[derive(Clone, Debug)]
///
/// The frontier's rival goes first in each turn: the memo, whose price is
/// known from the start, or the search, whose price sets the frontier's
/// free part.
pub struct Race {
    /// Against the memo (else the search).
    pub memo: bool,
    /// Knuth's estimate of the search's tree, in nodes.
    estimate: Option<f64>,
    /// The share of the search's estimated cost the frontier may spend from
    /// its first turn ([`FRONTIER_FREE`], [`FRONTIER_FREE_TRIED`]).
    free: f64,
    /// The work each method reaches in this turn, in the unit.
    target: f64,
    /// The frontier's share of the target against the memo.
    frontier_share: f64,
    /// The search's price of a node, measured in its turns.
    search_price: Option<f64>,
}

impl Race {
    /// The frontier's next slice in transitions, having made `work`
    /// transitions for `mems` mems so far; 0 when its turn is over. Its
    /// first slice learns its price. Against the search it may spend
    /// [`FRONTIER_FREE`] (after a trial, [`FRONTIER_FREE_TRIED`]) of what
    /// the estimate says the whole search costs (the search, if the
    /// estimate holds, costs that much anyway), from its first turn on;
    /// past that, [`FRONTIER_SHARE`] of the
    /// search's. At most as many transitions as so far in one go: a
    /// transition costs more as the tables grow (REDRECT-DLX 5 5: from 200
    /// units to 600; a turn priced at its start ran three times long).
    pub fn frontier_slice(&self, mems: u64, work: u64) -> u64 {
        if work == 0 {
            return FIRST_FRONTIER_WORK;
        }
        let spent = frontier_cost(mems);
        let price = spent / work as f64;
        let mut mine = self.frontier_share * self.target;
        if let (Some(e), Some(p)) = (self.estimate, self.search_price) {
            mine = f64::max(FRONTIER_SHARE * self.target, self.free * e * p);
        }
        let left = ((mine - spent) / price).max(0.0) as u64;
        left.min(FIRST_FRONTIER_WORK.max(work))
    }

    /// The memo's nodes at the end of its turn (a total, from its start),
    /// having made `nodes`.
    pub fn memo_until(&self, plan: &CountPlan, nodes: u64) -> u64 {
        ((self.target / plan.memo_cost(1)) as u64).max(nodes + 1)
    }

    /// The search's nodes for its turn (its first, before its price is
    /// known: [`FIRST_SEARCH_NODES`]); 0 when it has had its turn's work.
    /// Passed to the search as its total from its start, though priced as
    /// the turn's share: kept as measured.
    pub fn search_nodes(&self, plan: &CountPlan, s: &Stats) -> u64 {
        match self.search_price {
            None => FIRST_SEARCH_NODES,
            Some(p) => ((self.target - plan.search_cost(s)) / p).max(0.0) as u64,
        }
    }

    /// The search ran: its price a node, from its counters.
    pub fn search_ran(&mut self, plan: &CountPlan, s: &Stats) {
        self.search_price = Some(plan.search_cost(s) / s.nodes.max(1) as f64);
    }

    /// The next turn.
    pub fn next_turn(&mut self) {
        self.target *= if self.memo { MEMO_RACE_GROWTH } else { 2.0 };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stint_is_a_share_of_the_cheapest_prediction() {
        let mut plan = CountPlan::new(Machine::Bits, false, 216, false);
        plan.set_estimate(7.4e9);
        plan.set_order(63, 66.7, false);
        assert!(!plan.frontier_in_running());
        assert!(plan.probed(0.19, 2.33));
        assert!(!plan.probed(0.15, 1.47));
        assert!(!plan.memo_in_running());
        let stint = plan.memo_stint(true).unwrap();
        assert_eq!(stint, MEMO_STINT * 7.4e9 * BITS_NODE_COST);
        // On dancing cells a shrink of 2.33 is in the running: no stint.
        let mut cells = plan.clone();
        cells.machine = Machine::Cells;
        assert!(cells.memo_in_running() && cells.memo_stint(true).is_none());
    }

    #[test]
    fn against_a_repeating_memo_the_frontier_gets_half_of_each_turn() {
        let mut plan = CountPlan::new(Machine::Bits, false, 958, false);
        let fair = plan.race(true, None);
        assert!(plan.probed(0.68, 4.5));
        let race = plan.race(true, None);
        // Its first slice learns its price; then it runs to its share.
        assert_eq!(race.frontier_slice(0, 0), FIRST_FRONTIER_WORK);
        let left = race.frontier_slice(1_000, 100) as f64;
        let fair_left = fair.frontier_slice(1_000, 100) as f64;
        assert!(left <= fair_left && left >= 100.0);
        let mut long = race.clone();
        for _ in 0..20 {
            long.next_turn();
        }
        let spent = frontier_cost(1 << 30);
        let slice = long.frontier_slice(1 << 30, 1 << 26) as f64;
        let target = FIRST_COST * MEMO_RACE_GROWTH.powi(20);
        assert!(
            slice > 0.0
                && spent + slice * (spent / (1u64 << 26) as f64)
                    <= FRONTIER_SHARE_MEMO * target + 1.0
        );
        // The memo runs to the turn's whole target, from where it is.
        assert_eq!(
            long.memo_until(&plan, 5),
            (target / plan.memo_cost(1)) as u64
        );
        assert_eq!(race.memo_until(&plan, 1 << 40), (1 << 40) + 1);
    }

    #[test]
    fn after_a_trial_the_frontier_runs_first_up_to_the_search_s_estimate() {
        // A search priced at 100 units a node, estimated at 10^7 nodes (10^9
        // units); a frontier that never ends, at a mem a transition.
        let (estimate, price) = (1e7, 100.0);
        let first_turn = |tried: bool| {
            let mut plan = CountPlan::new(Machine::MBits, true, 100, false);
            plan.set_order(30, 40.0, tried);
            let mut race = plan.race(false, Some(estimate));
            race.search_price = Some(price);
            let mut work = 0u64;
            loop {
                let slice = race.frontier_slice(work, work);
                if slice == 0 {
                    return frontier_cost(work);
                }
                work += slice;
            }
        };
        let (quarter, whole) = (first_turn(false), first_turn(true));
        let e = estimate * price;
        assert!((quarter - FRONTIER_FREE * e).abs() < 0.01 * e, "{quarter}");
        assert!(
            (whole - FRONTIER_FREE_TRIED * e).abs() < 0.01 * e,
            "{whole}"
        );
    }

    #[test]
    fn the_rules_race_where_both_probes_would_run_and_the_frontier_does_not() {
        let mut plan = CountPlan::new(Machine::Bits, false, 500, false);
        assert!(plan.probed(0.51, 8.8));
        assert!(!plan.probed(0.45, 14.2));
        assert_eq!(plan.probe, Some((0.51, 8.8)));
        assert!(plan.rules_race(false) && !plan.rules_race(true));
        // A second probe that alone would not run: no race of rules.
        let mut few = CountPlan::new(Machine::Bits, false, 500, false);
        assert!(few.probed(0.51, 8.8));
        assert!(!few.probed(0.01, 1.1));
        assert!(!few.rules_race(false));
        // Two probes that measured alike walked one tree: no race.
        let mut alike = CountPlan::new(Machine::Cells, false, 500, false);
        assert!(alike.probed(0.25, 3.4));
        assert!(!alike.probed(0.25, 3.4));
        assert!(alike.memo_in_running() && !alike.rules_race(false));
    }
}
