//! On-trash ordering (`Why::TrashTrigger`, asked with no card after cards
//! of the player's were trashed): pending abilities resolve first, in the
//! engine's order; Market Square's "discard it to gain a Gold" follows its
//! `react` option (Market Square's own yes/no route, a question the engine
//! never asks otherwise).

use super::super::compile::Compiled;
use super::super::route::{Route, YES_OWN};
use crate::cards::{Card, CardSet};
use crate::engine::{Game, Pick};

/// Resolve pending on-trash abilities first (engine order); when only Market
/// Square is left (optional), its `react` condition decides.
#[inline(never)]
pub(crate) fn answer(s: &Compiled, g: &Game, q: &Pick) -> Option<Card> {
    let ms = CardSet::one(Card::MarketSquare);
    let abilities = q.legal.minus(ms);
    if !abilities.is_empty() {
        return abilities.first();
    }
    if !q.legal.contains(Card::MarketSquare) {
        return q.default_answer(g);
    }
    let yes = match s.routes.get(Some(Card::MarketSquare), YES_OWN) {
        Route::Value(code) => code.len == 0 || s.eval(code, g, q.player) != 0,
        _ => true,
    };
    yes.then_some(Card::MarketSquare)
}
