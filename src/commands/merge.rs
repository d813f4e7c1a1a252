//! `domsim merge`: join the partial files of a sharded run into the one-machine outputs.

use super::common::check_out_path;
use super::compare::compare_outputs;
use super::matrix::matrix_page;
use crate::dominion::outputs::{matrix_csv_bytes, sim_csv_bytes, sweep_meta};
use crate::output::Commit;
use crate::rank::leaderboard as lb;
use crate::report::AtomicFile;
use crate::sim;
use crate::{out, outln};
use anyhow::{bail, Result};
use clap::Args;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Every partial file of the run.
    #[arg(required = true, value_name = "PARTIAL.json")]
    pub parts: Vec<PathBuf>,
    /// The merged CSV (`-` for standard output).
    #[arg(long, short = 'o', value_name = "FILE.csv")]
    pub out: PathBuf,
    /// Parts of a `sweep`: also write its `--summary` CSV (each
    /// strategy's score with and without each card), as the one-machine
    /// run writes it.
    #[arg(long, value_name = "FILE.csv")]
    pub summary: Option<PathBuf>,
    /// The run's HTML page, as the one-machine run writes it: parts of a
    /// `rank` give its leaderboard (`rank --html`), parts of a `matrix`
    /// its heat map (`matrix --report`), parts of a `compare` its page
    /// (`compare --html`).
    #[arg(long, value_name = "FILE.html")]
    pub html: Option<PathBuf>,
    /// Parts of a 2-player `rank` in one kingdom: also write its
    /// head-to-head matrix CSV (`rank --matrix`).
    #[arg(long, value_name = "FILE.csv")]
    pub matrix: Option<PathBuf>,
    /// Parts of a 2-player `rank`: also write its pairs CSV (`rank
    /// --pairs`: each pair against the Bradley–Terry prediction).
    #[arg(long, value_name = "FILE.csv")]
    pub pairs: Option<PathBuf>,
}

fn cmd_merge(c: MergeConfig) -> Result<ExitCode> {
    let MergeConfig {
        parts,
        key,
        counts,
        out,
        summary,
        html,
        matrix,
        pairs,
    } = c;
    let file = AtomicFile::create(&out)?;
    let pairs_file = pairs.as_deref().map(AtomicFile::create).transpose()?;
    let mut pairs_bytes = None;
    let summary_file = summary.as_deref().map(AtomicFile::create).transpose()?;
    let html_file = html.as_deref().map(AtomicFile::create).transpose()?;
    let matrix_file = matrix.as_deref().map(AtomicFile::create).transpose()?;
    let mut summary_bytes = None;
    let mut html_bytes = None;
    let mut matrix_bytes = None;
    let bytes = match counts {
        sim::shard::Counts::Sim(stats) => {
            let b = sim_csv_bytes(
                &key.meta,
                stats.games,
                key.games,
                None,
                &stats,
                &key.entrants,
            )?;
            outln!(
                "merged {} shard(s): {} games of `domsim sim`",
                parts,
                stats.games
            );
            b
        }
        sim::shard::Counts::Sweep(ks) => {
            outln!(
                "merged {} shard(s): {} kingdoms of `domsim sweep`",
                parts,
                ks.len()
            );
            out!("{}", crate::dominion::sweep::summary_text(&key.entrants, &ks));
            let meta = sweep_meta(&key.meta, &key.entrants);
            if summary_file.is_some() {
                summary_bytes = Some(crate::dominion::sweep::summary_csv(&meta, &key.entrants, &ks)?);
            }
            crate::dominion::sweep::sweep_csv(&meta, &key.entrants, &ks)?
        }
        sim::shard::Counts::Tables(run) => {
            outln!(
                "merged {} shard(s): {} games per table of `domsim rank`",
                parts,
                key.games
            );
            if html_file.is_some() {
                html_bytes = Some(lb::leaderboard_html(
                    &key.meta,
                    key.games,
                    &run,
                    &key.entrants,
                )?);
            }
            if pairs_file.is_some() {
                pairs_bytes = Some(lb::pairs_csv(&key.meta, key.games, &run, &key.entrants)?);
            }
            if matrix_file.is_some() {
                let cells = lb::cells(&run, key.entrants.len());
                matrix_bytes = Some(matrix_csv_bytes(
                    &key.meta,
                    key.games,
                    cells,
                    &key.entrants,
                )?);
            }
            lb::leaderboard_csv(&key.meta, key.games, &run, &key.entrants)?
        }
        sim::shard::Counts::Compare(pairing) => {
            outln!(
                "merged {} shard(s): {} games per variant of `domsim compare`\n",
                parts,
                pairing.games()
            );
            let mut outs = Commit::new();
            compare_outputs(
                &key.meta,
                &pairing,
                key.games,
                None,
                Some(file),
                html_file,
                &mut outs,
            )?;
            outs.commit()?;
            return Ok(ExitCode::SUCCESS);
        }
        sim::shard::Counts::Matrix(cells) => {
            outln!(
                "merged {} shard(s): {} games per pair of `domsim matrix`",
                parts,
                key.games
            );
            if html_file.is_some() {
                let meta = |k: &str| {
                    key.meta
                        .0
                        .iter()
                        .find(|(n, _)| n == k)
                        .map_or("", |(_, v)| v.as_str())
                };
                html_bytes = Some(matrix_page(
                    key.games,
                    meta("seed"),
                    meta("kingdom_source"),
                    meta("kingdom"),
                    &cells,
                    &key.entrants,
                ));
            }
            matrix_csv_bytes(&key.meta, key.games, cells, &key.entrants)?
        }
    };
    let mut outs = Commit::new();
    outs.add(file, bytes)?;
    if let (Some(f), Some(b)) = (summary_file, summary_bytes) {
        outs.add(f, b)?;
    }
    if let (Some(f), Some(b)) = (html_file, html_bytes) {
        outs.add(f, b)?;
    }
    if let (Some(f), Some(b)) = (matrix_file, matrix_bytes) {
        outs.add(f, b)?;
    }
    if let (Some(f), Some(b)) = (pairs_file, pairs_bytes) {
        outs.add(f, b)?;
    }
    outs.commit()?;
    Ok(ExitCode::SUCCESS)
}

