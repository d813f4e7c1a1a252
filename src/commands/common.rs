//! What several verbs share: the argument blocks they flatten in (clap's
//! raw arguments: [`KingdomArgs`], [`StrategyArgs`], [`PlaytestArgs`],
//! [`ShardArgs`], [`ThreadsArg`], [`PlayersArg`]) and their value parsers;
//! the validated parts of a configuration ([`RunConfig`], [`LineupConfig`],
//! the kingdom through [`kingdom_config`]) and the input/output checks
//! every verb's `from_args` runs in the same order; the interruption flag
//! ([`STOP`]) and the signal handling; the pieces of a run the verbs open
//! alike ([`prepare_run`], [`round_robin`], checkpoints).
//!
//! The checks run in a fixed order — numbers and combinations of options,
//! outputs that clash with inputs or with each other, the kingdom, the
//! strategies, and last whether each output can be written — so that a
//! command line with two mistakes always gets the same message.
//! Validation writes nothing: an output is tried and dropped; the verb
//! opens it for real just before playing.

use crate::dominion::kingdoms::load_lineup;
use crate::dominion::kingdoms::{KingdomConfig, KingdomSpec};
use crate::dominion::lineup::{self, CompiledLineup, Lineup};
use crate::dominion::matches;
use crate::dominion::outputs::{version, warning};
use crate::engine::Kingdom;
use crate::outln;
use crate::output::Commit;
use crate::report::{self, AtomicFile, EntrantInfo};
use crate::sim;
use crate::sim::shard::ShardSpec;
use anyhow::{bail, Context, Result};
use clap::Args;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// Exit status of a run stopped by Ctrl-C / SIGTERM (128 + SIGINT).
pub(crate) const EXIT_INTERRUPTED: u8 = 130;

/// How the kingdom is chosen (default: the base "First Game" preset).
#[derive(Args, Debug, Clone, Default)]
pub struct KingdomArgs {
    /// The Kingdom cards, comma-separated: --kingdom "Village,Smithy,..."
    /// Fewer than 10 make a partial kingdom (said in the output); --fill
    /// completes it.
    #[arg(long, value_name = "CARDS", conflicts_with_all = ["preset", "random"])]
    pub kingdom: Option<String>,
    /// Complete a --kingdom of fewer than 10 cards with random Kingdom cards
    /// from --sets (drawn with --kingdom-seed) that no strategy of the run
    /// buys or gains, by name or by type.
    #[arg(long, requires = "kingdom")]
    pub fill: bool,
    /// A recommended kingdom from the rulebooks, by English name (see `domsim presets`).
    #[arg(long, value_name = "NAME", conflicts_with = "random")]
    pub preset: Option<String>,
    /// 10 random Kingdom cards from --sets, drawn with --kingdom-seed.
    #[arg(long)]
    pub random: bool,
    /// Card sets for --random and --fill, comma-separated (base, intrigue,
    /// dark-ages) [default: base].
    #[arg(long, value_name = "SETS")]
    pub sets: Option<String>,
    /// Seed of the random kingdom or of the --fill cards (default: the --seed value).
    #[arg(long, value_name = "N", value_parser = parse_kingdom_seed, allow_negative_numbers = true)]
    pub kingdom_seed: Option<u64>,
    /// Shelters: `auto` follows the rule (decided per game from the Dark
    /// Ages piles of the kingdom), `on` or `off` forces them in every game.
    #[arg(long, value_name = "auto|on|off", default_value = "auto", value_parser = ["auto", "on", "off"])]
    pub shelters: String,
}

impl KingdomArgs {
    /// The card sets of --random and --fill (`base` when not given).
    pub fn sets(&self) -> &str {
        self.sets.as_deref().unwrap_or("base")
    }
}

