//! Random-play smoke test of Dark Ages kingdoms: random legal decisions, the
//! conservation invariant checked at every decision, 2–6 players, Shelters
//! forced on and off and by the random rule, pure Dark Ages and mixed with
//! the base set.

use domsim::bots::RandomBots;
use domsim::cards::Set;
use domsim::engine::{Game, Kingdom};

fn run(sets: &[Set], games: u64, seed0: u64) {
    for i in 0..games {
        let players = 2 + (i % 5) as usize;
        let shelters = match i % 3 {
            0 => None,
            1 => Some(true),
            _ => Some(false),
        };
        let k = Kingdom::random(players, sets, seed0 + i)
            .unwrap()
            .with_shelters(shelters);
        let mut g = Game::new(&k, seed0, i);
        if let Some(s) = shelters {
            assert_eq!(g.shelters, s);
        }
        g.check_invariants()
            .unwrap_or_else(|e| panic!("setup of game {i} ({}): {e}", k.describe()));
        let mut bots = RandomBots::new(seed0 ^ i, true);
        let o = g.play_game(&mut bots);
        if let Some(v) = &bots.violation {
            panic!("game {i} ({players}p, {}): {v}", k.describe());
        }
        assert!(g.fault.is_none(), "game {i}: {:?}", g.fault);
        g.check_invariants()
            .unwrap_or_else(|e| panic!("end of game {i} ({}): {e}", k.describe()));
        assert!(o.winners != 0);
    }
}

#[test]
fn random_dark_ages_games_keep_invariants() {
    run(&[Set::DarkAges], 60, 1000);
}

#[test]
fn random_mixed_games_keep_invariants() {
    run(&[Set::Base, Set::DarkAges], 40, 5000);
}

/// Longer soak (release): `DOMSIM_SOAK=20000 cargo test --release --test it
/// soak -- --ignored`.
#[test]
#[ignore]
fn soak_dark_ages() {
    let n: u64 = std::env::var("DOMSIM_SOAK")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000);
    run(&[Set::DarkAges], n, 77);
    run(&[Set::Base, Set::DarkAges], n, 99);
}

#[test]
fn random_three_set_games_keep_invariants() {
    run(&[Set::Base, Set::Intrigue, Set::DarkAges], 40, 9000);
}
