//! docs/TESTING.md documents the test layout: every module of this binary must be
//! listed there, and every module listed must exist.

use std::collections::BTreeSet;

#[test]
fn readme_test_layout_lists_every_module() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("docs/TESTING.md")).unwrap();
    let start = readme
        .find("## Test layout")
        .expect("a Test layout section");
    let section = &readme[start..];
    let end = section[3..].find("\n## ").map_or(section.len(), |i| i + 3);
    let section = &section[..end];
    let listed: BTreeSet<String> = section
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|w| w.ends_with(".rs") && !w.contains('/') && *w != "main.rs")
        .map(str::to_string)
        .collect();
    let on_disk: BTreeSet<String> = std::fs::read_dir(root.join("tests/it"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".rs") && f != "main.rs")
        .collect();
    let missing: Vec<_> = on_disk.difference(&listed).collect();
    let stale: Vec<_> = listed.difference(&on_disk).collect();
    assert!(
        missing.is_empty() && stale.is_empty(),
        "docs/TESTING.md test layout: not listed {missing:?}, listed but absent {stale:?}"
    );
}
