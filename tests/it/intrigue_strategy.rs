//! Intrigue strategy options: every option parses, compiles and steers the
//! decision it names; defaults; errors for bad option values.

use domsim::engine::{Bots, Choose, Game, Pick, Why, YesNo};
use domsim::scenario::Scenario;
use domsim::strategy::{self, options::OPTIONS, Compiled, StrategyBots};
use domsim::{Card, CardSet, Kingdom};

const K1: &str = "kingdom: Pawn, Steward, Minion, Nobles, Baron, Torturer, Swindler, \
                  Masquerade, Mining Village, Market";
const K2: &str = "kingdom: Wishing Well, Scout, Courtyard, Secret Chamber, Trading Post, \
                  Upgrade, Ironworks, Saboteur, Tribute, Great Hall";

/// A game in the state described by scenario lines (players 2, kingdom K1).
fn game(lines: &str) -> Game {
    game_in(K1, lines)
}

/// The same with kingdom K2.
fn game2(lines: &str) -> Game {
    game_in(K2, lines)
}

fn game_in(kingdom: &str, lines: &str) -> Game {
    let text = format!("players: 2\n{kingdom}\n{lines}\n");
    match Scenario::parse(&text) {
        Ok(s) => s.game,
        Err(e) => panic!("scenario: {e}"),
    }
}

fn bot(text: &str, g: &Game) -> Compiled {
    let st = strategy::parse(text, "t.dom").unwrap_or_else(|e| panic!("{e}"));
    st.compile(&g.kingdom).unwrap_or_else(|e| panic!("{e}")).0
}

fn choose(text: &str, g: &Game, player: u8, by: Card, n: u8) -> u8 {
    let c = bot(text, g);
    StrategyBots::new(&[&c]).choose(g, &Choose { player, by, n })
}

fn pick(text: &str, g: &Game, q: Pick) -> Option<Card> {
    let c = bot(text, g);
    StrategyBots::new(&[&c]).pick(g, &q)
}

fn yes(text: &str, g: &Game, by: Card, card: Card) -> bool {
    let c = bot(text, g);
    StrategyBots::new(&[&c]).yes_no(
        g,
        &YesNo {
            player: 0,
            by,
            card: Some(card),
            target: 0,
        },
    )
}

fn q(why: Why, by: Card, legal: &[Card], optional: bool) -> Pick {
    Pick {
        player: 0,
        why,
        by: Some(by),
        legal: legal.iter().copied().collect::<CardSet>(),
        optional,
        target: 0,
    }
}

fn hand_kinds(g: &Game, p: usize) -> Vec<Card> {
    let s: CardSet = g.players[p].hand.iter().collect();
    s.iter().collect()
}

const BUY: &str = "buy:\n    Province\n    Gold\n    Silver\n";

#[test]
fn every_intrigue_option_parses_and_compiles() {
    let (g1, g2) = (game(""), game2(""));
    let mut n = 0;
    for o in OPTIONS
        .iter()
        .filter(|o| o.card.info().set == Card::Pawn.info().set)
    {
        let g = if g1.kingdom.in_game.contains(o.card) {
            &g1
        } else {
            &g2
        };
        let cname = o.card.name();
        let text = match o.kind {
            strategy::options::Kind::List => format!("{BUY}{cname} {}:\n    Copper\n", o.name),
            strategy::options::Kind::Bool => format!("{BUY}{cname} {}: coins >= 2\n", o.name),
            strategy::options::Kind::Int => format!("{BUY}{cname} {}: 0\n", o.name),
        };
        let st = strategy::parse(&text, "t.dom").unwrap_or_else(|e| panic!("{cname}: {e}"));
        let (_, warnings) = st.compile(&g.kingdom).unwrap_or_else(|e| panic!("{e}"));
        assert!(warnings.is_empty(), "{cname} {}: {warnings:?}", o.name);
        assert!(!o.doc.is_empty() && !o.default_doc.is_empty());
        n += 1;
    }
    assert!(n >= 30, "only {n} Intrigue options");
    // Every option is documented in strategies/INTRIGUE.md.
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/strategies/INTRIGUE.md"
    ))
    .expect("strategies/INTRIGUE.md");
    for o in OPTIONS
        .iter()
        .filter(|o| o.card.info().set == Card::Pawn.info().set)
    {
        let key = format!("`{} {}:`", o.card.name(), o.name);
        assert!(doc.contains(&key), "INTRIGUE.md lacks {key}");
    }
}

