//! The branching rules of dancing cells: which primary item a node
//! branches on. Algorithms X and C take the item with the fewest options
//! (step C3), or one by Knuth's learning rules (SSXCC-WTD's weights,
//! SSXCC-FRB's failure rates) or binary branching (SSXCC-BINARY);
//! Algorithm M takes the least branching degree (step M3), as the same
//! rules weigh it.

use super::*;

/// Which loop of Algorithms X and C runs (`run_xcc`'s `RULE`): the
/// fewest options, a rule that learns, binary branching.
pub(super) const FEWEST: u8 = 0;

pub(super) const LEARN: u8 = 1;

pub(super) const BINARY: u8 = 2;

/// What a branching rule that learns from failed tries ([`Heuristic`])
/// knows of each primary item, indexed by the item's base in `set` (Knuth
/// keeps it beside the item's size, in `set` too).
#[derive(Clone, Debug)]
pub(super) struct Learned {
    pub(super) rule: Heuristic,
    /// Each item's weight ([`Heuristic::Weighted`], 1 at first) or failure
    /// rate ([`Heuristic::FailureRate`], 1/2 at first): the item's size (or
    /// degree) is divided by it.
    pub(super) per: Vec<f64>,
    /// [`Heuristic::FailureRate`]: each item's tries so far, plus one.
    pub(super) tries: Vec<f64>,
}

impl Learned {
    /// What `rule` learns, for items below `pbound`; None for a rule that
    /// learns nothing.
    pub(super) fn new(rule: Heuristic, pbound: u32) -> Option<Learned> {
        let n = pbound as usize;
        let (per, tries) = match rule {
            Heuristic::Weighted => (vec![1.0; n], Vec::new()),
            Heuristic::FailureRate => (vec![0.5; n], vec![1.0; n]),
            Heuristic::Binary => return None,
        };
        Some(Learned { rule, per, tries })
    }

    /// Back to what nothing has been learned yet.
    pub(super) fn reset(&mut self) {
        let n = self.per.len() as u32;
        *self = Learned::new(self.rule, n).expect("a rule that learns");
    }

    /// A try of an option of `best` left item `wiped` with too few options.
    #[cold]
    #[inline(never)]
    pub(super) fn failed(&mut self, best: u32, wiped: u32) {
        match self.rule {
            Heuristic::Weighted => self.per[wiped as usize] += 1.0,
            Heuristic::FailureRate => {
                let (b, fr) = (best as usize, self.per[best as usize]);
                self.tries[b] += 1.0;
                self.per[b] = fr + (1.0 - fr) / self.tries[b];
            }
            Heuristic::Binary => {}
        }
    }

    /// A try of an option of `best` went on to the level below.
    #[inline(always)]
    pub(super) fn passed(&mut self, best: u32) {
        if self.rule == Heuristic::FailureRate {
            let (b, fr) = (best as usize, self.per[best as usize]);
            self.tries[b] += 1.0;
            self.per[b] = fr - fr / self.tries[b];
        }
    }
}

impl CellSearch {
    /// Does Algorithm X or C branch in two (take the option or leave it
    /// out)? (Algorithm M's tweaks branch so already.)
    pub(super) fn binary(&self) -> bool {
        !self.mcc && self.rule == Some(Heuristic::Binary)
    }

    /// Chooses the primary item to branch on (step C3), by the search's
    /// rule. Returns `(item, size)`; a size of 0 is a dead end.
    #[inline(always)]
    pub(super) fn choose_xcc(&mut self, c: &mut Counters) -> (u32, u32) {
        self.choose_xcc_as(self.learned.is_some(), c)
    }

    /// [`Self::choose_xcc`], told whether the rule learns: the search loop
    /// knows it at compile time (its `RULE`), so the loop of the fewest
    /// options tests nothing for it.
    #[inline(always)]
    pub(super) fn choose_xcc_as(&mut self, learns: bool, c: &mut Counters) -> (u32, u32) {
        if learns || self.rng.is_some() {
            return self.choose_scanning(c);
        }
        self.choose_fewest(c)
    }

