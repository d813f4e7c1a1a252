//! Dominion on the shared runner (`crate::sim`): its match (one kingdom,
//! bots per seat order), its win-rate statistics, mergeable and checked,
//! and its checkpointed run. Runs many games of one kingdom in parallel and
//! accumulates mergeable statistics.
//!
//! * **Entrants.** A run has exactly one entrant per seat (`players`
//!   entrants). An entrant is "a strategy in this run"; the same strategy file
//!   given twice is two entrants, reported on two rows.
//! * **Seat rotation.** Game `i` seats the entrants in the seat order of rank
//!   `i mod n!` among all `n!` permutations of the entrants, in lexicographic
//!   order ([`seat_orders`]): seat `s` (0 = first player) is played by entrant
//!   `order[s]`. A run whose game count is a multiple of `n!` (2, 6, 24, 120,
//!   720 for 2–6 players) plays every seat order exactly equally often;
//!   otherwise the first `games mod n!` orders get one game more.
//! * **Determinism.** Game `i` is dealt by `Game::reset(&kingdom, seed, i)`:
//!   its randomness depends only on `(seed, i)`, never on which thread plays
//!   it. Every accumulator is an integer (a shared win of a `k`-way tie is
//!   `60/k` units of 1/60 of a win, exact for `k` ≤ 6), so merging partial
//!   results in any order gives bit-identical totals: the output is the same
//!   whatever `--threads`.
//! * **Interruption.** The runner plays games in blocks; a stop flag (set by
//!   Ctrl-C / SIGTERM) is checked before every game. Games not yet started
//!   are skipped, games in progress finish, and [`RunResult::completed`] says
//!   how many games were played.

use crate::engine::{Bots, Game, Kingdom, Outcome, MAX_PLAYERS};
use crate::sim::checkpoint::{self, Resumed, Saved};
use crate::sim::runner;
use crate::sim::{wilson, RunConfig};
use anyhow::{anyhow, bail, Result};
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// Units of a win: a `k`-way shared win is `WIN_UNITS / k` units, exact for k ≤ 6.
pub const WIN_UNITS: u64 = 60;

/// Every permutation of `0..n`, in lexicographic order (`n` ≤ 6: at most 720).
pub fn seat_orders(n: usize) -> Vec<[u8; MAX_PLAYERS]> {
    assert!((1..=MAX_PLAYERS).contains(&n));
    let mut out = Vec::new();
    let mut cur = [0u8; MAX_PLAYERS];
    for (i, c) in cur.iter_mut().enumerate() {
        *c = i as u8;
    }
    loop {
        out.push(cur);
        // Next lexicographic permutation of cur[..n].
        let a = &mut cur[..n];
        let Some(i) = (0..n.saturating_sub(1)).rev().find(|&i| a[i] < a[i + 1]) else {
            break;
        };
        let j = (i + 1..n).rev().find(|&j| a[j] > a[i]).unwrap_or(i + 1);
        a.swap(i, j);
        a[i + 1..].reverse();
    }
    out
}

/// How many games of `first..first + games` seat entrant `e` in seat `s`
/// (`[e][s]`), under the rotation of [`seat_orders`] over `n` entrants:
/// what an honest count's `seat_games` must be.
pub fn seat_counts(n: usize, first: u64, games: u64) -> [[u64; MAX_PLAYERS]; MAX_PLAYERS] {
    let orders = seat_orders(n);
    let l = orders.len() as u64;
    let (full, rem) = (games / l, games % l);
    let mut out = [[0u64; MAX_PLAYERS]; MAX_PLAYERS];
    for (k, o) in orders.iter().enumerate() {
        // Games `i` of the range with `i mod l == k`: every full cycle has
        // one, and the remainder `first .. first + rem` (mod l) one more.
        let offset = (k as u64 + l - first % l) % l;
        let c = full + u64::from(offset < rem);
        for (s, &e) in o[..n].iter().enumerate() {
            out[e as usize][s] += c;
        }
    }
    out
}

/// Check that each entrant of `s` sat in each seat as often as the seat
/// rotation puts it there over games `first..first + games`
/// ([`seat_counts`]): two entrants' rows swapped, or a game moved
/// from one seat to another, no longer add up.
pub fn check_seating(
    s: &Stats,
    players: usize,
    first: u64,
    games: u64,
) -> std::result::Result<(), String> {
    let want = seat_counts(players, first, games);
    for (j, e) in s.entrants.iter().enumerate().take(players) {
        if e.seat_games != want[j] {
            return Err(format!(
                "entrants[{j}]: seat_games {:?} is not how the seat rotation seats entrant {j} in games {first}..{} ({:?})",
                &e.seat_games[..players],
                first.saturating_add(games),
                &want[j][..players]
            ));
        }
    }
    Ok(())
}

/// Results of one entrant, accumulated over games. All integers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EntrantStats {
    /// Games played.
    pub games: u64,
    /// Games won alone.
    pub wins: u64,
    /// Games whose win was shared with other players.
    pub ties: u64,
    /// Sum over tied games of `WIN_UNITS / k` (k = players sharing the win).
    pub tie_units: u64,
    /// Games neither won nor tied.
    pub losses: u64,
    /// Sum of final VP.
    pub vp_sum: i64,
    /// Sum of turns taken.
    pub turns_sum: u64,
    /// Games played from each seat.
    pub seat_games: [u64; MAX_PLAYERS],
    /// Win units (`WIN_UNITS` per outright win, `WIN_UNITS / k` per tie) from each seat.
    pub seat_units: [u64; MAX_PLAYERS],
    /// Games that hit the turn cap.
    pub capped: u64,
    /// Games won alone from each seat.
    pub seat_wins: [u64; MAX_PLAYERS],
    /// Games whose win was shared, from each seat.
    pub seat_ties: [u64; MAX_PLAYERS],
}

