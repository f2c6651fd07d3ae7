//! Preprocessing, after Knuth's DLX-PRE: options and items that cannot
//! matter are taken out before the search, repeated until nothing changes.
//!
//! Three rules, each sound on its own (every solution of the problem is one
//! of the reduced problem, option for option, and back):
//! * **An item forced by another.** If every option of a primary item `p`
//!   (covered exactly once) holds item `c` (covered at most once) without a
//!   color, the option that covers `p` covers `c`: `c` leaves the problem,
//!   the options with `c` but not `p` are deleted and those with both lose
//!   `c`. (An item of a single option is the case where that option is
//!   forced: its other items go.)
//! * **An option that blocks an item.** If choosing option `r` rules out
//!   every option of a primary item `p` not in `r` (which must be covered),
//!   `r` is in no solution: it is deleted.
//! * **An item that binds nothing** (not in DLX-PRE). A primary item `p`
//!   that may be left uncovered (bounds `0:v`) and of which no choice of
//!   options can hold more than `v` leaves the problem, its options kept:
//!   its bounds never bind. The most options of `p` that can be chosen
//!   together is bounded by a cover of them by other items: an item of
//!   upper bound `w` (a secondary item without a color: 1) is in at most
//!   `w` options of a solution. Knuth's REDRECT-DLX names each rectangle by
//!   such items (`0:n|x01`, one rectangle of each row span per column at
//!   most); they made a count's search tree four times as big and a
//!   frontier's state 70 bits instead of 28. Not where an option would be
//!   left with no primary item: no search would choose it, where it may be
//!   chosen or not, and the count would lose the factor.
//!
//! An option rules out another through an item both hold that may be
//! covered at most once (a secondary item, or a primary item whose upper
//! bound is 1), unless both give it the same color; items of larger
//! multiplicity rule nothing out, so problems with multiplicities are
//! reduced where it is sound and left alone elsewhere. A primary item left
//! without options (and that must be covered) makes the problem
//! infeasible. The work is counted, and a budget (or a stop flag) may end
//! the reduction early: what was done is sound, whatever is left.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use xc::{reduce, CompiledProblem};
//! // Knuth's example: primary A..E, secondary F G; options
//! // "C E F", "A D G", "B C F", "A D", "B G", "D E G": one solution.
//! let opts: [&[u32]; 6] = [&[2, 4, 5], &[0, 3, 6], &[1, 2, 5], &[0, 3], &[1, 6], &[3, 4, 6]];
//! let mut start = vec![0u32];
//! let mut item = vec![];
//! for o in opts { item.extend_from_slice(o); start.push(item.len() as u32); }
//! let p = CompiledProblem::new(5, 2, vec![1; 5], vec![1; 5], start, item, vec![]).unwrap();
//! let r = reduce(&p, u64::MAX, &AtomicBool::new(false));
//! assert!(r.complete && r.infeasible.is_none());
//! // What is left: three options, each of one primary item.
//! assert_eq!(r.problem.n_options(), 3);
//! assert_eq!(r.problem.n_entries(), 3);
//! ```

use std::sync::atomic::{AtomicBool, Ordering};

use crate::core::problem::CompiledProblem;

/// The reduced problem and how it maps to the original.
#[derive(Clone, Debug)]
pub struct Reduced {
    /// The problem left: its items renumbered (primary first), its options
    /// the original ones kept, in their order, some without the items that
    /// left.
    pub problem: CompiledProblem,
    /// The original id of each option of `problem`.
    pub options: Vec<u32>,
    /// The original id of each item of `problem`.
    pub items: Vec<u32>,
    /// Rounds over the whole problem.
    pub rounds: u32,
    /// Did the reduction run until nothing changed (not stopped by its
    /// budget or the stop flag)?
    pub complete: bool,
    /// A primary item (original id) that no option can cover: the problem
    /// has no solution (`problem` is then that item alone, without options).
    pub infeasible: Option<u32>,
    /// Units of work spent.
    pub work: u64,
}

