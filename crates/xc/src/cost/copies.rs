//! Copies of an option: options with the same items, each with the same
//! color. OR-Library's set partitioning files are full of them (nw04 has
//! 87,482 columns and 46,190 sets of rows; air03 10,757 and 8,460), and
//! a search for the K cheapest solutions needs only the K cheapest of
//! each set of copies.
//!
//! Why that is exact, for copies no solution can hold two of (they share
//! an item covered at most once: a primary item with `hi == 1`, or an
//! uncolored secondary item). Swapping a copy for another changes a
//! solution into another. So a solution with a copy dearer than the K
//! kept (cost, then id) has K others, all with kept copies in its place,
//! that cost no more; and for each t <= K, the t-th cheapest cost is then
//! the same with or without the copies dropped. A problem with fewer than
//! K solutions has no dropped copy in any of them (else swapping would make
//! K + 1). Copies that may go together (every shared item has room for
//! two) are all kept.
//!
//! ```
//! use xc::{CompiledProblem, cheapest_copies};
//! // Items A B; options "A B" (cost 5), "B A" (cost 3), "A" (cost 1), "B A" (cost 4).
//! let p = CompiledProblem::new(2, 0, vec![1; 2], vec![1; 2],
//!     vec![0, 2, 4, 5, 7], vec![0, 1, 1, 0, 0, 1, 0], vec![]).unwrap();
//! let kept = cheapest_copies(&p, &[5, 3, 1, 4], 1, &Default::default()).unwrap().unwrap();
//! assert_eq!((kept.ids, kept.costs), (vec![1, 2], vec![3, 1]));
//! ```

use std::sync::atomic::{AtomicBool, Ordering};

use crate::core::problem::CompiledProblem;
use crate::cost::pricing::CostError;

/// The options of a problem without the copies dropped: the problem, the
/// costs, and the given problem's id of each option kept (increasing).
#[derive(Clone, Debug)]
pub struct Kept {
    pub problem: CompiledProblem,
    pub costs: Vec<u64>,
    pub ids: Vec<u32>,
}

/// Options between two looks at the stop flag.
const LOOK: usize = 1 << 16;

/// The problem with only the `k` cheapest of each set of copies that no
/// solution can hold two of (ties to the smaller id); None when none is
/// dropped. `stop` ends the work early ([`CostError::Stopped`]).
pub fn cheapest_copies(
    problem: &CompiledProblem,
    costs: &[u64],
    k: usize,
    stop: &AtomicBool,
) -> Result<Option<Kept>, CostError> {
    let n = problem.n_options();
    let n1 = problem.n_primary() as u32;
    let hi = problem.hi();
    // (An entry: its item and its color, as one word.)
    let entry = |o: usize, t: usize| {
        let item = problem.option(o)[t];
        let color = problem.option_colors(o).get(t).copied().unwrap_or(0);
        (u64::from(item) << 32) | u64::from(color)
    };
    let alone = |o: usize| {
        let colors = problem.option_colors(o);
        problem.option(o).iter().enumerate().any(|(t, &i)| {
            if i < n1 {
                hi[i as usize] == 1
            } else {
                colors.get(t).is_none_or(|&c| c == 0)
            }
        })
    };
    // Options that no solution holds two copies of, by a hash of their
    // entries that does not depend on their order, then by cost and id.
    let mut keyed: Vec<(u64, u64, u32)> = Vec::new();
    for (o, &cost) in costs.iter().enumerate().take(n) {
        if o % LOOK == 0 && stop.load(Ordering::Relaxed) {
            return Err(CostError::Stopped);
        }
        if alone(o) {
            let len = problem.option(o).len();
            let hash = (0..len).fold(0u64, |h, t| h.wrapping_add(mix(entry(o, t))));
            keyed.push((hash, cost, o as u32));
        }
    }
    if stop.load(Ordering::Relaxed) {
        return Err(CostError::Stopped);
    }
    keyed.sort_unstable();
    let sorted = |o: u32| {
        let o = o as usize;
        let mut e: Vec<u64> = (0..problem.option(o).len()).map(|t| entry(o, t)).collect();
        e.sort_unstable();
        e
    };
    let mut dropped = vec![false; n];
    let mut any = false;
    for run in keyed.chunk_by(|a, b| a.0 == b.0).filter(|r| r.len() > k) {
        // (Runs of one hash are one set of copies but for a collision:
        // each option is checked against the sets met so far, cheapest
        // first, and the (k+1)-th of a set on is dropped.)
        let mut sets: Vec<(Vec<u64>, usize)> = Vec::new();
        for &(_, _, o) in run {
            let e = sorted(o);
            match sets.iter_mut().find(|s| s.0 == e) {
                Some(s) if s.1 >= k => {
                    dropped[o as usize] = true;
                    any = true;
                }
                Some(s) => s.1 += 1,
                None => sets.push((e, 1)),
            }
        }
    }
    if !any {
        return Ok(None);
    }
    let ids: Vec<u32> = (0..n as u32).filter(|&o| !dropped[o as usize]).collect();
    let (mut start, mut item, mut color) = (vec![0u32], Vec::new(), Vec::new());
    for &o in &ids {
        let o = o as usize;
        item.extend_from_slice(problem.option(o));
        color.extend_from_slice(problem.option_colors(o));
        start.push(item.len() as u32);
    }
    let p = CompiledProblem::new(
        problem.n_primary() as u32,
        problem.n_secondary() as u32,
        problem.lo().to_vec(),
        hi.to_vec(),
        start,
        item,
        color,
    )
    .expect("options of a valid problem");
    let costs = ids.iter().map(|&o| costs[o as usize]).collect();
    Ok(Some(Kept {
        problem: p,
        costs,
        ids,
    }))
}

