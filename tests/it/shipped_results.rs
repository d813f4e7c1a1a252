//! The shipped results reproduce: the commands that `results/*.md` and
//! `results/*.sh` document write, from this build, the very bytes of the files
//! in `results/` (the project promises the same bytes for the same command and
//! seed, whatever the thread count). Each command is quoted here as the page
//! shows it, and the test first checks that the page still shows it, so
//! neither the page, nor the command, nor the file can drift alone. Outputs go
//! to a temporary folder; nothing in `results/` is written.
//!
//! Only the runs that take a few seconds are replayed; the long ones
//! (`optimize --auto`, the 1,000-kingdom sweep, five of the six card-variant
//! comparisons) are listed in `NOT_REPLAYED` with the page that documents them,
//! and a shipped file that is in neither list fails the test.
//!
//! When a deliberate rule or format change alters a file, regenerate it with
//! its documented command (the failure names it) and say why in the commit.

use crate::cli::{scratch, stderr};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The page's text with `\`-continued lines joined and white space collapsed,
/// so a command is found however the page wraps it.
fn normalised(text: &str) -> String {
    text.replace("\\\n", " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Split a command line into words as sh does for the quoting these pages use
/// ('…' and "…", no expansion inside: the commands are written without any).
fn words(command: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in command.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.push(c),
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            None => {
                word.push(c);
                in_word = true;
            }
        }
    }
    assert!(quote.is_none(), "unclosed quote in {command:?}");
    if in_word {
        out.push(word);
    }
    out
}

/// Compare a file made by the test with the shipped one; on a difference,
/// name the first line that differs.
fn assert_same_file(made: &Path, shipped: &str, how: &str) {
    let got = std::fs::read(made).unwrap_or_else(|e| panic!("{}: {e}", made.display()));
    let want = std::fs::read(root().join(shipped)).unwrap_or_else(|e| panic!("{shipped}: {e}"));
    if got == want {
        return;
    }
    let got = String::from_utf8_lossy(&got);
    let want = String::from_utf8_lossy(&want);
    let (line, (g, w)) = got
        .lines()
        .map(Some)
        .chain(std::iter::repeat(None))
        .zip(want.lines().map(Some).chain(std::iter::repeat(None)))
        .enumerate()
        .find(|(_, (g, w))| g != w)
        .unwrap_or((0, (None, None)));
    panic!(
        "{shipped} does not reproduce ({how}): first difference at line {}:\n  shipped: {}\n  made:    {}\n\
         If a deliberate rule or format change explains it, regenerate the file with its \
         documented command and say which change in the commit; otherwise the games changed.",
        line + 1,
        w.unwrap_or("(end of file)"),
        g.unwrap_or("(end of file)"),
    );
}

/// Run `command` as `page` shows it (the page must show it verbatim, up to
/// line wrapping), plus `extra` words; see `run_and_compare`.
fn replay(page: &str, command: &str, extra: &str) {
    let text = std::fs::read_to_string(root().join(page)).unwrap();
    assert!(
        normalised(&text).contains(&normalised(command)),
        "{page} no longer shows the command this test replays:\n  {command}"
    );
    run_and_compare(&format!("{command} {extra}"), &format!("{page}: {command}"));
}

/// Run a domsim command line from the repository root, with every
/// `results/…` output written under a temporary folder instead; then compare
/// each of those outputs with the shipped file of the same path.
fn run_and_compare(command: &str, how: &str) {
    let tmp = scratch("shipped");
    let mut argv = words(command);
    let program = argv.remove(0);
    assert!(
        program == "domsim" || program.ends_with("/domsim"),
        "{command}: not a domsim command"
    );
    let mut outputs = Vec::new();
    let args: Vec<String> = argv
        .into_iter()
        .map(|a| {
            if a.starts_with("results/") {
                let made = tmp.join(&a);
                std::fs::create_dir_all(made.parent().unwrap()).unwrap();
                outputs.push(a);
                made.to_str().unwrap().to_string()
            } else {
                a
            }
        })
        .collect();
    assert!(!outputs.is_empty(), "{command}: writes nothing in results/");
    let o = Command::new(env!("CARGO_BIN_EXE_domsim"))
        .args(&args)
        .current_dir(root())
        .output()
        .expect("run domsim");
    assert!(o.status.success(), "{command}: {}", stderr(&o));
    for shipped in &outputs {
        assert_same_file(&tmp.join(shipped), shipped, how);
    }
}

