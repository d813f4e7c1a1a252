//! The strategy language: parser, every error path, the condition
//! vocabulary, per-card options, safety rules, extends, and the shipped bots.

use domsim::bots::BigMoney;
use domsim::engine::{Bots, Game, Kingdom};
use domsim::strategy::{self, Compiled, StrategyBots};
use std::path::{Path, PathBuf};

fn lib_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("strategies")
}

fn kingdom(names: &[&str]) -> Kingdom {
    Kingdom::from_names(2, names).expect("valid kingdom")
}

/// Smithy, Witch, Militia... every card the money bots need.
fn money_kingdom() -> Kingdom {
    kingdom(&[
        "Smithy",
        "Witch",
        "Militia",
        "Moneylender",
        "Laboratory",
        "Council Room",
        "Library",
        "Chapel",
        "Workshop",
        "Gardens",
    ])
}

/// The engines' cards.
fn engine_kingdom() -> Kingdom {
    kingdom(&[
        "Village",
        "Smithy",
        "Throne Room",
        "Market",
        "Witch",
        "Militia",
        "Chapel",
        "Laboratory",
        "Moat",
        "Cellar",
    ])
}

fn compile_file(name: &str, k: &Kingdom) -> Compiled {
    let s = strategy::load(&lib_dir().join(name)).unwrap_or_else(|e| panic!("{e}"));
    s.compile(k).unwrap_or_else(|e| panic!("{e}")).0
}

/// Play `games` games of `a` against `b`, seats alternated; returns (a's
/// score, games), a win counting 1 and a shared win 1/k.
fn score(k: &Kingdom, a: &Compiled, b: &Compiled, games: u64, seed: u64) -> f64 {
    let mut g = Game::new(k, seed, 0);
    let mut pts = 0.0;
    for i in 0..games {
        g.reset(k, seed, i);
        let a_seat = (i % 2) as usize;
        let seats: [&Compiled; 2] = if a_seat == 0 { [a, b] } else { [b, a] };
        let o = g.play_game(&mut StrategyBots::new(&seats));
        assert!(g.fault.is_none(), "illegal answer: {:?}", g.fault);
        if o.won(a_seat) {
            pts += 1.0 / o.winner_count() as f64;
        }
    }
    pts / games as f64
}

#[test]
fn big_money_file_plays_exactly_like_the_hand_coded_bot() {
    for k in [money_kingdom(), engine_kingdom()] {
        let bm = compile_file("big_money.dom", &k);
        let mut g1 = Game::new(&k, 42, 0);
        let mut g2 = Game::new(&k, 42, 0);
        for i in 0..2000 {
            g1.reset(&k, 42, i);
            g2.reset(&k, 42, i);
            let o1 = g1.play_game(&mut BigMoney);
            let o2 = g2.play_game(&mut StrategyBots::new(&[&bm, &bm]));
            assert_eq!(o1, o2, "game {i}");
            assert_eq!(g1.supply, g2.supply, "game {i}");
            assert!(g2.fault.is_none());
        }
    }
}

#[test]
fn every_shipped_strategy_loads_and_plays() {
    let mut n = 0;
    for e in std::fs::read_dir(lib_dir()).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "dom") {
            continue;
        }
        n += 1;
        let s = strategy::load(&p).unwrap_or_else(|e| panic!("{e}"));
        let head = std::fs::read_to_string(&p).unwrap();
        assert!(head.starts_with("# "), "{}: header comment", p.display());
        assert!(
            head.contains("Source:"),
            "{}: says where it comes from",
            p.display()
        );
        // Some kingdom has every card it names.
        let ok = [money_kingdom(), engine_kingdom()].iter().any(|k| {
            let (c, w) = s.compile(k).unwrap();
            let bm = compile_file("big_money.dom", k);
            if !w.is_empty() {
                return false;
            }
            score(k, &c, &bm, 20, 7);
            true
        });
        assert!(ok, "{}: no test kingdom without warnings", p.display());
    }
    assert!(n >= 13, "at least 13 reference bots, found {n}");
}

/// Relative strength (release mode): `cargo test --release --test it
/// strategy::matchups -- --ignored --nocapture`.
#[test]
#[ignore]
fn matchups() {
    let pairs = [
        ("smithy_big_money.dom", "big_money.dom", money_kingdom()),
        ("double_witch.dom", "smithy_big_money.dom", money_kingdom()),
        ("big_money_ultimate.dom", "big_money.dom", money_kingdom()),
        ("militia_big_money.dom", "big_money.dom", money_kingdom()),
        ("moneylender.dom", "big_money.dom", money_kingdom()),
        ("laboratory.dom", "big_money.dom", money_kingdom()),
        ("council_room.dom", "big_money.dom", money_kingdom()),
        ("library.dom", "big_money.dom", money_kingdom()),
        ("chapel.dom", "big_money.dom", engine_kingdom()),
        ("workshop_gardens.dom", "big_money.dom", money_kingdom()),
        ("village_smithy.dom", "big_money.dom", engine_kingdom()),
        ("throne_room.dom", "big_money.dom", engine_kingdom()),
        (
            "village_smithy.dom",
            "smithy_big_money.dom",
            engine_kingdom(),
        ),
        ("double_witch.dom", "militia_big_money.dom", money_kingdom()),
    ];
    for (a, b, k) in pairs {
        let ca = compile_file(a, &k);
        let cb = compile_file(b, &k);
        let s = score(&k, &ca, &cb, 10_000, 1);
        println!("{a:28} vs {b:24}: {:.1}%  (10000 games)", s * 100.0);
    }
}

/// Speed of the Big Money mirror, hand-coded vs strategy file (release):
/// `cargo test --release --test it strategy::speed -- --ignored --nocapture`.
#[test]
#[ignore]
fn speed() {
    let k = kingdom(&[
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
    ]);
    let bm = compile_file("big_money.dom", &k);
    // Interleaved batches, best batch of each (the machine is shared).
    let n = 20_000u64;
    let mut g = Game::new(&k, 1, 0);
    let (mut hand, mut file) = (0f64, 0f64);
    for round in 0..20u64 {
        let base = round * n;
        let t = std::time::Instant::now();
        let mut turns = 0u64;
        for i in base..base + n {
            g.reset(&k, 1, i);
            turns += g.play_game(&mut BigMoney).turns[0] as u64;
        }
        hand = hand.max(n as f64 / t.elapsed().as_secs_f64());
        let t = std::time::Instant::now();
        let mut turns2 = 0u64;
        for i in base..base + n {
            g.reset(&k, 1, i);
            turns2 += g.play_game(&mut StrategyBots::new(&[&bm, &bm])).turns[0] as u64;
        }
        file = file.max(n as f64 / t.elapsed().as_secs_f64());
        assert_eq!(turns, turns2);
    }
    println!(
        "best of 20 batches of {n}: hand-coded {hand:.0} games/s, strategy file {file:.0} games/s ({:.1}%)",
        file / hand * 100.0
    );
}

#[allow(dead_code)]
fn assert_bots<B: Bots>(_: &B) {}
