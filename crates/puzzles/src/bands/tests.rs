//! Tests of the band solver: its tables, its rules against the rules read
//! cell by cell, and its counts against a brute-force oracle.

use super::grid::*;
use super::*;
use xc::Rng;

fn cells(line: &str) -> Vec<u8> {
    line.bytes()
        .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
        .collect()
}

/// Whether a full grid keeps the rules: each row, column and box holds
/// every digit once.
fn valid(grid: &[u8; 81]) -> bool {
    let mut seen = [[0u16; 9]; 3];
    for (k, &v) in grid.iter().enumerate() {
        if !(1..=9).contains(&v) {
            return false;
        }
        let (r, c) = (k / 9, k % 9);
        let bit = 1u16 << (v - 1);
        for (kind, unit) in [(0, r), (1, c), (2, (r / 3) * 3 + c / 3)] {
            if seen[kind][unit] & bit != 0 {
                return false;
            }
            seen[kind][unit] |= bit;
        }
    }
    true
}

/// The digits (bits 1..=9) that cell `k` of `grid` may take: none
/// seen in its row, column or box (itself left out).
fn allowed(grid: &[u8; 81], k: usize) -> u16 {
    let (r, c) = (k / 9, k % 9);
    let mut seen = 0u16;
    for i in 0..9 {
        for j in [
            r * 9 + i,
            i * 9 + c,
            ((r / 3) * 3 + i / 3) * 9 + (c / 3) * 3 + i % 3,
        ] {
            if j != k {
                seen |= 1 << grid[j];
            }
        }
    }
    !seen & 0b11_1111_1110
}

/// Counts the completions of a grid (up to `limit`) by backtracking over
/// cells, the rules checked directly, the cell of fewest digits first:
/// the oracle. Givens that clash count as no solution.
fn brute_count(grid: &mut [u8; 81], limit: u64) -> u64 {
    if (0..81).any(|k| grid[k] != 0 && allowed(grid, k) >> grid[k] & 1 == 0) {
        return 0;
    }
    fn go(grid: &mut [u8; 81], limit: u64) -> u64 {
        let best = (0..81)
            .filter(|&k| grid[k] == 0)
            .min_by_key(|&k| allowed(grid, k).count_ones());
        let Some(k) = best else {
            return 1;
        };
        let mut count = 0;
        let digits = allowed(grid, k);
        for v in 1..=9u8 {
            if digits >> v & 1 != 0 {
                grid[k] = v;
                count += go(grid, limit - count);
                grid[k] = 0;
                if count >= limit {
                    break;
                }
            }
        }
        count
    }
    go(grid, limit)
}

#[test]
fn the_tables_say_what_they_mean() {
    // All minirows open: every cell is on some permutation.
    assert_eq!(MATCHING[511], ALL);
    // Row 0 only in box 0, nothing else blocked: box 0 belongs to row 0.
    let open = 511 & !(0b110);
    let cells = MATCHING[open];
    assert_eq!(cells & 0o777, 0o007);
    assert_eq!(cells >> 9 & 0o7, 0);
    assert_eq!(cells >> 18 & 0o7, 0);
    // Box 0 open in no row: no permutation.
    assert_eq!(MATCHING[511 & !(1 | 1 << 3 | 1 << 6)], 0);
    // A band whose digit can only be in column 4 of the middle stack
    // closes column 4 elsewhere, and nothing else.
    assert_eq!(CLOSED_ELSEWHERE[0o777 & !0o050], ALL & !column(4));
    assert_eq!(PEERS_IN_BAND[0].count_ones(), 8 + 2 * 3);
    assert_eq!(spread(0o020), column(4));
    assert_eq!(columns(column(4) | column(8)), 0o420);
}

#[test]
fn a_stack_is_a_permutation_of_bands() {
    // `pair` against every pair of column sets: column c is kept when
    // two other columns of its stack go one to each band.
    for x in 0..512u32 {
        for y in 0..512u32 {
            let mut keep = 0;
            for c in 0..9 {
                let stack = 3 * (c / 3);
                let others: Vec<u32> = (stack..stack + 3).filter(|&d| d != c).collect();
                let (p, q) = (others[0], others[1]);
                let has = |v: u32, d: u32| v >> d & 1 == 1;
                if (has(x, p) && has(y, q)) || (has(x, q) && has(y, p)) {
                    keep |= 1 << c;
                }
            }
            assert_eq!(pair(x, y), keep, "{x:o} {y:o}");
        }
    }
    // A band whose digit can only be in column 4 of the middle stack
    // closes column 4 in the two others, and nothing else.
    let all = 0o777;
    assert_eq!(pair(0o020, all) & 0o070, 0o050);
}

