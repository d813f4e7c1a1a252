//! Intrigue additions to the strategy evaluator, kept apart from the base
//! code paths (small hooks in `compile.rs` and `eval.rs` call in here):
//!
//! * picks whose [`Why`] is new in Intrigue (Wishing Well's `Name`,
//!   Masquerade's `Pass`, Scout's `Order`) have their own routing table;
//! * "choose one" cards (Pawn, Steward, Minion, Nobles, Torturer) are
//!   answered by **mode conditions**: one yes/no option per mode, tried in
//!   the order of the option table, the first that holds wins. If the file
//!   sets none of a card's modes, the built-in conditions decide; if none
//!   holds, the engine's documented [`Choose::default_answer`];
//! * smarter built-in defaults where the engine's generic rule plays badly
//!   (Courtyard's topdeck).

use super::compile::{Code, Compiled, Route};
use crate::cards::{Card, CardSet};
use crate::engine::decision::best_by;
use crate::engine::{Choose, Game, Pick, Why};

/// Number of `Why` kinds routed by `Compiled::pick_x`.
pub(crate) const N_WHY_X: usize = 4;

/// Index of an Intrigue `Why` in `Compiled::pick_x`.
#[inline]
pub(crate) fn why_index_x(w: Why) -> Option<usize> {
    match w {
        Why::Name => Some(0),
        Why::Pass => Some(1),
        Why::Order => Some(2),
        Why::DiscardForCoin => Some(3),
        _ => None,
    }
}

/// Keep, per card, the file's own mode conditions if it sets any, else the
/// built-in ones; store them in table order.
pub(crate) fn finish_modes(out: &mut Compiled, modes: &[(Card, u8, Route, bool)]) {
    let mut i = 0;
    while i < modes.len() {
        let card = modes[i].0;
        let j = modes[i..]
            .iter()
            .position(|m| m.0 != card)
            .map_or(modes.len(), |k| i + k);
        let group = &modes[i..j];
        let own = group.iter().any(|m| m.3);
        let start = out.mode_list.len() as u32;
        for &(_, m, route, is_own) in group {
            if is_own != own {
                continue;
            }
            if let Route::Value(code) = route {
                out.mode_list.push((m, code));
            }
        }
        out.modes[card as usize] = (start, out.mode_list.len() as u32 - start);
        i = j;
    }
}

/// Answer a "choose one" from the mode conditions; `None` if the card has no
/// mode options (then the generic routing answers).
#[inline]
pub(crate) fn choose_mode(s: &Compiled, g: &Game, q: &Choose) -> Option<u8> {
    let (start, n) = *s.modes.get(q.by as usize)?;
    if n == 0 {
        return None;
    }
    for &(m, code) in &s.mode_list[start as usize..(start + n) as usize] {
        if m < q.n && holds(s, code, g, q.player) {
            return Some(m);
        }
    }
    Some(q.default_answer(g))
}

#[inline]
fn holds(s: &Compiled, code: Code, g: &Game, me: u8) -> bool {
    code.len == 0 || s.eval(code, g, me) != 0
}

/// A pick whose `Why` only Intrigue asks.
pub(crate) fn pick_x(s: &Compiled, g: &Game, q: &Pick) -> Option<Card> {
    let (Some(w), Some(by)) = (why_index_x(q.why), q.by) else {
        return default_pick(g, q);
    };
    match s.pick_x[by as usize][w] {
        Route::List(l) => match s.scan(l, g, q, false) {
            Some(c) => Some(c),
            None if q.optional => None,
            None => default_pick(g, q),
        },
        _ => default_pick(g, q),
    }
}

/// The default answer of a pick when the strategy does not decide: the
/// engine's documented default, except where a smarter rule is documented
/// in strategies/INTRIGUE.md (Courtyard's topdeck).
#[inline]
pub(crate) fn default_pick(g: &Game, q: &Pick) -> Option<Card> {
    if let Some(a) = super::dark_ages::default_pick(g, q) {
        return a;
    }
    if q.by == Some(Card::Courtyard) && q.why == Why::Topdeck && !q.optional {
        if let Some(c) = courtyard_topdeck(g, q) {
            return Some(c);
        }
    }
    if q.why == Why::Pass && !q.optional {
        return masquerade_pass(q);
    }
    q.default_answer(g)
}

/// Masquerade's pass: a Curse, else the cheapest card that is not a Victory
/// card (Copper), else the cheapest Victory card. The engine's junk rule
/// would pass Victory cards first, Province included: every point passed
/// counts twice (the opponent gains it), so a strategy keeps them.
fn masquerade_pass(q: &Pick) -> Option<Card> {
    if q.legal.contains(Card::Curse) {
        return Some(Card::Curse);
    }
    let plain = q.legal.minus(CardSet::victories());
    let pool = if plain.is_empty() { q.legal } else { plain };
    best_by(pool, |c| -(c.info().cost as i32))
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

/// Courtyard: an Action that cannot be played any more is left to the
/// engine rule; otherwise put back the most valuable non-junk, non-playable
/// card whose removal keeps the hand's money at the same price level
/// (excess money is saved for next turn). `None`: the engine rule decides.
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
