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

/// Smithy, Witch, Militia... every card the money bots need (the Double
/// Witch workload's kingdom of `domsim bench`).
fn money_kingdom() -> Kingdom {
    kingdom(domsim::bench::MONEY_KINGDOM)
}

/// The engines' cards (the Village/Smithy workload's kingdom).
fn engine_kingdom() -> Kingdom {
    kingdom(domsim::bench::ENGINE_KINGDOM)
}

fn compile_file(name: &str, k: &Kingdom) -> Compiled {
    domsim::dominion::lineup::compile_shipped(name, k).unwrap_or_else(|e| panic!("{e:#}"))
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
        let mut kingdoms = vec![money_kingdom(), engine_kingdom()];
        // Dark Ages cards in no available preset.
        kingdoms.push(kingdom(&[
            "Count",
            "Counterfeit",
            "Death Cart",
            "Feodum",
            "Market Square",
            "Storeroom",
            "Beggar",
            "Urchin",
            "Sage",
            "Forager",
        ]));
        for p in [
            "Victory Dance",
            "Best Wishes",
            "Secret Schemes",
            "Deconstruction",
            "Hand Madness",
            "Underlings",
            "Grim Parade",
            "Playing Chess with Death",
            "High and Low",
            "Chivalry and Revelry",
            "Prophecy",
            "Invasion",
        ] {
            kingdoms.push(
                domsim::dominion::presets::Preset::find(p)
                    .and_then(|p| p.kingdom(2))
                    .unwrap(),
            );
        }
        let ok = kingdoms.iter().any(|k| {
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
        (
            "smithy_big_money.dom",
            "big_money_ultimate.dom",
            money_kingdom(),
        ),
        (
            "double_witch.dom",
            "big_money_ultimate.dom",
            money_kingdom(),
        ),
        (
            "workshop_gardens.dom",
            "big_money_ultimate.dom",
            money_kingdom(),
        ),
        ("chapel.dom", "big_money_ultimate.dom", engine_kingdom()),
        (
            "throne_room.dom",
            "big_money_ultimate.dom",
            engine_kingdom(),
        ),
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

// ---------------------------------------------------------------------------
// Helpers to build game states

use domsim::cards::Card::{self, *};
use domsim::engine::{CardVec, GameRng, Pick, Why, YesNo};
use domsim::strategy::StrategyError;

/// Kingdom with every base card that asks a question, for the option tests.
fn question_kingdom() -> Kingdom {
    kingdom(&[
        "Spy",
        "Thief",
        "Bureaucrat",
        "Library",
        "Chancellor",
        "Feast",
        "Mine",
        "Remodel",
        "Moat",
        "Cellar",
    ])
}

fn fill(z: &mut CardVec, cards: &[Card]) {
    z.clear();
    for &c in cards {
        z.push(c);
    }
}

/// An empty game of `k` (full Supply, empty zones) for hand-built states.
fn blank(k: &Kingdom) -> Game {
    Game::empty(k, GameRng::for_game(1, 0))
}

fn compile_text(text: &str, k: &Kingdom) -> Compiled {
    let s = strategy::parse(text, "t.dom").unwrap_or_else(|e| panic!("{e}"));
    s.compile(k).unwrap_or_else(|e| panic!("{e}")).0
}

/// Seat 0's answer when `c` plays every seat.
fn ask(
    g: &Game,
    c: &Compiled,
    why: Why,
    by: Option<Card>,
    legal: &[Card],
    optional: bool,
) -> Option<Card> {
    ask_as(0, g, c, why, by, legal, optional)
}

/// Seat `seat`'s answer when `c` plays every seat.
fn ask_as(
    seat: u8,
    g: &Game,
    c: &Compiled,
    why: Why,
    by: Option<Card>,
    legal: &[Card],
    optional: bool,
) -> Option<Card> {
    let q = Pick {
        player: seat,
        why,
        by,
        legal: legal.iter().copied().collect(),
        optional,
        target: seat,
    };
    StrategyBots::new(&[c, c]).pick(g, &q)
}

fn parse_err(text: &str) -> StrategyError {
    match strategy::parse(text, "t.dom") {
        Ok(_) => panic!("expected an error for {text:?}"),
        Err(e) => e,
    }
}

// ---------------------------------------------------------------------------
// The condition vocabulary

/// p0 owns 3 Copper, Silver, Gold, Smithy, Witch, Militia, Estate, Province;
/// p1 owns Duchy, Curse, 2 Witch, Copper.
fn vocabulary_state() -> (Kingdom, Game) {
    let k = money_kingdom();
    let mut g = blank(&k);
    let p0 = &mut g.players[0];
    fill(&mut p0.hand, &[Copper, Copper, Silver, Smithy, Estate]);
    fill(&mut p0.deck, &[Copper, Gold]);
    fill(&mut p0.discard, &[Province, Witch]);
    fill(&mut p0.play, &[Militia]);
    fill(
        &mut g.players[1].discard,
        &[Duchy, Curse, Witch, Witch, Copper],
    );
    fill(&mut g.trash, &[Copper, Copper, Estate]);
    g.supply[Province as usize] = 3;
    g.supply[Witch as usize] = 0;
    g.supply[Chapel as usize] = 0;
    g.supply[Gardens as usize] = 2;
    g.recount_totals();
    g.turns_taken = [4, 3, 0, 0, 0, 0];
    g.turn.coins = 5;
    g.turn.actions = 2;
    g.turn.buys = 3;
    g.turn.action_plays = 1;
    fill(&mut g.players[1].hand, &[Copper, Copper, Estate, Curse]);
    g.turn_gained = [2, 1, 0, 0, 0, 0, 0, 0];
    g.turn_bought = 1;
    (k, g)
}

#[test]
fn every_condition_of_the_vocabulary() {
    let (k, g) = vocabulary_state();
    let cases: &[(&str, i32)] = &[
        ("coins", 5),
        ("actions", 2),
        ("buys", 3),
        ("turn", 4),
        ("cards", 10),
        ("total_money", 10),
        ("money_density", 100),
        ("hand_size", 5),
        ("hand_money", 4),
        ("draw_pile_size", 2),
        ("discard_size", 2),
        ("empty_piles", 2),
        ("gains_to_end", 2),
        ("vp", 7),
        ("vp_lead", 5),
        ("opp_vp", 2),
        ("players", 2),
        ("action_plays", 1),
        ("opp_hand_size", 4),
        ("gained_this_turn", 2),
        ("bought_this_turn", 1),
        // Terminal: Smithy, Witch, Militia (no +Action in the table).
        ("count(Terminal)", 3),
        ("hand(Terminal)", 1),
        ("in_play(Terminals)", 1),
        ("opp(Terminal)", 2),
        ("count(Copper)", 3),
        ("count(Action)", 3),
        ("count(Treasures)", 5),
        ("count(Victory)", 2),
        ("count(Curse)", 0),
        ("hand(Copper)", 2),
        ("hand(Treasure)", 3),
        ("in_play(Militia)", 1),
        ("in_play(Attack)", 1),
        ("draw_pile(Gold)", 1),
        ("discard_pile(Victory)", 1),
        ("supply(Province)", 3),
        ("supply(Treasure)", 46 + 40 + 30),
        ("supply(Witch)", 0),
        ("trashed(Copper)", 2),
        ("trashed(Victory)", 1),
        ("opp(Witch)", 2),
        ("opp_total(Witch)", 2),
        ("opp(Action)", 2),
        ("opp(Curse)", 1),
        ("cost(Province)", 8),
        ("cost(Throne Room)", 4),
        // Arithmetic and logic.
        ("7 / 2", 3),
        ("7 % 3", 1),
        ("1 / 0", 0),
        ("-3 + 1", -2),
        ("2 * (3 + 4)", 14),
        ("2 + 3 * 4 - 1", 13),
        ("1 < 2 and 2 < 1", 0),
        ("not (1 < 2) or 3 = 3", 1),
        ("2 >= 2 and 2 <= 2 and 2 == 2 and 1 != 2 and 3 > 2", 1),
        ("yes and not no", 1),
        ("coins >= 5 and supply(Province) <= 3", 1),
    ];
    for &(e, want) in cases {
        let got = strategy::evaluate(e, &k, &g, 0).unwrap_or_else(|x| panic!("{e}: {x}"));
        assert_eq!(got, want, "{e}");
    }
    // From p1's point of view.
    assert_eq!(strategy::evaluate("vp_lead", &k, &g, 1).unwrap(), -5);
    assert_eq!(strategy::evaluate("opp(Copper)", &k, &g, 1).unwrap(), 3);
    assert_eq!(strategy::evaluate("turn", &k, &g, 1).unwrap(), 3);
    assert_eq!(strategy::evaluate("opp_hand_size", &k, &g, 1).unwrap(), 5);
    assert_eq!(
        strategy::evaluate("gained_this_turn", &k, &g, 1).unwrap(),
        1
    );
}

/// `would_buy`, `buy_value`, `buy_cost` ask the bot's own buy list with
/// another amount of coins (its conditions on `coins` see that amount);
/// `card(X)` names a card for comparisons; `best_hand_money(N)`, `aside(X)`,
/// `if … then … else …` and conditions used as numbers.
#[test]
fn buy_aware_expressions_and_conditional_numbers() {
    let (k, mut g) = vocabulary_state();
    let st = strategy::parse(
        "buy:\n Province\n Gold if coins >= 7\n Smithy if supply(Smithy) > 0\n Silver",
        "t.dom",
    )
    .unwrap();
    fill(&mut g.players[0].aside, &[Gold, Estate]);
    let cases: &[(&str, i32)] = &[
        ("would_buy(8) == card(Province)", 1),
        ("would_buy(6) == card(Smithy)", 1),
        // `coins` in the list reads the amount asked about, not the 5 held.
        ("would_buy(7) == card(Gold)", 1),
        ("would_buy(3) == card(Silver)", 1),
        ("would_buy(2)", 0),
        ("would_buy(4) == would_buy(5)", 1),
        ("would_buy(coins - 1) == would_buy(coins)", 1),
        ("would_buy(coins + 2) != would_buy(coins)", 1),
        ("buy_value(8)", 4),
        ("buy_value(7)", 3),
        ("buy_value(4)", 2),
        ("buy_value(3)", 1),
        ("buy_value(1)", 0),
        ("buy_cost(7)", 6),
        ("buy_cost(-5)", 0),
        // Above $24 counts as $24.
        ("would_buy(1000) == card(Province)", 1),
        ("card(Copper) != card(Gold)", 1),
        // Hand: Copper, Copper, Silver (Smithy, Estate).
        ("best_hand_money(1)", 2),
        ("best_hand_money(2)", 3),
        ("best_hand_money(hand_size - 2)", 4),
        ("best_hand_money(0)", 0),
        ("best_hand_money(-3)", 0),
        ("aside(Gold) + aside(Victory)", 2),
        ("aside(Copper)", 0),
        ("if coins >= 5 then 10 else 20", 10),
        ("if coins > 5 then 10 else 20", 20),
        ("1 + if coins > 5 then 10 else 20 * 2", 41),
        ("(if yes then 1 else 2) + 1", 2),
        ("if coins > 5 then yes else coins = 5", 1),
        ("(coins >= 5) * 3 + (coins > 5)", 3),
        ("2 * (1 < 2 and 2 < 3)", 2),
        (
            "if would_buy(coins + 3) == card(Province) then buy_cost(coins + 3) else -1",
            8,
        ),
    ];
    for &(e, want) in cases {
        let got = strategy::evaluate_for(e, &st, &k, &g, 0).unwrap_or_else(|x| panic!("{e}: {x}"));
        assert_eq!(got, want, "{e}");
    }
    // A bot with no buy list buys nothing, whatever the amount.
    assert_eq!(
        strategy::evaluate("would_buy(8) == card(Copper)", &k, &g, 0).unwrap(),
        1
    );
    let none = strategy::parse("play: Smithy", "t.dom").unwrap();
    assert_eq!(
        strategy::evaluate_for("would_buy(8) + buy_value(8)", &none, &k, &g, 0).unwrap(),
        0
    );
    // Every kind of condition takes them: a play entry, a trash entry, an option.
    let bot = compile_text(
        "buy: Province, Gold, Silver\n\
         play: Smithy if would_buy(coins + hand_money) != card(Province)\n\
         trash: Copper if would_buy(coins + hand_money - 1) == would_buy(coins + hand_money)\n\
         Chapel trash: Estate if if gains_to_end > 3 then yes else no\n\
         Moat reveal: buy_value(hand_money) < 3",
        &k,
    );
    // Coins 5 + hand 4 = $9 buys a Province: Smithy is not played.
    assert_eq!(ask(&g, &bot, Why::PlayAction, None, &[Smithy], true), None);
    g.turn.coins = 0;
    assert_eq!(
        ask(&g, &bot, Why::PlayAction, None, &[Smithy], true),
        Some(Smithy)
    );
    // $4 buys Silver, and so does $3: a Copper may go; at $6 (Gold) not.
    assert_eq!(
        ask(&g, &bot, Why::Trash, None, &[Copper], true),
        Some(Copper)
    );
    g.turn.coins = 2;
    assert_eq!(ask(&g, &bot, Why::Trash, None, &[Copper], true), None);
}

/// The buy functions ask the buy list: inside it they are refused (they
/// would ask themselves); malformed uses are parse errors.
#[test]
fn buy_aware_expression_errors() {
    let k = money_kingdom();
    let st = strategy::parse(
        "buy:\n Gold if would_buy(coins) == card(Gold)\n Silver",
        "t.dom",
    )
    .unwrap();
    let e = st.compile(&k).unwrap_err();
    assert!(e.msg.contains("cannot be used in it"), "{e}");
    assert_eq!((e.line, e.col), (2, 2), "{e}");
    for (text, want) in [
        (
            "play: Smithy if would_buy > 2",
            "needs a number in parentheses",
        ),
        ("play: Smithy if would_buy(coins > 2", "expected ')'"),
        (
            "play: Smithy if card(Treasure) > 2",
            "card() needs a card, not a type",
        ),
        ("play: Smithy if (if coins > 2 then 1) > 0", "'else'"),
        (
            "play: Smithy if (if coins then 1 else 2) > 0",
            "expected a condition here",
        ),
        ("play: Smithy if if coins > 2 else 1", "'then'"),
        (
            "play: Smithy if would_bye(3) > 1",
            "did you mean 'would_buy'",
        ),
    ] {
        let e = parse_err(text);
        assert!(e.msg.contains(want), "{text}: {e}");
    }
    // A condition is a number (1 or 0) where one is wanted (this was an
    // error, "expected a number here", before conditions counted as 0/1).
    assert!(strategy::parse("buy: Gold if coins + (1 < 2) > 0", "t.dom").is_ok());
    // A number where a condition is wanted stays an error.
    assert!(parse_err("play: Smithy if coins + 1")
        .msg
        .contains("expected a condition"));
}

#[test]
fn gains_to_end_counts_provinces_or_smallest_piles() {
    let k = money_kingdom();
    let mut g = blank(&k);
    g.recount_totals();
    // Nothing empty: the three smallest piles are 8 + 8 + 8 (Victory piles),
    // more than the 8 Provinces.
    assert_eq!(strategy::evaluate("gains_to_end", &k, &g, 0).unwrap(), 8);
    g.supply[Smithy as usize] = 1;
    g.supply[Witch as usize] = 2;
    g.supply[Chapel as usize] = 3;
    g.recount_totals();
    assert_eq!(strategy::evaluate("gains_to_end", &k, &g, 0).unwrap(), 6);
    g.supply[Smithy as usize] = 0;
    g.recount_totals();
    assert_eq!(strategy::evaluate("gains_to_end", &k, &g, 0).unwrap(), 5);
}

// ---------------------------------------------------------------------------
// Parser: every construct

#[test]
fn every_construct_parses() {
    let text = "\
# a comment line
name: Everything   # trailing comment
safe_ending: off
penultimate_province: on

buy:
    Province if total_money >= 18
    Throne Room max 2 if hand(Action) >= 2 or not (coins < 4)
    Copper keep 3
    none if turn < 2
    Victory if gains_to_end <= 2
    Gold, Silver if coins <= 5
gain: Gold, Silver
play:
  Village
  Smithy
treasures: Gold, Silver, Copper
trash: Curse, Estate
discard: Victory, Curse
topdeck: Estate
Chancellor discard_deck: count(Copper) > 4
Moat reveal: no
Throne Room play:
    Smithy
Library set_aside: Action if actions = 0
";
    let s = strategy::parse(text, "t.dom").unwrap();
    assert_eq!(s.name, "Everything");
    assert!(!s.safe_ending && s.penultimate_province);
    assert_eq!(s.list(strategy::ListKind::Buy).unwrap().len(), 7);
    for l in strategy::ListKind::ALL {
        assert!(s.has_list(l), "{l:?}");
    }
    let buy = s.list(strategy::ListKind::Buy).unwrap();
    assert_eq!(buy[1].target, Some(strategy::Subject::Card(ThroneRoom)));
    assert_eq!((buy[1].pos.line, buy[1].pos.col), (8, 5));
    assert_eq!(buy[3].target, None);
    assert_eq!(buy[6].pos.col, 11);
    let k = engine_kingdom();
    let (_, w) = s.compile(&k).unwrap();
    // Chancellor and Library are not in this kingdom: their options are
    // reported and ignored.
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(w
        .iter()
        .any(|w| w.starts_with("t.dom:21:1: warning: Chancellor")));
    // Names: forgiving spelling of cards, file stem as default name.
    let s = strategy::parse("buy: throne_room, COUNCILROOM", "dir/my_bot.dom").unwrap();
    assert_eq!(s.name, "my_bot");
}

#[test]
fn every_error_has_position_message_and_suggestion() {
    // (text, line, col, width, message fragment)
    let cases: &[(&str, usize, usize, usize, &str)] = &[
        (
            "buy:\n  Smithee\n",
            2,
            3,
            7,
            "unknown card or type 'Smithee' (did you mean 'Smithy'?)",
        ),
        (
            "buy:\n  Gold if cions >= 6",
            2,
            11,
            5,
            "unknown name 'cions' (did you mean 'coins'?)",
        ),
        (
            "by:\n",
            1,
            1,
            2,
            "unknown setting or list 'by' (did you mean 'buy'?)",
        ),
        (
            "Chapel trsh:\n",
            1,
            8,
            4,
            "Chapel has no option 'trsh' (did you mean 'trash'?) (its options: trash)",
        ),
        (
            "Smithy draw:\n",
            1,
            1,
            11,
            "Smithy asks no questions, so it has no options",
        ),
        (
            "Chapl trash:\n",
            1,
            1,
            5,
            "unknown card 'Chapl' (did you mean 'Chapel'?)",
        ),
        ("Chapel:\n", 1, 1, 6, "needs an option name"),
        ("Gold\n", 1, 1, 4, "'Gold' is outside any list"),
        (
            "buy: Gold\n    Silver\n",
            2,
            5,
            6,
            "the list on line 1 is written on its header line, which ends it",
        ),
        ("buy:\n Gold if coins", 2, 10, 5, "expected a condition"),
        (
            "buy: Gold if (1 < 2) and 3",
            1,
            26,
            1,
            "expected a condition here",
        ),
        ("buy: Gold if count(Gold >= 1", 1, 20, 1, "missing ')'"),
        (
            "buy: Gold if count >= 1",
            1,
            14,
            5,
            "'count' needs a card or type in parentheses",
        ),
        (
            "buy: Gold if coins(Gold) > 1",
            1,
            14,
            5,
            "'coins' takes no argument",
        ),
        (
            "buy: Gold if cost(Action) > 1",
            1,
            19,
            6,
            "cost() needs a card, not a type",
        ),
        (
            "buy: Gold if money_density > 1.2",
            1,
            30,
            3,
            "'1.2' is not a whole number",
        ),
        (
            "buy: Gold\nbuy: Silver",
            2,
            1,
            3,
            "'buy' given twice (first on line 1)",
        ),
        (
            "name: a\nname: b",
            2,
            1,
            4,
            "'name' given twice (first on line 1)",
        ),
        (
            "safety: maybe",
            1,
            9,
            5,
            "expected 'on' or 'off', found 'maybe'",
        ),
        (
            "Chancellor discard_deck:",
            1,
            25,
            1,
            "needs a value on the same line",
        ),
        (
            "Chancellor discard_deck: 3",
            1,
            26,
            1,
            "expected a condition",
        ),
        (
            "Chancellor discard_deck: yes no",
            1,
            30,
            2,
            "expected the end of the line, found 'no'",
        ),
        ("buy: Gold if coins > 6 )", 1, 24, 1, "found ')'"),
        (
            "buy: Gold max x",
            1,
            15,
            1,
            "expected a whole number after max/keep",
        ),
        ("buy: none max 2", 1, 11, 4, "'none' takes no count limit"),
        (
            "buy: Gold if Gold > 1",
            1,
            14,
            4,
            "'Gold' is a card; use count(Gold)",
        ),
        ("name:", 1, 6, 1, "'name:' needs a value"),
        (
            "buy: Gold if count(Smithee) > 0",
            1,
            20,
            7,
            "unknown card or type 'Smithee' (did you mean 'Smithy'?)",
        ),
        (
            "buy: Gold if count(Actoin) > 0",
            1,
            20,
            6,
            "(did you mean 'Action'?)",
        ),
        (
            "buy: Gold if count() > 0",
            1,
            20,
            1,
            "'count' needs a card or type",
        ),
        (
            "buy: Gold if",
            1,
            13,
            1,
            "expected a number, a name or '(', found end of line",
        ),
        ("buy: Gold if coins >= ", 1, 23, 1, "found end of line"),
        ("buy: Gold if (coins > 1", 1, 24, 1, "expected ')'"),
        ("buy: Gold,", 1, 11, 1, "expected a card name"),
        (
            "buy: Gold Silver",
            1,
            6,
            11,
            "unknown card or type 'Gold Silver'",
        ),
        (
            "buy: Gold if coins > 6 Silver",
            1,
            24,
            6,
            "expected 'if', 'max', 'keep', ',' or the end of the line",
        ),
    ];
    for &(text, line, col, width, msg) in cases {
        let e = parse_err(text);
        assert!(
            e.msg.contains(msg),
            "{text:?}: message {:?} lacks {msg:?}",
            e.msg
        );
        assert_eq!(
            (e.line, e.col, e.width),
            (line, col, width),
            "{text:?}: {e}"
        );
        assert_eq!(e.file, "t.dom");
    }
    // Nesting is bounded.
    let deep = format!("buy: Gold if {}1{} > 0", "(".repeat(60), ")".repeat(60));
    assert!(parse_err(&deep).msg.contains("nested too deeply"));
}

#[test]
fn error_display_quotes_the_line_and_underlines_the_text() {
    let e = parse_err("buy:\n    Smithee if coins >= 4\n");
    let shown = e.to_string();
    assert_eq!(
        shown,
        "t.dom:2:5: unknown card or type 'Smithee' (did you mean 'Smithy'?)\n  |\n2 |     Smithee if coins >= 4\n  |     ^^^^^^^"
    );
    let _: &dyn std::error::Error = &e;
}

#[test]
fn cards_outside_the_kingdom_are_warnings() {
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
    let s = strategy::parse(
        "buy: Witch, Gold\nChapel trash: Estate\nplay: Smithy",
        "t.dom",
    )
    .unwrap();
    let (c, w) = s.compile(&k).unwrap();
    assert_eq!(w.len(), 2, "{w:?}");
    assert_eq!(
        w[0],
        "t.dom:1:6: warning: Witch is not in this game; entry ignored"
    );
    assert!(w[1].starts_with("t.dom:2:1: warning: Chapel is not in this game"));
    // The entry is dropped: with $5 it buys nothing (Gold is too expensive).
    let g = blank(&k);
    assert_eq!(
        ask(&g, &c, Why::Buy, None, &[Silver, Smithy, Copper], true),
        None
    );
    let (_, w) = strategy::parse("play: Smithy", "t.dom")
        .unwrap()
        .compile(&k)
        .unwrap();
    assert!(w[0].contains("no 'buy' list"), "{w:?}");
}

// ---------------------------------------------------------------------------
// Per-card options, played through the engine

/// Seat 0 plays `card` from a hand-built state with strategies `s0`, `s1`.
fn play(g: &mut Game, s0: &Compiled, s1: &Compiled, card: Card) {
    g.recount_totals();
    let mut b = StrategyBots::new(&[s0, s1]);
    g.try_play_action(&mut b, card).unwrap();
    assert!(g.fault.is_none(), "{:?}", g.fault);
    g.check_invariants().unwrap();
}

fn sorted(z: &CardVec) -> Vec<Card> {
    let mut v: Vec<Card> = z.iter().collect();
    v.sort();
    v
}

#[test]
fn chancellor_option() {
    let k = question_kingdom();
    for (text, deck_left) in [
        ("buy: Gold", 0),
        ("buy: Gold\nChancellor discard_deck: no", 3),
    ] {
        let mut g = blank(&k);
        fill(&mut g.players[0].hand, &[Chancellor]);
        fill(&mut g.players[0].deck, &[Copper, Copper, Estate]);
        let s = compile_text(text, &k);
        play(&mut g, &s, &s, Chancellor);
        assert_eq!(g.players[0].deck.len(), deck_left, "{text}");
        assert_eq!(g.turn.coins, 2);
    }
}

#[test]
fn library_set_aside_option() {
    let k = question_kingdom();
    for (text, hand, moat_discarded) in [
        ("buy: Gold", 5, true),
        (
            "buy: Gold\nLibrary set_aside: Moat if actions > 0",
            6,
            false,
        ),
        ("buy: Gold\nLibrary set_aside: Action", 5, true),
    ] {
        let mut g = blank(&k);
        fill(&mut g.players[0].hand, &[Library]);
        fill(
            &mut g.players[0].deck,
            &[Copper, Copper, Copper, Copper, Copper, Moat],
        );
        let s = compile_text(text, &k);
        play(&mut g, &s, &s, Library);
        assert_eq!(g.players[0].hand.len(), hand, "{text}");
        assert_eq!(
            g.players[0].discard.contains(Moat),
            moat_discarded,
            "{text}"
        );
    }
}

#[test]
fn spy_options_own_and_opponent() {
    let k = question_kingdom();
    for (text, p0_top, p1_top) in [
        ("buy: Gold", Some(Gold), Some(Estate)),
        (
            "buy: Gold\nSpy discard_mine: Gold\nSpy discard_theirs: Victory",
            Some(Province),
            Some(Silver),
        ),
    ] {
        let mut g = blank(&k);
        fill(&mut g.players[0].hand, &[Spy]);
        fill(&mut g.players[0].deck, &[Province, Gold, Copper]);
        fill(&mut g.players[1].deck, &[Silver, Estate]);
        let s = compile_text(text, &k);
        play(&mut g, &s, &s, Spy);
        assert_eq!(g.players[0].deck.last(), p0_top, "{text}");
        assert_eq!(g.players[1].deck.last(), p1_top, "{text}");
    }
}

#[test]
fn thief_options_trash_and_gain() {
    let k = question_kingdom();
    // Default: trash the most expensive, gain everything but Copper.
    let mut g = blank(&k);
    fill(&mut g.players[0].hand, &[Thief]);
    fill(&mut g.players[1].deck, &[Estate, Copper, Silver]);
    let s = compile_text("buy: Gold", &k);
    play(&mut g, &s, &s, Thief);
    assert_eq!(sorted(&g.players[0].discard), vec![Silver]);
    assert!(g.trash.is_empty());
    assert_eq!(sorted(&g.players[1].discard), vec![Copper]);
    // Options: trash the Copper, gain nothing.
    let mut g = blank(&k);
    fill(&mut g.players[0].hand, &[Thief]);
    fill(&mut g.players[1].deck, &[Estate, Copper, Silver]);
    let s = compile_text("buy: Gold\nThief trash: Copper\nThief gain: none", &k);
    play(&mut g, &s, &s, Thief);
    assert!(g.players[0].discard.is_empty());
    assert_eq!(sorted(&g.trash), vec![Copper]);
}

#[test]
fn throne_room_target_option_and_play_list_fallback() {
    let k = engine_kingdom();
    for (text, actions_left) in [
        ("buy: Gold", 0),                            // engine default: Smithy
        ("buy: Gold\nThrone Room play: Village", 4), // option
        ("buy: Gold\nplay: Village, Smithy", 4),     // general play list
        ("buy: Gold\nplay: Village\nThrone Room play: Smithy", 0),
    ] {
        let mut g = blank(&k);
        fill(&mut g.players[0].hand, &[ThroneRoom, Smithy, Village]);
        fill(&mut g.players[0].deck, &[Copper; 8]);
        let s = compile_text(text, &k);
        play(&mut g, &s, &s, ThroneRoom);
        assert_eq!(g.turn.actions, actions_left, "{text}");
    }
}

#[test]
fn mine_and_remodel_options() {
    let k = question_kingdom();
    let cases: &[(&str, Card, &[Card], Card, Card)] = &[
        // (strategy, card, hand besides it, expected trashed, expected gained)
        (
            "buy: Province, Gold, Silver",
            Mine,
            &[Copper, Silver],
            Silver,
            Gold,
        ),
        (
            "buy: Province, Gold, Silver\nMine trash: Copper",
            Mine,
            &[Copper, Silver],
            Copper,
            Silver,
        ),
        (
            "buy: Gold\nMine trash: Copper\nMine gain: Copper",
            Mine,
            &[Copper, Silver],
            Copper,
            Copper,
        ),
        (
            "buy: Gold, Silver",
            Remodel,
            &[Gold, Estate],
            Estate,
            Silver,
        ),
        (
            "buy: Gold\nRemodel trash: Gold\nRemodel gain: Province",
            Remodel,
            &[Gold, Estate],
            Gold,
            Province,
        ),
        (
            "buy: Gold\ntrash: Gold\ngain: Duchy",
            Remodel,
            &[Gold, Estate],
            Gold,
            Duchy,
        ),
    ];
    for &(text, card, rest, trashed, gained) in cases {
        let mut g = blank(&k);
        let mut hand = vec![card];
        hand.extend_from_slice(rest);
        fill(&mut g.players[0].hand, &hand);
        let s = compile_text(text, &k);
        play(&mut g, &s, &s, card);
        assert_eq!(sorted(&g.trash), vec![trashed], "{text}");
        let got = if card == Mine {
            g.players[0].hand.contains(gained)
        } else {
            g.players[0].discard.contains(gained)
        };
        assert!(got, "{text}: gained {gained}");
    }
}

#[test]
fn moat_reveal_and_militia_discard_options() {
    let k = engine_kingdom();
    let attacker = compile_text("buy: Gold", &k);
    for (text, hand) in [
        ("buy: Gold", vec![Copper, Copper, Copper, Copper, Moat]),
        (
            "buy: Gold\nMoat reveal: no\nMilitia discard: Moat",
            vec![Copper, Copper, Copper],
        ),
        (
            "buy: Gold\nMoat reveal: no\ndiscard: Copper",
            vec![Copper, Copper, Moat],
        ),
        // Not revealed; the engine's default discards the cheapest (Copper).
        (
            "buy: Gold\nMoat reveal: count(Curse) > 0",
            vec![Copper, Copper, Moat],
        ),
    ] {
        let mut g = blank(&k);
        fill(&mut g.players[0].hand, &[Militia]);
        fill(
            &mut g.players[1].hand,
            &[Moat, Copper, Copper, Copper, Copper],
        );
        let victim = compile_text(text, &k);
        play(&mut g, &attacker, &victim, Militia);
        assert_eq!(sorted(&g.players[1].hand), hand, "{text}");
    }
}

#[test]
fn bureaucrat_topdeck_option() {
    let k = question_kingdom();
    let attacker = compile_text("buy: Gold", &k);
    for (text, top) in [
        ("buy: Gold", Estate),
        ("buy: Gold\nBureaucrat topdeck: Province", Province),
        ("buy: Gold\ntopdeck: Province", Province),
    ] {
        let mut g = blank(&k);
        fill(&mut g.players[0].hand, &[Bureaucrat]);
        fill(&mut g.players[1].hand, &[Estate, Province, Copper]);
        let victim = compile_text(text, &k);
        play(&mut g, &attacker, &victim, Bureaucrat);
        assert_eq!(g.players[1].deck.last(), Some(top), "{text}");
        assert_eq!(g.players[0].deck.last(), Some(Silver));
    }
}

#[test]
fn cellar_and_chapel_defaults_and_options() {
    let k = question_kingdom();
    let mut g = blank(&k);
    fill(&mut g.players[0].hand, &[Cellar, Estate, Copper, Curse]);
    fill(&mut g.players[0].deck, &[Silver, Silver, Silver]);
    let s = compile_text("buy: Gold", &k);
    play(&mut g, &s, &s, Cellar);
    assert_eq!(sorted(&g.players[0].hand), vec![Copper, Silver, Silver]);
    let mut g = blank(&k);
    fill(&mut g.players[0].hand, &[Cellar, Estate, Copper]);
    fill(&mut g.players[0].deck, &[Silver, Silver, Silver]);
    let s = compile_text("buy: Gold\nCellar discard: Copper", &k);
    play(&mut g, &s, &s, Cellar);
    assert_eq!(sorted(&g.players[0].hand), vec![Silver, Estate]);

    let k = engine_kingdom();
    for (text, trashed) in [
        ("buy: Gold", vec![Copper, Estate]),
        ("buy: Gold\ntrash: Estate", vec![Estate]),
        (
            "buy: Gold\ntrash: Estate\nChapel trash: Copper, Silver",
            vec![Copper, Copper, Silver],
        ),
    ] {
        let mut g = blank(&k);
        fill(
            &mut g.players[0].hand,
            &[Chapel, Estate, Copper, Copper, Silver],
        );
        fill(&mut g.players[0].deck, &[Gold]);
        let s = compile_text(text, &k);
        play(&mut g, &s, &s, Chapel);
        assert_eq!(sorted(&g.trash), trashed, "{text}");
    }
}

#[test]
fn feast_and_workshop_gain_fall_back_to_gain_then_buy() {
    let k = question_kingdom();
    for (text, gained) in [
        ("buy: Province, Duchy, Silver", Duchy),
        ("buy: Province, Duchy\ngain: Silver", Silver),
        ("buy: Province\ngain: Silver\nFeast gain: Spy", Spy),
        // Engine default: the most expensive ($5; ties go to table order).
        ("buy: Province", Duchy),
    ] {
        let mut g = blank(&k);
        fill(&mut g.players[0].hand, &[Feast]);
        let s = compile_text(text, &k);
        play(&mut g, &s, &s, Feast);
        assert_eq!(sorted(&g.players[0].discard), vec![gained], "{text}");
        assert_eq!(sorted(&g.trash), vec![Feast]);
    }
}

#[test]
fn play_and_treasure_lists_and_defaults() {
    let k = engine_kingdom();
    let g = blank(&k);
    let none = compile_text("buy: Gold", &k);
    let listed = compile_text(
        "buy: Gold\nplay: Smithy if actions > 1, Village\ntreasures: Gold, none",
        &k,
    );
    // No play list: villages first, then the most expensive.
    assert_eq!(
        ask(&g, &none, Why::PlayAction, None, &[Smithy, Village], true),
        Some(Village)
    );
    assert_eq!(
        ask(&g, &none, Why::PlayAction, None, &[Smithy, Chapel], true),
        Some(Smithy)
    );
    // Listed: conditions, and nothing unlisted.
    assert_eq!(
        ask(&g, &listed, Why::PlayAction, None, &[Smithy, Village], true),
        Some(Village)
    );
    assert_eq!(
        ask(&g, &listed, Why::PlayAction, None, &[Chapel], true),
        None
    );
    // Treasures: all by default; the list and its `none` stop.
    assert_eq!(
        ask(&g, &none, Why::PlayTreasure, None, &[Copper, Gold], true),
        Some(Copper)
    );
    assert_eq!(
        ask(&g, &listed, Why::PlayTreasure, None, &[Copper, Gold], true),
        Some(Gold)
    );
    assert_eq!(
        ask(
            &g,
            &listed,
            Why::PlayTreasure,
            None,
            &[Copper, Silver],
            true
        ),
        None
    );
    // Type entries take the engine's choice among the type.
    let typed = compile_text("buy: Gold\ndiscard: Victory\ngain: Action", &k);
    assert_eq!(
        ask(
            &g,
            &typed,
            Why::Discard,
            None,
            &[Copper, Province, Estate],
            false
        ),
        Some(Estate)
    );
    assert_eq!(
        ask(
            &g,
            &typed,
            Why::Gain,
            None,
            &[Silver, Smithy, Market],
            false
        ),
        Some(Market)
    );
    // A mandatory question nothing answers gets the engine default.
    assert_eq!(
        ask(&g, &listed, Why::Trash, None, &[Copper, Estate], false),
        Some(Estate)
    );
    // Unknown questions: engine defaults.
    let mut b = StrategyBots::new(&[&none, &none]);
    let yn = YesNo {
        player: 0,
        by: Smithy,
        card: None,
        target: 0,
    };
    assert!(!b.yes_no(&g, &yn));
    let ch = domsim::engine::Choose {
        player: 0,
        by: Smithy,
        n: 3,
    };
    assert_eq!(b.choose(&g, &ch), 0);
    assert_eq!(ask(&g, &none, Why::React, None, &[Moat], true), Some(Moat));
}

// ---------------------------------------------------------------------------
// Safety rules

/// p0 owns `mine`, p1 owns `theirs` (in their discard piles).
fn vp_state(k: &Kingdom, mine: &[Card], theirs: &[Card], provinces: u8) -> Game {
    let mut g = blank(k);
    fill(&mut g.players[0].discard, mine);
    fill(&mut g.players[1].discard, theirs);
    g.supply[Province as usize] = provinces;
    g.recount_totals();
    g.turns_taken = [5, 5, 0, 0, 0, 0];
    g
}

const BUYABLE: &[Card] = &[Province, Duchy, Gold, Silver, Estate];

#[test]
fn safe_ending_does_not_take_the_last_province_when_it_loses() {
    let k = money_kingdom();
    let safe = compile_text("buy: Province, Duchy", &k);
    let unsafe_ = compile_text("safety: off\nbuy: Province, Duchy", &k);
    // Behind by more than 6: the last Province would lose.
    let g = vp_state(&k, &[Estate], &[Province, Province], 1);
    assert_eq!(ask(&g, &safe, Why::Buy, None, BUYABLE, true), Some(Duchy));
    assert_eq!(
        ask(&g, &unsafe_, Why::Buy, None, BUYABLE, true),
        Some(Province)
    );
    // Winning with it: take it.
    let g = vp_state(&k, &[Province, Estate], &[Province], 1);
    assert_eq!(
        ask(&g, &safe, Why::Buy, None, BUYABLE, true),
        Some(Province)
    );
    // A tie that the opponent wins on turns (he took fewer): refuse; a tie
    // on equal turns (shared win): take it.
    let mut g = vp_state(&k, &[Province], &[Province, Province], 1);
    g.turns_taken = [5, 4, 0, 0, 0, 0];
    assert_eq!(ask(&g, &safe, Why::Buy, None, BUYABLE, true), Some(Duchy));
    g.turns_taken = [5, 5, 0, 0, 0, 0];
    assert_eq!(
        ask(&g, &safe, Why::Buy, None, BUYABLE, true),
        Some(Province)
    );
    // Gains (Workshop-like) are guarded too.
    let g = vp_state(&k, &[Estate], &[Province, Province], 1);
    assert_eq!(
        ask(
            &g,
            &safe,
            Why::Gain,
            Some(Workshop),
            &[Province, Duchy],
            false
        ),
        Some(Duchy)
    );
}

#[test]
fn safe_ending_covers_the_third_pile() {
    let k = money_kingdom();
    let safe = compile_text("buy: Duchy, Silver", &k);
    let mut g = vp_state(&k, &[], &[Province, Province], 8);
    g.supply[Witch as usize] = 0;
    g.supply[Chapel as usize] = 0;
    g.supply[Duchy as usize] = 1;
    g.recount_totals();
    assert_eq!(ask(&g, &safe, Why::Buy, None, BUYABLE, true), Some(Silver));
    // Not the ending card while piles are left.
    g.supply[Duchy as usize] = 2;
    assert_eq!(ask(&g, &safe, Why::Buy, None, BUYABLE, true), Some(Duchy));
    // A type entry skips the forbidden card and takes the next of the type.
    let typed = compile_text("buy: Victory", &k);
    g.supply[Duchy as usize] = 1;
    assert_eq!(
        ask(&g, &typed, Why::Buy, None, &[Duchy, Estate, Silver], true),
        Some(Estate)
    );
}

#[test]
fn penultimate_province_rule() {
    let k = money_kingdom();
    let ppr = compile_text("buy: Province, Duchy", &k);
    let off = compile_text("penultimate_province: off\nbuy: Province, Duchy", &k);
    // Behind: after my Province (7 VP) the opponent (6) could take the last
    // one and win 12-7.
    let g = vp_state(&k, &[Estate], &[Province], 2);
    assert_eq!(ask(&g, &ppr, Why::Buy, None, BUYABLE, true), Some(Duchy));
    assert_eq!(ask(&g, &off, Why::Buy, None, BUYABLE, true), Some(Province));
    // Even: the opponent could at best tie with the last one, which is not
    // a loss: take it (refusing a possible tie deadlocked even positions).
    let g = vp_state(&k, &[Province], &[Province], 2);
    assert_eq!(ask(&g, &ppr, Why::Buy, None, BUYABLE, true), Some(Province));
    // Far enough ahead: take it.
    let g = vp_state(&k, &[Province, Province, Estate], &[Province], 2);
    assert_eq!(ask(&g, &ppr, Why::Buy, None, BUYABLE, true), Some(Province));
    // Not the penultimate one: no effect.
    let g = vp_state(&k, &[Estate], &[Province], 3);
    assert_eq!(ask(&g, &ppr, Why::Buy, None, BUYABLE, true), Some(Province));
}

/// With two Provinces left, a seat takes the penultimate one exactly when
/// its VP are at least its opponent's: afterwards the opponent's last
/// Province can at best tie. So in an even position both seats take it and
/// the rule can never block both; only the trailing seat holds back.
#[test]
fn penultimate_province_rule_holds_back_only_the_trailing_seat() {
    let k = money_kingdom();
    let ppr = compile_text("buy: Province, Duchy", &k);
    for (mine, theirs) in [(3usize, 3usize), (2, 2), (4, 3), (3, 4), (0, 1)] {
        let mut g = blank(&k);
        fill(&mut g.players[0].discard, &vec![Duchy; mine]);
        fill(&mut g.players[1].discard, &vec![Duchy; theirs]);
        g.supply[Province as usize] = 2;
        g.recount_totals();
        // Seat 0 to play its 6th turn (seat 1 has had 5), then seat 1 its 6th.
        for (seat, turns, lead) in [
            (0u8, [6u16, 5], mine >= theirs),
            (1, [6, 6], theirs >= mine),
        ] {
            g.active = seat;
            g.turns_taken[..2].copy_from_slice(&turns);
            let want = if lead { Province } else { Duchy };
            assert_eq!(
                ask_as(seat, &g, &ppr, Why::Buy, None, BUYABLE, true),
                Some(want),
                "seat {seat}, {mine} vs {theirs} Duchies"
            );
        }
    }
}

/// Regression: Smithy Big Money vs Big Money Ultimate used to stall with two
/// Provinces left and equal scores (both refusing the penultimate one) until
/// a third pile ran out: 27.7 turns a game on average, 23% ties.
#[test]
fn smithy_vs_bmu_games_do_not_stall_on_the_penultimate_province() {
    let k = domsim::dominion::presets::Preset::find("First Game")
        .and_then(|p| p.kingdom(2))
        .unwrap();
    let (a, b) = (
        compile_file("smithy_big_money.dom", &k),
        compile_file("big_money_ultimate.dom", &k),
    );
    let mut g = Game::new(&k, 1, 0);
    let (mut turns, mut longest, mut ties) = (0u64, 0u16, 0u32);
    const N: u64 = 2000;
    for i in 0..N {
        g.reset(&k, 1, i);
        let seats = if i % 2 == 0 { [&a, &b] } else { [&b, &a] };
        let o = g.play_game(&mut StrategyBots::new(&seats));
        assert!(!o.capped && g.fault.is_none());
        turns += o.turns[0] as u64;
        longest = longest.max(o.turns[0]);
        ties += (o.winner_count() > 1) as u32;
    }
    // Before the fix: 27.7 turns and 23% ties (100,000 games); after: 23.4
    // and 9%. The rest of the length is real play: a player too far behind
    // to catch up refuses to end the game losing, and the leader's greened
    // deck needs several turns to reach $8.
    let mean = turns as f64 / N as f64;
    assert!(mean < 25.0, "mean game length {mean:.2} turns");
    assert!(ties < N as u32 * 12 / 100, "{ties} ties in {N} games");
    assert!(longest < 100, "longest game {longest} turns");
}

// ---------------------------------------------------------------------------
// extends

fn temp_dir(tag: &str) -> crate::cli::Scratch {
    crate::cli::scratch(&format!("strategy-{tag}"))
}

#[test]
fn extends_overrides_parts_and_keeps_the_rest() {
    let d = temp_dir("extends");
    std::fs::create_dir_all(d.join("lib")).unwrap();
    std::fs::write(
        d.join("lib/base.dom"),
        "name: Base\nsafety: off\nbuy: Gold, Silver\ntrash: Estate\nChancellor discard_deck: no\n",
    )
    .unwrap();
    std::fs::write(
        d.join("child.dom"),
        "extends: lib/base.dom\nbuy: Province, Gold\nChancellor discard_deck: yes\n",
    )
    .unwrap();
    let base = strategy::load(&d.join("lib/base.dom")).unwrap();
    let child = strategy::load(&d.join("child.dom")).unwrap();
    assert_eq!(base.name, "Base");
    assert_eq!(child.name, "child", "names are not inherited");
    assert_eq!(child.files.len(), 2);
    assert_ne!(child.source_hash, base.source_hash);
    assert_eq!(
        child.source_hash,
        strategy::load(&d.join("child.dom")).unwrap().source_hash
    );
    assert_eq!(child.list(strategy::ListKind::Buy).unwrap().len(), 2);
    assert_eq!(child.list(strategy::ListKind::Trash).unwrap().len(), 1);
    assert!(!child.safe_ending && !child.penultimate_province);
    let k = question_kingdom();
    let (c, _) = child.compile(&k).unwrap();
    let mut g = blank(&k);
    fill(&mut g.players[0].hand, &[Chancellor]);
    fill(&mut g.players[0].deck, &[Copper]);
    play(&mut g, &c, &c, Chancellor);
    assert!(g.players[0].deck.is_empty(), "the child's option wins");
    // Errors in a base file name the base file.
    std::fs::write(d.join("bad.dom"), "buy: Gold\nbuy: Silver\n").unwrap();
    std::fs::write(d.join("uses_bad.dom"), "extends: bad.dom\n").unwrap();
    let e = strategy::load(&d.join("uses_bad.dom")).unwrap_err();
    assert!(e.file.ends_with("bad.dom") && e.line == 2, "{e}");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn extends_cycles_and_missing_files_are_errors() {
    let d = temp_dir("cycle");
    std::fs::write(d.join("a.dom"), "extends: b.dom\nbuy: Gold\n").unwrap();
    std::fs::write(d.join("b.dom"), "buy: Silver\nextends: a.dom\n").unwrap();
    let e = strategy::load(&d.join("a.dom")).unwrap_err();
    assert!(
        e.msg.contains("extends cycle: a.dom → b.dom → a.dom"),
        "{e}"
    );
    assert!(
        e.file.ends_with("b.dom") && (e.line, e.col) == (2, 10),
        "{e}"
    );
    std::fs::write(d.join("self.dom"), "extends: self.dom\n").unwrap();
    assert!(strategy::load(&d.join("self.dom"))
        .unwrap_err()
        .msg
        .contains("extends cycle"));
    std::fs::write(d.join("m.dom"), "extends: nope.dom\n").unwrap();
    let e = strategy::load(&d.join("m.dom")).unwrap_err();
    assert!(
        e.msg.contains("cannot find 'nope.dom'") && e.line == 1 && e.col == 10,
        "{e}"
    );
    let e = strategy::load(&d.join("absent.dom")).unwrap_err();
    assert!(e.msg.contains("cannot read the strategy file"), "{e}");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn compiled_is_send_and_sync() {
    fn check<T: Clone + Send + Sync>() {}
    check::<Compiled>();
}

/// Wide-margin strength checks (measured ~92% and ~91% over 10,000 games).
#[test]
fn smithy_beats_big_money_and_double_witch_beats_smithy() {
    let k = money_kingdom();
    let bm = compile_file("big_money.dom", &k);
    let smithy = compile_file("smithy_big_money.dom", &k);
    let witch = compile_file("double_witch.dom", &k);
    let s = score(&k, &smithy, &bm, 600, 3);
    assert!(s > 0.75, "Smithy-BM vs BM: {s}");
    let s = score(&k, &witch, &smithy, 600, 4);
    assert!(s > 0.75, "Double Witch vs Smithy-BM: {s}");
}

#[test]
fn readme_documents_every_option_and_name() {
    // The language and base-set options are in docs/STRATEGIES.md; each later
    // card set documents its options in its own file, linked from there.
    let docs = lib_dir().join("../docs/STRATEGIES.md");
    let mut readme = std::fs::read_to_string(docs).unwrap();
    readme += &std::fs::read_to_string(lib_dir().join("INTRIGUE.md")).unwrap();
    readme += &std::fs::read_to_string(lib_dir().join("DARK_AGES.md")).unwrap();
    for o in strategy::options::OPTIONS {
        let head = format!("{} {}", o.card.name(), o.name);
        assert!(readme.contains(&head), "README lacks option '{head}'");
    }
    for (n, _, _) in strategy::options::VARS {
        assert!(
            readme.contains(&format!("`{n}`")),
            "README lacks variable {n}"
        );
    }
    for (n, _, _) in strategy::options::FUNS {
        assert!(
            readme.contains(&format!("`{n}(")),
            "README lacks function {n}"
        );
    }
}

// ---------------------------------------------------------------------------
// Evaluation allocates nothing

// The test binary has one global allocator, the per-thread counter in
// `alloc.rs`.
use crate::alloc as counting_alloc;

#[test]
fn playing_games_with_strategies_allocates_nothing() {
    let k = engine_kingdom();
    let names = [
        "throne_room.dom",
        "village_smithy.dom",
        "chapel.dom",
        "double_witch.dom",
        "militia_big_money.dom",
        "smithy_big_money.dom",
    ];
    let bots: Vec<Compiled> = names.iter().map(|n| compile_file(n, &k)).collect();
    let mut g = Box::new(Game::new(&k, 9, 0));
    // The counter sees allocations of this thread.
    let c0 = counting_alloc::count();
    std::hint::black_box(vec![1u8; 3]);
    assert!(counting_alloc::count() > c0);
    let before = counting_alloc::count();
    for i in 0..60u64 {
        let a = &bots[i as usize % bots.len()];
        let b = &bots[(i as usize / bots.len()) % bots.len()];
        g.reset(&k, 9, i);
        let o = g.play_game(&mut StrategyBots::new(&[a, b]));
        assert!(o.winners != 0 && g.fault.is_none());
    }
    assert_eq!(
        counting_alloc::count() - before,
        0,
        "allocations while playing"
    );
}

#[test]
fn multi_player_games_with_mixed_strategies() {
    for players in [3usize, 4, 6] {
        let k = Kingdom::from_names(players, domsim::bench::ENGINE_KINGDOM).unwrap();
        let names = [
            "double_witch.dom",
            "throne_room.dom",
            "chapel.dom",
            "big_money_ultimate.dom",
        ];
        let bots: Vec<Compiled> = names.iter().map(|n| compile_file(n, &k)).collect();
        let seats: Vec<&Compiled> = (0..players).map(|i| &bots[i % bots.len()]).collect();
        let mut g = Game::new(&k, 5, 0);
        for i in 0..20 {
            g.reset(&k, 5, i);
            let o = g.play_game(&mut StrategyBots::new(&seats));
            assert!(g.fault.is_none(), "{:?}", g.fault);
            assert!(o.winners != 0);
            g.check_invariants().unwrap();
        }
    }
}

/// `gained_this_turn` and `bought_this_turn` count in real play when the
/// kingdom tracks them: at every gain and buy the counters have just gone
/// up by one, and every turn starts from zero. Untracked kingdoms (the
/// default, free for every other run) never count, and compiling a
/// strategy that uses them against one is refused.
#[test]
fn turn_counters_follow_real_play() {
    use domsim::engine::{Choose, Event, Pick, YesNo};
    use domsim::Card;
    struct Watch {
        gained: [u8; 8],
        bought: u8,
        checked: u32,
    }
    impl Bots for Watch {
        fn pick(&mut self, g: &Game, q: &Pick) -> Option<Card> {
            BigMoney.pick(g, q)
        }
        fn play_all_treasures(&mut self, g: &Game, p: u8) -> bool {
            BigMoney.play_all_treasures(g, p)
        }
        fn yes_no(&mut self, g: &Game, q: &YesNo) -> bool {
            BigMoney.yes_no(g, q)
        }
        fn choose(&mut self, g: &Game, q: &Choose) -> u8 {
            BigMoney.choose(g, q)
        }
        fn event(&mut self, g: &Game, e: Event) {
            if !g.kingdom.track_turn {
                assert_eq!((g.turn_gained, g.turn_bought), ([0; 8], 0));
                return;
            }
            match e {
                Event::TurnStart { .. } => {
                    assert_eq!((g.turn_gained, g.turn_bought), ([0; 8], 0));
                    self.gained = [0; 8];
                    self.bought = 0;
                }
                Event::Buy { .. } => {
                    self.bought += 1;
                    assert_eq!(g.turn_bought, self.bought);
                    self.checked += 1;
                }
                Event::Gain { player, .. } => {
                    self.gained[player as usize] += 1;
                    assert_eq!(g.turn_gained, self.gained);
                    self.checked += 1;
                }
                _ => {}
            }
        }
    }
    let mut k = money_kingdom();
    let mut w = Watch {
        gained: [0; 8],
        bought: 0,
        checked: 0,
    };
    for i in 0..10 {
        Game::new(&k, 3, i).play_game(&mut w);
    }
    assert_eq!(w.checked, 0, "untracked");
    let st = strategy::parse("buy:\n  Gold if bought_this_turn = 0\n  Silver\n", "t.dom").unwrap();
    assert!(st.uses_turn_counters());
    assert!(st.compile(&k).is_err(), "refused on an untracked kingdom");
    k.track_turn = true;
    assert!(st.compile(&k).is_ok());
    for i in 0..20 {
        Game::new(&k, 3, i).play_game(&mut w);
    }
    assert!(w.checked > 500, "{}", w.checked);
}

// ---------------------------------------------------------------------------
// Audit of the strategy language (D1–D8)

/// A kingdom of just these piles (and the basic cards).
fn piles(names: &[&str]) -> Kingdom {
    let cards: Vec<Card> = names.iter().map(|n| Card::from_name(n).unwrap()).collect();
    Kingdom::with_piles(2, &cards).unwrap()
}

/// D1: the bytecode stack limit is checked when the file is parsed, with the
/// condition quoted and underlined, not only when a kingdom holding the card
/// is compiled (a file `check` accepted in one kingdom failed in another).
#[test]
fn a_condition_too_deep_for_the_stack_is_refused_at_parse_time() {
    let mut e = "coins".to_string();
    for _ in 0..45 {
        e = format!("buys - 1 + turn * ({e})");
    }
    let err = parse_err(&format!("buy:\n    Witch if {e} == 5\n    Silver\n"));
    assert!(err.msg.contains("condition too deeply nested"), "{err}");
    assert_eq!((err.line, err.col), (2, 14), "{err}");
    assert!(err.to_string().contains("\n2 | "), "{err}");
    let err = parse_err(&format!("buy: Silver\nChancellor discard_deck: {e} == 5\n"));
    assert!(err.msg.contains("condition too deeply nested"), "{err}");
    assert_eq!((err.line, err.col), (2, 26), "{err}");
    // At every depth, what parses compiles in a kingdom with the cards.
    let k = piles(&["Witch", "Chancellor"]);
    let mut e = "coins".to_string();
    for _ in 0..47 {
        e = format!("buys - 1 + turn * ({e})");
        for text in [
            format!("buy:\n    Witch if {e} == 5\n"),
            format!("buy: Silver\nChancellor discard_deck: {e} == 5\n"),
        ] {
            if let Ok(s) = strategy::parse(&text, "t.dom") {
                s.compile(&k).unwrap_or_else(|err| panic!("{err}"));
            }
        }
    }
    // A deep condition with a fast form needs no stack: it still loads.
    let mut e = "coins > 1".to_string();
    for _ in 0..40 {
        e = format!("turn > 1 or buys > 1 and ({e})");
    }
    let s = strategy::parse(&format!("buy:\n    Witch if {e}\n"), "t.dom").unwrap();
    s.compile(&k).unwrap();
}

/// D2: a tab is quoted as `U+0009`; the caret line is padded by that width.
#[test]
fn carets_stay_under_the_text_after_a_tab() {
    let shown = parse_err("buy:\n\tGold if\tcoins >= 6 and foo\n").to_string();
    let lines: Vec<&str> = shown.lines().collect();
    let (quote, carets) = (lines[2], lines[3]);
    assert!(quote.contains("U+0009Gold"), "{shown}");
    assert!(!carets.contains('\t'), "{shown:?}");
    let at = carets.find('^').unwrap();
    assert_eq!(&quote[at..], "foo", "{shown}");
    assert_eq!(carets[at..].trim_end(), "^^^", "{shown}");
}

/// A CJK word takes two terminal columns a character: the carets cover
/// all four columns of `金色`, not two.
#[test]
fn carets_cover_double_width_characters() {
    let shown = parse_err("buy:\n    Gold if coins >= 6 and 金色 > 1\n").to_string();
    let lines: Vec<&str> = shown.lines().collect();
    let (quote, carets) = (lines[2], lines[3]);
    let at = carets.find('^').unwrap();
    assert_eq!(&quote[at..at + "金色".len()], "金色", "{shown}");
    assert_eq!(carets[at..].trim_end(), "^^^^", "{shown}");
}

/// D3: `Knights`, `Ruins` and a single Knight cover their pile's cards in
/// the lints (they were compared with the pile pseudo-cards, never equal).
#[test]
fn lints_see_the_cards_of_the_knights_and_ruins_piles() {
    let k = piles(&["Knights", "Marauder"]);
    let lint = |text: &str| {
        let s = strategy::parse(text, "t.dom").unwrap();
        strategy::lint::lint(&s, &k)
    };
    // Ruins cost $0: bought at every price.
    assert_eq!(lint("buy: Ruins\n"), Vec::<String>::new());
    // Knights cost $5 (Sir Martin $4): nothing at $2–$3 only.
    let w = lint("buy: Knights\n");
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].contains("with $2–$3 this bot buys nothing"), "{w:?}");
    let w = lint("buy: Sir Martin\n");
    assert!(w[0].contains("with $2–$3 this bot buys nothing"), "{w:?}");
    // Never played: one warning for the pile, and none when it is played
    // (Marauder hands out Ruins: the lists name them).
    let w = lint("buy: Knights, Silver, Copper\nplay: Marauder, Necropolis, Ruins\n");
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].contains("t.dom:1:6: warning: Knights (any of them) may be bought here"),
        "{w:?}"
    );
    let w = lint("buy: Knights, Silver, Copper\nplay: Sir Martin, Marauder, Necropolis, Ruins\n");
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].contains("Dame Anna"), "{w:?}");
    assert!(!w[0].contains("Sir Martin"), "{w:?}");
    let w = lint("buy: Knights, Silver, Copper\nplay: Knights, Marauder, Necropolis, Ruins\n");
    assert_eq!(w, Vec::<String>::new());
}

