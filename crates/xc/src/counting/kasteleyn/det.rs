//! The count from a Pfaffian orientation: `|det B|` for a bipartite graph
//! (B the signed, weighted matrix of its black vertices by its white ones),
//! else `sqrt(det A)` for the skew-symmetric `A`, exact.
//!
//! The determinant is taken modulo primes below 2^62, enough of them that
//! their product passes twice Hadamard's bound, and put together by the
//! Chinese remainder theorem (Garner's mixed radix). Each is found by
//! elimination along the profile: the vertices in a Cuthill-McKee order
//! (a plane graph of n vertices is then banded, some sqrt(n) wide), each
//! row kept from its first nonzero column on, and a column's pivot taken
//! among the rows that start there, so the work is the band's, not n^3.

use std::cmp::Ordering as Cmp;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};

use super::planar::Rotation;
use super::{Graph, KasteleynError};
use crate::core::number::Number;

/// The number of perfect matchings of the connected `g` with the Pfaffian
/// orientation `orient` (`rotation` its embedding, whose adjacency it
/// reads); None if `stop` went up first.
pub(crate) fn count(
    g: &Graph,
    rotation: &Rotation,
    orient: &[bool],
    memory: u64,
    stop: &AtomicBool,
) -> Result<Option<Number>, KasteleynError> {
    let n = g.n;
    let order = cuthill_mckee(rotation);
    let mut colour = vec![u8::MAX; n];
    let bipartite = two_colour(rotation, &mut colour);
    // Each vertex's row (and column): its place among its own colour in
    // the order, or in the whole order.
    let mut place = vec![0u32; n];
    let mut sizes = [0u32; 2];
    for &v in &order {
        let c = if bipartite {
            colour[v as usize] as usize
        } else {
            0
        };
        place[v as usize] = sizes[c];
        sizes[c] += 1;
    }
    if bipartite && sizes[0] != sizes[1] {
        return Ok(Some(Number::ZERO));
    }
    let size = sizes[0] as usize;
    // The matrix's rows: (column, signed weight); the entry of u -> v is +w.
    let mut rows: Vec<Vec<(u32, i128)>> = vec![Vec::new(); size];
    for (e, &(u, v, w)) in g.edges.iter().enumerate() {
        let (from, to) = if orient[e] { (u, v) } else { (v, u) };
        let w = w as i128;
        for (a, b, x) in [(from, to, w), (to, from, -w)] {
            if !bipartite || colour[a as usize] == 0 {
                rows[place[a as usize] as usize].push((place[b as usize], x));
            }
        }
    }
    for row in &mut rows {
        row.sort_unstable_by_key(|&(c, _)| c);
    }
    // What the elimination holds at most, before it is spent: each row
    // from its first column to the widest row's reach, twice the lower
    // band for the fill of the pivots' rows.
    let (mut wide, mut lower) = (0u64, 0u64);
    for (r, row) in rows.iter().enumerate() {
        if let (Some(a), Some(b)) = (row.first(), row.last()) {
            wide = wide.max((b.0 - a.0) as u64 + 1);
            lower = lower.max((r as u64).saturating_sub(a.0 as u64));
        }
    }
    let bytes = (size as u64)
        .saturating_mul(wide + 2 * lower)
        .saturating_mul(8);
    if bytes > memory {
        return Err(KasteleynError::TooLarge(bytes));
    }
    // Hadamard: |det| <= the product of the rows' lengths.
    let bits: f64 = rows
        .iter()
        .map(|r| 0.5 * r.iter().map(|&(_, x)| (x * x) as f64).sum::<f64>().log2())
        .sum();
    let mut primes = Vec::new();
    let mut residues = Vec::new();
    let mut covered = 0.0;
    let mut candidate = 1u64 << 62;
    while covered < bits + 2.0 {
        candidate = prime_below(candidate);
        primes.push(candidate);
        covered += (candidate as f64).log2();
        match det_mod(&rows, candidate, stop) {
            Some(r) => residues.push(r),
            None => return Ok(None),
        }
    }
    let (x, modulus) = garner(&residues, &primes);
    // The residue nearest 0, and its size.
    let mut twice = x.clone();
    mul_add(&mut twice, 2, 0);
    let value = if cmp(&twice, &modulus) == Cmp::Greater {
        sub(&modulus, &x)
    } else {
        x
    };
    if bipartite {
        return Ok(Some(Number::from_limbs(value)));
    }
    let root = isqrt(&value);
    let mut square = Number::from_limbs(root.clone());
    square.mul(&Number::from_limbs(root.clone()));
    if square != Number::from_limbs(value) {
        return Err(KasteleynError::Internal); // det A = Pf(A)^2, always
    }
    Ok(Some(Number::from_limbs(root)))
}

