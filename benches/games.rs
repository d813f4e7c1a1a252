//! Whole-game benchmarks (criterion), one core. Each benchmark asserts the
//! result it times (every game ends by the rules, with a winner; for
//! strategy files also no illegal answer, and the game did what the
//! benchmark is named for: curses given, Ruins dealt, …).
//!
//! Throughput is one element per game, so criterion's `thrpt` is games/s.
//! Quick mode for CI: `cargo bench --bench games -- --quick --noplot`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use domsim::bots::{BigMoney, RandomBots};
use domsim::cards::Set;
use domsim::engine::{Bots, Choose, Game, Kingdom, Pick, Why, YesNo, MAX_PLAYERS};
use domsim::strategy::{Compiled, StrategyBots};
use domsim::Card;
use std::hint::black_box;

/// The "first game" kingdom of the rulebook.
fn first_game(players: usize) -> Kingdom {
    domsim::dominion::presets::Preset::find("First Game")
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

/// Strategy files at one table on `k` (one file per seat), whole games.
/// Seats rotate: game `i` seats `files[(s + i) % n]` at seat `s`, so every
/// file plays every seat (for two files, they swap seats every game).
///
/// Each game must end by the rules (Provinces or the pile limit, not the
/// turn cap), with a winner and no illegal answer. `reached` says whether a
/// game exercised what the benchmark is about (curses given, Ruins dealt, an
/// engine card bought…); it must hold in at least half of the games timed.
fn strategy_table(
    c: &mut Criterion,
    name: &str,
    k: &Kingdom,
    files: &[&str],
    reached: fn(&Game) -> bool,
) {
    assert_eq!(files.len(), k.n(), "{name}: one strategy per seat");
    let compiled: Vec<_> = files
        .iter()
        .map(|f| {
            domsim::dominion::lineup::compile_shipped(f, k).unwrap_or_else(|e| panic!("{e:#}"))
        })
        .collect();
    let n = compiled.len();
    let mut g = Game::new(k, 1, 0);
    let mut i = 0u64;
    let mut hits = 0u64;
    let mut grp = c.benchmark_group("whole_game");
    grp.throughput(Throughput::Elements(1));
    grp.bench_function(name, |bch| {
        bch.iter(|| {
            g.reset(k, 1, i);
            let r = (i % n as u64) as usize;
            let seats: [&Compiled; MAX_PLAYERS] = std::array::from_fn(|s| &compiled[(s + r) % n]);
            i += 1;
            let o = g.play_game(&mut StrategyBots::new(&seats[..n]));
            assert!(
                g.over && g.end_condition() && !o.capped && o.winners != 0 && g.fault.is_none(),
                "{name}: game {} did not end by the rules: {:?}",
                i - 1,
                g.fault
            );
            hits += reached(&g) as u64;
            black_box(o)
        })
    });
    grp.finish();
    assert!(
        2 * hits >= i,
        "{name}: only {hits} of {i} games did what the benchmark is about"
    );
}

/// Any game: nothing more to check.
fn any(_: &Game) -> bool {
    true
}

fn strategy_pair(
    c: &mut Criterion,
    name: &str,
    k: &Kingdom,
    file_a: &str,
    file_b: &str,
    reached: fn(&Game) -> bool,
) {
    strategy_table(c, name, k, &[file_a, file_b], reached);
}

fn strategy_mirror(
    c: &mut Criterion,
    name: &str,
    k: &Kingdom,
    file: &str,
    reached: fn(&Game) -> bool,
) {
    strategy_pair(c, name, k, file, file, reached);
}

/// Some player owns `card` at the end.
fn someone_owns(g: &Game, card: Card) -> bool {
    (0..g.n()).any(|p| g.players[p].owns(card) > 0)
}

/// Dark Ages: Cultist vs Rebuild (Ruins, on-trash draws, Shelters: every
/// Kingdom card is from Dark Ages).
fn cultist_vs_rebuild(c: &mut Criterion) {
    let k = Kingdom::from_names(2, domsim::bench::DARK_AGES_KINGDOM).expect("valid kingdom");
    strategy_pair(
        c,
        "cultist_vs_rebuild_dark_ages",
        &k,
        "cultist.dom",
        "rebuild.dom",
        // Ruins were given (a 2-player game has 10) and Shelters dealt.
        |g| g.shelters && (g.ruins.len as usize) < 10 * (g.n() - 1),
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
        "big_money.dom",
        any,
    );
}

/// Intrigue: the Masquerade Big Money reference bot in a mirror on the
/// "Victory Dance" preset.
fn masquerade_big_money_mirror(c: &mut Criterion) {
    let k = domsim::dominion::presets::Preset::find("Victory Dance")
        .and_then(|p| p.kingdom(2))
        .expect("preset");
    strategy_mirror(
        c,
        "masquerade_big_money_mirror_strategy",
        &k,
        "masquerade_big_money.dom",
        |g| someone_owns(g, Card::Masquerade),
    );
}

/// Smithy Big Money against Big Money Ultimate on the First Game kingdom:
/// conditional buy lists (`count(Smithy) < 1 + cards / 11`, pile sizes) and
/// Smithy plays.
fn smithy_vs_bmu(c: &mut Criterion) {
    strategy_pair(
        c,
        "smithy_big_money_vs_big_money_ultimate",
        &first_game(2),
        "smithy_big_money.dom",
        "big_money_ultimate.dom",
        |g| someone_owns(g, Card::Smithy),
    );
}

/// The speed-comparison workload: Smithy-BM vs BMU with the bot rules of
/// the fastest other Rust simulator (strategies/hivemind_*.dom).
fn hivemind_smithy_vs_bmu(c: &mut Criterion) {
    strategy_pair(
        c,
        "hivemind_smithy_bm_vs_bmu",
        &first_game(2),
        "hivemind_smithy_bm.dom",
        "hivemind_bmu.dom",
        |g| someone_owns(g, Card::Smithy),
    );
}

/// Double Witch mirror on a money kingdom: attacks, Curses, the Curse pile
/// running out (the game still ends on Provinces or three piles).
fn double_witch_mirror(c: &mut Criterion) {
    let k = Kingdom::from_names(2, domsim::bench::MONEY_KINGDOM).expect("valid kingdom");
    strategy_mirror(
        c,
        "double_witch_mirror_strategy",
        &k,
        "double_witch.dom",
        // Curses were given.
        |g| g.pile(Card::Curse) < 10,
    );
}

/// Village/Smithy engine mirror: chains of Villages and Smithies (many
/// Action plays and draws per turn).
fn village_smithy_mirror(c: &mut Criterion) {
    let k = Kingdom::from_names(2, domsim::bench::ENGINE_KINGDOM).expect("valid kingdom");
    strategy_mirror(
        c,
        "village_smithy_engine_mirror_strategy",
        &k,
        "village_smithy.dom",
        |g| someone_owns(g, Card::Village) && someone_owns(g, Card::Smithy),
    );
}

/// Four strategy files at one table (First Game): Big Money twice, Smithy
/// Big Money twice; seats rotate.
fn strategy_4p(c: &mut Criterion) {
    strategy_table(
        c,
        "strategy_files_4_players",
        &first_game(4),
        domsim::bench::FOUR_PLAYERS,
        |g| someone_owns(g, Card::Smithy),
    );
}

/// Six strategy files at one table (First Game): Big Money, Smithy Big
/// Money and Big Money Ultimate, twice each; seats rotate.
fn strategy_6p(c: &mut Criterion) {
    strategy_table(
        c,
        "strategy_files_6_players",
        &first_game(6),
        domsim::bench::SIX_PLAYERS,
        |g| someone_owns(g, Card::Smithy),
    );
}

/// New Salem at 5 players: the six shipped `.salem` bots (each chair drawn
/// from them per game, as `domsim salem sim` does) on the built-in sample
/// data, one reused `Game`. Asserts every game ends with a side decided.
fn new_salem_5p(c: &mut Criterion) {
    use domsim::new_salem::{bot, data::Data, engine, sim::SalemMatch};
    let data = Data::sample();
    let bots = bot::shipped(&data).unwrap();
    let t = engine::Table::new(&data, 5).unwrap();
    let m = SalemMatch {
        table: &t,
        bots: &bots,
    };
    let mut g = engine::Game::new();
    let mut i = 0u64;
    let mut grp = c.benchmark_group("whole_game");
    grp.throughput(Throughput::Elements(1));
    grp.bench_function("new_salem_5p_strategy_files", |b| {
        b.iter(|| {
            let seats = m.setup(&mut g, 1, i);
            i += 1;
            let o = g.play(&t, &mut m.seated(&seats), &mut engine::NoLog);
            assert!(o.side.is_some() || o.witches == 0);
            black_box(o.despair)
        })
    });
    grp.finish();
}

criterion_group!(
    benches,
    new_salem_5p,
    big_money_mirror,
    witch_random,
    big_money_4p,
    big_money_6p,
    big_money_mirror_strategy_file,
    masquerade_big_money_mirror,
    cultist_vs_rebuild,
    smithy_vs_bmu,
    hivemind_smithy_vs_bmu,
    double_witch_mirror,
    village_smithy_mirror,
    strategy_4p,
    strategy_6p
);
criterion_main!(benches);
