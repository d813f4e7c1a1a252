//! Whole-game benchmarks (criterion), one core. Each benchmark asserts the
//! result it times (every game ends by the rules, with a winner).
//!
//! Throughput is one element per game, so criterion's `thrpt` is games/s.
//! Quick mode for CI: `cargo bench --bench games -- --quick --noplot`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use domsim::bots::{BigMoney, RandomBots};
use domsim::cards::Set;
use domsim::engine::{Bots, Choose, Game, Kingdom, Pick, Why, YesNo};
use domsim::strategy::StrategyBots;
use domsim::Card;
use std::hint::black_box;

/// The "first game" kingdom of the rulebook.
fn first_game(players: usize) -> Kingdom {
    domsim::sim::presets::Preset::find("First Game")
        .and_then(|p| p.kingdom(players))
        .expect("First Game preset")
}

/// Random bots that buy Witch whenever they can and play it first: lots of
/// attacks, curses and reaction windows.
struct WitchHeavy(RandomBots);

impl Bots for WitchHeavy {
    #[inline]
    fn pick(&mut self, g: &Game, q: &Pick) -> Option<Card> {
        let witch = q.legal.contains(Card::Witch);
        match q.why {
            Why::Buy | Why::PlayAction if witch => Some(Card::Witch),
            _ => self.0.pick(g, q),
        }
    }
    #[inline]
    fn yes_no(&mut self, g: &Game, q: &YesNo) -> bool {
        self.0.yes_no(g, q)
    }
    #[inline]
    fn choose(&mut self, g: &Game, q: &Choose) -> u8 {
        self.0.choose(g, q)
    }
}

/// The first random base kingdom (by seed) that has Witch.
fn witch_kingdom() -> Kingdom {
    (0..)
        .map(|s| Kingdom::random(2, &[Set::Base], s).unwrap())
        .find(|k| k.kingdom.contains(Card::Witch))
        .unwrap()
}

/// Time whole games of `k` played by `bots`, reusing one `Game`.
fn bench_games<B: Bots>(c: &mut Criterion, name: &str, k: &Kingdom, mut bots: B) {
    let mut g = Game::new(k, 1, 0);
    let mut i = 0u64;
    let mut grp = c.benchmark_group("whole_game");
    grp.throughput(Throughput::Elements(1));
    grp.bench_function(name, |b| {
        b.iter(|| {
            g.reset(k, 1, i);
            i += 1;
            let o = g.play_game(&mut bots);
            assert!(!o.capped && o.winners != 0, "{name}: game {i} stalled");
            black_box(o)
        })
    });
    grp.finish();
}

fn big_money_mirror(c: &mut Criterion) {
    bench_games(c, "big_money_mirror_hand_coded", &first_game(2), BigMoney);
}

fn witch_random(c: &mut Criterion) {
    let k = witch_kingdom();
    bench_games(
        c,
        "witch_heavy_random_kingdom_random_bots",
        &k,
        WitchHeavy(RandomBots::new(7, false)),
    );
}

fn big_money_4p(c: &mut Criterion) {
    bench_games(c, "big_money_4_players", &first_game(4), BigMoney);
}

fn big_money_6p(c: &mut Criterion) {
    bench_games(c, "big_money_6_players", &first_game(6), BigMoney);
}

/// Two strategy files on `k`, swapping seats every game (a mirror when
/// `file_a == file_b`); a whole game per iteration.
fn strategy_pair(c: &mut Criterion, name: &str, k: &Kingdom, file_a: &str, file_b: &str) {
    let load = |file: &str| {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let st = domsim::strategy::load(&path).expect("strategy parses");
        st.compile(k).expect("strategy compiles").0
    };
    let (a, b) = (load(file_a), load(file_b));
    let mut g = Game::new(k, 1, 0);
    let mut i = 0u64;
    let mut grp = c.benchmark_group("whole_game");
    grp.throughput(Throughput::Elements(1));
    grp.bench_function(name, |bch| {
        bch.iter(|| {
            g.reset(k, 1, i);
            let seats = if i.is_multiple_of(2) {
                [&a, &b]
            } else {
                [&b, &a]
            };
            i += 1;
            let o = g.play_game(&mut StrategyBots::new(&seats));
            assert!(o.winners != 0 && g.fault.is_none());
            black_box(o)
        })
    });
    grp.finish();
}

fn strategy_mirror(c: &mut Criterion, name: &str, k: &Kingdom, file: &str) {
    strategy_pair(c, name, k, file, file);
}

/// Dark Ages: Cultist vs Rebuild (Ruins, on-trash draws, Shelters: every
/// Kingdom card is from Dark Ages).
fn cultist_vs_rebuild(c: &mut Criterion) {
    let k = Kingdom::from_names(
        2,
        &[
            "Cultist",
            "Rebuild",
            "Armory",
            "Catacombs",
            "Forager",
            "Fortress",
            "Hunting Grounds",
            "Market Square",
            "Procession",
            "Squire",
        ],
    )
    .expect("valid kingdom");
    strategy_pair(
        c,
        "cultist_vs_rebuild_dark_ages",
        &k,
        "strategies/cultist.dom",
        "strategies/rebuild.dom",
    );
}

/// The Big Money mirror played through `strategies/big_money.dom` (issue 3:
/// at least 80% of the hand-coded bot's speed).
fn big_money_mirror_strategy_file(c: &mut Criterion) {
    let k = first_game(2);
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
    witch_random,
    big_money_4p,
    big_money_6p,
    big_money_mirror_strategy_file,
    masquerade_big_money_mirror,
    cultist_vs_rebuild
);
criterion_main!(benches);
