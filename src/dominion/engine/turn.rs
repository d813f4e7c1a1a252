//! Turn structure (RULES §4) and the play mechanisms every card goes through:
//! one play event ([`Game::resolve`]), the reaction window of an Attack, and
//! multiplied plays (Throne Room).
//!
//! Two ways in: [`Game::play_turn`] / [`Game::play_game`] let the bots drive
//! everything; the `try_*` step functions let a scenario (or a test) perform
//! one move at a time and get a [`RuleError`] for an illegal move.

use super::decision::{Bots, Event, Why};
use super::state::{Game, Outcome, Phase, TurnState};
use super::{Dest, PlayCtx};
use crate::cards::{Card, CardSet, Hooks};

/// A move that the rules forbid right now.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("the game is over")]
    GameOver,
    #[error("{0} is not in hand")]
    NotInHand(Card),
    #[error("{0} is not an Action card")]
    NotAction(Card),
    #[error("{0} is not a Treasure card")]
    NotTreasure(Card),
    #[error("no actions left")]
    NoActions,
    #[error("Actions can only be played in the Action phase")]
    NotActionPhase,
    #[error("Treasures cannot be played after buying a card (RULES §4.2)")]
    TreasureAfterBuy,
    #[error("no buys left")]
    NoBuys,
    #[error("{0} is not in the Supply")]
    NotInSupply(Card),
    #[error("the {0} pile is empty")]
    EmptyPile(Card),
    #[error("{0} is not the top card of its pile")]
    NotOnTop(Card),
    #[error("{card} costs ${cost} but only ${coins} are available")]
    TooExpensive { card: Card, cost: u8, coins: u16 },
}

impl Game {
    // ---------------------------------------------------------------------
    // Whole turns and games, driven by the bots

    /// Play the game to its end.
    pub fn play_game<B: Bots>(&mut self, b: &mut B) -> Outcome {
        while !self.over {
            self.play_turn(b);
        }
        self.outcome()
    }

    /// One full turn of the active player.
    pub fn play_turn<B: Bots>(&mut self, b: &mut B) {
        self.start_turn(b);
        self.action_phase(b);
        self.treasure_step(b);
        self.buy_step(b);
        self.cleanup(b);
    }

    pub fn start_turn<B: Bots>(&mut self, b: &mut B) {
        self.turn = TurnState::START;
        if self.kingdom.track_turn {
            self.turn_gained = [0; 8];
            self.turn_bought = 0;
        }
        self.identity_len = 0;
        let a = self.active;
        self.turns_taken[a as usize] += 1;
        b.event(
            self,
            Event::TurnStart {
                player: a,
                turn: self.turns_taken[a as usize],
            },
        );
    }

    /// Let the active player play Actions until he stops or cannot.
    pub fn action_phase<B: Bots>(&mut self, b: &mut B) {
        let p = self.active;
        // No Action card owned: none in hand, nothing to ask (money decks).
        if self.players[p as usize].actions_owned == 0 {
            self.turn.phase = Phase::Buy;
            return;
        }
        while self.turn.actions > 0 {
            if self.turn.action_plays >= super::MAX_ACTION_PLAYS_PER_TURN {
                // A per-turn guard against a runaway loop (no card set can
                // legitimately get here): stop the phase and record it.
                self.action_capped += 1;
                break;
            }
            let legal = self.hand_kinds(p, CardSet::actions());
            if legal.is_empty() {
                break;
            }
            match self.ask_turn(b, p, Why::PlayAction, legal) {
                Some(c) => {
                    self.turn.actions -= 1;
                    self.play_from_hand(b, p, c);
                }
                None => break,
            }
        }
        self.turn.phase = Phase::Buy;
    }

    /// Let the active player play Treasures until he stops.
    pub fn treasure_step<B: Bots>(&mut self, b: &mut B) {
        let p = self.active;
        self.turn.phase = Phase::Buy;
        // Kingdoms without Counterfeit/Spoils skip the hand scan entirely.
        let effects = self.kingdom.in_game.and(CardSet::treasures_with_effect());
        if (effects.is_empty() || self.hand_kinds(p, effects).is_empty())
            && b.play_all_treasures(self, p)
        {
            self.play_all_treasures(b, p);
            return;
        }
        loop {
            let legal = self.hand_kinds(p, CardSet::treasures());
            if legal.is_empty() {
                break;
            }
            match self.ask_turn(b, p, Why::PlayTreasure, legal) {
                Some(c) => self.play_treasure_unchecked(b, p, c),
                None => break,
            }
        }
    }

    /// The Supply cards the active player could buy now.
    pub fn buyable(&self) -> CardSet {
        if self.turn.buys == 0 {
            return CardSet::EMPTY;
        }
        self.gainable_up_to(CardSet::all(), self.turn.coins)
    }

