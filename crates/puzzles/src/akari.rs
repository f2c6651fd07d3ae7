//! Akari (Light Up, 美術館) as exact cover with multiplicities.
//!
//! One option per white cell, "a light here". A light shines along its row
//! and its column until a black cell, so the white cells fall into maximal
//! row segments and column segments, and a cell sees exactly the cells of
//! its two segments. The items:
//!
//! - each white cell, primary with bounds 1:2: lit by the light of its row
//!   segment, of its column segment, or both;
//! - each numbered black cell k > 0, primary with bounds k:k: its k lights;
//! - each segment, secondary: at most one light (lights never see each other).
//!
//! The option of cell c holds every cell of c's two segments (c once), the
//! two segments, and the numbers next to c. A 0 forbids lights next to it,
//! so those cells get no option instead of an item.
//!
//! That makes a segment of k cells cost k^2 entries: a row of 100,000 white
//! cells would take 10^10. So a segment longer than `LONG` is encoded
//! differently, in space linear in its length, with the same solutions. Its
//! lights list only the segment's item, now primary and covered exactly once,
//! by one of its lights or by an extra option "dark" (no light here); a
//! second primary item, also covered once, is shared by that "dark" option
//! and a "lit" option that holds every cell of the segment. So "lit" is
//! taken exactly when a light is, and it lights the whole segment in one
//! option. Neither extra option places a light (`option_cell` is
//! `NO_CELL`); each solution of the puzzle is one solution of the encoding,
//! so counts are exact. Boards with short segments only (all human-made
//! ones) get the plain encoding, unchanged.
//!
//! Grids are row-major cells ([`Cell`]); reading text is the caller's job.

use xc::{CompiledProblem, Error};

/// A cell of a grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    White,
    Black,
    /// A black cell with a number 0 to 4.
    Number(u8),
}

impl Cell {
    /// The cell of a grid written in the usual text form: `.` white, `#`
    /// black, `0`-`4` numbered; None for any other byte.
    pub fn from_byte(b: u8) -> Option<Cell> {
        match b {
            b'.' => Some(Cell::White),
            b'#' => Some(Cell::Black),
            b'0'..=b'4' => Some(Cell::Number(b - b'0')),
            _ => None,
        }
    }

    /// The cell's byte in the usual text form (the inverse of [`Cell::from_byte`]).
    pub fn to_byte(self) -> u8 {
        match self {
            Cell::White => b'.',
            Cell::Black => b'#',
            Cell::Number(k) => b'0' + k,
        }
    }
}

/// What an item of the encoding stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AkariItem {
    /// A white cell (row-major index) that must be lit.
    Cell(u32),
    /// A numbered black cell.
    Number(u32),
    /// A row segment, named by its first cell (primary when long).
    Row(u32),
    /// A column segment, named by its first cell (primary when long).
    Column(u32),
    /// Of a long row segment: covered by its "lit" or its "dark" option.
    RowLit(u32),
    /// Of a long column segment: the same.
    ColumnLit(u32),
}

/// The `option_cell` of an option that places no light ("lit", "dark").
pub const NO_CELL: u32 = u32::MAX;

/// Segments longer than this are encoded in linear space (see the module):
/// the plain encoding costs a segment of k cells k^2 entries.
pub const LONG: usize = 64;

/// The exact cover problem of a grid, with what its items and options mean.
#[derive(Clone, Debug)]
pub struct Akari {
    pub problem: CompiledProblem,
    /// The cell (row-major index) of each option's light, or `NO_CELL`.
    pub option_cell: Vec<u32>,
    /// What each item stands for, in item order (primary first).
    pub items: Vec<AkariItem>,
}

/// A maximal run of white cells in a row or a column.
struct Segment {
    first: usize,
    /// From one cell to the next, in row-major order: 1 or cols.
    step: usize,
    len: usize,
    horizontal: bool,
}

impl Segment {
    fn cells(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.len).map(move |k| self.first + k * self.step)
    }
}

