//! `domsim best` (issue 42): the field ranked, PSRO over the templates,
//! the gate on fresh seeds. Tiny game counts: these test the plumbing
//! and the gate's refusal, not the strength of what is found (that is
//! results/OPTIMIZE.md's job).

use crate::cli::{domsim, entries, scratch, stderr, stdout};

/// A tiny budget for every search.
const TINY: [&str; 14] = [
    "-n",
    "40",
    "--gate-games",
    "400",
    "--iterations",
    "1",
    "--candidates",
    "2",
    "--search-games",
    "10",
    "--max-games",
    "10",
    "--confirm",
    "20",
];

/// A template whose every bot buys only Coppers and Estates loses to a
/// money field: the gate refuses to call it best and `best` returns the
/// field's best bot instead — its own file, with a header that says so.
#[test]
fn the_gate_refuses_a_losing_bot() {
    let d = scratch("best-losing");
    let t = d.join("bad.domt");
    std::fs::write(
        &t,
        "name: Copper Estate\nbuy:\n    Estate if supply(Province) <= {e: 0..1}\n    Copper\n",
    )
    .unwrap();
    let (bot, html) = (d.join("bot.dom"), d.join("best.html"));
    let mut args = vec![
        "best",
        "--preset",
        "First Game",
        "--no-shipped",
        "--against",
        "strategies/big_money_ultimate.dom",
        "--against",
        "strategies/big_money.dom",
        "--template",
        t.to_str().unwrap(),
        "--bot",
        bot.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
    ];
    args.extend(TINY);
    let o = domsim(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("NOT BEST: the found bot PSRO 1: Copper Estate is not the best of the field"),
        "{out}"
    );
    assert!(
        out.contains("The best bot of this field is Big Money Ultimate"),
        "{out}"
    );
    assert!(
        out.contains("gate (PSRO 1: Copper Estate on fresh seeds, 400 games"),
        "{out}"
    );
    // Progress on standard error.
    assert!(
        stderr(&o).contains("ranking the field: 1 pairs × 40 games"),
        "{}",
        stderr(&o)
    );
    let text = std::fs::read_to_string(&bot).unwrap();
    assert!(text.starts_with("# Written by domsim"), "{text}");
    assert!(text.contains("# NOT a new bot:"), "{text}");
    // Its own file, from its first line (BMU extends nothing).
    let bmu = std::fs::read_to_string("strategies/big_money_ultimate.dom").unwrap();
    assert!(bmu.lines().all(|l| text.contains(l)), "{text}");
    let page = std::fs::read_to_string(&html).unwrap();
    for want in [
        "NOT BEST",
        "The gate",
        "Head to head",
        "Nash weight",
        "The bot file",
    ] {
        assert!(page.contains(want), "{want}");
    }
    assert!(
        !page.contains("<script") && !page.contains("src="),
        "self-contained"
    );
}

