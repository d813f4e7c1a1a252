//! A data card's rules text, written from its compiled primitives the way a
//! printed card reads ("+2 Cards, +1 Buy. Each other player gains a Copper."),
//! for `domsim cards list` and the workbench. Generated from the program the
//! engine runs, never from the file's text, so what it says is what plays.

use super::{Bonus, CostRule, DataCard, Op, PileRule};
use crate::cards::{Card, Types};
use crate::engine::Dest;

/// The card's text: its bonuses and effect, then its Victory points, its
/// reaction and its when-gained / when-trashed abilities, one sentence or
/// paragraph each, separated by single spaces.
pub fn card_text(dc: &DataCard) -> String {
    let i = &dc.info;
    let p = &dc.program;
    let mut parts: Vec<String> = Vec::new();
    if i.types.has(Types::TREASURE) && i.value > 0 {
        parts.push(format!("${}.", i.value));
    }
    let vanilla = Bonus {
        cards: i.cards,
        actions: i.actions,
        buys: i.buys,
        coins: i.coins,
    };
    if !vanilla.is_zero() {
        parts.push(format!("{}.", bonus_text(vanilla)));
    }
    let main = ops_sentences(&p.ops, &p.ops[..p.main as usize]);
    if !main.is_empty() {
        parts.push(main);
    }
    if i.vp != 0 {
        parts.push(format!("Worth {} VP.", i.vp));
    }
    if let Some(r) = p.vp {
        parts.push(match r.of {
            None => format!(
                "Worth 1 VP for every {} cards you have (round down).",
                r.per
            ),
            Some(c) if r.per == 1 => format!("Worth 1 VP per {} you have.", c.name()),
            Some(c) => format!(
                "Worth 1 VP for every {} {} you have (round down).",
                r.per,
                plural(c)
            ),
        });
    }
    if p.blocks_attacks {
        parts.push(
            "When another player plays an Attack card, you may reveal this from your hand. If you do, you are unaffected by that Attack."
                .into(),
        );
    }
    for (range, when) in [(p.on_gain, "gain"), (p.on_trash, "trash")] {
        let (a, n) = range;
        if n > 0 {
            let s = ops_sentences(&p.ops, &p.ops[a as usize..(a + n) as usize]);
            parts.push(format!("When you {when} this, {}", lower_first(&s)));
        }
    }
    if let PileRule::Fixed(n) = i.pile {
        parts.push(format!("(A pile of {n}.)"));
    }
    if parts.is_empty() {
        return "(no effect)".into();
    }
    parts.join(" ")
}

/// "+2 Cards, +1 Action, +1 Buy, +$2" (no final period).
fn bonus_text(b: Bonus) -> String {
    let mut v = Vec::new();
    for (n, one, many) in [
        (b.cards, "Card", "Cards"),
        (b.actions, "Action", "Actions"),
        (b.buys, "Buy", "Buys"),
    ] {
        if n > 0 {
            v.push(format!("+{n} {}", if n == 1 { one } else { many }));
        }
    }
    if b.coins > 0 {
        v.push(format!("+${}", b.coins));
    }
    v.join(", ")
}

/// The sentences of a run of steps (`all` is the whole program, which the
/// options of a `choose` index into).
/// A run of the same gain ("Gain a Silver." three times) reads as one
/// sentence ("Gain 3 Silvers."), as the printed Feodum and Hunting Grounds
/// say it.
fn ops_sentences(all: &[Op], ops: &[Op]) -> String {
    let mut out = Vec::new();
    let mut i = 0;
    while i < ops.len() {
        let run = ops[i..].iter().take_while(|o| **o == ops[i]).count();
        match ops[i] {
            Op::GainCard { card, to } if run > 1 => {
                out.push(format!("Gain {run} {}{}.", plural(card), dest_text(to)));
            }
            _ => {
                out.push(op_sentence(all, &ops[i]));
                i += 1;
                continue;
            }
        }
        i += run;
    }
    out.join(" ")
}

fn a_or_an(word: &str) -> &'static str {
    match word.chars().next().map(|c| c.to_ascii_lowercase()) {
        Some('a' | 'e' | 'i' | 'o' | 'u') => "an",
        _ => "a",
    }
}

