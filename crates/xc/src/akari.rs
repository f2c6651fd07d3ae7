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
//! Grids are row-major bytes: `.` white, `#` black, `0`-`4` numbered black.

use crate::problem::{CompiledProblem, Error};

/// What an item of the encoding stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AkariItem {
    /// A white cell (row-major index) that must be lit.
    Cell(u32),
    /// A numbered black cell.
    Number(u32),
    /// A row segment, named by its first cell.
    Row(u32),
    /// A column segment, named by its first cell.
    Column(u32),
}

/// The exact cover problem of a grid, with what its items and options mean.
#[derive(Clone, Debug)]
pub struct Akari {
    pub problem: CompiledProblem,
    /// The cell (row-major index) of each option's light.
    pub option_cell: Vec<u32>,
    /// What each item stands for, in item order (primary first).
    pub items: Vec<AkariItem>,
}

fn is_white(b: u8) -> bool {
    b == b'.'
}

fn number(b: u8) -> Option<u32> {
    (b'0'..=b'4').contains(&b).then(|| (b - b'0') as u32)
}

/// Encodes a `rows` x `cols` grid (checked by the caller: `rows * cols`
/// bytes of `.`, `#`, `0`-`4`, at least one white cell).
pub fn akari(rows: usize, cols: usize, grid: &[u8]) -> Result<Akari, Error> {
    assert_eq!(grid.len(), rows * cols, "the grid has rows * cols cells");
    const NONE: u32 = u32::MAX;
    let n = rows * cols;
    // Item numbers: white cells, then numbers > 0 (primary); then segments.
    let mut item_of = vec![NONE; n];
    let mut items = Vec::new();
    let (mut lo, mut hi) = (Vec::new(), Vec::new());
    for z in 0..n {
        if is_white(grid[z]) {
            item_of[z] = items.len() as u32;
            items.push(AkariItem::Cell(z as u32));
            lo.push(1);
            hi.push(2);
        }
    }
    for z in 0..n {
        if let Some(k) = number(grid[z]).filter(|&k| k > 0) {
            item_of[z] = items.len() as u32;
            items.push(AkariItem::Number(z as u32));
            lo.push(k);
            hi.push(k);
        }
    }
    let n_primary = items.len() as u32;
    // Segments: the item of the row and of the column segment of each white cell.
    let mut row_seg = vec![NONE; n];
    let mut col_seg = vec![NONE; n];
    for z in 0..n {
        if !is_white(grid[z]) {
            continue;
        }
        let (r, c) = (z / cols, z % cols);
        if c == 0 || !is_white(grid[z - 1]) {
            items.push(AkariItem::Row(z as u32));
        }
        row_seg[z] = if c > 0 && is_white(grid[z - 1]) {
            row_seg[z - 1]
        } else {
            items.len() as u32 - 1
        };
        if r == 0 || !is_white(grid[z - cols]) {
            items.push(AkariItem::Column(z as u32));
        }
        col_seg[z] = if r > 0 && is_white(grid[z - cols]) {
            col_seg[z - cols]
        } else {
            items.len() as u32 - 1
        };
    }
    let n_secondary = items.len() as u32 - n_primary;
    let neighbours = |z: usize| {
        let (r, c) = (z / cols, z % cols);
        [
            (r > 0).then(|| z - cols),
            (r + 1 < rows).then(|| z + cols),
            (c > 0).then(|| z - 1),
            (c + 1 < cols).then(|| z + 1),
        ]
        .into_iter()
        .flatten()
    };
    let mut option_start = vec![0u32];
    let mut option_item = Vec::new();
    let mut option_cell = Vec::new();
    for z in 0..n {
        if !is_white(grid[z]) || neighbours(z).any(|y| number(grid[y]) == Some(0)) {
            continue;
        }
        let (r, c) = (z / cols, z % cols);
        option_item.push(item_of[z]);
        // The rest of the row segment, left then right; the same in the column.
        let runs = [
            (0..c).rev().map(|x| r * cols + x).collect::<Vec<_>>(),
            (c + 1..cols).map(|x| r * cols + x).collect(),
            (0..r).rev().map(|y| y * cols + c).collect(),
            (r + 1..rows).map(|y| y * cols + c).collect(),
        ];
        for run in runs {
            for y in run {
                if !is_white(grid[y]) {
                    break;
                }
                option_item.push(item_of[y]);
            }
        }
        for y in neighbours(z) {
            if number(grid[y]).is_some_and(|k| k > 0) {
                option_item.push(item_of[y]);
            }
        }
        option_item.push(row_seg[z]);
        option_item.push(col_seg[z]);
        option_start.push(option_item.len() as u32);
        option_cell.push(z as u32);
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
    use crate::search::Search;
    use std::sync::Arc;

    fn count(text: &str) -> u64 {
        let rows: Vec<&str> = text.split_whitespace().collect();
        let grid: Vec<u8> = rows.concat().into_bytes();
        let a = akari(rows.len(), rows[0].len(), &grid).unwrap();
        Search::new(Arc::new(a.problem), None).count_all()
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
}
