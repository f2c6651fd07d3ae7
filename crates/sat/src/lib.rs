//! Exact cover as satisfiability, solved by a learning (CDCL) solver.
//!
//! Dancing links never learns from a dead end: a bad early choice in one
//! region is refuted again under every combination of choices elsewhere. A
//! CDCL solver learns a clause from each conflict and jumps back past the
//! choices that had nothing to do with it, which is what a uniqueness proof on
//! a big puzzle needs. Here every problem the engine takes is written as
//! clauses over one variable per option, solved by CaDiCaL (vendored by the
//! `cadical-sys` crate, built with the C++ compiler alone), and each model is read
//! back as option ids. Further solutions come from blocking clauses; there is
//! no unbounded count here (the counting engines do that).
//!
//! The clauses, for option variables `x_o` (variable `o + 1`):
//! * a primary item covered exactly once: at least one of its options, and at
//!   most one (pairwise for a few options, else Sinz's sequential counter);
//! * a primary item with bounds `lo..=hi`: a unary counter over its options
//!   (`r[k][j]`: at least `j` of the first `k`), both ways, then `r[n][lo]`
//!   and not `r[n][hi + 1]`;
//! * a secondary item: at most one of its options; with colors, one variable
//!   per color (an option of that color implies it), and at most one among
//!   the color variables and the uncolored options, since options that agree
//!   on a color may share the item and an uncolored one must have it alone.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use xc::{CompiledProblem, Next, Poll, Slice, Sliced};

mod held;

pub use held::FREED_APART;
use held::Held;

/// What the solver's terminate callback watches: a stop flag (Ctrl-C,
/// `cancel`) and a deadline.
struct Watch {
    stop: Arc<AtomicBool>,
    deadline: Option<Instant>,
}

impl cadical_sys::Terminator for Watch {
    fn terminated(&mut self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// Counters of a CDCL search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SatStats {
    /// Solutions found.
    pub solutions: u64,
    /// Conflicts analysed, decisions taken and literals propagated, as
    /// CaDiCaL counts them over every call.
    pub conflicts: u64,
    pub decisions: u64,
    pub propagations: u64,
    /// Calls of the solver (one per solution, and one that ends).
    pub solves: u64,
    /// Variables and clauses of the encoding (blocking clauses included).
    pub variables: u64,
    pub clauses: u64,
}

/// The budgets of one step of the solver, each counted from the call: conflicts,
/// decisions (the CDCL search's nodes) and a deadline. A call spends its
/// first decisions on CaDiCaL's quick tries, so a loop of calls with a tiny
/// decision budget can make no progress; conflicts always do (each teaches
/// a clause).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct SatBudget {
    conflicts: Option<u64>,
    decisions: Option<u64>,
    deadline: Option<Instant>,
}

/// What one step of the solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
enum SatStep {
    /// A solution: its option ids, increasing.
    Solution(Vec<u32>),
    /// No further solution.
    Exhausted,
    /// A budget ran out, or the stop flag was raised: call again to go on.
    Stopped,
}

/// A CDCL search of one problem: its solutions one by one.
pub struct Sat {
    /// (Freed on a thread of its own where it is big: `held`.)
    solver: Held,
    n_options: usize,
    /// Can no solution contain another? Then a solution is blocked by the
    /// clause "not all of these"; else by its whole assignment.
    exact: bool,
    exhausted: bool,
    stop: Arc<AtomicBool>,
    stats: SatStats,
    /// The last solution found by [`Solve::run`].
    solution: Vec<u32>,
}

// SAFETY: `cadical_sys::CaDiCal` is not `Send` only because it holds raw
// pointers (to the C++ solver and to our boxed terminator). The solver keeps no
// thread-local state, every call needs `&mut Sat`, so it is used by one thread
// at a time, and the terminator it points to (`Watch`: an `Arc<AtomicBool>` and
// an `Instant`) is itself `Send`. Moving the whole search to another thread
// (Python's worker threads, `detach`) is therefore sound.
unsafe impl Send for Sat {}

/// The clauses being written, with the next free variable.
struct Cnf<'a> {
    solver: &'a mut Held,
    next: i32,
}

