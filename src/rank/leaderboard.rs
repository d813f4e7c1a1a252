//! `rank`'s outputs from its tables ([`RankTables`]): the fits of each
//! scope (overall, each kingdom), the console leaderboard, the leaderboard
//! CSV, the pairs CSV and the HTML page — the functions a one-machine run
//! and `domsim merge` of its shards both call, so that they write the same
//! bytes. `domsim best` builds its page from the same sections.
//!
//! Which model orders a leaderboard is a [`View`] (`rank --model`): at 2
//! players every view but `bt` adds the game-theoretic columns (Nash
//! weight, Nash-averaged payoff, α-Rank mass, tier, misfit pairs) beside the
//! Bradley–Terry rating; tables of 3 to 6 players have only the
//! Plackett–Luce rating.

use super::models::{self, FieldReport, Model};
use super::{fit, fit_tables, Rating, Results, Table};
use crate::dominion::matches::EntrantStats;
use crate::report::{self, EntrantInfo, Meta};
use crate::sim::shard::RankTables;
use anyhow::{anyhow, bail, Result};
use std::fmt::Write as _;
use std::str::FromStr;

/// Head-to-head cells: `cells[i][j]` is `i`'s results against `j`.
pub type Cells = Vec<Vec<Option<EntrantStats>>>;

/// What `rank --model` shows and orders by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// Bradley–Terry only (the leaderboard of earlier versions), with its
    /// fit diagnostics on the console.
    Bt,
    /// Every column, ordered by Nash-averaged payoff.
    Nash,
    /// Every column, ordered by α-Rank mass.
    AlphaRank,
    /// Every column, ordered by the Bradley–Terry rating (the default).
    All,
}

impl FromStr for View {
    type Err = anyhow::Error;
    fn from_str(s: &str) -> Result<View> {
        match s.trim().to_ascii_lowercase().as_str() {
            "all" => Ok(View::All),
            "bt" | "bradley-terry" => Ok(View::Bt),
            "nash" => Ok(View::Nash),
            "alpharank" | "alpha-rank" => Ok(View::AlphaRank),
            _ => bail!("unknown rating model '{s}': expected bt, nash, alpharank or all"),
        }
    }
}

/// The metadata key that records the view (so `merge` writes what the
/// one-machine run wrote).
pub const VIEW_KEY: &str = "rating_models";

impl View {
    pub fn name(self) -> &'static str {
        match self {
            View::Bt => "bt",
            View::Nash => "nash",
            View::AlphaRank => "alpharank",
            View::All => "all",
        }
    }
    /// The model a leaderboard is ordered by.
    pub fn order(self) -> Model {
        match self {
            View::Nash => Model::Nash,
            View::AlphaRank => Model::AlphaRank,
            View::Bt | View::All => Model::Bt,
        }
    }
    /// Whether the game-theoretic columns are shown.
    pub fn game_theory(self) -> bool {
        self != View::Bt
    }
    /// The view recorded in a run's metadata (absent: `bt`, as runs of
    /// earlier versions and tables of more than 2 players).
    pub fn of_meta(meta: &Meta) -> Result<View> {
        meta.get(VIEW_KEY).map_or(Ok(View::Bt), str::parse)
    }
    /// What the order means, for the metadata and the console.
    pub fn order_label(self) -> &'static str {
        match self.order() {
            Model::Bt => "Bradley-Terry rating",
            Model::Nash => "Nash-averaged payoff (score against the maximum-entropy Nash mixture)",
            Model::AlphaRank => "alpha-rank stationary mass",
        }
    }
}

/// One scope of a run: `overall`, or kingdom `k` (1-based label).
#[derive(Clone, Debug)]
pub struct Scope {
    pub label: String,
    pub kingdom: String,
    pub only: Option<usize>,
}