/// `check` warns of cards a bot will hold but never play (Ruins handed out
/// by an opponent, its own Spoils, its Hermits' Madmen) and of options for
/// cards it never buys; options asked of victims or of every player are
/// exempt. A play list without Ruins still plays them, last.
#[test]
fn lints_cards_held_but_never_played_and_options_never_asked() {
    let mut k = piles(&[
        "Cultist",
        "Hermit",
        "Bandit Camp",
        "Chapel",
        "Militia",
        "Masquerade",
    ]);
    k.shelters = Some(false);
    let lint = |text: &str| {
        let s = strategy::parse(text, "t.dom").unwrap();
        strategy::lint::lint(&s, &k)
    };
    let w = lint("buy: Silver\nplay: Cultist\n");
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].starts_with("t.dom:2:7: warning: this bot may hold Ruins (Cultist can hand them out)"),
        "{w:?}"
    );
    assert!(lint("buy: Silver\nplay: Cultist, Ruins\n").is_empty());
    assert!(lint("buy: Silver\nplay: Cultist, Action\n").is_empty());
    let w = lint("buy: Hermit, Silver\nplay: Hermit, Ruins\n");
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].contains("Madman"), "{w:?}");
    let w = lint("buy: Bandit Camp, Silver\nplay: Bandit Camp, Ruins\ntreasures: Silver, Copper\n");
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].contains("t.dom:3:12: warning: this bot gains Spoils (Bandit Camp)"),
        "{w:?}"
    );
    assert!(lint(
        "buy: Bandit Camp, Silver\nplay: Bandit Camp, Ruins\ntreasures: Spoils, Silver, Copper\n"
    )
    .is_empty());
    // An option for a card the bot never buys.
    let w = lint("buy: Silver\nChapel trash: Copper\n");
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].starts_with("t.dom:2:1: warning: 'Chapel trash' is an option of Chapel, but this bot never buys or gains Chapel"), "{w:?}");
    assert!(lint("buy: Chapel, Silver\nChapel trash: Copper\n").is_empty());
    // Asked of a victim, or of every player: no warning.
    assert!(lint("buy: Silver\nMilitia discard: Copper\nMasquerade pass: Copper\n").is_empty());
    // The Ruins are played last by a list that names none.
    let mut g = blank(&k);
    fill(&mut g.players[0].hand, &[RuinedMarket]);
    let c = compile_text("buy: Silver\nplay: Cultist\n", &k);
    assert_eq!(
        ask(
            &g,
            &c,
            Why::PlayAction,
            None,
            &[Cultist, RuinedMarket],
            true
        ),
        Some(Cultist)
    );
    assert_eq!(
        ask(&g, &c, Why::PlayAction, None, &[RuinedMarket], true),
        Some(RuinedMarket)
    );
    let c = compile_text("buy: Silver\nplay:\n    Cultist\n    none\n", &k);
    assert_eq!(
        ask(&g, &c, Why::PlayAction, None, &[RuinedMarket], true),
        None,
        "after none: never"
    );
}

