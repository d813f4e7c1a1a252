//! The per-card option table and the condition vocabulary.
//!
//! Every card that asks its player a question has one row per question in
//! [`OPTIONS`]: the option's name as written in a strategy file
//! (`<Card> <option>:`), which engine question it answers, what kind of value
//! it takes, and where the answer comes from when the file does not say
//! (`fallback`, ending if need be with a card's own built-in [`Src::Rule`]).
//! A later card set adds its options by adding rows here; the parser,
//! compiler, evaluator and documentation checks all read this table, and a
//! card's default is written here once.

use super::ast::{Fun, ListKind, NumFun, Var};
use super::rules::Rule as R;
use crate::cards::Card;
use crate::engine::Why;

/// Which engine question an option answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// A [`crate::engine::Pick`] asked with `by == Some(card)`.
    Pick(Why),
    /// A [`crate::engine::YesNo`] about the asker's own card (or no card).
    YesNoOwn,
    /// A [`crate::engine::YesNo`] about another player's card.
    YesNoOther,
    /// A [`crate::engine::Pick`] with `Why::React`: reveal this Reaction?
    React,
    /// A [`crate::engine::Choose`]: which option (0-based).
    Choose,
    /// One mode of a [`crate::engine::Choose`] (the option number): chosen
    /// when its condition holds. A card's modes are tried in table order;
    /// see `super::questions::choose`.
    Mode(u8),
}

/// What value an option takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A priority list of cards (a section).
    List,
    /// A condition on one line: `yes`, `no`, or a comparison.
    Bool,
    /// A number on one line (the option index of a `Choose`).
    Int,
}

/// Where an answer comes from when the strategy has no list for the option.
/// The first source that exists decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Src {
    /// A general list of the strategy (`trash:`, `gain:`...).
    General(ListKind),
    /// The built-in list of the same name in [`BUILTIN`].
    Builtin,
    /// The most expensive legal card costing at least this much (else none
    /// if the question is optional).
    Costliest(u8),
    /// A built-in rule written in Rust (a pick's smarter default,
    /// [`super::rules`]). Always last: it also answers a mandatory pick when
    /// the list chosen before it matches nothing (without it, the engine's
    /// documented default does).
    Rule(R),
}

/// One row of the option table.
#[derive(Clone, Copy, Debug)]
pub struct OptionSpec {
    pub card: Card,
    pub name: &'static str,
    pub question: Question,
    pub kind: Kind,
    /// Tried in order when the file has no `<Card> <name>` entry; if none
    /// exists, the engine's documented default answers.
    pub fallback: &'static [Src],
    /// What the option means (README reference).
    pub doc: &'static str,
    /// The default, in words (README reference).
    pub default_doc: &'static str,
}

use ListKind as L;
use Src::*;

