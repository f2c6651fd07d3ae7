//! Cost counters and the progress path.
//!
//! The counters follow Knuth's conventions: a *node* is one entry into a level
//! of the search tree (Knuth's `forward`); an *update* is one removal of an
//! option from an item's set; a *cleansing* is one step of purifying a
//! secondary item to a color; a *mem* is (about) one access to a 64-bit word of
//! the main arrays, counted in the hot loops as Knuth's `o` macros count them.
//! They depend only on the problem and the search order, never on the machine,
//! so tests and benchmarks may compare them across runs.

/// Counters of one search, as reported to Python.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Search-tree nodes entered (levels started).
    pub nodes: u64,
    /// Options removed from an item's set.
    pub updates: u64,
    /// Approximate memory accesses (Knuth's mems).
    pub mems: u64,
    /// Secondary-item purification steps (colors only).
    pub cleansings: u64,
    /// Solutions found so far.
    pub solutions: u64,
    /// Deepest level reached (options in the longest partial solution).
    pub max_level: u64,
}

/// Knuth's estimate of the fraction of the tree already explored, from the
/// path of `(k, d)` pairs (choice `k` of `d`, 1-based, at each level): it
/// assumes a uniform tree, so it is crude, but it only ever grows.
///
/// ```
/// // First level: working on choice 2 of 4; below it, choice 1 of 2.
/// let f = xc::fraction_done(&[(2, 4), (1, 2)]);
/// assert!((f - (0.25 + 0.25 * 0.25)).abs() < 1e-12);
/// ```
pub fn fraction_done(path: &[(u32, u32)]) -> f64 {
    let (explored, width) = explored_and_width(path);
    explored + 0.5 * width
}

/// The part of [`fraction_done`] already searched to the end: the choices
/// before the current one at each level, without half of the current node.
/// It is what a paused search's frontier leaves out, so a piece split at
/// this point adds exactly this share of itself to the work done.
///
/// ```
/// let f = xc::fraction_explored(&[(2, 4), (1, 2)]);
/// assert!((f - 0.25).abs() < 1e-12);
/// ```
pub fn fraction_explored(path: &[(u32, u32)]) -> f64 {
    explored_and_width(path).0
}

/// (explored, width of the current node) along the path.
fn explored_and_width(path: &[(u32, u32)]) -> (f64, f64) {
    let mut f = 0.0;
    let mut width = 1.0;
    for &(k, d) in path {
        if d == 0 {
            break;
        }
        width /= d as f64;
        f += (k.saturating_sub(1)) as f64 * width;
    }
    (f, width)
}
