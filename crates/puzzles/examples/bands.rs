//! The 9 x 9 band solver alone on a file of puzzles (one a line, digits
//! and `.` or `0`), each solved and proved unique: the guesses a puzzle
//! (a rule that deduces more shows here first) and the time.
//! Usage: `bands FILE`.
use puzzles::bands::solve;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

fn main() {
    let path = std::env::args().nth(1).expect("usage: bands FILE");
    let text = std::fs::read_to_string(&path).expect("cannot read the file");
    let stop = AtomicBool::new(false);
    let (mut guesses, mut puzzles, mut solutions) = (0u64, 0u64, 0u64);
    let t = Instant::now();
    for line in text.lines().map(str::trim).filter(|l| l.len() == 81) {
        let cells: Vec<u8> = line
            .bytes()
            .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
            .collect();
        let out = solve(&cells, 2, &stop).expect("81 cells");
        guesses += out.guesses;
        puzzles += 1;
        solutions += out.count;
    }
    println!(
        "{puzzles} puzzles, {solutions} solutions (up to 2 each), {:.2} guesses a puzzle, {:.3} s",
        guesses as f64 / puzzles.max(1) as f64,
        t.elapsed().as_secs_f64()
    );
}
