//! Command-line interface: raw arguments are parsed by clap and validated into
//! a configuration before anything runs; every user error is reported with
//! exit status 2 and a message naming the offending value.

use crate::engine::{Game, Kingdom};
use crate::scenario::{state_json, Scenario};
use anyhow::{anyhow, Context, Result};
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "domsim",
    version,
    about = "High-throughput Dominion bot simulator"
)]
pub struct Cli {
    #[command(subcommand)]
    pub cmd: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run a scenario file: set up a state, play the given moves with the
    /// scripted answers, check the expectations and print the state as JSON.
    Scenario {
        /// The scenario file (see README "Scenario notation").
        file: PathBuf,
    },
    /// Simulate games (built-in Big Money mirror until strategy files land).
    Sim {
        #[arg(long, default_value_t = 10_000)]
        games: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 2)]
        players: usize,
    },
}

pub fn run() -> Result<ExitCode> {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return Ok(ExitCode::from(code));
        }
    };
    match cli.cmd {
        Command::Scenario { file } => scenario(&file),
        Command::Sim {
            games,
            seed,
            players,
        } => {
            let k = Kingdom::from_names(
                players,
                &[
                    "Cellar",
                    "Market",
                    "Militia",
                    "Mine",
                    "Moat",
                    "Remodel",
                    "Smithy",
                    "Village",
                    "Woodcutter",
                    "Workshop",
                ],
            )?;
            let mut wins = vec![0f64; players];
            let mut g = Game::new(&k, seed, 0);
            for i in 0..games {
                g.reset(&k, seed, i);
                let o = g.play_game(&mut crate::bots::BigMoney);
                for (p, w) in wins.iter_mut().enumerate() {
                    if o.won(p) {
                        *w += 1.0 / o.winner_count() as f64;
                    }
                }
            }
            for (p, w) in wins.iter().enumerate() {
                println!("seat {p}: {:.4}", w / games as f64);
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn scenario(file: &PathBuf) -> Result<ExitCode> {
    let text = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    let text = String::from_utf8(text).map_err(|e| {
        anyhow!(
            "{}: not UTF-8 text (byte {})",
            file.display(),
            e.utf8_error().valid_up_to()
        )
    })?;
    let sc = Scenario::parse(&text).map_err(|e| anyhow!("{}:{e}", file.display()))?;
    let report = sc.run().map_err(|e| anyhow!("{}:{e}", file.display()))?;
    let json = state_json(&report.game, &report.transcript);
    println!("{}", serde_json::to_string_pretty(&json)?);
    let mut ok = true;
    for f in &report.failures {
        eprintln!("{}: FAILED {f}", file.display());
        ok = false;
    }
    for m in &report.mismatches {
        eprintln!("{}: script: {m}", file.display());
        ok = false;
    }
    if report.unused_answers > 0 {
        eprintln!(
            "{}: {} scripted answer(s) were never asked for",
            file.display(),
            report.unused_answers
        );
        ok = false;
    }
    eprintln!(
        "{}: {} expectation(s) checked, {}",
        file.display(),
        report.checked,
        if ok { "all passed" } else { "some FAILED" }
    );
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
