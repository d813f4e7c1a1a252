//! `domsim compare`: the A/B test of a card variant on common random numbers.

use super::common::{
    check_precision, check_writable, given, install_stop_handler, kingdom_config, parse_count,
    parse_seed, precision_outcome, progress_wanted, KingdomArgs, LineupConfig, RunConfig,
    ShardArgs, StrategyArgs, ThreadsArg, EXIT_INTERRUPTED, STOP,
};
use crate::dominion::kingdoms::KingdomConfig;
use crate::dominion::outputs::{version, warning};
use crate::outln;
use crate::output::Commit;
use crate::report::{AtomicFile, Meta};
use crate::sim;
use anyhow::{anyhow, bail, Result};
use clap::Args;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering;

/// `domsim compare`'s raw arguments (validated into [`CompareConfig`]).
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

/// The metadata a compare run's outputs start with (and its parts are
/// keyed by): the kingdom, the table, the card and both variants' cards.
fn compare_meta(c: &CompareConfig) -> Meta {
    let mut base = Meta::default();
    base.push("domsim_version", version());
    base.push("command", "compare");
    base.push("seed", c.run.seed);
    base.push("kingdom", c.kingdom.kingdom.describe());
    base.push("kingdom_source", &c.kingdom.how);
    base.push("players", c.players);
    base.push("card", c.card.name());
    base.push(
        "variant_a",
        c.a_files
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", "),
    );
    base.push("variant_b", &c.b_how);
    let signatures = |v: &[crate::cards::data::DataCard]| {
        v.iter()
            .map(|c| c.signature())
            .collect::<Vec<_>>()
            .join(" ; ")
    };
    base.push("variant_a_cards", signatures(&c.cards_a));
    base.push("variant_b_cards", signatures(&c.cards_b));
    base
}

