//! Shards of New Salem runs: `salem sim` and `salem compare` cut into `N`
//! slices of game indices (`--shard I/N`, the slices of
//! [`crate::sim::shard::ShardSpec`], as Dominion's runs), each saved as a
//! **part** of exact integer counts, then joined by `salem merge` into the
//! very bytes the one-machine run writes.
//!
//! Game `i` of a New Salem run is dealt and seated from `(seed, i)` alone
//! ([`super::sim::SalemMatch::setup`]), so the union of the slices is the
//! one-machine run and the tallies (integers) add up to its tally.
//!
//! A part (JSON, `format: domsim-salem-partial-1`) carries the run's key —
//! the header its outputs start with (version, verb, seed, games, card data
//! and its digest, rule options) and the bots with a hash of their compiled
//! form —, its shard and slice, its counts per player count, and a `digest`
//! of all of these: a part changed after it was written is refused
//! ("damaged or edited"). `merge` refuses parts of different runs, a shard
//! given twice or missing, and counts that do not fit their slice.

use super::sim::Tally;
use super::toolkit::Paired;
use crate::sim::shard::ShardSpec;
use anyhow::{anyhow, bail, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Format tag of New Salem parts.
pub const FORMAT: &str = "domsim-salem-partial-1";

/// The most games a sharded New Salem run may play per player count: small
/// enough that no sum of a merged tally can overflow.
pub const MAX_GAMES: u64 = 1 << 32;

/// What identifies a run: everything its outputs show besides the counts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunKey {
    /// `sim` or `compare`.
    pub verb: String,
    /// The comment lines the CSV starts with (byte for byte).
    pub header: String,
    /// The note of `salem sim --report`'s page.
    pub note: String,
    /// Everything else the run depends on (the card data's digest, the
    /// compiled bots' hash).
    pub fingerprint: String,
    /// The bots, name and idea (the outputs print them).
    pub bots: Vec<(String, String)>,
    /// The player counts, ascending.
    pub players: Vec<usize>,
    /// Games of the whole run per player count.
    pub games: u64,
}

/// A shard's counts, one per player count of the key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Counts {
    Sim(Vec<Tally>),
    Compare(Vec<Paired>),
}

/// A part file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    pub format: String,
    pub key: RunKey,
    pub shard: ShardSpec,
    /// The slice played: games `first..first + games` of each player count.
    pub first: u64,
    pub games: u64,
    pub counts: Counts,
}

fn digest(p: &Part) -> Result<String> {
    Ok(crate::digest::hex(&serde_json::to_vec(p)?))
}

impl Part {
    pub fn new(key: RunKey, shard: ShardSpec, counts: Counts) -> Part {
        let (first, games) = shard.range(key.games);
        Part {
            format: FORMAT.into(),
            key,
            shard,
            first,
            games,
            counts,
        }
    }

    /// The part file's bytes: its fields, then `digest`.
    pub fn to_json(&self) -> Result<Vec<u8>> {
        crate::sim::shard::json_with_digest(self)
    }

    /// Load a part file (bounded read, format, fields, then digest checked).
    pub fn load(path: &Path) -> Result<Part> {
        let text = crate::output::read_input(path, "partial file")?;
        Part::from_json(&text).map_err(|e| anyhow!("{}: {e}", path.display()))
    }

