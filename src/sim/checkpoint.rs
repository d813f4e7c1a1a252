//! Resumable runs: `domsim sim --checkpoint FILE`.
//!
//! The run is cut into batches at fixed boundaries (`0..every`,
//! `every..2*every`, ...). After each complete batch the merged statistics of
//! every game so far and the index of the next game are written to FILE
//! atomically (temporary file + rename: a kill at any moment leaves the
//! previous checkpoint or the new one, never a torn one). Started again with
//! the same command, the run loads FILE, checks that it belongs to the same
//! run (seed, kingdom, players, strategies: the `key`), and plays only the
//! games from `next` on. Because game `i` depends only on `(seed, i)` and the
//! statistics are integers merged associatively (`Saved` tallies: Dominion's
//! are `crate::dominion::matches`), the final
//! numbers are identical to those of an uninterrupted run, whatever the
//! number of interruptions, threads or the batch size.
//!
//! The file is plain text, one `key value` per line, ending with a
//! `digest` of everything before it (FNV-1a 64 of the canonical text, as
//! [`Checkpoint::to_text`] writes it: see [`crate::sim::shard::content_digest`]
//! for why this digest) and `end`: a checkpoint changed after it was
//! written, by damage or by hand, is refused ("damaged or edited") even when
//! its counts still fit together. It stays after the run completes (running
//! the same command again then plays nothing and prints the same result).

use super::runner::{play_block, Match};
use super::RunConfig;
use crate::report::AtomicFile;
use anyhow::{anyhow, bail, Result};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

const MAGIC: &str = "domsim-checkpoint 3";

/// Default games per checkpoint batch.
pub const DEFAULT_EVERY: u64 = 1 << 20;

/// What a checkpoint file holds: the run's key, where it is, and the tally
/// of a game (Dominion's `Stats`, or another game's counts).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint<T> {
    /// Identifies the run (everything that decides the games but their count;
    /// for a shard, the shard too).
    pub key: String,
    /// The first game of the run (0, or the first game of a shard).
    pub first: u64,
    /// Games `first..next` are accounted in `stats`.
    pub next: u64,
    pub stats: T,
}

/// A tally that can be written to a checkpoint file and read back: one
/// `key value` line per field, never the keys `key`, `first`, `next`, `end`.
pub trait Saved: Sized {
    /// Games accounted.
    fn saved_games(&self) -> u64;
    fn write_lines(&self, out: &mut String);
    /// Read one line (numbered `n` in the file); `Ok(false)` when `key` is
    /// not one of this tally's fields.
    fn read_line(&mut self, n: usize, key: &str, value: &str) -> Result<bool>;
    /// Check that the counts read fit together (each against the others and
    /// against the games), so that a damaged file is refused instead of
    /// resuming with nonsense totals. The error names the field.
    fn check(&self) -> std::result::Result<(), String> {
        Ok(())
    }
    /// Check what the counts of games `first..first + games` must hold
    /// besides [`Saved::check`] (Dominion: the seat rotation). Default:
    /// nothing.
    fn check_games(&self, first: u64, games: u64) -> std::result::Result<(), String> {
        let _ = (first, games);
        Ok(())
    }
}

/// `s` on one line of a checkpoint: `\\`, line feeds and carriage returns
/// escaped ([`un_line`] reads it back).
pub fn one_line(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('\n', "\\n")
        .replace('\r', "\\r")
}

