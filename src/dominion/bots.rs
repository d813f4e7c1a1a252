//! Built-in bots that need no strategy file:
//!
//! * [`BigMoney`] — the canonical baseline, hand-coded (benchmarks, tests);
//! * [`RandomBots`] — uniformly random legal decisions, optionally checking the
//!   conservation invariant at every decision (the random-play test);
//! * [`ScriptedBots`] — answers given in order, per player (scenarios, tests).

use crate::cards::{Card, CardSet};
use crate::engine::{Bots, Choose, Game, GameRng, Pick, Why, YesNo};
use std::collections::VecDeque;

/// Big Money: buy Province with $8, Gold with $6–7, Silver with $3–5; never
/// plays Actions; plays every Treasure. Every other question gets its default.
#[derive(Clone, Copy, Debug, Default)]
pub struct BigMoney;

impl Bots for BigMoney {
    #[inline(always)]
    fn play_all_treasures(&mut self, _g: &Game, _p: u8) -> bool {
        true
    }
    #[inline]
    fn pick(&mut self, g: &Game, q: &Pick) -> Option<Card> {
        match q.why {
            Why::PlayTreasure => q.legal.first(),
            Why::PlayAction => None,
            Why::Buy => {
                let coins = g.turn.coins;
                let want = if coins >= 8 {
                    Card::Province
                } else if coins >= 6 {
                    Card::Gold
                } else if coins >= 3 {
                    Card::Silver
                } else {
                    return None;
                };
                q.legal.contains(want).then_some(want)
            }
            _ => q.default_answer(g),
        }
    }
    #[inline]
    fn yes_no(&mut self, g: &Game, q: &YesNo) -> bool {
        q.default_answer(g)
    }
}

/// Random legal decisions. Optional questions are declined with probability
/// `1/decline` (never for buys with $2 or more, so games end), and optional
/// trashing never takes the player's Treasure value below $5 (see
/// `MIN_MONEY`), so every game can end by the rules. With `check`,
/// the conservation invariant is verified at every decision; the first
/// violation is kept in `violation`.
#[derive(Clone, Debug)]
pub struct RandomBots {
    rng: GameRng,
    pub check: bool,
    pub decisions: u64,
    pub violation: Option<String>,
}

impl RandomBots {
    pub fn new(seed: u64, check: bool) -> Self {
        RandomBots {
            rng: GameRng::for_game(seed, 0xB07),
            check,
            decisions: 0,
            violation: None,
        }
    }
    fn verify(&mut self, g: &Game) {
        self.decisions += 1;
        if self.check && self.violation.is_none() {
            if let Err(e) = g.check_invariants() {
                self.violation = Some(format!(
                    "turn {} of seat {}: {e}",
                    g.turns_taken[g.active as usize], g.active
                ));
            }
        }
    }
    fn any(&mut self, s: CardSet) -> Option<Card> {
        if s.is_empty() {
            None
        } else {
            s.nth(self.rng.below(s.len() as u32) as usize)
        }
    }
}

