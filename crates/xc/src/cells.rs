//! Dancing cells: the sparse-set data structure of Knuth's SSXCC.
//!
//! Knuth's DLX programs keep each item's options in a doubly linked list and
//! make the links "dance" as options leave and return. SSXCC (2023) keeps them
//! instead in *sparse sets* (Briggs and Torczon, 1993): item `x` owns a run of
//! the array `set`, starting at its *base* `x`, whose first `size(x)` entries
//! are the nodes of its active options. Removing a node swaps it with the last
//! active entry and shrinks `size(x)`; putting it back is only `size(x) += 1`,
//! because the removed entry is still sitting just past the end. That makes
//! every undo cheaper than unlinking, and the arrays stay contiguous.
//!
//! Layout, as in SSXCC:
//! * `nd[y]` is one node: `itm` is the base of its item and `loc` its position
//!   in that item's run of `set` (the invariant is `set[nd[y].loc] == y`).
//!   Options are consecutive runs of nodes separated by *spacers*; a spacer has
//!   `itm = -t` (`t` = length of the option before it) and `loc = t'` (length of
//!   the option after it), so an option can be walked circularly either way.
//! * `set[x-1]` is `size(x)`, `set[x-2]` is `pos(x)`, the index of `x` in
//!   `item`; for multiplicities `set[x-3]` is the slack `hi - lo` and `set[x-4]`
//!   the bound, how many more options the item may still take.
//! * `item` is itself a sparse set: the active primary items are
//!   `item[..active]`; secondary items sit at positions `second..`.
//! * `clr[y]` is the color of node `y` (0 none, -1 once its item has been
//!   purified to that color); it is empty when the problem has no colors, and
//!   the color-free code paths never touch it.

use crate::problem::CompiledProblem;
use crate::rng::Rng;

/// Slots of `set` below each item's base: bound, slack, pos, size.
pub(crate) const HEADER: usize = 4;

/// Unchecked indexing for the hot loops. Every index used in this module comes
/// from arrays that [`Cells::new`] builds from a validated problem, and the
/// debug builds (where the tests run) check each one.
macro_rules! at {
    ($v:expr, $i:expr) => {{
        let i = $i as usize;
        debug_assert!(i < $v.len(), "index {} out of {}", i, $v.len());
        #[allow(unused_unsafe)]
        unsafe {
            *$v.get_unchecked(i)
        }
    }};
}
#[allow(unused_macros)]
macro_rules! set_at {
    ($v:expr, $i:expr, $x:expr) => {{
        let i = $i as usize;
        let x = $x;
        debug_assert!(i < $v.len(), "index {} out of {}", i, $v.len());
        #[allow(unused_unsafe)]
        unsafe {
            *$v.get_unchecked_mut(i) = x;
        }
    }};
}
pub(crate) use at;

#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub(crate) struct Node {
    /// The base of the node's item in `set`, or `-t` for a spacer.
    pub itm: i32,
    /// Where the node sits in its item's run of `set`; in a spacer, the length
    /// of the option that follows it.
    pub loc: u32,
}

/// Cost counters kept in the hot loops (see `stats.rs` for their meaning).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Counters {
    pub updates: u64,
    pub mems: u64,
    pub cleansings: u64,
}

#[derive(Clone, Debug)]
pub(crate) struct Cells {
    pub nd: Vec<Node>,
    pub clr: Vec<i32>,
    pub set: Vec<u32>,
    pub item: Vec<u32>,
    pub active: u32,
    pub second: u32,
    /// How many active primary items have an empty set (kept by the `TRACK`
    /// variants of the operations, for Algorithms X and C): a positive value
    /// means the current partial solution is a dead end.
    pub zeros: u32,
    /// Option number of each node (spacers: `u32::MAX`); for output only.
    pub node_option: Vec<u32>,
    /// First node of each option.
    pub option_node: Vec<u32>,
    /// Base in `set` of each item number.
    pub base: Vec<u32>,
}

