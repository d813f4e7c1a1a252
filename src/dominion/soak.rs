//! The soak test: many games over random kingdoms, looking for panics,
//! hangs and broken invariants rather than for good play.
//!
//! `domsim soak --games N --seed S [--threads T]` plays game `i` (0-based)
//! with everything derived from `(S, i)` only, so any reported game can be
//! replayed alone:
//!
//! * a kingdom of 10 cards drawn by [`Kingdom::random`] from every
//!   implemented card set, with 2–6 players;
//! * three games in four are played by [`RandomBots`] (uniformly random
//!   legal answers, the conservation invariant and cached totals checked
//!   before every decision); one game in four by one randomly generated
//!   strategy file per seat ([`random_strategy`]: text written from the
//!   documented vocabulary, parsed, compiled for the kingdom and played by
//!   [`StrategyBots`], with the same invariant check before every decision).
//!
//! Per game it checks: no panic (each game runs under `catch_unwind`; the
//! report names the game index), no invariant violation, no card left aside
//! at the end of a turn, no illegal answer from the random bots, and no
//! runaway turn (the engine's per-turn guard
//! [`crate::engine::MAX_ACTION_PLAYS_PER_TURN`]) besides the game turn cap.
//! Games stopped by the turn cap are counted and the first ones listed (random
//! or silly strategies can legitimately stall: a strategy that never buys);
//! they are never silent. The report gives the games played, the distinct
//! kingdoms, every card never played (and never gained), the decisions
//! checked and the time taken.
//!
//! **Data cards** ([`run_with_cards`], `soak --cards FILE…`): every kingdom
//! then holds 1 to 10 of the bound data cards (drawn from `(S, i)`), the
//! rest drawn from the printed sets, and the same checks apply. A setup
//! the engine refuses (the cards of the game do not fit its zones:
//! [`crate::engine::SetupError::TooManyCards`]) is tried again with 2
//! players, and counted apart if it still does not fit: a refusal is the
//! documented answer, not a failure. The report says how often each data
//! card was played and gained.

use crate::bots::RandomBots;
use crate::cards::{Card, Set};
use crate::engine::{Bots, Choose, Event, Game, GameRng, Kingdom, Pick, YesNo};
use crate::strategy::options::{Kind, FUNS, OPTIONS, VARS};
use crate::strategy::{self, ListKind, StrategyBots};
use rayon::prelude::*;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How many problems of each kind are kept with their details.
const KEEP: usize = 10;
/// Games per scheduling block (between stop checks).
const BLOCK: u64 = 4096;

/// How to soak.
#[derive(Clone, Copy, Debug)]
pub struct SoakConfig {
    pub games: u64,
    pub seed: u64,
    /// One game in `strategy_every` is played by generated strategy files
    /// (0 = never).
    pub strategy_every: u64,
}

impl SoakConfig {
    pub fn new(games: u64, seed: u64) -> Self {
        SoakConfig {
            games,
            seed,
            strategy_every: 4,
        }
    }
}

/// One reported game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub index: u64,
    pub what: String,
}

/// What a soak found. Mergeable (games are independent).
#[derive(Clone, Debug, Default)]
pub struct SoakReport {
    pub games: u64,
    pub random_games: u64,
    pub strategy_games: u64,
    /// Strategy files generated (and parsed and compiled).
    pub strategies: u64,
    /// Decisions asked, each preceded by an invariant check.
    pub decisions: u64,
    /// Distinct kingdoms (sets of 10 cards).
    pub kingdoms: HashSet<u128>,
    /// Games per player count (index = players).
    pub by_players: [u64; 7],
    pub played: Vec<u64>,
    pub gained: Vec<u64>,
    /// Games stopped by the game turn cap (of which with generated strategies).
    pub turn_capped: u64,
    pub turn_capped_strategy: u64,
    pub turn_capped_first: Vec<Problem>,
    /// Turns stopped by the per-turn Action guard.
    pub action_capped: u64,
    /// Games with an illegal answer (strategy games: the evaluator answered
    /// something illegal; random games: a failure).
    pub strategy_faults: u64,
    /// The data cards soaked ([`run_with_cards`]; empty otherwise).
    pub data_cards: Vec<Card>,
    /// Data-card kingdoms refused at setup even with 2 players (their cards
    /// do not fit a game); the first ones listed.
    pub setups_refused: u64,
    pub setups_refused_first: Vec<Problem>,
    /// Panics, invariant violations, illegal random answers, runaway turns,
    /// generated strategies rejected: any of these makes the soak fail.
    pub failures: u64,
    pub failures_first: Vec<Problem>,
    pub elapsed: Duration,
    pub interrupted: bool,
}