impl EntrantStats {
    /// Games lost from `seat` (neither won alone nor shared).
    pub fn seat_losses(&self, seat: usize) -> u64 {
        self.seat_games[seat] - self.seat_wins[seat] - self.seat_ties[seat]
    }
    /// Wins with ties counted as shared, in units.
    pub fn win_units(&self) -> u64 {
        self.wins * WIN_UNITS + self.tie_units
    }
    /// Sum of the shares of tied games (Σ 1/k).
    pub fn shared_wins(&self) -> f64 {
        self.tie_units as f64 / WIN_UNITS as f64
    }
    /// Wins with ties counted as shared (wins + Σ 1/k).
    pub fn score_wins(&self) -> f64 {
        self.win_units() as f64 / WIN_UNITS as f64
    }
    /// Add another block's counts (see [`Self::checked_merge`]: the counts
    /// of one run cannot overflow, a merged file's are checked before).
    pub fn merge(&mut self, o: &EntrantStats) {
        *self = self
            .checked_merge(o)
            .expect("the counts of one run fit in 64 bits");
    }
}

impl EntrantStats {
    /// Check that these counts can be those of games with `seats` seats
    /// (1 to [`MAX_PLAYERS`]): wins, ties and losses add up to the games,
    /// the seat counts add up to the totals, no seat beyond `seats` is
    /// used, a tie is worth `WIN_UNITS / k` for some `k` from 2 to `seats`,
    /// and no sum exceeds what its games allow. The error names the field.
    pub fn check(&self, seats: usize) -> Result<(), String> {
        let g = self.games as u128;
        let wlt = self.wins as u128 + self.ties as u128 + self.losses as u128;
        if wlt != g {
            return Err(format!(
                "wins {} + ties {} + losses {} is not its games {}",
                self.wins, self.ties, self.losses, self.games
            ));
        }
        let sum = |v: &[u64; MAX_PLAYERS]| v.iter().map(|&x| x as u128).sum::<u128>();
        for (name, v) in [
            ("seat_games", &self.seat_games),
            ("seat_units", &self.seat_units),
            ("seat_wins", &self.seat_wins),
            ("seat_ties", &self.seat_ties),
        ] {
            if let Some(s) = (seats..MAX_PLAYERS).find(|&s| v[s] != 0) {
                return Err(format!(
                    "{name}[{s}] is {} but a game has {seats} seats",
                    v[s]
                ));
            }
        }
        for (name, v, want) in [
            ("seat_games", &self.seat_games, self.games),
            ("seat_wins", &self.seat_wins, self.wins),
            ("seat_ties", &self.seat_ties, self.ties),
        ] {
            if sum(v) != want as u128 {
                return Err(format!("{name} add up to {}, not {want}", sum(v)));
            }
        }
        for s in 0..seats {
            if self.seat_wins[s] as u128 + self.seat_ties[s] as u128 > self.seat_games[s] as u128 {
                return Err(format!(
                    "seat {s}: {} wins + {} ties in {} games",
                    self.seat_wins[s], self.seat_ties[s], self.seat_games[s]
                ));
            }
        }
        let t = self.ties as u128;
        let (lo, hi) = (
            WIN_UNITS as u128 / seats.max(2) as u128,
            WIN_UNITS as u128 / 2,
        );
        if (self.tie_units as u128) < lo * t || self.tie_units as u128 > hi * t {
            return Err(format!(
                "tie_units {} is not possible for {} ties of {seats} seats",
                self.tie_units, self.ties
            ));
        }
        let units = self.wins as u128 * WIN_UNITS as u128 + self.tie_units as u128;
        if units > u64::MAX as u128 || sum(&self.seat_units) != units {
            return Err(format!(
                "seat_units add up to {}, not wins × {WIN_UNITS} + tie_units = {units}",
                sum(&self.seat_units)
            ));
        }
        if self.capped > self.games {
            return Err(format!("capped {} > games {}", self.capped, self.games));
        }
        // A player takes at most the turn cap's turns and scores at most
        // MAX_VP_PER_GAME in a game.
        let max_turns = crate::engine::MAX_TURNS_PER_GAME;
        if self.turns_sum as u128 > g * max_turns as u128 {
            return Err(format!(
                "turns_sum {} is more than {} games can take (at most {max_turns} turns a game)",
                self.turns_sum, self.games
            ));
        }
        let max_vp = crate::engine::MAX_VP_PER_GAME;
        if self.vp_sum.unsigned_abs() as u128 > g * max_vp as u128 {
            return Err(format!(
                "vp_sum {} is more than {} games can score (at most {max_vp} VP a game, either way)",
                self.vp_sum, self.games
            ));
        }
        Ok(())
    }

