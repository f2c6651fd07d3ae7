//! [`Cheapest`], the min-cost search a problem gets: the reductions before
//! it, the machine that suits it, its restart, and the schedule of its
//! dives (`dive.rs`) and of the LP tree beside it (`race.rs`), by work.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::core::bits::Bits;
use crate::core::problem::CompiledProblem;
use crate::core::sliced::{Poll, Slice, Sliced};
use crate::cost::copies::cheapest_copies;
use crate::cost::lp_tree::LpTree;
use crate::cost::mincost_bits::MinCostBits;
use crate::cost::pricing::{CostError, Ledger, MinCostStats, Priced, ascent_steps, check_length};
use crate::cost::together::{Merged, Merging};

use super::dive::{Dive, dives};
use super::dlx5::MinCost;
use super::neighbourhood::Neighbourhoods;
use super::race::Race;

/// What the portfolio asks of a search for the K cheapest solutions,
/// whichever machine runs it (dancing links or bitsets).
pub(crate) trait CostSearch: Send {
    /// At most `nodes` more nodes; true when the search is over (the K
    /// best kept are then proven).
    fn search_for(&mut self, nodes: u64) -> bool;
    fn stats(&self) -> MinCostStats;
    /// The solutions kept, the cost to beat, the prices.
    fn ledger(&self) -> &Ledger;
    fn is_done(&self) -> bool;
    /// Solutions found beside the search (by a dive, by the tree, by the
    /// search before the options were merged) made its own.
    fn seed(&mut self, known: Vec<(u64, Vec<u32>)>);
}

impl CostSearch for MinCost {
    fn search_for(&mut self, nodes: u64) -> bool {
        MinCost::search_for(self, nodes)
    }
    fn stats(&self) -> MinCostStats {
        MinCost::stats(self)
    }
    fn ledger(&self) -> &Ledger {
        MinCost::ledger(self)
    }
    fn is_done(&self) -> bool {
        MinCost::is_done(self)
    }
    fn seed(&mut self, known: Vec<(u64, Vec<u32>)>) {
        self.ledger.seed(known);
    }
}