/// D7: a constant `choose:` out of a data card's range is a warning of
/// `check` naming the option count (at run time it answers option 0).
#[test]
fn an_out_of_range_constant_choose_of_a_data_card_is_a_warning() {
    let d = crate::cli::scratch("choose-range");
    let f = d.join("hs.dom");
    let run = |value: &str| {
        std::fs::write(
            &f,
            format!("buy:\n  Hamlet Smith max 3\n  Silver\nplay: Hamlet Smith\nHamlet Smith choose: {value}\n"),
        )
        .unwrap();
        let o = crate::cli::domsim(&[
            "check",
            "--cards",
            "cards/examples.toml",
            "--kingdom",
            "Hamlet Smith",
            f.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", crate::cli::stderr(&o));
        crate::cli::stdout(&o) + &crate::cli::stderr(&o)
    };
    let p = f.to_str().unwrap();
    for v in ["7", "-1", "2"] {
        let out = run(v);
        assert!(
            out.contains(&format!("{p}:5:1: warning: Hamlet Smith has 2 options, numbered 0 to 1: 'choose: {v}' is out of range, so option 0 is chosen")),
            "{out}"
        );
    }
    for v in ["0", "1", "turn % 2"] {
        assert!(!run(v).contains("out of range"), "{v}");
    }
}

/// D8: a file reached through `extends` is refused for the same reasons,
/// with the same messages, as one given on the command line.
#[test]
fn extends_refuses_empty_and_non_text_files_like_the_top_level() {
    let d = temp_dir("extends-odd");
    std::fs::create_dir_all(d.join("sub")).unwrap();
    std::fs::write(d.join("empty.dom"), "").unwrap();
    std::fs::write(d.join("comments.dom"), "# nothing\n\n  # here\n").unwrap();
    for base in ["empty.dom", "comments.dom"] {
        let top = strategy::load(&d.join(base)).unwrap_err();
        std::fs::write(d.join("child.dom"), format!("extends: {base}\n")).unwrap();
        let e = strategy::load(&d.join("child.dom")).unwrap_err();
        assert_eq!(e, top, "{e}");
        assert!(e.msg.contains("the strategy is empty"), "{e}");
    }
    std::fs::write(d.join("sub/l1.dom"), b"buy: Gold\nplay: # \xe9\n").unwrap();
    std::fs::write(d.join("el.dom"), "extends: sub/l1.dom\n").unwrap();
    let top = strategy::load(&d.join("sub/l1.dom")).unwrap_err();
    let e = strategy::load(&d.join("el.dom")).unwrap_err();
    assert!(e.file.ends_with("l1.dom"), "{e}");
    assert_eq!(
        (e.line, e.col, &e.msg),
        (top.line, top.col, &top.msg),
        "{e}"
    );
    assert_eq!((e.line, e.col), (2, 9), "{e}");
    assert!(
        e.msg.contains("not a text file: invalid UTF-8 at byte 18"),
        "{e}"
    );
    assert!(!e.msg.contains("sequence"), "no raw Rust message: {e}");
    // The search path only for a relative name.
    let abs = d.join("missing.dom");
    std::fs::write(d.join("a.dom"), format!("extends: {}\n", abs.display())).unwrap();
    let e = strategy::load(&d.join("a.dom")).unwrap_err();
    assert!(e.msg.contains("(an absolute path)"), "{e}");
    assert!(!e.msg.contains("searched"), "{e}");
    std::fs::write(d.join("r.dom"), "extends: missing.dom\n").unwrap();
    let e = strategy::load(&d.join("r.dom")).unwrap_err();
    assert!(e.msg.contains("cannot find 'missing.dom': searched"), "{e}");
    assert!(e.msg.contains("(this file's folder)"), "{e}");
}

/// The strategy search path (issue 45): `extends: NAME` is looked for in
/// the bot's folder, then `--strategies-path`, then `DOMSIM_STRATEGIES`,
/// then the shipped strategies/; a bot kept anywhere names a shipped one
/// by its name, and a miss lists every folder searched at file:line:col.
#[test]
fn extends_follows_the_strategy_search_path() {
    use crate::cli::{scratch, stderr};
    let run = |args: &[&str], env: Option<&str>| {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_domsim"));
        c.args(args).current_dir(env!("CARGO_MANIFEST_DIR"));
        c.env_remove("DOMSIM_STRATEGIES");
        if let Some(v) = env {
            c.env("DOMSIM_STRATEGIES", v);
        }
        c.output().unwrap()
    };
    let d = scratch("search-path");
    let (mine, opt, env) = (d.join("mine"), d.join("opt"), d.join("env"));
    for f in [&mine, &opt, &env] {
        std::fs::create_dir(f).unwrap();
    }
    let bot = mine.join("bot.dom");
    let bot_s = bot.to_str().unwrap();
    // A shipped bot by its name, from a folder far from strategies/.
    std::fs::write(
        &bot,
        "# mine\nextends: big_money_ultimate.dom\nname: mine\n",
    )
    .unwrap();
    let o = run(&["log", bot_s, "strategies/big_money.dom"], None);
    assert!(o.status.success(), "{}", stderr(&o));
    // The option's folder before the variable's, both before the shipped:
    // each base names Witch, absent from First Game, so `check` warns at
    // the base that was read.
    for f in [&mine, &opt, &env] {
        std::fs::write(f.join("base.dom"), "buy: Gold, Witch, Silver\n").unwrap();
    }
    std::fs::remove_file(mine.join("base.dom")).unwrap();
    std::fs::write(&bot, "# mine\nextends: base.dom\nname: mine\n").unwrap();
    let (opt_s, env_s) = (opt.to_str().unwrap(), env.to_str().unwrap());
    let base_read = |extra: &[&str], var: Option<&str>| {
        let mut a: Vec<&str> = extra.to_vec();
        a.extend(["check", bot_s, "--preset", "First Game"]);
        let o = run(&a, var);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = crate::cli::stdout(&o);
        let hits: Vec<&std::path::PathBuf> = [&mine, &opt, &env]
            .into_iter()
            .filter(|f| out.contains(&format!("{}:1:12: warning", f.join("base.dom").display())))
            .collect();
        assert_eq!(hits.len(), 1, "{out}");
        hits[0].clone()
    };
    assert_eq!(base_read(&["--strategies-path", opt_s], Some(env_s)), opt);
    assert_eq!(base_read(&[], Some(env_s)), env);
    let both = format!("{env_s}:{opt_s}");
    assert_eq!(
        base_read(&["--strategies-path", &both], None),
        env,
        "in order"
    );
    // The bot's own folder comes first.
    std::fs::write(mine.join("base.dom"), "buy: Gold, Witch\n").unwrap();
    assert_eq!(base_read(&["--strategies-path", opt_s], Some(env_s)), mine);
    // A miss: at the extends value, every folder searched, with its origin.
    std::fs::write(&bot, "# mine\nextends: nowhere.dom\n").unwrap();
    let o = run(&["--strategies-path", opt_s, "check", bot_s], Some(env_s));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains(&format!(
            "{bot_s}:2:10: cannot find 'nowhere.dom': searched"
        )),
        "{err}"
    );
    for folder in [
        format!("{} (this file's folder)", mine.display()),
        format!("{opt_s} (--strategies-path)"),
        format!("{env_s} (DOMSIM_STRATEGIES)"),
        "strategies (shipped)".to_string(),
    ] {
        assert!(err.contains(&folder), "{folder}: {err}");
    }
    // A folder of the path that is not one: exit 2, naming it.
    let o = run(&["--strategies-path", "no/such/dir", "check", bot_s], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--strategies-path: 'no/such/dir' is not a folder"),
        "{}",
        stderr(&o)
    );
    let o = run(&["check", bot_s], Some("no/such/env"));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("DOMSIM_STRATEGIES: 'no/such/env' is not a folder"),
        "{}",
        stderr(&o)
    );
}

