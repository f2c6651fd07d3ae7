//! The clashes of an option on bitsets, item by item, for problems past the
//! square table of [`crate::core::bits`].
//!
//! The bitset search kills, with an option `o`, every option that cannot go
//! with it. Below a few thousand options that set is a row of a square table
//! (`conflict[o]`). Past them the table grows too big, but it factors: what
//! `o` kills is the union, over its items `j`, of one mask per item and
//! color, `kill(j, c)`: every user of `j` when `j` is primary or `o` leaves
//! it uncolored, else the users of `j` that give it another color than `c`.
//! A mask is kept as the words where it has bits (a letter cell of a word
//! rectangle is in two of its seven words' lists, a few dozen words of
//! 64 options), so taking an option costs the words its items reach, where
//! dancing cells hide the options there one at a time.
//!
//! When every option has one primary item, the options are numbered item by
//! item, and a word of the live set then holds the options of one primary
//! item: the options a mask kills there are taken off that item's count by
//! one `count_ones`, not one by one.

use std::collections::HashMap;

use crate::core::problem::CompiledProblem;

/// The type of a count of live options in the bitset search: signed, so
/// that the minimum of a frame vectorizes with plain SSE2; 16 bits, as no
/// primary item searched on bitsets has more than [`MAX_ITEM_OPTIONS`].
pub(crate) type Count = i16;

/// The count of a covered item: far above any real count, and it stays so,
/// since it loses at most one for each of the item's options.
pub(crate) const COVERED: Count = i16::MAX;

/// The first place in `counts` that holds `t` (`counts.len()` if none).
/// Sixteen counts at a time, each compared into one bit of a mask, which the
/// compiler turns into vector compares: in a Sudoku count the item-by-item
/// scan that `position` compiles to was a fifth of the branching choice
/// (X3). (SSE2 intrinsics for the same measured the same.)
#[inline(always)]
pub(crate) fn first_equal(counts: &[Count], t: Count) -> usize {
    let mut chunks = counts.chunks_exact(16);
    let mut base = 0;
    for chunk in &mut chunks {
        let mut mask = 0u32;
        for (j, &c) in chunk.iter().enumerate() {
            mask |= ((c == t) as u32) << j;
        }
        if mask != 0 {
            return base + mask.trailing_zeros() as usize;
        }
        base += 16;
    }
    let rest = chunks.remainder();
    base + rest.iter().position(|&c| c == t).unwrap_or(rest.len())
}

/// Does no count in `counts` lie between 2 and [`MAX_ITEM_OPTIONS`]: has
/// every uncovered item at most one live option? (A covered item's count
/// stays above [`MAX_ITEM_OPTIONS`].) Sixteen at a time, as in
/// [`first_equal`], so that the compiler makes vector compares of it.
#[inline(always)]
pub(crate) fn none_over_one(counts: &[Count]) -> bool {
    // c in 2..=MAX_ITEM_OPTIONS is one unsigned compare of c - 2.
    let over = |c: Count| (c.wrapping_sub(2) as u16) < (MAX_ITEM_OPTIONS as u16 - 1);
    let mut chunks = counts.chunks_exact(16);
    for chunk in &mut chunks {
        let mut any = false;
        for &c in chunk {
            any |= over(c);
        }
        if any {
            return false;
        }
    }
    !chunks.remainder().iter().any(|&c| over(c))
}

/// Problems with more options than this stay on dancing cells: each level of
/// the bitset search copies the live set, `n / 64` words.
pub const MAX_OPTIONS: usize = 1 << 17;

/// Primary items with more options than this stay on dancing cells: a
/// covered item's count starts at [`COVERED`] and loses one for each of its
/// options killed, and must stay above every real count.
pub const MAX_ITEM_OPTIONS: usize = (COVERED as usize) / 2;

/// Most words the masks may hold in all (16 bytes each, a word and its
/// index), so that their tables stay within 64 MB.
pub const MAX_MASK_WORDS: u64 = 1 << 22;

/// The masks of every option (see the module's text), in the bitset
/// search's internal numbering of options.
#[derive(Clone, Debug)]
pub(crate) struct Masks {
    /// Masks of option `k`: `option_mask[option_start[k]..option_start[k + 1]]`.
    option_start: Vec<u32>,
    option_mask: Vec<u32>,
    /// Mask `m`: the words `index[start[m]..start[m + 1]]` of the live set
    /// lose the bits `word[start[m]..start[m + 1]]`.
    start: Vec<u32>,
    index: Vec<u32>,
    word: Vec<u64>,
    /// Must the options mask `m` kills come off their items' counts? Not
    /// when it is a primary item's and each of its options has that item
    /// alone (the item is covered by the option that kills them).
    counted: Vec<bool>,
    /// The one primary item of every option of word `j`, when they share it
    /// and have no other (`u32::MAX` otherwise).
    word_item: Vec<u32>,
}

