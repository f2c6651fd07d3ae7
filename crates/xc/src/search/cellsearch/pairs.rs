//! The last two levels of a count by Algorithms X and C, counted without
//! covering anything. Where every option holds the same number P of
//! primary items ([`leaf_items`]), a node with P active primary items has
//! each option of its item complete a solution, and one with 2P is counted
//! as the pairs of options that share no item ([`CellSearch::count_pairs`]).
//! Where the items are few, each node keeps its option's items as one mask
//! ([`Masks`]), and two options share no item when their masks do not meet.

use super::*;
use crate::search::cells::HEADER;

/// The longest option [`CellSearch::count_pairs`] takes without masks
/// (items, primary and secondary): it compares each item of one option
/// with each of the other's, where a cover's work grows only with the
/// options hidden.
const PAIR_ITEMS: usize = 8;

/// The most items, primary and secondary, whose options get [`Masks`]: a
/// bit each in a `u128`.
const MASK_ITEMS: usize = 128;

/// The most nodes that get [`Masks`] (16 bytes each: 16 MB).
const MASK_NODES: usize = 1 << 20;

/// How many primary items every option holds, when that is the same number
/// for every option with any (else 0). Algorithms X and C: with that many
/// items active, every option still listed holds them all, so each option
/// of the item chosen completes a solution, and the loop counts them
/// without covering anything (the L-tromino's last three cells, the
/// queens' last row and column); with twice as many, as the pairs of
/// options that share no item (see [`CellSearch::count_pairs`]).
pub(super) fn leaf_items(p: &CompiledProblem) -> u32 {
    let n1 = p.n_primary() as u32;
    let mut each = None;
    for o in 0..p.n_options() {
        let k = p.option(o).iter().filter(|&&i| i < n1).count() as u32;
        match each {
            _ if k == 0 => {}
            None => each = Some(k),
            Some(j) if j != k => return 0,
            Some(_) => {}
        }
    }
    each.unwrap_or(0)
}

/// Each node's option as a mask of its items, one bit an item by its
/// number, for [`CellSearch::count_pairs`]: whether two options share an
/// item is then one `and`, where comparing their items one by one took
/// the L-tromino 9x9's count (the search alone) 1.06 of the time, queens
/// 14 1.02.
#[derive(Debug)]
pub(super) struct Masks {
    /// The mask of each node's option (spacers 0).
    node: Vec<u128>,
    /// Each item's bit, at the item's base in `set`.
    bit: Vec<u8>,
}

impl Masks {
    /// Can `p`'s counts by `count_pairs` take masks? Without
    /// multiplicities (Algorithm M has no `count_pairs`) or colors (where
    /// the pairs are not counted), with at most [`MASK_ITEMS`] items and
    /// [`MASK_NODES`] nodes. They take them where, besides, every option
    /// holds the same number of primary items ([`leaf_items`] not 0),
    /// which takes a pass over the options to tell.
    fn fit(p: &CompiledProblem) -> bool {
        let nodes = p.n_entries() + p.n_options() + 1;
        !p.has_multiplicities()
            && !p.has_colors()
            && p.n_items() <= MASK_ITEMS
            && nodes <= MASK_NODES
    }

    /// The masks of the options laid out in `cells`.
    fn new(cells: &Cells) -> Masks {
        let top = cells.base.iter().max().map_or(0, |&x| x as usize);
        let mut bit = vec![0u8; top + 1];
        for (k, &x) in cells.base.iter().enumerate() {
            bit[x as usize] = k as u8;
        }
        let mut node = vec![0u128; cells.nd.len()];
        for &start in &cells.option_node {
            let items = cells.option_nodes(start);
            let mask = items
                .iter()
                .fold(0u128, |m, y| m | 1u128 << bit[y.itm as usize]);
            let start = start as usize;
            node[start..start + items.len()].fill(mask);
        }
        Masks { node, bit }
    }
}