/// The scopes of a run: overall first, then each kingdom when there are several.
pub fn scopes(run: &RankTables) -> Vec<Scope> {
    let mut v = vec![Scope {
        label: "overall".into(),
        kingdom: String::new(),
        only: None,
    }];
    if run.kingdoms.len() > 1 {
        for (k, d) in run.kingdoms.iter().enumerate() {
            v.push(Scope {
                label: (k + 1).to_string(),
                kingdom: d.clone(),
                only: Some(k),
            });
        }
    }
    v
}

/// The head-to-head sums of a 2-player run's tables in kingdom `only` (or
/// every kingdom).
pub fn results(run: &RankTables, n: usize, only: Option<usize>) -> Results {
    let mut r = Results {
        games: vec![vec![0.0; n]; n],
        score: vec![vec![0.0; n]; n],
    };
    for t in run
        .tables
        .iter()
        .filter(|t| only.is_none_or(|k| t.kingdom as usize == k))
    {
        let (i, j) = (t.members[0] as usize, t.members[1] as usize);
        let (ei, ej) = (&t.stats.entrants[0], &t.stats.entrants[1]);
        r.games[i][j] += ei.games as f64;
        r.games[j][i] += ej.games as f64;
        r.score[i][j] += ei.score_wins();
        r.score[j][i] += ej.score_wins();
    }
    r
}

/// Ratings of a run's tables in kingdom `only` or over every kingdom. Two
/// players: Bradley–Terry on the head-to-head sums; more: Luce choice.
pub fn ratings(run: &RankTables, n: usize, only: Option<usize>) -> Vec<Rating> {
    if run.players == 2 {
        return fit(&results(run, n, only));
    }
    let tables: Vec<Table> = run
        .tables
        .iter()
        .filter(|t| only.is_none_or(|k| t.kingdom as usize == k))
        .map(|t| Table {
            members: t.members.iter().map(|&m| m as usize).collect(),
            games: t.stats.games as f64,
            score: (0..t.members.len())
                .map(|m| t.stats.entrants[m].score_wins())
                .collect(),
        })
        .collect();
    fit_tables(n, &tables)
}

/// The head-to-head cells of a 2-player, one-kingdom run.
pub fn cells(run: &RankTables, n: usize) -> Cells {
    let mut cells = vec![vec![None; n]; n];
    for t in &run.tables {
        let (i, j) = (t.members[0] as usize, t.members[1] as usize);
        cells[i][j] = Some(t.stats.entrants[0]);
        cells[j][i] = Some(t.stats.entrants[1]);
    }
    cells
}

/// One scope's analysis: the ratings, and at 2 players the whole field
/// report (residuals, fit, cycles, Nash, α-Rank).
#[derive(Clone, Debug)]
pub struct Analysis {
    pub ratings: Vec<Rating>,
    pub field: Option<FieldReport>,
    /// The head-to-head sums (2 players).
    pub results: Option<Results>,
    /// Why a 2-player scope has no field report (the Nash LP failed: on
    /// no field seen so far), said on the console and in the page.
    pub note: Option<String>,
}

impl Analysis {
    /// Bots best first by the view's model (Bradley–Terry without a field report).
    pub fn order(&self, view: View) -> Vec<usize> {
        match &self.field {
            Some(f) => f.order(view.order()),
            None => bt_order(&self.ratings),
        }
    }
}

/// Best rating first; equal ratings by entrant order.
pub fn bt_order(ratings: &[Rating]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..ratings.len()).collect();
    order.sort_by(|&a, &b| {
        ratings[b]
            .rating
            .total_cmp(&ratings[a].rating)
            .then(a.cmp(&b))
    });
    order
}

/// Analyse one scope of a run.
pub fn analyse(run: &RankTables, n: usize, only: Option<usize>) -> Result<Analysis> {
    if run.players != 2 {
        return Ok(Analysis {
            ratings: ratings(run, n, only),
            field: None,
            results: None,
            note: None,
        });
    }
    Ok(analyse_results(results(run, n, only)))
}

