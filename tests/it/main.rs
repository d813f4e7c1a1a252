//! The integration tests: one binary (ripgrep's layout), one module per concern.

mod scenarios;
mod strategy;