#[test]
fn steward_modes_defaults_and_conditions() {
    // Default: +$2 when no action is left and it changes this turn's buy
    // (the buy list's choice: $4 Silver, $6 Gold), trash with 2 junk, else
    // draw.
    let mut g = game("p0.hand: Copper*4");
    g.turn.actions = 0;
    assert_eq!(choose(BUY, &g, 0, Card::Steward, 3), 1);
    g.turn.actions = 1;
    assert_eq!(
        choose(BUY, &g, 0, Card::Steward, 3),
        0,
        "actions left: draw"
    );
    let mut g = game("p0.hand: Copper*3");
    g.turn.actions = 0;
    assert_eq!(
        choose(BUY, &g, 0, Card::Steward, 3),
        0,
        "$3 and $5 buy Silver"
    );
    let g = game("p0.hand: Curse*2, Copper");
    assert_eq!(choose(BUY, &g, 0, Card::Steward, 3), 2);
    let g = game("p0.hand: Copper, Estate");
    assert_eq!(choose(BUY, &g, 0, Card::Steward, 3), 0);
    // The file's own modes replace the built-in ones.
    let own = format!("{BUY}Steward trash: hand(Estate) >= 1\n");
    let g = game("p0.hand: Copper, Estate");
    assert_eq!(choose(&own, &g, 0, Card::Steward, 3), 2);
    let g = game("p0.hand: Copper*4");
    assert_eq!(choose(&own, &g, 0, Card::Steward, 3), 0, "engine default");
    let own = format!("{BUY}Steward coins: yes\n");
    let g = game("p0.hand: Curse*2");
    assert_eq!(choose(&own, &g, 0, Card::Steward, 3), 1);
    // Trash picks.
    let t = format!("{BUY}Steward trash_cards:\n    Copper\n");
    let g = game("p0.hand: Copper, Estate");
    let p = q(
        Why::Trash,
        Card::Steward,
        &[Card::Copper, Card::Estate],
        false,
    );
    assert_eq!(pick(&t, &g, p), Some(Card::Copper));
    assert_eq!(pick(BUY, &g, p), Some(Card::Estate));
}

