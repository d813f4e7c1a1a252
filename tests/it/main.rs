//! The integration tests: one binary (ripgrep's layout), one module per concern.

mod alloc;
mod bad_inputs;
mod base_rules;
mod bench;
mod browser;
mod cli;
mod dark_ages;
mod dark_ages_random;
mod dark_ages_strategy;
mod determinism;
mod docs;
mod golden;
mod hardening;
mod intrigue_random;
mod intrigue_strategy;
mod optimize;
mod outputs;
mod random_play;
mod readme;
mod scenarios;
mod serve;
mod serve_browser;
mod shards;
mod sim;
mod stats;
mod strategy;
