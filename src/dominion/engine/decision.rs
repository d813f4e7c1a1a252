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
    /// Use a Reaction from hand against an Attack (Moat, Secret Chamber). Optional.
    React,
    /// Name a card (Wishing Well, Mystic, Rebuild). `legal` is every card
    /// (RULES §5: any name; pile pseudo-cards excluded for Mystic/Rebuild).
    Name,
    /// Pass a card from hand to the player on the left (Masquerade).
    Pass,
    /// Put revealed cards back on top of the deck, one pick at a time: each
    /// picked card goes on top of the deck now, so the **last** pick ends up
    /// as the top card (Scout). Not asked when only one kind is left.
    Order,
    // ---- Dark Ages
    /// After cards of yours were trashed: which on-trash ability resolves
    /// next, or Market Square (discard it to gain a Gold). Mandatory while
    /// abilities are pending; optional (none = stop) when only Market Square
    /// remains. Default: abilities in id order, then always Market Square.
    TrashTrigger,
    /// Band of Misfits: the Action card it is played as. Default: the most
    /// expensive legal card.
    Copy,
    /// Discard a card for +$1 (Storeroom's second round; its first round,
    /// discarding to draw, is `Discard`). Optional; default none.
    DiscardForCoin,
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
            Why::Name => "name a card",
            Why::Pass => "pass a card to the left",
            Why::Order => "put a revealed card on your deck (last pick on top)",
            Why::TrashTrigger => "resolve an on-trash ability (or Market Square)",
            Why::Copy => "choose the card Band of Misfits plays as",
            Why::DiscardForCoin => "discard a card for +$1",
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
    /// A question of the turn's own steps to `player` (asked by no card:
    /// play an Action, play a Treasure, buy), "none" allowed.
    #[inline(always)]
    pub fn turn(player: u8, why: Why, legal: CardSet) -> Pick {
        Pick {
            player,
            why,
            by: None,
            legal,
            optional: true,
            target: player,
        }
    }

    /// The documented default answer. A card with its own default for a
    /// pick it asks answers first (`default_pick` in its set's file:
    /// Masquerade's, Secret Chamber's, Saboteur's and Courtyard's picks in
    /// `cards/intrigue.rs`, Death Cart's trash and Rebuild's name in
    /// `cards/dark_ages.rs`); every other pick follows the rule of its shape:
    /// * Dark Ages: optional `TrashTrigger` always uses Market Square;
    ///   mandatory `TrashTrigger` resolves abilities in id order; `Copy`
    ///   (Band of Misfits) takes the most expensive legal card; `Name` (Mystic,
    ///   and Rebuild when it may not name Province) uses the Wishing Well rule
    ///   below;
    /// * optional picks answer none, except
    ///   - `PlayTreasure`: play every Treasure, most valuable first;
    ///   - `React`: always reveal (lowest id first: Moat before Secret Chamber);
    /// * mandatory `Gain`/`Buy`/`PlayTarget` take the most expensive legal
    ///   card — except a `Gain` chosen for *another* player (`target !=
    ///   player`: Swindler), which gives the worst card by the junk rule below;
    /// * a mandatory `Trash` or `Discard` of *another* player's card chosen
    ///   by the attacker (`target != player`: Thief, Pillage) takes the most
    ///   expensive (then most valuable) card;
    /// * `Pass` (Masquerade) passes a Curse, else the cheapest card that is not
    ///   a Victory card, else the cheapest Victory card (a VP passed is gained
    ///   by the receiver);
    /// * mandatory `Trash`/`Discard`/`Topdeck`/`Order` give up the
    ///   cheapest legal card, preferring Curse, then Victory-only cards, then
    ///   the rest (the junk rule). For `Order` (Scout) this puts junk deepest
    ///   and the best card on top;
    /// * `Name` (Wishing Well): the most likely top card by known deck
    ///   composition. The kinds in a player's draw pile are exactly what he
    ///   owns minus his hand, play area, set-aside cards and discard pile (all
    ///   known to him), so this is the kind with the most copies in his draw
    ///   pile; with an empty draw pile the next card comes from a shuffle of
    ///   the discard pile, so its most common kind. Copper if both are empty.
    ///
    /// Ties are broken by card id (table order), so defaults are deterministic.
    pub fn default_answer(&self, g: &Game) -> Option<Card> {
        if let Some(by) = self.by {
            if let Some(a) = crate::cards::default_pick(g, self, by) {
                return a;
            }
        }
        if self.optional {
            return match self.why {
                Why::PlayTreasure => best_by(self.legal, |c| c.info().value as i32),
                Why::React | Why::TrashTrigger => self.legal.first(),
                _ => None,
            };
        }
        match self.why {
            Why::Gain if self.target != self.player => best_by(self.legal, |c| junk_key(g, c)),
            // The attacker trashing a victim's card (Thief), or choosing the
            // card a victim discards (Pillage): the most valuable.
            Why::Trash | Why::Discard if self.target != self.player => {
                best_by(self.legal, |c| g.cost(c) as i32 * 8 + c.info().value as i32)
            }
            Why::Gain | Why::Buy | Why::PlayTarget | Why::PlayAction | Why::Copy => {
                best_by(self.legal, |c| g.cost(c) as i32)
            }
            Why::TrashTrigger => self.legal.first(),
            Why::PlayTreasure => best_by(self.legal, |c| c.info().value as i32),
            Why::React => self.legal.first(),
            // Masquerade: every VP passed counts twice (the receiver gains
            // it), so pass a Curse, else the cheapest non-Victory card, else
            // the cheapest Victory card.
            Why::Pass => {
                if self.legal.contains(Card::Curse) {
                    return Some(Card::Curse);
                }
                let plain = self.legal.minus(CardSet::victories());
                let pool = if plain.is_empty() { self.legal } else { plain };
                best_by(pool, |c| -(g.cost(c) as i32))
            }
            Why::Trash | Why::Discard | Why::DiscardForCoin | Why::Topdeck | Why::Order => {
                best_by(self.legal, |c| junk_key(g, c))
            }
            Why::Name => {
                let a = most_likely_top(g, self.player);
                if self.legal.contains(a) {
                    Some(a)
                } else {
                    self.legal.first()
                }
            }
        }
    }
}

