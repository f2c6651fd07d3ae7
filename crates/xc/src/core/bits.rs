//! The bit tables of a problem with few options: its clashes as words, and
//! the moves on them. The bitset search (`search/bitsearch.rs`), the memo's
//! counts and the min-cost search on words all take these tables.
//!
//! Dancing cells spend most of their time *hiding*: every option that
//! conflicts with a chosen one leaves the set of each of its other items, one
//! swap at a time. When a problem has at most a few thousand options, the set
//! of options still available fits in a few dozen 64-bit words, and choosing
//! an option becomes `live &= !conflict[o]`, one word at a time, where
//! `conflict[o]` (computed once) holds every option that cannot go with `o`:
//! those sharing a primary item, an uncolored secondary item, or a secondary
//! item with another color. The only bookkeeping left is the number of live
//! options of each primary item, which Knuth's MRV rule needs; it is
//! decremented for each option that dies, and a count that reaches zero ends
//! the move at once (a dead end, found before the node is entered).
//!
//! The search that walks these tables is in `search/bitsearch.rs`.

use crate::core::bitmasks::{self, Masks};
pub(crate) use crate::core::bitmasks::{COVERED, Count};
use crate::core::machine::Engine;
use crate::core::problem::CompiledProblem;
use crate::core::rng::Rng;

/// Problems with more options than this use dancing cells: the conflict
/// table grows as the square of the number of options.
pub const MAX_OPTIONS: usize = 4096;
/// Problems with more primary items than this use dancing cells: every level
/// copies one count per primary item.
pub const MAX_PRIMARY: usize = 1024;

/// The tables of a problem, fixed once built.
#[derive(Clone, Debug)]
pub(crate) struct Bits {
    /// Words per set of options.
    pub w: usize,
    pub n_primary: usize,
    pub n_options: usize,
    /// `itemset[i * w..(i + 1) * w]`: the options of primary item `i`.
    pub itemset: Vec<u64>,
    /// `conflict[o * w..(o + 1) * w]`: the options incompatible with `o` (`o`
    /// included); empty when `masks` holds them instead.
    pub conflict: Vec<u64>,
    /// The clashes item by item, for problems past [`MAX_OPTIONS`] options.
    pub(crate) masks: Option<Box<Masks>>,
    /// The primary items of option `o`: `prim[prim_start[o]..prim_start[o + 1]]`.
    pub prim: Vec<u32>,
    pub prim_start: Vec<u32>,
    /// Option number in the problem of each internal option number (the
    /// internal numbering is shuffled for a random order).
    pub external: Vec<u32>,
    /// Internal number of each option of the problem.
    pub internal: Vec<u32>,
    /// Initial number of options of each primary item.
    pub counts: Vec<Count>,
    /// 0, or after [`Bits::pad_rows`] the most primary items an option has
    /// (2 to 8): then `padded[o * stride..(o + 1) * stride]` holds the
    /// primary items of option `o`, then pads `n_primary` (see [`apply`]).
    pub stride: usize,
    pub padded: Vec<u32>,
}

impl Bits {
    /// Do the square tables of `p` fit (at most [`MAX_OPTIONS`] options)?
    pub fn suits(p: &CompiledProblem) -> bool {
        !p.has_multiplicities() && p.n_options() <= MAX_OPTIONS && p.n_primary() <= MAX_PRIMARY
    }

    /// Can `p` be searched on bitsets, with the square table or with masks
    /// item by item ([`bitmasks`])?
    pub fn suits_search(p: &CompiledProblem) -> bool {
        Bits::suits(p) || Bits::suits_masks(p)
    }

    /// Too big for the square table, but not for masks.
    fn suits_masks(p: &CompiledProblem) -> bool {
        !p.has_multiplicities()
            && p.n_options() > MAX_OPTIONS
            && p.n_options() <= bitmasks::MAX_OPTIONS
            && p.n_primary() <= MAX_PRIMARY
            && bitmasks::mask_words(p).is_some_and(|x| x <= bitmasks::MAX_MASK_WORDS)
    }

