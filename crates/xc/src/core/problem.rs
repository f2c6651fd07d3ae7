//! The compiled problem: what the engine is given, as flat arrays.
//!
//! Python owns names, labels and colors as strings; it numbers the items
//! densely (primary items first, then secondary ones), the colors as small
//! positive integers (0 = no color), and hands over the options in CSR form:
//! option `o` is `option_item[option_start[o]..option_start[o + 1]]`, with the
//! matching colors in `option_color` (empty when no option has a color).
//! Each primary item `i` carries bounds `lo[i]..=hi[i]`: exact cover is
//! `1..=1` everywhere, Knuth's multiplicities (DLX3, Algorithm M) anything else.
//!
//! [`CompiledProblem::new`] checks every array once, so that the search can
//! trust them; errors report indices, and the Python side turns indices back
//! into names.

use std::fmt;

/// Why a set of arrays is not a problem the engine can solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// There is no primary item at all: nothing would have to be covered.
    NoPrimaryItems,
    /// The arrays are longer than the engine's 32-bit indices allow.
    TooLarge,
    /// `lo` and `hi` must have one entry per primary item.
    BoundsLength {
        expected: usize,
        lo: usize,
        hi: usize,
    },
    /// A primary item with `lo > hi` or `hi == 0`.
    Bounds { item: u32, lo: u32, hi: u32 },
    /// `option_start` must start at 0, never decrease and end at `option_item.len()`.
    OptionStart { option: u32 },
    /// `option_color` must be empty or as long as `option_item`.
    ColorsLength { expected: usize, got: usize },
    /// An item index past the last item.
    UnknownItem { option: u32, item: u32 },
    /// The same item twice in one option.
    RepeatedItem { option: u32, item: u32 },
    /// A color on a primary item (only secondary items have colors).
    ColorOnPrimary { option: u32, item: u32 },
    /// An option without any primary item (it could never be chosen).
    NoPrimaryInOption { option: u32 },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NoPrimaryItems => write!(f, "the problem has no primary item"),
            Error::TooLarge => write!(
                f,
                "the problem is too large (more than 2^31 items or nodes)"
            ),
            Error::BoundsLength { expected, lo, hi } => write!(
                f,
                "bounds arrays have lengths {lo} and {hi}, expected {expected} (one per primary item)"
            ),
            Error::Bounds { item, lo, hi } => {
                if *hi == 0 {
                    write!(f, "item {item}: upper bound is zero")
                } else {
                    write!(f, "item {item}: lower bound {lo} exceeds upper bound {hi}")
                }
            }
            Error::OptionStart { option } => write!(f, "option {option}: bad option_start array"),
            Error::ColorsLength { expected, got } => {
                write!(f, "option_color has length {got}, expected 0 or {expected}")
            }
            Error::UnknownItem { option, item } => {
                write!(f, "option {option}: unknown item {item}")
            }
            Error::RepeatedItem { option, item } => {
                write!(f, "option {option}: item {item} appears twice")
            }
            Error::ColorOnPrimary { option, item } => {
                write!(
                    f,
                    "option {option}: primary item {item} cannot have a color"
                )
            }
            Error::NoPrimaryInOption { option } => write!(f, "option {option} has no primary item"),
        }
    }
}

impl std::error::Error for Error {}

/// Options given in bulk, checked and without the ones that could never be
/// chosen (no primary item), which are skipped as Knuth's programs skip them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sifted {
    /// The ids (in the input) of the options skipped.
    pub skipped: Vec<u32>,
    pub option_start: Vec<u32>,
    pub option_item: Vec<u32>,
    /// Empty when no entry has a color.
    pub option_color: Vec<u32>,
}

