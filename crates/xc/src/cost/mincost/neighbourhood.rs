//! Large neighbourhood search (Shaw, 1998) on the best solution so far, for
//! [`Cheapest`]'s first good answers on set partitions: a few of its
//! options that lie close together are taken out, and the items they
//! covered are covered again, at least cost, by the options that hold none
//! but those items.
//!
//! The search on dancing links or bitsets improves its first solution from
//! the bottom of its tree up: on crew-like set partitions of 646 rows its
//! best after 0.2 s was 0.95-1.17% over the optimum, and 0.78% after a
//! second. Each search of a neighbourhood is small (some 100 items and
//! 1,000 options, a few thousand nodes) and sees the whole of a region of
//! the solution at once: from the same start, twenty of them took that
//! instance from 1.11% to 0.5-0.8% (a prototype).
//!
//! A neighbourhood grows from an option of the solution picked at random:
//! next comes the option of the solution that shares the most *links* with
//! those taken (a link is an option of the problem that holds an item of
//! each), so that the options taken out can be exchanged for others. Its
//! search is DLX5's, with the net costs of the whole problem's prices (no
//! ascent of its own: the sum of the taxes of the items it covers is the
//! same whatever covers them), the options taken out as the cost to beat,
//! and at most [`SUB_NODES`] nodes. The number of options taken out grows
//! by one after a search that ended, shrinks by one after one that did not.
//!
//! Neighbourhoods are searched only in the search's first stretch, the
//! given problem's before the merging of the options that go together
//! (`together.rs`), and there they take most of the work (up to [`SHARE`]
//! times the search's; theirs is the entries they visit, build and sort,
//! and the options their searches remove). They stop once the search's
//! options removed and their work add up to the stretch's length, so
//! the search of the merged problem, whose relaxation is tighter and
//! which proves the optimum, starts no later. Everything is decided at the
//! check points of the work, with a seeded generator, so the run is the
//! same on a busy machine.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::core::bits::Bits;
use crate::core::problem::{CompiledProblem, Incidence};
use crate::core::rng::Rng;
use crate::cost::mincost_bits::MinCostBits;
use crate::cost::pricing::{Ledger, MinCostStats, Priced};

use super::dlx5::MinCost;
use super::portfolio::{Cheapest, CostSearch, Given};

/// Nodes a search of a neighbourhood takes at most (a few milliseconds).
const SUB_NODES: u64 = 4096;
/// The neighbourhoods' work at most, for each option the search removed:
/// on the crew-like instances of 400 and 646 rows under `--seconds 0.2`,
/// shares of 1, 3, 6 and 12 left covers 0.53%, 0.37%, 0.33-0.35% and
/// 0.31-0.38% over the optimum on average, the worst 1.07% at 6, 0.98% at
/// 12; 30 was no better.
const SHARE: u64 = 12;
/// Options of a neighbourhood's search at most (past this the next
/// neighbourhood is smaller, and this one is not searched).
const SUB_OPTIONS: usize = 4096;
/// Options of the solution taken out at first, and at least.
const FIRST_SIZE: usize = 12;
const LEAST_SIZE: usize = 2;
/// The generator's seed: fixed, so that runs are the same.
const SEED: u64 = 0x004C_4E53;

/// The searches of neighbourhoods of a problem (see the module's comment).
pub(super) struct Neighbourhoods {
    given: Arc<Given>,
    /// The options of each item (the problem's columns), built at the
    /// first neighbourhood (most searches end before one).
    columns: Option<Incidence>,
    rng: Rng,
    /// Options of the solution taken out at once.
    size: usize,
    /// Entries visited building neighbourhoods, and options removed by
    /// their searches: the share of the work taken so far.
    pub work: u64,
    /// The counters of the searches of neighbourhoods, all told.
    pub stats: MinCostStats,
    /// Searches that found a cheaper solution.
    pub improved: u64,
    /// The search's work (options removed) and theirs together after
    /// which there are no more.
    until: u64,
}

