//! Minimum-cost exact cover on bitsets, for problems with few options (as
//! the `bits` engine counts them: no multiplicities, at most
//! [`crate::core::bits::MAX_OPTIONS`] options).
//!
//! The same search as [`crate::MinCost`] (DLX5's, with the same net costs),
//! on other data. The options are numbered in order of net cost, so that
//! "the options still cheap enough" is a prefix of every bitset: an item's
//! cheapest live option is its first live bit, and the options an item can
//! still use below the cutoff are its live bits before the prefix's end,
//! counted word by word (and no further than the best count so far, as
//! DLX5 stops counting). Choosing an option is `live &= !conflict[o]`, one
//! word at a time, with the conflicts (a shared primary item, an uncolored
//! secondary item, another color) computed once; each level keeps its own
//! copy of `live` and of the items still to cover, so backing up costs
//! nothing. Options too dear for the cutoff are never touched, as DLX5's
//! thresholds leave them.

use std::sync::atomic::AtomicBool;

use crate::core::bits::Bits;
use crate::core::problem::CompiledProblem;
use crate::cost::pricing::{CostError, INF, Ledger, MinCostStats, Priced};

/// What an item's live options under the cutoff say, counted up to a bound.
enum Scan {
    /// None: the node is a dead end.
    Dead,
    /// More than the bound.
    Over,
    /// This many, the cheapest costing this much.
    Count(u32, u64),
}

/// Counts the options of `set` alive in `live` (the words of the prefix of
/// options cheap enough; `last_mask` keeps the last word's part of it), up
/// to `bound`, and finds the cheapest (the first bit).
#[inline]
fn scan(set: &[u64], live: &[u64], last_mask: u64, bound: u32, cost: &[u64]) -> Scan {
    let words = live.len();
    let mut s = 0u32;
    let mut mincost = INF;
    for j in 0..words {
        let mut x = set[j] & live[j];
        if j + 1 == words {
            x &= last_mask;
        }
        if x != 0 {
            if mincost == INF {
                mincost = cost[j * 64 + x.trailing_zeros() as usize];
            }
            s += x.count_ones();
            if s > bound {
                return Scan::Over;
            }
        }
    }
    if s == 0 {
        Scan::Dead
    } else {
        Scan::Count(s, mincost)
    }
}

/// One level of the search: the item branched on and where its options are.
#[derive(Clone, Copy, Debug)]
struct Level {
    best: u32,
    /// The next internal option to look at (the ones before are done).
    cursor: u32,
    /// The internal option being tried.
    choice: u32,
    partcost: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// A node to enter, its state in the frame after the last level's.
    Forward,
    /// The last level tries its next option.
    Next,
    Done,
}

/// A minimum-cost search on bitsets, resumable.
pub struct MinCostBits {
    bits: Bits,
    /// The net cost of each internal option, increasing.
    cost: Vec<u64>,
    ledger: Ledger,
    /// Words of the set of primary items still to cover.
    wa: usize,
    /// Frame `d` (the state of node `d` of the path): `live[d * w..]` and
    /// `active[d * wa..]`.
    live: Vec<u64>,
    active: Vec<u64>,
    levels: Vec<Level>,
    curcost: u64,
    state: State,
    stats: MinCostStats,
}

impl MinCostBits {
    /// A search for the `k` cheapest solutions of `problem` (which must suit
    /// [`Bits::suits`]).
    pub fn new(
        problem: &CompiledProblem,
        costs: &[u64],
        k: usize,
    ) -> Result<MinCostBits, CostError> {
        MinCostBits::new_until(problem, costs, k, &AtomicBool::new(false))
    }

    /// [`Self::new`], giving up with [`CostError::Stopped`] once `stop` is raised.
    pub fn new_until(
        problem: &CompiledProblem,
        costs: &[u64],
        k: usize,
        stop: &AtomicBool,
    ) -> Result<MinCostBits, CostError> {
        let ledger = Ledger::new(Priced::new(problem, costs, None, stop)?, k)?;
        Ok(MinCostBits::with_ledger(problem, ledger))
    }

    /// The search of `problem` (which must suit [`Bits::suits`]) with its
    /// net costs and the solutions known already in `ledger`.
    pub(crate) fn with_ledger(problem: &CompiledProblem, ledger: Ledger) -> MinCostBits {
        let priced = &ledger.priced;
        let mut order: Vec<u32> = (0..problem.n_options() as u32).collect();
        order.sort_by_key(|&o| priced.net[o as usize]);
        let cost: Vec<u64> = order.iter().map(|&o| priced.net[o as usize]).collect();
        let bits = Bits::with_order(problem, order);
        let n1 = bits.n_primary;
        let wa = n1.div_ceil(64).max(1);
        let mut active = vec![0u64; wa];
        for i in 0..n1 {
            active[i / 64] |= 1 << (i % 64);
        }
        let mut live = vec![0u64; bits.w];
        for o in 0..bits.n_options {
            live[o / 64] |= 1 << (o % 64);
        }
        MinCostBits {
            bits,
            cost,
            ledger,
            wa,
            live,
            active,
            levels: Vec::new(),
            curcost: 0,
            state: State::Forward,
            stats: MinCostStats::default(),
        }
    }

    /// Counters so far.
    pub fn stats(&self) -> MinCostStats {
        self.stats
    }

    /// Whether the search is over: the solutions kept are the K best.
    pub fn is_done(&self) -> bool {
        self.state == State::Done
    }

