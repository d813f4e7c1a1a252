//! The bad-input table of issue 8, each case run against the built binary:
//! a clear message, exit status 2, and never a partial output file. Cases
//! already in `cli.rs` (unknown card, 1 or 7 players, zero games,
//! `--threads 0`, output path that is a directory or in a missing directory)
//! are not repeated here. Also: interrupted runs (SIGINT, SIGTERM).

use super::cli::{domsim, entries, scratch, stderr, stdout, COMPARE_POST_RIDER};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const TEN: &str = "Cellar,Chapel,Moat,Village,Smithy,Festival,Market,Laboratory,Mine,Witch";

/// Run `sim` with `args` and an output file in a fresh directory; assert
/// exit 2, a message containing `needle`, and an untouched directory.
fn rejects(name: &str, args: &[&str], needle: &str) -> String {
    let d = scratch(name);
    let out = d.join("out.csv");
    let mut full = vec!["sim", "-o", out.to_str().unwrap()];
    full.extend_from_slice(args);
    let o = domsim(&full);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(
        err.contains(needle),
        "{args:?}: expected '{needle}' in: {err}"
    );
    assert!(entries(&d).is_empty(), "{args:?} left {:?}", entries(&d));
    err
}

#[test]
fn duplicate_and_eleven_kingdom_cards() {
    rejects(
        "dup",
        &[
            "-n",
            "5",
            "--kingdom",
            "Cellar,Chapel,Moat,Village,Smithy,Festival,Market,Laboratory,Mine,Village",
        ],
        "'Village' is listed twice",
    );
    let eleven = format!("{TEN},Workshop");
    rejects(
        "eleven",
        &["-n", "5", "--kingdom", &eleven],
        "at most 10 piles",
    );
}

#[test]
fn negative_and_huge_numbers() {
    for (args, needle) in [
        (vec!["--games", "-1"], "-1"),
        (
            vec!["--games", "99999999999999999999"],
            "'99999999999999999999' is too large (at most 18446744073709551615",
        ),
        (
            vec!["--games", "999999999999999999999999999999999999999999"],
            "is too large (at most 18446744073709551615",
        ),
        (vec!["-n", "5", "--threads", "-3"], "-3"),
        (vec!["-n", "5", "--threads", "99999"], "99999"),
        (
            vec!["-n", "5", "--seed", "99999999999999999999"],
            "99999999999999999999",
        ),
        (vec!["-n", "5", "--players", "300"], "300"),
    ] {
        rejects("numbers", &args, needle);
    }
    // The same for the other verbs that take counts.
    for args in [
        vec!["soak", "--games", "0"],
        vec!["soak", "--games", "-1"],
        vec!["soak", "--threads", "0"],
        vec![
            "matrix",
            "builtin:big-money",
            "builtin:big-money",
            "-n",
            "0",
        ],
    ] {
        let o = domsim(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).trim().is_empty());
    }
}

