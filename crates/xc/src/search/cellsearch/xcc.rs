//! The loop of Algorithms X and C on dancing cells (Knuth's steps C1 to
//! C8, after SSXCC): each primary item covered exactly once, the branch at
//! each level trying each option of one item.

use super::*;

/// The most options [`CellSearch::count_few`] counts to the end of a branch.
/// Three took longer than the cells' own levels: the L-tromino 9x9 count
/// 1.07-1.14 s against 0.78 s with two (the search alone), where the
/// options of the items left, unpruned, are many.
pub(super) const FEW: u32 = 2;

/// The longest option it takes (items, primary and secondary).
pub(super) const FEW_ITEMS: usize = 8;

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
                    } else if COUNT
                        && !COLORS
                        && self.cells.active <= self.few_from
                        && self.few_left() > 1
                    {
                        // Two options from the end (`FEW`): counted without
                        // covering anything (see `count_few`). The L-tromino
                        // 9x9's count 0.90 of the time, queens 14 0.96. (Three
                        // where the item chosen is forced took longer: the
                        // tromino 0.90-1.02 s against 0.76 s.)
                        let k = self.few_left();
                        let n = self.count_few(x, k, &mut c);
                        if n > 0 && level + k as usize > self.max_level {
                            self.max_level = level + k as usize;
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
                    } else {
                        // C4: cover i; its tries will each start from here.
                        self.cover::<true, false, false, false>(x, &mut c);
                        self.lv[level].forced = t == 1;
                        if t > 1 {
                            self.lv[level].mark = self.mark_now();
                        }
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
                State::Restore => unreachable!("Algorithm M state in Algorithm X/C"),
            }
        }
    }

    /// How many options cover the active primary items, when every option
    /// holds the same number of them ([`leaf_items`]); else 0.
    #[inline(always)]
    fn few_left(&self) -> u32 {
        let k = self.cells.active / self.leaf.max(1);
        if k * self.leaf == self.cells.active {
            k
        } else {
            0
        }
    }

    /// The solutions below a node where the active primary items are those
    /// of `k` options ([`Self::few_left`], at most [`FEW`]), without colors,
    /// by plain enumeration: the options of the active item with the
    /// fewest, each that shares no item with the options taken so far, then
    /// the same for the items left. Every solution below is counted once
    /// (by the option that covers that item at each step), and every set so
    /// counted is one, since all the options listed are compatible with the
    /// choices made. No cover, commit or node below: the L-tromino's last
    /// six cells, the queens' last two rows and columns.
    fn count_few(&self, x: u32, k: u32, c: &mut Counters) -> u64 {
        if k == 2 {
            match self.cells.uniform {
                2 => return self.count_pairs::<2>(x, c),
                3 => return self.count_pairs::<3>(x, c),
                4 => return self.count_pairs::<4>(x, c),
                _ => {}
            }
        }
        let mut own = [0u32; FEW as usize * FEW_ITEMS];
        self.count_below(&mut own, 0, k, c)
    }

    /// [`Self::count_few`] of two options where every option has `W` nodes
    /// (primary and secondary; `Cells::uniform`): each option's nodes found
    /// from its first by arithmetic, with no spacer to test, as the hide
    /// loops walk them. `x` is the item with the fewest options. The
    /// L-tromino 9x9's count 0.94 of the time of the general walk.
    fn count_pairs<const W: usize>(&self, x: u32, c: &mut Counters) -> u64 {
        let cells = &self.cells;
        let items = |tt: u32| -> [u32; W] {
            let start = tt - at!(cells.off, tt) as u32;
            std::array::from_fn(|j| at!(cells.nd, start + j as u32).itm as u32)
        };
        let mut total = 0u64;
        for k in x..x + cells.size(x) {
            let own = items(at!(cells.set, k));
            // The active item outside o with the fewest options.
            let mut least = u64::MAX;
            for &y in &cells.item[..cells.active as usize] {
                if !own.contains(&y) {
                    least = least.min((cells.size(y) as u64) << 32 | y as u64);
                }
            }
            let (r, size) = (least as u32, (least >> 32) as u32);
            for j in r..r + size {
                let other = items(at!(cells.set, j));
                total += !other.iter().any(|y| own.contains(y)) as u64;
            }
            c.mems += (W + 2 * cells.active as usize + 2 * size as usize * W) as u64;
        }
        total
    }

    /// [`Self::count_few`] once `own[..len]` holds the items of the options
    /// taken, `k` more to take.
    fn count_below(&self, own: &mut [u32], len: usize, k: u32, c: &mut Counters) -> u64 {
        let cells = &self.cells;
        let (mut r, mut fewest) = (0, u32::MAX);
        for &y in &cells.item[..cells.active as usize] {
            let size = cells.size(y);
            if size < fewest && !own[..len].contains(&y) {
                (r, fewest) = (y, size);
            }
        }
        c.mems += 2 * cells.active as u64;
        let mut total = 0u64;
        for j in r..r + fewest {
            let first = at!(cells.set, j);
            let (mut n, mut nn) = (len, first);
            let clash = loop {
                let node = at!(cells.nd, nn);
                if node.itm <= 0 {
                    nn = (nn as i32 + node.itm) as u32;
                    if nn == first {
                        break false;
                    }
                    continue;
                }
                let y = node.itm as u32;
                if own[..len].contains(&y) {
                    break true;
                }
                own[n] = y;
                n += 1;
                nn += 1;
                if nn == first {
                    break false;
                }
            };
            c.mems += (n - len + 1) as u64;
            if !clash {
                total += if k == 1 {
                    1
                } else {
                    self.count_below(own, n, k - 1, c)
                };
            }
        }
        total
    }
}