/// D4: keywords are case-insensitive like card names, variables and
/// headers (`IF` was stopped at by the entry scanner, then refused).
#[test]
fn keywords_are_accepted_in_any_case() {
    let k = piles(&["Smithy"]);
    for (upper, lower) in [
        ("buy: Gold IF coins >= 6", "buy: Gold if coins >= 6"),
        ("buy: Smithy MAX 2 Keep 0", "buy: Smithy max 2 keep 0"),
        (
            "buy: Gold if coins >= 6 AND turn > 1 OR NOT yes",
            "buy: Gold if coins >= 6 and turn > 1 or not yes",
        ),
        (
            "buy: Silver\nChancellor discard_deck: Not (coins > 2 Or turn < 3)",
            "buy: Silver\nChancellor discard_deck: not (coins > 2 or turn < 3)",
        ),
    ] {
        let a = strategy::parse(upper, "t.dom").unwrap_or_else(|e| panic!("{e}"));
        let b = strategy::parse(lower, "t.dom").unwrap();
        assert_eq!(
            format!("{:?}", a.list(strategy::ListKind::Buy)),
            format!("{:?}", b.list(strategy::ListKind::Buy))
        );
        a.compile(&k).unwrap();
    }
}

/// D5 and the docs' minor items: messages that name the real problem.
#[test]
fn malformed_conditions_get_messages_that_name_the_problem() {
    // (text, line, col, message fragment, what the message must not say)
    let cases: &[(&str, usize, usize, &str, &str)] = &[
        (
            "buy: Gold if 1 + not yes",
            1,
            18,
            "found the keyword 'not'",
            "did you mean",
        ),
        (
            "buy: Gold if count(Witch, Smithy) > 0",
            1,
            20,
            "a function takes one card or type",
            "an entry takes",
        ),
        (
            "buy: Gold if coins ≥ 5",
            1,
            20,
            "unexpected character '≥' (write '>=')",
            "found a number",
        ),
        (
            "buy: Gold if coins >= 5 ≤",
            1,
            25,
            "unexpected character '≤' (write '<=')",
            "expected 'if'",
        ),
        (
            "buy: Silver\nMoat reveal: ON",
            2,
            14,
            "a yes/no option takes yes or no",
            "did you mean 'or'",
        ),
        (
            "buy:\n  Smithy mx 2",
            2,
            3,
            "'mx' is not a keyword (did you mean 'max'?)",
            "\u{0}",
        ),
        (
            "buy:\n  Gold if coins >= 6:",
            2,
            21,
            "unexpected ':' at the end of an entry",
            "unknown setting",
        ),
        (
            "buy: Gold if 1 < 2 < 3",
            1,
            20,
            "comparisons do not chain",
            "expected 'if'",
        ),
        (
            "buy: Gold if 1 < 2 == yes",
            1,
            20,
            "comparisons do not chain",
            "expected 'if'",
        ),
        (
            "buy: Gold if coins >= 5andy",
            1,
            23,
            "'5andy' is not a whole number",
            "\u{0}",
        ),
    ];
    for &(text, line, col, msg, not) in cases {
        let e = parse_err(text);
        assert!(e.msg.contains(msg), "{text:?}: {e}");
        assert!(!e.msg.contains(not), "{text:?}: {e}");
        assert_eq!((e.line, e.col), (line, col), "{text:?}: {e}");
    }
    // A number followed by a keyword is the number, then the keyword, as
    // `max 2if` always was.
    let k = piles(&["Smithy"]);
    for (glued, spaced) in [
        (
            "buy: Gold if coins>=5and turn==1",
            "buy: Gold if coins>=5 and turn==1",
        ),
        ("buy: Gold if 3and yes", "buy: Gold if 3 and yes"),
        ("buy: Gold if 3 > 2or no", "buy: Gold if 3 > 2 or no"),
        ("buy: Smithy max 2if yes", "buy: Smithy max 2 if yes"),
    ] {
        let a = strategy::parse(glued, "t.dom");
        let b = strategy::parse(spaced, "t.dom");
        match (a, b) {
            (Ok(a), Ok(b)) => {
                assert_eq!(
                    format!("{:?}", a.list(strategy::ListKind::Buy)),
                    format!("{:?}", b.list(strategy::ListKind::Buy))
                );
                a.compile(&k).unwrap();
            }
            (Err(a), Err(b)) => assert_eq!(a.msg, b.msg, "{glued}"),
            (a, b) => panic!("{glued}: {a:?} vs {b:?}"),
        }
    }
}

