//! Triggered abilities that are not the text of the card being played: the
//! engine's *mechanisms* — when they fire, in what order, what loses track.
//! What each card does is its hook in `cards/mod.rs` (dispatching to the
//! card's own section in its set's file); which cards have which hook is
//! their table row ([`crate::cards::Hooks`]). This file names no Kingdom card
//! (a test reads it):
//!
//! * **on-trash** (RULES §9): every move to the trash goes through
//!   `Game::put_in_trash_as`, which records the card here when the kingdom
//!   can have on-trash cards or trash Reactions (`Kingdom::watch_trash()`, so other
//!   games pay one test). Outside a batch the abilities resolve at once,
//!   interrupting whatever trashed the card. [`Game::begin_trash_batch`] /
//!   [`Game::end_trash_batch`] bracket "trash several cards at once" (Chapel,
//!   Count, Mercenary, Dame Anna): all go to the trash first, then each owner
//!   (in turn order from the active player) orders his triggers with
//!   `Why::TrashTrigger` picks; trash Reactions in hand (Market Square) are
//!   offered in the same picks (RULES §13: the owner orders simultaneous
//!   effects). A single legal mandatory trigger resolves without asking.
//! * **on-gain** (Death Cart): from `Game::receive`, so every gain (Supply,
//!   trash, bought or not) fires it.
//! * **on-buy** (Hovel), **discard-from-play** (Hermit at Cleanup), **when you
//!   play an Attack** (Urchin): called from the turn structure.
//! * **identity** (Band of Misfits): the card a played card is played as, per
//!   play instance, chosen once and kept until Cleanup.

