use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::neighbourhood::Neighbourhoods;
use super::portfolio::Given;
use super::race::{TREE_AFTER, TREE_EARLY};
use super::{Cheapest, MinCost};
use crate::core::problem::CompiledProblem;
use crate::core::rng::Rng;
use crate::core::sliced::{Poll, Slice, Sliced};
use crate::cost::partition::Partition;
use crate::cost::pricing::{CostError, Priced};
use crate::cost::testing;

/// Every solution's cost, cheapest first, by trying every subset of
/// options.
fn brute(p: &CompiledProblem, costs: &[u64]) -> Vec<u64> {
    let all = p.every_solution_by_subsets(costs);
    all.into_iter().map(|s| s.0).collect()
}

fn random_problem(rng: &mut Rng) -> (CompiledProblem, Vec<u64>) {
    loop {
        let n_primary = 1 + rng.below(5) as u32;
        let n_secondary = rng.below(3) as u32;
        let n_items = n_primary + n_secondary;
        let n_options = 1 + rng.below(12) as usize;
        let multi = rng.below(3) == 0;
        let (mut lo, mut hi) = (
            vec![1u32; n_primary as usize],
            vec![1u32; n_primary as usize],
        );
        if multi {
            for i in 0..n_primary as usize {
                lo[i] = rng.below(3) as u32;
                hi[i] = lo[i].max(1) + rng.below(2) as u32;
            }
        }
        let (mut start, mut item, mut color) = (vec![0u32], Vec::new(), Vec::new());
        for _ in 0..n_options {
            let mut has = false;
            for i in 0..n_items {
                if rng.below(3) == 0 {
                    item.push(i);
                    has |= i < n_primary;
                    color.push(if i >= n_primary {
                        rng.below(3) as u32
                    } else {
                        0
                    });
                }
            }
            if !has {
                item.push(rng.below(n_primary as u64) as u32);
                color.push(0);
            }
            start.push(item.len() as u32);
        }
        let costs = (0..n_options).map(|_| rng.below(10)).collect();
        if let Ok(p) = CompiledProblem::new(n_primary, n_secondary, lo, hi, start, item, color) {
            return (p, costs);
        }
    }
}

/// The search's K best are the brute force's (`all`, every cost):
/// their costs, each a solution at its cost, none twice.
fn assert_best(
    m: &Cheapest,
    p: &CompiledProblem,
    costs: &[u64],
    all: &[u64],
    k: usize,
    links: bool,
) {
    assert_kept(m.best(), p, costs, all, k, links);
}

/// [`assert_best`] on the solutions kept, `best`.
fn assert_kept(
    best: Vec<(u64, Vec<u32>)>,
    p: &CompiledProblem,
    costs: &[u64],
    all: &[u64],
    k: usize,
    links: bool,
) {
    let got: Vec<u64> = best.iter().map(|b| b.0).collect();
    let want: Vec<u64> = all.iter().copied().take(k).collect();
    assert_eq!(
        got, want,
        "k={k} links={links} costs={costs:?} problem={p:?}"
    );
    for (c, opts) in &best {
        assert!(p.is_solution(opts));
        assert_eq!(*c, opts.iter().map(|&o| costs[o as usize]).sum::<u64>());
    }
    let mut sets: Vec<&Vec<u32>> = best.iter().map(|b| &b.1).collect();
    sets.sort();
    sets.dedup();
    assert_eq!(sets.len(), best.len(), "a solution twice");
}

#[test]
fn the_k_best_costs_agree_with_brute_force() {
    let mut rng = Rng::new(7);
    for _ in 0..3000 {
        let (p, costs) = random_problem(&mut rng);
        let all = brute(&p, &costs);
        for (k, links) in [
            (1usize, true),
            (2, true),
            (3, true),
            (5, true),
            (1, false),
            (3, false),
            (5, false),
        ] {
            let mut m = Cheapest::new(&p, &costs, k, links, &AtomicBool::new(false)).unwrap();
            // In small slices, to go through every resumption.
            while m.run(Slice::work(3)) == Poll::Pending {}
            assert_best(&m, &p, &costs, &all, k, links);
        }
    }
}

#[test]
fn the_k_best_agree_with_brute_force_when_the_search_starts_over() {
    let mut rng = Rng::new(13);
    let mut restarts = 0;
    for _ in 0..3000 {
        let (p, costs) = random_problem(&mut rng);
        let all = brute(&p, &costs);
        for (k, links) in [(1usize, true), (2, true), (4, true), (1, false), (3, false)] {
            let mut m = Cheapest::new(&p, &costs, k, links, &AtomicBool::new(false)).unwrap();
            m.start_over_soon();
            while m.run(Slice::work(1)) == Poll::Pending {}
            restarts += m.started_over() as u32;
            assert_best(&m, &p, &costs, &all, k, links);
        }
    }
    // (Enough searches started over for the agreement to say something.)
    assert!(restarts > 1000, "{restarts} restarts");
}

