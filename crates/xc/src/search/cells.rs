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
//! * `clr[y]` is the color of node `y` (0 none); it is empty when the problem
//!   has no colors, and the color-free code paths never touch it.
//!
//! Undoing: Knuth's DLX programs walk their work backwards. Here, as SSXCC
//! keeps its stack of sizes (an idea of Christine Solnon's), a *trail* does:
//! a removal only ever shrinks a set, and what it moves sits just past the
//! new end, so setting each size back undoes everything. SSXCC saves the
//! size of every active item at every branch; here an item's size is saved
//! the first time it shrinks in an *epoch* (one try of one option), marked by
//! a stamp beside the size, so the saving costs in proportion to the work,
//! not to the number of items: a problem of 20,000 items that moves a few
//! of them per node pays for a few. Undoing a try is then one pass over its
//! part of the trail. Algorithm M saves bounds beside the sizes, as SSMCC
//! does. Where the items are few and the options long (a pentomino try
//! hides hundreds of nodes over 72 items), an epoch saves every active
//! item's size as it starts, as SSXCC does, and the hide loops save
//! nothing: the stamp's test at each update, mispredicted at each item's
//! first shrink, cost a fifth of the time there. Active secondary items form a sparse set of their own
//! (`item[second..sactive]`), so a purified item is recognised by its
//! position, as in SSXCC.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::core::problem::CompiledProblem;
use crate::core::rng::Rng;

/// How many options [`Cells::new_until`] lays out between looks at its stop
/// flag: a few hundred microseconds of work.
const STOP_EVERY: usize = 1 << 12;

/// Slots of `set` below each item's base: stamp, bound, slack, pos, size.
pub(crate) const HEADER: usize = 5;

/// Unchecked indexing for the hot loops. Every index used in this module comes
/// from arrays that [`Cells::new_until`] builds from a validated problem, and the
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

/// Removes node `nn` (its `node`) from its item's set, in a walk of
/// [`Cells::hide_walk`] or [`Cells::hide_pairs`] (`$nd` to `$snapshot`: the
/// walk's locals, `$t` the trail's end, moved on past a saved size); false,
/// and nothing done, when that would leave an active primary item with too
/// few options (`CHECK`). One text for both walks, expanded in each, so
/// that the locals stay in registers.
macro_rules! remove_node {
    ($nd:ident, $set:ident, $trail:ident, $t:ident, $epoch:ident, $active:ident, $pbound:ident,
     $short:ident, $snapshot:ident; $nn:expr, $node:expr) => {{
        let (nn, node): (u32, Node) = ($nn, $node);
        // Indices in usize: the offsets below then fold into the
        // addressing of the loads and stores (u32 arithmetic must wrap).
        let uu = node.itm as u32 as usize;
        let s = at!($set, uu - 1);
        // Would uu keep too few options: none (Algorithms X and C),
        // or fewer than its bound less its slack, the least it must
        // still take (Algorithm M)?
        let few = if BOUNDS {
            s as u64 + at!($set, uu - 3) as u64 <= at!($set, uu - 4) as u64
        } else {
            s == 1
        };
        if CHECK && few && last_option(uu as u32, $pbound, at!($set, uu - 2), $active) {
            false
        } else {
            let fresh = TRAIL && at!($set, uu - 5) != $epoch;
            // With short options the entry is written at the trail's end
            // every time, without a branch, and kept (the end moved past it)
            // only on the item's first shrink in the epoch, which there is a
            // coin toss for the branch predictor; otherwise only then.
            if TRAIL && !$snapshot && ($short || fresh) {
                set_at!($set, uu - 5, $epoch);
                if BOUNDS {
                    set_at!($trail, $t, [uu as u32, s, at!($set, uu - 4)]);
                } else {
                    // Algorithms X and C never change a bound, nor read it
                    // back (`restore::<false>`): neither loaded nor stored.
                    debug_assert!($t < $trail.len());
                    let entry = unsafe { $trail.get_unchecked_mut($t) };
                    entry[0] = uu as u32;
                    entry[1] = s;
                }
                $t += fresh as usize;
            }
            let last = uu + s as usize - 1;
            let nnp = at!($set, last);
            set_at!($set, uu - 1, s - 1);
            set_at!($set, last, nn);
            set_at!($set, node.loc, nnp);
            unsafe {
                $nd.get_unchecked_mut(nn as usize).loc = last as u32;
                $nd.get_unchecked_mut(nnp as usize).loc = node.loc;
            }
            true
        }
    }};
}

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

