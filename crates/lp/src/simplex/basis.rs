//! The basis: its inverse made afresh (Gauss-Jordan on the block that is
//! not artificial), the artificial basis, the values and multipliers
//! recomputed, and the matrix by rows.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::table::Table;

use super::kernels::{add_times, nonzero, wide_vectors};
use super::{DUAL_TOL, DualSimplex};

impl DualSimplex {
    /// Inverts the basis afresh. A basis found singular (rounding) is given
    /// up for the artificial one.
    ///
    /// Only the block of the basic columns on the rows whose artificial is
    /// not basic is inverted (Gauss-Jordan, partial pivoting): with `S` the
    /// rows of the basic artificials, `R` the others and `T` the basic
    /// columns, `B z = v` is `z_T = A_RT^-1 v_R` and `z_S = v_S - A_ST z_T`.
    /// The artificials, often most of the basis, cost nothing.
    ///
    /// False when `stop` was raised first (looked at every 32 columns of
    /// the elimination, which is cubic in the rows): the inverse kept is
    /// the updated one, still the basis's, and is made again at the next
    /// solve.
    #[inline(never)]
    pub(super) fn refactor(&mut self, stop: &AtomicBool) -> bool {
        let (m, n) = (self.m, self.n);
        // R's rows and T's positions, numbered 0..t alike.
        let mut index_of_row = vec![usize::MAX; m];
        let mut rows_r = Vec::new();
        for (r, index) in index_of_row.iter_mut().enumerate() {
            if self.row_of[n + r].is_none() {
                *index = rows_r.len();
                rows_r.push(r);
            }
        }
        let positions_t: Vec<usize> = (0..m).filter(|&c| self.head[c] < n).collect();
        let t = rows_r.len();
        if positions_t.len() != t {
            self.reset();
            return true;
        }
        let mut a = vec![0.0f64; t * t];
        for (tau, &c) in positions_t.iter().enumerate() {
            let k = self.head[c];
            for &i in self.rows_of(k) {
                let ri = index_of_row[i as usize];
                if ri != usize::MAX {
                    a[ri * t + tau] = 1.0;
                }
            }
        }
        // Invert A_RT: rows of `a` are equations (R), columns unknowns (T);
        // after elimination row tau of `inv` gives z_T[tau] from v_R.
        let mut inv = vec![0.0f64; t * t];
        for i in 0..t {
            inv[i * t + i] = 1.0;
        }
        let wide = wide_vectors();
        for c in 0..t {
            if c % 32 == 0 && stop.load(Ordering::Relaxed) {
                return false;
            }
            let mut best = c;
            for i in c + 1..t {
                if a[i * t + c].abs() > a[best * t + c].abs() {
                    best = i;
                }
            }
            if a[best * t + c].abs() < 1e-11 {
                self.reset();
                return true;
            }
            if best != c {
                for j in 0..t {
                    a.swap(best * t + j, c * t + j);
                    inv.swap(best * t + j, c * t + j);
                }
            }
            let piv = a[c * t + c];
            if piv != 1.0 {
                for j in 0..t {
                    a[c * t + j] /= piv;
                    inv[c * t + j] /= piv;
                }
            }
            let (pivot_a, pivot_inv) = (
                a[c * t..(c + 1) * t].to_vec(),
                inv[c * t..(c + 1) * t].to_vec(),
            );
            // (The pivot row's nonzero entries: rows of `inv` stay sparse
            // long into the elimination.)
            // (Once they fill in, whole rows: the loop vectorizes.)
            let nz_a: Vec<usize> = (c..t).filter(|&j| pivot_a[j] != 0.0).collect();
            let nz_inv: Vec<usize> = (0..t).filter(|&j| pivot_inv[j] != 0.0).collect();
            let dense_a = 3 * nz_a.len() > t - c;
            let dense_inv = 3 * nz_inv.len() > t;
            for i in 0..t {
                let f = a[i * t + c];
                if i == c || f == 0.0 {
                    continue;
                }
                if dense_a {
                    add_times(&mut a[i * t + c..(i + 1) * t], -f, &pivot_a[c..], wide);
                } else {
                    for &j in &nz_a {
                        a[i * t + j] -= f * pivot_a[j];
                    }
                }
                if dense_inv {
                    add_times(&mut inv[i * t..(i + 1) * t], -f, &pivot_inv, wide);
                } else {
                    for &j in &nz_inv {
                        inv[i * t + j] -= f * pivot_inv[j];
                    }
                }
            }
        }
        // The rows of B^-1, by position.
        self.binv.fill(0.0);
        for (tau, &c) in positions_t.iter().enumerate() {
            let row = &mut self.binv[c * m..(c + 1) * m];
            for (ri, &r) in rows_r.iter().enumerate() {
                row[r] = inv[tau * t + ri];
            }
        }
        // The artificials' rows: e_r - (row r of A_ST) A_RT^-1, on the
        // columns of R.
        for r in 0..m {
            if let Some(c) = self.row_of[n + r] {
                self.binv[c * m + r] = 1.0;
            }
        }
        for (tau, &ct) in positions_t.iter().enumerate() {
            for &r in self.table.columns().rows_of(self.head[ct] as u32) {
                let Some(c) = self.row_of[n + r as usize] else {
                    continue;
                };
                for (ri, &rr) in rows_r.iter().enumerate() {
                    self.binv[c * m + rr] -= inv[tau * t + ri];
                }
            }
        }
        for (w, row) in self.weight.iter_mut().zip(self.binv.chunks_exact(m)) {
            *w = row.iter().map(|v| v * v).sum();
        }
        self.since_refactor = 0;
        true
    }

