//! What the minimum-cost searches share: the costs turned into net costs
//! (taxes from the linear relaxation's dual, then DLX5's greedy ones; see
//! the `mincost` module), and the K best solutions kept.

use std::collections::{BinaryHeap, HashSet};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::core::problem::CompiledProblem;
use crate::cost::volume::{Ascent, Columns, LOOK, Stopped};

/// "Infinite" cost: no K-th best solution yet.
pub(crate) const INF: u64 = u64::MAX;

/// Why costs cannot be searched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CostError {
    /// `costs` must have one entry per option.
    Length { expected: usize, got: usize },
    /// The costs of all options together do not fit 64 bits.
    TooLarge,
    /// K must be at least 1.
    ZeroK,
    /// The stop flag was raised while the search was being built.
    Stopped,
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
            CostError::Stopped => write!(f, "stopped while building the min-cost search"),
        }
    }
}

impl std::error::Error for CostError {}

/// Entries visited by the first ascent at most (about a second: the
/// airline crew instance nw04, 36 x 87,482, takes it in 1,500 steps, and
/// HiGHS takes as long over its linear relaxation).
const LAGRANGE_WORK: u64 = 1_000_000_000;
/// Steps of the first ascent at most.
const LAGRANGE_ITERATIONS: u64 = 3000;
/// Steps of the ascent at most, when aimed at a known solution's cost, and
/// entries visited at most (a few tens of milliseconds: a search starting
/// over does it between two slices, and must answer Ctrl-C soon).
const REPRICE_ITERATIONS: u64 = 2000;
const REPRICE_WORK: u64 = 20_000_000;

/// The steps of the ascent on a problem of `entries` entries (at least 1),
/// aimed at a known solution's cost or not: as many as its bounds allow.
pub(crate) fn ascent_steps(entries: u64, aimed: bool) -> u64 {
    if aimed {
        REPRICE_ITERATIONS.min(REPRICE_WORK / entries)
    } else {
        LAGRANGE_ITERATIONS.min(LAGRANGE_WORK / entries)
    }
}

/// Prices from the linear relaxation are kept in units of 1/SCALE.
pub(crate) const SCALE: u64 = 1 << 10;

