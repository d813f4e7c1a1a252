//! The playtester's toolkit for New Salem, as library entry points the
//! CLI verbs call:
//!
//! * [`rule_grid`] — team win rates at each player count under every
//!   combination of the given rule readings, one CSV ([`grid_csv`]);
//! * [`compare`] — a paired A/B of a data or rule change: both sides play
//!   the same games (same seed and game indices: the same deal and
//!   seating as far as the change allows), and every measure's difference
//!   gets a paired 95% interval ([`compare_csv`]);
//! * [`apply_change`] — a data change in words (`C3:despair_add=2`).
//!
//! Every count is an integer merged by addition, so the results are the
//! same whatever the thread count or the split of the games.

use super::bot::SalemBot;
use super::data::{Data, Team, MAX_PLAYERS};
use super::engine::{Game, NoLog, Outcome, Table};
use super::sim::{SalemMatch, Tally};
use crate::sim::{run_match, wilson, Match, RunConfig};
use anyhow::{anyhow, bail, Result};
use std::sync::atomic::AtomicBool;

/// One rule option and the readings to try: `trial=unlimited,single`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Axis {
    pub option: String,
    pub values: Vec<String>,
}

/// `NAME=V1,V2,...`, each value checked against the option.
pub fn parse_axis(s: &str) -> Result<Axis> {
    let (k, v) = s.split_once('=').ok_or_else(|| {
        anyhow!("{s:?}: expected NAME=VALUE,VALUE..., e.g. trial=unlimited,single")
    })?;
    let values: Vec<String> = v.split(',').map(|x| x.trim().to_string()).collect();
    let mut o = Data::sample().rules.options;
    for x in &values {
        o.set(k.trim(), x)?;
    }
    Ok(Axis {
        option: k.trim().to_string(),
        values,
    })
}

/// One cell of a rule grid: the readings, the player count, its tally.
#[derive(Clone, Debug)]
pub struct GridCell {
    pub readings: Vec<(String, String)>,
    pub players: usize,
    pub tally: Tally,
}

/// Every combination of the axes' readings (the first axis varies
/// slowest), applied on top of `data`'s options.
pub fn combinations(axes: &[Axis]) -> Vec<Vec<(String, String)>> {
    let mut out: Vec<Vec<(String, String)>> = vec![Vec::new()];
    for a in axes {
        let mut next = Vec::new();
        for prefix in &out {
            for v in &a.values {
                let mut c = prefix.clone();
                c.push((a.option.clone(), v.clone()));
                next.push(c);
            }
        }
        out = next;
    }
    out
}

/// The bots of a run, compiled against the data they play.
pub type Field<'a> = &'a dyn Fn(&Data) -> Result<Vec<SalemBot>>;

/// Play `games` games (seed `seed`) at each player count of `players`
/// under every combination of `axes`, in the current rayon pool, with the
/// bots `bots` compiles for each combination. `stop` ends it early (the
/// cells then hold fewer games: check their tallies).
pub fn rule_grid(
    data: &Data,
    bots: Field,
    axes: &[Axis],
    players: &[usize],
    games: u64,
    seed: u64,
    stop: &AtomicBool,
) -> Result<Vec<GridCell>> {
    let mut cells = Vec::new();
    for readings in combinations(axes) {
        let mut d = data.clone();
        for (k, v) in &readings {
            d.rules.options.set(k, v)?;
        }
        // Compiled for these readings (the likelihoods a `[belief]` starts
        // from, and a field that learns, are the readings' own): each cell
        // is the plain run under its readings.
        let field = bots(&d)?;
        let bots = &field[..];
        for &p in players {
            let table = Table::new(&d, p)?;
            let m = SalemMatch {
                table: &table,
                bots,
            };
            let cfg = RunConfig {
                games,
                first: 0,
                seed,
                threads: 0,
                progress: false,
                precision: None,
            };
            let r = run_match(&m, &cfg, stop);
            cells.push(GridCell {
                readings: readings.clone(),
                players: p,
                tally: r.tally,
            });
        }
    }
    Ok(cells)
}

