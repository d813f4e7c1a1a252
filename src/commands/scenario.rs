//! `domsim scenario`: run a scenario file and check its expectations.

use crate::outln;
use crate::scenario::{state_json, Scenario};
use anyhow::{anyhow, bail, Result};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct ScenarioArgs {
    /// The scenario file (see README "Scenario notation").
    pub file: PathBuf,
}

fn scenario(file: &std::path::Path) -> Result<ExitCode> {
    let text = crate::output::read_input(file, "scenario file")?;
    let sc = Scenario::parse(&text).map_err(|e| anyhow!("{}:{e}", file.display()))?;
    if sc.expectations() == 0 {
        bail!(
            "{}: the scenario states no expectation: add at least one 'expect …' line (see README, Scenario notation)",
            file.display()
        );
    }
    let report = sc.run().map_err(|e| anyhow!("{}:{e}", file.display()))?;
    let json = state_json(&report.game, &report.transcript);
    outln!("{}", serde_json::to_string_pretty(&json)?);
    let mut ok = true;
    for f in &report.failures {
        crate::errln!("{}: FAILED {f}", file.display());
        ok = false;
    }
    for m in &report.mismatches {
        crate::errln!("{}: script: {m}", file.display());
        ok = false;
    }
    if report.unused_answers > 0 {
        crate::errln!(
            "{}: {} scripted answer(s) were never asked for",
            file.display(),
            report.unused_answers
        );
        ok = false;
    }
    crate::errln!(
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

/// `domsim scenario FILE`.
pub fn run(a: &ScenarioArgs) -> Result<ExitCode> {
    scenario(&a.file)
}
