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
    card_thief_default_trashes_best => "card_thief_default_trashes_best.txt",
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
    // Intrigue
    s5_2_27_baron_discard_estate => "5.2.27_baron_discard_estate.txt",
    s5_2_27_baron_keep_estate => "5.2.27_baron_keep_estate.txt",
    s5_2_27_baron_no_estate_empty_pile => "5.2.27_baron_no_estate_empty_pile.txt",
    s5_2_28_throne_room_bridge => "5.2.28_throne_room_bridge.txt",
    s5_2_29_bridge_upgrade_copper => "5.2.29_bridge_upgrade_copper.txt",
    s5_2_29_bridge_upgrade_copper_illegal => "5.2.29_bridge_upgrade_copper_illegal.txt",
    s5_2_30_conspirator_throne_room => "5.2.30_conspirator_throne_room.txt",
    s5_2_31_conspirator_second_action => "5.2.31_conspirator_second_action.txt",
    s5_2_31_conspirator_third_action => "5.2.31_conspirator_third_action.txt",
    s5_2_32_coppersmith_single => "5.2.32_coppersmith_single.txt",
    s5_2_32_coppersmith_throne_room => "5.2.32_coppersmith_throne_room.txt",
    s5_2_33_courtyard_any_card => "5.2.33_courtyard_any_card.txt",
    s5_2_34_duke_scoring => "5.2.34_duke_scoring.txt",
    s5_2_35_great_hall_bureaucrat => "5.2.35_great_hall_bureaucrat.txt",
    s5_2_35_great_hall_scout => "5.2.35_great_hall_scout.txt",
    s5_2_35_great_hall_shanty_town => "5.2.35_great_hall_shanty_town.txt",
    s5_2_36_harem_adventurer => "5.2.36_harem_adventurer.txt",
    s5_2_37_ironworks_estate => "5.2.37_ironworks_estate.txt",
    s5_2_37_ironworks_great_hall => "5.2.37_ironworks_great_hall.txt",
    s5_2_37_ironworks_harem_bridged => "5.2.37_ironworks_harem_bridged.txt",
    s5_2_37_ironworks_silver => "5.2.37_ironworks_silver.txt",
    s5_2_38_masquerade_empty_hand => "5.2.38_masquerade_empty_hand.txt",
    s5_2_39_mining_village_throne_room => "5.2.39_mining_village_throne_room.txt",
    s5_2_40_minion_discard_mode => "5.2.40_minion_discard_mode.txt",
    s5_2_41_secret_chamber_vs_minion_small_hand => "5.2.41_secret_chamber_vs_minion_small_hand.txt",
    s5_2_42_pawn_buy_coin => "5.2.42_pawn_buy_coin.txt",
    s5_2_42_pawn_card_action => "5.2.42_pawn_card_action.txt",
    s5_2_43_saboteur_hit => "5.2.43_saboteur_hit.txt",
    s5_2_44_saboteur_miss => "5.2.44_saboteur_miss.txt",
    s5_2_45_saboteur_bridge => "5.2.45_saboteur_bridge.txt",
    s5_2_46_scout => "5.2.46_scout.txt",
    s5_2_47_scout_short_deck => "5.2.47_scout_short_deck.txt",
    s5_2_48_secret_chamber_then_moat => "5.2.48_secret_chamber_then_moat.txt",
    s5_2_49_secret_chamber_action => "5.2.49_secret_chamber_action.txt",
    s5_2_50_shanty_town_draws_two => "5.2.50_shanty_town_draws_two.txt",
    s5_2_50_shanty_town_with_action => "5.2.50_shanty_town_with_action.txt",
    s5_2_51_steward_trash_one_card => "5.2.51_steward_trash_one_card.txt",
    s5_2_52_swindler_bridge => "5.2.52_swindler_bridge.txt",
    s5_2_52_swindler_bridge_village => "5.2.52_swindler_bridge_village.txt",
    s5_2_52_swindler_choices => "5.2.52_swindler_choices.txt",
    s5_2_53_swindler_moat => "5.2.53_swindler_moat.txt",
    s5_2_54_torturer_curse_pile_empty => "5.2.54_torturer_curse_pile_empty.txt",
    s5_2_54_torturer_options => "5.2.54_torturer_options.txt",
    s5_2_55_trading_post_no_silver => "5.2.55_trading_post_no_silver.txt",
    s5_2_55_trading_post_one_card => "5.2.55_trading_post_one_card.txt",
    s5_2_55_trading_post_silver_to_hand => "5.2.55_trading_post_silver_to_hand.txt",
    s5_2_56_tribute_copper_harem => "5.2.56_tribute_copper_harem.txt",
    s5_2_56_tribute_great_hall_estate => "5.2.56_tribute_great_hall_estate.txt",
    s5_2_56_tribute_two_curses => "5.2.56_tribute_two_curses.txt",
    s5_2_56_tribute_two_silvers => "5.2.56_tribute_two_silvers.txt",
    s5_2_57_tribute_one_card_left => "5.2.57_tribute_one_card_left.txt",
    s5_2_58_upgrade_no_exact_target => "5.2.58_upgrade_no_exact_target.txt",
    s5_2_59_wishing_well_hit => "5.2.59_wishing_well_hit.txt",
    s5_2_59_wishing_well_miss => "5.2.59_wishing_well_miss.txt",
    card_baron_throne_room => "card_baron_throne_room.txt",
    card_bridge_buys => "card_bridge_buys.txt",
    card_conspirator_great_hall_counts => "card_conspirator_great_hall_counts.txt",
    card_coppersmith_harem_unaffected => "card_coppersmith_harem_unaffected.txt",
    card_courtyard_short_deck => "card_courtyard_short_deck.txt",
    card_duke_no_duchies => "card_duke_no_duchies.txt",
    card_great_hall_play => "card_great_hall_play.txt",
    card_harem_buy_phase => "card_harem_buy_phase.txt",
    card_ironworks_copy => "card_ironworks_copy.txt",
    card_ironworks_nothing_gainable => "card_ironworks_nothing_gainable.txt",
    card_masquerade_four_players => "card_masquerade_four_players.txt",
    card_masquerade_two_players => "card_masquerade_two_players.txt",
    card_mining_village_keep => "card_mining_village_keep.txt",
    card_minion_coins => "card_minion_coins.txt",
    card_nobles_modes => "card_nobles_modes.txt",
    card_pawn_action_coin => "card_pawn_action_coin.txt",
    card_saboteur_victims_in_order => "card_saboteur_victims_in_order.txt",
    card_scout_only_victory => "card_scout_only_victory.txt",
    card_secret_chamber_defaults => "card_secret_chamber_defaults.txt",
    card_secret_chamber_militia => "card_secret_chamber_militia.txt",
    card_secret_chamber_two_copies => "card_secret_chamber_two_copies.txt",
    card_shanty_town_empty_deck => "card_shanty_town_empty_deck.txt",
    card_steward_modes => "card_steward_modes.txt",
    card_swindler_same_card => "card_swindler_same_card.txt",
    card_torturer_discard_two => "card_torturer_discard_two.txt",
    card_trading_post_empty_hand => "card_trading_post_empty_hand.txt",
    card_tribute_three_players => "card_tribute_three_players.txt",
    card_upgrade_estate_to_village => "card_upgrade_estate_to_village.txt",
    card_wishing_well_default_name => "card_wishing_well_default_name.txt",
    card_wishing_well_reshuffle => "card_wishing_well_reshuffle.txt",
    cross_bridge_workshop => "cross_bridge_workshop.txt",
    cross_library_great_hall => "cross_library_great_hall.txt",
    cross_mine_harem => "cross_mine_harem.txt",
    cross_thief_harem => "cross_thief_harem.txt",
    cross_throne_room_torturer_moat => "cross_throne_room_torturer_moat.txt",
    players5_four_empty_piles_end => "players5_four_empty_piles_end.txt",
    players5_three_empty_piles_continue => "players5_three_empty_piles_continue.txt",
    players6_piles => "players6_piles.txt",
}
