//! `domsim best`: the best bot of a kingdom's field — rank the fitting
//! field, search best responses to its Nash mixture (PSRO), gate the
//! result on fresh seeds, write the bot and its page.

use super::common::{
    bot_folders, AbsentArg, check_io, check_writable, expand_specs, install_stop_handler, kingdom_config,
    parse_count, parse_seed, parse_two_players, progress_wanted, KingdomArgs, LineupConfig, ThreadsArg,
    EXIT_INTERRUPTED, STOP,
};
use super::optimize::shipped_templates;
use crate::dominion::kingdoms::KingdomConfig;
use crate::dominion::lineup::{self, Loaded};
use crate::dominion::outputs::version;
use crate::optimize::oracle::DominionOracle;
use crate::optimize::psro::{self, Gate, Verdict};
use crate::optimize::{Budget, Template, GATE_SALT};
use crate::output::Commit;
use crate::rank::leaderboard::{self as lb, esc, View};
use crate::rank::Results;
use crate::report::{AtomicFile, EntrantInfo};
use crate::sim;
use crate::{errln, out, outln};
use anyhow::{anyhow, bail, Result};
use clap::Args;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `domsim best`'s raw arguments (validated into [`BestConfig`]).
#[derive(Args, Debug, Clone)]
pub struct BestArgs {
    #[command(flatten)]
    pub kingdom: KingdomArgs,
    #[command(flatten)]
    pub absent: AbsentArg,
    /// Players per game: 2 (the only count: the search rests on a
    /// 2-player payoff matrix; for 3–6 players, `domsim rank -p N` rates a
    /// field).
    #[arg(long = "players", short = 'p', value_name = "N", default_value_t = 2, value_parser = parse_two_players, allow_negative_numbers = true)]
    pub players: u8,
    /// More members of the field (strategy files, folders of them, or
    /// builtin:big-money), beside the shipped bots that fit the kingdom.
    #[arg(long = "against", short = 'a', value_name = "STRATEGY")]
    pub against: Vec<String>,
    /// The field is the --against bots only (not the shipped bots).
    #[arg(long, requires = "against")]
    pub no_shipped: bool,
    /// Templates to search (default: every shipped template of
    /// strategies/templates/ that fits the kingdom).
    #[arg(long = "template", short = 't', value_name = "TEMPLATE")]
    pub templates: Vec<String>,
    /// Run seed (the field's games, the searches and the gate are drawn from it).
    #[arg(long, default_value_t = 1, value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: u64,
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// Games per pair of the population's matrix (the field's round robin
    /// and each found bot against every member).
    #[arg(long, short = 'n', default_value_t = 2_000, value_parser = parse_count, allow_negative_numbers = true)]
    pub games: u64,
    /// Games of the gate against each field member (fresh seeds).
    #[arg(long, default_value_t = 10_000, value_parser = parse_count, allow_negative_numbers = true)]
    pub gate_games: u64,
    /// Most best responses of PSRO (each one searches every fitting template).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..=50))]
    pub iterations: u64,
    /// PSRO stops when a best response scores less than 50% + this many
    /// points against the mixture.
    #[arg(long, value_name = "POINTS", default_value_t = 1.0, value_parser = parse_points)]
    pub min_gain: f64,
    /// Each template search: candidates at the first level.
    #[arg(long, default_value_t = 24, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub candidates: u64,
    /// Each template search: games per opponent of a first-level candidate.
    #[arg(long, default_value_t = 200, value_parser = parse_count, allow_negative_numbers = true)]
    pub search_games: u64,
    /// Each template search: most games per opponent of a candidate (at
    /// least --search-games; a refinement race plays 3 times this).
    #[arg(long, default_value_t = 2_700, value_parser = parse_count, allow_negative_numbers = true)]
    pub max_games: u64,
    /// Each template search: confirmation games per opponent (fresh seeds).
    #[arg(long, default_value_t = 4_000, value_parser = parse_count, allow_negative_numbers = true)]
    pub confirm: u64,
    /// Write the best bot here (a commented strategy file); default: print it.
    #[arg(long, value_name = "FILE.dom")]
    pub bot: Option<PathBuf>,
    /// The page: the verdict, the gate, the leaderboard of the field plus
    /// the found bot by both models, the matrix with its cycles marked and
    /// the bot's file.
    #[arg(long, value_name = "FILE.html")]
    pub html: Option<PathBuf>,
}

