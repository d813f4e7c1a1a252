//! A logging adaptor for `domsim log`: wraps any [`Bots`], forwards every
//! decision unchanged and writes a human-readable, turn-by-turn account of the
//! game from the engine's [`Event`]s.
//!
//! Consecutive events of the same kind by the same player are joined on one
//! line ("draws Copper x2, Estate"). The five cards drawn in Cleanup are
//! not listed: they are shown as the hand at the start of that player's next
//! turn (a shuffle during Cleanup is still shown).

use crate::cards::Card;
use crate::engine::{Bots, Choose, Event, Game, Pick, Why, YesNo};
use std::fmt::Write;

/// Wraps `inner`, recording a log in `out`.
pub struct LoggingBots<B> {
    pub inner: B,
    pub out: String,
    names: Vec<String>,
    /// Pending line: (player, verb, cards).
    pending: Option<(u8, &'static str, Vec<Card>)>,
    bought: bool,
    /// `--explain`: say which list entry decided each pick.
    pub explain: bool,
}

impl<B: Bots> LoggingBots<B> {
    /// `names[seat]` labels each seat in the log.
    pub fn new(inner: B, names: Vec<String>) -> Self {
        LoggingBots {
            inner,
            out: String::new(),
            names,
            pending: None,
            bought: false,
            explain: false,
        }
    }

    fn name(&self, p: u8) -> &str {
        self.names.get(p as usize).map_or("?", |s| s.as_str())
    }

    fn flush(&mut self) {
        if let Some((p, verb, cards)) = self.pending.take() {
            let list = join_cards(&cards);
            let name = self.name(p).to_string();
            let _ = writeln!(self.out, "    {name} {verb} {list}");
        }
    }

    fn add(&mut self, p: u8, verb: &'static str, c: Card) {
        if let Some((pp, v, cards)) = &mut self.pending {
            if *pp == p && *v == verb {
                cards.push(c);
                return;
            }
        }
        self.flush();
        self.pending = Some((p, verb, vec![c]));
    }

    fn line(&mut self, s: String) {
        self.flush();
        let _ = writeln!(self.out, "    {s}");
    }

    /// The log so far, the line being gathered included (the workbench's
    /// play mode shows it when a human seat is asked).
    pub fn so_far(&self) -> String {
        let mut s = self.out.clone();
        if let Some((p, verb, cards)) = &self.pending {
            let _ = writeln!(s, "    {} {verb} {}", self.name(*p), join_cards(cards));
        }
        s
    }

