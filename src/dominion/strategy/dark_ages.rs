//! Dark Ages additions to the strategy evaluator, kept apart from the base
//! and Intrigue code paths (small hooks in `compile.rs` and `eval.rs` call in
//! here):
//!
//! * Band of Misfits' `Copy` pick uses the main per-card table (its
//!   fallback is the `play` list);
//! * on-trash ordering (`Why::TrashTrigger`, asked with no card): pending
//!   abilities resolve first, in the engine's order; Market Square's "discard
//!   it to gain a Gold" follows its `react` condition (stored as Market
//!   Square's own yes/no route, a question the engine never asks otherwise);
//! * Count asks two "choose one" questions with the same card: the bots keep
//!   one bit per seat telling which one comes next. Count's modes 0-2 answer
//!   the first, modes 3-5 the second (option m - 3);
//! * the other "choose one" cards (Squire, Graverobber, Hunting Grounds) use
//!   Intrigue's mode conditions unchanged;
//! * smarter built-in defaults where the engine's generic rule plays badly
//!   (Scavenger's topdeck from the discard pile would take the junk rule).

use super::compile::{Compiled, Route};
use crate::cards::{Card, CardSet};
use crate::engine::{Choose, Game, Pick, Why};

/// Resolve pending on-trash abilities first (engine order); when only Market
/// Square is left (optional), its `react` condition decides.
pub(crate) fn trash_trigger(s: &Compiled, g: &Game, q: &Pick) -> Option<Card> {
    let ms = CardSet::one(Card::MarketSquare);
    let abilities = q.legal.minus(ms);
    if !abilities.is_empty() {
        return abilities.first();
    }
    if !q.legal.contains(Card::MarketSquare) {
        return q.default_answer(g);
    }
    let yes = match s.yes_own[Card::MarketSquare as usize] {
        Route::Value(code) => code.len == 0 || s.eval(code, g, q.player) != 0,
        _ => true,
    };
    yes.then_some(Card::MarketSquare)
}

/// Count's choice: `second` tells which of its two questions this is.
pub(crate) fn count_choice(s: &Compiled, g: &Game, q: &Choose, second: bool) -> u8 {
    let (start, n) = s.modes[Card::Count as usize];
    let base = if second { 3 } else { 0 };
    for &(m, code) in &s.mode_list[start as usize..(start + n) as usize] {
        if m < base || m >= base + 3 || m - base >= q.n {
            continue;
        }
        if code.len == 0 || s.eval(code, g, q.player) != 0 {
            return m - base;
        }
    }
    q.default_answer(g)
}

/// Dark Ages defaults smarter than the engine's generic rule; `None`: the
/// engine's documented default answers.
#[inline]
pub(crate) fn default_pick(g: &Game, q: &Pick) -> Option<Option<Card>> {
    match (q.why, q.by) {
        // Scavenger: the junk rule would put a Curse on the deck.
        (Why::Topdeck, Some(Card::Scavenger)) if !q.optional => Some(
            crate::engine::decision::best_by(q.legal, |c| {
                let junk = c == Card::Curse
                    || c.is(crate::cards::Types::RUINS)
                    || (c.is_victory() && !c.is_action() && !c.is_treasure());
                if junk {
                    -100 - g.cost(c) as i32
                } else {
                    g.cost(c) as i32
                }
            })
            .or_else(|| q.default_answer(g)),
        ),
        _ => None,
    }
}