impl Bots for RandomBots {
    fn pick(&mut self, g: &Game, q: &Pick) -> Option<Card> {
        self.verify(g);
        if q.optional {
            let decline = match q.why {
                // Buying nothing now and then; Curse and Copper only rarely,
                // so the piles that end games are the ones random play empties.
                Why::Buy => {
                    if g.turn.coins < 2 {
                        2
                    } else {
                        u32::MAX
                    }
                }
                Why::PlayTreasure => 20,
                Why::PlayAction => 10,
                _ => 3,
            };
            if decline != u32::MAX && self.rng.below(decline) == 0 {
                return None;
            }
            if q.why == Why::Trash && q.target == q.player {
                // Optional trashing of one's own cards (Chapel): never trash
                // the money needed to buy again. Random Chapel play otherwise
                // strands every player with a deck of one Chapel once the
                // Copper pile is gone (about 1 game in 2,000 with 2 players),
                // and the game stalls until the turn cap.
                let money = treasure_value(g, q.player);
                let mut ok = q.legal;
                for c in q.legal.and(CardSet::treasures()).iter() {
                    if money < MIN_MONEY + c.info().value as u32 {
                        ok.remove(c);
                    }
                }
                return self.any(ok);
            }
            if q.why == Why::Buy {
                // Prefer cards that are not Curse/Copper most of the time.
                let good = q
                    .legal
                    .minus(CardSet::one(Card::Curse))
                    .minus(CardSet::one(Card::Copper));
                if !good.is_empty() && self.rng.below(10) != 0 {
                    return self.any(good);
                }
            }
        }
        self.any(q.legal)
    }
    fn yes_no(&mut self, g: &Game, _q: &YesNo) -> bool {
        self.verify(g);
        self.rng.below(2) == 0
    }
    fn choose(&mut self, g: &Game, q: &Choose) -> u8 {
        self.verify(g);
        self.rng.below(q.n.max(1) as u32) as u8
    }
}

/// The total Treasure value `RandomBots` keeps when trashing optionally.
const MIN_MONEY: u32 = 5;

/// Sum of the printed values of the Treasures `p` owns.
fn treasure_value(g: &Game, p: u8) -> u32 {
    let pl = g.player(p);
    CardSet::treasures()
        .iter()
        .map(|c| pl.owns(c) as u32 * c.info().value as u32)
        .sum()
}

/// One scripted answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Card(Card),
    None,
    Yes,
    No,
    Option(u8),
}

impl std::fmt::Display for Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Answer::Card(c) => write!(f, "{c}"),
            Answer::None => f.write_str("none"),
            Answer::Yes => f.write_str("yes"),
            Answer::No => f.write_str("no"),
            Answer::Option(n) => write!(f, "{n}"),
        }
    }
}

/// A question asked of a scripted bot and the answer it gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Asked {
    pub player: u8,
    pub question: String,
    pub answer: String,
    /// The script had no (fitting) answer left: the documented default was used.
    pub defaulted: bool,
}

/// Answers from a list, per player, in order. A question with no scripted
/// answer left gets its documented default. Every question and answer is
/// recorded in `transcript`; an answer of the wrong shape (e.g. "yes" to a
/// pick) is recorded in `mismatches`.
#[derive(Clone, Debug, Default)]
pub struct ScriptedBots {
    pub answers: [VecDeque<Answer>; crate::engine::MAX_PLAYERS],
    pub transcript: Vec<Asked>,
    pub mismatches: Vec<String>,
    /// When false, turn-phase questions (play an Action, play Treasures, buy)
    /// are not taken from the script but answered "none"; the scenario steps
    /// make those moves explicitly.
    pub script_turn: bool,
    /// A player's strategy (`strategy.pN:` lines of a scenario): it answers
    /// what the script leaves unanswered, with its own built-in defaults,
    /// instead of the engine's documented default.
    pub strategy: [Option<std::sync::Arc<crate::strategy::Compiled>>; crate::engine::MAX_PLAYERS],
}

impl ScriptedBots {
    pub fn new() -> Self {
        ScriptedBots::default()
    }
    pub fn push(&mut self, player: u8, a: Answer) {
        self.answers[player as usize].push_back(a);
    }
    pub fn remaining(&self) -> usize {
        self.answers.iter().map(|q| q.len()).sum()
    }
    fn next(&mut self, p: u8) -> Option<Answer> {
        self.answers[p as usize].pop_front()
    }
    /// Player `p`'s strategy as bots (every seat played by it), if he has one.
    fn bot(&self, p: u8) -> Option<crate::strategy::StrategyBots<'_>> {
        let s = self.strategy.get(p as usize)?.as_deref()?;
        Some(crate::strategy::StrategyBots::new(&[s]))
    }
    fn unscripted_pick(&self, g: &Game, q: &Pick) -> Option<Card> {
        match self.bot(q.player) {
            Some(mut b) => b.pick(g, q),
            None => q.default_answer(g),
        }
    }
    fn unscripted_yes_no(&self, g: &Game, q: &YesNo) -> bool {
        match self.bot(q.player) {
            Some(mut b) => b.yes_no(g, q),
            None => q.default_answer(g),
        }
    }
    fn unscripted_choose(&self, g: &Game, q: &Choose) -> u8 {
        match self.bot(q.player) {
            Some(mut b) => b.choose(g, q),
            None => q.default_answer(g),
        }
    }
}

