//! Yes/no questions (may-instructions): a condition, or a list matched
//! against the card in question (`Library set_aside`, `Spy discard_*`);
//! without an option, the engine's documented default.

use super::super::compile::Compiled;
use super::super::route::{Route, YES_OTHER, YES_OWN};
use crate::engine::{Game, YesNo};

/// Answer `q` for the seat compiled as `s`.
#[inline]
pub(crate) fn answer(s: &Compiled, g: &Game, q: &YesNo) -> bool {
    let slot = if q.target == q.player || q.card.is_none() {
        YES_OWN
    } else {
        YES_OTHER
    };
    match s.routes.get(Some(q.by), slot) {
        Route::Value(code) => s.eval(code, g, q.player) != 0,
        Route::List(l, _) => match q.card {
            Some(c) => s.matches(l, g, q.player, c),
            None => q.default_answer(g),
        },
        _ => q.default_answer(g),
    }
}
