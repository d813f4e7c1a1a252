//! Base-game rules that the scenario notation cannot state directly: which
//! questions are asked (and with which legal answers), limits on selections,
//! setup, and whole games with random legal play.

use domsim::bots::{Asked, BigMoney, RandomBots};
use domsim::cards::{Card, Set};
use domsim::engine::{Game, Kingdom};
use domsim::scenario::{Report, Scenario};
use std::collections::BTreeSet;

/// Run a scenario text; panics on a parse or run error.
fn run(text: &str) -> Report {
    Scenario::parse(text)
        .unwrap_or_else(|e| panic!("{e}"))
        .run()
        .unwrap_or_else(|e| panic!("{e}"))
}

/// The questions asked whose text starts with `prefix` (e.g. "gain a card (Feast)").
fn asked<'a>(r: &'a Report, prefix: &str) -> Vec<&'a Asked> {
    r.transcript
        .iter()
        .filter(|a| a.question.starts_with(prefix))
        .collect()
}

/// The legal answers listed in a question ("why (by): A, B or none").
fn legal(a: &Asked) -> BTreeSet<String> {
    let list = a.question.split_once(": ").map_or("", |x| x.1);
    let list = list.strip_suffix(" or none").unwrap_or(list);
    list.split(", ").map(str::to_string).collect()
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|s| s.to_string()).collect()
}

fn assert_clean(r: &Report) {
    assert!(r.failures.is_empty(), "{:?}", r.failures);
    assert!(r.mismatches.is_empty(), "{:?}", r.mismatches);
    assert!(r.game.fault.is_none(), "{:?}", r.game.fault);
}

/// CARDS.md 5.1.2: the other Chapel is selectable, Chapel itself is not, and
/// a fifth card is never asked for.
#[test]
fn chapel_trashes_at_most_four_and_not_itself() {
    let r = run("kingdom: Chapel\n\
         p0.hand: Chapel, Chapel, Copper*5\n\
         answers.p0: Copper*5\n\
         do: play Chapel\n\
         expect trash: Copper*4\n\
         expect p0.hand: Chapel, Copper\n");
    assert_clean(&r);
    let qs = asked(&r, "trash a card (Chapel)");
    assert_eq!(qs.len(), 4, "{:#?}", r.transcript);
    assert_eq!(legal(qs[0]), set(&["Copper", "Chapel"]));
    assert_eq!(r.unused_answers, 1, "a fifth Copper must not be trashed");
    assert_eq!(r.game.player(0).play.len(), 1);
}

/// CARDS.md 5.1.26: Council Room opens no reaction window even when the
/// other player holds a Moat.
#[test]
fn council_room_opens_no_reaction_window() {
    let r = run("kingdom: Council Room, Moat\n\
         p0.hand: Council Room\n\
         p0.deck: Copper*5\n\
         p1.hand: Moat\n\
         p1.discard: Gold\n\
         do: play Council Room\n\
         expect p1.hand: Moat, Gold\n");
    assert_clean(&r);
    assert!(r.transcript.is_empty(), "{:#?}", r.transcript);
}

/// Every Attack opens a window in which the Moat holder is asked; Throne
/// Room on Militia asks twice (two plays, two windows).
#[test]
fn every_attack_asks_the_moat_holder_once_per_play() {
    for attack in ["Bureaucrat", "Militia", "Spy", "Thief", "Witch"] {
        let r = run(&format!(
            "players: 3\n\
             kingdom: {attack}, Moat\n\
             p0.hand: {attack}\n\
             p0.deck: Copper*3\n\
             p1.hand: Moat, Moat, Copper*3\n\
             p1.deck: Copper*2\n\
             p2.hand: Copper*5\n\
             p2.deck: Copper*2\n\
             answers.p1: Moat\n\
             do: play {attack}\n\
             expect p1.hand: Moat*2, Copper*3\n\
             expect p1.deck: Copper*2\n\
             expect p1.discard: -\n"
        ));
        assert_clean(&r);
        // One question per physical Moat (RULES §17.7): the script reveals
        // the first, the default reveals the second; P2 holds none.
        let reacts: Vec<_> = r
            .transcript
            .iter()
            .filter(|a| a.question.starts_with("reveal a Reaction"))
            .collect();
        assert!(
            reacts.iter().all(|a| a.player == 1),
            "{attack}: only P1 holds a Reaction: {reacts:#?}"
        );
        assert_eq!(
            reacts.len(),
            2,
            "{attack}: one question per Moat: {reacts:#?}"
        );
    }
    let r = run("kingdom: Throne Room, Militia, Moat\n\
         p0.hand: Throne Room, Militia\n\
         p1.hand: Moat, Copper*4\n\
         answers.p0: Militia\n\
         answers.p1: Moat, Moat\n\
         do: play Throne Room\n\
         expect p1.hand: Moat, Copper*4\n\
         expect coins: 4\n");
    assert_clean(&r);
    assert_eq!(r.unused_answers, 0);
    assert_eq!(asked(&r, "reveal a Reaction").len(), 2);
}

