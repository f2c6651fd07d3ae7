use std::sync::Arc;

use super::*;
use crate::core::bitmasks::one_primary_each;
use crate::core::machine::{Limits, Machine, Solve, Step};
use crate::core::rng::Rng;
use crate::search::cellsearch::CellSearch;

/// A random problem with colors: `n1` primary items, `n2` secondary,
/// `m` options; with `one`, each option has one primary item (else one
/// to three).
fn random(rng: &mut Rng, n1: u32, n2: u32, m: usize, one: bool) -> CompiledProblem {
    let (mut start, mut item, mut color) = (vec![0u32], Vec::new(), Vec::new());
    for _ in 0..m {
        let mut o: Vec<(u32, u32)> = Vec::new();
        let k = if one {
            1
        } else {
            (1 + rng.below(3)).min(n1 as u64)
        };
        while (o.len() as u64) < k {
            let i = rng.below(n1 as u64) as u32;
            if !o.iter().any(|&(j, _)| j == i) {
                o.push((i, 0));
            }
        }
        for i in n1..n1 + n2 {
            if rng.below(3) == 0 {
                o.push((i, rng.below(3) as u32));
            }
        }
        item.extend(o.iter().map(|&(i, _)| i));
        color.extend(o.iter().map(|&(_, c)| c));
        start.push(item.len() as u32);
    }
    let n = n1 as usize;
    CompiledProblem::new(n1, n2, vec![1; n], vec![1; n], start, item, color).unwrap()
}

/// Every solution of `s`, each sorted, all sorted.
fn solutions(s: &mut dyn Solve) -> Vec<Vec<u32>> {
    let mut all = Vec::new();
    let mut one = Vec::new();
    while s.run(Limits::NONE) == Step::Solution {
        s.solution_into(&mut one);
        one.sort_unstable();
        all.push(one.clone());
    }
    all.sort_unstable();
    all
}

/// The search on masks, its options in `external`'s order.
fn masked(p: &Arc<CompiledProblem>, external: Vec<u32>) -> BitSearch {
    BitSearch::with_bits(p.clone(), Bits::build(p, external, true), None)
}

#[test]
fn masks_find_what_the_square_table_and_the_cells_find() {
    let mut rng = Rng::new(41);
    for trial in 0..300 {
        let one = trial % 2 == 0;
        // Up to 200 options on at most three primary items: masks
        // across several words of the live set, a tree still small.
        let wide = trial % 3 == 0;
        let m = 1 + rng.below(if wide { 200 } else { 30 }) as usize;
        let n1 = 1 + rng.below(if wide { 3 } else { 6 }) as u32;
        let n2 = rng.below(5) as u32;
        let p = Arc::new(random(&mut rng, n1, n2, m, one));
        let want = solutions(
            &mut CellSearch::new_until(p.clone(), None, None, &Default::default()).unwrap(),
        );
        let dense = solutions(&mut BitSearch::with_bits(
            p.clone(),
            Bits::new(&p, None),
            None,
        ));
        assert_eq!(dense, want, "trial {trial}: the square table");
        let mut order: Vec<u32> = (0..m as u32).collect();
        assert_eq!(
            solutions(&mut masked(&p, order.clone())),
            want,
            "trial {trial}"
        );
        // Shuffled, and grouped by primary item as `Bits::for_search` does.
        for k in (1..m).rev() {
            order.swap(k, rng.below(k as u64 + 1) as usize);
        }
        assert_eq!(
            solutions(&mut masked(&p, order.clone())),
            want,
            "trial {trial}"
        );
        order.sort_by_key(|&o| p.option(o as usize).iter().copied().find(|&i| i < n1));
        let mut s = masked(&p, order);
        assert_eq!(solutions(&mut s), want, "trial {trial}: grouped");
        s.reset();
        s.count(Limits::NONE, u64::MAX);
        assert_eq!(
            s.stats().solutions,
            want.len() as u64,
            "trial {trial}: count"
        );
    }
}

