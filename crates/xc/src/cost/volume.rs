//! Barahona and Anbil's volume algorithm: multipliers near the optimum of
//! the dual of a set partitioning relaxation, by a subgradient ascent on its
//! Lagrangian `sum(rhs_r y_r) + sum_j min(0, c_j - sum_{r in j} y_r)`.
//!
//! Its direction is not the last subgradient but the violations of a
//! running convex combination of the Lagrangian's solutions (which tends to
//! a solution of the relaxation): Held and Karp's plain steps zig-zag on
//! set partitioning. Measured with both aimed at the optimum: on the
//! airline crew instance nw04 (36 x 87,482) they reached 14,614 of the
//! relaxation's 16,310.7 in 3,000 steps, where the volume algorithm reaches
//! 16,309.7 in 1,500; on air04, 55,377 against 55,472 (the relaxation:
//! 55,535.4).
//!
//! Shared by the taxes of the min-cost searches (`pricing.rs`, once over
//! the whole problem) and by the bounds of the branch and bound on set
//! partitions (`partition.rs`, a few steps at each node, from the parent's
//! multipliers).

use std::sync::atomic::{AtomicBool, Ordering};

pub(crate) use lp::{Columns, Table};

/// Options (or items) between two looks at the stop flag.
pub(crate) const LOOK: usize = 1 << 16;

/// Raised stop flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stopped;

/// The ascent's part of the problem and its limits.
pub(crate) struct Ascent<'a> {
    pub columns: &'a Columns<'a>,
    /// The columns taken into account.
    pub alive: &'a [u32],
    /// The rows with a multiplier (every row of an alive column is one).
    pub open: &'a [u32],
    /// Each row's right-hand side (indexed by row).
    pub rhs: &'a [f64],
    /// The cost of a known solution, to aim Polyak's steps at; else they
    /// aim 5% past the best bound so far.
    pub upper: Option<f64>,
    /// Steps at most.
    pub steps: u64,
    /// Whether to stop when the bound gains less than a hundred-thousandth
    /// in 200 steps.
    pub stall: bool,
}

