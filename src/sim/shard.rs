//! Deterministic shards: one run cut into `N` slices of game indices, each
//! played anywhere (a Slurm array task, a Kubernetes indexed pod, another
//! laptop), each saved as a **partial** file of exact integer counts, then
//! merged into the very bytes a one-machine run writes.
//!
//! * `--shard I/N` (1-based) plays the games with indices
//!   `⌊(I−1)·G/N⌋ .. ⌊I·G/N⌋` of a `G`-game run (for `matrix`, that slice of
//!   every pair). Game `i` is dealt from `(seed, i)` and seated by `i`
//!   alone, so the union of the shards is exactly the one-machine run.
//! * A partial file (JSON, `format: domsim-partial-2`) carries the full run
//!   key — the output's metadata (version, command, seed, kingdom, players),
//!   the entrants with their file hashes, the games asked — its shard
//!   number, its slice, its counts, and a `digest` of all of these
//!   ([`content_digest`]): a part whose content was changed after it was
//!   written, by damage or by hand, is refused ("damaged or edited") even
//!   when its sums still look plausible. Parts of the previous format
//!   (`domsim-partial-1`, no digest) are refused with a message saying so.
//! * `domsim merge` refuses parts of different runs, a shard given twice, a
//!   missing shard or a part whose counts do not cover its slice, then adds
//!   the counts (integers: the order does not matter) and writes the outputs
//!   through the same functions as the one-machine run: byte-identical.

use crate::dominion::matches::{check_seating, EntrantStats, Stats};
use crate::engine::kingdom::MIN_PLAYERS;
use crate::engine::MAX_PLAYERS;
use crate::report::{EntrantInfo, Meta};
use crate::Card;
use anyhow::{anyhow, bail, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Format tag of partial files.
pub const FORMAT: &str = "domsim-partial-2";

/// The format tag of partial files without a digest (refused).
const FORMAT_1: &str = "domsim-partial-1";

/// The digest of a partial's content (16 hex digits): FNV-1a 64
/// ([`crate::digest`]) over its canonical form, the compact JSON of every
/// field but the digest, in the struct's order (so a part re-indented or
/// re-saved by a JSON tool still matches, and any change of a value does
/// not). FNV-1a changes with any one changed byte; two edits that cancel
/// out are a 2^-64 chance. Like any digest without a secret key it tells
/// damage and edits apart from the run's own output, it does not resist
/// forgery (whoever edits a part can compute its digest again): a
/// cryptographic hash would add nothing here but a dependency.
pub fn content_digest(p: &Partial) -> Result<String> {
    Ok(crate::digest::hex(&serde_json::to_vec(p)?))
}

/// The bytes of a part file (a Dominion [`Partial`], a New Salem part):
/// the fields of `p` as pretty JSON, then `digest`, the digest of their
/// compact JSON ([`content_digest`]'s rule).
pub fn json_with_digest<T: Serialize>(p: &T) -> Result<Vec<u8>> {
    let mut v = serde_json::to_value(p)?;
    if let serde_json::Value::Object(m) = &mut v {
        m.insert(
            "digest".into(),
            crate::digest::hex(&serde_json::to_vec(p)?).into(),
        );
    }
    let mut v = serde_json::to_vec_pretty(&v)?;
    v.push(b'\n');
    Ok(v)
}

/// The most shards a run may be cut into (`--shard I/N`: N ≤ this).
pub const MAX_SHARDS: u64 = 100_000;

/// The most games a partial may claim (per run, pair or table; for a sweep,
/// per strategy and kingdom): 2^48, centuries of simulation, and small
/// enough that no sum the outputs form (win units, seat totals, a sweep
/// strategy's pairs) can overflow.
pub const MAX_GAMES: u64 = 1 << 48;

/// `--shard I/N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardSpec {
    /// 1-based.
    pub index: u64,
    pub count: u64,
}