/// D6: an entry's card name is punctuation-insensitive, like inside
/// `count(...)` (the scanner stopped at the '.').
#[test]
fn entry_names_ignore_punctuation_like_function_arguments() {
    let a = strategy::parse("buy: Gold\nplay: Throne.Room, Sir-Martin\n", "t.dom")
        .unwrap_or_else(|e| panic!("{e}"));
    let b = strategy::parse("buy: Gold\nplay: Throne Room, Sir Martin\n", "t.dom").unwrap();
    assert_eq!(
        format!("{:?}", a.list(strategy::ListKind::Play)),
        format!("{:?}", b.list(strategy::ListKind::Play))
    );
    let e = parse_err("buy: Gold\nplay: Thrown.Room\n");
    assert!(
        e.msg
            .contains("'Thrown.Room' (did you mean 'Throne Room'?)"),
        "{e}"
    );
}

// ---------------------------------------------------------------------------
// The turn's own picks, answered directly

use domsim::dominion::lineup::{Lineup, MixedBots};
use std::collections::BTreeMap;

/// Asks every pick of the turn's steps (play an Action, play a Treasure,
/// buy) both ways, `Bots::turn_pick` (the runner's bots answer it inline,
/// with their own seat dispatch) and `Bots::pick`, and notes any
/// difference.
struct TurnBothWays<'a> {
    inner: MixedBots<'a>,
    asked: BTreeMap<&'static str, u64>,
    differ: Vec<String>,
}

