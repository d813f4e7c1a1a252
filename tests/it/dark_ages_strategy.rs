//! Dark Ages strategy options: every option parses, compiles and steers the
//! decision it names; defaults; errors for bad option values; the reference
//! bots play fault-free.

use domsim::engine::{Bots, Choose, Game, Pick, Why, YesNo};
use domsim::scenario::Scenario;
use domsim::strategy::{self, options::OPTIONS, Compiled, StrategyBots};
use domsim::{Card, CardSet, Kingdom};

const K1: &str = "kingdom: Count, Counterfeit, Death Cart, Band of Misfits, Market Square, \
                  Storeroom, Squire, Graverobber, Hunting Grounds, Procession";
const K2: &str = "kingdom: Altar, Armory, Beggar, Catacombs, Cultist, Forager, Hermit, \
                  Ironmonger, Junk Dealer, Mystic";
const K3: &str = "kingdom: Knights, Wandering Minstrel, Pillage, Rats, Rebuild, Rogue, Scavenger, \
                  Sage, Urchin, Marauder";

fn game_in(kingdom: &str, lines: &str) -> Game {
    let text = format!("players: 2\n{kingdom}\n{lines}\n");
    match Scenario::parse(&text) {
        Ok(s) => s.game,
        Err(e) => panic!("scenario: {e}"),
    }
}

fn game(lines: &str) -> Game {
    game_in(K1, lines)
}

fn bot(text: &str, g: &Game) -> Compiled {
    let st = strategy::parse(text, "t.dom").unwrap_or_else(|e| panic!("{e}"));
    st.compile(&g.kingdom).unwrap_or_else(|e| panic!("{e}")).0
}

fn pick(text: &str, g: &Game, q: Pick) -> Option<Card> {
    let c = bot(text, g);
    StrategyBots::new(&[&c]).pick(g, &q)
}

fn yes(text: &str, g: &Game, by: Card, card: Option<Card>) -> bool {
    let c = bot(text, g);
    StrategyBots::new(&[&c]).yes_no(
        g,
        &YesNo {
            player: 0,
            by,
            card,
            target: 0,
        },
    )
}

fn q(why: Why, by: Option<Card>, legal: &[Card], optional: bool) -> Pick {
    Pick {
        player: 0,
        why,
        by,
        legal: legal.iter().copied().collect::<CardSet>(),
        optional,
        target: 0,
    }
}

const BUY: &str = "buy:\n    Province\n    Gold\n    Silver\n";

#[test]
fn every_dark_ages_option_parses_and_compiles() {
    let gs = [game_in(K1, ""), game_in(K2, ""), game_in(K3, "")];
    let mut n = 0;
    for o in OPTIONS
        .iter()
        .filter(|o| o.card.info().set == Card::Count.info().set)
    {
        // Shelters are in the game only when the deal says so.
        if o.card.is(domsim::cards::Types::SHELTER) {
            continue;
        }
        let cname = o.card.name();
        let text = match o.kind {
            strategy::options::Kind::List => format!("{BUY}{cname} {}:\n    Copper\n", o.name),
            strategy::options::Kind::Bool => format!("{BUY}{cname} {}: coins >= 2\n", o.name),
            strategy::options::Kind::Int => format!("{BUY}{cname} {}: 0\n", o.name),
        };
        let st = strategy::parse(&text, "t.dom").unwrap_or_else(|e| panic!("{cname}: {e}"));
        // Knights are in the game through their pile; the others must be in
        // one of the three kingdoms.
        let g = gs
            .iter()
            .find(|g| g.kingdom.in_game.contains(o.card))
            .unwrap_or_else(|| panic!("{cname} in no test kingdom"));
        let (_, warnings) = st.compile(&g.kingdom).unwrap_or_else(|e| panic!("{e}"));
        assert!(warnings.is_empty(), "{cname} {}: {warnings:?}", o.name);
        assert!(!o.doc.is_empty() && !o.default_doc.is_empty());
        n += 1;
    }
    assert!(n >= 50, "only {n} Dark Ages options");
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/strategies/DARK_AGES.md"
    ))
    .expect("strategies/DARK_AGES.md");
    for o in OPTIONS
        .iter()
        .filter(|o| o.card.info().set == Card::Count.info().set)
    {
        let key = format!("`{} {}`", o.card.name(), o.name);
        assert!(doc.contains(&key), "DARK_AGES.md lacks {key}");
    }
}

