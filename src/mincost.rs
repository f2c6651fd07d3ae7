//! `MinCostSearch`: the K cheapest solutions (the `xc` crate's `MinCost`),
//! run in slices of nodes with the GIL released; between slices Ctrl-C,
//! `cancel()` and the time budget are seen.

use pyo3::prelude::*;

use crate::budget::RunBudget;
use crate::driver::{Driven, Driver};
use crate::errors;
use crate::interrupt::until_interrupted;
use crate::problem::PyCompiledProblem;
use crate::stats::PyMinCostCounters;

/// Nodes per slice at most: a few milliseconds on puzzle-sized problems.
/// (Slices start at one node and adapt: nodes of a big problem are slow.)
const SLICE_NODES: u64 = 1 << 12;

#[pyclass(name = "MinCostSearch", module = "covering._core", frozen)]
pub struct PyMinCostSearch {
    driver: Driver<xc::Cheapest>,
}

impl Driven for xc::Cheapest {
    fn work(&self) -> u64 {
        self.stats().nodes
    }
}

impl PyMinCostSearch {
    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, xc::Cheapest>> {
        self.driver.lock()
    }
}

#[pymethods]
impl PyMinCostSearch {
    /// A search for the `k` cheapest solutions of `problem`; `costs` is the
    /// native-endian bytes of one `u64` per option. `engine`: "auto" (on
    /// bitsets when the problem suits them, else dancing links), "links".
    /// ValueError when the costs do not fit.
    #[new]
    #[pyo3(signature = (problem, costs, k, engine="auto"))]
    fn new(
        py: Python<'_>,
        problem: &PyCompiledProblem,
        costs: &[u8],
        k: usize,
        engine: &str,
    ) -> PyResult<Self> {
        let links = match engine {
            "auto" => false,
            "links" => true,
            other => {
                return Err(errors::invalid(format!(
                    "engine must be 'auto' or 'links', not {other:?}"
                )))
            }
        };
        if !costs.len().is_multiple_of(8) {
            return Err(errors::invalid(
                "costs: not an array of 64-bit numbers".to_string(),
            ));
        }
        let costs: Vec<u64> = costs
            .chunks_exact(8)
            .map(|c| u64::from_ne_bytes(c.try_into().expect("8 bytes")))
            .collect();
        // Built on a thread of its own, so that Ctrl-C is seen while the
        // prices of a big problem are worked out.
        let inner = &problem.inner;
        let (built, signal) = until_interrupted(py, "building the min-cost search", |stop| {
            xc::Cheapest::new(inner, &costs, k, links, stop)
        })?;
        if let Some(e) = signal {
            return Err(e);
        }
        let search = built.map_err(|e| errors::invalid(e.to_string()))?;
        Ok(PyMinCostSearch {
            driver: Driver::adaptive(search, "the min-cost search", SLICE_NODES),
        })
    }

    /// Searches until the end (True: the solutions kept are the K best),
    /// or until `nodes` more nodes, `seconds` or `cancel()` (False).
    /// Ctrl-C raises KeyboardInterrupt, the search left where it was.
    #[pyo3(signature = (budget=None))]
    fn run(&self, py: Python<'_>, budget: Option<RunBudget<'_>>) -> PyResult<bool> {
        if self.lock()?.is_done() {
            return Ok(true);
        }
        let budget = self.driver.budget(budget.as_ref())?;
        Ok(self.driver.run(py, &budget)?.is_some())
    }

    /// Stops a running search from another thread, at the end of its slice.
    fn cancel(&self) {
        self.driver.cancel();
    }

    /// The solutions kept, cheapest first: (cost, option ids increasing).
    fn best(&self) -> PyResult<Vec<(u64, Vec<u32>)>> {
        Ok(self.lock()?.best())
    }

    /// Whether the search has ended (the solutions kept are the K best).
    #[getter]
    fn done(&self) -> PyResult<bool> {
        Ok(self.lock()?.is_done())
    }

    /// The cheapest cost found so far, or None.
    #[getter]
    fn optimum(&self) -> PyResult<Option<u64>> {
        Ok(self.lock()?.ledger().optimum())
    }

    /// The cost to beat once K solutions are known (the K-th best), else None.
    #[getter]
    fn cutoff(&self) -> PyResult<Option<u64>> {
        Ok(self.lock()?.ledger().cutoff_cost())
    }

    /// (nodes, updates, improvements, max_level): nodes entered, options
    /// hidden, solutions kept when found, deepest level.
    #[getter]
    fn counters(&self) -> PyResult<PyMinCostCounters> {
        Ok(PyMinCostCounters::from(&self.lock()?.stats()))
    }
}