/// Every per-card option. Keyed by (card, name); at most one row per
/// (card, question).
pub static OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        card: Card::Bureaucrat,
        name: "topdeck",
        question: Question::Pick(Why::Topdeck),
        kind: Kind::List,
        fallback: &[General(L::Topdeck)],
        doc: "when attacked: which Victory card to put on your deck",
        default_doc: "the `topdeck` list, else the cheapest Victory-only card, else the cheapest Victory card (the junk rule)",
    },
    OptionSpec {
        card: Card::Cellar,
        name: "discard",
        question: Question::Pick(Why::Discard),
        kind: Kind::List,
        fallback: &[Builtin],
        doc: "cards to discard (one at a time, then draw as many)",
        default_doc: "Curse, Ruins and Victory-only cards (not Great Hall, Harem, Nobles)",
    },
    OptionSpec {
        card: Card::Chancellor,
        name: "discard_deck",
        question: Question::YesNoOwn,
        kind: Kind::Bool,
        fallback: &[],
        doc: "put your deck into your discard pile?",
        default_doc: "yes",
    },
    OptionSpec {
        card: Card::Chapel,
        name: "trash",
        question: Question::Pick(Why::Trash),
        kind: Kind::List,
        fallback: &[General(L::Trash), Builtin],
        doc: "cards to trash (up to 4, one at a time)",
        default_doc: "the `trash` list, else Curse, Estate, Ruins, and Copper while total_money (counting the +$2 a Minion or Steward and the +$1 a Pawn can choose) > 6 if this turn's buy stays the same without it (the buy list's choice with coins + hand_money - 1 is the same as with coins + hand_money) or 4+ Curses, Estates and Coppers are in hand",
    },
    OptionSpec {
        card: Card::Feast,
        name: "gain",
        question: Question::Pick(Why::Gain),
        kind: Kind::List,
        fallback: &[General(L::Gain), General(L::Buy)],
        doc: "the card to gain (up to $5)",
        default_doc: "the `gain` list, else the `buy` list, else the most expensive",
    },
    OptionSpec {
        card: Card::Library,
        name: "set_aside",
        question: Question::YesNoOwn,
        kind: Kind::List,
        fallback: &[],
        doc: "drawn Action cards to set aside (matched entry = set aside)",
        default_doc: "set aside any Action when no actions are left, else keep it",
    },
    OptionSpec {
        card: Card::Militia,
        name: "discard",
        question: Question::Pick(Why::Discard),
        kind: Kind::List,
        fallback: &[General(L::Discard)],
        doc: "when attacked: cards to discard down to 3",
        default_doc: "the `discard` list, else Curse, Victory-only cards, then the cheapest (the junk rule; kept so that a data-card reprint of Militia, whose victims get the general discard route, plays the same)",
    },
    OptionSpec {
        card: Card::Mine,
        name: "trash",
        question: Question::Pick(Why::Trash),
        kind: Kind::List,
        fallback: &[Builtin],
        doc: "the Treasure to trash (upgrade)",
        default_doc: "Silver if Gold is left, else Copper if Silver is left, else the cheapest",
    },
    OptionSpec {
        card: Card::Mine,
        name: "gain",
        question: Question::Pick(Why::Gain),
        kind: Kind::List,
        fallback: &[General(L::Gain), General(L::Buy)],
        doc: "the Treasure to gain into hand",
        default_doc: "the `gain` list, else the `buy` list, else the most expensive",
    },
    OptionSpec {
        card: Card::Moat,
        name: "reveal",
        question: Question::React,
        kind: Kind::Bool,
        fallback: &[],
        doc: "reveal Moat against an Attack?",
        default_doc: "yes",
    },
    OptionSpec {
        card: Card::Remodel,
        name: "trash",
        question: Question::Pick(Why::Trash),
        kind: Kind::List,
        fallback: &[General(L::Trash)],
        doc: "the card to trash",
        default_doc:
            "the `trash` list, else Curse, then the cheapest Victory-only card, then the cheapest (the junk rule)",
    },
    OptionSpec {
        card: Card::Remodel,
        name: "gain",
        question: Question::Pick(Why::Gain),
        kind: Kind::List,
        fallback: &[General(L::Gain), General(L::Buy)],
        doc: "the card to gain (up to $2 more)",
        default_doc: "the `gain` list, else the `buy` list, else the most expensive",
    },
    OptionSpec {
        card: Card::Spy,
        name: "discard_mine",
        question: Question::YesNoOwn,
        kind: Kind::List,
        fallback: &[],
        doc: "your own revealed cards to discard (matched entry = discard)",
        default_doc: "discard Curse and Victory-only cards, keep the rest",
    },
    OptionSpec {
        card: Card::Spy,
        name: "discard_theirs",
        question: Question::YesNoOther,
        kind: Kind::List,
        fallback: &[],
        doc: "opponents' revealed cards to discard (matched entry = discard)",
        default_doc: "discard everything but Curse and Victory-only cards",
    },
    OptionSpec {
        card: Card::Thief,
        name: "trash",
        question: Question::Pick(Why::Trash),
        kind: Kind::List,
        fallback: &[Costliest(0)],
        doc: "which of a victim's revealed Treasures to trash",
        default_doc: "the most expensive",
    },
    OptionSpec {
        card: Card::Thief,
        name: "gain",
        question: Question::Pick(Why::Gain),
        kind: Kind::List,
        fallback: &[Costliest(1)],
        doc: "which trashed Treasures to gain (one at a time)",
        default_doc: "every one costing $1 or more (not Copper), most expensive first",
    },
    OptionSpec {
        card: Card::ThroneRoom,
        name: "play",
        question: Question::Pick(Why::PlayTarget),
        kind: Kind::List,
        fallback: &[General(L::Play)],
        doc: "the Action to play twice",
        default_doc: "the `play` list, else the most expensive",
    },
    OptionSpec {
        card: Card::Workshop,
        name: "gain",
        question: Question::Pick(Why::Gain),
        kind: Kind::List,
        fallback: &[General(L::Gain), General(L::Buy)],
        doc: "the card to gain (up to $4)",
        default_doc: "the `gain` list, else the `buy` list, else the most expensive",
    },
    // ---- Intrigue (see strategies/INTRIGUE.md). Mode options: a card's
    // modes are tried in the order of these rows; the first whose condition
    // holds is chosen. If the file sets none of a card's modes, the built-in
    // mode conditions (BUILTIN) are used instead; if none holds, the engine's
    // documented `Choose::default_answer`.
    OptionSpec {
        card: Card::Baron,
        name: "discard",
        question: Question::YesNoOwn,
        kind: Kind::Bool,
        fallback: &[],
        doc: "discard an Estate for +$4 (else gain an Estate)?",
        default_doc: "yes",
    },
    OptionSpec {
        card: Card::Courtyard,
        name: "topdeck",
        question: Question::Pick(Why::Topdeck),
        kind: Kind::List,
        fallback: &[Rule(R::CourtyardTopdeck)],
        doc: "the card from hand to put on your deck",
        default_doc: "an Action you cannot play any more (no actions left); else the most \
                      valuable non-junk card whose removal keeps the hand's money at the same \
                      price level ($2/3/4/5/6/8); else the junk rule (Curse, Victory, cheapest)",
    },
    OptionSpec {
        card: Card::Ironworks,
        name: "gain",
        question: Question::Pick(Why::Gain),
        kind: Kind::List,
        fallback: &[General(L::Gain), General(L::Buy)],
        doc: "the card to gain (up to $4)",
        default_doc: "the `gain` list, else the `buy` list, else the most expensive",
    },
    OptionSpec {
        card: Card::Masquerade,
        name: "pass",
        question: Question::Pick(Why::Pass),
        kind: Kind::List,
        fallback: &[Builtin],
        doc: "the card to pass to the left (asked of every player)",
        default_doc: "Curse, Estate unless the `buy` list would take an Estate now (with $2), Ruins, Copper; else the engine's rule: the cheapest non-Victory card, else the cheapest Victory card",
    },
    OptionSpec {
        card: Card::Masquerade,
        name: "trash",
        question: Question::Pick(Why::Trash),
        kind: Kind::List,
        fallback: &[General(L::Trash), Builtin],
        doc: "the card to trash afterwards (optional)",
        default_doc: "the `trash` list, else Curse, Estate while gains_to_end > 6 unless the `buy` list would take an Estate now, Ruins, then Copper while total_money > 6 if this turn's buy stays the same without it",
    },
    OptionSpec {
        card: Card::MiningVillage,
        name: "trash",
        question: Question::YesNoOwn,
        kind: Kind::Bool,
        fallback: &[Builtin],
        doc: "trash it for +$2?",
        default_doc: "when the game is about to end (gains_to_end <= 3), or when the +$2 changes this turn's buy to a card higher in the `buy` list that costs $8 or more",
    },
    OptionSpec {
        card: Card::Minion,
        name: "coins",
        question: Question::Mode(0),
        kind: Kind::Bool,
        fallback: &[Builtin],
        doc: "choose +$2 (tried first)",
        default_doc: "when another Minion is in hand, or when the +$2 lets this turn buy the `buy` list's top choice (what $24 would buy) and coins alone would not",
    },
    OptionSpec {
        card: Card::Minion,
        name: "attack",
        question: Question::Mode(1),
        kind: Kind::Bool,
        fallback: &[Builtin],
        doc: "choose to discard your hand and draw 4 (with the attack)",
        default_doc: "otherwise (yes)",
    },
    OptionSpec {
        card: Card::Nobles,
        name: "actions",
        question: Question::Mode(1),
        kind: Kind::Bool,
        fallback: &[Builtin],
        doc: "choose +2 Actions (tried first)",
        default_doc: "when no actions are left and an Action card is in hand",
    },
    OptionSpec {
        card: Card::Nobles,
        name: "cards",
        question: Question::Mode(0),
        kind: Kind::Bool,
        fallback: &[Builtin],
        doc: "choose +3 Cards",
        default_doc: "otherwise (yes)",
    },
    OptionSpec {
        card: Card::Pawn,
        name: "card_action",
        question: Question::Mode(0),
        kind: Kind::Bool,
        fallback: &[Builtin],
        doc: "choose +1 Card +1 Action",
        default_doc: "when an Action card is in hand",
    },
    OptionSpec {
        card: Card::Pawn,
        name: "card_buy",
        question: Question::Mode(1),
        kind: Kind::Bool,
        fallback: &[Builtin],
        doc: "choose +1 Card +1 Buy",
        default_doc: "no",
    },
    OptionSpec {
        card: Card::Pawn,
        name: "card_coin",
        question: Question::Mode(2),
        kind: Kind::Bool,
        fallback: &[Builtin],
        doc: "choose +1 Card +$1",
        default_doc: "otherwise (yes)",
    },
    OptionSpec {
        card: Card::Pawn,
        name: "action_buy",
        question: Question::Mode(3),
        kind: Kind::Bool,
        fallback: &[Builtin],
        doc: "choose +1 Action +1 Buy",
        default_doc: "no",
    },
    OptionSpec {
        card: Card::Pawn,
        name: "action_coin",
        question: Question::Mode(4),
        kind: Kind::Bool,
        fallback: &[Builtin],
        doc: "choose +1 Action +$1",
        default_doc: "no",
    },
    OptionSpec {
        card: Card::Pawn,
        name: "buy_coin",
        question: Question::Mode(5),
        kind: Kind::Bool,
        fallback: &[Builtin],
        doc: "choose +1 Buy +$1",
        default_doc: "no",
    },
    OptionSpec {
        card: Card::Saboteur,
        name: "gain",
        question: Question::Pick(Why::Gain),
        kind: Kind::List,
        fallback: &[],
        doc: "when attacked: the card to gain instead of the trashed one (optional)",
        default_doc: "the most expensive legal card other than Curse",
    },
    OptionSpec {
        card: Card::Scout,
        name: "order",
        question: Question::Pick(Why::Order),
        kind: Kind::List,
        fallback: &[],
        doc: "put revealed non-Victory cards back, one at a time: the first pick goes \
              deepest, the last pick ends on top",
        default_doc: "the junk rule (junk deepest, the most expensive card on top)",
    },
    OptionSpec {
        card: Card::SecretChamber,
        name: "discard",
        question: Question::Pick(Why::Discard),
        kind: Kind::List,
        fallback: &[],
        doc: "played as an Action: cards to discard for +$1 each (one at a time)",
        default_doc: "Curse and Victory-only cards",
    },
    OptionSpec {
        card: Card::SecretChamber,
        name: "reveal",
        question: Question::React,
        kind: Kind::Bool,
        fallback: &[],
        doc: "reveal Secret Chamber against an Attack (+2 Cards, put 2 back)?",
        default_doc: "yes",
    },
    OptionSpec {
        card: Card::SecretChamber,
        name: "topdeck",
        question: Question::Pick(Why::Topdeck),
        kind: Kind::List,
        fallback: &[],
        doc: "after revealing: the 2 cards to put back on your deck (the second ends on top)",
        default_doc: "the cheapest card that is neither junk nor Secret Chamber, else Secret \
                      Chamber, else junk",
    },
    OptionSpec {
        card: Card::Steward,
        name: "trash",
        question: Question::Mode(2),
        kind: Kind::Bool,
        fallback: &[Builtin],
        doc: "choose to trash 2 cards (tried first)",
        default_doc: "2+ Curses in hand, or 2+ Curses/Estates while gains_to_end > 5",
    },
    OptionSpec {
        card: Card::Steward,
        name: "coins",
        question: Question::Mode(1),
        kind: Kind::Bool,
        fallback: &[Builtin],
        doc: "choose +$2",
        default_doc: "when no action is left and the +$2 changes this turn's buy (the `buy` list's choice with coins + hand_money + 2 differs from that with coins + hand_money)",
    },
    OptionSpec {
        card: Card::Steward,
        name: "cards",
        question: Question::Mode(0),
        kind: Kind::Bool,
        fallback: &[Builtin],
        doc: "choose +2 Cards",
        default_doc: "otherwise (yes)",
    },
    OptionSpec {
        card: Card::Steward,
        name: "trash_cards",
        question: Question::Pick(Why::Trash),
        kind: Kind::List,
        fallback: &[General(L::Trash)],
        doc: "after choosing trash: the 2 cards to trash (one at a time, mandatory)",
        default_doc: "the `trash` list, else the junk rule (Curse, Victory-only, cheapest)",
    },
    OptionSpec {
        card: Card::Swindler,
        name: "give",
        question: Question::Pick(Why::Gain),
        kind: Kind::List,
        fallback: &[],
        doc: "the card a victim gains instead of his trashed card (same cost; one list \
              for every cost: legal cards are those of the trashed card's cost)",
        default_doc: "the junk rule: Curse, then Victory-only cards (Estate, Duchy), then the \
                      cheapest (never the `buy`/`gain` list)",
    },
    OptionSpec {
        card: Card::Torturer,
        name: "curse",
        question: Question::Mode(1),
        kind: Kind::Bool,
        fallback: &[Builtin],
        doc: "when attacked: choose to gain a Curse into hand (tried first)",
        default_doc: "when the Curse pile is empty (nothing happens), when a trasher is in hand (Chapel, Steward, Masquerade, Trading Post, Remodel, Upgrade, Junk Dealer, Altar), or when the hand would buy the `buy` list's top choice (what $24 would buy) and discarding 2 (down to the best hand_size - 2 Treasures) would not",
    },
    OptionSpec {
        card: Card::Torturer,
        name: "discard",
        question: Question::Mode(0),
        kind: Kind::Bool,
        fallback: &[Builtin],
        doc: "when attacked: choose to discard 2 cards",
        default_doc: "otherwise (yes)",
    },
    OptionSpec {
        card: Card::Torturer,
        name: "discard_cards",
        question: Question::Pick(Why::Discard),
        kind: Kind::List,
        fallback: &[General(L::Discard), Rule(R::VictimDiscard)],
        doc: "when attacked and discarding: the 2 cards to discard",
        default_doc: "the `discard` list, else the victim's rule: Curse and Victory-only cards, Ruins, Actions beyond the one terminal the next turn can play (the cheapest first), then the cheapest card",
    },
    OptionSpec {
        card: Card::TradingPost,
        name: "trash",
        question: Question::Pick(Why::Trash),
        kind: Kind::List,
        fallback: &[General(L::Trash)],
        doc: "the 2 cards to trash (one at a time, mandatory)",
        default_doc: "the `trash` list, else the junk rule (Curse, Victory-only, cheapest)",
    },
    OptionSpec {
        card: Card::Upgrade,
        name: "trash",
        question: Question::Pick(Why::Trash),
        kind: Kind::List,
        fallback: &[General(L::Trash), Builtin],
        doc: "the card to trash (mandatory)",
        default_doc: "the `trash` list, else Curse, Estate, Copper, then the junk rule",
    },
    OptionSpec {
        card: Card::Upgrade,
        name: "gain",
        question: Question::Pick(Why::Gain),
        kind: Kind::List,
        fallback: &[General(L::Gain), General(L::Buy)],
        doc: "the card to gain (costing exactly $1 more)",
        default_doc: "the `gain` list, else the `buy` list, else the most expensive",
    },
    OptionSpec {
        card: Card::WishingWell,
        name: "name",
        question: Question::Pick(Why::Name),
        kind: Kind::List,
        fallback: &[],
        doc: "the card to name (any card is legal)",
        default_doc: "the most likely top card by known deck composition (most copies in \
                      the draw pile, or in the discard pile if the draw pile is empty)",
    },
    // ---- Dark Ages (see strategies/DARK_AGES.md; routing of Copy,
    // TrashTrigger and Count's two choices in `super::dark_ages`). Count's
    // modes 0-2 answer its first choice, modes 3-5 its second (option m - 3).
    OptionSpec {
        card: Card::Altar,
        name: "trash",
        question: Question::Pick(Why::Trash),
        kind: Kind::List,
        fallback: &[General(L::Trash), Builtin],
        doc: "the card to trash from hand (mandatory)",
        default_doc: "the `trash` list, else Curse, Ruins, Estate, Copper, then the junk rule",
    },
    OptionSpec {
        card: Card::Altar,
        name: "gain",
        question: Question::Pick(Why::Gain),
        kind: Kind::List,
        fallback: &[General(L::Gain), General(L::Buy)],
        doc: "the card to gain (up to $5)",
        default_doc: "the `gain` list, else the `buy` list, else the most expensive",
    },
    OptionSpec {
        card: Card::Armory,
        name: "gain",
        question: Question::Pick(Why::Gain),
        kind: Kind::List,
        fallback: &[General(L::Gain), General(L::Buy)],
        doc: "the card to gain onto your deck (up to $4)",
        default_doc: "the `gain` list, else the `buy` list, else the most expensive",
    },
    OptionSpec {
        card: Card::BandOfMisfits,
        name: "copy",
        question: Question::Pick(Why::Copy),
        kind: Kind::List,
        fallback: &[General(L::Play)],
        doc: "the cheaper Action card from the Supply to play it as",
        default_doc: "the `play` list, else the most expensive legal card",
    },
    OptionSpec {
        card: Card::Beggar,
        name: "reveal",
        question: Question::React,
        kind: Kind::Bool,
        fallback: &[],
        doc: "when attacked: discard it to gain a Silver onto your deck and one into your discard pile?",
        default_doc: "yes",
    },
    OptionSpec {
        card: Card::Catacombs,
        name: "take",
        question: Question::YesNoOwn,
        kind: Kind::Bool,
        fallback: &[],
        doc: "put the 3 cards looked at into your hand (no: discard them, draw 3)?",
        default_doc: "yes",
    },
    OptionSpec {
        card: Card::Catacombs,
        name: "gain",
        question: Question::Pick(Why::Gain),
        kind: Kind::List,
        fallback: &[General(L::Gain), General(L::Buy)],
        doc: "when trashed: the cheaper card to gain",
        default_doc: "the `gain` list, else the `buy` list, else the most expensive",
    },
    OptionSpec {
        card: Card::Count,
        name: "discard",
        question: Question::Mode(0),
        kind: Kind::Bool,
        fallback: &[Builtin],
        doc: "first choice: discard 2 cards (tried first)",
        default_doc: "yes",
    },
    OptionSpec {
        card: Card::Count,
        name: "topdeck",
        question: Question::Mode(1),
        kind: Kind::Bool,
        fallback: &[Builtin],
        doc: "first choice: put a card from your hand onto your deck",
        default_doc: "no",
    },
    OptionSpec {
        card: Card::Count,
        name: "copper",
        question: Question::Mode(2),
        kind: Kind::Bool,
        fallback: &[Builtin],
        doc: "first choice: gain a Copper",
        default_doc: "no",
    },
    OptionSpec {
        card: Card::Count,
        name: "trash_hand",
        question: Question::Mode(4),
        kind: Kind::Bool,
        fallback: &[Builtin],
        doc: "second choice: trash your hand (tried first)",
        default_doc: "no Action in hand, every Treasure in hand is Copper, coins + hand_money <= 3, and turn <= 12",
    },
    OptionSpec {
        card: Card::Count,
        name: "duchy",
        question: Question::Mode(5),
        kind: Kind::Bool,
        fallback: &[Builtin],
        doc: "second choice: gain a Duchy (tried second)",
        default_doc: "gains_to_end <= 5 and coins + hand_money < 5",
    },
    OptionSpec {
        card: Card::Count,
        name: "coins",
        question: Question::Mode(3),
        kind: Kind::Bool,
        fallback: &[Builtin],
        doc: "second choice: +$3",
        default_doc: "otherwise (yes)",
    },
    OptionSpec {
        card: Card::Count,
        name: "discard_cards",
        question: Question::Pick(Why::Discard),
        kind: Kind::List,
        fallback: &[General(L::Discard)],
        doc: "after choosing discard: the 2 cards to discard",
        default_doc: "the `discard` list, else the junk rule",
    },
    OptionSpec {
        card: Card::Count,
        name: "topdeck_card",
        question: Question::Pick(Why::Topdeck),
        kind: Kind::List,
        fallback: &[General(L::Topdeck)],
        doc: "after choosing topdeck: the card to put onto your deck",
        default_doc: "the `topdeck` list, else the junk rule",
    },
    OptionSpec {
        card: Card::Counterfeit,
        name: "play",
        question: Question::Pick(Why::PlayTarget),
        kind: Kind::List,
        fallback: &[Builtin],
        doc: "the Treasure to play twice and trash (optional)",
        default_doc: "Spoils, then Copper",
    },
    OptionSpec {
        card: Card::Cultist,
        name: "play",
        question: Question::YesNoOwn,
        kind: Kind::Bool,
        fallback: &[],
        doc: "play another Cultist from your hand?",
        default_doc: "yes",
    },
    OptionSpec {
        card: Card::DeathCart,
        name: "trash",
        question: Question::Pick(Why::Trash),
        kind: Kind::List,
        fallback: &[],
        doc: "an Action card from hand to trash (none: the played Death Cart trashes itself)",
        default_doc: "a Ruins or Necropolis from hand, else nothing",
    },
    OptionSpec {
        card: Card::Forager,
        name: "trash",
        question: Question::Pick(Why::Trash),
        kind: Kind::List,
        fallback: &[General(L::Trash)],
        doc: "the card to trash from hand (mandatory)",
        default_doc: "the `trash` list, else the junk rule",
    },
    OptionSpec {
        card: Card::Graverobber,
        name: "upgrade",
        question: Question::Mode(1),
        kind: Kind::Bool,
        fallback: &[Builtin],
        doc: "choose: trash an Action from hand, gain a card costing up to $3 more (tried first)",
        default_doc: "when a Ruins is in hand",
    },
    OptionSpec {
        card: Card::Graverobber,
        name: "from_trash",
        question: Question::Mode(0),
        kind: Kind::Bool,
        fallback: &[Builtin],
        doc: "choose: gain a $3-$6 card from the trash onto your deck",
        default_doc: "otherwise (yes)",
    },
    OptionSpec {
        card: Card::Graverobber,
        name: "gain",
        question: Question::Pick(Why::Gain),
        kind: Kind::List,
        fallback: &[General(L::Gain), General(L::Buy)],
        doc: "the card to gain (from the trash, or after trashing an Action)",
        default_doc: "the `gain` list, else the `buy` list, else the most expensive",
    },
    OptionSpec {
        card: Card::Graverobber,
        name: "trash",
        question: Question::Pick(Why::Trash),
        kind: Kind::List,
        fallback: &[],
        doc: "the Action card to trash from hand",
        default_doc: "the junk rule (the cheapest)",
    },
    OptionSpec {
        card: Card::Hermit,
        name: "trash",
        question: Question::Pick(Why::Trash),
        kind: Kind::List,
        fallback: &[Builtin],
        doc: "a non-Treasure card to trash from your hand or discard pile (optional)",
        default_doc: "Curse, Ruins, Estate, Overgrown Estate, Hovel",
    },
    OptionSpec {
        card: Card::Hermit,
        name: "gain",
        question: Question::Pick(Why::Gain),
        kind: Kind::List,
        fallback: &[General(L::Gain), General(L::Buy)],
        doc: "the card to gain (up to $3)",
        default_doc: "the `gain` list, else the `buy` list, else the most expensive",
    },
    OptionSpec {
        card: Card::HuntingGrounds,
        name: "estates",
        question: Question::Mode(1),
        kind: Kind::Bool,
        fallback: &[Builtin],
        doc: "when trashed: gain 3 Estates (tried first)",
        default_doc: "when the Duchy pile is empty",
    },
    OptionSpec {
        card: Card::HuntingGrounds,
        name: "duchy",
        question: Question::Mode(0),
        kind: Kind::Bool,
        fallback: &[Builtin],
        doc: "when trashed: gain a Duchy",
        default_doc: "otherwise (yes)",
    },
    OptionSpec {
        card: Card::Ironmonger,
        name: "discard",
        question: Question::YesNoOwn,
        kind: Kind::List,
        fallback: &[],
        doc: "revealed cards to discard (matched entry = discard)",
        default_doc: "discard Curse, Ruins and Victory-only cards",
    },
    OptionSpec {
        card: Card::JunkDealer,
        name: "trash",
        question: Question::Pick(Why::Trash),
        kind: Kind::List,
        fallback: &[General(L::Trash), Builtin],
        doc: "the card to trash from hand (mandatory)",
        default_doc: "the `trash` list, else Curse, Ruins, Estate, Copper, Hovel, Overgrown Estate, then the junk rule",
    },
    OptionSpec {
        card: Card::MarketSquare,
        name: "react",
        question: Question::YesNoOwn,
        kind: Kind::Bool,
        fallback: &[],
        doc: "when a card of yours is trashed: discard Market Square to gain a Gold?",
        default_doc: "yes",
    },
    OptionSpec {
        card: Card::Mercenary,
        name: "trash",
        question: Question::Pick(Why::Trash),
        kind: Kind::List,
        fallback: &[General(L::Trash)],
        doc: "the 2 cards to trash (the first is optional, the second then mandatory)",
        default_doc: "the `trash` list, else nothing",
    },
    OptionSpec {
        card: Card::Mystic,
        name: "name",
        question: Question::Pick(Why::Name),
        kind: Kind::List,
        fallback: &[],
        doc: "the card to name",
        default_doc: "the most likely top card by known deck composition",
    },
    OptionSpec {
        card: Card::Pillage,
        name: "discard",
        question: Question::Pick(Why::Discard),
        kind: Kind::List,
        fallback: &[Costliest(0)],
        doc: "the card a victim with 5+ cards discards (your pick)",
        default_doc: "the most expensive",
    },
    OptionSpec {
        card: Card::Procession,
        name: "play",
        question: Question::Pick(Why::PlayTarget),
        kind: Kind::List,
        fallback: &[General(L::Play), Costliest(0)],
        doc: "the Action to play twice, trash and upgrade (optional)",
        default_doc: "the `play` list, else the most expensive",
    },
    OptionSpec {
        card: Card::Procession,
        name: "gain",
        question: Question::Pick(Why::Gain),
        kind: Kind::List,
        fallback: &[General(L::Gain), General(L::Buy)],
        doc: "the Action to gain (costing exactly $1 more)",
        default_doc: "the `gain` list, else the `buy` list, else the most expensive",
    },
    OptionSpec {
        card: Card::Rats,
        name: "trash",
        question: Question::Pick(Why::Trash),
        kind: Kind::List,
        fallback: &[General(L::Trash)],
        doc: "the non-Rats card to trash from hand (mandatory)",
        default_doc: "the `trash` list, else the junk rule",
    },
    OptionSpec {
        card: Card::Rebuild,
        name: "name",
        question: Question::Pick(Why::Name),
        kind: Kind::List,
        fallback: &[Builtin],
        doc: "the card to name",
        default_doc: "Estate to turn a Duchy into a Province when ahead by more than 3 VP with 2 Provinces or fewer left, or when no Duchy is left anywhere; Duchy while an Estate is outside my hand, Duchies are left and no Province is outside my hand (Estates become Duchies, Duchies are kept); else Province",
    },
    OptionSpec {
        card: Card::Rebuild,
        name: "gain",
        question: Question::Pick(Why::Gain),
        kind: Kind::List,
        fallback: &[],
        doc: "the Victory card to gain (up to $3 more than the trashed one)",
        default_doc: "the most expensive",
    },
    OptionSpec {
        card: Card::Rogue,
        name: "gain",
        question: Question::Pick(Why::Gain),
        kind: Kind::List,
        fallback: &[General(L::Gain), General(L::Buy)],
        doc: "the $3-$6 card to gain from the trash",
        default_doc: "the `gain` list, else the `buy` list, else the most expensive",
    },
    OptionSpec {
        card: Card::Rogue,
        name: "trash",
        question: Question::Pick(Why::Trash),
        kind: Kind::List,
        fallback: &[],
        doc: "another player's Rogue attacks you: which of your revealed $3-$6 cards to trash",
        default_doc: "the engine's junk rule: a Victory-only card (Duchy), else the cheapest",
    },
    OptionSpec {
        card: Card::Scavenger,
        name: "deck",
        question: Question::YesNoOwn,
        kind: Kind::Bool,
        fallback: &[],
        doc: "put your deck into your discard pile?",
        default_doc: "yes",
    },
    OptionSpec {
        card: Card::Scavenger,
        name: "topdeck",
        question: Question::Pick(Why::Topdeck),
        kind: Kind::List,
        fallback: &[Rule(R::ScavengerTopdeck)],
        doc: "the card from your discard pile to put onto your deck",
        default_doc: "Gold, the most expensive Action card that is not Ruins, Silver, then the \
                      most expensive card that is not junk (Curse, Ruins, Victory-only), junk last",
    },
    OptionSpec {
        card: Card::Squire,
        name: "actions",
        question: Question::Mode(0),
        kind: Kind::Bool,
        fallback: &[Builtin],
        doc: "choose +2 Actions (tried first)",
        default_doc: "no actions left and an Action card in hand",
    },
    OptionSpec {
        card: Card::Squire,
        name: "buys",
        question: Question::Mode(1),
        kind: Kind::Bool,
        fallback: &[Builtin],
        doc: "choose +2 Buys (tried second)",
        default_doc: "coins + hand_money >= 10",
    },
    OptionSpec {
        card: Card::Squire,
        name: "silver",
        question: Question::Mode(2),
        kind: Kind::Bool,
        fallback: &[Builtin],
        doc: "choose to gain a Silver",
        default_doc: "otherwise (yes)",
    },
    OptionSpec {
        card: Card::Squire,
        name: "gain",
        question: Question::Pick(Why::Gain),
        kind: Kind::List,
        fallback: &[General(L::Gain), General(L::Buy)],
        doc: "when trashed: the Attack card to gain",
        default_doc: "the `gain` list, else the `buy` list, else the most expensive",
    },
    OptionSpec {
        card: Card::Storeroom,
        name: "discard",
        question: Question::Pick(Why::Discard),
        kind: Kind::List,
        fallback: &[Builtin],
        doc: "first round: cards to discard, one at a time, to draw as many",
        default_doc: "Curse, Ruins, Victory-only cards, then Action cards when no actions are left",
    },
    OptionSpec {
        card: Card::Storeroom,
        name: "coins",
        question: Question::Pick(Why::DiscardForCoin),
        kind: Kind::List,
        fallback: &[Builtin],
        doc: "second round: cards to discard, one at a time, for +$1 each",
        default_doc: "Curse, Ruins, Victory-only cards, then Action cards when no actions are left",
    },
    OptionSpec {
        card: Card::Survivors,
        name: "discard",
        question: Question::YesNoOwn,
        kind: Kind::Bool,
        fallback: &[Builtin],
        doc: "discard both cards looked at (no: put them back in any order)?",
        default_doc: "yes unless one of them (aside(X)) is a Treasure better than Copper or an Action that is not Ruins",
    },
    OptionSpec {
        card: Card::Urchin,
        name: "trash",
        question: Question::YesNoOwn,
        kind: Kind::Bool,
        fallback: &[],
        doc: "when you play another Attack: trash this Urchin to gain a Mercenary?",
        default_doc: "no",
    },
    OptionSpec {
        card: Card::DameAnna,
        name: "trash",
        question: Question::Pick(Why::Trash),
        kind: Kind::List,
        fallback: &[Builtin],
        doc: "your own play: up to 2 cards from hand to trash (optional); when attacked: \
              which revealed $3-$6 card to lose (an unmatched list falls to the junk rule)",
        default_doc: "Curse, Ruins, Estate, Hovel, Overgrown Estate; as a victim the junk \
                      rule (Victory-only first, then the cheapest)",
    },
    OptionSpec {
        card: Card::DameJosephine,
        name: "victim",
        question: Question::Pick(Why::Trash),
        kind: Kind::List,
        fallback: &[],
        doc: "when attacked: which revealed $3-$6 card to lose",
        default_doc: "the junk rule (Victory-only first, then the cheapest)",
    },
    OptionSpec {
        card: Card::DameMolly,
        name: "victim",
        question: Question::Pick(Why::Trash),
        kind: Kind::List,
        fallback: &[],
        doc: "when attacked: which revealed $3-$6 card to lose",
        default_doc: "the junk rule (Victory-only first, then the cheapest)",
    },
    OptionSpec {
        card: Card::DameNatalie,
        name: "victim",
        question: Question::Pick(Why::Trash),
        kind: Kind::List,
        fallback: &[],
        doc: "when attacked: which revealed $3-$6 card to lose",
        default_doc: "the junk rule (Victory-only first, then the cheapest)",
    },
    OptionSpec {
        card: Card::DameSylvia,
        name: "victim",
        question: Question::Pick(Why::Trash),
        kind: Kind::List,
        fallback: &[],
        doc: "when attacked: which revealed $3-$6 card to lose",
        default_doc: "the junk rule (Victory-only first, then the cheapest)",
    },
    OptionSpec {
        card: Card::SirBailey,
        name: "victim",
        question: Question::Pick(Why::Trash),
        kind: Kind::List,
        fallback: &[],
        doc: "when attacked: which revealed $3-$6 card to lose",
        default_doc: "the junk rule (Victory-only first, then the cheapest)",
    },
    OptionSpec {
        card: Card::SirDestry,
        name: "victim",
        question: Question::Pick(Why::Trash),
        kind: Kind::List,
        fallback: &[],
        doc: "when attacked: which revealed $3-$6 card to lose",
        default_doc: "the junk rule (Victory-only first, then the cheapest)",
    },
    OptionSpec {
        card: Card::SirMartin,
        name: "victim",
        question: Question::Pick(Why::Trash),
        kind: Kind::List,
        fallback: &[],
        doc: "when attacked: which revealed $3-$6 card to lose",
        default_doc: "the junk rule (Victory-only first, then the cheapest)",
    },
    OptionSpec {
        card: Card::SirMichael,
        name: "victim",
        question: Question::Pick(Why::Trash),
        kind: Kind::List,
        fallback: &[],
        doc: "when attacked: which revealed $3-$6 card to lose",
        default_doc: "the junk rule (Victory-only first, then the cheapest)",
    },
    OptionSpec {
        card: Card::SirVander,
        name: "victim",
        question: Question::Pick(Why::Trash),
        kind: Kind::List,
        fallback: &[],
        doc: "when attacked: which revealed $3-$6 card to lose",
        default_doc: "the junk rule (Victory-only first, then the cheapest)",
    },
    OptionSpec {
        card: Card::DameNatalie,
        name: "gain",
        question: Question::Pick(Why::Gain),
        kind: Kind::List,
        fallback: &[General(L::Gain), General(L::Buy)],
        doc: "a card costing up to $3 to gain (optional)",
        default_doc: "the `gain` list, else the `buy` list, else nothing",
    },
    OptionSpec {
        card: Card::Hermit,
        name: "from_hand",
        question: Question::YesNoOwn,
        kind: Kind::Bool,
        fallback: &[],
        doc: "the card to trash is both in hand and in the discard pile: trash it from hand?",
        default_doc: "no (from the discard pile)",
    },
    OptionSpec {
        card: Card::Hovel,
        name: "trash",
        question: Question::YesNoOwn,
        kind: Kind::Bool,
        fallback: &[],
        doc: "on buying a Victory card: trash Hovel from your hand?",
        default_doc: "yes",
    },
    OptionSpec {
        card: Card::SirMichael,
        name: "discard",
        question: Question::Pick(Why::Discard),
        kind: Kind::List,
        fallback: &[General(L::Discard)],
        doc: "when attacked: cards to discard down to 3",
        default_doc: "the `discard` list, else the junk rule",
    },
    OptionSpec {
        card: Card::WanderingMinstrel,
        name: "order",
        question: Question::Pick(Why::Topdeck),
        kind: Kind::List,
        fallback: &[],
        doc: "put the revealed Actions back one at a time: the first pick goes deepest, the \
              last ends on top",
        default_doc: "the junk rule (the cheapest deepest, the most expensive on top)",
    },
];

