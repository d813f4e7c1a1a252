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
//! * **Cards held but never played**: Ruins an opponent can hand out
//!   (Cultist, Marauder, Death Cart…) that a `play:` list never names (they
//!   are then played only last, by an implicit entry), Spoils from the
//!   bot's Bandit Camp, Marauder or Pillage that a `treasures:` list never
//!   names, a Madman from its Hermit that a `play:` list never names.
//! * **Options for cards never bought**: a card's option (`Chapel trash:`)
//!   while the bot never buys or gains that card, so the option is never
//!   asked (options asked of every player or of a victim are exempt).

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

    // Cards held but never played.
    let may_get = |c: Card| st.may_gain(c) && k.in_game.contains(c);
    let names_in = |kind: ListKind, what: &dyn Fn(Card) -> bool| {
        st.list(kind).is_some_and(|l| {
            l.iter().any(|e| match e.target {
                Some(Subject::Card(c)) => what(c),
                Some(s) => Card::ALL.iter().any(|&c| what(c) && covers(s, c)),
                None => false,
            })
        })
    };
    let is_ruins = |c: Card| c == Card::Ruins || c.is(Types::RUINS);
    if let Some(play) = st.list(ListKind::Play).and_then(|l| l.first()) {
        let givers: Vec<&str> = k
            .kingdom
            .iter()
            .filter(|c| matches!(c, Card::Cultist | Card::Marauder | Card::DeathCart))
            .map(|c| c.name())
            .collect();
        if k.supply.contains(Card::Ruins) && !names_in(ListKind::Play, &is_ruins) {
            let from = if givers.is_empty() {
                "the Ruins pile is in this kingdom".to_string()
            } else {
                format!("{} can hand them out", givers.join(", "))
            };
            out.push(format!(
                "{}: warning: this bot may hold Ruins ({from}), but the play: list never names them: they are played only when nothing else is (an implicit last entry); name them (e.g. 'Ruins') to place them",
                at(play)
            ));
        }
        if may_get(Card::Hermit) && !names_in(ListKind::Play, &|c| c == Card::Madman) {
            out.push(format!(
                "{}: warning: this bot's Hermits become Madmen, but the play: list never names Madman: it is never played",
                at(play)
            ));
        }
    }
    if let Some(first) = st.list(ListKind::Treasures).and_then(|l| l.first()) {
        let spoilers: Vec<&str> = [Card::BanditCamp, Card::Marauder, Card::Pillage]
            .into_iter()
            .filter(|&c| may_get(c))
            .map(|c| c.name())
            .collect();
        if !spoilers.is_empty() && !names_in(ListKind::Treasures, &|c| c == Card::Spoils) {
            out.push(format!(
                "{}: warning: this bot gains Spoils ({}), but the treasures: list never names Spoils: they are never played",
                at(first),
                spoilers.join(", ")
            ));
        }
    }

    // Options for cards never bought.
    let keyed = st
        .lists
        .iter()
        .map(|l| (l.key, l.pos))
        .chain(st.values.iter().map(|v| (v.key, v.pos)));
    let mut told = CardSet::EMPTY;
    for (key, pos) in keyed {
        let super::ast::Key::Opt(i) = key else {
            continue;
        };
        let spec = &super::options::OPTIONS[i as usize];
        let c = spec.card;
        // Asked of players who need not own the card (victims, every
        // player), or a card one gets without buying it.
        let anyone = spec.doc.contains("when attacked")
            || spec.doc.contains("every player")
            || c.is(Types::RUINS)
            || c.is(Types::SHELTER)
            || matches!(c, Card::Spoils | Card::Madman | Card::Mercenary);
        if anyone || told.contains(c) || !k.in_game.contains(c) || st.may_gain(c) {
            continue;
        }
        told.insert(c);
        let f = st
            .files
            .get(pos.file as usize)
            .map_or("<strategy>", |s| s.as_str());
        out.push(format!(
            "{f}:{}:{}: warning: '{c} {}' is an option of {c}, but this bot never buys or gains {c} (no buy: or gain: entry names it): the option is never asked",
            pos.line, pos.col, spec.name
        ));
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
