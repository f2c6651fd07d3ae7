//! Orders of the primary items for a count at the frontier.
//!
//! The frontier count ([`crate::Frontier`]) settles the primary items one
//! by one, deciding at each the options whose first primary item (in the
//! order) it is. Its states between two steps are the ways the *live* items
//! are covered: the items touched by an option already decided and by an
//! option still to decide. So the order is everything: a board numbered row
//! by row keeps about a row live, the same board with its cells shuffled
//! keeps half the board live, and the states grow as 2 to the number of live
//! bits.
//!
//! [`profile`] predicts what an order costs, from the problem alone: at each
//! step `t`, the bits of the fields live across the step before it (`b_t`)
//! and the options decided at it (`g_t`), so that the transitions are at
//! most `sum_t 2^b_t (1 + g_t)`. [`choose_until`] tries the input order and the
//! well-known orders for narrow bands (Cuthill-McKee and its reverse, on the
//! graph of items that share an option, and a greedy order that settles
//! next the live item that leaves the frontier narrowest, from a few starts)
//! and keeps the one whose prediction is cheapest. Items that no option
//! joins fall apart into components, each swept whole before the next: the
//! frontier between two of them is empty, so components multiply at no cost.
//!
//! ```
//! use xc::{choose_order, order_profile, CompiledProblem};
//! // A path of items 0 - 3 - 1 - 2 (each option joins two neighbours),
//! // numbered out of order: the chosen order walks the path, two items
//! // live at a time, where the numbers' order holds three.
//! let p = CompiledProblem::new(4, 0, vec![1; 4], vec![1; 4],
//!     vec![0, 2, 4, 6], vec![0, 3, 3, 1, 1, 2], vec![]).unwrap();
//! let o = choose_order(&p, &[1; 4], 1 << 20);
//! assert_eq!((o.width, order_profile(&p, &[1; 4], &[0, 1, 2, 3]).0), (2, 3));
//! ```

use std::sync::atomic::{AtomicBool, Ordering};

use crate::core::problem::{CompiledProblem, Incidence, ranks};
use crate::core::rng::Rng;

/// A primary-item order and what it predicts.
#[derive(Clone, Debug, PartialEq)]
pub struct ItemOrder {
    /// The primary items, in the order they are settled.
    pub order: Vec<u32>,
    /// Bits of the widest set of fields in use during a step (a state's key).
    pub width: u64,
    /// log2 of the predicted transitions (see the module's text).
    pub cost: f64,
    /// How it was found: "input", "cuthill-mckee", "reverse cuthill-mckee",
    /// "greedy", "spectral".
    pub name: &'static str,
    /// Was it weighed by running a frontier (on a problem with
    /// multiplicities, see [`crate::choose_order_until`]), not by the bound alone?
    pub tried: bool,
}

/// log2(2^a + 2^b), without overflow.
fn log_add(a: f64, b: f64) -> f64 {
    let (hi, lo) = if a > b { (a, b) } else { (b, a) };
    if lo == f64::NEG_INFINITY {
        return hi;
    }
    hi + (1.0 + (lo - hi).exp2()).log2()
}

/// The step of each option: the place in `order` of its first primary item.
/// `rank[p]` is primary item `p`'s place.
pub(crate) fn option_steps(p: &CompiledProblem, rank: &[u32]) -> Vec<u32> {
    let n1 = p.n_primary();
    (0..p.n_options())
        .map(|o| {
            p.option(o)
                .iter()
                .filter(|&&i| (i as usize) < n1)
                .map(|&i| rank[i as usize])
                .min()
                .expect("every option has a primary item")
        })
        .collect()
}

/// Each item's life in the steps of an order: the first step whose options
/// touch it, and the step after which no option left touches it (a primary
/// item's own step). `None` for an item no option touches (and that needs
/// no field: a secondary item; a primary one lives at its own step).
pub(crate) fn lives(p: &CompiledProblem, rank: &[u32], step: &[u32]) -> Vec<Option<(u32, u32)>> {
    let n1 = p.n_primary();
    let mut life: Vec<Option<(u32, u32)>> = (0..p.n_items())
        .map(|i| (i < n1).then(|| (rank[i], rank[i])))
        .collect();
    for (o, &t) in step.iter().enumerate() {
        for &i in p.option(o) {
            let l = &mut life[i as usize];
            *l = Some(match *l {
                None => (t, t),
                Some((a, b)) if (i as usize) < n1 => (a.min(t), b),
                Some((a, b)) => (a.min(t), b.max(t)),
            });
        }
    }
    life
}