/// Checks options in CSR form over `n_items` items (the first `n_primary`
/// primary), as [`CompiledProblem::new`] does, but skips an option without
/// primary item instead of refusing it. Errors name the option by its id in
/// the input.
///
/// ```
/// let s = xc::sift_options(1, 2, vec![0, 1, 2, 4], vec![0, 1, 0, 1], vec![]).unwrap();
/// assert_eq!((s.skipped, s.option_start, s.option_item), (vec![1], vec![0, 1, 3], vec![0, 0, 1]));
/// ```
pub fn sift_options(
    n_primary: u32,
    n_items: u32,
    option_start: Vec<u32>,
    option_item: Vec<u32>,
    option_color: Vec<u32>,
) -> Result<Sifted, Error> {
    if option_start.first() != Some(&0) {
        return Err(Error::OptionStart { option: 0 });
    }
    for (o, w) in option_start.windows(2).enumerate() {
        if w[1] < w[0] || w[1] as usize > option_item.len() {
            return Err(Error::OptionStart { option: o as u32 });
        }
    }
    if *option_start.last().unwrap_or(&0) as usize != option_item.len() {
        return Err(Error::OptionStart {
            option: option_start.len().saturating_sub(2) as u32,
        });
    }
    if !option_color.is_empty() && option_color.len() != option_item.len() {
        return Err(Error::ColorsLength {
            expected: option_item.len(),
            got: option_color.len(),
        });
    }
    let mut seen = vec![0u32; n_items as usize];
    let mut skipped = Vec::new();
    for o in 0..option_start.len() - 1 {
        let option = o as u32;
        let mut has_primary = false;
        for k in option_start[o] as usize..option_start[o + 1] as usize {
            let item = option_item[k];
            if item >= n_items {
                return Err(Error::UnknownItem { option, item });
            }
            if seen[item as usize] == option + 1 {
                return Err(Error::RepeatedItem { option, item });
            }
            seen[item as usize] = option + 1;
            if item < n_primary {
                if !option_color.is_empty() && option_color[k] != 0 {
                    return Err(Error::ColorOnPrimary { option, item });
                }
                has_primary = true;
            }
        }
        if !has_primary {
            skipped.push(option);
        }
    }
    let has_colors = option_color.iter().any(|&c| c != 0);
    if skipped.is_empty() {
        return Ok(Sifted {
            skipped,
            option_start,
            option_item,
            option_color: if has_colors { option_color } else { Vec::new() },
        });
    }
    let (mut start, mut item, mut color) = (vec![0u32], Vec::new(), Vec::new());
    let mut next_skipped = skipped.iter().peekable();
    for o in 0..option_start.len() - 1 {
        if next_skipped.peek() == Some(&&(o as u32)) {
            next_skipped.next();
            continue;
        }
        let (a, b) = (option_start[o] as usize, option_start[o + 1] as usize);
        item.extend_from_slice(&option_item[a..b]);
        if has_colors {
            color.extend_from_slice(&option_color[a..b]);
        }
        start.push(item.len() as u32);
    }
    Ok(Sifted {
        skipped,
        option_start: start,
        option_item: item,
        option_color: color,
    })
}

/// The place of each of `n1` primary items in `order`, a permutation of
/// them (panics otherwise).
pub(crate) fn ranks(order: &[u32], n1: usize) -> Vec<u32> {
    assert_eq!(order.len(), n1, "an order of every primary item");
    let mut rank = vec![u32::MAX; n1];
    for (t, &i) in order.iter().enumerate() {
        assert_eq!(
            rank[i as usize],
            u32::MAX,
            "primary item {i} twice in the order"
        );
        rank[i as usize] = t as u32;
    }
    rank
}

/// A validated exact cover problem (XC, XCC or MCC) in flat arrays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompiledProblem {
    n_primary: u32,
    n_secondary: u32,
    lo: Vec<u32>,
    hi: Vec<u32>,
    option_start: Vec<u32>,
    option_item: Vec<u32>,
    option_color: Vec<u32>,
}

impl CompiledProblem {
    /// A set partitioning problem: `m` primary items, each covered once,
    /// and options of items only (no colors), in the form of [`Self::new`].
    ///
    /// ```
    /// use xc::CompiledProblem;
    /// // Items 0 1; options {0, 1}, {0}, {1}.
    /// let p = CompiledProblem::set_partition(2, vec![0, 2, 3, 4], vec![0, 1, 0, 1]).unwrap();
    /// assert_eq!((p.n_primary(), p.n_secondary(), p.n_options()), (2, 0, 3));
    /// ```
    pub fn set_partition(
        m: u32,
        option_start: Vec<u32>,
        option_item: Vec<u32>,
    ) -> Result<Self, Error> {
        let ones = vec![1; m as usize];
        CompiledProblem::new(m, 0, ones.clone(), ones, option_start, option_item, vec![])
    }