#[test]
fn ruins_and_knights_name_their_type() {
    let g = game_in(K3, "p0.hand: Ruined Market, Copper, Estate");
    let legal = [Card::RuinedMarket, Card::Copper, Card::Estate];
    let a = pick(
        &format!("{BUY}Rats trash:\n    Ruins\n    Estate\n"),
        &g,
        q(Why::Trash, Some(Card::Rats), &legal, false),
    );
    assert_eq!(a, Some(Card::RuinedMarket));
}

#[test]
fn death_cart_trashes_a_listed_action_else_itself() {
    let g = game("p0.hand: Ruined Market, Squire, Copper");
    let legal = [Card::RuinedMarket, Card::Squire];
    let d = q(Why::Trash, Some(Card::DeathCart), &legal, true);
    // Default: the Ruins.
    assert_eq!(pick(BUY, &g, d), Some(Card::RuinedMarket));
    assert_eq!(
        pick(&format!("{BUY}Death Cart trash:\n    Squire\n"), &g, d),
        Some(Card::Squire)
    );
    // An empty match: none (the Death Cart trashes itself).
    assert_eq!(
        pick(&format!("{BUY}Death Cart trash:\n    Estate\n"), &g, d),
        None
    );
}

#[test]
fn death_cart_reference_bot_trashes_ruins() {
    let g = game("p0.hand: Ruined Market, Copper");
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/strategies/death_cart.dom"
    ))
    .unwrap();
    let d = q(
        Why::Trash,
        Some(Card::DeathCart),
        &[Card::RuinedMarket],
        true,
    );
    assert_eq!(pick(&text, &g, d), Some(Card::RuinedMarket));
}

#[test]
fn count_two_choices_follow_their_own_modes() {
    let g = game("p0.hand: Copper, Copper, Estate\ncoins: 0");
    let c = bot(
        &format!("{BUY}Count topdeck: yes\nCount duchy: yes\nCount coins: yes\n"),
        &g,
    );
    let mut b = StrategyBots::new(&[&c]);
    let ch = Choose {
        player: 0,
        by: Card::Count,
        n: 3,
    };
    // First choice: topdeck (1); second: Duchy (option 2).
    assert_eq!(b.choose(&g, &ch), 1);
    assert_eq!(b.choose(&g, &ch), 2);
    // And again for the next Count.
    assert_eq!(b.choose(&g, &ch), 1);
    assert_eq!(b.choose(&g, &ch), 2);
    // Defaults: discard 2 cards, then trash a hand of Coppers and an Estate
    // early (coins + hand_money = 2 <= 3).
    let c = bot(BUY, &g);
    let mut b = StrategyBots::new(&[&c]);
    assert_eq!(b.choose(&g, &ch), 0);
    assert_eq!(b.choose(&g, &ch), 1);
}

#[test]
fn squire_graverobber_hunting_grounds_modes() {
    let g = game("p0.hand: Copper, Ruined Village\nactions: 1");
    let ch = |by, n| Choose { player: 0, by, n };
    let c = bot(BUY, &g);
    let mut b = StrategyBots::new(&[&c]);
    // Squire default: a Silver (actions left); Graverobber: a Ruins in hand
    // is upgraded; Hunting Grounds: the Duchy.
    assert_eq!(b.choose(&g, &ch(Card::Squire, 3)), 2);
    assert_eq!(b.choose(&g, &ch(Card::Graverobber, 2)), 1);
    assert_eq!(b.choose(&g, &ch(Card::HuntingGrounds, 2)), 0);
    let c = bot(
        &format!(
            "{BUY}Squire buys: yes\nGraverobber from_trash: yes\nHunting Grounds estates: yes\n"
        ),
        &g,
    );
    let mut b = StrategyBots::new(&[&c]);
    assert_eq!(b.choose(&g, &ch(Card::Squire, 3)), 1);
    assert_eq!(b.choose(&g, &ch(Card::Graverobber, 2)), 0);
    assert_eq!(b.choose(&g, &ch(Card::HuntingGrounds, 2)), 1);
}