fn cmd_compare(c: CompareConfig) -> Result<ExitCode> {
    use crate::cards::data;
    use crate::playtest;
    let base = compare_meta(&c);
    let CompareConfig {
        run,
        cards_a,
        cards_b,
        bind_a,
        kingdom: kc,
        lineup: LineupConfig { lineup, .. },
        card,
        html,
        precision,
        ..
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
pub(crate) fn compare_outputs(
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

/// `domsim compare`, validated: both variants' cards loaded and checked to
/// define the same cards, the kingdom and the bots resolved under variant
/// A's binding (held here; variant B binds the same names to the same
/// slots), the measured card found in the kingdom.
pub struct CompareConfig {
    /// `out` is the comparison CSV.
    pub run: RunConfig,
    pub players: usize,
    /// `--a`: variant A's card files.
    pub a_files: Vec<PathBuf>,
    pub cards_a: Vec<crate::cards::data::DataCard>,
    pub cards_b: Vec<crate::cards::data::DataCard>,
    /// How variant B was given (its files, or "variant A with CARD:FIELD=VALUE").
    pub b_how: String,
    /// Variant A's binding: kept while variant A plays, then dropped.
    pub bind_a: crate::cards::data::Binding,
    pub kingdom: KingdomConfig,
    pub lineup: LineupConfig,
    /// The card whose use is measured.
    pub card: crate::Card,
    pub html: Option<PathBuf>,
    /// `--precision`: a half-width in (0, 0.5) of the win-rate changes.
    pub precision: Option<f64>,
}

impl CompareConfig {
    pub fn from_args(a: &CompareArgs) -> Result<CompareConfig> {
        use crate::cards::data;
        let run = RunConfig::new(a.games, a.seed, &a.threads, &a.shard, a.out.as_ref());
        if let Some(p) = a.precision {
            check_precision(p)?;
        }
        run.refuse_with_shard(
            "-o and --html",
            run.out.is_some() || a.html.is_some(),
            "belong to the merged run (domsim merge PARTIAL… -o FILE.csv --html FILE.html)",
        )?;
        run.refuse_sequential_shard(a.precision.is_some())?;
        let specs = a.strategies.all();
        if !(2..=6).contains(&specs.len()) {
            bail!(
                "compare needs 2 to 6 strategies (one per seat); {} given",
                specs.len()
            );
        }
        let outs = [
            ("-o", run.out.as_deref()),
            ("--html", a.html.as_deref()),
            ("--save-partial", run.save_partial.as_deref()),
        ];
        let mut inputs: Vec<(&str, &Path)> = a.a.iter().map(|p| ("--a", p.as_path())).collect();
        inputs.extend(a.b.iter().map(|p| ("--b", p.as_path())));
        inputs.extend(specs.iter().map(|s| ("STRATEGY", Path::new(s))));
        crate::output::check_distinct(&inputs, &given(&outs))?;
        // --cards-only picks the same cards of both variants' files.
        let pick = |cards: Vec<data::DataCard>, which: &str| -> Result<Vec<data::DataCard>> {
            match &a.cards_only {
                Some(only) => data::select(cards, only).map_err(|e| anyhow!("variant {which}: {e:#}")),
                None if cards.len() > crate::cards::DATA_SLOTS => bail!(
                    "the card files of variant {which} define {} cards; at most {} can be loaded at once: choose some with --cards-only \"A,B\"",
                    cards.len(),
                    crate::cards::DATA_SLOTS
                ),
                None => Ok(cards),
            }
        };
        let cards_a = pick(data::load_files(&a.a)?, "A")?;
        let (cards_b, b_how) = match (&a.b_set, a.b.is_empty()) {
            (Some(set), _) => {
                let (card, rest) = set.rsplit_once(':').ok_or_else(|| {
                    anyhow!(
                        "--b-set {set:?}: expected CARD:FIELD=VALUE, e.g. \"Smithy Data:cost=5\""
                    )
                })?;
                let (field, value) = rest
                    .split_once('=')
                    .ok_or_else(|| anyhow!("--b-set {set:?}: expected CARD:FIELD=VALUE"))?;
                (
                    crate::playtest::modified(&cards_a, card.trim(), field.trim(), value)?,
                    format!("variant A with {set}"),
                )
            }
            (None, false) => (
                pick(data::load_files(&a.b)?, "B")?,
                a.b.iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            (None, true) => bail!("give variant B with --b FILE or --b-set CARD:FIELD=VALUE"),
        };
        let key = |v: &[data::DataCard]| -> Vec<String> {
            v.iter().map(|c| crate::cards::normalize(&c.name)).collect()
        };
        if key(&cards_a) != key(&cards_b) {
            let names = |v: &[data::DataCard]| {
                v.iter()
                    .map(|c| c.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            bail!(
                "variants A and B must define the same cards in the same order (A: {}; B: {})",
                names(&cards_a),
                names(&cards_b)
            );
        }
        if cards_a
            .iter()
            .zip(&cards_b)
            .all(|(x, y)| x.signature() == y.signature())
        {
            crate::errln!(
                "warning: variants A and B define the same cards: every difference will be 0"
            );
        }
        let players = specs.len();
        // Variant A: the kingdom, the bots and the card are resolved under
        // A's binding; B binds the same names to the same slots, so they
        // carry over.
        let bind_a = data::bind(&cards_a)?;
        let kingdom = kingdom_config(&a.kingdom, players, run.seed, &specs)?;
        let lineup = a.strategies.load(specs)?;
        let card = match &a.card {
            Some(n) => {
                crate::engine::kingdom::parse_card(n).map_err(|e| anyhow!("--card: {e}"))?
            }
            None => match bind_a.cards() {
                [one] => *one,
                many => bail!(
                    "the card files define {} cards: say which one to measure with --card (one of: {})",
                    many.len(),
                    many.iter().map(|c| c.name()).collect::<Vec<_>>().join(", ")
                ),
            },
        };
        if !kingdom.kingdom.in_game.contains(card) {
            // --random and --preset draw printed cards only (and do not
            // combine with --kingdom): the way in is a partial --kingdom
            // that --fill completes at random.
            let how = if a.kingdom.random || a.kingdom.preset.is_some() {
                format!(
                    "--random and --preset hold printed cards only: give it with --kingdom \"{card}\" --fill (the rest drawn at random from --sets)"
                )
            } else {
                "add it with --kingdom".to_string()
            };
            bail!(
                "{card} is not in the kingdom ({}): {how}",
                kingdom.kingdom.describe()
            );
        }
        // Written only after both variants have played: checked now.
        check_writable(&outs, &[&lineup])?;
        Ok(CompareConfig {
            run,
            players,
            a_files: a.a.clone(),
            cards_a,
            cards_b,
            b_how,
            bind_a,
            kingdom,
            lineup,
            card,
            html: a.html.clone(),
            precision: a.precision,
        })
    }
}

/// `domsim compare`: validate the arguments, then run.
pub fn run(a: &CompareArgs) -> Result<ExitCode> {
    cmd_compare(CompareConfig::from_args(a)?)
}
