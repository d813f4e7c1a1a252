//! The conservation invariant (DESIGN "Testing" 2): every card is in exactly
//! one zone, counts add up to the setup, cached totals equal recomputed ones.

use super::state::Game;
use crate::cards::Card;

impl Game {
    /// Check every invariant; `Err` describes the first violation.
    pub fn check_invariants(&self) -> Result<(), String> {
        if !self
            .kingdom
            .supply_piles()
            .iter()
            .copied()
            .eq(self.kingdom.supply.iter())
        {
            return Err("the Kingdom's pile list differs from its Supply".into());
        }
        let mut seen = [0u16; Card::COUNT];
        for (i, s) in seen.iter_mut().enumerate() {
            *s = self.supply[i] as u16;
        }
        // Pile pseudo-cards hold no card themselves; their cards are listed.
        for pile in crate::cards::CardSet::PILES.iter() {
            seen[pile as usize] = 0;
            let d = self.distinct(pile);
            if self.kingdom.supply.contains(pile) && d.len != self.supply[pile as usize] {
                return Err(format!(
                    "{pile} pile: count {} but {} cards listed",
                    self.supply[pile as usize], d.len
                ));
            }
            for &c in d.as_slice() {
                seen[c as usize] += 1;
            }
        }

        for c in self.trash.iter() {
            seen[c as usize] += 1;
        }
        for p in 0..self.n() {
            let pl = &self.players[p];
            // Counts are bounded by MAX_CARDS (600), far below u16::MAX:
            // wrapping adds let the 128-wide loops below vectorise in the
            // checked test build, where this check runs at every decision.
            let mut own = [0u16; Card::COUNT];
            for z in [&pl.deck, &pl.hand, &pl.discard, &pl.play, &pl.aside] {
                for c in z.iter() {
                    own[c as usize] = own[c as usize].wrapping_add(1);
                }
            }
            if let Some(i) = (0..Card::COUNT).find(|&i| own[i] != pl.owned[i] as u16) {
                return Err(format!(
                    "player {p}: cached count of {} is {} but zones hold {}",
                    Card::ALL[i],
                    pl.owned[i],
                    own[i]
                ));
            }
            for (s, &o) in seen.iter_mut().zip(own.iter()) {
                *s = s.wrapping_add(o);
            }
            let total = own.iter().fold(0u16, |t, &o| t.wrapping_add(o));
            if total != pl.owned_total {
                return Err(format!(
                    "player {p}: cached total {} but zones hold {total}",
                    pl.owned_total
                ));
            }
            if (pl.vp_fixed, pl.actions_owned) != pl.expected_vp_fixed_and_actions() {
                return Err(format!(
                    "player {p}: cached (fixed VP, Actions owned) {:?} but the owned cards give {:?}",
                    (pl.vp_fixed, pl.actions_owned),
                    pl.expected_vp_fixed_and_actions()
                ));
            }
            if pl.money != pl.expected_money() {
                return Err(format!(
                    "player {p}: cached money {} but the owned cards are worth {}",
                    pl.money,
                    pl.expected_money()
                ));
            }
        }
        for p in self.n()..self.players.len() {
            if self.players[p].owned_total != 0 {
                return Err(format!("seat {p} is not in the game but owns cards"));
            }
        }
        if seen != self.total {
            let i = (0..Card::COUNT)
                .find(|&i| seen[i] != self.total[i])
                .unwrap_or(0);
            return Err(format!(
                "conservation broken for {}: {} at setup, {} now",
                Card::ALL[i],
                self.total[i],
                seen[i]
            ));
        }
        for c in Card::ALL {
            if !self.kingdom.supply.or(self.kingdom.non_supply).contains(*c)
                && self.supply[*c as usize] != 0
            {
                return Err(format!("{c} has cards but is not a Supply pile"));
            }
        }
        let (nonempty, empty) = self.expected_pile_caches();
        if nonempty != self.nonempty {
            return Err(format!(
                "cached non-empty piles {:?} but {:?} are non-empty",
                self.nonempty, nonempty
            ));
        }
        if empty != self.empty_piles {
            return Err(format!(
                "cached empty piles {} but {empty} are empty",
                self.empty_piles
            ));
        }
        Ok(())
    }
}
