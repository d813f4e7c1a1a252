//! Built-in rules written in Rust: the last resort of a pick's fallback
//! chain. [`Rule::Engine`] is the engine's documented default
//! ([`Pick::default_answer`]); the other rules are smarter per-card
//! defaults where the engine's generic rule plays badly. A card's rule is
//! named once, in its row of the option table (`Src::Rule` in
//! [`super::options::OPTIONS`]); it answers when the strategy has no list
//! for the question, and when the list matches nothing on a mandatory pick.

use crate::cards::{Card, CardSet, Types};
use crate::engine::decision::{best_by, junk_cards, junk_key};
use crate::engine::{Game, Pick};

/// A built-in answer to a pick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// The engine's documented default.
    Engine,
    /// Courtyard's topdeck: an Action that cannot be played any more is
    /// left to the engine rule; otherwise the most valuable non-junk,
    /// non-playable card whose removal keeps the hand's money at the same
    /// price level (excess money is saved for next turn); else the engine
    /// rule.
    CourtyardTopdeck,
    /// Scavenger's topdeck from the discard pile: the most expensive card
    /// that is not junk (the engine's junk rule would put a Curse on the
    /// deck); junk only when nothing else is left, the cheapest first.
    ScavengerTopdeck,
    /// A victim's discard from hand (Militia, Torturer): Curse and
    /// Victory-only cards first (the junk rule's order), then Ruins, then —
    /// while the hand holds more terminal Actions than the one its next
    /// turn can play — the cheapest terminal; else the engine rule (the
    /// cheapest card). Geronimoo's bots also drop excess terminals first.
    VictimDiscard,
}

impl Rule {
    /// Answer `q` by this rule.
    #[inline(never)]
    pub(crate) fn answer(self, g: &Game, q: &Pick) -> Option<Card> {
        match self {
            Rule::CourtyardTopdeck if !q.optional => {
                courtyard_topdeck(g, q).or_else(|| q.default_answer(g))
            }
            Rule::ScavengerTopdeck if !q.optional => {
                scavenger_topdeck(g, q).or_else(|| q.default_answer(g))
            }
            Rule::VictimDiscard if !q.optional => {
                victim_discard(g, q).or_else(|| q.default_answer(g))
            }
            _ => q.default_answer(g),
        }
    }
}

/// Price level of an amount of money: $2, 3, 4, 5, 6-7, 8+.
fn level(m: i32) -> u8 {
    match m {
        i32::MIN..=1 => 0,
        2 => 1,
        3 => 2,
        4 => 3,
        5 => 4,
        6 | 7 => 5,
        _ => 6,
    }
}

/// [`Rule::CourtyardTopdeck`]; `None`: the engine rule decides.
fn courtyard_topdeck(g: &Game, q: &Pick) -> Option<Card> {
    if g.turn.actions == 0 && !q.legal.and(CardSet::actions()).is_empty() {
        return None;
    }
    let hand = &g.player(q.player).hand;
    let money = g.turn.coins as i32 + hand.iter().map(|c| c.info().value as i32).sum::<i32>();
    let lv = level(money);
    let ok: CardSet = q
        .legal
        .iter()
        .filter(|&c| {
            let junk = c == Card::Curse || (c.is_victory() && !c.is_action() && !c.is_treasure());
            let playable = c.is_action() && g.turn.actions > 0;
            !junk && !playable && level(money - c.info().value as i32) == lv
        })
        .collect();
    best_by(ok, |c| g.cost(c) as i32 * 8 + c.info().value as i32)
}

/// [`Rule::VictimDiscard`]; `None`: the engine rule decides.
fn victim_discard(g: &Game, q: &Pick) -> Option<Card> {
    let junk = q.legal.and(junk_cards());
    if !junk.is_empty() {
        return best_by(junk, |c| junk_key(g, c));
    }
    let ruins: CardSet = q.legal.iter().filter(|c| c.is(Types::RUINS)).collect();
    if !ruins.is_empty() {
        return best_by(ruins, |c| -(g.cost(c) as i32));
    }
    let terminal = CardSet::terminal();
    let held = g
        .player(q.player)
        .hand
        .iter()
        .filter(|&c| terminal.contains(c))
        .count();
    if held > 1 {
        return best_by(q.legal.and(terminal), |c| -(g.cost(c) as i32));
    }
    None
}

/// [`Rule::ScavengerTopdeck`].
/// Gold, the most expensive Action that is not Ruins, Silver, then the
/// most expensive card that is not junk (Curse, Ruins, Victory-only),
/// junk last (strategies/DARK_AGES.md).
fn scavenger_topdeck(g: &Game, q: &Pick) -> Option<Card> {
    best_by(q.legal, |c| {
        let junk = c == Card::Curse
            || c.is(Types::RUINS)
            || (c.is_victory() && !c.is_action() && !c.is_treasure());
        let cost = g.cost(c) as i32;
        if junk {
            -100 - cost
        } else if c == Card::Gold {
            3000
        } else if c.is_action() {
            2000 + cost
        } else if c == Card::Silver {
            1000
        } else {
            cost
        }
    })
}
