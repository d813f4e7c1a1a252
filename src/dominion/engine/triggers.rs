//! Triggered abilities that are not the text of the card being played — one
//! home each (DESIGN "Cards: one table, two kinds of behaviour"):
//!
//! * **on-trash** (RULES §9): every move to the trash goes through
//!   `Game::put_in_trash_as`, which records the card here when the kingdom
//!   can have on-trash cards or Market Square (`Kingdom::watch_trash`, so other
//!   games pay one test). Outside a batch the abilities resolve at once,
//!   interrupting whatever trashed the card. [`Game::begin_trash_batch`] /
//!   [`Game::end_trash_batch`] bracket "trash several cards at once" (Chapel,
//!   Count, Mercenary, Dame Anna): all go to the trash first, then each owner
//!   (in turn order from the active player) orders his triggers with
//!   `Why::TrashTrigger` picks; Market Square reactions are offered in the same
//!   picks (RULES §13: the owner orders simultaneous effects). A single
//!   legal mandatory trigger resolves without asking.
//! * **on-gain** (Death Cart): from `Game::receive`, so every gain (Supply,
//!   trash, bought or not) fires it.
//! * **on-buy** (Hovel), **discard-from-play** (Hermit at Cleanup), **when you
//!   play an Attack** (Urchin): called from the turn structure.
//! * **Band of Misfits identity**: the card a played Band of Misfits is, per
//!   play instance, kept until Cleanup.

use super::decision::{Bots, Pick, Why};
use super::state::{Game, Pend};
use super::Dest;
use crate::cards::{Card, CardSet};

impl Game {
    /// Start a "trash several cards at once" group (nestable).
    #[inline]
    pub fn begin_trash_batch(&mut self) {
        self.trash_batch += 1;
    }

    /// End the group: resolve the on-trash abilities of its cards.
    #[inline]
    pub fn end_trash_batch<B: Bots>(&mut self, b: &mut B) {
        self.trash_batch -= 1;
        if self.trash_batch == 0 {
            self.resolve_trash_triggers(b);
        }
    }

    pub(crate) fn note_trashed<B: Bots>(&mut self, b: &mut B, p: u8, c: Card, as_card: Card) {
        if CardSet::on_trash().contains(as_card) {
            let i = self.pend_len as usize;
            if i < self.pend.len() {
                self.pend[i] = Pend {
                    owner: p,
                    card: c,
                    as_card,
                };
                self.pend_len += 1;
            }
        }
        if self.kingdom.in_game.contains(Card::MarketSquare) {
            self.pend_ms |= 1 << p;
        }
        if self.trash_batch == 0 {
            self.resolve_trash_triggers(b);
        }
    }

    #[cold]
    #[inline(never)]
    fn resolve_trash_triggers<B: Bots>(&mut self, b: &mut B) {
        while self.pend_len > 0 || self.pend_ms != 0 {
            // Take the batch; triggers that trash again start a new one.
            let n = self.pend_len as usize;
            let mut local = [Pend::NONE; 32];
            let mut owners = self.pend_ms;
            let mut rest = 0;
            // Large batches (more than 32 triggers) are resolved 32 at a time.
            let take = n.min(32);
            local[..take].copy_from_slice(&self.pend[..take]);
            if n > take {
                self.pend.copy_within(take..n, 0);
                rest = n - take;
            }
            self.pend_len = rest as u16;
            self.pend_ms = 0;
            for e in &local[..take] {
                owners |= 1 << e.owner;
            }
            let np = self.kingdom.players;
            for i in 0..np {
                let o = (self.active + i) % np;
                if owners >> o & 1 != 0 {
                    self.owner_triggers(b, o, &mut local[..take]);
                }
            }
        }
    }

    /// One owner resolves his pending triggers in the order he picks; Market
    /// Square (optional, any number) may be used between them.
    fn owner_triggers<B: Bots>(&mut self, b: &mut B, o: u8, list: &mut [Pend]) {
        let mut done = [false; 32];
        loop {
            let mut legal = CardSet::EMPTY;
            for (i, e) in list.iter().enumerate() {
                if e.owner == o && !done[i] {
                    legal.insert(e.as_card);
                }
            }
            let ms = self.players[o as usize].hand.contains(Card::MarketSquare);
            let choice = if !ms && legal.len() == 1 {
                legal.first()
            } else {
                let mut l = legal;
                if ms {
                    l.insert(Card::MarketSquare);
                }
                self.ask(
                    b,
                    Pick {
                        player: o,
                        why: Why::TrashTrigger,
                        by: None,
                        legal: l,
                        optional: legal.is_empty(),
                        target: o,
                    },
                )
            };
            let Some(c) = choice else { break };
            if c == Card::MarketSquare && !legal.contains(c) {
                if self.discard_from_hand(b, o, Card::MarketSquare) {
                    self.gain(b, o, Card::Gold, Dest::Discard);
                }
                continue;
            }
            let Some(i) =
                (0..list.len()).find(|&i| list[i].owner == o && !done[i] && list[i].as_card == c)
            else {
                break;
            };
            done[i] = true;
            crate::cards::dark_ages::on_trash(self, b, o, list[i].card, c);
        }
    }

