//! `domsim presets`: the recommended kingdoms and whether they are
//! available. The smallest verb, and the shape of every verb: its clap
//! arguments (none here), its `run`, the library doing the work
//! ([`crate::dominion::presets::PRESETS`]); registered by one line in the
//! `verbs!` list of `commands/mod.rs`.

use crate::outln;
use crate::dominion::presets::PRESETS;
use anyhow::Result;
use clap::Args;
use std::process::ExitCode;

/// `domsim presets` takes no argument.
#[derive(Args, Debug)]
pub struct PresetsArgs {}

/// `domsim presets`: one line per preset with its cards, then its source
/// and whether every card is implemented.
pub fn run(_: &PresetsArgs) -> Result<ExitCode> {
    for p in PRESETS {
        let missing = p.missing();
        let status = if missing.is_empty() {
            "available".to_string()
        } else {
            format!("needs {}", missing.join(", "))
        };
        outln!("{:<26} {}", p.name, p.cards.join(", "));
        outln!("{:<26} ({}; {status})", "", p.source);
    }
    Ok(ExitCode::SUCCESS)
}
