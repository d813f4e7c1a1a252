//! Playtesting statistics (issue 7): what a designer wants to know about a
//! card or a kingdom, beyond who wins.
//!
//! * [`Recorder`] — a [`Bots`] wrapper that forwards every decision to the
//!   bots it wraps and turns the engine's [`Event`]s into statistics. It is
//!   opt-in: a plain win-rate run never goes through it and pays nothing.
//! * [`PlaytestStats`] — the accumulators. Every field is an integer sum or
//!   count, so merging ([`AddAssign`]) is exact, commutative and associative:
//!   a run gives bit-identical statistics whatever the thread count and however
//!   rayon splits the work. Floating point only appears in the accessors
//!   (means, rates, confidence intervals) used by the CSV and HTML writers.
//! * [`playtest`] / [`playtest_range`] — the parallel driver: game `i` of a run
//!   is `Game::reset(k, seed, i)` with the strategies rotated over the seats.
//! * [`run_sequential`] / [`playtest_sequential`] — sequential mode: fixed
//!   batches until the 95% confidence interval of every win rate is narrower
//!   than requested (`--precision 0.005` = half-width 0.5 percentage points).
//!
//! Conventions (also in `results/STATS.md`):
//! * "turn t" of a player is his t-th own turn (1-based). Per-turn averages are
//!   over the player-turns that happened: a turn-20 average only counts games
//!   that lasted 20 turns for that player. Turns past [`TURNS`] share the last
//!   bucket.
//! * money of a turn = coins generated in it (coins available to spend plus
//!   coins already spent on buys), observed at the last decision or event of
//!   the turn (the cleanup draw at the latest).
//! * VP and deck size of a turn are taken at the end of that turn (after
//!   cleanup); "cards gained" in turn t counts everything the player gains from
//!   the start of his turn t to the start of his turn t+1 (gains during other
//!   players' turns included, e.g. Curses).
//! * win score: a sole win scores 1, a win shared by k players scores 1/k
//!   (stored in units of 1/[`SCORE_UNIT`]).

pub mod csv;
pub mod html;

use crate::cards::{Card, CardSet};
use crate::engine::{Bots, Choose, Event, Game, Kingdom, Pick, YesNo, MAX_PLAYERS};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::io;
use std::ops::{AddAssign, Range};
use std::path::Path;

/// Per-turn statistics are kept for turns 1..=TURNS (later turns share the last bucket).
pub const TURNS: usize = 100;
/// VP margins are clamped to -MARGIN..=MARGIN.
pub const MARGIN: i32 = 60;
/// Opening coin counts are clamped to 0..=OPEN_MAX.
pub const OPEN_MAX: usize = 12;
/// Win scores are stored in units of 1/60 (60 is divisible by 1..=6 winners).
pub const SCORE_UNIT: u64 = 60;
/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

const N_OPEN: usize = OPEN_MAX + 1;
const N_MARGIN: usize = 2 * MARGIN as usize + 1;

// -------------------------------------------------------------------------
// Accumulators

/// A win score sample: games, sum and sum of squares of the per-game score.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreAcc {
    pub games: u64,
    /// Sum of per-game scores, in units of 1/SCORE_UNIT.
    pub score: u64,
    /// Sum of squared per-game scores, in units of 1/SCORE_UNIT².
    pub score_sq: u64,
    /// Games won alone.
    pub sole_wins: u64,
    /// Games whose win was shared with another player.
    pub shared_wins: u64,
}

impl ScoreAcc {
    /// Add one game where this player won alone, shared the win with
    /// `winners - 1` others, or lost (`won == false`).
    #[inline]
    pub fn add_game(&mut self, won: bool, winners: u32) {
        self.games += 1;
        if won {
            let u = SCORE_UNIT / winners.max(1) as u64;
            self.score += u;
            self.score_sq += u * u;
            if winners <= 1 {
                self.sole_wins += 1;
            } else {
                self.shared_wins += 1;
            }
        }
    }
    /// Mean win score (a shared win counts 1/k), 0 with no games.
    pub fn rate(&self) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        self.score as f64 / (self.games as f64 * SCORE_UNIT as f64)
    }
    /// Half-width of the 95% normal confidence interval of [`rate`](Self::rate)
    /// (sample variance). With fewer than 2 games it is 1 (nothing known).
    /// When every game scored the same (0 of 9 won, say), the sample
    /// variance is 0 and says nothing: the half-width is then the distance
    /// to the far end of the Wilson interval (0 of 9: 0.299), not 0.
    pub fn ci95(&self) -> f64 {
        let ci = mean_ci95(
            self.games,
            self.score as f64 / SCORE_UNIT as f64,
            self.score_sq as f64 / (SCORE_UNIT * SCORE_UNIT) as f64,
        );
        let constant =
            self.score as u128 * self.score as u128 == self.score_sq as u128 * self.games as u128;
        if self.games >= 2 && constant {
            let p = self.rate();
            let (lo, hi) = crate::sim::wilson(self.score as f64 / SCORE_UNIT as f64, self.games);
            return (p - lo).max(hi - p);
        }
        ci
    }
}

impl AddAssign<&ScoreAcc> for ScoreAcc {
    fn add_assign(&mut self, o: &ScoreAcc) {
        self.games += o.games;
        self.score += o.score;
        self.score_sq += o.score_sq;
        self.sole_wins += o.sole_wins;
        self.shared_wins += o.shared_wins;
    }
}

/// Half-width of the 95% confidence interval of a mean from n, Σx, Σx².
/// With fewer than 2 samples it is 1 (nothing known).
pub fn mean_ci95(n: u64, sum: f64, sum_sq: f64) -> f64 {
    if n < 2 {
        return 1.0;
    }
    let nf = n as f64;
    let mean = sum / nf;
    let var = ((sum_sq - nf * mean * mean) / (nf - 1.0)).max(0.0);
    Z95 * (var / nf).sqrt()
}

/// Sums over the player-turns number t of one strategy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnAcc {
    /// Player-turns that reached this turn number.
    pub n: u64,
    /// Σ coins generated in the turn.
    pub money: u64,
    /// Σ VP at the end of the turn.
    pub vp: i64,
    /// Σ cards owned at the end of the turn.
    pub deck: u64,
    /// Σ cards gained (see the module doc for the attribution).
    pub gained: u64,
    /// Turns with at least $5, $6, $8 generated.
    pub hit5: u64,
    pub hit6: u64,
    pub hit8: u64,
    /// Turns by coins generated: $0 to $15, and $16 or more (quartile bands).
    #[serde(default)]
    pub money_hist: [u64; MONEY_BUCKETS],
}

/// Buckets of [`TurnAcc::money_hist`].
pub const MONEY_BUCKETS: usize = 17;

impl TurnAcc {
    fn mean(&self, x: f64) -> f64 {
        per(x, self.n)
    }
    pub fn money_avg(&self) -> f64 {
        self.mean(self.money as f64)
    }
    pub fn vp_avg(&self) -> f64 {
        self.mean(self.vp as f64)
    }
    pub fn deck_avg(&self) -> f64 {
        self.mean(self.deck as f64)
    }
    pub fn gained_avg(&self) -> f64 {
        self.mean(self.gained as f64)
    }
    pub fn p5(&self) -> f64 {
        self.mean(self.hit5 as f64)
    }
    pub fn p6(&self) -> f64 {
        self.mean(self.hit6 as f64)
    }
    pub fn p8(&self) -> f64 {
        self.mean(self.hit8 as f64)
    }
    /// The money generated at quantile `q` of these turns (the smallest
    /// amount with at least a fraction `q` of the turns at or below it;
    /// 16 stands for $16 or more). None without turns.
    pub fn money_quantile(&self, q: f64) -> Option<u64> {
        let n: u64 = self
            .money_hist
            .iter()
            .fold(0u64, |a, &b| a.saturating_add(b));
        if n == 0 {
            return None;
        }
        let want = ((q * n as f64).ceil() as u64).max(1);
        let mut acc = 0u64;
        for (m, &c) in self.money_hist.iter().enumerate() {
            acc = acc.saturating_add(c);
            if acc >= want {
                return Some(m as u64);
            }
        }
        Some((MONEY_BUCKETS - 1) as u64)
    }
}

