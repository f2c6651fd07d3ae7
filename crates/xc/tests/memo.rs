//! Memo counting against plain counting: random problems with secondary
//! items and colors, known problems, memos too small to hold anything (so
//! that every entry is evicted), and counts taken in slices.
mod common;

use common::*;
use xc::{
    Branching, CompiledProblem, MemoCount, MemoError, MemoPool, Number, Poll, Rng, Slice, Sliced,
};

fn memo(p: &CompiledProblem, branching: Branching, budget: usize) -> Number {
    MemoCount::new(p, branching, budget).unwrap().count()
}

/// The memo count of `p` in every way (both rules, a large and a tiny memo,
/// parts counted apart or not, one node at a time), each checked against `expected`.
fn check(p: &CompiledProblem, expected: u64) {
    for branching in [Branching::Mrv, Branching::First] {
        for budget in [1 << 24, 0] {
            assert_eq!(
                memo(p, branching, budget),
                Number::Small(expected as u128),
                "{branching:?} with {budget} bytes on {p:?}"
            );
            let mut whole = MemoCount::new(p, branching, budget).unwrap();
            whole.set_split(false);
            assert_eq!(
                whole.count(),
                Number::Small(expected as u128),
                "without parts: {p:?}"
            );
            assert_eq!(whole.splits(), 0);
        }
        let mut m = MemoCount::new(p, branching, 1 << 20).unwrap();
        let got = loop {
            if let Poll::Ready(n) = m.run(Slice::work(1)) {
                break n;
            }
        };
        assert_eq!(got, Number::Small(expected as u128), "in slices: {p:?}");
    }
}

#[test]
fn random_problems_with_secondary_items_and_colors() {
    let mut rng = Rng::new(11);
    for k in 0..3000 {
        let shape = Shape {
            primary: 8,
            secondary: 4,
            options: 40,
            density: 25,
            colors: k % 2 == 0,
            multiplicities: false,
        };
        let p = random_problem(&mut rng, &shape);
        let expected = count(p.clone());
        check(&p, expected);
    }
}

#[test]
fn known_problems() {
    for (p, expected) in [
        (l_tromino(6, None), l_tromino_count(6, None)),
        (l_tromino(7, Some(0)), l_tromino_count(7, Some(0))),
        (l_tromino(7, Some(9)), l_tromino_count(7, Some(9))),
        (l_tromino(5, Some(1)), l_tromino_count(5, Some(1))),
        (queens(8), 92),
    ] {
        assert_eq!(count(p.clone()), expected);
        check(&p, expected);
    }
}

#[test]
fn the_memo_saves_nodes_and_eviction_costs_only_time() {
    let p = l_tromino(9, None);
    let mut big = MemoCount::new(&p, Branching::Mrv, 1 << 26).unwrap();
    let mut small = MemoCount::new(&p, Branching::Mrv, 1 << 14).unwrap();
    assert_eq!(big.count(), Number::Small(1_193_600));
    assert_eq!(small.count(), Number::Small(1_193_600));
    let (b, s) = (big.stats(), small.stats());
    assert!(b.hits > 0 && b.evictions == 0, "{b:?}");
    // Each sub-problem found again took at least its own node to count.
    assert!(b.saved >= b.hits, "{b:?}");
    assert!(s.evictions > 0 && s.nodes > b.nodes, "{s:?}");
    assert!(s.bytes <= 1 << 14, "{s:?}");
}

#[test]
fn multiplicities_are_refused() {
    let p = problem(1, 0, &[(1, 2)], &[vec![(0, 0)], vec![(0, 0)]]);
    assert_eq!(
        MemoCount::new(&p, Branching::Mrv, 1 << 20).err(),
        Some(MemoError::Multiplicities)
    );
}

/// The solutions held by a diagram, read off it path by path (sorted).
fn zdd_solutions(nodes: &[xc::ZddNode], root: u32) -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    let mut pending = vec![(root, Vec::new())];
    while let Some((mut v, mut path)) = pending.pop() {
        while v > 1 {
            let node = nodes[v as usize - 2];
            assert!(
                node.lo < v && node.hi < v,
                "children come before their node"
            );
            assert_ne!(node.hi, 0, "no node leads to no solution");
            if node.lo != 0 {
                pending.push((node.lo, path.clone()));
            }
            path.push(node.option);
            v = node.hi;
        }
        if v == 1 {
            path.sort_unstable();
            out.push(path);
        }
    }
    out.sort();
    out
}