    /// Should a search of `p` run on bitsets rather than dancing cells (the
    /// automatic choice)? Where they suit, unless the problem has colors and
    /// its primary items have few options each (fewer than `SPARSE_OPTIONS`
    /// on average). Then most nodes are deep in the tree, forced moves and
    /// two-way choices where few options are left, and there a node of
    /// dancing cells touches a few entries while a node of bitsets still
    /// copies and scans its whole frame and purifies by masks. Measured on
    /// the same trees: dancing cells 1.3x faster on a 12x12 slitherlink
    /// (5.3 options per primary item) and 7x on Knuth's indicator problem
    /// (2.9), both colored; bitsets 1.45-1.9x faster on 9x9 trominoes (9.5),
    /// 16x16 Sudoku (16), queens (14) and pentominoes (171). Without colors
    /// bitsets won where sparse too: his SUDOKU-DLX of a puzzle with 15
    /// givens (5.3 options an item, 348 options) 1.7x, perfect matchings of
    /// a cubic graph on 80 vertices (3) 1.5x, planted random covers (4-5)
    /// 1.1-1.4x a node, and even on 400 vertices (600 options).
    pub fn pays(p: &CompiledProblem) -> bool {
        let n1 = p.n_primary();
        let primary_entries = p
            .option_item()
            .iter()
            .filter(|&&i| (i as usize) < n1)
            .count();
        if p.n_options() > MAX_OPTIONS {
            // Past the square table: where every option has one primary
            // item and the items have many options, as in word rectangles
            // (words of 64 options of one item, counted by `count_ones`).
            // (The masks' bound, a sort of every entry, is checked last.)
            return primary_entries >= DENSE_MASK_OPTIONS * n1
                && bitmasks::one_primary_each(p)
                && Bits::suits_masks(p);
        }
        Bits::suits(p) && (!p.has_colors() || primary_entries >= SPARSE_OPTIONS * n1)
    }

    /// Does a search of `p` with `engine` dance on bitsets (else on cells)?
    pub fn chosen(engine: Engine, p: &CompiledProblem) -> bool {
        match engine {
            Engine::Cells | Engine::CellsBy(_) => false,
            Engine::Auto => Bits::pays(p),
            Engine::Bits => Bits::suits_search(p),
        }
    }
}

/// Options per primary item (on average) below which a problem with colors
/// is sparse: dancing cells search it faster than bitsets (see
/// [`Bits::pays`]).
const SPARSE_OPTIONS: usize = 7;

/// The options `0..m`, in a random order with `rng`: internal option `k` is
/// the problem's option `numbering(..)[k]`.
pub(crate) fn numbering(m: usize, rng: Option<&mut Rng>) -> Vec<u32> {
    let mut external: Vec<u32> = (0..m as u32).collect();
    if let Some(rng) = rng {
        for k in (1..m).rev() {
            let r = rng.below(k as u64 + 1) as usize;
            external.swap(k, r);
        }
    }
    external
}

/// Options per primary item (on average) from which a problem past the
/// square table is searched on bitsets with masks (see [`Bits::pays`]).
const DENSE_MASK_OPTIONS: usize = 64;

impl Bits {
    /// The tables of `p` (which must suit); with `rng`, options are numbered
    /// in a random order, so that each item tries its options in that order.
    pub fn new(p: &CompiledProblem, rng: Option<&mut Rng>) -> Bits {
        Bits::with_order(p, numbering(p.n_options(), rng))
    }

    /// The tables of `p` (which must suit), internal option `k` being the
    /// problem's option `external[k]` (a permutation).
    pub fn with_order(p: &CompiledProblem, external: Vec<u32>) -> Bits {
        Bits::build(p, external, false)
    }