    /// Move `c` from the trash to its owner's hand (Fortress). It still was
    /// trashed. False if it is no longer in the trash.
    pub fn trash_to_hand(&mut self, p: u8, c: Card) -> bool {
        if !self.trash.remove_one(c) {
            return false;
        }
        let pl = &mut self.players[p as usize];
        pl.hand.push(c);
        pl.add_owned(c);
        true
    }

    /// "When you gain this" (Death Cart: also gain the top 2 Ruins).
    #[cold]
    #[inline(never)]
    pub(crate) fn on_gain<B: Bots>(&mut self, b: &mut B, p: u8, c: Card) {
        crate::cards::on_gain(self, b, p, c);
    }

    /// "When you buy a Victory card" (Hovel: you may trash it from hand).
    #[cold]
    #[inline(never)]
    pub(crate) fn on_buy<B: Bots>(&mut self, b: &mut B, p: u8, c: Card) {
        crate::cards::on_buy(self, b, p, c);
    }

    /// The card a played instance is: a Band of Misfits' chosen card, if any.
    #[inline]
    pub fn bom_identity(&self, uid: u16) -> Option<Card> {
        if self.bom_len == 0 {
            return None;
        }
        self.bom[..self.bom_len as usize]
            .iter()
            .find(|e| e.0 == uid)
            .map(|e| e.1)
    }

    /// What the card of play instance `uid` is now (Band of Misfits → its copy).
    #[inline]
    pub fn played_as(&self, uid: u16, c: Card) -> Card {
        self.bom_identity(uid).unwrap_or(c)
    }

    /// Band of Misfits being played as instance `uid`: the card it is. The
    /// first play chooses (an Action in the Supply — a visible top card —
    /// costing less than Band of Misfits now); later plays reuse the choice,
    /// even after it left play. None: nothing eligible (it does nothing).
    #[cold]
    #[inline(never)]
    pub(crate) fn bom_choose<B: Bots>(&mut self, b: &mut B, p: u8, uid: u16) -> Option<Card> {
        if let Some(c) = self.bom_identity(uid) {
            return Some(c);
        }
        let cost = self.cost(Card::BandOfMisfits);
        if cost == 0 {
            return None;
        }
        let legal = self
            .gainable_up_to(CardSet::actions(), cost as u16 - 1)
            .minus(CardSet::one(Card::BandOfMisfits));
        let c = self.pick(b, p, Why::Copy, Some(Card::BandOfMisfits), legal, false)?;
        if (self.bom_len as usize) < self.bom.len() {
            self.bom[self.bom_len as usize] = (uid, c);
            self.bom_len += 1;
        }
        Some(c)
    }

    /// Urchin: the attacker's own Urchins in play (other than the instance
    /// `uid` being played) may each be trashed for a Mercenary, before the
    /// Attack resolves (RULES §10 step 1).
    #[cold]
    #[inline(never)]
    pub(crate) fn urchin_window<B: Bots>(&mut self, b: &mut B, p: u8, uid: u16) {
        let mut i = 0;
        while i < self.players[p as usize].play.len() {
            let pl = &self.players[p as usize];
            let (c, u) = (pl.play.as_slice()[i], pl.play_uid[i]);
            if u != uid
                && self.played_as(u, c) == Card::Urchin
                && crate::cards::dark_ages::urchin_when_attack_played(self, b, p, c, u)
            {
                continue; // the next card slid into index i
            }
            i += 1;
        }
    }

    /// Cleanup with "when you discard this from play" abilities (Hermit):
    /// play leaves in play order; a Hermit (or Band of Misfits as Hermit)
    /// discarded in a turn without a purchase is trashed instead and a
    /// Madman gained (RULES §4.3, [SIM] 12).
    #[cold]
    #[inline(never)]
    pub(crate) fn cleanup_play_with_triggers<B: Bots>(&mut self, b: &mut B, a: u8) {
        let bought = self.turn.phase == super::Phase::Bought;
        while !self.players[a as usize].play.is_empty() {
            let pl = &self.players[a as usize];
            let (c, u) = (pl.play.as_slice()[0], pl.play_uid[0]);
            if !bought && self.played_as(u, c) == Card::Hermit {
                crate::cards::dark_ages::hermit_discarded_from_play(self, b, a, u);
            } else if let Some(c) = self.take_from_play(a, u) {
                self.players[a as usize].discard.push(c);
            }
        }
    }
}
