//! The tree's root: the relaxation built from the problem left (sifted
//! where it has many columns), solved, cut, its columns fixed by reduced
//! cost, and the problem reduced and restarted.

use super::*;

impl LpTree {
    /// The relaxation of the problem left, from the artificial basis.
    pub(super) fn build(&mut self, round: u32) {
        // (Sifting only before the cuts, and in a round that may shrink
        // the problem: the tree's relaxation has every column.)
        if self.working.is_none()
            && round + 1 < ROUNDS
            && self.cuts.is_empty()
            && self.options.len() > self.sift_columns
        {
            self.working = self.first_working();
        }
        let cost_of = |j: usize| self.costs[self.options[j] as usize] as f64;
        let ones = vec![1.0; self.m];
        let (mut lp, entries) = match &self.working {
            Some(w) => {
                let (start, rows) = self.gather(w);
                let cost: Vec<f64> = w.iter().map(|&j| cost_of(j)).collect();
                (
                    DualSimplex::new(self.m, &start, &rows, &cost, &ones),
                    rows.len(),
                )
            }
            None => {
                let cost: Vec<f64> = (0..self.options.len()).map(cost_of).collect();
                let lp = DualSimplex::new(self.m, &self.start, &self.rows, &cost, &ones);
                (lp, self.rows.len())
            }
        };
        self.iterations += (entries as u64 / 64).max(1);
        let n = self.options.len();
        // (The cuts found so far, on the columns left: a clique's part is
        // a clique.)
        if !self.cuts.is_empty() {
            let mut column = vec![u32::MAX; self.costs.len()];
            for (j, &o) in self.options.iter().enumerate() {
                column[o as usize] = j as u32;
            }
            // (Those left with one option are met by any solution: out.)
            let mut local = Vec::with_capacity(self.cuts.len());
            self.cuts.retain(|cut| {
                let on: Vec<u32> = (cut.iter().map(|&o| column[o as usize]))
                    .filter(|&j| j != u32::MAX)
                    .collect();
                let kept = on.len() > 1;
                if kept {
                    local.push(on);
                }
                kept
            });
            lp.add_cuts(&local);
        }
        self.lp = Some(lp);
        self.cut_rounds = 0;
        self.cut_bounds = None;
        self.pseudo = [vec![(0.0, 0); n], vec![(0.0, 0); n]];
        self.applied.clear();
        self.open.clear();
        self.plunge = None;
        self.root = None;
        self.tree_nodes = 0;
        self.step = Step::Root(round);
        self.iterations += 1;
    }

    /// Runs the simplex for at most `left` iterations, cut off above the
    /// bar; its status.
    pub(super) fn run(&mut self, left: u64) -> LpStatus {
        // (While sifting, the relaxation of some columns bounds nothing.)
        let bar = if self.working.is_some() {
            f64::INFINITY
        } else {
            self.bar()
        };
        let lp = self.lp.as_mut().expect("a relaxation");
        lp.set_cutoff(bar);
        let before = lp.iterations();
        let status = lp.solve(left, &self.never);
        self.iterations += lp.iterations() - before;
        status
    }