/// The width (bits in use during the widest step) and the predicted cost
/// (log2 of the transitions) of settling the primary items in `order`,
/// each item's field `widths[i]` bits wide.
pub fn profile(p: &CompiledProblem, widths: &[u32], order: &[u32]) -> (u64, f64) {
    let n1 = p.n_primary();
    let rank = ranks(order, n1);
    let step = option_steps(p, &rank);
    let life = lives(p, &rank, &step);
    // Bits live during step t (`during`) and across the boundary before it
    // (`across`: alive before t and after), by differences.
    let mut during = vec![0i64; n1 + 1];
    let mut across = vec![0i64; n1 + 1];
    for (i, l) in life.iter().enumerate() {
        if let Some((a, b)) = *l {
            let w = widths[i] as i64;
            during[a as usize] += w;
            during[b as usize + 1] -= w;
            if b > a {
                across[a as usize + 1] += w;
                across[b as usize + 1] -= w;
            }
        }
    }
    let mut group = vec![0u64; n1];
    for &t in &step {
        group[t as usize] += 1;
    }
    let (mut d, mut c, mut width, mut cost) = (0i64, 0i64, 0u64, f64::NEG_INFINITY);
    for t in 0..n1 {
        d += during[t];
        c += across[t];
        width = width.max(d as u64);
        cost = log_add(cost, c as f64 + ((1 + group[t]) as f64).log2());
    }
    (width, cost)
}

/// Cuthill-McKee from `start`: a breadth-first walk of the primary items
/// (two are neighbours when an option has both), each item's new neighbours
/// taken fewest options first; every component in turn. Also returns the
/// last item reached in the start's component (a far one). None soon
/// after `stop` is raised (a walk over a million options takes 0.15 s).
fn cuthill_mckee(
    p: &CompiledProblem,
    inc: &Incidence,
    start: usize,
    stop: &AtomicBool,
) -> Option<(Vec<u32>, usize)> {
    let n1 = p.n_primary();
    let degree = |i: usize| inc.of(i).len();
    let mut seen = vec![false; n1];
    let mut option_seen = vec![false; p.n_options()];
    let mut order = Vec::with_capacity(n1);
    let mut by_degree: Vec<u32> = (0..n1 as u32).collect();
    by_degree.sort_by_key(|&i| (degree(i as usize), i));
    let mut next_root = by_degree.iter();
    let mut root = start;
    let mut far = start;
    loop {
        seen[root] = true;
        let mut head = order.len();
        order.push(root as u32);
        while head < order.len() {
            if head % 256 == 0 && stop.load(Ordering::Relaxed) {
                return None;
            }
            let u = order[head] as usize;
            head += 1;
            let from = order.len();
            for &o in inc.of(u) {
                if std::mem::replace(&mut option_seen[o as usize], true) {
                    continue;
                }
                for &i in p.option(o as usize) {
                    if (i as usize) < n1 && !seen[i as usize] {
                        seen[i as usize] = true;
                        order.push(i);
                    }
                }
            }
            order[from..].sort_by_key(|&i| (degree(i as usize), i));
        }
        if root == start {
            far = *order.last().unwrap() as usize;
        }
        match next_root.find(|&&i| !seen[i as usize]) {
            Some(&i) => root = i as usize,
            None => return Some((order, far)),
        }
    }
}