/// The vertices in a Cuthill-McKee order: breadth first from an end of a
/// longest shortest path found by two sweeps, the neighbours of each by
/// increasing degree.
fn cuthill_mckee(rotation: &Rotation) -> Vec<u32> {
    let (start, adj) = (&rotation.start, &rotation.adj);
    let n = start.len() - 1;
    let degree = |v: u32| start[v as usize + 1] - start[v as usize];
    let sweep = |from: u32| -> Vec<u32> {
        let mut seen = vec![false; n];
        let mut order = vec![from];
        seen[from as usize] = true;
        let mut at = 0;
        let mut next: Vec<u32> = Vec::new();
        while at < order.len() {
            let v = order[at] as usize;
            at += 1;
            next.clear();
            next.extend(
                adj[start[v]..start[v + 1]]
                    .iter()
                    .map(|&(u, _)| u)
                    .filter(|&u| !seen[u as usize]),
            );
            next.sort_unstable_by_key(|&u| (degree(u), u));
            for &u in &next {
                seen[u as usize] = true;
                order.push(u);
            }
        }
        order
    };
    let first = (0..n as u32).min_by_key(|&v| degree(v)).unwrap_or(0);
    let far = *sweep(first).last().unwrap_or(&first);
    sweep(far)
}

/// Colours the connected graph of `rotation` 0 and 1 across its edges, if
/// it can be.
fn two_colour(rotation: &Rotation, colour: &mut [u8]) -> bool {
    let (start, adj) = (&rotation.start, &rotation.adj);
    colour[0] = 0;
    let mut queue = VecDeque::from([0u32]);
    while let Some(v) = queue.pop_front() {
        let c = colour[v as usize];
        for &(u, _) in &adj[start[v as usize]..start[v as usize + 1]] {
            if colour[u as usize] == u8::MAX {
                colour[u as usize] = 1 - c;
                queue.push_back(u);
            } else if colour[u as usize] == c {
                return false;
            }
        }
    }
    true
}

/// `a * b mod p`.
#[inline]
fn mul_mod(a: u64, b: u64, p: u64) -> u64 {
    ((a as u128 * b as u128) % p as u128) as u64
}

fn pow_mod(mut a: u64, mut e: u64, p: u64) -> u64 {
    let mut r = 1;
    while e > 0 {
        if e & 1 == 1 {
            r = mul_mod(r, a, p);
        }
        a = mul_mod(a, a, p);
        e >>= 1;
    }
    r
}

/// The largest prime below `x` (Miller-Rabin with the bases that decide
/// every 64-bit number).
fn prime_below(x: u64) -> u64 {
    let is_prime = |n: u64| {
        if n < 2 || n.is_multiple_of(2) {
            return n == 2;
        }
        let (mut d, mut s) = (n - 1, 0);
        while d % 2 == 0 {
            d /= 2;
            s += 1;
        }
        'base: for a in [2u64, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37] {
            if a % n == 0 {
                continue;
            }
            let mut y = pow_mod(a, d, n);
            if y == 1 || y == n - 1 {
                continue;
            }
            for _ in 1..s {
                y = mul_mod(y, y, n);
                if y == n - 1 {
                    continue 'base;
                }
            }
            return false;
        }
        true
    };
    let mut c = x - 1;
    while !is_prime(c) {
        c -= 1;
    }
    c
}

