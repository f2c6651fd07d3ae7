//! A bounded dual simplex for the linear relaxation of set partitioning:
//! minimize `c x` subject to `A x = b` and `l <= x <= u`, `A` a 0/1 matrix
//! given by its columns (the options), with a warm start after bounds change.
//!
//! Why it is here: an exact relaxation at every node, with strong branching
//! on its fractional columns, is what proves the airline crew instances
//! where the Lagrangian bounds of the engine's `cost/partition.rs` do not: branching on a
//! column (best first, reliability branching, reduced-cost fixing, the
//! optimum given as the cost to beat), air05 was proven in about a hundred
//! nodes and air04 in 114 to 155, with HiGHS's simplex and with this one,
//! where the search on dancing links is not in millions. Why HiGHS itself
//! was not taken instead: the crate's doc (`lib.rs`).
//!
//! The method (Koberstein's thesis, *The dual simplex method, techniques
//! for a fast and stable implementation*, 2005, chapter 3):
//!
//! - every variable is boxed: a column between its bounds (0 and 1, or
//!   fixed), and one artificial per row fixed at 0 (`A x + s = b`, `s = 0`)
//!   whose columns are the first basis. With finite bounds every basis is
//!   dual feasible once each nonbasic variable sits at the bound its
//!   reduced cost's sign asks for, so there is no phase 1;
//! - each iteration takes a basic variable out of its bounds (step 1,
//!   *pricing*, by dual steepest edge: below), the row of the basis inverse
//!   that holds it
//!   (*btran*), that row of `B^-1 A` (the *pivot row*), and the bound
//!   flipping ratio test (*long step*): breakpoints of the dual objective
//!   are passed, their variables flipped to their other bound, while its
//!   slope stays positive;
//! - the inverse is kept whole (dense, `m x m`: 8 m^2 bytes, which callers
//!   keep to a few thousand rows), updated at each pivot (on the pivot
//!   row's nonzero entries while they are few; the inverse of an airline
//!   crew basis soon has most of its entries nonzero, and then the rows
//!   are updated whole, in a loop the compiler vectorizes, four floats a
//!   step where the processor has AVX, looked at when the loop runs: the
//!   wheel is built for any x86-64) and made again
//!   from the basis every [`REFACTOR`] iterations, where the values and
//!   reduced costs are computed afresh too (1,000: air04's root took
//!   1.8 s with 300, 1.1 s with 600 or 1,200, the inversion being cubic);
//! - the leaving row is chosen by dual steepest edge, its weights the
//!   squared norms of the inverse's rows, exact: each row a pivot changes
//!   is summed anew in the same pass;
//! - the pivot row is summed by the rows of `A` where the inverse's row has
//!   few nonzero entries (a copy of `A` by rows), so that an iteration
//!   touches only the columns it changes.
//!
//! On the root relaxations of the airline crew instances it takes about
//! as many iterations as HiGHS's dual simplex, to the same optima; each
//! iteration costs more (the dense inverse, and its inversion from
//! scratch), which is what a sparse factorization of the basis would
//! remove.
//!
//! [`DualSimplex::bound`] is the dual objective `b y + sum_j min(d_j l_j,
//! d_j u_j)`, a lower bound on the relaxation (and on every integer
//! solution) for *any* multipliers `y`: a solve stopped early, by its
//! iteration limit or a stop flag, still bounds.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use lp::{DualSimplex, LpStatus};
//! // Rows {0, 1}; columns {0, 1} (cost 5), {0} (cost 1), {1} (cost 2).
//! let mut lp = DualSimplex::new(2, &[0, 2, 3, 4], &[0, 1, 0, 1], &[5.0, 1.0, 2.0], &[1.0, 1.0]);
//! assert_eq!(lp.solve(u64::MAX, &AtomicBool::new(false)), LpStatus::Optimal);
//! assert!((lp.bound() - 3.0).abs() < 1e-9);
//! lp.set_bounds(1, 0.0, 0.0); // column 1 out: only column 0 covers row 0
//! assert_eq!(lp.solve(u64::MAX, &AtomicBool::new(false)), LpStatus::Optimal);
//! assert!((lp.bound() - 5.0).abs() < 1e-9 && lp.values()[0] > 0.999);
//! ```

//!
//! The code, by job: this file holds the state and what reads it;
//! `iterate.rs` a solve (pricing, the pivot row, the long step, the
//! update); `basis.rs` the inversion and the values afresh; `cuts.rs` rows
//! added and dropped with the basis kept; `kernels.rs` the dense loops.

mod basis;
mod cuts;
mod iterate;
mod kernels;
#[cfg(test)]
mod tests;

use std::cmp::Reverse;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::table::Table;
use basis::by_rows;

/// Iterations between two inversions of the basis.
pub const REFACTOR: u32 = 1000;
/// How far a basic variable may stand outside its bounds.
const PRIMAL_TOL: f64 = 1e-9;
/// How far a reduced cost may stand on the wrong side of 0.
const DUAL_TOL: f64 = 1e-9;
/// The smallest entry of a pivot row that may be pivoted on.
const PIVOT_TOL: f64 = 1e-9;

