//! Outputs of the simulator: console tables and CSV files.
//!
//! * CSV files start with `# key: value` comment lines (seed, version,
//!   kingdom, strategy files and their hashes, ...) followed by a header row
//!   and the data rows. Readers skip them with `comment='#'` (pandas) or
//!   `ReaderBuilder::comment(Some(b'#'))` (Rust csv). Nothing in the file
//!   depends on the thread count or the time of the run, so the same command
//!   gives byte-identical files.
//! * Files are written through [`crate::output`]: an [`AtomicFile`] creates a temporary file in
//!   the destination's directory up front (so an unwritable destination fails
//!   before any game is played) and renames it over the destination only when
//!   everything was written; on error or interruption the temporary file is
//!   removed and the destination is untouched.
//!
//! Columns are documented in `results/README.md`; [`SIM_COLUMNS`] is the
//! header of `domsim sim` and never changes order.

use crate::dominion::matches::{EntrantStats, Stats};
use crate::engine::MAX_PLAYERS;
use crate::sim::wilson;
use anyhow::{anyhow, Result};

/// Header of the `domsim sim` CSV.
pub const SIM_COLUMNS: [&str; 45] = [
    "strategy",
    "source",
    "source_hash",
    "games",
    "wins",
    "ties",
    "shared_wins",
    "losses",
    "win_rate",
    "win_rate_lo",
    "win_rate_hi",
    "score",
    "score_lo",
    "score_hi",
    "avg_vp",
    "avg_turns",
    "seat1_score",
    "seat2_score",
    "seat3_score",
    "seat4_score",
    "seat5_score",
    "seat6_score",
    "capped_games",
    "seat1_wins",
    "seat1_ties",
    "seat1_losses",
    "seat2_wins",
    "seat2_ties",
    "seat2_losses",
    "seat3_wins",
    "seat3_ties",
    "seat3_losses",
    "seat4_wins",
    "seat4_ties",
    "seat4_losses",
    "seat5_wins",
    "seat5_ties",
    "seat5_losses",
    "seat6_wins",
    "seat6_ties",
    "seat6_losses",
    "avg_rounds",
    "rounds_p10",
    "rounds_median",
    "rounds_p90",
];

/// Who an entrant is, for reports.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EntrantInfo {
    /// Display name (unique within a run; a repeated strategy gets " #2"...).
    pub name: String,
    /// Strategy file path, or `builtin:NAME`.
    pub source: String,
    /// Hash of the strategy source (hex), empty for built-ins.
    pub hash: String,
}

/// `# key: value` lines recorded at the top of every output.
///
/// A value never holds a line break ([`Meta::push`] turns them into
/// spaces), so each pair is one comment line. A `Meta` read back from a
/// file (a partial) skips `push`: [`Meta::check`] refuses what `push`
/// never writes, and [`Meta::render`] keeps one line per pair whatever
/// it is given.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Meta(pub Vec<(String, String)>);

/// The entrants of a run in its metadata: `strategy_N: name | source | hash`.
pub fn push_entrants(m: &mut Meta, infos: &[EntrantInfo]) {
    for (i, e) in infos.iter().enumerate() {
        let hash = if e.hash.is_empty() { "-" } else { &e.hash };
        m.push(
            &format!("strategy_{}", i + 1),
            format!("{} | {} | {hash}", e.name, e.source),
        );
    }
}

/// `s` on one line: line breaks become spaces (what [`Meta::push`] does).
pub fn one_line(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}

