//! The per-game random number generator.
//!
//! Each game owns a xoshiro256++ generator seeded from `(run seed, game index)`
//! through SplitMix64, so results are identical whatever the thread count and
//! any single game can be replayed from its index alone.

use rand_xoshiro::rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRng(Xoshiro256PlusPlus);

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
        debug_assert!(n > 0);
        let mut m = (self.0.next_u32() as u64) * (n as u64);
        if (m as u32) < n {
            let t = n.wrapping_neg() % n;
            while (m as u32) < t {
                m = (self.0.next_u32() as u64) * (n as u64);
            }
        }
        (m >> 32) as u32
    }

    /// Uniform random permutation (Fisher–Yates).
    #[inline]
    pub fn shuffle<T>(&mut self, s: &mut [T]) {
        let mut i = s.len();
        while i > 1 {
            let j = self.below(i as u32) as usize;
            i -= 1;
            s.swap(i, j);
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