    /// Let the active player buy until he stops or runs out of buys.
    pub fn buy_step<B: Bots>(&mut self, b: &mut B) {
        let p = self.active;
        while self.turn.buys > 0 {
            let legal = self.buyable();
            if legal.is_empty() {
                break;
            }
            match self.ask_turn(b, p, Why::Buy, legal) {
                Some(c) => self.buy_unchecked(b, p, c),
                None => break,
            }
        }
    }

    /// Cleanup (RULES §4.3): discard play area (in play order) and hand, draw
    /// 5, end "this turn" effects, check the end of the game, pass the turn.
    pub fn cleanup<B: Bots>(&mut self, b: &mut B) {
        let a = self.active;
        if self.kingdom.hooks.has(Hooks::DISCARD_FROM_PLAY) {
            self.cleanup_play_with_triggers(b, a);
        }
        self.identity_len = 0;
        let pl = &mut self.players[a as usize];
        let (play, hand, discard) = (&mut pl.play, &mut pl.hand, &mut pl.discard);
        discard.append(play);
        play.clear();
        discard.append(hand);
        hand.clear();
        self.draw(b, a, 5);
        self.turn = TurnState::START;
        if self.end_condition() {
            self.over = true;
        } else if self.turns_taken[a as usize] >= self.kingdom.turn_cap {
            self.over = true;
            self.capped = true;
        }
        self.active = if a + 1 == self.kingdom.players {
            0
        } else {
            a + 1
        };
    }

    // ---------------------------------------------------------------------
    // Step API (scenarios, tests): validated moves

    /// Play an Action from the active player's hand, spending an action.
    pub fn try_play_action<B: Bots>(&mut self, b: &mut B, c: Card) -> Result<(), RuleError> {
        let p = self.active;
        if self.over {
            return Err(RuleError::GameOver);
        }
        if self.turn.phase != Phase::Action {
            return Err(RuleError::NotActionPhase);
        }
        if !c.is_action() {
            return Err(RuleError::NotAction(c));
        }
        if !self.players[p as usize].hand.contains(c) {
            return Err(RuleError::NotInHand(c));
        }
        if self.turn.actions == 0 {
            return Err(RuleError::NoActions);
        }
        self.turn.actions -= 1;
        self.play_from_hand(b, p, c);
        Ok(())
    }

    /// Play a Treasure from the active player's hand (ends the Action phase).
    pub fn try_play_treasure<B: Bots>(&mut self, b: &mut B, c: Card) -> Result<(), RuleError> {
        let p = self.active;
        if self.over {
            return Err(RuleError::GameOver);
        }
        if self.turn.phase == Phase::Bought {
            return Err(RuleError::TreasureAfterBuy);
        }
        if !c.is_treasure() {
            return Err(RuleError::NotTreasure(c));
        }
        if !self.players[p as usize].hand.contains(c) {
            return Err(RuleError::NotInHand(c));
        }
        self.turn.phase = Phase::Buy;
        self.play_treasure_unchecked(b, p, c);
        Ok(())
    }

    /// Buy a card for the active player.
    pub fn try_buy<B: Bots>(&mut self, b: &mut B, c: Card) -> Result<(), RuleError> {
        let p = self.active;
        if self.over {
            return Err(RuleError::GameOver);
        }
        if self.turn.buys == 0 {
            return Err(RuleError::NoBuys);
        }
        let pile = super::piles::pile_of(c);
        if !self.kingdom.supply.contains(pile) || CardSet::PILES.contains(c) {
            return Err(RuleError::NotInSupply(c));
        }
        if self.supply[pile as usize] == 0 {
            return Err(RuleError::EmptyPile(pile));
        }
        if pile != c && self.top_of(pile) != Some(c) {
            return Err(RuleError::NotOnTop(c));
        }
        let cost = self.cost(c);
        if cost as u16 > self.turn.coins {
            return Err(RuleError::TooExpensive {
                card: c,
                cost,
                coins: self.turn.coins,
            });
        }
        self.buy_unchecked(b, p, c);
        Ok(())
    }

    // ---------------------------------------------------------------------
    // Mechanisms

