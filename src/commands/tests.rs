//! Unit tests of the validation: every `from_args` of the verbs, and the
//! shared kingdom, lineup and output checks.

use super::check::*;
use super::common::*;
use super::compare::*;
use super::log::*;
use super::matrix::*;
use super::merge::*;
use super::optimize::*;
use super::rank::*;
use super::report::*;
use super::sim::*;
use super::sweep::*;
use super::{Cli, Command};
use crate::dominion::kingdoms::*;
use crate::dominion::lineup;
use crate::dominion::matches;
use crate::dominion::presets::Preset;
use crate::sim;
use anyhow::Result;
use clap::Parser;

const BM: &str = "builtin:big-money";

/// The verb clap parses from `domsim ARGS…` (clap's own checks pass).
fn parse(args: &[&str]) -> Command {
    Cli::try_parse_from(std::iter::once("domsim").chain(args.iter().copied()))
        .unwrap_or_else(|e| panic!("{args:?}: clap refused: {e}"))
        .cmd
}

/// The message of a refused configuration.
fn refused<T>(r: Result<T>) -> String {
    match r {
        Ok(_) => panic!("accepted, expected an error"),
        Err(e) => format!("{e:#}"),
    }
}

/// Refused with a message that starts with `start`.
#[track_caller]
fn refused_with<T>(r: Result<T>, start: &str) {
    let e = refused(r);
    assert!(e.starts_with(start), "expected {start:?}…, got: {e}");
}

/// Refused with a message that names `what` (a file, an option).
#[track_caller]
fn refused_naming<T>(r: Result<T>, what: &str) {
    let e = refused(r);
    assert!(
        e.contains(what),
        "expected a message naming {what:?}, got: {e}"
    );
}

/// `fn verb(args) -> Result<Config>`: parse `domsim verb ARGS…` and
/// validate it.
macro_rules! verb {
    ($($f:ident: $name:literal, $variant:ident => $config:ty;)*) => {$(
        fn $f(args: &[&str]) -> Result<$config> {
            match parse(&[&[$name], args].concat()) {
                Command::$variant(a) => <$config>::from_args(&a),
                _ => unreachable!(),
            }
        }
    )*};
}
verb! {
    sim: "sim", Sim => SimConfig;
    matrix: "matrix", Matrix => MatrixConfig;
    sweep: "sweep", Sweep => SweepConfig;
    rank: "rank", Rank => RankConfig;
}

fn kingdom(args: &[&str], players: usize) -> Result<KingdomConfig> {
    match parse(&[&["kingdom"], args].concat()) {
        Command::Kingdom(a) => kingdom_config(&a.kingdom, players, a.seed, &[]),
        _ => unreachable!(),
    }
}

fn tmp(dir: &tempfile::TempDir, name: &str) -> String {
    dir.path().join(name).display().to_string()
}

#[test]
fn run_config_slices_a_shard_and_builds_the_runner_config() {
    let d = tempfile::tempdir().unwrap();
    let part = tmp(&d, "p.json");
    let c = sim(&[
        BM,
        BM,
        "-n",
        "10",
        "--seed",
        "7",
        "-j",
        "3",
        "--shard",
        "2/4",
        "--save-partial",
        &part,
    ])
    .unwrap();
    assert_eq!(c.run.slice(), (2, 3));
    let r = c.run.runner(false, None);
    assert_eq!((r.first, r.games, r.seed, r.threads), (2, 3, 7, 3));
    let whole = sim(&[BM, BM, "-n", "10"]).unwrap();
    assert_eq!(whole.run.slice(), (0, 10));
    assert_eq!(whole.run.threads, 0, "no -j: one thread per core");
}

#[test]
fn kingdom_preset_default_and_did_you_mean() {
    let k = kingdom(&[], 2).unwrap();
    assert_eq!(k.how, "preset First Game");
    let e = refused(kingdom(&["--preset", "First Gam"], 2));
    assert!(
        e.contains("--preset: unknown preset") && e.contains("did you mean 'First Game'"),
        "{e}"
    );
}