    /// Checks the arrays and freezes them into a problem.
    ///
    /// ```
    /// use xc::CompiledProblem;
    /// // Items A B C (primary) and x (secondary); options "A B", "C x:1", "A C".
    /// let p = CompiledProblem::new(3, 1, vec![1; 3], vec![1; 3],
    ///     vec![0, 2, 4, 6], vec![0, 1, 2, 3, 0, 2], vec![0, 0, 0, 1, 0, 0]).unwrap();
    /// assert_eq!(p.n_options(), 3);
    /// assert!(p.has_colors());
    /// ```
    pub fn new(
        n_primary: u32,
        n_secondary: u32,
        lo: Vec<u32>,
        hi: Vec<u32>,
        option_start: Vec<u32>,
        option_item: Vec<u32>,
        mut option_color: Vec<u32>,
    ) -> Result<Self, Error> {
        // Room is kept for the header slots and spacers the engine adds.
        const LIMIT: u64 = (i32::MAX as u64) / 2;
        let n_items = n_primary as u64 + n_secondary as u64;
        if n_items > LIMIT || option_item.len() as u64 > LIMIT || option_start.len() as u64 > LIMIT
        {
            return Err(Error::TooLarge);
        }
        if n_primary == 0 {
            return Err(Error::NoPrimaryItems);
        }
        if lo.len() != n_primary as usize || hi.len() != n_primary as usize {
            return Err(Error::BoundsLength {
                expected: n_primary as usize,
                lo: lo.len(),
                hi: hi.len(),
            });
        }
        for (item, (&l, &h)) in lo.iter().zip(hi.iter()).enumerate() {
            if h == 0 || l > h {
                return Err(Error::Bounds {
                    item: item as u32,
                    lo: l,
                    hi: h,
                });
            }
        }
        if option_start.first() != Some(&0) {
            return Err(Error::OptionStart { option: 0 });
        }
        for (o, w) in option_start.windows(2).enumerate() {
            if w[1] < w[0] || w[1] as usize > option_item.len() {
                return Err(Error::OptionStart { option: o as u32 });
            }
        }
        if *option_start.last().unwrap() as usize != option_item.len() {
            return Err(Error::OptionStart {
                option: option_start.len().saturating_sub(2) as u32,
            });
        }
        if !option_color.is_empty() && option_color.len() != option_item.len() {
            return Err(Error::ColorsLength {
                expected: option_item.len(),
                got: option_color.len(),
            });
        }
        if option_color.iter().all(|&c| c == 0) {
            option_color.clear(); // plain XC pays nothing for colors it does not use
        }
        let n_items = n_items as usize;
        // `seen[i] == o + 1` marks item i as used by option o: one pass, no clearing.
        let mut seen = vec![0u32; n_items];
        for o in 0..option_start.len() - 1 {
            let option = o as u32;
            let (a, b) = (option_start[o] as usize, option_start[o + 1] as usize);
            let mut has_primary = false;
            for k in a..b {
                let item = option_item[k];
                if item as usize >= n_items {
                    return Err(Error::UnknownItem { option, item });
                }
                if seen[item as usize] == option + 1 {
                    return Err(Error::RepeatedItem { option, item });
                }
                seen[item as usize] = option + 1;
                if item < n_primary {
                    has_primary = true;
                    if !option_color.is_empty() && option_color[k] != 0 {
                        return Err(Error::ColorOnPrimary { option, item });
                    }
                }
            }
            if !has_primary {
                return Err(Error::NoPrimaryInOption { option });
            }
        }
        Ok(CompiledProblem {
            n_primary,
            n_secondary,
            lo,
            hi,
            option_start,
            option_item,
            option_color,
        })
    }

