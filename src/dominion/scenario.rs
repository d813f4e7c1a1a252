//! The scenario notation: a readable text description of a game state, the
//! scripted answers of the players, moves to make, and expectations about the
//! result. Tests are written in it (`tests/scenarios/*.txt`), and users run it
//! with `domsim scenario FILE` to check a ruling. The format is documented in
//! README.md ("Scenario notation").
//!
//! Dark Ages additions (backward compatible):
//! * `kingdom: Knights` gives the Knights pile (one pile of the 10 Knights,
//!   Dame Anna on top by default); a Looter in the kingdom gives the Ruins pile
//!   (kinds cycling from the top by default); Bandit Camp/Marauder/Pillage,
//!   Hermit and Urchin give the Spoils, Madman and Mercenary non-Supply piles.
//! * `knights: Sir Martin, Dame Anna` / `ruins: Ruined Village, Survivors*2`
//!   set such a pile card by card, **top first**; `expect knights: ...` /
//!   `expect ruins: ...` check it (ordered). `supply: Knights=n` is refused
//!   (give the cards); `supply: Spoils=3` sets a non-Supply pile.
//! * Answers to `Choose` questions are numbers (`answers.p0: 1`), documented on
//!   each card in `cards/dark_ages.rs`.
//!
//! ```text
//! # CARDS.md 5.1.4: Throne Room + Feast gains twice
//! players: 2
//! kingdom: Throne Room, Feast
//! p0.hand: Throne Room, Feast, Copper*3
//! answers.p0: Feast, Duchy, Duchy
//! do: play Throne Room
//! expect trash: Feast
//! expect p0.discard: Duchy*2
//! expect supply: Duchy=6
//! expect actions: 0
//! ```
//!
//! Additions (backward compatible):
//! * `strict: yes` — every question a card asks must be answered by the
//!   script: a question answered by its documented default is a failure (so a
//!   question the engine should not have asked fails the scenario, just as an
//!   unused answer does). Turn moves (play an Action, play a Treasure, buy)
//!   asked during `do: turn` / `do: treasures` are exempt.
//! * `expect pN.hand+deck: ...` — the union of several zones of one player
//!   (joined with `+`), compared unordered: e.g. after a shuffle, the cards
//!   split between hand and deck in an unknown way.
//!
//! Turn modifiers (added for Intrigue; all optional, default 0):
//! * set-up keys `cost_reduction: N` (Bridge resolutions this turn),
//!   `copper_bonus: N` (Coppersmith), `action_plays: N` (Action play events
//!   already made this turn, for Conspirator);
//! * `expect cost_reduction: N`, `expect copper_bonus: N`,
//!   `expect action_plays: N`;
//! * `expect cost: Province=6, Gold=4` — current costs (RULES §7);
//! * `expect fault: TEXT` — a bot answer so far was illegal and its message
//!   contains TEXT (the engine then used the documented default); the fault
//!   is cleared, so a scenario can show that an answer is rejected.
//!
//! Choose-one answers (Pawn, Steward, Minion, Nobles, Torturer) are option
//! numbers, e.g. `answers.p1: 1`; their meaning is documented on
//! [`crate::engine::Choose`].

use crate::bots::{Answer, Asked, ScriptedBots};
use crate::cards::{Card, CardSet};
use crate::engine::kingdom::{did_you_mean, MAX_PLAYERS};
use crate::engine::{CardVec, Game, GameRng, Kingdom, Phase, RuleError, Why};
use serde_json::{json, Value};
use std::fmt;

/// A parse or run error, positioned in the scenario text (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioError {
    pub line: usize,
    pub col: usize,
    pub msg: String,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The message may quote the file's text: control characters (a NUL
        // byte, an escape sequence) are written escaped, not sent to the
        // terminal.
        let msg: String = self
            .msg
            .chars()
            .map(|c| {
                if c.is_control() {
                    c.escape_default().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect();
        write!(f, "{}:{}: {msg}", self.line, self.col)
    }
}
impl std::error::Error for ScenarioError {}

fn err<T>(line: usize, col: usize, msg: impl Into<String>) -> Result<T, ScenarioError> {
    Err(ScenarioError {
        line,
        col,
        msg: msg.into(),
    })
}

/// A zone of a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZoneName {
    Hand,
    Deck,
    Discard,
    Play,
    Aside,
}

impl ZoneName {
    fn parse(s: &str) -> Option<ZoneName> {
        Some(match s {
            "hand" => ZoneName::Hand,
            "deck" => ZoneName::Deck,
            "discard" => ZoneName::Discard,
            "play" => ZoneName::Play,
            "aside" => ZoneName::Aside,
            _ => return None,
        })
    }
    pub fn name(self) -> &'static str {
        match self {
            ZoneName::Hand => "hand",
            ZoneName::Deck => "deck",
            ZoneName::Discard => "discard",
            ZoneName::Play => "play",
            ZoneName::Aside => "aside",
        }
    }
    /// Whether the order of this zone matters (listed top card first).
    fn ordered(self) -> bool {
        matches!(
            self,
            ZoneName::Deck | ZoneName::Discard | ZoneName::Play | ZoneName::Aside
        )
    }
}

/// One move of the scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Play an Action from hand (spends an action), or a Treasure.
    Play(Card),
    /// Play every Treasure in hand (answers from the script if it has them,
    /// else all of them).
    Treasures,
    Buy(Card),
    /// Cleanup of the active player's turn (and pass the turn).
    Cleanup,
    /// A whole turn of the active player, every question from the script
    /// (then defaults).
    Turn,
}

