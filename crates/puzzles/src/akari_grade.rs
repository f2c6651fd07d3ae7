//! Akari by deduction: a grader that solves a grid the way a person does,
//! at three levels (the generator, `akari_gen`, builds on it).
//!
//! A grid is typed, never text: each cell is [`WHITE`], [`BLACK`] (no
//! number) or a number `0..=4` (a black cell with that many lights next to
//! it). The grader keeps, for each white cell, "light", "no light" or
//! "unknown", and applies rules until nothing changes:
//!
//! * **easy**: a light darkens its row and column segments for other lights;
//!   a number with its lights all placed rules out its other neighbours, a
//!   number with just enough candidates lights them all; an unlit cell that
//!   only one cell can light gets its light there;
//! * **medium**, also: a cell is no light when a light there would leave a
//!   number too few candidates (it sees some of them), or would leave an
//!   unlit cell nothing to light it (it sees every candidate of that cell);
//! * **hard**, also: a trial: a cell whose light (or whose no-light) leads by
//!   the medium rules to a contradiction takes the other value.
//!
//! Every rule is a sound deduction, so a grid the grader fills completely has
//! exactly one solution: the generator needs no other uniqueness proof.

use crate::akari::Cell;

/// A white cell.
pub const WHITE: u8 = 6;
/// A black cell without a number.
pub const BLACK: u8 = 5;

/// The grader's code of a typed cell.
pub fn code(cell: Cell) -> u8 {
    match cell {
        Cell::White => WHITE,
        Cell::Black => BLACK,
        Cell::Number(k) => k,
    }
}

/// The typed cell of a grader's code (the inverse of [`code`]).
pub fn cell(code: u8) -> Cell {
    match code {
        WHITE => Cell::White,
        BLACK => Cell::Black,
        k => Cell::Number(k),
    }
}

pub(crate) const UNKNOWN: u8 = 0;
pub(crate) const LIGHT: u8 = 1;
pub(crate) const DARK: u8 = 2;
/// The value of a black cell in a grader's state: never unknown.
const WALL: u8 = 3;

/// The deductions a solver may use (see the module's text).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Easy = 0,
    Medium = 1,
    Hard = 2,
}

/// What the grader made of a grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Graded {
    /// Solved by the rules: the lights (cell indices), the only solution.
    Solved(Vec<u32>),
    /// The rules stop short: the cells still undecided.
    Stuck(Vec<u32>),
    /// The rules met a contradiction: no solution.
    Contradiction,
}

/// The fixed shape of a grid: segments and neighbours.
pub(crate) struct Shape {
    pub(crate) cells: Vec<u8>,
    /// Per white cell: its row and column segment (ids into `segments`).
    pub(crate) row_seg: Vec<u32>,
    pub(crate) col_seg: Vec<u32>,
    segments: Vec<Vec<u32>>,
    /// Per numbered cell (index into `numbers`): the cell and its white neighbours.
    pub(crate) numbers: Vec<(u32, Vec<u32>)>,
    /// Per cell: the numbers (indices into `numbers`) next to it.
    number_at: Vec<Vec<u32>>,
    /// Per number: is it shown? (The generator hides numbers one by one
    /// without rebuilding the shape.)
    pub(crate) shown: Vec<bool>,
}

pub(crate) const NONE: u32 = u32::MAX;

impl Shape {
    pub(crate) fn new(rows: usize, cols: usize, cells: &[u8]) -> Shape {
        let n = rows * cols;
        let mut row_seg = vec![NONE; n];
        let mut col_seg = vec![NONE; n];
        let mut segments: Vec<Vec<u32>> = Vec::new();
        // The runs of white cells along each row, then along each column.
        let rows_then_cols = (0..rows)
            .map(|r| (0..cols).map(|c| r * cols + c).collect::<Vec<_>>())
            .chain((0..cols).map(|c| (0..rows).map(|r| r * cols + c).collect::<Vec<_>>()));
        for (k, line) in rows_then_cols.enumerate() {
            let seg_of = if k < rows { &mut row_seg } else { &mut col_seg };
            let mut open = false;
            for z in line {
                if cells[z] != WHITE {
                    open = false;
                    continue;
                }
                if !open {
                    segments.push(Vec::new());
                    open = true;
                }
                seg_of[z] = (segments.len() - 1) as u32;
                segments.last_mut().expect("open segment").push(z as u32);
            }
        }
        let mut numbers = Vec::new();
        for z in 0..n {
            if cells[z] <= 4 {
                numbers.push((
                    z as u32,
                    neighbours(rows, cols, z)
                        .filter(|&y| cells[y] == WHITE)
                        .map(|y| y as u32)
                        .collect(),
                ));
            }
        }
        let mut number_at = vec![Vec::new(); n];
        for (k, (_, around)) in numbers.iter().enumerate() {
            for &y in around {
                number_at[y as usize].push(k as u32);
            }
        }
        Shape {
            cells: cells.to_vec(),
            row_seg,
            col_seg,
            segments,
            shown: vec![true; numbers.len()],
            numbers,
            number_at,
        }
    }

