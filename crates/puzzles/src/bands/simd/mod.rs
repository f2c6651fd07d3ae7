//! The band solver's settling in vector registers: every word at once.
//!
//! The scalar settling ([`Grid::settle`]) works through the changed words
//! one at a time: a branch a word in each sweep (the most mispredicted in
//! the solver, a sixth of its time) and each word's rule as a chain of
//! table lookups. Here the 27 words sit in the lanes of a few registers
//! ([`Words`]), and each round applies the rules to all of them at once,
//! by shifts and masks in place of the tables:
//!
//! 1. the stacks (a band keeps a column only where its digit's two other
//!    bands can take the stack's two other columns), then the band's
//!    permutations (a minirow stays only on some permutation of open
//!    minirows, row r in box p(r)); a word left empty is a contradiction;
//! 2. a row left with one cell places its digit there: the cell is closed
//!    to the band's other digits (a cell two digits place, to both, and
//!    the next round finds the contradiction);
//! 3. the naked singles, by bit-sliced counts over the nine digits: a cell
//!    with none is a contradiction, one with one digit is placed (the rest
//!    of its row closed to the digit, its column in the other bands; two
//!    in a row are a contradiction).
//!
//! Rounds repeat until one changes nothing. The rules remove candidates
//! only, and each keeps every solution, so the state where nothing changes
//! is the same whatever the order of their turns: the scalar and the
//! vector settling reach the same grid (or both a contradiction), and the
//! search's tree is the same (the tests check counts, first solutions and
//! guesses against the scalar build). That is also why a solved grid is
//! only taken where a round changed nothing: a grid whose cells are all
//! placed but whose rules have not had their turn may break them.

#[cfg(target_arch = "x86_64")]
pub(super) mod avx2;
#[cfg(target_arch = "x86_64")]
pub(super) mod avx512;

use super::grid::{ALL, Grid};

/// The first bit of each minirow (bit `3 * (3 * row + box)`).
const MINIROWS: u32 = 0o111_111_111;
/// The first bits of the minirows of box 0, and of box 2.
const BOX0: u32 = 0o001_001_001;
const BOX2: u32 = 0o100_100_100;
/// The first bit of each row.
const ROWS: u32 = 1 | 1 << 9 | 1 << 18;

/// The 27 words of a grid in vector registers, each word in a lane of its
/// own, with the operations the rules need: lane by lane, and across
/// lanes for a digit's bands and a band's digits. Lanes past the words
/// are 0 in the words and stay so (a value of a whole band, such as the
/// cells left, may fill them: the words' zeros there make it harmless).
/// Every method is inlined into a function compiled with the features of
/// its implementation; the helpers here are functions, not closures, for
/// a closure was left out of line with the intrinsics in it as calls.
pub(super) trait Words: Copy {
    /// The grid's words.
    fn load(cand: &[u32; 27]) -> Self;
    /// Writes the words back.
    fn store(self, cand: &mut [u32; 27]);
    /// Every word's lane `x`.
    fn splat(x: u32) -> Self;
    /// Every word's lane its band's value.
    fn by_band(values: [u32; 3]) -> Self;
    /// The values of bands 0, 1 and 2 (of a value the same for every
    /// digit).
    fn bands(self) -> [u32; 3];
    fn and(self, other: Self) -> Self;
    fn or(self, other: Self) -> Self;
    /// `self & !other`.
    fn but(self, other: Self) -> Self;
    /// Lane by lane, `self - other` (wrapping).
    fn minus(self, other: Self) -> Self;
    /// Whether two differ in any lane.
    fn differs(self, other: Self) -> bool;
    /// Whether any bit is set.
    fn any(self) -> bool;
    /// Whether any word's lane is 0.
    fn any_empty(self) -> bool;
    /// Whether any band's lane differs from `x`.
    fn any_band_not(self, x: u32) -> bool;
    fn shr<const K: u32>(self) -> Self;
    fn shl<const K: u32>(self) -> Self;
    /// Each word's two other bands of its digit: (b + 1, b + 2) mod 3.
    fn others(self) -> (Self, Self);
    /// Over each band's nine digits: where at least one word has a bit,
    /// and at least two, in every lane of the band.
    fn count2(self) -> (Self, Self);
    /// The same, with at least three.
    fn count3(self) -> (Self, Self, Self);
}

/// Of three bit vectors, where at least one is set and where at least two.
#[inline(always)]
fn one_two<W: Words>(a: W, b: W, c: W) -> (W, W) {
    (a.or(b).or(c), a.and(b).or(c.and(a.or(b))))
}

/// For each row of each word, whether it holds at least one cell and
/// whether at least two (at the row's first bit).
#[inline(always)]
fn rows_one_two<W: Words>(x: W) -> (W, W) {
    let m = W::splat(MINIROWS);
    let (any, two) = one_two(x.and(m), x.shr::<1>().and(m), x.shr::<2>().and(m));
    let r = W::splat(ROWS);
    let (row_any, row_two) = one_two(any.and(r), any.shr::<3>().and(r), any.shr::<6>().and(r));
    let two_in_one = two.or(two.shr::<3>()).or(two.shr::<6>()).and(r);
    (row_any, row_two.or(two_in_one))
}

/// Each row's first bit spread to its nine cells.
#[inline(always)]
fn spread_rows<W: Words>(f: W) -> W {
    let f = f.or(f.shl::<1>()).or(f.shl::<2>());
    f.or(f.shl::<3>()).or(f.shl::<6>())
}

