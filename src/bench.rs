//! `domsim bench`: the throughput suite, so anyone can measure their own
//! machine the way the project measures it.
//!
//! Every workload plays whole games between the shipped strategy files
//! (found by [`lineup::shipped`], so the binary works from any directory of
//! its source tree) through the simulator's real runner ([`matches::run`]: seat
//! rotation, compiled strategies, statistics), once per thread count: 1
//! thread, then 2, then every core when the machine has more. Each run must
//! complete every game with no illegal answer and no game at the turn cap,
//! and give statistics identical to the other thread counts' (the runner is
//! deterministic); a failure is reported with exit status 1.
//!
//! The result is a Markdown table (and with `-o` the same data as CSV,
//! written atomically): wall seconds, process CPU seconds (Linux:
//! `/proc/self/stat`), games/s, games/s per thread and the speed-up over
//! 1 thread. Nothing here runs inside a game: allocation is of no concern.

use crate::cards::normalize;
use crate::dominion::lineup::{self, CompiledLineup, Lineup};
use crate::dominion::matches::{self, Stats};
use crate::dominion::presets::Preset;
use crate::engine::Kingdom;
use crate::report::{AtomicFile, Meta};
use crate::sim::{self, RunConfig};
use crate::{out, outln};
use anyhow::{anyhow, bail, Result};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Exit status of a workload whose games did not do what they must (a
/// fault, an unfinished game, results depending on the thread count).
const EXIT_FAILED: u8 = 1;
/// Exit status of an interrupted run (128 + SIGINT), as for `sim`.
const EXIT_INTERRUPTED: u8 = 130;

/// `--quick` divides every game count by this (a few seconds in all).
pub const QUICK_DIVISOR: f64 = 50.0;
/// Largest `--scale`.
pub const MAX_SCALE: f64 = 1e6;
/// Largest thread count (as `sim -j`).
pub const MAX_THREADS: usize = 1024;

/// How a workload's kingdom is chosen.
#[derive(Clone, Copy, Debug)]
pub enum KingdomSpec {
    /// A rulebook preset, by name.
    Preset(&'static str),
    /// The 10 Kingdom cards.
    Cards(&'static [&'static str]),
}

/// One benchmark workload: shipped strategy files (one per seat) on a
/// kingdom, and how many games the default run plays.
#[derive(Clone, Copy, Debug)]
pub struct Workload {
    pub name: &'static str,
    pub kingdom: KingdomSpec,
    /// Files in `strategies/`, one per seat (the runner rotates seats).
    pub files: &'static [&'static str],
    /// Games of the default run: about 5 s on one thread of the 2-core
    /// machine the suite was tuned on, so the default suite (1 then 2
    /// threads) takes about a minute there.
    pub games: u64,
    /// A New Salem workload (on the built-in sample data; `kingdom` and
    /// `files` unused) instead of Dominion.
    pub salem: Option<SalemField>,
}

/// A New Salem workload's table.
#[derive(Clone, Copy, Debug)]
pub struct SalemField {
    pub players: usize,
    /// Shipped bots by file name (one drawn per chair, as `salem sim` draws
    /// them); empty: the six default bots. Bots that learn from their
    /// field (`learn = "field"`) learn before the clock starts, as `salem
    /// sim` does before its games.
    pub bots: &'static [&'static str],
}

impl Workload {
    pub fn players(&self) -> usize {
        self.salem.as_ref().map_or(self.files.len(), |f| f.players)
    }

    fn kingdom(&self) -> Result<Kingdom> {
        match self.kingdom {
            KingdomSpec::Preset(name) => Ok(Preset::find(name)
                .map_err(|e| anyhow!("{e}"))?
                .kingdom(self.players())
                .map_err(|e| anyhow!("{e}"))?),
            KingdomSpec::Cards(cards) => {
                Kingdom::from_names(self.players(), cards).map_err(|e| anyhow!("{e}"))
            }
        }
    }
}