/// The analysis of head-to-head results. Should the Nash LP fail, the
/// Bradley–Terry ratings stand alone and [`Analysis::note`] says why
/// (the games are not lost to a solver error).
pub fn analyse_results(r: Results) -> Analysis {
    match models::analyse(&r) {
        Ok(f) => Analysis {
            ratings: f.ratings.clone(),
            field: Some(f),
            results: Some(r),
            note: None,
        },
        Err(e) => Analysis {
            ratings: fit(&r),
            field: None,
            results: Some(r),
            note: Some(format!("no game-theoretic view: {e}")),
        },
    }
}

/// The console leaderboard of one scope.
pub fn table_text(names: &[String], a: &Analysis, view: View) -> String {
    let gt = view.game_theory() && a.field.is_some();
    let mut header: Vec<String> = [
        "rank",
        "strategy",
        "rating",
        "95% CI",
        "games",
        "score vs field",
    ]
    .map(String::from)
    .to_vec();
    if gt {
        header.extend(["Nash weight", "Nash payoff", "α-Rank", "tier"].map(String::from));
    }
    let tier = a.field.as_ref().map(|f| f.tier());
    let body: Vec<Vec<String>> = a
        .order(view)
        .iter()
        .enumerate()
        .map(|(r, &i)| {
            let x = &a.ratings[i];
            let mut row = vec![
                (r + 1).to_string(),
                names[i].clone(),
                format!("{:+.0}", x.rating),
                format!("{:+.0} … {:+.0}", x.rating - x.ci95, x.rating + x.ci95),
                format!("{}", x.games),
                format!("{:.1}%", 100.0 * x.score),
            ];
            if let (true, Some(f), Some(t)) = (gt, &a.field, &tier) {
                row.extend([
                    format!("{:.1}%", 100.0 * f.nash.weights[i]),
                    format!("{:.1}%", 100.0 * f.nash.payoff[i]),
                    format!("{:.3}", f.alpharank[i]),
                    (t[i] + 1).to_string(),
                ]);
            }
            row
        })
        .collect();
    report::format_table(&header, &body)
}

/// The console diagnostics of one scope (2 players): the fit, the misfit
/// pairs, the cycles and, beyond `bt`, the Nash mixture (`top` lines of each).
pub fn diagnostics_text(names: &[String], a: &Analysis, view: View, top: usize) -> String {
    let Some(f) = &a.field else {
        return a.note.clone().map_or(String::new(), |n| format!("{n}\n"));
    };
    if view.game_theory() {
        models::summary_text(f, names, top)
    } else {
        models::fit_text(f, names, top)
    }
}

const MODEL_NOTES: [(&str, &str); 5] = [
    ("nash_weight", "weight in the maximum-entropy Nash equilibrium of the meta-game A_ij = score_ij - 1/2 (Balduzzi et al. 2018, solved with microlp)"),
    ("nash_payoff", "score against that Nash mixture (Nash averaging): 1/2 for every bot with weight, less for the others"),
    ("alpharank_mass", "alpha-rank stationary mass (Omidshafiei et al. 2019; alpha 100, population 50)"),
    ("tier", "strongly connected component of the significantly-beats graph (1 = best); a tier of several bots is a cycle"),
    ("misfit_pairs", "pairs of this bot whose direct score differs from the Bradley-Terry prediction beyond error (Holm, 5% family-wise)"),
];