/// A check on the state, at its position in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    Zone {
        player: u8,
        zone: ZoneName,
        cards: Vec<Card>,
        unordered: bool,
    },
    ZoneSize {
        player: u8,
        zone: ZoneName,
        size: usize,
    },
    /// The union of several zones of one player, unordered (`pN.a+b`).
    Zones {
        player: u8,
        zones: Vec<ZoneName>,
        cards: Vec<Card>,
    },
    Trash(Vec<Card>),
    /// The number of cards in the trash.
    TrashSize(usize),
    /// What one copy of each card is worth to a player now (`pN.vp_of`).
    VpOf(u8, Vec<(Card, i32)>),
    /// The questions asked since the previous `expect asked` (or the start),
    /// in order, other than playing and buying: (player, text each contains).
    Asked(Vec<(u8, String)>),
    /// A pile of distinct cards (Knights, Ruins), top card first.
    Pile(Card, Vec<Card>),
    Supply(Vec<(Card, u8)>),
    Actions(u16),
    Buys(u16),
    Coins(u16),
    Vp(u8, i32),
    Over(bool),
    Winners(Vec<u8>),
    Active(u8),
    /// The previous `do:` step failed with a message containing this text.
    Error(String),
    CostReduction(u8),
    CopperBonus(u8),
    ActionPlays(u16),
    /// Current costs of cards.
    Cost(Vec<(Card, u8)>),
    /// A fault (illegal bot answer) containing this text was recorded.
    Fault(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Item {
    Step(Step),
    Expect(Expect),
}

/// A parsed scenario: the initial state, scripted answers, steps and checks.
#[derive(Clone)]
pub struct Scenario {
    pub game: Game,
    pub bots: ScriptedBots,
    items: Vec<(usize, Item)>,
    /// `strict: yes`: a defaulted answer to a card's question is a failure.
    pub strict: bool,
}

/// What running a scenario produced.
pub struct Report {
    pub game: Game,
    pub transcript: Vec<Asked>,
    /// Failed expectations (line: message).
    pub failures: Vec<String>,
    /// Expectations checked.
    pub checked: usize,
    /// Scripted answers never asked for.
    pub unused_answers: usize,
    /// Script answers of the wrong shape.
    pub mismatches: Vec<String>,
}

impl Report {
    pub fn passed(&self) -> bool {
        self.failures.is_empty() && self.mismatches.is_empty() && self.unused_answers == 0
    }
}

/// Split a comma-separated value into (column, text) parts.
fn parts(v: &str, col0: usize) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut off = 0;
    for part in v.split(',') {
        let lead = part.len() - part.trim_start().len();
        let t = part.trim();
        if !t.is_empty() {
            out.push((col0 + off + lead, t));
        }
        off += part.len() + 1;
    }
    out
}

fn card_at(name: &str, line: usize, col: usize) -> Result<Card, ScenarioError> {
    if Card::from_name(name).is_none() {
        if let Some((card, set)) = crate::cards::other_sets::other_set(name) {
            return err(line, col, crate::cards::other_sets::not_covered(card, set));
        }
    }
    Card::from_name(name).map_or_else(
        || {
            err(
                line,
                col,
                format!(
                    "unknown card '{name}'{}",
                    did_you_mean(&Card::suggest(name).map(|c| c.name()))
                ),
            )
        },
        Ok,
    )
}

/// "Copper*3", "Copper x3", "3 Copper" or "Copper".
fn card_count(t: &str, line: usize, col: usize) -> Result<(Card, usize), ScenarioError> {
    let (name, n) = if let Some((a, b)) = t.rsplit_once('*') {
        (a.trim(), Some(b.trim()))
    } else if let Some((a, b)) = t.rsplit_once(" x") {
        if b.trim().chars().all(|c| c.is_ascii_digit()) && !b.trim().is_empty() {
            (a.trim(), Some(b.trim()))
        } else {
            (t, None)
        }
    } else if let Some((a, b)) = t.split_once(' ') {
        if a.chars().all(|c| c.is_ascii_digit()) {
            (b.trim(), Some(a))
        } else {
            (t, None)
        }
    } else {
        (t, None)
    };
    let n = match n {
        Some(s) => match s.parse::<usize>() {
            Ok(n) if n <= 200 => n,
            _ => return err(line, col, format!("bad count '{s}' (expected 0 to 200)")),
        },
        None => 1,
    };
    Ok((card_at(name, line, col)?, n))
}

/// A card list: "Copper*3, Estate, -" (empty: "" or "-").
fn card_list(v: &str, line: usize, col0: usize) -> Result<Vec<Card>, ScenarioError> {
    let mut out = Vec::new();
    for (col, t) in parts(v, col0) {
        if t == "-" {
            continue;
        }
        let (c, n) = card_count(t, line, col)?;
        out.extend(std::iter::repeat_n(c, n));
    }
    Ok(out)
}

/// A turn counter of the set-up (actions, coins...): a number up to `max`.
/// Real turns stay far below these limits; larger values would overflow the
/// engine's counters once a card adds to them (hardening, issue 8).
fn counter<T: Num>(v: &str, line: usize, col: usize, max: u64) -> Result<T, ScenarioError> {
    if v.trim().starts_with('-') {
        return err(
            line,
            col,
            format!("{} is out of range (expected 0..={max})", clip(v.trim())),
        );
    }
    let n: u64 = number(v, line, col)?;
    if n > max {
        return err(
            line,
            col,
            format!("{} is too large (expected 0..={max})", clip(v.trim())),
        );
    }
    number(v, line, col)
}

/// An integer type a scenario number is read into, with its range (for
/// the message when a number does not fit).
trait Num: std::str::FromStr {
    const MIN: i128;
    const MAX: i128;
}

macro_rules! num {
    ($($t:ty),*) => {$(
        impl Num for $t {
            const MIN: i128 = <$t>::MIN as i128;
            const MAX: i128 = <$t>::MAX as i128;
        }
    )*};
}
num!(u8, u16, u32, u64, usize, i8, i16, i32, i64);