#[test]
fn minion_nobles_pawn_torturer_modes() {
    let g = game("p0.hand: Minion, Copper");
    assert_eq!(
        choose(BUY, &g, 0, Card::Minion, 2),
        0,
        "another Action: +$2"
    );
    let g = game("p0.hand: Estate*3, Copper");
    assert_eq!(choose(BUY, &g, 0, Card::Minion, 2), 1, "poor hand: attack");
    let g = game("p0.hand: Copper*6");
    assert_eq!(choose(BUY, &g, 0, Card::Minion, 2), 0, "+$2 reaches $8");
    let g = game("p0.hand: Copper*4");
    assert_eq!(choose(BUY, &g, 0, Card::Minion, 2), 1);
    let own = format!("{BUY}Minion coins: hand_size >= 4\n");
    assert_eq!(choose(&own, &g, 0, Card::Minion, 2), 0);

    let g = game("actions: 0\np0.hand: Nobles, Copper");
    assert_eq!(choose(BUY, &g, 0, Card::Nobles, 2), 1);
    let own = format!("{BUY}Nobles cards: yes\n");
    assert_eq!(choose(&own, &g, 0, Card::Nobles, 2), 0);
    let g = game("actions: 1\np0.hand: Nobles, Copper");
    assert_eq!(choose(BUY, &g, 0, Card::Nobles, 2), 0);

    let g = game("p0.hand: Copper*2");
    assert_eq!(choose(BUY, &g, 0, Card::Pawn, 6), 2, "+1 Card +$1");
    let g = game("p0.hand: Market, Copper");
    assert_eq!(choose(BUY, &g, 0, Card::Pawn, 6), 0, "+1 Card +1 Action");
    for (name, want) in [
        ("card_buy", 1),
        ("action_buy", 3),
        ("action_coin", 4),
        ("buy_coin", 5),
    ] {
        let own = format!("{BUY}Pawn {name}: buys >= 1\n");
        assert_eq!(choose(&own, &g, 0, Card::Pawn, 6), want, "{name}");
    }

    // Torturer is asked of the victim (player 1 here).
    let g = game("p1.hand: Copper, Estate");
    assert_eq!(choose(BUY, &g, 1, Card::Torturer, 2), 0, "default: discard");
    let own = format!("{BUY}Torturer curse: hand_size <= 2\n");
    assert_eq!(choose(&own, &g, 1, Card::Torturer, 2), 1);
    let own = format!("{BUY}Torturer discard: no\nTorturer curse: no\n");
    assert_eq!(
        choose(&own, &g, 1, Card::Torturer, 2),
        0,
        "none holds: default"
    );
    let g = game("supply: Curse=0\np1.hand: Copper, Estate");
    assert_eq!(choose(BUY, &g, 1, Card::Torturer, 2), 1);
    let d = format!("{BUY}Torturer discard_cards:\n    Copper\n");
    let mut p = q(
        Why::Discard,
        Card::Torturer,
        &[Card::Copper, Card::Estate],
        false,
    );
    p.player = 1;
    p.target = 1;
    assert_eq!(pick(&d, &g, p), Some(Card::Copper));
    assert_eq!(pick(BUY, &g, p), Some(Card::Estate));
}

#[test]
fn yes_no_options() {
    let g = game("p0.hand: Estate, Baron");
    assert!(yes(BUY, &g, Card::Baron, Card::Estate));
    assert!(!yes(
        &format!("{BUY}Baron discard: no\n"),
        &g,
        Card::Baron,
        Card::Estate
    ));
    let g = game("p0.hand: Copper*6");
    assert!(yes(BUY, &g, Card::MiningVillage, Card::MiningVillage));
    let g = game("p0.hand: Copper*2");
    assert!(!yes(BUY, &g, Card::MiningVillage, Card::MiningVillage));
    let own = format!("{BUY}Mining Village trash: hand_size = 2\n");
    assert!(yes(&own, &g, Card::MiningVillage, Card::MiningVillage));
}

#[test]
fn swindler_gift_never_comes_from_the_buy_list() {
    let g = game("");
    let mut p = q(
        Why::Gain,
        Card::Swindler,
        &[Card::Duchy, Card::Minion, Card::Market],
        false,
    );
    p.target = 1;
    let buy = "buy:\n    Minion\n    Gold\n";
    assert_eq!(pick(buy, &g, p), Some(Card::Duchy));
    let own = format!("{buy}Swindler give:\n    Curse\n    Estate\n    Market\n");
    assert_eq!(pick(&own, &g, p), Some(Card::Market));
}

/// Masquerade's pass has one rule, the engine's documented default: a
/// strategy without a `Masquerade pass` list answers as the engine does,
/// by current cost (RULES §7: Bridge lowers every cost this turn). With
/// three Bridges Silver and Pawn both cost $0: the tie goes to the lower
/// id, Silver (by printed cost Pawn would be passed).
#[test]
fn masquerade_pass_default_is_the_engine_rule_by_current_cost() {
    let mut g = game("p0.hand: Pawn, Silver");
    g.turn.cost_reduction = 3;
    let pass = q(Why::Pass, Card::Masquerade, &hand_kinds(&g, 0), false);
    assert_eq!(pass.default_answer(&g), Some(Card::Silver));
    assert_eq!(pick(BUY, &g, pass), Some(Card::Silver));
    g.turn.cost_reduction = 0;
    assert_eq!(pass.default_answer(&g), Some(Card::Pawn));
    assert_eq!(pick(BUY, &g, pass), Some(Card::Pawn));
}

