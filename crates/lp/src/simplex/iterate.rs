//! A solve: iterations of the dual simplex (dual steepest edge pricing,
//! the pivot row, the bound flipping ratio test, the update of the
//! inverse), with the prices perturbed and then finished with the true
//! costs.

use std::sync::atomic::{AtomicBool, Ordering};

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::kernels::{dot_product, nonzero, row_less, wide_vectors};
use super::{DualSimplex, LpStatus, PIVOT_TOL, PRIMAL_TOL, REFACTOR};

impl DualSimplex {
    /// Runs the dual simplex from the current basis for at most
    /// `max_iterations` iterations. A solve that stops at that limit (or
    /// at `stop`) is paused: the next one, if nothing was changed in
    /// between, takes the very pivots the one solve would have.
    ///
    /// The iterations price with costs perturbed by a few parts in ten
    /// million (each column its own amount, the same at every solve): ties
    /// among the ratios of a dual degenerate basis, which can make the dual
    /// simplex cycle, are then rare. An optimum so reached is finished with
    /// the true costs, from its basis (with every variable boxed, any basis
    /// is dual feasible).
    pub fn solve(&mut self, max_iterations: u64, stop: &AtomicBool) -> LpStatus {
        let mut left = max_iterations;
        if !self.finishing {
            if !self.perturbed {
                for j in 0..self.n {
                    // (A hash of j, in [0, 1).)
                    let h = (j as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 11;
                    let share = h as f64 / (1u64 << 53) as f64;
                    let c = self.table.cost[j];
                    self.priced[j] = c + 1e-7 * (1.0 + share) * (1.0 + c.abs());
                }
                self.perturbed = true;
                self.stale = true;
            }
            let (status, done) = self.run(left, stop);
            if matches!(status, LpStatus::IterationLimit | LpStatus::Stopped) {
                // Paused: the next solve goes on from here with the same
                // prices, values and reduced costs, as if it had not stopped.
                // (Put back and worked out afresh at every pause, as they
                // were, they cost the tree's turns of a few iterations, in
                // the min-cost race of the engine (`cost/mincost/race.rs`), a fifth of its time on air05.)
                return status;
            }
            self.priced.copy_from_slice(&self.table.cost);
            self.perturbed = false;
            self.stale = true;
            if status != LpStatus::Optimal {
                self.recompute();
                return status;
            }
            self.finishing = true;
            left -= done;
        }
        // Finishing with the true costs; paused here too, the next solve
        // goes on finishing (perturbed again, it undid the pivots made: on
        // crew-like costs, 100 a flight and a little, with 646 rows and
        // 190 cuts, the tree's solves in the race's slices of eight pivots
        // stopped ending).
        let status = self.run(left, stop).0;
        if !matches!(status, LpStatus::IterationLimit | LpStatus::Stopped) {
            self.finishing = false;
        }
        status
    }

    /// The iterations of [`Self::solve`] with the prices as they are: the
    /// status, and the iterations done.
    pub(super) fn run(&mut self, max_iterations: u64, stop: &AtomicBool) -> (LpStatus, u64) {
        let mut done = 0u64;
        loop {
            if self.since_refactor >= REFACTOR {
                if !self.refactor(stop) {
                    return (LpStatus::Stopped, done);
                }
                self.stale = true;
            }
            let fresh = self.stale;
            if self.stale {
                self.recompute();
            }
            // (At every iteration: one may take milliseconds on a
            // thousand rows.)
            if stop.load(Ordering::Relaxed) {
                return (LpStatus::Stopped, done);
            }
            // Step 1: the basic variable furthest out of its bounds, by
            // dual steepest edge (its infeasibility squared over the norm
            // of its row of the inverse): a quarter of the iterations of
            // the plain largest infeasibility on air05.
            let mut leave = None;
            let mut worst = 0.0;
            for r in 0..self.m {
                let k = self.head[r];
                let out = (self.lower[k] - self.x[k]).max(self.x[k] - self.upper[k]);
                if out > PRIMAL_TOL && out * out > worst * self.weight[r] {
                    worst = out * out / self.weight[r];
                    leave = Some(r);
                }
            }
            let Some(r) = leave else {
                if !fresh {
                    // Optimal on the updated values: check on fresh ones.
                    self.stale = true;
                    continue;
                }
                return (LpStatus::Optimal, done);
            };
            if done >= max_iterations {
                return (LpStatus::IterationLimit, done);
            }
            self.iterations += 1;
            self.since_refactor += 1;
            match self.iterate(r) {
                Some(()) => {
                    done += 1;
                    if self.cut_above < f64::INFINITY && self.passed_cutoff() {
                        return (LpStatus::Cutoff, done);
                    }
                }
                None => {
                    if self.since_refactor > 1 || !fresh {
                        // Perhaps rounding: decide on fresh values. (Not
                        // counted against the limit: a solve paused after
                        // every iteration would else never get to them.)
                        self.since_refactor = REFACTOR;
                        continue;
                    }
                    return (LpStatus::Infeasible, done);
                }
            }
        }
    }

    /// Whether the basis's objective, under the prices, passes the cutoff
    /// by the margin of [`Self::set_cutoff`] (the basis is dual feasible:
    /// its objective is its dual's).
    pub(super) fn passed_cutoff(&self) -> bool {
        dot_product(&self.priced, &self.x[..self.n]) > self.cut_above
    }

    /// One iteration with the basic variable of row `r` leaving; `None`
    /// when no variable can enter (the relaxation has no solution).
    #[inline(never)]
    pub(super) fn iterate(&mut self, r: usize) -> Option<()> {
        let m = self.m;
        let p = self.head[r];
        let to_lower = self.x[p] < self.lower[p];
        let beta = if to_lower {
            self.lower[p]
        } else {
            self.upper[p]
        };
        let delta = self.x[p] - beta;
        // (d_j moves by -theta alpha_j, theta = s t, t >= 0.)
        let s = if to_lower { -1.0 } else { 1.0 };
        // Btran: row r of B^-1. The pivot row: by the rows of A where that
        // row of the inverse has few nonzero entries (each variable met is
        // `touched`; the others have 0 in it), else column by column,
        // those fixed left out: none of them can enter, and their reduced
        // costs are made afresh at the next solve that may free them (a
        // change of bounds makes the values stale). In the tree most
        // columns are fixed at 0 by reduced costs: seeded proofs of air05
        // took 5.7 s instead of 7.5 s, in the same pivots.
        let rho = &self.binv[r * m..(r + 1) * m];
        let by_rows: usize = (0..m)
            .filter(|&i| rho[i] != 0.0)
            .map(|i| (self.row_start[i + 1] - self.row_start[i]) as usize)
            .sum();
        self.touched.clear();
        let stamp = self.iterations;
        if 2 * by_rows < self.table.rows.len() {
            for (i, &v) in rho.iter().enumerate() {
                if v == 0.0 {
                    continue;
                }
                let (b, e) = (self.row_start[i] as usize, self.row_start[i + 1] as usize);
                for &k in &self.row_columns[b..e] {
                    let k = k as usize;
                    if self.stamp[k] != stamp {
                        self.stamp[k] = stamp;
                        self.alpha[k] = 0.0;
                        self.touched.push(k);
                    }
                    self.alpha[k] += v;
                }
            }
        } else {
            for k in 0..self.n + m {
                if self.row_of[k].is_none() && self.upper[k] != self.lower[k] {
                    self.alpha[k] = self.dot(k, rho);
                    self.touched.push(k);
                }
            }
        }
        // The breakpoints: every variable that may enter (and its
        // `s alpha`). One whose flip alone would take the slope below 0
        // ends the long step at its ratio or before: the least such ratio
        // (compared by products, not divided) is as far as it may reach,
        // and only the breakpoints up to there are divided out and put in
        // the heap (seeded proofs of air05: 32 of 623 an iteration, the
        // same pivots, 2% sooner).
        let mut eligible = std::mem::take(&mut self.breakpoints);
        eligible.clear();
        // (A ratio `d_k / at` as `num / den`, both >= 0.)
        let ratio_parts = |d: f64, at: f64| ((if at > 0.0 { d } else { -d }).max(0.0), at.abs());
        let mut reach: Option<(f64, f64)> = None;
        for &k in &self.touched {
            if self.row_of[k].is_some() || self.upper[k] == self.lower[k] {
                continue; // basic, or fixed: either bound is its bound
            }
            let at = s * self.alpha[k];
            let at_upper = self.x[k] == self.upper[k] && self.x[k] != self.lower[k];
            if (!at_upper && at > PIVOT_TOL) || (at_upper && at < -PIVOT_TOL) {
                eligible.push((at, k));
                if self.alpha[k].abs() * (self.upper[k] - self.lower[k]) > delta.abs() {
                    let (num, den) = ratio_parts(self.d[k], at);
                    if reach.is_none_or(|(n, d)| num * d < n * den) {
                        reach = Some((num, den));
                    }
                }
            }
        }
        // (A margin over rounding, and over the ties taken below.)
        let reach = reach.map_or(f64::INFINITY, |(n, d)| n / d * (1.0 + 1e-9) + 1e-9);
        let mut candidates = std::mem::take(&mut self.candidates);
        candidates.clear();
        for &(at, k) in &eligible {
            let (num, den) = ratio_parts(self.d[k], at);
            if num <= reach * den {
                // (`d_k / at` to the bit: a negation is exact.)
                let ratio = num / den;
                // (Ratios are kept as the bits of a float >= 0, which
                // order as the floats do.)
                candidates.push(Reverse((
                    if ratio > 0.0 { ratio } else { 0.0 }.to_bits(),
                    k,
                )));
            }
        }
        self.breakpoints = eligible;
        if candidates.is_empty() {
            self.candidates = candidates;
            return None;
        }
        // The long step: pass breakpoints, in increasing order, while the
        // slope stays positive (a heap: few are passed of many).
        let mut heap = BinaryHeap::from(candidates);
        self.breakpoints.clear();
        let mut slope = delta.abs();
        let mut enter = None;
        while let Some(Reverse((bits, k))) = heap.pop() {
            self.breakpoints.push((f64::from_bits(bits), k));
            let drop = self.alpha[k].abs() * (self.upper[k] - self.lower[k]);
            let last = heap.is_empty() && slope - drop <= 1e-9 * (1.0 + delta.abs());
            if slope - drop < 0.0 || last {
                enter = Some(self.breakpoints.len() - 1);
                break;
            }
            slope -= drop;
        }
        let Some(mut e) = enter else {
            // The slope is still up past every breakpoint: the dual rises
            // without end, and the rows cannot be met.
            self.candidates = heap.into_vec();
            return None;
        };
        let t = self.breakpoints[e].0;
        // Among the breakpoints at the same step, the largest pivot.
        while let Some(&Reverse((bits, _))) = heap.peek() {
            if f64::from_bits(bits) > t + 1e-12 {
                break;
            }
            let Reverse((bits, k)) = heap.pop().expect("a breakpoint");
            self.breakpoints.push((f64::from_bits(bits), k));
            if self.alpha[k].abs() > self.alpha[self.breakpoints[e].1].abs() {
                e = self.breakpoints.len() - 1;
            }
        }
        self.candidates = heap.into_vec();
        let q = self.breakpoints[e].1;
        // Flip the variables of the breakpoints before the entering one
        // (those at the same step but not entering stay: their reduced
        // costs reach 0, either bound suits).
        self.work.fill(0.0);
        let mut flipped = false;
        for idx in 0..e {
            let k = self.breakpoints[idx].1;
            if self.breakpoints[idx].0 >= t {
                continue;
            }
            let to = if self.x[k] == self.lower[k] {
                self.upper[k]
            } else {
                self.lower[k]
            };
            let change = to - self.x[k];
            self.x[k] = to;
            flipped = true;
            for &i in self.table.columns().rows_of(k as u32) {
                self.work[i as usize] += change;
            }
        }
        if flipped {
            // x_B -= B^-1 (sum of a_k change_k).
            let changed = nonzero(&self.work);
            for row in 0..m {
                self.x[self.head[row]] -= self.inverse_times(row, &changed);
            }
        }
        // Duals.
        let theta = s * t;
        for &k in &self.touched {
            if self.row_of[k].is_none() {
                self.d[k] -= theta * self.alpha[k];
            }
        }
        let rho = &self.binv[r * m..(r + 1) * m];
        for (yi, &ri) in self.y.iter_mut().zip(rho) {
            *yi += theta * ri;
        }
        self.d[p] = -theta;
        self.d[q] = 0.0;
        // Ftran: the entering column in the basis, B^-1 a_q.
        let a_q: Vec<(u32, f64)> = self.rows_of(q).iter().map(|&i| (i, 1.0)).collect();
        for row in 0..m {
            self.column[row] = self.inverse_times(row, &a_q);
        }
        let pivot = self.column[r];
        let drifted = (pivot - self.alpha[q]).abs() > 1e-6 * (1.0 + pivot.abs());
        if (pivot.abs() < PIVOT_TOL || drifted) && self.since_refactor > 1 {
            // The inverse has drifted: make it again, try again (once: on a
            // fresh inverse the pivot is taken as it comes).
            self.since_refactor = REFACTOR;
            return Some(());
        }
        if pivot.abs() < 1e-12 {
            return None;
        }
        // Primal step: p to its bound, q into the basis.
        let step = (self.x[p] - beta) / pivot;
        for row in 0..m {
            let c = self.column[row];
            if c != 0.0 {
                self.x[self.head[row]] -= step * c;
            }
        }
        self.x[q] += step;
        self.x[p] = beta;
        self.head[r] = q;
        self.row_of[q] = Some(r);
        self.row_of[p] = None;
        // The inverse: pivot on (r, q). Only the pivot row's nonzero
        // entries change the other rows (the inverse of a set partitioning
        // basis is mostly zeros), and each changed row's weight moves by
        // the change of its squares there.
        let (before, rest) = self.binv.split_at_mut(r * m);
        let (pivot_row, after) = rest.split_at_mut(m);
        let mut norm = 0.0;
        self.support.clear();
        for (i, v) in pivot_row.iter_mut().enumerate() {
            if *v != 0.0 {
                *v /= pivot;
                norm += *v * *v;
                self.support.push((i as u32, *v));
            }
        }
        self.weight[r] = norm;
        let support = &self.support;
        let sparse = 3 * support.len() < m;
        let pivot_row: &[f64] = pivot_row;
        // Row `chunk` less `c` times the pivot row; its new weight, from
        // `weight` its old one.
        let wide = wide_vectors();
        let update = |chunk: &mut [f64], c: f64, weight: f64| {
            if sparse {
                let mut change = 0.0;
                for &(i, pr) in support {
                    let v = &mut chunk[i as usize];
                    let old = *v;
                    *v -= c * pr;
                    change += *v * *v - old * old;
                }
                return weight + change;
            }
            row_less(chunk, c, pivot_row, wide)
        };
        let others = before.chunks_exact_mut(m).enumerate();
        let others = others.chain(
            after
                .chunks_exact_mut(m)
                .enumerate()
                .map(|(i, c)| (r + 1 + i, c)),
        );
        for (row, chunk) in others {
            let c = self.column[row];
            if c != 0.0 {
                // (A weight is a sum of squares: rounding must not take
                // it to 0 or below.)
                self.weight[row] = update(chunk, c, self.weight[row]).max(1e-12);
            }
        }
        Some(())
    }
}
