//! The search over the grid's states, and its builds, one chosen at run time
//! for the machine at hand.
//!
//! The wheel is built for the baseline x86-64, where a popcount, a
//! trailing zero count or a shift by a register are sequences of
//! instructions and nothing runs on vector registers wider than 128 bits.
//! So the search is compiled for three levels from one source:
//!
//! - [`BASE`]: the scalar rules (`Grid::settle`), for any machine;
//! - [`V3`] (x86-64-v3: AVX2, BMI, POPCNT; Haswell, Zen and later): the
//!   rules on the 27 words at once in five 256-bit registers
//!   (`simd::avx2`);
//! - [`V4`] (x86-64-v4: AVX-512 F, VL, BW, DQ, CD; Skylake-X, Ice Lake,
//!   Zen 4 and later): the same rules in two 512-bit registers
//!   (`simd::avx512`).
//!
//! The vector builds hand the search over to the scalar rules (in the
//! x86-64-v3 build, [`SCALAR_V3`]) where few cells are left ([`SPARSE`]):
//! there a guess changes few words, which they work through one by one.
//! (There the x86-64-v3 build of the scalar rules took 0.90-0.96 of the
//! baseline's time.) All the builds reach the same settled grids, so they
//! search the same tree (the tests run every build the machine has against
//! the baseline). The forum-hardest puzzles, the solver alone on Zen 4,
//! against the scalar rules in the x86-64-v3 build: 0.78 of the time in
//! five 256-bit registers, 0.70 in two 512-bit ones; the 17-clue puzzles
//! 0.61 and 0.56.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use super::grid::{Grid, Step};

/// The scalar build, for any machine.
pub(super) const BASE: u8 = 0;
/// The build for x86-64-v3.
pub(super) const V3: u8 = 1;
/// The build for x86-64-v4.
pub(super) const V4: u8 = 2;
/// The scalar rules in the x86-64-v3 build: where [`V3`] and [`V4`] hand
/// over the end of the search.
pub(super) const SCALAR_V3: u8 = 3;

/// The best build this machine runs: detected on the first call, then
/// read (a puzzle's search asks twice, once to choose and once to check,
/// where the feature tests were 13 each).
pub(super) fn best() -> u8 {
    static BEST: OnceLock<u8> = OnceLock::new();
    *BEST.get_or_init(|| {
        if detect_v4() {
            V4
        } else if detect_v3() {
            V3
        } else {
            BASE
        }
    })
}

/// Whether this machine runs the x86-64-v3 build (the v4 one's features
/// include its).
pub(super) fn has_v3() -> bool {
    best() != BASE
}

/// Whether this machine runs the x86-64-v4 build.
pub(super) fn has_v4() -> bool {
    best() == V4
}

/// Whether this machine has every feature of the x86-64-v3 build (the
/// list `v3_build!` compiles with).
fn detect_v3() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        has!("avx")
            && has!("avx2")
            && has!("bmi1")
            && has!("bmi2")
            && has!("fma")
            && has!("lzcnt")
            && has!("popcnt")
            && has!("movbe")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether this machine has every feature of the x86-64-v4 build (the
/// list `v4_build!` compiles with).
fn detect_v4() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        detect_v3()
            && has!("avx512f")
            && has!("avx512vl")
            && has!("avx512bw")
            && has!("avx512dq")
            && has!("avx512cd")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The functions of the x86-64-v3 build: out of line, with the features
/// `detect_v3` checks.
macro_rules! v3_build {
    ($($f:item)*) => {
        $(
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "avx,avx2,bmi1,bmi2,fma,lzcnt,popcnt,movbe")]
            #[inline(never)]
            $f
        )*
    };
}

/// The functions of the x86-64-v4 build: out of line, with the features
/// `detect_v4` checks.
macro_rules! v4_build {
    ($($f:item)*) => {
        $(
            #[cfg(target_arch = "x86_64")]
            #[target_feature(
                enable = "avx,avx2,bmi1,bmi2,fma,lzcnt,popcnt,movbe,avx512f,avx512vl,avx512bw,avx512dq,avx512cd"
            )]
            #[inline(never)]
            $f
        )*
    };
}

/// Guesses between two looks at the stop flag (well under a millisecond).
const GUESSES_PER_LOOK: u64 = 1 << 10;

/// Where a search stands: what it has found, and when to stop.
pub(super) struct Found<'a> {
    /// Stop at this many solutions.
    pub(super) limit: u64,
    pub(super) count: u64,
    /// The first solution.
    pub(super) first: Option<[u8; 81]>,
    pub(super) guesses: u64,
    pub(super) stop: &'a AtomicBool,
    pub(super) stopped: bool,
}

impl Found<'_> {
    fn done(&self) -> bool {
        self.count >= self.limit || self.stopped
    }
}