/// The leaderboard CSV of `domsim rank` (and of `domsim merge` of its
/// shards). One kingdom: one row per strategy. Several: the overall rows,
/// then each kingdom's, with `scope` and `kingdom` columns first. At 2
/// players with a view other than `bt`, the model columns follow.
pub fn leaderboard_csv(
    base: &Meta,
    games: u64,
    run: &RankTables,
    infos: &[EntrantInfo],
) -> Result<Vec<u8>> {
    let view = View::of_meta(base)?;
    let gt = view.game_theory() && run.players == 2;
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
    if gt {
        meta.push("order", view.order_label());
        for (k, v) in MODEL_NOTES {
            meta.push(k, v);
        }
    }
    let mut columns = vec![
        "rank",
        "strategy",
        "source",
        "source_hash",
        "rating",
        "rating_lo",
        "rating_hi",
        "games",
        "score",
    ];
    if gt {
        columns.extend(MODEL_NOTES.map(|x| x.0));
    }
    scoped_csv(meta, run, infos, &columns, |a| {
        let tier = a.field.as_ref().map(|f| f.tier());
        a.order(view)
            .iter()
            .enumerate()
            .map(|(r, &i)| {
                let x = &a.ratings[i];
                let mut row = vec![
                    (r + 1).to_string(),
                    infos[i].name.clone(),
                    infos[i].source.clone(),
                    infos[i].hash.clone(),
                    format!("{:.3}", x.rating),
                    format!("{:.3}", x.rating - x.ci95),
                    format!("{:.3}", x.rating + x.ci95),
                    format!("{}", x.games),
                    format!("{:.6}", x.score),
                ];
                if gt {
                    match (&a.field, &tier) {
                        (Some(f), Some(t)) => row.extend(model_cells(f, t, i)),
                        _ => row.extend(std::iter::repeat_n(String::new(), MODEL_NOTES.len())),
                    }
                }
                row
            })
            .collect()
    })
}

/// A CSV of every scope of a run: `meta` and the entrants, the header
/// (`scope` and `kingdom` first over several kingdoms, then `columns`),
/// then each scope's `rows` (overall first).
fn scoped_csv(
    mut meta: Meta,
    run: &RankTables,
    infos: &[EntrantInfo],
    columns: &[&str],
    rows: impl Fn(&Analysis) -> Vec<Vec<String>>,
) -> Result<Vec<u8>> {
    let many = run.kingdoms.len() > 1;
    report::push_entrants(&mut meta, infos);
    let mut bytes = meta.render().into_bytes();
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut head: Vec<&str> = Vec::new();
    if many {
        head.extend(["scope", "kingdom"]);
    }
    head.extend(columns);
    w.write_record(&head)?;
    for s in scopes(run) {
        let a = analyse(run, infos.len(), s.only)?;
        for row in rows(&a) {
            let mut full = Vec::new();
            if many {
                full.extend([s.label.clone(), s.kingdom.clone()]);
            }
            full.extend(row);
            w.write_record(&full)?;
        }
    }
    bytes.extend(w.into_inner().map_err(|e| anyhow!("{e}"))?);
    Ok(bytes)
}

fn model_cells(f: &FieldReport, tier: &[usize], i: usize) -> [String; 5] {
    let misfits = f
        .pairs
        .iter()
        .filter(|p| p.misfit && (p.a == i || p.b == i))
        .count();
    [
        format!("{:.6}", f.nash.weights[i]),
        format!("{:.6}", f.nash.payoff[i]),
        format!("{:.6}", f.alpharank[i]),
        (tier[i] + 1).to_string(),
        misfits.to_string(),
    ]
}

/// The pairs CSV (`rank --pairs`): one row per pair that played, each
/// scope's (with `scope` and `kingdom` columns first over several
/// kingdoms): the direct score with its interval against the
/// Bradley–Terry prediction. 2 players only.
pub fn pairs_csv(
    base: &Meta,
    games: u64,
    run: &RankTables,
    infos: &[EntrantInfo],
) -> Result<Vec<u8>> {
    if run.players != 2 {
        bail!(
            "the pairs CSV is of 2-player head-to-head results (these are tables of {})",
            run.players
        );
    }
    let names: Vec<String> = infos.iter().map(|i| i.name.clone()).collect();
    let mut meta = base.clone();
    meta.push("games_per_pair", games);
    meta.push(
        "pairs",
        "each pair once (strategy listed first in the field first); every rate is the strategy's score against the opponent, ties half; score_lo/hi its 95% Wilson interval; bt_predicted the Bradley-Terry prediction; residual = score - bt_predicted with its interval; z the Pearson residual; misfit = 1 when Holm's test rejects the prediction at a 5% family-wise level",
    );
    scoped_csv(meta, run, infos, &models::PAIR_COLUMNS, |a| {
        a.field
            .as_ref()
            .map_or_else(Vec::new, |f| models::pair_rows(f, &names))
    })
}

