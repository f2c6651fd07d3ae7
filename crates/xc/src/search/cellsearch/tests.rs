use super::*;

/// A random problem with multiplicities: items covered between lo and
/// hi times, some secondary, options of one to four items.
fn random_mcc(rng: &mut Rng) -> CompiledProblem {
    random_mcc_with(rng, false)
}

/// [`random_mcc`]; with `exact`, every item covered exactly its bound
/// (1 to 3) times.
fn random_mcc_with(rng: &mut Rng, exact: bool) -> CompiledProblem {
    loop {
        let n_primary = 3 + rng.below(8) as u32;
        let n_secondary = rng.below(3) as u32;
        let n_items = (n_primary + n_secondary) as u64;
        let lo: Vec<u32> = (0..n_primary)
            .map(|_| rng.below(3) as u32 + exact as u32)
            .collect();
        let hi: Vec<u32> = if exact {
            lo.clone()
        } else {
            lo.iter().map(|&l| l.max(1) + rng.below(3) as u32).collect()
        };
        let (start, item) = random_options(rng, n_items, 40);
        let color = vec![0; item.len()];
        if let Ok(p) = CompiledProblem::new(n_primary, n_secondary, lo, hi, start, item, color) {
            return p;
        }
    }
}

/// Ten options and up to `more` more, each of one to four of `n_items`
/// items, as `(start, item)`.
fn random_options(rng: &mut Rng, n_items: u64, more: u64) -> (Vec<u32>, Vec<u32>) {
    let (mut start, mut item) = (vec![0u32], Vec::new());
    for _ in 0..10 + rng.below(more) {
        let mut items: Vec<u32> = (0..1 + rng.below(4))
            .map(|_| rng.below(n_items) as u32)
            .collect();
        items.sort_unstable();
        items.dedup();
        item.extend(items);
        start.push(item.len() as u32);
    }
    (start, item)
}

#[test]
fn without_slack_the_choice_ties_to_the_item_declared_first() {
    // Every item's bounds equal: a forced item as soon as the scan meets
    // it, else the least branching degree, ties to the item declared first
    // (where the rule with slack weighs the list and the distance); the
    // same count as that rule's.
    let mut rng = Rng::new(32);
    for _ in 0..300 {
        let p = Arc::new(random_mcc_with(&mut rng, true));
        let never = AtomicBool::new(false);
        let mut general = CellSearch::new_until(p.clone(), None, None, &never).unwrap();
        let mut exact = CellSearch::new_until(p, None, None, &never).unwrap();
        assert!(exact.exact);
        general.exact = false;
        let cells = &exact.cells;
        let items = &cells.item[..cells.active as usize];
        let degree = |x: u32| cells.size(x) as i64 - cells.bound(x) as i64 + 1;
        let want = match items.iter().find(|&&x| degree(x) <= 1) {
            Some(&x) => (x, degree(x)),
            None => items
                .iter()
                .map(|&x| (degree(x), x))
                .min()
                .map_or(ALL_MET, |(t, x)| (x, t)),
        };
        assert_eq!(exact.choose_mcc(&mut Counters::default()), want);
        exact.reset();
        general.count(Limits::NONE, u64::MAX);
        exact.count(Limits::NONE, u64::MAX);
        assert_eq!(general.stats().solutions, exact.stats().solutions);
    }
}

#[test]
fn the_unclamped_choice_is_the_clamped_one() {
    // Same tree (nodes, mems, solutions) with and without the clamps of
    // the packed number, on problems where both apply.
    let mut rng = Rng::new(31);
    // The same first 20,000 nodes (a count may run far longer).
    let limits = Limits {
        nodes: 20_000,
        updates: u64::MAX,
    };
    let mut narrow_seen = 0;
    for _ in 0..300 {
        let p = Arc::new(random_mcc(&mut rng));
        let never = AtomicBool::new(false);
        let mut clamped = CellSearch::new_until(p.clone(), None, None, &never).unwrap();
        let mut unclamped = CellSearch::new_until(p, None, None, &never).unwrap();
        narrow_seen += unclamped.narrow as u32;
        clamped.narrow = false;
        clamped.count(limits, u64::MAX);
        unclamped.count(limits, u64::MAX);
        let (a, b) = (clamped.stats(), unclamped.stats());
        assert_eq!(
            (a.solutions, a.nodes, a.mems),
            (b.solutions, b.nodes, b.mems)
        );
    }
    assert_eq!(narrow_seen, 300);
}

