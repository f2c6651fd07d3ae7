//! The tree's nodes: the next one picked (best first, with plunges),
//! its relaxation solved, and its whole solutions kept.

use super::*;

impl LpTree {
    /// The next open node worth solving, its fixes put on the relaxation;
    /// the search is over when none is left. A better bar early in the
    /// tree may start the root over.
    pub(super) fn pick(&mut self) {
        let bar = self.bar();
        if self.root.as_ref().is_some_and(|r| r.0 > bar) {
            // (Nothing under the root is worth keeping any more.)
            self.done = true;
            return;
        }
        if let Some((bound, d, fixed_with)) = &mut self.root
            && bar < *fixed_with
            && self.restarts < RESTARTS
            && self.tree_nodes < RESTART_NODES
        {
            let keep: Vec<usize> = (0..self.options.len())
                .filter(|&j| d[j] <= bar - *bound)
                .collect();
            if (keep.len() as f64) < (1.0 - RESTART_SHARE) * self.options.len() as f64 {
                self.restarts += 1;
                self.step = if self.shrink(&keep) {
                    Step::Build(0)
                } else {
                    Step::Pick
                };
                return;
            }
            // (Not worth it at this bar: looked at again at a better one.)
            *fixed_with = bar;
        }
        let Some(node) = self.plunge.take().or_else(|| self.open.pop().map(|o| o.0)) else {
            self.done = true;
            return;
        };
        if node.bound > bar {
            self.step = Step::Pick;
            return;
        }
        let lp = self.lp.as_mut().expect("a relaxation");
        for &j in &self.applied {
            lp.set_bounds(j as usize, 0.0, 1.0);
        }
        self.applied.clear();
        for &(j, one) in &node.fixes {
            let v = if one { 1.0 } else { 0.0 };
            lp.set_bounds(j as usize, v, v);
            self.applied.push(j);
        }
        self.step = Step::Solve(node);
    }

    /// A node's relaxation solved (in slices): the node is cut, holds a
    /// whole solution, or goes to branching.
    pub(super) fn solve_node(&mut self, node: Node, left: u64) {
        match self.run(left) {
            LpStatus::IterationLimit | LpStatus::Stopped => {
                self.step = Step::Solve(node);
                return;
            }
            LpStatus::Infeasible | LpStatus::Cutoff => {
                self.stats.nodes += 1;
                self.tree_nodes += 1;
                self.step = Step::Pick;
                return;
            }
            LpStatus::Optimal => {}
        }
        self.stats.nodes += 1;
        self.tree_nodes += 1;
        self.stats.max_level = self.stats.max_level.max(node.depth as u64);
        let bar = self.bar();
        let lp = self.lp.as_ref().expect("a relaxation");
        let obj = lp.bound().max(node.bound);
        self.step = Step::Pick;
        if obj > bar {
            return;
        }
        let x = lp.values().to_vec();
        let d = lp.reduced_costs();
        let n = x.len();
        let mut fixes = node.fixes.clone();
        if bar.is_finite() {
            let mut fixed = vec![None; n];
            for &(j, one) in &node.fixes {
                fixed[j as usize] = Some(one);
            }
            let gap = bar - obj;
            for j in 0..n {
                if fixed[j].is_some() {
                    continue;
                }
                if x[j] < WHOLE && d[j] > gap {
                    fixes.push((j as u32, false));
                } else if x[j] > 1.0 - WHOLE && -d[j] > gap {
                    fixes.push((j as u32, true));
                }
            }
        }
        let mut candidates: Vec<u32> = (0..n as u32)
            .filter(|&j| x[j as usize] > WHOLE && x[j as usize] < 1.0 - WHOLE)
            .collect();
        if candidates.is_empty() {
            self.whole(node, obj, &x);
            return;
        }
        candidates.sort_by(|&a, &b| {
            (x[a as usize] - 0.5)
                .abs()
                .total_cmp(&(x[b as usize] - 0.5).abs())
                .then(a.cmp(&b))
        });
        let tried = vec![[f64::NAN; 2]; candidates.len()];
        self.step = Step::Strong(Box::new(Strong {
            node,
            obj,
            x,
            fixes,
            candidates,
            tried,
            next: 0,
            side: 0,
            trial: None,
        }));
    }

    /// A node whose relaxation's solution `x` is whole.
    pub(super) fn whole(&mut self, node: Node, obj: f64, x: &[f64]) {
        let chosen: Vec<u32> = (0..x.len() as u32)
            .filter(|&j| x[j as usize] > 0.5)
            .collect();
        let fixed_at_one = |j: u32| node.fixes.iter().any(|&(f, one)| f == j && one);
        let original: Vec<u32> = chosen.iter().map(|&j| self.options[j as usize]).collect();
        if self.problem.is_solution(&original) {
            let loose = chosen.iter().copied().find(|&j| !fixed_at_one(j));
            match loose {
                Some(j) if self.k > 1 => self.branch(&node, j, [obj, obj], [obj, obj], &node.fixes),
                _ => {
                    let cost: u64 = original.iter().map(|&o| self.costs[o as usize]).sum();
                    let mut sorted = original.clone();
                    sorted.sort_unstable();
                    // (A restart meets again the solutions found before it.)
                    if cost < self.ledger.cutoff() && self.found.insert(sorted) {
                        self.ledger.offer(cost, original);
                        self.stats.improvements += 1;
                    }
                }
            }
            return;
        }
        // (Rounding made a whole-looking solution that is not one: branch
        // on a column not yet fixed, so that the tree still ends.)
        let free = (0..x.len() as u32).find(|&j| !node.fixes.iter().any(|&(f, _)| f == j));
        if let Some(j) = free {
            self.branch(&node, j, [obj, obj], [obj, obj], &node.fixes);
        }
    }
}
