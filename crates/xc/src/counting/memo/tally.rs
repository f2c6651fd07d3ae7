//! What a memo entry holds: a count, or a node of the diagram.

use crate::core::number::Number;

/// What the memo holds for a sub-problem, and how a level adds up the
/// values of its branches: a count ([`Number`]) or a diagram node (`u32`).
pub trait Tally: Clone {
    /// The value of a sub-problem with no solution.
    fn nothing() -> Self;
    /// The value of the empty sub-problem: one solution, no more options.
    fn one() -> Self;
    /// Adds to this level's value the branch that takes `option` and leaves
    /// a sub-problem of value `below`; a diagram puts its node in `nodes`.
    fn join(&mut self, option: usize, below: &Self, nodes: &mut Vec<ZddNode>);
    /// Bytes the value holds outside the table's slot.
    fn heap_bytes(&self) -> usize;
    /// Can a sub-problem's value be the product of its parts' values (see
    /// [`Memo`]'s parts)? Counts can; a diagram would need a product of
    /// diagrams, so it is built without splitting.
    const SPLITS: bool = false;
    /// `self *= other` (for a value that `SPLITS`).
    fn times(&mut self, _other: &Self) {}
    /// Is this the value of a sub-problem with no solution?
    fn is_nothing(&self) -> bool;
}

impl Tally for Number {
    fn nothing() -> Number {
        Number::ZERO
    }
    fn one() -> Number {
        Number::Small(1)
    }
    fn join(&mut self, _option: usize, below: &Number, _nodes: &mut Vec<ZddNode>) {
        self.add(below);
    }
    const SPLITS: bool = true;
    fn times(&mut self, other: &Number) {
        self.mul(other);
    }
    fn is_nothing(&self) -> bool {
        matches!(self, Number::Small(0))
    }
    fn heap_bytes(&self) -> usize {
        match self {
            Number::Small(_) => 0,
            Number::Big(v) => 8 * v.capacity(),
        }
    }
}

/// A node of the diagram of solutions: the solutions that take `option`
/// and go on with those of node `hi`, and the solutions of node `lo`.
///
/// Node ids: 0 is the empty family (no solution), 1 the family of the empty
/// solution, and node `k` of [`MemoZdd::nodes`] has id `k + 2`. Both
/// children of a node have smaller ids, so one pass over the nodes in order
/// computes anything bottom-up (counts, weights). A level's branches become
/// a chain: the node of its last branch has as `lo` the node of the one
/// before, down to 0. Each path from a root to 1 through the `hi` edges it
/// takes is one solution, its options those of the nodes left by `hi`.
///
/// (Knuth and Nishino et al. call it a ZDD. It is reduced as far as the
/// memo shares sub-problems, but not ordered: an option may sit above or
/// below another on different paths, so it is not canonical, and two
/// diagrams of one problem are not compared node by node.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZddNode {
    pub option: u32,
    pub lo: u32,
    pub hi: u32,
}

impl Tally for u32 {
    fn nothing() -> u32 {
        0
    }
    fn one() -> u32 {
        1
    }
    fn join(&mut self, option: usize, below: &u32, nodes: &mut Vec<ZddNode>) {
        if *below != 0 {
            nodes.push(ZddNode {
                option: option as u32,
                lo: *self,
                hi: *below,
            });
            // (A diagram of 2^32 nodes would take 48 GiB: memory runs out first.)
            *self = u32::try_from(nodes.len() + 1).expect("a diagram of fewer than 2^32 nodes");
        }
    }
    fn heap_bytes(&self) -> usize {
        0
    }
    fn is_nothing(&self) -> bool {
        *self == 0
    }
}
