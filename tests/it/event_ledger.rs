//! The events tell who owns what: a bot that sees only the engine's
//! [`Event`]s can keep, per player, a ledger of the cards he owns (Gain +1,
//! Trash −1 of the trashed card's owner, Pass −1 and +1, ReturnToPile −1,
//! TrashToHand +1), and at every turn start and at the game's end that ledger
//! equals the engine's own count (`Player::owned`). A card that moves into or
//! out of a player's ownership with no event breaks it, and `domsim log`
//! (built from the same events) cannot show what happened. Random legal
//! play (the soak's [`RandomBots`], invariants checked at every decision)
//! over random kingdoms of every implemented set, 2–4 players, Shelters by
//! the random rule; then the same with cards from data files (the shipped
//! reprints and examples, and the test cards) in those kingdoms.

use domsim::bots::RandomBots;
use domsim::cards::data;
use domsim::cards::{Card, Set, DATA_SLOTS};
use domsim::engine::{Bots, Event, Game, GameRng, Kingdom};
use std::collections::BTreeMap;

const SETS: [Set; 3] = [Set::Base, Set::Intrigue, Set::DarkAges];

/// Forwards every question to the inner bot; keeps the ledger from events.
struct Ledger<B> {
    inner: B,
    owned: Vec<Vec<i32>>,
    /// Card kinds whose ledger count differed from the engine's, with how
    /// many checks differed.
    broken: BTreeMap<Card, u32>,
    checks: u64,
    /// Events seen, by kind of card (to show what the games covered).
    seen: BTreeMap<(&'static str, Card), u64>,
}

impl<B: Bots> Ledger<B> {
    fn new(inner: B, g: &Game) -> Self {
        let owned = (0..g.kingdom.players as usize)
            .map(|p| g.players[p].owned.iter().map(|&n| n as i32).collect())
            .collect();
        Ledger {
            inner,
            owned,
            broken: BTreeMap::new(),
            checks: 0,
            seen: BTreeMap::new(),
        }
    }

    fn add(&mut self, p: u8, c: Card, n: i32) {
        self.owned[p as usize][c as usize] += n;
    }