impl Bots for TurnBothWays<'_> {
    forward_questions!(inner);
    fn turn_pick(&mut self, g: &Game, q: &Pick) -> Option<Card> {
        let direct = self.inner.turn_pick(g, q);
        let routed = self.inner.pick(g, q);
        *self.asked.entry(q.why.name()).or_default() += 1;
        if direct != routed && self.differ.len() < 10 {
            self.differ.push(format!(
                "{q:?}, ${} (reduction {}): turn_pick {direct:?}, pick {routed:?}",
                g.turn.coins, g.turn.cost_reduction,
            ));
        }
        direct
    }
}

/// The runner's bots (`MixedBots`: strategy files and the built-in Big
/// Money at one table) answer each pick of the turn's steps through
/// `turn_pick` exactly as through `pick`: every shipped strategy, and the
/// built-in bot, paired with the next one in name order, in every playable
/// rulebook kingdom at 2 and 3 players (lists, type entries, `none`
/// entries, conditions, the safety rules, Bridge's cost reduction,
/// Treasures played one by one).
#[test]
fn the_direct_turn_picks_answer_as_the_routed_pick_for_every_shipped_strategy() {
    let mut specs: Vec<String> = std::fs::read_dir(lib_dir())
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".dom"))
        .map(|n| lib_dir().join(n).display().to_string())
        .collect();
    specs.sort();
    assert!(specs.len() >= 40, "{specs:?}");
    specs.push("builtin:big-money".into());
    let lineup = Lineup::load(&specs).unwrap();
    let n = specs.len();
    let mut asked: BTreeMap<&'static str, u64> = BTreeMap::new();
    let (mut games, mut kingdoms) = (0u64, 0u32);
    for p in domsim::dominion::presets::PRESETS {
        for players in [2usize, 3] {
            let Ok(k) = p.kingdom(players) else { continue };
            let k = lineup.kingdom_for(&k);
            kingdoms += 1;
            let compiled = lineup.compile(&k).unwrap();
            let mut g = Game::new(&k, 5, 0);
            for i in 0..n {
                let order: Vec<u8> = (0..players).map(|s| ((i + s % 2) % n) as u8).collect();
                for r in 0..2 {
                    let index = (i * 2 + r) as u64;
                    g.reset(&k, 5, index);
                    let mut bots = TurnBothWays {
                        inner: compiled.bots(&order),
                        asked: BTreeMap::new(),
                        differ: Vec::new(),
                    };
                    g.play_game(&mut bots);
                    assert!(
                        bots.differ.is_empty(),
                        "{} vs {} in {} ({players} players), game {index}:\n{}",
                        specs[i],
                        specs[(i + 1) % n],
                        p.name,
                        bots.differ.join("\n")
                    );
                    for (w, c) in bots.asked {
                        *asked.entry(w).or_default() += c;
                    }
                    games += 1;
                }
            }
        }
    }
    assert!(kingdoms >= 20, "{kingdoms} kingdoms");
    let buys = asked.get(Why::Buy.name()).copied().unwrap_or(0);
    assert!(buys > 50 * games, "{asked:?} in {games} games");
    assert!(
        asked.get(Why::PlayAction.name()).copied().unwrap_or(0) > 2 * games,
        "{asked:?} in {games} games"
    );
    // Treasures one by one: Counterfeit, Spoils and the strategies that
    // order their Treasures.
    assert!(
        asked.get(Why::PlayTreasure.name()).copied().unwrap_or(0) > 200,
        "{asked:?}"
    );
    eprintln!("{kingdoms} kingdoms, {games} games, turn picks asked: {asked:?}");
}

