//! Differential tests: the engine against brute force (every subset of
//! options checked by the definition) on thousands of small random problems
//! mixing secondary items, colors and multiplicities.
mod common;

use common::*;
use std::sync::Arc;
use xc::{CompiledProblem, Engine, Limits, Rng, Search, Step};

fn random_problem(rng: &mut Rng, colors: bool, multiplicities: bool) -> CompiledProblem {
    let n1 = 1 + rng.below(4) as u32;
    let n2 = rng.below(4) as u32;
    let bounds: Vec<(u32, u32)> = (0..n1)
        .map(|_| {
            if multiplicities {
                let lo = rng.below(3) as u32;
                (lo, (lo + rng.below(3) as u32).max(1))
            } else {
                (1, 1)
            }
        })
        .collect();
    let m = 1 + rng.below(12) as usize;
    let mut options = Vec::new();
    while options.len() < m {
        let mut o = Vec::new();
        for i in 0..n1 + n2 {
            if rng.below(100) < 40 {
                let c = if i >= n1 && colors {
                    rng.below(3) as u32
                } else {
                    0
                };
                o.push((i, c));
            }
        }
        if o.iter().any(|&(i, _)| i < n1) {
            // Shuffle the order of items within the option too.
            for k in (1..o.len()).rev() {
                let r = rng.below(k as u64 + 1) as usize;
                o.swap(k, r);
            }
            options.push(o);
        }
    }
    problem(n1, n2, &bounds, &options)
}

fn check(p: CompiledProblem, seed: u64) {
    let p = Arc::new(p);
    let expected = brute_force(&p);
    for engine in [Engine::Cells, Engine::Bits] {
        let new = |seed| Search::with_engine(p.clone(), seed, engine);
        let mut got = new(None).all_solutions();
        assert!(
            got.iter().all(|x| p.is_solution(x)),
            "invalid solution in {p:?} ({engine:?})"
        );
        got.sort();
        assert_eq!(got, expected, "solutions of {p:?} ({engine:?})");
        assert_eq!(
            new(None).count_all(),
            expected.len() as u64,
            "count of {p:?} ({engine:?})"
        );
        let mut r = new(Some(seed)).all_solutions();
        r.sort();
        assert_eq!(r, expected, "random order of {p:?} ({engine:?})");
        // Counting in tiny slices gives the same total.
        let mut sliced = new(None);
        loop {
            let st = sliced.stats();
            if sliced.count(
                Limits {
                    nodes: st.nodes + 1,
                    updates: u64::MAX,
                },
                u64::MAX,
            ) == Step::Exhausted
            {
                break;
            }
        }
        assert_eq!(sliced.stats().solutions, expected.len() as u64);
    }
}

#[test]
fn exact_cover_with_secondary_items() {
    let mut rng = Rng::new(1);
    for k in 0..1500 {
        check(random_problem(&mut rng, false, false), k);
    }
}

#[test]
fn colors() {
    let mut rng = Rng::new(2);
    for k in 0..1500 {
        check(random_problem(&mut rng, true, false), k);
    }
}

#[test]
fn multiplicities_and_colors() {
    let mut rng = Rng::new(3);
    for k in 0..3000 {
        let colors = k % 2 == 0;
        check(random_problem(&mut rng, colors, true), k);
    }
}

#[test]
fn forcing_matches_filtering() {
    // Forcing options must give exactly the solutions that contain them.
    let mut rng = Rng::new(4);
    for k in 0..1500 {
        let p = Arc::new(random_problem(&mut rng, k % 2 == 0, k % 3 == 0));
        let all = brute_force(&p);
        let mut forced: Vec<u32> = (0..1 + k % 2)
            .map(|_| rng.below(p.n_options() as u64) as u32)
            .collect();
        forced.dedup(); // an option cannot be chosen twice: forcing it again is refused
        for engine in [Engine::Cells, Engine::Bits] {
            let mut s = Search::with_engine(p.clone(), None, engine);
            let ok = forced.iter().all(|&o| s.force(o));
            let mut got = if ok { s.all_solutions() } else { vec![] };
            got.sort();
            let expected: Vec<Vec<u32>> = all
                .iter()
                .filter(|x| forced.iter().all(|o| x.contains(o)))
                .cloned()
                .collect();
            assert_eq!(got, expected, "forcing {forced:?} in {p:?} ({engine:?})");
        }
    }
}
