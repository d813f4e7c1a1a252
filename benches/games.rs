//! Whole-game benchmarks (criterion). Each benchmark asserts the result it times.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use domsim::bots::BigMoney;
use domsim::engine::{Game, Kingdom};
use domsim::strategy::StrategyBots;
use std::hint::black_box;

fn first_game() -> Kingdom {
    Kingdom::from_names(
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
    .expect("valid kingdom")
}

fn big_money_mirror(c: &mut Criterion) {
    let k = first_game();
    let mut g = Game::new(&k, 1, 0);
    let mut i = 0u64;
    let mut grp = c.benchmark_group("whole_game");
    grp.throughput(Throughput::Elements(1));
    grp.bench_function("big_money_mirror_hand_coded", |b| {
        b.iter(|| {
            g.reset(&k, 1, i);
            i += 1;
            let o = g.play_game(&mut BigMoney);
            assert!(!o.capped && o.winners != 0);
            black_box(o)
        })
    });
    grp.finish();
}

/// A mirror of one strategy file on `k` (a whole game per iteration).
fn strategy_mirror(c: &mut Criterion, name: &str, k: &Kingdom, file: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let st = domsim::strategy::load(&path).expect("strategy parses");
    let (bot, _) = st.compile(k).expect("strategy compiles");
    let mut g = Game::new(k, 1, 0);
    let mut i = 0u64;
    let mut grp = c.benchmark_group("whole_game");
    grp.throughput(Throughput::Elements(1));
    grp.bench_function(name, |b| {
        b.iter(|| {
            g.reset(k, 1, i);
            i += 1;
            let o = g.play_game(&mut StrategyBots::new(&[&bot, &bot]));
            assert!(!o.capped && o.winners != 0 && g.fault.is_none());
            black_box(o)
        })
    });
    grp.finish();
}

/// The Big Money mirror played through `strategies/big_money.dom` (issue 3:
/// at least 80% of the hand-coded bot's speed).
fn big_money_mirror_strategy_file(c: &mut Criterion) {
    let k = first_game();
    strategy_mirror(
        c,
        "big_money_mirror_strategy_file",
        &k,
        "strategies/big_money.dom",
    );
}

/// Intrigue: the Masquerade Big Money reference bot in a mirror on the
/// "Victory Dance" preset.
fn masquerade_big_money_mirror(c: &mut Criterion) {
    let k = domsim::sim::presets::Preset::find("Victory Dance")
        .and_then(|p| p.kingdom(2))
        .expect("preset");
    strategy_mirror(
        c,
        "masquerade_big_money_mirror_strategy",
        &k,
        "strategies/masquerade_big_money.dom",
    );
}

criterion_group!(
    benches,
    big_money_mirror,
    big_money_mirror_strategy_file,
    masquerade_big_money_mirror
);
criterion_main!(benches);
