//! New Salem on the shared runner: a [`Match`] per player count, its integer
//! tally, and the CSV / console / HTML outputs.
//!
//! **Seating.** A run has a field of bots (the shipped six by default). Game
//! `i` deals the characters first, then seats a bot in every chair drawn
//! uniformly from the field with the game's own generator, so the seating,
//! like the deal, depends only on `(seed, i)`: results are identical
//! whatever the thread count or the shards.
//!
//! **Tally.** Integer counts only (a win shared by `k` players is
//! `WIN_UNITS / k`, exact for k ≤ 8), merged by addition: any split of the
//! games gives the same totals.

use super::bot::{SalemBot, Seated};
use super::data::{Team, MAX_PLAYERS, MAX_ROUNDS};
use super::engine::{Game, NoLog, Outcome, Table};
use crate::sim::rng::GameRng;
use crate::sim::{wilson, Match};
use serde::{Deserialize, Serialize};

/// Units of a personal win: a `k`-way shared win is `WIN_UNITS / k`, exact
/// for every k from 1 to 8.
pub const WIN_UNITS: u64 = 840;
/// Despair margins (D − threshold) are histogrammed over ±`MARGIN` (clamped).
pub const MARGIN: i32 = 25;

/// One bot's counts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotTally {
    /// Chairs taken (a bot may sit in several chairs of one game).
    pub seats: u64,
    pub witch_seats: u64,
    /// Chairs as a Witch whose team won.
    pub witch_team_wins: u64,
    pub puritan_seats: u64,
    pub puritan_team_wins: u64,
    /// Personal wins, in `WIN_UNITS` per win.
    pub win_units: u64,
    /// Chairs that ended on Trial, as a Witch and as a Puritan.
    pub tried_as_witch: u64,
    pub tried_as_puritan: u64,
    /// Chairs in games that everybody lost (the Witches' side won with no Witch).
    pub nobody_wins: u64,
}

/// What a New Salem run accumulates (at one player count).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub games: u64,
    pub witch_wins: u64,
    pub puritan_wins: u64,
    /// The Witches' side won with no Witch in play.
    pub nobody_wins: u64,
    /// Games by number of Witches dealt (0..=8).
    pub witch_count: [u64; MAX_PLAYERS + 1],
    /// Histogram of D − threshold, clamped to ±MARGIN (index + MARGIN).
    pub margin_hist: Vec<u64>,
    pub margin_sum: i64,
    pub margin_sq: u64,
    /// Despair cubes at the end, summed (before Trials and sets).
    pub cubes_sum: i64,
    pub trials: u64,
    pub trials_on_witch: u64,
    /// Trials a Puritan Constable launched, and how many hit a Witch.
    #[serde(default)]
    pub puritan_trials: u64,
    #[serde(default)]
    pub puritan_trials_on_witch: u64,
    /// Σ over Trials of the Witches' share of the players each could
    /// name, in units of 1/[`WIN_UNITS`]: the hits naming at random would
    /// expect (all Trials, a Puritan Constable's).
    #[serde(default)]
    pub trial_chance: u64,
    #[serde(default)]
    pub puritan_trial_chance: u64,
    pub launches: [u64; MAX_ROUNDS],
    pub forced: [u64; MAX_ROUNDS],
    pub capped_phases: u64,
    /// Winner's points minus the best loser's on the winning side (games
    /// with a winning side of at least two players and a single winner).
    pub score_margin_sum: u64,
    pub score_margin_sq: u64,
    pub score_margin_games: u64,
    pub tied_games: u64,
    pub bots: Vec<BotTally>,
    /// The run's `threshold` reading is `more_than` (the Witches' side
    /// needs D > threshold): read by the outputs, never counted.
    #[serde(default)]
    pub more_than: bool,
    /// Games by players on Trial at the end (0..=8).
    #[serde(default)]
    pub on_trial_hist: [u64; MAX_PLAYERS + 1],
    /// Despair cubes in play at the end of each round, summed over games.
    #[serde(default)]
    pub despair_round_sum: [i64; MAX_ROUNDS],
    /// Personal wins (in `WIN_UNITS`) by seat, counted from the first
    /// Constable (0) to the left (seat effects).
    #[serde(default)]
    pub seat_win_units: [u64; MAX_PLAYERS],
    /// Per character (index in the data): `[chairs, team wins, personal
    /// win units]`. Sized by [`SalemMatch`]'s tally (empty in a bare `new`).
    #[serde(default)]
    pub characters: Vec<[u64; 3]>,
    /// Per building design: `[copies drafted, chairs that drafted it,
    /// those chairs' personal win units, those chairs' team wins]`.
    #[serde(default)]
    pub designs: Vec<[u64; 4]>,
    /// The names the per-character and per-design rows print, and each
    /// design's Despair cubes per copy drafted (its add icons × the
    /// `despair_per_icon` reading): fixed by the run, not counted.
    #[serde(default)]
    pub labels: Labels,
}

/// The run's fixed names for the per-character and per-design rows.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Labels {
    pub characters: Vec<String>,
    pub designs: Vec<String>,
    pub design_despair: Vec<u64>,
}