    /// The tables of a bitset search of `p` (which must suit, see
    /// [`Bits::suits_search`]): the square table where it fits, else masks
    /// item by item. With masks, options that each have one primary item
    /// are numbered item by item (each item keeps the order of its own).
    pub fn for_search(p: &CompiledProblem, rng: Option<&mut Rng>) -> Bits {
        if Bits::suits(p) {
            return Bits::new(p, rng);
        }
        let mut external = numbering(p.n_options(), rng);
        if bitmasks::one_primary_each(p) {
            let n1 = p.n_primary() as u32;
            let first = |o: u32| {
                p.option(o as usize)
                    .iter()
                    .copied()
                    .find(|&i| i < n1)
                    .unwrap_or(u32::MAX)
            };
            external.sort_by_key(|&o| first(o)); // stable
        }
        Bits::build(p, external, true)
    }

    pub(crate) fn build(p: &CompiledProblem, external: Vec<u32>, masked: bool) -> Bits {
        let m = p.n_options();
        let n1 = p.n_primary();
        let w = m.div_ceil(64).max(1);
        let mut internal = vec![0u32; m];
        for (k, &o) in external.iter().enumerate() {
            internal[o as usize] = k as u32;
        }
        let mut itemset = vec![0u64; n1 * w];
        let mut counts: Vec<Count> = vec![0; n1];
        let mut prim = Vec::new();
        let mut prim_start = vec![0u32];
        // (option, color) pairs of each secondary item (for the square table).
        let mut secondary: Vec<Vec<(u32, u32)>> = vec![Vec::new(); p.n_secondary()];
        for k in 0..m {
            let o = external[k] as usize;
            let start = p.option_start()[o] as usize;
            for (j, &i) in p.option(o).iter().enumerate() {
                let i = i as usize;
                if i < n1 {
                    itemset[i * w + k / 64] |= 1 << (k % 64);
                    counts[i] += 1;
                    prim.push(i as u32);
                } else if !masked {
                    secondary[i - n1].push((k as u32, p.color_at(start + j)));
                }
            }
            prim_start.push(prim.len() as u32);
        }
        if masked {
            let masks = Masks::new(p, &external, &prim, &prim_start);
            return Bits {
                w,
                n_primary: n1,
                n_options: m,
                itemset,
                conflict: Vec::new(),
                masks: Some(Box::new(masks)),
                prim,
                prim_start,
                external,
                internal,
                counts,
                stride: 0,
                padded: Vec::new(),
            };
        }
        let mut conflict = vec![0u64; m * w];
        for k in 0..m {
            let row = &mut conflict[k * w..(k + 1) * w];
            for &i in &prim[prim_start[k] as usize..prim_start[k + 1] as usize] {
                for (r, s) in row
                    .iter_mut()
                    .zip(&itemset[i as usize * w..(i as usize + 1) * w])
                {
                    *r |= s;
                }
            }
            row[k / 64] |= 1 << (k % 64);
        }
        secondary_clashes(&mut conflict, w, &mut secondary);
        Bits {
            w,
            n_primary: n1,
            n_options: m,
            itemset,
            conflict,
            masks: None,
            prim,
            prim_start,
            external,
            internal,
            counts,
            stride: 0,
            padded: Vec::new(),
        }
    }

    /// Lays out the primary items of every option in rows of one length
    /// when the longest has 2 to 8 ([`apply`] has a loop for each) and the
    /// pads would be at most an eighth of the entries, short rows padded
    /// with `n_primary`: a sink, one more count that each frame
    /// of counts must then have (as [`Count`]'s `COVERED` less the pads at
    /// most, never 0 or 1; it is not an item). The square table only.
    pub(crate) fn pad_rows(&mut self) {
        let lens = self.prim_start.windows(2).map(|x| (x[1] - x[0]) as usize);
        let most = lens.clone().max().unwrap_or(0);
        let pads: usize = lens.map(|x| most - x).sum();
        // Rows mostly of pads cost more than the loads they save: a fillomino's
        // regions of 1 to 5 cells (43% pads) counted in 1.15x the time.
        let short = pads * 8 > self.prim.len();
        if self.masks.is_some() || !(2..=8).contains(&most) || short || pads >= COVERED as usize - 2
        {
            return;
        }
        let sink = self.n_primary as u32;
        let mut rows = Vec::with_capacity(self.n_options * most);
        for k in 0..self.n_options {
            let items = self.prim(k);
            rows.extend_from_slice(items);
            rows.extend(std::iter::repeat_n(sink, most - items.len()));
        }
        self.stride = most;
        self.padded = rows;
    }

