//! A 9 x 9 Sudoku seen in an exact cover matrix, whatever its items and
//! options are called and in whatever order they come: the puzzle whose
//! matrix it is, for the band solver to count.
//!
//! A Sudoku's matrix (Knuth's SUDOKU-DLX, and every generator that writes
//! the same problem) has four kinds of items, a cell `p(r,c)`, a row's value
//! `r(r,v)`, a column's `c(c,v)` and a box's `b(b,v)`, and an option a
//! candidate `(r,c,v)` holding one of each; the givens' items and the
//! candidates they rule out are left out. The kinds are read from the
//! structure alone:
//!
//! 1. two options share two items only as a line and a box of one digit
//!    (a row or column and a box), never a cell; an item in such a pair is
//!    no cell, nor is one whose options hold one digit (as far as the
//!    items known not to be cells join the digits), and an option's one
//!    item left is its cell;
//! 2. in such a pair one item is the box's: boxes and lines follow from the
//!    pairs, option by option; an item still open in no pair is a line if
//!    its cells lie on one of the lines found so far, a box if in one box;
//!    what is still open is tried both ways (a few ways at most);
//! 3. the items of an option other than its cell hold one digit; the boxes
//!    of a cell's candidates are one box;
//! 4. an option's two line items are across (a row and a column); two line
//!    items of different digits that meet in two cells lie on one line (a
//!    row and a column meet in one cell), and the line items of a cell's
//!    candidates on its side lie on one line: lines, and their two sides;
//! 5. rows that share a box are in one band, columns in one stack.
//!
//! Digits, rows within a band, bands, and so on are numbered as they come:
//! every Sudoku so renumbered has as many solutions. The givens are what the
//! missing items say (a small exact cover of their own). Nothing above is
//! trusted: the puzzle found is accepted only if its matrix, made again
//! from it, is the matrix read, item for item and option for option.
//!
//! The matrix is read as given, else with the options forced at the start
//! taken as givens (a given's cell kept with its one candidate; a digit
//! whose candidates fall apart, where a part is one candidate), else with
//! every forced option taken: as many solutions each time. Any other
//! matrix, or one too thin to read (few candidates left, rows that share
//! no box), gives `None`, and the count goes to the general engines.

use xc::CompiledProblem;

use kinds::{CELLS, Kind, N, as_sorted, cells_of, settle, tried};
use layout::{Layout, by_place, layout};

mod kinds;
mod layout;

/// The puzzle (81 values, `0` a blank, row by row) whose Sudoku matrix `p`
/// is, up to the names and orders of its items and options, with the
/// options forced by an item of one option taken as givens (as many
/// solutions); `None` if it is not one, or if its structure is too thin to
/// read.
///
/// ```
/// use puzzles::bands::matrix::{puzzle_of, sudoku_matrix};
/// // The first 15 givens of a 17-clue puzzle.
/// let line = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...96........";
/// let cells: Vec<u8> = line.bytes().map(|b| if b == b'.' { 0 } else { b - b'0' }).collect();
/// let found = puzzle_of(&sudoku_matrix(&cells)).expect("a Sudoku's matrix");
/// // The same givens, up to a renumbering of rows, columns and digits:
/// assert_eq!(found.iter().filter(|&&v| v != 0).count(), 15);
/// ```
pub fn puzzle_of(p: &CompiledProblem) -> Option<[u8; CELLS]> {
    let n = p.n_primary();
    let m = p.n_options();
    if p.n_secondary() != 0
        || p.has_colors()
        || p.has_multiplicities()
        || n > 4 * CELLS
        || m > CELLS * N
    {
        return None;
    }
    let mut options: Vec<[usize; 4]> = Vec::with_capacity(m);
    for o in 0..m {
        let items: [u32; 4] = p.option(o).try_into().ok()?;
        let items = items.map(|x| x as usize);
        if (0..4).any(|a| (a + 1..4).any(|b| items[a] == items[b])) {
            return None;
        }
        options.push(items);
    }
    // As given; else with the options forced at the start taken (a given's
    // cell kept with its one option; a digit whose candidates fall apart,
    // a part of one candidate); else with every forced option taken, one
    // after another (each round thins what is left to read).
    if let Some(grid) = read_matrix(&options, n) {
        return Some(grid);
    }
    for rounds in [1, usize::MAX] {
        let (taken, left) = forced_taken(options.clone(), n, rounds)?;
        if let Some(grid) = read_matrix(&taken, left) {
            return Some(grid);
        }
    }
    None
}