/// Which strategies play.
#[derive(Args, Debug, Clone, Default)]
pub struct StrategyArgs {
    /// Strategy files (or `builtin:big-money`), one per seat; default:
    /// strategies/big_money.dom and strategies/smithy_big_money.dom (of the
    /// current folder, else of the source tree domsim was built from, else
    /// the built-in Big Money twice; the CSV names the files used).
    #[arg(value_name = "STRATEGY")]
    pub files: Vec<String>,
    /// Same as a positional STRATEGY; may be repeated.
    #[arg(long = "strategy", short = 's', value_name = "FILE")]
    pub strategy: Vec<String>,
    /// Rollouts per decision of every `search` bot that names no budget of
    /// its own (`search:budget=N` wins): 1 to 1000000 (default 500). The
    /// cost of a search bot's game is about proportional to it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub search_budget: Option<u32>,
}

impl StrategyArgs {
    /// Load `specs` (from [`Self::all`], expanded), with `--search-budget`
    /// given to the search bots that name none. A `--search-budget` with no
    /// search bot among them is refused: it would change nothing.
    pub fn load(&self, specs: Vec<String>) -> Result<LineupConfig> {
        let mut c = LineupConfig::load(specs)?;
        if let Some(n) = self.search_budget {
            if c.lineup.set_search_budget(n) == 0 {
                bail!("--search-budget {n}: no `search` bot without a budget of its own in this lineup (a strategy file's play does not depend on it)");
            }
        }
        Ok(c)
    }

    /// Every strategy given: the `--strategy` ones first, then the positional ones.
    pub fn all(&self) -> Vec<String> {
        let mut v = self.strategy.clone();
        v.extend(self.files.iter().cloned());
        v
    }
}

/// What a field verb (`rank`, `sweep`, `optimize`, `best`) does with a bot
/// whose file names cards absent from the kingdom: its entries for them
/// are skipped, so it would play as another bot (most often Big Money)
/// under its own name.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Absent {
    // (Plain comments: a doc comment per value would turn every verb's
    // --help into the long format.)
    // Leave it out of the field; one line names each bot left out and the
    // card it misses.
    #[default]
    Leave,
    // Play it as it is, labelled `NAME (without CARD)`.
    Keep,
}

/// `--absent leave|keep`.
#[derive(Args, Debug, Clone, Default)]
pub struct AbsentArg {
    /// A bot whose file names cards absent from the kingdom (with several
    /// kingdoms: from every one of them) plays as another bot there:
    /// `leave` leaves it out of the field (one line says who and which
    /// card), `keep` plays it, labelled `NAME (without CARD)`.
    #[arg(long, value_enum, value_name = "WHAT", default_value_t = Absent::Leave)]
    pub absent: Absent,
}