fn keep(v: &mut Vec<Problem>, p: Problem) {
    v.push(p);
    v.sort_by_key(|p| p.index);
    v.truncate(KEEP);
}

impl SoakReport {
    fn empty() -> Self {
        SoakReport {
            played: vec![0; Card::COUNT],
            gained: vec![0; Card::COUNT],
            ..Default::default()
        }
    }

    fn fail(&mut self, index: u64, what: String) {
        self.failures += 1;
        keep(&mut self.failures_first, Problem { index, what });
    }

    fn merge(mut self, o: SoakReport) -> SoakReport {
        self.games += o.games;
        self.random_games += o.random_games;
        self.strategy_games += o.strategy_games;
        self.strategies += o.strategies;
        self.decisions += o.decisions;
        self.kingdoms.extend(o.kingdoms);
        for i in 0..7 {
            self.by_players[i] += o.by_players[i];
        }
        for c in 0..Card::COUNT {
            self.played[c] += o.played[c];
            self.gained[c] += o.gained[c];
        }
        self.turn_capped += o.turn_capped;
        self.turn_capped_strategy += o.turn_capped_strategy;
        for p in o.turn_capped_first {
            keep(&mut self.turn_capped_first, p);
        }
        self.action_capped += o.action_capped;
        self.setups_refused += o.setups_refused;
        for p in o.setups_refused_first {
            keep(&mut self.setups_refused_first, p);
        }
        if self.data_cards.is_empty() {
            self.data_cards = o.data_cards;
        }
        self.strategy_faults += o.strategy_faults;
        self.failures += o.failures;
        for p in o.failures_first {
            keep(&mut self.failures_first, p);
        }
        self
    }

    /// Kingdom cards of the implemented sets never played in any game.
    /// Cards without an "on play" (Victory-only cards) are listed apart by
    /// [`SoakReport::never_gained`].
    pub fn never_played(&self) -> Vec<Card> {
        Card::PRINTED
            .iter()
            .copied()
            .filter(|&c| {
                (c.is_action() || c.is_treasure())
                    && c != Card::Knights
                    && c != Card::Ruins
                    && self.played[c as usize] == 0
            })
            .collect()
    }

    /// Cards never gained by anyone (bought or gained otherwise). Split
    /// piles count by their cards: the pile names `Knights` and `Ruins`
    /// never reach a zone (each Knight and each Ruins card is counted
    /// instead), and the cards that cannot be gained by design
    /// ([`SoakReport::ungainable`]) are left out.
    pub fn never_gained(&self) -> Vec<Card> {
        Card::PRINTED
            .iter()
            .copied()
            .filter(|&c| {
                self.gained[c as usize] == 0
                    && c != Card::Knights
                    && c != Card::Ruins
                    && !Self::ungainable().contains(&c)
            })
            .collect()
    }

    /// Cards no game can gain, by design: the Shelters (Hovel, Necropolis,
    /// Overgrown Estate) start in the players' decks and have no pile.
    pub fn ungainable() -> Vec<Card> {
        crate::cards::CardSet::SHELTERS.iter().collect()
    }

    pub fn ok(&self) -> bool {
        self.failures == 0
    }