/// "Silver" → "Silvers" (the card names of the sets take a plain -s, and a
/// data card's name is the designer's).
fn plural(c: Card) -> String {
    let n = c.name();
    let consonant_y = n.ends_with('y')
        && !matches!(
            n.chars().rev().nth(1).map(|c| c.to_ascii_lowercase()),
            Some('a' | 'e' | 'i' | 'o' | 'u')
        );
    if consonant_y {
        format!("{}ies", &n[..n.len() - 1])
    } else if n.ends_with('s') || n.ends_with('x') || n.ends_with("sh") || n.ends_with("ch") {
        format!("{n}es")
    } else {
        format!("{n}s")
    }
}

/// The type words of a filter: "Action", "Action or Treasure"; `None` for
/// any card.
fn type_words(t: Types) -> Option<String> {
    let names: Vec<&str> = Types::NAMES
        .iter()
        .filter(|(_, ty)| t.has(*ty))
        .map(|(n, _)| *n)
        .collect();
    match names.len() {
        0 => None,
        1 => Some(names[0].to_string()),
        _ => {
            let (last, rest) = names.split_last().expect("two or more");
            Some(format!("{} or {last}", rest.join(", ")))
        }
    }
}

/// "a card", "an Action card", "an Action or Treasure card".
fn one_card(t: Types) -> String {
    match type_words(t) {
        None => "a card".into(),
        Some(w) => format!("{} {w} card", a_or_an(&w)),
    }
}

/// "4 cards", "2 Treasure cards", "1 card".
fn n_cards(n: u8, t: Types) -> String {
    let noun = if n == 1 { "card" } else { "cards" };
    match type_words(t) {
        None => format!("{n} {noun}"),
        Some(w) => format!("{n} {w} {noun}"),
    }
}

fn dest_text(to: Dest) -> &'static str {
    match to {
        Dest::Discard => "",
        Dest::Hand => ", putting it into your hand",
        Dest::DeckTop => ", putting it onto your deck",
    }
}

fn times_text(n: u8) -> String {
    match n {
        1 => "once".into(),
        2 => "twice".into(),
        n => format!("{n} times"),
    }
}

fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        // "+1 Card." stays as it is; a word starts lower-case after "When
        // you gain this,".
        Some(f) if f.is_ascii_uppercase() => f.to_ascii_lowercase().to_string() + c.as_str(),
        _ => s.to_string(),
    }
}

/// " +$1 per card trashed." or "" for no bonus.
fn each_text(b: Bonus, verb: &str) -> String {
    if b.is_zero() {
        String::new()
    } else {
        format!(" {} per card {verb}.", bonus_text(b))
    }
}

