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

/// The same mirror played through `strategies/big_money.dom` (issue 3: at
/// least 80% of the hand-coded bot's speed).
fn big_money_mirror_strategy_file(c: &mut Criterion) {
    let k = first_game();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("strategies/big_money.dom");
    let bm = domsim::strategy::load(&path).expect("big_money.dom parses");
    let (bm, _) = bm.compile(&k).expect("big_money.dom compiles");
    let mut g = Game::new(&k, 1, 0);
    let mut i = 0u64;
    let mut grp = c.benchmark_group("whole_game");
    grp.throughput(Throughput::Elements(1));
    grp.bench_function("big_money_mirror_strategy_file", |b| {
        b.iter(|| {
            g.reset(&k, 1, i);
            i += 1;
            let o = g.play_game(&mut StrategyBots::new(&[&bm, &bm]));
            assert!(!o.capped && o.winners != 0 && g.fault.is_none());
            black_box(o)
        })
    });
    grp.finish();
}

criterion_group!(benches, big_money_mirror, big_money_mirror_strategy_file);
criterion_main!(benches);
