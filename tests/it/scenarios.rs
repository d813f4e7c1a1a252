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
    // Dark Ages
    s5_3_100_knight_vs_moat => "5.3.100_knight_vs_moat.txt",
    s5_3_101_dame_josephine => "5.3.101_dame_josephine.txt",
    s5_3_102_madman => "5.3.102_madman.txt",
    s5_3_103_throne_room_madman => "5.3.103_throne_room_madman.txt",
    s5_3_104_marauder_order => "5.3.104_marauder_order.txt",
    s5_3_105_market_square_several => "5.3.105_market_square_several.txt",
    s5_3_106_market_square_trashed_itself => "5.3.106_market_square_trashed_itself.txt",
    s5_3_107_market_square_opponent_turn => "5.3.107_market_square_opponent_turn.txt",
    s5_3_108_rats_and_market_square_order => "5.3.108_rats_and_market_square_order.txt",
    s5_3_108b_rats_draws_market_square => "5.3.108b_rats_draws_market_square.txt",
    s5_3_109_mercenary_one_card => "5.3.109_mercenary_one_card.txt",
    s5_3_110_mystic_exact_name => "5.3.110_mystic_exact_name.txt",
    s5_3_110b_mystic_hit => "5.3.110b_mystic_hit.txt",
    s5_3_111_throne_room_pillage => "5.3.111_throne_room_pillage.txt",
    s5_3_112_poor_house_floor => "5.3.112_poor_house_floor.txt",
    s5_3_112b_poor_house_three => "5.3.112b_poor_house_three.txt",
    s5_3_113_procession_fortress => "5.3.113_procession_fortress.txt",
    s5_3_114_procession_procession => "5.3.114_procession_procession.txt",
    s5_3_115_procession_ruins => "5.3.115_procession_ruins.txt",
    s5_3_116_procession_cultist => "5.3.116_procession_cultist.txt",
    s5_3_117_rats_all_rats => "5.3.117_rats_all_rats.txt",
    s5_3_117b_rats_empty_pile => "5.3.117b_rats_empty_pile.txt",
    s5_3_118_rebuild_skip_named => "5.3.118_rebuild_skip_named.txt",
    s5_3_119_rebuild_nothing => "5.3.119_rebuild_nothing.txt",
    s5_3_120_rebuild_overgrown_estate => "5.3.120_rebuild_overgrown_estate.txt",
    s5_3_121_rogue_gains_from_trash => "5.3.121_rogue_gains_from_trash.txt",
    s5_3_121b_rogue_attacks => "5.3.121b_rogue_attacks.txt",
    s5_3_122_sage => "5.3.122_sage.txt",
    s5_3_123_scavenger => "5.3.123_scavenger.txt",
    s5_3_124_squire_on_trash => "5.3.124_squire_on_trash.txt",
    s5_3_124b_squire_no_attack => "5.3.124b_squire_no_attack.txt",
    s5_3_125_storeroom => "5.3.125_storeroom.txt",
    s5_3_126_urchin_mercenary => "5.3.126_urchin_mercenary.txt",
    s5_3_127_procession_urchin => "5.3.127_procession_urchin.txt",
    s5_3_127b_two_urchins => "5.3.127b_two_urchins.txt",
    s5_3_128_vagrant_shelter => "5.3.128_vagrant_shelter.txt",
    s5_3_129_wandering_minstrel => "5.3.129_wandering_minstrel.txt",
    s5_3_130_hovel_buy => "5.3.130_hovel_buy.txt",
    s5_3_130b_hovel_gain => "5.3.130b_hovel_gain.txt",
    s5_3_132_survivors_discard => "5.3.132_survivors_discard.txt",
    s5_3_132b_survivors_back => "5.3.132b_survivors_back.txt",
    s5_3_133_necropolis => "5.3.133_necropolis.txt",
    s5_3_133b_throne_room_necropolis => "5.3.133b_throne_room_necropolis.txt",
    s5_3_62_altar_overgrown_estate => "5.3.62_altar_overgrown_estate.txt",
    s5_3_63_armory_sir_martin => "5.3.63_armory_sir_martin.txt",
    s5_3_64_procession_bom_fortress => "5.3.64_procession_bom_fortress.txt",
    s5_3_65_bom_legal_choices => "5.3.65_bom_legal_choices.txt",
    s5_3_66_bom_death_cart => "5.3.66_bom_death_cart.txt",
    s5_3_68_bom_throne_room_feast => "5.3.68_bom_throne_room_feast.txt",
    s5_3_69_bandit_camp_no_spoils => "5.3.69_bandit_camp_no_spoils.txt",
    s5_3_70_beggar_reaction_one_silver => "5.3.70_beggar_reaction_one_silver.txt",
    s5_3_71_beggar_short_pile => "5.3.71_beggar_short_pile.txt",
    s5_3_72_catacombs_trashed_by_knight => "5.3.72_catacombs_trashed_by_knight.txt",
    s5_3_73_catacombs_reshuffle => "5.3.73_catacombs_reshuffle.txt",
    s5_3_74_count_trash_hand_triggers => "5.3.74_count_trash_hand_triggers.txt",
    s5_3_75_count_impossible_option => "5.3.75_count_impossible_option.txt",
    s5_3_76_counterfeit_spoils => "5.3.76_counterfeit_spoils.txt",
    s5_3_77_counterfeit_silver => "5.3.77_counterfeit_silver.txt",
    s5_3_78_cultist_chain => "5.3.78_cultist_chain.txt",
    s5_3_79_cultist_trashed_by_knight => "5.3.79_cultist_trashed_by_knight.txt",
    s5_3_80_cultist_one_ruins => "5.3.80_cultist_one_ruins.txt",
    s5_3_81_death_cart_trashes_itself => "5.3.81_death_cart_trashes_itself.txt",
    s5_3_81b_death_cart_trashes_action => "5.3.81b_death_cart_trashes_action.txt",
    s5_3_82_death_cart_gain_ruins => "5.3.82_death_cart_gain_ruins.txt",
    s5_3_82b_workshop_gains_death_cart => "5.3.82b_workshop_gains_death_cart.txt",
    s5_3_83_death_cart_fortress => "5.3.83_death_cart_fortress.txt",
    s5_3_84_feodum_scoring => "5.3.84_feodum_scoring.txt",
    s5_3_84b_feodum_trashed_by_remodel => "5.3.84b_feodum_trashed_by_remodel.txt",
    s5_3_85_forager_names => "5.3.85_forager_names.txt",
    s5_3_85b_forager_empty_hand => "5.3.85b_forager_empty_hand.txt",
    s5_3_86_fortress_trashed_by_knight => "5.3.86_fortress_trashed_by_knight.txt",
    s5_3_87_graverobber_cultist => "5.3.87_graverobber_cultist.txt",
    s5_3_88_graverobber_from_trash => "5.3.88_graverobber_from_trash.txt",
    s5_3_88b_graverobber_nothing => "5.3.88b_graverobber_nothing.txt",
    s5_3_89_hermit_madman => "5.3.89_hermit_madman.txt",
    s5_3_90_hermit_bought => "5.3.90_hermit_bought.txt",
    s5_3_90b_hermit_workshop_gain => "5.3.90b_hermit_workshop_gain.txt",
    s5_3_91_hermit_targets => "5.3.91_hermit_targets.txt",
    s5_3_92_hunting_grounds_few_estates => "5.3.92_hunting_grounds_few_estates.txt",
    s5_3_93_ironmonger => "5.3.93_ironmonger.txt",
    s5_3_93b_ironmonger_treasure => "5.3.93b_ironmonger_treasure.txt",
    s5_3_94_junk_dealer => "5.3.94_junk_dealer.txt",
    s5_3_95_knight_victim_chooses => "5.3.95_knight_victim_chooses.txt",
    s5_3_96_knight_trashes_sir_vander => "5.3.96_knight_trashes_sir_vander.txt",
    s5_3_97_sir_vander_trashes_himself => "5.3.97_sir_vander_trashes_himself.txt",
    s5_3_98_sir_michael_order => "5.3.98_sir_michael_order.txt",
    s5_3_99_throne_room_knight => "5.3.99_throne_room_knight.txt",
    s5_4_140_bureaucrat_overgrown_estate => "5.4.140_bureaucrat_overgrown_estate.txt",
    s5_4_141_chapel_rats_overgrown_estate => "5.4.141_chapel_rats_overgrown_estate.txt",
    s5_5_142_three_empty_with_ruins => "5.5.142_three_empty_with_ruins.txt",
    s5_5_143_non_supply_never_count => "5.5.143_non_supply_never_count.txt",
    s5_5_145_knights_one_pile => "5.5.145_knights_one_pile.txt",
    scard_bandit_camp => "card_bandit_camp.txt",
    scard_bom_hermit_cleanup => "card_bom_hermit_cleanup.txt",
    scard_bom_knight_trashed => "card_bom_knight_trashed.txt",
    scard_bom_nothing_eligible => "card_bom_nothing_eligible.txt",
    scard_buy_top_knight_only => "card_buy_top_knight_only.txt",
    scard_catacombs_take => "card_catacombs_take.txt",
    scard_count_discard_coins => "card_count_discard_coins.txt",
    scard_count_topdeck_duchy => "card_count_topdeck_duchy.txt",
    scard_counterfeit_counterfeit => "card_counterfeit_counterfeit.txt",
    scard_counterfeit_decline => "card_counterfeit_decline.txt",
    scard_cultist_on_trash => "card_cultist_on_trash.txt",
    scard_dame_anna => "card_dame_anna.txt",
    scard_dame_anna_triggers => "card_dame_anna_triggers.txt",
    scard_dame_josephine_attack => "card_dame_josephine_attack.txt",
    scard_dame_natalie => "card_dame_natalie.txt",
    scard_dame_sylvia_sir_bailey => "card_dame_sylvia_sir_bailey.txt",
    scard_death_cart_gained_from_trash => "card_death_cart_gained_from_trash.txt",
    scard_fortress_play => "card_fortress_play.txt",
    scard_hovel_decline => "card_hovel_decline.txt",
    scard_hunting_grounds => "card_hunting_grounds.txt",
    scard_hunting_grounds_trashed => "card_hunting_grounds_trashed.txt",
    scard_market_square_not_attack_reaction => "card_market_square_not_attack_reaction.txt",
    scard_market_square_play => "card_market_square_play.txt",
    scard_mercenary => "card_mercenary.txt",
    scard_procession_feast => "card_procession_feast.txt",
    scard_procession_madman => "card_procession_madman.txt",
    scard_ruins_vanilla => "card_ruins_vanilla.txt",
    scard_scavenger_keep_deck => "card_scavenger_keep_deck.txt",
    scard_sir_destry => "card_sir_destry.txt",
    scard_sir_martin => "card_sir_martin.txt",
    scard_spoils => "card_spoils.txt",
    scard_squire_options => "card_squire_options.txt",
    scard_vagrant_miss => "card_vagrant_miss.txt",
    s_da_rulebook_turn_example => "da_rulebook_turn_example.txt",
    scard_pillage => "card_pillage.txt",
    scard_rats_trashed_by_knight => "card_rats_trashed_by_knight.txt",
    scard_sage_runs_out => "card_sage_runs_out.txt",
    scard_squire_gains_top_knight => "card_squire_gains_top_knight.txt",
    scard_beggar_two_reactions => "card_beggar_two_reactions.txt",
}
