//! Random read-modify-writes over a table of 2^22 128-bit counts (64 MB, as
//! a dense frontier table) and over one of 2^14 (256 KB, in cache), on one
//! thread and split over two: does this machine's memory serve two threads
//! faster than one? (Why dense frontier steps stay on one thread.)
//!
//!     rustc -O benchmarks/random_access.rs -o /tmp/random_access && /tmp/random_access
use std::time::Instant;
fn work(t: &mut [u128], n: usize, seed: u64) -> u128 {
    let mut x = seed; let m = t.len() - 1; let mut s = 0u128;
    for _ in 0..n { x ^= x << 13; x ^= x >> 7; x ^= x << 17; let k = (x as usize) & m; t[k] = t[k].wrapping_add(x as u128); s = s.wrapping_add(t[k]); }
    s
}
fn main() {
    let size = 1usize << 22; let n = 50_000_000;
    let mut a = vec![0u128; size]; let mut b = vec![0u128; size];
    let t = Instant::now(); work(&mut a, n, 1); println!("1 thread: {:?}", t.elapsed());
    let t = Instant::now();
    std::thread::scope(|s| { s.spawn(|| work(&mut a, n / 2, 1)); s.spawn(|| work(&mut b, n / 2, 2)); });
    println!("2 threads, half each: {:?}", t.elapsed());
    let small = 1usize << 14; let mut c = vec![0u128; small]; let mut d = vec![0u128; small];
    let t = Instant::now(); work(&mut c, n, 1); println!("cache-resident 1 thread: {:?}", t.elapsed());
    let t = Instant::now();
    std::thread::scope(|s| { s.spawn(|| work(&mut c, n / 2, 1)); s.spawn(|| work(&mut d, n / 2, 2)); });
    println!("cache-resident 2 threads: {:?}", t.elapsed());
}