#[test]
fn kingdom_card_list_rules() {
    let k = kingdom(&["--kingdom", "Village, Smithy"], 3).unwrap();
    assert_eq!(k.kingdom.n(), 3);
    assert!(
        k.how.starts_with("partial list: 2 of 10 piles"),
        "{}",
        k.how
    );
    let e = refused(kingdom(&["--kingdom", "Village,Smithee"], 2));
    assert!(
        e.contains("--kingdom: unknown card 'Smithee' (did you mean 'Smithy'?)"),
        "{e}"
    );
    let eleven = "Cellar,Chapel,Moat,Village,Smithy,Festival,Market,Laboratory,Mine,Witch,Workshop";
    refused_naming(
        kingdom(&["--kingdom", eleven], 2),
        "at most 10 piles; 11 were given",
    );
    refused_naming(
        kingdom(&["--kingdom", "Village,Village"], 2),
        "'Village' is listed twice",
    );
}

#[test]
fn kingdom_random_fill_seed_and_shelters() {
    let a = kingdom(&["--random", "--sets", "base,intrigue", "--seed", "5"], 2).unwrap();
    let b = kingdom(
        &["--random", "--sets", "base,intrigue", "--kingdom-seed", "5"],
        2,
    )
    .unwrap();
    assert_eq!(
        a.kingdom.describe(),
        b.kingdom.describe(),
        "--seed is the default --kingdom-seed"
    );
    assert_eq!(a.how, "random sets=base,intrigue kingdom_seed=5");
    refused_naming(
        kingdom(&["--random", "--sets", ""], 2),
        "--sets: no card set given",
    );
    refused_with(kingdom(&["--random", "--sets", "bsae"], 2), "--sets: ");
    let e = refused(kingdom(
        &["--preset", "First Game", "--kingdom-seed", "3"],
        2,
    ));
    assert_eq!(e, "--kingdom-seed goes with --random or --fill");
    let f = kingdom(
        &["--kingdom", "Village", "--fill", "--kingdom-seed", "3"],
        2,
    )
    .unwrap();
    assert_eq!(f.kingdom.kingdom_cards().len(), 10);
    assert!(
        f.how.contains("by --fill sets=base kingdom_seed=3"),
        "{}",
        f.how
    );
    let on = kingdom(&["--shelters", "on"], 2).unwrap();
    assert_eq!(on.kingdom.shelters, Some(true));
    assert!(on.how.ends_with("; Shelters forced on"));
    assert!(on.flags().ends_with(" --shelters on"), "{}", on.flags());
    assert_eq!(kingdom(&[], 2).unwrap().kingdom.shelters, None);
}

#[test]
fn kingdom_list_from_random_or_file() {
    let l = KingdomList::from_args((Some(3), "--random"), "base", None, 1, 2).unwrap();
    assert_eq!(l.kingdoms.len(), 3);
    assert_eq!(l.how, "random sets=base count=3");
    let e = refused(KingdomList::from_args(
        (None, "--random"),
        "base",
        None,
        1,
        2,
    ));
    assert_eq!(e, "give --random N or --kingdoms FILE");
    refused_naming(
        KingdomList::from_args((Some(10_000_001), "--random"), "base", None, 1, 2),
        "at most 10000000 kingdoms",
    );
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("k.txt");
    let ten = "Cellar,Chapel,Moat,Village,Smithy,Festival,Market,Laboratory,Mine,Witch";
    std::fs::write(&f, format!("# two kingdoms\n{ten}\n\n{ten} # again\n")).unwrap();
    let l = KingdomList::from_args((None, "--random"), "base", Some(&f), 1, 2).unwrap();
    assert_eq!(l.kingdoms.len(), 2);
    assert!(
        l.how.starts_with("file ") && l.how.contains("k.txt (2 kingdoms, contents "),
        "{}",
        l.how
    );
    let typo = ten.replace("Smithy", "Smitty");
    std::fs::write(&f, format!("{ten}\n{typo}\n")).unwrap();
    let e = refused(KingdomList::from_args(
        (None, "--random"),
        "base",
        Some(&f),
        1,
        2,
    ));
    assert!(
        e.contains("k.txt:2:") && e.contains("did you mean 'Smithy'"),
        "{e}"
    );
    std::fs::write(&f, "Village, Smithy\n").unwrap();
    let e = refused(KingdomList::from_args(
        (None, "--random"),
        "base",
        Some(&f),
        1,
        2,
    ));
    assert!(
        e.contains("k.txt:1:") && e.contains("exactly 10 piles"),
        "{e}"
    );
    std::fs::write(&f, "# nothing\n").unwrap();
    let e = refused(KingdomList::from_args(
        (None, "--random"),
        "base",
        Some(&f),
        1,
        2,
    ));
    assert!(e.ends_with("no kingdom in the file"), "{e}");
    assert_ne!(kingdom_seed(1, 0), kingdom_seed(1, 1));
    assert_ne!(kingdom_seed(1, 0), kingdom_seed(2, 0));
}

