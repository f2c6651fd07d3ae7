use super::kernels::{add_times, row_less, wide_vectors};
use super::*;
use xc::Rng;

/// A random set partitioning relaxation: `m` rows, `n` columns of 1-`k`
/// rows with costs 1-100 growing with their length, and a column a row
/// (dear) so that the rows can be met.
fn random(m: usize, n: usize, k: u64, rng: &mut Rng) -> (Vec<u32>, Vec<u32>, Vec<f64>) {
    let (mut start, mut rows, mut cost) = (vec![0u32], Vec::new(), Vec::new());
    for j in 0..n + m {
        let mut these: Vec<u32> = if j < n {
            (0..1 + rng.below(k))
                .map(|_| rng.below(m as u64) as u32)
                .collect()
        } else {
            vec![(j - n) as u32]
        };
        these.sort_unstable();
        these.dedup();
        cost.push(if j < n {
            (these.len() as u64 * 10 + rng.below(40)) as f64
        } else {
            200.0
        });
        rows.extend(these);
        start.push(rows.len() as u32);
    }
    (start, rows, cost)
}

/// Checks optimality by its certificate: the values meet the rows and
/// the bounds, the reduced costs agree with the bounds the nonbasic
/// values sit at, and the primal objective equals the dual bound.
fn certify(lp: &DualSimplex) {
    // (Every variable: the columns, and the artificials, which are
    // slacks between 0 and 1 in the rows of cuts.)
    let x = &lp.x;
    let mut sums = vec![0.0; lp.n_rows()];
    for (j, &xj) in x.iter().enumerate() {
        let (lo, up) = (lp.lower[j], lp.upper[j]);
        assert!(
            xj >= lo - 1e-7 && xj <= up + 1e-7,
            "column {j} at {xj} outside [{lo}, {up}]"
        );
        for &r in lp.rows_of(j) {
            sums[r as usize] += xj;
        }
        let d = lp.table.cost[j] - lp.dot(j, lp.multipliers());
        if xj > lo + 1e-7 && xj < up - 1e-7 {
            assert!(
                d.abs() < 1e-6,
                "column {j} between its bounds with reduced cost {d}"
            );
        } else if xj <= lo + 1e-7 && lo < up {
            assert!(
                d > -1e-6,
                "column {j} at its lower bound with reduced cost {d}"
            );
        } else if lo < up {
            assert!(
                d < 1e-6,
                "column {j} at its upper bound with reduced cost {d}"
            );
        }
    }
    for (r, (s, b)) in sums.iter().zip(&lp.rhs).enumerate() {
        assert!((s - b).abs() < 1e-7, "row {r} sums to {s}, not {b}");
    }
    let (primal, dual) = (lp.objective(), lp.bound());
    assert!(
        (primal - dual).abs() < 1e-6 * (1.0 + primal.abs()),
        "primal {primal}, dual {dual}"
    );
}

#[test]
fn random_relaxations_are_solved_to_a_certified_optimum() {
    let never = AtomicBool::new(false);
    let mut rng = Rng::new(7);
    for round in 0..60 {
        let m = 3 + rng.below(40) as usize;
        let n = 5 + rng.below(300) as usize;
        let (start, rows, cost) = random(m, n, 1 + rng.below(8), &mut rng);
        let mut lp = DualSimplex::new(m, &start, &rows, &cost, &vec![1.0; m]);
        // (A limit far above what these take: a cycle fails here.)
        assert_eq!(lp.solve(20_000, &never), LpStatus::Optimal, "round {round}");
        certify(&lp);
    }
}