#[test]
fn masquerade_pass_and_trash() {
    let g = game("p0.hand: Curse, Silver, Estate");
    let legal = hand_kinds(&g, 0);
    let pass = q(Why::Pass, Card::Masquerade, &legal, false);
    assert_eq!(pick(BUY, &g, pass), Some(Card::Curse));
    let own = format!("{BUY}Masquerade pass:\n    Silver\n");
    assert_eq!(pick(&own, &g, pass), Some(Card::Silver));
    // Estate before Copper (Geronimoo's order; this was Copper before the
    // defaults asked the buy list), unless the buy list would take an
    // Estate now: then the points are kept.
    let g2 = game("p0.hand: Province, Silver, Copper, Estate");
    let pass2 = q(Why::Pass, Card::Masquerade, &hand_kinds(&g2, 0), false);
    assert_eq!(pick(BUY, &g2, pass2), Some(Card::Estate), "pass the Estate");
    let late = "buy:\n    Province\n    Estate if supply(Province) <= 2\n    Gold\n";
    assert_eq!(
        pick(late, &g2, pass2),
        Some(Card::Estate),
        "8 Provinces left"
    );
    let g3 = game("supply: Province=2\np0.hand: Province, Silver, Copper, Estate");
    assert_eq!(
        pick(late, &g3, pass2),
        Some(Card::Copper),
        "keep the points"
    );
    let g2 = game("p0.hand: Province, Duchy");
    let pass2 = q(Why::Pass, Card::Masquerade, &hand_kinds(&g2, 0), false);
    assert_eq!(pick(BUY, &g2, pass2), Some(Card::Duchy));
    let trash = q(
        Why::Trash,
        Card::Masquerade,
        &[Card::Silver, Card::Estate],
        true,
    );
    assert_eq!(pick(BUY, &g, trash), Some(Card::Estate), "Estate early");
    let g = game("supply: Province=3\np0.hand: Silver, Estate");
    assert_eq!(pick(BUY, &g, trash), None, "keep Estate late");
    let own = format!("{BUY}Masquerade trash:\n    Silver\n");
    assert_eq!(pick(&own, &g, trash), Some(Card::Silver));
    let own = format!("trash:\n    Estate\n{BUY}");
    assert_eq!(
        pick(&own, &g, trash),
        Some(Card::Estate),
        "general trash list"
    );
}

#[test]
fn wishing_well_scout_courtyard_secret_chamber() {
    let all: Vec<Card> = CardSet::all().iter().collect();
    let g = game2("p0.deck: Silver*3, Copper");
    let name = q(Why::Name, Card::WishingWell, &all, false);
    assert_eq!(pick(BUY, &g, name), Some(Card::Silver), "most likely");
    let own = format!("{BUY}Wishing Well name:\n    Gold if draw_pile(Gold) > 0\n    Copper\n");
    assert_eq!(pick(&own, &g, name), Some(Card::Copper));

    let order = q(
        Why::Order,
        Card::Scout,
        &[Card::Copper, Card::Gold, Card::Silver],
        false,
    );
    assert_eq!(pick(BUY, &g, order), Some(Card::Copper), "junk deepest");
    let own = format!("{BUY}Scout order:\n    Gold\n");
    assert_eq!(pick(&own, &g, order), Some(Card::Gold));

    // $10 in hand: put back the Silver (still $8), not the Gold ($7).
    let g = game2("p0.hand: Gold*2, Silver, Copper*2, Estate");
    let legal = hand_kinds(&g, 0);
    let top = q(Why::Topdeck, Card::Courtyard, &legal, false);
    assert_eq!(pick(BUY, &g, top), Some(Card::Silver));
    let own = format!("{BUY}Courtyard topdeck:\n    Copper\n");
    assert_eq!(pick(&own, &g, top), Some(Card::Copper));
    let g = game2("actions: 0\np0.hand: Great Hall, Copper*3");
    let legal = hand_kinds(&g, 0);
    let top = q(Why::Topdeck, Card::Courtyard, &legal, false);
    assert_eq!(
        pick(BUY, &g, top),
        Some(Card::GreatHall),
        "dead Action back"
    );

    let g = game2("p0.hand: Secret Chamber, Copper, Estate");
    let react = q(
        Why::React,
        Card::SecretChamber,
        &[Card::SecretChamber],
        true,
    );
    let react = Pick { by: None, ..react };
    assert_eq!(pick(BUY, &g, react), Some(Card::SecretChamber));
    let own = format!("{BUY}Secret Chamber reveal: hand(Estate) = 0\n");
    assert_eq!(pick(&own, &g, react), None);
    let legal = hand_kinds(&g, 0);
    let top = q(Why::Topdeck, Card::SecretChamber, &legal, false);
    assert_eq!(pick(BUY, &g, top), Some(Card::Copper));
    let own = format!("{BUY}Secret Chamber topdeck:\n    Estate\n");
    assert_eq!(pick(&own, &g, top), Some(Card::Estate));
    let disc = q(Why::Discard, Card::SecretChamber, &legal, true);
    assert_eq!(pick(BUY, &g, disc), Some(Card::Estate));
    let own = format!("{BUY}Secret Chamber discard:\n    Copper\n");
    assert_eq!(pick(&own, &g, disc), Some(Card::Copper));
}

