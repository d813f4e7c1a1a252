//! `domsim bench`: the arguments of the throughput suite; the suite itself
//! is [`crate::bench`].

use super::common::{install_stop_handler, STOP};
use crate::bench::{self, ThreadList};
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Small game counts (a few seconds in all): a smoke test, not a
    /// measurement.
    #[arg(long)]
    pub quick: bool,
    /// Multiply every workload's game count by F (e.g. 0.1 or 3).
    #[arg(long, value_name = "F", default_value = "1", value_parser = bench::parse_scale, allow_negative_numbers = true)]
    pub scale: f64,
    /// Thread counts to measure, comma-separated (default: 1,2, plus
    /// every core when there are more).
    #[arg(long, short = 'j', value_name = "LIST", value_parser = bench::parse_threads, allow_negative_numbers = true)]
    pub threads: Option<ThreadList>,
    /// Also write the table as CSV to this file (atomically).
    #[arg(long, short = 'o', value_name = "FILE.csv")]
    pub out: Option<PathBuf>,
    /// Only the workloads whose name contains NAME (case, spaces and
    /// punctuation ignored), e.g. --only witch.
    #[arg(long, value_name = "NAME")]
    pub only: Option<String>,
}

/// `domsim bench`.
pub fn run(a: &BenchArgs) -> Result<ExitCode> {
    let cfg = bench::BenchConfig {
        quick: a.quick,
        scale: a.scale,
        threads: a
            .threads
            .clone()
            .map_or_else(bench::default_threads, |t| t.0),
        only: a.only.clone(),
    };
    install_stop_handler();
    bench::run(&cfg, a.out.as_deref(), &STOP)
}
