//! The loop of Algorithm M on dancing cells (Knuth's steps M1 to M9, after
//! SSMCC): a primary item takes between `lo` and `hi` options; each option
//! of the branching item is the next it takes or left out for the rest of
//! the level (Knuth's tweak), and the null branch, once its lower bound is
//! met, gives it no more.

use super::*;

impl CellSearch {
    /// Takes the items the scan passed over out of the active ones, as the
    /// null branch of a level of their own would, but without the level:
    /// a passed-over item left active is scanned again at every node below,
    /// and keeps a scan from stopping at the first forced item it meets
    /// (a randomized run on a 100 x 100 Akari board, where most items end
    /// so: 4.7 times the time per node, and 3.6 times the updates). The
    /// marks of the levels above set `active` back, so they return when the
    /// search backs up past this node. Positions are taken from the highest
    /// down: each leaves by a swap with the last active item, which then
    /// never is one still to go.
    #[inline(never)]
    pub(super) fn retire_met(&mut self) {
        if self.met.is_empty() {
            return;
        }
        self.met.sort_unstable_by(|a, b| b.cmp(a));
        for j in 0..self.met.len() {
            let k = self.met[j];
            let x = at!(self.cells.item, k);
            self.cells.deactivate(x, k);
        }
        self.met.clear();
    }

    /// Takes the option of node `x` into the solution (step M6): every other
    /// primary item uses up one unit of its bound and is covered when none is
    /// left; secondary items are covered or purified as in Algorithm C.
    ///
    /// With `CHECK`, it stops as soon as some active item is left with fewer
    /// options than it must still take, and returns false (the caller sets
    /// the try back), as SSMCC does: the dead end is not entered as a node.
    /// Measured: his queendom 8,5 went from 9.5M nodes and 2.45 s to 0.99M
    /// and 2.05 s, motley 6x7 from 0.35 s to 0.32 s; redrect 4x5, whose
    /// items mostly take any number, from 0.59 s to 0.61 s (the test on
    /// every removal).
    #[inline(always)]
    pub(super) fn commit_mcc<const COLORS: bool, const TRAIL: bool, const CHECK: bool>(
        &mut self,
        x: u32,
        c: &mut Counters,
    ) -> bool {
        if CHECK {
            // Every bound first: a hide below checks each item against
            // what it must still take, this option's share already taken.
            let mut pp = self.after(x);
            while pp != x {
                let cc = at!(self.cells.nd, pp).itm as u32;
                if cc < self.cells.pbound {
                    self.use_bound::<TRAIL>(cc);
                    c.mems += 2;
                }
                pp = self.after(pp);
            }
        }
        let mut pp = x + 1;
        while pp != x {
            let cc = at!(self.cells.nd, pp).itm;
            if cc <= 0 {
                pp = (pp as i32 + cc) as u32;
                continue;
            }
            let cc = cc as u32;
            c.mems += 2;
            if cc < self.cells.pbound {
                let b = if CHECK {
                    self.cells.bound(cc)
                } else {
                    self.use_bound::<TRAIL>(cc)
                };
                if b == 0 && CHECK && self.universal.contains(&cc) {
                    // No option is left once cc is full (every one holds
                    // it), and every bound is taken: the node below is a
                    // solution if no item must take more, else a dead end.
                    // QUEENDOM-DLX 8 5 hid some 60 options of 25 items at
                    // each fifth queen to find that.
                    return self.needs_met(c);
                }
                if b == 0 && !self.cover::<TRAIL, true, CHECK, true>(cc, c) {
                    return false;
                }
            } else if self.cells.pos(cc) < self.cells.sactive {
                if !COLORS || at!(self.cells.clr, pp) == 0 {
                    if !self.cover::<TRAIL, true, CHECK, true>(cc, c) {
                        return false;
                    }
                } else {
                    let k = self.cells.pos(cc);
                    self.cells.deactivate_secondary(cc, k);
                    let color = at!(self.cells.clr, pp);
                    if !self.cells.purify::<TRAIL, CHECK, true>(cc, color, c) {
                        return false;
                    }
                }
            }
            pp += 1;
        }
        true
    }

