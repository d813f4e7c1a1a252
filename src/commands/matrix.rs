//! `domsim matrix`: every pair of a field plays 2-player games; the score matrix (CSV, heat map).

use super::common::{
    check_io, check_out_path, check_writable, expand_specs, kingdom_config, parse_count,
    parse_seed, prepare_run, progress_wanted, round_robin, Cells, KingdomArgs, LineupConfig,
    PreparedRun, RunConfig, ShardArgs, StrategyArgs, ThreadsArg, EXIT_INTERRUPTED,
};
use crate::dominion::kingdoms::KingdomConfig;
use crate::dominion::outputs::{base_meta, matrix_csv_bytes};
use crate::output::Commit;
use crate::report::{self, AtomicFile, EntrantInfo};
use crate::sim;
use crate::{out, outln};
use anyhow::{bail, Result};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

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
pub(crate) fn matrix_page(
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
        let kingdom = kingdom_config(&a.kingdom, 2, run.seed, &specs)?;
        let lineup = a.strategies.load(specs)?;
        check_writable(&outs, &[&lineup])?;
        Ok(MatrixConfig {
            run,
            kingdom,
            lineup,
            report: a.report.clone(),
        })
    }
}

/// `domsim matrix`: validate the arguments, then run.
pub fn run(a: &MatrixArgs) -> Result<ExitCode> {
    cmd_matrix(MatrixConfig::from_args(a)?)
}