#[test]
fn trash_and_gain_targets() {
    let g = game2("p0.hand: Silver, Copper, Estate");
    let legal = hand_kinds(&g, 0);
    let tp = q(Why::Trash, Card::TradingPost, &legal, false);
    assert_eq!(pick(BUY, &g, tp), Some(Card::Estate));
    let own = format!("{BUY}Trading Post trash:\n    Copper\n");
    assert_eq!(pick(&own, &g, tp), Some(Card::Copper));

    let up = q(Why::Trash, Card::Upgrade, &legal, false);
    assert_eq!(pick(BUY, &g, up), Some(Card::Estate));
    let own = format!("{BUY}Upgrade trash:\n    Silver\n");
    assert_eq!(pick(&own, &g, up), Some(Card::Silver));
    let ug = q(
        Why::Gain,
        Card::Upgrade,
        &[Card::Silver, Card::GreatHall],
        false,
    );
    assert_eq!(pick(BUY, &g, ug), Some(Card::Silver), "buy list");
    let own = format!("{BUY}Upgrade gain:\n    Great Hall\n");
    assert_eq!(pick(&own, &g, ug), Some(Card::GreatHall));

    let iw = q(
        Why::Gain,
        Card::Ironworks,
        &[Card::Silver, Card::GreatHall, Card::Estate],
        false,
    );
    assert_eq!(pick(BUY, &g, iw), Some(Card::Silver));
    let own = format!("{BUY}Ironworks gain:\n    Great Hall\n");
    assert_eq!(pick(&own, &g, iw), Some(Card::GreatHall));

    let sab = q(
        Why::Gain,
        Card::Saboteur,
        &[Card::Curse, Card::Copper, Card::Silver],
        true,
    );
    assert_eq!(pick(BUY, &g, sab), Some(Card::Silver));
    let own = format!("{BUY}Saboteur gain:\n    none\n");
    assert_eq!(pick(&own, &g, sab), None);
}

fn err(text: &str) -> strategy::StrategyError {
    match strategy::parse(text, "t.dom") {
        Err(e) => e,
        Ok(_) => panic!("accepted: {text}"),
    }
}