use super::decision::{Bots, Event, Pick, Why};
use super::state::{Game, Pend};
use crate::cards::{self, Card, CardSet, Hooks};

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
        if self.kingdom.hooks.has(Hooks::TRASH_REACTION) {
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

    /// One owner resolves his pending triggers in the order he picks; trash
    /// Reactions in his hand (Market Square: optional, any number) may be
    /// used between them.
    fn owner_triggers<B: Bots>(&mut self, b: &mut B, o: u8, list: &mut [Pend]) {
        let mut done = [false; 32];
        loop {
            let mut legal = CardSet::EMPTY;
            for (i, e) in list.iter().enumerate() {
                if e.owner == o && !done[i] {
                    legal.insert(e.as_card);
                }
            }
            let reactions = self.hand_kinds(o, CardSet::TRASH_REACTIONS);
            let choice = if reactions.is_empty() && legal.len() == 1 {
                legal.first()
            } else {
                self.ask(
                    b,
                    Pick {
                        player: o,
                        why: Why::TrashTrigger,
                        by: None,
                        legal: legal.or(reactions),
                        optional: legal.is_empty(),
                        target: o,
                    },
                )
            };
            let Some(c) = choice else { break };
            if reactions.contains(c) && !legal.contains(c) {
                cards::trash_reaction(self, b, o, c);
                continue;
            }
            let Some(i) =
                (0..list.len()).find(|&i| list[i].owner == o && !done[i] && list[i].as_card == c)
            else {
                break;
            };
            done[i] = true;
            cards::on_trash(self, b, o, list[i].card, c);
        }
    }

    /// Move `c` from the trash to its owner's hand (Fortress). It still was
    /// trashed. False if it is no longer in the trash. Not a gain: the bots
    /// see [`Event::TrashToHand`], after the card's [`Event::Trash`].
    pub fn trash_to_hand<B: Bots>(&mut self, b: &mut B, p: u8, c: Card) -> bool {
        if !self.trash.remove_one(c) {
            return false;
        }
        let pl = &mut self.players[p as usize];
        pl.hand.push(c);
        pl.add_owned(c);
        b.event(self, Event::TrashToHand { player: p, card: c });
        true
    }

    /// "When you gain this" (Death Cart: also gain the top 2 Ruins).
    #[cold]
    #[inline(never)]
    pub(crate) fn on_gain<B: Bots>(&mut self, b: &mut B, p: u8, c: Card) {
        cards::on_gain(self, b, p, c);
    }

    /// "When you buy a card" Reactions (Hovel: you may trash it from hand).
    #[cold]
    #[inline(never)]
    pub(crate) fn on_buy<B: Bots>(&mut self, b: &mut B, p: u8, c: Card) {
        cards::on_buy(self, b, p, c);
    }

    /// The card that play instance `uid` was chosen to be played as, if any
    /// (Band of Misfits).
    #[inline]
    pub fn identity_of(&self, uid: u16) -> Option<Card> {
        if self.identity_len == 0 {
            return None;
        }
        self.identity[..self.identity_len as usize]
            .iter()
            .find(|e| e.0 == uid)
            .map(|e| e.1)
    }

    /// What the card of play instance `uid` is now (Band of Misfits → its copy).
    #[inline]
    pub fn played_as(&self, uid: u16, c: Card) -> Card {
        self.identity_of(uid).unwrap_or(c)
    }

    /// Card `c` ([`Hooks::PLAYS_AS`]) being played as instance `uid`: the
    /// card it is played as. The first play chooses (the card's hook); later
    /// plays of the instance reuse the choice, even after it left play. None:
    /// nothing eligible (it does nothing).
    #[cold]
    #[inline(never)]
    pub(crate) fn identity<B: Bots>(
        &mut self,
        b: &mut B,
        p: u8,
        c: Card,
        uid: u16,
    ) -> Option<Card> {
        if let Some(x) = self.identity_of(uid) {
            return Some(x);
        }
        let x = cards::choose_identity(self, b, p, c)?;
        if (self.identity_len as usize) < self.identity.len() {
            self.identity[self.identity_len as usize] = (uid, x);
            self.identity_len += 1;
        }
        Some(x)
    }

    /// `p` plays an Attack (instance `uid`): before it resolves (RULES §10
    /// step 1), each other card of his in play with [`Hooks::ATTACK_PLAYED`]
    /// (Urchin: may be trashed for a Mercenary) acts, in play order.
    #[cold]
    #[inline(never)]
    pub(crate) fn attack_played_window<B: Bots>(&mut self, b: &mut B, p: u8, uid: u16) {
        let mut i = 0;
        while i < self.players[p as usize].play.len() {
            let pl = &self.players[p as usize];
            let (c, u) = (pl.play.as_slice()[i], pl.play_uid[i]);
            let as_card = self.played_as(u, c);
            if u != uid
                && CardSet::ATTACK_PLAYED.contains(as_card)
                && cards::when_attack_played(self, b, p, as_card, c, u)
            {
                continue; // the next card slid into index i
            }
            i += 1;
        }
    }

    /// Cleanup with "when you discard this from play" abilities
    /// ([`Hooks::DISCARD_FROM_PLAY`]: Hermit): play leaves in play order, each
    /// card through its hook if it has one (RULES §4.3, [SIM] 12).
    #[cold]
    #[inline(never)]
    pub(crate) fn cleanup_play_with_triggers<B: Bots>(&mut self, b: &mut B, a: u8) {
        // Most turns have no such card in play: then the caller discards the
        // play area in one block, in the same order.
        let hooked = CardSet::DISCARD_FROM_PLAY.or(CardSet::PLAYS_AS);
        if !self.players[a as usize]
            .play
            .iter()
            .any(|c| hooked.contains(c))
        {
            return;
        }
        while !self.players[a as usize].play.is_empty() {
            let pl = &self.players[a as usize];
            let (c, u) = (pl.play.as_slice()[0], pl.play_uid[0]);
            let as_card = self.played_as(u, c);
            if CardSet::DISCARD_FROM_PLAY.contains(as_card)
                && cards::discard_from_play(self, b, a, as_card, u)
            {
                continue;
            }
            if let Some(c) = self.take_from_play(a, u) {
                self.players[a as usize].discard.push(c);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    /// The engine keeps mechanisms only: its files name no Kingdom card (the
    /// Basic cards, the pile pseudo-cards and the type-derived card lists are
    /// what it may use). A card's rule belongs beside its handler.
    #[test]
    fn the_engine_names_no_kingdom_card() {
        // The variants of the table's rows (`Name = "…", cost …, [TYPES], Set, …`).
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let dir = root.join("src/dominion/engine");
        let table = std::fs::read_to_string(root.join("src/dominion/cards/table.rs")).unwrap();
        let mut names = Vec::new();
        for line in table.lines() {
            let Some((variant, rest)) = line.trim().split_once(" = \"") else {
                continue;
            };
            let Some((types, after)) = rest.split_once("], ") else {
                continue;
            };
            if !rest.contains("\", cost ") {
                continue;
            }
            let set = after.split(',').next().unwrap_or("");
            if set != "Basic" && set != "Data" && !types.contains("PILE") {
                names.push(format!("Card::{variant}"));
            }
        }
        assert!(names.len() > 80, "read {} card variants", names.len());
        let mut files = 0;
        for e in std::fs::read_dir(&dir).unwrap() {
            let path = e.unwrap().path();
            if path.extension().is_none_or(|x| x != "rs") {
                continue;
            }
            files += 1;
            let text = std::fs::read_to_string(&path).unwrap();
            for (n, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                for name in &names {
                    let hit = code.match_indices(name.as_str()).any(|(i, _)| {
                        !code[i + name.len()..].starts_with(|ch: char| ch.is_alphanumeric())
                    });
                    assert!(
                        !hit,
                        "{}:{}: the engine names {name}; move the rule to the card's hook",
                        path.display(),
                        n + 1
                    );
                }
            }
        }
        assert!(files >= 8, "read {files} engine files");
    }
}
