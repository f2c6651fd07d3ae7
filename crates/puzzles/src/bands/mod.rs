//! The 9 x 9 Sudoku by bands: a solver for the one size that is solved by
//! the million, where the general engine's dancing links lose to bit tricks.
//!
//! The grid is three bands of three rows. For each digit and band, the cells
//! of the band where the digit may still go are 27 bits (a row of the band is
//! 9 of them, a box-row, or *minirow*, 3); that is 27 words of 27 bits for the
//! whole grid (the idea of zhouyundong's solver, as championed on the Enjoy
//! Sudoku forum; written anew here from the rules below). On these words:
//!
//! - **within a band**, the digit goes once in each of its three rows and
//!   once in each of its three boxes: which row takes which box is a
//!   permutation of three, so only minirows on some permutation of the
//!   minirows still open are kept (a table of the 512 patterns). This is
//!   locked candidates of both kinds and hidden singles in boxes at once; a
//!   row left with one cell places the digit there (a hidden single);
//! - **across bands**, a stack's three columns take the digit once each,
//!   one in each band: which band takes which column is a permutation, so a
//!   band keeps a column only when the two other bands can take the stack's
//!   two other columns, one each (a column that a band can no longer avoid
//!   is so closed in the two others; on the 1,905 forum-hardest puzzles this
//!   took the guesses from 100.2 to 81.6 a puzzle and the time to 0.91).
//!   After a guess the rule runs with each word's turn; before the first,
//!   a word's turn closes only a band's one column of a stack and the whole
//!   rule runs when the rest is stuck (run with every turn there, it cost
//!   the 17-clue puzzles, most of which need no guess, 5-10%);
//! - **naked singles**: counting each cell's digits by bit-sliced adders over
//!   the nine words of a band finds the cells with one digit (placed), none
//!   (a contradiction) and two (where to guess);
//! - **guesses** when stuck: a cell of two digits, each tried in turn on a
//!   copy of the grid (a cell of the fewest digits when there is none); of
//!   the cells of two digits, the one with the most unplaced cells among
//!   its peers, whose guess places or closes the most.
//!
//! These are the scalar rules (`Grid::settle`). Where the machine has
//! AVX2 or AVX-512, the same rules run on the 27 words at once in vector
//! registers (`simd`), to the same settled grids; `builds` chooses at
//! run time.
//!
//! A solution is checked against the rules before it is counted (every unit
//! holds each digit once): a mistake here would show as a panic (an internal
//! error in the batch, which catches it), never as a wrong grid or count. Grids are typed as in `puzzles::sudoku`: 81 values,
//! row-major, `0` blank and `1..=9` a digit.

use std::sync::atomic::{AtomicBool, Ordering};

mod builds;
pub mod matrix;
#[cfg(target_arch = "x86_64")]
mod simd;

/// The 27 cells of a band.
const ALL: u32 = (1 << 27) - 1;

/// Guesses between two looks at the stop flag (well under a millisecond).
const GUESSES_PER_LOOK: u64 = 1 << 10;

/// The three bits of minirow `m` (0..3) of a 9-bit row.
const fn minirow(m: usize) -> u32 {
    7 << (3 * m)
}

/// For a row of 9 bits, which of its three minirows hold a bit (3 bits).
const SHRINK: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut x = 0;
    while x < 512 {
        let mut m = 0;
        while m < 3 {
            if x as u32 & minirow(m) != 0 {
                t[x] |= 1 << m;
            }
            m += 1;
        }
        x += 1;
    }
    t
};

/// For the open minirows of one digit in a band (bit `3 * row + box`), the
/// cells of the minirows that lie on some permutation (row `r` in box
/// `p[r]`) of open minirows: 0 when none does.
const MATCHING: [u32; 512] = {
    const PERMUTATIONS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u32; 512];
    let mut open = 0;
    while open < 512 {
        let mut k = 0;
        while k < 6 {
            let p = PERMUTATIONS[k];
            let mut cells = 0u32;
            let mut all_open = true;
            let mut r = 0;
            while r < 3 {
                if open & (1 << (3 * r + p[r])) == 0 {
                    all_open = false;
                }
                cells |= minirow(p[r]) << (9 * r);
                r += 1;
            }
            if all_open {
                t[open] |= cells;
            }
            k += 1;
        }
        open += 1;
    }
    t
};

