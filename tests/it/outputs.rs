//! Outputs and inputs behave like a Unix tool's (issues 17 and 21): `-` is
//! standard output, links are followed, FIFOs and devices are written
//! through, write errors are errors, an output may never be an input or
//! another output, every read is bounded, no panic on a failed or closed
//! standard output, and leftovers of a killed run are cleaned.

use crate::cli::{domsim, entries, scratch, stderr, stdout};
use std::os::unix::fs::FileTypeExt;
use std::path::Path;
use std::process::{Command, Stdio};

const BM: &str = "builtin:big-money";

fn no_panic(o: &std::process::Output) {
    let e = stderr(o);
    assert!(!e.contains("panicked"), "{e}");
}

#[test]
fn dash_is_standard_output() {
    let d = scratch("dash");
    let o = Command::new(env!("CARGO_BIN_EXE_domsim"))
        .args(["sim", BM, BM, "-n", "20", "-o", "-"])
        .current_dir(&*d)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("strategy,source,source_hash,games"), "{out}");
    assert!(
        entries(&d).is_empty(),
        "no file named '-': {:?}",
        entries(&d)
    );
    assert!(!stderr(&o).contains("wrote -"), "{}", stderr(&o));
}

#[test]
fn symlink_target_is_written_and_link_kept() {
    let d = scratch("symlink");
    let real = d.join("real.csv");
    std::fs::write(&real, "old").unwrap();
    let link = d.join("link.csv");
    std::os::unix::fs::symlink("real.csv", &link).unwrap();
    let o = domsim(&["sim", BM, BM, "-n", "20", "-o", link.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::read_to_string(&real)
        .unwrap()
        .contains("strategy,source"));
    assert_eq!(entries(&d), ["link.csv", "real.csv"]);
}

#[test]
fn fifo_is_written_through() {
    let d = scratch("fifo");
    let fifo = d.join("pipe.csv");
    let st = Command::new("mkfifo").arg(&fifo).status();
    if !st.map(|s| s.success()).unwrap_or(false) {
        eprintln!("mkfifo unavailable; skipping");
        return;
    }
    let reader = {
        let f = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(f).unwrap())
    };
    let o = domsim(&["sim", BM, BM, "-n", "20", "-o", fifo.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = reader.join().unwrap();
    assert!(text.contains("strategy,source"), "{text}");
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
}

#[test]
fn dev_full_is_an_error_not_a_replacement() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    for args in [
        vec!["sim", BM, BM, "-n", "20", "-o", "/dev/full"],
        vec!["sim", BM, BM, "-n", "20", "--report", "/dev/full"],
    ] {
        let o = domsim(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("/dev/full"), "{}", stderr(&o));
        no_panic(&o);
        assert!(std::fs::metadata("/dev/full")
            .unwrap()
            .file_type()
            .is_char_device());
    }
    // Writing to /dev/null works and leaves it a device.
    let o = domsim(&["sim", BM, BM, "-n", "20", "-o", "/dev/null"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

fn run_to_dev_full(args: &[&str]) -> std::process::Output {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    Command::new(env!("CARGO_BIN_EXE_domsim"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

#[test]
fn full_standard_output_is_an_error_without_panic() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    for args in [
        vec!["presets"],
        vec!["log", BM, BM],
        vec!["sim", BM, BM, "-n", "20"],
    ] {
        let o = run_to_dev_full(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("standard output"), "{}", stderr(&o));
        no_panic(&o);
    }
}

#[test]
fn closed_pipe_ends_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_domsim"))
        .args(["log", BM, BM])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close the reading end at once, as `| head -0` would.
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    no_panic(&o);
}

#[test]
fn an_output_may_not_be_an_input_or_another_output() {
    let d = scratch("clash");
    let strat = d.join("bm.dom");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("strategies/big_money.dom"),
        &strat,
    )
    .unwrap();
    let before = std::fs::read(&strat).unwrap();
    let s = strat.to_str().unwrap();
    let o = domsim(&["sim", s, BM, "-n", "20", "-o", s]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("same file as the input"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(&strat).unwrap(), before, "input intact");
    // Through a symbolic link, too.
    let link = d.join("link.csv");
    std::os::unix::fs::symlink(&strat, &link).unwrap();
    let o = domsim(&["sim", s, BM, "-n", "20", "-o", link.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(std::fs::read(&strat).unwrap(), before, "input intact");

    let ck = d.join("ck");
    let c = ck.to_str().unwrap();
    let o = domsim(&["sim", BM, BM, "-n", "3000", "--checkpoint", c, "-o", c]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("are the same file"), "{}", stderr(&o));

    let x = d.join("x").to_str().unwrap().to_string();
    let o = domsim(&["sim", BM, BM, "-n", "20", "-o", &x, "--report", &x]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("are the same file"), "{}", stderr(&o));

    let o = domsim(&["matrix", BM, BM, "-n", "20", "-o", &x, "--report", &x]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));

    // domsim report may not overwrite its input.
    let js = d.join("s.json");
    let j = js.to_str().unwrap();
    let o = domsim(&["sim", BM, BM, "-n", "20", "--save-stats", j]);
    assert!(o.status.success(), "{}", stderr(&o));
    let saved = std::fs::read(&js).unwrap();
    let o = domsim(&["report", j, "-o", j]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(std::fs::read(&js).unwrap(), saved, "input intact");
    let mut left = entries(&d);
    left.retain(|f| f.starts_with('.'));
    assert!(left.is_empty(), "no temporary file: {left:?}");
}

/// `args` must be refused (status 2) with `needle` in the message, and
/// leave the file `kept` as it was.
#[track_caller]
fn refused_intact(args: &[&str], needle: &str, kept: &Path) {
    let before = std::fs::read(kept).unwrap();
    let o = domsim(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    assert_eq!(
        std::fs::read(kept).unwrap(),
        before,
        "{args:?}: input intact"
    );
}

/// The files a run reads beyond its command line are inputs too: the base
/// a strategy extends, a `--cards` file, a sweep's kingdoms file, New
/// Salem's data files. Two outputs on standard output would interleave.
#[test]
fn an_output_may_not_be_an_extended_base_or_a_card_file() {
    let d = scratch("clash2");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for f in ["smithy_big_money.dom", "big_money_ultimate.dom"] {
        std::fs::copy(root.join("strategies").join(f), d.join(f)).unwrap();
    }
    let base = d.join("big_money_ultimate.dom");
    let b = base.to_str().unwrap();
    let smithy = d.join("smithy_big_money.dom");
    let s = smithy.to_str().unwrap();
    for verb in ["sim", "matrix"] {
        let args = [verb, s, BM, "-n", "20", "-o", b];
        refused_intact(&args, "same file as the input strategy file", &base);
    }
    // An optimizer template's bots extend a file too: --bot and -o may not
    // overwrite it.
    let t = d.join("t.domt");
    std::fs::write(
        &t,
        "extends: big_money_ultimate.dom\nbuy:\n    Smithy if count(Smithy) < {n: 1..2}\n",
    )
    .unwrap();
    for out in ["--bot", "-o"] {
        let args = [
            "optimize",
            t.to_str().unwrap(),
            "--preset",
            "First Game",
            "--candidates",
            "2",
            "-n",
            "5",
            "--max-games",
            "5",
            "--confirm",
            "5",
            out,
            b,
        ];
        refused_intact(
            &args,
            "same file as the input strategy file extended by the template",
            &base,
        );
    }
    let cards = d.join("c.toml");
    std::fs::copy(root.join("cards/post_rider.toml"), &cards).unwrap();
    let c = cards.to_str().unwrap();
    let args = ["--cards", c, "sim", BM, BM, "-n", "20", "-o", c];
    refused_intact(&args, "same file as the input card file", &cards);
    let k = d.join("k.txt");
    std::fs::write(
        &k,
        "Smithy,Village,Market,Militia,Mine,Moat,Remodel,Cellar,Workshop,Woodcutter\n",
    )
    .unwrap();
    let ks = k.to_str().unwrap();
    let args = ["sweep", BM, BM, "--kingdoms", ks, "-n", "10", "-o", ks];
    refused_intact(&args, "same file as the input --kingdoms", &k);
    let data = d.join("salem");
    std::fs::create_dir(&data).unwrap();
    for f in [
        "rules.toml",
        "buildings.csv",
        "events.toml",
        "characters.toml",
    ] {
        std::fs::copy(root.join("src/new_salem/sample").join(f), data.join(f)).unwrap();
    }
    let rules = data.join("rules.toml");
    let args = [
        "salem",
        "sim",
        "--data",
        data.to_str().unwrap(),
        "-n",
        "10",
        "-o",
        rules.to_str().unwrap(),
    ];
    refused_intact(&args, "same file as the input data file", &rules);
    let o = domsim(&["sim", BM, BM, "-n", "20", "-o", "-", "--report", "-"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("-o and --report both write to standard output"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
}

#[test]
fn edited_statistics_are_refused_with_the_field_named() {
    let d = scratch("badstats");
    let js = d.join("s.json");
    let j = js.to_str().unwrap();
    let o = domsim(&["sim", BM, BM, "-n", "30", "--save-stats", j]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&js).unwrap();
    assert!(text.contains("\"players\":2"), "compact JSON expected");
    let out = d.join("r.csv");
    let html = d.join("r.html");
    for (from, to, field) in [
        ("\"players\":2", "\"players\":9", "players"),
        ("\"players\":2", "\"players\":0", "players"),
        ("\"players\":2", "\"players\":3", "names"),
        ("\"games\":30", "\"games\":0", "games"),
        ("\"games\":30", "\"games\":31", "length"),
    ] {
        let bad = text.replacen(from, to, 1);
        assert_ne!(bad, text, "{from}");
        std::fs::write(&js, bad).unwrap();
        let o = domsim(&[
            "report",
            j,
            "-o",
            html.to_str().unwrap(),
            "--csv",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{to}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!("'{field}")),
            "{to}: {}",
            stderr(&o)
        );
        no_panic(&o);
        assert_eq!(entries(&d), ["s.json"], "{to}: nothing written");
    }
}

/// Counts no run can produce (a fault count or a card's plays of 2^64, a
/// seat's win rate of 1.5e15, more VP or turns than the games allow) are
/// refused naming the field, not printed as results.
#[test]
fn impossible_statistics_are_refused() {
    let d = scratch("badstats-counts");
    let js = d.join("s.json");
    let j = js.to_str().unwrap();
    let o = domsim(&["sim", BM, BM, "-n", "20", "--save-stats", j]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&js).unwrap()).unwrap();
    let html = d.join("r.html");
    let max = serde_json::json!(u64::MAX);
    use serde_json::json;
    let cases: Vec<(&str, serde_json::Value, &str)> = vec![
        (
            "/stats/faults",
            max.clone(),
            "field 'faults' is 18446744073709551615, more than the 20 games",
        ),
        ("/stats/faults", json!(21), "field 'faults' is 21"),
        (
            "/stats/seats/0/score",
            max.clone(),
            "field 'seats[0].score'",
        ),
        (
            "/stats/seats/1/score",
            json!(20 * 60 + 1),
            "field 'seats[1].score' is 1201",
        ),
        (
            "/stats/seats/0/score_sq",
            max.clone(),
            "field 'seats[0].score_sq'",
        ),
        (
            "/stats/strategies/0/cards/0/played",
            max.clone(),
            "field 'strategies[0].cards[0] (Copper).played' is 18446744073709551615",
        ),
        (
            "/stats/strategies/1/cards/0/owned_end",
            json!(20 * 600 + 1),
            "cards[0] (Copper).owned_end",
        ),
        (
            "/stats/strategies/0/vp_end",
            json!(4_294_967_296u64),
            "field 'strategies[0].vp_end'",
        ),
        (
            "/stats/strategies/0/turns_taken",
            json!(2001),
            "field 'strategies[0].turns_taken' is 2001",
        ),
        (
            "/stats/strategies/1/turns/0/n",
            json!(21),
            "field 'strategies[1].turns[0].n' is 21",
        ),
        (
            "/stats/strategies/1/turns/3/hit5",
            max.clone(),
            "turns[3].hit5",
        ),
        (
            "/stats/strategies/0/openings/0/games",
            json!(21),
            "openings[0].games' is 21",
        ),
        (
            "/stats/strategies/0/cards/0/first_gain_games",
            json!(21),
            "first_gain_games",
        ),
        ("/stats/names/1", json!(""), "field 'names[1]' is empty"),
        (
            "/stats/sources/1",
            json!("B | /x | not-hex"),
            "field 'sources[1]' is \"B | /x | not-hex\"",
        ),
        (
            "/stats/sources",
            json!(["A | /x | "]),
            "field 'sources' has 1 entries, expected 2",
        ),
    ];
    for (ptr, x, needle) in cases {
        let mut bad = v.clone();
        *bad.pointer_mut(ptr).unwrap_or_else(|| panic!("{ptr}")) = x;
        std::fs::write(&js, serde_json::to_vec(&bad).unwrap()).unwrap();
        let o = domsim(&["report", j, "-o", html.to_str().unwrap(), "--csv", "-"]);
        assert_eq!(o.status.code(), Some(2), "{ptr}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{ptr}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{ptr}: {}", stdout(&o));
        no_panic(&o);
        assert_eq!(entries(&d), ["s.json"], "{ptr}: nothing written");
    }
    // The file as saved is reported.
    std::fs::write(&js, serde_json::to_vec(&v).unwrap()).unwrap();
    let o = domsim(&["report", j, "-o", html.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// A saved statistics file's kingdom is a list of card names: an entry
/// that is not one (a line break would start a data row in the CSV's
/// `# kingdom:` comment line) is refused, naming the field, and nothing
/// is written, to a file or to standard output.
#[test]
fn statistics_kingdom_entries_must_be_card_names() {
    let d = scratch("badstats-kingdom");
    let js = d.join("s.json");
    let j = js.to_str().unwrap();
    let o = domsim(&["sim", BM, BM, "-n", "10", "--save-stats", j]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&js).unwrap();
    let html = d.join("r.html");
    let csv = d.join("r.csv");
    let good = domsim(&["report", j, "-o", html.to_str().unwrap()]);
    assert!(good.status.success(), "{}", stderr(&good));
    std::fs::remove_file(&html).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let first = v["stats"]["kingdom"][0].as_str().unwrap().to_string();
    let second = v["stats"]["kingdom"][1].clone();
    let split = format!("{}\n{}", &first[..2], &first[2..]);
    for (entry, needle) in [
        (
            serde_json::json!(format!("{first}\nINJ,x")),
            "field 'kingdom[0]' is",
        ),
        (serde_json::json!(split), "field 'kingdom[0]' is"),
        (serde_json::json!("Nonesuch"), "not the name of a card"),
        (second, "field 'kingdom[1]': "),
    ] {
        let mut bad = v.clone();
        bad["stats"]["kingdom"][0] = entry;
        std::fs::write(&js, serde_json::to_vec(&bad).unwrap()).unwrap();
        for csv_out in [csv.to_str().unwrap(), "-"] {
            let o = domsim(&["report", j, "-o", html.to_str().unwrap(), "--csv", csv_out]);
            assert_eq!(o.status.code(), Some(2), "{needle}: {}", stderr(&o));
            assert!(stderr(&o).contains(needle), "{needle}: {}", stderr(&o));
            assert!(stderr(&o).contains(j), "{}", stderr(&o));
            assert!(stdout(&o).is_empty(), "{}", stdout(&o));
            no_panic(&o);
            assert_eq!(entries(&d), ["s.json"], "{needle}: nothing written");
        }
    }
}

#[test]
fn endless_inputs_are_read_through_a_cap() {
    if !Path::new("/dev/zero").exists() {
        return;
    }
    for args in [
        vec!["check", "/dev/zero"],
        vec!["scenario", "/dev/zero"],
        vec!["report", "/dev/zero", "-o", "/dev/null"],
    ] {
        // A device is refused before it is opened (issue 48); a regular
        // file past the cap is refused after the cap (bad_inputs.rs).
        let o = domsim(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("not a regular file (a device)"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn a_killed_runs_temporary_file_is_cleaned_by_the_next_run() {
    let d = scratch("killed");
    // What `kill -9` leaves: a temporary file of a process that is gone
    // (4194304 is above the kernel's largest process id).
    let stale = d.join(".out.csv.domsim-tmp.4194304");
    std::fs::write(&stale, "").unwrap();
    let out = d.join("out.csv");
    let o = domsim(&["sim", BM, BM, "-n", "20", "-o", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(entries(&d), ["out.csv"]);
}

#[test]
fn negative_numbers_get_a_real_message() {
    let o = domsim(&["sim", "--precision", "-0.01"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--precision -0.01 is out of range"),
        "{}",
        stderr(&o)
    );
    for args in [
        vec!["sim", "-n", "-5"],
        vec!["matrix", BM, BM, "-n", "-5"],
        vec!["soak", "-n", "-5"],
    ] {
        let o = domsim(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = stderr(&o);
        assert!(e.contains("must be at least 1 (got -5)"), "{args:?}: {e}");
        assert!(!e.contains("-- -5"), "no useless hint: {e}");
    }
    let o = domsim(&["sim", "--seed", "-3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is not a seed"), "{}", stderr(&o));
}

#[test]
fn invisible_characters_are_shown_escaped() {
    let d = scratch("zwsp");
    let f = d.join("z.dom");
    std::fs::write(&f, "buy: Province, \u{200B}Silver\n").unwrap();
    let o = domsim(&["check", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("U+200B"), "{e}");
    assert!(!e.contains('\u{200B}'), "{e}");
}

#[test]
fn scenario_messages() {
    let d = scratch("scen");
    let f = d.join("a.txt");
    std::fs::write(&f, "players: 2\nactive: p5\nexpect active: p0\n").unwrap();
    let o = domsim(&["scenario", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("player p5 does not exist in a 2-player game"),
        "{}",
        stderr(&o)
    );
    std::fs::write(&f, "# nothing\nplayers: 2\n").unwrap();
    let o = domsim(&["scenario", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("no expectation"), "{}", stderr(&o));
    std::fs::write(&f, "").unwrap();
    let o = domsim(&["scenario", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn small_kingdoms_are_partial_or_filled() {
    let o = domsim(&["sim", BM, BM, "-n", "20", "--kingdom", "Smithy"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("partial list: 1 of 10 piles"), "{out}");
    let d = scratch("fill");
    let csv = d.join("f.csv");
    let run = |seed: &str| {
        let o = domsim(&[
            "sim",
            "strategies/double_witch.dom",
            BM,
            "-n",
            "20",
            "--kingdom",
            "Smithy",
            "--fill",
            "--sets",
            "base",
            "--kingdom-seed",
            seed,
            "-o",
            csv.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        (stdout(&o), std::fs::read_to_string(&csv).unwrap())
    };
    for seed in ["1", "2", "3", "4", "5", "6"] {
        let (out, text) = run(seed);
        assert!(out.contains("filled with"), "{out}");
        let kingdom = text
            .lines()
            .find(|l| l.starts_with("# kingdom:"))
            .expect("kingdom line")
            .to_string();
        let named: Vec<&str> = kingdom["# kingdom:".len()..]
            .split(',')
            .map(str::trim)
            .collect();
        assert_eq!(named.len(), 10, "{kingdom}");
        assert!(named.contains(&"Smithy"), "{kingdom}");
        // Double Witch buys Witch: a filler is never a card a bot buys.
        assert!(!named.contains(&"Witch"), "{kingdom}");
        // The same kingdom seed gives the same fill.
        assert_eq!(run(seed).1, text);
    }
}

/// Every output of every verb that plays is checked with the rest of the
/// command line (the verb's `from_args` in `src/commands/`), before any game: an output in a missing
/// directory fails at once with exit status 2, naming the path, even for
/// outputs written only at the end of a long run (`compare -o`/`--html`,
/// `sim --games-csv`, `sweep --summary`, `optimize --bot`).
#[test]
fn every_output_is_checked_before_any_game() {
    let d = scratch("outputs-first");
    let bad = d.join("missing").join("x.out");
    let bad = bad.to_str().unwrap();
    let few = ["-n", "20"];
    let cases: Vec<Vec<&str>> = vec![
        vec!["sim", BM, BM, "--games-csv", bad],
        vec!["sim", BM, BM, "--checkpoint", bad],
        vec!["matrix", BM, BM, "-o", bad],
        vec!["sweep", BM, BM, "--random", "50", "--summary", bad],
        vec!["rank", BM, BM, "--html", bad],
        vec![
            "optimize",
            "strategies/templates/money_draw.domt",
            "-a",
            BM,
            "--bot",
            bad,
        ],
        vec![
            "compare",
            "--a",
            "cards/post_rider.toml",
            "--b-set",
            "Post Rider:cost=5",
            "--kingdom",
            "Post Rider",
            BM,
            BM,
            "--html",
            bad,
        ],
    ];
    // A run that played before finding its bad output would have printed
    // its header and table: a failure before any game prints nothing on
    // standard output (no clock involved).
    for mut args in cases {
        if args[0] != "optimize" {
            args.extend_from_slice(&few);
        }
        let o = domsim(&args);
        no_panic(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("missing"), "{args:?}: {}", stderr(&o));
        assert_eq!(stdout(&o), "", "{args:?} played before failing");
        assert!(
            !stderr(&o).contains("games"),
            "{args:?} played before failing: {}",
            stderr(&o)
        );
        assert!(entries(&d).is_empty(), "{args:?}: {:?}", entries(&d));
    }
}

/// Run domsim in `dir` (relative paths of its outputs land there).
fn domsim_in(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_domsim"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// `-o -` puts on standard output exactly the bytes `-o FILE` writes; the
/// table and the notes go to standard error then (nothing is lost).
#[test]
fn dash_output_is_byte_identical_to_the_file() {
    let d = scratch("dash-bytes");
    let strategies = Path::new(env!("CARGO_MANIFEST_DIR")).join("strategies");
    let bm = strategies.join("big_money.dom");
    let sbm = strategies.join("smithy_big_money.dom");
    let (bm, sbm) = (bm.to_str().unwrap(), sbm.to_str().unwrap());
    // Two shards of a sim run, for merge.
    for (spec, part) in [("1/2", "p1.json"), ("2/2", "p2.json")] {
        let o = domsim_in(
            &d,
            &[
                "sim",
                bm,
                sbm,
                "-n",
                "60",
                "--shard",
                spec,
                "--save-partial",
                part,
            ],
        );
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["sim", bm, sbm, "-n", "60"], "score = win rate"),
        (vec!["matrix", bm, sbm, "-n", "20"], "cell = row's score"),
        (vec!["rank", bm, sbm, "-n", "20"], "Bradley–Terry"),
        (
            vec!["sweep", bm, sbm, "--random", "2", "-n", "6"],
            "kingdoms",
        ),
        (vec!["merge", "p1.json", "p2.json"], "merged 2 shard(s)"),
        (vec!["salem", "sim", "-p", "3", "-n", "20"], "Bots:"),
    ];
    for (args, console) in cases {
        let with = |out: &str| {
            let mut a = args.clone();
            a.extend(["-o", out]);
            let o = domsim_in(&d, &a);
            assert!(o.status.success(), "{a:?}: {}", stderr(&o));
            no_panic(&o);
            o
        };
        let to_file = with("out.csv");
        assert!(
            stdout(&to_file).contains(console),
            "{args:?}: {}",
            stdout(&to_file)
        );
        let file = std::fs::read(d.join("out.csv")).unwrap();
        let to_stdout = with("-");
        assert!(
            to_stdout.stdout == file,
            "{args:?}: stdout differs from the file:\n{}",
            stdout(&to_stdout)
        );
        assert!(
            stderr(&to_stdout).contains(console),
            "{args:?}: the console goes to stderr: {}",
            stderr(&to_stdout)
        );
        assert!(
            !stderr(&to_stdout).contains("wrote -"),
            "{}",
            stderr(&to_stdout)
        );
        std::fs::remove_file(d.join("out.csv")).unwrap();
    }
    assert_eq!(entries(&d), ["p1.json", "p2.json"]);
}

/// Spawn domsim with its standard output a pipe whose reading end is
/// closed before the run writes anything (`domsim … | head -0`).
fn run_to_closed_pipe(dir: &Path, args: &[&str]) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_domsim"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

/// `domsim ARGS` run in `dir` by a shell that applies `redirect` to it
/// (`>&-` closes standard output before domsim starts).
fn run_redirected(dir: &Path, redirect: &str, args: &[&str]) -> std::process::Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!("exec \"$0\" \"$@\" {redirect}"))
        .arg(env!("CARGO_BIN_EXE_domsim"))
        .args(args)
        .current_dir(dir)
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

/// A closed standard output (`>&-`) is not a place to write a result:
/// Rust's runtime puts /dev/null there and every write "succeeded", so
/// `-o -`, `merge -o -`, `report --csv -` and `presets` exited 0 with the
/// result lost. They are now refused with status 2 (an output `-` before
/// any game), and the other outputs are not written; a run with files to
/// write still writes them. Discarding output on purpose (`>/dev/null`,
/// `1<>/dev/null` as Python's DEVNULL does) still works.
#[test]
fn a_closed_standard_output_is_an_error() {
    let d = scratch("closed-stdout");
    let here = env!("CARGO_MANIFEST_DIR");
    let smithy = format!("{here}/strategies/smithy_big_money.dom");
    let part = d.join("p.json");
    let o = domsim(&[
        "sim",
        BM,
        &smithy,
        "-n",
        "20",
        "--shard",
        "1/1",
        "--save-partial",
        part.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let stats = d.join("s.json");
    let o = domsim(&[
        "sim",
        BM,
        BM,
        "-n",
        "20",
        "--save-stats",
        stats.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let kept = ["p.json", "s.json"];
    for (args, needle) in [
        (
            vec!["presets"],
            "cannot write to standard output: standard output is closed",
        ),
        (
            vec!["sim", BM, BM, "-n", "20", "-o", "-"],
            "cannot write '-': standard output is closed",
        ),
        (
            vec!["sim", BM, BM, "-n", "20", "-o", "-", "--report", "a.html"],
            "cannot write '-'",
        ),
        (
            vec!["merge", "p.json", "-o", "-"],
            "cannot write '-': standard output is closed",
        ),
        (
            vec!["merge", "p.json", "-o", "/dev/stdout"],
            "cannot write '/dev/stdout': standard output is closed",
        ),
        (
            vec!["report", "s.json", "-o", "a.html", "--csv", "-"],
            "cannot write '-'",
        ),
    ] {
        let o = run_redirected(&d, ">&-", &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
        no_panic(&o);
        assert_eq!(entries(&d), kept, "{args:?}: nothing written");
    }
    // Files still to write are written; the console text is dropped.
    let o = run_redirected(&d, ">&-", &["sim", BM, BM, "-n", "20", "-o", "a.csv"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(std::fs::read_to_string(d.join("a.csv"))
        .unwrap()
        .starts_with("# domsim"));
    // Output discarded on purpose is no error.
    for redirect in [">/dev/null", "1<>/dev/null"] {
        for args in [vec!["presets"], vec!["sim", BM, BM, "-n", "20", "-o", "-"]] {
            let o = run_redirected(&d, redirect, &args);
            assert_eq!(
                o.status.code(),
                Some(0),
                "{redirect} {args:?}: {}",
                stderr(&o)
            );
        }
    }
}

/// A closed standard output (the table's reader gone) does not cost the
/// files asked for: they are written and the run ends with status 0.
#[test]
fn files_are_written_when_stderr_fails() {
    // Throne Room's file names cards absent from First Game: a warning on
    // standard error, which is /dev/full here. It used to panic (exit 101)
    // before writing the files.
    if !Path::new("/dev/full").exists() {
        return;
    }
    let d = scratch("stderr-full");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("strategies");
    let tr = root.join("throne_room.dom");
    let tr = tr.to_str().unwrap();
    for verb in ["sim", "matrix", "rank"] {
        // rank leaves such a bot out by default (`--absent leave`): kept,
        // it plays with the warning.
        let mut args = vec![verb, tr, BM, "-n", "20", "-o", "a.csv"];
        if verb == "rank" {
            args.extend(["--absent", "keep"]);
        }
        let o = Command::new(env!("CARGO_BIN_EXE_domsim"))
            .args(&args)
            .current_dir(&*d)
            .stdout(Stdio::null())
            .stderr(
                std::fs::OpenOptions::new()
                    .write(true)
                    .open("/dev/full")
                    .unwrap(),
            )
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{verb}");
        let csv = std::fs::read_to_string(d.join("a.csv")).unwrap();
        assert!(csv.starts_with("# domsim"), "{verb}: {csv}");
        std::fs::remove_file(d.join("a.csv")).unwrap();
    }
}

#[test]
fn files_are_written_when_stdout_is_a_closed_pipe() {
    let d = scratch("closed-pipe-files");
    let cases: Vec<Vec<&str>> = vec![
        vec![
            "sim", BM, BM, "-n", "40", "-o", "a.csv", "--report", "a.html",
        ],
        vec![
            "rank", BM, BM, "-n", "20", "-o", "a.csv", "--html", "a.html",
        ],
        vec![
            "matrix", BM, BM, "-n", "20", "-o", "a.csv", "--report", "a.html",
        ],
        vec![
            "salem", "sim", "-p", "3", "-n", "20", "-o", "a.csv", "--report", "a.html",
        ],
        // The CSV's own reader is gone: the other output is still written.
        vec!["sim", BM, BM, "-n", "40", "-o", "-", "--report", "a.html"],
    ];
    for args in cases {
        let o = run_to_closed_pipe(&d, &args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        no_panic(&o);
        let html = std::fs::read_to_string(d.join("a.html")).unwrap();
        assert!(html.contains("</html>"), "{args:?}");
        if args.contains(&"a.csv") {
            let csv = std::fs::read_to_string(d.join("a.csv")).unwrap();
            assert!(csv.starts_with("# domsim"), "{args:?}: {csv}");
        }
        for f in entries(&d) {
            std::fs::remove_file(d.join(f)).unwrap();
        }
    }
}

/// A run whose later output fails (`/dev/full`) replaces none of the
/// existing files it was to write, and leaves no temporary file.
#[test]
fn a_failed_output_leaves_every_existing_output_untouched() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    let d = scratch("all-or-nothing");
    let cases: Vec<Vec<&str>> = vec![
        vec![
            "sim",
            BM,
            BM,
            "-n",
            "40",
            "-o",
            "a.csv",
            "--report",
            "/dev/full",
        ],
        vec![
            "sim",
            BM,
            BM,
            "-n",
            "40",
            "-o",
            "a.csv",
            "--games-csv",
            "b.csv",
            "--save-stats",
            "/dev/full",
        ],
        vec![
            "matrix",
            BM,
            BM,
            "-n",
            "20",
            "-o",
            "a.csv",
            "--report",
            "/dev/full",
        ],
        vec![
            "rank",
            BM,
            BM,
            "-n",
            "20",
            "-o",
            "a.csv",
            "--html",
            "/dev/full",
        ],
        vec![
            "sweep",
            BM,
            BM,
            "--random",
            "2",
            "-n",
            "6",
            "-o",
            "a.csv",
            "--summary",
            "/dev/full",
        ],
        vec![
            "salem",
            "sim",
            "-p",
            "3",
            "-n",
            "20",
            "-o",
            "a.csv",
            "--report",
            "/dev/full",
        ],
        vec![
            "compare",
            "--a",
            "../cards/post_rider.toml",
            "--b-set",
            "Post Rider:cost=5",
            "--kingdom",
            "Post Rider",
            "--fill",
            BM,
            BM,
            "-n",
            "20",
            "-o",
            "a.csv",
            "--html",
            "/dev/full",
        ],
    ];
    for args in cases {
        std::fs::write(d.join("a.csv"), "OLD\n").unwrap();
        std::fs::write(d.join("b.csv"), "OLD\n").unwrap();
        let args: Vec<String> = args
            .iter()
            .map(|a| match a.strip_prefix("../") {
                Some(rel) => Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join(rel)
                    .display()
                    .to_string(),
                None => a.to_string(),
            })
            .collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = domsim_in(&d, &args);
        no_panic(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("/dev/full"), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("wrote"), "{args:?}: {}", stderr(&o));
        assert_eq!(
            std::fs::read_to_string(d.join("a.csv")).unwrap(),
            "OLD\n",
            "{args:?}"
        );
        assert_eq!(
            std::fs::read_to_string(d.join("b.csv")).unwrap(),
            "OLD\n",
            "{args:?}"
        );
        assert_eq!(entries(&d), ["a.csv", "b.csv"], "{args:?}");
    }
}

#[test]
fn help_and_version_to_a_full_stdout_fail() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    for args in [vec!["--help"], vec!["--version"], vec!["sim", "--help"]] {
        let o = run_to_dev_full(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("cannot write to standard output"),
            "{args:?}: {}",
            stderr(&o)
        );
        no_panic(&o);
    }
    // A closed pipe is not an error.
    let d = scratch("help-pipe");
    let o = run_to_closed_pipe(&d, &["--help"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// Spawn domsim in `dir` with its standard output appending to `file`
/// (`domsim … >> file`).
fn run_appending_to(dir: &Path, file: &Path, args: &[&str]) -> std::process::Output {
    let f = std::fs::OpenOptions::new().append(true).open(file).unwrap();
    Command::new(env!("CARGO_BIN_EXE_domsim"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::from(f))
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

/// `-o /dev/stdout` (and `/dev/fd/1`, `/proc/self/fd/1`, a link to
/// `/dev/stdout`) is standard output, as `-` is: written through the
/// descriptor, so `>> log` appends to the log. (Opened anew, `/dev/stdout`
/// started at offset 0 of the log and overwrote what it held.)
#[cfg(target_os = "linux")]
#[test]
fn dev_stdout_appends_like_dash() {
    let d = scratch("dev-stdout");
    std::os::unix::fs::symlink("/dev/stdout", d.join("link")).unwrap();
    let base = ["sim", BM, BM, "-n", "20"];
    let mut a = base.to_vec();
    a.extend(["-o", "out.csv"]);
    let o = domsim_in(&d, &a);
    assert!(o.status.success(), "{}", stderr(&o));
    let csv = std::fs::read(d.join("out.csv")).unwrap();
    for out in ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", "link", "-"] {
        let log = d.join("log.txt");
        std::fs::write(&log, "earlier line 1\nearlier line 2\n").unwrap();
        let mut a = base.to_vec();
        a.extend(["-o", out]);
        let o = run_appending_to(&d, &log, &a);
        assert!(o.status.success(), "{out}: {}", stderr(&o));
        no_panic(&o);
        let mut want = b"earlier line 1\nearlier line 2\n".to_vec();
        want.extend(&csv);
        let got = std::fs::read(&log).unwrap();
        assert!(
            got == want,
            "-o {out} >> log: the log is not its old lines and the CSV:\n{}",
            String::from_utf8_lossy(&got)
        );
        assert!(
            stderr(&o).contains("score = win rate"),
            "{out}: the console goes to stderr: {}",
            stderr(&o)
        );
        assert!(!stderr(&o).contains("wrote"), "{out}: {}", stderr(&o));
    }
    std::fs::remove_file(d.join("log.txt")).unwrap();
    assert_eq!(entries(&d), ["link", "out.csv"]);
}

/// Two outputs on standard output are refused whatever its name: `-o -
/// --report /dev/stdout` wrote both, one after the other into a pipe and
/// over each other into a file (`> out`: the CSV was lost under the page).
#[cfg(target_os = "linux")]
#[test]
fn two_outputs_on_standard_output_under_any_name_are_refused() {
    let d = scratch("two-stdout");
    for (a, b) in [
        ("-", "/dev/stdout"),
        ("/dev/stdout", "/dev/fd/1"),
        ("/proc/self/fd/1", "-"),
    ] {
        let out = d.join("out.txt");
        std::fs::write(&out, "").unwrap();
        let f = std::fs::OpenOptions::new().write(true).open(&out).unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_domsim"))
            .args(["sim", BM, BM, "-n", "20", "-o", a, "--report", b])
            .current_dir(&*d)
            .stdout(Stdio::from(f))
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(
            o.status.code(),
            Some(2),
            "-o {a} --report {b}: {}",
            stderr(&o)
        );
        assert!(
            stderr(&o).contains("both write to standard output"),
            "{}",
            stderr(&o)
        );
        assert_eq!(
            std::fs::read_to_string(&out).unwrap(),
            "",
            "nothing written"
        );
        no_panic(&o);
    }
    // One of them on standard output, the other a file: fine.
    let o = domsim_in(
        &d,
        &[
            "sim",
            BM,
            BM,
            "-n",
            "20",
            "-o",
            "/dev/stdout",
            "--report",
            "r.html",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("strategy,source"), "{}", stdout(&o));
    assert_eq!(entries(&d), ["out.txt", "r.html"]);
}

/// domsim run so that file permissions apply: as root (who may write any
/// file) it runs as `nobody` through `setpriv`; None (skip) when root has
/// no usable `setpriv`.
#[cfg(target_os = "linux")]
fn domsim_as_unprivileged() -> Option<Command> {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let root = status
        .lines()
        .find_map(|l| l.strip_prefix("Uid:"))
        .and_then(|u| u.split_whitespace().nth(1))
        == Some("0");
    let bin = env!("CARGO_BIN_EXE_domsim");
    if !root {
        return Some(Command::new(bin));
    }
    let nobody = || {
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", bin]);
        c
    };
    // Can `nobody` run domsim from here at all?
    if !nobody()
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        eprintln!("running as root without a usable setpriv; skipping");
        return None;
    }
    Some(nobody())
}

/// A read-only output file is refused (exit status 2, file intact), as
/// `> FILE` refuses it: it was replaced, since the atomic rename needs only
/// the folder's permission.
#[cfg(target_os = "linux")]
#[test]
fn a_read_only_output_file_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let d = scratch("read-only");
    std::fs::set_permissions(&*d, std::fs::Permissions::from_mode(0o777)).unwrap();
    let Some(mut cmd) = domsim_as_unprivileged() else {
        return;
    };
    let ro = d.join("kept.csv");
    std::fs::write(&ro, "old\n").unwrap();
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o444)).unwrap();
    let o = cmd
        .args([
            "sim", BM, BM, "-n", "20", "-o", "kept.csv", "--report", "new.html",
        ])
        .current_dir(&*d)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("cannot write 'kept.csv': Permission denied"),
        "{}",
        stderr(&o)
    );
    no_panic(&o);
    assert_eq!(std::fs::read_to_string(&ro).unwrap(), "old\n");
    assert_eq!(entries(&d), ["kept.csv"], "nothing else written");
}

/// A writable file in a folder that takes no new file cannot be replaced
/// atomically (the temporary file beside it cannot be made): the message
/// says the folder is the cause and why it matters; it used to say only
/// "cannot write 'out/t.csv': Permission denied" of a writable file.
#[cfg(target_os = "linux")]
#[test]
fn a_folder_that_takes_no_new_file_is_named_as_the_cause() {
    use std::os::unix::fs::PermissionsExt;
    let d = scratch("read-only-folder");
    std::fs::set_permissions(&*d, std::fs::Permissions::from_mode(0o777)).unwrap();
    let Some(mut cmd) = domsim_as_unprivileged() else {
        return;
    };
    let out = d.join("out");
    std::fs::create_dir(&out).unwrap();
    let t = out.join("t.csv");
    std::fs::write(&t, "old\n").unwrap();
    std::fs::set_permissions(&t, std::fs::Permissions::from_mode(0o666)).unwrap();
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o555)).unwrap();
    let o = cmd
        .args(["sim", BM, BM, "-n", "20", "-o", "out/t.csv"])
        .current_dir(&*d)
        .output()
        .unwrap();
    // Writable again, so that the scratch folder can be removed.
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o755)).unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("cannot write 'out/t.csv': folder 'out' does not let new files be made in it"),
        "{err}"
    );
    assert!(err.contains("renames it over the result"), "{err}");
    no_panic(&o);
    assert_eq!(std::fs::read_to_string(&t).unwrap(), "old\n");
    assert_eq!(entries(&out), ["t.csv"], "nothing else written");
}

/// An output whose name is long but valid (here 240 bytes; the limit is
/// 255) is written: its temporary file, `.NAME.domsim-tmp.PID`, was longer
/// than a name may be, and the run failed with "File name too long".
#[test]
fn a_long_output_name_is_written() {
    let d = scratch("long-name");
    let name = format!("{}.csv", "r".repeat(236));
    let o = domsim_in(&d, &["sim", BM, BM, "-n", "20", "-o", &name]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read_to_string(d.join(&name))
        .unwrap()
        .contains("strategy,source"));
    assert_eq!(entries(&d), [name]);
}

/// A regular file under `/dev/` (`/dev/shm`, a tmpfs) is a file like any
/// other: replaced atomically, or created. Every path under `/dev/` was
/// taken for a device and written in place without truncating (a shorter
/// result left the old file's tail after it, exit status 0), and a new
/// file there was "No such file or directory".
#[cfg(target_os = "linux")]
#[test]
fn a_file_under_dev_shm_is_a_file() {
    let shm = Path::new("/dev/shm");
    if !shm.is_dir() || std::fs::write(shm.join(".domsim-it-probe"), "").is_err() {
        eprintln!("no writable /dev/shm; skipping");
        return;
    }
    let _ = std::fs::remove_file(shm.join(".domsim-it-probe"));
    /// Removes the test's files from /dev/shm, pass or fail.
    struct Cleanup(Vec<std::path::PathBuf>);
    impl Drop for Cleanup {
        fn drop(&mut self) {
            for p in &self.0 {
                let _ = std::fs::remove_file(p);
            }
        }
    }
    let id = std::process::id();
    let old = shm.join(format!("domsim-it-{id}-old.csv"));
    let new = shm.join(format!("domsim-it-{id}-new.csv"));
    let _clean = Cleanup(vec![old.clone(), new.clone()]);
    let d = scratch("dev-shm");
    let o = domsim_in(&d, &["sim", BM, BM, "-n", "20", "-o", "ref.csv"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let want = std::fs::read(d.join("ref.csv")).unwrap();
    std::fs::write(&old, vec![b'Z'; 100_000]).unwrap();
    for p in [&old, &new] {
        let o = domsim(&["sim", BM, BM, "-n", "20", "-o", p.to_str().unwrap()]);
        assert!(o.status.success(), "{}: {}", p.display(), stderr(&o));
        assert!(
            std::fs::read(p).unwrap() == want,
            "{}: not the CSV alone",
            p.display()
        );
    }
    let mut left: Vec<String> = std::fs::read_dir(shm)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(&format!("domsim-it-{id}")) && n.contains("domsim-tmp"))
        .collect();
    left.sort();
    assert!(left.is_empty(), "temporary files left: {left:?}");
}

/// An output to `/dev/stderr` with standard error appending to a log
/// (`2>> log`) is appended after what the log held, and the notes that
/// follow come after it: opened anew at offset 0, it overwrote the log.
#[cfg(target_os = "linux")]
#[test]
fn dev_stderr_appends_to_its_log() {
    let d = scratch("dev-stderr");
    let o = domsim_in(&d, &["sim", BM, BM, "-n", "20", "--save-stats", "ref.json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let json = std::fs::read_to_string(d.join("ref.json")).unwrap();
    for out in ["/dev/stderr", "/dev/fd/2", "/proc/self/fd/2"] {
        let log = d.join("log.txt");
        std::fs::write(&log, "earlier line 1\nearlier line 2\n").unwrap();
        let f = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_domsim"))
            .args(["sim", BM, BM, "-n", "20", "--save-stats", out])
            .current_dir(&*d)
            .stdout(Stdio::null())
            .stderr(Stdio::from(f))
            .output()
            .unwrap();
        assert!(o.status.success(), "{out}");
        let got = std::fs::read_to_string(&log).unwrap();
        assert!(
            got.starts_with("earlier line 1\nearlier line 2\n"),
            "{out}: the log lost its lines:\n{got}"
        );
        assert!(got.contains(&json), "{out}: the statistics are in the log");
        assert!(got.ends_with(&format!("wrote {out}\n")), "{out}: {got}");
    }
    std::fs::remove_file(d.join("log.txt")).unwrap();
    assert_eq!(entries(&d), ["ref.json"]);
}
