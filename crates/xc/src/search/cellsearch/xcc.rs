//! The loop of Algorithms X and C on dancing cells (Knuth's steps C1 to
//! C8, after SSXCC): each primary item covered exactly once, the branch at
//! each level trying each option of one item.

use super::*;

impl CellSearch {
    /// Algorithms X and C, branching by `RULE`: on each option of the item
    /// with the fewest options ([`FEWEST`]) or of the one a learning rule
    /// chooses ([`LEARN`]), or in two ([`BINARY`]; Knuth's SSXCC-BINARY: the
    /// first option of the item with the fewest options, taken, then left
    /// out). A copy of the loop each, so that the fewest options' loop has
    /// no test for the others.
    pub(super) fn run_xcc<const COLORS: bool, const COUNT: bool, const RULE: u8>(
        &mut self,
        limits: Limits,
        target: u64,
    ) -> Step {
        let (mut c, mut level, mut state, mut cur) = self.resume();
        let mut best = self.lv.0.get(level).map_or(0, |l| l.best);
        if state == State::Recover {
            // Resuming after a solution: the level's choice tells where we were.
            let node = self.lv[level].choice;
            best = at!(self.cells.nd, node).itm as u32;
            cur = at!(self.cells.nd, node).loc;
        }
        loop {
            match state {
                State::Forward => {
                    // C2: enter level l (pausing first if a budget is reached).
                    // (No primary item left is only reachable when forced
                    // options cover everything.)
                    if let Some(step) = self.enter::<COUNT>(level, &mut state, c, limits, target) {
                        return step;
                    }
                    if state == State::DoneWithLevel {
                        continue;
                    }
                    // C3: choose the item i.
                    let (x, t) = self.choose_xcc_as(RULE == LEARN, &mut c);
                    best = x;
                    self.lv[level].best = x;
                    if RULE == BINARY {
                        self.lv[level].out = false;
                    }
                    if t == 0 {
                        // Item x was left empty by covering the item above
                        // (which tries do not check): a failed try there.
                        if RULE == LEARN && level > self.base {
                            self.cells.wiped = x;
                            self.learn_failure(self.lv[level - 1].best);
                        }
                        state = State::DoneWithLevel;
                    } else if self.cells.active == 1 || self.cells.active == self.leaf {
                        // The last primary item, or the last ones, all in
                        // each option left (`leaf_items`): each option of x completes a
                        // solution, since every option still listed is
                        // compatible with the choices made, and no two of them
                        // can go together. No need to cover anything.
                        if level + 1 > self.max_level {
                            self.max_level = level + 1;
                        }
                        if COUNT {
                            self.solutions += t as u64;
                            state = State::DoneWithLevel;
                            if self.solutions >= target {
                                self.save(level, state, c);
                                return Step::Paused;
                            }
                        } else {
                            cur = x;
                            state = State::Leaf;
                        }
                    } else if COUNT && !COLORS && self.cells.active == self.pairs_at {
                        // Two options from the end: counted without covering
                        // anything (see `count_pairs`). The L-tromino 9x9's
                        // count 0.90 of the time, queens 14 0.96. (Three,
                        // by the same enumeration, took longer: the tromino
                        // 1.07-1.14 s against 0.78 s, where the options of
                        // the items left, unpruned, are many; and 0.90-1.02
                        // s where the item chosen was forced.)
                        let n = self.count_pairs(x, &mut c);
                        if n > 0 && level + 2 > self.max_level {
                            self.max_level = level + 2;
                        }
                        self.solutions += n;
                        state = State::DoneWithLevel;
                        if self.solutions >= target {
                            self.save(level, state, c);
                            return Step::Paused;
                        }
                    } else if RULE == BINARY && t > 1 {
                        // Two branches: i's first option, taken (i covered)
                        // then left out; both start from the level's mark.
                        self.lv[level].forced = false;
                        self.lv[level].mark = self.mark_now();
                        self.cells.new_epoch();
                        self.cover::<true, false, false, false>(x, &mut c);
                        cur = x;
                        state = State::Try;
                    } else if t == 1 {
                        // A forced move: x leaves the active items, but its
                        // one option is not hidden; the commit leaves it
                        // out of its hides (see `commit_as`). The
                        // L-tromino 9x9's updates 0.95 of C4's, queens 14
                        // 0.90; the search alone 0.96 and 0.98 of the time.
                        let k = self.cells.pos(x);
                        self.cells.deactivate(x, k);
                        c.mems += 2;
                        self.lv[level].forced = true;
                        cur = x;
                        state = State::Try;
                    } else {
                        // C4: cover i; its tries will each start from here.
                        self.cover::<true, false, false, false>(x, &mut c);
                        self.lv[level].forced = false;
                        self.lv[level].mark = self.mark_now();
                        cur = x;
                        state = State::Try;
                    }
                }
                State::Leaf => {
                    // (Not a step of Knuth's: the last item's options, each a
                    // solution, listed without covering anything.)
                    if cur >= best + self.cells.size(best) {
                        state = State::DoneWithLevel;
                        continue;
                    }
                    if COUNT {
                        self.solutions += (best + self.cells.size(best) - cur) as u64;
                        state = State::DoneWithLevel;
                        continue;
                    }
                    self.lv[level].choice = at!(self.cells.set, cur);
                    cur += 1;
                    self.sol_len = level + 1;
                    self.solutions += 1;
                    self.cur = cur;
                    self.save(level, State::Leaf, c);
                    return Step::Solution;
                }
                State::Advance => {
                    // C5, its test: every option of i tried? Then C7.
                    if cur >= best + self.cells.size(best) {
                        state = State::Backup;
                        continue;
                    }
                    // A pause between two tries when the updates are spent:
                    // on a big problem, the failed tries of one level (each
                    // hiding thousands of options) can take a second
                    // without entering a node, where the other pauses are.
                    if c.updates >= limits.updates {
                        self.cur = cur;
                        self.save(level, State::Advance, c);
                        return Step::Paused;
                    }
                    state = State::Try;
                }
                State::Try => {
                    // C5: try x_l, committing its other items; then C2 at level l + 1.
                    let node = at!(self.cells.set, cur);
                    self.lv[level].choice = node;
                    let forced = self.lv[level].forced;
                    if !forced && RULE != BINARY {
                        self.cells.new_epoch();
                    }
                    if !self.commit::<COLORS, true, true>(node, &mut c) {
                        if RULE == LEARN {
                            self.learn_failure(best);
                        }
                        if RULE == BINARY && !forced {
                            state = State::Exclude;
                            continue;
                        }
                        if !forced {
                            self.restore(level, &mut c);
                        }
                        cur += 1;
                        state = State::Advance;
                        continue;
                    }
                    if RULE == LEARN {
                        self.learn_success(best);
                    }
                    if self.cells.active == 0 {
                        self.sol_len = level + 1;
                        self.solutions += 1;
                        if level + 1 > self.max_level {
                            self.max_level = level + 1;
                        }
                        state = State::Recover;
                        if !COUNT || self.solutions >= target {
                            self.save(level, state, c);
                            return if COUNT { Step::Paused } else { Step::Solution };
                        }
                    } else {
                        level += 1;
                        state = State::Forward;
                    }
                }
                State::Backup => {
                    // C7: backtrack. Nothing to uncover: the try of the level
                    // above (C6) sets back what covering i changed.
                    state = State::DoneWithLevel;
                }
                State::DoneWithLevel => {
                    // C8: leave level l; at the base level, the search is over.
                    if level == self.base {
                        self.save(level, State::Done, c);
                        return Step::Exhausted;
                    }
                    level -= 1;
                    if RULE == BINARY && self.lv[level].out {
                        continue; // both its branches are done
                    }
                    let node = self.lv[level].choice;
                    best = at!(self.cells.nd, node).itm as u32;
                    cur = at!(self.cells.nd, node).loc;
                    state = State::Recover;
                }
                State::Recover => {
                    // C6: try again: undo x_l's try, and on to the next option (C5).
                    if self.lv[level].forced {
                        state = State::DoneWithLevel; // no next option
                        continue;
                    }
                    if RULE == BINARY {
                        state = State::Exclude;
                        continue;
                    }
                    self.restore(level, &mut c);
                    cur += 1;
                    state = State::Advance;
                }
                State::Exclude => {
                    // The second branch: back to the level's start (i not
                    // covered), its option left out of every set, and a new
                    // choice below. A dead end if that leaves an item with
                    // no option; the level above sets it back either way.
                    self.restore(level, &mut c);
                    self.cells.new_epoch();
                    let node = self.lv[level].choice;
                    self.lv[level].out = true;
                    if self.cells.hide_trailed::<true, true, false>(node, &mut c) {
                        self.cells.touch(best);
                        self.cells.remove_from_own_set(node, &mut c);
                        level += 1;
                        state = State::Forward;
                    } else {
                        state = State::DoneWithLevel;
                    }
                }
                State::Done => {
                    self.save(level, State::Done, c);
                    return Step::Exhausted;
                }
            }
        }
    }
}
