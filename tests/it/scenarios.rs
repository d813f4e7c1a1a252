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
    s5_1_01_cellar_reshuffles_discards => "5.1.01_cellar_reshuffles_discards.txt",
    s5_1_02_chapel_not_itself_limit_4 => "5.1.02_chapel_not_itself_limit_4.txt",
    s5_1_03_chancellor_no_immediate_shuffle => "5.1.03_chancellor_no_immediate_shuffle.txt",
    s5_1_04_throne_room_feast => "5.1.04_throne_room_feast.txt",
    s5_1_05_throne_room_on_throne_room => "5.1.05_throne_room_on_throne_room.txt",
    s5_1_06_throne_room_no_action => "5.1.06_throne_room_no_action.txt",
    s5_1_07_throne_room_market => "5.1.07_throne_room_market.txt",
    s5_1_08_library_set_aside => "5.1.08_library_set_aside.txt",
    s5_1_09_library_aside_not_reshuffled => "5.1.09_library_aside_not_reshuffled.txt",
    s5_1_10_library_seven_cards => "5.1.10_library_seven_cards.txt",
    s5_1_11_adventurer_revealed_not_shuffled => "5.1.11_adventurer_revealed_not_shuffled.txt",
    s5_1_12_adventurer_one_treasure => "5.1.12_adventurer_one_treasure.txt",
    s5_1_13_bureaucrat_empty_deck => "5.1.13_bureaucrat_empty_deck.txt",
    s5_1_14_militia_thresholds_moat => "5.1.14_militia_thresholds_moat.txt",
    s5_1_15_moat_does_not_stop_attacker => "5.1.15_moat_does_not_stop_attacker.txt",
    s5_1_16_witch_too_few_curses => "5.1.16_witch_too_few_curses.txt",
    s5_1_17_spy_attacker_first => "5.1.17_spy_attacker_first.txt",
    s5_1_18_spy_shuffle_or_nothing => "5.1.18_spy_shuffle_or_nothing.txt",
    s5_1_19_thief_only_this_play => "5.1.19_thief_only_this_play.txt",
    s5_1_20_thief_reveal_shuffle_reveal => "5.1.20_thief_reveal_shuffle_reveal.txt",
    s5_1_21_mine_into_hand => "5.1.21_mine_into_hand.txt",
    s5_1_22_moneylender_without_copper => "5.1.22_moneylender_without_copper.txt",
    s5_1_23_remodel_last_card => "5.1.23_remodel_last_card.txt",
    s5_1_24_workshop_limit_without_bridge => "5.1.24_workshop_limit_without_bridge.txt",
    s5_1_25_gardens_rounding => "5.1.25_gardens_rounding.txt",
    s5_1_26_council_room_not_attack => "5.1.26_council_room_not_attack.txt",
}
