//! The per-game random number generator.
//!
//! Each game owns a xoshiro256++ generator seeded from `(run seed, game index)`
//! through SplitMix64, so results are identical whatever the thread count and
//! any single game can be replayed from its index alone.

use rand_xoshiro::rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRng(Xoshiro256PlusPlus);

/// Read `word` as a fraction `word / 2^64` in mixed radix: digit `i` (in
/// `0..bounds[i]`) is the high word of the remaining fraction times
/// `bounds[i]`, which then keeps its low word. Returns the final low word
/// (the batch's rejection test looks at it).
#[inline(always)]
fn mixed_radix_digits<const K: usize>(word: u64, bounds: &[u64; K], out: &mut [usize; K]) -> u64 {
    let mut l = word;
    for (o, &b) in out.iter_mut().zip(bounds.iter()) {
        let m = l as u128 * b as u128;
        *o = (m >> 64) as usize;
        l = m as u64;
    }
    l
}

#[inline]
fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl GameRng {
    /// The generator of game `index` of a run seeded with `seed`.
    pub fn for_game(seed: u64, index: u64) -> GameRng {
        let s = splitmix64(seed ^ splitmix64(index.wrapping_add(0x5851_F42D_4C95_7F2D)));
        GameRng(Xoshiro256PlusPlus::seed_from_u64(s))
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform integer in `0..n` (`n > 0`), unbiased (Lemire's method).
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        // `n = 0` (never asked: every caller draws from a non-empty
        // range) cannot panic either: `m` is 0, so `(m as u32) < n` is
        // false, the modulo by `n` is never reached, and the answer is 0.
        debug_assert!(n > 0, "a draw from an empty range");
        let mut m = (self.0.next_u32() as u64) * (n as u64);
        if (m as u32) < n {
            let t = n.wrapping_neg() % n;
            while (m as u32) < t {
                m = (self.0.next_u32() as u64) * (n as u64);
            }
        }
        (m >> 32) as u32
    }

    /// `K` independent uniform integers, the `i`-th in `0..bounds[i]`, from
    /// one 64-bit word where possible (batched ranged integers, after
    /// Brackett-Rozinsky & Lemire, "Batched Ranged Random Integer
    /// Generation", 2024). The word is read as a mixed-radix fraction: each
    /// step multiplies the remaining 64-bit fraction by the next bound and
    /// keeps the high word as a digit. The digits are exactly uniform once
    /// the final low word is at least `2^64 mod P` (`P` the product of the
    /// bounds); below that the whole batch is drawn again, which happens
    /// with probability less than `P / 2^64`. The caller keeps `P` within
    /// 64 bits.
    #[inline(always)]
    fn batch<const K: usize>(&mut self, bounds: [u64; K]) -> [usize; K] {
        let mut out = [0usize; K];
        let mut l = self.digits(&bounds, &mut out);
        let product: u64 = bounds.iter().product();
        if l < product {
            let t = product.wrapping_neg() % product;
            while l < t {
                l = self.digits(&bounds, &mut out);
            }
        }
        out
    }

    /// The digits of one fresh random word (see [`mixed_radix_digits`]).
    #[inline(always)]
    fn digits<const K: usize>(&mut self, bounds: &[u64; K], out: &mut [usize; K]) -> u64 {
        mixed_radix_digits(self.0.next_u64(), bounds, out)
    }

    /// Uniform random permutation (Fisher–Yates, from the end): position
    /// `i - 1` takes a uniform index in `0..i`. The indices come four at a
    /// time from one random word while `i` ≤ 2^16 (so the product of four
    /// bounds fits in 64 bits), then two, then one: a 20-card deck costs 5
    /// generator calls instead of 19. Always inlined: its one hot caller is
    /// the reshuffle, which then is one function, not two (−0.6%
    /// instructions a game on the HiveMind workload, callgrind).
    #[inline(always)]
    pub fn shuffle<T>(&mut self, s: &mut [T]) {
        let mut i = s.len();
        while i > 1 << 16 {
            let j = self.below(i as u32) as usize;
            i -= 1;
            s.swap(i, j);
        }
        while i >= 5 {
            let n = i as u64;
            let js = self.batch([n, n - 1, n - 2, n - 3]);
            // One range check for the batch: every index below is < i.
            let t = &mut s[..i];
            for (k, j) in js.into_iter().enumerate() {
                let last = i - 1 - k;
                t.swap(last, j.min(last));
            }
            i -= 4;
        }
        if i >= 3 {
            let n = i as u64;
            let js = self.batch([n, n - 1]);
            for j in js {
                i -= 1;
                s.swap(i, j.min(i));
            }
        }
        if i == 2 {
            let [j] = self.batch([2]);
            s.swap(1, j.min(1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_different_index_different_stream() {
        let mut a = GameRng::for_game(1, 5);
        let mut b = GameRng::for_game(1, 5);
        let mut c = GameRng::for_game(1, 6);
        let xa: Vec<u64> = (0..4).map(|_| a.next_u64()).collect();
        let xb: Vec<u64> = (0..4).map(|_| b.next_u64()).collect();
        let xc: Vec<u64> = (0..4).map(|_| c.next_u64()).collect();
        assert_eq!(xa, xb);
        assert_ne!(xa, xc);
    }

    #[test]
    fn below_is_roughly_uniform() {
        let mut r = GameRng::for_game(3, 0);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[r.below(6) as usize] += 1;
        }
        for c in counts {
            assert!((9_000..11_000).contains(&c), "{counts:?}");
        }
    }

    /// Every permutation of n = 2..=6 cards equally likely (the batched
    /// index path covers n >= 5 with batches of 4, n = 3, 4 with batches of
    /// 2, n = 2 alone): a chi-square test per size, fixed seed.
    #[test]
    fn shuffle_gives_every_permutation_equally_often() {
        let mut r = GameRng::for_game(11, 0);
        for n in 2..=6usize {
            let perms: usize = (1..=n).product();
            let trials = perms * 400;
            let mut counts = std::collections::HashMap::new();
            for _ in 0..trials {
                let mut v: Vec<u8> = (0..n as u8).collect();
                r.shuffle(&mut v);
                *counts.entry(v).or_insert(0u32) += 1;
            }
            assert_eq!(counts.len(), perms, "n = {n}: every permutation occurs");
            let e = trials as f64 / perms as f64;
            let chi2: f64 = counts.values().map(|&c| (c as f64 - e).powi(2) / e).sum();
            // Degrees of freedom perms - 1; the 99.9% quantile is below
            // df + 4.5 sqrt(2 df) + 12 for every df here.
            let df = (perms - 1) as f64;
            let limit = df + 4.5 * (2.0 * df).sqrt() + 12.0;
            assert!(chi2 < limit, "n = {n}: chi-square {chi2:.1} >= {limit:.1}");
        }
    }

    /// The digits of known words: a word is a fraction of 2^64, each digit
    /// the integer part of the remaining fraction times the next bound.
    #[test]
    fn mixed_radix_digits_of_known_words() {
        let mut d = [0usize; 2];
        // 1/2: 600 * 1/2 = 300 exactly, nothing left for the next digit.
        assert_eq!(mixed_radix_digits(1 << 63, &[600, 599], &mut d), 0);
        assert_eq!(d, [300, 0]);
        // 3/4 with bounds 2, 4: 2 * 3/4 = 1.5 -> 1, rest 1/2; 4 * 1/2 = 2.
        assert_eq!(mixed_radix_digits(3 << 62, &[2, 4], &mut d), 0);
        assert_eq!(d, [1, 2]);
        // The largest word gives the largest digits.
        let mut d4 = [0usize; 4];
        mixed_radix_digits(u64::MAX, &[600, 599, 598, 597], &mut d4);
        assert_eq!(d4, [599, 598, 597, 596]);
        // 0 gives zeros.
        assert_eq!(mixed_radix_digits(0, &[600, 599, 598, 597], &mut d4), 0);
        assert_eq!(d4, [0; 4]);
    }

    #[test]
    fn shuffle_is_a_permutation_and_every_position_varies() {
        let mut r = GameRng::for_game(9, 0);
        let mut first = [0u32; 5];
        for _ in 0..5_000 {
            let mut v = [0, 1, 2, 3, 4];
            r.shuffle(&mut v);
            let mut s = v;
            s.sort();
            assert_eq!(s, [0, 1, 2, 3, 4]);
            first[v[0]] += 1;
        }
        for c in first {
            assert!((800..1200).contains(&c), "{first:?}");
        }
    }
}