/// Run a shipped script (`sh results/NAME.sh`) with DOMSIM and OUT pointing
/// at this build and a temporary folder; every file it writes must equal the
/// shipped one, and every shipped `results/PREFIX*.csv` must be among them.
/// Returns what the script printed (the tables).
fn replay_script(script: &str, prefix: &str) -> String {
    let tmp = scratch("shipped-sh");
    let o = Command::new("sh")
        .arg(script)
        .env("DOMSIM", env!("CARGO_BIN_EXE_domsim"))
        .env("OUT", &*tmp)
        .env_remove("GAMES")
        .current_dir(root())
        .output()
        .expect("run sh");
    assert!(o.status.success(), "sh {script}: {}", stderr(&o));
    let made = crate::cli::entries(&tmp);
    let shipped: Vec<String> = crate::cli::entries(&root().join("results"))
        .into_iter()
        .filter(|f| f.starts_with(prefix) && f.ends_with(".csv"))
        .collect();
    assert_eq!(made, shipped, "sh {script}: files written vs shipped");
    for f in &made {
        assert_same_file(
            &tmp.join(f),
            &format!("results/{f}"),
            &format!("sh {script}"),
        );
    }
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// results/INTRIGUE.md and results/DARK_AGES.md: the two matrix scripts,
/// and the tables the pages quote from what they print.
#[test]
fn the_matrix_scripts_write_the_shipped_matrices() {
    for (page, script, prefix) in [
        (
            "results/INTRIGUE.md",
            "results/intrigue_matrix.sh",
            "intrigue_matrix_",
        ),
        (
            "results/DARK_AGES.md",
            "results/dark_ages_matrix.sh",
            "dark_ages_matrix_",
        ),
    ] {
        let text = std::fs::read_to_string(root().join(page)).unwrap();
        assert!(
            text.contains(&format!("sh {script}")),
            "{page} runs {script}"
        );
        let printed = replay_script(script, prefix);
        let printed: Vec<String> = printed.lines().map(normalised).collect();
        // The rows of the tables on the page ("#3 Nobles  78.4%  53.8% …").
        let rows: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with('#') && l[1..].starts_with(|c: char| c.is_ascii_digit()))
            .collect();
        assert!(rows.len() >= 20, "{page}: the tables' rows");
        for row in rows {
            assert!(
                printed.contains(&normalised(row)),
                "{page} quotes a row that sh {script} no longer prints:\n  {row}"
            );
        }
    }
}

const STATS_SAMPLE: &str = "./target/release/domsim sim --preset 'First Game' \
    strategies/big_money_ultimate.dom strategies/smithy_big_money.dom \
    --games 20000 --report results/sample_report.html --stats results/sample_stats.csv";

/// results/STATS.md: the sample report and its statistics CSV.
#[test]
fn the_sample_report_and_statistics_reproduce() {
    replay("results/STATS.md", STATS_SAMPLE, "");
}

const SALEM: &str = "domsim salem sim -p 3..8 -n 100000 --seed 2026 \
    -o results/new_salem/team_win_rates.csv --report results/new_salem/report.html";

/// results/NEW_SALEM.md: team win rates at 3–8 players and the report.
#[test]
fn the_new_salem_tables_reproduce() {
    replay("results/NEW_SALEM.md", SALEM, "");
}

const SLURM_SWEEP: &str =
    "domsim sweep strategies/big_money_ultimate.dom strategies/smithy_big_money.dom \
    strategies/double_witch.dom strategies/militia_big_money.dom \
    --random 64 --sets base,intrigue,dark-ages -n 400 --seed 7";

/// results/SLURM.md: the merged CSV of the 8 shards equals the one-machine
/// run of the sweep the page shows (`demo` compares the two with `-o`).
#[test]
fn the_slurm_sweep_reproduces_on_one_machine() {
    replay(
        "results/SLURM.md",
        SLURM_SWEEP,
        "-o results/slurm/sweep_8_shards_merged.csv",
    );
}

