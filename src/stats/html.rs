//! A self-contained HTML report of a [`PlaytestStats`]: one file, inline CSS
//! and inline SVG charts generated here (no JavaScript, no network).

use super::{PlaytestStats, StrategyStats, MARGIN, N_OPEN, OPEN_MAX};
use crate::cards::Card;
use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::Path;

/// Extra content of a report.
#[derive(Clone, Debug, Default)]
pub struct ReportOptions<'a> {
    /// Page title (default: "domsim playtest report").
    pub title: Option<String>,
    /// The command line or note that produced the run, shown under the title.
    pub note: Option<String>,
    /// A matchup matrix (row strategy's score against column strategy) and
    /// its strategy names, drawn as a heat map.
    pub matrix: Option<(&'a [Vec<f64>], &'a [String])>,
}

/// Write `contents` to `path` through [`crate::output::Output`]: `-` is
/// standard output, a regular file is replaced atomically, a link's target
/// is replaced, a FIFO or device is written through.
pub fn write_atomic(
    path: &Path,
    contents: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> anyhow::Result<()> {
    crate::output::Output::create(path)?.commit_with(contents)
}

/// Write the report to `path` atomically.
pub fn write_html(path: &Path, st: &PlaytestStats, opts: &ReportOptions) -> anyhow::Result<()> {
    let page = render_html(st, opts);
    write_atomic(path, |w| w.write_all(page.as_bytes()))
}

// -------------------------------------------------------------------------
// SVG primitives

const PALETTE: [&str; 10] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
    "#7f7f7f", "#bcbd22",
];
const W: f64 = 596.0;
const H: f64 = 330.0;
const ML: f64 = 58.0;
const MR: f64 = 178.0;
const MT: f64 = 34.0;
const MB: f64 = 46.0;

/// Escape text for HTML/SVG.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn color(i: usize) -> &'static str {
    PALETTE[i % PALETTE.len()]
}

/// Nice tick values covering [lo, hi].
fn ticks(lo: f64, hi: f64, target: usize) -> Vec<f64> {
    ticks_with(lo, hi, target, false)
}

/// Nice tick values covering [lo, hi]; `integer`: whole steps only (turns).
fn ticks_with(lo: f64, hi: f64, target: usize, integer: bool) -> Vec<f64> {
    let span = (hi - lo).max(1e-9);
    let raw = span / target.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let mults: &[f64] = if integer && mag <= 1.0 {
        &[1.0, 2.0, 5.0, 10.0]
    } else {
        &[1.0, 2.0, 2.5, 5.0, 10.0]
    };
    let step = mults
        .iter()
        .map(|m| m * mag)
        .find(|s| span / s <= target as f64)
        .unwrap_or(10.0 * mag);
    let step = if integer { step.max(1.0).round() } else { step };
    let mut v = (lo / step).ceil() * step;
    let mut out = Vec::new();
    while v <= hi + step * 1e-6 {
        out.push(if v.abs() < step * 1e-9 { 0.0 } else { v });
        v += step;
    }
    out
}