/// Takes the options of `dying` (word `j` of the live set, just killed) off
/// the counts of their primary items, one by one; `n` gets the updates and
/// `found` an item left with one option, if any. With `CHECK`, false as
/// soon as an item is left with none.
///
/// With `A` > 0, `prim` holds `A` entries an option, its primary items
/// then pads that name a sink past them in `counts` (`prim_start` is not
/// read; `n` gets `A` an option): the start is a product, not two loads,
/// and the loop over the items unrolls (pentominoes 6x10 counted in 0.78
/// of the time, a Sudoku in 0.9). This loop is a quarter of a Sudoku count.
#[inline(always)]
pub(crate) fn kill<const CHECK: bool, const A: usize>(
    prim: &[u32],
    prim_start: &[u32],
    counts: &mut [Count],
    j: usize,
    mut dying: u64,
    n: &mut u64,
    found: &mut u32,
) -> bool {
    while dying != 0 {
        let o = j * 64 + dying.trailing_zeros() as usize;
        dying &= dying - 1;
        // SAFETY: with A > 0, `prim` has A entries for every option (a pad
        // names the sink past the primary items' counts); else prim_start
        // has an entry past every option.
        let items = unsafe {
            if A > 0 {
                prim.get_unchecked(o * A..(o + 1) * A)
            } else {
                prim.get_unchecked(
                    *prim_start.get_unchecked(o) as usize
                        ..*prim_start.get_unchecked(o + 1) as usize,
                )
            }
        };
        *n += items.len() as u64;
        for &i in items {
            // SAFETY: item numbers in `prim` are below counts.len() (the
            // primary items, and the sink with rows).
            let c = unsafe { counts.get_unchecked_mut(i as usize) };
            let v = *c - 1;
            *c = v;
            if CHECK && v == 0 {
                return false;
            }
            // A forced move: a hint for the next choice, chosen by a mask
            // (the compiler made a branch of a plain `if`, mispredicted).
            let mask = ((v == 1) as u32).wrapping_neg();
            *found ^= (*found ^ i) & mask;
        }
    }
    true
}

/// An upper bound on the words the masks of `p` take, or `None` when some
/// primary item has more options than [`MAX_ITEM_OPTIONS`].
pub fn mask_words(p: &CompiledProblem) -> Option<u64> {
    let (n1, m) = (p.n_primary(), p.n_options());
    let w = m.div_ceil(64).max(1) as u64;
    let mut users = vec![0u64; p.n_items()];
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    for o in 0..m {
        let start = p.option_start()[o] as usize;
        for (j, &i) in p.option(o).iter().enumerate() {
            users[i as usize] += 1;
            if i as usize >= n1 {
                pairs.push((i, p.color_at(start + j)));
            }
        }
    }
    if users[..n1].iter().any(|&u| u as usize > MAX_ITEM_OPTIONS) {
        return None;
    }
    pairs.sort_unstable();
    pairs.dedup();
    // A mask of item i reaches at most min(users, w) words; i has one mask
    // per color it is given (0 for none).
    let mut total: u64 = users[..n1].iter().map(|&u| u.min(w)).sum();
    for &(i, _) in &pairs {
        total += users[i as usize].min(w);
    }
    Some(total)
}

/// Does every option of `p` have exactly one primary item?
pub fn one_primary_each(p: &CompiledProblem) -> bool {
    let n1 = p.n_primary() as u32;
    (0..p.n_options()).all(|o| p.option(o).iter().filter(|&&i| i < n1).count() == 1)
}

