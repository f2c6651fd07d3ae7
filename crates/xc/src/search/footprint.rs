//! The memory an engine will hold for a problem, known from the compiled
//! problem before anything is built, so that a caller can refuse (or skip)
//! an engine that would not fit instead of finding out from the allocator.
//!
//! The dancing-cells and bitset figures are counted from the layouts in
//! `cells/`, `cellsearch/`, `bitsearch.rs` and the core's `bits.rs` (keep them in step when a layout
//! changes); the CDCL figure is measured, since CaDiCaL's own tables (clauses,
//! watches, per-variable arrays) are not ours to count.
//!
//! ```
//! use xc::{footprint, CompiledProblem, Engine};
//! let p = CompiledProblem::new(3, 0, vec![1; 3], vec![1; 3],
//!     vec![0, 2, 3, 4, 6], vec![0, 1, 2, 0, 1, 2], vec![]).unwrap();
//! assert!(footprint::search_bytes(&p, Engine::Cells) > 0);
//! ```

use crate::core::bits::Bits;
use crate::core::machine::{Engine, Heuristic};
use crate::core::problem::CompiledProblem;
use crate::search::cells::{HEADER, trail_room};
use crate::search::cellsearch::pairs::mask_bytes;
use crate::search::mbits::MBits;

/// A level of dancing cells' search (`Level` in `cellsearch/`), rounded up.
const LEVEL_BYTES: u64 = 48;

/// The memory a [`crate::Search`] on `problem` holds with `engine` (the one
/// [`crate::Search::with_engine`] would take), the problem itself not counted.
pub fn search_bytes(problem: &CompiledProblem, engine: Engine) -> u64 {
    if Bits::chosen(engine, problem) {
        return bits_bytes(problem);
    }
    if MBits::chosen(engine, problem) {
        return mbits_bytes(problem);
    }
    // What a rule that learns knows of each primary item: a number (8
    // bytes) per place in `set` below the secondary items (bounded here by
    // every place), one for weights, two for failure rates.
    let learned = match engine {
        Engine::CellsBy(Heuristic::Weighted) => 8,
        Engine::CellsBy(Heuristic::FailureRate) => 16,
        _ => 0,
    };
    cells_bytes(problem)
        + learned * (problem.n_entries() as u64 + HEADER as u64 * problem.n_items() as u64)
}

/// What a problem built with names holds in the host language, per option
/// and per entry: its arrays, its labels and its compiled copy, with
/// dancing cells on top. Measured on a random `.dlx` file of 10^6 options
/// and 5 * 10^6 entries: 164 MB at the peak of reading and compiling, then
/// 372 MB for the search (89 bytes per entry or option), rounded up.
const NAMED_PER_OPTION: u64 = 100;
const NAMED_PER_ENTRY: u64 = 100;

/// The memory a problem of `options` options and `entries` entries takes
/// when a puzzle builds it with names (see `NAMED_PER_ENTRY`), to refuse a
/// board no machine holds before it is built. Saturates.
///
/// ```
/// assert_eq!(xc::footprint::named_problem_bytes(10, 40), 5_000);
/// assert_eq!(xc::footprint::named_problem_bytes(u64::MAX, 1), u64::MAX);
/// ```
pub fn named_problem_bytes(options: u64, entries: u64) -> u64 {
    NAMED_PER_OPTION
        .saturating_mul(options)
        .saturating_add(NAMED_PER_ENTRY.saturating_mul(entries))
}

/// Bytes the minimum-cost search holds per entry of the matrix (a node of
/// 24 bytes, its share of the spacers and of the item arrays), and per
/// level for each of the `k` solutions it keeps.
const MINCOST_PER_ENTRY: u64 = 40;
const MINCOST_PER_KEPT_LEVEL: u64 = 4;

/// The memory the minimum-cost search ([`crate::MinCost`]) keeping the `k`
/// best solutions holds for `problem`. Saturates.
pub fn mincost_bytes(problem: &CompiledProblem, k: u64) -> u64 {
    let (entries, options, items) = (
        problem.n_entries() as u64,
        problem.n_options() as u64,
        problem.n_items() as u64,
    );
    MINCOST_PER_ENTRY
        .saturating_mul(entries + options + items)
        .saturating_add(
            MINCOST_PER_KEPT_LEVEL
                .saturating_mul(k)
                .saturating_mul(items),
        )
}

