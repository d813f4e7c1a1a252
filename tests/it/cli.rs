//! CLI tests: run the built `domsim` binary for each verb and each kind of
//! bad input. Bad input must exit with status 2, name the offending value and
//! leave no output file (nor temporary file) behind.

use std::path::Path;
use std::process::{Command, Output};

/// A `compare` of the two shipped Post Rider variants against Big Money
/// Ultimate, before `-n` and the outputs.
pub const COMPARE_POST_RIDER: [&str; 9] = [
    "compare",
    "--a",
    "cards/post_rider.toml",
    "--b",
    "cards/post_rider_b.toml",
    "--kingdom",
    "Post Rider",
    "strategies/playtest/post_rider_big_money.dom",
    "strategies/big_money_ultimate.dom",
];

pub fn domsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_domsim"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run domsim")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh empty directory for one test, removed with everything in it when
/// the value is dropped (at the end of the test, pass or fail).
pub struct Scratch(tempfile::TempDir);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        self.0.path()
    }
}

/// A fresh empty directory for one test (see [`Scratch`]).
pub fn scratch(name: &str) -> Scratch {
    Scratch(
        tempfile::Builder::new()
            .prefix(&format!("domsim-it-{name}-"))
            .tempdir()
            .unwrap(),
    )
}

pub fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Data lines of a CSV file (comment lines dropped).
pub fn csv_lines(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

const BM: &str = "builtin:big-money";

#[test]
fn sim_default_runs_first_game() {
    let o = domsim(&["sim", "-n", "50"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("preset First Game"), "{out}");
    assert!(out.contains("strategy"), "{out}");
    assert!(out.contains("score"), "{out}");
    assert!(out.contains("50 games"), "{out}");
    // Quiet on a non-terminal stderr: no progress bar.
    assert!(!stderr(&o).contains("games  "), "{}", stderr(&o));
}

#[test]
fn sim_writes_csv_with_schema_and_metadata() {
    let d = scratch("schema");
    let out = d.join("r.csv");
    let o = domsim(&[
        "sim",
        "--strategy",
        BM,
        BM,
        "--preset",
        "village square",
        "--games",
        "40",
        "--seed",
        "9",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&out).unwrap();
    let lines = csv_lines(&text);
    assert_eq!(
        lines[0],
        "strategy,source,source_hash,games,wins,ties,shared_wins,losses,win_rate,win_rate_lo,win_rate_hi,\
score,score_lo,score_hi,avg_vp,avg_turns,seat1_score,seat2_score,seat3_score,seat4_score,seat5_score,\
seat6_score,capped_games,seat1_wins,seat1_ties,seat1_losses,seat2_wins,seat2_ties,seat2_losses,\
seat3_wins,seat3_ties,seat3_losses,seat4_wins,seat4_ties,seat4_losses,seat5_wins,seat5_ties,seat5_losses,\
seat6_wins,seat6_ties,seat6_losses,avg_rounds,rounds_p10,rounds_median,rounds_p90"
    );
    assert_eq!(lines.len(), 3, "{text}");
    for key in [
        "# domsim_version: ",
        "# command: sim",
        "# seed: 9",
        "# kingdom: ",
        "# kingdom_source: preset Village Square",
        "# players: 2",
        "# games: 40",
        "# seat_rotation: ",
        "# strategy_1: ",
        "# strategy_2: ",
    ] {
        assert!(text.contains(key), "missing {key:?} in\n{text}");
    }
    // Every row: games = wins + ties + losses; unused seats are empty.
    let mut rd = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .from_reader(text.as_bytes());
    let mut total_score = 0.0;
    for rec in rd.records() {
        let r = rec.unwrap();
        assert_eq!(r.len(), 45);
        let n = |i: usize| r[i].parse::<u64>().unwrap();
        assert_eq!(n(3), 40);
        assert_eq!(n(3), n(4) + n(5) + n(7));
        total_score += r[11].parse::<f64>().unwrap();
        assert!(r[16].parse::<f64>().is_ok() && r[17].parse::<f64>().is_ok());
        assert_eq!(&r[18], "");
        assert_eq!(&r[21], "");
    }
    assert!(
        (total_score - 1.0).abs() < 1e-5,
        "scores sum to one win per game"
    );
    assert_eq!(entries(&d), vec!["r.csv"], "no temporary file left");
}

#[test]
fn sim_kingdom_list_random_and_players() {
    let o = domsim(&[
        "sim",
        "--kingdom",
        "Cellar, Chapel,Moat,Village,Smithy,Festival,Market,Laboratory,Mine,Witch",
        "-p",
        "3",
        "-n",
        "12",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("3 players"), "{}", stdout(&o));
    let o = domsim(&[
        "sim",
        "--random",
        "--sets",
        "base",
        "--kingdom-seed",
        "5",
        "-n",
        "10",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("random sets=base kingdom_seed=5"));
}

#[test]
fn matrix_round_robin() {
    let d = scratch("matrix");
    let out = d.join("m.csv");
    let o = domsim(&[
        "matrix",
        BM,
        BM,
        BM,
        "-n",
        "10",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("mean"), "{}", stdout(&o));
    let text = std::fs::read_to_string(&out).unwrap();
    let lines = csv_lines(&text);
    assert_eq!(
        lines[0],
        "strategy,Big Money (built-in),Big Money (built-in) #2,Big Money (built-in) #3,mean_score"
    );
    assert_eq!(lines.len(), 4);
    // Diagonal empty; cell (i,j) + cell (j,i) = 1.
    let cells: Vec<Vec<String>> = lines[1..]
        .iter()
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    for i in 0..3 {
        assert_eq!(cells[i][i + 1], "");
        for j in 0..3 {
            if i != j {
                let a: f64 = cells[i][j + 1].parse().unwrap();
                let b: f64 = cells[j][i + 1].parse().unwrap();
                assert!((a + b - 1.0).abs() < 1e-5);
            }
        }
    }
    assert!(text.contains("# games_per_pair: 10"));
    let o = domsim(&["matrix", BM, "-n", "10"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("at least 2 strategies"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn log_prints_a_game() {
    let o = domsim(&["log", "--seed", "3", "--game", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for s in [
        "Game 1 of seed 3",
        "Turn 1 — P1",
        "hand: ",
        "plays",
        "buys",
        "Game over",
        "VP in",
    ] {
        assert!(out.contains(s), "missing {s:?} in\n{out}");
    }
    // Same arguments, same game.
    assert_eq!(stdout(&domsim(&["log", "--seed", "3", "--game", "1"])), out);
}

/// `domsim log` shows Chancellor's "put your deck into your discard pile"
/// when the bot says yes (the strategy's default), with the deck's size:
/// the cards move as a block, unseen, so no other line showed it.
#[test]
fn log_shows_chancellor_putting_the_deck_into_the_discard_pile() {
    let dir = scratch("chancellor-log");
    let f = dir.join("chancellor.dom");
    std::fs::write(
        &f,
        "name: Chancellor BM\nbuy:\n    Province\n    Gold\n    Chancellor if count(Chancellor) < 2\n    Silver\n",
    )
    .unwrap();
    let f = f.to_str().unwrap();
    let o = domsim(&["log", f, f, "--kingdom", "Chancellor"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let at = out
        .find("answers yes to Chancellor\n")
        .unwrap_or_else(|| panic!("no yes to Chancellor in\n{out}"));
    let next = out[at..].lines().nth(1).unwrap();
    assert!(
        next.contains(" puts their deck (") && next.ends_with(" into their discard pile"),
        "{next:?} in\n{out}"
    );
}

#[test]
fn check_and_presets() {
    let o = domsim(&["check", BM]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("ok"));
    let o = domsim(&["check", "no/such/file.dom"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no/such/file.dom"), "{}", stderr(&o));
    let o = domsim(&["check"]);
    assert_eq!(o.status.code(), Some(2));
    let o = domsim(&["presets"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("First Game") && out.contains("Playing Chess with Death"));
}

#[test]
fn scenario_verb_still_works() {
    let o = domsim(&["scenario", "tests/scenarios/5.1.04_throne_room_feast.txt"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("all passed"));
}

/// Each bad input: exit 2, the message names the value, no file is left.
#[test]
fn bad_inputs_exit_2_and_leave_no_file() {
    let d = scratch("bad");
    let out = d.join("out.csv");
    let o_path = out.to_str().unwrap().to_string();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["--kingdom", "Smithee,Village"],
            "did you mean 'Smithy'",
        ),
        (
            vec![
                "--kingdom",
                "Cellar,Chapel,Moat,Village,Smithy,Festival,Market,Laboratory,Mine,Witchh",
            ],
            "did you mean 'Witch'",
        ),
        (
            vec!["--kingdom", "Cellar,Chapel", "--kingdom-seed", "3"],
            "--kingdom-seed goes with",
        ),
        (vec!["--fill"], "--kingdom"),
        (vec!["--preset", "Frist Game"], "did you mean 'First Game'"),
        (
            vec!["--preset", "Watery Graves"],
            "not available yet: needs",
        ),
        (
            vec!["--random", "--sets", "seaside"],
            "unknown card set 'seaside'",
        ),
        (vec!["--players", "7"], "7"),
        (vec!["--players", "1"], "1"),
        (vec!["--games", "0"], "0"),
        (vec!["--games", "many"], "many"),
        (vec!["--threads", "0"], "0"),
        (vec!["--seed", "-1"], "-1"),
        (vec!["--frobnicate"], "--frobnicate"),
        (vec!["--strategy", "builtin:nope"], "nope"),
        (vec!["--strategy", "missing.dom"], "missing.dom"),
        (vec!["-p", "2", BM, BM, BM], "3 strategies for 2 players"),
        (
            vec!["--preset", "First Game", "--kingdom", "Moat"],
            "cannot be used with",
        ),
    ];
    for (args, needle) in cases {
        let mut full = vec!["sim", "-o", &o_path];
        if !args.contains(&"--games") {
            full.extend(["-n", "5"]);
        }
        full.extend(args.iter().copied());
        let o = domsim(&full);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
        assert!(entries(&d).is_empty(), "{args:?} left {:?}", entries(&d));
    }
    // Output path is a directory / in a missing directory.
    let o = domsim(&["sim", "-n", "5", "-o", d.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is a directory"), "{}", stderr(&o));
    let missing = d.join("nope/out.csv");
    let o = domsim(&["sim", "-n", "5", "-o", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("does not exist"), "{}", stderr(&o));
    assert!(entries(&d).is_empty());
}

#[test]
fn default_sim_uses_shipped_strategies() {
    let o = domsim(&["sim", "-n", "40"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("Smithy Big Money"), "{out}");
    assert!(out.contains("Big Money"), "{out}");
}

#[test]
fn strategy_files_mixed_with_builtins() {
    let d = scratch("mixed");
    let out = d.join("m.csv");
    let o = domsim(&[
        "sim",
        "strategies/smithy_big_money.dom",
        BM,
        "-s",
        "strategies/big_money.dom",
        "-n",
        "60",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("# players: 3"), "{text}");
    // --strategy entries come first, then positional ones.
    let lines = csv_lines(&text);
    assert!(
        lines[1].starts_with("Big Money,strategies/big_money.dom,"),
        "{text}"
    );
    assert!(lines[2].starts_with("Smithy Big Money,"), "{text}");
    assert!(
        lines[3].starts_with("Big Money (built-in),builtin:big-money,,"),
        "{text}"
    );
    let hash = lines[1].split(',').nth(2).unwrap();
    assert_eq!(hash.len(), 16, "{hash}");
    assert!(
        text.contains(&format!("strategies/big_money.dom | {hash}")),
        "{text}"
    );
}

#[test]
fn malformed_strategy_names_file_line_col() {
    let d = scratch("malformed");
    let bad = d.join("bad.dom");
    std::fs::write(&bad, "name: Bad\nbuy:\n    Provnce if coins >= 8\n").unwrap();
    let out = d.join("out.csv");
    for verb in ["sim", "matrix", "log", "check"] {
        let mut args = vec![verb, bad.to_str().unwrap()];
        if verb == "matrix" {
            args.push("strategies/big_money.dom");
        }
        if verb != "log" && verb != "check" {
            args.extend(["-n", "5", "-o", out.to_str().unwrap()]);
        }
        let o = domsim(&args);
        assert_eq!(o.status.code(), Some(2), "{verb}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains("bad.dom:3:5"), "{verb}: {err}");
        assert!(err.contains("did you mean 'Province'"), "{verb}: {err}");
        assert_eq!(entries(&d), vec!["bad.dom"], "{verb}");
    }
}

#[test]
fn check_shipped_strategies() {
    let o = domsim(&[
        "check",
        "strategies/big_money.dom",
        "strategies/double_witch.dom",
        "--preset",
        "Size Distortion",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("strategies/double_witch.dom: ok"), "{out}");
    assert!(out.contains("checked 2 file(s)"), "{out}");
    // A strategy naming a card not in the kingdom gets a warning, not an error.
    let o = domsim(&["check", "strategies/double_witch.dom"]);
    assert!(o.status.success());
    assert!(
        stdout(&o).contains("Witch is not in this game"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn matrix_of_shipped_strategies() {
    let o = domsim(&[
        "matrix",
        "strategies/big_money.dom",
        "strategies/smithy_big_money.dom",
        "-n",
        "40",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("#2 Smithy Big Money"), "{out}");
}

/// `domsim kingdom` prints a kingdom without playing (issue 20.14), and
/// `--shelters on|off` forces Shelters in a run.
#[test]
fn kingdom_verb_prints_cards_piles_and_shelters() {
    let o = domsim(&[
        "kingdom",
        "--random",
        "--sets",
        "base,dark-ages",
        "--seed",
        "7",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let first = out.lines().next().unwrap();
    assert_eq!(first.split(", ").count(), 10, "{out}");
    assert!(out.contains("# Shelters: used in a game when"), "{out}");
    // The same seed gives the same kingdom as `sim --random`.
    let sim = domsim(&[
        "sim",
        "--random",
        "--sets",
        "base,dark-ages",
        "--seed",
        "7",
        "-n",
        "10",
    ]);
    assert!(stdout(&sim).contains(first), "{}", stdout(&sim));
    let o = domsim(&["kingdom", "--preset", "Grim Parade", "--shelters", "off"]);
    assert!(stdout(&o).contains("# Shelters: never used (--shelters off)"));
    assert!(stdout(&o).contains("# other Supply piles: Ruins"));
    let o = domsim(&[
        "kingdom",
        "--kingdom",
        "Hermit,Urchin,Marauder",
        "--shelters",
        "on",
    ]);
    assert!(
        stdout(&o).contains("piles not in the Supply: Spoils, Madman, Mercenary"),
        "{}",
        stdout(&o)
    );
    let o = domsim(&["kingdom", "--shelters", "maybe"]);
    assert_eq!(o.status.code(), Some(2));
    // Forced Shelters change the games and are recorded in the CSV.
    let d = scratch("shelters");
    let csv = d.join("s.csv");
    let o = domsim(&[
        "sim",
        "--preset",
        "Grim Parade",
        "--shelters",
        "off",
        "-n",
        "50",
        "-o",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&csv)
        .unwrap()
        .contains("Shelters forced off"));
    let on = domsim(&["log", "--preset", "Grim Parade", "--shelters", "on"]);
    let off = domsim(&["log", "--preset", "Grim Parade", "--shelters", "off"]);
    assert!(
        on.status.success() && off.status.success(),
        "{}",
        stderr(&on)
    );
    assert_ne!(stdout(&on), stdout(&off));
}

/// Messages users asked for (issue 20.15): a card of a set domsim does not
/// cover names the set; `when` instead of `if` points at the `if`.
#[test]
fn other_sets_and_a_missing_if_get_a_precise_message() {
    let o = domsim(&["sim", "--kingdom", "Haven,Smithy", "-n", "10"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("'Haven' is a Seaside card: Seaside is not supported"),
        "{e}"
    );
    assert!(!e.contains("Harem"), "{e}");
    let d = scratch("when");
    let f = d.join("w.dom");
    std::fs::write(
        &f,
        "buy:\n    Province when total_money >= 8\n    King's Court\n",
    )
    .unwrap();
    let o = domsim(&["check", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains(":2:5: unknown card or type 'Province when total_money': a condition starts with 'if': write 'Province if total_money …'"), "{e}");
    std::fs::write(&f, "buy:\n    King's Court\n").unwrap();
    let o = domsim(&["check", f.to_str().unwrap()]);
    assert!(
        stderr(&o).contains("'King's Court' is a Prosperity card"),
        "{}",
        stderr(&o)
    );
}

/// `domsim check` lints (issue 20.11): coin values with no buy entry,
/// Actions (and Necropolis) the play: list never names, entries that never
/// fire; each a warning at its file:line:col, and the file still passes.
#[test]
fn check_lints_silent_failures() {
    let d = scratch("lint");
    let f = d.join("b.dom");
    std::fs::write(
        &f,
        "buy:\n    Province if coins >= 8\n    Gold\n    Smithy\n    Gold if turn > 3\n    Market\n\nplay:\n    Market\n",
    )
    .unwrap();
    let p = f.to_str().unwrap();
    let o = domsim(&["check", p, "--preset", "First Game"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains(&format!(
            "{p}:2:5: warning: with $2–$3 this bot buys nothing"
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "{p}:4:5: warning: Smithy may be bought here, but the play: list never names it"
        )),
        "{out}"
    );
    assert!(out.contains(&format!("{p}:5:5: warning: this entry never fires: the unconditional 'Gold' above ({p}:3:5) always answers first")), "{out}");
    assert!(
        !out.contains("Necropolis"),
        "no Shelters in First Game: {out}"
    );
    assert!(out.contains("3 warning(s)"), "{out}");
    // In a Dark Ages kingdom the Shelter Necropolis is an Action too.
    let o = domsim(&["check", p, "--preset", "Grim Parade"]);
    assert!(
        stdout(&o).contains("Necropolis (a Shelter this kingdom may deal)"),
        "{}",
        stdout(&o)
    );
    let o = domsim(&["check", p, "--preset", "Grim Parade", "--shelters", "off"]);
    assert!(!stdout(&o).contains("Necropolis"), "{}", stdout(&o));
    // A clean bot: no lint.
    let o = domsim(&[
        "check",
        "strategies/smithy_big_money.dom",
        "--preset",
        "First Game",
    ]);
    assert!(!stdout(&o).contains("warning"), "{}", stdout(&o));
}

/// `domsim log` reads like the docs (issue 20.12): choose-one options
/// numbered from 0, a labelled VP header, Shelters announced.
#[test]
fn log_numbers_options_from_zero_labels_vp_and_announces_shelters() {
    let o = domsim(&[
        "log",
        "strategies/minion.dom",
        "strategies/nobles.dom",
        "--preset",
        "Hand Madness",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("Turn 1 — P1 (VP: P1 3, P2 3)"), "{out}");
    let choice = out
        .lines()
        .find(|l| l.contains(" chooses option "))
        .expect("a choice");
    assert!(
        choice.contains(" of 0–1 (") || choice.contains(" of 0–2 ("),
        "{choice}"
    );
    assert!(
        !out.contains("Shelters"),
        "no Dark Ages pile: nothing to announce"
    );
    let on = domsim(&["log", "--preset", "Grim Parade", "--shelters", "on"]);
    assert!(stdout(&on).contains("  Shelters: every player starts with Necropolis"));
    let off = domsim(&["log", "--preset", "Grim Parade", "--shelters", "off"]);
    assert!(stdout(&off).contains("  Shelters: not in this game"));
}

/// `domsim log --explain` says when the safety rules skipped a card an
/// earlier entry chose (the audit found a Duchy explained by its entry
/// alone, with no word of the Province the rules had skipped): in game 3 of
/// Big Money Ultimate against Smithy Big Money, P2 holds $9 behind on VP
/// and buys a Duchy.
#[test]
fn log_explain_says_when_the_safety_rules_skipped_a_card() {
    let o = domsim(&[
        "log",
        "strategies/big_money_ultimate.dom",
        "strategies/smithy_big_money.dom",
        "--game",
        "3",
        "--explain",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let skips: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("the safety rules skipped Province"))
        .collect();
    assert!(!skips.is_empty(), "{out}");
    for l in skips {
        assert!(l.contains("Buy → ") && !l.contains("Buy → Province"), "{l}");
    }
}

/// `domsim log --explain` (issue 20.12): every explained card choice names
/// the entry that decided it, and that line of the strategy file is about
/// the card chosen (by name or type) or is a `none` entry.
#[test]
fn log_explain_names_the_deciding_entry() {
    let mut explained = 0;
    for (a, b, preset, game) in [
        (
            "strategies/smithy_big_money.dom",
            "strategies/throne_room.dom",
            "First Game",
            "0",
        ),
        (
            "strategies/chapel.dom",
            "strategies/double_witch.dom",
            "Size Distortion",
            "3",
        ),
        (
            "strategies/workshop_gardens.dom",
            "strategies/militia_big_money.dom",
            "First Game",
            "1",
        ),
    ] {
        let o = domsim(&["log", a, b, "--preset", preset, "--game", game, "--explain"]);
        assert!(o.status.success(), "{}", stderr(&o));
        for l in stdout(&o)
            .lines()
            .filter(|l| l.trim_start().starts_with("· "))
        {
            let Some((_, at)) = l.split_once("(entry at ") else {
                assert!(
                    l.contains("no entry applies")
                        || l.contains("default")
                        || l.contains("every Treasure"),
                    "{l}"
                );
                continue;
            };
            let at = at.split(';').next().unwrap().trim_end_matches(')');
            let mut parts = at.rsplitn(3, ':');
            let _col = parts.next().unwrap();
            let line: usize = parts.next().unwrap().parse().unwrap();
            let file = parts.next().unwrap();
            let text = std::fs::read_to_string(
                std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file),
            )
            .unwrap();
            let src = text.lines().nth(line - 1).unwrap().trim().to_lowercase();
            let answer = l
                .split(" → ")
                .nth(1)
                .unwrap()
                .split(" (")
                .next()
                .unwrap()
                .to_lowercase();
            let first_word = src.split_whitespace().next().unwrap_or("");
            assert!(
                src.starts_with(&answer)
                    || first_word == "none"
                    || [
                        "treasure",
                        "treasures",
                        "action",
                        "actions",
                        "victory",
                        "curse",
                        "terminal"
                    ]
                    .contains(&first_word),
                "{l}\n  line {line}: {src}"
            );
            explained += 1;
        }
    }
    assert!(explained > 50, "{explained}");
}

/// An answer decided by a built-in default list names that list and its
/// entry, not a line of a file the user does not have.
#[test]
fn log_explain_names_built_in_default_entries() {
    let d = scratch("explain_builtin");
    let f = d.join("ch.dom");
    std::fs::write(
        &f,
        "name: Chapel without a trash list\nbuy:\n    Province if total_money > 15\n    Gold\n    Chapel if count(Chapel) < 1\n    Silver\n",
    )
    .unwrap();
    let o = domsim(&[
        "log",
        f.to_str().unwrap(),
        "strategies/big_money.dom",
        "--kingdom",
        "Chapel,Smithy,Village,Market,Mine,Moat,Cellar,Remodel,Militia,Workshop",
        "--explain",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(!out.contains("<built-in>"), "{out}");
    assert!(
        out.contains("Trash for Chapel → Estate (entry of the built-in \"Chapel trash:\" default, \"Estate\")"),
        "{out}"
    );
}

/// `log --explain` says why each yes/no and "choose one" was answered as
/// it was, not only card choices: the file's option that held (a mode
/// condition that does not hold is passed over), a built-in default by its
/// words, the list entry that matched the card, or the engine's documented
/// default. The explanation agrees with the answer logged after it.
#[test]
fn log_explain_names_yes_no_and_choose_options() {
    let d = scratch("explain_options");
    let f = d.join("opts.dom");
    std::fs::write(
        &f,
        "name: Options\nbuy:\n    Province\n    Nobles if count(Nobles) < 2\n    Gold\n    Steward if count(Steward) < 1\n    Library if count(Library) < 1\n    Chancellor if count(Chancellor) < 1\n    Silver\nplay:\n    Nobles\n    Steward\n    Chancellor\n    Library\nNobles actions: turn > 1000\nNobles cards: yes\nLibrary set_aside:\n    Action if turn > 8\n",
    )
    .unwrap();
    let p = f.to_str().unwrap();
    let mut seen = [false; 5];
    for game in 0..12 {
        let g = game.to_string();
        let o = domsim(&[
            "log",
            p,
            p,
            "--kingdom",
            "Nobles,Steward,Library,Chancellor,Village,Smithy,Market,Mine,Moat,Cellar",
            "--game",
            &g,
            "--explain",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        let lines: Vec<&str> = out.lines().map(str::trim).collect();
        for (i, l) in lines.iter().enumerate() {
            let next = lines.get(i + 1).copied().unwrap_or("");
            if l.contains(" chooses option ") || l.contains(" answers ") {
                let prev = lines[i - 1];
                assert!(
                    prev.starts_with("· ")
                        && (prev.contains(" Choose for ") || prev.contains(" YesNo for ")),
                    "unexplained: {l}\n{out}"
                );
            }
            if l.starts_with("· ") && l.contains(" Choose for ") {
                let n = l
                    .split("→ option ")
                    .nth(1)
                    .unwrap()
                    .split(' ')
                    .next()
                    .unwrap();
                assert!(
                    next.contains(&format!(" chooses option {n} of ")),
                    "{l} / {next}"
                );
                if l.contains("for Nobles") {
                    assert!(l.contains(&format!("(option at {p}:16:1)")), "{l}");
                    seen[0] = true;
                }
                if l.contains("for Steward") {
                    assert!(l.contains("(the built-in \"Steward "), "{l}");
                    seen[1] = true;
                }
            }
            if l.starts_with("· ") && l.contains(" YesNo for ") {
                let yes = l.contains(" → yes (");
                assert!(
                    next.contains(if yes {
                        " answers yes to "
                    } else {
                        " answers no to "
                    }),
                    "{l} / {next}"
                );
                if l.contains("for Library about") && yes {
                    assert!(l.contains(&format!("(entry at {p}:18:5)")), "{l}");
                    seen[2] = true;
                }
                if l.contains("for Library about") && !yes {
                    assert!(l.contains(": no)"), "{l}");
                    seen[3] = true;
                }
                if l.contains("for Chancellor") {
                    assert!(
                        l.contains(
                            "(no option for this question: the engine's documented default)"
                        ),
                        "{l}"
                    );
                    seen[4] = true;
                }
            }
        }
    }
    assert_eq!(
        seen, [true; 5],
        "Nobles, Steward, Library yes, Library no, Chancellor"
    );
}

/// `domsim check` prints its warnings in reading order (file, line,
/// column), whichever pass found them: the compiler reads lists before
/// values, the lints come after both.
#[test]
fn check_prints_warnings_in_line_order() {
    let d = scratch("warning_order");
    let f = d.join("w.dom");
    std::fs::write(
        &f,
        "name: W\nMinion attack: yes\nbuy:\n    Province\n    Silver\n    Witch\n    Silver if turn > 3\nplay:\n    Smithy\nNobles actions: yes\n    \n",
    )
    .unwrap();
    let o = domsim(&["check", f.to_str().unwrap(), "--preset", "First Game"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<(u32, u32)> = stdout(&o)
        .lines()
        .filter(|l| l.contains(": warning: "))
        .map(|l| {
            let at: Vec<&str> = l
                .split(": warning: ")
                .next()
                .unwrap()
                .rsplitn(3, ':')
                .collect();
            (at[1].parse().unwrap(), at[0].parse().unwrap())
        })
        .collect();
    assert_eq!(lines, [(2, 1), (6, 5), (7, 5), (10, 1)], "{}", stdout(&o));
}

/// A strategy using the turn counters runs from the command line: the
/// kingdom counts them for that run only (issue 20.13).
#[test]
fn turn_counter_vocabulary_runs_from_the_cli() {
    let d = scratch("turnvars");
    let f = d.join("t.dom");
    std::fs::write(
        &f,
        "name: One buy a turn\nbuy:\n    Province\n    Gold\n    Market if bought_this_turn = 0 and gained_this_turn = 0\n    Silver if bought_this_turn = 0\n",
    )
    .unwrap();
    let p = f.to_str().unwrap();
    for args in [
        vec!["sim", p, "strategies/big_money.dom", "-n", "200"],
        vec!["matrix", p, "strategies/big_money.dom", "-n", "50"],
        vec![
            "rank",
            p,
            "strategies/big_money.dom",
            "strategies/smithy_big_money.dom",
            "-n",
            "50",
        ],
        vec!["log", p, "strategies/big_money.dom"],
        vec!["check", p],
    ] {
        let o = domsim(&args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    }
    // With Market's +Buy the bot still buys at most one Silver a turn.
    let o = domsim(&["log", p, "strategies/big_money.dom", "--game", "2"]);
    let log = stdout(&o);
    assert!(
        !log.contains("P1 buys Silver x2") && !log.contains("P1 buys Silver, Silver"),
        "{log}"
    );
}

/// `--explain` names where an answer really came from: a Reaction answered
/// by the strategy's `reveal` options (not "the documented default"), and
/// a list that matches nothing falling to a card's built-in rule (not "the
/// engine's default").
#[test]
fn log_explain_names_reaction_options_and_built_in_rules() {
    let d = scratch("explain_rules");
    let sc = d.join("sc.dom");
    std::fs::write(
        &sc,
        "buy:\n    Province if total_money > 15\n    Gold\n    Secret Chamber if count(Secret Chamber) < 2\n    Silver\nSecret Chamber reveal: no\n",
    )
    .unwrap();
    let mil = d.join("mil.dom");
    std::fs::write(
        &mil,
        "buy:\n    Province if total_money > 15\n    Gold\n    Militia if count(Militia) < 2\n    Silver\n",
    )
    .unwrap();
    let mut seen = false;
    for game in 0..10 {
        let o = domsim(&[
            "log",
            sc.to_str().unwrap(),
            mil.to_str().unwrap(),
            "--kingdom",
            "Secret Chamber,Militia,Smithy,Village,Market,Mine,Moat,Cellar,Chapel,Workshop",
            "--explain",
            "--game",
            &game.to_string(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        for l in stdout(&o).lines().filter(|l| l.contains("React →")) {
            assert!(l.contains("`reveal` options"), "{l}");
            seen = true;
        }
    }
    assert!(seen, "a Militia met a Secret Chamber in 10 games");
}