/// The bytes of the [`Masks`] of `p`, if it gets them: a mask a node and
/// a bit an entry of `set`.
pub(crate) fn mask_bytes(p: &CompiledProblem) -> u64 {
    if !Masks::fit(p) || leaf_items(p) == 0 {
        return 0;
    }
    let nodes = (p.n_entries() + p.n_options() + 1) as u64;
    let set = (p.n_entries() + HEADER * p.n_items()) as u64;
    16 * nodes + set
}

/// `(leaf, pairs_at, masks)` of a search of `p` over `cells`: how many
/// primary items every option holds (0 for Algorithm M, or if they
/// differ), how many are active where a branch is counted by
/// `count_pairs` (twice as many, where it can; else 0), and the masks it
/// takes, if they pay.
pub(super) fn last_levels(p: &CompiledProblem, cells: &Cells) -> (u32, u32, Option<Arc<Masks>>) {
    if p.has_multiplicities() {
        return (0, 0, None);
    }
    let leaf = leaf_items(p);
    let masks = (leaf > 0 && Masks::fit(p)).then(|| Arc::new(Masks::new(cells)));
    // Without masks, the pairs are compared item by item, up to PAIR_ITEMS.
    let short = || (0..p.n_options()).all(|o| p.option(o).len() <= PAIR_ITEMS);
    let pairs_at = if masks.is_some() || short() {
        2 * leaf
    } else {
        0
    };
    (leaf, pairs_at, masks)
}

impl CellSearch {
    /// The solutions below a node where the active primary items are those
    /// of two options (`pairs_at`), without colors: each option `o` of item
    /// `x`, paired with each option left of the active item outside `o`
    /// with the fewest options that shares no item with `o`. Every solution
    /// below is one such pair (`o` the option that covers `x`, the other
    /// the rest), and every such pair is one, since all the options listed
    /// are compatible with the choices made. No cover, commit or node
    /// below: the L-tromino's last six cells, the queens' last two rows and
    /// columns.
    pub(super) fn count_pairs(&self, x: u32, c: &mut Counters) -> u64 {
        if let Some(masks) = &self.masks {
            return self.count_pairs_masked(x, masks, c);
        }
        let cells = &self.cells;
        let mut total = 0u64;
        for k in x..x + cells.size(x) {
            let own = cells.option_nodes(at!(cells.set, k));
            let holds = |y: i32| own.iter().any(|node| node.itm == y);
            let (r, size) = self.fewest_outside(|y| holds(y as i32));
            for j in r..r + size {
                let other = cells.option_nodes(at!(cells.set, j));
                total += !other.iter().any(|node| holds(node.itm)) as u64;
            }
            let w = own.len();
            c.mems += (w + 2 * cells.active as usize + 2 * size as usize * w) as u64;
        }
        total
    }

    /// [`Self::count_pairs`] by the options' [`Masks`].
    fn count_pairs_masked(&self, x: u32, masks: &Masks, c: &mut Counters) -> u64 {
        let cells = &self.cells;
        let items = &cells.item[..cells.active as usize];
        let mut total = 0u64;
        for k in x..x + cells.size(x) {
            let own = at!(masks.node, at!(cells.set, k));
            let (r, size) = self.fewest_outside(|y| own >> at!(masks.bit, y) & 1 != 0);
            for j in r..r + size {
                total += (at!(masks.node, at!(cells.set, j)) & own == 0) as u64;
            }
            c.mems += (2 + 3 * items.len() + 2 * size as usize) as u64;
        }
        total
    }

    /// The active primary item with the fewest options of those `o` does
    /// not hold (`holds`), as `(item, size)`; ties to the smaller base.
    #[inline(always)]
    fn fewest_outside(&self, holds: impl Fn(u32) -> bool) -> (u32, u32) {
        let cells = &self.cells;
        let mut least = u64::MAX;
        for &y in &cells.item[..cells.active as usize] {
            if !holds(y) {
                least = least.min((cells.size(y) as u64) << 32 | y as u64);
            }
        }
        (least as u32, (least >> 32) as u32)
    }
}
