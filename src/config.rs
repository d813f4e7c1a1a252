//! Validated configuration: ripgrep's LowArgs → HiArgs.
//!
//! clap parses the command line into raw argument structs (the "low"
//! arguments of [`crate::cli`]: [`SimArgs`], [`MatrixArgs`],
//! [`KingdomArgs`]…). This module turns them into validated configurations
//! (the "high" arguments): every check that can fail on the arguments alone
//! runs once, here, in a `from_args` conversion, each with its message —
//! impossible combinations of options, numbers out of range, unknown cards
//! and presets (with a "did you mean"), strategy files that do not load, an
//! output that is also an input or another output, an output that cannot be
//! written. A verb (`cmd_*` in `cli.rs`) receives only a validated
//! configuration; what is left to it can fail only while opening its
//! outputs, playing or writing.
//!
//! The parts several verbs share:
//!
//! * [`RunConfig`] — games, seed, worker threads, `--shard`/`--save-partial`,
//!   the main output (`-o`); the runner's [`sim::RunConfig`] comes from it;
//! * [`KingdomConfig`] — the resolved kingdom (preset, card list with
//!   `--fill`, or random; players; Shelters) and how it was chosen;
//! * [`LineupConfig`] — the strategy specs (one per seat, folders
//!   expanded) and the loaded strategies.
//!
//! and one configuration per verb: [`SimConfig`], [`MatrixConfig`],
//! [`SweepConfig`], [`RankConfig`], [`OptimizeConfig`], [`CompareConfig`],
//! [`LogConfig`], [`CheckConfig`], [`ReportConfig`], [`MergeConfig`].
//!
//! The checks run in a fixed order — numbers and combinations of options,
//! outputs that clash with inputs or with each other, the kingdom, the
//! strategies, and last whether each output can be written — so that a
//! command line with two mistakes always gets the same message (the order
//! the verbs had before this module, kept so that no message changed).
//! Validation writes nothing: an output is tried and dropped; the verb
//! opens it for real just before playing.

use crate::cli::{
    CheckArgs, CompareArgs, KingdomArgs, LogArgs, MatrixArgs, OptimizeArgs, RankArgs, ShardArgs,
    SimArgs, SweepArgs, ThreadsArg, DEFAULT_PRESET,
};
use crate::engine::Kingdom;
use crate::optimize::{Budget, Template};
use crate::sim::lineup::{self, CompiledLineup, Lineup};
use crate::sim::presets::Preset;
use crate::sim::{self, shard::ShardSpec};
use anyhow::{anyhow, bail, Context, Result};
use std::path::{Path, PathBuf};

// ---------------------------------------------------------------------------
// Shared parts

/// What every run shares: how many games, from which seed, on how many
/// threads, which shard of the run, and the main output.
#[derive(Debug, Clone, PartialEq)]
pub struct RunConfig {
    /// Games asked for the whole run (per pair or per table for the round
    /// robins); a shard plays its slice of them.
    pub games: u64,
    pub seed: u64,
    /// Worker threads; 0 = one per core.
    pub threads: usize,
    /// `--shard I/N`: play only that slice of the game indices.
    pub shard: Option<ShardSpec>,
    /// `--save-partial FILE`: the shard's partial result (set with `shard`).
    pub save_partial: Option<PathBuf>,
    /// `-o FILE`: the verb's main output.
    pub out: Option<PathBuf>,
}

impl RunConfig {
    fn new(
        games: u64,
        seed: u64,
        threads: &ThreadsArg,
        shard: &ShardArgs,
        out: Option<&PathBuf>,
    ) -> RunConfig {
        RunConfig {
            games,
            seed,
            threads: threads.threads.unwrap_or(0) as usize,
            shard: shard.shard,
            save_partial: shard.save_partial.clone(),
            out: out.cloned(),
        }
    }

    /// The shard's `--save-partial` file, prepared now (so that an
    /// unusable destination is refused before any game), or None.
    pub fn partial_file(&self) -> Result<Option<crate::report::AtomicFile>> {
        self.save_partial
            .as_deref()
            .map(crate::report::AtomicFile::create)
            .transpose()
    }

    /// The game indices this process plays: `(first, count)` (a shard's
    /// slice, else the whole run).
    pub fn slice(&self) -> (u64, u64) {
        self.shard.map_or((0, self.games), |s| s.range(self.games))
    }

    /// The runner's configuration for this process's slice.
    pub fn runner(&self, progress: bool, precision: Option<f64>) -> sim::RunConfig {
        let (first, games) = self.slice();
        sim::RunConfig {
            games,
            first,
            seed: self.seed,
            threads: self.threads,
            progress,
            precision,
        }
    }

    /// A shard writes only its partial file: refuse the outputs of the
    /// merged run (`outputs` names them for the message).
    /// `why` says where the refused outputs come from instead: the
    /// `domsim merge` options that write them, or why no part can.
    fn refuse_with_shard(&self, outputs: &str, given: bool, why: &str) -> Result<()> {
        if self.shard.is_some() && given {
            bail!("--shard writes only its --save-partial file: {outputs} {why}");
        }
        Ok(())
    }

    /// A sequential run (`--precision`) cannot be sharded.
    fn refuse_sequential_shard(&self, precision: bool) -> Result<()> {
        if self.shard.is_some() && precision {
            bail!("--shard cannot be combined with --precision (a sequential run decides when to stop from all its games)");
        }
        Ok(())
    }
}

/// A kingdom and how it was chosen (for the metadata and the console).
#[derive(Debug, Clone)]
pub struct KingdomConfig {
    pub kingdom: Kingdom,
    pub how: String,
}

impl KingdomConfig {
    /// The kingdom of a run for `players`. `strategies` are the run's
    /// strategy specs: a `--fill` never draws a card one of them may buy or
    /// gain. `seed` is the run seed (the default `--kingdom-seed`).
    pub fn from_args(
        a: &KingdomArgs,
        players: usize,
        seed: u64,
        strategies: &[String],
    ) -> Result<KingdomConfig> {
        let mut kc = Self::cards(a, players, seed, strategies)?;
        if let Some(on) = shelters(&a.shelters) {
            kc.kingdom = kc.kingdom.with_shelters(Some(on));
            kc.how.push_str(shelters_forced(on));
        }
        Ok(kc)
    }

    fn cards(
        a: &KingdomArgs,
        players: usize,
        seed: u64,
        strategies: &[String],
    ) -> Result<KingdomConfig> {
        if a.kingdom_seed.is_some() && !a.random && !a.fill {
            bail!("--kingdom-seed goes with --random or --fill");
        }
        // Options of a drawn kingdom with a kingdom that draws nothing: they
        // would be ignored, and the user think he played another kingdom.
        if a.fill && a.kingdom.is_none() {
            let with = if a.random { "--random" } else { "--preset" };
            bail!("--fill completes a --kingdom list of fewer than 10 cards; it does not go with {with}");
        }
        if let Some(s) = &a.sets {
            if !a.random && !a.fill {
                bail!("--sets {s} goes with --random or --fill (the sets random cards are drawn from); this kingdom draws no card");
            }
        }
        if let Some(list) = &a.kingdom {
            let names: Vec<&str> = list
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .collect();
            let mut cards = names
                .iter()
                .map(|n| crate::engine::kingdom::parse_card(n))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| anyhow!("--kingdom: {e}"))?;
            if cards.len() > 10 {
                bail!(
                    "--kingdom: a kingdom has at most 10 piles; {} were given",
                    cards.len()
                );
            }
            let given = cards.len();
            if given == 0 && !a.fill {
                bail!("--kingdom '{list}' names no card: give Kingdom cards separated by commas (e.g. --kingdom \"Smithy,Village\"), or --preset NAME or --random");
            }
            let mut how = "list".to_string();
            if a.fill && given < 10 {
                let sets = Kingdom::parse_sets(a.sets()).map_err(|e| anyhow!("--sets: {e}"))?;
                let lineup = load_lineup(strategies)?;
                let ks = a.kingdom_seed.unwrap_or(seed);
                let fill = Kingdom::fill_cards(&cards, &sets, ks, |c| !lineup.may_gain(c))
                    .map_err(|e| anyhow!("--fill: {e}"))?;
                how = format!(
                    "list of {given}, filled with {} by --fill sets={} kingdom_seed={ks}",
                    fill.iter().map(|c| c.name()).collect::<Vec<_>>().join(";"),
                    a.sets()
                );
                cards.extend(fill);
            } else if given < 10 {
                how = format!(
                    "partial list: {given} of 10 piles, so a three-pile ending is less likely than in a real game; --fill completes it"
                );
            }
            let k = Kingdom::with_piles(players, &cards).map_err(|e| anyhow!("--kingdom: {e}"))?;
            return Ok(KingdomConfig { kingdom: k, how });
        }
        if a.random {
            let sets = Kingdom::parse_sets(a.sets()).map_err(|e| anyhow!("--sets: {e}"))?;
            if sets.is_empty() {
                bail!("--sets: no card set given");
            }
            let ks = a.kingdom_seed.unwrap_or(seed);
            let k = Kingdom::random(players, &sets, ks).map_err(|e| anyhow!("--random: {e}"))?;
            return Ok(KingdomConfig {
                kingdom: k,
                how: format!("random sets={} kingdom_seed={ks}", a.sets()),
            });
        }
        let name = a.preset.as_deref().unwrap_or(DEFAULT_PRESET);
        let p = Preset::find(name).map_err(|e| anyhow!("--preset: {e}"))?;
        let k = p.kingdom(players).map_err(|e| anyhow!("--preset: {e}"))?;
        Ok(KingdomConfig {
            kingdom: k,
            how: format!("preset {}", p.name),
        })
    }

    /// The kingdom options that give this kingdom again (for a replay command).
    pub fn flags(&self) -> String {
        // Quoted for a POSIX shell: a data card's name may hold a quote.
        let mut f = format!(
            "--kingdom {}",
            crate::output::shell_word(&self.kingdom.describe())
        );
        match self.kingdom.shelters {
            Some(true) => f.push_str(" --shelters on"),
            Some(false) => f.push_str(" --shelters off"),
            None => {}
        }
        f
    }
}

