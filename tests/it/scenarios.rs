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
    s5_5_144_five_players_need_4_piles => "5.5.144_five_players_need_4_piles.txt",
    s5_5_146_last_province_mid_turn => "5.5.146_last_province_mid_turn.txt",
    s5_5_147_tie_break_fewer_turns => "5.5.147_tie_break_fewer_turns.txt",
    s5_5_147_tie_break_shared => "5.5.147_tie_break_shared.txt",
    s5_5_148_shuffle_only_when_needed => "5.5.148_shuffle_only_when_needed.txt",
    s5_5_149_no_treasures_after_buying => "5.5.149_no_treasures_after_buying.txt",
    s5_5_150_bought_cards_not_usable => "5.5.150_bought_cards_not_usable.txt",
    card_adventurer_any_treasure => "card_adventurer_any_treasure.txt",
    card_adventurer_basic => "card_adventurer_basic.txt",
    card_adventurer_no_cards => "card_adventurer_no_cards.txt",
    card_bureaucrat_no_victory => "card_bureaucrat_no_victory.txt",
    card_bureaucrat_silver_pile_empty => "card_bureaucrat_silver_pile_empty.txt",
    card_bureaucrat_victim_chooses => "card_bureaucrat_victim_chooses.txt",
    card_cellar_basic => "card_cellar_basic.txt",
    card_cellar_discard_none => "card_cellar_discard_none.txt",
    card_chancellor_decline => "card_chancellor_decline.txt",
    card_chapel_only_card => "card_chapel_only_card.txt",
    card_chapel_trash_none => "card_chapel_trash_none.txt",
    card_council_room_three_players => "card_council_room_three_players.txt",
    card_feast_basic => "card_feast_basic.txt",
    card_festival => "card_festival.txt",
    card_gardens_not_playable => "card_gardens_not_playable.txt",
    card_gardens_pile_three_players => "card_gardens_pile_three_players.txt",
    card_laboratory => "card_laboratory.txt",
    card_library_keep_action => "card_library_keep_action.txt",
    card_library_nothing_to_draw => "card_library_nothing_to_draw.txt",
    card_market => "card_market.txt",
    card_militia_basic => "card_militia_basic.txt",
    card_mine_copper_to_silver => "card_mine_copper_to_silver.txt",
    card_mine_no_treasure => "card_mine_no_treasure.txt",
    card_mine_same_card => "card_mine_same_card.txt",
    card_moat_action => "card_moat_action.txt",
    card_moat_declined => "card_moat_declined.txt",
    card_moat_vs_bureaucrat => "card_moat_vs_bureaucrat.txt",
    card_moat_vs_militia => "card_moat_vs_militia.txt",
    card_moat_vs_spy => "card_moat_vs_spy.txt",
    card_moat_vs_thief => "card_moat_vs_thief.txt",
    card_moat_vs_witch => "card_moat_vs_witch.txt",
    card_moneylender_basic => "card_moneylender_basic.txt",
    card_remodel_basic => "card_remodel_basic.txt",
    card_remodel_other_remodel => "card_remodel_other_remodel.txt",
    card_smithy_basic => "card_smithy_basic.txt",
    card_smithy_short_deck => "card_smithy_short_deck.txt",
    card_spy_draw_then_shuffle => "card_spy_draw_then_shuffle.txt",
    card_thief_no_treasure => "card_thief_no_treasure.txt",
    card_thief_same_kind_twice => "card_thief_same_kind_twice.txt",
    card_thief_two_victims => "card_thief_two_victims.txt",
    card_throne_room_chancellor => "card_throne_room_chancellor.txt",
    card_throne_room_festival => "card_throne_room_festival.txt",
    card_throne_room_library => "card_throne_room_library.txt",
    card_throne_room_militia => "card_throne_room_militia.txt",
    card_throne_room_mine => "card_throne_room_mine.txt",
    card_throne_room_moneylender => "card_throne_room_moneylender.txt",
    card_throne_room_moneylender_one_copper => "card_throne_room_moneylender_one_copper.txt",
    card_throne_room_remodel => "card_throne_room_remodel.txt",
    card_throne_room_spy => "card_throne_room_spy.txt",
    card_throne_room_throne_room_one_target => "card_throne_room_throne_room_one_target.txt",
    card_throne_room_witch => "card_throne_room_witch.txt",
    card_throne_room_workshop => "card_throne_room_workshop.txt",
    card_treasures_and_victory => "card_treasures_and_victory.txt",
    card_village => "card_village.txt",
    card_village_empty_deck => "card_village_empty_deck.txt",
    card_witch_basic => "card_witch_basic.txt",
    card_witch_curse_order => "card_witch_curse_order.txt",
    card_witch_no_curses => "card_witch_no_curses.txt",
    card_woodcutter => "card_woodcutter.txt",
    card_workshop_basic => "card_workshop_basic.txt",
    game_end_three_piles_two_players => "game_end_three_piles_two_players.txt",
    game_flow_cleanup => "game_flow_cleanup.txt",
    game_flow_game_over => "game_flow_game_over.txt",
    game_flow_illegal_moves => "game_flow_illegal_moves.txt",
}