    /// The cells a light at `z` sees (its segments, without itself).
    fn sees(&self, z: u32) -> impl Iterator<Item = u32> + '_ {
        let z_ = z as usize;
        self.segments[self.row_seg[z_] as usize]
            .iter()
            .chain(&self.segments[self.col_seg[z_] as usize])
            .copied()
            .filter(move |&y| y != z)
    }

    fn same_line(&self, a: u32, b: u32) -> bool {
        let (a, b) = (a as usize, b as usize);
        a != b && (self.row_seg[a] == self.row_seg[b] || self.col_seg[a] == self.col_seg[b])
    }
}

pub(crate) fn neighbours(rows: usize, cols: usize, z: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (z / cols, z % cols);
    let up = (r > 0).then(|| z - cols);
    let down = (r + 1 < rows).then(|| z + cols);
    let left = (c > 0).then(|| z - 1);
    let right = (c + 1 < cols).then(|| z + 1);
    [up, down, left, right].into_iter().flatten()
}

/// A grader's state: a value per cell, a light flag per segment, and the
/// work list of what a change may have made deducible again (the numbers
/// next to a changed cell, and the cells of its segments).
#[derive(Clone)]
pub(crate) struct State {
    pub(crate) value: Vec<u8>,
    pub(crate) seg_light: Vec<bool>,
    pub(crate) undecided: usize,
    pub(crate) cell_queue: Vec<u32>,
    pub(crate) cell_queued: Vec<bool>,
    pub(crate) number_queue: Vec<u32>,
    pub(crate) number_queued: Vec<bool>,
    /// Per number: has it given a deduction (or a contradiction in a trial)?
    used: Vec<bool>,
    /// What a trial changed, to take back: cells decided, segments lit,
    /// numbers first used.
    trail: Vec<u32>,
    seg_trail: Vec<u32>,
    used_trail: Vec<u32>,
}

pub(crate) struct Contradiction;

impl State {
    pub(crate) fn new(shape: &Shape) -> State {
        let undecided = shape.cells.iter().filter(|&&c| c == WHITE).count();
        let whites: Vec<u32> = (0..shape.cells.len() as u32)
            .filter(|&z| shape.cells[z as usize] == WHITE)
            .collect();
        State {
            value: shape
                .cells
                .iter()
                .map(|&c| if c == WHITE { UNKNOWN } else { WALL })
                .collect(),
            seg_light: vec![false; shape.segments.len()],
            undecided,
            cell_queued: shape.cells.iter().map(|&c| c == WHITE).collect(),
            cell_queue: whites.into_iter().rev().collect(),
            number_queue: (0..shape.numbers.len() as u32).rev().collect(),
            number_queued: vec![true; shape.numbers.len()],
            used: vec![false; shape.numbers.len()],
            trail: Vec::new(),
            seg_trail: Vec::new(),
            used_trail: Vec::new(),
        }
    }

    pub(crate) fn lit(&self, shape: &Shape, z: u32) -> bool {
        let z = z as usize;
        self.seg_light[shape.row_seg[z] as usize] || self.seg_light[shape.col_seg[z] as usize]
    }

    /// After `z` changed: its numbers and the cells of its unlit segments, to look at again.
    pub(crate) fn touch(&mut self, shape: &Shape, z: u32) {
        for &k in &shape.number_at[z as usize] {
            if !self.number_queued[k as usize] {
                self.number_queued[k as usize] = true;
                self.number_queue.push(k);
            }
        }
        let z = z as usize;
        for seg in [shape.row_seg[z], shape.col_seg[z]] {
            // A lit segment's cells have no rule left to give.
            if self.seg_light[seg as usize] {
                continue;
            }
            for &y in &shape.segments[seg as usize] {
                if !self.cell_queued[y as usize] {
                    self.cell_queued[y as usize] = true;
                    self.cell_queue.push(y);
                }
            }
        }
    }

