//! Where a Sudoku matrix's items lie (steps 3 to 5 of the module's text):
//! digits, boxes, lines and their sides, bands and stacks.

use super::kinds::{Kind, N, Sets, as_sorted, paired};

/// Union-find with a parity: the items on one side (rows, or columns) and
/// those across.
struct Sides {
    up: Vec<u32>,
    /// Across from the item above (1) or on its side (0).
    flip: Vec<u8>,
}

impl Sides {
    fn new(n: usize) -> Sides {
        Sides {
            up: (0..n as u32).collect(),
            flip: vec![0; n],
        }
    }
    /// The root of `x`'s set, and whether `x` is across from it.
    fn find(&mut self, x: usize) -> (usize, u8) {
        let (mut root, mut parity) = (x, 0);
        while self.up[root] as usize != root {
            parity ^= self.flip[root];
            root = self.up[root] as usize;
        }
        // Every item on the way points at the root, its parity to it kept.
        let (mut y, mut q) = (x, parity);
        while y != root {
            let (next, f) = (self.up[y] as usize, self.flip[y]);
            self.up[y] = root as u32;
            self.flip[y] = q;
            q ^= f;
            y = next;
        }
        (root, parity)
    }
    /// Puts `a` and `b` on one side (`across` 0) or across (1): true if that
    /// joined two sets, false if it was known, `None` if the contrary was.
    fn join(&mut self, a: usize, b: usize, across: u8) -> Option<bool> {
        let ((ra, pa), (rb, pb)) = (self.find(a), self.find(b));
        if ra == rb {
            return (pa ^ pb == across).then_some(false);
        }
        self.up[ra] = rb as u32;
        self.flip[ra] = pa ^ pb ^ across;
        Some(true)
    }
}

/// Puts the line items `a` and `b` on one line (so on one side): true if
/// that joined two lines, `None` if they are known to be across.
fn same_line(lines: &mut Sets, sides: &mut Sides, a: usize, b: usize) -> Option<bool> {
    sides.join(a, b, 0)?;
    Some(lines.unite(a, b))
}

/// Numbers the sets of `members` (their roots in `sets`) 0, 1, ... in the
/// order they first come; `None` past `most` of them.
fn number_sets(
    sets: &mut Sets,
    members: impl Iterator<Item = usize>,
    most: usize,
) -> Option<Vec<Option<u8>>> {
    let n = sets.len();
    let mut root_number = vec![None; n];
    let mut of = vec![None; n];
    let mut next = 0u8;
    for x in members {
        let r = sets.find(x);
        if root_number[r].is_none() {
            if next as usize == most {
                return None;
            }
            root_number[r] = Some(next);
            next += 1;
        }
        of[x] = root_number[r];
    }
    Some(of)
}

/// Kinds the places of the cells say, for an open item in no pair: the
/// lines and boxes of the options whose kinds are all known, an item whose
/// cells (two or more) lie on one of those lines is a line, in one of those
/// boxes a box. (In no pair, it cannot be both: a line's two cells in a box
/// would pair it with the box's item.) True if an item was settled.
pub(super) fn by_place(
    options: &[[usize; 4]],
    kind: &mut [Kind],
    together: &[u8],
    n: usize,
) -> bool {
    let sorted: Vec<[usize; 4]> = options.iter().filter_map(|o| as_sorted(o, kind)).collect();
    let (of_cell, mut boxes) = cells_and_boxes(&sorted, n);
    let Some((mut lines, _)) = line_units(&sorted, &of_cell, n) else {
        return false;
    };
    // Each cell's two lines and its box, where some option of it is known.
    let mut place = vec![None; n];
    for o in &sorted {
        place[o[0]] = Some([lines.find(o[1]), lines.find(o[2]), boxes.find(o[3])]);
    }
    let mut settled = false;
    let open: Vec<usize> = (0..n)
        .filter(|&x| kind[x] == Kind::Unknown && !paired(together, n, x))
        .collect();
    for x in open {
        let placed: Vec<[usize; 3]> = options
            .iter()
            .filter(|o| o.contains(&x))
            .filter_map(|o| {
                o.iter()
                    .find(|&&y| kind[y] == Kind::Cell)
                    .and_then(|&c| place[c])
            })
            .collect();
        if placed.len() < 2 {
            continue;
        }
        let on = |l: usize| placed.iter().all(|p| p[0] == l || p[1] == l);
        if on(placed[0][0]) || on(placed[0][1]) {
            kind[x] = Kind::Line;
        } else if placed.iter().all(|p| p[2] == placed[0][2]) {
            kind[x] = Kind::Box;
        } else {
            continue;
        }
        settled = true;
    }
    settled
}