fn number<T: Num>(v: &str, line: usize, col: usize) -> Result<T, ScenarioError> {
    let v = v.trim();
    v.parse().or_else(|_| {
        let digits = v.strip_prefix('-').unwrap_or(v);
        let msg = if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            format!(
                "{} is out of range (expected {}..={})",
                clip(v),
                T::MIN,
                T::MAX
            )
        } else {
            format!("expected a number, found '{}'", clip(v))
        };
        err(line, col, msg)
    })
}

/// `s` cut to 40 characters with an ellipsis (a quoted value of a huge
/// line stays readable).
fn clip(s: &str) -> String {
    match s.char_indices().nth(40) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

fn player_index(s: &str, players: usize, line: usize, col: usize) -> Result<u8, ScenarioError> {
    let p = s
        .strip_prefix('p')
        .and_then(|d| d.parse::<usize>().ok())
        .filter(|&p| p < MAX_PLAYERS);
    match p {
        Some(p) if p < players => Ok(p as u8),
        Some(p) => err(
            line,
            col,
            format!("player p{p} does not exist in a {players}-player game"),
        ),
        None => err(
            line,
            col,
            format!("expected a player p0..p{}, found '{s}'", players - 1),
        ),
    }
}

fn yes_no(v: &str, line: usize, col: usize) -> Result<bool, ScenarioError> {
    match v.trim() {
        "yes" | "true" => Ok(true),
        "no" | "false" => Ok(false),
        o => err(line, col, format!("expected yes or no, found '{o}'")),
    }
}

const KEYS: &[&str] = &[
    "players",
    "kingdom",
    "supply",
    "seed",
    "active",
    "turns",
    "actions",
    "buys",
    "coins",
    "phase",
    "cost_reduction",
    "copper_bonus",
    "action_plays",
    "trash",
    "knights",
    "ruins",
    "strict",
    "do",
    "expect",
    "answers",
    "strategy",
    "p0.hand",
    "p0.deck",
    "p0.discard",
    "p0.play",
    "p0.aside",
];

impl Scenario {
    /// Parse a scenario from its text.
    pub fn parse(text: &str) -> Result<Scenario, ScenarioError> {
        // A byte-order mark some editors write is not part of the text.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        // Pass 1: header keys needed to build the game (players, kingdom, seed).
        let mut players = 2usize;
        let mut kingdom: Vec<Card> = Vec::new();
        let mut seed = 0u64;
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.split('#').next().unwrap_or("")))
            .filter(|(_, l)| !l.trim().is_empty())
            .collect();
        let split = |line: usize, l: &str| -> Result<(String, usize, String), ScenarioError> {
            let Some((k, v)) = l.split_once(':') else {
                let col = l.len() - l.trim_start().len() + 1;
                return err(
                    line,
                    col,
                    format!("expected 'key: value', found '{}'", l.trim()),
                );
            };
            let vcol = k.len() + 2 + (v.len() - v.trim_start().len());
            Ok((k.trim().to_string(), vcol, v.trim().to_string()))
        };
        for &(line, l) in &lines {
            let (k, vcol, v) = split(line, l)?;
            match k.as_str() {
                "players" => {
                    players = number(&v, line, vcol)?;
                    if !(2..=MAX_PLAYERS).contains(&players) {
                        return err(line, vcol, format!("player count {players} is outside 2–6"));
                    }
                }
                "kingdom" => {
                    for (col, t) in parts(&v, vcol) {
                        kingdom.push(card_at(t, line, col)?);
                    }
                }
                "seed" => seed = number(&v, line, vcol)?,
                _ => {}
            }
        }
        let mut k = Kingdom::with_piles(players, &kingdom).map_err(|e| ScenarioError {
            line: lines
                .iter()
                .find(|(_, l)| l.trim_start().starts_with("kingdom"))
                .map_or(1, |x| x.0),
            col: 1,
            msg: e.to_string(),
        })?;
        // Every card mentioned anywhere may appear in the game.
        for &(line, l) in &lines {
            let (key, vcol, v) = split(line, l)?;
            if key.starts_with('p') && key.contains('.') || key == "trash" {
                for c in card_list(&v, line, vcol)? {
                    k.in_game.insert(c);
                }
            }
        }
        k.refresh_flags();
        let mut game = Game::empty(&k, GameRng::for_game(seed, 0));
        let mut bots = ScriptedBots::new();
        let mut items = Vec::new();
        let mut turns_set = false;
        let mut strict = false;
        // `strategy.pN:` lines, joined (first line, text).
        let mut strategy_text: [(Option<usize>, String); MAX_PLAYERS] = Default::default();

        for &(line, l) in &lines {
            let (key, vcol, v) = split(line, l)?;
            let key_col = l.len() - l.trim_start().len() + 1;
            match key.as_str() {
                "players" | "kingdom" | "seed" => {}
                "strict" => strict = yes_no(&v, line, vcol)?,
                "supply" => {
                    for (col, t) in parts(&v, vcol) {
                        let Some((name, n)) = t.split_once('=') else {
                            return err(line, col, format!("expected 'Card=count', found '{t}'"));
                        };
                        let c = card_at(name.trim(), line, col)?;
                        if CardSet::PILES.contains(c) {
                            return err(
                                line,
                                col,
                                format!("the {c} pile is given card by card: use '{}: CARD, ...' (top first)", c.name().to_lowercase()),
                            );
                        }
                        if !game.kingdom.supply.or(game.kingdom.non_supply).contains(c) {
                            return err(
                                line,
                                col,
                                format!("{c} is not a Supply pile of this scenario (add it to 'kingdom:')"),
                            );
                        }
                        game.supply[c as usize] = number(n, line, col + name.len() + 1)?;
                    }
                }
                "active" => {
                    game.active = if v.trim_start().starts_with('p') {
                        player_index(v.trim(), players, line, vcol)?
                    } else {
                        number::<u8>(&v, line, vcol)?
                    };
                    if game.active as usize >= players {
                        return err(line, vcol, "active player out of range");
                    }
                }
                "turns" => {
                    for (i, (col, t)) in parts(&v, vcol).into_iter().enumerate() {
                        if i >= players {
                            return err(line, col, "more turn counts than players");
                        }
                        game.turns_taken[i] = counter(t, line, col, 10_000)?;
                    }
                    turns_set = true;
                }
                "actions" => game.turn.actions = counter(&v, line, vcol, 1000)?,
                "buys" => game.turn.buys = counter(&v, line, vcol, 1000)?,
                "coins" => game.turn.coins = counter(&v, line, vcol, 1000)?,
                "cost_reduction" => game.turn.cost_reduction = counter(&v, line, vcol, 100)?,
                "copper_bonus" => game.turn.copper_bonus = counter(&v, line, vcol, 100)?,
                "action_plays" => game.turn.action_plays = counter(&v, line, vcol, 1000)?,
                "phase" => {
                    game.turn.phase = match v.as_str() {
                        "action" => Phase::Action,
                        "buy" => Phase::Buy,
                        "bought" => Phase::Bought,
                        o => {
                            return err(
                                line,
                                vcol,
                                format!("unknown phase '{o}' (expected action, buy or bought)"),
                            )
                        }
                    }
                }
                "trash" => {
                    for c in card_list(&v, line, vcol)? {
                        game.trash.push(c);
                    }
                }
                "knights" | "ruins" => {
                    let pile = if key == "knights" {
                        Card::Knights
                    } else {
                        Card::Ruins
                    };
                    if !game.kingdom.supply.contains(pile) {
                        return err(
                            line,
                            key_col,
                            format!("no {pile} pile in this scenario (add Knights or a Looter to 'kingdom:')"),
                        );
                    }
                    let cards = card_list(&v, line, vcol)?;
                    let member = if pile == Card::Knights {
                        CardSet::KNIGHTS
                    } else {
                        CardSet::RUINS
                    };
                    if let Some(c) = cards.iter().find(|c| !member.contains(**c)) {
                        return err(line, vcol, format!("{c} is not a card of the {pile} pile"));
                    }
                    if cards.len() > 50 {
                        return err(line, vcol, "at most 50 cards in a pile");
                    }
                    game.set_distinct_pile(pile, &cards);
                }
                "do" => items.push((line, Item::Step(parse_step(&v, line, vcol)?))),
                k if k.starts_with("expect") => {
                    let rest = k["expect".len()..].trim();
                    let kcol = key_col + "expect".len() + 1;
                    items.push((
                        line,
                        Item::Expect(parse_expect(rest, &v, players, line, kcol, vcol)?),
                    ));
                }
                k if k.starts_with("strategy.") => {
                    let p = player_index(&k["strategy.".len()..], players, line, key_col + 9)?;
                    let (first, text) = &mut strategy_text[p as usize];
                    first.get_or_insert(line);
                    text.push_str(&v);
                    text.push('\n');
                }
                k if k.starts_with("answers.") => {
                    let p = player_index(&k["answers.".len()..], players, line, key_col + 8)?;
                    for (col, t) in parts(&v, vcol) {
                        let a = match t {
                            "none" => Answer::None,
                            "yes" => Answer::Yes,
                            "no" => Answer::No,
                            _ if t.chars().all(|c| c.is_ascii_digit()) => {
                                Answer::Option(number(t, line, col)?)
                            }
                            _ => {
                                let (c, n) = card_count(t, line, col)?;
                                for _ in 1..n {
                                    bots.push(p, Answer::Card(c));
                                }
                                Answer::Card(c)
                            }
                        };
                        bots.push(p, a);
                    }
                }
                k if k.starts_with('p') && k.contains('.') => {
                    let (ps, zs) = k.split_once('.').unwrap_or((k, ""));
                    let p = player_index(ps, players, line, key_col)?;
                    let Some(zone) = ZoneName::parse(zs) else {
                        return err(
                            line,
                            key_col + ps.len() + 1,
                            format!(
                                "unknown zone '{zs}' (expected hand, deck, discard, play or aside)"
                            ),
                        );
                    };
                    let cards = card_list(&v, line, vcol)?;
                    let pl = &mut game.players[p as usize];
                    let z = zone_mut(pl, zone);
                    if !z.is_empty() {
                        return err(line, key_col, format!("{k} is given twice"));
                    }
                    let ordered: Vec<Card> = if matches!(zone, ZoneName::Deck | ZoneName::Discard) {
                        // Listed top first; stored top last.
                        cards.into_iter().rev().collect()
                    } else {
                        cards
                    };
                    if ordered.len() > crate::engine::MAX_CARDS / 2 {
                        return err(line, vcol, "too many cards in one zone");
                    }
                    for c in ordered {
                        z.push(c);
                    }
                    if zone == ZoneName::Play {
                        for i in 0..pl.play.len() {
                            pl.play_uid[i] = game.next_uid;
                            game.next_uid += 1;
                        }
                    }
                }
                other => {
                    let hint = KEYS
                        .iter()
                        .min_by_key(|k| crate::cards::edit_distance(k, other))
                        .filter(|k| crate::cards::edit_distance(k, other) <= 3)
                        .map(|k| format!(" (did you mean '{k}'?)"))
                        .unwrap_or_default();
                    return err(line, key_col, format!("unknown key '{other}'{hint}"));
                }
            }
        }
        if !turns_set {
            game.turns_taken[game.active as usize] = 1;
        }
        for (p, (first, text)) in strategy_text.iter().enumerate() {
            let Some(line) = *first else { continue };
            let name = format!("strategy.p{p}");
            let compiled = crate::strategy::parse(text, &name)
                .and_then(|st| st.compile(&game.kingdom))
                .map_err(|e| ScenarioError {
                    line: line + e.line.saturating_sub(1),
                    col: 1,
                    msg: format!("{name}: {}", e.msg),
                })?;
            bots.strategy[p] = Some(std::sync::Arc::new(compiled.0));
        }
        game.recount_totals();
        if game.kingdom.total_cards() + 10 * players > crate::engine::MAX_CARDS * 2 {
            return err(1, 1, "scenario has too many cards");
        }

        Ok(Scenario {
            game,
            bots,
            items,
            strict,
        })
    }

    /// The number of `expect …` lines. A scenario *file* must state at
    /// least one (`domsim scenario` refuses one that states none: it would
    /// pass without checking anything).
    pub fn expectations(&self) -> usize {
        self.items
            .iter()
            .filter(|(_, it)| matches!(it, Item::Expect(_)))
            .count()
    }

    /// Run the steps and check the expectations. `Err` for a step that the
    /// rules forbid (unless an `expect error:` follows it).
    pub fn run(mut self) -> Result<Report, ScenarioError> {
        let mut failures = Vec::new();
        let mut checked = 0;
        let mut last_error: Option<(usize, RuleError)> = None;
        let mut asked_from = 0;
        let items = std::mem::take(&mut self.items);
        let mut i = 0;
        while i < items.len() {
            let (line, item) = &items[i];
            match item {
                Item::Step(step) => {
                    if let Some((l, e)) = last_error.take() {
                        return err(l, 1, format!("illegal move: {e}"));
                    }
                    if let Err(e) = self.step(step) {
                        last_error = Some((*line, e));
                    }
                }
                Item::Expect(Expect::Error(text)) => {
                    checked += 1;
                    match last_error.take() {
                        Some((_, e)) if e.to_string().contains(text.as_str()) => {}
                        Some((_, e)) => failures.push(format!(
                            "line {line}: expected an error containing '{text}', got '{e}'"
                        )),
                        None => failures.push(format!(
                            "line {line}: expected the previous move to fail with '{text}', but it succeeded"
                        )),
                    }
                }
                Item::Expect(Expect::Fault(text)) => {
                    if let Some((l, e)) = last_error.take() {
                        return err(l, 1, format!("illegal move: {e}"));
                    }
                    checked += 1;
                    match self.game.fault.take() {
                        Some(f) if f.to_string().contains(text.as_str()) => {}
                        Some(f) => failures.push(format!(
                            "line {line}: expected a fault containing '{text}', got '{f}'"
                        )),
                        None => failures.push(format!(
                            "line {line}: expected an illegal answer ('{text}'), but every answer was legal"
                        )),
                    }
                }
                Item::Expect(Expect::Asked(want)) => {
                    if let Some((l, e)) = last_error.take() {
                        return err(l, 1, format!("illegal move: {e}"));
                    }
                    checked += 1;
                    let moves = [Why::PlayAction, Why::PlayTreasure, Why::Buy];
                    let got: Vec<&Asked> = self.bots.transcript[asked_from..]
                        .iter()
                        .filter(|a| !moves.iter().any(|w| a.question.starts_with(w.name())))
                        .collect();
                    asked_from = self.bots.transcript.len();
                    let fits = got.len() == want.len()
                        && got.iter().zip(want).all(|(a, (p, t))| {
                            a.player == *p && a.question.to_lowercase().contains(&t.to_lowercase())
                        });
                    if !fits {
                        let list: Vec<String> = got
                            .iter()
                            .map(|a| format!("p{} \"{}\"", a.player, a.question))
                            .collect();
                        let wanted: Vec<String> =
                            want.iter().map(|(p, t)| format!("p{p} {t}")).collect();
                        failures.push(format!(
                            "line {line}: asked: expected [{}], got [{}]",
                            wanted.join(", "),
                            list.join(", ")
                        ));
                    }
                }
                Item::Expect(e) => {
                    if let Some((l, e)) = last_error.take() {
                        return err(l, 1, format!("illegal move: {e}"));
                    }
                    checked += 1;
                    if let Err(msg) = check(&self.game, e) {
                        failures.push(format!("line {line}: {msg}"));
                    }
                }
            }
            i += 1;
        }
        if let Some((l, e)) = last_error {
            return err(l, 1, format!("illegal move: {e}"));
        }
        if let Some(f) = self.game.fault {
            failures.push(format!("illegal scripted answer: {f}"));
        }
        if self.strict {
            let exempt = [Why::PlayAction, Why::PlayTreasure, Why::Buy];
            for a in self.bots.transcript.iter().filter(|a| a.defaulted) {
                if !exempt.iter().any(|w| a.question.starts_with(w.name())) {
                    failures.push(format!(
                        "strict: player {} was asked \"{}\" and the script had no answer",
                        a.player, a.question
                    ));
                }
            }
        }
        if let Err(e) = self.game.check_invariants() {
            failures.push(format!("internal invariant broken: {e}"));
        }
        Ok(Report {
            unused_answers: self.bots.remaining(),
            mismatches: std::mem::take(&mut self.bots.mismatches),
            transcript: std::mem::take(&mut self.bots.transcript),
            game: self.game,
            failures,
            checked,
        })
    }

    fn step(&mut self, s: &Step) -> Result<(), RuleError> {
        let g = &mut self.game;
        let b = &mut self.bots;
        match *s {
            Step::Play(c) if c.is_action() && g.turn.phase == Phase::Action => {
                g.try_play_action(b, c)
            }
            Step::Play(c) if c.is_treasure() => g.try_play_treasure(b, c),
            Step::Play(c) => g.try_play_action(b, c),
            Step::Treasures => {
                if g.turn.phase == Phase::Bought {
                    return Err(RuleError::TreasureAfterBuy);
                }
                b.script_turn = true;
                g.treasure_step(b);
                b.script_turn = false;
                Ok(())
            }
            Step::Buy(c) => g.try_buy(b, c),
            Step::Cleanup => {
                if g.over {
                    return Err(RuleError::GameOver);
                }
                g.cleanup(b);
                Ok(())
            }
            Step::Turn => {
                if g.over {
                    return Err(RuleError::GameOver);
                }
                b.script_turn = true;
                g.play_turn(b);
                b.script_turn = false;
                Ok(())
            }
        }
    }
}

