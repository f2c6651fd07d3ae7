//! The kinds of a Sudoku matrix's items (steps 1 and 2 of the module's
//! text): cells, then lines and boxes.

/// The cells of a side, and of the grid.
pub(super) const N: usize = 9;
pub(super) const CELLS: usize = N * N;

/// What an item of the matrix is found to be.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Kind {
    Unknown,
    Cell,
    Line,
    Box,
}

/// Union-find over `0..n`, halving paths.
pub(super) struct Sets(Vec<u32>);

impl Sets {
    pub(super) fn new(n: usize) -> Sets {
        Sets((0..n as u32).collect())
    }
    pub(super) fn len(&self) -> usize {
        self.0.len()
    }
    pub(super) fn find(&mut self, mut x: usize) -> usize {
        while self.0[x] as usize != x {
            let up = self.0[self.0[x] as usize];
            self.0[x] = up;
            x = up as usize;
        }
        x
    }
    /// Joins the sets of `a` and `b`; true if they were apart.
    pub(super) fn unite(&mut self, a: usize, b: usize) -> bool {
        let (a, b) = (self.find(a), self.find(b));
        if a == b {
            return false;
        }
        self.0[a.max(b)] = a.min(b) as u32;
        true
    }
}

/// Is item `x` in a pair: do two options share it and another item?
/// (`together`: how many options hold each two of the `n` items.)
pub(super) fn paired(together: &[u8], n: usize, x: usize) -> bool {
    together[x * n..(x + 1) * n].iter().any(|&t| t >= 2)
}

/// Option `o` as (cell, line, line, box) by the items' `kind`; `None` if
/// its kinds are not one cell, two lines and a box.
pub(super) fn as_sorted(o: &[usize; 4], kind: &[Kind]) -> Option<[usize; 4]> {
    let (mut row, mut lines) = ([usize::MAX; 4], 1);
    for &x in o {
        match kind[x] {
            Kind::Cell if row[0] == usize::MAX => row[0] = x,
            Kind::Line if lines < 3 => {
                row[lines] = x;
                lines += 1;
            }
            Kind::Box if row[3] == usize::MAX => row[3] = x,
            _ => return None,
        }
    }
    (!row.contains(&usize::MAX)).then_some(row)
}

/// Which items are cells (step 1 of the module's text). An item in a pair
/// is not; nor is one whose options (two or more) all hold items of one
/// digit, as far as the items known not to be cells tell the digits apart
/// (a cell's candidates are of different digits); an option whose other
/// three items are not cells has its cell. Two items held by the same
/// options alone are alike, and one of them is taken for the cell. `None`
/// where this leaves an option without exactly one cell.
pub(super) fn cells_of(options: &[[usize; 4]], together: &[u8], n: usize) -> Option<Vec<bool>> {
    let mut of_item: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, o) in options.iter().enumerate() {
        for &x in o {
            of_item[x].push(k);
        }
    }
    let mut other: Vec<bool> = (0..n).map(|x| paired(together, n, x)).collect();
    let mut cell = vec![false; n];
    loop {
        let mut changed = false;
        // The digits, as far as the items known not to be cells join them.
        let mut digits = Sets::new(n);
        for o in options {
            let mut known = o.iter().copied().filter(|&x| other[x]);
            if let Some(first) = known.next() {
                for x in known {
                    digits.unite(first, x);
                }
            }
        }
        for o in options {
            let cells = o.iter().filter(|&&x| cell[x]).count();
            let unknown: Vec<usize> = o
                .iter()
                .copied()
                .filter(|&x| !cell[x] && !other[x])
                .collect();
            match (cells, unknown.len()) {
                (2.., _) => return None,
                (1, 1..) => {
                    for x in unknown {
                        other[x] = true;
                    }
                    changed = true;
                }
                (0, 1) => {
                    cell[unknown[0]] = true;
                    changed = true;
                }
                (0, 0) => return None,
                _ => {}
            }
        }
        let open: Vec<usize> = (0..n)
            .filter(|&x| !cell[x] && !other[x] && of_item[x].len() >= 2)
            .collect();
        for x in open {
            let mut digit = None;
            let one = of_item[x].iter().all(|&k| {
                let Some(&y) = options[k].iter().find(|&&y| other[y]) else {
                    return false;
                };
                let d = digits.find(y);
                *digit.get_or_insert(d) == d
            });
            if one {
                other[x] = true;
                changed = true;
            }
        }
        if !changed {
            // Left: options of two or more unknown items. Items held by
            // the same options alone are alike: any of them may be the cell.
            for o in options {
                let unknown: Vec<usize> = o
                    .iter()
                    .copied()
                    .filter(|&x| !cell[x] && !other[x])
                    .collect();
                if unknown.len() >= 2
                    && o.iter().all(|&x| !cell[x])
                    && unknown.iter().all(|&x| of_item[x] == of_item[unknown[0]])
                {
                    cell[unknown[0]] = true;
                    changed = true;
                    break;
                }
            }
        }
        if !changed {
            break;
        }
    }
    options
        .iter()
        .all(|o| o.iter().filter(|&&x| cell[x]).count() == 1)
        .then_some(cell)
}

