//! Kasteleyn's method: the perfect matchings of a planar graph counted in
//! polynomial time, exactly.
//!
//! An exact cover problem whose options each hold exactly two primary items
//! (and nothing else), every item to be covered once, is the problem of the
//! perfect matchings of a graph: the items are its vertices, the options
//! its edges (two options on the same pair are two edges: the pair gets the
//! weight 2). Where that graph is planar, Kasteleyn (1961, 1967) and Fisher
//! and Temperley showed how to count them without listing them:
//!
//! 1. embed the graph in the plane ([`planar`]: each block by the algorithm
//!    of Demoucron, Malgrange and Pertuiset, the blocks joined at their cut
//!    vertices), or learn that it is not planar;
//! 2. orient its edges so that every face but one has an odd number of
//!    edges oriented along its walk ([`orient`], the FKT construction: a
//!    spanning tree oriented at will, then the other edges face by face,
//!    leaves of the dual tree first);
//! 3. the signed, weighted, skew-symmetric adjacency matrix `A` of that
//!    orientation has `Pf(A)^2 = det(A)`, and `|Pf(A)|` is the number of
//!    perfect matchings; on a bipartite graph `A = [[0, B], [-B^T, 0]]` and
//!    `|Pf(A)| = |det(B)|`. The determinant is taken modulo primes near
//!    2^62, as many as Hadamard's bound asks, by elimination along the
//!    profile of a banded order of the vertices, and put together by the
//!    Chinese remainder theorem ([`det`]).
//!
//! Each connected component is counted apart and the counts multiplied.
//! Nothing is estimated: a graph the embedding refuses is not planar, and a
//! count is exact or not given.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use xc::{CompiledProblem, Number};
//! // The 2 x 3 board's cells 0..6 row by row, its 7 dominoes.
//! let pairs = [[0, 1], [1, 2], [3, 4], [4, 5], [0, 3], [1, 4], [2, 5]];
//! let items: Vec<u32> = pairs.iter().flatten().copied().collect();
//! let start: Vec<u32> = (0..=7).map(|k| 2 * k).collect();
//! let p = CompiledProblem::new(6, 0, vec![1; 6], vec![1; 6], start, items, vec![]).unwrap();
//! let n = xc::kasteleyn::count(&p, u64::MAX, &AtomicBool::new(false)).unwrap();
//! assert_eq!(n, Some(Number::Small(3)));
//! ```

mod det;
mod orient;
mod planar;

use std::sync::atomic::AtomicBool;

use crate::core::number::Number;
use crate::core::problem::CompiledProblem;

/// Why Kasteleyn's method does not apply to a problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KasteleynError {
    /// The option (numbered from 0) does not hold exactly two primary items.
    NotAPair(usize),
    /// The option holds a secondary item.
    Secondary(usize),
    /// The primary item is not to be covered exactly once.
    Multiplicity(usize),
    /// The component holding this primary item is not planar.
    NotPlanar(usize),
    /// The determinant would hold about this many bytes, past the limit.
    TooLarge(u64),
    /// The embedding found broke Euler's formula: a fault of ours, never
    /// a count.
    Internal,
}

impl std::fmt::Display for KasteleynError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KasteleynError::NotAPair(o) => {
                write!(f, "option {o} does not hold exactly two primary items")
            }
            KasteleynError::Secondary(o) => write!(f, "option {o} holds a secondary item"),
            KasteleynError::Multiplicity(i) => {
                write!(f, "item {i} is not to be covered exactly once")
            }
            KasteleynError::NotPlanar(i) => {
                write!(
                    f,
                    "the graph of the options is not planar (the part holding item {i})"
                )
            }
            KasteleynError::TooLarge(b) => {
                write!(
                    f,
                    "the determinant would hold about {b} bytes, past the limit"
                )
            }
            KasteleynError::Internal => write!(f, "the planar embedding found is not one"),
        }
    }
}

/// A graph with weighted edges, vertices `0..n`, edges `(u, v, weight)`
/// with `u < v`, each pair once.
#[derive(Clone, Debug)]
pub struct Graph {
    pub n: usize,
    pub edges: Vec<(u32, u32, u64)>,
}

