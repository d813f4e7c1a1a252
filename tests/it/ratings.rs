//! `rank --model` and its outputs (issue 42): the Bradley–Terry
//! diagnostics and the game-theoretic views in the console, the CSVs and
//! the page; sharded runs merge to the same bytes for every new output; a
//! constructed rock–paper–scissors field is flagged and gets the uniform
//! Nash mixture; bad input exits 2 and writes nothing.

use crate::cli::{domsim, entries, scratch, stderr, stdout};

const FIELD: [&str; 4] = [
    "builtin:big-money",
    "strategies/smithy_big_money.dom",
    "strategies/big_money_ultimate.dom",
    "strategies/double_witch.dom",
];

fn rows(text: &str) -> Vec<&str> {
    text.lines().filter(|l| !l.starts_with('#')).collect()
}

/// `args` with the three outputs of a rank (`-o`, `--pairs`, `--html`)
/// in `files`' order; the exit status checked.
fn run_with_outputs(args: &[&str], files: &[std::path::PathBuf; 3]) -> std::process::Output {
    let mut all: Vec<&str> = args.to_vec();
    for (flag, f) in ["-o", "--pairs", "--html"].iter().zip(files) {
        all.extend([*flag, f.to_str().unwrap()]);
    }
    let o = domsim(&all);
    assert!(o.status.success(), "{all:?}: {}", stderr(&o));
    o
}

/// Every output of a 2-player rank — the leaderboard with the model
/// columns, the pairs CSV, the page — merged from 1, 2 and 3 shards is the
/// one-machine run's, byte for byte.
#[test]
fn model_outputs_merge_byte_for_byte() {
    let d = scratch("ratings-merge");
    // Double Witch plays without Witch here (First Game): kept, for a
    // field of 4.
    let mut base = vec!["rank", "-n", "60", "--seed", "4", "--absent", "keep"];
    base.extend(FIELD);
    let files = [d.join("r.csv"), d.join("p.csv"), d.join("r.html")];
    let [csv, pairs, html] = &files;
    let out = stdout(&run_with_outputs(&base, &files));
    for want in [
        "Nash weight",
        "Nash payoff",
        "α-Rank",
        "Bradley–Terry fit: RMS residual",
        "cycles (each result significant):",
        "Nash mixture (maximum entropy):",
    ] {
        assert!(out.contains(want), "{want}: {out}");
    }
    let text = std::fs::read_to_string(csv).unwrap();
    assert!(text.contains("# rating_models: all\n"), "{text}");
    let r = rows(&text);
    assert!(
        r[0].ends_with(",score,nash_weight,nash_payoff,alpharank_mass,tier,misfit_pairs"),
        "{}",
        r[0]
    );
    assert_eq!(r.len(), 5);
    let p = std::fs::read_to_string(pairs).unwrap();
    assert_eq!(rows(&p).len(), 1 + 6, "every pair once: {p}");
    let page = std::fs::read_to_string(html).unwrap();
    assert!(page.contains("Head to head") && page.contains("Nash weight"));
    let want = files.clone().map(|f| std::fs::read(f).unwrap());
    for n in [1, 2, 3] {
        let mut parts = Vec::new();
        for i in 1..=n {
            let part = d.join(format!("part-{i}of{n}.json"));
            let spec = format!("{i}/{n}");
            let mut args = base.clone();
            args.extend(["--shard", &spec, "--save-partial", part.to_str().unwrap()]);
            let o = domsim(&args);
            assert!(o.status.success(), "{}", stderr(&o));
            parts.push(part.to_str().unwrap().to_string());
        }
        let merged = [d.join("m.csv"), d.join("mp.csv"), d.join("m.html")];
        let mut args = vec!["merge"];
        args.extend(parts.iter().map(String::as_str));
        run_with_outputs(&args, &merged);
        for (got, want) in merged.iter().zip(&want) {
            assert!(
                &std::fs::read(got).unwrap() == want,
                "{n} shards: {} differs",
                got.display()
            );
        }
    }
}