impl AbsentArg {
    /// Apply `--absent` to `field` for `kingdoms` (a bot is absent when it
    /// names a card absent from each of them); `min` bots must remain
    /// (`what` says for what). Says on standard error who was left out (or
    /// kept) and why.
    pub fn apply(
        &self,
        field: &mut LineupConfig,
        kingdoms: &[crate::engine::Kingdom],
        min: usize,
        what: &str,
    ) -> Result<()> {
        let l = &mut field.lineup;
        let per: Vec<Vec<Vec<crate::strategy::Missing>>> =
            kingdoms.iter().map(|k| l.absent_cards(k)).collect();
        // What an entrant misses (the first kingdom's cards) when it misses
        // something in every kingdom: a kingdom where it plays as itself
        // keeps it.
        let missing: Vec<Vec<crate::strategy::Missing>> = (0..l.entrants.len())
            .map(|i| {
                if per.iter().all(|p| !p[i].is_empty()) {
                    per[0][i].clone()
                } else {
                    Vec::new()
                }
            })
            .collect();
        if missing.iter().all(Vec::is_empty) {
            return Ok(());
        }
        let why = |cards: &[crate::strategy::Missing]| -> String {
            match cards.len() {
                1 => cards[0].to_string(),
                n => format!("{} and {} more", cards[0], n - 1),
            }
        };
        let mut named: Vec<String> = Vec::new();
        match self.absent {
            Absent::Keep => {
                for (i, (info, _)) in l.entrants.iter_mut().enumerate() {
                    if !missing[i].is_empty() {
                        info.name = format!("{} (without {})", info.name, why(&missing[i]));
                        named.push(info.name.clone());
                    }
                }
                crate::errln!(
                    "kept (--absent keep) {} bot(s) naming cards not in the kingdom, playing without them: {}",
                    named.len(),
                    named.join(", ")
                );
            }
            Absent::Leave => {
                let mut keep = Vec::new();
                let mut specs = Vec::new();
                for (i, e) in std::mem::take(&mut l.entrants).into_iter().enumerate() {
                    if missing[i].is_empty() {
                        keep.push(e);
                        specs.push(field.specs[i].clone());
                    } else {
                        named.push(format!("{} ({})", e.0.name, why(&missing[i])));
                    }
                }
                l.entrants = keep;
                field.specs = specs;
                let kingdom = if kingdoms.len() > 1 {
                    "each kingdom"
                } else {
                    "the kingdom"
                };
                crate::errln!(
                    "left out {} bot(s) naming cards not in {kingdom} (--absent keep plays them): {}",
                    named.len(),
                    named.join(", ")
                );
                if l.entrants.len() < min {
                    bail!(
                        "{} bot(s) left in the field once those naming cards not in the kingdom are left out; {what} needs at least {min} (--absent keep plays them anyway)",
                        l.entrants.len()
                    );
                }
            }
        }
        Ok(())
    }
}

/// Sequential mode and playtest statistics for `sim`.
#[derive(Args, Debug, Clone, Default)]
pub struct PlaytestArgs {
    /// Sequential mode: stop once every strategy's 95% score interval is
    /// narrower than ± this (e.g. 0.005); --games is then the maximum. The
    /// intervals are checked after every 16,384 games, so at least that
    /// many are played.
    #[arg(long, value_name = "HALF_WIDTH", allow_negative_numbers = true)]
    pub precision: Option<f64>,
    /// Write a self-contained HTML playtest report (charts, no network).
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
    /// Write every playtest statistic as long-format CSV (results/STATS.md).
    #[arg(long, value_name = "FILE.csv")]
    pub stats: Option<PathBuf>,
    /// Save the playtest statistics as JSON, for `domsim report` later.
    #[arg(long, value_name = "FILE.json")]
    pub save_stats: Option<PathBuf>,
    /// One CSV row per game (index, strategy per seat, VP, turns, winners),
    /// to find the games a bot lost; `domsim log … --seed S --game N`
    /// replays game N.
    #[arg(long, value_name = "FILE.csv")]
    pub games_csv: Option<PathBuf>,
}

/// `-p` of `best` and `optimize`: 2 only, any other count refused with the
/// reason. Both rest on a two-player zero-sum payoff matrix (a bot's score
/// against each opponent; the Nash mixture, PSRO and the gate of `best`),
/// which has no single meaning at a table of 3 to 6; `rank -p N` rates a
/// field at those sizes (Plackett–Luce over placements).
pub(crate) fn parse_two_players(s: &str) -> std::result::Result<u8, String> {
    match s.trim().parse::<i64>() {
        Ok(2) => Ok(2),
        Ok(n @ 3..=6) => Err(format!(
            "{n} players is not supported: this search scores a bot against each opponent of a 2-player payoff matrix (its Nash mixture, best responses and gate), which a table of {n} does not give; rate a field at {n} players with `domsim rank -p {n} STRATEGY…` (Plackett–Luce over placements)"
        )),
        _ => Err(format!("'{s}' is not a player count: this verb plays 2-player games")),
    }
}