fn fmt_tick(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else if (v * 10.0 - (v * 10.0).round()).abs() < 1e-9 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// Axes, grid and labels of a chart with the given data ranges; returns the
/// SVG opening (without closing tag) and the coordinate mappers.
struct Frame {
    x0: f64,
    x1: f64,
    y0: f64,
    y1: f64,
}

impl Frame {
    fn x(&self, v: f64) -> f64 {
        ML + (v - self.x0) / (self.x1 - self.x0).max(1e-12) * (W - ML - MR)
    }
    fn y(&self, v: f64) -> f64 {
        H - MB - (v - self.y0) / (self.y1 - self.y0).max(1e-12) * (H - MT - MB)
    }
    fn open(&self, out: &mut String, title: &str, xlabel: &str, ylabel: &str, xticks: bool) {
        let _ = write!(
            out,
            r#"<svg class="chart" xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" role="img" aria-label="{t}">"#,
            t = esc(title)
        );
        let _ = write!(
            out,
            r#"<text x="{}" y="20" class="title" text-anchor="middle">{}</text>"#,
            (ML + W - MR) / 2.0,
            esc(title)
        );
        for t in ticks(self.y0, self.y1, 6) {
            let y = self.y(t);
            let _ = write!(
                out,
                r##"<line x1="{ML}" x2="{}" y1="{y:.1}" y2="{y:.1}" stroke="#e3e3e3"/><text x="{}" y="{:.1}" class="tick" text-anchor="end">{}</text>"##,
                W - MR,
                ML - 5.0,
                y + 4.0,
                fmt_tick(t)
            );
        }
        if xticks {
            for t in ticks_with(self.x0, self.x1, 10, true) {
                let x = self.x(t);
                let _ = write!(
                    out,
                    r##"<line x1="{x:.1}" x2="{x:.1}" y1="{}" y2="{}" stroke="#999"/><text x="{x:.1}" y="{}" class="tick" text-anchor="middle">{}</text>"##,
                    H - MB,
                    H - MB + 4.0,
                    H - MB + 16.0,
                    fmt_tick(t)
                );
            }
        }
        let _ = write!(
            out,
            r##"<line x1="{ML}" x2="{}" y1="{b}" y2="{b}" stroke="#333"/><line x1="{ML}" x2="{ML}" y1="{MT}" y2="{b}" stroke="#333"/>"##,
            W - MR,
            b = H - MB
        );
        let _ = write!(
            out,
            r#"<text x="{}" y="{}" class="axis" text-anchor="middle">{}</text>"#,
            (ML + W - MR) / 2.0,
            H - 8.0,
            esc(xlabel)
        );
        let _ = write!(
            out,
            r#"<text x="14" y="{}" class="axis" text-anchor="middle" transform="rotate(-90 14 {})">{}</text>"#,
            (MT + H - MB) / 2.0,
            (MT + H - MB) / 2.0,
            esc(ylabel)
        );
    }
}

fn legend(out: &mut String, items: &[(String, &str, bool)]) {
    for (i, (name, col, dashed)) in items.iter().enumerate() {
        let y = MT + 8.0 + i as f64 * 17.0;
        let x = W - MR + 10.0;
        let dash = if *dashed {
            r#" stroke-dasharray="5 3""#
        } else {
            ""
        };
        let _ = write!(
            out,
            r#"<line x1="{x}" x2="{}" y1="{y}" y2="{y}" stroke="{col}" stroke-width="2.5"{dash}/><text x="{}" y="{}" class="legend">{}</text>"#,
            x + 18.0,
            x + 23.0,
            y + 4.0,
            esc(name)
        );
    }
}

/// A line series.
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    pub dashed: bool,
    pub color: usize,
}