impl ShardSpec {
    /// Parse `I/N` with 1 ≤ I ≤ N ≤ 100000.
    pub fn parse(s: &str) -> std::result::Result<ShardSpec, String> {
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| format!("'{s}' is not I/N (e.g. 3/8: the third of 8 shards)"))?;
        let num = |x: &str| {
            x.trim()
                .parse::<u64>()
                .map_err(|_| format!("'{s}' is not I/N: '{x}' is not a whole number"))
        };
        let (index, count) = (num(i)?, num(n)?);
        if count == 0 || count > MAX_SHARDS {
            return Err(format!("'{s}': the shard count must be 1 to {MAX_SHARDS}"));
        }
        if index == 0 || index > count {
            return Err(format!(
                "'{s}': shards are numbered 1 to {count} (got {index})"
            ));
        }
        Ok(ShardSpec { index, count })
    }

    /// The slice `(first, len)` of `0..games` this shard plays.
    pub fn range(&self, games: u64) -> (u64, u64) {
        let at = |k: u64| ((k as u128 * games as u128) / self.count as u128) as u64;
        let (a, b) = (at(self.index - 1), at(self.index));
        (a, b - a)
    }
}

/// What identifies a run: everything its outputs show besides the counts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunKey {
    /// The verb (`sim`, `matrix`).
    pub verb: String,
    /// The output's metadata up to the game counts (version, command, seed,
    /// kingdom, kingdom source, players).
    pub meta: Meta,
    pub entrants: Vec<EntrantInfo>,
    /// Games of the whole run (per pair for `matrix`; kingdoms for `sweep`).
    pub games: u64,
}

/// The counts of one shard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Counts {
    Sim(Box<Stats>),
    /// `cells[i][j]`: entrant `i` against `j` (None on the diagonal).
    Matrix(Vec<Vec<Option<EntrantStats>>>),
    /// The kingdoms of a sweep's slice (`RunKey::games` counts kingdoms).
    Sweep(Vec<crate::dominion::sweep::SweepKingdom>),
    /// The tables of a `rank` run: every table of every kingdom, each with
    /// the games of the slice (`RunKey::games` counts games per table).
    Tables(Box<RankTables>),
    /// A `compare` run's exact paired sums over the slice's games, each
    /// played with variant A and with variant B (`RunKey::games` counts
    /// games per variant).
    Compare(Box<crate::playtest::Pairing>),
}

/// The games of a `rank` run, table by table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RankTables {
    pub players: u8,
    /// The kingdoms, described (one, or those of `--kingdoms`/`--random-kingdoms`).
    pub kingdoms: Vec<String>,
    pub tables: Vec<TableStats>,
}

/// One table in one kingdom: its members (entrant indices; entrant `m` of
/// `stats` is `members[m]`) and its results.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableStats {
    pub kingdom: u32,
    pub members: Vec<u8>,
    pub stats: Stats,
}

/// A partial result file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Partial {
    pub format: String,
    pub key: RunKey,
    pub shard: ShardSpec,
    /// The slice played: games `first..first + games`.
    pub first: u64,
    pub games: u64,
    pub counts: Counts,
}

impl Partial {
    pub fn new(key: RunKey, shard: ShardSpec, counts: Counts) -> Partial {
        let (first, games) = shard.range(key.games);
        Partial {
            format: FORMAT.into(),
            key,
            shard,
            first,
            games,
            counts,
        }
    }

    /// The partial file's bytes: its fields, then `digest`
    /// ([`content_digest`]).
    pub fn to_json(&self) -> Result<Vec<u8>> {
        json_with_digest(self)
    }

    /// Load a partial file (bounded read, a leading byte-order mark
    /// skipped, format checked, every field checked against the others,
    /// then the digest).
    pub fn load(path: &Path) -> Result<Partial> {
        let text = crate::output::read_input(path, "partial file")?;
        Partial::from_json(&text).map_err(|e| anyhow!("{}: {e}", path.display()))
    }