/// [`puzzle_of`] on the options as 4 items each, of `n` items.
fn read_matrix(options: &[[usize; 4]], n: usize) -> Option<[u8; CELLS]> {
    if n == 0 || !n.is_multiple_of(4) {
        return None;
    }
    let blanks = n / 4;
    if options.len() < blanks || options.len() > blanks * N {
        return None;
    }
    // How many options hold both of two items.
    let mut together = vec![0u8; n * n];
    for o in options {
        for &a in o {
            for &b in o {
                if a != b {
                    together[a * n + b] = together[a * n + b].saturating_add(1);
                }
            }
        }
    }
    let cell = cells_of(options, &together, n)?;
    if cell.iter().filter(|&&c| c).count() != blanks {
        return None;
    }
    let mut kind: Vec<Kind> = cell
        .iter()
        .map(|&c| if c { Kind::Cell } else { Kind::Unknown })
        .collect();
    // The three items of each option beside its cell.
    let rest: Vec<[usize; 3]> = options
        .iter()
        .map(|o| {
            let mut r = [0usize; 3];
            for (slot, &x) in r.iter_mut().zip(o.iter().filter(|&&x| !cell[x])) {
                *slot = x;
            }
            r
        })
        .collect();
    if !settle(&mut kind, &rest, &together, n) {
        return None;
    }
    if kind.contains(&Kind::Unknown) {
        by_place(options, &mut kind, &together, n);
    }
    let mut leaves = 0;
    tried(kind, &rest, &together, n, &mut leaves, &|kinds| {
        read(options, kinds, n)
    })
}

/// The puzzle read with the items of the `kinds` given (steps 3 to 5, the
/// givens, and the check of the whole).
fn read(options: &[[usize; 4]], kinds: &[Kind], n: usize) -> Option<[u8; CELLS]> {
    // Each option as (cell, line, line, box).
    let sorted: Vec<[usize; 4]> = options
        .iter()
        .map(|o| as_sorted(o, kinds))
        .collect::<Option<_>>()?;
    let Layout {
        digit,
        box_of,
        side,
        line_of,
    } = layout(&sorted, n)?;
    // Each blank cell's place.
    let mut place = vec![usize::MAX; n];
    for o in &sorted {
        let (a, b) = if side[o[1]] == 0 {
            (o[1], o[2])
        } else {
            (o[2], o[1])
        };
        let (r, c) = (line_of[a] as usize, line_of[b] as usize);
        let here = r * N + c;
        if place[o[0]] != usize::MAX && place[o[0]] != here {
            return None;
        }
        place[o[0]] = here;
        if box_of[o[3]] as usize != (r / 3) * 3 + c / 3 {
            return None;
        }
    }
    // The digits: each part of a digit's items (a digit whose candidates
    // fall apart has two) takes one of nine, parts that meet in a cell, a
    // line or a box different ones; a few ways are tried.
    let parts = digit.iter().flatten().map(|&d| d as usize + 1).max()?;
    let mut meet: Vec<u32> = vec![0; n];
    let mut units = [0u32; 27];
    for o in &sorted {
        let d = digit[o[1]]?;
        meet[o[0]] |= 1 << d;
        units[side[o[1]] as usize * N + line_of[o[1]] as usize] |= 1 << d;
        units[side[o[2]] as usize * N + line_of[o[2]] as usize] |= 1 << d;
        units[2 * N + box_of[o[3]] as usize] |= 1 << d;
    }
    let mut apart = vec![0u32; parts];
    for &m in meet.iter().chain(&units) {
        for (d, a) in apart.iter_mut().enumerate() {
            if m & (1 << d) != 0 {
                *a |= m & !(1 << d);
            }
        }
    }
    // The largest parts first.
    let mut order: Vec<usize> = (0..parts).collect();
    let size = |d: usize| digit.iter().filter(|&&e| e == Some(d as u8)).count();
    order.sort_by_key(|&d| std::cmp::Reverse(size(d)));
    let mut color = vec![u8::MAX; parts];
    let mut tries = 0;
    let attempt = |color: &[u8]| -> Option<[u8; CELLS]> {
        // The constraint each item stands for: 0..81 a cell, then 81 each
        // for rows', columns' and boxes' digits.
        let mut constraint = vec![0usize; n];
        let mut present = [false; 4 * CELLS];
        for x in 0..n {
            let k = match kinds[x] {
                Kind::Cell => place[x],
                Kind::Line => {
                    (1 + side[x] as usize) * CELLS
                        + line_of[x] as usize * N
                        + color[digit[x]? as usize] as usize
                }
                Kind::Box => {
                    3 * CELLS + box_of[x] as usize * N + color[digit[x]? as usize] as usize
                }
                Kind::Unknown => return None,
            };
            if k >= 4 * CELLS || present[k] {
                return None;
            }
            present[k] = true;
            constraint[x] = k;
        }
        let grid = givens(&present)?;
        same_matrix(&grid, options, &constraint).then_some(grid)
    };
    colored(0, &order, &apart, &mut color, &mut tries, &attempt)
}