impl Cnf<'_> {
    fn fresh(&mut self) -> i32 {
        // (Not declared: without factoring CaDiCaL takes a new variable where
        // it first meets it.)
        self.next += 1;
        self.next
    }

    fn clause(&mut self, lits: &[i32]) {
        add_clause(self.solver, lits);
        self.solver.clauses += 1;
    }

    /// At most one of `lits`.
    fn at_most_one(&mut self, lits: &[i32]) {
        if lits.len() <= 5 {
            for (a, &x) in lits.iter().enumerate() {
                for &y in &lits[a + 1..] {
                    self.clause(&[-x, -y]);
                }
            }
            return;
        }
        // Sinz: s_k says "one of the first k is true".
        let mut prev = self.fresh();
        self.clause(&[-lits[0], prev]);
        for &x in &lits[1..lits.len() - 1] {
            let s = self.fresh();
            self.clause(&[-x, s]);
            self.clause(&[-prev, s]);
            self.clause(&[-x, -prev]);
            prev = s;
        }
        self.clause(&[-lits[lits.len() - 1], -prev]);
    }

    /// Between `lo` and `hi` of `lits` (a unary counter, both ways).
    fn between(&mut self, lits: &[i32], lo: usize, hi: usize) {
        let n = lits.len();
        if lo > n {
            self.clause(&[]);
            return;
        }
        let cap = (hi + 1).max(lo).min(n);
        // r[k - 1][j - 1]: at least j of the first k (j <= min(k, cap)).
        let mut r: Vec<Vec<i32>> = Vec::with_capacity(n);
        for k in 1..=n {
            let x = lits[k - 1];
            let row: Vec<i32> = (1..=k.min(cap)).map(|_| self.fresh()).collect();
            for j in 1..=k.min(cap) {
                let v = row[j - 1];
                // The previous row: at least j, and at least j - 1, of the first k - 1
                // (None: false; for j - 1 = 0: true).
                let same = (j < k).then(|| r[k - 2][j - 1]);
                let less = if j == 1 { None } else { Some(r[k - 2][j - 2]) };
                // Forward: either way of getting j makes v.
                if let Some(s) = same {
                    self.clause(&[-s, v]);
                }
                match less {
                    Some(l) => self.clause(&[-x, -l, v]),
                    None => self.clause(&[-x, v]),
                }
                // Backward: v only by one of them.
                match same {
                    Some(s) => {
                        self.clause(&[-v, s, x]);
                        if let Some(l) = less {
                            self.clause(&[-v, s, l]);
                        }
                    }
                    None => {
                        self.clause(&[-v, x]);
                        if let Some(l) = less {
                            self.clause(&[-v, l]);
                        }
                    }
                }
            }
            r.push(row);
        }
        let last = &r[n - 1];
        if lo >= 1 {
            self.clause(&[last[lo - 1]]);
        }
        if hi < n {
            self.clause(&[-last[hi]]);
        }
    }
}

/// Do the other items already allow at most `hi` of the options of primary
/// item `i`? They do when those options fall into at most `hi` groups that
/// each share a secondary item, used without a color (whose "at most one"
/// is always written; a primary item's may itself be left out as implied,
/// so it cannot serve). Akari's cells are the case: "lit once or twice" is implied by
/// one light per row segment and one per column segment, and a counter for
/// it would only slow the solver down.
///
/// `uses[j]` lists the options of item `j` (variables, increasing, with the
/// color each gives `j`), so that a group is the merge of two sorted lists.
fn implied_at_most(
    problem: &CompiledProblem,
    uses: &[Vec<(i32, u32)>],
    hi: usize,
    lits: &[i32],
) -> bool {
    let n_primary = problem.n_primary();
    let mut left: Vec<i32> = lits.to_vec();
    let mut group: Vec<i32> = Vec::new();
    let mut best: Vec<i32> = Vec::new();
    for _ in 0..hi {
        if left.is_empty() {
            return true;
        }
        // The item of the first option left that takes the most of the others, one at most.
        let o = left[0] as usize - 1;
        let start = problem.option_start()[o] as usize;
        best.clear();
        best.push(left[0]);
        for (k, &j) in problem.option(o).iter().enumerate() {
            let j = j as usize;
            if j < n_primary || problem.color_at(start + k) != 0 {
                continue;
            }
            // The options left that have j, uncolored: both lists increase.
            group.clear();
            let mut of_j = uses[j]
                .iter()
                .filter(|&&(_, c)| c == 0)
                .map(|&(x, _)| x)
                .peekable();
            for &x in &left {
                while of_j.next_if(|&y| y < x).is_some() {}
                if of_j.peek() == Some(&x) {
                    group.push(x);
                }
            }
            if group.len() > best.len() {
                std::mem::swap(&mut best, &mut group);
            }
        }
        // Both increase: what is left stays increasing.
        let mut taken = best.iter().peekable();
        left.retain(|&x| {
            while taken.next_if(|&&y| y < x).is_some() {}
            taken.peek() != Some(&&x)
        });
    }
    left.is_empty()
}

