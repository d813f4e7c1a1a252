//! `domsim check` lints: strategies that load but would fail silently in a
//! kingdom. Each warning names the file, line and column of the entry (or
//! list) it is about.
//!
//! * **Coin values with no buy entry**: amounts of $2–$8 at which no entry
//!   of `buy:` could apply in this kingdom (whatever its condition), so the
//!   bot buys nothing with that hand.
//! * **Actions never played**: with a `play:` list, an Action the bot may
//!   buy or gain, or a Shelter it may be dealt (Necropolis), that the list
//!   never names: a list decides alone, so the card is never played.
//! * **Entries that never fire**: an entry after an unconditional entry
//!   that always answers first (the same card, a type containing it, or
//!   `none`).

use super::ast::{Entry, ListKind, Subject};
use super::Strategy;
use crate::cards::{Card, CardSet, Types};
use crate::engine::Kingdom;

fn covers(s: Subject, c: Card) -> bool {
    match s {
        Subject::Card(x) => x == c,
        Subject::Type(t) => c.info().types.has(t),
        Subject::Terminal => CardSet::terminal().contains(c),
    }
}

fn name(s: Subject) -> String {
    match s {
        Subject::Card(c) => c.name().to_string(),
        Subject::Type(t) => Types::NAMES
            .iter()
            .find(|(_, x)| *x == t)
            .map_or("type".into(), |(n, _)| n.to_string()),
        Subject::Terminal => "Terminal".into(),
    }
}

/// Warnings for `st` in kingdom `k`, as `file:line:col: text`.
pub fn lint(st: &Strategy, k: &Kingdom) -> Vec<String> {
    let at = |e: &Entry| {
        let f = st
            .files
            .get(e.pos.file as usize)
            .map_or("<strategy>", |s| s.as_str());
        format!("{f}:{}:{}", e.pos.line, e.pos.col)
    };
    let mut out = Vec::new();
    // The cards one can buy: a pile pseudo-card (Knights, Ruins) stands for
    // its cards, which are what entries name (`Knights`, `Sir Martin`).
    let supply: Vec<Card> = k
        .supply_piles()
        .iter()
        .flat_map(|&c| match c {
            Card::Knights => CardSet::KNIGHTS.iter().collect::<Vec<_>>(),
            Card::Ruins => CardSet::RUINS.iter().collect(),
            _ => vec![c],
        })
        .collect();

    // Coin values with no buy entry.
    if let Some(buy) = st.list(ListKind::Buy).filter(|l| !l.is_empty()) {
        let mut missing = Vec::new();
        for coins in 2..=8u8 {
            let any = buy.iter().any(|e| match e.target {
                None => true,
                Some(s) => supply
                    .iter()
                    .any(|&c| covers(s, c) && c.info().cost <= coins),
            });
            if !any {
                missing.push(coins);
            }
        }
        // Nothing at $2 alone is usual money play (a Copper would hurt);
        // from $3 up it is a gap.
        if missing.iter().any(|&c| c >= 3) {
            let lo = missing[0];
            let hi = *missing.last().unwrap_or(&lo);
            let range = if lo == hi {
                format!("${lo}")
            } else if missing.len() == (hi - lo + 1) as usize {
                format!("${lo}–${hi}")
            } else {
                missing
                    .iter()
                    .map(|c| format!("${c}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            out.push(format!(
                "{}: warning: with {range} this bot buys nothing: no entry of buy: costs that little in this kingdom (add e.g. 'Silver' or 'none' to say it is meant)",
                at(&buy[0])
            ));
        }
    }

    // Actions never played.
    if let Some(play) = st.list(ListKind::Play) {
        let named = |c: Card| play.iter().any(|e| e.target.is_some_and(|s| covers(s, c)));
        let mut reported = CardSet::EMPTY;
        for kind in [ListKind::Buy, ListKind::Gain] {
            for e in st.list(kind).unwrap_or(&[]) {
                let Some(s) = e.target else { continue };
                for &c in &supply {
                    if c.is_action() && covers(s, c) && !named(c) && !reported.contains(c) {
                        // One warning per pile of Knights or Ruins, naming
                        // the pile when none of its cards is played.
                        let pile = crate::engine::piles::pile_of(c);
                        let (what, it) = if pile == c {
                            (c.name().to_string(), "it")
                        } else {
                            let members = if pile == Card::Knights {
                                CardSet::KNIGHTS
                            } else {
                                CardSet::RUINS
                            };
                            let missed: Vec<Card> = members.iter().filter(|&m| !named(m)).collect();
                            missed.iter().for_each(|&m| reported.insert(m));
                            if missed.len() == members.len() {
                                (format!("{pile} (any of them)"), "them")
                            } else {
                                let names: Vec<&str> = missed.iter().map(|m| m.name()).collect();
                                (names.join(", "), "them")
                            }
                        };
                        reported.insert(c);
                        out.push(format!(
                            "{}: warning: {what} may be {} here, but the play: list never names {it}, so {} never played",
                            at(e),
                            if kind == ListKind::Buy { "bought" } else { "gained" },
                            if it == "it" { "it is" } else { "they are" }
                        ));
                    }
                }
            }
        }
        let shelters_possible = match k.shelters {
            Some(on) => on,
            None => !k.kingdom.and(CardSet::DARK_AGES).is_empty(),
        };
        if shelters_possible && !named(Card::Necropolis) {
            if let Some(first) = play.first() {
                out.push(format!(
                    "{}: warning: Necropolis (a Shelter this kingdom may deal) is an Action the play: list never names: it is never played",
                    at(first)
                ));
            }
        }
    }

    // Entries that never fire.
    for kind in ListKind::ALL {
        let Some(list) = st.list(kind) else { continue };
        for (i, e) in list.iter().enumerate() {
            let Some(by) = list[..i].iter().find(|p| {
                p.cond.is_none()
                    && match (p.target, e.target) {
                        (None, _) => true,
                        (Some(a), Some(Subject::Card(c))) => covers(a, c),
                        (Some(a), Some(b)) => a == b,
                        (Some(_), None) => false,
                    }
            }) else {
                continue;
            };
            out.push(format!(
                "{}: warning: this entry never fires: the unconditional '{}' above ({}) always answers first",
                at(e),
                by.target.map_or("none".to_string(), name),
                at(by)
            ));
        }
    }
    out
}