/// The money kingdom of the Double Witch workload (shared with `benches/games.rs`).
pub const MONEY_KINGDOM: &[&str] = &[
    "Witch",
    "Smithy",
    "Militia",
    "Moneylender",
    "Laboratory",
    "Council Room",
    "Library",
    "Chapel",
    "Workshop",
    "Gardens",
];

/// The engine kingdom of the Village/Smithy workload (shared with `benches/games.rs`).
pub const ENGINE_KINGDOM: &[&str] = &[
    "Village",
    "Smithy",
    "Throne Room",
    "Market",
    "Witch",
    "Militia",
    "Chapel",
    "Laboratory",
    "Moat",
    "Cellar",
];

/// Every Kingdom card from Dark Ages: Ruins, on-trash abilities, Shelters
/// (shared with `benches/games.rs`).
pub const DARK_AGES_KINGDOM: &[&str] = &[
    "Cultist",
    "Rebuild",
    "Armory",
    "Catacombs",
    "Forager",
    "Fortress",
    "Hunting Grounds",
    "Market Square",
    "Procession",
    "Squire",
];

/// The 4-player table (shared with `benches/games.rs`): seats alternate.
pub const FOUR_PLAYERS: &[&str] = &[
    "big_money.dom",
    "smithy_big_money.dom",
    "big_money.dom",
    "smithy_big_money.dom",
];

/// The 6-player table (shared with `benches/games.rs`).
pub const SIX_PLAYERS: &[&str] = &[
    "big_money.dom",
    "smithy_big_money.dom",
    "big_money_ultimate.dom",
    "big_money.dom",
    "smithy_big_money.dom",
    "big_money_ultimate.dom",
];

/// The standard suite, in the order it runs.
pub static WORKLOADS: [Workload; 11] = [
    Workload {
        name: "Big Money mirror",
        kingdom: KingdomSpec::Preset("First Game"),
        files: &["big_money.dom", "big_money.dom"],
        games: 1_500_000,
        salem: None,
    },
    Workload {
        name: "Smithy BM vs BM Ultimate",
        kingdom: KingdomSpec::Preset("First Game"),
        files: &["smithy_big_money.dom", "big_money_ultimate.dom"],
        games: 500_000,
        salem: None,
    },
    Workload {
        name: "Smithy BM vs BMU (HiveMind rules)",
        kingdom: KingdomSpec::Preset("First Game"),
        files: &["hivemind_smithy_bm.dom", "hivemind_bmu.dom"],
        games: 500_000,
        salem: None,
    },
    Workload {
        name: "Double Witch mirror",
        kingdom: KingdomSpec::Cards(MONEY_KINGDOM),
        files: &["double_witch.dom", "double_witch.dom"],
        games: 600_000,
        salem: None,
    },
    Workload {
        name: "Village/Smithy engine mirror",
        kingdom: KingdomSpec::Cards(ENGINE_KINGDOM),
        files: &["village_smithy.dom", "village_smithy.dom"],
        games: 350_000,
        salem: None,
    },
    Workload {
        name: "Masquerade BM mirror",
        kingdom: KingdomSpec::Preset("Victory Dance"),
        files: &["masquerade_big_money.dom", "masquerade_big_money.dom"],
        games: 400_000,
        salem: None,
    },
    Workload {
        name: "Cultist vs Rebuild (Dark Ages)",
        kingdom: KingdomSpec::Cards(DARK_AGES_KINGDOM),
        files: &["cultist.dom", "rebuild.dom"],
        games: 500_000,
        salem: None,
    },
    Workload {
        name: "4 players (2 BM + 2 Smithy BM)",
        kingdom: KingdomSpec::Preset("First Game"),
        files: FOUR_PLAYERS,
        games: 600_000,
        salem: None,
    },
    Workload {
        name: "6 players (2 BM + 2 Smithy BM + 2 BMU)",
        kingdom: KingdomSpec::Preset("First Game"),
        files: SIX_PLAYERS,
        games: 400_000,
        salem: None,
    },
    Workload {
        name: "New Salem, 5 players (shipped bots)",
        kingdom: KingdomSpec::Preset("First Game"),
        files: &[],
        games: 500_000,
        salem: Some(SalemField {
            players: 5,
            bots: &[],
        }),
    },
    Workload {
        name: "New Salem, 5 players (deducer, sly_witch)",
        kingdom: KingdomSpec::Preset("First Game"),
        files: &[],
        games: 500_000,
        salem: Some(SalemField {
            players: 5,
            bots: &["deducer.salem", "sly_witch.salem"],
        }),
    },
];