/// The cells of column `c` (0..9) in a band.
const fn column(c: usize) -> u32 {
    (1 | 1 << 9 | 1 << 18) << c
}

/// For the columns (9 bits) where a digit may go in one band, the cells the
/// two other bands keep for it: a column that is the band's only one in its
/// stack is taken, and closed to them.
const CLOSED_ELSEWHERE: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut cols = 0;
    while cols < 512 {
        let mut keep = ALL;
        let mut stack = 0;
        while stack < 3 {
            let in_stack = (cols as u32 >> (3 * stack)) & 7;
            if in_stack != 0 && in_stack & (in_stack - 1) == 0 {
                keep &= !column(3 * stack + in_stack.trailing_zeros() as usize);
            }
            stack += 1;
        }
        t[cols] = keep;
        cols += 1;
    }
    t
};

/// The cells of box `b` (0..3) of a band: its minirow in each row.
const fn box_cells(b: usize) -> u32 {
    minirow(b) | minirow(b) << 9 | minirow(b) << 18
}

/// The columns (9 bits) where a band's word has a cell.
#[inline(always)]
const fn columns(word: u32) -> u32 {
    (word | word >> 9 | word >> 18) & 511
}

/// The cells of a band in the columns `cols` (9 bits).
#[inline(always)]
const fn spread(cols: u32) -> u32 {
    cols | cols << 9 | cols << 18
}

/// For the columns of two bands (9 bits each), the columns c such that
/// the two can take the other two columns of c's stack, one each.
#[inline(always)]
const fn pair(x: u32, y: u32) -> u32 {
    // Within each stack, column c of `next(v)` is column c + 1 of v, of
    // `after(v)` column c + 2 (mod 3).
    const fn next(v: u32) -> u32 {
        ((v >> 1) & 0o333) | ((v << 2) & 0o444)
    }
    const fn after(v: u32) -> u32 {
        ((v >> 2) & 0o111) | ((v << 1) & 0o666)
    }
    (next(x) & after(y)) | (after(x) & next(y))
}

/// For a row of 9 bits, the row itself when it is a single bit, else 0.
const SINGLE: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut x = 1;
    while x < 512 {
        if x & (x - 1) == 0 {
            t[x] = x as u32;
        }
        x += 1;
    }
    t
};

/// For each cell of a band, the other cells of its row and box in the band.
const PEERS_IN_BAND: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut p = 0;
    while p < 27 {
        let mut q = 0;
        while q < 27 {
            if q != p && (q / 9 == p / 9 || (q % 9) / 3 == (p % 9) / 3) {
                t[p] |= 1 << q;
            }
            q += 1;
        }
        p += 1;
    }
    t
};

/// Bit `k` set where `bytes[k]` is not 0, for up to 64 bytes: eight at a
/// time, each byte's "not 0" in its top bit, the eight gathered by one
/// multiply (a fold of a shift a byte was a quarter of a Sudoku line's
/// reading). The givens of a line of cells, for the band solver and for the
/// batch's reading of lines of every size.
///
/// ```
/// use puzzles::bands::nonzero_bits;
/// assert_eq!(nonzero_bits(&[0, 3, 0, 0, 0, 0, 0, 0, 9, 1]), 0b11_0000_0010);
/// assert_eq!(nonzero_bits(&[7; 64]), u64::MAX);
/// ```
#[inline(always)]
pub fn nonzero_bits(bytes: &[u8]) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let mut bits = 0u64;
    for (i, chunk) in bytes.chunks(8).take(8).enumerate() {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        // The top bit of each byte: its own, or a carry out of its low 7.
        let top = (((x & LOW7) + LOW7) | x) & !LOW7;
        bits |= ((top >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * i);
    }
    bits
}

/// The two other bands of each band.
const OTHER_BANDS: [[usize; 2]; 3] = [[1, 2], [0, 2], [0, 1]];

/// The state of a grid: the words, the cells not yet placed, and what the
/// last count of digits per cell found.
#[derive(Clone, Copy)]
struct Grid {
    /// `cand[3 * digit + band]`: the cells of the band open to the digit.
    cand: [u32; 27],
    /// Each word as it was when last worked through (changed words are
    /// worked through again).
    seen: [u32; 27],
    /// The cells of each band not yet placed.
    unsolved: [u32; 3],
    /// The cells of each band with two digits, at the last count.
    pairs: [u32; 3],
}