impl Labels {
    /// The labels of `table`'s data.
    pub fn of(table: &Table) -> Labels {
        let d = &table.data;
        Labels {
            characters: d.characters.iter().map(|c| c.id.clone()).collect(),
            designs: d.designs.iter().map(|x| x.id.clone()).collect(),
            design_despair: d
                .designs
                .iter()
                .map(|x| x.despair_add as u64 * d.rules.options.despair_per_icon as u64)
                .collect(),
        }
    }
}

/// Add `b` into `a` element by element (an empty `a` takes `b`).
fn add_rows<const K: usize>(a: &mut Vec<[u64; K]>, b: &[[u64; K]]) {
    if a.is_empty() {
        a.extend_from_slice(b);
        return;
    }
    for (x, y) in a.iter_mut().zip(b) {
        for k in 0..K {
            x[k] += y[k];
        }
    }
}

impl Tally {
    pub fn new(bots: usize) -> Tally {
        Tally {
            margin_hist: vec![0; 2 * MARGIN as usize + 1],
            bots: vec![BotTally::default(); bots],
            ..Tally::default()
        }
    }

    pub fn merge(mut self, b: Tally) -> Tally {
        self.games += b.games;
        self.witch_wins += b.witch_wins;
        self.puritan_wins += b.puritan_wins;
        self.nobody_wins += b.nobody_wins;
        for (x, y) in self.witch_count.iter_mut().zip(b.witch_count) {
            *x += y;
        }
        for (x, y) in self.margin_hist.iter_mut().zip(&b.margin_hist) {
            *x += y;
        }
        self.margin_sum += b.margin_sum;
        self.margin_sq += b.margin_sq;
        self.cubes_sum += b.cubes_sum;
        self.trials += b.trials;
        self.trials_on_witch += b.trials_on_witch;
        self.puritan_trials += b.puritan_trials;
        self.puritan_trials_on_witch += b.puritan_trials_on_witch;
        self.trial_chance += b.trial_chance;
        self.puritan_trial_chance += b.puritan_trial_chance;
        for r in 0..MAX_ROUNDS {
            self.launches[r] += b.launches[r];
            self.forced[r] += b.forced[r];
        }
        self.capped_phases += b.capped_phases;
        self.score_margin_sum += b.score_margin_sum;
        self.score_margin_sq += b.score_margin_sq;
        self.score_margin_games += b.score_margin_games;
        self.tied_games += b.tied_games;
        for k in 0..=MAX_PLAYERS {
            self.on_trial_hist[k] += b.on_trial_hist[k];
        }
        for r in 0..MAX_ROUNDS {
            self.despair_round_sum[r] += b.despair_round_sum[r];
        }
        for s in 0..MAX_PLAYERS {
            self.seat_win_units[s] += b.seat_win_units[s];
        }
        add_rows(&mut self.characters, &b.characters);
        add_rows(&mut self.designs, &b.designs);
        if self.labels.designs.is_empty() {
            self.labels = b.labels.clone();
        }
        for (x, y) in self.bots.iter_mut().zip(&b.bots) {
            x.seats += y.seats;
            x.witch_seats += y.witch_seats;
            x.witch_team_wins += y.witch_team_wins;
            x.puritan_seats += y.puritan_seats;
            x.puritan_team_wins += y.puritan_team_wins;
            x.win_units += y.win_units;
            x.tried_as_witch += y.tried_as_witch;
            x.tried_as_puritan += y.tried_as_puritan;
            x.nobody_wins += y.nobody_wins;
        }
        self
    }

