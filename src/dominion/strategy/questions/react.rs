//! Reactions: which Reaction to reveal against an Attack (`Why::React`).

use super::super::compile::Compiled;
use super::super::route::{Route, REACT};
use crate::cards::Card;
use crate::engine::{Game, Pick};

/// Each legal Reaction in id order: its `reveal` condition, or yes by
/// default.
#[inline(never)]
pub(crate) fn answer(s: &Compiled, g: &Game, q: &Pick) -> Option<Card> {
    for c in q.legal.iter() {
        match s.routes.get(Some(c), REACT) {
            Route::Value(code) => {
                if s.eval(code, g, q.player) != 0 {
                    return Some(c);
                }
            }
            _ => return Some(c),
        }
    }
    None
}
