//! Minimum-cost exact cover and the K best solutions: Knuth's DLX5, with
//! prices from the linear relaxation and with multiplicities.
//!
//! Each option has a nonnegative cost; a solution costs the sum of its
//! options. As in DLX5, each item with a fixed number of uses (`lo == hi`)
//! is *taxed*: the tax is taken off every option containing the item. Every
//! solution pays the same total tax, so the order of solutions is
//! unchanged, and an option's *net cost* says how much dearer it is than
//! the taxes of its items. Item lists are sorted by net cost, so the
//! cheapest option still usable is the first of its list, and an option
//! whose net cost would reach the cost to beat (the K-th best so far, the
//! *cutoff*) is never hidden nor tried: it stays behind as a harmless
//! "zombie", past every threshold below it.
//!
//! The taxes are where this goes past DLX5. DLX5 taxes item by item, each
//! the least net cost left to its options (a maximal dual solution, found
//! greedily). Here the taxes come first from the dual of the linear
//! relaxation, approached by Barahona and Anbil's volume algorithm on its
//! Lagrangian (`pricing.rs`, then made feasible so that no net cost is
//! negative), and DLX5's greedy taxes are raised on top. The total tax is
//! then close to the relaxation's optimum, a lower bound on every solution,
//! and the net costs are its reduced costs: where the relaxation is tight
//! (L-tromino tilings with random costs: 1150 of an optimum of 1263 on
//! 12x12), nearly every option is dearer than the gap and never enters the
//! search (9.0 s for DLX5 against 0.03 s, K = 10); where it is loose
//! (pentominoes: 51 of 241), the search is DLX5's. Prices are fractions
//! held in units of `1/SCALE` (costs are multiplied by `SCALE`), exactly.
//! Bounds at each node (Knuth's `z` and `Z` heuristics, a greedy dual of
//! the rest, a few Lagrangian steps warm-started from the parent's
//! multipliers, with options fixed out by their reduced costs) were
//! measured and left out of this search: they cost more than they saved
//! (on crew-like set partitions of 200 rows, 10 s and 20 s instead of
//! 0.55 s to the proof). The Lagrangian bound at each node lives on in the
//! dives of set partitioning problems ([`Cheapest`], `partition.rs`), which
//! look for solutions rather than proofs.
//! So were rounds under ceilings before a first solution (only solutions
//! within 0.1% of the bound, then 0.2%, ..., each round that ends empty a
//! proof that none is cheaper): the airline crew instance air03 took 927
//! nodes to the proof instead of 59,989, but the time is the pricing's
//! (0.19 s against 0.32 s), and where the relaxation is far from the
//! optimum the rounds repeat the search (nw-like pairings 40 x 20,040:
//! 0.34 s against 0.21 s; random XCC with colors, K = 100: 3.1 s against
//! 2.5 s).
//!
//! Two things make the prices count. Every solution's cost is whole, so a
//! solution worth keeping costs a whole unit less than the K-th best: the
//! bar a net cost must stay under is the K-th best's net cost less
//! `scale - 1`, and a fractional bound is rounded up for free (tilings
//! whose covers all cost the same are then proven at the first cover). And
//! once K solutions are known, the search starts over with prices aimed at
//! the K-th best cost ([`Cheapest`]).
//!
//! The search is DLX2's dancing links (cover, hide, purify) with DLX5's
//! thresholds and branching rule (fewest usable options, ties to the
//! dearest cheapest option); Knuth's step names (`forward`, `advance`,
//! `recover`, `backup`, `backdown`) name the steps. Problems with few
//! options and no multiplicities get the same search on bitsets
//! ([`MinCostBits`], about three times faster on pentominoes); [`Cheapest`]
//! picks. The net costs and the K best kept are shared (`pricing.rs`).
//!
//! Multiplicities (DLX5 has none): an item covered `lo..=hi` times stays
//! open until it is covered `hi` times or a branch decides to use it no
//! more (once it has `lo`); branching on an item that stays open tries each
//! usable option in turn and then *excludes* it, so that each set of options
//! is met once. Only items with `lo == hi` are taxed (others are covered a
//! varying number of times, which would change the tax a solution pays).
//!
//! Net costs and sums are 64-bit: [`MinCost::new`] refuses costs whose sum
//! over all options does not fit (and uses whole prices when the scaled
//! costs would not fit).
//!
//! ```
//! use xc::{CompiledProblem, MinCost, Poll, Slice, Sliced};
//! // Cover {0, 1} by {0, 1} (cost 5), or by {0} (cost 1) and {1} (cost 2).
//! let p = CompiledProblem::new(2, 0, vec![1; 2], vec![1; 2],
//!     vec![0, 2, 3, 4], vec![0, 1, 0, 1], vec![]).unwrap();
//! let mut m = MinCost::new(&p, &[5, 1, 2], 2).unwrap();
//! assert_eq!(m.run(Slice::ALL), Poll::Ready(()));
//! let best: Vec<(u64, Vec<u32>)> = m.ledger().best();
//! assert_eq!(best, vec![(3, vec![1, 2]), (5, vec![0])]);
//! ```

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::bits::Bits;
use crate::copies::cheapest_copies;
use crate::lp_tree::LpTree;
use crate::mincost_bits::MinCostBits;
use crate::partition::Partition;
use crate::pricing::{CostError, Ledger, MinCostStats, Priced, ascent_steps, check_length};
use crate::problem::CompiledProblem;
use crate::sliced::{Poll, Slice, Sliced};
use crate::together::merge_together;
use crate::volume::LOOK;

/// At most this many options of an item are counted when choosing where to
/// branch (DLX5's `lenthresh`); past it, the list's length stands in.
const LENTHRESH: u32 = 10;

/// The hot loop of covering: the other nodes of `rr`'s option leave their
/// lists (cleansed ones stay); returns how many left. On slices rather than
/// `self`, so that the compiler knows the arrays apart and keeps the loop in
/// registers.
#[inline]
fn hide(nd: &mut [Node], len: &mut [u32], rr: u32) -> u64 {
    let mut updates = 0;
    let mut nn = rr + 1;
    while nn != rr {
        let n = nd[nn as usize];
        if n.color >= 0 {
            if n.itm <= 0 {
                nn = n.up;
                continue;
            }
            nd[n.up as usize].down = n.down;
            nd[n.down as usize].up = n.up;
            len[n.itm as usize] -= 1;
            updates += 1;
        }
        nn += 1;
    }
    updates
}

/// Undoes [`hide`].
#[inline]
fn unhide(nd: &mut [Node], len: &mut [u32], rr: u32) {
    let mut nn = rr + 1;
    while nn != rr {
        let n = nd[nn as usize];
        if n.color >= 0 {
            if n.itm <= 0 {
                nn = n.up;
                continue;
            }
            nd[n.up as usize].down = nn;
            nd[n.down as usize].up = nn;
            len[n.itm as usize] += 1;
        }
        nn += 1;
    }
}

/// One entry of the matrix (DLX5's `node`): a header of item `itm` when its
/// index is the item's, a spacer between options when `itm <= 0`.
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    up: u32,
    down: u32,
    /// The item's header index (from 1); `-option` in a spacer.
    itm: i32,
    /// 0 none, > 0 a color, -1 cleansed (its item purified to this color).
    color: i32,
    /// The net cost of the node's option.
    cost: u64,
}

/// How a level branches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Any option covers the item for good (DLX5's way: the item is covered once).
    Close,
    /// The item stays open: each option is tried, then excluded.
    Open,
}

/// What a level remembers to go on and to undo.
#[derive(Clone, Copy, Debug)]
struct Level {
    best: u32,
    mode: Mode,
    /// The node of the option tried, in `best`'s list.
    choice: u32,
    /// The cost paid above this level.
    partcost: u64,
    /// The threshold `best`'s list was covered with (Close).
    thresh0: u64,
    /// The threshold the option's other items were covered with.
    thresh: u64,
    /// Close: the option was not hidden by covering `best` and was hidden apart.
    apart: bool,
    /// Open: where this level's excluded options start on `excluded`.
    excluded: u32,
}

/// Where the machine is between two calls of [`MinCost::run`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Forward,
    Recover,
    Done,
}

/// A minimum-cost search (see the module's documentation), resumable.
pub struct MinCost {
    nd: Vec<Node>,
    /// Active list of primary items still to cover (0 is the root).
    prev: Vec<u32>,
    next: Vec<u32>,
    len: Vec<u32>,
    count: Vec<u32>,
    lo: Vec<u32>,
    hi: Vec<u32>,
    /// Primary items are headers `1..second`.
    second: u32,
    /// Nodes from here on are entries or spacers.
    last_itm: u32,
    /// The K best so far (its cutoff is the net cost to beat) and the
    /// prices that turn net costs back into costs.
    ledger: Ledger,
    levels: Vec<Level>,
    excluded: Vec<u32>,
    curcost: u64,
    state: State,
    stats: MinCostStats,
}