#[test]
fn band_of_misfits_copy_and_market_square() {
    let g = game("p0.hand: Market Square, Copper");
    let copy = q(
        Why::Copy,
        Some(Card::BandOfMisfits),
        &[Card::Squire, Card::Procession, Card::Storeroom],
        false,
    );
    // Default: the most expensive.
    assert_eq!(pick(BUY, &g, copy), Some(Card::Procession));
    assert_eq!(
        pick(
            &format!("{BUY}Band of Misfits copy:\n    Squire\n"),
            &g,
            copy
        ),
        Some(Card::Squire)
    );
    // The `play` list is the fallback.
    assert_eq!(
        pick(&format!("{BUY}play:\n    Storeroom\n"), &g, copy),
        Some(Card::Storeroom)
    );
    // Market Square after a trash: yes by default, else its condition.
    let ms = q(Why::TrashTrigger, None, &[Card::MarketSquare], true);
    assert_eq!(pick(BUY, &g, ms), Some(Card::MarketSquare));
    assert_eq!(
        pick(&format!("{BUY}Market Square react: coins > 5\n"), &g, ms),
        None
    );
    // Pending abilities resolve before Market Square.
    let both = q(
        Why::TrashTrigger,
        None,
        &[Card::MarketSquare, Card::Squire],
        false,
    );
    assert_eq!(pick(BUY, &g, both), Some(Card::Squire));
}

#[test]
fn name_trash_gain_and_topdeck_lists() {
    let g = game_in(
        K3,
        "p0.hand: Copper, Estate\np0.deck: Silver, Copper\np0.discard: Curse, Gold, Silver",
    );
    let all: Vec<Card> = vec![Card::Province, Card::Duchy, Card::Estate, Card::Copper];
    // Rebuild names Province by default; a list overrides.
    assert_eq!(
        pick(BUY, &g, q(Why::Name, Some(Card::Rebuild), &all, false)),
        Some(Card::Province)
    );
    assert_eq!(
        pick(
            &format!("{BUY}Rebuild name:\n    Duchy if supply(Duchy) > 0\n"),
            &g,
            q(Why::Name, Some(Card::Rebuild), &all, false)
        ),
        Some(Card::Duchy)
    );
    // Scavenger: Gold from the discard pile, never the Curse.
    let sc = q(
        Why::Topdeck,
        Some(Card::Scavenger),
        &[Card::Curse, Card::Gold, Card::Silver],
        false,
    );
    assert_eq!(pick(BUY, &g, sc), Some(Card::Gold));
    assert_eq!(
        pick(&format!("{BUY}Scavenger topdeck:\n    Silver\n"), &g, sc),
        Some(Card::Silver)
    );
    // Pillage: the victim's most expensive card by default.
    let mut pl = q(
        Why::Discard,
        Some(Card::Pillage),
        &[Card::Copper, Card::Gold, Card::Estate],
        false,
    );
    pl.target = 1;
    assert_eq!(pick(BUY, &g, pl), Some(Card::Gold));
    // Rats: the `trash` list is the fallback.
    let rt = q(
        Why::Trash,
        Some(Card::Rats),
        &[Card::Copper, Card::Estate],
        false,
    );
    assert_eq!(pick(BUY, &g, rt), Some(Card::Estate));
    assert_eq!(
        pick(&format!("{BUY}trash:\n    Copper\n"), &g, rt),
        Some(Card::Copper)
    );
    // Knights' victim: default the junk rule; a list overrides.
    let kv = q(
        Why::Trash,
        Some(Card::SirMartin),
        &[Card::Silver, Card::Duchy],
        false,
    );
    assert_eq!(pick(BUY, &g, kv), Some(Card::Duchy));
    assert_eq!(
        pick(&format!("{BUY}Sir Martin victim:\n    Silver\n"), &g, kv),
        Some(Card::Silver)
    );
    // Urchin: no by default; the condition decides.
    assert!(!yes(BUY, &g, Card::Urchin, Some(Card::Urchin)));
    assert!(yes(
        &format!("{BUY}Urchin trash: yes\n"),
        &g,
        Card::Urchin,
        Some(Card::Urchin)
    ));
}

