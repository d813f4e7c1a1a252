//! A/B of a data card in the workbench (`POST /api/ab`): variant A (the
//! card editor's text) against variant B (a second text defining the same
//! cards, in the same order, with other definitions), every game played
//! with each on the same seed and seats, paired as `domsim compare` pairs
//! them ([`crate::playtest::Pairing`]), streamed block by block.
//!
//! The variants take turns binding their cards: a block of games under A
//! (a lease of A's set), the same block under B (a lease of B's set), so a
//! comparison shares the server with other requests between its blocks.

use super::cards;
use super::{
    chunk_sizes, event, ApiError, App, Batch, Setup, FIRST_CHUNK, GONE, LEASE_WAIT, SUPERSEDED,
};
use crate::cards::data::DataCard;
use crate::cards::Card;
use crate::playtest::{self, Compared, Pairing};
use axum::response::sse::Event;
use serde_json::{json, Value};
use std::sync::atomic::Ordering;
use std::time::Instant;
use tokio::sync::mpsc;

/// Most games of one comparison (each is played twice).
pub const MAX_AB_GAMES: u64 = 50_000;
/// Largest block of games between two bindings.
const MAX_BLOCK: u64 = 4096;

/// What a comparison needs besides the setup of variant A.
pub struct AbPlan {
    pub cards_a: Vec<DataCard>,
    pub cards_b: Vec<DataCard>,
    pub card: Card,
    pub games: u64,
    pub seed: u64,
    /// The command line of the same comparison (`{games}` for the games
    /// played).
    pub command: String,
}

/// The data card compared: `name` if given, else the first card of A in
/// the kingdom (under A's binding).
pub fn chosen_card(s: &Setup, name: Option<&str>) -> Result<Card, ApiError> {
    let in_kingdom =
        |c: &DataCard| Card::from_name(&c.name).filter(|&k| s.kingdom.kingdom.contains(k));
    match name {
        Some(n) => s
            .cards
            .cards
            .iter()
            .find(|c| crate::cards::normalize(&c.name) == crate::cards::normalize(n))
            .and_then(in_kingdom)
            .ok_or_else(|| {
                ApiError::bad(format!(
                    "card: '{n}' is not a data card of variant A in the kingdom"
                ))
            }),
        None => s.cards.cards.iter().find_map(in_kingdom).ok_or_else(|| {
            ApiError::bad("card: no data card of variant A is in the kingdom: put one in it first")
        }),
    }
}

/// Variant B's cards: the same names in the same order as A's.
pub fn same_names(a: &[DataCard], b: &[DataCard]) -> Result<(), ApiError> {
    let names = |v: &[DataCard]| v.iter().map(|c| c.name.clone()).collect::<Vec<_>>();
    if names(a) != names(b) {
        return Err(ApiError::bad(format!(
            "cards_b: variant B defines {:?}, variant A {:?}: B must define the same cards, in the same order (with other definitions)",
            names(b),
            names(a)
        )));
    }
    if a.iter().zip(b).all(|(x, y)| x.signature() == y.signature()) {
        return Err(ApiError::bad(
            "cards_b: variant B is the same as variant A: change a definition to compare",
        ));
    }
    Ok(())
}

fn rows_json(rows: &[Compared]) -> Value {
    json!(rows
        .iter()
        .map(|r| json!({
            "measure": r.measure,
            "bot": r.bot,
            "a": r.a,
            "b": r.b,
            "diff": r.diff,
            "ci_low": r.ci_low,
            "ci_high": r.ci_high,
            "games": r.games,
        }))
        .collect::<Vec<_>>())
}

