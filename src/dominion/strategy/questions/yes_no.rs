//! Yes/no questions (may-instructions): a condition, or a list matched
//! against the card in question (`Library set_aside`, `Spy discard_*`);
//! without an option, the engine's documented default.

use super::super::compile::Compiled;
use super::super::route::{Route, YES_OTHER, YES_OWN};
use crate::engine::{Game, YesNo};

/// The route slot of `q`: a question about one's own card (or none), or
/// about another player's.
fn slot(q: &YesNo) -> usize {
    if q.target == q.player || q.card.is_none() {
        YES_OWN
    } else {
        YES_OTHER
    }
}

/// Answer `q` for the seat compiled as `s`.
#[inline]
pub(crate) fn answer(s: &Compiled, g: &Game, q: &YesNo) -> bool {
    let slot = slot(q);
    match s.routes.get(Some(q.by), slot) {
        Route::Value(code) => s.eval(code, g, q.player) != 0,
        Route::List(l, _) => match q.card {
            Some(c) => s.matches(l, g, q.player, c),
            None => q.default_answer(g),
        },
        _ => q.default_answer(g),
    }
}

/// Why [`answer`] gives what it gives to `q` (`domsim log --explain`): the
/// option's condition, the list entry that matched the card, or the
/// engine's documented default. Never called while a run plays.
pub(crate) fn explain(s: &Compiled, g: &Game, q: &YesNo) -> String {
    let slot = slot(q);
    match s.routes.get(Some(q.by), slot) {
        Route::Value(_) => s.option_at(q.by, slot),
        Route::List(l, _) => match q.card {
            Some(c) => match s.matching_entry(l, g, q.player, c) {
                Some(i) => s.entry_at[i].clone(),
                None => format!("no entry matches {c}: no"),
            },
            None => "the engine's default".into(),
        },
        _ => "no option for this question: the engine's documented default".into(),
    }
}