/// Score points (0 to 50), e.g. 1 for one point above 50%.
fn parse_points(s: &str) -> std::result::Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && (0.0..=50.0).contains(&x) => Ok(x),
        _ => Err(format!(
            "'{s}' is not a gain in score points (0 to 50, e.g. 1)"
        )),
    }
}

/// `domsim best`, validated.
pub struct BestConfig {
    pub kingdom: KingdomConfig,
    /// The field: the shipped bots that fit and the --against bots.
    pub field: LineupConfig,
    pub templates: Vec<Template>,
    pub seed: u64,
    pub threads: usize,
    pub games: u64,
    pub gate_games: u64,
    pub iterations: usize,
    pub min_gain: f64,
    pub budget: Budget,
    pub bot: Option<PathBuf>,
    pub html: Option<PathBuf>,
}

impl BestConfig {
    pub fn from_args(a: &BestArgs) -> Result<BestConfig> {
        if a.max_games < a.search_games {
            bail!(
                "--max-games {} is below --search-games {}: every candidate plays at least --search-games games per opponent",
                a.max_games,
                a.search_games
            );
        }
        let against = expand_specs(&a.against)?;
        let shipped: Vec<String> = if a.no_shipped {
            Vec::new()
        } else {
            let dir = lineup::shipped("big_money.dom")
                .and_then(|p| p.parent().map(Path::to_path_buf))
                .ok_or_else(|| {
                    anyhow!("the shipped strategies (strategies/) are not found: give the field with --against and --no-shipped")
                })?;
            expand_specs(&[dir.display().to_string()])?
        };
        let templates = if a.templates.is_empty() {
            shipped_templates()?
        } else {
            a.templates.clone()
        };
        let mut ins = against.clone();
        ins.extend(templates.iter().cloned());
        let outs = [("--bot", a.bot.as_deref()), ("--html", a.html.as_deref())];
        check_io(&ins, &outs)?;
        let kingdom = kingdom_config(&a.kingdom, 2, a.seed, &against)?;
        let mut parsed = Vec::new();
        for t in &templates {
            let text = crate::output::read_input(Path::new(t), "template")?;
            parsed.push(Template::parse(&text, t)?);
        }
        // The shipped bots that fit: every card they name is in the kingdom,
        // and some card of it has each type they name.
        let mut specs = Vec::new();
        for s in &shipped {
            let (_, l) = lineup::load(s)?;
            let lone = lineup::Lineup::from_entrants(vec![(
                EntrantInfo {
                    name: String::new(),
                    source: s.clone(),
                    hash: String::new(),
                },
                l,
            )]);
            let k = lone.kingdom_for(&kingdom.kingdom);
            lone.compile(&k)?;
            if lone.absent_cards(&k).iter().all(Vec::is_empty) {
                specs.push(s.clone());
            }
        }
        specs.extend(against);
        if specs.is_empty() {
            bail!(
                "no shipped bot fits this kingdom ({}): give the field with --against",
                kingdom.kingdom.describe()
            );
        }
        if specs.len() > 200 {
            bail!("at most 200 bots in the field ({} given)", specs.len());
        }
        let mut field = LineupConfig::load(specs)?;
        a.absent
            .apply(&mut field, &[kingdom.kingdom], 1, "the field of `best`")?;
        check_writable(&outs, &[&field])?;
        Ok(BestConfig {
            kingdom,
            field,
            templates: parsed,
            seed: a.seed,
            threads: a.threads.threads.unwrap_or(0) as usize,
            games: a.games,
            gate_games: a.gate_games,
            iterations: a.iterations as usize,
            min_gain: a.min_gain / 100.0,
            budget: Budget {
                candidates: a.candidates as usize,
                games: a.search_games,
                max_games: a.max_games,
                refine: 2,
                confirm: a.confirm,
            },
            bot: a.bot.clone(),
            html: a.html.clone(),
        })
    }
}

/// `domsim best`: validate the arguments, then run.
pub fn run(a: &BestArgs) -> Result<ExitCode> {
    let c = BestConfig::from_args(a)?;
    install_stop_handler();
    let pool = sim::pool(c.threads)?;
    match pool.install(|| cmd_best(&c)) {
        Err(_) if STOP.load(std::sync::atomic::Ordering::Relaxed) => {
            errln!("interrupted: no file written");
            Ok(ExitCode::from(EXIT_INTERRUPTED))
        }
        r => r,
    }
}