/// strategies/playtest/hamlet_smith.dom's comment agrees with
/// docs/DESIGNING_CARDS.md (issue 45): a data card has its own options, so
/// `Hamlet Smith choose: 1` is a setting `check` accepts, and the comment
/// says so; a bot elsewhere reaches the file by its search-path name.
#[test]
fn hamlet_smith_comment_matches_the_data_card_options() {
    let text = std::fs::read_to_string(lib_dir().join("playtest/hamlet_smith.dom")).unwrap();
    assert!(!text.contains("no\n# per-card options") && !text.contains("no per-card options"));
    assert!(text.contains("`Hamlet Smith choose: 1`"), "{text}");
    let d = crate::cli::scratch("hamlet");
    let bot = d.join("coins.dom");
    std::fs::write(
        &bot,
        "extends: playtest/hamlet_smith.dom\nHamlet Smith choose: 1\n",
    )
    .unwrap();
    let o = crate::cli::domsim(&[
        "--cards",
        "cards/examples.toml",
        "check",
        bot.to_str().unwrap(),
        "--kingdom",
        "Hamlet Smith",
        "--fill",
    ]);
    assert!(o.status.success(), "{}", crate::cli::stderr(&o));
    assert!(
        crate::cli::stdout(&o).contains(": ok ("),
        "{}",
        crate::cli::stdout(&o)
    );
}

