//! The dense loops of an iteration, four floats a step where the
//! processor has AVX (looked at when the loop runs: the wheel is built for
//! any x86-64), the same operations in the same order either way.

/// Whether this processor has AVX (four floats at a time), looked at once
/// per process by the standard library.
#[inline]
pub(super) fn wide_vectors() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// `row -= c pivot`, and the new squared norm of `row`: the dense update
/// of a row of the inverse, most of an iteration's time on an airline crew
/// basis. With `wide` (the processor has AVX: [`wide_vectors`]) the same
/// loop is compiled for four floats a step instead of two; the same
/// operations in the same order, so the same bits either way.
#[inline]
pub(super) fn row_less(row: &mut [f64], c: f64, pivot: &[f64], wide: bool) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if wide {
        // SAFETY: `wide` is true only where the processor has AVX.
        return unsafe { row_less_avx(row, c, pivot) };
    }
    let _ = wide;
    row_less_plain(row, c, pivot)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
pub(super) fn row_less_avx(row: &mut [f64], c: f64, pivot: &[f64]) -> f64 {
    row_less_plain(row, c, pivot)
}

/// The loop of [`row_less`]: four sums, so that it is not held up by the
/// latency of one (and each entry's square taken from its new value).
#[inline(always)]
pub(super) fn row_less_plain(row: &mut [f64], c: f64, pivot: &[f64]) -> f64 {
    let n = row.len().min(pivot.len());
    let (body, tail) = row[..n].split_at_mut(n / 4 * 4);
    let mut sums = [0.0f64; 4];
    for (v, p) in body.chunks_exact_mut(4).zip(pivot.chunks_exact(4)) {
        let new = [
            v[0] - c * p[0],
            v[1] - c * p[1],
            v[2] - c * p[2],
            v[3] - c * p[3],
        ];
        v.copy_from_slice(&new);
        for l in 0..4 {
            sums[l] += new[l] * new[l];
        }
    }
    for (v, p) in tail.iter_mut().zip(&pivot[n / 4 * 4..]) {
        *v -= c * p;
        sums[0] += *v * *v;
    }
    sums[0] + sums[1] + sums[2] + sums[3]
}

/// `row += c x`, with AVX where `wide` (see [`row_less`]).
#[inline]
pub(super) fn add_times(row: &mut [f64], c: f64, x: &[f64], wide: bool) {
    #[cfg(target_arch = "x86_64")]
    if wide {
        // SAFETY: `wide` is true only where the processor has AVX.
        return unsafe { add_times_avx(row, c, x) };
    }
    let _ = wide;
    add_times_plain(row, c, x)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
pub(super) fn add_times_avx(row: &mut [f64], c: f64, x: &[f64]) {
    add_times_plain(row, c, x)
}

#[inline(always)]
pub(super) fn add_times_plain(row: &mut [f64], c: f64, x: &[f64]) {
    for (v, &a) in row.iter_mut().zip(x) {
        *v += c * a;
    }
}

/// `a . b`, in four sums: a loop over every column at every iteration
/// (the cutoff's test), which one sum would hold to the latency of an
/// addition per entry (seeded proofs of air05: 5.3 s instead of 5.7 s).
pub(super) fn dot_product(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len().min(b.len());
    let mut sums = [0.0f64; 4];
    for (u, v) in a[..n].chunks_exact(4).zip(b[..n].chunks_exact(4)) {
        for l in 0..4 {
            sums[l] += u[l] * v[l];
        }
    }
    let tail: f64 = (n / 4 * 4..n).map(|i| a[i] * b[i]).sum();
    (sums[0] + sums[1]) + (sums[2] + sums[3]) + tail
}

/// The nonzero entries of `v`, with their indices.
pub(super) fn nonzero(v: &[f64]) -> Vec<(u32, f64)> {
    (0..v.len() as u32)
        .filter(|&i| v[i as usize] != 0.0)
        .map(|i| (i, v[i as usize]))
        .collect()
}
