//! What the engines share: [`Solve`], what a driver needs from any engine
//! (solutions one at a time, in runs that stop at a budget); [`Machine`],
//! what the tree searches add to it (counting, pieces of the tree, progress,
//! probes), the interface [`crate::Search`] drives; and the steps, budgets
//! and moves they speak in. (Each machine keeps its own position in Knuth's
//! steps: its own state type.)
//!
//! Three machines implement [`Machine`]: dancing cells (`search/cellsearch/`,
//! Algorithms X, C and M on Knuth's sparse sets) and bitsets (`bits.rs`,
//! Algorithms X and C on words; `mbits.rs`, Algorithm M on words). The CDCL engine ([`crate::Sat`]) implements
//! [`Solve`] alone: it has no tree to count, split or pause at a node, only
//! solutions one by one (first, uniqueness, all of them), and counts only by
//! listing them, up to a limit.

use std::fmt::Debug;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::core::problem::CompiledProblem;
use crate::core::rng::Rng;
use crate::core::stats::Stats;

/// What a slice of search ended with (inside the machines; outside, a
/// [`crate::Poll`] of a [`crate::Slice`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// A solution is ready in [`crate::Search::solution`].
    Solution,
    /// A budget of [`Limits`] was reached (or, when counting, the target count);
    /// calling again continues where it stopped.
    Paused,
    /// The whole tree has been explored.
    Exhausted,
}

/// Absolute values of the counters at which a slice pauses (inside the
/// machines; outside, a [`crate::Slice`] counted from the call).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    /// Pause before entering a node once `stats().nodes` has reached this.
    pub nodes: u64,
    /// Pause before entering a node once `stats().updates` has reached this.
    pub updates: u64,
}

impl Limits {
    /// No limit at all.
    pub(crate) const NONE: Limits = Limits {
        nodes: u64::MAX,
        updates: u64::MAX,
    };
}

/// A move of a piece of the search tree: an option put into, or left out
/// of, every solution of the piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Include(u32),
    Exclude(u32),
}

/// Random probes stop this deep: an estimate is rough anyway, and a probe of
/// a problem whose solutions have 100,000 options must not cost a search.
pub(crate) const MAX_PROBE_DEPTH: usize = 1 << 12;

/// A probe stops once its estimate passes this: the tree is astronomically
/// big, so going deeper tells nothing more, and a product of 500 branchings
/// of 2,000 (a problem of a million options) would overflow to infinity,
/// whose shares of a whole are NaN. Sums of a million such estimates stay finite.
pub(crate) const MOST_ESTIMATE: f64 = 1e300;

/// Which data structure to dance on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Bitsets when the problem suits them, dancing cells otherwise.
    Auto,
    /// Dancing cells (any problem).
    Cells,
    /// Bitsets (problems with at most 4096 options and 1024 primary items;
    /// past that, without multiplicities, bitsets with masks up to 131,072
    /// options); other problems fall back to cells.
    Bits,
    /// Dancing cells, the item to branch on chosen by another of Knuth's
    /// rules than the fewest options.
    CellsBy(Heuristic),
}

/// How a search branches, besides on each option of the item with the
/// fewest options (MRV, the rule of [`Engine::Cells`]). Each rule takes a
/// forced move (an item with one option left) first, as SSXCC does; ties
/// go to the item declared first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heuristic {
    /// Knuth's SSXCC-WTD and SSMCC-WTD, after Boussemart, Hemery, Lecoutre
    /// and Sais's dom/wdeg: an item's weight, 1 at first, goes up by one
    /// each time a try leaves it with too few options; the item with the
    /// fewest options (Algorithm M: the least branching degree) per unit of
    /// weight is chosen.
    Weighted,
    /// Knuth's SSXCC-FRB and SSMCC-FRB, after Li, Yin and Li: each item's
    /// failure rate, 1/2 at first, follows the share of its tries that left
    /// some other item with too few options; the item with the fewest
    /// options per unit of failure rate is chosen.
    FailureRate,
    /// Knuth's SSXCC-BINARY: each node takes the first option of the item
    /// with the fewest options, or leaves it out, and the node below
    /// chooses again (Algorithms X and C; Algorithm M's tweaks branch so
    /// already, and it runs as with the fewest options).
    Binary,
}

