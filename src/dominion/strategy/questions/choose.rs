//! "Choose one" questions (Pawn, Steward, Minion, Nobles, Torturer, Count,
//! Squire, Graverobber, Hunting Grounds…), answered by **mode conditions**:
//! one yes/no option per mode, tried in the order of the option table; the
//! first that holds wins (`Route::Modes`). If the file sets none of a card's
//! modes, the built-in conditions decide; if none holds, the engine's
//! documented [`Choose::default_answer`]. A card may instead take a number
//! (`Route::Value`).
//!
//! A card asking two questions in a row (Count) numbers its modes across
//! both: the first question's options are modes 0..n, the second's n..2n
//! (option m - n); the bots tell which question comes next.

use super::super::compile::Compiled;
use super::super::route::{Route, CHOOSE};
use crate::engine::{Choose, Game};

/// Answer `q`, the `nth` (0 or 1) "choose one" of its card in a row.
#[inline]
pub(crate) fn answer(s: &Compiled, g: &Game, q: &Choose, nth: u8) -> u8 {
    match s.routes.get(Some(q.by), CHOOSE) {
        Route::Modes(start, n) => by_modes(s, g, q, start, n, nth),
        Route::Value(code) => {
            let v = s.eval(code, g, q.player);
            if (0..q.n as i32).contains(&v) {
                v as u8
            } else {
                0
            }
        }
        _ => q.default_answer(g),
    }
}

/// The first mode of question `nth` whose condition holds, else the
/// engine's default.
fn by_modes(s: &Compiled, g: &Game, q: &Choose, start: u32, n: u32, nth: u8) -> u8 {
    match first_mode(s, g, q, start, n, nth) {
        Some((_, option)) => option,
        None => q.default_answer(g),
    }
}

/// The first mode of question `nth` whose condition holds: its index into
/// `mode_list` and the option it answers. The one rule of [`answer`] and
/// [`explain`].
fn first_mode(
    s: &Compiled,
    g: &Game,
    q: &Choose,
    start: u32,
    n: u32,
    nth: u8,
) -> Option<(usize, u8)> {
    let base = nth.saturating_mul(q.n);
    let range = start as usize..(start + n) as usize;
    for (i, &(m, code)) in s.mode_list[range.clone()].iter().enumerate() {
        if m < base || m - base >= q.n {
            continue;
        }
        if code.len == 0 || s.eval(code, g, q.player) != 0 {
            return Some((range.start + i, m - base));
        }
    }
    None
}

/// Why [`answer`] gives what it gives to `q`, the `nth` "choose one" of its
/// card in a row (`domsim log --explain`): the mode condition that held,
/// the option's number, or the engine's documented default. Never called
/// while a run plays.
pub(crate) fn explain(s: &Compiled, g: &Game, q: &Choose, nth: u8) -> String {
    match s.routes.get(Some(q.by), CHOOSE) {
        Route::Modes(start, n) => match first_mode(s, g, q, start, n, nth) {
            Some((i, _)) => s.mode_at.get(i).cloned().unwrap_or_default(),
            None => "no mode condition holds: the engine's default".into(),
        },
        Route::Value(code) => {
            let at = s.option_at(q.by, CHOOSE);
            let v = s.eval(code, g, q.player);
            if (0..q.n as i32).contains(&v) {
                at
            } else {
                format!("{at}, whose value {v} is out of range: option 0")
            }
        }
        _ => "no option for this question: the engine's documented default".into(),
    }
}