/// Where a search stands: what it has found, and when to stop.
struct Found<'a> {
    /// Stop at this many solutions.
    limit: u64,
    count: u64,
    /// The first solution.
    first: Option<[u8; 81]>,
    guesses: u64,
    stop: &'a AtomicBool,
    stopped: bool,
}

impl Found<'_> {
    fn done(&self) -> bool {
        self.count >= self.limit || self.stopped
    }
}

impl Grid {
    /// The empty grid, every digit open everywhere.
    fn new() -> Grid {
        Grid {
            cand: [ALL; 27],
            seen: [0; 27],
            unsolved: [ALL; 3],
            pairs: [0; 3],
        }
    }

    /// The grid of the givens `cells` (81 values, each at most 9), all
    /// placed at once: None when two of them share a unit. The same state
    /// as placing each given in turn on the empty grid, built by words
    /// rather than by a pass over the nine digits for each given (that was
    /// a tenth of the 17-clue batch).
    fn with_givens(cells: &[u8; 81]) -> Option<Grid> {
        // `given[w]`: the givens of word w; `closed[w]`: their peers in the
        // band, closed to its digit.
        let (mut given, mut closed) = ([0u32; 27], [0u32; 27]);
        // The givens by masks, not a branch per cell (the blanks fall at
        // random): 27 bits a band.
        let (head, tail) = (nonzero_bits(&cells[..64]), nonzero_bits(&cells[64..]));
        let taken = [
            head & ALL as u64,
            head >> 27 & ALL as u64,
            head >> 54 | tail << 10,
        ]
        .map(|t| t as u32 & ALL);
        for (band, part) in cells.chunks_exact(27).enumerate() {
            let mut g = taken[band];
            while g != 0 {
                let p = g.trailing_zeros() as usize;
                g &= g - 1;
                let w = 3 * (part[p] as usize - 1) + band;
                given[w] |= 1 << p;
                closed[w] |= PEERS_IN_BAND[p];
            }
        }
        let mut grid = Grid::new();
        for digit in 0..9 {
            let cols = [0, 1, 2].map(|band| columns(given[3 * digit + band]));
            for (band, [a, b]) in OTHER_BANDS.iter().enumerate() {
                let shut = closed[3 * digit + band] | spread(cols[*a] | cols[*b]);
                let w = 3 * digit + band;
                // A given closed by another of its digit: the two share a
                // row, a box (a column within the band is in one box) or a
                // column across bands.
                if given[w] & shut != 0 {
                    return None;
                }
                grid.cand[w] = (ALL & !taken[band] & !shut) | given[w];
            }
        }
        grid.unsolved = taken.map(|t| ALL & !t);
        Some(grid)
    }

    /// Places `digit` (0..9) on cell `p` of `band`: its row, box and column
    /// close to the digit and the cell to the other digits. False if the
    /// digit was no longer open there.
    #[inline(always)]
    fn place(&mut self, digit: usize, band: usize, p: usize) -> bool {
        let bit = 1u32 << p;
        let w = 3 * digit + band;
        if self.cand[w] & bit == 0 {
            return false;
        }
        self.cand[w] &= !PEERS_IN_BAND[p];
        for other in OTHER_BANDS[band] {
            self.cand[3 * digit + other] &= !column(p % 9);
        }
        for d in 0..9 {
            if d != digit {
                self.cand[3 * d + band] &= !bit;
            }
        }
        self.unsolved[band] &= !bit;
        true
    }

