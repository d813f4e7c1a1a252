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