/// [`one_line`]'s text read back.
pub fn un_line(s: &str) -> String {
    let mut out = String::new();
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c == '\\' {
            match it.next() {
                Some('n') => out.push('\n'),
                Some('r') => out.push('\r'),
                Some(o) => out.push(o),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

impl<T: Saved> Checkpoint<T> {
    pub fn to_text(&self) -> String {
        let mut t = self.body();
        t.push_str(&format!(
            "digest {}\nend\n",
            crate::digest::hex(t.as_bytes())
        ));
        t
    }

    /// The text before the `digest` line: what the digest covers.
    fn body(&self) -> String {
        let mut t = format!("{MAGIC}\nkey {}\n", one_line(&self.key));
        if self.first != 0 {
            t.push_str(&format!("first {}\n", self.first));
        }
        t.push_str(&format!("next {}\n", self.next));
        self.stats.write_lines(&mut t);
        t
    }

    /// Parse a checkpoint file's text, reading the tally into `empty` (a
    /// leading byte-order mark is skipped).
    pub fn parse(text: &str, empty: T) -> Result<Checkpoint<T>> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut lines = text.lines();
        let first = lines.next();
        if first == Some("domsim-checkpoint 1") {
            bail!("written by an older domsim (format 1, without per-seat wins and rounds); delete it and run again");
        }
        if first == Some("domsim-checkpoint 2") {
            bail!("written by an older domsim (format 2, without the digest that shows a checkpoint is as its run wrote it); delete it and run again");
        }
        if first != Some(MAGIC) {
            bail!("not a domsim checkpoint (first line is not '{MAGIC}')");
        }
        let mut c = Checkpoint {
            key: String::new(),
            first: 0,
            next: 0,
            stats: empty,
        };
        let mut ended = false;
        let mut digest = None;
        for (n, l) in lines.enumerate() {
            let n = n + 2;
            let (k, v) = l.split_once(' ').unwrap_or((l, ""));
            let num = |v: &str| -> Result<u64> {
                v.trim()
                    .parse()
                    .map_err(|_| anyhow!("line {n}: bad number '{v}'"))
            };
            match k {
                "key" => c.key = un_line(v),
                "first" => c.first = num(v)?,
                "next" => c.next = num(v)?,
                "end" => ended = true,
                "digest" => digest = Some(v.to_string()),
                _ => {
                    if !c.stats.read_line(n, k, v)? {
                        bail!("line {n}: unknown field '{k}'");
                    }
                }
            }
        }
        if !ended {
            bail!("truncated (no 'end' line)");
        }
        if c.next < c.first || c.stats.saved_games() != c.next - c.first {
            bail!(
                "inconsistent: {} games accounted from game {} but next game is {}",
                c.stats.saved_games(),
                c.first,
                c.next
            );
        }
        c.stats.check().map_err(|e| anyhow!("inconsistent: {e}"))?;
        c.stats
            .check_games(c.first, c.next - c.first)
            .map_err(|e| anyhow!("inconsistent: {e}"))?;
        // The fields first, so that a damaged field is named; then the
        // digest, which refuses any other change.
        match digest {
            None => bail!("damaged or edited: it has no digest line (a checkpoint always has one); delete it and run again"),
            Some(d) if d != crate::digest::hex(c.body().as_bytes()) => bail!(
                "damaged or edited: its content does not match its digest {d}; delete it and run again"
            ),
            Some(_) => Ok(c),
        }
    }

    fn save(&self, path: &Path) -> Result<()> {
        AtomicFile::create(path)?.commit(self.to_text().as_bytes())
    }
}

/// Refuse a `--checkpoint` that is not a file: `-` would write every
/// checkpoint into standard output (mixed with the results) and never be
/// read back, so the run could never resume; a FIFO would block the run
/// forever when it reads it back (no writer), and a device (`/dev/null`,
/// `/dev/stdout`) cannot hold one. A folder gets the outputs' own message.
pub fn check_path(path: &Path) -> Result<()> {
    if path.as_os_str() == "-" {
        bail!("--checkpoint needs a file (not -): the run reads its checkpoint back to resume");
    }
    if let Ok(m) = std::fs::metadata(path) {
        if !m.is_file() && !m.is_dir() {
            bail!(
                "--checkpoint '{}' is not a regular file (a FIFO, device or socket): the run reads its checkpoint back to resume; give a file",
                path.display()
            );
        }
    }
    Ok(())
}

/// Load the checkpoint at `path` if it exists and check it belongs to this
/// run (`key`, starting at game `first`) and does not go past `end`.
pub fn load<T: Saved>(
    path: &Path,
    key: &str,
    first: u64,
    end: u64,
    empty: T,
) -> Result<Option<Checkpoint<T>>> {
    check_path(path)?;
    if !path.exists() {
        return Ok(None);
    }
    let text = crate::output::read_input(path, "checkpoint")?;
    let c = Checkpoint::parse(&text, empty)
        .map_err(|e| anyhow!("checkpoint '{}': {e}", path.display()))?;
    if c.key != key || c.first != first {
        // What a run's key holds, in the words of its game.
        let what = if key.contains(" salem ") {
            "seed, players, card data, rule options or bots differ"
        } else {
            "seed, kingdom, players, strategies or shard differ"
        };
        bail!(
            "checkpoint '{}' belongs to another run ({what}); delete it or give another --checkpoint file\n  checkpoint: {}\n  this run:   {}",
            path.display(),
            c.key,
            key
        );
    }
    if c.next > end {
        bail!(
            "checkpoint '{}' already has {} games, more than the {} asked",
            path.display(),
            c.next - c.first,
            end - first
        );
    }
    Ok(Some(c))
}

/// What a checkpointed run did, besides its result.
#[derive(Clone, Debug)]
pub struct Resumed<R> {
    pub result: R,
    /// Games taken from the checkpoint file at the start.
    pub resumed_from: u64,
    /// Games accounted in the checkpoint file at the end.
    pub saved: u64,
}

/// [`super::run_match`] with a checkpoint file: resume from `path` if it
/// holds a checkpoint of this run (`key`), save one after every batch of
/// `every` games (batch boundaries are multiples of `every`, counted in game
/// indices, so a shard `first..first + games` resumes like a whole run).
/// Interrupted (`stop`), the result covers the games finished, and the file
/// holds the last complete batch. `--precision` is not used here.
pub fn run_match<M>(
    m: &M,
    cfg: &RunConfig,
    stop: &AtomicBool,
    path: &Path,
    key: &str,
    every: u64,
) -> Result<Resumed<super::Ran<M::Tally>>>
where
    M: Match,
    M::Tally: Saved,
{
    let every = every.max(1);
    let end_at = cfg.first + cfg.games;
    let loaded = load(path, key, cfg.first, end_at, m.tally())?;
    if let Some(c) = &loaded {
        m.check_tally(&c.stats)
            .map_err(|e| anyhow!("checkpoint '{}': inconsistent: {e}", path.display()))?;
    }
    let mut ck = loaded.unwrap_or(Checkpoint {
        key: key.to_string(),
        first: cfg.first,
        next: cfg.first,
        stats: m.tally(),
    });
    let resumed_from = ck.next - ck.first;
    // Write the (possibly empty) checkpoint now: an unwritable path fails
    // before any game is played.
    ck.save(path)?;
    let mut partial = m.tally();
    while ck.next < end_at && !stop.load(Ordering::Relaxed) {
        let end = ((ck.next / every + 1) * every).min(end_at);
        let part = play_block(m, cfg.seed, ck.next, end, stop);
        if m.games(&part) < end - ck.next {
            // Interrupted inside the batch: report it, don't save it.
            partial = part;
            break;
        }
        ck.stats = m.merge(std::mem::replace(&mut ck.stats, m.tally()), part);
        ck.next = end;
        ck.save(path)?;
    }
    let saved = ck.next - ck.first;
    let tally = m.merge(ck.stats, partial);
    let completed = m.games(&tally);
    Ok(Resumed {
        result: super::Ran {
            tally,
            completed,
            interrupted: completed < cfg.games,
        },
        resumed_from,
        saved,
    })
}
