//! Command-line interface, in ripgrep's two layers: clap parses the command
//! line into the raw argument structs of this module (the "low" arguments:
//! [`SimArgs`], [`MatrixArgs`], [`SweepArgs`], [`RankArgs`],
//! [`OptimizeArgs`], [`CompareArgs`], [`LogArgs`], [`CheckArgs`], and the
//! blocks several verbs flatten in: [`KingdomArgs`], [`StrategyArgs`],
//! [`ThreadsArg`], [`PlayersArg`], [`ShardArgs`], [`PlaytestArgs`]);
//! [`crate::config`] validates them into one configuration per verb before
//! anything runs, and the `cmd_*` functions here take only that
//! configuration. Every user error is reported with exit status 2 and a
//! message naming the offending value.
//!
//! Verbs: `sim`, `matrix`, `sweep`, `rank`, `optimize`, `compare`, `log`,
//! `check`, `kingdom`, `presets`, `scenario`, `report`, `merge`, `cards`,
//! `soak`, `bench`, `serve` (the server itself is in [`crate::serve`]) and
//! `salem` ([`crate::new_salem::cli`]).

use crate::bench::{self, ThreadList};
use crate::config::{
    CheckConfig, CompareConfig, KingdomConfig, LineupConfig, LogConfig, MatrixConfig, MergeConfig,
    OptimizeConfig, RankConfig, ReportConfig, RunConfig, SimConfig, SweepConfig,
};
use crate::engine::{Game, Kingdom};
use crate::output::Commit;
use crate::report::{self, AtomicFile, EntrantInfo, Meta};
use crate::scenario::{state_json, Scenario};
use crate::sim;
use crate::sim::lineup::{self, CompiledLineup, Lineup};
use crate::sim::logbots::LoggingBots;
use crate::sim::presets::PRESETS;
use crate::{out, outln};
use anyhow::{anyhow, bail, Result};
use clap::{Args, Parser, Subcommand};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

/// Exit status of a run stopped by Ctrl-C / SIGTERM (128 + SIGINT).
const EXIT_INTERRUPTED: u8 = 130;

/// The preset used when no kingdom is given.
pub const DEFAULT_PRESET: &str = "First Game";

#[derive(Parser, Debug)]
#[command(
    name = "domsim",
    version,
    about = "High-throughput Dominion bot simulator"
)]
pub struct Cli {
    #[command(subcommand)]
    pub cmd: Command,
    /// Card files (TOML) whose data cards this command can use like printed
    /// cards: in --kingdom, in strategy files, in every statistic (see
    /// docs/DESIGNING_CARDS.md). At most 14 data cards at once.
    #[arg(long = "cards", global = true, value_name = "FILE")]
    pub cards: Vec<PathBuf>,
    /// Load only these cards of the --cards files (comma-separated names),
    /// e.g. two cards of cards/reprints.toml.
    #[arg(
        long = "cards-only",
        global = true,
        value_name = "NAMES",
        requires = "cards"
    )]
    pub cards_only: Option<String>,
}

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
}

