//! `domsim optimize` (issue 15): template errors, determinism whatever the
//! thread count, `--auto`, and the written bot being a valid strategy that
//! plays. The search itself (successive halving, refinement, a planted
//! optimum) is tested on a synthetic objective in `src/optimize/mod.rs`.

use crate::cli::{domsim, entries, scratch, stderr, stdout};

const SMALL: [&str; 8] = [
    "--candidates",
    "8",
    "-n",
    "40",
    "--max-games",
    "360",
    "--confirm",
    "400",
];

#[test]
fn template_errors_name_file_line_and_column_and_write_nothing() {
    let d = scratch("opt-bad");
    let t = d.join("t.domt");
    std::fs::write(
        &t,
        "buy:\n    Province if total_money >= {p: 20..12}\n    Silver\n",
    )
    .unwrap();
    let bot = d.join("bot.dom");
    let o = domsim(&[
        "optimize",
        t.to_str().unwrap(),
        "--bot",
        bot.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains(&format!("{}:2:32: empty range 20..12", t.display())),
        "{err}"
    );
    // Every candidate invalid: the strategy error is named.
    std::fs::write(&t, "buy:\n    Provinc if total_money >= {p: 12..20}\n").unwrap();
    let o = domsim(&[
        "optimize",
        t.to_str().unwrap(),
        "--bot",
        bot.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no candidate of the template is a valid strategy"),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains("Province"),
        "did you mean: {}",
        stderr(&o)
    );
    // A card parameter nothing fits, without --auto.
    std::fs::write(&t, "buy:\n    {W: card Attack cost 5..5}\n    Silver\n").unwrap();
    let o = domsim(&["optimize", t.to_str().unwrap(), "--preset", "First Game"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no card of this kingdom fits"),
        "{}",
        stderr(&o)
    );
    // Template and --auto, or neither; the bot may not overwrite the template.
    let o = domsim(&["optimize", t.to_str().unwrap(), "--auto"]);
    assert_eq!(o.status.code(), Some(2));
    let o = domsim(&["optimize"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--auto"), "{}", stderr(&o));
    let o = domsim(&[
        "optimize",
        t.to_str().unwrap(),
        "--bot",
        t.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(entries(&d), ["t.domt"]);
}

#[test]
fn same_bot_and_search_log_whatever_the_threads() {
    let d = scratch("opt-det");
    let mut outs = Vec::new();
    for j in ["1", "2"] {
        let bot = d.join(format!("bot{j}.dom"));
        let csv = d.join(format!("search{j}.csv"));
        let mut args = vec![
            "optimize",
            "strategies/templates/smithy_big_money.domt",
            "--preset",
            "First Game",
            "--seed",
            "3",
            "-j",
            j,
            "--bot",
            bot.to_str().unwrap(),
            "-o",
            csv.to_str().unwrap(),
        ];
        args.extend(SMALL);
        let o = domsim(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        outs.push((
            std::fs::read_to_string(&bot).unwrap(),
            std::fs::read_to_string(&csv).unwrap(),
        ));
    }
    assert_eq!(outs[0], outs[1]);
    let (bot, csv) = &outs[0];
    assert!(bot.starts_with("# Written by domsim"), "{bot}");
    // `extends:` names the base by its search-path name (issue 42 item 7:
    // no `../../`), so the bot works wherever it is moved.
    let ext = bot
        .lines()
        .find_map(|l| l.strip_prefix("extends: "))
        .expect("an extends line");
    assert_eq!(ext, "big_money_ultimate.dom", "{bot}");
    let moved = scratch("opt-det-moved");
    let far = moved.join("a/b/c");
    std::fs::create_dir_all(&far).unwrap();
    std::fs::write(far.join("bot.dom"), bot).unwrap();
    let o = domsim(&["check", far.join("bot.dom").to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!bot.contains('{'), "every placeholder filled: {bot}");
    let header = csv.lines().find(|l| !l.starts_with('#')).unwrap();
    assert_eq!(
        header,
        "candidate,stage,p,d,e,d2,s,m,games_per_opponent,score,score_lo,score_hi,error"
    );
    assert!(csv.lines().any(|l| l.contains(",halving 0,")));
    assert!(csv.lines().last().unwrap().contains(",confirm,"));
    // The bot is a strategy file that checks and plays.
    let bot_path = d.join("bot1.dom");
    let o = domsim(&["check", bot_path.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = domsim(&[
        "sim",
        bot_path.to_str().unwrap(),
        "strategies/big_money_ultimate.dom",
        "--preset",
        "First Game",
        "-n",
        "200",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn auto_tries_the_shipped_templates_that_fit() {
    let mut args = vec!["optimize", "--auto", "--preset", "First Game"];
    args.extend(SMALL);
    let o = domsim(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for t in [
        "engine.domt",
        "money_attack.domt",
        "money_draw.domt",
        "smithy_big_money.domt",
    ] {
        assert!(out.contains(t), "{t} tried: {out}");
    }
    // The bot is printed when no --bot is given.
    assert!(out.contains("# Written by domsim"), "{out}");
    // A kingdom without a village: the engine template is skipped, said once.
    let mut args = vec![
        "optimize",
        "--auto",
        "--kingdom",
        "Smithy,Militia,Moat,Cellar,Chapel,Woodcutter,Workshop,Bureaucrat,Gardens,Mine",
    ];
    args.extend(SMALL);
    let o = domsim(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("skipped") && stderr(&o).contains("engine.domt"),
        "{}",
        stderr(&o)
    );
}

/// `--bot LINK`: the bot lands in the link's target folder (outputs follow
/// links), so its `extends:` must resolve from there as well as from the
/// link's folder. It was written relative to the link's folder only, and
/// the file itself did not load ("cannot read ... (extends is relative to
/// this file)"); it now names the base by its search-path name, which
/// finds the same file from both.
#[cfg(unix)]
#[test]
fn bot_written_through_a_link_extends_from_both_folders() {
    let d = scratch("opt-link");
    let deep = d.join("sub/deeper");
    std::fs::create_dir_all(&deep).unwrap();
    let real = deep.join("real.dom");
    let link = d.join("link.dom");
    std::os::unix::fs::symlink("sub/deeper/real.dom", &link).unwrap();
    let mut args = vec![
        "optimize",
        "strategies/templates/smithy_big_money.domt",
        "--preset",
        "First Game",
        "--bot",
        link.to_str().unwrap(),
    ];
    args.extend(SMALL);
    let o = domsim(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    let bot = std::fs::read_to_string(&real).unwrap();
    assert!(bot.contains("\nextends: big_money_ultimate.dom\n"), "{bot}");
    for p in [&link, &real] {
        let o = domsim(&["check", p.to_str().unwrap()]);
        assert!(o.status.success(), "{}: {}", p.display(), stderr(&o));
    }
    assert_eq!(entries(&d), ["link.dom", "sub"]);
}
