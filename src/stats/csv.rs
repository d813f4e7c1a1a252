//! Every statistic of a [`PlaytestStats`] as one long-format CSV table
//! (columns and statistics documented in `results/STATS.md`):
//!
//! `stat,strategy,seat,turn,card,label,value,n,ci95`
//!
//! One row per value; the columns a statistic does not use are empty. `value`
//! is the statistic, `n` the number of observations it is computed from, and
//! `ci95` the half-width of its 95% confidence interval where there is one:
//! for a score, the normal interval of the mean (the HTML report's `±95%
//! (normal)`; `domsim sim`'s table gives the Wilson interval instead).

use super::{PlaytestStats, ScoreAcc, MARGIN, N_OPEN, OPEN_MAX, TURNS};
use crate::cards::Card;
use std::io::{self, Write};
use std::path::Path;

/// The header row.
pub const COLUMNS: [&str; 9] = [
    "stat", "strategy", "seat", "turn", "card", "label", "value", "n", "ci95",
];

#[derive(Default)]
struct Row<'a> {
    stat: &'a str,
    strategy: Option<&'a str>,
    seat: Option<usize>,
    turn: Option<usize>,
    card: Option<Card>,
    label: Option<String>,
    value: f64,
    n: u64,
    ci95: Option<f64>,
}

fn num(x: f64) -> String {
    if x == x.trunc() && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x:.6}")
    }
}

fn write_row<W: Write>(w: &mut csv::Writer<W>, r: Row) -> io::Result<()> {
    let opt = |x: Option<String>| x.unwrap_or_default();
    w.write_record([
        r.stat.to_string(),
        opt(r.strategy.map(str::to_string)),
        opt(r.seat.map(|s| s.to_string())),
        opt(r.turn.map(|t| t.to_string())),
        opt(r.card.map(|c| c.name().to_string())),
        opt(r.label),
        num(r.value),
        r.n.to_string(),
        opt(r.ci95.map(|c| format!("{c:.6}"))),
    ])
    .map_err(io::Error::other)
}

fn score_row<'a>(stat: &'a str, s: &ScoreAcc) -> Row<'a> {
    Row {
        stat,
        value: s.rate(),
        n: s.games,
        ci95: Some(s.ci95()),
        ..Row::default()
    }
}