/// With a shipped template the search finds a bot that plays; the field
/// is the shipped bots that fit the kingdom (a bot naming a card absent
/// from it is left out) plus --against; the bot file is a valid strategy.
#[test]
fn best_ranks_the_fitting_field_and_writes_a_playable_bot() {
    let d = scratch("best-ok");
    let bot = d.join("bot.dom");
    let mut args = vec![
        "best",
        "--kingdom",
        "Cellar,Chapel,Moat,Village,Smithy,Festival,Market,Laboratory,Mine,Witch",
        "--template",
        "strategies/templates/smithy_big_money.domt",
        "--bot",
        bot.to_str().unwrap(),
    ];
    args.extend(TINY);
    let o = domsim(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    // Double Witch fits (Witch is here); Masquerade Big Money does not.
    assert!(out.contains("Double Witch"), "{out}");
    let field_line = out.lines().find(|l| l.starts_with("field (")).unwrap();
    assert!(!field_line.contains("Masquerade"), "{field_line}");
    // Nor the Knights bot: its `Knight` entry has no card here (issue 42).
    assert!(!field_line.contains("Knights"), "{field_line}");
    assert!(out.contains("BEST") || out.contains("NOT BEST"), "{out}");
    let text = std::fs::read_to_string(&bot).unwrap();
    assert!(text.starts_with("# Written by domsim"), "{text}");
    let o = domsim(&[
        "check",
        bot.to_str().unwrap(),
        "--kingdom",
        "Cellar,Chapel,Moat,Village,Smithy,Festival,Market,Laboratory,Mine,Witch",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// Bad input exits 2 with a clear message and writes nothing.
#[test]
fn bad_best_input_exits_2_and_writes_nothing() {
    let d = scratch("best-bad");
    let bot = d.join("bot.dom");
    let b = bot.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["best", "--preset", "Nowhere", "--bot", b], "Nowhere"),
        (
            vec!["best", "--min-gain", "80", "--bot", b],
            "'80' is not a gain in score points",
        ),
        (
            vec![
                "best",
                "--search-games",
                "100",
                "--max-games",
                "10",
                "--bot",
                b,
            ],
            "--max-games 10 is below --search-games 100",
        ),
        (
            vec!["best", "--template", "no/such.domt", "--bot", b],
            "no/such.domt",
        ),
        (vec!["best", "--no-shipped", "--bot", b], "--against"),
        (
            vec!["best", "--against", "no_such_bot.dom", "--bot", b],
            "no_such_bot.dom",
        ),
        (
            vec!["best", "--bot", "/no/such/folder/bot.dom"],
            "/no/such/folder",
        ),
    ];
    for (args, want) in cases {
        let o = domsim(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
        assert!(entries(&d).is_empty(), "{args:?} wrote {:?}", entries(&d));
    }
}

/// `best` takes data cards (`--cards`): the field and the templates play a
/// kingdom holding an invented card, and a bot of `--against` that buys it
/// is a member of the field.
#[test]
fn best_plays_a_kingdom_with_data_cards() {
    let d = scratch("best-cards");
    let bot = d.join("bot.dom");
    let kingdom = "Post Rider,Cellar,Moat,Village,Smithy,Festival,Market,Laboratory,Mine,Witch";
    let mut args = vec![
        "--cards",
        "cards/post_rider.toml",
        "best",
        "--kingdom",
        kingdom,
        "--against",
        "strategies/playtest/post_rider_big_money.dom",
        "--template",
        "strategies/templates/smithy_big_money.domt",
        "--bot",
        bot.to_str().unwrap(),
    ];
    args.extend(TINY);
    let o = domsim(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let field_line = out.lines().find(|l| l.starts_with("field (")).unwrap();
    assert!(field_line.contains("Post Rider Big Money"), "{field_line}");
    assert!(out.contains("Post Rider"), "{out}");
    let o = domsim(&[
        "--cards",
        "cards/post_rider.toml",
        "check",
        bot.to_str().unwrap(),
        "--kingdom",
        kingdom,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Without the card file the kingdom is refused, naming the card.
    let o = domsim(&["best", "--kingdom", kingdom, "--bot", bot.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("Post Rider"), "{}", stderr(&o));
}

/// `best` and `optimize` play 2-player games: `-p 3` to `-p 6` are refused
/// with the reason and the verb that rates a field at that size; `-p 2` is
/// accepted (as the default).
#[test]
fn best_and_optimize_refuse_more_than_two_players_with_the_reason() {
    let d = scratch("best-players");
    let bot = d.join("bot.dom");
    let b = bot.to_str().unwrap();
    for verb in ["best", "optimize"] {
        for p in ["3", "4", "6"] {
            let mut args = vec![verb, "-p", p, "--bot", b];
            if verb == "optimize" {
                args.push("--auto");
            }
            let o = domsim(&args);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
            let e = stderr(&o);
            assert!(
                e.contains(&format!("{p} players is not supported"))
                    && e.contains(&format!("domsim rank -p {p}")),
                "{args:?}: {e}"
            );
        }
        for bad in ["1", "7", "two", "-2"] {
            let o = domsim(&[verb, "--players", bad, "--bot", b]);
            assert_eq!(o.status.code(), Some(2), "{verb} -p {bad}: {}", stderr(&o));
            assert!(
                stderr(&o).contains("plays 2-player games") || stderr(&o).contains("not supported"),
                "{}",
                stderr(&o)
            );
        }
        assert!(entries(&d).is_empty(), "{verb} wrote {:?}", entries(&d));
    }
    let mut args = vec!["best", "-p", "2", "--preset", "First Game", "--bot", b];
    args.extend(TINY);
    let o = domsim(&args);
    assert!(o.status.success(), "{}", stderr(&o));
}