    /// The primary items of internal option `k`.
    #[inline(always)]
    pub fn prim(&self, k: usize) -> &[u32] {
        // SAFETY: prim_start has n_options + 1 increasing entries within prim.
        unsafe {
            let a = *self.prim_start.get_unchecked(k) as usize;
            let b = *self.prim_start.get_unchecked(k + 1) as usize;
            self.prim.get_unchecked(a..b)
        }
    }
}

/// Takes option `k` into the state `(live, counts)`, in place: the options
/// that clash with it die, and each of their primary items loses one. With
/// `CHECK`, stops (returning false) as soon as an uncovered primary item has
/// no option left; `hint` gets an item whose count fell to 1, if any. With
/// rows ([`Bits::pad_rows`]), `counts` ends with the sink.
#[inline(always)]
pub(crate) fn apply<const CHECK: bool>(
    bits: &Bits,
    live: &mut [u64],
    counts: &mut [Count],
    k: usize,
    updates: &mut u64,
    hint: &mut u32,
) -> bool {
    if bits.stride == 0 {
        return apply_each::<CHECK>(bits, live, counts, k, updates, hint);
    }
    for &i in bits.prim(k) {
        counts[i as usize] = COVERED;
    }
    // Options of a few primary items (the cells of a Sudoku, the squares of
    // a polyomino's placements) walk them at a fixed stride (rows are on
    // the square table only, never with masks).
    match bits.stride {
        2 => apply_stride::<CHECK, 2>(bits, live, counts, k, updates, hint),
        3 => apply_stride::<CHECK, 3>(bits, live, counts, k, updates, hint),
        4 => apply_stride::<CHECK, 4>(bits, live, counts, k, updates, hint),
        5 => apply_stride::<CHECK, 5>(bits, live, counts, k, updates, hint),
        6 => apply_stride::<CHECK, 6>(bits, live, counts, k, updates, hint),
        7 => apply_stride::<CHECK, 7>(bits, live, counts, k, updates, hint),
        8 => apply_stride::<CHECK, 8>(bits, live, counts, k, updates, hint),
        _ => apply_rows::<CHECK, 0>(bits, live, counts, k, updates, hint),
    }
}

/// [`apply`] without rows ([`Bits::pad_rows`]): `apply` itself when there are
/// none, and the memo's, whose frames keep no sink and whose code stays
/// without the rows' loops.
#[inline(always)]
pub(crate) fn apply_each<const CHECK: bool>(
    bits: &Bits,
    live: &mut [u64],
    counts: &mut [Count],
    k: usize,
    updates: &mut u64,
    hint: &mut u32,
) -> bool {
    debug_assert_eq!(bits.stride, 0, "rows need a sink");
    for &i in bits.prim(k) {
        counts[i as usize] = COVERED;
    }
    if let Some(masks) = &bits.masks {
        return masks.apply::<CHECK>(&bits.prim, &bits.prim_start, live, counts, k, updates, hint);
    }
    apply_rows::<CHECK, 0>(bits, live, counts, k, updates, hint)
}

/// [`apply_rows`] in rows of `A`, a function of its own: inlined, the seven
/// loops made the search's own code slower (pentominoes 6x10 1.4x the time
/// of these calls).
#[inline(never)]
fn apply_stride<const CHECK: bool, const A: usize>(
    bits: &Bits,
    live: &mut [u64],
    counts: &mut [Count],
    k: usize,
    updates: &mut u64,
    hint: &mut u32,
) -> bool {
    apply_rows::<CHECK, A>(bits, live, counts, k, updates, hint)
}