/// Write the statistics as CSV to `w`.
pub fn write_csv_to<W: Write>(mut w: W, st: &PlaytestStats) -> io::Result<()> {
    // Provenance first, as `# key: value` lines (like the `sim` CSV).
    writeln!(w, "# domsim_version: {}", env!("CARGO_PKG_VERSION"))?;
    if let Some(seed) = st.seed {
        writeln!(w, "# seed: {seed}")?;
    }
    // One line whatever a loaded file holds (`validate` refuses it too).
    writeln!(
        w,
        "# kingdom: {}",
        crate::report::one_line(&st.kingdom.join("; "))
    )?;
    if let Some(how) = &st.kingdom_source {
        writeln!(w, "# kingdom_source: {}", crate::report::one_line(how))?;
    }
    if let Some(data) = &st.data_cards {
        writeln!(w, "# data_cards: {}", crate::report::one_line(data))?;
    }
    writeln!(w, "# players: {}", st.players)?;
    writeln!(w, "# games: {}", st.games)?;
    for (i, src) in st.sources.iter().enumerate() {
        writeln!(
            w,
            "# strategy_{}: {}",
            i + 1,
            src.replace(['\n', '\r'], " ")
        )?;
    }
    let mut w = csv::Writer::from_writer(w);
    w.write_record(COLUMNS).map_err(io::Error::other)?;
    let games = st.games;
    write_row(
        &mut w,
        Row {
            stat: "games",
            label: Some(st.kingdom.join("; ")),
            value: games as f64,
            n: games,
            ..Row::default()
        },
    )?;
    write_row(
        &mut w,
        Row {
            stat: "players",
            value: st.players as f64,
            n: games,
            ..Row::default()
        },
    )?;
    for (t, &c) in st.length.iter().enumerate() {
        if c > 0 {
            write_row(
                &mut w,
                Row {
                    stat: "game_length",
                    turn: Some(t),
                    value: c as f64,
                    n: games,
                    ..Row::default()
                },
            )?;
        }
    }
    write_row(
        &mut w,
        Row {
            stat: "avg_game_length",
            value: st.avg_length(),
            n: games,
            ..Row::default()
        },
    )?;
    for (label, c) in [
        ("provinces", st.ended_provinces),
        ("piles", st.ended_piles),
        ("turn_cap", st.ended_cap),
    ] {
        write_row(
            &mut w,
            Row {
                stat: "ending",
                label: Some(label.into()),
                value: c as f64,
                n: games,
                ..Row::default()
            },
        )?;
    }
    write_row(
        &mut w,
        Row {
            stat: "faults",
            value: st.faults as f64,
            n: games,
            ..Row::default()
        },
    )?;
    for seat in 0..st.players as usize {
        write_row(
            &mut w,
            Row {
                seat: Some(seat + 1),
                ..score_row("seat_score", &st.seats[seat])
            },
        )?;
    }
    let cards = st.cards_seen();
    for (i, s) in st.strategies.iter().enumerate() {
        let name = Some(st.names[i].as_str());
        let sg = s.games();
        let total = s.score();
        write_row(
            &mut w,
            Row {
                strategy: name,
                ..score_row("score", &total)
            },
        )?;
        for (label, c) in [("sole", total.sole_wins), ("shared", total.shared_wins)] {
            write_row(
                &mut w,
                Row {
                    stat: "wins",
                    strategy: name,
                    label: Some(label.into()),
                    value: c as f64,
                    n: sg,
                    ..Row::default()
                },
            )?;
        }
        for seat in 0..st.players as usize {
            write_row(
                &mut w,
                Row {
                    strategy: name,
                    seat: Some(seat + 1),
                    ..score_row("strategy_seat_score", &s.seats[seat])
                },
            )?;
        }
        write_row(
            &mut w,
            Row {
                stat: "avg_vp",
                strategy: name,
                value: s.avg_vp(),
                n: sg,
                ..Row::default()
            },
        )?;
        for (j, &c) in s.margin.iter().enumerate() {
            if c > 0 {
                write_row(
                    &mut w,
                    Row {
                        stat: "vp_margin",
                        strategy: name,
                        label: Some((j as i32 - MARGIN).to_string()),
                        value: c as f64,
                        n: sg,
                        ..Row::default()
                    },
                )?;
            }
        }
        for (t, ta) in s.turns.iter().enumerate().take(TURNS) {
            if ta.n == 0 {
                continue;
            }
            let q = |x: f64| ta.money_quantile(x).map_or(0.0, |m| m as f64);
            for (stat, v) in [
                ("turn_money", ta.money_avg()),
                ("turn_vp", ta.vp_avg()),
                ("turn_deck", ta.deck_avg()),
                ("turn_gained", ta.gained_avg()),
                ("turn_p5", ta.p5()),
                ("turn_p6", ta.p6()),
                ("turn_p8", ta.p8()),
                ("turn_money_q1", q(0.25)),
                ("turn_money_median", q(0.5)),
                ("turn_money_q3", q(0.75)),
            ] {
                write_row(
                    &mut w,
                    Row {
                        stat,
                        strategy: name,
                        turn: Some(t + 1),
                        value: v,
                        n: ta.n,
                        ..Row::default()
                    },
                )?;
            }
        }
        for &c in &cards {
            let a = &s.cards[c as usize];
            for (stat, v) in [
                ("card_gained", a.gained),
                ("card_bought", a.bought),
                ("card_played", a.played),
                ("card_trashed", a.trashed),
            ] {
                write_row(
                    &mut w,
                    Row {
                        stat,
                        strategy: name,
                        card: Some(c),
                        value: v as f64,
                        n: sg,
                        ..Row::default()
                    },
                )?;
            }
            write_row(
                &mut w,
                Row {
                    stat: "card_avg_owned_end",
                    strategy: name,
                    card: Some(c),
                    value: s.avg_owned_end(c),
                    n: sg,
                    ..Row::default()
                },
            )?;
            if let Some(f) = s.avg_first_gain(c) {
                write_row(
                    &mut w,
                    Row {
                        stat: "card_first_gain_turn",
                        strategy: name,
                        card: Some(c),
                        value: f,
                        n: a.first_gain_games,
                        ..Row::default()
                    },
                )?;
            }
            let gs = a.gained_score();
            if gs.games > 0 {
                write_row(
                    &mut w,
                    Row {
                        strategy: name,
                        card: Some(c),
                        ..score_row("card_gained_score", &gs)
                    },
                )?;
                for (b, acc) in a.gained_by.iter().enumerate() {
                    if acc.games == 0 {
                        continue;
                    }
                    write_row(
                        &mut w,
                        Row {
                            strategy: name,
                            card: Some(c),
                            label: Some(super::gain_bucket_label(b)),
                            ..score_row("card_gained_by_score", acc)
                        },
                    )?;
                }
            }
            if a.gained > 0 {
                let curve = s.gain_curve(c);
                for (t, &v) in curve.iter().enumerate().take(s.last_turn()) {
                    write_row(
                        &mut w,
                        Row {
                            stat: "card_gain_curve",
                            strategy: name,
                            turn: Some(t + 1),
                            card: Some(c),
                            value: v,
                            n: sg,
                            ..Row::default()
                        },
                    )?;
                }
            }
        }
        for hi in 0..N_OPEN {
            for lo in 0..=hi {
                let o = s.opening(hi, lo);
                if o.games == 0 {
                    continue;
                }
                let plus = if hi == OPEN_MAX { "+" } else { "" };
                write_row(
                    &mut w,
                    Row {
                        strategy: name,
                        label: Some(format!("{hi}{plus}/{lo}")),
                        ..score_row("opening", o)
                    },
                )?;
            }
        }
        for o in &s.opening_buys {
            write_row(
                &mut w,
                Row {
                    strategy: name,
                    label: Some(format!("{}/{}", o.buys[0], o.buys[1])),
                    ..score_row("opening_buys", &o.score)
                },
            )?;
        }
    }
    w.flush()
}

/// Write the statistics as CSV to `path` (see [`crate::output`]).
pub fn write_csv(path: &Path, st: &PlaytestStats) -> anyhow::Result<()> {
    super::html::write_atomic(path, |f| write_csv_to(f, st))
}