/// Arithmetic modulo an odd `p` below 2^62 in Montgomery's form (`x R mod
/// p`, R = 2^64): a product is a multiply and a reduction, no division.
struct Montgomery {
    p: u64,
    /// -1/p modulo 2^64.
    neg_inv: u64,
    /// R^2 mod p.
    r2: u64,
}

impl Montgomery {
    fn new(p: u64) -> Montgomery {
        let mut inv = p; // (Newton: each step doubles the bits right)
        for _ in 0..6 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(p.wrapping_mul(inv)));
        }
        let r = ((1u128 << 64) % p as u128) as u64;
        Montgomery {
            p,
            neg_inv: inv.wrapping_neg(),
            r2: mul_mod(r, r, p),
        }
    }

    #[inline]
    fn reduce(&self, t: u128) -> u64 {
        let m = (t as u64).wrapping_mul(self.neg_inv);
        let u = ((t + m as u128 * self.p as u128) >> 64) as u64;
        // (u - p wraps past u unless u >= p: a select, not a branch)
        u.min(u.wrapping_sub(self.p))
    }

    #[inline]
    fn mul(&self, a: u64, b: u64) -> u64 {
        self.reduce(a as u128 * b as u128)
    }

    fn to(&self, x: u64) -> u64 {
        self.mul(x, self.r2)
    }

    fn from(&self, x: u64) -> u64 {
        self.reduce(x as u128)
    }

    fn pow(&self, mut a: u64, mut e: u64) -> u64 {
        let mut r = self.to(1);
        while e > 0 {
            if e & 1 == 1 {
                r = self.mul(r, a);
            }
            a = self.mul(a, a);
            e >>= 1;
        }
        r
    }
}

/// The determinant of the square matrix `rows` (each row's entries by
/// increasing column) modulo the prime `p`; None if `stop` went up.
fn det_mod(rows: &[Vec<(u32, i128)>], p: u64, stop: &AtomicBool) -> Option<u64> {
    let n = rows.len();
    let m = Montgomery::new(p);
    let reduce = |x: i128| m.to(x.rem_euclid(p as i128) as u64);
    // Each row from its first nonzero column: (start, values).
    let mut held: Vec<(usize, Vec<u64>)> = Vec::with_capacity(n);
    let mut bucket: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (r, row) in rows.iter().enumerate() {
        let Some(&(first, _)) = row.first() else {
            return Some(0);
        };
        let last = row[row.len() - 1].0;
        let mut vals = vec![0u64; (last - first) as usize + 1];
        for &(c, x) in row {
            vals[(c - first) as usize] = reduce(x);
        }
        held.push((first as usize, vals));
        bucket[first as usize].push(r as u32);
    }
    let mut det = m.to(1);
    let mut pivot_of = vec![0u32; n];
    let mut work = 0u64;
    for k in 0..n {
        let rows_here = std::mem::take(&mut bucket[k]);
        let Some(&pivot) = rows_here.iter().min_by_key(|&&r| held[r as usize].1.len()) else {
            return Some(0);
        };
        pivot_of[k] = pivot;
        let piv = std::mem::take(&mut held[pivot as usize].1);
        det = m.mul(det, piv[0]);
        let inv = m.pow(piv[0], p - 2);
        for &r in &rows_here {
            if r == pivot {
                continue;
            }
            let row = &mut held[r as usize].1;
            let f = m.mul(row[0], inv);
            if row.len() < piv.len() {
                row.resize(piv.len(), 0);
            }
            for (x, &y) in row.iter_mut().zip(&piv) {
                // x - f y mod p, without a branch (x - t wraps unless x >= t).
                let d = x.wrapping_sub(m.mul(f, y));
                *x = d.min(d.wrapping_add(p));
            }
            work += piv.len() as u64;
            let Some(z) = row.iter().position(|&x| x != 0) else {
                return Some(0);
            };
            row.drain(..z);
            held[r as usize].0 = k + z;
            bucket[k + z].push(r);
        }
        if work > 1 << 20 {
            work = 0;
            if stop.load(Ordering::Relaxed) {
                return None;
            }
        }
    }
    let det = m.from(det);
    // The sign of the permutation column -> pivot row.
    let mut seen = vec![false; n];
    let mut odd = false;
    for s in 0..n {
        let mut len = 0;
        let mut at = s;
        while !seen[at] {
            seen[at] = true;
            at = pivot_of[at] as usize;
            len += 1;
        }
        if len > 0 && len % 2 == 0 {
            odd = !odd;
        }
    }
    Some(if odd && det != 0 { p - det } else { det })
}

