//! Clique cuts for set partitioning: cutting planes that the engine's LP
//! tree (`covering-xc`, `cost/lp_tree`) adds to its root's relaxation.
//!
//! Two options that share an item cannot both be in an exact cover (they
//! *conflict*); options that conflict two by two (a *clique* of the
//! conflict graph) hold at most one between them, `sum x_j <= 1`. Where all
//! share one item the item's row says so already; where they do not (three
//! options on items {a, b}, {b, c}, {a, c}), the row is new, and a
//! fractional solution of the relaxation may break it (each at 1/2: 3/2).
//! Such rows are what MIP solvers add first to set partitioning: on air05
//! four rounds of them (37 cuts) raise the root's bound from 25,877.6 to
//! 25,968.2 (the optimum 26,374; HiGHS's cuts, of every kind, reach
//! 25,974.6), on air04 from 55,535.4 to 55,640.1 (of 56,137), on a
//! generated crew-like 646 x 7,292 from 64,901 to 65,141 (of 65,304).
//!
//! Separation is greedy, as in the MIP solvers' first pass: from each
//! fractional column in turn, by value, the fractional columns that
//! conflict with all those taken so far; a clique whose values sum past 1
//! is a cut. It looks for them only among fractional columns, where the
//! point to cut lies (a few hundred on an airline crew root). Then each
//! is *lifted*: made a maximal clique with the other columns, those of
//! least reduced cost first, so that it still holds the columns that
//! replace its own deeper in the tree (on air05 one round of cuts so
//! lifted raised the bound by 68, unlifted by 31).
//!
//! ```
//! use xc::clique_cuts;
//! // Options {0, 1}, {1, 2}, {0, 2}, each at 1/2: a clique summing to 3/2.
//! let (start, rows) = ([0, 2, 4, 6], [0, 1, 1, 2, 0, 2]);
//! assert_eq!(clique_cuts(&start, &rows, &[0.5, 0.5, 0.5], None, 10), vec![vec![0, 1, 2]]);
//! ```

use std::collections::HashSet;

/// How far past 1 a clique's values must sum to be a cut (a smaller
/// excess would raise the bound by about nothing, and cost a row).
const EXCESS: f64 = 1e-3;
/// Columns looked at to lift a cut, at most (those of least reduced
/// cost): on a problem of long rows, thousands meet all of a clique.
const LIFT_MOST: usize = 200;
/// Values nearer than this to 0 or 1 are whole.
const WHOLE: f64 = 1e-6;