impl AddAssign<&TurnAcc> for TurnAcc {
    fn add_assign(&mut self, o: &TurnAcc) {
        self.n += o.n;
        self.money += o.money;
        self.vp += o.vp;
        self.deck += o.deck;
        self.gained += o.gained;
        self.hit5 += o.hit5;
        self.hit6 += o.hit6;
        self.hit8 += o.hit8;
        for (a, b) in self.money_hist.iter_mut().zip(&o.money_hist) {
            *a += b;
        }
    }
}

/// Sums over the games of one strategy, for one card.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardAcc {
    pub gained: u64,
    /// Bought (a buy is also a gain).
    pub bought: u64,
    /// Play events (a Throne-Roomed card counts twice).
    pub played: u64,
    pub trashed: u64,
    /// Σ copies owned at the end of the game.
    pub owned_end: u64,
    /// Games in which the card was gained at least once.
    pub first_gain_games: u64,
    /// Σ turn of the first gain over those games.
    pub first_gain_turn: u64,
    /// Score of the games in which the card was gained, by the turn of its
    /// first gain: turns 1–5, 6–10, 11–15, 16 and later ([`GAIN_BY`]).
    #[serde(default)]
    pub gained_by: [ScoreAcc; 4],
}

/// The first-gain turn buckets of [`CardAcc::gained_by`]: the last turn of
/// each bucket but the open last one.
pub const GAIN_BY: [u16; 3] = [5, 10, 15];

/// "1-5", "6-10", "11-15", "16+": the label of bucket `b`.
pub fn gain_bucket_label(b: usize) -> String {
    match b {
        0 => format!("1-{}", GAIN_BY[0]),
        b if b < GAIN_BY.len() => format!("{}-{}", GAIN_BY[b - 1] + 1, GAIN_BY[b]),
        _ => format!("{}+", GAIN_BY[GAIN_BY.len() - 1] + 1),
    }
}

/// The bucket of a first gain on own turn `t`.
pub fn gain_bucket(t: u16) -> usize {
    GAIN_BY
        .iter()
        .position(|&b| t <= b)
        .unwrap_or(GAIN_BY.len())
}

impl CardAcc {
    /// Score of the games in which the card was gained at all.
    pub fn gained_score(&self) -> ScoreAcc {
        // Saturating: a hand-edited statistics file may hold anything.
        let mut s = ScoreAcc::default();
        for b in &self.gained_by {
            s.games = s.games.saturating_add(b.games);
            s.score = s.score.saturating_add(b.score);
            s.score_sq = s.score_sq.saturating_add(b.score_sq);
            s.sole_wins = s.sole_wins.saturating_add(b.sole_wins);
            s.shared_wins = s.shared_wins.saturating_add(b.shared_wins);
        }
        s
    }
}

/// Score of the games that opened with these buys: the first card bought
/// on each of the first two turns (`-` for none), in alphabetical order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpeningBuys {
    pub buys: [String; 2],
    pub score: ScoreAcc,
}

impl AddAssign<&CardAcc> for CardAcc {
    fn add_assign(&mut self, o: &CardAcc) {
        self.gained += o.gained;
        self.bought += o.bought;
        self.played += o.played;
        self.trashed += o.trashed;
        self.owned_end += o.owned_end;
        self.first_gain_games += o.first_gain_games;
        self.first_gain_turn += o.first_gain_turn;
        for (a, b) in self.gained_by.iter_mut().zip(&o.gained_by) {
            *a += b;
        }
    }
}

/// Everything about one strategy (summed over the seats it played).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StrategyStats {
    /// Win score by seat.
    pub seats: [ScoreAcc; MAX_PLAYERS],
    /// Per own turn number 1..=TURNS (index t-1).
    pub turns: Vec<TurnAcc>,
    /// Per card id.
    pub cards: Vec<CardAcc>,
    /// Gains per (turn, card): index `(t-1) * Card::COUNT + card`.
    pub gain_turn: Vec<u64>,
    /// Histogram of own VP minus the best other player's VP, clamped to
    /// ±MARGIN: index `margin + MARGIN`.
    pub margin: Vec<u64>,
    /// Win score by opening: index `hi * (OPEN_MAX+1) + lo` where hi ≥ lo are
    /// the coins generated on turns 1 and 2.
    pub openings: Vec<ScoreAcc>,
    /// Σ final VP.
    pub vp_end: i64,
    /// Σ own turns taken.
    pub turns_taken: u64,
    /// Win score by opening buys (the first buy of turns 1 and 2), most
    /// played first once reported.
    #[serde(default)]
    pub opening_buys: Vec<OpeningBuys>,
}

impl StrategyStats {
    /// The opening-buys entry for `a`/`b` (alphabetical), added if new.
    pub fn opening_buys_entry(&mut self, a: &str, b: &str) -> &mut OpeningBuys {
        // Kept sorted, so that equal runs give equal statistics whatever
        // the order games were recorded and merged in.
        let i = match self
            .opening_buys
            .binary_search_by(|o| (o.buys[0].as_str(), o.buys[1].as_str()).cmp(&(a, b)))
        {
            Ok(i) => i,
            Err(i) => {
                self.opening_buys.insert(
                    i,
                    OpeningBuys {
                        buys: [a.to_string(), b.to_string()],
                        score: ScoreAcc::default(),
                    },
                );
                i
            }
        };
        &mut self.opening_buys[i]
    }
    pub fn new() -> Self {
        StrategyStats {
            seats: [ScoreAcc::default(); MAX_PLAYERS],
            turns: vec![TurnAcc::default(); TURNS],
            cards: vec![CardAcc::default(); Card::COUNT],
            gain_turn: vec![0; TURNS * Card::COUNT],
            margin: vec![0; N_MARGIN],
            openings: vec![ScoreAcc::default(); N_OPEN * N_OPEN],
            vp_end: 0,
            turns_taken: 0,
            opening_buys: Vec::new(),
        }
    }
    /// Win score over every seat.
    pub fn score(&self) -> ScoreAcc {
        let mut s = ScoreAcc::default();
        for x in &self.seats {
            s += x;
        }
        s
    }
    /// Games this strategy played.
    pub fn games(&self) -> u64 {
        self.seats.iter().map(|s| s.games).sum()
    }
    /// Average final VP.
    pub fn avg_vp(&self) -> f64 {
        per(self.vp_end as f64, self.games())
    }
    /// Average copies of `c` owned at game end.
    pub fn avg_owned_end(&self, c: Card) -> f64 {
        per(self.cards[c as usize].owned_end as f64, self.games())
    }
    /// Average turn of the first gain of `c`, over the games where it was gained.
    pub fn avg_first_gain(&self, c: Card) -> Option<f64> {
        let a = &self.cards[c as usize];
        (a.first_gain_games > 0).then(|| a.first_gain_turn as f64 / a.first_gain_games as f64)
    }
    /// Average number of `c` gained by the end of own turn t (index t-1;
    /// cumulative, over all games of the strategy: a game that ended earlier
    /// keeps its total).
    pub fn gain_curve(&self, c: Card) -> Vec<f64> {
        let g = self.games();
        let mut acc = 0u64;
        (0..TURNS)
            .map(|t| {
                // Saturating: a hand-edited statistics file may hold anything.
                acc = acc.saturating_add(self.gain_turn[t * Card::COUNT + c as usize]);
                per(acc as f64, g)
            })
            .collect()
    }
    /// Win score of the games whose opening was `hi`/`lo` coins (hi ≥ lo).
    pub fn opening(&self, hi: usize, lo: usize) -> &ScoreAcc {
        &self.openings[hi.min(OPEN_MAX) * N_OPEN + lo.min(OPEN_MAX)]
    }
    /// Last turn number with at least one sample (for charts).
    pub fn last_turn(&self) -> usize {
        self.turns
            .iter()
            .rposition(|t| t.n > 0)
            .map_or(0, |i| i + 1)
    }
}

