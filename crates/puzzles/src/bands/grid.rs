//! The 9 x 9 grid by bands: its 27 words, the scalar rules that settle
//! them, and the choice of the cell to guess at (the rules are described
//! in the module above). The search over these states, in each build, is
//! in `builds`; the same rules on vector registers in `simd`.

/// The 27 cells of a band.
pub(super) const ALL: u32 = (1 << 27) - 1;

/// The three bits of minirow `m` (0..3) of a 9-bit row.
pub(super) const fn minirow(m: usize) -> u32 {
    7 << (3 * m)
}

/// For a row of 9 bits, which of its three minirows hold a bit (3 bits).
pub(super) const SHRINK: [u32; 512] = {
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
pub(super) const MATCHING: [u32; 512] = {
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
pub(super) const fn column(c: usize) -> u32 {
    (1 | 1 << 9 | 1 << 18) << c
}

/// For the columns (9 bits) where a digit may go in one band, the cells the
/// two other bands keep for it: a column that is the band's only one in its
/// stack is taken, and closed to them.
pub(super) const CLOSED_ELSEWHERE: [u32; 512] = {
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
pub(super) const fn box_cells(b: usize) -> u32 {
    minirow(b) | minirow(b) << 9 | minirow(b) << 18
}

/// The columns (9 bits) where a band's word has a cell.
#[inline(always)]
pub(super) const fn columns(word: u32) -> u32 {
    (word | word >> 9 | word >> 18) & 511
}

/// The cells of a band in the columns `cols` (9 bits).
#[inline(always)]
pub(super) const fn spread(cols: u32) -> u32 {
    cols | cols << 9 | cols << 18
}

/// For the columns of two bands (9 bits each), the columns c such that
/// the two can take the other two columns of c's stack, one each.
#[inline(always)]
pub(super) const fn pair(x: u32, y: u32) -> u32 {
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
pub(super) const SINGLE: [u32; 512] = {
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
pub(super) const PEERS_IN_BAND: [u32; 27] = {
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
pub(super) const OTHER_BANDS: [[usize; 2]; 3] = [[1, 2], [0, 2], [0, 1]];

/// The state of a grid: the words, the cells not yet placed, and what the
/// last count of digits per cell found.
#[derive(Clone, Copy)]
pub(super) struct Grid {
    /// `cand[3 * digit + band]`: the cells of the band open to the digit.
    pub(super) cand: [u32; 27],
    /// Each word as it was when last worked through (changed words are
    /// worked through again).
    pub(super) seen: [u32; 27],
    /// The cells of each band not yet placed.
    pub(super) unsolved: [u32; 3],
    /// The cells of each band with two digits, at the last count.
    pub(super) pairs: [u32; 3],
}

impl Grid {
    /// The empty grid, every digit open everywhere.
    pub(super) fn new() -> Grid {
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
    pub(super) fn with_givens(cells: &[u8; 81]) -> Option<Grid> {
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
    pub(super) fn place(&mut self, digit: usize, band: usize, p: usize) -> bool {
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
    pub(super) fn settle_word<const W: usize, const DEEP: bool>(&mut self) -> bool {
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
    pub(super) fn settle_words<const DEEP: bool>(&mut self) -> bool {
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
    pub(super) fn naked_singles(&mut self) -> Result<bool, ()> {
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
    pub(super) fn settle<const DEEP: bool>(&mut self) -> bool {
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
    pub(super) fn stacks(&mut self) -> bool {
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
    pub(super) fn keeps_rules(&self) -> bool {
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
    pub(super) fn solution(&self) -> [u8; 81] {
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
    pub(super) fn guess_cell(&self) -> (usize, usize) {
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
    /// `builds`).
    #[inline(always)]
    pub(super) fn step<const DEEP: bool>(&mut self, settled: Option<bool>) -> Step {
        if !settled.unwrap_or_else(|| self.settle::<DEEP>()) {
            return Step::Dead;
        }
        if self.unsolved == [0; 3] {
            return Step::Solved;
        }
        let (band, p) = self.guess_cell();
        Step::Guess(band, p)
    }
}

/// What a search's step left: a contradiction, a solved grid, or the cell
/// (band, position) to guess at.
pub(super) enum Step {
    Dead,
    Solved,
    Guess(usize, usize),
}