/// A line chart. `y_range` fixes the y axis (else from 0 or the data minimum).
pub fn line_chart(
    title: &str,
    xlabel: &str,
    ylabel: &str,
    series: &[Series],
    y_range: Option<(f64, f64)>,
) -> String {
    let pts = series.iter().flat_map(|s| s.points.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, 0f64, f64::MIN);
    for &(x, y) in pts {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    if x0 > x1 {
        (x0, x1, y1) = (0.0, 1.0, 1.0);
    }
    if x1 <= x0 {
        x1 = x0 + 1.0;
    }
    if let Some((a, b)) = y_range {
        (y0, y1) = (a, b);
    } else {
        let t = ticks(y0, y1.max(y0 + 1e-9), 6);
        y1 = t.last().copied().unwrap_or(y1).max(y1);
        y0 = t.first().copied().unwrap_or(y0).min(y0);
    }
    let f = Frame { x0, x1, y0, y1 };
    let mut out = String::new();
    f.open(&mut out, title, xlabel, ylabel, true);
    for s in series {
        if s.points.is_empty() {
            continue;
        }
        let mut d = String::new();
        for (i, &(x, y)) in s.points.iter().enumerate() {
            let _ = write!(
                d,
                "{}{:.1},{:.1}",
                if i == 0 { "M" } else { " L" },
                f.x(x),
                f.y(y)
            );
        }
        let dash = if s.dashed {
            r#" stroke-dasharray="6 4""#
        } else {
            ""
        };
        let _ = write!(
            out,
            r#"<path class="series" d="{d}" fill="none" stroke="{}" stroke-width="2"{dash}><title>{}</title></path>"#,
            color(s.color),
            esc(&s.name)
        );
    }
    let items: Vec<(String, &str, bool)> = series
        .iter()
        .map(|s| (s.name.clone(), color(s.color), s.dashed))
        .collect();
    legend(&mut out, &items);
    out.push_str("</svg>");
    out
}

/// A bar chart of rates in [0, 1] with 95% error bars: (label, rate, half-width, color).
pub fn rate_bars(title: &str, ylabel: &str, bars: &[(String, f64, f64, usize)]) -> String {
    let top = bars
        .iter()
        .map(|b| (b.1 + b.2).min(1.0))
        .fold(0.0f64, f64::max);
    // Room above the tallest error bar for its label.
    let top = top.max(0.05) * 1.12;
    let y1 = ticks(0.0, top, 6).last().copied().unwrap_or(1.0).max(top);
    let f = Frame {
        x0: 0.0,
        x1: bars.len().max(1) as f64,
        y0: 0.0,
        y1,
    };
    let mut out = String::new();
    f.open(&mut out, title, "", ylabel, false);
    let slot = (W - ML - MR) / bars.len().max(1) as f64;
    for (i, (label, rate, ci, col)) in bars.iter().enumerate() {
        let cx = f.x(i as f64 + 0.5);
        let bw = slot * 0.55;
        let (yt, yb) = (f.y(*rate), f.y(0.0));
        let _ = write!(
            out,
            r#"<rect class="bar" x="{:.1}" y="{yt:.1}" width="{bw:.1}" height="{:.1}" fill="{}" opacity="0.85"><title>{}: {:.2}% ± {:.2}</title></rect>"#,
            cx - bw / 2.0,
            (yb - yt).max(0.0),
            color(*col),
            esc(label),
            rate * 100.0,
            ci * 100.0
        );
        let (lo, hi) = (f.y((rate - ci).max(0.0)), f.y((rate + ci).min(1.0)));
        let _ = write!(
            out,
            r##"<g class="errorbar" stroke="#111" stroke-width="1.5"><line x1="{cx:.1}" x2="{cx:.1}" y1="{lo:.1}" y2="{hi:.1}"/><line x1="{:.1}" x2="{:.1}" y1="{lo:.1}" y2="{lo:.1}"/><line x1="{:.1}" x2="{:.1}" y1="{hi:.1}" y2="{hi:.1}"/></g>"##,
            cx - 8.0,
            cx + 8.0,
            cx - 8.0,
            cx + 8.0
        );
        let _ = write!(
            out,
            r#"<text x="{cx:.1}" y="{:.1}" class="tick" text-anchor="middle">{:.1}%</text><text x="{cx:.1}" y="{}" class="tick" text-anchor="middle">{}</text>"#,
            hi - 5.0,
            rate * 100.0,
            H - MB + 16.0,
            esc(label)
        );
    }
    out.push_str("</svg>");
    out
}

/// Bars of one histogram series: name, (x, count) points, color index.
pub type Bars = (String, Vec<(f64, f64)>, usize);

/// A histogram: (x, count) bars of width 1, as fractions of `total`.
pub fn histogram(title: &str, xlabel: &str, series: &[Bars], total: &[f64]) -> String {
    let mut x0 = f64::MAX;
    let mut x1 = f64::MIN;
    let mut y1 = 0f64;
    for (k, (_, pts, _)) in series.iter().enumerate() {
        for &(x, c) in pts {
            if c > 0.0 {
                x0 = x0.min(x - 0.5);
                x1 = x1.max(x + 0.5);
                y1 = y1.max(c / total[k].max(1.0));
            }
        }
    }
    if x0 > x1 {
        (x0, x1) = (0.0, 1.0);
    }
    let y1 = ticks(0.0, y1.max(0.01), 6)
        .last()
        .copied()
        .unwrap_or(1.0)
        .max(y1);
    let f = Frame {
        x0,
        x1,
        y0: 0.0,
        y1,
    };
    let mut out = String::new();
    f.open(&mut out, title, xlabel, "fraction of games", true);
    let k = series.len().max(1) as f64;
    let bw = (f.x(1.0) - f.x(0.0)) / k;
    for (j, (name, pts, col)) in series.iter().enumerate() {
        for &(x, c) in pts {
            if c <= 0.0 {
                continue;
            }
            let v = c / total[j].max(1.0);
            let left = f.x(x - 0.5) + j as f64 * bw;
            let _ = write!(
                out,
                r#"<rect class="bar" x="{left:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{}" opacity="0.8"><title>{} {}: {:.2}%</title></rect>"#,
                f.y(v),
                (bw - 0.5).max(0.5),
                f.y(0.0) - f.y(v),
                color(*col),
                esc(name),
                x,
                v * 100.0
            );
        }
    }
    let items: Vec<(String, &str, bool)> = series
        .iter()
        .map(|(n, _, c)| (n.clone(), color(*c), false))
        .collect();
    if series.len() > 1 {
        legend(&mut out, &items);
    }
    out.push_str("</svg>");
    out
}

/// A heat map of a matchup matrix (row's score against column), values in [0, 1].
pub fn heatmap(title: &str, m: &[Vec<f64>], names: &[String]) -> String {
    let n = names.len().max(1);
    let cell = (480.0 / n as f64).clamp(22.0, 70.0);
    let longest = names.iter().map(|s| s.chars().count()).max().unwrap_or(4) as f64;
    let left = 20.0 + 7.0 * longest;
    let top = 40.0 + 5.5 * longest;
    let w = left + cell * n as f64 + 20.0 + 4.0 * longest;
    let h = top + cell * n as f64 + 20.0;
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<svg class="chart heatmap" xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-label="{t}"><text x="{}" y="20" class="title" text-anchor="middle">{t}</text>"#,
        w / 2.0,
        t = esc(title)
    );
    for (i, name) in names.iter().enumerate() {
        let y = top + cell * (i as f64 + 0.5) + 4.0;
        let _ = write!(
            out,
            r#"<text x="{}" y="{y:.1}" class="tick" text-anchor="end">{}</text>"#,
            left - 6.0,
            esc(name)
        );
        let x = left + cell * (i as f64 + 0.5);
        let _ = write!(
            out,
            r#"<text x="{x:.1}" y="{}" class="tick" text-anchor="start" transform="rotate(-50 {x:.1} {})">{}</text>"#,
            top - 6.0,
            top - 6.0,
            esc(name)
        );
    }
    for (i, row) in m.iter().enumerate().take(n) {
        for (j, &v) in row.iter().enumerate().take(n) {
            let (x, y) = (left + cell * j as f64, top + cell * i as f64);
            let fill = if i == j || !v.is_finite() {
                "#eeeeee".to_string()
            } else {
                diverging(v)
            };
            let shown = if v.is_finite() {
                format!("{:.1}%", v * 100.0)
            } else {
                "–".to_string()
            };
            let _ = write!(
                out,
                r##"<rect class="cell" x="{x:.1}" y="{y:.1}" width="{cell:.1}" height="{cell:.1}" fill="{fill}" stroke="#fff"><title>{} vs {}: {shown}</title></rect>"##,
                esc(&names[i]),
                esc(&names[j]),
            );
            if cell >= 30.0 && v.is_finite() && i != j {
                let _ = write!(
                    out,
                    r#"<text x="{:.1}" y="{:.1}" class="cellv" text-anchor="middle">{:.0}</text>"#,
                    x + cell / 2.0,
                    y + cell / 2.0 + 4.0,
                    v * 100.0
                );
            }
        }
    }
    out.push_str("</svg>");
    out
}