/// How a run's kingdom description records `--shelters on|off`.
fn shelters_forced(on: bool) -> &'static str {
    if on {
        "; Shelters forced on"
    } else {
        "; Shelters forced off"
    }
}

/// `--shelters auto|on|off` as the kingdom's setting (None: the rule decides).
fn shelters(s: &str) -> Option<bool> {
    match s {
        "on" => Some(true),
        "off" => Some(false),
        _ => None,
    }
}

/// The kingdoms of a run over many kingdoms (`sweep`, `rank`): `--random N`
/// (kingdom k drawn from (seed, k)) or a kingdoms file, and how they were
/// chosen.
#[derive(Debug, Clone)]
pub struct KingdomList {
    pub kingdoms: Vec<Kingdom>,
    pub how: String,
}

impl KingdomList {
    /// The kingdoms of `--random N` (kingdom k drawn from (seed, k)) or of a
    /// kingdoms file (one per line, comma-separated cards, `#` comments),
    /// for `players`.
    /// `random_opt` names the count's option in messages (`--random` for
    /// sweep, `--random-kingdoms` for rank).
    pub fn from_args(
        (random, random_opt): (Option<u64>, &str),
        sets: &str,
        file: Option<&Path>,
        seed: u64,
        players: usize,
    ) -> Result<KingdomList> {
        if let Some(path) = file {
            let text = crate::output::read_input(path, "kingdoms file")?;
            let mut ks = Vec::new();
            for (n, line) in text.lines().enumerate() {
                let line = line.split('#').next().unwrap_or("").trim();
                if line.is_empty() {
                    continue;
                }
                // Commas, or the "; " a sweep CSV writes its kingdoms with.
                let names: Vec<&str> = line
                    .split([',', ';'])
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .collect();
                let k = Kingdom::from_names(players, &names)
                    .map_err(|e| anyhow!("{}:{}: {e}", path.display(), n + 1))?;
                ks.push(k);
            }
            if ks.is_empty() {
                bail!("{}: no kingdom in the file", path.display());
            }
            // The contents, not only the path: shards or a checkpoint of
            // an edited file belong to another run.
            return Ok(KingdomList {
                how: format!(
                    "file {} ({} kingdoms, contents {})",
                    path.display(),
                    ks.len(),
                    crate::digest::hex(text.as_bytes())
                ),
                kingdoms: ks,
            });
        }
        let n = random.ok_or_else(|| anyhow!("give {random_opt} N or --kingdoms FILE"))?;
        if n > 10_000_000 {
            bail!("{random_opt} {n}: at most 10000000 kingdoms");
        }
        let sets_v = Kingdom::parse_sets(sets).map_err(|e| anyhow!("--sets: {e}"))?;
        if sets_v.is_empty() {
            bail!("--sets: no card set given");
        }
        let ks = (0..n)
            .map(|k| Kingdom::random(players, &sets_v, kingdom_seed(seed, k)))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| anyhow!("{random_opt}: {e}"))?;
        Ok(KingdomList {
            kingdoms: ks,
            how: format!("{RANDOM_SETS}{sets} count={n}"),
        })
    }

    /// The card sets of a `--random N` list from its description (`how`,
    /// as written above and kept in run keys); None for a kingdoms file.
    pub fn random_sets(how: &str) -> Option<&str> {
        let rest = how.strip_prefix(RANDOM_SETS)?;
        let (sets, count) = rest.split_once(' ')?;
        // One random kingdom (`random sets=S kingdom_seed=K`, see
        // KingdomConfig) is not a list: its seed is K itself.
        count.strip_prefix("count=")?;
        Some(sets)
    }
}

/// How a `--random N` list's description starts.
const RANDOM_SETS: &str = "random sets=";

/// The seed of kingdom `k` of a run over many kingdoms (its cards and its
/// games).
pub fn kingdom_seed(seed: u64, k: u64) -> u64 {
    // SplitMix64 of (seed, k): distinct, well-mixed seeds per kingdom.
    let mut z = seed
        ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The strategies of a run: their specs (files or `builtin:…`) and the
/// strategies loaded from them.
#[derive(Debug, Clone)]
pub struct LineupConfig {
    pub specs: Vec<String>,
    pub lineup: Lineup,
}

impl LineupConfig {
    /// Load every strategy (a file that does not parse fails here, named
    /// with file:line:col).
    pub fn load(specs: Vec<String>) -> Result<LineupConfig> {
        let lineup = load_lineup(&specs)?;
        Ok(LineupConfig { specs, lineup })
    }

    /// The kingdom to run `k` with for these strategies, and the strategies
    /// compiled for it; the compiler's warnings are printed.
    pub fn compile_for(&self, k: &Kingdom) -> Result<(Kingdom, CompiledLineup)> {
        let kingdom = self.lineup.kingdom_for(k);
        let c = self.lineup.compile(&kingdom)?;
        for w in &c.warnings {
            crate::errln!("{}", crate::cli::warning(w));
        }
        Ok((kingdom, c))
    }
}

/// [`Lineup::load`], with a "did you mean" for a strategy file that does
/// not exist when a file of the same folder has a close name.
fn load_lineup(specs: &[String]) -> Result<Lineup> {
    for spec in specs {
        if let Some(near) = near_strategy_file(spec) {
            bail!("strategy file '{spec}' does not exist (did you mean '{near}'?)");
        }
    }
    Lineup::load(specs)
}

/// For a strategy file `spec` that does not exist, the `.dom` file of its
/// folder whose name is closest to it, if close enough to be a typo.
fn near_strategy_file(spec: &str) -> Option<String> {
    let path = Path::new(spec);
    // symlink_metadata: a link to a missing file is there (its own error
    // says so), not a typo for itself.
    if spec.starts_with("builtin:") || path.symlink_metadata().is_ok() {
        return None;
    }
    let name = path.file_name()?.to_str()?.to_lowercase();
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let (d, near) = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|f| f.ends_with(".dom"))
        .map(|f| (crate::cards::edit_distance(&name, &f.to_lowercase()), f))
        .min()?;
    (d <= 1 + name.chars().count() / 4).then(|| dir.join(near).display().to_string())
}

/// The default lineup of `sim`/`log` without strategies: the shipped Big
/// Money and Smithy Big Money files, else (binary run away from its source
/// tree) the built-in Big Money mirror.
fn default_specs() -> Vec<String> {
    match (
        lineup::shipped("big_money.dom"),
        lineup::shipped("smithy_big_money.dom"),
    ) {
        (Some(a), Some(b)) => vec![a.display().to_string(), b.display().to_string()],
        _ => vec!["builtin:big-money".into(), "builtin:big-money".into()],
    }
}

/// Fill `players` seats (default: one per strategy, at least 2): the list
/// is repeated in order if shorter; more strategies than seats is an error.
pub fn seat_specs(specs: &[String], players: Option<u8>) -> Result<(Vec<String>, usize)> {
    let specs = if specs.is_empty() {
        default_specs()
    } else {
        specs.to_vec()
    };
    let players = match players {
        Some(p) => p as usize,
        None => specs.len().clamp(2, 6),
    };
    if specs.len() > players {
        bail!(
            "{} strategies for {players} players: give at most one strategy per seat (--players), or use `domsim matrix` for a round robin",
            specs.len()
        );
    }
    let filled: Vec<String> = (0..players)
        .map(|i| specs[i % specs.len()].clone())
        .collect();
    Ok((filled, players))
}

/// Strategy specs with folders expanded to the `*.dom` files inside
/// (sorted), for the verbs that take a field: `matrix`, `sweep`, `rank`
/// and `optimize --against`.
pub fn expand_specs(specs: &[String]) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for s in specs {
        let p = Path::new(s);
        if p.is_dir() {
            let mut files: Vec<String> = std::fs::read_dir(p)
                .with_context(|| format!("cannot read the folder '{s}'"))?
                .filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|f| f.extension().is_some_and(|x| x == "dom"))
                // Regular files (through links) only: a FIFO named x.dom
                // would block the run forever, a folder cannot be read.
                .filter(|f| f.is_file())
                .map(|f| f.display().to_string())
                .collect();
            files.sort();
            if files.is_empty() {
                bail!("folder '{s}' holds no .dom strategy file");
            }
            out.extend(files);
        } else {
            out.push(s.clone());
        }
    }
    Ok(out)
}

/// A verb's outputs, named as on its command line (`("-o", path)`; `None`:
/// not asked for). Each verb lists them once and checks them twice: apart
/// from its inputs before anything is read ([`check_io`]), and writable
/// last ([`check_writable`]).
type Outs<'a> = [(&'static str, Option<&'a Path>)];

/// The outputs asked for, with their option names.
fn given<'a>(outs: &Outs<'a>) -> Vec<(&'static str, &'a Path)> {
    outs.iter()
        .filter_map(|&(o, p)| p.map(|p| (o, p)))
        .collect()
}

