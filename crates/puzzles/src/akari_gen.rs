//! Akari puzzles with exactly one solution: black cells laid out at
//! random (`Symmetry`), lights placed, numbers shown only where the
//! grader (`akari_grade`) needs them at the level asked; a grid the grader
//! solves has exactly one solution, so no other uniqueness proof is needed.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::akari_grade::*;
use xc::Rng;

/// How the black cells of a generated grid are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symmetry {
    None,
    /// Symmetric under a half turn.
    Rotate,
    /// Symmetric under the left-right mirror.
    Mirror,
}

/// A puzzle of `rows` x `cols` with about `black` of its cells black, laid
/// out with `symmetry`, solvable by the rules of `level` (hence with exactly
/// one solution), with a number only where those rules need one. The same
/// `rng` state gives the same puzzle. Returns the cells; None if `stop` was
/// raised first.
pub fn generate(
    rows: usize,
    cols: usize,
    black: f64,
    level: Level,
    symmetry: Symmetry,
    rng: &mut Rng,
    stop: &AtomicBool,
) -> Option<Vec<u8>> {
    let n = rows * cols;
    let mate = |z: usize| -> usize {
        let (r, c) = (z / cols, z % cols);
        match symmetry {
            Symmetry::None => z,
            Symmetry::Rotate => (rows - 1 - r) * cols + (cols - 1 - c),
            Symmetry::Mirror => r * cols + (cols - 1 - c),
        }
    };
    let chance = |rng: &mut Rng, p: f64| (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 <= p;
    // The black cells.
    let mut cells = vec![WHITE; n];
    for z in 0..n {
        let m = mate(z);
        if m < z {
            continue;
        }
        if black > 0.0 && chance(rng, black) {
            cells[z] = BLACK;
            cells[m] = BLACK;
        }
    }
    if !cells.contains(&WHITE) {
        return Some(cells); // nothing to light: the all-black grid is its own puzzle
    }
    let mut lights = vec![false; n];
    loop {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        relight(rows, cols, &cells, &mut lights, rng);
        number(rows, cols, &mut cells, &lights);
        // Where the rules get stuck, a black cell (numbered) gives them a
        // hold. (At most the medium rules here: trials over a big stuck
        // region cost much, and the numbers the trials can spare go below.)
        let shape = Shape::new(rows, cols, &cells);
        match grade_shape(&shape, level.min(Level::Medium)) {
            Graded::Solved(_) => break,
            // (Cannot be: the grid, numbered from its own lights, has a
            // solution, and the rules are sound; blacken a white cell anyway.)
            Graded::Contradiction => {
                let white: Vec<u32> = (0..n as u32)
                    .filter(|&z| cells[z as usize] == WHITE)
                    .collect();
                let z = white[rng.below(white.len() as u64) as usize] as usize;
                for y in [z, mate(z)] {
                    cells[y] = BLACK;
                    lights[y] = false;
                }
            }
            Graded::Stuck(left) => {
                // A few at a time where much is left (each costs a regrade).
                for _ in 0..(left.len() / 12).max(1) {
                    let z = left[rng.below(left.len() as u64) as usize] as usize;
                    for y in [z, mate(z)] {
                        cells[y] = BLACK;
                        lights[y] = false;
                    }
                }
            }
        }
    }
    // Take numbers away, in a random order, while the rules still solve it
    // (a number and its mirror image together). A number no deduction used
    // goes without a regrade.
    let mut shape = Shape::new(rows, cols, &cells);
    let mut of_cell = vec![NONE; n];
    for (k, &(z, _)) in shape.numbers.iter().enumerate() {
        of_cell[z as usize] = k as u32;
    }
    let pairs = Pairs {
        of_cell: &of_cell,
        mate: &mate,
    };
    let mut order: Vec<usize> = (0..shape.numbers.len()).collect();
    for k in (1..order.len()).rev() {
        order.swap(k, rng.below(k as u64 + 1) as usize);
    }
    let solved = solved_state(&shape, &lights);
    // For hard puzzles, a pass by the medium rules first: what they can
    // spare, trials can too (more rules never need more numbers), and a
    // medium grade costs a fraction of a hard one.
    let passes: &[Level] = if level == Level::Hard {
        &[Level::Medium, Level::Hard]
    } else {
        &[level]
    };
    for &pass in passes {
        let (_, used) = grade_used(&shape, pass);
        pairs.drop_unused(&mut shape, &used);
        let mut todo = order.clone();
        while !todo.is_empty() {
            // The numbers a window showed needed while a batch was on trial:
            // needed with the whole batch hidden, they are asked again if
            // part of it comes back.
            let mut retry = Vec::new();
            let mut batch: Vec<[usize; 2]> = Vec::new();
            let mut judged: Vec<usize> = Vec::new();
            for &k in &todo {
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                if !shape.shown[k] {
                    continue;
                }
                let [a, b] = pairs.of(&shape, k);
                shape.shown[a] = false;
                shape.shown[b] = false;
                let centres = [shape.numbers[a].0, shape.numbers[b].0];
                if needed_nearby(&shape, &solved, cols, centres, pass) {
                    shape.shown[a] = true;
                    shape.shown[b] = true;
                    judged.push(k);
                    continue;
                }
                batch.push([a, b]);
                if batch.len() == BATCH {
                    if !confirm(&mut shape, &batch, pass, &pairs) {
                        retry.append(&mut judged);
                    }
                    judged.clear();
                    batch.clear();
                }
            }
            if !batch.is_empty() && !confirm(&mut shape, &batch, pass, &pairs) {
                retry.append(&mut judged);
            }
            todo = retry;
        }
    }
    for (k, &(z, _)) in shape.numbers.iter().enumerate() {
        if !shape.shown[k] {
            cells[z as usize] = BLACK;
        }
    }
    Some(cells)
}

/// Numbers hidden in one regrade when they pass the window test (see
/// [`confirm`]). Measured on three 100 x 100 boards (seeds 0-2, radius 12):
/// 8 at a time, hard 4.3-5.3 s and medium 1.8-2.3 s for the three; one at a
/// time 8.4 s and 6.6 s; 4 to 32 within the noise of each other.
const BATCH: usize = 8;

/// How far around a number the window of [`needed_nearby`] reaches. On the
/// same boards (batch 8): radius 8, 10, 12, 16 took 6.1, 5.2, 5.3, 5.6 s
/// (hard) and 3.0, 2.5, 2.3, 2.7 s (medium): a small window misses needed
/// numbers (each miss costs regrades), a big one costs more itself. Without
/// the window test, batches fail so often that hard took 46 s.
const RADIUS: usize = 12;

/// Numbers in pairs: a number and the one at its mirror cell.
struct Pairs<'a> {
    of_cell: &'a [u32],
    mate: &'a dyn Fn(usize) -> usize,
}

