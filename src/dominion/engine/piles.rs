//! Dark Ages piles (RULES §3.3, §3.4): piles of distinct cards (Knights,
//! Ruins), non-Supply piles (Spoils, Madman, Mercenary) and Shelters.
//!
//! **Piles of distinct cards.** The pile's identity is a pseudo-card of the
//! table (`Card::Knights`, `Card::Ruins`, type `PILE`, never in any zone):
//! it is the Kingdom entry ("kingdom: Knights"), the Supply pile counted once
//! for the end condition, and `supply[pseudo]` is the number of cards left.
//! The order lives in [`DistinctPile`] arrays (plain data, top = last). The
//! cached `nonempty` mask holds the **real top card** (e.g. Sir Martin), never
//! the pseudo-card, so every generic "gain a card costing up to $X" and every
//! buy sees exactly the visible top card, at its own cost, with no special
//! case; [`Game::gain`] routes a Knight/Ruins (or the pseudo-card, meaning
//! "the top card") here.
//!
//! **Non-Supply piles** are `supply[c]` counts of cards that are in
//! `Kingdom::non_supply` but not in `Kingdom::supply` nor `nonempty`: generic
//! gains and buys can never reach them; only [`Game::gain_non_supply`] can.

use super::decision::Bots;
use super::state::{DistinctPile, Game};
use super::Dest;
use crate::cards::{Card, CardSet};

/// The five Ruins, in table order.
pub const RUINS_KINDS: [Card; 5] = CardSet::RUINS.members();

/// The ten Knights, in table order.
pub const KNIGHTS: [Card; 10] = CardSet::KNIGHTS.members();

/// The pile a card is bought/gained from: the pseudo-card for a Knight or a
/// Ruins, the card itself otherwise.
#[inline]
pub fn pile_of(c: Card) -> Card {
    if CardSet::KNIGHTS.contains(c) {
        Card::Knights
    } else if CardSet::RUINS.contains(c) {
        Card::Ruins
    } else {
        c
    }
}

impl Game {
    /// The ordered pile behind a pseudo-card.
    pub fn distinct(&self, pile: Card) -> &DistinctPile {
        if pile == Card::Knights {
            &self.knights
        } else {
            &self.ruins
        }
    }

    fn distinct_mut(&mut self, pile: Card) -> &mut DistinctPile {
        if pile == Card::Knights {
            &mut self.knights
        } else {
            &mut self.ruins
        }
    }

    /// The visible top card of a Supply pile (for Knights/Ruins the real top
    /// card; for other piles the card itself if the pile is not empty).
    pub fn top_of(&self, pile: Card) -> Option<Card> {
        if CardSet::PILES.contains(pile) {
            if !self.kingdom.supply.contains(pile) {
                return None;
            }
            self.distinct(pile).top()
        } else if self.supply[pile as usize] > 0 && self.kingdom.supply.contains(pile) {
            Some(pile)
        } else {
            None
        }
    }

    /// Build the Knights and Ruins piles. Unshuffled (scenarios): Knights in
    /// table order with Dame Anna on top; Ruins cycling through the five kinds
    /// from the top. Shuffled (real games): the 10 Knights shuffled; all 50
    /// Ruins shuffled and 10 per player beyond the first kept (the rest are
    /// out of the game). Totals follow the cards actually in the game.
    pub(crate) fn setup_distinct_piles(&mut self, shuffle: bool) {
        if self.kingdom.supply.contains(Card::Knights) {
            let mut k = DistinctPile::EMPTY;
            for &c in KNIGHTS.iter().rev() {
                k.push(c);
            }
            if shuffle {
                self.rng.shuffle(&mut k.cards[..10]);
            }
            self.knights = k;
            self.total[Card::Knights as usize] = 0;
            for c in KNIGHTS {
                self.total[c as usize] = 1;
            }
        } else {
            self.knights = DistinctPile::EMPTY;
        }
        if self.kingdom.supply.contains(Card::Ruins) {
            let n = self.kingdom.pile_size[Card::Ruins as usize] as usize;
            let mut all = [Card::Copper; 50];
            for (i, c) in all.iter_mut().enumerate() {
                *c = RUINS_KINDS[i % 5];
            }
            if shuffle {
                self.rng.shuffle(&mut all);
            }
            let mut r = DistinctPile::EMPTY;
            // Top first in `all`: push in reverse so all[0] ends on top.
            for &c in all[..n].iter().rev() {
                r.push(c);
            }
            self.ruins = r;
            self.total[Card::Ruins as usize] = 0;
            for c in RUINS_KINDS {
                self.total[c as usize] = 0;
            }
            for &c in r.as_slice() {
                self.total[c as usize] += 1;
            }
        } else {
            self.ruins = DistinctPile::EMPTY;
        }
        (self.nonempty, self.empty_piles) = self.expected_pile_caches();
    }