    /// [`Partial::load`] of a partial file's text.
    pub fn from_json(text: &str) -> Result<Partial> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut v: serde_json::Value =
            serde_json::from_str(text).map_err(|e| anyhow!("not a domsim partial file: {e}"))?;
        let Some(format) = v.get("format").and_then(|f| f.as_str()) else {
            bail!("not a domsim partial file (it has no \"format\" field)");
        };
        if format == FORMAT_1 {
            bail!("format '{FORMAT_1}' was written by an older domsim, without the digest that shows a part is as its run wrote it: run the shard again with this domsim");
        }
        if format != FORMAT {
            bail!("format '{format}' is not {FORMAT} (written by another domsim version?)");
        }
        let digest = match v.as_object_mut().and_then(|m| m.remove("digest")) {
            Some(serde_json::Value::String(d)) => Some(d),
            _ => None,
        };
        let p: Partial =
            serde_json::from_value(v).map_err(|e| anyhow!("not a domsim partial file: {e}"))?;
        // The fields first, so that a damaged field is named; then the
        // digest, which refuses any other change.
        p.check()?;
        match digest {
            None => bail!("damaged or edited: it has no digest (a {FORMAT} part always has one); run the shard again"),
            Some(d) if d != content_digest(&p)? => bail!(
                "damaged or edited: its content does not match its digest {d} (a part must be merged as its run wrote it); run the shard again"
            ),
            Some(_) => Ok(p),
        }
    }

    /// Check every field against the others and against the limits, so
    /// that a damaged or hand-edited file is refused here, with the field
    /// named, instead of panicking or giving wrong numbers later: the shard
    /// number, its slice, the players, the strategies, and counts that fit
    /// the games they claim.
    pub fn check(&self) -> Result<()> {
        let ShardSpec { index, count } = self.shard;
        if count == 0 || count > MAX_SHARDS {
            bail!("shard.count {count} is not a shard count (1 to {MAX_SHARDS})");
        }
        if index == 0 || index > count {
            bail!("shard.index {index} is not a shard of {count} (they are numbered 1 to {count})");
        }
        if self.key.games > MAX_GAMES {
            bail!(
                "key.games {} is more than a run can play ({MAX_GAMES})",
                self.key.games
            );
        }
        let (first, games) = self.shard.range(self.key.games);
        if (self.first, self.games) != (first, games) {
            bail!(
                "shard {index}/{count} should hold games {first}.. ({games} games), not {}.. ({})",
                self.first,
                self.games
            );
        }
        let n = self.key.entrants.len();
        if n == 0 {
            bail!("key.entrants is empty (a run has at least one strategy)");
        }
        self.key
            .meta
            .check("key.meta")
            .map_err(|e| anyhow!("{e}"))?;
        for (i, e) in self.key.entrants.iter().enumerate() {
            check_entrant(e).map_err(|e| anyhow!("key.entrants[{i}]: {e}"))?;
        }
        let players = (self.key.meta.get("players"))
            .and_then(|v| v.parse::<usize>().ok())
            .ok_or_else(|| anyhow!("key.meta has no 'players' number"))?;
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
            bail!(
                "key.meta players {players} is not a player count ({MIN_PLAYERS} to {MAX_PLAYERS})"
            );
        }
        let verb = self.key.verb.as_str();
        match (&self.counts, verb) {
            (Counts::Sim(s), "sim") => {
                if n != players {
                    bail!("key.entrants has {n} strategies but the run has {players} players (one strategy per seat)");
                }
                s.check(players).map_err(|e| anyhow!("counts.Sim: {e}"))?;
                check_seating(s, players, self.first, self.games)
                    .map_err(|e| anyhow!("counts.Sim: {e}"))?;
            }
            (Counts::Matrix(cells), "matrix") => {
                if players != 2 {
                    bail!("key.meta players {players}: a matrix plays 2-player games");
                }
                check_cells(cells, n, None).map_err(|e| anyhow!("counts.Matrix: {e}"))?;
            }
            (Counts::Sweep(ks), "sweep") => {
                if players != 2 {
                    bail!("key.meta players {players}: a sweep plays 2-player games");
                }
                let per_pair = (self.key.meta.get("games_per_pair"))
                    .and_then(|v| v.parse::<u64>().ok())
                    .ok_or_else(|| anyhow!("key.meta has no 'games_per_pair' number"))?;
                if per_pair.saturating_mul(n.saturating_sub(1).max(1) as u64) > MAX_GAMES {
                    bail!("key.meta games_per_pair {per_pair} is more than {n} strategies can play ({MAX_GAMES} games each)");
                }
                let known = KnownCards::of(&self.key.meta);
                for (j, k) in ks.iter().enumerate() {
                    let at = |e: String| anyhow!("counts.Sweep[{j}]: {e}");
                    check_cells(&k.cells, n, Some(per_pair))
                        .map_err(|e| at(format!("cells: {e}")))?;
                    if k.ignored.len() != n {
                        return Err(at(format!(
                            "ignored has {} entries for {n} strategies",
                            k.ignored.len()
                        )));
                    }
                    known
                        .check(&k.cards)
                        .map_err(|e| at(format!("cards: {e}")))?;
                }
            }
            (Counts::Tables(t), "rank") => {
                let p = t.players as usize;
                if p != players {
                    bail!("counts.Tables.players {p} is not the key's players {players}");
                }
                if n < p {
                    bail!("key.entrants has {n} strategies, fewer than the {p} players of a table");
                }
                if t.kingdoms.is_empty() {
                    bail!("counts.Tables.kingdoms is empty");
                }
                if t.tables.is_empty() {
                    bail!("counts.Tables.tables is empty");
                }
                let known = KnownCards::of(&self.key.meta);
                for (j, k) in t.kingdoms.iter().enumerate() {
                    let cards: Vec<String> = k.split(", ").map(str::to_string).collect();
                    known
                        .check(&cards)
                        .map_err(|e| anyhow!("counts.Tables.kingdoms[{j}]: {e}"))?;
                }
                for (j, x) in t.tables.iter().enumerate() {
                    let at = |e: String| anyhow!("counts.Tables.tables[{j}]: {e}");
                    if x.members.len() != p {
                        return Err(at(format!("{} members at a table of {p}", x.members.len())));
                    }
                    if let Some(m) = x.members.iter().find(|&&m| m as usize >= n) {
                        return Err(at(format!("member {m} is not one of the {n} strategies")));
                    }
                    let mut sorted = x.members.clone();
                    sorted.sort_unstable();
                    sorted.dedup();
                    if sorted.len() != p {
                        return Err(at("a strategy sits twice at the table".into()));
                    }
                    if x.kingdom as usize >= t.kingdoms.len() {
                        return Err(at(format!(
                            "kingdom {} is not one of the {} kingdoms",
                            x.kingdom,
                            t.kingdoms.len()
                        )));
                    }
                    x.stats.check(p).map_err(|e| at(format!("stats: {e}")))?;
                    check_seating(&x.stats, p, self.first, x.stats.games)
                        .map_err(|e| at(format!("stats: {e}")))?;
                }
            }
            (Counts::Compare(p), "compare") => {
                if n != players {
                    bail!("key.entrants has {n} strategies but the run has {players} players (one strategy per seat)");
                }
                let names: Vec<String> = self.key.entrants.iter().map(|e| e.name.clone()).collect();
                p.check(&names, self.games)
                    .map_err(|e| anyhow!("counts.Compare: {e}"))?;
            }
            (c, _) => {
                let kind = match c {
                    Counts::Sim(_) => "Sim",
                    Counts::Matrix(_) => "Matrix",
                    Counts::Sweep(_) => "Sweep",
                    Counts::Tables(_) => "Tables",
                    Counts::Compare(_) => "Compare",
                };
                bail!("key.verb '{verb}' does not go with counts of kind {kind}");
            }
        }
        let counted = self.counted()?;
        if counted != self.games {
            bail!(
                "shard {index}/{count} counts {counted} of its {} games (an interrupted shard? run it again)",
                self.games
            );
        }
        Ok(())
    }

    /// Games the counts cover.
    fn counted(&self) -> Result<u64> {
        match &self.counts {
            Counts::Sim(s) => Ok(s.games),
            Counts::Compare(p) => Ok(p.games()),
            Counts::Matrix(cells) => {
                // Every pair must have played the slice.
                let n = self.key.entrants.len();
                if cells.len() != n || cells.iter().any(|r| r.len() != n) {
                    bail!("the matrix is not {n}×{n}");
                }
                let mut g = None;
                for (i, row) in cells.iter().enumerate() {
                    for (j, c) in row.iter().enumerate() {
                        match (i == j, c) {
                            (true, None) => {}
                            (false, Some(s)) => {
                                if g.is_some_and(|g| g != s.games) {
                                    bail!("pairs with different game counts");
                                }
                                g = Some(s.games);
                            }
                            _ => bail!("cell {i},{j} is malformed"),
                        }
                    }
                }
                Ok(g.unwrap_or(0))
            }
            Counts::Tables(t) => {
                let n = self.key.entrants.len();
                if let Some(d) = RandomKingdoms::of(&self.key.meta)? {
                    for (k, cards) in t.kingdoms.iter().enumerate() {
                        let cards: Vec<String> = cards.split(", ").map(String::from).collect();
                        d.check(k as u64, &cards)
                            .map_err(|e| anyhow!("counts.Tables.kingdoms[{k}]: {e}"))?;
                    }
                }
                let mut g = None;
                for (j, x) in t.tables.iter().enumerate() {
                    if x.members.len() != t.players as usize
                        || x.members.iter().any(|&m| m as usize >= n)
                        || x.kingdom as usize >= t.kingdoms.len()
                    {
                        bail!("table {j} is malformed");
                    }
                    if g.is_some_and(|g| g != x.stats.games) {
                        bail!("tables with different game counts");
                    }
                    g = Some(x.stats.games);
                }
                Ok(g.unwrap_or(0))
            }
            Counts::Sweep(ks) => {
                let drawn = RandomKingdoms::of(&self.key.meta)?;
                for (j, k) in ks.iter().enumerate() {
                    if k.index != self.first + j as u64 {
                        bail!(
                            "counts.Sweep[{j}].index {} is not kingdom {} of the slice",
                            k.index,
                            self.first + j as u64
                        );
                    }
                    if let Some(d) = &drawn {
                        d.check(k.index, &k.cards)
                            .map_err(|e| anyhow!("counts.Sweep[{j}]: cards: {e}"))?;
                    }
                }
                Ok(ks.len() as u64)
            }
        }
    }
}

