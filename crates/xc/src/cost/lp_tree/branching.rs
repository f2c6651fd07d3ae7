//! Where to branch: reliability branching, pseudocosts from the
//! branchings so far and strong branching's trials where they are not yet
//! reliable.

use super::*;

impl LpTree {
    /// The two children of `node` on column `j` (x_j = 0, x_j = 1), with
    /// their bounds and estimates, those under the bar kept.
    pub(super) fn branch(
        &mut self,
        node: &Node,
        j: u32,
        bound: [f64; 2],
        estimate: [f64; 2],
        fixes: &[(u32, bool)],
    ) {
        let bar = self.bar();
        // (The side of least estimate is plunged into; x_j = 1 on a tie.)
        let first = if estimate[0] < estimate[1] { 0 } else { 1 };
        for side in [1 - first, first] {
            if bound[side] > bar {
                continue;
            }
            let mut f = fixes.to_vec();
            f.push((j, side == 1));
            let child = Node {
                bound: bound[side],
                estimate: estimate[side].max(bound[side]),
                depth: node.depth + 1,
                fixes: f,
            };
            // A plunge goes on while its child's estimate is in the lower
            // PLUNGE of the gap between the best open node and the bar,
            // or while no solution is known.
            let lowest = self.open.peek().map_or(child.estimate, |o| o.0.estimate);
            if side == first && child.estimate <= lowest + PLUNGE * (bar - lowest) {
                self.plunge = Some(child);
            } else {
                self.open.push(Open(child));
            }
        }
    }

    /// The gain a column's pseudocosts foresee on `side`, from value `x`
    /// (`mean`: the mean pseudocost of that side, for a column never
    /// tried).
    pub(super) fn foreseen(&self, j: u32, side: usize, x: f64, mean: f64) -> f64 {
        let change = if side == 0 { x } else { 1.0 - x };
        let (sum, count) = self.pseudo[side][j as usize];
        if count > 0 {
            sum / count as f64 * change
        } else {
            mean * change
        }
    }

    /// The mean pseudocost of each side over the columns tried (1 when
    /// none was).
    pub(super) fn means(&self) -> [f64; 2] {
        std::array::from_fn(|side| {
            let (s, c) = self.pseudo[side].iter().fold((0.0, 0), |(s, c), &(a, b)| {
                if b > 0 {
                    (s + a / b as f64, c + 1)
                } else {
                    (s, c)
                }
            });
            if c > 0 { s / c as f64 } else { 1.0 }
        })
    }

    pub(super) fn reliable(&self, j: u32) -> bool {
        self.pseudo[0][j as usize].1 >= RELIABLE && self.pseudo[1][j as usize].1 >= RELIABLE
    }

