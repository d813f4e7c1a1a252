//! Determinism (DESIGN "Testing" 4): each game's random stream depends only
//! on (run seed, game index), so the outcome of game `i` is the same whether
//! the games run one after the other on one thread or spread over a rayon
//! pool, and whatever game a reused `Game` played before.

use domsim::bots::{BigMoney, RandomBots};
use domsim::cards::Set;
use domsim::engine::{Game, Kingdom, Outcome};
use rayon::prelude::*;

const SEED: u64 = 2024;

/// What we compare per game: the outcome, plus a fingerprint of the final
/// state (every zone of every player, Supply and trash) and the number of
/// decisions, so a divergence that happens not to change the winner shows too.
#[derive(Debug, PartialEq, Eq)]
struct Result {
    outcome: Outcome,
    fingerprint: u64,
    decisions: u64,
}

fn fingerprint(g: &Game) -> u64 {
    // FNV-1a over the state that matters.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |x: u64| {
        h ^= x;
        h = h.wrapping_mul(0x100_0000_01b3);
    };
    for p in 0..g.n() {
        let pl = &g.players[p];
        for z in [&pl.deck, &pl.hand, &pl.discard, &pl.play, &pl.aside] {
            eat(0xFFFF);
            for c in z.iter() {
                eat(c as u64);
            }
        }
    }
    for &s in g.supply.iter() {
        eat(s as u64);
    }
    for c in g.trash.iter() {
        eat(c as u64 + 1000);
    }
    h
}

/// Game `i` of the run: a random base kingdom (chosen from `i`), random bots.
fn random_kingdom(i: u64) -> Kingdom {
    let players = 2 + (i % 5) as usize;
    Kingdom::random(players, &[Set::Base], SEED ^ i).unwrap()
}

fn random_game(g: &mut Game, i: u64) -> Result {
    g.reset(&random_kingdom(i), SEED, i);
    play_random(g, i)
}

fn play_random(g: &mut Game, i: u64) -> Result {
    let mut b = RandomBots::new(SEED.wrapping_add(i), false);
    let outcome = g.play_game(&mut b);
    Result {
        outcome,
        fingerprint: fingerprint(g),
        decisions: b.decisions,
    }
}

fn big_money_game(k: &Kingdom, g: &mut Game, i: u64) -> Result {
    g.reset(k, SEED, i);
    let outcome = g.play_game(&mut BigMoney);
    Result {
        outcome,
        fingerprint: fingerprint(g),
        decisions: 0,
    }
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

#[test]
fn random_games_same_on_one_thread_and_on_a_pool() {
    const N: u64 = 3_000;
    let k0 = Kingdom::random(2, &[Set::Base], 0).unwrap();
    let sequential: Vec<Result> = {
        let mut g = Game::new(&k0, 0, 0);
        (0..N).map(|i| random_game(&mut g, i)).collect()
    };
    // Sanity: the games differ from each other (the comparison is not vacuous).
    assert!(sequential.windows(2).any(|w| w[0] != w[1]));
    for threads in [2, 3] {
        let parallel: Vec<Result> = pool(threads).install(|| {
            (0..N)
                .into_par_iter()
                // One reused Game per worker: each game also follows a
                // different predecessor than in the sequential run.
                .map_init(|| Game::new(&k0, 0, 0), random_game)
                .collect()
        });
        for (i, (a, b)) in sequential.iter().zip(&parallel).enumerate() {
            assert_eq!(a, b, "game {i} differs with {threads} threads");
        }
    }
}

#[test]
fn big_money_games_same_on_one_thread_and_on_a_pool() {
    const N: u64 = 5_000;
    for players in [2, 4, 6] {
        let k = Kingdom::random(players, &[Set::Base], 5).unwrap();
        let sequential: Vec<Result> = {
            let mut g = Game::new(&k, 0, 0);
            (0..N).map(|i| big_money_game(&k, &mut g, i)).collect()
        };
        let parallel: Vec<Result> = pool(2).install(|| {
            (0..N)
                .into_par_iter()
                .map_init(|| Game::new(&k, 0, 0), |g, i| big_money_game(&k, g, i))
                .collect()
        });
        assert_eq!(sequential, parallel, "{players} players");
        // Reverse order on one thread: still the same per index.
        let mut g = Game::new(&k, 0, 0);
        for i in (0..N).rev().step_by(7) {
            assert_eq!(big_money_game(&k, &mut g, i), sequential[i as usize]);
        }
    }
}

/// A fresh `Game::new` and a reused `Game::reset` give the same game.
#[test]
fn new_and_reset_agree() {
    let mut reused = Game::new(&random_kingdom(0), SEED, 0);
    for i in 0..300 {
        let a = random_game(&mut reused, i);
        let mut fresh = Game::new(&random_kingdom(i), SEED, i);
        let b = play_random(&mut fresh, i);
        assert_eq!(a, b, "game {i}");
    }
}