/// The options of `sorted` (each as cell, line, line, box) of each cell,
/// and the box items joined into boxes: a cell's candidates lie in its box.
fn cells_and_boxes(sorted: &[[usize; 4]], n: usize) -> (Vec<Vec<usize>>, Sets) {
    let mut of_cell: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut boxes = Sets::new(n);
    for (k, o) in sorted.iter().enumerate() {
        if let Some(&first) = of_cell[o[0]].first() {
            boxes.unite(sorted[first][3], o[3]);
        }
        of_cell[o[0]].push(k);
    }
    (of_cell, boxes)
}

/// The lines and sides of the line items of `sorted` (step 4), `of_cell`
/// the options of each cell: lines joined only where the options say they
/// are one (a part of a Sudoku's options gives a part of its lines). `None`
/// on a contradiction.
fn line_units(sorted: &[[usize; 4]], of_cell: &[Vec<usize>], n: usize) -> Option<(Sets, Sides)> {
    let mut met = vec![0u8; n * n];
    for ks in of_cell {
        for (i, &k) in ks.iter().enumerate() {
            for &l in &ks[i + 1..] {
                for &a in &sorted[k][1..3] {
                    for &b in &sorted[l][1..3] {
                        met[a * n + b] = met[a * n + b].saturating_add(1);
                        met[b * n + a] = met[b * n + a].saturating_add(1);
                    }
                }
            }
        }
    }
    // Same line, and same side (rows, columns): the two line items of an
    // option are across, two of different digits that meet in two cells
    // are on one line.
    let mut lines = Sets::new(n);
    let mut sides = Sides::new(n);
    for o in sorted {
        sides.join(o[1], o[2], 1)?;
    }
    for a in 0..n {
        for b in a + 1..n {
            if met[a * n + b] >= 2 {
                same_line(&mut lines, &mut sides, a, b)?;
            }
        }
    }
    // A cell lies on one row and one column: where the sides of two of its
    // candidates' line items are known, so are their lines.
    loop {
        let mut changed = false;
        for ks in of_cell {
            let Some(&k0) = ks.first() else { continue };
            let (y0, z0) = (sorted[k0][1], sorted[k0][2]);
            for &k in &ks[1..] {
                let (y, z) = (sorted[k][1], sorted[k][2]);
                let ((r0, p0), (r, p)) = (sides.find(y0), sides.find(y));
                if r0 != r {
                    continue;
                }
                let (a, b) = if p0 == p {
                    ((y0, y), (z0, z))
                } else {
                    ((y0, z), (z0, y))
                };
                changed |= same_line(&mut lines, &mut sides, a.0, a.1)?;
                changed |= same_line(&mut lines, &mut sides, b.0, b.1)?;
            }
        }
        if !changed {
            break;
        }
    }
    Some((lines, sides))
}

/// The parts of the digits at most (items of one digit joined by the
/// options they share; a digit whose candidates fall apart has two): the
/// parts are given their digits by `read`.
pub(super) const PARTS: usize = 27;

/// Where the items lie (steps 3 to 5).
pub(super) struct Layout {
    /// The part of its digit (from 0) of each line and box item.
    pub(super) digit: Vec<Option<u8>>,
    /// The box of each box item, 0..9 row by row.
    pub(super) box_of: Vec<u8>,
    /// 0 for a row's item, 1 for a column's, of each line item.
    pub(super) side: Vec<u8>,
    /// The row or column of each line item.
    pub(super) line_of: Vec<u8>,
}