impl StrategyArgs {
    /// Every strategy given: the `--strategy` ones first, then the positional ones.
    pub fn all(&self) -> Vec<String> {
        let mut v = self.strategy.clone();
        v.extend(self.files.iter().cloned());
        v
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

fn too_large(s: &str) -> String {
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

/// A rating precision in Elo points (a 95% half-width), e.g. 15.
fn parse_precision_elo(s: &str) -> std::result::Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 && x <= 1000.0 => Ok(x),
        _ => Err(format!(
            "'{s}' is not a rating precision (Elo points between 0 and 1000, e.g. 15)"
        )),
    }
}

/// A seed: a whole number from 0 to 2^64 − 1.
pub(crate) fn parse_seed(s: &str) -> std::result::Result<u64, String> {
    s.trim()
        .replace('_', "")
        .parse::<u64>()
        .map_err(|_| format!("'{s}' is not a seed (a whole number from 0 to 18446744073709551615)"))
}

/// `--kingdom-seed`: a seed, named in the message.
fn parse_kingdom_seed(s: &str) -> std::result::Result<u64, String> {
    parse_seed(s)
}

/// A game index of a run (`log --game N`, `salem log --game N`): a whole
/// number from 0.
pub(crate) fn parse_game_index(s: &str) -> std::result::Result<u64, String> {
    s.trim().replace('_', "").parse::<u64>().map_err(|_| {
        format!("'{s}' is not a game index (a whole number from 0 to 18446744073709551615: game N of the run, as in --games-csv)")
    })
}

/// `salem log -p`: one player count, 3 to 8 (`salem sim` takes ranges).
pub(crate) fn parse_salem_log_players(s: &str) -> std::result::Result<u8, String> {
    match s.trim().parse::<u8>() {
        Ok(p) if (3..=8).contains(&p) => Ok(p),
        Ok(p) => Err(format!("{p} players is outside 3..=8")),
        Err(_) if s.contains("..") || s.contains(',') => Err(format!(
            "'{s}': `salem log` plays one game, so -p is one player count from 3 to 8 (ranges and lists are for `salem sim`)"
        )),
        Err(_) => Err(format!("'{s}' is not a player count (a whole number from 3 to 8)")),
    }
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

/// `domsim matrix`'s raw arguments (validated into [`MatrixConfig`]).
#[derive(Args, Debug)]
#[command(mut_arg("files", |a| a.help("Strategy files (or builtin:big-money) or folders of them (every *.dom inside): the field, at least 2; every pair plays")))]
pub struct MatrixArgs {
    #[command(flatten)]
    pub strategies: StrategyArgs,
    #[command(flatten)]
    pub kingdom: KingdomArgs,
    /// Games per pair.
    #[arg(long, short = 'n', default_value_t = 2_000, value_parser = parse_count, allow_negative_numbers = true)]
    pub games: u64,
    /// Run seed (every pair plays the same deals: game i from (seed, i)).
    #[arg(long, default_value_t = 1, value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: u64,
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// Write the matrix as CSV to this file (atomically).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Also write the matrix as a heat map in a self-contained HTML page.
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
    #[command(flatten)]
    pub shard: ShardArgs,
}

/// `domsim sim`'s raw arguments, as clap parses them (ripgrep's "low"
/// arguments); [`SimConfig::from_args`] turns them into a checked run.
#[derive(Args, Debug)]
pub struct SimArgs {
    #[command(flatten)]
    pub strategies: StrategyArgs,
    #[command(flatten)]
    pub kingdom: KingdomArgs,
    #[command(flatten)]
    pub players: PlayersArg,
    /// Games to play.
    #[arg(long, short = 'n', default_value_t = 10_000, value_parser = parse_count, allow_negative_numbers = true)]
    pub games: u64,
    /// Run seed: game i is dealt from (seed, i).
    #[arg(long, default_value_t = 1, value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: u64,
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// Write the table as CSV to this file (atomically).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Save mergeable partial statistics to FILE after every
    /// --checkpoint-every games; run the same command again after a
    /// crash or kill to resume from it (same final numbers).
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Games per checkpoint batch.
    #[arg(long, value_name = "N", default_value_t = sim::checkpoint::DEFAULT_EVERY, requires = "checkpoint", value_parser = parse_count, allow_negative_numbers = true)]
    pub checkpoint_every: u64,
    #[command(flatten)]
    pub playtest: PlaytestArgs,
    #[command(flatten)]
    pub shard: ShardArgs,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// New Salem, the hidden-role drafting game (3–8 players): `domsim salem sim|log|check|rules`.
    #[command(subcommand)]
    Salem(crate::new_salem::cli::SalemCmd),
    /// Cards from data files: list them, or verify the shipped reprints of
    /// printed cards (`domsim cards verify`).
    #[command(subcommand)]
    Cards(CardsCmd),
    /// A/B test of a card: the same field of bots on the same kingdom and the
    /// same seeds (common random numbers) with card variant A and variant B;
    /// per bot and overall, the change in win rate, in how often the card is
    /// bought and played, in the winner's deck, and in game length, each with
    /// a paired 95% interval. See docs/DESIGNING_CARDS.md.
    Compare(CompareArgs),
    /// Run a scenario file: set up a state, play the given moves with the
    /// scripted answers, check the expectations and print the state as JSON.
    ///
    /// The notation is described in README.md ("Scenario notation"); the
    /// rules it checks are in docs/RULES.md, and docs/CARDS.md lists every
    /// card with the scenario files in tests/scenarios/ that show its rulings.
    Scenario {
        /// The scenario file (see README "Scenario notation").
        file: PathBuf,
    },
    /// Simulate many games and print a win-rate table (and write it as CSV).
    Sim(SimArgs),
    /// A field of strategies over many kingdoms: in each kingdom every pair
    /// plays a 2-player round robin; writes one CSV row per kingdom ×
    /// strategy and a summary of which strategy wins where and which cards
    /// help or hurt it.
    Sweep(SweepArgs),
    /// Rate a field of bots: a 2-player round robin of every pair, fitted
    /// with a Bradley–Terry model (ties count half); prints a leaderboard
    /// with 95% intervals and writes it as CSV.
    Rank(RankArgs),
    /// Search a strategy template's parameters for the bot that scores best
    /// against a field in one kingdom (successive halving on common random
    /// numbers, local refinement, confirmation on fresh seeds); writes the
    /// best bot as a strategy file and the search as CSV.
    Optimize(OptimizeArgs),
    /// Print a kingdom without playing: its cards (set, cost, types), the
    /// piles that come with them, and whether Shelters are used; e.g.
    /// `domsim kingdom --random --sets base,dark-ages --seed 7`.
    #[command(group = clap::ArgGroup::new("seeded").args(["random", "fill"]).multiple(true))]
    Kingdom {
        #[command(flatten)]
        kingdom: KingdomArgs,
        /// Players (pile sizes depend on it).
        #[arg(long, short = 'p', default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=6))]
        players: u8,
        /// Seed of a random kingdom or of the --fill cards (same as
        /// --kingdom-seed); only with --random or --fill.
        #[arg(long, default_value_t = 1, value_parser = parse_seed, allow_negative_numbers = true, requires = "seeded")]
        seed: u64,
    },
    /// Join the partial files of a sharded run (`--shard I/N --save-partial`)
    /// into the CSV a one-machine run writes, byte for byte. Refuses parts of
    /// different runs, a shard given twice and a missing shard.
    Merge {
        /// Every partial file of the run.
        #[arg(required = true, value_name = "PARTIAL.json")]
        parts: Vec<PathBuf>,
        /// The merged CSV (`-` for standard output).
        #[arg(long, short = 'o', value_name = "FILE.csv")]
        out: PathBuf,
        /// Parts of a `sweep`: also write its `--summary` CSV (each
        /// strategy's score with and without each card), as the one-machine
        /// run writes it.
        #[arg(long, value_name = "FILE.csv")]
        summary: Option<PathBuf>,
        /// The run's HTML page, as the one-machine run writes it: parts of a
        /// `rank` give its leaderboard (`rank --html`), parts of a `matrix`
        /// its heat map (`matrix --report`), parts of a `compare` its page
        /// (`compare --html`).
        #[arg(long, value_name = "FILE.html")]
        html: Option<PathBuf>,
        /// Parts of a 2-player `rank` in one kingdom: also write its
        /// head-to-head matrix CSV (`rank --matrix`).
        #[arg(long, value_name = "FILE.csv")]
        matrix: Option<PathBuf>,
    },
    /// Build the HTML playtest report (and optionally the statistics CSV) from
    /// statistics saved by `domsim sim --save-stats FILE.json`.
    Report {
        /// Statistics saved by `sim --save-stats`; give two to compare two
        /// runs side by side (e.g. a card and its variant).
        #[arg(value_name = "STATS.json", required = true, num_args = 1..=2)]
        input: Vec<PathBuf>,
        /// The HTML report to write.
        #[arg(long, short = 'o', value_name = "FILE.html")]
        out: PathBuf,
        /// Also write every statistic as long-format CSV (results/STATS.md).
        #[arg(long, value_name = "FILE.csv")]
        csv: Option<PathBuf>,
    },
    /// Round robin: every pair of strategies plays 2-player head-to-head games;
    /// prints and writes a strategy-by-strategy score matrix.
    Matrix(MatrixArgs),
    /// Play one game and print it turn by turn (for debugging a strategy).
    Log(LogArgs),
    /// Check strategy files against a kingdom without playing.
    Check(CheckArgs),
    /// List the recommended kingdoms (presets) and whether they are available.
    Presets,
    /// Soak test: random kingdoms from every implemented card, 2–6 players,
    /// random bots and randomly generated strategy files, invariants checked
    /// at every decision. Exit status 1 if any game failed.
    Soak {
        /// Games to play.
        #[arg(long, short = 'n', default_value_t = 100_000, value_parser = parse_count, allow_negative_numbers = true)]
        games: u64,
        /// Run seed: game i is derived from (seed, i) alone.
        #[arg(long, default_value_t = 1, value_parser = parse_seed, allow_negative_numbers = true)]
        seed: u64,
        #[command(flatten)]
        threads: ThreadsArg,
    },
    /// The strategy workbench in the browser: a local web page to pick a
    /// kingdom, edit a bot per seat (errors shown at their line and column as
    /// you type) and watch the win rates, their intervals and the report's
    /// charts grow as games are played; downloads of the CSV (the one `domsim
    /// sim` writes), the HTML report and the strategy files.
    Serve {
        /// Port to listen on (0: any free port, printed at start).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Address to listen on. The default answers this machine only;
        /// another address lets anyone who can reach it run games here.
        #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
        bind: std::net::IpAddr,
        /// Open the page in the default browser once the server listens.
        #[arg(long)]
        open: bool,
        /// The folder of strategy files the page offers (and the only folder
        /// a typed strategy's `extends:` may read); default: strategies/
        /// here, else the strategies/ of the source tree this binary was
        /// built from (the first line printed names the folder).
        #[arg(long, value_name = "DIR")]
        strategies: Option<PathBuf>,
    },
    /// Measure throughput on this machine: whole games between the shipped
    /// strategy files through the simulator's runner, on 1 thread, then 2
    /// (and every core if more); prints a Markdown table of games/s.
    Bench {
        /// Small game counts (a few seconds in all): a smoke test, not a
        /// measurement.
        #[arg(long)]
        quick: bool,
        /// Multiply every workload's game count by F (e.g. 0.1 or 3).
        #[arg(long, value_name = "F", default_value = "1", value_parser = bench::parse_scale, allow_negative_numbers = true)]
        scale: f64,
        /// Thread counts to measure, comma-separated (default: 1,2, plus
        /// every core when there are more).
        #[arg(long, short = 'j', value_name = "LIST", value_parser = bench::parse_threads, allow_negative_numbers = true)]
        threads: Option<ThreadList>,
        /// Also write the table as CSV to this file (atomically).
        #[arg(long, short = 'o', value_name = "FILE.csv")]
        out: Option<PathBuf>,
        /// Only the workloads whose name contains NAME (case, spaces and
        /// punctuation ignored), e.g. --only witch.
        #[arg(long, value_name = "NAME")]
        only: Option<String>,
    },
}

/// `domsim sweep`'s raw arguments (validated into [`crate::config::SweepConfig`]).
#[derive(Args, Debug, Clone)]
#[command(mut_arg("files", |a| a.help("Strategy files (or builtin:big-money) or folders of them (every *.dom inside): the field, at least 2; every pair plays in each kingdom")))]
pub struct SweepArgs {
    #[command(flatten)]
    pub strategies: StrategyArgs,
    /// Number of random kingdoms (kingdom k drawn from (--seed, k)).
    #[arg(long, value_name = "N", conflicts_with = "kingdoms", value_parser = parse_count, allow_negative_numbers = true)]
    pub random: Option<u64>,
    /// Card sets of the random kingdoms (base, intrigue, dark-ages).
    #[arg(long, value_name = "SETS", default_value = "base")]
    pub sets: String,
    /// A file of kingdoms, one per line (card names separated by commas or
    /// semicolons, as a sweep CSV writes them; # comments).
    #[arg(long, value_name = "FILE")]
    pub kingdoms: Option<PathBuf>,
    /// Games per pair of strategies in each kingdom.
    #[arg(long, short = 'n', default_value_t = 200, value_parser = parse_count, allow_negative_numbers = true)]
    pub games: u64,
    /// Run seed.
    #[arg(long, default_value_t = 1, value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: u64,
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// The tidy CSV: one row per kingdom × strategy.
    #[arg(long, short = 'o', value_name = "FILE.csv")]
    pub out: Option<PathBuf>,
    /// Per strategy and card: mean score with and without the card.
    #[arg(long, value_name = "FILE.csv")]
    pub summary: Option<PathBuf>,
    #[command(flatten)]
    pub shard: ShardArgs,
}

/// `domsim rank`'s raw arguments (validated into [`crate::config::RankConfig`]).
#[derive(Args, Debug, Clone)]
#[command(mut_arg("files", |a| a.help("Strategy files (or builtin:big-money) or folders of them (every *.dom inside): the field, at least 2 (at least -p)")))]
pub struct RankArgs {
    /// Strategy files or folders of them (every *.dom inside).
    #[command(flatten)]
    pub strategies: StrategyArgs,
    #[command(flatten)]
    pub kingdom: KingdomArgs,
    /// Players per table: 2 plays every pair; 3–6 plays tables of that
    /// size (every subset of the field when there are at most --tables,
    /// else --tables balanced, seeded tables) and fits Plackett–Luce.
    #[arg(long, short = 'p', default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=6))]
    pub players: u8,
    /// Rank over the kingdoms of a file (one per line, comma-separated
    /// cards; # comments): a leaderboard per kingdom and one overall.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["random_kingdoms", "kingdom", "preset", "random"])]
    pub kingdoms: Option<PathBuf>,
    /// Rank over K random kingdoms from --sets (kingdom k drawn from (--seed, k)).
    #[arg(long, value_name = "K", conflicts_with_all = ["kingdom", "preset", "random"], value_parser = parse_count, allow_negative_numbers = true)]
    pub random_kingdoms: Option<u64>,
    /// With -p 3 to 6: most tables per kingdom (when the field has more
    /// subsets of --players entrants than this, that many are sampled)
    /// [default: 400]. Not with -p 2, where every pair plays.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub tables: Option<u64>,
    /// Games per table (per pair with 2 players); the maximum with --precision.
    #[arg(long, short = 'n', default_value_t = 1_000, value_parser = parse_count, allow_negative_numbers = true)]
    pub games: u64,
    /// Stop once every rating's 95% interval (with several kingdoms: each
    /// kingdom's and the overall ones) is narrower than ± this
    /// many Elo points (checked every 500 games per table).
    #[arg(long, value_name = "ELO", value_parser = parse_precision_elo)]
    pub precision: Option<f64>,
    /// Run seed (every table plays the same deals).
    #[arg(long, default_value_t = 1, value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: u64,
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// The leaderboard as CSV.
    #[arg(long, short = 'o', value_name = "FILE.csv")]
    pub out: Option<PathBuf>,
    /// The leaderboard as a self-contained HTML page (ratings with their
    /// intervals; the head-to-head heat map for 2 players).
    #[arg(long, value_name = "FILE.html")]
    pub html: Option<PathBuf>,
    /// Also the head-to-head matrix, as `domsim matrix` writes it (2
    /// players, one kingdom).
    #[arg(long, value_name = "FILE.csv")]
    pub matrix: Option<PathBuf>,
    #[command(flatten)]
    pub shard: ShardArgs,
}

/// `domsim optimize`'s raw arguments (validated into [`crate::config::OptimizeConfig`]).
#[derive(Args, Debug, Clone)]
pub struct OptimizeArgs {
    /// The template: a strategy file with parameters in braces, e.g.
    /// `Province if total_money >= {p: 12..20}` (see strategies/templates/README.md).
    /// With --auto, omit it: every shipped template is tried.
    #[arg(value_name = "TEMPLATE")]
    pub template: Option<String>,
    /// Try every template of strategies/templates/ that fits the kingdom
    /// and keep the best on the confirmation games.
    #[arg(long)]
    pub auto: bool,
    /// The opponent field (strategy files, folders or builtin:big-money);
    /// default: strategies/big_money_ultimate.dom.
    #[arg(long = "against", short = 'a', value_name = "STRATEGY")]
    pub against: Vec<String>,
    #[command(flatten)]
    pub kingdom: KingdomArgs,
    /// Run seed (candidates and games are drawn from it).
    #[arg(long, default_value_t = 1, value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: u64,
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// Candidates at the first level (the whole space when it is smaller).
    #[arg(long, default_value_t = 128, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub candidates: u64,
    /// Games per opponent for each first-level candidate (survivors of
    /// each level play three times as many).
    #[arg(long, short = 'n', default_value_t = 400, value_parser = parse_count, allow_negative_numbers = true)]
    pub games: u64,
    /// Most games per opponent a candidate plays in the successive halving
    /// (at least -n); a race of the local refinement plays up to 3 times
    /// this, to confirm a neighbour that beats the incumbent.
    #[arg(long, default_value_t = 32_400, value_parser = parse_count, allow_negative_numbers = true)]
    pub max_games: u64,
    /// Games per opponent of the confirmation on fresh seeds.
    #[arg(long, default_value_t = 50_000, value_parser = parse_count, allow_negative_numbers = true)]
    pub confirm: u64,
    /// Write the best bot here (a plain, commented strategy file); default: print it.
    #[arg(long, value_name = "FILE.dom")]
    pub bot: Option<PathBuf>,
    /// The search log as CSV: one row per candidate evaluation.
    #[arg(long, short = 'o', value_name = "FILE.csv")]
    pub out: Option<PathBuf>,
}

/// `domsim log`'s raw arguments (validated into [`crate::config::LogConfig`]).
#[derive(Args, Debug, Clone)]
pub struct LogArgs {
    #[command(flatten)]
    pub strategies: StrategyArgs,
    #[command(flatten)]
    pub kingdom: KingdomArgs,
    #[command(flatten)]
    pub players: PlayersArg,
    /// Run seed.
    #[arg(long, default_value_t = 1, value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: u64,
    /// Which game of the run to play (same deal and seat order as game
    /// GAME of `domsim sim` with the same seed and strategies).
    #[arg(long, default_value_t = 0, value_parser = parse_game_index, allow_negative_numbers = true)]
    pub game: u64,
    /// For every answer (a card choice: buy, gain, play, trash…; a yes/no;
    /// a "choose one"), say which entry or option of the strategy file
    /// decided it (file:line:col) or which default applied.
    #[arg(long)]
    pub explain: bool,
}

/// `domsim check`'s raw arguments (validated into [`crate::config::CheckConfig`]).
#[derive(Args, Debug, Clone)]
pub struct CheckArgs {
    /// Strategy files.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,
    #[command(flatten)]
    pub kingdom: KingdomArgs,
    /// Players (2–6).
    #[arg(long, short = 'p', default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=6))]
    pub players: u8,
}

/// `domsim compare`'s raw arguments (validated into [`crate::config::CompareConfig`]).
#[derive(Args, Debug, Clone)]
#[command(mut_arg("files", |a| a.help("Strategy files (or builtin:big-money), one per seat: 2 to 6")))]
pub struct CompareArgs {
    /// The strategies of the table, one per seat (2–6).
    #[command(flatten)]
    pub strategies: StrategyArgs,
    #[command(flatten)]
    pub kingdom: KingdomArgs,
    /// Card files of variant A.
    #[arg(long = "a", value_name = "FILE", required = true)]
    pub a: Vec<PathBuf>,
    /// Card files of variant B (the same card names as A).
    #[arg(long = "b", value_name = "FILE", conflicts_with = "b_set")]
    pub b: Vec<PathBuf>,
    /// Variant B as variant A with one number changed: CARD:FIELD=VALUE,
    /// e.g. --b-set "Smithy Data:cost=5" (fields: cost, cards, actions,
    /// buys, coins, value, vp).
    #[arg(long = "b-set", value_name = "CARD:FIELD=VALUE")]
    pub b_set: Option<String>,
    /// Load only these cards of the --a and --b files (comma-separated
    /// names), e.g. one card of a file of several.
    #[arg(long = "cards-only", value_name = "NAMES")]
    pub cards_only: Option<String>,
    /// The card whose use is measured (default: the only data card).
    #[arg(long, value_name = "NAME")]
    pub card: Option<String>,
    /// Games per variant (played and paired in blocks of 65,536 games, so
    /// memory does not grow with the count); the maximum with --precision.
    #[arg(long, short = 'n', default_value_t = 20000, value_parser = parse_count, allow_negative_numbers = true)]
    pub games: u64,
    /// Sequential mode: stop once every bot's 95% interval of the change in
    /// win rate (B − A) is narrower than ± this (e.g. 0.002); -n is then the
    /// maximum. Checked after every block of 65,536 games per variant.
    #[arg(long, value_name = "HALF_WIDTH", allow_negative_numbers = true)]
    pub precision: Option<f64>,
    /// Run seed (both variants play the same games).
    #[arg(long, default_value_t = 1, value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: u64,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub shard: ShardArgs,
    /// The comparison as CSV (`-` for standard output).
    #[arg(long, short = 'o', value_name = "FILE.csv")]
    pub out: Option<PathBuf>,
    /// The comparison as an HTML page.
    #[arg(long, value_name = "FILE.html")]
    pub html: Option<PathBuf>,
}

/// `domsim cards …`.
#[derive(Subcommand, Debug)]
pub enum CardsCmd {
    /// Print the cards of card files (default: the shipped reprints and
    /// examples): cost, types, bonuses and the compiled effect.
    List {
        /// Card files (TOML); default: the built-in cards/reprints.toml and cards/examples.toml.
        files: Vec<PathBuf>,
    },
    /// Play every reprint (a data card with `reprint_of`) against the printed
    /// card on the same seeds, with the same bots, and say per card whether
    /// every game is identical; then `N/N identical`. Exit status 1 if one
    /// differs.
    Verify {
        /// Card files (TOML); default: the built-in cards/reprints.toml.
        files: Vec<PathBuf>,
        /// Games per card.
        #[arg(long, short = 'n', default_value_t = 2000, value_parser = parse_count, allow_negative_numbers = true)]
        games: u64,
        /// Run seed.
        #[arg(long, default_value_t = 1, value_parser = parse_seed, allow_negative_numbers = true)]
        seed: u64,
        #[command(flatten)]
        threads: ThreadsArg,
    },
}

/// The verbs that take the global `--cards` (and `--cards-only`): the
/// others refuse them, and their `--help` does not list them.
const CARDS_VERBS: [&str; 10] = [
    "sim", "matrix", "log", "check", "scenario", "rank", "sweep", "optimize", "kingdom", "report",
];

/// The command line as `run` parses it: [`Cli`], where the verbs that
/// refuse the global `--cards` and `--cards-only` have hidden copies of
/// them instead (clap copies a global option only into a verb without an
/// option of the same id): `--help` does not list them, and `run` still
/// refuses them with the reason. `compare` has its own `--cards-only`.
pub fn command() -> clap::Command {
    use clap::{Arg, ArgAction};
    fn hidden(mut sc: clap::Command) -> clap::Command {
        let has = |sc: &clap::Command, id: &str| sc.get_arguments().any(|a| a.get_id() == id);
        if !has(&sc, "cards") {
            sc = sc.arg(
                Arg::new("cards")
                    .long("cards")
                    .value_name("FILE")
                    .action(ArgAction::Append)
                    .value_parser(clap::value_parser!(PathBuf))
                    .global(true)
                    .hide(true),
            );
        }
        if !has(&sc, "cards_only") {
            sc = sc.arg(
                Arg::new("cards_only")
                    .long("cards-only")
                    .value_name("NAMES")
                    .requires("cards")
                    .global(true)
                    .hide(true),
            );
        }
        sc
    }
    let mut cmd = <Cli as clap::CommandFactory>::command();
    let refusing: Vec<String> = cmd
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .filter(|n| !CARDS_VERBS.contains(&n.as_str()))
        .collect();
    for n in refusing {
        cmd = cmd.mut_subcommand(n, hidden);
    }
    cmd
}

pub fn run() -> Result<ExitCode> {
    let parsed = command()
        .try_get_matches()
        .and_then(|mut m| <Cli as clap::FromArgMatches>::from_arg_matches_mut(&mut m));
    let cli = match parsed {
        Ok(c) => c,
        Err(e) if e.use_stderr() => {
            let _ = e.print();
            return Ok(ExitCode::from(2));
        }
        // --help and --version print on standard output, where a write
        // error is an error like any verb's (a closed pipe is not).
        Err(e) => {
            use std::io::Write;
            return match e.print().and_then(|_| std::io::stdout().flush()) {
                Err(w) if w.kind() != std::io::ErrorKind::BrokenPipe => {
                    Err(anyhow!("cannot write to standard output: {w}"))
                }
                _ => Ok(ExitCode::SUCCESS),
            };
        }
    };
    // `serve` keeps the default signal actions: it writes no file, and
    // Ctrl-C ends it.
    if !matches!(cli.cmd, Command::Serve { .. }) {
        catch_signals();
    }
    // Data cards: bound for the whole command. Only the verbs that play or
    // check Dominion kingdoms use them; the others (which bind cards
    // themselves, or play fixed workloads, or read saved results) refuse a
    // global --cards rather than ignore it.
    let _binding = if cli.cards.is_empty() {
        None
    } else {
        // (CARDS_VERBS, which hides the option from the other verbs' help,
        // names the same verbs.)
        if !matches!(
            cli.cmd,
            Command::Sim(_)
                | Command::Matrix(_)
                | Command::Log(_)
                | Command::Check(_)
                | Command::Scenario { .. }
                | Command::Rank(_)
                | Command::Sweep(_)
                | Command::Optimize(_)
                | Command::Kingdom { .. }
                | Command::Report { .. }
        ) {
            bail!("--cards goes with Dominion verbs (sim, matrix, log, check, scenario, rank, sweep, optimize, kingdom, report); `domsim cards` takes its card files as arguments, `domsim compare` takes --a and --b (and --cards-only); soak, bench, presets, merge, serve and salem do not use data cards");
        }
        let mut cards = crate::cards::data::load_files(&cli.cards)?;
        if let Some(only) = &cli.cards_only {
            cards = crate::cards::data::select(cards, only)?;
        } else if cards.len() > crate::cards::DATA_SLOTS {
            bail!(
                "the card files define {} cards; at most {} can be loaded at once: choose some with --cards-only \"A,B\"",
                cards.len(),
                crate::cards::DATA_SLOTS
            );
        }
        Some(crate::cards::data::bind(&cards)?)
    };
    // The same card options in a command this run prints (the games CSV's
    // replay line): without them the replay would not know the data cards.
    let mut card_flags = String::new();
    for f in &cli.cards {
        card_flags.push_str(&format!(
            " --cards {}",
            crate::output::shell_word(&f.display().to_string())
        ));
    }
    if let Some(only) = &cli.cards_only {
        card_flags.push_str(&format!(
            " --cards-only {}",
            crate::output::shell_word(only)
        ));
    }
    let _ = CARD_FLAGS.set(card_flags);
    match cli.cmd {
        Command::Cards(c) => cmd_cards(&c),
        Command::Compare(a) => cmd_compare(CompareConfig::from_args(&a)?),
        Command::Scenario { file } => scenario(&file),
        Command::Salem(c) => crate::new_salem::cli::run(&c),
        Command::Sim(a) => cmd_sim(SimConfig::from_args(&a)?),
        Command::Merge {
            parts,
            out,
            summary,
            html,
            matrix,
        } => cmd_merge(MergeConfig::from_args(
            &parts,
            &out,
            summary.as_deref(),
            html.as_deref(),
            matrix.as_deref(),
        )?),
        Command::Optimize(a) => cmd_optimize(OptimizeConfig::from_args(&a)?),
        Command::Rank(a) => cmd_rank(RankConfig::from_args(&a)?),
        Command::Sweep(a) => cmd_sweep(SweepConfig::from_args(&a)?),
        Command::Report { input, out, csv } => {
            cmd_report(ReportConfig::from_args(&input, &out, csv.as_deref())?)
        }
        Command::Matrix(a) => cmd_matrix(MatrixConfig::from_args(&a)?),
        Command::Log(a) => cmd_log(LogConfig::from_args(&a)?),
        Command::Check(a) => cmd_check(CheckConfig::from_args(&a)?),
        Command::Presets => cmd_presets(),
        Command::Kingdom {
            kingdom,
            players,
            seed,
        } => cmd_kingdom(&KingdomConfig::from_args(
            &kingdom,
            players as usize,
            seed,
            &[],
        )?),
        Command::Soak {
            games,
            seed,
            threads,
        } => cmd_soak(games, seed, threads.threads),
        Command::Serve {
            port,
            bind,
            open,
            strategies,
        } => crate::serve::run(&crate::serve::ServeConfig {
            port,
            bind,
            open,
            strategies,
        }),
        Command::Bench {
            quick,
            scale,
            threads,
            out,
            only,
        } => {
            let cfg = bench::BenchConfig {
                quick,
                scale,
                threads: threads.map_or_else(bench::default_threads, |t| t.0),
                only,
            };
            install_stop_handler();
            bench::run(&cfg, out.as_deref(), &STOP)
        }
    }
}

// ---------------------------------------------------------------------------
// Kingdoms

/// `--games-csv`: one row per game, in game order.
fn games_csv_bytes(
    meta: &Meta,
    rows: &[sim::GameRow],
    infos: &[EntrantInfo],
    players: usize,
) -> Result<Vec<u8>> {
    let mut bytes = meta.render().into_bytes();
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut head = vec!["game".to_string()];
    for s in 1..=players {
        head.push(format!("seat_{s}"));
    }
    for s in 1..=players {
        head.push(format!("vp_{s}"));
    }
    for s in 1..=players {
        head.push(format!("turns_{s}"));
    }
    head.extend(["winners".to_string(), "capped".to_string()]);
    w.write_record(&head)?;
    for r in rows {
        let mut rec = vec![r.index.to_string()];
        for s in 0..players {
            rec.push(infos[r.order[s] as usize].name.clone());
        }
        for s in 0..players {
            rec.push(r.outcome.vp[s].to_string());
        }
        for s in 0..players {
            rec.push(r.outcome.turns[s].to_string());
        }
        let winners: Vec<String> = (0..players)
            .filter(|&s| r.outcome.won(s))
            .map(|s| (s + 1).to_string())
            .collect();
        rec.push(winners.join(";"));
        rec.push(if r.outcome.capped { "1" } else { "0" }.to_string());
        w.write_record(&rec)?;
    }
    bytes.extend(w.into_inner().map_err(|e| anyhow!("{e}"))?);
    Ok(bytes)
}

fn cmd_kingdom(kc: &KingdomConfig) -> Result<ExitCode> {
    let k = &kc.kingdom;
    let players = k.n();
    outln!("{}", k.describe());
    outln!("# {players} players, kingdom ({})", kc.how);
    for c in k.kingdom_cards() {
        let i = c.info();
        let mut types: Vec<&str> = crate::Types::NAMES
            .iter()
            .filter(|(_, t)| i.types.has(*t))
            .map(|(n, _)| *n)
            .collect();
        if i.types.has(crate::Types::PILE) {
            // The pile pseudo-cards: what the pile's cards are.
            types = if c == crate::Card::Knights {
                vec!["Action", "Attack", "Knight (10 different)"]
            } else {
                vec!["Action", "Ruins"]
            };
        }
        outln!(
            "#   {:<20} ${:<2} {:<22} {}",
            c.name(),
            i.cost,
            types.join("-"),
            i.set.name()
        );
    }
    let extra: Vec<&str> = k
        .supply_piles()
        .iter()
        .filter(|c| !k.kingdom.contains(**c) && !crate::engine::kingdom::BASIC.contains(c))
        .map(|c| c.name())
        .collect();
    if !extra.is_empty() {
        outln!("# other Supply piles: {}", extra.join(", "));
    }
    let aside: Vec<&str> = k
        .in_game
        .iter()
        .filter(|c| {
            !k.supply.contains(*c)
                && !c.is(crate::Types::SHELTER)
                && !c.is(crate::Types::PILE)
                && !c.is(crate::Types::RUINS)
                && !c.is(crate::Types::KNIGHT)
        })
        .map(|c| c.name())
        .collect();
    if !aside.is_empty() {
        outln!("# piles not in the Supply: {}", aside.join(", "));
    }
    let da = k
        .kingdom_cards()
        .iter()
        .filter(|c| c.info().set == crate::cards::Set::DarkAges)
        .count();
    let n = k.kingdom_cards().len().max(1);
    let shelters = match k.shelters {
        Some(true) => "used in every game (--shelters on)".to_string(),
        Some(false) => "never used (--shelters off)".to_string(),
        None if da == 0 => "not used (no Dark Ages pile)".to_string(),
        None if da == n => "used in every game (every pile is Dark Ages)".to_string(),
        None => format!(
            "used in a game when a Kingdom pile drawn at random is Dark Ages: {da} of {n} piles, so in {:.0}% of the games",
            100.0 * da as f64 / n as f64
        ),
    };
    outln!("# Shelters: {shelters}");
    Ok(ExitCode::SUCCESS)
}

fn cmd_presets() -> Result<ExitCode> {
    for p in PRESETS {
        let missing = p.missing();
        let status = if missing.is_empty() {
            "available".to_string()
        } else {
            format!("needs {}", missing.join(", "))
        };
        outln!("{:<26} {}", p.name, p.cards.join(", "));
        outln!("{:<26} ({}; {status})", "", p.source);
    }
    Ok(ExitCode::SUCCESS)
}

// ---------------------------------------------------------------------------
// Strategies

/// A compiler warning as printed ("warning:" added unless already there).
pub(crate) fn warning(w: &str) -> String {
    if w.contains("warning:") {
        w.to_string()
    } else {
        format!("warning: {w}")
    }
}

// ---------------------------------------------------------------------------
// Interruption

pub(crate) static STOP: AtomicBool = AtomicBool::new(false);

/// Whether the running verb checks [`STOP`] (set by [`install_stop_handler`]).
static WATCHED: AtomicBool = AtomicBool::new(false);

/// Catch Ctrl-C, SIGTERM and SIGHUP from the start of every verb that may
/// write a file, before its first temporary file can exist (the output
/// checks of the configuration create and remove one). Until the verb
/// watches [`STOP`], a signal removes every temporary file and exits with
/// status 130 at once; afterwards the first signal only sets the flag (the
/// run finishes the games in progress, starts no new one and reports what
/// was completed) and a second one exits at once, still removing them.
fn catch_signals() {
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
static CARD_FLAGS: std::sync::OnceLock<String> = std::sync::OnceLock::new();

fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

pub(crate) fn base_meta(cmd: &str, seed: u64, kc: &KingdomConfig) -> Meta {
    let mut m = Meta::default();
    m.push("domsim_version", version());
    m.push("command", cmd);
    m.push("seed", seed);
    m.push("kingdom", kc.kingdom.describe());
    m.push("kingdom_source", &kc.how);
    push_data_cards(&mut m);
    m
}

/// The data cards bound for this run (`--cards`), in the metadata: a
/// shard or checkpoint of a run with other card definitions is refused.
pub(crate) fn push_data_cards(m: &mut Meta) {
    let sig = crate::cards::data::bound_signatures();
    if !sig.is_empty() {
        m.push("data_cards", sig.join(" ; "));
    }
}

/// The `sim` CSV, from the run's base metadata (`base_meta` + players): the
/// one function a one-machine run and `domsim merge` both call.
pub(crate) fn sim_csv_bytes(
    base: &Meta,
    completed: u64,
    requested: u64,
    precision: Option<f64>,
    stats: &sim::Stats,
    infos: &[EntrantInfo],
) -> Result<Vec<u8>> {
    let mut meta = base.clone();
    let players = infos.len();
    meta.push("games", completed);
    meta.push("games_requested", requested);
    if let Some(p) = precision {
        let w = stats.widest_half_width();
        meta.push("precision_target", p);
        meta.push("precision_widest_half_width", format!("{w:.6}"));
        meta.push("precision_reached", if w < p { "yes" } else { "no" });
    }
    meta.push(
        "seat_rotation",
        format!(
            "game i uses seat order i mod {} of the lexicographic permutations of the strategies",
            sim::seat_orders(players).len()
        ),
    );
    push_entrants(&mut meta, infos);
    meta.push("rounds_histogram", report::rounds_histogram(stats));
    report::sim_csv(&meta, &report::rows(stats, infos))
}

/// The `matrix` CSV (see [`sim_csv_bytes`]).
fn matrix_csv_bytes(
    base: &Meta,
    games: u64,
    cells: Vec<Vec<Option<sim::EntrantStats>>>,
    infos: &[EntrantInfo],
) -> Result<Vec<u8>> {
    let mut meta = base.clone();
    meta.push("games_per_pair", games);
    meta.push(
        "seat_rotation",
        "each pair: even games the strategy listed first sits first, odd games the other (the pair plays as domsim sim A B with A listed first)",
    );
    push_entrants(&mut meta, infos);
    report::Matrix {
        entrants: infos.to_vec(),
        cells,
    }
    .csv(&meta)
}

/// The sweep CSV metadata from its base (`base_meta` fields + players + games_per_pair).
fn sweep_meta(base: &Meta, infos: &[EntrantInfo]) -> Meta {
    let mut meta = base.clone();
    meta.push(
        "design",
        "in each kingdom every pair of strategies plays games_per_pair 2-player games, seats alternating by game index",
    );
    push_entrants(&mut meta, infos);
    meta
}

fn cmd_sweep(c: SweepConfig) -> Result<ExitCode> {
    let SweepConfig {
        run,
        kingdoms,
        lineup: LineupConfig { lineup, .. },
        summary,
    } = c;
    let (kingdoms, how) = (kingdoms.kingdoms, kingdoms.how);
    install_stop_handler();
    let file = run.out.as_deref().map(AtomicFile::create).transpose()?;
    let summary_file = summary.as_deref().map(AtomicFile::create).transpose()?;
    let partial_file = run.partial_file()?;
    let total = kingdoms.len() as u64;
    let (first, count) = run.shard.map_or((0, total), |s| s.range(total));
    let pool = sim::pool(run.threads)?;
    let infos = lineup.infos();
    let names: Vec<String> = infos.iter().map(|i| i.name.clone()).collect();
    let mut done = Vec::new();
    let mut interrupted = false;
    'kingdoms: for idx in first..first + count {
        let k = &lineup.kingdom_for(&kingdoms[idx as usize]);
        let compiled = lineup.compile(k)?;
        let ignored: Vec<u32> = infos
            .iter()
            .map(|i| {
                compiled
                    .warnings
                    .iter()
                    .filter(|w| w.starts_with(&i.source))
                    .count() as u32
            })
            .collect();
        let cfg = sim::RunConfig {
            games: run.games,
            first: 0,
            seed: crate::config::kingdom_seed(run.seed, idx),
            threads: run.threads,
            progress: false,
            precision: None,
        };
        let (cells, _, stopped) = round_robin(k, &compiled, &names, &cfg, &pool, false);
        if stopped {
            interrupted = true;
            break 'kingdoms;
        }
        done.push(sim::sweep::SweepKingdom {
            index: idx,
            cards: k
                .kingdom_cards()
                .iter()
                .map(|c| c.name().to_string())
                .collect(),
            cells,
            ignored,
        });
        if progress_wanted() {
            eprint!("\r{} of {count} kingdoms", done.len());
        }
    }
    if progress_wanted() {
        crate::errln!();
    }
    if interrupted {
        crate::errln!(
            "interrupted: {} of {count} kingdoms completed; no file written",
            done.len()
        );
        return Ok(ExitCode::from(EXIT_INTERRUPTED));
    }
    let mut base = Meta::default();
    base.push("domsim_version", version());
    base.push("command", "sweep");
    base.push("seed", run.seed);
    push_data_cards(&mut base);
    base.push("kingdoms", &how);
    base.push("players", 2);
    base.push("games_per_pair", run.games);
    outln!(
        "{} kingdoms ({how}), {} strategies, {} games per pair in each kingdom, seed {}\n",
        done.len(),
        names.len(),
        run.games,
        run.seed
    );
    out!("{}", sim::sweep::summary_text(&infos, &done));
    let meta = sweep_meta(&base, &infos);
    let mut outs = Commit::new();
    if let Some(f) = file {
        outs.add(f, sim::sweep::sweep_csv(&meta, &infos, &done)?)?;
    }
    if let Some(f) = summary_file {
        outs.add(f, sim::sweep::summary_csv(&meta, &infos, &done)?)?;
    }
    if let (Some(f), Some(spec)) = (partial_file, run.shard) {
        let key = sim::shard::RunKey {
            verb: "sweep".into(),
            meta: base,
            entrants: infos.clone(),
            games: total,
        };
        let part = sim::shard::Partial::new(key, spec, sim::shard::Counts::Sweep(done));
        outs.add(f, part.to_json()?)?;
    }
    outs.commit()?;
    Ok(ExitCode::SUCCESS)
}

/// Games per table between two `--precision` checks of `rank`.
const RANK_STEP: u64 = 500;

fn cmd_rank(c: RankConfig) -> Result<ExitCode> {
    use sim::shard::{RankTables, TableStats};
    let RankConfig {
        run: rc,
        players: p,
        tables,
        many,
        kingdoms: crate::config::KingdomList { kingdoms, how },
        seeds,
        lineup: LineupConfig { lineup, .. },
        precision,
        html,
        matrix,
    } = c;
    install_stop_handler();
    let file = rc.out.as_deref().map(AtomicFile::create).transpose()?;
    let html_file = html.as_deref().map(AtomicFile::create).transpose()?;
    let matrix_file = matrix.as_deref().map(AtomicFile::create).transpose()?;
    let partial_file = rc.partial_file()?;
    let infos = lineup.infos();
    let n = infos.len();
    let members = crate::rank::design(n, p, rc.seed, tables);
    let kingdoms: Vec<Kingdom> = kingdoms.iter().map(|k| lineup.kingdom_for(k)).collect();
    let compiled = kingdoms
        .iter()
        .map(|k| lineup.compile(k))
        .collect::<Result<Vec<_>>>()?;
    // Strategies written for other kingdoms still play (their entries for
    // absent cards are skipped): say which, once, instead of every warning.
    if !many {
        for i in &infos {
            let skipped = compiled[0]
                .warnings
                .iter()
                .filter(|w| w.starts_with(&i.source))
                .count();
            if skipped > 0 {
                crate::errln!(
                    "warning: {} ({}): {skipped} entr{} name cards not in this kingdom and are skipped",
                    i.name,
                    i.source,
                    if skipped == 1 { "y" } else { "ies" }
                );
            }
        }
    }
    let pool = sim::pool(rc.threads)?;
    let (first, slice) = rc.slice();
    let mut run = RankTables {
        players: p as u8,
        kingdoms: kingdoms.iter().map(|k| k.describe()).collect(),
        tables: (0..kingdoms.len())
            .flat_map(|k| {
                members.iter().map(move |m| TableStats {
                    kingdom: k as u32,
                    members: m.iter().map(|&x| x as u8).collect(),
                    stats: sim::Stats::default(),
                })
            })
            .collect(),
    };
    let total_games = slice * run.tables.len() as u64;
    let bar = sim::runner::progress_bar(progress_wanted(), total_games);
    // Play in steps of RANK_STEP games per table (one step when no
    // --precision): step boundaries are game indices, so the result depends
    // only on the seed.
    let step = if precision.is_some() {
        RANK_STEP
    } else {
        slice.max(1)
    };
    let mut at = first;
    let end = first + slice;
    let mut reached = false;
    while at < end {
        let to = (at + step).min(end);
        for t in &mut run.tables {
            let k = t.kingdom as usize;
            let cfg = sim::RunConfig {
                games: to - at,
                first: at,
                seed: seeds[k],
                threads: rc.threads,
                progress: false,
                precision: None,
            };
            let ids = t.members.clone();
            let c = &compiled[k];
            let r = pool.install(|| {
                sim::run(
                    &kingdoms[k],
                    &cfg,
                    |o: &[u8]| {
                        let mut seats = [0u8; crate::engine::MAX_PLAYERS];
                        for (s, &e) in o.iter().enumerate() {
                            seats[s] = ids[e as usize];
                        }
                        c.bots(&seats[..o.len()])
                    },
                    &STOP,
                )
            });
            bar.inc(r.completed);
            if r.interrupted {
                bar.finish_and_clear();
                crate::errln!("interrupted: no file written");
                return Ok(ExitCode::from(EXIT_INTERRUPTED));
            }
            t.stats = std::mem::take(&mut t.stats).merge(r.stats);
        }
        at = to;
        if let Some(prec) = precision {
            // Every rating written: each kingdom's and the overall ones.
            let scopes = (0..kingdoms.len()).filter(|_| many).map(Some).chain([None]);
            let all_within = scopes
                .into_iter()
                .all(|k| rank_fit_tables(n, &run, k).iter().all(|r| r.ci95 < prec));
            if all_within {
                reached = true;
                break;
            }
        }
    }
    bar.finish_and_clear();
    let played = at - first;
    let mut base = Meta::default();
    base.push("domsim_version", version());
    base.push("command", "rank");
    base.push("seed", rc.seed);
    push_data_cards(&mut base);
    if many {
        base.push("kingdoms", &how);
        base.push("kingdom_count", kingdoms.len());
    } else {
        base.push("kingdom", kingdoms[0].describe());
        base.push("kingdom_source", &how);
    }
    base.push("players", p);
    if p > 2 || many {
        base.push("tables_per_kingdom", members.len());
    }
    // Console.
    if many {
        outln!("{p} players, {} kingdoms ({how})", kingdoms.len());
    } else {
        outln!("{p} players, kingdom ({how}): {}", kingdoms[0].describe());
    }
    let what = match rc.shard {
        Some(s) => format!(
            "shard {}/{} of {} games per table ({slice} played here)",
            s.index, s.count, rc.games
        ),
        None => format!("{played} games per table"),
    };
    let model = if p == 2 {
        "Bradley–Terry ratings (Elo scale, field mean 0, ties count half)"
    } else {
        "Plackett–Luce (Luce choice) ratings (Elo scale, field mean 0, shared wins split)"
    };
    outln!(
        "{what}, {} table(s) of {p}{}, seed {}; {model}\n",
        members.len(),
        if many { " per kingdom" } else { "" },
        rc.seed
    );
    let names: Vec<String> = infos.iter().map(|i| i.name.clone()).collect();
    let mut scopes: Vec<(String, Vec<crate::rank::Rating>)> = Vec::new();
    if many {
        for (k, _) in kingdoms.iter().enumerate() {
            scopes.push((
                format!("kingdom {}", k + 1),
                rank_fit_tables(n, &run, Some(k)),
            ));
        }
    }
    scopes.push(("overall".into(), rank_fit_tables(n, &run, None)));
    for (scope, ratings) in &scopes {
        if many && scope == "overall" {
            outln!("overall, {} kingdoms:", kingdoms.len());
        } else if many {
            continue;
        }
        out!("{}", rank_table(&names, ratings));
    }
    if many {
        outln!("\nper kingdom (rating of each strategy; -o writes them all):");
        let mut header = vec!["kingdom".to_string()];
        header.extend(names.iter().cloned());
        let body: Vec<Vec<String>> = scopes[..kingdoms.len()]
            .iter()
            .map(|(scope, r)| {
                let mut row = vec![scope.clone()];
                row.extend(r.iter().map(|x| format!("{:+.0}", x.rating)));
                row
            })
            .collect();
        out!("{}", report::format_table(&header, &body));
    }
    if let Some(prec) = precision {
        let widest = scopes
            .iter()
            .flat_map(|s| s.1.iter().map(|r| r.ci95))
            .fold(0.0, f64::max);
        outln!();
        precision_outcome(
            &format!("{prec} Elo"),
            &format!("{widest:.1}"),
            &format!("{played} games per table"),
            reached,
        )?;
        base.push("precision_elo", prec);
        base.push("precision_reached", reached);
    }
    let key_games = rc.games;
    let games_label = if precision.is_some() {
        played
    } else {
        rc.games
    };
    let mut outs = Commit::new();
    if let Some(f) = file {
        outs.add(f, rank_csv(&base, games_label, &run, &infos)?)?;
    }
    if let Some(f) = html_file {
        outs.add(f, rank_html(&base, games_label, &run, &infos))?;
    }
    if let Some(f) = matrix_file {
        outs.add(
            f,
            matrix_csv_bytes(&base, games_label, rank_cells(&run, n), &infos)?,
        )?;
    }
    if let (Some(f), Some(spec)) = (partial_file, rc.shard) {
        let key = sim::shard::RunKey {
            verb: "rank".into(),
            meta: base,
            entrants: infos.clone(),
            games: key_games,
        };
        let part = sim::shard::Partial::new(key, spec, sim::shard::Counts::Tables(Box::new(run)));
        outs.add(f, part.to_json()?)?;
    }
    outs.commit()?;
    Ok(ExitCode::SUCCESS)
}

/// Ratings of a rank run's tables, in kingdom `only` or over every kingdom.
/// Two players: Bradley–Terry on the head-to-head sums; more: Luce choice.
fn rank_fit_tables(
    n: usize,
    run: &sim::shard::RankTables,
    only: Option<usize>,
) -> Vec<crate::rank::Rating> {
    let tables = run
        .tables
        .iter()
        .filter(|t| only.is_none_or(|k| t.kingdom as usize == k));
    if run.players == 2 {
        let mut r = crate::rank::Results {
            games: vec![vec![0.0; n]; n],
            score: vec![vec![0.0; n]; n],
        };
        for t in tables {
            let (i, j) = (t.members[0] as usize, t.members[1] as usize);
            let (ei, ej) = (&t.stats.entrants[0], &t.stats.entrants[1]);
            r.games[i][j] += ei.games as f64;
            r.games[j][i] += ej.games as f64;
            r.score[i][j] += ei.score_wins();
            r.score[j][i] += ej.score_wins();
        }
        return crate::rank::fit(&r);
    }
    let tables: Vec<crate::rank::Table> = tables
        .map(|t| crate::rank::Table {
            members: t.members.iter().map(|&m| m as usize).collect(),
            games: t.stats.games as f64,
            score: (0..t.members.len())
                .map(|m| t.stats.entrants[m].score_wins())
                .collect(),
        })
        .collect();
    crate::rank::fit_tables(n, &tables)
}

/// The head-to-head cells of a 2-player, one-kingdom rank run.
fn rank_cells(run: &sim::shard::RankTables, n: usize) -> Cells {
    let mut cells = vec![vec![None; n]; n];
    for t in &run.tables {
        let (i, j) = (t.members[0] as usize, t.members[1] as usize);
        cells[i][j] = Some(t.stats.entrants[0]);
        cells[j][i] = Some(t.stats.entrants[1]);
    }
    cells
}

/// Leaderboard order: best first; equal ratings by entrant order.
fn rank_order(ratings: &[crate::rank::Rating]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..ratings.len()).collect();
    order.sort_by(|&a, &b| {
        ratings[b]
            .rating
            .total_cmp(&ratings[a].rating)
            .then(a.cmp(&b))
    });
    order
}

fn rank_table(names: &[String], ratings: &[crate::rank::Rating]) -> String {
    let header: Vec<String> = [
        "rank",
        "strategy",
        "rating",
        "95% CI",
        "games",
        "score vs field",
    ]
    .iter()
    .map(|x| x.to_string())
    .collect();
    let body: Vec<Vec<String>> = rank_order(ratings)
        .iter()
        .enumerate()
        .map(|(r, &i)| {
            let x = &ratings[i];
            vec![
                (r + 1).to_string(),
                names[i].clone(),
                format!("{:+.0}", x.rating),
                format!("{:+.0} … {:+.0}", x.rating - x.ci95, x.rating + x.ci95),
                format!("{}", x.games),
                format!("{:.1}%", 100.0 * x.score),
            ]
        })
        .collect();
    report::format_table(&header, &body)
}

/// The leaderboard CSV of `domsim rank` (and of `domsim merge` of its
/// shards). One kingdom: one row per strategy. Several: the overall rows,
/// then each kingdom's, with `scope` and `kingdom` columns first.
fn rank_csv(
    base: &Meta,
    games: u64,
    run: &sim::shard::RankTables,
    infos: &[EntrantInfo],
) -> Result<Vec<u8>> {
    let n = infos.len();
    let many = run.kingdoms.len() > 1;
    let mut meta = base.clone();
    meta.push(
        if run.players == 2 {
            "games_per_pair"
        } else {
            "games_per_table"
        },
        games,
    );
    meta.push(
        "model",
        if run.players == 2 {
            "Bradley-Terry, ties count half; rating = 400*log10(strength) centred on the field mean; ci95 from the Fisher information"
        } else {
            "Plackett-Luce first stage (Luce choice: P(i wins a table) = strength_i / sum of the table's strengths), shared wins split; rating = 400*log10(strength) centred on the field mean; ci95 from the Fisher information"
        },
    );
    push_entrants(&mut meta, infos);
    let mut bytes = meta.render().into_bytes();
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut head: Vec<&str> = Vec::new();
    if many {
        head.extend(["scope", "kingdom"]);
    }
    head.extend([
        "rank",
        "strategy",
        "source",
        "source_hash",
        "rating",
        "rating_lo",
        "rating_hi",
        "games",
        "score",
    ]);
    w.write_record(&head)?;
    let mut scopes: Vec<(String, String, Option<usize>)> =
        vec![("overall".into(), String::new(), None)];
    if many {
        for (k, d) in run.kingdoms.iter().enumerate() {
            scopes.push(((k + 1).to_string(), d.clone(), Some(k)));
        }
    }
    for (scope, kingdom, only) in scopes {
        let ratings = rank_fit_tables(n, run, only);
        for (r, &i) in rank_order(&ratings).iter().enumerate() {
            let x = &ratings[i];
            let mut row = Vec::new();
            if many {
                row.extend([scope.clone(), kingdom.clone()]);
            }
            row.extend([
                (r + 1).to_string(),
                infos[i].name.clone(),
                infos[i].source.clone(),
                infos[i].hash.clone(),
                format!("{:.3}", x.rating),
                format!("{:.3}", x.rating - x.ci95),
                format!("{:.3}", x.rating + x.ci95),
                format!("{}", x.games),
                format!("{:.6}", x.score),
            ]);
            w.write_record(&row)?;
        }
    }
    bytes.extend(w.into_inner().map_err(|e| anyhow!("{e}"))?);
    Ok(bytes)
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The leaderboard as one self-contained HTML page: per scope, the ratings
/// with their 95% intervals drawn to one scale, and for 2 players in one
/// kingdom the head-to-head heat map, sorted by rating, with a mean column
/// and a colour key.
fn rank_html(
    base: &Meta,
    games: u64,
    run: &sim::shard::RankTables,
    infos: &[EntrantInfo],
) -> String {
    let n = infos.len();
    let many = run.kingdoms.len() > 1;
    let mut h = String::new();
    h.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>domsim rank</title>\n<style>body{font:14px system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0}td,th{padding:2px 8px;text-align:right;border-bottom:1px solid #eee}td.l,th.l{text-align:left}.meta{color:#666;font-size:12px}.scroll{max-width:100%;overflow-x:auto}svg .title{font-size:14px;font-weight:600}svg .tick{font-size:11px;fill:#444}svg .cellv{font-size:11px;fill:#111}</style></head><body>\n<h1>Leaderboard</h1>\n<div class=\"meta\">");
    for (k, v) in &base.0 {
        h.push_str(&format!("{}: {}<br>", html_escape(k), html_escape(v)));
    }
    h.push_str(&format!(
        "games per {}: {games}</div>\n",
        if run.players == 2 { "pair" } else { "table" }
    ));
    let mut scopes: Vec<(String, Option<usize>)> = vec![("Overall".into(), None)];
    if many {
        for (k, d) in run.kingdoms.iter().enumerate() {
            scopes.push((format!("Kingdom {}: {d}", k + 1), Some(k)));
        }
    }
    for (title, only) in scopes {
        let ratings = rank_fit_tables(n, run, only);
        let order = rank_order(&ratings);
        let lo = ratings
            .iter()
            .map(|r| r.rating - r.ci95)
            .fold(f64::MAX, f64::min);
        let hi = ratings
            .iter()
            .map(|r| r.rating + r.ci95)
            .fold(f64::MIN, f64::max);
        let span = (hi - lo).max(1.0);
        let (w, pad) = (320.0, 6.0);
        let x = |v: f64| pad + (v - lo) / span * (w - 2.0 * pad);
        h.push_str(&format!("<h2>{}</h2>\n<table><tr><th>rank</th><th class=\"l\">strategy</th><th>rating</th><th>95% interval</th><th class=\"l\">rating and interval ({lo:+.0} … {hi:+.0})</th><th>games</th><th>score vs field</th></tr>\n", html_escape(&title)));
        for (r, &i) in order.iter().enumerate() {
            let q = &ratings[i];
            let svg = format!(
                "<svg width=\"{w}\" height=\"14\" role=\"img\" aria-label=\"{:+.0} ± {:.0}\"><line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"7\" y2=\"7\" stroke=\"#4477aa\" stroke-width=\"2\"/><circle cx=\"{:.1}\" cy=\"7\" r=\"3.5\" fill=\"#223366\"/><line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"0\" y2=\"14\" stroke=\"#bbb\"/></svg>",
                q.rating,
                q.ci95,
                x(q.rating - q.ci95),
                x(q.rating + q.ci95),
                x(q.rating),
                x(0.0),
                x(0.0)
            );
            h.push_str(&format!(
                "<tr><td>{}</td><td class=\"l\">{}</td><td>{:+.0}</td><td>±{:.0}</td><td class=\"l\">{svg}</td><td>{}</td><td>{:.1}%</td></tr>\n",
                r + 1,
                html_escape(&infos[i].name),
                q.rating,
                q.ci95,
                q.games,
                100.0 * q.score
            ));
        }
        h.push_str("</table>\n");
        if run.players == 2 && !many {
            let cells: Vec<Vec<crate::stats::html::Cell>> = rank_cells(run, n)
                .iter()
                .map(|row| {
                    row.iter()
                        .map(|c| c.map(|c| (c.score_wins(), c.games)))
                        .collect()
                })
                .collect();
            let names: Vec<String> = infos.iter().map(|i| i.name.clone()).collect();
            h.push_str("<h2>Head to head</h2>\n");
            h.push_str(&crate::stats::html::heatmap(
                "Head to head: row's score against the column",
                &cells,
                &names,
            ));
        }
    }
    h.push_str("</body></html>\n");
    h
}

type Cells = Vec<Vec<Option<sim::EntrantStats>>>;
fn cmd_optimize(c: OptimizeConfig) -> Result<ExitCode> {
    use crate::optimize::{self, Objective, TemplateObjective};
    let OptimizeConfig {
        run,
        auto,
        templates: parsed,
        field: LineupConfig { lineup: field, .. },
        kingdom: kc,
        budget,
        bot,
    } = c;
    let k = &kc.kingdom;
    install_stop_handler();
    let bot_file = bot.as_deref().map(AtomicFile::create).transpose()?;
    let csv_file = run.out.as_deref().map(AtomicFile::create).transpose()?;
    let pool = sim::pool(run.threads)?;
    let started = std::time::Instant::now();
    outln!("2 players, kingdom ({}): {}", kc.how, k.describe());
    outln!(
        "field: {}",
        field
            .entrants
            .iter()
            .map(|e| e.0.name.clone())
            .collect::<Vec<_>>()
            .join(", ")
    );
    // (template index, objective, found)
    let mut results = Vec::new();
    for t in &parsed {
        let obj = match TemplateObjective::new(t, k, &field.entrants, &STOP) {
            Ok(o) => o,
            Err(e) if auto => {
                crate::errln!("skipped {}: {}", t.file, e.msg);
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        let space: u128 = obj.dims().iter().map(|&d| d as u128).product();
        outln!(
            "\n{}: {} parameter(s), {space} point(s)",
            t.file,
            t.params.len()
        );
        let bar = sim::runner::progress_bar(progress_wanted(), 0);
        let found = match pool.install(|| optimize::search(&obj, run.seed, budget, &STOP, &bar)) {
            Ok(f) => f,
            Err(_) if STOP.load(std::sync::atomic::Ordering::Relaxed) => {
                crate::errln!("interrupted: no file written");
                return Ok(ExitCode::from(EXIT_INTERRUPTED));
            }
            Err(e) if auto => {
                crate::errln!("skipped {}: {e}", t.file);
                continue;
            }
            Err(e) => return Err(e),
        };
        let best = &found.candidates[found.best];
        let c = found.confirm_total();
        let (lo, hi) = sim::wilson(c.score_wins(), c.games);
        outln!(
            "  best: {}  search score {:.1}% over {} games per opponent",
            t.describe(&obj.values(&best.point)),
            100.0 * best.score(),
            best.games()
        );
        outln!(
            "  confirmation (fresh seeds, {} games per opponent): score {:.1}% [{:.1}%, {:.1}%]",
            budget.confirm,
            100.0 * c.score_wins() / c.games.max(1) as f64,
            100.0 * lo,
            100.0 * hi
        );
        for (opp, e) in field.entrants.iter().zip(&found.confirm) {
            let (lo, hi) = sim::wilson(e.score_wins(), e.games);
            outln!(
                "    vs {}: {:.1}% [{:.1}%, {:.1}%]",
                opp.0.name,
                100.0 * e.score_wins() / e.games.max(1) as f64,
                100.0 * lo,
                100.0 * hi
            );
        }
        results.push((obj, found));
    }
    let Some((obj, found)) = results.iter().max_by(|x, y| {
        let s = |f: &crate::optimize::Found| {
            let c = f.confirm_total();
            c.score_wins() / c.games.max(1) as f64
        };
        // Ties go to the earlier template.
        s(&x.1)
            .total_cmp(&s(&y.1))
            .then(std::cmp::Ordering::Greater)
    }) else {
        bail!("no template fits this kingdom ({})", k.describe());
    };
    let played: u64 = results.iter().map(|r| r.1.games_played).sum();
    let secs = started.elapsed().as_secs_f64();
    let t = obj.template;
    let values = obj.values(&found.candidates[found.best].point);
    let c = found.confirm_total();
    let (lo, hi) = sim::wilson(c.score_wins(), c.games);
    let header = vec![
        format!("Written by domsim {} optimize from {}", version(), t.file),
        format!("kingdom ({}): {}", kc.how, k.describe()),
        format!(
            "against: {}",
            field
                .entrants
                .iter()
                .map(|e| e.0.source.clone())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        format!("parameters: {}", t.describe(&values)),
        format!(
            "search: seed {}, {} candidates, {} games in all",
            run.seed,
            found.candidates.len(),
            played
        ),
        format!(
            "confirmation on fresh seeds (seed {}): score {:.2}% [{:.2}%, {:.2}%] over {} games against the field",
            found.confirm_seed,
            100.0 * c.score_wins() / c.games.max(1) as f64,
            100.0 * lo,
            100.0 * hi,
            c.games
        ),
    ];
    // Its `extends:` must resolve from the folder the path names (strategy
    // files resolve it from there) and from the folder the file lands in
    // (a link's target folder: the output follows links, and the file may
    // be read there): relative when one path serves both, else absolute.
    let folder = |p: &std::path::Path| -> std::path::PathBuf {
        match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => std::path::PathBuf::from("."),
        }
    };
    let out_dirs: Vec<std::path::PathBuf> = bot
        .as_deref()
        .map(|b| vec![folder(b), folder(&crate::output::written_path(b))])
        .unwrap_or_default();
    let out_dirs: Vec<&std::path::Path> = out_dirs.iter().map(|p| p.as_path()).collect();
    let text = optimize::best_bot_text(t, &values, &header, &out_dirs);
    outln!(
        "\nbest: {} ({}) — {played} games in {secs:.1} s",
        t.file,
        t.describe(&values)
    );
    let mut meta = base_meta("optimize", run.seed, &kc);
    meta.push("template", &t.file);
    meta.push("candidates", budget.candidates);
    meta.push("games", budget.games);
    meta.push("max_games", budget.max_games);
    meta.push("confirm", budget.confirm);
    push_entrants(&mut meta, &field.infos());
    let mut outs = Commit::new();
    match bot_file {
        Some(f) => outs.add(f, &text)?,
        None => out!("\n{text}"),
    }
    if let Some(f) = csv_file {
        outs.add(f, optimize::search_csv(&meta, t, obj, found)?)?;
    }
    outs.commit()?;
    Ok(ExitCode::SUCCESS)
}

/// A 2-player round robin of every pair of a compiled lineup in one kingdom
/// (seats alternate by game index): `cells[i][j]` is `i` against `j`.
/// Returns the cells, the games completed and whether a signal stopped it
/// (unfinished pairs are left `None`). `matrix`, `sweep` and `rank` share it.
fn round_robin(
    k: &Kingdom,
    compiled: &CompiledLineup,
    names: &[String],
    cfg: &sim::RunConfig,
    pool: &rayon::ThreadPool,
    announce_pairs: bool,
) -> (Vec<Vec<Option<sim::EntrantStats>>>, u64, bool) {
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
                sim::run(
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

fn cmd_merge(c: MergeConfig) -> Result<ExitCode> {
    let MergeConfig {
        parts,
        key,
        counts,
        out,
        summary,
        html,
        matrix,
    } = c;
    let file = AtomicFile::create(&out)?;
    let summary_file = summary.as_deref().map(AtomicFile::create).transpose()?;
    let html_file = html.as_deref().map(AtomicFile::create).transpose()?;
    let matrix_file = matrix.as_deref().map(AtomicFile::create).transpose()?;
    let mut summary_bytes = None;
    let mut html_bytes = None;
    let mut matrix_bytes = None;
    let bytes = match counts {
        sim::shard::Counts::Sim(stats) => {
            let b = sim_csv_bytes(
                &key.meta,
                stats.games,
                key.games,
                None,
                &stats,
                &key.entrants,
            )?;
            outln!(
                "merged {} shard(s): {} games of `domsim sim`",
                parts,
                stats.games
            );
            b
        }
        sim::shard::Counts::Sweep(ks) => {
            outln!(
                "merged {} shard(s): {} kingdoms of `domsim sweep`",
                parts,
                ks.len()
            );
            out!("{}", sim::sweep::summary_text(&key.entrants, &ks));
            let meta = sweep_meta(&key.meta, &key.entrants);
            if summary_file.is_some() {
                summary_bytes = Some(sim::sweep::summary_csv(&meta, &key.entrants, &ks)?);
            }
            sim::sweep::sweep_csv(&meta, &key.entrants, &ks)?
        }
        sim::shard::Counts::Tables(run) => {
            outln!(
                "merged {} shard(s): {} games per table of `domsim rank`",
                parts,
                key.games
            );
            if html_file.is_some() {
                html_bytes = Some(rank_html(&key.meta, key.games, &run, &key.entrants));
            }
            if matrix_file.is_some() {
                let cells = rank_cells(&run, key.entrants.len());
                matrix_bytes = Some(matrix_csv_bytes(
                    &key.meta,
                    key.games,
                    cells,
                    &key.entrants,
                )?);
            }
            rank_csv(&key.meta, key.games, &run, &key.entrants)?
        }
        sim::shard::Counts::Compare(pairing) => {
            outln!(
                "merged {} shard(s): {} games per variant of `domsim compare`\n",
                parts,
                pairing.games()
            );
            let mut outs = Commit::new();
            compare_outputs(
                &key.meta,
                &pairing,
                key.games,
                None,
                Some(file),
                html_file,
                &mut outs,
            )?;
            outs.commit()?;
            return Ok(ExitCode::SUCCESS);
        }
        sim::shard::Counts::Matrix(cells) => {
            outln!(
                "merged {} shard(s): {} games per pair of `domsim matrix`",
                parts,
                key.games
            );
            if html_file.is_some() {
                let meta = |k: &str| {
                    key.meta
                        .0
                        .iter()
                        .find(|(n, _)| n == k)
                        .map_or("", |(_, v)| v.as_str())
                };
                html_bytes = Some(matrix_page(
                    key.games,
                    meta("seed"),
                    meta("kingdom_source"),
                    meta("kingdom"),
                    &cells,
                    &key.entrants,
                ));
            }
            matrix_csv_bytes(&key.meta, key.games, cells, &key.entrants)?
        }
    };
    let mut outs = Commit::new();
    outs.add(file, bytes)?;
    if let (Some(f), Some(b)) = (summary_file, summary_bytes) {
        outs.add(f, b)?;
    }
    if let (Some(f), Some(b)) = (html_file, html_bytes) {
        outs.add(f, b)?;
    }
    if let (Some(f), Some(b)) = (matrix_file, matrix_bytes) {
        outs.add(f, b)?;
    }
    outs.commit()?;
    Ok(ExitCode::SUCCESS)
}

fn push_entrants(m: &mut Meta, infos: &[EntrantInfo]) {
    for (i, e) in infos.iter().enumerate() {
        let hash = if e.hash.is_empty() { "-" } else { &e.hash };
        m.push(
            &format!("strategy_{}", i + 1),
            format!("{} | {} | {hash}", e.name, e.source),
        );
    }
}

// ---------------------------------------------------------------------------
// Verbs

/// What `sim` and `matrix` open once their configuration is validated:
/// the outputs' temporary files (created before any game, so a bad path
/// fails first), the worker pool, the kingdom to run and the strategies
/// compiled for it (warnings printed), and the runner's configuration for
/// the games this process plays (a shard's slice of the run).
struct PreparedRun {
    kingdom: Kingdom,
    compiled: CompiledLineup,
    cfg: sim::RunConfig,
    pool: rayon::ThreadPool,
    file: Option<AtomicFile>,
    partial_file: Option<AtomicFile>,
}

fn prepare_run(
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

fn cmd_sim(c: SimConfig) -> Result<ExitCode> {
    let PreparedRun {
        kingdom: k,
        compiled,
        cfg,
        pool,
        file,
        partial_file,
    } = prepare_run(&c.run, &c.lineup, &c.kingdom, c.playtest.precision)?;
    let SimConfig {
        run,
        players,
        kingdom: kc,
        lineup: LineupConfig { lineup, .. },
        checkpoint,
        playtest: pt,
    } = c;
    let (seed, games) = (run.seed, run.games);
    let checkpoint = checkpoint.as_ref().map(|c| (c.path.as_path(), c.every));
    let slice = cfg.games;
    let infos = lineup.infos();
    // Playtest statistics are recorded in the same pass as the table: one
    // run, one set of games (same deals, same seats).
    let names: Vec<String> = infos.iter().map(|i| i.name.clone()).collect();
    let recording = crate::stats::Recording {
        kingdom: &k,
        names: &names,
    };
    let mut playtest = None;
    let games_file = pt
        .games_csv
        .as_deref()
        .map(AtomicFile::create)
        .transpose()?;
    let playtest_files = PlaytestFiles::create(
        pt.report.as_deref(),
        pt.stats.as_deref(),
        pt.save_stats.as_deref(),
    )?;
    let mut game_rows: Vec<sim::GameRow> = Vec::new();
    let result = match checkpoint {
        None if pt.wanted() && games_file.is_some() => {
            let (r, (acc, rw)) = pool.install(|| {
                sim::run_hooked(
                    &k,
                    &cfg,
                    |o: &[u8]| compiled.bots(o),
                    &STOP,
                    &sim::WithRows(&recording),
                )
            });
            playtest = acc.map(|s| s.stats);
            game_rows = rw;
            r
        }
        None if pt.wanted() => {
            let (r, acc) = pool.install(|| {
                sim::run_hooked(&k, &cfg, |o: &[u8]| compiled.bots(o), &STOP, &recording)
            });
            playtest = acc.map(|s| s.stats);
            r
        }
        None if games_file.is_some() => {
            let (r, ((), rw)) = pool.install(|| {
                sim::run_hooked(
                    &k,
                    &cfg,
                    |o: &[u8]| compiled.bots(o),
                    &STOP,
                    &sim::WithRows(&sim::Plain),
                )
            });
            game_rows = rw;
            r
        }
        None => pool.install(|| sim::run(&k, &cfg, |o: &[u8]| compiled.bots(o), &STOP)),
        Some((path, every)) => {
            let mut key = checkpoint_key(seed, &k, &infos);
            if let Some(spec) = run.shard {
                // A shard's checkpoint resumes only that shard of that run.
                key.push_str(&format!(
                    " shard {}/{} of {games} games",
                    spec.index, spec.count
                ));
            }
            let r = pool.install(|| {
                sim::checkpoint::run(
                    &k,
                    &cfg,
                    |o: &[u8]| compiled.bots(o),
                    &STOP,
                    path,
                    &key,
                    every,
                )
            })?;
            checkpoint_note(path, &r, slice);
            r.result
        }
    };
    let rows = report::rows(&result.stats, &infos);
    outln!(
        "{} players, kingdom ({}): {}",
        players,
        kc.how,
        k.describe()
    );
    outln!(
        "{} games, seed {seed}; seat orders rotate over all {} permutations\n",
        result.completed,
        sim::seat_orders(players).len()
    );
    out!("{}", report::sim_table(&rows));
    outln!(
        "\nscore = win rate with shared wins split (a k-way tie counts 1/k); 95% Wilson interval."
    );
    out!("{}", report::length_and_seats(&result.stats, players));
    if result.stats.tied_games > 0 || result.stats.capped > 0 {
        outln!(
            "{} tied game(s), {} game(s) stopped by the turn cap.",
            result.stats.tied_games,
            result.stats.capped
        );
    }
    if let Some((i, f)) = &result.stats.first_fault {
        crate::errln!(
            "warning: {} game(s) had an illegal answer from a bot (replaced by the default); first in game {i}: {f}",
            result.stats.faults
        );
    }
    if result.interrupted {
        crate::errln!(
            "interrupted: {} of {slice} games completed; the table above covers them; no file written",
            result.completed
        );
        return Ok(ExitCode::from(EXIT_INTERRUPTED));
    }
    if let Some(p) = pt.precision {
        let w = result.stats.widest_half_width();
        precision_outcome(
            &p.to_string(),
            &format!("{w:.4}"),
            &format!("{} games", result.completed),
            w < p,
        )?;
    }
    let mut base = base_meta("sim", seed, &kc);
    base.push("players", players);
    let mut outs = Commit::new();
    if let Some(file) = file {
        let bytes = sim_csv_bytes(
            &base,
            result.completed,
            games,
            pt.precision,
            &result.stats,
            &infos,
        )?;
        outs.add(file, bytes)?;
    }
    if let Some(f) = games_file {
        game_rows.sort_unstable_by_key(|r| r.index);
        let mut meta = base.clone();
        push_entrants(&mut meta, &infos);
        let strat_args: Vec<String> = infos
            .iter()
            .map(|i| crate::output::shell_word(&i.source))
            .collect();
        meta.push(
            "replay",
            format!(
                "domsim log {} -p {players} --seed {seed} {}{} --game N",
                strat_args.join(" "),
                kc.flags(),
                CARD_FLAGS.get().map_or("", String::as_str)
            ),
        );
        outs.add(f, games_csv_bytes(&meta, &game_rows, &infos, players)?)?;
    }
    if let (Some(file), Some(spec)) = (partial_file, run.shard) {
        let key = sim::shard::RunKey {
            verb: "sim".into(),
            meta: base,
            entrants: infos.clone(),
            games,
        };
        let part = sim::shard::Partial::new(
            key,
            spec,
            sim::shard::Counts::Sim(Box::new(result.stats.clone())),
        );
        outs.add(file, part.to_json()?)?;
    }
    if let Some(st) = &mut playtest {
        st.seed = Some(seed);
        st.sources = infos
            .iter()
            .map(|i| format!("{} | {} | {}", i.name, i.source, i.hash))
            .collect();
        st.kingdom_source = Some(kc.how.clone());
        let data = crate::cards::data::bound_signatures();
        st.data_cards = (!data.is_empty()).then(|| data.join(" ; "));
        playtest_files.stage(
            &mut outs,
            st,
            &format!(
                "domsim sim: {} games, seed {seed}, kingdom ({}): {}",
                result.completed,
                kc.how,
                k.describe()
            ),
        )?;
    }
    outs.commit()?;
    Ok(ExitCode::SUCCESS)
}

/// The playtest outputs of `sim` and `report`, created before any work.
struct PlaytestFiles {
    html: Option<AtomicFile>,
    csv: Option<AtomicFile>,
    json: Option<AtomicFile>,
}

impl PlaytestFiles {
    fn create(
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
    fn stage(self, outs: &mut Commit, st: &crate::stats::PlaytestStats, note: &str) -> Result<()> {
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

fn cmd_report(c: ReportConfig) -> Result<ExitCode> {
    let ReportConfig { inputs, out, csv } = c;
    let mut outs = Commit::new();
    if let [(pa, a), (pb, b)] = &inputs[..] {
        let file = AtomicFile::create(&out)?;
        let page = crate::stats::html::render_comparison(
            (&pa.display().to_string(), a),
            (&pb.display().to_string(), b),
        );
        outs.add(file, page)?;
        outs.commit()?;
        return Ok(ExitCode::SUCCESS);
    }
    let files = PlaytestFiles::create(Some(&out), csv.as_deref(), None)?;
    let (input, st) = &inputs[0];
    let seed = st
        .seed
        .map_or_else(|| "seed not recorded".to_string(), |s| format!("seed {s}"));
    files.stage(
        &mut outs,
        st,
        &format!(
            "domsim report {}: {} games, {seed}, {}",
            input.display(),
            st.games,
            // As the run's own report says it, when the file records how
            // the kingdom was chosen (Shelters forced, data cards).
            if st.kingdom_source.is_some() {
                format!("kingdom {}", crate::stats::html::run_kingdom(st))
            } else {
                format!("kingdom: {}", st.kingdom.join("; "))
            }
        ),
    )?;
    outs.commit()?;
    Ok(ExitCode::SUCCESS)
}

fn cmd_matrix(c: MatrixConfig) -> Result<ExitCode> {
    let PreparedRun {
        kingdom: k,
        compiled,
        cfg,
        pool,
        file,
        partial_file,
    } = prepare_run(&c.run, &c.lineup, &c.kingdom, None)?;
    let MatrixConfig {
        run,
        kingdom: kc,
        lineup: LineupConfig { lineup: all, .. },
        report,
    } = c;
    let html_file = report.as_deref().map(AtomicFile::create).transpose()?;
    let (seed, games) = (run.seed, run.games);
    let names: Vec<String> = all.entrants.iter().map(|e| e.0.name.clone()).collect();
    let (cells, completed, interrupted) =
        round_robin(&k, &compiled, &names, &cfg, &pool, progress_wanted());
    let m = report::Matrix {
        entrants: all.infos(),
        cells,
    };
    outln!("2 players, kingdom ({}): {}", kc.how, k.describe());
    outln!(
        "{games} games per pair, seed {seed}; cell = row's score against column (ties shared)\n"
    );
    out!("{}", m.table());
    if interrupted {
        crate::errln!(
            "interrupted: {completed} games completed; unfinished pairs are shown as —; no file written"
        );
        return Ok(ExitCode::from(EXIT_INTERRUPTED));
    }
    let mut base = base_meta("matrix", seed, &kc);
    base.push("players", 2);
    let mut outs = Commit::new();
    if let Some(file) = file {
        outs.add(
            file,
            matrix_csv_bytes(&base, games, m.cells.clone(), &m.entrants)?,
        )?;
    }
    if let (Some(file), Some(spec)) = (partial_file, run.shard) {
        let key = sim::shard::RunKey {
            verb: "matrix".into(),
            meta: base,
            entrants: m.entrants.clone(),
            games,
        };
        let part = sim::shard::Partial::new(key, spec, sim::shard::Counts::Matrix(m.cells.clone()));
        outs.add(file, part.to_json()?)?;
    }
    if let Some(h) = html_file {
        let page = matrix_page(
            games,
            &seed.to_string(),
            &kc.how,
            &k.describe(),
            &m.cells,
            &m.entrants,
        );
        outs.add(h, page)?;
    }
    outs.commit()?;
    Ok(ExitCode::SUCCESS)
}

/// `matrix --report`'s page, the heat map of `cells`: of a one-machine run
/// or of its merged parts (`domsim merge --html`), the same bytes.
fn matrix_page(
    games: u64,
    seed: &str,
    how: &str,
    kingdom: &str,
    cells: &Cells,
    entrants: &[EntrantInfo],
) -> String {
    let names: Vec<String> = entrants.iter().map(|e| e.name.clone()).collect();
    let values: Vec<Vec<crate::stats::html::Cell>> = cells
        .iter()
        .enumerate()
        .map(|(i, row)| {
            row.iter()
                .enumerate()
                .map(|(j, c)| match c {
                    Some(s) if i != j => Some((s.score_wins(), s.games)),
                    _ => None,
                })
                .collect()
        })
        .collect();
    let opts = crate::stats::html::ReportOptions {
        title: Some("domsim matchup matrix".into()),
        note: Some(format!(
            "{games} games per pair, seed {seed}, 2 players, kingdom ({how}): {kingdom}"
        )),
        matrix: Some((&values, &names)),
    };
    crate::stats::html::render_matrix_page(&opts).unwrap_or_default()
}

fn cmd_log(c: LogConfig) -> Result<ExitCode> {
    let (k, compiled) = c.lineup.compile_for(&c.kingdom.kingdom)?;
    out!(
        "{}",
        game_log(
            &c.lineup.lineup,
            &compiled,
            &c.kingdom,
            &k,
            c.seed,
            c.game,
            c.explain
        )
    );
    Ok(ExitCode::SUCCESS)
}

/// Game `game` of the run seeded `seed` (its deal and seat order), turn by
/// turn, with a header naming the kingdom and who sits where: `domsim log`
/// and the page of `domsim serve`. `k` is `kc`'s kingdom for the lineup.
pub(crate) fn game_log(
    lineup: &Lineup,
    compiled: &CompiledLineup,
    kc: &KingdomConfig,
    k: &Kingdom,
    seed: u64,
    game: u64,
    explain: bool,
) -> String {
    use std::fmt::Write as _;
    let players = k.n();
    let orders = sim::seat_orders(players);
    let order: Vec<u8> = orders[(game % orders.len() as u64) as usize][..players].to_vec();
    let infos = lineup.infos();
    let names: Vec<String> = (1..=players).map(|s| format!("P{s}")).collect();
    let mut g = Game::new(k, seed, game);
    let mut b = LoggingBots::new(compiled.bots(&order), names.clone());
    b.explain = explain;
    g.play_game(&mut b);
    let text = b.finish(&g);
    let mut o = String::new();
    let _ = writeln!(
        o,
        "Game {game} of seed {seed}, {players} players, kingdom ({}): {}",
        kc.how,
        k.describe()
    );
    for (s, &e) in order.iter().enumerate() {
        let info = &infos[e as usize];
        let _ = writeln!(
            o,
            "  P{} (seat {}): {} [{}]",
            s + 1,
            s + 1,
            info.name,
            info.source
        );
    }
    if g.shelters {
        o.push_str("  Shelters: every player starts with Necropolis, Overgrown Estate and Hovel instead of 3 Estates\n");
    } else if !k.kingdom.and(crate::CardSet::DARK_AGES).is_empty() {
        o.push_str("  Shelters: not in this game (every player starts with 3 Estates)\n");
    }
    o.push_str(&text);
    o
}

fn cmd_check(c: CheckConfig) -> Result<ExitCode> {
    let CheckConfig { files, kingdom: kc } = c;
    let mut failed = 0;
    for f in &files {
        let checked = Lineup::load(std::slice::from_ref(f))
            .and_then(|l| l.compile(&l.kingdom_for(&kc.kingdom)).map(|c| (l, c)));
        match checked {
            Ok((l, c)) => {
                let mut warnings: Vec<String> = c.warnings.iter().map(|w| warning(w)).collect();
                if let lineup::Loaded::File(st) = &l.entrants[0].1 {
                    warnings.extend(crate::strategy::lint::lint(st, &kc.kingdom));
                    st.in_line_order(&mut warnings);
                }
                for w in &warnings {
                    outln!("{w}");
                }
                outln!(
                    "{f}: ok ({}{})",
                    l.entrants[0].0.name,
                    if warnings.is_empty() {
                        String::new()
                    } else {
                        format!(", {} warning(s)", warnings.len())
                    }
                );
            }
            Err(e) => {
                crate::errln!("error: {e:#}");
                failed += 1;
            }
        }
    }
    outln!(
        "checked {} file(s) against kingdom ({}): {}",
        files.len(),
        kc.how,
        kc.kingdom.describe()
    );
    if failed > 0 {
        bail!("{failed} of {} strategy file(s) have errors", files.len());
    }
    Ok(ExitCode::SUCCESS)
}

fn scenario(file: &std::path::Path) -> Result<ExitCode> {
    let text = crate::output::read_input(file, "scenario file")?;
    let sc = Scenario::parse(&text).map_err(|e| anyhow!("{}:{e}", file.display()))?;
    if sc.expectations() == 0 {
        bail!(
            "{}: the scenario states no expectation: add at least one 'expect …' line (see README, Scenario notation)",
            file.display()
        );
    }
    let report = sc.run().map_err(|e| anyhow!("{}:{e}", file.display()))?;
    let json = state_json(&report.game, &report.transcript);
    outln!("{}", serde_json::to_string_pretty(&json)?);
    let mut ok = true;
    for f in &report.failures {
        crate::errln!("{}: FAILED {f}", file.display());
        ok = false;
    }
    for m in &report.mismatches {
        crate::errln!("{}: script: {m}", file.display());
        ok = false;
    }
    if report.unused_answers > 0 {
        crate::errln!(
            "{}: {} scripted answer(s) were never asked for",
            file.display(),
            report.unused_answers
        );
        ok = false;
    }
    crate::errln!(
        "{}: {} expectation(s) checked, {}",
        file.display(),
        report.checked,
        if ok { "all passed" } else { "some FAILED" }
    );
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn cmd_soak(games: u64, seed: u64, threads: Option<u16>) -> Result<ExitCode> {
    let pool = sim::pool(threads.unwrap_or(0) as usize)?;
    install_stop_handler();
    let cfg = crate::soak::SoakConfig::new(games, seed);
    let r = pool.install(|| crate::soak::run(&cfg, &STOP));
    out!("{}", r.text(&cfg));
    if !r.ok() {
        return Ok(ExitCode::from(1));
    }
    if r.interrupted {
        return Ok(ExitCode::from(EXIT_INTERRUPTED));
    }
    Ok(ExitCode::SUCCESS)
}

/// What identifies a run for `--checkpoint` (everything but the game count):
/// what a shard's part is keyed by, the version and the Shelters setting
/// included (a checkpoint of a `--shelters on` run used to resume a
/// `--shelters off` run with the other run's counts).
fn checkpoint_key(seed: u64, k: &Kingdom, infos: &[EntrantInfo]) -> String {
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

fn cmd_cards(c: &CardsCmd) -> Result<ExitCode> {
    use crate::cards::data;
    let load = |files: &[PathBuf], defaults: &[(&str, &str)]| -> Result<Vec<data::DataCard>> {
        if files.is_empty() {
            let mut v = Vec::new();
            for d in defaults {
                v.extend(crate::playtest::builtin(*d)?);
            }
            Ok(v)
        } else {
            data::load_files(files)
        }
    };
    match c {
        CardsCmd::List { files } => {
            let cards = load(
                files,
                &[crate::playtest::REPRINTS, crate::playtest::EXAMPLES],
            )?;
            for dc in &cards {
                outln!("{}", data::describe(dc));
            }
            outln!(
                "{} card{}",
                cards.len(),
                if cards.len() == 1 { "" } else { "s" }
            );
            Ok(ExitCode::SUCCESS)
        }
        CardsCmd::Verify {
            files,
            games,
            seed,
            threads,
        } => {
            let cards = load(files, &[crate::playtest::REPRINTS])?;
            let threads = threads.threads.map_or(0, |t| t as usize);
            let rows = crate::playtest::verify(&cards, *games, *seed, threads)?;
            if rows.is_empty() {
                bail!("no reprint in the card files (a reprint names its printed card with `reprint_of`)");
            }
            let mut same = 0;
            for r in &rows {
                match &r.first_difference {
                    None => {
                        same += 1;
                        outln!(
                            "{:<24} = {:<16} identical ({} games)",
                            r.data,
                            r.printed.name(),
                            r.games
                        );
                    }
                    Some(d) => outln!("{:<24} ≠ {:<16} DIFFERENT: {d}", r.data, r.printed.name()),
                }
            }
            outln!("{same}/{} identical", rows.len());
            Ok(if same == rows.len() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
    }
}

fn cmd_compare(c: CompareConfig) -> Result<ExitCode> {
    use crate::cards::data;
    use crate::playtest;
    let CompareConfig {
        run,
        players,
        a_files,
        cards_a,
        cards_b,
        b_how,
        bind_a,
        kingdom: kc,
        lineup: LineupConfig { lineup, .. },
        card,
        html,
        precision,
    } = c;
    let (threads, seed, games) = (run.threads, run.seed, run.games);
    // Ctrl-C stops the games (those in progress finish) and says so, as in
    // every verb that plays games, instead of ending the process at once.
    // Installed before the temporary files exist, so that a signal can
    // never leave them behind.
    install_stop_handler();
    let csv_file = run.out.as_deref().map(AtomicFile::create).transpose()?;
    let html_file = html.as_deref().map(AtomicFile::create).transpose()?;
    let partial_file = run.partial_file()?;
    let infos = lineup.infos().to_vec();
    let names: Vec<String> = infos.iter().map(|i| i.name.clone()).collect();
    // This process's games: all of them, or a shard's slice.
    let (first_game, count) = run.slice();
    let last_game = first_game + count;
    let interrupted = |done: u64| {
        crate::errln!(
            "interrupted: {done} of {count} games compared (each played with variant A and with variant B); no file written"
        );
        Ok(ExitCode::from(EXIT_INTERRUPTED))
    };
    let mut base = Meta::default();
    base.push("domsim_version", version());
    base.push("command", "compare");
    base.push("seed", seed);
    base.push("kingdom", kc.kingdom.describe());
    base.push("kingdom_source", &kc.how);
    base.push("players", players);
    base.push("card", card.name());
    base.push(
        "variant_a",
        a_files
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", "),
    );
    base.push("variant_b", &b_how);
    let signatures = |v: &[data::DataCard]| {
        v.iter()
            .map(|c| c.signature())
            .collect::<Vec<_>>()
            .join(" ; ")
    };
    base.push("variant_a_cards", signatures(&cards_a));
    base.push("variant_b_cards", signatures(&cards_b));
    // The games are played a block at a time, A then B on the same
    // indices, and paired at once: memory stays two blocks of records
    // whatever -n is. The variants take turns binding their cards to the
    // same slots (bind_again reuses the arena rows of the first binding).
    let rows_a = bind_a.rows().to_vec();
    let mut bind_a = Some(bind_a);
    let mut b_setup: Option<(Vec<u16>, crate::engine::Kingdom)> = None;
    // The strategies' warnings (an entry naming a card not in the game…),
    // once: variant A's, then those only variant B's cards give.
    let mut warned: Vec<String> = Vec::new();
    let mut warn = |ws: Vec<String>, prefix: &str| {
        for w in ws {
            if !warned.contains(&w) {
                crate::errln!("{prefix}{}", warning(&w));
                warned.push(w);
            }
        }
    };
    let mut pairing = playtest::Pairing::new(&names);
    let mut first = first_game;
    // Both variants' games, counted a block at a time.
    let bar = crate::sim::runner::progress_bar(progress_wanted(), count.saturating_mul(2));
    while first < last_game {
        let end = last_game.min(first.saturating_add(playtest::COMPARE_BLOCK));
        let binding = match bind_a.take() {
            Some(b) => {
                warn(playtest::compile_warnings(&kc.kingdom, &lineup)?, "");
                b
            }
            None => data::bind_again(&cards_a, &rows_a)?,
        };
        // One variant's records of this block's games (None once stopped).
        let play = |k: &crate::engine::Kingdom| -> Result<Option<Vec<playtest::CardGame>>> {
            let r =
                playtest::play_records_until(k, &lineup, card, first..end, seed, threads, &STOP)?;
            Ok((!STOP.load(Ordering::SeqCst)).then_some(r))
        };
        let ra = play(&kc.kingdom)?;
        drop(binding);
        let Some(ra) = ra else {
            bar.finish_and_clear();
            return interrupted(pairing.games());
        };
        bar.set_position(2 * (first - first_game) + (end - first));
        let (binding, kingdom_b) = match b_setup.take() {
            Some((rows, k)) => (data::bind_again(&cards_b, &rows)?, k),
            None => {
                let binding = data::bind(&cards_b)?;
                // The kingdom was set up under A: B's pile sizes, pile
                // rules and hooks (on_trash) are derived again from B's
                // cards. (The strategies are compiled again for each
                // variant and block by play_records_until.)
                let k = kc
                    .kingdom
                    .rederived()
                    .map_err(|e| anyhow!("variant B: {e}"))?;
                warn(playtest::compile_warnings(&k, &lineup)?, "variant B: ");
                (binding, k)
            }
        };
        let rb = play(&kingdom_b)?;
        b_setup = Some((binding.rows().to_vec(), kingdom_b));
        drop(binding);
        let Some(rb) = rb else {
            bar.finish_and_clear();
            return interrupted(pairing.games());
        };
        pairing.add(&ra, &rb)?;
        first = end;
        bar.set_position(2 * (first - first_game));
        if precision.is_some_and(|p| pairing.widest_win_rate_half_width() < p) {
            break;
        }
    }
    bar.finish_and_clear();
    let mut outs = Commit::new();
    compare_outputs(
        &base, &pairing, games, precision, csv_file, html_file, &mut outs,
    )?;
    if let (Some(file), Some(spec)) = (partial_file, run.shard) {
        let key = sim::shard::RunKey {
            verb: "compare".into(),
            meta: base,
            entrants: infos,
            games,
        };
        let part =
            sim::shard::Partial::new(key, spec, sim::shard::Counts::Compare(Box::new(pairing)));
        outs.add(file, part.to_json()?)?;
    }
    outs.commit()?;
    Ok(ExitCode::SUCCESS)
}

/// A comparison's console table, CSV and HTML page from its run's metadata
/// (`base`: up to the variants' cards) and its paired games: the one
/// function `compare` and `merge` both call, so a merged run writes the
/// bytes of a one-machine run.
fn compare_outputs(
    base: &Meta,
    pairing: &crate::playtest::Pairing,
    requested: u64,
    precision: Option<f64>,
    csv_file: Option<AtomicFile>,
    html_file: Option<AtomicFile>,
    outs: &mut Commit,
) -> Result<()> {
    use crate::playtest;
    let completed = pairing.games();
    let rows = pairing.rows();
    let field = |k: &str| base.get(k).unwrap_or_default().to_string();
    let mut meta = base.clone();
    meta.push("games_per_variant", completed);
    if let Some(p) = precision {
        let w = pairing.widest_win_rate_half_width();
        meta.push("games_requested", requested);
        meta.push("precision_target", p);
        meta.push("precision_widest_half_width", format!("{w:.6}"));
        meta.push("precision_reached", if w < p { "yes" } else { "no" });
    }
    outln!(
        "{}: variant A ({}) vs variant B ({}), {completed} game{} each on the same seeds, kingdom {}\n",
        field("card"),
        field("variant_a"),
        field("variant_b"),
        if completed == 1 { "" } else { "s" },
        field("kingdom"),
    );
    outln!(
        "{:<16} {:<28} {:>10} {:>10} {:>10}  {:<22}",
        "measure",
        "bot",
        "A",
        "B",
        "B − A",
        "95% interval"
    );
    let excludes_0 = |r: &playtest::Compared| r.ci_low > 0.0 || r.ci_high < 0.0;
    for r in &rows {
        let mark = if excludes_0(r) { " *" } else { "" };
        outln!(
            "{:<16} {:<28} {:>10.4} {:>10.4} {:>+10.4}  [{:+.4}, {:+.4}]{mark}",
            r.measure,
            r.bot,
            r.a,
            r.b,
            r.diff,
            r.ci_low,
            r.ci_high
        );
    }
    if rows.iter().any(excludes_0) {
        outln!("\n* the interval excludes 0 (paired design: each game is played with A and with B from the same seed)");
    } else {
        outln!("\nno interval excludes 0 (paired design: each game is played with A and with B from the same seed)");
    }
    if let Some(p) = precision {
        let w = pairing.widest_win_rate_half_width();
        outln!();
        precision_outcome(
            &p.to_string(),
            &format!("{w:.4}"),
            &format!("{completed} games per variant"),
            w < p,
        )?;
    }
    if let Some(f) = csv_file {
        outs.add(f, playtest::compare_csv(&meta, &rows)?)?;
    }
    if let Some(f) = html_file {
        let title = format!("{}: variant A vs variant B", field("card"));
        outs.add(f, playtest::compare_html(&title, &meta, &rows))?;
    }
    Ok(())
}