    /// Account one game whose chairs were taken by bots `seats`.
    pub fn add(&mut self, o: &Outcome, seats: &[u8]) {
        self.games += 1;
        match o.side {
            Some(Team::Witch) => self.witch_wins += 1,
            Some(Team::Puritan) => self.puritan_wins += 1,
            None => self.nobody_wins += 1,
        }
        self.witch_count[o.witches.count_ones() as usize] += 1;
        let m = (o.despair as i32 - o.threshold as i32).clamp(-MARGIN, MARGIN);
        self.margin_hist[(m + MARGIN) as usize] += 1;
        let full = o.despair as i64 - o.threshold as i64;
        self.margin_sum += full;
        self.margin_sq += (full * full) as u64;
        self.cubes_sum += o.cubes as i64;
        self.trials += o.trials as u64;
        self.trials_on_witch += o.trials_on_witch as u64;
        self.puritan_trials += o.puritan_trials as u64;
        self.puritan_trials_on_witch += o.puritan_trials_on_witch as u64;
        self.trial_chance += o.trial_chance as u64;
        self.puritan_trial_chance += o.puritan_trial_chance as u64;
        for r in 0..MAX_ROUNDS {
            self.launches[r] += o.launches[r] as u64;
            self.forced[r] += o.forced[r] as u64;
        }
        self.capped_phases += o.capped as u64;
        let k = o.winners.count_ones() as u64;
        if k > 1 {
            self.tied_games += 1;
        }
        // Score margin on the winning side.
        if let Some(side) = o.side {
            let side_mask = if side == Team::Witch {
                o.witches
            } else {
                !o.witches
            };
            let mut best = i16::MIN;
            let mut second = i16::MIN;
            for (s, &p) in o.points.iter().enumerate().take(seats.len()) {
                if side_mask & (1 << s) == 0 {
                    continue;
                }
                if p > best {
                    second = best;
                    best = p;
                } else if p > second {
                    second = p;
                }
            }
            if second != i16::MIN && k == 1 {
                let d = (best - second) as u64;
                self.score_margin_sum += d;
                self.score_margin_sq += d * d;
                self.score_margin_games += 1;
            }
        }
        let n = seats.len();
        self.on_trial_hist[o.on_trial.count_ones() as usize] += 1;
        for r in 0..MAX_ROUNDS {
            self.despair_round_sum[r] += o.despair_by_round[r] as i64;
        }
        for (x, &c) in self.designs.iter_mut().zip(o.design_picks.iter()) {
            x[0] += c as u64;
        }
        for s in 0..n {
            let bit = 1u8 << s;
            let units = if o.winners & bit != 0 {
                WIN_UNITS / k
            } else {
                0
            };
            let team_won = match o.side {
                Some(Team::Witch) => o.witches & bit != 0,
                Some(Team::Puritan) => o.witches & bit == 0,
                None => false,
            } as u64;
            let rel = (s + n - o.first_constable as usize) % n;
            self.seat_win_units[rel] += units;
            if let Some(c) = self.characters.get_mut(o.chars[s] as usize) {
                c[0] += 1;
                c[1] += team_won;
                c[2] += units;
            }
            let mut m = o.drafted_designs[s];
            while m != 0 {
                let d = m.trailing_zeros() as usize;
                m &= m - 1;
                if let Some(x) = self.designs.get_mut(d) {
                    x[1] += 1;
                    x[2] += units;
                    x[3] += team_won;
                }
            }
        }
        for (s, &b) in seats.iter().enumerate() {
            let t = &mut self.bots[b as usize];
            let bit = 1u8 << s;
            t.seats += 1;
            let witch = o.witches & bit != 0;
            let tried = o.on_trial & bit != 0;
            if witch {
                t.witch_seats += 1;
                t.witch_team_wins += (o.side == Some(Team::Witch)) as u64;
                t.tried_as_witch += tried as u64;
            } else {
                t.puritan_seats += 1;
                t.puritan_team_wins += (o.side == Some(Team::Puritan)) as u64;
                t.tried_as_puritan += tried as u64;
            }
            if o.winners & bit != 0 {
                t.win_units += WIN_UNITS / k;
            }
            t.nobody_wins += o.side.is_none() as u64;
        }
    }