impl MinCost {
    /// A search for the `k` cheapest solutions of `problem`, `costs[o]` the
    /// cost of option `o`.
    pub fn new(problem: &CompiledProblem, costs: &[u64], k: usize) -> Result<MinCost, CostError> {
        MinCost::new_until(problem, costs, k, &AtomicBool::new(false))
    }

    /// [`Self::new`], giving up with [`CostError::Stopped`] once `stop` is
    /// raised (the prices and the sorting look at it).
    pub fn new_until(
        problem: &CompiledProblem,
        costs: &[u64],
        k: usize,
        stop: &AtomicBool,
    ) -> Result<MinCost, CostError> {
        let ledger = Ledger::new(Priced::new(problem, costs, None, stop)?, k)?;
        MinCost::with_ledger(problem, ledger, stop)
    }

    /// The search of `problem` with its net costs and the solutions known
    /// already in `ledger`.
    pub(crate) fn with_ledger(
        problem: &CompiledProblem,
        ledger: Ledger,
        stop: &AtomicBool,
    ) -> Result<MinCost, CostError> {
        let net = &ledger.priced.net;
        let n_options = problem.n_options();
        let n_primary = problem.n_primary() as u32;
        let n_items = problem.n_items() as u32;
        let second = n_primary + 1;
        let last_itm = n_items + 1;
        let mut nd = vec![Node::default(); last_itm as usize];
        nd.reserve(problem.n_entries() + n_options + 1);
        for (h, node) in nd.iter_mut().enumerate().skip(1) {
            node.up = h as u32;
            node.down = h as u32;
        }
        let mut len = vec![0u32; last_itm as usize];
        // The first spacer.
        nd.push(Node::default());
        let colors = problem.has_colors();
        for (o, &cost) in net.iter().enumerate() {
            if o % LOOK == LOOK - 1 && stop.load(Ordering::Relaxed) {
                return Err(CostError::Stopped);
            }
            let spacer = nd.len() as u32 - 1;
            let items = problem.option(o);
            let cs = if colors {
                problem.option_colors(o)
            } else {
                &[][..]
            };
            for (j, &i) in items.iter().enumerate() {
                let h = i + 1;
                let at = nd.len() as u32;
                let bottom = nd[h as usize].up;
                nd.push(Node {
                    up: bottom,
                    down: h,
                    itm: h as i32,
                    color: if colors { cs[j] as i32 } else { 0 },
                    cost,
                });
                nd[bottom as usize].down = at;
                nd[h as usize].up = at;
                len[h as usize] += 1;
            }
            nd[spacer as usize].down = nd.len() as u32 - 1;
            nd.push(Node {
                up: spacer + 1,
                down: 0,
                itm: -(o as i32) - 1,
                color: 0,
                cost: 0,
            });
        }
        let mut lo = vec![1u32; last_itm as usize];
        let mut hi = vec![1u32; last_itm as usize];
        lo[1..second as usize].copy_from_slice(problem.lo());
        hi[1..second as usize].copy_from_slice(problem.hi());
        let mut m = MinCost {
            nd,
            prev: vec![0; second as usize],
            next: vec![0; second as usize],
            len,
            count: vec![0; last_itm as usize],
            lo,
            hi,
            second,
            last_itm,
            ledger,
            levels: Vec::new(),
            excluded: Vec::new(),
            curcost: 0,
            state: State::Forward,
            stats: MinCostStats::default(),
        };
        if stop.load(Ordering::Relaxed) {
            return Err(CostError::Stopped);
        }
        m.link_active();
        m.sort_lists(stop)?;
        Ok(m)
    }

    /// The items open at the start: every primary item.
    fn link_active(&mut self) {
        let mut last = 0u32;
        for h in 1..self.second {
            self.next[last as usize] = h;
            self.prev[h as usize] = last;
            last = h;
        }
        self.next[last as usize] = 0;
        self.prev[0] = last;
    }