    /// [`Self::new`] with bounds of any size (saturated at `u64::MAX`), made
    /// small with the same solutions: an item in `m` options is covered at
    /// most `m` times, so an upper bound past `m` is `m`, and a lower bound
    /// past `m` cannot be met (`m + 1 ..= m + 1` says so).
    ///
    /// ```
    /// use xc::CompiledProblem;
    /// let p = CompiledProblem::with_wide_bounds(1, 0, vec![0], vec![1 << 40],
    ///     vec![0, 1, 2], vec![0, 0], vec![]).unwrap();
    /// assert_eq!(p.hi(), &[2]);
    /// ```
    pub fn with_wide_bounds(
        n_primary: u32,
        n_secondary: u32,
        lo: Vec<u64>,
        hi: Vec<u64>,
        option_start: Vec<u32>,
        option_item: Vec<u32>,
        option_color: Vec<u32>,
    ) -> Result<Self, Error> {
        const MAX: u64 = i32::MAX as u64;
        let narrow = |b: &[u64]| b.iter().map(|&x| x.min(MAX) as u32).collect::<Vec<u32>>();
        if lo.iter().chain(hi.iter()).all(|&b| b <= MAX) {
            return Self::new(
                n_primary,
                n_secondary,
                narrow(&lo),
                narrow(&hi),
                option_start,
                option_item,
                option_color,
            );
        }
        if lo.len() != hi.len() {
            return Self::new(
                n_primary,
                n_secondary,
                narrow(&lo),
                narrow(&hi),
                option_start,
                option_item,
                option_color,
            );
        }
        let mut occurs = vec![0u64; lo.len()];
        for &i in &option_item {
            if let Some(m) = occurs.get_mut(i as usize) {
                *m += 1;
            }
        }
        let (mut new_lo, mut new_hi) = (Vec::with_capacity(lo.len()), Vec::with_capacity(lo.len()));
        for ((&l, &h), &m) in lo.iter().zip(hi.iter()).zip(occurs.iter()) {
            let (l, h) = if l > m {
                (m + 1, m + 1)
            } else {
                (l, h.min(m).max(1))
            };
            new_lo.push(l);
            new_hi.push(h);
        }
        if new_lo.iter().chain(new_hi.iter()).any(|&b| b > MAX) {
            return Err(Error::TooLarge);
        }
        Self::new(
            n_primary,
            n_secondary,
            narrow(&new_lo),
            narrow(&new_hi),
            option_start,
            option_item,
            option_color,
        )
    }

    /// Number of primary items (they come first in the numbering).
    pub fn n_primary(&self) -> usize {
        self.n_primary as usize
    }
    /// Number of secondary items.
    pub fn n_secondary(&self) -> usize {
        self.n_secondary as usize
    }
    /// Number of items, primary and secondary.
    pub fn n_items(&self) -> usize {
        self.n_primary as usize + self.n_secondary as usize
    }
    /// Number of options.
    pub fn n_options(&self) -> usize {
        self.option_start.len() - 1
    }
    /// Number of (item, option) incidences: the ones of the 0/1 matrix.
    pub fn n_entries(&self) -> usize {
        self.option_item.len()
    }
    /// The items of option `o`.
    pub fn option(&self, o: usize) -> &[u32] {
        &self.option_item[self.option_start[o] as usize..self.option_start[o + 1] as usize]
    }
    /// The colors of option `o` (0 = none), parallel to [`Self::option`]; empty without colors.
    pub fn option_colors(&self, o: usize) -> &[u32] {
        if self.option_color.is_empty() {
            &[]
        } else {
            &self.option_color[self.option_start[o] as usize..self.option_start[o + 1] as usize]
        }
    }
    /// The color of entry `k` of `option_item` (0 = none).
    pub fn color_at(&self, k: usize) -> u32 {
        if self.option_color.is_empty() {
            0
        } else {
            self.option_color[k]
        }
    }
    /// Does any option give a color to a secondary item (XCC)?
    pub fn has_colors(&self) -> bool {
        !self.option_color.is_empty()
    }
    /// Does any primary item have bounds other than `1..=1` (MCC)?
    pub fn has_multiplicities(&self) -> bool {
        self.lo.iter().chain(self.hi.iter()).any(|&b| b != 1)
    }
    /// Lower bounds of the primary items.
    pub fn lo(&self) -> &[u32] {
        &self.lo
    }
    /// Upper bounds of the primary items.
    pub fn hi(&self) -> &[u32] {
        &self.hi
    }
    /// The CSR offsets of the options.
    pub fn option_start(&self) -> &[u32] {
        &self.option_start
    }
    /// The items of all options, concatenated.
    pub fn option_item(&self) -> &[u32] {
        &self.option_item
    }
    /// The colors of all entries, or empty.
    pub fn option_color(&self) -> &[u32] {
        &self.option_color
    }

