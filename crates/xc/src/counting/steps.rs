//! Steps 1 to 5 of the count plan ([`crate::plan`]) as a machine that
//! answers "what next": the caller asks [`Steps::next`] for a [`Step`], runs
//! it, and reports what it measured ([`Steps::ordered`],
//! [`Steps::frontier_refused`], [`Steps::probed`], [`Steps::stint_ran`]) or
//! returns the count it made; the order of the steps, and every choice
//! between them, is here. The caller holds what the steps build (the
//! estimate's search, the frontier's table, the memos), the machine only
//! what it needs to choose.
//!
//! ```
//! use xc::plan::{CountPlan, Machine};
//! use xc::steps::{Step, Steps};
//! let mut plan = CountPlan::new(Machine::Cells, false, 100, false);
//! let mut steps = Steps::new(2, false, false);
//! assert_eq!(steps.next(&mut plan), Step::Estimate(xc::plan::ESTIMATE_PROBES));
//! plan.set_estimate(1e9); // not a small tree
//! assert_eq!(steps.next(&mut plan), Step::Order);
//! steps.ordered(false); // no order: no frontier
//! assert_eq!(steps.next(&mut plan), Step::Probe(0));
//! steps.probed(&mut plan, 0, 0.9, 8.0); // sub-problems repeat
//! assert_eq!(steps.next(&mut plan), Step::Probe(1));
//! steps.probed(&mut plan, 1, 0.01, 1.0);
//! assert_eq!(steps.next(&mut plan), Step::Memo);
//! assert_eq!(steps.memo_rule(), Some(0));
//! ```

use crate::counting::plan::{CountPlan, Method};

/// What the count is to do next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Step 1: Knuth's estimate of the tree by this many random paths
    /// (the caller reports it: [`CountPlan::set_estimate`]).
    Estimate(u64),
    /// Step 1: a search of at most this many nodes, whose count is the
    /// answer if it finishes; if not, it may go on as the search later.
    SmallTree(u64),
    /// The frontier's item order, predicted (reported: [`Steps::ordered`],
    /// and [`CountPlan::set_order`] where one is found).
    Order,
    /// Step 2: the frontier counts alone, now (reported if it is refused
    /// for memory: [`Steps::frontier_refused`]).
    Frontier,
    /// Step 3: the memo's probe with the caller's rule of this index
    /// (reported: [`Steps::probed`]), whose count is the answer if it
    /// finishes.
    Probe(usize),
    /// Step 4: the memo's two rules ([`Steps::memo_rule`] first, then
    /// [`Steps::other_rule`]) race each other.
    RulesRace,
    /// Step 4: the memo counts alone ([`Steps::memo_rule`]).
    Memo,
    /// Step 4: the frontier races the memo.
    RaceMemo,
    /// Step 5: the memo's stint of this many nodes (reported:
    /// [`Steps::stint_ran`]), whose count is the answer if it finishes.
    MemoStint(u64),
    /// Step 4: the frontier races the search.
    RaceSearch,
    /// The search counts alone.
    Search,
}

/// Where the machine is: the next question it asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum At {
    Estimate,
    SmallTree,
    Order,
    Frontier,
    Probes,
    Choice,
    AfterStint,
    Done,
}

/// The machine of steps 1 to 5 for one count.
#[derive(Clone, Debug)]
pub struct Steps {
    at: At,
    /// The memo's rules to probe (the one asked, or both).
    rules: usize,
    /// A rule was asked: the frontier, which knows none, is out.
    rule_asked: bool,
    /// A memo size was asked: the two rules do not race (two memos of it
    /// could pass the memory limit).
    memo_bytes_asked: bool,
    /// An order was found, no rule asked, and the frontier was not refused.
    frontier_fits: bool,
    /// Is the frontier in the race (known at the choice)?
    frontier_races: bool,
    probes: usize,
    memo: Option<usize>,
    other: Option<usize>,
}

impl Steps {
    /// The steps of a count whose memo has `rules` rules to probe (1 when
    /// `rule_asked`), a memo size given or not.
    pub fn new(rules: usize, rule_asked: bool, memo_bytes_asked: bool) -> Steps {
        Steps {
            at: At::Estimate,
            rules,
            rule_asked,
            memo_bytes_asked,
            frontier_fits: false,
            frontier_races: false,
            probes: 0,
            memo: None,
            other: None,
        }
    }

    /// The next step, from what `plan` knows and what was reported.
    pub fn next(&mut self, plan: &mut CountPlan) -> Step {
        loop {
            match self.at {
                At::Estimate => {
                    self.at = At::SmallTree;
                    if let Some(probes) = plan.estimate_probes() {
                        return Step::Estimate(probes);
                    }
                }
                At::SmallTree => {
                    self.at = At::Order;
                    if let Some((nodes, _)) = plan.small_tree() {
                        return Step::SmallTree(nodes);
                    }
                }
                At::Order => {
                    self.at = At::Frontier;
                    return Step::Order;
                }
                At::Frontier => {
                    self.at = At::Probes;
                    if self.frontier_fits && plan.frontier_now() {
                        return Step::Frontier;
                    }
                }
                At::Probes => {
                    if plan.too_many || plan.multiplicities || self.probes >= self.rules {
                        self.at = At::Choice;
                    } else {
                        return Step::Probe(self.probes);
                    }
                }
                At::Choice => {
                    self.frontier_races = self.frontier_fits && plan.frontier_in_running();
                    if self.memo.is_some() && plan.memo_in_running() {
                        self.at = At::Done;
                        if self.other.is_some()
                            && !self.memo_bytes_asked
                            && plan.rules_race(self.frontier_races)
                        {
                            return Step::RulesRace;
                        }
                        return if self.frontier_races {
                            Step::RaceMemo
                        } else {
                            Step::Memo
                        };
                    }
                    self.at = At::AfterStint;
                    if let Some(nodes) = self
                        .memo
                        .and_then(|_| plan.memo_stint_nodes(self.frontier_races))
                    {
                        return Step::MemoStint(nodes);
                    }
                }
                At::AfterStint | At::Done => {
                    self.at = At::Done;
                    return if self.frontier_races {
                        Step::RaceSearch
                    } else {
                        Step::Search
                    };
                }
            }
        }
    }