    /// Works through word `w` (the band's permutations, the columns it
    /// takes, the rows it places); false on a contradiction.
    #[inline(always)]
    fn settle_word<const W: usize, const DEEP: bool>(&mut self) -> bool {
        let w = W;
        let old = self.cand[w];
        let open = SHRINK[(old & 511) as usize]
            | SHRINK[((old >> 9) & 511) as usize] << 3
            | SHRINK[((old >> 18) & 511) as usize] << 6;
        let cells = old & MATCHING[open as usize];
        if cells == 0 {
            return false;
        }
        self.cand[w] = cells;
        self.seen[w] = cells;
        let (digit, band) = (w / 3, w % 3);
        // Stacks: the three bands take a stack's three columns, one each.
        // Band a keeps a column when this band and band b can take the
        // stack's two others (one each, either way round).
        let here = columns(cells);
        if DEEP {
            let [a, b] = OTHER_BANDS[band];
            let (wa, wb) = (3 * digit + a, 3 * digit + b);
            let (at_a, at_b) = (columns(self.cand[wa]), columns(self.cand[wb]));
            self.cand[wa] &= spread(pair(here, at_b));
            self.cand[wb] &= spread(pair(here, at_a));
        } else {
            // Before the first guess, only a band's one column of a stack
            // is closed in the others here; the whole rule runs when the
            // rest is stuck (`stacks`).
            let keep = CLOSED_ELSEWHERE[here as usize];
            for other in OTHER_BANDS[band] {
                self.cand[3 * digit + other] &= keep;
            }
        }
        // A row of the band with one cell left: the digit is placed there.
        let placed = SINGLE[(cells & 511) as usize]
            | SINGLE[((cells >> 9) & 511) as usize] << 9
            | SINGLE[((cells >> 18) & 511) as usize] << 18;
        let new = placed & self.unsolved[band];
        if new != 0 {
            self.unsolved[band] &= !new;
            for d in 0..9 {
                if d != digit {
                    self.cand[3 * d + band] &= !new;
                }
            }
        }
        true
    }

    /// Works through the changed words until none changes; false on a
    /// contradiction.
    #[inline(always)]
    fn settle_words<const DEEP: bool>(&mut self) -> bool {
        // Each word by a call of its own (the word a constant in it: its
        // digit, band and neighbours are known when compiled).
        macro_rules! each_word {
            ($changed:ident: $($w:literal)*) => {
                $(
                    if self.cand[$w] != self.seen[$w] {
                        $changed = true;
                        if !self.settle_word::<$w, DEEP>() {
                            return false;
                        }
                    }
                )*
            };
        }
        loop {
            let mut changed = false;
            each_word!(changed: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26);
            if !changed {
                return true;
            }
        }
    }

    /// Places the cells left with one digit, notes those with two; Err on
    /// a cell with none, Ok(whether anything was placed).
    #[inline(always)]
    fn naked_singles(&mut self) -> Result<bool, ()> {
        let mut placed = false;
        for (band, others) in OTHER_BANDS.iter().enumerate() {
            // Bit-sliced counts of each cell's digits: at least 1, 2, 3.
            let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
            for d in 0..9 {
                let m = self.cand[3 * d + band];
                three |= two & m;
                two |= one & m;
                one |= m;
            }
            if one != ALL {
                return Err(());
            }
            self.pairs[band] = two & !three;
            let singles = one & !two & self.unsolved[band];
            if singles == 0 {
                continue;
            }
            // Each digit's singles placed together (a single's other digits
            // are closed already): their peers in the band closed to the
            // digit, their columns in the other bands. Two singles of a
            // digit that see each other are a contradiction.
            placed = true;
            self.unsolved[band] &= !singles;
            for d in 0..9 {
                let mut mine = self.cand[3 * d + band] & singles;
                if mine == 0 {
                    continue;
                }
                let cols = columns(mine);
                let mut peers = 0;
                let all = mine;
                while mine != 0 {
                    peers |= PEERS_IN_BAND[mine.trailing_zeros() as usize];
                    mine &= mine - 1;
                }
                if peers & all != 0 {
                    return Err(());
                }
                self.cand[3 * d + band] &= !peers;
                for &other in others {
                    self.cand[3 * d + other] &= !spread(cols);
                }
            }
        }
        Ok(placed)
    }

    /// Deduces all it can; false on a contradiction.
    #[inline(always)]
    fn settle<const DEEP: bool>(&mut self) -> bool {
        loop {
            if !self.settle_words::<DEEP>() {
                return false;
            }
            if self.unsolved == [0; 3] {
                return true;
            }
            match self.naked_singles() {
                Err(()) => return false,
                Ok(true) => {}
                Ok(false) if DEEP || !self.stacks() => return true,
                Ok(false) => {}
            }
        }
    }