/// Check a strategy of a run's key as a run writes it: a name (a
/// strategy's `name:` or its file's name: never empty), a source (a file
/// or `builtin:NAME`) and the hash of the file, 16 hexadecimal digits
/// (empty for a built-in).
fn check_entrant(e: &EntrantInfo) -> std::result::Result<(), String> {
    if e.name.trim().is_empty() {
        return Err("the strategy name is empty".into());
    }
    if e.source.is_empty() {
        return Err(format!("strategy '{}' has no source", e.name));
    }
    let builtin = e.source.starts_with("builtin:");
    let hex = e.hash.len() == 16 && e.hash.bytes().all(|b| b.is_ascii_hexdigit());
    if !(hex || builtin && e.hash.is_empty()) {
        return Err(format!(
            "hash {:?} of strategy '{}' is not 16 hexadecimal digits",
            e.hash, e.name
        ));
    }
    Ok(())
}

/// Check an `n`×`n` matrix of 2-player pairs: nothing on the diagonal,
/// every other cell the counts of games with 2 seats, `i` against `j` the
/// same games as `j` against `i` (and `per_pair` games, when given).
fn check_cells(
    cells: &[Vec<Option<EntrantStats>>],
    n: usize,
    per_pair: Option<u64>,
) -> std::result::Result<(), String> {
    if cells.len() != n || cells.iter().any(|r| r.len() != n) {
        return Err(format!("not {n}×{n} for {n} strategies"));
    }
    for (i, row) in cells.iter().enumerate() {
        for (j, c) in row.iter().enumerate() {
            match (i == j, c) {
                (true, None) => {}
                (false, Some(s)) => {
                    s.check(2).map_err(|e| format!("[{i}][{j}]: {e}"))?;
                    let back = cells[j][i].map_or(0, |b| b.games);
                    if s.games != back {
                        return Err(format!(
                            "[{i}][{j}] has {} games but [{j}][{i}] has {back}",
                            s.games
                        ));
                    }
                    if per_pair.is_some_and(|g| g != s.games) {
                        return Err(format!(
                            "[{i}][{j}] has {} games, not the {} per pair",
                            s.games,
                            per_pair.unwrap_or(0)
                        ));
                    }
                }
                _ => return Err(format!("[{i}][{j}] is malformed")),
            }
        }
    }
    Ok(())
}

