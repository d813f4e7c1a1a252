//! The decision interface: every question the engine asks a player.
//!
//! There are three shapes of question, and every card's decision is one of them:
//!
//! * [`Pick`] — choose one card kind from a set of legal kinds (or none, when
//!   optional). Multi-card selections (Chapel's "up to 4", Cellar's "any
//!   number", Militia's "discard down to 3") are asked as a sequence of picks,
//!   one card at a time; no information is revealed between the picks, so this
//!   is equivalent to choosing them all at once and needs no allocation.
//! * [`YesNo`] — a may-instruction about one card or pile (Chancellor, Library's
//!   set-aside, Spy's discard).
//! * [`Choose`] — one option out of `n` (Intrigue's "choose one").
//!
//! The engine validates every answer against the legal options. An illegal
//! answer is a bug of the bot: it is recorded in [`Game::fault`] and reported
//! by whoever runs the game; the engine then continues with the documented
//! default so that the game state stays consistent.
//!
//! Bots are a type parameter of every engine function (`B: Bots`): each call is
//! monomorphized and inlined; there is no `dyn` and no allocation.

use crate::cards::{Card, CardSet};
use crate::engine::Game;

/// What a [`Pick`] is for. The documented default answer of each is in
/// [`Pick::default_answer`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Why {
    /// Action phase: play an Action from hand (optional).
    PlayAction,
    /// Buy phase: play a Treasure from hand (optional).
    PlayTreasure,
    /// Buy phase: buy a card from the Supply (optional).
    Buy,
    /// Gain a card (Workshop, Feast, Remodel, Mine, Thief...).
    Gain,
    /// Trash a card (Chapel, Remodel, Mine, Moneylender, Thief's victim card).
    Trash,
    /// Discard a card (Cellar, Militia's victim).
    Discard,
    /// Put a card from hand on top of the deck (Bureaucrat's victim).
    Topdeck,
    /// Play a card from hand through another card (Throne Room's target).
    PlayTarget,
    /// Use a Reaction from hand against an Attack (Moat). Optional.
    React,
    // ---- Dark Ages
    /// After cards of yours were trashed: which on-trash ability resolves
    /// next, or Market Square (discard it to gain a Gold). Mandatory while
    /// abilities are pending; optional (none = stop) when only Market Square
    /// remains. Default: abilities in id order, then always Market Square.
    TrashTrigger,
    /// Name a card (Mystic, Rebuild): any card is legal. Default: Mystic →
    /// Copper, Rebuild → Province.
    Name,
    /// Band of Misfits: the Action card it is played as. Default: the most
    /// expensive legal card.
    Copy,
}

impl Why {
    pub fn name(self) -> &'static str {
        match self {
            Why::PlayAction => "play an Action",
            Why::PlayTreasure => "play a Treasure",
            Why::Buy => "buy a card",
            Why::Gain => "gain a card",
            Why::Trash => "trash a card",
            Why::Discard => "discard a card",
            Why::Topdeck => "put a card on your deck",
            Why::PlayTarget => "choose a card to play",
            Why::React => "reveal a Reaction",
            Why::TrashTrigger => "resolve an on-trash ability (or Market Square)",
            Why::Name => "name a card",
            Why::Copy => "choose the card Band of Misfits plays as",
        }
    }
}

/// Choose one card kind among `legal`, or `None` if `optional`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pick {
    /// Who answers.
    pub player: u8,
    pub why: Why,
    /// The card whose effect asks (None for turn-phase questions).
    pub by: Option<Card>,
    /// The kinds that are legal answers; never empty.
    pub legal: CardSet,
    /// Whether "none" is a legal answer.
    pub optional: bool,
    /// The player whose cards are concerned when it is not `player` (Thief:
    /// the victim whose revealed Treasure the attacker trashes).
    pub target: u8,
}

