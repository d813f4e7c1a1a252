//! `domsim sim`: many games of one table, the win-rate table, playtest statistics, checkpoints and shards.

use super::common::{
    check_io, check_out_path, check_precision, check_writable, checkpoint_key, checkpoint_note,
    kingdom_config, parse_count, parse_seed, precision_outcome, prepare_run, seat_specs,
    KingdomArgs, LineupConfig, PlayersArg, PlaytestArgs, PlaytestFiles, PreparedRun, RunConfig,
    ShardArgs, StrategyArgs, ThreadsArg, CARD_FLAGS, EXIT_INTERRUPTED, STOP,
};
use crate::dominion::matches;
use crate::dominion::kingdoms::KingdomConfig;
use crate::dominion::outputs::{base_meta, games_csv_bytes, push_entrants, sim_csv_bytes};
use crate::output::Commit;
use crate::engine::Kingdom;
use crate::report::{self, AtomicFile, EntrantInfo};
use crate::dominion::lineup::CompiledLineup;
use crate::sim;
use crate::{out, outln};
use anyhow::{bail, Result};
use clap::Args;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

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
    let ck = checkpoint.map(|(path, every)| {
        let mut key = checkpoint_key(seed, &k, &infos);
        if let Some(spec) = run.shard {
            // A shard's checkpoint resumes only that shard of that run.
            key.push_str(&format!(
                " shard {}/{} of {games} games",
                spec.index, spec.count
            ));
        }
        (path, every, key)
    });
    let want = (pt.wanted(), games_file.is_some());
    let (result, mut playtest, mut game_rows) =
        play(&k, &cfg, &compiled, &pool, &recording, want, ck)?;
    print_table(&result, &infos, (&kc, &k, players), seed)?;
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
        let kingdom = kingdom_config(&a.kingdom, players, run.seed, &specs)?;
        let lineup = a.strategies.load(specs)?;
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

/// What a `sim` run played: the runner's result, the playtest statistics
/// (when asked for) and one row per game (for `--games-csv`).
type Played = (
    matches::RunResult,
    Option<crate::stats::PlaytestStats>,
    Vec<matches::GameRow>,
);

/// The win-rate table of a `sim` run on the console, with its kingdom,
/// the game length and seat statistics, ties, the turn cap and faults.
fn print_table(
    result: &matches::RunResult,
    infos: &[EntrantInfo],
    (kc, k, players): (&KingdomConfig, &Kingdom, usize),
    seed: u64,
) -> Result<()> {
    let rows = report::rows(&result.stats, infos);
    outln!(
        "{} players, kingdom ({}): {}",
        players,
        kc.how,
        k.describe()
    );
    outln!(
        "{} games, seed {seed}; seat orders rotate over all {} permutations\n",
        result.completed,
        matches::seat_orders(players).len()
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
    Ok(())
}

/// The games of a `sim` run, played the way its outputs need them: with
/// the playtest recorder (`want.0`), with one row per game (`want.1`,
/// `--games-csv`), or from and to a checkpoint (`path`, games per batch,
/// the run's key). Returns the runner's result, the playtest statistics and
/// the rows.
fn play(
    k: &Kingdom,
    cfg: &sim::RunConfig,
    compiled: &CompiledLineup,
    pool: &rayon::ThreadPool,
    recording: &crate::stats::Recording,
    (playtest_wanted, rows_wanted): (bool, bool),
    checkpoint: Option<(&Path, u64, String)>,
) -> Result<Played> {
    let mut playtest = None;
    let mut game_rows: Vec<matches::GameRow> = Vec::new();
    let result = match checkpoint {
        None if playtest_wanted && rows_wanted => {
            let (r, (acc, rw)) = pool.install(|| {
                matches::run_hooked(
                    k,
                    cfg,
                    |o: &[u8]| compiled.bots(o),
                    &STOP,
                    &matches::WithRows(recording),
                )
            });
            playtest = acc.map(|s| s.stats);
            game_rows = rw;
            r
        }
        None if playtest_wanted => {
            let (r, acc) = pool.install(|| {
                matches::run_hooked(k, cfg, |o: &[u8]| compiled.bots(o), &STOP, recording)
            });
            playtest = acc.map(|s| s.stats);
            r
        }
        None if rows_wanted => {
            let (r, ((), rw)) = pool.install(|| {
                matches::run_hooked(
                    k,
                    cfg,
                    |o: &[u8]| compiled.bots(o),
                    &STOP,
                    &matches::WithRows(&matches::Plain),
                )
            });
            game_rows = rw;
            r
        }
        None => pool.install(|| matches::run(k, cfg, |o: &[u8]| compiled.bots(o), &STOP)),
        Some((path, every, key)) => {
            let r = pool.install(|| {
                matches::run_checkpointed(
                    k,
                    cfg,
                    |o: &[u8]| compiled.bots(o),
                    &STOP,
                    path,
                    &key,
                    every,
                )
            })?;
            checkpoint_note(path, &r, cfg.games);
            r.result
        }
    };
    Ok((result, playtest, game_rows))
}

/// `domsim sim`: validate the arguments, then run.
pub fn run(a: &SimArgs) -> Result<ExitCode> {
    cmd_sim(SimConfig::from_args(a)?)
}
