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
//! relaxation, approached by subgradient ascent on its Lagrangian
//! ([`lagrange_prices`], then made feasible so that no net cost is
//! negative), and DLX5's greedy taxes are raised on top. The total tax is
//! then close to the relaxation's optimum, a lower bound on every solution,
//! and the net costs are its reduced costs: where the relaxation is tight
//! (L-tromino tilings with random costs: 1150 of an optimum of 1263 on
//! 12x12), nearly every option is dearer than the gap and never enters the
//! search (9.0 s for DLX5 against 0.03 s, K = 10); where it is loose
//! (pentominoes: 51 of 241), the search is DLX5's. Prices are fractions
//! held in units of `1/SCALE` (costs are multiplied by `SCALE`), exactly.
//! Bounds at each node (Knuth's `z` and `Z` heuristics, a greedy dual of
//! the rest) were measured and left out: they cost more than they saved.
//!
//! The search is DLX2's dancing links (cover, hide, purify) with DLX5's
//! thresholds and branching rule (fewest usable options, ties to the
//! dearest cheapest option); Knuth's step names (`forward`, `advance`,
//! `recover`, `backup`, `backdown`) name the steps.
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
//! use xc::{CompiledProblem, MinCost};
//! // Cover {0, 1} by {0, 1} (cost 5), or by {0} (cost 1) and {1} (cost 2).
//! let p = CompiledProblem::new(2, 0, vec![1; 2], vec![1; 2],
//!     vec![0, 2, 3, 4], vec![0, 1, 0, 1], vec![]).unwrap();
//! let mut m = MinCost::new(&p, &[5, 1, 2], 2).unwrap();
//! assert!(m.run(u64::MAX));
//! let best: Vec<(u64, Vec<u32>)> = m.best();
//! assert_eq!(best, vec![(3, vec![1, 2]), (5, vec![0])]);
//! ```

use std::collections::BinaryHeap;
use std::fmt;

use crate::problem::CompiledProblem;

/// "Infinite" cost: no K-th best solution yet.
const INF: u64 = u64::MAX;
/// At most this many options of an item are counted when choosing where to
/// branch (DLX5's `lenthresh`); past it, the list's length stands in.
const LENTHRESH: u32 = 10;

/// Prices from the linear relaxation are kept in units of 1/SCALE.
const SCALE: u64 = 1 << 10;