    /// The same problem with its primary items renumbered: `order[k]` is
    /// the item that becomes item `k` (a permutation of the primary items;
    /// panics otherwise). Options keep their numbers and their solutions;
    /// a search or memo that takes the first item takes them in this order.
    ///
    /// ```
    /// use xc::CompiledProblem;
    /// let p = CompiledProblem::new(2, 0, vec![1, 0], vec![1, 2],
    ///     vec![0, 1, 3], vec![0, 0, 1], vec![]).unwrap();
    /// let q = p.with_primary_order(&[1, 0]);
    /// assert_eq!((q.option(1), q.lo()), (&[1, 0][..], &[0, 1][..]));
    /// ```
    pub fn with_primary_order(&self, order: &[u32]) -> CompiledProblem {
        let n1 = self.n_primary as usize;
        let new = ranks(order, n1);
        let item = |i: u32| {
            if (i as usize) < n1 {
                new[i as usize]
            } else {
                i
            }
        };
        CompiledProblem {
            n_primary: self.n_primary,
            n_secondary: self.n_secondary,
            lo: order.iter().map(|&i| self.lo[i as usize]).collect(),
            hi: order.iter().map(|&i| self.hi[i as usize]).collect(),
            option_start: self.option_start.clone(),
            option_item: self.option_item.iter().map(|&i| item(i)).collect(),
            option_color: self.option_color.clone(),
        }
    }

    /// Does the set of options `chosen` meet the definition: every primary item
    /// covered within its bounds, every secondary item either unused or used
    /// with one color by every option that has it (uncolored use counts as a
    /// color of its own, so it allows a single option)?
    ///
    /// This is the checker the tests run on every reported solution; it knows
    /// nothing of how the search works.
    pub fn is_solution(&self, chosen: &[u32]) -> bool {
        let mut times = vec![0u32; self.n_primary as usize];
        // For secondary items: None = unused; Some(c) = used with color c (0 = uncolored).
        let mut color: Vec<Option<u32>> = vec![None; self.n_secondary as usize];
        let mut seen = std::collections::HashSet::new();
        for &o in chosen {
            if o as usize >= self.n_options() || !seen.insert(o) {
                return false;
            }
            let start = self.option_start[o as usize] as usize;
            for (k, &item) in self.option(o as usize).iter().enumerate() {
                if item < self.n_primary {
                    times[item as usize] += 1;
                } else {
                    let c = self.color_at(start + k);
                    let slot = &mut color[(item - self.n_primary) as usize];
                    match *slot {
                        None => *slot = Some(c),
                        Some(prev) if prev == c && c != 0 => {}
                        Some(_) => return false,
                    }
                }
            }
        }
        times
            .iter()
            .enumerate()
            .all(|(i, &t)| self.lo[i] <= t && t <= self.hi[i])
    }

    /// Every solution and its cost (`costs[o]` option `o`'s), cheapest
    /// first, by trying every subset of the options: the tests' oracle for
    /// the searches of the cheapest (`cost/mincost/`, `cost/lp_tree/`), on
    /// problems of a score of options at most.
    #[cfg(test)]
    pub(crate) fn every_solution_by_subsets(&self, costs: &[u64]) -> Vec<(u64, Vec<u32>)> {
        let n = self.n_options();
        let mut out = Vec::new();
        for mask in 0u64..(1 << n) {
            let chosen: Vec<u32> = (0..n as u32).filter(|&o| mask >> o & 1 == 1).collect();
            if self.is_solution(&chosen) {
                out.push((chosen.iter().map(|&o| costs[o as usize]).sum(), chosen));
            }
        }
        out.sort();
        out
    }
}