    /// The root: solved, then fixed by its reduced costs and reduced, and
    /// solved again while that shrinks it; then the tree's first node.
    pub(super) fn solve_root(&mut self, round: u32, left: u64) {
        let status = self.run(left);
        if self.working.is_some() {
            self.sift(round, status);
            return;
        }
        match status {
            LpStatus::IterationLimit | LpStatus::Stopped => {
                self.step = Step::Root(round);
                return;
            }
            // (Above the bar: nothing under the root is worth keeping.)
            LpStatus::Infeasible | LpStatus::Cutoff => {
                self.done = true;
                return;
            }
            LpStatus::Optimal => {}
        }
        self.stats.nodes += 1;
        let bar = self.bar();
        let lp = self.lp.as_ref().expect("a relaxation");
        let bound = lp.bound();
        if bound > bar {
            self.done = true;
            return;
        }
        let d = lp.reduced_costs().to_vec();
        let x = lp.values().to_vec();
        let keep: Vec<usize> = (0..self.options.len())
            .filter(|&j| x[j] > WHOLE || d[j] <= bar - bound)
            .collect();
        // (The first round reduces in any case: DLX-PRE's rules alone take
        // air05 from 426 rows to 328.)
        let shrinks = (keep.len() as f64) < (1.0 - RESTART_SHARE / 2.0) * self.options.len() as f64;
        if round + 1 < ROUNDS && (shrinks || round == 0) {
            let size = self.size();
            if !self.shrink(&keep) {
                return;
            }
            if self.size() != size {
                self.step = Step::Build(round + 1);
                return;
            }
        }
        // Rounds of clique cuts while they raise the bound enough.
        // (The last round's gain against all the rounds' so far.)
        let worth = self
            .cut_bounds
            .is_none_or(|(first, last)| bound - last > CUT_GAIN * (bound - first));
        // (At most as many cuts as rows, through restarts too: the dense
        // inverse at most four times the size of the problem's.)
        let room = self.m.saturating_sub(self.cuts.len());
        if self.cut_rounds < CUT_ROUNDS && worth && room > 0 {
            let most = CUTS_A_ROUND.min(room);
            let cuts = clique_cuts(&self.start, &self.rows, &x, Some(&d), most);
            if !cuts.is_empty() {
                let first = self.cut_bounds.map_or(bound, |b| b.0);
                self.cut_bounds = Some((first, bound));
                self.cut_rounds += 1;
                self.cuts.extend(
                    cuts.iter()
                        .map(|cut| cut.iter().map(|&j| self.options[j as usize]).collect()),
                );
                self.lp.as_mut().expect("a relaxation").add_cuts(&cuts);
                self.step = Step::Root(ROUNDS);
                return;
            }
        }
        // (The cuts the root does not lean on only slow the tree.)
        let lp = self.lp.as_mut().expect("a relaxation");
        let kept = lp.drop_loose_cuts(self.m);
        debug_assert_eq!(kept.len(), self.cuts.len(), "a row a cut");
        let mut kept = kept.into_iter();
        self.cuts.retain(|_| kept.next().unwrap_or(false));
        self.root = Some((bound, d, bar));
        self.open.push(Open(Node {
            bound,
            estimate: bound,
            depth: 0,
            fixes: Vec::new(),
        }));
        self.step = Step::Pick;
    }

    /// Sifting's first columns: for each row the [`SIFT_PER_ROW`] of least
    /// cost an entry that hold it, and the cheapest solution known (so
    /// that the rows can be met). None when no solution is known, or its
    /// options are not all left: then the whole is solved.
    pub(super) fn first_working(&self) -> Option<Vec<usize>> {
        let known = self.ledger.best().into_iter().next()?.1;
        let mut at = vec![u32::MAX; self.costs.len()];
        for (j, &o) in self.options.iter().enumerate() {
            at[o as usize] = j as u32;
        }
        let mut take = vec![false; self.options.len()];
        for o in known {
            let j = at[o as usize];
            if j == u32::MAX {
                return None;
            }
            take[j as usize] = true;
        }
        // (Each row's cheapest in one pass, a heap of the dearest kept: a
        // sort of a million columns took 0.25 s. A cost an entry is not
        // negative, so its bits order as it does.)
        let mut cheapest: Vec<BinaryHeap<(u64, usize)>> = vec![BinaryHeap::new(); self.m];
        for j in 0..self.options.len() {
            let rows = self.rows_of(j);
            let cost = self.costs[self.options[j] as usize] as f64;
            let per_entry = (cost / rows.len().max(1) as f64).to_bits();
            for &i in rows {
                let heap = &mut cheapest[i as usize];
                if heap.len() < self.sift_per_row {
                    heap.push((per_entry, j));
                } else if heap.peek().is_some_and(|&top| (per_entry, j) < top) {
                    heap.pop();
                    heap.push((per_entry, j));
                }
            }
        }
        for heap in cheapest {
            for (_, j) in heap {
                take[j] = true;
            }
        }
        Some((0..self.options.len()).filter(|&j| take[j]).collect())
    }