#[test]
fn diagrams_hold_every_solution_once() {
    let mut rng = Rng::new(12);
    for k in 0..1500 {
        let shape = Shape {
            primary: 6,
            secondary: 3,
            options: 14,
            density: 25,
            colors: k % 2 == 0,
            multiplicities: false,
        };
        let p = random_problem(&mut rng, &shape);
        let expected = brute_force(&p);
        for branching in [Branching::Mrv, Branching::First] {
            // A tiny memo too: an evicted sub-problem is built again, as new nodes.
            for budget in [1 << 20, 0] {
                let mut z = xc::MemoZdd::new(&p, branching, budget).unwrap();
                let root = z.count();
                assert_eq!(
                    zdd_solutions(z.nodes(), root),
                    expected,
                    "{branching:?} {budget} on {p:?}"
                );
            }
        }
    }
}

#[test]
fn a_diagram_shares_what_the_memo_shares() {
    // 1,193,600 tilings in a few thousand nodes.
    let mut z = xc::MemoZdd::new(&l_tromino(9, None), Branching::First, 1 << 26).unwrap();
    let root = z.count() as usize;
    let nodes = z.nodes();
    assert!(nodes.len() < 100_000, "{} nodes", nodes.len());
    let mut counts = vec![0u64, 1];
    for n in nodes {
        counts.push(counts[n.lo as usize] + counts[n.hi as usize]);
    }
    assert_eq!(counts[root], 1_193_600);
}

/// `copies` copies of a random problem side by side (items renumbered, the
/// secondary items after all the primary ones), and `joins` random options
/// that take items of two copies (so that parts appear only as the search
/// goes, when the joining options die).
fn blocks(rng: &mut Rng, shape: &Shape, copies: u32, joins: usize) -> CompiledProblem {
    let one = random_problem(rng, shape);
    let (n1, n2) = (one.n_primary() as u32, one.n_secondary() as u32);
    let item = |copy: u32, i: u32| {
        if i < n1 {
            copy * n1 + i
        } else {
            copies * n1 + copy * n2 + (i - n1)
        }
    };
    let mut options = Vec::new();
    for copy in 0..copies {
        for o in 0..one.n_options() {
            let start = one.option_start()[o] as usize;
            options.push(
                one.option(o)
                    .iter()
                    .enumerate()
                    .map(|(j, &i)| (item(copy, i), one.color_at(start + j)))
                    .collect::<Vec<_>>(),
            );
        }
    }
    for _ in 0..joins {
        let a = rng.below(copies as u64) as u32;
        let b = rng.below(copies as u64) as u32;
        let mut o = vec![(item(a, rng.below(n1 as u64) as u32), 0)];
        let j = item(b, rng.below(n1 as u64) as u32);
        if j != o[0].0 {
            o.push((j, 0));
        }
        options.push(o);
    }
    let bounds = vec![(1, 1); (copies * n1) as usize];
    problem(copies * n1, copies * n2, &bounds, &options)
}

#[test]
fn parts_no_option_joins_are_counted_apart_and_multiplied() {
    let mut rng = Rng::new(29);
    let mut split = 0;
    for k in 0..600 {
        let shape = Shape {
            primary: 5,
            secondary: 2,
            options: 12,
            density: 35,
            colors: k % 2 == 0,
            multiplicities: false,
        };
        let p = blocks(&mut rng, &shape, 2 + (k % 3) as u32, (k % 4) as usize);
        let expected = count(p.clone());
        check(&p, expected);
        let mut m = MemoCount::new(&p, Branching::Mrv, 1 << 20).unwrap();
        m.count();
        split += (m.splits() > 0) as u32;
    }
    assert!(split > 300, "only {split} of 600 problems split");
}

#[test]
fn products_past_128_bits_are_exact() {
    // 60 copies of a problem with 5 solutions (the set partitions of three
    // items): 5^60 is about 2^139. Expected by repeated addition; the
    // frontier adds up the same count without multiplying.
    let one: Vec<Vec<u32>> = vec![
        vec![0],
        vec![1],
        vec![2],
        vec![0, 1],
        vec![1, 2],
        vec![0, 2],
        vec![0, 1, 2],
    ];
    let copies = 60;
    let mut options = Vec::new();
    for c in 0..copies {
        for o in &one {
            options.push(o.iter().map(|&i| 3 * c + i).collect());
        }
    }
    let p = exact(3 * copies, &options);
    assert_eq!(count(exact(3, &one)), 5);
    let mut m = MemoCount::new(&p, Branching::Mrv, 1 << 20).unwrap();
    let got = m.count();
    assert_eq!(m.splits(), 1);
    let mut expected = Number::Small(1);
    for _ in 0..copies {
        let mut five = Number::ZERO;
        for _ in 0..5 {
            five.add(&expected);
        }
        expected = five;
    }
    assert_eq!(got, expected);
    assert_eq!(xc::Frontier::new(&p).unwrap().count(), expected);
}