/// The number x with x = residues[i] mod primes[i], 0 <= x < their product,
/// and that product; numbers as little-endian limbs.
fn garner(residues: &[u64], primes: &[u64]) -> (Vec<u64>, Vec<u64>) {
    let k = primes.len();
    let mut digits: Vec<u64> = Vec::with_capacity(k);
    for i in 0..k {
        let p = primes[i];
        // x so far, modulo p, and the product of the primes before, modulo p.
        let (mut x, mut radix) = (0u64, 1u64);
        for j in 0..i {
            x = (x + mul_mod(digits[j] % p, radix, p)) % p;
            radix = mul_mod(radix, primes[j] % p, p);
        }
        let diff = (residues[i] % p + p - x) % p;
        digits.push(mul_mod(diff, pow_mod(radix, p - 2, p), p));
    }
    let mut x = vec![0u64];
    for i in (0..k).rev() {
        mul_add(&mut x, primes[i], digits[i]);
    }
    let mut product = vec![1u64];
    for &p in primes {
        mul_add(&mut product, p, 0);
    }
    (trim(x), product)
}

/// `x = x * m + a`.
fn mul_add(x: &mut Vec<u64>, m: u64, a: u64) {
    let mut carry = a as u128;
    for limb in x.iter_mut() {
        let t = *limb as u128 * m as u128 + carry;
        *limb = t as u64;
        carry = t >> 64;
    }
    if carry > 0 {
        x.push(carry as u64);
    }
}

fn trim(mut x: Vec<u64>) -> Vec<u64> {
    while x.len() > 1 && x.last() == Some(&0) {
        x.pop();
    }
    x
}

fn cmp(a: &[u64], b: &[u64]) -> Cmp {
    let (a, b) = (trim(a.to_vec()), trim(b.to_vec()));
    a.len()
        .cmp(&b.len())
        .then_with(|| a.iter().rev().cmp(b.iter().rev()))
}

/// `a - b`, for `a >= b`.
fn sub(a: &[u64], b: &[u64]) -> Vec<u64> {
    let mut out = a.to_vec();
    let mut borrow = false;
    for (k, limb) in out.iter_mut().enumerate() {
        let y = b.get(k).copied().unwrap_or(0);
        let (d1, b1) = limb.overflowing_sub(y);
        let (d2, b2) = d1.overflowing_sub(borrow as u64);
        *limb = d2;
        borrow = b1 || b2;
    }
    trim(out)
}

/// The integer square root, two bits at a time.
fn isqrt(x: &[u64]) -> Vec<u64> {
    let x = trim(x.to_vec());
    let bits = 64 * x.len();
    let mut root = vec![0u64];
    let mut rem = vec![0u64];
    for pair in (0..bits / 2).rev() {
        let (hi, lo) = (2 * pair + 1, 2 * pair);
        let bit = |i: usize| (x[i / 64] >> (i % 64)) & 1;
        mul_add(&mut rem, 4, 2 * bit(hi) + bit(lo));
        let mut trial = root.clone();
        mul_add(&mut trial, 4, 1);
        mul_add(&mut root, 2, 0);
        if cmp(&rem, &trial) != Cmp::Less {
            rem = sub(&rem, &trial);
            root[0] |= 1;
        }
    }
    trim(root)
}