    /// The solutions kept, the cost to beat, the optimum so far.
    pub fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    /// Solutions known already (cost, options) kept (see [`Ledger::seed`]):
    /// the search's cutoff from then on.
    pub(crate) fn seed(&mut self, known: Vec<(u64, Vec<u32>)>) {
        self.ledger.seed(known);
    }

    /// Searches for at most `nodes` more nodes; true when the search is over
    /// (the body of [`Sliced::run`]).
    pub(crate) fn search_for(&mut self, nodes: u64) -> bool {
        let stop_at = self.stats.nodes.saturating_add(nodes);
        loop {
            match self.state {
                State::Done => return true,
                State::Forward => {
                    if self.stats.nodes >= stop_at {
                        return false;
                    }
                    self.forward();
                }
                State::Next => self.next(),
            }
        }
    }

    /// How many internal options cost less than `room` (a prefix).
    #[inline]
    fn prefix(&self, room: u64) -> usize {
        self.cost.partition_point(|&c| c < room)
    }

    /// Enters the node whose state is the frame after the last level's:
    /// chooses the item (DLX5's rule: fewest options under the cutoff,
    /// ties to the dearest cheapest option), or backs up from a dead end.
    fn forward(&mut self) {
        self.stats.nodes += 1;
        let d = self.levels.len();
        let (w, wa) = (self.bits.w, self.wa);
        let room = self.ledger.cutoff().saturating_sub(self.curcost);
        let end = self.prefix(room);
        let words = end.div_ceil(64);
        let last_mask = if end.is_multiple_of(64) {
            u64::MAX
        } else {
            (1u64 << (end % 64)) - 1
        };
        let live = &self.live[d * w..d * w + words];
        let mut best = u32::MAX;
        let mut best_s = u32::MAX;
        let mut best_min = 0u64;
        let mut dead = end == 0;
        'items: for a in 0..wa {
            let mut word = self.active[d * wa + a];
            while word != 0 && !dead {
                let i = a * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                let set = &self.bits.itemset[i * w..i * w + words];
                match scan(set, live, last_mask, best_s, &self.cost) {
                    Scan::Dead => {
                        dead = true;
                        break 'items;
                    }
                    Scan::Over => {}
                    Scan::Count(s, mincost) => {
                        if s < best_s || (s == best_s && mincost > best_min) {
                            best = i as u32;
                            best_s = s;
                            best_min = mincost;
                        }
                    }
                }
            }
        }
        if dead || best == u32::MAX {
            self.backdown();
            return;
        }
        self.levels.push(Level {
            best,
            cursor: 0,
            choice: 0,
            partcost: self.curcost,
        });
        self.state = State::Next;
    }

    /// The last level's next option under the cutoff goes in; or, when
    /// there is none, the level is done.
    fn next(&mut self) {
        let d = self.levels.len() - 1;
        let level = self.levels[d];
        let (w, wa) = (self.bits.w, self.wa);
        let cutoff = self.ledger.cutoff();
        let end = self.prefix(cutoff.saturating_sub(level.partcost));
        let b = level.best as usize;
        // The first live option of `b` at or after the cursor, before `end`.
        let mut o = usize::MAX;
        let mut j = level.cursor as usize / 64;
        while j * 64 < end {
            let mut x = self.bits.itemset[b * w + j] & self.live[d * w + j];
            if j == level.cursor as usize / 64 {
                x &= u64::MAX << (level.cursor % 64);
            }
            if x != 0 {
                o = j * 64 + x.trailing_zeros() as usize;
                break;
            }
            j += 1;
        }
        if o >= end {
            self.levels.pop();
            self.backdown();
            return;
        }
        self.levels[d].cursor = o as u32 + 1;
        self.levels[d].choice = o as u32;
        let nextcost = level.partcost + self.cost[o];
        // The child's frame: the options that clash with `o` die, its items leave.
        let need = (d + 2) * w;
        if self.live.len() < need {
            self.live.resize(need, 0);
            self.active.resize((d + 2) * wa, 0);
        }
        let conflict = &self.bits.conflict[o * w..(o + 1) * w];
        let (parent, child) = self.live.split_at_mut((d + 1) * w);
        let mut died = 0u64;
        for ((c, &p), &k) in child[..w].iter_mut().zip(&parent[d * w..]).zip(conflict) {
            *c = p & !k;
            died += (p & k).count_ones() as u64;
        }
        self.stats.updates += died;
        let (parent, child) = self.active.split_at_mut((d + 1) * wa);
        child[..wa].copy_from_slice(&parent[d * wa..(d + 1) * wa]);
        for &i in self.bits.prim(o) {
            child[i as usize / 64] &= !(1u64 << (i % 64));
        }
        self.stats.max_level = self.stats.max_level.max(d as u64 + 1);
        if child[..wa].iter().all(|&x| x == 0) {
            // Every item is covered: a solution (a node of its own, as Knuth counts).
            self.stats.nodes += 1;
            self.stats.improvements += 1;
            let options = self
                .levels
                .iter()
                .map(|l| self.bits.external[l.choice as usize])
                .collect();
            self.ledger.offer(nextcost, options);
            return;
        }
        self.curcost = nextcost;
        self.state = State::Forward;
    }

    /// Back to the level above (which tries its next option), or the end.
    fn backdown(&mut self) {
        self.state = if self.levels.is_empty() {
            State::Done
        } else {
            State::Next
        };
    }
}