/// `check` reports every error of a file in one run (issue 45), each at
/// its line and column, in line order; the entries under a header that
/// failed are not reported again as "outside any list"; `load` still stops
/// at the first, the same one.
#[test]
fn check_reports_every_error_of_a_file() {
    let d = crate::cli::scratch("all-errors");
    let f = d.join("bad.dom");
    std::fs::write(
        &f,
        "buy:\n    Smithee\n    Gold if coinz >= 6\nbuyy:\n    Silver\n    Copper\nname: a\nname: b\n",
    )
    .unwrap();
    let fs = f.to_str().unwrap();
    let errors = strategy::errors(&f);
    let at: Vec<(usize, usize)> = errors.iter().map(|e| (e.line, e.col)).collect();
    assert_eq!(at, [(2, 5), (3, 13), (4, 1), (8, 1)], "{errors:?}");
    assert_eq!(strategy::load(&f).unwrap_err(), errors[0]);
    let o = crate::cli::domsim(&["check", fs, "strategies/big_money.dom"]);
    assert_eq!(o.status.code(), Some(2));
    let err = crate::cli::stderr(&o);
    for (l, c) in at {
        assert!(err.contains(&format!("{fs}:{l}:{c}: ")), "{l}:{c}: {err}");
    }
    assert!(
        err.contains("Smithee") && err.contains("coinz") && err.contains("buyy"),
        "{err}"
    );
    assert!(err.contains("given twice (first on line 7)"), "{err}");
    assert!(!err.contains("outside any list"), "{err}");
    assert!(err.contains(&format!("{fs}: 4 errors")), "{err}");
    assert!(err.contains("1 of 2 strategy file(s) have errors"), "{err}");
    assert!(crate::cli::stdout(&o).contains("big_money.dom: ok"));
}

/// A plain strategy file may name constants (issue 42 item 7): `const
/// NAME: N` above the lines that use it, wherever a number goes; the same
/// bot as with the number written out. Bad names and values are refused
/// at their line and column.
#[test]
fn a_strategy_file_may_name_constants() {
    use domsim::strategy::ListKind;
    let named = strategy::parse(
        "const money: 16\nconst Last: 4\nbuy:\n    Province if total_money >= MONEY\n    Duchy if supply(Province) <= last\nMoat reveal: coins > money\n",
        "c.dom",
    )
    .unwrap();
    let plain = strategy::parse(
        "buy:\n    Province if total_money >= 16\n    Duchy if supply(Province) <= 4\nMoat reveal: coins > 16\n",
        "p.dom",
    )
    .unwrap();
    let conds = |s: &strategy::Strategy| -> Vec<Option<strategy::Expr>> {
        s.list(ListKind::Buy)
            .unwrap()
            .iter()
            .map(|e| e.cond.clone())
            .collect()
    };
    assert_eq!(conds(&named), conds(&plain));
    assert!(named.compile(&piles(&["Moat"])).is_ok());
    let low = strategy::parse("const low: -3\nbuy: Gold if coins > low\n", "n.dom").unwrap();
    let c = &low.list(ListKind::Buy).unwrap()[0].cond;
    assert_eq!(
        format!("{c:?}"),
        "Some(Bin(Gt, Var(Coins), Int(-3)))",
        "a negative constant"
    );
    for (text, at, needle) in [
        (
            "buy: Gold if coins >= t\nconst t: 3\n",
            (1, 23),
            "unknown name 't'",
        ),
        (
            "const t: 3\nconst T: 4\nbuy: Gold\n",
            (2, 7),
            "constant 'T' is defined twice",
        ),
        (
            "const coins: 3\nbuy: Gold\n",
            (1, 7),
            "is a word of the strategy language",
        ),
        ("const Gold: 3\nbuy: Gold\n", (1, 7), "'Gold' is a card"),
        ("const 9x: 3\nbuy: Gold\n", (1, 7), "not a constant's name"),
        ("const t: 1.5\nbuy: Gold\n", (1, 10), "needs a whole number"),
        (
            "const t: coins\nbuy: Gold\n",
            (1, 10),
            "needs a whole number",
        ),
        (
            "const t: 99999999999\nbuy: Gold\n",
            (1, 10),
            "needs a whole number",
        ),
    ] {
        let e = strategy::parse(text, "bad.dom").unwrap_err();
        assert_eq!((e.line, e.col), at, "{text:?}: {e}");
        assert!(e.msg.contains(needle), "{text:?}: {e}");
    }
}
