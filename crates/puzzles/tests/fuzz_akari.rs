//! Akari's builder takes any grid, of any claimed size: an error or a
//! problem, never a panic; and what it builds is searched.

use puzzles::akari::{Cell as AkariCell, akari_with};
use std::panic::catch_unwind;
use std::sync::Arc;
use xc::{Rng, Search, Slice};

fn iterations() -> u64 {
    std::env::var("COVERING_FUZZ_ITERATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000)
}

#[test]
fn akari_takes_any_grid() {
    let mut rng = Rng::new(7);
    let cells = [
        AkariCell::White,
        AkariCell::White,
        AkariCell::White,
        AkariCell::Black,
        AkariCell::Number(0),
        AkariCell::Number(1),
        AkariCell::Number(2),
        AkariCell::Number(3),
        AkariCell::Number(4),
    ];
    for _ in 0..iterations() / 3 {
        let (rows, cols) = (rng.below(6) as usize, rng.below(6) as usize);
        let grid: Vec<AkariCell> = (0..rows * cols)
            .map(|_| cells[rng.below(cells.len() as u64) as usize])
            .collect();
        // Wrong sizes too: an error, never a panic.
        let claimed = if rng.below(8) == 0 { rows + 1 } else { rows };
        let long = rng.below(4) as usize;
        let result = catch_unwind(|| akari_with(claimed, cols, &grid, long));
        let Ok(result) = result else {
            panic!("akari panicked on {claimed} x {cols}: {grid:?}")
        };
        if let Ok(a) = result {
            let mut s = Search::new(Arc::new(a.problem), None);
            let _ = s.count_in(Slice::work(10_000), u64::MAX);
        }
    }
}