/// What the search machines share with `Search`: the solutions one at a
/// time, each run stopping at absolute `Limits` and resumable. Private to
/// the machines: every caller outside runs an engine through
/// [`crate::Sliced`], the one public run protocol.
pub(crate) trait Solve: Send {
    /// Puts option `o` into every solution, before the first run; false
    /// when it conflicts with the options forced before it. (The CDCL solver
    /// only learns of a conflict when it runs, and then finds no solution.)
    fn force(&mut self, o: u32) -> bool;
    /// Runs until the next solution ([`Step::Solution`]), the end
    /// ([`Step::Exhausted`]), or a budget of `limits` ([`Step::Paused`]),
    /// counted on [`Self::stats`]: for the CDCL solver, its nodes are its
    /// decisions and its updates its conflicts.
    fn run(&mut self, limits: Limits) -> Step;
    /// The options of the solution just reported: in increasing order from
    /// [`crate::Search`] and [`crate::Sat`] (a machine inside `Search` may
    /// list them in any order).
    fn solution_into(&self, out: &mut Vec<u32>);
    /// The counters so far.
    fn stats(&self) -> Stats;
    /// Has every solution been reported?
    fn is_exhausted(&self) -> bool;

    /// Every solution not yet reported, each as [`Self::solution_into`]
    /// lists it.
    fn all_solutions(&mut self) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        while self.run(Limits::NONE) == Step::Solution {
            let mut s = Vec::new();
            self.solution_into(&mut s);
            out.push(s);
        }
        out
    }
}

/// A search machine over one compiled problem: Knuth's steps run in slices,
/// its position kept between calls. Each method is documented on
/// [`crate::Search`], which holds one machine and adds what is written once
/// for all of them (sorting solutions, moves, shares of the frontier,
/// fractions done).
pub(crate) trait Machine: Solve + Debug + Sync + MachineClone {
    /// Which data structure it dances on.
    fn engine(&self) -> Engine;
    fn reset(&mut self);
    fn problem(&self) -> &Arc<CompiledProblem>;
    fn exclude(&mut self, o: u32) -> bool;
    fn count(&mut self, limits: Limits, target: u64) -> Step;
    fn progress(&self) -> Vec<(u32, u32)>;
    /// The frontier's pieces, each tagged with the depth it branches at;
    /// None as soon as there would be more than `most` (each piece is a
    /// copy of the path above it: thousands of levels deep, all of them
    /// would take seconds and gigabytes).
    fn frontier(&self, most: usize) -> Option<Vec<(usize, Vec<Move>)>>;
    fn children(&mut self) -> Option<Vec<Vec<Move>>>;
    /// One of Knuth's random probes from the root: an estimate of the nodes,
    /// at most [`MOST_ESTIMATE`]; `None` when `halt` was raised on the way
    /// (a probe of a big problem walks thousands of options per level). The
    /// position and the statistics are left as they were; the updates the
    /// walk made are added to `spent`.
    fn probe(&mut self, rng: &mut Rng, halt: &AtomicBool, spent: &mut u64) -> Option<f64>;
}

/// Room for one more piece in a frontier being made within `most` pieces
/// ([`Machine::frontier`]): `None` where it is full, for the maker to give
/// up with `?` before it copies the path for that piece.
#[inline]
pub(crate) fn room<T>(pieces: &[T], most: usize) -> Option<()> {
    (pieces.len() < most).then_some(())
}

/// A copy of a boxed machine, position and all (for every machine that is
/// `Clone`).
pub(crate) trait MachineClone {
    fn boxed_clone(&self) -> Box<dyn Machine>;
}

impl<T: Machine + Clone + 'static> MachineClone for T {
    fn boxed_clone(&self) -> Box<dyn Machine> {
        Box::new(self.clone())
    }
}