/// Refuse, before anything runs, an output that is a strategy file or
/// another output (see [`crate::output::check_distinct`]).
pub(crate) fn check_io(specs: &[String], outs: &Outs) -> Result<()> {
    let ins: Vec<(&str, &Path)> = specs
        .iter()
        .filter(|s| !s.starts_with("builtin:"))
        .map(|s| ("strategy file", Path::new(s.as_str())))
        .collect();
    crate::output::check_distinct(&ins, &given(outs))
}

/// Refuse an output that is the `--kingdoms` file.
fn check_kingdoms_file(file: Option<&Path>, outs: &Outs) -> Result<()> {
    let ins: Vec<(&str, &Path)> = file.map(|f| ("--kingdoms", f)).into_iter().collect();
    crate::output::check_distinct(&ins, &given(outs))
}

/// Fail now if an output cannot be written (see [`crate::output`]): the
/// output is prepared and dropped, leaving nothing behind.
pub(crate) fn check_out_path(path: &Path) -> Result<()> {
    crate::output::Output::create(path).map(drop)
}

/// [`check_out_path`] for every output given. The verbs check their
/// outputs last, once everything else is known to be good, so that a bad
/// path fails before any game — not after the whole run — and a command
/// line with two mistakes gets the message it got before this check.
/// (Checking a path twice is harmless: nothing is left behind.)
///
/// It also refuses an output that is a file the `loaded` strategies were
/// read from beyond their command line (the default lineup's files, the
/// bases they extend) or a bound card file (`--cards`): [`check_io`] saw
/// only the files named.
fn check_writable(outs: &Outs, loaded: &[&LineupConfig]) -> Result<()> {
    let mut files: Vec<(&str, String)> = Vec::new();
    for l in loaded {
        for (_, e) in &l.lineup.entrants {
            if let lineup::Loaded::File(st) = e {
                files.extend(st.files.iter().map(|f| ("strategy file", f.clone())));
            }
        }
    }
    files.extend(
        crate::cards::data::bound_files()
            .into_iter()
            .map(|f| ("card file", f)),
    );
    files.sort();
    files.dedup();
    let ins: Vec<(&str, &Path)> = files
        .iter()
        .filter(|(_, f)| !f.starts_with('<'))
        .map(|(what, f)| (*what, Path::new(f.as_str())))
        .collect();
    crate::output::check_distinct(&ins, &given(outs))?;
    for (_, p) in given(outs) {
        check_out_path(p)?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// sim

/// `--checkpoint FILE --checkpoint-every N`.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckpointConfig {
    pub path: PathBuf,
    pub every: u64,
}

/// Sequential mode and the playtest outputs of `sim`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PlaytestConfig {
    /// `--precision`: a half-width in (0, 0.5).
    pub precision: Option<f64>,
    pub report: Option<PathBuf>,
    pub stats: Option<PathBuf>,
    pub save_stats: Option<PathBuf>,
    pub games_csv: Option<PathBuf>,
}

impl PlaytestConfig {
    /// Whether playtest statistics are recorded (`--report`, `--stats`,
    /// `--save-stats`).
    pub fn wanted(&self) -> bool {
        self.report.is_some() || self.stats.is_some() || self.save_stats.is_some()
    }
}

/// `domsim sim`, validated.
#[derive(Debug)]
pub struct SimConfig {
    pub run: RunConfig,
    pub players: usize,
    pub kingdom: KingdomConfig,
    /// One spec per seat.
    pub lineup: LineupConfig,
    pub checkpoint: Option<CheckpointConfig>,
    pub playtest: PlaytestConfig,
}

impl SimConfig {
    pub fn from_args(a: &SimArgs) -> Result<SimConfig> {
        let pa = &a.playtest;
        let pt = PlaytestConfig {
            precision: pa.precision,
            report: pa.report.clone(),
            stats: pa.stats.clone(),
            save_stats: pa.save_stats.clone(),
            games_csv: pa.games_csv.clone(),
        };
        let run = RunConfig::new(a.games, a.seed, &a.threads, &a.shard, a.out.as_ref());
        let checkpoint = a.checkpoint.as_ref().map(|p| CheckpointConfig {
            path: p.clone(),
            every: a.checkpoint_every,
        });
        if let Some(c) = &checkpoint {
            crate::sim::checkpoint::check_path(&c.path)?;
        }
        if let Some(p) = pt.precision {
            check_precision(p)?;
        }
        for path in [&pt.report, &pt.stats, &pt.save_stats]
            .into_iter()
            .flatten()
        {
            check_out_path(path)?;
        }
        run.refuse_with_shard(
            "-o, --report, --stats and --save-stats",
            run.out.is_some() || pt.wanted(),
            "are not written by a shard: `domsim merge PARTIAL… -o FILE.csv` writes the merged run's -o; the playtest statistics (--report, --stats, --save-stats) need the whole run in one process, since a part keeps only the table's counts",
        )?;
        run.refuse_sequential_shard(pt.precision.is_some())?;
        if checkpoint.is_some() && pt.wanted() {
            bail!("--checkpoint cannot be combined with --report, --stats or --save-stats: the playtest statistics are collected in the same pass as the table and are not checkpointed; run the statistics without --checkpoint");
        }
        let specs = a.strategies.all();
        let outs = [
            ("-o", run.out.as_deref()),
            ("--checkpoint", a.checkpoint.as_deref()),
            ("--report", pt.report.as_deref()),
            ("--stats", pt.stats.as_deref()),
            ("--save-stats", pt.save_stats.as_deref()),
            ("--games-csv", pt.games_csv.as_deref()),
            ("--save-partial", run.save_partial.as_deref()),
        ];
        check_io(&specs, &outs)?;
        if pt.games_csv.is_some() && (checkpoint.is_some() || run.shard.is_some()) {
            bail!("--games-csv lists the games of one whole run: it cannot be combined with --checkpoint or --shard");
        }
        if checkpoint.is_some() && pt.precision.is_some() {
            bail!("--checkpoint cannot be combined with --precision (a sequential run stops when precise enough; its checkpoints would not be resumable)");
        }
        let (specs, players) = seat_specs(&specs, a.players.players)?;
        let kingdom = KingdomConfig::from_args(&a.kingdom, players, run.seed, &specs)?;
        let lineup = LineupConfig::load(specs)?;
        check_writable(&outs, &[&lineup])?;
        Ok(SimConfig {
            run,
            players,
            kingdom,
            lineup,
            checkpoint,
            playtest: pt,
        })
    }
}

// ---------------------------------------------------------------------------
// matrix

/// `domsim matrix`, validated.
#[derive(Debug)]
pub struct MatrixConfig {
    /// `games` is per pair.
    pub run: RunConfig,
    pub kingdom: KingdomConfig,
    pub lineup: LineupConfig,
    /// `--report FILE.html`: the heat map.
    pub report: Option<PathBuf>,
}

impl MatrixConfig {
    pub fn from_args(a: &MatrixArgs) -> Result<MatrixConfig> {
        let run = RunConfig::new(a.games, a.seed, &a.threads, &a.shard, a.out.as_ref());
        let html = a.report.as_deref();
        run.refuse_with_shard(
            "-o and --report",
            run.out.is_some() || html.is_some(),
            "belong to the merged run (domsim merge PARTIAL… -o FILE.csv --html FILE.html)",
        )?;
        if let Some(h) = html {
            check_out_path(h)?;
        }
        let specs = expand_specs(&a.strategies.all())?;
        let outs = [
            ("-o", run.out.as_deref()),
            ("--report", html),
            ("--save-partial", run.save_partial.as_deref()),
        ];
        check_io(&specs, &outs)?;
        if specs.len() < 2 {
            bail!(
                "a round robin needs at least 2 strategies ({} given)",
                specs.len()
            );
        }
        let kingdom = KingdomConfig::from_args(&a.kingdom, 2, run.seed, &specs)?;
        let lineup = LineupConfig::load(specs)?;
        check_writable(&outs, &[&lineup])?;
        Ok(MatrixConfig {
            run,
            kingdom,
            lineup,
            report: a.report.clone(),
        })
    }
}

// ---------------------------------------------------------------------------
// sweep

/// `domsim sweep`, validated.
#[derive(Debug)]
pub struct SweepConfig {
    /// `games` is per pair in each kingdom; a shard takes a slice of the
    /// kingdoms, not of the games.
    pub run: RunConfig,
    pub kingdoms: KingdomList,
    pub lineup: LineupConfig,
    /// `--summary FILE.csv`.
    pub summary: Option<PathBuf>,
}

impl SweepConfig {
    pub fn from_args(a: &SweepArgs) -> Result<SweepConfig> {
        let run = RunConfig::new(a.games, a.seed, &a.threads, &a.shard, a.out.as_ref());
        run.refuse_with_shard(
            "-o and --summary",
            run.out.is_some() || a.summary.is_some(),
            "belong to the merged run (domsim merge PARTIAL… -o FILE.csv --summary FILE.csv)",
        )?;
        let specs = expand_specs(&a.strategies.all())?;
        if specs.len() < 2 {
            bail!(
                "a sweep needs at least 2 strategies ({} given)",
                specs.len()
            );
        }
        let outs = [
            ("-o", run.out.as_deref()),
            ("--summary", a.summary.as_deref()),
            ("--save-partial", run.save_partial.as_deref()),
        ];
        check_io(&specs, &outs)?;
        check_kingdoms_file(a.kingdoms.as_deref(), &outs)?;
        let kingdoms = KingdomList::from_args(
            (a.random, "--random"),
            &a.sets,
            a.kingdoms.as_deref(),
            run.seed,
            2,
        )?;
        if a.random.is_some() && !crate::cards::data::bound_signatures().is_empty() {
            crate::errln!(
                "warning: --random draws kingdoms from the printed sets only: no kingdom of this sweep has a data card of --cards (list kingdoms with one in --kingdoms FILE)"
            );
        }
        let lineup = LineupConfig::load(specs)?;
        check_writable(&outs, &[&lineup])?;
        Ok(SweepConfig {
            run,
            kingdoms,
            lineup,
            summary: a.summary.clone(),
        })
    }
}