    /// [`Self::choose_xcc`] by a scan from where the last forced item was
    /// found, wrapping round: a forced move or a dead end as soon as seen,
    /// else the fewest options, per unit of what the rule learned of the
    /// item when it learns ([`Heuristic`]); exact ties go to a random item
    /// when randomizing, else to the item declared first, as in Knuth's
    /// programs. Starting where the last forced item was found, a chain of
    /// forced moves (100,000 of them on a long Akari row) costs a step each,
    /// not a scan of every item each; and as the order of forced moves does
    /// not change the tree, nothing random is lost.
    #[inline(never)]
    pub(super) fn choose_scanning(&mut self, c: &mut Counters) -> (u32, u32) {
        let per = self.learned.as_deref().map(|l| &l.per[..]);
        let (cells, rng) = (&self.cells, &mut self.rng);
        let mems = 2 + per.is_some() as u64;
        let active = cells.active;
        let from = scan_start(self.scan_from, active);
        let (mut best, mut t, mut score) = (u32::MAX, u32::MAX, f64::INFINITY);
        let mut ties = 0u64;
        for j in 0..active {
            let k = wrapped(from, j, active);
            let x = at!(cells.item, k);
            let s = cells.size(x);
            if s <= 1 {
                c.mems += mems * (j as u64 + 1);
                self.scan_from = k;
                return (x, s);
            }
            let v = per.map_or(s as f64, |per| s as f64 / per[x as usize]);
            if let Some(rng) = rng.as_mut() {
                if v < score {
                    (best, t, score, ties) = (x, s, v, 1);
                } else if v == score {
                    ties += 1;
                    if rng.below(ties) == 0 {
                        (best, t) = (x, s);
                    }
                }
            } else if v < score || (v == score && x < best) {
                (best, t, score) = (x, s, v);
            }
        }
        c.mems += mems * active as u64;
        (best, t)
    }

    /// Chooses the primary item with the fewest options (Knuth's MRV
    /// heuristic), not randomizing (see [`Self::choose_scanning`] for
    /// that). Returns `(item, size)`; a size of 0 is a dead end.
    #[inline(always)]
    pub(super) fn choose_fewest(&mut self, c: &mut Counters) -> (u32, u32) {
        let cells = &self.cells;
        // The least (size, item) as one key: the tie rule below in one
        // comparison, where `s < t || (s == t && x < best)` took two (the
        // L-tromino 9x9 count 0.87 of their time, queens 14 0.90).
        let mut least = u64::MAX;
        // Ties go to the item declared first, as in Knuth's SSXCC (a
        // rule he credits to P. Weigel): problem makers order their
        // items for it (his QUEENS-DLX from the middle out), and where
        // they do the trees shrink: his 12x12 slitherlink from 129M nodes
        // (ties to the last active item) to 67.5M, his 14 queens from
        // 6.1M to 4.1M. A dead end or a forced move is taken as soon as
        // it is seen, the scan going down from where the last one was
        // found, then from the end: a chain of forced moves is local. (On
        // Knuth's indicator problem, whose 729 levels are nearly all
        // forced, the count took 12.2 s this way, 14.0 s scanning from the
        // end each time.) After a level that was not forced, the scan
        // starts from the end again. Where no item is forced, the whole
        // list is scanned and the tie rule is the whole scan's.
        let active = cells.active;
        // Down from the last forced item (`from` is one past it), then from the end.
        let from = if self.scan_from < active {
            self.scan_from + 1
        } else {
            active
        };
        for (start, end, before) in [(0, from, 0), (from, active, from)] {
            let mut k = end;
            while k > start {
                k -= 1;
                let x = at!(cells.item, k);
                let s = cells.size(x);
                if s <= 1 {
                    c.mems += 2 * (before + end - k) as u64;
                    self.scan_from = k;
                    return (x, s);
                }
                // Without a branch on the comparison (a new least size is
                // seen at random places of the scan, so it was mispredicted).
                least = least.min((s as u64) << 32 | x as u64);
            }
        }
        self.scan_from = u32::MAX; // no chain: the next scan from the end
        c.mems += 2 * cells.active as u64;
        (least as u32, (least >> 32) as u32)
    }