/// A Curse or a Victory-only card: what a player is happy to be rid of.
#[inline]
pub fn is_junk(c: Card) -> bool {
    c == Card::Curse || (c.is_victory() && !c.is_action() && !c.is_treasure())
}

/// Every junk card ([`is_junk`]).
pub fn junk_cards() -> CardSet {
    Card::ALL.iter().copied().filter(|&c| is_junk(c)).collect()
}

/// The junk rule's key: Curse first, then Victory-only cards, then cheapest.
pub fn junk_key(g: &Game, c: Card) -> i32 {
    let junk = if c == Card::Curse {
        2
    } else if is_junk(c) {
        1
    } else {
        0
    };
    junk * 100 - g.cost(c) as i32
}

/// Wishing Well's default name (see [`Pick::default_answer`]): the most
/// common kind in `p`'s draw pile, or in his discard pile if the draw pile is
/// empty; Copper if both are empty. No allocation.
pub fn most_likely_top(g: &Game, p: u8) -> Card {
    let pl = g.player(p);
    let zone = if pl.deck.is_empty() {
        &pl.discard
    } else {
        &pl.deck
    };
    let mut counts = [0u16; Card::COUNT];
    for c in zone.iter() {
        counts[c as usize] += 1;
    }
    let mut best = Card::Copper;
    let mut most = 0;
    for (i, &n) in counts.iter().enumerate() {
        if n > most {
            most = n;
            best = Card::ALL[i];
        }
    }
    best
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

/// A may-instruction. The meaning of "yes" and the default answer depend on
/// `by`: see [`questions`] (and docs/QUESTIONS.md, generated from it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct YesNo {
    pub player: u8,
    pub by: Card,
    pub card: Option<Card>,
    pub target: u8,
}

impl YesNo {
    /// The documented default (the card's `default_yes_no` in its set's
    /// file; see [`questions`]).
    pub fn default_answer(&self, g: &Game) -> bool {
        crate::cards::default_yes_no(g, self)
    }
}

/// The kind of a card's question: a may-instruction ([`YesNo`]) or a
/// choice of one option among `n` ([`Choose`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuestionKind {
    YesNo,
    Choose(u8),
}