impl Meta {
    pub fn push(&mut self, k: &str, v: impl ToString) {
        let v = one_line(&v.to_string());
        self.0.push((k.to_string(), v));
    }
    /// Check metadata read from a file (`field` names it in messages, e.g.
    /// `key.meta`): every key is a lower-case word (`seed`, `kingdom_source`)
    /// and no value holds a line break, which would end its `# key: value`
    /// comment line and start a data row of the CSV.
    pub fn check(&self, field: &str) -> std::result::Result<(), String> {
        for (i, (k, v)) in self.0.iter().enumerate() {
            let word = !k.is_empty()
                && k.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
            if !word {
                return Err(format!(
                    "{field}[{i}]: key {k:?} is not a metadata key (lower-case letters, digits and '_')"
                ));
            }
            if v.contains(['\n', '\r']) {
                return Err(format!(
                    "{field}[{i}] ({k}): the value has a line break ({v:?}); metadata values are one line"
                ));
            }
        }
        Ok(())
    }
    /// The value of `k` (the first line with that key).
    pub fn get(&self, k: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.as_str())
    }
    pub fn render(&self) -> String {
        let mut s = String::new();
        for (k, v) in &self.0 {
            s.push_str(&format!("# {}: {}\n", one_line(k), one_line(v)));
        }
        s
    }
}

fn f6(x: f64) -> String {
    format!("{x:.6}")
}

fn ratio(a: f64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        a / b as f64
    }
}

/// One row of the `sim` table, computed from an entrant's stats.
#[derive(Clone, Debug)]
pub struct Row {
    pub info: EntrantInfo,
    pub s: EntrantStats,
    pub players: usize,
    /// Game lengths of the whole run (the same on every row).
    pub rounds: crate::dominion::matches::RoundHist,
}

impl Row {
    pub fn win_rate(&self) -> f64 {
        ratio(self.s.wins as f64, self.s.games)
    }
    pub fn score(&self) -> f64 {
        ratio(self.s.score_wins(), self.s.games)
    }
    pub fn seat_score(&self, seat: usize) -> f64 {
        ratio(
            self.s.seat_units[seat] as f64 / crate::dominion::matches::WIN_UNITS as f64,
            self.s.seat_games[seat],
        )
    }
    pub fn avg_vp(&self) -> f64 {
        ratio(self.s.vp_sum as f64, self.s.games)
    }
    pub fn avg_turns(&self) -> f64 {
        ratio(self.s.turns_sum as f64, self.s.games)
    }

    fn csv_record(&self) -> Vec<String> {
        let s = &self.s;
        let (wl, wh) = wilson(s.wins as f64, s.games);
        let (sl, sh) = wilson(s.score_wins(), s.games);
        let mut r = vec![
            self.info.name.clone(),
            self.info.source.clone(),
            self.info.hash.clone(),
            s.games.to_string(),
            s.wins.to_string(),
            s.ties.to_string(),
            f6(s.shared_wins()),
            s.losses.to_string(),
            f6(self.win_rate()),
            f6(wl),
            f6(wh),
            f6(self.score()),
            f6(sl),
            f6(sh),
            f6(self.avg_vp()),
            f6(self.avg_turns()),
        ];
        for seat in 0..MAX_PLAYERS {
            r.push(if seat < self.players {
                f6(self.seat_score(seat))
            } else {
                String::new()
            });
        }
        r.push(s.capped.to_string());
        for seat in 0..MAX_PLAYERS {
            if seat < self.players {
                r.push(s.seat_wins[seat].to_string());
                r.push(s.seat_ties[seat].to_string());
                r.push(s.seat_losses(seat).to_string());
            } else {
                r.extend([String::new(), String::new(), String::new()]);
            }
        }
        r.push(f6(self.rounds.mean()));
        r.push(self.rounds.quantile(0.1).to_string());
        r.push(self.rounds.quantile(0.5).to_string());
        r.push(self.rounds.quantile(0.9).to_string());
        r
    }
}

/// The rows of a run, one per entrant, in entrant order.
pub fn rows(stats: &Stats, entrants: &[EntrantInfo]) -> Vec<Row> {
    entrants
        .iter()
        .enumerate()
        .map(|(i, info)| Row {
            info: info.clone(),
            s: stats.entrants[i],
            players: entrants.len(),
            rounds: stats.rounds,
        })
        .collect()
}

/// The `sim` CSV: meta lines, header, rows.
pub fn sim_csv(meta: &Meta, rows: &[Row]) -> Result<Vec<u8>> {
    let mut out = meta.render().into_bytes();
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(SIM_COLUMNS)?;
    for r in rows {
        w.write_record(r.csv_record())?;
    }
    out.extend(w.into_inner().map_err(|e| anyhow!("{e}"))?);
    Ok(out)
}

