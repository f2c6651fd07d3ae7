//! Known answers: Knuth's intro examples for DLX1, DLX2 and DLX3, the tromino
//! counts of the seeds, and n-queens with secondary diagonals.
mod common;

use common::*;
use std::sync::Arc;
use xc::{Engine, Next, Poll, Search, Slice, Sliced};

#[test]
fn knuth_dlx1_intro_has_one_solution() {
    // TAOCP 7.2.2.1-(5): items a..g; options c e / a d g / b c f / a d f / b g / d e g.
    let p = exact(
        7,
        &[
            vec![2, 4],
            vec![0, 3, 6],
            vec![1, 2, 5],
            vec![0, 3, 5],
            vec![1, 6],
            vec![3, 4, 6],
        ],
    );
    let mut s = Search::new(Arc::new(p), None);
    assert_eq!(s.all_solutions(), vec![vec![0, 3, 4]]);
    assert_eq!(s.stats().solutions, 1);
}

#[test]
fn knuth_dlx2_intro_colors() {
    // A B C | X Y ; "A B X:0 Y:0", "A C X:1 Y:1", "B X:1", "C Y:1"
    // (the input's "X:0 Y:1" has no primary item and is skipped, as DLX2 does).
    let (a, b, c, x, y) = (0, 1, 2, 3, 4);
    let p = problem(
        3,
        2,
        &[(1, 1); 3],
        &[
            vec![(a, 0), (b, 0), (x, 1), (y, 1)],
            vec![(a, 0), (c, 0), (x, 2), (y, 2)],
            vec![(b, 0), (x, 2)],
            vec![(c, 0), (y, 2)],
        ],
    );
    let mut s = Search::new(Arc::new(p), None);
    assert_eq!(s.all_solutions(), vec![vec![1, 2]]);
}

#[test]
fn knuth_dlx3_intro_multiplicities() {
    // A B 2:3|C | X Y ; "A B X:0 Y:0" "A C X:1 Y:1" "C X:0" "B X:1" "C Y:1"
    let (a, b, c, x, y) = (0, 1, 2, 3, 4);
    let p = problem(
        3,
        2,
        &[(1, 1), (1, 1), (2, 3)],
        &[
            vec![(a, 0), (b, 0), (x, 1), (y, 1)],
            vec![(a, 0), (c, 0), (x, 2), (y, 2)],
            vec![(c, 0), (x, 1)],
            vec![(b, 0), (x, 2)],
            vec![(c, 0), (y, 2)],
        ],
    );
    assert!(p.has_multiplicities());
    let mut s = Search::new(Arc::new(p), None);
    assert_eq!(s.all_solutions(), vec![vec![1, 3, 4]]);
}

#[test]
fn l_tromino_counts_of_the_seeds() {
    // (The 9 x 9 board is Python's to count, by the front door.)
    let mut seen = 0;
    for (what, size, expected) in known_counts() {
        if what == "l-tromino" && size[0] <= 8 {
            let hole = (size[1] != u64::MAX).then_some(size[1] as u32);
            assert_eq!(count(l_tromino(size[0] as u32, hole)), expected, "{size:?}");
            seen += 1;
        }
    }
    assert!(seen >= 16);
}

#[test]
fn queens_with_secondary_diagonals() {
    let mut seen = 0;
    for (what, size, expected) in known_counts() {
        if what == "queens" {
            assert_eq!(count(queens(size[0] as u32)), expected, "n = {}", size[0]);
            seen += 1;
        }
    }
    assert_eq!(seen, 12);
}

#[test]
fn first_queens_come_quickly_from_the_dancing_cells() {
    // The portfolio looks for a first solution on dancing cells: their
    // options change places as they are hidden and restored, which spreads
    // the search over the board. (Bitsets try an item's options in one
    // fixed order: with ties to the first item, 58 to 64 queens took them
    // millions of nodes.)
    for n in [20, 32, 44, 52, 58, 62, 64] {
        let p = Arc::new(queens(n));
        let mut s = Search::with_engine(p.clone(), None, Engine::Cells);
        assert_eq!(
            s.run(Slice::work(20_000)),
            Poll::Ready(Next::Solution),
            "n = {n}"
        );
        assert!(p.is_solution(&s.solution()));
    }
}

#[test]
fn enumeration_and_count_agree_and_solutions_are_valid() {
    let p = Arc::new(l_tromino(7, Some(9)));
    let mut s = Search::new(p.clone(), None);
    let sols = s.all_solutions();
    assert_eq!(sols.len(), 288);
    assert!(sols.iter().all(|x| p.is_solution(x)));
    let mut distinct = sols.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 288);
}