/// The card names a partial may show: the cards this domsim knows, and the
/// data cards its run bound (named in its `data_cards` metadata).
struct KnownCards(Vec<String>);

impl KnownCards {
    fn of(meta: &Meta) -> KnownCards {
        use crate::cards::data::DataCard;
        KnownCards(
            meta.get("data_cards")
                .map(|v| {
                    v.split(" ; ")
                        .map(|sig| DataCard::name_of_signature(sig).to_string())
                        .collect()
                })
                .unwrap_or_default(),
        )
    }

    fn check(&self, cards: &[String]) -> std::result::Result<(), String> {
        if cards.is_empty() {
            return Err("no cards".into());
        }
        for (i, c) in cards.iter().enumerate() {
            if Card::from_name(c).is_none() && !self.0.contains(c) {
                return Err(format!("unknown card '{c}'"));
            }
            if cards[..i].contains(c) {
                return Err(format!("'{c}' is given twice"));
            }
        }
        Ok(())
    }
}

/// The error of counts whose sum does not fit.
fn overflow(name: &str) -> anyhow::Error {
    anyhow!("{name}: its counts added to the other parts' overflow (a damaged file?)")
}

/// Check that the shards of `parts` (each named for messages) are every
/// shard of one `--shard I/N` run, once each: the same N (the first part's),
/// no shard twice, none missing (at most 20 listed). Each part's own index
/// is already checked to lie in `1..=N`. Shared by every merge (Dominion's
/// and New Salem's), whose callers compare the runs' keys themselves.
pub fn check_shard_set<'a>(parts: impl IntoIterator<Item = (&'a str, ShardSpec)>) -> Result<()> {
    let mut parts = parts.into_iter().peekable();
    let Some(&(first_name, first)) = parts.peek() else {
        bail!("no partial file given");
    };
    let n = first.count;
    let mut seen: Vec<Option<&str>> = vec![None; n as usize];
    for (name, shard) in parts {
        if shard.count != n {
            bail!(
                "{name} is shard {}/{} but {first_name} is one of {n} shards",
                shard.index,
                shard.count
            );
        }
        let Some(slot) = seen.get_mut((shard.index as usize).wrapping_sub(1)) else {
            bail!("{name}: shard {}/{n} is outside 1..={n}", shard.index);
        };
        if let Some(other) = slot {
            bail!(
                "shard {}/{n} is given twice: {other} and {name}",
                shard.index
            );
        }
        *slot = Some(name);
    }
    let missing: Vec<String> = seen
        .iter()
        .enumerate()
        .filter(|(_, s)| s.is_none())
        .map(|(i, _)| format!("{}/{n}", i + 1))
        .collect();
    let listed = if missing.len() > 20 {
        format!("{}, …", missing[..20].join(", "))
    } else {
        missing.join(", ")
    };
    if !missing.is_empty() {
        bail!(
            "{} shard(s) missing: {} (run them with --shard and merge every part)",
            missing.len(),
            listed
        );
    }
    Ok(())
}