fn zone_mut(pl: &mut crate::engine::Player, z: ZoneName) -> &mut CardVec {
    match z {
        ZoneName::Hand => &mut pl.hand,
        ZoneName::Deck => &mut pl.deck,
        ZoneName::Discard => &mut pl.discard,
        ZoneName::Play => &mut pl.play,
        ZoneName::Aside => &mut pl.aside,
    }
}

/// A zone's cards as listed in the notation (deck and discard top first).
pub fn zone_cards(pl: &crate::engine::Player, z: ZoneName) -> Vec<Card> {
    match z {
        ZoneName::Hand => pl.hand.iter().collect(),
        ZoneName::Deck => pl.deck.iter().rev().collect(),
        ZoneName::Discard => pl.discard.iter().rev().collect(),
        ZoneName::Play => pl.play.iter().collect(),
        ZoneName::Aside => pl.aside.iter().collect(),
    }
}

fn parse_step(v: &str, line: usize, col: usize) -> Result<Step, ScenarioError> {
    let (verb, rest) = v.split_once(' ').unwrap_or((v, ""));
    let rest = rest.trim();
    let arg_col = col + verb.len() + 1;
    Ok(match verb {
        "play" => Step::Play(card_at(rest, line, arg_col)?),
        "buy" => Step::Buy(card_at(rest, line, arg_col)?),
        "treasures" => Step::Treasures,
        "cleanup" => Step::Cleanup,
        "turn" => Step::Turn,
        o => {
            return err(
                line,
                col,
                format!(
                    "unknown move '{o}' (expected play CARD, treasures, buy CARD, cleanup or turn)"
                ),
            )
        }
    })
}

