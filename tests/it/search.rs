//! The search bot (issue 46, `domsim::search`): its information boundary
//! (the way New Salem's bots are tested: two true states that differ only
//! in what the player cannot see give the same decision), that its
//! rollouts never start from the true hidden state, a decision that only
//! look-ahead gets right, determinism across thread counts, and its
//! lineup entry.

use crate::cli::{domsim, scratch, stderr};
use domsim::bots::BigMoney;
use domsim::cards::{Card, CardSet};
use domsim::dominion::lineup::{self, compile_shipped, Loaded};
use domsim::engine::{Bots, Game, GameRng, Kingdom, Pick, Why};
use domsim::search::model::{model_for, ABSENT_AFTER};
use domsim::search::{Model, Observation, SearchBot, SearchConfig};
use domsim::strategy::{Compiled, StrategyBots};

/// A kingdom with Witch (and Moat against it).
const WITCH: [&str; 10] = [
    "Witch",
    "Smithy",
    "Village",
    "Market",
    "Moat",
    "Cellar",
    "Chapel",
    "Festival",
    "Laboratory",
    "Mine",
];

fn witch_kingdom() -> Kingdom {
    Kingdom::from_names(2, &WITCH).unwrap()
}

/// The policies of a default `search` entry compiled for `k`: its own
/// rollout policy and its opponent models.
fn auto_policies(k: &Kingdom) -> (Compiled, Vec<Model>) {
    let (_, l) = lineup::load("search").unwrap();
    let Loaded::Search(s) = l else {
        panic!("not a search entry")
    };
    s.compile(k).unwrap()
}

fn cfg(budget: u32) -> SearchConfig {
    SearchConfig {
        budget,
        ..SearchConfig::default()
    }
}

/// Game 3 of seed 11 in `k`, played by `bots` for `turns` turns, then the
/// active player's Treasures played: a buy decision with hidden cards on
/// both sides. Returns the game and the buy question.
fn mid_game(k: &Kingdom, bots: &Compiled, turns: usize) -> (Game, Pick) {
    let mut g = Game::new(k, 11, 3);
    let mut b = StrategyBots::new(&[bots, bots]);
    for _ in 0..turns {
        g.play_turn(&mut b);
    }
    g.start_turn(&mut b);
    g.action_phase(&mut b);
    g.treasure_step(&mut b);
    let q = Pick::turn(g.active, Why::Buy, g.buyable());
    (g, q)
}

/// `g` with everything `me` cannot see changed: his draw pile reordered;
/// each opponent's hand, draw pile and discard pile below its top card
/// dealt again (same sizes) from a shuffle of those cards; another
/// generator.
fn reshuffle_hidden(g: &Game, me: u8, seed: u64) -> Game {
    let mut h = g.clone();
    let mut rng = GameRng::for_game(seed, 99);
    rng.shuffle(h.players[me as usize].deck.as_mut_slice());
    for q in g.others(me) {
        let pl = &mut h.players[q as usize];
        let (hn, dn, xn) = (pl.hand.len(), pl.deck.len(), pl.discard.len());
        let top = pl.discard.pop();
        let mut pool: Vec<Card> = pl
            .hand
            .iter()
            .chain(pl.deck.iter())
            .chain(pl.discard.iter())
            .collect();
        rng.shuffle(&mut pool);
        pl.hand.clear();
        pl.deck.clear();
        pl.discard.clear();
        pl.hand.extend_from(&pool[..hn]);
        pl.deck.extend_from(&pool[hn..hn + dn]);
        pl.discard.extend_from(&pool[hn + dn..]);
        if let Some(t) = top {
            pl.discard.push(t);
        }
        assert_eq!(
            (pl.hand.len(), pl.deck.len(), pl.discard.len()),
            (hn, dn, xn)
        );
    }
    h.rng = GameRng::for_game(seed, 7);
    h
}

fn same_zone(a: &domsim::engine::CardVec, b: &domsim::engine::CardVec) -> bool {
    a.as_slice() == b.as_slice()
}