/// The junk entries of the built-in discard lists: Curse, Ruins and the
/// Victory-only printed cards (a type entry `Victory` would also take Great
/// Hall, Harem and Nobles, which are money or a cantrip). One list, spliced
/// into [`BUILTIN`] wherever a default discards junk.
macro_rules! junk_entries {
    () => {
        "    Curse\n    Ruins\n    Estate\n    Overgrown Estate\n    Duchy\n    Province\n    Gardens\n    Duke\n    Feodum\n"
    };
}

/// Built-in lists used by `Src::Builtin`, written in the language itself.
pub const BUILTIN: &str = concat!(
    "Cellar discard:\n",
    junk_entries!(),
    "Chapel trash:
    Curse
    Estate
    Ruins
    Copper if total_money + 2 * count(Minion) + 2 * count(Steward) + count(Pawn) > 6 and (hand(Curse) + hand(Estate) + hand(Copper) >= 4 or would_buy(coins + hand_money - 1) == would_buy(coins + hand_money))
Mine trash:
    Silver if supply(Gold) > 0
    Copper if supply(Silver) > 0
# ---- Intrigue (mode conditions: used only when the file sets none of the card's modes)
Masquerade pass:
    Curse
    Estate if would_buy(2) != card(Estate)
    Ruins
    Copper
Masquerade trash:
    Curse
    Estate if gains_to_end > 6 and would_buy(2) != card(Estate)
    Ruins
    Copper if total_money > 6 and would_buy(coins + hand_money - 1) == would_buy(coins + hand_money)
Mining Village trash: gains_to_end <= 3 or (buy_value(coins + hand_money + 2) > buy_value(coins + hand_money) and buy_cost(coins + hand_money + 2) >= 8)
Minion coins: hand(Minion) > 0 or (would_buy(coins + hand_money + 2) == would_buy(24) and would_buy(coins + hand_money + 2) != would_buy(coins))
Minion attack: yes
Nobles actions: actions = 0 and hand(Action) > 0
Nobles cards: yes
Pawn card_action: hand(Action) > 0
Pawn card_coin: yes
Steward trash: hand(Curse) >= 2 or (hand(Curse) + hand(Estate) >= 2 and gains_to_end > 5)
Steward coins: actions = 0 and would_buy(coins + hand_money + 2) != would_buy(coins + hand_money)
Torturer curse: supply(Curse) = 0 or hand(Chapel) + hand(Steward) + hand(Masquerade) + hand(Trading Post) + hand(Remodel) + hand(Upgrade) + hand(Junk Dealer) + hand(Altar) > 0 or (would_buy(hand_money) == would_buy(24) and would_buy(best_hand_money(hand_size - 2)) != would_buy(hand_money))
Torturer discard: yes
Steward cards: yes
Upgrade trash:
    Curse
    Estate
    Copper
# ---- Dark Ages
Rebuild name:
    Estate if vp_lead > 3 and supply(Province) < 3
    Estate if count(Duchy) = 0 and supply(Duchy) = 0 and supply(Province) > 0
    Duchy if count(Estate) - hand(Estate) > 0 and supply(Duchy) > 0 and count(Province) - hand(Province) = 0
    Province
Altar trash:
    Curse
    Ruins
    Estate
    Copper
Count discard: yes
Count trash_hand: hand(Action) = 0 and hand(Treasure) = hand(Copper) and coins + hand_money <= 3 and turn <= 12
Count duchy: gains_to_end <= 5 and coins + hand_money < 5
Count coins: yes
Counterfeit play:
    Spoils
    Copper
Dame Anna trash:
    Curse
    Ruins
    Estate
    Hovel
    Overgrown Estate
Graverobber upgrade: hand(Ruins) > 0
Graverobber from_trash: yes
Hermit trash:
    Curse
    Ruins
    Estate
    Overgrown Estate
    Hovel
Hunting Grounds estates: supply(Duchy) = 0
Hunting Grounds duchy: yes
Junk Dealer trash:
    Curse
    Ruins
    Estate
    Copper
    Hovel
    Overgrown Estate
Squire actions: actions = 0 and hand(Action) > 0
Squire buys: coins + hand_money >= 10
Squire silver: yes
Survivors discard: aside(Treasure) - aside(Copper) + aside(Action) - aside(Ruins) = 0
Storeroom discard:\n",
    junk_entries!(),
    "    Action if actions = 0\nStoreroom coins:\n",
    junk_entries!(),
    "    Action if actions = 0\n",
);

