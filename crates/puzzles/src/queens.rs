//! Queens: a bitboard counter for n-queens, and the infinite queens sequence.
//!
//! ## Counting n-queens (OEIS A000170)
//!
//! Exact cover finds every solution of n-queens (see the Python puzzle), but
//! counting is faster with the classic bitboard backtrack: the columns and
//! the two diagonal directions still free are three machine words, and one
//! row's free squares are `!(cols | left | right)`. Two tricks on top:
//!
//! * *half-board symmetry*: the mirror image of a solution is another one,
//!   so only first-row queens in the left half are tried, and counted twice;
//!   for odd n, a queen in the middle of the first row is mirrored by the
//!   second row, which is then restricted to its left half;
//! * the last row needs no search: it has one free square or none.
//!
//! The tree is cut into tasks by the queens of the first two rows, which
//! threads take from a shared counter until none are left, so every core
//! stays busy to the end.
//!
//! ## The infinite queens sequence (TAOCP 7.2.2.1, exercises 38 and 42)
//!
//! Place a queen in each column n = 1, 2, ... of a board infinite upwards,
//! each time in the lowest row not attacked by the queens already placed: the
//! rows q_n are OEIS A065188 (1, 3, 5, 2, 4, 9, 11, ...). Knuth's Algorithm G
//! computes them with three bit arrays, `a` (rows), `b` (diagonals k+n) and
//! `c` (diagonals k-n), and three pointers that bound every scan: below
//! row `s` all rows are taken; the diagonals k-n from -r to t are all taken.
//! So a term either lies in the short window `s ..= n - r`, or is `n + t + 1`,
//! and costs O(1) on average.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The number of ways to place `n` non-attacking queens on an n x n board
/// (1 <= n <= 32), counted on `threads` threads.
///
/// ```
/// assert_eq!(puzzles::queens::count_queens(8, 1), 92);
/// assert_eq!(puzzles::queens::count_queens(10, 2), 724);
/// ```
pub fn count_queens(n: u32, threads: usize) -> u64 {
    let (count, complete) = count_queens_until(n, threads, &AtomicBool::new(false));
    assert!(complete, "nothing stops this count");
    count
}

/// Like [`count_queens`], but stops within about a millisecond after `stop`
/// becomes true: returns (solutions counted, was the count complete?). A
/// stopped count is a lower bound: the solutions seen so far.
pub fn count_queens_until(n: u32, threads: usize, stop: &AtomicBool) -> (u64, bool) {
    assert!(
        (1..=32).contains(&n),
        "n-queens is counted for 1 <= n <= 32"
    );
    let tasks = tasks(n);
    let next = AtomicUsize::new(0);
    let work = || {
        let mut total = 0u64;
        loop {
            if stop.load(Ordering::Relaxed) {
                return (total, false);
            }
            let k = next.fetch_add(1, Ordering::Relaxed);
            let Some(task) = tasks.get(k) else { break };
            let (count, complete) =
                count_from(n, task.rows, task.cols, task.left, task.right, stop);
            total += task.weight * count;
            if !complete {
                return (total, false);
            }
        }
        (total, true)
    };
    let threads = threads.clamp(1, tasks.len().max(1));
    if threads == 1 {
        return work();
    }
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads).map(|_| s.spawn(work)).collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a queens thread panicked"))
            .fold((0, true), |(a, x), (b, y)| (a + b, x && y))
    })
}

/// A subtree: the first `rows` rows filled, with what they attack, and how
/// many solutions each of its solutions stands for (2 for a mirrored half).
struct Task {
    rows: u32,
    cols: u32,
    left: u32,
    right: u32,
    weight: u64,
}

