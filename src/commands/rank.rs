//! `domsim rank`: ratings of a field (Bradley–Terry, Plackett–Luce), the leaderboard CSV and page.

use super::common::{
    check_io, check_kingdoms_file, check_writable, expand_specs, install_stop_handler,
    kingdom_config, parse_count, parse_seed, precision_outcome, progress_wanted, Cells,
    KingdomArgs, LineupConfig, RunConfig, ShardArgs, StrategyArgs, ThreadsArg, EXIT_INTERRUPTED,
    STOP,
};
use crate::dominion::kingdoms::{kingdom_seed, shelters, shelters_forced, KingdomList};
use crate::dominion::outputs::{matrix_csv_bytes, push_data_cards, push_entrants, version};
use crate::engine::Kingdom;
use crate::output::Commit;
use crate::report::{self, AtomicFile, EntrantInfo, Meta};
use crate::sim;
use crate::dominion::lineup::CompiledLineup;
use crate::{out, outln};
use anyhow::{anyhow, bail, Result};
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

/// A rating precision in Elo points (a 95% half-width), e.g. 15.
fn parse_precision_elo(s: &str) -> std::result::Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 && x <= 1000.0 => Ok(x),
        _ => Err(format!(
            "'{s}' is not a rating precision (Elo points between 0 and 1000, e.g. 15)"
        )),
    }
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
    let (_, slice) = rc.slice();
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
    let Some((played, reached)) =
        play_tables(&mut run, &kingdoms, &compiled, &seeds, &rc, precision, (n, many))?
    else {
        return Ok(ExitCode::from(EXIT_INTERRUPTED));
    };
    let mut base = rank_meta(rc.seed, (&how, &kingdoms, many), p, members.len());
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
    let scopes = print_ratings(&names, &run, kingdoms.len(), many)?;
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

/// The metadata a rank run's outputs start with (and its parts are keyed by).
fn rank_meta(
    seed: u64,
    (how, kingdoms, many): (&str, &[Kingdom], bool),
    p: usize,
    tables: usize,
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
    base
}

/// The ratings of a rank run, on the console: the leaderboard (overall,
/// with several kingdoms) and each kingdom's ratings; returned per scope
/// (`kingdom K`…, then `overall`), as the outputs write them.
fn print_ratings(
    names: &[String],
    run: &sim::shard::RankTables,
    kingdoms: usize,
    many: bool,
) -> Result<Vec<(String, Vec<crate::rank::Rating>)>> {
    let mut scopes: Vec<(String, Vec<crate::rank::Rating>)> = Vec::new();
    if many {
        for k in 0..kingdoms {
            scopes.push((
                format!("kingdom {}", k + 1),
                rank_fit_tables(names.len(), run, Some(k)),
            ));
        }
    }
    scopes.push(("overall".into(), rank_fit_tables(names.len(), run, None)));
    for (scope, ratings) in &scopes {
        if many && scope == "overall" {
            outln!("overall, {} kingdoms:", kingdoms);
        } else if many {
            continue;
        }
        out!("{}", rank_table(names, ratings));
    }
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
                .all(|k| rank_fit_tables(n, run, k).iter().all(|r| r.ci95 < prec));
            if all_within {
                reached = true;
                break;
            }
        }
    }
    bar.finish_and_clear();
    Ok(Some((at - first, reached)))
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
pub(crate) fn rank_cells(run: &sim::shard::RankTables, n: usize) -> Cells {
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
pub(crate) fn rank_csv(
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
pub(crate) fn rank_html(
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
            let kc = kingdom_config(&a.kingdom, p, run.seed, &specs)?;
            (
                KingdomList {
                    kingdoms: vec![kc.kingdom],
                    how: kc.how,
                },
                vec![run.seed],
            )
        };
        let lineup = a.strategies.load(specs)?;
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

/// `domsim rank`: validate the arguments, then run.
pub fn run(a: &RankArgs) -> Result<ExitCode> {
    cmd_rank(RankConfig::from_args(a)?)
}