/// The option row for `card` and option `name`, if any.
pub fn find_option(card: Card, name: &str) -> Option<usize> {
    OPTIONS
        .iter()
        .position(|o| o.card == card && o.name.eq_ignore_ascii_case(name))
}

/// Variables of the condition vocabulary with their meaning.
pub static VARS: &[(&str, Var, &str)] = &[
    ("coins", Var::Coins, "coins available now (this turn)"),
    ("actions", Var::Actions, "actions left now (this turn)"),
    ("buys", Var::Buys, "buys left now (this turn)"),
    ("turn", Var::Turn, "my turn number (1 on my first turn)"),
    ("cards", Var::Cards, "total cards I own"),
    (
        "total_money",
        Var::TotalMoney,
        "coins of all my Treasures plus the printed +$ of my Actions",
    ),
    (
        "money_density",
        Var::MoneyDensity,
        "total_money per card, in hundredths (120 = $1.20 per card)",
    ),
    ("hand_size", Var::HandSize, "cards in my hand"),
    (
        "hand_money",
        Var::HandMoney,
        "coin value of the Treasures in my hand",
    ),
    ("draw_pile_size", Var::DrawPileSize, "cards in my draw pile"),
    ("discard_size", Var::DiscardSize, "cards in my discard pile"),
    ("empty_piles", Var::EmptyPiles, "empty Supply piles"),
    (
        "gains_to_end",
        Var::GainsToEnd,
        "fewest gains that would end the game (Provinces left, or the smallest piles to empty)",
    ),
    ("vp", Var::Vp, "my victory points"),
    ("vp_lead", Var::VpLead, "my VP minus the best opponent's VP"),
    ("opp_vp", Var::OppVp, "the best opponent's VP"),
    ("players", Var::Players, "number of players"),
    (
        "action_plays",
        Var::ActionPlays,
        "Action plays this turn (Throne Room counts the doubled card twice)",
    ),
    (
        "opp_hand_size",
        Var::OppHandSize,
        "the largest hand among my opponents (e.g. play Militia only if it is 5 or more)",
    ),
    (
        "gained_this_turn",
        Var::GainedThisTurn,
        "cards I gained this turn so far (buys included)",
    ),
    (
        "bought_this_turn",
        Var::BoughtThisTurn,
        "cards bought this turn so far (by the player whose turn it is)",
    ),
];