/// One question a card asks, with what the answers mean and the documented
/// default. [`questions`] is the single reference: [`Choose::labels`] reads
/// its options, docs/QUESTIONS.md is generated from it, and a test plays
/// random games over every card and fails if a card asks a question that is
/// not listed here (or with another number of options).
#[derive(Clone, Copy, Debug)]
pub struct QuestionDoc {
    pub card: Card,
    pub kind: QuestionKind,
    /// What "yes" means, or which choice this is (Count asks two).
    pub meaning: &'static str,
    /// The options of a choice, indexed by the answer.
    pub options: &'static [&'static str],
    /// The default answer (what a strategy without an option for it, or a
    /// scenario without a scripted answer, gets).
    pub default: &'static str,
}

impl QuestionDoc {
    /// A may-instruction of `card`: what "yes" means, and the default.
    pub const fn yes_no(card: Card, meaning: &'static str, default: &'static str) -> QuestionDoc {
        QuestionDoc {
            card,
            kind: QuestionKind::YesNo,
            meaning,
            options: &[],
            default,
        }
    }

    /// A choose-one question of `card`: its options (indexed by the answer)
    /// and the default.
    pub const fn choose(
        card: Card,
        meaning: &'static str,
        options: &'static [&'static str],
        default: &'static str,
    ) -> QuestionDoc {
        QuestionDoc {
            card,
            kind: QuestionKind::Choose(options.len() as u8),
            meaning,
            options,
            default,
        }
    }
}

/// Every yes/no and choose-one question of the implemented cards: the
/// `QUESTIONS` list of each set's file (`cards/base.rs`, `cards/intrigue.rs`,
/// `cards/dark_ages.rs`), in that order.
pub fn questions() -> impl Iterator<Item = &'static QuestionDoc> {
    crate::cards::QUESTIONS.into_iter().flatten()
}

/// The reference of [`questions`] as Markdown (docs/QUESTIONS.md).
pub fn questions_markdown() -> String {
    let mut s = String::from(
        "# Questions cards ask\n\n\
Generated from the `QUESTIONS` lists in `src/dominion/cards/` (base.rs, intrigue.rs,\n\
dark_ages.rs: each beside its cards' handlers; a test fails when this file and the code\n\
differ; `DOMSIM_BLESS=1 cargo test docs` rewrites it). Besides picking\n\
cards (which card to trash, gain, discard…), a card may ask a **yes/no** question (a\n\
\"may\" instruction) or a **choose-one** question. Strategy files answer them with the\n\
card's options (docs/STRATEGIES.md); scenario files with `answers.pN:` lines (`yes`,\n\
`no`, or the option number). The default below is the engine's: what a scenario without\n\
an answer, or a bot with no rule of its own, gets. A strategy file that sets no option\n\
for a question gets the option's own default, which for some cards differs (Minion,\n\
Mining Village, Steward, Pawn, Squire, Count…): see the option tables of\n\
docs/STRATEGIES.md, strategies/INTRIGUE.md and strategies/DARK_AGES.md.\n\n\
| card | question | answers | default |\n|---|---|---|---|\n",
    );
    for q in questions() {
        let answers = match q.kind {
            QuestionKind::YesNo => "yes / no".to_string(),
            QuestionKind::Choose(_) => q
                .options
                .iter()
                .enumerate()
                .map(|(i, o)| format!("{i} = {o}"))
                .collect::<Vec<_>>()
                .join("; "),
        };
        s.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            q.card.name(),
            q.meaning,
            answers.replace('|', "\\|"),
            q.default
        ));
    }
    s
}

/// Choose one option of `n` (0-based). What the options mean, per card, and
/// the documented default ([`Choose::default_answer`]): see [`questions`]
/// (and docs/QUESTIONS.md, generated from it). Pawn's options are the pairs
/// of [`PAWN_PAIRS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choose {
    pub player: u8,
    pub by: Card,
    pub n: u8,
}

/// Pawn's option pairs, indexed by the [`Choose`] answer. Option ids:
/// 0 = +1 Card, 1 = +1 Action, 2 = +1 Buy, 3 = +$1.
pub const PAWN_PAIRS: [(u8, u8); 6] = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];

impl Choose {
    /// Short labels of the options, indexed by answer (empty for a card with
    /// no documented options).
    pub fn labels(&self) -> &'static [&'static str] {
        // From the reference table; Count asks two different questions, so
        // it has no single list.
        let mut found =
            questions().filter(|q| q.card == self.by && matches!(q.kind, QuestionKind::Choose(_)));
        match (found.next(), found.next()) {
            (Some(q), None) => q.options,
            _ => &[],
        }
    }
    /// The documented default (the card's `default_choose` in its set's
    /// file; see [`questions`]), within the options.
    pub fn default_answer(&self, g: &Game) -> u8 {
        crate::cards::default_choose(g, self).min(self.n.saturating_sub(1))
    }
}