/// The options of each item, as one array in runs (`start[i]..start[i + 1]`).
pub(crate) struct Incidence {
    start: Vec<u32>,
    options: Vec<u32>,
}

impl Incidence {
    pub(crate) fn new(p: &CompiledProblem) -> Incidence {
        let n = p.n_items();
        let mut start = vec![0u32; n + 1];
        for &i in p.option_item() {
            start[i as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut options = vec![0u32; p.n_entries()];
        for o in 0..p.n_options() {
            for &i in p.option(o) {
                options[fill[i as usize] as usize] = o as u32;
                fill[i as usize] += 1;
            }
        }
        Incidence { start, options }
    }

    pub(crate) fn of(&self, i: usize) -> &[u32] {
        &self.options[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn simple(items: Vec<u32>, starts: Vec<u32>) -> Result<CompiledProblem, Error> {
        CompiledProblem::new(2, 1, vec![1, 1], vec![1, 1], starts, items, vec![])
    }

    #[test]
    fn rejects_bad_arrays_with_indices() {
        assert_eq!(
            simple(vec![0, 5], vec![0, 2]),
            Err(Error::UnknownItem { option: 0, item: 5 })
        );
        assert_eq!(
            simple(vec![0, 1, 1], vec![0, 1, 3]),
            Err(Error::RepeatedItem { option: 1, item: 1 })
        );
        assert_eq!(
            simple(vec![0, 2], vec![0, 1, 2]),
            Err(Error::NoPrimaryInOption { option: 1 })
        );
        assert_eq!(
            simple(vec![0], vec![1, 1]),
            Err(Error::OptionStart { option: 0 })
        );
        assert_eq!(
            simple(vec![0, 1], vec![0, 2, 1]),
            Err(Error::OptionStart { option: 1 })
        );
        assert_eq!(
            CompiledProblem::new(1, 0, vec![2], vec![1], vec![0], vec![], vec![]),
            Err(Error::Bounds {
                item: 0,
                lo: 2,
                hi: 1
            })
        );
        assert_eq!(
            CompiledProblem::new(1, 0, vec![0], vec![0], vec![0], vec![], vec![]),
            Err(Error::Bounds {
                item: 0,
                lo: 0,
                hi: 0
            })
        );
        assert_eq!(
            CompiledProblem::new(0, 1, vec![], vec![], vec![0], vec![], vec![]),
            Err(Error::NoPrimaryItems)
        );
        assert_eq!(
            CompiledProblem::new(1, 1, vec![1], vec![1], vec![0, 2], vec![0, 1], vec![3, 0]),
            Err(Error::ColorOnPrimary { option: 0, item: 0 })
        );
    }

    #[test]
    fn drops_all_zero_colors() {
        let p = CompiledProblem::new(1, 1, vec![1], vec![1], vec![0, 2], vec![0, 1], vec![0, 0])
            .unwrap();
        assert!(!p.has_colors());
        assert!(!p.has_multiplicities());
    }

    #[test]
    fn checks_solutions_by_definition() {
        // A B | x ; options: "A x:1", "B x:1", "B x", "A"
        let p = CompiledProblem::new(
            2,
            1,
            vec![1, 1],
            vec![1, 1],
            vec![0, 2, 4, 6, 7],
            vec![0, 2, 1, 2, 1, 2, 0],
            vec![0, 1, 0, 1, 0, 0, 0],
        )
        .unwrap();
        assert!(p.is_solution(&[0, 1]));
        assert!(!p.is_solution(&[0, 2])); // x colored 1 and uncolored
        assert!(p.is_solution(&[3, 2]));
        assert!(!p.is_solution(&[3]));
        assert!(!p.is_solution(&[0, 3, 1]));
    }
}
