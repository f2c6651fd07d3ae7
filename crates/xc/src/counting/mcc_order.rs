//! Orders of the primary items for a frontier count of a problem with
//! multiplicities: some items taken a number of times (a piece used at
//! most twice), the rest exactly once (a board's cells).
//!
//! [`crate::counting::order`] weighs an order by a bound, `2^b` states at a step of
//! `b` live bits. With counted items the bound says little: on REDRECT-DLX
//! 3 8 and on copies of polyiamonds in a rhombus its best order took 5 to
//! 100 times the transitions of another it rated a bit or two worse, and it
//! settled a piece's item mid-board, deciding at that one step every
//! placement of the piece still open (POLYIAMOND-DLX, 0-1 of each
//! hexiamond and 0-2 of each tetriamond on a 6x4 rhombus: 184M transitions;
//! the same board swept row by row, the piece items last: 31M). So here
//! the two parts are ordered apart:
//!
//! * the exact items, on the problem left when the counted items are taken
//!   out of every option (the *relaxed* problem, whose frontier holds one
//!   bit an item and is far smaller): the candidates are [`crate::counting::order`]'s
//!   on both problems and the *spectral* order (the items by their Fiedler
//!   value, the eigenvector of the second least eigenvalue of the graph of
//!   items that share an option, which sweeps a board along its long side),
//!   and each is weighed by running the relaxed problem's frontier itself,
//!   within a budget of its mems, the fewest winning;
//! * each counted item then goes right after the step that decides the last
//!   of its options (its *natural* place): it decides none itself, and its
//!   field is freed as soon as nothing can change it.
//!
//! Problems whose primary items are all counted, or none, take
//! [`crate::counting::order::choose_until`]'s order.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::core::problem::CompiledProblem;
use crate::core::sliced::{Poll, Slice, Sliced};
use crate::counting::frontier::Frontier;
use crate::counting::order::{
    ItemOrder, candidates_until, cheapest, choose_until as choose_by_bound, profile,
};

/// The relaxed problem's frontier's mems (its own count of memory
/// accesses, 2-7 ns each) that all the trials may take together (some
/// tens of milliseconds), and the transitions of one slice, after which
/// `stop` and the mems are looked at.
const TRIAL_MEMS: u64 = 1 << 24;
const TRIAL_SLICE: u64 = 1 << 12;
/// No trial is run where the bound of [`crate::counting::order`] puts the relaxed
/// problem's frontier past 2^this transitions in every candidate order (it
/// runs 4-10 bits high on boards of pieces: 2^20.6 to 2^29.0 there, where
/// the trials took 8K to 1.8M; MOTLEY-DLX 6 7, whose options are any
/// rectangle of the board, 2^36.7, and a trial past 67M).
const TRIAL_HOPELESS: f64 = 32.0;
/// Dense tables of a trial at most this big (bytes); sparse ones past it.
const TRIAL_DENSE: u64 = 1 << 24;
/// Rounds of the power iteration that finds the Fiedler vector, at most.
const SPECTRAL_ROUNDS: u64 = 600;

/// The order for a frontier count of `p` (see the module's text), its
/// fields `widths` bits wide; the greedy orders read at most about
/// `budget` entries.
pub fn choose(p: &CompiledProblem, widths: &[u32], budget: u64) -> ItemOrder {
    choose_until(p, widths, budget, &AtomicBool::new(false)).expect("never stopped")
}

