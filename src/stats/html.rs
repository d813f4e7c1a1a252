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
    pub matrix: Option<(&'a [Vec<Cell>], &'a [String])>,
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

/// Twenty colours distinct enough side by side (the first ten are the
/// classic categorical ones, the next ten their darker or lighter
/// companions); strategies take the first ones, cards are coloured by
/// [`card_colors`].
const PALETTE: [&str; 20] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
    "#7f7f7f", "#bcbd22", "#0b3d91", "#f7a1a1", "#0f5e1c", "#ffc266", "#4b2a7b", "#c49c94",
    "#6b1450", "#9edae5", "#2f2f2f", "#5c5c0a",
];

/// One colour per card for the whole report, distinct within every chart:
/// `charts` lists the cards of each chart; cards are taken in `ranked`
/// order (most gained first) and each gets the first palette colour no card
/// has yet, and once all are taken, the first that no card sharing a chart
/// with it has. Returns (card, colour index, dashed): a card whose
/// neighbours use every colour is drawn dashed.
pub fn card_colors(ranked: &[Card], charts: &[Vec<Card>]) -> Vec<(Card, usize, bool)> {
    let mut out: Vec<(Card, usize, bool)> = Vec::new();
    for &c in ranked {
        let mut used = [0u8; PALETTE.len()];
        for chart in charts.iter().filter(|ch| ch.contains(&c)) {
            for other in chart {
                if let Some(&(_, k, d)) = out.iter().find(|x| x.0 == *other) {
                    used[k] |= 1 << d as u8;
                }
            }
        }
        let fresh = (0..PALETTE.len()).find(|&k| !out.iter().any(|e| e.1 == k));
        let pick = fresh
            .or_else(|| (0..PALETTE.len()).find(|&k| used[k] & 1 == 0))
            .map(|k| (k, false))
            .or_else(|| {
                (0..PALETTE.len())
                    .find(|&k| used[k] & 2 == 0)
                    .map(|k| (k, true))
            })
            .unwrap_or((0, true));
        out.push((c, pick.0, pick.1));
    }
    out
}
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