/// Prices of the items with a fixed number of uses (in units of
/// `1/scale`) that leave no option a negative net cost, near the optimum of
/// the linear relaxation's dual: subgradient ascent on the Lagrangian
/// `sum(lo_k y_k) + sum_o min(0, c_o - sum_{k in o} y_k)` (Held and Karp's
/// steps), then, option by option, a price lowered wherever an option would
/// cost less than nothing. Any such prices are a valid tax (every solution
/// pays the same total); good ones make the net costs large, so that far
/// fewer options stay under the cutoff. The work is bounded by
/// `LAGRANGE_WORK` entries visited.
fn lagrange_prices(problem: &CompiledProblem, costs: &[u64], scale: u64) -> Vec<i64> {
    const LAGRANGE_WORK: u64 = 40_000_000;
    const ITERATIONS: u64 = 600;
    let n_primary = problem.n_primary();
    let n_options = problem.n_options();
    let taxable: Vec<bool> = (0..n_primary)
        .map(|i| problem.lo()[i] == problem.hi()[i])
        .collect();
    let lo: Vec<f64> = problem.lo().iter().map(|&l| l as f64).collect();
    let entries = problem.n_entries().max(1) as u64;
    let iterations = ITERATIONS.min(LAGRANGE_WORK / entries);
    let mut y = vec![0f64; n_primary];
    let mut best_y = y.clone();
    let mut best = f64::NEG_INFINITY;
    let mut g = vec![0f64; n_primary];
    let mut lambda = 2.0f64;
    let mut stale = 0;
    for _ in 0..iterations {
        let mut value: f64 = (0..n_primary).map(|k| lo[k] * y[k]).sum();
        for (k, gk) in g.iter_mut().enumerate() {
            *gk = if taxable[k] { lo[k] } else { 0.0 };
        }
        for (o, &c) in costs.iter().enumerate().take(n_options) {
            let items = problem.option(o);
            let mut rc = c as f64;
            for &i in items {
                if (i as usize) < n_primary {
                    rc -= y[i as usize];
                }
            }
            if rc < 0.0 {
                value += rc;
                for &i in items {
                    if (i as usize) < n_primary && taxable[i as usize] {
                        g[i as usize] -= 1.0;
                    }
                }
            }
        }
        if value > best + 1e-9 {
            best = value;
            best_y.copy_from_slice(&y);
            stale = 0;
        } else {
            stale += 1;
            if stale >= 20 {
                lambda /= 2.0;
                stale = 0;
                if lambda < 1e-4 {
                    break;
                }
            }
        }
        let norm: f64 = g.iter().map(|x| x * x).sum();
        if norm == 0.0 {
            break; // optimal
        }
        let target = best.abs() * 0.05 + 1.0;
        let step = lambda * target / norm;
        for k in 0..n_primary {
            y[k] += step * g[k];
        }
    }
    let s = scale as f64;
    let mut prices: Vec<i64> = best_y
        .iter()
        .map(|&v| (v * s).floor().clamp(-1e15, 1e15) as i64)
        .collect();
    // No option may cost less than nothing: lower the dearest price of
    // each option that would (lowering a price never hurts another option).
    for (o, &c) in costs.iter().enumerate().take(n_options) {
        let items = problem.option(o);
        let mut rc = c as i128 * scale as i128;
        let mut dearest: Option<usize> = None;
        for &i in items {
            let i = i as usize;
            if i < n_primary {
                rc -= prices[i] as i128;
                if taxable[i] && dearest.is_none_or(|d| prices[i] > prices[d]) {
                    dearest = Some(i);
                }
            }
        }
        if rc < 0 {
            let d = dearest.expect("an option has a primary item");
            prices[d] += rc as i64;
        }
    }
    prices
}

/// Each option's cost times `scale`, less the prices of its items.
fn net_costs(problem: &CompiledProblem, costs: &[u64], scale: u64, prices: &[i64]) -> Vec<u64> {
    let n_primary = problem.n_primary();
    (0..problem.n_options())
        .map(|o| {
            let mut rc = costs[o] as i128 * scale as i128;
            for &i in problem.option(o) {
                if (i as usize) < n_primary {
                    rc -= prices[i as usize] as i128;
                }
            }
            rc as u64
        })
        .collect()
}

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

/// Why costs cannot be searched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CostError {
    /// `costs` must have one entry per option.
    Length { expected: usize, got: usize },
    /// The costs of all options together do not fit 64 bits.
    TooLarge,
    /// K must be at least 1.
    ZeroK,
}

impl fmt::Display for CostError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CostError::Length { expected, got } => {
                write!(f, "{got} costs for {expected} options")
            }
            CostError::TooLarge => write!(
                f,
                "the costs of all options add up past 2^64 - 2, more than the engine holds"
            ),
            CostError::ZeroK => write!(f, "the number of solutions wanted must be at least 1"),
        }
    }
}

impl std::error::Error for CostError {}

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

