//! A ceiling, not a feature: a hand-specialised Big Money mirror in plain
//! Rust, with no engine, no rules beyond what Big Money touches, and no
//! decisions beyond its buy rule. It uses the engine's random generator and
//! shuffle, so the difference to `whole_game/big_money_mirror_*` is what the
//! full-rules engine and the strategy interpreter cost over the fastest loop
//! one could write by hand for this one matchup.
//!
//! The rules it keeps: 7 Copper + 3 Estate, shuffle, draw 5, play all
//! Treasures, buy Province ($8) / Gold ($6-7) / Silver ($3-5), discard,
//! draw 5 (reshuffling the discard when the deck runs out), game over when
//! the 8 Provinces are gone (2 players), most VP wins, tie to fewer turns.
//! The benchmark asserts every game ends with the Provinces gone and a winner.

use criterion::{criterion_group, Criterion, Throughput};
use domsim::engine::GameRng;
use std::hint::black_box;

/// Card kinds; Copper is 0, the `[u8; 64]` zones' initial value.
const SILVER: u8 = 1;
const GOLD: u8 = 2;
const ESTATE: u8 = 3;
const PROVINCE: u8 = 4;
/// Indexed by kind: Copper, Silver, Gold, Estate, Province.
const VALUE: [u8; 5] = [1, 2, 3, 0, 0];
const VP: [i32; 5] = [0, 0, 0, 1, 6];

struct Player {
    deck: [u8; 64],
    deck_len: usize,
    discard: [u8; 64],
    discard_len: usize,
    hand: [u8; 8],
    hand_len: usize,
    vp: i32,
}

impl Player {
    fn new(rng: &mut GameRng) -> Player {
        let mut p = Player {
            deck: [0; 64],
            deck_len: 10,
            discard: [0; 64],
            discard_len: 0,
            hand: [0; 8],
            hand_len: 0,
            vp: 3,
        };
        p.deck[7..10].fill(ESTATE);
        rng.shuffle(&mut p.deck[..10]);
        p.draw5(rng);
        p
    }

    #[inline(always)]
    fn draw5(&mut self, rng: &mut GameRng) {
        for _ in 0..5 {
            if self.deck_len == 0 {
                self.deck[..self.discard_len].copy_from_slice(&self.discard[..self.discard_len]);
                self.deck_len = self.discard_len;
                self.discard_len = 0;
                rng.shuffle(&mut self.deck[..self.deck_len]);
                if self.deck_len == 0 {
                    return;
                }
            }
            self.deck_len -= 1;
            self.hand[self.hand_len] = self.deck[self.deck_len];
            self.hand_len += 1;
        }
    }

    /// One turn; returns true if a Province was bought.
    #[inline(always)]
    fn turn(&mut self, rng: &mut GameRng, provinces: &mut u8) -> bool {
        let mut coins = 0;
        for &c in &self.hand[..self.hand_len] {
            coins += VALUE[c as usize];
        }
        let buy = if coins >= 8 && *provinces > 0 {
            *provinces -= 1;
            Some(PROVINCE)
        } else if coins >= 6 {
            Some(GOLD)
        } else if coins >= 3 {
            Some(SILVER)
        } else {
            None
        };
        if let Some(c) = buy {
            self.discard[self.discard_len] = c;
            self.discard_len += 1;
            self.vp += VP[c as usize];
        }
        self.discard[self.discard_len..self.discard_len + self.hand_len]
            .copy_from_slice(&self.hand[..self.hand_len]);
        self.discard_len += self.hand_len;
        self.hand_len = 0;
        self.draw5(rng);
        buy == Some(PROVINCE)
    }
}

/// One game; returns the winners' bit mask.
fn game(seed: u64, index: u64) -> u8 {
    let mut rng = GameRng::for_game(seed, index);
    let mut p = [Player::new(&mut rng), Player::new(&mut rng)];
    let mut provinces = 8u8;
    let mut turns = [0u16; 2];
    'game: loop {
        for (s, pl) in p.iter_mut().enumerate() {
            turns[s] += 1;
            pl.turn(&mut rng, &mut provinces);
            if provinces == 0 {
                break 'game;
            }
        }
        assert!(turns[0] < 100, "stalled");
    }
    let (a, b) = (p[0].vp, p[1].vp);
    match a.cmp(&b) {
        std::cmp::Ordering::Greater => 1,
        std::cmp::Ordering::Less => 2,
        std::cmp::Ordering::Equal if turns[0] < turns[1] => 1,
        std::cmp::Ordering::Equal if turns[1] < turns[0] => 2,
        std::cmp::Ordering::Equal => 3,
    }
}

fn hand_specialised(c: &mut Criterion) {
    let mut i = 0u64;
    let mut grp = c.benchmark_group("baseline");
    grp.throughput(Throughput::Elements(1));
    grp.bench_function("big_money_mirror_hand_specialised", |b| {
        b.iter(|| {
            i += 1;
            let w = game(1, i);
            assert!(w != 0);
            black_box(w)
        })
    });
    grp.finish();
}

criterion_group!(benches, hand_specialised);

/// Criterion's main, or with `BASELINE_GAMES=N` in the environment a plain
/// loop of N games (seed 1, games 0..N) that prints games/s: a run short and
/// fixed enough for valgrind to count its instructions per game, as
/// `scripts/instructions.sh` does for the engine (results/BENCHMARKS.md).
fn main() {
    if let Some(n) = std::env::var_os("BASELINE_GAMES") {
        let n: u64 = match n.to_str().and_then(|s| s.parse().ok()) {
            Some(n) if n > 0 => n,
            _ => {
                eprintln!("baseline: BASELINE_GAMES={n:?} is not a number of games (1 or more)");
                std::process::exit(2);
            }
        };
        let t = std::time::Instant::now();
        let mut wins = [0u64; 4];
        for i in 0..n {
            wins[game(1, i) as usize] += 1;
        }
        let s = t.elapsed().as_secs_f64();
        println!(
            "{n} games in {s:.3} s: {:.0} games/s (seat 1 won {}, seat 2 won {}, tied {})",
            n as f64 / s,
            wins[1],
            wins[2],
            wins[3]
        );
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