/// Clique cuts broken by the values `x` of the columns whose rows are
/// `rows[start[j]..start[j + 1]]`: at most `most` of them, each a list
/// of columns, increasing, summing past 1 (the most broken first); each
/// lifted by the reduced costs `lift`, if given.
pub fn clique_cuts(
    start: &[u32],
    rows: &[u32],
    x: &[f64],
    lift: Option<&[f64]>,
    most: usize,
) -> Vec<Vec<u32>> {
    let n = x.len();
    debug_assert_eq!(start.len(), n + 1);
    let rows_of = |j: usize| &rows[start[j] as usize..start[j + 1] as usize];
    let mut frac: Vec<usize> = (0..n)
        .filter(|&j| x[j] > WHOLE && x[j] < 1.0 - WHOLE)
        .collect();
    frac.sort_by(|&a, &b| x[b].total_cmp(&x[a]).then(a.cmp(&b)));
    let f = frac.len();
    if f < 3 {
        return Vec::new();
    }
    // The conflicts among them, as bit sets: two conflict when they share
    // a row.
    let words = f.div_ceil(64);
    let mut conflict = vec![0u64; f * words];
    let m = rows.iter().map(|&r| r as usize + 1).max().unwrap_or(0);
    let mut in_row: Vec<Vec<usize>> = vec![Vec::new(); m];
    for (i, &j) in frac.iter().enumerate() {
        for &r in rows_of(j) {
            in_row[r as usize].push(i);
        }
    }
    for members in &in_row {
        for &a in members {
            for &b in members {
                conflict[a * words + b / 64] |= 1 << (b % 64);
            }
        }
    }
    let mut found: Vec<(f64, Vec<u32>)> = Vec::new();
    let mut seen: HashSet<Vec<u32>> = HashSet::new();
    let mut open = vec![0u64; words];
    for s in 0..f {
        // The columns that conflict with every one taken: those after in
        // the order of values, then those before.
        open.copy_from_slice(&conflict[s * words..(s + 1) * words]);
        let mut clique = vec![s];
        let mut sum = x[frac[s]];
        for i in (s + 1..f).chain(0..s) {
            if open[i / 64] & (1 << (i % 64)) != 0 {
                clique.push(i);
                sum += x[frac[i]];
                for (o, c) in open.iter_mut().zip(&conflict[i * words..(i + 1) * words]) {
                    *o &= c;
                }
            }
        }
        if sum > 1.0 + EXCESS {
            let mut cut: Vec<u32> = clique.iter().map(|&i| frac[i] as u32).collect();
            cut.sort_unstable();
            if seen.insert(cut.clone()) {
                found.push((sum, cut));
            }
        }
    }
    // (The most broken kept before any is lifted: lifting is the dear
    // part.)
    found.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    found.truncate(most);
    if let Some(d) = lift {
        // Each cut made a maximal clique with the other columns, those of
        // least reduced cost first: a column that enters the solution
        // deeper in the tree then still meets the cut.
        let mut by_row: Vec<Vec<u32>> = vec![Vec::new(); m];
        for j in 0..n {
            for &r in rows_of(j) {
                by_row[r as usize].push(j as u32);
            }
        }
        let mut hits = vec![0u32; n];
        let mut mark = vec![false; m];
        for (_, cut) in found.iter_mut() {
            // The columns that share a row with every member (counted
            // once a member).
            let mut touched = Vec::new();
            for &a in cut.iter() {
                let mut met: Vec<u32> = (rows_of(a as usize).iter())
                    .flat_map(|&r| by_row[r as usize].iter().copied())
                    .collect();
                met.sort_unstable();
                met.dedup();
                for c in met {
                    if hits[c as usize] == 0 {
                        touched.push(c);
                    }
                    hits[c as usize] += 1;
                }
            }
            let size = cut.len() as u32;
            let mut more: Vec<u32> = touched
                .iter()
                .copied()
                .filter(|&c| hits[c as usize] == size && cut.binary_search(&c).is_err())
                .collect();
            for &c in &touched {
                hits[c as usize] = 0;
            }
            more.sort_by(|&a, &b| d[a as usize].total_cmp(&d[b as usize]).then(a.cmp(&b)));
            more.truncate(LIFT_MOST);
            let mut added: Vec<u32> = Vec::new();
            for c in more {
                let these = rows_of(c as usize);
                for &r in these {
                    mark[r as usize] = true;
                }
                if (added.iter()).all(|&b| rows_of(b as usize).iter().any(|&r| mark[r as usize])) {
                    added.push(c);
                }
                for &r in these {
                    mark[r as usize] = false;
                }
            }
            cut.extend(added);
            cut.sort_unstable();
        }
    }
    found.into_iter().map(|(_, cut)| cut).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use xc::Rng;

    #[test]
    fn every_cut_is_a_clique_broken_by_the_point() {
        let mut rng = Rng::new(62);
        let mut cuts_seen = 0;
        for _ in 0..200 {
            let m = 3 + rng.below(12) as u32;
            let n = 3 + rng.below(30) as usize;
            let (mut start, mut rows) = (vec![0u32], Vec::new());
            for _ in 0..n {
                let mut these: Vec<u32> = (0..1 + rng.below(3))
                    .map(|_| rng.below(m as u64) as u32)
                    .collect();
                these.sort_unstable();
                these.dedup();
                rows.extend(these);
                start.push(rows.len() as u32);
            }
            let x: Vec<f64> = (0..n)
                .map(|_| match rng.below(4) {
                    0 => 0.0,
                    1 => 1.0,
                    _ => rng.below(1000) as f64 / 1000.0,
                })
                .collect();
            let rows_of =
                |j: u32| &rows[start[j as usize] as usize..start[j as usize + 1] as usize];
            let d: Vec<f64> = (0..n).map(|_| rng.below(100) as f64).collect();
            let lift = (rng.below(2) == 0).then_some(&d[..]);
            let cuts = clique_cuts(&start, &rows, &x, lift, 5);
            assert!(cuts.len() <= 5);
            for cut in &cuts {
                cuts_seen += 1;
                let sum: f64 = cut.iter().map(|&j| x[j as usize]).sum();
                assert!(sum > 1.0 + EXCESS - 1e-9, "{cut:?} sums to {sum}");
                for (i, &a) in cut.iter().enumerate() {
                    assert!(i == 0 || cut[i - 1] < a, "{cut:?} not increasing");
                    for &b in &cut[i + 1..] {
                        let shared = rows_of(a).iter().any(|r| rows_of(b).contains(r));
                        assert!(shared, "{a} and {b} of {cut:?} do not conflict");
                    }
                }
            }
        }
        assert!(cuts_seen > 20, "only {cuts_seen} cuts in 200 cases");
    }
}
