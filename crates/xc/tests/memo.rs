//! Memo counting against plain counting: random problems with secondary
//! items and colors, known problems, memos too small to hold anything (so
//! that every entry is evicted), and counts taken in slices.
mod common;

use common::*;
use xc::{Branching, CompiledProblem, MemoCount, MemoError, Number, Rng};

fn memo(p: &CompiledProblem, branching: Branching, budget: usize) -> Number {
    MemoCount::new(p, branching, budget).unwrap().count()
}

/// The memo count of `p` in every way (both rules, a large and a tiny memo,
/// one node at a time), each checked against `expected`.
fn check(p: &CompiledProblem, expected: u64) {
    for branching in [Branching::Mrv, Branching::First] {
        for budget in [1 << 24, 0] {
            assert_eq!(
                memo(p, branching, budget),
                Number::Small(expected as u128),
                "{branching:?} with {budget} bytes on {p:?}"
            );
        }
        let mut m = MemoCount::new(p, branching, 1 << 20).unwrap();
        let got = loop {
            if let Some(n) = m.run(1) {
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
        (l_tromino(6, None), 162),
        (l_tromino(7, Some(0)), 1440),
        (l_tromino(7, Some(9)), 288),
        (l_tromino(5, Some(1)), 0),
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
