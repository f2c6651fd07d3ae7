//! Branch and bound for set partitioning with costs: the K cheapest exact
//! covers of a problem whose items are all primary and covered once, with a
//! Lagrangian bound at every node.
//!
//! The search branches as Algorithm X does, on the item with the fewest
//! options left, trying first the options the relaxation's solution uses
//! most (the mixture of the volume algorithm); choosing one removes every
//! option that meets it, so each solution is met once. What it adds at
//! each node:
//!
//! - a bound: Barahona and Anbil's volume algorithm (`volume.rs`) on the
//!   Lagrangian of the items still open, a few steps from the parent's
//!   multipliers (the root takes the whole ascent). A node whose bound
//!   reaches the cost to beat is cut;
//! - reduced-cost fixing: an option whose reduced cost is more than the gap
//!   between the bound and the cost to beat cannot be in a solution worth
//!   keeping, and leaves the node; one whose reduced cost is less than minus
//!   the gap must be in every such solution, and is chosen;
//! - an item left with one option has it chosen, one left with none ends
//!   the node; so does a bound past the cost of the dearest completion
//!   (the dearest option of each open item), which is how the Lagrangian
//!   says a node has no solution.
//!
//! The multipliers' bound holds for any multipliers, so a bound is only as
//! inexact as floating point: a node is cut only when its bound passes the
//! cost to beat, less 1 (costs are whole), by a margin well over the
//! rounding errors.
//!
//! As a proof, this lost to the dancing links of `mincost/`, which bound
//! a node by the root's prices only at far less cost a node: a crew-like
//! instance of 200 rows took 95,000 nodes and 8 s (15 steps a node; 40
//! steps: 88,000 nodes, 17 s) against 0.6 s; air05 was not proven in 30 s
//! even with the optimum given. Its strength is the order of its branches,
//! led by the relaxation's solution: [`Cheapest`] (`mincost/`) uses it
//! for *dives*, with [`Partition::set_patience`], to find good solutions
//! that the search on dancing links then has to beat.
//!
//! ```
//! use std::sync::atomic::{AtomicBool, Ordering};
//! use xc::{CompiledProblem, Partition};
//! // Cover {0, 1} by {0, 1} (cost 5), or by {0} (cost 1) and {1} (cost 2).
//! let p = CompiledProblem::new(2, 0, vec![1; 2], vec![1; 2],
//!     vec![0, 2, 3, 4], vec![0, 1, 0, 1], vec![]).unwrap();
//! let mut s = Partition::new(&p, &[5, 1, 2], 2, &AtomicBool::new(false)).unwrap();
//! assert!(s.search_for(u64::MAX));
//! assert_eq!(s.ledger().best(), vec![(3, vec![1, 2]), (5, vec![0])]);
//! ```
//!
//! [`Cheapest`]: crate::Cheapest

use std::sync::atomic::{AtomicBool, Ordering};

use crate::core::problem::CompiledProblem;
use crate::cost::pricing::{CostError, Ledger, MinCostStats, Priced, check_length};
use crate::cost::volume::{Ascent, Table};

/// Steps of the ascent at a node below the root.
const NODE_STEPS: u64 = 40;
/// Ascents at most at a node (each after fixing changed it), before it
/// branches.
const NODE_ASCENTS: u32 = 4;

/// A node with its branches still to try.
struct Frame {
    /// The options left at the node.
    alive: Vec<u32>,
    /// Its multipliers (indexed by item).
    y: Vec<f64>,
    /// Its bound.
    bound: f64,
    /// The cost of the options chosen down to it.
    cost: u64,
    /// The length of `chosen` when the node was entered.
    chosen_len: usize,
    /// The options of the branching item, with their reduced costs, in
    /// the order they are tried; the next to try.
    children: Vec<(f64, u32)>,
    next: usize,
}