fn parse_expect(
    key: &str,
    v: &str,
    players: usize,
    line: usize,
    kcol: usize,
    vcol: usize,
) -> Result<Expect, ScenarioError> {
    Ok(match key {
        "trash" => Expect::Trash(card_list(v, line, vcol)?),
        "trash.size" => Expect::TrashSize(number(v, line, vcol)?),
        "asked" => {
            let mut out = Vec::new();
            for (col, t) in parts(v, vcol) {
                let (ps, text) = t.split_once(' ').unwrap_or((t, ""));
                if text.trim().is_empty() {
                    return err(
                        line,
                        col,
                        format!("expected 'pN TEXT' (the player asked and words of the question), found '{t}'"),
                    );
                }
                out.push((player_index(ps, players, line, col)?, text.trim().to_string()));
            }
            Expect::Asked(out)
        }
        "knights" => Expect::Pile(Card::Knights, card_list(v, line, vcol)?),
        "ruins" => Expect::Pile(Card::Ruins, card_list(v, line, vcol)?),
        "supply" => {
            let mut out = Vec::new();
            for (col, t) in parts(v, vcol) {
                let Some((name, n)) = t.split_once('=') else {
                    return err(line, col, format!("expected 'Card=count', found '{t}'"));
                };
                out.push((card_at(name.trim(), line, col)?, number(n, line, col)?));
            }
            Expect::Supply(out)
        }
        "actions" => Expect::Actions(number(v, line, vcol)?),
        "cost_reduction" => Expect::CostReduction(number(v, line, vcol)?),
        "copper_bonus" => Expect::CopperBonus(number(v, line, vcol)?),
        "action_plays" => Expect::ActionPlays(number(v, line, vcol)?),
        "fault" => Expect::Fault(v.trim().to_string()),
        "cost" => {
            let mut out = Vec::new();
            for (col, t) in parts(v, vcol) {
                let Some((name, n)) = t.split_once('=') else {
                    return err(line, col, format!("expected 'Card=cost', found '{t}'"));
                };
                out.push((card_at(name.trim(), line, col)?, number(n, line, col)?));
            }
            Expect::Cost(out)
        }
        "buys" => Expect::Buys(number(v, line, vcol)?),
        "coins" => Expect::Coins(number(v, line, vcol)?),
        "over" => Expect::Over(yes_no(v, line, vcol)?),
        "active" => Expect::Active(player_index(v.trim(), players, line, vcol)?),
        "error" => Expect::Error(v.trim().to_string()),
        "winners" => {
            let mut w = Vec::new();
            for (col, t) in parts(v, vcol) {
                // `-`: nobody (yet), as an empty zone is written.
                if t != "-" {
                    w.push(player_index(t, players, line, col)?);
                }
            }
            Expect::Winners(w)
        }
        k if k.starts_with('p') && k.contains('.') => {
            let (ps, rest) = k.split_once('.').unwrap_or((k, ""));
            let player = player_index(ps, players, line, kcol)?;
            if rest == "vp" {
                return Ok(Expect::Vp(player, number(v, line, vcol)?));
            }
            if rest == "vp_of" {
                let mut out = Vec::new();
                for (col, t) in parts(v, vcol) {
                    let Some((name, n)) = t.split_once('=') else {
                        return err(line, col, format!("expected 'Card=vp', found '{t}'"));
                    };
                    let n = n.trim();
                    let vp = n
                        .parse::<i32>()
                        .ok()
                        .filter(|x| x.abs() <= 1000)
                        .ok_or_else(|| ScenarioError {
                            line,
                            col,
                            msg: format!("expected a number of VP, found '{n}'"),
                        })?;
                    out.push((card_at(name.trim(), line, col)?, vp));
                }
                return Ok(Expect::VpOf(player, out));
            }
            if rest.contains('+') {
                let mut zones = Vec::new();
                for z in rest.trim_end_matches('~').split('+') {
                    let Some(zone) = ZoneName::parse(z) else {
                        return err(
                            line,
                            kcol + ps.len() + 1,
                            format!("unknown zone '{z}' (expected hand, deck, discard, play or aside)"),
                        );
                    };
                    zones.push(zone);
                }
                return Ok(Expect::Zones {
                    player,
                    zones,
                    cards: card_list(v, line, vcol)?,
                });
            }
            let (zs, size) = match rest.strip_suffix(".size") {
                Some(z) => (z, true),
                None => (rest, false),
            };
            let (zs, unordered) = match zs.strip_suffix('~') {
                Some(z) => (z, true),
                None => (zs, false),
            };
            let Some(zone) = ZoneName::parse(zs) else {
                return err(
                    line,
                    kcol + ps.len() + 1,
                    format!("unknown zone '{zs}' (expected hand, deck, discard, play, aside, or vp)"),
                );
            };
            if size {
                Expect::ZoneSize {
                    player,
                    zone,
                    size: number(v, line, vcol)?,
                }
            } else {
                Expect::Zone {
                    player,
                    zone,
                    cards: card_list(v, line, vcol)?,
                    unordered: unordered || !zone.ordered(),
                }
            }
        }
        o => {
            return err(
                line,
                kcol,
                format!("unknown expectation '{o}' (expected pN.ZONE, pN.ZONE~, pN.ZONE.size, pN.A+B, pN.vp, pN.vp_of, trash, trash.size, asked, knights, ruins, supply, actions, buys, coins, over, winners, active, error, cost_reduction, copper_bonus, action_plays, cost or fault)"),
            )
        }
    })
}