/// Blue (0) – white (0.5) – red (1).
fn diverging(v: f64) -> String {
    let v = v.clamp(0.0, 1.0);
    let (r, g, b) = if v < 0.5 {
        let t = v / 0.5;
        ((33.0 + t * 222.0), (102.0 + t * 153.0), (172.0 + t * 83.0))
    } else {
        let t = (v - 0.5) / 0.5;
        ((255.0 - t * 77.0), (255.0 - t * 231.0), (255.0 - t * 212.0))
    };
    format!("#{:02x}{:02x}{:02x}", r as u8, g as u8, b as u8)
}

// -------------------------------------------------------------------------
// The page

/// Turns of strategy `s` worth plotting: those reached by at least 1% of its
/// games (the tail averages are over very few games).
fn plot_turns(s: &StrategyStats) -> usize {
    let g = s.games();
    s.turns
        .iter()
        .rposition(|t| t.n * 100 >= g.max(1))
        .map_or(0, |i| i + 1)
}

fn per_turn(
    st: &PlaytestStats,
    f: impl Fn(&super::TurnAcc) -> f64,
    suffix: &str,
    dashed: bool,
    color_offset: usize,
) -> Vec<Series> {
    st.strategies
        .iter()
        .enumerate()
        .map(|(i, s)| Series {
            name: format!("{}{suffix}", st.names[i]),
            points: (0..plot_turns(s))
                .filter(|&t| s.turns[t].n > 0)
                .map(|t| ((t + 1) as f64, f(&s.turns[t])))
                .collect(),
            dashed,
            color: i + color_offset,
        })
        .collect()
}

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// The report as an HTML string.
pub fn render_html(st: &PlaytestStats, opts: &ReportOptions) -> String {
    let title = opts
        .title
        .clone()
        .unwrap_or_else(|| "domsim playtest report".into());
    let mut h = String::with_capacity(1 << 18);
    let _ = write!(
        h,
        r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{t}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body {{ font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 24px; color: #222; max-width: 1240px; }}
h1 {{ margin-bottom: 4px; }} h2 {{ margin-top: 32px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }}
.note {{ color: #666; font-size: 13px; }}
.grid {{ display: flex; flex-wrap: wrap; gap: 12px; }}
svg.chart {{ background: #fff; border: 1px solid #ddd; border-radius: 4px; }}
svg .title {{ font-size: 14px; font-weight: 600; }} svg .tick {{ font-size: 11px; fill: #444; }}
svg .axis {{ font-size: 12px; fill: #222; }} svg .legend {{ font-size: 11px; fill: #222; }}
svg .cellv {{ font-size: 11px; fill: #111; }}
table {{ border-collapse: collapse; font-size: 13px; margin: 8px 0; }}
th, td {{ border: 1px solid #ddd; padding: 3px 8px; text-align: right; }}
th {{ background: #f4f4f4; }} td:first-child, th:first-child {{ text-align: left; }}
</style></head><body>
<h1>{t}</h1>
"#,
        t = esc(&title)
    );
    if let Some(n) = &opts.note {
        let _ = writeln!(h, r#"<p class="note">{}</p>"#, esc(n));
    }
    if st.games == 0 {
        // A matchup matrix alone (`domsim matrix --report`): no game statistics.
        if let Some((m, names)) = opts.matrix {
            h.push_str("<h2>Matchup matrix</h2>\n<p class=\"note\">Score of the row strategy against the column strategy (%; a shared win counts 1/k).</p>\n");
            h.push_str(&heatmap("Matchup matrix: row's score", m, names));
            h.push_str("\n<p class=\"note\">Generated by domsim.</p>\n</body></html>\n");
            return h;
        }
    }
    let _ = writeln!(
        h,
        r#"<p>{} games, {} players. Kingdom: {}. Strategies rotate over the seats.</p>"#,
        st.games,
        st.players,
        esc(&st.kingdom.join(", "))
    );

    // Summary
    h.push_str("<h2>Scores</h2>\n<table><tr><th>strategy</th><th>games</th><th>score</th><th>±95%</th><th>sole wins</th><th>shared</th><th>avg VP</th><th>avg turns</th></tr>\n");
    for (i, s) in st.strategies.iter().enumerate() {
        let sc = s.score();
        let g = s.games().max(1) as f64;
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{:.2}%</td><td>{}</td><td>{}</td><td>{:.2}</td><td>{:.2}</td></tr>",
            esc(&st.names[i]),
            s.games(),
            pct(sc.rate()),
            sc.ci95() * 100.0,
            sc.sole_wins,
            sc.shared_wins,
            s.avg_vp(),
            s.turns_taken as f64 / g
        );
    }
    h.push_str("</table>\n<p class=\"note\">Score: the win rate with a win shared by k players counted as 1/k (the <code>score</code> of the CSV files; <code>win_rate</code> there counts outright wins only). The interval is the 95% normal interval of the mean.</p>\n<div class=\"grid\">");
    let mut bars: Vec<(String, f64, f64, usize)> = st
        .strategies
        .iter()
        .enumerate()
        .map(|(i, s)| (st.names[i].clone(), s.score().rate(), s.score().ci95(), i))
        .collect();
    h.push_str(&rate_bars("Score by strategy (95% CI)", "score", &bars));
    bars = (0..st.players as usize)
        .map(|p| {
            (
                format!("seat {}", p + 1),
                st.seats[p].rate(),
                st.seats[p].ci95(),
                8,
            )
        })
        .collect();
    h.push_str(&rate_bars(
        "Score by seat, all strategies (95% CI)",
        "score",
        &bars,
    ));
    h.push_str("</div>\n<table><tr><th>strategy</th>");
    for p in 0..st.players {
        let _ = write!(h, "<th>seat {}</th>", p + 1);
    }
    h.push_str("</tr>\n");
    for (i, s) in st.strategies.iter().enumerate() {
        let _ = write!(h, "<tr><td>{}</td>", esc(&st.names[i]));
        for p in 0..st.players as usize {
            let a = &s.seats[p];
            let _ = write!(
                h,
                "<td>{} ± {:.1}% (n={})</td>",
                pct(a.rate()),
                a.ci95() * 100.0,
                a.games
            );
        }
        h.push_str("</tr>\n");
    }
    // Wins, ties and losses by seat, whoever sat there (the first player's
    // win share is what other simulators publish).
    h.push_str("<tr><td><b>all strategies: wins / ties / losses</b></td>");
    for p in 0..st.players as usize {
        let a = &st.seats[p];
        let n = a.games.max(1) as f64;
        let losses = a.games - a.sole_wins - a.shared_wins;
        let _ = write!(
            h,
            "<td>{} / {} / {}</td>",
            pct(a.sole_wins as f64 / n),
            pct(a.shared_wins as f64 / n),
            pct(losses as f64 / n)
        );
    }
    h.push_str("</tr>\n");
    h.push_str("</table>\n");

    // Game length
    h.push_str("<h2>Game length and endings</h2>\n<div class=\"grid\">");
    let len: Vec<(f64, f64)> = st
        .length
        .iter()
        .enumerate()
        .map(|(t, &c)| (t as f64, c as f64))
        .collect();
    h.push_str(&histogram(
        "Game length in rounds (turns of the longest-playing seat)",
        "rounds",
        &[("all games".into(), len, 0)],
        &[st.games as f64],
    ));
    let margins: Vec<Bars> = st
        .strategies
        .iter()
        .enumerate()
        .map(|(i, s)| {
            (
                st.names[i].clone(),
                s.margin
                    .iter()
                    .enumerate()
                    .map(|(j, &c)| ((j as i32 - MARGIN) as f64, c as f64))
                    .collect(),
                i,
            )
        })
        .collect();
    let totals: Vec<f64> = st.strategies.iter().map(|s| s.games() as f64).collect();
    h.push_str(&histogram(
        "VP margin (own VP − best opponent's VP)",
        "VP margin",
        &margins,
        &totals,
    ));
    h.push_str("</div>\n");
    let g = st.games.max(1) as f64;
    let _ = writeln!(
        h,
        "<table><tr><th>ending</th><th>games</th><th>share</th></tr><tr><td>Provinces gone</td><td>{}</td><td>{}</td></tr><tr><td>{} piles empty</td><td>{}</td><td>{}</td></tr><tr><td>turn cap</td><td>{}</td><td>{}</td></tr><tr><td>average length</td><td colspan=\"2\">{:.2} turns</td></tr><tr><td>games with a bot fault</td><td>{}</td><td>{}</td></tr></table>",
        st.ended_provinces,
        pct(st.ended_provinces as f64 / g),
        if st.players >= 5 { 4 } else { 3 },
        st.ended_piles,
        pct(st.ended_piles as f64 / g),
        st.ended_cap,
        pct(st.ended_cap as f64 / g),
        st.avg_length(),
        st.faults,
        pct(st.faults as f64 / g)
    );

    // Per turn
    h.push_str("<h2>Per turn</h2>\n<p class=\"note\">Averages over the turns that were played (turn t counts only games that lasted t turns for that player), shown up to the last turn reached by 1% of the games.</p>\n<div class=\"grid\">");
    h.push_str(&line_chart(
        "Money generated per turn",
        "turn",
        "coins",
        &per_turn(st, |t| t.money_avg(), "", false, 0),
        None,
    ));
    h.push_str(&line_chart(
        "VP at end of turn",
        "turn",
        "VP",
        &per_turn(st, |t| t.vp_avg(), "", false, 0),
        None,
    ));
    let mut hits = per_turn(st, |t| t.p5(), " $5+", false, 0);
    hits.extend(per_turn(st, |t| t.p6(), " $6+", true, 0));
    let mut p8 = per_turn(st, |t| t.p8(), " $8+", false, 0);
    for s in &mut p8 {
        s.color += 4;
    }
    hits.extend(p8);
    h.push_str(&line_chart(
        "P(hit $5 / $6 / $8) per turn",
        "turn",
        "probability",
        &hits,
        Some((0.0, 1.0)),
    ));
    h.push_str(&line_chart(
        "Deck size at end of turn",
        "turn",
        "cards owned",
        &per_turn(st, |t| t.deck_avg(), "", false, 0),
        None,
    ));
    h.push_str(&line_chart(
        "Cards gained per turn",
        "turn",
        "cards",
        &per_turn(st, |t| t.gained_avg(), "", false, 0),
        None,
    ));
    h.push_str("</div>\n");

    // Cards
    h.push_str("<h2>Cards</h2>\n<p class=\"note\">Gain curves: average copies gained by the end of each own turn (cumulative), for the 8 cards each strategy gains most.</p>\n<div class=\"grid\">");
    let cards = st.cards_seen();
    // Colors follow the card, the same in every strategy's chart: cards
    // ranked by total gains over all strategies.
    let mut ranked: Vec<Card> = cards.clone();
    let total_gains = |c: Card| -> u64 {
        st.strategies
            .iter()
            .map(|s| s.cards[c as usize].gained)
            .sum()
    };
    ranked.sort_by_key(|&c| std::cmp::Reverse(total_gains(c)));
    let card_color = |c: Card| ranked.iter().position(|&x| x == c).unwrap_or(0);
    for (i, s) in st.strategies.iter().enumerate() {
        let mut top: Vec<Card> = cards
            .iter()
            .copied()
            .filter(|&c| s.cards[c as usize].gained > 0)
            .collect();
        top.sort_by_key(|&c| std::cmp::Reverse(s.cards[c as usize].gained));
        top.truncate(8);
        let last = plot_turns(s);
        let series: Vec<Series> = top
            .iter()
            .map(|&c| Series {
                name: c.name().to_string(),
                points: s
                    .gain_curve(c)
                    .iter()
                    .take(last)
                    .enumerate()
                    .map(|(t, &v)| ((t + 1) as f64, v))
                    .collect(),
                dashed: false,
                color: card_color(c),
            })
            .collect();
        h.push_str(&line_chart(
            &format!("Card gains: {}", st.names[i]),
            "turn",
            "copies gained (cumulative)",
            &series,
            None,
        ));
    }
    h.push_str("</div>\n");
    for (i, s) in st.strategies.iter().enumerate() {
        let g = s.games().max(1) as f64;
        let _ = writeln!(
            h,
            "<h3>{}</h3>\n<table><tr><th>card</th><th>gained/game</th><th>bought/game</th><th>played/game</th><th>trashed/game</th><th>owned at end</th><th>first gain turn</th><th>games with a gain</th></tr>",
            esc(&st.names[i])
        );
        for &c in &cards {
            let a = &s.cards[c as usize];
            if a.gained == 0 && a.owned_end == 0 && a.played == 0 {
                continue;
            }
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td>{:.2}</td><td>{:.2}</td><td>{:.2}</td><td>{:.2}</td><td>{:.2}</td><td>{}</td><td>{}</td></tr>",
                c.name(),
                a.gained as f64 / g,
                a.bought as f64 / g,
                a.played as f64 / g,
                a.trashed as f64 / g,
                s.avg_owned_end(c),
                s.avg_first_gain(c)
                    .map_or("–".to_string(), |f| format!("{f:.2}")),
                pct(a.first_gain_games as f64 / g)
            );
        }
        h.push_str("</table>\n");
    }

    // Openings
    h.push_str("<h2>Openings</h2>\n<p class=\"note\">Coins generated on turns 1 and 2 (higher first) and the score of the games with that opening.</p>\n<div class=\"grid\">");
    for (i, s) in st.strategies.iter().enumerate() {
        let g = s.games().max(1) as f64;
        let _ = write!(
            h,
            "<table><tr><th colspan=\"4\">{}</th></tr><tr><th>opening</th><th>games</th><th>share</th><th>score ± 95%</th></tr>",
            esc(&st.names[i])
        );
        for hi in (0..N_OPEN).rev() {
            for lo in (0..=hi).rev() {
                let o = s.opening(hi, lo);
                if o.games == 0 {
                    continue;
                }
                let plus = if hi == OPEN_MAX { "+" } else { "" };
                let _ = write!(
                    h,
                    "<tr><td>${hi}{plus}/${lo}</td><td>{}</td><td>{}</td><td>{} ± {:.1}%</td></tr>",
                    o.games,
                    pct(o.games as f64 / g),
                    pct(o.rate()),
                    o.ci95() * 100.0
                );
            }
        }
        h.push_str("</table>");
    }
    h.push_str("</div>\n");

    if let Some((m, names)) = opts.matrix {
        h.push_str("<h2>Matchup matrix</h2>\n<p class=\"note\">Score of the row strategy against the column strategy (%; a shared win counts 1/k).</p>\n");
        h.push_str(&heatmap("Matchup matrix: row's score", m, names));
    }
    h.push_str("\n<p class=\"note\">Generated by domsim. Columns of every statistic: see results/STATS.md.</p>\n</body></html>\n");
    h
}
