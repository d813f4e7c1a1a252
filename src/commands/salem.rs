//! `domsim salem …`: the New Salem verbs, on the same runner, stop handling,
//! output files and checkpoints as Dominion's `sim`.

use crate::new_salem::bot::{self, SalemBot};
use crate::new_salem::data::Data;
use crate::new_salem::engine::Table;
use crate::new_salem::shard::{self, Part, RunKey};
use crate::new_salem::sim::{self as ssim, SalemMatch, Tally};
use crate::new_salem::{belief, toolkit};
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
    /// A/B of a data or rule change: both sides play the same games, with
    /// paired 95% intervals of every change (CSV with -o).
    Compare(CompareArgs),
    /// Team win rates at each player count under every combination of rule
    /// readings (--rule NAME=V1,V2): Markdown tables, CSV with -o.
    Sweep(SweepArgs),
    /// Join the parts of a sharded `salem sim` or `salem compare` into the
    /// outputs the one-machine run writes, byte for byte.
    Merge(MergeArgs),
    /// Learn the [belief] likelihoods from games between the given bots
    /// and write them as a [belief] table a bot file can use.
    Learn(LearnArgs),
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
    /// Bots whose `[belief]` says `learn = "field"` learn their likelihoods
    /// from this field's games first ([`belief::prepare_field`]).
    pub fn load(&self, data: &Data) -> Result<Vec<SalemBot>> {
        if self.bots.is_empty() {
            return bot::shipped(data);
        }
        if self.bots.len() > 64 {
            bail!("at most 64 bots in a field (got {})", self.bots.len());
        }
        let mut bots = self
            .bots
            .iter()
            .map(|b| load_bot(b, data))
            .collect::<Result<Vec<_>>>()?;
        belief::prepare_field(data, &mut bots)?;
        Ok(bots)
    }
}