/// The greedy order: from `start`, settle next the live primary item whose
/// options, decided now, leave the fewest live bits (ties: the item live
/// longest, which sweeps like a breadth-first walk); when nothing is live,
/// the next item of `fallback`. None when it would take more than `budget`
/// entries read, or when `stop` is raised.
fn greedy(
    p: &CompiledProblem,
    inc: &Incidence,
    widths: &[u32],
    start: usize,
    fallback: &[u32],
    mut budget: u64,
    stop: &AtomicBool,
) -> Option<Vec<u32>> {
    let n1 = p.n_primary();
    let mut remaining: Vec<u32> = (0..p.n_items()).map(|i| inc.of(i).len() as u32).collect();
    // When each item became live (u32::MAX: not yet).
    let mut since = vec![u32::MAX; p.n_items()];
    let mut decided = vec![false; p.n_options()];
    let mut settled = vec![false; n1];
    let mut live: Vec<u32> = Vec::new(); // unsettled live primary items
    let mut hit = vec![0u32; p.n_items()];
    let mut touched: Vec<u32> = Vec::new();
    let mut order = Vec::with_capacity(n1);
    let mut fallback = fallback.iter();
    let mut clock = 0u32;
    let mut next = Some(start);
    while order.len() < n1 {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let p_next = match next.take() {
            Some(i) => i,
            None => {
                // The live primary item whose step leaves the fewest live bits.
                let mut best: Option<(i64, u32, usize)> = None;
                for (k, &c) in live.iter().enumerate() {
                    // (Here too: on a random problem of a million options
                    // every item is live after the first step, and one step
                    // read 20 million entries, 0.6 s.)
                    if stop.load(Ordering::Relaxed) {
                        return None;
                    }
                    let c = c as usize;
                    touched.clear();
                    for &o in inc.of(c) {
                        if decided[o as usize] {
                            continue;
                        }
                        let items = p.option(o as usize);
                        budget = budget.checked_sub(items.len() as u64 + 1)?;
                        for &i in items {
                            if hit[i as usize] == 0 {
                                touched.push(i);
                            }
                            hit[i as usize] += 1;
                        }
                    }
                    let mut delta = 0i64;
                    for &i in &touched {
                        let i = i as usize;
                        let left = remaining[i] - hit[i];
                        let w = widths[i] as i64;
                        if since[i] == u32::MAX && left > 0 && i != c {
                            delta += w;
                        } else if since[i] != u32::MAX && (left == 0 || i == c) {
                            delta -= w;
                        }
                        hit[i] = 0;
                    }
                    if !touched.contains(&(c as u32)) && since[c] != u32::MAX {
                        delta -= widths[c] as i64; // settled with no option left
                    }
                    let key = (delta, since[c], k);
                    if best.is_none_or(|b| key < b) {
                        best = Some(key);
                    }
                }
                match best {
                    Some((_, _, k)) => live.swap_remove(k) as usize,
                    None => *fallback.find(|&&i| !settled[i as usize])? as usize,
                }
            }
        };
        if let Some(k) = live.iter().position(|&i| i as usize == p_next) {
            live.swap_remove(k);
        }
        settled[p_next] = true;
        order.push(p_next as u32);
        clock += 1;
        for &o in inc.of(p_next) {
            if std::mem::replace(&mut decided[o as usize], true) {
                continue;
            }
            for &i in p.option(o as usize) {
                let i = i as usize;
                remaining[i] -= 1;
                if since[i] == u32::MAX {
                    since[i] = clock;
                    if i < n1 && !settled[i] {
                        live.push(i as u32);
                    }
                }
            }
        }
    }
    Some(order)
}

/// The cheapest order found (see the module's text) for fields of
/// `widths` bits, the greedy orders reading at most about `budget`
/// entries; given up (None) soon after `stop` is raised: between its
/// passes over the problem, each of a few entry reads per entry, and at
/// each step of a greedy order.
pub fn choose_until(
    p: &CompiledProblem,
    widths: &[u32],
    budget: u64,
    stop: &AtomicBool,
) -> Option<ItemOrder> {
    Some(cheapest(
        p,
        widths,
        candidates_until(p, widths, budget, stop)?,
    ))
}