impl CostSearch for MinCostBits {
    fn seed(&mut self, known: Vec<(u64, Vec<u32>)>) {
        MinCostBits::seed(self, known);
    }
    fn search_for(&mut self, nodes: u64) -> bool {
        MinCostBits::search_for(self, nodes)
    }
    fn stats(&self) -> MinCostStats {
        MinCostBits::stats(self)
    }
    fn ledger(&self) -> &Ledger {
        MinCostBits::ledger(self)
    }
    fn is_done(&self) -> bool {
        MinCostBits::is_done(self)
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
///
/// Everything it decides (a dive, the tree's start and turns, the restart)
/// is decided at *check points* of the work: every [`CHECK_NODES`] nodes of
/// the search, at the end of each stint of a dive, after each turn of the
/// tree. Since the machines stop and go on at any node with the same
/// steps, the run is the same however its slices fall, and slices of a
/// driver that adapts them to the clock change nothing but the seconds.
pub struct Cheapest {
    pub(super) engine: Box<dyn CostSearch>,
    /// The dive to come, or under way (see [`Dive`]).
    pub(super) dive: Option<Box<Dive>>,
    /// The entries the dives visited, all told (for the race's shares).
    pub(super) dived: u64,
    /// The counters of the dives and of a tree that gave up, once they are
    /// over: still counted, so that the search's counters never go back
    /// (a driver counts its work by their difference).
    pub(super) ended: MinCostStats,
    /// Whether the dive ended its search complete: the K best are known.
    pub(super) proven: bool,
    /// What the search starts over from, until it has (only a search on
    /// dancing links has one).
    restart: Option<Box<Restart>>,
    /// The counters of the search before it started over.
    before: MinCostStats,
    /// The branch and bound on the relaxation, to come or under way (see
    /// [`Race`]).
    pub(super) race: Option<Box<Race>>,
    /// Nodes of the search or of the dive before the next check point, and
    /// whether the tree takes the next turn (decided at the last one).
    until_check: u64,
    tree_next: bool,
    /// The given problem's options that each option searched stands for
    /// (its start in the second), when options were merged or dropped
    /// before the search (see `together.rs` and `copies.rs`).
    origin: Option<(Vec<u32>, Vec<u32>)>,
    /// The merging of the options that go together, to come after
    /// [`MERGE_AFTER`] or under way, beside the search of the given
    /// problem (see [`Cheapest::new`]).
    merging: Option<Box<Beside>>,
    /// The counters of the search of the given problem, once the search
    /// of the merged one has taken its place, and whether it has.
    prior: MinCostStats,
    switched: bool,
    /// Whether the search is on bitsets ([`MinCostBits`]).
    bits: bool,
    /// The searches of neighbourhoods of the best solution, in the given
    /// problem's first stretch (see `neighbourhood.rs`).
    pub(super) lns: Option<Box<Neighbourhoods>>,
    /// The nodes of their searches, all told.
    pub(super) lns_nodes: u64,
}

/// The merging to come or under way, and what the search of the merged
/// problem will be asked.
struct Beside {
    merging: Merging,
    k: usize,
    links: bool,
    /// Options the search removes before the merging begins (see
    /// [`MERGE_AFTER`]), and the search's nodes at the next look at them
    /// (every [`MERGE_CHECK`] nodes, so that it begins at the same node
    /// however the slices fall); whether it has begun.
    after: u64,
    next_check: u64,
    every: u64,
    begun: bool,
}

/// Options removed by the search of the given problem before the merging
/// of the options that go together begins (see [`Cheapest::new`]), on
/// dancing links: about 0.1 s, against proofs of 4-35 s. On the 15 of our
/// crew-like set partitions of 400 and 646 rows whose optimum is known,
/// its best cover was at most 1.15% over the optimum (0.75% on average)
/// after 2M options removed, 1.05% after 4M and 0.93% (0.66%) after 8M;
/// the merging then takes 0.3-0.5 s.
const MERGE_AFTER: u64 = 8_000_000;
/// [`MERGE_AFTER`] on bitsets (problems of at most 4,096 options, whose
/// proofs take a fraction of a second; 2M options removed took 55-65 ms
/// there, against 25-40 ms on dancing links for 646 rows): at most 0.35%
/// over the optimum on five crew-like partitions of 200 rows.
const MERGE_AFTER_BITS: u64 = 2_000_000;
/// Entries a step of the merging visits for each node of a slice (the
/// driver sizes its slices by their time, at most 4,096 nodes).
const MERGE_ENTRIES_PER_NODE: u64 = 4096;
/// (See [`Beside`].)
const MERGE_CHECK: u64 = 64;

/// Nodes of the search on dancing links between two check points (see
/// [`Cheapest`]): a few milliseconds' worth at most, so that the tree's
/// turns and the dives come when they are due.
const CHECK_NODES: u64 = 256;

struct Restart {
    given: Arc<Given>,
    k: usize,
    /// The work (entries visited) the new prices take, and the search's
    /// work (options removed) to do before they are worth it.
    work: u64,
}

/// The problem and its costs, kept by [`Cheapest`] for the search that
/// starts over, the dives and the tree (one copy for all).
pub(super) struct Given {
    pub problem: CompiledProblem,
    pub costs: Vec<u64>,
}

/// Problems bigger than this do not start over (their copy and the
/// rebuilding of their lists would hold up a slice too long).
const REPRICE_ENTRIES: usize = 500_000;

impl Cheapest {
    /// The search for the `k` cheapest solutions of `problem`, on bitsets
    /// when they suit it (or never, with `links`), once the copies of
    /// options that cannot be among them are dropped (`copies.rs`).
    ///
    /// Where options always go together (set partitioning problems,
    /// `together.rs`), they are merged beside the search, not before it:
    /// the search of the given problem starts at once, and after
    /// [`MERGE_AFTER`] options removed ([`MERGE_AFTER_BITS`] on bitsets)
    /// it steps aside for the merging, in
    /// steps a slice long; then the search of the merged problem takes
    /// its place, with the solutions found so far. The first good
    /// solutions come before the merging, mostly from searches of
    /// neighbourhoods of the best so far (`neighbourhood.rs`; the merging
    /// takes 0.25-0.5 s on crew-like 646 x 7,292), and the
    /// proof is the merged problem's, whose relaxation is tighter. Both
    /// the switch and the steps go by work, never by the clock, so the run
    /// is the same on a busy machine.
    /// `stop` ends the building early ([`CostError::Stopped`]).
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use xc::{Cheapest, CompiledProblem, Poll, Slice, Sliced};
    /// // Cover {0, 1} by {0, 1} (cost 5), or by {0} (cost 1) and {1} (cost 2).
    /// let p = CompiledProblem::new(2, 0, vec![1; 2], vec![1; 2],
    ///     vec![0, 2, 3, 4], vec![0, 1, 0, 1], vec![]).unwrap();
    /// let mut c = Cheapest::new(&p, &[5, 1, 2], 1, false, &AtomicBool::new(false)).unwrap();
    /// assert_eq!(c.run(Slice::ALL), Poll::Ready(()));
    /// assert_eq!(c.best(), vec![(3, vec![1, 2])]);
    /// ```
    pub fn new(
        problem: &CompiledProblem,
        costs: &[u64],
        k: usize,
        links: bool,
        stop: &AtomicBool,
    ) -> Result<Cheapest, CostError> {
        check_length(problem, costs)?;
        let merging = Merging::new(problem, costs, stop)?;
        let mut search = Cheapest::on(problem, costs, None, k, links, stop)?;
        search.merging = merging.map(|merging| {
            Box::new(Beside {
                merging,
                k,
                links,
                after: if search.bits {
                    MERGE_AFTER_BITS
                } else {
                    MERGE_AFTER
                },
                next_check: MERGE_CHECK,
                every: MERGE_CHECK,
                begun: false,
            })
        });
        Ok(search)
    }

    /// The search of `p` with costs `c`: the given problem, or `merged`'s;
    /// the copies of options that cannot be among the K best dropped.
    fn on(
        p: &CompiledProblem,
        c: &[u64],
        merged: Option<&Merged>,
        k: usize,
        links: bool,
        stop: &AtomicBool,
    ) -> Result<Cheapest, CostError> {
        let kept = cheapest_copies(p, c, k, stop)?;
        let (p, c) = match &kept {
            Some(kept) => (&kept.problem, &kept.costs[..]),
            None => (p, c),
        };
        // (Neighbourhoods only in the given problem's first stretch.)
        let mut search = Cheapest::new_whole(p, c, k, links, merged.is_none(), stop)?;
        if merged.is_some() || kept.is_some() {
            let (mut start, mut ids) = (vec![0u32], Vec::new());
            for o in 0..p.n_options() {
                let o = kept.as_ref().map_or(o, |kept| kept.ids[o] as usize);
                match merged {
                    Some(m) => ids.extend_from_slice(m.members(o)),
                    None => ids.push(o as u32),
                }
                start.push(ids.len() as u32);
            }
            search.origin = Some((start, ids));
        }
        Ok(search)
    }

    /// A step of the merging (see [`Self::new`]), about as long as
    /// `nodes` of the search; once it is over, the search of the merged
    /// problem takes this one's place, with its solutions. (Where it
    /// merged too little, or the search of the merged problem cannot be
    /// built, this one goes on.)
    fn merge_step(&mut self, nodes: u64) {
        let beside = self.merging.as_mut().expect("a merging");
        let Poll::Ready(merged) = beside
            .merging
            .step(nodes.saturating_mul(MERGE_ENTRIES_PER_NODE))
        else {
            return;
        };
        let beside = self.merging.take().expect("a merging");
        let Some(merged) = merged else { return };
        // (The prices of a problem the merging took on are a slice's work:
        // at most [`crate::cost::together`]'s bound on its passes.)
        let never = AtomicBool::new(false);
        let Ok(mut next) = Cheapest::on(
            &merged.problem,
            &merged.costs,
            Some(&merged),
            beside.k,
            beside.links,
            &never,
        ) else {
            return;
        };
        next.seed_given(self.best());
        next.prior = self.stats();
        next.switched = true;
        *self = next;
    }

    /// Solutions of the given problem (its option ids) made the search's
    /// own, each by the options searched that stand for it (see
    /// [`Self::new`]); one that no set of them stands for is left out.
    fn seed_given(&mut self, known: Vec<(u64, Vec<u32>)>) {
        let Some((start, ids)) = &self.origin else {
            self.engine.seed(known);
            return;
        };
        // The option searched that each given option is a member of.
        let mut of = vec![u32::MAX; ids.iter().max().map_or(0, |&m| m as usize + 1)];
        for o in 0..start.len() - 1 {
            for &g in &ids[start[o] as usize..start[o + 1] as usize] {
                of[g as usize] = o as u32;
            }
        }
        let members = |o: u32| (start[o as usize + 1] - start[o as usize]) as usize;
        let mut mine = Vec::new();
        for (cost, given) in known {
            let mut options: Vec<u32> = given
                .iter()
                .map(|&g| of.get(g as usize).copied().unwrap_or(u32::MAX))
                .collect();
            options.sort_unstable();
            options.dedup();
            // (Whole: every member of each option searched is in it.)
            if options.last() != Some(&u32::MAX)
                && options.iter().map(|&o| members(o)).sum::<usize>() == given.len()
            {
                mine.push((cost, options));
            }
        }
        self.engine.seed(mine);
    }

    /// [`Self::new`] with every option; with `first`, the searches of
    /// neighbourhoods where they suit (see `neighbourhood.rs`).
    fn new_whole(
        problem: &CompiledProblem,
        costs: &[u64],
        k: usize,
        links: bool,
        first: bool,
        stop: &AtomicBool,
    ) -> Result<Cheapest, CostError> {
        let bits = !links && Bits::suits(problem);
        let engine: Box<dyn CostSearch> = if bits {
            Box::new(MinCostBits::new_until(problem, costs, k, stop)?)
        } else {
            Box::new(MinCost::new_until(problem, costs, k, stop)?)
        };
        let entries = problem.n_entries().max(1) as u64;
        let links = !bits;
        let restarts =
            links && engine.ledger().priced.scale > 1 && problem.n_entries() <= REPRICE_ENTRIES;
        let dives = links && dives(problem, costs);
        let races = links && LpTree::suits(problem, costs);
        let neighbourhoods = first && Neighbourhoods::suits(problem, k);
        let given = (restarts || dives || races || neighbourhoods).then(|| {
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
        let dive =
            (given.as_ref().filter(|_| dives)).map(|g| Box::new(Dive::first(Arc::clone(g), k)));
        let race =
            (given.as_ref().filter(|_| races)).map(|g| Box::new(Race::new(Arc::clone(g), k)));
        let until = if bits { MERGE_AFTER_BITS } else { MERGE_AFTER };
        let lns = (given.as_ref().filter(|_| neighbourhoods))
            .map(|g| Box::new(Neighbourhoods::new(Arc::clone(g), until)));
        Ok(Cheapest {
            engine,
            dive,
            dived: 0,
            ended: MinCostStats::default(),
            proven: false,
            restart,
            before: MinCostStats::default(),
            race,
            until_check: CHECK_NODES,
            tree_next: false,
            origin: None,
            merging: None,
            prior: MinCostStats::default(),
            switched: false,
            bits,
            lns,
            lns_nodes: 0,
        })
    }

    /// Searches for at most `nodes` more nodes of the search or its dive
    /// (a turn of the tree is whole, and ends the call); true when the
    /// search is over.
    fn search_for(&mut self, mut nodes: u64) -> bool {
        if self.proven {
            return true;
        }
        if self.merging.is_some() {
            let done = self.stats();
            // (Looked at by the nodes of the search alone, which stops at
            // each look: a neighbourhood's nodes come all at once.)
            let searched = done.nodes - self.lns_nodes;
            let b = self.merging.as_mut().expect("a merging");
            if !b.begun && searched >= b.next_check {
                b.begun = done.updates >= b.after;
                b.next_check = searched + b.every;
            }
            if b.begun {
                self.merge_step(nodes);
                return false;
            }
            nodes = nodes.min(b.next_check - searched);
        }
        if self.dive.is_none()
            && self.race.is_none()
            && self.restart.is_none()
            && self.lns.is_none()
        {
            return self.engine.search_for(nodes);
        }
        let mut left = nodes.max(1);
        loop {
            if self.tree_next {
                let done = self.tree_turn();
                self.tree_next = !done && self.tree_behind();
                return done;
            }
            let step = left.min(self.until_check);
            let diving = self.dive.as_mut().and_then(|d| d.search.as_mut());
            let is_dive = diving.is_some();
            let (over, did) = match diving {
                Some(search) => {
                    let before = search.stats().nodes;
                    let over = search.search_for(step);
                    (over, search.stats().nodes - before)
                }
                None => {
                    let before = self.engine.stats().nodes;
                    let over = self.engine.search_for(step);
                    (over, self.engine.stats().nodes - before)
                }
            };
            left = left.saturating_sub(did.max(1));
            self.until_check = self.until_check.saturating_sub(did);
            if is_dive {
                if over || self.until_check == 0 {
                    if self.dive_stint_over(over) {
                        return true;
                    }
                    self.checked();
                }
            } else if over {
                return true;
            } else if self.until_check == 0 {
                // (A neighbourhood's nodes are the call's too.)
                let before = self.lns_nodes;
                self.check();
                left = left.saturating_sub(self.lns_nodes - before);
            }
            if self.proven {
                return true;
            }
            if left == 0 {
                return false;
            }
        }
    }

    /// A check point of the search: the tree joins, a dive starts, or the
    /// search starts over, when each is due (not while a merging is to
    /// come: the search of the merged problem will have prices of its
    /// own).
    fn check(&mut self) {
        self.neighbourhood_turn();
        if self.tree_due() {
            let removed = self.removed();
            if let Some(d) = self.dive.as_mut().filter(|d| d.search.is_none()) {
                d.at = d.at.min(removed);
            }
            self.start_tree();
        }
        if self.dive.as_ref().is_some_and(|d| self.removed() >= d.at) {
            self.start_dive();
        } else if self.merging.is_none()
            && self.restart.as_ref().is_some_and(|r| {
                self.engine.ledger().cutoff_cost().is_some()
                    && self.engine.stats().updates >= r.work / 4
            })
        {
            self.start_over();
        }
        self.checked();
    }

    /// After a check point: the nodes to the next, and whether the tree
    /// takes the next turn.
    fn checked(&mut self) {
        self.until_check = match self.dive.as_ref() {
            Some(d) if d.search.is_some() => d.stint(),
            _ => CHECK_NODES,
        };
        self.tree_next = self.tree_behind();
    }

    /// Options removed by the search on dancing links since its start.
    pub(super) fn removed(&self) -> u64 {
        self.before.updates + self.engine.stats().updates
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
        self.engine = Box::new(search);
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
    pub(super) fn start_over_soon(&mut self) {
        if let Some(r) = self.restart.as_mut() {
            r.work = 0;
        }
    }

    /// Starts the tree at the next check point (tests: their problems are
    /// too small to reach the work that earns it).
    #[cfg(test)]
    pub(super) fn race_soon(&mut self) {
        if let Some(r) = self.race.as_mut() {
            r.after = 0;
        }
        self.check_soon();
    }

    /// The next check point after one node (tests: their problems end
    /// before [`CHECK_NODES`]).
    #[cfg(test)]
    pub(super) fn check_soon(&mut self) {
        self.until_check = 1;
    }

    /// Begins the merging once `after` options are removed, looking every
    /// `every` nodes (tests: their problems end before [`MERGE_AFTER`]);
    /// false when there is none to come.
    #[cfg(test)]
    pub(super) fn merge_soon(&mut self, after: u64, every: u64) -> bool {
        self.merging.as_mut().is_some_and(|b| {
            b.after = after;
            b.next_check = 0;
            b.every = every.max(1);
            true
        })
    }

    /// Whether the search of the merged problem has taken the place of
    /// the given one's (see [`Self::new`]).
    #[cfg(test)]
    pub(super) fn merged(&self) -> bool {
        self.switched
    }

    /// Whether the tree is under way (see [`Race`]).
    #[cfg(test)]
    pub(super) fn racing(&self) -> bool {
        self.race.as_ref().is_some_and(|r| r.tree.is_some())
    }

    /// The counters of the search, from its first start.
    pub fn stats(&self) -> MinCostStats {
        let diving = self.dive.as_ref().and_then(|d| d.search.as_ref());
        let tree = self.race.as_ref().and_then(|r| r.tree.as_ref());
        [
            self.prior,
            self.before,
            self.ended,
            diving.map(|s| s.stats()).unwrap_or_default(),
            tree.map(|t| t.stats()).unwrap_or_default(),
            self.lns.as_ref().map(|n| n.stats).unwrap_or_default(),
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