/// How the clauses keep a primary item of `n` options between `lo` and
/// `hi`, decided once: the encoding counts its variables before it writes
/// its clauses.
#[derive(Clone, Copy, Debug)]
enum Kept {
    /// Exactly one: a clause of all its options, and at most one of them.
    One,
    /// No upper bound to write (`hi` at least `n`): a clause of all its
    /// options where the lower bound is 1, else nothing.
    AtLeast(usize),
    /// A unary counter, both ways ([`Cnf::between`]).
    Between(usize, usize),
}

impl Kept {
    fn of(lo: usize, hi: usize, n: usize) -> Kept {
        if lo == 1 && hi == 1 {
            Kept::One
        } else if lo <= 1 && hi >= n {
            Kept::AtLeast(lo)
        } else {
            Kept::Between(lo, hi)
        }
    }

    /// The fresh variables its clauses take, over `n` options.
    fn variables(self, n: usize) -> u64 {
        match self {
            Kept::One => at_most_one_variables(n),
            Kept::AtLeast(_) => 0,
            // `min(k, cap)` for each prefix of `k` options.
            Kept::Between(lo, _) if lo > n => 0,
            Kept::Between(lo, hi) => {
                let (n, cap) = (n as u64, (hi + 1).max(lo).min(n) as u64);
                cap * (cap + 1) / 2 + (n - cap) * cap
            }
        }
    }
}

/// Fresh variables of [`Cnf::at_most_one`] over `n` literals.
fn at_most_one_variables(n: usize) -> u64 {
    if n <= 5 { 0 } else { n as u64 - 1 }
}

/// One clause, in one call across the binding.
fn add_clause(solver: &mut cadical_sys::CaDiCal, lits: &[i32]) {
    if lits.is_empty() {
        solver.add(0);
    } else {
        solver.clause6(lits);
    }
}

/// Bytes of the CDCL encoding per entry or option (an option is a variable,
/// an entry a few clause literals, the at-most-one counters a few more):
/// 2.60 GB for a random problem of a million options and five million
/// entries (434 bytes each), 0.3 GB for the 300 x 300 L-tromino board.
pub const BYTES_PER_ENTRY: u64 = 450;

impl Sat {
    /// The memory this engine will hold on `problem`, before it is built:
    /// its encoding and CaDiCaL's tables, measured ([`BYTES_PER_ENTRY`]).
    /// The clauses it learns come on top: a long search grows past this (the
    /// 60 x 60 L-tromino board less a cell, which has no tiling, held 1.6
    /// times it after a million decisions).
    ///
    /// ```
    /// let p = xc::CompiledProblem::new(1, 0, vec![1], vec![1], vec![0, 1], vec![0], vec![]).unwrap();
    /// assert_eq!(sat::Sat::bytes(&p), 2 * sat::BYTES_PER_ENTRY);
    /// ```
    pub fn bytes(problem: &CompiledProblem) -> u64 {
        (problem.n_entries() as u64 + problem.n_options() as u64) * BYTES_PER_ENTRY
    }

    /// The clauses of `problem`, in a fresh solver.
    pub fn new(problem: &CompiledProblem) -> Sat {
        match Sat::new_until(problem, &AtomicBool::new(false)) {
            Some(sat) => sat,
            None => unreachable!("a flag nobody raises stopped the encoding"),
        }
    }

