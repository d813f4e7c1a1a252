//! The command line: one file per verb, each holding its clap arguments,
//! its validated configuration (`XConfig::from_args`: every check that can
//! fail on the arguments alone, with its message, before anything runs)
//! and its `run`; [`common`] holds what several verbs share. This module
//! is clap's top level ([`Cli`], [`Command`]) and [`run`], which parses the
//! command line, binds the data cards of `--cards` and calls the verb.
//! Every user error is reported with exit status 2 and a message naming
//! the offending value (see `main.rs`).
//!
//! Nothing in the library imports this module (tests/it/layering.rs):
//! what the web server or the tests share with a verb lives below it
//! ([`crate::dominion::kingdoms`], [`crate::dominion::outputs`], …).
//!
//! Adding a verb: its file `commands/VERB.rs` (`VerbArgs`, its config and
//! `run`), its entry in the `verbs!` list here (its `--help` summary and
//! one line), and its help snapshot (tests/help/); see docs/ARCHITECTURE.md.

pub mod common;
#[cfg(test)]
mod tests;

use anyhow::{anyhow, bail, Result};
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

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
    /// Folders where a strategy's `extends: NAME` is looked for after the
    /// strategy's own folder, before those of DOMSIM_STRATEGIES and the
    /// shipped strategies/ (DIR[:DIR...], separated by ':'; docs/STRATEGIES.md).
    #[arg(long = "strategies-path", global = true, value_name = "DIRS")]
    pub strategies_path: Vec<std::ffi::OsString>,
}

