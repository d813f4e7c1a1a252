//! `domsim sweep`: a field over many kingdoms; which strategy wins where.

use super::common::{
    check_io, AbsentArg, check_kingdoms_file, check_writable, expand_specs, install_stop_handler, parse_count,
    parse_seed, progress_wanted, round_robin, LineupConfig, RunConfig, ShardArgs, StrategyArgs,
    ThreadsArg, EXIT_INTERRUPTED,
};
use crate::dominion::kingdoms::{kingdom_seed, KingdomList};
use crate::dominion::outputs::{push_data_cards, sweep_meta, version};
use crate::output::Commit;
use crate::report::{AtomicFile, Meta};
use crate::sim;
use crate::{out, outln};
use anyhow::{bail, Result};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// `domsim sweep`'s raw arguments (validated into [`SweepConfig`]).
#[derive(Args, Debug, Clone)]
#[command(mut_arg("files", |a| a.help("Strategy files (or builtin:big-money) or folders of them (every *.dom inside): the field, at least 2; every pair plays in each kingdom")))]
pub struct SweepArgs {
    #[command(flatten)]
    pub strategies: StrategyArgs,
    #[command(flatten)]
    pub absent: AbsentArg,
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
            seed: kingdom_seed(run.seed, idx),
            threads: run.threads,
            progress: false,
            precision: None,
        };
        let (cells, _, stopped) = round_robin(k, &compiled, &names, &cfg, &pool, false);
        if stopped {
            interrupted = true;
            break 'kingdoms;
        }
        done.push(crate::dominion::sweep::SweepKingdom {
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
    out!("{}", crate::dominion::sweep::summary_text(&infos, &done));
    let meta = sweep_meta(&base, &infos);
    let mut outs = Commit::new();
    if let Some(f) = file {
        outs.add(f, crate::dominion::sweep::sweep_csv(&meta, &infos, &done)?)?;
    }
    if let Some(f) = summary_file {
        outs.add(f, crate::dominion::sweep::summary_csv(&meta, &infos, &done)?)?;
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
        let mut lineup = a.strategies.load(specs)?;
        a.absent
            .apply(&mut lineup, &kingdoms.kingdoms, 2, "a sweep")?;
        check_writable(&outs, &[&lineup])?;
        Ok(SweepConfig {
            run,
            kingdoms,
            lineup,
            summary: a.summary.clone(),
        })
    }
}

/// `domsim sweep`: validate the arguments, then run.
pub fn run(a: &SweepArgs) -> Result<ExitCode> {
    cmd_sweep(SweepConfig::from_args(a)?)
}