/// A count of games (or games between checkpoints): a whole number ≥ 1.
pub(crate) fn parse_count(s: &str) -> std::result::Result<u64, String> {
    let t = s.trim().replace('_', "");
    let digits = t.strip_prefix(['-', '+']).unwrap_or(&t);
    let whole = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    match t.parse::<i128>() {
        Ok(n) if n >= 1 && n <= u64::MAX as i128 => Ok(n as u64),
        Ok(n) if n < 1 => Err(format!("must be at least 1 (got {n})")),
        // Too many digits even for i128: still a whole number, of a sign.
        Err(_) if whole && t.starts_with('-') => Err(format!("must be at least 1 (got {s})")),
        Ok(_) => Err(too_large(s)),
        Err(_) if whole => Err(too_large(s)),
        Err(_) => Err(format!("'{s}' is not a whole number (e.g. 10000)")),
    }
}

pub(crate) fn too_large(s: &str) -> String {
    format!(
        "'{s}' is too large (at most {}: counts are 64-bit)",
        u64::MAX
    )
}

/// The outcome of a `--precision` run (sim, rank, salem sim) on the
/// console, and a warning beside it when the target was missed: `target`
/// and `widest` as shown ("0.005", "25 Elo"), `played` what was played.
pub(crate) fn precision_outcome(
    target: &str,
    widest: &str,
    played: &str,
    reached: bool,
) -> Result<()> {
    if reached {
        outln!("precision ±{target} reached after {played} (widest ±{widest}).");
    } else {
        outln!("precision ±{target} NOT reached in {played} (widest ±{widest}); raise -n.");
        crate::output::warn_beside_console(&format!(
            "warning: precision ±{target} not reached in {played} (widest ±{widest}); raise -n"
        ));
    }
    Ok(())
}

/// A seed: a whole number from 0 to 2^64 − 1.
pub(crate) fn parse_seed(s: &str) -> std::result::Result<u64, String> {
    s.trim()
        .replace('_', "")
        .parse::<u64>()
        .map_err(|_| format!("'{s}' is not a seed (a whole number from 0 to 18446744073709551615)"))
}

/// `--kingdom-seed`: a seed, named in the message.
pub(crate) fn parse_kingdom_seed(s: &str) -> std::result::Result<u64, String> {
    parse_seed(s)
}

/// A game index of a run (`log --game N`, `salem log --game N`): a whole
/// number from 0.
pub(crate) fn parse_game_index(s: &str) -> std::result::Result<u64, String> {
    s.trim().replace('_', "").parse::<u64>().map_err(|_| {
        format!("'{s}' is not a game index (a whole number from 0 to 18446744073709551615: game N of the run, as in --games-csv)")
    })
}

/// Deterministic shards (`src/sim/shard.rs`).
#[derive(Args, Debug, Clone, Default)]
pub struct ShardArgs {
    /// Play only shard I of N (1-based) of the run, and save its exact
    /// counts with --save-partial: a slice of the game indices (sim, and
    /// compare with both variants), of every pair's or table's games
    /// (matrix, rank), or of the kingdoms (sweep). `domsim merge` joins the parts into the outputs a
    /// one-machine run writes, byte for byte.
    #[arg(long, value_name = "I/N", value_parser = sim::shard::ShardSpec::parse, requires = "save_partial")]
    pub shard: Option<sim::shard::ShardSpec>,
    /// The partial result file of this shard (JSON), for `domsim merge`.
    #[arg(long, value_name = "FILE.json", requires = "shard")]
    pub save_partial: Option<PathBuf>,
}

/// `--threads`, as every verb that plays games in parallel takes it
/// (`salem sim` too).
#[derive(Args, Debug, Clone, Default)]
pub struct ThreadsArg {
    /// Worker threads (default: one per core). Results do not depend on it.
    #[arg(long, short = 'j', value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
}

