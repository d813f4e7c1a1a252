//! Scenario tests: each file in `tests/scenarios/` sets up an explicit game
//! state, plays moves with scripted answers and checks the exact zones after.
//! File names start with the CARDS.md scenario number where there is one
//! (`5.1.04_...` is CARDS.md §5.1 item 4) or with the card name.

use domsim::scenario::Scenario;
use std::path::Path;

fn run_file(name: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/scenarios")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let sc = Scenario::parse(&text).unwrap_or_else(|e| panic!("{name}:{e}"));
    let r = sc.run().unwrap_or_else(|e| panic!("{name}:{e}"));
    let mut problems = r.failures.clone();
    problems.extend(r.mismatches.iter().cloned());
    if r.unused_answers > 0 {
        problems.push(format!(
            "{} scripted answers never asked for",
            r.unused_answers
        ));
    }
    assert!(r.checked > 0, "{name}: no expectation checked");
    assert!(problems.is_empty(), "{name}:\n  {}", problems.join("\n  "));
}

macro_rules! scenarios {
    ($($test:ident => $file:literal,)*) => {
        $( #[test] fn $test() { run_file($file); } )*

        /// Every scenario file is listed above (none silently skipped).
        #[test]
        fn every_scenario_file_is_listed() {
            let listed: &[&str] = &[$($file),*];
            let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
            for e in std::fs::read_dir(dir).unwrap() {
                let name = e.unwrap().file_name().into_string().unwrap();
                if name.ends_with(".txt") {
                    assert!(listed.contains(&name.as_str()), "{name} is not listed in tests/scenarios.rs");
                }
            }
        }
    };
}

scenarios! {
    s5_1_04_throne_room_feast => "5.1.04_throne_room_feast.txt",
}