#[test]
fn past_the_square_table_the_search_takes_masks() {
    // Word squares 3x3 of 700 random words over 20 letters: rows R0-R2
    // and columns C0-C2 (primary), a cell for each letter's place.
    let mut rng = Rng::new(7);
    let mut words: Vec<u32> = (0..20 * 20 * 20).collect();
    for k in (1..words.len()).rev() {
        words.swap(k, rng.below(k as u64 + 1) as usize);
    }
    words.truncate(700);
    let (n1, n2) = (6u32, 9u32);
    let (mut start, mut item, mut color) = (vec![0u32], Vec::new(), Vec::new());
    for line in 0..6 {
        for &word in &words {
            item.push(line);
            color.push(0);
            for place in 0..3 {
                let cell = if line < 3 {
                    line * 3 + place
                } else {
                    place * 3 + line - 3
                };
                item.push(n1 + cell);
                color.push(1 + word / [400, 20, 1][place as usize] % 20);
            }
            start.push(item.len() as u32);
        }
    }
    let n = n1 as usize;
    let p = CompiledProblem::new(n1, n2, vec![1; n], vec![1; n], start, item, color).unwrap();
    assert!(p.n_options() > crate::core::bits::MAX_OPTIONS);
    assert!(Bits::pays(&p) && one_primary_each(&p));
    let p = Arc::new(p);
    let mut cells = CellSearch::new_until(p.clone(), None, None, &Default::default()).unwrap();
    cells.count(Limits::NONE, u64::MAX);
    let mut bits = BitSearch::new(p.clone(), None);
    assert!(bits.bits_masked());
    bits.count(Limits::NONE, u64::MAX);
    assert!(cells.stats().solutions > 1000);
    assert_eq!(bits.stats().solutions, cells.stats().solutions);
    // A random order of options too.
    let mut shuffled = BitSearch::new(p.clone(), Some(5));
    shuffled.count(Limits::NONE, u64::MAX);
    assert_eq!(shuffled.stats().solutions, cells.stats().solutions);
}

#[test]
fn options_in_rows_of_one_length_find_what_the_cells_find() {
    // Options of `a` or `a - 1` primary items (rows of 2 to 8 have a loop
    // of their own, padded to the sink; 9 takes the general one), over a
    // few words of options; some of one length only.
    let mut rng = Rng::new(85);
    let (mut found, mut padded) = (0, 0);
    for trial in 0..320 {
        let a = 2 + trial % 8;
        let one_length = trial % 3 == 0;
        let n1 = a as u64 + rng.below(10);
        let m = 1 + rng.below(if a < 4 { 60 } else { 180 }) as usize;
        let (mut start, mut item) = (vec![0u32], Vec::new());
        for _ in 0..m {
            let len = if one_length {
                a
            } else {
                (a - rng.below(2) as usize).max(2)
            };
            let mut o: Vec<u32> = Vec::new();
            while o.len() < len {
                let i = rng.below(n1) as u32;
                if !o.contains(&i) {
                    o.push(i);
                }
            }
            item.extend(o);
            start.push(item.len() as u32);
        }
        let n = n1 as usize;
        let colors = vec![0; item.len()];
        let p = CompiledProblem::new(n1 as u32, 0, vec![1; n], vec![1; n], start, item, colors);
        let p = Arc::new(p.unwrap());
        let want = solutions(
            &mut CellSearch::new_until(p.clone(), None, None, &Default::default()).unwrap(),
        );
        let rows = BitSearch::with_bits(p.clone(), Bits::new(&p, None), None);
        let lens: Vec<usize> = (0..m).map(|o| p.option(o).len()).collect();
        let most = *lens.iter().max().unwrap();
        let pads: usize = lens.iter().map(|&x| most - x).sum();
        let few_pads = pads * 8 <= lens.iter().sum::<usize>();
        let stride = if (2..=8).contains(&most) && few_pads {
            most
        } else {
            0
        };
        assert_eq!(rows.bits.stride, stride, "trial {trial}");
        padded += (stride > 0 && pads > 0) as usize;
        let mut rows = rows;
        assert_eq!(
            solutions(&mut rows),
            want,
            "trial {trial}: rows of {stride}"
        );
        rows.reset();
        rows.count(Limits::NONE, u64::MAX);
        assert_eq!(
            rows.stats().solutions,
            want.len() as u64,
            "trial {trial}: count"
        );
        found += want.len();
    }
    assert!(found > 100, "only {found} solutions in all");
    assert!(padded > 20, "only {padded} trials with pads");
}

