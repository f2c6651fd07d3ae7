//! The words in two 512-bit registers: word 3d + b (digit d, band b) in
//! lane 3d + b of the first for digits 0..5, in lane 3(d - 5) + b of the
//! second for digits 5..9. So a lane's band is its number mod 3 in both,
//! a digit's bands are three neighbouring lanes, and a band's digits are
//! added lane by lane across the two registers, then five digits within
//! one by moving lanes down 3, 6 and 12 places.

use std::arch::x86_64::*;

use super::Words;
use crate::bands::grid::Grid;

/// The words; only ever made inside [`settle`], which runs where the
/// machine has AVX-512 (F, VL, BW, DQ, CD: `has_v4`).
#[derive(Clone, Copy)]
pub(crate) struct W512([__m512i; 2]);

/// The lanes that hold a word.
const REAL: [u16; 2] = [0x7fff, 0x0fff];
/// For lane 3d + b: lane 3d + (b + 1) % 3, and 3d + (b + 2) % 3.
const NEXT_BAND: [u32; 16] = [1, 2, 0, 4, 5, 3, 7, 8, 6, 10, 11, 9, 13, 14, 12, 15];
const AFTER_BAND: [u32; 16] = [2, 0, 1, 5, 3, 4, 8, 6, 7, 11, 9, 10, 14, 12, 13, 15];
/// Each lane's band (lanes 0..3 hold a fold's totals).
const BAND_OF: [u32; 16] = [0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0];

/// Deduces all it can, as [`Grid::settle`] does; false on a
/// contradiction. Inlined into the search's step of the x86-64-v4 build.
///
/// # Safety
/// The machine must have the features `has_v4` checks.
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512dq,avx512cd")]
#[inline]
pub(crate) unsafe fn settle(grid: &mut Grid) -> bool {
    super::settle::<W512>(grid)
}

// SAFETY (every `unsafe` block below): the intrinsics need AVX-512F,
// which a `W512` implies (see the type); the loads and stores read and
// write within their arrays (masked lanes are not touched).

#[inline(always)]
fn vector(a: &[u32; 16]) -> __m512i {
    unsafe { _mm512_loadu_si512(a.as_ptr() as *const __m512i) }
}

/// Lane i gets lane i + K, the top K lanes 0.
#[inline(always)]
fn down<const K: i32>(v: __m512i) -> __m512i {
    unsafe { _mm512_alignr_epi32::<K>(_mm512_setzero_si512(), v) }
}

#[inline(always)]
fn or(a: __m512i, b: __m512i) -> __m512i {
    unsafe { _mm512_or_si512(a, b) }
}

#[inline(always)]
fn and(a: __m512i, b: __m512i) -> __m512i {
    unsafe { _mm512_and_si512(a, b) }
}

/// Bit-sliced counters of two sets of digits added: at least one, two,
/// three.
#[inline(always)]
fn add(a: [__m512i; 3], b: [__m512i; 3]) -> [__m512i; 3] {
    [
        or(a[0], b[0]),
        or(or(a[1], b[1]), and(a[0], b[0])),
        or(or(a[2], b[2]), or(and(a[1], b[0]), and(a[0], b[1]))),
    ]
}

/// The counters over a band's nine digits, in every lane of the band:
/// the two registers added lane by lane (the second's lanes 12.. are
/// empty), then the first's five digits: d and d + 1, then d..d + 4, then
/// the fifth; lanes 0..3 end with the totals, which go to every lane of
/// their band.
#[inline(always)]
fn count(w: W512) -> [W512; 3] {
    let zero = unsafe { _mm512_setzero_si512() };
    let c = add([w.0[0], zero, zero], [w.0[1], zero, zero]);
    let a = add(c, c.map(down::<3>));
    let b = add(a, a.map(down::<6>));
    let t = add(b, c.map(down::<12>));
    let band = vector(&BAND_OF);
    // The same register twice: every value of a band is the same in both
    // (their lanes' bands agree), so the compiler works it out once. The
    // lanes past the words get a band's value too, which the words' own
    // zeros there make harmless.
    t.map(|v| {
        let v = unsafe { _mm512_permutexvar_epi32(band, v) };
        W512([v, v])
    })
}

impl W512 {
    #[inline(always)]
    fn lanes(&self, f: impl Fn(__m512i) -> __m512i) -> W512 {
        W512([f(self.0[0]), f(self.0[1])])
    }

