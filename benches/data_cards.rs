//! Data cards against printed cards (issue 14: "a data card runs at least
//! half as fast as the same printed card in a whole-game benchmark"): the
//! games of `domsim cards verify` — two copies of a money bot that buys the
//! card, on the same kingdom — played with the printed card and with its
//! reprint from cards/reprints.toml. The two are the same games (verify
//! checks it), so the times compare the handlers alone.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use domsim::cards::data;
use domsim::engine::Game;
use domsim::playtest;
use std::hint::black_box;

fn pair(c: &mut Criterion, printed: &str) {
    let cards = playtest::builtin(playtest::REPRINTS).expect("built-in reprints");
    let dc = cards
        .iter()
        .find(|d| d.reprint_of.is_some_and(|p| p.name() == printed))
        .expect("a reprint")
        .clone();
    let mut grp = c.benchmark_group("data_cards");
    grp.throughput(Throughput::Elements(1));
    // The printed card, then its reprint (bound for its own run).
    for data in [false, true] {
        let binding = data.then(|| data::bind(std::slice::from_ref(&dc)).unwrap());
        let bound = binding.as_ref().map(|b| b.cards()[0]);
        let (k, lineup) = playtest::verify_setup(&dc, bound).unwrap();
        let k = lineup.kingdom_for(&k);
        let compiled = lineup.compile(&k).unwrap();
        let mut g = Game::new(&k, 1, 0);
        let mut i = 0u64;
        let name = format!("{printed}_{}", if data { "data" } else { "printed" });
        grp.bench_function(name, |b| {
            b.iter(|| {
                g.reset(&k, 1, i);
                let order = [(i % 2) as u8, 1 - (i % 2) as u8];
                i += 1;
                black_box(g.play_game(&mut compiled.bots(&order)))
            })
        });
    }
    grp.finish();
}

fn smithy(c: &mut Criterion) {
    pair(c, "Smithy");
}
fn witch(c: &mut Criterion) {
    pair(c, "Witch");
}
fn militia(c: &mut Criterion) {
    pair(c, "Militia");
}
fn chapel(c: &mut Criterion) {
    pair(c, "Chapel");
}
fn steward(c: &mut Criterion) {
    pair(c, "Steward");
}

criterion_group!(benches, smithy, witch, militia, chapel, steward);
criterion_main!(benches);
