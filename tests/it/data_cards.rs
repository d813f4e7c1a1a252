//! Cards from data files (`--cards`, `domsim cards`, `domsim compare`):
//! a scenario for every primitive of the vocabulary (tests/data_cards/),
//! data cards under Throne Room, Band of Misfits, Procession and
//! Masquerade, the reprints against the printed cards, bad card files, and
//! the A/B comparison.

use domsim::cards::data::{self, DataCard};
use domsim::scenario::Scenario;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every card a data-card scenario may name: the shipped reprints and
/// examples, and the test cards.
fn all_cards() -> Vec<DataCard> {
    let mut v = data::load_files(&[
        root().join("cards/reprints.toml"),
        root().join("cards/examples.toml"),
        root().join("tests/data_cards/cards.toml"),
    ])
    .unwrap();
    v.sort_by(|a, b| a.name.cmp(&b.name));
    v
}

/// Run `tests/data_cards/NAME` with the cards of its `# cards:` line bound.
fn run_file(name: &str) {
    let path = root().join("tests/data_cards").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let first = text.lines().next().unwrap_or("");
    let wanted: Vec<&str> = first
        .strip_prefix("# cards:")
        .unwrap_or_else(|| panic!("{name}: the first line must be `# cards: A, B`"))
        .split(',')
        .map(str::trim)
        .collect();
    let all = all_cards();
    let chosen: Vec<DataCard> = wanted
        .iter()
        .map(|w| {
            all.iter()
                .find(|c| c.name == *w)
                .unwrap_or_else(|| panic!("{name}: no data card '{w}'"))
                .clone()
        })
        .collect();
    let _binding = data::bind(&chosen).unwrap();
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

        /// Every scenario file of tests/data_cards/ is listed above.
        #[test]
        fn every_data_card_scenario_is_listed() {
            let listed: &[&str] = &[$($file),*];
            for e in std::fs::read_dir(root().join("tests/data_cards")).unwrap() {
                let name = e.unwrap().file_name().into_string().unwrap();
                if name.ends_with(".txt") {
                    assert!(listed.contains(&name.as_str()), "{name} is not listed in tests/it/data_cards.rs");
                }
            }
        }
    };
}

scenarios! {
    plus_and_choose_steward_cards => "primitive_plus_and_choose_steward_cards.txt",
    choose_steward_trash_exactly => "primitive_choose_steward_trash_exactly.txt",
    choose_pick_two_pawn => "primitive_choose_pick_two_pawn.txt",
    gain_up_to_workshop => "primitive_gain_up_to_workshop.txt",
    gain_exactly_to_hand => "primitive_gain_exactly_to_hand.txt",
    gain_card_to_deck_and_others_topdeck => "primitive_gain_card_to_deck_and_others_topdeck.txt",
    trash_card_then_bonus => "primitive_trash_card_then_bonus.txt",
    trash_card_missing => "primitive_trash_card_missing.txt",
    trash_up_to_chapel => "primitive_trash_up_to_chapel.txt",
    trash_exactly_each_bonus => "primitive_trash_exactly_each_bonus.txt",
    improve_remodel => "primitive_improve_remodel.txt",
    improve_mine_to_hand => "primitive_improve_mine_to_hand.txt",
    improve_exactly_upgrade => "primitive_improve_exactly_upgrade.txt",
    trash_self_feast => "primitive_trash_self_feast.txt",
    discard_for_cellar => "primitive_discard_for_cellar.txt",
    discard_for_coins_up_to => "primitive_discard_for_coins_up_to.txt",
    draw_until => "primitive_draw_until.txt",
    reveal_until_treasures => "primitive_reveal_until_treasures.txt",
    reveal_top_take => "primitive_reveal_top_take.txt",
    others_draw => "primitive_others_draw.txt",
    others_gain_and_reaction_block => "primitive_others_gain_and_reaction_block.txt",
    others_discard_down_to => "primitive_others_discard_down_to.txt",
    others_trash_treasure_gain => "primitive_others_trash_treasure_gain.txt",
    cost_reduction => "primitive_cost_reduction.txt",
    copper_bonus => "primitive_copper_bonus.txt",
    vp_per => "primitive_vp_per.txt",
    treasure_on_gain => "primitive_treasure_on_gain.txt",
    throne_room_data_card => "rules_throne_room_data_card.txt",
    throne_room_data_feast => "rules_throne_room_data_feast.txt",
    band_of_misfits_data_card => "rules_band_of_misfits_data_card.txt",
    procession_data_card => "rules_procession_data_card.txt",
    masquerade_data_card => "rules_masquerade_data_card.txt",
}
