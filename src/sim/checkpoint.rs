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
//! statistics are integers merged associatively ([`Stats::merge`]), the final
//! numbers are identical to those of an uninterrupted run, whatever the
//! number of interruptions, threads or the batch size.
//!
//! The file is plain text, one `key value` per line; it stays after the run
//! completes (running the same command again then plays nothing and prints
//! the same result).

use super::{play_range, RunConfig, RunResult, Stats};
use crate::engine::{Bots, Kingdom, MAX_PLAYERS};
use crate::report::AtomicFile;
use anyhow::{anyhow, bail, Result};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

const MAGIC: &str = "domsim-checkpoint 2";

/// Default games per checkpoint batch.
pub const DEFAULT_EVERY: u64 = 1 << 20;

/// What a checkpoint file holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    /// Identifies the run (everything that decides the games but their count).
    pub key: String,
    /// Games `0..next` are accounted in `stats`.
    pub next: u64,
    pub stats: Stats,
}

fn one_line(s: &str) -> String {
    s.replace('\\', "\\\\").replace('\n', "\\n")
}

fn un_line(s: &str) -> String {
    let mut out = String::new();
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c == '\\' {
            match it.next() {
                Some('n') => out.push('\n'),
                Some(o) => out.push(o),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

impl Checkpoint {
    pub fn to_text(&self) -> String {
        let s = &self.stats;
        let mut t = format!(
            "{MAGIC}\nkey {}\nnext {}\ngames {}\ntied_games {}\ncapped {}\nfaults {}\n",
            one_line(&self.key),
            self.next,
            s.games,
            s.tied_games,
            s.capped,
            s.faults
        );
        if let Some((i, f)) = &s.first_fault {
            t.push_str(&format!("first_fault {i} {}\n", one_line(f)));
        }
        for (j, e) in s.entrants.iter().enumerate() {
            let seats = |v: &[u64; MAX_PLAYERS]| {
                v.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            t.push_str(&format!(
                "entrant {j} {} {} {} {} {} {} {} {} {} {} {} {}\n",
                e.games,
                e.wins,
                e.ties,
                e.tie_units,
                e.losses,
                e.vp_sum,
                e.turns_sum,
                e.capped,
                seats(&e.seat_games),
                seats(&e.seat_units),
                seats(&e.seat_wins),
                seats(&e.seat_ties)
            ));
        }
        let rounds: Vec<String> = s
            .rounds
            .0
            .iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .map(|(r, c)| format!("{r}:{c}"))
            .collect();
        t.push_str(&format!("rounds {}\n", rounds.join(" ")));
        t.push_str("end\n");
        t
    }

    pub fn parse(text: &str) -> Result<Checkpoint> {
        let mut lines = text.lines();
        let first = lines.next();
        if first == Some("domsim-checkpoint 1") {
            bail!("written by an older domsim (format 1, without per-seat wins and rounds); delete it and run again");
        }
        if first != Some(MAGIC) {
            bail!("not a domsim checkpoint (first line is not '{MAGIC}')");
        }
        let mut c = Checkpoint {
            key: String::new(),
            next: 0,
            stats: Stats::default(),
        };
        let mut ended = false;
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
                "next" => c.next = num(v)?,
                "games" => c.stats.games = num(v)?,
                "tied_games" => c.stats.tied_games = num(v)?,
                "capped" => c.stats.capped = num(v)?,
                "faults" => c.stats.faults = num(v)?,
                "first_fault" => {
                    let (i, f) = v.split_once(' ').unwrap_or((v, ""));
                    c.stats.first_fault = Some((num(i)?, un_line(f)));
                }
                "entrant" => {
                    let f: Vec<&str> = v.split(' ').collect();
                    if f.len() != 9 + 4 * MAX_PLAYERS {
                        bail!("line {n}: expected {} numbers", 9 + 4 * MAX_PLAYERS);
                    }
                    let j = num(f[0])? as usize;
                    if j >= MAX_PLAYERS {
                        bail!("line {n}: entrant {j} out of range");
                    }
                    let e = &mut c.stats.entrants[j];
                    e.games = num(f[1])?;
                    e.wins = num(f[2])?;
                    e.ties = num(f[3])?;
                    e.tie_units = num(f[4])?;
                    e.losses = num(f[5])?;
                    e.vp_sum = f[6]
                        .parse()
                        .map_err(|_| anyhow!("line {n}: bad number '{}'", f[6]))?;
                    e.turns_sum = num(f[7])?;
                    e.capped = num(f[8])?;
                    for s in 0..MAX_PLAYERS {
                        e.seat_games[s] = num(f[9 + s])?;
                        e.seat_units[s] = num(f[9 + MAX_PLAYERS + s])?;
                        e.seat_wins[s] = num(f[9 + 2 * MAX_PLAYERS + s])?;
                        e.seat_ties[s] = num(f[9 + 3 * MAX_PLAYERS + s])?;
                    }
                }
                "rounds" => {
                    for pair in v.split_whitespace() {
                        let (r, g) = pair.split_once(':').ok_or_else(|| {
                            anyhow!("line {n}: expected ROUNDS:GAMES, found '{pair}'")
                        })?;
                        let r = num(r)? as usize;
                        if r >= crate::sim::ROUND_BUCKETS {
                            bail!("line {n}: rounds {r} out of range");
                        }
                        c.stats.rounds.0[r] = num(g)?;
                    }
                }
                "end" => ended = true,
                _ => bail!("line {n}: unknown field '{k}'"),
            }
        }
        if !ended {
            bail!("truncated (no 'end' line)");
        }
        if c.stats.games != c.next {
            bail!(
                "inconsistent: {} games accounted but next game is {}",
                c.stats.games,
                c.next
            );
        }
        Ok(c)
    }

    fn save(&self, path: &Path) -> Result<()> {
        AtomicFile::create(path)?.commit(self.to_text().as_bytes())
    }
}

/// Load the checkpoint at `path` if it exists and check it belongs to this
/// run (`key`) and does not go past `games`.
pub fn load(path: &Path, key: &str, games: u64) -> Result<Option<Checkpoint>> {
    if !path.exists() {
        return Ok(None);
    }
    let text = crate::output::read_input(path, "checkpoint")?;
    let c =
        Checkpoint::parse(&text).map_err(|e| anyhow!("checkpoint '{}': {e}", path.display()))?;
    if c.key != key {
        bail!(
            "checkpoint '{}' belongs to another run (seed, kingdom, players or strategies differ); delete it or give another --checkpoint file\n  checkpoint: {}\n  this run:   {}",
            path.display(),
            c.key,
            key
        );
    }
    if c.next > games {
        bail!(
            "checkpoint '{}' already has {} games, more than the {games} asked",
            path.display(),
            c.next
        );
    }
    Ok(Some(c))
}

/// What a checkpointed run did, besides its result.
#[derive(Clone, Debug)]
pub struct Resumed {
    pub result: RunResult,
    /// Games taken from the checkpoint file at the start.
    pub resumed_from: u64,
    /// Games accounted in the checkpoint file at the end.
    pub saved: u64,
}

/// [`super::run`] with a checkpoint file: resume from `path` if it holds a
/// checkpoint of this run (`key`), save one after every `every` games.
/// Interrupted (`stop`), the result covers the games finished, and the file
/// holds the last complete batch.
pub fn run<B, F>(
    kingdom: &Kingdom,
    cfg: &RunConfig,
    make: F,
    stop: &AtomicBool,
    path: &Path,
    key: &str,
    every: u64,
) -> Result<Resumed>
where
    B: Bots,
    F: Fn(&[u8]) -> B + Sync,
{
    if cfg.first != 0 {
        bail!("a checkpointed run starts at game 0 (shards are not checkpointed)");
    }
    let every = every.max(1);
    let mut ck = load(path, key, cfg.games)?.unwrap_or(Checkpoint {
        key: key.to_string(),
        next: 0,
        stats: Stats::default(),
    });
    let resumed_from = ck.next;
    // Write the (possibly empty) checkpoint now: an unwritable path fails
    // before any game is played.
    ck.save(path)?;
    let mut partial = Stats::default();
    while ck.next < cfg.games && !stop.load(Ordering::Relaxed) {
        // Batch boundaries are multiples of `every`.
        let end = ((ck.next / every + 1) * every).min(cfg.games);
        let (part, ()) = play_range(kingdom, cfg.seed, ck.next, end, &make, stop, &super::Plain);
        if part.games < end - ck.next {
            // Interrupted inside the batch: report it, don't save it.
            partial = part;
            break;
        }
        ck.stats = std::mem::take(&mut ck.stats).merge(part);
        ck.next = end;
        ck.save(path)?;
    }
    let saved = ck.next;
    let stats = ck.stats.merge(partial);
    let completed = stats.games;
    Ok(Resumed {
        result: RunResult {
            stats,
            completed,
            interrupted: completed < cfg.games,
        },
        resumed_from,
        saved,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::BigMoney;

    fn k() -> Kingdom {
        Kingdom::from_names(
            3,
            &[
                "Cellar",
                "Moat",
                "Village",
                "Woodcutter",
                "Workshop",
                "Militia",
                "Remodel",
                "Smithy",
                "Market",
                "Mine",
            ],
        )
        .unwrap()
    }

    #[test]
    fn text_round_trip() {
        let mut s = Stats {
            games: 3,
            faults: 1,
            first_fault: Some((2, "a \\ b\nc".into())),
            ..Default::default()
        };
        s.entrants[1].vp_sum = -7;
        s.entrants[2].seat_units[5] = 60;
        let c = Checkpoint {
            key: "seed 1\nx".into(),
            next: 3,
            stats: s,
        };
        assert_eq!(Checkpoint::parse(&c.to_text()).unwrap(), c);
        let t = c.to_text();
        assert!(Checkpoint::parse(&t[..t.len() - 4]).is_err(), "truncated");
    }

    #[test]
    fn resumed_equals_uninterrupted() {
        let k = k();
        let cfg = RunConfig {
            games: 700,
            first: 0,
            seed: 5,
            threads: 0,
            progress: false,
            precision: None,
        };
        let no = AtomicBool::new(false);
        let whole = super::super::run(&k, &cfg, |_: &[u8]| BigMoney, &no).stats;
        let dir = std::env::temp_dir().join(format!("domsim-ck-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("ck");
        let _ = std::fs::remove_file(&path);
        // Stop after 300 games: the checkpoint holds the first 3 batches of 100.
        let mut first = cfg;
        first.games = 300;
        let r = run(&k, &first, |_: &[u8]| BigMoney, &no, &path, "key", 100).unwrap();
        assert_eq!(r.saved, 300);
        // Resume with a different batch size: same totals.
        let r = run(&k, &cfg, |_: &[u8]| BigMoney, &no, &path, "key", 64).unwrap();
        assert_eq!(r.resumed_from, 300);
        assert_eq!(r.result.stats, whole);
        // Another run's checkpoint is refused.
        assert!(run(&k, &cfg, |_: &[u8]| BigMoney, &no, &path, "other", 64).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