    /// Every item list in order of net cost (stable: ties keep input order).
    fn sort_lists(&mut self, stop: &AtomicBool) -> Result<(), CostError> {
        let mut list = Vec::new();
        let mut seen = 0usize;
        for h in 1..self.last_itm {
            seen += list.len();
            if seen > LOOK {
                seen = 0;
                if stop.load(Ordering::Relaxed) {
                    return Err(CostError::Stopped);
                }
            }
            list.clear();
            let mut p = self.nd[h as usize].down;
            while p != h {
                list.push(p);
                p = self.nd[p as usize].down;
            }
            let nd = &self.nd;
            list.sort_by_key(|&p| nd[p as usize].cost);
            let mut last = h;
            for &p in &list {
                self.nd[last as usize].down = p;
                self.nd[p as usize].up = last;
                last = p;
            }
            self.nd[last as usize].down = h;
            self.nd[h as usize].up = last;
        }
        Ok(())
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

    // ------------------------------------------------------------ dancing

    fn deactivate(&mut self, h: u32) {
        let (l, r) = (self.prev[h as usize], self.next[h as usize]);
        self.next[l as usize] = r;
        self.prev[r as usize] = l;
    }

    fn reactivate(&mut self, h: u32) {
        let (l, r) = (self.prev[h as usize], self.next[h as usize]);
        self.next[l as usize] = h;
        self.prev[r as usize] = h;
    }

    /// Removes the other nodes of `rr`'s option from their lists (DLX5's
    /// inner loop of `cover`): nodes already cleansed stay.
    #[inline]
    fn hide(&mut self, rr: u32) {
        self.stats.updates += hide(&mut self.nd, &mut self.len, rr);
    }

    /// Puts back what [`Self::hide`] removed.
    #[inline]
    fn unhide(&mut self, rr: u32) {
        unhide(&mut self.nd, &mut self.len, rr);
    }

    /// Hides every option of item `c` cheaper than `thresh` (DLX5's `cover`
    /// without the item list, which the caller updates).
    fn cover(&mut self, c: u32, thresh: u64) {
        let mut rr = self.nd[c as usize].down;
        while rr >= self.last_itm {
            if self.nd[rr as usize].cost >= thresh {
                break;
            }
            self.hide(rr);
            rr = self.nd[rr as usize].down;
        }
    }

    fn uncover(&mut self, c: u32, thresh: u64) {
        let mut rr = self.nd[c as usize].down;
        while rr >= self.last_itm {
            if self.nd[rr as usize].cost >= thresh {
                break;
            }
            self.unhide(rr);
            rr = self.nd[rr as usize].down;
        }
    }

    /// DLX5's `purify`: the options of `p`'s item with another color are
    /// hidden, those with the same one cleansed.
    fn purify(&mut self, p: u32, thresh: u64) {
        let (cc, x) = (self.nd[p as usize].itm as u32, self.nd[p as usize].color);
        let mut rr = self.nd[cc as usize].down;
        while rr >= self.last_itm {
            if self.nd[rr as usize].cost >= thresh {
                break;
            }
            if self.nd[rr as usize].color != x {
                self.hide(rr);
            } else if rr != p {
                self.nd[rr as usize].color = -1;
            }
            rr = self.nd[rr as usize].down;
        }
    }

    fn unpurify(&mut self, p: u32, thresh: u64) {
        let (cc, x) = (self.nd[p as usize].itm as u32, self.nd[p as usize].color);
        let mut rr = self.nd[cc as usize].down;
        while rr >= self.last_itm {
            if self.nd[rr as usize].cost >= thresh {
                break;
            }
            if self.nd[rr as usize].color < 0 {
                self.nd[rr as usize].color = x;
            } else if rr != p {
                self.unhide(rr);
            }
            rr = self.nd[rr as usize].down;
        }
    }

    /// Takes the whole option of node `p` out of every list (an option
    /// chosen or excluded on an open item).
    fn take_out(&mut self, p: u32) {
        let n = self.nd[p as usize];
        self.nd[n.up as usize].down = n.down;
        self.nd[n.down as usize].up = n.up;
        self.len[n.itm as usize] -= 1;
        self.stats.updates += 1;
        self.hide(p);
    }

    fn put_back(&mut self, p: u32) {
        self.unhide(p);
        let n = self.nd[p as usize];
        self.nd[n.up as usize].down = p;
        self.nd[n.down as usize].up = p;
        self.len[n.itm as usize] += 1;
    }

    /// One more use of node `q`'s item by its option (chosen, at threshold
    /// `thresh`): a primary item is covered (it leaves the open items, its
    /// other options hidden) at `hi` uses; a secondary one is covered or
    /// purified.
    #[inline]
    fn commit(&mut self, q: u32, thresh: u64) {
        let n = self.nd[q as usize];
        let c = n.itm as u32;
        if c < self.second {
            let cu = c as usize;
            self.count[cu] += 1;
            if self.count[cu] == self.hi[cu] {
                self.deactivate(c);
                self.cover(c, thresh);
            }
        } else if n.color == 0 {
            self.cover(c, thresh);
        } else if n.color > 0 {
            self.purify(q, thresh);
        }
    }

    #[inline]
    fn uncommit(&mut self, q: u32, thresh: u64) {
        let n = self.nd[q as usize];
        let c = n.itm as u32;
        if c < self.second {
            let cu = c as usize;
            if self.count[cu] == self.hi[cu] {
                self.uncover(c, thresh);
                self.reactivate(c);
            }
            self.count[cu] -= 1;
        } else if n.color == 0 {
            self.uncover(c, thresh);
        } else if n.color > 0 {
            self.unpurify(q, thresh);
        }
    }

    /// Commits the nodes of `p`'s option after `p` (all of them when
    /// `all`), left to right, cyclically.
    fn commit_option(&mut self, p: u32, thresh: u64, all: bool) {
        let mut q = p + 1;
        loop {
            if self.nd[q as usize].itm <= 0 {
                q = self.nd[q as usize].up;
                continue;
            }
            if q == p {
                break;
            }
            self.commit(q, thresh);
            q += 1;
        }
        if all {
            self.commit(p, thresh);
        }
    }

    /// Undoes [`Self::commit_option`], right to left.
    fn uncommit_option(&mut self, p: u32, thresh: u64, all: bool) {
        if all {
            self.uncommit(p, thresh);
        }
        let mut q = p - 1;
        loop {
            if self.nd[q as usize].itm <= 0 {
                q = self.nd[q as usize].down;
                continue;
            }
            if q == p {
                break;
            }
            self.uncommit(q, thresh);
            q -= 1;
        }
    }

    // ------------------------------------------------------------ choosing

    /// The item to branch on, or None when some item cannot be covered
    /// under the cutoff.
    /// DLX5's rule: fewest usable options (counted up to `LENTHRESH`), ties
    /// to the larger least cost; on an open item, the options that can come
    /// first.
    fn choose(&mut self) -> Option<u32> {
        let room = self.ledger.cutoff().saturating_sub(self.curcost);
        let mut best = 0u32;
        let mut best_s = u32::MAX;
        let mut best_min = 0u64;
        let mut k = self.next[0];
        while k != 0 {
            let ku = k as usize;
            let first = self.nd[ku].down;
            let need = self.lo[ku].saturating_sub(self.count[ku]);
            if first == k || self.nd[first as usize].cost >= room {
                if need > 0 {
                    return None;
                }
                // Nothing more can be used: only the branch that stops here.
                if best_s > 1 {
                    (best, best_s, best_min) = (k, 1, 0);
                }
                k = self.next[ku];
                continue;
            }
            let mincost = self.nd[first as usize].cost;
            // Needy items branch on the options that can come first;
            // satisfied ones on every option, and on stopping here. Counting
            // stops once the item cannot beat the best so far (`cap`).
            let cap = if need > 0 {
                best_s.saturating_add(need - 1)
            } else {
                best_s.saturating_sub(1)
            };
            let mut s = 1u32;
            let mut p = self.nd[first as usize].down;
            let mut exact = true;
            let mut over = false;
            loop {
                if p < self.last_itm || self.nd[p as usize].cost >= room {
                    break;
                }
                if s >= cap {
                    over = true;
                    break;
                }
                if s >= LENTHRESH {
                    s = self.len[ku];
                    exact = false;
                    break;
                }
                s += 1;
                p = self.nd[p as usize].down;
            }
            if exact && !over && s < need {
                return None;
            }
            let degree = if need > 0 {
                s.saturating_sub(need - 1)
            } else {
                s + 1
            };
            if !over && (degree < best_s || (degree == best_s && mincost > best_min)) {
                best = k;
                best_s = degree;
                best_min = mincost;
            }
            k = self.next[ku];
        }
        Some(best)
    }

    /// A solution of net cost `cost` (the options chosen on every level):
    /// kept, and the cutoff lowered once K are kept.
    fn record(&mut self, cost: u64) {
        let options: Vec<u32> = self
            .levels
            .iter()
            .filter(|l| l.choice >= self.last_itm)
            .map(|l| {
                let mut q = l.choice;
                while self.nd[q as usize].itm > 0 {
                    q += 1;
                }
                (-self.nd[q as usize].itm - 1) as u32
            })
            .collect();
        self.stats.improvements += 1;
        self.ledger.offer(cost, options);
    }

    // ------------------------------------------------------------ the search

    /// Searches for at most `nodes` more nodes; true when the search is over
    /// (the solutions kept are then the K best, proven): the body of
    /// [`Sliced::run`].
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
                State::Recover => self.recover(),
            }
        }
    }

    /// DLX5's `forward`, Algorithm X's steps X2-X5: enter a level, choose the
    /// item (X3), cover it (X4), try its first branch (X5).
    fn forward(&mut self) {
        self.stats.nodes += 1;
        let Some(best) = self.choose() else {
            self.backdown();
            return;
        };
        let bu = best as usize;
        let satisfied = self.count[bu] >= self.lo[bu];
        let first = self.nd[bu].down;
        let mode = if self.hi[bu] - self.count[bu] == 1 {
            Mode::Close
        } else {
            Mode::Open
        };
        let mut level = Level {
            best,
            mode,
            // A satisfied item's first branch uses no more of it (the
            // header stands for "no option"): it costs nothing.
            choice: if satisfied { best } else { first },
            partcost: self.curcost,
            thresh0: 0,
            thresh: 0,
            apart: false,
            excluded: self.excluded.len() as u32,
        };
        if mode == Mode::Close {
            // (The item leaves for good: covered once for all its options,
            // at the threshold of the cheapest branch.)
            let cheapest = if satisfied {
                0
            } else {
                self.nd[first as usize].cost
            };
            level.thresh0 = self.ledger.cutoff() - (self.curcost + cheapest);
            self.count[bu] += 1;
            self.deactivate(best);
            self.cover(best, level.thresh0);
        }
        self.levels.push(level);
        self.advance();
    }

    /// DLX5's `advance`, step X5: the branch `choice` of the top level goes in.
    fn advance(&mut self) {
        let l = self.levels.len() - 1;
        let Level {
            best,
            choice,
            mode,
            thresh0,
            ..
        } = self.levels[l];
        let skip = choice < self.last_itm;
        let nextcost = if skip {
            self.curcost
        } else {
            self.curcost + self.nd[choice as usize].cost
        };
        let thresh = self.ledger.cutoff() - nextcost;
        self.levels[l].thresh = thresh;
        match (mode, skip) {
            (Mode::Close, true) => {}
            (Mode::Open, true) => {
                self.deactivate(best);
                self.cover(best, thresh);
            }
            (Mode::Close, false) => {
                let apart = self.nd[choice as usize].cost >= thresh0;
                self.levels[l].apart = apart;
                if apart {
                    self.hide(choice);
                }
                self.commit_option(choice, thresh, false);
            }
            (Mode::Open, false) => {
                self.take_out(choice);
                self.commit_option(choice, thresh, true);
            }
        }
        self.stats.max_level = self.stats.max_level.max(self.levels.len() as u64);
        if self.next[0] == 0 {
            // Every item is covered: a solution (a node of its own, as Knuth counts).
            self.stats.nodes += 1;
            self.record(nextcost);
            self.state = State::Recover;
        } else {
            self.curcost = nextcost;
            self.state = State::Forward;
        }
    }

    /// DLX5's `recover`, step X6: the top level's branch goes out; the next one
    /// comes in, or the level is done.
    fn recover(&mut self) {
        let l = self.levels.len() - 1;
        let level = self.levels[l];
        let (best, choice) = (level.best, level.choice);
        self.curcost = level.partcost;
        let skip = choice < self.last_itm;
        match (level.mode, skip) {
            (Mode::Close, true) => {}
            (Mode::Open, true) => {
                self.uncover(best, level.thresh);
                self.reactivate(best);
            }
            (Mode::Close, false) => {
                self.uncommit_option(choice, level.thresh, false);
                if level.apart {
                    self.unhide(choice);
                }
            }
            (Mode::Open, false) => {
                self.uncommit_option(choice, level.thresh, true);
                self.put_back(choice);
                // Excluded below: later options of this item never use it again.
                self.take_out(choice);
                self.excluded.push(choice);
            }
        }
        let next = self.nd[choice as usize].down;
        if next >= self.last_itm
            && self.curcost + self.nd[next as usize].cost < self.ledger.cutoff()
        {
            self.levels[l].choice = next;
            self.advance();
        } else {
            self.backup();
        }
    }

    /// DLX5's `backup`, step X7: the top level's item comes back; go up a level.
    fn backup(&mut self) {
        let level = self.levels.pop().expect("a level to back up");
        let bu = level.best as usize;
        match level.mode {
            Mode::Close => {
                self.uncover(level.best, level.thresh0);
                self.reactivate(level.best);
                self.count[bu] -= 1;
            }
            Mode::Open => {
                while self.excluded.len() > level.excluded as usize {
                    let p = self.excluded.pop().expect("an excluded option");
                    self.put_back(p);
                }
            }
        }
        self.backdown();
    }

    /// DLX5's `backdown`, step X8: back to the level above, or the end.
    fn backdown(&mut self) {
        self.state = if self.levels.is_empty() {
            State::Done
        } else {
            State::Recover
        };
    }
}