    /// Chooses the primary item of least branching degree `len + s - b + 1`
    /// (`b` its bound, `s = min(slack, b)`); ties go to the smaller `s`, then
    /// to the longer list, as in Knuth's DLX3, then to the item nearest (in
    /// the order of items) to the last one branched on. That last rule keeps
    /// the search in one region of a big problem: a choice that leaves its
    /// region without solution is found out before choices elsewhere pile up
    /// on top of it (on sparse Akari boards it cut the runs that lose
    /// themselves by about half). Where every item's bounds are equal (no
    /// slack anywhere) and the run is not randomized, ties go to the item
    /// declared first instead (see `choose_mcc_in`). Returns `(item, degree)`.
    ///
    /// An item of degree 1 or less is taken as soon as it is seen: nothing
    /// can beat it (degree 0 is a dead end, degree 1 a forced move, and the
    /// order of forced moves does not change the tree). But an item of
    /// degree 1 with no option left has nothing to force (its lower bound is
    /// met): it is passed over, as SSMCC does, where a level of its own (a
    /// null branch) would cost a node each time; if every active item is
    /// such, the node is a solution ([`ALL_MET`]). A search of Knuth's
    /// REDRECT-DLX 4 5, whose 25 naming items of bounds 0:n run out of
    /// options all the time, went from 14.77M nodes and 0.62 s to 3.20M and
    /// 0.51 s; his MOTLEY-DLX 7 7 from 7.52M nodes and 3.83 s to 4.10M and
    /// 3.61 s; his QUEENDOM-DLX 8 5 from 0.99M to 0.68M nodes.
    ///
    /// On problems such as
    /// Akari, with tens of thousands of items and long chains of forced
    /// moves, a full scan per node would cost most of the time; a forced
    /// item usually appears near the last one (a chain is local), so the
    /// scan starts where the last one was found and wraps around.
    ///
    /// The rules are packed into one number per item and the least is kept
    /// (without randomizing, no branch to mispredict, which on the domino
    /// problems of Algorithm M, a few items a node, is what the scan cost);
    /// past 2^21 options of degree, 1023 of slack, 8191 options in the list
    /// or 2^20 places of distance, the next rule decides. When randomizing,
    /// items with the same number are exact ties, one taken at random.
    #[inline(always)]
    pub(super) fn choose_mcc(&mut self, c: &mut Counters) -> (u32, i64) {
        if self.no_options {
            return ALL_MET;
        }
        if self.learned.is_some() {
            return self.choose_learned_mcc(c);
        }
        if self.rng.is_some() {
            return self.choose_mcc_random(c);
        }
        if self.narrow {
            // The scan is most of a node's time on the domino problems.
            if self.exact {
                return self.choose_mcc_in::<false, true, true>(c);
            }
            return self.choose_mcc_in::<false, true, false>(c);
        }
        self.choose_mcc_in::<false, false, false>(c)
    }