#[derive(Debug)]
pub(crate) struct Cells {
    pub nd: Vec<Node>,
    pub clr: Vec<i32>,
    pub set: Vec<u32>,
    pub item: Vec<u32>,
    pub active: u32,
    pub second: u32,
    /// The active secondary items are `item[second..sactive]`.
    pub sactive: u32,
    /// Every primary item's base is below this, every secondary's at or above.
    pub pbound: u32,
    /// Saved `(item, size, bound)` triples, `trail[..tlen]`. Each entry goes
    /// with a change still in force: a removal (a node is removed at most
    /// once along a path) or a bound taken down (once per node of a chosen
    /// option, and once per level of Algorithm M, which has at most
    /// options + items levels); so two per node, one per option and one per
    /// item are room enough.
    pub trail: Vec<[u32; 3]>,
    pub tlen: usize,
    /// How long the trail is made (see [`Self::make_room`]).
    pub room: usize,
    /// The current epoch; an item whose stamp equals it is on the trail.
    pub epoch: u32,
    /// First node of each option (ascending).
    pub option_node: Vec<u32>,
    /// How far each node is from the first node of its option (at most
    /// [`FAR`]; spacers 0), for [`start_of`]: a byte, not the first
    /// node's index, since the hide loops read it for each option they hide,
    /// and the smaller array keeps more of the cells in the cache (the
    /// pentominoes took 3% longer with a `u32` each).
    pub off: Vec<u8>,
    /// Base in `set` of each item number.
    pub base: Vec<u32>,
    /// Are the options short (at most 4 items on average), in Algorithm X
    /// or C? Then an item hidden from is often touched for the first time in
    /// its epoch, and its size is saved without a branch (see
    /// [`Self::hide_trailed`]): measured, tromino 9x9 0.96x the time and
    /// queens 14 0.83x, while on the pentominoes (6 items) and the dominoes
    /// of Algorithm M (whose epochs last longer) the branch did better.
    pub short_options: bool,
    /// Are the options long (more than 4 items on average)? Then covering an
    /// item hides its options by the walk of [`Self::long_walk`].
    pub long_options: bool,
    /// The length of every option, when they all have the same one; else 0.
    pub uniform: u32,
    /// Does each epoch save the size of every active item as it starts
    /// ([`Self::new_epoch`]), as SSXCC does, so that the hide loops save
    /// nothing? For long options over few items, without colors or
    /// multiplicities (see [`snapshots_pay`]).
    pub snapshot: bool,
    /// The item the last failed hide would have left with too few options
    /// (Knuth's "tough item"), for the branching rules that learn from
    /// failures; written only on that cold path.
    pub wiped: u32,
}

/// Is an item whose set is down to one option an active primary one? (Out
/// of line and cold: in the hide loop, a set of one is rare, and the test
/// inline cost more than it saved.)
#[cold]
#[inline(never)]
fn last_option(x: u32, pbound: u32, pos: u32, active: u32) -> bool {
    x < pbound && pos < active
}

/// The length of every option of `p` when they all have the same, else 0.
fn uniform_length(p: &CompiledProblem) -> u32 {
    let starts = p.option_start();
    let len = |o: usize| starts[o + 1] - starts[o];
    match p.n_options() {
        0 => 0,
        m if (1..m).all(|o| len(o) == len(0)) => len(0),
        _ => 0,
    }
}

/// The walk of [`Cells::hide_walk`] that is [`Cells::hide_whole`].
pub(crate) const WHOLE_WALK: u32 = u32::MAX;

