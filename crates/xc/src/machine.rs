//! What the search machines share: the steps and budgets of a slice, the
//! moves of a piece of the tree, and [`Machine`], the interface
//! [`crate::Search`] drives. (Each machine keeps its own position in Knuth's
//! steps: its own state type.)
//!
//! Two machines implement it: dancing cells (`cellsearch.rs`, Algorithms X,
//! C and M on Knuth's sparse sets) and bitsets (`bits.rs`, Algorithm X on
//! words). The CDCL engine (`sat.rs`) is not one: it has no tree to pause,
//! split or count, only solutions one by one (see `Sat`).

use std::fmt::Debug;
use std::sync::Arc;

use crate::problem::CompiledProblem;
use crate::rng::Rng;
use crate::stats::Stats;

/// What a slice of search ended with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A solution is ready in [`crate::Search::solution`].
    Solution,
    /// A budget of [`Limits`] was reached (or, when counting, the target count);
    /// calling again continues where it stopped.
    Paused,
    /// The whole tree has been explored.
    Exhausted,
}

/// Absolute values of the counters at which a slice pauses.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Pause before entering a node once `stats().nodes` has reached this.
    pub nodes: u64,
    /// Pause before entering a node once `stats().updates` has reached this.
    pub updates: u64,
}

impl Limits {
    /// No limit at all.
    pub const NONE: Limits = Limits {
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

/// Which data structure to dance on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Bitsets when the problem suits them, dancing cells otherwise.
    Auto,
    /// Dancing cells (any problem).
    Cells,
    /// Bitsets (problems without multiplicities, with at most
    /// 4096 options and 1024 primary items); other problems fall back to cells.
    Bits,
}

/// A search machine over one compiled problem: Knuth's steps run in slices,
/// its position kept between calls. Each method is documented on
/// [`crate::Search`], which holds one machine and adds what is written once
/// for all of them (sorting solutions, moves, shares of the frontier,
/// fractions done).
pub(crate) trait Machine: Debug + Send + Sync + MachineClone {
    /// Which data structure it dances on.
    fn engine(&self) -> Engine;
    fn reset(&mut self);
    fn problem(&self) -> &Arc<CompiledProblem>;
    fn stats(&self) -> Stats;
    fn is_exhausted(&self) -> bool;
    /// The options of the solution just reported, in any order.
    fn solution_into(&self, out: &mut Vec<u32>);
    fn force(&mut self, o: u32) -> bool;
    fn exclude(&mut self, o: u32) -> bool;
    fn run(&mut self, limits: Limits) -> Step;
    fn count(&mut self, limits: Limits, target: u64) -> Step;
    fn progress(&self) -> Vec<(u32, u32)>;
    /// The frontier's pieces, each tagged with the depth it branches at.
    fn frontier(&self) -> Vec<(usize, Vec<Move>)>;
    fn children(&mut self) -> Option<Vec<Vec<Move>>>;
    /// One of Knuth's random probes from the root: an estimate of the nodes.
    fn probe(&mut self, rng: &mut Rng) -> f64;
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