/// Dancing cells: the cells twice (the working copy and the one kept for
/// `reset`), the trail at its full room, the levels, and the options'
/// masks where the last two levels of a count take them.
fn cells_bytes(p: &CompiledProblem) -> u64 {
    let (entries, options, items) = (
        p.n_entries() as u64,
        p.n_options() as u64,
        p.n_items() as u64,
    );
    let nodes = entries + options + 1;
    // nd (8 bytes), off (1), and clr (4) when there are colors.
    let per_node = 9 + if p.has_colors() { 4 } else { 0 };
    let cells = nodes * per_node
        + (entries + HEADER as u64 * items) * 4 // set
        + options * 4 // option_node
        + items * 8; // base, item
    // Its entries (three u32), snapshots included where they pay.
    let trail = trail_room(p) as u64 * 12;
    // A level covers at least one primary item, or one unit of its bound.
    let levels = options.min(
        p.hi()[..p.n_primary()]
            .iter()
            .map(|&h| h as u64)
            .sum::<u64>()
            + 1,
    );
    2 * cells + trail + levels * LEVEL_BYTES + mask_bytes(p)
}

/// Bitsets: the tables (a set of options per primary item and per option)
/// and, per level, the live options and the primary items' counts.
fn bits_bytes(p: &CompiledProblem) -> u64 {
    let (m, n1) = (p.n_options() as u64, p.n_primary() as u64);
    let w = m.div_ceil(64).max(1);
    let depth = n1 + 2;
    // The square conflict table, or past it the masks item by item (a word
    // and its index each, see `bitmasks`).
    let conflicts = if Bits::suits(p) {
        8 * w * m
    } else {
        16 * crate::core::bitmasks::mask_words(p).unwrap_or(0) + 8 * (p.n_entries() as u64 + m + w)
    };
    let tables = 8 * w * n1 + conflicts + 4 * (p.n_entries() as u64 + 3 * m) + 2 * n1;
    let levels = 8 * w * depth + 2 * depth * n1 + 20 * depth;
    tables + levels
}

/// Algorithm M on bitsets (`mbits.rs`): the tables (a set of options per
/// primary item and per option, the options' primary items) and the frames
/// of the deepest path the search can take, an option taken or an item
/// closed per level (frames are added as it goes deeper, rarely so many):
/// per level, the live options, the items' bounds and the level's record.
fn mbits_bytes(p: &CompiledProblem) -> u64 {
    let (m, n1) = (p.n_options() as u64, p.n_primary() as u64);
    let w = m.div_ceil(64).max(1);
    let depth = m + n1 + 2;
    let tables = 8 * w * (m + n1) + 4 * (p.n_entries() as u64 + 3 * m) + 8 * n1;
    tables + depth * (8 * w + 4 * n1 + 16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bitsets_only_where_they_suit() {
        // Multiplicities go to Algorithm M on bitsets, which counts its
        // frames for the deepest path.
        let p = CompiledProblem::new(1, 0, vec![1], vec![2], vec![0, 1, 2], vec![0, 0], vec![])
            .unwrap();
        assert_eq!(search_bytes(&p, Engine::Auto), mbits_bytes(&p));
        assert!(mbits_bytes(&p) > 4 * (8 + 4 + 16));
        // One primary item in eight options: bitsets pay.
        let q = CompiledProblem::new(
            1,
            0,
            vec![1],
            vec![1],
            (0..=8).collect(),
            vec![0; 8],
            vec![],
        )
        .unwrap();
        assert_eq!(search_bytes(&q, Engine::Auto), bits_bytes(&q));
        // Two primary items in an option each, with a colored secondary
        // item: too sparse, cells it is.
        let r = CompiledProblem::new(
            2,
            1,
            vec![1; 2],
            vec![1; 2],
            vec![0, 2, 4],
            vec![0, 2, 1, 2],
            vec![0, 1, 0, 1],
        )
        .unwrap();
        assert_eq!(
            search_bytes(&r, Engine::Auto),
            search_bytes(&r, Engine::Cells)
        );
        assert_eq!(search_bytes(&r, Engine::Bits), bits_bytes(&r));
        // As sparse without colors: bitsets.
        let s = two_singletons();
        assert_eq!(search_bytes(&s, Engine::Auto), bits_bytes(&s));
    }

    /// Two primary items, each in one option of its own.
    fn two_singletons() -> CompiledProblem {
        CompiledProblem::new(
            2,
            0,
            vec![1; 2],
            vec![1; 2],
            vec![0, 1, 2],
            vec![0, 1],
            vec![],
        )
        .unwrap()
    }

    #[test]
    fn grows_with_the_problem() {
        let small = two_singletons();
        let starts: Vec<u32> = (0..=2000).collect();
        let items: Vec<u32> = (0..2000).map(|k| k % 2).collect();
        let big =
            CompiledProblem::new(2, 0, vec![1; 2], vec![1; 2], starts, items, vec![]).unwrap();
        assert!(search_bytes(&big, Engine::Cells) > 100 * search_bytes(&small, Engine::Cells) / 2);
    }
}