#[test]
fn seats_are_filled_and_too_many_strategies_refused() {
    let (specs, p) = seat_specs(&[BM.into()], Some(3)).unwrap();
    assert_eq!((specs.len(), p), (3, 3));
    let (specs, p) = seat_specs(&[], None).unwrap();
    assert_eq!((specs.len(), p), (2, 2), "default lineup: two seats");
    let three = vec![BM.to_string(); 3];
    refused_with(
        seat_specs(&three, Some(2)),
        "3 strategies for 2 players: give at most one strategy per seat",
    );
    refused_naming(sim(&[BM, BM, BM, "-p", "2"]), "3 strategies for 2 players");
}

#[test]
fn folders_expand_to_their_strategy_files() {
    let d = tempfile::tempdir().unwrap();
    refused_naming(
        expand_specs(&[d.path().display().to_string()]),
        "holds no .dom strategy file",
    );
    std::fs::write(d.path().join("b.dom"), "buy: Gold\n").unwrap();
    std::fs::write(d.path().join("a.dom"), "buy: Gold\n").unwrap();
    std::fs::write(d.path().join("notes.txt"), "").unwrap();
    let v = expand_specs(&[d.path().display().to_string(), BM.into()]).unwrap();
    assert_eq!(v.len(), 3);
    assert!(v[0].ends_with("a.dom") && v[1].ends_with("b.dom") && v[2] == BM);
}

#[test]
fn sim_precision_range() {
    assert_eq!(
        sim(&[BM, BM, "--precision", "0.01"])
            .unwrap()
            .playtest
            .precision,
        Some(0.01)
    );
    for bad in ["0", "0.5", "-0.1", "NaN"] {
        let e = refused(sim(&[BM, BM, "--precision", bad]));
        assert!(
            e.contains("is out of range (expected a half-width between 0 and 0.5"),
            "{bad}: {e}"
        );
    }
}

#[test]
fn sim_impossible_combinations() {
    let d = tempfile::tempdir().unwrap();
    let (out, part, ck, rep, games) = (
        tmp(&d, "o.csv"),
        tmp(&d, "p.json"),
        tmp(&d, "c.ck"),
        tmp(&d, "r.html"),
        tmp(&d, "g.csv"),
    );
    let shard = ["--shard", "1/2", "--save-partial", part.as_str()];
    refused_with(sim(&[&[BM, BM, "-o", &out], &shard[..]].concat()), "--shard writes only its --save-partial file: -o, --report, --stats and --save-stats are not written by a shard");
    refused_with(
        sim(&[&[BM, BM, "--precision", "0.01"], &shard[..]].concat()),
        "--shard cannot be combined with --precision",
    );
    refused_with(
        sim(&[BM, BM, "--checkpoint", &ck, "--report", &rep]),
        "--checkpoint cannot be combined with --report, --stats or --save-stats",
    );
    refused_with(
        sim(&[BM, BM, "--checkpoint", &ck, "--precision", "0.01"]),
        "--checkpoint cannot be combined with --precision",
    );
    refused_with(
        sim(&[BM, BM, "--checkpoint", &ck, "--games-csv", &games]),
        "--games-csv lists the games of one whole run",
    );
    refused_with(
        sim(&[&[BM, BM, "--games-csv", &games], &shard[..]].concat()),
        "--games-csv lists the games of one whole run",
    );
    // Each alone is fine, and records what was asked.
    let c = sim(&[BM, BM, "--checkpoint", &ck, "--checkpoint-every", "50"]).unwrap();
    assert_eq!(c.checkpoint.unwrap().every, 50);
    let c = sim(&[BM, BM, "--report", &rep, "--games-csv", &games, "-o", &out]).unwrap();
    assert!(c.playtest.wanted() && c.playtest.games_csv.is_some());
    assert!(c.run.out.is_some());
    assert!(sim(&[&[BM, BM], &shard[..]].concat())
        .unwrap()
        .run
        .shard
        .is_some());
    assert_eq!(
        std::fs::read_dir(d.path()).unwrap().count(),
        0,
        "validation writes nothing"
    );
}

