//! `domsim salem …`: the New Salem verbs, on the same runner, stop handling,
//! output files and checkpoints as Dominion's `sim`.

use crate::new_salem::bot::{self, SalemBot};
use crate::new_salem::data::Data;
use crate::new_salem::engine::Table;
use crate::new_salem::sim::{self as ssim, SalemMatch, Tally};
use crate::report::AtomicFile;
use crate::sim::{self, RunConfig};
use crate::{out, outln};
use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Subcommand, Debug)]
pub enum SalemCmd {
    /// Simulate many games and print the team and bot win rates (CSV with -o).
    Sim(SimArgs),
    /// Play one game and print it, from one player's view or omniscient.
    Log(LogArgs),
    /// Check card-data and bot files: errors with file, line and column.
    Check(CheckArgs),
    /// List the rule options (the rulebook's gaps) and the data in use.
    Rules(DataArgs),
}

/// Card data and rule options.
#[derive(Args, Debug, Clone, Default)]
pub struct DataArgs {
    /// A folder with rules.toml, buildings.csv, events.toml and
    /// characters.toml (default: the built-in SAMPLE set, invented).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Set a rule option, e.g. --rule threshold=more_than (see `domsim salem rules`).
    #[arg(long = "rule", value_name = "NAME=VALUE")]
    pub rules: Vec<String>,
}

impl DataArgs {
    pub fn load(&self) -> Result<Data> {
        let mut d = match &self.data {
            Some(dir) => Data::load(dir)?,
            None => Data::sample(),
        };
        for r in &self.rules {
            let (k, v) = r.split_once('=').ok_or_else(|| {
                anyhow!("--rule {r:?}: expected NAME=VALUE, e.g. --rule launch_cap=10")
            })?;
            d.rules.options.set(k.trim(), v.trim()).context("--rule")?;
        }
        Ok(d)
    }
}

/// The bots of a run.
#[derive(Args, Debug, Clone, Default)]
pub struct BotArgs {
    /// Bot files (.salem), or shipped bots by name (naive, set_builder,
    /// hidden_witch, loud_witch, accuser_puritan, cautious_puritan).
    /// Default: the six shipped bots. Each chair of each game draws one.
    #[arg(value_name = "BOT")]
    pub bots: Vec<String>,
}

impl BotArgs {
    /// Compile the bots (files or shipped names) against `data`.
    pub fn load(&self, data: &Data) -> Result<Vec<SalemBot>> {
        if self.bots.is_empty() {
            return bot::shipped(data);
        }
        if self.bots.len() > 64 {
            bail!("at most 64 bots in a field (got {})", self.bots.len());
        }
        self.bots.iter().map(|b| load_bot(b, data)).collect()
    }
}

/// One bot: a file path, or a shipped bot's name.
pub fn load_bot(spec: &str, data: &Data) -> Result<SalemBot> {
    let name = spec.strip_prefix("builtin:").unwrap_or(spec);
    let shipped = bot::SHIPPED.iter().find(|(f, _)| {
        f.trim_end_matches(".salem") == name.trim_end_matches(".salem") && !Path::new(spec).exists()
    });
    if let Some((f, text)) = shipped {
        return bot::compile(&format!("strategies/new_salem/{f}"), text, data);
    }
    let p = Path::new(spec);
    if !p.exists() {
        let names: Vec<&str> = bot::SHIPPED
            .iter()
            .map(|s| s.0.trim_end_matches(".salem"))
            .collect();
        bail!(
            "{spec}: no such bot file, and not a shipped bot{}; the shipped bots are: {}",
            crate::new_salem::hint(name, &names),
            names.join(", ")
        );
    }
    let text = crate::output::read_input(p, "bot file")?;
    bot::compile(spec, &text, data)
}