/// Random set partitioning problems: a few random partitions of the
/// items (so that there are solutions), and random options beside.
fn random_partition_problem(rng: &mut Rng) -> (CompiledProblem, Vec<u64>) {
    loop {
        let n = 1 + rng.below(7) as u32;
        let mut options = Vec::new();
        for _ in 0..1 + rng.below(2) {
            options.extend(testing::partition(rng, n, |rng, left| {
                1 + rng.below(left.min(3) as u64) as usize
            }));
        }
        while options.len() < 14 && rng.below(3) != 0 {
            let o = testing::subset(rng, n);
            if !o.is_empty() {
                options.push(o);
            }
        }
        if options.len() <= 14
            && let Some(priced) = testing::priced(rng, n, &options, 20)
        {
            return priced;
        }
    }
}

#[test]
fn the_branch_and_bound_on_set_partitions_agrees_with_brute_force() {
    let mut rng = Rng::new(17);
    let mut tried = 0;
    for round in 0..4000 {
        let (p, costs) = if round % 2 == 0 {
            random_partition_problem(&mut rng)
        } else {
            random_problem(&mut rng)
        };
        if !Partition::suits(&p, &costs) {
            continue;
        }
        tried += 1;
        let all = brute(&p, &costs);
        for k in [1usize, 2, 3, 5] {
            let mut s = Partition::new(&p, &costs, k, &AtomicBool::new(false)).unwrap();
            while !s.search_for(1) {}
            assert!(s.is_complete());
            assert_kept(s.ledger().best(), &p, &costs, &all, k, false);
            // As a heuristic: true solutions, and the K best when it
            // left no branch.
            let mut h = Partition::new(&p, &costs, k, &AtomicBool::new(false)).unwrap();
            h.set_patience(1);
            while !h.search_for(1) {}
            let best = h.ledger().best();
            for (i, (c, opts)) in best.iter().enumerate() {
                assert!(p.is_solution(opts));
                assert_eq!(*c, opts.iter().map(|&o| costs[o as usize]).sum::<u64>());
                assert!(*c >= all[i]);
            }
            if h.is_complete() {
                assert_kept(best, &p, &costs, &all, k, false);
            }
        }
    }
    assert!(tried > 1500, "{tried} problems");
}

#[test]
fn the_k_best_agree_with_brute_force_when_the_search_dives() {
    let mut rng = Rng::new(19);
    let (mut dives, mut proofs) = (0, 0);
    for _ in 0..3000 {
        let (p, costs) = random_partition_problem(&mut rng);
        let all = brute(&p, &costs);
        for k in [1usize, 2, 4] {
            let mut m = Cheapest::new(&p, &costs, k, true, &AtomicBool::new(false)).unwrap();
            let Some(d) = m.dive.as_mut() else {
                continue;
            };
            // A dive at once, short, as impatient as can be.
            d.at = 0;
            d.share = [0, 1, 1 << 40][rng.below(3) as usize];
            d.patience = rng.below(3);
            m.check_soon();
            dives += 1;
            while m.run(Slice::work(1)) == Poll::Pending {}
            proofs += m.proven as u32;
            assert_best(&m, &p, &costs, &all, k, true);
        }
    }
    // (Enough dives, and dives that were proofs, for this to say something.)
    assert!(
        dives > 5000 && proofs > 100,
        "{dives} dives, {proofs} proofs"
    );
}

#[test]
fn the_k_best_agree_with_brute_force_when_the_options_are_merged_beside() {
    // The search of the given problem first, then the merged problem's
    // with its solutions, at any point: the K best are the same.
    let mut rng = Rng::new(29);
    let (mut switched, mut seeded) = (0, 0);
    for round in 0..6000 {
        let (p, costs) = if round % 2 == 0 {
            random_partition_problem(&mut rng)
        } else {
            crate::cost::together::tests::random_partition(&mut rng)
        };
        let all = brute(&p, &costs);
        for (k, links) in [(1usize, true), (3, true), (1, false), (2, false)] {
            let mut m = Cheapest::new(&p, &costs, k, links, &AtomicBool::new(false)).unwrap();
            if !m.merge_soon(rng.below(12), 1 + rng.below(3)) {
                continue;
            }
            let mut found_before = false;
            while m.run(Slice::work(1 + rng.below(3))) == Poll::Pending {
                found_before |= !m.merged() && m.ledger().optimum().is_some();
            }
            switched += m.merged() as u32;
            seeded += (m.merged() && found_before) as u32;
            assert_best(&m, &p, &costs, &all, k, links);
        }
    }
    // (Enough searches switched, some with solutions to take along.)
    assert!(
        switched > 1000 && seeded > 100,
        "{switched} switched, {seeded} with solutions"
    );
}