impl Default for StrategyStats {
    fn default() -> Self {
        StrategyStats::new()
    }
}

fn per(x: f64, n: u64) -> f64 {
    if n == 0 {
        0.0
    } else {
        x / n as f64
    }
}

fn add_vec<T: for<'a> AddAssign<&'a T>>(a: &mut [T], b: &[T]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

impl AddAssign<&StrategyStats> for StrategyStats {
    fn add_assign(&mut self, o: &StrategyStats) {
        add_vec(&mut self.seats, &o.seats);
        add_vec(&mut self.turns, &o.turns);
        add_vec(&mut self.cards, &o.cards);
        for (x, y) in self.gain_turn.iter_mut().zip(&o.gain_turn) {
            *x += y;
        }
        for (x, y) in self.margin.iter_mut().zip(&o.margin) {
            *x += y;
        }
        add_vec(&mut self.openings, &o.openings);
        self.vp_end += o.vp_end;
        self.turns_taken += o.turns_taken;
        for ob in &o.opening_buys {
            self.opening_buys_entry(&ob.buys[0], &ob.buys[1]).score += &ob.score;
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The Province pile ran out (counted here even if piles ran out too).
    Provinces,
    /// Enough Supply piles ran out.
    Piles,
    /// The turn cap stopped the game.
    TurnCap,
}

/// How game `g` (over) ended.
pub fn ending(g: &Game) -> Ending {
    if g.supply[Card::Province as usize] == 0 {
        Ending::Provinces
    } else if g.empty_piles >= g.kingdom.end_piles {
        Ending::Piles
    } else {
        Ending::TurnCap
    }
}

/// All statistics of a playtest run. Merge with `+=` (or [`merge`](Self::merge)).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlaytestStats {
    /// Strategy names, in strategy index order.
    pub names: Vec<String>,
    /// Kingdom card names (for reports).
    pub kingdom: Vec<String>,
    pub players: u8,
    pub games: u64,
    /// Games by length in rounds (turns of the player who took the most;
    /// index = turns, the last bucket holds TURNS and more).
    pub length: Vec<u64>,
    pub ended_provinces: u64,
    pub ended_piles: u64,
    pub ended_cap: u64,
    /// Games in which a bot gave an illegal answer.
    pub faults: u64,
    /// Win score by seat, whatever the strategy (first-player advantage).
    pub seats: [ScoreAcc; MAX_PLAYERS],
    pub strategies: Vec<StrategyStats>,
    /// Provenance: the run's seed (None when not recorded).
    #[serde(default)]
    pub seed: Option<u64>,
    /// Provenance: each strategy's `name | source | hash`, in strategy order.
    #[serde(default)]
    pub sources: Vec<String>,
    /// Provenance: how the kingdom was chosen, as the run's CSV says it
    /// (`kingdom_source`: a preset, a list, random sets and seed, and
    /// `; Shelters forced on|off`); None when not recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kingdom_source: Option<String>,
    /// Provenance: the run's data cards (`--cards`), each with the digest of
    /// its definition, as the run's CSV says them (`data_cards`); None
    /// without data cards or when not recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_cards: Option<String>,
}

impl PlaytestStats {
    pub fn new(k: &Kingdom, names: &[String]) -> Self {
        PlaytestStats {
            names: names.to_vec(),
            kingdom: k
                .kingdom_cards()
                .iter()
                .map(|c| c.name().to_string())
                .collect(),
            players: k.players,
            games: 0,
            length: vec![0; TURNS + 1],
            ended_provinces: 0,
            ended_piles: 0,
            ended_cap: 0,
            faults: 0,
            seats: [ScoreAcc::default(); MAX_PLAYERS],
            strategies: names.iter().map(|_| StrategyStats::new()).collect(),
            seed: None,
            sources: Vec::new(),
            kingdom_source: None,
            data_cards: None,
        }
    }
    /// Merge another run of the same matchup.
    pub fn merge(&mut self, o: &PlaytestStats) {
        *self += o;
    }
    /// Average game length in rounds.
    pub fn avg_length(&self) -> f64 {
        let s: u64 = self
            .length
            .iter()
            .enumerate()
            .map(|(t, &n)| t as u64 * n)
            .sum();
        per(s as f64, self.games)
    }
    /// Largest 95% half-width over the strategies' win rates (the sequential
    /// mode's stop criterion).
    pub fn max_ci95(&self) -> f64 {
        self.strategies
            .iter()
            .map(|s| s.score().ci95())
            .fold(0.0, f64::max)
    }
    /// Cards worth reporting: every card some strategy gained or owned at the end.
    pub fn cards_seen(&self) -> Vec<Card> {
        Card::ALL
            .iter()
            .copied()
            .filter(|&c| {
                self.strategies.iter().any(|s| {
                    let a = &s.cards[c as usize];
                    a.gained > 0 || a.owned_end > 0
                })
            })
            .collect()
    }
}

impl AddAssign<&PlaytestStats> for PlaytestStats {
    fn add_assign(&mut self, o: &PlaytestStats) {
        assert_eq!(
            self.names, o.names,
            "merging statistics of different matchups"
        );
        self.games += o.games;
        for (x, y) in self.length.iter_mut().zip(&o.length) {
            *x += y;
        }
        self.ended_provinces += o.ended_provinces;
        self.ended_piles += o.ended_piles;
        self.ended_cap += o.ended_cap;
        self.faults += o.faults;
        add_vec(&mut self.seats, &o.seats);
        for (a, b) in self.strategies.iter_mut().zip(&o.strategies) {
            *a += b;
        }
    }
}

impl AddAssign for PlaytestStats {
    fn add_assign(&mut self, o: PlaytestStats) {
        *self += &o;
    }
}

// -------------------------------------------------------------------------
// The recorder

/// A [`Bots`] wrapper that records statistics. Every decision is forwarded to
/// `inner` unchanged (so the game is exactly the game `inner` alone would
/// play); events are forwarded too, then recorded into `stats`.
///
/// Use: [`begin`](Self::begin) after `Game::reset`, play the game with the
/// recorder as the bots, then [`end`](Self::end). Statistics go straight into
/// the (per-thread) accumulator; the per-game scratch is a few fixed-size
/// arrays, so nothing is allocated per game. The accumulator and scratch live
/// in a boxed [`RecordState`], so a driver can move them from one game's
/// recorder to the next for the price of a pointer
/// ([`from_state`](Self::from_state) / [`into_state`](Self::into_state)).
pub struct Recorder<B> {
    pub inner: B,
    pub state: Box<RecordState>,
}

/// The accumulator and the per-game scratch of a [`Recorder`].
pub struct RecordState {
    pub stats: PlaytestStats,
    seat_strategy: [u8; MAX_PLAYERS],
    /// Seat whose turn is being recorded and its turn number (0: none yet).
    cur: u8,
    cur_turn: u16,
    /// Coins spent on buys this turn, and the most coins generated seen so far.
    spent: u16,
    money: u16,
    /// Cards each seat has gained at least once this game.
    gained_once: [CardSet; MAX_PLAYERS],
    /// Coins generated on turns 1 and 2 of each seat.
    opening: [[u16; 2]; MAX_PLAYERS],
    /// The first card each seat bought on its turns 1 and 2.
    open_buys: [[Option<Card>; 2]; MAX_PLAYERS],
    /// Own turn of each seat's first gain of each card this game.
    first_turn: [[u16; Card::COUNT]; MAX_PLAYERS],
    /// Play events per seat and card this game (the most frequent recorded
    /// event: counted inline here, added to `stats` at the end of the game).
    plays: [[u16; Card::COUNT]; MAX_PLAYERS],
}

impl<B: Bots> Recorder<B> {
    /// A recorder adding to `stats`.
    pub fn new(inner: B, stats: PlaytestStats) -> Self {
        Recorder::from_state(inner, RecordState::new(stats))
    }
    pub fn from_state(inner: B, state: Box<RecordState>) -> Self {
        Recorder { inner, state }
    }
    pub fn into_state(self) -> Box<RecordState> {
        self.state
    }
    /// The statistics so far.
    pub fn stats(&self) -> &PlaytestStats {
        &self.state.stats
    }
    /// Give back the statistics.
    pub fn into_stats(self) -> PlaytestStats {
        self.state.stats
    }
    /// Start recording a freshly dealt game; `seat_to_strategy[seat]` is the
    /// index (into `stats.names`) of the strategy playing that seat.
    pub fn begin(&mut self, g: &Game, seat_to_strategy: &[usize]) {
        self.state.begin(g, seat_to_strategy);
    }
    /// Finish recording a game that is over (or stopped): closes the last
    /// turn and records the outcome, game length and end-of-game holdings.
    pub fn end(&mut self, g: &Game) {
        self.state.end(g);
    }
}

impl RecordState {
    pub fn new(stats: PlaytestStats) -> Box<Self> {
        Box::new(RecordState {
            stats,
            seat_strategy: [0; MAX_PLAYERS],
            cur: 0,
            cur_turn: 0,
            spent: 0,
            money: 0,
            gained_once: [CardSet::EMPTY; MAX_PLAYERS],
            opening: [[0; 2]; MAX_PLAYERS],
            open_buys: [[None; 2]; MAX_PLAYERS],
            first_turn: [[0; Card::COUNT]; MAX_PLAYERS],
            plays: [[0; Card::COUNT]; MAX_PLAYERS],
        })
    }

    /// See [`Recorder::begin`].
    /// Start recording a freshly dealt game; `seat_to_strategy[seat]` is the
    /// index (into `stats.names`) of the strategy playing that seat.
    pub fn begin(&mut self, g: &Game, seat_to_strategy: &[usize]) {
        for (i, s) in self.seat_strategy.iter_mut().enumerate() {
            *s = seat_to_strategy.get(i).copied().unwrap_or(0) as u8;
        }
        // Not a bound: a shorter map only leaves the missing seats at
        // strategy 0 (`get` above), never indexes past it; every caller
        // passes the game's seat order, one entry per seat.
        debug_assert!(seat_to_strategy.len() >= g.n());
        self.cur = g.active;
        self.cur_turn = 0;
        self.spent = 0;
        self.money = 0;
        self.gained_once = [CardSet::EMPTY; MAX_PLAYERS];
        self.opening = [[0; 2]; MAX_PLAYERS];
        self.open_buys = [[None; 2]; MAX_PLAYERS];
        for p in &mut self.plays[..g.n()] {
            *p = [0; Card::COUNT];
        }
    }

    /// Finish recording a game that is over (or stopped): closes the last
    /// turn and records the outcome, game length and end-of-game holdings.
    pub fn end(&mut self, g: &Game) {
        self.close_turn(g);
        self.cur_turn = 0;
        let o = g.outcome();
        let n = g.n();
        let st = &mut self.stats;
        st.games += 1;
        let rounds = (0..n).map(|p| g.turns_taken[p]).max().unwrap_or(0) as usize;
        st.length[rounds.min(TURNS)] += 1;
        match ending(g) {
            Ending::Provinces => st.ended_provinces += 1,
            Ending::Piles => st.ended_piles += 1,
            Ending::TurnCap => st.ended_cap += 1,
        }
        if g.fault.is_some() {
            st.faults += 1;
        }
        let winners = o.winner_count();
        for p in 0..n {
            let won = o.won(p);
            st.seats[p].add_game(won, winners);
            let s = &mut st.strategies[self.seat_strategy[p] as usize];
            s.seats[p].add_game(won, winners);
            let best_other = (0..n)
                .filter(|&q| q != p)
                .map(|q| o.vp[q])
                .max()
                .unwrap_or(0);
            let m = (o.vp[p] - best_other).clamp(-MARGIN, MARGIN);
            s.margin[(m + MARGIN) as usize] += 1;
            let [a, b] = self.opening[p];
            let hi = (a.max(b) as usize).min(OPEN_MAX);
            let lo = (a.min(b) as usize).min(OPEN_MAX);
            s.openings[hi * N_OPEN + lo].add_game(won, winners);
            s.vp_end += o.vp[p] as i64;
            s.turns_taken += g.turns_taken[p] as u64;
            let name = |c: Option<Card>| c.map_or("-", |c| c.name());
            let [x, y] = self.open_buys[p];
            let (a, b) = (name(x), name(y));
            let (a, b) = if a <= b { (a, b) } else { (b, a) };
            s.opening_buys_entry(a, b).score.add_game(won, winners);
            for c in self.gained_once[p].iter() {
                let t = self.first_turn[p][c as usize];
                s.cards[c as usize].gained_by[gain_bucket(t)].add_game(won, winners);
            }
            let pl = g.player(p as u8);
            for c in g.kingdom.in_game.iter() {
                let a = &mut s.cards[c as usize];
                a.owned_end += pl.owned[c as usize] as u64;
                a.played += self.plays[p][c as usize] as u64;
            }
        }
    }

    /// Record the money seen now if it is the recorded turn.
    #[inline(always)]
    fn observe(&mut self, g: &Game) {
        if g.active == self.cur {
            let m = g.turn.coins + self.spent;
            if m > self.money {
                self.money = m;
            }
        }
    }

    /// Close the recorded turn: money, VP and deck size at its end.
    fn close_turn(&mut self, g: &Game) {
        if self.cur_turn == 0 {
            return;
        }
        let p = self.cur as usize;
        let t = self.cur_turn as usize;
        if t <= 2 {
            self.opening[p][t - 1] = self.money;
        }
        let s = &mut self.stats.strategies[self.seat_strategy[p] as usize];
        let ta = &mut s.turns[t.min(TURNS) - 1];
        let m = self.money as u64;
        ta.n += 1;
        ta.money += m;
        ta.vp += g.vp(self.cur) as i64;
        ta.deck += g.player(self.cur).owned_total as u64;
        ta.hit5 += (m >= 5) as u64;
        ta.hit6 += (m >= 6) as u64;
        ta.hit8 += (m >= 8) as u64;
        ta.money_hist[(m as usize).min(MONEY_BUCKETS - 1)] += 1;
    }

    #[inline(never)]
    fn record(&mut self, g: &Game, e: Event) {
        match e {
            Event::TurnStart { player, turn } => {
                self.close_turn(g);
                self.cur = player;
                self.cur_turn = turn;
                self.spent = 0;
                self.money = 0;
                return;
            }
            Event::Buy { player, card } => {
                if player == self.cur {
                    self.spent += g.cost(card) as u16;
                    let t = self.cur_turn as usize;
                    if (1..=2).contains(&t) {
                        let slot = &mut self.open_buys[player as usize][t - 1];
                        if slot.is_none() {
                            *slot = Some(card);
                        }
                    }
                }
                self.card(player, card).bought += 1;
            }
            Event::Trash { player, card } => self.card(player, card).trashed += 1,
            Event::Gain { player, card } => {
                let p = player as usize;
                let t = (g.turns_taken[p].max(1) as usize).min(TURNS);
                let first = !self.gained_once[p].contains(card);
                self.gained_once[p].insert(card);
                let s = &mut self.stats.strategies[self.seat_strategy[p] as usize];
                let a = &mut s.cards[card as usize];
                a.gained += 1;
                if first {
                    a.first_gain_games += 1;
                    a.first_gain_turn += t as u64;
                    self.first_turn[p][card as usize] = t as u16;
                }
                s.turns[t - 1].gained += 1;
                s.gain_turn[(t - 1) * Card::COUNT + card as usize] += 1;
            }
            _ => {}
        }
        self.observe(g);
    }

    #[inline(always)]
    fn card(&mut self, player: u8, card: Card) -> &mut CardAcc {
        let s = self.seat_strategy[player as usize] as usize;
        &mut self.stats.strategies[s].cards[card as usize]
    }
}

impl<B: Bots> Bots for Recorder<B> {
    #[inline]
    fn pick(&mut self, g: &Game, q: &Pick) -> Option<Card> {
        self.state.observe(g);
        self.inner.pick(g, q)
    }
    #[inline]
    fn turn_pick(&mut self, g: &Game, q: &Pick) -> Option<Card> {
        self.state.observe(g);
        self.inner.turn_pick(g, q)
    }
    #[inline]
    fn yes_no(&mut self, g: &Game, q: &YesNo) -> bool {
        self.state.observe(g);
        self.inner.yes_no(g, q)
    }
    #[inline]
    fn play_all_treasures(&mut self, g: &Game, player: u8) -> bool {
        self.inner.play_all_treasures(g, player)
    }
    #[inline]
    fn choose(&mut self, g: &Game, q: &Choose) -> u8 {
        self.state.observe(g);
        self.inner.choose(g, q)
    }
    #[inline(always)]
    fn event(&mut self, g: &Game, e: Event) {
        self.inner.event(g, e);
        // Draws are most events: keep their path inline and short.
        match e {
            Event::Play { player, card } => {
                let st = &mut *self.state;
                st.plays[player as usize][card as usize] += 1;
                st.observe(g);
            }
            Event::Buy { .. }
            | Event::Gain { .. }
            | Event::Trash { .. }
            | Event::TurnStart { .. } => self.state.record(g, e),
            // Moves no money: the statistics are those before the event.
            // (Returning Spoils to its pile, or Fortress from the trash to
            // the hand, changes what is owned, not the turn's money.)
            Event::DeckToDiscard { .. }
            | Event::ReturnToPile { .. }
            | Event::TrashToHand { .. } => {}
            _ => self.state.observe(g),
        }
    }
}

// -------------------------------------------------------------------------
// The driver

/// Strategy index of each seat in game `index` with `strategies` strategies
/// (1 ≤ strategies ≤ players): seat `s` plays strategy
/// `(s + index) % strategies`, so over any `strategies` consecutive games each
/// strategy plays each seat equally often. With as many strategies as seats
/// (the usual matchup) each game has one player of each; with fewer, some
/// strategies fill two seats (e.g. 3 players, 2 strategies: A B A, then B A B).
pub fn seat_strategies(strategies: usize, players: usize, index: u64) -> [usize; MAX_PLAYERS] {
    let m = strategies.max(1) as u64;
    let mut s = [0usize; MAX_PLAYERS];
    for (seat, x) in s.iter_mut().enumerate().take(players) {
        *x = ((seat as u64 + index) % m) as usize;
    }
    s
}

/// The simulator's pool ([`crate::sim::pool`]); None if it cannot start
/// (the caller then plays in the current pool).
fn pool(threads: usize) -> Option<rayon::ThreadPool> {
    crate::sim::pool(threads).ok()
}

/// The runner hook that records playtest statistics in the same pass as the
/// win-rate table (`crate::dominion::matches::run_hooked`): entrant `e` of the run is
/// strategy `e` of the statistics, and every game is recorded in the seats
/// the table counts it in.
pub struct Recording<'a> {
    pub kingdom: &'a Kingdom,
    /// Entrant names, one per seat.
    pub names: &'a [String],
}

impl crate::dominion::matches::GameHook for Recording<'_> {
    type Acc = Option<Box<RecordState>>;
    fn acc(&self) -> Self::Acc {
        Some(RecordState::new(PlaytestStats::new(
            self.kingdom,
            self.names,
        )))
    }
    fn merge(&self, a: Self::Acc, b: Self::Acc) -> Self::Acc {
        match (a, b) {
            (Some(mut a), Some(b)) => {
                a.stats += &b.stats;
                Some(a)
            }
            (a, b) => a.or(b),
        }
    }
    fn play<B: Bots>(
        &self,
        acc: &mut Self::Acc,
        g: &mut Game,
        bots: B,
        order: &[u8],
    ) -> crate::engine::Outcome {
        let state = acc
            .take()
            .unwrap_or_else(|| RecordState::new(PlaytestStats::new(self.kingdom, self.names)));
        let mut seats = [0usize; MAX_PLAYERS];
        for (s, &e) in seats.iter_mut().zip(order) {
            *s = e as usize;
        }
        let mut rec = Recorder::from_state(bots, state);
        rec.begin(g, &seats[..order.len()]);
        let o = g.play_game(&mut rec);
        rec.end(g);
        *acc = Some(rec.into_state());
        o
    }
}

