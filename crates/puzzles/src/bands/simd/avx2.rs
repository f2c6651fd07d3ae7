//! The words in five 256-bit registers: register k holds digits 2k and
//! 2k + 1, word 3d + b in lane 3(d - 2k) + b (the fifth holds digit 8
//! alone). So a lane's band is its number mod 3, a digit's bands are three
//! neighbouring lanes, and a band's digits are added lane by lane across
//! the five registers, then the two halves of lanes 0..6 together.

use std::arch::x86_64::*;

use super::Words;
use crate::bands::grid::Grid;

/// The words; only ever made inside [`settle`], which runs where the
/// machine has AVX2.
#[derive(Clone, Copy)]
pub(crate) struct W256([__m256i; 5]);

/// The lanes that hold a word, as a mask of lanes (all ones) for the four
/// first registers and the fifth.
const REAL: [i32; 8] = [-1, -1, -1, -1, -1, -1, 0, 0];
const REAL_LAST: [i32; 8] = [-1, -1, -1, 0, 0, 0, 0, 0];
/// For lane 3d + b: lane 3d + (b + 1) % 3, and 3d + (b + 2) % 3.
const NEXT_BAND: [i32; 8] = [1, 2, 0, 4, 5, 3, 6, 7];
const AFTER_BAND: [i32; 8] = [2, 0, 1, 5, 3, 4, 6, 7];
/// Lanes 0..3 and 3..6 swapped: the other digit of the register.
const OTHER_DIGIT: [i32; 8] = [3, 4, 5, 0, 1, 2, 6, 7];

/// Deduces all it can, as [`Grid::settle`] does; false on a
/// contradiction. Inlined into the search's step of the x86-64-v3 build.
///
/// # Safety
/// The machine must have AVX2.
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) unsafe fn settle(grid: &mut Grid) -> bool {
    super::settle::<W256>(grid)
}

// SAFETY (every `unsafe` block below): the intrinsics need AVX2, which a
// `W256` implies (see the type); the loads and stores read and write
// within their arrays (masked lanes are not touched).

#[inline(always)]
fn vector(a: &[i32; 8]) -> __m256i {
    unsafe { _mm256_loadu_si256(a.as_ptr() as *const __m256i) }
}

#[inline(always)]
fn or(a: __m256i, b: __m256i) -> __m256i {
    unsafe { _mm256_or_si256(a, b) }
}

#[inline(always)]
fn and(a: __m256i, b: __m256i) -> __m256i {
    unsafe { _mm256_and_si256(a, b) }
}

/// Bit-sliced counters of two sets of digits added: at least one, two,
/// three.
#[inline(always)]
fn add(a: [__m256i; 3], b: [__m256i; 3]) -> [__m256i; 3] {
    [
        or(a[0], b[0]),
        or(or(a[1], b[1]), and(a[0], b[0])),
        or(or(a[2], b[2]), or(and(a[1], b[0]), and(a[0], b[1]))),
    ]
}

/// The counters over a band's nine digits, in every lane of the band:
/// the five registers added lane by lane, then each register's two
/// digits (lanes 0..3 and 3..6, swapped), which leaves the totals in both.
#[inline(always)]
fn count(w: W256) -> [W256; 3] {
    let zero = unsafe { _mm256_setzero_si256() };
    let mut c = [zero; 3];
    for x in w.0 {
        c = add(c, [x, zero, zero]);
    }
    let swap = vector(&OTHER_DIGIT);
    let t = add(
        c,
        c.map(|v| unsafe { _mm256_permutevar8x32_epi32(v, swap) }),
    );
    // The same register five times: a band's value is the same in each
    // (their lanes' bands agree), so the compiler works it out once.
    t.map(|v| W256([v; 5]))
}

impl W256 {
    #[inline(always)]
    fn lanes(&self, f: impl Fn(__m256i) -> __m256i) -> W256 {
        W256(self.0.map(f))
    }

    #[inline(always)]
    fn with(self, other: W256, f: impl Fn(__m256i, __m256i) -> __m256i) -> W256 {
        let [a, b] = [self.0, other.0];
        W256([
            f(a[0], b[0]),
            f(a[1], b[1]),
            f(a[2], b[2]),
            f(a[3], b[3]),
            f(a[4], b[4]),
        ])
    }

    /// All the registers ORed.
    #[inline(always)]
    fn union(self) -> __m256i {
        let v = self.0;
        or(or(or(v[0], v[1]), or(v[2], v[3])), v[4])
    }
}