/// The longest options [`Cells::long_walk`] hides as a ring of fixed
/// length: a piece and seven cells, the heptominoes.
const RING_ITEMS: u32 = 8;

/// The largest distance kept in [`Cells::off`]: a node further from the
/// first of its option (one of more than 255 items) finds it by a walk back
/// to the spacer.
const FAR: u32 = u8::MAX as u32;

/// The first node of the option of node `y` (not a spacer).
#[inline(always)]
fn start_of(nd: &[Node], off: &[u8], y: u32) -> u32 {
    let o = at!(off, y) as u32;
    if o < FAR { y - o } else { start_far(nd, y) }
}

#[cold]
#[inline(never)]
fn start_far(nd: &[Node], y: u32) -> u32 {
    let mut z = y - FAR;
    while nd[z as usize - 1].itm > 0 {
        z -= 1;
    }
    z
}

/// Items at most this many for [`snapshots_pay`].
const SNAPSHOT_ITEMS: usize = 1024;

/// Do snapshots of every active item's size at each epoch pay, in place of
/// stamps checked at each update? When the options are long (a try hides
/// hundreds of nodes, so a few dozen saved sizes are cheap beside it) and
/// the items few; and only in Algorithms X and C without colors, where an
/// item left inactive is never touched again until set back (a purified
/// item's set still shrinks, and Algorithm M saves bounds too).
fn snapshots_pay(p: &CompiledProblem, long_options: bool) -> bool {
    !p.has_colors() && !p.has_multiplicities() && long_options && p.n_items() <= SNAPSHOT_ITEMS
}

/// A copy holds the trail's live entries only (its room is made again by
/// [`Cells::make_room`] before a search runs on it): a probe or a share of
/// the tree copies a search before it has saved anything, and must not pay
/// for room for the deepest path.
impl Clone for Cells {
    fn clone(&self) -> Cells {
        let trail = self.trail[..self.tlen].to_vec();
        Cells {
            nd: self.nd.clone(),
            clr: self.clr.clone(),
            set: self.set.clone(),
            item: self.item.clone(),
            active: self.active,
            second: self.second,
            sactive: self.sactive,
            pbound: self.pbound,
            trail,
            tlen: self.tlen,
            room: self.room,
            epoch: self.epoch,
            option_node: self.option_node.clone(),
            off: self.off.clone(),
            base: self.base.clone(),
            short_options: self.short_options,
            long_options: self.long_options,
            uniform: self.uniform,
            snapshot: self.snapshot,
            wiped: self.wiped,
        }
    }

    fn clone_from(&mut self, other: &Cells) {
        self.nd.clone_from(&other.nd);
        self.clr.clone_from(&other.clr);
        self.set.clone_from(&other.set);
        self.item.clone_from(&other.item);
        (self.active, self.second, self.sactive, self.pbound) =
            (other.active, other.second, other.sactive, other.pbound);
        // The room already made is kept (entries past `tlen` are room): a
        // reset before each estimate of a split must not write the room for
        // the deepest path again, 120 MB on a million options.
        if self.trail.len() >= other.tlen {
            self.trail[..other.tlen].copy_from_slice(&other.trail[..other.tlen]);
        } else {
            self.trail.clear();
            self.trail.extend_from_slice(&other.trail[..other.tlen]);
        }
        (self.tlen, self.epoch, self.room) = (other.tlen, other.epoch, other.room);
        self.option_node.clone_from(&other.option_node);
        self.off.clone_from(&other.off);
        self.base.clone_from(&other.base);
        self.short_options = other.short_options;
        self.long_options = other.long_options;
        self.uniform = other.uniform;
        self.snapshot = other.snapshot;
        self.wiped = other.wiped;
    }
}