/// Counters of a minimum-cost search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MinCostStats {
    /// Search-tree nodes entered.
    pub nodes: u64,
    /// Options removed from an item's list.
    pub updates: u64,
    /// Solutions cheaper than the K-th best of their time (each one kept).
    pub improvements: u64,
    /// Deepest level reached.
    pub max_level: u64,
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
    total_tax: i128,
    /// Costs are held multiplied by this (fractional prices are whole).
    scale: u64,
    k: usize,
    /// The K best net costs and their options, dearest on top; `cutoff` is
    /// the top's cost once there are K.
    kept: BinaryHeap<(u64, Vec<u32>)>,
    cutoff: u64,
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
        let n_options = problem.n_options();
        if costs.len() != n_options {
            return Err(CostError::Length {
                expected: n_options,
                got: costs.len(),
            });
        }
        if k == 0 {
            return Err(CostError::ZeroK);
        }
        let total: u128 = costs.iter().map(|&c| c as u128).sum();
        if total >= INF as u128 {
            return Err(CostError::TooLarge);
        }
        let n_primary = problem.n_primary() as u32;
        let n_items = problem.n_items() as u32;
        // Prices from the linear relaxation need a finer unit than 1.
        let scale: u64 = if total.saturating_mul(SCALE as u128) < (1u128 << 62) {
            SCALE
        } else {
            1
        };
        let mut prices = if scale > 1 {
            lagrange_prices(problem, costs, scale)
        } else {
            vec![0i64; n_primary as usize]
        };
        let mut net: Vec<u64> = net_costs(problem, costs, scale, &prices);
        if net.iter().map(|&c| c as u128).sum::<u128>() >= INF as u128 {
            // (Prices so wild that net costs would not fit: none at all.)
            prices.fill(0);
            net = net_costs(problem, costs, scale, &prices);
        }
        let mut total_tax: i128 = 0;
        for (i, &y) in prices.iter().enumerate() {
            total_tax += y as i128 * problem.lo()[i] as i128;
        }

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
            total_tax: 0,
            scale,
            k,
            kept: BinaryHeap::new(),
            cutoff: INF,
            levels: Vec::new(),
            excluded: Vec::new(),
            curcost: 0,
            state: State::Forward,
            stats: MinCostStats::default(),
        };
        m.total_tax = total_tax;
        m.link_active();
        m.assign_taxes();
        m.sort_lists();
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

    /// The nodes of the option of node `p`, in order from the first.
    fn option_nodes(&self, p: u32) -> impl Iterator<Item = u32> + '_ {
        let mut q = p;
        while self.nd[q as usize - 1].itm > 0 {
            q -= 1;
        }
        (q..).take_while(move |&x| self.nd[x as usize].itm > 0)
    }

    /// DLX5's "Assign taxes", on items with a fixed number of uses.
    fn assign_taxes(&mut self) {
        for h in 1..self.second {
            let hu = h as usize;
            if self.lo[hu] != self.hi[hu] {
                continue;
            }
            let mut minc = INF;
            let mut p = self.nd[hu].down;
            while p != h && minc > 0 {
                minc = minc.min(self.nd[p as usize].cost);
                p = self.nd[p as usize].down;
            }
            if minc == 0 || minc == INF {
                continue;
            }
            self.total_tax += minc as i128 * self.lo[hu] as i128;
            let mut p = self.nd[hu].down;
            while p != h {
                let nodes: Vec<u32> = self.option_nodes(p).collect();
                for q in nodes {
                    self.nd[q as usize].cost -= minc;
                }
                p = self.nd[p as usize].down;
            }
        }
    }

    /// Every item list in order of net cost (stable: ties keep input order).
    fn sort_lists(&mut self) {
        let mut list = Vec::new();
        for h in 1..self.last_itm {
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
    }

    /// A net cost as a cost: the tax added, the scale taken out.
    fn cost_of(&self, net: u64) -> u64 {
        ((net as i128 + self.total_tax) / self.scale as i128) as u64
    }

    /// Counters so far.
    pub fn stats(&self) -> MinCostStats {
        self.stats
    }

    /// Whether the search is over: the solutions kept are the K best.
    pub fn is_done(&self) -> bool {
        self.state == State::Done
    }

    /// The cost to beat (the K-th best so far), once K solutions are known.
    pub fn cutoff(&self) -> Option<u64> {
        (self.cutoff != INF).then(|| self.cost_of(self.cutoff))
    }

    /// The cheapest cost found so far.
    pub fn optimum(&self) -> Option<u64> {
        self.kept.iter().map(|k| k.0).min().map(|c| self.cost_of(c))
    }

    /// The solutions kept, cheapest first (ties by their sorted option ids),
    /// each with its cost and its options in increasing order.
    pub fn best(&self) -> Vec<(u64, Vec<u32>)> {
        let mut out: Vec<(u64, Vec<u32>)> = self
            .kept
            .iter()
            .map(|(c, o)| (self.cost_of(*c), o.clone()))
            .collect();
        out.sort();
        out
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
        let room = self.cutoff - self.curcost;
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
        let options: Vec<u32> = {
            let mut v: Vec<u32> = self
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
            v.sort_unstable();
            v
        };
        self.stats.improvements += 1;
        if self.kept.len() == self.k {
            self.kept.pop();
        }
        self.kept.push((cost, options));
        if self.kept.len() == self.k {
            self.cutoff = self.kept.peek().map_or(INF, |top| top.0);
        }
    }

    // ------------------------------------------------------------ the search

    /// Searches for at most `nodes` more nodes; true when the search is over
    /// (the solutions kept are then the K best, proven).
    pub fn run(&mut self, nodes: u64) -> bool {
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

    /// DLX5's `forward`: choose the item, cover it, try its first branch.
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
            level.thresh0 = self.cutoff - (self.curcost + cheapest);
            self.count[bu] += 1;
            self.deactivate(best);
            self.cover(best, level.thresh0);
        }
        self.levels.push(level);
        self.advance();
    }

    /// DLX5's `advance`: the branch `choice` of the top level goes in.
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
        let thresh = self.cutoff - nextcost;
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

    /// DLX5's `recover`: the top level's branch goes out; the next one
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
        if next >= self.last_itm && self.curcost + self.nd[next as usize].cost < self.cutoff {
            self.levels[l].choice = next;
            self.advance();
        } else {
            self.backup();
        }
    }

    /// DLX5's `backup`: the top level's item comes back; go up a level.
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

    /// DLX5's `backdown`: back to the level above, or the end.
    fn backdown(&mut self) {
        self.state = if self.levels.is_empty() {
            State::Done
        } else {
            State::Recover
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// Every solution's cost, by trying every subset of options.
    fn brute(p: &CompiledProblem, costs: &[u64]) -> Vec<u64> {
        let n = p.n_options();
        let mut out = Vec::new();
        for mask in 0u64..(1 << n) {
            let chosen: Vec<u32> = (0..n as u32).filter(|&o| mask >> o & 1 == 1).collect();
            if p.is_solution(&chosen) {
                out.push(chosen.iter().map(|&o| costs[o as usize]).sum());
            }
        }
        out.sort_unstable();
        out
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

    #[test]
    fn the_k_best_costs_agree_with_brute_force() {
        let mut rng = Rng::new(7);
        for _ in 0..3000 {
            let (p, costs) = random_problem(&mut rng);
            let all = brute(&p, &costs);
            for k in [1usize, 2, 3, 5] {
                let mut m = MinCost::new(&p, &costs, k).unwrap();
                // In small slices, to go through every resumption.
                while !m.run(3) {}
                let best = m.best();
                let got: Vec<u64> = best.iter().map(|b| b.0).collect();
                let want: Vec<u64> = all.iter().copied().take(k).collect();
                assert_eq!(got, want, "k={k} costs={costs:?} problem={p:?}");
                for (c, opts) in &best {
                    assert!(p.is_solution(opts));
                    assert_eq!(*c, opts.iter().map(|&o| costs[o as usize]).sum::<u64>());
                }
                let mut sets: Vec<&Vec<u32>> = best.iter().map(|b| &b.1).collect();
                sets.dedup();
                assert_eq!(sets.len(), best.len(), "a solution twice");
            }
        }
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
            assert_eq!(m.scale, 1);
            assert!(m.run(u64::MAX));
            let got: Vec<u64> = m.best().iter().map(|b| b.0).collect();
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