    pub(crate) fn light(&mut self, shape: &Shape, z: u32) -> Result<bool, Contradiction> {
        match self.value[z as usize] {
            LIGHT => return Ok(false),
            DARK | WALL => return Err(Contradiction),
            _ => {}
        }
        let (r, c) = (
            shape.row_seg[z as usize] as usize,
            shape.col_seg[z as usize] as usize,
        );
        if self.seg_light[r] || self.seg_light[c] {
            return Err(Contradiction); // another light sees it
        }
        self.value[z as usize] = LIGHT;
        self.undecided -= 1;
        self.trail.push(z);
        self.seg_light[r] = true;
        self.seg_light[c] = true;
        self.seg_trail.push(r as u32);
        self.seg_trail.push(c as u32);
        self.touch(shape, z);
        // No other light in its segments.
        for seg in [r, c] {
            for k in 0..shape.segments[seg].len() {
                let y = shape.segments[seg][k];
                if y != z {
                    self.dark(shape, y)?;
                }
            }
        }
        Ok(true)
    }

    fn dark(&mut self, shape: &Shape, z: u32) -> Result<bool, Contradiction> {
        match self.value[z as usize] {
            DARK => Ok(false),
            LIGHT | WALL => Err(Contradiction),
            _ => {
                self.value[z as usize] = DARK;
                self.undecided -= 1;
                self.trail.push(z);
                self.touch(shape, z);
                Ok(true)
            }
        }
    }

    /// The rules of a number (index `k` into `shape.numbers`), noting
    /// whether they gave anything.
    fn number_rules(&mut self, shape: &Shape, k: usize, level: Level) -> Result<(), Contradiction> {
        let before = self.undecided;
        let r = self.number_rules_(shape, k, level);
        if (r.is_err() || self.undecided != before) && !self.used[k] {
            self.used[k] = true;
            self.used_trail.push(k as u32);
        }
        r
    }