    /// Has every active primary item taken at least its lower bound? If so,
    /// the node entered next is a solution (`no_options`).
    pub(super) fn needs_met(&mut self, c: &mut Counters) -> bool {
        let cells = &self.cells;
        let active = cells.active as usize;
        c.mems += 2 * active as u64;
        let met = cells.item[..active]
            .iter()
            .all(|&x| cells.bound(x) <= cells.slack(x));
        self.no_options = met;
        met
    }

    /// The node after `pp` in its option, round past the spacer.
    #[inline(always)]
    pub(super) fn after(&self, pp: u32) -> u32 {
        let q = pp + 1;
        let cc = at!(self.cells.nd, q).itm;
        if cc <= 0 { (q as i32 + cc) as u32 } else { q }
    }

    /// Uses one unit of primary item `cc`'s bound (saved on the trail first
    /// with `TRAIL`); returns what is left.
    #[inline(always)]
    pub(super) fn use_bound<const TRAIL: bool>(&mut self, cc: u32) -> u32 {
        if TRAIL {
            self.cells.touch(cc);
        }
        let b = self.cells.bound(cc) - 1;
        self.cells.set_bound(cc, b);
        b
    }

    /// Sets the cells back to a mark of Algorithm M (sizes, bounds, active items).
    #[inline(always)]
    pub(super) fn restore_mcc(&mut self, mark: (u32, u32, u32), c: &mut Counters) {
        let (tlen, active, sactive) = mark;
        self.cells.restore::<true>(tlen as usize, c);
        self.cells.active = active;
        self.cells.sactive = sactive;
    }

    pub(super) fn mark_now(&self) -> (u32, u32, u32) {
        (
            self.cells.tlen as u32,
            self.cells.active,
            self.cells.sactive,
        )
    }