/// Play a comparison (on a blocking thread), streaming its events. `s` is
/// the setup under A (its lease is let go before the first block).
pub fn play_ab(
    app: &App,
    s: Setup,
    plan: &AbPlan,
    batch: &Batch,
    tx: &mpsc::Sender<Event>,
    permit: tokio::sync::OwnedSemaphorePermit,
) -> Option<Event> {
    let (mut block, most) = chunk_sizes(s.search_budget, FIRST_CHUNK, MAX_BLOCK);
    let Setup {
        kc, lineup, cards, ..
    } = s;
    drop(cards);
    let infos = lineup.infos().to_vec();
    let names: Vec<String> = infos.iter().map(|i| i.name.clone()).collect();
    let card_name = plan.card.name().to_string();
    let _ = tx.blocking_send(event(
        "start",
        &json!({ "games": plan.games, "seed": plan.seed, "card": card_name, "names": names }),
    ));
    let mut pairing = Pairing::new(&names);
    let mut kingdom_b = None;
    let mut done = 0u64;
    let t0 = Instant::now();
    let mut failure: Option<String> = None;
    while done < plan.games && !batch.stop.load(Ordering::SeqCst) {
        let end = (done + block).min(plan.games);
        let give_up = {
            let deadline = cards::within(LEASE_WAIT);
            move || batch.stop.load(Ordering::SeqCst) || deadline()
        };
        // Variant A's block, then B's, each under its own binding.
        let ra = match lease(app, &plan.cards_a, &give_up).and_then(|_l| {
            playtest::play_records_until(
                &kc.kingdom,
                &lineup,
                plan.card,
                done..end,
                plan.seed,
                0,
                &batch.stop,
            )
            .map_err(|e| format!("variant A: {e:#}"))
        }) {
            Ok(r) => r,
            Err(e) => {
                failure = Some(e);
                break;
            }
        };
        let rb = match lease(app, &plan.cards_b, &give_up).and_then(|_l| {
            let k = match &kingdom_b {
                Some(k) => *k,
                None => {
                    let k = kc
                        .kingdom
                        .rederived()
                        .map_err(|e| format!("variant B: {e}"))?;
                    kingdom_b = Some(k);
                    k
                }
            };
            playtest::play_records_until(
                &k,
                &lineup,
                plan.card,
                done..end,
                plan.seed,
                0,
                &batch.stop,
            )
            .map_err(|e| format!("variant B: {e:#}"))
        }) {
            Ok(r) => r,
            Err(e) => {
                failure = Some(e);
                break;
            }
        };
        let n = (end - done) as usize;
        if ra.len() < n || rb.len() < n {
            // Stopped inside the block: its games are left out.
            break;
        }
        if let Err(e) = pairing.add(&ra, &rb) {
            failure = Some(format!("{e:#}"));
            break;
        }
        done = end;
        block = (block * 2).min(most);
        let progress = event(
            "progress",
            &json!({
                "games": done,
                "requested": plan.games,
                "ms": t0.elapsed().as_millis() as u64,
                "rows": rows_json(&pairing.rows()),
            }),
        );
        if let Err(mpsc::error::TrySendError::Closed(_)) = tx.try_send(progress) {
            batch.cancel(GONE);
            break;
        }
    }
    drop(permit);
    match batch.why() {
        SUPERSEDED => {
            return Some(event(
                "cancelled",
                &json!({ "message": "a newer batch replaced this one", "games": done }),
            ));
        }
        GONE => return None,
        _ => {}
    }
    if let Some(e) = failure {
        return Some(event("failed", &json!({ "error": e, "games": done })));
    }
    let rows = pairing.rows();
    let mut body = json!({
        "games": done,
        "requested": plan.games,
        "stopped": done < plan.games,
        "ms": t0.elapsed().as_millis() as u64,
        "rows": rows_json(&rows),
        "card": card_name,
        "command": plan.command.replace("{games}", &done.to_string()),
    });
    if done > 0 {
        let mut meta = crate::report::Meta::default();
        meta.push("domsim_version", env!("CARGO_PKG_VERSION"));
        meta.push("command", "compare (domsim serve)");
        meta.push("seed", plan.seed);
        meta.push("games", done);
        meta.push("kingdom", kc.kingdom.describe());
        meta.push("kingdom_source", &kc.how);
        meta.push("card", &card_name);
        let sig = |v: &[DataCard]| {
            v.iter()
                .map(|c| c.signature())
                .collect::<Vec<_>>()
                .join(" ; ")
        };
        meta.push("variant_a", "a.toml");
        meta.push("variant_b", "b.toml");
        meta.push("variant_a_cards", sig(&plan.cards_a));
        meta.push("variant_b_cards", sig(&plan.cards_b));
        crate::dominion::outputs::push_entrants(&mut meta, &infos);
        match playtest::compare_csv(&meta, &rows) {
            Ok(csv) => body["csv"] = json!(String::from_utf8_lossy(&csv)),
            Err(e) => body["csv_error"] = json!(format!("{e:#}")),
        }
        body["report"] = json!(playtest::compare_html(
            &format!("{card_name}: variant B against variant A"),
            &meta,
            &rows
        ));
    }
    Some(event("done", &body))
}

/// A lease of `cards` for one block (an error says why not).
fn lease(app: &App, list: &[DataCard], give_up: &dyn Fn() -> bool) -> Result<cards::Lease, String> {
    app.desk.lease(list, give_up).map_err(|e| match e {
        cards::LeaseError::Busy => {
            "stopped, or the server is busy with other data cards".to_string()
        }
        cards::LeaseError::Bind(m) => m,
    })
}