/// How a solve ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LpStatus {
    /// The values are optimal (within the tolerances).
    Optimal,
    /// No values meet the rows within the bounds (the dual is unbounded).
    Infeasible,
    /// The iteration limit came first; [`DualSimplex::bound`] still bounds.
    IterationLimit,
    /// The stop flag was raised.
    Stopped,
    /// The objective passed the cutoff ([`DualSimplex::set_cutoff`]):
    /// every value that meets the rows costs more.
    Cutoff,
}

/// The relaxation, its basis and its values, kept between solves (a clone
/// is a copy to try a branch on: strong branching).
#[derive(Clone)]
pub struct DualSimplex {
    m: usize,
    n: usize,
    /// The columns, then one per row for the artificials (row `r`'s is
    /// variable `n + r`, the column `{r}` at cost 0). Shared by clones,
    /// as the matrix by rows is (a trial of strong branching copies only
    /// what it changes).
    table: Arc<Table>,
    /// The costs the iterations price with: `cost`, perturbed while a
    /// solve runs (see [`Self::solve`]), and whether they are so now (a
    /// solve paused at its iteration limit goes on with them).
    priced: Vec<f64>,
    perturbed: bool,
    /// Whether a solve is finishing with the true costs (paused there).
    finishing: bool,
    rhs: Vec<f64>,
    lower: Vec<f64>,
    upper: Vec<f64>,
    /// The variable basic in each row of the basis.
    head: Vec<usize>,
    /// Each variable's row in the basis, if it is basic.
    row_of: Vec<Option<usize>>,
    /// The basis inverse, row by row (`binv[r * m + i]`).
    binv: Vec<f64>,
    /// The squared norm of each row of the inverse: the dual steepest
    /// edge weights, exact (each row the update touches is summed anew).
    weight: Vec<f64>,
    /// The values of all variables (nonbasic ones at a bound).
    x: Vec<f64>,
    /// Reduced costs (0 for basic variables).
    d: Vec<f64>,
    /// The multipliers of the rows.
    y: Vec<f64>,
    since_refactor: u32,
    /// Whether the values and reduced costs are to be computed afresh
    /// (bounds changed, or a solve is to be checked).
    stale: bool,
    iterations: u64,
    /// Scratch: a pivot row, a column of `B^-1 A`, a sum of columns.
    alpha: Vec<f64>,
    column: Vec<f64>,
    work: Vec<f64>,
    breakpoints: Vec<(f64, usize)>,
    candidates: Vec<Reverse<(u64, usize)>>,
    /// The matrix by rows: the columns of row `i` are
    /// `row_columns[row_start[i]..row_start[i + 1]]`.
    row_start: Arc<Vec<u32>>,
    row_columns: Arc<Vec<u32>>,
    /// The variables of the last pivot row, and the iteration each was
    /// last met in (scratch of the pivot row by rows).
    touched: Vec<usize>,
    stamp: Vec<u64>,
    /// The nonzero entries of the pivot row of the inverse (scratch).
    support: Vec<(u32, f64)>,
    /// The cost to beat given to [`Self::set_cutoff`] (infinite: none),
    /// and that plus its margin: a solve ends once its objective passes
    /// the latter.
    cutoff: f64,
    cut_above: f64,
}

impl DualSimplex {
    /// The relaxation of `m` rows whose column `j` has cost `cost[j]` and
    /// the rows `rows[start[j]..start[j + 1]]` (each below `m`, once), each row `r` to sum to
    /// `rhs[r]`, every column between 0 and 1. Nothing is solved yet.
    pub fn new(m: usize, start: &[u32], rows: &[u32], cost: &[f64], rhs: &[f64]) -> DualSimplex {
        let n = cost.len();
        assert_eq!(start.len(), n + 1, "a start per column, and the end");
        assert_eq!(rhs.len(), m, "a right-hand side per row");
        let nnz = rows.len() as u32;
        let table = Table {
            start: start
                .iter()
                .copied()
                .chain((1..=m as u32).map(|r| nnz + r))
                .collect(),
            rows: rows.iter().copied().chain(0..m as u32).collect(),
            cost: cost
                .iter()
                .copied()
                .chain(std::iter::repeat_n(0.0, m))
                .collect(),
        };
        let (row_start, row_columns) = by_rows(&table, m);
        let mut lp = DualSimplex {
            m,
            n,
            priced: table.cost.clone(),
            table: Arc::new(table),
            rhs: rhs.to_vec(),
            lower: vec![0.0; n + m],
            upper: [vec![1.0; n], vec![0.0; m]].concat(),
            head: Vec::new(),
            row_of: Vec::new(),
            binv: vec![0.0; m * m],
            weight: vec![0.0; m],
            x: vec![0.0; n + m],
            d: vec![0.0; n + m],
            y: vec![0.0; m],
            since_refactor: 0,
            perturbed: false,
            finishing: false,
            stale: true,
            iterations: 0,
            alpha: vec![0.0; n + m],
            column: vec![0.0; m],
            work: vec![0.0; m],
            breakpoints: Vec::new(),
            candidates: Vec::new(),
            row_start: Arc::new(row_start),
            row_columns: Arc::new(row_columns),
            touched: Vec::new(),
            stamp: vec![u64::MAX; n + m],
            support: Vec::new(),
            cutoff: f64::INFINITY,
            cut_above: f64::INFINITY,
        };
        lp.reset();
        lp.recompute();
        lp
    }