    /// The human-readable summary.
    pub fn text(&self, cfg: &SoakConfig) -> String {
        let mut s = String::new();
        let secs = self.elapsed.as_secs_f64();
        let _ = writeln!(
            s,
            "soak: {} games (seed {}) in {:.1} s ({:.0} games/s){}",
            self.games,
            cfg.seed,
            secs,
            self.games as f64 / secs.max(1e-9),
            if self.interrupted {
                format!(", INTERRUPTED after {} of {}", self.games, cfg.games)
            } else {
                String::new()
            }
        );
        let _ = writeln!(
            s,
            "  {} with random bots, {} with generated strategy files ({} files parsed and compiled)",
            self.random_games, self.strategy_games, self.strategies
        );
        let per: Vec<String> = (2..=6)
            .map(|p| format!("{p}p: {}", self.by_players[p]))
            .collect();
        let _ = writeln!(s, "  players: {}", per.join(", "));
        let _ = writeln!(s, "  distinct kingdoms: {}", self.kingdoms.len());
        let _ = writeln!(
            s,
            "  decisions checked (conservation invariant + cached totals before each): {}",
            self.decisions
        );
        let playable = Card::PRINTED
            .iter()
            .filter(|c| c.is_action() || c.is_treasure())
            .count();
        let np = self.never_played();
        let _ = writeln!(
            s,
            "  cards played: {} of {} playable cards; never played: {}",
            playable - np.len(),
            playable,
            names(&np)
        );
        let _ = writeln!(
            s,
            "  cards never gained: {} (split piles counted by their cards; not gainable by design: {})",
            names(&self.never_gained()),
            names(&Self::ungainable())
        );
        if !self.data_cards.is_empty() {
            let each: Vec<String> = self
                .data_cards
                .iter()
                .map(|&c| {
                    format!(
                        "{} played {}, gained {}",
                        c.name(),
                        self.played[c as usize],
                        self.gained[c as usize]
                    )
                })
                .collect();
            let _ = writeln!(s, "  data cards: {}", each.join("; "));
            let _ = writeln!(
                s,
                "  data-card kingdoms refused at setup (their cards do not fit one game, even with 2 players): {}{}",
                self.setups_refused,
                first(&self.setups_refused_first)
            );
        }
        let _ = writeln!(
            s,
            "  games stopped by the turn cap: {} ({} random-bot, {} generated-strategy games){}",
            self.turn_capped,
            self.turn_capped - self.turn_capped_strategy,
            self.turn_capped_strategy,
            first(&self.turn_capped_first)
        );
        let _ = writeln!(
            s,
            "  turns stopped by the per-turn action cap ({}): {}",
            crate::engine::MAX_ACTION_PLAYS_PER_TURN,
            self.action_capped
        );
        let _ = writeln!(
            s,
            "  strategy games with an illegal answer (replaced by the default): {}",
            self.strategy_faults
        );
        let _ = writeln!(
            s,
            "  failures (panic, invariant, illegal random answer, runaway turn, rejected generated strategy): {}{}",
            self.failures,
            first(&self.failures_first)
        );
        s
    }
}

fn names(v: &[Card]) -> String {
    if v.is_empty() {
        "none".into()
    } else {
        v.iter().map(|c| c.name()).collect::<Vec<_>>().join(", ")
    }
}

fn first(v: &[Problem]) -> String {
    let mut s = String::new();
    for p in v {
        let _ = write!(s, "\n    game {}: {}", p.index, p.what);
    }
    s
}

/// Every card set with implemented Kingdom cards.
pub fn implemented_sets() -> Vec<Set> {
    Set::ALL
        .into_iter()
        .filter(|&s| s != Set::Basic && Card::ALL.iter().any(|c| c.info().set == s))
        .collect()
}

/// The bots of one soak game: counts plays and gains, optionally checks the
/// invariants before every decision, and checks nothing is left aside at
/// the start of each turn.
struct Watch<B> {
    inner: B,
    check: bool,
    decisions: u64,
    violation: Option<String>,
    played: [u32; Card::COUNT],
    gained: [u32; Card::COUNT],
}

impl<B> Watch<B> {
    fn new(inner: B, check: bool) -> Self {
        Watch {
            inner,
            check,
            decisions: 0,
            violation: None,
            played: [0; Card::COUNT],
            gained: [0; Card::COUNT],
        }
    }
    fn verify(&mut self, g: &Game) {
        if !self.check {
            return;
        }
        self.decisions += 1;
        if self.violation.is_none() {
            if let Err(e) = g.check_invariants() {
                self.violation = Some(format!(
                    "turn {} of seat {}: {e}",
                    g.turns_taken[g.active as usize], g.active
                ));
            }
        }
    }
}

impl<B: Bots> Bots for Watch<B> {
    fn pick(&mut self, g: &Game, q: &Pick) -> Option<Card> {
        self.verify(g);
        self.inner.pick(g, q)
    }
    fn yes_no(&mut self, g: &Game, q: &YesNo) -> bool {
        self.verify(g);
        self.inner.yes_no(g, q)
    }
    fn choose(&mut self, g: &Game, q: &Choose) -> u8 {
        self.verify(g);
        self.inner.choose(g, q)
    }
    fn event(&mut self, g: &Game, e: Event) {
        match e {
            Event::Play { card, .. } => self.played[card as usize] += 1,
            Event::Gain { card, .. } => self.gained[card as usize] += 1,
            Event::TurnStart { .. } if self.violation.is_none() => {
                for p in 0..g.n() {
                    if !g.players[p].aside.is_empty() {
                        self.violation = Some(format!(
                            "seat {p} has cards left aside at a turn start: {:?}",
                            g.players[p].aside
                        ));
                    }
                }
            }
            _ => {}
        }
        self.inner.event(g, e);
    }
}

