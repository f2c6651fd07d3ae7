//! Options that always go together, merged into one; options that no
//! solution holds, dropped. For set partitioning problems (every item
//! primary and covered once, no colors), by *probing*: an option is taken
//! and what follows is worked out by unit propagation (the options that
//! share an item with it are out; an item left with one option takes it;
//! an item left with none, or two options taken that share an item, is a
//! contradiction).
//!
//! - An option whose probe meets a contradiction is in no solution: it is
//!   dropped (DLX-PRE drops such options too, when the contradiction is
//!   one step away).
//! - Options `a` and `b` whose probes each take the other are in the same
//!   solutions: every solution holds both or neither. They become one
//!   option, with the items of both at the sum of their costs. This maps
//!   the solutions one to one, at the same costs, so the K cheapest (and
//!   every count) are unchanged, but the relaxation is tighter: it could
//!   take a fraction of `a` without the same of `b`. On our crew-like
//!   646 x 7,292 (`benchmarks/setpartition.py`), seven passes merge 1,741
//!   options (to 5,551) and raise the relaxation from 64,901 to about
//!   65,126 (the optimum 65,304): the search is proven in 18-23 s where it
//!   was not in 90 s. (HiGHS's presolve finds these too: its probing
//!   "deletes" 2,800 columns of that instance.) The airline instances of
//!   MIPLIB have few (air04: 4 in 8,904), and are left as they are.
//!
//! A probe costs the entries of the options it puts out, so a pass costs
//! about the sum over items of their options times those options' entries:
//! [`WORK`] bounds the passes, and a problem whose first pass would not fit
//! in it is left alone (nw04, 36 rows and 87,482 columns: 10^11). A first
//! pass is made only when probes of a sample find a merge, and kept only
//! when it merges at least one option in [`AGAIN`].
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use xc::{CompiledProblem, merge_together};
//! // Items 0..4; options {0 1} {2 3} {0 2} {1 3}, costs 1 2 3 4: {0 1}
//! // and {2 3} go together, and so do {0 2} and {1 3}.
//! let p = CompiledProblem::new(4, 0, vec![1; 4], vec![1; 4],
//!     vec![0, 2, 4, 6, 8], vec![0, 1, 2, 3, 0, 2, 1, 3], vec![]).unwrap();
//! let m = merge_together(&p, &[1, 2, 3, 4], &AtomicBool::new(false)).unwrap().unwrap();
//! assert_eq!((m.problem.n_options(), &m.costs[..]), (2, &[3, 7][..]));
//! assert_eq!(m.members(1), &[2, 3]);
//! ```

use std::sync::atomic::{AtomicBool, Ordering};

use crate::core::problem::{CompiledProblem, Incidence};
use crate::core::sliced::Poll;
use crate::cost::pricing::CostError;

/// The units of work (entries visited) all the passes may take: about
/// two seconds when it was set, about one since the probes keep each
/// item's state in one word.
const WORK: u64 = 800_000_000;
/// Another pass while the last merged at least one option in this many:
/// crew-like 646 x 7,292 merged 1,193, 332, 121, 55, 26, 9, 5 and 2 options
/// in its passes, from 7,292 options to 5,549, its relaxation raised from
/// 64,901 to 65,082 after two passes and 65,126 after five (the optimum
/// 65,304); proven in 46 s after three passes, in 21 s after eight.
const AGAIN: usize = 1000;

/// A problem with options merged and dropped: the problem, its costs, and
/// for each of its options the given problem's options it stands for.
#[derive(Clone, Debug)]
pub struct Merged {
    pub problem: CompiledProblem,
    pub costs: Vec<u64>,
    start: Vec<u32>,
    ids: Vec<u32>,
}

impl Merged {
    /// The given problem's options that option `o` stands for, increasing.
    pub fn members(&self, o: usize) -> &[u32] {
        &self.ids[self.start[o] as usize..self.start[o + 1] as usize]
    }
}