    /// Rows.
    pub fn n_rows(&self) -> usize {
        self.m
    }

    /// Columns (the artificials not counted).
    pub fn n_columns(&self) -> usize {
        self.n
    }

    /// Iterations done, over all solves.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// Puts column `j` between `lower` and `upper` (`lower <= upper`);
    /// the basis is kept, and the next solve starts from it.
    pub fn set_bounds(&mut self, j: usize, lower: f64, upper: f64) {
        debug_assert!(j < self.n && lower <= upper);
        self.lower[j] = lower;
        self.upper[j] = upper;
        // (A new problem: its solve starts perturbed.)
        self.finishing = false;
        if self.row_of[j].is_none() {
            self.x[j] = if self.d[j] < 0.0 { upper } else { lower };
        }
        // (The basic values follow at the next solve.)
        self.stale = true;
    }

    /// Inverts the basis now if an inversion falls due within the next
    /// `iterations` iterations: copies about to be solved (strong
    /// branching's trials) then share this one instead of each making its
    /// own and throwing it away (a sixth of the time on air04, the
    /// inversion being cubic). False when `stop` was raised first.
    pub fn invert_if_due(&mut self, iterations: u64, stop: &AtomicBool) -> bool {
        if u64::from(self.since_refactor) + iterations < u64::from(REFACTOR) {
            return true;
        }
        let done = self.refactor(stop);
        self.stale = true;
        done
    }

    /// Column `j`'s bounds.
    pub fn bounds(&self, j: usize) -> (f64, f64) {
        (self.lower[j], self.upper[j])
    }

    /// The columns' values (of the last solve).
    pub fn values(&self) -> &[f64] {
        &self.x[..self.n]
    }

    /// The rows' multipliers (of the last solve).
    pub fn multipliers(&self) -> &[f64] {
        &self.y
    }

    /// The columns' reduced costs under [`Self::multipliers`]. (These
    /// three are of the perturbed costs while a solve is paused at its
    /// iteration limit, and then a fixed column's may be out of date;
    /// [`Self::bound`] holds whatever the costs.)
    pub fn reduced_costs(&self) -> &[f64] {
        &self.d[..self.n]
    }

    /// Solves end with [`LpStatus::Cutoff`] as soon as the relaxation is
    /// sure to cost more than `cutoff` (infinite: never). A branch and
    /// bound needs no more of a node than that: on air04's tree, a sixth
    /// of the iterations of strong branching went on in trials that ended
    /// above the cost to beat.
    ///
    /// The iterations go up the dual objective, `c x` of their basis; with
    /// the perturbed costs (see [`Self::solve`]) it bounds the relaxation
    /// of the true costs only within their perturbation, at most
    /// `2e-7 (sum x + c x)` at values costing `c x`, and `sum x` is at
    /// most the rows' sum when each column covers a row (the costs are
    /// taken not to be negative). A solve is cut once `c x` passes
    /// `cutoff` by more than `1e-6 (1 + the rows' sum + |cutoff|)`.
    pub fn set_cutoff(&mut self, cutoff: f64) {
        let rows: f64 = self.rhs.iter().map(|b| b.abs()).sum();
        self.cutoff = cutoff;
        self.cut_above = cutoff + 1e-6 * (1.0 + rows + cutoff.abs());
    }

    /// The dual objective of the multipliers: a lower bound on `c x` over
    /// every `x` that meets the rows within the bounds, whatever state the
    /// last solve ended in. Computed afresh from the multipliers.
    pub fn bound(&self) -> f64 {
        let mut total: f64 = self.rhs.iter().zip(&self.y).map(|(b, y)| b * y).sum();
        for j in 0..self.n + self.m {
            let d = self.table.cost[j] - self.dot(j, &self.y);
            total += if d >= 0.0 {
                d * self.lower[j]
            } else {
                d * self.upper[j]
            };
        }
        total
    }

    /// The primal objective `c x` of the last solve's values.
    pub fn objective(&self) -> f64 {
        (0..self.n).map(|j| self.table.cost[j] * self.x[j]).sum()
    }

    /// The rows of variable `k` (a column, or an artificial).
    #[inline]
    pub(super) fn rows_of(&self, k: usize) -> &[u32] {
        self.table.columns().rows_of(k as u32)
    }

    /// `v . a_k` for variable `k`.
    #[inline]
    pub(super) fn dot(&self, k: usize, v: &[f64]) -> f64 {
        self.rows_of(k).iter().map(|&r| v[r as usize]).sum()
    }

    /// Row `row` of `B^-1 v`, `v` given by its nonzero entries.
    #[inline]
    pub(super) fn inverse_times(&self, row: usize, v: &[(u32, f64)]) -> f64 {
        let br = &self.binv[row * self.m..(row + 1) * self.m];
        v.iter().map(|&(i, w)| br[i as usize] * w).sum()
    }
}