/// A list of thread counts (`--threads 1,2,4`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadList(pub Vec<usize>);

/// Parse `--threads`: comma-separated counts, each 1..=[`MAX_THREADS`];
/// sorted and deduplicated (1 thread first, for the speed-up).
pub fn parse_threads(s: &str) -> Result<ThreadList, String> {
    let mut v = Vec::new();
    for part in s.split(',') {
        let part = part.trim();
        if part.is_empty() {
            return Err(format!("empty thread count in '{s}' (expected e.g. 1,2,4)"));
        }
        let n: i128 = part
            .parse()
            .map_err(|_| format!("'{part}' is not a thread count (expected e.g. 1,2,4)"))?;
        if n < 1 || n > MAX_THREADS as i128 {
            return Err(format!(
                "thread count {part} is out of range (1 to {MAX_THREADS})"
            ));
        }
        v.push(n as usize);
    }
    v.sort_unstable();
    v.dedup();
    Ok(ThreadList(v))
}

/// Parse `--scale`: a finite number above 0, at most [`MAX_SCALE`].
pub fn parse_scale(s: &str) -> Result<f64, String> {
    let x: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a number (expected e.g. 0.1 or 2)"))?;
    if !(x.is_finite() && x > 0.0 && x <= MAX_SCALE) {
        return Err(format!(
            "{s} is out of range (expected a number above 0 and at most {MAX_SCALE}, e.g. 0.1 or 2)"
        ));
    }
    Ok(x)
}

/// The default thread counts: 1, 2, and every core when there are more.
pub fn default_threads() -> Vec<usize> {
    let mut v = vec![1, 2];
    let cores = logical_cores();
    if cores > 2 {
        v.push(cores);
    }
    v
}

/// What to run.
#[derive(Clone, Debug)]
pub struct BenchConfig {
    pub quick: bool,
    pub scale: f64,
    /// Ascending, distinct, each at least 1.
    pub threads: Vec<usize>,
    /// Only workloads whose name contains this (ignoring case, spaces and
    /// punctuation).
    pub only: Option<String>,
}

impl BenchConfig {
    /// Games of `w` in this run: the default count, divided by
    /// [`QUICK_DIVISOR`] in quick mode, times the scale; at least 1.
    pub fn games(&self, w: &Workload) -> u64 {
        let q = if self.quick { QUICK_DIVISOR } else { 1.0 };
        ((w.games as f64 / q * self.scale).round() as u64).max(1)
    }

    /// The selected workloads; an error if `--only` matches none.
    pub fn workloads(&self) -> Result<Vec<&'static Workload>> {
        let Some(only) = &self.only else {
            return Ok(WORKLOADS.iter().collect());
        };
        let key = normalize(only);
        let v: Vec<_> = WORKLOADS
            .iter()
            .filter(|w| normalize(w.name).contains(&key))
            .collect();
        if v.is_empty() {
            let names: Vec<&str> = WORKLOADS.iter().map(|w| w.name).collect();
            bail!(
                "--only '{only}' matches no workload (workloads: {})",
                names.join("; ")
            );
        }
        Ok(v)
    }
}

// ---------------------------------------------------------------------------
// The machine

