//! A planar embedding of a graph, or the news that it has none: the graph
//! cut into its blocks (Tarjan's biconnected components), each block of
//! three or more vertices embedded by the algorithm of Demoucron, Malgrange
//! and Pertuiset (1964), the blocks joined at their cut vertices.
//!
//! DMP embeds a cycle, then paths: each step finds the fragments of the
//! graph left (an edge between embedded vertices, or a component of the
//! vertices not embedded with its edges to the embedded ones, its
//! attachments) and the faces holding all the attachments of each; a
//! fragment with no such face proves the graph not planar, one with a
//! single face is embedded first, and a path of it, between two of its
//! attachments, splits the face in two. On a block that is planar the
//! embedding so far can always be finished (the algorithm's theorem), so
//! the answer is exact. Each step reads the whole block: quadratic, and a
//! block of a few thousand vertices takes a fraction of a second.

use std::sync::atomic::{AtomicBool, Ordering};

use super::Graph;

/// A rotation system: around each vertex the cyclic order of its
/// neighbours. `next[k]`, for the entry `k` of the adjacency (`adj[k]` a
/// neighbour `u` of `v`, `k` in `v`'s range), is the entry of the neighbour
/// after `u` around `v`. A face is walked by leaving `v` towards
/// `next`'s neighbour of the one it came from.
pub(crate) struct Rotation {
    pub start: Vec<usize>,
    pub adj: Vec<(u32, u32)>,
    pub next: Vec<u32>,
}

impl Rotation {
    /// The entry of `u` in `v`'s neighbours.
    pub fn entry(&self, v: u32, u: u32) -> usize {
        entry(&self.start, &self.adj, v, u)
    }
}

fn entry(start: &[usize], adj: &[(u32, u32)], v: u32, u: u32) -> usize {
    let (lo, hi) = (start[v as usize], start[v as usize + 1]);
    lo + adj[lo..hi].partition_point(|&(w, _)| w < u)
}

/// A planar embedding of the connected graph `g`: `Some(None)` if it has
/// none, None if `stop` went up first.
pub(crate) fn embed(g: &Graph, stop: &AtomicBool) -> Option<Option<Rotation>> {
    let (start, adj) = g.adjacency();
    if g.n >= 3 && g.edges.len() > 3 * g.n - 6 {
        return Some(None); // (Euler's formula)
    }
    let mut next = vec![u32::MAX; adj.len()];
    // Around each vertex, an entry of the first block met there: the
    // other blocks' rotations are spliced in after it.
    let mut anchor = vec![u32::MAX; g.n];
    let mut scratch = vec![u32::MAX; g.n];
    let mut seen = vec![u32::MAX; g.n];
    for (b, block) in blocks(g.n, &start, &adj).into_iter().enumerate() {
        if block.len() == 1 {
            // A bridge: each end's rotation is the edge alone.
            let (u, v, _) = g.edges[block[0] as usize];
            let (a, b) = (entry(&start, &adj, u, v), entry(&start, &adj, v, u));
            next[a] = a as u32;
            next[b] = b as u32;
        } else {
            let edges: Vec<(u32, u32)> = block
                .iter()
                .map(|&e| (g.edges[e as usize].0, g.edges[e as usize].1))
                .collect();
            let faces = match dmp(&edges, &mut scratch, stop)? {
                Some(f) => f,
                None => return Some(None),
            };
            for face in &faces {
                let k = face.len();
                for i in 0..k {
                    let (u, v, w) = (face[i], face[(i + 1) % k], face[(i + 2) % k]);
                    next[entry(&start, &adj, v, u)] = entry(&start, &adj, v, w) as u32;
                }
            }
        }
        // Splice this block's rotation at each of its vertices into what
        // is there (two cycles made one: the block put in a corner).
        for &e in &block {
            let (u, v, _) = g.edges[e as usize];
            for (x, y) in [(u, v), (v, u)] {
                if seen[x as usize] == b as u32 {
                    continue; // (once a block and vertex)
                }
                seen[x as usize] = b as u32;
                let here = entry(&start, &adj, x, y) as u32;
                match anchor[x as usize] {
                    u32::MAX => anchor[x as usize] = here,
                    a => next.swap(a as usize, here as usize),
                }
            }
        }
    }
    debug_assert!(next.iter().all(|&k| k != u32::MAX));
    Some(Some(Rotation { start, adj, next }))
}