#[test]
fn sim_outputs_clash_and_bad_paths() {
    let d = tempfile::tempdir().unwrap();
    let same = tmp(&d, "same.csv");
    refused_naming(
        sim(&[BM, BM, "-o", &same, "--games-csv", &same]),
        "same.csv",
    );
    let strat = tmp(&d, "s.dom");
    std::fs::write(&strat, "buy: Gold, Silver\n").unwrap();
    refused_naming(sim(&[&strat, BM, "-o", &strat]), "s.dom");
    for opt in ["--report", "-o", "--games-csv", "--checkpoint"] {
        let e = refused(sim(&[BM, BM, opt, &tmp(&d, "missing/f")]));
        assert!(e.contains("missing"), "{opt}: {e}");
    }
    refused_naming(
        matrix(&[BM, BM, "-o", &tmp(&d, "missing/m.csv")]),
        "missing",
    );
    refused_naming(
        rank(&[BM, BM, "--matrix", &tmp(&d, "missing/m.csv")]),
        "missing",
    );
    refused_naming(sim(&[&tmp(&d, "no-such.dom"), BM]), "no-such.dom");
    assert_eq!(
        std::fs::read_dir(d.path()).unwrap().count(),
        1,
        "only s.dom"
    );
}

#[test]
fn matrix_rules() {
    let d = tempfile::tempdir().unwrap();
    let e = refused(matrix(&[BM]));
    assert_eq!(e, "a round robin needs at least 2 strategies (1 given)");
    let part = tmp(&d, "p.json");
    refused_with(
        matrix(&[
            BM,
            BM,
            "--report",
            &tmp(&d, "r.html"),
            "--shard",
            "1/2",
            "--save-partial",
            &part,
        ]),
        "--shard writes only its --save-partial file: -o and --report belong",
    );
    let c = matrix(&[BM, BM, BM, "-n", "30"]).unwrap();
    assert_eq!(
        (c.run.games, c.lineup.specs.len(), c.kingdom.kingdom.n()),
        (30, 3, 2)
    );
}

#[test]
fn sweep_rules() {
    let d = tempfile::tempdir().unwrap();
    let e = refused(sweep(&[BM, "--random", "2"]));
    assert_eq!(e, "a sweep needs at least 2 strategies (1 given)");
    let e = refused(sweep(&[BM, BM]));
    assert_eq!(e, "give --random N or --kingdoms FILE");
    let part = tmp(&d, "p.json");
    refused_with(
        sweep(&[
            BM,
            BM,
            "--random",
            "2",
            "--summary",
            &tmp(&d, "s.csv"),
            "--shard",
            "1/2",
            "--save-partial",
            &part,
        ]),
        "--shard writes only its --save-partial file: -o and --summary belong",
    );
    let c = sweep(&[BM, BM, "--random", "4", "--sets", "intrigue"]).unwrap();
    assert_eq!(c.kingdoms.kingdoms.len(), 4);
}