/// "Gain a card costing up to $N": the coins held never raise the limit,
/// and the legal list is exactly the non-empty Supply piles within it.
#[test]
fn gain_limits_ignore_coins_and_empty_piles() {
    // Feast ($5) with $6 in hand and the Duchy pile empty.
    let r = run("kingdom: Feast, Laboratory, Smithy\n\
         coins: 6\n\
         supply: Duchy=0\n\
         p0.hand: Feast\n\
         answers.p0: Laboratory\n\
         do: play Feast\n\
         expect p0.discard: Laboratory\n");
    assert_clean(&r);
    let q = asked(&r, "gain a card (Feast)");
    assert_eq!(q.len(), 1);
    assert_eq!(
        legal(q[0]),
        set(&[
            "Copper",
            "Silver",
            "Estate",
            "Curse",
            "Feast",
            "Laboratory",
            "Smithy"
        ])
    );
    // Workshop ($4).
    let r = run("kingdom: Workshop, Laboratory, Smithy\n\
         coins: 9\n\
         p0.hand: Workshop\n\
         answers.p0: Smithy\n\
         do: play Workshop\n\
         expect p0.discard: Smithy\n");
    assert_clean(&r);
    let q = asked(&r, "gain a card (Workshop)");
    assert_eq!(
        legal(q[0]),
        set(&["Copper", "Silver", "Estate", "Curse", "Workshop", "Smithy"])
    );
    // Remodel: Silver ($3) → up to $5; any card in hand may be trashed.
    let r = run("kingdom: Remodel, Laboratory, Adventurer\n\
         p0.hand: Remodel, Silver, Estate\n\
         answers.p0: Silver, Laboratory\n\
         do: play Remodel\n\
         expect trash: Silver\n\
         expect p0.discard: Laboratory\n");
    assert_clean(&r);
    assert_eq!(
        legal(asked(&r, "trash a card (Remodel)")[0]),
        set(&["Silver", "Estate"])
    );
    assert_eq!(
        legal(asked(&r, "gain a card (Remodel)")[0]),
        set(&[
            "Copper",
            "Silver",
            "Estate",
            "Duchy",
            "Curse",
            "Remodel",
            "Laboratory"
        ])
    );
    // Mine: only Treasures, up to $3 more (Copper → Copper or Silver).
    let r = run("kingdom: Mine\n\
         p0.hand: Mine, Copper, Estate\n\
         answers.p0: Copper, Silver\n\
         do: play Mine\n\
         expect p0.hand: Silver, Estate\n");
    assert_clean(&r);
    assert_eq!(legal(asked(&r, "trash a card (Mine)")[0]), set(&["Copper"]));
    assert_eq!(
        legal(asked(&r, "gain a card (Mine)")[0]),
        set(&["Copper", "Silver"])
    );
}

/// Throne Room's target is mandatory (no "none") and only Actions qualify;
/// Throne Room on Throne Room with one other Action: the second choice finds
/// nothing and asks nothing.
#[test]
fn throne_room_target_is_mandatory_action() {
    let r = run("kingdom: Throne Room, Smithy\n\
         p0.hand: Throne Room, Throne Room, Smithy, Copper, Estate\n\
         p0.deck: Copper*6\n\
         answers.p0: Throne Room, Smithy\n\
         do: play Throne Room\n\
         expect p0.hand: Copper*7, Estate\n\
         expect actions: 0\n\
         expect p0.play: Throne Room, Throne Room, Smithy\n");
    assert_clean(&r);
    let q = asked(&r, "choose a card to play (Throne Room)");
    assert_eq!(q.len(), 2, "{:#?}", r.transcript);
    assert!(!q[0].question.ends_with("or none"));
    assert_eq!(legal(q[0]), set(&["Throne Room", "Smithy"]));
    assert_eq!(legal(q[1]), set(&["Smithy"]));
}