    /// [`EntrantStats::merge`], or None when a sum overflows.
    pub fn checked_merge(&self, o: &EntrantStats) -> Option<EntrantStats> {
        let mut r = *self;
        r.games = r.games.checked_add(o.games)?;
        r.wins = r.wins.checked_add(o.wins)?;
        r.ties = r.ties.checked_add(o.ties)?;
        r.tie_units = r.tie_units.checked_add(o.tie_units)?;
        r.losses = r.losses.checked_add(o.losses)?;
        r.vp_sum = r.vp_sum.checked_add(o.vp_sum)?;
        r.turns_sum = r.turns_sum.checked_add(o.turns_sum)?;
        r.capped = r.capped.checked_add(o.capped)?;
        for s in 0..MAX_PLAYERS {
            r.seat_games[s] = r.seat_games[s].checked_add(o.seat_games[s])?;
            r.seat_units[s] = r.seat_units[s].checked_add(o.seat_units[s])?;
            r.seat_wins[s] = r.seat_wins[s].checked_add(o.seat_wins[s])?;
            r.seat_ties[s] = r.seat_ties[s].checked_add(o.seat_ties[s])?;
        }
        Some(r)
    }
}

/// Buckets of the game-length histogram: rounds 0 to 99, and 100 or more.
pub const ROUND_BUCKETS: usize = 101;

/// Games by length in **rounds** (the most turns any player took: a game
/// that ends on the first player's 16th turn lasted 16 rounds), the unit
/// other simulators and strategy articles report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundHist(pub [u64; ROUND_BUCKETS]);

impl serde::Serialize for RoundHist {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter())
    }
}

impl<'de> serde::Deserialize<'de> for RoundHist {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Vec::<u64>::deserialize(d)?;
        let arr: [u64; ROUND_BUCKETS] = v.try_into().map_err(|v: Vec<u64>| {
            serde::de::Error::custom(format!(
                "rounds: {} buckets, expected {ROUND_BUCKETS}",
                v.len()
            ))
        })?;
        Ok(RoundHist(arr))
    }
}

impl Default for RoundHist {
    fn default() -> Self {
        RoundHist([0; ROUND_BUCKETS])
    }
}

impl RoundHist {
    pub fn add(&mut self, rounds: usize) {
        self.0[rounds.min(ROUND_BUCKETS - 1)] += 1;
    }
    pub fn games(&self) -> u64 {
        self.0.iter().sum()
    }
    /// Mean rounds per game (0 with no games).
    pub fn mean(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.0;
        }
        let sum: u64 = self.0.iter().enumerate().map(|(r, &c)| r as u64 * c).sum();
        sum as f64 / n as f64
    }
    /// The smallest length `r` such that at least a fraction `q` of the
    /// games lasted `r` rounds or fewer (0 with no games).
    pub fn quantile(&self, q: f64) -> usize {
        let n = self.games();
        if n == 0 {
            return 0;
        }
        let want = (q * n as f64).ceil().max(1.0) as u64;
        let mut acc = 0;
        for (r, &c) in self.0.iter().enumerate() {
            acc += c;
            if acc >= want {
                return r;
            }
        }
        ROUND_BUCKETS - 1
    }
    /// Add another histogram, or None when a bucket overflows.
    fn checked_merge(mut self, o: &RoundHist) -> Option<RoundHist> {
        for (a, b) in self.0.iter_mut().zip(o.0.iter()) {
            *a = a.checked_add(*b)?;
        }
        Some(self)
    }
}

/// Results of a run: per entrant, plus game-level counters. Mergeable
/// (`merge` is associative and commutative, so thread count is irrelevant).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Stats {
    /// Games played.
    pub games: u64,
    /// Games whose win was shared.
    pub tied_games: u64,
    /// Games that hit the turn cap.
    pub capped: u64,
    /// Games in which some bot gave an illegal answer.
    pub faults: u64,
    /// The lowest game index with a fault, and the fault.
    pub first_fault: Option<(u64, String)>,
    pub entrants: [EntrantStats; MAX_PLAYERS],
    /// Games by length in rounds.
    pub rounds: RoundHist,
}

impl Stats {
    /// Account one finished game: seat `s` was played by entrant `order[s]`.
    pub fn record(&mut self, order: &[u8], o: &Outcome) {
        let n = o.players as usize;
        self.games += 1;
        let k = o.winner_count() as u64;
        if k > 1 {
            self.tied_games += 1;
        }
        if o.capped {
            self.capped += 1;
        }
        self.rounds
            .add(o.turns[..n].iter().copied().max().unwrap_or(0) as usize);
        for (s, &who) in order.iter().enumerate().take(n) {
            let e = &mut self.entrants[who as usize];
            e.games += 1;
            e.seat_games[s] += 1;
            e.vp_sum += o.vp[s] as i64;
            e.turns_sum += o.turns[s] as u64;
            if o.capped {
                e.capped += 1;
            }
            if o.won(s) {
                let units = WIN_UNITS / k;
                if k == 1 {
                    e.wins += 1;
                    e.seat_wins[s] += 1;
                } else {
                    e.ties += 1;
                    e.tie_units += units;
                    e.seat_ties[s] += 1;
                }
                e.seat_units[s] += units;
            } else {
                e.losses += 1;
            }
        }
    }

    /// Add another block's counts (see [`Self::checked_merge`]).
    pub fn merge(self, o: Stats) -> Stats {
        self.checked_merge(&o)
            .expect("the counts of one run fit in 64 bits")
    }

    /// Wins, ties and losses of whoever sat in `seat`, over every entrant.
    pub fn seat_record(&self, seat: usize) -> (u64, u64, u64) {
        self.entrants.iter().fold((0, 0, 0), |(w, t, l), e| {
            (
                w + e.seat_wins[seat],
                t + e.seat_ties[seat],
                l + e.seat_losses(seat),
            )
        })
    }
}