#[test]
fn hermit_counterfeit_procession_defaults() {
    let g = game_in(K2, "p0.hand: Estate, Copper");
    let h = q(
        Why::Trash,
        Some(Card::Hermit),
        &[Card::Estate, Card::Cultist],
        true,
    );
    assert_eq!(pick(BUY, &g, h), Some(Card::Estate));
    assert_eq!(
        pick(&format!("{BUY}Hermit trash:\n    Curse\n"), &g, h),
        None
    );
    let g = game("p0.hand: Copper, Silver");
    let cf = q(
        Why::PlayTarget,
        Some(Card::Counterfeit),
        &[Card::Copper, Card::Silver],
        true,
    );
    assert_eq!(pick(BUY, &g, cf), Some(Card::Copper));
    let pr = q(
        Why::PlayTarget,
        Some(Card::Procession),
        &[Card::Squire, Card::Storeroom],
        true,
    );
    assert_eq!(pick(BUY, &g, pr), Some(Card::Storeroom));
    assert_eq!(
        pick(&format!("{BUY}Procession play:\n    Squire\n"), &g, pr),
        Some(Card::Squire)
    );
}

fn err(text: &str) -> strategy::StrategyError {
    match strategy::parse(text, "t.dom") {
        Err(e) => e,
        Ok(_) => panic!("accepted: {text}"),
    }
}

#[test]
fn bad_dark_ages_option_values_are_positioned_errors() {
    let e = err("buy: Gold\nCount mode: yes\n");
    assert_eq!((e.line, e.col), (2, 7));
    assert!(e.msg.contains("Count has no option 'mode'"), "{}", e.msg);
    let e = err("buy: Gold\nRebuild nam:\n    Province\n");
    assert!(e.msg.contains("did you mean 'name'"), "{}", e.msg);
    let e = err("buy: Gold\nSquire silver: 3\n");
    assert!(e.msg.contains("expected a condition"), "{}", e.msg);
    assert_eq!((e.line, e.col), (2, 16));
    let e = err("buy: Gold\nAltar gain:\n    Labratory\n");
    assert!(e.msg.contains("did you mean 'Laboratory'"), "{}", e.msg);
    assert_eq!((e.line, e.col), (3, 5));
}

#[test]
fn reference_bots_play_without_faults() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/strategies/");
    let custom =
        "Count,Counterfeit,Death Cart,Feodum,Market Square,Storeroom,Beggar,Urchin,Sage,Forager";
    let bots = [
        ("rebuild", "Prophecy"),
        ("cultist", "Grim Parade"),
        ("marauder", "Invasion"),
        ("death_cart", ""),
        ("counterfeit", ""),
        ("graverobber", "Playing Chess with Death"),
        ("hermit", "High and Low"),
        ("knights", "Grim Parade"),
        ("rats", "Playing Chess with Death"),
        ("junk_dealer", "Playing Chess with Death"),
        ("procession", "Grim Parade"),
        ("altar", "Chivalry and Revelry"),
        ("catacombs", "Grim Parade"),
        ("count", ""),
        ("feodum", ""),
        ("fortress_engine", "Grim Parade"),
        ("band_of_misfits", "Grim Parade"),
        ("beggar", "Invasion"),
        ("poor_house", "High and Low"),
        ("squire", "Invasion"),
    ];
    for (f, preset) in bots {
        let k: Kingdom = if preset.is_empty() {
            let names: Vec<&str> = custom.split(',').collect();
            Kingdom::from_names(2, &names).unwrap()
        } else {
            domsim::dominion::presets::Preset::find(preset)
                .and_then(|p| p.kingdom(2))
                .unwrap_or_else(|e| panic!("{preset}: {e}"))
        };
        let st = strategy::load(std::path::Path::new(&format!("{dir}{f}.dom")))
            .unwrap_or_else(|e| panic!("{e}"));
        let (me, w) = st.compile(&k).unwrap_or_else(|e| panic!("{e}"));
        assert!(w.is_empty(), "{f}: {w:?}");
        let bmu = strategy::load(std::path::Path::new(&format!(
            "{dir}big_money_ultimate.dom"
        )))
        .unwrap_or_else(|e| panic!("{e}"));
        let (other, _) = bmu.compile(&k).unwrap_or_else(|e| panic!("{e}"));
        let mut g = Game::new(&k, 7, 0);
        for i in 0..10 {
            g.reset(&k, 7, i);
            let mut b = StrategyBots::new(&[&me, &other]);
            let o = g.play_game(&mut b);
            assert!(g.fault.is_none(), "{f}: {:?}", g.fault);
            assert!(!o.capped, "{f}: game {i} capped");
        }
    }
}