// ---------------------------------------------------------------------------
// Random strategy files

struct Gen<'a> {
    rng: &'a mut GameRng,
    /// Cards a strategy of this kingdom may name (mostly the kingdom's).
    cards: Vec<Card>,
}

impl Gen<'_> {
    fn below(&mut self, n: usize) -> usize {
        self.rng.below(n.max(1) as u32) as usize
    }
    fn chance(&mut self, one_in: u32) -> bool {
        self.rng.below(one_in) == 0
    }
    fn card(&mut self) -> Card {
        // Now and then a card outside the kingdom (the compiler must warn,
        // not fail).
        if self.chance(20) {
            return Card::PRINTED[self.below(Card::PRINTED.len())];
        }
        let j = self.below(self.cards.len());
        self.cards[j]
    }
    fn subject(&mut self) -> String {
        if self.chance(4) {
            let t = crate::cards::Types::NAMES;
            t[self.below(t.len())].0.to_string()
        } else {
            self.card().name().to_string()
        }
    }
    fn int(&mut self, depth: u32) -> String {
        let k = if depth == 0 {
            self.below(3)
        } else {
            self.below(6)
        };
        match k {
            0 => self.below(20).to_string(),
            1 => VARS[self.below(VARS.len())].0.to_string(),
            2 => {
                let (name, _, _) = FUNS[self.below(FUNS.len())];
                let arg = if name == "cost" || name == "card" {
                    self.card().name().to_string()
                } else {
                    self.subject()
                };
                format!("{name}({arg})")
            }
            3 => {
                let op = ["+", "-", "*", "/", "%"][self.below(5)];
                format!("{} {op} {}", self.int(depth - 1), self.int(depth - 1))
            }
            4 => format!("({})", self.int(depth - 1)),
            _ => format!("-{}", self.below(5)),
        }
    }
    fn cond(&mut self, depth: u32) -> String {
        let k = if depth == 0 { 0 } else { self.below(5) };
        match k {
            0 | 1 => {
                let op = ["<", "<=", ">", ">=", "==", "!=", "="][self.below(7)];
                format!("{} {op} {}", self.int(depth.min(2)), self.int(depth.min(2)))
            }
            2 => format!(
                "{} {} {}",
                self.cond(depth - 1),
                ["and", "or"][self.below(2)],
                self.cond(depth - 1)
            ),
            3 => format!("not ({})", self.cond(depth - 1)),
            _ => format!("({})", self.cond(depth - 1)),
        }
    }
    fn entry(&mut self, allow_none: bool) -> String {
        let mut e = if allow_none && self.chance(12) {
            return "none".into();
        } else {
            self.subject()
        };
        if self.chance(3) {
            let _ = write!(e, " max {}", self.below(6));
        }
        if self.chance(8) {
            let _ = write!(e, " keep {}", self.below(4));
        }
        if self.chance(2) {
            let _ = write!(e, " if {}", self.cond(3));
        }
        e
    }
    fn list(&mut self, out: &mut String, header: &str, allow_none: bool) {
        let _ = writeln!(out, "{header}:");
        for _ in 0..1 + self.below(6) {
            let _ = writeln!(out, "    {}", self.entry(allow_none));
        }
    }
}