    /// Check that these counts can be those of `games` games of `players`
    /// (or, when None, of the player count the chairs taken imply): the
    /// three outcomes add up to the games, every game's chairs are taken,
    /// each bot's counts fit its chairs, and no sum exceeds what its games
    /// allow (so nothing overflows when more games are added). The error
    /// names the field.
    pub fn check(&self, players: Option<usize>) -> Result<(), String> {
        let g = self.games as u128;
        let sum = |v: &mut dyn Iterator<Item = u64>| v.map(|x| x as u128).sum::<u128>();
        if self.games == 0 {
            let empty = Tally {
                more_than: self.more_than,
                labels: self.labels.clone(),
                characters: vec![[0; 3]; self.characters.len()],
                designs: vec![[0; 4]; self.designs.len()],
                ..Tally::new(self.bots.len())
            };
            return if *self == empty {
                Ok(())
            } else {
                Err("counts recorded for 0 games".into())
            };
        }
        let seats = sum(&mut self.bots.iter().map(|b| b.seats));
        let p = match players {
            Some(p) => p,
            None => (seats / g) as usize,
        };
        if !(super::data::MIN_PLAYERS..=MAX_PLAYERS).contains(&p) || seats != g * p as u128 {
            return Err(format!(
                "bots take {seats} chairs in {} games (not 3 to {MAX_PLAYERS} per game{})",
                self.games,
                players.map_or(String::new(), |p| format!(", expected {p}"))
            ));
        }
        let outcomes =
            self.witch_wins as u128 + self.puritan_wins as u128 + self.nobody_wins as u128;
        if outcomes != g {
            return Err(format!(
                "witch_wins {} + puritan_wins {} + nobody_wins {} is not games {}",
                self.witch_wins, self.puritan_wins, self.nobody_wins, self.games
            ));
        }
        if sum(&mut self.witch_count.iter().copied()) != g {
            return Err(format!(
                "witch_count does not add up to games {}",
                self.games
            ));
        }
        if let Some(k) = (p + 1..=MAX_PLAYERS).find(|&k| self.witch_count[k] != 0) {
            return Err(format!("witch_count[{k}] is not 0 with {p} players"));
        }
        if self.margin_hist.len() != 2 * MARGIN as usize + 1
            || sum(&mut self.margin_hist.iter().copied()) != g
        {
            return Err(format!(
                "margin_hist is not {} buckets adding up to games {}",
                2 * MARGIN + 1,
                self.games
            ));
        }
        // Per game: D and the threshold are i16, the cubes an i16, Trials,
        // launches and capped phases a u8.
        let wide = u16::MAX as u128;
        let bounded: [(&str, u128, u128); 12] = [
            (
                "puritan_trials",
                self.puritan_trials as u128,
                self.trials as u128,
            ),
            (
                "puritan_trials_on_witch",
                self.puritan_trials_on_witch as u128,
                self.puritan_trials as u128,
            ),
            (
                "trial_chance",
                self.trial_chance as u128,
                self.trials as u128 * WIN_UNITS as u128,
            ),
            (
                "puritan_trial_chance",
                self.puritan_trial_chance as u128,
                self.puritan_trials as u128 * WIN_UNITS as u128,
            ),
            (
                "margin_sum",
                self.margin_sum.unsigned_abs() as u128,
                g * wide,
            ),
            ("margin_sq", self.margin_sq as u128, g * wide * wide),
            ("cubes_sum", self.cubes_sum.unsigned_abs() as u128, g * wide),
            ("trials", self.trials as u128, g * 255),
            (
                "trials_on_witch",
                self.trials_on_witch as u128,
                self.trials as u128,
            ),
            ("capped_phases", self.capped_phases as u128, g * 255),
            ("tied_games", self.tied_games as u128, g),
            ("score_margin_games", self.score_margin_games as u128, g),
        ];
        for (name, v, most) in bounded {
            if v > most {
                return Err(format!("{name} {v} is more than {most}"));
            }
        }
        let sg = self.score_margin_games as u128;
        if self.score_margin_sum as u128 > sg * wide
            || self.score_margin_sq as u128 > sg * wide * wide
        {
            return Err(format!(
                "score_margin_sum/score_margin_sq do not fit score_margin_games {}",
                self.score_margin_games
            ));
        }
        for r in 0..MAX_ROUNDS {
            if self.launches[r] as u128 > g * 255 || self.forced[r] as u128 > g * 255 {
                return Err(format!("launches/forced of round {r} exceed 255 per game"));
            }
        }
        for (i, b) in self.bots.iter().enumerate() {
            let err = |m: String| Err(format!("bots[{i}]: {m}"));
            if b.witch_seats as u128 + b.puritan_seats as u128 != b.seats as u128 {
                return err(format!(
                    "witch_seats {} + puritan_seats {} is not seats {}",
                    b.witch_seats, b.puritan_seats, b.seats
                ));
            }
            for (name, v, most) in [
                ("witch_team_wins", b.witch_team_wins, b.witch_seats),
                ("tried_as_witch", b.tried_as_witch, b.witch_seats),
                ("puritan_team_wins", b.puritan_team_wins, b.puritan_seats),
                ("tried_as_puritan", b.tried_as_puritan, b.puritan_seats),
                ("nobody_wins", b.nobody_wins, b.seats),
            ] {
                if v > most {
                    return err(format!("{name} {v} is more than {most}"));
                }
            }
            if b.win_units as u128 > b.seats as u128 * WIN_UNITS as u128 {
                return err(format!(
                    "win_units {} is more than {} chairs can win",
                    b.win_units, b.seats
                ));
            }
        }
        let witch_chairs: u128 = self
            .witch_count
            .iter()
            .enumerate()
            .map(|(k, &c)| k as u128 * c as u128)
            .sum();
        if sum(&mut self.bots.iter().map(|b| b.witch_seats)) != witch_chairs {
            return Err(
                "the bots' witch_seats do not add up to the Witches dealt (witch_count)".into(),
            );
        }
        if sum(&mut self.bots.iter().map(|b| b.nobody_wins)) != self.nobody_wins as u128 * p as u128
        {
            return Err(format!(
                "the bots' nobody_wins do not add up to nobody_wins {} × {p} chairs",
                self.nobody_wins
            ));
        }
        if sum(&mut self.bots.iter().map(|b| b.win_units)) > g * WIN_UNITS as u128 {
            return Err("the bots' win_units add up to more than one win per game".into());
        }
        Ok(())
    }

    /// The widest 95% half-width among the three team rates.
    pub fn widest_half_width(&self) -> f64 {
        [self.witch_wins, self.puritan_wins, self.nobody_wins]
            .iter()
            .map(|&x| {
                let (lo, hi) = wilson(x as f64, self.games);
                (hi - lo) / 2.0
            })
            .fold(0.0, f64::max)
    }
}

impl crate::sim::checkpoint::Saved for Tally {
    fn saved_games(&self) -> u64 {
        self.games
    }
    fn write_lines(&self, out: &mut String) {
        out.push_str("salem_tally ");
        out.push_str(&serde_json::to_string(self).unwrap_or_default());
        out.push('\n');
    }
    fn read_line(&mut self, n: usize, key: &str, value: &str) -> anyhow::Result<bool> {
        if key != "salem_tally" {
            return Ok(false);
        }
        let t: Tally = serde_json::from_str(value).map_err(|e| anyhow::anyhow!("line {n}: {e}"))?;
        if t.bots.len() != self.bots.len() || t.margin_hist.len() != self.margin_hist.len() {
            anyhow::bail!("line {n}: the tally is for another field of bots");
        }
        *self = t;
        Ok(true)
    }
    fn check(&self) -> Result<(), String> {
        Tally::check(self, None)
    }
}

/// One player count of a run: the table, the field of bots.
pub struct SalemMatch<'a> {
    pub table: &'a Table,
    pub bots: &'a [SalemBot],
}