/// Lines and boxes among the items that are not cells (step 2): settled
/// by the pairs option by option, and where that leaves items open, each
/// way tried in turn (at most [`MOST_TRIES`] ways in all) until `read`
/// accepts one.
pub(super) fn tried(
    mut kind: Vec<Kind>,
    rest: &[[usize; 3]],
    together: &[u8],
    n: usize,
    leaves: &mut u32,
    read: &dyn Fn(&[Kind]) -> Option<[u8; CELLS]>,
) -> Option<[u8; CELLS]> {
    if !settle(&mut kind, rest, together, n) {
        return None;
    }
    let Some(x) = kind.iter().position(|&k| k == Kind::Unknown) else {
        *leaves += 1;
        return read(&kind);
    };
    for k in [Kind::Box, Kind::Line] {
        if *leaves >= MOST_TRIES {
            return None;
        }
        let mut next = kind.clone();
        next[x] = k;
        if let Some(grid) = tried(next, rest, together, n, leaves, read) {
            return Some(grid);
        }
    }
    None
}

/// The ways of reading lines and boxes [`tried`] takes at most.
const MOST_TRIES: u32 = 16;

/// Settles what the pairs say of the items' kinds: two options share two
/// items only as a line and a box, and each option holds one box and two
/// lines. False on a contradiction.
pub(super) fn settle(kind: &mut [Kind], rest: &[[usize; 3]], together: &[u8], n: usize) -> bool {
    let pair = |a: usize, b: usize| together[a * n + b] >= 2;
    loop {
        let mut changed = false;
        for r in rest {
            for i in 0..3 {
                let (a, b, c) = (r[i], r[(i + 1) % 3], r[(i + 2) % 3]);
                let now = match (kind[a], kind[b], kind[c]) {
                    // Paired with both others: only a box is.
                    (Kind::Unknown, _, _) if pair(a, b) && pair(a, c) => Kind::Box,
                    (Kind::Unknown, Kind::Box, _) | (Kind::Unknown, _, Kind::Box) => Kind::Line,
                    // The other two a pair: the box is one of them.
                    (Kind::Unknown, _, _) if pair(b, c) => Kind::Line,
                    (Kind::Unknown, Kind::Line, Kind::Line) => Kind::Box,
                    (Kind::Unknown, Kind::Line, _) if pair(a, b) => Kind::Box,
                    (Kind::Unknown, _, Kind::Line) if pair(a, c) => Kind::Box,
                    _ => continue,
                };
                kind[a] = now;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    // At most one box and two lines an option, and no pair of two lines or two boxes.
    rest.iter().all(|r| {
        let boxes = r.iter().filter(|&&x| kind[x] == Kind::Box).count();
        let lines = r.iter().filter(|&&x| kind[x] == Kind::Line).count();
        let alike = (0..3).any(|i| {
            let (a, b) = (r[i], r[(i + 1) % 3]);
            pair(a, b) && kind[a] == kind[b] && kind[a] != Kind::Unknown
        });
        boxes <= 1 && lines <= 2 && !alike
    })
}
