//! The routing table: for every kind of question the engine asks — a pick
//! (one slot per [`Why`]), a yes/no about one's own or another player's
//! card, a reaction, a "choose one" — which compiled answer replies. One
//! table, one row per asking card (row 0: no card, the turn-phase
//! questions), one slot per kind of question. [`super::compile`] fills it
//! from the strategy and the option table; the modules of
//! [`super::questions`] read it. It imports neither.

use super::options::Question;
use super::rules::Rule;
use crate::cards::Card;
use crate::engine::Why;

/// A range of bytecode (`len == 0`: always true).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Code {
    pub start: u32,
    pub len: u32,
}

/// How a question is answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Route {
    /// A built-in rule: the engine's documented default ([`Rule::Engine`]),
    /// or a card's smarter default named in its option's fallback chain.
    Default(Rule),
    /// Answer none (buy nothing).
    Nothing,
    /// The first applicable entry of a list; when none applies to a
    /// mandatory pick, the rule.
    List(u16, Rule),
    /// A condition (yes/no) or a number (choose).
    Value(Code),
    /// No `play` list: Actions giving +Actions first, then the most expensive.
    DefaultPlay,
    /// No `treasures` list: play every Treasure.
    AllTreasures,
    /// The most expensive legal card costing at least this much.
    Costliest(u8),
    /// Reveal a Reaction: per-Reaction `reveal` options.
    React,
    /// "Choose one" by mode conditions: `Compiled::mode_list[start..start +
    /// len]`, (option number, condition) tried in order.
    Modes(u32, u32),
    /// Which on-trash ability resolves next, and Market Square.
    TrashOrder,
}

impl Route {
    /// The engine's documented default.
    pub(crate) const ENGINE: Route = Route::Default(Rule::Engine);

    /// This route with `rule` as its last resort (a list keeps its entries;
    /// the engine default becomes the rule). Other routes are unchanged:
    /// they never fall to a card rule.
    pub(crate) fn with_rule(self, rule: Rule) -> Route {
        match self {
            Route::List(l, _) => Route::List(l, rule),
            Route::Default(Rule::Engine) => Route::Default(rule),
            r => r,
        }
    }
}

/// Pick slots, indexed by the `Why` discriminant. Kinds of pick beyond the
/// table (added by later card sets) get the engine's documented default.
pub(crate) const N_WHY: usize = 16;
/// Yes/no about the asker's own card (or no card).
pub(crate) const YES_OWN: usize = N_WHY;
/// Yes/no about another player's card.
pub(crate) const YES_OTHER: usize = N_WHY + 1;
/// Reveal this Reaction?
pub(crate) const REACT: usize = N_WHY + 2;
/// "Choose one": a number, or the card's modes.
pub(crate) const CHOOSE: usize = N_WHY + 3;
/// Slots of a row.
pub(crate) const N_SLOTS: usize = N_WHY + 4;

/// Slot of a pick's `Why` (`None` if beyond the table).
#[inline]
pub(crate) fn why_index(w: Why) -> Option<usize> {
    let i = w as usize;
    (i < N_WHY).then_some(i)
}

/// Slot of an option's question.
pub(crate) fn slot_of(q: Question) -> Option<usize> {
    match q {
        Question::Pick(w) => why_index(w),
        Question::YesNoOwn => Some(YES_OWN),
        Question::YesNoOther => Some(YES_OTHER),
        Question::React => Some(REACT),
        Question::Choose | Question::Mode(_) => Some(CHOOSE),
    }
}

/// One row of routes: every kind of question one card (or no card) asks.
pub(crate) type Row = [Route; N_SLOTS];

/// The routing table of a compiled strategy.
#[derive(Clone, Debug)]
pub(crate) struct Routes {
    /// Indexed by the asking card's id + 1 (0: no card).
    rows: Vec<Row>,
}

impl Routes {
    /// Every card's row starts as `generic`.
    pub(crate) fn new(generic: Row) -> Self {
        Routes {
            rows: vec![generic; Card::COUNT + 1],
        }
    }

    /// The routes of questions asked by `by`.
    #[inline(always)]
    pub(crate) fn row(&self, by: Option<Card>) -> &Row {
        &self.rows[by.map_or(0, |c| c as usize + 1)]
    }

    /// The route of `slot` for questions asked by `by`.
    #[inline(always)]
    pub(crate) fn get(&self, by: Option<Card>, slot: usize) -> Route {
        self.row(by)[slot]
    }

    pub(crate) fn set(&mut self, by: Card, slot: usize, r: Route) {
        self.rows[by as usize + 1][slot] = r;
    }
}