/// The verbs, in the order `--help` lists them. Each entry is the one place
/// a verb is registered: it declares the verb's module
/// (`commands/VERB.rs`), its variant of [`Command`] (the doc comment is the
/// verb's summary in `--help`) and its arm of `dispatch`, which calls the
/// module's `run(&args)`.
macro_rules! verbs {
    ($($(#[$attr:meta])* $variant:ident($module:ident::$args:ident),)*) => {
        $(pub mod $module;)*

        #[derive(Subcommand, Debug)]
        pub enum Command {
            $($(#[$attr])* $variant($module::$args),)*
        }

        impl Command {
            /// The verb's name on the command line (its module's name).
            fn name(&self) -> &'static str {
                match self {
                    $(Command::$variant(_) => stringify!($module),)*
                }
            }
        }

        /// Run the verb.
        fn dispatch(cmd: Command) -> Result<ExitCode> {
            match cmd {
                $(Command::$variant(a) => $module::run(&a),)*
            }
        }
    };
}

verbs! {
    /// New Salem, the hidden-role drafting game (3–8 players): `domsim salem sim|log|check|rules`.
    #[command(subcommand)]
    Salem(salem::SalemCmd),
    /// Cards from data files: list them, or verify the shipped reprints of
    /// printed cards (`domsim cards verify`).
    #[command(subcommand)]
    Cards(cards::CardsCmd),
    /// A/B test of a card: the same field of bots on the same kingdom and the
    /// same seeds (common random numbers) with card variant A and variant B;
    /// per bot and overall, the change in win rate, in how often the card is
    /// bought and played, in the winner's deck, and in game length, each with
    /// a paired 95% interval. See docs/DESIGNING_CARDS.md.
    Compare(compare::CompareArgs),
    /// Run a scenario file: set up a state, play the given moves with the
    /// scripted answers, check the expectations and print the state as JSON.
    ///
    /// The notation is described in docs/SCENARIOS.md; the rules it checks are in docs/RULES.md, and docs/CARDS.md lists every
    /// card with the scenario files in tests/scenarios/ that show its rulings.
    Scenario(scenario::ScenarioArgs),
    /// Simulate many games and print a win-rate table (and write it as CSV).
    Sim(sim::SimArgs),
    /// A field of strategies over many kingdoms: in each kingdom every pair
    /// plays a 2-player round robin; writes one CSV row per kingdom ×
    /// strategy and a summary of which strategy wins where and which cards
    /// help or hurt it.
    Sweep(sweep::SweepArgs),
    /// Rate a field of bots: a 2-player round robin of every pair, fitted
    /// with a Bradley–Terry model (ties count half), beside Nash averaging
    /// and α-Rank; prints a leaderboard with 95% intervals, the model's
    /// misfits and the field's cycles, and writes it as CSV.
    Rank(rank::RankArgs),
    /// Search a strategy template's parameters for the bot that scores best
    /// against a field in one kingdom (successive halving on common random
    /// numbers, local refinement, confirmation on fresh seeds); writes the
    /// best bot as a strategy file and the search as CSV.
    Optimize(optimize::OptimizeArgs),
    /// The best bot of a kingdom: rank the shipped bots that fit it (and
    /// --against), search best responses to the field's Nash mixture with
    /// the strategy templates (PSRO), gate the result against every field
    /// member on fresh seeds (never calls a losing bot best: it returns the
    /// field's best instead), and write the bot and its page.
    Best(best::BestArgs),
    /// Print a kingdom without playing: its cards (set, cost, types), the
    /// piles that come with them, and whether Shelters are used; e.g.
    /// `domsim kingdom --random --sets base,dark-ages --seed 7`.
    Kingdom(kingdom::KingdomCmdArgs),
    /// Join the partial files of a sharded run (`--shard I/N --save-partial`)
    /// into the CSV a one-machine run writes, byte for byte. Refuses parts of
    /// different runs, a shard given twice and a missing shard.
    Merge(merge::MergeArgs),
    /// Build the HTML playtest report (and optionally the statistics CSV) from
    /// statistics saved by `domsim sim --save-stats FILE.json`.
    Report(report::ReportArgs),
    /// Round robin: every pair of strategies plays 2-player head-to-head games;
    /// prints and writes a strategy-by-strategy score matrix.
    Matrix(matrix::MatrixArgs),
    /// Play one game and print it turn by turn (for debugging a strategy).
    Log(log::LogArgs),
    /// Check strategy files against a kingdom without playing.
    Check(check::CheckArgs),
    /// List the recommended kingdoms (presets) and whether they are available.
    Presets(presets::PresetsArgs),
    /// Soak test: random kingdoms from every implemented card, 2–6 players,
    /// random bots and randomly generated strategy files, invariants checked
    /// at every decision. Exit status 1 if any game failed.
    Soak(soak::SoakArgs),
    /// The strategy workbench in the browser: a local web page to pick a
    /// kingdom, edit a bot per seat and data cards (errors shown at their
    /// line and column as you type) and watch the win rates, their intervals
    /// and the report's charts grow as games are played; an A/B of a data
    /// card; a game against the bots; downloads of the CSV (the one `domsim
    /// sim` writes), the HTML report, the strategy files and the card file.
    Serve(serve::ServeArgs),
    /// Measure throughput on this machine: whole games between the shipped
    /// strategy files through the simulator's runner, on 1 thread, then 2
    /// (and every core if more); prints a Markdown table of games/s.
    Bench(bench::BenchArgs),
}

/// The verbs that take the global `--cards` (and `--cards-only`): the
/// others refuse them, and their `--help` does not list them.
const CARDS_VERBS: [&str; 13] = [
    "sim", "matrix", "log", "check", "scenario", "rank", "sweep", "optimize", "best", "kingdom",
    "report", "soak", "serve",
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
    let cli = match parse() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    // `serve` keeps the default signal actions: it writes no file, and
    // Ctrl-C ends it.
    if !matches!(cli.cmd, Command::Serve(_)) {
        common::catch_signals();
    }
    crate::strategy::search_path::set(&cli.strategies_path).map_err(|e| anyhow!(e))?;
    let _binding = bind_cards(&cli)?;
    common::set_card_flags(&cli.cards, cli.cards_only.as_deref());
    let mut cli = cli;
    // `serve` binds cards itself, a request at a time (the page's card
    // editor changes them): it is given the files, not a binding.
    if let Command::Serve(a) = &mut cli.cmd {
        a.cards = std::mem::take(&mut cli.cards);
        a.cards_only = cli.cards_only.take();
    }
    dispatch(cli.cmd)
}

/// The command line, or what `run` returns when clap answered it (an
/// error, exit status 2; `--help` or `--version` printed, success).
fn parse() -> std::result::Result<Cli, Result<ExitCode>> {
    let parsed = command()
        .try_get_matches()
        .and_then(|mut m| <Cli as clap::FromArgMatches>::from_arg_matches_mut(&mut m));
    match parsed {
        Ok(c) => Ok(c),
        Err(e) if e.use_stderr() => {
            let _ = e.print();
            Err(Ok(ExitCode::from(2)))
        }
        // --help and --version print on standard output, where a write
        // error is an error like any verb's (a closed pipe is not).
        Err(e) => {
            use std::io::Write;
            Err(match e.print().and_then(|_| std::io::stdout().flush()) {
                Err(w) if w.kind() != std::io::ErrorKind::BrokenPipe => {
                    Err(anyhow!("cannot write to standard output: {w}"))
                }
                _ => Ok(ExitCode::SUCCESS),
            })
        }
    }
}

/// Data cards: bound for the whole command. Only the verbs that play or
/// check Dominion kingdoms use them; the others (which bind cards
/// themselves, or play fixed workloads, or read saved results) refuse a
/// global --cards rather than ignore it.
fn bind_cards(cli: &Cli) -> Result<Option<crate::cards::data::Binding>> {
    if cli.cards.is_empty() || matches!(cli.cmd, Command::Serve(_)) {
        return Ok(None);
    }
    if !CARDS_VERBS.contains(&cli.cmd.name()) {
        bail!("--cards goes with Dominion verbs ({}); `domsim cards` takes its card files as arguments, `domsim compare` takes --a and --b (and --cards-only); bench, presets, merge and salem do not use data cards", CARDS_VERBS.join(", "));
    }
    let cards = crate::cards::data::load_for_binding(&cli.cards, cli.cards_only.as_deref())?;
    Ok(Some(crate::cards::data::bind(&cards)?))
}
