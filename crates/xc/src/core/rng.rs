//! A small, seeded random number generator (SplitMix64), so that a random
//! search order is reproducible from its seed on every platform.

#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator whose whole sequence is fixed by `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng {
            state: seed ^ 0x5DEE_CE66_D1CE_4E5B,
        }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (n > 0), by Lemire's multiply-shift: of the top 32
    /// bits (the bias is below 2^-32 for the small n used here) up to 2^32,
    /// of all 64 past it, where the product of 32 bits would overflow.
    pub fn below(&mut self, n: u64) -> u64 {
        if n <= 1 << 32 {
            ((self.next_u64() >> 32) * n) >> 32
        } else {
            ((self.next_u64() as u128 * n as u128) >> 64) as u64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence_and_in_range() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        let mut seen = [0u32; 5];
        for _ in 0..1000 {
            let x = a.below(5);
            assert_eq!(x, b.below(5));
            seen[x as usize] += 1;
        }
        assert!(seen.iter().all(|&c| c > 150), "{seen:?}");
        assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
    }

    #[test]
    fn past_two_to_the_32_every_draw_is_below_n_and_reaches_its_top() {
        let mut rng = Rng::new(3);
        for n in [(1 << 32) + 1, 1 << 40, u64::MAX] {
            let draws: Vec<u64> = (0..1000).map(|_| rng.below(n)).collect();
            assert!(draws.iter().all(|&x| x < n));
            // Uniform: some draw in the top half of the range.
            assert!(draws.iter().any(|&x| x >= n / 2), "{n}");
        }
    }
}