    /// Compare with the engine; a difference is noted (and the ledger set to
    /// the engine's count, so one gap is counted once, not at every turn).
    fn check(&mut self, g: &Game) {
        self.checks += 1;
        for p in 0..g.kingdom.players as usize {
            for c in Card::ALL.iter().copied() {
                let engine = g.players[p].owned[c as usize] as i32;
                let mine = &mut self.owned[p][c as usize];
                if *mine != engine {
                    *self.broken.entry(c).or_default() += 1;
                    *mine = engine;
                }
            }
        }
    }
}

impl<B: Bots> Bots for Ledger<B> {
    forward_questions!(inner);
    fn event(&mut self, g: &Game, e: Event) {
        match e {
            Event::Play { card, .. } => *self.seen.entry(("play", card)).or_default() += 1,
            Event::Trash { card, .. } => *self.seen.entry(("trash", card)).or_default() += 1,
            Event::Gain { card, .. } => *self.seen.entry(("gain", card)).or_default() += 1,
            _ => {}
        }
        match e {
            Event::TurnStart { .. } => self.check(g),
            Event::Gain { player, card } => self.add(player, card, 1),
            Event::Trash { player, card } => self.add(player, card, -1),
            Event::Pass { player, to, card } => {
                self.add(player, card, -1);
                self.add(to, card, 1);
            }
            Event::ReturnToPile { player, card } => self.add(player, card, -1),
            Event::TrashToHand { player, card } => self.add(player, card, 1),
            // Zone moves within one player's cards: ownership unchanged.
            Event::Play { .. }
            | Event::Buy { .. }
            | Event::Discard { .. }
            | Event::Reveal { .. }
            | Event::Topdeck { .. }
            | Event::React { .. }
            | Event::Shuffle { .. }
            | Event::Draw { .. }
            | Event::DeckToDiscard { .. } => {}
        }
        self.inner.event(g, e);
    }
}

/// Plays `games` random games, game `i` in `kingdom(i, players)`; returns
/// the broken card kinds, each with the kingdoms (as described) of the
/// first games that broke it, the number of checks made and the events
/// seen.
#[allow(clippy::type_complexity)]
fn run(
    games: u64,
    seed0: u64,
    kingdom: impl Fn(u64, usize) -> Kingdom,
) -> (
    BTreeMap<Card, Vec<String>>,
    u64,
    BTreeMap<(&'static str, Card), u64>,
) {
    let mut broken: BTreeMap<Card, Vec<String>> = BTreeMap::new();
    let mut checks = 0;
    let mut seen: BTreeMap<(&'static str, Card), u64> = BTreeMap::new();
    for i in 0..games {
        let players = 2 + (i % 3) as usize;
        let k = kingdom(seed0 + i, players);
        let mut g = Game::new(&k, seed0, i);
        let mut b = Ledger::new(RandomBots::new(seed0 ^ i, true), &g);
        let o = g.play_game(&mut b);
        b.check(&g);
        if let Some(v) = &b.inner.violation {
            panic!("game {i} ({players}p, {}): {v}", k.describe());
        }
        assert!(g.fault.is_none(), "game {i}: {:?}", g.fault);
        assert!(o.winners != 0);
        checks += b.checks;
        for (what, n) in &b.seen {
            *seen.entry(*what).or_default() += n;
        }
        for c in b.broken.keys() {
            let v = broken.entry(*c).or_default();
            if v.len() < 3 {
                v.push(format!("game {i} ({players}p, {})", k.describe()));
            }
        }
    }
    (broken, checks, seen)
}

/// Fails naming each card kind the events did not account for, with the
/// first games that showed it.
fn assert_accounted(broken: &BTreeMap<Card, Vec<String>>) {
    let report: Vec<String> = broken
        .iter()
        .map(|(c, games)| format!("{c}: {}", games.join("; ")))
        .collect();
    assert!(
        broken.is_empty(),
        "owned cards the events do not account for:\n{}",
        report.join("\n")
    );
}

#[test]
fn events_account_for_every_owned_card() {
    let (broken, checks, seen) = run(2000, 11_000, |seed, players| {
        Kingdom::random(players, &SETS, seed).unwrap()
    });
    assert!(checks > 50_000, "{checks}");
    assert_accounted(&broken);
    // The games met the cards that change ownership without a gain or a
    // trash (Spoils and Madman return to their piles, Fortress comes back
    // from the trash), and Masquerade's passes.
    for k in [
        ("play", Card::Spoils),
        ("play", Card::Madman),
        ("trash", Card::Fortress),
        ("play", Card::Masquerade),
    ] {
        assert!(seen.get(&k).copied().unwrap_or(0) >= 20, "{k:?}: {seen:?}");
    }
}

/// Cards from data files own and lose cards through the same events: every
/// shipped reprint and example and every test card, bound 14 at a time (the
/// data slots), 2 to 5 of them in each kingdom with printed cards of the
/// three sets drawn for the rest. Each data card must be gained in the
/// games, so the ledger saw it change hands.
#[test]
fn events_account_for_data_cards() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut cards = data::load_files(&[
        root.join("cards/reprints.toml"),
        root.join("cards/examples.toml"),
        root.join("tests/data_cards/cards.toml"),
    ])
    .unwrap();
    cards.sort_by(|a, b| a.name.cmp(&b.name));
    assert!(cards.len() > 50, "{} data cards", cards.len());
    let mut checks = 0;
    for (j, chunk) in cards.chunks(DATA_SLOTS).enumerate() {
        let binding = data::bind(chunk).unwrap();
        let bound = binding.cards().to_vec();
        let (broken, n, seen) = run(300, 21_000 + 1_000 * j as u64, |seed, players| {
            let mut r = GameRng::for_game(seed, 7);
            let mut given = bound.clone();
            r.shuffle(&mut given);
            given.truncate(2 + r.below(4) as usize);
            let fill = Kingdom::fill_cards(&given, &SETS, seed, |_| true).unwrap();
            given.extend(fill);
            Kingdom::new(players, &given).unwrap()
        });
        assert_accounted(&broken);
        checks += n;
        for &c in &bound {
            let gained = seen.get(&("gain", c)).copied().unwrap_or(0);
            assert!(gained >= 10, "{c} gained {gained} times in binding {j}");
        }
    }
    assert!(checks > 30_000, "{checks}");
}