#[test]
fn rank_rules() {
    let d = tempfile::tempdir().unwrap();
    let e = refused(rank(&[
        BM,
        BM,
        BM,
        "-p",
        "3",
        "--matrix",
        &tmp(&d, "m.csv"),
    ]));
    assert!(
        e.starts_with(
            "--matrix is the head-to-head matrix of 2 players in one kingdom (not with -p 3"
        ),
        "{e}"
    );
    refused_naming(
        rank(&[
            BM,
            BM,
            "--random-kingdoms",
            "2",
            "--matrix",
            &tmp(&d, "m.csv"),
        ]),
        "several kingdoms",
    );
    let e = refused(rank(&[BM, BM, BM, "-p", "4"]));
    assert_eq!(
        e,
        "a ranking at 4-player tables needs at least 4 strategies (3 given)"
    );
    let e = refused(rank(&[BM]));
    assert_eq!(
        e,
        "a ranking at 2-player tables needs at least 2 strategies (1 given)"
    );
    let part = tmp(&d, "p.json");
    refused_with(
        rank(&[
            BM,
            BM,
            "--precision",
            "20",
            "--shard",
            "1/2",
            "--save-partial",
            &part,
        ]),
        "--shard cannot be combined with --precision",
    );
    let one = rank(&[BM, BM, "--seed", "9"]).unwrap();
    assert!(!one.many);
    assert_eq!(
        (one.kingdoms.kingdoms.len(), one.seeds.clone()),
        (1, vec![9])
    );
    let many = rank(&[
        BM,
        BM,
        BM,
        "-p",
        "3",
        "--random-kingdoms",
        "2",
        "--seed",
        "9",
    ])
    .unwrap();
    assert!(many.many);
    assert_eq!(many.seeds, vec![kingdom_seed(9, 0), kingdom_seed(9, 1)]);
}

#[test]
fn optimize_template_or_auto() {
    let opt = |args: &[&str]| match parse(&[&["optimize"], args].concat()) {
        Command::Optimize(a) => OptimizeConfig::from_args(&a),
        _ => unreachable!(),
    };
    let e = refused(opt(&["strategies/templates/money_draw.domt", "--auto"]));
    assert_eq!(e, "give a TEMPLATE or --auto, not both");
    refused_with(opt(&[]), "give a strategy TEMPLATE");
    refused_naming(
        opt(&["no-such-template.domt", "-a", BM]),
        "no-such-template.domt",
    );
    let c = opt(&[
        "strategies/templates/money_draw.domt",
        "-a",
        BM,
        "--candidates",
        "8",
    ])
    .unwrap();
    assert_eq!(
        (c.templates.len(), c.budget.candidates, c.budget.refine),
        (1, 8, 3)
    );
    assert_eq!(c.field.specs, vec![BM.to_string()]);
}

#[test]
fn compare_needs_two_to_six_bots_and_a_variant_b() {
    let cmp = |args: &[&str]| match parse(&[&["compare"], args].concat()) {
        Command::Compare(a) => CompareConfig::from_args(&a),
        _ => unreachable!(),
    };
    let a = "cards/post_rider.toml";
    let e = refused(cmp(&["--a", a, BM]));
    assert_eq!(e, "compare needs 2 to 6 strategies (one per seat); 1 given");
    let e = refused(cmp(&["--a", a, BM, BM]));
    assert_eq!(
        e,
        "give variant B with --b FILE or --b-set CARD:FIELD=VALUE"
    );
    refused_naming(
        cmp(&["--a", a, "--b-set", "cost=5", BM, BM]),
        "expected CARD:FIELD=VALUE",
    );
}

/// `sim` without strategies plays the shipped files: they are inputs,
/// so an output may not be one of them (nothing is written here:
/// `from_args` only validates).
#[test]
fn the_default_lineup_files_are_inputs() {
    let Some(smithy) = lineup::shipped("smithy_big_money.dom") else {
        return;
    };
    let s = smithy.display().to_string();
    match parse(&["sim", "-n", "10", "-o", &s]) {
        Command::Sim(a) => refused_naming(SimConfig::from_args(&a), "same file as the input"),
        _ => unreachable!(),
    }
}

#[test]
fn log_and_check_resolve_their_kingdom() {
    match parse(&["log", BM, "-p", "3", "--game", "4", "--preset", "Big Money"]) {
        Command::Log(a) => {
            let c = LogConfig::from_args(&a).unwrap();
            assert_eq!(
                (c.game, c.lineup.specs.len(), c.kingdom.kingdom.n()),
                (4, 3, 3)
            );
        }
        _ => unreachable!(),
    }
    match parse(&["check", "strategies/big_money.dom", "--preset", "Nope"]) {
        Command::Check(a) => {
            refused_with(
                CheckConfig::from_args(&a),
                "--preset: unknown preset 'Nope'",
            );
        }
        _ => unreachable!(),
    }
}

