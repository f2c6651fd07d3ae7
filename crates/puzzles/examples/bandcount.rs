use puzzles::bands::solve;
use std::sync::atomic::AtomicBool;
use std::time::Instant;
fn main() {
    let line = std::env::args().nth(1).unwrap();
    let cells: Vec<u8> = line
        .bytes()
        .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
        .collect();
    let t = Instant::now();
    let out = solve(&cells, u64::MAX, &AtomicBool::new(false)).unwrap();
    println!(
        "{} solutions, {} guesses, {:.3} s",
        out.count,
        out.guesses,
        t.elapsed().as_secs_f64()
    );
}
