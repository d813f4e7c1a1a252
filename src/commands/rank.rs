//! `domsim rank`: ratings of a field (Bradley–Terry, Plackett–Luce), the leaderboard CSV and page.

use super::common::{
    check_io, check_kingdoms_file, check_writable, expand_specs, install_stop_handler,
    kingdom_config, parse_count, parse_seed, precision_outcome, progress_wanted, KingdomArgs,
    AbsentArg, LineupConfig, RunConfig, ShardArgs, StrategyArgs, ThreadsArg, EXIT_INTERRUPTED,
    STOP,
};
use crate::dominion::matches;
use crate::dominion::kingdoms::{kingdom_seed, shelters, shelters_forced, KingdomList};
use crate::dominion::lineup::CompiledLineup;
use crate::dominion::outputs::{matrix_csv_bytes, push_data_cards, version};
use crate::engine::Kingdom;
use crate::output::Commit;
use crate::rank::leaderboard::{self as lb, View};
use crate::report::{self, AtomicFile, Meta};
use crate::sim;
use crate::{out, outln};
use anyhow::{bail, Result};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// `domsim rank`'s raw arguments (validated into [`RankConfig`]).
#[derive(Args, Debug, Clone)]
#[command(mut_arg("files", |a| a.help("Strategy files (or builtin:big-money) or folders of them (every *.dom inside): the field, at least 2 (at least -p)")))]
pub struct RankArgs {
    /// Strategy files or folders of them (every *.dom inside).
    #[command(flatten)]
    pub strategies: StrategyArgs,
    #[command(flatten)]
    pub kingdom: KingdomArgs,
    #[command(flatten)]
    pub absent: AbsentArg,
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
    /// Which rating models to show and order by (2 players): `all`
    /// (default: the Bradley–Terry order with the Nash weight, the
    /// Nash-averaged payoff, the α-Rank mass and the tier beside the
    /// rating), `nash` or `alpharank` (every column, ordered by that model)
    /// or `bt` (the rating alone). Every view prints the Bradley–Terry fit:
    /// the pairs it gets wrong beyond error and the field's cycles.
    #[arg(long, value_name = "MODEL", value_parser = parse_view)]
    pub model: Option<View>,
    /// Every pair's direct score against the Bradley–Terry prediction
    /// (residual with its interval, misfit flag), as CSV (2 players).
    #[arg(long, value_name = "FILE.csv")]
    pub pairs: Option<PathBuf>,
    #[command(flatten)]
    pub shard: ShardArgs,
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

/// A `--model` value (see [`View`]).
fn parse_view(s: &str) -> std::result::Result<View, String> {
    s.parse::<View>().map_err(|e| e.to_string())
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
        kingdoms: KingdomList { kingdoms, how },
        seeds,
        lineup: LineupConfig { lineup, .. },
        precision,
        html,
        matrix,
        view,
        pairs,
    } = c;
    install_stop_handler();
    let file = rc.out.as_deref().map(AtomicFile::create).transpose()?;
    let pairs_file = pairs.as_deref().map(AtomicFile::create).transpose()?;
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
    // Bots naming cards absent from the kingdom were left out or labelled
    // (`--absent`, said once) when the field was loaded.
    let (_, slice) = rc.slice();
    let mut run = RankTables {
        players: p as u8,
        kingdoms: kingdoms.iter().map(|k| k.describe()).collect(),
        tables: (0..kingdoms.len())
            .flat_map(|k| {
                members.iter().map(move |m| TableStats {
                    kingdom: k as u32,
                    members: m.iter().map(|&x| x as u8).collect(),
                    stats: matches::Stats::default(),
                })
            })
            .collect(),
    };
    let Some((played, reached)) =
        play_tables(&mut run, &kingdoms, &compiled, &seeds, &rc, precision, (n, many))?
    else {
        return Ok(ExitCode::from(EXIT_INTERRUPTED));
    };
    let mut base = rank_meta(rc.seed, (&how, &kingdoms, many), p, members.len(), view);
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
    let model = if p == 2 && view.game_theory() {
        format!(
            "Bradley–Terry ratings (Elo scale, field mean 0, ties count half) beside Nash averaging and α-Rank; ordered by {}",
            view.order_label()
        )
    } else if p == 2 {
        "Bradley–Terry ratings (Elo scale, field mean 0, ties count half)".to_string()
    } else {
        "Plackett–Luce (Luce choice) ratings (Elo scale, field mean 0, shared wins split)".to_string()
    };
    outln!(
        "{what}, {} table(s) of {p}{}, seed {}; {model}\n",
        members.len(),
        if many { " per kingdom" } else { "" },
        rc.seed
    );
    let names: Vec<String> = infos.iter().map(|i| i.name.clone()).collect();
    let scopes = print_ratings(&names, &run, kingdoms.len(), many, view)?;
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
        outs.add(f, lb::leaderboard_csv(&base, games_label, &run, &infos)?)?;
    }
    if let Some(f) = pairs_file {
        outs.add(f, lb::pairs_csv(&base, games_label, &run, &infos)?)?;
    }
    if let Some(f) = html_file {
        outs.add(f, lb::leaderboard_html(&base, games_label, &run, &infos)?)?;
    }
    if let Some(f) = matrix_file {
        outs.add(
            f,
            matrix_csv_bytes(&base, games_label, lb::cells(&run, n), &infos)?,
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

/// The metadata a rank run's outputs start with (and its parts are keyed by).
fn rank_meta(
    seed: u64,
    (how, kingdoms, many): (&str, &[Kingdom], bool),
    p: usize,
    tables: usize,
    view: View,
) -> Meta {
    let mut base = Meta::default();
    base.push("domsim_version", version());
    base.push("command", "rank");
    base.push("seed", seed);
    push_data_cards(&mut base);
    if many {
        base.push("kingdoms", how);
        base.push("kingdom_count", kingdoms.len());
    } else {
        base.push("kingdom", kingdoms[0].describe());
        base.push("kingdom_source", how);
    }
    base.push("players", p);
    if p > 2 || many {
        base.push("tables_per_kingdom", tables);
    }
    if p == 2 {
        base.push(lb::VIEW_KEY, view.name());
    }
    base
}

/// The ratings of a rank run, on the console: the leaderboard (overall,
/// with several kingdoms) with the view's models and the Bradley–Terry
/// diagnostics, and each kingdom's ratings; returned per scope (`kingdom
/// K`…, then `overall`), as the outputs write them.
fn print_ratings(
    names: &[String],
    run: &sim::shard::RankTables,
    kingdoms: usize,
    many: bool,
    view: View,
) -> Result<Vec<(String, Vec<crate::rank::Rating>)>> {
    let mut scopes: Vec<(String, Vec<crate::rank::Rating>)> = Vec::new();
    if many {
        for k in 0..kingdoms {
            scopes.push((
                format!("kingdom {}", k + 1),
                lb::ratings(run, names.len(), Some(k)),
            ));
        }
    }
    let overall = lb::analyse(run, names.len(), None)?;
    if many {
        outln!("overall, {} kingdoms:", kingdoms);
    }
    out!("{}", lb::table_text(names, &overall, view));
    let diag = lb::diagnostics_text(names, &overall, view, 10);
    if !diag.is_empty() {
        out!("\n{diag}");
    }
    scopes.push(("overall".into(), overall.ratings));
    if many {
        outln!("\nper kingdom (rating of each strategy; -o writes them all):");
        let mut header = vec!["kingdom".to_string()];
        header.extend(names.iter().cloned());
        let body: Vec<Vec<String>> = scopes[..kingdoms]
            .iter()
            .map(|(scope, r)| {
                let mut row = vec![scope.clone()];
                row.extend(r.iter().map(|x| format!("{:+.0}", x.rating)));
                row
            })
            .collect();
        out!("{}", report::format_table(&header, &body));
    }
    Ok(scopes)
}

/// Play every table's games of this process's slice of the run: in steps
/// of [`RANK_STEP`] games per table with `--precision` (one step
/// without); step boundaries are game indices, so the result depends only
/// on the seed. Returns the games played per table and whether the
/// precision was reached, or None when interrupted (said on the console).
fn play_tables(
    run: &mut sim::shard::RankTables,
    kingdoms: &[Kingdom],
    compiled: &[CompiledLineup],
    seeds: &[u64],
    rc: &RunConfig,
    precision: Option<f64>,
    (n, many): (usize, bool),
) -> Result<Option<(u64, bool)>> {
    let pool = sim::pool(rc.threads)?;
    let (first, slice) = rc.slice();
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
                matches::run(
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
                return Ok(None);
            }
            t.stats = std::mem::take(&mut t.stats).merge(r.stats);
        }
        at = to;
        if let Some(prec) = precision {
            // Every rating written: each kingdom's and the overall ones.
            let scopes = (0..kingdoms.len()).filter(|_| many).map(Some).chain([None]);
            let all_within = scopes
                .into_iter()
                .all(|k| lb::ratings(run, n, k).iter().all(|r| r.ci95 < prec));
            if all_within {
                reached = true;
                break;
            }
        }
    }
    bar.finish_and_clear();
    Ok(Some((at - first, reached)))
}

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
    /// `--model` (at more than 2 players: `bt`, the only one that applies).
    pub view: View,
    /// `--pairs FILE.csv`.
    pub pairs: Option<PathBuf>,
}