#[test]
fn hidden_information_does_not_change_the_decision() {
    let k = witch_kingdom();
    let dw = compile_shipped("double_witch.dom", &k).unwrap();
    let bmu = compile_shipped("big_money_ultimate.dom", &k).unwrap();
    let (own, models) = auto_policies(&k);
    let (g, q) = mid_game(&k, &dw, 9);
    let me = q.player;
    let opp = 1 - me;
    // The default search (its own policy and opponent models chosen from
    // the observation) and the plain one (Big Money Ultimate everywhere).
    let decide = |g: &Game| {
        let mut auto = SearchBot::new(cfg(60), &own, &models);
        let b = auto.decide(g, &q);
        let mut bot = SearchBot::new(cfg(60), &bmu, &[]);
        let a = bot.decide(g, &q);
        (a, bot.last.arms.clone(), b, auto.last.arms.clone())
    };
    let truth = decide(&g);
    let mut changed = 0;
    for seed in 1..=4 {
        let h = reshuffle_hidden(&g, me, seed);
        // The hidden parts did change (the test is not vacuous)…
        if !same_zone(&h.players[opp as usize].hand, &g.players[opp as usize].hand)
            || !same_zone(&h.players[me as usize].deck, &g.players[me as usize].deck)
        {
            changed += 1;
        }
        // …and the search saw none of it: same answer, same statistics to
        // the last bit.
        assert_eq!(
            decide(&h),
            truth,
            "hidden reshuffle {seed} changed the search"
        );
    }
    assert!(changed >= 3, "the hidden reshuffles changed nothing");
    // A change the player can see (one more card on his discard pile)
    // does change the statistics: the comparison above can fail.
    let mut seen = g.clone();
    seen.players[me as usize].discard.push(Card::Gold);
    seen.players[me as usize].add_owned(Card::Gold);
    let seen = decide(&seen);
    assert_ne!(seen.1, truth.1);
    assert_ne!(seen.3, truth.3);
}

#[test]
fn rollouts_never_start_from_the_true_hidden_state() {
    let k = witch_kingdom();
    let dw = compile_shipped("double_witch.dom", &k).unwrap();
    let bmu = compile_shipped("big_money_ultimate.dom", &k).unwrap();
    // The first mid-game buy where my draw pile has 6 cards or more (so its
    // order has many arrangements) and the opponent holds a hand.
    let (g, q) = (5..20)
        .map(|t| mid_game(&k, &dw, t))
        .find(|(g, q)| {
            let me = q.player as usize;
            g.players[me].deck.len() >= 6
                && g.players[me]
                    .deck
                    .iter()
                    .any(|c| c != g.players[me].deck.as_slice()[0])
                && g.players[1 - me].hand.len() == 5
        })
        .unwrap();
    let (me, opp) = (q.player as usize, 1 - q.player as usize);
    let mut bot = SearchBot::new(cfg(40), &bmu, &[]);
    bot.decide(&g, &q);
    let sorted = |z: &[Card]| {
        let mut v = z.to_vec();
        v.sort();
        v
    };
    let mut opp_hands = std::collections::HashSet::new();
    for k in 0..200 {
        let w = bot.world(k).unwrap();
        // Never the true generator, never the true order of my draw pile,
        // never the opponent's true hand and draw pile together.
        assert_ne!(w.rng, g.rng, "sample {k} has the game's generator");
        assert!(
            !same_zone(&w.players[me].deck, &g.players[me].deck),
            "sample {k} has my true draw order"
        );
        assert!(
            !(same_zone(&w.players[opp].hand, &g.players[opp].hand)
                && same_zone(&w.players[opp].deck, &g.players[opp].deck)),
            "sample {k} has the opponent's true hand and deck"
        );
        // What I see is kept: my hand and discard, my deck's composition,
        // every size, the tops of the discard piles, the Supply, the trash.
        assert!(same_zone(&w.players[me].hand, &g.players[me].hand));
        assert!(same_zone(&w.players[me].discard, &g.players[me].discard));
        assert_eq!(
            sorted(w.players[me].deck.as_slice()),
            sorted(g.players[me].deck.as_slice())
        );
        for p in [me, opp] {
            let (a, b) = (&w.players[p], &g.players[p]);
            assert_eq!(
                (
                    a.hand.len(),
                    a.deck.len(),
                    a.discard.len(),
                    a.discard.last()
                ),
                (
                    b.hand.len(),
                    b.deck.len(),
                    b.discard.len(),
                    b.discard.last()
                )
            );
            assert_eq!(a.owned, b.owned);
        }
        assert_eq!(w.supply, g.supply);
        assert!(same_zone(&w.trash, &g.trash));
        w.check_invariants().unwrap();
        opp_hands.insert(sorted(w.players[opp].hand.as_slice()));
    }
    // The opponent's hands are really sampled.
    assert!(opp_hands.len() >= 5, "{opp_hands:?}");
}