/// The gated candidate: its index in the population, its results against
/// each field member on the gate's seeds, the gate's report.
type Gated = (usize, Vec<(f64, f64)>, Gate);

/// The bot `best` returns and what it knows of it.
struct Answer {
    name: String,
    text: String,
    verdict: String,
}

fn cmd_best(c: &BestConfig) -> Result<ExitCode> {
    let bot_file = c.bot.as_deref().map(AtomicFile::create).transpose()?;
    let html_file = c.html.as_deref().map(AtomicFile::create).transpose()?;
    let started = std::time::Instant::now();
    let k = &c.kingdom.kingdom;
    let field = c.field.lineup.entrants.clone();
    let n = field.len();
    let names: Vec<String> = field.iter().map(|e| e.0.name.clone()).collect();
    outln!("2 players, kingdom ({}): {}", c.kingdom.how, k.describe());
    outln!("field ({n} bots that fit the kingdom): {}", names.join(", "));
    let say = |s: &str| errln!("{s}");
    let mut oracle = DominionOracle::new(
        k,
        &c.templates,
        field,
        c.seed,
        c.games,
        c.budget,
        &STOP,
        &say,
    );
    oracle.bars = progress_wanted();

    // 1. The field.
    errln!(
        "ranking the field: {} pairs × {} games",
        n * (n - 1) / 2,
        c.games
    );
    let field_results = psro::round_robin(&mut oracle, n)?;
    let field_view = lb::analyse_results(field_results.clone());
    outln!("\nthe field ({} games per pair, seed {}):", c.games, c.seed);
    out!("{}", lb::table_text(&names, &field_view, View::All));
    out!("\n{}", lb::diagnostics_text(&names, &field_view, View::All, 5));

    // 2. PSRO.
    let p = psro::psro(&mut oracle, n, c.iterations, c.min_gain)?;
    errln!("PSRO stopped: {}", p.stopped);
    outln!("\nPSRO ({}):", p.stopped);
    for (i, s) in p.steps.iter().enumerate() {
        outln!(
            "  best response {}: {:.1}% against the mixture of {} bots{}",
            i + 1,
            100.0 * s.payoff,
            s.population,
            if s.added { " (joins)" } else { " (no gain: stops)" }
        );
    }
    // The candidate: the found bot first by Nash averaging in the final
    // population, else the last best response.
    let pop = p.results.games.len();
    let candidate = p
        .nash
        .order()
        .into_iter()
        .find(|&i| i >= n && i < pop)
        .or_else(|| oracle.found.last().map(|f| f.member));

    // 3. The gate, on fresh seeds.
    let gate_seed = c.seed ^ GATE_SALT;
    let mut gate = None;
    if let Some(cand) = candidate {
        errln!(
            "gate: {} against each of the {n} field members, {} fresh games each (seed {gate_seed})",
            oracle.population[cand].0.name,
            c.gate_games
        );
        let vs: Vec<(f64, f64)> = (0..n)
            .map(|j| oracle.play_on(cand, j, gate_seed, c.gate_games))
            .collect::<Result<_>>()?;
        let g = psro::judge(&field_results, &vs)?;
        gate = Some((cand, vs, g));
    }
    let field_best = field_view
        .field
        .as_ref()
        .map_or_else(|| lb::bt_order(&field_view.ratings)[0], |f| f.order(crate::rank::models::Model::Nash)[0]);
    let answer = answer(c, &oracle, &names, gate.as_ref(), field_best, gate_seed)?;
    if let Some((cand, _, g)) = &gate {
        print_gate(&names, &oracle.population[*cand].0.name, g, c.gate_games)?;
    } else {
        outln!("\nno template found a valid bot in this kingdom");
    }
    outln!("\n{}", answer.verdict);
    let secs = started.elapsed().as_secs_f64();
    outln!("{} games in {secs:.1} s", oracle.played);

    let mut outs = Commit::new();
    if let Some(f) = html_file {
        let page = best_page(c, &oracle, &names, &field_results, gate.as_ref(), &p, &answer);
        outs.add(f, page)?;
    }
    match bot_file {
        Some(f) => outs.add(f, &answer.text)?,
        None => out!("\n{}", answer.text),
    }
    outs.commit()?;
    Ok(ExitCode::SUCCESS)
}