impl Cells {
    /// Lays out a validated problem; with `rng`, every item's options are
    /// shuffled, so that the search tries them in a random order.
    pub fn new(p: &CompiledProblem, rng: Option<&mut Rng>) -> Cells {
        let n = p.n_items();
        let mut count = vec![0u32; n];
        for &i in p.option_item() {
            count[i as usize] += 1;
        }
        let mut base = Vec::with_capacity(n);
        let mut j = HEADER;
        for &c in &count {
            base.push(j as u32);
            j += c as usize + HEADER;
        }
        let mut set = vec![0u32; j - HEADER];
        let n_nodes = p.n_entries() + p.n_options() + 1;
        let mut nd = vec![Node::default(); n_nodes];
        let colors = p.has_colors();
        let mut clr = if colors {
            vec![0i32; n_nodes]
        } else {
            Vec::new()
        };
        let mut node_option = vec![u32::MAX; n_nodes];
        let mut option_node = Vec::with_capacity(p.n_options());
        let mut fill = vec![0u32; n];
        let mut y = 0usize; // the spacer before the current option
        for o in 0..p.n_options() {
            let items = p.option(o);
            nd[y].loc = items.len() as u32;
            option_node.push(y as u32 + 1);
            let start = p.option_start()[o] as usize;
            for (k, &i) in items.iter().enumerate() {
                y += 1;
                let x = base[i as usize];
                let q = x + fill[i as usize];
                fill[i as usize] += 1;
                nd[y] = Node {
                    itm: x as i32,
                    loc: q,
                };
                set[q as usize] = y as u32;
                node_option[y] = o as u32;
                if colors {
                    clr[y] = p.color_at(start + k) as i32;
                }
            }
            y += 1;
            nd[y] = Node {
                itm: -(items.len() as i32),
                loc: 0,
            };
        }
        let mut item = Vec::with_capacity(n);
        for (k, &x) in base.iter().enumerate() {
            let x = x as usize;
            set[x - 1] = count[k];
            set[x - 2] = k as u32;
            if k < p.n_primary() {
                let (lo, hi) = (p.lo()[k], p.hi()[k]);
                set[x - 3] = hi - lo;
                set[x - 4] = hi;
            }
            item.push(x as u32);
        }
        let mut cells = Cells {
            nd,
            clr,
            set,
            item,
            active: p.n_primary() as u32,
            second: p.n_primary() as u32,
            zeros: count[..p.n_primary()].iter().filter(|&&c| c == 0).count() as u32,
            node_option,
            option_node,
            base,
        };
        if let Some(rng) = rng {
            cells.shuffle(rng);
        }
        cells
    }

    /// Permutes every item's run of options (Fisher-Yates), keeping `loc` right.
    fn shuffle(&mut self, rng: &mut Rng) {
        for &x in &self.base {
            let x = x as usize;
            let s = self.set[x - 1] as usize;
            for k in (1..s).rev() {
                let r = rng.below(k as u64 + 1) as usize;
                self.set.swap(x + k, x + r);
            }
            for q in x..x + s {
                let y = self.set[q] as usize;
                self.nd[y].loc = q as u32;
            }
        }
    }

    #[inline(always)]
    pub fn size(&self, x: u32) -> u32 {
        at!(self.set, x - 1)
    }
    #[inline(always)]
    pub fn set_size(&mut self, x: u32, s: u32) {
        set_at!(self.set, x - 1, s)
    }
    #[inline(always)]
    pub fn pos(&self, x: u32) -> u32 {
        at!(self.set, x - 2)
    }
    #[inline(always)]
    pub fn slack(&self, x: u32) -> u32 {
        at!(self.set, x - 3)
    }
    #[inline(always)]
    pub fn bound(&self, x: u32) -> u32 {
        at!(self.set, x - 4)
    }
    #[inline(always)]
    pub fn set_bound(&mut self, x: u32, b: u32) {
        set_at!(self.set, x - 4, b)
    }

    /// Removes the option of node `tt` from the sets of all its items except
    /// `tt`'s own ("hiding" it). Nodes of purified items are left alone: their
    /// sets are frozen until the item is unpurified. With `TRACK`, an active
    /// primary item whose set becomes empty is counted in `zeros`.
    #[inline(always)]
    pub fn hide<const COLORS: bool, const TRACK: bool>(&mut self, tt: u32, c: &mut Counters) {
        // Local slices: the compiler may then keep their bases in registers,
        // as it cannot otherwise know that writing `set` leaves `nd` alone.
        let Cells {
            nd,
            set,
            clr,
            active,
            zeros,
            ..
        } = self;
        let (nd, set, clr, active) = (&mut nd[..], &mut set[..], &clr[..], *active);
        let mut nn = tt + 1;
        while nn != tt {
            let node = at!(nd, nn);
            if node.itm <= 0 {
                nn = (nn as i32 + node.itm) as u32;
                continue;
            }
            c.mems += 1;
            if COLORS && at!(clr, nn) < 0 {
                nn += 1;
                continue;
            }
            let uu = node.itm as u32;
            let ss = at!(set, uu - 1) - 1;
            let nnp = at!(set, uu + ss);
            set_at!(set, uu - 1, ss);
            set_at!(set, uu + ss, nn);
            set_at!(set, node.loc, nnp);
            unsafe {
                nd.get_unchecked_mut(nn as usize).loc = uu + ss;
                nd.get_unchecked_mut(nnp as usize).loc = node.loc;
            }
            if TRACK && ss == 0 && at!(set, uu - 2) < active {
                *zeros += 1;
            }
            c.mems += 6;
            c.updates += 1;
            nn += 1;
        }
    }