/// [`choose`], given up (None) soon after `stop` is raised.
pub fn choose_until(
    p: &CompiledProblem,
    widths: &[u32],
    budget: u64,
    stop: &AtomicBool,
) -> Option<ItemOrder> {
    let n1 = p.n_primary();
    let exact: Vec<bool> = (0..n1).map(|i| p.lo()[i] == 1 && p.hi()[i] == 1).collect();
    let n_exact = exact.iter().filter(|&&e| e).count();
    if n_exact == 0 || n_exact == n1 {
        return choose_by_bound(p, widths, budget, stop);
    }
    let Some((relaxed, ids, local)) = relaxed(p, &exact) else {
        return choose_by_bound(p, widths, budget, stop);
    };
    let ones = vec![1u32; relaxed.n_primary()];
    let whole = candidates_until(p, widths, budget / 2, stop)?;
    let mut candidates: Vec<(Vec<u32>, &'static str)> = Vec::new();
    for (order, name) in &whole {
        let mine: Vec<u32> = order
            .iter()
            .map(|&i| local[i as usize])
            .filter(|&k| k != u32::MAX)
            .collect();
        candidates.push((mine, *name));
    }
    candidates.extend(candidates_until(&relaxed, &ones, budget / 2, stop)?);
    candidates.sort();
    candidates.dedup_by(|a, b| a.0 == b.0);
    // The likeliest first, so that the bar is low early: the spectral
    // order (the best on most boards measured), then by the bound.
    let mut costed: Vec<(f64, (Vec<u32>, &'static str))> = candidates
        .into_iter()
        .map(|c| (profile(&relaxed, &ones, &c.0).1, c))
        .collect();
    costed.sort_by(|a, b| a.0.total_cmp(&b.0));
    if costed.first().is_none_or(|c| c.0 > TRIAL_HOPELESS) {
        return Some(cheapest(p, widths, whole));
    }
    let mut candidates: Vec<(Vec<u32>, &'static str)> = costed.into_iter().map(|c| c.1).collect();
    for long in [true, false] {
        let sweep = spectral(&relaxed, long, budget / 2, stop)?;
        candidates.retain(|c| c.0 != sweep);
        candidates.insert(0, (sweep, "spectral"));
    }
    let mut left = TRIAL_MEMS;
    let mut best: Option<(u64, usize)> = None;
    for (k, (order, _)) in candidates.iter().enumerate() {
        // Each trial lays the problem out anew: no more of them than the
        // budget reads entries.
        if (k as u64 + 1) * relaxed.n_entries() as u64 > budget {
            break;
        }
        let most = best.map_or(left, |(w, _)| w.min(left));
        let (mems, done) = trial(&relaxed, order, most, stop)?;
        left = left.saturating_sub(mems);
        if done && best.is_none_or(|(w, _)| mems < w) {
            best = Some((mems, k));
        }
        if left == 0 {
            break;
        }
    }
    let Some((_, k)) = best else {
        return Some(cheapest(p, widths, whole));
    };
    let (cells, name) = &candidates[k];
    let cells: Vec<u32> = cells.iter().map(|&k| ids[k as usize]).collect();
    let order = natural(p, &cells, &exact);
    let (width, cost) = profile(p, widths, &order);
    Some(ItemOrder {
        order,
        width,
        cost,
        name,
        tried: true,
    })
}

/// The problem of `p`'s exact items alone (`exact[i]`): every option
/// without its other items, those left with none dropped; the item of `p`
/// that each of its items is, and the other way (`u32::MAX` for an item of
/// `p` it does not have). None if it cannot be built.
fn relaxed(p: &CompiledProblem, exact: &[bool]) -> Option<(CompiledProblem, Vec<u32>, Vec<u32>)> {
    let ids: Vec<u32> = (0..exact.len() as u32)
        .filter(|&i| exact[i as usize])
        .collect();
    let mut local = vec![u32::MAX; p.n_items()];
    for (k, &i) in ids.iter().enumerate() {
        local[i as usize] = k as u32;
    }
    let (mut start, mut items) = (vec![0u32], Vec::new());
    for o in 0..p.n_options() {
        let before = items.len();
        items.extend(
            p.option(o)
                .iter()
                .map(|&i| local[i as usize])
                .filter(|&k| k != u32::MAX),
        );
        if items.len() > before {
            start.push(items.len() as u32);
        }
    }
    let n = ids.len();
    let relaxed = CompiledProblem::new(n as u32, 0, vec![1; n], vec![1; n], start, items, vec![]);
    relaxed.ok().map(|r| (r, ids, local))
}

/// A frontier count of `p` in `order`, given up past `most` mems: the
/// mems it took, and whether it ended; None if `stop` was raised.
fn trial(p: &CompiledProblem, order: &[u32], most: u64, stop: &AtomicBool) -> Option<(u64, bool)> {
    let Ok(mut frontier) = Frontier::with_order(p, order, 1, TRIAL_DENSE) else {
        return Some((0, false));
    };
    loop {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let mems = frontier.progress().mems;
        if mems >= most {
            return Some((mems, false));
        }
        if let Poll::Ready(_) = frontier.run(Slice::work(TRIAL_SLICE)) {
            return Some((frontier.progress().mems, true));
        }
    }
}

/// The items of `p` (all primary) by their Fiedler value, component by
/// component: the vector of the second least eigenvalue of the Laplacian of
/// the graph where two items are joined once for each option they share
/// (with `long`, an option of `k` items joins each pair with weight
/// `1 / (k - 1)^2`, so that long options do not outweigh the rest: on
/// REDRECT-DLX, whose options are rows of a rectangle, the plain graph
/// sweeps the board across, the weighted one along it, 30 times fewer
/// transitions), found by power iteration on `c I - L` from the distances
/// to a far item (a smooth start), at most [`SPECTRAL_ROUNDS`] rounds and
/// about `budget` entries read. None when `stop` was raised.
fn spectral(p: &CompiledProblem, long: bool, budget: u64, stop: &AtomicBool) -> Option<Vec<u32>> {
    let n = p.n_primary();
    let m = p.n_options();
    let entries = p.n_entries().max(1) as u64;
    // Each item's options, each option's weight, and each item's degree.
    let mut of: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut weight = vec![1f64; m];
    let mut degree = vec![0f64; n];
    for (o, w) in weight.iter_mut().enumerate() {
        let items = p.option(o);
        let k = (items.len() - 1) as f64;
        if long && k > 0.0 {
            *w = 1.0 / (k * k);
        }
        for &i in items {
            of[i as usize].push(o as u32);
            degree[i as usize] += *w * k;
        }
    }
    // Components, and in each the distance from a far item: the last one
    // reached by a walk from its first item. `mark[i]` is the last walk
    // that reached i (1 + its number), so no walk clears anything.
    let mut mark = vec![0u32; n];
    let mut walks = 0u32;
    let mut walk = |from: usize, dist: &mut Vec<u32>| -> Vec<usize> {
        walks += 1;
        let mut queue = vec![from];
        mark[from] = walks;
        dist[from] = 0;
        let mut head = 0;
        while head < queue.len() {
            let i = queue[head];
            head += 1;
            for &o in &of[i] {
                for &j in p.option(o as usize) {
                    let j = j as usize;
                    if mark[j] != walks {
                        mark[j] = walks;
                        dist[j] = dist[i] + 1;
                        queue.push(j);
                    }
                }
            }
        }
        queue
    };
    let mut component = vec![u32::MAX; n];
    let mut dist = vec![0u32; n];
    let mut n_components = 0u32;
    for i in 0..n {
        if component[i] != u32::MAX {
            continue;
        }
        let far = *walk(i, &mut dist).last().expect("the walk's start");
        for j in walk(far, &mut dist) {
            component[j] = n_components;
        }
        n_components += 1;
        if stop.load(Ordering::Relaxed) {
            return None;
        }
    }
    let c = 2.0 * degree.iter().copied().fold(0.0, f64::max) + 1.0;
    let mut x: Vec<f64> = dist.iter().map(|&d| d as f64).collect();
    let mut sums = vec![0f64; m];
    let mut y = vec![0f64; n];
    let rounds = SPECTRAL_ROUNDS.min(budget / entries).max(1);
    let k = n_components as usize;
    let (mut mean, mut size, mut norm) = (vec![0f64; k], vec![0f64; k], vec![0f64; k]);
    for i in 0..n {
        size[component[i] as usize] += 1.0;
    }
    for round in 0..rounds {
        // Centre and scale each component (its constant vector is the
        // eigenvector of eigenvalue 0), then y = (c I - L) x.
        mean.iter_mut().for_each(|v| *v = 0.0);
        norm.iter_mut().for_each(|v| *v = 0.0);
        for i in 0..n {
            mean[component[i] as usize] += x[i];
        }
        for i in 0..n {
            let g = component[i] as usize;
            x[i] -= mean[g] / size[g];
            norm[g] += x[i] * x[i];
        }
        for i in 0..n {
            let s = norm[component[i] as usize].sqrt();
            if s > 0.0 {
                x[i] /= s;
            }
        }
        if round + 1 == rounds {
            break;
        }
        for (o, s) in sums.iter_mut().enumerate() {
            *s = p.option(o).iter().map(|&i| x[i as usize]).sum();
        }
        for i in 0..n {
            // (L x)_i: for each option o of i, its weight times |o| - 1
            // times x_i, less the others.
            let lx: f64 = degree[i] * x[i]
                - of[i]
                    .iter()
                    .map(|&o| weight[o as usize] * (sums[o as usize] - x[i]))
                    .sum::<f64>();
            y[i] = c * x[i] - lx;
        }
        std::mem::swap(&mut x, &mut y);
        if round % 16 == 0 && stop.load(Ordering::Relaxed) {
            return None;
        }
    }
    let mut order: Vec<u32> = (0..n as u32).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (a as usize, b as usize);
        component[a]
            .cmp(&component[b])
            .then(x[a].total_cmp(&x[b]))
            .then(a.cmp(&b))
    });
    Some(order)
}

/// `p`'s primary items: the exact ones (`exact[i]`) in the order `cells`,
/// each counted item right after the step of `cells` that decides the last
/// of its options that has an exact item (first of all if none has one).
fn natural(p: &CompiledProblem, cells: &[u32], exact: &[bool]) -> Vec<u32> {
    let n1 = p.n_primary();
    let mut rank = vec![u32::MAX; n1];
    for (k, &i) in cells.iter().enumerate() {
        rank[i as usize] = k as u32;
    }
    // after[c]: 1 + the step deciding c's last option (0: before them all).
    let mut after = vec![0u32; n1];
    for o in 0..p.n_options() {
        let items = p.option(o);
        let first = items
            .iter()
            .filter(|&&i| (i as usize) < n1 && exact[i as usize])
            .map(|&i| rank[i as usize])
            .min();
        if let Some(t) = first {
            for &i in items {
                if (i as usize) < n1 && !exact[i as usize] {
                    after[i as usize] = after[i as usize].max(t + 1);
                }
            }
        }
    }
    let mut counted: Vec<u32> = (0..n1 as u32).filter(|&i| !exact[i as usize]).collect();
    counted.sort_by_key(|&i| (after[i as usize], i));
    let mut order = Vec::with_capacity(n1);
    let mut next = counted.iter().peekable();
    for t in 0..=cells.len() {
        while let Some(&&c) = next.peek() {
            if after[c as usize] as usize != t {
                break;
            }
            order.push(c);
            next.next();
        }
        if let Some(&i) = cells.get(t) {
            order.push(i);
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Dominoes on an m x n board, row by row, each also taking the
    /// counted item "horizontal" (0..=h times) or "vertical" (any number):
    /// the cells are items 2.. in a scrambled numbering.
    fn counted_dominoes(m: u32, n: u32, h: u32) -> CompiledProblem {
        let cells = m * n;
        let cell = |r: u32, c: u32| 2 + (r * n + c) * 7 % cells;
        let (mut start, mut entries) = (vec![0u32], vec![]);
        for r in 0..m {
            for c in 0..n {
                if c + 1 < n {
                    entries.extend([cell(r, c), cell(r, c + 1), 0]);
                    start.push(entries.len() as u32);
                }
                if r + 1 < m {
                    entries.extend([cell(r, c), cell(r + 1, c), 1]);
                    start.push(entries.len() as u32);
                }
            }
        }
        let k = cells as usize + 2;
        let mut lo = vec![1; k];
        let mut hi = vec![1; k];
        (lo[0], hi[0], lo[1], hi[1]) = (0, h, 0, cells);
        CompiledProblem::new(k as u32, 0, lo, hi, start, entries, vec![]).unwrap()
    }

    #[test]
    fn counted_items_go_where_their_last_option_is_decided() {
        let p = counted_dominoes(4, 6, 5);
        let o = choose_until(
            &p,
            &crate::counting::frontier::field_widths(&p).unwrap(),
            1 << 22,
            &AtomicBool::new(false),
        )
        .unwrap();
        let mut sorted = o.order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..p.n_primary() as u32).collect::<Vec<_>>());
        // Every option of a counted item is decided at or before its step.
        let rank = crate::core::problem::ranks(&o.order, p.n_primary());
        for opt in 0..p.n_options() {
            let items = p.option(opt);
            let first_cell = items
                .iter()
                .filter(|&&i| i >= 2)
                .map(|&i| rank[i as usize])
                .min();
            for &c in items.iter().filter(|&&i| i < 2) {
                assert!(first_cell.unwrap() < rank[c as usize], "{o:?}");
            }
        }
        // The board is swept narrow (a row and a cell, and the two counts),
        // in an order a trial weighed, which counts what the search counts.
        assert!(o.tried && o.width <= 6 + 1 + 3 + 5, "{o:?}");
        let by_search =
            crate::search::front::Search::new(std::sync::Arc::new(p.clone()), None).count_all();
        let mut f = Frontier::with_order(&p, &o.order, 1, u64::MAX).unwrap();
        assert_eq!(f.count().to_u128(), Some(by_search as u128));
    }

    #[test]
    fn the_spectral_order_sweeps_a_long_board_along_its_length() {
        // A 3 x 12 board of dominoes, cells numbered column by column.
        let (m, n) = (3u32, 12u32);
        let p = crate::counting::order::tests::dominoes(m, n, m * n, |r, c| c * m + r);
        let order = spectral(&p, false, 1 << 24, &AtomicBool::new(false)).unwrap();
        let (width, _) = profile(&p, &[1; 36], &order);
        assert!(width <= 2 * m as u64 + 1, "{order:?}: {width}");
    }
}