/// The problem with the options that always go together merged and those
/// in no solution dropped (see the module's documentation); None when the
/// problem is not a set partitioning problem, when nothing changes, or
/// when a pass would cost more than [`WORK`]. `stop` ends the work early
/// ([`CostError::Stopped`]). [`Merging`] does the same in steps.
pub fn merge_together(
    problem: &CompiledProblem,
    costs: &[u64],
    stop: &AtomicBool,
) -> Result<Option<Merged>, CostError> {
    let Some(mut merging) = Merging::new(problem, costs, stop)? else {
        return Ok(None);
    };
    loop {
        if stop.load(Ordering::Relaxed) {
            return Err(CostError::Stopped);
        }
        if let Poll::Ready(merged) = merging.step(1 << 20) {
            return Ok(merged);
        }
    }
}

/// [`merge_together`] in steps of bounded work, so that it can run beside
/// a search (see `mincost/portfolio.rs`): each step visits about as many
/// entries as it is given, and the outcome does not depend on how the
/// steps fall.
pub struct Merging {
    now: Merged,
    /// Whether a pass has changed the problem, and the work of the passes
    /// begun (bounded by [`WORK`]).
    changed: bool,
    work: u64,
    pass: Pass,
}

/// A pass under way: the probes made so far (see [`end_pass`]).
struct Pass {
    probe: Probe,
    /// What each probe took (None: a contradiction).
    took: Vec<Option<Vec<u32>>>,
}

impl Merging {
    /// The merging of `problem`'s options to come, or None when it is not
    /// worth beginning: not a set partitioning problem, a first pass past
    /// [`WORK`], or probes of a sample that find nothing to merge (most
    /// problems stop here, before any copy). `stop` ends the sample.
    pub fn new(
        problem: &CompiledProblem,
        costs: &[u64],
        stop: &AtomicBool,
    ) -> Result<Option<Merging>, CostError> {
        if problem.n_secondary() != 0 || problem.has_multiplicities() || problem.has_colors() {
            return Ok(None);
        }
        let work = pass_cost(problem);
        if work > WORK || !promising(problem, stop)? {
            return Ok(None);
        }
        let now = Merged {
            problem: problem.clone(),
            costs: costs.to_vec(),
            start: (0..=problem.n_options() as u32).collect(),
            ids: (0..problem.n_options() as u32).collect(),
        };
        let pass = Pass::new(&now.problem);
        Ok(Some(Merging {
            now,
            changed: false,
            work,
            pass,
        }))
    }

    /// Probes until about `most` more entries are visited: Ready with the
    /// outcome ([`merge_together`]'s) once the last pass is over.
    pub fn step(&mut self, most: u64) -> Poll<Option<Merged>> {
        let p = &self.now.problem;
        let pass = &mut self.pass;
        let until = pass.probe.work.saturating_add(most.max(1));
        while pass.took.len() < p.n_options() {
            if pass.probe.work >= until {
                return Poll::Pending;
            }
            let o = pass.took.len() as u32;
            let took = pass.probe.run(p, o);
            pass.took.push(took);
        }
        let took = std::mem::take(&mut pass.took);
        let Some((next, merges)) = end_pass(&self.now, took) else {
            return Poll::Ready(self.changed.then(|| self.now.clone()));
        };
        let n = self.now.problem.n_options();
        // (Merges too few to be worth changing the problem for: the
        // options in no solution, alone, are left to the searches, which
        // find most of them themselves. Dropping them cost a column order
        // of air05 16.5 s to the proof instead of 25.3 s.)
        if !self.changed && merges * AGAIN < n {
            return Poll::Ready(None);
        }
        self.now = next;
        self.changed = true;
        // (Each merge makes more: another pass while they are not few.)
        let pass = pass_cost(&self.now.problem);
        if merges * AGAIN < n || self.work.saturating_add(pass) > WORK {
            return Poll::Ready(Some(self.now.clone()));
        }
        self.work += pass;
        self.pass = Pass::new(&self.now.problem);
        Poll::Pending
    }
}

impl Pass {
    fn new(p: &CompiledProblem) -> Pass {
        Pass {
            probe: Probe::new(p),
            took: Vec::with_capacity(p.n_options()),
        }
    }
}

/// Options at most probed for [`promising`], and the work its probes may
/// take, in units of the problem's entries: about what reading it costs.
const SAMPLE: usize = 512;
const SAMPLE_WORK: u64 = 16;