/// The grid as CSV: one row per reading and player count, with the team
/// rates and their 95% Wilson intervals, the Trials' hit rate against
/// chance and the mean D − threshold.
pub fn grid_csv(axes: &[Axis], cells: &[GridCell]) -> String {
    let mut s = String::new();
    for a in axes {
        s.push_str(&a.option);
        s.push(',');
    }
    s.push_str("players,games,witch_team_wins,witch_ci_low,witch_ci_high,puritan_team_wins,puritan_ci_low,puritan_ci_high,everybody_loses,trials_per_game,trial_hits_witch,trial_hits_witch_by_chance,puritan_trial_hits_witch,puritan_trial_hits_witch_by_chance,despair_minus_threshold\n");
    for c in cells {
        let t = &c.tally;
        let g = t.games;
        for (_, v) in &c.readings {
            s.push_str(v);
            s.push(',');
        }
        let rate = |k: u64, n: u64| if n == 0 { 0.0 } else { k as f64 / n as f64 };
        let (wl, wh) = wilson(t.witch_wins as f64, g);
        let (pl, ph) = wilson(t.puritan_wins as f64, g);
        let units = super::sim::WIN_UNITS as f64;
        s.push_str(&format!(
            "{},{g},{:.4},{wl:.4},{wh:.4},{:.4},{pl:.4},{ph:.4},{:.4},{:.3},{:.4},{:.4},{:.4},{:.4},{:.3}\n",
            c.players,
            rate(t.witch_wins, g),
            rate(t.puritan_wins, g),
            rate(t.nobody_wins, g),
            rate(t.trials, g),
            rate(t.trials_on_witch, t.trials),
            rate(t.trial_chance, t.trials) / units,
            rate(t.puritan_trials_on_witch, t.puritan_trials),
            rate(t.puritan_trial_chance, t.puritan_trials) / units,
            if g == 0 {
                0.0
            } else {
                t.margin_sum as f64 / g as f64
            },
        ));
    }
    s
}

/// The grid for reading: two Markdown tables with one row per
/// combination of readings and one column per player count — the Witch
/// team's win rate (± its 95% Wilson half-width), and the Puritans'
/// Trials' hit rate against what naming at random would hit.
pub fn grid_console(cells: &[GridCell]) -> String {
    let mut players: Vec<usize> = cells.iter().map(|c| c.players).collect();
    players.sort_unstable();
    players.dedup();
    let reading = |c: &GridCell| {
        let r: Vec<String> = c.readings.iter().map(|(k, v)| format!("{k}={v}")).collect();
        if r.is_empty() {
            "(as given)".to_string()
        } else {
            r.join(" ")
        }
    };
    let mut rows: Vec<&[(String, String)]> = Vec::new();
    for c in cells {
        if !rows.contains(&c.readings.as_slice()) {
            rows.push(&c.readings);
        }
    }
    let head = |s: &mut String| {
        s.push_str("| readings |");
        for p in &players {
            s.push_str(&format!(" {p}p |"));
        }
        s.push_str("\n|---|");
        for _ in &players {
            s.push_str("---:|");
        }
        s.push('\n');
    };
    let cell = |r: &[(String, String)], p: usize| {
        cells
            .iter()
            .find(|c| c.players == p && c.readings.as_slice() == r)
    };
    // One table: a row per combination of readings, `f` formats a cell.
    let table = |s: &mut String, f: &dyn Fn(&Tally) -> String| {
        head(s);
        for r in &rows {
            let Some(first) = cell(r, players[0]) else {
                continue;
            };
            s.push_str(&format!("| {} |", reading(first)));
            for &p in &players {
                match cell(r, p) {
                    Some(c) => s.push_str(&format!(" {} |", f(&c.tally))),
                    None => s.push_str(" |"),
                }
            }
            s.push('\n');
        }
    };
    let mut s = String::new();
    s.push_str("Witch team wins (± 95% interval):\n\n");
    table(&mut s, &|t| {
        let (lo, hi) = wilson(t.witch_wins as f64, t.games);
        let v = t.witch_wins as f64 / t.games.max(1) as f64;
        format!("{:.1}% ±{:.1}", v * 100.0, (hi - lo) * 50.0)
    });
    s.push_str("\nPuritans' Trials that hit a Witch / by chance (naming at random among those each Trial could name):\n\n");
    table(&mut s, &|t| {
        let n = t.puritan_trials.max(1) as f64;
        format!(
            "{:.1}% / {:.1}%",
            t.puritan_trials_on_witch as f64 / n * 100.0,
            t.puritan_trial_chance as f64 / super::sim::WIN_UNITS as f64 / n * 100.0
        )
    });
    s
}