    /// Stacks, for every digit at once: a band keeps a column only when
    /// the two other bands can take the stack's two other columns, one
    /// each; whether a word changed.
    #[inline(always)]
    fn stacks(&mut self) -> bool {
        let mut changed = false;
        for digit in 0..9 {
            let w = 3 * digit;
            let c = [0, 1, 2].map(|b| columns(self.cand[w + b]));
            let keep = [pair(c[1], c[2]), pair(c[0], c[2]), pair(c[0], c[1])];
            for (b, keep) in keep.into_iter().enumerate() {
                let lose = self.cand[w + b] & !spread(keep);
                changed |= lose != 0;
                self.cand[w + b] &= !lose;
            }
        }
        changed
    }

    /// Whether a settled, solved state keeps every rule, read on the words
    /// (no grid built: building one and checking it cell by cell was 7% of
    /// the 17-clue batch). Each word has three cells, one in each row and
    /// one in each box of its band; so each row and box of a band holds
    /// the digit once, and its three columns lie in three stacks. A digit's
    /// three bands then take nine columns in all: each column once when
    /// together they take every column. The nine digits' words of a band
    /// cover its 27 cells with 27 cells: each cell one digit.
    fn keeps_rules(&self) -> bool {
        const ROWS: [u32; 3] = [511, 511 << 9, 511 << 18];
        const BOXES: [u32; 3] = [box_cells(0), box_cells(1), box_cells(2)];
        let mut ok = true;
        let mut cells = [0u32; 3];
        for digit in 0..9 {
            let mut taken = 0;
            for (band, covered) in cells.iter_mut().enumerate() {
                let w = self.cand[3 * digit + band];
                ok &= w.count_ones() == 3;
                ok &= ROWS.iter().chain(&BOXES).all(|&unit| w & unit != 0);
                taken |= columns(w);
                *covered |= w;
            }
            ok &= taken == 511;
        }
        ok && cells == [ALL; 3]
    }

    /// The grid of a solved state (one digit a cell, by `keeps_rules`).
    fn solution(&self) -> [u8; 81] {
        let mut grid = [0u8; 81];
        for d in 0..9 {
            for band in 0..3 {
                let mut m = self.cand[3 * d + band];
                while m != 0 {
                    let p = m.trailing_zeros() as usize;
                    m &= m - 1;
                    grid[27 * band + p] = d as u8 + 1;
                }
            }
        }
        grid
    }

    /// The cell to guess at: one of two digits when there is one (noted by
    /// the last count), else one of the fewest. As (band, position). Of the
    /// cells of two digits, the one with the most unplaced peers (its row
    /// and box in the band, its column in the two others; the first such):
    /// either digit there then closes the most, and the 1,905 forum-hardest
    /// puzzles took 14% fewer instructions than with the first cell of two
    /// (2.93 s against 3.39 s for the 48,766; the 17-clue ones 9% less).
    #[inline(always)]
    fn guess_cell(&self) -> (usize, usize) {
        let mut pick = (0u32, 0usize, 0usize);
        for (band, &[a, b]) in OTHER_BANDS.iter().enumerate() {
            let mut pairs = self.pairs[band] & self.unsolved[band];
            while pairs != 0 {
                let p = pairs.trailing_zeros() as usize;
                pairs &= pairs - 1;
                let col = column(p % 9);
                let score = (PEERS_IN_BAND[p] & self.unsolved[band]).count_ones()
                    + (self.unsolved[a] & col).count_ones()
                    + (self.unsolved[b] & col).count_ones()
                    + 1;
                if score > pick.0 {
                    pick = (score, band, p);
                }
            }
        }
        if pick.0 > 0 {
            return (pick.1, pick.2);
        }
        let mut best = (10, 0, 0);
        for band in 0..3 {
            let mut open = self.unsolved[band];
            while open != 0 {
                let p = open.trailing_zeros() as usize;
                open &= open - 1;
                let n = (0..9)
                    .filter(|&d| self.cand[3 * d + band] >> p & 1 != 0)
                    .count();
                if n < best.0 {
                    best = (n, band, p);
                }
            }
        }
        (best.1, best.2)
    }

    /// Settles this state (by the scalar rules, or by `settled`, the
    /// vector ones, where it is given) and, unless that ends it, picks the
    /// cell to guess at: a search's work between two guesses, all of it
    /// but the copy and the placing. Compiled once for each build (see
    /// [`builds`]).
    #[inline(always)]
    fn step<const DEEP: bool>(&mut self, settled: Option<bool>) -> Step {
        if !settled.unwrap_or_else(|| self.settle::<DEEP>()) {
            return Step::Dead;
        }
        if self.unsolved == [0; 3] {
            return Step::Solved;
        }
        let (band, p) = self.guess_cell();
        Step::Guess(band, p)
    }