/// The loop of results/CARD_VARIANTS.md, as the page shows it.
const CARD_VARIANTS_LOOP: &str = "for opp in big_money_ultimate big_money; do \
  for cost in 3 5; do \
    $D compare --a cards/smithy_data.toml --b-set \"Smithy Data:cost=$cost\" --kingdom \"Smithy Data\" \
        strategies/playtest/smithy_data_big_money.dom strategies/$opp.dom -n 200000 \
        -o results/card_variants/smithy_${cost}_vs_4_$opp.csv --html results/card_variants/smithy_${cost}_vs_4_$opp.html";

const CARD_VARIANTS_SINGLE: &str = "for cost in 3 5; do \
  $D compare --a cards/smithy_data.toml --b-set \"Smithy Data:cost=$cost\" --kingdom \"Smithy Data\" \
      strategies/playtest/smithy_data_big_money_single_opening.dom strategies/big_money_ultimate.dom -n 200000 \
      -o results/card_variants/smithy_${cost}_vs_4_single_opening_big_money_ultimate.csv \
      --html results/card_variants/smithy_${cost}_vs_4_single_opening_big_money_ultimate.html";

/// The body of a loop above for one value of its variables.
fn instance(body: &str, cost: &str, opp: &str) -> String {
    body.split_once("$D ")
        .unwrap()
        .1
        .replace("${cost}", cost)
        .replace("$cost", cost)
        .replace("$opp", opp)
}

/// results/CARD_VARIANTS.md: one comparison of the loop is replayed (each
/// takes about 2 s here); the file names of every instance are the shipped
/// ones.
#[test]
fn a_card_variant_comparison_reproduces() {
    let text =
        normalised(&std::fs::read_to_string(root().join("results/CARD_VARIANTS.md")).unwrap());
    for body in [CARD_VARIANTS_LOOP, CARD_VARIANTS_SINGLE] {
        assert!(
            text.contains(&normalised(body)),
            "results/CARD_VARIANTS.md no longer shows:\n  {body}"
        );
    }
    let mut named: Vec<String> = Vec::new();
    for cost in ["3", "5"] {
        for opp in ["big_money_ultimate", "big_money"] {
            named.extend(outputs_of(&instance(CARD_VARIANTS_LOOP, cost, opp)));
        }
        named.extend(outputs_of(&instance(CARD_VARIANTS_SINGLE, cost, "")));
    }
    named.sort();
    let mut shipped: Vec<String> = crate::cli::entries(&root().join("results/card_variants"))
        .into_iter()
        .map(|f| format!("results/card_variants/{f}"))
        .collect();
    shipped.sort();
    assert_eq!(
        named, shipped,
        "CARD_VARIANTS.md's loops vs results/card_variants/"
    );
    // One instance (the shortest games: against Big Money) checks the data
    // card, both variants' setup and the paired statistics.
    let one = format!("domsim {}", instance(CARD_VARIANTS_LOOP, "5", "big_money"));
    run_and_compare(&one, &format!("results/CARD_VARIANTS.md: {one}"));
}

fn outputs_of(command: &str) -> Vec<String> {
    words(command)
        .into_iter()
        .filter(|w| w.starts_with("results/"))
        .collect()
}

