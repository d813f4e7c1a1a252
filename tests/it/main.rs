//! The integration tests: one binary (ripgrep's layout), one module per concern.

mod alloc;
mod determinism;
mod golden;
mod random_play;
mod scenarios;
