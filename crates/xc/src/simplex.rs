//! A bounded dual simplex for the linear relaxation of set partitioning:
//! minimize `c x` subject to `A x = b` and `l <= x <= u`, `A` a 0/1 matrix
//! given by its columns (the options), with a warm start after bounds change.
//!
//! Why it is here: an exact relaxation at every node, with strong branching
//! on its fractional columns, is what proves the airline crew instances
//! where the Lagrangian bounds of `partition.rs` do not: branching on a
//! column (best first, reliability branching, reduced-cost fixing, the
//! optimum given as the cost to beat), air05 was proven in about a hundred
//! nodes and air04 in 114 to 155, with HiGHS's simplex and with this one,
//! where the search on dancing links is not in millions. HiGHS itself was
//! not taken as a dependency: its C++ build takes minutes, and its Rust
//! binding needs libclang and cmake at build time.
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
//! use xc::{DualSimplex, LpStatus};
//! // Rows {0, 1}; columns {0, 1} (cost 5), {0} (cost 1), {1} (cost 2).
//! let mut lp = DualSimplex::new(2, &[0, 2, 3, 4], &[0, 1, 0, 1], &[5.0, 1.0, 2.0], &[1.0, 1.0]);
//! assert_eq!(lp.solve(u64::MAX, &AtomicBool::new(false)), LpStatus::Optimal);
//! assert!((lp.bound() - 3.0).abs() < 1e-9);
//! lp.set_bounds(1, 0.0, 0.0); // column 1 out: only column 0 covers row 0
//! assert_eq!(lp.solve(u64::MAX, &AtomicBool::new(false)), LpStatus::Optimal);
//! assert!((lp.bound() - 5.0).abs() < 1e-9 && lp.values()[0] > 0.999);
//! ```

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::volume::Table;

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
    fn rows_of(&self, k: usize) -> &[u32] {
        self.table.columns().rows_of(k as u32)
    }

    /// `v . a_k` for variable `k`.
    #[inline]
    fn dot(&self, k: usize, v: &[f64]) -> f64 {
        self.rows_of(k).iter().map(|&r| v[r as usize]).sum()
    }

    /// Row `row` of `B^-1 v`, `v` given by its nonzero entries.
    #[inline]
    fn inverse_times(&self, row: usize, v: &[(u32, f64)]) -> f64 {
        let br = &self.binv[row * self.m..(row + 1) * self.m];
        v.iter().map(|&(i, w)| br[i as usize] * w).sum()
    }

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
                // the race of `mincost.rs`, a fifth of its time on air05.)
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
    fn run(&mut self, max_iterations: u64, stop: &AtomicBool) -> (LpStatus, u64) {
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
    fn passed_cutoff(&self) -> bool {
        dot_product(&self.priced, &self.x[..self.n]) > self.cut_above
    }

    /// One iteration with the basic variable of row `r` leaving; `None`
    /// when no variable can enter (the relaxation has no solution).
    #[inline(never)]
    fn iterate(&mut self, r: usize) -> Option<()> {
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
    fn refactor(&mut self, stop: &AtomicBool) -> bool {
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
    fn reset(&mut self) {
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
    fn recompute(&mut self) {
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
fn by_rows(table: &Table, m: usize) -> (Vec<u32>, Vec<u32>) {
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

/// Whether this processor has AVX (four floats at a time), looked at once
/// per process by the standard library.
#[inline]
fn wide_vectors() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// `row -= c pivot`, and the new squared norm of `row`: the dense update
/// of a row of the inverse, most of an iteration's time on an airline crew
/// basis. With `wide` (the processor has AVX: [`wide_vectors`]) the same
/// loop is compiled for four floats a step instead of two; the same
/// operations in the same order, so the same bits either way.
#[inline]
fn row_less(row: &mut [f64], c: f64, pivot: &[f64], wide: bool) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if wide {
        // SAFETY: `wide` is true only where the processor has AVX.
        return unsafe { row_less_avx(row, c, pivot) };
    }
    let _ = wide;
    row_less_plain(row, c, pivot)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
fn row_less_avx(row: &mut [f64], c: f64, pivot: &[f64]) -> f64 {
    row_less_plain(row, c, pivot)
}

/// The loop of [`row_less`]: four sums, so that it is not held up by the
/// latency of one (and each entry's square taken from its new value).
#[inline(always)]
fn row_less_plain(row: &mut [f64], c: f64, pivot: &[f64]) -> f64 {
    let n = row.len().min(pivot.len());
    let (body, tail) = row[..n].split_at_mut(n / 4 * 4);
    let mut sums = [0.0f64; 4];
    for (v, p) in body.chunks_exact_mut(4).zip(pivot.chunks_exact(4)) {
        let new = [
            v[0] - c * p[0],
            v[1] - c * p[1],
            v[2] - c * p[2],
            v[3] - c * p[3],
        ];
        v.copy_from_slice(&new);
        for l in 0..4 {
            sums[l] += new[l] * new[l];
        }
    }
    for (v, p) in tail.iter_mut().zip(&pivot[n / 4 * 4..]) {
        *v -= c * p;
        sums[0] += *v * *v;
    }
    sums[0] + sums[1] + sums[2] + sums[3]
}

/// `row += c x`, with AVX where `wide` (see [`row_less`]).
#[inline]
fn add_times(row: &mut [f64], c: f64, x: &[f64], wide: bool) {
    #[cfg(target_arch = "x86_64")]
    if wide {
        // SAFETY: `wide` is true only where the processor has AVX.
        return unsafe { add_times_avx(row, c, x) };
    }
    let _ = wide;
    add_times_plain(row, c, x)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
fn add_times_avx(row: &mut [f64], c: f64, x: &[f64]) {
    add_times_plain(row, c, x)
}

#[inline(always)]
fn add_times_plain(row: &mut [f64], c: f64, x: &[f64]) {
    for (v, &a) in row.iter_mut().zip(x) {
        *v += c * a;
    }
}

/// `a . b`, in four sums: a loop over every column at every iteration
/// (the cutoff's test), which one sum would hold to the latency of an
/// addition per entry (seeded proofs of air05: 5.3 s instead of 5.7 s).
fn dot_product(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len().min(b.len());
    let mut sums = [0.0f64; 4];
    for (u, v) in a[..n].chunks_exact(4).zip(b[..n].chunks_exact(4)) {
        for l in 0..4 {
            sums[l] += u[l] * v[l];
        }
    }
    let tail: f64 = (n / 4 * 4..n).map(|i| a[i] * b[i]).sum();
    (sums[0] + sums[1]) + (sums[2] + sums[3]) + tail
}

/// The nonzero entries of `v`, with their indices.
fn nonzero(v: &[f64]) -> Vec<(u32, f64)> {
    (0..v.len() as u32)
        .filter(|&i| v[i as usize] != 0.0)
        .map(|i| (i, v[i as usize]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// A random set partitioning relaxation: `m` rows, `n` columns of 1-`k`
    /// rows with costs 1-100 growing with their length, and a column a row
    /// (dear) so that the rows can be met.
    fn random(m: usize, n: usize, k: u64, rng: &mut Rng) -> (Vec<u32>, Vec<u32>, Vec<f64>) {
        let (mut start, mut rows, mut cost) = (vec![0u32], Vec::new(), Vec::new());
        for j in 0..n + m {
            let mut these: Vec<u32> = if j < n {
                (0..1 + rng.below(k))
                    .map(|_| rng.below(m as u64) as u32)
                    .collect()
            } else {
                vec![(j - n) as u32]
            };
            these.sort_unstable();
            these.dedup();
            cost.push(if j < n {
                (these.len() as u64 * 10 + rng.below(40)) as f64
            } else {
                200.0
            });
            rows.extend(these);
            start.push(rows.len() as u32);
        }
        (start, rows, cost)
    }

    /// Checks optimality by its certificate: the values meet the rows and
    /// the bounds, the reduced costs agree with the bounds the nonbasic
    /// values sit at, and the primal objective equals the dual bound.
    fn certify(lp: &DualSimplex) {
        // (Every variable: the columns, and the artificials, which are
        // slacks between 0 and 1 in the rows of cuts.)
        let x = &lp.x;
        let mut sums = vec![0.0; lp.n_rows()];
        for (j, &xj) in x.iter().enumerate() {
            let (lo, up) = (lp.lower[j], lp.upper[j]);
            assert!(
                xj >= lo - 1e-7 && xj <= up + 1e-7,
                "column {j} at {xj} outside [{lo}, {up}]"
            );
            for &r in lp.rows_of(j) {
                sums[r as usize] += xj;
            }
            let d = lp.table.cost[j] - lp.dot(j, lp.multipliers());
            if xj > lo + 1e-7 && xj < up - 1e-7 {
                assert!(
                    d.abs() < 1e-6,
                    "column {j} between its bounds with reduced cost {d}"
                );
            } else if xj <= lo + 1e-7 && lo < up {
                assert!(
                    d > -1e-6,
                    "column {j} at its lower bound with reduced cost {d}"
                );
            } else if lo < up {
                assert!(
                    d < 1e-6,
                    "column {j} at its upper bound with reduced cost {d}"
                );
            }
        }
        for (r, (s, b)) in sums.iter().zip(&lp.rhs).enumerate() {
            assert!((s - b).abs() < 1e-7, "row {r} sums to {s}, not {b}");
        }
        let (primal, dual) = (lp.objective(), lp.bound());
        assert!(
            (primal - dual).abs() < 1e-6 * (1.0 + primal.abs()),
            "primal {primal}, dual {dual}"
        );
    }

    #[test]
    fn random_relaxations_are_solved_to_a_certified_optimum() {
        let never = AtomicBool::new(false);
        let mut rng = Rng::new(7);
        for round in 0..60 {
            let m = 3 + rng.below(40) as usize;
            let n = 5 + rng.below(300) as usize;
            let (start, rows, cost) = random(m, n, 1 + rng.below(8), &mut rng);
            let mut lp = DualSimplex::new(m, &start, &rows, &cost, &vec![1.0; m]);
            // (A limit far above what these take: a cycle fails here.)
            assert_eq!(lp.solve(20_000, &never), LpStatus::Optimal, "round {round}");
            certify(&lp);
        }
    }

    #[test]
    fn a_cutoff_ends_only_solves_whose_optimum_is_above_it() {
        // Each relaxation solved without a cutoff, then afresh with one
        // under its optimum (the solve must end cut, and no cheaper than
        // the cutoff), and with one above it (the same optimum).
        let never = AtomicBool::new(false);
        let mut rng = Rng::new(23);
        let mut cut = 0;
        for round in 0..60 {
            let m = 5 + rng.below(40) as usize;
            let n = 20 + rng.below(300) as usize;
            let (start, rows, cost) = random(m, n, 1 + rng.below(8), &mut rng);
            let ones = vec![1.0; m];
            let mut free = DualSimplex::new(m, &start, &rows, &cost, &ones);
            assert_eq!(free.solve(u64::MAX, &never), LpStatus::Optimal);
            let optimum = free.objective();
            let under = optimum * (0.5 + 0.45 * rng.below(100) as f64 / 100.0);
            let mut lp = DualSimplex::new(m, &start, &rows, &cost, &ones);
            lp.set_cutoff(under);
            match lp.solve(u64::MAX, &never) {
                LpStatus::Cutoff => {
                    cut += 1;
                    assert!(lp.bound() > under, "round {round}: cut under the cutoff");
                }
                // (The first basis may be optimal at once: nothing to cut.)
                status => {
                    assert_eq!(status, LpStatus::Optimal, "round {round}");
                    assert!((lp.objective() - optimum).abs() < 1e-6 * (1.0 + optimum));
                }
            }
            let mut lp = DualSimplex::new(m, &start, &rows, &cost, &ones);
            lp.set_cutoff(optimum + 1.0);
            assert_eq!(
                lp.solve(u64::MAX, &never),
                LpStatus::Optimal,
                "round {round}"
            );
            assert!((lp.objective() - optimum).abs() < 1e-6 * (1.0 + optimum));
        }
        assert!(cut > 30, "only {cut} of 60 solves were cut");
    }

    #[test]
    fn a_warm_start_after_bounds_change_reaches_a_cold_solves_optimum() {
        let never = AtomicBool::new(false);
        let mut rng = Rng::new(11);
        for round in 0..40 {
            let m = 5 + rng.below(30) as usize;
            let n = 20 + rng.below(200) as usize;
            let (start, rows, cost) = random(m, n, 1 + rng.below(6), &mut rng);
            let ones = vec![1.0; m];
            let mut warm = DualSimplex::new(m, &start, &rows, &cost, &ones);
            assert_eq!(warm.solve(u64::MAX, &never), LpStatus::Optimal);
            // Branch as a branch and bound does: a column fixed at 1 or at
            // 0, four times over.
            let mut fixed = Vec::new();
            for _ in 0..4 {
                let j = rng.below(n as u64) as usize;
                let at = if rng.below(2) == 0 { 0.0 } else { 1.0 };
                warm.set_bounds(j, at, at);
                fixed.push((j, at));
                let w = warm.solve(20_000, &never);
                let mut fresh = DualSimplex::new(m, &start, &rows, &cost, &ones);
                for &(j, at) in &fixed {
                    fresh.set_bounds(j, at, at);
                }
                let c = fresh.solve(20_000, &never);
                assert_eq!(w, c, "round {round}");
                if w == LpStatus::Optimal {
                    certify(&warm);
                    assert!((warm.bound() - fresh.bound()).abs() < 1e-6, "round {round}");
                } else {
                    break;
                }
            }
            // Then as the tree goes to another node: most columns fixed at
            // 0 (their reduced costs left out of the pivots, out of date),
            // a solve paused, and every column freed again in its middle.
            for j in 0..n {
                if rng.below(3) != 0 {
                    warm.set_bounds(j, 0.0, 0.0);
                }
            }
            let _ = warm.solve(1 + rng.below(5), &never);
            for j in 0..n {
                warm.set_bounds(j, 0.0, 1.0);
            }
            let w = warm.solve(20_000, &never);
            let mut cold = DualSimplex::new(m, &start, &rows, &cost, &ones);
            assert_eq!(w, cold.solve(20_000, &never), "round {round}");
            certify(&warm);
            assert!((warm.bound() - cold.bound()).abs() < 1e-6, "round {round}");
        }
    }

    #[test]
    fn degenerate_relaxations_end_too() {
        // Every cover of a tiling costs the same, and columns come twice:
        // ties everywhere, where a dual simplex may cycle.
        let never = AtomicBool::new(false);
        let mut rng = Rng::new(5);
        for round in 0..40 {
            let m = 6 + rng.below(30) as usize;
            let (mut start, mut rows, mut cost) = (vec![0u32], Vec::new(), Vec::new());
            for _ in 0..2 + rng.below(150) {
                let first = rng.below(m as u64) as u32;
                let len = 1 + rng.below(4) as u32;
                let these: Vec<u32> = (first..(first + len).min(m as u32)).collect();
                for _ in 0..1 + rng.below(2) {
                    rows.extend(&these);
                    start.push(rows.len() as u32);
                    cost.push(these.len() as f64);
                }
            }
            // The columns are intervals, whose relaxation is integral: it
            // has a solution when the intervals tile 0..m (left to right).
            let mut reach = vec![false; m + 1];
            reach[0] = true;
            for a in 0..m {
                for j in 0..cost.len() {
                    let these = &rows[start[j] as usize..start[j + 1] as usize];
                    if reach[a] && these[0] as usize == a {
                        reach[a + these.len()] = true;
                    }
                }
            }
            let mut lp = DualSimplex::new(m, &start, &rows, &cost, &vec![1.0; m]);
            let status = lp.solve(100_000, &never);
            assert_eq!(
                status == LpStatus::Optimal,
                reach[m],
                "round {round}: {status:?}"
            );
            if status == LpStatus::Optimal {
                certify(&lp);
                // Each row costs 1 in any cover.
                assert!((lp.bound() - m as f64).abs() < 1e-6, "round {round}");
            } else {
                assert_eq!(status, LpStatus::Infeasible, "round {round}");
            }
        }
    }

    #[test]
    fn rows_that_cannot_be_met_are_infeasible() {
        let never = AtomicBool::new(false);
        // Row 1 is in no column.
        let mut lp = DualSimplex::new(2, &[0, 1, 2], &[0, 0], &[1.0, 2.0], &[1.0, 1.0]);
        assert_eq!(lp.solve(u64::MAX, &never), LpStatus::Infeasible);
        // {0, 1} and {1, 2} and {0, 2}: no partition of {0, 1, 2}, and none
        // by halves either once {0, 2} is out.
        let (start, rows) = ([0, 2, 4, 6], [0, 1, 1, 2, 0, 2]);
        let mut lp = DualSimplex::new(3, &start, &rows, &[1.0; 3], &[1.0; 3]);
        assert_eq!(lp.solve(u64::MAX, &never), LpStatus::Optimal);
        assert!((lp.bound() - 1.5).abs() < 1e-9, "the halves cost 1.5");
        lp.set_bounds(2, 0.0, 0.0);
        assert_eq!(lp.solve(u64::MAX, &never), LpStatus::Infeasible);
    }

    #[test]
    fn cuts_added_to_a_solved_relaxation_give_a_fresh_solves_optimum() {
        let never = AtomicBool::new(false);
        let mut rng = Rng::new(6);
        let (mut raised, mut dropped) = (0, 0);
        for case in 0..40 {
            let m = 8 + rng.below(25) as usize;
            let n = 200;
            let (start, rows, cost) = random(m, n, 5, &mut rng);
            let ones = vec![1.0; m];
            let mut lp = DualSimplex::new(m, &start, &rows, &cost, &ones);
            assert_eq!(lp.solve(u64::MAX, &never), LpStatus::Optimal);
            let before = lp.bound();
            // Cuts on the first n columns (the last m, one a row, can
            // always meet the rows): some on the solution's support.
            let support: Vec<u32> = (0..n as u32)
                .filter(|&j| lp.values()[j as usize] > 1e-9)
                .collect();
            let cuts: Vec<Vec<u32>> = (0..1 + rng.below(6))
                .map(|_| {
                    let mut cut: Vec<u32> = (0..2 + rng.below(4))
                        .map(|_| match support.len() {
                            s if s > 0 && rng.below(3) > 0 => support[rng.below(s as u64) as usize],
                            _ => rng.below(n as u64) as u32,
                        })
                        .collect();
                    cut.sort_unstable();
                    cut.dedup();
                    cut
                })
                .collect();
            lp.add_cuts(&cuts);
            assert_eq!(lp.n_rows(), m + cuts.len());
            assert_eq!(lp.solve(u64::MAX, &never), LpStatus::Optimal, "case {case}");
            certify(&lp);
            assert!(lp.bound() >= before - 1e-6, "case {case}: the bound fell");
            // The loose cuts out: the same optimum, with no iteration.
            let mut tight = lp.clone();
            let kept = tight.drop_loose_cuts(m);
            dropped += kept.iter().filter(|&&k| !k).count();
            assert_eq!(tight.n_rows(), m + kept.iter().filter(|&&k| k).count());
            let at = tight.iterations();
            assert_eq!(tight.solve(u64::MAX, &never), LpStatus::Optimal);
            assert_eq!(tight.iterations(), at, "case {case}: the basis moved");
            certify(&tight);
            let (a, b) = (tight.bound(), lp.bound());
            assert!(
                (a - b).abs() < 1e-6 * (1.0 + b.abs()),
                "case {case}: {a} against {b}"
            );
            if lp.bound() > before + 1e-6 {
                raised += 1;
            }
            // The same relaxation written out: each cut a row that sums
            // to 1 with a column of its own, its slack, cost 0.
            let (mut start2, mut rows2) = (vec![0u32], Vec::new());
            for j in 0..n + m {
                rows2.extend_from_slice(&rows[start[j] as usize..start[j + 1] as usize]);
                for (i, cut) in cuts.iter().enumerate() {
                    if cut.contains(&(j as u32)) {
                        rows2.push((m + i) as u32);
                    }
                }
                start2.push(rows2.len() as u32);
            }
            let mut cost2 = cost.clone();
            for i in 0..cuts.len() {
                rows2.push((m + i) as u32);
                start2.push(rows2.len() as u32);
                cost2.push(0.0);
            }
            let ones2 = vec![1.0; m + cuts.len()];
            let mut fresh = DualSimplex::new(m + cuts.len(), &start2, &rows2, &cost2, &ones2);
            assert_eq!(fresh.solve(u64::MAX, &never), LpStatus::Optimal);
            let (a, b) = (lp.bound(), fresh.bound());
            assert!(
                (a - b).abs() < 1e-6 * (1.0 + b.abs()),
                "case {case}: {a} against {b}"
            );
        }
        assert!(raised > 5, "cuts that raise the bound: {raised} of 40");
        assert!(dropped > 5, "loose cuts dropped: {dropped}");
    }

    /// Solves random relaxations (costs by `cost` from each column's
    /// number of rows and `random`'s cost) whole and in slices of at most
    /// `slice` pivots, at the root and after
    /// two branchings, as a tree does: the same pivots, values and bound.
    /// The pauses that fell while finishing with the true costs.
    fn sliced_as_whole(seed: u64, cost: fn(usize, f64, &mut Rng) -> f64, slice: u64) -> usize {
        let never = AtomicBool::new(false);
        let mut rng = Rng::new(seed);
        let mut paused_finishing = 0;
        for case in 0..30 {
            let m = 10 + rng.below(30) as usize;
            let (start, rows, given) = random(m, 300, 6, &mut rng);
            let cost: Vec<f64> = (0..given.len())
                .map(|j| cost((start[j + 1] - start[j]) as usize, given[j], &mut rng))
                .collect();
            let ones = vec![1.0; m];
            let mut whole = DualSimplex::new(m, &start, &rows, &cost, &ones);
            let mut sliced = whole.clone();
            for round in 0..3 {
                if round > 0 {
                    let j = rng.below(300) as usize;
                    let v = (rng.below(2)) as f64;
                    whole.set_bounds(j, v, v);
                    sliced.set_bounds(j, v, v);
                }
                let before = whole.iterations();
                let status = whole.solve(u64::MAX, &never);
                let mut calls = 0;
                let paused = loop {
                    calls += 1;
                    assert!(calls < 100_000, "case {case} round {round}: no end");
                    match sliced.solve(1 + rng.below(slice), &never) {
                        LpStatus::IterationLimit => {
                            paused_finishing += usize::from(sliced.finishing)
                        }
                        s => break s,
                    }
                };
                assert_eq!(paused, status, "case {case} round {round}");
                assert_eq!(sliced.iterations(), whole.iterations(), "case {case}");
                assert_eq!(sliced.values(), whole.values(), "case {case}");
                assert_eq!(sliced.bound().to_bits(), whole.bound().to_bits());
                let pivots = whole.iterations() - before;
                assert!(calls > 1 || pivots <= slice, "case {case}: no pause");
            }
        }
        paused_finishing
    }

    #[test]
    fn a_solve_in_slices_takes_the_pivots_of_one_solve() {
        sliced_as_whole(5, |_, given, _| given, 7);
    }

    #[test]
    fn a_solve_paused_while_finishing_goes_on_finishing() {
        // Costs apart by less than their perturbation (100 a row, plus a
        // few millionths): the perturbed optimum is often not the true
        // costs', and finishing takes pivots of its own. A solve paused
        // among them must go on finishing, not start over perturbed, which
        // undid them (in slices of a few pivots it never ended).
        let cost =
            |rows: usize, _, rng: &mut Rng| 100.0 * rows as f64 + 1e-6 * rng.below(20) as f64;
        let paused_finishing = sliced_as_whole(17, cost, 1);
        assert!(paused_finishing > 0, "no solve was paused while finishing");
    }

    #[test]
    fn a_solve_cut_short_still_bounds_the_optimum() {
        let never = AtomicBool::new(false);
        let mut rng = Rng::new(3);
        for _ in 0..20 {
            let m = 20 + rng.below(20) as usize;
            let (start, rows, cost) = random(m, 400, 6, &mut rng);
            let ones = vec![1.0; m];
            let mut full = DualSimplex::new(m, &start, &rows, &cost, &ones);
            assert_eq!(full.solve(u64::MAX, &never), LpStatus::Optimal);
            let mut short = DualSimplex::new(m, &start, &rows, &cost, &ones);
            let mut last = f64::NEG_INFINITY;
            for _ in 0..5 {
                let status = short.solve(3, &never);
                let b = short.bound();
                assert!(
                    b <= full.bound() + 1e-6,
                    "{b} past the optimum {}",
                    full.bound()
                );
                // The dual objective never falls.
                assert!(b >= last - 1e-6, "{b} fell from {last}");
                last = b;
                if status == LpStatus::Optimal {
                    break;
                }
            }
        }
        let mut lp = DualSimplex::new(1, &[0, 1], &[0], &[1.0], &[1.0]);
        assert_eq!(
            lp.solve(u64::MAX, &AtomicBool::new(true)),
            LpStatus::Stopped
        );
        // Stopped in an inversion, then resumed.
        let (start, rows, cost) = random(30, 600, 6, &mut rng);
        let mut lp = DualSimplex::new(30, &start, &rows, &cost, &[1.0; 30]);
        assert_eq!(lp.solve(20, &never), LpStatus::IterationLimit);
        assert!(lp.head.iter().any(|&k| k < lp.n), "columns in the basis");
        lp.since_refactor = REFACTOR;
        let stop = AtomicBool::new(true);
        assert_eq!(lp.solve(u64::MAX, &stop), LpStatus::Stopped);
        assert!(lp.since_refactor >= REFACTOR, "the inversion is still due");
        assert_eq!(lp.solve(20_000, &never), LpStatus::Optimal);
        certify(&lp);
    }

    #[test]
    fn the_wide_loops_give_the_plain_loops_bits() {
        // (Where the processor has no AVX both sides are the plain loop.)
        let mut rng = Rng::new(63);
        for len in [0, 1, 3, 4, 5, 17, 64, 823] {
            let x: Vec<f64> = (0..len)
                .map(|_| rng.below(1 << 20) as f64 / 7.0 - 70_000.0)
                .collect();
            let start: Vec<f64> = (0..len).map(|_| rng.below(1000) as f64 / 3.0).collect();
            let c = -1.0 / 3.0;
            let (mut a, mut b) = (start.clone(), start.clone());
            let na = row_less(&mut a, c, &x, wide_vectors());
            let nb = row_less(&mut b, c, &x, false);
            assert_eq!(na.to_bits(), nb.to_bits());
            let bits = |v: &[f64]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&a), bits(&b));
            for (i, v) in a.iter().enumerate() {
                assert_eq!(v.to_bits(), (start[i] - c * x[i]).to_bits());
            }
            let (mut a, mut b) = (start.clone(), start);
            add_times(&mut a, c, &x, wide_vectors());
            add_times(&mut b, c, &x, false);
            assert_eq!(bits(&a), bits(&b));
        }
    }
}
