//! The frontier count in any order of the primary items (the input's, the
//! chosen one, random ones) against brute force, on random problems with
//! secondary items, colors and multiplicities, and against the search on
//! boards whose cells are numbered out of order.
mod common;

use common::*;
use xc::{CompiledProblem, Frontier, Poll, Rng, Slice, Sliced, choose_order, field_widths};

fn shuffled(rng: &mut Rng, n: u32) -> Vec<u32> {
    let mut v: Vec<u32> = (0..n).collect();
    for k in (1..v.len()).rev() {
        v.swap(k, rng.below(k as u64 + 1) as usize);
    }
    v
}

fn frontier_count(p: &CompiledProblem, order: &[u32]) -> u128 {
    let one = Frontier::with_order(p, order, 1, u64::MAX).unwrap().count();
    // Three threads, dense tables or not, tiny slices: the same count.
    for dense in [u64::MAX, 0] {
        let mut f = Frontier::with_order(p, order, 3, dense).unwrap();
        let many = loop {
            if let Poll::Ready(n) = f.run(Slice::work(7)) {
                break n;
            }
        };
        assert_eq!(
            many, one,
            "{p:?} in {order:?}, dense tables up to {dense} bytes"
        );
    }
    one.to_u128().unwrap()
}

#[test]
fn every_order_counts_the_same() {
    let mut rng = Rng::new(38);
    for k in 0..3000 {
        let shape = Shape {
            primary: 6,
            secondary: 3,
            options: 12,
            density: 35,
            colors: k % 2 == 0,
            multiplicities: k % 3 == 0,
        };
        let p = random_problem(&mut rng, &shape);
        let expected = brute_force(&p).len() as u128;
        let n1 = p.n_primary() as u32;
        assert_eq!(
            frontier_count(&p, &(0..n1).collect::<Vec<_>>()),
            expected,
            "{p:?}"
        );
        let chosen = choose_order(&p, &field_widths(&p).unwrap(), 1 << 20);
        assert_eq!(
            frontier_count(&p, &chosen.order),
            expected,
            "{p:?} in {chosen:?}"
        );
        let random = shuffled(&mut rng, n1);
        assert_eq!(frontier_count(&p, &random), expected, "{p:?} in {random:?}");
    }
}

/// Domino tilings of an m x n board, cells numbered by a random permutation
/// and options listed in a random order.
fn scrambled_dominoes(rng: &mut Rng, m: u32, n: u32) -> CompiledProblem {
    let cell = shuffled(rng, m * n);
    let mut options = Vec::new();
    for r in 0..m {
        for c in 0..n {
            if c + 1 < n {
                options.push(vec![
                    cell[(r * n + c) as usize],
                    cell[(r * n + c + 1) as usize],
                ]);
            }
            if r + 1 < m {
                options.push(vec![
                    cell[(r * n + c) as usize],
                    cell[(r * n + n + c) as usize],
                ]);
            }
        }
    }
    let order = shuffled(rng, options.len() as u32);
    let options: Vec<Vec<u32>> = order.iter().map(|&o| options[o as usize].clone()).collect();
    exact(m * n, &options)
}

#[test]
fn scrambled_boards_get_a_narrow_order() {
    let mut rng = Rng::new(5);
    for (m, n) in [(4, 5), (6, 6), (3, 9), (5, 8)] {
        let p = scrambled_dominoes(&mut rng, m, n);
        let chosen = choose_order(&p, &field_widths(&p).unwrap(), 1 << 22);
        assert!(
            chosen.width <= 2 * m.min(n) as u64 + 1,
            "{m}x{n}: {chosen:?}"
        );
        assert_eq!(
            frontier_count(&p, &chosen.order),
            count(p.clone()) as u128,
            "{m}x{n}"
        );
    }
}

#[test]
fn a_shuffled_twelve_by_twelve_board_counts_at_once() {
    // 53,060,477,521,960,000 tilings (Kasteleyn), whatever the numbering.
    let p = scrambled_dominoes(&mut Rng::new(12), 12, 12);
    let chosen = choose_order(&p, &field_widths(&p).unwrap(), 1 << 24);
    assert!(chosen.width <= 16, "{chosen:?}");
    assert_eq!(frontier_count(&p, &chosen.order), 53_060_477_521_960_000);
}

#[test]
fn a_slice_ends_near_the_work_it_was_given() {
    // A round takes only the states a slice has room for, priced by the
    // round before: the 15x15 L-tromino board on sparse tables (steps of
    // tens of thousands of states) in slices of 10,000 transitions, each
    // ending within a few rounds of its end (states differ in their sets of
    // options), where a round of 65,536 states ran to the end of the step.
    // The mems grow with the work.
    let p = l_tromino(15, None);
    let order: Vec<u32> = (0..p.n_primary() as u32).collect();
    let whole = Frontier::with_order(&p, &order, 1, u64::MAX)
        .unwrap()
        .count();
    let mut f = Frontier::with_order(&p, &order, 1, 0).unwrap();
    let (mut slices, mut last) = (0, f.progress());
    let count = loop {
        let done = f.run(Slice::work(10_000));
        let now = f.progress();
        assert!(now.work - last.work <= 30_000, "{last:?} then {now:?}");
        assert!(now.mems > last.mems || now.work == last.work);
        (slices, last) = (slices + 1, now);
        if let Poll::Ready(n) = done {
            break n;
        }
    };
    assert_eq!(count, whole);
    assert!(
        last.peak_states > 20_000 && slices > 100,
        "{slices} slices, {last:?}"
    );
}
