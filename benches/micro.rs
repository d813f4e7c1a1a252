//! Micro-benchmarks (criterion): the pieces a game is made of. Each asserts
//! the result it times.
//!
//! Quick mode for CI: `cargo bench --bench micro -- --quick --noplot`.
//!
//! The turn benchmarks start every iteration from the same snapshot (a copy
//! of the game made outside the timed region, in batches of 16 so the copies
//! stay in cache) and play one full turn of the active player.
//!
//! The strategy benchmarks time one answer of a compiled strategy file to a
//! Buy question (`StrategyBots::pick`), on explicit game states where the
//! answer is known: the conditions of the buy list are evaluated (pile
//! sizes, card counts, arithmetic such as `count(Smithy) < 1 + cards / 11`).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use domsim::bots::BigMoney;
use domsim::engine::{Bots, Game, GameRng, Kingdom, Pick, Why, YesNo};
use domsim::scenario::Scenario;
use domsim::strategy::{Compiled, StrategyBots};
use domsim::Card;
use std::hint::black_box;

fn shuffle(c: &mut Criterion) {
    use Card::*;
    let mut deck = [
        Copper, Copper, Copper, Copper, Copper, Copper, Copper, Estate, Estate, Estate, Silver,
        Silver, Silver, Silver, Gold, Smithy, Province,
    ];
    let sum: u32 = deck.iter().map(|&c| c as u32).sum();
    let mut rng = GameRng::for_game(1, 0);
    c.bench_function("micro/shuffle_17_cards", |b| {
        b.iter(|| {
            rng.shuffle(black_box(&mut deck));
            // Still the same 17 cards.
            assert_eq!(deck.iter().map(|&c| c as u32).sum::<u32>(), sum);
        })
    });
}

fn draw_5(c: &mut Criterion) {
    let k = Kingdom::random(2, &[domsim::cards::Set::Base], 1).unwrap();
    let mut g = Game::new(&k, 1, 0);
    // A 17-card deck, empty hand.
    let pl = &mut g.players[0];
    pl.hand.clear();
    pl.discard.clear();
    pl.deck.clear();
    for i in 0..17 {
        pl.deck.push(if i % 3 == 0 {
            Card::Silver
        } else {
            Card::Copper
        });
    }
    g.recount_totals();
    c.bench_function("micro/draw_5_and_put_back", |b| {
        b.iter(|| {
            let n = g.draw(&mut BigMoney, 0, 5);
            assert_eq!(n, 5);
            // Put the hand back (last drawn first) so the deck is unchanged.
            let pl = &mut g.players[0];
            while let Some(c) = pl.hand.pop() {
                pl.deck.push(c);
            }
            black_box(&g);
        })
    });
}

/// Big Money that also plays Smithy / Witch when it has one.
struct PlayActions;

impl Bots for PlayActions {
    #[inline]
    fn pick(&mut self, g: &Game, q: &Pick) -> Option<Card> {
        match q.why {
            Why::PlayAction => q.legal.first(),
            _ => BigMoney.pick(g, q),
        }
    }
    #[inline]
    fn yes_no(&mut self, g: &Game, q: &YesNo) -> bool {
        BigMoney.yes_no(g, q)
    }
}

/// Time one full turn from `start`; `check` validates the state after it.
fn bench_turn<B: Bots>(
    c: &mut Criterion,
    name: &str,
    start: &Game,
    mut bots: B,
    check: impl Fn(&Game, &Game),
) {
    // The expected result, computed once untimed.
    let mut expected = start.clone();
    expected.play_turn(&mut bots);
    assert!(expected.fault.is_none());
    c.bench_function(name, |b| {
        b.iter_batched_ref(
            || start.clone(),
            |g| {
                g.play_turn(&mut bots);
                check(g, &expected);
            },
            BatchSize::NumIterations(16),
        )
    });
}

/// Every card each player owns, as counts: equal states own the same cards.
fn owned(g: &Game) -> [[u8; Card::COUNT]; 6] {
    std::array::from_fn(|p| g.players[p].owned)
}

fn big_money_turn(c: &mut Criterion) {
    let k = domsim::dominion::presets::Preset::find("First Game")
        .and_then(|p| p.kingdom(2))
        .expect("First Game preset");
    // A mid-game state: 12 turns of a Big Money mirror.
    let mut start = Game::new(&k, 3, 0);
    for _ in 0..12 {
        start.play_turn(&mut BigMoney);
    }
    assert!(!start.over);
    let before = start.players[0].owned_total;
    bench_turn(c, "micro/big_money_turn", &start, BigMoney, |g, e| {
        assert_eq!(g.active, e.active);
        assert_eq!(owned(g), owned(e));
    });
    // The snapshot's turn buys a card (else the benchmark measures too little).
    let mut g = start.clone();
    g.play_turn(&mut BigMoney);
    assert_eq!(g.players[0].owned_total, before + 1);
}

fn scenario(text: &str) -> Game {
    Scenario::parse(text).expect("valid scenario").game
}

fn smithy_turn(c: &mut Criterion) {
    // Smithy draws Silver, Copper, Gold: $9, Province.
    let start = scenario(
        "players: 2
         kingdom: Smithy
         p0.hand: Smithy, Copper, Copper, Estate, Copper
         p0.deck: Silver, Copper, Gold, Estate, Copper, Silver, Copper, Copper, Estate, Copper
         p0.discard: Smithy, Silver, Copper
         p1.hand: Copper*4, Estate
         p1.deck: Copper*3, Estate*2",
    );
    bench_turn(c, "micro/smithy_turn", &start, PlayActions, |g, _| {
        assert_eq!(g.pile(Card::Province), 7);
        assert_eq!(g.players[0].hand.len(), 5);
    });
}