// ------------------------------------------------------------ data changes

/// Apply a data change in words to `data`: `ID:FIELD=VALUE` for a building
/// design (`hope`, `despair_add`, `despair_remove`) or an event (`cost`),
/// or `threshold@P=N` for the Despair threshold at P players. The error
/// names what was wrong.
pub fn apply_change(data: &mut Data, spec: &str) -> Result<()> {
    apply(data, spec)?;
    // Other contents: what is learned or checkpointed of the data is not
    // the unchanged data's.
    data.digest = format!("{}+{spec}", data.digest);
    data.source = format!("{} with {spec}", data.source);
    Ok(())
}

fn apply(data: &mut Data, spec: &str) -> Result<()> {
    let (lhs, value) = spec.split_once('=').ok_or_else(|| {
        anyhow!("{spec:?}: expected ID:FIELD=VALUE (e.g. C3:despair_add=2) or threshold@P=N")
    })?;
    let n: i64 = value
        .trim()
        .parse()
        .map_err(|_| anyhow!("{spec:?}: {value:?} is not a whole number"))?;
    if let Some(p) = lhs.strip_prefix("threshold@") {
        let p: usize = p
            .parse()
            .ok()
            .filter(|p| (3..=MAX_PLAYERS).contains(p))
            .ok_or_else(|| {
                anyhow!("{spec:?}: expected a player count from 3 to 8 after threshold@")
            })?;
        if !(-1000..=1000).contains(&n) {
            bail!("{spec:?}: a threshold is within -1000..=1000");
        }
        data.rules.threshold[p] = n as i16;
        return Ok(());
    }
    let (id, field) = lhs
        .split_once(':')
        .ok_or_else(|| anyhow!("{spec:?}: expected ID:FIELD=VALUE"))?;
    let byte = |what: &str| -> Result<u8> {
        u8::try_from(n)
            .ok()
            .filter(|&x| x <= 20)
            .ok_or_else(|| anyhow!("{spec:?}: {what} is within 0..=20"))
    };
    if let Some(d) = data.designs.iter_mut().find(|d| d.id == id) {
        match field {
            "hope" => d.hope = byte("hope")?,
            "despair_add" => d.despair_add = byte("despair_add")?,
            "despair_remove" => d.despair_remove = byte("despair_remove")?,
            _ => bail!("{spec:?}: a building's field is hope, despair_add or despair_remove"),
        }
        return Ok(());
    }
    if let Some(e) = data.events.iter_mut().find(|e| e.id == id) {
        match field {
            "cost" => e.cost = byte("cost")?,
            _ => bail!("{spec:?}: an event's field is cost"),
        }
        return Ok(());
    }
    let mut names: Vec<&str> = data.designs.iter().map(|d| d.id.as_str()).collect();
    names.extend(data.events.iter().map(|e| e.id.as_str()));
    bail!(
        "{spec:?}: no building or event {id:?}{}",
        super::hint(id, &names)
    )
}

// ------------------------------------------------------------ paired A/B

/// The measures a paired comparison reports, per game.
pub const PAIRED: [&str; M] = [
    "witch_team_wins",
    "puritan_team_wins",
    "everybody_loses",
    "despair_minus_threshold",
    "trials",
    "players_on_trial",
];

/// How many measures [`PAIRED`] has.
pub const M: usize = 6;

/// Sums over games of each measure under A and B and of their
/// differences (integers: merged by addition, exact under any split).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Paired {
    pub games: u64,
    pub a: [i64; M],
    pub b: [i64; M],
    /// Σ (b − a) and Σ (b − a)².
    pub diff: [i64; M],
    pub diff_sq: [u64; M],
    /// Games whose winning side differs (A's, B's): Witch then Puritan.
    pub witch_to_puritan: u64,
    pub puritan_to_witch: u64,
}

