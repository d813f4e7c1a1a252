//! The integration tests: one binary (ripgrep's layout), one module per concern.

mod dark_ages;
mod dark_ages_random;
mod scenarios;
