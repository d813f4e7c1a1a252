//! The integration tests: one binary (ripgrep's layout), one module per concern.

/// The questions of `domsim::engine::Bots` that a watching test bot passes
/// unchanged to its field `$inner` (pick, yes/no, play all Treasures,
/// choose one); the bot writes the methods it watches itself.
macro_rules! forward_questions {
    ($inner:ident) => {
        fn pick(
            &mut self,
            g: &domsim::engine::Game,
            q: &domsim::engine::Pick,
        ) -> Option<domsim::cards::Card> {
            self.$inner.pick(g, q)
        }
        fn yes_no(&mut self, g: &domsim::engine::Game, q: &domsim::engine::YesNo) -> bool {
            self.$inner.yes_no(g, q)
        }
        fn play_all_treasures(&mut self, g: &domsim::engine::Game, player: u8) -> bool {
            self.$inner.play_all_treasures(g, player)
        }
        fn choose(&mut self, g: &domsim::engine::Game, q: &domsim::engine::Choose) -> u8 {
            self.$inner.choose(g, q)
        }
    };
}

mod alloc;
mod bad_inputs;
mod base_rules;
mod bench;
mod best;
mod browser;
mod cli;
mod compare_page;
mod dark_ages;
mod dark_ages_random;
mod dark_ages_strategy;
mod data_cards;
mod determinism;
mod docs;
mod event_ledger;
mod golden;
mod hardening;
mod hardening3;
mod help;
mod intrigue_random;
mod intrigue_strategy;
mod layering;
mod new_salem;
mod new_salem_belief;
mod new_salem_options;
mod new_salem_toolkit;
mod optimize;
mod outputs;
mod partials;
mod random_play;
mod ratings;
mod readme;
mod scenarios;
mod search;
mod serve;
mod serve_browser;
mod serve_play;
mod serve_search;
mod serve_search_browser;
mod serve_workbench_browser;
mod shards;
mod shipped_results;
mod sim;
mod stats;
mod strategy;
