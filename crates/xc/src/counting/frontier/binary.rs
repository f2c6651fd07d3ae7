//! The binary step: exact cover without colors or multiplicities on dense
//! tables, where a transition is a mask, an `or` and a count added (see
//! [`Plan::binary_chunk`]), on tables turned so that they are read and
//! written in sequence (`table::Dense`).

use super::Plan;
use super::table::{Dense, rotr};

impl Plan {
    /// The field a binary problem's table before step `t` has lowest (see
    /// `table::Dense`): that of the step's item; 0 otherwise.
    pub(super) fn turn(&self, t: usize) -> u64 {
        match self.step_item.get(t) {
            Some(&i) if self.binary => self.slot[i as usize],
            _ => 0,
        }
    }

    /// A binary step (see `binary`) of the keys `from..to` of the dense
    /// table `cur`, straight into the dense table `next`. A key whose count
    /// is past 128 bits is left to the general step (`deferred`). Both
    /// tables are turned (`table::Dense`): a state's place `j` holds the key
    /// `j` turned left by `cur.rot`, and goes to the key turned right by
    /// `next.rot`; the masks are turned once a step instead.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn binary_chunk(
        &self,
        t: usize,
        cur: &Dense,
        next: &mut Dense,
        work: &mut u64,
        deferred: &mut Vec<usize>,
        from: usize,
        to: usize,
    ) {
        let group = self.group_start[t] as usize..self.group_start[t + 1] as usize;
        let masks = &self.masks[group];
        let keep = self.keep[t];
        let settled = 1u64 << self.slot[self.step_item[t] as usize];
        let b = cur.bits;
        let full = u64::MAX >> (64 - b);
        let (r_in, r_out) = (cur.rot, next.rot);
        let d = (r_out + b - r_in) % b.max(1);
        let masks_in: Vec<u64> = masks.iter().map(|&m| rotr(m, r_in, b)).collect();
        let masks_out: Vec<u64> = masks.iter().map(|&m| rotr(m, r_out, b)).collect();
        let keep = rotr(keep & full, r_out, b);
        let settled = rotr(settled, r_in, b);
        let mut done = 0u64;
        for word in from / 64..to.div_ceil(64) {
            let base = word * 64;
            let mut bits = cur.used[word];
            if base < from {
                bits &= u64::MAX << (from - base);
            }
            if base + 64 > to {
                bits &= u64::MAX >> (base + 64 - to);
            }
            while bits != 0 {
                let k = base + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if !cur.high.is_empty() && cur.high.contains_key(&(k as u32)) {
                    deferred.push(k);
                    continue;
                }
                let count = cur.cells[k];
                let j = k as u64;
                let k = rotr(j, d, b);
                done += 1;
                if j & settled != 0 {
                    next.add_low((k & keep) as usize, count);
                } else {
                    done += masks.len() as u64;
                    for (&m_in, &m_out) in masks_in.iter().zip(&masks_out) {
                        if j & m_in == 0 {
                            next.add_low(((k | m_out) & keep) as usize, count);
                        }
                    }
                }
            }
        }
        *work += done;
    }
}
