//! The LP tree beside the search of [`Cheapest`], in turns scheduled by
//! work, never by the clock: the same command takes the same turns, finds
//! the same solutions and counts the same nodes on an idle machine and on
//! a busy one.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::cost::lp_tree::LpTree;
use crate::cost::partition::Partition;

use super::dive::{DIVE_PATIENCE, DIVE_SLICE_WORK};
use super::portfolio::{Cheapest, Given};

/// A search on dancing links that has not ended after [`TREE_AFTER`]
/// options removed (or [`TREE_EARLY`]) is joined by the branch and bound
/// on the linear relaxation ([`LpTree`]), when the problem suits it: set
/// partitioning of at most [`crate::cost::lp_tree::LP_ROWS`] rows. The two
/// take turns (the tree [`TREE_SHARE`] of the work, in turns of
/// [`TURN_TICKS`]) and share their solutions at each turn: the search's
/// (and its dives') are the tree's cost to beat, the tree's are the
/// search's at once. Whichever ends first is the proof: the tree's
/// solutions, with the search's, are then the K best.
///
/// Where the relaxation is far under the cost to beat (more than
/// [`TREE_FAR`] of it, once the tree's dives in restricted masters are
/// over), the tree has little of the work ([`TREE_SHARE_FAR`]): pairings whose
/// relaxation is 9% under the optimum are proven by the search on dancing
/// links, not by the tree, which with half the time made 8.6 s 16.2 s.
///
/// The shares are of work, in *ticks* (see [`TICKS_PER_UPDATE`]), so that
/// the turns do not depend on how busy the machine is.
pub(super) struct Race {
    pub given: Arc<Given>,
    pub k: usize,
    /// Built when it starts.
    pub tree: Option<LpTree>,
    /// The search's ticks when the tree started, the tree's ticks since,
    /// and its share of the ticks.
    pub search_from: u64,
    pub ticks: u64,
    pub share: f64,
    /// The search's options removed before the tree starts.
    pub after: u64,
    /// The search's cost to beat last given to the tree, and the tree's
    /// solutions already given to the search.
    pub given_cutoff: Option<u64>,
    pub taken: u64,
    /// A dive in a restricted master under way (see [`HELPER_ROWS`]); the
    /// next size to try.
    pub helper: Option<Helper>,
    pub next_helper: usize,
}

/// A dive in a restricted master: the problem's id of each of its
/// options, its entries, and the improvements already taken from it.
pub(super) struct Helper {
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
/// and the first dive with it (as long as after the dives' own first);
/// or only [`TREE_EARLY`] where the search has no solution by then within
/// [`TREE_FAR`] of its prices' bound. That is where the search on dancing
/// links will not end soon: air04's and air05's searches had covers 22%
/// over the optimum after TREE_AFTER (3 s), and 14 orders of their columns
/// took 214 s in all instead of 233 s; the tree alone, without the dive's
/// first cost to beat, had taken 245 s. Crew-like problems whose prices
/// prove them end before.
pub(super) const TREE_AFTER: u64 = super::dive::DIVE_AFTER;
/// (See [`TREE_AFTER`].)
pub(super) const TREE_EARLY: u64 = 20_000_000;
/// The tree's share of the work: half until its root is solved; most
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
/// (These were measured as shares of the time, which the ticks follow.)
pub(super) const TREE_SHARE: f64 = 0.5;
const TREE_SHARE_NEAR: f64 = 0.95;
const TREE_SHARE_FAR: f64 = 0.25;
const TREE_FAR: f64 = 0.03;

/// The common measure of the race's work, a tick, about a tenth of a
/// nanosecond of the 2-core machine it was measured on: an option removed
/// by the search on dancing links took 11 ns there (pairings 80 x 30,080,
/// 10.7 ns with its dives; crew-like 400 x 6,000, 13-22 ns with them), an
/// entry visited by a dive's ascents 1.3-1.8 ns (the restricted masters'
/// dives on crew-like 400 and 646 rows, pairings of 80), and an iteration
/// of the simplex 178-207 µs on crew-like 400 x 6,000 (two seeds), 646 x
/// 7,292 and the pairings: 0.3 ns times the rows squared (the dense
/// inverse) and 2.5 ns an entry of the relaxation (its pricing and pivot
/// rows), within 0.8-1.4 times each of those four. No cap: one at 190 µs
/// made a turn of a 100 x 60,000 pairings relaxation, whose iterations
/// take 2-3 ms, last 360 ms instead of 20.
const TICKS_PER_UPDATE: u64 = 110;
const TICKS_PER_ENTRY: u64 = 15;
const TICKS_PER_ROW_SQUARED: u64 = 3;
const TICKS_PER_ITERATION_ENTRY: u64 = 25;
/// A turn of the tree: about 20 ms (a slice of the search on dancing
/// links takes about 40 ms), in runs of [`TREE_STEPS`] iterations of the
/// simplex, fewer where the relaxation has more than [`STEP_COLUMNS`]
/// columns (an iteration on 122,856 columns of 145 rows takes about 12 ms).
const TURN_TICKS: u64 = 200_000_000;
const TREE_STEPS: u64 = 8;
const STEP_COLUMNS: u64 = 20_000;

/// Whether a lower bound is far under the cost to beat (see [`TREE_FAR`]).
pub(super) fn far_under(cutoff: u64, bound: f64) -> bool {
    cutoff as f64 - bound > TREE_FAR * cutoff as f64
}

impl Race {
    /// The race to come, on `given`.
    pub fn new(given: Arc<Given>, k: usize) -> Race {
        Race {
            given,
            k,
            tree: None,
            search_from: 0,
            ticks: 0,
            share: TREE_SHARE,
            after: TREE_AFTER,
            given_cutoff: None,
            taken: 0,
            helper: None,
            next_helper: 0,
        }
    }
}

impl Cheapest {
    /// The search's work so far (and its dives'), in ticks.
    fn search_ticks(&self) -> u64 {
        self.removed()
            .saturating_mul(TICKS_PER_UPDATE)
            .saturating_add(self.dived.saturating_mul(TICKS_PER_ENTRY))
    }