impl Stats {
    /// Check that these are the counts of games with `players` seats, each
    /// seat played by one of entrants `0..players` (a `sim` run, or one
    /// table of `rank`): every entrant played every game, each seat was
    /// filled once per game, the game-level counters fit the games, the
    /// round histogram counts every game once, and nothing is recorded for
    /// entrants past `players`. The error names the field.
    pub fn check(&self, players: usize) -> Result<(), String> {
        if !(1..=MAX_PLAYERS).contains(&players) {
            return Err(format!("{players} players (1 to {MAX_PLAYERS})"));
        }
        for (name, v) in [
            ("tied_games", self.tied_games),
            ("capped", self.capped),
            ("faults", self.faults),
        ] {
            if v > self.games {
                return Err(format!("{name} {v} > games {}", self.games));
            }
        }
        if (self.faults > 0) != self.first_fault.is_some() {
            return Err(format!(
                "faults {} does not go with first_fault {}",
                self.faults,
                if self.first_fault.is_some() {
                    "set"
                } else {
                    "absent"
                }
            ));
        }
        let rounds: u128 = self.rounds.0.iter().map(|&c| c as u128).sum();
        if rounds != self.games as u128 {
            return Err(format!(
                "rounds histogram counts {rounds} games, not {}",
                self.games
            ));
        }
        for (j, e) in self.entrants.iter().enumerate() {
            if j >= players {
                if *e != EntrantStats::default() {
                    return Err(format!(
                        "entrants[{j}] has counts but the games have {players} players"
                    ));
                }
                continue;
            }
            e.check(players)
                .map_err(|m| format!("entrants[{j}]: {m}"))?;
            if e.games != self.games {
                return Err(format!(
                    "entrants[{j}]: games {} is not the {} games played",
                    e.games, self.games
                ));
            }
            if e.capped != self.capped {
                return Err(format!(
                    "entrants[{j}]: capped {} is not the {} capped games",
                    e.capped, self.capped
                ));
            }
        }
        let es = &self.entrants[..players];
        for s in 0..players {
            let filled: u128 = es.iter().map(|e| e.seat_games[s] as u128).sum();
            if filled != self.games as u128 {
                return Err(format!(
                    "seat {s} is filled {filled} times in {} games",
                    self.games
                ));
            }
        }
        let ties: u128 = es.iter().map(|e| e.ties as u128).sum();
        let tied = self.tied_games as u128;
        if ties < 2 * tied || ties > players as u128 * tied {
            return Err(format!(
                "{ties} shared wins do not fit tied_games {}",
                self.tied_games
            ));
        }
        let wins: u128 = es.iter().map(|e| e.wins as u128).sum();
        if wins > (self.games - self.tied_games) as u128 {
            return Err(format!(
                "{wins} outright wins in {} games without a tie",
                self.games - self.tied_games
            ));
        }
        Ok(())
    }

    /// [`Stats::merge`], or None when a sum overflows.
    pub fn checked_merge(mut self, o: &Stats) -> Option<Stats> {
        self.games = self.games.checked_add(o.games)?;
        self.tied_games = self.tied_games.checked_add(o.tied_games)?;
        self.capped = self.capped.checked_add(o.capped)?;
        self.faults = self.faults.checked_add(o.faults)?;
        self.first_fault = match (self.first_fault.take(), o.first_fault.clone()) {
            (Some(a), Some(b)) => Some(if a.0 <= b.0 { a } else { b }),
            (a, b) => a.or(b),
        };
        for (a, b) in self.entrants.iter_mut().zip(o.entrants.iter()) {
            *a = a.checked_merge(b)?;
        }
        self.rounds = self.rounds.checked_merge(&o.rounds)?;
        Some(self)
    }
}

impl Stats {
    /// The widest 95% Wilson half-width of the entrants' scores.
    pub fn widest_half_width(&self) -> f64 {
        self.entrants
            .iter()
            .filter(|e| e.games > 0)
            .map(|e| {
                let (lo, hi) = wilson(e.score_wins(), e.games);
                (hi - lo) / 2.0
            })
            .fold(0.0, f64::max)
    }
}

/// What a run produced.
#[derive(Clone, Debug)]
pub struct RunResult {
    pub stats: Stats,
    /// Games played (less than asked when interrupted).
    pub completed: u64,
    pub interrupted: bool,
}

/// What the runner does with each game besides counting its result: nothing
/// ([`Plain`]), or feed it to a playtest recorder
/// (`crate::stats::Recording`), so that the statistics describe exactly the
/// games of the win-rate table, collected in the same pass.
pub trait GameHook: Sync {
    /// Per-worker accumulator, merged at the end.
    type Acc: Send;
    fn acc(&self) -> Self::Acc;
    fn merge(&self, a: Self::Acc, b: Self::Acc) -> Self::Acc;
    /// Play the freshly dealt game `g` with `bots`; seat `s` is played by
    /// entrant `order[s]`.
    fn play<B: Bots>(&self, acc: &mut Self::Acc, g: &mut Game, bots: B, order: &[u8]) -> Outcome;
    /// Called once game `index` is over and counted (default: nothing).
    #[inline(always)]
    fn finished(&self, _acc: &mut Self::Acc, _index: u64, _order: &[u8], _o: &Outcome) {}
}