#[test]
fn unwritable_output_paths() {
    let d = scratch("unwritable");
    // /proc accepts no new files, even for root (tests may run as root, so
    // file permissions prove nothing).
    for (path, needle) in [
        (PathBuf::from("/proc/domsim-test-out.csv"), "cannot write"),
        (d.join("file.txt/out.csv"), ""),
    ] {
        std::fs::write(d.join("file.txt"), "a file, not a directory").unwrap();
        let o = domsim(&["sim", "-n", "5", "-o", path.to_str().unwrap()]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{}: {err}", path.display());
        assert!(err.contains(needle), "{}: {err}", path.display());
        assert!(
            err.contains(path.to_str().unwrap()) || err.contains("file.txt"),
            "the message names the path: {err}"
        );
        assert_eq!(entries(&d), vec!["file.txt"], "nothing else written");
        assert!(!path.exists());
    }
}

// ---------------------------------------------------------------------------
// Strategy files

fn write(d: &Path, name: &str, bytes: &[u8]) -> String {
    let p = d.join(name);
    std::fs::write(&p, bytes).unwrap();
    p.to_str().unwrap().to_string()
}

/// A strategy file that must be refused: exit 2, the file named, `needle`
/// in the message, no output. Returns the message.
fn bad_strategy(d: &Path, file: &str, needle: &str) -> String {
    let out = d.join("out.csv");
    let o = domsim(&[
        "sim",
        "-n",
        "5",
        "-o",
        out.to_str().unwrap(),
        file,
        "builtin:big-money",
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{file}: {err}");
    assert!(err.contains(file), "{file}: message names the file: {err}");
    assert!(
        err.contains(needle),
        "{file}: expected '{needle}' in: {err}"
    );
    assert!(!out.exists(), "{file}: no output file");
    let left: Vec<String> = entries(d)
        .into_iter()
        .filter(|e| e.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
    err
}

#[test]
fn bad_strategy_files() {
    let d = scratch("badstrat");
    bad_strategy(&d, &write(&d, "empty.dom", b""), "empty");
    bad_strategy(
        &d,
        &write(&d, "comments.dom", b"# only a comment\n\n"),
        "empty",
    );
    let garbage: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    bad_strategy(&d, &write(&d, "garbage.dom", &garbage), "not a text file");
    let deep = format!(
        "buy:\n    Gold if {}coins >= 6{}\n",
        "(".repeat(10_000),
        ")".repeat(10_000)
    );
    bad_strategy(
        &d,
        &write(&d, "deep.dom", deep.as_bytes()),
        "nested too deeply",
    );
    let long = format!("buy:\n    Gold if coins{} >= 6\n", " + 1".repeat(10_000));
    bad_strategy(&d, &write(&d, "long.dom", long.as_bytes()), "too long");
    bad_strategy(
        &d,
        &write(&d, "unknown.dom", b"buy:\n    Provinse\n    Silver\n"),
        "did you mean 'Province'",
    );
    bad_strategy(&d, d.join("no-such.dom").to_str().unwrap(), "no-such.dom");
    // A typo of a file of the same folder: the message names the file meant.
    let meant = format!("(did you mean '{}'?)", d.join("unknown.dom").display());
    bad_strategy(&d, d.join("unknwon.dom").to_str().unwrap(), &meant);
    bad_strategy(&d, d.to_str().unwrap(), "directory");
}

#[test]
fn huge_strategy_file_is_refused_by_its_size() {
    let d = scratch("huge");
    // 50 MB of a syntactically valid list: the loader must refuse it by its
    // size ("too large") instead of parsing millions of entries.
    let mut text = String::with_capacity(50 << 20);
    text.push_str("buy:\n");
    while text.len() < 50 << 20 {
        text.push_str("    Silver if coins >= 3 and turn < 99\n");
    }
    let f = write(&d, "huge.dom", text.as_bytes());
    drop(text);
    bad_strategy(&d, &f, "too large");
    std::fs::remove_file(&f).unwrap();
}

#[test]
fn odd_but_valid_strategies_run_and_are_reported() {
    let d = scratch("odd");
    // A card not in the kingdom: a warning, the entry is ignored.
    let f = write(&d, "witch.dom", b"buy:\n    Witch\n    Gold\n    Silver\n");
    let o = domsim(&["sim", "-n", "20", &f, "builtin:big-money"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("Witch"), "{}", stderr(&o));
    // Never buys anything: every game stops at the turn cap, and says so.
    let f = write(&d, "idle.dom", b"buy:\n    Province if coins >= 100\n");
    let out = d.join("idle.csv");
    let o = domsim(&["sim", "-n", "4", "-o", out.to_str().unwrap(), &f, &f]);
    assert!(o.status.success(), "{}", stderr(&o));
    let all = format!("{}{}", stdout(&o), stderr(&o));
    assert!(all.contains("turn cap"), "{all}");
    assert!(out.exists());
    // Always buys Curses: the games still end (cap or piles) and are counted.
    let f = write(&d, "curses.dom", b"buy:\n    Curse\n");
    let o = domsim(&["sim", "-n", "10", &f, "builtin:big-money"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("10 games"), "{}", stdout(&o));
}

// ---------------------------------------------------------------------------
// Interrupted runs

/// Start a long `sim` writing `out`, send `signal` once it plays, and check:
/// it stops, says how many games finished, exits 130, and `out` still holds
/// its previous content with no temporary file left.
fn interrupt(signal: &str) {
    interrupt_run(
        signal,
        &["sim", "-n", "2000000000", "-j", "1"],
        "games completed",
    );
}

/// [`interrupt`] of the command `args` (plus `-o FILE`), whose message
/// says `done`.
fn interrupt_run(signal: &str, args: &[&str], done: &str) {
    let d = scratch(&format!("sig{signal}-{}", args[0]));
    let out = d.join("results.csv");
    std::fs::write(&out, "previous results\n").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_domsim"))
        .args(args)
        .arg("-o")
        .arg(&out)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Let it start playing: its temporary file exists, then a little more.
    let t = Instant::now();
    while entries(&d).len() < 2 && t.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    let k = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(k.success());
    // A guard against a hang, not a measure: a run that ignored the
    // signal would play for hours.
    let t = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("SIG{signal} did not stop the run");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let o = child.wait_with_output().unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(130), "SIG{signal}: {err}");
    assert!(err.contains("interrupted"), "{err}");
    assert!(err.contains(done), "{err}");
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "previous results\n",
        "the previous results file is intact"
    );
    assert_eq!(entries(&d), vec!["results.csv"], "no temporary file left");
}

#[test]
fn sigint_keeps_previous_results() {
    interrupt("INT");
}

#[test]
fn sigterm_keeps_previous_results() {
    interrupt("TERM");
}

/// `compare` stops on the first signal and says how far it got, as every
/// verb that plays games does (it used to end at once, without a word).
/// A billion games per variant are accepted: the games are paired a block
/// at a time (it used to keep a record of every game of both variants, so
/// it refused more than 10,000,000).
#[test]
fn sigint_stops_compare_with_its_count() {
    interrupt_run(
        "INT",
        &[&COMPARE_POST_RIDER[..], &["-n", "1000000000", "-j", "1"]].concat(),
        "of 1000000000 games compared (each played with variant A and with variant B)",
    );
}

// ---------------------------------------------------------------------------
// --checkpoint: a killed run resumes and gives the uninterrupted numbers

/// The `next` game of the checkpoint file `ck` (0 when unreadable).
pub fn next_in(ck: &Path) -> u64 {
    std::fs::read_to_string(ck)
        .ok()
        .and_then(|t| {
            t.lines()
                .find_map(|l| l.strip_prefix("next ").and_then(|n| n.parse().ok()))
        })
        .unwrap_or(0)
}

#[test]
fn checkpointed_run_killed_and_resumed_gives_the_same_numbers() {
    let d = scratch("checkpoint");
    let games = "12000";
    let full = d.join("full.csv");
    let o = domsim(&[
        "sim",
        "-n",
        games,
        "--seed",
        "11",
        "-o",
        full.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let full_table = stdout(&o);

    let ck = d.join("run.ck");
    let out = d.join("resumed.csv");
    let args = [
        "sim",
        "-n",
        games,
        "--seed",
        "11",
        "-j",
        "1",
        "--checkpoint",
        ck.to_str().unwrap(),
        "--checkpoint-every",
        "500",
        "-o",
        out.to_str().unwrap(),
    ];
    let mut child = Command::new(env!("CARGO_BIN_EXE_domsim"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it hard (no handler runs) once a checkpoint with games exists.
    let t = Instant::now();
    while next_in(&ck) == 0 && t.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let saved = next_in(&ck);
    assert!(saved > 0, "a checkpoint was written");
    assert!(saved < 12000, "killed before the end ({saved} games saved)");
    assert_eq!(saved % 500, 0, "checkpoints at batch boundaries");
    assert!(!out.exists(), "a killed run writes no results file");

    // The same command again: resumes and completes.
    let o = domsim(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!("resumed from checkpoint '{}' at", ck.display())),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        stdout(&o),
        full_table,
        "same table as the uninterrupted run"
    );
    assert_eq!(
        std::fs::read(&out).unwrap(),
        std::fs::read(&full).unwrap(),
        "same CSV as the uninterrupted run"
    );
    assert_eq!(next_in(&ck), 12000);

    // A checkpoint of another run is refused, with exit 2 and no output.
    let other = d.join("other.csv");
    let o = domsim(&[
        "sim",
        "-n",
        games,
        "--seed",
        "12",
        "--checkpoint",
        ck.to_str().unwrap(),
        "-o",
        other.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("belongs to another run"),
        "{}",
        stderr(&o)
    );
    assert!(!other.exists());
    // A damaged checkpoint is refused, never half-used.
    std::fs::write(&ck, "domsim-checkpoint 3\nkey x\nnext 10\n").unwrap();
    let o = domsim(&args);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("truncated"), "{}", stderr(&o));
    // A checkpoint of the previous format is named as such.
    std::fs::write(&ck, "domsim-checkpoint 1\nkey x\nnext 10\nend\n").unwrap();
    let o = domsim(&args);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("older domsim"), "{}", stderr(&o));
}

// ---------------------------------------------------------------------------
// The input-validation audit: limits enforced at parse time, messages that
// say what is wrong, byte-order marks, long and binary lines, option values.

/// Run `args`; assert exit status 2, every needle in the message, no panic.
fn refused(args: &[&str], needles: &[&str]) -> String {
    let o = domsim(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: expected '{n}' in: {err}");
    }
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    err
}

#[test]
fn optimizer_template_ranges_are_limited_at_parse_time() {
    let d = scratch("tmpl-limits");
    let bot = d.join("bot.dom");
    let run = |name: &str, line: &str, needles: &[&str]| {
        let t = write(
            &d,
            name,
            format!("buy:\n    {line}\n    Silver\n").as_bytes(),
        );
        let mut n = vec![format!("{t}:2:")];
        n.extend(needles.iter().map(|s| s.to_string()));
        let n: Vec<&str> = n.iter().map(String::as_str).collect();
        refused(
            &[
                "optimize",
                &t,
                "--preset",
                "First Game",
                "-n",
                "20",
                "--candidates",
                "4",
                "--max-games",
                "60",
                "--confirm",
                "40",
                "--bot",
                bot.to_str().unwrap(),
            ],
            &n,
        );
    };
    run(
        "wide.domt",
        "Province if total_money >= {p: 0..4294967295}",
        &["out of range", "-1000000..1000000"],
    );
    run(
        "i64.domt",
        "Province if total_money >= {p: -9223372036854775808..9223372036854775807}",
        &["out of range"],
    );
    run(
        "beyond.domt",
        "Province if total_money >= {p: 0..99999999999999999999999}",
        &["out of range"],
    );
    run(
        "many.domt",
        "Province if total_money >= {p: 0..20000}",
        &["20001 values", "at most 10000"],
    );
    let many: String = (0..33)
        .map(|i| format!(" and {{x{i}: 1..2}} > 0"))
        .collect();
    run(
        "params.domt",
        &format!("Province if coins >= 8{many}"),
        &["too many parameters", "at most 32"],
    );
    assert!(!bot.exists());
}

#[test]
fn optimize_refuses_max_games_below_games() {
    refused(
        &[
            "optimize",
            "strategies/templates/money_draw.domt",
            "-n",
            "100",
            "--max-games",
            "10",
        ],
        &["--max-games 10 is below -n 100"],
    );
}

#[test]
fn scenario_messages_name_the_real_problem() {
    let d = scratch("scen-msgs");
    let run = |name: &str, text: &[u8], needles: &[&str]| {
        let f = write(&d, name, text);
        let mut n = vec![f.clone()];
        n.extend(needles.iter().map(|s| s.to_string()));
        let n: Vec<&str> = n.iter().map(String::as_str).collect();
        refused(&["scenario", &f], &n)
    };
    let eleven = "kingdom: Cellar, Chapel, Moat, Village, Smithy, Festival, Market, Laboratory, Mine, Witch, Workshop\nexpect actions: 1\n";
    let e = run(
        "eleven.txt",
        eleven.as_bytes(),
        &["at most 10 piles", "0 to 10", "11 were given"],
    );
    assert!(!e.contains("exactly 10"), "{e}");
    run(
        "actions.txt",
        b"actions: 65536\nexpect actions: 1\n",
        &["1:10: 65536 is too large (expected 0..=1000)"],
    );
    run(
        "negative.txt",
        b"coins: -5\nexpect actions: 1\n",
        &["1:8: -5 is out of range (expected 0..=1000)"],
    );
    run(
        "size.txt",
        b"expect actions: 65536\n",
        &["65536 is out of range (expected 0..=65535)"],
    );
    // A NUL byte and an escape sequence are shown escaped, never sent raw.
    let e = run(
        "nul.txt",
        b"actions: 1\x00\x1b[31m\nexpect actions: 1\n",
        &["\\u{0}", "\\u{1b}"],
    );
    assert!(!e.contains('\0') && !e.contains('\x1b'), "{e:?}");
}

#[test]
fn numbers_too_large_are_out_of_range_not_malformed() {
    let d = scratch("big-numbers");
    bad_strategy(
        &d,
        &write(
            &d,
            "big.dom",
            b"buy:\n    Gold if coins >= 99999999999999999999\n",
        ),
        "99999999999999999999 is out of range: a number is at most 2147483647",
    );
    bad_strategy(
        &d,
        &write(
            &d,
            "bigmax.dom",
            b"buy:\n    Gold max 99999999999999999999\n",
        ),
        "is out of range: a count is at most 2147483647",
    );
    bad_strategy(
        &d,
        &write(&d, "frac.dom", b"buy:\n    Gold if coins >= 1.5\n"),
        "'1.5' is not a whole number",
    );
    let salem = std::fs::read_to_string("strategies/new_salem/accuser_puritan.salem")
        .unwrap()
        .replace("suspect >= 1\"", "suspect >= -9223372036854775808\"");
    let f = write(&d, "big.salem", salem.as_bytes());
    refused(
        &["salem", "check", &f],
        &[
            "-9223372036854775808 is out of range",
            "-2147483648..=2147483647",
        ],
    );
}

#[test]
fn rank_matrix_over_several_kingdoms_names_the_option() {
    let d = scratch("rank-matrix");
    let m = d.join("m.csv");
    let e = refused(
        &[
            "rank",
            "builtin:big-money",
            "builtin:big-money",
            "--matrix",
            m.to_str().unwrap(),
            "--random-kingdoms",
            "2",
        ],
        &["several kingdoms (--random-kingdoms 2)"],
    );
    assert!(!e.contains("-p 2"), "{e}");
    assert!(entries(&d).is_empty());
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let d = scratch("bom");
    std::fs::create_dir(d.join("a")).unwrap();
    std::fs::create_dir(d.join("b")).unwrap();
    let s = write(
        &d,
        "a/x.dom",
        "\u{feff}buy:\n    Gold\n    Silver\n".as_bytes(),
    );
    let o = domsim(&["check", &s]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Not a different strategy: the same games as without the mark.
    let plain = write(&d, "b/x.dom", b"buy:\n    Gold\n    Silver\n");
    let a = domsim(&["sim", "-n", "50", &s, "builtin:big-money"]);
    let b = domsim(&["sim", "-n", "50", &plain, "builtin:big-money"]);
    assert!(a.status.success(), "{}", stderr(&a));
    assert_eq!(stdout(&a), stdout(&b), "a BOM changes nothing");
    let sc = write(
        &d,
        "bom.txt",
        "\u{feff}kingdom: Village\np0.hand: Village\ndo: play Village\nexpect actions: 2\n"
            .as_bytes(),
    );
    let o = domsim(&["scenario", &sc]);
    assert!(o.status.success(), "{}", stderr(&o));
    let t = write(
        &d,
        "bom.domt",
        "\u{feff}buy:\n    Province if total_money >= {p: 12..14}\n    Gold\n    Silver\n"
            .as_bytes(),
    );
    let o = domsim(&[
        "optimize",
        &t,
        "--candidates",
        "2",
        "-n",
        "10",
        "--max-games",
        "10",
        "--confirm",
        "10",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn a_long_line_is_quoted_around_the_column() {
    let d = scratch("longline");
    let line = format!("    Gold if coins >= 6{} Provinse\n", " ".repeat(700_000));
    let f = write(&d, "long.dom", format!("buy:\n{line}").as_bytes());
    let err = bad_strategy(&d, &f, "Provinse");
    assert!(err.len() < 2000, "{} bytes of message", err.len());
    assert!(err.contains('…'), "{err}");
    // The caret still points at the quoted column.
    let lines: Vec<&str> = err.lines().collect();
    let q = lines.iter().position(|l| l.starts_with("2 | ")).unwrap();
    let quoted = lines[q];
    let caret = lines[q + 1];
    let at = caret.find('^').unwrap();
    assert_eq!(
        quoted.chars().nth(caret[..at].chars().count()),
        Some('P'),
        "{err}"
    );
    // A control character in a strategy line is escaped.
    bad_strategy(
        &d,
        &write(&d, "nul.dom", b"buy:\n    Gold\x00x\n"),
        "U+0000",
    );
}

#[test]
fn option_values_name_the_option() {
    let e = refused(
        &["sim", "-n", "5", "--random", "--kingdom-seed", "abc"],
        &["--kingdom-seed", "'abc' is not a seed"],
    );
    assert!(!e.contains("invalid digit"), "{e}");
    let e = refused(
        &["log", "--game", "abc"],
        &["--game", "'abc' is not a game index"],
    );
    assert!(!e.contains("invalid digit"), "{e}");
    let e = refused(
        &["salem", "log", "-p", "3..5"],
        &["one player count from 3 to 8", "salem sim"],
    );
    assert!(!e.contains("invalid digit"), "{e}");
    refused(&["salem", "log", "-p", "9"], &["outside 3..=8"]);
    refused(
        &["salem", "log", "--game", "abc"],
        &["--game", "not a game index"],
    );
    refused(&["kingdom", "--seed", "5"], &["--random", "--fill"]);
    let o = domsim(&["kingdom", "--random", "--seed", "5"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // `soak` takes data cards (issue 48): they are dealt into its random
    // kingdoms with the same invariants, and the report says how often each
    // was played and gained.
    let o = domsim(&[
        "soak",
        "-n",
        "400",
        "-j",
        "1",
        "--cards",
        "cards/examples.toml",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("Hamlet Smith played "), "{out}");
    // The verbs that would ignore data cards refuse them too.
    for verb in [
        &["presets"][..],
        &["bench", "--quick"],
        &["merge", "x.json", "-o", "r.csv"],
    ] {
        let args: Vec<&str> = ["--cards", "cards/post_rider.toml"]
            .iter()
            .chain(verb)
            .copied()
            .collect();
        refused(&args, &["--cards goes with", "do not use data cards"]);
    }
}

#[test]
fn an_empty_sweep_shard_has_no_negative_zero() {
    let d = scratch("empty-shard");
    let p = d.join("p.json");
    let o = domsim(&[
        "sweep",
        "builtin:big-money",
        "builtin:big-money",
        "--random",
        "1",
        "-n",
        "2",
        "--shard",
        "1/2",
        "--save-partial",
        p.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("0 kingdoms"), "{out}");
    assert!(out.contains("mean score 0.0%"), "{out}");
    assert!(!out.contains("-0.0%"), "{out}");
}

/// A megabyte-long unknown name (a damaged file) is refused with a message
/// of ordinary length: the name is shortened, and "did you mean" does not
/// compare it with every card name (that took seconds per megabyte).
#[test]
fn a_huge_unknown_name_gets_a_short_message() {
    let d = scratch("huge-name");
    let name = "Q".repeat(1 << 19);
    let cards = write(
        &d,
        "c.toml",
        format!("[[card]]\nname = \"Big\"\ncost = 3\ntypes = [\"Action\"]\neffect = [{{ do = \"gain\", card = \"{name}\" }}]\n").as_bytes(),
    );
    let dom = write(&d, "s.dom", format!("buy:\n    {name}\n").as_bytes());
    let kingdoms = write(&d, "k.txt", format!("Village,{name}\n").as_bytes());
    let scen = write(
        &d,
        "s.txt",
        format!("kingdom: {name}\nexpect trash: Copper\n").as_bytes(),
    );
    for args in [
        vec!["cards", "list", cards.as_str()],
        vec!["check", dom.as_str()],
        vec![
            "sweep",
            "strategies/big_money.dom",
            "strategies/big_money.dom",
            "--kingdoms",
            kingdoms.as_str(),
            "-n",
            "2",
        ],
        vec!["scenario", scen.as_str()],
    ] {
        let o = domsim(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = stderr(&o);
        assert!(e.len() < 4000, "{args:?}: {} bytes of message", e.len());
        assert!(
            e.contains("characters left out") || e.contains("QQQQ…"),
            "{args:?}: {e}"
        );
    }
}

/// Messages name what the user gave: rank's own option, and a link to a
/// missing file is not a typo for itself.
#[test]
fn messages_name_the_option_and_the_file_given() {
    let o = domsim(&[
        "rank",
        "strategies/big_money.dom",
        "strategies/smithy_big_money.dom",
        "--random-kingdoms",
        "20000000",
        "-n",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--random-kingdoms 20000000: at most"),
        "{}",
        stderr(&o)
    );
    // A control character in a card name is not spelling (names compare
    // by letters and digits): refused, shown escaped, with the suggestion.
    let o = domsim(&["kingdom", "--kingdom", "Festiv\u{1}al,Village"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown card 'Festiv\\u{1}al' (did you mean 'Festival'?)"),
        "{}",
        stderr(&o)
    );
    for empty in [",,,", "", " , "] {
        let o = domsim(&["sim", "--kingdom", empty, "-n", "2"]);
        assert_eq!(o.status.code(), Some(2), "{empty:?}");
        assert!(stderr(&o).contains("names no card"), "{}", stderr(&o));
    }
    let d = scratch("broken-link");
    let link = d.join("broken.dom");
    std::os::unix::fs::symlink(d.join("missing.dom"), &link).unwrap();
    let o = domsim(&[
        "sim",
        link.to_str().unwrap(),
        "builtin:big-money",
        "-n",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!stderr(&o).contains("did you mean"), "{}", stderr(&o));
    assert!(stderr(&o).contains("broken.dom"), "{}", stderr(&o));
}

/// A folder of strategies expands to its regular `.dom` files: a FIFO (no
/// writer: reading it would block forever) or a folder named `x.dom` is
/// not a strategy file.
#[test]
fn a_strategy_folder_skips_what_is_not_a_file() {
    let d = scratch("folder-fifo");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for f in ["big_money.dom", "big_money_ultimate.dom"] {
        std::fs::copy(root.join("strategies").join(f), d.join(f)).unwrap();
    }
    std::fs::create_dir(d.join("dir.dom")).unwrap();
    let fifo = d.join("pipe.dom");
    let made = Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let mut child = Command::new(env!("CARGO_BIN_EXE_domsim"))
        .args(["matrix", d.to_str().unwrap(), "-n", "10", "-o"])
        .arg(d.join("m.csv"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let t = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if t.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            let _ = child.wait();
            panic!("matrix blocked on the FIFO");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success());
}

/// `rank` over several kingdoms (`--random-kingdoms K`, `--kingdoms FILE`)
/// draws kingdom k from (--seed, k) or reads it from the file: the options
/// of one random or filled kingdom, `--kingdom-seed` and `--fill`, would
/// change nothing. They are refused, naming the option, with exit status
/// 2 and no file, instead of being silently ignored.
#[test]
fn rank_over_several_kingdoms_refuses_one_kingdom_options() {
    let d = scratch("rank-many");
    let ks = d.join("kingdoms.txt");
    std::fs::write(&ks, format!("{TEN}\n")).unwrap();
    let out = d.join("r.csv");
    let bm = "strategies/big_money.dom";
    let sbm = "strategies/smithy_big_money.dom";
    for (list, opt, needle) in [
        (
            ["--random-kingdoms", "2"],
            vec!["--kingdom-seed", "77"],
            "--kingdom-seed 77 goes with --random or --fill (one kingdom), not with --random-kingdoms K",
        ),
        (
            ["--kingdoms", ks.to_str().unwrap()],
            vec!["--kingdom-seed", "77"],
            "not with --kingdoms FILE",
        ),
        (
            ["--random-kingdoms", "2"],
            vec!["--fill"],
            "--fill completes one --kingdom list, not the kingdoms of --random-kingdoms K",
        ),
        (
            ["--kingdoms", ks.to_str().unwrap()],
            vec!["--fill"],
            "not the kingdoms of --kingdoms FILE",
        ),
    ] {
        let mut args = vec!["rank", bm, sbm, "-n", "10", "-o", out.to_str().unwrap()];
        args.extend_from_slice(&list);
        args.extend_from_slice(&opt);
        let o = domsim(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: expected '{needle}' in: {err}");
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    }
    // Without them the same rankings run.
    let o = domsim(&["rank", bm, sbm, "-n", "10", "--random-kingdoms", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// The options of a drawn kingdom (`--fill`, `--sets`) with a kingdom that
/// draws nothing (a preset, a full list, `--random` for `--fill`) were
/// read and ignored: `sim --preset "First Game" --fill` played the preset
/// with no word. They are refused, with status 2 and no file written; the
/// same options where they draw cards still run.
#[test]
fn kingdom_options_that_would_be_ignored_are_refused() {
    let d = scratch("ignored-kingdom-options");
    let out = d.join("s.csv");
    let o_path = out.to_str().unwrap();
    for (args, needle) in [
        (
            vec!["--preset", "First Game", "--fill"],
            "--fill completes a --kingdom list of fewer than 10 cards; it does not go with --preset",
        ),
        (
            vec!["--random", "--fill"],
            "it does not go with --random",
        ),
        (
            vec!["--preset", "First Game", "--sets", "intrigue"],
            "--sets intrigue goes with --random or --fill",
        ),
        (
            vec!["--kingdom", "Smithy,Village", "--sets", "intrigue"],
            "--sets intrigue goes with --random or --fill",
        ),
    ] {
        let mut a = vec!["sim", "-n", "20", "-o", o_path];
        a.extend_from_slice(&args);
        let o = domsim(&a);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{a:?}: {err}");
        assert!(err.contains(needle), "{a:?}: expected '{needle}' in: {err}");
        assert!(!out.exists(), "{a:?} wrote {}", out.display());
    }
    for args in [
        vec![
            "--kingdom",
            "Smithy,Village",
            "--fill",
            "--sets",
            "intrigue",
        ],
        vec!["--random", "--sets", "intrigue"],
        vec!["--preset", "First Game"],
    ] {
        let mut a = vec!["sim", "-n", "20"];
        a.extend_from_slice(&args);
        let o = domsim(&a);
        assert!(o.status.success(), "{a:?}: {}", stderr(&o));
    }
}

/// "unknown card" names `--cards` when the name is in no card set (issue
/// 45): the shipped card file that defines a data card of that name, else
/// the option alone; with the file given, the kingdom is accepted.
#[test]
fn unknown_card_hints_at_the_card_file_that_defines_it() {
    let err = rejects(
        "hint-post-rider",
        &["--kingdom", "Post Rider", "-n", "2"],
        "--kingdom: unknown card 'Post Rider'",
    );
    assert!(
        err.contains("a data card of that name is defined in cards/post_rider.toml, cards/post_rider_b.toml: load it with --cards cards/post_rider.toml"),
        "{err}"
    );
    let err = rejects(
        "hint-none",
        &["--kingdom", "Qwxyzzy", "-n", "2"],
        "unknown card 'Qwxyzzy'",
    );
    assert!(
        err.contains("if it is a data card, load its card file with --cards FILE"),
        "{err}"
    );
    assert!(!err.contains("defined in"), "{err}");
    let o = domsim(&[
        "--cards",
        "cards/post_rider.toml",
        "kingdom",
        "--kingdom",
        "Post Rider",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}