    /// Searches on from this state, recording solutions in `found`, in
    /// the build `BUILD` (see [`builds`]), the recursion too
    /// ([`builds::search_in`]): the copies and the placing are a tenth of
    /// the time.
    #[inline(always)]
    fn search<const DEEP: bool, const BUILD: u8>(mut self, found: &mut Found) {
        loop {
            if builds::hand_over::<BUILD>(&self) {
                builds::search_in::<true, { builds::SCALAR_V3 }>(self, found);
                return;
            }
            let (band, p) = match builds::step_in::<DEEP, BUILD>(&mut self) {
                Step::Dead => return,
                Step::Solved => {
                    // The rules above leave only grids that keep every rule;
                    // one that did not would be a bug here, said loudly (the
                    // batch turns a panic into an internal error), never an
                    // answer.
                    assert!(
                        self.keeps_rules(),
                        "the band solver settled on a grid that breaks the rules"
                    );
                    if found.count == 0 {
                        found.first = Some(self.solution());
                    }
                    found.count += 1;
                    return;
                }
                Step::Guess(band, p) => (band, p),
            };
            found.guesses += 1;
            if found.guesses.is_multiple_of(GUESSES_PER_LOOK) && found.stop.load(Ordering::Relaxed)
            {
                found.stopped = true;
                return;
            }
            let bit = 1u32 << p;
            let mut digits = (0..9).filter(|&d| self.cand[3 * d + band] & bit != 0);
            let Some(mut digit) = digits.next() else {
                return;
            };
            // Each digit but the last on a copy; the last on this state, in
            // this loop (no recursion for it).
            for next in digits {
                let mut child = self;
                child.place(digit, band, p);
                builds::search_in::<true, BUILD>(child, found);
                if found.done() {
                    return;
                }
                digit = next;
            }
            self.place(digit, band, p);
        }
    }
}

/// What a search's step left: a contradiction, a solved grid, or the cell
/// (band, position) to guess at.
enum Step {
    Dead,
    Solved,
    Guess(usize, usize),
}

/// What a search of one puzzle found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The solutions, up to the limit asked.
    pub count: u64,
    /// The first solution found.
    pub first: Option<[u8; 81]>,
    /// False if the stop flag cut the search short.
    pub complete: bool,
    /// The guesses made (the search's nodes).
    pub guesses: u64,
}

/// Solves the 9 x 9 puzzle `cells` (81 values, `0` a blank): the solutions
/// up to `limit` (1: the first; 2: the first and whether it is unique), the
/// first kept, with a look at `stop` every thousand guesses. None if `cells`
/// is not 81 values of `0..=9`.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use puzzles::bands::solve;
/// let line = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
/// let cells: Vec<u8> = line.bytes().map(|b| if b == b'.' { 0 } else { b - b'0' }).collect();
/// let out = solve(&cells, 2, &AtomicBool::new(false)).expect("a 9 x 9 grid");
/// assert_eq!(out.count, 1);
/// assert_eq!(out.first.unwrap()[0], 4);
/// ```
pub fn solve(cells: &[u8], limit: u64, stop: &AtomicBool) -> Option<Outcome> {
    solve_in(cells, limit, stop, builds::best())
}

/// [`solve`], in the build `build` (see [`builds`]; the tests run each
/// one the machine has against the baseline).
fn solve_in(cells: &[u8], limit: u64, stop: &AtomicBool, build: u8) -> Option<Outcome> {
    let cells: &[u8; 81] = cells.try_into().ok()?;
    if cells.iter().any(|&v| v > 9) {
        return None;
    }
    let mut found = Found {
        limit,
        count: 0,
        first: None,
        guesses: 0,
        stop,
        stopped: false,
    };
    if let Some(grid) = Grid::with_givens(cells).filter(|_| limit > 0) {
        builds::search_from(grid, &mut found, build);
    }
    Some(Outcome {
        count: found.count.min(limit),
        first: found.first,
        complete: !found.stopped,
        guesses: found.guesses,
    })
}

#[cfg(test)]
mod tests;