/// Format a table with right-aligned columns (the first left-aligned).
pub fn format_table(header: &[String], body: &[Vec<String>]) -> String {
    let cols = header.len();
    let mut width = vec![0; cols];
    for row in std::iter::once(header).chain(body.iter().map(|r| r.as_slice())) {
        for (i, c) in row.iter().enumerate().take(cols) {
            width[i] = width[i].max(c.chars().count());
        }
    }
    let mut s = String::new();
    for row in std::iter::once(header).chain(body.iter().map(|r| r.as_slice())) {
        let mut line = String::new();
        for (i, c) in row.iter().enumerate().take(cols) {
            let pad = width[i] - c.chars().count();
            if i == 0 {
                line.push_str(c);
                line.push_str(&" ".repeat(pad));
            } else {
                line.push_str("  ");
                line.push_str(&" ".repeat(pad));
                line.push_str(c);
            }
        }
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// A count as the console shows it, in the tables and in the progress bar
/// alike: digits grouped by three with commas (`1,234,567`; `999`).
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The readable console table of a `sim` run.
pub fn sim_table(rows: &[Row]) -> String {
    let players = rows.first().map_or(0, |r| r.players);
    let mut header: Vec<String> = [
        "strategy",
        "games",
        "score",
        "95% CI",
        "wins",
        "ties",
        "losses",
        "avg VP",
        "avg turns",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for seat in 0..players {
        header.push(format!("seat {}", seat + 1));
    }
    header.push("capped".into());
    let body: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let (lo, hi) = wilson(r.s.score_wins(), r.s.games);
            let mut v = vec![
                r.info.name.clone(),
                count(r.s.games),
                pct(r.score()),
                format!("{:.1}–{:.1}", 100.0 * lo, 100.0 * hi),
                count(r.s.wins),
                count(r.s.ties),
                count(r.s.losses),
                format!("{:.2}", r.avg_vp()),
                format!("{:.2}", r.avg_turns()),
            ];
            for seat in 0..players {
                v.push(pct(r.seat_score(seat)));
            }
            v.push(count(r.s.capped));
            v
        })
        .collect();
    format_table(&header, &body)
}

/// Game length in rounds and each seat's wins, ties and losses (whoever
/// sat there), the figures other simulators publish: printed under the
/// `sim` table.
pub fn length_and_seats(stats: &Stats, players: usize) -> String {
    let r = &stats.rounds;
    let mut s = format!(
        "game length: {:.2} rounds on average (10% of games ≤ {}, median {}, 90% ≤ {}); a round = every player takes a turn\n",
        r.mean(),
        r.quantile(0.1),
        r.quantile(0.5),
        r.quantile(0.9)
    );
    let header: Vec<String> = ["by seat (all strategies)", "wins", "ties", "losses"]
        .iter()
        .map(|x| x.to_string())
        .collect();
    let body: Vec<Vec<String>> = (0..players)
        .map(|seat| {
            let (w, t, l) = stats.seat_record(seat);
            let n = (w + t + l).max(1) as f64;
            vec![
                format!("seat {}", seat + 1),
                pct(w as f64 / n),
                pct(t as f64 / n),
                pct(l as f64 / n),
            ]
        })
        .collect();
    s.push_str(&format_table(&header, &body));
    s
}

/// The rounds histogram as one metadata value: `ROUNDS:GAMES` pairs.
pub fn rounds_histogram(stats: &Stats) -> String {
    stats
        .rounds
        .0
        .iter()
        .enumerate()
        .filter(|(_, &c)| c > 0)
        .map(|(r, c)| format!("{r}:{c}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A round robin: `cells[i][j]` = stats of strategy `i` in its head-to-head
/// games against strategy `j` (None on the diagonal).
#[derive(Clone, Debug)]
pub struct Matrix {
    pub entrants: Vec<EntrantInfo>,
    pub cells: Vec<Vec<Option<EntrantStats>>>,
}

impl Matrix {
    pub fn score(&self, i: usize, j: usize) -> Option<f64> {
        self.cells[i][j].map(|s| ratio(s.score_wins(), s.games))
    }
    /// Mean score of `i` over all its opponents.
    pub fn mean(&self, i: usize) -> f64 {
        let v: Vec<f64> = (0..self.entrants.len())
            .filter_map(|j| self.score(i, j))
            .collect();
        if v.is_empty() {
            0.0
        } else {
            v.iter().sum::<f64>() / v.len() as f64
        }
    }

    /// Matrix CSV: `strategy`, one column per opponent (by name, in the
    /// order given), `mean_score`. Cell = row's score against column.
    pub fn csv(&self, meta: &Meta) -> Result<Vec<u8>> {
        let mut out = meta.render().into_bytes();
        let mut w = csv::Writer::from_writer(Vec::new());
        let mut h = vec!["strategy".to_string()];
        h.extend(self.entrants.iter().map(|e| e.name.clone()));
        h.push("mean_score".into());
        w.write_record(&h)?;
        for i in 0..self.entrants.len() {
            let mut r = vec![self.entrants[i].name.clone()];
            for j in 0..self.entrants.len() {
                r.push(self.score(i, j).map(f6).unwrap_or_default());
            }
            r.push(f6(self.mean(i)));
            w.write_record(&r)?;
        }
        out.extend(w.into_inner().map_err(|e| anyhow!("{e}"))?);
        Ok(out)
    }

    /// Console table: the matrix (row's score vs column, %), then the mean.
    pub fn table(&self) -> String {
        let n = self.entrants.len();
        let mut header = vec!["row vs column".to_string()];
        header.extend((1..=n).map(|j| format!("#{j}")));
        header.push("mean".into());
        let body: Vec<Vec<String>> = (0..n)
            .map(|i| {
                let mut v = vec![format!("#{} {}", i + 1, self.entrants[i].name)];
                for j in 0..n {
                    v.push(self.score(i, j).map(pct).unwrap_or_else(|| "—".into()));
                }
                v.push(pct(self.mean(i)));
                v
            })
            .collect();
        format_table(&header, &body)
    }
}

// Outputs are written through `crate::output` (atomic files, `-`, devices, links).
pub use crate::output::{remove_pending_files_and_exit, Output as AtomicFile};

#[cfg(test)]
mod tests {
    use super::*;

    /// One grouping of counts for the tables and the progress bar.
    #[test]
    fn counts_are_grouped_by_three() {
        for (n, want) in [
            (0, "0"),
            (999, "999"),
            (1_000, "1,000"),
            (20_000, "20,000"),
            (1_234_567, "1,234,567"),
            (u64::MAX, "18,446,744,073,709,551,615"),
        ] {
            assert_eq!(count(n), want);
        }
    }

    #[test]
    fn header_is_stable() {
        let h = SIM_COLUMNS;
        assert_eq!(h[0], "strategy");
        assert_eq!(h[22], "capped_games");
        assert_eq!(h[23], "seat1_wins");
        assert_eq!(h[44], "rounds_p90");
    }

    /// Metadata read from a file skips `push`: `check` refuses a line
    /// break in a value or a key that is not a word, and `render` keeps
    /// one comment line per pair whatever it holds.
    #[test]
    fn metadata_stays_one_line_per_pair() {
        let bad = Meta(vec![
            ("seed".into(), "1".into()),
            ("kingdom".into(), "Cellar\nfoo,bar\r# x".into()),
        ]);
        let e = bad.check("key.meta").unwrap_err();
        assert!(
            e.starts_with("key.meta[1] (kingdom): the value has a line break"),
            "{e}"
        );
        assert_eq!(bad.render(), "# seed: 1\n# kingdom: Cellar foo,bar # x\n");
        let key = Meta(vec![("a\nb".into(), "1".into())]);
        assert!(key
            .check("m")
            .unwrap_err()
            .contains("is not a metadata key"));
        let mut good = Meta::default();
        good.push("kingdom", "a\nb");
        good.push("games_per_pair", 10);
        assert_eq!(good.check("m"), Ok(()));
        assert_eq!(good.render(), "# kingdom: a b\n# games_per_pair: 10\n");
    }
}