fn witch_turn(c: &mut Criterion) {
    // Witch draws Silver, Copper ($6: Gold); the opponent gains a Curse.
    let start = scenario(
        "players: 2
         kingdom: Witch, Moat
         p0.hand: Witch, Copper, Copper, Estate, Copper
         p0.deck: Silver, Copper, Estate, Estate, Copper, Silver, Copper, Copper, Estate, Copper
         p0.discard: Silver, Copper
         p1.hand: Copper*4, Estate
         p1.deck: Copper*3, Estate*2",
    );
    bench_turn(c, "micro/witch_turn", &start, PlayActions, |g, _| {
        assert_eq!(g.pile(Card::Curse), 9);
        assert_eq!(g.players[1].owns(Card::Curse), 1);
        assert_eq!(g.players[0].owns(Card::Gold), 1);
    });
}

/// The First Game preset's Kingdom cards, for scenario states.
const FIRST_GAME_CARDS: &str =
    "Cellar, Market, Militia, Mine, Moat, Remodel, Smithy, Village, Woodcutter, Workshop";

/// A shipped strategy file compiled for `k`.
fn compiled(file: &str, k: &Kingdom) -> Compiled {
    domsim::dominion::lineup::compile_shipped(file, k).unwrap_or_else(|e| panic!("{e:#}"))
}

/// Time `strat`'s answer (seat 0) to the Buy question of `state` (a
/// scenario in the Buy phase, First Game kingdom), asserting it is `want`.
fn bench_buy(c: &mut Criterion, name: &str, strat: &Compiled, state: &str, want: Card) {
    let g = scenario(&format!(
        "players: 2\nkingdom: {FIRST_GAME_CARDS}\nphase: buy\n{state}"
    ));
    // The question the engine asks in the Buy step.
    let q = Pick {
        player: 0,
        why: Why::Buy,
        by: None,
        legal: g.buyable(),
        optional: true,
        target: 0,
    };
    assert!(q.legal.contains(want), "{name}: {want:?} is not buyable");
    let mut bots = StrategyBots::new(&[strat, strat]);
    assert_eq!(bots.pick(&g, &q), Some(want), "{name}");
    c.bench_function(name, |b| {
        b.iter(|| {
            let a = bots.pick(black_box(&g), black_box(&q));
            assert_eq!(a, Some(want));
            a
        })
    });
}

fn strategy_conditions(c: &mut Criterion) {
    let k = domsim::dominion::presets::Preset::find("First Game")
        .and_then(|p| p.kingdom(2))
        .expect("First Game preset");
    let smithy = compiled("smithy_big_money.dom", &k);
    let bmu = compiled("big_money_ultimate.dom", &k);
    // Smithy Big Money with $4, 8 Provinces left: Duchy/Gold are too dear,
    // `Estate if supply(Province) <= 2` is false, then
    // `Smithy if count(Smithy) < 1 + cards / 11 and count(Smithy) < 4`:
    // 21 cards, 1 Smithy: 1 < 1 + 21 / 11 = 2, true, so Smithy.
    bench_buy(
        c,
        "micro/strategy_buy_arithmetic_true_smithy",
        &smithy,
        "coins: 4
         p0.hand: Copper*4, Estate
         p0.deck: Copper*3, Silver*4, Estate*2, Gold
         p0.discard: Smithy, Silver*2, Copper*3",
        Card::Smithy,
    );
    // The same with 2 Smithies in 21 cards: 2 < 2 is false, so Silver
    // (the last entry).
    bench_buy(
        c,
        "micro/strategy_buy_arithmetic_false_silver",
        &smithy,
        "coins: 4
         p0.hand: Copper*4, Estate
         p0.deck: Copper*3, Silver*3, Estate*2, Gold
         p0.discard: Smithy*2, Silver*2, Copper*3",
        Card::Silver,
    );
    // Big Money Ultimate with $7 and 4 Provinces left: Province is too dear,
    // `Duchy if supply(Province) <= 4` holds (Duchy dancing).
    bench_buy(
        c,
        "micro/strategy_buy_pile_condition_duchy",
        &bmu,
        "coins: 7
         supply: Province=4
         p0.hand: Gold, Silver, Copper*2, Estate
         p0.deck: Copper*3, Silver*3, Estate*2, Gold, Province*2
         p0.discard: Silver*2, Copper*2",
        Card::Duchy,
    );
    // Smithy Big Money with $6: `Province if total_money >= 16` is skipped
    // (not buyable), the pile conditions are false, so Gold.
    bench_buy(
        c,
        "micro/strategy_buy_pile_conditions_false_gold",
        &smithy,
        "coins: 6
         p0.hand: Gold, Silver, Copper, Estate*2
         p0.deck: Copper*4, Silver*2, Estate, Smithy
         p0.discard: Silver, Copper*2",
        Card::Gold,
    );
}

criterion_group!(
    benches,
    shuffle,
    draw_5,
    big_money_turn,
    smithy_turn,
    witch_turn,
    strategy_conditions
);
criterion_main!(benches);