/// The bot to return, its file and the verdict line.
fn answer(
    c: &BestConfig,
    oracle: &DominionOracle,
    names: &[String],
    gate: Option<&Gated>,
    field_best: usize,
    gate_seed: u64,
) -> Result<Answer> {
    let k = &c.kingdom.kingdom;
    let dirs = bot_folders(c.bot.as_deref());
    let dirs: Vec<&Path> = dirs.iter().map(PathBuf::as_path).collect();
    let mut header = vec![
        format!("Written by domsim {} best", version()),
        format!("kingdom ({}): {}", c.kingdom.how, k.describe()),
        format!(
            "field: {}",
            c.field.lineup.entrants.iter().map(|e| e.0.source.clone()).collect::<Vec<_>>().join(", ")
        ),
        format!(
            "seed {}: the field's matrix at {} games per pair; PSRO over the templates {}",
            c.seed,
            c.games,
            c.templates.iter().map(|t| t.file.clone()).collect::<Vec<_>>().join(", ")
        ),
    ];
    let returned_field = |why: String, header: &mut Vec<String>| -> Result<Answer> {
        let (info, l) = &oracle.population[field_best];
        header.push(format!("NOT a new bot: {why}"));
        header.push(format!(
            "returned: the field's best by Nash averaging, {} ({})",
            info.name, info.source
        ));
        let body = match l {
            Loaded::File(_) => {
                let src = Path::new(&info.source);
                crate::optimize::rebase_extends(
                    &crate::output::read_input(src, "strategy")?,
                    src.parent().unwrap_or(Path::new("")),
                    &dirs,
                )
            }
            _ => format!("# {} has no strategy file\n", info.source),
        };
        let mut text = String::new();
        for h in header.iter() {
            let _ = writeln!(text, "# {h}");
        }
        text.push('\n');
        text.push_str(&body);
        Ok(Answer {
            name: info.name.clone(),
            text,
            verdict: format!(
                "NOT BEST: {why}. The best bot of this field is {} ({}), by Nash averaging.",
                info.name, info.source
            ),
        })
    };
    let Some((cand, _, g)) = gate else {
        return returned_field("no template found a valid bot in this kingdom".into(), &mut header);
    };
    let f = oracle
        .found
        .iter()
        .find(|f| f.member == *cand)
        .ok_or_else(|| anyhow!("internal: candidate {cand} is not a found bot"))?;
    let t = &c.templates[f.template];
    header.push(format!("template {}: {}", t.file, f.params));
    header.push(format!(
        "gate on fresh seeds (seed {gate_seed}, {} games against each field member): {:.1}% against the field's Nash mixture; rank {} of {} by Nash averaging in the field plus itself",
        c.gate_games,
        100.0 * g.payoff_vs_field_nash,
        g.rank,
        names.len() + 1
    ));
    let name = oracle.population[*cand].0.name.clone();
    match &g.verdict {
        Verdict::NotBest { reason } => {
            returned_field(format!("the found bot {name} is not the best of the field: {reason}"), &mut header)
        }
        v => {
            let verdict = match v {
                Verdict::BestInCycle { beaten_by, .. } => format!(
                    "BEST by Nash averaging, in a cycle: {name} scores {:.1}% against the field's Nash mixture and ranks first, but {} beat{} it beyond error",
                    100.0 * g.payoff_vs_field_nash,
                    beaten_by.iter().map(|&j| names[j].clone()).collect::<Vec<_>>().join(", "),
                    if beaten_by.len() == 1 { "s" } else { "" }
                ),
                _ => format!(
                    "BEST: {name} scores {:.1}% against the field's Nash mixture, ranks first by Nash averaging and no field member beats it beyond error",
                    100.0 * g.payoff_vs_field_nash
                ),
            };
            header.push(format!("verdict: {verdict}"));
            Ok(Answer {
                name,
                text: oracle.bot_text(f, &header, &dirs),
                verdict,
            })
        }
    }
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// The gate on the console.
fn print_gate(names: &[String], cand: &str, g: &Gate, games: u64) -> Result<()> {
    outln!("\ngate ({cand} on fresh seeds, {games} games against each member):");
    let header: Vec<String> = ["field member", "Nash weight", "score", "95% CI"]
        .map(String::from)
        .to_vec();
    let body: Vec<Vec<String>> = g
        .vs
        .iter()
        .map(|v| {
            vec![
                names[v.member].clone(),
                pct(g.field_nash.weights[v.member]),
                pct(v.score),
                format!("{} … {}", pct(v.lo), pct(v.hi)),
            ]
        })
        .collect();
    out!("{}", crate::report::format_table(&header, &body));
    let n = names.len();
    outln!(
        "score against the field's Nash mixture {}; Nash-averaged payoff in the field plus itself {} (rank {} of {})",
        pct(g.payoff_vs_field_nash),
        pct(g.nash.payoff[n]),
        g.rank,
        n + 1
    );
    Ok(())
}

/// The page of `best`.
fn best_page(
    c: &BestConfig,
    oracle: &DominionOracle,
    names: &[String],
    field_results: &Results,
    gate: Option<&Gated>,
    p: &psro::Psro,
    answer: &Answer,
) -> String {
    let meta = vec![
        ("domsim_version".to_string(), version()),
        ("command".into(), "best".into()),
        ("kingdom".into(), c.kingdom.kingdom.describe()),
        ("kingdom_source".into(), c.kingdom.how.clone()),
        ("seed".into(), c.seed.to_string()),
        ("games per pair".into(), c.games.to_string()),
        ("gate games per member".into(), c.gate_games.to_string()),
    ];
    let mut h = lb::page_start("The best bot of the field", &meta);
    let _ = writeln!(h, "<p class=\"verdict\">{}</p>", esc(&answer.verdict));
    if let Some((cand, vs, g)) = gate {
        let cname = &oracle.population[*cand].0.name;
        let _ = write!(
            h,
            "<h2>The gate</h2>\n<p class=\"note\">{} against every field member on fresh seeds: score {} against the field's Nash mixture; Nash-averaged payoff {} in the field plus itself, rank {} of {}.</p>\n<table><tr><th class=\"l\">field member</th><th>Nash weight</th><th>score</th><th>95% interval</th></tr>\n",
            esc(cname),
            pct(g.payoff_vs_field_nash),
            pct(g.nash.payoff[names.len()]),
            g.rank,
            names.len() + 1
        );
        for v in &g.vs {
            let _ = writeln!(
                h,
                "<tr><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{} … {}</td></tr>",
                esc(&names[v.member]),
                pct(g.field_nash.weights[v.member]),
                pct(v.score),
                pct(v.lo),
                pct(v.hi)
            );
        }
        h.push_str("</table>\n");
        let all = psro::with_candidate(field_results, vs);
        let mut all_names = names.to_vec();
        all_names.push(cname.clone());
        let a = lb::analyse_results(all);
        h.push_str(&lb::leaderboard_section(
            "The field plus the found bot (its games: the gate's)",
            &all_names,
            &a,
            View::All,
        ));
        h.push_str(&lb::matrix_section(&all_names, &a, View::All));
    } else {
        let a = lb::analyse_results(field_results.clone());
        h.push_str(&lb::leaderboard_section("The field", names, &a, View::All));
        h.push_str(&lb::matrix_section(names, &a, View::All));
    }
    let _ = write!(
        h,
        "<h2>The search (PSRO)</h2>\n<p class=\"note\">{}</p>\n<table><tr><th>best response</th><th class=\"l\">bot</th><th class=\"l\">parameters</th><th>against the mixture</th><th>population</th><th>joined</th></tr>\n",
        esc(&p.stopped)
    );
    for (i, (s, f)) in p.steps.iter().zip(&oracle.found).enumerate() {
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td class=\"l\">{}</td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            i + 1,
            esc(&oracle.population[f.member].0.name),
            esc(&format!("{}: {}", c.templates[f.template].file, f.params)),
            pct(s.payoff),
            s.population,
            if s.added { "yes" } else { "no" }
        );
    }
    h.push_str("</table>\n");
    let _ = write!(
        h,
        "<h2>The bot file: {}</h2>\n<pre class=\"bot\">{}</pre>\n</body></html>\n",
        esc(&answer.name),
        esc(&answer.text)
    );
    h
}