    /// [`Self::choose_mcc`] by a rule that learns ([`Heuristic`]): the least
    /// branching degree per unit of what the rule learned of the item, ties
    /// to the smaller slack, the longer list, then the item declared first,
    /// as in Knuth's SSMCC-WTD (or to a random one when randomizing); a
    /// degree of 1 or less as soon as seen.
    #[inline(never)]
    pub(super) fn choose_learned_mcc(&mut self, c: &mut Counters) -> (u32, i64) {
        let Some(learned) = self.learned.as_deref() else {
            return self.choose_mcc_in::<false, false, false>(c);
        };
        let cells = &self.cells;
        let active = cells.active;
        let from = scan_start(self.scan_from, active);
        let (mut best, mut degree_of_best) = (u32::MAX, i64::MAX);
        let mut key = (f64::INFINITY, u32::MAX, 0u32);
        let mut ties = 0u64;
        for j in 0..active {
            let k = wrapped(from, j, active);
            let x = at!(cells.item, k);
            let (t, s, l) = degree(cells, x);
            if t <= 1 {
                if t == 1 && l == 0 {
                    self.met.push(k);
                    continue; // nothing to force: passed over
                }
                c.mems += 3 * (j as u64 + 1);
                self.scan_from = k;
                self.retire_met();
                return (x, t);
            }
            let this = (t as f64 / learned.per[x as usize], s, l);
            // Less per unit, then less slack, then more options.
            let order = this
                .0
                .total_cmp(&key.0)
                .then(this.1.cmp(&key.1))
                .then(key.2.cmp(&this.2));
            if let Some(rng) = self.rng.as_mut() {
                if order.is_lt() {
                    (best, degree_of_best, key, ties) = (x, t, this, 1);
                } else if order.is_eq() {
                    ties += 1;
                    if rng.below(ties) == 0 {
                        (best, degree_of_best) = (x, t);
                    }
                }
            } else if order.is_lt() || (order.is_eq() && x < best) {
                (best, degree_of_best, key) = (x, t, this);
            }
        }
        c.mems += 3 * active as u64;
        self.scan_from = u32::MAX;
        self.retire_met();
        if best == u32::MAX {
            return ALL_MET;
        }
        (best, degree_of_best)
    }

    /// [`Self::choose_mcc`] when randomizing, kept out of the hot loop.
    #[inline(never)]
    pub(super) fn choose_mcc_random(&mut self, c: &mut Counters) -> (u32, i64) {
        // (Unclamped where nothing clamps, as without randomizing: the
        // same keys, so the same ties and the same random choices. The
        // scan is a quarter of the time of Akari's portfolio.)
        if self.narrow {
            if self.exact {
                return self.choose_mcc_in::<true, true, true>(c);
            }
            return self.choose_mcc_in::<true, true, false>(c);
        }
        self.choose_mcc_in::<true, false, false>(c)
    }

    /// [`Self::choose_mcc`]; with `RANDOM`, exact ties go to a random one;
    /// with `NARROW`, the problem's numbers all fit the packed fields
    /// ([`fits_unclamped`]) and nothing is clamped, the same choice.
    #[inline(always)]
    pub(super) fn choose_mcc_in<const RANDOM: bool, const NARROW: bool, const EXACT: bool>(
        &mut self,
        c: &mut Counters,
    ) -> (u32, i64) {
        let cells = &self.cells;
        let active = cells.active;
        let from = scan_start(self.scan_from, active);
        let anchor = self.anchor;
        // (No packed number is u64::MAX: a degree past 2^21 - 1 needs as
        // many options, which leave the list's field 0.)
        let (mut best, mut key) = (u32::MAX, u64::MAX);
        let mut ties = 0u64;
        // From where the last forced item was found to the end, then from
        // the start: `before` is how far the scan had gone when its range began.
        for (start, end, before) in [(from, active, 0), (0, from, active - from)] {
            for k in start..end {
                let x = at!(cells.item, k);
                let (t, s, l) = if EXACT {
                    // No slack: `s` is 0, and the slack need not be read.
                    let l = cells.size(x);
                    (l as i64 - cells.bound(x) as i64 + 1, 0, l)
                } else {
                    degree(cells, x)
                };
                if t <= 1 {
                    if !EXACT && t == 1 && l == 0 {
                        self.met.push(k);
                        continue; // nothing to force: passed over
                    }
                    c.mems += 3 * (before + k - start + 1) as u64;
                    self.scan_from = k;
                    self.retire_met();
                    return (x, t);
                }
                let (t, s, l, d) = (t as u64, s as u64, l as u64, x.abs_diff(anchor) as u64);
                let this = if EXACT && !RANDOM {
                    // Every bound exact: ties to the item declared first
                    // (Knuth's DLX3 takes the longer list first). Knuth's
                    // dominoes twice: 67.6M nodes against 57.7M, but 13.1M
                    // of them branch against 13.5M, the rest forced, and
                    // the count took 0.88 of the time; with items and
                    // options shuffled 0.80-0.84 (45-48M nodes against
                    // 58M). Other exact boards 0.84-1.00, random exact
                    // problems 0.91-1.02 (docs/notes/knuths-six.md).
                    t << 43 | x as u64
                } else if NARROW {
                    t << 43 | s << 33 | (NARROW_LEN as u64 - l) << 20 | d
                } else {
                    t.min((1 << 21) - 1) << 43
                        | s.min((1 << 10) - 1) << 33
                        | (NARROW_LEN as u64 - l.min(NARROW_LEN as u64)) << 20
                        | d.min((1 << 20) - 1)
                };
                if RANDOM {
                    if this < key {
                        (best, key, ties) = (x, this, 1);
                    } else if this == key {
                        ties += 1;
                        if let Some(rng) = self.rng.as_mut()
                            && rng.below(ties) == 0
                        {
                            best = x;
                        }
                    }
                } else {
                    let better = this < key;
                    key = if better { this } else { key };
                    best = if better { x } else { best };
                }
            }
        }
        c.mems += 3 * active as u64;
        self.retire_met();
        if best == u32::MAX {
            return ALL_MET;
        }
        self.anchor = best;
        (best, degree(&self.cells, best).0)
    }