/// Play `games` games (indices 0..games) of `names.len()` strategies rotated
/// over the seats ([`seat_strategies`]), recording every statistic. `make_bots` gets
/// the strategy index of each seat and builds the bots of one game.
/// `threads == 0` uses rayon's default. The result does not depend on `threads`.
///
/// Panics unless `1 <= names.len() <= k.players`.
pub fn playtest<F, B>(
    k: &Kingdom,
    names: &[String],
    games: u64,
    seed: u64,
    threads: usize,
    make_bots: F,
) -> PlaytestStats
where
    F: Fn(&[usize]) -> B + Sync,
    B: Bots,
{
    let run = || playtest_range(k, names, 0..games, seed, &make_bots);
    match pool(threads) {
        Some(p) => p.install(run),
        None => run(),
    }
}

/// Play the games with indices `range` in the current rayon pool (see
/// [`playtest`]). Running `0..a` and `a..b` and merging gives exactly the
/// statistics of `0..b`.
pub fn playtest_range<F, B>(
    k: &Kingdom,
    names: &[String],
    range: Range<u64>,
    seed: u64,
    make_bots: &F,
) -> PlaytestStats
where
    F: Fn(&[usize]) -> B + Sync,
    B: Bots,
{
    let n = k.players as usize;
    let m = names.len();
    assert!(
        (1..=n).contains(&m),
        "playtest needs 1 to {n} strategies, not {m}"
    );
    let len = range.end.saturating_sub(range.start);
    let chunk = (len / (8 * rayon::current_num_threads() as u64)).clamp(16, 4096) as usize;
    let start = range.start;
    (0..len as usize)
        .into_par_iter()
        .with_min_len(chunk)
        .map(|j| start + j as u64)
        .fold(
            || {
                let state = RecordState::new(PlaytestStats::new(k, names));
                (Box::new(Game::new(k, seed, 0)), Some(state))
            },
            |(mut g, mut state), i| {
                let seats = seat_strategies(m, n, i);
                g.reset(k, seed, i);
                let state_in = state
                    .take()
                    .unwrap_or_else(|| RecordState::new(PlaytestStats::new(k, names)));
                let mut rec = Recorder::from_state(make_bots(&seats[..n]), state_in);
                rec.begin(&g, &seats[..n]);
                g.play_game(&mut rec);
                rec.end(&g);
                (g, Some(rec.into_state()))
            },
        )
        .map(|(_, state)| state.map_or_else(|| PlaytestStats::new(k, names), |s| s.stats))
        .reduce(
            || PlaytestStats::new(k, names),
            |mut a, b| {
                a += &b;
                a
            },
        )
}