// ---------------------------------------------------------------------------
// rank

/// `domsim rank`, validated.
#[derive(Debug)]
pub struct RankConfig {
    /// `games` is per table.
    pub run: RunConfig,
    /// Players per table (2–6).
    pub players: usize,
    /// Most tables per kingdom.
    pub tables: usize,
    /// Whether the ranking is over several kingdoms (`--kingdoms`,
    /// `--random-kingdoms`) rather than one.
    pub many: bool,
    /// The kingdoms (one unless `many`), how they were chosen, and the seed
    /// of each one's games.
    pub kingdoms: KingdomList,
    pub seeds: Vec<u64>,
    /// The field, folders expanded (2 to 255 strategies, at least `players`).
    pub lineup: LineupConfig,
    /// `--precision ELO`.
    pub precision: Option<f64>,
    pub html: Option<PathBuf>,
    pub matrix: Option<PathBuf>,
}

/// `rank --tables`' default: most tables of 3 to 6 players per kingdom.
pub const RANK_TABLES: u64 = 400;

impl RankConfig {
    pub fn from_args(a: &RankArgs) -> Result<RankConfig> {
        let run = RunConfig::new(a.games, a.seed, &a.threads, &a.shard, a.out.as_ref());
        let p = a.players as usize;
        let many = a.kingdoms.is_some() || a.random_kingdoms.is_some();
        run.refuse_with_shard(
            "-o, --html and --matrix",
            run.out.is_some() || a.matrix.is_some() || a.html.is_some(),
            "belong to the merged run (domsim merge PARTIAL… -o FILE.csv --html FILE.html --matrix FILE.csv)",
        )?;
        run.refuse_sequential_shard(a.precision.is_some())?;
        if a.matrix.is_some() && p != 2 {
            bail!("--matrix is the head-to-head matrix of 2 players in one kingdom (not with -p {p}: tables of {p} have no head-to-head score)");
        }
        if a.matrix.is_some() && many {
            let which = if a.kingdoms.is_some() {
                "--kingdoms".to_string()
            } else {
                format!("--random-kingdoms {}", a.random_kingdoms.unwrap_or(0))
            };
            bail!("--matrix is the head-to-head matrix of 2 players in one kingdom, not with several kingdoms ({which}): rank in one kingdom (--kingdom, --preset or --random) for a matrix");
        }
        // Two players: every pair, whatever the field's size (the matrix
        // and the Bradley–Terry fit need every pair); larger tables are
        // sampled beyond --tables.
        let tables = match (p, a.tables) {
            (2, Some(_)) => bail!("--tables is for tables of 3 to 6 players (-p 3 or more): at 2 players every pair plays"),
            (2, None) => usize::MAX,
            (_, t) => t.unwrap_or(RANK_TABLES) as usize,
        };
        let specs = expand_specs(&a.strategies.all())?;
        if specs.len() < 2 || specs.len() < p {
            bail!(
                "a ranking at {p}-player tables needs at least {} strategies ({} given)",
                p.max(2),
                specs.len()
            );
        }
        if specs.len() > 255 {
            bail!(
                "at most 255 strategies in a ranking ({} given)",
                specs.len()
            );
        }
        let outs = [
            ("-o", run.out.as_deref()),
            ("--html", a.html.as_deref()),
            ("--matrix", a.matrix.as_deref()),
            ("--save-partial", run.save_partial.as_deref()),
        ];
        check_io(&specs, &outs)?;
        check_kingdoms_file(a.kingdoms.as_deref(), &outs)?;
        let (kingdoms, seeds) = if many {
            // Kingdom k of a list is drawn from (--seed, k) or read from the
            // file: the options of one kingdom's cards would be ignored.
            let list_opt = if a.kingdoms.is_some() {
                "--kingdoms FILE"
            } else {
                "--random-kingdoms K"
            };
            if let Some(ks) = a.kingdom.kingdom_seed {
                let why = if a.kingdoms.is_some() {
                    "the kingdoms are the file's"
                } else {
                    "kingdom k is drawn from (--seed, k): another --seed draws other kingdoms"
                };
                bail!("--kingdom-seed {ks} goes with --random or --fill (one kingdom), not with {list_opt}: {why}");
            }
            if a.kingdom.fill {
                bail!("--fill completes one --kingdom list, not the kingdoms of {list_opt} (each has its 10 cards)");
            }
            let mut list = KingdomList::from_args(
                (a.random_kingdoms, "--random-kingdoms"),
                a.kingdom.sets(),
                a.kingdoms.as_deref(),
                run.seed,
                p,
            )?;
            // --shelters on|off holds in every kingdom of the ranking (it
            // was read and then ignored), and belongs to the run's key.
            if let Some(on) = shelters(&a.kingdom.shelters) {
                for k in &mut list.kingdoms {
                    *k = k.with_shelters(Some(on));
                }
                list.how.push_str(shelters_forced(on));
            }
            let seeds = (0..list.kingdoms.len() as u64)
                .map(|k| kingdom_seed(run.seed, k))
                .collect();
            (list, seeds)
        } else {
            let kc = KingdomConfig::from_args(&a.kingdom, p, run.seed, &specs)?;
            (
                KingdomList {
                    kingdoms: vec![kc.kingdom],
                    how: kc.how,
                },
                vec![run.seed],
            )
        };
        let lineup = LineupConfig::load(specs)?;
        check_writable(&outs, &[&lineup])?;
        Ok(RankConfig {
            run,
            players: p,
            tables,
            many,
            kingdoms,
            seeds,
            lineup,
            precision: a.precision,
            html: a.html.clone(),
            matrix: a.matrix.clone(),
        })
    }
}

// ---------------------------------------------------------------------------
// optimize

/// `domsim optimize`, validated: the templates read and parsed, the field
/// loaded, the kingdom chosen.
#[derive(Debug)]
pub struct OptimizeConfig {
    /// `games` is the first level's games per opponent (as in `budget`); `out`
    /// is the search CSV; no shard.
    pub run: RunConfig,
    /// `--auto`: every shipped template, skipping those that do not fit.
    pub auto: bool,
    pub templates: Vec<Template>,
    /// The opponents (folders expanded; default BMU).
    pub field: LineupConfig,
    pub kingdom: KingdomConfig,
    pub budget: Budget,
    /// `--bot FILE.dom`: where the best bot goes (else standard output).
    pub bot: Option<PathBuf>,
}

/// The shipped templates (`strategies/templates/*.domt`), sorted.
fn shipped_templates() -> Result<Vec<String>> {
    let dir = lineup::shipped("templates/README.md")
        .and_then(|p| p.parent().map(|d| d.to_path_buf()))
        .ok_or_else(|| anyhow!("the shipped templates (strategies/templates/) are not found"))?;
    let mut v: Vec<String> = std::fs::read_dir(&dir)
        .with_context(|| format!("cannot read '{}'", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "domt"))
        .map(|p| p.display().to_string())
        .collect();
    v.sort();
    Ok(v)
}

impl OptimizeConfig {
    pub fn from_args(a: &OptimizeArgs) -> Result<OptimizeConfig> {
        let run = RunConfig::new(
            a.games,
            a.seed,
            &a.threads,
            &ShardArgs::default(),
            a.out.as_ref(),
        );
        // --max-games caps what a candidate plays during the search, and a
        // first-level candidate already plays -n games: a cap below that
        // would silently be -n.
        if a.max_games < a.games {
            bail!(
                "--max-games {} is below -n {}: every candidate plays at least -n games per opponent, so --max-games (default 32400) must be at least -n",
                a.max_games,
                a.games
            );
        }
        let templates = match (&a.template, a.auto) {
            (Some(_), true) => bail!("give a TEMPLATE or --auto, not both"),
            (None, false) => {
                bail!("give a strategy TEMPLATE (e.g. strategies/templates/money_draw.domt) or --auto")
            }
            (Some(t), false) => vec![t.clone()],
            (None, true) => shipped_templates()?,
        };
        let against = if a.against.is_empty() {
            vec![lineup::shipped("big_money_ultimate.dom")
                .ok_or_else(|| {
                    anyhow!("strategies/big_money_ultimate.dom not found; give --against")
                })?
                .display()
                .to_string()]
        } else {
            expand_specs(&a.against)?
        };
        let mut ins = against.clone();
        ins.extend(templates.iter().cloned());
        let outs = [("--bot", a.bot.as_deref()), ("-o", run.out.as_deref())];
        check_io(&ins, &outs)?;
        let kingdom = KingdomConfig::from_args(&a.kingdom, 2, run.seed, &against)?;
        let field = LineupConfig::load(against)?;
        // Templates: read and parse them all before any game.
        let mut parsed = Vec::new();
        for t in &templates {
            let text = crate::output::read_input(Path::new(t), "template")?;
            parsed.push(Template::parse(&text, t)?);
        }
        check_writable(&outs, &[&field])?;
        // A template's bots read the files its `extends:` names (and what
        // those extend): inputs too, which --bot and -o must not overwrite.
        let mut bases: Vec<(&str, PathBuf)> = Vec::new();
        for t in &parsed {
            let Ok(domains) = t.domains(&kingdom.kingdom) else {
                continue;
            };
            let first: Vec<_> = domains.iter().filter_map(|d| d.first().copied()).collect();
            if first.len() != domains.len() {
                continue;
            }
            if let Ok(st) = crate::strategy::parse(&t.render(&first), &t.file) {
                bases.extend(
                    st.files
                        .iter()
                        .skip(1)
                        .map(|f| ("strategy file extended by the template", PathBuf::from(f))),
                );
            }
        }
        let bases: Vec<(&str, &Path)> = bases.iter().map(|(w, p)| (*w, p.as_path())).collect();
        crate::output::check_distinct(&bases, &given(&outs))?;
        Ok(OptimizeConfig {
            run,
            auto: a.auto,
            templates: parsed,
            field,
            kingdom,
            budget: Budget {
                candidates: a.candidates as usize,
                games: a.games,
                max_games: a.max_games,
                refine: 3,
                confirm: a.confirm,
            },
            bot: a.bot.clone(),
        })
    }
}