impl Words for W256 {
    #[inline(always)]
    fn load(cand: &[u32; 27]) -> W256 {
        let p = cand.as_ptr() as *const i32;
        let (real, last) = (vector(&REAL), vector(&REAL_LAST));
        unsafe {
            W256([
                _mm256_maskload_epi32(p, real),
                _mm256_maskload_epi32(p.add(6), real),
                _mm256_maskload_epi32(p.add(12), real),
                _mm256_maskload_epi32(p.add(18), real),
                _mm256_maskload_epi32(p.add(24), last),
            ])
        }
    }

    #[inline(always)]
    fn store(self, cand: &mut [u32; 27]) {
        let p = cand.as_mut_ptr() as *mut i32;
        let (real, last) = (vector(&REAL), vector(&REAL_LAST));
        unsafe {
            for (k, v) in self.0.into_iter().take(4).enumerate() {
                _mm256_maskstore_epi32(p.add(6 * k), real, v);
            }
            _mm256_maskstore_epi32(p.add(24), last, self.0[4]);
        }
    }

    #[inline(always)]
    fn splat(x: u32) -> W256 {
        W256([unsafe { _mm256_set1_epi32(x as i32) }; 5])
    }

    #[inline(always)]
    fn by_band([u0, u1, u2]: [u32; 3]) -> W256 {
        let [u0, u1, u2] = [u0, u1, u2].map(|u| u as i32);
        W256([unsafe { _mm256_setr_epi32(u0, u1, u2, u0, u1, u2, 0, 0) }; 5])
    }

    #[inline(always)]
    fn bands(self) -> [u32; 3] {
        let mut out = [0u32; 8];
        unsafe { _mm256_storeu_si256(out.as_mut_ptr() as *mut __m256i, self.0[0]) };
        [out[0], out[1], out[2]]
    }

    #[inline(always)]
    fn and(self, other: W256) -> W256 {
        self.with(other, and)
    }

    #[inline(always)]
    fn or(self, other: W256) -> W256 {
        self.with(other, or)
    }

    #[inline(always)]
    fn but(self, other: W256) -> W256 {
        self.with(other, |a, b| unsafe { _mm256_andnot_si256(b, a) })
    }

    #[inline(always)]
    fn minus(self, other: W256) -> W256 {
        self.with(other, |a, b| unsafe { _mm256_sub_epi32(a, b) })
    }

    #[inline(always)]
    fn differs(self, other: W256) -> bool {
        let x = self.with(other, |a, b| unsafe { _mm256_xor_si256(a, b) });
        x.any()
    }

    #[inline(always)]
    fn any(self) -> bool {
        let v = self.union();
        unsafe { _mm256_testz_si256(v, v) == 0 }
    }

    #[inline(always)]
    fn any_empty(self) -> bool {
        let zero = unsafe { _mm256_setzero_si256() };
        let empty = self.lanes(|v| unsafe { _mm256_cmpeq_epi32(v, zero) });
        let (real, last) = (vector(&REAL), vector(&REAL_LAST));
        let e = empty.0;
        let words = or(
            and(or(or(e[0], e[1]), or(e[2], e[3])), real),
            and(e[4], last),
        );
        unsafe { _mm256_testz_si256(words, words) == 0 }
    }

    #[inline(always)]
    fn any_band_not(self, x: u32) -> bool {
        let same = unsafe { _mm256_cmpeq_epi32(self.0[0], _mm256_set1_epi32(x as i32)) };
        let lanes = unsafe { _mm256_movemask_ps(_mm256_castsi256_ps(same)) };
        lanes & 7 != 7
    }

    #[inline(always)]
    fn shr<const K: u32>(self) -> W256 {
        self.lanes(|v| unsafe { _mm256_srl_epi32(v, _mm_cvtsi32_si128(K as i32)) })
    }

    #[inline(always)]
    fn shl<const K: u32>(self) -> W256 {
        self.lanes(|v| unsafe { _mm256_sll_epi32(v, _mm_cvtsi32_si128(K as i32)) })
    }

    #[inline(always)]
    fn others(self) -> (W256, W256) {
        let (next, after) = (vector(&NEXT_BAND), vector(&AFTER_BAND));
        (
            self.lanes(|v| unsafe { _mm256_permutevar8x32_epi32(v, next) }),
            self.lanes(|v| unsafe { _mm256_permutevar8x32_epi32(v, after) }),
        )
    }

    #[inline(always)]
    fn count2(self) -> (W256, W256) {
        let [one, two, _] = count(self);
        (one, two)
    }

    #[inline(always)]
    fn count3(self) -> (W256, W256, W256) {
        let [one, two, three] = count(self);
        (one, two, three)
    }
}