/// A tick label with as many decimals as the value needs (0.025 is
/// "0.025", never "0.03"), at most 6.
fn fmt_tick(v: f64) -> String {
    for d in 0..=6 {
        let scale = 10f64.powi(d);
        if (v * scale - (v * scale).round()).abs() < 1e-6 {
            return format!("{v:.*}", d as usize);
        }
    }
    format!("{v:.6}")
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
        title_text(out, title);
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

/// The width `text` takes at `px` pixels in the report's sans-serif font,
/// estimated at 0.55 em a character (a little more than such fonts'
/// average for words and spaces): what decides whether a title fits above
/// the plot or a label under its bar. The browser test measures the real
/// widths (tests/it/browser.rs).
fn text_width(text: &str, px: f64) -> f64 {
    text.chars().count() as f64 * px * 0.55
}

/// A chart's title: centred over the plot when it fits there, else over
/// the whole chart, and squeezed to the chart's width (`textLength`) when
/// even that is too narrow, so that no title is ever clipped.
fn title_text(out: &mut String, title: &str) {
    let w = text_width(title, 14.0);
    let over_plot = (ML + W - MR) / 2.0;
    if w <= 2.0 * over_plot.min(W - over_plot) - 8.0 {
        let _ = write!(
            out,
            r#"<text x="{over_plot}" y="20" class="title" text-anchor="middle">{}</text>"#,
            esc(title)
        );
    } else if w <= W - 12.0 {
        let _ = write!(
            out,
            r#"<text x="{}" y="20" class="title" text-anchor="middle">{}</text>"#,
            W / 2.0,
            esc(title)
        );
    } else {
        let _ = write!(
            out,
            r#"<text x="{}" y="20" class="title" text-anchor="middle" textLength="{}" lengthAdjust="spacingAndGlyphs">{}</text>"#,
            W / 2.0,
            W - 12.0,
            esc(title)
        );
    }
}

fn legend(out: &mut String, items: &[(String, &str, bool)]) {
    for (i, (full, col, dashed)) in items.iter().enumerate() {
        // The right margin holds about 24 characters: longer names are
        // shortened, in full in their tooltip.
        let name = if full.chars().count() > 24 {
            format!("{}…", full.chars().take(23).collect::<String>())
        } else {
            full.clone()
        };
        let y = MT + 8.0 + i as f64 * 17.0;
        let x = W - MR + 10.0;
        let dash = if *dashed {
            r#" stroke-dasharray="5 3""#
        } else {
            ""
        };
        let _ = write!(
            out,
            r#"<line x1="{x}" x2="{}" y1="{y}" y2="{y}" stroke="{col}" stroke-width="2.5"{dash}/><text x="{}" y="{}" class="legend">{}<title>{}</title></text>"#,
            x + 18.0,
            x + 23.0,
            y + 4.0,
            esc(&name),
            esc(full)
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
    line_chart_banded(title, xlabel, ylabel, series, &[], y_range)
}

/// A band around a line: its colour index and `(x, low, high)` points.
pub type Band = (usize, Vec<(f64, f64, f64)>);

/// [`line_chart`] with shaded bands (e.g. the quartiles around a mean),
/// drawn under the lines.
pub fn line_chart_banded(
    title: &str,
    xlabel: &str,
    ylabel: &str,
    series: &[Series],
    bands: &[Band],
    y_range: Option<(f64, f64)>,
) -> String {
    let band_pts = bands
        .iter()
        .flat_map(|b| b.1.iter().flat_map(|&(x, lo, hi)| [(x, lo), (x, hi)]));
    let pts = series
        .iter()
        .flat_map(|s| s.points.iter().copied())
        .chain(band_pts)
        .collect::<Vec<_>>();
    let pts = pts.iter();
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
    for (col, pts) in bands {
        if pts.is_empty() {
            continue;
        }
        let mut d = String::new();
        for (i, &(x, _, hi)) in pts.iter().enumerate() {
            let _ = write!(
                d,
                "{}{:.1},{:.1}",
                if i == 0 { "M" } else { " L" },
                f.x(x),
                f.y(hi)
            );
        }
        for &(x, lo, _) in pts.iter().rev() {
            let _ = write!(d, " L{:.1},{:.1}", f.x(x), f.y(lo));
        }
        let _ = write!(
            out,
            r#"<path class="band" d="{d} Z" fill="{}" fill-opacity="0.15" stroke="none"/>"#,
            color(*col)
        );
    }
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
/// Labels too wide for their bar's slot (they would overlap their
/// neighbours') are replaced under the bars by numbers, with a key in
/// the right margin: each number, its bar's colour and the label.
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
    let keyed = bars.iter().any(|b| text_width(&b.0, 11.0) > slot - 6.0);
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
            r#"<text x="{cx:.1}" y="{:.1}" class="tick" text-anchor="middle">{:.1}%</text>"#,
            hi - 5.0,
            rate * 100.0,
        );
        if keyed {
            let _ = write!(
                out,
                r#"<text x="{cx:.1}" y="{}" class="tick" text-anchor="middle">{}<title>{}</title></text>"#,
                H - MB + 16.0,
                i + 1,
                esc(label)
            );
        } else {
            let _ = write!(
                out,
                r#"<text x="{cx:.1}" y="{}" class="tick" text-anchor="middle">{}</text>"#,
                H - MB + 16.0,
                esc(label)
            );
        }
    }
    if keyed {
        bar_key(&mut out, bars);
    }
    out.push_str("</svg>");
    out
}

/// The key of a [`rate_bars`] chart whose bars are numbered: a row per
/// bar in the right margin (its number, a swatch of its colour, its label,
/// shortened to the margin with the whole label in its tooltip).
fn bar_key(out: &mut String, bars: &[(String, f64, f64, usize)]) {
    let x = W - MR + 12.0;
    let step = ((H - MT - MB) / bars.len().max(1) as f64).min(17.0);
    for (i, (label, _, _, col)) in bars.iter().enumerate() {
        let y = MT + 8.0 + i as f64 * step;
        let room = MR - 12.0 - 34.0;
        let most = (room / (11.0 * 0.55)) as usize;
        let name = if label.chars().count() > most {
            format!("{}…", label.chars().take(most - 1).collect::<String>())
        } else {
            label.clone()
        };
        let _ = write!(
            out,
            r#"<g class="key"><text x="{x}" y="{}" class="legend" text-anchor="start">{}</text><rect x="{}" y="{}" width="10" height="10" fill="{}" opacity="0.85"/><text x="{}" y="{}" class="legend">{}<title>{}</title></text></g>"#,
            y + 4.0,
            i + 1,
            x + 16.0,
            y - 5.0,
            color(*col),
            x + 32.0,
            y + 4.0,
            esc(&name),
            esc(label)
        );
    }
}

/// Bars of one histogram series: name, (x, count) points, color index.
pub type Bars = (String, Vec<(f64, f64)>, usize);

/// A histogram: (x, count) bars of width 1, as fractions of `total`.
pub fn histogram(title: &str, xlabel: &str, series: &[Bars], total: &[f64]) -> String {
    histogram_in(title, xlabel, series, total, None, None)
}

/// [`histogram`], with the x range covering at least `span` and the y axis
/// at least `ymax` (so that small multiples share their axes).
pub fn histogram_in(
    title: &str,
    xlabel: &str,
    series: &[Bars],
    total: &[f64],
    span: Option<(f64, f64)>,
    ymax: Option<f64>,
) -> String {
    let mut x0 = span.map_or(f64::MAX, |s| s.0 - 0.5);
    let mut x1 = span.map_or(f64::MIN, |s| s.1 + 0.5);
    let mut y1 = ymax.unwrap_or(0.0);
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

/// One cell of a matchup matrix: the row's score (wins + shared wins
/// split) and the games played; `None` on the diagonal.
pub type Cell = Option<(f64, u64)>;

/// A heat map of a matchup matrix (row's score against column): rows and
/// columns sorted by the row's mean score (strongest first), a mean column,
/// each cell's 95% interval in its tooltip, a colour key, and cell numbers
/// whenever the cells are big enough to read them (sized for 2 to 60
/// strategies; the page scrolls the map sideways rather than overflow).
pub fn heatmap(title: &str, cells: &[Vec<Cell>], names: &[String]) -> String {
    let n = names.len().max(1);
    let rate = |c: &Cell| c.map(|(s, g)| if g > 0 { s / g as f64 } else { f64::NAN });
    let means: Vec<f64> = (0..names.len())
        .map(|i| {
            let v: Vec<f64> = cells[i]
                .iter()
                .filter_map(rate)
                .filter(|x| x.is_finite())
                .collect();
            if v.is_empty() {
                f64::NAN
            } else {
                v.iter().sum::<f64>() / v.len() as f64
            }
        })
        .collect();
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|&a, &b| {
        means[b]
            .partial_cmp(&means[a])
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.cmp(&b))
    });
    let cell = (560.0 / n as f64).clamp(16.0, 64.0);
    let font = (cell * 0.36).clamp(8.0, 12.0);
    let longest = names.iter().map(|s| s.chars().count()).max().unwrap_or(4) as f64;
    let left = 20.0 + 6.5 * longest;
    let top = 40.0 + 4.8 * longest;
    let mean_w = 52.0;
    let w = left + cell * n as f64 + mean_w + 30.0;
    let key_h = 46.0;
    let h = top + cell * n as f64 + key_h + 10.0;
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<div class="scroll"><svg class="chart heatmap" xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" role="img" aria-label="{t}"><text x="{}" y="20" class="title" text-anchor="middle">{t}</text>"#,
        w / 2.0,
        t = esc(title)
    );
    for (r, &i) in order.iter().enumerate() {
        let y = top + cell * (r as f64 + 0.5) + 4.0;
        let _ = write!(
            out,
            r#"<text x="{}" y="{y:.1}" class="tick" text-anchor="end">{}</text>"#,
            left - 6.0,
            esc(&names[i])
        );
        let x = left + cell * (r as f64 + 0.5);
        let _ = write!(
            out,
            r#"<text x="{x:.1}" y="{}" class="tick" text-anchor="start" transform="rotate(-50 {x:.1} {})">{}</text>"#,
            top - 6.0,
            top - 6.0,
            esc(&names[i])
        );
    }
    let mx = left + cell * n as f64 + 8.0;
    let _ = write!(
        out,
        r#"<text x="{:.1}" y="{:.1}" class="tick" text-anchor="middle">mean</text>"#,
        mx + mean_w / 2.0,
        top - 6.0
    );
    for (r, &i) in order.iter().enumerate() {
        let y = top + cell * r as f64;
        for (c, &j) in order.iter().enumerate() {
            let x = left + cell * c as f64;
            let v = rate(&cells[i][j]).unwrap_or(f64::NAN);
            let fill = if i == j || !v.is_finite() {
                "#eeeeee".to_string()
            } else {
                diverging(v)
            };
            let tip = match cells[i][j] {
                Some((sc, g)) if g > 0 && i != j => {
                    let (lo, hi) = crate::sim::wilson(sc, g);
                    format!(
                        "{} vs {}: {:.1}% [{:.1}%, {:.1}%], {g} games",
                        esc(&names[i]),
                        esc(&names[j]),
                        v * 100.0,
                        lo * 100.0,
                        hi * 100.0
                    )
                }
                _ => format!("{} vs {}: –", esc(&names[i]), esc(&names[j])),
            };
            let _ = write!(
                out,
                r##"<rect class="cell" x="{x:.1}" y="{y:.1}" width="{cell:.1}" height="{cell:.1}" fill="{fill}" stroke="#fff"><title>{tip}</title></rect>"##
            );
            if cell >= 18.0 && v.is_finite() && i != j {
                let ink = if (v - 0.5).abs() > 0.32 {
                    "#fff"
                } else {
                    "#111"
                };
                let _ = write!(
                    out,
                    r#"<text x="{:.1}" y="{:.1}" class="cellv" font-size="{font:.0}" fill="{ink}" text-anchor="middle">{:.0}</text>"#,
                    x + cell / 2.0,
                    y + cell / 2.0 + font / 3.0,
                    v * 100.0
                );
            }
        }
        let m = means[i];
        let _ = write!(
            out,
            r##"<rect x="{mx:.1}" y="{y:.1}" width="{mean_w}" height="{cell:.1}" fill="{}" stroke="#fff"><title>{}: mean score {:.1}%</title></rect><text x="{:.1}" y="{:.1}" class="cellv" font-size="{font:.0}" text-anchor="middle">{}</text>"##,
            if m.is_finite() {
                diverging(m)
            } else {
                "#eeeeee".into()
            },
            esc(&names[i]),
            m * 100.0,
            mx + mean_w / 2.0,
            y + cell / 2.0 + font / 3.0,
            if m.is_finite() {
                format!("{:.1}", m * 100.0)
            } else {
                "–".into()
            }
        );
    }
    // Colour key: 0% … 50% … 100%.
    let ky = top + cell * n as f64 + 14.0;
    let kw = 240.0;
    for k in 0..=40 {
        let v = k as f64 / 40.0;
        let _ = write!(
            out,
            r#"<rect x="{:.1}" y="{ky:.1}" width="{:.1}" height="12" fill="{}"/>"#,
            left + v * kw,
            kw / 40.0 + 0.5,
            diverging(v)
        );
    }
    for (v, label) in [(0.0, "0%"), (0.5, "50%"), (1.0, "100%")] {
        let _ = write!(
            out,
            r#"<text x="{:.1}" y="{:.1}" class="tick" text-anchor="middle">{label}</text>"#,
            left + v * kw,
            ky + 26.0
        );
    }
    let _ = write!(
        out,
        r#"<text x="{:.1}" y="{:.1}" class="tick">row's score against the column</text>"#,
        left + kw + 12.0,
        ky + 10.0
    );
    out.push_str("</svg></div>");
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