#[test]
fn a_cutoff_ends_only_solves_whose_optimum_is_above_it() {
    // Each relaxation solved without a cutoff, then afresh with one
    // under its optimum (the solve must end cut, and no cheaper than
    // the cutoff), and with one above it (the same optimum).
    let never = AtomicBool::new(false);
    let mut rng = Rng::new(23);
    let mut cut = 0;
    for round in 0..60 {
        let m = 5 + rng.below(40) as usize;
        let n = 20 + rng.below(300) as usize;
        let (start, rows, cost) = random(m, n, 1 + rng.below(8), &mut rng);
        let ones = vec![1.0; m];
        let mut free = DualSimplex::new(m, &start, &rows, &cost, &ones);
        assert_eq!(free.solve(u64::MAX, &never), LpStatus::Optimal);
        let optimum = free.objective();
        let under = optimum * (0.5 + 0.45 * rng.below(100) as f64 / 100.0);
        let mut lp = DualSimplex::new(m, &start, &rows, &cost, &ones);
        lp.set_cutoff(under);
        match lp.solve(u64::MAX, &never) {
            LpStatus::Cutoff => {
                cut += 1;
                assert!(lp.bound() > under, "round {round}: cut under the cutoff");
            }
            // (The first basis may be optimal at once: nothing to cut.)
            status => {
                assert_eq!(status, LpStatus::Optimal, "round {round}");
                assert!((lp.objective() - optimum).abs() < 1e-6 * (1.0 + optimum));
            }
        }
        let mut lp = DualSimplex::new(m, &start, &rows, &cost, &ones);
        lp.set_cutoff(optimum + 1.0);
        assert_eq!(
            lp.solve(u64::MAX, &never),
            LpStatus::Optimal,
            "round {round}"
        );
        assert!((lp.objective() - optimum).abs() < 1e-6 * (1.0 + optimum));
    }
    assert!(cut > 30, "only {cut} of 60 solves were cut");
}

#[test]
fn a_warm_start_after_bounds_change_reaches_a_cold_solves_optimum() {
    let never = AtomicBool::new(false);
    let mut rng = Rng::new(11);
    for round in 0..40 {
        let m = 5 + rng.below(30) as usize;
        let n = 20 + rng.below(200) as usize;
        let (start, rows, cost) = random(m, n, 1 + rng.below(6), &mut rng);
        let ones = vec![1.0; m];
        let mut warm = DualSimplex::new(m, &start, &rows, &cost, &ones);
        assert_eq!(warm.solve(u64::MAX, &never), LpStatus::Optimal);
        // Branch as a branch and bound does: a column fixed at 1 or at
        // 0, four times over.
        let mut fixed = Vec::new();
        for _ in 0..4 {
            let j = rng.below(n as u64) as usize;
            let at = if rng.below(2) == 0 { 0.0 } else { 1.0 };
            warm.set_bounds(j, at, at);
            fixed.push((j, at));
            let w = warm.solve(20_000, &never);
            let mut fresh = DualSimplex::new(m, &start, &rows, &cost, &ones);
            for &(j, at) in &fixed {
                fresh.set_bounds(j, at, at);
            }
            let c = fresh.solve(20_000, &never);
            assert_eq!(w, c, "round {round}");
            if w == LpStatus::Optimal {
                certify(&warm);
                assert!((warm.bound() - fresh.bound()).abs() < 1e-6, "round {round}");
            } else {
                break;
            }
        }
        // Then as the tree goes to another node: most columns fixed at
        // 0 (their reduced costs left out of the pivots, out of date),
        // a solve paused, and every column freed again in its middle.
        for j in 0..n {
            if rng.below(3) != 0 {
                warm.set_bounds(j, 0.0, 0.0);
            }
        }
        let _ = warm.solve(1 + rng.below(5), &never);
        for j in 0..n {
            warm.set_bounds(j, 0.0, 1.0);
        }
        let w = warm.solve(20_000, &never);
        let mut cold = DualSimplex::new(m, &start, &rows, &cost, &ones);
        assert_eq!(w, cold.solve(20_000, &never), "round {round}");
        certify(&warm);
        assert!((warm.bound() - cold.bound()).abs() < 1e-6, "round {round}");
    }
}