/// One bot: a file path, or a shipped bot's name.
pub fn load_bot(spec: &str, data: &Data) -> Result<SalemBot> {
    let name = spec.strip_prefix("builtin:").unwrap_or(spec);
    if let Some((f, text)) = bot::find_shipped(name).filter(|_| !Path::new(spec).exists()) {
        return bot::compile_shipped(f, text, data);
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
    #[command(flatten)]
    pub shard: ShardArgs,
}

/// `--shard I/N --save-partial FILE` of the New Salem runs.
#[derive(Args, Debug, Clone, Default)]
pub struct ShardArgs {
    /// Play only shard I of N (1-based): a slice of the game indices at
    /// every player count, saved with --save-partial; `domsim salem merge`
    /// joins the parts into the outputs a one-machine run writes, byte for
    /// byte.
    #[arg(long, value_name = "I/N", value_parser = sim::shard::ShardSpec::parse, requires = "save_partial")]
    pub shard: Option<sim::shard::ShardSpec>,
    /// The part file of this shard (JSON), for `domsim salem merge`.
    #[arg(long, value_name = "FILE.json", requires = "shard")]
    pub save_partial: Option<PathBuf>,
}

impl ShardArgs {
    /// The slice of `games` this process plays, and the checks of a shard:
    /// no other output, no sequential stop, at most [`shard::MAX_GAMES`].
    fn slice(&self, games: u64, other_outputs: bool, precision: bool) -> Result<(u64, u64)> {
        let Some(s) = self.shard else {
            return Ok((0, games));
        };
        if other_outputs {
            bail!("--shard writes only its --save-partial file: give -o, --report or --checkpoint to `domsim salem merge` instead");
        }
        if precision {
            bail!("--shard cannot be combined with --precision (a sequential run decides when to stop from all its games)");
        }
        if games > shard::MAX_GAMES {
            bail!("--shard: a sharded run plays at most {} games per player count (-n {games})", shard::MAX_GAMES);
        }
        Ok(s.range(games))
    }
}

#[derive(Args, Debug)]
pub struct CompareArgs {
    #[command(flatten)]
    pub bots: BotArgs,
    /// Side A: --data and --rule (and side B's starting point).
    #[command(flatten)]
    pub data: DataArgs,
    /// Side B's card data folder (default: A's).
    #[arg(long = "b-data", value_name = "DIR")]
    pub b_data: Option<PathBuf>,
    /// Side B's rule options on top of A's, e.g. --b-rule trial=single.
    #[arg(long = "b-rule", value_name = "NAME=VALUE")]
    pub b_rules: Vec<String>,
    /// Side B as A with one number changed: ID:FIELD=VALUE for a building
    /// design (hope, despair_add, despair_remove) or an event (cost), or
    /// threshold@P=N; e.g. --b-set C3:despair_add=2. Repeatable.
    #[arg(long = "b-set", value_name = "CHANGE")]
    pub b_set: Vec<String>,
    /// Players: one count (5), a range (3..8) or a list (3,5,8).
    #[arg(long, short = 'p', default_value = "5", value_name = "P")]
    pub players: String,
    /// Games per side (per player count).
    #[arg(long, short = 'n', default_value_t = 20_000, value_parser = super::common::parse_count, allow_negative_numbers = true)]
    pub games: u64,
    /// Run seed: game i of both sides is dealt and seated from (seed, i).
    #[arg(long, default_value_t = 1, value_parser = super::common::parse_seed, allow_negative_numbers = true)]
    pub seed: u64,
    #[command(flatten)]
    pub threads: super::common::ThreadsArg,
    /// The comparison as CSV (`-`: standard output).
    #[arg(long, short = 'o', value_name = "FILE.csv")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub shard: ShardArgs,
}

#[derive(Args, Debug)]
pub struct SweepArgs {
    #[command(flatten)]
    pub bots: BotArgs,
    /// A folder with the four card-data files (default: the SAMPLE set).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// A rule option: one value (set for every cell) or several,
    /// comma-separated (an axis: every combination of the axes is played),
    /// e.g. --rule trial=unlimited,single --rule no_eligible_constable=keep,reset.
    #[arg(long = "rule", value_name = "NAME=V1,V2,...")]
    pub rules: Vec<String>,
    /// Players: one count (5), a range (3..8) or a list (3,5,8).
    #[arg(long, short = 'p', default_value = "3..8", value_name = "P")]
    pub players: String,
    /// Games per cell (reading combination and player count).
    #[arg(long, short = 'n', default_value_t = 10_000, value_parser = super::common::parse_count, allow_negative_numbers = true)]
    pub games: u64,
    /// Run seed (the same games in every cell).
    #[arg(long, default_value_t = 1, value_parser = super::common::parse_seed, allow_negative_numbers = true)]
    pub seed: u64,
    #[command(flatten)]
    pub threads: super::common::ThreadsArg,
    /// Every cell as CSV, one row per reading and player count (`-`:
    /// standard output).
    #[arg(long, short = 'o', value_name = "FILE.csv")]
    pub out: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Every part of the run (`--save-partial` files).
    #[arg(required = true, value_name = "PARTIAL.json")]
    pub parts: Vec<PathBuf>,
    /// The merged CSV (`-` for standard output).
    #[arg(long, short = 'o', value_name = "FILE.csv")]
    pub out: PathBuf,
    /// Parts of a `salem sim`: also write its --report page.
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct LearnArgs {
    /// The field (bot files or shipped names; default: the six shipped
    /// bots). Every bot with a [belief] table takes each round's rates.
    #[command(flatten)]
    pub bots: BotArgs,
    #[command(flatten)]
    pub data: DataArgs,
    /// Players: one count (5), a range (3..8) or a list (3,5,8).
    #[arg(long, short = 'p', default_value = "3..8", value_name = "P")]
    pub players: String,
    /// Games per player count in each round.
    #[arg(long, short = 'n', default_value_t = 2_000, value_parser = super::common::parse_count, allow_negative_numbers = true)]
    pub games: u64,
    /// Rounds of learning: each plays the field with the rates the round
    /// before learned (1: the rates of the field as its files are).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub rounds: u32,
    /// Seed of the first round (round r plays seed + r).
    #[arg(long, default_value_t = 44, value_parser = super::common::parse_seed, allow_negative_numbers = true)]
    pub seed: u64,
    /// Write the last round's rates as a [belief] table (TOML) to paste
    /// into a bot file (`-`: standard output).
    #[arg(long, short = 'o', value_name = "FILE.toml")]
    pub out: Option<PathBuf>,
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
        SalemCmd::Compare(a) => cmd_compare(a),
        SalemCmd::Sweep(a) => cmd_sweep(a),
        SalemCmd::Merge(a) => cmd_merge(a),
        SalemCmd::Learn(a) => cmd_learn(a),
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
    check_io(
        &a.bots,
        &[a.data.data.as_deref()],
        &[
            ("-o", a.out.as_deref()),
            ("--checkpoint", a.checkpoint.as_deref()),
            ("--report", a.report.as_deref()),
            ("--save-partial", a.shard.save_partial.as_deref()),
        ],
    )
}

/// No output that is an input (a bot file, a file of a --data folder) or
/// another output.
fn check_io(bots: &BotArgs, data: &[Option<&Path>], outs: &[(&str, Option<&Path>)]) -> Result<()> {
    let data_files: Vec<PathBuf> = data
        .iter()
        .flatten()
        .flat_map(|dir| {
            crate::new_salem::data::FILES
                .iter()
                .map(move |f| dir.join(f))
        })
        .collect();
    let mut inputs: Vec<(&str, &Path)> = bots
        .bots
        .iter()
        .map(Path::new)
        .filter(|b| b.exists())
        .map(|b| ("bot file", b))
        .collect();
    inputs.extend(data_files.iter().map(|f| ("data file", f.as_path())));
    let outs: Vec<(&str, &Path)> = outs
        .iter()
        .filter_map(|&(o, p)| p.map(|p| (o, p)))
        .collect();
    crate::output::check_distinct(&inputs, &outs)
}

/// The bots' names, as the outputs print them.
fn bot_list(bots: &[SalemBot]) -> String {
    bots.iter()
        .map(|b| b.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The comment lines a `salem sim` CSV starts with.
fn sim_header(seed: u64, games: &str, data: &Data) -> String {
    format!(
        "# domsim {} salem sim; seed {seed}; {games}; {}\n# rule options: {}\n",
        env!("CARGO_PKG_VERSION"),
        data_note(data),
        options_line(data)
    )
}

/// The `salem sim` CSV: the header, then every player count's rows.
fn sim_csv(header: &str, runs: &[(usize, Tally)], bots: &[SalemBot]) -> String {
    let mut csv = header.to_string();
    csv.push_str(ssim::CSV_HEADER);
    csv.push('\n');
    for (p, t) in runs {
        csv.push_str(&ssim::csv_rows(*p, t, bots));
    }
    csv
}

/// The key a run's parts are merged by (and a one-machine run would write).
fn run_key(
    verb: &str,
    header: String,
    note: String,
    fingerprint: String,
    bots: &[SalemBot],
    players: &[usize],
    games: u64,
) -> RunKey {
    RunKey {
        verb: verb.into(),
        header,
        note,
        fingerprint,
        bots: bots.iter().map(|b| (b.name.clone(), b.idea.clone())).collect(),
        players: players.to_vec(),
        games,
    }
}

/// Save a shard's part (its file prepared before the games).
fn save_part(file: AtomicFile, key: RunKey, a: &ShardArgs, counts: shard::Counts) -> Result<()> {
    let Some(spec) = a.shard else {
        return Ok(());
    };
    let part = Part::new(key, spec, counts);
    let mut outs = crate::output::Commit::new();
    outs.add(file, part.to_json()?)?;
    outs.commit()?;
    outln!(
        "shard {}/{}: games {}..{} of each player count saved; join every part with `domsim salem merge`",
        spec.index,
        spec.count,
        part.first,
        part.first + part.games
    );
    Ok(())
}

fn cmd_sim(a: &SimArgs) -> Result<ExitCode> {
    let data = a.data.load()?;
    let counts = parse_players(&a.players, &data)?;
    let bots = a.bots.load(&data)?;
    check_sim_args(a, counts.len())?;
    let (first, slice) = a.shard.slice(
        a.games,
        a.out.is_some() || a.report.is_some() || a.checkpoint.is_some(),
        a.precision.is_some(),
    )?;
    super::common::install_stop_handler();
    let file = a.out.as_deref().map(AtomicFile::create).transpose()?;
    let report = a.report.as_deref().map(AtomicFile::create).transpose()?;
    let part_file = a.shard.save_partial.as_deref().map(AtomicFile::create).transpose()?;
    let pool = sim::pool(a.threads.threads.unwrap_or(0) as usize)?;
    let mut runs: Vec<(usize, Tally)> = Vec::new();
    outln!("{}", data_note(&data));
    outln!(
        "Bots: {} (each chair draws one at random per game)\n",
        bot_list(&bots)
    );
    let mut played: Vec<String> = Vec::new();
    for &p in &counts {
        let table = Table::new(&data, p)?;
        let m = SalemMatch {
            table: &table,
            bots: &bots,
        };
        let cfg = RunConfig {
            games: slice,
            first,
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
                "interrupted: {completed} of {slice} games completed at {p} players; no file written"
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
    let header = sim_header(a.seed, &games, &data);
    let note = format!(
        "{} Seed {}, {}.",
        data_note(&data),
        a.seed,
        match a.precision {
            None => format!("{} games per player count", a.games),
            Some(_) => games.clone(),
        }
    );
    if let Some(f) = part_file {
        let fp = format!(
            "data {} options {} bots {}",
            data.digest,
            options_line(&data),
            fingerprint(&bots)
        );
        let key = run_key("sim", header, note, fp, &bots, &counts, a.games);
        let tallies = runs.into_iter().map(|r| r.1).collect();
        save_part(f, key, &a.shard, shard::Counts::Sim(tallies))?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut outs = crate::output::Commit::new();
    if let Some(f) = file {
        outs.add(f, sim_csv(&header, &runs, &bots))?;
    }
    if let Some(f) = report {
        let page = ssim::render_html("New Salem playtest report", &note, &runs, &bots);
        outs.add(f, page)?;
    }
    outs.commit()?;
    Ok(ExitCode::SUCCESS)
}

/// Side B of a comparison: A's folder (or --b-data) and rule options,
/// then --b-rule, then --b-set.
fn side_b(a: &CompareArgs) -> Result<Data> {
    if a.b_data.is_none() && a.b_rules.is_empty() && a.b_set.is_empty() {
        bail!("give side B's change: --b-set ID:FIELD=VALUE (e.g. --b-set C3:despair_add=2), --b-rule NAME=VALUE or --b-data DIR");
    }
    let mut b = DataArgs {
        data: a.b_data.clone().or_else(|| a.data.data.clone()),
        rules: a.data.rules.iter().chain(&a.b_rules).cloned().collect(),
    }
    .load()
    .map_err(|e| anyhow!("side B: {e}"))?;
    for c in &a.b_set {
        toolkit::apply_change(&mut b, c).map_err(|e| anyhow!("--b-set {e}"))?;
    }
    Ok(b)
}

/// The comment lines a `salem compare` CSV starts with.
fn compare_header(seed: u64, games: u64, a: &Data, b: &Data) -> String {
    format!(
        "# domsim {} salem compare; seed {seed}; games {games} per side and player count\n# A: {}; rule options: {}\n# B: {}; rule options: {}\n",
        env!("CARGO_PKG_VERSION"),
        a.source,
        options_line(a),
        b.source,
        options_line(b)
    )
}

fn cmd_compare(a: &CompareArgs) -> Result<ExitCode> {
    let da = a.data.load().map_err(|e| anyhow!("side A: {e}"))?;
    let db = side_b(a)?;
    let counts = parse_players(&a.players, &da)?;
    for &p in &counts {
        db.check_players(p).map_err(|e| anyhow!("side B: {e}"))?;
    }
    let bots_a = a.bots.load(&da)?;
    let bots_b = a.bots.load(&db).map_err(|e| anyhow!("side B: {e}"))?;
    check_io(
        &a.bots,
        &[a.data.data.as_deref(), a.b_data.as_deref()],
        &[
            ("-o", a.out.as_deref()),
            ("--save-partial", a.shard.save_partial.as_deref()),
        ],
    )?;
    let (first, slice) = a.shard.slice(a.games, a.out.is_some(), false)?;
    super::common::install_stop_handler();
    let file = a.out.as_deref().map(AtomicFile::create).transpose()?;
    let part_file = a.shard.save_partial.as_deref().map(AtomicFile::create).transpose()?;
    let pool = sim::pool(a.threads.threads.unwrap_or(0) as usize)?;
    let header = compare_header(a.seed, a.games, &da, &db);
    out!("{}", header.replace("# ", ""));
    outln!("Bots: {}\n", bot_list(&bots_a));
    let runs = pool.install(|| {
        toolkit::compare(
            toolkit::Side {
                data: &da,
                bots: &bots_a,
            },
            toolkit::Side {
                data: &db,
                bots: &bots_b,
            },
            &counts,
            (first, slice),
            a.seed,
            &super::common::STOP,
        )
    })?;
    if runs.len() < counts.len() || runs.iter().any(|r| r.1.games < slice) {
        let done: u64 = runs.iter().map(|r| r.1.games).sum();
        crate::errln!(
            "interrupted: {done} of {} paired games completed; no file written",
            slice * counts.len() as u64
        );
        return Ok(ExitCode::from(130));
    }
    out!("{}", toolkit::compare_console(&runs));
    if let Some(f) = part_file {
        let fp = format!(
            "A {} {} B {} {} bots {} {}",
            da.digest,
            options_line(&da),
            db.digest,
            options_line(&db),
            fingerprint(&bots_a),
            fingerprint(&bots_b)
        );
        let key = run_key("compare", header, String::new(), fp, &bots_a, &counts, a.games);
        let paired = runs.into_iter().map(|r| r.1).collect();
        save_part(f, key, &a.shard, shard::Counts::Compare(paired))?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(f) = file {
        let mut outs = crate::output::Commit::new();
        outs.add(f, format!("{header}{}", toolkit::compare_csv(&runs)))?;
        outs.commit()?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The most cells (reading combinations × player counts) a sweep plays.
const MAX_CELLS: usize = 4096;

fn cmd_sweep(a: &SweepArgs) -> Result<ExitCode> {
    let mut fixed = Vec::new();
    let mut axes = Vec::new();
    for r in &a.rules {
        if r.contains(',') {
            axes.push(toolkit::parse_axis(r).map_err(|e| anyhow!("--rule {e}"))?);
        } else {
            fixed.push(r.clone());
        }
    }
    if let Some(x) = axes
        .iter()
        .enumerate()
        .find(|(i, x)| axes[..*i].iter().any(|y| y.option == x.option))
    {
        bail!("--rule {}: the option is given twice", x.1.option);
    }
    let data = DataArgs {
        data: a.data.clone(),
        rules: fixed,
    }
    .load()?;
    let counts = parse_players(&a.players, &data)?;
    let bots = a.bots.load(&data)?;
    let combos = toolkit::combinations(&axes).len();
    if combos * counts.len() > MAX_CELLS {
        bail!(
            "--rule: {combos} combinations of readings × {} player counts is more than {MAX_CELLS} cells",
            counts.len()
        );
    }
    check_io(&a.bots, &[a.data.as_deref()], &[("-o", a.out.as_deref())])?;
    super::common::install_stop_handler();
    let file = a.out.as_deref().map(AtomicFile::create).transpose()?;
    let pool = sim::pool(a.threads.threads.unwrap_or(0) as usize)?;
    outln!("{}", data_note(&data));
    outln!(
        "Bots: {} (each chair draws one at random per game); {} games per cell, seed {}\n",
        bot_list(&bots),
        a.games,
        a.seed
    );
    let cells = pool.install(|| {
        toolkit::rule_grid(
            &data,
            &|d| a.bots.load(d),
            &axes,
            &counts,
            a.games,
            a.seed,
            &super::common::STOP,
        )
    })?;
    if cells.iter().any(|c| c.tally.games < a.games) {
        crate::errln!("interrupted: not every cell was played; no file written");
        return Ok(ExitCode::from(130));
    }
    out!("{}", toolkit::grid_console(&cells));
    if let Some(f) = file {
        let header = format!(
            "# domsim {} salem sweep; seed {}; games {} per cell; {}\n# rule options besides the axes: {}\n",
            env!("CARGO_PKG_VERSION"),
            a.seed,
            a.games,
            data_note(&data),
            options_line(&data)
        );
        let mut outs = crate::output::Commit::new();
        outs.add(f, format!("{header}{}", toolkit::grid_csv(&axes, &cells)))?;
        outs.commit()?;
    }
    Ok(ExitCode::SUCCESS)
}

fn cmd_merge(a: &MergeArgs) -> Result<ExitCode> {
    let mut outs: Vec<(&str, &Path)> = vec![("-o", a.out.as_path())];
    if let Some(r) = &a.report {
        outs.push(("--report", r.as_path()));
    }
    let inputs: Vec<(&str, &Path)> = a.parts.iter().map(|p| ("partial file", p.as_path())).collect();
    crate::output::check_distinct(&inputs, &outs)?;
    let parts: Vec<(String, Part)> = a
        .parts
        .iter()
        .map(|p| Ok((p.display().to_string(), Part::load(p)?)))
        .collect::<Result<_>>()?;
    let (key, counts) = shard::merge(&parts)?;
    if a.report.is_some() && key.verb != "sim" {
        bail!("--report: the parts are of a `salem {}`, which has no report page", key.verb);
    }
    let file = AtomicFile::create(&a.out)?;
    let report = a.report.as_deref().map(AtomicFile::create).transpose()?;
    let bots: Vec<SalemBot> = key
        .bots
        .iter()
        .map(|(n, i)| bot::label(n, i))
        .collect::<Result<_>>()?;
    let mut commit = crate::output::Commit::new();
    match counts {
        shard::Counts::Sim(ts) => {
            let runs: Vec<(usize, Tally)> = key.players.iter().copied().zip(ts).collect();
            for (p, t) in &runs {
                out!("{}", ssim::console(*p, t, &bots));
                outln!();
            }
            commit.add(file, sim_csv(&key.header, &runs, &bots))?;
            if let Some(f) = report {
                let page = ssim::render_html("New Salem playtest report", &key.note, &runs, &bots);
                commit.add(f, page)?;
            }
        }
        shard::Counts::Compare(ps) => {
            let runs: Vec<(usize, toolkit::Paired)> = key.players.iter().copied().zip(ps).collect();
            out!("{}", toolkit::compare_console(&runs));
            commit.add(file, format!("{}{}", key.header, toolkit::compare_csv(&runs)))?;
        }
    }
    commit.commit()?;
    outln!(
        "merged {} shard(s): {} games per player count of `salem {}`",
        parts.len(),
        key.games,
        key.verb
    );
    Ok(ExitCode::SUCCESS)
}

fn cmd_learn(a: &LearnArgs) -> Result<ExitCode> {
    let data = a.data.load()?;
    let counts = parse_players(&a.players, &data)?;
    let mut bots = a.bots.load(&data)?;
    check_io(&a.bots, &[a.data.data.as_deref()], &[("-o", a.out.as_deref())])?;
    let file = a.out.as_deref().map(AtomicFile::create).transpose()?;
    let deducers = bots.iter().filter(|b| b.belief.is_some()).count();
    outln!("{}", data_note(&data));
    outln!(
        "Field: {} ({deducers} with a [belief] model, which take each round's rates)\n",
        bot_list(&bots)
    );
    let rounds = belief::learn_field(&data, &mut bots, &counts, a.games, a.seed, a.rounds, false)?;
    for (r, l) in rounds.iter().enumerate() {
        outln!("Round {} ({} games, seed {}):", r + 1, l.games, a.seed.wrapping_add(r as u64));
        out!("{}", l.table());
        outln!();
    }
    if let (Some(f), Some(last)) = (file, rounds.last()) {
        let note = format!(
            "Learned by domsim {} salem learn: {} round(s) of {} games at {:?} players, seed {}, field {}\n{}\nrule options: {}\nPaste into a bot file (replacing its [belief] table).",
            env!("CARGO_PKG_VERSION"),
            a.rounds,
            a.games,
            counts,
            a.seed,
            bot_list(&bots),
            data_note(&data),
            options_line(&data)
        );
        let mut outs = crate::output::Commit::new();
        outs.add(f, belief::belief_table(last, &note))?;
        outs.commit()?;
    }
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