impl Paired {
    fn add(&mut self, a: &Outcome, b: &Outcome) {
        let m = |o: &Outcome| -> [i64; M] {
            [
                (o.side == Some(Team::Witch)) as i64,
                (o.side == Some(Team::Puritan)) as i64,
                o.side.is_none() as i64,
                o.despair as i64 - o.threshold as i64,
                o.trials as i64,
                o.on_trial.count_ones() as i64,
            ]
        };
        let (x, y) = (m(a), m(b));
        self.games += 1;
        for k in 0..M {
            self.a[k] += x[k];
            self.b[k] += y[k];
            let d = y[k] - x[k];
            self.diff[k] += d;
            self.diff_sq[k] += (d * d) as u64;
        }
        self.witch_to_puritan +=
            (a.side == Some(Team::Witch) && b.side == Some(Team::Puritan)) as u64;
        self.puritan_to_witch +=
            (a.side == Some(Team::Puritan) && b.side == Some(Team::Witch)) as u64;
    }

    /// The sums of two parts of a run (exact: integers).
    pub fn merge(mut self, o: Paired) -> Paired {
        self.games += o.games;
        for k in 0..M {
            self.a[k] += o.a[k];
            self.b[k] += o.b[k];
            self.diff[k] += o.diff[k];
            self.diff_sq[k] += o.diff_sq[k];
        }
        self.witch_to_puritan += o.witch_to_puritan;
        self.puritan_to_witch += o.puritan_to_witch;
        self
    }

    /// Check that these sums can be those of `games` games at `players`
    /// (a part read back from a file): the error names the field.
    pub fn check(&self, games: u64, players: usize) -> std::result::Result<(), String> {
        if self.games != games {
            return Err(format!("games {} is not the slice's {games}", self.games));
        }
        let g = games as i128;
        // Per game: a 0/1 outcome, |D − threshold| under 2^14 (thresholds
        // are within ±1000), Trials a u8, players on Trial at most the
        // players.
        let most = [1i128, 1, 1, 1 << 14, 255, players as i128];
        for k in 0..M {
            let name = PAIRED[k];
            let (a, b, d) = (self.a[k] as i128, self.b[k] as i128, self.diff[k] as i128);
            let lo = if k == 3 { -most[k] * g } else { 0 };
            if a < lo || a > most[k] * g || b < lo || b > most[k] * g {
                return Err(format!("{name}: a {a} or b {b} does not fit {games} games"));
            }
            if d != b - a {
                return Err(format!("{name}: diff {d} is not b {b} − a {a}"));
            }
            let sq = self.diff_sq[k] as i128;
            if sq < d.abs() || sq > g * (2 * most[k]) * (2 * most[k]) {
                return Err(format!(
                    "{name}: diff_sq {sq} does not fit diff {d} over {games} games"
                ));
            }
        }
        let outcomes = |x: &[i64; M]| x[0] as i128 + x[1] as i128 + x[2] as i128;
        if outcomes(&self.a) != g || outcomes(&self.b) != g {
            return Err(format!("the three outcomes do not add up to games {games}"));
        }
        if self.witch_to_puritan as i128 > self.a[0] as i128
            || self.puritan_to_witch as i128 > self.a[1] as i128
        {
            return Err("witch_to_puritan/puritan_to_witch exceed A's wins".into());
        }
        Ok(())
    }

    /// Measure `k`: A's mean, B's mean, the mean difference and its paired
    /// 95% half-width (normal approximation on the per-game differences).
    pub fn measure(&self, k: usize) -> (f64, f64, f64, f64) {
        let n = self.games.max(1) as f64;
        let (d, h) = super::sim::mean_ci(self.diff[k] as f64, self.diff_sq[k] as f64, self.games);
        (self.a[k] as f64 / n, self.b[k] as f64 / n, d, h)
    }
}

/// Both sides of a paired comparison at one player count.
pub struct PairedMatch<'a> {
    pub a: SalemMatch<'a>,
    pub b: SalemMatch<'a>,
}