#[test]
fn the_k_best_agree_with_brute_force_when_the_tree_races() {
    let mut rng = Rng::new(23);
    let (mut races, mut proofs) = (0, 0);
    for _ in 0..1500 {
        let (p, costs) = random_partition_problem(&mut rng);
        let all = brute(&p, &costs);
        for k in [1usize, 2, 4] {
            let mut m = Cheapest::new(&p, &costs, k, true, &AtomicBool::new(false)).unwrap();
            m.race_soon();
            while m.run(Slice::work(1)) == Poll::Pending {}
            races += m.racing() as u32;
            proofs += (m.racing() && m.proven) as u32;
            assert_best(&m, &p, &costs, &all, k, true);
        }
    }
    // (Enough races, and races the tree won, for this to say something.)
    assert!(
        races > 1000 && proofs > 100,
        "{races} races, {proofs} proofs"
    );
}

/// A set partitioning problem of `n` items: three planted partitions
/// into blocks of 2-5 items, then random options of 2-5 items up to
/// `n_options`, each costing below 100.
fn planted_partition_problem(
    rng: &mut Rng,
    n: u32,
    n_options: usize,
) -> (CompiledProblem, Vec<u64>) {
    let mut options = Vec::new();
    for _ in 0..3 {
        options.extend(testing::partition(rng, n, |rng, _| {
            2 + rng.below(4) as usize
        }));
    }
    while options.len() < n_options {
        let k = 2 + rng.below(4) as usize;
        options.push(testing::distinct(rng, n, k));
    }
    testing::priced(rng, n, &options, 100).expect("a problem")
}

#[test]
fn the_tree_joins_early_where_the_search_has_no_near_cover() {
    // 80 items, 8,000 options: the search on dancing links has no cover
    // within TREE_FAR of its prices' bound after TREE_EARLY options
    // removed, so the tree joins then, long before TREE_AFTER. (That
    // the race's answers are right is the brute-force tests' work.)
    let mut rng = Rng::new(5);
    let (p, costs) = planted_partition_problem(&mut rng, 80, 8_000);
    let mut m = Cheapest::new(&p, &costs, 1, true, &AtomicBool::new(false)).unwrap();
    let mut joined_at = None;
    while m.run(Slice::work(1000)) == Poll::Pending {
        if joined_at.is_none() && m.racing() {
            joined_at = Some(m.removed());
        }
    }
    let at = joined_at.expect("the tree joined");
    assert!(
        (TREE_EARLY..TREE_AFTER).contains(&at),
        "joined after {at} options removed"
    );
    let (_, best) = &m.best()[0];
    assert!(p.is_solution(best));
}

#[test]
fn a_tree_that_gives_up_leaves_its_counters_and_the_answer() {
    // The tree made to give up as soon as it joins: the search goes on
    // alone to the same optimum, and its counters never go back (the
    // binding's driver counts the work of a slice by their difference:
    // a tree's nodes lost made it wrap, and the search end unproven).
    let mut rng = Rng::new(5);
    let (p, costs) = planted_partition_problem(&mut rng, 80, 8_000);
    let never = AtomicBool::new(false);
    let mut alone = Cheapest::new(&p, &costs, 1, true, &never).unwrap();
    alone.race = None;
    assert_eq!(alone.run(Slice::ALL), Poll::Ready(()));
    let mut m = Cheapest::new(&p, &costs, 1, true, &never).unwrap();
    let (mut nodes, mut gave_up) = (0, false);
    while m.run(Slice::work(1000)) == Poll::Pending {
        let now = m.stats().nodes;
        assert!(now >= nodes, "the nodes went from {nodes} back to {now}");
        nodes = now;
        if let Some(tree) = m.race.as_mut().and_then(|r| r.tree.as_mut())
            && tree.stats().nodes > 0
        {
            tree.give_up_now();
            gave_up = true;
        }
    }
    assert!(gave_up && m.race.is_none(), "the tree joined and gave up");
    assert!(m.stats().nodes >= nodes);
    assert!(m.is_done());
    assert_eq!(m.ledger().optimum(), alone.ledger().optimum());
}