    /// Whether the tree, under way, has had less than its share of the
    /// work since it began: it takes the next turn.
    pub(super) fn tree_behind(&self) -> bool {
        let Some(r) = self.race.as_ref().filter(|r| r.tree.is_some()) else {
            return false;
        };
        let search = self.search_ticks().saturating_sub(r.search_from);
        (r.ticks as f64) < r.share * (r.ticks as f64 + search as f64)
    }

    /// The tree begun (see [`Race`]), with the solutions known.
    pub(super) fn start_tree(&mut self) {
        let from = self.search_ticks();
        let r = self.race.as_mut().expect("a race");
        match LpTree::new(&r.given.problem, &r.given.costs, r.k) {
            Ok(tree) => {
                r.search_from = from;
                r.tree = Some(tree);
            }
            Err(_) => self.race = None,
        }
    }

    /// Whether the tree, not yet begun, joins now (see [`TREE_AFTER`]).
    pub(super) fn tree_due(&self) -> bool {
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

    /// One turn of the tree (or of a dive in a restricted master, see
    /// [`HELPER_ROWS`]), its ticks counted; true when the tree has proven
    /// the K best. A tree that gave up leaves the search alone.
    pub(super) fn tree_turn(&mut self) -> bool {
        let done = self.tree_turn_whole();
        if let Some(r) = self.race.as_mut()
            && let Some(tree) = r.tree.as_ref().filter(|t| t.has_given_up())
        {
            self.ended = self.ended.plus(tree.stats());
            self.race = None;
        }
        done
    }

    fn tree_turn_whole(&mut self) -> bool {
        let r = self.race.as_mut().expect("a race");
        let tree = r.tree.as_mut().expect("a tree under way");
        if r.helper.is_none()
            && r.next_helper < HELPER_ROWS.len()
            && let Some((p, costs, ids)) = tree.restricted(HELPER_ROWS[r.next_helper].0)
        {
            let patience = HELPER_ROWS[r.next_helper].1;
            r.next_helper += 1;
            let never = AtomicBool::new(false);
            let entries = p.n_entries().max(1) as u64;
            // (Building it visits its entries.)
            r.ticks += entries * TICKS_PER_ENTRY;
            if let Ok(mut dive) = Partition::new(&p, &costs, r.k, &never) {
                dive.set_patience(patience);
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
            let work = dive.work();
            let over = dive.search_for((DIVE_SLICE_WORK / *entries).max(1));
            r.ticks += (dive.work() - work).max(*entries) * TICKS_PER_ENTRY;
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
        // (A few iterations at a time until the turn's ticks are spent:
        // what an iteration costs goes from the square of the rows to the
        // entries.)
        let (rows, columns) = tree.size();
        let (rows, columns) = (rows as u64, columns.max(1) as u64);
        let per_column =
            r.given.problem.n_entries() as u64 / r.given.problem.n_options().max(1) as u64;
        let iteration = TICKS_PER_ROW_SQUARED * rows * rows
            + TICKS_PER_ITERATION_ENTRY * columns * per_column.max(1);
        let steps = (TREE_STEPS * STEP_COLUMNS / columns).clamp(1, TREE_STEPS);
        let turn_ends = r.ticks + TURN_TICKS;
        let mut done = false;
        while !done && !tree.has_given_up() && r.ticks < turn_ends {
            let before = tree.iterations();
            done = tree.search_for(steps);
            r.ticks += (tree.iterations() - before).max(1) * iteration;
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
}