impl Match for PairedMatch<'_> {
    type Worker = (Box<Game>, Box<Game>);
    type Tally = Paired;
    fn worker(&self) -> Self::Worker {
        (Box::new(Game::new()), Box::new(Game::new()))
    }
    fn tally(&self) -> Paired {
        Paired::default()
    }
    fn merge(&self, a: Paired, b: Paired) -> Paired {
        a.merge(b)
    }
    fn games(&self, t: &Paired) -> u64 {
        t.games
    }
    fn widest_half_width(&self, t: &Paired) -> f64 {
        (0..3).map(|k| t.measure(k).3).fold(0.0, f64::max)
    }
    fn play(&self, w: &mut Self::Worker, seed: u64, index: u64, t: &mut Paired) {
        let sa = self.a.setup(&mut w.0, seed, index);
        let oa = w.0.play(self.a.table, &mut self.a.seated(&sa), &mut NoLog);
        let sb = self.b.setup(&mut w.1, seed, index);
        let ob = w.1.play(self.b.table, &mut self.b.seated(&sb), &mut NoLog);
        t.add(&oa, &ob);
    }
}

/// One side of a comparison: its data and its bots (compiled against it).
#[derive(Clone, Copy)]
pub struct Side<'a> {
    pub data: &'a Data,
    pub bots: &'a [SalemBot],
}

/// Play games `first..first + games` (seed `seed`) of `a` and `b` at each
/// player count, paired on the game index, in the current rayon pool.
/// `stop` ends it early: compare each result's `games` with those asked.
pub fn compare(
    a: Side,
    b: Side,
    players: &[usize],
    (first, games): (u64, u64),
    seed: u64,
    stop: &AtomicBool,
) -> Result<Vec<(usize, Paired)>> {
    let mut out = Vec::new();
    for &p in players {
        let (ta, tb) = (Table::new(a.data, p)?, Table::new(b.data, p)?);
        let m = PairedMatch {
            a: SalemMatch {
                table: &ta,
                bots: a.bots,
            },
            b: SalemMatch {
                table: &tb,
                bots: b.bots,
            },
        };
        let cfg = RunConfig {
            games,
            first,
            seed,
            threads: 0,
            progress: false,
            precision: None,
        };
        let r = run_match(&m, &cfg, stop);
        let interrupted = r.interrupted;
        out.push((p, r.tally));
        if interrupted {
            break;
        }
    }
    Ok(out)
}

/// The comparison as a console table: per player count and measure, A,
/// B, B − A with its paired 95% interval (rates in percentage points).
pub fn compare_console(runs: &[(usize, Paired)]) -> String {
    let mut s = String::new();
    for (p, t) in runs {
        s.push_str(&format!(
            "{p} players, {} games on both sides:\n  {:<24} {:>9} {:>9} {:>22}\n",
            t.games, "measure", "A", "B", "B − A (95% interval)"
        ));
        for (k, name) in PAIRED.iter().enumerate() {
            let (a, b, d, h) = t.measure(k);
            let line = if k < 3 {
                format!(
                    "  {name:<24} {:>8.2}% {:>8.2}% {:>+8.2} ±{:.2} points",
                    a * 100.0,
                    b * 100.0,
                    d * 100.0,
                    h * 100.0
                )
            } else {
                format!("  {name:<24} {a:>9.3} {b:>9.3} {d:>+8.3} ±{h:.3} per game")
            };
            let sure = if d - h > 0.0 || d + h < 0.0 {
                ""
            } else {
                "  (no clear change)"
            };
            s.push_str(&format!("{line}{sure}\n"));
        }
        s.push_str(&format!(
            "  games whose winning side changed: Witch -> Puritan {}, Puritan -> Witch {}\n\n",
            t.witch_to_puritan, t.puritan_to_witch
        ));
    }
    s
}

/// The comparison as CSV: per player count and measure, A, B, B − A and
/// its paired 95% interval, and the games whose winning side changed.
pub fn compare_csv(runs: &[(usize, Paired)]) -> String {
    let mut s = String::from(
        "players,measure,games,a,b,b_minus_a,ci_low,ci_high,witch_to_puritan,puritan_to_witch\n",
    );
    for (p, t) in runs {
        for (k, name) in PAIRED.iter().enumerate() {
            let (a, b, d, h) = t.measure(k);
            s.push_str(&format!(
                "{p},{name},{},{a:.6},{b:.6},{d:.6},{:.6},{:.6},{},{}\n",
                t.games,
                d - h,
                d + h,
                t.witch_to_puritan,
                t.puritan_to_witch
            ));
        }
    }
    s
}