/// A game where seat 0 holds $10 (two Golds, a Silver, two Coppers) with
/// one Province left, 4 VP behind an opponent whose deck is all Gold: the
/// last Province wins now; anything else lets the opponent take it.
fn last_province() -> Game {
    let k = witch_kingdom();
    let mut g = Game::empty(&k, GameRng::for_game(5, 5));
    let me = &mut g.players[0];
    me.hand.extend_from(&[
        Card::Gold,
        Card::Gold,
        Card::Silver,
        Card::Copper,
        Card::Copper,
    ]);
    me.deck.extend_from(&[Card::Copper; 5]);
    me.deck.extend_from(&[Card::Estate; 3]);
    me.discard.extend_from(&[Card::Province, Card::Silver]);
    let opp = &mut g.players[1];
    opp.hand.extend_from(&[Card::Gold; 5]);
    opp.deck.extend_from(&[Card::Gold; 8]);
    opp.discard.extend_from(&[Card::Province, Card::Duchy]);
    opp.discard.extend_from(&[Card::Estate; 4]);
    g.supply[Card::Province as usize] = 1;
    g.turns_taken = [9, 9, 0, 0, 0, 0];
    g.recount_totals();
    g.start_turn(&mut BigMoney);
    g.treasure_step(&mut BigMoney);
    g
}

#[test]
fn look_ahead_finds_the_last_province() {
    let g = last_province();
    let k = g.kingdom;
    let bmu = compile_shipped("big_money_ultimate.dom", &k).unwrap();
    assert_eq!((g.vp(0), g.vp(1)), (9, 13));
    let q = Pick::turn(0, Why::Buy, g.buyable());
    // The rollout strategy alone buys a Duchy here (total money 17 < 18):
    // only looking ahead shows that the Province ends the game won.
    let mut plain = StrategyBots::new(&[&bmu, &bmu]);
    assert_eq!(plain.turn_pick(&g, &q), Some(Card::Duchy));
    let mut bot = SearchBot::new(cfg(100), &bmu, &[]);
    assert_eq!(
        bot.decide(&g, &q),
        Some(Card::Province),
        "{}",
        bot.last.describe()
    );
    let arms = &bot.last.arms;
    let province = arms
        .iter()
        .find(|a| a.answer == Some(Card::Province))
        .unwrap();
    let duchy = arms.iter().find(|a| a.answer == Some(Card::Duchy)).unwrap();
    assert!(province.mean() > 0.9 && duchy.mean() < 0.2, "{arms:?}");
}

