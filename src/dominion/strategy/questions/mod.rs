//! Answering the engine's questions from a [`Compiled`] strategy, one
//! module per kind of question:
//!
//! * [`pick`] — choose a card (play, buy, gain, trash, discard, topdeck…):
//!   a list, a general default (play all Treasures, villages first, the
//!   costliest), else the card's rule from the option table;
//! * [`yes_no`] — a may-instruction: a condition, or a list matched against
//!   the card in question;
//! * [`choose`] — "choose one": a card's mode conditions (a route of their
//!   own), or a number;
//! * [`react`] — which Reaction to reveal against an Attack;
//! * [`trash_order`] — which on-trash ability resolves next (Market Square).
//!
//! Every module reads the one routing table ([`super::route`]) that
//! `compile` filled; none is imported by `compile`. Nothing here allocates.

pub(crate) mod choose;
pub(crate) mod pick;
pub(crate) mod react;
pub(crate) mod trash_order;
pub(crate) mod yes_no;

use super::compile::Compiled;
use super::route::{why_index, Route, Row};
use super::rules::Rule;
use crate::cards::{Card, CardSet};
use crate::engine::{Bots, Choose, Game, Pick, Why, YesNo, MAX_PLAYERS};

/// Seat tables are 8 long (the first power of two above [`MAX_PLAYERS`]):
/// a seat number indexes them with `& 7`, no division and no bounds check.
const SEAT_SLOTS: usize = 8;
const _: () = assert!(MAX_PLAYERS <= SEAT_SLOTS && SEAT_SLOTS.is_power_of_two());