/// `--players` of the verbs that seat one strategy per player (`sim`, `log`).
#[derive(Args, Debug, Clone, Default)]
pub struct PlayersArg {
    /// Players (2–6); default: the number of strategies (2 if fewer).
    #[arg(long, short = 'p', value_parser = clap::value_parser!(u8).range(2..=6))]
    pub players: Option<u8>,
}

pub(crate) static STOP: AtomicBool = AtomicBool::new(false);

/// Whether the running verb checks [`STOP`] (set by [`install_stop_handler`]).
pub(crate) static WATCHED: AtomicBool = AtomicBool::new(false);

/// Catch Ctrl-C, SIGTERM and SIGHUP from the start of every verb that may
/// write a file, before its first temporary file can exist (the output
/// checks of the configuration create and remove one). Until the verb
/// watches [`STOP`], a signal removes every temporary file and exits with
/// status 130 at once; afterwards the first signal only sets the flag (the
/// run finishes the games in progress, starts no new one and reports what
/// was completed) and a second one exits at once, still removing them.
pub(crate) fn catch_signals() {
    let _ = ctrlc::set_handler(|| {
        if !WATCHED.load(Ordering::SeqCst) || STOP.swap(true, Ordering::SeqCst) {
            report::remove_pending_files_and_exit(EXIT_INTERRUPTED as i32);
        }
    });
}

/// The verb checks [`STOP`] from now on: the next signal asks it to stop
/// rather than ending the process (see [`catch_signals`]).
pub(crate) fn install_stop_handler() {
    WATCHED.store(true, Ordering::SeqCst);
}

pub(crate) fn progress_wanted() -> bool {
    std::io::stderr().is_terminal()
}

/// The `--cards` and `--cards-only` options of this command as a shell
/// would take them again (empty without data cards), set once by [`run`].
pub(crate) static CARD_FLAGS: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// What identifies a run for `--checkpoint` (everything but the game count):
/// what a shard's part is keyed by, the version and the Shelters setting
/// included (a checkpoint of a `--shelters on` run used to resume a
/// `--shelters off` run with the other run's counts).
pub(crate) fn checkpoint_key(seed: u64, k: &Kingdom, infos: &[EntrantInfo]) -> String {
    let who: Vec<String> = infos
        .iter()
        .map(|e| format!("{}[{}]", e.source, e.hash))
        .collect();
    let data = crate::cards::data::bound_signatures();
    let data = if data.is_empty() {
        String::new()
    } else {
        format!(" data_cards={}", data.join(" ; "))
    };
    let shelters = match k.shelters {
        None => "auto",
        Some(true) => "on",
        Some(false) => "off",
    };
    format!(
        "domsim_version={} seed={seed} players={} kingdom={} shelters={shelters} strategies={}{data}",
        version(),
        k.n(),
        k.describe(),
        who.join(",")
    )
}

/// What a checkpointed run says on standard error: where it resumed, and
/// (when it stopped short) how many games its checkpoint holds.
pub(crate) fn checkpoint_note<R>(
    path: &std::path::Path,
    r: &sim::checkpoint::Resumed<R>,
    games: u64,
) {
    if r.resumed_from > 0 {
        crate::errln!(
            "resumed from checkpoint '{}' at {} games",
            path.display(),
            r.resumed_from
        );
    }
    if r.saved < games {
        crate::errln!(
            "checkpoint '{}' holds {} of {games} games; run the same command again to resume",
            path.display(),
            r.saved
        );
    }
}

/// What `sim` and `matrix` open once their configuration is validated:
/// the outputs' temporary files (created before any game, so a bad path
/// fails first), the worker pool, the kingdom to run and the strategies
/// compiled for it (warnings printed), and the runner's configuration for
/// the games this process plays (a shard's slice of the run).
pub(crate) struct PreparedRun {
    pub(crate) kingdom: Kingdom,
    pub(crate) compiled: CompiledLineup,
    pub(crate) cfg: sim::RunConfig,
    pub(crate) pool: rayon::ThreadPool,
    pub(crate) file: Option<AtomicFile>,
    pub(crate) partial_file: Option<AtomicFile>,
}