fn sorted(mut v: Vec<Card>) -> Vec<Card> {
    v.sort();
    v
}

fn names(v: &[Card]) -> String {
    if v.is_empty() {
        return "(empty)".into();
    }
    v.iter().map(|c| c.name()).collect::<Vec<_>>().join(", ")
}

fn check(g: &Game, e: &Expect) -> Result<(), String> {
    let eq = |what: &str, want: i64, got: i64| {
        if want == got {
            Ok(())
        } else {
            Err(format!("{what}: expected {want}, got {got}"))
        }
    };
    match e {
        Expect::Zone {
            player,
            zone,
            cards,
            unordered,
        } => {
            let got = zone_cards(g.player(*player), *zone);
            let (w, h) = if *unordered {
                (sorted(cards.clone()), sorted(got.clone()))
            } else {
                (cards.clone(), got.clone())
            };
            if w == h {
                Ok(())
            } else {
                Err(format!(
                    "p{player}.{}: expected [{}], got [{}]",
                    zone.name(),
                    names(cards),
                    names(&got)
                ))
            }
        }
        Expect::ZoneSize { player, zone, size } => eq(
            &format!("p{player}.{} size", zone.name()),
            *size as i64,
            zone_cards(g.player(*player), *zone).len() as i64,
        ),
        Expect::Zones {
            player,
            zones,
            cards,
        } => {
            let mut got = Vec::new();
            for &z in zones {
                got.extend(zone_cards(g.player(*player), z));
            }
            if sorted(cards.clone()) == sorted(got.clone()) {
                Ok(())
            } else {
                let zn: Vec<&str> = zones.iter().map(|z| z.name()).collect();
                Err(format!(
                    "p{player}.{}: expected [{}], got [{}]",
                    zn.join("+"),
                    names(cards),
                    names(&got)
                ))
            }
        }
        Expect::Trash(cards) => {
            let got: Vec<Card> = g.trash.iter().collect();
            if sorted(cards.clone()) == sorted(got.clone()) {
                Ok(())
            } else {
                Err(format!(
                    "trash: expected [{}], got [{}]",
                    names(cards),
                    names(&got)
                ))
            }
        }
        Expect::TrashSize(n) => eq("trash size", *n as i64, g.trash.len() as i64),
        Expect::VpOf(p, list) => {
            let pl = &g.players[*p as usize];
            for &(c, vp) in list {
                let got = crate::cards::vp_of_counts(c, &pl.owned, pl.owned_total);
                eq(&format!("p{p}.vp_of {c}"), vp as i64, got as i64)?;
            }
            Ok(())
        }
        Expect::Asked(_) => Ok(()),
        Expect::Pile(pile, cards) => {
            let got: Vec<Card> = g.distinct(*pile).as_slice().iter().rev().copied().collect();
            if &got == cards {
                Ok(())
            } else {
                Err(format!(
                    "{pile} pile: expected [{}], got [{}]",
                    names(cards),
                    names(&got)
                ))
            }
        }
        Expect::Supply(list) => {
            for &(c, n) in list {
                eq(&format!("supply of {c}"), n as i64, g.pile(c) as i64)?;
            }
            Ok(())
        }
        Expect::Actions(n) => eq("actions", *n as i64, g.turn.actions as i64),
        Expect::Buys(n) => eq("buys", *n as i64, g.turn.buys as i64),
        Expect::Coins(n) => eq("coins", *n as i64, g.turn.coins as i64),
        Expect::Vp(p, n) => eq(&format!("p{p}.vp"), *n as i64, g.vp(*p) as i64),
        Expect::Over(b) => eq("over", *b as i64, g.over as i64),
        Expect::Active(p) => eq("active", *p as i64, g.active as i64),
        Expect::Winners(w) => {
            // As the JSON state shows them: nobody while the game goes on.
            let o = g.outcome();
            let got: Vec<u8> = (0..g.n() as u8)
                .filter(|&p| g.over && o.won(p as usize))
                .collect();
            if &got == w {
                Ok(())
            } else {
                Err(format!("winners: expected {w:?}, got {got:?}"))
            }
        }
        Expect::CostReduction(n) => eq("cost_reduction", *n as i64, g.turn.cost_reduction as i64),
        Expect::CopperBonus(n) => eq("copper_bonus", *n as i64, g.turn.copper_bonus as i64),
        Expect::ActionPlays(n) => eq("action_plays", *n as i64, g.turn.action_plays as i64),
        Expect::Cost(list) => {
            for &(c, n) in list {
                eq(&format!("cost of {c}"), n as i64, g.cost(c) as i64)?;
            }
            Ok(())
        }
        Expect::Error(_) | Expect::Fault(_) => Ok(()),
    }
}