#[test]
fn pausing_anywhere_changes_nothing() {
    let p = Arc::new(queens(7));
    for engine in [Engine::Cells, Engine::Bits] {
        let mut whole = Search::with_engine(p.clone(), None, engine);
        let expected = whole.all_solutions();
        let mut s = Search::with_engine(p.clone(), None, engine);
        assert_eq!(s.engine(), engine);
        let mut got = Vec::new();
        let mut slices = 0;
        loop {
            let slice = Slice {
                work: 3,
                updates: Some(5),
                ..Slice::ALL
            };
            match s.run(slice) {
                Poll::Ready(Next::Solution) => got.push(s.solution()),
                Poll::Pending => slices += 1,
                Poll::Ready(Next::Exhausted) => break,
            }
        }
        assert_eq!(got, expected);
        assert!(slices > 10);
        assert_eq!(s.stats().nodes, whole.stats().nodes);
        // Counting in slices, with a target, also adds up.
        let mut c = Search::with_engine(p.clone(), None, engine);
        let mut steps = 0;
        while c.count_in(Slice::ALL, c.stats().solutions + 1).is_ready() && !c.is_exhausted() {
            steps += 1;
        }
        assert_eq!(c.stats().solutions, 40);
        assert!(steps >= 10);
    }
}

#[test]
fn random_order_gives_the_same_solutions_reproducibly() {
    let p = Arc::new(l_tromino(6, None));
    for engine in [Engine::Cells, Engine::Bits] {
        let new = |seed| Search::with_engine(p.clone(), seed, engine);
        let mut plain = new(None).all_solutions();
        let mut a = new(Some(3)).all_solutions();
        let b = new(Some(3)).all_solutions();
        let c = new(Some(4)).all_solutions();
        assert_eq!(a, b);
        assert_ne!(a, c);
        plain.sort();
        a.sort();
        assert_eq!(a, plain);
    }
}

#[test]
fn forced_options_restrict_the_search() {
    let p = Arc::new(queens(8));
    for engine in [Engine::Cells, Engine::Bits] {
        let mut s = Search::with_engine(p.clone(), None, engine);
        // Queen in row 0, column 0 (option 0): 4 of the 92 solutions.
        assert!(s.force(0));
        // Row 1, column 1 is attacked: refused, and nothing changes.
        assert!(!s.force(9));
        let sols = s.all_solutions();
        assert_eq!(sols.len(), 4);
        assert!(sols.iter().all(|x| x.contains(&0) && p.is_solution(x)));
    }
}

#[test]
fn a_solution_of_100000_options_needs_no_recursion() {
    let n = 100_000u32;
    let options: Vec<Vec<u32>> = (0..n).map(|i| vec![i]).collect();
    let mut s = Search::new(Arc::new(exact(n, &options)), None);
    assert_eq!(s.run(Slice::ALL), Poll::Ready(Next::Solution));
    assert_eq!(s.solution().len(), n as usize);
    assert_eq!(s.run(Slice::ALL), Poll::Ready(Next::Exhausted));
}

#[test]
fn reset_gives_a_fresh_search() {
    let p = Arc::new(queens(8));
    for engine in [Engine::Cells, Engine::Bits] {
        let mut s = Search::with_engine(p.clone(), None, engine);
        assert!(s.force(0));
        assert_eq!(s.count_all(), 4);
        s.reset();
        assert_eq!(s.stats().nodes, 0);
        assert_eq!(s.count_all(), 92);
        s.reset();
        assert!(s.force(1));
        let sols = s.all_solutions();
        assert_eq!(sols.len(), 8);
        assert!(sols.iter().all(|x| x.contains(&1)));
    }
}

#[test]
fn options_of_hundreds_of_items() {
    // The intervals of a binary tree over 600 items (halves, down to fewer
    // than 100 items): an interval is covered by itself or by its two halves,
    // so T(leaf) = 1 and T(node) = 1 + T(left) T(right) covers in all. The
    // options are long (hidden whole) and their nodes lie up to 599 past the
    // first of their option (found by the walk back to the spacer).
    fn intervals(lo: u32, hi: u32, out: &mut Vec<Vec<u32>>) -> u64 {
        out.push((lo..hi).collect());
        if hi - lo < 100 {
            return 1;
        }
        let mid = (lo + hi) / 2;
        1 + intervals(lo, mid, out) * intervals(mid, hi, out)
    }
    let mut options = Vec::new();
    let expected = intervals(0, 600, &mut options);
    let p = Arc::new(exact(600, &options));
    for engine in [Engine::Cells, Engine::Bits] {
        let mut s = Search::with_engine(p.clone(), None, engine);
        let all = s.all_solutions();
        assert_eq!(all.len() as u64, expected, "{engine:?}");
        assert!(all.iter().all(|x| p.is_solution(x)), "{engine:?}");
    }
}