/// Something that happened, for logs (`domsim log`) and statistics. Bots that
/// do not care keep the default no-op `event`, which compiles to nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    TurnStart {
        player: u8,
        turn: u16,
    },
    Play {
        player: u8,
        card: Card,
    },
    Buy {
        player: u8,
        card: Card,
    },
    Gain {
        player: u8,
        card: Card,
    },
    Trash {
        player: u8,
        card: Card,
    },
    Discard {
        player: u8,
        card: Card,
    },
    Reveal {
        player: u8,
        card: Card,
    },
    Topdeck {
        player: u8,
        card: Card,
    },
    React {
        player: u8,
        card: Card,
    },
    /// `player` passed `card` from his hand to `to`'s hand (Masquerade):
    /// neither a gain nor a trash nor a discard, but ownership moves.
    Pass {
        player: u8,
        to: u8,
        card: Card,
    },
    Shuffle {
        player: u8,
    },
    Draw {
        player: u8,
        card: Card,
    },
    /// `player` put his whole deck, `cards` cards, into his discard pile as
    /// a block, unseen (Chancellor, data cards' `may_discard_deck`): no card
    /// is discarded, so there is no [`Event::Discard`].
    DeckToDiscard {
        player: u8,
        cards: u16,
    },
    /// `player` returned `card` from play to its pile (Spoils, Madman): he
    /// no longer owns it, but it was not trashed, so there is no
    /// [`Event::Trash`].
    ReturnToPile {
        player: u8,
        card: Card,
    },
    /// `player`'s `card`, just trashed (its [`Event::Trash`] came first),
    /// went from the trash into his hand (Fortress): he owns it again, but
    /// did not gain it, so there is no [`Event::Gain`].
    TrashToHand {
        player: u8,
        card: Card,
    },
}

// Events are copied to every bot on every draw: keep them small.
const _: () = assert!(std::mem::size_of::<Event>() <= 4);

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
    /// A pick of the turn's own steps ([`Pick::turn`]: play an Action,
    /// play a Treasure, buy; `legal` never empty, and for a buy exactly
    /// [`Game::buyable`]). The same question as `pick`, which is what the
    /// default asks; a bot may answer it without going through its routing
    /// of the picks cards ask (one or more is asked every turn, and the
    /// engine asks each with a constant `why`, so an inlined answer
    /// specialises to its step).
    #[inline(always)]
    fn turn_pick(&mut self, g: &Game, q: &Pick) -> Option<Card> {
        self.pick(g, q)
    }
    /// Default: the documented [`Choose::default_answer`].
    fn choose(&mut self, g: &Game, q: &Choose) -> u8 {
        q.default_answer(g)
    }
    #[inline(always)]
    fn event(&mut self, g: &Game, e: Event) {
        let _ = (g, e);
    }
    /// Why this bot answers `q` as it does (`domsim log --explain`); None
    /// for bots that cannot say. Never called while a run plays.
    fn explain(&self, g: &Game, q: &Pick) -> Option<String> {
        let _ = (g, q);
        None
    }
    /// [`Bots::explain`] for a yes/no question; asked before `yes_no`.
    fn explain_yes_no(&self, g: &Game, q: &YesNo) -> Option<String> {
        let _ = (g, q);
        None
    }
    /// [`Bots::explain`] for a "choose one"; asked before `choose` (a bot
    /// may keep state between two questions of one card).
    fn explain_choose(&self, g: &Game, q: &Choose) -> Option<String> {
        let _ = (g, q);
        None
    }
}

/// A fault: an illegal answer from a bot (a bug in the bot, or a bad script).
/// `choice` is set for an illegal [`Choose`] answer (then `pick` is unused
/// and describes nothing: `why` = `Name`, empty `legal`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault {
    pub pick: Pick,
    pub answer: Option<Card>,
    /// An illegal option number and the question it answered.
    pub choice: Option<(Choose, u8)>,
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some((q, a)) = self.choice {
            return write!(
                f,
                "player {} answered option {a} to \"choose one\" for {}; legal options: 0..{}",
                q.player,
                q.by,
                q.n.saturating_sub(1)
            );
        }
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