impl Neighbourhoods {
    /// Whether `problem` is a set partition whose search for the cheapest
    /// solution gets neighbourhoods: every item primary, covered once,
    /// no colors, and K = 1.
    pub fn suits(problem: &CompiledProblem, k: usize) -> bool {
        k == 1
            && problem.n_secondary() == 0
            && !problem.has_multiplicities()
            && !problem.has_colors()
    }

    /// The searches of neighbourhoods of `given`'s solutions, until the
    /// search's work reaches `until` options removed.
    pub fn new(given: Arc<Given>, until: u64) -> Neighbourhoods {
        Neighbourhoods {
            given,
            columns: None,
            rng: Rng::new(SEED),
            size: FIRST_SIZE,
            work: 0,
            stats: MinCostStats::default(),
            improved: 0,
            until,
        }
    }

    fn options_of(&self, i: u32) -> &[u32] {
        self.columns.as_ref().map_or(&[], |c| c.of(i as usize))
    }

    /// Searches one neighbourhood of `solution` (option ids, with the net
    /// costs of `priced`); a cheaper solution if it found one: (its cost,
    /// its options).
    pub fn improve(&mut self, solution: &[u32], priced: &Priced) -> Option<(u64, Vec<u32>)> {
        let len = solution.len();
        let size = self.size.min(len / 2);
        if size < LEAST_SIZE {
            return None;
        }
        if self.columns.is_none() {
            self.columns = Some(Incidence::new(&self.given.problem));
            self.work += 2 * self.given.problem.n_entries() as u64;
        }
        let taken = self.grow(solution, size);
        let given = Arc::clone(&self.given);
        let p = &given.problem;
        // The items the options taken out covered, numbered anew.
        let mut new_id = vec![u32::MAX; p.n_primary()];
        let mut n_free = 0u32;
        for &s in &taken {
            for &i in p.option(solution[s] as usize) {
                new_id[i as usize] = n_free;
                n_free += 1;
            }
        }
        // The options that hold none but those items, each met at its first item.
        let (mut start, mut items, mut ids) = (vec![0u32], Vec::new(), Vec::new());
        let mut visited = 0u64;
        for &s in &taken {
            for &i in p.option(solution[s] as usize) {
                for &o in self.options_of(i) {
                    let its = p.option(o as usize);
                    visited += its.len() as u64;
                    if its[0] != i || its.iter().any(|&j| new_id[j as usize] == u32::MAX) {
                        continue;
                    }
                    items.extend(its.iter().map(|&j| new_id[j as usize]));
                    start.push(items.len() as u32);
                    ids.push(o);
                }
            }
        }
        self.work += visited;
        if ids.len() > SUB_OPTIONS {
            // (Too many to search in SUB_NODES: the next is smaller.)
            self.size = self.size.saturating_sub(1).max(LEAST_SIZE);
            return None;
        }
        let sub = CompiledProblem::set_partition(n_free, start, items).ok()?;
        // The options taken out, as the neighbourhood's first solution.
        let net: Vec<u64> = ids.iter().map(|&o| priced.net[o as usize]).collect();
        let mut out: Vec<u32> = taken.iter().map(|&s| solution[s]).collect();
        out.sort_unstable();
        let first: Vec<u32> = (0..ids.len() as u32)
            .filter(|&q| out.binary_search(&ids[q as usize]).is_ok())
            .collect();
        let out_net: u64 = out.iter().map(|&o| priced.net[o as usize]).sum();
        let out_cost: u64 = out.iter().map(|&o| given.costs[o as usize]).sum();
        // (Whatever covers these items pays the same taxes: the options
        // taken out's cost less their net cost.)
        let total_tax = out_cost as i128 * priced.scale as i128 - out_net as i128;
        let sub_priced = Priced {
            net,
            multipliers: Vec::new(),
            total_tax,
            scale: priced.scale,
        };
        let mut ledger = Ledger::new(sub_priced, 1).ok()?;
        ledger.seed(vec![(out_cost, first)]);
        let never = AtomicBool::new(false);
        let on_bits = Bits::suits(&sub);
        let mut search: Box<dyn CostSearch> = if on_bits {
            Box::new(MinCostBits::with_ledger(&sub, ledger))
        } else {
            Box::new(MinCost::with_ledger(&sub, ledger, &never).ok()?)
        };
        let ended = search.search_for(SUB_NODES);
        let s = search.stats();
        self.stats = self.stats.plus(s);
        // (Building the search sorts its lists, or fills its table of
        // clashes on bitsets.)
        let built = if on_bits {
            (ids.len() * ids.len() / 64) as u64
        } else {
            8 * sub.n_entries() as u64
        };
        self.work += s.updates + built;
        self.size = if ended {
            self.size + 1
        } else {
            self.size.saturating_sub(1).max(LEAST_SIZE)
        };
        let (cost, found) = search.ledger().best().into_iter().next()?;
        if cost >= out_cost {
            return None;
        }
        self.improved += 1;
        let rest: Vec<u32> = (0..len)
            .filter(|s| !taken.contains(s))
            .map(|s| solution[s])
            .collect();
        let mut better: Vec<u32> = rest
            .iter()
            .copied()
            .chain(found.iter().map(|&q| ids[q as usize]))
            .collect();
        better.sort_unstable();
        // (The rest of the solution and the neighbourhood's are a partition
        // by construction; checked all the same, since a wrong one kept
        // would be reported as the cheapest.)
        if !p.is_solution(&better) {
            return None;
        }
        let kept: u64 = rest.iter().map(|&o| given.costs[o as usize]).sum();
        Some((kept + cost, better))
    }