/// The digits given to the parts `order[i..]` (none the digit of a part it
/// meets, `apart`), each way read by `attempt` until one is accepted, at
/// most [`MOST_COLORINGS`] ways in all.
fn colored(
    i: usize,
    order: &[usize],
    apart: &[u32],
    color: &mut [u8],
    tries: &mut u32,
    attempt: &dyn Fn(&[u8]) -> Option<[u8; CELLS]>,
) -> Option<[u8; CELLS]> {
    let Some(&d) = order.get(i) else {
        *tries += 1;
        return attempt(color);
    };
    for c in 0..N as u8 {
        if *tries >= MOST_COLORINGS {
            return None;
        }
        if (0..order.len()).any(|e| apart[d] & (1 << e) != 0 && color[e] == c) {
            continue;
        }
        color[d] = c;
        if let Some(grid) = colored(i + 1, order, apart, color, tries, attempt) {
            return Some(grid);
        }
        color[d] = u8::MAX;
    }
    None
}

/// The ways of giving digits to the parts [`colored`] tries at most.
const MOST_COLORINGS: u32 = 16;

/// The matrix left when every option that is the only one of an item is
/// taken, in at most `rounds` rounds (covered, with every option that
/// shares an item with it): as many
/// solutions, and a Sudoku's matrix if the first was (the candidate taken
/// is a given more, and the options it rules out are the candidates of its
/// cell and its digit's in its row, column and box). Items renumbered from
/// 0; `None` if an item is left with no option (no solution: the general
/// engines say so at once).
fn forced_taken(
    mut options: Vec<[usize; 4]>,
    n: usize,
    rounds: usize,
) -> Option<(Vec<[usize; 4]>, usize)> {
    let mut alive = vec![true; n];
    for _ in 0..rounds {
        let mut held = vec![0u32; n];
        let mut last = vec![0usize; n];
        for (k, o) in options.iter().enumerate() {
            for &x in o {
                held[x] += 1;
                last[x] = k;
            }
        }
        if (0..n).any(|x| alive[x] && held[x] == 0) {
            return None;
        }
        let mut forced: Vec<usize> = (0..n)
            .filter(|&x| alive[x] && held[x] == 1)
            .map(|x| last[x])
            .collect();
        if forced.is_empty() {
            break;
        }
        forced.sort_unstable();
        forced.dedup();
        for &k in &forced {
            // Two forced options that clash: no solution.
            if options[k].iter().any(|&y| !alive[y]) {
                return None;
            }
            for y in options[k] {
                alive[y] = false;
            }
        }
        options.retain(|o| o.iter().all(|&y| alive[y]));
    }
    let mut number = vec![usize::MAX; n];
    let mut left = 0;
    for x in (0..n).filter(|&x| alive[x]) {
        number[x] = left;
        left += 1;
    }
    for o in &mut options {
        *o = o.map(|x| number[x]);
    }
    Some((options, left))
}