/// [`apply`] on the square table, in rows of `A` primary items ([`Bits::pad_rows`];
/// `prim` as it is when `A` is 0).
#[inline(always)]
fn apply_rows<const CHECK: bool, const A: usize>(
    bits: &Bits,
    live: &mut [u64],
    counts: &mut [Count],
    k: usize,
    updates: &mut u64,
    hint: &mut u32,
) -> bool {
    let w = bits.w;
    let conflict = &bits.conflict[k * w..(k + 1) * w];
    let mut found = u32::MAX;
    let mut n = 0u64; // updates, kept in a register
    for (j, (l, &c)) in live.iter_mut().zip(conflict).enumerate() {
        let dying = *l & c;
        *l &= !c;
        if !bitmasks::kill::<CHECK, A>(
            if A > 0 { &bits.padded } else { &bits.prim },
            &bits.prim_start,
            counts,
            j,
            dying,
            &mut n,
            &mut found,
        ) {
            *updates += n;
            *hint = found;
            return false;
        }
    }
    *updates += n;
    *hint = found;
    true
}

/// Adds to each option's row of `conflict` (`w` words a row) the options it
/// clashes with on secondary items, from each item's users `(option,
/// color)`: two options that share a secondary item clash unless both give
/// it the same color.
pub(crate) fn secondary_clashes(conflict: &mut [u64], w: usize, secondary: &mut [Vec<(u32, u32)>]) {
    for users in secondary.iter_mut() {
        // Few users (at most a row's words): by pairs, fewer steps.
        if users.len() <= w {
            for &(a, ca) in users.iter() {
                for &(b, cb) in users.iter() {
                    if ca == 0 || ca != cb {
                        conflict[a as usize * w + b as usize / 64] |= 1 << (b % 64);
                    }
                }
            }
            continue;
        }
        // Many users (a letter cell of word rectangles is in a third of
        // the words): by sets, not pairs. An option clashes with every
        // user but those of its own color (all of them if it has none):
        // w words an option, where the pairs took the users' number
        // (0.13 s of building the tables of 10,000 words, twice per count).
        let mut all = vec![0u64; w];
        for &(b, _) in users.iter() {
            all[b as usize / 64] |= 1 << (b % 64);
        }
        users.sort_unstable_by_key(|&(_, c)| c);
        let mut same = vec![0u64; w];
        for group in users.chunk_by(|x, y| x.1 == y.1) {
            let color = group[0].1;
            same.iter_mut().for_each(|x| *x = 0);
            if color != 0 {
                for &(b, _) in group {
                    same[b as usize / 64] |= 1 << (b % 64);
                }
            }
            for &(a, _) in group {
                let row = &mut conflict[a as usize * w..(a as usize + 1) * w];
                for ((r, x), y) in row.iter_mut().zip(&all).zip(&same) {
                    *r |= x & !y;
                }
            }
        }
    }
}

/// The next live option of item `i` after internal option `after` (or from
/// the start when `after` is `None`).
#[inline(always)]
pub(crate) fn next_option(
    bits: &Bits,
    live: &[u64],
    i: usize,
    after: Option<usize>,
) -> Option<usize> {
    let w = bits.w;
    next_in(&bits.itemset[i * w..(i + 1) * w], live, after)
}

/// The first option after `after` (or from the start when `after` is
/// `None`) that is in both `set` and `live`.
#[inline(always)]
pub(crate) fn next_in(set: &[u64], live: &[u64], after: Option<usize>) -> Option<usize> {
    let (mut j, mut mask) = match after {
        None => (0, !0u64),
        Some(k) => (
            k / 64,
            if k % 64 == 63 {
                0
            } else {
                !0u64 << (k % 64 + 1)
            },
        ),
    };
    while j < set.len() {
        let word = set[j] & live[j] & mask;
        if word != 0 {
            return Some(j * 64 + word.trailing_zeros() as usize);
        }
        j += 1;
        mask = !0;
    }
    None
}

/// How many live options of item `i` come before internal option `k` (for the progress path).
pub(crate) fn rank(bits: &Bits, live: &[u64], i: usize, k: usize) -> u32 {
    let w = bits.w;
    let set = &bits.itemset[i * w..(i + 1) * w];
    let mut r = 0;
    for j in 0..=k / 64 {
        let mut word = set[j] & live[j];
        if j == k / 64 {
            word &= (1u64 << (k % 64)) - 1;
        }
        r += word.count_ones();
    }
    r
}
