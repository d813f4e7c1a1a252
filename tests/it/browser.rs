//! The HTML report in a real browser (issue 20, 5–8): headless Chromium
//! loads the report of runs with 2, 3 and 6 strategies and a 17-bot heat
//! map, renders every chart (the DOM it builds has every SVG of the file)
//! and takes a screenshot. Chromium comes from the distribution's packages
//! (`scripts/setup-browser.sh`, run by `.ci/run`); without it the test says
//! it is skipped.

use crate::cli::{domsim, scratch, stderr};
use std::process::Command;

/// The distribution's Chromium, if installed (also for `serve.rs`).
pub fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser"].into_iter().find(|b| {
        Command::new(b)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

pub fn headless(browser: &str, profile: &std::path::Path) -> Command {
    let mut c = Command::new(browser);
    c.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ])
    .arg(format!("--user-data-dir={}", profile.display()));
    c
}

#[test]
fn reports_render_in_a_real_browser() {
    let Some(browser) = chromium() else {
        eprintln!("SKIPPED: no chromium (scripts/setup-browser.sh installs it)");
        return;
    };
    let d = scratch("browser");
    let all = [
        "strategies/big_money.dom",
        "strategies/smithy_big_money.dom",
        "strategies/militia_big_money.dom",
        "strategies/double_witch.dom",
        "strategies/chapel.dom",
        "strategies/laboratory.dom",
    ];
    let mut pages = Vec::new();
    for n in [2usize, 3, 6] {
        let page = d.join(format!("r{n}.html"));
        let mut args = vec!["sim", "-p"];
        let p = n.to_string();
        args.push(&p);
        args.extend(&all[..n]);
        args.extend(["-n", "300", "--report", page.to_str().unwrap()]);
        let o = domsim(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        pages.push(page);
    }
    let m = d.join("m17.html");
    let mut args = vec!["matrix", "-n", "20", "--report", m.to_str().unwrap()];
    let files: Vec<String> =
        std::fs::read_dir(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("strategies"))
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "dom"))
            .take(17)
            .map(|p| p.display().to_string())
            .collect();
    args.extend(files.iter().map(String::as_str));
    let o = domsim(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    pages.push(m);
    for (i, page) in pages.iter().enumerate() {
        let html = std::fs::read_to_string(page).unwrap();
        let url = format!("file://{}", page.display());
        let profile = d.join(format!("profile{i}"));
        let dom = headless(browser, &profile)
            .args(["--dump-dom", &url])
            .output()
            .unwrap();
        assert!(
            dom.status.success(),
            "{}",
            String::from_utf8_lossy(&dom.stderr)
        );
        let dom = String::from_utf8_lossy(&dom.stdout);
        assert_eq!(
            dom.matches("<svg").count(),
            html.matches("<svg").count(),
            "every chart of {} is in the rendered page",
            page.display()
        );
        let png = d.join(format!("shot{i}.png"));
        let shot = headless(browser, &profile)
            .args([
                "--window-size=1300,2400",
                &format!("--screenshot={}", png.display()),
                &url,
            ])
            .output()
            .unwrap();
        assert!(
            shot.status.success(),
            "{}",
            String::from_utf8_lossy(&shot.stderr)
        );
        let bytes = std::fs::read(&png).unwrap();
        assert!(
            bytes.starts_with(b"\x89PNG") && bytes.len() > 20_000,
            "{} bytes",
            bytes.len()
        );
    }
}

/// The shipped New Salem report (results/new_salem/report.html, replayed by
/// shipped_results.rs) in a real browser (issue 45, friction 5): every
/// text of every chart lies inside its chart (no title clipped, as "…al
/// Despair D minus the threshold" was), the texts of a chart do not
/// overlap (the bot names under the per-chair bars did: they are numbered
/// with a key now), and no bot's bar takes a side's colour (the Witch red,
/// the Puritan blue or the grey of nobody). `DOMSIM_REPORT_SHOTS=DIR` keeps
/// the screenshot as `DIR/report.png` (results/new_salem/report.png).
#[test]
fn the_new_salem_report_fits_its_charts_in_a_real_browser() {
    use crate::serve_browser::{eval, launch, wait_for};
    let page =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results/new_salem/report.html");
    let html = std::fs::read_to_string(&page).unwrap();
    // The per-chair charts' bars: none in a side's colour.
    for chart in html
        .split("aria-label=\"Personal win rate per chair\"")
        .skip(1)
    {
        let chart = chart.split("</svg>").next().unwrap();
        for side in [
            "#1f77b4", "#d62728", "#7f7f7f", "#0b3d91", "#f7a1a1", "#2f2f2f",
        ] {
            assert!(
                !chart.contains(&format!("fill=\"{side}\"")),
                "a bot's bar in {side}"
            );
        }
    }
    let Some(chrome) = chromium() else {
        eprintln!("SKIPPED: no chromium (scripts/setup-browser.sh installs it)");
        return;
    };
    let d = scratch("salem-report");
    let (_browser, tab) = launch(chrome, &d, &d);
    tab.navigate_to(&format!("file://{}", page.display()))
        .unwrap()
        .wait_until_navigated()
        .unwrap();
    wait_for(
        &tab,
        "document.querySelectorAll('svg.chart').length > 20",
        "the charts",
    );
    // Every text inside its chart, measured as drawn (after transforms).
    let outside = eval(
        &tab,
        "JSON.stringify([...document.querySelectorAll('svg.chart')].flatMap(svg => { const s = svg.getBoundingClientRect(); return [...svg.querySelectorAll('text')].filter(t => { const r = t.getBoundingClientRect(); return r.left < s.left - 0.5 || r.right > s.right + 0.5 || r.top < s.top - 0.5 || r.bottom > s.bottom + 0.5; }).map(t => svg.getAttribute('aria-label') + ': ' + t.textContent); }))",
    );
    assert_eq!(outside, "[]", "texts outside their chart");
    // No two texts of a chart overlap (a pixel of slack for glyph boxes).
    let overlaps = eval(
        &tab,
        "JSON.stringify([...document.querySelectorAll('svg.chart')].flatMap(svg => { const ts = [...svg.querySelectorAll('text')].map(t => [t, t.getBoundingClientRect()]); const out = []; for (let i = 0; i < ts.length; i++) for (let j = i + 1; j < ts.length; j++) { const a = ts[i][1], b = ts[j][1]; if (Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1) out.push(svg.getAttribute('aria-label') + ': ' + ts[i][0].textContent + ' / ' + ts[j][0].textContent); } return out; }))",
    );
    assert_eq!(overlaps, "[]", "overlapping texts");
    // The per-chair chart keys its numbered bars with the bots' names.
    let key = eval(
        &tab,
        "[...document.querySelector('svg[aria-label=\"Personal win rate per chair\"]').querySelectorAll('g.key')].map(g => g.textContent).join(' | ')",
    );
    assert!(key.as_str().unwrap().starts_with("1"), "{key}");
    eval(
        &tab,
        "document.querySelector('svg[aria-label=\"Personal win rate per chair\"]').scrollIntoView({ block: 'center' }); true",
    );
    let png = tab
        .capture_screenshot(
            headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption::Png,
            None,
            None,
            true,
        )
        .unwrap();
    assert!(png.starts_with(b"\x89PNG") && png.len() > 20_000);
    if let Some(dir) = std::env::var_os("DOMSIM_REPORT_SHOTS") {
        let dir = std::path::PathBuf::from(dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("report.png"), &png).unwrap();
    }
}