/// Check that `parts` are all the shards of one run, exactly once each, and
/// add their counts. Paths name the files in messages.
pub fn merge(parts: &[(String, Partial)]) -> Result<(RunKey, Counts)> {
    let Some((first_name, first)) = parts.first() else {
        bail!("no partial file given");
    };
    // Each part checked alone first: its shard number indexes `seen`.
    for (name, p) in parts {
        p.check().map_err(|e| anyhow!("{name}: {e}"))?;
    }
    for (name, p) in parts {
        if p.key != first.key {
            let why = if p.key.verb != first.key.verb {
                format!("verb '{}' vs '{}'", p.key.verb, first.key.verb)
            } else if p.key.entrants != first.key.entrants {
                "different strategies (names, files or file contents)".to_string()
            } else if p.key.games != first.key.games {
                format!("{} games vs {}", p.key.games, first.key.games)
            } else {
                let diff = p
                    .key
                    .meta
                    .0
                    .iter()
                    .zip(&first.key.meta.0)
                    .find(|(a, b)| a != b)
                    .map(|(a, b)| format!("{}: '{}' vs '{}'", a.0, a.1, b.1))
                    .unwrap_or_else(|| "different metadata".into());
                diff
            };
            bail!("{name} and {first_name} belong to different runs ({why})");
        }
    }
    check_shard_set(parts.iter().map(|(name, p)| (name.as_str(), p.shard)))?;
    let counts = match &first.counts {
        Counts::Sim(_) => {
            let mut total = Stats::default();
            for (name, p) in parts {
                let Counts::Sim(s) = &p.counts else {
                    bail!("{name}: not a sim partial");
                };
                total = total.checked_merge(s).ok_or_else(|| overflow(name))?;
            }
            Counts::Sim(Box::new(total))
        }
        Counts::Compare(_) => {
            let mut total: Option<crate::playtest::Pairing> = None;
            for (name, p) in parts {
                let Counts::Compare(c) = &p.counts else {
                    bail!("{name}: not a compare partial");
                };
                total = Some(match total {
                    None => (**c).clone(),
                    Some(t) => t.checked_merge(c).ok_or_else(|| overflow(name))?,
                });
            }
            Counts::Compare(Box::new(
                total.ok_or_else(|| anyhow!("no partial file given"))?,
            ))
        }
        Counts::Matrix(m) => {
            let mut total: Vec<Vec<Option<EntrantStats>>> = m
                .iter()
                .map(|r| {
                    r.iter()
                        .map(|c| c.map(|_| EntrantStats::default()))
                        .collect()
                })
                .collect();
            for (name, p) in parts {
                let Counts::Matrix(m) = &p.counts else {
                    bail!("{name}: not a matrix partial");
                };
                for (tr, r) in total.iter_mut().zip(m) {
                    for (t, c) in tr.iter_mut().zip(r) {
                        if let (Some(t), Some(c)) = (t.as_mut(), c) {
                            *t = t.checked_merge(c).ok_or_else(|| overflow(name))?;
                        }
                    }
                }
            }
            Counts::Matrix(total)
        }
        Counts::Tables(first_t) => {
            let mut total = (**first_t).clone();
            for x in &mut total.tables {
                x.stats = Stats::default();
            }
            for (name, p) in parts {
                let Counts::Tables(t) = &p.counts else {
                    bail!("{name}: not a rank partial");
                };
                if t.kingdoms != total.kingdoms
                    || t.players != total.players
                    || t.tables.len() != total.tables.len()
                    || t.tables
                        .iter()
                        .zip(&total.tables)
                        .any(|(a, b)| a.members != b.members || a.kingdom != b.kingdom)
                {
                    bail!("{name}: its tables are not those of {first_name}");
                }
                for (a, b) in total.tables.iter_mut().zip(&t.tables) {
                    a.stats = std::mem::take(&mut a.stats)
                        .checked_merge(&b.stats)
                        .ok_or_else(|| overflow(name))?;
                }
            }
            Counts::Tables(Box::new(total))
        }
        Counts::Sweep(_) => {
            let mut all = Vec::new();
            for (name, p) in parts {
                let Counts::Sweep(ks) = &p.counts else {
                    bail!("{name}: not a sweep partial");
                };
                all.extend(ks.iter().cloned());
            }
            all.sort_by_key(|k| k.index);
            Counts::Sweep(all)
        }
    };
    Ok((first.key.clone(), counts))
}

