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