#[test]
fn the_learning_rules_count_what_the_fewest_options_count() {
    // Other trees, the same solutions, and what the rules learned is
    // forgotten on a reset (the same tree again).
    let mut rng = Rng::new(33);
    let never = AtomicBool::new(false);
    let mut learned_something = 0;
    for _ in 0..300 {
        let p = Arc::new(random_mcc(&mut rng));
        let mut plain = CellSearch::new_until(p.clone(), None, None, &never).unwrap();
        let small = Limits {
            nodes: 100_000,
            updates: u64::MAX,
        };
        if plain.count(small, u64::MAX) != Step::Exhausted {
            continue; // (a tree too big for a unit test)
        }
        for rule in [
            Heuristic::Weighted,
            Heuristic::FailureRate,
            Heuristic::Binary,
        ] {
            let mut s = CellSearch::new_until(p.clone(), None, Some(rule), &never).unwrap();
            assert_eq!(s.engine(), Engine::CellsBy(rule));
            s.count(Limits::NONE, u64::MAX);
            let first = s.stats();
            assert_eq!(first.solutions, plain.stats().solutions);
            if let Some(learned) = s.learned.as_deref() {
                let start = if rule == Heuristic::Weighted {
                    1.0
                } else {
                    0.5
                };
                learned_something += learned.per.iter().any(|&w| w != start) as u32;
            }
            s.reset();
            s.count(Limits::NONE, u64::MAX);
            assert_eq!(
                (s.stats().nodes, s.stats().solutions),
                (first.nodes, first.solutions)
            );
        }
    }
    assert!(learned_something > 100, "{learned_something}");
}

/// A random problem with long options over few items, of the kind
/// dancing cells take snapshots for: 3 to 6 primary items, many
/// options of each (one primary item and 4 to 7 of 20 to 40 secondary
/// ones), as in his windmill dominoes.
fn random_long(rng: &mut Rng) -> CompiledProblem {
    loop {
        let n1 = 3 + rng.below(4) as u32;
        let n2 = 20 + rng.below(21) as u32;
        let (mut start, mut item) = (vec![0u32], Vec::new());
        for _ in 0..60 + rng.below(100) {
            let mut items: Vec<u32> = (0..4 + rng.below(4))
                .map(|_| n1 + rng.below(n2 as u64) as u32)
                .collect();
            items.push(rng.below(n1 as u64) as u32);
            items.sort_unstable();
            items.dedup();
            item.extend(items);
            start.push(item.len() as u32);
        }
        let color = vec![0; item.len()];
        let (lo, hi) = (vec![1; n1 as usize], vec![1; n1 as usize]);
        if let Ok(p) = CompiledProblem::new(n1, n2, lo, hi, start, item, color) {
            return p;
        }
    }
}

#[test]
fn binary_branching_keeps_to_the_trail_on_long_options() {
    // Binary branching has a level per option left out, not one per
    // item covered: more epochs along a path than snapshots of every
    // item have room for (his windmill dominoes overran the trail).
    let mut rng = Rng::new(34);
    let never = AtomicBool::new(false);
    for _ in 0..300 {
        let p = Arc::new(random_long(&mut rng));
        let mut plain = CellSearch::new_until(p.clone(), None, None, &never).unwrap();
        plain.count(Limits::NONE, u64::MAX);
        let mut binary =
            CellSearch::new_until(p.clone(), None, Some(Heuristic::Binary), &never).unwrap();
        binary.count(Limits::NONE, u64::MAX);
        assert_eq!(binary.stats().solutions, plain.stats().solutions);
        assert!(binary.cells.tlen <= binary.cells.trail.len());
    }
}