/// The kingdoms of a `sweep --random N` or a `rank --random-kingdoms N`:
/// kingdom `k` is drawn from `(seed, k)` alone, so a part's card list can
/// be drawn again and compared (a hand-edited list used to be merged as
/// is).
struct RandomKingdoms {
    sets: Vec<crate::cards::Set>,
    seed: u64,
}

impl RandomKingdoms {
    /// From the key's `kingdoms: random sets=S count=N` (None for a
    /// kingdoms file).
    fn of(meta: &Meta) -> Result<Option<RandomKingdoms>> {
        let Some(how) = meta.get("kingdoms") else {
            return Ok(None);
        };
        let Some(sets) = crate::dominion::kingdoms::KingdomList::random_sets(how) else {
            return Ok(None);
        };
        let sets = crate::engine::Kingdom::parse_sets(sets)
            .map_err(|e| anyhow!("key.meta kingdoms '{how}': {e}"))?;
        let seed = meta
            .get("seed")
            .and_then(|v| v.parse::<u64>().ok())
            .ok_or_else(|| anyhow!("key.meta has no 'seed' number"))?;
        Ok(Some(RandomKingdoms { sets, seed }))
    }

    fn check(&self, index: u64, cards: &[String]) -> Result<(), String> {
        let k = crate::engine::Kingdom::random(
            2,
            &self.sets,
            crate::dominion::kingdoms::kingdom_seed(self.seed, index),
        )
        .map_err(|e| format!("kingdom {index} cannot be drawn again: {e}"))?;
        let want: Vec<&str> = k.kingdom_cards().iter().map(|c| c.name()).collect();
        if want != cards.iter().map(String::as_str).collect::<Vec<_>>() {
            return Err(format!(
                "not kingdom {index} of the run's seed ({})",
                want.join(", ")
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_partition_the_games() {
        for games in [0u64, 1, 7, 100, 1001] {
            for n in [1u64, 2, 3, 7, 8] {
                let mut next = 0;
                for i in 1..=n {
                    let (a, len) = ShardSpec { index: i, count: n }.range(games);
                    assert_eq!(a, next);
                    next = a + len;
                }
                assert_eq!(next, games);
            }
        }
    }

    #[test]
    fn spec_parsing() {
        assert_eq!(
            ShardSpec::parse("3/8"),
            Ok(ShardSpec { index: 3, count: 8 })
        );
        for bad in ["0/8", "9/8", "3", "a/8", "1/0", "-1/2"] {
            assert!(ShardSpec::parse(bad).is_err(), "{bad}");
        }
    }
}
