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
//! of them per node pays for a few. (With short options in Algorithms X and
//! C, every shrink is saved, with no stamp to test: a removal does less,
//! and an item's first entry in the epoch is the one set back last.)
//! Undoing a try is then one pass over its part of the trail. Algorithm M saves bounds beside the sizes, as SSMCC
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

mod hide;

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
    /// The current epoch; an item whose stamp equals it is on the trail
    /// (the removals of short options in X and C save without stamping).
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
    /// its epoch, and every removal's size goes on the trail, without a
    /// stamp or a branch (see `remove_node` in `hide.rs`): measured, an
    /// entry written without a branch and kept on the first shrink took
    /// the tromino 9x9 0.96x the time and queens 14 0.83x, and every
    /// removal's entry queens 0.96x again; on the pentominoes (6 items) and
    /// the dominoes of Algorithm M (whose epochs last longer) the branch
    /// did better.
    pub short_options: bool,
    /// Are the options long (more than 4 items on average)? Then covering an
    /// item hides its options by the walk of [`Self::long_walk`].
    pub long_options: bool,
    /// The length of every option, when they all have the same one; else 0.
    pub uniform: u32,
    /// Does each epoch save the size of every active item as it starts
    /// ([`Self::new_epoch`]), as SSXCC does, so that the hide loops save
    /// nothing? For long options over few items, without colors (see
    /// [`snapshots_pay`]).
    pub snapshot: bool,
    /// The item the last failed hide would have left with too few options
    /// (Knuth's "tough item"), for the branching rules that learn from
    /// failures; written only on that cold path.
    pub wiped: u32,
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

/// Entries of snapshots at most this many for Algorithm M (12 bytes each):
/// its epochs along a path are not bounded by the items, as those of
/// Algorithms X and C are (see [`snapshot_room`]).
const SNAPSHOT_ROOM: usize = 1 << 21;

/// Do snapshots of every active item's size at each epoch pay, in place of
/// stamps checked at each update? When the options are long (a try hides
/// hundreds of nodes, so a few dozen saved sizes are cheap beside it) and
/// the items few; and only without colors (a purified item's set still
/// shrinks). Algorithm M takes them too when its room, larger, stays under
/// [`SNAPSHOT_ROOM`], and most primary items are taken at most once, so that
/// most tries cover them as Algorithm X does: where most take any number of
/// options (Knuth's redrect), a try hides a few options and a snapshot
/// costs more than the stamps (redrect 3x8, 10 removals a node: 1.05 of
/// the time). An item left inactive (covered, purified, taken out by
/// Algorithm M's null branch or `retire_met`) may still see its set shrink
/// unsaved, but it was active when the epoch it left in began, and that
/// epoch's snapshot sets it back before anything reads it again: only a mark
/// taken before it left makes it active again, and an epoch starts at once
/// after each mark.
fn snapshots_pay(p: &CompiledProblem, long_options: bool) -> bool {
    !p.has_colors()
        && long_options
        && p.n_items() <= SNAPSHOT_ITEMS
        && (!p.has_multiplicities() || snapshot_room(p) <= SNAPSHOT_ROOM && mostly_once(p))
}

/// Are most primary items taken at most once?
fn mostly_once(p: &CompiledProblem) -> bool {
    let hi = &p.hi()[..p.n_primary()];
    2 * hi.iter().filter(|&&h| h <= 1).count() > hi.len()
}

/// The trail's room for the snapshots of one path: a snapshot holds at most
/// every item. In Algorithms X and C an epoch starts at each level with a
/// choice, and each covers a primary item. In Algorithm M a level starts an
/// epoch for each option it leaves out (Knuth's tweak, which hides the
/// option for the rest of the level: at most every option along a path),
/// and one for its try or null branch; each level takes an option or closes
/// a primary item. The count allows one more a level, for its start, which
/// no longer has an epoch of its own (M4 works in the try above): a margin.
fn snapshot_room(p: &CompiledProblem) -> usize {
    let (m, n1, n) = (p.n_options(), p.n_primary(), p.n_items());
    let epochs = if p.has_multiplicities() {
        (3 * m).saturating_add(2 * n1) + 2
    } else {
        n1 + 2
    };
    epochs.saturating_mul(n)
}

/// Are `p`'s options long (more than 4 items on average)?
fn long_options(p: &CompiledProblem) -> bool {
    p.n_entries() > 4 * p.n_options()
}

/// The trail's room, in entries: one per node (each removed at most once
/// along a path, and with stamps saved at most so often), per option
/// (Algorithm M's tweaks save the branching item), per item, and the
/// snapshots' when they pay. (The memory estimate counts it too.)
pub(crate) fn trail_room(p: &CompiledProblem) -> usize {
    let n_nodes = p.n_entries() + p.n_options() + 1;
    let base = 2 * n_nodes + p.n_options() + p.n_items() + 2;
    let snapshots = if snapshots_pay(p, long_options(p)) {
        snapshot_room(p)
    } else {
        0
    };
    base.saturating_add(snapshots)
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
        let long = long_options(p);
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
            room: trail_room(p),
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

    /// Swaps the nodes at places `a` and `b` of the same set, keeping
    /// their `loc` right.
    #[inline(always)]
    pub fn swap_in_set(&mut self, a: u32, b: u32) {
        let (ya, yb) = (at!(self.set, a), at!(self.set, b));
        set_at!(self.set, a, yb);
        set_at!(self.set, b, ya);
        unsafe {
            self.nd.get_unchecked_mut(ya as usize).loc = b;
            self.nd.get_unchecked_mut(yb as usize).loc = a;
        }
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
            self.take_snapshot();
        }
    }

    /// Saves every active item's size and bound on the trail, as an epoch
    /// starts with snapshots. (Out of line: inlined at each epoch, it made
    /// the search loops longer where there are no snapshots, the dominoes
    /// twice 1.02 of the time.)
    #[inline(never)]
    fn take_snapshot(&mut self) {
        let t = self.tlen;
        let (active, second, sactive) = (self.active as usize, self.second, self.sactive);
        let end = t + active + (sactive - second) as usize;
        if end > self.trail.len() {
            // Never, by the room made for the snapshots of a path
            // (`snapshot_room`); but a snapshot written past the trail
            // would be memory not ours, so it is checked, once an epoch.
            self.grow_trail(end);
        }
        let items = self.item[..active]
            .iter()
            .chain(&self.item[second as usize..sactive as usize]);
        for (k, &x) in items.enumerate() {
            // The bound too, which Algorithm M changes and sets back.
            set_at!(self.trail, t + k, [x, self.size(x), self.bound(x)]);
        }
        self.tlen = end;
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