#[test]
fn the_probes_of_algorithm_m_estimate_its_tree() {
    // Knuth's estimate is unbiased for the tree its probes walk. Walking
    // Algorithm M's branches (an option, the ones before it left out),
    // the mean of many probes comes near the nodes a count visits; a
    // probe that took a random option alone met each set of options in
    // every order, and overestimated by orders of magnitude where items
    // take several options (REDRECT-DLX: 500 times).
    let mut rng = Rng::new(43);
    let never = AtomicBool::new(false);
    let mut ratios = Vec::new();
    while ratios.len() < 100 {
        let p = Arc::new(random_mcc(&mut rng));
        let mut s = CellSearch::new_until(p, None, None, &never).unwrap();
        s.count(Limits::NONE, u64::MAX);
        let nodes = s.stats().nodes as f64 + 1.0;
        if !(100.0..100_000.0).contains(&nodes) {
            continue;
        }
        let mut s = CellSearch::new_until(s.problem.clone(), None, None, &never).unwrap();
        let probes = 2000;
        let mut e = 0.0;
        for _ in 0..probes {
            let mut spent = 0;
            e += s.probe(&mut rng, &never, &mut spent).unwrap();
        }
        ratios.push(e / probes as f64 / nodes);
    }
    ratios.sort_by(f64::total_cmp);
    let median = ratios[ratios.len() / 2];
    assert!(
        (0.8..1.25).contains(&median),
        "median estimate / nodes {median}"
    );
}

#[test]
fn the_fewest_options_go_to_the_item_declared_first() {
    // Wherever a random count pauses, the choice of Algorithms X and C is
    // a forced move or dead end when there is one, else the least size,
    // ties to the item declared first (the least place in the sets).
    let mut rng = Rng::new(33);
    let mut ties_seen = 0;
    for _ in 0..300 {
        let n_primary = 3 + rng.below(10) as u32;
        let (start, item) = random_options(&mut rng, n_primary as u64, 60);
        let color = vec![0; item.len()];
        let ones = vec![1; n_primary as usize];
        let Ok(p) = CompiledProblem::new(n_primary, 0, ones.clone(), ones, start, item, color)
        else {
            continue;
        };
        let never = AtomicBool::new(false);
        let mut s = CellSearch::new_until(Arc::new(p), None, None, &never).unwrap();
        let limits = Limits {
            nodes: rng.below(40),
            updates: u64::MAX,
        };
        s.count(limits, u64::MAX);
        if s.cells.active == 0 {
            continue;
        }
        let mut c = Counters::default();
        let (x, t) = s.choose_fewest(&mut c);
        assert_eq!(s.cells.size(x), t);
        if t <= 1 {
            continue;
        }
        let active = &s.cells.item[..s.cells.active as usize];
        let least = active.iter().map(|&y| s.cells.size(y)).min().unwrap();
        let first = active.iter().filter(|&&y| s.cells.size(y) == least).min();
        ties_seen += (active.iter().filter(|&&y| s.cells.size(y) == least).count() > 1) as u32;
        assert_eq!((t, Some(&x)), (least, first));
    }
    assert!(ties_seen > 50, "{ties_seen} ties");
}

#[test]
fn options_of_two_nodes_count_what_every_subset_counts() {
    // Every option of two items: their hides take the one-loop walk
    // (`Cells::hide_pairs`), refused removals and all (Algorithm M's
    // check with ranges of bounds, Algorithm X's with one option left).
    let mut rng = Rng::new(34);
    let never = AtomicBool::new(false);
    let (mut mcc, mut solved) = (0, 0);
    for round in 0..400 {
        let n_primary = 2 + rng.below(6) as u32;
        let n_secondary = rng.below(3) as u32;
        let n_items = (n_primary + n_secondary) as u64;
        let ranges = round % 2 == 1;
        let lo: Vec<u32> = (0..n_primary)
            .map(|_| if ranges { rng.below(3) as u32 } else { 1 })
            .collect();
        let hi: Vec<u32> = lo
            .iter()
            .map(|&l| {
                if ranges {
                    l.max(1) + rng.below(2) as u32
                } else {
                    l
                }
            })
            .collect();
        let (mut start, mut item) = (vec![0u32], Vec::new());
        for _ in 0..4 + rng.below(9) {
            let a = rng.below(n_items) as u32;
            let b = (a + 1 + rng.below(n_items - 1) as u32) % n_items as u32;
            item.extend([a.min(b), a.max(b)]);
            start.push(item.len() as u32);
        }
        let color = vec![0; item.len()];
        let Ok(p) = CompiledProblem::new(n_primary, n_secondary, lo, hi, start, item, color) else {
            continue;
        };
        // (The tests' oracle: every subset of the options tried.)
        let want = p.every_solution_by_subsets(&vec![0; p.n_options()]).len() as u64;
        let p = Arc::new(p);
        let mut s = CellSearch::new_until(p.clone(), None, None, &never).unwrap();
        assert_eq!(s.cells.uniform, 2);
        s.count(Limits::NONE, u64::MAX);
        assert_eq!(s.stats().solutions, want, "round {round}");
        mcc += p.has_multiplicities() as u32;
        solved += (want > 0) as u32;
    }
    assert!(
        mcc > 100 && solved > 100,
        "{mcc} with multiplicities, {solved} with solutions"
    );
}

