//! What the counting methods share: exact counts of any size ([`Number`])
//! and the hash of their keys (`hash`), for the memo and the frontier.
//!
//! ```
//! use xc::Number;
//! let mut n = Number::Small(u128::MAX);
//! n.add(&Number::Small(1));
//! assert_eq!(n.to_u128(), None);
//! assert_eq!(n.to_le_bytes()[16], 1);
//! ```

/// An exact count: a 128-bit word, or little-endian 64-bit limbs past it.
/// Two numbers are equal when their values are, however they are written.
#[derive(Clone, Debug)]
pub enum Number {
    Small(u128),
    Big(Vec<u64>),
}

impl PartialEq for Number {
    fn eq(&self, other: &Number) -> bool {
        let (mut a, mut b) = (self.limbs(), other.limbs());
        for v in [&mut a, &mut b] {
            while v.last() == Some(&0) {
                v.pop();
            }
        }
        a == b
    }
}

impl Eq for Number {}

impl Number {
    pub const ZERO: Number = Number::Small(0);

    fn limbs(&self) -> Vec<u64> {
        match self {
            Number::Small(x) => vec![*x as u64, (*x >> 64) as u64],
            Number::Big(v) => v.clone(),
        }
    }

    /// The number of the little-endian 64-bit `limbs`, written as one
    /// 128-bit word when it fits.
    pub fn from_limbs(mut limbs: Vec<u64>) -> Number {
        while limbs.len() > 2 && limbs.last() == Some(&0) {
            limbs.pop();
        }
        match limbs.len() {
            0..=2 => Number::Small(
                limbs.first().copied().unwrap_or(0) as u128
                    | (limbs.get(1).copied().unwrap_or(0) as u128) << 64,
            ),
            _ => Number::Big(limbs),
        }
    }

    /// `self += other`, exactly.
    pub fn add(&mut self, other: &Number) {
        if let (Number::Small(a), Number::Small(b)) = (&*self, other)
            && let Some(s) = a.checked_add(*b)
        {
            *self = Number::Small(s);
            return;
        }
        let (mut a, b) = (self.limbs(), other.limbs());
        if a.len() < b.len() {
            a.resize(b.len(), 0);
        }
        let mut carry = false;
        for (k, x) in a.iter_mut().enumerate() {
            let y = b.get(k).copied().unwrap_or(0);
            let (s, c1) = x.overflowing_add(y);
            let (s, c2) = s.overflowing_add(carry as u64);
            *x = s;
            carry = c1 || c2;
        }
        if carry {
            a.push(1);
        }
        *self = Number::Big(a);
    }

    /// `self *= other`, exactly.
    pub fn mul(&mut self, other: &Number) {
        if let (Number::Small(a), Number::Small(b)) = (&*self, other)
            && let Some(p) = a.checked_mul(*b)
        {
            *self = Number::Small(p);
            return;
        }
        let (a, b) = (self.limbs(), other.limbs());
        let mut r = vec![0u64; a.len() + b.len()];
        for (i, &x) in a.iter().enumerate() {
            let mut carry = 0u128;
            for (j, &y) in b.iter().enumerate() {
                let t = r[i + j] as u128 + x as u128 * y as u128 + carry;
                r[i + j] = t as u64;
                carry = t >> 64;
            }
            r[i + b.len()] = carry as u64;
        }
        // A product under 2^128 is written as one (so that equal numbers compare equal).
        *self = Number::from_limbs(r);
    }

    /// The count as little-endian bytes (for Python's `int.from_bytes`).
    pub fn to_le_bytes(&self) -> Vec<u8> {
        match self {
            Number::Small(x) => x.to_le_bytes().to_vec(),
            Number::Big(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
        }
    }

    /// The count if it fits in 128 bits.
    pub fn to_u128(&self) -> Option<u128> {
        match self {
            Number::Small(x) => Some(*x),
            Number::Big(v) => {
                if v.iter().skip(2).any(|&x| x != 0) {
                    None
                } else {
                    Some(v[0] as u128 | (v.get(1).copied().unwrap_or(0) as u128) << 64)
                }
            }
        }
    }
}

/// A hash of a key that is never 0 (0 marks an empty slot).
///
/// The low bits pick the slot, so every bit of every word must reach them;
/// a multiply alone only carries bits upwards, hence MurmurHash3's 64-bit
/// finalizer on each word.
#[inline]
pub(crate) fn hash(key: &[u64]) -> u64 {
    fn fmix(mut h: u64) -> u64 {
        h ^= h >> 33;
        h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        h ^= h >> 33;
        h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
        h ^ (h >> 33)
    }
    let mut h: u64 = 0x9E37_79B9_7F4A_7C15;
    for &x in key {
        h = fmix(h ^ x);
    }
    h | 1
}