    /// [`Sat::new`], giving up (None) once `stop` is raised: on a million
    /// options the encoding takes seconds, and Ctrl-C or a budget must not
    /// wait for it.
    pub fn new_until(problem: &CompiledProblem, halt: &AtomicBool) -> Option<Sat> {
        const EVERY: usize = 4096;
        let stop = Arc::new(AtomicBool::new(false));
        // Held from the start: an encoding stopped half-way is freed as a
        // whole one is.
        let mut solver = Held::new(cadical_sys::CaDiCal::new());
        // No factoring (bounded variable addition): measured on Akari, the
        // same conflicts without it, and with it the binding checks on every
        // literal added that its variable was declared.
        solver.set("factor", 0);
        let n_options = problem.n_options();
        let n_items = problem.n_items();
        let mut uses: Vec<Vec<(i32, u32)>> = vec![Vec::new(); n_items];
        for o in 0..n_options {
            if o % EVERY == 0 && halt.load(Ordering::Relaxed) {
                return None;
            }
            let start = problem.option_start()[o] as usize;
            for (k, &i) in problem.option(o).iter().enumerate() {
                uses[i as usize].push((o as i32 + 1, problem.color_at(start + k)));
            }
        }
        // How each primary item is kept (an upper bound the other items
        // already keep needs no clauses), and the variables of the counters
        // and colors.
        let n_primary = problem.n_primary();
        let mut kept = Vec::with_capacity(n_primary);
        let mut variables = n_options as u64;
        for (i, options) in uses.iter().enumerate() {
            if halt.load(Ordering::Relaxed) {
                return None;
            }
            let n = options.len();
            if i < n_primary {
                let (lo, hi) = (problem.lo()[i] as usize, problem.hi()[i] as usize);
                let lits: Vec<i32> = options.iter().map(|&(x, _)| x).collect();
                let hi = if hi < n && implied_at_most(problem, &uses, hi, &lits) {
                    n
                } else {
                    hi
                };
                let k = Kept::of(lo, hi, n);
                variables += k.variables(n);
                kept.push(k);
            } else {
                let mut colors: Vec<u32> = options
                    .iter()
                    .map(|&(_, c)| c)
                    .filter(|&c| c != 0)
                    .collect();
                colors.sort_unstable();
                colors.dedup();
                let uncolored = options.iter().filter(|&&(_, c)| c == 0).count();
                variables += colors.len() as u64 + at_most_one_variables(uncolored + colors.len());
            }
        }
        // Every variable at once (CaDiCaL would double its tables as it met
        // them, copying them each time: one doubling to 8 million variables
        // took 1.8 s, and a million options' encoding 17 s against 14 s). Every
        // option's variable exists, even one that meets no clause (an option
        // of secondary items alone): a model gives each a value.
        let Ok(declared) = i32::try_from(variables) else {
            return None; // (past CaDiCaL's variables: refused before, by size)
        };
        solver.declare_more_variables(declared);
        let mut cnf = Cnf {
            solver: &mut solver,
            next: n_options as i32,
        };
        for (i, options) in uses.iter().enumerate() {
            if halt.load(Ordering::Relaxed) {
                return None;
            }
            let lits: Vec<i32> = options.iter().map(|&(x, _)| x).collect();
            if i < n_primary {
                match kept[i] {
                    Kept::One => {
                        cnf.clause(&lits);
                        cnf.at_most_one(&lits);
                    }
                    Kept::AtLeast(lo) => {
                        if lo == 1 {
                            cnf.clause(&lits);
                        }
                    }
                    Kept::Between(lo, hi) => cnf.between(&lits, lo, hi),
                }
                continue;
            }
            // A secondary item: one color, or one uncolored option alone.
            let mut slots: Vec<i32> = Vec::new();
            let mut colors: Vec<(u32, i32)> = Vec::new();
            for &(x, c) in options {
                if c == 0 {
                    slots.push(x);
                    continue;
                }
                let y = match colors.iter().find(|&&(d, _)| d == c) {
                    Some(&(_, y)) => y,
                    None => {
                        let y = cnf.fresh();
                        colors.push((c, y));
                        slots.push(y);
                        y
                    }
                };
                cnf.clause(&[-x, y]);
            }
            cnf.at_most_one(&slots);
        }
        debug_assert_eq!(cnf.next, declared, "variables counted before the encoding");
        let exact = problem.lo() == problem.hi();
        Some(Sat {
            solver,
            n_options,
            exact,
            exhausted: false,
            stop,
            stats: SatStats {
                variables,
                ..SatStats::default()
            },
            solution: Vec::new(),
        })
    }

    /// Puts option `o` into every solution (a unit clause), as
    /// [`xc::Search::force`] does for dancing links.
    pub fn require(&mut self, o: u32) {
        add_clause(&mut self.solver, &[o as i32 + 1]);
        self.solver.clauses += 1;
    }

    /// The flag that stops a running [`Sat::next`] (from another thread).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// The options of the solution just reported, in increasing order.
    pub fn solution_into(&self, out: &mut Vec<u32>) {
        out.clear();
        out.extend_from_slice(&self.solution);
    }

    pub fn stats(&self) -> SatStats {
        SatStats {
            clauses: self.solver.clauses,
            ..self.stats
        }
    }

    /// Has every solution been found?
    pub fn exhausted(&self) -> bool {
        self.exhausted
    }