/// The blocks (biconnected components) of the graph, each as its edges:
/// Tarjan's depth-first search, iterative (a path of a million vertices
/// would overflow a recursion).
fn blocks(n: usize, start: &[usize], adj: &[(u32, u32)]) -> Vec<Vec<u32>> {
    const NONE: u32 = u32::MAX;
    let mut disc = vec![NONE; n];
    let mut low = vec![0u32; n];
    let mut time = 0u32;
    let mut edges: Vec<u32> = Vec::new();
    let mut found = Vec::new();
    // (vertex, the edge it was reached by, the next entry to look at)
    let mut path: Vec<(u32, u32, usize)> = Vec::new();
    for s in 0..n {
        if disc[s] != NONE {
            continue;
        }
        disc[s] = time;
        low[s] = time;
        time += 1;
        path.push((s as u32, NONE, start[s]));
        while let Some(top) = path.last_mut() {
            let (v, reached_by) = (top.0 as usize, top.1);
            if top.2 < start[v + 1] {
                let (w, e) = adj[top.2];
                top.2 += 1;
                if e == reached_by {
                    continue;
                }
                let w = w as usize;
                if disc[w] == NONE {
                    edges.push(e);
                    disc[w] = time;
                    low[w] = time;
                    time += 1;
                    path.push((w as u32, e, start[w]));
                } else if disc[w] < disc[v] {
                    edges.push(e); // a back edge
                    low[v] = low[v].min(disc[w]);
                }
            } else {
                path.pop();
                if let Some(&(u, _, _)) = path.last() {
                    let u = u as usize;
                    low[u] = low[u].min(low[v]);
                    if low[v] >= disc[u] {
                        // u cuts v's subtree off: its edges since (u, v) are a block.
                        let mut block = Vec::new();
                        while let Some(e) = edges.pop() {
                            block.push(e);
                            if e == reached_by {
                                break;
                            }
                        }
                        found.push(block);
                    }
                }
            }
        }
    }
    found
}

/// The faces of a planar embedding of the block `edges` (two or more
/// vertices joined twice), each a cycle of vertices walked with the same
/// hand; `Some(None)` if the block is not planar, None if `stop` went up.
/// `local` is scratch of the graph's size, all `u32::MAX`, left so.
fn dmp(
    edges: &[(u32, u32)],
    local: &mut [u32],
    stop: &AtomicBool,
) -> Option<Option<Vec<Vec<u32>>>> {
    // The block's vertices numbered 0.. (`name` back to the graph's).
    let mut name: Vec<u32> = Vec::new();
    let mut pairs = Vec::with_capacity(edges.len());
    for &(u, v) in edges {
        for x in [u, v] {
            if local[x as usize] == u32::MAX {
                local[x as usize] = name.len() as u32;
                name.push(x);
            }
        }
        pairs.push((local[u as usize], local[v as usize], 0u64));
    }
    for &x in &name {
        local[x as usize] = u32::MAX;
    }
    let g = Graph {
        n: name.len(),
        edges: pairs,
    };
    let (start, adj) = g.adjacency();
    let (n, m) = (g.n, g.edges.len());
    let mut on_v = vec![false; n];
    let mut on_e = vec![false; m];
    let mut faces: Vec<Vec<u32>> = Vec::new();
    let mut faces_of: Vec<Vec<u32>> = vec![Vec::new(); n];

    // A cycle: the first edge, and a shortest path back around it.
    let (a, b, _) = g.edges[0];
    let cycle = path_within(&start, &adj, b, 0, |_, w| w == a, |_| true)?;
    // (`path_within` gives b ... a; the edge a-b closes it.)
    on_e[0] = true;
    for &(v, e) in &cycle {
        on_v[v as usize] = true;
        if e != u32::MAX {
            on_e[e as usize] = true;
        }
    }
    let ring: Vec<u32> = cycle.iter().map(|&(v, _)| v).collect();
    let mut back = ring.clone();
    back.reverse();
    for (f, face) in [ring, back].into_iter().enumerate() {
        for &v in &face {
            faces_of[v as usize].push(f as u32);
        }
        faces.push(face);
    }
    let mut placed = cycle.len();
    let mut label = vec![u32::MAX; n];
    let mut mark = vec![u32::MAX; n];
    while placed < m {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        // The fragments, each with its attachments and the faces holding
        // them all; the first with a single face, else the first.
        let mut chosen: Option<(Fragment, u32)> = None;
        let consider = |frag: Fragment,
                        attach: &[u32],
                        chosen: &mut Option<(Fragment, u32)>|
         -> Option<bool> {
            let mut common = faces_of[attach[0] as usize].clone();
            for &x in &attach[1..] {
                common.retain(|f| faces_of[x as usize].contains(f));
            }
            match common.len() {
                0 => None, // no face can take it: not planar
                1 => {
                    *chosen = Some((frag, common[0]));
                    Some(true)
                }
                _ => {
                    if chosen.is_none() {
                        *chosen = Some((frag, common[0]));
                    }
                    Some(false)
                }
            }
        };
        let mut settled = false;
        for (e, &(u, v, _)) in g.edges.iter().enumerate() {
            if !on_e[e] && on_v[u as usize] && on_v[v as usize] {
                match consider(Fragment::Edge(e as u32), &[u, v], &mut chosen) {
                    None => return Some(None),
                    Some(true) => {
                        settled = true;
                        break;
                    }
                    Some(false) => {}
                }
            }
        }
        if !settled {
            label.fill(u32::MAX);
            let mut attach = Vec::new();
            for s in 0..n {
                if on_v[s] || label[s] != u32::MAX {
                    continue;
                }
                // The component of s among the vertices not embedded.
                attach.clear();
                label[s] = s as u32;
                let mut todo = vec![s as u32];
                while let Some(x) = todo.pop() {
                    for &(y, _) in &adj[start[x as usize]..start[x as usize + 1]] {
                        let y = y as usize;
                        if on_v[y] {
                            if mark[y] != s as u32 {
                                mark[y] = s as u32;
                                attach.push(y as u32);
                            }
                        } else if label[y] == u32::MAX {
                            label[y] = s as u32;
                            todo.push(y as u32);
                        }
                    }
                }
                if attach.len() < 2 {
                    return Some(None); // (not a block after all: never for one)
                }
                match consider(Fragment::Part(s as u32, attach[0]), &attach, &mut chosen) {
                    None => return Some(None),
                    Some(true) => break,
                    Some(false) => {}
                }
            }
            mark.fill(u32::MAX);
        }
        let Some((frag, f)) = chosen else {
            return Some(None);
        };
        // The path to embed, attachment to attachment, with its edges.
        let path: Vec<(u32, u32)> = match frag {
            Fragment::Edge(e) => {
                let (u, v, _) = g.edges[e as usize];
                vec![(u, u32::MAX), (v, e)]
            }
            Fragment::Part(s, a) => {
                // From a into the part, to another attachment.
                let part = label.clone();
                let mut p = path_within(
                    &start,
                    &adj,
                    a,
                    u32::MAX,
                    |x, w| x != a && on_v[w as usize] && w != a,
                    |w| !on_v[w as usize] && part[w as usize] == s,
                )?;
                p.reverse(); // (from a, each vertex with the edge that reached it)
                p
            }
        };
        for &(v, e) in &path {
            on_v[v as usize] = true;
            if e != u32::MAX {
                on_e[e as usize] = true;
                placed += 1;
            }
        }
        // Split face f by the path from a to b.
        let face = std::mem::take(&mut faces[f as usize]);
        let (a, b) = (path[0].0, path[path.len() - 1].0);
        let i = face.iter().position(|&x| x == a)?;
        let j = face.iter().position(|&x| x == b)?;
        let k = face.len();
        let inner: Vec<u32> = path[1..path.len() - 1].iter().map(|&(v, _)| v).collect();
        let mut one: Vec<u32> = (0..=(j + k - i) % k).map(|t| face[(i + t) % k]).collect();
        one.extend(inner.iter().rev());
        let mut two: Vec<u32> = (0..=(i + k - j) % k).map(|t| face[(j + t) % k]).collect();
        two.extend(inner.iter());
        for &x in &face {
            faces_of[x as usize].retain(|&g| g != f);
        }
        let g2 = faces.len() as u32;
        for &x in &one {
            faces_of[x as usize].push(f);
        }
        for &x in &two {
            faces_of[x as usize].push(g2);
        }
        faces[f as usize] = one;
        faces.push(two);
    }
    Some(Some(
        faces
            .into_iter()
            .map(|face| face.into_iter().map(|v| name[v as usize]).collect())
            .collect(),
    ))
}

