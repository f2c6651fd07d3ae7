//! Cutting planes: rows added to a solved relaxation, and loose ones
//! dropped, with the basis kept (no inversion).

use std::sync::Arc;

use crate::table::Table;

use super::DualSimplex;
use super::basis::by_rows;
use super::kernels::{add_times, wide_vectors};

impl DualSimplex {
    /// Adds a row `sum x_j <= 1` over the columns of each cut (each below
    /// [`Self::n_columns`], once): a *cutting plane*, met by every whole
    /// solution and, where the last solve's values break it, not by them.
    /// The basis is kept: each new row's slack (its artificial, between 0
    /// and 1) is basic in it, and the inverse grows by the rows
    /// `-C B^-1` (`C` the cuts' entries on the basic columns), exactly,
    /// with no inversion; the next solve starts from there, dual feasible
    /// as before (the new rows' multipliers are 0).
    pub fn add_cuts(&mut self, cuts: &[Vec<u32>]) {
        if cuts.is_empty() {
            return;
        }
        self.finishing = false;
        let (m0, n) = (self.m, self.n);
        let m = m0 + cuts.len();
        // The table again: each column's rows, then its cuts' rows; the
        // artificials, the new ones last.
        let mut extra: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (i, cut) in cuts.iter().enumerate() {
            for &j in cut {
                debug_assert!((j as usize) < n);
                extra[j as usize].push((m0 + i) as u32);
            }
        }
        let old = self.table.columns();
        let mut start = Vec::with_capacity(n + m + 1);
        let mut rows = Vec::with_capacity(self.table.rows.len() + m);
        start.push(0u32);
        for (j, more) in extra.iter().enumerate() {
            rows.extend_from_slice(old.rows_of(j as u32));
            rows.extend_from_slice(more);
            start.push(rows.len() as u32);
        }
        for r in 0..m as u32 {
            rows.push(r);
            start.push(rows.len() as u32);
        }
        let mut cost = self.table.cost.clone();
        cost.resize(n + m, 0.0);
        let table = Table { start, rows, cost };
        let (row_start, row_columns) = by_rows(&table, m);
        // The inverse: the old rows (0 in the new columns), then for each
        // cut the sum of the old rows of its basic columns, negated, and 1
        // at its own place.
        let mut binv = vec![0.0; m * m];
        for r in 0..m0 {
            binv[r * m..r * m + m0].copy_from_slice(&self.binv[r * m0..(r + 1) * m0]);
        }
        let wide = wide_vectors();
        for (i, cut) in cuts.iter().enumerate() {
            let at = (m0 + i) * m;
            for &j in cut {
                if let Some(r) = self.row_of[j as usize] {
                    let old = &self.binv[r * m0..(r + 1) * m0];
                    add_times(&mut binv[at..at + m0], -1.0, old, wide);
                }
            }
            binv[at + m0 + i] = 1.0;
            let norm = binv[at..at + m].iter().map(|v| v * v).sum();
            self.weight.push(norm);
        }
        self.binv = binv;
        self.table = Arc::new(table);
        self.row_start = Arc::new(row_start);
        self.row_columns = Arc::new(row_columns);
        self.priced.resize(n + m, 0.0);
        self.rhs.resize(m, 1.0);
        self.lower.resize(n + m, 0.0);
        self.upper.resize(n + m, 1.0);
        self.head.extend(n + m0..n + m);
        self.row_of.extend((m0..m).map(Some));
        self.x.resize(n + m, 0.0);
        self.d.resize(n + m, 0.0);
        self.y.resize(m, 0.0);
        self.alpha.resize(n + m, 0.0);
        self.column.resize(m, 0.0);
        self.work.resize(m, 0.0);
        self.stamp.resize(n + m, u64::MAX);
        self.m = m;
        // (The slacks' values, and the cutoff's margin, with the new rows.)
        self.stale = true;
        self.set_cutoff(self.cutoff);
    }

    /// Takes out the rows from `first` on (cuts, see [`Self::add_cuts`])
    /// whose slack is basic: rows the solution does not lean on (their
    /// multipliers are 0), which only slow the iterations. The basis
    /// loses the slacks and keeps its optimum: the inverse is the old one
    /// less the slack's place and the row (the slack's column being the
    /// row's unit vector). Whether each of those rows was kept.
    pub fn drop_loose_cuts(&mut self, first: usize) -> Vec<bool> {
        let (m0, n) = (self.m, self.n);
        let keep: Vec<bool> = (first..m0).map(|r| self.row_of[n + r].is_none()).collect();
        if keep.iter().all(|&k| k) {
            return keep;
        }
        self.finishing = false;
        let kept_row = |r: usize| r < first || keep[r - first];
        // The rows kept, the new number of each, and the variables kept.
        let kept_rows: Vec<usize> = (0..m0).filter(|&r| kept_row(r)).collect();
        let m = kept_rows.len();
        let mut row_to = vec![u32::MAX; m0];
        for (to, &r) in kept_rows.iter().enumerate() {
            row_to[r] = to as u32;
        }
        let vars: Vec<usize> = (0..n).chain(kept_rows.iter().map(|&r| n + r)).collect();
        // The places of the basis kept: all but those of the dropped slacks.
        let places: Vec<usize> = (0..m0)
            .filter(|&p| self.head[p] < n || kept_row(self.head[p] - n))
            .collect();
        debug_assert_eq!(places.len(), m);
        let old = self.table.columns();
        let (mut start, mut rows) = (vec![0u32], Vec::with_capacity(self.table.rows.len()));
        for &k in &vars {
            rows.extend(
                (old.rows_of(k as u32).iter())
                    .filter(|&&r| kept_row(r as usize))
                    .map(|&r| row_to[r as usize]),
            );
            start.push(rows.len() as u32);
        }
        let cost = vars.iter().map(|&k| self.table.cost[k]).collect();
        let table = Table { start, rows, cost };
        let (row_start, row_columns) = by_rows(&table, m);
        let mut binv = vec![0.0; m * m];
        let mut weight = Vec::with_capacity(m);
        for (to, &p) in places.iter().enumerate() {
            let row = &self.binv[p * m0..(p + 1) * m0];
            let new = &mut binv[to * m..(to + 1) * m];
            for (r, &v) in row.iter().enumerate() {
                if kept_row(r) {
                    new[row_to[r] as usize] = v;
                }
            }
            weight.push(new.iter().map(|v| v * v).sum());
        }
        let pick = |v: &Vec<f64>| vars.iter().map(|&k| v[k]).collect::<Vec<f64>>();
        self.priced = pick(&self.priced);
        self.lower = pick(&self.lower);
        self.upper = pick(&self.upper);
        self.x = pick(&self.x);
        self.d = pick(&self.d);
        let var_to = |k: usize| if k < n { k } else { n + row_to[k - n] as usize };
        self.head = places.iter().map(|&p| var_to(self.head[p])).collect();
        self.row_of = vec![None; n + m];
        for (p, &k) in self.head.iter().enumerate() {
            self.row_of[k] = Some(p);
        }
        self.y = kept_rows.iter().map(|&r| self.y[r]).collect();
        self.rhs = kept_rows.iter().map(|&r| self.rhs[r]).collect();
        self.binv = binv;
        self.weight = weight;
        self.table = Arc::new(table);
        self.row_start = Arc::new(row_start);
        self.row_columns = Arc::new(row_columns);
        self.alpha = vec![0.0; n + m];
        self.column = vec![0.0; m];
        self.work = vec![0.0; m];
        self.stamp = vec![u64::MAX; n + m];
        self.m = m;
        self.stale = true;
        self.set_cutoff(self.cutoff);
        keep
    }
}