    /// Strong branching, a trial at a time (each in slices), then the
    /// branch.
    pub(super) fn strong(&mut self, mut s: Box<Strong>, left: u64) {
        let bar = self.bar();
        // The next candidate to try: one not reliable, among the first
        // STRONG_CANDIDATES not reliable ones.
        if s.trial.is_none() {
            // (A candidate half tried goes on, reliable or not by now.)
            let mut found = (s.side == 1).then_some(s.next);
            // (Past the budget no new candidate is tried: the branch is
            // chosen by pseudocosts.)
            let others = self.iterations - self.strong_iterations;
            let spent = self.strong_iterations as f64;
            let over = spent > self.strong_share * others as f64 + self.strong_free as f64;
            if over && found.is_none() {
                self.past_budget += 1;
                self.choose(*s);
                return;
            }
            let mut unreliable = 0;
            for (i, &j) in s.candidates.iter().enumerate() {
                if found.is_some() {
                    break;
                }
                if self.reliable(j) {
                    continue;
                }
                unreliable += 1;
                if unreliable > STRONG_CANDIDATES {
                    break;
                }
                if i >= s.next {
                    found = Some(i);
                }
            }
            match found {
                Some(i) => {
                    s.next = i;
                    let j = s.candidates[i] as usize;
                    let lp = self.lp.as_mut().expect("a relaxation");
                    if !lp.invert_if_due(STRONG_ITERATIONS, &self.never) {
                        self.step = Step::Strong(s);
                        return;
                    }
                    let mut trial = lp.clone();
                    let v = if s.side == 1 { 1.0 } else { 0.0 };
                    trial.set_bounds(j, v, v);
                    trial.set_cutoff(bar);
                    let at = trial.iterations();
                    s.trial = Some((trial, at));
                    self.trials += 1;
                    self.iterations += 1;
                }
                None => {
                    self.choose(*s);
                    return;
                }
            }
        }
        let (trial, at) = s.trial.as_mut().expect("a trial");
        let most = (*at + STRONG_ITERATIONS)
            .saturating_sub(trial.iterations())
            .min(left);
        let before = trial.iterations();
        let status = trial.solve(most.max(1), &self.never);
        self.iterations += trial.iterations() - before;
        self.strong_iterations += trial.iterations() - before;
        let over = trial.iterations() >= *at + STRONG_ITERATIONS;
        if matches!(status, LpStatus::IterationLimit | LpStatus::Stopped) && !over {
            self.step = Step::Strong(s);
            return;
        }
        let bound = if status == LpStatus::Infeasible {
            f64::INFINITY
        } else {
            trial.bound()
        };
        let cut = status == LpStatus::Cutoff || bound > bar;
        let (i, side) = (s.next, s.side);
        let j = s.candidates[i];
        s.tried[i][side] = bound.max(s.obj);
        // (A trial cut off above the bar tells only part of its gain: kept
        // out of the pseudocosts, seeded proofs of air04 and air05 in ten
        // column orders took 75 s in all, 77 s with it in, 79 s with no
        // cutoff.)
        if bound.is_finite() && status != LpStatus::Cutoff {
            let xj = s.x[j as usize];
            let change = if side == 0 { xj } else { 1.0 - xj };
            let p = &mut self.pseudo[side][j as usize];
            p.0 += (bound - s.obj).max(0.0) / change.max(WHOLE);
            p.1 += 1;
        }
        s.trial = None;
        if cut {
            // This side holds nothing worth keeping: the node's one child
            // is the other side (or none).
            let other = 1 - side;
            let mut fixes = s.fixes.clone();
            fixes.push((j, other == 1));
            // (NAN, not tried, is passed over by max.)
            let b = s.tried[i][other].max(s.obj);
            if b <= bar {
                // (The same node, one column more fixed: solved next.)
                self.plunge = Some(Node {
                    bound: b,
                    estimate: b,
                    depth: s.node.depth,
                    fixes,
                });
            }
            self.step = Step::Pick;
            return;
        }
        if side == 0 {
            s.side = 1;
        } else {
            s.side = 0;
            s.next = i + 1;
        }
        self.step = Step::Strong(s);
    }

    /// The branching column chosen by its two gains (tried or foreseen),
    /// and the node's two children made.
    pub(super) fn choose(&mut self, s: Strong) {
        let mut best = (f64::NEG_INFINITY, 0usize, [0.0; 2]);
        let means = self.means();
        for (i, &j) in s.candidates.iter().enumerate() {
            let xj = s.x[j as usize];
            let g: [f64; 2] = std::array::from_fn(|side| {
                if s.tried[i][side].is_nan() {
                    self.foreseen(j, side, xj, means[side])
                } else {
                    s.tried[i][side] - s.obj
                }
            });
            let score = g[0].max(1e-6) * g[1].max(1e-6);
            if score > best.0 {
                best = (score, i, g);
            }
        }
        let (_, i, gains) = best;
        let j = s.candidates[i];
        let bound: [f64; 2] = std::array::from_fn(|side| {
            if s.tried[i][side].is_nan() {
                s.obj
            } else {
                s.tried[i][side]
            }
        });
        let estimate = [s.obj + gains[0].max(0.0), s.obj + gains[1].max(0.0)];
        self.branch(&s.node, j, bound, estimate, &s.fixes);
        self.step = Step::Pick;
    }
}