/// Prices of the items with a fixed number of uses (in units of
/// `1/scale`) that leave no option a negative net cost, near the optimum of
/// the linear relaxation's dual: Barahona and Anbil's volume algorithm
/// (`volume.rs`) on the Lagrangian of the taxable items, then, option by
/// option, a price lowered wherever an option would cost less than nothing.
/// Any such prices are a valid tax (every solution pays the same total);
/// good ones make the net costs large, so that far fewer options stay under
/// the cutoff.
///
/// The ascent starts from each taxable item's least share of an option's
/// cost and is aimed at `upper` (the cost of a known solution) when there
/// is one; its steps are bounded by [`ascent_steps`].
fn lagrange_prices(
    problem: &CompiledProblem,
    costs: &[u64],
    scale: u64,
    upper: Option<u64>,
    stop: &AtomicBool,
) -> Result<(Vec<i64>, Vec<f64>), CostError> {
    let n_primary = problem.n_primary();
    let n_options = problem.n_options();
    let taxable: Vec<bool> = (0..n_primary)
        .map(|i| problem.lo()[i] == problem.hi()[i])
        .collect();
    let entries = problem.n_entries().max(1) as u64;
    // The options on their taxable items only (the others keep price 0).
    let mut start = Vec::with_capacity(n_options + 1);
    let mut rows = Vec::with_capacity(problem.n_entries());
    let mut cost = Vec::with_capacity(n_options);
    start.push(0u32);
    // The start: each taxable item's least share of an option's cost.
    let mut y = vec![f64::INFINITY; n_primary];
    for (o, &c) in costs.iter().enumerate().take(n_options) {
        if o % LOOK == LOOK - 1 && stop.load(Ordering::Relaxed) {
            return Err(CostError::Stopped);
        }
        let items = problem.option(o);
        let k = items.iter().filter(|&&i| (i as usize) < n_primary).count();
        for &i in items {
            if (i as usize) < n_primary {
                y[i as usize] = y[i as usize].min(c as f64 / k as f64);
                if taxable[i as usize] {
                    rows.push(i);
                }
            }
        }
        start.push(rows.len() as u32);
        cost.push(c as f64);
    }
    for (k, yk) in y.iter_mut().enumerate() {
        if !taxable[k] || !yk.is_finite() {
            *yk = 0.0;
        }
    }
    let rhs: Vec<f64> = problem.lo().iter().map(|&l| l as f64).collect();
    let open: Vec<u32> = (0..n_primary as u32)
        .filter(|&i| taxable[i as usize])
        .collect();
    let alive: Vec<u32> = (0..n_options as u32).collect();
    let columns = Columns {
        start: &start,
        rows: &rows,
        cost: &cost,
    };
    let ascent = Ascent {
        columns: &columns,
        alive: &alive,
        open: &open,
        rhs: &rhs,
        upper: upper.map(|u| u as f64),
        steps: ascent_steps(entries, upper.is_some()),
        stall: true,
    };
    let mut mixed = vec![0f64; n_primary];
    ascent
        .run(&mut y, &mut mixed, None, stop)
        .map_err(|Stopped| CostError::Stopped)?;
    let best_y = y;
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
    Ok((prices, best_y))
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

/// One cost per option of `problem`, or [`CostError::Length`].
pub(crate) fn check_length(problem: &CompiledProblem, costs: &[u64]) -> Result<(), CostError> {
    let expected = problem.n_options();
    if costs.len() != expected {
        return Err(CostError::Length {
            expected,
            got: costs.len(),
        });
    }
    Ok(())
}

/// The costs of a problem as the searches take them: each option's net
/// cost (its cost times `scale`, less the taxes of its items; never
/// negative), and the total tax every solution pays.
pub(crate) struct Priced {
    pub net: Vec<u64>,
    /// The ascent's multipliers, one per primary item, as they came (before
    /// they were made a valid tax): where a search with bounds of its own
    /// starts ([`crate::Partition`]).
    pub multipliers: Vec<f64>,
    pub total_tax: i128,
    pub scale: u64,
}

impl Priced {
    /// Net costs of `costs` (one per option of `problem`): prices from the
    /// linear relaxation when the costs leave room to scale them, then
    /// DLX5's "Assign taxes" on top, item by item in order, each the least
    /// net cost left to its options. `stop` ends the work early (Ctrl-C).
    /// `upper`: the cost of a solution known (to aim the prices at).
    pub fn new(
        problem: &CompiledProblem,
        costs: &[u64],
        upper: Option<u64>,
        stop: &AtomicBool,
    ) -> Result<Priced, CostError> {
        check_length(problem, costs)?;
        let n_options = problem.n_options();
        let total: u128 = costs.iter().map(|&c| c as u128).sum();
        if total >= INF as u128 {
            return Err(CostError::TooLarge);
        }
        let n_primary = problem.n_primary();
        // Prices from the linear relaxation need a finer unit than 1.
        let scale: u64 = if total.saturating_mul(SCALE as u128) < (1u128 << 62) {
            SCALE
        } else {
            1
        };
        let (mut prices, multipliers) = if scale > 1 {
            lagrange_prices(problem, costs, scale, upper, stop)?
        } else {
            (vec![0i64; n_primary], vec![0.0; n_primary])
        };
        if stop.load(Ordering::Relaxed) {
            return Err(CostError::Stopped);
        }
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
        // DLX5's taxes, on what the prices left.
        let mut by_item: Vec<Vec<u32>> = vec![Vec::new(); n_primary];
        for o in 0..n_options {
            for &i in problem.option(o) {
                if (i as usize) < n_primary {
                    by_item[i as usize].push(o as u32);
                }
            }
        }
        for (i, options) in by_item.iter().enumerate() {
            if i % LOOK == LOOK - 1 && stop.load(Ordering::Relaxed) {
                return Err(CostError::Stopped);
            }
            if problem.lo()[i] != problem.hi()[i] {
                continue;
            }
            let minc = options.iter().map(|&o| net[o as usize]).min().unwrap_or(0);
            if minc == 0 {
                continue;
            }
            total_tax += minc as i128 * problem.lo()[i] as i128;
            for &o in options {
                net[o as usize] -= minc;
            }
        }
        Ok(Priced {
            net,
            multipliers,
            total_tax,
            scale,
        })
    }

    /// A net cost as a cost: the tax added, the scale taken out.
    pub fn cost_of(&self, net: u64) -> u64 {
        ((net as i128 + self.total_tax) / self.scale as i128) as u64
    }
}

/// What a minimum-cost search keeps: the K best solutions found so far (net
/// costs and option ids, dearest on top; once there are K, the dearest is
/// the cutoff, the cost to beat), and the prices that turn net costs back
/// into costs.
pub struct Ledger {
    pub(crate) priced: Priced,
    k: usize,
    heap: BinaryHeap<(u64, Vec<u32>)>,
    /// The K-th best's net cost (`INF` before there are K).
    kth: u64,
    /// The solutions given by [`Ledger::seed`] (a search finds each
    /// solution once, so only these could come twice).
    seeded: HashSet<Vec<u32>>,
}

impl Ledger {
    pub(crate) fn new(priced: Priced, k: usize) -> Result<Ledger, CostError> {
        if k == 0 {
            return Err(CostError::ZeroK);
        }
        Ok(Ledger {
            priced,
            k,
            heap: BinaryHeap::new(),
            kth: INF,
            seeded: HashSet::new(),
        })
    }

    /// A ledger of the K best at the costs as they are (scale 1, no taxes:
    /// net costs are costs), for the branch and bounds of `partition.rs`
    /// and `lp_tree/`.
    pub(crate) fn untaxed(costs: &[u64], k: usize) -> Result<Ledger, CostError> {
        let priced = Priced {
            net: costs.to_vec(),
            multipliers: Vec::new(),
            total_tax: 0,
            scale: 1,
        };
        Ledger::new(priced, k)
    }

    /// The net cost to beat: a solution is kept only if its net cost is
    /// below it (`INF` before there are K). Every solution's net cost is
    /// congruent to minus the total tax modulo the scale (its cost is whole),
    /// so a solution cheaper than the K-th best costs at least a whole unit
    /// less: the bar is the K-th best's net cost less `scale - 1`. This is
    /// what turns a fractional bound into a whole one: a relaxation that
    /// proves 11.2 proves 12.
    #[inline]
    pub(crate) fn cutoff(&self) -> u64 {
        if self.kth == INF {
            INF
        } else {
            self.kth.saturating_sub(self.priced.scale - 1)
        }
    }

    /// The bound a node of a branch and bound must stay under to hold a
    /// solution worth keeping, for a ledger at scale 1 (net costs are
    /// costs): the cost to beat less 1 (costs are whole), less a margin for
    /// the rounding of a bound in floating point; infinity before there
    /// are K.
    pub(crate) fn bar(&self) -> f64 {
        let cutoff = self.cutoff();
        if cutoff == INF {
            f64::INFINITY
        } else {
            let c = cutoff as f64;
            c - 1.0 + 1e-6 * c.max(1.0)
        }
    }

    /// A solution cheaper than the cutoff: kept (the dearest then dropped
    /// if there are more than K), the options sorted; one kept already
    /// (found again after [`Ledger::seed`]) is not kept twice.
    pub(crate) fn offer(&mut self, cost: u64, mut options: Vec<u32>) {
        options.sort_unstable();
        if self.seeded.contains(&options) {
            return;
        }
        if self.heap.len() == self.k {
            self.heap.pop();
        }
        self.heap.push((cost, options));
        if self.heap.len() == self.k {
            self.kth = self.heap.peek().map_or(INF, |top| top.0);
        }
    }

    /// Solutions known already (cost, options), kept at their net costs
    /// under this ledger's prices when cheaper than the K-th best (those it
    /// keeps already are not kept twice).
    pub(crate) fn seed(&mut self, known: Vec<(u64, Vec<u32>)>) {
        for (_, mut options) in known {
            options.sort_unstable();
            if self.heap.iter().any(|(_, o)| *o == options) {
                continue;
            }
            let net: u64 = options.iter().map(|&o| self.priced.net[o as usize]).sum();
            // (Only one cheaper than the K-th best: `offer` drops the dearest.)
            if self.kth != INF && net >= self.kth {
                continue;
            }
            self.offer(net, options.clone());
            self.seeded.insert(options);
        }
    }

    /// The cost to beat (the K-th best so far), once K solutions are known.
    pub fn cutoff_cost(&self) -> Option<u64> {
        (self.kth != INF).then(|| self.priced.cost_of(self.kth))
    }

    /// The solutions kept, cheapest first (ties by their option ids), each
    /// with its cost and its options in increasing order.
    pub fn best(&self) -> Vec<(u64, Vec<u32>)> {
        let mut out: Vec<(u64, Vec<u32>)> = self
            .heap
            .iter()
            .map(|(c, o)| (self.priced.cost_of(*c), o.clone()))
            .collect();
        out.sort();
        out
    }

    /// The cheapest cost found so far.
    pub fn optimum(&self) -> Option<u64> {
        self.heap
            .iter()
            .map(|k| k.0)
            .min()
            .map(|c| self.priced.cost_of(c))
    }
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

impl MinCostStats {
    /// The counters of two searches together (the deepest level of either).
    pub(crate) fn plus(self, other: MinCostStats) -> MinCostStats {
        MinCostStats {
            nodes: self.nodes + other.nodes,
            updates: self.updates + other.updates,
            improvements: self.improvements + other.improvements,
            max_level: self.max_level.max(other.max_level),
        }
    }
}