#[test]
fn degenerate_relaxations_end_too() {
    // Every cover of a tiling costs the same, and columns come twice:
    // ties everywhere, where a dual simplex may cycle.
    let never = AtomicBool::new(false);
    let mut rng = Rng::new(5);
    for round in 0..40 {
        let m = 6 + rng.below(30) as usize;
        let (mut start, mut rows, mut cost) = (vec![0u32], Vec::new(), Vec::new());
        for _ in 0..2 + rng.below(150) {
            let first = rng.below(m as u64) as u32;
            let len = 1 + rng.below(4) as u32;
            let these: Vec<u32> = (first..(first + len).min(m as u32)).collect();
            for _ in 0..1 + rng.below(2) {
                rows.extend(&these);
                start.push(rows.len() as u32);
                cost.push(these.len() as f64);
            }
        }
        // The columns are intervals, whose relaxation is integral: it
        // has a solution when the intervals tile 0..m (left to right).
        let mut reach = vec![false; m + 1];
        reach[0] = true;
        for a in 0..m {
            for j in 0..cost.len() {
                let these = &rows[start[j] as usize..start[j + 1] as usize];
                if reach[a] && these[0] as usize == a {
                    reach[a + these.len()] = true;
                }
            }
        }
        let mut lp = DualSimplex::new(m, &start, &rows, &cost, &vec![1.0; m]);
        let status = lp.solve(100_000, &never);
        assert_eq!(
            status == LpStatus::Optimal,
            reach[m],
            "round {round}: {status:?}"
        );
        if status == LpStatus::Optimal {
            certify(&lp);
            // Each row costs 1 in any cover.
            assert!((lp.bound() - m as f64).abs() < 1e-6, "round {round}");
        } else {
            assert_eq!(status, LpStatus::Infeasible, "round {round}");
        }
    }
}

#[test]
fn rows_that_cannot_be_met_are_infeasible() {
    let never = AtomicBool::new(false);
    // Row 1 is in no column.
    let mut lp = DualSimplex::new(2, &[0, 1, 2], &[0, 0], &[1.0, 2.0], &[1.0, 1.0]);
    assert_eq!(lp.solve(u64::MAX, &never), LpStatus::Infeasible);
    // {0, 1} and {1, 2} and {0, 2}: no partition of {0, 1, 2}, and none
    // by halves either once {0, 2} is out.
    let (start, rows) = ([0, 2, 4, 6], [0, 1, 1, 2, 0, 2]);
    let mut lp = DualSimplex::new(3, &start, &rows, &[1.0; 3], &[1.0; 3]);
    assert_eq!(lp.solve(u64::MAX, &never), LpStatus::Optimal);
    assert!((lp.bound() - 1.5).abs() < 1e-9, "the halves cost 1.5");
    lp.set_bounds(2, 0.0, 0.0);
    assert_eq!(lp.solve(u64::MAX, &never), LpStatus::Infeasible);
}