/// Searches on from `grid`, recording solutions in `found`, in the
/// build `BUILD`, the recursion too ([`search_in`]): the copies and
/// the placing are a tenth of the time.
#[inline(always)]
fn search<const DEEP: bool, const BUILD: u8>(mut grid: Grid, found: &mut Found) {
    loop {
        if hand_over::<BUILD>(&grid) {
            search_in::<true, { SCALAR_V3 }>(grid, found);
            return;
        }
        let (band, p) = match step_in::<DEEP, BUILD>(&mut grid) {
            Step::Dead => return,
            Step::Solved => {
                // The rules above leave only grids that keep every rule;
                // one that did not would be a bug here, said loudly (the
                // batch turns a panic into an internal error), never an
                // answer.
                assert!(
                    grid.keeps_rules(),
                    "the band solver settled on a grid that breaks the rules"
                );
                if found.count == 0 {
                    found.first = Some(grid.solution());
                }
                found.count += 1;
                return;
            }
            Step::Guess(band, p) => (band, p),
        };
        found.guesses += 1;
        if found.guesses.is_multiple_of(GUESSES_PER_LOOK) && found.stop.load(Ordering::Relaxed) {
            found.stopped = true;
            return;
        }
        let bit = 1u32 << p;
        let mut digits = (0..9).filter(|&d| grid.cand[3 * d + band] & bit != 0);
        let Some(mut digit) = digits.next() else {
            return;
        };
        // Each digit but the last on a copy; the last on this state, in
        // this loop (no recursion for it).
        for next in digits {
            let mut child = grid;
            child.place(digit, band, p);
            search_in::<true, BUILD>(child, found);
            if found.done() {
                return;
            }
            digit = next;
        }
        grid.place(digit, band, p);
    }
}

/// The most cells left where a vector build hands over to the scalar
/// rules. A count of all the solutions of a 15-given puzzle (4,011,188)
/// settles mostly near its leaves: by the vector rules alone 1.54 s, by
/// the scalar ones within 10, 15, 20, 25 cells left 1.29, 1.29, 1.28,
/// 1.28 s; the forum-hardest puzzles (one solution each) 1.62-1.65 s up to
/// 30, 1.78 s at 40, 2.21 s at 50.
const SPARSE: u32 = 20;

/// A search from the givens' grid in `build` (where the machine lacks it,
/// the baseline's).
pub(super) fn search_from(grid: Grid, found: &mut Found, build: u8) {
    match build {
        V4 if has_v4() => search_in::<false, V4>(grid, found),
        V3 if has_v3() => search_in::<false, V3>(grid, found),
        _ => search_in::<false, BASE>(grid, found),
    }
}

/// A search from `grid` in `BUILD` (a guess's subtree, so that the
/// recursion stays within one build).
#[inline(always)]
pub(super) fn search_in<const DEEP: bool, const BUILD: u8>(grid: Grid, found: &mut Found) {
    // SAFETY: a search runs in `V3` or `V4` only where `search_from`
    // found every feature of the build.
    #[cfg(target_arch = "x86_64")]
    match BUILD {
        V4 => return unsafe { search_v4(grid, found) },
        V3 => return unsafe { search_v3(grid, found) },
        SCALAR_V3 => return unsafe { search_scalar_v3(grid, found) },
        _ => {}
    }
    search_base::<DEEP>(grid, found);
}

/// [`Grid::step`] in `BUILD`: out of line, so that the recursion's frames
/// hold only the search's own state (inlined whole into the search, a
/// debug build overflowed a thread's stack).
#[inline(always)]
pub(super) fn step_in<const DEEP: bool, const BUILD: u8>(grid: &mut Grid) -> Step {
    // SAFETY: as in `search_in`.
    #[cfg(target_arch = "x86_64")]
    match BUILD {
        V4 => return unsafe { step_v4(grid) },
        V3 => return unsafe { step_v3(grid) },
        SCALAR_V3 => return unsafe { step_scalar_v3(grid) },
        _ => {}
    }
    step_base::<DEEP>(grid)
}

#[inline(never)]
fn search_base<const DEEP: bool>(grid: Grid, found: &mut Found) {
    search::<DEEP, BASE>(grid, found);
}

#[inline(never)]
fn step_base<const DEEP: bool>(grid: &mut Grid) -> Step {
    grid.step::<DEEP>(None)
}

// The vector rules always apply the whole stacks rule (`DEEP` is the
// scalar rules' choice of when), so these builds search with it on.
v3_build! {
    fn search_scalar_v3(grid: Grid, found: &mut Found) {
        search::<true, SCALAR_V3>(grid, found);
    }
    fn step_scalar_v3(grid: &mut Grid) -> Step {
        grid.step::<true>(None)
    }
    fn search_v3(grid: Grid, found: &mut Found) {
        search::<true, V3>(grid, found);
    }
    fn step_v3(grid: &mut Grid) -> Step {
        // SAFETY: this build runs where the machine has AVX2.
        let settled = unsafe { super::simd::avx2::settle(grid) };
        grid.step::<true>(Some(settled))
    }
}

v4_build! {
    fn search_v4(grid: Grid, found: &mut Found) {
        search::<true, V4>(grid, found);
    }
    fn step_v4(grid: &mut Grid) -> Step {
        // SAFETY: this build runs where the machine has AVX-512.
        let settled = unsafe { super::simd::avx512::settle(grid) };
        grid.step::<true>(Some(settled))
    }
}

/// Whether a search in `BUILD` hands the rest of its subtree over to
/// [`SCALAR_V3`]: in a vector build, where few cells are left (at most
/// [`SPARSE`]; fewer are left below, so the whole subtree). There a guess
/// changes few words, which the scalar rules work through one by one in
/// less than a vector round over all 27.
#[inline(always)]
pub(super) fn hand_over<const BUILD: u8>(grid: &Grid) -> bool {
    (BUILD == V3 || BUILD == V4)
        && grid.unsolved.iter().map(|u| u.count_ones()).sum::<u32>() <= SPARSE
}