/// `rank --tables`' default: most tables of 3 to 6 players per kingdom.
pub const RANK_TABLES: u64 = 400;

impl RankConfig {
    pub fn from_args(a: &RankArgs) -> Result<RankConfig> {
        let run = RunConfig::new(a.games, a.seed, &a.threads, &a.shard, a.out.as_ref());
        let p = a.players as usize;
        let many = a.kingdoms.is_some() || a.random_kingdoms.is_some();
        run.refuse_with_shard(
            "-o, --html, --matrix and --pairs",
            run.out.is_some() || a.matrix.is_some() || a.html.is_some() || a.pairs.is_some(),
            "belong to the merged run (domsim merge PARTIAL… -o FILE.csv --html FILE.html --matrix FILE.csv --pairs FILE.csv)",
        )?;
        let view = match (p, a.model) {
            (2, m) => m.unwrap_or(View::All),
            (_, None | Some(View::Bt)) => View::Bt,
            (_, Some(m)) => bail!(
                "--model {}: Nash averaging and α-Rank need the 2-player head-to-head payoff matrix; tables of {p} are rated by Plackett–Luce only (use -p 2, or --model bt)",
                m.name()
            ),
        };
        if a.pairs.is_some() && p != 2 {
            bail!("--pairs is the head-to-head results of 2 players against the Bradley–Terry prediction (not with -p {p}: tables of {p} have no head-to-head score)");
        }
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
            ("--pairs", a.pairs.as_deref()),
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
            let kc = kingdom_config(&a.kingdom, p, run.seed, &specs)?;
            (
                KingdomList {
                    kingdoms: vec![kc.kingdom],
                    how: kc.how,
                },
                vec![run.seed],
            )
        };
        let mut lineup = a.strategies.load(specs)?;
        a.absent.apply(
            &mut lineup,
            &kingdoms.kingdoms,
            p.max(2),
            &format!("a ranking at {p}-player tables"),
        )?;
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
            view,
            pairs: a.pairs.clone(),
        })
    }
}

/// `domsim rank`: validate the arguments, then run.
pub fn run(a: &RankArgs) -> Result<ExitCode> {
    cmd_rank(RankConfig::from_args(a)?)
}