/// With colors and more options than pairs of an item and a color, the key
/// is the item key with a bit for each pair some live option has (see
/// `counting/memo/key.rs`): counts by both rules, in parts, in slices, in
/// a memo that evicts everything, and on a pool of threads.
#[test]
fn colors_among_many_options_take_the_item_key_of_pairs() {
    let mut rng = Rng::new(47);
    for k in 0..40 {
        let shape = Shape {
            primary: 6,
            secondary: 4,
            options: 80,
            density: 25,
            colors: true,
            multiplicities: false,
        };
        let p = if k % 3 == 0 {
            blocks(&mut rng, &shape, 2, k % 4)
        } else {
            random_problem(&mut rng, &shape)
        };
        let m = MemoCount::new(&p, Branching::First, 1 << 20).unwrap();
        if p.n_options() > 64 && p.has_colors() {
            assert!(m.key_words() < p.n_options().div_ceil(64), "{p:?}");
        }
        let expected = count(p.clone());
        check(&p, expected);
        for threads in [2, 3] {
            let mut pool = MemoPool::new(&p, Branching::Mrv, 1 << 20, threads).unwrap();
            assert_eq!(
                pool.count(),
                Number::Small(expected as u128),
                "{threads} threads on {p:?}"
            );
        }
    }
}

#[test]
fn a_pool_of_threads_gives_the_same_count() {
    let mut rng = Rng::new(31);
    for k in 0..300 {
        let shape = Shape {
            primary: 6,
            secondary: 2,
            options: 14,
            density: 30,
            colors: k % 2 == 0,
            multiplicities: false,
        };
        let p = if k % 3 == 0 {
            blocks(&mut rng, &shape, 2, k % 4)
        } else {
            random_problem(&mut rng, &shape)
        };
        let expected = Number::Small(count(p.clone()) as u128);
        for threads in [1, 2, 3] {
            for branching in [Branching::Mrv, Branching::First] {
                let mut pool = MemoPool::new(&p, branching, 1 << 20, threads).unwrap();
                assert_eq!(pool.count(), expected, "{threads} threads on {p:?}");
                // In slices of a few nodes, the count so far never past the whole.
                let mut pool = MemoPool::new(&p, branching, 1 << 16, threads).unwrap();
                let got = loop {
                    let so_far = pool.partial();
                    assert!(
                        so_far.to_u128() <= expected.to_u128(),
                        "{so_far:?} past {expected:?}"
                    );
                    if let Poll::Ready(n) = pool.run(Slice::work(3)) {
                        break n;
                    }
                };
                assert_eq!(got, expected, "in slices, {threads} threads on {p:?}");
            }
        }
    }
}

#[test]
fn a_pool_splits_a_board_into_sub_problems() {
    let p = l_tromino(8, Some(0));
    let expected = Number::Small(count(p.clone()) as u128);
    let mut pool = MemoPool::new(&p, Branching::First, 1 << 22, 4).unwrap();
    assert!(pool.tasks() >= 64, "{} sub-problems", pool.tasks());
    assert_eq!(pool.count(), expected);
}

#[test]
fn a_stopped_run_leaves_tables_that_do_not_grow_and_counts_that_hold() {
    // Once the run's flag is up a table never doubles (a doubling under
    // way drops what it has not put back): the memo is a cache, so a count
    // taken up again afterwards is still exact, on one thread and on four.
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    let p = l_tromino(9, None);
    let expected = memo(&p, Branching::Mrv, 1 << 24);
    for threads in [1, 4] {
        let mut m = MemoPool::new(&p, Branching::Mrv, 1 << 24, threads).unwrap();
        let halt = Arc::new(AtomicBool::new(false));
        m.watch(Some(Arc::clone(&halt)));
        assert!(m.run(Slice::work(2_000)).is_pending());
        let before = m.stats().bytes;
        halt.store(true, std::sync::atomic::Ordering::Relaxed);
        let got = loop {
            if let Poll::Ready(n) = m.run(Slice::work(1 << 12)) {
                break n;
            }
        };
        assert_eq!(got, expected, "{threads} threads");
        assert!(
            m.stats().bytes <= before,
            "{threads} threads: the tables grew"
        );
    }
}
