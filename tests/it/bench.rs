//! `domsim bench`: the throughput suite runs end to end at a tiny scale
//! (table, machine description, every workload, CSV), works from any
//! directory, and rejects bad options with exit status 2 and no file. No
//! test looks at a time.

use super::cli::{csv_lines, domsim, entries, scratch, stderr, stdout};
use domsim::bench::{CSV_COLUMNS, WORKLOADS};
use std::process::Command;

/// Fails, showing `text`, unless it contains every one of `wants`.
fn assert_mentions(text: &str, wants: &[&str]) {
    for want in wants {
        assert!(text.contains(want), "missing {want:?} in\n{text}");
    }
}

const TABLE_HEADER: &str = "| workload | players | games | threads | wall s | CPU s | games/s | games/s per thread | speed-up vs 1 thread |";

#[test]
fn bench_quick_prints_every_workload_and_writes_csv() {
    let d = scratch("bench-csv");
    let out = d.join("bench.csv");
    let o = domsim(&[
        "bench",
        "--quick",
        "--scale",
        "0.01",
        "--threads",
        "1,2",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains(TABLE_HEADER), "{text}");
    for key in [
        "- cpu: ",
        "- logical_cores: ",
        "- os: ",
        "- domsim_version: ",
        "- build: ",
    ] {
        assert!(text.contains(key), "missing {key:?} in\n{text}");
    }
    // Every workload, on 1 and on 2 threads.
    for w in &WORKLOADS {
        for t in [1, 2] {
            let row = format!("| {} | {} | ", w.name, w.players());
            let n = text
                .lines()
                .filter(|l| l.starts_with(&row) && l.split(" | ").nth(3) == Some(&t.to_string()))
                .count();
            assert_eq!(n, 1, "{} on {t} thread(s) in\n{text}", w.name);
        }
    }
    // The CSV: metadata, the header, one line per row; nothing else left.
    assert_eq!(entries(&d), ["bench.csv"]);
    let csv = std::fs::read_to_string(&out).unwrap();
    for key in [
        "# command: bench",
        "# cpu: ",
        "# logical_cores: ",
        "# build: ",
        "# threads: 1,2",
        "# scale: 0.01",
    ] {
        assert!(csv.contains(key), "missing {key:?} in\n{csv}");
    }
    let lines = csv_lines(&csv);
    assert_eq!(lines[0], CSV_COLUMNS.join(","));
    assert_eq!(lines.len(), 1 + 2 * WORKLOADS.len(), "{csv}");
    let mut rd = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .from_reader(csv.as_bytes());
    for (i, rec) in rd.records().enumerate() {
        let r = rec.unwrap();
        assert_eq!(r.len(), CSV_COLUMNS.len());
        let w = &WORKLOADS[i / 2];
        assert_eq!(&r[0], w.name);
        assert_eq!(r[1].parse::<usize>().unwrap(), w.players());
        assert!(r[2].parse::<u64>().unwrap() >= 1);
        assert_eq!(r[3].parse::<usize>().unwrap(), 1 + i % 2);
        for col in [4, 6, 7, 8] {
            assert!(r[col].parse::<f64>().unwrap() >= 0.0, "{:?}", r);
        }
        if i % 2 == 0 {
            assert_eq!(&r[8], "1.0000", "1 thread is the speed-up's reference");
        }
    }
}

#[test]
fn bench_only_and_from_another_directory() {
    // Run away from the source tree: the shipped strategies are still found.
    let d = scratch("bench-elsewhere");
    let o = Command::new(env!("CARGO_BIN_EXE_domsim"))
        .args([
            "bench",
            "--quick",
            "--scale",
            "0.01",
            "-j",
            "1",
            "--only",
            "double WITCH",
        ])
        .current_dir(&d)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("| Double Witch mirror | 2 | "), "{text}");
    assert!(!text.contains("Big Money mirror"), "{text}");
    assert_eq!(
        text.lines().filter(|l| l.starts_with("| Double")).count(),
        1
    );
    assert!(entries(&d).is_empty());
}

