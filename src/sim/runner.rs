//! The game-independent runner: one loop for every game domsim plays.
//!
//! A game plugs in through [`Match`] (in the spirit of OpenSpiel's
//! Game / State / Bot split): a match is one setup of one game — its rules,
//! its players' bots, its seating — that can play its game number `i` from
//! `(seed, i)` alone, on a per-thread [`Match::Worker`] (the reusable,
//! allocation-free game state), and add the outcome to a [`Match::Tally`]
//! (integer counts, merged associatively). Everything else is the runner's
//! and shared by every game: the thread pool, fixed blocks of game indices
//! (so a seed gives the same result whatever the thread count), `--precision`
//! stopping at block boundaries, the progress bar, Ctrl-C / SIGTERM (a stop
//! flag checked before every game), shards (a contiguous slice
//! `first..first + games` of the indices) and checkpoints
//! ([`super::checkpoint`], for tallies that implement
//! [`super::checkpoint::Saved`]).
//!
//! Dominion's match is `crate::dominion::matches::DominionMatch`; New Salem's lives beside its
//! engine.

use super::RunConfig;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// Games per scheduling block (between progress updates, stop checks and
/// `--precision` checks). Fixed: block boundaries are game indices, never
/// thread-dependent.
pub const BLOCK: u64 = 1 << 14;

/// One setup of one game, played many times. See the module doc.
pub trait Match: Sync {
    /// Per-thread state, built once per worker and reused for every game it
    /// plays (the game state, bot scratch space).
    type Worker: Send;
    /// What a run accumulates. Merging must be associative and commutative
    /// (integer counts), so that any split of the games gives the same total.
    type Tally: Send;
    fn worker(&self) -> Self::Worker;
    /// An empty tally.
    fn tally(&self) -> Self::Tally;
    fn merge(&self, a: Self::Tally, b: Self::Tally) -> Self::Tally;
    /// Games accounted in `t`.
    fn games(&self, t: &Self::Tally) -> u64;
    /// The widest 95% half-width among the figures `--precision` watches.
    fn widest_half_width(&self, t: &Self::Tally) -> f64;
    /// Play game `index` of the run seeded `seed` and account it in `t`. Its
    /// randomness must depend only on `(seed, index)`.
    fn play(&self, w: &mut Self::Worker, seed: u64, index: u64, t: &mut Self::Tally);
    /// Check that a tally read back (a checkpoint) can be one of this match:
    /// its counts fit this setup (the players per game). Default: anything.
    fn check_tally(&self, _t: &Self::Tally) -> Result<(), String> {
        Ok(())
    }
}

/// What [`run_match`] produced.
#[derive(Clone, Debug)]
pub struct Ran<T> {
    pub tally: T,
    /// Games played (less than asked when interrupted or stopped early by
    /// `--precision`).
    pub completed: u64,
    /// Stopped by the stop flag before every game asked was played.
    pub interrupted: bool,
}

/// The progress bar every long run shows on a terminal: position, length,
/// games/s (in the same number format as the counts) and time left.
pub fn progress_bar(progress: bool, len: u64) -> indicatif::ProgressBar {
    if !progress {
        return indicatif::ProgressBar::hidden();
    }
    let b = indicatif::ProgressBar::new(len);
    b.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {done}/{total} games  {rate}  eta {eta}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
            // Counts as the tables show them (one function: report::count).
            .with_key(
                "done",
                |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{}", crate::report::count(s.pos()));
                },
            )
            .with_key(
                "total",
                |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{}", crate::report::count(s.len().unwrap_or(0)));
                },
            )
            .with_key(
                "rate",
                |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{} games/s", crate::report::count(s.per_sec() as u64));
                },
            ),
    );
    b
}

