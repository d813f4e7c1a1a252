//! `domsim report`: the HTML playtest report from saved statistics.

use super::common::{check_writable, given, PlaytestFiles};
use crate::output::Commit;
use crate::report::AtomicFile;
use anyhow::{bail, Context, Result};
use clap::Args;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct ReportArgs {
    /// Statistics saved by `sim --save-stats`; give two to compare two
    /// runs side by side (e.g. a card and its variant).
    #[arg(value_name = "STATS.json", required = true, num_args = 1..=2)]
    pub input: Vec<PathBuf>,
    /// The HTML report to write.
    #[arg(long, short = 'o', value_name = "FILE.html")]
    pub out: PathBuf,
    /// Also write every statistic as long-format CSV (results/STATS.md).
    #[arg(long, value_name = "FILE.csv")]
    pub csv: Option<PathBuf>,
}

fn cmd_report(c: ReportConfig) -> Result<ExitCode> {
    let ReportConfig { inputs, out, csv } = c;
    let mut outs = Commit::new();
    if let [(pa, a), (pb, b)] = &inputs[..] {
        let file = AtomicFile::create(&out)?;
        let page = crate::stats::html::render_comparison(
            (&pa.display().to_string(), a),
            (&pb.display().to_string(), b),
        );
        outs.add(file, page)?;
        outs.commit()?;
        return Ok(ExitCode::SUCCESS);
    }
    let files = PlaytestFiles::create(Some(&out), csv.as_deref(), None)?;
    let (input, st) = &inputs[0];
    let seed = st
        .seed
        .map_or_else(|| "seed not recorded".to_string(), |s| format!("seed {s}"));
    files.stage(
        &mut outs,
        st,
        &format!(
            "domsim report {}: {} games, {seed}, {}",
            input.display(),
            st.games,
            // As the run's own report says it, when the file records how
            // the kingdom was chosen (Shelters forced, data cards).
            if st.kingdom_source.is_some() {
                format!("kingdom {}", crate::stats::html::run_kingdom(st))
            } else {
                format!("kingdom: {}", st.kingdom.join("; "))
            }
        ),
    )?;
    outs.commit()?;
    Ok(ExitCode::SUCCESS)
}

/// `domsim report`, validated: the statistics read, the outputs checked.
#[derive(Debug)]
pub struct ReportConfig {
    /// One or two saved runs (path, statistics); two are shown side by side.
    pub inputs: Vec<(PathBuf, crate::stats::PlaytestStats)>,
    /// The HTML report.
    pub out: PathBuf,
    /// `--csv FILE.csv` (one input only).
    pub csv: Option<PathBuf>,
}

impl ReportConfig {
    pub fn from_args(inputs: &[PathBuf], out: &Path, csv: Option<&Path>) -> Result<ReportConfig> {
        if inputs.len() == 2 && csv.is_some() {
            bail!("--csv writes the statistics of one run; with two inputs, run `domsim report FILE --csv` on each");
        }
        let ins: Vec<(&str, &Path)> = inputs
            .iter()
            .map(|p| ("statistics file", p.as_path()))
            .collect();
        let outs = [("-o", Some(out)), ("--csv", csv)];
        crate::output::check_distinct(&ins, &given(&outs))?;
        check_writable(&outs, &[])?;
        let inputs = inputs
            .iter()
            .map(|p| {
                let st = crate::stats::load_json(p)
                    .with_context(|| format!("cannot read statistics from {}", p.display()))?;
                Ok((p.clone(), st))
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(ReportConfig {
            inputs,
            out: out.to_path_buf(),
            csv: csv.map(Path::to_path_buf),
        })
    }
}

/// `domsim report`: validate the arguments, then write the report.
pub fn run(a: &ReportArgs) -> Result<ExitCode> {
    cmd_report(ReportConfig::from_args(&a.input, &a.out, a.csv.as_deref())?)
}