/// The minimum-cost search a problem gets: on bitsets when it suits them
/// (no multiplicities, few options: [`MinCostBits`]), else dancing links
/// ([`MinCost`]). Both give the same costs; the bitsets are faster.
///
/// Once the first K solutions are known and the search has done a quarter
/// of the work that pricing again would take (so that a search about to
/// end is not held up), the prices are worked out again,
/// aimed at the K-th best cost (see `pricing`), and the search starts over
/// with the solutions known, unless the new prices' bound is far lower
/// than the first's. Since the first prices come from the volume algorithm
/// their bound is already near the relaxation's, and the new prices mostly
/// lead the search another way: on nw-like pairings (80 x 30,080) 1.5 s
/// to the proof against 2.9 s without starting over. (With Held and Karp's
/// steps, starting over had raised the bound on crew-like 400 x 6,000 from
/// 0.87% under the optimum to 0.66%.) Only the search on dancing links starts over: on
/// bitsets (problems of at most 4,096 options) it was measured to lose
/// more than it won (a crew-like 200 x 3001: 0.62 s to 0.72 s; pentominoes
/// with costs, K = 1: 17% slower).
pub struct Cheapest {
    engine: Engine,
    /// The dive to come, or under way (see [`Dive`]).
    dive: Option<Box<Dive>>,
    /// The counters of the dives and of a tree that gave up, once they are
    /// over: still counted, so that the search's counters never go back
    /// (a driver counts its work by their difference).
    ended: MinCostStats,
    /// Whether the dive ended its search complete: the K best are known.
    proven: bool,
    /// What the search starts over from, until it has (only a search on
    /// dancing links has one).
    restart: Option<Box<Restart>>,
    /// The counters of the search before it started over.
    before: MinCostStats,
    /// The branch and bound on the relaxation, to come or under way (see
    /// [`Race`]).
    race: Option<Box<Race>>,
    /// The given problem's options that each option searched stands for
    /// (its start in the second), when options were merged or dropped
    /// before the search (see `together.rs` and `copies.rs`).
    origin: Option<(Vec<u32>, Vec<u32>)>,
}

enum Engine {
    Links(MinCost),
    Bits(MinCostBits),
}

/// A search on dancing links that has not ended after [`DIVE_AFTER`]
/// options removed stops for a dive: the branch and bound on set partitions
/// ([`Partition`]), with a bound at each node from the multipliers of the
/// prices, tries the options of each item in the order of the
/// relaxation's solution, and finds good solutions where the search on
/// dancing links, led by the prices alone, finds poor ones (the airline
/// crew instance air05: 26,504 instead of 29,459 in 30 s, the optimum being
/// 26,374; air04: 56,228, 0.16% over the optimum, where it found none). A branch that goes
/// [`DIVE_PATIENCE`] nodes without a better solution has its lower half
/// left: a dive looks for solutions, not for a proof. Its solutions are the
/// search's at once; when it is over, the search on dancing links goes on
/// where it was, with a lower cost to beat (and starts over with prices
/// aimed at it, as it would).
///
/// The two share the time: a dive visits at most as many entries (in its
/// ascents) as the search on dancing links has removed options since the
/// last dive, times [`DIVE_SHARE`] (about as long), and the next dive comes
/// when the search has done as much again. The first comes after
/// [`DIVE_AFTER`] options removed (a few seconds; sooner when the tree
/// joins sooner, see [`TREE_EARLY`], with the same length, and the next
/// at DIVE_AFTER) and is a quarter as long, and a dive that found nothing
/// better than the search had makes the next one a sixteenth as long:
/// where dives do not pay, they cost little. Nw-like
/// pairings 80 x 30,080 were proven in 13.0 s instead of 10.3 s when every
/// dive was as long as the search and the first came after 20M options;
/// now 11.2 s against 10.4 s (and one proven in 1.4 s has no dive).
struct Dive {
    given: Arc<Given>,
    k: usize,
    /// The search's options removed before the next dive.
    at: u64,
    /// The dive's entries visited at most.
    length: u64,
    /// The dives' patience (see [`Partition::set_patience`]), and their
    /// entries visited for each option removed by the search.
    patience: u64,
    share: u64,
    /// The next dive's share of the time, in sixteenths of the search's.
    weight: u64,
    /// The cheapest solution when the dive began.
    before: Option<u64>,
    /// Built when the dive starts.
    search: Option<Partition>,
}

/// Problems with more entries than this do not dive (a node of the dive
/// would hold up a slice too long), and nodes of a dive in a slice at most,
/// this over the entries.
const DIVE_ENTRIES: usize = 200_000;
const DIVE_SLICE_WORK: u64 = 2_000_000;
/// Options removed by the search on dancing links before the first dive.
const DIVE_AFTER: u64 = 300_000_000;
/// Entries a dive visits for each option removed by the search.
const DIVE_SHARE: u64 = 10;
/// Nodes without a better solution before a dive leaves the lower half of
/// its branch.
const DIVE_PATIENCE: u64 = 200;

/// Whether a search of `problem` on dancing links would dive (see [`Dive`]):
/// set partitioning, and not so big that a node of the dive would hold up a
/// slice.
fn dives(problem: &CompiledProblem, costs: &[u64]) -> bool {
    Partition::suits(problem, costs) && problem.n_entries() <= DIVE_ENTRIES
}

/// A search on dancing links that has not ended after [`TREE_AFTER`]
/// options removed (or [`TREE_EARLY`]) is joined by the branch and bound
/// on the linear relaxation ([`LpTree`]), when the problem suits it: set
/// partitioning of at most [`crate::lp_tree::LP_ROWS`] rows. The two
/// take turns (the tree [`TREE_SHARE`] of the time, in turns of
/// [`TREE_TURN`]) and share their solutions at each turn: the search's
/// (and its dives') are the tree's cost to beat, the tree's are the
/// search's at once. Whichever ends first is the proof: the tree's
/// solutions, with the search's, are then the K best.
///
/// Where the relaxation is far under the cost to beat (more than
/// [`TREE_FAR`] of it, once the tree's dives in restricted masters are
/// over), the tree has little time ([`TREE_SHARE_FAR`]): pairings whose
/// relaxation is 9% under the optimum are proven by the search on dancing
/// links, not by the tree, which with half the time made 8.6 s 16.2 s.
struct Race {
    given: Arc<Given>,
    k: usize,
    /// Built when it starts.
    tree: Option<LpTree>,
    /// When it started, the time its turns took, and its share of the
    /// time.
    since: Instant,
    spent: Duration,
    share: f64,
    /// The search's options removed before the tree starts.
    after: u64,
    /// The search's cost to beat last given to the tree, and the tree's
    /// solutions already given to the search.
    given_cutoff: Option<u64>,
    taken: u64,
    /// A dive in a restricted master under way (see [`HELPER_ROWS`]); the
    /// next size to try.
    helper: Option<Helper>,
    next_helper: usize,
}

/// A dive in a restricted master: the problem's id of each of its
/// options, its entries, and the improvements already taken from it.
struct Helper {
    dive: Partition,
    ids: Vec<u32>,
    entries: u64,
    taken: u64,
    /// Its nodes when it last found a better solution.
    last: u64,
}

/// Once the tree's root is solved, and before its nodes, dives
/// (`partition.rs`) in the problem cut to this many columns a row of least
/// reduced cost (a *restricted master*, see [`LpTree::restricted`]), each
/// with its patience (see [`Partition::set_patience`]; the dives' own,
/// [`DIVE_PATIENCE`], but for the last), one after the
/// other, each for at most [`HELPER_NODES`] nodes ([`HELPER_STALL`] since
/// its last better solution): good solutions at once,
/// the cost to beat the tree fixes columns with. On air04 they found 56,140
/// (the optimum 56,137) in 1.4 s, where the tree's own plunges and the
/// dives in the whole problem found 56,212 in a minute; on air05 26,402
/// (of 26,374) in 2.4 s. The last, more patient, found air05's optimum in
/// two column orders of five, and took the ten orders of air04 and air05
/// from 223 s to 202 s in all (one more, 2.5 columns a row as patient,
/// made that 212 s).
const HELPER_ROWS: [(f64, u64); 4] = [
    (2.5, DIVE_PATIENCE),
    (4.0, DIVE_PATIENCE),
    (6.0, DIVE_PATIENCE),
    (4.0, 10 * DIVE_PATIENCE),
];
const HELPER_NODES: u64 = 6_000;
/// A dive in a restricted master ends once it has gone this many nodes
/// without a better solution of its own: their solutions come in bursts
/// (on air05, in two column orders, 3,305 and 5,838 of a dive's 6,000
/// nodes came after its last better one). Fourteen column orders of air04
/// and air05 took 164.0 s in all instead of 190.5 s (every one sooner,
/// one alternating run); with 1,000 nodes, 177.1 s against 2,000's
/// 165.6 s in another (one order of air04 25.5 s against 13.9 s).
const HELPER_STALL: u64 = 2_000;

