//! `CountPlan`: the counting plan of the `xc` crate's `plan` module (every
//! rule and price of the choice of a counting method), converted.

use pyo3::prelude::*;
use xc::plan::{self, Machine, Method};

use crate::convert;
use crate::problem::PyCompiledProblem;
use crate::stats::PyStats;

#[pyclass(name = "CountPlan", module = "covering._core")]
pub struct PyCountPlan {
    inner: plan::CountPlan,
}

fn method_name(m: Method) -> &'static str {
    match m {
        Method::Kasteleyn => "kasteleyn",
        Method::Frontier => "frontier",
        Method::Memo => "memo",
        Method::Search => "search",
    }
}

fn method(name: &str) -> PyResult<Method> {
    Ok(match name {
        "kasteleyn" => Method::Kasteleyn,
        "frontier" => Method::Frontier,
        "memo" => Method::Memo,
        "search" => Method::Search,
        other => return Err(crate::errors::invalid(format!("no method {other:?}"))),
    })
}

#[pymethods]
impl PyCountPlan {
    /// The plan of a count of `problem` whose search would run with
    /// `engine` ("auto", "cells", "bits", ...).
    #[new]
    #[pyo3(signature = (problem, engine="auto"))]
    fn new(problem: &PyCompiledProblem, engine: &str) -> PyResult<Self> {
        let p = &problem.inner;
        let machine = Machine::of(p, convert::engine(engine)?);
        let too_many = p.n_options() > xc::MEMO_MAX_OPTIONS;
        Ok(PyCountPlan {
            inner: plan::CountPlan::new(machine, p.has_multiplicities(), p.n_options(), too_many),
        })
    }

    /// The machine a search would dance on: "cells", "mcells", "bits",
    /// "masks" or "mbits".
    #[getter]
    fn machine(&self) -> &'static str {
        match self.inner.machine {
            Machine::Cells => "cells",
            Machine::MCells => "mcells",
            Machine::Bits => "bits",
            Machine::Masks => "masks",
            Machine::MBits => "mbits",
        }
    }

    /// Knuth's estimate of the search tree, in nodes (the search's predicted cost).
    fn set_estimate(&mut self, nodes: f64) {
        self.inner.set_estimate(nodes);
    }

    /// The frontier's order: width in bits, log2 of its predicted
    /// transitions, weighed by a trial run.
    fn set_order(&mut self, width: u64, cost: f64, tried: bool) {
        self.inner.set_order(width, cost, tried);
    }

    /// Weighs `method` at `cost` units, measured or predicted.
    fn weigh(&mut self, method_: &str, cost: f64, measured: bool) -> PyResult<()> {
        self.inner.weigh(method(method_)?, cost, measured);
        Ok(())
    }

    /// (nodes, sure): search this many nodes first, and whether the tree
    /// is thought to end within them; None if it is not thought small.
    fn small_tree(&self) -> Option<(u64, bool)> {
        self.inner.small_tree()
    }

    /// Is the frontier counted at once?
    fn frontier_now(&self) -> bool {
        self.inner.frontier_now()
    }

    /// Nodes of each memo probe.
    fn probe_nodes(&self) -> u64 {
        self.inner.probe_nodes()
    }

    /// A probe's (hit ratio, shrink): True if it is the best so far.
    fn probed(&mut self, ratio: f64, shrink: f64) -> bool {
        self.inner.probed(ratio, shrink)
    }

    fn memo_in_running(&self) -> bool {
        self.inner.memo_in_running()
    }

    fn frontier_in_running(&self) -> bool {
        self.inner.frontier_in_running()
    }

    /// The memo's stint, in units, where it could count but is not in the
    /// running (the frontier weighed only if it `races`).
    fn memo_stint(&self, races: bool) -> Option<f64> {
        self.inner.memo_stint(races)
    }

    /// A search's work so far (its `Stats`), in units.
    fn search_cost(&self, stats: &PyStats) -> f64 {
        self.inner.search_cost(&stats.to_xc())
    }

    /// A memo count's work of `nodes` nodes, in units.
    fn memo_cost(&self, nodes: u64) -> f64 {
        self.inner.memo_cost(nodes)
    }

    /// A frontier count's work of `mems` mems, in units.
    #[staticmethod]
    fn frontier_cost(mems: u64) -> f64 {
        plan::frontier_cost(mems)
    }

    /// The candidates weighed: (method, cost in units, measured), in the
    /// order first weighed.
    #[getter]
    fn candidates(&self) -> Vec<(&'static str, f64, bool)> {
        self.inner
            .candidates
            .iter()
            .map(|c| (method_name(c.method), c.cost, c.measured))
            .collect()
    }

    #[classattr]
    const FIRST_COST: f64 = plan::FIRST_COST;
    #[classattr]
    const FIRST_FRONTIER_WORK: u64 = plan::FIRST_FRONTIER_WORK;
    #[classattr]
    const FIRST_SEARCH_NODES: u64 = plan::FIRST_SEARCH_NODES;
    #[classattr]
    const FRONTIER_FREE: f64 = plan::FRONTIER_FREE;
    #[classattr]
    const FRONTIER_SHARE: f64 = plan::FRONTIER_SHARE;
    #[classattr]
    const RACE_PROBES: u64 = plan::RACE_PROBES;
    #[classattr]
    const FIRST_TURN: u64 = plan::FIRST_TURN;
    #[classattr]
    const MEMO_NODES_PER_TRANSITION: f64 = plan::MEMO_NODES_PER_TRANSITION;
    #[classattr]
    const SMALL_TREE: u64 = plan::SMALL_TREE;
    #[classattr]
    const FIRST_LOOK: u64 = plan::FIRST_LOOK;
    #[classattr]
    const KASTELEYN_ITEMS: u64 = plan::KASTELEYN_ITEMS;
    #[classattr]
    const FIRST_LOOK_ENTRIES: u64 = plan::FIRST_LOOK_ENTRIES;
    #[classattr]
    const HIT_RATIO: f64 = plan::HIT_RATIO;
    #[classattr]
    const SHRINK: f64 = plan::SHRINK;
}