impl Pairs<'_> {
    /// The number `k` and the number at its mirror cell (itself when none).
    fn of(&self, shape: &Shape, k: usize) -> [usize; 2] {
        let m = self.of_cell[(self.mate)(shape.numbers[k].0 as usize)];
        [k, if m == NONE { k } else { m as usize }]
    }

    /// Hides the numbers (with their mirror numbers) that no deduction used.
    fn drop_unused(&self, shape: &mut Shape, used: &[bool]) {
        for k in 0..used.len() {
            let [a, b] = self.of(shape, k);
            if shape.shown[a] && !used[a] && !used[b] {
                shape.shown[a] = false;
                shape.shown[b] = false;
            }
        }
    }
}

/// Keeps hidden as many of the `batch` (hidden now) as the rules of `level`
/// allow, shows the rest again; true if all stay hidden. Before the call,
/// the grid with the batch shown is solved by the rules; after it, so is the
/// grid as it is left. One regrade when all can go; else the batch is
/// halved (the first half tried with the second shown, then the second),
/// down to single pairs: a pair that fails alone is needed.
fn confirm(shape: &mut Shape, batch: &[[usize; 2]], level: Level, pairs: &Pairs) -> bool {
    if let (Graded::Solved(_), used) = grade_used(shape, level) {
        pairs.drop_unused(shape, &used);
        return true;
    }
    let show = |shape: &mut Shape, part: &[[usize; 2]], on: bool| {
        for &[a, b] in part {
            shape.shown[a] = on;
            shape.shown[b] = on;
        }
    };
    if batch.len() == 1 {
        show(shape, batch, true);
        return false;
    }
    let (first, second) = batch.split_at(batch.len() / 2);
    show(shape, second, true);
    confirm(shape, first, level, pairs);
    show(shape, second, false);
    confirm(shape, second, level, pairs);
    false
}

/// The solution `lights` as a grader's state: every white cell decided,
/// nothing to look at.
fn solved_state(shape: &Shape, lights: &[bool]) -> State {
    let mut state = State::new(shape);
    state.cell_queue.clear();
    state.cell_queued.fill(false);
    state.number_queue.clear();
    state.number_queued.fill(false);
    for (z, &cell) in shape.cells.iter().enumerate() {
        if cell != WHITE {
            continue;
        }
        if lights[z] {
            state.value[z] = LIGHT;
            state.seg_light[shape.row_seg[z] as usize] = true;
            state.seg_light[shape.col_seg[z] as usize] = true;
        } else {
            state.value[z] = DARK;
        }
    }
    state.undecided = 0;
    state
}

