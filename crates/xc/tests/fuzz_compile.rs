//! A fuzz target over the compile step: arrays of any shape and value (most
//! of them malformed) go into `CompiledProblem::new`, which must answer with
//! a problem or an error, never a panic; a problem it accepts must then be
//! searched by every engine to the count brute force gives (the Akari
//! encoder's target is in the puzzles crate).
//!
//! A short budget runs with `cargo test`; `COVERING_FUZZ_ITERATIONS` raises
//! it (`benchmarks/fuzz.py` runs a long one).
mod common;

use common::brute_force;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use xc::{CompiledProblem, Engine, Rng, Search, Slice};

fn iterations() -> u64 {
    std::env::var("COVERING_FUZZ_ITERATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000)
}

/// A value that is often near the edge: 0, small, u32::MAX, or random.
fn edgy(rng: &mut Rng, small: u32) -> u32 {
    match rng.below(8) {
        0 => 0,
        1 => u32::MAX,
        2 => u32::MAX - rng.below(3) as u32,
        3 => rng.next_u64() as u32,
        _ => rng.below(small as u64 + 1) as u32,
    }
}

fn vec_of(rng: &mut Rng, len: usize, small: u32) -> Vec<u32> {
    (0..len).map(|_| edgy(rng, small)).collect()
}

#[test]
fn compile_never_panics_and_what_it_accepts_is_searched_right() {
    let mut rng = Rng::new(2026);
    let mut accepted = 0;
    for round in 0..iterations() {
        let n_primary = 1 + rng.below(4) as u32 - (rng.below(20) == 0) as u32;
        let n_secondary = rng.below(4) as u32;
        let n_items = n_primary + n_secondary;
        let n_options = rng.below(9) as usize;
        // Well-formed CSR arrays, disturbed at random a third of the time.
        let mut start = vec![0u32];
        let mut item = Vec::new();
        for _ in 0..n_options {
            // Distinct items in range, now and then one out of range.
            let k = rng.below(4);
            let before = item.len();
            if rng.below(10) != 0 {
                item.push(rng.below(n_primary as u64) as u32); // a primary item, mostly
            }
            for _ in 0..k {
                let past = (rng.below(20) == 0) as u64;
                let i = rng.below(n_items as u64 + past) as u32;
                if !item[before..].contains(&i) || rng.below(20) == 0 {
                    item.push(i);
                }
            }
            start.push(item.len() as u32);
        }
        // Colors on secondary items only (a colored primary item is an error,
        // made now and then below).
        let mut color: Vec<u32> = item
            .iter()
            .map(|&i| {
                if i >= n_primary {
                    rng.below(3) as u32
                } else {
                    0
                }
            })
            .collect();
        let mut lo: Vec<u32> = (0..n_primary).map(|_| rng.below(3) as u32).collect();
        let mut hi: Vec<u32> = lo.iter().map(|&l| l.max(1) + rng.below(3) as u32).collect();
        match rng.below(18) {
            0 => start = vec_of(&mut rng, n_options + 1, item.len() as u32 + 1),
            1 => item = vec_of(&mut rng, item.len(), n_items),
            2 => {
                let len = rng.below(6) as usize;
                color = vec_of(&mut rng, len, 3)
            }
            3 => {
                let len = n_primary as usize + rng.below(2) as usize;
                lo = vec_of(&mut rng, len, 3)
            }
            4 => hi = vec_of(&mut rng, n_primary as usize, 3),
            5 => {
                start.clear();
            }
            _ => {}
        }
        let result = catch_unwind(AssertUnwindSafe(|| {
            CompiledProblem::new(
                n_primary,
                n_secondary,
                lo.clone(),
                hi.clone(),
                start.clone(),
                item.clone(),
                color.clone(),
            )
        }));
        let Ok(result) = result else {
            panic!(
                "compile panicked on {n_primary} {n_secondary} {lo:?} {hi:?} {start:?} {item:?} {color:?}"
            )
        };
        let p = match result {
            Ok(p) => p,
            Err(e) => {
                if std::env::var("FUZZ_DEBUG").is_ok() {
                    eprintln!("{e:?}");
                }
                continue;
            }
        };
        accepted += 1;
        let p = Arc::new(p);
        let expected = brute_force(&p).len() as u64;
        for engine in [Engine::Auto, Engine::Cells, Engine::Bits] {
            let mut s = Search::with_engine(p.clone(), Some(round), engine);
            assert_eq!(s.count_all(), expected, "{p:?} ({engine:?})");
            // Budgets of any size, including none and the largest.
            let mut s = Search::with_engine(p.clone(), None, engine);
            let nodes = edgy(&mut rng, 5) as u64;
            let _ = s.count_in(Slice::work(nodes), u64::MAX);
        }
    }
    // Most random problems are valid, and those are the ones searched.
    assert!(
        accepted * 3 > iterations(),
        "only {accepted} valid problems"
    );
}