// -------------------------------------------------------------------------
// Sequential mode

/// How a sequential run stops.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sequential {
    /// Stop once the 95% half-width is below this (e.g. 0.005).
    pub precision: f64,
    /// Games per batch. The criterion is checked only at batch boundaries,
    /// which are fixed (game indices `j*batch..(j+1)*batch`), so a seed always
    /// gives the same result whatever the thread count.
    pub batch: u64,
    /// Never play more than this many games (rounded up to a whole batch).
    pub max_games: u64,
}

impl Default for Sequential {
    fn default() -> Self {
        Sequential {
            precision: 0.005,
            batch: 10_000,
            max_games: 10_000_000,
        }
    }
}

/// Result of a sequential run.
#[derive(Clone, Debug, PartialEq)]
pub struct SequentialResult<S> {
    pub stats: S,
    pub games: u64,
    /// Half-width reached.
    pub half_width: f64,
    /// Whether the precision was reached (false: stopped by `max_games`).
    pub converged: bool,
}

/// Generic sequential mode: `run_batch(range)` plays the games with those
/// indices and returns their accumulator; batches are merged with `+=` until
/// `half_width(&total) < cfg.precision` or `max_games` is reached. Any
/// accumulator works (the simulator's plain win counters too).
pub fn run_sequential<S, R, H>(
    cfg: &Sequential,
    mut run_batch: R,
    half_width: H,
) -> SequentialResult<S>
where
    S: AddAssign,
    R: FnMut(Range<u64>) -> S,
    H: Fn(&S) -> f64,
{
    let batch = cfg.batch.max(1);
    let mut total = run_batch(0..batch);
    let mut games = batch;
    loop {
        let h = half_width(&total);
        if h < cfg.precision || games >= cfg.max_games {
            return SequentialResult {
                stats: total,
                games,
                half_width: h,
                converged: h < cfg.precision,
            };
        }
        total += run_batch(games..games + batch);
        games += batch;
    }
}

