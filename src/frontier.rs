//! `FrontierCount`: counting at the frontier (see the `xc` crate's
//! `frontier` module), driven in slices like `MemoCount`: the GIL is
//! released for each slice, and between slices Ctrl-C, `cancel()`, the
//! budgets and the memory limit are seen.

use std::sync::atomic::AtomicBool;

use pyo3::prelude::*;

use crate::budget::RunBudget;
use crate::convert;
use crate::driver::{Driven, Driver};
use crate::errors;
use crate::interrupt::until_interrupted;
use crate::memo::to_int;
use crate::problem::PyCompiledProblem;
use crate::stats::PyFrontierProgress;

const SLICE_WORK: u64 = 1 << 16;

#[pyclass(name = "FrontierCount", module = "covering._core", frozen)]
pub struct PyFrontierCount {
    driver: Driver<xc::Frontier>,
}

/// The frontier in slices of transitions; what it holds is its tables.
impl Driven for xc::Frontier {
    fn work(&self) -> u64 {
        self.progress().work
    }
    fn held(&self) -> (u64, &'static str) {
        (self.progress().bytes, "the frontier holds")
    }
}

#[pymethods]
impl PyFrontierCount {
    /// A frontier count of `problem`, its primary items settled in `order`
    /// (a permutation of them; None: in the order of their numbers), dense
    /// tables only where they fit the share of `memory_limit` bytes the
    /// engine gives them (`Frontier::dense_limit`), the steps of
    /// sparse ones split among `threads` threads; ProblemError if an item's bounds or colors
    /// are too many for its field, ValueError for an order that is not a
    /// permutation.
    #[new]
    #[pyo3(signature = (problem, order=None, threads=1, memory_limit=None))]
    fn new(
        py: Python<'_>,
        problem: &PyCompiledProblem,
        order: Option<Vec<u32>>,
        threads: usize,
        memory_limit: Option<u64>,
    ) -> PyResult<Self> {
        let p = problem.inner.clone();
        let order = match order {
            Some(o) => {
                convert::check_order(&p, &o)?;
                o
            }
            None => (0..p.n_primary() as u32).collect(),
        };
        let limit = memory_limit.map_or(u64::MAX, xc::Frontier::dense_limit);
        let frontier = py
            .detach(|| xc::Frontier::with_order(&p, &order, threads.clamp(1, 256), limit))
            .map_err(|e| errors::problem(e.to_string()))?;
        Ok(PyFrontierCount {
            driver: Driver::adaptive(frontier, "the frontier count", SLICE_WORK),
        })
    }

    /// Counts until the end (returns the count), or until the run's
    /// `budget` (its nodes, the transitions, counted from the start; its
    /// flag) or `cancel()` stops it (returns None). Past the budget's memory
    /// held, a MemoryError. Ctrl-C raises KeyboardInterrupt.
    #[pyo3(signature = (budget=None))]
    fn run<'py>(
        &self,
        py: Python<'py>,
        budget: Option<RunBudget<'_>>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let budget = self.driver.budget(budget.as_ref())?;
        match self.driver.run(py, &budget)? {
            Some(n) => Ok(Some(to_int(py, &n)?)),
            None => Ok(None),
        }
    }

    /// The bits of a state's key (a step holds at most 2^this states).
    #[getter]
    fn key_bits(&self) -> PyResult<u64> {
        Ok(self.driver.lock()?.key_bits())
    }

    /// Stops a running count from another thread, at the end of its slice.
    fn cancel(&self) {
        self.driver.cancel();
    }

    /// (item, items, states, peak_states, bytes, work, mems): primary items
    /// settled of all, states held now and at most, bytes held, transitions
    /// tried, and their approximate memory accesses.
    #[getter]
    fn progress(&self) -> PyResult<PyFrontierProgress> {
        Ok(PyFrontierProgress::from(&self.driver.lock()?.progress()))
    }
}

/// The order `choose` finds for `p` (fields `widths` bits wide, the greedy
/// orders reading at most `effort` entries), on a thread of its own so that
/// Ctrl-C stops it.
fn chosen(
    py: Python<'_>,
    p: &xc::CompiledProblem,
    widths: &[u32],
    effort: u64,
    choose: fn(&xc::CompiledProblem, &[u32], u64, &AtomicBool) -> Option<xc::ItemOrder>,
) -> PyResult<(Vec<u32>, u64, f64, String, bool)> {
    let (found, signal) = until_interrupted(py, "choosing an item order", |stop| {
        choose(p, widths, effort, stop)
    })?;
    if let Some(e) = signal {
        return Err(e);
    }
    let o = found.ok_or_else(|| errors::internal("an item order stopped without a signal"))?;
    Ok((o.order, o.width, o.cost, o.name.to_string(), o.tried))
}

/// (order, width, cost, name, tried): the primary items in the order that
/// keeps a frontier count of `problem` narrowest of those tried ("auto"), or
/// in the order of their numbers ("input"), or the one the prediction alone
/// picks ("prediction", for benchmarks); the bits of its widest frontier,
/// log2 of its predicted transitions, how it was found, and whether it was
/// weighed by running a frontier (problems with multiplicities: see
/// `xc::choose_order_until`) rather than by the prediction. ProblemError if
/// an item's field is too wide for a frontier count.
#[pyfunction]
#[pyo3(signature = (problem, item_order="auto"))]
pub fn choose_item_order(
    py: Python<'_>,
    problem: &PyCompiledProblem,
    item_order: &str,
) -> PyResult<(Vec<u32>, u64, f64, String, bool)> {
    /// Entries the greedy orders may read (about a second at most).
    const EFFORT: u64 = 1 << 26;
    let p = problem.inner.clone();
    let widths = xc::field_widths(&p).map_err(|e| errors::problem(e.to_string()))?;
    match item_order {
        // On a thread of its own, so that Ctrl-C stops it (a million
        // options take about a second).
        "auto" => chosen(py, &p, &widths, EFFORT, xc::choose_order_until),
        // The order the prediction alone picks (what "auto" takes without
        // multiplicities): for benchmarks to compare.
        "prediction" => chosen(
            py,
            &p,
            &widths,
            EFFORT,
            xc::choose_order_by_prediction_until,
        ),
        "input" => {
            let order: Vec<u32> = (0..p.n_primary() as u32).collect();
            let (width, cost) = py.detach(|| xc::order_profile(&p, &widths, &order));
            Ok((order, width, cost, "input".to_string(), false))
        }
        other => Err(errors::invalid(format!(
            "item_order must be 'auto', 'input' or 'prediction', not {other:?}"
        ))),
    }
}