/// Functions of the vocabulary: `name(Card)` or `name(Type)`.
pub static FUNS: &[(&str, Fun, &str)] = &[
    (
        "count",
        Fun::Count,
        "cards I own (deck, hand, discard, in play: everywhere)",
    ),
    ("hand", Fun::Hand, "cards in my hand"),
    ("in_play", Fun::InPlay, "cards in my play area"),
    ("draw_pile", Fun::DrawPile, "cards in my draw pile"),
    ("discard_pile", Fun::DiscardPile, "cards in my discard pile"),
    ("supply", Fun::Supply, "cards left in the Supply pile(s)"),
    ("trashed", Fun::Trashed, "cards in the trash"),
    ("opp", Fun::Opp, "the most any single opponent owns"),
    (
        "opp_total",
        Fun::OppTotal,
        "what all opponents own together",
    ),
    (
        "cost",
        Fun::Cost,
        "current cost of a card (a card, not a type)",
    ),
    (
        "aside",
        Fun::Aside,
        "cards I have set aside (the cards Survivors, Library or Catacombs is looking at while it asks)",
    ),
    (
        "card",
        Fun::CardId,
        "the number naming a card, to compare with would_buy: would_buy(coins) == card(Gold) (a card, not a type)",
    ),
];

/// The functions of one number with their meaning: what the bot's own
/// `buy` list would choose with an amount of coins, and the money of the
/// best Treasures in hand.
pub static NUM_FUNS: &[(&str, NumFun, &str)] = &[
    (
        "would_buy",
        NumFun::WouldBuy,
        "the card my `buy` list would choose with that many coins (and one buy) now: 0 for nothing, else a number naming the card (compare two with == or !=)",
    ),
    (
        "buy_value",
        NumFun::BuyValue,
        "how high that choice stands in my `buy` list: its first entry counts the list's length, its last 1; 0 for nothing",
    ),
    (
        "buy_cost",
        NumFun::BuyCost,
        "the current cost of that card; 0 for nothing",
    ),
    (
        "best_hand_money",
        NumFun::BestHandMoney,
        "the coin value of my N most valuable Treasures in hand (what discarding down to N cards, Treasures last, keeps)",
    ),
];

