//! `domsim soak`: random kingdoms and bots, invariants checked at every decision.

use super::common::{
    install_stop_handler, parse_count, parse_seed, ThreadsArg, EXIT_INTERRUPTED, STOP,
};
use crate::out;
use crate::sim;
use anyhow::Result;
use clap::Args;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct SoakArgs {
    /// Games to play.
    #[arg(long, short = 'n', default_value_t = 100_000, value_parser = parse_count, allow_negative_numbers = true)]
    pub games: u64,
    /// Run seed: game i is derived from (seed, i) alone.
    #[arg(long, default_value_t = 1, value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: u64,
    #[command(flatten)]
    pub threads: ThreadsArg,
}

fn cmd_soak(games: u64, seed: u64, threads: Option<u16>) -> Result<ExitCode> {
    let pool = sim::pool(threads.unwrap_or(0) as usize)?;
    install_stop_handler();
    let cfg = crate::soak::SoakConfig::new(games, seed);
    // The data cards of a global `--cards` (none without it) are dealt into
    // the random kingdoms beside the printed cards.
    let data = crate::cards::data::bound_slots();
    let r = pool.install(|| crate::soak::run_with_cards(&cfg, &data, &STOP));
    out!("{}", r.text(&cfg));
    if !r.ok() {
        return Ok(ExitCode::from(1));
    }
    if r.interrupted {
        return Ok(ExitCode::from(EXIT_INTERRUPTED));
    }
    Ok(ExitCode::SUCCESS)
}

/// `domsim soak`.
pub fn run(a: &SoakArgs) -> Result<ExitCode> {
    cmd_soak(a.games, a.seed, a.threads.threads)
}