/// [`playtest`] in sequential mode: stops once every strategy's win-rate 95%
/// interval is narrower than `cfg.precision` (half-width).
pub fn playtest_sequential<F, B>(
    k: &Kingdom,
    names: &[String],
    cfg: &Sequential,
    seed: u64,
    threads: usize,
    make_bots: F,
) -> SequentialResult<PlaytestStats>
where
    F: Fn(&[usize]) -> B + Sync,
    B: Bots,
{
    let p = pool(threads);
    run_sequential(
        cfg,
        |r| match &p {
            Some(p) => p.install(|| playtest_range(k, names, r, seed, &make_bots)),
            None => playtest_range(k, names, r, seed, &make_bots),
        },
        |s: &PlaytestStats| s.max_ci95(),
    )
}

// -------------------------------------------------------------------------
// Saving a run (so `domsim report` can build a report from an earlier run)

#[derive(Serialize, Deserialize)]
struct Saved {
    format: String,
    /// Card names in id order: per-card vectors are indexed by card id, so a
    /// file is only readable by a build with the same card table.
    cards: Vec<String>,
    turns: usize,
    stats: PlaytestStats,
}

const FORMAT: &str = "domsim-playtest-stats-1";

/// Save statistics as JSON (atomically), to merge or report on later.
pub fn save_json(path: &Path, st: &PlaytestStats) -> anyhow::Result<()> {
    html::write_atomic(path, |w| write_json_to(w, st))
}

/// The JSON of [`save_json`], written to `w` (for a run that commits its
/// outputs together, see [`crate::output::Commit`]).
pub fn write_json_to(w: &mut dyn io::Write, st: &PlaytestStats) -> io::Result<()> {
    let saved = Saved {
        format: FORMAT.into(),
        cards: Card::ALL.iter().map(|c| c.name().to_string()).collect(),
        turns: TURNS,
        stats: st.clone(),
    };
    serde_json::to_writer(w, &saved).map_err(io::Error::other)
}

/// Load statistics saved by [`save_json`]. Fails (InvalidData) on a file from
/// a build with a different card table or turn limit.
pub fn load_json(path: &Path) -> io::Result<PlaytestStats> {
    let text = crate::output::read_input(path, "statistics file")
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("{e:#}")))?;
    parse_json(&text).map_err(|why| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{}: {why}", path.display()),
        )
    })
}

/// Parse and validate statistics saved by [`save_json`] (the fuzz target
/// `stats_json` feeds it arbitrary text: it must never panic).
pub fn parse_json(text: &str) -> Result<PlaytestStats, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let saved: Saved = serde_json::from_str(text).map_err(|e| e.to_string())?;
    if saved.format != FORMAT {
        return Err(format!("not a {FORMAT} file"));
    }
    let cards: Vec<String> = Card::ALL.iter().map(|c| c.name().to_string()).collect();
    if saved.cards.len() != cards.len() || saved.turns != TURNS {
        return Err("saved by a domsim build with a different card table".into());
    }
    // (saved slot, slot here) of each data card, when the run bound its
    // data cards in other slots than this command.
    let mut remap: Option<Vec<(usize, usize)>> = None;
    if saved.cards != cards {
        // Printed cards differ: another build. Only data slots differ: the
        // run bound data cards this command has not (or others).
        let printed_differ = Card::ALL
            .iter()
            .zip(&saved.cards)
            .any(|(c, s)| !c.is_data() && c.name() != s);
        if printed_differ {
            return Err("saved by a domsim build with a different card table".into());
        }
        // Only data slots differ: the run bound other data cards, or the
        // same in another order. Each of its data cards is found by name
        // among the cards this command binds (so two runs of different
        // data cards can be reported side by side, given both files).
        let mut pairs = Vec::new();
        let mut missing = Vec::new();
        for (i, (c, name)) in Card::ALL.iter().zip(&saved.cards).enumerate() {
            if !c.is_data() || name.starts_with("(data slot") {
                continue;
            }
            match Card::ALL
                .iter()
                .position(|d| d.is_data() && d.name() == name)
            {
                Some(j) => pairs.push((i, j)),
                None => missing.push(name.as_str()),
            }
        }
        if !missing.is_empty() {
            let named = |names: &mut dyn Iterator<Item = &str>| -> String {
                let v: Vec<&str> = names.filter(|n| !n.starts_with("(data slot")).collect();
                if v.is_empty() {
                    "none".into()
                } else {
                    v.join(", ")
                }
            };
            let data = Card::ALL
                .iter()
                .zip(&saved.cards)
                .filter(|(c, _)| c.is_data());
            let saved_data = named(&mut data.clone().map(|(_, s)| s.as_str()));
            let bound = named(&mut data.map(|(c, _)| c.name()));
            return Err(format!(
                "these statistics were saved by a run with data cards ({saved_data}), and this command binds {bound}: give the card files that define {} (and the run's --cards-only), e.g. domsim --cards FILE.toml report …",
                missing.join(", ")
            ));
        }
        remap = Some(pairs);
    }
    let mut st = saved.stats;
    st.validate()?;
    if let Some(pairs) = remap {
        st.move_data_slots(&pairs);
    }
    Ok(st)
}