/// `s` escaped for HTML text and attributes.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The start of a self-contained page (its style; no script, no link),
/// with `meta` as its header lines.
pub fn page_start(title: &str, meta: &[(String, String)]) -> String {
    let mut h = format!("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title>\n<style>body{{font:14px system-ui,sans-serif;margin:2em;color:#222}}table{{border-collapse:collapse;margin:1em 0}}td,th{{padding:2px 8px;text-align:right;border-bottom:1px solid #eee}}td.l,th.l{{text-align:left}}.meta{{color:#666;font-size:12px}}.scroll{{max-width:100%;overflow-x:auto}}table.m td{{border:1px solid #fff;min-width:2.6em;text-align:center;font-size:12px}}table.m th{{font-size:12px;font-weight:normal}}table.m th.c{{writing-mode:vertical-rl;transform:rotate(180deg);text-align:left;vertical-align:bottom}}table.m td.cyc{{outline:2px solid #d95f02;outline-offset:-2px;font-weight:600}}.note{{color:#555;max-width:60em}}pre{{background:#f6f6f6;padding:1em;overflow-x:auto;white-space:pre-wrap}}.verdict{{font-size:16px;font-weight:600}}</style></head><body>\n<h1>{}</h1>\n<div class=\"meta\">", esc(title), esc(title));
    for (k, v) in meta {
        let _ = write!(h, "{}: {}<br>", esc(k), esc(v));
    }
    h.push_str("</div>\n");
    h
}

/// The rating axis of a leaderboard: the ratings' intervals and 0, but
/// only of the bulk of the field: a rating beyond Tukey's fences (1.5
/// interquartile ranges, at least 100 Elo, past the quartiles) is left off the axis (drawn at its
/// edge, marked), so that one outlier (a bot 2,000 Elo below the rest)
/// does not squash every other row into a few pixels.
pub fn axis_range(ratings: &[crate::rank::Rating]) -> (f64, f64) {
    let mut sorted: Vec<f64> = ratings.iter().map(|r| r.rating).collect();
    sorted.sort_by(f64::total_cmp);
    let fences = if sorted.len() >= 4 {
        let q = |f: f64| sorted[((sorted.len() - 1) as f64 * f).round() as usize];
        let (q1, q3) = (q(0.25), q(0.75));
        let reach = 1.5 * (q3 - q1).max(100.0);
        (q1 - reach, q3 + reach)
    } else {
        (f64::MIN, f64::MAX)
    };
    let bulk = ratings
        .iter()
        .filter(|r| r.rating >= fences.0 && r.rating <= fences.1);
    let (lo, hi) = bulk.fold((0.0_f64, 0.0_f64), |(lo, hi), r| {
        (lo.min(r.rating - r.ci95), hi.max(r.rating + r.ci95))
    });
    (lo, hi)
}

