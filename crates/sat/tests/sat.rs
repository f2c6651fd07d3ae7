//! The CDCL backend against brute force (every subset of options checked by
//! the definition) on small random problems with secondary items, colors and
//! multiplicities: exactly the same solutions, each once.
#[path = "../../xc/tests/common/mod.rs"]
mod common;

use common::*;
use sat::Sat;
use xc::{Next, Poll, Rng, Slice, Sliced};

fn all(p: &xc::CompiledProblem) -> Vec<Vec<u32>> {
    let mut sat = Sat::new(p);
    let mut found = Vec::new();
    loop {
        match Sliced::run(&mut sat, Slice::ALL) {
            Poll::Ready(Next::Solution) => {
                let mut s = Vec::new();
                sat.solution_into(&mut s);
                found.push(s);
            }
            Poll::Ready(Next::Exhausted) => break,
            Poll::Pending => panic!("stopped without a budget"),
        }
    }
    assert_eq!(sat.stats().solutions, found.len() as u64);
    found.sort();
    found
}

#[test]
fn random_problems_match_brute_force() {
    let mut rng = Rng::new(15);
    for k in 0..1500 {
        let shape = Shape {
            primary: 4,
            secondary: 3,
            options: 12,
            density: 40,
            colors: k % 2 == 0,
            multiplicities: k % 3 != 0,
        };
        let p = random_problem(&mut rng, &shape);
        assert_eq!(all(&p), brute_force(&p), "solutions of {p:?}");
    }
}

#[test]
fn known_boards() {
    // The first solution of the 8 x 8 L-tromino board minus a corner is a
    // solution; queens 6 has 4, queens 8 has 92.
    assert_eq!(all(&queens(6)).len(), 4);
    assert_eq!(all(&queens(8)).len(), 92);
    let p = l_tromino(8, Some(0));
    let mut sat = Sat::new(&p);
    assert_eq!(
        Sliced::run(&mut sat, Slice::ALL),
        Poll::Ready(Next::Solution)
    );
    let mut s = Vec::new();
    sat.solution_into(&mut s);
    assert!(p.is_solution(&s));
}

#[test]
fn budgets_stop_and_resume() {
    // A budget of 1 conflict, or of 70 decisions, stops the search now and
    // then; going on finds the same 92 solutions. (Each call starts with
    // CaDiCaL's quick "lucky" tries, which spend decisions without learning:
    // 30 decisions a call make no progress on this board.)
    let p = queens(8);
    let budgets = [
        Slice {
            conflicts: Some(1),
            ..Slice::ALL
        },
        Slice::work(70),
    ];
    for budget in budgets {
        let mut sat = Sat::new(&p);
        let (mut found, mut stops) = (0, 0);
        loop {
            match Sliced::run(&mut sat, budget) {
                Poll::Ready(Next::Solution) => found += 1,
                Poll::Ready(Next::Exhausted) => break,
                Poll::Pending => stops += 1,
            }
            assert!(stops < 100_000);
        }
        assert_eq!(found, 92);
        assert!(stops > 0);
        let stats = sat.stats();
        assert!(stats.conflicts > 0 && stats.decisions > 0);
        assert!(stats.propagations >= stats.decisions);
    }
    // A raised stop flag stops at once, and the search goes on when lowered.
    let mut sat = Sat::new(&p);
    let flag = sat.stop_flag();
    flag.store(true, std::sync::atomic::Ordering::Relaxed);
    assert_eq!(Sliced::run(&mut sat, Slice::ALL), Poll::Pending);
    flag.store(false, std::sync::atomic::Ordering::Relaxed);
    assert_eq!(
        Sliced::run(&mut sat, Slice::ALL),
        Poll::Ready(Next::Solution)
    );
}