/// A fragment: an edge not embedded between embedded vertices, or the
/// part of the vertices not embedded labelled `.0` (reached from its
/// attachment `.1`).
#[derive(Clone, Copy)]
enum Fragment {
    Edge(u32),
    Part(u32, u32),
}

/// A shortest path from `from` (not taking the edge `avoid`) through
/// vertices that pass `through` to the first `y` reached from an `x` with
/// `end(x, y)`: each vertex with the edge that reached it, from the end
/// back to `from` (whose edge is `u32::MAX`). None if there is none.
fn path_within(
    start: &[usize],
    adj: &[(u32, u32)],
    from: u32,
    avoid: u32,
    end: impl Fn(u32, u32) -> bool,
    through: impl Fn(u32) -> bool,
) -> Option<Vec<(u32, u32)>> {
    let n = start.len() - 1;
    let mut came = vec![(u32::MAX, u32::MAX); n];
    came[from as usize] = (from, u32::MAX);
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(x) = queue.pop_front() {
        for &(y, e) in &adj[start[x as usize]..start[x as usize + 1]] {
            if e == avoid || came[y as usize].0 != u32::MAX {
                continue;
            }
            let last = end(x, y);
            if !last && !through(y) {
                continue;
            }
            came[y as usize] = (x, e);
            if last {
                let mut p = vec![(y, e)];
                let mut at = x;
                while at != from {
                    let (before, by) = came[at as usize];
                    p.push((at, by));
                    at = before;
                }
                p.push((from, u32::MAX));
                return Some(p);
            }
            queue.push_back(y);
        }
    }
    None
}