/// SplitMix64's finalizer: a sum of these is an order-free hash of a set.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::Rng;

    /// Every solution's cost, cheapest first (by every subset of options).
    fn costs_of_all(p: &CompiledProblem, costs: &[u64]) -> Vec<u64> {
        p.every_solution_by_subsets(costs)
            .into_iter()
            .map(|s| s.0)
            .collect()
    }

    /// A random problem (multiplicities, secondary items, colors at
    /// times) with copies of its options, in shuffled items.
    fn with_copies(rng: &mut Rng) -> (CompiledProblem, Vec<u64>) {
        let n1 = 1 + rng.below(4) as u32;
        let n2 = rng.below(3) as u32;
        let multi = rng.below(2) == 0;
        let lo: Vec<u32> = (0..n1)
            .map(|_| if multi { rng.below(3) as u32 } else { 1 })
            .collect();
        let hi: Vec<u32> = lo
            .iter()
            .map(|&l| l.max(1) + if multi { rng.below(2) as u32 } else { 0 })
            .collect();
        let colored = rng.below(2) == 0;
        let mut options: Vec<Vec<(u32, u32)>> = Vec::new();
        for _ in 0..1 + rng.below(5) {
            let mut o: Vec<(u32, u32)> = vec![(rng.below(n1 as u64) as u32, 0)];
            for i in 0..n1 + n2 {
                if rng.below(3) == 0 && !o.iter().any(|e| e.0 == i) {
                    let c = if i >= n1 && colored {
                        rng.below(3) as u32
                    } else {
                        0
                    };
                    o.push((i, c));
                }
            }
            options.push(o);
        }
        // Copies, their entries shuffled.
        for _ in 0..rng.below(8) {
            let mut o = options[rng.below(options.len() as u64) as usize].clone();
            for t in (1..o.len()).rev() {
                o.swap(t, rng.below(t as u64 + 1) as usize);
            }
            options.push(o);
        }
        let (mut start, mut item, mut color) = (vec![0u32], Vec::new(), Vec::new());
        for o in &options {
            item.extend(o.iter().map(|e| e.0));
            color.extend(o.iter().map(|e| e.1));
            start.push(item.len() as u32);
        }
        let costs = (0..options.len()).map(|_| rng.below(6)).collect();
        let p = CompiledProblem::new(n1, n2, lo, hi, start, item, color).expect("a problem");
        (p, costs)
    }

    #[test]
    fn the_k_cheapest_costs_are_kept() {
        let mut rng = Rng::new(17);
        let never = AtomicBool::new(false);
        let mut dropped = 0;
        for case in 0..3000 {
            let (p, costs) = with_copies(&mut rng);
            let all = costs_of_all(&p, &costs);
            for k in [1, 2, 3] {
                let Some(kept) = cheapest_copies(&p, &costs, k, &never).unwrap() else {
                    continue;
                };
                dropped += p.n_options() - kept.ids.len();
                let left = costs_of_all(&kept.problem, &kept.costs);
                let want: Vec<u64> = all.iter().take(k).copied().collect();
                let got: Vec<u64> = left.iter().take(k).copied().collect();
                assert_eq!(got, want, "case {case}, k = {k}");
                for (j, &o) in kept.ids.iter().enumerate() {
                    assert_eq!(kept.problem.option(j), p.option(o as usize));
                    assert_eq!(kept.costs[j], costs[o as usize]);
                }
            }
        }
        assert!(dropped > 1000, "only {dropped} options dropped");
    }

    #[test]
    fn copies_that_may_go_together_are_kept() {
        // Item A covered twice: two copies of "A" make a solution.
        let p = CompiledProblem::new(1, 0, vec![2], vec![2], vec![0, 1, 2, 3], vec![0; 3], vec![])
            .unwrap();
        let never = AtomicBool::new(false);
        assert!(
            cheapest_copies(&p, &[1, 2, 3], 1, &never)
                .unwrap()
                .is_none()
        );
        // Colored the same on x: "A x:1" twice may not go together (A), but
        // may with "B x:1".
        let p = CompiledProblem::new(
            2,
            1,
            vec![1; 2],
            vec![1; 2],
            vec![0, 2, 4, 6],
            vec![0, 2, 2, 0, 1, 2],
            vec![0, 1, 1, 0, 0, 1],
        )
        .unwrap();
        let kept = cheapest_copies(&p, &[4, 3, 1], 1, &never).unwrap().unwrap();
        assert_eq!(kept.ids, vec![1, 2]);
    }

    #[test]
    fn a_raised_stop_flag_stops_it() {
        let p = CompiledProblem::new(1, 0, vec![1], vec![1], vec![0, 1, 2], vec![0, 0], vec![])
            .unwrap();
        let stop = AtomicBool::new(true);
        assert_eq!(
            cheapest_copies(&p, &[1, 2], 1, &stop).err(),
            Some(CostError::Stopped)
        );
    }
}
