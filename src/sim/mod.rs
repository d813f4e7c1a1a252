//! The game-independent kernel: the runner ([`runner`]: one loop for every
//! game, over fixed blocks of game indices), seeds ([`rng`]), shards
//! ([`shard`]: the partial format, generic over a game's counts),
//! checkpoints ([`checkpoint`]: generic over a game's tally), the thread
//! pool and the Wilson interval. A game plugs in through [`Match`]:
//! Dominion's is `crate::dominion::matches`, New Salem's
//! `crate::new_salem::sim`. Nothing here knows a game's rules.

pub mod checkpoint;
pub mod rng;
pub mod runner;
pub mod shard;

pub use runner::{run_match, Match, Ran};

/// How to run.
#[derive(Clone, Copy, Debug)]
pub struct RunConfig {
    /// Games to play: indices `first..first + games`.
    pub games: u64,
    /// Index of the first game (0, except for a shard of a larger run:
    /// `--shard I/N` plays a contiguous slice of the game indices).
    pub first: u64,
    pub seed: u64,
    /// Worker threads; 0 = one per core.
    pub threads: usize,
    /// Show a progress bar (the caller decides: only on a terminal).
    pub progress: bool,
    /// Sequential mode: stop at the first block boundary where every
    /// entrant's 95% score interval has a half-width below this (`games` is
    /// then the maximum). Block boundaries are fixed game indices, so a seed
    /// gives the same result whatever the thread count.
    pub precision: Option<f64>,
}

/// Build a rayon pool with `threads` workers (0 = one per core).
pub fn pool(threads: usize) -> anyhow::Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| anyhow::anyhow!("cannot start {threads} worker threads: {e}"))
}

/// Wilson score interval for `successes` out of `n` at 95% (z = 1.96).
/// `successes` may be fractional (ties counted as shared): the interval is
/// then the usual approximation with that effective count.
pub fn wilson(successes: f64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let n = n as f64;
    let p = (successes / n).clamp(0.0, 1.0);
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((center - half).max(0.0), (center + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_bounds() {
        let (lo, hi) = wilson(50.0, 100);
        assert!((lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3);
        assert_eq!(wilson(0.0, 0), (0.0, 1.0));
        let (lo, _) = wilson(0.0, 10);
        assert_eq!(lo, 0.0);
    }
}