    /// The order was found (`found`) or not: the frontier is a candidate
    /// where one was found and no memo rule was asked.
    pub fn ordered(&mut self, found: bool) {
        self.frontier_fits = found && !self.rule_asked;
    }

    /// The frontier was refused for memory: the other methods are measured.
    pub fn frontier_refused(&mut self) {
        self.frontier_fits = false;
    }

    /// Rule `rule`'s probe measured `ratio` hits a node and a `shrink`: the
    /// better probe's rule is the memo's, the other kept for a race.
    pub fn probed(&mut self, plan: &mut CountPlan, rule: usize, ratio: f64, shrink: f64) {
        self.probes += 1;
        if plan.probed(ratio, shrink) {
            if self.memo.is_some() {
                self.other = self.memo;
            }
            self.memo = Some(rule);
        } else {
            self.other = Some(rule);
        }
    }

    /// The memo's stint ran `nodes` nodes in all (measured, for the report).
    pub fn stint_ran(&self, plan: &mut CountPlan, nodes: u64) {
        plan.weigh(Method::Memo, plan.memo_cost(nodes), true);
    }

    /// The rule of the memo (the better probe), once probed.
    pub fn memo_rule(&self) -> Option<usize> {
        self.memo
    }

    /// The other rule probed, if any.
    pub fn other_rule(&self) -> Option<usize> {
        self.other
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Machine;

    #[test]
    fn a_small_tree_is_searched_before_the_order_is_found() {
        let mut plan = CountPlan::new(Machine::Cells, false, 100, false);
        let mut steps = Steps::new(2, false, false);
        assert!(matches!(steps.next(&mut plan), Step::Estimate(_)));
        plan.set_estimate(100.0);
        assert!(matches!(steps.next(&mut plan), Step::SmallTree(_)));
        assert_eq!(steps.next(&mut plan), Step::Order);
    }

    #[test]
    fn a_sure_order_is_counted_at_the_frontier_unless_a_rule_is_asked() {
        for (asked, expected) in [(false, Step::Frontier), (true, Step::Probe(0))] {
            let mut plan = CountPlan::new(Machine::Cells, false, 100, false);
            let mut steps = Steps::new(if asked { 1 } else { 2 }, asked, false);
            steps.next(&mut plan);
            plan.set_estimate(1e12);
            assert_eq!(steps.next(&mut plan), Step::Order);
            plan.set_order(10, 12.0, false);
            steps.ordered(true);
            assert_eq!(steps.next(&mut plan), expected);
        }
    }

    #[test]
    fn refused_for_memory_the_frontier_leaves_the_race() {
        let mut plan = CountPlan::new(Machine::Cells, false, 100, false);
        let mut steps = Steps::new(2, false, false);
        steps.next(&mut plan);
        plan.set_estimate(1e12);
        steps.next(&mut plan);
        plan.set_order(10, 12.0, false);
        steps.ordered(true);
        assert_eq!(steps.next(&mut plan), Step::Frontier);
        steps.frontier_refused();
        for rule in 0..2 {
            assert_eq!(steps.next(&mut plan), Step::Probe(rule));
            steps.probed(&mut plan, rule, 0.0, 1.0);
        }
        // Neither probe puts the memo in the running: its stint, then the search.
        assert!(matches!(steps.next(&mut plan), Step::MemoStint(_)));
        steps.stint_ran(&mut plan, 10);
        assert_eq!(steps.next(&mut plan), Step::Search);
    }

    #[test]
    fn without_a_memo_the_search_counts() {
        let mut plan = CountPlan::new(Machine::Cells, true, 100, false);
        let mut steps = Steps::new(2, false, false);
        steps.next(&mut plan);
        plan.set_estimate(1e12);
        steps.next(&mut plan);
        steps.ordered(false);
        assert_eq!(steps.next(&mut plan), Step::Search);
    }

    #[test]
    fn two_rules_in_the_running_race_unless_a_memo_size_is_asked() {
        for (asked, expected) in [(false, Step::RulesRace), (true, Step::Memo)] {
            let mut plan = CountPlan::new(Machine::Cells, false, 100, false);
            let mut steps = Steps::new(2, false, asked);
            steps.next(&mut plan);
            plan.set_estimate(1e12);
            steps.next(&mut plan);
            steps.ordered(false);
            for rule in 0..2 {
                steps.next(&mut plan);
                steps.probed(&mut plan, rule, 0.6 + rule as f64 / 10.0, 5.0);
            }
            assert_eq!(steps.next(&mut plan), expected);
            assert_eq!((steps.memo_rule(), steps.other_rule()), (Some(1), Some(0)));
        }
    }
}
