//! `--help` snapshots: the help text of every verb and sub-verb, compared
//! byte for byte with tests/help/*.txt (`domsim.txt`, `domsim-sim.txt`,
//! `domsim-salem-sim.txt`, …). A flag added, removed or reworded, or a verb
//! added or removed, fails this test until the snapshots are regenerated
//! on purpose:
//!
//! ```text
//! DOMSIM_BLESS=1 cargo test --test it help::
//! ```
//!
//! which rewrites every snapshot from the built binary (and removes the
//! snapshots of verbs that no longer exist); review the diff before
//! committing it.

use crate::cli::{domsim, stderr, stdout};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/help")
}

/// The sub-verbs listed under `Commands:` of a help text (without `help`).
fn subcommands(help: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in help.lines() {
        if line == "Commands:" {
            inside = true;
            continue;
        }
        if !inside {
            continue;
        }
        // The section ends at the first line that is not indented.
        if !line.starts_with(' ') {
            break;
        }
        // A verb's line is "  name  description"; a wrapped description
        // is indented further.
        let Some(rest) = line.strip_prefix("  ") else {
            continue;
        };
        if rest.starts_with(' ') {
            continue;
        }
        let name = rest.split_whitespace().next().unwrap_or("");
        if !name.is_empty() && name != "help" {
            out.push(name.to_string());
        }
    }
    out
}

/// Every verb path (`[]`, `["sim"]`, `["salem", "sim"]`, …) with its `--help`.
fn every_help() -> BTreeMap<String, String> {
    let mut helps = BTreeMap::new();
    let mut todo: Vec<Vec<String>> = vec![vec![]];
    while let Some(path) = todo.pop() {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let o = domsim(&args);
        assert!(
            o.status.success(),
            "domsim {}: {}",
            args.join(" "),
            stderr(&o)
        );
        let text = stdout(&o);
        for sub in subcommands(&text) {
            let mut p = path.clone();
            p.push(sub);
            todo.push(p);
        }
        let mut name = vec!["domsim".to_string()];
        name.extend(path);
        helps.insert(format!("{}.txt", name.join("-")), text);
    }
    helps
}

#[test]
fn every_verb_help_matches_its_snapshot() {
    let helps = every_help();
    // The walk found the verbs and the sub-verbs (a broken parser of the
    // `Commands:` section would find only the top level).
    for must in [
        "domsim-sim.txt",
        "domsim-salem-sim.txt",
        "domsim-cards-list.txt",
    ] {
        assert!(
            helps.contains_key(must),
            "no help for {must}: {:?}",
            helps.keys()
        );
    }
    let d = dir();
    if std::env::var_os("DOMSIM_BLESS").is_some() {
        std::fs::create_dir_all(&d).unwrap();
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "txt") {
                std::fs::remove_file(p).unwrap();
            }
        }
        for (name, text) in &helps {
            std::fs::write(d.join(name), text).unwrap();
        }
        return;
    }
    let mut problems = Vec::new();
    for (name, text) in &helps {
        match std::fs::read(d.join(name)) {
            Ok(want) if want == text.as_bytes() => {}
            Ok(_) => problems.push(format!("{name}: help text changed")),
            Err(_) => problems.push(format!("{name}: no snapshot (a new verb?)")),
        }
    }
    for e in std::fs::read_dir(&d).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".txt") && !helps.contains_key(&name) {
            problems.push(format!("{name}: snapshot of a verb that no longer exists"));
        }
    }
    assert!(
        problems.is_empty(),
        "--help differs from tests/help/ (if on purpose: DOMSIM_BLESS=1 cargo test --test it help::):\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_commands_section_parser_finds_verbs_and_skips_wrapped_lines() {
    let help = "About\n\nUsage: domsim <COMMAND>\n\nCommands:\n  sim    Simulate\n         wrapped line\n  cards  Cards\n  help   Print this message\n\nOptions:\n  -h, --help  Print help\n";
    assert_eq!(subcommands(help), vec!["sim", "cards"]);
    assert!(subcommands("Usage: domsim sim\n\nOptions:\n  -n  games\n").is_empty());
}