fn tasks(n: u32) -> Vec<Task> {
    let all = full(n);
    if n == 1 {
        return vec![Task {
            rows: 1,
            cols: 1,
            left: 0,
            right: 0,
            weight: 1,
        }];
    }
    let mut out = Vec::new();
    // (first-row column, columns allowed in the second row); every
    // solution found below stands for itself and its mirror image.
    let mut firsts: Vec<(u32, u32)> = (0..n / 2).map(|c| (c, all)).collect();
    if n % 2 == 1 {
        // The middle queen's mirror images are told apart in the second row.
        firsts.push((n / 2, (1 << (n / 2)) - 1));
    }
    for (c, second_allowed) in firsts {
        let bit = 1u32 << c;
        let (cols, left, right) = (bit, (bit << 1) & all, bit >> 1);
        let mut free = !(cols | left | right) & all & second_allowed;
        while free != 0 {
            let b = free & free.wrapping_neg();
            free ^= b;
            out.push(Task {
                rows: 2,
                cols: cols | b,
                left: ((left | b) << 1) & all,
                right: (right | b) >> 1,
                weight: 2,
            });
        }
    }
    // Large boards: a third row, so that tasks stay short (for balance and
    // for a prompt stop).
    if n >= 14 {
        out = out
            .into_iter()
            .flat_map(|t| {
                let mut free = !(t.cols | t.left | t.right) & all;
                let mut v = Vec::new();
                while free != 0 {
                    let b = free & free.wrapping_neg();
                    free ^= b;
                    v.push(Task {
                        rows: 3,
                        cols: t.cols | b,
                        left: ((t.left | b) << 1) & all,
                        right: (t.right | b) >> 1,
                        weight: t.weight,
                    });
                }
                v
            })
            .collect();
    }
    out
}

fn full(n: u32) -> u32 {
    if n == 32 { u32::MAX } else { (1u32 << n) - 1 }
}

/// Solutions below a partial placement of `row` rows, by iterative backtracking.
///
/// The current row's state stays in registers; a row is pushed on the stack
/// only when a queen leaves the next row some free square, and the last row
/// is only checked, never searched. (The left diagonals are not masked to
/// the board: bits past column n - 1 are harmless, since `free` is.)
///
/// Every `STOP_EVERY` backtracks it looks at `stop` (a few hundred
/// microseconds apart), so that big boards stop promptly; it then returns
/// the count so far and false.
fn count_from(
    n: u32,
    row: u32,
    cols: u32,
    left: u32,
    right: u32,
    stop: &AtomicBool,
) -> (u64, bool) {
    const STOP_EVERY: u32 = 1 << 16;
    let all = full(n);
    if row == n {
        return (1, true);
    }
    if row + 1 == n {
        return ((!(cols | left | right) & all != 0) as u64, true);
    }
    let mut tick = STOP_EVERY;
    let last = (n - row - 1) as usize; // the depth of row n - 1
    let mut stack = [(0u32, 0u32, 0u32, 0u32); 32];
    let mut d = 0usize;
    // Columns past the board count as taken, so that `free` needs no mask.
    let (mut c, mut l, mut r) = (cols | !all, left, right);
    let mut free = !(c | l | r);
    let mut count = 0u64;
    loop {
        if free == 0 {
            if d == 0 {
                return (count, true);
            }
            tick -= 1;
            if tick == 0 {
                tick = STOP_EVERY;
                if stop.load(Ordering::Relaxed) {
                    return (count, false);
                }
            }
            d -= 1;
            (c, l, r, free) = stack[d];
            continue;
        }
        let b = free & free.wrapping_neg();
        free ^= b;
        let (nc, nl, nr) = (c | b, (l | b) << 1, (r | b) >> 1);
        let nfree = !(nc | nl | nr);
        if d + 1 == last {
            count += (nfree != 0) as u64;
        } else if nfree != 0 {
            stack[d] = (c, l, r, free);
            d += 1;
            (c, l, r, free) = (nc, nl, nr, nfree);
        }
    }
}

/// A bit array indexed from 0, growing as needed.
#[derive(Clone, Debug, Default)]
struct Bits(Vec<u64>);

impl Bits {
    #[inline(always)]
    fn get(&self, k: usize) -> bool {
        self.0.get(k >> 6).is_some_and(|w| w >> (k & 63) & 1 == 1)
    }
    #[inline(always)]
    fn set(&mut self, k: usize) {
        let w = k >> 6;
        if w >= self.0.len() {
            self.0.resize((w + 1).next_power_of_two(), 0);
        }
        self.0[w] |= 1 << (k & 63);
    }
}

