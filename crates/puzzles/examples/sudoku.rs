//! Times the Sudoku batch solver alone (no Python, no text beyond reading):
//! every 9 x 9 puzzle of a file, one a line (digits, `.` or `0` for blanks),
//! solved and proved unique on one thread.
//! Usage: `sudoku FILE`.
use puzzles::sudoku::{Answer, Mode, Solver};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;
use xc::CompiledProblem;

fn main() {
    let path = std::env::args().nth(1).expect("usage: sudoku FILE");
    let text = std::fs::read_to_string(&path).expect("cannot read the file");
    // The encoding of `covering.puzzles.sudoku.sudoku_problem(9)`: option
    // (r * 9 + c) * 9 + d; items cell, row-digit, column-digit, box-digit.
    let (n, b) = (9usize, 3usize);
    let mut start = vec![0u32];
    let mut items = Vec::new();
    for r in 0..n {
        for c in 0..n {
            let k = (r / b) * b + c / b;
            for d in 0..n {
                items.extend(
                    [
                        r * n + c,
                        n * n + r * n + d,
                        2 * n * n + c * n + d,
                        3 * n * n + k * n + d,
                    ]
                    .map(|i| i as u32),
                );
                start.push(items.len() as u32);
            }
        }
    }
    let m = 4 * n * n;
    let p = CompiledProblem::new(m as u32, 0, vec![1; m], vec![1; m], start, items, vec![])
        .expect("the sudoku problem");
    let puzzles: Vec<Vec<u8>> = text
        .lines()
        .map(str::trim)
        .filter(|l| l.len() == n * n)
        .map(|l| {
            l.bytes()
                .map(|ch| if ch.is_ascii_digit() { ch - b'0' } else { 0 })
                .collect()
        })
        .collect();
    let mut solver = Solver::new(Arc::new(p), n, 200_000);
    let stop = AtomicBool::new(false);
    let t = Instant::now();
    let unique = puzzles
        .iter()
        .filter(|q| matches!(solver.answer(q, Mode::Unique, &stop), Answer::Solved(_)))
        .count();
    let dt = t.elapsed().as_secs_f64();
    println!(
        "{} puzzles, {unique} with one solution, {dt:.3} s, {:.0} puzzles/s",
        puzzles.len(),
        puzzles.len() as f64 / dt
    );
}