#[test]
fn report_reads_its_inputs_and_checks_its_outputs() {
    let d = tempfile::tempdir().unwrap();
    // Statistics of a few real games, as `sim --save-stats` saves them.
    let k = Preset::find(DEFAULT_PRESET).unwrap().kingdom(2).unwrap();
    let lineup = LineupConfig::load(vec![BM.into(), BM.into()]).unwrap();
    let compiled = lineup.lineup.compile(&k).unwrap();
    let names = ["A".to_string(), "B".to_string()];
    let recording = crate::stats::Recording {
        kingdom: &k,
        names: &names,
    };
    let cfg = sim::RunConfig {
        games: 4,
        first: 0,
        seed: 1,
        threads: 1,
        progress: false,
        precision: None,
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let (_, acc) = matches::run_hooked(&k, &cfg, |o: &[u8]| compiled.bots(o), &stop, &recording);
    let st = acc.unwrap().stats;
    let (a, b) = (d.path().join("a.json"), d.path().join("b.json"));
    crate::stats::save_json(&a, &st).unwrap();
    crate::stats::save_json(&b, &st).unwrap();
    let html = d.path().join("r.html");
    let csv = d.path().join("r.csv");
    let c = ReportConfig::from_args(std::slice::from_ref(&a), &html, Some(&csv)).unwrap();
    assert_eq!(c.inputs.len(), 1);
    let two = [a.clone(), b.clone()];
    assert_eq!(
        ReportConfig::from_args(&two, &html, None)
            .unwrap()
            .inputs
            .len(),
        2
    );
    refused_with(
        ReportConfig::from_args(&two, &html, Some(&csv)),
        "--csv writes the statistics of one run",
    );
    refused_naming(
        ReportConfig::from_args(std::slice::from_ref(&a), &a, None),
        "a.json",
    );
    refused_naming(
        ReportConfig::from_args(std::slice::from_ref(&a), &html, Some(&html)),
        "r.html",
    );
    let e = refused(ReportConfig::from_args(
        &[d.path().join("none.json")],
        &html,
        None,
    ));
    assert!(
        e.starts_with("cannot read statistics from") && e.contains("none.json"),
        "{e}"
    );
    std::fs::write(&b, "{\"not\": \"statistics\"}").unwrap();
    refused_naming(ReportConfig::from_args(&two, &html, None), "b.json");
    assert!(!html.exists() && !csv.exists(), "validation writes nothing");
}

#[test]
fn merge_refuses_clashing_missing_and_bad_parts() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("part-1.json");
    std::fs::write(&p, "{}").unwrap();
    let out = d.path().join("t.csv");
    refused_naming(
        MergeConfig::from_args(std::slice::from_ref(&p), &p, None, None, None),
        "part-1.json",
    );
    refused_naming(
        MergeConfig::from_args(&[d.path().join("none.json")], &out, None, None, None),
        "none.json",
    );
    refused_naming(
        MergeConfig::from_args(std::slice::from_ref(&p), &out, None, None, None),
        "part-1.json",
    );
    refused_naming(
        MergeConfig::from_args(
            std::slice::from_ref(&p),
            &d.path().join("missing/t.csv"),
            None,
            None,
            None,
        ),
        "missing",
    );
    assert!(!out.exists());
}

#[test]
fn a_mistyped_strategy_file_gets_a_did_you_mean() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("big_money.dom"), "buy: Gold, Silver\n").unwrap();
    std::fs::write(d.path().join("witch.dom"), "buy: Witch, Gold, Silver\n").unwrap();
    let typo = tmp(&d, "big_mony.dom");
    let e = refused(LineupConfig::load(vec![BM.into(), typo.clone()]));
    let want = format!(
        "strategy file '{typo}' does not exist (did you mean '{}'?)",
        tmp(&d, "big_money.dom")
    );
    assert_eq!(e, want);
    let e = refused(sim(&[BM, &typo]));
    assert_eq!(e, want, "sim says it too");
    // Nothing close: the loader's own message.
    let far = tmp(&d, "smithy_engine.dom");
    let e = refused(LineupConfig::load(vec![far.clone()]));
    assert_eq!(e, format!("strategy file '{far}' does not exist"));
    let c = LineupConfig::load(vec![tmp(&d, "witch.dom"), BM.into()]).unwrap();
    assert_eq!(c.lineup.entrants.len(), 2);
}