    /// Replace a distinct pile's content (scenarios), cards listed top first.
    /// The caller recounts totals afterwards.
    pub fn set_distinct_pile(&mut self, pile: Card, top_first: &[Card]) {
        let mut d = DistinctPile::EMPTY;
        for &c in top_first.iter().rev() {
            d.push(c);
        }
        *self.distinct_mut(pile) = d;
        self.supply[pile as usize] = d.len;
        (self.nonempty, self.empty_piles) = self.expected_pile_caches();
    }

    /// The `nonempty` mask and `empty_piles` count implied by the piles now
    /// (setup, scenarios, and the invariant check).
    pub fn expected_pile_caches(&self) -> (CardSet, u8) {
        let mut nonempty = CardSet::EMPTY;
        let mut empty = 0u8;
        for c in self.kingdom.supply.iter() {
            if self.supply[c as usize] == 0 {
                empty += 1;
            } else if CardSet::PILES.contains(c) {
                if let Some(t) = self.distinct(c).top() {
                    nonempty.insert(t);
                }
            } else {
                nonempty.insert(c);
            }
        }
        (nonempty, empty)
    }

    /// Gain from the Knights or Ruins pile: `c` must be the visible top card,
    /// or the pseudo-card itself ("gain a Ruins": whatever is on top).
    #[cold]
    #[inline(never)]
    pub(crate) fn gain_distinct<B: Bots>(&mut self, b: &mut B, p: u8, c: Card, dest: Dest) -> bool {
        let pile = pile_of(c);
        if !self.kingdom.supply.contains(pile) {
            return false;
        }
        let Some(top) = self.distinct(pile).top() else {
            return false;
        };
        if c != pile && c != top {
            return false;
        }
        self.distinct_mut(pile).pop();
        self.supply[pile as usize] -= 1;
        self.nonempty.remove(top);
        match self.distinct(pile).top() {
            Some(t) => self.nonempty.insert(t),
            None => self.empty_piles += 1,
        }
        self.receive(b, p, top, dest);
        true
    }

    /// Gain `c` from its non-Supply pile (only the cards that name the pile
    /// call this: Bandit Camp, Marauder, Pillage, Hermit, Urchin). False if the
    /// pile is not in this game or is empty.
    pub fn gain_non_supply<B: Bots>(&mut self, b: &mut B, p: u8, c: Card, dest: Dest) -> bool {
        if !self.kingdom.non_supply.contains(c) || self.supply[c as usize] == 0 {
            return false;
        }
        self.supply[c as usize] -= 1;
        self.receive(b, p, c, dest);
        true
    }

    /// Whether this game starts with Shelters (RULES §3.3): forced by the
    /// Kingdom, else all ten Kingdom piles Dark Ages → yes; no Dark Ages pile
    /// → no (no RNG draw, so other sets' games are unchanged); mixed → one of
    /// the Kingdom piles picked uniformly from the game's RNG decides.
    pub(crate) fn decide_shelters(&mut self) -> bool {
        if let Some(s) = self.kingdom.shelters {
            return s;
        }
        let k = self.kingdom.kingdom;
        let da = k.and(CardSet::DARK_AGES);
        if da.is_empty() {
            return false;
        }
        if da == k {
            return true;
        }
        let i = self.rng.below(k.len() as u32) as usize;
        k.nth(i).is_some_and(|c| CardSet::DARK_AGES.contains(c))
    }
}