pub(crate) fn prepare_run(
    run: &RunConfig,
    lineup: &LineupConfig,
    kc: &KingdomConfig,
    precision: Option<f64>,
) -> Result<PreparedRun> {
    // The handler is installed before the temporary file exists, so that a
    // signal can never leave it behind.
    install_stop_handler();
    let file = run.out.as_deref().map(AtomicFile::create).transpose()?;
    let partial_file = run.partial_file()?;
    let pool = sim::pool(run.threads)?;
    let (kingdom, compiled) = lineup.compile_for(&kc.kingdom)?;
    Ok(PreparedRun {
        kingdom,
        compiled,
        cfg: run.runner(progress_wanted(), precision),
        pool,
        file,
        partial_file,
    })
}

/// The playtest outputs of `sim` and `report`, created before any work.
pub(crate) struct PlaytestFiles {
    html: Option<AtomicFile>,
    csv: Option<AtomicFile>,
    json: Option<AtomicFile>,
}

impl PlaytestFiles {
    pub(crate) fn create(
        html: Option<&std::path::Path>,
        csv: Option<&std::path::Path>,
        json: Option<&std::path::Path>,
    ) -> Result<PlaytestFiles> {
        Ok(PlaytestFiles {
            html: html.map(AtomicFile::create).transpose()?,
            csv: csv.map(AtomicFile::create).transpose()?,
            json: json.map(AtomicFile::create).transpose()?,
        })
    }

    /// Add the requested outputs of `st` to `outs` (JSON, CSV, HTML report
    /// with `note` under its title).
    pub(crate) fn stage(
        self,
        outs: &mut Commit,
        st: &crate::stats::PlaytestStats,
        note: &str,
    ) -> Result<()> {
        if let Some(f) = self.json {
            outs.add_with(f, |w| crate::stats::write_json_to(w, st))?;
        }
        if let Some(f) = self.csv {
            outs.add_with(f, |w| crate::stats::csv::write_csv_to(w, st))?;
        }
        if let Some(f) = self.html {
            let opts = crate::stats::html::ReportOptions {
                title: None,
                note: Some(note.to_string()),
                matrix: None,
            };
            outs.add(f, crate::stats::html::render_html(st, &opts))?;
        }
        Ok(())
    }
}

pub(crate) type Cells = Vec<Vec<Option<matches::EntrantStats>>>;

/// A 2-player round robin of every pair of a compiled lineup in one kingdom
/// (seats alternate by game index): `cells[i][j]` is `i` against `j`.
/// Returns the cells, the games completed and whether a signal stopped it
/// (unfinished pairs are left `None`). `matrix`, `sweep` and `rank` share it.
pub(crate) fn round_robin(
    k: &Kingdom,
    compiled: &CompiledLineup,
    names: &[String],
    cfg: &sim::RunConfig,
    pool: &rayon::ThreadPool,
    announce_pairs: bool,
) -> (Vec<Vec<Option<matches::EntrantStats>>>, u64, bool) {
    let n = names.len();
    let mut cells = vec![vec![None; n]; n];
    let mut completed = 0;
    for i in 0..n {
        for j in i + 1..n {
            if announce_pairs {
                crate::errln!("{} vs {}", names[i], names[j]);
            }
            let ids = [i as u8, j as u8];
            let r = pool.install(|| {
                matches::run(
                    k,
                    cfg,
                    |o: &[u8]| compiled.bots(&[ids[o[0] as usize], ids[o[1] as usize]]),
                    &STOP,
                )
            });
            completed += r.completed;
            if r.interrupted {
                return (cells, completed, true);
            }
            cells[i][j] = Some(r.stats.entrants[0]);
            cells[j][i] = Some(r.stats.entrants[1]);
        }
    }
    (cells, completed, false)
}

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
    pub(crate) fn new(
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
    pub(crate) fn refuse_with_shard(&self, outputs: &str, given: bool, why: &str) -> Result<()> {
        if self.shard.is_some() && given {
            bail!("--shard writes only its --save-partial file: {outputs} {why}");
        }
        Ok(())
    }

    /// A sequential run (`--precision`) cannot be sharded.
    pub(crate) fn refuse_sequential_shard(&self, precision: bool) -> Result<()> {
        if self.shard.is_some() && precision {
            bail!("--shard cannot be combined with --precision (a sequential run decides when to stop from all its games)");
        }
        Ok(())
    }
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
            crate::errln!("{}", warning(w));
        }
        Ok((kingdom, c))
    }
}

