//! `domsim sweep`: a field of strategies over many kingdoms.
//!
//! In each kingdom every pair of strategies plays a 2-player round robin
//! (`games` per pair, seats alternating by game index, game `i` dealt from
//! the kingdom's seed and `i`), exactly as `domsim matrix` does for one
//! kingdom. A strategy's row for a kingdom sums its pairs: games, score
//! (ties split), 95% Wilson interval. Kingdom `k` of a `--random` sweep is
//! drawn from `(seed, k)` alone, so a sweep can be sharded by kingdoms and
//! merged byte for byte (`src/sim/shard.rs`).
//!
//! A strategy naming a card the kingdom lacks still plays (those entries are
//! skipped, as `sim` does with a warning); the `ignored_entries` column says
//! how many of its entries could not apply in that kingdom.
//!
//! [`card_effects`] is the raw difference of mean scores with and without
//! a card; [`adjusted::adjusted_effects`] holds the other cards fixed (a
//! regression over card indicators, with counts and intervals).

pub mod adjusted;

use crate::dominion::matches::EntrantStats;
use crate::report::{EntrantInfo, Meta};
use anyhow::{anyhow, Result};
use serde::{Deserialize, Serialize};

/// The results of one kingdom of a sweep.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SweepKingdom {
    /// Index of the kingdom in the sweep (0-based).
    pub index: u64,
    /// Its Kingdom cards.
    pub cards: Vec<String>,
    /// `cells[i][j]`: strategy `i` against `j` (None on the diagonal).
    pub cells: Vec<Vec<Option<EntrantStats>>>,
    /// Per strategy: entries ignored because they name cards not in the kingdom.
    pub ignored: Vec<u32>,
}

impl SweepKingdom {
    /// Strategy `i`'s games and score units summed over its pairs (none
    /// when the kingdom has no row `i`: partials are checked when loaded,
    /// this only keeps a bad one from panicking).
    pub fn total(&self, i: usize) -> EntrantStats {
        let mut t = EntrantStats::default();
        for c in self.cells.get(i).into_iter().flatten().flatten() {
            t.merge(c);
        }
        t
    }
}

/// Header of the sweep CSV.
pub const SWEEP_COLUMNS: [&str; 10] = [
    "kingdom_index",
    "kingdom",
    "strategy",
    "source_hash",
    "games",
    "score",
    "score_lo",
    "score_hi",
    "win_rate",
    "ignored_entries",
];

/// The sweep CSV: one row per kingdom × strategy.
pub fn sweep_csv(meta: &Meta, infos: &[EntrantInfo], ks: &[SweepKingdom]) -> Result<Vec<u8>> {
    let mut out = meta.render().into_bytes();
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(SWEEP_COLUMNS)?;
    for k in ks {
        let kingdom = k.cards.join("; ");
        for (i, info) in infos.iter().enumerate() {
            let t = k.total(i);
            let (lo, hi) = crate::sim::wilson(t.score_wins(), t.games);
            let r = |x: f64| {
                if t.games == 0 {
                    String::new()
                } else {
                    format!("{x:.6}")
                }
            };
            w.write_record([
                k.index.to_string(),
                kingdom.clone(),
                info.name.clone(),
                info.hash.clone(),
                t.games.to_string(),
                r(t.score_wins() / t.games.max(1) as f64),
                r(lo),
                r(hi),
                r(t.wins as f64 / t.games.max(1) as f64),
                k.ignored.get(i).copied().unwrap_or(0).to_string(),
            ])?;
        }
    }
    out.extend(w.into_inner().map_err(|e| anyhow!("{e}"))?);
    Ok(out)
}

/// Per strategy and card: the mean score over the kingdoms with the card
/// and over those without it (each kingdom weighs the same), and how often
/// the strategy was the best of the field.
pub struct CardEffect {
    pub strategy: usize,
    pub card: String,
    pub with: (u64, f64),
    pub without: (u64, f64),
}

