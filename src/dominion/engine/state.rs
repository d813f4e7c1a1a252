//! Game state: plain data, fixed capacity, no heap.

use super::decision::Fault;
use super::kingdom::{Kingdom, MAX_PLAYERS};
use super::rng::GameRng;
use super::zone::{CardVec, CHUNK, MAX_CARDS};
use crate::cards::{Card, CardSet};

/// A player's zones. Deck and discard keep their top as the **last** element.
#[derive(Clone)]
pub struct Player {
    pub deck: CardVec,
    pub hand: CardVec,
    pub discard: CardVec,
    /// Play area, in play order.
    pub play: CardVec,
    /// Instance ids parallel to `play`: the "lose track" mechanism (RULES §12)
    /// finds a played card by id, so an instruction about "this" card only moves
    /// it if it is still where it was put.
    pub play_uid: [u16; MAX_CARDS + CHUNK],
    /// Cards revealed, looked at or set aside by the effect resolving now. They
    /// are not in the discard pile, so they never join a shuffle (RULES §6).
    pub aside: CardVec,
    /// Cached: how many of each card this player owns, over every zone.
    pub owned: [u8; Card::COUNT],
    /// Cached: total cards owned.
    pub owned_total: u16,
    /// Cached: total money owned — the sum over owned cards of
    /// [`Card::money`] (a Treasure's value plus an Action's printed +$), the
    /// strategy variable `total_money`. Kept by [`Player::add_owned`] and
    /// [`Player::remove_owned`], checked by the invariants.
    pub money: u16,
    /// Cached: the fixed VP of the owned cards (the table's `vp`: Victory
    /// cards, Curses); the variable-VP cards (Gardens, Duke, Feodum) are
    /// scored on demand by `Game::vp`.
    pub vp_fixed: i16,
    /// Cached: how many Action cards this player owns (none: the Action
    /// phase has nothing to ask).
    pub actions_owned: u16,
}

impl Player {
    pub fn new() -> Self {
        Player {
            deck: CardVec::new(),
            hand: CardVec::new(),
            discard: CardVec::new(),
            play: CardVec::new(),
            play_uid: [0; MAX_CARDS + CHUNK],
            aside: CardVec::new(),
            owned: [0; Card::COUNT],
            owned_total: 0,
            money: 0,
            vp_fixed: 0,
            actions_owned: 0,
        }
    }
    pub fn clear(&mut self) {
        self.deck.clear();
        self.hand.clear();
        self.discard.clear();
        self.play.clear();
        self.aside.clear();
        self.owned = [0; Card::COUNT];
        self.owned_total = 0;
        self.money = 0;
        self.vp_fixed = 0;
        self.actions_owned = 0;
    }
    /// `c` now belongs to this player (it has been put in one of his zones).
    #[inline]
    pub fn add_owned(&mut self, c: Card) {
        self.add_owned_n(c, 1);
    }
    /// `n` copies of `c` now belong to this player (the starting deck).
    #[inline]
    pub fn add_owned_n(&mut self, c: Card, n: u8) {
        self.owned[c as usize] += n;
        self.owned_total += n as u16;
        self.money += n as u16 * c.money() as u16;
        self.vp_fixed += n as i16 * c.info().vp as i16;
        self.actions_owned += n as u16 * c.is_action() as u16;
    }
    /// `c` no longer belongs to this player (trashed, passed, returned).
    #[inline]
    pub fn remove_owned(&mut self, c: Card) {
        self.owned[c as usize] -= 1;
        self.owned_total -= 1;
        self.money -= c.money() as u16;
        self.vp_fixed -= c.info().vp as i16;
        self.actions_owned -= c.is_action() as u16;
    }
    /// Recompute the cached owned counts from the zones.
    pub fn recount(&mut self) {
        self.owned = [0; Card::COUNT];
        for z in [
            &self.deck,
            &self.hand,
            &self.discard,
            &self.play,
            &self.aside,
        ] {
            for c in z.iter() {
                self.owned[c as usize] += 1;
            }
        }
        self.owned_total = self.owned.iter().map(|&n| n as u16).sum();
        self.money = self.expected_money();
        (self.vp_fixed, self.actions_owned) = self.expected_vp_fixed_and_actions();
    }
    /// The fixed-VP and Action-count caches implied by the owned counts.
    pub fn expected_vp_fixed_and_actions(&self) -> (i16, u16) {
        let mut vp = 0i16;
        let mut actions = 0u16;
        // A player owns a handful of the table's kinds: skip the zeros
        // before looking a card's facts up (a data card's go through its
        // binding), which is most of the cost of the invariant checks.
        for (&n, c) in self.owned.iter().zip(Card::ALL.iter()) {
            if n == 0 {
                continue;
            }
            vp += n as i16 * c.info().vp as i16;
            actions += if c.is_action() { n as u16 } else { 0 };
        }
        (vp, actions)
    }
    /// The money total implied by the owned counts (recount, invariants).
    pub fn expected_money(&self) -> u16 {
        self.owned
            .iter()
            .zip(Card::ALL.iter())
            .filter(|(&n, _)| n != 0)
            .map(|(&n, c)| n as u16 * c.money() as u16)
            .sum()
    }
    #[inline]
    pub fn owns(&self, c: Card) -> u8 {
        self.owned[c as usize]
    }
}

