//! A test-only entry: the LP relaxation of the engine's simplex (the `lp`
//! crate) on arrays from Python, so that tests/test_lp.py can hold its
//! optima to an independent solver's (HiGHS), and the LP tree's K best
//! (the `xc` crate's `LpTree`) to the search's.

use std::sync::atomic::AtomicBool;

use lp::{DualSimplex, LpStatus, Table};
use pyo3::prelude::*;

use crate::errors;
use crate::problem::PyCompiledProblem;

/// Iterations of the simplex between two looks at Ctrl-C.
const SLICE: u64 = 1000;

/// Iterations of a solve at most.
const MOST_ITERATIONS: u64 = 10_000_000;

/// The K best: (cost, options) cheapest first.
type Best = Vec<(u64, Vec<u32>)>;

/// What a solve gives back: (status, bound, objective, values,
/// multipliers, reduced costs).
type Solved = (&'static str, f64, f64, Vec<f64>, Vec<f64>, Vec<f64>);

/// Minimizes `cost x` subject to `A x = rhs`, `0 <= x <= 1` (or the
/// `bounds` given, (column, lower, upper)), `A`'s column `j` having a 1 in
/// the rows `rows[start[j]..start[j + 1]]`. The status is "optimal",
/// "infeasible" or "limit" (after [`MOST_ITERATIONS`]).
#[pyfunction]
#[pyo3(signature = (m, start, rows, cost, rhs, bounds=Vec::new()))]
pub fn lp_relaxation(
    py: Python<'_>,
    m: usize,
    start: Vec<u32>,
    rows: Vec<u32>,
    cost: Vec<f64>,
    rhs: Vec<f64>,
    bounds: Vec<(usize, f64, f64)>,
) -> PyResult<Solved> {
    let table = Table { start, rows, cost };
    table.check(m).map_err(|e| errors::invalid(e.to_string()))?;
    if rhs.len() != m || rhs.iter().any(|r| !r.is_finite()) {
        return Err(errors::invalid(format!("rhs: {m} finite numbers expected")));
    }
    let n = table.cost.len();
    if let Some(&(j, lo, up)) = bounds
        .iter()
        .find(|&&(j, lo, up)| j >= n || !lo.is_finite() || !up.is_finite() || lo > up)
    {
        return Err(errors::invalid(format!(
            "bounds of column {j}: {lo} to {up}"
        )));
    }
    let mut lp = py.detach(|| DualSimplex::new(m, &table.start, &table.rows, &table.cost, &rhs));
    for &(j, lo, up) in &bounds {
        lp.set_bounds(j, lo, up);
    }
    // (In slices, Ctrl-C seen between them: a paused solve goes on with
    // the pivots of one solve.)
    let mut left = MOST_ITERATIONS;
    let status = loop {
        let slice = left.min(SLICE);
        let status = py.detach(|| lp.solve(slice, &AtomicBool::new(false)));
        left -= slice;
        py.check_signals()?;
        match status {
            LpStatus::Optimal => break "optimal",
            LpStatus::Infeasible => break "infeasible",
            _ if left == 0 => break "limit",
            _ => {}
        }
    };
    Ok((
        status,
        lp.bound(),
        lp.objective(),
        lp.values().to_vec(),
        lp.multipliers().to_vec(),
        lp.reduced_costs()[..n].to_vec(),
    ))
}

/// The `k` cheapest solutions of a set partitioning `problem` by the LP
/// tree alone, (cost, options) cheapest first; None if the tree does not
/// take the problem or gives up.
#[pyfunction]
pub fn lp_tree_best(
    py: Python<'_>,
    problem: &PyCompiledProblem,
    costs: Vec<u64>,
    k: usize,
) -> PyResult<Option<Best>> {
    let p = problem.inner.clone();
    if !xc::LpTree::suits(&p, &costs) {
        return Ok(None);
    }
    let mut tree = py
        .detach(|| xc::LpTree::new(&p, &costs, k))
        .map_err(|e| errors::invalid(e.to_string()))?;
    while !py.detach(|| tree.search_for(SLICE)) {
        py.check_signals()?;
        if tree.has_given_up() {
            return Ok(None);
        }
    }
    Ok(Some(tree.ledger().best()))
}