#[test]
fn bad_option_values_are_positioned_errors_with_suggestions() {
    let e = err("buy: Gold\nSteward mode: yes\n");
    assert_eq!((e.line, e.col), (2, 9));
    assert!(e.msg.contains("Steward has no option 'mode'"), "{}", e.msg);
    assert!(
        e.msg.contains("trash, coins, cards, trash_cards"),
        "{}",
        e.msg
    );
    let e = err("buy: Gold\nMasquerade pas:\n    Curse\n");
    assert!(e.msg.contains("did you mean 'pass'"), "{}", e.msg);
    assert_eq!((e.line, e.col), (2, 12));
    let e = err("buy: Gold\nMinion attack: 3\n");
    assert!(e.msg.contains("expected a condition"), "{}", e.msg);
    assert_eq!((e.line, e.col), (2, 16));
    let e = err("buy: Gold\nPawn card_coin: hand(Coper) > 0\n");
    assert!(e.msg.contains("did you mean 'Copper'"), "{}", e.msg);
    assert_eq!((e.line, e.col), (2, 22));
    let e = err("buy: Gold\nSwindler give:\n    Duchie\n");
    assert!(e.msg.contains("did you mean 'Duchy'"), "{}", e.msg);
    assert_eq!((e.line, e.col), (3, 5));
    let e = err("buy: Gold\nTribute anything: yes\n");
    assert!(e.msg.contains("Tribute asks no questions"), "{}", e.msg);
    let e = err("buy: Gold\nWishing Well name: yes\n");
    assert!(e.msg.contains("unknown card"), "{}", e.msg);
}

#[test]
fn reference_bots_compile_and_play_without_faults() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/strategies/");
    let bots = [
        ("masquerade_big_money", "Victory Dance"),
        ("courtyard_big_money", "Best Wishes"),
        ("wishing_well", "Best Wishes"),
        ("torturer", "Best Wishes"),
        ("minion", "Hand Madness"),
        ("nobles", "Victory Dance"),
        ("duke_duchy", "Victory Dance"),
        ("great_hall", "Victory Dance"),
        ("bridge", "Victory Dance"),
        ("conspirator", "Secret Schemes"),
        ("upgrade", "Victory Dance"),
        ("tribute", "Secret Schemes"),
        ("harem", "Victory Dance"),
        ("saboteur", "Secret Schemes"),
        ("secret_chamber", "Deconstruction"),
        ("scout", "Victory Dance"),
    ];
    for (f, preset) in bots {
        let k: Kingdom = domsim::dominion::presets::Preset::find(preset)
            .and_then(|p| p.kingdom(2))
            .unwrap_or_else(|e| panic!("{preset}: {e}"));
        let st = strategy::load(std::path::Path::new(&format!("{dir}{f}.dom")))
            .unwrap_or_else(|e| panic!("{e}"));
        let (me, _) = st.compile(&k).unwrap_or_else(|e| panic!("{e}"));
        let bmu = strategy::load(std::path::Path::new(&format!(
            "{dir}big_money_ultimate.dom"
        )))
        .unwrap_or_else(|e| panic!("{e}"));
        let (other, _) = bmu.compile(&k).unwrap_or_else(|e| panic!("{e}"));
        let mut g = Game::new(&k, 7, 0);
        for i in 0..20 {
            g.reset(&k, 7, i);
            let mut b = StrategyBots::new(&[&me, &other]);
            let o = g.play_game(&mut b);
            assert!(g.fault.is_none(), "{f}: {:?}", g.fault);
            assert!(!o.capped, "{f}: game {i} capped");
        }
        // The key card was bought at least once over the 20 games.
        let key = st.name.clone();
        assert!(!key.is_empty());
    }
}

#[test]
fn cli_runs_strategy_files() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/strategies/");
    let masq = format!("{dir}masquerade_big_money.dom");
    let bmu = format!("{dir}big_money_ultimate.dom");
    let out = crate::cli::domsim(&[
        "sim",
        &masq,
        &bmu,
        "--preset",
        "Victory Dance",
        "-n",
        "40",
        "-j",
        "1",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("Masquerade Big Money") && text.contains("Big Money Ultimate"));
    // Mixed with the built-in hand-coded bot.
    let out = crate::cli::domsim(&[
        "matrix",
        &masq,
        "builtin:big-money",
        "--preset",
        "Victory Dance",
        "-n",
        "20",
        "-j",
        "1",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A bad option value is reported with its position.
    let dir = crate::cli::scratch("intrigue-bad");
    let tmp = dir.join("bad.dom");
    std::fs::write(&tmp, "buy: Gold\nSteward coins: 3\n").expect("write");
    let out = crate::cli::domsim(&[
        "check",
        tmp.to_str().expect("path"),
        "--preset",
        "Secret Schemes",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains(":2:16: expected a condition"), "{err}");
}