/// The row segments, then the column segments, each in row-major order of
/// its first cell.
fn segments(rows: usize, cols: usize, grid: &[Cell]) -> Vec<Segment> {
    let white = |z: usize| grid[z] == Cell::White;
    let mut out = Vec::new();
    for horizontal in [true, false] {
        for z in 0..rows * cols {
            let (r, c) = (z / cols, z % cols);
            let starts = if horizontal {
                c == 0 || !white(z - 1)
            } else {
                r == 0 || !white(z - cols)
            };
            if !white(z) || !starts {
                continue;
            }
            let (step, room) = if horizontal {
                (1, cols - c)
            } else {
                (cols, rows - r)
            };
            let len = (0..room).take_while(|&k| white(z + k * step)).count();
            out.push(Segment {
                first: z,
                step,
                len,
                horizontal,
            });
        }
    }
    out
}

/// The cells next to z (up, down, left, right) on the board.
fn neighbours(rows: usize, cols: usize, z: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (z / cols, z % cols);
    [
        (r > 0).then(|| z - cols),
        (r + 1 < rows).then(|| z + cols),
        (c > 0).then(|| z - 1),
        (c + 1 < cols).then(|| z + 1),
    ]
    .into_iter()
    .flatten()
}

/// Bytes the encoding of a grid and a search on it hold per entry: the
/// compiled problem, dancing cells' two copies and their trail (measured on
/// boards up to 1000 x 1000).
pub const BYTES_PER_ENTRY: u64 = 48;

/// About what the encoding of a `rows` x `cols` grid and a search on it will
/// hold, in bytes, known before it is built (so that a grid too big is
/// refused first): a segment of k cells costs k^2 entries up to `LONG`
/// (each of its cells' options lists the whole segment), 3k past it (the
/// linear encoding), and each white cell a few more (its numbers, its
/// segments' items).
pub fn encoding_bytes(rows: usize, cols: usize, grid: &[Cell]) -> u64 {
    if grid.len() != rows.saturating_mul(cols) {
        return u64::MAX;
    }
    // The runs of white cells counted as they are scanned, the rows (cell
    // a * cols + b), then the columns (cell b * cols + a): no segment is
    // built, since this is asked of every grid before its encoding.
    let cost = |k: u64| if k as usize <= LONG { k * k } else { 3 * k };
    let mut entries = 0u64;
    for (outer, inner, step_a, step_b) in [(rows, cols, cols, 1), (cols, rows, 1, cols)] {
        for a in 0..outer {
            let mut run = 0u64;
            for b in 0..inner {
                if grid[a * step_a + b * step_b] == Cell::White {
                    run += 1;
                } else {
                    entries += cost(run);
                    run = 0;
                }
            }
            entries += cost(run);
        }
    }
    let whites = grid.iter().filter(|&&c| c == Cell::White).count() as u64;
    BYTES_PER_ENTRY.saturating_mul(entries + 8 * whites)
}

/// Encodes a `rows` x `cols` grid (at least one white cell), segments
/// longer than `LONG` in linear space.
pub fn akari(rows: usize, cols: usize, grid: &[Cell]) -> Result<Akari, Error> {
    akari_with(rows, cols, grid, LONG)
}