#[test]
fn known_puzzles() {
    // A puzzle of one solution, and the same with two givens taken out
    // of a pair that can swap (several).
    let line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let out = solve(&cells(line), 2, &AtomicBool::new(false)).unwrap();
    assert_eq!(out.count, 1);
    let sol = out.first.unwrap();
    assert!(valid(&sol));
    for (k, &v) in cells(line).iter().enumerate() {
        assert!(v == 0 || sol[k] == v);
    }
    // The empty grid: many solutions, counted up to a cap.
    let empty = [0u8; 81];
    let out = solve(&empty, 1000, &AtomicBool::new(false)).unwrap();
    assert_eq!(out.count, 1000);
    assert!(valid(&out.first.unwrap()));
    // Two givens clash in a column: no solution.
    let mut bad = [0u8; 81];
    bad[0] = 5;
    bad[72] = 5;
    assert_eq!(solve(&bad, 2, &AtomicBool::new(false)).unwrap().count, 0);
    // Stopped before it starts: incomplete.
    let out = solve(&empty, u64::MAX, &AtomicBool::new(true)).unwrap();
    assert!(!out.complete);
    // Not a 9 x 9 grid of values: refused, not a panic.
    assert!(solve(&empty[..80], 1, &AtomicBool::new(false)).is_none());
    let mut ten = empty;
    ten[3] = 10;
    assert!(solve(&ten, 1, &AtomicBool::new(false)).is_none());
}

/// The givens of a puzzle made from `full`: each cell kept with odds
/// `keep` in 81, else blanked.
pub(super) fn givens_of(rng: &mut Rng, full: [u8; 81], keep: u64) -> [u8; 81] {
    let mut puzzle = full;
    for v in puzzle.iter_mut() {
        if rng.below(81) >= keep {
            *v = 0;
        }
    }
    puzzle
}

/// A random full grid: a pattern grid with its digits, rows within
/// bands, bands, columns within stacks and stacks shuffled, and perhaps
/// transposed (each keeps the rules). (The matrix tests take it too.)
pub(super) fn random_grid(rng: &mut Rng) -> [u8; 81] {
    fn shuffle(rng: &mut Rng, v: &mut [usize]) {
        for i in (1..v.len()).rev() {
            v.swap(i, rng.below(i as u64 + 1) as usize);
        }
    }
    let mut digits: Vec<usize> = (0..9).collect();
    shuffle(rng, &mut digits);
    let mut lines = [[0usize; 9]; 2];
    for line in &mut lines {
        let mut groups = vec![0, 1, 2];
        shuffle(rng, &mut groups);
        for (g, &group) in groups.iter().enumerate() {
            let mut within = vec![0, 1, 2];
            shuffle(rng, &mut within);
            for (i, &w) in within.iter().enumerate() {
                line[3 * g + i] = 3 * group + w;
            }
        }
    }
    let transpose = rng.below(2) == 1;
    let mut grid = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            let (rr, cc) = (lines[0][r], lines[1][c]);
            let v = (rr * 3 + rr / 3 + cc) % 9;
            let k = if transpose { c * 9 + r } else { r * 9 + c };
            grid[k] = digits[v] as u8 + 1;
        }
    }
    grid
}

/// The givens placed one at a time on the empty grid (what
/// `with_givens` builds at once), None at the first that is closed.
fn placed_in_turn(cells: &[u8; 81]) -> Option<Grid> {
    let mut grid = Grid::new();
    for (k, &v) in cells.iter().enumerate() {
        if v != 0 && !grid.place(v as usize - 1, k / 27, k % 27) {
            return None;
        }
    }
    Some(grid)
}

#[test]
fn givens_at_once_are_givens_in_turn() {
    // Random givens of random full grids, and the same with one given
    // changed so that it clashes with another in a row, a column (in
    // its band or across bands) or a box: the same words and cells
    // left as placing them in turn, or None for both.
    let mut rng = Rng::new(31);
    let mut clashes = 0;
    for round in 0..2000 {
        let full = random_grid(&mut rng);
        let mut puzzle = givens_of(&mut rng, full, 5 + (round % 60) as u64);
        if round % 2 == 1 {
            // Copy a given's digit onto a peer of it (a clash).
            let k = rng.below(81) as usize;
            let (r, c) = (k / 9, k % 9);
            let i = rng.below(9) as usize;
            let peer = match rng.below(3) {
                0 => r * 9 + i,
                1 => i * 9 + c,
                _ => ((r / 3) * 3 + i / 3) * 9 + (c / 3) * 3 + i % 3,
            };
            if peer != k {
                puzzle[k] = full[k];
                puzzle[peer] = full[k];
            }
        }
        let (at_once, in_turn) = (Grid::with_givens(&puzzle), placed_in_turn(&puzzle));
        assert_eq!(at_once.is_none(), in_turn.is_none(), "round {round}");
        assert_eq!(at_once.is_none(), !valid_givens(&puzzle), "round {round}");
        if let (Some(a), Some(b)) = (at_once, in_turn) {
            assert_eq!((a.cand, a.unsolved), (b.cand, b.unsolved), "round {round}");
        } else {
            clashes += 1;
        }
    }
    assert!(clashes > 500, "only {clashes} clashes made");
}

/// Whether no two givens share a unit.
fn valid_givens(grid: &[u8; 81]) -> bool {
    (0..81).all(|k| grid[k] == 0 || allowed(grid, k) >> grid[k] & 1 != 0)
}