/// `domsim merge`, validated: every part read, and the parts checked to be
/// the shards of one run, each once, none missing, each complete.
#[derive(Debug)]
pub struct MergeConfig {
    /// How many parts were merged.
    pub parts: usize,
    pub key: sim::shard::RunKey,
    pub counts: sim::shard::Counts,
    /// The merged CSV.
    pub out: PathBuf,
    /// A sweep's summary CSV (`--summary`).
    pub summary: Option<PathBuf>,
    /// The run's HTML page (`--html`): a rank's leaderboard (its `--html`)
    /// or a matrix's heat map (its `--report`).
    pub html: Option<PathBuf>,
    /// A 2-player rank's head-to-head matrix CSV (its `--matrix`).
    pub matrix: Option<PathBuf>,
    /// A 2-player rank's pairs CSV (its `--pairs`).
    pub pairs: Option<PathBuf>,
}

impl MergeConfig {
    pub fn from_args(
        parts: &[PathBuf],
        out: &Path,
        summary: Option<&Path>,
        html: Option<&Path>,
        matrix: Option<&Path>,
    ) -> Result<MergeConfig> {
        let ins: Vec<(&str, &Path)> = parts
            .iter()
            .map(|p| ("partial file", p.as_path()))
            .collect();
        let mut outs = vec![("-o", out)];
        outs.extend(summary.map(|s| ("--summary", s)));
        outs.extend(html.map(|s| ("--html", s)));
        outs.extend(matrix.map(|s| ("--matrix", s)));
        crate::output::check_distinct(&ins, &outs)?;
        for (_, p) in &outs {
            check_out_path(p)?;
        }
        let loaded = parts
            .iter()
            .map(|p| Ok((p.display().to_string(), sim::shard::Partial::load(p)?)))
            .collect::<Result<Vec<_>>>()?;
        let (key, counts) = sim::shard::merge(&loaded)?;
        if summary.is_some() && !matches!(counts, sim::shard::Counts::Sweep(_)) {
            bail!(
                "--summary: only the parts of a `domsim sweep` have a summary (these are of `domsim {}`)",
                key.verb
            );
        }
        if html.is_some()
            && !matches!(
                counts,
                sim::shard::Counts::Tables(_)
                    | sim::shard::Counts::Matrix(_)
                    | sim::shard::Counts::Compare(_)
            )
        {
            bail!(
                "--html: only the parts of a `domsim rank` (its --html), a `domsim matrix` (its --report) or a `domsim compare` (its --html) have an HTML page (these are of `domsim {}`)",
                key.verb
            );
        }
        if matrix.is_some() {
            match &counts {
                sim::shard::Counts::Tables(t) if t.players == 2 && t.kingdoms.len() == 1 => {}
                sim::shard::Counts::Tables(t) => bail!(
                    "--matrix is the head-to-head matrix of 2 players in one kingdom; these parts rank tables of {} in {} kingdom(s)",
                    t.players,
                    t.kingdoms.len()
                ),
                _ => bail!(
                    "--matrix: only the parts of a `domsim rank` have a head-to-head matrix besides their CSV (these are of `domsim {}`, whose -o is the CSV)",
                    key.verb
                ),
            }
        }
        Ok(MergeConfig {
            parts: loaded.len(),
            key,
            counts,
            out: out.to_path_buf(),
            summary: summary.map(Path::to_path_buf),
            html: html.map(Path::to_path_buf),
            matrix: matrix.map(Path::to_path_buf),
            pairs: None,
        })
    }

    /// With `--pairs FILE.csv`: the parts must be of a 2-player `rank`,
    /// and the file apart from the parts and the other outputs.
    pub fn with_pairs(mut self, parts: &[PathBuf], pairs: Option<&Path>) -> Result<MergeConfig> {
        let Some(p) = pairs else { return Ok(self) };
        match &self.counts {
            sim::shard::Counts::Tables(t) if t.players == 2 => {}
            sim::shard::Counts::Tables(t) => bail!(
                "--pairs is the head-to-head results of 2 players against the Bradley–Terry prediction; these parts rank tables of {}",
                t.players
            ),
            _ => bail!(
                "--pairs: only the parts of a 2-player `domsim rank` have a pairs CSV (these are of `domsim {}`)",
                self.key.verb
            ),
        }
        let ins: Vec<(&str, &Path)> = parts
            .iter()
            .map(|p| ("partial file", p.as_path()))
            .collect();
        let mut outs = vec![("-o", self.out.as_path())];
        outs.extend(self.summary.as_deref().map(|s| ("--summary", s)));
        outs.extend(self.html.as_deref().map(|s| ("--html", s)));
        outs.extend(self.matrix.as_deref().map(|s| ("--matrix", s)));
        outs.push(("--pairs", p));
        crate::output::check_distinct(&ins, &outs)?;
        check_out_path(p)?;
        self.pairs = Some(p.to_path_buf());
        Ok(self)
    }
}

/// `domsim merge`: validate the parts, then merge them.
pub fn run(a: &MergeArgs) -> Result<ExitCode> {
    cmd_merge(MergeConfig::from_args(
        &a.parts,
        &a.out,
        a.summary.as_deref(),
        a.html.as_deref(),
        a.matrix.as_deref(),
    )?
    .with_pairs(&a.parts, a.pairs.as_deref())?)
}