/// Thief: the attacker (not the victim) picks the Treasure to trash, the
/// choice is mandatory, and the gain is optional.
#[test]
fn thief_questions_go_to_the_attacker() {
    let r = run("kingdom: Thief\n\
         p0.hand: Thief\n\
         p1.deck: Silver, Gold\n\
         answers.p0: Silver, none\n\
         do: play Thief\n\
         expect trash: Silver\n\
         expect p1.discard: Gold\n");
    assert_clean(&r);
    let t = asked(&r, "trash a card (Thief)");
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].player, 0);
    assert!(!t[0].question.ends_with("or none"));
    assert_eq!(legal(t[0]), set(&["Silver", "Gold"]));
    let g = asked(&r, "gain a card (Thief)");
    assert_eq!(g.len(), 1);
    assert!(g[0].question.ends_with("or none"));
    assert_eq!(legal(g[0]), set(&["Silver"]));
}

/// Militia: the victims choose (one question per card), the attacker none.
#[test]
fn militia_victim_chooses_each_discard() {
    let r = run("kingdom: Militia\n\
         p0.hand: Militia\n\
         p1.hand: Copper, Silver, Gold, Estate, Duchy, Province\n\
         answers.p1: Gold, Copper, Duchy\n\
         do: play Militia\n\
         expect p1.hand: Silver, Estate, Province\n\
         expect p1.discard: Duchy, Copper, Gold\n");
    assert_clean(&r);
    let q = asked(&r, "discard a card (Militia)");
    assert_eq!(q.len(), 3);
    assert!(q
        .iter()
        .all(|a| a.player == 1 && !a.question.ends_with("or none")));
}

/// RULES §3.2 pile sizes for 2–6 players and §3.3 starting decks.
#[test]
fn setup_pile_sizes_and_starting_decks() {
    let ten = [
        Card::Cellar,
        Card::Gardens,
        Card::Market,
        Card::Militia,
        Card::Mine,
        Card::Moat,
        Card::Remodel,
        Card::Smithy,
        Card::Village,
        Card::Workshop,
    ];
    // players: Copper, Silver, Gold, Estate, Duchy, Province, Curse, Gardens, Smithy, end piles
    let table: [(usize, [u8; 9], u8); 5] = [
        (2, [46, 40, 30, 8, 8, 8, 10, 8, 10], 3),
        (3, [39, 40, 30, 12, 12, 12, 20, 12, 10], 3),
        (4, [32, 40, 30, 12, 12, 12, 30, 12, 10], 3),
        (5, [85, 80, 60, 12, 12, 15, 40, 12, 10], 4),
        (6, [78, 80, 60, 12, 12, 18, 50, 12, 10], 4),
    ];
    let cards = [
        Card::Copper,
        Card::Silver,
        Card::Gold,
        Card::Estate,
        Card::Duchy,
        Card::Province,
        Card::Curse,
        Card::Gardens,
        Card::Smithy,
    ];
    for (n, sizes, end) in table {
        let k = Kingdom::new(n, &ten).unwrap();
        assert_eq!(k.end_piles, end, "{n} players");
        let g = Game::new(&k, 1, 0);
        for (c, s) in cards.iter().zip(sizes) {
            assert_eq!(g.pile(*c), s, "{c} with {n} players");
        }
        for p in 0..n as u8 {
            let pl = g.player(p);
            assert_eq!(pl.hand.len(), 5);
            assert_eq!(pl.deck.len(), 5);
            assert_eq!(pl.owned[Card::Copper as usize], 7);
            assert_eq!(pl.owned[Card::Estate as usize], 3);
            assert_eq!(pl.owned_total, 10);
            assert_eq!(g.vp(p), 3);
        }
        assert!(g.check_invariants().is_ok());
    }
}

