//! The random set partitions the cost family's tests draw: one set of
//! generators for the tests of the search (`mincost/`), of the LP tree
//! (`lp_tree/`) and of the merges (`together.rs`). Options are lists of
//! items; a problem is built from them with its costs.

use crate::core::problem::CompiledProblem;
use crate::core::rng::Rng;

/// A random partition of the items `0..m`: parts of `size(rng, left)`
/// items (at least one, at most those left) drawn from the items left.
pub(crate) fn partition(
    rng: &mut Rng,
    m: u32,
    mut size: impl FnMut(&mut Rng, usize) -> usize,
) -> Vec<Vec<u32>> {
    let mut left: Vec<u32> = (0..m).collect();
    let mut parts = Vec::new();
    while !left.is_empty() {
        let take = size(rng, left.len()).clamp(1, left.len());
        let part = (0..take)
            .map(|_| left.swap_remove(rng.below(left.len() as u64) as usize))
            .collect();
        parts.push(part);
    }
    parts
}

/// The items of `0..m` each taken with odds of one in three (perhaps none).
pub(crate) fn subset(rng: &mut Rng, m: u32) -> Vec<u32> {
    (0..m).filter(|_| rng.below(3) == 0).collect()
}

/// `k` distinct items of `0..m` (`k <= m`), drawn until new.
pub(crate) fn distinct(rng: &mut Rng, m: u32, k: usize) -> Vec<u32> {
    let mut picked: Vec<u32> = Vec::new();
    while picked.len() < k {
        let i = rng.below(m as u64) as u32;
        if !picked.contains(&i) {
            picked.push(i);
        }
    }
    picked
}

/// Columns that cover every row of `m`: the first `m` hold their own row,
/// the rest a random one, and each up to `most - 1` random rows more.
pub(crate) fn covering_columns(rng: &mut Rng, m: u32, n: usize, most: u64) -> Vec<Vec<u32>> {
    (0..n)
        .map(|j| {
            let mut rows = vec![if (j as u32) < m {
                j as u32
            } else {
                rng.below(m as u64) as u32
            }];
            for _ in 0..rng.below(most) {
                let r = rng.below(m as u64) as u32;
                if !rows.contains(&r) {
                    rows.push(r);
                }
            }
            rows.sort_unstable();
            rows
        })
        .collect()
}

/// The set partitioning problem of `options` over `m` items, each option
/// costing below `dear`; None if an option is empty or names an item twice.
pub(crate) fn priced(
    rng: &mut Rng,
    m: u32,
    options: &[Vec<u32>],
    dear: u64,
) -> Option<(CompiledProblem, Vec<u64>)> {
    let (mut start, mut item) = (vec![0u32], Vec::new());
    for o in options {
        item.extend_from_slice(o);
        start.push(item.len() as u32);
    }
    let costs = (0..options.len()).map(|_| rng.below(dear)).collect();
    let p = CompiledProblem::set_partition(m, start, item).ok()?;
    Some((p, costs))
}