/// Options removed by the search on dancing links before the tree joins,
/// and the first dive with it ([`Dive`], as long as after [`DIVE_AFTER`]);
/// or only [`TREE_EARLY`] where the search has no solution by then within
/// [`TREE_FAR`] of its prices' bound. That is where the search on dancing
/// links will not end soon: air04's and air05's searches had covers 22%
/// over the optimum after TREE_AFTER (3 s), and 14 orders of their columns
/// took 214 s in all instead of 233 s; the tree alone, without the dive's
/// first cost to beat, had taken 245 s. Crew-like problems whose prices
/// prove them end before.
const TREE_AFTER: u64 = DIVE_AFTER;
/// (See [`TREE_AFTER`].)
const TREE_EARLY: u64 = 20_000_000;
/// The tree's share of the time: half until its root is solved; most
/// while its dives in restricted masters run, and after them where its
/// bound is less than [`TREE_FAR`] under the cost to beat (or none is
/// known); little where it is more. (Most from the start was measured
/// slower: air04 32 s against 29 s. Near, 0.95 rather than 0.85 proved
/// eight of ten orders of air04's and air05's columns sooner, 248 s in
/// all instead of 267 s: the search on dancing links seldom helps there.)
/// Far is a bet that the search on dancing links proves first, and its
/// share bounds what a lost bet costs, four times the tree's time, where
/// 0.04 cost 25 times: a 36 x 262,446 instance (nw04's columns thrice,
/// costs spread 10%), whose search found 1.3% over the optimum and no
/// better, gave its tree 4% of a minute and was not proven; the tree
/// alone takes 9 s, 32 s with a quarter. Won bets cost a third more:
/// pairings of 80 rows took 10.4 s with 0.04, 12.7 s with a quarter.
const TREE_SHARE: f64 = 0.5;
const TREE_SHARE_NEAR: f64 = 0.95;
const TREE_SHARE_FAR: f64 = 0.25;
const TREE_FAR: f64 = 0.03;
/// A turn of the tree: this long (a slice of the search on dancing links
/// takes about 40 ms), in runs of this many iterations of the simplex,
/// fewer where the relaxation has more than [`STEP_COLUMNS`] columns (an
/// iteration on 122,856 columns of 145 rows takes about 12 ms).
const TREE_TURN: Duration = Duration::from_millis(20);
const TREE_STEPS: u64 = 8;
const STEP_COLUMNS: u64 = 20_000;

/// Whether a lower bound is far under the cost to beat (see [`TREE_FAR`]).
fn far_under(cutoff: u64, bound: f64) -> bool {
    cutoff as f64 - bound > TREE_FAR * cutoff as f64
}

struct Restart {
    given: Arc<Given>,
    k: usize,
    /// The work (entries visited) the new prices take, and the search's
    /// work (options removed) to do before they are worth it.
    work: u64,
}

/// The problem and its costs, kept by [`Cheapest`] for the search that
/// starts over and for the dives (one copy for both).
struct Given {
    problem: CompiledProblem,
    costs: Vec<u64>,
}

/// Problems bigger than this do not start over (their copy and the
/// rebuilding of their lists would hold up a slice too long).
const REPRICE_ENTRIES: usize = 500_000;

impl Engine {
    /// Solutions found beside the search (by a dive, by the tree) made its
    /// own. (Neither runs beside a search on bitsets.)
    fn seed(&mut self, known: Vec<(u64, Vec<u32>)>) {
        if let Engine::Links(m) = self {
            m.ledger.seed(known);
        }
    }

    fn search_for(&mut self, nodes: u64) -> bool {
        match self {
            Engine::Links(m) => m.search_for(nodes),
            Engine::Bits(m) => m.search_for(nodes),
        }
    }

    fn stats(&self) -> MinCostStats {
        match self {
            Engine::Links(m) => m.stats(),
            Engine::Bits(m) => m.stats(),
        }
    }

    fn ledger(&self) -> &Ledger {
        match self {
            Engine::Links(m) => m.ledger(),
            Engine::Bits(m) => m.ledger(),
        }
    }

    fn is_done(&self) -> bool {
        match self {
            Engine::Links(m) => m.is_done(),
            Engine::Bits(m) => m.is_done(),
        }
    }
}

impl Cheapest {
    /// The search for the `k` cheapest solutions of `problem`, on bitsets
    /// when they suit it (or never, with `links`), once the options that
    /// always go together are merged and those in no solution dropped
    /// (set partitioning problems, `together.rs`), and the copies of
    /// options that cannot be among them dropped (`copies.rs`).
    /// `stop` ends the building early ([`CostError::Stopped`]).
    pub fn new(
        problem: &CompiledProblem,
        costs: &[u64],
        k: usize,
        links: bool,
        stop: &AtomicBool,
    ) -> Result<Cheapest, CostError> {
        check_length(problem, costs)?;
        let merged = merge_together(problem, costs, stop)?;
        let (p, c) = match &merged {
            Some(m) => (&m.problem, &m.costs[..]),
            None => (problem, costs),
        };
        let kept = cheapest_copies(p, c, k, stop)?;
        let (p, c) = match &kept {
            Some(kept) => (&kept.problem, &kept.costs[..]),
            None => (p, c),
        };
        let mut search = Cheapest::new_whole(p, c, k, links, stop)?;
        if merged.is_some() || kept.is_some() {
            let (mut start, mut ids) = (vec![0u32], Vec::new());
            for o in 0..p.n_options() {
                let o = kept.as_ref().map_or(o, |kept| kept.ids[o] as usize);
                match &merged {
                    Some(m) => ids.extend_from_slice(m.members(o)),
                    None => ids.push(o as u32),
                }
                start.push(ids.len() as u32);
            }
            search.origin = Some((start, ids));
        }
        Ok(search)
    }

    /// [`Self::new`] with every option.
    fn new_whole(
        problem: &CompiledProblem,
        costs: &[u64],
        k: usize,
        links: bool,
        stop: &AtomicBool,
    ) -> Result<Cheapest, CostError> {
        let engine = if !links && Bits::suits(problem) {
            Engine::Bits(MinCostBits::new_until(problem, costs, k, stop)?)
        } else {
            Engine::Links(MinCost::new_until(problem, costs, k, stop)?)
        };
        let entries = problem.n_entries().max(1) as u64;
        let links = matches!(engine, Engine::Links(_));
        let restarts =
            links && engine.ledger().priced.scale > 1 && problem.n_entries() <= REPRICE_ENTRIES;
        let dives = links && dives(problem, costs);
        let races = links && LpTree::suits(problem, costs);
        let given = (restarts || dives || races).then(|| {
            Arc::new(Given {
                problem: problem.clone(),
                costs: costs.to_vec(),
            })
        });
        let restart = given.as_ref().filter(|_| restarts).map(|given| {
            Box::new(Restart {
                given: Arc::clone(given),
                k,
                work: entries * ascent_steps(entries, true),
            })
        });
        let dive = given.as_ref().filter(|_| dives).map(|given| {
            Box::new(Dive {
                given: Arc::clone(given),
                k,
                at: DIVE_AFTER,
                length: 0,
                patience: DIVE_PATIENCE,
                share: DIVE_SHARE,
                weight: 4,
                before: None,
                search: None,
            })
        });
        let race = given.as_ref().filter(|_| races).map(|given| {
            Box::new(Race {
                given: Arc::clone(given),
                k,
                tree: None,
                since: Instant::now(),
                spent: Duration::ZERO,
                share: TREE_SHARE,
                after: TREE_AFTER,
                given_cutoff: None,
                taken: 0,
                helper: None,
                next_helper: 0,
            })
        });
        Ok(Cheapest {
            engine,
            dive,
            ended: MinCostStats::default(),
            proven: false,
            restart,
            before: MinCostStats::default(),
            race,
            origin: None,
        })
    }