/// One game of a run, for `--games-csv`: which entrant sat where and how
/// the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub index: u64,
    pub order: [u8; MAX_PLAYERS],
    pub outcome: Outcome,
}

/// A hook that also keeps every game's [`GameRow`] (`--games-csv`), around
/// another hook.
pub struct WithRows<'a, H>(pub &'a H);

impl<H: GameHook> GameHook for WithRows<'_, H> {
    type Acc = (H::Acc, Vec<GameRow>);
    fn acc(&self) -> Self::Acc {
        (self.0.acc(), Vec::new())
    }
    fn merge(&self, a: Self::Acc, b: Self::Acc) -> Self::Acc {
        let mut rows = a.1;
        rows.extend(b.1);
        (self.0.merge(a.0, b.0), rows)
    }
    fn play<B: Bots>(&self, acc: &mut Self::Acc, g: &mut Game, bots: B, order: &[u8]) -> Outcome {
        self.0.play(&mut acc.0, g, bots, order)
    }
    fn finished(&self, acc: &mut Self::Acc, index: u64, order: &[u8], o: &Outcome) {
        self.0.finished(&mut acc.0, index, order, o);
        let mut ord = [0u8; MAX_PLAYERS];
        ord[..order.len()].copy_from_slice(order);
        acc.1.push(GameRow {
            index,
            order: ord,
            outcome: *o,
        });
    }
}

/// A run that only counts results.
pub struct Plain;

impl GameHook for Plain {
    type Acc = ();
    #[inline]
    fn acc(&self) {}
    #[inline]
    fn merge(&self, _: (), _: ()) {}
    #[inline]
    fn play<B: Bots>(&self, _: &mut (), g: &mut Game, mut bots: B, _: &[u8]) -> Outcome {
        g.play_game(&mut bots)
    }
}

/// Dominion on the shared runner ([`runner::Match`]): one kingdom, bots made
/// per seat order by `make`, every game also given to `hook`. Game `i` is
/// dealt from `(seed, i)` and seated by seat order `i mod n!`.
pub struct DominionMatch<'a, F, H> {
    pub kingdom: &'a Kingdom,
    pub make: F,
    pub hook: &'a H,
    orders: Vec<[u8; MAX_PLAYERS]>,
}

impl<'a, F, H> DominionMatch<'a, F, H> {
    pub fn new(kingdom: &'a Kingdom, make: F, hook: &'a H) -> Self {
        DominionMatch {
            kingdom,
            make,
            hook,
            orders: seat_orders(kingdom.n()),
        }
    }
}

impl<B, F, H> runner::Match for DominionMatch<'_, F, H>
where
    B: Bots,
    F: Fn(&[u8]) -> B + Sync,
    H: GameHook,
{
    type Worker = Game;
    type Tally = (Stats, H::Acc);

    fn worker(&self) -> Game {
        Game::new(self.kingdom, 0, 0)
    }
    fn tally(&self) -> (Stats, H::Acc) {
        (Stats::default(), self.hook.acc())
    }
    fn merge(&self, a: (Stats, H::Acc), b: (Stats, H::Acc)) -> (Stats, H::Acc) {
        (a.0.merge(b.0), self.hook.merge(a.1, b.1))
    }
    fn games(&self, t: &(Stats, H::Acc)) -> u64 {
        t.0.games
    }
    fn widest_half_width(&self, t: &(Stats, H::Acc)) -> f64 {
        t.0.widest_half_width()
    }
    fn check_tally(&self, t: &(Stats, H::Acc)) -> Result<(), String> {
        if t.0.games == 0 {
            return Ok(());
        }
        t.0.check(self.kingdom.n())
    }
    #[inline]
    fn play(&self, g: &mut Game, seed: u64, i: u64, t: &mut (Stats, H::Acc)) {
        let n = self.kingdom.n();
        let order = &self.orders[(i % self.orders.len() as u64) as usize][..n];
        let bots = (self.make)(order);
        g.reset(self.kingdom, seed, i);
        let o = self.hook.play(&mut t.1, g, bots, order);
        self.hook.finished(&mut t.1, i, order, &o);
        let st = &mut t.0;
        st.record(order, &o);
        if let Some(f) = &g.fault {
            st.faults += 1;
            if st.first_fault.as_ref().is_none_or(|(j, _)| i < *j) {
                st.first_fault = Some((i, f.to_string()));
            }
        }
    }
}

/// Play `cfg.games` games of `kingdom`, with `make(order)` giving the bots of
/// one game (seat `s` played by entrant `order[s]`). See the module doc for
/// seat rotation, determinism and interruption.
pub fn run<B, F>(kingdom: &Kingdom, cfg: &RunConfig, make: F, stop: &AtomicBool) -> RunResult
where
    B: Bots,
    F: Fn(&[u8]) -> B + Sync,
{
    run_hooked(kingdom, cfg, make, stop, &Plain).0
}

/// [`run`], with every game also given to `hook` (one pass: the hook sees
/// exactly the games counted, in the same seats).
pub fn run_hooked<B, F, H>(
    kingdom: &Kingdom,
    cfg: &RunConfig,
    make: F,
    stop: &AtomicBool,
    hook: &H,
) -> (RunResult, H::Acc)
where
    B: Bots,
    F: Fn(&[u8]) -> B + Sync,
    H: GameHook,
{
    let m = DominionMatch::new(kingdom, make, hook);
    let r = runner::run_match(&m, cfg, stop);
    let (stats, acc) = r.tally;
    (
        RunResult {
            stats,
            completed: r.completed,
            interrupted: r.interrupted,
        },
        acc,
    )
}