/// Random legal play on random base-game kingdoms, 2–6 players: the
/// conservation invariant holds at every decision, no illegal answer is ever
/// produced, and games end by the rules (Provinces or enough empty piles).
#[test]
fn random_base_games_keep_invariants() {
    let mut finished = 0;
    let mut seen = std::collections::HashSet::new();
    for i in 0..150u64 {
        let players = 2 + (i % 5) as usize;
        let k = Kingdom::random(players, &[Set::Base], 1000 + i).unwrap();
        seen.extend(k.kingdom.iter());
        let mut g = Game::new(&k, 77, i);
        let mut b = RandomBots::new(i, true);
        g.play_game(&mut b);
        assert_eq!(b.violation, None, "game {i}");
        assert!(g.fault.is_none(), "game {i}: {:?}", g.fault);
        assert!(g.check_invariants().is_ok(), "game {i}");
        if !g.capped {
            assert!(
                g.end_condition(),
                "game {i} ended without the end condition"
            );
            finished += 1;
        }
    }
    assert!(
        finished > 75,
        "only {finished} of 150 random games finished"
    );
}

/// Big Money mirror: games end normally, the winner has the most VP.
#[test]
fn big_money_games_end_by_the_rules() {
    let k = Kingdom::random(2, &[Set::Base], 5).unwrap();
    for i in 0..20 {
        let mut g = Game::new(&k, 9, i);
        let o = g.play_game(&mut BigMoney);
        assert!(!o.capped);
        assert!(g.end_condition());
        let best = o.vp[..2].iter().copied().max().unwrap();
        for p in 0..2 {
            if o.won(p) {
                assert_eq!(o.vp[p], best);
            }
        }
        assert!(o.winner_count() >= 1);
    }
}

/// CARDS.md §0 and §1: cost and types of every basic and base-game card
/// (A = Action, T = Treasure, V = Victory, C = Curse, X = Attack, R = Reaction).
#[test]
fn base_card_costs_and_types_match_cards_md() {
    use domsim::cards::CardSet;
    let table: &[(&str, u8, &str)] = &[
        ("Copper", 0, "T"),
        ("Silver", 3, "T"),
        ("Gold", 6, "T"),
        ("Estate", 2, "V"),
        ("Duchy", 5, "V"),
        ("Province", 8, "V"),
        ("Curse", 0, "C"),
        ("Adventurer", 6, "A"),
        ("Bureaucrat", 4, "AX"),
        ("Cellar", 2, "A"),
        ("Chancellor", 3, "A"),
        ("Chapel", 2, "A"),
        ("Council Room", 5, "A"),
        ("Feast", 4, "A"),
        ("Festival", 5, "A"),
        ("Gardens", 4, "V"),
        ("Laboratory", 5, "A"),
        ("Library", 5, "A"),
        ("Market", 5, "A"),
        ("Militia", 4, "AX"),
        ("Mine", 5, "A"),
        ("Moat", 2, "AR"),
        ("Moneylender", 4, "A"),
        ("Remodel", 4, "A"),
        ("Smithy", 4, "A"),
        ("Spy", 4, "AX"),
        ("Thief", 4, "AX"),
        ("Throne Room", 4, "A"),
        ("Village", 3, "A"),
        ("Witch", 5, "AX"),
        ("Woodcutter", 3, "A"),
        ("Workshop", 3, "A"),
    ];
    let base: Vec<Card> = Card::PRINTED
        .iter()
        .copied()
        .filter(|c| matches!(c.info().set, Set::Base | Set::Basic))
        .collect();
    assert_eq!(base.len(), table.len());
    for &(name, cost, types) in table {
        let c = Card::from_name(name).unwrap_or_else(|| panic!("{name}"));
        assert_eq!(c.info().cost, cost, "{name} cost");
        let got: String = [
            (c.is_action(), 'A'),
            (c.is_treasure(), 'T'),
            (c.is_victory(), 'V'),
            (c == Card::Curse, 'C'),
            (CardSet::attacks().contains(c), 'X'),
            (CardSet::reactions().contains(c), 'R'),
        ]
        .iter()
        .filter(|x| x.0)
        .map(|x| x.1)
        .collect();
        assert_eq!(got, types, "{name} types");
        assert_eq!(c.is_kingdom(), c.info().set == Set::Base, "{name}");
    }
}