#[test]
fn costs_too_big_for_fractional_prices_still_agree() {
    // Costs past 2^55: no room to scale them, so whole prices only.
    let mut rng = Rng::new(11);
    for _ in 0..500 {
        let (p, small) = random_problem(&mut rng);
        let costs: Vec<u64> = small.iter().map(|&c| (c + 1) << 55).collect();
        let all = brute(&p, &costs);
        let mut m = MinCost::new(&p, &costs, 3).unwrap();
        assert_eq!(m.ledger.priced.scale, 1);
        assert_eq!(m.run(Slice::ALL), Poll::Ready(()));
        let got: Vec<u64> = m.ledger().best().iter().map(|b| b.0).collect();
        assert_eq!(got, all.into_iter().take(3).collect::<Vec<_>>());
    }
}

#[test]
fn costs_too_big_are_refused() {
    let p =
        CompiledProblem::new(1, 0, vec![1], vec![1], vec![0, 1, 2], vec![0, 0], vec![]).unwrap();
    assert_eq!(
        MinCost::new(&p, &[u64::MAX / 2 + 1, u64::MAX / 2], 1).err(),
        Some(CostError::TooLarge)
    );
    assert!(MinCost::new(&p, &[u64::MAX / 2, u64::MAX / 2], 1).is_ok());
    assert_eq!(
        MinCost::new(&p, &[1], 1).err(),
        Some(CostError::Length {
            expected: 2,
            got: 1
        })
    );
}

#[test]
fn the_race_is_the_same_however_its_slices_fall() {
    // A driver sizes its slices by the clock, so that on a busy machine
    // they fall elsewhere: the race (the tree joins early here, see above)
    // decides only at check points of its work, and takes the same turns,
    // counts the same nodes and keeps the same solutions whatever the
    // slices, at any point of its work.
    let mut rng = Rng::new(5);
    let (p, costs) = planted_partition_problem(&mut rng, 80, 8_000);
    let run = |sizes: &mut dyn FnMut() -> u64, stop_at: u64| {
        let mut m = Cheapest::new(&p, &costs, 2, true, &AtomicBool::new(false)).unwrap();
        let mut raced = false;
        while m.stats().nodes < stop_at {
            let left = stop_at - m.stats().nodes;
            if m.run(Slice::work(sizes().min(left))) == Poll::Ready(()) {
                break;
            }
            raced |= m.racing();
        }
        let s = m.stats();
        (raced, s.nodes, s.updates, s.improvements, m.best())
    };
    let mut slicer = Rng::new(9);
    // (The tree joins after 1.25M nodes, and takes turns until 1.4M.)
    let part = run(&mut || 1000, 1_400_000);
    assert!(part.0, "the tree raced");
    assert_eq!(run(&mut || 1 + slicer.below(7), 1_400_000), part);
    assert_eq!(run(&mut || 1 + slicer.below(5000), 1_400_000), part);
}

/// A crew-like set partition (see `benchmarks/setpartition.py`): items in
/// a line, three planted partitions of it into stretches of 2-6 items
/// (the first of them the options `0..`), and options of 2-6 items drawn
/// from a window of 10, each costing 10 an item plus up to 9.
fn local_partition_problem(rng: &mut Rng, n: u32, n_options: usize) -> (CompiledProblem, Vec<u64>) {
    let mut options: Vec<Vec<u32>> = Vec::new();
    for _ in 0..3 {
        let mut at = 0;
        while at < n {
            let len = (2 + rng.below(5) as u32).min(n - at);
            options.push((at..at + len).collect());
            at += len;
        }
    }
    while options.len() < n_options {
        let from = rng.below(n as u64 - 1) as u32;
        let window = 10.min(n - from);
        let k = (2 + rng.below(5) as usize).min(window as usize);
        options.push(
            testing::distinct(rng, window, k)
                .iter()
                .map(|&i| from + i)
                .collect(),
        );
    }
    let (mut start, mut item) = (vec![0u32], Vec::new());
    for o in &options {
        item.extend_from_slice(o);
        start.push(item.len() as u32);
    }
    let costs = options
        .iter()
        .map(|o| 10 * o.len() as u64 + rng.below(10))
        .collect();
    (
        CompiledProblem::set_partition(n, start, item).expect("a problem"),
        costs,
    )
}

/// The first planted partition of [`local_partition_problem`]: options
/// `0..` up to the first that holds item 0 again.
fn first_planted(p: &CompiledProblem) -> Vec<u32> {
    let mut taken = vec![0u32];
    while !p.option(taken.len()).contains(&0) {
        taken.push(taken.len() as u32);
    }
    taken
}