    /// The artificial basis: the first one, and the one a basis found
    /// singular is given up for.
    pub(super) fn reset(&mut self) {
        let (m, n) = (self.m, self.n);
        self.row_of = (0..n + m).map(|k| (k >= n).then(|| k - n)).collect();
        self.head = (n..n + m).collect();
        self.binv.fill(0.0);
        for r in 0..m {
            self.binv[r * m + r] = 1.0;
        }
        self.weight.fill(1.0);
        self.since_refactor = 0;
    }

    /// The multipliers, reduced costs and basic values afresh from the
    /// inverse; each nonbasic variable put at the bound its reduced cost
    /// asks for (which keeps the basis dual feasible).
    #[inline(never)]
    pub(super) fn recompute(&mut self) {
        let m = self.m;
        self.y.fill(0.0);
        let wide = wide_vectors();
        for (r, &k) in self.head.iter().enumerate() {
            let c = self.priced[k];
            if c != 0.0 {
                add_times(&mut self.y, c, &self.binv[r * m..(r + 1) * m], wide);
            }
        }
        for k in 0..self.n + m {
            if self.row_of[k].is_some() {
                self.d[k] = 0.0;
                continue;
            }
            self.d[k] = self.priced[k] - self.dot(k, &self.y);
            // A variable stays at its bound unless its reduced cost asks
            // for the other one beyond rounding (moved for a reduced cost
            // of -1e-13, it would undo the pivot that put it there: a
            // cycle of two pivots, seen on air05).
            let (lo, up, d) = (self.lower[k], self.upper[k], self.d[k]);
            let at = self.x[k];
            let stays_low = at == lo && d >= -DUAL_TOL;
            let stays_up = at == up && d <= DUAL_TOL;
            self.x[k] = if stays_low || (!stays_up && d >= 0.0) {
                lo
            } else {
                up
            };
        }
        // x_B = B^-1 (b - N x_N).
        self.work.copy_from_slice(&self.rhs);
        for k in 0..self.n + m {
            if self.row_of[k].is_none() && self.x[k] != 0.0 {
                let v = self.x[k];
                for &i in self.table.columns().rows_of(k as u32) {
                    self.work[i as usize] -= v;
                }
            }
        }
        let rest = nonzero(&self.work);
        for r in 0..m {
            self.x[self.head[r]] = self.inverse_times(r, &rest);
        }
        self.stale = false;
    }
}

/// The variables of each of the `m` rows of `table` (the artificial
/// last), counted then placed: where each row starts, and the variables.
pub(super) fn by_rows(table: &Table, m: usize) -> (Vec<u32>, Vec<u32>) {
    let mut row_start = vec![0u32; m + 1];
    for &i in &table.rows {
        row_start[i as usize + 1] += 1;
    }
    for i in 0..m {
        row_start[i + 1] += row_start[i];
    }
    let mut next = row_start.clone();
    let mut row_columns = vec![0u32; table.rows.len()];
    for k in 0..table.start.len() - 1 {
        for &i in table.columns().rows_of(k as u32) {
            row_columns[next[i as usize] as usize] = k as u32;
            next[i as usize] += 1;
        }
    }
    (row_start, row_columns)
}