#[test]
fn hovel_hermit_minstrel_and_storeroom() {
    let g = game_in(K2, "p0.hand: Estate, Copper\ncoins: 3");
    // Hermit from hand: no by default, the condition decides.
    assert!(!yes(BUY, &g, Card::Hermit, Some(Card::Estate)));
    assert!(yes(
        &format!("{BUY}Hermit from_hand: coins >= 3\n"),
        &g,
        Card::Hermit,
        Some(Card::Estate)
    ));
    let g = game_in(K3, "p0.hand: Copper");
    let wm = q(
        Why::Topdeck,
        Some(Card::WanderingMinstrel),
        &[Card::Rats, Card::Rebuild],
        false,
    );
    // Default: the cheapest goes deepest (picked first).
    assert_eq!(pick(BUY, &g, wm), Some(Card::Rats));
    assert_eq!(
        pick(
            &format!("{BUY}Wandering Minstrel order:\n    Rebuild\n"),
            &g,
            wm
        ),
        Some(Card::Rebuild)
    );
    // Storeroom: the built-in list discards junk, keeps money.
    let g = game("p0.hand: Estate, Copper, Silver\nactions: 1");
    let st = q(
        Why::Discard,
        Some(Card::Storeroom),
        &[Card::Estate, Card::Copper, Card::Silver],
        true,
    );
    assert_eq!(pick(BUY, &g, st), Some(Card::Estate));
    let st2 = q(
        Why::Discard,
        Some(Card::Storeroom),
        &[Card::Copper, Card::Silver],
        true,
    );
    assert_eq!(pick(BUY, &g, st2), None);
}

#[test]
fn supply_of_a_pile_name_counts_the_pile() {
    let g = game_in(K3, "p0.hand: Copper");
    // 10 Knights in the pile; the condition holds only if supply() sees them.
    assert!(yes(
        &format!("{BUY}Urchin trash: supply(Knights) >= 10\n"),
        &g,
        Card::Urchin,
        Some(Card::Urchin)
    ));
}

#[test]
fn storeroom_rounds_have_their_own_options() {
    let g = game("p0.hand: Storeroom, Estate, Copper, Curse");
    let hand = [Card::Estate, Card::Copper, Card::Curse];
    let text = "buy: Gold\nStoreroom discard:\n    Estate\nStoreroom coins:\n    Copper\n";
    let first = q(Why::Discard, Some(Card::Storeroom), &hand, true);
    let second = q(Why::DiscardForCoin, Some(Card::Storeroom), &hand, true);
    assert_eq!(pick(text, &g, first), Some(Card::Estate));
    assert_eq!(pick(text, &g, second), Some(Card::Copper));
    // Each round alone falls back to the built-in list (Curse first).
    let only_first = "buy: Gold\nStoreroom discard:\n    Estate\n";
    assert_eq!(pick(only_first, &g, second), Some(Card::Curse));
    let only_second = "buy: Gold\nStoreroom coins:\n    Copper\n";
    assert_eq!(pick(only_second, &g, first), Some(Card::Curse));
}