#[test]
fn bench_bad_options_exit_2_and_leave_no_file() {
    let d = scratch("bench-bad");
    let out = d.join("b.csv");
    let o_path = out.to_str().unwrap().to_string();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--threads", "0"], "out of range"),
        (vec!["--threads", "-1"], "out of range"),
        (vec!["--threads", "2000"], "out of range"),
        (vec!["--threads", "1,x"], "'x' is not a thread count"),
        (vec!["--threads", "1,,2"], "empty thread count"),
        (vec!["--scale", "-1"], "-1 is out of range"),
        (vec!["--scale", "0"], "0 is out of range"),
        (vec!["--scale", "nan"], "out of range"),
        (vec!["--scale", "lots"], "'lots' is not a number"),
        (
            vec!["--only", "seaside"],
            "--only 'seaside' matches no workload",
        ),
        (vec!["--frobnicate"], "--frobnicate"),
    ];
    for (args, needle) in cases {
        let mut full = vec!["bench", "--quick", "-o", &o_path];
        if !args.contains(&"--scale") {
            full.extend(["--scale", "0.01"]);
        }
        full.extend(args.iter().copied());
        let o = domsim(&full);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{args:?}: {}", stdout(&o));
        assert!(entries(&d).is_empty(), "{args:?} left {:?}", entries(&d));
    }
    // Output path is a directory / in a missing directory: refused before
    // any game is played.
    for (path, needle) in [
        (d.to_str().unwrap().to_string(), "is a directory"),
        (
            d.join("nope/b.csv").to_str().unwrap().to_string(),
            "does not exist",
        ),
    ] {
        let o = domsim(&["bench", "--quick", "--scale", "0.01", "-o", &path]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    }
    assert!(entries(&d).is_empty());
}

/// `scripts/pgo.sh` (the profile-guided build, run in full by `.ci/run`
/// with `--verify`): its help names every step and option, and a bad
/// argument is refused with status 2 before anything is built.
#[test]
fn pgo_script_help_and_bad_argument() {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/pgo.sh");
    let o = Command::new(&script).arg("--help").output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let help = stdout(&o);
    assert_mentions(
        &help,
        &[
            "--train-only",
            "--verify",
            "llvm-profdata",
            "target/pgo/release/domsim",
            "status 3",
        ],
    );
    assert!(
        !help.contains("set -euo"),
        "help runs into the code:\n{help}"
    );
    let o = Command::new(&script).arg("--fast").output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown argument '--fast'"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).is_empty());
}

/// `-o` may not be a strategy file a workload reads (or a base it
/// extends): it was replaced by the CSV, in the folder bench plays from.
/// Run in a copy of the strategies, never the source tree's.
#[test]
fn bench_refuses_to_overwrite_its_strategy_files() {
    let d = scratch("bench-clobber");
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("strategies");
    std::fs::create_dir(d.join("strategies")).unwrap();
    for f in [
        "big_money.dom",
        "smithy_big_money.dom",
        "big_money_ultimate.dom",
    ] {
        std::fs::copy(src.join(f), d.join("strategies").join(f)).unwrap();
    }
    // Smithy BM extends Big Money Ultimate: a base is an input too.
    for (only, target) in [
        ("big money mirror", "strategies/big_money.dom"),
        (
            "smithy bm vs bm ultimate",
            "strategies/big_money_ultimate.dom",
        ),
    ] {
        let before = std::fs::read(d.join(target)).unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_domsim"))
            .args(["bench", "--quick", "--scale", "0.01", "-j", "1"])
            .args(["--only", only, "-o", target])
            .current_dir(&*d)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{only}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("refusing to overwrite an input"),
            "{}",
            stderr(&o)
        );
        assert_eq!(
            std::fs::read(d.join(target)).unwrap(),
            before,
            "{target} intact"
        );
    }
    assert_eq!(entries(&d), ["strategies"]);
}