    /// Algorithm M (TAOCP 7.2.2.1), on sparse sets. Each level saves where
    /// each of its tries starts (`tries`, set back at M7); the trail records
    /// what changed since. What the level did before its tries (M4, its
    /// tweaks, its null branch) is set back by the level above, as Algorithm
    /// X's C4 is.
    pub(super) fn run_mcc<const COLORS: bool, const COUNT: bool>(
        &mut self,
        limits: Limits,
        target: u64,
    ) -> Step {
        let (mut c, mut level, mut state, mut cur) = self.resume();
        loop {
            match state {
                State::Forward => {
                    // M2: enter the level.
                    if let Some(step) = self.enter::<COUNT>(level, &mut state, c, limits, target) {
                        return step;
                    }
                    if state == State::DoneWithLevel {
                        continue;
                    }
                    // M3: choose the item i.
                    let (i, score) = self.choose_mcc(&mut c);
                    if (i, score) == ALL_MET {
                        if let Some(step) = self.visit::<COUNT>(level, &mut state, c, target) {
                            return step;
                        }
                        continue;
                    }
                    if score <= 0 {
                        state = State::DoneWithLevel; // too few options left for i
                        continue;
                    }
                    // M4: prepare to branch on i.
                    self.lv[level].best = i;
                    self.lv[level].deg = score as u32;
                    // (In the epoch of the try above, as Algorithm X's C4:
                    // the level above sets it back, M8 need not. One
                    // snapshot fewer a level.)
                    self.lv[level].forced = score == 1;
                    self.cells.touch(i);
                    let b = self.cells.bound(i) - 1;
                    self.cells.set_bound(i, b);
                    if b == 0 {
                        self.cover::<true, true, false, false>(i, &mut c);
                    }
                    self.lv[level].ft = self.cells.size(i);
                    self.lv[level].tw = 0;
                    self.lv[level].plain = b == 0 && self.cells.slack(i) == 0;
                    cur = i;
                    state = State::Advance;
                }
                State::Advance => {
                    // M5: possibly tweak the next option.
                    let i = self.lv[level].best;
                    let b = self.cells.bound(i);
                    let slack = self.cells.slack(i);
                    let s = self.cells.size(i);
                    if b == 0 && slack == 0 {
                        // Exactly one more: plain branching over the covered item.
                        if cur >= i + s {
                            state = State::DoneWithLevel; // (M8, see below)
                        } else {
                            self.lv[level].choice = at!(self.cells.set, cur);
                            state = State::Try;
                        }
                    } else if s as i64 <= b as i64 - slack as i64 {
                        // The lower bound can no longer be met (M8).
                        state = State::DoneWithLevel;
                    } else if s > 0 {
                        // The tweak lasts until the level is left: an epoch
                        // of its own, above the tries' marks of the levels
                        // before it, below its own tries'.
                        let x = at!(self.cells.set, i);
                        if !self.lv[level].forced {
                            self.cells.new_epoch();
                        }
                        if b != 0 {
                            self.cells.hide_one::<true, false, true>(x, &mut c);
                        }
                        self.cells.touch(i);
                        self.cells.remove_from_own_set(x, &mut c);
                        self.lv[level].tw += 1;
                        self.lv[level].choice = x;
                        state = State::Try;
                    } else {
                        // The null branch: i takes no more options. (A fresh
                        // epoch: the last try's was set back, and a forced
                        // level below works in the epoch it finds.)
                        if !self.lv[level].forced {
                            self.cells.new_epoch();
                        }
                        if b != 0 {
                            let k = self.cells.pos(i);
                            self.cells.deactivate(i, k);
                        }
                        self.lv[level].choice = NULL;
                        level += 1;
                        state = State::Forward;
                    }
                }
                State::Try => {
                    // M6: try the option.
                    let x = self.lv[level].choice;
                    if !self.lv[level].forced {
                        self.lv[level].tries = self.mark_now();
                        self.cells.new_epoch();
                    }
                    level += 1;
                    let taken = if self.check {
                        self.commit_mcc::<COLORS, true, true>(x, &mut c)
                    } else {
                        self.commit_mcc::<COLORS, true, false>(x, &mut c)
                    };
                    if self.learned.is_some() {
                        let best = self.lv[level - 1].best;
                        if taken {
                            self.learn_success(best);
                        } else {
                            self.learn_failure(best);
                        }
                    }
                    if taken && self.cells.active == 0 && !self.spent(&c, limits) {
                        // Every item's bound taken: the node below is a
                        // solution, counted as entered (M2's node, after its
                        // budgets, as `enter` does) without the step's other
                        // work. Knuth's dominoes twice: 0.96 of the time.
                        self.nodes += 1;
                        if level > self.max_level {
                            self.max_level = level;
                        }
                        if let Some(step) = self.visit::<COUNT>(level, &mut state, c, target) {
                            return step;
                        }
                        continue;
                    }
                    state = if taken {
                        State::Forward
                    } else {
                        // Some item can no longer meet its lower bound: a
                        // dead end found before the node below is entered.
                        State::DoneWithLevel
                    };
                }
                State::DoneWithLevel => {
                    // M9: leave the level.
                    self.no_options = false;
                    if level == self.base {
                        self.save(level, State::Done, c);
                        return Step::Exhausted;
                    }
                    level -= 1;
                    let x = self.lv[level].choice;
                    if self.lv[level].forced {
                        continue; // its one branch is done; on up (M9)
                    } else if x == NULL {
                        // M8: restore i. Nothing to set back here: the
                        // level above sets back everything since its try
                        // began (M7), this level's tweaks and its null
                        // branch included, and nothing reads the cells
                        // before it does. So on up (M9).
                        continue;
                    } else {
                        // M7: try again.
                        self.restore_mcc(self.lv[level].tries, &mut c);
                        if self.lv[level].plain {
                            cur = at!(self.cells.nd, x).loc + 1;
                        }
                        state = State::Advance;
                    }
                }
                State::Done => {
                    self.save(level, State::Done, c);
                    return Step::Exhausted;
                }
                State::Backup | State::Recover | State::Leaf | State::Exclude => {
                    unreachable!("Algorithm X state in Algorithm M")
                }
            }
        }
    }
}