/// A `--precision` half-width (of a win rate or of its change): in (0, 0.5).
fn check_precision(p: f64) -> Result<()> {
    if !(p > 0.0 && p < 0.5) {
        bail!(
            "--precision {p} is out of range (expected a half-width between 0 and 0.5, e.g. 0.005)"
        );
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// compare

/// `domsim compare`, validated: both variants' cards loaded and checked to
/// define the same cards, the kingdom and the bots resolved under variant
/// A's binding (held here; variant B binds the same names to the same
/// slots), the measured card found in the kingdom.
pub struct CompareConfig {
    /// `out` is the comparison CSV.
    pub run: RunConfig,
    pub players: usize,
    /// `--a`: variant A's card files.
    pub a_files: Vec<PathBuf>,
    pub cards_a: Vec<crate::cards::data::DataCard>,
    pub cards_b: Vec<crate::cards::data::DataCard>,
    /// How variant B was given (its files, or "variant A with CARD:FIELD=VALUE").
    pub b_how: String,
    /// Variant A's binding: kept while variant A plays, then dropped.
    pub bind_a: crate::cards::data::Binding,
    pub kingdom: KingdomConfig,
    pub lineup: LineupConfig,
    /// The card whose use is measured.
    pub card: crate::Card,
    pub html: Option<PathBuf>,
    /// `--precision`: a half-width in (0, 0.5) of the win-rate changes.
    pub precision: Option<f64>,
}

impl CompareConfig {
    pub fn from_args(a: &CompareArgs) -> Result<CompareConfig> {
        use crate::cards::data;
        let run = RunConfig::new(a.games, a.seed, &a.threads, &a.shard, a.out.as_ref());
        if let Some(p) = a.precision {
            check_precision(p)?;
        }
        run.refuse_with_shard(
            "-o and --html",
            run.out.is_some() || a.html.is_some(),
            "belong to the merged run (domsim merge PARTIAL… -o FILE.csv --html FILE.html)",
        )?;
        run.refuse_sequential_shard(a.precision.is_some())?;
        let specs = a.strategies.all();
        if !(2..=6).contains(&specs.len()) {
            bail!(
                "compare needs 2 to 6 strategies (one per seat); {} given",
                specs.len()
            );
        }
        let outs = [
            ("-o", run.out.as_deref()),
            ("--html", a.html.as_deref()),
            ("--save-partial", run.save_partial.as_deref()),
        ];
        let mut inputs: Vec<(&str, &Path)> = a.a.iter().map(|p| ("--a", p.as_path())).collect();
        inputs.extend(a.b.iter().map(|p| ("--b", p.as_path())));
        inputs.extend(specs.iter().map(|s| ("STRATEGY", Path::new(s))));
        crate::output::check_distinct(&inputs, &given(&outs))?;
        // --cards-only picks the same cards of both variants' files.
        let pick = |cards: Vec<data::DataCard>, which: &str| -> Result<Vec<data::DataCard>> {
            match &a.cards_only {
                Some(only) => data::select(cards, only).map_err(|e| anyhow!("variant {which}: {e:#}")),
                None if cards.len() > crate::cards::DATA_SLOTS => bail!(
                    "the card files of variant {which} define {} cards; at most {} can be loaded at once: choose some with --cards-only \"A,B\"",
                    cards.len(),
                    crate::cards::DATA_SLOTS
                ),
                None => Ok(cards),
            }
        };
        let cards_a = pick(data::load_files(&a.a)?, "A")?;
        let (cards_b, b_how) = match (&a.b_set, a.b.is_empty()) {
            (Some(set), _) => {
                let (card, rest) = set.rsplit_once(':').ok_or_else(|| {
                    anyhow!(
                        "--b-set {set:?}: expected CARD:FIELD=VALUE, e.g. \"Smithy Data:cost=5\""
                    )
                })?;
                let (field, value) = rest
                    .split_once('=')
                    .ok_or_else(|| anyhow!("--b-set {set:?}: expected CARD:FIELD=VALUE"))?;
                (
                    crate::playtest::modified(&cards_a, card.trim(), field.trim(), value)?,
                    format!("variant A with {set}"),
                )
            }
            (None, false) => (
                pick(data::load_files(&a.b)?, "B")?,
                a.b.iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            (None, true) => bail!("give variant B with --b FILE or --b-set CARD:FIELD=VALUE"),
        };
        let key = |v: &[data::DataCard]| -> Vec<String> {
            v.iter().map(|c| crate::cards::normalize(&c.name)).collect()
        };
        if key(&cards_a) != key(&cards_b) {
            let names = |v: &[data::DataCard]| {
                v.iter()
                    .map(|c| c.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            bail!(
                "variants A and B must define the same cards in the same order (A: {}; B: {})",
                names(&cards_a),
                names(&cards_b)
            );
        }
        if cards_a
            .iter()
            .zip(&cards_b)
            .all(|(x, y)| x.signature() == y.signature())
        {
            crate::errln!(
                "warning: variants A and B define the same cards: every difference will be 0"
            );
        }
        let players = specs.len();
        // Variant A: the kingdom, the bots and the card are resolved under
        // A's binding; B binds the same names to the same slots, so they
        // carry over.
        let bind_a = data::bind(&cards_a)?;
        let kingdom = KingdomConfig::from_args(&a.kingdom, players, run.seed, &specs)?;
        let lineup = LineupConfig::load(specs)?;
        let card = match &a.card {
            Some(n) => {
                crate::engine::kingdom::parse_card(n).map_err(|e| anyhow!("--card: {e}"))?
            }
            None => match bind_a.cards() {
                [one] => *one,
                many => bail!(
                    "the card files define {} cards: say which one to measure with --card (one of: {})",
                    many.len(),
                    many.iter().map(|c| c.name()).collect::<Vec<_>>().join(", ")
                ),
            },
        };
        if !kingdom.kingdom.in_game.contains(card) {
            // --random and --preset draw printed cards only (and do not
            // combine with --kingdom): the way in is a partial --kingdom
            // that --fill completes at random.
            let how = if a.kingdom.random || a.kingdom.preset.is_some() {
                format!(
                    "--random and --preset hold printed cards only: give it with --kingdom \"{card}\" --fill (the rest drawn at random from --sets)"
                )
            } else {
                "add it with --kingdom".to_string()
            };
            bail!(
                "{card} is not in the kingdom ({}): {how}",
                kingdom.kingdom.describe()
            );
        }
        // Written only after both variants have played: checked now.
        check_writable(&outs, &[&lineup])?;
        Ok(CompareConfig {
            run,
            players,
            a_files: a.a.clone(),
            cards_a,
            cards_b,
            b_how,
            bind_a,
            kingdom,
            lineup,
            card,
            html: a.html.clone(),
            precision: a.precision,
        })
    }
}

// ---------------------------------------------------------------------------
// log, check

/// `domsim log`, validated.
#[derive(Debug)]
pub struct LogConfig {
    pub seed: u64,
    /// Which game of the run.
    pub game: u64,
    pub explain: bool,
    pub kingdom: KingdomConfig,
    /// One spec per seat.
    pub lineup: LineupConfig,
}

impl LogConfig {
    pub fn from_args(a: &LogArgs) -> Result<LogConfig> {
        let (specs, players) = seat_specs(&a.strategies.all(), a.players.players)?;
        let kingdom = KingdomConfig::from_args(&a.kingdom, players, a.seed, &specs)?;
        let lineup = LineupConfig::load(specs)?;
        Ok(LogConfig {
            seed: a.seed,
            game: a.game,
            explain: a.explain,
            kingdom,
            lineup,
        })
    }
}

/// `domsim check`, validated: the kingdom the files are checked against.
/// The files themselves are loaded one by one by the verb, which reports
/// every bad file rather than the first.
#[derive(Debug)]
pub struct CheckConfig {
    pub files: Vec<String>,
    pub kingdom: KingdomConfig,
}

impl CheckConfig {
    pub fn from_args(a: &CheckArgs) -> Result<CheckConfig> {
        let kingdom = KingdomConfig::from_args(&a.kingdom, a.players as usize, 1, &a.files)?;
        Ok(CheckConfig {
            files: a.files.clone(),
            kingdom,
        })
    }
}

// ---------------------------------------------------------------------------
// report, merge

/// `domsim report`, validated: the statistics read, the outputs checked.
#[derive(Debug)]
pub struct ReportConfig {
    /// One or two saved runs (path, statistics); two are shown side by side.
    pub inputs: Vec<(PathBuf, crate::stats::PlaytestStats)>,
    /// The HTML report.
    pub out: PathBuf,
    /// `--csv FILE.csv` (one input only).
    pub csv: Option<PathBuf>,
}

impl ReportConfig {
    pub fn from_args(inputs: &[PathBuf], out: &Path, csv: Option<&Path>) -> Result<ReportConfig> {
        if inputs.len() == 2 && csv.is_some() {
            bail!("--csv writes the statistics of one run; with two inputs, run `domsim report FILE --csv` on each");
        }
        let ins: Vec<(&str, &Path)> = inputs
            .iter()
            .map(|p| ("statistics file", p.as_path()))
            .collect();
        let outs = [("-o", Some(out)), ("--csv", csv)];
        crate::output::check_distinct(&ins, &given(&outs))?;
        check_writable(&outs, &[])?;
        let inputs = inputs
            .iter()
            .map(|p| {
                let st = crate::stats::load_json(p)
                    .with_context(|| format!("cannot read statistics from {}", p.display()))?;
                Ok((p.clone(), st))
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(ReportConfig {
            inputs,
            out: out.to_path_buf(),
            csv: csv.map(Path::to_path_buf),
        })
    }
}

/// `domsim merge`, validated: every part read, and the parts checked to be
/// the shards of one run, each once, none missing, each complete.
#[derive(Debug)]
pub struct MergeConfig {
    /// How many parts were merged.
    pub parts: usize,
    pub key: sim::shard::RunKey,
    pub counts: sim::shard::Counts,
    /// The merged CSV.
    pub out: PathBuf,
    /// A sweep's summary CSV (`--summary`).
    pub summary: Option<PathBuf>,
    /// The run's HTML page (`--html`): a rank's leaderboard (its `--html`)
    /// or a matrix's heat map (its `--report`).
    pub html: Option<PathBuf>,
    /// A 2-player rank's head-to-head matrix CSV (its `--matrix`).
    pub matrix: Option<PathBuf>,
}

impl MergeConfig {
    pub fn from_args(
        parts: &[PathBuf],
        out: &Path,
        summary: Option<&Path>,
        html: Option<&Path>,
        matrix: Option<&Path>,
    ) -> Result<MergeConfig> {
        let ins: Vec<(&str, &Path)> = parts
            .iter()
            .map(|p| ("partial file", p.as_path()))
            .collect();
        let mut outs = vec![("-o", out)];
        outs.extend(summary.map(|s| ("--summary", s)));
        outs.extend(html.map(|s| ("--html", s)));
        outs.extend(matrix.map(|s| ("--matrix", s)));
        crate::output::check_distinct(&ins, &outs)?;
        for (_, p) in &outs {
            check_out_path(p)?;
        }
        let loaded = parts
            .iter()
            .map(|p| Ok((p.display().to_string(), sim::shard::Partial::load(p)?)))
            .collect::<Result<Vec<_>>>()?;
        let (key, counts) = sim::shard::merge(&loaded)?;
        if summary.is_some() && !matches!(counts, sim::shard::Counts::Sweep(_)) {
            bail!(
                "--summary: only the parts of a `domsim sweep` have a summary (these are of `domsim {}`)",
                key.verb
            );
        }
        if html.is_some()
            && !matches!(
                counts,
                sim::shard::Counts::Tables(_)
                    | sim::shard::Counts::Matrix(_)
                    | sim::shard::Counts::Compare(_)
            )
        {
            bail!(
                "--html: only the parts of a `domsim rank` (its --html), a `domsim matrix` (its --report) or a `domsim compare` (its --html) have an HTML page (these are of `domsim {}`)",
                key.verb
            );
        }
        if matrix.is_some() {
            match &counts {
                sim::shard::Counts::Tables(t) if t.players == 2 && t.kingdoms.len() == 1 => {}
                sim::shard::Counts::Tables(t) => bail!(
                    "--matrix is the head-to-head matrix of 2 players in one kingdom; these parts rank tables of {} in {} kingdom(s)",
                    t.players,
                    t.kingdoms.len()
                ),
                _ => bail!(
                    "--matrix: only the parts of a `domsim rank` have a head-to-head matrix besides their CSV (these are of `domsim {}`, whose -o is the CSV)",
                    key.verb
                ),
            }
        }
        Ok(MergeConfig {
            parts: loaded.len(),
            key,
            counts,
            out: out.to_path_buf(),
            summary: summary.map(Path::to_path_buf),
            html: html.map(Path::to_path_buf),
            matrix: matrix.map(Path::to_path_buf),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{Cli, Command};
    use clap::Parser;

    const BM: &str = "builtin:big-money";

    /// The verb clap parses from `domsim ARGS…` (clap's own checks pass).
    fn parse(args: &[&str]) -> Command {
        Cli::try_parse_from(std::iter::once("domsim").chain(args.iter().copied()))
            .unwrap_or_else(|e| panic!("{args:?}: clap refused: {e}"))
            .cmd
    }

    /// The message of a refused configuration.
    fn refused<T>(r: Result<T>) -> String {
        match r {
            Ok(_) => panic!("accepted, expected an error"),
            Err(e) => format!("{e:#}"),
        }
    }

    /// Refused with a message that starts with `start`.
    #[track_caller]
    fn refused_with<T>(r: Result<T>, start: &str) {
        let e = refused(r);
        assert!(e.starts_with(start), "expected {start:?}…, got: {e}");
    }

    /// Refused with a message that names `what` (a file, an option).
    #[track_caller]
    fn refused_naming<T>(r: Result<T>, what: &str) {
        let e = refused(r);
        assert!(
            e.contains(what),
            "expected a message naming {what:?}, got: {e}"
        );
    }

    /// `fn verb(args) -> Result<Config>`: parse `domsim verb ARGS…` and
    /// validate it.
    macro_rules! verb {
        ($($f:ident: $name:literal, $variant:ident => $config:ty;)*) => {$(
            fn $f(args: &[&str]) -> Result<$config> {
                match parse(&[&[$name], args].concat()) {
                    Command::$variant(a) => <$config>::from_args(&a),
                    _ => unreachable!(),
                }
            }
        )*};
    }
    verb! {
        sim: "sim", Sim => SimConfig;
        matrix: "matrix", Matrix => MatrixConfig;
        sweep: "sweep", Sweep => SweepConfig;
        rank: "rank", Rank => RankConfig;
    }

    fn kingdom(args: &[&str], players: usize) -> Result<KingdomConfig> {
        match parse(&[&["kingdom"], args].concat()) {
            Command::Kingdom { kingdom, seed, .. } => {
                KingdomConfig::from_args(&kingdom, players, seed, &[])
            }
            _ => unreachable!(),
        }
    }

    fn tmp(dir: &tempfile::TempDir, name: &str) -> String {
        dir.path().join(name).display().to_string()
    }

    #[test]
    fn run_config_slices_a_shard_and_builds_the_runner_config() {
        let d = tempfile::tempdir().unwrap();
        let part = tmp(&d, "p.json");
        let c = sim(&[
            BM,
            BM,
            "-n",
            "10",
            "--seed",
            "7",
            "-j",
            "3",
            "--shard",
            "2/4",
            "--save-partial",
            &part,
        ])
        .unwrap();
        assert_eq!(c.run.slice(), (2, 3));
        let r = c.run.runner(false, None);
        assert_eq!((r.first, r.games, r.seed, r.threads), (2, 3, 7, 3));
        let whole = sim(&[BM, BM, "-n", "10"]).unwrap();
        assert_eq!(whole.run.slice(), (0, 10));
        assert_eq!(whole.run.threads, 0, "no -j: one thread per core");
    }

    #[test]
    fn kingdom_preset_default_and_did_you_mean() {
        let k = kingdom(&[], 2).unwrap();
        assert_eq!(k.how, "preset First Game");
        let e = refused(kingdom(&["--preset", "First Gam"], 2));
        assert!(
            e.contains("--preset: unknown preset") && e.contains("did you mean 'First Game'"),
            "{e}"
        );
    }

    #[test]
    fn kingdom_card_list_rules() {
        let k = kingdom(&["--kingdom", "Village, Smithy"], 3).unwrap();
        assert_eq!(k.kingdom.n(), 3);
        assert!(
            k.how.starts_with("partial list: 2 of 10 piles"),
            "{}",
            k.how
        );
        let e = refused(kingdom(&["--kingdom", "Village,Smithee"], 2));
        assert!(
            e.contains("--kingdom: unknown card 'Smithee' (did you mean 'Smithy'?)"),
            "{e}"
        );
        let eleven =
            "Cellar,Chapel,Moat,Village,Smithy,Festival,Market,Laboratory,Mine,Witch,Workshop";
        refused_naming(
            kingdom(&["--kingdom", eleven], 2),
            "at most 10 piles; 11 were given",
        );
        refused_naming(
            kingdom(&["--kingdom", "Village,Village"], 2),
            "'Village' is listed twice",
        );
    }

    #[test]
    fn kingdom_random_fill_seed_and_shelters() {
        let a = kingdom(&["--random", "--sets", "base,intrigue", "--seed", "5"], 2).unwrap();
        let b = kingdom(
            &["--random", "--sets", "base,intrigue", "--kingdom-seed", "5"],
            2,
        )
        .unwrap();
        assert_eq!(
            a.kingdom.describe(),
            b.kingdom.describe(),
            "--seed is the default --kingdom-seed"
        );
        assert_eq!(a.how, "random sets=base,intrigue kingdom_seed=5");
        refused_naming(
            kingdom(&["--random", "--sets", ""], 2),
            "--sets: no card set given",
        );
        refused_with(kingdom(&["--random", "--sets", "bsae"], 2), "--sets: ");
        let e = refused(kingdom(
            &["--preset", "First Game", "--kingdom-seed", "3"],
            2,
        ));
        assert_eq!(e, "--kingdom-seed goes with --random or --fill");
        let f = kingdom(
            &["--kingdom", "Village", "--fill", "--kingdom-seed", "3"],
            2,
        )
        .unwrap();
        assert_eq!(f.kingdom.kingdom_cards().len(), 10);
        assert!(
            f.how.contains("by --fill sets=base kingdom_seed=3"),
            "{}",
            f.how
        );
        let on = kingdom(&["--shelters", "on"], 2).unwrap();
        assert_eq!(on.kingdom.shelters, Some(true));
        assert!(on.how.ends_with("; Shelters forced on"));
        assert!(on.flags().ends_with(" --shelters on"), "{}", on.flags());
        assert_eq!(kingdom(&[], 2).unwrap().kingdom.shelters, None);
    }

    #[test]
    fn kingdom_list_from_random_or_file() {
        let l = KingdomList::from_args((Some(3), "--random"), "base", None, 1, 2).unwrap();
        assert_eq!(l.kingdoms.len(), 3);
        assert_eq!(l.how, "random sets=base count=3");
        let e = refused(KingdomList::from_args(
            (None, "--random"),
            "base",
            None,
            1,
            2,
        ));
        assert_eq!(e, "give --random N or --kingdoms FILE");
        refused_naming(
            KingdomList::from_args((Some(10_000_001), "--random"), "base", None, 1, 2),
            "at most 10000000 kingdoms",
        );
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("k.txt");
        let ten = "Cellar,Chapel,Moat,Village,Smithy,Festival,Market,Laboratory,Mine,Witch";
        std::fs::write(&f, format!("# two kingdoms\n{ten}\n\n{ten} # again\n")).unwrap();
        let l = KingdomList::from_args((None, "--random"), "base", Some(&f), 1, 2).unwrap();
        assert_eq!(l.kingdoms.len(), 2);
        assert!(
            l.how.starts_with("file ") && l.how.contains("k.txt (2 kingdoms, contents "),
            "{}",
            l.how
        );
        let typo = ten.replace("Smithy", "Smitty");
        std::fs::write(&f, format!("{ten}\n{typo}\n")).unwrap();
        let e = refused(KingdomList::from_args(
            (None, "--random"),
            "base",
            Some(&f),
            1,
            2,
        ));
        assert!(
            e.contains("k.txt:2:") && e.contains("did you mean 'Smithy'"),
            "{e}"
        );
        std::fs::write(&f, "Village, Smithy\n").unwrap();
        let e = refused(KingdomList::from_args(
            (None, "--random"),
            "base",
            Some(&f),
            1,
            2,
        ));
        assert!(
            e.contains("k.txt:1:") && e.contains("exactly 10 piles"),
            "{e}"
        );
        std::fs::write(&f, "# nothing\n").unwrap();
        let e = refused(KingdomList::from_args(
            (None, "--random"),
            "base",
            Some(&f),
            1,
            2,
        ));
        assert!(e.ends_with("no kingdom in the file"), "{e}");
        assert_ne!(kingdom_seed(1, 0), kingdom_seed(1, 1));
        assert_ne!(kingdom_seed(1, 0), kingdom_seed(2, 0));
    }

    #[test]
    fn seats_are_filled_and_too_many_strategies_refused() {
        let (specs, p) = seat_specs(&[BM.into()], Some(3)).unwrap();
        assert_eq!((specs.len(), p), (3, 3));
        let (specs, p) = seat_specs(&[], None).unwrap();
        assert_eq!((specs.len(), p), (2, 2), "default lineup: two seats");
        let three = vec![BM.to_string(); 3];
        refused_with(
            seat_specs(&three, Some(2)),
            "3 strategies for 2 players: give at most one strategy per seat",
        );
        refused_naming(sim(&[BM, BM, BM, "-p", "2"]), "3 strategies for 2 players");
    }

    #[test]
    fn folders_expand_to_their_strategy_files() {
        let d = tempfile::tempdir().unwrap();
        refused_naming(
            expand_specs(&[d.path().display().to_string()]),
            "holds no .dom strategy file",
        );
        std::fs::write(d.path().join("b.dom"), "buy: Gold\n").unwrap();
        std::fs::write(d.path().join("a.dom"), "buy: Gold\n").unwrap();
        std::fs::write(d.path().join("notes.txt"), "").unwrap();
        let v = expand_specs(&[d.path().display().to_string(), BM.into()]).unwrap();
        assert_eq!(v.len(), 3);
        assert!(v[0].ends_with("a.dom") && v[1].ends_with("b.dom") && v[2] == BM);
    }

    #[test]
    fn sim_precision_range() {
        assert_eq!(
            sim(&[BM, BM, "--precision", "0.01"])
                .unwrap()
                .playtest
                .precision,
            Some(0.01)
        );
        for bad in ["0", "0.5", "-0.1", "NaN"] {
            let e = refused(sim(&[BM, BM, "--precision", bad]));
            assert!(
                e.contains("is out of range (expected a half-width between 0 and 0.5"),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn sim_impossible_combinations() {
        let d = tempfile::tempdir().unwrap();
        let (out, part, ck, rep, games) = (
            tmp(&d, "o.csv"),
            tmp(&d, "p.json"),
            tmp(&d, "c.ck"),
            tmp(&d, "r.html"),
            tmp(&d, "g.csv"),
        );
        let shard = ["--shard", "1/2", "--save-partial", part.as_str()];
        refused_with(sim(&[&[BM, BM, "-o", &out], &shard[..]].concat()), "--shard writes only its --save-partial file: -o, --report, --stats and --save-stats are not written by a shard");
        refused_with(
            sim(&[&[BM, BM, "--precision", "0.01"], &shard[..]].concat()),
            "--shard cannot be combined with --precision",
        );
        refused_with(
            sim(&[BM, BM, "--checkpoint", &ck, "--report", &rep]),
            "--checkpoint cannot be combined with --report, --stats or --save-stats",
        );
        refused_with(
            sim(&[BM, BM, "--checkpoint", &ck, "--precision", "0.01"]),
            "--checkpoint cannot be combined with --precision",
        );
        refused_with(
            sim(&[BM, BM, "--checkpoint", &ck, "--games-csv", &games]),
            "--games-csv lists the games of one whole run",
        );
        refused_with(
            sim(&[&[BM, BM, "--games-csv", &games], &shard[..]].concat()),
            "--games-csv lists the games of one whole run",
        );
        // Each alone is fine, and records what was asked.
        let c = sim(&[BM, BM, "--checkpoint", &ck, "--checkpoint-every", "50"]).unwrap();
        assert_eq!(c.checkpoint.unwrap().every, 50);
        let c = sim(&[BM, BM, "--report", &rep, "--games-csv", &games, "-o", &out]).unwrap();
        assert!(c.playtest.wanted() && c.playtest.games_csv.is_some());
        assert!(c.run.out.is_some());
        assert!(sim(&[&[BM, BM], &shard[..]].concat())
            .unwrap()
            .run
            .shard
            .is_some());
        assert_eq!(
            std::fs::read_dir(d.path()).unwrap().count(),
            0,
            "validation writes nothing"
        );
    }

    #[test]
    fn sim_outputs_clash_and_bad_paths() {
        let d = tempfile::tempdir().unwrap();
        let same = tmp(&d, "same.csv");
        refused_naming(
            sim(&[BM, BM, "-o", &same, "--games-csv", &same]),
            "same.csv",
        );
        let strat = tmp(&d, "s.dom");
        std::fs::write(&strat, "buy: Gold, Silver\n").unwrap();
        refused_naming(sim(&[&strat, BM, "-o", &strat]), "s.dom");
        for opt in ["--report", "-o", "--games-csv", "--checkpoint"] {
            let e = refused(sim(&[BM, BM, opt, &tmp(&d, "missing/f")]));
            assert!(e.contains("missing"), "{opt}: {e}");
        }
        refused_naming(
            matrix(&[BM, BM, "-o", &tmp(&d, "missing/m.csv")]),
            "missing",
        );
        refused_naming(
            rank(&[BM, BM, "--matrix", &tmp(&d, "missing/m.csv")]),
            "missing",
        );
        refused_naming(sim(&[&tmp(&d, "no-such.dom"), BM]), "no-such.dom");
        assert_eq!(
            std::fs::read_dir(d.path()).unwrap().count(),
            1,
            "only s.dom"
        );
    }

    #[test]
    fn matrix_rules() {
        let d = tempfile::tempdir().unwrap();
        let e = refused(matrix(&[BM]));
        assert_eq!(e, "a round robin needs at least 2 strategies (1 given)");
        let part = tmp(&d, "p.json");
        refused_with(
            matrix(&[
                BM,
                BM,
                "--report",
                &tmp(&d, "r.html"),
                "--shard",
                "1/2",
                "--save-partial",
                &part,
            ]),
            "--shard writes only its --save-partial file: -o and --report belong",
        );
        let c = matrix(&[BM, BM, BM, "-n", "30"]).unwrap();
        assert_eq!(
            (c.run.games, c.lineup.specs.len(), c.kingdom.kingdom.n()),
            (30, 3, 2)
        );
    }

    #[test]
    fn sweep_rules() {
        let d = tempfile::tempdir().unwrap();
        let e = refused(sweep(&[BM, "--random", "2"]));
        assert_eq!(e, "a sweep needs at least 2 strategies (1 given)");
        let e = refused(sweep(&[BM, BM]));
        assert_eq!(e, "give --random N or --kingdoms FILE");
        let part = tmp(&d, "p.json");
        refused_with(
            sweep(&[
                BM,
                BM,
                "--random",
                "2",
                "--summary",
                &tmp(&d, "s.csv"),
                "--shard",
                "1/2",
                "--save-partial",
                &part,
            ]),
            "--shard writes only its --save-partial file: -o and --summary belong",
        );
        let c = sweep(&[BM, BM, "--random", "4", "--sets", "intrigue"]).unwrap();
        assert_eq!(c.kingdoms.kingdoms.len(), 4);
    }

    #[test]
    fn rank_rules() {
        let d = tempfile::tempdir().unwrap();
        let e = refused(rank(&[
            BM,
            BM,
            BM,
            "-p",
            "3",
            "--matrix",
            &tmp(&d, "m.csv"),
        ]));
        assert!(
            e.starts_with(
                "--matrix is the head-to-head matrix of 2 players in one kingdom (not with -p 3"
            ),
            "{e}"
        );
        refused_naming(
            rank(&[
                BM,
                BM,
                "--random-kingdoms",
                "2",
                "--matrix",
                &tmp(&d, "m.csv"),
            ]),
            "several kingdoms",
        );
        let e = refused(rank(&[BM, BM, BM, "-p", "4"]));
        assert_eq!(
            e,
            "a ranking at 4-player tables needs at least 4 strategies (3 given)"
        );
        let e = refused(rank(&[BM]));
        assert_eq!(
            e,
            "a ranking at 2-player tables needs at least 2 strategies (1 given)"
        );
        let part = tmp(&d, "p.json");
        refused_with(
            rank(&[
                BM,
                BM,
                "--precision",
                "20",
                "--shard",
                "1/2",
                "--save-partial",
                &part,
            ]),
            "--shard cannot be combined with --precision",
        );
        let one = rank(&[BM, BM, "--seed", "9"]).unwrap();
        assert!(!one.many);
        assert_eq!(
            (one.kingdoms.kingdoms.len(), one.seeds.clone()),
            (1, vec![9])
        );
        let many = rank(&[
            BM,
            BM,
            BM,
            "-p",
            "3",
            "--random-kingdoms",
            "2",
            "--seed",
            "9",
        ])
        .unwrap();
        assert!(many.many);
        assert_eq!(many.seeds, vec![kingdom_seed(9, 0), kingdom_seed(9, 1)]);
    }

    #[test]
    fn optimize_template_or_auto() {
        let opt = |args: &[&str]| match parse(&[&["optimize"], args].concat()) {
            Command::Optimize(a) => OptimizeConfig::from_args(&a),
            _ => unreachable!(),
        };
        let e = refused(opt(&["strategies/templates/money_draw.domt", "--auto"]));
        assert_eq!(e, "give a TEMPLATE or --auto, not both");
        refused_with(opt(&[]), "give a strategy TEMPLATE");
        refused_naming(
            opt(&["no-such-template.domt", "-a", BM]),
            "no-such-template.domt",
        );
        let c = opt(&[
            "strategies/templates/money_draw.domt",
            "-a",
            BM,
            "--candidates",
            "8",
        ])
        .unwrap();
        assert_eq!(
            (c.templates.len(), c.budget.candidates, c.budget.refine),
            (1, 8, 3)
        );
        assert_eq!(c.field.specs, vec![BM.to_string()]);
    }

    #[test]
    fn compare_needs_two_to_six_bots_and_a_variant_b() {
        let cmp = |args: &[&str]| match parse(&[&["compare"], args].concat()) {
            Command::Compare(a) => CompareConfig::from_args(&a),
            _ => unreachable!(),
        };
        let a = "cards/post_rider.toml";
        let e = refused(cmp(&["--a", a, BM]));
        assert_eq!(e, "compare needs 2 to 6 strategies (one per seat); 1 given");
        let e = refused(cmp(&["--a", a, BM, BM]));
        assert_eq!(
            e,
            "give variant B with --b FILE or --b-set CARD:FIELD=VALUE"
        );
        refused_naming(
            cmp(&["--a", a, "--b-set", "cost=5", BM, BM]),
            "expected CARD:FIELD=VALUE",
        );
    }

    /// `sim` without strategies plays the shipped files: they are inputs,
    /// so an output may not be one of them (nothing is written here:
    /// `from_args` only validates).
    #[test]
    fn the_default_lineup_files_are_inputs() {
        let Some(smithy) = lineup::shipped("smithy_big_money.dom") else {
            return;
        };
        let s = smithy.display().to_string();
        match parse(&["sim", "-n", "10", "-o", &s]) {
            Command::Sim(a) => refused_naming(SimConfig::from_args(&a), "same file as the input"),
            _ => unreachable!(),
        }
    }

    #[test]
    fn log_and_check_resolve_their_kingdom() {
        match parse(&["log", BM, "-p", "3", "--game", "4", "--preset", "Big Money"]) {
            Command::Log(a) => {
                let c = LogConfig::from_args(&a).unwrap();
                assert_eq!(
                    (c.game, c.lineup.specs.len(), c.kingdom.kingdom.n()),
                    (4, 3, 3)
                );
            }
            _ => unreachable!(),
        }
        match parse(&["check", "strategies/big_money.dom", "--preset", "Nope"]) {
            Command::Check(a) => {
                refused_with(
                    CheckConfig::from_args(&a),
                    "--preset: unknown preset 'Nope'",
                );
            }
            _ => unreachable!(),
        }
    }

    #[test]
    fn report_reads_its_inputs_and_checks_its_outputs() {
        let d = tempfile::tempdir().unwrap();
        // Statistics of a few real games, as `sim --save-stats` saves them.
        let k = Preset::find(DEFAULT_PRESET).unwrap().kingdom(2).unwrap();
        let lineup = LineupConfig::load(vec![BM.into(), BM.into()]).unwrap();
        let compiled = lineup.lineup.compile(&k).unwrap();
        let names = ["A".to_string(), "B".to_string()];
        let recording = crate::stats::Recording {
            kingdom: &k,
            names: &names,
        };
        let cfg = sim::RunConfig {
            games: 4,
            first: 0,
            seed: 1,
            threads: 1,
            progress: false,
            precision: None,
        };
        let stop = std::sync::atomic::AtomicBool::new(false);
        let (_, acc) = sim::run_hooked(&k, &cfg, |o: &[u8]| compiled.bots(o), &stop, &recording);
        let st = acc.unwrap().stats;
        let (a, b) = (d.path().join("a.json"), d.path().join("b.json"));
        crate::stats::save_json(&a, &st).unwrap();
        crate::stats::save_json(&b, &st).unwrap();
        let html = d.path().join("r.html");
        let csv = d.path().join("r.csv");
        let c = ReportConfig::from_args(std::slice::from_ref(&a), &html, Some(&csv)).unwrap();
        assert_eq!(c.inputs.len(), 1);
        let two = [a.clone(), b.clone()];
        assert_eq!(
            ReportConfig::from_args(&two, &html, None)
                .unwrap()
                .inputs
                .len(),
            2
        );
        refused_with(
            ReportConfig::from_args(&two, &html, Some(&csv)),
            "--csv writes the statistics of one run",
        );
        refused_naming(
            ReportConfig::from_args(std::slice::from_ref(&a), &a, None),
            "a.json",
        );
        refused_naming(
            ReportConfig::from_args(std::slice::from_ref(&a), &html, Some(&html)),
            "r.html",
        );
        let e = refused(ReportConfig::from_args(
            &[d.path().join("none.json")],
            &html,
            None,
        ));
        assert!(
            e.starts_with("cannot read statistics from") && e.contains("none.json"),
            "{e}"
        );
        std::fs::write(&b, "{\"not\": \"statistics\"}").unwrap();
        refused_naming(ReportConfig::from_args(&two, &html, None), "b.json");
        assert!(!html.exists() && !csv.exists(), "validation writes nothing");
    }

    #[test]
    fn merge_refuses_clashing_missing_and_bad_parts() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("part-1.json");
        std::fs::write(&p, "{}").unwrap();
        let out = d.path().join("t.csv");
        refused_naming(
            MergeConfig::from_args(std::slice::from_ref(&p), &p, None, None, None),
            "part-1.json",
        );
        refused_naming(
            MergeConfig::from_args(&[d.path().join("none.json")], &out, None, None, None),
            "none.json",
        );
        refused_naming(
            MergeConfig::from_args(std::slice::from_ref(&p), &out, None, None, None),
            "part-1.json",
        );
        refused_naming(
            MergeConfig::from_args(
                std::slice::from_ref(&p),
                &d.path().join("missing/t.csv"),
                None,
                None,
                None,
            ),
            "missing",
        );
        assert!(!out.exists());
    }

    #[test]
    fn a_mistyped_strategy_file_gets_a_did_you_mean() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("big_money.dom"), "buy: Gold, Silver\n").unwrap();
        std::fs::write(d.path().join("witch.dom"), "buy: Witch, Gold, Silver\n").unwrap();
        let typo = tmp(&d, "big_mony.dom");
        let e = refused(LineupConfig::load(vec![BM.into(), typo.clone()]));
        let want = format!(
            "strategy file '{typo}' does not exist (did you mean '{}'?)",
            tmp(&d, "big_money.dom")
        );
        assert_eq!(e, want);
        let e = refused(sim(&[BM, &typo]));
        assert_eq!(e, want, "sim says it too");
        // Nothing close: the loader's own message.
        let far = tmp(&d, "smithy_engine.dom");
        let e = refused(LineupConfig::load(vec![far.clone()]));
        assert_eq!(e, format!("strategy file '{far}' does not exist"));
        let c = LineupConfig::load(vec![tmp(&d, "witch.dom"), BM.into()]).unwrap();
        assert_eq!(c.lineup.entrants.len(), 2);
    }
}