/// Does the grid still need the numbers hidden at `centres`? Asked of a
/// window: the white cells within [`RADIUS`] of them undecided (but those a
/// light outside sees, dark as the grader has them after that light), every
/// other cell given as in the solution. The rules are monotone (more cells
/// known never allow fewer deductions), so if they stop short here they stop
/// short on the whole grid, where less is known: `true` proves the numbers
/// needed. `false` only says the window does not show it (a regrade decides).
fn needed_nearby(
    shape: &Shape,
    solved: &State,
    cols: usize,
    centres: [u32; 2],
    level: Level,
) -> bool {
    let rows = shape.cells.len() / cols;
    let window = |centre: u32| {
        let (r0, c0) = (centre as usize / cols, centre as usize % cols);
        let rs = r0.saturating_sub(RADIUS)..(r0 + RADIUS + 1).min(rows);
        rs.flat_map(move |r| {
            (c0.saturating_sub(RADIUS)..(c0 + RADIUS + 1).min(cols))
                .map(move |c| (r * cols + c) as u32)
        })
    };
    let mut state = solved.clone();
    let cells = || window(centres[0]).chain(window(centres[1]));
    for z in cells() {
        let z_ = z as usize;
        match state.value[z_] {
            LIGHT => {
                state.seg_light[shape.row_seg[z_] as usize] = false;
                state.seg_light[shape.col_seg[z_] as usize] = false;
            }
            DARK => {}
            _ => continue,
        }
        state.value[z_] = UNKNOWN;
        state.undecided += 1;
    }
    for z in cells() {
        if state.value[z as usize] != UNKNOWN {
            continue;
        }
        if state.lit(shape, z) {
            state.value[z as usize] = DARK;
            state.undecided -= 1;
            continue;
        }
        // Its rules, its numbers' and those of the cells it sees.
        state.touch(shape, z);
    }
    // A contradiction cannot be (every cell known is the solution's); it
    // proves nothing here.
    state.settle(shape, level).is_ok() && state.undecided > 0
}

/// Lights until every white cell is lit: the lights kept where still valid
/// (white, not seeing another), then new ones at unlit cells in random order.
fn relight(rows: usize, cols: usize, cells: &[u8], lights: &mut [bool], rng: &mut Rng) {
    let shape = Shape::new(rows, cols, cells);
    let mut state = State::new(&shape);
    for z in 0..cells.len() {
        if lights[z] && (cells[z] != WHITE || state.light(&shape, z as u32).is_err()) {
            lights[z] = false;
        }
    }
    let mut order: Vec<u32> = (0..cells.len() as u32)
        .filter(|&z| cells[z as usize] == WHITE)
        .collect();
    for k in (1..order.len()).rev() {
        order.swap(k, rng.below(k as u64 + 1) as usize);
    }
    for z in order {
        // An unlit cell sees no light, so it takes one.
        if !state.lit(&shape, z) && state.light(&shape, z).is_ok() {
            lights[z as usize] = true;
        }
    }
}

/// Every black cell numbered with its lights.
fn number(rows: usize, cols: usize, cells: &mut [u8], lights: &[bool]) {
    for (z, cell) in cells.iter_mut().enumerate() {
        if *cell != WHITE {
            *cell = neighbours(rows, cols, z).filter(|&y| lights[y]).count() as u8;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::akari::Cell;

    fn parse(text: &str) -> (usize, usize, Vec<u8>) {
        let rows: Vec<&str> = text.lines().collect();
        let cells = rows
            .iter()
            .flat_map(|r| r.bytes())
            .map(|b| code(Cell::from_byte(b).expect("a cell")))
            .collect();
        (rows.len(), rows[0].len(), cells)
    }

    #[test]
    fn the_seed_puzzle_is_solved_by_the_rules() {
        // Seed 002's 7 x 7 board.
        let (r, c, cells) = parse(".......\n.2#..#.\n.1..#..\n......2\n.#..#..\n..4...#\n.......");
        match grade(r, c, &cells, Level::Hard) {
            Graded::Solved(lights) => assert_eq!(lights.len(), 10),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_open_board_is_stuck_and_a_bad_one_contradicts() {
        let (r, c, cells) = parse("...\n...");
        assert!(matches!(grade(r, c, &cells, Level::Hard), Graded::Stuck(_)));
        let (r, c, cells) = parse("4.\n..");
        assert_eq!(grade(r, c, &cells, Level::Hard), Graded::Contradiction);
    }

    #[test]
    fn generated_puzzles_are_solved_at_their_level_and_reproducible() {
        for (k, level) in [Level::Easy, Level::Medium, Level::Hard]
            .into_iter()
            .enumerate()
        {
            for seed in 0..3 {
                let make = || {
                    let mut rng = Rng::new(seed + 10 * k as u64);
                    generate(
                        12,
                        15,
                        0.2,
                        level,
                        Symmetry::None,
                        &mut rng,
                        &AtomicBool::new(false),
                    )
                    .unwrap()
                };
                let cells = make();
                assert_eq!(cells, make());
                assert!(matches!(grade(12, 15, &cells, level), Graded::Solved(_)));
                assert!(difficulty(12, 15, &cells).is_some_and(|d| d <= level));
            }
        }
    }
}