impl SalemMatch<'_> {
    /// Set up game `index`: deal, then seat the bots. Returns the bot index
    /// per chair.
    pub fn setup(&self, g: &mut Game, seed: u64, index: u64) -> [u8; MAX_PLAYERS] {
        g.reset(self.table, GameRng::for_game(seed, index));
        let mut seats = [0u8; MAX_PLAYERS];
        let n = self.bots.len() as u32;
        for s in seats.iter_mut().take(self.table.players) {
            *s = if n == 1 { 0 } else { g.rng().below(n) as u8 };
        }
        seats
    }

    pub fn seated(&self, seats: &[u8; MAX_PLAYERS]) -> Seated<'_> {
        Seated {
            seats: seats.map(|b| &self.bots[b as usize]),
        }
    }
}

impl Match for SalemMatch<'_> {
    type Worker = Box<Game>;
    type Tally = Tally;
    fn worker(&self) -> Box<Game> {
        Box::new(Game::new())
    }
    fn tally(&self) -> Tally {
        let d = &self.table.data;
        Tally {
            more_than: !d.rules.options.threshold_at_least,
            characters: vec![[0; 3]; d.characters.len()],
            designs: vec![[0; 4]; d.designs.len()],
            labels: Labels::of(self.table),
            ..Tally::new(self.bots.len())
        }
    }
    fn merge(&self, a: Tally, b: Tally) -> Tally {
        a.merge(b)
    }
    fn games(&self, t: &Tally) -> u64 {
        t.games
    }
    fn widest_half_width(&self, t: &Tally) -> f64 {
        t.widest_half_width()
    }
    fn check_tally(&self, t: &Tally) -> Result<(), String> {
        t.check(Some(self.table.players))
    }
    #[inline]
    fn play(&self, g: &mut Box<Game>, seed: u64, index: u64, t: &mut Tally) {
        let seats = self.setup(g, seed, index);
        let mut bots = self.seated(&seats);
        let o = g.play(self.table, &mut bots, &mut NoLog);
        t.add(&o, &seats[..self.table.players]);
    }
}

// ------------------------------------------------------------------ outputs

/// The CSV header of `salem sim` (long format: one measure per row).
pub const CSV_HEADER: &str = "players,bot,measure,n,value,ci_low,ci_high";

fn rate_row(out: &mut String, p: usize, bot: &str, measure: &str, k: u64, n: u64) {
    let (lo, hi) = wilson(k as f64, n);
    let v = if n == 0 { 0.0 } else { k as f64 / n as f64 };
    out.push_str(&format!(
        "{p},{},{measure},{n},{v:.6},{lo:.6},{hi:.6}\n",
        csv_field(bot)
    ));
}

fn mean_row(out: &mut String, p: usize, measure: &str, sum: f64, sq: f64, n: u64) {
    let (m, half) = mean_ci(sum, sq, n);
    out.push_str(&format!(
        "{p},all,{measure},{n},{m:.6},{:.6},{:.6}\n",
        m - half,
        m + half
    ));
}

