//! What Dominion's runs write, next to no verb: the metadata every output
//! starts with ([`base_meta`], [`push_data_cards`], [`push_entrants`]), the
//! `sim`, `matrix`, `sweep` and `--games-csv` CSVs (the one function a
//! one-machine run, `domsim merge` and the web page's download each call),
//! the turn-by-turn log of one game ([`game_log`], for `domsim log` and
//! the page), and a strategy compiler warning as printed ([`warning`]).

use crate::dominion::kingdoms::KingdomConfig;
use crate::dominion::lineup::{CompiledLineup, Lineup};
use crate::dominion::logbots::LoggingBots;
use crate::dominion::matches;
use crate::engine::{Game, Kingdom};
use crate::report::{self, EntrantInfo, Meta};
use anyhow::{anyhow, Result};

pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

pub(crate) fn base_meta(cmd: &str, seed: u64, kc: &KingdomConfig) -> Meta {
    let mut m = Meta::default();
    m.push("domsim_version", version());
    m.push("command", cmd);
    m.push("seed", seed);
    m.push("kingdom", kc.kingdom.describe());
    m.push("kingdom_source", &kc.how);
    push_data_cards(&mut m);
    m
}

/// The data cards bound for this run (`--cards`), in the metadata: a
/// shard or checkpoint of a run with other card definitions is refused.
pub(crate) fn push_data_cards(m: &mut Meta) {
    let sig = crate::cards::data::bound_signatures();
    if !sig.is_empty() {
        m.push("data_cards", sig.join(" ; "));
    }
}

pub use crate::report::push_entrants;

/// The `sim` CSV, from the run's base metadata (`base_meta` + players): the
/// one function a one-machine run and `domsim merge` both call.
pub(crate) fn sim_csv_bytes(
    base: &Meta,
    completed: u64,
    requested: u64,
    precision: Option<f64>,
    stats: &matches::Stats,
    infos: &[EntrantInfo],
) -> Result<Vec<u8>> {
    let mut meta = base.clone();
    let players = infos.len();
    meta.push("games", completed);
    meta.push("games_requested", requested);
    if let Some(p) = precision {
        let w = stats.widest_half_width();
        meta.push("precision_target", p);
        meta.push("precision_widest_half_width", format!("{w:.6}"));
        meta.push("precision_reached", if w < p { "yes" } else { "no" });
    }
    meta.push(
        "seat_rotation",
        format!(
            "game i uses seat order i mod {} of the lexicographic permutations of the strategies",
            matches::seat_orders(players).len()
        ),
    );
    push_entrants(&mut meta, infos);
    meta.push("rounds_histogram", report::rounds_histogram(stats));
    report::sim_csv(&meta, &report::rows(stats, infos))
}

/// The `matrix` CSV (see [`sim_csv_bytes`]).
pub fn matrix_csv_bytes(
    base: &Meta,
    games: u64,
    cells: Vec<Vec<Option<matches::EntrantStats>>>,
    infos: &[EntrantInfo],
) -> Result<Vec<u8>> {
    let mut meta = base.clone();
    meta.push("games_per_pair", games);
    meta.push(
        "seat_rotation",
        "each pair: even games the strategy listed first sits first, odd games the other (the pair plays as domsim sim A B with A listed first)",
    );
    push_entrants(&mut meta, infos);
    report::Matrix {
        entrants: infos.to_vec(),
        cells,
    }
    .csv(&meta)
}

/// The sweep CSV metadata from its base (`base_meta` fields + players + games_per_pair).
pub fn sweep_meta(base: &Meta, infos: &[EntrantInfo]) -> Meta {
    let mut meta = base.clone();
    meta.push(
        "design",
        "in each kingdom every pair of strategies plays games_per_pair 2-player games, seats alternating by game index",
    );
    push_entrants(&mut meta, infos);
    meta
}

/// `--games-csv`: one row per game, in game order.
pub fn games_csv_bytes(
    meta: &Meta,
    rows: &[matches::GameRow],
    infos: &[EntrantInfo],
    players: usize,
) -> Result<Vec<u8>> {
    let mut bytes = meta.render().into_bytes();
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut head = vec!["game".to_string()];
    for s in 1..=players {
        head.push(format!("seat_{s}"));
    }
    for s in 1..=players {
        head.push(format!("vp_{s}"));
    }
    for s in 1..=players {
        head.push(format!("turns_{s}"));
    }
    head.extend(["winners".to_string(), "capped".to_string()]);
    w.write_record(&head)?;
    for r in rows {
        let mut rec = vec![r.index.to_string()];
        for s in 0..players {
            rec.push(infos[r.order[s] as usize].name.clone());
        }
        for s in 0..players {
            rec.push(r.outcome.vp[s].to_string());
        }
        for s in 0..players {
            rec.push(r.outcome.turns[s].to_string());
        }
        let winners: Vec<String> = (0..players)
            .filter(|&s| r.outcome.won(s))
            .map(|s| (s + 1).to_string())
            .collect();
        rec.push(winners.join(";"));
        rec.push(if r.outcome.capped { "1" } else { "0" }.to_string());
        w.write_record(&rec)?;
    }
    bytes.extend(w.into_inner().map_err(|e| anyhow!("{e}"))?);
    Ok(bytes)
}

/// Game `game` of the run seeded `seed` (its deal and seat order), turn by
/// turn, with a header naming the kingdom and who sits where: `domsim log`
/// and the page of `domsim serve`. `k` is `kc`'s kingdom for the lineup.
pub(crate) fn game_log(
    lineup: &Lineup,
    compiled: &CompiledLineup,
    kc: &KingdomConfig,
    k: &Kingdom,
    seed: u64,
    game: u64,
    explain: bool,
) -> String {
    use std::fmt::Write as _;
    let players = k.n();
    let orders = matches::seat_orders(players);
    let order: Vec<u8> = orders[(game % orders.len() as u64) as usize][..players].to_vec();
    let infos = lineup.infos();
    let names: Vec<String> = (1..=players).map(|s| format!("P{s}")).collect();
    let mut g = Game::new(k, seed, game);
    let mut b = LoggingBots::new(compiled.bots(&order), names.clone());
    b.explain = explain;
    g.play_game(&mut b);
    let text = b.finish(&g);
    let mut o = String::new();
    let _ = writeln!(
        o,
        "Game {game} of seed {seed}, {players} players, kingdom ({}): {}",
        kc.how,
        k.describe()
    );
    for (s, &e) in order.iter().enumerate() {
        let info = &infos[e as usize];
        let _ = writeln!(
            o,
            "  P{} (seat {}): {} [{}]",
            s + 1,
            s + 1,
            info.name,
            info.source
        );
    }
    if g.shelters {
        o.push_str("  Shelters: every player starts with Necropolis, Overgrown Estate and Hovel instead of 3 Estates\n");
    } else if !k.kingdom.and(crate::CardSet::DARK_AGES).is_empty() {
        o.push_str("  Shelters: not in this game (every player starts with 3 Estates)\n");
    }
    o.push_str(&text);
    o
}

/// A compiler warning as printed ("warning:" added unless already there).
pub(crate) fn warning(w: &str) -> String {
    if w.contains("warning:") {
        w.to_string()
    } else {
        format!("warning: {w}")
    }
}
