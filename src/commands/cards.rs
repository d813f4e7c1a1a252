//! `domsim cards`: list data cards, verify the shipped reprints.

use super::common::{parse_count, parse_seed, ThreadsArg};
use crate::outln;
use anyhow::{bail, Result};
use clap::Subcommand;
use std::path::PathBuf;
use std::process::ExitCode;

/// `domsim cards …`.
#[derive(Subcommand, Debug)]
pub enum CardsCmd {
    /// Print the cards of card files (default: the shipped reprints and
    /// examples): cost, types, bonuses and the compiled effect.
    List {
        /// Card files (TOML); default: the built-in cards/reprints.toml and cards/examples.toml.
        files: Vec<PathBuf>,
    },
    /// Play every reprint (a data card with `reprint_of`) against the printed
    /// card on the same seeds, with the same bots, and say per card whether
    /// every game is identical; then `N/N identical`. Exit status 1 if one
    /// differs.
    Verify {
        /// Card files (TOML); default: the built-in cards/reprints.toml.
        files: Vec<PathBuf>,
        /// Games per card.
        #[arg(long, short = 'n', default_value_t = 2000, value_parser = parse_count, allow_negative_numbers = true)]
        games: u64,
        /// Run seed.
        #[arg(long, default_value_t = 1, value_parser = parse_seed, allow_negative_numbers = true)]
        seed: u64,
        #[command(flatten)]
        threads: ThreadsArg,
    },
}

pub fn run(c: &CardsCmd) -> Result<ExitCode> {
    use crate::cards::data;
    let load = |files: &[PathBuf], defaults: &[(&str, &str)]| -> Result<Vec<data::DataCard>> {
        if files.is_empty() {
            let mut v = Vec::new();
            for d in defaults {
                v.extend(crate::playtest::builtin(*d)?);
            }
            Ok(v)
        } else {
            data::load_files(files)
        }
    };
    match c {
        CardsCmd::List { files } => {
            let cards = load(
                files,
                &[crate::playtest::REPRINTS, crate::playtest::EXAMPLES],
            )?;
            for dc in &cards {
                outln!("{}", data::describe(dc));
            }
            outln!(
                "{} card{}",
                cards.len(),
                if cards.len() == 1 { "" } else { "s" }
            );
            Ok(ExitCode::SUCCESS)
        }
        CardsCmd::Verify {
            files,
            games,
            seed,
            threads,
        } => {
            let cards = load(files, &[crate::playtest::REPRINTS])?;
            let threads = threads.threads.map_or(0, |t| t as usize);
            let rows = crate::playtest::verify(&cards, *games, *seed, threads)?;
            if rows.is_empty() {
                bail!("no reprint in the card files (a reprint names its printed card with `reprint_of`)");
            }
            let mut same = 0;
            for r in &rows {
                match &r.first_difference {
                    None => {
                        same += 1;
                        outln!(
                            "{:<24} = {:<16} identical ({} games)",
                            r.data,
                            r.printed.name(),
                            r.games
                        );
                    }
                    Some(d) => outln!("{:<24} ≠ {:<16} DIFFERENT: {d}", r.data, r.printed.name()),
                }
            }
            outln!("{same}/{} identical", rows.len());
            Ok(if same == rows.len() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
    }
}