/// Exact covers of `p` counted by hand, the first uncovered primary item
/// taking each option in turn: the oracle for the counts that skip the
/// last levels (`leaf_items`, `count_pairs`).
fn count_by_hand(p: &CompiledProblem, used: &mut Vec<Option<u32>>) -> u64 {
    let Some(x) = (0..p.n_primary()).find(|&i| used[i].is_none()) else {
        return 1;
    };
    let mut n = 0;
    for o in 0..p.n_options() {
        let start = p.option_start()[o] as usize;
        let items = p.option(o);
        if !items.contains(&(x as u32)) {
            continue;
        }
        // Free: a primary item not yet covered, a secondary one unused or
        // used by options of the same color as this one's.
        let free = items.iter().enumerate().all(|(j, &i)| {
            let color = p.color_at(start + j);
            match used[i as usize] {
                None => true,
                Some(c) => i as usize >= p.n_primary() && c != 0 && c == color,
            }
        });
        if !free {
            continue;
        }
        let before = used.clone();
        for (j, &i) in items.iter().enumerate() {
            used[i as usize] = Some(p.color_at(start + j));
        }
        n += count_by_hand(p, used);
        *used = before;
    }
    n
}

#[test]
fn the_last_two_options_count_as_the_whole_search() {
    // Options of the same number of primary items (1 to 3) and up to two
    // secondary ones, colored or not: the counts that end a branch without
    // covering (every option of the last item, or two options, when the
    // active items are those of one or two options) against a count by
    // hand, in the input order, shuffled, and by every branching rule.
    let mut rng = Rng::new(35);
    let never = AtomicBool::new(false);
    let mut paired = 0;
    for round in 0..400 {
        let each = 1 + rng.below(3) as u32;
        let n1 = each * (1 + rng.below(4) as u32) + rng.below(2) as u32;
        let n2 = rng.below(4) as u32;
        let colors = round % 3 == 0;
        let (mut start, mut item, mut color) = (vec![0u32], Vec::new(), Vec::new());
        for _ in 0..5 + rng.below(40) {
            let mut items: Vec<u32> = Vec::new();
            while items.len() < each as usize {
                let i = rng.below(n1 as u64) as u32;
                if !items.contains(&i) {
                    items.push(i);
                }
            }
            // A round in four, one secondary item in every option: all
            // of the same length.
            let fixed = round % 4 == 1 && n2 > 0;
            if fixed {
                items.push(n1 + rng.below(n2 as u64) as u32);
            }
            for _ in 0..if fixed { 0 } else { rng.below(3) } {
                if n2 > 0 {
                    let i = n1 + rng.below(n2 as u64) as u32;
                    if !items.contains(&i) {
                        items.push(i);
                    }
                }
            }
            items.sort_unstable();
            for &i in &items {
                color.push(if colors && i >= n1 {
                    rng.below(3) as u32
                } else {
                    0
                });
            }
            item.extend(items);
            start.push(item.len() as u32);
        }
        let lo = vec![1; n1 as usize];
        let Ok(p) = CompiledProblem::new(n1, n2, lo.clone(), lo, start, item, color) else {
            continue;
        };
        let want = count_by_hand(&p, &mut vec![None; p.n_items()]);
        let p = Arc::new(p);
        paired += (want > 0 && n1 >= 2 * each && !colors) as u32;
        let rules = [
            (None, None),
            (Some(round as u64), None),
            (None, Some(Heuristic::Binary)),
            (None, Some(Heuristic::Weighted)),
        ];
        // The pairs by their options' masks, and item by item.
        for ((seed, rule), masked) in rules.into_iter().flat_map(|r| [(r, true), (r, false)]) {
            let mut s = CellSearch::new_until(p.clone(), seed, rule, &never).unwrap();
            assert_eq!(s.leaf, each, "round {round}");
            assert_eq!(s.masks.is_some(), !p.has_colors(), "round {round}");
            if !masked {
                s.masks = None;
            }
            s.count(Limits::NONE, u64::MAX);
            assert_eq!(
                s.stats().solutions,
                want,
                "round {round}, {seed:?} {rule:?}, masks {masked}"
            );
        }
    }
    assert!(paired > 50, "{paired} counts that could pair");
}