    /// Play every Treasure in `p`'s hand in one pass (none has a play effect).
    fn play_all_treasures<B: Bots>(&mut self, b: &mut B, p: u8) {
        let first = self.players[p as usize].play.len();
        let pl = &mut self.players[p as usize];
        let mut coins = pl.hand.partition_out(
            &mut pl.play,
            &mut pl.play_uid,
            &mut self.next_uid,
            &crate::cards::PLAY_ALL,
        );
        let bonus = self.turn.copper_bonus as u16;
        if bonus != 0 {
            // Coppersmith: each Copper just played is worth `bonus` more.
            let played = &pl.play.as_slice()[first..];
            let n = played.iter().filter(|&&c| c == Card::Copper).count() as u16;
            coins = coins.saturating_add(bonus.saturating_mul(n));
        }
        self.turn.coins = self.turn.coins.saturating_add(coins);
        for i in first..self.players[p as usize].play.len() {
            let c = self.players[p as usize].play.as_slice()[i];
            b.event(self, Event::Play { player: p, card: c });
        }
    }

    fn play_treasure_unchecked<B: Bots>(&mut self, b: &mut B, p: u8, c: Card) {
        if let Some(uid) = self.hand_to_play(p, c) {
            self.resolve_treasure(b, p, c, uid);
        }
    }

    /// One play event of Treasure `c` (already in play as instance `uid`):
    /// its value, then its "when you play this" text. Counterfeit calls this
    /// twice for the same instance.
    pub fn resolve_treasure<B: Bots>(&mut self, b: &mut B, p: u8, c: Card, uid: u16) {
        b.event(self, Event::Play { player: p, card: c });
        let mut v = c.info().value as u16;
        if c == Card::Copper {
            v += self.turn.copper_bonus as u16;
        }
        self.turn.coins = self.turn.coins.saturating_add(v);
        if c.info().effect {
            let ctx = PlayCtx {
                player: p,
                card: c,
                uid,
                immune: 0,
            };
            crate::cards::play_effect(self, b, ctx);
        }
    }

    pub(crate) fn buy_unchecked<B: Bots>(&mut self, b: &mut B, p: u8, c: Card) {
        self.turn.phase = Phase::Bought;
        self.turn.buys -= 1;
        if self.kingdom.track_turn {
            self.turn_bought = self.turn_bought.saturating_add(1);
        }
        self.turn.coins -= self.cost(c) as u16;
        b.event(self, Event::Buy { player: p, card: c });
        if self.kingdom.hooks.has(Hooks::BUY_REACTION) {
            self.on_buy(b, p, c);
        }
        self.gain_inline(b, p, c, Dest::Discard);
    }

    /// Move an Action from hand into play and resolve it once (no action spent
    /// here: the caller decides whether the play costs one).
    pub fn play_from_hand<B: Bots>(&mut self, b: &mut B, p: u8, c: Card) {
        if let Some(uid) = self.hand_to_play(p, c) {
            self.resolve(b, p, c, uid);
        }
    }

    /// Play a card from hand `times` times in a row (Throne Room: 2). The card
    /// is put into play once; each play is a separate play event with its own
    /// reaction window. A play whose card has left play (trashed by the first
    /// play) still does everything it can (RULES §11, §12).
    /// Returns the instance put into play (None if `c` was not in hand).
    pub fn play_multiplied<B: Bots>(
        &mut self,
        b: &mut B,
        p: u8,
        c: Card,
        times: u8,
    ) -> Option<u16> {
        let uid = self.hand_to_play(p, c)?;
        for _ in 0..times {
            self.resolve(b, p, c, uid);
        }
        Some(uid)
    }

    /// One play event of `c` (already in play as instance `uid`): count it,
    /// open the reaction window for an Attack, apply vanilla bonuses, run the
    /// card's effect.
    pub fn resolve<B: Bots>(&mut self, b: &mut B, p: u8, c: Card, uid: u16) {
        // A card played as another (Band of Misfits: the card it copies;
        // RULES §11, CARDS §3).
        let c = if CardSet::PLAYS_AS.contains(c) {
            match self.identity(b, p, c, uid) {
                Some(x) => x,
                None => {
                    self.turn.action_plays = self.turn.action_plays.saturating_add(1);
                    b.event(self, Event::Play { player: p, card: c });
                    return;
                }
            }
        } else {
            c
        };
        let info = c.info();
        if c.is_action() {
            self.turn.action_plays = self.turn.action_plays.saturating_add(1);
        }
        b.event(self, Event::Play { player: p, card: c });
        let immune = if CardSet::attacks().contains(c) {
            if self.kingdom.hooks.has(Hooks::ATTACK_PLAYED) {
                self.attack_played_window(b, p, uid);
            }
            self.reaction_window(b, p)
        } else {
            0
        };
        if info.cards > 0 {
            self.draw(b, p, info.cards);
        }
        self.turn.actions = self.turn.actions.saturating_add(info.actions as u16);
        self.turn.buys = self.turn.buys.saturating_add(info.buys as u16);
        self.turn.coins = self.turn.coins.saturating_add(info.coins as u16);
        if info.effect {
            crate::cards::play_effect(
                self,
                b,
                PlayCtx {
                    player: p,
                    card: c,
                    uid,
                    immune,
                },
            );
        }
    }