// -------------------------------------------------------------------------
// Checkpoints (`crate::sim::checkpoint`) of Dominion's tally

impl Saved for Stats {
    fn saved_games(&self) -> u64 {
        self.games
    }

    /// The players are those of the seats that were played (a checkpoint
    /// does not say them otherwise): [`Stats::check`] then holds them to one
    /// entrant per seat, every entrant in every game.
    fn check(&self) -> std::result::Result<(), String> {
        if self.games == 0 {
            return if *self == Stats::default() {
                Ok(())
            } else {
                Err("counts recorded for 0 games".into())
            };
        }
        let players = (0..MAX_PLAYERS)
            .filter(|&s| self.entrants.iter().any(|e| e.seat_games[s] > 0))
            .count();
        self.check(players.max(1))
    }

    fn check_games(&self, first: u64, games: u64) -> std::result::Result<(), String> {
        let players = (0..MAX_PLAYERS)
            .filter(|&s| self.entrants.iter().any(|e| e.seat_games[s] > 0))
            .count();
        if games == 0 {
            return Ok(());
        }
        check_seating(self, players.max(1), first, games)
    }

    fn write_lines(&self, t: &mut String) {
        let s = self;
        t.push_str(&format!(
            "games {}\ntied_games {}\ncapped {}\nfaults {}\n",
            s.games, s.tied_games, s.capped, s.faults
        ));
        if let Some((i, f)) = &s.first_fault {
            t.push_str(&format!("first_fault {i} {}\n", checkpoint::one_line(f)));
        }
        for (j, e) in s.entrants.iter().enumerate() {
            let seats = |v: &[u64; MAX_PLAYERS]| {
                v.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            t.push_str(&format!(
                "entrant {j} {} {} {} {} {} {} {} {} {} {} {} {}\n",
                e.games,
                e.wins,
                e.ties,
                e.tie_units,
                e.losses,
                e.vp_sum,
                e.turns_sum,
                e.capped,
                seats(&e.seat_games),
                seats(&e.seat_units),
                seats(&e.seat_wins),
                seats(&e.seat_ties)
            ));
        }
        let rounds: Vec<String> = s
            .rounds
            .0
            .iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .map(|(r, c)| format!("{r}:{c}"))
            .collect();
        t.push_str(&format!("rounds {}\n", rounds.join(" ")));
    }

    fn read_line(&mut self, n: usize, k: &str, v: &str) -> Result<bool> {
        let num = |v: &str| -> Result<u64> {
            v.trim()
                .parse()
                .map_err(|_| anyhow!("line {n}: bad number '{v}'"))
        };
        let c = self;
        match k {
            "games" => c.games = num(v)?,
            "tied_games" => c.tied_games = num(v)?,
            "capped" => c.capped = num(v)?,
            "faults" => c.faults = num(v)?,
            "first_fault" => {
                let (i, f) = v.split_once(' ').unwrap_or((v, ""));
                c.first_fault = Some((num(i)?, checkpoint::un_line(f)));
            }
            "entrant" => {
                let f: Vec<&str> = v.split(' ').collect();
                if f.len() != 9 + 4 * MAX_PLAYERS {
                    bail!("line {n}: expected {} numbers", 9 + 4 * MAX_PLAYERS);
                }
                let j = num(f[0])? as usize;
                if j >= MAX_PLAYERS {
                    bail!("line {n}: entrant {j} out of range");
                }
                let e = &mut c.entrants[j];
                e.games = num(f[1])?;
                e.wins = num(f[2])?;
                e.ties = num(f[3])?;
                e.tie_units = num(f[4])?;
                e.losses = num(f[5])?;
                e.vp_sum = f[6]
                    .parse()
                    .map_err(|_| anyhow!("line {n}: bad number '{}'", f[6]))?;
                e.turns_sum = num(f[7])?;
                e.capped = num(f[8])?;
                for s in 0..MAX_PLAYERS {
                    e.seat_games[s] = num(f[9 + s])?;
                    e.seat_units[s] = num(f[9 + MAX_PLAYERS + s])?;
                    e.seat_wins[s] = num(f[9 + 2 * MAX_PLAYERS + s])?;
                    e.seat_ties[s] = num(f[9 + 3 * MAX_PLAYERS + s])?;
                }
            }
            "rounds" => {
                for pair in v.split_whitespace() {
                    let (r, g) = pair.split_once(':').ok_or_else(|| {
                        anyhow!("line {n}: expected ROUNDS:GAMES, found '{pair}'")
                    })?;
                    let r = num(r)? as usize;
                    if r >= ROUND_BUCKETS {
                        bail!("line {n}: rounds {r} out of range");
                    }
                    c.rounds.0[r] = num(g)?;
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// A Dominion tally without a hook is its [`Stats`].
impl Saved for (Stats, ()) {
    fn saved_games(&self) -> u64 {
        self.0.games
    }
    fn write_lines(&self, out: &mut String) {
        self.0.write_lines(out)
    }
    fn read_line(&mut self, n: usize, key: &str, value: &str) -> Result<bool> {
        self.0.read_line(n, key, value)
    }
    fn check(&self) -> std::result::Result<(), String> {
        Saved::check(&self.0)
    }
    fn check_games(&self, first: u64, games: u64) -> std::result::Result<(), String> {
        self.0.check_games(first, games)
    }
}

/// [`run`] with a checkpoint file ([`checkpoint::run_match`]).
pub fn run_checkpointed<B, F>(
    kingdom: &Kingdom,
    cfg: &RunConfig,
    make: F,
    stop: &AtomicBool,
    path: &Path,
    key: &str,
    every: u64,
) -> Result<Resumed<RunResult>>
where
    B: Bots,
    F: Fn(&[u8]) -> B + Sync,
{
    let m = DominionMatch::new(kingdom, make, &Plain);
    let r = checkpoint::run_match(&m, cfg, stop, path, key, every)?;
    Ok(Resumed {
        result: RunResult {
            stats: r.result.tally.0,
            completed: r.result.completed,
            interrupted: r.result.interrupted,
        },
        resumed_from: r.resumed_from,
        saved: r.saved,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::BigMoney;
    use crate::sim::checkpoint::Checkpoint;

    #[test]
    fn seat_counts_are_those_of_the_rotation() {
        for n in 1..=4 {
            let orders = seat_orders(n);
            for (first, games) in [(0u64, 0u64), (0, 7), (5, 30), (23, 1), (1000, 53)] {
                let mut want = [[0u64; MAX_PLAYERS]; MAX_PLAYERS];
                for i in first..first + games {
                    for (s, &e) in orders[(i % orders.len() as u64) as usize][..n]
                        .iter()
                        .enumerate()
                    {
                        want[e as usize][s] += 1;
                    }
                }
                assert_eq!(seat_counts(n, first, games), want, "{n} {first} {games}");
            }
        }
    }

    #[test]
    fn orders_are_all_permutations() {
        for n in 1..=6 {
            let o = seat_orders(n);
            let fact: usize = (1..=n).product();
            assert_eq!(o.len(), fact);
            let mut v: Vec<Vec<u8>> = o.iter().map(|p| p[..n].to_vec()).collect();
            let sorted = v.clone();
            v.sort();
            assert_eq!(v, sorted, "lexicographic");
            v.dedup();
            assert_eq!(v.len(), fact, "distinct");
        }
        assert_eq!(&seat_orders(3)[1][..3], &[0, 2, 1]);
    }

    fn outcome(vp: &[i32], turns: &[u16], winners: u8) -> Outcome {
        let mut o = Outcome {
            players: vp.len() as u8,
            vp: [0; MAX_PLAYERS],
            turns: [0; MAX_PLAYERS],
            winners,
            capped: false,
        };
        o.vp[..vp.len()].copy_from_slice(vp);
        o.turns[..turns.len()].copy_from_slice(turns);
        o
    }

    #[test]
    fn tie_accounting() {
        let mut s = Stats::default();
        // Seat 0 = entrant 1, seat 1 = entrant 2, seat 2 = entrant 0; seats 0 and 2 tie.
        s.record(&[1, 2, 0], &outcome(&[10, 5, 10], &[12, 12, 12], 0b101));
        // Entrant 2 wins alone from seat 0.
        s.record(&[2, 0, 1], &outcome(&[30, 5, 10], &[12, 12, 11], 0b001));
        assert_eq!(s.games, 2);
        assert_eq!(s.tied_games, 1);
        let e = &s.entrants;
        assert_eq!((e[0].wins, e[0].ties, e[0].losses), (0, 1, 1));
        assert_eq!((e[1].wins, e[1].ties, e[1].losses), (0, 1, 1));
        assert_eq!((e[2].wins, e[2].ties, e[2].losses), (1, 0, 1));
        assert_eq!(e[0].score_wins(), 0.5);
        assert_eq!(e[2].score_wins(), 1.0);
        assert_eq!(e[0].seat_units[2], 30);
        assert_eq!(e[2].seat_units[0], 60);
        assert_eq!(e[1].vp_sum, 20);
        // Per seat: entrant 2 won alone from seat 0; entrants 1 and 0 tied
        // from seats 0 and 2.
        assert_eq!(
            (e[2].seat_wins[0], e[1].seat_ties[0], e[0].seat_ties[2]),
            (1, 1, 1)
        );
        assert_eq!(s.seat_record(0), (1, 1, 0));
        assert_eq!(s.seat_record(1), (0, 0, 2));
        assert_eq!(s.seat_record(2), (0, 1, 1));
        // Rounds: both games lasted 12 rounds (the most turns of any seat).
        assert_eq!(s.rounds.games(), 2);
        assert_eq!(s.rounds.0[12], 2);
        assert_eq!(s.rounds.mean(), 12.0);
        let total: u64 = e.iter().map(|x| x.win_units()).sum();
        assert_eq!(total, 2 * WIN_UNITS, "one win per game in total");
    }

    #[test]
    fn round_quantiles() {
        let mut h = RoundHist::default();
        for r in [10, 12, 12, 14, 30] {
            h.add(r);
        }
        h.add(500);
        assert_eq!(h.games(), 6);
        assert_eq!(h.quantile(0.1), 10);
        assert_eq!(h.quantile(0.5), 12);
        assert_eq!(h.quantile(0.9), ROUND_BUCKETS - 1);
        assert_eq!(RoundHist::default().quantile(0.5), 0);
    }

    #[test]
    fn merge_is_order_independent() {
        let mut a = Stats::default();
        a.record(&[0, 1], &outcome(&[3, 3], &[5, 5], 0b11));
        let mut b = Stats::default();
        b.record(&[1, 0], &outcome(&[3, 9], &[5, 4], 0b10));
        assert_eq!(a.clone().merge(b.clone()), b.merge(a));
    }

    #[test]
    fn checks_and_checked_merges() {
        let mut a = Stats::default();
        a.record(&[0, 1], &outcome(&[3, 3], &[5, 5], 0b11));
        a.record(&[1, 0], &outcome(&[3, 9], &[5, 4], 0b10));
        assert_eq!(a.check(2), Ok(()));
        assert!(a.check(3).is_err(), "entrant 2 played no game");
        let mut wrong = a.clone();
        wrong.entrants[0].wins += 1;
        assert!(wrong.check(2).unwrap_err().contains("entrants[0]: wins"));
        assert_eq!(
            a.clone().checked_merge(&a),
            Some(a.clone().merge(a.clone()))
        );
        let mut huge = a.clone();
        huge.entrants[1].turns_sum = u64::MAX;
        assert_eq!(a.checked_merge(&huge), None);
    }

    fn k() -> Kingdom {
        Kingdom::from_names(
            3,
            &[
                "Cellar",
                "Moat",
                "Village",
                "Woodcutter",
                "Workshop",
                "Militia",
                "Remodel",
                "Smithy",
                "Market",
                "Mine",
            ],
        )
        .unwrap()
    }

    #[test]
    fn text_round_trip() {
        // Three 6-player games (counts that fit together: a checkpoint is
        // checked when read), with a negative VP sum, the last seat's
        // fields used, and a fault whose text needs escaping.
        let mut s = Stats::default();
        for g in 0..3u8 {
            let mut vp = [0; MAX_PLAYERS];
            vp[1] = -3;
            let o = Outcome {
                players: 6,
                vp,
                turns: [9 + g as u16; MAX_PLAYERS],
                winners: 1 << 5,
                capped: false,
            };
            // Seated as a run seats games 0, 1, 2 (a checkpoint is held
            // to the seat rotation).
            let order = seat_orders(6)[g as usize];
            s.record(&order, &o);
        }
        s.faults = 1;
        s.first_fault = Some((2, "a \\ b\nc".into()));
        assert_eq!(s.entrants[1].vp_sum, -9);
        assert_eq!(s.entrants[5].seat_units[5], 120);
        let c = Checkpoint {
            key: "seed 1\nx".into(),
            first: 0,
            next: 3,
            stats: s,
        };
        assert_eq!(
            Checkpoint::parse(&c.to_text(), Stats::default()).unwrap(),
            c
        );
        let t = c.to_text();
        assert!(
            Checkpoint::parse(&t[..t.len() - 4], Stats::default()).is_err(),
            "truncated"
        );
        // A shard's checkpoint keeps where it starts (game 720 = 6!: the
        // seat rotation starts over, so the same counts fit).
        let shard = Checkpoint {
            first: 720,
            next: 723,
            ..c.clone()
        };
        assert!(shard.to_text().contains("\nfirst 720\n"));
        assert_eq!(
            Checkpoint::parse(&shard.to_text(), Stats::default()).unwrap(),
            shard
        );
        // The same counts from game 10 on are not how a run seats them.
        let moved = Checkpoint {
            first: 10,
            next: 13,
            ..c.clone()
        };
        let e = Checkpoint::parse(&moved.to_text(), Stats::default()).unwrap_err();
        assert!(format!("{e}").contains("seat rotation"), "{e}");
        // Any edit the digest covers is refused; a byte-order mark is not one.
        let t = c.to_text();
        let edited = t.replace("\nnext 3\n", "\nnext 3 \n");
        assert_eq!(Checkpoint::parse(&edited, Stats::default()).unwrap(), c);
        let e =
            Checkpoint::parse(&t.replace("key seed", "key Seed"), Stats::default()).unwrap_err();
        assert!(format!("{e}").contains("damaged or edited"), "{e}");
        assert_eq!(
            Checkpoint::parse(&format!("\u{feff}{t}"), Stats::default()).unwrap(),
            c
        );
    }

    #[test]
    fn resumed_equals_uninterrupted() {
        let k = k();
        let cfg = RunConfig {
            games: 700,
            first: 0,
            seed: 5,
            threads: 0,
            progress: false,
            precision: None,
        };
        let no = AtomicBool::new(false);
        let whole = run(&k, &cfg, |_: &[u8]| BigMoney, &no).stats;
        let dir = std::env::temp_dir().join(format!("domsim-ck-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("ck");
        let _ = std::fs::remove_file(&path);
        // Stop after 300 games: the checkpoint holds the first 3 batches of 100.
        let mut first = cfg;
        first.games = 300;
        let r = run_checkpointed(&k, &first, |_: &[u8]| BigMoney, &no, &path, "key", 100).unwrap();
        assert_eq!(r.saved, 300);
        // Resume with a different batch size: same totals.
        let r = run_checkpointed(&k, &cfg, |_: &[u8]| BigMoney, &no, &path, "key", 64).unwrap();
        assert_eq!(r.resumed_from, 300);
        assert_eq!(r.result.stats, whole);
        // Another run's checkpoint is refused.
        assert!(run_checkpointed(&k, &cfg, |_: &[u8]| BigMoney, &no, &path, "other", 64).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