impl Pick {
    /// The documented default answer:
    /// * optional picks answer none, except `PlayTreasure` (play every
    ///   Treasure, most valuable first), `React` (always reveal) and
    ///   `TrashTrigger` (always use Market Square); Death Cart's optional
    ///   `Trash` takes a Ruins or Necropolis from hand if any (else Death Cart
    ///   trashes itself);
    /// * mandatory `TrashTrigger` resolves abilities in id order; `Copy` (Band
    ///   of Misfits) takes the most expensive legal card; `Name` names Copper
    ///   (Mystic) or Province (Rebuild);
    /// * mandatory `Gain`/`Buy`/`PlayTarget` take the most expensive legal card;
    /// * mandatory `Trash`/`Discard`/`Topdeck` give up the cheapest legal card,
    ///   preferring Curse, then Victory cards, then the rest.
    ///
    /// Ties are broken by card id (table order), so defaults are deterministic.
    pub fn default_answer(&self, g: &Game) -> Option<Card> {
        if self.optional {
            return match self.why {
                Why::PlayTreasure => best_by(self.legal, |c| c.info().value as i32),
                Why::React | Why::TrashTrigger => self.legal.first(),
                // Death Cart: trash a Ruins or Necropolis from hand rather
                // than the Death Cart itself.
                Why::Trash if self.by == Some(Card::DeathCart) => self
                    .legal
                    .and(CardSet::RUINS.or(CardSet::one(Card::Necropolis)))
                    .first(),
                _ => None,
            };
        }
        match self.why {
            Why::Gain | Why::Buy | Why::PlayTarget | Why::PlayAction | Why::Copy => {
                best_by(self.legal, |c| g.cost(c) as i32)
            }
            Why::TrashTrigger => self.legal.first(),
            Why::Name => {
                let want = if self.by == Some(Card::Rebuild) {
                    Card::Province
                } else {
                    Card::Copper
                };
                if self.legal.contains(want) {
                    Some(want)
                } else {
                    self.legal.first()
                }
            }
            Why::PlayTreasure => best_by(self.legal, |c| c.info().value as i32),
            Why::React => self.legal.first(),
            Why::Trash | Why::Discard | Why::Topdeck => best_by(self.legal, |c| {
                let junk = if c == Card::Curse {
                    2
                } else if c.is_victory() && !c.is_action() && !c.is_treasure() {
                    1
                } else {
                    0
                };
                junk * 100 - g.cost(c) as i32
            }),
        }
    }
}

/// The legal card maximizing `key`; ties go to the lowest id.
pub fn best_by(s: CardSet, key: impl Fn(Card) -> i32) -> Option<Card> {
    let mut best: Option<(i32, Card)> = None;
    for c in s.iter() {
        let k = key(c);
        if best.is_none_or(|(bk, _)| k > bk) {
            best = Some((k, c));
        }
    }
    best.map(|(_, c)| c)
}

/// A may-instruction. The meaning of "yes" depends on `by`:
/// * Chancellor: put your deck into your discard pile (default: yes);
/// * Library: set aside the drawn Action `card` (default: yes if the player
///   has no actions left, else no);
/// * Spy: discard `card`, revealed from the top of `target`'s deck (default:
///   yes for another player's card unless it is Curse/Victory-only; for your
///   own, yes if it is a Curse or Victory-only card).
/// * Dark Ages: Catacombs (yes = the 3 cards into hand; default yes),
///   Cultist (play a Cultist from hand; yes), Hovel (trash it on buying a
///   Victory card; yes), Scavenger (deck into the discard pile; yes),
///   Survivors (discard both; yes), Urchin (trash it for a Mercenary; no),
///   Ironmonger (discard the revealed `card`; yes for Curse, Ruins and
///   Victory-only cards), Hermit (trash `card` from hand rather than from the
///   discard pile when both hold one; no).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct YesNo {
    pub player: u8,
    pub by: Card,
    pub card: Option<Card>,
    pub target: u8,
}