/// Knuth's Algorithm G: the terms q_1, q_2, ... of the infinite queens sequence.
///
/// ```
/// let q: Vec<u64> = puzzles::queens::InfiniteQueens::new().take(12).collect();
/// assert_eq!(q, [1, 3, 5, 2, 4, 9, 11, 13, 15, 6, 8, 19]);
/// ```
#[derive(Clone, Debug, Default)]
pub struct InfiniteQueens {
    n: u64,
    r: u64,
    s: u64,
    t: u64,
    /// Rows taken.
    a: Bits,
    /// Diagonals k + n taken.
    b: Bits,
    /// Diagonals k - n taken, for k - n >= 0 ...
    c_up: Bits,
    /// ... and for k - n < 0, at index n - k - 1.
    c_down: Bits,
}

impl InfiniteQueens {
    /// The sequence from q_1.
    pub fn new() -> InfiniteQueens {
        InfiniteQueens {
            s: 1,
            ..Default::default()
        }
    }

    /// How many terms have been produced.
    pub fn len(&self) -> u64 {
        self.n
    }

    /// Has no term been produced yet?
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    #[inline(always)]
    fn c(&self, d: i64) -> bool {
        if d >= 0 {
            self.c_up.get(d as usize)
        } else {
            self.c_down.get((-d - 1) as usize)
        }
    }

    #[inline(always)]
    fn set_c(&mut self, d: i64) {
        if d >= 0 {
            self.c_up.set(d as usize)
        } else {
            self.c_down.set((-d - 1) as usize)
        }
    }

    /// Fills `out` with the next terms (a batch, for the Python generator).
    pub fn fill(&mut self, out: &mut [u64]) {
        for x in out.iter_mut() {
            *x = self.step();
        }
    }

    /// The next term (steps G2 to G5).
    #[inline]
    pub fn step(&mut self) -> u64 {
        // G2: the next column.
        self.n += 1;
        let n = self.n;
        // G3: the lowest free row in the window s ..= n - r.
        let mut k = self.s;
        while k + self.r <= n {
            let d = k as i64 - n as i64;
            if !self.a.get(k as usize) && !self.b.get((k + n) as usize) && !self.c(d) {
                // G5: q_n = k <= n.
                self.a.set(k as usize);
                self.b.set((k + n) as usize);
                self.set_c(d);
                if k == self.s {
                    while self.a.get(self.s as usize) {
                        self.s += 1;
                    }
                }
                if k + self.r == n {
                    while self.c(-(self.r as i64)) {
                        self.r += 1;
                    }
                }
                return k;
            }
            k += 1;
        }
        // G4: q_n = n + t + 1 > n, above every queen so far.
        self.t += 1;
        let q = n + self.t;
        self.a.set(q as usize);
        self.b.set((q + n) as usize);
        self.set_c(self.t as i64);
        q
    }
}

impl Iterator for InfiniteQueens {
    type Item = u64;
    fn next(&mut self) -> Option<u64> {
        Some(self.step())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The queens by brute force: the least row attacked by no earlier queen.
    fn brute(count: usize) -> Vec<u64> {
        let mut q: Vec<u64> = Vec::new();
        for n in 1..=count as u64 {
            let row = (1..)
                .find(|&k: &u64| {
                    q.iter().enumerate().all(|(j, &qj)| {
                        let m = j as u64 + 1;
                        qj != k && qj + m != k + n && qj as i64 - m as i64 != k as i64 - n as i64
                    })
                })
                .unwrap();
            q.push(row);
        }
        q
    }

    #[test]
    fn algorithm_g_agrees_with_brute_force() {
        let fast: Vec<u64> = InfiniteQueens::new().take(2000).collect();
        assert_eq!(fast, brute(2000));
    }

    #[test]
    fn counts_of_a000170() {
        let a000170 = [1u64, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];
        for (n, &e) in (1..).zip(a000170.iter()) {
            assert_eq!(count_queens(n, 1), e, "n = {n}");
            assert_eq!(count_queens(n, 3), e, "n = {n}, 3 threads");
        }
    }
}
