//! The dives of [`Cheapest`]: the branch and bound on Lagrangian bounds
//! (`partition.rs`) run beside the search on dancing links for good
//! solutions, not proofs.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::core::problem::CompiledProblem;
use crate::cost::partition::Partition;

use super::portfolio::{Cheapest, Given};

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
/// search's at the end of each of its stints (every [`DIVE_SLICE_WORK`]
/// entries' worth of nodes); when it is over, the search on dancing links
/// goes on where it was, with a lower cost to beat (and starts over with
/// prices aimed at it, as it would).
///
/// The two share the work: a dive visits at most as many entries (in its
/// ascents) as the search on dancing links has removed options since the
/// last dive, times [`DIVE_SHARE`] (about as long), and the next dive comes
/// when the search has done as much again. The first comes after
/// [`DIVE_AFTER`] options removed (a few seconds; sooner when the tree
/// joins sooner, see `race.rs`, with the same length, and the next
/// at DIVE_AFTER) and is a quarter as long, and a dive that found nothing
/// better than the search had makes the next one a sixteenth as long:
/// where dives do not pay, they cost little. Nw-like
/// pairings 80 x 30,080 were proven in 13.0 s instead of 10.3 s when every
/// dive was as long as the search and the first came after 20M options;
/// now 11.2 s against 10.4 s (and one proven in 1.4 s has no dive).
pub(super) struct Dive {
    pub given: Arc<Given>,
    pub k: usize,
    /// The search's options removed before the next dive.
    pub at: u64,
    /// The dive's entries visited at most.
    pub length: u64,
    /// The dives' patience (see [`Partition::set_patience`]), and their
    /// entries visited for each option removed by the search.
    pub patience: u64,
    pub share: u64,
    /// The next dive's share of the time, in sixteenths of the search's.
    pub weight: u64,
    /// The cheapest solution when the dive began.
    pub before: Option<u64>,
    /// Built when the dive starts.
    pub search: Option<Partition>,
    /// The dive's improvements already given to the search, and its work
    /// already counted in the race's shares (see `race.rs`).
    pub seeded: u64,
    pub counted: u64,
}

/// Problems with more entries than this do not dive (a node of the dive
/// would hold up a slice too long), and a dive's stint is this over the
/// entries in nodes.
pub(super) const DIVE_ENTRIES: usize = 200_000;
pub(super) const DIVE_SLICE_WORK: u64 = 2_000_000;
/// Options removed by the search on dancing links before the first dive.
pub(super) const DIVE_AFTER: u64 = 300_000_000;
/// Entries a dive visits for each option removed by the search.
pub(super) const DIVE_SHARE: u64 = 10;
/// Nodes without a better solution before a dive leaves the lower half of
/// its branch.
pub(super) const DIVE_PATIENCE: u64 = 200;

/// Whether a search of `problem` on dancing links would dive (see [`Dive`]):
/// set partitioning, and not so big that a node of the dive would hold up a
/// slice.
pub(super) fn dives(problem: &CompiledProblem, costs: &[u64]) -> bool {
    Partition::suits(problem, costs) && problem.n_entries() <= DIVE_ENTRIES
}

impl Dive {
    /// The first dive to come, on `given`.
    pub fn first(given: Arc<Given>, k: usize) -> Dive {
        Dive {
            given,
            k,
            at: DIVE_AFTER,
            length: 0,
            patience: DIVE_PATIENCE,
            share: DIVE_SHARE,
            weight: 4,
            before: None,
            search: None,
            seeded: 0,
            counted: 0,
        }
    }

    /// Nodes of a dive's stint: few, since a node takes up to a few
    /// ascents over its options, so that Ctrl-C is answered soon.
    pub fn stint(&self) -> u64 {
        (DIVE_SLICE_WORK / self.given.problem.n_entries().max(1) as u64).max(1)
    }
}

impl Cheapest {
    /// The dive begun (see [`Dive`]), from the prices' multipliers, with
    /// the solutions known.
    pub(super) fn start_dive(&mut self) {
        let removed = self.removed();
        let Some(d) = self.dive.as_mut() else {
            return;
        };
        let m = &self.engine;
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
        d.seeded = 0;
        d.counted = 0;
        d.search = Some(search);
    }

    /// The end of a dive's stint, or of the dive: its solutions given to
    /// the search, its work counted, and the dive over if it ended or did
    /// its length. True when the dive proved the K best.
    pub(super) fn dive_stint_over(&mut self, over: bool) -> bool {
        let d = self.dive.as_mut().expect("a dive");
        let search = d.search.as_ref().expect("a dive under way");
        if search.stats().improvements > d.seeded {
            d.seeded = search.stats().improvements;
            self.engine.seed(search.ledger().best());
        }
        self.dived += search.work() - d.counted;
        d.counted = search.work();
        if over || search.work() >= d.length {
            self.end_dive(over);
        }
        self.proven
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
}