    /// Searches for at most `nodes` more nodes; true when the search is over.
    fn search_for(&mut self, nodes: u64) -> bool {
        if self.proven {
            return true;
        }
        if let Some(r) = self.race.as_mut()
            && r.tree.is_some()
        {
            // (Shares of the time since the tree began: the searches'
            // slices take from milliseconds to tens of them.)
            if r.spent.as_secs_f64() < r.share * r.since.elapsed().as_secs_f64() {
                let start = Instant::now();
                let done = self.tree_turn();
                if let Some(r) = self.race.as_mut() {
                    r.spent += start.elapsed();
                    // (A tree that gave up leaves the search alone.)
                    if let Some(tree) = r.tree.as_ref().filter(|t| t.has_given_up()) {
                        self.ended = self.ended.plus(tree.stats());
                        self.race = None;
                    }
                }
                return done;
            }
        }
        if let Some(d) = self.dive.as_mut()
            && let Some(search) = d.search.as_mut()
        {
            // (A node of a dive takes up to a few ascents over its options:
            // few of them to a slice, so that Ctrl-C is answered soon.)
            let most = (DIVE_SLICE_WORK / d.given.problem.n_entries().max(1) as u64).max(1);
            let found = search.stats().improvements;
            let over = search.search_for(nodes.min(most));
            // The dive's solutions are the search's at once (a budget may
            // end the search in the middle of the dive).
            if search.stats().improvements > found {
                self.engine.seed(search.ledger().best());
            }
            if over || search.work() >= d.length {
                self.end_dive(over);
                return self.proven;
            }
            return false;
        }
        let done = self.engine.search_for(nodes);
        if !done && self.tree_due() {
            let removed = self.removed();
            if let Some(d) = self.dive.as_mut().filter(|d| d.search.is_none()) {
                d.at = d.at.min(removed);
            }
            self.start_tree();
        }
        if !done && self.dive.as_ref().is_some_and(|d| self.removed() >= d.at) {
            self.start_dive();
            return false;
        }
        if !done
            && self.restart.as_ref().is_some_and(|r| {
                self.engine.ledger().cutoff_cost().is_some()
                    && self.engine.stats().updates >= r.work / 4
            })
        {
            self.start_over();
        }
        done
    }

    /// The dive begun (see [`Dive`]), from the prices' multipliers, with
    /// the solutions known.
    fn start_dive(&mut self) {
        let removed = self.removed();
        let (Some(d), Engine::Links(m)) = (self.dive.as_mut(), &self.engine) else {
            self.dive = None;
            return;
        };
        let first = m.ledger().priced.multipliers.clone();
        let never = AtomicBool::new(false);
        let Ok(mut search) =
            Partition::with_start(&d.given.problem, &d.given.costs, d.k, first, &never)
        else {
            self.dive = None;
            return;
        };
        search.seed(m.ledger().best());
        search.set_patience(d.patience);
        // (A first dive come early with the tree is as long as one after
        // DIVE_AFTER.)
        d.length = (removed.max(DIVE_AFTER) / 2).saturating_mul(d.share) / 16 * d.weight;
        d.before = m.ledger().optimum();
        d.search = Some(search);
    }

    /// The tree begun (see [`Race`]), with the solutions known.
    fn start_tree(&mut self) {
        let r = self.race.as_mut().expect("a race");
        match LpTree::new(&r.given.problem, &r.given.costs, r.k) {
            Ok(tree) => {
                r.since = Instant::now();
                r.tree = Some(tree);
            }
            Err(_) => self.race = None,
        }
    }

    /// One turn of the tree (or of a dive in a restricted master, see
    /// [`HELPER_ROWS`]); true when the tree has proven the K best.
    fn tree_turn(&mut self) -> bool {
        let r = self.race.as_mut().expect("a race");
        let tree = r.tree.as_mut().expect("a tree under way");
        if r.helper.is_none()
            && r.next_helper < HELPER_ROWS.len()
            && let Some((p, costs, ids)) = tree.restricted(HELPER_ROWS[r.next_helper].0)
        {
            let patience = HELPER_ROWS[r.next_helper].1;
            r.next_helper += 1;
            let never = AtomicBool::new(false);
            if let Ok(mut dive) = Partition::new(&p, &costs, r.k, &never) {
                dive.set_patience(patience);
                let entries = p.n_entries().max(1) as u64;
                r.helper = Some(Helper {
                    dive,
                    ids,
                    entries,
                    taken: 0,
                    last: 0,
                });
            }
            return false;
        }
        if let Some(Helper {
            dive,
            ids,
            entries,
            taken,
            last,
        }) = r.helper.as_mut()
        {
            // (Its nodes are on the restricted master: a few columns a
            // row, cheap.)
            let over = dive.search_for((DIVE_SLICE_WORK / *entries).max(1));
            if dive.stats().improvements > *taken {
                *taken = dive.stats().improvements;
                *last = dive.stats().nodes;
                // (Its options by the problem's ids; each checked.)
                let found: Vec<(u64, Vec<u32>)> = dive
                    .ledger()
                    .best()
                    .into_iter()
                    .map(|(c, o)| (c, o.iter().map(|&o| ids[o as usize]).collect::<Vec<u32>>()))
                    .filter(|(_, o)| r.given.problem.is_solution(o))
                    .collect();
                tree.seed(found.clone());
                self.engine.seed(found);
            }
            let nodes = dive.stats().nodes;
            if over || nodes >= HELPER_NODES || nodes - *last >= HELPER_STALL {
                r.helper = None;
            }
            return false;
        }
        let ledger = self.engine.ledger();
        if ledger.cutoff_cost() != r.given_cutoff || r.given_cutoff.is_none() {
            r.given_cutoff = ledger.cutoff_cost();
            tree.seed(ledger.best());
        }
        // (A few iterations at a time until the turn's time is up: what an
        // iteration costs goes from the square of the rows to the entries.)
        let start = Instant::now();
        let mut done = false;
        let columns = tree.size().1.max(1) as u64;
        let steps = (TREE_STEPS * STEP_COLUMNS / columns).clamp(1, TREE_STEPS);
        while !done && !tree.has_given_up() && start.elapsed() < TREE_TURN {
            done = tree.search_for(steps);
        }
        let found = tree.stats().improvements;
        if found > r.taken || done {
            r.taken = found;
            self.engine.seed(tree.ledger().best());
        }
        // (Once the root is solved, near, for the dives in restricted
        // masters to find a cost to beat; after them, near or far by it.)
        if let Some(bound) = tree.lower_bound() {
            let helped = r.helper.is_none() && r.next_helper == HELPER_ROWS.len();
            let far = helped
                && tree
                    .ledger()
                    .cutoff_cost()
                    .is_some_and(|cutoff| far_under(cutoff, bound));
            r.share = if far { TREE_SHARE_FAR } else { TREE_SHARE_NEAR };
        }
        self.proven = done;
        done
    }

    /// Whether the tree, not yet begun, joins now (see [`TREE_AFTER`]).
    fn tree_due(&self) -> bool {
        let Some(r) = self.race.as_ref().filter(|r| r.tree.is_none()) else {
            return false;
        };
        let removed = self.removed();
        let ledger = self.engine.ledger();
        removed >= r.after
            || (removed >= TREE_EARLY
                && ledger
                    .cutoff_cost()
                    .is_none_or(|cutoff| far_under(cutoff, ledger.priced.cost_of(0) as f64)))
    }

    /// Options removed by the search on dancing links since its start.
    fn removed(&self) -> u64 {
        self.before.updates + self.engine.stats().updates
    }

    /// The dive over (its solutions are the search's already); `over`: the
    /// dive's search ended (then, if it left no branch, it is a proof).
    fn end_dive(&mut self, over: bool) {
        let removed = self.removed();
        let d = self.dive.as_mut().expect("a dive");
        let search = d.search.take().expect("a dive under way");
        // (With no solution known at all, dives are what may find one.)
        let better = match (search.ledger().optimum(), d.before) {
            (Some(found), Some(known)) => found < known,
            _ => true,
        };
        // The next dive when the search has done as much again; as long as
        // that, or a sixteenth of it if this one found nothing better than
        // the search had.
        d.at = removed.saturating_mul(2).max(DIVE_AFTER);
        d.weight = if better { 16 } else { 1 };
        let s = search.stats();
        self.ended = self.ended.plus(s);
        self.proven = over && search.is_complete();
    }

    /// The prices worked out again, aimed at the K-th best cost, and the
    /// search begun anew with the solutions known (see [`Cheapest`]).
    fn start_over(&mut self) {
        let r = self.restart.take().expect("a restart");
        let upper = self.engine.ledger().cutoff_cost();
        let never = AtomicBool::new(false);
        let Ok(priced) = Priced::new(&r.given.problem, &r.given.costs, upper, &never) else {
            return; // (the first prices stay)
        };
        // Prices whose bound is far lower than the first's are not taken:
        // the aimed ascent has far fewer steps, and on air03 (124 x 10,757)
        // it reached 319,449 where the first had 338,859, with a solution
        // of 342,472 known: the proof took 10.7 s instead of 0.3 s. A small
        // loss is taken: the new prices lead the search elsewhere, and on
        // nw-like pairings (80 x 30,080; 4,351 against 4,431, with 5,294
        // known) that was 1.5 s against 2.9 s. Started from the first
        // prices instead, the ascent kept their bound and their way (3.2 s).
        let old = &self.engine.ledger().priced;
        if let Some(upper) = upper {
            let s = old.scale as i128;
            let gap = upper as i128 * s - old.total_tax;
            if priced.scale == old.scale && 2 * (old.total_tax - priced.total_tax) > gap {
                return;
            }
        }
        let Ok(mut ledger) = Ledger::new(priced, r.k) else {
            return;
        };
        ledger.seed(self.engine.ledger().best());
        let Ok(search) = MinCost::with_ledger(&r.given.problem, ledger, &never) else {
            return;
        };
        self.before = self.before.plus(self.engine.stats());
        self.engine = Engine::Links(search);
    }

