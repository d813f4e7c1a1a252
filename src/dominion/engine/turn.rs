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
            match self.pick(b, p, Why::PlayAction, None, legal, true) {
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
            match self.pick(b, p, Why::PlayTreasure, None, legal, true) {
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
            match self.pick(b, p, Why::Buy, None, legal, true) {
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
            &crate::cards::IS_TREASURE,
            &crate::cards::VALUE,
        );
        let bonus = self.turn.copper_bonus as u16;
        if bonus != 0 {
            // Coppersmith: each Copper just played is worth `bonus` more.
            let played = &pl.play.as_slice()[first..];
            coins += bonus * played.iter().filter(|&&c| c == Card::Copper).count() as u16;
        }
        self.turn.coins += coins;
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
        self.turn.coins += v;
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

    fn buy_unchecked<B: Bots>(&mut self, b: &mut B, p: u8, c: Card) {
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
        self.gain(b, p, c, Dest::Discard);
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
                    self.turn.action_plays += 1;
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
        self.turn.actions += info.actions as u16;
        self.turn.buys += info.buys as u16;
        self.turn.coins += info.coins as u16;
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
            // Reactions already used by v in this window: (kind, times).
            let mut used: [(Option<Card>, u8); 4] = [(None, 0); 4];
            loop {
                let mut legal = CardSet::EMPTY;
                for c in self.hand_kinds(v, CardSet::attack_reactions()).iter() {
                    let times = used
                        .iter()
                        .find(|u| u.0 == Some(c))
                        .map_or(0, |u| u.1 as usize);
                    if self.players[v as usize].hand.count(c) > times {
                        legal.insert(c);
                    }
                }
                let Some(r) = self.pick(b, v, Why::React, None, legal, true) else {
                    break;
                };
                let slot = match used.iter().position(|u| u.0 == Some(r)) {
                    Some(i) => i,
                    None => used.iter().position(|u| u.0.is_none()).unwrap_or(0),
                };
                if used[slot].0 != Some(r) {
                    used[slot] = (Some(r), 0);
                }
                used[slot].1 += 1;
                b.event(self, Event::React { player: v, card: r });
                let before = self.players[v as usize].hand.count(r);
                if crate::cards::react_to_attack(self, b, v, r, attacker) {
                    immune |= 1 << v;
                }
                // A Reaction may move copies of itself out of the hand (Secret
                // Chamber putting itself back on the deck). The copies that
                // left are taken to be used ones, so a fresh copy still in
                // hand stays usable (one use per physical card, RULES §10).
                let after = self.players[v as usize].hand.count(r);
                let gone = before.saturating_sub(after).min(used[slot].1 as usize);
                used[slot].1 -= gone as u8;
            }
        }
        immune
    }
}