/// The state as JSON: zones listed as in the notation (deck and discard top
/// card first), Supply counts, trash, turn counters, and (if given) the
/// decisions asked during the run.
pub fn state_json(g: &Game, transcript: &[Asked]) -> Value {
    let list = |v: Vec<Card>| -> Value { v.iter().map(|c| c.name()).collect::<Vec<_>>().into() };
    let players: Vec<Value> = (0..g.n())
        .map(|p| {
            let pl = &g.players[p];
            json!({
                "seat": p,
                "hand": list(zone_cards(pl, ZoneName::Hand)),
                "deck": list(zone_cards(pl, ZoneName::Deck)),
                "discard": list(zone_cards(pl, ZoneName::Discard)),
                "play": list(zone_cards(pl, ZoneName::Play)),
                "aside": list(zone_cards(pl, ZoneName::Aside)),
                "vp": g.vp(p as u8),
                "turns": g.turns_taken[p],
            })
        })
        .collect();
    let mut supply = serde_json::Map::new();
    for c in g.kingdom.supply.iter() {
        supply.insert(c.name().to_string(), json!(g.pile(c)));
    }
    let phase = match g.turn.phase {
        Phase::Action => "action",
        Phase::Buy => "buy",
        Phase::Bought => "bought",
    };
    let o = g.outcome();
    json!({
        "players": players,
        "active": g.active,
        "phase": phase,
        "actions": g.turn.actions,
        "buys": g.turn.buys,
        "coins": g.turn.coins,
        "cost_reduction": g.turn.cost_reduction,
        "copper_bonus": g.turn.copper_bonus,
        "action_plays": g.turn.action_plays,
        "supply": supply,
        "empty_piles": g.empty_piles,
        "trash": list(g.trash.iter().collect()),
        "knights": list(g.knights.as_slice().iter().rev().copied().collect()),
        "ruins": list(g.ruins.as_slice().iter().rev().copied().collect()),
        "non_supply": g.kingdom.non_supply.iter().map(|c| (c.name().to_string(), json!(g.pile(c)))).collect::<serde_json::Map<_, _>>(),
        "over": g.over,
        "winners": (0..g.n()).filter(|&p| g.over && o.won(p)).collect::<Vec<_>>(),
        "decisions": transcript.iter().map(|a| json!({
            "player": a.player,
            "question": a.question,
            "answer": a.answer,
            "default": a.defaulted,
        })).collect::<Vec<_>>(),
    })
}

