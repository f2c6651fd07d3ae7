//! Small builders for the engine tests: problems from option lists, and the
//! classic generators (L-trominoes, queens) written out plainly.
#![allow(dead_code)]

use std::sync::Arc;
use xc::{CompiledProblem, Engine, Rng, Search};

/// A problem from options given as `(item, color)` pairs over items numbered
/// primary first; `bounds` gives `(lo, hi)` per primary item.
pub fn problem(
    n_primary: u32,
    n_secondary: u32,
    bounds: &[(u32, u32)],
    options: &[Vec<(u32, u32)>],
) -> CompiledProblem {
    let mut start = vec![0u32];
    let mut items = Vec::new();
    let mut colors = Vec::new();
    for o in options {
        for &(i, c) in o {
            items.push(i);
            colors.push(c);
        }
        start.push(items.len() as u32);
    }
    let (lo, hi): (Vec<u32>, Vec<u32>) = bounds.iter().copied().unzip();
    CompiledProblem::new(n_primary, n_secondary, lo, hi, start, items, colors).unwrap()
}

/// An exact cover problem (all primary, bounds 1..1) from plain item lists.
pub fn exact(n_items: u32, options: &[Vec<u32>]) -> CompiledProblem {
    let opts: Vec<Vec<(u32, u32)>> = options
        .iter()
        .map(|o| o.iter().map(|&i| (i, 0)).collect())
        .collect();
    problem(n_items, 0, &vec![(1, 1); n_items as usize], &opts)
}

/// The number of solutions, counted on both data structures (which must agree).
pub fn count(p: CompiledProblem) -> u64 {
    let p = Arc::new(p);
    let cells = Search::with_engine(p.clone(), None, Engine::Cells).count_all();
    let bits = Search::with_engine(p, None, Engine::Bits).count_all();
    assert_eq!(cells, bits, "the engines disagree");
    cells
}

/// The L-tromino placements of seed 000 on an n x n board, cells y*n+x, with
/// cell `hole` removed (items are renumbered to stay dense).
pub fn l_tromino(n: u32, hole: Option<u32>) -> CompiledProblem {
    let mut options = Vec::new();
    for x in 0..n - 1 {
        for y in 0..n - 1 {
            let z = y * n + x;
            for cells in [
                [z, z + 1, z + n],
                [z, z + 1, z + n + 1],
                [z, z + n, z + n + 1],
                [z + 1, z + n, z + n + 1],
            ] {
                if Some(cells[0]) != hole && Some(cells[1]) != hole && Some(cells[2]) != hole {
                    let renum = |c: u32| match hole {
                        Some(h) if c > h => c - 1,
                        _ => c,
                    };
                    options.push(cells.iter().map(|&c| renum(c)).collect());
                }
            }
        }
    }
    exact(n * n - hole.is_some() as u32, &options)
}

/// n queens: rows and columns primary, the 2(2n-1) diagonals secondary.
pub fn queens(n: u32) -> CompiledProblem {
    let mut options = Vec::new();
    for r in 0..n {
        for c in 0..n {
            let a = 2 * n + r + c;
            let b = 2 * n + (2 * n - 1) + (n - 1 + r - c);
            options.push(vec![(r, 0), (n + c, 0), (a, 0), (b, 0)]);
        }
    }
    problem(
        2 * n,
        2 * (2 * n - 1),
        &vec![(1, 1); 2 * n as usize],
        &options,
    )
}

/// Every set of options that meets the definition, by trying all subsets.
pub fn brute_force(p: &CompiledProblem) -> Vec<Vec<u32>> {
    let m = p.n_options();
    assert!(m <= 16);
    let mut out = Vec::new();
    for mask in 0u32..(1 << m) {
        let chosen: Vec<u32> = (0..m as u32).filter(|&o| mask >> o & 1 == 1).collect();
        if p.is_solution(&chosen) {
            out.push(chosen);
        }
    }
    out.sort();
    out
}

/// The sizes and features of a random problem.
pub struct Shape {
    /// At most this many primary items (at least 1), secondary items, options.
    pub primary: u32,
    pub secondary: u32,
    pub options: usize,
    /// Percent chance that an option has a given item.
    pub density: u64,
    pub colors: bool,
    pub multiplicities: bool,
}

/// The bounds of `n1` primary items: with `multiplicities`, `lo` from 0 to
/// 2 and `hi` up to 2 more (at least 1); else exactly once.
pub fn random_bounds(rng: &mut Rng, n1: u32, multiplicities: bool) -> Vec<(u32, u32)> {
    (0..n1)
        .map(|_| {
            if multiplicities {
                let lo = rng.below(3) as u32;
                (lo, (lo + rng.below(3) as u32).max(1))
            } else {
                (1, 1)
            }
        })
        .collect()
}

/// A random problem of `shape`: every option has a primary item, items come
/// in a random order within options, colors 0 (none) to 2.
pub fn random_problem(rng: &mut Rng, shape: &Shape) -> CompiledProblem {
    let n1 = 1 + rng.below(shape.primary as u64) as u32;
    let n2 = rng.below(shape.secondary as u64 + 1) as u32;
    let bounds = random_bounds(rng, n1, shape.multiplicities);
    let m = 1 + rng.below(shape.options as u64) as usize;
    let mut options = Vec::new();
    while options.len() < m {
        let mut o = Vec::new();
        for i in 0..n1 + n2 {
            if rng.below(100) < shape.density {
                let c = if i >= n1 && shape.colors {
                    rng.below(3) as u32
                } else {
                    0
                };
                o.push((i, c));
            }
        }
        if o.iter().any(|&(i, _)| i < n1) {
            for k in (1..o.len()).rev() {
                let r = rng.below(k as u64 + 1) as usize;
                o.swap(k, r);
            }
            options.push(o);
        }
    }
    problem(n1, n2, &bounds, &options)
}

/// The known counts of tests/known-counts.txt, the one table every
/// crate's tests and Python's read: (what, its numbers, the count), e.g.
/// ("l-tromino", [7, 0], 1440) for the 7 x 7 board less cell 0 (a hole of
/// `-` is `u64::MAX`).
pub fn known_counts() -> Vec<(String, Vec<u64>, u64)> {
    let text = include_str!("../../../../tests/known-counts.txt");
    let mut out = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let words: Vec<&str> = line.split_whitespace().collect();
        let numbers: Vec<u64> = words[1..]
            .iter()
            .map(|w| {
                if *w == "-" {
                    u64::MAX
                } else {
                    w.parse().expect("a number")
                }
            })
            .collect();
        let (count, size) = numbers.split_last().expect("a count");
        out.push((words[0].to_string(), size.to_vec(), *count));
    }
    out
}

/// The known count of the L-tromino board `n` x `n` less `hole`.
pub fn l_tromino_count(n: u32, hole: Option<u32>) -> u64 {
    let key = vec![n as u64, hole.map_or(u64::MAX, |h| h as u64)];
    known_counts()
        .into_iter()
        .find(|(what, size, _)| what == "l-tromino" && *size == key)
        .map(|(_, _, count)| count)
        .expect("a known count")
}
