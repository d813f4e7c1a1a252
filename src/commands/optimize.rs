//! `domsim optimize`: search a strategy template for the best bot against a field.

use super::common::{
    bot_folders, AbsentArg, check_io, check_writable, expand_specs, given, install_stop_handler, kingdom_config,
    parse_count, parse_seed, parse_two_players, progress_wanted, KingdomArgs, LineupConfig, RunConfig, ShardArgs,
    ThreadsArg, EXIT_INTERRUPTED, STOP,
};
use crate::dominion::kingdoms::KingdomConfig;
use crate::dominion::outputs::{base_meta, push_entrants, version};
use crate::optimize::{Budget, Template};
use crate::output::Commit;
use crate::report::AtomicFile;
use crate::sim;
use crate::dominion::lineup::{self, Lineup};
use crate::{out, outln};
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `domsim optimize`'s raw arguments (validated into [`OptimizeConfig`]).
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
    #[command(flatten)]
    pub absent: AbsentArg,
    /// Players per game: 2 (the only count: the search rests on a
    /// 2-player payoff matrix; for 3–6 players, `domsim rank -p N` rates a
    /// field).
    #[arg(long = "players", short = 'p', value_name = "N", default_value_t = 2, value_parser = parse_two_players, allow_negative_numbers = true)]
    pub players: u8,
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

/// A template's best bot on the console: its parameters, its search
/// score, and its confirmation on fresh seeds, overall and per opponent.
fn print_found(
    t: &Template,
    obj: &crate::optimize::TemplateObjective,
    found: &crate::optimize::Found,
    confirm: u64,
    field: &Lineup,
) -> Result<()> {
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
        confirm,
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
    Ok(())
}

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
        print_found(t, &obj, &found, budget.confirm, &field)?;
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
    let out_dirs = bot_folders(bot.as_deref());
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

/// `domsim optimize`, validated: the templates read and parsed, the field
/// loaded, the kingdom chosen.
#[derive(Debug)]
pub struct OptimizeConfig {
    /// `games` is the first level's games per opponent (as in `budget`); `out`
    /// is the search CSV; no shard.
    pub run: RunConfig,
    /// `--auto`: every shipped template, skipping those that do not fit.
    pub auto: bool,
    pub templates: Vec<Template>,
    /// The opponents (folders expanded; default BMU).
    pub field: LineupConfig,
    pub kingdom: KingdomConfig,
    pub budget: Budget,
    /// `--bot FILE.dom`: where the best bot goes (else standard output).
    pub bot: Option<PathBuf>,
}

/// The shipped templates (`strategies/templates/*.domt`), sorted.
pub(crate) fn shipped_templates() -> Result<Vec<String>> {
    let dir = lineup::shipped("templates/README.md")
        .and_then(|p| p.parent().map(|d| d.to_path_buf()))
        .ok_or_else(|| anyhow!("the shipped templates (strategies/templates/) are not found"))?;
    let mut v: Vec<String> = std::fs::read_dir(&dir)
        .with_context(|| format!("cannot read '{}'", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "domt"))
        .map(|p| p.display().to_string())
        .collect();
    v.sort();
    Ok(v)
}

impl OptimizeConfig {
    pub fn from_args(a: &OptimizeArgs) -> Result<OptimizeConfig> {
        let run = RunConfig::new(
            a.games,
            a.seed,
            &a.threads,
            &ShardArgs::default(),
            a.out.as_ref(),
        );
        // --max-games caps what a candidate plays during the search, and a
        // first-level candidate already plays -n games: a cap below that
        // would silently be -n.
        if a.max_games < a.games {
            bail!(
                "--max-games {} is below -n {}: every candidate plays at least -n games per opponent, so --max-games (default 32400) must be at least -n",
                a.max_games,
                a.games
            );
        }
        let templates = match (&a.template, a.auto) {
            (Some(_), true) => bail!("give a TEMPLATE or --auto, not both"),
            (None, false) => {
                bail!("give a strategy TEMPLATE (e.g. strategies/templates/money_draw.domt) or --auto")
            }
            (Some(t), false) => vec![t.clone()],
            (None, true) => shipped_templates()?,
        };
        let against = if a.against.is_empty() {
            vec![lineup::shipped("big_money_ultimate.dom")
                .ok_or_else(|| {
                    anyhow!("strategies/big_money_ultimate.dom not found; give --against")
                })?
                .display()
                .to_string()]
        } else {
            expand_specs(&a.against)?
        };
        let mut ins = against.clone();
        ins.extend(templates.iter().cloned());
        let outs = [("--bot", a.bot.as_deref()), ("-o", run.out.as_deref())];
        check_io(&ins, &outs)?;
        let kingdom = kingdom_config(&a.kingdom, 2, run.seed, &against)?;
        let mut field = LineupConfig::load(against)?;
        a.absent
            .apply(&mut field, &[kingdom.kingdom], 1, "an optimization")?;
        // Templates: read and parse them all before any game.
        let mut parsed = Vec::new();
        for t in &templates {
            let text = crate::output::read_input(Path::new(t), "template")?;
            parsed.push(Template::parse(&text, t)?);
        }
        check_writable(&outs, &[&field])?;
        // A template's bots read the files its `extends:` names (and what
        // those extend): inputs too, which --bot and -o must not overwrite.
        let mut bases: Vec<(&str, PathBuf)> = Vec::new();
        for t in &parsed {
            let Ok(domains) = t.domains(&kingdom.kingdom) else {
                continue;
            };
            let first: Vec<_> = domains.iter().filter_map(|d| d.first().copied()).collect();
            if first.len() != domains.len() {
                continue;
            }
            if let Ok(st) = crate::strategy::parse(&t.render(&first), &t.file) {
                bases.extend(
                    st.files
                        .iter()
                        .skip(1)
                        .map(|f| ("strategy file extended by the template", PathBuf::from(f))),
                );
            }
        }
        let bases: Vec<(&str, &Path)> = bases.iter().map(|(w, p)| (*w, p.as_path())).collect();
        crate::output::check_distinct(&bases, &given(&outs))?;
        Ok(OptimizeConfig {
            run,
            auto: a.auto,
            templates: parsed,
            field,
            kingdom,
            budget: Budget {
                candidates: a.candidates as usize,
                games: a.games,
                max_games: a.max_games,
                refine: 3,
                confirm: a.confirm,
            },
            bot: a.bot.clone(),
        })
    }
}

/// `domsim optimize`: validate the arguments, then run.
pub fn run(a: &OptimizeArgs) -> Result<ExitCode> {
    cmd_optimize(OptimizeConfig::from_args(a)?)
}
