//! The integration tests: one binary (ripgrep's layout), one module per concern.

mod base_rules;
mod cli;
mod dark_ages;
mod dark_ages_random;
mod dark_ages_strategy;
mod intrigue_random;
mod intrigue_strategy;
mod scenarios;
mod sim;
mod stats;
mod strategy;
