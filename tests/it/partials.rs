//! Partial files of an earlier build still merge to the same bytes: the
//! committed parts of tests/fixtures/partials/ (small sharded runs of sim,
//! matrix, sweep, rank and compare, written by
//! scripts/make-partial-fixtures.sh, the single source of those files) are
//! merged by today's binary and must give the committed one-machine outputs
//! byte for byte (CSV, and the HTML page, sweep summary and rank matrix
//! where the verb writes them). A change to the partial format or to a
//! merged output fails this test until the script is run again on purpose.

use crate::cli::{domsim, entries, scratch, stderr};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/partials")
}

/// The fixture runs: tag → its part files, in shard order.
fn runs() -> BTreeMap<String, Vec<String>> {
    let mut runs: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for name in entries(&dir()) {
        if let Some((tag, rest)) = name.split_once(".part") {
            if rest.ends_with(".json") {
                runs.entry(tag.to_string()).or_default().push(name.clone());
            }
        }
    }
    for parts in runs.values_mut() {
        parts.sort_by_key(|p| p.len());
    }
    runs
}

#[test]
fn committed_parts_merge_to_the_committed_one_machine_outputs() {
    let runs = runs();
    let tags: Vec<&str> = runs.keys().map(String::as_str).collect();
    for must in ["compare", "matrix", "rank", "rank3", "sim", "sweep"] {
        assert!(
            tags.contains(&must),
            "no fixture parts for {must}: {tags:?}"
        );
    }
    let d = scratch("partials");
    let fixtures = dir();
    for (tag, parts) in &runs {
        assert!(
            parts.len() >= 2,
            "{tag}: a fixture of one part merges nothing"
        );
        let mut args: Vec<String> = vec!["merge".into()];
        args.extend(parts.iter().map(|p| fixtures.join(p).display().to_string()));
        let mut compared: Vec<(PathBuf, PathBuf)> = Vec::new();
        for (suffix, option) in [
            ("csv", "-o"),
            ("html", "--html"),
            ("summary.csv", "--summary"),
            ("matrix.csv", "--matrix"),
        ] {
            let want = fixtures.join(format!("{tag}.{suffix}"));
            if option != "-o" && !want.exists() {
                continue;
            }
            let got = d.join(format!("{tag}.{suffix}"));
            args.extend([option.to_string(), got.display().to_string()]);
            compared.push((want, got));
        }
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = domsim(&argv);
        assert!(o.status.success(), "{tag}: {}", stderr(&o));
        for (want, got) in compared {
            let w = std::fs::read(&want).unwrap_or_else(|e| panic!("{}: {e}", want.display()));
            let g = std::fs::read(&got).unwrap();
            assert!(
                w == g,
                "{tag}: merging the committed parts no longer gives {} byte for byte \
                 (if the change is on purpose: scripts/make-partial-fixtures.sh)",
                want.display()
            );
        }
    }
}