/// Shipped files no test replays: each with the page whose command writes it
/// (the page must name the file) and why it is not replayed here.
const NOT_REPLAYED: &[(&str, &str, &str)] = &[
    (
        "results/optimize/first_game.dom",
        "results/OPTIMIZE.md",
        "optimize --auto: 4.7M games",
    ),
    (
        "results/optimize/first_game-search.csv",
        "results/OPTIMIZE.md",
        "optimize --auto: 4.7M games",
    ),
    (
        "results/optimize/size_distortion.dom",
        "results/OPTIMIZE.md",
        "optimize --auto: 5.4M games",
    ),
    (
        "results/optimize/size_distortion-search.csv",
        "results/OPTIMIZE.md",
        "optimize --auto: 5.4M games",
    ),
    (
        "results/optimize/high_and_low.dom",
        "results/OPTIMIZE.md",
        "optimize --auto: 5.3M games",
    ),
    (
        "results/optimize/high_and_low-search.csv",
        "results/OPTIMIZE.md",
        "optimize --auto: 5.3M games",
    ),
    (
        "results/sweep/sweep_1000.csv",
        "results/SWEEP.md",
        "4.5M games",
    ),
    (
        "results/sweep/cards_1000.csv",
        "results/SWEEP.md",
        "4.5M games",
    ),
    (
        "results/slurm/merge-job.log",
        "results/SLURM.md",
        "a Slurm job's log: names the run's temporary folder",
    ),
    (
        "results/slurm/shard-1-of-8.log",
        "results/SLURM.md",
        "a Slurm job's log: names the run's temporary folder",
    ),
    (
        "results/sample_report.png",
        "results/STATS.md",
        "a browser's screenshot (scripts/check_report.sh)",
    ),
    (
        "results/workbench/card-error.png",
        "docs/WORKBENCH.md",
        "a browser's screenshot of the workbench test (serve_workbench_browser)",
    ),
    (
        "results/workbench/cards.png",
        "docs/WORKBENCH.md",
        "a browser's screenshot of the workbench test (serve_workbench_browser)",
    ),
    (
        "results/workbench/search-seat.png",
        "docs/WORKBENCH.md",
        "a browser's screenshot of the search-seat test (serve_search_browser)",
    ),
    (
        "results/workbench/search-play.png",
        "docs/WORKBENCH.md",
        "a browser's screenshot of the search-seat test (serve_search_browser)",
    ),
    (
        "results/workbench/ab.png",
        "docs/WORKBENCH.md",
        "a browser's screenshot of the workbench test (serve_workbench_browser)",
    ),
    (
        "results/workbench/play.png",
        "docs/WORKBENCH.md",
        "a browser's screenshot of the workbench test (serve_workbench_browser)",
    ),
    (
        "results/workbench/play-over.png",
        "docs/WORKBENCH.md",
        "a browser's screenshot of the workbench test (serve_workbench_browser)",
    ),
    (
        "results/workbench/compare.png",
        "docs/WORKBENCH.md",
        "a browser's screenshot of the workbench test (compare_page)",
    ),
    (
        "results/new_salem/report.png",
        "results/NEW_SALEM.md",
        "a browser's screenshot of the shipped report (browser.rs)",
    ),
    (
        "results/serve.png",
        "README.md",
        "a browser's screenshot of a live page: shows the batch's wall time",
    ),
];

/// Every file in results/ (but results/bench/, wall-time measurements, and
/// the pages themselves) is replayed above or listed in NOT_REPLAYED with a
/// page that names it.
#[test]
fn every_shipped_result_is_replayed_or_accounted_for() {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                out.push(p.clone());
                walk(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    let mut all = Vec::new();
    walk(&root().join("results"), &mut all);
    let replayed_dirs = ["results/card_variants/", "results/new_salem/"];
    let replayed_files = [
        "results/sample_report.html",
        "results/sample_stats.csv",
        "results/slurm/sweep_8_shards_merged.csv",
        "results/intrigue_matrix.sh",
        "results/dark_ages_matrix.sh",
    ];
    let mut unaccounted = Vec::new();
    for p in all.iter().filter(|p| p.is_file()) {
        let rel = p
            .strip_prefix(root())
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        let name = p.file_name().unwrap().to_str().unwrap();
        let top = rel.matches('/').count() == 1;
        if rel.starts_with("results/bench/")
            || (top && name.ends_with(".md"))
            || (top
                && (name.starts_with("intrigue_matrix_") || name.starts_with("dark_ages_matrix_")))
            || replayed_dirs.iter().any(|d| rel.starts_with(d))
            || replayed_files.contains(&rel.as_str())
        {
            continue;
        }
        match NOT_REPLAYED.iter().find(|(f, _, _)| *f == rel) {
            Some((_, page, _)) => {
                let text = std::fs::read_to_string(root().join(page)).unwrap();
                assert!(text.contains(rel.as_str()), "{page} does not name {rel}");
            }
            None => unaccounted.push(rel),
        }
    }
    assert!(
        unaccounted.is_empty(),
        "shipped results that no test replays and NOT_REPLAYED does not list: {unaccounted:?}"
    );
    for (f, _, _) in NOT_REPLAYED {
        assert!(
            root().join(f).is_file(),
            "NOT_REPLAYED lists {f}, which is not shipped"
        );
    }
}

#[test]
fn words_split_like_sh() {
    assert_eq!(
        words(r#"a 'b c' "d e" f"g h"i"#),
        ["a", "b c", "d e", "fg hi"]
    );
    assert_eq!(normalised("x \\\n    y\n  z"), "x y z");
}
