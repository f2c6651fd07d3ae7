use std::sync::atomic::AtomicBool;

use super::*;
use crate::core::number::Number;
use crate::core::problem::CompiledProblem;
use crate::counting::frontier::Frontier;

/// The problem of the perfect matchings of the graph on `n` vertices with
/// these `edges`.
fn problem(n: usize, edges: &[(u32, u32)]) -> CompiledProblem {
    let items: Vec<u32> = edges.iter().flat_map(|&(u, v)| [u, v]).collect();
    let start: Vec<u32> = (0..=edges.len() as u32).map(|k| 2 * k).collect();
    CompiledProblem::new(n as u32, 0, vec![1; n], vec![1; n], start, items, vec![]).unwrap()
}

fn kasteleyn(n: usize, edges: &[(u32, u32)]) -> Result<Number, KasteleynError> {
    count(&problem(n, edges), u64::MAX, &AtomicBool::new(false)).map(|c| c.unwrap())
}

fn frontier(n: usize, edges: &[(u32, u32)]) -> Number {
    Frontier::new(&problem(n, edges)).unwrap().count()
}

fn grid(w: u32, h: u32) -> Vec<(u32, u32)> {
    let mut e = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let v = y * w + x;
            if x + 1 < w {
                e.push((v, v + 1));
            }
            if y + 1 < h {
                e.push((v, v + w));
            }
        }
    }
    e
}

#[test]
fn domino_boards() {
    assert_eq!(kasteleyn(64, &grid(8, 8)), Ok(Number::Small(12_988_816)));
    assert_eq!(kasteleyn(15, &grid(5, 3)), Ok(Number::ZERO));
    assert_eq!(kasteleyn(2, &[(0, 1)]), Ok(Number::Small(1)));
}

#[test]
fn triangles_and_cut_vertices() {
    // Two triangles sharing no vertex, joined by an edge: one matching.
    let e = [(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5), (2, 3)];
    assert_eq!(kasteleyn(6, &e), Ok(frontier(6, &e)));
    // K4 (planar): 3 matchings.
    let k4 = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];
    assert_eq!(kasteleyn(4, &k4), Ok(Number::Small(3)));
}

#[test]
fn not_planar() {
    let mut k33 = Vec::new();
    for a in 0..3 {
        for b in 3..6 {
            k33.push((a, b));
        }
    }
    assert_eq!(kasteleyn(6, &k33), Err(KasteleynError::NotPlanar(0)));
    let k6: Vec<(u32, u32)> = (0..6)
        .flat_map(|a| (a + 1..6).map(move |b| (a, b)))
        .collect();
    assert_eq!(kasteleyn(6, &k6), Err(KasteleynError::NotPlanar(0)));
}

/// Random graphs, planar or not: a count given is the frontier's.
#[test]
fn random_graphs_agree_with_the_frontier() {
    let mut rng = crate::core::rng::Rng::new(7);
    let mut counted = 0;
    for round in 0..600 {
        let n = 2 + 2 * (rng.below(7) as u32);
        let mut edges = Vec::new();
        let density = 1 + rng.below(4);
        let density = if n > 8 { density.min(2) } else { density };
        for a in 0..n {
            for b in a + 1..n {
                if rng.below(8) < density {
                    edges.push((a, b));
                }
            }
        }
        match kasteleyn(n as usize, &edges) {
            Ok(c) => {
                counted += 1;
                assert_eq!(c, frontier(n as usize, &edges), "round {round}: {edges:?}");
            }
            Err(KasteleynError::NotPlanar(_)) => {}
            Err(e) => panic!("round {round}: {e}"),
        }
    }
    assert!(counted > 300, "{counted}");
}

/// Random subgraphs of a triangulated grid (planar, not bipartite, with
/// cut vertices and bridges as they come): always counted, as the frontier
/// counts them.
#[test]
fn planar_subgraphs_are_always_counted() {
    let mut rng = crate::core::rng::Rng::new(11);
    for round in 0..300 {
        let (w, h) = (2 + rng.below(4) as u32, 2 + rng.below(4) as u32);
        let mut all = grid(w, h);
        for y in 0..h - 1 {
            for x in 0..w - 1 {
                // One diagonal of each square, either way.
                let v = y * w + x;
                all.push(if rng.below(2) == 0 {
                    (v, v + w + 1)
                } else {
                    (v + 1, v + w)
                });
            }
        }
        let keep = 5 + rng.below(6);
        let mut edges: Vec<(u32, u32)> = all.into_iter().filter(|_| rng.below(10) < keep).collect();
        // The vertices shuffled, so that no order of the input helps.
        let n = w * h;
        let mut name: Vec<u32> = (0..n).collect();
        for k in (1..n as usize).rev() {
            name.swap(k, rng.below(k as u64 + 1) as usize);
        }
        for e in &mut edges {
            *e = (name[e.0 as usize], name[e.1 as usize]);
        }
        let got = kasteleyn(n as usize, &edges);
        assert_eq!(
            got,
            Ok(frontier(n as usize, &edges)),
            "round {round}: {w}x{h} {edges:?}"
        );
    }
}

#[test]
fn a_determinant_past_the_memory_limit_is_refused_before_it_is_built() {
    let p = problem(64, &grid(8, 8));
    let e = count(&p, 1000, &AtomicBool::new(false)).unwrap_err();
    assert!(matches!(e, KasteleynError::TooLarge(b) if b > 1000));
    assert_eq!(
        count(&p, 1 << 20, &AtomicBool::new(false)),
        Ok(Some(Number::Small(12_988_816)))
    );
}