    /// `size` positions of `solution` close together: one at random, then
    /// each time the one with the most links to those taken (ties to the
    /// first).
    fn grow(&mut self, solution: &[u32], size: usize) -> Vec<usize> {
        let p = &self.given.problem;
        let mut owner = vec![u32::MAX; p.n_primary()];
        for (s, &o) in solution.iter().enumerate() {
            for &i in p.option(o as usize) {
                owner[i as usize] = s as u32;
            }
        }
        let mut links = vec![0u64; solution.len()];
        let mut taken = vec![self.rng.below(solution.len() as u64) as usize];
        let mut visited = 0u64;
        while taken.len() < size {
            let last = solution[*taken.last().expect("one taken")] as usize;
            for &i in p.option(last) {
                for &o in self.options_of(i) {
                    let its = p.option(o as usize);
                    visited += its.len() as u64;
                    for &j in its {
                        links[owner[j as usize] as usize] += 1;
                    }
                }
            }
            for &s in &taken {
                links[s] = 0;
            }
            let Some(next) = (0..solution.len())
                .filter(|s| !taken.contains(s))
                .max_by_key(|&s| (links[s], std::cmp::Reverse(s)))
            else {
                break;
            };
            taken.push(next);
        }
        self.work += visited;
        taken
    }
}

impl Cheapest {
    /// At a check point: a neighbourhood of the best solution searched,
    /// when there is one and the neighbourhoods' work is not ahead of the
    /// search's; none past the first stretch (their counters are kept).
    pub(super) fn neighbourhood_turn(&mut self) {
        let removed = self.removed();
        let Some(n) = self.lns.as_mut() else {
            return;
        };
        if removed + n.work >= n.until {
            self.ended = self.ended.plus(n.stats);
            self.lns = None;
            return;
        }
        if n.work > removed.saturating_mul(SHARE) {
            return;
        }
        let ledger = self.engine.ledger();
        let Some((_, solution)) = ledger.best().into_iter().next() else {
            return;
        };
        let before = n.stats.nodes;
        let better = n.improve(&solution, &ledger.priced);
        self.lns_nodes += n.stats.nodes - before;
        if let Some(better) = better {
            self.engine.seed(vec![better]);
        }
    }
}