#[test]
fn cuts_added_to_a_solved_relaxation_give_a_fresh_solves_optimum() {
    let never = AtomicBool::new(false);
    let mut rng = Rng::new(6);
    let (mut raised, mut dropped) = (0, 0);
    for case in 0..40 {
        let m = 8 + rng.below(25) as usize;
        let n = 200;
        let (start, rows, cost) = random(m, n, 5, &mut rng);
        let ones = vec![1.0; m];
        let mut lp = DualSimplex::new(m, &start, &rows, &cost, &ones);
        assert_eq!(lp.solve(u64::MAX, &never), LpStatus::Optimal);
        let before = lp.bound();
        // Cuts on the first n columns (the last m, one a row, can
        // always meet the rows): some on the solution's support.
        let support: Vec<u32> = (0..n as u32)
            .filter(|&j| lp.values()[j as usize] > 1e-9)
            .collect();
        let cuts: Vec<Vec<u32>> = (0..1 + rng.below(6))
            .map(|_| {
                let mut cut: Vec<u32> = (0..2 + rng.below(4))
                    .map(|_| match support.len() {
                        s if s > 0 && rng.below(3) > 0 => support[rng.below(s as u64) as usize],
                        _ => rng.below(n as u64) as u32,
                    })
                    .collect();
                cut.sort_unstable();
                cut.dedup();
                cut
            })
            .collect();
        lp.add_cuts(&cuts);
        assert_eq!(lp.n_rows(), m + cuts.len());
        assert_eq!(lp.solve(u64::MAX, &never), LpStatus::Optimal, "case {case}");
        certify(&lp);
        assert!(lp.bound() >= before - 1e-6, "case {case}: the bound fell");
        // The loose cuts out: the same optimum, with no iteration.
        let mut tight = lp.clone();
        let kept = tight.drop_loose_cuts(m);
        dropped += kept.iter().filter(|&&k| !k).count();
        assert_eq!(tight.n_rows(), m + kept.iter().filter(|&&k| k).count());
        let at = tight.iterations();
        assert_eq!(tight.solve(u64::MAX, &never), LpStatus::Optimal);
        assert_eq!(tight.iterations(), at, "case {case}: the basis moved");
        certify(&tight);
        let (a, b) = (tight.bound(), lp.bound());
        assert!(
            (a - b).abs() < 1e-6 * (1.0 + b.abs()),
            "case {case}: {a} against {b}"
        );
        if lp.bound() > before + 1e-6 {
            raised += 1;
        }
        // The same relaxation written out: each cut a row that sums
        // to 1 with a column of its own, its slack, cost 0.
        let (mut start2, mut rows2) = (vec![0u32], Vec::new());
        for j in 0..n + m {
            rows2.extend_from_slice(&rows[start[j] as usize..start[j + 1] as usize]);
            for (i, cut) in cuts.iter().enumerate() {
                if cut.contains(&(j as u32)) {
                    rows2.push((m + i) as u32);
                }
            }
            start2.push(rows2.len() as u32);
        }
        let mut cost2 = cost.clone();
        for i in 0..cuts.len() {
            rows2.push((m + i) as u32);
            start2.push(rows2.len() as u32);
            cost2.push(0.0);
        }
        let ones2 = vec![1.0; m + cuts.len()];
        let mut fresh = DualSimplex::new(m + cuts.len(), &start2, &rows2, &cost2, &ones2);
        assert_eq!(fresh.solve(u64::MAX, &never), LpStatus::Optimal);
        let (a, b) = (lp.bound(), fresh.bound());
        assert!(
            (a - b).abs() < 1e-6 * (1.0 + b.abs()),
            "case {case}: {a} against {b}"
        );
    }
    assert!(raised > 5, "cuts that raise the bound: {raised} of 40");
    assert!(dropped > 5, "loose cuts dropped: {dropped}");
}

/// Solves random relaxations (costs by `cost` from each column's
/// number of rows and `random`'s cost) whole and in slices of at most
/// `slice` pivots, at the root and after
/// two branchings, as a tree does: the same pivots, values and bound.
/// The pauses that fell while finishing with the true costs.
fn sliced_as_whole(seed: u64, cost: fn(usize, f64, &mut Rng) -> f64, slice: u64) -> usize {
    let never = AtomicBool::new(false);
    let mut rng = Rng::new(seed);
    let mut paused_finishing = 0;
    for case in 0..30 {
        let m = 10 + rng.below(30) as usize;
        let (start, rows, given) = random(m, 300, 6, &mut rng);
        let cost: Vec<f64> = (0..given.len())
            .map(|j| cost((start[j + 1] - start[j]) as usize, given[j], &mut rng))
            .collect();
        let ones = vec![1.0; m];
        let mut whole = DualSimplex::new(m, &start, &rows, &cost, &ones);
        let mut sliced = whole.clone();
        for round in 0..3 {
            if round > 0 {
                let j = rng.below(300) as usize;
                let v = (rng.below(2)) as f64;
                whole.set_bounds(j, v, v);
                sliced.set_bounds(j, v, v);
            }
            let before = whole.iterations();
            let status = whole.solve(u64::MAX, &never);
            let mut calls = 0;
            let paused = loop {
                calls += 1;
                assert!(calls < 100_000, "case {case} round {round}: no end");
                match sliced.solve(1 + rng.below(slice), &never) {
                    LpStatus::IterationLimit => paused_finishing += usize::from(sliced.finishing),
                    s => break s,
                }
            };
            assert_eq!(paused, status, "case {case} round {round}");
            assert_eq!(sliced.iterations(), whole.iterations(), "case {case}");
            assert_eq!(sliced.values(), whole.values(), "case {case}");
            assert_eq!(sliced.bound().to_bits(), whole.bound().to_bits());
            let pivots = whole.iterations() - before;
            assert!(calls > 1 || pivots <= slice, "case {case}: no pause");
        }
    }
    paused_finishing
}

