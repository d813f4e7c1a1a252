//! Whole-game benchmarks (criterion). Each benchmark asserts the result it times.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use domsim::bots::BigMoney;
use domsim::engine::{Game, Kingdom};
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

/// Intrigue: the Masquerade Big Money reference bot (strategy language) in a
/// mirror on the "Victory Dance" preset.
fn masquerade_big_money_mirror(c: &mut Criterion) {
    let k = domsim::sim::presets::Preset::find("Victory Dance")
        .and_then(|p| p.kingdom(2))
        .expect("preset");
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/strategies/masquerade_big_money.dom"
    );
    let st = domsim::strategy::load(std::path::Path::new(path)).expect("strategy");
    let (bot, _) = st.compile(&k).expect("compiles");
    let mut g = Game::new(&k, 1, 0);
    let mut i = 0u64;
    let mut grp = c.benchmark_group("whole_game");
    grp.throughput(Throughput::Elements(1));
    grp.bench_function("masquerade_big_money_mirror_strategy", |b| {
        b.iter(|| {
            g.reset(&k, 1, i);
            i += 1;
            let mut bots = domsim::strategy::StrategyBots::new(&[&bot, &bot]);
            let o = g.play_game(&mut bots);
            assert!(!o.capped && o.winners != 0 && g.fault.is_none());
            black_box(o)
        })
    });
    grp.finish();
}

criterion_group!(benches, big_money_mirror, masquerade_big_money_mirror);
criterion_main!(benches);