impl Masks {
    /// The masks of `p`, internal option `k` being the problem's option
    /// `external[k]`; `prim`/`prim_start` are the primary items of each
    /// internal option (as in [`crate::core::bits::Bits`]).
    pub fn new(p: &CompiledProblem, external: &[u32], prim: &[u32], prim_start: &[u32]) -> Masks {
        let m = p.n_options();
        let n1 = p.n_primary();
        let w = m.div_ceil(64).max(1);
        // The (item, color) pairs of option `o`, the color 0 for a primary item.
        let entries = |o: u32| {
            let start = p.option_start()[o as usize] as usize;
            p.option(o as usize).iter().enumerate().map(move |(j, &i)| {
                let color = if (i as usize) < n1 {
                    0
                } else {
                    p.color_at(start + j)
                };
                (i, color)
            })
        };
        // The users of each item with the color each gives it, by internal number.
        let mut users: Vec<Vec<(u32, u32)>> = vec![Vec::new(); p.n_items()];
        for (k, &o) in external.iter().enumerate() {
            for (i, color) in entries(o) {
                users[i as usize].push((k as u32, color));
            }
        }
        let mut masks = Masks {
            option_start: Vec::with_capacity(m + 1),
            option_mask: Vec::new(),
            start: vec![0],
            index: Vec::new(),
            word: Vec::new(),
            counted: Vec::new(),
            word_item: vec![u32::MAX; w],
        };
        // The masks of each item, one per color its options give it.
        let mut id: HashMap<(u32, u32), u32> = HashMap::new();
        let mut all = vec![0u64; w];
        let mut same = vec![0u64; w];
        for (i, list) in users.iter().enumerate() {
            if list.is_empty() {
                continue;
            }
            let mut words: Vec<u32> = list.iter().map(|&(k, _)| k / 64).collect();
            words.dedup(); // (users come in increasing order)
            for &(k, _) in list {
                all[k as usize / 64] |= 1 << (k % 64);
            }
            let lone = i < n1
                && list
                    .iter()
                    .all(|&(k, _)| prim_start[k as usize + 1] - prim_start[k as usize] == 1);
            let mut colors: Vec<u32> = list.iter().map(|&(_, c)| c).collect();
            colors.sort_unstable();
            colors.dedup();
            for &c in &colors {
                if c != 0 {
                    for &(k, kc) in list {
                        if kc == c {
                            same[k as usize / 64] |= 1 << (k % 64);
                        }
                    }
                }
                for &j in &words {
                    let bits = all[j as usize] & !same[j as usize];
                    if bits != 0 {
                        masks.index.push(j);
                        masks.word.push(bits);
                    }
                }
                masks.start.push(masks.index.len() as u32);
                masks.counted.push(!lone);
                id.insert((i as u32, c), masks.counted.len() as u32 - 1);
                if c != 0 {
                    for &(k, kc) in list {
                        if kc == c {
                            same[k as usize / 64] = 0;
                        }
                    }
                }
            }
            for &j in &words {
                all[j as usize] = 0;
            }
        }
        masks.option_start.push(0);
        for &o in external {
            for key in entries(o) {
                masks.option_mask.push(id[&key]);
            }
            masks.option_start.push(masks.option_mask.len() as u32);
        }
        // Words whose options all have the same one primary item.
        for (j, slot) in masks.word_item.iter_mut().enumerate() {
            let ks = j * 64..((j + 1) * 64).min(m);
            let mut item = None;
            for k in ks {
                let items = &prim[prim_start[k] as usize..prim_start[k + 1] as usize];
                match (items, item) {
                    ([i], None) => item = Some(*i),
                    ([i], Some(x)) if *i == x => {}
                    _ => {
                        item = None;
                        break;
                    }
                }
            }
            *slot = item.unwrap_or(u32::MAX);
        }
        masks
    }

    /// Takes internal option `k` into `(live, counts)` as
    /// [`crate::core::bits::apply`] does, mask by mask.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub fn apply<const CHECK: bool>(
        &self,
        prim: &[u32],
        prim_start: &[u32],
        live: &mut [u64],
        counts: &mut [Count],
        k: usize,
        updates: &mut u64,
        hint: &mut u32,
    ) -> bool {
        let mut found = u32::MAX;
        let mut n = 0u64;
        let (a, b) = (
            self.option_start[k] as usize,
            self.option_start[k + 1] as usize,
        );
        for &mask in &self.option_mask[a..b] {
            let mask = mask as usize;
            let (s, e) = (self.start[mask] as usize, self.start[mask + 1] as usize);
            let (index, word) = (&self.index[s..e], &self.word[s..e]);
            if !self.counted[mask] {
                for (&j, &x) in index.iter().zip(word) {
                    // SAFETY: indices are below the live set's length, w.
                    unsafe { *live.get_unchecked_mut(j as usize) &= !x };
                }
                continue;
            }
            for (&j, &x) in index.iter().zip(word) {
                let j = j as usize;
                // SAFETY: as above; word_item has w entries.
                let (l, item) =
                    unsafe { (live.get_unchecked_mut(j), *self.word_item.get_unchecked(j)) };
                let dying = *l & x;
                if dying == 0 {
                    continue;
                }
                *l &= !x;
                if item != u32::MAX {
                    // One item's options: off its count at once.
                    let d = dying.count_ones();
                    n += d as u64;
                    // SAFETY: items in word_item are primary, below counts.len().
                    let c = unsafe { counts.get_unchecked_mut(item as usize) };
                    let v = *c - d as Count;
                    *c = v;
                    if CHECK && v == 0 {
                        *updates += n;
                        *hint = found;
                        return false;
                    }
                    let m = ((v == 1) as u32).wrapping_neg();
                    found ^= (found ^ item) & m;
                    continue;
                }
                if !kill::<CHECK, 0>(prim, prim_start, counts, j, dying, &mut n, &mut found) {
                    *updates += n;
                    *hint = found;
                    return false;
                }
            }
        }
        *updates += n;
        *hint = found;
        true
    }
}