/// A scope's leaderboard as an HTML table: the ratings with their 95%
/// intervals drawn to one scale and, with a field report and a view other
/// than `bt`, the game-theoretic columns; then the fit and the cycles.
pub fn leaderboard_section(title: &str, names: &[String], a: &Analysis, view: View) -> String {
    let gt = view.game_theory() && a.field.is_some();
    let ratings = &a.ratings;
    let (lo, hi) = axis_range(ratings);
    let span = (hi - lo).max(1.0);
    let (w, pad) = (320.0, 6.0);
    let x = |v: f64| pad + (v.clamp(lo, hi) - lo) / span * (w - 2.0 * pad);
    let beyond = ratings
        .iter()
        .filter(|r| r.rating < lo || r.rating > hi)
        .count();
    let clamped = if beyond > 0 {
        format!("; {beyond} beyond it, drawn at its edge with an arrow")
    } else {
        String::new()
    };
    let mut h = format!("<h2>{}</h2>\n<table><tr><th>rank</th><th class=\"l\">strategy</th><th>rating</th><th>95% interval</th><th class=\"l\">rating and interval ({lo:+.0} … {hi:+.0}{clamped})</th><th>games</th><th>score vs field</th>", esc(title));
    if gt {
        h.push_str("<th>Nash weight</th><th>Nash payoff</th><th>α-Rank mass</th><th>tier</th>");
    }
    h.push_str("</tr>\n");
    let tier = a.field.as_ref().map(|f| f.tier());
    for (r, &i) in a.order(view).iter().enumerate() {
        let q = &ratings[i];
        // A rating off the axis: an arrow at the edge it is beyond.
        let (dot, label) = if q.rating < lo {
            let e = x(lo);
            (
                format!(
                    "<path class=\"off\" d=\"M{:.1} 7 L{:.1} 2 L{:.1} 12 Z\" fill=\"#223366\"/>",
                    e - 6.0,
                    e,
                    e
                ),
                " (below the axis)",
            )
        } else if q.rating > hi {
            let e = x(hi);
            (
                format!(
                    "<path class=\"off\" d=\"M{:.1} 7 L{:.1} 2 L{:.1} 12 Z\" fill=\"#223366\"/>",
                    e + 6.0,
                    e,
                    e
                ),
                " (above the axis)",
            )
        } else {
            (
                format!(
                    "<circle cx=\"{:.1}\" cy=\"7\" r=\"3.5\" fill=\"#223366\"/>",
                    x(q.rating)
                ),
                "",
            )
        };
        let svg = format!(
            "<svg width=\"{w}\" height=\"14\" role=\"img\" aria-label=\"{:+.0} ± {:.0}{label}\"><line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"7\" y2=\"7\" stroke=\"#4477aa\" stroke-width=\"2\"/>{dot}<line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"0\" y2=\"14\" stroke=\"#bbb\"/></svg>{}",
            q.rating,
            q.ci95,
            x(q.rating - q.ci95),
            x(q.rating + q.ci95),
            x(0.0),
            x(0.0),
            if label.is_empty() {
                String::new()
            } else {
                format!(" <span class=\"off\">{}{:+.0}</span>", if q.rating < lo { "◀ " } else { "▶ " }, q.rating)
            }
        );
        let _ = write!(
            h,
            "<tr><td>{}</td><td class=\"l\">{}</td><td>{:+.0}</td><td>±{:.0}</td><td class=\"l\">{svg}</td><td>{}</td><td>{:.1}%</td>",
            r + 1,
            esc(&names[i]),
            q.rating,
            q.ci95,
            q.games,
            100.0 * q.score
        );
        if let (true, Some(f), Some(t)) = (gt, &a.field, &tier) {
            let _ = write!(
                h,
                "<td>{:.1}%</td><td>{:.1}%</td><td>{:.3}</td><td>{}</td>",
                100.0 * f.nash.weights[i],
                100.0 * f.nash.payoff[i],
                f.alpharank[i],
                t[i] + 1
            );
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</table>\n");
    if let Some(note) = &a.note {
        let _ = writeln!(h, "<p class=\"note\">{}</p>", esc(note));
    }
    if let Some(f) = &a.field {
        let text = if gt {
            models::summary_text(f, names, 20)
        } else {
            models::fit_text(f, names, 20)
        };
        let _ = writeln!(h, "<pre class=\"fit\">{}</pre>", esc(&text));
    }
    h
}

/// The head-to-head matrix as an HTML table, rows and columns in the
/// view's order: each cell the row's score against the column, shaded
/// (blue: the row wins, red: it loses), a cell of a significant cycle
/// outlined and marked ↻, a pair the Bradley–Terry model gets wrong beyond
/// error marked *; a mean column.
pub fn matrix_section(names: &[String], a: &Analysis, view: View) -> String {
    let (Some(r), Some(f)) = (&a.results, &a.field) else {
        return String::new();
    };
    let order = a.order(view);
    let n = names.len();
    let mut in_cycle = vec![vec![false; n]; n];
    for c in &f.cycles {
        for k in 0..3 {
            in_cycle[c.bots[k]][c.bots[(k + 1) % 3]] = true;
        }
    }
    let mut misfit = vec![vec![false; n]; n];
    for p in f.pairs.iter().filter(|p| p.misfit) {
        misfit[p.a][p.b] = true;
        misfit[p.b][p.a] = true;
    }
    let mut h = String::from("<h2>Head to head</h2>\n<p class=\"note\">Each cell: the row's score against the column (ties half), over the games they played. Blue: the row wins; red: it loses. ↻ (outlined): a result of a cycle A &gt; B &gt; C &gt; A in which each result is significant; *: the Bradley–Terry model's prediction for the pair is wrong beyond error.</p>\n<div class=\"scroll\"><table class=\"m\"><tr><th></th>");
    for &j in &order {
        let _ = write!(h, "<th class=\"c\">{}</th>", esc(&names[j]));
    }
    h.push_str("<th class=\"c\">mean</th></tr>\n");
    for &i in &order {
        let _ = write!(h, "<tr><th class=\"l\">{}</th>", esc(&names[i]));
        let mut sum = 0.0;
        let mut k = 0;
        for &j in &order {
            let g = r.games[i][j];
            if i == j || g <= 0.0 {
                h.push_str("<td></td>");
                continue;
            }
            let s = r.score[i][j] / g;
            sum += s;
            k += 1;
            let (rgb, alpha) = if s >= 0.5 {
                ("33,102,172", (s - 0.5) * 2.0)
            } else {
                ("178,24,43", (0.5 - s) * 2.0)
            };
            let class = if in_cycle[i][j] { " class=\"cyc\"" } else { "" };
            let mark = match (in_cycle[i][j], misfit[i][j]) {
                (true, true) => "↻*",
                (true, false) => "↻",
                (false, true) => "*",
                _ => "",
            };
            let _ = write!(
                h,
                "<td{class} style=\"background:rgba({rgb},{:.2})\" title=\"{} vs {}: {:.1}% over {} games\">{:.0}{mark}</td>",
                alpha.min(1.0) * 0.8,
                esc(&names[i]),
                esc(&names[j]),
                100.0 * s,
                g,
                100.0 * s
            );
        }
        let mean = if k > 0 { sum / k as f64 } else { 0.5 };
        let _ = writeln!(h, "<td>{:.1}</td></tr>", 100.0 * mean);
    }
    h.push_str("</table></div>\n");
    h
}

/// The leaderboard as one self-contained HTML page: per scope, the
/// ratings (and the models of the run's view), and for 2 players in one
/// kingdom the head-to-head matrix with its cycles marked.
pub fn leaderboard_html(
    base: &Meta,
    games: u64,
    run: &RankTables,
    infos: &[EntrantInfo],
) -> Result<String> {
    let view = View::of_meta(base)?;
    let n = infos.len();
    let names: Vec<String> = infos.iter().map(|i| i.name.clone()).collect();
    let mut meta = base.0.clone();
    meta.push((
        format!(
            "games per {}",
            if run.players == 2 { "pair" } else { "table" }
        ),
        games.to_string(),
    ));
    let mut h = page_start("Leaderboard", &meta);
    for s in scopes(run) {
        let a = analyse(run, n, s.only)?;
        let title = match s.only {
            None => "Overall".to_string(),
            Some(k) => format!("Kingdom {}: {}", k + 1, s.kingdom),
        };
        h.push_str(&leaderboard_section(&title, &names, &a, view));
        if run.kingdoms.len() == 1 {
            h.push_str(&matrix_section(&names, &a, view));
        }
    }
    h.push_str("</body></html>\n");
    Ok(h)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dominion::matches::Stats;
    use crate::sim::shard::TableStats;

    /// A 2-player run of rock, paper, scissors and a weak fourth bot, one
    /// table per pair, from exact counts.
    fn rps_run() -> RankTables {
        let rates = [
            (0, 1, 800),
            (0, 2, 200),
            (0, 3, 900),
            (1, 2, 800),
            (1, 3, 900),
            (2, 3, 900),
        ];
        let tables = rates
            .iter()
            .map(|&(i, j, w)| {
                let mut stats = Stats {
                    games: 1000,
                    ..Default::default()
                };
                stats.entrants[0].games = 1000;
                stats.entrants[0].wins = w;
                stats.entrants[0].losses = 1000 - w;
                stats.entrants[1].games = 1000;
                stats.entrants[1].wins = 1000 - w;
                stats.entrants[1].losses = w;
                TableStats {
                    kingdom: 0,
                    members: vec![i, j],
                    stats,
                }
            })
            .collect();
        RankTables {
            players: 2,
            kingdoms: vec!["k".into()],
            tables,
        }
    }

    fn infos() -> Vec<EntrantInfo> {
        ["Rock", "Paper", "Scissors", "Weak"]
            .iter()
            .map(|n| EntrantInfo {
                name: n.to_string(),
                source: format!("{}.dom", n.to_lowercase()),
                hash: "0".into(),
            })
            .collect()
    }

    #[test]
    fn views_parse_and_bad_ones_are_named() {
        assert_eq!("ALL".parse::<View>().unwrap(), View::All);
        assert_eq!("alpha-rank".parse::<View>().unwrap(), View::AlphaRank);
        let e = "elo".parse::<View>().unwrap_err().to_string();
        assert_eq!(
            e,
            "unknown rating model 'elo': expected bt, nash, alpharank or all"
        );
        assert_eq!(View::of_meta(&Meta::default()).unwrap(), View::Bt);
    }

    /// The cyclic field's outputs: model columns in the CSV, every pair in
    /// the pairs CSV, the cycle marked in the page's matrix; `bt` keeps
    /// the columns of earlier versions.
    #[test]
    fn a_cyclic_run_is_flagged_in_every_output() {
        let run = rps_run();
        let mut base = Meta::default();
        base.push(VIEW_KEY, "nash");
        let csv = String::from_utf8(leaderboard_csv(&base, 1000, &run, &infos()).unwrap()).unwrap();
        let rows: Vec<&str> = csv.lines().filter(|l| !l.starts_with('#')).collect();
        assert!(
            rows[0].ends_with(",score,nash_weight,nash_payoff,alpharank_mass,tier,misfit_pairs"),
            "{}",
            rows[0]
        );
        assert!(rows[4].starts_with("4,Weak,"), "{csv}");
        assert!(rows[1].contains(",0.333333,0.500000,"), "{}", rows[1]);
        let pairs = String::from_utf8(pairs_csv(&base, 1000, &run, &infos()).unwrap()).unwrap();
        let prow: Vec<&str> = pairs.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(prow.len(), 7);
        assert!(
            prow[1].starts_with("Rock,Paper,1000,0.800000,"),
            "{}",
            prow[1]
        );
        let page = leaderboard_html(&base, 1000, &run, &infos()).unwrap();
        assert_eq!(
            page.matches("class=\"cyc\"").count(),
            3,
            "the cycle's three results"
        );
        assert!(page.contains("Rock &gt; Paper (80.0%) &gt; Scissors (80.0%) &gt; Rock (80.0%)"));
        assert!(page.contains("Nash mixture (maximum entropy)"));
        let bt = leaderboard_csv(&Meta::default(), 1000, &run, &infos()).unwrap();
        let bt = String::from_utf8(bt).unwrap();
        assert!(bt.lines().any(|l| l.ends_with(",games,score")), "{bt}");
        assert!(!bt.contains("nash"));
    }
}
