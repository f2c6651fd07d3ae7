//! Differential tests: the engine against brute force (every subset of
//! options checked by the definition) on thousands of small random problems
//! mixing secondary items, colors and multiplicities.
mod common;

use common::*;
use sat::Sat;
use std::sync::Arc;
use xc::{CompiledProblem, Engine, Next, Poll, Rng, Search, Slice, Sliced};

fn small(colors: bool, multiplicities: bool) -> Shape {
    Shape {
        primary: 4,
        secondary: 3,
        options: 12,
        density: 40,
        colors,
        multiplicities,
    }
}

fn check(p: CompiledProblem, seed: u64) {
    let p = Arc::new(p);
    let expected = brute_force(&p);
    for engine in [Engine::Cells, Engine::Bits] {
        let new = |seed| Search::with_engine(p.clone(), seed, engine);
        // Every small problem suits bitsets, multiplicities too (Algorithm M).
        assert_eq!(new(None).engine(), engine);
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
        while sliced.count_in(Slice::work(1), u64::MAX).is_pending() {}
        assert_eq!(sliced.stats().solutions, expected.len() as u64);
    }
}

#[test]
fn exact_cover_with_secondary_items() {
    let mut rng = Rng::new(1);
    for k in 0..1500 {
        check(random_problem(&mut rng, &small(false, false)), k);
    }
}

#[test]
fn colors() {
    let mut rng = Rng::new(2);
    for k in 0..1500 {
        check(random_problem(&mut rng, &small(true, false)), k);
    }
}

#[test]
fn multiplicities_and_colors() {
    let mut rng = Rng::new(3);
    for k in 0..3000 {
        let colors = k % 2 == 0;
        check(random_problem(&mut rng, &small(colors, true)), k);
    }
}

#[test]
fn long_options() {
    // More than four items an option on average: dancing cells then hide
    // each option whole, from its first node (with colors and
    // multiplicities too).
    let mut rng = Rng::new(5);
    for k in 0..1500 {
        let shape = Shape {
            primary: 7,
            secondary: 3,
            options: 12,
            density: 75,
            colors: k % 2 == 0,
            multiplicities: k % 3 == 0,
        };
        check(random_problem(&mut rng, &shape), k);
    }
}

#[test]
fn options_of_one_length() {
    // Every option with the same number of items, 2 to 6: dancing cells then
    // walk each option as a ring of that length (2 to 4) or whole (5, 6).
    let mut rng = Rng::new(6);
    for k in 0..2000 {
        let len = 2 + rng.below(5) as usize;
        let n1 = 1 + rng.below(6) as u32;
        let n2 = rng.below(4) as u32;
        let n = (n1 + n2) as usize;
        if n < len {
            continue;
        }
        let (colors, multiplicities) = (k % 2 == 0, k % 3 == 0);
        let bounds = random_bounds(&mut rng, n1, multiplicities);
        let m = 1 + rng.below(12) as usize;
        let mut options = Vec::new();
        while options.len() < m {
            // `len` distinct items in a random order, one of them primary.
            let mut items: Vec<u32> = (0..n as u32).collect();
            for j in (1..n).rev() {
                items.swap(j, rng.below(j as u64 + 1) as usize);
            }
            items.truncate(len);
            if items.iter().all(|&i| i >= n1) {
                continue;
            }
            let o: Vec<(u32, u32)> = items
                .iter()
                .map(|&i| {
                    let c = if i >= n1 && colors {
                        rng.below(3) as u32
                    } else {
                        0
                    };
                    (i, c)
                })
                .collect();
            options.push(o);
        }
        check(problem(n1, n2, &bounds, &options), k);
    }
}

#[test]
fn forcing_matches_filtering() {
    // Forcing options must give exactly the solutions that contain them.
    let mut rng = Rng::new(4);
    for k in 0..1500 {
        let p = Arc::new(random_problem(&mut rng, &small(k % 2 == 0, k % 3 == 0)));
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

/// What this test asks of every engine: the one run protocol (`Sliced`),
/// forcing an option, and reading a solution.
trait Runs: Sliced<Outcome = Next> {
    fn force(&mut self, o: u32) -> bool;
    fn solution_into(&self, out: &mut Vec<u32>);
    fn is_exhausted(&self) -> bool;
    fn solutions(&self) -> u64;
}

impl Runs for Search {
    fn force(&mut self, o: u32) -> bool {
        Search::force(self, o)
    }
    fn solution_into(&self, out: &mut Vec<u32>) {
        Search::solution_into(self, out)
    }
    fn is_exhausted(&self) -> bool {
        Search::is_exhausted(self)
    }
    fn solutions(&self) -> u64 {
        self.stats().solutions
    }
}

impl Runs for Sat {
    fn force(&mut self, o: u32) -> bool {
        self.require(o);
        true // (the CDCL solver learns of a clash when it runs: no solution)
    }
    fn solution_into(&self, out: &mut Vec<u32>) {
        Sat::solution_into(self, out)
    }
    fn is_exhausted(&self) -> bool {
        self.exhausted()
    }
    fn solutions(&self) -> u64 {
        self.stats().solutions
    }
}

/// Every solution from `e`, through the one run protocol, in slices of
/// one update (dancing links) or one conflict (the CDCL solver), sorted.
fn in_tiny_runs(e: &mut dyn Runs) -> Vec<Vec<u32>> {
    let tiny = Slice {
        updates: Some(1),
        conflicts: Some(1),
        ..Slice::ALL
    };
    let mut found = Vec::new();
    loop {
        match e.run(tiny) {
            Poll::Ready(Next::Solution) => {
                let mut s = Vec::new();
                e.solution_into(&mut s);
                found.push(s);
            }
            Poll::Pending => {}
            Poll::Ready(Next::Exhausted) => break,
        }
    }
    assert!(e.is_exhausted());
    assert_eq!(e.solutions(), found.len() as u64);
    found.sort();
    found
}

#[test]
fn every_engine_through_one_interface() {
    // Dancing cells, bitsets and CDCL as `dyn Runs`, with options forced
    // and runs cut short: the solutions that hold the forced options, each once.
    let mut rng = Rng::new(5);
    for k in 0..600 {
        let p = Arc::new(random_problem(&mut rng, &small(k % 2 == 0, k % 3 != 0)));
        let forced: Vec<u32> = (0..k % 3)
            .map(|_| rng.below(p.n_options() as u64) as u32)
            .collect();
        let expected: Vec<Vec<u32>> = brute_force(&p)
            .into_iter()
            .filter(|x| forced.iter().all(|o| x.contains(o)))
            .collect();
        let engines: [(&str, Box<dyn Runs>); 3] = [
            (
                "cells",
                Box::new(Search::with_engine(p.clone(), None, Engine::Cells)),
            ),
            (
                "bits",
                Box::new(Search::with_engine(p.clone(), None, Engine::Bits)),
            ),
            ("sat", Box::new(Sat::new(&p))),
        ];
        for (name, mut e) in engines {
            let mut distinct = forced.clone();
            distinct.sort();
            distinct.dedup(); // forcing an option twice is refused by the searches
            let ok = distinct.iter().all(|&o| e.force(o));
            let got = if ok { in_tiny_runs(e.as_mut()) } else { vec![] };
            assert_eq!(got, expected, "forcing {forced:?} in {p:?} ({name})");
        }
    }
}