impl Default for Player {
    fn default() -> Self {
        Player::new()
    }
}

/// Phase of the active player's turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Action,
    /// Buy phase; Treasures may still be played until the first purchase.
    Buy,
    /// At least one card bought: no more Treasures this turn (RULES §4.2).
    Bought,
}

/// Turn-scoped counters, reset at the start of each turn (RULES §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnState {
    pub phase: Phase,
    pub actions: u16,
    pub buys: u16,
    pub coins: u16,
    /// Play events of Action cards this turn (Conspirator).
    pub action_plays: u16,
    /// "This turn" cost reduction (Bridge).
    pub cost_reduction: u8,
    /// "This turn" extra value of each Copper (Coppersmith).
    pub copper_bonus: u8,
}

impl TurnState {
    pub const START: TurnState = TurnState {
        phase: Phase::Action,
        actions: 1,
        buys: 1,
        coins: 0,
        action_plays: 0,
        cost_reduction: 0,
        copper_bonus: 0,
    };
}

/// The whole state of one game. Plain data; `Clone` is a memcpy.
#[derive(Clone)]
pub struct Game {
    pub kingdom: Kingdom,
    pub players: [Player; MAX_PLAYERS],
    /// Cards left in each Supply pile, indexed by card id.
    pub supply: [u8; Card::COUNT],
    pub trash: CardVec,
    /// Cached: Supply piles that are empty.
    pub empty_piles: u8,
    /// Cached: Supply piles that are not empty.
    pub nonempty: CardSet,
    /// Seat whose turn it is.
    pub active: u8,
    pub turn: TurnState,
    /// Cards each seat gained this turn (only with `kingdom.track_turn`).
    pub turn_gained: [u8; 8],
    /// Cards bought this turn (only with `kingdom.track_turn`).
    pub turn_bought: u8,
    /// Turns taken by each seat (the current turn included once started).
    pub turns_taken: [u16; MAX_PLAYERS],
    pub rng: GameRng,
    pub over: bool,
    /// The game was stopped by the turn cap.
    pub capped: bool,
    /// Turns whose Action phase was stopped by [`super::MAX_ACTION_PLAYS_PER_TURN`]
    /// (a runaway bot/engine loop; 0 in any sane game).
    pub action_capped: u32,
    /// The first illegal answer given by a bot, if any.
    pub fault: Option<Fault>,
    /// Next play-instance id.
    pub(crate) next_uid: u16,
    /// How many cards of each kind exist in this game (setup conservation).
    pub total: [u16; Card::COUNT],
    /// The Knights pile in order (top = last); `supply[Knights]` = its length.
    pub knights: DistinctPile,
    /// The Ruins pile in order (top = last); `supply[Ruins]` = its length.
    pub ruins: DistinctPile,
    /// Instances played this turn as another card (Band of Misfits) and the
    /// card each one is (by play-instance id); cleared at Cleanup. Holds
    /// [`MAX_IDENTITIES`] instances: one more would be played as if new.
    pub identity: [(u16, Card); MAX_IDENTITIES],
    pub identity_len: u8,
    /// Cards trashed whose on-trash abilities have not resolved yet (RULES §9).
    pub(crate) pend: [Pend; MAX_CARDS],
    pub(crate) pend_len: u16,
    /// Owners (bit mask) who had a card trashed in the pending batch (Market Square).
    pub(crate) pend_ms: u8,
    /// Depth of "trash several cards at once" batches being built.
    pub(crate) trash_batch: u8,
    /// Whether this game's starting decks used Shelters.
    pub shelters: bool,
    /// Which game this is: the run's seed and the game's index as given to
    /// [`Game::new`] or [`Game::reset`] (0 and 0 for [`Game::empty`]). A
    /// label, not a part of the play: the search bot (`crate::search`)
    /// seeds its own generator from it, so its decisions in game `index`
    /// are the same in `sim`, `log` and the workbench, whatever the thread
    /// count. No bot may derive the deal from it (bots see the game through
    /// their own rules of information).
    pub seed: u64,
    pub index: u64,
}