/// The givens that leave exactly the constraints `present` (cells, rows',
/// columns' and boxes' digits) to cover: each blank cell's place and each
/// missing constraint covered by one given. Digits are numbered from 0 here
/// and from 1 in the grid returned.
fn givens(present: &[bool; 4 * CELLS]) -> Option<[u8; CELLS]> {
    let mut used = [false; 4 * CELLS];
    used.copy_from_slice(present);
    let mut grid = [0u8; CELLS];
    let cells: Vec<usize> = (0..CELLS).filter(|&k| !present[k]).collect();
    let mut work = 0u32;
    fn fill(
        cells: &[usize],
        used: &mut [bool; 4 * CELLS],
        grid: &mut [u8; CELLS],
        work: &mut u32,
    ) -> bool {
        // The cell of the fewest digits it may take first.
        let Some(&k) = cells
            .iter()
            .filter(|&&k| grid[k] == 0)
            .min_by_key(|&&k| free(used, k).count_ones())
        else {
            return true;
        };
        let (r, c) = (k / N, k % N);
        let mask = free(used, k);
        for d in (0..N).filter(|&d| mask & (1 << d) != 0) {
            *work += 1;
            if *work > 5_000 {
                return false;
            }
            let three = constraints(r, c, d);
            for x in three {
                used[x] = true;
            }
            grid[k] = d as u8 + 1;
            if fill(cells, used, grid, work) {
                return true;
            }
            grid[k] = 0;
            for x in three {
                used[x] = false;
            }
        }
        false
    }
    if !fill(&cells, &mut used, &mut grid, &mut work) {
        return None;
    }
    for &k in &cells {
        used[k] = true;
    }
    // Every missing constraint covered: the givens are a Sudoku's.
    used.iter().all(|&u| u).then_some(grid)
}

/// The row's, column's and box's constraints of digit `d` (0-based) at `(r, c)`.
fn constraints(r: usize, c: usize, d: usize) -> [usize; 3] {
    [
        CELLS + r * N + d,
        2 * CELLS + c * N + d,
        3 * CELLS + ((r / 3) * 3 + c / 3) * N + d,
    ]
}

/// The constraints the givens of `grid` (81 values, `0` a blank) cover:
/// their cells, and their digits' in their rows, columns and boxes; `None`
/// if two givens clash.
fn covered_by(grid: &[u8]) -> Option<[bool; 4 * CELLS]> {
    let mut covered = [false; 4 * CELLS];
    for (k, &v) in grid.iter().enumerate().filter(|(_, v)| **v != 0) {
        covered[k] = true;
        for x in constraints(k / N, k % N, v as usize - 1) {
            if covered[x] {
                return None;
            }
            covered[x] = true;
        }
    }
    Some(covered)
}

/// The digits (bit `d` for digit `d + 1`) cell `k` may take: those whose
/// row's, column's and box's constraints are not `covered`.
fn free(covered: &[bool; 4 * CELLS], k: usize) -> u16 {
    (0..N)
        .filter(|&d| constraints(k / N, k % N, d).iter().all(|&x| !covered[x]))
        .fold(0, |mask, d| mask | 1 << d)
}

/// Is the matrix of `grid` the one given (`options`, each item standing for
/// `constraint`)? Its items are those of the blank cells and of the
/// constraints no given covers; its options the candidates no given rules out.
fn same_matrix(grid: &[u8; CELLS], options: &[[usize; 4]], constraint: &[usize]) -> bool {
    let Some(covered) = covered_by(grid) else {
        return false;
    };
    // The items: one for each constraint left (all distinct, as built).
    if constraint.iter().any(|&x| covered[x])
        || constraint.len() != covered.iter().filter(|&&c| !c).count()
    {
        return false;
    }
    let candidates: u32 = (0..CELLS)
        .filter(|&k| grid[k] == 0)
        .map(|k| free(&covered, k).count_ones())
        .sum();
    if candidates as usize != options.len() {
        return false;
    }
    // Each option a candidate, each once.
    let mut seen = vec![false; CELLS * N];
    for o in options {
        let mut mapped: Vec<usize> = o.iter().map(|&x| constraint[x]).collect();
        mapped.sort_unstable();
        let k = mapped[0];
        if k >= CELLS || grid[k] != 0 {
            return false;
        }
        let d = (mapped[1] - CELLS) % N;
        let mut want = constraints(k / N, k % N, d).to_vec();
        want.insert(0, k);
        if mapped != want || seen[k * N + d] {
            return false;
        }
        seen[k * N + d] = true;
    }
    true
}