impl Graph {
    /// Each vertex's neighbours, sorted, with the edge to each:
    /// (`start`, `(neighbour, edge)`), CSR.
    pub(crate) fn adjacency(&self) -> (Vec<usize>, Vec<(u32, u32)>) {
        let mut degree = vec![0usize; self.n + 1];
        for &(u, v, _) in &self.edges {
            degree[u as usize + 1] += 1;
            degree[v as usize + 1] += 1;
        }
        for k in 0..self.n {
            degree[k + 1] += degree[k];
        }
        let mut at = degree.clone();
        let mut adj = vec![(0, 0); 2 * self.edges.len()];
        for (e, &(u, v, _)) in self.edges.iter().enumerate() {
            adj[at[u as usize]] = (v, e as u32);
            at[u as usize] += 1;
            adj[at[v as usize]] = (u, e as u32);
            at[v as usize] += 1;
        }
        for k in 0..self.n {
            adj[degree[k]..degree[k + 1]].sort_unstable();
        }
        (degree, adj)
    }
}

/// The graph of `p` (vertices its primary items, an edge of weight w for
/// each pair held by w options), or why `p` is not a matching problem.
pub fn matching_graph(p: &CompiledProblem) -> Result<Graph, KasteleynError> {
    let n = p.n_primary();
    for i in 0..n {
        if p.lo()[i] != 1 || p.hi()[i] != 1 {
            return Err(KasteleynError::Multiplicity(i));
        }
    }
    let mut pairs = Vec::with_capacity(p.n_options());
    for o in 0..p.n_options() {
        let items = p.option(o);
        if items.iter().any(|&i| i as usize >= n) {
            return Err(KasteleynError::Secondary(o));
        }
        if items.len() != 2 || items[0] == items[1] {
            return Err(KasteleynError::NotAPair(o));
        }
        pairs.push((items[0].min(items[1]), items[0].max(items[1])));
    }
    pairs.sort_unstable();
    let mut edges: Vec<(u32, u32, u64)> = Vec::new();
    for (u, v) in pairs {
        match edges.last_mut() {
            Some(last) if (last.0, last.1) == (u, v) => last.2 += 1,
            _ => edges.push((u, v, 1)),
        }
    }
    Ok(Graph { n, edges })
}

/// The number of perfect matchings of `p`'s graph (see the module's text),
/// holding at most `memory` bytes for a determinant; `Ok(None)` if `stop`
/// went up first, or why the method does not apply.
pub fn count(
    p: &CompiledProblem,
    memory: u64,
    stop: &AtomicBool,
) -> Result<Option<Number>, KasteleynError> {
    let g = matching_graph(p)?;
    let mut total = Number::Small(1);
    for (vertices, part) in components(g.n, &g.edges) {
        if vertices.len() % 2 == 1 {
            // (Checked before the others' planarity: the count is 0 anyway.)
            return Ok(Some(Number::ZERO));
        }
        let Some(rotation) = planar::embed(&part, stop) else {
            return Ok(None);
        };
        let rotation = rotation.ok_or(KasteleynError::NotPlanar(vertices[0] as usize))?;
        let signs = orient::pfaffian(&part, &rotation).ok_or(KasteleynError::Internal)?;
        let Some(c) = det::count(&part, &rotation, &signs, memory, stop)? else {
            return Ok(None);
        };
        if c == Number::ZERO {
            return Ok(Some(Number::ZERO));
        }
        total.mul(&c);
    }
    Ok(Some(total))
}

/// The connected components of the graph: each one's vertices (in
/// increasing order) and its graph on them, numbered `0..` in that order.
fn components(n: usize, edges: &[(u32, u32, u64)]) -> Vec<(Vec<u32>, Graph)> {
    let mut parent: Vec<u32> = (0..n as u32).collect();
    fn root(parent: &mut [u32], mut x: u32) -> u32 {
        while parent[x as usize] != x {
            parent[x as usize] = parent[parent[x as usize] as usize];
            x = parent[x as usize];
        }
        x
    }
    for &(u, v, _) in edges {
        let (a, b) = (root(&mut parent, u), root(&mut parent, v));
        if a != b {
            parent[a.max(b) as usize] = a.min(b);
        }
    }
    let mut which = vec![usize::MAX; n];
    let mut local = vec![0u32; n];
    let mut parts: Vec<(Vec<u32>, Graph)> = Vec::new();
    for v in 0..n {
        let r = root(&mut parent, v as u32) as usize;
        if which[r] == usize::MAX {
            which[r] = parts.len();
            parts.push((
                Vec::new(),
                Graph {
                    n: 0,
                    edges: Vec::new(),
                },
            ));
        }
        let k = which[r];
        which[v] = k;
        local[v] = parts[k].0.len() as u32;
        parts[k].0.push(v as u32);
        parts[k].1.n += 1;
    }
    for &(u, v, w) in edges {
        let k = which[u as usize];
        parts[k]
            .1
            .edges
            .push((local[u as usize], local[v as usize], w));
    }
    parts
}

#[cfg(test)]
mod tests;