/// The defaults of a strategy that sets no option, as strategies/DARK_AGES.md
/// states them: a Rogue victim loses the cheaper card; Storeroom discards
/// Victory-only cards, not Harem; Scavenger puts back the best Action
/// (Smithy over Necropolis), never Ruins, and Gold first.
#[test]
fn rogue_storeroom_and_scavenger_defaults_follow_the_docs() {
    let g = game_in(K3, "p0.hand: Copper");
    let a = pick(
        BUY,
        &g,
        q(
            Why::Trash,
            Some(Card::Rogue),
            &[Card::Count, Card::Silver],
            false,
        ),
    );
    assert_eq!(a, Some(Card::Silver), "the victim keeps the better card");

    let k =
        "kingdom: Storeroom, Harem, Smithy, Village, Market, Mine, Moat, Cellar, Chapel, Militia";
    let g = game_in(k, "p0.hand: Harem, Estate, Copper");
    let legal = [Card::Harem, Card::Estate, Card::Copper];
    for why in [Why::Discard, Why::DiscardForCoin] {
        let a = pick(BUY, &g, q(why, Some(Card::Storeroom), &legal, true));
        assert_eq!(a, Some(Card::Estate), "{why:?}: a Victory-only card");
        let a = pick(
            BUY,
            &g,
            q(
                why,
                Some(Card::Storeroom),
                &[Card::Harem, Card::Copper],
                true,
            ),
        );
        assert_eq!(a, None, "{why:?}: Harem is money, kept");
    }

    let k = "kingdom: Scavenger, Smithy, Marauder, Village, Market, Mine, Moat, Cellar, Chapel, Militia";
    let g = game_in(
        k,
        "p0.hand: Copper\np0.discard: Necropolis, Ruined Market, Gold",
    );
    let topdeck = |legal: &[Card]| {
        pick(
            BUY,
            &g,
            q(Why::Topdeck, Some(Card::Scavenger), legal, false),
        )
    };
    assert_eq!(
        topdeck(&[
            Card::Necropolis,
            Card::Smithy,
            Card::Silver,
            Card::RuinedMarket
        ]),
        Some(Card::Smithy)
    );
    assert_eq!(
        topdeck(&[Card::Necropolis, Card::Silver, Card::RuinedMarket]),
        Some(Card::Necropolis)
    );
    assert_eq!(
        topdeck(&[Card::Silver, Card::RuinedMarket, Card::Estate]),
        Some(Card::Silver)
    );
    assert_eq!(topdeck(&[Card::Gold, Card::Smithy]), Some(Card::Gold));
    assert_eq!(
        topdeck(&[Card::RuinedMarket, Card::Estate, Card::Copper]),
        Some(Card::Copper)
    );
}

/// Cellar's default discards Curse, Ruins and Victory-only cards: Harem
/// ($2) and Great Hall (a cantrip) stay in hand.
#[test]
fn cellar_default_keeps_treasure_and_action_victory_cards() {
    let k = "kingdom: Cellar, Harem, Great Hall, Marauder, Village, Market, Mine, Moat, Chapel, Militia";
    let g = game_in(
        k,
        "p0.hand: Harem, Great Hall, Estate, Ruined Market, Copper",
    );
    let legal = [
        Card::Harem,
        Card::GreatHall,
        Card::Estate,
        Card::RuinedMarket,
        Card::Copper,
    ];
    let a = pick(BUY, &g, q(Why::Discard, Some(Card::Cellar), &legal, true));
    assert!(
        matches!(a, Some(Card::Estate | Card::RuinedMarket)),
        "{a:?}"
    );
    let kept = [Card::Harem, Card::GreatHall, Card::Copper];
    let a = pick(BUY, &g, q(Why::Discard, Some(Card::Cellar), &kept, true));
    assert_eq!(a, None);
}
