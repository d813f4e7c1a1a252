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
//! The file is plain text, one `key value` per line, ending with a
//! `digest` of everything before it (FNV-1a 64 of the canonical text, as
//! [`Checkpoint::to_text`] writes it: see [`crate::sim::shard::content_digest`]
//! for why this digest) and `end`: a checkpoint changed after it was
//! written, by damage or by hand, is refused ("damaged or edited") even when
//! its counts still fit together. It stays after the run completes (running
//! the same command again then plays nothing and prints the same result).

use super::runner::{play_block, Match};
use super::{DominionMatch, Plain, RunConfig, RunResult, Stats};
use crate::engine::{Bots, Kingdom, MAX_PLAYERS};
use crate::report::AtomicFile;
use anyhow::{anyhow, bail, Result};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

const MAGIC: &str = "domsim-checkpoint 3";

/// Default games per checkpoint batch.
pub const DEFAULT_EVERY: u64 = 1 << 20;

/// What a checkpoint file holds: the run's key, where it is, and the tally
/// of a game (Dominion's [`Stats`], or another game's counts).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint<T = Stats> {
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

fn one_line(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('\n', "\\n")
        .replace('\r', "\\r")
}

fn un_line(s: &str) -> String {
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

impl Saved for Stats {
    fn saved_games(&self) -> u64 {
        self.games
    }

    /// The players are those of the seats that were played (a checkpoint
    /// does not say them otherwise): [`Stats::check`] then holds them to one
    /// entrant per seat, every entrant in every game.
    fn check(&self) -> std::result::Result<(), String> {
        if self.games == 0 {
            return if *self == Stats::default() {
                Ok(())
            } else {
                Err("counts recorded for 0 games".into())
            };
        }
        let players = (0..MAX_PLAYERS)
            .filter(|&s| self.entrants.iter().any(|e| e.seat_games[s] > 0))
            .count();
        self.check(players.max(1))
    }

    fn check_games(&self, first: u64, games: u64) -> std::result::Result<(), String> {
        let players = (0..MAX_PLAYERS)
            .filter(|&s| self.entrants.iter().any(|e| e.seat_games[s] > 0))
            .count();
        if games == 0 {
            return Ok(());
        }
        super::shard::check_seating(self, players.max(1), first, games)
    }

    fn write_lines(&self, t: &mut String) {
        let s = self;
        t.push_str(&format!(
            "games {}\ntied_games {}\ncapped {}\nfaults {}\n",
            s.games, s.tied_games, s.capped, s.faults
        ));
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
    }

    fn read_line(&mut self, n: usize, k: &str, v: &str) -> Result<bool> {
        let num = |v: &str| -> Result<u64> {
            v.trim()
                .parse()
                .map_err(|_| anyhow!("line {n}: bad number '{v}'"))
        };
        let c = self;
        match k {
            "games" => c.games = num(v)?,
            "tied_games" => c.tied_games = num(v)?,
            "capped" => c.capped = num(v)?,
            "faults" => c.faults = num(v)?,
            "first_fault" => {
                let (i, f) = v.split_once(' ').unwrap_or((v, ""));
                c.first_fault = Some((num(i)?, un_line(f)));
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
                let e = &mut c.entrants[j];
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
                    c.rounds.0[r] = num(g)?;
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
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
pub struct Resumed<R = RunResult> {
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

/// A Dominion tally without a hook is its [`Stats`].
impl Saved for (Stats, ()) {
    fn saved_games(&self) -> u64 {
        self.0.games
    }
    fn write_lines(&self, out: &mut String) {
        self.0.write_lines(out)
    }
    fn read_line(&mut self, n: usize, key: &str, value: &str) -> Result<bool> {
        self.0.read_line(n, key, value)
    }
    fn check(&self) -> std::result::Result<(), String> {
        Saved::check(&self.0)
    }
    fn check_games(&self, first: u64, games: u64) -> std::result::Result<(), String> {
        self.0.check_games(first, games)
    }
}

/// Dominion's [`super::run`] with a checkpoint file ([`run_match`]).
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
    let m = DominionMatch::new(kingdom, make, &Plain);
    let r = run_match(&m, cfg, stop, path, key, every)?;
    Ok(Resumed {
        result: RunResult {
            stats: r.result.tally.0,
            completed: r.result.completed,
            interrupted: r.result.interrupted,
        },
        resumed_from: r.resumed_from,
        saved: r.saved,
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
        // Three 6-player games (counts that fit together: a checkpoint is
        // checked when read), with a negative VP sum, the last seat's
        // fields used, and a fault whose text needs escaping.
        let mut s = Stats::default();
        for g in 0..3u8 {
            let mut vp = [0; MAX_PLAYERS];
            vp[1] = -3;
            let o = crate::engine::Outcome {
                players: 6,
                vp,
                turns: [9 + g as u16; MAX_PLAYERS],
                winners: 1 << 5,
                capped: false,
            };
            // Seated as a run seats games 0, 1, 2 (a checkpoint is held
            // to the seat rotation).
            let order = crate::sim::seat_orders(6)[g as usize];
            s.record(&order, &o);
        }
        s.faults = 1;
        s.first_fault = Some((2, "a \\ b\nc".into()));
        assert_eq!(s.entrants[1].vp_sum, -9);
        assert_eq!(s.entrants[5].seat_units[5], 120);
        let c = Checkpoint {
            key: "seed 1\nx".into(),
            first: 0,
            next: 3,
            stats: s,
        };
        assert_eq!(
            Checkpoint::parse(&c.to_text(), Stats::default()).unwrap(),
            c
        );
        let t = c.to_text();
        assert!(
            Checkpoint::parse(&t[..t.len() - 4], Stats::default()).is_err(),
            "truncated"
        );
        // A shard's checkpoint keeps where it starts (game 720 = 6!: the
        // seat rotation starts over, so the same counts fit).
        let shard = Checkpoint {
            first: 720,
            next: 723,
            ..c.clone()
        };
        assert!(shard.to_text().contains("\nfirst 720\n"));
        assert_eq!(
            Checkpoint::parse(&shard.to_text(), Stats::default()).unwrap(),
            shard
        );
        // The same counts from game 10 on are not how a run seats them.
        let moved = Checkpoint {
            first: 10,
            next: 13,
            ..c.clone()
        };
        let e = Checkpoint::parse(&moved.to_text(), Stats::default()).unwrap_err();
        assert!(format!("{e}").contains("seat rotation"), "{e}");
        // Any edit the digest covers is refused; a byte-order mark is not one.
        let t = c.to_text();
        let edited = t.replace("\nnext 3\n", "\nnext 3 \n");
        assert_eq!(Checkpoint::parse(&edited, Stats::default()).unwrap(), c);
        let e =
            Checkpoint::parse(&t.replace("key seed", "key Seed"), Stats::default()).unwrap_err();
        assert!(format!("{e}").contains("damaged or edited"), "{e}");
        assert_eq!(
            Checkpoint::parse(&format!("\u{feff}{t}"), Stats::default()).unwrap(),
            c
        );
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
