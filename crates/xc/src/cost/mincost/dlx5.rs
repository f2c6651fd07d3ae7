//! Knuth's DLX5 on dancing links, with prices and multiplicities (see the
//! family's doc in `mod.rs`): [`MinCost`].

use std::sync::atomic::{AtomicBool, Ordering};

use crate::core::problem::CompiledProblem;
use crate::cost::pricing::{CostError, Ledger, MinCostStats, Priced};
use crate::cost::volume::LOOK;

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
    pub(super) ledger: Ledger,
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