/// The state of `g` in scenario notation (set-up keys only: no answers,
/// steps or expectations). Parsing the text gives a game with the same
/// state except the shuffle RNG, which the notation does not describe (it
/// is derived from `seed:`). Every Supply pile is listed, so the text does
/// not depend on the default pile sizes. Used by the round-trip property
/// test and handy for turning a simulated position into a scenario.
pub fn to_text(g: &Game) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let n = g.n();
    let list = |cards: &mut dyn Iterator<Item = Card>| -> String {
        cards.map(|c| c.name()).collect::<Vec<_>>().join(", ")
    };
    let _ = writeln!(s, "players: {n}");
    let k = list(&mut g.kingdom.kingdom.iter());
    if !k.is_empty() {
        let _ = writeln!(s, "kingdom: {k}");
    }
    let piles: Vec<String> = g
        .kingdom
        .supply
        .or(g.kingdom.non_supply)
        .minus(CardSet::PILES)
        .iter()
        .map(|c| format!("{}={}", c.name(), g.supply[c as usize]))
        .collect();
    if !piles.is_empty() {
        let _ = writeln!(s, "supply: {}", piles.join(", "));
    }
    // The Knights and Ruins piles card by card, top first.
    for (pile, cards, key) in [
        (Card::Knights, &g.knights, "knights"),
        (Card::Ruins, &g.ruins, "ruins"),
    ] {
        if g.kingdom.supply.contains(pile) {
            let v = list(&mut cards.cards[..cards.len as usize].iter().rev().copied());
            let _ = writeln!(s, "{key}: {v}");
        }
    }
    let _ = writeln!(s, "active: p{}", g.active);
    let turns: Vec<String> = g.turns_taken[..n].iter().map(|t| t.to_string()).collect();
    let _ = writeln!(s, "turns: {}", turns.join(", "));
    let t = &g.turn;
    let phase = match t.phase {
        Phase::Action => "action",
        Phase::Buy => "buy",
        Phase::Bought => "bought",
    };
    let _ = writeln!(s, "phase: {phase}");
    let _ = writeln!(s, "actions: {}", t.actions);
    let _ = writeln!(s, "buys: {}", t.buys);
    let _ = writeln!(s, "coins: {}", t.coins);
    let _ = writeln!(s, "cost_reduction: {}", t.cost_reduction);
    let _ = writeln!(s, "copper_bonus: {}", t.copper_bonus);
    let _ = writeln!(s, "action_plays: {}", t.action_plays);
    if !g.trash.is_empty() {
        let _ = writeln!(s, "trash: {}", list(&mut g.trash.iter()));
    }
    for p in 0..n {
        let pl = &g.players[p];
        for z in [
            ZoneName::Hand,
            ZoneName::Deck,
            ZoneName::Discard,
            ZoneName::Play,
            ZoneName::Aside,
        ] {
            // zone_cards lists deck and discard top first, as the notation does.
            let cards = zone_cards(pl, z);
            if !cards.is_empty() {
                let _ = writeln!(s, "p{p}.{}: {}", z.name(), list(&mut cards.into_iter()));
            }
        }
    }
    s
}