/// [`CardEffect`] for every strategy × card that appears in some but not
/// all kingdoms, sorted by strategy then by decreasing effect.
pub fn card_effects(n: usize, ks: &[SweepKingdom]) -> Vec<CardEffect> {
    let mut cards: Vec<&String> = ks.iter().flat_map(|k| k.cards.iter()).collect();
    cards.sort();
    cards.dedup();
    let mut out = Vec::new();
    for i in 0..n {
        let score = |k: &SweepKingdom| {
            let t = k.total(i);
            t.score_wins() / t.games.max(1) as f64
        };
        let mut eff: Vec<CardEffect> = cards
            .iter()
            .filter_map(|&c| {
                let (mut a, mut sa, mut b, mut sb) = (0u64, 0.0, 0u64, 0.0);
                for k in ks {
                    if k.cards.contains(c) {
                        a += 1;
                        sa += score(k);
                    } else {
                        b += 1;
                        sb += score(k);
                    }
                }
                (a > 0 && b > 0).then(|| CardEffect {
                    strategy: i,
                    card: c.clone(),
                    with: (a, sa / a as f64),
                    without: (b, sb / b as f64),
                })
            })
            .collect();
        eff.sort_by(|x, y| {
            let dx = x.with.1 - x.without.1;
            let dy = y.with.1 - y.without.1;
            dy.total_cmp(&dx).then_with(|| x.card.cmp(&y.card))
        });
        out.extend(eff);
    }
    out
}

/// The summary CSV: strategy, card, kingdoms with / without it, mean score
/// with / without it, and the difference.
pub fn summary_csv(meta: &Meta, infos: &[EntrantInfo], ks: &[SweepKingdom]) -> Result<Vec<u8>> {
    let mut out = meta.render().into_bytes();
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "strategy",
        "card",
        "kingdoms_with",
        "score_with",
        "kingdoms_without",
        "score_without",
        "score_difference",
    ])?;
    for e in card_effects(infos.len(), ks) {
        w.write_record([
            infos[e.strategy].name.clone(),
            e.card.clone(),
            e.with.0.to_string(),
            format!("{:.6}", e.with.1),
            e.without.0.to_string(),
            format!("{:.6}", e.without.1),
            format!("{:.6}", e.with.1 - e.without.1),
        ])?;
    }
    out.extend(w.into_inner().map_err(|e| anyhow!("{e}"))?);
    Ok(out)
}

/// The console summary: per strategy, its mean score, the kingdoms where
/// it scored best of the field, and the cards whose presence helps and
/// hurts it most.
pub fn summary_text(infos: &[EntrantInfo], ks: &[SweepKingdom]) -> String {
    let n = infos.len();
    let mut best = vec![0u64; n];
    for k in ks {
        let scores: Vec<f64> = (0..n)
            .map(|i| {
                let t = k.total(i);
                t.score_wins() / t.games.max(1) as f64
            })
            .collect();
        if let Some((b, _)) = scores
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1).then(b.0.cmp(&a.0)))
        {
            best[b] += 1;
        }
    }
    let effects = card_effects(n, ks);
    let mut s = String::new();
    for (i, info) in infos.iter().enumerate() {
        // An empty shard has no kingdom: its mean is 0, not the -0.0 an
        // empty f64 sum gives.
        let mean = if ks.is_empty() {
            0.0
        } else {
            ks.iter()
                .map(|k| {
                    let t = k.total(i);
                    t.score_wins() / t.games.max(1) as f64
                })
                .sum::<f64>()
                / ks.len() as f64
        };
        let mine: Vec<&CardEffect> = effects.iter().filter(|e| e.strategy == i).collect();
        let fmt = |e: &&CardEffect| format!("{} {:+.1}%", e.card, 100.0 * (e.with.1 - e.without.1));
        // Only effects that print as non-zero (|difference| >= 0.05 points)
        // help or hurt.
        let diff = |e: &&&CardEffect| 100.0 * (e.with.1 - e.without.1);
        let up: Vec<String> = mine
            .iter()
            .filter(|e| diff(e) >= 0.05)
            .take(3)
            .map(fmt)
            .collect();
        let down: Vec<String> = mine
            .iter()
            .rev()
            .filter(|e| diff(e) <= -0.05)
            .take(3)
            .map(fmt)
            .collect();
        s.push_str(&format!(
            "{}: mean score {:.1}%, best of the field in {} of {} kingdoms; helped by {}; hurt by {}\n",
            info.name,
            100.0 * mean,
            best[i],
            ks.len(),
            if up.is_empty() { "-".into() } else { up.join(", ") },
            if down.is_empty() { "-".into() } else { down.join(", ") },
        ));
    }
    s
}