/// `scripts/ab.sh` (wall-time A/B of two builds run at once): one small
/// round of the test binary against itself, a workload whose name holds a
/// comma included, gives the table and the raw CSV; help exits 0 and bad
/// arguments exit 2 before anything runs, with no file written. The
/// ratios it prints are times and are not judged.
#[test]
fn ab_script_runs_one_round_and_refuses_bad_arguments() {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/ab.sh");
    let bin = env!("CARGO_BIN_EXE_domsim");
    let d = scratch("ab");
    let out = d.join("ab.csv");
    // The script with these arguments (paths as they are).
    let ab = |args: &[&std::ffi::OsStr]| Command::new(&script).args(args).output().unwrap();
    let os = |s: &'static str| std::ffi::OsStr::new(s);
    // One tiny round of the test binary against itself, `--only` each of
    // `only`, the rows to `to`.
    let small = |only: &[&'static str], to: &std::path::Path| {
        let mut args = vec![os("-r"), os("1"), os("--scale"), os("0.002")];
        for &w in only {
            args.extend([os("--only"), os(w)]);
        }
        args.extend([os("-o"), to.as_os_str(), os(bin), os(bin)]);
        ab(&args)
    };
    let o = small(&["hivemind", "new salem, 5 players (shipped"], &out);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let table = stdout(&o);
    assert_mentions(
        &table,
        &[
            "| workload | OLD games/s (median) | NEW games/s (median) |",
            "| Smithy BM vs BMU (HiveMind rules) | ",
            "| New Salem, 5 players (shipped bots) | ",
        ],
    );
    // Every row of the table has a ratio and a range (no row broken by
    // the comma in a name).
    for row in table
        .lines()
        .filter(|l| l.starts_with("| Smithy") || l.starts_with("| New"))
    {
        assert_eq!(row.matches(" | x").count(), 2, "{row}");
        assert!(!row.contains("| 0 |"), "{row}");
    }
    let csv = std::fs::read_to_string(&out).unwrap();
    assert!(
        csv.starts_with("# command: scripts/ab.sh -r 1 --scale 0.002"),
        "{csv}"
    );
    let rows = csv_lines(&csv);
    assert!(rows[0].starts_with("build,round,cpu,workload,"), "{csv}");
    assert_eq!(
        rows.len(),
        5,
        "a header and old/new rows of two workloads:\n{csv}"
    );
    assert!(rows[1..]
        .iter()
        .all(|r| r.starts_with("old,1,") || r.starts_with("new,1,")));
    assert_eq!(entries(&d), ["ab.csv"], "no temporary file left");

    let o = ab(&[os("--help")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("--rounds"), "{}", stdout(&o));
    assert!(!stdout(&o).contains("set -euo"), "{}", stdout(&o));
    let bad: [(&[&str], &str); 6] = [
        (
            &["-r", "0", bin, bin],
            "--rounds must be a whole number >= 1, not \"0\"",
        ),
        (
            &["--scale", "0.0", bin, bin],
            "--scale must be a positive number, not \"0.0\"",
        ),
        (
            &["--scale", "fast", bin, bin],
            "--scale must be a positive number",
        ),
        (&[bin], "expected two builds"),
        (&["--speed", bin, bin], "unknown option --speed"),
        (
            &[bin, "/nonexistent/domsim"],
            "/nonexistent/domsim is not an executable file",
        ),
    ];
    for (args, want) in bad {
        let args: Vec<&std::ffi::OsStr> = args.iter().map(|&a| os(a)).collect();
        let o = ab(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{args:?}");
    }
    let missing = d.join("no/such/dir/ab.csv");
    let o = ab(&[
        os("-r"),
        os("1"),
        os("-o"),
        missing.as_os_str(),
        os(bin),
        os(bin),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("no such directory"), "{}", stderr(&o));
    assert_eq!(entries(&d), ["ab.csv"]);
    // A symlink is followed: one into a missing directory is refused
    // before any run, one to a file has its target written.
    let dangling = d.join("dangling.csv");
    std::os::unix::fs::symlink(d.join("gone/x.csv"), &dangling).unwrap();
    let o = small(&["hivemind"], &dangling);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("missing directory"), "{}", stderr(&o));
    std::fs::remove_file(&dangling).unwrap();
    let link = d.join("link.csv");
    std::os::unix::fs::symlink(&out, &link).unwrap();
    let o = small(&["hivemind"], &link);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(csv_lines(&std::fs::read_to_string(&out).unwrap()).len(), 3);
    std::fs::remove_file(&link).unwrap();
    assert_eq!(entries(&d), ["ab.csv"]);

    // Allowed a single CPU (the first this test may use), the builds
    // alternate (and say so).
    let first_cpu = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|st| {
            let list = st
                .lines()
                .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))?;
            let first = list.trim().split([',', '-']).next()?;
            first.parse::<u32>().ok()
        });
    if let (Some(cpu), true) = (first_cpu, std::path::Path::new("/usr/bin/taskset").exists()) {
        let o = Command::new("taskset")
            .args(["-c", &cpu.to_string()])
            .arg(&script)
            .args([
                "-r", "1", "--scale", "0.002", "--only", "hivemind", bin, bin,
            ])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_mentions(&stderr(&o), &["alternate"]);
        assert_mentions(
            &stdout(&o),
            &[
                "1 round of",
                "one after the other",
                "| Smithy BM vs BMU (HiveMind rules) | ",
            ],
        );
    }
}
