//! New Salem's playtester verbs (issue 44): `salem compare` (paired A/B
//! of a data or rule change), `salem sweep` (a rule grid), `--shard` and
//! `salem merge` (parts merge to the one-machine bytes) and `salem learn`
//! (the [belief] likelihoods of a field).

use crate::cli::{domsim, scratch, stderr, stdout};
use domsim::new_salem::belief;
use domsim::new_salem::bot;
use domsim::new_salem::data::Data;
use std::path::Path;

fn ok(args: &[&str]) -> String {
    let o = domsim(args);
    assert!(
        o.status.success(),
        "domsim {}: {}",
        args.join(" "),
        stderr(&o)
    );
    stdout(&o)
}

/// Exit status 2, a message containing `want`, and no file in `dir`.
fn refused(args: &[&str], want: &str, dir: &Path) {
    let o = domsim(args);
    assert_eq!(
        o.status.code(),
        Some(2),
        "domsim {}: {}",
        args.join(" "),
        stderr(&o)
    );
    let e = stderr(&o);
    assert!(
        e.contains(want),
        "domsim {}: {e:?} lacks {want:?}",
        args.join(" ")
    );
    assert!(!e.contains("panicked"), "{e}");
    assert_eq!(
        crate::cli::entries(dir),
        Vec::<String>::new(),
        "a file was left"
    );
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The CSV row of `measure` at `players`: (a, b, b − a, ci_low, ci_high).
fn compare_row(csv: &str, players: &str, measure: &str) -> [f64; 5] {
    let line = csv
        .lines()
        .find(|l| l.starts_with(&format!("{players},{measure},")))
        .unwrap_or_else(|| panic!("no {measure} row in {csv}"));
    let f: Vec<f64> = line
        .split(',')
        .skip(3)
        .take(5)
        .map(|x| x.parse().unwrap())
        .collect();
    [f[0], f[1], f[2], f[3], f[4]]
}

/// The acceptance: a building's Despair 1 -> 2 gives a paired interval for
/// every measure; B − A is B's mean minus A's, inside its interval; the
/// Despair margin rises by a clear interval (C3 is drafted in most games).
#[test]
fn salem_compare_of_a_despair_change_gives_paired_intervals() {
    let d = scratch("salem-compare");
    let out = d.join("c.csv");
    let console = ok(&[
        "salem",
        "compare",
        "--b-set",
        "C3:despair_add=2",
        "-p",
        "5",
        "-n",
        "4000",
        "--seed",
        "3",
        "-o",
        s(&out),
    ]);
    assert!(console.contains("witch_team_wins"), "{console}");
    let csv = std::fs::read_to_string(&out).unwrap();
    assert!(csv.starts_with("# domsim "), "{csv}");
    assert!(
        csv.contains(
            "# B: built-in SAMPLE data (invented, not the real cards) with C3:despair_add=2;"
        ),
        "{csv}"
    );
    for m in toolkit_measures() {
        let [a, b, diff, lo, hi] = compare_row(&csv, "5", m);
        assert!((b - a - diff).abs() < 2e-6, "{m}: {a} {b} {diff}");
        assert!(lo <= diff && diff <= hi, "{m}: {lo} {diff} {hi}");
    }
    let [_, _, diff, lo, _] = compare_row(&csv, "5", "despair_minus_threshold");
    assert!(diff > 0.0 && lo > 0.0, "Despair margin +{diff}, low {lo}");
    // Both sides play the same games: B with A's own reading (the default
    // `trial`) gives a difference of exactly 0.
    let same = ok(&[
        "salem",
        "compare",
        "--b-rule",
        "trial=unlimited",
        "-p",
        "4",
        "-n",
        "500",
        "-o",
        "-",
    ]);
    for m in toolkit_measures() {
        let [a, b, diff, lo, hi] = compare_row(&same, "4", m);
        assert_eq!((a, diff, lo, hi), (b, 0.0, 0.0, 0.0), "{m}");
    }
}

fn toolkit_measures() -> [&'static str; 6] {
    domsim::new_salem::toolkit::PAIRED
}

/// A rule change on side B (`--b-rule`), and B's own data folder.
#[test]
fn salem_compare_takes_a_rule_change_and_reports_it() {
    let csv = ok(&[
        "salem",
        "compare",
        "--b-rule",
        "trial=single",
        "-p",
        "5",
        "-n",
        "2000",
        "-o",
        "-",
    ]);
    assert!(csv.contains("trial=single"), "{csv}");
    // One Trial card: the Witches win far less (the results' 48% -> 11%).
    let [a, b, diff, _, hi] = compare_row(&csv, "5", "witch_team_wins");
    assert!(a > 0.3 && b < 0.25 && hi < 0.0, "{a} -> {b} ({diff})");
}

#[test]
fn salem_compare_refuses_bad_input_with_status_2_and_no_file() {
    let d = scratch("salem-compare-bad");
    let out = d.join("c.csv");
    let o = s(&out);
    refused(
        &["salem", "compare", "-n", "10", "-o", o],
        "give side B's change",
        &d,
    );
    refused(
        &[
            "salem",
            "compare",
            "--b-set",
            "ZZ:hope=1",
            "-n",
            "10",
            "-o",
            o,
        ],
        "no building or event \"ZZ\"",
        &d,
    );
    refused(
        &[
            "salem",
            "compare",
            "--b-set",
            "C3:despair_add=99",
            "-n",
            "10",
            "-o",
            o,
        ],
        "within 0..=20",
        &d,
    );
    refused(
        &[
            "salem",
            "compare",
            "--b-rule",
            "trial=lots",
            "-n",
            "10",
            "-o",
            o,
        ],
        "side B",
        &d,
    );
    refused(
        &[
            "salem",
            "compare",
            "--b-set",
            "C3:despair_add=2",
            "-p",
            "9",
            "-n",
            "10",
            "-o",
            o,
        ],
        "9",
        &d,
    );
    refused(
        &[
            "salem",
            "compare",
            "--b-set",
            "C3:despair_add=2",
            "-n",
            "10",
            "-o",
            o,
            "--shard",
            "1/2",
            "--save-partial",
            s(&d.join("p.json")),
        ],
        "--shard writes only its --save-partial file",
        &d,
    );
}

/// Run `args` as 3 shards into `dir`, then merge them with `merge_extra`.
fn shards_and_merge(dir: &Path, args: &[&str], merge_out: &Path, merge_extra: &[&str]) {
    let mut parts = Vec::new();
    for i in 1..=3 {
        let p = dir.join(format!("part{i}.json"));
        let spec = format!("{i}/3");
        let mut a: Vec<&str> = args.to_vec();
        a.extend(["--shard", &spec, "--save-partial", s(&p)]);
        ok(&a);
        parts.push(p);
    }
    // Any order.
    let mut m = vec!["salem", "merge", s(&parts[2]), s(&parts[0]), s(&parts[1])];
    m.extend(["-o", s(merge_out)]);
    m.extend(merge_extra);
    let console = ok(&m);
    assert!(console.contains("merged 3 shard(s)"), "{console}");
}

/// The acceptance: the parts of a sharded `salem compare` and `salem sim`
/// merge to the bytes the one-machine run writes (CSV and report), even
/// with a thread count of its own on each shard.
#[test]
fn salem_shards_merge_to_the_one_machine_bytes() {
    let d = scratch("salem-shards");
    let compare = [
        "salem",
        "compare",
        "--b-set",
        "C3:despair_add=2",
        "-p",
        "4,5",
        "-n",
        "701",
        "--seed",
        "5",
    ];
    let whole = d.join("whole.csv");
    let mut a = compare.to_vec();
    a.extend(["-o", s(&whole), "-j", "2"]);
    ok(&a);
    let merged = d.join("merged.csv");
    let mut a = compare.to_vec();
    a.extend(["-j", "1"]);
    shards_and_merge(&d, &a, &merged, &[]);
    assert_eq!(
        std::fs::read(&whole).unwrap(),
        std::fs::read(&merged).unwrap()
    );

    let sim = [
        "salem", "sim", "-p", "3..5", "-n", "999", "--seed", "8", "deducer", "naive",
    ];
    let (whole, report) = (d.join("sim.csv"), d.join("sim.html"));
    let mut a = sim.to_vec();
    a.extend(["-o", s(&whole), "--report", s(&report)]);
    ok(&a);
    let (merged, merged_report) = (d.join("sim_merged.csv"), d.join("sim_merged.html"));
    shards_and_merge(&d, &sim, &merged, &["--report", s(&merged_report)]);
    assert_eq!(
        std::fs::read(&whole).unwrap(),
        std::fs::read(&merged).unwrap()
    );
    assert_eq!(
        std::fs::read(&report).unwrap(),
        std::fs::read(&merged_report).unwrap()
    );
}

#[test]
fn salem_merge_refuses_missing_repeated_foreign_and_edited_parts() {
    let d = scratch("salem-merge-bad");
    let part = |name: &str, spec: &str, seed: &str| {
        let p = d.join(name);
        ok(&[
            "salem",
            "sim",
            "-p",
            "4",
            "-n",
            "300",
            "--seed",
            seed,
            "--shard",
            spec,
            "--save-partial",
            s(&p),
        ]);
        p
    };
    let p1 = part("p1.json", "1/2", "1");
    let p2 = part("p2.json", "2/2", "1");
    let other = part("other.json", "2/2", "2");
    let out = scratch("salem-merge-bad-out");
    let o = out.join("m.csv");
    refused(
        &["salem", "merge", s(&p1), "-o", s(&o)],
        "1 shard(s) missing: 2/2",
        &out,
    );
    refused(
        &["salem", "merge", s(&p1), s(&p1), "-o", s(&o)],
        "given twice",
        &out,
    );
    refused(
        &["salem", "merge", s(&p1), s(&other), "-o", s(&o)],
        "belong to different runs",
        &out,
    );
    let text = std::fs::read_to_string(&p2).unwrap();
    let edited = d.join("edited.json");
    std::fs::write(
        &edited,
        text.replacen("\"witch_wins\": ", "\"witch_wins\": 1", 1),
    )
    .unwrap();
    let o2 = domsim(&["salem", "merge", s(&p1), s(&edited), "-o", s(&o)]);
    assert_eq!(o2.status.code(), Some(2));
    let e = stderr(&o2);
    assert!(e.contains("edited.json"), "{e}");
    assert!(!o.exists());
    refused(
        &["salem", "merge", s(&d.join("none.json")), "-o", s(&o)],
        "none.json",
        &out,
    );
    std::fs::write(d.join("junk.json"), "{}").unwrap();
    refused(
        &["salem", "merge", s(&d.join("junk.json")), "-o", s(&o)],
        "not a New Salem partial file",
        &out,
    );
    // The parts merge once whole.
    ok(&["salem", "merge", s(&p2), s(&p1), "-o", s(&o)]);
    assert!(std::fs::read_to_string(&o)
        .unwrap()
        .contains("4,all,witch_team_wins,300,"));
}

/// `salem sweep`: one command, every combination of the axes at every
/// player count; each cell is the plain `salem sim` under its readings.
#[test]
fn salem_sweep_plays_every_reading_and_each_cell_is_a_plain_run() {
    let d = scratch("salem-sweep");
    let out = d.join("grid.csv");
    let console = ok(&[
        "salem",
        "sweep",
        "--rule",
        "trial=unlimited,single",
        "--rule",
        "launch_cap=10",
        "--rule",
        "no_eligible_constable=keep,reset",
        "-p",
        "4,5",
        "-n",
        "400",
        "--seed",
        "9",
        "-o",
        s(&out),
    ]);
    assert!(
        console.contains("| trial=single no_eligible_constable=reset |"),
        "{console}"
    );
    assert!(console.contains("| readings | 4p | 5p |"), "{console}");
    let csv = std::fs::read_to_string(&out).unwrap();
    let rows: Vec<&str> = csv.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(rows.len(), 1 + 2 * 2 * 2, "{csv}");
    assert!(rows[0].starts_with("trial,no_eligible_constable,players,games,witch_team_wins,"));
    assert!(
        csv.contains("launch_cap=10"),
        "the fixed reading is in the header: {csv}"
    );
    let cell = rows
        .iter()
        .find(|r| r.starts_with("single,keep,5,400,"))
        .unwrap();
    let wins: f64 = cell.split(',').nth(4).unwrap().parse().unwrap();
    let sim = ok(&[
        "salem",
        "sim",
        "--rule",
        "trial=single",
        "--rule",
        "launch_cap=10",
        "-p",
        "5",
        "-n",
        "400",
        "--seed",
        "9",
        "-o",
        "-",
    ]);
    let row = sim
        .lines()
        .find(|l| l.starts_with("5,all,witch_team_wins,"))
        .unwrap();
    let v: f64 = row.split(',').nth(4).unwrap().parse().unwrap();
    assert!((v - wins).abs() < 1e-4, "sweep {wins} vs sim {v}");
    let bad = scratch("salem-sweep-bad");
    let o = bad.join("g.csv");
    refused(
        &[
            "salem",
            "sweep",
            "--rule",
            "trial=unlimited,lots",
            "-o",
            s(&o),
        ],
        "lots",
        &bad,
    );
    refused(
        &[
            "salem",
            "sweep",
            "--rule",
            "trial=unlimited,single",
            "--rule",
            "trial=single,2",
            "-o",
            s(&o),
        ],
        "given twice",
        &bad,
    );
}

/// `salem learn` writes a [belief] table a bot file compiles with; the
/// rates are those `belief::learn_field` learns (deterministic), and
/// learning from the field moves them from the defaults.
#[test]
fn salem_learn_writes_a_belief_table_bots_use() {
    let d = scratch("salem-learn");
    let out = d.join("b.toml");
    let console = ok(&[
        "salem",
        "learn",
        "deducer",
        "sly_witch",
        "-p",
        "5",
        "-n",
        "300",
        "--rounds",
        "2",
        "-o",
        s(&out),
    ]);
    assert!(console.contains("Round 2"), "{console}");
    let table = std::fs::read_to_string(&out).unwrap();
    assert!(
        table.contains("\n[belief]\nweight = 1.0\nadd_despair = ["),
        "{table}"
    );
    let data = Data::sample();
    let mut field = vec![
        bot::compile(
            "d",
            bot::SHIPPED
                .iter()
                .find(|b| b.0 == "deducer.salem")
                .unwrap()
                .1,
            &data,
        )
        .unwrap(),
        bot::compile(
            "s",
            bot::SHIPPED
                .iter()
                .find(|b| b.0 == "sly_witch.salem")
                .unwrap()
                .1,
            &data,
        )
        .unwrap(),
    ];
    // As `salem learn` loads them: the shipped deducers learn their field first.
    belief::prepare_field(&data, &mut field).unwrap();
    let before = field[0].belief.clone().unwrap();
    let rounds = belief::learn_field(&data, &mut field, &[5], 300, 44, 2, false).unwrap();
    assert_eq!(
        table
            .lines()
            .filter(|l| !l.starts_with('#'))
            .collect::<Vec<_>>()
            .join("\n")
            + "\n",
        belief::belief_table(&rounds[1], "").to_string()
    );
    assert_ne!(field[0].belief.as_ref().unwrap(), &before);
    // A bot file with the table compiles and plays.
    let file = d.join("learned.salem");
    std::fs::write(
        &file,
        format!("name = \"Learned\"\n{table}\n[puritan]\nlaunch = [\"put_on_trial if suspect >= 40\"]\n"),
    )
    .unwrap();
    let check = ok(&["salem", "check", s(&file)]);
    assert!(check.contains("Learned: OK"), "{check}");
    let bad = scratch("salem-learn-bad");
    refused(
        &["salem", "learn", "-n", "0", "-o", s(&bad.join("x.toml"))],
        "must be at least 1",
        &bad,
    );
}
