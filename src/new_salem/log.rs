//! One game's log as one player may read it (`salem log`): the engine's
//! lines filtered to a view, with the chairs' bots and the final points.
//!
//! **What a view shows.** The omniscient view (`None`) shows everything.
//! A seat's view (`Some(s)`) shows the public lines (reveals, launches,
//! gifts, the end-of-game character reveal the rulebook requires, the
//! final check) and seat `s`'s private ones (its character, its hands and
//! picks, its discards, what it was shown); it names only its own bot:
//! which bot sits in another chair is as hidden as that chair's plan.

use super::engine::{Game, Log};
use super::sim::SalemMatch;

/// Collects a game's lines for one view.
struct Lines {
    view: Option<u8>,
    lines: Vec<String>,
}

impl Log for Lines {
    const ON: bool = true;
    fn line(&mut self, seat: Option<u8>, text: String) {
        // Private lines (a player's hand, pick, character, peek) are shown
        // only to that player, or in the omniscient view.
        if seat.is_none() || self.view.is_none() || seat == self.view {
            self.lines.push(text);
        }
    }
}

/// Play game `game` of the run seeded `seed` (the one `salem sim --seed`
/// plays as that index) and return its log as `view` sees it: the chairs'
/// bots (only its own for a seat's view), every line it may see, and the
/// winning side's points.
pub fn game_log(m: &SalemMatch, seed: u64, game: u64, view: Option<u8>) -> Vec<String> {
    let p = m.table.players;
    let mut g = Game::new();
    let seats = m.setup(&mut g, seed, game);
    let mut out = Vec::new();
    for (s, &b) in seats[..p].iter().enumerate() {
        if view.is_none_or(|v| v as usize == s) {
            out.push(format!("P{s}: {}", m.bots[b as usize].name));
        }
    }
    if view.is_some() && p > 1 {
        out.push("(the other chairs' bots are hidden in a player's view)".into());
    }
    let mut log = Lines {
        view,
        lines: Vec::new(),
    };
    let o = g.play(m.table, &mut m.seated(&seats), &mut log);
    out.append(&mut log.lines);
    let pts: Vec<String> = (0..p).map(|s| format!("P{s} {}", o.points[s])).collect();
    out.push(format!("Points (winning side only): {}", pts.join(", ")));
    out
}
