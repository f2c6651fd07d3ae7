//! The vector rules against the scalar ones, state by state: the same
//! settled grid, or both a contradiction.

use super::super::builds::{has_v3, has_v4};
use super::super::grid::Grid;
use super::super::tests::{givens_of, random_grid};
use xc::Rng;

/// The grid the scalar rules settle on (with the whole stacks rule), or
/// None on a contradiction.
fn scalar(mut grid: Grid) -> Option<Grid> {
    grid.settle::<true>().then_some(grid)
}

/// Whether two settled grids are the same state: the words, the cells
/// left, and (where cells are left) the cells of two digits.
fn same(a: &Grid, b: &Grid) -> bool {
    a.cand == b.cand && a.unsolved == b.unsolved && (a.unsolved == [0; 3] || a.pairs == b.pairs)
}

/// States as a search meets them: random givens (12 to 41, half of them
/// with one given changed, often wrong),
/// then a few random candidates placed as guesses would be, each followed
/// by the settling under test.
fn states(seed: u64, rounds: usize, mut check: impl FnMut(Grid)) {
    let mut rng = Rng::new(seed);
    for round in 0..rounds {
        let full = random_grid(&mut rng);
        let mut puzzle = givens_of(&mut rng, full, 12 + (round % 30) as u64);
        if round % 2 == 0 {
            let k = rng.below(81) as usize;
            puzzle[k] = rng.below(9) as u8 + 1;
        }
        let Some(mut grid) = Grid::with_givens(&puzzle) else {
            continue;
        };
        check(grid);
        for _ in 0..rng.below(4) {
            let Some(settled) = scalar(grid) else { break };
            grid = settled;
            let open: Vec<(usize, usize, usize)> = (0..9)
                .flat_map(|d| (0..3).map(move |b| (d, b)))
                .flat_map(|(d, b)| {
                    let word = grid.cand[3 * d + b] & grid.unsolved[b];
                    (0..27)
                        .filter(move |p| word >> p & 1 != 0)
                        .map(move |p| (d, b, p))
                })
                .collect();
            if open.is_empty() {
                break;
            }
            let (d, b, p) = open[rng.below(open.len() as u64) as usize];
            grid.place(d, b, p);
            check(grid);
        }
    }
}

/// A vector settling: unsafe to call where the machine lacks its build.
type Settle = unsafe fn(&mut Grid) -> bool;

#[test]
fn the_vector_rules_settle_on_the_scalar_grid() {
    let builds: [(bool, Settle); 2] = [
        (has_v3(), super::avx2::settle),
        (has_v4(), super::avx512::settle),
    ];
    let (mut checked, mut dead, mut solved) = (0, 0, 0);
    states(11, 3000, |grid| {
        let expect = scalar(grid);
        for (has, settle) in builds {
            if !has {
                continue;
            }
            let mut got = grid;
            // SAFETY: the machine has the build's features (`has`).
            let ok = unsafe { settle(&mut got) };
            assert_eq!(ok, expect.is_some());
            if let Some(expect) = &expect {
                assert!(same(expect, &got));
            }
        }
        checked += 1;
        dead += expect.is_none() as u32;
        solved += expect.is_some_and(|g| g.unsolved == [0; 3]) as u32;
    });
    // Every kind of end is met: a contradiction, a solution, a guess.
    assert!(
        checked > 4000 && dead > 100 && solved > 300 && checked - dead - solved > 1000,
        "{checked} states, {dead} dead, {solved} solved"
    );
}
