//! Writes the sample playtest report: Big Money vs Smithy Big Money (the
//! shipped strategy files) on the rulebook's "First Game" kingdom.
//!
//! `cargo run --release --example sample_report -- [GAMES] [OUT.html] [OUT.csv]`
//! (defaults: 20000 games, results/sample_report.html, results/sample_stats.csv).

use domsim::engine::Kingdom;
use domsim::stats::{csv::write_csv, html, playtest};
use domsim::strategy::{self, Compiled, StrategyBots};
use std::path::{Path, PathBuf};

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let out = PathBuf::from(args.get(1).map_or("results/sample_report.html", |s| s));
    let csv_out = PathBuf::from(args.get(2).map_or("results/sample_stats.csv", |s| s));
    let k = Kingdom::from_names(
        2,
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
    )
    .expect("the First Game kingdom is valid");
    // The shipped strategy files (run from the repository root).
    let bots = ["big_money.dom", "smithy_big_money.dom"]
        .map(|f| -> anyhow::Result<Compiled> {
            let st = strategy::load(&Path::new("strategies").join(f))?;
            Ok(st.compile(&k)?.0)
        })
        .into_iter()
        .collect::<anyhow::Result<Vec<_>>>()?;
    let names: Vec<String> = bots.iter().map(|b| b.name.clone()).collect();
    let t = std::time::Instant::now();
    let st = playtest(&k, &names, games, 1, 0, |seats| {
        let seats: Vec<&Compiled> = seats.iter().map(|&s| &bots[s]).collect();
        StrategyBots::new(&seats)
    });
    let secs = t.elapsed().as_secs_f64();
    // A toy 2×2 matrix from this run, to show the heat map.
    let cell = |i: usize| {
        let s = &st.strategies[i];
        Some((s.score().rate() * s.games() as f64, s.games()))
    };
    let matrix = vec![vec![None, cell(0)], vec![cell(1), None]];
    let opts = html::ReportOptions {
        title: Some("First Game: Big Money vs Smithy Big Money".into()),
        note: Some(format!(
            "cargo run --release --example sample_report -- {games}   (seed 1; strategies/big_money.dom vs strategies/smithy_big_money.dom)"
        )),
        matrix: Some((&matrix, &names)),
    };
    html::write_html(&out, &st, &opts)?;
    write_csv(&csv_out, &st)?;
    eprintln!(
        "{games} games in {secs:.2}s ({:.0} games/s); wrote {} and {}",
        games as f64 / secs,
        out.display(),
        csv_out.display()
    );
    Ok(())
}
