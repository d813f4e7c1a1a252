//! Picks: choose one card (play, buy, gain, trash, discard, topdeck, name,
//! pass…). The route of the asking card and `Why` decides: a list (its
//! first applicable entry), a general default, or a built-in rule — the
//! engine's documented default or the card's own smarter rule, named in its
//! row of the option table ([`crate::strategy::options::OPTIONS`]).

use super::super::compile::Compiled;
use super::super::route::Route;
use super::super::rules::Rule;
use crate::cards::{Card, CardSet};
use crate::engine::decision::best_by;
use crate::engine::{Game, Pick, Why};

/// Answer pick `q` by `route`. `effect_treasures`: Treasures whose play has
/// an effect in some seat's game.
#[inline(always)]
pub(crate) fn answer(
    s: &Compiled,
    route: Route,
    effect_treasures: CardSet,
    g: &Game,
    q: &Pick,
) -> Option<Card> {
    // Branches rather than a jump table: the two frequent routes first
    // (an indirect jump mispredicts often in this alternating stream).
    if matches!(route, Route::AllTreasures) {
        if q.legal.and(effect_treasures).is_empty() {
            // Order cannot matter: the cheapest id is as good as any.
            return q.legal.first();
        }
        return engine_default(g, q);
    }
    if let Route::List(l, rule) = route {
        return list_route(s, l, rule, g, q);
    }
    other_route(s, route, g, q)
}

/// Whether the safety rules apply to pick `q`: a buy or a gain for oneself
/// (not a gain chosen for another player, Swindler).
#[inline(always)]
pub(crate) fn safety(q: &Pick) -> bool {
    matches!(q.why, Why::Buy | Why::Gain) && q.target == q.player
}

/// A list answers (buy, play, trash...): its first applicable entry, else
/// none or the rule. Inlined into the seat's pick: as a function of its own
/// its frame (six saved registers, the question spilled) cost about 9
/// instructions a pick (−1.2% a game on the HiveMind workload, callgrind).
#[inline(always)]
pub(crate) fn list_route(s: &Compiled, l: u16, rule: Rule, g: &Game, q: &Pick) -> Option<Card> {
    match s.scan(l, g, q, safety(q)) {
        Some(c) => Some(c),
        None if q.optional => None,
        None => rule.answer(g, q),
    }
}

/// The less frequent routes, out of line.
#[inline(never)]
fn other_route(s: &Compiled, route: Route, g: &Game, q: &Pick) -> Option<Card> {
    let ans = match route {
        Route::Default(rule) => return rule.answer(g, q),
        Route::DefaultPlay => default_play(g, q),
        Route::Costliest(min) => costliest(g, q, min),
        Route::React => return super::react::answer(s, g, q),
        Route::TrashOrder => return super::trash_order::answer(s, g, q),
        Route::Nothing if q.optional => return None,
        Route::List(..)
        | Route::AllTreasures
        | Route::Nothing
        | Route::Value(_)
        | Route::Modes(..) => return q.default_answer(g),
    };
    match ans {
        Some(c) => Some(c),
        None if q.optional => None,
        None => q.default_answer(g),
    }
}

#[inline(never)]
fn engine_default(g: &Game, q: &Pick) -> Option<Card> {
    q.default_answer(g)
}

/// No `play` list: Actions giving +Actions first, then the most expensive.
#[inline(never)]
fn default_play(g: &Game, q: &Pick) -> Option<Card> {
    let villages: CardSet = q.legal.iter().filter(|c| c.info().actions > 0).collect();
    let from = if villages.is_empty() {
        q.legal
    } else {
        villages
    };
    best_by(from, |c| g.cost(c) as i32)
}

/// The most expensive legal card costing at least `min`.
#[inline(never)]
fn costliest(g: &Game, q: &Pick, min: u8) -> Option<Card> {
    let ok: CardSet = q.legal.iter().filter(|&c| g.cost(c) >= min).collect();
    best_by(ok, |c| g.cost(c) as i32)
}