/// The branch and bound (see the module's documentation), resumable.
pub struct Partition {
    table: Table,
    costs: Vec<u64>,
    n_rows: usize,
    rhs: Vec<f64>,
    /// The K best so far (at scale 1, no taxes: net costs are costs).
    ledger: Ledger,
    stack: Vec<Frame>,
    /// The root's multipliers, until the root is entered.
    root: Option<Vec<f64>>,
    covered: Vec<bool>,
    chosen: Vec<u32>,
    /// Scratch: a mark by item, and counts by item.
    mark: Vec<bool>,
    count: Vec<u32>,
    /// Scratch: the ascent's mixture, by option.
    primal: Vec<f64>,
    last: Vec<u32>,
    dearest: Vec<f64>,
    done: bool,
    /// A heuristic's search: nodes without a better solution before the
    /// lower half of the branch is left (the search is then incomplete).
    patience: Option<u64>,
    jumped: u64,
    abandoned: bool,
    stats: MinCostStats,
    /// Entries visited by the ascents below the root, at most.
    work: u64,
    never: AtomicBool,
}

impl Partition {
    /// Can `problem` be searched so: every item primary and covered once,
    /// no colors, costs that add up to less than 2^50 (exact in floating
    /// point, with room for the rounding of sums).
    pub fn suits(problem: &CompiledProblem, costs: &[u64]) -> bool {
        problem.n_secondary() == 0
            && !problem.has_multiplicities()
            && !problem.has_colors()
            && costs.len() == problem.n_options()
            && costs.iter().map(|&c| c as u128).sum::<u128>() < 1u128 << 50
    }

    /// A search for the `k` cheapest solutions of `problem` (which
    /// [`Self::suits`]), `costs[o]` the cost of option `o`. The root's
    /// ascent is done here; `stop` ends it early ([`CostError::Stopped`]).
    pub fn new(
        problem: &CompiledProblem,
        costs: &[u64],
        k: usize,
        stop: &AtomicBool,
    ) -> Result<Partition, CostError> {
        // (The root's multipliers are the min-cost prices' ascent, before
        // they are made a valid tax.)
        let first = Priced::new(problem, costs, None, stop)?.multipliers;
        Partition::with_start(problem, costs, k, first, stop)
    }

    /// [`Self::new`], the root's multipliers `first` given (one per item).
    pub(crate) fn with_start(
        problem: &CompiledProblem,
        costs: &[u64],
        k: usize,
        first: Vec<f64>,
        stop: &AtomicBool,
    ) -> Result<Partition, CostError> {
        check_length(problem, costs)?;
        if stop.load(Ordering::Relaxed) {
            return Err(CostError::Stopped);
        }
        let n_options = problem.n_options();
        let ledger = Ledger::untaxed(costs, k)?;
        let n_rows = problem.n_primary();
        let table = Table {
            start: problem.option_start().to_vec(),
            rows: problem.option_item().to_vec(),
            cost: costs.iter().map(|&c| c as f64).collect(),
        };
        Ok(Partition {
            table,
            costs: costs.to_vec(),
            n_rows,
            rhs: vec![1.0; n_rows],
            ledger,
            stack: Vec::new(),
            root: Some(first),
            covered: vec![false; n_rows],
            chosen: Vec::new(),
            mark: vec![false; n_rows],
            count: vec![0; n_rows],
            primal: vec![0.0; n_options],
            last: vec![0; n_rows],
            dearest: vec![0.0; n_rows],
            done: false,
            patience: None,
            jumped: 0,
            abandoned: false,
            stats: MinCostStats::default(),
            work: 0,
            never: AtomicBool::new(false),
        })
    }

    /// Counters so far.
    pub fn stats(&self) -> MinCostStats {
        self.stats
    }

    /// The entries the ascents below the root have visited, at most.
    pub fn work(&self) -> u64 {
        self.work
    }

    /// Whether the search is over: the solutions kept are the K best
    /// (unless [`Self::is_complete`] says some branches were left).
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Solutions known already (cost, options): kept, and not kept again
    /// when the search meets them.
    pub(crate) fn seed(&mut self, known: Vec<(u64, Vec<u32>)>) {
        self.ledger.seed(known);
    }

    /// Makes the search a heuristic: a branch that has gone `nodes` nodes
    /// without a better solution has its lower half left.
    pub fn set_patience(&mut self, nodes: u64) {
        self.patience = Some(nodes);
    }