    pub fn is_done(&self) -> bool {
        self.proven || self.engine.is_done()
    }

    /// Whether the search has started over (see [`Cheapest`]).
    pub fn started_over(&self) -> bool {
        self.restart.is_none()
    }

    /// Starts over as soon as K solutions are known (tests: their problems
    /// are too small to reach the work that earns it).
    #[cfg(test)]
    fn start_over_soon(&mut self) {
        if let Some(r) = self.restart.as_mut() {
            r.work = 0;
        }
    }

    /// Starts the tree at the next call (tests: their problems are too
    /// small to reach [`TREE_AFTER`]).
    #[cfg(test)]
    fn race_soon(&mut self) {
        if let Some(r) = self.race.as_mut() {
            r.after = 0;
        }
    }

    /// Whether the tree is under way (see [`Race`]).
    #[cfg(test)]
    fn racing(&self) -> bool {
        self.race.as_ref().is_some_and(|r| r.tree.is_some())
    }

    /// The counters of the search, from its first start.
    pub fn stats(&self) -> MinCostStats {
        let diving = self.dive.as_ref().and_then(|d| d.search.as_ref());
        let tree = self.race.as_ref().and_then(|r| r.tree.as_ref());
        [
            self.before,
            self.ended,
            diving.map(|s| s.stats()).unwrap_or_default(),
            tree.map(|t| t.stats()).unwrap_or_default(),
        ]
        .into_iter()
        .fold(self.engine.stats(), MinCostStats::plus)
    }

    /// The solutions kept, the cost to beat, the optimum so far; its
    /// solutions are by the search's own option ids (see [`Self::best`]).
    pub fn ledger(&self) -> &Ledger {
        self.engine.ledger()
    }

    /// The solutions kept, cheapest first: (cost, the given problem's
    /// option ids, increasing).
    pub fn best(&self) -> Vec<(u64, Vec<u32>)> {
        let mut best = self.ledger().best();
        if let Some((start, ids)) = &self.origin {
            for (_, options) in &mut best {
                let mut given: Vec<u32> = options
                    .iter()
                    .flat_map(|&o| &ids[start[o as usize] as usize..start[o as usize + 1] as usize])
                    .copied()
                    .collect();
                given.sort_unstable();
                *options = given;
            }
        }
        best
    }
}

/// The min-cost searches go in slices of nodes; the outcome is the end of
/// the search (the K best kept are then proven; see `ledger()`).
macro_rules! sliced_by_nodes {
    ($($engine:ty),*) => {$(
        impl Sliced for $engine {
            type Outcome = ();

            fn run(&mut self, slice: Slice) -> Poll<()> {
                if self.search_for(slice.work) {
                    Poll::Ready(())
                } else {
                    Poll::Pending
                }
            }
        }
    )*};
}

