use super::*;

#[test]
fn numbers_add_past_128_bits() {
    let mut a = Number::Small(u128::MAX);
    a.add(&Number::Small(1));
    assert_eq!(a, Number::Big(vec![0, 0, 1]));
    assert_eq!(a.to_u128(), None);
    let mut b = Number::Small(5);
    b.add(&a);
    assert_eq!(b, Number::Big(vec![5, 0, 1]));
    let mut c = Number::Big(vec![u64::MAX, u64::MAX, u64::MAX]);
    c.add(&Number::Small(1));
    assert_eq!(c, Number::Big(vec![0, 0, 0, 1]));
}

#[test]
fn the_fewest_by_blocks_is_the_first_least() {
    let mut rng = crate::core::rng::Rng::new(7);
    for n in 0..200usize {
        // Few distinct counts, so ties across and within blocks; some covered.
        let counts: Vec<Count> = (0..n)
            .map(|_| match rng.below(6) {
                5 => 32_767 - rng.below(100) as Count,
                k => 1 + k as Count,
            })
            .collect();
        let plain = counts.iter().enumerate().min_by_key(|&(_, &c)| c);
        let expected = plain.filter(|&(_, &c)| !covered(c)).map(|(i, _)| i);
        assert_eq!(fewest(&counts), expected, "{counts:?}");
    }
}