impl Cells {
    /// Lays out a validated problem; with `rng`, every item's options are
    /// shuffled, so that the search tries them in a random order. Given up
    /// (`None`) once `stop` is raised: a million options take most of a
    /// second, each a few cache misses.
    pub fn new_until(
        p: &CompiledProblem,
        rng: Option<&mut Rng>,
        stop: &AtomicBool,
    ) -> Option<Cells> {
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
        let mut option_node = Vec::with_capacity(p.n_options());
        let mut off = vec![0u8; n_nodes];
        let mut fill = vec![0u32; n];
        let mut y = 0usize; // the spacer before the current option
        let mut order: Vec<u64> = Vec::new();
        for o in 0..p.n_options() {
            if o % STOP_EVERY == 0 && stop.load(Ordering::Relaxed) {
                return None;
            }
            let items = p.option(o);
            nd[y].loc = items.len() as u32;
            option_node.push(y as u32 + 1);
            let start = p.option_start()[o] as usize;
            // An option's items are laid out from the one with the fewest
            // options to the one with the most, so that choosing it hides the
            // small sets first: when that leaves some item without options,
            // the choice is abandoned before the big sets (a pentomino's
            // hundreds of placements) are hidden. Knuth's programs keep the
            // input order; only the order of work changes, not the tree.
            // (By one key, the count above the position, unstably: the
            // same order as a stable sort by count, whose insertion sort
            // took 4% of the time of Akari's 970 puzzles, by perf.)
            order.clear();
            order.extend(
                (items.iter().enumerate())
                    .map(|(k, &i)| (count[i as usize] as u64) << 32 | k as u64),
            );
            order.sort_unstable();
            for &key in &order {
                let k = (key & 0xffff_ffff) as usize;
                let i = items[k];
                y += 1;
                let x = base[i as usize];
                let q = x + fill[i as usize];
                fill[i as usize] += 1;
                nd[y] = Node {
                    itm: x as i32,
                    loc: q,
                };
                set[q as usize] = y as u32;
                off[y] = (y as u32 - option_node[o]).min(FAR) as u8;
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
        let pbound = if p.n_primary() < n {
            base[p.n_primary()]
        } else {
            j as u32
        };
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
        let long = p.n_entries() > 4 * p.n_options();
        let snapshot = snapshots_pay(p, long);
        let mut cells = Cells {
            nd,
            clr,
            set,
            item,
            active: p.n_primary() as u32,
            second: p.n_primary() as u32,
            sactive: n as u32,
            pbound,
            trail: Vec::new(),
            tlen: 0,
            // With snapshots, each level with a choice saves every item.
            room: 2 * n_nodes
                + p.n_options()
                + n
                + 2
                + if snapshot { (p.n_primary() + 2) * n } else { 0 },
            epoch: 1,
            option_node,
            off,
            base,
            short_options: !p.has_multiplicities() && !long,
            long_options: long,
            uniform: uniform_length(p),
            snapshot,
            wiped: 0,
        };
        if let Some(rng) = rng {
            cells.shuffle(rng);
        }
        Some(cells)
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

    // The item accessors index in usize: the offset then folds into the
    // address of the load (in u32, the subtraction must wrap first).
    #[inline(always)]
    pub fn size(&self, x: u32) -> u32 {
        at!(self.set, x as usize - 1)
    }
    #[inline(always)]
    pub fn set_size(&mut self, x: u32, s: u32) {
        set_at!(self.set, x as usize - 1, s)
    }
    #[inline(always)]
    pub fn pos(&self, x: u32) -> u32 {
        at!(self.set, x as usize - 2)
    }
    #[inline(always)]
    pub fn slack(&self, x: u32) -> u32 {
        at!(self.set, x as usize - 3)
    }
    #[inline(always)]
    pub fn bound(&self, x: u32) -> u32 {
        at!(self.set, x as usize - 4)
    }
    #[inline(always)]
    pub fn set_bound(&mut self, x: u32, b: u32) {
        set_at!(self.set, x as usize - 4, b)
    }

    /// Moves primary item `x` (at position `k`) out of the active ones.
    #[inline(always)]
    pub fn deactivate(&mut self, x: u32, k: u32) {
        self.active -= 1;
        self.swap_items(x, k, self.active);
    }

    /// Puts item `x` (at position `k` of `item`) at position `a`, and the item
    /// that was there at `k`, keeping `pos` right.
    #[inline(always)]
    fn swap_items(&mut self, x: u32, k: u32, a: u32) {
        let cc = at!(self.item, a);
        set_at!(self.item, a, x);
        set_at!(self.item, k, cc);
        set_at!(self.set, cc - 2, k);
        set_at!(self.set, x - 2, a);
    }

    /// Purifies secondary item `x` to `color` (it has left the active items):
    /// its options of other colors are hidden (see [`Self::hide_trailed`]
    /// for `TRAIL`, `CHECK` and `BOUNDS`). The options of its color stay, and choosing
    /// one later leaves `x` alone, since it is no longer active.
    #[inline(always)]
    pub fn purify<const TRAIL: bool, const CHECK: bool, const BOUNDS: bool>(
        &mut self,
        x: u32,
        color: i32,
        c: &mut Counters,
    ) -> bool {
        let end = x + self.size(x);
        c.cleansings += 1;
        for rr in x..end {
            let tt = at!(self.set, rr);
            c.mems += 1;
            if at!(self.clr, tt) != color && !self.hide_trailed::<TRAIL, CHECK, BOUNDS>(tt, c) {
                return false;
            }
        }
        true
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

    /// Gives the trail its full length (entries past `tlen` are room), which
    /// the trailed operations assume; called as each slice of search starts.
    #[inline(always)]
    pub fn make_room(&mut self) {
        if self.trail.len() < self.room {
            self.trail.resize(self.room, [0, 0, 0]);
        }
    }

    #[cold]
    #[inline(never)]
    fn grow_trail(&mut self, end: usize) {
        let n = end.max(2 * self.trail.len());
        self.trail.resize(n, [0, 0, 0]);
        self.room = self.room.max(n);
    }

    /// Starts a new epoch: from now on, the first shrink of each item saves
    /// its size on the trail again.
    #[inline(always)]
    pub fn new_epoch(&mut self) {
        if self.epoch == u32::MAX {
            // Stamps only need to differ from the current epoch.
            for &x in &self.base {
                self.set[x as usize - 5] = 0;
            }
            self.epoch = 0;
        }
        self.epoch += 1;
        if self.snapshot {
            let t = self.tlen;
            let (active, second, sactive) = (self.active as usize, self.second, self.sactive);
            let end = t + active + (sactive - second) as usize;
            if end > self.trail.len() {
                // Never, by the room made for one snapshot per item
                // covered; but a snapshot written past the trail would be
                // memory not ours, so it is checked, once an epoch.
                self.grow_trail(end);
            }
            let items = self.item[..active]
                .iter()
                .chain(&self.item[second as usize..sactive as usize]);
            for (k, &x) in items.enumerate() {
                set_at!(self.trail, t + k, [x, self.size(x), 0]);
            }
            self.tlen = t + active + (sactive - second) as usize;
        }
    }

    /// Saves item `x`'s size and bound on the trail, unless this epoch has
    /// already saved them.
    #[inline(always)]
    pub fn touch(&mut self, x: u32) {
        if at!(self.set, x - 5) != self.epoch {
            set_at!(self.set, x - 5, self.epoch);
            set_at!(self.trail, self.tlen, [x, self.size(x), self.bound(x)]);
            self.tlen += 1;
        }
    }

    /// Hides the option of node `tt` (removes it from every set but `tt`'s
    /// own). With `TRAIL`, each item's size is saved the first time it
    /// shrinks in the epoch, and with `BOUNDS` its bound beside it (Algorithm
    /// M, which changes bounds; X and C leave it out); without `TRAIL`, the
    /// removal is for good (options forced or excluded before the search).
    /// With `CHECK`, it stops as soon as an active primary item would be
    /// left with no option (Algorithms X and C), or with `BOUNDS` with fewer
    /// than its bound less its slack, the least it must still take (Algorithm
    /// M, as Knuth's SSMCC), and returns false; the caller then restores the
    /// epoch.
    ///
    /// It shrinks the sets of inactive items too, as nothing reads them until
    /// the trail has set them back: a covered item's options are all hidden,
    /// so none of them is met again, and a purified item's set is never
    /// walked again while it is purified.
    #[inline(always)]
    pub fn hide_trailed<const TRAIL: bool, const CHECK: bool, const BOUNDS: bool>(
        &mut self,
        tt: u32,
        c: &mut Counters,
    ) -> bool {
        self.hide_walk::<TRAIL, CHECK, BOUNDS, 0>(tt, c)
    }

    /// [`Self::hide_trailed`], walking the option as a ring of `WALK`
    /// nodes (every option of the problem has that length) when `WALK` is
    /// 2 to 4: the nodes after `tt` found from its option's first node by
    /// arithmetic, in a loop of fixed length the compiler unrolls, with no
    /// spacer to test; when `WALK` is 0, from `tt` on to the spacer and
    /// round, as Knuth's programs do; when it is [`WHOLE_WALK`], as
    /// [`Self::hide_whole`].
    #[inline(always)]
    pub fn hide_walk<const TRAIL: bool, const CHECK: bool, const BOUNDS: bool, const WALK: u32>(
        &mut self,
        tt: u32,
        c: &mut Counters,
    ) -> bool {
        let Cells {
            nd,
            set,
            trail,
            tlen,
            epoch,
            active,
            pbound,
            short_options,
            off,
            snapshot,
            wiped,
            ..
        } = self;
        let (nd, set, trail) = (&mut nd[..], &mut set[..], &mut trail[..]);
        let (epoch, active, pbound, short) = (*epoch, *active, *pbound, *short_options);
        let snapshot = *snapshot;
        let mut t = *tlen;
        // Removes node `nn` from its item's set (see `remove_node`).
        macro_rules! remove {
            ($nn:expr, $node:expr) => {
                remove_node!(nd, set, trail, t, epoch, active, pbound, short, snapshot; $nn, $node)
            };
        }
        // Where a removal was refused: the node met, and so the item it
        // would have left short (kept out of the loops, whose registers a
        // store there took: the 14 queens 5% slower).
        let (mut ok, mut stop) = (true, 0u32);
        let n = if WALK == WHOLE_WALK {
            let start = start_of(nd, off, tt);
            let end = start + at!(nd, start - 1).loc;
            let mut nn = start;
            while nn < end {
                if !remove!(nn, at!(nd, nn)) {
                    (ok, stop) = (false, nn);
                    break;
                }
                nn += 1;
            }
            // Mems for every node walked; updates not for the own set's.
            c.mems += (nn > tt) as u64 * 6;
            nn - start - (nn > tt) as u32
        } else if WALK != 0 {
            // (An option of `WALK` nodes is never `FAR` long.)
            let j0 = at!(off, tt) as u32;
            let start = tt - j0;
            let mut k = 1;
            while k < WALK {
                let j = j0 + k;
                let nn = start + if j >= WALK { j - WALK } else { j };
                if !remove!(nn, at!(nd, nn)) {
                    (ok, stop) = (false, nn);
                    break;
                }
                k += 1;
            }
            k - 1
        } else {
            // The updates are not counted in the loop (a counter there is one
            // more value carried from each removal to the next): they are the
            // nodes walked, found at the end from where the walk stopped and the
            // option's length, read at its spacer.
            let mut len = 0u32;
            let mut nn = tt + 1;
            while nn != tt {
                let node = at!(nd, nn);
                if node.itm <= 0 {
                    len = node.itm.unsigned_abs();
                    nn = (nn as i32 + node.itm) as u32;
                    continue;
                }
                if !remove!(nn, node) {
                    (ok, stop) = (false, nn);
                    break;
                }
                nn += 1;
            }
            // Walked: tt+1 up to nn, or (past the spacer) all but tt..nn.
            if nn > tt {
                nn - tt - 1
            } else {
                len - 1 - (tt - nn)
            }
        } as u64;
        *tlen = t;
        c.updates += n;
        c.mems += 6 * n;
        if !ok {
            *wiped = at!(nd, stop).itm as u32;
        }
        ok
    }

    /// [`Self::hide_trailed`], as a ring of fixed length when every option
    /// has 2, 3 or 4 nodes (see [`Self::hide_walk`]).
    #[inline(always)]
    pub fn hide_one<const TRAIL: bool, const CHECK: bool, const BOUNDS: bool>(
        &mut self,
        tt: u32,
        c: &mut Counters,
    ) -> bool {
        match self.uniform {
            2 => self.hide_walk::<TRAIL, CHECK, BOUNDS, 2>(tt, c),
            3 => self.hide_walk::<TRAIL, CHECK, BOUNDS, 3>(tt, c),
            4 => self.hide_walk::<TRAIL, CHECK, BOUNDS, 4>(tt, c),
            _ => self.hide_walk::<TRAIL, CHECK, BOUNDS, 0>(tt, c),
        }
    }

    /// [`Self::hide_each`] where every option has two nodes (dominoes,
    /// matchings): each option's hide is one removal, of its other node,
    /// so the whole run is one loop, with the trail's end, the epoch and
    /// the counters in registers from one option to the next instead of
    /// loaded and stored around each. Knuth's dominoes twice, the search
    /// alone: 0.93 of the time of one [`Self::hide_walk`] an option
    /// (n = 21, paired); options of three nodes gained nothing so.
    #[inline(always)]
    fn hide_pairs<const TRAIL: bool, const CHECK: bool, const BOUNDS: bool>(
        &mut self,
        from: u32,
        end: u32,
        c: &mut Counters,
    ) -> bool {
        let Cells {
            nd,
            set,
            trail,
            tlen,
            epoch,
            active,
            pbound,
            short_options,
            off,
            snapshot,
            wiped,
            ..
        } = self;
        let (nd, set, trail) = (&mut nd[..], &mut set[..], &mut trail[..]);
        let (epoch, active, pbound, short) = (*epoch, *active, *pbound, *short_options);
        let snapshot = *snapshot;
        let mut t = *tlen;
        let mut rr = from;
        while rr < end {
            let tt = at!(set, rr);
            // The other node of tt's option: tt + 1 or tt - 1, by tt's
            // offset in it (0 or 1).
            let nn = tt + 1 - 2 * at!(off, tt) as u32;
            let node = at!(nd, nn);
            if !remove_node!(nd, set, trail, t, epoch, active, pbound, short, snapshot; nn, node) {
                *wiped = node.itm as u32;
                break;
            }
            rr += 1;
        }
        *tlen = t;
        let n = (rr - from) as u64;
        c.updates += n;
        c.mems += 6 * n;
        rr == end
    }

    /// How [`Self::hide_each`] walks the options of long options (more
    /// than 4 items on average): as a ring of their length when they all
    /// have the same one, up to [`RING_ITEMS`], else [`WHOLE_WALK`].
    pub fn long_walk(&self) -> u32 {
        match self.uniform {
            5..=RING_ITEMS => self.uniform,
            _ => WHOLE_WALK,
        }
    }

    /// Hides every option in `set[from..end]` (see [`Self::hide_trailed`]);
    /// false as soon as one leaves an active primary item with no option.
    /// `WALK` says how each is walked:
    /// * 0, for short options: as a ring of fixed length when every option
    ///   has 2, 3 or 4 nodes, else from the node met to the spacer and round;
    /// * 5 to [`RING_ITEMS`], where every option has that many nodes: as a
    ///   ring of that length;
    /// * [`WHOLE_WALK`]: each option whole, from the set's end down (see
    ///   [`Self::hide_whole`]: the set is then left empty).
    ///
    /// All but the whole walk leave the set walked as it is. With long
    /// options, only the set of an item just covered is walked so, and no
    /// removal after it goes there (each option that holds the item was in
    /// the set and is hidden now), so its entries need not leave it: the
    /// rings skip them, where the whole walk swapped each option out of
    /// the set. Knuth's pentominoes 6x10, the search alone: 0.84 of the
    /// time of the whole walk (2.43-2.46 s against 2.86-2.99 s, five pairs),
    /// the 8x8 minus its centre 0.87, the same shuffled 0.85-0.86; a ring
    /// whose length is read at each option took 1.17.
    #[inline(always)]
    pub fn hide_each<const TRAIL: bool, const CHECK: bool, const BOUNDS: bool, const WALK: u32>(
        &mut self,
        from: u32,
        end: u32,
        c: &mut Counters,
    ) -> bool {
        if WALK == WHOLE_WALK {
            for rr in (from..end).rev() {
                let tt = at!(self.set, rr);
                if !self.hide_whole::<TRAIL, CHECK, BOUNDS>(tt, c) {
                    return false;
                }
            }
            return true;
        }
        macro_rules! each {
            ($ring:expr) => {{
                // The counters in a local the loop can keep in registers,
                // not stored through `c` after each option: the L-tromino
                // 9x9 count 0.96 of the time, queens 14 0.99, the dominoes
                // twice 0.98 (n = 15-21, paired; the long options' walk
                // above gained nothing so).
                let mut cc = *c;
                for rr in from..end {
                    let tt = at!(self.set, rr);
                    if !self.hide_walk::<TRAIL, CHECK, BOUNDS, $ring>(tt, &mut cc) {
                        *c = cc;
                        return false;
                    }
                }
                *c = cc;
                true
            }};
        }
        if WALK != 0 {
            return each!(WALK);
        }
        match self.uniform {
            2 => self.hide_pairs::<TRAIL, CHECK, BOUNDS>(from, end, c),
            3 => each!(3),
            4 => each!(4),
            _ => each!(0),
        }
    }

    /// Hides the option of node `tt` as [`Self::hide_trailed`] does, but
    /// removes it from `tt`'s own set too: for a caller that walks a set from
    /// its end down (the node is then its set's last, and leaving is only
    /// the size going down), so that the walk goes once over the option from
    /// its first node, with no spacer to meet and no wrap.
    #[inline(always)]
    pub fn hide_whole<const TRAIL: bool, const CHECK: bool, const BOUNDS: bool>(
        &mut self,
        tt: u32,
        c: &mut Counters,
    ) -> bool {
        self.hide_walk::<TRAIL, CHECK, BOUNDS, WHOLE_WALK>(tt, c)
    }

    /// Sets back every size saved on the trail since `mark` (and, with
    /// `BOUNDS`, every bound: Algorithm M).
    #[inline(always)]
    pub fn restore<const BOUNDS: bool>(&mut self, mark: usize, c: &mut Counters) {
        let mut t = self.tlen;
        // A snapshot's entries were two mems each to take (an item, its
        // size), counted here, where they are set back.
        c.mems += (t - mark) as u64 * if self.snapshot { 3 } else { 1 };
        while t > mark {
            t -= 1;
            let [x, s, b] = at!(self.trail, t);
            set_at!(self.set, x - 1, s);
            if BOUNDS {
                set_at!(self.set, x - 4, b);
            }
        }
        self.tlen = mark;
    }

    /// Moves secondary item `x` (at position `k`) out of the active ones.
    #[inline(always)]
    pub fn deactivate_secondary(&mut self, x: u32, k: u32) {
        self.sactive -= 1;
        self.swap_items(x, k, self.sactive);
    }

    /// The nodes of the option of node `y` (not a spacer), from its first
    /// to its last: its items are their `itm`. Found by the offset of `y`
    /// and the length the spacer before the option keeps, with no walk.
    #[inline(always)]
    pub fn option_nodes(&self, y: u32) -> &[Node] {
        let start = start_of(&self.nd, &self.off, y) as usize;
        let end = start + at!(self.nd, start - 1).loc as usize;
        debug_assert!(end <= self.nd.len());
        unsafe { self.nd.get_unchecked(start..end) }
    }

    /// The number of the option that node `y` (not a spacer) belongs to.
    pub fn option_of(&self, y: u32) -> u32 {
        let start = start_of(&self.nd, &self.off, y);
        self.option_node.partition_point(|&s| s < start) as u32
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
