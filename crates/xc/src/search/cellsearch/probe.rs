//! Knuth's random probes of the tree (the estimates that cut it into
//! pieces for the threads, and weigh the counting methods against each
//! other), walked on the trail of the search and undone.

use super::*;

impl CellSearch {
    /// [`Machine::probe`]'s walk (on the trail, not undone): in Algorithms
    /// X and C a random option of the chosen item is committed; in
    /// Algorithm M (`MCC`) the option of a random node of the chosen item is
    /// taken, as [`Solve::force`] takes one.
    pub(super) fn probe_walk<const MCC: bool>(
        &mut self,
        rng: &mut Rng,
        halt: &AtomicBool,
        c: &mut Counters,
    ) -> Option<f64> {
        let (mut total, mut width) = (1.0f64, 1.0f64);
        for _ in 0..MAX_PROBE_DEPTH {
            if halt.load(Ordering::Relaxed) {
                return None;
            }
            if self.cells.active == 0 {
                return Some(total);
            }
            // The item, its branching degree, and its nodes to pick from.
            let (i, degree, size) = if MCC {
                let (i, score) = self.choose_mcc(c);
                if (i, score) == ALL_MET {
                    return Some(total);
                }
                (i, score, self.cells.size(i))
            } else {
                let (best, t) = self.choose_xcc(c);
                (best, t as i64, t)
            };
            if degree <= 0 || size == 0 {
                return Some(total);
            }
            width *= degree as f64;
            total += width;
            if total >= MOST_ESTIMATE {
                return Some(MOST_ESTIMATE);
            }
            let ok = if MCC {
                self.branch_on_trail(i, degree as u32, rng, c)
            } else {
                let x = at!(self.cells.set, i + rng.below(size as u64) as u32);
                self.cover::<true, false, false, false>(i, c);
                if self.colors {
                    self.commit::<true, true, true>(x, c)
                } else {
                    self.commit::<false, true, true>(x, c)
                }
            };
            if !ok {
                return Some(total);
            }
        }
        Some(total)
    }

    /// A random one of the `degree` branches Algorithm M makes at item `i`
    /// (see `children`), on the trail, for a probe: branch j leaves out the
    /// first j options of `i`'s set and takes the next, the last gives `i`
    /// nothing more if its slack allows. A probe that took a random option
    /// without leaving the earlier ones out walked a tree that meets each
    /// set of options in every order: on REDRECT-DLX, whose items take up
    /// to eight rectangles, 500 times the nodes the search visits.
    pub(super) fn branch_on_trail(
        &mut self,
        i: u32,
        degree: u32,
        rng: &mut Rng,
        c: &mut Counters,
    ) -> bool {
        let (b, slack, s) = (
            self.cells.bound(i) - 1,
            self.cells.slack(i),
            self.cells.size(i),
        );
        let j = rng.below(degree as u64) as u32;
        if b == 0 && slack == 0 {
            // i is covered by the option taken: the ones before it go anyway.
            let x = at!(self.cells.set, i + j);
            return self.take_on_trail(self.option_of(x), c);
        }
        let opts: Vec<u32> = (i..i + s.min(j + 1))
            .map(|q| self.option_of(at!(self.cells.set, q)))
            .collect();
        for &o in opts.iter().take(j as usize) {
            if !self.exclude_on_trail(o, c) {
                return false;
            }
        }
        match opts.get(j as usize) {
            Some(&o) => self.take_on_trail(o, c),
            None => true,
        }
    }

    /// Leaves option `o` out, on the trail, for a probe: false when `o` is
    /// not live.
    pub(super) fn exclude_on_trail(&mut self, o: u32, c: &mut Counters) -> bool {
        if !self.cells.option_is_live(o) {
            return false;
        }
        let x = self.primary_node(o);
        let i = at!(self.cells.nd, x).itm as u32;
        self.cells.hide_one::<true, false, true>(x, c);
        self.cells.touch(i);
        self.cells.remove_from_own_set(x, c);
        true
    }

    /// [`Solve::force`] of option `o` on the trail (Algorithm M), for a
    /// probe: false, with nothing more done, when `o` is not live.
    pub(super) fn take_on_trail(&mut self, o: u32, c: &mut Counters) -> bool {
        // Out of every set, then counted against the items it covers.
        if !self.exclude_on_trail(o, c) {
            return false;
        }
        let x = self.primary_node(o);
        let i = at!(self.cells.nd, x).itm as u32;
        let b = self.cells.bound(i) - 1;
        self.cells.set_bound(i, b);
        if b == 0 {
            self.cover::<true, true, false, false>(i, c);
        }
        if self.colors {
            self.commit_mcc::<true, true, false>(x, c);
        } else {
            self.commit_mcc::<false, true, false>(x, c);
        }
        true
    }
}