#[test]
fn the_first_count_that_equals_is_found_past_sixteen() {
    use crate::core::bitmasks::first_equal;
    let mut rng = Rng::new(3);
    for len in 0..80 {
        let counts: Vec<Count> = (0..len).map(|_| rng.below(5) as Count).collect();
        for t in 0..6 {
            let want = counts.iter().position(|&c| c == t).unwrap_or(len);
            assert_eq!(first_equal(&counts, t), want, "{counts:?} {t}");
        }
    }
}

#[test]
fn no_count_between_two_and_the_most_an_item_has() {
    use crate::core::bitmasks::{MAX_ITEM_OPTIONS, none_over_one};
    let mut rng = Rng::new(5);
    let most = MAX_ITEM_OPTIONS as Count;
    // Counts of 0 or 1, covered ones (COVERED less up to MAX_ITEM_OPTIONS),
    // and now and then one of 2 to the most.
    for len in 0..80 {
        for _ in 0..20 {
            let mut counts: Vec<Count> = (0..len)
                .map(|_| match rng.below(3) {
                    0 => rng.below(2) as Count,
                    _ => COVERED - rng.below(MAX_ITEM_OPTIONS as u64 + 1) as Count,
                })
                .collect();
            if len > 0 && rng.below(2) == 0 {
                let at = rng.below(len as u64) as usize;
                counts[at] = [2, 3, most - 1, most][rng.below(4) as usize];
            }
            let want = counts.iter().all(|&c| c <= 1 || c > most);
            assert_eq!(none_over_one(&counts), want, "{counts:?}");
        }
    }
}

/// A random exact cover problem of `n` primary items (no secondary ones)
/// with a few partitions planted among its options, so that its branches
/// often end with every item down to one option.
fn planted(rng: &mut Rng, n: u32) -> CompiledProblem {
    let (mut start, mut item) = (vec![0u32], Vec::new());
    for _ in 0..3 {
        let mut order: Vec<u32> = (0..n).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let mut at = 0;
        while at < order.len() {
            let len = (1 + rng.below(3) as usize).min(order.len() - at);
            item.extend_from_slice(&order[at..at + len]);
            start.push(item.len() as u32);
            at += len;
        }
    }
    let colors = vec![0; item.len()];
    let k = n as usize;
    CompiledProblem::new(n, 0, vec![1; k], vec![1; k], start, item, colors).unwrap()
}

#[test]
fn a_branch_whose_items_have_one_option_each_is_one_solution_at_once() {
    // The same solutions and counts as dancing cells, and as the bitset
    // search that takes those options one forced move at a time, in fewer
    // nodes.
    let mut rng = Rng::new(12);
    let (mut nodes_whole, mut nodes_each) = (0, 0);
    for trial in 0..200 {
        let n = 4 + rng.below(14) as u32;
        let p = Arc::new(planted(&mut rng, n));
        let want = solutions(
            &mut CellSearch::new_until(p.clone(), None, None, &Default::default()).unwrap(),
        );
        for whole in [true, false] {
            let mut s = BitSearch::new(p.clone(), None);
            assert!(s.tail_whole);
            s.tail_whole = whole;
            assert_eq!(solutions(&mut s), want, "trial {trial}, whole {whole}");
            s.reset();
            s.count(Limits::NONE, u64::MAX);
            assert_eq!(s.stats().solutions, want.len() as u64, "trial {trial}");
            if whole {
                nodes_whole += s.stats().nodes;
            } else {
                nodes_each += s.stats().nodes;
            }
        }
    }
    assert!(
        nodes_whole < nodes_each,
        "{nodes_whole} nodes, {nodes_each} without the shortcut"
    );
}

#[test]
fn options_with_one_each_may_still_clash_on_a_secondary_item() {
    // Items a and b have one option each, {a x} and {b x}, which share the
    // secondary item x: no solution, though no primary count is over one.
    let p = CompiledProblem::new(
        2,
        1,
        vec![1; 2],
        vec![1; 2],
        vec![0, 2, 4],
        vec![0, 2, 1, 2],
        vec![0; 4],
    );
    let p = Arc::new(p.unwrap());
    let mut s = BitSearch::new(p, None);
    assert!(!s.tail_whole);
    s.count(Limits::NONE, u64::MAX);
    assert_eq!(s.stats().solutions, 0);
}
