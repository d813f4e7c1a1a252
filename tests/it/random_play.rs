//! Random play (DESIGN "Testing" 2 and 3): many complete games over random
//! base-set kingdoms with 2 to 6 players, every decision random and legal, and
//! the conservation invariant checked at every decision.
//!
//! Each game must end by the rules (no turn cap: `RandomBots` always buys
//! something when it has $2 or more, so piles run out), never panic, never
//! break the invariant, and never produce a bot fault (random answers are
//! drawn from the legal set, so a fault would be an engine bug in how a
//! question was built).

use domsim::bots::RandomBots;
use domsim::cards::{Card, CardSet, Set};
use domsim::engine::{Bots, Choose, Event, Game, Kingdom, Pick, Why, YesNo};

/// Games per player count; 5 player counts × 20,000 = 100,000 games.
const GAMES_PER_COUNT: u64 = 20_000;
/// A new random kingdom every this many games (kingdom setup allocates a
/// little; the games themselves do not).
const GAMES_PER_KINGDOM: u64 = 10;

/// Random bots, plus a record of what the games exercised, so the test can
/// show that random play reached every card and every kind of question.
struct Covered {
    bots: RandomBots,
    played: CardSet,
    asked: [bool; 64],
    yes_no_by: CardSet,
}

impl Bots for Covered {
    fn pick(&mut self, g: &Game, q: &Pick) -> Option<Card> {
        self.asked[q.why as usize] = true;
        self.bots.pick(g, q)
    }
    fn yes_no(&mut self, g: &Game, q: &YesNo) -> bool {
        self.yes_no_by.insert(q.by);
        self.bots.yes_no(g, q)
    }
    fn choose(&mut self, g: &Game, q: &Choose) -> u8 {
        self.bots.choose(g, q)
    }
    fn event(&mut self, _g: &Game, e: Event) {
        if let Event::Play { card, .. } = e {
            self.played.insert(card);
        }
    }
}

/// Play `GAMES_PER_COUNT` random games of `players` players over random
/// kingdoms from `sets`. (When a set's cards are all implemented, add tests
/// below calling this with that set, e.g. `&[Set::Base, Set::Intrigue]`.)
fn random_play(players: usize, sets: &[Set]) {
    let seed = 0xD0_5100 + players as u64;
    let mut kingdom = Kingdom::random(players, sets, seed).unwrap();
    let mut g = Game::new(&kingdom, seed, 0);
    let mut decisions = 0u64;
    let mut turns = 0u64;
    let mut played = CardSet::EMPTY;
    let mut asked = [false; 64];
    let mut yes_no_by = CardSet::EMPTY;
    for i in 0..GAMES_PER_COUNT {
        if i % GAMES_PER_KINGDOM == 0 {
            kingdom = Kingdom::random(players, sets, seed ^ (i << 8)).unwrap();
        }
        g.reset(&kingdom, seed, i);
        let mut cov = Covered {
            bots: RandomBots::new(seed ^ i.rotate_left(17), true),
            played,
            asked,
            yes_no_by,
        };
        let o = g.play_game(&mut cov);
        (played, asked, yes_no_by) = (cov.played, cov.asked, cov.yes_no_by);
        let bots = cov.bots;
        let ctx = || {
            format!(
                "{players} players, game {i}, kingdom {}",
                kingdom.describe()
            )
        };
        if let Some(v) = &bots.violation {
            panic!("invariant broken ({}): {v}", ctx());
        }
        if let Err(e) = g.check_invariants() {
            panic!("invariant broken at the end ({}): {e}", ctx());
        }
        assert!(
            g.fault.is_none(),
            "bot fault ({}): {}",
            ctx(),
            g.fault.unwrap()
        );
        assert!(!o.capped, "turn cap reached ({})", ctx());
        assert!(
            g.end_condition(),
            "game over without an end condition ({})",
            ctx()
        );
        assert!(o.winners != 0, "no winner ({})", ctx());
        decisions += bots.decisions;
        turns += o.turns.iter().map(|&t| t as u64).sum::<u64>();
    }
    // The test is only meaningful if the games were real games that reached
    // every playable card and every kind of question of the sets.
    let per_game = decisions / GAMES_PER_COUNT;
    assert!(per_game > 50, "only {per_game} decisions per game");
    for &c in Card::PRINTED {
        let playable = c.is_action() || c.is_treasure();
        let in_sets = sets.contains(&c.info().set) || c.info().set == Set::Basic;
        if playable && in_sets {
            assert!(
                played.contains(c),
                "{players} players: {c} was never played"
            );
        }
    }
    if sets == [Set::Base] {
        use Why::*;
        for w in [
            PlayAction,
            PlayTreasure,
            Buy,
            Gain,
            Trash,
            Discard,
            Topdeck,
            PlayTarget,
            React,
        ] {
            assert!(
                asked[w as usize],
                "{players} players: never asked to {}",
                w.name()
            );
        }
        for c in [Card::Chancellor, Card::Library, Card::Spy] {
            assert!(
                yes_no_by.contains(c),
                "{players} players: {c} never asked yes/no"
            );
        }
    }
    eprintln!(
        "random play, {players} players: {GAMES_PER_COUNT} games, {} turns/game, {per_game} decisions/game",
        turns / GAMES_PER_COUNT
    );
}

#[test]
fn random_play_base_2_players() {
    random_play(2, &[Set::Base]);
}
#[test]
fn random_play_base_3_players() {
    random_play(3, &[Set::Base]);
}
#[test]
fn random_play_base_4_players() {
    random_play(4, &[Set::Base]);
}
#[test]
fn random_play_base_5_players() {
    random_play(5, &[Set::Base]);
}
#[test]
fn random_play_base_6_players() {
    random_play(6, &[Set::Base]);
}