/// Mean and 95% half-width (normal approximation) from a sum and a sum of squares.
pub fn mean_ci(sum: f64, sq: f64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 0.0);
    }
    let nf = n as f64;
    let m = sum / nf;
    let var = if n > 1 {
        ((sq - nf * m * m) / (nf - 1.0)).max(0.0)
    } else {
        0.0
    };
    (m, 1.96 * (var / nf).sqrt())
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The CSV rows of one player count.
pub fn csv_rows(p: usize, t: &Tally, bots: &[SalemBot]) -> String {
    let mut o = String::new();
    let g = t.games;
    rate_row(&mut o, p, "all", "witch_team_wins", t.witch_wins, g);
    rate_row(&mut o, p, "all", "puritan_team_wins", t.puritan_wins, g);
    rate_row(&mut o, p, "all", "everybody_loses", t.nobody_wins, g);
    rate_row(&mut o, p, "all", "games_without_witch", t.witch_count[0], g);
    // D reached the threshold under the run's reading (`threshold`):
    // exactly the games the Witches' side won, with or without a Witch.
    rate_row(
        &mut o,
        p,
        "all",
        "despair_reached",
        t.witch_wins + t.nobody_wins,
        g,
    );
    rate_row(
        &mut o,
        p,
        "all",
        "trial_hits_witch",
        t.trials_on_witch,
        t.trials,
    );
    let chance = |units: u64, n: u64| {
        if n == 0 {
            0.0
        } else {
            units as f64 / WIN_UNITS as f64 / n as f64
        }
    };
    o.push_str(&format!(
        "{p},all,trial_hits_witch_by_chance,{},{:.6},,\n",
        t.trials,
        chance(t.trial_chance, t.trials)
    ));
    rate_row(
        &mut o,
        p,
        "all",
        "puritan_trial_hits_witch",
        t.puritan_trials_on_witch,
        t.puritan_trials,
    );
    o.push_str(&format!(
        "{p},all,puritan_trial_hits_witch_by_chance,{},{:.6},,\n",
        t.puritan_trials,
        chance(t.puritan_trial_chance, t.puritan_trials)
    ));
    rate_row(&mut o, p, "all", "tied_win", t.tied_games, g);
    let sq = t.margin_sq as f64;
    mean_row(
        &mut o,
        p,
        "despair_minus_threshold",
        t.margin_sum as f64,
        sq,
        g,
    );
    mean_row(
        &mut o,
        p,
        "score_margin",
        t.score_margin_sum as f64,
        t.score_margin_sq as f64,
        t.score_margin_games,
    );
    let mean = |x: u64| if g == 0 { 0.0 } else { x as f64 / g as f64 };
    o.push_str(&format!(
        "{p},all,despair_cubes_mean,{g},{:.6},,\n",
        if g == 0 {
            0.0
        } else {
            t.cubes_sum as f64 / g as f64
        }
    ));
    o.push_str(&format!(
        "{p},all,trials_per_game,{g},{:.6},,\n",
        mean(t.trials)
    ));
    for r in 0..MAX_ROUNDS {
        if t.launches[r] > 0 || r < 5 {
            o.push_str(&format!(
                "{p},all,launches_round_{},{g},{:.6},,\n",
                r + 1,
                mean(t.launches[r])
            ));
            o.push_str(&format!(
                "{p},all,forced_launches_round_{},{g},{:.6},,\n",
                r + 1,
                mean(t.forced[r])
            ));
        }
    }
    o.push_str(&format!(
        "{p},all,launch_cap_hits,{g},{:.6},,\n",
        mean(t.capped_phases)
    ));
    for w in 0..=p {
        o.push_str(&format!(
            "{p},all,witches_dealt_{w},{g},{:.6},,\n",
            mean(t.witch_count[w])
        ));
    }
    distribution_rows(&mut o, p, t);
    for (i, b) in bots.iter().enumerate() {
        let bt = &t.bots[i];
        let share = if bt.seats == 0 {
            0.0
        } else {
            bt.win_units as f64 / WIN_UNITS as f64
        };
        let (lo, hi) = wilson(share, bt.seats);
        let v = if bt.seats == 0 {
            0.0
        } else {
            share / bt.seats as f64
        };
        o.push_str(&format!(
            "{p},{},personal_win,{},{v:.6},{lo:.6},{hi:.6}\n",
            csv_field(&b.name),
            bt.seats
        ));
        rate_row(
            &mut o,
            p,
            &b.name,
            "team_win_as_witch",
            bt.witch_team_wins,
            bt.witch_seats,
        );
        rate_row(
            &mut o,
            p,
            &b.name,
            "team_win_as_puritan",
            bt.puritan_team_wins,
            bt.puritan_seats,
        );
        rate_row(
            &mut o,
            p,
            &b.name,
            "everybody_loses",
            bt.nobody_wins,
            bt.seats,
        );
        rate_row(
            &mut o,
            p,
            &b.name,
            "on_trial_as_witch",
            bt.tried_as_witch,
            bt.witch_seats,
        );
        rate_row(
            &mut o,
            p,
            &b.name,
            "on_trial_as_puritan",
            bt.tried_as_puritan,
            bt.puritan_seats,
        );
    }
    o
}

/// A personal-win row: `units` (in `WIN_UNITS`) over `n` chairs.
fn win_row(out: &mut String, p: usize, measure: &str, units: u64, n: u64) {
    let share = units as f64 / WIN_UNITS as f64;
    let (lo, hi) = wilson(share, n);
    let v = if n == 0 { 0.0 } else { share / n as f64 };
    out.push_str(&format!(
        "{p},all,{},{n},{v:.6},{lo:.6},{hi:.6}\n",
        csv_field(measure)
    ));
}

/// The playtester's distributions and the per-character and per-building
/// rows: players on Trial per game, D − threshold by value, Despair in
/// play after each round, personal wins by seat from the first Constable,
/// and each character's and building's pick and win rates.
fn distribution_rows(o: &mut String, p: usize, t: &Tally) {
    let g = t.games;
    let chairs = g * p as u64;
    for k in 0..=p {
        rate_row(
            o,
            p,
            "all",
            &format!("on_trial_players_{k}"),
            t.on_trial_hist[k],
            g,
        );
    }
    for (i, &c) in t.margin_hist.iter().enumerate() {
        if c > 0 {
            let m = i as i32 - MARGIN;
            let label = match m {
                m if m == -MARGIN => format!("despair_minus_threshold_le_{m}"),
                m if m == MARGIN => format!("despair_minus_threshold_ge_{m}"),
                m => format!("despair_minus_threshold_eq_{m}"),
            };
            rate_row(o, p, "all", &label, c, g);
        }
    }
    for r in 0..MAX_ROUNDS {
        if r < 5 || t.despair_round_sum[r] != 0 {
            o.push_str(&format!(
                "{p},all,despair_after_round_{},{g},{:.6},,\n",
                r + 1,
                if g == 0 {
                    0.0
                } else {
                    t.despair_round_sum[r] as f64 / g as f64
                }
            ));
        }
    }
    for s in 0..p {
        win_row(
            o,
            p,
            &format!("seat_{s}_personal_win"),
            t.seat_win_units[s],
            g,
        );
    }
    for (i, c) in t.characters.iter().enumerate() {
        let id = t.labels.characters.get(i).map_or("?", |s| s.as_str());
        rate_row(o, p, "all", &format!("character_{id}_team_win"), c[1], c[0]);
        win_row(o, p, &format!("character_{id}_personal_win"), c[2], c[0]);
    }
    for (i, d) in t.designs.iter().enumerate() {
        let id = t.labels.designs.get(i).map_or("?", |s| s.as_str());
        rate_row(
            o,
            p,
            "all",
            &format!("building_{id}_pick_rate"),
            d[1],
            chairs,
        );
        win_row(o, p, &format!("building_{id}_win_when_drafted"), d[2], d[1]);
        rate_row(
            o,
            p,
            "all",
            &format!("building_{id}_team_win_when_drafted"),
            d[3],
            d[1],
        );
        let per = t.labels.design_despair.get(i).copied().unwrap_or(0);
        let mean = |x: u64| if g == 0 { 0.0 } else { x as f64 / g as f64 };
        o.push_str(&format!(
            "{p},all,building_{id}_copies_per_game,{g},{:.6},,\n",
            mean(d[0])
        ));
        o.push_str(&format!(
            "{p},all,building_{id}_despair_added_per_game,{g},{:.6},,\n",
            mean(d[0] * per)
        ));
    }
}

