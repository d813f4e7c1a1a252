//! Parallel scaling (criterion): a fixed batch of games through the real
//! runner (`matches::run`, strategy files, seat rotation, statistics) on rayon
//! pools of 1 and 2 threads, and of every core when the machine has more.
//! Throughput is the batch's games, so criterion's `thrpt` is games/s; after
//! each group the speed-up over 1 thread (from the same measurements) is
//! printed.
//!
//! Each run asserts the result it times: every game completed, no illegal
//! answer, no game at the turn cap, and statistics identical to those of the
//! 1-thread run (the runner is deterministic whatever the thread count).
//!
//! Quick mode for CI: `cargo bench --bench scaling -- --quick --noplot`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use domsim::dominion::lineup::{self, Lineup};
use domsim::dominion::matches::{self, Stats};
use domsim::dominion::presets::Preset;
use domsim::sim::{self, RunConfig};
use std::cell::RefCell;
use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The thread counts measured: 1, 2, and every core if there are more.
fn thread_counts() -> Vec<usize> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut v = vec![1, 2];
    if cores > 2 {
        v.push(cores);
    }
    v
}

/// `games` games of the First Game kingdom between two shipped strategy
/// files, on each thread count.
fn scaling(c: &mut Criterion, name: &str, games: u64, files: [&str; 2]) {
    let k = Preset::find("First Game").unwrap().kingdom(2).unwrap();
    let specs: Vec<String> = files
        .iter()
        .map(|f| {
            lineup::shipped(f)
                .unwrap_or_else(|| panic!("shipped strategy {f}"))
                .display()
                .to_string()
        })
        .collect();
    let lineup = Lineup::load(&specs).unwrap().compile(&k).unwrap();
    let stop = AtomicBool::new(false);
    let run = |pool: &rayon::ThreadPool, threads: usize| -> Stats {
        let cfg = RunConfig {
            games,
            first: 0,
            seed: 1,
            threads,
            progress: false,
            precision: None,
        };
        let r = pool.install(|| matches::run(&k, &cfg, |o: &[u8]| lineup.bots(o), &stop));
        assert_eq!(r.completed, games, "{name}: every game completed");
        assert_eq!(r.stats.faults, 0, "{name}: {:?}", r.stats.first_fault);
        assert_eq!(r.stats.capped, 0, "{name}: no game at the turn cap");
        r.stats
    };
    let threads = thread_counts();
    let pools: Vec<_> = threads.iter().map(|&t| sim::pool(t).unwrap()).collect();
    // The reference result (untimed): the 1-thread run.
    let reference = run(&pools[0], 1);
    // Time per thread count, as measured by criterion (every sample).
    let spent: RefCell<Vec<(Duration, u64)>> =
        RefCell::new(vec![(Duration::ZERO, 0); threads.len()]);
    let mut grp = c.benchmark_group(format!("scaling/{name}_{games}_games"));
    grp.throughput(Throughput::Elements(games));
    grp.sample_size(10);
    for (idx, (&t, pool)) in threads.iter().zip(&pools).enumerate() {
        grp.bench_with_input(BenchmarkId::new("threads", t), &t, |b, &t| {
            b.iter_custom(|iters| {
                let start = Instant::now();
                for _ in 0..iters {
                    let st = run(pool, t);
                    assert!(st == reference, "{name}: {t} threads differ from 1 thread");
                    black_box(st);
                }
                let d = start.elapsed();
                let mut s = spent.borrow_mut();
                s[idx].0 += d;
                s[idx].1 += iters;
                d
            })
        });
    }
    grp.finish();
    let s = spent.borrow();
    let per_batch = |i: usize| s[i].0.as_secs_f64() / s[i].1.max(1) as f64;
    for (i, &t) in threads.iter().enumerate().skip(1) {
        println!(
            "scaling/{name}: {t} threads: {:.0} games/s, speed-up {:.2} over 1 thread ({:.0} games/s)",
            games as f64 / per_batch(i),
            per_batch(0) / per_batch(i),
            games as f64 / per_batch(0),
        );
    }
}

fn big_money_mirror(c: &mut Criterion) {
    scaling(
        c,
        "big_money_mirror",
        8192,
        ["big_money.dom", "big_money.dom"],
    );
}

fn smithy_vs_bmu(c: &mut Criterion) {
    scaling(
        c,
        "smithy_bm_vs_bmu",
        4096,
        ["smithy_big_money.dom", "big_money_ultimate.dom"],
    );
}

criterion_group!(benches, big_money_mirror, smithy_vs_bmu);
criterion_main!(benches);