/// The digits, boxes, rows and columns of the items of `sorted` (each option
/// as cell, line, line, box).
pub(super) fn layout(sorted: &[[usize; 4]], n: usize) -> Option<Layout> {
    // The items of `sorted` alone (a part of the options may be left out).
    let mut kinds = vec![Kind::Unknown; n];
    for o in sorted {
        kinds[o[0]] = Kind::Cell;
        kinds[o[1]] = Kind::Line;
        kinds[o[2]] = Kind::Line;
        kinds[o[3]] = Kind::Box;
    }
    // Step 3: the digits, and the boxes.
    let mut same = Sets::new(n);
    for o in sorted {
        same.unite(o[1], o[2]);
        same.unite(o[1], o[3]);
    }
    let digit = number_sets(
        &mut same,
        (0..n).filter(|&x| matches!(kinds[x], Kind::Line | Kind::Box)),
        PARTS,
    )?;
    let (of_cell, mut boxes) = cells_and_boxes(sorted, n);
    for ks in &of_cell {
        // A cell's candidates are of different digits.
        let mut seen = 0u16;
        for &k in ks {
            let d = digit[sorted[k][1]]?;
            if seen & (1 << d) != 0 {
                return None;
            }
            seen |= 1 << d;
        }
    }
    let box_number = number_sets(&mut boxes, (0..n).filter(|&x| kinds[x] == Kind::Box), N)?;
    // Step 4: the lines.
    let (mut lines, mut sides) = line_units(sorted, &of_cell, n)?;
    let roots: Vec<usize> = (0..n).map(|x| lines.find(x)).collect();
    if sorted.iter().any(|o| roots[o[1]] == roots[o[2]]) {
        return None;
    }
    // One side rows, the other columns; lines whose side is not known
    // against the rest's cannot be laid out.
    let first = sides.find(sorted.first()?[1]).0;
    let mut item_side = vec![0u8; n];
    for x in (0..n).filter(|&x| kinds[x] == Kind::Line) {
        let (r, p) = sides.find(x);
        if r != first {
            return None;
        }
        item_side[x] = p;
    }
    // Step 5: bands and stacks, from the lines that share a box.
    let mut line_number = vec![None; n];
    let mut box_place = [(0u8, 0u8); N];
    for s in 0..2u8 {
        let mut groups = Sets::new(n);
        let mut line_of_box: Vec<Option<usize>> = vec![None; N];
        for o in sorted {
            let l = if item_side[o[1]] == s {
                roots[o[1]]
            } else {
                roots[o[2]]
            };
            let b = box_number[o[3]]? as usize;
            match line_of_box[b] {
                Some(first) => {
                    groups.unite(first, l);
                }
                None => line_of_box[b] = Some(l),
            }
        }
        let members: Vec<usize> = (0..n)
            .filter(|&x| kinds[x] == Kind::Line && item_side[x] == s)
            .map(|x| roots[x])
            .collect();
        let group = number_sets(&mut groups, members.iter().copied(), 3)?;
        // Lines within each group numbered as they come, the groups' lines
        // made up to three each (lines of givens alone hold no item).
        let mut taken = [0u8; 3];
        let mut number = vec![None; n];
        for &l in &members {
            if number[l].is_none() {
                let g = group[l]? as usize;
                if taken[g] == 3 {
                    return None;
                }
                number[l] = Some(g as u8 * 3 + taken[g]);
                taken[g] += 1;
            }
        }
        for x in (0..n).filter(|&x| kinds[x] == Kind::Line && item_side[x] == s) {
            line_number[x] = number[roots[x]];
        }
        for (b, l) in line_of_box.iter().enumerate() {
            if let Some(l) = l {
                let g = group[*l]?;
                if s == 0 {
                    box_place[b].0 = g;
                } else {
                    box_place[b].1 = g;
                }
            }
        }
    }
    let box_of: Vec<u8> = (0..n)
        .map(|x| match box_number[x] {
            Some(b) => box_place[b as usize].0 * 3 + box_place[b as usize].1,
            None => 0,
        })
        .collect();
    let line_of = line_number.iter().map(|l| l.unwrap_or(0)).collect();
    Some(Layout {
        digit,
        box_of,
        side: item_side,
        line_of,
    })
}
