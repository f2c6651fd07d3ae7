//! Pieces: frontiers of paused searches, splits, and pools of threads all
//! add up to the count of the whole search, on random problems with every
//! feature (secondary items, colors, multiplicities) and on known ones.
mod common;

use common::*;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use xc::{CompiledProblem, Engine, Move, Piece, Pool, Rng, Search, Shared, Slice, split};

fn random(rng: &mut Rng) -> CompiledProblem {
    let multiplicities = rng.below(3) == 0;
    let shape = Shape {
        primary: 5,
        secondary: 2,
        options: 16,
        density: 35,
        colors: true,
        multiplicities,
    };
    random_problem(rng, &shape)
}

fn count_piece(p: &Arc<CompiledProblem>, moves: &[Move], engine: Engine) -> u64 {
    let mut s = Search::with_engine(p.clone(), None, engine);
    if s.apply(moves) { s.count_all() } else { 0 }
}

/// Pausing after `k` nodes, or after `k` updates (then Algorithms X and C
/// may pause between two tries of a level): the count so far plus the
/// frontier's counts is the total.
fn check_frontiers(p: &Arc<CompiledProblem>, engine: Engine) {
    let total = count_piece(p, &[], Engine::Cells);
    let by_nodes = (0..12u64).map(Slice::work);
    let by_updates = (0..40u64).map(|k| Slice {
        updates: Some(k),
        ..Slice::ALL
    });
    for slice in by_nodes.chain(by_updates) {
        let mut s = Search::with_engine(p.clone(), None, engine);
        let poll = s.count_in(slice, u64::MAX);
        let k = slice.work.min(slice.updates.unwrap_or(u64::MAX));
        let mut sum = s.stats().solutions;
        if poll.is_pending() {
            sum += s
                .frontier()
                .iter()
                .map(|f| count_piece(p, f, engine))
                .sum::<u64>();
        }
        assert_eq!(sum, total, "paused at {k} in {p:?} ({engine:?})");
    }
}

#[test]
fn frontiers_add_up_on_random_problems() {
    let mut rng = Rng::new(9);
    for _ in 0..800 {
        let p = Arc::new(random(&mut rng));
        check_frontiers(&p, Engine::Cells);
        check_frontiers(&p, Engine::Bits);
    }
}

#[test]
fn children_and_splits_partition_the_solutions() {
    let mut rng = Rng::new(10);
    for k in 0..500 {
        let p = Arc::new(random(&mut rng));
        let brute = brute_force(&p).len() as u64;
        for engine in [Engine::Cells, Engine::Bits] {
            let mut s = Search::with_engine(p.clone(), None, engine);
            match s.children() {
                None => assert_eq!(brute, 1),
                Some(children) => {
                    let sum: u64 = children.iter().map(|c| count_piece(&p, c, engine)).sum();
                    assert_eq!(sum, brute, "children of {p:?} ({engine:?})");
                }
            }
            let pieces = split(&p, &[vec![]], 1 + k % 7, 4, k as u64, engine);
            let sum: u64 = pieces
                .iter()
                .map(|e| count_piece(&p, &e.moves, engine))
                .sum();
            assert_eq!(sum, brute, "split of {p:?} ({engine:?})");
        }
    }
}

#[test]
fn pools_count_the_same_with_any_number_of_threads() {
    let problems = [
        Arc::new(l_tromino(7, Some(0))),
        Arc::new(queens(8)),
        Arc::new(l_tromino(6, None)),
    ];
    let expected = [l_tromino_count(7, Some(0)), 92, l_tromino_count(6, None)];
    for (p, &e) in problems.iter().zip(&expected) {
        for engine in [Engine::Cells, Engine::Bits] {
            for threads in [1, 2, 4] {
                let pieces = split(p, &[vec![]], 3 * threads, 8, 1, engine)
                    .into_iter()
                    .map(|x| x.moves)
                    .collect();
                let shared = Shared::default();
                let report =
                    Pool::new(p.clone(), threads, engine).count(Piece::equal(pieces, 1.0), &shared);
                assert_eq!(report.solutions, e, "{threads} threads, {engine:?}");
                assert!(report.leftover.is_empty());
                // Every piece made (work stealing too) is done with, and the
                // weights make the whole tree.
                let made = shared.pieces_made.load(Ordering::Relaxed);
                assert_eq!(shared.pieces_done.load(Ordering::Relaxed), made);
                assert!((shared.fraction() - 1.0).abs() < 1e-9);
            }
        }
    }
    let mut rng = Rng::new(11);
    for _ in 0..200 {
        let p = Arc::new(random(&mut rng));
        let total = count_piece(&p, &[], Engine::Cells);
        for threads in [1, 3] {
            let report = Pool::new(p.clone(), threads, Engine::Cells)
                .count(Piece::equal(vec![vec![]], 1.0), &Shared::default());
            assert_eq!(report.solutions, total);
        }
    }
}