/// The puzzle `cells` cut into at least `pieces` puzzles (where it has
/// that many ways to go), whose solutions are its own, each once: a blank
/// cell of the fewest candidates (digits no given in its row, column or
/// box holds) filled with each in turn, the widest puzzle first. A puzzle
/// with a blank cell of no candidate has no solution and is left out.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use puzzles::bands::{matrix::cut, solve};
/// let line = ".................1....23.4......452...6.......178........1....72......3.9........";
/// let cells: [u8; 81] = std::array::from_fn(|k| line.as_bytes()[k].saturating_sub(b'0') % 10);
/// let pieces = cut(&cells, 20);
/// assert!(pieces.len() >= 20);
/// let count = |p: &[u8; 81]| solve(p, u64::MAX, &AtomicBool::new(false)).unwrap().count;
/// assert_eq!(pieces.iter().map(count).sum::<u64>(), count(&cells));
/// assert_eq!(count(&cells), 411);
/// ```
pub fn cut(cells: &[u8; CELLS], pieces: usize) -> Vec<[u8; CELLS]> {
    let mut open = std::collections::VecDeque::from([*cells]);
    let mut done = Vec::new();
    while open.len() + done.len() < pieces {
        let Some(grid) = open.pop_front() else { break };
        // (Givens that clash: no solution, left out.)
        let Some(covered) = covered_by(&grid) else {
            continue;
        };
        let Some(k) = (0..CELLS)
            .filter(|&k| grid[k] == 0)
            .min_by_key(|&k| free(&covered, k).count_ones())
        else {
            done.push(grid); // full
            continue;
        };
        let mask = free(&covered, k);
        for d in (0..N).filter(|&d| mask & (1 << d) != 0) {
            let mut next = grid;
            next[k] = d as u8 + 1;
            open.push_back(next);
        }
    }
    done.extend(open);
    done
}

/// The matrix of the 9 x 9 puzzle `cells` (81 values, `0` a blank) as
/// Knuth's SUDOKU-DLX makes it: items for the blank cells and the
/// constraints no given covers, an option for each candidate no given rules
/// out. For tests and examples; panics if `cells` is not 81 values of
/// `0..=9` or two givens clash.
///
/// ```
/// use puzzles::bands::matrix::sudoku_matrix;
/// let p = sudoku_matrix(&[0u8; 81]);
/// assert_eq!((p.n_primary(), p.n_options()), (324, 729));
/// ```
pub fn sudoku_matrix(cells: &[u8]) -> CompiledProblem {
    assert_eq!(cells.len(), CELLS);
    let covered = covered_by(cells).expect("two givens clash");
    let mut number = [u32::MAX; 4 * CELLS];
    let mut n = 0u32;
    for (x, &c) in covered.iter().enumerate() {
        if !c {
            number[x] = n;
            n += 1;
        }
    }
    let (mut start, mut items) = (vec![0u32], Vec::new());
    for k in (0..CELLS).filter(|&k| cells[k] == 0) {
        let mask = free(&covered, k);
        for d in (0..N).filter(|&d| mask & (1 << d) != 0) {
            items.push(number[k]);
            items.extend(constraints(k / N, k % N, d).map(|x| number[x]));
            start.push(items.len() as u32);
        }
    }
    let ones = vec![1u32; n as usize];
    CompiledProblem::new(n, 0, ones.clone(), ones, start, items, vec![]).expect("a Sudoku's matrix")
}

#[cfg(test)]
mod tests;
