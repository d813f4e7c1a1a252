//! Imports point down (docs/ARCHITECTURE.md, "The layering rule"): every
//! `crate::…` path in src/ is checked against the layers below, bottom
//! first. A module may use the modules of lower layers only: not its own
//! layer's siblings, not a higher layer. The one exception is `cards` ↔
//! `engine` (the card table and the game state are one hot path: a card's
//! effect changes the state, the state holds cards).
//!
//! A module is a top-level module of the crate (`src/X.rs`, `src/X/`), or
//! a game's sub-module for `dominion/` (`crate::cards` is
//! `crate::dominion::cards`, re-exported). Comments are ignored; `super::`
//! paths stay inside their module. [`ALLOWED`] lists the upward imports
//! that are still there, file by file: it may only shrink — an entry that
//! is no longer needed fails the test too, so that it is struck off.

use std::collections::BTreeSet;
use std::path::Path;

/// The layers, bottom first.
const LAYERS: &[&[&str]] = &[
    // Leaves: digests; how every file is written and read.
    &["digest"],
    &["output"],
    // Metadata, console tables, CSV writers shared by the verbs.
    &["report"],
    // The game-independent kernel: runner, seeds, shards, checkpoints.
    &["sim"],
    // Dominion's hot path: the card table and the engine (one exception).
    &["cards", "engine"],
    &["strategy"],
    &["bots", "search"],
    // Dominion's match on the runner and its win-rate statistics.
    &["matches"],
    // Sweeps over kingdoms; ratings (Bradley–Terry, Plackett–Luce) and
    // their tables.
    &["sweep", "rank"],
    // The seats of a run: strategy files, built-in bots, the search bot.
    &["lineup"],
    // The recommended kingdoms; the bots wrapper that logs a game.
    &["presets"],
    &["logbots"],
    // The kingdom of a run and how it was chosen.
    &["kingdoms"],
    // What Dominion builds on its engine and bots; its outputs.
    &[
        "scenario", "soak", "playtest", "stats", "optimize", "outputs",
    ],
    // The other game.
    &["new_salem"],
    &["bench"],
    &["serve"],
    // The command line: nothing imports it.
    &["commands"],
];

/// Items the crate root re-exports, and the module they come from.
const ROOT_ITEMS: &[(&str, &str)] = &[
    ("Card", "cards"),
    ("CardSet", "cards"),
    ("Types", "cards"),
    ("Game", "engine"),
    ("Kingdom", "engine"),
    ("Bots", "engine"),
    ("Outcome", "engine"),
    // #[macro_export] macros of src/output.rs.
    ("out", "output"),
    ("outln", "output"),
    ("errln", "output"),
];

/// Upward imports still in the tree: (file, module it imports). Shrinks to
/// empty (issue 47); never add to it — move the code down instead.
const ALLOWED: &[(&str, &str)] = &[
    ("src/report/mod.rs", "engine"),
    ("src/report/mod.rs", "matches"),
    ("src/report/mod.rs", "sim"),
    ("src/sim/shard.rs", "cards"),
    ("src/sim/shard.rs", "engine"),
    ("src/sim/shard.rs", "kingdoms"),
    ("src/sim/shard.rs", "matches"),
    ("src/sim/shard.rs", "playtest"),
    ("src/sim/shard.rs", "sweep"),
];

/// A module's name as the layers name it (`None` for the crate root).
fn unit_of_file(path: &str) -> Option<String> {
    let rel = path.strip_prefix("src/")?;
    let parts: Vec<&str> = rel.split('/').collect();
    let strip = |s: &str| s.trim_end_matches(".rs").to_string();
    match parts.as_slice() {
        ["lib.rs"] | ["main.rs"] | ["dominion", "mod.rs"] => None,
        ["dominion", sub, ..] => Some(canonical(&strip(sub))),
        [top, ..] => Some(canonical(&strip(top))),
        [] => None,
    }
}

/// The old command-line files count as `commands`.
fn canonical(unit: &str) -> String {
    match unit {
        "cli" | "config" => "commands".to_string(),
        u => u.to_string(),
    }
}

fn layer(unit: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&unit))
}