    #[inline(always)]
    fn with(self, other: W512, f: impl Fn(__m512i, __m512i) -> __m512i) -> W512 {
        W512([f(self.0[0], other.0[0]), f(self.0[1], other.0[1])])
    }
}

impl Words for W512 {
    #[inline(always)]
    fn load(cand: &[u32; 27]) -> W512 {
        let p = cand.as_ptr() as *const i32;
        unsafe {
            W512([
                _mm512_maskz_loadu_epi32(REAL[0], p),
                _mm512_maskz_loadu_epi32(REAL[1], p.add(15)),
            ])
        }
    }

    #[inline(always)]
    fn store(self, cand: &mut [u32; 27]) {
        let p = cand.as_mut_ptr() as *mut i32;
        unsafe {
            _mm512_mask_storeu_epi32(p, REAL[0], self.0[0]);
            _mm512_mask_storeu_epi32(p.add(15), REAL[1], self.0[1]);
        }
    }

    #[inline(always)]
    fn splat(x: u32) -> W512 {
        let v = unsafe { _mm512_set1_epi32(x as i32) };
        W512([v, v])
    }

    #[inline(always)]
    fn by_band([u0, u1, u2]: [u32; 3]) -> W512 {
        let [u0, u1, u2] = [u0, u1, u2].map(|u| u as i32);
        let v = unsafe {
            _mm512_setr_epi32(
                u0, u1, u2, u0, u1, u2, u0, u1, u2, u0, u1, u2, u0, u1, u2, u0,
            )
        };
        W512([v, v])
    }

    #[inline(always)]
    fn bands(self) -> [u32; 3] {
        let mut out = [0u32; 16];
        unsafe { _mm512_storeu_si512(out.as_mut_ptr() as *mut __m512i, self.0[0]) };
        [out[0], out[1], out[2]]
    }

    #[inline(always)]
    fn and(self, other: W512) -> W512 {
        self.with(other, |a, b| unsafe { _mm512_and_si512(a, b) })
    }

    #[inline(always)]
    fn or(self, other: W512) -> W512 {
        self.with(other, |a, b| unsafe { _mm512_or_si512(a, b) })
    }

    #[inline(always)]
    fn but(self, other: W512) -> W512 {
        self.with(other, |a, b| unsafe { _mm512_andnot_si512(b, a) })
    }

    #[inline(always)]
    fn minus(self, other: W512) -> W512 {
        self.with(other, |a, b| unsafe { _mm512_sub_epi32(a, b) })
    }

    #[inline(always)]
    fn differs(self, other: W512) -> bool {
        let x = self.with(other, |a, b| unsafe { _mm512_xor_si512(a, b) });
        x.any()
    }

    #[inline(always)]
    fn any(self) -> bool {
        let v = unsafe { _mm512_or_si512(self.0[0], self.0[1]) };
        unsafe { _mm512_test_epi32_mask(v, v) != 0 }
    }

    #[inline(always)]
    fn any_empty(self) -> bool {
        unsafe {
            let zero = _mm512_setzero_si512();
            (_mm512_mask_cmpeq_epi32_mask(REAL[0], self.0[0], zero)
                | _mm512_mask_cmpeq_epi32_mask(REAL[1], self.0[1], zero))
                != 0
        }
    }

    #[inline(always)]
    fn any_band_not(self, x: u32) -> bool {
        unsafe {
            _mm512_mask_cmpneq_epi32_mask(0x0007, self.0[0], _mm512_set1_epi32(x as i32)) != 0
        }
    }

    #[inline(always)]
    fn shr<const K: u32>(self) -> W512 {
        self.lanes(|v| unsafe { _mm512_srli_epi32::<K>(v) })
    }

    #[inline(always)]
    fn shl<const K: u32>(self) -> W512 {
        self.lanes(|v| unsafe { _mm512_slli_epi32::<K>(v) })
    }

    #[inline(always)]
    fn others(self) -> (W512, W512) {
        let (next, after) = (vector(&NEXT_BAND), vector(&AFTER_BAND));
        (
            self.lanes(|v| unsafe { _mm512_permutexvar_epi32(next, v) }),
            self.lanes(|v| unsafe { _mm512_permutexvar_epi32(after, v) }),
        )
    }

    #[inline(always)]
    fn count2(self) -> (W512, W512) {
        let [one, two, _] = count(self);
        (one, two)
    }

    #[inline(always)]
    fn count3(self) -> (W512, W512, W512) {
        let [one, two, three] = count(self);
        (one, two, three)
    }
}