    /// A try of an option of `best` went on to the level below: what a
    /// learning rule takes from it.
    #[inline(always)]
    pub(super) fn learn_success(&mut self, best: u32) {
        if let Some(learned) = self.learned.as_deref_mut() {
            learned.passed(best);
        }
    }

    /// A try of an option of `best` left an item (`cells.wiped`) with too
    /// few options: what a learning rule takes from it.
    #[cold]
    #[inline(never)]
    pub(super) fn learn_failure(&mut self, best: u32) {
        let wiped = self.cells.wiped;
        if let Some(learned) = self.learned.as_deref_mut() {
            learned.failed(best, wiped);
        }
    }
}

/// The largest list length of [`fits_unclamped`] (13 bits).
const NARROW_LEN: u32 = (1 << 13) - 1;

/// Whether the packed number of [`CellSearch::choose_mcc`] needs no clamp on
/// these cells: lists of at most 8191 options (so degrees below 2^21, as a
/// degree is at most a length plus one), slacks below 1024 and item places
/// below 2^20 (their distances too). Lists only shrink and slacks never
/// change, so what holds when built holds for the whole search.
pub(super) fn fits_unclamped(cells: &Cells) -> bool {
    let items = &cells.item[..cells.active as usize];
    cells.set.len() < 1 << 20
        && items
            .iter()
            .all(|&x| cells.size(x) <= NARROW_LEN && cells.slack(x) < 1 << 10)
}

/// Algorithm M's branching degree of item `x`, `len + s - b + 1` (`b` its
/// bound, `s = min(slack, b)`), with `s` and `len`.
#[inline(always)]
fn degree(cells: &Cells, x: u32) -> (i64, u32, u32) {
    let b = cells.bound(x);
    let s = cells.slack(x).min(b);
    let l = cells.size(x);
    (l as i64 + s as i64 - b as i64 + 1, s, l)
}

/// Where a scan of the `active` items that looks for a forced one starts:
/// where the last one was found, if that position is still in the list.
#[inline(always)]
fn scan_start(last: u32, active: u32) -> u32 {
    if last < active { last } else { 0 }
}

/// The `j`-th position of a scan from `from` that wraps around `active`.
#[inline(always)]
fn wrapped(from: u32, j: u32, active: u32) -> u32 {
    if from + j < active {
        from + j
    } else {
        from + j - active
    }
}