/// `text` without its comments (line comments and block comments; a `//`
/// inside a string cuts the rest of that line, which can only hide a path,
/// never invent one).
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("//") {
            rest = r.find('\n').map_or("", |i| &r[i..]);
        } else if let Some(r) = rest.strip_prefix("/*") {
            rest = r.find("*/").map_or("", |i| &r[i + 2..]);
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

fn ident(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The first path segments of `rest` (what follows `crate::`): one, or each
/// item of a `{…}` group. `dominion::X` names X.
fn first_segments(rest: &str) -> Vec<String> {
    let rest = rest.trim_start();
    if let Some(group) = rest.strip_prefix('{') {
        let mut depth = 0usize;
        let mut items = Vec::new();
        let mut start = 0;
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    items.push(&group[start..i]);
                    break;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    items.push(&group[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        return items
            .into_iter()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .flat_map(segment)
            .collect();
    }
    segment(rest)
}

fn segment(path: &str) -> Vec<String> {
    let first = ident(path);
    if first == "dominion" {
        let after = path[first.len()..].trim_start();
        if let Some(sub) = after.strip_prefix("::") {
            return first_segments(sub);
        }
    }
    if first.is_empty() || first == "self" {
        return vec![];
    }
    vec![first.to_string()]
}

/// The module a first segment of a `crate::` path names.
fn unit_of_item(seg: &str) -> Result<String, String> {
    if let Some((_, u)) = ROOT_ITEMS.iter().find(|(i, _)| *i == seg) {
        return Ok(u.to_string());
    }
    let u = canonical(seg);
    if layer(&u).is_some() {
        Ok(u)
    } else {
        Err(format!(
            "`crate::{seg}` names no module of the layers (a new module or root item: add it to LAYERS or ROOT_ITEMS)"
        ))
    }
}

/// Every upward import of the files `(path, text)`: (file, module imported),
/// sorted; an unknown module is an error.
fn violations(files: &[(String, String)]) -> Result<BTreeSet<(String, String)>, String> {
    let mut found = BTreeSet::new();
    for (path, text) in files {
        let Some(from) = unit_of_file(path) else {
            continue;
        };
        let lf = layer(&from).ok_or_else(|| format!("{path}: module {from} is in no layer"))?;
        let code = strip_comments(text);
        let mut rest = code.as_str();
        while let Some(i) = rest.find("crate::") {
            // `domsim_crate::`, `$crate::` are not this crate's paths.
            let before = rest[..i].chars().next_back();
            rest = &rest[i + "crate::".len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
                continue;
            }
            for seg in first_segments(rest) {
                let to = unit_of_item(&seg).map_err(|e| format!("{path}: {e}"))?;
                let lt = layer(&to).unwrap();
                let exception = matches!(
                    (from.as_str(), to.as_str()),
                    ("cards", "engine") | ("engine", "cards")
                );
                if to != from && lt >= lf && !exception {
                    found.insert((path.clone(), to));
                }
            }
        }
    }
    Ok(found)
}

fn source_files(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            source_files(&p, root, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            let rel = p
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            out.push((rel, std::fs::read_to_string(&p).unwrap()));
        }
    }
}

#[test]
fn imports_point_down_but_for_the_listed_ones() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    source_files(&root.join("src"), root, &mut files);
    assert!(files.len() > 50, "read only {} files", files.len());
    let found = violations(&files).unwrap_or_else(|e| panic!("{e}"));
    let allowed: BTreeSet<(String, String)> = ALLOWED
        .iter()
        .map(|(f, u)| (f.to_string(), u.to_string()))
        .collect();
    let new: Vec<String> = found
        .difference(&allowed)
        .map(|(f, u)| format!("    (\"{f}\", \"{u}\"),"))
        .collect();
    let gone: Vec<String> = allowed
        .difference(&found)
        .map(|(f, u)| format!("    (\"{f}\", \"{u}\"),"))
        .collect();
    assert!(
        new.is_empty(),
        "imports that point up (see docs/ARCHITECTURE.md; move the code down rather than list it):\n{}",
        new.join("\n")
    );
    assert!(
        gone.is_empty(),
        "ALLOWED lists imports that are gone: strike them off:\n{}",
        gone.join("\n")
    );
}

#[test]
fn the_checker_finds_an_upward_import_and_passes_downward_ones() {
    let f = |p: &str, t: &str| (p.to_string(), t.to_string());
    let files = vec![
        // Down: allowed, grouped or not, through `dominion::` too.
        f(
            "src/report/mod.rs",
            "use crate::{digest, output::{Output, Commit}};",
        ),
        f(
            "src/serve/mod.rs",
            "use crate::dominion::strategy::parse;\nuse crate::sim::run;",
        ),
        // The one exception, both ways.
        f("src/dominion/cards/mod.rs", "use crate::engine::Game;"),
        f(
            "src/dominion/engine/mod.rs",
            "use crate::cards::Card; use crate::Card;",
        ),
        // Comments and other crates' paths are not imports.
        f(
            "src/sim/mod.rs",
            "// use crate::serve;\n/* crate::commands */ let x = $crate::out;",
        ),
        // Up: the kernel using the web server, a sibling, the command line.
        f("src/sim/runner.rs", "fn f() { crate::serve::run(); }"),
        f(
            "src/stats/mod.rs",
            "use crate::{report::Meta, dominion::playtest};",
        ),
        f("src/serve/api.rs", "use crate::cli::KingdomArgs;"),
    ];
    let found = violations(&files).unwrap();
    let want: BTreeSet<(String, String)> = [
        ("src/serve/api.rs", "commands"),
        ("src/sim/runner.rs", "serve"),
        ("src/stats/mod.rs", "playtest"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(found, want);
    // A path to a module the layers do not know is an error, not a pass.
    let unknown = violations(&[f("src/sim/mod.rs", "use crate::nowhere::X;")]);
    assert!(unknown.unwrap_err().contains("crate::nowhere"));
}