/// Encodes a grid, segments longer than `long` in linear space (see the
/// module); `usize::MAX` gives the plain encoding everywhere.
pub fn akari_with(rows: usize, cols: usize, grid: &[Cell], long: usize) -> Result<Akari, Error> {
    if grid.len() != rows.saturating_mul(cols) || grid.len() > u32::MAX as usize / 2 {
        return Err(Error::TooLarge);
    }
    const NONE: u32 = NO_CELL;
    let n = rows * cols;
    let white = |z: usize| grid[z] == Cell::White;
    let number = |z: usize| match grid[z] {
        Cell::Number(k) => Some(k as u32),
        _ => None,
    };
    let segs = segments(rows, cols, grid);
    // Primary items: white cells (1:2), numbers k > 0 (k:k), then each long
    // segment's two items (1:1).
    let mut item_of = vec![NONE; n];
    let mut items = Vec::new();
    let (mut lo, mut hi) = (Vec::new(), Vec::new());
    for z in (0..n).filter(|&z| white(z)) {
        item_of[z] = items.len() as u32;
        items.push(AkariItem::Cell(z as u32));
        lo.push(1);
        hi.push(2);
    }
    for (z, slot) in item_of.iter_mut().enumerate() {
        if let Some(k) = number(z).filter(|&k| k > 0) {
            *slot = items.len() as u32;
            items.push(AkariItem::Number(z as u32));
            lo.push(k);
            hi.push(k);
        }
    }
    // seg_item[s]: the item of segment s; lit_item[s]: its second item if long.
    let mut seg_item = vec![NONE; segs.len()];
    let mut lit_item = vec![NONE; segs.len()];
    for (s, seg) in segs.iter().enumerate().filter(|(_, seg)| seg.len > long) {
        let z = seg.first as u32;
        seg_item[s] = items.len() as u32;
        lit_item[s] = seg_item[s] + 1;
        if seg.horizontal {
            items.extend([AkariItem::Row(z), AkariItem::RowLit(z)]);
        } else {
            items.extend([AkariItem::Column(z), AkariItem::ColumnLit(z)]);
        }
        lo.extend([1, 1]);
        hi.extend([1, 1]);
    }
    let n_primary = items.len() as u32;
    // Secondary items: the short segments, in the order of their first
    // cells, a row's before a column's (the order the search has been tuned on).
    let mut short: Vec<usize> = (0..segs.len()).filter(|&s| segs[s].len <= long).collect();
    short.sort_by_key(|&s| (segs[s].first, !segs[s].horizontal));
    for s in short {
        let seg = &segs[s];
        seg_item[s] = items.len() as u32;
        let z = seg.first as u32;
        items.push(if seg.horizontal {
            AkariItem::Row(z)
        } else {
            AkariItem::Column(z)
        });
    }
    let n_secondary = items.len() as u32 - n_primary;
    // The segments of each white cell (indices into `segs`).
    let (mut row_of, mut col_of) = (vec![NONE; n], vec![NONE; n]);
    for (s, seg) in segs.iter().enumerate() {
        let of = if seg.horizontal {
            &mut row_of
        } else {
            &mut col_of
        };
        for z in seg.cells() {
            of[z] = s as u32;
        }
    }
    let mut option_start = vec![0u32];
    let mut option_item = Vec::new();
    let mut option_cell = Vec::new();
    for z in 0..n {
        if !white(z) || neighbours(rows, cols, z).any(|y| number(y) == Some(0)) {
            continue;
        }
        let (rs, cs) = (row_of[z] as usize, col_of[z] as usize);
        // The cells this light shines on (itself, then leftward, rightward,
        // upward, downward) where its segment is short; the cells of a long
        // segment are lit by its "lit" option instead.
        let (row_short, col_short) = (segs[rs].len <= long, segs[cs].len <= long);
        if row_short || col_short {
            option_item.push(item_of[z]);
        }
        let (r, c) = (z / cols, z % cols);
        let mut shine = |cells: &mut dyn Iterator<Item = usize>| {
            for y in cells.take_while(|&y| white(y)) {
                option_item.push(item_of[y]);
            }
        };
        if row_short {
            shine(&mut (0..c).rev().map(|x| r * cols + x));
            shine(&mut (c + 1..cols).map(|x| r * cols + x));
        }
        if col_short {
            shine(&mut (0..r).rev().map(|y| y * cols + c));
            shine(&mut (r + 1..rows).map(|y| y * cols + c));
        }
        for y in neighbours(rows, cols, z) {
            if number(y).is_some_and(|k| k > 0) {
                option_item.push(item_of[y]);
            }
        }
        option_item.push(seg_item[rs]);
        option_item.push(seg_item[cs]);
        option_start.push(option_item.len() as u32);
        option_cell.push(z as u32);
    }
    for (s, seg) in segs.iter().enumerate().filter(|(_, seg)| seg.len > long) {
        // "lit": the whole segment is lit by its one light.
        option_item.push(lit_item[s]);
        option_item.extend(seg.cells().map(|y| item_of[y]));
        option_start.push(option_item.len() as u32);
        option_cell.push(NO_CELL);
        // "dark": no light in the segment.
        option_item.extend([seg_item[s], lit_item[s]]);
        option_start.push(option_item.len() as u32);
        option_cell.push(NO_CELL);
    }
    let problem = CompiledProblem::new(
        n_primary,
        n_secondary,
        lo,
        hi,
        option_start,
        option_item,
        vec![],
    )?;
    Ok(Akari {
        problem,
        option_cell,
        items,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use xc::Search;

    fn grid(text: &str) -> (usize, usize, Vec<Cell>) {
        let rows: Vec<&str> = text.split_whitespace().collect();
        let cells = rows
            .concat()
            .bytes()
            .map(|b| Cell::from_byte(b).unwrap())
            .collect();
        (rows.len(), rows[0].len(), cells)
    }

    #[test]
    fn encoding_bytes_counts_each_segment() {
        // Each segment of k cells: k^2 entries up to LONG, 3k past it; and 8 a white cell.
        let long = ".".repeat(LONG + 6);
        for text in [".1.\n...\n#..", "..#..\n.#2#.\n.....", long.as_str()] {
            let (rows, cols, cells) = grid(text);
            let by_segment: u64 = segments(rows, cols, &cells)
                .iter()
                .map(|s| {
                    if s.len <= LONG {
                        (s.len * s.len) as u64
                    } else {
                        3 * s.len as u64
                    }
                })
                .sum();
            let whites = cells.iter().filter(|&&c| c == Cell::White).count() as u64;
            assert_eq!(
                encoding_bytes(rows, cols, &cells),
                BYTES_PER_ENTRY * (by_segment + 8 * whites),
                "{text}"
            );
        }
    }

    fn count_with(text: &str, long: usize) -> u64 {
        let (rows, cols, cells) = grid(text);
        let a = akari_with(rows, cols, &cells, long).unwrap();
        Search::new(Arc::new(a.problem), None).count_all()
    }

    fn count(text: &str) -> u64 {
        count_with(text, usize::MAX)
    }

    #[test]
    fn small_grids() {
        // One cell: a light on it. Two cells in a row: either one.
        assert_eq!(count("."), 1);
        assert_eq!(count(".."), 2);
        // A 2 between two cells forces both; a 0 forbids both, leaving them dark.
        assert_eq!(count(".2."), 1);
        assert_eq!(count(".0."), 0);
        // A 3 with two neighbours cannot be satisfied.
        assert_eq!(count(".3."), 0);
        // 2x2 white: two lights on a diagonal, either one.
        assert_eq!(count(".. .."), 2);
    }

    #[test]
    fn long_segments_keep_the_solutions() {
        // Every segment long (long = 0), some, or none: the same counts.
        let mut rng = xc::Rng::new(7);
        for _ in 0..400 {
            let (rows, cols) = (1 + rng.below(5) as usize, 1 + rng.below(5) as usize);
            let mut text = String::new();
            for _ in 0..rows {
                for _ in 0..cols {
                    text.push(b".......#01234"[rng.below(13) as usize] as char);
                }
                text.push(' ');
            }
            if !text.contains('.') {
                continue;
            }
            let plain = count(&text);
            for long in 0..3 {
                assert_eq!(count_with(&text, long), plain, "{text}, long = {long}");
            }
        }
    }

    #[test]
    fn a_long_row_costs_its_length() {
        // One row of 100,000 white cells: any one light solves it.
        let cells = vec![Cell::White; 100_000];
        let a = akari(1, 100_000, &cells).unwrap();
        assert!(a.problem.n_entries() < 1_000_000);
        let lights = a.option_cell.iter().filter(|&&z| z != NO_CELL).count();
        assert_eq!(lights, 100_000);
        let mut s = Search::new(Arc::new(a.problem), None);
        assert!(
            s.count_in(xc::Slice::ALL, 3)
                .ready()
                .is_some_and(|n| n >= 3)
        );
        assert_eq!(s.stats().solutions, 3);
    }
}