/// A console summary of one player count.
pub fn console(p: usize, t: &Tally, bots: &[SalemBot]) -> String {
    let g = t.games.max(1) as f64;
    let pct = |k: u64, n: u64| {
        let (lo, hi) = wilson(k as f64, n);
        format!(
            "{:5.1}% ±{:.1}",
            100.0 * k as f64 / n.max(1) as f64,
            50.0 * (hi - lo)
        )
    };
    let mut s = format!(
        "{p} players, {} games: Witches {}  Puritans {}  everybody loses {}  (no Witch dealt in {:.1}%; Trial hits a Witch {})\n",
        t.games,
        pct(t.witch_wins, t.games),
        pct(t.puritan_wins, t.games),
        pct(t.nobody_wins, t.games),
        100.0 * t.witch_count[0] as f64 / g,
        pct(t.trials_on_witch, t.trials),
    );
    let (m, h) = mean_ci(t.margin_sum as f64, t.margin_sq as f64, t.games);
    s.push_str(&format!(
        "  D - threshold: mean {m:+.2} ±{h:.2}; {:.2} Trials and {:.2} launches per game\n",
        t.trials as f64 / g,
        t.launches.iter().sum::<u64>() as f64 / g
    ));
    s.push_str(&format!(
        "  {:<20} {:>9} {:>16} {:>18} {:>18}\n",
        "bot", "chairs", "personal win", "team win (Witch)", "team win (Puritan)"
    ));
    for (i, b) in bots.iter().enumerate() {
        let bt = &t.bots[i];
        s.push_str(&format!(
            "  {:<20} {:>9} {:>16} {:>18} {:>18}\n",
            b.name,
            bt.seats,
            format!(
                "{:.1}%",
                100.0 * bt.win_units as f64 / WIN_UNITS as f64 / bt.seats.max(1) as f64
            ),
            pct(bt.witch_team_wins, bt.witch_seats),
            pct(bt.puritan_team_wins, bt.puritan_seats)
        ));
    }
    s
}

/// The report's colours (indices of the charts' palette,
/// [`crate::stats::html`]) for the bots' bars: none of the sides' colours
/// (Puritans blue 0, Witches red 1, nobody grey 8) nor their dark or light
/// companions (10, 11, 18), so that a bar's colour never reads as a side.
const BOT_COLOURS: [usize; 14] = [2, 3, 4, 5, 6, 9, 12, 13, 14, 15, 16, 19, 7, 17];