#[derive(Args, Debug)]
pub struct SimArgs {
    #[command(flatten)]
    pub bots: BotArgs,
    #[command(flatten)]
    pub data: DataArgs,
    /// Players: one count (5), a range (3..8) or a list (3,5,8).
    #[arg(long, short = 'p', default_value = "5", value_name = "P")]
    pub players: String,
    /// Games to play (per player count).
    #[arg(long, short = 'n', default_value_t = 10_000, value_parser = super::common::parse_count, allow_negative_numbers = true)]
    pub games: u64,
    /// Run seed: game i is dealt and seated from (seed, i).
    #[arg(long, default_value_t = 1, value_parser = super::common::parse_seed, allow_negative_numbers = true)]
    pub seed: u64,
    #[command(flatten)]
    pub threads: super::common::ThreadsArg,
    /// Write the results as CSV (long format) to this file (`-`: standard output).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Sequential mode: stop once every team rate's 95% interval is
    /// narrower than ± this; --games is then the maximum (per player
    /// count). Checked after every 16,384 games, so at least that many are
    /// played.
    #[arg(long, value_name = "HALF_WIDTH", allow_negative_numbers = true)]
    pub precision: Option<f64>,
    /// Save progress to this file and resume from it (one player count only).
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Games between checkpoint saves.
    #[arg(long, default_value_t = 100_000, value_parser = super::common::parse_count)]
    pub checkpoint_every: u64,
    /// Write a self-contained HTML report.
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct LogArgs {
    #[command(flatten)]
    pub bots: BotArgs,
    #[command(flatten)]
    pub data: DataArgs,
    /// Players of the game (3 to 8).
    #[arg(long, short = 'p', default_value_t = 5, value_parser = parse_salem_log_players)]
    pub players: u8,
    /// Run seed: the game is the one `salem sim --seed S` deals and seats
    /// as game --game.
    #[arg(long, default_value_t = 1, value_parser = super::common::parse_seed, allow_negative_numbers = true)]
    pub seed: u64,
    /// The game index within the run (as `salem sim --seed S` plays it).
    #[arg(long, default_value_t = 0, value_parser = super::common::parse_game_index, allow_negative_numbers = true)]
    pub game: u64,
    /// Whose view: `all` (omniscient) or a seat, e.g. `P2`: only what that
    /// player sees (their own character and choices, public events).
    #[arg(long, default_value = "all", value_name = "all|P0..P7")]
    pub view: String,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Bot files to check (default: the shipped bots).
    #[command(flatten)]
    pub bots: BotArgs,
    #[command(flatten)]
    pub data: DataArgs,
}

/// `3`, `3..8`, `3..=8`, `3,5,8`.
pub fn parse_players(s: &str, data: &Data) -> Result<Vec<usize>> {
    let bad = || anyhow!("-p {s:?}: expected a player count (5), a range (3..8) or a list (3,5,8)");
    let mut out = Vec::new();
    for part in s.split(',') {
        let part = part.trim();
        if let Some((a, b)) = part.split_once("..") {
            let b = b.strip_prefix('=').unwrap_or(b);
            let (a, b): (usize, usize) = (
                a.trim().parse().map_err(|_| bad())?,
                b.trim().parse().map_err(|_| bad())?,
            );
            if a > b {
                return Err(bad());
            }
            out.extend(a..=b);
        } else {
            out.push(part.parse().map_err(|_| bad())?);
        }
    }
    if out.is_empty() {
        return Err(bad());
    }
    out.sort_unstable();
    out.dedup();
    for &p in &out {
        data.check_players(p)?;
    }
    Ok(out)
}

pub fn run(cmd: &SalemCmd) -> Result<ExitCode> {
    match cmd {
        SalemCmd::Sim(a) => cmd_sim(a),
        SalemCmd::Log(a) => cmd_log(a),
        SalemCmd::Check(a) => cmd_check(a),
        SalemCmd::Rules(a) => cmd_rules(a),
    }
}

fn data_note(d: &Data) -> String {
    if d.sample {
        "Card data: the built-in SAMPLE set, INVENTED for rule coverage (the rulebook lists no cards); results describe that set, not the real game.".to_string()
    } else {
        format!("Card data: {}", d.source)
    }
}

/// The checks of `salem sim` on its arguments, once the data, the player
/// counts and the bots have loaded: the precision, the checkpoint, and no
/// output that is an input or another output.
fn check_sim_args(a: &SimArgs, player_counts: usize) -> Result<()> {
    if let Some(p) = a.precision {
        if !(p > 0.0 && p < 0.5) {
            bail!("--precision {p} is out of range (expected a half-width between 0 and 0.5, e.g. 0.005)");
        }
    }
    if let Some(p) = &a.checkpoint {
        sim::checkpoint::check_path(p)?;
    }
    if a.checkpoint.is_some() && player_counts > 1 {
        bail!("--checkpoint saves one run: give a single player count with -p");
    }
    if a.checkpoint.is_some() && a.precision.is_some() {
        bail!("--checkpoint cannot be combined with --precision (a sequential run's checkpoints would not be resumable)");
    }
    // The bot files and the four files of --data are inputs.
    let data_files: Vec<PathBuf> = a
        .data
        .data
        .iter()
        .flat_map(|dir| {
            crate::new_salem::data::FILES
                .iter()
                .map(move |f| dir.join(f))
        })
        .collect();
    let mut inputs: Vec<(&str, &Path)> = a
        .bots
        .bots
        .iter()
        .map(Path::new)
        .filter(|b| b.exists())
        .map(|b| ("bot file", b))
        .collect();
    inputs.extend(data_files.iter().map(|f| ("data file", f.as_path())));
    let outs: Vec<(&str, &Path)> = [
        ("-o", a.out.as_deref()),
        ("--checkpoint", a.checkpoint.as_deref()),
        ("--report", a.report.as_deref()),
    ]
    .into_iter()
    .filter_map(|(o, p)| p.map(|p| (o, p)))
    .collect();
    crate::output::check_distinct(&inputs, &outs)?;
    Ok(())
}

fn cmd_sim(a: &SimArgs) -> Result<ExitCode> {
    let data = a.data.load()?;
    let counts = parse_players(&a.players, &data)?;
    let bots = a.bots.load(&data)?;
    check_sim_args(a, counts.len())?;
    super::common::install_stop_handler();
    let file = a.out.as_deref().map(AtomicFile::create).transpose()?;
    let report = a.report.as_deref().map(AtomicFile::create).transpose()?;
    let pool = sim::pool(a.threads.threads.unwrap_or(0) as usize)?;
    let mut runs: Vec<(usize, Tally)> = Vec::new();
    outln!("{}", data_note(&data));
    outln!(
        "Bots: {} (each chair draws one at random per game)\n",
        bots.iter()
            .map(|b| b.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let mut played: Vec<String> = Vec::new();
    for &p in &counts {
        let table = Table::new(&data, p)?;
        let m = SalemMatch {
            table: &table,
            bots: &bots,
        };
        let cfg = RunConfig {
            games: a.games,
            first: 0,
            seed: a.seed,
            threads: a.threads.threads.unwrap_or(0) as usize,
            progress: super::common::progress_wanted(),
            precision: a.precision,
        };
        let (tally, completed, interrupted) = match &a.checkpoint {
            None => {
                let r = pool.install(|| sim::run_match(&m, &cfg, &super::common::STOP));
                (r.tally, r.completed, r.interrupted)
            }
            Some(path) => {
                let key = format!(
                    "domsim {} salem {p} players seed {} data {} ({}) options {} bots {}",
                    env!("CARGO_PKG_VERSION"),
                    a.seed,
                    data.source,
                    data.digest,
                    options_line(&data),
                    fingerprint(&bots)
                );
                let r = pool.install(|| {
                    sim::checkpoint::run_match(
                        &m,
                        &cfg,
                        &super::common::STOP,
                        path,
                        &key,
                        a.checkpoint_every,
                    )
                })?;
                super::common::checkpoint_note(path, &r, a.games);
                (r.result.tally, r.result.completed, r.result.interrupted)
            }
        };
        out!("{}", ssim::console(p, &tally, &bots));
        outln!();
        if let (Some(prec), false) = (a.precision, interrupted) {
            let w = tally.widest_half_width();
            super::common::precision_outcome(
                &prec.to_string(),
                &format!("{w:.4}"),
                &format!("{completed} games at {p} players"),
                w < prec,
            )?;
            outln!();
            played.push(format!(
                "{p}p {completed} ({}, widest ±{w:.4})",
                if w < prec { "reached" } else { "not reached" }
            ));
        }
        if interrupted {
            crate::errln!(
                "interrupted: {completed} of {} games completed at {p} players; no file written",
                a.games
            );
            return Ok(ExitCode::from(130));
        }
        runs.push((p, tally));
    }
    // With --precision each player count stops on its own: the games
    // asked for, the target and what each count played (its rows' n).
    let games = match a.precision {
        None => format!("games {}", a.games),
        Some(prec) => format!(
            "games requested {}; precision ±{prec}: {}",
            a.games,
            played.join(", ")
        ),
    };
    let header = format!(
        "# domsim {} salem sim; seed {}; {games}; {}\n# rule options: {}\n",
        env!("CARGO_PKG_VERSION"),
        a.seed,
        data_note(&data),
        options_line(&data)
    );
    let mut outs = crate::output::Commit::new();
    if let Some(f) = file {
        let mut csv = header.clone();
        csv.push_str(ssim::CSV_HEADER);
        csv.push('\n');
        for (p, t) in &runs {
            csv.push_str(&ssim::csv_rows(*p, t, &bots));
        }
        outs.add(f, csv)?;
    }
    if let Some(f) = report {
        let page = ssim::render_html(
            "New Salem playtest report",
            &format!(
                "{} Seed {}, {}.",
                data_note(&data),
                a.seed,
                match a.precision {
                    None => format!("{} games per player count", a.games),
                    Some(_) => games.clone(),
                }
            ),
            &runs,
            &bots,
        );
        outs.add(f, page)?;
    }
    outs.commit()?;
    Ok(ExitCode::SUCCESS)
}

/// A stable hash of the compiled bots (for checkpoint keys).
fn fingerprint(bots: &[SalemBot]) -> String {
    let mut h = crate::digest::Digest::default();
    for b in bots {
        h.update(format!("{b:?}").as_bytes());
    }
    h.hex()
}

fn options_line(d: &Data) -> String {
    d.rules.options.line()
}

fn cmd_log(a: &LogArgs) -> Result<ExitCode> {
    let data = a.data.load()?;
    let p = a.players as usize;
    data.check_players(p)?;
    let bots = a.bots.load(&data)?;
    let view = match a.view.to_ascii_lowercase().as_str() {
        "all" | "omniscient" => None,
        v => {
            let s = v
                .strip_prefix('p')
                .and_then(|n| n.parse::<u8>().ok())
                .filter(|&s| (s as usize) < p)
                .ok_or_else(|| {
                    anyhow!(
                        "--view {:?}: expected `all` or a seat from P0 to P{}",
                        a.view,
                        p - 1
                    )
                })?;
            Some(s)
        }
    };
    let table = Table::new(&data, p)?;
    let m = SalemMatch {
        table: &table,
        bots: &bots,
    };
    outln!("{}", data_note(&data));
    outln!(
        "Game {} of seed {}, {p} players; view: {}",
        a.game,
        a.seed,
        view.map_or("omniscient".to_string(), |s| format!("P{s}"))
    );
    for l in crate::new_salem::log::game_log(&m, a.seed, a.game, view) {
        outln!("{l}");
    }
    Ok(ExitCode::SUCCESS)
}

fn cmd_check(a: &CheckArgs) -> Result<ExitCode> {
    let data = a.data.load()?;
    outln!(
        "{}: OK ({} building designs in {} sets, {} events, {} characters; players {:?})",
        data.source,
        data.designs.len(),
        data.sets.len(),
        data.events.len(),
        data.characters.len(),
        data.rules.player_counts
    );
    let bots = a.bots.load(&data)?;
    // What a file that sets nothing plays: a bot equal to it (an empty
    // file, an empty table, only a name and an idea) is said to be one, so
    // a file whose decisions are missing does not pass as a strategy.
    let defaults = bot::compile("<defaults>", "", &data)?;
    for b in &bots {
        let idea = if b.idea.is_empty() {
            "(no idea line)"
        } else {
            b.idea.as_str()
        };
        let plain = b.suspicion == defaults.suspicion
            && b.witch == defaults.witch
            && b.puritan == defaults.puritan;
        let note = if plain {
            " [sets no decision of its own: it plays every built-in default]"
        } else {
            ""
        };
        outln!("{}: OK — {idea}{note}", b.name);
    }
    Ok(ExitCode::SUCCESS)
}

fn cmd_rules(a: &DataArgs) -> Result<ExitCode> {
    let data = a.load()?;
    outln!("{}", data_note(&data));
    outln!("Rule options (set with --rule NAME=VALUE or in rules.toml's [options]):\n");
    out!("{}", data.rules.options.describe());
    Ok(ExitCode::SUCCESS)
}

/// `salem log -p`: one player count, 3 to 8 (`salem sim` takes ranges).
fn parse_salem_log_players(s: &str) -> std::result::Result<u8, String> {
    match s.trim().parse::<u8>() {
        Ok(p) if (3..=8).contains(&p) => Ok(p),
        Ok(p) => Err(format!("{p} players is outside 3..=8")),
        Err(_) if s.contains("..") || s.contains(',') => Err(format!(
            "'{s}': `salem log` plays one game, so -p is one player count from 3 to 8 (ranges and lists are for `salem sim`)"
        )),
        Err(_) => Err(format!("'{s}' is not a player count (a whole number from 3 to 8)")),
    }
}