/// What the reduction works on: the problem, which options and items are
/// still there, and the options of each item.
struct State<'a> {
    p: &'a CompiledProblem,
    live: Vec<bool>,
    gone: Vec<bool>,
    /// Live options of each item.
    len: Vec<u32>,
    /// The options of item i (with the color it has there) are
    /// `by_item[item_start[i]..item_start[i + 1]]`.
    item_start: Vec<u32>,
    by_item: Vec<(u32, u32)>,
    /// Scratch marks: `mark[o] == stamp` for options ruled out, `seen[i]`
    /// for items met, `count[i]` for items counted.
    mark: Vec<u32>,
    seen: Vec<u32>,
    count: Vec<u32>,
    stamp: u32,
    work: u64,
    budget: u64,
    infeasible: Option<u32>,
    /// The second rule on words, where it pays ([`State::words_pay`]).
    words: Option<Words>,
}

/// The second rule on words: the options each option rules out, the
/// options of each primary item and the live options, as bitsets of `w`
/// words. An option blocks an item when the item's live options less
/// those it rules out are no bits: a few words an item, where following
/// the entries looks at every option of each of its items (hexiamonds
/// 6x6: about 170 words an option against 7,500 entries).
struct Words {
    w: usize,
    /// `rows[o * w..(o + 1) * w]`: the options `o` rules out, as of the
    /// round's start (later deletions are in `live`).
    rows: Vec<u64>,
    /// `items[i * w..(i + 1) * w]`: the options of primary item `i`.
    items: Vec<u64>,
    live: Vec<u64>,
}

impl Words {
    /// Most options for the words: the table of clashes grows as their
    /// square (2 MB at this bound).
    const MOST_OPTIONS: usize = 4096;
}