/// A random but valid strategy file for `k`: every list of the vocabulary
/// (`buy` always), settings, and per-card options of the kingdom's cards
/// from [`OPTIONS`], with random conditions built from [`VARS`] and
/// [`FUNS`]. The text always parses; compiling it may warn.
pub fn random_strategy(rng: &mut GameRng, k: &Kingdom) -> String {
    let mut cards = k.kingdom_cards();
    cards.extend([
        Card::Copper,
        Card::Silver,
        Card::Gold,
        Card::Estate,
        Card::Duchy,
        Card::Province,
        Card::Curse,
    ]);
    let mut g = Gen { rng, cards };
    let mut s = String::from("# generated by domsim soak\n");
    let _ = writeln!(s, "name: soak {}", g.rng.next_u64() % 1_000_000);
    if g.chance(3) {
        let _ = writeln!(s, "safe_ending: {}", ["on", "off"][g.below(2)]);
    }
    if g.chance(3) {
        let _ = writeln!(s, "penultimate_province: {}", ["yes", "no"][g.below(2)]);
    }
    // The buy list: random entries, usually with plain money and Province
    // lines among them so that most games end by the rules (the others
    // stall until the turn cap, which is reported).
    let _ = writeln!(s, "buy:");
    let mut lines: Vec<String> = (0..1 + g.below(6)).map(|_| g.entry(false)).collect();
    for plain in ["Province", "Gold", "Silver"] {
        if !g.chance(5) {
            let at = g.below(lines.len() + 1);
            lines.insert(at, plain.to_string());
        }
    }
    for l in lines {
        let _ = writeln!(s, "    {l}");
    }
    for l in ListKind::ALL {
        if l != ListKind::Buy && g.chance(2) {
            g.list(&mut s, l.name(), false);
        }
    }
    for o in OPTIONS {
        if !k.kingdom.contains(o.card) || !g.chance(2) {
            continue;
        }
        let head = format!("{} {}", o.card.name(), o.name);
        match o.kind {
            Kind::List => g.list(&mut s, &head, true),
            Kind::Bool => {
                let v = match g.below(3) {
                    0 => "yes".to_string(),
                    1 => "no".to_string(),
                    _ => g.cond(2),
                };
                let _ = writeln!(s, "{head}: {v}");
            }
            Kind::Int => {
                let _ = writeln!(s, "{head}: {}", g.below(3));
            }
        }
    }
    s
}

// ---------------------------------------------------------------------------
// Running

fn panic_text(e: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = e.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = e.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic with a non-text payload".into()
    }
}

/// The kingdom of data-card soak game `i`: 1 to 10 of `data` (at most
/// all of them), the rest drawn from the printed `sets`; with 2 players if
/// `players` cannot hold its cards. `Ok(None)`: refused even then.
fn data_kingdom(
    rng: &mut GameRng,
    players: usize,
    sets: &[Set],
    data: &[Card],
) -> Result<Option<Kingdom>, String> {
    let mut pool = data.to_vec();
    rng.shuffle(&mut pool);
    let m = 1 + rng.below(data.len().min(10) as u32) as usize;
    let mut cards = pool[..m].to_vec();
    let fill = Kingdom::fill_cards(&cards, sets, rng.next_u64(), |_| true)
        .map_err(|e| format!("no random kingdom: {e}"))?;
    cards.extend(fill);
    for p in [players, 2] {
        match Kingdom::new(p, &cards) {
            Ok(k) => return Ok(Some(k)),
            Err(crate::engine::SetupError::TooManyCards(_)) => continue,
            Err(e) => return Err(format!("no kingdom of {}: {e}", names(&cards))),
        }
    }
    Ok(None)
}