/// Logical cores available to this process (1 if unknown).
pub fn logical_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The CPU model: the first "model name" of `/proc/cpuinfo` (or its ARM
/// equivalents), "unknown" elsewhere.
pub fn cpu_model() -> String {
    let text = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    cpu_model_from(&text).unwrap_or_else(|| "unknown".into())
}

fn cpu_model_from(cpuinfo: &str) -> Option<String> {
    for key in ["model name", "Hardware", "cpu model", "Processor"] {
        for line in cpuinfo.lines() {
            if let Some((k, v)) = line.split_once(':') {
                if k.trim() == key && !v.trim().is_empty() {
                    return Some(v.split_whitespace().collect::<Vec<_>>().join(" "));
                }
            }
        }
    }
    None
}

/// The operating system: distribution and kernel on Linux, else the target OS.
pub fn os_description() -> String {
    let arch = std::env::consts::ARCH;
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .ok()
        .map(|s| s.trim().to_string());
    let distro = std::fs::read_to_string("/etc/os-release")
        .ok()
        .and_then(|t| {
            t.lines()
                .find_map(|l| l.strip_prefix("PRETTY_NAME="))
                .map(|v| v.trim().trim_matches('"').to_string())
        });
    let mut s = match kernel {
        Some(k) => format!("{} {k}", std::env::consts::OS),
        None => std::env::consts::OS.to_string(),
    };
    if let Some(d) = distro {
        s.push_str(&format!(" ({d})"));
    }
    s.push_str(&format!(", {arch}"));
    s
}

/// Whether this binary was built with optimizations for measuring (a
/// release build: no debug assertions).
pub fn release_build() -> bool {
    !cfg!(debug_assertions)
}

/// "profile-guided", "instrumented" or "" (see `build.rs`).
const PGO: &str = env!("DOMSIM_PGO");

/// [`PGO`], read through `black_box` so that every build has the same
/// control flow where it is tested: a folded constant would remove the
/// branch in one build, and the instrumented build's profile would then not
/// match the optimized one (LLVM discards a mismatched function's profile).
fn pgo_kind() -> &'static str {
    std::hint::black_box(PGO)
}

/// The build, as `domsim bench` records it: release or debug, and whether
/// it is the profile-guided build of `scripts/pgo.sh` (or the instrumented
/// build that collects its profile), as `build.rs` read it from the
/// compiler flags.
pub fn build_description() -> String {
    let base = if release_build() {
        "release"
    } else {
        "debug (debug assertions on: numbers are meaningless)"
    };
    match pgo_kind() {
        "profile-guided" => format!("{base}, profile-guided (scripts/pgo.sh)"),
        "instrumented" => format!("{base}, instrumented for profiling (numbers are meaningless)"),
        _ => base.to_string(),
    }
}

/// Why this build's timings mean nothing, when they do not: a debug build,
/// or the instrumented training build of `scripts/pgo.sh`.
pub fn build_warning() -> Option<&'static str> {
    if !release_build() {
        Some("WARNING: this domsim is a DEBUG build: its numbers are meaningless. Measure with `cargo run --release -- bench` (or scripts/bench.sh).")
    } else if pgo_kind() == "instrumented" {
        Some("WARNING: this domsim is instrumented for profiling (scripts/pgo.sh's training build): its numbers are meaningless.")
    } else {
        None
    }
}

/// CPU time (user + system) of this process so far, in seconds: the sum
/// over all its threads, live and exited (Linux `/proc/self/stat`, in clock
/// ticks of 1/100 s, the fixed `USER_HZ` of Linux's /proc interface). `None`
/// where unavailable.
pub fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/self/stat").ok()?;
    cpu_seconds_from(&text)
}