    /// A solve of sifting's relaxation over: its columns priced against
    /// the rest, those of negative reduced cost added (the next solve);
    /// when none is, its optimum is the whole problem's, which is fixed by
    /// its reduced costs and shrunk, and built whole for the next round.
    pub(super) fn sift(&mut self, round: u32, status: LpStatus) {
        let n = self.options.len();
        match status {
            LpStatus::IterationLimit | LpStatus::Stopped => {
                self.step = Step::Root(round);
                return;
            }
            LpStatus::Infeasible | LpStatus::Cutoff => {
                // (Its columns cannot meet the rows, which says nothing of
                // the others: the whole is solved.)
                let whole = self.working.take().is_some_and(|w| w.len() == n);
                if whole {
                    self.done = true;
                } else {
                    self.working = Some((0..n).collect());
                    self.step = Step::Build(round);
                }
                return;
            }
            LpStatus::Optimal => {}
        }
        let lp = self.lp.as_ref().expect("a relaxation");
        let working = self.working.as_ref().expect("sifting");
        let y = lp.multipliers();
        let mut d = vec![0.0; n];
        let mut x = vec![0.0; n];
        let mut inside = vec![false; n];
        for (k, &j) in working.iter().enumerate() {
            inside[j] = true;
            d[j] = lp.reduced_costs()[k];
            x[j] = lp.values()[k];
        }
        // (The dual objective, less what each column left out and of
        // negative reduced cost could take off it: a bound in any case.)
        let mut bound = lp.bound();
        let mut negative = Vec::new();
        for j in (0..n).filter(|&j| !inside[j]) {
            let rows = self.rows_of(j);
            let dj = self.costs[self.options[j] as usize] as f64
                - rows.iter().map(|&i| y[i as usize]).sum::<f64>();
            d[j] = dj;
            bound += dj.min(0.0);
            if dj < SIFT_TOL {
                negative.push((dj, j));
            }
        }
        self.iterations += (self.rows.len() as u64 / 64).max(1);
        if !negative.is_empty() {
            self.pricings += 1;
            negative.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            negative.truncate(SIFT_ADD_PER_ROW * self.m);
            let working = self.working.as_mut().expect("sifting");
            working.extend(negative.iter().map(|&(_, j)| j));
            working.sort_unstable();
            self.step = Step::Build(round);
            return;
        }
        self.working = None;
        self.stats.nodes += 1;
        let bar = self.bar();
        if bound > bar {
            self.done = true;
            return;
        }
        let keep: Vec<usize> = (0..n)
            .filter(|&j| x[j] > WHOLE || d[j] <= bar - bound)
            .collect();
        // (Sifted again, a root that did not shrink would shrink no more:
        // on to the last round, solved whole.)
        let shrinks = (keep.len() as f64) < (1.0 - RESTART_SHARE / 2.0) * n as f64;
        let entries: usize = keep.iter().map(|&j| self.rows_of(j).len()).sum();
        if !shrinks && entries > REDUCE_ENTRIES {
            self.given_up = true;
            return;
        }
        if self.shrink(&keep) {
            self.step = Step::Build(if shrinks { round + 1 } else { ROUNDS - 1 });
        }
    }

    /// The rows of column `j` of the problem left.
    pub(super) fn rows_of(&self, j: usize) -> &[u32] {
        &self.rows[self.start[j] as usize..self.start[j + 1] as usize]
    }

    /// The columns `keep` of the problem left, by column: their starts and
    /// rows.
    pub(super) fn gather(&self, keep: &[usize]) -> (Vec<u32>, Vec<u32>) {
        let mut start = Vec::with_capacity(keep.len() + 1);
        start.push(0u32);
        let mut rows = Vec::new();
        for &j in keep {
            rows.extend_from_slice(self.rows_of(j));
            start.push(rows.len() as u32);
        }
        (start, rows)
    }

    /// The problem left, cut to its columns `keep` (in increasing order).
    pub(super) fn cut_to(&self, keep: &[usize]) -> Option<CompiledProblem> {
        let (start, items) = self.gather(keep);
        CompiledProblem::set_partition(self.m as u32, start, items).ok()
    }

    /// The problem left cut to the columns `keep` and reduced (DLX-PRE's
    /// rules); false when it has no solution (the search is then over).
    pub(super) fn shrink(&mut self, keep: &[usize]) -> bool {
        let Some(p) = self.cut_to(keep) else {
            self.done = true;
            return false;
        };
        // (Within a slice: what a reduction stopped early did is sound.
        // Past [`REDUCE_ENTRIES`] it is not tried: its work's units cost
        // more on big arrays, 1.4 s for 60 million on 4.5 million entries.)
        if p.n_entries() > self.reduce_entries {
            self.options = keep.iter().map(|&j| self.options[j]).collect();
            self.iterations += (p.n_entries() as u64 / 64).max(1);
            self.start = p.option_start().to_vec();
            self.rows = p.option_item().to_vec();
            return true;
        }
        let r = reduce(&p, REDUCE_WORK, &self.never);
        if r.infeasible.is_some() {
            self.done = true;
            return false;
        }
        self.options = r
            .options
            .iter()
            .map(|&o| self.options[keep[o as usize]])
            .collect();
        self.start = r.problem.option_start().to_vec();
        self.rows = r.problem.option_item().to_vec();
        self.m = r.problem.n_primary();
        self.iterations += (r.problem.n_entries() as u64 / 64).max(1);
        true
    }
}