/// The order of `candidates` that [`profile`] predicts cheapest (ties: the
/// narrower, then the first).
pub(crate) fn cheapest(
    p: &CompiledProblem,
    widths: &[u32],
    candidates: Vec<(Vec<u32>, &'static str)>,
) -> ItemOrder {
    let mut best: Option<ItemOrder> = None;
    for (order, name) in candidates {
        let (width, cost) = profile(p, widths, &order);
        if best
            .as_ref()
            .is_none_or(|b| (cost, width) < (b.cost - 1e-9, b.width))
        {
            best = Some(ItemOrder {
                order,
                width,
                cost,
                name,
                tried: false,
            });
        }
    }
    best.expect("the input order is always a candidate")
}

/// The orders [`choose_until`] weighs, each with how it was found: the
/// input order, Cuthill-McKee and its reverse, and greedy orders from a
/// few starts (see the module's text); None when `stop` was raised.
pub(crate) fn candidates_until(
    p: &CompiledProblem,
    widths: &[u32],
    budget: u64,
    stop: &AtomicBool,
) -> Option<Vec<(Vec<u32>, &'static str)>> {
    let stopped = || stop.load(Ordering::Relaxed);
    let n1 = p.n_primary();
    let inc = Incidence::new(p);
    let mut out = vec![((0..n1 as u32).collect(), "input")];
    if stopped() {
        return None;
    }
    // A far item: the end of a walk from the item with the fewest options,
    // then of a walk from there (a pseudo-peripheral item).
    let least = (0..n1).min_by_key(|&i| (inc.of(i).len(), i)).unwrap_or(0);
    let (_, far) = cuthill_mckee(p, &inc, least, stop)?;
    let (cm, far2) = cuthill_mckee(p, &inc, far, stop)?;
    let rcm: Vec<u32> = cm.iter().rev().copied().collect();
    let starts = [far, far2, least];
    out.push((rcm, "reverse cuthill-mckee"));
    if stopped() {
        return None;
    }
    out.push((cm.clone(), "cuthill-mckee"));
    let mut rng = Rng::new(0x9e37_79b9);
    let share = budget / 5;
    let mut tried = Vec::new();
    for k in 0..5 {
        if stopped() {
            return None;
        }
        let start = match starts.get(k) {
            Some(&s) => s,
            None => rng.below(n1 as u64) as usize,
        };
        if tried.contains(&start) {
            continue;
        }
        tried.push(start);
        if let Some(order) = greedy(p, &inc, widths, start, &cm, share, stop) {
            out.push((order, "greedy"));
        }
    }
    if stopped() {
        return None;
    }
    Some(out)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn choose(p: &CompiledProblem, widths: &[u32], budget: u64) -> ItemOrder {
        choose_until(p, widths, budget, &AtomicBool::new(false)).unwrap()
    }

    /// The m x n grid's dominoes, cells numbered by `cell(r, c)` among
    /// `items` items.
    pub(crate) fn dominoes(
        m: u32,
        n: u32,
        items: u32,
        cell: impl Fn(u32, u32) -> u32,
    ) -> CompiledProblem {
        let (mut start, mut entries) = (vec![0u32], vec![]);
        for r in 0..m {
            for c in 0..n {
                if c + 1 < n {
                    entries.extend([cell(r, c), cell(r, c + 1)]);
                    start.push(entries.len() as u32);
                }
                if r + 1 < m {
                    entries.extend([cell(r, c), cell(r + 1, c)]);
                    start.push(entries.len() as u32);
                }
            }
        }
        let n = items as usize;
        CompiledProblem::new(items, 0, vec![1; n], vec![1; n], start, entries, vec![]).unwrap()
    }

    #[test]
    fn a_board_row_by_row_keeps_a_row_live() {
        let p = dominoes(8, 8, 64, |r, c| 8 * r + c);
        let (width, _) = profile(&p, &[1; 64], &(0..64).collect::<Vec<_>>());
        assert_eq!(width, 9); // a row, and the cell settled
    }

    #[test]
    fn a_shuffled_board_gets_a_narrow_order_back() {
        // Cells numbered by a scramble of 0..100.
        let perm: Vec<u32> = (0..100).map(|k| (k * 37 + 11) % 100).collect();
        let p = dominoes(10, 10, 100, |r, c| perm[(10 * r + c) as usize]);
        let input = profile(&p, &[1; 100], &(0..100).collect::<Vec<_>>());
        let o = choose(&p, &[1; 100], 1 << 24);
        assert!(input.0 > 40, "the scramble is wide: {input:?}");
        assert!(o.width <= 12, "{o:?}");
        let mut sorted = o.order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..100).collect::<Vec<_>>());
    }

    #[test]
    fn components_are_swept_one_after_another() {
        // Two 4 x 4 boards, the cells of both interleaved in the numbering.
        let a = dominoes(4, 4, 32, |r, c| 2 * (4 * r + c));
        let b = dominoes(4, 4, 32, |r, c| 2 * (4 * r + c) + 1);
        let mut start = a.option_start().to_vec();
        let shift = a.option_item().len() as u32;
        start.extend(b.option_start()[1..].iter().map(|&s| s + shift));
        let mut items = a.option_item().to_vec();
        items.extend_from_slice(b.option_item());
        let p =
            CompiledProblem::new(32, 0, vec![1; 32], vec![1; 32], start, items, vec![]).unwrap();
        let o = choose(&p, &[1; 32], 1 << 24);
        assert!(o.width <= 6, "{o:?}");
    }
}
