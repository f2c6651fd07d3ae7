//! Hiding options on dancing cells: the walks of an option's nodes that
//! remove it from its items' sets (Knuth's `hide`), and the loops over a
//! set that hide each of its options (covering an item, purifying one).

use super::*;

/// Removes node `nn` (its `node`) from its item's set, in a walk of
/// [`Cells::hide_walk`] or [`Cells::hide_pairs`] (`$nd` to `$snapshot`: the
/// walk's locals, `$t` the trail's end, moved on past a saved size); false,
/// and nothing done, when that would leave an active primary item with too
/// few options (`CHECK`). One text for both walks, expanded in each, so
/// that the locals stay in registers.
macro_rules! remove_node {
    ($nd:ident, $set:ident, $trail:ident, $t:ident, $epoch:ident, $active:ident, $pbound:ident,
     $short:ident, $snapshot:ident, $secondary:expr; $nn:expr, $node:expr) => {{
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
            // (With `$secondary`, a secondary item's set of one, which
            // the diagonals of queens often are, is told inline: queens
            // 14 0.8 of the time. Not in the rings of long options, where
            // the pentominoes, with no secondary item, took 1.13 of it.)
            s == 1 && (!$secondary || (uu as u32) < $pbound)
        };
        if CHECK && few && last_option(uu as u32, $pbound, at!($set, uu - 2), $active) {
            false
        } else {
            if TRAIL && !$snapshot && !BOUNDS && $short {
                // Short options in Algorithms X and C: every removal's
                // size goes on the trail, with no stamp loaded or stored
                // (the room is one entry per node, each removed at most
                // once along a path; setting back walks the trail down, so
                // an item's first entry, its size before the epoch, is set
                // last). Queens 14, the search alone, 0.96 of the time of
                // a stamp tested and an entry kept on the item's first
                // shrink (ten pairs); the L-tromino the same.
                debug_assert!($t < $trail.len());
                let entry = unsafe { $trail.get_unchecked_mut($t) };
                entry[0] = uu as u32;
                entry[1] = s;
                $t += 1;
            } else if TRAIL && !$snapshot && at!($set, uu - 5) != $epoch {
                // Otherwise only on the item's first shrink in the epoch.
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
                $t += 1;
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

/// Is an item whose set is down to one option an active primary one? (Out
/// of line and cold: in the hide loop, a set of one is rare, and the test
/// inline cost more than it saved.)
#[cold]
#[inline(never)]
fn last_option(x: u32, pbound: u32, pos: u32, active: u32) -> bool {
    x < pbound && pos < active
}

impl Cells {
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

    /// Hides the option of node `tt` (removes it from every set but `tt`'s
    /// own). With `TRAIL`, each item's size is saved the first time it
    /// shrinks in the epoch (at each shrink with short options in
    /// Algorithms X and C, and not at all with snapshots), and with
    /// `BOUNDS` its bound beside it (Algorithm M, which changes bounds; X
    /// and C leave it out); without `TRAIL`, the
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
    /// 2 to [`RING_ITEMS`]: the nodes after `tt` found from its option's first node by
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
                remove_node!(nd, set, trail, t, epoch, active, pbound, short, snapshot, WALK <= 4; $nn, $node)
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
            // Every option has WALK nodes and a spacer before it, the
            // first spacer at 0. Where that stride is a power of two,
            // tt's place in its option is a mask, with no load before the
            // ring's first node; other strides read it (a division by 7
            // took the pentominoes 6x10 1.2 of the time).
            let j0 = if (WALK + 1).is_power_of_two() {
                (tt - 1) & WALK
            } else {
                at!(off, tt) as u32
            };
            debug_assert_eq!(j0, at!(off, tt) as u32);
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
            if !remove_node!(nd, set, trail, t, epoch, active, pbound, short, snapshot, true; nn, node)
            {
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
}