/// Whether a first pass looks worth its work: the probes of options
/// spread over the problem (at most [`SAMPLE`], within [`SAMPLE_WORK`]),
/// and of the options each takes, find two that take each other. (A pass
/// over air04, 823 x 8,904, takes about 0.2 s, for 4 merges; on
/// pentominoes with costs, 72 x 2,056, 512 probes took 10 ms, a tenth of
/// the search for the cheapest.)
fn promising(p: &CompiledProblem, stop: &AtomicBool) -> Result<bool, CostError> {
    let n = p.n_options();
    let most = SAMPLE_WORK.saturating_mul(p.n_entries() as u64);
    let mut probe = Probe::new(p);
    for o in (0..n as u32).step_by((n / SAMPLE).max(1)) {
        if stop.load(Ordering::Relaxed) {
            return Err(CostError::Stopped);
        }
        if probe.work > most {
            break;
        }
        let Some(took) = probe.run(p, o) else {
            continue;
        };
        for k in took {
            if probe.run(p, k).is_some_and(|back| back.contains(&o)) {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// The work of a pass's first steps: for each option, the entries of the
/// options that share an item with it (each item's options, times their
/// entries, summed over the items).
fn pass_cost(p: &CompiledProblem) -> u64 {
    let (mut size, mut entries) = (vec![0u64; p.n_items()], vec![0u64; p.n_items()]);
    for o in 0..p.n_options() {
        let option = p.option(o);
        for &i in option {
            size[i as usize] += 1;
            entries[i as usize] += option.len() as u64;
        }
    }
    size.iter()
        .zip(&entries)
        .map(|(&s, &e)| s.saturating_mul(e))
        .fold(0, u64::saturating_add)
}

/// The end of a pass, with what each option's probe took (None: a
/// contradiction): the merged problem and the merges made, or None when
/// nothing changed.
fn end_pass(now: &Merged, took: Vec<Option<Vec<u32>>>) -> Option<(Merged, usize)> {
    let p = &now.problem;
    let (n, m) = (p.n_options(), p.n_items());
    // Options that take each other, joined (a union-find).
    let mut parent: Vec<u32> = (0..n as u32).collect();
    fn root(parent: &mut [u32], mut x: u32) -> u32 {
        while parent[x as usize] != x {
            parent[x as usize] = parent[parent[x as usize] as usize];
            x = parent[x as usize];
        }
        x
    }
    let mut merges = 0;
    for a in 0..n {
        let Some(list) = &took[a] else { continue };
        for &b in list {
            let back = took[b as usize]
                .as_ref()
                .is_some_and(|l| l.contains(&(a as u32)));
            if back {
                let (ra, rb) = (root(&mut parent, a as u32), root(&mut parent, b));
                if ra != rb {
                    parent[ra.max(rb) as usize] = ra.min(rb);
                    merges += 1;
                }
            }
        }
    }
    if merges == 0 && took.iter().all(Option::is_some) {
        return None;
    }
    // Each group at its first option's place; the dropped options gone.
    let mut groups: Vec<Vec<u32>> = vec![Vec::new(); n];
    for o in 0..n as u32 {
        if took[o as usize].is_some() {
            groups[root(&mut parent, o) as usize].push(o);
        }
    }
    let (mut start, mut item) = (vec![0u32], Vec::new());
    let (mut costs, mut id_start, mut ids) = (Vec::new(), vec![0u32], Vec::new());
    for group in groups.iter().filter(|g| !g.is_empty()) {
        let mut cost = 0u64;
        let mut members = Vec::new();
        for &o in group {
            item.extend_from_slice(p.option(o as usize));
            // (A sum past 2^64 - 1 is the engine's to refuse, whole.)
            cost = cost.checked_add(now.costs[o as usize])?;
            members.extend_from_slice(now.members(o as usize));
        }
        members.sort_unstable();
        start.push(item.len() as u32);
        costs.push(cost);
        ids.extend(members);
        id_start.push(ids.len() as u32);
    }
    // (Options that take each other share no item, by the probes: a
    // problem refused here is left as it is rather than trusted.)
    let Ok(problem) = CompiledProblem::set_partition(m as u32, start, item) else {
        return None;
    };
    let merged = Merged {
        problem,
        costs,
        start: id_start,
        ids,
    };
    Some((merged, merges))
}

/// The state of one probe, undone after it: items covered, options out,
/// and the options left to each item (kept by stamps, so that a probe
/// costs what it touches).
struct Probe {
    /// The options of each item, and how many.
    inc: Incidence,
    degree: Vec<u32>,
    stamp: u32,
    /// Each item's state in this probe, one word, since every visit of an
    /// entry reads it: the probe's stamp above, the options it has left
    /// below, or [`COVERED`] and less once it is covered (a word of an
    /// older stamp: not yet touched). (One word rather than three arrays
    /// took the merging of crew-like 200 x 3,001 from 0.43 s to 0.25 s,
    /// and of 646 x 7,292 from 0.83 s to 0.47 s.)
    item: Vec<u64>,
    out: Vec<u32>,
    taken: Vec<u32>,
    queue: Vec<u32>,
    single: Vec<u32>,
    /// Entries visited by the probes so far.
    work: u64,
}

/// The options left to a covered item, in [`Probe::item`]: counted down
/// as its options are put out, it stays far above 1, since no item has a
/// billion options where a pass fits in [`WORK`].
const COVERED: u64 = 1 << 31;

impl Probe {
    fn new(p: &CompiledProblem) -> Probe {
        let inc = Incidence::new(p);
        let degree = (0..p.n_items()).map(|i| inc.of(i).len() as u32).collect();
        Probe {
            inc,
            degree,
            stamp: 0,
            item: vec![0; p.n_items()],
            out: vec![0; p.n_options()],
            taken: Vec::new(),
            queue: Vec::new(),
            single: Vec::new(),
            work: 0,
        }
    }

    /// Whether item `i` is covered in this probe.
    fn covered(&self, i: u32) -> bool {
        let w = self.item[i as usize];
        w >> 32 == self.stamp as u64 && (w & 0xffff_ffff) > COVERED / 2
    }

    /// Option `o` taken, and what follows: the other options taken, or
    /// None on a contradiction.
    fn run(&mut self, p: &CompiledProblem, o: u32) -> Option<Vec<u32>> {
        self.stamp += 1;
        self.taken.clear();
        self.queue.clear();
        self.single.clear();
        if !self.take(p, o) {
            return None;
        }
        loop {
            if let Some(q) = self.queue.pop() {
                if !self.put_out_around(p, q) {
                    return None;
                }
                continue;
            }
            let Some(i) = self.single.pop() else { break };
            if self.covered(i) {
                continue;
            }
            // (Its one option still in: the first not out.)
            let &k = self
                .inc
                .of(i as usize)
                .iter()
                .find(|&&k| self.out[k as usize] != self.stamp)?;
            if !self.take(p, k) {
                return None;
            }
        }
        Some(self.taken[1..].to_vec())
    }

    /// Option `k` taken: false if one of its items is covered already.
    fn take(&mut self, p: &CompiledProblem, k: u32) -> bool {
        for &i in p.option(k as usize) {
            if self.covered(i) {
                return false;
            }
            self.item[i as usize] = (self.stamp as u64) << 32 | COVERED;
        }
        self.out[k as usize] = self.stamp;
        self.taken.push(k);
        self.queue.push(k);
        true
    }

    /// The options that share an item with `q` (taken) put out; false if
    /// an item is left with none.
    fn put_out_around(&mut self, p: &CompiledProblem, q: u32) -> bool {
        let Probe {
            inc,
            degree,
            stamp,
            item,
            out,
            single,
            work,
            ..
        } = self;
        let stamp = *stamp;
        let high = (stamp as u64) << 32;
        for &i in p.option(q as usize) {
            for &k in inc.of(i as usize) {
                if out[k as usize] == stamp {
                    continue;
                }
                out[k as usize] = stamp;
                let option = p.option(k as usize);
                *work += option.len() as u64;
                for &s in option {
                    let s = s as usize;
                    let mut w = item[s];
                    if w >> 32 != stamp as u64 {
                        w = high | degree[s] as u64;
                    }
                    // (A covered item counts down from COVERED, harmlessly.)
                    w -= 1;
                    item[s] = w;
                    match w & 0xffff_ffff {
                        0 => return false,
                        1 => single.push(s as u32),
                        _ => {}
                    }
                }
            }
        }
        true
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::core::rng::Rng;
    use crate::cost::testing;

    /// Every solution (options increasing), by every subset of options.
    fn solutions(p: &CompiledProblem) -> Vec<Vec<u32>> {
        let n = p.n_options();
        let mut out = Vec::new();
        for mask in 0u32..1 << n {
            let chosen: Vec<u32> = (0..n as u32).filter(|&o| mask >> o & 1 == 1).collect();
            if p.is_solution(&chosen) {
                out.push(chosen);
            }
        }
        out.sort();
        out
    }

    /// A random set partitioning problem built to have options that go
    /// together: segments of a line of items, each split in two.
    pub(crate) fn random_partition(rng: &mut Rng) -> (CompiledProblem, Vec<u64>) {
        let m = 3 + rng.below(6) as u32;
        let mut options: Vec<Vec<u32>> = Vec::new();
        while options.len() < 4 + rng.below(11) as usize {
            let mut at = 0;
            while at < m {
                let size = (1 + rng.below(4) as u32).min(m - at);
                let mut seg: Vec<u32> = (at..at + size).collect();
                for t in (1..seg.len()).rev() {
                    seg.swap(t, rng.below(t as u64 + 1) as usize);
                }
                let half = if size > 1 && rng.below(2) == 0 {
                    size / 2
                } else {
                    size
                } as usize;
                options.push(seg[..half].to_vec());
                if half < seg.len() {
                    options.push(seg[half..].to_vec());
                }
                at += size;
            }
        }
        // And a few at random, in no solution at times.
        options.truncate(11);
        for _ in 0..rng.below(4) {
            let mut o = testing::subset(rng, m);
            if o.is_empty() {
                o.push(rng.below(m as u64) as u32);
            }
            options.push(o);
        }
        testing::priced(rng, m, &options, 20).expect("a problem")
    }

    #[test]
    fn the_solutions_are_the_same_one_to_one() {
        let mut rng = Rng::new(3);
        let never = AtomicBool::new(false);
        let (mut merged, mut dropped) = (0, 0);
        for case in 0..3000 {
            let (p, costs) = random_partition(&mut rng);
            let want = solutions(&p);
            let Some(m) = merge_together(&p, &costs, &never).unwrap() else {
                continue;
            };
            let members: usize = (0..m.problem.n_options()).map(|o| m.members(o).len()).sum();
            merged += members - m.problem.n_options();
            dropped += p.n_options() - members;
            // Each solution of the merged problem, by the given options.
            let mut got: Vec<Vec<u32>> = solutions(&m.problem)
                .iter()
                .map(|s| {
                    let mut given: Vec<u32> = s
                        .iter()
                        .flat_map(|&o| m.members(o as usize).to_vec())
                        .collect();
                    given.sort_unstable();
                    given
                })
                .collect();
            got.sort();
            assert_eq!(got, want, "case {case}: {p:?}");
            for o in 0..m.problem.n_options() {
                let cost: u64 = m.members(o).iter().map(|&g| costs[g as usize]).sum();
                assert_eq!(m.costs[o], cost);
                let mut items: Vec<u32> = m
                    .members(o)
                    .iter()
                    .flat_map(|&g| p.option(g as usize).to_vec())
                    .collect();
                let mut mine = m.problem.option(o).to_vec();
                items.sort_unstable();
                mine.sort_unstable();
                assert_eq!(items, mine);
            }
        }
        assert!(
            merged > 500 && dropped > 500,
            "merged {merged}, dropped {dropped}"
        );
    }

    #[test]
    fn other_problems_are_left_alone() {
        let never = AtomicBool::new(false);
        // A secondary item; multiplicities.
        let p = CompiledProblem::new(
            2,
            1,
            vec![1; 2],
            vec![1; 2],
            vec![0, 2, 3],
            vec![0, 2, 1],
            vec![],
        )
        .unwrap();
        assert!(merge_together(&p, &[1, 1], &never).unwrap().is_none());
        let p = CompiledProblem::new(
            2,
            0,
            vec![1, 2],
            vec![1, 2],
            vec![0, 2, 3],
            vec![0, 1, 1],
            vec![],
        )
        .unwrap();
        assert!(merge_together(&p, &[1, 1], &never).unwrap().is_none());
    }

    #[test]
    fn a_raised_stop_flag_stops_it() {
        let p = CompiledProblem::new(
            2,
            0,
            vec![1; 2],
            vec![1; 2],
            vec![0, 1, 2],
            vec![0, 1],
            vec![],
        )
        .unwrap();
        let stop = AtomicBool::new(true);
        assert_eq!(
            merge_together(&p, &[1, 1], &stop).err(),
            Some(CostError::Stopped)
        );
    }
}