#[test]
fn the_rules_on_words_are_the_rules_on_cells() {
    // Full grids, valid or with two cells swapped, and words with a
    // cell given a second digit or none: `keeps_rules` says what
    // `valid` (the rules cell by cell) says of the same grid.
    let mut rng = Rng::new(37);
    let (mut kept, mut broken) = (0, 0);
    for round in 0..3000 {
        let mut grid = random_grid(&mut rng);
        if round % 3 != 0 {
            let (a, b) = (rng.below(81) as usize, rng.below(81) as usize);
            grid.swap(a, b);
        }
        let mut state = Grid::new();
        state.cand = [0; 27];
        for (k, &v) in grid.iter().enumerate() {
            state.cand[3 * (v as usize - 1) + k / 27] |= 1 << (k % 27);
        }
        let mut expect = valid(&grid);
        if round % 5 == 3 {
            // One digit's cells those of a digit of another grid: each
            // digit alone keeps the rules; two share a cell unless the
            // cells are the same.
            let other = random_grid(&mut rng);
            let (d, e) = (rng.below(9) as usize, rng.below(9) as u8 + 1);
            let mut words = [0u32; 3];
            for (k, _) in other.iter().enumerate().filter(|&(_, &v)| v == e) {
                words[k / 27] |= 1 << (k % 27);
            }
            expect &= words == [0, 1, 2].map(|b| state.cand[3 * d + b]);
            for (b, &w) in words.iter().enumerate() {
                state.cand[3 * d + b] = w;
            }
        }
        if round % 5 == 4 {
            // One cell's digit taken away, or a second digit added.
            let k = rng.below(81) as usize;
            let d = rng.below(9) as usize;
            state.cand[3 * d + k / 27] ^= 1 << (k % 27);
            expect = false;
        }
        assert_eq!(state.keeps_rules(), expect, "round {round}");
        if expect {
            assert_eq!(state.solution(), grid);
            kept += 1;
        } else {
            broken += 1;
        }
    }
    assert!(kept > 500 && broken > 1000, "{kept} kept, {broken} broken");
}

#[test]
fn random_puzzles_against_brute_force() {
    // Random full grids with a random share of their cells blanked:
    // counts up to 20 against the oracle, and each first solution
    // checked against the rules and its givens.
    let mut rng = Rng::new(29);
    let stop = AtomicBool::new(false);
    for round in 0..400 {
        let full = random_grid(&mut rng);
        assert!(valid(&full));
        let keep = 22 + (round % 30) as u64;
        let mut puzzle = givens_of(&mut rng, full, keep);
        // Now and then a wrong given that may leave no solution (on
        // puzzles of many givens, where the oracle proves it quickly).
        if round % 7 == 0 && keep >= 40 {
            let k = rng.below(81) as usize;
            puzzle[k] = rng.below(9) as u8 + 1;
        }
        let expect = brute_count(&mut puzzle.clone(), 20);
        let out = solve(&puzzle, 20, &stop).unwrap();
        assert_eq!(out.count, expect, "round {round}");
        if let Some(sol) = out.first {
            assert!(valid(&sol));
            assert!((0..81).all(|k| puzzle[k] == 0 || puzzle[k] == sol[k]));
        }
    }
}

#[test]
fn every_build_searches_the_same_tree() {
    // The builds this machine has (x86-64-v3 and v4: the rules in vector
    // registers) against the baseline's scalar rules: the same solutions,
    // first solution and guesses on random puzzles of few givens (many
    // guesses each, up to 50 solutions), on wrong givens, and on the stop
    // flag raised.
    let builds: Vec<u8> = [
        (builds::V3, builds::has_v3()),
        (builds::V4, builds::has_v4()),
    ]
    .into_iter()
    .filter_map(|(build, has)| has.then_some(build))
    .collect();
    let mut rng = Rng::new(85);
    let stop = AtomicBool::new(false);
    let (mut guessed, mut none) = (0, 0);
    for round in 0..300 {
        let full = random_grid(&mut rng);
        let mut puzzle = givens_of(&mut rng, full, 17 + (round % 20) as u64);
        if round % 5 == 0 {
            let k = rng.below(81) as usize;
            puzzle[k] = rng.below(9) as u8 + 1;
        }
        let base = solve_in(&puzzle, 50, &stop, builds::BASE).unwrap();
        for &build in &builds {
            let other = solve_in(&puzzle, 50, &stop, build).unwrap();
            assert_eq!(base, other, "round {round}, build {build}");
        }
        guessed += (base.guesses > 40) as u32;
        none += (base.count == 0) as u32;
    }
    assert!(
        guessed > 100 && none > 10,
        "{guessed} of over 40 guesses, {none} without solution"
    );
    let raised = AtomicBool::new(true);
    let empty = [0u8; 81];
    for &build in &builds {
        assert_eq!(
            solve_in(&empty, u64::MAX, &raised, builds::BASE),
            solve_in(&empty, u64::MAX, &raised, build)
        );
    }
}