#[test]
fn a_budget_gives_back_the_rest_as_pieces() {
    let p = Arc::new(l_tromino(8, Some(0)));
    for engine in [Engine::Cells, Engine::Bits] {
        let mut pool = Pool::new(p.clone(), 2, engine);
        pool.node_budget = Some(100);
        let shared = Shared::default();
        let mut pieces = Piece::equal(vec![vec![]], 1.0);
        let mut total = 0;
        let mut rounds = 0;
        let mut fraction = 0.0;
        while !pieces.is_empty() {
            shared.stop.store(false, Ordering::Relaxed);
            let report = pool.count(pieces, &shared);
            total += report.solutions;
            pieces = report.leftover;
            rounds += 1;
            // The work done only grows, and with the weights left it makes the whole.
            let left: f64 = pieces.iter().map(|p| p.weight).sum();
            assert!(shared.fraction() >= fraction - 1e-12);
            assert!((shared.fraction() + left - 1.0).abs() < 1e-9, "{engine:?}");
            fraction = shared.fraction();
        }
        assert_eq!(total, l_tromino_count(8, Some(0)));
        assert!((fraction - 1.0).abs() < 1e-9);
        assert!(rounds > 2, "{rounds}");
    }
}

/// A stop from outside (Ctrl-C, cancel) ends a count without its frontier:
/// the report says it is not complete, the pieces no thread started come
/// back whole, and what was counted is at most the total.
#[test]
fn a_stop_from_outside_is_not_a_complete_count() {
    let p = Arc::new(l_tromino(8, Some(0)));
    for engine in [Engine::Cells, Engine::Bits] {
        let pool = Pool::new(p.clone(), 2, engine);
        let pieces: Vec<Vec<Move>> = split(&p, &[vec![]], 40, 2, 1, engine)
            .into_iter()
            .map(|e| e.moves)
            .collect();
        let n = pieces.len();
        // Raised before the run: nothing is started, every piece comes back.
        let shared = Shared::default();
        shared.stop.store(true, Ordering::Relaxed);
        let report = pool.count(Piece::equal(pieces.clone(), 1.0), &shared);
        assert!(!report.complete);
        assert_eq!((report.solutions, report.leftover.len()), (0, n));
        // Raised during the run.
        let shared = Shared::default();
        let report = std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(std::time::Duration::from_millis(5));
                shared.stop.store(true, Ordering::Relaxed);
            });
            pool.count(Piece::equal(pieces.clone(), 1.0), &shared)
        });
        if report.complete {
            assert_eq!(report.solutions, 30355, "{engine:?}");
            assert!(report.leftover.is_empty());
        } else {
            assert!(report.solutions < 30355, "{engine:?}");
        }
        // Run to the end: complete.
        let report = pool.count(Piece::equal(pieces, 1.0), &Shared::default());
        assert!(report.complete && report.leftover.is_empty());
        assert_eq!(report.solutions, 30355);
    }
}

#[test]
fn parallel_solutions_are_all_there() {
    let p = Arc::new(queens(8));
    let mut expected = Search::new(p.clone(), None).all_solutions();
    expected.sort();
    for threads in [1, 2, 3] {
        let (tx, rx) = std::sync::mpsc::sync_channel(4);
        let pool = Pool::new(p.clone(), threads, Engine::Auto);
        let pieces = split(&p, &[vec![]], 6, 4, 2, Engine::Auto)
            .into_iter()
            .map(|x| x.moves)
            .collect();
        let got = std::thread::scope(|s| {
            let h = s.spawn(|| pool.solutions(Piece::equal(pieces, 1.0), &Shared::default(), tx));
            let mut got: Vec<Vec<u32>> = rx.iter().collect();
            h.join().unwrap();
            got.sort();
            got
        });
        assert_eq!(got, expected);
    }
}