impl Ascent<'_> {
    /// The Lagrangian at `y`: its value, and in `used` how often its
    /// solution (alive columns of negative reduced cost) uses each open row.
    fn solve(
        &self,
        y: &[f64],
        used: &mut [f64],
        negative: &mut Vec<u32>,
        stop: &AtomicBool,
    ) -> Result<f64, Stopped> {
        negative.clear();
        let mut value = 0.0;
        for &r in self.open {
            used[r as usize] = 0.0;
            value += self.rhs[r as usize] * y[r as usize];
        }
        for (n, chunk) in self.alive.chunks(LOOK).enumerate() {
            if n > 0 && stop.load(Ordering::Relaxed) {
                return Err(Stopped);
            }
            let quads = chunk.chunks_exact(4);
            let rest = quads.remainder();
            let mut take = |j: u32, rc: f64| {
                if rc < 0.0 {
                    value += rc;
                    negative.push(j);
                    for &r in self.columns.rows_of(j) {
                        used[r as usize] += 1.0;
                    }
                }
            };
            for q in quads {
                let q = [q[0], q[1], q[2], q[3]];
                let rc = self.columns.reduced4(q, y);
                for k in 0..4 {
                    take(q[k], rc[k]);
                }
            }
            for &j in rest {
                take(j, self.columns.reduced(j, y));
            }
        }
        Ok(value)
    }

    /// Replaces `y` (indexed by row; only open rows are read or changed) by
    /// the best multipliers met from it, and returns their bound. `mixed`
    /// (indexed by row) ends as the mixture's use of each open row, and
    /// `primal` (indexed by column, if given) as the mixture itself on the
    /// alive columns: near a solution of the relaxation.
    pub fn run(
        &self,
        y: &mut [f64],
        mixed: &mut [f64],
        mut primal: Option<&mut [f64]>,
        stop: &AtomicBool,
    ) -> Result<f64, Stopped> {
        let n = y.len();
        let mut used = vec![0f64; n];
        let mut trial = y.to_vec();
        let mut negative = Vec::new();
        let mut best = self.solve(y, &mut used, &mut negative, stop)?;
        for &r in self.open {
            mixed[r as usize] = used[r as usize];
        }
        if let Some(x) = primal.as_deref_mut() {
            for &j in self.alive {
                x[j as usize] = 0.0;
            }
            for &j in &negative {
                x[j as usize] = 1.0;
            }
        }
        let mut v = vec![0f64; n];
        let mut lambda = 0.1f64;
        let mut reds = 0;
        let alpha_max = 0.1f64;
        let mut checkpoint = best;
        for t in 1..self.steps {
            if stop.load(Ordering::Relaxed) {
                return Err(Stopped);
            }
            if self.stall && t % 200 == 0 {
                if best - checkpoint <= 1e-5 * best.abs() {
                    break;
                }
                checkpoint = best;
            }
            // The direction: the mixture's violations.
            let mut norm = 0.0;
            for &r in self.open {
                let x = self.rhs[r as usize] - mixed[r as usize];
                v[r as usize] = x;
                norm += x * x;
            }
            if norm < 1e-12 {
                break; // (the mixture is a solution of the relaxation)
            }
            let target = match self.upper {
                Some(u) if u > best + 1e-9 => u,
                Some(_) => break, // (the bound meets the solution: nothing to gain)
                None => best + best.abs() * 0.05 + 1.0,
            };
            let step = lambda * (target - best) / norm;
            for &r in self.open {
                trial[r as usize] = y[r as usize] + step * v[r as usize];
            }
            let value = self.solve(&trial, &mut used, &mut negative, stop)?;
            // The weight of the new solution in the mixture: the one that
            // makes the mixture's violations least, within [alpha_max / 10,
            // alpha_max].
            let (mut vd, mut dd, mut vw) = (0.0, 0.0, 0.0);
            for &r in self.open {
                let r = r as usize;
                let w = self.rhs[r] - used[r];
                let d = w - v[r];
                vd += v[r] * d;
                dd += d * d;
                vw += v[r] * w;
            }
            let alpha = if dd > 0.0 { -vd / dd } else { alpha_max };
            let alpha = alpha.clamp(alpha_max / 10.0, alpha_max);
            for &r in self.open {
                let r = r as usize;
                mixed[r] = alpha * used[r] + (1.0 - alpha) * mixed[r];
            }
            if let Some(x) = primal.as_deref_mut() {
                for &j in self.alive {
                    x[j as usize] *= 1.0 - alpha;
                }
                for &j in &negative {
                    x[j as usize] += alpha;
                }
            }
            if value > best {
                // A green step (the new solution does not undo the
                // direction) lengthens the steps; a yellow one keeps them.
                if vw >= 0.0 {
                    lambda = (lambda * 1.1).min(2.0);
                }
                best = value;
                for &r in self.open {
                    y[r as usize] = trial[r as usize];
                }
                reds = 0;
            } else {
                reds += 1;
                if reds >= 20 {
                    lambda *= 0.66;
                    reds = 0;
                    if lambda < 1e-5 {
                        break;
                    }
                }
            }
        }
        Ok(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::Rng;

    #[test]
    fn four_reduced_costs_side_by_side_are_the_same_to_the_bit() {
        let mut rng = Rng::new(11);
        for _ in 0..200 {
            let n_rows = 1 + rng.below(30) as usize;
            let n_cols = 4 + rng.below(20) as usize;
            let mut start = vec![0u32];
            let mut rows = Vec::new();
            let mut cost = Vec::new();
            for _ in 0..n_cols {
                // Lengths from 0 to 12, so that the four differ.
                for _ in 0..rng.below(13) {
                    rows.push(rng.below(n_rows as u64) as u32);
                }
                start.push(rows.len() as u32);
                cost.push(rng.below(1000) as f64 / 7.0);
            }
            let y: Vec<f64> = (0..n_rows)
                .map(|_| (rng.below(2000) as f64 - 1000.0) / 3.0)
                .collect();
            let columns = Columns {
                start: &start,
                rows: &rows,
                cost: &cost,
            };
            let j = [0, 1, 2, 3].map(|_| rng.below(n_cols as u64) as u32);
            let four = columns.reduced4(j, &y);
            for k in 0..4 {
                assert_eq!(four[k].to_bits(), columns.reduced(j[k], &y).to_bits());
            }
        }
    }
}