#[test]
fn a_solve_in_slices_takes_the_pivots_of_one_solve() {
    sliced_as_whole(5, |_, given, _| given, 7);
}

#[test]
fn a_solve_paused_while_finishing_goes_on_finishing() {
    // Costs apart by less than their perturbation (100 a row, plus a
    // few millionths): the perturbed optimum is often not the true
    // costs', and finishing takes pivots of its own. A solve paused
    // among them must go on finishing, not start over perturbed, which
    // undid them (in slices of a few pivots it never ended).
    let cost = |rows: usize, _, rng: &mut Rng| 100.0 * rows as f64 + 1e-6 * rng.below(20) as f64;
    let paused_finishing = sliced_as_whole(17, cost, 1);
    assert!(paused_finishing > 0, "no solve was paused while finishing");
}

#[test]
fn a_solve_cut_short_still_bounds_the_optimum() {
    let never = AtomicBool::new(false);
    let mut rng = Rng::new(3);
    for _ in 0..20 {
        let m = 20 + rng.below(20) as usize;
        let (start, rows, cost) = random(m, 400, 6, &mut rng);
        let ones = vec![1.0; m];
        let mut full = DualSimplex::new(m, &start, &rows, &cost, &ones);
        assert_eq!(full.solve(u64::MAX, &never), LpStatus::Optimal);
        let mut short = DualSimplex::new(m, &start, &rows, &cost, &ones);
        let mut last = f64::NEG_INFINITY;
        for _ in 0..5 {
            let status = short.solve(3, &never);
            let b = short.bound();
            assert!(
                b <= full.bound() + 1e-6,
                "{b} past the optimum {}",
                full.bound()
            );
            // The dual objective never falls.
            assert!(b >= last - 1e-6, "{b} fell from {last}");
            last = b;
            if status == LpStatus::Optimal {
                break;
            }
        }
    }
    let mut lp = DualSimplex::new(1, &[0, 1], &[0], &[1.0], &[1.0]);
    assert_eq!(
        lp.solve(u64::MAX, &AtomicBool::new(true)),
        LpStatus::Stopped
    );
    // Stopped in an inversion, then resumed.
    let (start, rows, cost) = random(30, 600, 6, &mut rng);
    let mut lp = DualSimplex::new(30, &start, &rows, &cost, &[1.0; 30]);
    assert_eq!(lp.solve(20, &never), LpStatus::IterationLimit);
    assert!(lp.head.iter().any(|&k| k < lp.n), "columns in the basis");
    lp.since_refactor = REFACTOR;
    let stop = AtomicBool::new(true);
    assert_eq!(lp.solve(u64::MAX, &stop), LpStatus::Stopped);
    assert!(lp.since_refactor >= REFACTOR, "the inversion is still due");
    assert_eq!(lp.solve(20_000, &never), LpStatus::Optimal);
    certify(&lp);
}

#[test]
fn the_wide_loops_give_the_plain_loops_bits() {
    // (Where the processor has no AVX both sides are the plain loop.)
    let mut rng = Rng::new(63);
    for len in [0, 1, 3, 4, 5, 17, 64, 823] {
        let x: Vec<f64> = (0..len)
            .map(|_| rng.below(1 << 20) as f64 / 7.0 - 70_000.0)
            .collect();
        let start: Vec<f64> = (0..len).map(|_| rng.below(1000) as f64 / 3.0).collect();
        let c = -1.0 / 3.0;
        let (mut a, mut b) = (start.clone(), start.clone());
        let na = row_less(&mut a, c, &x, wide_vectors());
        let nb = row_less(&mut b, c, &x, false);
        assert_eq!(na.to_bits(), nb.to_bits());
        let bits = |v: &[f64]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&a), bits(&b));
        for (i, v) in a.iter().enumerate() {
            assert_eq!(v.to_bits(), (start[i] - c * x[i]).to_bits());
        }
        let (mut a, mut b) = (start.clone(), start);
        add_times(&mut a, c, &x, wide_vectors());
        add_times(&mut b, c, &x, false);
        assert_eq!(bits(&a), bits(&b));
    }
}
