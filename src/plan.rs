//! `CountPlan`: the counting plan of the `xc` crate's `plan` module (every
//! rule and price of the choice of a counting method), converted.

use pyo3::prelude::*;
use xc::plan::{self, Machine, MemoWhy, Method};

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
        Ok(PyCountPlan {
            inner: plan::CountPlan::of(&problem.inner, convert::engine(engine)?),
        })
    }

    // For benchmarks/memo_probe.py's report only: the count reads none.
    #[classattr]
    const HIT_RATIO: f64 = plan::HIT_RATIO;
    #[classattr]
    const SHRINK: f64 = plan::SHRINK;

    /// Too many options for the memo: no estimate, no probe.
    #[getter]
    fn too_many(&self) -> bool {
        self.inner.too_many
    }

    /// Nodes of a first look at the tree, None for a problem too big.
    fn first_look(&self) -> Option<u64> {
        self.inner.first_look()
    }

    /// Is a sure frontier tried before Kasteleyn's determinant?
    fn frontier_before_kasteleyn(&self) -> bool {
        self.inner.frontier_before_kasteleyn()
    }

    /// The reduction's units of work, None for a problem too big to reduce.
    fn reduce_work(&self) -> Option<u64> {
        self.inner.reduce_work()
    }

    /// Is the problem left by a reduction that took out `options` options
    /// and `items` items counted instead?
    fn keeps_reduction(&self, options: u64, items: u64) -> bool {
        self.inner.keeps_reduction(options, items)
    }

    /// Random paths of Knuth's estimate (step 1), None: no estimate.
    fn estimate_probes(&self) -> Option<u64> {
        self.inner.estimate_probes()
    }

    /// Random paths of the estimate for the race with the search.
    fn race_probes(&self) -> Option<u64> {
        self.inner.race_probes()
    }

    /// Why the memo is in the running or not: ("repeats", None),
    /// ("high", shrink) or ("few", None).
    fn memo_why(&self) -> (&'static str, Option<f64>) {
        match self.inner.memo_why() {
            MemoWhy::Repeats => ("repeats", None),
            MemoWhy::HighInTree(s) => ("high", Some(s)),
            MemoWhy::Few => ("few", None),
        }
    }

    /// The memo's stint in its nodes (see `memo_stint`).
    fn memo_stint_nodes(&self, races: bool) -> Option<u64> {
        self.inner.memo_stint_nodes(races)
    }

    /// Step 4: a race of the frontier against the memo (`memo`) or the
    /// search (Knuth's estimate of its tree: `estimate` nodes).
    #[pyo3(signature = (memo, estimate=None))]
    fn race(&self, memo: bool, estimate: Option<f64>) -> PyRace {
        PyRace {
            inner: self.inner.race(memo, estimate),
        }
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

    /// Do the memo's two rules race each other (the frontier out of it)?
    fn rules_race(&self, frontier_races: bool) -> bool {
        self.inner.rules_race(frontier_races)
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
}

/// The turns of a race (`xc::plan::Race`): the slices each method runs.
#[pyclass(name = "Race", module = "covering._core")]
pub struct PyRace {
    inner: plan::Race,
}

#[pymethods]
impl PyRace {
    /// The frontier's next slice, in transitions (0: its turn is over).
    fn frontier_slice(&self, mems: u64, work: u64) -> u64 {
        self.inner.frontier_slice(mems, work)
    }

    /// The memo's nodes (a total) at the end of its turn.
    fn memo_until(&self, plan: &PyCountPlan, nodes: u64) -> u64 {
        self.inner.memo_until(&plan.inner, nodes)
    }

    /// The search's nodes for its turn (0: none).
    fn search_nodes(&self, plan: &PyCountPlan, stats: &PyStats) -> u64 {
        self.inner.search_nodes(&plan.inner, &stats.to_xc())
    }

    /// The search ran its turn: its counters.
    fn search_ran(&mut self, plan: &PyCountPlan, stats: &PyStats) {
        self.inner.search_ran(&plan.inner, &stats.to_xc());
    }

    /// The next turn.
    fn next_turn(&mut self) {
        self.inner.next_turn();
    }
}

/// Steps 1 to 5 of a count's plan (`xc::steps::Steps`): asked "what next"
/// with the plan, told what was measured.
#[pyclass(name = "CountSteps", module = "covering._core")]
pub struct PyCountSteps {
    inner: xc::steps::Steps,
}

#[pymethods]
impl PyCountSteps {
    /// The steps of a count whose memo has `rules` rules to probe (one
    /// when `rule_asked`), a memo size given or not.
    #[new]
    fn new(rules: usize, rule_asked: bool, memo_bytes_asked: bool) -> Self {
        PyCountSteps {
            inner: xc::steps::Steps::new(rules, rule_asked, memo_bytes_asked),
        }
    }

    /// The next step, as (name, argument): ("estimate", probes),
    /// ("small_tree", nodes), ("order", None), ("frontier", None),
    /// ("probe", rule index), ("rules_race", None), ("memo", None),
    /// ("race_memo", None), ("memo_stint", nodes), ("race_search", None)
    /// or ("search", None).
    fn next(&mut self, mut plan: PyRefMut<'_, PyCountPlan>) -> (&'static str, Option<u64>) {
        use xc::steps::Step;
        match self.inner.next(&mut plan.inner) {
            Step::Estimate(probes) => ("estimate", Some(probes)),
            Step::SmallTree(nodes) => ("small_tree", Some(nodes)),
            Step::Order => ("order", None),
            Step::Frontier => ("frontier", None),
            Step::Probe(rule) => ("probe", Some(rule as u64)),
            Step::RulesRace => ("rules_race", None),
            Step::Memo => ("memo", None),
            Step::RaceMemo => ("race_memo", None),
            Step::MemoStint(nodes) => ("memo_stint", Some(nodes)),
            Step::RaceSearch => ("race_search", None),
            Step::Search => ("search", None),
        }
    }

    /// An order was found, or not.
    fn ordered(&mut self, found: bool) {
        self.inner.ordered(found);
    }

    /// The frontier was refused for memory.
    fn frontier_refused(&mut self) {
        self.inner.frontier_refused();
    }

    /// Rule `rule`'s probe: its hits a node and its shrink.
    fn probed(
        &mut self,
        mut plan: PyRefMut<'_, PyCountPlan>,
        rule: usize,
        ratio: f64,
        shrink: f64,
    ) {
        self.inner.probed(&mut plan.inner, rule, ratio, shrink);
    }

    /// The memo's stint ran `nodes` nodes in all.
    fn stint_ran(&self, mut plan: PyRefMut<'_, PyCountPlan>, nodes: u64) {
        self.inner.stint_ran(&mut plan.inner, nodes);
    }

    /// The index of the memo's rule (the better probe), once probed.
    #[getter]
    fn memo_rule(&self) -> Option<usize> {
        self.inner.memo_rule()
    }

    /// The index of the other rule probed, if any.
    #[getter]
    fn other_rule(&self) -> Option<usize> {
        self.inner.other_rule()
    }
}