/// The report's style sheet, shared by the report, the comparison of two
/// runs and the page of `domsim serve` (which shows the same charts).
pub const STYLE: &str = r#"body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 24px; color: #222; max-width: 1240px; }
h1 { margin-bottom: 4px; } h2 { margin-top: 32px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
.note { color: #666; font-size: 13px; }
.grid { display: flex; flex-wrap: wrap; gap: 12px; }
svg.chart { background: #fff; border: 1px solid #ddd; border-radius: 4px; }
.scroll { max-width: 100%; overflow-x: auto; }
svg .title { font-size: 14px; font-weight: 600; } svg .tick { font-size: 11px; fill: #444; }
svg .axis { font-size: 12px; fill: #222; } svg .legend { font-size: 11px; fill: #222; }
svg .cellv { font-size: 11px; fill: #111; }
table { border-collapse: collapse; font-size: 13px; margin: 8px 0; }
th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: right; }
th { background: #f4f4f4; } td:first-child, th:first-child { text-align: left; }
"#;

/// The opening of a page with the report's style: up to the `<h1>` title.
pub fn page_head(title: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{t}</title>\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<style>\n{STYLE}</style></head><body>\n<h1>{t}</h1>\n",
        t = esc(title)
    )
}

/// Scores: the table by strategy, the score bars by strategy and by seat,
/// and the score of each strategy from each seat.
pub fn scores_section(st: &PlaytestStats) -> String {
    let mut h = String::new();
    h.push_str("<h2>Scores</h2>\n<table><tr><th>strategy</th><th>games</th><th>score</th><th>±95% (normal)</th><th>sole wins</th><th>shared</th><th>avg VP</th><th>avg turns</th></tr>\n");
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
    h.push_str("</table>\n<p class=\"note\">Score: the win rate with a win shared by k players counted as 1/k (the <code>score</code> of the CSV files; <code>win_rate</code> there counts outright wins only). ±95%: the half-width of the 95% normal interval of the mean score (1.96·s/√n from the sample variance; when every game scored the same, the far side of the Wilson interval). <code>domsim sim</code>'s table and the <code>score_lo</code>/<code>score_hi</code> of its CSV give the 95% Wilson interval of the same score instead (ties as fractional successes); <code>win_rate_lo</code>/<code>win_rate_hi</code> are the Wilson interval of outright wins.</p>\n<div class=\"grid\">");
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

    h
}

/// Game length in rounds, VP margins (one chart per strategy beyond two)
/// and how the games ended.
pub fn length_section(st: &PlaytestStats) -> String {
    let mut h = String::new();
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
    if margins.len() <= 2 {
        h.push_str(&histogram(
            "VP margin (own VP − best opponent's VP)",
            "VP margin",
            &margins,
            &totals,
        ));
        h.push_str("</div>\n");
    } else {
        // Small multiples: one histogram per strategy on a common x range
        // (interleaved bars of 3+ strategies are unreadable).
        h.push_str("</div>\n<p class=\"note\">VP margin (own VP − best opponent's VP), one chart per strategy on the same axes.</p>\n<div class=\"grid\">");
        let span = margins
            .iter()
            .flat_map(|m| m.1.iter())
            .filter(|p| p.1 > 0.0)
            .fold((f64::MAX, f64::MIN), |(lo, hi), p| {
                (lo.min(p.0), hi.max(p.0))
            });
        let ymax = margins
            .iter()
            .zip(&totals)
            .flat_map(|(m, t)| m.1.iter().map(move |p| p.1 / t.max(1.0)))
            .fold(0.0, f64::max);
        for (k, m) in margins.iter().enumerate() {
            h.push_str(&histogram_in(
                &format!("VP margin: {}", m.0),
                "VP margin",
                std::slice::from_ref(m),
                &totals[k..=k],
                Some(span),
                Some(ymax),
            ));
        }
        h.push_str("</div>\n");
    }
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

    h
}

/// Per-turn charts: money (with its middle-half band), VP, the chance to
/// hit $5/$6/$8, deck size and cards gained.
pub fn per_turn_section(st: &PlaytestStats) -> String {
    let mut h = String::new();
    h.push_str("<h2>Per turn</h2>\n<p class=\"note\">Averages over the turns that were played (turn t counts only games that lasted t turns for that player), shown up to the last turn reached by 1% of the games.</p>\n<div class=\"grid\">");
    let bands: Vec<Band> = st
        .strategies
        .iter()
        .enumerate()
        .map(|(i, s)| {
            (
                i,
                (0..plot_turns(s))
                    .filter_map(|t| {
                        let a = &s.turns[t];
                        Some((
                            (t + 1) as f64,
                            a.money_quantile(0.25)? as f64,
                            a.money_quantile(0.75)? as f64,
                        ))
                    })
                    .collect(),
            )
        })
        .collect();
    h.push_str(&line_chart_banded(
        "Money per turn (band: middle half)",
        "turn",
        "coins",
        &per_turn(st, |t| t.money_avg(), "", false, 0),
        &bands,
        None,
    ));
    h.push_str(&line_chart(
        "VP at end of turn",
        "turn",
        "VP",
        &per_turn(st, |t| t.vp_avg(), "", false, 0),
        None,
    ));
    // One chart per threshold, one line per strategy (3×N lines in one
    // chart were unreadable).
    for (label, f) in [
        ("$5", super::TurnAcc::p5 as fn(&super::TurnAcc) -> f64),
        ("$6", super::TurnAcc::p6),
        ("$8", super::TurnAcc::p8),
    ] {
        h.push_str(&line_chart(
            &format!("P(hit {label} or more) per turn"),
            "turn",
            "probability",
            &per_turn(st, f, "", false, 0),
            Some((0.0, 1.0)),
        ));
    }
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

    h
}

/// Card gain curves: each strategy's 8 most gained cards, one colour per
/// card across every chart.
pub fn card_gains_section(st: &PlaytestStats) -> String {
    let mut h = String::new();
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
    let tops: Vec<Vec<Card>> = st
        .strategies
        .iter()
        .map(|s| {
            let mut top: Vec<Card> = cards
                .iter()
                .copied()
                .filter(|&c| s.cards[c as usize].gained > 0)
                .collect();
            top.sort_by_key(|&c| std::cmp::Reverse(s.cards[c as usize].gained));
            top.truncate(8);
            top
        })
        .collect();
    let colors = card_colors(&ranked, &tops);
    let card_color = |c: Card| {
        colors
            .iter()
            .find(|x| x.0 == c)
            .map_or((0, false), |x| (x.1, x.2))
    };
    for (i, s) in st.strategies.iter().enumerate() {
        let top = &tops[i];
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
                dashed: card_color(c).1,
                color: card_color(c).0,
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
    h
}

/// Per strategy, a table of every card it gained, bought, played or owned.
pub fn card_tables(st: &PlaytestStats) -> String {
    let mut h = String::new();
    let cards = st.cards_seen();
    for (i, s) in st.strategies.iter().enumerate() {
        let g = s.games().max(1) as f64;
        let _ = writeln!(
            h,
            "<h3>{}</h3>\n<table><tr><th>card</th><th>gained/game</th><th>bought/game</th><th>played/game</th><th>trashed/game</th><th>owned at end</th><th>first gain turn</th><th>games with a gain</th><th>score when gained</th><th>first gained on turn 1–5</th><th>6–10</th><th>11–15</th><th>16+</th></tr>",
            esc(&st.names[i])
        );
        for &c in &cards {
            let a = &s.cards[c as usize];
            if a.gained == 0 && a.owned_end == 0 && a.played == 0 {
                continue;
            }
            let sc = |s: &super::ScoreAcc| {
                if s.games == 0 {
                    "–".to_string()
                } else {
                    format!("{} <small>(n={})</small>", pct(s.rate()), s.games)
                }
            };
            let by: String = a
                .gained_by
                .iter()
                .map(|b| format!("<td>{}</td>", sc(b)))
                .collect();
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td>{:.2}</td><td>{:.2}</td><td>{:.2}</td><td>{:.2}</td><td>{:.2}</td><td>{}</td><td>{}</td><td>{}</td>{by}</tr>",
                c.name(),
                a.gained as f64 / g,
                a.bought as f64 / g,
                a.played as f64 / g,
                a.trashed as f64 / g,
                s.avg_owned_end(c),
                s.avg_first_gain(c)
                    .map_or("–".to_string(), |f| format!("{f:.2}")),
                pct(a.first_gain_games as f64 / g),
                sc(&a.gained_score())
            );
        }
        h.push_str("</table>\n");
    }

    h
}

/// Opening buys and opening coins, with the score of the games opened so.
pub fn openings_section(st: &PlaytestStats) -> String {
    let mut h = String::new();
    h.push_str("<h2>Opening buys</h2>\n<p class=\"note\">The first card bought on turns 1 and 2 (either order; – for none) and the score of the games that opened so; the 12 most played per strategy.</p>\n<div class=\"grid\">");
    for (i, s) in st.strategies.iter().enumerate() {
        let g = s.games().max(1) as f64;
        let _ = write!(
            h,
            "<table><tr><th colspan=\"4\">{}</th></tr><tr><th>opening</th><th>games</th><th>share</th><th>score ± 95%</th></tr>",
            esc(&st.names[i])
        );
        let mut ob: Vec<&super::OpeningBuys> = s.opening_buys.iter().collect();
        ob.sort_by(|a, b| b.score.games.cmp(&a.score.games).then(a.buys.cmp(&b.buys)));
        for o in ob.iter().take(12) {
            let _ = write!(
                h,
                "<tr><td>{}/{}</td><td>{}</td><td>{}</td><td>{} ± {:.1}%</td></tr>",
                esc(&o.buys[0]),
                esc(&o.buys[1]),
                o.score.games,
                pct(o.score.games as f64 / g),
                pct(o.score.rate()),
                o.score.ci95() * 100.0
            );
        }
        h.push_str("</table>");
    }
    h.push_str("</div>\n");

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

    h
}

/// The charts of a run that `domsim serve` redraws as games arrive: game
/// length and endings, per turn, card gains (the report's own sections).
pub fn charts(st: &PlaytestStats) -> String {
    let mut h = length_section(st);
    h.push_str(&per_turn_section(st));
    h.push_str(&card_gains_section(st));
    h
}

/// The report as an HTML string.
pub fn render_html(st: &PlaytestStats, opts: &ReportOptions) -> String {
    if st.games == 0 {
        // A matchup matrix alone (`domsim matrix --report`): no game statistics.
        if let Some(page) = render_matrix_page(opts) {
            return page;
        }
    }
    let mut h = page_top(opts);
    let _ = writeln!(
        h,
        r#"<p>{} games, {} players. Kingdom: {}. Strategies rotate over the seats.</p>"#,
        st.games,
        st.players,
        esc(&st.kingdom.join(", "))
    );

    h.push_str(&scores_section(st));
    h.push_str(&charts(st));
    h.push_str(&card_tables(st));
    h.push_str(&openings_section(st));
    if let Some((m, names)) = opts.matrix {
        h.push_str("<h2>Matchup matrix</h2>\n<p class=\"note\">Score of the row strategy against the column strategy (%; a shared win counts 1/k), rows and columns sorted by mean score; hover a cell for its 95% interval and games.</p>\n");
        h.push_str(&heatmap("Matchup matrix: row's score", m, names));
    }
    h.push_str("\n<p class=\"note\">Generated by domsim. Columns of every statistic: see results/STATS.md.</p>\n</body></html>\n");
    h
}

/// A run's kingdom for a page, with what the statistics record of how it
/// was chosen (Shelters forced on or off) and of its data cards.
pub fn run_kingdom(st: &PlaytestStats) -> String {
    let mut k = match &st.kingdom_source {
        Some(how) => format!("({how}): {}", st.kingdom.join(", ")),
        None => st.kingdom.join(", "),
    };
    if let Some(data) = &st.data_cards {
        k.push_str(&format!("; data cards: {data}"));
    }
    k
}

/// The page's head, title and note.
fn page_top(opts: &ReportOptions) -> String {
    let title = opts
        .title
        .clone()
        .unwrap_or_else(|| "domsim playtest report".into());
    let mut h = String::with_capacity(1 << 18);
    h.push_str(&page_head(&title));
    if let Some(n) = &opts.note {
        let _ = writeln!(h, r#"<p class="note">{}</p>"#, esc(n));
    }
    h
}

/// A page of the matchup matrix of `opts` alone, with no game statistics
/// (`domsim matrix --report`, and `domsim merge --html` of its parts); None
/// without a matrix.
pub fn render_matrix_page(opts: &ReportOptions) -> Option<String> {
    let (m, names) = opts.matrix?;
    let mut h = page_top(opts);
    h.push_str("<h2>Matchup matrix</h2>\n<p class=\"note\">Score of the row strategy against the column strategy (%; a shared win counts 1/k), rows and columns sorted by mean score; hover a cell for its 95% interval and games.</p>\n");
    h.push_str(&heatmap("Matchup matrix: row's score", m, names));
    h.push_str("\n<p class=\"note\">Generated by domsim.</p>\n</body></html>\n");
    Some(h)
}

/// Two runs side by side (`domsim report A.json B.json`): a table of each
/// strategy's score in both runs with the difference and its 95% interval,
/// money and VP per turn of both runs on common charts (run A solid, run B
/// dashed, one colour per strategy name), then the two full reports in two
/// columns.
pub fn render_comparison(a: (&str, &PlaytestStats), b: (&str, &PlaytestStats)) -> String {
    let (an, ast) = a;
    let (bn, bst) = b;
    let mut names: Vec<String> = ast.names.clone();
    for n in &bst.names {
        if !names.contains(n) {
            names.push(n.clone());
        }
    }
    let mut h = String::with_capacity(1 << 19);
    let _ = write!(
        h,
        r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>domsim: two runs compared</title>
<style>
{STYLE}body {{ max-width: none; }}
.cols {{ display: grid; grid-template-columns: 1fr 1fr; gap: 24px; }} .cols > div {{ overflow-x: auto; border-top: 3px solid #ddd; }}
</style></head><body>
<h1>Two runs compared</h1>
<p>A: {} — {} games, kingdom {}<br>B: {} — {} games, kingdom {}</p>
"#,
        esc(an),
        ast.games,
        esc(&run_kingdom(ast)),
        esc(bn),
        bst.games,
        esc(&run_kingdom(bst))
    );
    h.push_str("<table><tr><th>strategy</th><th>score in A</th><th>score in B</th><th>B − A (95% CI)</th></tr>\n");
    let score = |st: &PlaytestStats, n: &str| {
        st.names
            .iter()
            .position(|x| x == n)
            .map(|i| st.strategies[i].score())
    };
    for n in &names {
        let (sa, sb) = (score(ast, n), score(bst, n));
        let cell = |s: &Option<super::ScoreAcc>| match s {
            Some(s) => format!("{} ± {:.1}%", pct(s.rate()), s.ci95() * 100.0),
            None => "–".into(),
        };
        let diff = match (&sa, &sb) {
            (Some(x), Some(y)) => {
                let d = y.rate() - x.rate();
                let ci = (x.ci95().powi(2) + y.ci95().powi(2)).sqrt();
                format!("{:+.1} ± {:.1} points", d * 100.0, ci * 100.0)
            }
            _ => "–".into(),
        };
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{diff}</td></tr>",
            esc(n),
            cell(&sa),
            cell(&sb)
        );
    }
    h.push_str("</table>\n<p class=\"note\">Score: wins with a win shared by k players counted 1/k. The difference's interval assumes independent runs.</p>\n<div class=\"grid\">");
    type Metric = fn(&super::TurnAcc) -> f64;
    for (title, ylabel, f) in [
        (
            "Money generated per turn",
            "coins",
            super::TurnAcc::money_avg as Metric,
        ),
        ("VP at end of turn", "VP", super::TurnAcc::vp_avg),
    ] {
        let mut series = Vec::new();
        for (run, st, dashed) in [("A", ast, false), ("B", bst, true)] {
            for (i, s) in st.strategies.iter().enumerate() {
                let color = names.iter().position(|n| *n == st.names[i]).unwrap_or(0);
                series.push(Series {
                    name: format!("{run}: {}", st.names[i]),
                    points: (0..plot_turns(s))
                        .filter(|&t| s.turns[t].n > 0)
                        .map(|t| ((t + 1) as f64, f(&s.turns[t])))
                        .collect(),
                    dashed,
                    color,
                });
            }
        }
        h.push_str(&line_chart(title, "turn", ylabel, &series, None));
    }
    h.push_str("</div>\n<div class=\"cols\">");
    for (label, st) in [(an, ast), (bn, bst)] {
        let page = render_html(
            st,
            &ReportOptions {
                title: Some(label.to_string()),
                ..Default::default()
            },
        );
        let body = page
            .split_once("<body>")
            .map_or(page.as_str(), |x| x.1)
            .rsplit_once("</body>")
            .map_or("", |x| x.0);
        let _ = write!(h, "<div>{body}</div>");
    }
    h.push_str("</div>\n<p class=\"note\">Generated by domsim.</p>\n</body></html>\n");
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bar_labels_too_wide_for_their_slot_become_numbers_with_a_key() {
        let bar = |n: &str, c| (n.to_string(), 0.3, 0.02, c);
        // Two short labels fit under their bars: written there, no key.
        let two = rate_bars("t", "y", &[bar("Big Money", 0), bar("Smithy", 1)]);
        assert!(two.contains(">Big Money</text>") && !two.contains("class=\"key\""));
        // Six bots' names in 60-pixel slots would overlap: numbered, keyed.
        let names = [
            "Cautious Puritan",
            "Accuser Puritan",
            "Hidden Witch",
            "Loud Witch",
            "Set Builder",
            "A bot with a very long name indeed",
        ];
        let bars: Vec<_> = names.iter().enumerate().map(|(i, n)| bar(n, i)).collect();
        let six = rate_bars("t", "y", &bars);
        assert_eq!(six.matches("<g class=\"key\">").count(), 6);
        assert!(six.contains(">1<title>Cautious Puritan</title></text>"));
        assert!(six.contains(">Cautious Puritan<title>Cautious Puritan</title>"));
        // The long one is shortened in the key, whole in its tooltip.
        assert!(six.contains("…<title>A bot with a very long name indeed</title>"));
    }

    #[test]
    fn a_title_too_wide_for_the_plot_is_centred_on_the_chart_or_squeezed() {
        let at = |t: &str| {
            let mut s = String::new();
            title_text(&mut s, t);
            s
        };
        assert!(at("Score by strategy").contains(&format!("x=\"{}\"", (ML + W - MR) / 2.0)));
        let wide = "Final Despair D minus the threshold (Witches win at 0 and above)";
        assert!(at(wide).contains(&format!("x=\"{}\"", W / 2.0)));
        assert!(!at(wide).contains("textLength"));
        let wider = wide.repeat(2);
        assert!(at(&wider).contains(&format!("textLength=\"{}\"", W - 12.0)));
    }

    #[test]
    fn tick_labels_keep_every_decimal_they_need() {
        assert_eq!(fmt_tick(0.025), "0.025");
        assert_eq!(fmt_tick(0.075), "0.075");
        assert_eq!(fmt_tick(0.1), "0.1");
        assert_eq!(fmt_tick(3.0), "3");
        assert_eq!(fmt_tick(-2.5), "-2.5");
        let labels: Vec<String> = ticks(0.0, 0.1, 4).into_iter().map(fmt_tick).collect();
        assert_eq!(labels, ["0", "0.025", "0.05", "0.075", "0.1"]);
    }

    #[test]
    fn card_colours_are_one_per_card_and_distinct_within_a_chart() {
        let c = |n: &str| Card::from_name(n).unwrap();
        // Ten cards in chart A, ten in chart B sharing three: with the old
        // rank-mod-10 colours, ranks 0 and 10 collided.
        let names = [
            "Copper",
            "Silver",
            "Gold",
            "Estate",
            "Duchy",
            "Province",
            "Curse",
            "Smithy",
            "Village",
            "Market",
            "Woodcutter",
            "Feast",
            "Witch",
            "Moat",
            "Cellar",
            "Chapel",
            "Militia",
        ];
        let ranked: Vec<Card> = names.iter().map(|n| c(n)).collect();
        let a: Vec<Card> = ranked[..10].to_vec();
        let mut b: Vec<Card> = ranked[10..].to_vec();
        b.extend([c("Copper"), c("Curse"), c("Smithy")]);
        let colors = card_colors(&ranked, &[a.clone(), b.clone()]);
        assert_eq!(colors.len(), ranked.len(), "one colour per card");
        for chart in [&a, &b] {
            let mut seen: Vec<(usize, bool)> = chart
                .iter()
                .map(|x| {
                    let e = colors.iter().find(|e| e.0 == *x).unwrap();
                    (e.1, e.2)
                })
                .collect();
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len(), chart.len(), "distinct within a chart");
        }
        // 21 cards in one chart: the 21st reuses a colour, dashed.
        let many: Vec<Card> = (0..Card::COUNT)
            .filter_map(Card::from_index)
            .filter(|x| x.is_kingdom())
            .take(21)
            .collect();
        let colors = card_colors(&many, std::slice::from_ref(&many));
        assert!(colors[..20].iter().all(|e| !e.2));
        assert!(colors[20].2);
    }

    #[test]
    fn heatmap_sorts_by_strength_with_a_mean_column_key_and_intervals() {
        let names: Vec<String> = ["Weak", "Strong", "Middle"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        // (row's score, games)
        let m: Vec<Vec<Cell>> = vec![
            vec![None, Some((20.0, 100)), Some((40.0, 100))],
            vec![Some((80.0, 100)), None, Some((70.0, 100))],
            vec![Some((60.0, 100)), Some((30.0, 100)), None],
        ];
        let svg = heatmap("t", &m, &names);
        let at = |s: &str| svg.find(&format!(">{s}</text>")).unwrap();
        assert!(
            at("Strong") < at("Middle") && at("Middle") < at("Weak"),
            "sorted by mean"
        );
        assert!(svg.contains(">mean</text>") && svg.contains(">75.0</text>"));
        assert!(
            svg.contains("Strong vs Weak: 80.0% [71.1%, 86.7%], 100 games"),
            "{svg}"
        );
        assert!(
            svg.contains(">0%</text>") && svg.contains(">100%</text>"),
            "colour key"
        );
        // 17 strategies: numbers still drawn; 52: smaller cells, inside a
        // sideways-scrolling block.
        for (n, numbers) in [(17usize, true), (52, false)] {
            let names: Vec<String> = (0..n).map(|i| format!("bot {i}")).collect();
            let m: Vec<Vec<Cell>> = (0..n)
                .map(|i| (0..n).map(|j| (i != j).then_some((5.0, 10))).collect())
                .collect();
            let svg = heatmap("t", &m, &names);
            assert_eq!(
                svg.contains("text-anchor=\"middle\">50</text>"),
                numbers,
                "{n}"
            );
            assert!(svg.starts_with("<div class=\"scroll\">"));
        }
    }
}