sliced_by_nodes!(MinCost, MinCostBits, Cheapest);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// Every solution's cost, cheapest first, by trying every subset of
    /// options.
    fn brute(p: &CompiledProblem, costs: &[u64]) -> Vec<u64> {
        let all = p.every_solution_by_subsets(costs);
        all.into_iter().map(|s| s.0).collect()
    }

    fn random_problem(rng: &mut Rng) -> (CompiledProblem, Vec<u64>) {
        loop {
            let n_primary = 1 + rng.below(5) as u32;
            let n_secondary = rng.below(3) as u32;
            let n_items = n_primary + n_secondary;
            let n_options = 1 + rng.below(12) as usize;
            let multi = rng.below(3) == 0;
            let (mut lo, mut hi) = (
                vec![1u32; n_primary as usize],
                vec![1u32; n_primary as usize],
            );
            if multi {
                for i in 0..n_primary as usize {
                    lo[i] = rng.below(3) as u32;
                    hi[i] = lo[i].max(1) + rng.below(2) as u32;
                }
            }
            let (mut start, mut item, mut color) = (vec![0u32], Vec::new(), Vec::new());
            for _ in 0..n_options {
                let mut has = false;
                for i in 0..n_items {
                    if rng.below(3) == 0 {
                        item.push(i);
                        has |= i < n_primary;
                        color.push(if i >= n_primary {
                            rng.below(3) as u32
                        } else {
                            0
                        });
                    }
                }
                if !has {
                    item.push(rng.below(n_primary as u64) as u32);
                    color.push(0);
                }
                start.push(item.len() as u32);
            }
            let costs = (0..n_options).map(|_| rng.below(10)).collect();
            if let Ok(p) = CompiledProblem::new(n_primary, n_secondary, lo, hi, start, item, color)
            {
                return (p, costs);
            }
        }
    }

    /// The search's K best are the brute force's (`all`, every cost):
    /// their costs, each a solution at its cost, none twice.
    fn assert_best(
        m: &Cheapest,
        p: &CompiledProblem,
        costs: &[u64],
        all: &[u64],
        k: usize,
        links: bool,
    ) {
        assert_kept(m.best(), p, costs, all, k, links);
    }

    /// [`assert_best`] on the solutions kept, `best`.
    fn assert_kept(
        best: Vec<(u64, Vec<u32>)>,
        p: &CompiledProblem,
        costs: &[u64],
        all: &[u64],
        k: usize,
        links: bool,
    ) {
        let got: Vec<u64> = best.iter().map(|b| b.0).collect();
        let want: Vec<u64> = all.iter().copied().take(k).collect();
        assert_eq!(
            got, want,
            "k={k} links={links} costs={costs:?} problem={p:?}"
        );
        for (c, opts) in &best {
            assert!(p.is_solution(opts));
            assert_eq!(*c, opts.iter().map(|&o| costs[o as usize]).sum::<u64>());
        }
        let mut sets: Vec<&Vec<u32>> = best.iter().map(|b| &b.1).collect();
        sets.sort();
        sets.dedup();
        assert_eq!(sets.len(), best.len(), "a solution twice");
    }

    #[test]
    fn the_k_best_costs_agree_with_brute_force() {
        let mut rng = Rng::new(7);
        for _ in 0..3000 {
            let (p, costs) = random_problem(&mut rng);
            let all = brute(&p, &costs);
            for (k, links) in [
                (1usize, true),
                (2, true),
                (3, true),
                (5, true),
                (1, false),
                (3, false),
                (5, false),
            ] {
                let mut m = Cheapest::new(&p, &costs, k, links, &AtomicBool::new(false)).unwrap();
                // In small slices, to go through every resumption.
                while m.run(Slice::work(3)) == Poll::Pending {}
                assert_best(&m, &p, &costs, &all, k, links);
            }
        }
    }

    #[test]
    fn the_k_best_agree_with_brute_force_when_the_search_starts_over() {
        let mut rng = Rng::new(13);
        let mut restarts = 0;
        for _ in 0..3000 {
            let (p, costs) = random_problem(&mut rng);
            let all = brute(&p, &costs);
            for (k, links) in [(1usize, true), (2, true), (4, true), (1, false), (3, false)] {
                let mut m = Cheapest::new(&p, &costs, k, links, &AtomicBool::new(false)).unwrap();
                m.start_over_soon();
                while m.run(Slice::work(1)) == Poll::Pending {}
                restarts += m.started_over() as u32;
                assert_best(&m, &p, &costs, &all, k, links);
            }
        }
        // (Enough searches started over for the agreement to say something.)
        assert!(restarts > 1000, "{restarts} restarts");
    }

    /// Random set partitioning problems: a few random partitions of the
    /// items (so that there are solutions), and random options beside.
    fn random_partition_problem(rng: &mut Rng) -> (CompiledProblem, Vec<u64>) {
        loop {
            let n = 1 + rng.below(7) as u32;
            let (mut start, mut item) = (vec![0u32], Vec::new());
            for _ in 0..1 + rng.below(2) {
                let mut left: Vec<u32> = (0..n).collect();
                while !left.is_empty() {
                    let take = 1 + rng.below(left.len().min(3) as u64) as usize;
                    for _ in 0..take {
                        let at = rng.below(left.len() as u64) as usize;
                        item.push(left.swap_remove(at));
                    }
                    start.push(item.len() as u32);
                }
            }
            while start.len() < 15 && rng.below(3) != 0 {
                for i in 0..n {
                    if rng.below(3) == 0 {
                        item.push(i);
                    }
                }
                if item.len() as u32 > *start.last().unwrap() {
                    start.push(item.len() as u32);
                }
            }
            let n_options = start.len() - 1;
            let costs = (0..n_options).map(|_| rng.below(20)).collect();
            if let Ok(p) = CompiledProblem::new(
                n,
                0,
                vec![1; n as usize],
                vec![1; n as usize],
                start,
                item,
                vec![],
            ) && n_options <= 14
            {
                return (p, costs);
            }
        }
    }

    #[test]
    fn the_branch_and_bound_on_set_partitions_agrees_with_brute_force() {
        let mut rng = Rng::new(17);
        let mut tried = 0;
        for round in 0..4000 {
            let (p, costs) = if round % 2 == 0 {
                random_partition_problem(&mut rng)
            } else {
                random_problem(&mut rng)
            };
            if !Partition::suits(&p, &costs) {
                continue;
            }
            tried += 1;
            let all = brute(&p, &costs);
            for k in [1usize, 2, 3, 5] {
                let mut s = Partition::new(&p, &costs, k, &AtomicBool::new(false)).unwrap();
                while !s.search_for(1) {}
                assert!(s.is_complete());
                assert_kept(s.ledger().best(), &p, &costs, &all, k, false);
                // As a heuristic: true solutions, and the K best when it
                // left no branch.
                let mut h = Partition::new(&p, &costs, k, &AtomicBool::new(false)).unwrap();
                h.set_patience(1);
                while !h.search_for(1) {}
                let best = h.ledger().best();
                for (i, (c, opts)) in best.iter().enumerate() {
                    assert!(p.is_solution(opts));
                    assert_eq!(*c, opts.iter().map(|&o| costs[o as usize]).sum::<u64>());
                    assert!(*c >= all[i]);
                }
                if h.is_complete() {
                    assert_kept(best, &p, &costs, &all, k, false);
                }
            }
        }
        assert!(tried > 1500, "{tried} problems");
    }

    #[test]
    fn the_k_best_agree_with_brute_force_when_the_search_dives() {
        let mut rng = Rng::new(19);
        let (mut dives, mut proofs) = (0, 0);
        for _ in 0..3000 {
            let (p, costs) = random_partition_problem(&mut rng);
            let all = brute(&p, &costs);
            for k in [1usize, 2, 4] {
                let mut m = Cheapest::new(&p, &costs, k, true, &AtomicBool::new(false)).unwrap();
                let Some(d) = m.dive.as_mut() else {
                    continue;
                };
                // A dive at once, short, as impatient as can be.
                d.at = 0;
                d.share = [0, 1, 1 << 40][rng.below(3) as usize];
                d.patience = rng.below(3);
                dives += 1;
                while m.run(Slice::work(1)) == Poll::Pending {}
                proofs += m.proven as u32;
                assert_best(&m, &p, &costs, &all, k, true);
            }
        }
        // (Enough dives, and dives that were proofs, for this to say something.)
        assert!(
            dives > 5000 && proofs > 100,
            "{dives} dives, {proofs} proofs"
        );
    }

    #[test]
    fn the_k_best_agree_with_brute_force_when_the_tree_races() {
        let mut rng = Rng::new(23);
        let (mut races, mut proofs) = (0, 0);
        for _ in 0..1500 {
            let (p, costs) = random_partition_problem(&mut rng);
            let all = brute(&p, &costs);
            for k in [1usize, 2, 4] {
                let mut m = Cheapest::new(&p, &costs, k, true, &AtomicBool::new(false)).unwrap();
                m.race_soon();
                while m.run(Slice::work(1)) == Poll::Pending {}
                races += m.racing() as u32;
                proofs += (m.racing() && m.proven) as u32;
                assert_best(&m, &p, &costs, &all, k, true);
            }
        }
        // (Enough races, and races the tree won, for this to say something.)
        assert!(
            races > 1000 && proofs > 100,
            "{races} races, {proofs} proofs"
        );
    }

    /// A set partitioning problem of `n` items: three planted partitions
    /// into blocks of 2-5 items, then random options of 2-5 items up to
    /// `n_options`, each costing below 100.
    fn planted_partition_problem(
        rng: &mut Rng,
        n: u32,
        n_options: usize,
    ) -> (CompiledProblem, Vec<u64>) {
        let (mut start, mut item) = (vec![0u32], Vec::new());
        for _ in 0..3 {
            let mut left: Vec<u32> = (0..n).collect();
            while !left.is_empty() {
                for _ in 0..(2 + rng.below(4) as usize).min(left.len()) {
                    item.push(left.swap_remove(rng.below(left.len() as u64) as usize));
                }
                start.push(item.len() as u32);
            }
        }
        while start.len() <= n_options {
            let mut picked: Vec<u32> = Vec::new();
            while picked.len() < 2 + rng.below(4) as usize {
                let i = rng.below(n as u64) as u32;
                if !picked.contains(&i) {
                    picked.push(i);
                }
            }
            item.extend(picked);
            start.push(item.len() as u32);
        }
        let costs = (0..start.len() - 1).map(|_| rng.below(100)).collect();
        let one = vec![1; n as usize];
        let p =
            CompiledProblem::new(n, 0, one.clone(), one, start, item, vec![]).expect("a problem");
        (p, costs)
    }

    #[test]
    fn the_tree_joins_early_where_the_search_has_no_near_cover() {
        // 80 items, 8,000 options: the search on dancing links has no cover
        // within TREE_FAR of its prices' bound after TREE_EARLY options
        // removed, so the tree joins then, long before TREE_AFTER. (That
        // the race's answers are right is the brute-force tests' work.)
        let mut rng = Rng::new(5);
        let (p, costs) = planted_partition_problem(&mut rng, 80, 8_000);
        let mut m = Cheapest::new(&p, &costs, 1, true, &AtomicBool::new(false)).unwrap();
        let mut joined_at = None;
        while m.run(Slice::work(1000)) == Poll::Pending {
            if joined_at.is_none() && m.racing() {
                joined_at = Some(m.removed());
            }
        }
        let at = joined_at.expect("the tree joined");
        assert!(
            (TREE_EARLY..TREE_AFTER).contains(&at),
            "joined after {at} options removed"
        );
        let (_, best) = &m.best()[0];
        assert!(p.is_solution(best));
    }

    #[test]
    fn a_tree_that_gives_up_leaves_its_counters_and_the_answer() {
        // The tree made to give up as soon as it joins: the search goes on
        // alone to the same optimum, and its counters never go back (the
        // binding's driver counts the work of a slice by their difference:
        // a tree's nodes lost made it wrap, and the search end unproven).
        let mut rng = Rng::new(5);
        let (p, costs) = planted_partition_problem(&mut rng, 80, 8_000);
        let never = AtomicBool::new(false);
        let mut alone = Cheapest::new(&p, &costs, 1, true, &never).unwrap();
        alone.race = None;
        assert_eq!(alone.run(Slice::ALL), Poll::Ready(()));
        let mut m = Cheapest::new(&p, &costs, 1, true, &never).unwrap();
        let (mut nodes, mut gave_up) = (0, false);
        while m.run(Slice::work(1000)) == Poll::Pending {
            let now = m.stats().nodes;
            assert!(now >= nodes, "the nodes went from {nodes} back to {now}");
            nodes = now;
            if let Some(tree) = m.race.as_mut().and_then(|r| r.tree.as_mut())
                && tree.stats().nodes > 0
            {
                tree.give_up_now();
                gave_up = true;
            }
        }
        assert!(gave_up && m.race.is_none(), "the tree joined and gave up");
        assert!(m.stats().nodes >= nodes);
        assert!(m.is_done());
        assert_eq!(m.ledger().optimum(), alone.ledger().optimum());
    }

    #[test]
    fn costs_too_big_for_fractional_prices_still_agree() {
        // Costs past 2^55: no room to scale them, so whole prices only.
        let mut rng = Rng::new(11);
        for _ in 0..500 {
            let (p, small) = random_problem(&mut rng);
            let costs: Vec<u64> = small.iter().map(|&c| (c + 1) << 55).collect();
            let all = brute(&p, &costs);
            let mut m = MinCost::new(&p, &costs, 3).unwrap();
            assert_eq!(m.ledger.priced.scale, 1);
            assert_eq!(m.run(Slice::ALL), Poll::Ready(()));
            let got: Vec<u64> = m.ledger().best().iter().map(|b| b.0).collect();
            assert_eq!(got, all.into_iter().take(3).collect::<Vec<_>>());
        }
    }

    #[test]
    fn costs_too_big_are_refused() {
        let p = CompiledProblem::new(1, 0, vec![1], vec![1], vec![0, 1, 2], vec![0, 0], vec![])
            .unwrap();
        assert_eq!(
            MinCost::new(&p, &[u64::MAX / 2 + 1, u64::MAX / 2], 1).err(),
            Some(CostError::TooLarge)
        );
        assert!(MinCost::new(&p, &[u64::MAX / 2, u64::MAX / 2], 1).is_ok());
        assert_eq!(
            MinCost::new(&p, &[1], 1).err(),
            Some(CostError::Length {
                expected: 2,
                got: 1
            })
        );
    }
}
