//! A Pfaffian orientation of a connected plane graph (the FKT
//! construction): every face but the first walked has an odd number of its
//! edges oriented along the walk.
//!
//! The faces are walked with the same hand ([`Rotation`]); a spanning tree
//! is oriented at will; the edges left are the dual tree of the faces
//! (Euler's formula), and each face, leaves of that tree first, has all its
//! edges oriented but the one to its parent face, which is then oriented to
//! make the face's count odd. Kasteleyn's theorem: every cycle then has the
//! parity of the vertices it encloses, so each perfect matching has the
//! same sign in the Pfaffian.

use std::collections::VecDeque;

use super::Graph;
use super::planar::Rotation;

/// For each edge `(u, v, w)` of `g`, whether it is oriented from `u` to
/// `v`; None if `rotation` is not a plane embedding of the connected `g`
/// (Euler's formula fails): a fault, never a count.
pub(crate) fn pfaffian(g: &Graph, rotation: &Rotation) -> Option<Vec<bool>> {
    let (n, m) = (g.n, g.edges.len());
    let (start, adj, next) = (&rotation.start, &rotation.adj, &rotation.next);
    // A dart is an entry k of the adjacency: from its owner to adj[k].0.
    let mut owner = vec![0u32; adj.len()];
    for v in 0..n {
        owner[start[v]..start[v + 1]].fill(v as u32);
    }
    let mut face_of = vec![u32::MAX; adj.len()];
    let mut faces: Vec<Vec<u32>> = Vec::new();
    for k in 0..adj.len() {
        if face_of[k] != u32::MAX {
            continue;
        }
        let f = faces.len() as u32;
        let mut walk = Vec::new();
        let mut d = k;
        loop {
            face_of[d] = f;
            walk.push(d as u32);
            // Arrived at u from v: leave by the neighbour after v around u.
            let (v, u) = (owner[d], adj[d].0);
            d = next[rotation.entry(u, v)] as usize;
            if d == k {
                break;
            }
            if face_of[d] != u32::MAX || walk.len() > adj.len() {
                return None;
            }
        }
        faces.push(walk);
    }
    if n + faces.len() != m + 2 {
        return None; // (Euler: V - E + F = 2 on the sphere)
    }
    // The spanning tree, oriented from the smaller end.
    let mut orient = vec![true; m];
    let mut tree = vec![false; m];
    let mut seen = vec![false; n];
    let mut queue = VecDeque::from([0u32]);
    seen[0] = true;
    while let Some(v) = queue.pop_front() {
        for &(u, e) in &adj[start[v as usize]..start[v as usize + 1]] {
            if !seen[u as usize] {
                seen[u as usize] = true;
                tree[e as usize] = true;
                queue.push_back(u);
            }
        }
    }
    // The dual tree: faces joined by the other edges, from face 0.
    let mut across: Vec<Vec<(u32, u32)>> = vec![Vec::new(); faces.len()];
    for (e, &(u, v, _)) in g.edges.iter().enumerate() {
        if !tree[e] {
            let (f1, f2) = (face_of[rotation.entry(u, v)], face_of[rotation.entry(v, u)]);
            if f1 == f2 {
                return None;
            }
            across[f1 as usize].push((f2, e as u32));
            across[f2 as usize].push((f1, e as u32));
        }
    }
    let mut parent_edge = vec![u32::MAX; faces.len()];
    let mut order = vec![0u32];
    let mut reached = vec![false; faces.len()];
    reached[0] = true;
    let mut at = 0;
    while at < order.len() {
        let f = order[at] as usize;
        at += 1;
        for &(h, e) in &across[f] {
            if !reached[h as usize] {
                reached[h as usize] = true;
                parent_edge[h as usize] = e;
                order.push(h);
            }
        }
    }
    if order.len() != faces.len() {
        return None;
    }
    // Is dart d along its edge's orientation?
    let along = |orient: &[bool], d: u32| {
        let (v, (u, e)) = (owner[d as usize], adj[d as usize]);
        orient[e as usize] == (v < u)
    };
    for &f in order[1..].iter().rev() {
        let pe = parent_edge[f as usize];
        let mut odd = false;
        let mut last = u32::MAX;
        for &d in &faces[f as usize] {
            if adj[d as usize].1 == pe {
                last = d;
            } else {
                odd ^= along(&orient, d);
            }
        }
        if last == u32::MAX {
            return None;
        }
        // The parent edge along the walk if the others are even.
        let (v, u) = (owner[last as usize], adj[last as usize].0);
        orient[pe as usize] = (v < u) != odd;
    }
    for &f in &order[1..] {
        let count = faces[f as usize]
            .iter()
            .filter(|&&d| along(&orient, d))
            .count();
        if count % 2 == 0 {
            return None;
        }
    }
    Some(orient)
}