    pub fn from_json(text: &str) -> Result<Part> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut v: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| anyhow!("not a domsim New Salem partial file: {e}"))?;
        let format = v.get("format").and_then(|f| f.as_str()).unwrap_or("");
        if format == crate::sim::shard::FORMAT {
            bail!("a part of a Dominion run ({format}): merge it with `domsim merge`");
        }
        if format != FORMAT {
            bail!("not a New Salem partial file (format {format:?}, expected {FORMAT})");
        }
        let d = match v.as_object_mut().and_then(|m| m.remove("digest")) {
            Some(serde_json::Value::String(d)) => d,
            _ => bail!("damaged or edited: it has no digest; run the shard again"),
        };
        let p: Part = serde_json::from_value(v)
            .map_err(|e| anyhow!("not a domsim New Salem partial file: {e}"))?;
        p.check()?;
        if d != digest(&p)? {
            bail!("damaged or edited: its content does not match its digest {d} (a part must be merged as its run wrote it); run the shard again");
        }
        Ok(p)
    }

    /// Every field against the others: the shard and its slice, the player
    /// counts, and counts that fit the slice's games (the field named).
    pub fn check(&self) -> Result<()> {
        let ShardSpec { index, count } = self.shard;
        if count == 0 || count > crate::sim::shard::MAX_SHARDS || index == 0 || index > count {
            bail!(
                "shard {index}/{count} is not a shard (1 ≤ I ≤ N ≤ {})",
                crate::sim::shard::MAX_SHARDS
            );
        }
        let k = &self.key;
        if k.games > MAX_GAMES {
            bail!(
                "key.games {} is more than a sharded run plays ({MAX_GAMES})",
                k.games
            );
        }
        if (self.first, self.games) != self.shard.range(k.games) {
            bail!(
                "shard {index}/{count} of {} games should hold games {}.., not {}.. ({} games)",
                k.games,
                self.shard.range(k.games).0,
                self.first,
                self.games
            );
        }
        if k.players.is_empty()
            || k.players.windows(2).any(|w| w[0] >= w[1])
            || k.players
                .iter()
                .any(|p| !(super::data::MIN_PLAYERS..=super::data::MAX_PLAYERS).contains(p))
        {
            bail!(
                "key.players {:?} is not a list of player counts from 3 to 8, ascending",
                k.players
            );
        }
        if k.bots.is_empty() || k.bots.len() > 64 {
            bail!("key.bots has {} bots (1 to 64)", k.bots.len());
        }
        let n = match &self.counts {
            Counts::Sim(t) => t.len(),
            Counts::Compare(t) => t.len(),
        };
        if n != k.players.len() {
            bail!(
                "counts has {n} entries for {} player counts",
                k.players.len()
            );
        }
        match (&self.counts, k.verb.as_str()) {
            (Counts::Sim(ts), "sim") => {
                for (t, &p) in ts.iter().zip(&k.players) {
                    let at = |e: String| anyhow!("counts.Sim at {p} players: {e}");
                    if t.games != self.games {
                        return Err(at(format!(
                            "{} games, not the slice's {}",
                            t.games, self.games
                        )));
                    }
                    if t.bots.len() != k.bots.len() {
                        return Err(at(format!(
                            "{} bots, not the key's {}",
                            t.bots.len(),
                            k.bots.len()
                        )));
                    }
                    t.check(Some(p)).map_err(at)?;
                }
            }
            (Counts::Compare(ts), "compare") => {
                for (t, &p) in ts.iter().zip(&k.players) {
                    t.check(self.games, p)
                        .map_err(|e| anyhow!("counts.Compare at {p} players: {e}"))?;
                }
            }
            _ => bail!("key.verb {:?} does not go with these counts", k.verb),
        }
        Ok(())
    }
}

/// Check that `parts` (named for messages) are every shard of one run,
/// once each, and add their counts: the key and the run's counts.
pub fn merge(parts: &[(String, Part)]) -> Result<(RunKey, Counts)> {
    let Some((first_name, first)) = parts.first() else {
        bail!("no partial file given");
    };
    for (name, p) in parts {
        if p.key != first.key {
            let k = (&p.key, &first.key);
            let why = if k.0.verb != k.1.verb {
                format!("salem {} vs salem {}", k.0.verb, k.1.verb)
            } else if k.0.games != k.1.games {
                format!("{} games vs {}", k.0.games, k.1.games)
            } else if k.0.header != k.1.header {
                let d =
                    k.0.header
                        .lines()
                        .zip(k.1.header.lines())
                        .find(|(a, b)| a != b);
                d.map_or("different headers".into(), |(a, b)| {
                    format!("{a:?} vs {b:?}")
                })
            } else if k.0.players != k.1.players {
                format!("players {:?} vs {:?}", k.0.players, k.1.players)
            } else {
                "different bots or card data".into()
            };
            bail!("{name} and {first_name} belong to different runs ({why})");
        }
    }
    crate::sim::shard::check_shard_set(parts.iter().map(|(name, p)| (name.as_str(), p.shard)))?;
    // Checked parts of one run: each sum is bounded by its games, and the
    // games add up to key.games ≤ MAX_GAMES, so nothing overflows.
    let mut counts = first.counts.clone();
    for (_, p) in &parts[1..] {
        counts = match (counts, &p.counts) {
            (Counts::Sim(a), Counts::Sim(b)) => Counts::Sim(
                a.into_iter()
                    .zip(b)
                    .map(|(x, y)| x.merge(y.clone()))
                    .collect(),
            ),
            (Counts::Compare(a), Counts::Compare(b)) => Counts::Compare(
                a.into_iter()
                    .zip(b)
                    .map(|(x, y)| x.merge(y.clone()))
                    .collect(),
            ),
            _ => bail!("parts of different kinds"),
        };
    }
    Ok((first.key.clone(), counts))
}