impl<'a> State<'a> {
    fn new(p: &'a CompiledProblem, budget: u64) -> State<'a> {
        let (m, n) = (p.n_options(), p.n_items());
        let mut len = vec![0u32; n];
        for &i in p.option_item() {
            len[i as usize] += 1;
        }
        let mut item_start = vec![0u32; n + 1];
        for i in 0..n {
            item_start[i + 1] = item_start[i] + len[i];
        }
        let mut fill: Vec<u32> = item_start[..n].to_vec();
        let mut by_item = vec![(0u32, 0u32); p.n_entries()];
        for o in 0..m {
            let start = p.option_start()[o] as usize;
            for (k, &i) in p.option(o).iter().enumerate() {
                by_item[fill[i as usize] as usize] = (o as u32, p.color_at(start + k));
                fill[i as usize] += 1;
            }
        }
        State {
            p,
            live: vec![true; m],
            gone: vec![false; n],
            len,
            item_start,
            by_item,
            mark: vec![0; m],
            seen: vec![0; n],
            count: vec![0; n],
            stamp: 0,
            work: p.n_entries() as u64,
            budget,
            infeasible: None,
            words: None,
        }
    }

    /// Do words cost less than entries for the second rule ([`Words`])? A
    /// round by entries looks at about sum(|options of i|^2 * option
    /// length) over the exclusive items; by words, the table (entries x
    /// w) and at most primary items x w for each option.
    fn words_pay(&self) -> bool {
        let p = self.p;
        let m = p.n_options();
        if m > Words::MOST_OPTIONS || m == 0 {
            return false;
        }
        let w = m.div_ceil(64) as u64;
        let per_option = p.n_entries() as u64 / m as u64 + 1;
        let entries: u64 = (0..p.n_items())
            .filter(|&i| self.exclusive(i))
            .map(|i| self.len[i] as u64 * self.len[i] as u64 * per_option)
            .sum();
        let words = p.n_entries() as u64 * w + m as u64 * p.n_primary() as u64 * w;
        words < entries
    }

    /// The words of the second rule for this round, from the live options
    /// and items (the first and third rules take items out, and with them
    /// clashes).
    fn words(&mut self) {
        let (m, n1) = (self.p.n_options(), self.p.n_primary());
        let w = m.div_ceil(64);
        let mut x = self.words.take().unwrap_or_else(|| Words {
            w,
            rows: Vec::new(),
            items: Vec::new(),
            live: Vec::new(),
        });
        x.rows.clear();
        x.rows.resize(m * w, 0);
        x.items.clear();
        x.items.resize(n1 * w, 0);
        x.live.clear();
        x.live.resize(w, 0);
        for o in (0..m).filter(|&o| self.live[o]) {
            x.live[o / 64] |= 1 << (o % 64);
        }
        let mut all = vec![0u64; w];
        let mut same = vec![0u64; w];
        let mut users: Vec<(u32, u32)> = Vec::new();
        for i in 0..self.p.n_items() {
            if self.gone[i] {
                continue;
            }
            users.clear();
            users.extend(
                self.options_of(i)
                    .iter()
                    .filter(|&&(o, _)| self.live[o as usize]),
            );
            self.work += users.len() as u64 * w as u64;
            if i < n1 && self.required(i) {
                let row = &mut x.items[i * w..(i + 1) * w];
                for &(o, _) in &users {
                    row[o as usize / 64] |= 1 << (o % 64);
                }
            }
            if !self.exclusive(i) {
                continue;
            }
            // Each user rules out every user but those of its own color
            // (all of them if it has none).
            all.fill(0);
            for &(o, _) in &users {
                all[o as usize / 64] |= 1 << (o % 64);
            }
            users.sort_unstable_by_key(|&(_, c)| c);
            for group in users.chunk_by(|a, b| a.1 == b.1) {
                same.fill(0);
                if group[0].1 != 0 {
                    for &(o, _) in group {
                        same[o as usize / 64] |= 1 << (o % 64);
                    }
                }
                for &(o, _) in group {
                    let row = &mut x.rows[o as usize * w..(o as usize + 1) * w];
                    for ((r, a), b) in row.iter_mut().zip(&all).zip(&same) {
                        *r |= a & !b;
                    }
                }
            }
        }
        self.words = Some(x);
    }

    /// The second rule for option `r` on words (see [`Words`]).
    fn blocks_by_words(&mut self, r: usize) -> bool {
        let stamp = self.next_stamp();
        let own: Vec<usize> = self.entries(r).map(|(i, _)| i).collect();
        for &i in &own {
            self.seen[i] = stamp;
        }
        let x = self.words.as_ref().expect("the round's words");
        let w = x.w;
        let row = &x.rows[r * w..(r + 1) * w];
        let mut looked = 0u64;
        let mut blocked = false;
        for p in 0..self.p.n_primary() {
            if self.gone[p] || !self.required(p) || self.seen[p] == stamp {
                continue;
            }
            let set = &x.items[p * w..(p + 1) * w];
            let mut open = false;
            for ((a, l), c) in set.iter().zip(&x.live).zip(row) {
                looked += 1;
                if a & l & !c != 0 {
                    open = true;
                    break;
                }
            }
            if !open {
                blocked = true;
                break;
            }
        }
        self.work += looked;
        blocked
    }

    /// May item `i` be covered at most once (so that two options holding
    /// it, not of one color, rule each other out)?
    fn exclusive(&self, i: usize) -> bool {
        i >= self.p.n_primary() || self.p.hi()[i] == 1
    }

    /// Must primary item `i` be covered?
    fn required(&self, i: usize) -> bool {
        i < self.p.n_primary() && self.p.lo()[i] >= 1
    }

    fn options_of(&self, i: usize) -> &[(u32, u32)] {
        &self.by_item[self.item_start[i] as usize..self.item_start[i + 1] as usize]
    }

    /// The live entries (item, color) of option `o`.
    fn entries(&self, o: usize) -> impl Iterator<Item = (usize, u32)> + '_ {
        let start = self.p.option_start()[o] as usize;
        self.p
            .option(o)
            .iter()
            .enumerate()
            .filter(|&(_, &i)| !self.gone[i as usize])
            .map(move |(k, &i)| (i as usize, self.p.color_at(start + k)))
    }