/// The HTML report of a run: per player count, team win rates, the Despair
/// margin distribution, launches per round and the bots' results, drawn with
/// the charts of the Dominion report ([`crate::stats::html`]).
pub fn render_html(title: &str, note: &str, runs: &[(usize, Tally)], bots: &[SalemBot]) -> String {
    use crate::stats::html::{esc, histogram, line_chart, rate_bars};
    let mut h = String::new();
    h.push_str(&format!(
        r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{t}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body {{ font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 24px; color: #222; max-width: 1240px; }}
h2 {{ margin-top: 32px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }}
.note {{ color: #666; font-size: 13px; }} .grid {{ display: flex; flex-wrap: wrap; gap: 12px; }}
svg.chart {{ background: #fff; border: 1px solid #ddd; border-radius: 4px; }}
svg .title {{ font-size: 14px; font-weight: 600; }} svg .tick {{ font-size: 11px; fill: #444; }}
svg .axis {{ font-size: 12px; fill: #222; }} svg .legend {{ font-size: 11px; fill: #222; }}
table {{ border-collapse: collapse; font-size: 13px; margin: 8px 0; }}
th, td {{ border: 1px solid #ddd; padding: 3px 8px; text-align: right; }}
th {{ background: #f4f4f4; }} td:first-child, th:first-child {{ text-align: left; }}
</style></head><body>
<h1>{t}</h1>
<p class="note">{n}</p>
"#,
        t = esc(title),
        n = esc(note)
    ));
    // Across player counts.
    if runs.len() > 1 {
        h.push_str("<h2>Team wins by player count</h2>\n<div class=\"grid\">");
        for (label, pick, col) in [
            ("Witch team wins", 0usize, 1usize),
            ("Puritan team wins", 1, 0),
            ("Everybody loses", 2, 8),
        ] {
            let bars: Vec<(String, f64, f64, usize)> = runs
                .iter()
                .map(|(p, t)| {
                    let k = [t.witch_wins, t.puritan_wins, t.nobody_wins][pick];
                    let (lo, hi) = wilson(k as f64, t.games);
                    (
                        format!("{p}p"),
                        k as f64 / t.games.max(1) as f64,
                        (hi - lo) / 2.0,
                        col,
                    )
                })
                .collect();
            h.push_str(&rate_bars(label, "share of games", &bars));
        }
        h.push_str("</div>\n");
    }
    for (p, t) in runs {
        h.push_str(&format!(
            "<h2>{p} players ({} games)</h2>\n<div class=\"grid\">",
            t.games
        ));
        let bars: Vec<(String, f64, f64, usize)> = [
            ("Witches", t.witch_wins, 1usize),
            ("Puritans", t.puritan_wins, 0),
            ("Nobody", t.nobody_wins, 8),
        ]
        .iter()
        .map(|(l, k, c)| {
            let (lo, hi) = wilson(*k as f64, t.games);
            (
                l.to_string(),
                *k as f64 / t.games.max(1) as f64,
                (hi - lo) / 2.0,
                *c,
            )
        })
        .collect();
        h.push_str(&rate_bars("Winning side", "share of games", &bars));
        let pts: Vec<(f64, f64)> = t
            .margin_hist
            .iter()
            .enumerate()
            .filter(|x| *x.1 > 0)
            .map(|(i, &c)| (i as f64 - MARGIN as f64, c as f64))
            .collect();
        h.push_str(&histogram(
            "Final Despair D minus the threshold",
            if t.more_than {
                "D − threshold (Witches win at 1 and above: threshold = more_than)"
            } else {
                "D − threshold (Witches win at 0 and above)"
            },
            &[("games".into(), pts, 3)],
            &[t.games.max(1) as f64],
        ));
        let g = t.games.max(1) as f64;
        let launches: Vec<(f64, f64)> = (0..5)
            .map(|r| ((r + 1) as f64, t.launches[r] as f64 / g))
            .collect();
        let forced: Vec<(f64, f64)> = (0..5)
            .map(|r| ((r + 1) as f64, t.forced[r] as f64 / g))
            .collect();
        h.push_str(&line_chart(
            "Launches per round (mean per game)",
            "round",
            "launches",
            &[
                crate::stats::html::Series {
                    name: "all launches".into(),
                    points: launches,
                    color: 4,
                    dashed: false,
                },
                crate::stats::html::Series {
                    name: "forced".into(),
                    points: forced,
                    color: 14,
                    dashed: true,
                },
            ],
            None,
        ));
        let bot_bars: Vec<(String, f64, f64, usize)> = bots
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let bt = &t.bots[i];
                let share = bt.win_units as f64 / WIN_UNITS as f64;
                let (lo, hi) = wilson(share, bt.seats);
                (
                    b.name.clone(),
                    share / bt.seats.max(1) as f64,
                    (hi - lo) / 2.0,
                    BOT_COLOURS[i % BOT_COLOURS.len()],
                )
            })
            .collect();
        h.push_str(&rate_bars(
            "Personal win rate per chair",
            "wins per chair",
            &bot_bars,
        ));
        h.push_str("</div>\n<table><tr><th>bot</th><th>chairs</th><th>as Witch</th><th>Witch team won</th><th>as Puritan</th><th>Puritan team won</th><th>on Trial as Witch</th><th>on Trial as Puritan</th></tr>\n");
        let pc = |k: u64, n: u64| format!("{:.1}%", 100.0 * k as f64 / n.max(1) as f64);
        for (i, b) in bots.iter().enumerate() {
            let bt = &t.bots[i];
            h.push_str(&format!(
                "<tr><td title=\"{}\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                esc(&b.idea),
                esc(&b.name),
                bt.seats,
                bt.witch_seats,
                pc(bt.witch_team_wins, bt.witch_seats),
                bt.puritan_seats,
                pc(bt.puritan_team_wins, bt.puritan_seats),
                pc(bt.tried_as_witch, bt.witch_seats),
                pc(bt.tried_as_puritan, bt.puritan_seats)
            ));
        }
        let (m, hw) = mean_ci(t.margin_sum as f64, t.margin_sq as f64, t.games);
        let (sm, sh) = mean_ci(
            t.score_margin_sum as f64,
            t.score_margin_sq as f64,
            t.score_margin_games,
        );
        h.push_str(&format!(
            "</table>\n<p class=\"note\">No Witch dealt in {:.1}% of games. Trial hit a Witch {:.1}% of {} Trials. D − threshold: mean {m:+.2} ± {hw:.2}. Winner's margin over the next player of the winning side: {sm:.2} ± {sh:.2} points. Launch cap reached in {} phases.</p>\n",
            100.0 * t.witch_count[0] as f64 / g,
            100.0 * t.trials_on_witch as f64 / t.trials.max(1) as f64,
            t.trials,
            t.capped_phases
        ));
    }
    h.push_str("<p class=\"note\">Generated by domsim salem sim.</p>\n</body></html>\n");
    h
}