#[test]
fn the_pairs_take_masks_up_to_128_items() {
    // n items in a ring, each option two neighbours: 2 covers for n even.
    // Masks for 128 items, not for 130; the same count either way.
    let never = AtomicBool::new(false);
    for n in [128u32, 130] {
        let mut item = Vec::new();
        let mut start = vec![0u32];
        for i in 0..n {
            item.extend([i, (i + 1) % n]);
            start.push(item.len() as u32);
        }
        let one = vec![1; n as usize];
        let p = CompiledProblem::new(n, 0, one.clone(), one, start, item, vec![]).unwrap();
        // The memory estimate counts them where they are made: 16 bytes
        // a node and a byte an entry of `set`.
        let bytes = if n <= 128 {
            16 * (3 * n + 1) + 2 * n + 5 * n
        } else {
            0
        };
        assert_eq!(pairs::mask_bytes(&p), bytes as u64, "{n} items");
        let mut s = CellSearch::new_until(Arc::new(p), None, None, &never).unwrap();
        assert_eq!(s.masks.is_some(), n <= 128, "{n} items");
        s.count(Limits::NONE, u64::MAX);
        assert_eq!(s.stats().solutions, 2, "{n} items");
    }
}

#[test]
fn long_options_of_one_length_count_what_is_counted_by_hand() {
    // Every option of 5 to 8 items, as a piece and its cells: covers hide
    // them as rings of that length (`Cells::long_walk`), the set walked
    // left as it is. Against a count by hand (Algorithms X and C: colored
    // or not, with snapshots or on the trail, in the input order,
    // shuffled, by the binary rule) or every subset (Algorithm M).
    let mut rng = Rng::new(36);
    let never = AtomicBool::new(false);
    let (mut solved, mut mcc) = (0, 0);
    for round in 0..400 {
        let len = 5 + round % 4;
        // A planted tiling: `k` options that partition the items, so
        // that some rounds have solutions, among random ones.
        let k = 2 + rng.below(2) as u32;
        let n = k * len;
        let n2 = rng.below(3) as u32;
        let n1 = n - n2;
        let multiplicities = round % 5 == 4;
        let colors = !multiplicities && round % 3 == 0;
        let mut order: Vec<u32> = (0..n).collect();
        shuffle(&mut rng, &mut order);
        let mut options: Vec<Vec<u32>> = order.chunks(len as usize).map(|c| c.to_vec()).collect();
        let more = if multiplicities {
            6
        } else {
            4 + rng.below(30) as usize
        };
        while options.len() < k as usize + more {
            let mut items: Vec<u32> = Vec::new();
            while items.len() < len as usize {
                let i = rng.below(n as u64) as u32;
                if !items.contains(&i) {
                    items.push(i);
                }
            }
            options.push(items);
        }
        shuffle(&mut rng, &mut options);
        let (mut start, mut item, mut color) = (vec![0u32], Vec::new(), Vec::new());
        for mut items in options {
            items.sort_unstable();
            for &i in &items {
                color.push(if colors && i >= n1 {
                    1 + rng.below(2) as u32
                } else {
                    0
                });
            }
            item.extend(items);
            start.push(item.len() as u32);
        }
        let lo: Vec<u32> = (0..n1)
            .map(|_| {
                if multiplicities {
                    rng.below(2) as u32
                } else {
                    1
                }
            })
            .collect();
        let hi: Vec<u32> = lo.iter().map(|&l| l + multiplicities as u32).collect();
        let Ok(p) = CompiledProblem::new(n1, n2, lo, hi, start, item, color) else {
            continue;
        };
        let want = if multiplicities {
            p.every_solution_by_subsets(&vec![0; p.n_options()]).len() as u64
        } else {
            count_by_hand(&p, &mut vec![None; p.n_items()])
        };
        let p = Arc::new(p);
        solved += (want > 0) as u32;
        mcc += multiplicities as u32;
        let rules: &[(Option<u64>, Option<Heuristic>)] = if multiplicities {
            &[(None, None), (Some(round as u64), None)]
        } else {
            &[
                (None, None),
                (Some(round as u64), None),
                (None, Some(Heuristic::Binary)),
            ]
        };
        for &(seed, rule) in rules {
            let mut s = CellSearch::new_until(p.clone(), seed, rule, &never).unwrap();
            assert_eq!(s.cells.long_walk(), len, "round {round}");
            s.count(Limits::NONE, u64::MAX);
            assert_eq!(
                s.stats().solutions,
                want,
                "round {round}, {seed:?} {rule:?}"
            );
        }
    }
    assert!(
        solved > 200 && mcc > 50,
        "{solved} with solutions, {mcc} with multiplicities"
    );
}

