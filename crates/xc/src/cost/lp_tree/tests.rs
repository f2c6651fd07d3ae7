use super::*;
use crate::core::rng::Rng;
use crate::cost::testing;

/// A set partitioning problem of `m` rows and `n` columns of 1 to
/// `most` rows each, costs below `dear` (every row in some column).
fn random(rng: &mut Rng, m: u32, n: usize, most: u64, dear: u64) -> (CompiledProblem, Vec<u64>) {
    let columns = testing::covering_columns(rng, m, n, most);
    testing::priced(rng, m, &columns, dear).expect("a problem")
}

/// The tree's K best against `all` solutions: the same costs, each a
/// solution at its cost, none twice.
fn assert_best(t: &LpTree, p: &CompiledProblem, costs: &[u64], all: &[u64], k: usize) {
    let best = t.ledger().best();
    let got: Vec<u64> = best.iter().map(|s| s.0).collect();
    assert_eq!(got, all[..k.min(all.len())].to_vec());
    for (cost, options) in &best {
        assert!(p.is_solution(options));
        assert_eq!(
            *cost,
            options.iter().map(|&o| costs[o as usize]).sum::<u64>()
        );
    }
    let mut distinct: Vec<&Vec<u32>> = best.iter().map(|s| &s.1).collect();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), best.len());
}

#[test]
fn the_k_best_are_the_brute_forces() {
    let mut rng = Rng::new(60);
    let (mut cut, mut past) = (0, 0);
    for case in 0..300 {
        let m = 2 + rng.below(7) as u32;
        let n = m as usize + rng.below(14 - m as u64 + 1) as usize;
        // (Some with every cost alike: degenerate relaxations and ties.)
        let dear = [1, 4, 30, 1 << 40][case % 4];
        let (p, costs) = random(&mut rng, m, n, 3, dear);
        let all: Vec<u64> = p
            .every_solution_by_subsets(&costs)
            .into_iter()
            .map(|s| s.0)
            .collect();
        for k in [1, 2, 5] {
            let mut t = LpTree::new(&p, &costs, k).unwrap();
            // (Half with strong branching on a tight budget.)
            if case % 2 == 1 {
                (t.strong_share, t.strong_free) = (0.0, 0);
            }
            // Slices of one iteration: every step is cut and resumed.
            let mut calls = 0;
            while !t.search_for(1) {
                calls += 1;
                assert!(calls < 1_000_000, "case {case}: the tree does not end");
            }
            // (Ties at the K-th place may keep either solution.)
            assert_best(&t, &p, &costs, &all, k);
            cut += usize::from(!t.cuts.is_empty());
            // (None begun past the budget: the first trial spends
            // it, and its column's other side is tried too.)
            if case % 2 == 1 {
                assert!(
                    t.trials <= 2,
                    "case {case}: {} trials past the budget",
                    t.trials
                );
            }
            past += usize::from(t.past_budget > 0);
        }
    }
    // (Cuts at some roots: they cut no solution away.)
    assert!(cut > 10, "cuts kept at {cut} roots");
    // (About one tree in a hundred has such nodes: 8 of these 900.)
    assert!(
        past >= 5,
        "nodes branched on by pseudocosts alone in {past} trees"
    );
}

#[test]
fn a_seeded_cost_to_beat_cuts_restarts_and_sifts_without_loss() {
    let mut rng = Rng::new(61);
    let mut sifted = 0;
    for case in 0..200 {
        let m = 3 + rng.below(6) as u32;
        let n = m as usize + rng.below(14 - m as u64 + 1) as usize;
        let (p, costs) = random(&mut rng, m, n, 3, 50);
        let all = p.every_solution_by_subsets(&costs);
        if all.is_empty() {
            continue;
        }
        let costs_only: Vec<u64> = all.iter().map(|s| s.0).collect();
        let k = 1 + case % 3;
        // A solution seeded: the dearest (a poor cost to beat), or the
        // one just past the K best (a tight one, when K = 1).
        let known = if case % 2 == 0 {
            all.len() - 1
        } else {
            k.min(all.len() - 1)
        };
        let mut t = LpTree::new(&p, &costs, k).unwrap();
        // Half sifted from one column a row (the known cover's with
        // them), and of those half not reduced, as the biggest are not.
        if case % 4 >= 2 {
            (t.sift_columns, t.sift_per_row) = (1, 1);
            if case % 8 >= 4 {
                t.reduce_entries = 0;
            }
        }
        t.seed(vec![all[known].clone()]);
        while !t.search_for(7) {}
        assert_best(&t, &p, &costs, &costs_only, k);
        sifted += usize::from(t.pricings > 0);
    }
    assert!(sifted > 30, "columns added by pricing at {sifted} roots");
}

#[test]
fn bigger_problems_agree_with_the_lagrangian_branch_and_bound() {
    let mut rng = Rng::new(62);
    for case in 0..12 {
        let (p, costs) = random(&mut rng, 24, 120 + 20 * case, 5, 100);
        let k = [1, 3, 10][case % 3];
        // (partition.rs: a bound from the volume algorithm at each
        // node, branching on items; complete without patience.)
        let mut other = Partition::new(&p, &costs, k, &AtomicBool::new(false)).unwrap();
        assert!(other.search_for(u64::MAX) && other.is_complete());
        let dl: Vec<u64> = other.ledger().best().iter().map(|s| s.0).collect();
        let mut t = LpTree::new(&p, &costs, k).unwrap();
        // (Sifted in every other pair.)
        if case % 4 >= 2 {
            (t.sift_columns, t.sift_per_row) = (30, 2);
        }
        if case % 2 == 1 {
            // A poor solution known: fixing, reductions, restarts.
            if let Some(worst) = other.ledger().best().last() {
                t.seed(vec![worst.clone()]);
            }
        }
        while !t.search_for(50) {}
        assert_best(&t, &p, &costs, &dl, k);
        if dl.len() == k {
            assert!(t.stats().nodes >= 1);
        }
    }
}