    fn next_stamp(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.fill(0);
            self.seen.fill(0);
            self.stamp = 1;
        }
        self.stamp
    }

    fn delete(&mut self, o: usize) {
        self.live[o] = false;
        if let Some(x) = &mut self.words {
            x.live[o / 64] &= !(1 << (o % 64));
        }
        let items: Vec<usize> = self.entries(o).map(|(i, _)| i).collect();
        self.work += items.len() as u64;
        for i in items {
            self.len[i] -= 1;
            if self.len[i] == 0 && self.required(i) && self.infeasible.is_none() {
                self.infeasible = Some(i as u32);
            }
        }
    }

    /// The first rule for primary item `p`: the items every live option of
    /// `p` holds without a color; each leaves. True if something changed.
    fn forced_by(&mut self, p: usize) -> bool {
        if self.gone[p] || self.len[p] == 0 || !(self.p.lo()[p] == 1 && self.p.hi()[p] == 1) {
            return false;
        }
        let stamp = self.next_stamp();
        let options: Vec<u32> = self
            .options_of(p)
            .iter()
            .map(|&(o, _)| o)
            .filter(|&o| self.live[o as usize])
            .collect();
        for &o in &options {
            let entries: Vec<(usize, u32)> = self.entries(o as usize).collect();
            self.work += entries.len() as u64;
            for (i, color) in entries {
                if i == p || color != 0 || !self.exclusive(i) {
                    continue;
                }
                if self.seen[i] != stamp {
                    self.seen[i] = stamp;
                    self.count[i] = 0;
                }
                self.count[i] += 1;
            }
        }
        // The items of the first option held by all of them.
        let first = options[0] as usize;
        let forced: Vec<usize> = self
            .entries(first)
            .map(|(i, _)| i)
            .filter(|&i| i != p && self.seen[i] == stamp && self.count[i] as usize == options.len())
            .collect();
        for &c in &forced {
            // Options of c: those with p keep it no longer; the others go.
            let with_c: Vec<u32> = self.options_of(c).iter().map(|&(o, _)| o).collect();
            for o in with_c {
                let o = o as usize;
                if !self.live[o] {
                    continue;
                }
                let holds_p = self.entries(o).any(|(i, _)| i == p);
                self.work += 1;
                if !holds_p {
                    self.delete(o);
                }
            }
            self.gone[c] = true;
            self.len[c] = 0;
        }
        !forced.is_empty()
    }

    /// The third rule for primary item `p`: true if its bounds `0:v` can
    /// never bind (then it leaves). The options of `p` are covered greedily
    /// by the items in them that cap how many of those options a solution
    /// holds (most options per unit of cap first); it binds nothing if the
    /// caps (and the options no item caps, one each) add up to at most `v`.
    fn binds_nothing(&mut self, p: usize) -> bool {
        let (lo, hi) = (self.p.lo()[p], self.p.hi()[p] as usize);
        if self.gone[p] || lo != 0 || self.len[p] == 0 {
            return false;
        }
        let mut left: Vec<u32> = self
            .options_of(p)
            .iter()
            .map(|&(o, _)| o)
            .filter(|&o| self.live[o as usize])
            .collect();
        self.work += left.len() as u64;
        // An option whose only primary item is p would be left with none.
        let n1 = self.p.n_primary();
        for &o in &left {
            self.work += self.p.option(o as usize).len() as u64;
            if !self.entries(o as usize).any(|(i, _)| i != p && i < n1) {
                return false;
            }
        }
        // An item caps the options of p that hold it: a primary item by its
        // upper bound, a secondary one (where it has no color) by 1.
        let capped = |i: usize, color: u32| i != p && (i < n1 || color == 0);
        let mut most = 0usize;
        while most + left.len() > hi {
            if self.work > self.budget {
                return false;
            }
            // The cap of each item over the options left: (options, cap).
            let stamp = self.next_stamp();
            let mut met: Vec<usize> = Vec::new();
            for &o in &left {
                let entries: Vec<(usize, u32)> = self.entries(o as usize).collect();
                self.work += entries.len() as u64;
                for (i, color) in entries {
                    if !capped(i, color) {
                        continue;
                    }
                    if self.seen[i] != stamp {
                        self.seen[i] = stamp;
                        self.count[i] = 0;
                        met.push(i);
                    }
                    self.count[i] += 1;
                }
            }
            let cap = |i: usize| -> u64 { if i < n1 { self.p.hi()[i] as u64 } else { 1 } };
            // The item of most options per unit of cap, if it caps more
            // than one option per unit.
            let best = met
                .iter()
                .copied()
                .filter(|&i| self.count[i] as u64 > cap(i))
                .max_by(|&a, &b| {
                    (self.count[a] as u64 * cap(b)).cmp(&(self.count[b] as u64 * cap(a)))
                });
            let Some(best) = best else {
                return false; // each option left counts one: more than v
            };
            most += cap(best) as usize;
            self.work += left.len() as u64;
            left.retain(|&o| {
                !self
                    .entries(o as usize)
                    .any(|(i, x)| i == best && capped(i, x))
            });
        }
        self.gone[p] = true;
        self.len[p] = 0;
        true
    }

    /// The second rule for option `r`: true if choosing it leaves some
    /// required primary item without options (then it is deleted).
    fn blocks(&mut self, r: usize) -> bool {
        let stamp = self.next_stamp();
        let own: Vec<(usize, u32)> = self.entries(r).collect();
        // The options r rules out, marked; the required primary items they
        // hold (not in r) are the candidates.
        for &(i, _) in &own {
            self.seen[i] = stamp;
        }
        let mut candidates = Vec::new();
        for &(i, x) in &own {
            if !self.exclusive(i) {
                continue;
            }
            let range = self.item_start[i] as usize..self.item_start[i + 1] as usize;
            self.work += range.len() as u64;
            for k in range {
                let (o, y) = self.by_item[k];
                let o = o as usize;
                if !self.live[o] || self.mark[o] == stamp || (x != 0 && y == x) {
                    continue;
                }
                self.mark[o] = stamp;
                let start = self.p.option_start()[o] as usize;
                let end = self.p.option_start()[o + 1] as usize;
                self.work += (end - start) as u64;
                for &j in &self.p.option_item()[start..end] {
                    let j = j as usize;
                    if self.seen[j] != stamp && !self.gone[j] && self.required(j) {
                        self.seen[j] = stamp;
                        candidates.push(j);
                    }
                }
            }
        }
        // A candidate with every live option marked is blocked.
        for p in candidates {
            let options = self.options_of(p);
            let open = options
                .iter()
                .position(|&(o, _)| self.live[o as usize] && self.mark[o as usize] != stamp);
            self.work += open.map_or(options.len(), |k| k + 1) as u64;
            if open.is_none() {
                return true;
            }
        }
        false
    }

    fn over(&self, stop: &AtomicBool) -> bool {
        self.work > self.budget || stop.load(Ordering::Relaxed)
    }
}