/// Fisher and Yates.
fn shuffle<T>(rng: &mut Rng, v: &mut [T]) {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.below(i as u64 + 1) as usize);
    }
}

#[test]
fn snapshots_of_algorithm_m_count_what_the_trail_counts() {
    // Long options and multiplicities: Algorithm M's epochs start with a
    // snapshot of every active item (its size and bound), and its levels
    // start none of their own (M4 works in the try above). Against every
    // subset (up to 16 options) and the same search saving on the trail,
    // in the input order and shuffled; the trail never grows past its room.
    let mut rng = Rng::new(37);
    let never = AtomicBool::new(false);
    let (mut subsets, mut solved) = (0, 0);
    for round in 0..300 {
        let n1 = 8 + rng.below(6) as u32;
        let n2 = rng.below(4) as u32;
        let n = (n1 + n2) as u64;
        let small = round % 3 != 0;
        let m = if small {
            8 + rng.below(9)
        } else {
            20 + rng.below(41)
        };
        let (mut start, mut item) = (vec![0u32], Vec::new());
        for _ in 0..m {
            // Mostly 5 to 8 items, a few of 3: some rounds of one length
            // (rings), some mixed (the whole walk).
            let len = if rng.below(8) == 0 {
                3
            } else {
                5 + rng.below(4)
            };
            let mut items: Vec<u32> = Vec::new();
            while (items.len() as u64) < len {
                let i = rng.below(n) as u32;
                if !items.contains(&i) {
                    items.push(i);
                }
            }
            items.sort_unstable();
            item.extend(items);
            start.push(item.len() as u32);
        }
        // Bounds with slack and without: 0:1, 1:1, 1:2, 0:2, 2:3; most
        // items taken at most once (else the stamps pay, not snapshots).
        let (lo, hi): (Vec<u32>, Vec<u32>) = (0..n1)
            .map(|x| {
                let kinds = if 2 * x <= n1 { 2 } else { 5 };
                [(0, 1), (1, 1), (1, 2), (0, 2), (2, 3)][rng.below(kinds) as usize]
            })
            .unzip();
        let color = vec![0; item.len()];
        let Ok(p) = CompiledProblem::new(n1, n2, lo, hi, start, item, color) else {
            continue;
        };
        let p = Arc::new(p);
        let mut counts = Vec::new();
        for seed in [None, Some(round as u64)] {
            for snapshot in [true, false] {
                let mut s = CellSearch::new_until(p.clone(), seed, None, &never).unwrap();
                assert!(s.cells.snapshot, "round {round}: no snapshots");
                s.cells.snapshot = snapshot;
                let room = s.cells.room;
                s.count(Limits::NONE, u64::MAX);
                assert_eq!(s.cells.room, room, "round {round}: the trail grew");
                counts.push(s.stats().solutions);
            }
        }
        assert!(
            counts.iter().all(|&k| k == counts[0]),
            "round {round}: {counts:?}"
        );
        if small {
            let want = p.every_solution_by_subsets(&vec![0; p.n_options()]).len() as u64;
            assert_eq!(counts[0], want, "round {round}");
            subsets += 1;
        }
        solved += (counts[0] > 0) as u32;
    }
    assert!(
        subsets > 150 && solved > 100,
        "{subsets} against subsets, {solved} with solutions"
    );
}