    fn number_rules_(
        &mut self,
        shape: &Shape,
        k: usize,
        level: Level,
    ) -> Result<(), Contradiction> {
        if !shape.shown[k] {
            return Ok(());
        }
        let (z, around) = &shape.numbers[k];
        let want = shape.cells[*z as usize] as usize;
        let lights = around
            .iter()
            .filter(|&&y| self.value[y as usize] == LIGHT)
            .count();
        // (At most four neighbours: kept on the stack.)
        let mut unknown = [0u32; 4];
        let mut len = 0;
        for &y in around {
            if self.value[y as usize] == UNKNOWN {
                unknown[len] = y;
                len += 1;
            }
        }
        let c = &unknown[..len];
        if lights > want || lights + c.len() < want {
            return Err(Contradiction);
        }
        if c.is_empty() {
            return Ok(());
        }
        if lights == want {
            for &y in c {
                self.dark(shape, y)?;
            }
        } else if lights + c.len() == want {
            for &y in c {
                self.light(shape, y)?;
            }
        } else if level >= Level::Medium {
            // A light at x leaves the number the candidates x does not see.
            let need = want - lights;
            for &a in c {
                for x in std::iter::once(a).chain(shape.sees(a)) {
                    if self.value[x as usize] != UNKNOWN {
                        continue;
                    }
                    let seen = c.iter().filter(|&&y| shape.same_line(x, y)).count();
                    if c.len() - seen < need {
                        self.dark(shape, x)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// The rules of a white cell `z` that is not lit yet.
    fn cell_rules(
        &mut self,
        shape: &Shape,
        z: u32,
        level: Level,
        cand: &mut Vec<u32>,
    ) -> Result<(), Contradiction> {
        if self.lit(shape, z) {
            return Ok(());
        }
        // The unknown cells that could light z, counted no further than four
        // (past three, no rule here uses them).
        cand.clear();
        if self.value[z as usize] == UNKNOWN {
            cand.push(z);
        }
        for y in shape.sees(z) {
            if self.value[y as usize] == UNKNOWN {
                cand.push(y);
                if cand.len() > 3 {
                    return Ok(());
                }
            }
        }
        match cand.len() {
            0 => return Err(Contradiction),
            1 => {
                self.light(shape, cand[0])?;
            }
            // A cell that sees every candidate (and is none) would leave z dark.
            // Beyond three candidates none can: it would see two cells of one
            // line of z from outside that line.
            2 | 3 if level >= Level::Medium => {
                let first = cand[0];
                for x in shape.sees(first) {
                    if self.value[x as usize] == UNKNOWN
                        && !cand.contains(&x)
                        && cand.iter().all(|&y| shape.same_line(x, y))
                    {
                        self.dark(shape, x)?;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The easy rules (and the medium ones at `level` >= Medium), to a
    /// fixpoint, by the work list.
    fn propagate(&mut self, shape: &Shape, level: Level) -> Result<(), Contradiction> {
        let mut cand = Vec::new();
        loop {
            if let Some(k) = self.number_queue.pop() {
                self.number_queued[k as usize] = false;
                self.number_rules(shape, k as usize, level)?;
            } else if let Some(z) = self.cell_queue.pop() {
                self.cell_queued[z as usize] = false;
                self.cell_rules(shape, z, level, &mut cand)?;
            } else {
                return Ok(());
            }
        }
    }

    /// The hard rule: trials, each propagated by the medium rules.
    fn trial(&mut self, shape: &Shape) -> Result<bool, Contradiction> {
        // One pass over the unknown cells, each deduction propagated at once
        // (so that later trials start from what it gave). A trial is taken
        // back by its trail, not by a copy of the state: it changes a few
        // cells of a big grid.
        let mut any = false;
        for z in 0..shape.cells.len() as u32 {
            if self.value[z as usize] != UNKNOWN {
                continue;
            }
            for (guess, other) in [(LIGHT, DARK), (DARK, LIGHT)] {
                let marks = (
                    self.trail.len(),
                    self.seg_trail.len(),
                    self.used_trail.len(),
                );
                let ok = match guess {
                    LIGHT => self.light(shape, z).is_ok(),
                    _ => self.dark(shape, z).is_ok(),
                } && self.propagate(shape, Level::Medium).is_ok();
                // The contradiction, if any, used what the trial used: keep those marks.
                self.undo(marks, ok);
                if !ok {
                    if other == LIGHT {
                        self.light(shape, z)?;
                    } else {
                        self.dark(shape, z)?;
                    }
                    self.propagate(shape, Level::Medium)?;
                    any = true;
                    break;
                }
            }
        }
        Ok(any)
    }

    /// The rules of `level` to a fixpoint: propagation, and at the hard
    /// level trials until they give nothing more.
    pub(crate) fn settle(&mut self, shape: &Shape, level: Level) -> Result<(), Contradiction> {
        loop {
            self.propagate(shape, level)?;
            if self.undecided == 0 || level < Level::Hard || !self.trial(shape)? {
                return Ok(());
            }
        }
    }

    /// Takes back what was done since `marks` (the lengths of the trails),
    /// the numbers' use too when `forget_used`; empties the work lists.
    fn undo(&mut self, marks: (usize, usize, usize), forget_used: bool) {
        for z in self.trail.drain(marks.0..) {
            self.value[z as usize] = UNKNOWN;
            self.undecided += 1;
        }
        for seg in self.seg_trail.drain(marks.1..) {
            self.seg_light[seg as usize] = false;
        }
        if forget_used {
            for k in self.used_trail.drain(marks.2..) {
                self.used[k as usize] = false;
            }
        }
        for z in self.cell_queue.drain(..) {
            self.cell_queued[z as usize] = false;
        }
        for k in self.number_queue.drain(..) {
            self.number_queued[k as usize] = false;
        }
    }
}

/// Solves `cells` (rows x cols) by the rules of `level`.
pub fn grade(rows: usize, cols: usize, cells: &[u8], level: Level) -> Graded {
    let shape = Shape::new(rows, cols, cells);
    grade_shape(&shape, level)
}

pub(crate) fn grade_shape(shape: &Shape, level: Level) -> Graded {
    grade_used(shape, level).0
}

/// [`grade_shape`], with the numbers the deductions used: a solved grid
/// stays solved without any of the others (the same deductions still go
/// through), which spares the generator a regrade per number.
pub(crate) fn grade_used(shape: &Shape, level: Level) -> (Graded, Vec<bool>) {
    let mut state = State::new(shape);
    let graded = grade_state(shape, level, &mut state);
    (graded, state.used)
}

fn grade_state(shape: &Shape, level: Level, state: &mut State) -> Graded {
    if state.settle(shape, level).is_err() {
        return Graded::Contradiction;
    }
    if state.undecided > 0 {
        let left = (0..shape.cells.len() as u32)
            .filter(|&z| state.value[z as usize] == UNKNOWN)
            .collect();
        return Graded::Stuck(left);
    }
    // Every cell decided without contradiction: lit, and numbers met.
    let all_lit = (0..shape.cells.len() as u32)
        .all(|z| shape.cells[z as usize] != WHITE || state.lit(shape, z));
    if !all_lit {
        return Graded::Contradiction;
    }
    Graded::Solved(
        (0..shape.cells.len() as u32)
            .filter(|&z| state.value[z as usize] == LIGHT)
            .collect(),
    )
}

/// The easiest level whose rules solve `cells`, or None (not solved even by trials).
pub fn difficulty(rows: usize, cols: usize, cells: &[u8]) -> Option<Level> {
    let shape = Shape::new(rows, cols, cells);
    [Level::Easy, Level::Medium, Level::Hard]
        .into_iter()
        .find(|&level| matches!(grade_shape(&shape, level), Graded::Solved(_)))
}