/// `p` reduced by the three rules (see the module's text) until nothing
/// changes, or until `budget` units of work are spent or `stop` is raised.
pub fn reduce(p: &CompiledProblem, budget: u64, stop: &AtomicBool) -> Reduced {
    reduce_by(p, budget, stop, None)
}

/// [`reduce`], its second rule on words or by entries as asked (None:
/// whichever costs less, [`State::words_pay`]).
fn reduce_by(
    p: &CompiledProblem,
    budget: u64,
    stop: &AtomicBool,
    by_words: Option<bool>,
) -> Reduced {
    let mut s = State::new(p, budget);
    let by_words = by_words.unwrap_or_else(|| s.words_pay());
    for i in 0..p.n_primary() {
        if s.len[i] == 0 && s.required(i) {
            s.infeasible = Some(i as u32);
            break;
        }
    }
    let mut rounds = 0;
    let mut complete = true;
    'rounds: while s.infeasible.is_none() {
        rounds += 1;
        let mut changed = false;
        for i in 0..p.n_primary() {
            if s.over(stop) {
                complete = false;
                break 'rounds;
            }
            changed |= s.forced_by(i);
            if s.infeasible.is_some() {
                break 'rounds;
            }
            changed |= s.binds_nothing(i);
        }
        if by_words {
            s.words();
        }
        for r in 0..p.n_options() {
            if !s.live[r] {
                continue;
            }
            if s.over(stop) {
                complete = false;
                break 'rounds;
            }
            let blocked = if by_words {
                s.blocks_by_words(r)
            } else {
                s.blocks(r)
            };
            if blocked {
                s.delete(r);
                changed = true;
                if s.infeasible.is_some() {
                    break 'rounds;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let work = s.work;
    if let Some(i) = s.infeasible {
        let problem = CompiledProblem::new(1, 0, vec![1], vec![1], vec![0], vec![], vec![])
            .expect("one primary item, no options");
        return Reduced {
            problem,
            options: Vec::new(),
            items: vec![i],
            rounds,
            complete: true,
            infeasible: Some(i),
            work,
        };
    }
    build(&s, rounds, complete, work)
}

/// The reduced problem from what is left in `s`.
fn build(s: &State<'_>, rounds: u32, complete: bool, work: u64) -> Reduced {
    let p = s.p;
    let n1 = p.n_primary();
    let kept_item = |i: usize| !s.gone[i] && s.len[i] > 0;
    let mut items: Vec<u32> = (0..p.n_items())
        .filter(|&i| kept_item(i))
        .map(|i| i as u32)
        .collect();
    let mut n_primary = items.iter().filter(|&&i| (i as usize) < n1).count();
    if n_primary == 0 {
        // No primary item is left (each may be left uncovered, and none
        // has an option): one of them stays, so that the problem is one.
        items.insert(0, 0);
        n_primary = 1;
    }
    let mut new_id = vec![u32::MAX; p.n_items()];
    for (k, &i) in items.iter().enumerate() {
        new_id[i as usize] = k as u32;
    }
    let lo = items[..n_primary]
        .iter()
        .map(|&i| p.lo()[i as usize])
        .collect();
    let hi = items[..n_primary]
        .iter()
        .map(|&i| p.hi()[i as usize])
        .collect();
    let mut options = Vec::new();
    let mut start = vec![0u32];
    let mut item = Vec::new();
    let mut color = Vec::new();
    for o in 0..p.n_options() {
        if !s.live[o] {
            continue;
        }
        options.push(o as u32);
        for (i, c) in s.entries(o) {
            item.push(new_id[i]);
            color.push(c);
        }
        start.push(item.len() as u32);
    }
    let problem = CompiledProblem::new(
        n_primary as u32,
        (items.len() - n_primary) as u32,
        lo,
        hi,
        start,
        item,
        color,
    )
    .expect("a reduction of a valid problem is valid");
    Reduced {
        problem,
        options,
        items,
        rounds,
        complete,
        infeasible: None,
        work,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::machine::{Limits, Step};
    use crate::search::front::Search;
    use std::sync::Arc;

    fn problem(
        n1: u32,
        n2: u32,
        lo: Vec<u32>,
        hi: Vec<u32>,
        options: &[&[(u32, u32)]],
    ) -> CompiledProblem {
        let mut start = vec![0u32];
        let (mut item, mut color) = (vec![], vec![]);
        for o in options {
            for &(i, c) in *o {
                item.push(i);
                color.push(c);
            }
            start.push(item.len() as u32);
        }
        CompiledProblem::new(n1, n2, lo, hi, start, item, color).unwrap()
    }

    /// Every solution, as sorted original option ids.
    fn solutions(p: &CompiledProblem, map: Option<&[u32]>) -> Vec<Vec<u32>> {
        let mut s = Search::new(Arc::new(p.clone()), None);
        let mut out = vec![];
        while s.run(Limits::NONE) == Step::Solution {
            let mut sol: Vec<u32> = s.solution();
            if let Some(map) = map {
                sol = sol.iter().map(|&o| map[o as usize]).collect();
            }
            sol.sort();
            out.push(sol);
        }
        out.sort();
        out
    }

    #[test]
    fn an_uncoverable_item_makes_the_problem_infeasible() {
        // A and B primary; the only option of B also holds A, and the only
        // other option of A blocks nothing: A B, A. Then C (primary) has
        // the option "A C" only, which clashes with "A B": infeasible.
        let p = problem(
            3,
            0,
            vec![1; 3],
            vec![1; 3],
            &[&[(0, 0), (1, 0)], &[(0, 0), (2, 0)]],
        );
        let r = reduce(&p, u64::MAX, &AtomicBool::new(false));
        assert!(r.infeasible.is_some());
        assert!(solutions(&p, None).is_empty());
    }

    #[test]
    fn colors_that_agree_do_not_clash() {
        // A, B primary; x secondary. "A x:1", "B x:1" go together; "B x:2"
        // clashes with "A x:1", the only option of A: deleted.
        let p = problem(
            2,
            1,
            vec![1; 2],
            vec![1; 2],
            &[&[(0, 0), (2, 1)], &[(1, 0), (2, 1)], &[(1, 0), (2, 2)]],
        );
        let r = reduce(&p, u64::MAX, &AtomicBool::new(false));
        assert_eq!(r.options, vec![0, 1]);
        assert_eq!(solutions(&r.problem, Some(&r.options)), solutions(&p, None));
    }

    #[test]
    fn items_of_larger_multiplicity_rule_nothing_out() {
        // A with bounds 2..2 and B: options "A B", "A", "A": the two "A"
        // together, or "A B" with one of them.
        let p = problem(
            2,
            0,
            vec![2, 1],
            vec![2, 1],
            &[&[(0, 0), (1, 0)], &[(0, 0)], &[(0, 0)]],
        );
        let r = reduce(&p, u64::MAX, &AtomicBool::new(false));
        assert_eq!(solutions(&r.problem, Some(&r.options)), solutions(&p, None));
    }

    #[test]
    fn words_and_entries_reduce_alike() {
        // Random problems with colors and multiplicities: the second rule
        // on words deletes what it deletes by entries.
        let mut rng = crate::core::rng::Rng::new(11);
        for case in 0..300 {
            let (n1, n2) = (2 + rng.below(6) as u32, rng.below(3) as u32);
            let lo: Vec<u32> = (0..n1).map(|_| rng.below(2) as u32).collect();
            let hi: Vec<u32> = lo
                .iter()
                .map(|&l| l.max(1) + (rng.below(4) == 0) as u32)
                .collect();
            let opts: Vec<Vec<(u32, u32)>> = (0..1 + rng.below(40))
                .map(|_| {
                    let mut o: Vec<(u32, u32)> = Vec::new();
                    for i in 0..n1 + n2 {
                        if rng.below(3) == 0 {
                            o.push((i, if i >= n1 { rng.below(3) as u32 } else { 0 }));
                        }
                    }
                    if o.iter().all(|&(i, _)| i >= n1) {
                        o.insert(0, (rng.below(n1 as u64) as u32, 0));
                    }
                    o
                })
                .collect();
            let refs: Vec<&[(u32, u32)]> = opts.iter().map(|o| o.as_slice()).collect();
            let p = problem(n1, n2, lo, hi, &refs);
            let stop = AtomicBool::new(false);
            let (a, b) = (
                reduce_by(&p, u64::MAX, &stop, Some(true)),
                reduce_by(&p, u64::MAX, &stop, Some(false)),
            );
            assert_eq!(
                (a.infeasible, &a.options, &a.items),
                (b.infeasible, &b.options, &b.items),
                "case {case}"
            );
            if a.infeasible.is_none() {
                assert_eq!(
                    solutions(&a.problem, Some(&a.options)),
                    solutions(&p, None),
                    "case {case}"
                );
            }
        }
    }

    #[test]
    fn a_spent_budget_leaves_a_sound_part() {
        let p = problem(
            3,
            0,
            vec![1; 3],
            vec![1; 3],
            &[&[(0, 0), (1, 0)], &[(2, 0)], &[(0, 0), (2, 0)], &[(1, 0)]],
        );
        for budget in 0..40 {
            let r = reduce(&p, budget, &AtomicBool::new(false));
            assert_eq!(
                solutions(&r.problem, Some(&r.options)),
                solutions(&p, None),
                "budget {budget}"
            );
        }
    }
}