    /// Write the final scores and winners; returns the whole log.
    pub fn finish(mut self, g: &Game) -> String {
        // Cleanup draws of the last turn are not shown.
        if matches!(self.pending, Some((_, "draws", _))) {
            self.pending = None;
        }
        self.flush();
        let o = g.outcome();
        let mut out = std::mem::take(&mut self.out);
        let _ = writeln!(
            out,
            "\nGame over{}.",
            if o.capped { " (turn cap reached)" } else { "" }
        );
        for p in 0..g.n() {
            let pl = g.player(p as u8);
            let mut deck: Vec<(Card, u8)> = Card::ALL
                .iter()
                .map(|&c| (c, pl.owns(c)))
                .filter(|&(_, n)| n > 0)
                .collect();
            deck.sort_by_key(|&(c, n)| (std::cmp::Reverse(n), c));
            let deck: Vec<String> = deck.iter().map(|(c, n)| format!("{n} {c}")).collect();
            let _ = writeln!(
                out,
                "  {}: {} VP in {} turns{} — {}",
                self.names.get(p).map_or("?", |s| s.as_str()),
                o.vp[p],
                o.turns[p],
                if o.won(p) {
                    if o.winner_count() > 1 {
                        " (shared win)"
                    } else {
                        " (winner)"
                    }
                } else {
                    ""
                },
                deck.join(", ")
            );
        }
        if let Some(f) = &g.fault {
            let _ = writeln!(out, "  ILLEGAL ANSWER (replaced by the default): {f}");
        }
        out
    }
}

fn join_cards(cards: &[Card]) -> String {
    // "Copper x3, Estate" keeps hands short while preserving order of first appearance.
    let mut parts: Vec<(Card, usize)> = Vec::new();
    for &c in cards {
        match parts.iter_mut().find(|(k, _)| *k == c) {
            Some((_, n)) => *n += 1,
            None => parts.push((c, 1)),
        }
    }
    parts
        .iter()
        .map(|&(c, n)| {
            if n > 1 {
                format!("{c} x{n}")
            } else {
                c.name().to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

impl<B: Bots> Bots for LoggingBots<B> {
    fn pick(&mut self, g: &Game, q: &Pick) -> Option<Card> {
        let a = self.inner.pick(g, q);
        if self.explain {
            if let Some(why) = self.inner.explain(g, q) {
                let by = q.by.map(|c| format!(" for {c}")).unwrap_or_default();
                self.line(format!(
                    "· {} {:?}{by} → {} ({why})",
                    self.name(q.player),
                    q.why,
                    a.map_or("nothing".to_string(), |c| c.name().to_string())
                ));
            }
        }
        if q.why == Why::Buy && a.is_none() && !self.bought {
            self.line(format!(
                "{} buys nothing (${} available)",
                self.name(q.player),
                g.turn.coins
            ));
        }
        if q.why == Why::Buy && a.is_some() && !self.bought {
            self.line(format!(
                "{} has ${} and {} buy(s)",
                self.name(q.player),
                g.turn.coins,
                g.turn.buys
            ));
        }
        a
    }

    fn play_all_treasures(&mut self, g: &Game, player: u8) -> bool {
        // Forwarded so the logged game is the very game the runner plays.
        self.inner.play_all_treasures(g, player)
    }

    fn yes_no(&mut self, g: &Game, q: &YesNo) -> bool {
        // Asked before the answer, as for a "choose one" below.
        let why = if self.explain {
            self.inner.explain_yes_no(g, q)
        } else {
            None
        };
        let a = self.inner.yes_no(g, q);
        let about = q
            .card
            .map(|c| format!(" about {c} of {}", self.name(q.target)))
            .unwrap_or_default();
        if let Some(why) = why {
            self.line(format!(
                "· {} YesNo for {}{about} → {} ({why})",
                self.name(q.player),
                q.by,
                if a { "yes" } else { "no" }
            ));
        }
        self.line(format!(
            "{} answers {} to {}{about}",
            self.name(q.player),
            if a { "yes" } else { "no" },
            q.by
        ));
        a
    }

    fn choose(&mut self, g: &Game, q: &Choose) -> u8 {
        // Asked before the answer: a bot may keep state between the two
        // "choose one" questions of a card (Count), which answering updates.
        let why = if self.explain {
            self.inner.explain_choose(g, q)
        } else {
            None
        };
        let a = self.inner.choose(g, q);
        let label = q
            .labels()
            .get(a as usize)
            .map(|l| format!(" ({l})"))
            .unwrap_or_default();
        if let Some(why) = why {
            self.line(format!(
                "· {} Choose for {} → option {a}{label} ({why})",
                self.name(q.player),
                q.by
            ));
        }
        // Options are numbered from 0, as in the strategy docs and the
        // scenario notation.
        self.line(format!(
            "{} chooses option {a} of 0–{}{label} for {}",
            self.name(q.player),
            q.n.saturating_sub(1),
            q.by
        ));
        a
    }

    fn event(&mut self, g: &Game, e: Event) {
        self.inner.event(g, e);
        match e {
            Event::TurnStart { player, turn } => {
                // Pending draws are the previous player's Cleanup draw.
                if matches!(self.pending, Some((_, "draws", _))) {
                    self.pending = None;
                }
                self.flush();
                self.bought = false;
                let hand: Vec<Card> = g.player(player).hand.iter().collect();
                let name = self.name(player).to_string();
                let vp: Vec<String> = (0..g.n())
                    .map(|p| format!("{} {}", self.name(p as u8), g.vp(p as u8)))
                    .collect();
                let _ = writeln!(
                    self.out,
                    "\nTurn {turn} — {} (VP: {})\n    hand: {}",
                    name,
                    vp.join(", "),
                    join_cards(&hand)
                );
            }
            Event::Play { player, card } => self.add(player, "plays", card),
            Event::Buy { player, card } => {
                self.bought = true;
                self.add(player, "buys", card);
            }
            Event::Gain { player, card } => {
                // A bought card's gain is implied by the buy.
                if let Some((p, "buys", cards)) = &self.pending {
                    if *p == player && cards.last() == Some(&card) {
                        return;
                    }
                }
                self.add(player, "gains", card)
            }
            Event::Trash { player, card } => self.add(player, "trashes", card),
            Event::Discard { player, card } => self.add(player, "discards", card),
            Event::Reveal { player, card } => self.add(player, "reveals", card),
            Event::Topdeck { player, card } => self.add(player, "puts on deck", card),
            Event::React { player, card } => self.add(player, "reacts with", card),
            Event::Pass { player, to, card } => {
                self.line(format!(
                    "{} passes {card} to {}",
                    self.name(player),
                    self.name(to)
                ));
            }
            Event::Shuffle { player } => {
                self.line(format!("{} shuffles", self.name(player)));
            }
            Event::DeckToDiscard { player, cards } => {
                self.line(format!(
                    "{} puts their deck ({cards} card{}) into their discard pile",
                    self.name(player),
                    if cards == 1 { "" } else { "s" }
                ));
            }
            Event::ReturnToPile { player, card } => {
                self.line(format!("{} returns {card} to its pile", self.name(player)));
            }
            Event::TrashToHand { player, card } => {
                self.line(format!(
                    "{} puts {card} from the trash into their hand",
                    self.name(player)
                ));
            }
            Event::Draw { player, card } => {
                // Draws of the active player after the Action phase are the
                // Cleanup draw (no card draws in the Buy phase): shown as the
                // next turn's hand instead.
                let cleanup = player == g.active
                    && g.turn.phase != crate::engine::Phase::Action
                    && g.player(player).play.is_empty();
                if !cleanup {
                    self.add(player, "draws", card)
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::BigMoney;
    use crate::dominion::presets::Preset;

    /// The adaptor changes nothing: the logged game is the game the runner plays.
    #[test]
    fn logging_does_not_change_the_game() {
        let k = Preset::find("First Game").unwrap().kingdom(3).unwrap();
        for i in 0..50 {
            let mut g1 = Game::new(&k, 9, i);
            let o1 = g1.play_game(&mut BigMoney);
            let mut g2 = Game::new(&k, 9, i);
            let mut b = LoggingBots::new(BigMoney, vec!["A".into(), "B".into(), "C".into()]);
            let o2 = g2.play_game(&mut b);
            assert_eq!(o1, o2, "game {i}");
            let log = b.finish(&g2);
            assert!(log.contains("Game over") && log.contains("Turn 1 — A"));
        }
    }

    /// Masquerade's passes are shown (they are neither gains nor trashes,
    /// so no other line would tell where the cards went).
    #[test]
    fn masquerade_passes_are_logged() {
        use crate::engine::{GameRng, Kingdom};
        let k = Kingdom::with_piles(2, &[Card::Masquerade]).unwrap();
        let mut g = Game::empty(&k, GameRng::for_game(1, 0));
        g.players[0].hand.push(Card::Masquerade);
        g.players[0].deck.push(Card::Estate);
        g.players[0].deck.push(Card::Estate);
        g.players[1].hand.push(Card::Curse);
        g.recount_totals();
        let mut b = LoggingBots::new(BigMoney, vec!["A".into(), "B".into()]);
        g.try_play_action(&mut b, Card::Masquerade).unwrap();
        let log = b.finish(&g);
        assert!(log.contains("A passes Estate to B"), "{log}");
        assert!(log.contains("B passes Curse to A"), "{log}");
    }

    /// Chancellor's "put your deck into your discard pile" moves no card
    /// one by one (no discard, no draw): a yes used to show only "answers
    /// yes to Chancellor", and nothing of the deck. The move is now a line
    /// of its own, with the deck's size (its cards are unseen); a no moves
    /// nothing and shows nothing.
    #[test]
    fn chancellor_putting_the_deck_into_the_discard_pile_is_logged() {
        use crate::engine::{GameRng, Kingdom};
        struct No;
        impl Bots for No {
            fn pick(&mut self, g: &Game, q: &Pick) -> Option<Card> {
                BigMoney.pick(g, q)
            }
            fn yes_no(&mut self, _: &Game, _: &YesNo) -> bool {
                false
            }
        }
        let k = Kingdom::with_piles(2, &[Card::Chancellor]).unwrap();
        let start = || {
            let mut g = Game::empty(&k, GameRng::for_game(1, 0));
            g.players[0].hand.push(Card::Chancellor);
            for c in [Card::Estate, Card::Copper, Card::Gold] {
                g.players[0].deck.push(c);
            }
            g.recount_totals();
            g
        };
        // BigMoney says yes (the documented default).
        let mut g = start();
        let mut b = LoggingBots::new(BigMoney, vec!["A".into(), "B".into()]);
        g.try_play_action(&mut b, Card::Chancellor).unwrap();
        assert!(g.players[0].deck.is_empty());
        let log = b.finish(&g);
        assert!(
            log.contains(
                "    A answers yes to Chancellor\n    A puts their deck (3 cards) into their discard pile\n"
            ),
            "{log}"
        );
        let mut g = start();
        let mut b = LoggingBots::new(No, vec!["A".into(), "B".into()]);
        g.try_play_action(&mut b, Card::Chancellor).unwrap();
        assert_eq!(g.players[0].deck.len(), 3);
        let log = b.finish(&g);
        assert!(log.contains("A answers no to Chancellor"), "{log}");
        assert!(!log.contains("discard pile"), "{log}");
    }

    /// Random bots play the first 20 games of seed 5 in `cards` (3 players)
    /// logged and not logged: the same outcomes (an event changes no game).
    /// Returns the logs, one after the other.
    fn logged_random_games(cards: &[Card]) -> String {
        use crate::bots::RandomBots;
        let k = crate::engine::Kingdom::with_piles(3, cards).unwrap();
        let mut logs = String::new();
        for i in 0..20 {
            let mut g1 = Game::new(&k, 5, i);
            let o1 = g1.play_game(&mut RandomBots::new(i, false));
            let mut g2 = Game::new(&k, 5, i);
            let mut b = LoggingBots::new(
                RandomBots::new(i, false),
                vec!["A".into(), "B".into(), "C".into()],
            );
            let o2 = g2.play_game(&mut b);
            assert_eq!(o1, o2, "game {i}");
            logs += &b.finish(&g2);
        }
        logs
    }

    /// The new event changes no game: random bots on a Chancellor kingdom
    /// play the same games logged or not, and the logs show the move.
    #[test]
    fn logging_chancellor_games_does_not_change_them() {
        let logs = logged_random_games(&[Card::Chancellor, Card::Village, Card::Smithy]);
        assert!(logs.contains("into their discard pile"));
    }

    /// Madman returning to its pile, and Fortress going from the trash back
    /// to the hand, change who owns what with no gain and no trash: each is
    /// now a line of its own (they used to leave no trace, so the log's
    /// final decks did not follow from its lines).
    #[test]
    fn madman_returning_and_fortress_coming_back_are_logged() {
        use crate::engine::{GameRng, Kingdom};
        let k = Kingdom::with_piles(2, &[Card::Hermit, Card::Fortress]).unwrap();
        let mut g = Game::empty(&k, GameRng::for_game(1, 0));
        g.players[0].hand.push(Card::Madman);
        g.players[0].hand.push(Card::Fortress);
        g.recount_totals();
        let mut b = LoggingBots::new(BigMoney, vec!["A".into(), "B".into()]);
        g.try_play_action(&mut b, Card::Madman).unwrap();
        assert_eq!(g.players[0].owns(Card::Madman), 0);
        assert!(g.trash_from_hand(&mut b, 0, Card::Fortress));
        assert_eq!(g.players[0].owns(Card::Fortress), 1);
        let log = b.finish(&g);
        assert!(log.contains("    A returns Madman to its pile\n"), "{log}");
        assert!(
            log.contains(
                "    A trashes Fortress\n    A puts Fortress from the trash into their hand\n"
            ),
            "{log}"
        );
    }

    /// The new events change no game: random bots on a kingdom with Spoils,
    /// Madman and Fortress play the same games logged or not, and the logs
    /// show the moves.
    #[test]
    fn logging_spoils_madman_and_fortress_games_does_not_change_them() {
        let logs =
            logged_random_games(&[Card::BanditCamp, Card::Hermit, Card::Fortress, Card::Chapel]);
        let returned = logs.matches(" to its pile\n").count();
        let back = logs.matches(" from the trash into their hand\n").count();
        assert!(returned > 0 && back > 0, "{returned} {back}");
    }
}