    /// Whether no branch has been left (see [`Self::set_patience`]).
    pub fn is_complete(&self) -> bool {
        !self.abandoned
    }

    /// The solutions kept, the cost to beat, the optimum so far.
    pub fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    /// The bound a node must stay under (see [`Ledger::bar`]).
    fn bar(&self) -> f64 {
        self.ledger.bar()
    }

    /// Searches for at most `nodes` more nodes; true when the search is over.
    pub fn search_for(&mut self, nodes: u64) -> bool {
        let stop_at = self.stats.nodes.saturating_add(nodes);
        while !self.done {
            if self.stats.nodes >= stop_at {
                return false;
            }
            if let Some(y) = self.root.take() {
                let alive: Vec<u32> = (0..self.costs.len() as u32).collect();
                self.enter(alive, y, 0, 0);
                continue;
            }
            if let Some(p) = self.patience
                && self.stats.nodes >= self.jumped + p
                && self.stack.len() > 1
            {
                // A dive stuck below a poor choice: its lower half is left.
                let keep = self.stack.len() / 2;
                let len = self.stack[keep].chosen_len;
                self.stack.truncate(keep);
                self.unchoose(len);
                self.abandoned = true;
                self.jumped = self.stats.nodes;
            }
            let bar = self.bar();
            let Some(top) = self.stack.last_mut() else {
                self.done = true;
                break;
            };
            // The next branch whose own reduced cost does not cut it.
            while top
                .children
                .get(top.next)
                .is_some_and(|&(rc, _)| top.bound + rc.max(0.0) > bar)
            {
                top.next += 1;
            }
            match top.children.get(top.next).copied() {
                Some((_, j)) => {
                    top.next += 1;
                    let (cost, y) = (top.cost + self.costs[j as usize], top.y.clone());
                    let parent = std::mem::take(&mut top.alive);
                    let chosen_len = self.chosen.len();
                    let alive = self.choose(j, &parent);
                    self.stack.last_mut().expect("a node").alive = parent;
                    self.enter(alive, y, cost, chosen_len);
                }
                _ => {
                    let f = self.stack.pop().expect("a node");
                    self.unchoose(f.chosen_len);
                }
            }
        }
        true
    }

    /// Chooses option `j`: its items are covered, and the options of
    /// `alive` that meet none of them are returned.
    fn choose(&mut self, j: u32, alive: &[u32]) -> Vec<u32> {
        let columns = self.table.columns();
        for &r in columns.rows_of(j) {
            self.covered[r as usize] = true;
            self.mark[r as usize] = true;
        }
        self.chosen.push(j);
        let out: Vec<u32> = alive
            .iter()
            .copied()
            .filter(|&c| columns.rows_of(c).iter().all(|&r| !self.mark[r as usize]))
            .collect();
        self.stats.updates += (alive.len() - out.len()) as u64;
        for &r in columns.rows_of(j) {
            self.mark[r as usize] = false;
        }
        out
    }

    /// Undoes the choices past the first `len`.
    fn unchoose(&mut self, len: usize) {
        while self.chosen.len() > len {
            let j = self.chosen.pop().expect("a choice");
            for &r in self.table.columns().rows_of(j) {
                self.covered[r as usize] = false;
            }
        }
    }