#[test]
fn same_csv_whatever_the_thread_count() {
    let dir = scratch("search-threads");
    let run = |j: &str| {
        let out = dir.join(format!("j{j}.csv"));
        let o = domsim(&[
            "sim",
            "search:budget=8",
            "strategies/double_witch.dom",
            "--kingdom",
            "Witch,Smithy,Village,Market,Moat,Cellar,Chapel,Festival,Laboratory,Mine",
            "-n",
            "12",
            "--seed",
            "5",
            "-j",
            j,
            "-o",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        std::fs::read_to_string(out).unwrap()
    };
    let one = run("1");
    assert!(one.contains("Search (budget 8)"), "{one}");
    assert_eq!(one, run("2"));
}

/// `--search-budget N` gives its budget to every search bot that names
/// none (and only to those); without such a bot it is refused.
#[test]
fn search_budget_flag_sets_the_unnamed_budgets_only() {
    let dir = scratch("search-budget");
    let out = dir.join("t.csv");
    let o = domsim(&[
        "sim",
        "search",
        "search:budget=3",
        "--search-budget",
        "2",
        "--preset",
        "First Game",
        "-n",
        "2",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let csv = std::fs::read_to_string(&out).unwrap();
    assert!(csv.contains("Search (budget 2)"), "{csv}");
    assert!(csv.contains("Search (budget 3)"), "{csv}");
    for (args, says) in [
        (
            vec!["sim", "strategies/big_money.dom", "--search-budget", "5"],
            "no `search` bot without a budget of its own",
        ),
        (
            vec!["sim", "search", "--search-budget", "0"],
            "0 is not in 1..=1000000",
        ),
    ] {
        let o = domsim(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn bad_search_options_exit_2_with_the_option_named() {
    for (spec, says) in [
        ("search:budget=0", "budget=0 must be a whole number"),
        ("search:budget=lots", "budget=lots"),
        ("search:depth=3", "unknown option 'depth'"),
        ("search:budget", "'budget' is not NAME=VALUE"),
        ("search:c=-1", "c=-1 must be a number from 0 to 10"),
        ("search:margin=2", "margin=2 must be a number from 0 to 1"),
        ("search:budget=5,budget=6", "option 'budget' is given twice"),
        (
            "search:rollout=nowhere.dom",
            "rollout strategy file 'nowhere.dom' does not exist",
        ),
        (
            "search:opponent=nowhere.dom",
            "opponent strategy file 'nowhere.dom' does not exist",
        ),
        ("search:select=best", "select=best must be halving or ucb"),
        (
            "search:window=21",
            "window=21 must be a whole number from 0 to 20, or off",
        ),
        (
            "search:prior=-0.5",
            "prior=-0.5 must be a number from 0 to 1",
        ),
        ("search:plays=some", "plays=some must be all or choices"),
        (
            "search:horizon=0",
            "horizon=0 must be a whole number of turns from 1 to 200, or off",
        ),
        (
            "search:horizon=soon",
            "horizon=soon must be a whole number of turns from 1 to 200, or off",
        ),
        ("search:horizon=201", "horizon=201 must be a whole number"),
    ] {
        let o = domsim(&["sim", spec, "strategies/double_witch.dom", "-n", "2"]);
        assert_eq!(o.status.code(), Some(2), "{spec}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{spec}: {}", stderr(&o));
    }
}

#[test]
fn log_explain_shows_the_search_statistics() {
    let o = domsim(&[
        "log",
        "search:budget=12",
        "strategies/big_money_ultimate.dom",
        "--kingdom",
        "Witch,Smithy,Village,Market,Moat,Cellar,Chapel,Festival,Laboratory,Mine",
        "--explain",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("search: "), "{text}");
    assert!(text.contains(" visits, mean "), "{text}");
    assert!(text.contains("rollout policy's answer "), "{text}");
    assert!(
        text.contains("opponents modelled: seat 2 as ")
            || text.contains("opponents modelled: seat 1 as "),
        "{text}"
    );
}

/// The opponent model reads the opponent's public gains only: where his
/// Witch lies (hand, deck, discard) and his draw order do not change it,
/// owning a Witch does. A Double Witch opponent is modelled by a policy
/// that buys Witches; a Big Money opponent, after [`ABSENT_AFTER`] turns
/// without a Kingdom card, by one that names none.
#[test]
fn the_opponent_model_reads_only_public_gains() {
    let k = witch_kingdom();
    let dw = compile_shipped("double_witch.dom", &k).unwrap();
    let bmu = compile_shipped("big_money_ultimate.dom", &k).unwrap();
    let (own, models) = auto_policies(&k);
    // The pool's best policy in a Witch kingdom is the Witch bot.
    assert_eq!(own.name, "Double Witch");
    let (g, q) = mid_game(&k, &dw, 9);
    let (me, opp) = (q.player, 1 - q.player);
    assert!(g.players[opp as usize].owned[Card::Witch as usize] > 0);
    let m = model_for(&Observation::of(&g, me), opp, &models);
    assert!(
        models[m].kingdom_cards.contains(Card::Witch),
        "{}",
        models[m].compiled.name
    );
    for seed in 1..=4 {
        let h = reshuffle_hidden(&g, me, seed);
        assert_eq!(model_for(&Observation::of(&h, me), opp, &models), m);
    }
    // A Big Money opponent.
    let (g, q) = mid_game(&k, &bmu, 14);
    let (me, opp) = (q.player, 1 - q.player);
    assert!(g.turns_taken[opp as usize] >= ABSENT_AFTER);
    let m = model_for(&Observation::of(&g, me), opp, &models);
    assert!(
        models[m].kingdom_cards.is_empty(),
        "{}",
        models[m].compiled.name
    );
    // The same game, the opponent having gained a Witch (public): now a
    // Witch bot, wherever the Witch lies.
    let mut h = g.clone();
    h.players[opp as usize].deck.push(Card::Witch);
    h.players[opp as usize].add_owned(Card::Witch);
    h.supply[Card::Witch as usize] -= 1;
    h.recount_totals();
    let w = model_for(&Observation::of(&h, me), opp, &models);
    assert!(
        models[w].kingdom_cards.contains(Card::Witch),
        "{}",
        models[w].compiled.name
    );
    for seed in 1..=3 {
        let r = reshuffle_hidden(&h, me, seed);
        assert_eq!(model_for(&Observation::of(&r, me), opp, &models), w);
    }
    // And the search bot plays that opponent's rollouts with the model.
    let mut bot = SearchBot::new(cfg(20), &own, &models);
    bot.decide(&h, &q);
    assert_eq!(bot.seat_policy(opp), models[w].compiled.name);
}

/// With $10, a window of 2 considers the cards costing 8 or more, "nothing"
/// and the rollout policy's own answer (first, so that ties go to it); a
/// window of 4, the cards costing 6 or more.
#[test]
fn the_buy_window_keeps_the_rollout_answer_first() {
    let g = last_province();
    let q = Pick::turn(0, Why::Buy, g.buyable());
    assert_eq!(g.turn.coins, 10);
    let c: Vec<Option<Card>> = SearchBot::candidates(&g, &q, Some(Card::Duchy), Some(2)).collect();
    assert_eq!(c, [Some(Card::Duchy), None, Some(Card::Province)]);
    let c: Vec<Option<Card>> = SearchBot::candidates(&g, &q, Some(Card::Duchy), Some(4)).collect();
    assert_eq!(
        c,
        [
            Some(Card::Duchy),
            None,
            Some(Card::Gold),
            Some(Card::Province)
        ]
    );
    let all = SearchBot::candidates(&g, &q, Some(Card::Duchy), None).count();
    assert!(all > 10 && !SearchBot::candidates(&g, &q, None, None).any(|c| c == Some(Card::Curse)));
}

/// An Action play whose only alternative is to stop (one Action kind in
/// hand) is the rollout policy's, without rollouts, by default; with
/// `lone_plays` (`plays=all`) it is searched like any other.
#[test]
fn a_lone_action_play_is_searched_only_with_plays_all() {
    let k = witch_kingdom();
    let dw = compile_shipped("double_witch.dom", &k).unwrap();
    let mut g = Game::empty(&k, GameRng::for_game(5, 5));
    g.players[0].hand.extend_from(&[
        Card::Witch,
        Card::Copper,
        Card::Copper,
        Card::Estate,
        Card::Silver,
    ]);
    g.players[0].deck.extend_from(&[Card::Copper; 5]);
    g.players[0].deck.extend_from(&[Card::Estate; 2]);
    g.players[1].hand.extend_from(&[Card::Copper; 5]);
    g.players[1].deck.extend_from(&[Card::Copper; 2]);
    g.players[1].deck.extend_from(&[Card::Estate; 3]);
    g.recount_totals();
    g.start_turn(&mut BigMoney);
    let q = Pick::turn(0, Why::PlayAction, CardSet::one(Card::Witch));
    let mut bot = SearchBot::new(cfg(40), &dw, &[]);
    assert_eq!(bot.decide(&g, &q), Some(Card::Witch));
    assert!(
        bot.last.arms.iter().all(|a| a.visits == 0),
        "{:?}",
        bot.last.arms
    );
    let all = SearchConfig {
        lone_plays: true,
        ..cfg(40)
    };
    let mut bot = SearchBot::new(all, &dw, &[]);
    bot.decide(&g, &q);
    let visits: Vec<u32> = bot.last.arms.iter().map(|a| a.visits).collect();
    assert_eq!(visits, [20, 20]);
}

/// `horizon=N` sets the rollout horizon, `off` (the default) none.
#[test]
fn the_horizon_option_parses() {
    let horizon = |spec: &str| match lineup::load(spec).unwrap().1 {
        Loaded::Search(s) => s.cfg.horizon,
        _ => panic!("{spec}: not a search entry"),
    };
    assert_eq!(horizon("search"), None);
    assert_eq!(horizon("search:horizon=off"), None);
    assert_eq!(horizon("search:horizon=1"), Some(1));
    assert_eq!(horizon("search:budget=9,horizon=12"), Some(12));
    assert_eq!(SearchConfig::default().horizon, None);
}

/// A rollout with a horizon of N stops at the start of the player's turn
/// once he has taken N more turns (everyone has then taken as many), and
/// without one it plays to the end.
#[test]
fn a_rollout_stops_at_its_horizon() {
    let k = witch_kingdom();
    let bmu = compile_shipped("big_money_ultimate.dom", &k).unwrap();
    let (g, q) = mid_game(&k, &bmu, 6);
    let p = q.player;
    let t = g.turns_taken[p as usize];
    for h in [1u16, 3] {
        let mut w = g.clone();
        let c = SearchConfig {
            horizon: Some(h),
            ..cfg(1)
        };
        let v =
            domsim::search::rollout(&mut w, &mut StrategyBots::new(&[&bmu, &bmu]), &q, None, &c);
        assert!(!w.over, "horizon {h}: the game should not end this early");
        assert_eq!(w.active, p, "horizon {h}");
        assert_eq!(w.turns_taken[p as usize], t + h, "horizon {h}");
        assert!(
            w.turns_taken.iter().take(2).all(|&n| n == t + h),
            "{:?}",
            w.turns_taken
        );
        assert_eq!(v, domsim::search::evaluate(&w, p, c.margin));
        assert!(v > 0.0 && v < 1.0, "{v}");
    }
    let mut w = g.clone();
    domsim::search::rollout(
        &mut w,
        &mut StrategyBots::new(&[&bmu, &bmu]),
        &q,
        None,
        &cfg(1),
    );
    assert!(w.over);
}

/// The horizon's evaluation: level decks and VP are an even game; more VP
/// or a richer deck (Gold for Copper) is better, and the two weigh by
/// MONEY_VP VP a coin of expected hand money.
#[test]
fn the_horizon_evaluation_weighs_vp_and_money() {
    use domsim::search::{evaluate, expected_hand_money};
    let k = witch_kingdom();
    let mut g = Game::empty(&k, GameRng::for_game(1, 1));
    for p in 0..2 {
        g.players[p].deck.extend_from(&[Card::Copper; 7]);
        g.players[p].deck.extend_from(&[Card::Estate; 3]);
    }
    g.recount_totals();
    assert_eq!(expected_hand_money(&g.players[0]), 3.5);
    assert!((evaluate(&g, 0, 0.0) - 0.5).abs() < 1e-12);
    assert!((evaluate(&g, 0, 0.05) - 0.5).abs() < 1e-12);
    // A Duchy more: 3 VP ahead.
    let mut vp = g.clone();
    vp.players[0].discard.push(Card::Duchy);
    vp.recount_totals();
    let ahead = evaluate(&vp, 0, 0.0);
    let expected =
        1.0 / (1.0 + (-(3.0 + 3.0 * (expected_hand_money(&vp.players[0]) - 3.5)) / 5.0f64).exp());
    assert!((ahead - expected).abs() < 1e-12, "{ahead} {expected}");
    assert!(ahead > 0.5 && (evaluate(&vp, 1, 0.0) - (1.0 - ahead)).abs() < 1e-12);
    // Two Golds for two Coppers: 4 more coins in 10 cards, a hand worth 2
    // coins more, 6 VP.
    let mut rich = g.clone();
    rich.players[1].deck.clear();
    rich.players[1].deck.extend_from(&[Card::Copper; 5]);
    rich.players[1].deck.extend_from(&[Card::Gold; 2]);
    rich.players[1].deck.extend_from(&[Card::Estate; 3]);
    rich.recount_totals();
    assert_eq!(expected_hand_money(&rich.players[1]), 5.5);
    assert!((evaluate(&rich, 1, 0.0) - 1.0 / (1.0 + (-6.0 / 5.0f64).exp())).abs() < 1e-12);
}