/// The bots of one game: seat `i` is played by `seats[i]`.
#[derive(Clone, Copy)]
pub struct StrategyBots<'a> {
    seats: [&'a Compiled; SEAT_SLOTS],
    /// Each seat's turn-phase routes (`by == None`: play a Treasure, buy),
    /// one load away. (Copies of the tables saved that load but cost ~400
    /// instructions per game to build.)
    turn: [&'a Row; SEAT_SLOTS],
    /// Treasures with an effect in any seat's game (play order matters).
    effect_treasures: CardSet,
    /// Bit per seat, set between the first and the second "choose one" of
    /// a card that asks two (Count).
    second_choice: u8,
}

impl<'a> StrategyBots<'a> {
    /// Seat `i` is played by `seats[i]`. Panics if `seats` is empty or has
    /// more than [`MAX_PLAYERS`] entries.
    pub fn new(seats: &[&'a Compiled]) -> Self {
        assert!(
            !seats.is_empty() && seats.len() <= MAX_PLAYERS,
            "1 to {MAX_PLAYERS} strategies"
        );
        let seats: [&'a Compiled; SEAT_SLOTS] =
            std::array::from_fn(|i| seats.get(i).copied().unwrap_or(seats[0]));
        StrategyBots {
            seats,
            turn: std::array::from_fn(|i| seats[i].routes.row(None)),
            effect_treasures: seats
                .iter()
                .fold(CardSet::EMPTY, |m, s| m.or(s.effect_treasures)),
            second_choice: 0,
        }
    }

    #[inline]
    fn seat(&self, p: u8) -> &'a Compiled {
        self.seats[p as usize & (SEAT_SLOTS - 1)]
    }

    /// The route of pick `q`, with its slot (`None`: a kind of pick beyond
    /// the table, answered by the engine's default).
    #[inline(always)]
    fn pick_route(&self, s: &Compiled, q: &Pick) -> Option<Route> {
        let w = why_index(q.why)?;
        Some(match q.by {
            None => self.turn[q.player as usize & (SEAT_SLOTS - 1)][w],
            Some(_) => s.routes.get(q.by, w),
        })
    }

    /// Why this bot answers `q` as it does: the list entry that decides
    /// (`file:line:col`), or which default applies.
    pub fn explain(&self, g: &Game, q: &Pick) -> String {
        let s = self.seat(q.player);
        let Some(route) = self.pick_route(s, q) else {
            return "built-in rule for this question".into();
        };
        match route {
            Route::List(l, rule) => {
                let safety = pick::safety(q);
                let (entry, skipped) = s.deciding_entry(l, g, q, safety);
                let why = match entry {
                    Some(i) => s.entry_at[i].clone(),
                    None if q.optional => "no entry applies: none".into(),
                    None if rule != Rule::Engine => format!(
                        "no entry applies: the built-in rule of {}",
                        q.by.map_or("this card", |c| c.name())
                    ),
                    None => "no entry applies: the engine's default".into(),
                };
                if skipped.is_empty() {
                    return why;
                }
                let names: Vec<&str> = skipped.iter().map(|c| c.name()).collect();
                format!(
                    "{why}; the safety rules skipped {} (safety: off turns them off)",
                    names.join(", ")
                )
            }
            Route::AllTreasures => "no treasures: list: every Treasure".into(),
            Route::DefaultPlay => "no play: list: +Actions first, then the most expensive".into(),
            Route::React => {
                "the strategy's `reveal` options of its Reactions; default: reveal".into()
            }
            Route::TrashOrder => {
                "the strategy's on-trash options, `Market Square react`; default: react".into()
            }
            Route::Costliest(_) => "no list for this question: the most expensive".into(),
            Route::Nothing => "no list for this question: none".into(),
            Route::Default(Rule::Engine) => {
                "no list for this question: the engine's documented default".into()
            }
            Route::Default(_) => format!(
                "no list for this question: the built-in rule of {}",
                q.by.map_or("this card", |c| c.name())
            ),
            Route::Value(_) | Route::Modes(..) => {
                "no list for this question: the documented default".into()
            }
        }
    }

    /// Why this bot answers yes/no question `q` as it does (`--explain`).
    pub fn explain_yes_no(&self, g: &Game, q: &YesNo) -> String {
        yes_no::explain(self.seat(q.player), g, q)
    }

    /// Why this bot answers "choose one" `q` as it does (`--explain`); asked
    /// before the answer, as the second of two questions in a row (Count)
    /// is told by state the answer updates.
    pub fn explain_choose(&self, g: &Game, q: &Choose) -> String {
        choose::explain(self.seat(q.player), g, q, self.nth_choice(q))
    }

    /// Which "choose one" of its card in a row `q` is (0, or 1 for the
    /// second of a card that asks two: Count).
    #[inline]
    fn nth_choice(&self, q: &Choose) -> u8 {
        let two = self.seat(q.player).two_choices.contains(q.by);
        u8::from(two && self.second_choice & 1u8 << (q.player % 8) != 0)
    }
}

impl Bots for StrategyBots<'_> {
    /// A seat whose treasure route is "play all" plays its whole hand of
    /// effect-less Treasures in one engine pass (the engine only asks when no
    /// Treasure in hand has a play effect).
    #[inline(always)]
    fn play_all_treasures(&mut self, _g: &Game, player: u8) -> bool {
        let w = why_index(Why::PlayTreasure);
        w.is_some_and(|w| {
            matches!(
                self.turn[player as usize & (SEAT_SLOTS - 1)][w],
                Route::AllTreasures
            )
        })
    }

    #[inline(always)]
    fn pick(&mut self, g: &Game, q: &Pick) -> Option<Card> {
        let s = self.seat(q.player);
        let Some(route) = self.pick_route(s, q) else {
            return q.default_answer(g);
        };
        pick::answer(s, route, self.effect_treasures, g, q)
    }

    #[inline]
    fn yes_no(&mut self, g: &Game, q: &YesNo) -> bool {
        yes_no::answer(self.seat(q.player), g, q)
    }

    #[inline]
    fn choose(&mut self, g: &Game, q: &Choose) -> u8 {
        let s = self.seat(q.player);
        let nth = self.nth_choice(q);
        if s.two_choices.contains(q.by) {
            self.second_choice ^= 1u8 << (q.player % 8);
        }
        choose::answer(s, g, q, nth)
    }
}