/// `--model` picks the order and the columns: `nash` orders by the
/// Nash-averaged payoff, `bt` keeps the leaderboard of earlier versions.
#[test]
fn the_model_orders_the_leaderboard() {
    let d = scratch("ratings-model");
    for (model, header_end) in [
        ("nash", ",tier,misfit_pairs"),
        ("alpharank", ",tier,misfit_pairs"),
        ("bt", ",games,score"),
    ] {
        let csv = d.join(format!("{model}.csv"));
        let mut args = vec!["rank", "-n", "40", "--model", model];
        args.extend(FIELD);
        args.extend(["-o", csv.to_str().unwrap()]);
        let o = domsim(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        let text = std::fs::read_to_string(csv).unwrap();
        let r = rows(&text);
        assert!(r[0].ends_with(header_end), "{model}: {}", r[0]);
        if model == "nash" {
            // Payoffs (column 11) never increase down the table.
            let pay: Vec<f64> = r[1..]
                .iter()
                .map(|l| l.split(',').nth(10).unwrap().parse().unwrap())
                .collect();
            assert!(pay.windows(2).all(|w| w[0] >= w[1]), "{text}");
            assert!(stdout(&o).contains("ordered by Nash-averaged payoff"));
        }
        if model == "bt" {
            assert!(!stdout(&o).contains("Nash"), "{}", stdout(&o));
            assert!(stdout(&o).contains("Bradley–Terry fit"));
        }
    }
}

/// Rock, paper, scissors and a weak fourth bot, as the parts of a rank
/// run (the library writes them, `domsim merge` reads them): the outputs
/// flag the cycle, put the three in one tier, give them the uniform Nash
/// mixture, and mark the cycle's three results in the page's matrix.
#[test]
fn a_constructed_cyclic_field_is_flagged() {
    use domsim::report::{EntrantInfo, Meta};
    use domsim::sim::shard::{Counts, Partial, RankTables, RunKey, ShardSpec, TableStats};
    let d = scratch("ratings-rps");
    let names = ["Rock", "Paper", "Scissors", "Weak"];
    let rates = [
        (0u8, 1u8, 800u64),
        (0, 2, 200),
        (0, 3, 900),
        (1, 2, 800),
        (1, 3, 900),
        (2, 3, 900),
    ];
    let games = 1000u64;
    let tables = rates
        .iter()
        .map(|&(i, j, w)| {
            // Game g seats entrant g % 2 first (the runner's rotation);
            // entrant 0 wins the first w games.
            let mut stats = domsim::dominion::matches::Stats::default();
            for g in 0..games {
                let order: [u8; 2] = if g % 2 == 0 { [0, 1] } else { [1, 0] };
                let winner_seat = order.iter().position(|&e| (e == 0) == (g < w)).unwrap();
                let o = domsim::engine::Outcome {
                    players: 2,
                    vp: [0; domsim::engine::MAX_PLAYERS],
                    turns: [12; domsim::engine::MAX_PLAYERS],
                    winners: 1 << winner_seat,
                    capped: false,
                };
                stats.record(&order, &o);
            }
            TableStats {
                kingdom: 0,
                members: vec![i, j],
                stats,
            }
        })
        .collect();
    let mut meta = Meta::default();
    meta.push("command", "rank");
    meta.push("players", 2);
    meta.push("rating_models", "all");
    let key = RunKey {
        verb: "rank".into(),
        meta,
        entrants: names
            .iter()
            .map(|n| EntrantInfo {
                name: n.to_string(),
                source: format!("{}.dom", n.to_lowercase()),
                hash: "0123456789abcdef".into(),
            })
            .collect(),
        games,
    };
    let run = RankTables {
        players: 2,
        kingdoms: vec![
            "Cellar, Chapel, Moat, Village, Smithy, Festival, Market, Laboratory, Mine, Witch"
                .into(),
        ],
        tables,
    };
    let part = Partial::new(
        key,
        ShardSpec { index: 1, count: 1 },
        Counts::Tables(Box::new(run)),
    );
    let pf = d.join("part.json");
    std::fs::write(&pf, part.to_json().unwrap()).unwrap();
    let files = [d.join("r.csv"), d.join("p.csv"), d.join("r.html")];
    let [csv, pairs, html] = &files;
    run_with_outputs(&["merge", pf.to_str().unwrap()], &files);
    let text = std::fs::read_to_string(csv).unwrap();
    let r = rows(&text);
    for l in &r[1..4] {
        // nash_weight 1/3, payoff 1/2, tier 1, two misfit pairs each.
        assert!(l.contains(",0.333333,0.500000,"), "{l}");
        assert!(l.ends_with(",1,2"), "{l}");
    }
    assert!(
        r[4].starts_with("4,Weak,") && r[4].contains(",0.000000,"),
        "{}",
        r[4]
    );
    let p = std::fs::read_to_string(pairs).unwrap();
    let misfits = rows(&p)[1..].iter().filter(|l| l.ends_with(",1")).count();
    assert_eq!(misfits, 3, "the cycle's three pairs: {p}");
    let page = std::fs::read_to_string(html).unwrap();
    assert_eq!(page.matches("class=\"cyc\"").count(), 3, "{page}");
    assert!(page.contains("Rock &gt; Paper (80.0%) &gt; Scissors (80.0%) &gt; Rock (80.0%)"));
    assert!(
        page.contains("Rock 33.3% Paper 33.3% Scissors 33.3%"),
        "{page}"
    );
}

/// Bad input exits 2 with a message naming the value, and writes nothing.
#[test]
fn bad_model_input_exits_2_and_writes_nothing() {
    let d = scratch("ratings-bad");
    let out = d.join("r.csv");
    let o = out.to_str().unwrap();
    let three = [
        "strategies/big_money.dom",
        "strategies/chapel.dom",
        "strategies/rats.dom",
    ];
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["rank", "--model", "elo", three[0], three[1], "-o", o],
            "unknown rating model 'elo': expected bt, nash, alpharank or all",
        ),
        (
            vec![
                "rank", "-p", "3", "--model", "nash", three[0], three[1], three[2], "-o", o,
            ],
            "--model nash: Nash averaging and α-Rank need the 2-player head-to-head payoff matrix",
        ),
        (
            vec![
                "rank", "-p", "3", "--pairs", o, three[0], three[1], three[2],
            ],
            "--pairs is the head-to-head results of 2 players",
        ),
        (
            vec![
                "rank",
                "--shard",
                "1/2",
                "--save-partial",
                "x.json",
                "--pairs",
                o,
                three[0],
                three[1],
            ],
            "--shard writes only its --save-partial file: -o, --html, --matrix and --pairs",
        ),
    ];
    for (args, want) in cases {
        let r = domsim(&args);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {}", stderr(&r));
        assert!(stderr(&r).contains(want), "{args:?}: {}", stderr(&r));
        assert!(entries(&d).is_empty(), "{args:?} wrote {:?}", entries(&d));
    }
    // merge --pairs belongs to rank parts.
    let part = d.join("m.json");
    let r = domsim(&[
        "matrix",
        three[0],
        three[1],
        "-n",
        "10",
        "--shard",
        "1/1",
        "--save-partial",
        part.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    let r = domsim(&["merge", part.to_str().unwrap(), "-o", o, "--pairs", "p.csv"]);
    assert_eq!(r.status.code(), Some(2));
    assert!(
        stderr(&r).contains("--pairs: only the parts of a 2-player `domsim rank`"),
        "{}",
        stderr(&r)
    );
    assert_eq!(entries(&d), vec!["m.json".to_string()]);
}

/// The rank page in headless Chromium: the rendered DOM has the
/// leaderboard's interval charts, the matrix with every cell and every
/// cycle mark of the file; its screenshot is a real image.
#[test]
fn the_rank_page_renders_in_a_real_browser() {
    let Some(browser) = crate::browser::chromium() else {
        eprintln!("SKIPPED: no chromium (scripts/setup-browser.sh installs it)");
        return;
    };
    let d = scratch("ratings-browser");
    let page = d.join("rank.html");
    // Every shipped bot, those whose cards are absent too: a large page.
    let mut args = vec![
        "rank",
        "strategies",
        "--preset",
        "First Game",
        "-n",
        "40",
        "--absent",
        "keep",
    ];
    args.extend(["--html", page.to_str().unwrap()]);
    let o = domsim(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let html = std::fs::read_to_string(&page).unwrap();
    let url = format!("file://{}", page.display());
    let dom = crate::browser::headless(browser, &d.join("profile"))
        .args(["--dump-dom", &url])
        .output()
        .unwrap();
    assert!(
        dom.status.success(),
        "{}",
        String::from_utf8_lossy(&dom.stderr)
    );
    let dom = String::from_utf8_lossy(&dom.stdout);
    for what in ["<svg", "<td", "class=\"cyc\"", "<table class=\"m\">"] {
        assert_eq!(
            dom.matches(what).count(),
            html.matches(what).count(),
            "{what}"
        );
    }
    assert!(dom.matches("<svg").count() > 28, "one interval per bot");
    let png = d.join("shot.png");
    let shot = crate::browser::headless(browser, &d.join("profile2"))
        .args([
            "--window-size=1400,2400",
            &format!("--screenshot={}", png.display()),
            &url,
        ])
        .output()
        .unwrap();
    assert!(
        shot.status.success(),
        "{}",
        String::from_utf8_lossy(&shot.stderr)
    );
    let bytes = std::fs::read(&png).unwrap();
    assert!(
        bytes.starts_with(b"\x89PNG") && bytes.len() > 20_000,
        "{} bytes",
        bytes.len()
    );
}

/// `--absent` (issue 45): a bot naming cards absent from the kingdom plays
/// as another bot there; by default it is left out of the field, in one
/// line that names it and the card, and `--absent keep` plays it
/// labelled. Too few left is refused (exit 2, nothing written).
#[test]
fn bots_whose_cards_are_absent_are_left_out_unless_kept() {
    let d = scratch("ratings-absent");
    let csv = d.join("r.csv");
    let mut args = vec!["rank", "-n", "20", "--preset", "First Game"];
    args.extend(FIELD);
    args.extend(["-o", csv.to_str().unwrap()]);
    let o = domsim(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("left out 1 bot(s) naming cards not in the kingdom (--absent keep plays them): Double Witch (Witch)"),
        "{err}"
    );
    assert_eq!(
        err.lines().filter(|l| l.contains("warning")).count(),
        0,
        "{err}"
    );
    let out = std::fs::read_to_string(&csv).unwrap();
    assert!(!out.contains("Double Witch"), "{out}");
    assert!(out.contains("Smithy Big Money"), "{out}");
    // Kept: played, labelled with the card it misses.
    args.extend(["--absent", "keep"]);
    let o = domsim(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("Double Witch (without Witch)"),
        "{}",
        stdout(&o)
    );
    let out = std::fs::read_to_string(&csv).unwrap();
    assert!(out.contains("Double Witch (without Witch)"), "{out}");
    // In a kingdom with Witch it plays as itself, unlabelled.
    let o = domsim(&[
        "rank",
        "-n",
        "10",
        "--kingdom",
        "Witch",
        "--fill",
        FIELD[2],
        FIELD[3],
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("left out"), "{}", stderr(&o));
    assert!(stdout(&o).contains("Double Witch"), "{}", stdout(&o));
    // A type entry fits only where a card has the type (issue 42): the
    // Knights bot buys `Knight`, and First Game has no Knights.
    let o = domsim(&[
        "rank",
        "-n",
        "10",
        "--preset",
        "First Game",
        FIELD[0],
        FIELD[1],
        "strategies/knights.dom",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("left out 1 bot(s) naming cards not in the kingdom (--absent keep plays them): Knights (Knights)"),
        "{}",
        stderr(&o)
    );
    // One bot left: refused, nothing written.
    std::fs::remove_file(&csv).unwrap();
    let o = domsim(&[
        "rank",
        "-n",
        "10",
        "--preset",
        "First Game",
        FIELD[2],
        FIELD[3],
        "-o",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("1 bot(s) left in the field"),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("--absent keep"), "{}", stderr(&o));
    assert!(entries(&d).is_empty());
}

/// The page's rating axis spans the bulk of the field (issue 45): a bot
/// far below the rest (it buys only Curses) is drawn at the axis' edge
/// with an arrow and its rating, and the axis' range leaves it out.
#[test]
fn an_outlier_does_not_squash_the_rating_axis() {
    let d = scratch("ratings-axis");
    let bad = d.join("curses.dom");
    std::fs::write(&bad, "name: Curses\nbuy: Curse\n").unwrap();
    let html = d.join("r.html");
    let o = domsim(&[
        "rank",
        "-n",
        "40",
        "--preset",
        "First Game",
        "strategies/big_money.dom",
        "strategies/big_money_ultimate.dom",
        "strategies/smithy_big_money.dom",
        "strategies/militia_big_money.dom",
        bad.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let h = std::fs::read_to_string(&html).unwrap();
    assert!(
        h.contains("; 1 beyond it, drawn at its edge with an arrow)"),
        "{h}"
    );
    let row = h
        .split("<tr>")
        .find(|r| r.contains(">Curses<"))
        .expect("the outlier's row");
    assert!(row.contains("(below the axis)"), "{row}");
    assert!(row.contains("<span class=\"off\">◀ -"), "{row}");
    assert_eq!(h.matches("class=\"off\" d=").count(), 1, "one arrow");
    // The axis' low end is far above the outlier's rating.
    let head = h.split("rating and interval (").nth(1).unwrap();
    let lo: f64 = head.split(' ').next().unwrap().parse().unwrap();
    let rating: f64 = row
        .split("<span class=\"off\">◀ ")
        .nth(1)
        .unwrap()
        .split('<')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(rating < lo - 200.0, "{rating} vs axis from {lo}");
}