impl YesNo {
    pub fn default_answer(&self, g: &Game) -> bool {
        match self.by {
            Card::Chancellor => true,
            Card::Library => g.turn.actions == 0,
            // Dark Ages (yes = the "may" is done):
            // Catacombs: yes = put the 3 cards into hand (default yes);
            // Cultist: play a Cultist from hand (yes); Hovel: trash it (yes);
            // Scavenger: put the deck into the discard pile (yes);
            // Survivors: discard both cards (yes); Urchin: trash it for a
            // Mercenary (no); Ironmonger: discard the revealed `card` (yes for
            // Curse, Ruins and Victory-only cards); Hermit: trash `card` from
            // hand rather than the discard pile (no).
            Card::Catacombs | Card::Cultist | Card::Hovel | Card::Scavenger | Card::Survivors => {
                true
            }
            Card::Ironmonger => self.card.is_some_and(|c| {
                c == Card::Curse
                    || c.is(crate::cards::Types::RUINS)
                    || (c.is_victory() && !c.is_action() && !c.is_treasure())
            }),
            Card::Spy => {
                let junk = self.card.is_some_and(|c| {
                    c == Card::Curse || (c.is_victory() && !c.is_action() && !c.is_treasure())
                });
                if self.target == self.player {
                    junk
                } else {
                    !junk
                }
            }
            _ => false,
        }
    }
}

/// Choose one option of `n` (0-based). Default: option 0.
///
/// Dark Ages uses (options in order; option 0 is the default):
/// * Count, first choice: 0 discard 2 cards, 1 put a card from hand onto your
///   deck, 2 gain a Copper; second choice: 0 +$3, 1 trash your hand, 2 gain a
///   Duchy;
/// * Squire: 0 +2 Actions, 1 +2 Buys, 2 gain a Silver;
/// * Graverobber: 0 gain a $3–$6 card from the trash onto your deck, 1 trash
///   an Action from hand and gain a card costing up to $3 more;
/// * Hunting Grounds (when trashed): 0 gain a Duchy, 1 gain 3 Estates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choose {
    pub player: u8,
    pub by: Card,
    pub n: u8,
}

/// Something that happened, for logs (`domsim log`) and statistics. Bots that
/// do not care keep the default no-op `event`, which compiles to nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    TurnStart { player: u8, turn: u16 },
    Play { player: u8, card: Card },
    Buy { player: u8, card: Card },
    Gain { player: u8, card: Card },
    Trash { player: u8, card: Card },
    Discard { player: u8, card: Card },
    Reveal { player: u8, card: Card },
    Topdeck { player: u8, card: Card },
    React { player: u8, card: Card },
    Shuffle { player: u8 },
    Draw { player: u8, card: Card },
}

/// The players of one game, as seen by the engine. One implementation answers
/// for every seat (a table of strategies, a script, a random policy).
pub trait Bots {
    fn pick(&mut self, g: &Game, q: &Pick) -> Option<Card>;
    fn yes_no(&mut self, g: &Game, q: &YesNo) -> bool;
    /// Batched Treasure play: return true to play **every** Treasure in hand
    /// now, instead of being asked `PlayTreasure` one card at a time. Asked at
    /// the start of the Buy phase only when no Treasure in hand has a play
    /// effect (so order cannot matter). Default: false (ask card by card).
    #[inline(always)]
    fn play_all_treasures(&mut self, g: &Game, player: u8) -> bool {
        let _ = (g, player);
        false
    }
    fn choose(&mut self, g: &Game, q: &Choose) -> u8 {
        let _ = (g, q);
        0
    }
    #[inline(always)]
    fn event(&mut self, g: &Game, e: Event) {
        let _ = (g, e);
    }
}

/// A fault: an illegal answer from a bot (a bug in the bot, or a bad script).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault {
    pub pick: Pick,
    pub answer: Option<Card>,
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let by = self
            .pick
            .by
            .map(|c| format!(" for {c}"))
            .unwrap_or_default();
        let ans = self
            .answer
            .map(|c| c.name().to_string())
            .unwrap_or_else(|| "none".into());
        write!(
            f,
            "player {} answered '{}' to \"{}\"{}; legal answers: {:?}{}",
            self.pick.player,
            ans,
            self.pick.why.name(),
            by,
            self.pick.legal,
            if self.pick.optional { " or none" } else { "" }
        )
    }
}