    /// Undoes [`Self::hide`]: the removed nodes are just past the ends of
    /// their sets, so growing each set by one brings them back.
    #[inline(always)]
    pub fn unhide<const COLORS: bool, const TRACK: bool>(&mut self, tt: u32, c: &mut Counters) {
        let Cells {
            nd,
            set,
            clr,
            active,
            zeros,
            ..
        } = self;
        let (nd, set, clr, active) = (&nd[..], &mut set[..], &clr[..], *active);
        let mut nn = tt + 1;
        while nn != tt {
            let itm = at!(nd, nn).itm;
            if itm <= 0 {
                nn = (nn as i32 + itm) as u32;
                continue;
            }
            if !COLORS || at!(clr, nn) >= 0 {
                let uu = itm as u32;
                let s = at!(set, uu - 1);
                set_at!(set, uu - 1, s + 1);
                if TRACK && s == 0 && at!(set, uu - 2) < active {
                    *zeros -= 1;
                }
                c.mems += 2;
            }
            c.mems += 1;
            nn += 1;
        }
    }

    /// Covers item `x`: takes it out of the active primary items (if primary)
    /// and hides all of its options from the other items.
    #[inline(always)]
    pub fn cover<const COLORS: bool, const TRACK: bool>(&mut self, x: u32, c: &mut Counters) {
        let k = self.pos(x);
        let end = x + self.size(x);
        if k < self.second {
            if TRACK && end == x {
                self.zeros -= 1;
            }
            self.deactivate(x, k);
            c.mems += 4;
        }
        c.mems += 1;
        for rr in x..end {
            let tt = at!(self.set, rr);
            c.mems += 1;
            self.hide::<COLORS, TRACK>(tt, c);
        }
    }

    /// Undoes [`Self::cover`].
    #[inline(always)]
    pub fn uncover<const COLORS: bool, const TRACK: bool>(&mut self, x: u32, c: &mut Counters) {
        let end = x + self.size(x);
        c.mems += 1;
        for rr in x..end {
            let tt = at!(self.set, rr);
            c.mems += 1;
            self.unhide::<COLORS, TRACK>(tt, c);
        }
        if self.pos(x) < self.second {
            self.active += 1;
            if TRACK && end == x {
                self.zeros += 1;
            }
        }
    }

    /// Moves primary item `x` (at position `k`) out of the active ones.
    #[inline(always)]
    pub fn deactivate(&mut self, x: u32, k: u32) {
        let a = self.active - 1;
        self.active = a;
        let cc = at!(self.item, a);
        set_at!(self.item, a, x);
        set_at!(self.item, k, cc);
        set_at!(self.set, cc - 2, k);
        set_at!(self.set, x - 2, a);
    }

    /// Purifies the secondary item of node `p` to `p`'s color: options that give
    /// it another color (or none) are hidden, the others are marked `-1` so that
    /// choosing them later neither purifies nor covers it again.
    #[inline(always)]
    pub fn purify<const TRACK: bool>(&mut self, p: u32, c: &mut Counters) {
        let x = at!(self.nd, p).itm as u32;
        let color = at!(self.clr, p);
        let end = x + self.size(x);
        c.cleansings += 1;
        for rr in x..end {
            let tt = at!(self.set, rr);
            c.mems += 1;
            if at!(self.clr, tt) != color {
                self.hide::<true, TRACK>(tt, c);
            } else {
                set_at!(self.clr, tt, -1);
                c.cleansings += 1;
            }
        }
    }

    /// Undoes [`Self::purify`].
    #[inline(always)]
    pub fn unpurify<const TRACK: bool>(&mut self, p: u32, c: &mut Counters) {
        let x = at!(self.nd, p).itm as u32;
        let color = at!(self.clr, p);
        let end = x + self.size(x);
        for rr in x..end {
            let tt = at!(self.set, rr);
            c.mems += 1;
            if at!(self.clr, tt) >= 0 {
                self.unhide::<true, TRACK>(tt, c);
            } else {
                set_at!(self.clr, tt, color);
            }
        }
    }

    /// Removes node `tt` from its own item's set (the first half of Knuth's
    /// "tweak"); the set's last entry takes its place.
    #[inline(always)]
    pub fn remove_from_own_set(&mut self, tt: u32, c: &mut Counters) {
        let node = at!(self.nd, tt);
        let uu = node.itm as u32;
        let ss = self.size(uu) - 1;
        let last = at!(self.set, uu + ss);
        self.set_size(uu, ss);
        set_at!(self.set, uu + ss, tt);
        set_at!(self.set, node.loc, last);
        unsafe {
            self.nd.get_unchecked_mut(tt as usize).loc = uu + ss;
            self.nd.get_unchecked_mut(last as usize).loc = node.loc;
        }
        c.mems += 6;
        c.updates += 1;
    }

    /// Is option `o` still available, compatible with every choice made so far?
    ///
    /// An option is hidden only through one of its own items, and hiding takes
    /// it out of the sets of all its other items; so it is live exactly when
    /// each of its primary items is still active and still lists it. (A
    /// conflict on a secondary item hides it from its primary items' sets.)
    pub fn option_is_live(&self, o: u32) -> bool {
        let mut nn = self.option_node[o as usize];
        loop {
            let node = self.nd[nn as usize];
            if node.itm <= 0 {
                return true;
            }
            let x = node.itm as u32;
            let k = self.pos(x);
            if k < self.second && (k >= self.active || node.loc >= x + self.size(x)) {
                return false;
            }
            nn += 1;
        }
    }
}