    /// Enters a node: the options `alive` left once `chosen` (from
    /// `chosen_len` on, the choices of this branch) is chosen at `cost`;
    /// `y` the multipliers to start from. Propagates, bounds and fixes
    /// until the node is a solution, is cut, or branches (a frame pushed).
    fn enter(&mut self, mut alive: Vec<u32>, mut y: Vec<f64>, mut cost: u64, chosen_len: usize) {
        self.stats.nodes += 1;
        self.stats.max_level = self.stats.max_level.max(self.chosen.len() as u64);
        let mut ascents = 0;
        let mut mixed = vec![0f64; self.n_rows];
        loop {
            let open: Vec<u32> = (0..self.n_rows as u32)
                .filter(|&r| !self.covered[r as usize])
                .collect();
            if open.is_empty() {
                if cost < self.ledger.cutoff() {
                    self.stats.improvements += 1;
                    self.jumped = self.stats.nodes;
                    self.ledger.offer(cost, self.chosen.clone());
                }
                self.unchoose(chosen_len);
                return;
            }
            // Options left to each open item; an item with none ends the
            // node, one with a single option has it chosen.
            for &r in &open {
                self.count[r as usize] = 0;
                self.dearest[r as usize] = 0.0;
            }
            let columns = self.table.columns();
            for &c in &alive {
                let option_cost = columns.cost[c as usize];
                for &r in columns.rows_of(c) {
                    self.count[r as usize] += 1;
                    self.last[r as usize] = c;
                    self.dearest[r as usize] = self.dearest[r as usize].max(option_cost);
                }
            }
            let fewest = open
                .iter()
                .copied()
                .min_by_key(|&r| self.count[r as usize])
                .expect("an open item");
            match self.count[fewest as usize] {
                0 => {
                    self.unchoose(chosen_len);
                    return;
                }
                1 => {
                    let j = self.last[fewest as usize];
                    cost += self.costs[j as usize];
                    alive = self.choose(j, &alive);
                    continue;
                }
                _ => {}
            }
            // The bound.
            // No completion costs more than the dearest option of each open
            // item (each option charged to one of its items): a bound past
            // that says the node has no solution, with no solution known.
            let most: f64 =
                open.iter().map(|&r| self.dearest[r as usize]).sum::<f64>() + cost as f64;
            // (Only a solution known aims the ascent: aimed at `most`, its
            // steps would be wild.)
            let remaining = self.bar() - cost as f64;
            let bar = self.bar().min(most * (1.0 + 1e-9) + 1e-6);
            let entries: u64 = alive.iter().map(|&c| columns.rows_of(c).len() as u64).sum();
            self.work += entries * NODE_STEPS;
            let bound = Ascent {
                columns: &columns,
                alive: &alive,
                open: &open,
                rhs: &self.rhs,
                upper: remaining.is_finite().then_some(remaining + 1.0),
                steps: NODE_STEPS,
                stall: true,
            }
            .run(&mut y, &mut mixed, Some(&mut self.primal), &self.never)
            .unwrap_or(f64::NEG_INFINITY)
                + cost as f64;
            ascents += 1;
            if bound > bar {
                self.unchoose(chosen_len);
                return;
            }
            // Reduced-cost fixing against the gap.
            let gap = bar - bound;
            let mut forced = None;
            let before = alive.len();
            alive.retain(|&c| {
                let rc = columns.reduced(c, &y);
                if rc < -gap && forced.is_none() {
                    forced = Some(c);
                }
                rc <= gap
            });
            self.stats.updates += (before - alive.len()) as u64;
            if let Some(j) = forced {
                cost += self.costs[j as usize];
                alive = self.choose(j, &alive);
                continue;
            }
            if alive.len() < before && ascents < NODE_ASCENTS {
                continue;
            }
            // Branch on the item with the fewest options left.
            for &r in &open {
                self.count[r as usize] = 0;
            }
            for &c in &alive {
                for &r in columns.rows_of(c) {
                    self.count[r as usize] += 1;
                }
            }
            let best = open
                .iter()
                .copied()
                .min_by_key(|&r| self.count[r as usize])
                .expect("an open item");
            if self.count[best as usize] == 0 {
                self.unchoose(chosen_len);
                return;
            }
            let mut children: Vec<(f64, u32)> = alive
                .iter()
                .copied()
                .filter(|&c| columns.rows_of(c).contains(&best))
                .map(|c| (columns.reduced(c, &y), c))
                .collect();
            // The options the relaxation's solution uses most first (on
            // air05, a first solution 3% over the optimum at node 69, where
            // the cheapest reduced costs first gave one 14% over).
            let primal = &self.primal;
            children.sort_by(|a, b| {
                primal[b.1 as usize]
                    .total_cmp(&primal[a.1 as usize])
                    .then(a.0.total_cmp(&b.0))
                    .then(a.1.cmp(&b.1))
            });
            self.stack.push(Frame {
                alive,
                y,
                bound,
                cost,
                chosen_len,
                children,
                next: 0,
            });
            return;
        }
    }
}