    /// The reaction window of one Attack play (RULES §10): each other player,
    /// from the attacker's left, may use Reactions from hand, one after the
    /// other, each physical card at most once; a Reaction obtained meanwhile
    /// may be used too. Returns the mask of players now unaffected.
    pub fn reaction_window<B: Bots>(&mut self, b: &mut B, attacker: u8) -> u8 {
        let mut immune = 0u8;
        if self
            .kingdom
            .in_game
            .and(CardSet::attack_reactions())
            .is_empty()
        {
            return 0;
        }
        let n = self.kingdom.players;
        for i in 1..n {
            let v = (attacker + i) % n;
            // The Reactions v has used against this play, followed as they
            // move (a used copy drawn back is still used).
            let mut used = UsedReactions::default();
            loop {
                let mut legal = CardSet::EMPTY;
                if !used.is_full() {
                    for c in self.hand_kinds(v, CardSet::attack_reactions()).iter() {
                        if self.players[v as usize].hand.count(c) > used.in_hand(c) {
                            legal.insert(c);
                        }
                    }
                }
                let Some(r) = self.pick(b, v, Why::React, None, legal, true) else {
                    break;
                };
                used.mark(r);
                b.event(self, Event::React { player: v, card: r });
                if crate::cards::react_to_attack(self, b, v, r, attacker, &mut used) {
                    immune |= 1 << v;
                }
            }
        }
        immune
    }
}

/// Where a used Reaction card is, in its owner's zones: hand, or an index
/// from the bottom of the deck or of the discard pile (stable while cards
/// are put on top, as they are during a reaction window).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spot {
    Hand,
    Deck(u16),
    Discard(u16),
}

/// The Reaction cards one player has used in one reaction window, each
/// physical card followed as it moves: RULES §10 allows each physical card
/// one use per Attack play, and copies of a card look alike, so a used
/// copy that leaves the hand (Secret Chamber put back on the deck, Beggar
/// discarded) and is drawn again (by Secret Chamber, through a reshuffle
/// too) must be known as the used one. A Reaction put back from a hand
/// holding used and unused copies is taken to be a used one: the copies
/// are identical, and the player keeps the unused one to reveal (RULES
/// §10).
#[derive(Clone, Copy, Debug)]
pub struct UsedReactions {
    n: u8,
    marks: [(Card, Spot); Self::MAX],
}

impl Default for UsedReactions {
    fn default() -> Self {
        UsedReactions {
            n: 0,
            marks: [(Card::Copper, Spot::Hand); Self::MAX],
        }
    }
}

impl UsedReactions {
    /// Most Reactions one player uses against one Attack play (a hand of
    /// 16 Reaction cards used one by one; no game comes near it).
    pub const MAX: usize = 16;

    fn marks(&self) -> &[(Card, Spot)] {
        &self.marks[..self.n as usize]
    }

    pub fn is_full(&self) -> bool {
        self.n as usize == Self::MAX
    }

    /// Used copies of `c` now in hand.
    pub fn in_hand(&self, c: Card) -> usize {
        self.marks()
            .iter()
            .filter(|&&(x, s)| x == c && s == Spot::Hand)
            .count()
    }

    /// A copy of `c` in hand is used now.
    pub fn mark(&mut self, c: Card) {
        if !self.is_full() {
            self.marks[self.n as usize] = (c, Spot::Hand);
            self.n += 1;
        }
    }

    /// A copy of `c` left the hand for `to`: a used copy, if the hand held
    /// one (see the type's doc).
    pub fn left_hand(&mut self, c: Card, to: Spot) {
        let n = self.n as usize;
        if let Some(m) = self.marks[..n]
            .iter_mut()
            .find(|m| m.0 == c && m.1 == Spot::Hand)
        {
            m.1 = to;
        }
    }

    /// The card at index `at` of the deck was drawn into the hand.
    pub fn drawn(&mut self, at: u16) {
        let n = self.n as usize;
        for m in &mut self.marks[..n] {
            if m.1 == Spot::Deck(at) {
                m.1 = Spot::Hand;
            }
        }
    }

    /// Whether a used card lies in the discard pile.
    pub fn in_discard(&self) -> bool {
        self.marks().iter().any(|m| matches!(m.1, Spot::Discard(_)))
    }

    /// The discard pile became the deck: the card at discard index `i` is
    /// now at deck index `to(i)`.
    pub fn reshuffled(&mut self, to: impl Fn(u16) -> u16) {
        let n = self.n as usize;
        for m in &mut self.marks[..n] {
            if let Spot::Discard(i) = m.1 {
                m.1 = Spot::Deck(to(i));
            }
        }
    }
}
