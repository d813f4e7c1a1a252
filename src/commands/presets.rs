//! `domsim presets`: the recommended kingdoms and whether they are available.

use crate::outln;
use crate::sim::presets::PRESETS;
use anyhow::Result;
use std::process::ExitCode;

pub fn run() -> Result<ExitCode> {
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