#[test]
fn a_neighbourhood_gives_a_cheaper_solution_or_none() {
    // From a planted partition, neighbourhood after neighbourhood: each
    // answer a solution of the whole problem at the sum of its costs, and
    // cheaper than the one it came from; never below the optimum (the
    // search on dancing links, run to its end).
    let mut rng = Rng::new(41);
    let (mut searched, mut improved, mut reached) = (0u64, 0u64, 0u64);
    for round in 0..60 {
        let n = 20 + rng.below(40) as u32;
        let (p, costs) = local_partition_problem(&mut rng, n, 4 * n as usize);
        let mut solution = first_planted(&p);
        assert!(p.is_solution(&solution));
        let mut cost: u64 = solution.iter().map(|&o| costs[o as usize]).sum();
        let priced = Priced::new(&p, &costs, None, &AtomicBool::new(false)).unwrap();
        let given = Arc::new(Given {
            problem: p.clone(),
            costs: costs.clone(),
        });
        let mut n = Neighbourhoods::new(given, u64::MAX);
        for _ in 0..20 {
            searched += 1;
            if let Some((better, options)) = n.improve(&solution, &priced) {
                assert!(p.is_solution(&options), "round {round}");
                assert_eq!(
                    better,
                    options.iter().map(|&o| costs[o as usize]).sum::<u64>()
                );
                assert!(better < cost, "round {round}: {better} after {cost}");
                (cost, solution) = (better, options);
            }
        }
        improved += n.improved;
        let mut m = MinCost::new_until(&p, &costs, 1, &AtomicBool::new(false)).unwrap();
        assert!(m.search_for(u64::MAX));
        let optimum = m.ledger().optimum().expect("a solution");
        assert!(
            cost >= optimum,
            "round {round}: {cost} below the optimum {optimum}"
        );
        reached += (cost == optimum) as u64;
    }
    // (Enough improvements, and optima reached, for this to say something.)
    assert!(
        improved > 100 && reached > 10,
        "{improved} improved in {searched}, {reached} optima reached"
    );
}

#[test]
fn the_cheapest_agrees_with_the_search_alone_when_neighbourhoods_are_searched() {
    // Problems big enough for check points: the neighbourhoods give the
    // search better solutions to beat, and the answer is the same optimum.
    let mut rng = Rng::new(43);
    let mut improved = 0;
    for _ in 0..12 {
        let n = 60 + rng.below(60) as u32;
        let (p, costs) = local_partition_problem(&mut rng, n, 12 * n as usize);
        let mut alone = MinCost::new_until(&p, &costs, 1, &AtomicBool::new(false)).unwrap();
        assert!(alone.search_for(u64::MAX));
        let optimum = alone.ledger().optimum();
        for links in [true, false] {
            let mut m = Cheapest::new(&p, &costs, 1, links, &AtomicBool::new(false)).unwrap();
            while m.run(Slice::work(100)) == Poll::Pending {
                improved = improved.max(m.lns.as_ref().map_or(0, |n| n.improved));
            }
            let best = m.best();
            assert_eq!(best.first().map(|b| b.0), optimum, "links={links}");
            assert!(p.is_solution(&best[0].1));
        }
    }
    assert!(improved > 0, "no neighbourhood improved");
}

#[test]
fn the_neighbourhoods_are_the_same_however_the_slices_fall() {
    // They are searched at check points of the work only: the same
    // solutions and counters at any point, whatever the slices.
    let mut rng = Rng::new(47);
    let (p, costs) = local_partition_problem(&mut rng, 300, 4_000);
    for links in [true, false] {
        let run = |sizes: &mut dyn FnMut() -> u64, stop_at: u64| {
            let mut m = Cheapest::new(&p, &costs, 1, links, &AtomicBool::new(false)).unwrap();
            let mut improved = 0;
            while m.stats().nodes < stop_at {
                let left = stop_at - m.stats().nodes;
                if m.run(Slice::work(sizes().min(left))) == Poll::Ready(()) {
                    break;
                }
                improved = improved.max(m.lns.as_ref().map_or(0, |n| n.improved));
            }
            let s = m.stats();
            (improved, s.nodes, s.updates, s.improvements, m.best())
        };
        let mut slicer = Rng::new(9);
        let part = run(&mut || 1000, 30_000);
        assert!(part.0 > 0, "links={links}: no neighbourhood improved");
        assert_eq!(run(&mut || 1 + slicer.below(7), 30_000), part);
        assert_eq!(run(&mut || 1 + slicer.below(5000), 30_000), part);
    }
}