fn op_sentence(all: &[Op], op: &Op) -> String {
    match *op {
        Op::Plus(b) => format!("{}.", bonus_text(b)),
        Op::Gain { filter, cost, to } => {
            let what = one_card(filter);
            let cost = match cost {
                // No card costs more than $16 (the file's bound): any card.
                CostRule::UpTo(n) if n >= 16 => String::new(),
                CostRule::UpTo(n) => format!(" costing up to ${n}"),
                CostRule::Exactly(n) => format!(" costing exactly ${n}"),
            };
            format!("Gain {what}{cost}{}.", dest_text(to))
        }
        Op::GainCard { card, to } => {
            let n = card.name();
            format!("Gain {} {n}{}.", a_or_an(n), dest_text(to))
        }
        Op::TrashCard { card, then } => {
            let n = card.name();
            if then.is_zero() {
                format!("Trash {} {n} from your hand.", a_or_an(n))
            } else {
                format!(
                    "Trash {} {n} from your hand. If you do, {}.",
                    a_or_an(n),
                    bonus_text(then)
                )
            }
        }
        Op::Trash {
            filter,
            max,
            exactly,
            each,
        } => {
            let what = match (exactly, max) {
                (true, 1) => one_card(filter),
                (true, n) => n_cards(n, filter),
                (false, n) => format!("up to {}", n_cards(n, filter)),
            };
            format!("Trash {what} from your hand.{}", each_text(each, "trashed"))
        }
        Op::Improve {
            filter,
            plus,
            exactly,
            gain,
            to,
        } => {
            let cost = if exactly {
                format!("costing exactly ${plus} more than it")
            } else {
                format!("costing up to ${plus} more than it")
            };
            format!(
                "Trash {} from your hand. Gain {} {cost}{}.",
                one_card(filter),
                one_card(gain),
                dest_text(to)
            )
        }
        Op::TrashSelf => "Trash this card.".into(),
        Op::DiscardFor { filter, max, each } => {
            let what = if max >= 100 {
                match type_words(filter) {
                    None => "any number of cards".to_string(),
                    Some(w) => format!("any number of {w} cards"),
                }
            } else {
                format!("up to {}", n_cards(max, filter))
            };
            format!("Discard {what}.{}", each_text(each, "discarded"))
        }
        Op::DrawUntil { hand, set_aside } => {
            let mut s = format!("Draw until you have {hand} cards in hand.");
            if set_aside {
                s.push_str(" You may set aside any Action cards drawn this way, as you draw them; discard the set aside cards after you finish drawing.");
            }
            s
        }
        Op::MayDiscardDeck => "You may immediately put your deck into your discard pile.".into(),
        Op::PlayAction { times } => format!(
            "Choose an Action card in your hand. Play it {}.",
            times_text(times)
        ),
        Op::Topdeck => "Put a card from your hand onto your deck.".into(),
        Op::MayTrashSelf { then } => format!(
            "You may trash this card immediately. If you do, {}.",
            bonus_text(then)
        ),
        Op::IfNoActionInHand { then } => format!(
            "Reveal your hand. If you have no Action cards in hand, {}.",
            bonus_text(then)
        ),
        Op::RevealUntilCost(n) => format!(
            "Reveal cards from the top of your deck until you reveal one costing ${n} or more. Put that card into your hand and discard the rest."
        ),
        Op::RevealTreasures(n) => {
            let what = if n == 1 {
                "a Treasure card".to_string()
            } else {
                format!("{n} Treasure cards")
            };
            format!(
                "Reveal cards from your deck until you reveal {what}. Put {} into your hand and discard the other revealed cards.",
                if n == 1 { "it" } else { "those Treasure cards" }
            )
        }
        Op::RevealTake { n, take } => {
            let top = if n == 1 {
                "the top card".to_string()
            } else {
                format!("the top {n} cards")
            };
            match type_words(take) {
                None => format!("Reveal {top} of your deck. Put them into your hand."),
                Some(w) => format!(
                    "Reveal {top} of your deck. Put the {w} cards into your hand and discard the rest."
                ),
            }
        }
        Op::OthersDraw(n) => {
            if n == 1 {
                "Each other player draws a card.".into()
            } else {
                format!("Each other player draws {n} cards.")
            }
        }
        Op::VictimsGain(card) => {
            let n = card.name();
            format!("Each other player gains {} {n}.", a_or_an(n))
        }
        Op::VictimsDiscardDownTo(n) => {
            format!("Each other player discards down to {n} cards in hand.")
        }
        Op::VictimsTopdeck(filter) => {
            let what = one_card(filter);
            let none = match type_words(filter) {
                None => "cards".to_string(),
                Some(w) => format!("{w} cards"),
            };
            format!(
                "Each other player puts {what} from his hand onto his deck (or reveals a hand with no {none})."
            )
        }
        Op::VictimsTrashTreasure { reveal, gain } => {
            let top = if reveal == 1 {
                "the top card".to_string()
            } else {
                format!("the top {reveal} cards")
            };
            let mut s = format!(
                "Each other player reveals {top} of his deck and trashes a revealed Treasure that you choose, discarding the rest."
            );
            if gain {
                s.push_str(" You may gain any or all of the trashed Treasures.");
            }
            s
        }
        Op::CostReduction(n) => {
            format!("This turn, cards cost ${n} less, but not less than $0.")
        }
        Op::CopperBonus(n) => format!("This turn, each Copper you play gives ${n} more."),
        Op::Choose { n, pick, opts } => {
            let options: Vec<String> = opts[..n as usize]
                .iter()
                .map(|&(s, l)| {
                    let t = ops_sentences(all, &all[s as usize..(s + l) as usize]);
                    let t = lower_first(t.strip_suffix('.').unwrap_or(&t));
                    if t.is_empty() {
                        "nothing".to_string()
                    } else {
                        t
                    }
                })
                .collect();
            let head = if pick <= 1 {
                "Choose one"
            } else {
                "Choose two (different)"
            };
            format!("{head}: {}.", options.join("; or "))
        }
    }
}