impl PlaytestStats {
    /// Move the per-card counts of data cards from the slots the saving run
    /// bound them to into this command's (`pairs`: saved slot, slot here);
    /// data slots no pair names are empty here. Validated statistics only
    /// (the per-card vectors have their lengths).
    fn move_data_slots(&mut self, pairs: &[(usize, usize)]) {
        let data: Vec<usize> = (0..Card::COUNT)
            .filter(|&i| Card::ALL[i].is_data())
            .collect();
        for s in &mut self.strategies {
            let old = s.cards.clone();
            for &i in &data {
                s.cards[i] = CardAcc::default();
            }
            for &(from, to) in pairs {
                s.cards[to] = old[from];
            }
            let old = s.gain_turn.clone();
            for t in 0..TURNS {
                let row = t * Card::COUNT;
                for &i in &data {
                    s.gain_turn[row + i] = 0;
                }
                for &(from, to) in pairs {
                    s.gain_turn[row + to] = old[row + from];
                }
            }
        }
    }

    /// Check that the numbers of a loaded statistics file can belong
    /// together; the message names the first field that is wrong.
    pub fn validate(&self) -> Result<(), String> {
        let n = self.players as usize;
        if !(2..=MAX_PLAYERS).contains(&n) {
            return Err(format!(
                "field 'players' is {}, expected 2 to {MAX_PLAYERS}",
                self.players
            ));
        }
        if self.names.len() != n {
            return Err(format!(
                "field 'names' lists {} strategies but 'players' is {n} (one strategy per seat)",
                self.names.len()
            ));
        }
        if self.strategies.len() != self.names.len() {
            return Err(format!(
                "field 'strategies' has {} entries, expected {} (one per name)",
                self.strategies.len(),
                self.names.len()
            ));
        }
        if self.games == 0 {
            return Err("field 'games' is 0: there is nothing to report".into());
        }
        if let Some(i) = self.names.iter().position(|x| x.trim().is_empty()) {
            return Err(format!(
                "field 'names[{i}]' is empty (a strategy has a name)"
            ));
        }
        // Provenance as a run writes it: none (an older file), or one
        // `name | source | hash` per strategy, the hash 16 hexadecimal
        // digits (empty for a built-in).
        if !self.sources.is_empty() && self.sources.len() != self.names.len() {
            return Err(format!(
                "field 'sources' has {} entries, expected {} (one per name)",
                self.sources.len(),
                self.names.len()
            ));
        }
        for (i, src) in self.sources.iter().enumerate() {
            let hash = src.rsplit_once(" | ").map(|(_, h)| h);
            let ok = hash.is_some_and(|h| {
                h.is_empty() || h.len() == 16 && h.bytes().all(|b| b.is_ascii_hexdigit())
            });
            if !ok {
                return Err(format!(
                    "field 'sources[{i}]' is {src:?}, not 'name | source | hash' with a hexadecimal hash"
                ));
            }
        }
        for (field, v) in [
            ("kingdom_source", &self.kingdom_source),
            ("data_cards", &self.data_cards),
        ] {
            if let Some(v) = v.as_deref().filter(|v| v.contains(['\n', '\r'])) {
                return Err(format!(
                    "field '{field}' has a line break ({v:?}); provenance values are one line"
                ));
            }
        }
        // Kingdom entries are card names as the run wrote them: the exact
        // name of a card of this build (a look-up by name would skip the
        // spaces and punctuation of "Cel\nlar").
        for (i, k) in self.kingdom.iter().enumerate() {
            if !Card::ALL.iter().any(|c| c.name() == k) {
                return Err(format!(
                    "field 'kingdom[{i}]' is {k:?}, not the name of a card"
                ));
            }
            if self.kingdom[..i].contains(k) {
                return Err(format!("field 'kingdom[{i}]': '{k}' is given twice"));
            }
        }
        let len = |field: &str, got: usize, want: usize| {
            if got == want {
                Ok(())
            } else {
                Err(format!(
                    "field '{field}' has {got} entries, expected {want}"
                ))
            }
        };
        len("length", self.length.len(), TURNS + 1)?;
        for (i, s) in self.strategies.iter().enumerate() {
            len(&format!("strategies[{i}].turns"), s.turns.len(), TURNS)?;
            len(
                &format!("strategies[{i}].cards"),
                s.cards.len(),
                Card::COUNT,
            )?;
            len(
                &format!("strategies[{i}].gain_turn"),
                s.gain_turn.len(),
                TURNS * Card::COUNT,
            )?;
            len(&format!("strategies[{i}].margin"), s.margin.len(), N_MARGIN)?;
            len(
                &format!("strategies[{i}].openings"),
                s.openings.len(),
                N_OPEN * N_OPEN,
            )?;
        }
        let sum = |it: &mut dyn Iterator<Item = u64>| it.fold(0u64, |a, b| a.saturating_add(b));
        let lengths = sum(&mut self.length.iter().copied());
        if lengths != self.games {
            return Err(format!(
                "field 'length' counts {lengths} games but 'games' is {}",
                self.games
            ));
        }
        let ended = sum(&mut [self.ended_provinces, self.ended_piles, self.ended_cap].into_iter());
        if ended != self.games {
            return Err(format!(
                "fields 'ended_provinces' + 'ended_piles' + 'ended_cap' = {ended} but 'games' is {}",
                self.games
            ));
        }
        for (seat, acc) in self.seats.iter().enumerate() {
            let want = if seat < n { self.games } else { 0 };
            if acc.games != want {
                return Err(format!(
                    "field 'seats[{seat}].games' is {}, expected {want}",
                    acc.games
                ));
            }
        }
        let played = sum(&mut self.strategies.iter().map(|s| s.score().games));
        if played != self.games.saturating_mul(n as u64) {
            return Err(format!(
                "the strategies' seat games add up to {played}, expected games × players = {}",
                self.games.saturating_mul(n as u64)
            ));
        }
        if self.faults > self.games {
            return Err(format!(
                "field 'faults' is {}, more than the {} games",
                self.faults, self.games
            ));
        }
        for (seat, acc) in self.seats.iter().enumerate() {
            check_score(&format!("seats[{seat}]"), acc, self.games)?;
        }
        for (i, s) in self.strategies.iter().enumerate() {
            let g = s.score().games;
            for (seat, acc) in s.seats.iter().enumerate() {
                if acc.score > acc.games.saturating_mul(SCORE_UNIT)
                    || acc.sole_wins.saturating_add(acc.shared_wins) > acc.games
                {
                    return Err(format!(
                        "field 'strategies[{i}].seats[{seat}]' has more wins than games"
                    ));
                }
                check_score(&format!("strategies[{i}].seats[{seat}]"), acc, self.games)?;
            }
            let hist = sum(&mut s.margin.iter().copied());
            if hist != g {
                return Err(format!(
                    "field 'strategies[{i}].margin' counts {hist} games, expected {g}"
                ));
            }
            s.check_bounds(&format!("strategies[{i}]"), g)?;
        }
        Ok(())
    }
}