    /// The next solution, or the end, or `Stopped` when a budget ran out
    /// or the stop flag was raised first (the body of [`Sliced::run`]).
    fn advance(&mut self, budget: &SatBudget) -> SatStep {
        if self.exhausted {
            return SatStep::Exhausted;
        }
        if self.stop.load(Ordering::Relaxed) {
            return SatStep::Stopped;
        }
        self.solver.connect_terminator(Watch {
            stop: Arc::clone(&self.stop),
            deadline: budget.deadline,
        });
        // CaDiCaL's limits are ints, for the next call only, -1 for none; past
        // i32::MAX a limit is as good as none.
        let limit = |n: Option<u64>| n.map_or(-1, |n| n.min(i32::MAX as u64) as i32);
        self.solver.limit("conflicts", limit(budget.conflicts));
        self.solver.limit("decisions", limit(budget.decisions));
        let result = self.solver.solve();
        self.stats.solves += 1;
        let count = |name| self.solver.get_statistic_value(name).max(0) as u64;
        self.stats.conflicts = count("conflicts");
        self.stats.decisions = count("decisions");
        self.stats.propagations = count("propagations");
        match result {
            cadical_sys::Status::UNKNOWN => SatStep::Stopped,
            cadical_sys::Status::UNSATISFIABLE => {
                self.exhausted = true;
                SatStep::Exhausted
            }
            cadical_sys::Status::SATISFIABLE => {
                let chosen: Vec<u32> = (0..self.n_options as u32)
                    .filter(|&o| self.solver.val(o as i32 + 1) > 0)
                    .collect();
                let block: Vec<i32> = if self.exact {
                    chosen.iter().map(|&o| -(o as i32 + 1)).collect()
                } else {
                    (0..self.n_options as i32)
                        .map(|o| {
                            if chosen.contains(&(o as u32)) {
                                -(o + 1)
                            } else {
                                o + 1
                            }
                        })
                        .collect()
                };
                add_clause(&mut self.solver, &block);
                self.solver.clauses += 1;
                self.stats.solutions += 1;
                SatStep::Solution(chosen)
            }
        }
    }
}

/// The CDCL solver in slices: a slice's work is decisions, its conflicts
/// and deadline are the solver's own budgets; the outcome is the next
/// solution (read with `solution_into`) or the end.
impl Sliced for Sat {
    type Outcome = Next;

    fn run(&mut self, slice: Slice) -> Poll<Next> {
        let budget = SatBudget {
            decisions: (slice.work != u64::MAX).then_some(slice.work),
            conflicts: slice.conflicts,
            deadline: slice.deadline,
        };
        match self.advance(&budget) {
            SatStep::Solution(ids) => {
                self.solution = ids;
                Poll::Ready(Next::Solution)
            }
            SatStep::Exhausted => Poll::Ready(Next::Exhausted),
            SatStep::Stopped => Poll::Pending,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(primary: u32, lo: Vec<u32>, hi: Vec<u32>, options: &[&[u32]]) -> CompiledProblem {
        let mut start = vec![0u32];
        let mut item = Vec::new();
        for o in options {
            item.extend_from_slice(o);
            start.push(item.len() as u32);
        }
        CompiledProblem::new(primary, 0, lo, hi, start, item, vec![]).unwrap()
    }

    fn all(p: &CompiledProblem) -> Vec<Vec<u32>> {
        let mut sat = Sat::new(p);
        let mut found = Vec::new();
        while let SatStep::Solution(s) = sat.advance(&SatBudget::default()) {
            assert!(p.is_solution(&s));
            found.push(s);
        }
        assert!(sat.exhausted());
        found.sort();
        found
    }

    #[test]
    fn exact_cover_by_clauses() {
        // {0, 1, 2} by {0, 1}, {2}, {0}, {1, 2}: two solutions.
        let p = problem(3, vec![1; 3], vec![1; 3], &[&[0, 1], &[2], &[0], &[1, 2]]);
        assert_eq!(all(&p), vec![vec![0, 1], vec![2, 3]]);
    }

    #[test]
    fn bounds_by_the_counter() {
        // Item 0 covered 1 to 2 times by any of four one-item options: 4 + 6.
        let p = problem(1, vec![1], vec![2], &[&[0], &[0], &[0], &[0]]);
        assert_eq!(all(&p).len(), 10);
        // Exactly 3 of 7 long counters: C(7, 3) = 35.
        let one: &[u32] = &[0];
        let p = problem(1, vec![3], vec![3], &[one; 7]);
        assert_eq!(all(&p).len(), 35);
    }
}