/// Play soak game `i` into `r` (with `data` cards in its kingdom, if any).
fn soak_game(cfg: &SoakConfig, sets: &[Set], data: &[Card], i: u64, r: &mut SoakReport) {
    let mut rng = GameRng::for_game(cfg.seed, i ^ 0x50A4_0000_0000_0000);
    let players = 2 + rng.below(5) as usize;
    let k = if data.is_empty() {
        Kingdom::random(players, sets, rng.next_u64())
            .map_err(|e| format!("no random kingdom: {e}"))
    } else {
        match data_kingdom(&mut rng, players, sets, data) {
            Ok(Some(k)) => Ok(k),
            Ok(None) => {
                r.setups_refused += 1;
                let what = format!("{players} players: the game's cards do not fit");
                return keep(&mut r.setups_refused_first, Problem { index: i, what });
            }
            Err(e) => Err(e),
        }
    };
    let mut k = match k {
        Ok(k) => k,
        Err(e) => return r.fail(i, e),
    };
    let players = k.n();
    // The soak plays with the turn counters on (generated strategies may
    // read them), which also keeps that engine path under test.
    k.track_turn = true;
    r.games += 1;
    r.by_players[players] += 1;
    r.kingdoms.insert(k.kingdom.0);
    let desc = || format!("{players} players; {}", k.describe());
    let strategies = cfg.strategy_every > 0 && i % cfg.strategy_every == cfg.strategy_every - 1;
    let res = catch_unwind(AssertUnwindSafe(|| {
        let mut g = Game::new(&k, cfg.seed, i);
        if strategies {
            let mut compiled = Vec::new();
            for seat in 0..players {
                let text = random_strategy(&mut rng, &k);
                let name = format!("soak-{i}-{seat}.dom");
                let st = strategy::parse(&text, &name)
                    .map_err(|e| format!("generated strategy rejected: {e}\n{text}"))?;
                let (c, _warnings) = st
                    .compile(&k)
                    .map_err(|e| format!("generated strategy does not compile: {e}\n{text}"))?;
                compiled.push(c);
            }
            let refs: Vec<_> = compiled.iter().collect();
            let mut b = Watch::new(StrategyBots::new(&refs), true);
            g.play_game(&mut b);
            Ok::<_, String>((g, b.decisions, b.violation, b.played, b.gained, players))
        } else {
            let mut b = Watch::new(RandomBots::new(cfg.seed ^ i.rotate_left(17), true), false);
            g.play_game(&mut b);
            let v = b.violation.or(b.inner.violation);
            Ok((g, b.inner.decisions, v, b.played, b.gained, 0))
        }
    }));
    match res {
        Err(e) => r.fail(i, format!("PANIC: {} ({})", panic_text(&*e), desc())),
        Ok(Err(msg)) => r.fail(i, format!("{msg} ({})", desc())),
        Ok(Ok((g, decisions, violation, played, gained, nstrat))) => {
            if strategies {
                r.strategy_games += 1;
                r.strategies += nstrat as u64;
            } else {
                r.random_games += 1;
            }
            r.decisions += decisions;
            for c in 0..Card::COUNT {
                r.played[c] += played[c] as u64;
                r.gained[c] += gained[c] as u64;
            }
            if let Some(v) = violation {
                r.fail(i, format!("invariant: {v} ({})", desc()));
            } else if let Err(e) = g.check_invariants() {
                r.fail(i, format!("invariant at the end: {e} ({})", desc()));
            }
            if g.action_capped > 0 {
                r.action_capped += g.action_capped as u64;
                r.fail(
                    i,
                    format!(
                        "{} turn(s) hit the per-turn action cap ({})",
                        g.action_capped,
                        desc()
                    ),
                );
            }
            if let Some(f) = g.fault {
                if strategies {
                    r.strategy_faults += 1;
                } else {
                    r.fail(i, format!("illegal random answer: {f} ({})", desc()));
                }
            }
            if g.capped {
                r.turn_capped += 1;
                r.turn_capped_strategy += strategies as u64;
                let who = if strategies {
                    "generated strategies"
                } else {
                    "random bots"
                };
                keep(
                    &mut r.turn_capped_first,
                    Problem {
                        index: i,
                        what: format!("{who}, {}", desc()),
                    },
                );
            }
        }
    }
}

/// Run the soak on the current rayon pool. Games are independent and
/// derived from `(cfg.seed, i)`, so the figures do not depend on threads.
/// `stop` (Ctrl-C) ends the run after the games in progress.
pub fn run(cfg: &SoakConfig, stop: &AtomicBool) -> SoakReport {
    run_with_cards(cfg, &[], stop)
}

/// [`run`] with data cards: `data` are the slots of the bound data cards
/// ([`crate::cards::data::bound_slots`], or a [`crate::cards::data::Binding`]'s
/// cards), each kingdom holding some of them (see the module doc). With
/// no data cards this is [`run`].
pub fn run_with_cards(cfg: &SoakConfig, data: &[Card], stop: &AtomicBool) -> SoakReport {
    let t0 = Instant::now();
    let sets = implemented_sets();
    let mut total = SoakReport::empty();
    total.data_cards = data.to_vec();
    let mut start = 0;
    while start < cfg.games && !stop.load(Ordering::Relaxed) {
        let end = (start + BLOCK).min(cfg.games);
        let part = (start..end)
            .into_par_iter()
            .fold(SoakReport::empty, |mut r, i| {
                if !stop.load(Ordering::Relaxed) {
                    soak_game(cfg, &sets, data, i, &mut r);
                }
                r
            })
            .reduce(SoakReport::empty, SoakReport::merge);
        total = total.merge(part);
        start = end;
    }
    total.interrupted = total.games < cfg.games;
    total.elapsed = t0.elapsed();
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_strategies_parse_and_compile() {
        let sets = implemented_sets();
        for i in 0..300 {
            let mut k = Kingdom::random(2 + (i % 5) as usize, &sets, i).unwrap();
            k.track_turn = true;
            let mut rng = GameRng::for_game(7, i);
            let text = random_strategy(&mut rng, &k);
            let st = strategy::parse(&text, "gen.dom")
                .unwrap_or_else(|e| panic!("{e}\n--- text ---\n{text}"));
            st.compile(&k)
                .unwrap_or_else(|e| panic!("{e}\n--- text ---\n{text}"));
        }
    }
}