/// The most times a player can gain, buy, trash or play one card in one
/// turn, generously: an Action phase stops after
/// [`MAX_ACTION_PLAYS_PER_TURN`](crate::engine::MAX_ACTION_PLAYS_PER_TURN)
/// plays and a player holds at most [`MAX_CARDS`](crate::engine::MAX_CARDS)
/// cards. Saved counts are checked against it (a count of 2^64 is refused,
/// no real run comes near).
const MAX_EVENTS_PER_TURN: u64 = 1 << 16;

/// The most coins a turn generates (the engine counts them in 16 bits).
const MAX_MONEY_PER_TURN: u64 = u16::MAX as u64;

/// `x ≤ n × per`, as the message of field `field` when not.
fn at_most(field: &str, x: u64, n: u64, per: u64, what: &str) -> Result<(), String> {
    if x as u128 > n as u128 * per as u128 {
        return Err(format!(
            "field '{field}' is {x}, more than {n} {what} allow (at most {per} each)"
        ));
    }
    Ok(())
}

/// A win score sample of at most `max_games` games: games ≤ `max_games`,
/// wins ≤ games, and a score (and its square) of at most one win a game,
/// so that its rate is within 0..1.
fn check_score(field: &str, acc: &ScoreAcc, max_games: u64) -> Result<(), String> {
    if acc.games > max_games {
        return Err(format!(
            "field '{field}.games' is {}, more than the {max_games} games",
            acc.games
        ));
    }
    if acc.sole_wins.saturating_add(acc.shared_wins) > acc.games {
        return Err(format!(
            "field '{field}' has {} + {} wins in {} games",
            acc.sole_wins, acc.shared_wins, acc.games
        ));
    }
    at_most(
        &format!("{field}.score"),
        acc.score,
        acc.games,
        SCORE_UNIT,
        "games",
    )?;
    at_most(
        &format!("{field}.score_sq"),
        acc.score_sq,
        acc.games,
        SCORE_UNIT * SCORE_UNIT,
        "games",
    )
}

impl StrategyStats {
    /// Check the sums of a strategy that played `g` games against what
    /// that many games can hold: every per-game quantity has a maximum
    /// (turns and VP from the engine's limits, events per turn), a count
    /// of games is at most `g`, and every rate is within 0..1.
    fn check_bounds(&self, at: &str, g: u64) -> Result<(), String> {
        use crate::engine::{MAX_CARDS, MAX_TURNS_PER_GAME, MAX_VP_PER_GAME};
        let cards = MAX_CARDS as u64;
        let max_vp = MAX_VP_PER_GAME as u64;
        let per_game = MAX_TURNS_PER_GAME * MAX_EVENTS_PER_TURN;
        let f = |name: &str| format!("{at}.{name}");
        at_most(
            &f("turns_taken"),
            self.turns_taken,
            g,
            MAX_TURNS_PER_GAME,
            "games",
        )?;
        at_most(&f("vp_end"), self.vp_end.unsigned_abs(), g, max_vp, "games")?;
        for (t, ta) in self.turns.iter().enumerate() {
            let f = |name: &str| format!("{at}.turns[{t}].{name}");
            // Turn t+1 happens once a game (the last bucket: every turn
            // from TURNS on).
            let once = if t + 1 == TURNS {
                MAX_TURNS_PER_GAME.saturating_sub(TURNS as u64 - 1).max(1)
            } else {
                1
            };
            at_most(&f("n"), ta.n, g, once, "games")?;
            at_most(&f("money"), ta.money, ta.n, MAX_MONEY_PER_TURN, "turns")?;
            at_most(&f("vp"), ta.vp.unsigned_abs(), ta.n, max_vp, "turns")?;
            at_most(&f("deck"), ta.deck, ta.n, cards, "turns")?;
            at_most(&f("gained"), ta.gained, g, per_game, "games")?;
            for (name, x) in [("hit5", ta.hit5), ("hit6", ta.hit6), ("hit8", ta.hit8)] {
                at_most(&f(name), x, ta.n, 1, "turns")?;
            }
            for (b, &x) in ta.money_hist.iter().enumerate() {
                at_most(&f(&format!("money_hist[{b}]")), x, ta.n, 1, "turns")?;
            }
        }
        for (c, a) in self.cards.iter().enumerate() {
            let card = Card::ALL.get(c).map_or("?", |x| x.name());
            let f = |name: &str| format!("{at}.cards[{c}] ({card}).{name}");
            for (name, x) in [
                ("gained", a.gained),
                ("bought", a.bought),
                ("played", a.played),
                ("trashed", a.trashed),
            ] {
                at_most(&f(name), x, g, per_game, "games")?;
            }
            at_most(&f("owned_end"), a.owned_end, g, cards, "games")?;
            at_most(&f("first_gain_games"), a.first_gain_games, g, 1, "games")?;
            at_most(
                &f("first_gain_turn"),
                a.first_gain_turn,
                a.first_gain_games,
                TURNS as u64,
                "first gains",
            )?;
            for (b, acc) in a.gained_by.iter().enumerate() {
                check_score(&f(&format!("gained_by[{b}]")), acc, g)?;
            }
        }
        for (j, &x) in self.gain_turn.iter().enumerate() {
            at_most(&format!("{at}.gain_turn[{j}]"), x, g, per_game, "games")?;
        }
        for (j, acc) in self.openings.iter().enumerate() {
            check_score(&format!("{at}.openings[{j}]"), acc, g)?;
        }
        for (j, o) in self.opening_buys.iter().enumerate() {
            check_score(&format!("{at}.opening_buys[{j}].score"), &o.score, g)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sample whose games all scored the same has no sample variance:
    /// its interval is the far side of the Wilson interval, not 0; a
    /// varied sample keeps the normal interval.
    #[test]
    fn constant_scores_have_an_honest_interval() {
        let mut lost = ScoreAcc::default();
        for _ in 0..9 {
            lost.add_game(false, 0);
        }
        let (_, hi) = crate::sim::wilson(0.0, 9);
        assert!((lost.ci95() - hi).abs() < 1e-12, "{}", lost.ci95());
        assert!((lost.ci95() - 0.299).abs() < 0.001, "{}", lost.ci95());
        let mut won = ScoreAcc::default();
        for _ in 0..9 {
            won.add_game(true, 1);
        }
        assert!((won.ci95() - lost.ci95()).abs() < 1e-12);
        // One game: nothing known.
        let mut one = ScoreAcc::default();
        one.add_game(true, 1);
        assert_eq!(one.ci95(), 1.0);
        // Varied: the normal interval of the mean.
        let mut mixed = ScoreAcc::default();
        for k in 0..10 {
            mixed.add_game(k % 2 == 0, 1);
        }
        let want = mean_ci95(10, 5.0, 5.0);
        assert!((mixed.ci95() - want).abs() < 1e-12);
    }
}