/// Band of Misfits play instances whose copy a turn remembers (`Game::identity`):
/// every play of one instance (Throne Room, Procession) reuses the choice of its
/// first play, and Cleanup, the Urchin window and a trash from play see the copy.
/// A turn can hold more instances than there are Band of Misfits cards (one that
/// Procession trashes as a Fortress returns to hand and is played anew); 128 is
/// far beyond any real turn. Past it, an instance would be asked on each play.
pub const MAX_IDENTITIES: usize = 128;

/// A trashed card waiting for its owner's on-trash ability: `card` is the
/// physical card now in the trash, `as_card` what it was when trashed (a
/// Band of Misfits trashed from play while copying Fortress is a Fortress).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pend {
    pub owner: u8,
    pub card: Card,
    pub as_card: Card,
}

impl Pend {
    pub const NONE: Pend = Pend {
        owner: 0,
        card: Card::Copper,
        as_card: Card::Copper,
    };
}

/// An ordered pile of distinct cards (Knights, Ruins): fixed capacity, top last.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DistinctPile {
    pub len: u8,
    pub cards: [Card; 50],
}

impl DistinctPile {
    pub const EMPTY: DistinctPile = DistinctPile {
        len: 0,
        cards: [Card::Copper; 50],
    };
    #[inline]
    pub fn top(&self) -> Option<Card> {
        if self.len == 0 {
            None
        } else {
            Some(self.cards[self.len as usize - 1])
        }
    }
    #[inline]
    pub fn pop(&mut self) -> Option<Card> {
        let c = self.top()?;
        self.len -= 1;
        Some(c)
    }
    pub fn push(&mut self, c: Card) {
        self.cards[self.len as usize] = c;
        self.len += 1;
    }
    pub fn as_slice(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }
}

/// Result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub players: u8,
    pub vp: [i32; MAX_PLAYERS],
    pub turns: [u16; MAX_PLAYERS],
    /// Bit `i` set if seat `i` won or shared the win.
    pub winners: u8,
    pub capped: bool,
}

impl Outcome {
    #[inline]
    pub fn won(&self, seat: usize) -> bool {
        self.winners >> seat & 1 != 0
    }
    /// Number of players sharing the win.
    #[inline]
    pub fn winner_count(&self) -> u32 {
        self.winners.count_ones()
    }
}
