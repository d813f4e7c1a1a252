//! The integration tests: one binary (ripgrep's layout), one module per concern.

mod bad_inputs;
mod base_rules;
mod cli;
mod hardening;
mod intrigue_random;
mod scenarios;
mod sim;
mod stats;