/// The default lineup of `sim`/`log` without strategies: the shipped Big
/// Money and Smithy Big Money files, else (binary run away from its source
/// tree) the built-in Big Money mirror.
pub(crate) fn default_specs() -> Vec<String> {
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
pub(crate) type Outs<'a> = [(&'static str, Option<&'a Path>)];

/// The outputs asked for, with their option names.
pub(crate) fn given<'a>(outs: &Outs<'a>) -> Vec<(&'static str, &'a Path)> {
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
pub(crate) fn check_kingdoms_file(file: Option<&Path>, outs: &Outs) -> Result<()> {
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
pub(crate) fn check_writable(outs: &Outs, loaded: &[&LineupConfig]) -> Result<()> {
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

/// The folders a written bot's `extends:` must resolve from (`optimize
/// --bot`, `best --bot`): the one its path names (strategy files resolve
/// it from there) and the one it lands in (a link's target folder: the
/// output follows links); none without a file.
pub(crate) fn bot_folders(bot: Option<&Path>) -> Vec<PathBuf> {
    let folder = |p: &Path| -> PathBuf {
        match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        }
    };
    bot.map(|b| vec![folder(b), folder(&crate::output::written_path(b))])
        .unwrap_or_default()
}

/// A `--precision` half-width (of a win rate or of its change): in (0, 0.5).
pub(crate) fn check_precision(p: f64) -> Result<()> {
    if !(p > 0.0 && p < 0.5) {
        bail!(
            "--precision {p} is out of range (expected a half-width between 0 and 0.5, e.g. 0.005)"
        );
    }
    Ok(())
}

/// The kingdom of a run from its kingdom options (see
/// [`KingdomConfig::from_spec`]).
pub(crate) fn kingdom_config(
    a: &KingdomArgs,
    players: usize,
    seed: u64,
    strategies: &[String],
) -> Result<KingdomConfig> {
    KingdomConfig::from_spec(&a.spec(), players, seed, strategies)
}

impl KingdomArgs {
    /// The kingdom asked for, as the library takes it.
    pub fn spec(&self) -> KingdomSpec {
        KingdomSpec {
            kingdom: self.kingdom.clone(),
            fill: self.fill,
            preset: self.preset.clone(),
            random: self.random,
            sets: self.sets.clone(),
            kingdom_seed: self.kingdom_seed,
            shelters: self.shelters.clone(),
            cards_hint: true,
        }
    }
}

/// Record the `--cards` and `--cards-only` options of this command (see
/// [`CARD_FLAGS`]).
pub(crate) fn set_card_flags(cards: &[PathBuf], only: Option<&str>) {
    // The same card options in a command this run prints (the games CSV's
    // replay line): without them the replay would not know the data cards.
    let mut card_flags = String::new();
    for f in cards {
        card_flags.push_str(&format!(
            " --cards {}",
            crate::output::shell_word(&f.display().to_string())
        ));
    }
    if let Some(only) = only {
        card_flags.push_str(&format!(
            " --cards-only {}",
            crate::output::shell_word(only)
        ));
    }
    let _ = CARD_FLAGS.set(card_flags);
}
