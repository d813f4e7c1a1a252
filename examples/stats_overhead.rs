//! What recording statistics costs: a Big Money mirror on one thread, plain
//! (`Game::play_game` with `BigMoney`) vs through `stats::playtest`.
//!
//! `cargo run --release --example stats_overhead -- [GAMES]` (default 200000).

use domsim::bots::BigMoney;
use domsim::engine::{Game, Kingdom};
use domsim::stats::playtest;
use std::time::Instant;

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(200_000);
    let k = Kingdom::from_names(
        2,
        &[
            "Cellar",
            "Market",
            "Militia",
            "Mine",
            "Moat",
            "Remodel",
            "Smithy",
            "Village",
            "Woodcutter",
            "Workshop",
        ],
    )
    .expect("valid kingdom");
    let t = Instant::now();
    let mut g = Game::new(&k, 1, 0);
    let mut wins = 0u64;
    for i in 0..games {
        g.reset(&k, 1, i);
        wins += g.play_game(&mut BigMoney).won(0) as u64;
    }
    let plain = t.elapsed().as_secs_f64();
    let names = vec!["BM".to_string(), "BM".to_string()];
    let t = Instant::now();
    let st = playtest(&k, &names, games, 1, 1, |_| BigMoney);
    let rec = t.elapsed().as_secs_f64();
    assert_eq!(st.games, games);
    println!(
        "plain: {:.0} games/s (seat 1 won {wins}); recorded: {:.0} games/s; recording costs {:.0}%",
        games as f64 / plain,
        games as f64 / rec,
        (rec / plain - 1.0) * 100.0
    );
}