/// Play games `cfg.first .. cfg.first + cfg.games` of `m` in the current
/// rayon pool, block by block, stopping early when `stop` is set or when
/// `cfg.precision` is reached at a block boundary.
pub fn run_match<M: Match>(m: &M, cfg: &RunConfig, stop: &AtomicBool) -> Ran<M::Tally> {
    let bar = progress_bar(cfg.progress, cfg.games);
    let mut total = m.tally();
    let mut start = cfg.first;
    let stop_at = cfg.first + cfg.games;
    while start < stop_at && !stop.load(Ordering::Relaxed) {
        let end = (start + BLOCK).min(stop_at);
        let part = play_block(m, cfg.seed, start, end, stop);
        total = m.merge(total, part);
        let done = m.games(&total);
        bar.set_position(done);
        start = end;
        if cfg
            .precision
            .is_some_and(|p| done > 0 && m.widest_half_width(&total) < p)
        {
            break;
        }
    }
    bar.finish_and_clear();
    let completed = m.games(&total);
    Ran {
        tally: total,
        completed,
        interrupted: stop.load(Ordering::Relaxed) && completed < cfg.games,
    }
}

/// Play games `start..end` of `m` in the current rayon pool; games not
/// started when `stop` is set are skipped. The one place where games are
/// played: [`run_match`] and the checkpointed run both call it.
pub fn play_block<M: Match>(m: &M, seed: u64, start: u64, end: u64, stop: &AtomicBool) -> M::Tally {
    (start..end)
        .into_par_iter()
        .fold(
            || Box::new((m.worker(), m.tally())),
            |mut acc, i| {
                if !stop.load(Ordering::Relaxed) {
                    let (w, t) = &mut *acc;
                    m.play(w, seed, i, t);
                }
                acc
            },
        )
        .map(|acc| acc.1)
        .reduce(|| m.tally(), |a, b| m.merge(a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy game: game `i` is "won" when a hash of (seed, i) is even. Shows
    /// the runner's contract without any card game.
    struct Coin;

    impl Match for Coin {
        type Worker = ();
        type Tally = (u64, u64);
        fn worker(&self) {}
        fn tally(&self) -> (u64, u64) {
            (0, 0)
        }
        fn merge(&self, a: (u64, u64), b: (u64, u64)) -> (u64, u64) {
            (a.0 + b.0, a.1 + b.1)
        }
        fn games(&self, t: &(u64, u64)) -> u64 {
            t.0
        }
        fn widest_half_width(&self, t: &(u64, u64)) -> f64 {
            let (lo, hi) = super::super::wilson(t.1 as f64, t.0);
            (hi - lo) / 2.0
        }
        fn play(&self, _: &mut (), seed: u64, i: u64, t: &mut (u64, u64)) {
            let h = crate::sim::rng::GameRng::for_game(seed, i).next_u64();
            t.0 += 1;
            t.1 += h & 1;
        }
    }

    fn cfg(games: u64, first: u64, precision: Option<f64>) -> RunConfig {
        RunConfig {
            games,
            first,
            seed: 7,
            threads: 0,
            progress: false,
            precision,
        }
    }

    #[test]
    fn same_total_whatever_the_threads_and_slices() {
        let stop = AtomicBool::new(false);
        let one = crate::sim::pool(1)
            .unwrap()
            .install(|| run_match(&Coin, &cfg(40_000, 0, None), &stop));
        let two = crate::sim::pool(2)
            .unwrap()
            .install(|| run_match(&Coin, &cfg(40_000, 0, None), &stop));
        assert_eq!(one.tally, two.tally);
        assert_eq!(one.completed, 40_000);
        let a = run_match(&Coin, &cfg(12_345, 0, None), &stop).tally;
        let b = run_match(&Coin, &cfg(40_000 - 12_345, 12_345, None), &stop).tally;
        assert_eq!(Coin.merge(a, b), one.tally);
        // Heads about half the time: the toy really depends on (seed, i).
        assert!((19_000..21_000).contains(&one.tally.1), "{:?}", one.tally);
    }

    #[test]
    fn precision_stops_at_a_block_boundary_and_stop_flag_plays_nothing() {
        let stop = AtomicBool::new(false);
        let r = run_match(&Coin, &cfg(10 * BLOCK, 0, Some(0.01)), &stop);
        assert!(r.completed < 10 * BLOCK && r.completed.is_multiple_of(BLOCK));
        assert!(!r.interrupted);
        stop.store(true, Ordering::Relaxed);
        let r = run_match(&Coin, &cfg(1000, 0, None), &stop);
        assert_eq!((r.completed, r.interrupted), (0, true));
    }
}