/// Header keys that are not lists or card options.
pub const SETTINGS: &[&str] = &[
    "name",
    "extends",
    "safety",
    "safe_ending",
    "penultimate_province",
];

/// Every keyword a header may start with (for suggestions).
pub fn header_words() -> impl Iterator<Item = &'static str> {
    SETTINGS
        .iter()
        .copied()
        .chain(ListKind::ALL.iter().map(|l| l.name()))
}

/// The options every data card (`--cards`) has, whichever questions it
/// asks: `<Data card> <option>:` answers that card's questions of this kind
/// (docs/DESIGNING_CARDS.md). Without one, the general lists answer.
pub static DATA_OPTIONS: &[(&str, Question, Kind, &str)] = &[
    (
        "trash",
        Question::Pick(Why::Trash),
        Kind::List,
        "cards to trash",
    ),
    (
        "discard",
        Question::Pick(Why::Discard),
        Kind::List,
        "cards to discard",
    ),
    (
        "gain",
        Question::Pick(Why::Gain),
        Kind::List,
        "cards to gain",
    ),
    (
        "topdeck",
        Question::Pick(Why::Topdeck),
        Kind::List,
        "cards to put onto the deck",
    ),
    (
        "play",
        Question::Pick(Why::PlayTarget),
        Kind::List,
        "the Action to play (`play_action`)",
    ),
    (
        "may",
        Question::YesNoOwn,
        Kind::Bool,
        "the answer to its yes/no questions (`may_…`, Library's set-aside)",
    ),
    (
        "choose",
        Question::Choose,
        Kind::Int,
        "the option of its `choose` (0-based; a pair's index for `pick = 2`)",
    ),
];

/// The index of data-card option `name` in [`DATA_OPTIONS`].
pub fn find_data_option(name: &str) -> Option<usize> {
    let key = crate::cards::normalize(name);
    DATA_OPTIONS
        .iter()
        .position(|(n, ..)| crate::cards::normalize(n) == key)
}

#[cfg(test)]
mod tests {
    use crate::cards::Card;
    use crate::engine::decision::is_junk;

    /// The built-in lists' junk entries are Curse, Ruins and exactly the
    /// printed Victory-only cards (the engine's junk rule): a card set
    /// added later with a Victory-only card fails here until it is listed.
    #[test]
    fn junk_entries_are_the_junk_rule_cards() {
        let listed: Vec<&str> = junk_entries!().lines().map(str::trim).collect();
        let mut want: Vec<&str> = Card::PRINTED
            .iter()
            .filter(|&&c| is_junk(c))
            .map(|c| c.name())
            .collect();
        want.push("Ruins");
        let (mut a, mut b) = (listed.clone(), want);
        a.sort();
        b.sort();
        assert_eq!(a, b);
        assert_eq!(listed[..2], ["Curse", "Ruins"]);
    }
}
