//! Runner benchmarks (criterion): the cost of `dominion::matches::run` (seat rotation, bots
//! per game, stats, rayon) over plain `play_game`, on one thread, for the
//! hand-coded Big Money mirror and the same bot as a strategy file. Each
//! benchmark asserts the result it times.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use domsim::bots::BigMoney;
use domsim::dominion::lineup::Lineup;
use domsim::dominion::matches;
use domsim::dominion::presets::Preset;
use domsim::engine::Game;
use domsim::sim::{self, RunConfig};
use std::hint::black_box;
use std::sync::atomic::AtomicBool;

const GAMES: u64 = 4096;

fn runner(c: &mut Criterion) {
    let k = Preset::find("First Game").unwrap().kingdom(2).unwrap();
    let cfg = RunConfig {
        games: GAMES,
        first: 0,
        seed: 1,
        threads: 1,
        progress: false,
        precision: None,
    };
    let stop = AtomicBool::new(false);
    let pool = sim::pool(1).unwrap();
    let files = Lineup::load(&[
        "strategies/big_money.dom".to_string(),
        "strategies/big_money.dom".to_string(),
    ])
    .unwrap()
    .compile(&k)
    .unwrap();
    let mut grp = c.benchmark_group("runner_4096_games_1_thread");
    grp.throughput(Throughput::Elements(GAMES));
    grp.sample_size(20);
    grp.bench_function("plain_loop_hand_coded", |b| {
        let mut g = Game::new(&k, 1, 0);
        b.iter(|| {
            let mut wins = 0u32;
            for i in 0..GAMES {
                g.reset(&k, 1, i);
                wins += g.play_game(&mut BigMoney).winner_count();
            }
            assert!(wins as u64 >= GAMES);
            black_box(wins)
        })
    });
    grp.bench_function("sim_run_hand_coded", |b| {
        b.iter(|| {
            let r = pool.install(|| matches::run(&k, &cfg, |_: &[u8]| BigMoney, &stop));
            assert_eq!(r.completed, GAMES);
            black_box(r)
        })
    });
    grp.bench_function("sim_run_strategy_file", |b| {
        b.iter(|| {
            let r = pool.install(|| matches::run(&k, &cfg, |o: &[u8]| files.bots(o), &stop));
            assert_eq!(r.completed, GAMES);
            black_box(r)
        })
    });
    grp.finish();
}

criterion_group!(benches, runner);
criterion_main!(benches);