/// A frontier's shares and the explored part make the whole piece, at any
/// pause, on random problems with every feature; a frontier asked within
/// fewer pieces than it has is refused.
#[test]
fn frontier_shares_and_the_explored_part_make_one() {
    let mut rng = Rng::new(12);
    for _ in 0..300 {
        let p = Arc::new(random(&mut rng));
        for engine in [Engine::Cells, Engine::Bits] {
            for k in 1..30u64 {
                let mut s = Search::with_engine(p.clone(), None, engine);
                let slice = if k < 10 {
                    Slice::work(k)
                } else {
                    Slice {
                        updates: Some(2 * (k - 10)),
                        ..Slice::ALL
                    }
                };
                if s.count_in(slice, u64::MAX).is_ready() {
                    break;
                }
                let all = s.frontier_shares();
                let shares: f64 = all.iter().map(|(_, w)| w).sum();
                assert!(shares <= 1.0 + 1e-12 && shares > 0.0);
                // Within as many pieces as it has, the same frontier; within
                // one fewer, none.
                assert_eq!(s.frontier_shares_within(all.len()), Some(all.clone()));
                assert!(s.frontier_shares_within(all.len() - 1).is_none());
                assert!(s.fraction_explored() <= 1.0 - shares + 1e-12, "{p:?}");
            }
        }
    }
}

/// Probes walk in place and undo their path: after any number of them, from
/// the root or from a piece, the search counts what it would have counted,
/// and a raised flag stops them.
#[test]
fn probes_leave_the_search_as_they_found_it() {
    let mut rng = Rng::new(12);
    for k in 0..600u64 {
        check_probes(Arc::new(random(&mut rng)), k);
    }
}

#[test]
fn probes_leave_long_options_as_they_found_them() {
    // Long options without colors: dancing cells then save every active
    // item's size as an epoch starts (a snapshot), which a probe's mark
    // must take back too.
    let mut rng = Rng::new(13);
    let shape = Shape {
        primary: 7,
        secondary: 3,
        options: 16,
        density: 75,
        colors: false,
        multiplicities: false,
    };
    for k in 0..600u64 {
        check_probes(Arc::new(random_problem(&mut rng, &shape)), k);
    }
}

/// Probes (estimates, and the children of a split probed first) change
/// nothing: the counts after them are the brute-force count.
fn check_probes(p: Arc<CompiledProblem>, k: u64) {
    {
        let brute = brute_force(&p).len() as u64;
        for engine in [Engine::Cells, Engine::Bits] {
            let mut s = Search::with_engine(p.clone(), None, engine);
            let e = s.estimate(1 + (k % 5) as u32, &mut Rng::new(k));
            assert!(e >= 1.0 && e.is_finite(), "{e} for {p:?}");
            assert_eq!(s.count_all(), brute, "after probes, {p:?} ({engine:?})");
            // From each child, probed first: the children still add up.
            let mut s = Search::with_engine(p.clone(), None, engine);
            if let Some(children) = s.children() {
                let mut sum = 0;
                for child in &children {
                    let mut s = Search::with_engine(p.clone(), None, engine);
                    if s.apply(child) {
                        s.estimate(3, &mut Rng::new(k));
                        sum += s.count_all();
                    }
                }
                assert_eq!(sum, brute, "children probed, {p:?} ({engine:?})");
            }
            let halt = std::sync::atomic::AtomicBool::new(true);
            let mut s = Search::with_engine(p.clone(), None, engine);
            if engine == Engine::Cells {
                assert_eq!(s.estimate_until(4, &mut Rng::new(k), &halt), None);
            }
            assert_eq!(s.count_all(), brute);
        }
    }
}

/// A tree of 50^200 nodes: the estimate is capped, not infinite (whose
/// share of a sum would be NaN), on both data structures.
#[test]
fn an_astronomical_estimate_stays_finite() {
    let n = 200u32;
    let options: Vec<Vec<u32>> = (0..n).flat_map(|i| (0..50).map(move |_| vec![i])).collect();
    let p = Arc::new(exact(n, &options));
    for engine in [Engine::Cells, Engine::Bits] {
        let mut s = Search::with_engine(p.clone(), None, engine);
        let e = s.estimate(4, &mut Rng::new(1));
        assert!(e.is_finite() && e >= 1e299, "{e} ({engine:?})");
        let pieces = split(&p, &[vec![]], 8, 2, 1, engine);
        let total: f64 = pieces.iter().map(|x| x.estimate).sum();
        assert!(total.is_finite(), "{total}");
    }
}