/// Within each row, box b of `right1(v)` is box b + 1 of v (mod 3).
#[inline(always)]
fn right1<W: Words>(v: W) -> W {
    v.shr::<3>()
        .and(W::splat(MINIROWS & !BOX2))
        .or(v.shl::<6>().and(W::splat(BOX2)))
}

/// Within each row, box b of `right2(v)` is box b + 2 of v (mod 3).
#[inline(always)]
fn right2<W: Words>(v: W) -> W {
    v.shr::<6>()
        .and(W::splat(BOX0))
        .or(v.shl::<3>().and(W::splat(MINIROWS & !BOX0)))
}

/// The cells of rows left with one, in words whose rows each hold at
/// least one (as the permutations leave them, or empty): each row's
/// lowest cell (subtracting 1 from each row borrows within it), kept
/// where the row has no other (the rest of the row smeared down to its
/// first bit).
#[inline(always)]
fn row_singles<W: Words>(x: W) -> W {
    let lowest = x.but(x.minus(W::splat(ROWS)));
    let rest = x.but(lowest);
    let rest = rest.or(rest.shr::<1>().and(W::splat(0o377 * ROWS)));
    let rest = rest.or(rest.shr::<2>().and(W::splat(0o177 * ROWS)));
    let rest = rest.or(rest.shr::<4>().and(W::splat(0o037 * ROWS)));
    let rest = rest.or(rest.shr::<8>().and(W::splat(ROWS)));
    lowest.but(rest)
}

/// The band's permutations: the cells of minirows that lie on some
/// permutation of open minirows (row r in box p(r)), as `MATCHING` says.
#[inline(always)]
fn matching<W: Words>(x: W) -> W {
    let m = W::splat(MINIROWS);
    let open = x.or(x.shr::<1>()).or(x.shr::<2>()).and(m);
    // Minirow (r, b) of `down1` is minirow (r + 1, b) of `open`, rows
    // taken round; of `down2`, (r + 2, b).
    let down1 = open.shr::<9>().or(open.shl::<18>()).and(m);
    let down2 = open.shr::<18>().or(open.shl::<9>()).and(m);
    // (r, b) stays when rows r + 1 and r + 2 can take boxes b + 1 and
    // b + 2, one each, either way round.
    let fits = right1(down1)
        .and(right2(down2))
        .or(right2(down1).and(right1(down2)));
    let keep = open.and(fits);
    x.and(keep.or(keep.shl::<1>()).or(keep.shl::<2>()))
}

/// The columns (9 bits) where each word has a cell.
#[inline(always)]
fn columns<W: Words>(x: W) -> W {
    x.or(x.shr::<9>()).or(x.shr::<18>()).and(W::splat(511))
}

/// The cells of each word's band in the columns `c`.
#[inline(always)]
fn spread<W: Words>(c: W) -> W {
    c.or(c.shl::<9>()).or(c.shl::<18>())
}

/// Within each stack, column c of `next(v)` is column c + 1 of v (mod 3).
#[inline(always)]
fn next<W: Words>(v: W) -> W {
    v.shr::<1>()
        .and(W::splat(0o333))
        .or(v.shl::<2>().and(W::splat(0o444)))
}

/// Within each stack, column c of `after(v)` is column c + 2 of v.
#[inline(always)]
fn after<W: Words>(v: W) -> W {
    v.shr::<2>()
        .and(W::splat(0o111))
        .or(v.shl::<1>().and(W::splat(0o666)))
}

/// The stacks: for each word's columns, the columns c its band keeps,
/// where its digit's two other bands can take the other two columns of
/// c's stack, one each (`pair` of the scalar code; each column is moved
/// within its stack before the lanes are, which gives the same).
#[inline(always)]
fn stacks<W: Words>(c: W) -> W {
    let (n1, n2) = next(c).others();
    let (a1, a2) = after(c).others();
    n1.and(a2).or(a1.and(n2))
}

/// Deduces all it can, as [`Grid::settle`] does, to the same grid; false
/// on a contradiction.
#[inline(always)]
pub(super) fn settle<W: Words>(grid: &mut Grid) -> bool {
    let mut v = W::load(&grid.cand);
    let mut unsolved = W::by_band(grid.unsolved);
    loop {
        // 1. The stacks, then the permutations.
        let cells = matching(v.and(spread(stacks(columns(v)))));
        if cells.any_empty() {
            return false;
        }
        // 2. Rows left with one cell.
        let placed = row_singles(cells);
        let (one, two) = placed.count2();
        unsolved = unsolved.but(one);
        let mut next = cells.but(one.but(placed).or(two));
        // 3. Naked singles, counted on the same words as step 2 (so that
        // the two counts run side by side; what step 2 closes is counted
        // in the next round).
        let (one, two, three) = cells.count3();
        if one.any_band_not(ALL) {
            return false;
        }
        let singles = one.but(two).and(unsolved);
        if singles.any() {
            unsolved = unsolved.but(singles);
            let mine = next.and(singles);
            let (row_any, row_two) = rows_one_two(mine);
            if row_two.any() {
                return false;
            }
            let (a, b) = columns(mine).others();
            next = next.but(spread_rows(row_any).but(mine).or(spread(a.or(b))));
        }
        if !next.differs(v) {
            next.store(&mut grid.cand);
            // Every word is settled: the scalar rules, if they take the
            // next turn, start from the words a guess changes.
            grid.seen = grid.cand;
            grid.unsolved = unsolved.bands();
            grid.pairs = two.but(three).bands();
            return true;
        }
        v = next;
    }
}

#[cfg(test)]
mod tests;