fn cpu_seconds_from(stat: &str) -> Option<f64> {
    // The command name (field 2) is in parentheses and may hold spaces: the
    // fields after the last ')' start with field 3 (state); utime and stime
    // are fields 14 and 15.
    let rest = &stat[stat.rfind(')')? + 1..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let utime: u64 = f.get(11)?.parse().ok()?;
    let stime: u64 = f.get(12)?.parse().ok()?;
    Some((utime + stime) as f64 / 100.0)
}

/// The machine description printed above the table and recorded in the CSV.
pub fn machine_meta() -> Vec<(&'static str, String)> {
    vec![
        ("cpu", cpu_model()),
        ("logical_cores", logical_cores().to_string()),
        ("os", os_description()),
        ("domsim_version", env!("CARGO_PKG_VERSION").to_string()),
        ("build", build_description()),
    ]
}

// ---------------------------------------------------------------------------
// Running

/// One measured run: a workload on one thread count.
#[derive(Clone, Debug)]
pub struct Row {
    pub workload: &'static str,
    pub players: usize,
    pub games: u64,
    pub threads: usize,
    /// Wall-clock seconds.
    pub wall: f64,
    /// Process CPU seconds (user + system), if known.
    pub cpu: Option<f64>,
    /// Games/s over games/s of the same workload on 1 thread, if measured.
    pub speedup: Option<f64>,
}

impl Row {
    pub fn rate(&self) -> f64 {
        self.games as f64 / self.wall.max(1e-9)
    }
    pub fn rate_per_thread(&self) -> f64 {
        self.rate() / self.threads as f64
    }
}

/// Column names of the CSV (in order).
pub const CSV_COLUMNS: [&str; 9] = [
    "workload",
    "players",
    "games",
    "threads",
    "wall_s",
    "cpu_s",
    "games_per_s",
    "games_per_s_per_thread",
    "speedup_vs_1_thread",
];

fn table_header() -> String {
    "| workload | players | games | threads | wall s | CPU s | games/s | games/s per thread | speed-up vs 1 thread |\n\
     |---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
        .to_string()
}

fn table_row(r: &Row) -> String {
    format!(
        "| {} | {} | {} | {} | {:.3} | {} | {:.0} | {:.0} | {} |\n",
        r.workload,
        r.players,
        r.games,
        r.threads,
        r.wall,
        r.cpu.map_or("n/a".to_string(), |c| format!("{c:.2}")),
        r.rate(),
        r.rate_per_thread(),
        r.speedup.map_or("n/a".to_string(), |s| format!("{s:.2}")),
    )
}

/// The CSV file: `# key: value` lines, then the header and one line per row.
pub fn csv_bytes(meta: &Meta, rows: &[Row]) -> Result<Vec<u8>> {
    let mut out = meta.render().into_bytes();
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(CSV_COLUMNS)?;
    for r in rows {
        w.write_record([
            r.workload.to_string(),
            r.players.to_string(),
            r.games.to_string(),
            r.threads.to_string(),
            format!("{:.6}", r.wall),
            r.cpu.map_or(String::new(), |c| format!("{c:.2}")),
            format!("{:.1}", r.rate()),
            format!("{:.1}", r.rate_per_thread()),
            r.speedup.map_or(String::new(), |s| format!("{s:.4}")),
        ])?;
    }
    out.extend(w.into_inner().map_err(|e| anyhow!("{e}"))?);
    Ok(out)
}

/// A workload ready to run: kingdom chosen, strategies compiled.
struct Prepared {
    w: &'static Workload,
    kind: Kind,
    /// The strategy files read (each workload's and the bases they extend).
    files: Vec<String>,
}

enum Kind {
    Dominion(Kingdom, CompiledLineup),
    Salem(
        crate::new_salem::engine::Table,
        Vec<crate::new_salem::bot::SalemBot>,
    ),
}

/// What a measured run produced, compared across thread counts.
#[derive(PartialEq)]
enum Tallied {
    Dominion(Box<Stats>),
    Salem(Box<crate::new_salem::sim::Tally>),
}

/// The New Salem field of `w`, compiled against `data` (and, for bots that
/// learn from their field, taught).
fn salem_field(
    data: &crate::new_salem::data::Data,
    w: &Workload,
    field: &SalemField,
) -> Result<Vec<crate::new_salem::bot::SalemBot>> {
    use crate::new_salem::{belief, bot};
    if field.bots.is_empty() {
        return bot::shipped(data);
    }
    let mut bots = field
        .bots
        .iter()
        .map(|f| {
            let (file, text) = bot::find_shipped(f)
                .ok_or_else(|| anyhow!("workload '{}': no shipped New Salem bot {f}", w.name))?;
            bot::compile_shipped(file, text, data)
        })
        .collect::<Result<Vec<_>>>()?;
    belief::prepare_field(data, &mut bots)?;
    Ok(bots)
}

fn prepare(w: &'static Workload) -> Result<Prepared> {
    if let Some(field) = &w.salem {
        let data = crate::new_salem::data::Data::sample();
        let table = crate::new_salem::engine::Table::new(&data, field.players)?;
        let bots = salem_field(&data, w, field)?;
        return Ok(Prepared {
            w,
            kind: Kind::Salem(table, bots),
            files: Vec::new(),
        });
    }
    let kingdom = w
        .kingdom()
        .map_err(|e| anyhow!("workload '{}': {e}", w.name))?;
    let mut specs = Vec::new();
    for f in w.files {
        let Some(p) = lineup::shipped(f) else {
            bail!(
                "workload '{}': shipped strategy strategies/{f} not found (looked in ./strategies and {}/strategies); run domsim bench from the domsim source tree",
                w.name,
                env!("CARGO_MANIFEST_DIR")
            );
        };
        specs.push(p.display().to_string());
    }
    let loaded = Lineup::load(&specs).map_err(|e| anyhow!("workload '{}': {e:#}", w.name))?;
    let mut files = Vec::new();
    for (_, e) in &loaded.entrants {
        if let crate::dominion::lineup::Loaded::File(st) = e {
            files.extend(st.files.iter().cloned());
        }
    }
    let lineup = loaded
        .compile(&kingdom)
        .map_err(|e| anyhow!("workload '{}': {e:#}", w.name))?;
    Ok(Prepared {
        w,
        kind: Kind::Dominion(kingdom, lineup),
        files,
    })
}

/// Why a measured run does not count.
fn check(stats: &Stats, completed: u64, games: u64) -> Option<String> {
    if completed != games {
        return Some(format!("{completed} of {games} games completed"));
    }
    if let Some((i, f)) = &stats.first_fault {
        return Some(format!(
            "{} game(s) had an illegal answer from a bot; first in game {i}: {f}",
            stats.faults
        ));
    }
    if stats.capped > 0 {
        return Some(format!("{} game(s) stopped by the turn cap", stats.capped));
    }
    None
}

/// Run the suite: print the machine description and the table to stdout
/// (rows as they are measured) and, with `out`, write the CSV atomically.
/// `stop` is the runner's interruption flag (Ctrl-C).
pub fn run(cfg: &BenchConfig, out: Option<&Path>, stop: &AtomicBool) -> Result<ExitCode> {
    let workloads = cfg.workloads()?;
    // Everything that can fail on input fails before any game: strategies,
    // kingdoms, the output path, the worker pools.
    let prepared = workloads
        .into_iter()
        .map(prepare)
        .collect::<Result<Vec<_>>>()?;
    // The CSV may not replace a strategy file the workloads read
    // (`-o strategies/big_money.dom`).
    if let Some(out) = out {
        let mut files: Vec<&str> = prepared
            .iter()
            .flat_map(|p| p.files.iter().map(String::as_str))
            .filter(|f| !f.starts_with('<'))
            .collect();
        files.sort_unstable();
        files.dedup();
        let ins: Vec<(&str, &Path)> = files
            .iter()
            .map(|f| ("strategy file", Path::new(*f)))
            .collect();
        crate::output::check_distinct(&ins, &[("-o", out)])?;
    }
    let file = out.map(AtomicFile::create).transpose()?;
    let pools = cfg
        .threads
        .iter()
        .map(|&t| sim::pool(t))
        .collect::<Result<Vec<_>>>()?;

    let machine = machine_meta();
    let mut meta = Meta::default();
    meta.push("command", "bench");
    for (k, v) in &machine {
        meta.push(k, v);
    }
    let threads: Vec<String> = cfg.threads.iter().map(|t| t.to_string()).collect();
    meta.push("threads", threads.join(","));
    meta.push("quick", cfg.quick);
    meta.push("scale", cfg.scale);

    if let Some(warn) = build_warning() {
        crate::output::warn_beside_console(warn);
        outln!("**{warn}**\n");
    }
    outln!("domsim bench: whole games between shipped strategy files, through the simulator's runner\n"
    );
    for (k, v) in &machine {
        outln!("- {k}: {v}");
    }
    outln!(
        "- run: threads {}, {}game counts x{}\n",
        threads.join(","),
        if cfg.quick { "quick " } else { "" },
        cfg.scale
    );
    out!("{}", table_header());

    let total_start = Instant::now();
    let mut rows = Vec::new();
    for p in &prepared {
        let games = cfg.games(p.w);
        let mut first: Option<(usize, Tallied)> = None;
        let mut one_thread_rate = None;
        for (&t, pool) in cfg.threads.iter().zip(&pools) {
            let rc = RunConfig {
                games,
                first: 0,
                seed: 1,
                threads: t,
                progress: false,
                precision: None,
            };
            let cpu0 = cpu_seconds();
            let start = Instant::now();
            let (completed, interrupted, tallied, faults) = match &p.kind {
                Kind::Dominion(kingdom, lineup) => {
                    let r = pool
                        .install(|| matches::run(kingdom, &rc, |o: &[u8]| lineup.bots(o), stop));
                    let f = check(&r.stats, r.completed, games);
                    (
                        r.completed,
                        r.interrupted,
                        Tallied::Dominion(Box::new(r.stats)),
                        f,
                    )
                }
                Kind::Salem(table, bots) => {
                    let m = crate::new_salem::sim::SalemMatch { table, bots };
                    let r = pool.install(|| sim::run_match(&m, &rc, stop));
                    let f = (r.completed != games)
                        .then(|| format!("{} of {games} games completed", r.completed));
                    (
                        r.completed,
                        r.interrupted,
                        Tallied::Salem(Box::new(r.tally)),
                        f,
                    )
                }
            };
            let wall = start.elapsed().as_secs_f64();
            let cpu = cpu0.zip(cpu_seconds()).map(|(a, b)| (b - a).max(0.0));
            if interrupted {
                outln!();
                crate::errln!(
                    "interrupted during '{}' on {t} thread(s); the rows above are complete; no file written",
                    p.w.name
                );
                return Ok(ExitCode::from(EXIT_INTERRUPTED));
            }
            let _ = completed;
            let failure = faults.or_else(|| match &first {
                Some((t1, s1)) if *s1 != tallied => Some(format!(
                    "results on {t} threads differ from those on {t1} (the runner must not depend on the thread count)"
                )),
                _ => None,
            });
            if let Some(why) = failure {
                outln!();
                crate::errln!(
                    "error: workload '{}' on {t} thread(s): {why}; no file written",
                    p.w.name
                );
                return Ok(ExitCode::from(EXIT_FAILED));
            }
            if first.is_none() {
                first = Some((t, tallied));
            }
            let mut row = Row {
                workload: p.w.name,
                players: p.w.players(),
                games,
                threads: t,
                wall,
                cpu,
                speedup: None,
            };
            if t == 1 {
                one_thread_rate = Some(row.rate());
            }
            row.speedup = one_thread_rate.map(|r1| row.rate() / r1);
            out!("{}", table_row(&row));
            rows.push(row);
        }
    }
    outln!("\n{} run(s) in {:.1} s. games/s = games / wall seconds; CPU s = CPU time of the whole process during the run (n/a where unknown); speed-up = games/s over games/s on 1 thread.",
        rows.len(),
        total_start.elapsed().as_secs_f64()
    );
    if let Some(file) = file {
        let mut outs = crate::output::Commit::new();
        outs.add(file, csv_bytes(&meta, &rows)?)?;
        outs.commit()?;
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_are_parsed_sorted_and_checked() {
        assert_eq!(parse_threads("1,2").unwrap().0, vec![1, 2]);
        assert_eq!(parse_threads(" 4, 1 ,2,2").unwrap().0, vec![1, 2, 4]);
        for bad in [
            "0",
            "1,0",
            "-1",
            "",
            "1,,2",
            "x",
            "1025",
            "99999999999999999999999",
        ] {
            assert!(parse_threads(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn scale_is_positive_and_finite() {
        assert_eq!(parse_scale("0.01").unwrap(), 0.01);
        assert_eq!(parse_scale("3").unwrap(), 3.0);
        for bad in ["0", "-1", "nan", "inf", "x", "1e7"] {
            assert!(parse_scale(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn game_counts_scale_and_stay_positive() {
        let cfg = |quick, scale| BenchConfig {
            quick,
            scale,
            threads: vec![1],
            only: None,
        };
        let w = &WORKLOADS[0];
        assert_eq!(cfg(false, 1.0).games(w), w.games);
        assert_eq!(cfg(true, 1.0).games(w), w.games / 50);
        assert_eq!(cfg(false, 2.0).games(w), 2 * w.games);
        assert_eq!(cfg(true, 1e-9).games(w), 1);
    }

    #[test]
    fn only_filters_by_name() {
        let cfg = |only: &str| BenchConfig {
            quick: true,
            scale: 1.0,
            threads: vec![1],
            only: Some(only.into()),
        };
        let names = |v: Vec<&Workload>| v.iter().map(|w| w.name).collect::<Vec<_>>();
        assert_eq!(
            names(cfg("double witch").workloads().unwrap()),
            ["Double Witch mirror"]
        );
        assert_eq!(cfg("MIRROR").workloads().unwrap().len(), 4);
        assert!(cfg("seaside").workloads().is_err());
    }

    #[test]
    fn workloads_have_kingdoms_and_shipped_strategies() {
        for w in &WORKLOADS {
            let p = prepare(w).unwrap_or_else(|e| panic!("{e:#}"));
            match &p.kind {
                Kind::Dominion(k, _) => {
                    assert!((2..=6).contains(&w.players()), "{}", w.name);
                    assert_eq!(k.n(), w.players());
                }
                Kind::Salem(t, _) => assert_eq!(t.players, w.players()),
            }
        }
    }

    #[test]
    fn proc_stat_cpu_time() {
        // Fields 14 and 15 (utime, stime) in ticks; a name with spaces and
        // parentheses.
        let line = "1234 (my (odd) prog) R 1 2 3 4 5 6 7 8 9 10 250 50 0 0 20 0 3 0";
        assert_eq!(cpu_seconds_from(line), Some(3.0));
        assert_eq!(cpu_seconds_from("garbage"), None);
        if cfg!(target_os = "linux") {
            assert!(cpu_seconds().is_some());
        }
    }

    #[test]
    fn cpu_model_lines() {
        let x86 = "processor\t: 0\nmodel name\t: Intel(R)  Xeon(R) CPU @ 2.20GHz\n";
        assert_eq!(
            cpu_model_from(x86).as_deref(),
            Some("Intel(R) Xeon(R) CPU @ 2.20GHz")
        );
        assert_eq!(
            cpu_model_from("Hardware\t: BCM2835\n").as_deref(),
            Some("BCM2835")
        );
        assert_eq!(cpu_model_from("flags : fpu\n"), None);
    }
}