fn describe_pick(q: &Pick) -> String {
    let by = q.by.map(|c| format!(" ({c})")).unwrap_or_default();
    let opt = if q.optional { " or none" } else { "" };
    let names: Vec<&str> = q.legal.iter().map(|c| c.name()).collect();
    format!("{}{by}: {}{opt}", q.why.name(), names.join(", "))
}

impl Bots for ScriptedBots {
    fn pick(&mut self, g: &Game, q: &Pick) -> Option<Card> {
        let turn_phase = matches!(q.why, Why::PlayAction | Why::PlayTreasure | Why::Buy);
        if turn_phase && !self.script_turn {
            return None;
        }
        let (ans, defaulted) = match self.next(q.player) {
            Some(Answer::Card(c)) => (Some(c), false),
            Some(Answer::None) => (None, false),
            Some(other) => {
                self.mismatches.push(format!(
                    "player {} was asked to {} but the script says '{other}'",
                    q.player,
                    describe_pick(q)
                ));
                (self.unscripted_pick(g, q), true)
            }
            None => (self.unscripted_pick(g, q), true),
        };
        self.transcript.push(Asked {
            player: q.player,
            question: describe_pick(q),
            answer: ans.map_or("none".into(), |c| c.name().into()),
            defaulted,
        });
        ans
    }

    fn yes_no(&mut self, g: &Game, q: &YesNo) -> bool {
        let (ans, defaulted) = match self.next(q.player) {
            Some(Answer::Yes) => (true, false),
            Some(Answer::No) => (false, false),
            Some(other) => {
                self.mismatches.push(format!(
                    "player {} was asked a yes/no question ({}) but the script says '{other}'",
                    q.player, q.by
                ));
                (self.unscripted_yes_no(g, q), true)
            }
            None => (self.unscripted_yes_no(g, q), true),
        };
        let about = q
            .card
            .map(|c| format!(" about {c} of player {}", q.target))
            .unwrap_or_default();
        self.transcript.push(Asked {
            player: q.player,
            question: format!("{}: yes/no{about}", q.by),
            answer: if ans { "yes" } else { "no" }.into(),
            defaulted,
        });
        ans
    }

    fn choose(&mut self, g: &Game, q: &Choose) -> u8 {
        let (ans, defaulted) = match self.next(q.player) {
            Some(Answer::Option(n)) if n < q.n => (n, false),
            Some(other) => {
                self.mismatches.push(format!(
                    "player {} was asked to choose one of {} options ({}) but the script says '{other}'",
                    q.player, q.n, q.by
                ));
                (self.unscripted_choose(g, q), true)
            }
            None => (self.unscripted_choose(g, q), true),
        };
        self.transcript.push(Asked {
            player: q.player,
            question: {
                let labels = q.labels();
                if labels.len() == q.n as usize {
                    let opts: Vec<String> = labels
                        .iter()
                        .enumerate()
                        .map(|(i, l)| format!("{i} = {l}"))
                        .collect();
                    format!("{}: choose one of {}", q.by, opts.join(", "))
                } else {
                    format!("{}: choose an option 0 to {}", q.by, q.n.saturating_sub(1))
                }
            },
            answer: ans.to_string(),
            defaulted,
        });
        ans
    }
}
