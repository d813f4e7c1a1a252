//! `domsim check`: check strategy files against a kingdom without playing.

use super::common::{kingdom_config, KingdomArgs};
use crate::dominion::kingdoms::KingdomConfig;
use crate::dominion::outputs::warning;
use crate::outln;
use crate::dominion::lineup::{self, Lineup};
use anyhow::{bail, Result};
use clap::Args;
use std::process::ExitCode;

/// `domsim check`'s raw arguments (validated into [`CheckConfig`]).
#[derive(Args, Debug, Clone)]
pub struct CheckArgs {
    /// Strategy files.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,
    #[command(flatten)]
    pub kingdom: KingdomArgs,
    /// Players (2–6).
    #[arg(long, short = 'p', default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=6))]
    pub players: u8,
}

fn cmd_check(c: CheckConfig) -> Result<ExitCode> {
    let CheckConfig { files, kingdom: kc } = c;
    let mut failed = 0;
    for f in &files {
        // A file's own errors, all of them at once (the run stops at the
        // first).
        let path = std::path::Path::new(f);
        if path.is_file() {
            let errors = crate::strategy::errors(path);
            if errors.len() > 1 {
                for e in &errors {
                    crate::errln!("error: {e}");
                }
                crate::errln!("{f}: {} errors", errors.len());
                failed += 1;
                continue;
            }
        }
        let checked = Lineup::load(std::slice::from_ref(f))
            .and_then(|l| l.compile(&l.kingdom_for(&kc.kingdom)).map(|c| (l, c)));
        match checked {
            Ok((l, c)) => {
                let mut warnings: Vec<String> = c.warnings.iter().map(|w| warning(w)).collect();
                if let lineup::Loaded::File(st) = &l.entrants[0].1 {
                    warnings.extend(crate::strategy::lint::lint(st, &kc.kingdom));
                    st.in_line_order(&mut warnings);
                }
                for w in &warnings {
                    outln!("{w}");
                }
                outln!(
                    "{f}: ok ({}{})",
                    l.entrants[0].0.name,
                    if warnings.is_empty() {
                        String::new()
                    } else {
                        format!(", {} warning(s)", warnings.len())
                    }
                );
            }
            Err(e) => {
                crate::errln!("error: {e:#}");
                failed += 1;
            }
        }
    }
    outln!(
        "checked {} file(s) against kingdom ({}): {}",
        files.len(),
        kc.how,
        kc.kingdom.describe()
    );
    if failed > 0 {
        bail!("{failed} of {} strategy file(s) have errors", files.len());
    }
    Ok(ExitCode::SUCCESS)
}

/// `domsim check`, validated: the kingdom the files are checked against.
/// The files themselves are loaded one by one by the verb, which reports
/// every bad file rather than the first.
#[derive(Debug)]
pub struct CheckConfig {
    pub files: Vec<String>,
    pub kingdom: KingdomConfig,
}

impl CheckConfig {
    pub fn from_args(a: &CheckArgs) -> Result<CheckConfig> {
        let kingdom = kingdom_config(&a.kingdom, a.players as usize, 1, &a.files)?;
        Ok(CheckConfig {
            files: a.files.clone(),
            kingdom,
        })
    }
}

/// `domsim check`: validate the arguments, then run.
pub fn run(a: &CheckArgs) -> Result<ExitCode> {
    cmd_check(CheckConfig::from_args(a)?)
}
