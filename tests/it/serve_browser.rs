//! The workbench page in a real browser (issue 19): the distribution's
//! headless Chromium (`scripts/setup-browser.sh`, run by `.ci/run`), driven
//! over the DevTools protocol by the `headless_chrome` crate, loads the page
//! of a `domsim serve` child process, downloads the CSV of the default bots
//! and compares it with `domsim sim` for the same seed, edits a bot and
//! sees the win rate change, types an error and sees it at its line, and
//! downloads the CSV of the edited bot. Without Chromium the test says it
//! is skipped.

use crate::browser::chromium;
use crate::cli::{domsim, scratch, stderr};
use crate::serve::{shipped, Server};
use headless_chrome::protocol::cdp::{Browser as Cdp, Page};
use headless_chrome::{Browser, LaunchOptions, Tab};
use std::path::Path;
use std::time::{Duration, Instant};

/// Evaluate `js` in the page; its value as JSON (null for undefined).
pub(crate) fn eval(tab: &Tab, js: &str) -> serde_json::Value {
    tab.evaluate(js, true)
        .unwrap_or_else(|e| panic!("{js}: {e}"))
        .value
        .unwrap_or(serde_json::Value::Null)
}

/// Wait (at most a minute) until `js` is true in the page.
pub(crate) fn wait_for(tab: &Tab, js: &str, what: &str) {
    let t = Instant::now();
    while eval(tab, js) != serde_json::Value::Bool(true) {
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "timed out waiting for {what}; status: {}",
            eval(tab, "document.querySelector('#status').textContent")
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The number of finished batches the page has shown, once no batch is
/// playing (a batch started before an edit would end after it).
pub(crate) fn done_count(tab: &Tab) -> u64 {
    wait_for(
        tab,
        "document.querySelector('#stop').disabled",
        "no batch playing",
    );
    eval(tab, "Number(document.body.dataset.done || 0)")
        .as_u64()
        .unwrap_or(0)
}

pub(crate) fn wait_done_after(tab: &Tab, n: u64, what: &str) {
    wait_for(
        tab,
        &format!("Number(document.body.dataset.done || 0) > {n} && !document.querySelector('#downloads').hidden"),
        what,
    );
}

/// Bot `i`'s score in the table, as shown (e.g. 0.23 for "23.0%").
pub(crate) fn score(tab: &Tab, i: usize) -> f64 {
    let s = eval(
        tab,
        &format!("document.querySelectorAll('#table td.score')[{i}].textContent"),
    );
    s.as_str()
        .unwrap()
        .trim_end_matches('%')
        .parse::<f64>()
        .unwrap()
        / 100.0
}

/// Click the CSV link and wait for the file in `dir`.
pub(crate) fn download_csv(tab: &Tab, dir: &Path, name: &str) -> String {
    download(tab, "#dl-csv", dir, name)
}

/// Click the download link `sel` and wait for the file in `dir`.
pub(crate) fn download(tab: &Tab, sel: &str, dir: &Path, name: &str) -> String {
    eval(
        tab,
        &format!("document.querySelector('{sel}').download = '{name}'; document.querySelector('{sel}').click(); true"),
    );
    let path = dir.join(name);
    let t = Instant::now();
    loop {
        if let Ok(text) = std::fs::read_to_string(&path) {
            if text.ends_with('\n') && !text.is_empty() {
                return text;
            }
        }
        assert!(
            t.elapsed() < Duration::from_secs(30),
            "no download of {name} in {}",
            dir.display()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Replace bot `i`'s text as typing would (the editor's input event).
pub(crate) fn set_bot(tab: &Tab, i: usize, text: &str) {
    eval(
        tab,
        &format!(
            "(() => {{ const t = document.querySelector('.bot[data-i=\"{i}\"] textarea'); t.value = {}; t.dispatchEvent(new Event('input')); return true; }})()",
            serde_json::Value::String(text.into())
        ),
    );
}

pub(crate) fn set_input(tab: &Tab, sel: &str, value: &str) {
    eval(
        tab,
        &format!("(() => {{ const e = document.querySelector('{sel}'); e.value = '{value}'; e.dispatchEvent(new Event('input')); return true; }})()"),
    );
}

#[test]
fn workbench_in_a_real_browser() {
    let Some(chrome) = chromium() else {
        eprintln!("SKIPPED: no chromium (scripts/setup-browser.sh installs it)");
        return;
    };
    let d = scratch("serve-browser");
    let downloads = d.join("downloads");
    std::fs::create_dir(&downloads).unwrap();
    let srv = Server::start();
    let (_browser, tab) = launch(chrome, &d, &downloads);
    tab.navigate_to(&format!("http://127.0.0.1:{}/", srv.port))
        .unwrap()
        .wait_until_navigated()
        .unwrap();

    // The default bots play as soon as the page is loaded; then a seed and
    // a game count typed in the page.
    wait_done_after(&tab, 0, "the first batch");
    let before = done_count(&tab);
    set_input(&tab, "#games", "4000");
    set_input(&tab, "#seed", "11");
    wait_done_after(&tab, before, "the batch of 4000 games, seed 11");
    wait_for(
        &tab,
        "document.querySelector('#command').textContent.includes('-n 4000 --seed 11 ')",
        "the results of 4000 games of seed 11",
    );
    assert!(eval(&tab, "document.querySelector('#counter').textContent")
        .as_str()
        .unwrap()
        .starts_with("4,000 / 4,000 games"));
    assert!(
        eval(&tab, "document.querySelectorAll('#charts svg').length")
            .as_u64()
            .unwrap()
            >= 8,
        "the report's charts are drawn"
    );
    let csv = download_csv(&tab, &downloads, "page.csv");
    let out = d.join("sim.csv");
    let o = domsim(&[
        "sim",
        "strategies/big_money.dom",
        "strategies/smithy_big_money.dom",
        "-n",
        "4000",
        "--seed",
        "11",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        csv,
        std::fs::read_to_string(&out).unwrap(),
        "the downloaded CSV is domsim sim's"
    );
    let bm = score(&tab, 0);

    // Edit bot 2 into one that buys only Copper: Big Money's score jumps.
    let before = done_count(&tab);
    let weak = "# only Copper\nbuy:\n    Copper\n";
    set_bot(&tab, 1, weak);
    wait_done_after(&tab, before, "the batch of the edited bot");
    let bm2 = score(&tab, 0);
    assert!(
        bm < 0.6 && bm2 > 0.95,
        "Big Money's score {bm} against Smithy BM, {bm2} against Copper"
    );

    // Type an error: it is shown at its line (gutter, underline, message),
    // and nothing plays until it is fixed.
    eval(
        &tab,
        "(() => { const t = document.querySelector('.bot[data-i=\"1\"] textarea'); t.focus(); t.setSelectionRange(t.value.length, t.value.length); return true; })()",
    );
    tab.type_str("    Silver if coinz >= 3").unwrap();
    wait_for(
        &tab,
        "document.querySelector('.bot[data-i=\"1\"] .gutter .ln.err') !== null",
        "the error marked in the gutter",
    );
    assert_eq!(
        eval(
            &tab,
            "document.querySelector('.bot[data-i=\"1\"] .gutter .ln.err').dataset.line"
        ),
        "4",
        "the error is on line 4"
    );
    let msg = eval(
        &tab,
        "document.querySelector('.bot[data-i=\"1\"] .problems li.err').textContent",
    );
    let msg = msg.as_str().unwrap();
    assert!(
        msg.contains("line 4, column 15") && msg.contains("coinz"),
        "{msg}"
    );
    assert_eq!(
        eval(
            &tab,
            "document.querySelector('.bot[data-i=\"1\"] .backdrop mark').textContent"
        ),
        "coinz",
        "the offending word is underlined"
    );
    assert!(eval(&tab, "document.querySelector('#status').textContent")
        .as_str()
        .unwrap()
        .contains("fix the errors"));

    // Fixed: it plays again, and the CSV of the typed bot is domsim sim's
    // for the same text saved as a file.
    let before = done_count(&tab);
    let fixed = format!("{weak}    Silver if coins >= 3\n");
    set_bot(&tab, 1, &fixed);
    wait_for(
        &tab,
        "document.querySelector('.bot[data-i=\"1\"] .gutter .ln.err') === null",
        "the error cleared",
    );
    wait_done_after(&tab, before, "the batch of the fixed bot");
    let csv = download_csv(&tab, &downloads, "typed.csv");
    let file = d.join("smithy_big_money.dom");
    std::fs::write(&file, &fixed).unwrap();
    let o = domsim(&[
        "sim",
        "strategies/big_money.dom",
        file.to_str().unwrap(),
        "-n",
        "4000",
        "--seed",
        "11",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        csv.replace("typed:smithy_big_money.dom", file.to_str().unwrap()),
        std::fs::read_to_string(&out).unwrap(),
        "the typed bot's CSV is domsim sim's for the same text"
    );

    // A seed beyond 2^53 (JavaScript numbers): played and shown exactly.
    let before = done_count(&tab);
    set_input(&tab, "#seed", "18446744073709551615");
    wait_done_after(&tab, before, "the batch of seed 2^64 - 1");
    wait_for(
        &tab,
        "document.querySelector('#command').textContent.includes('--seed 18446744073709551615 ')",
        "the command of seed 2^64 - 1",
    );
    let before = done_count(&tab);
    set_input(&tab, "#seed", "11");
    wait_done_after(&tab, before, "the batch of seed 11 again");

    // A bot pasted over seat 2's whole text (issue 45, friction 6) takes a
    // name of its own: the downloads, the command line and the explained
    // log name it, at positions of the pasted text.
    let pasted = "# pasted\nname: Pasted Gold\nbuy:\n    Province if total_money >= 18\n    Gold\n    Silver\n";
    let before = done_count(&tab);
    eval(
        &tab,
        &format!(
            "(() => {{ const t = document.querySelector('.bot[data-i=\"1\"] textarea'); t.focus(); t.select(); t.dispatchEvent(new ClipboardEvent('paste', {{ bubbles: true }})); t.value = {}; t.dispatchEvent(new Event('input')); return true; }})()",
            serde_json::Value::String(pasted.into())
        ),
    );
    assert_eq!(
        eval(
            &tab,
            "document.querySelector('.bot[data-i=\"1\"] .file').value"
        ),
        "pasted-1.dom"
    );
    assert_eq!(
        eval(
            &tab,
            "document.querySelector('.bot[data-i=\"1\"] .load').value"
        ),
        ""
    );
    wait_done_after(&tab, before, "the batch of the pasted bot");
    wait_for(
        &tab,
        "document.querySelector('#command').textContent.startsWith('domsim sim strategies/big_money.dom pasted-1.dom ') && [...document.querySelectorAll('#dl-bots a')].map(a => a.textContent).join(' ') === 'big_money.dom pasted-1.dom'",
        "the command and downloads naming the pasted bot",
    );
    let got = download(&tab, "#dl-bots a:nth-child(2)", &downloads, "pasted-1.dom");
    assert_eq!(got, pasted);
    eval(
        &tab,
        "document.querySelector('#explain').checked = true; document.querySelector('#show-log').click(); true",
    );
    wait_for(
        &tab,
        "document.querySelector('#log').textContent.includes('pasted-1.dom:5:5')",
        "the explained log at the pasted text's line 5 (Gold)",
    );
    let log = eval(&tab, "document.querySelector('#log').textContent");
    assert!(
        !log.as_str()
            .unwrap()
            .contains("strategies/smithy_big_money.dom"),
        "{log}"
    );
    eval(
        &tab,
        "document.querySelector('#explain').checked = false; true",
    );

    // While a batch plays, the downloads of the one before are disabled
    // (no link to click), and they come back with its own when it ends
    // (here stopped).
    eval(
        &tab,
        "(() => { window.sawStale = false; const box = document.querySelector('#downloads'); new MutationObserver(() => { if (box.classList.contains('stale') && !document.querySelector('#dl-csv').hasAttribute('href') && !document.querySelector('#dl-note').hidden) window.sawStale = true; }).observe(box, { attributes: true, subtree: true }); return true; })()",
    );
    let before = done_count(&tab);
    set_input(&tab, "#games", "100000");
    wait_for(&tab, "window.sawStale === true", "the downloads disabled");
    wait_for(
        &tab,
        "!document.querySelector('#stop').disabled && /^[1-9][0-9,]* \\/ 100,000 games/.test(document.querySelector('#counter').textContent)",
        "the batch playing, its first games played",
    );
    eval(&tab, "document.querySelector('#stop').click(); true");
    wait_done_after(&tab, before, "the stopped batch");
    assert_eq!(
        eval(
            &tab,
            "!document.querySelector('#downloads').classList.contains('stale') && document.querySelector('#dl-csv').hasAttribute('href') && document.querySelector('#dl-note').hidden"
        ),
        true,
        "the downloads are back"
    );
    // The command names the games the batch played: those before the stop
    // (on a fast host the 100,000 games may all be played before the
    // click lands; then all of them), never the 4,000 of the batch before.
    let cmd = eval(&tab, "document.querySelector('#command').textContent");
    let cmd = cmd.as_str().unwrap();
    let counter = eval(&tab, "document.querySelector('#counter').textContent");
    let counter = counter.as_str().unwrap();
    let played: u64 = counter
        .split(" / ")
        .next()
        .map(|n| n.replace(',', ""))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("the counter after the stop: {counter}"));
    assert!((1..=100_000).contains(&played), "{counter}");
    assert!(
        cmd.contains(&format!(" -n {played} ")) && !cmd.contains(" -n 4000 "),
        "the stopped batch's command: {cmd} (counter: {counter})"
    );
    let before = done_count(&tab);
    set_input(&tab, "#games", "4000");
    wait_done_after(&tab, before, "the batch of 4000 games again");

    // One game's log.
    eval(&tab, "document.querySelector('#show-log').click(); true");
    wait_for(
        &tab,
        "document.querySelector('#log').textContent.startsWith('Game 0 of seed 11')",
        "the game log",
    );

    // Load a shipped bot back from the folder (the editor's menu): it plays
    // as the file again. Then a typo with a did-you-mean, left on screen.
    let before = done_count(&tab);
    eval(
        &tab,
        "(() => { const s = document.querySelector('.bot[data-i=\"1\"] .load'); s.value = 'smithy_big_money.dom'; s.dispatchEvent(new Event('change')); return true; })()",
    );
    wait_done_after(&tab, before, "the batch of the reloaded bot");
    assert!(eval(&tab, "document.querySelector('#command').textContent")
        .as_str()
        .unwrap()
        .contains("strategies/big_money.dom strategies/smithy_big_money.dom"));
    set_bot(
        &tab,
        0,
        &shipped("big_money.dom").replace(
            "    Gold\n",
            "    Gold\n    Smithy if count(Smithy) < 1 and supply(Provinse) > 4\n",
        ),
    );
    wait_for(
        &tab,
        "document.querySelector('.bot[data-i=\"0\"] .problems li.err') !== null",
        "the typo shown",
    );
    // A click on the message puts the cursor at the error (and scrolls there).
    eval(
        &tab,
        "document.querySelector('.bot[data-i=\"0\"] .problems li.err').click(); true",
    );
    let caret = eval(
        &tab,
        "(() => { const t = document.querySelector('.bot[data-i=\"0\"] textarea'); return t.value.slice(t.selectionStart, t.selectionStart + 8); })()",
    );
    assert_eq!(caret, "Provinse");
    let png = tab
        .capture_screenshot(Page::CaptureScreenshotFormatOption::Png, None, None, true)
        .unwrap();
    assert!(png.starts_with(b"\x89PNG") && png.len() > 20_000);
    // DOMSIM_SERVE_SCREENSHOT=FILE.png keeps it (results/serve.png).
    if let Some(f) = std::env::var_os("DOMSIM_SERVE_SCREENSHOT") {
        std::fs::write(&f, &png).unwrap();
    }
}

/// Headless Chromium (`chrome`, on PATH) with its profile in `d`, saving
/// downloads into `downloads`; and a tab of it.
pub(crate) fn launch(chrome: &str, d: &Path, downloads: &Path) -> (Browser, std::sync::Arc<Tab>) {
    let path = which(chrome).expect("chromium on PATH");
    let browser = Browser::new(LaunchOptions {
        headless: true,
        sandbox: false,
        path: Some(path),
        window_size: Some((1880, 1500)),
        user_data_dir: Some(d.join("profile")),
        idle_browser_timeout: Duration::from_secs(180),
        ..LaunchOptions::default()
    })
    .expect("start chromium");
    let tab = browser.new_tab().unwrap();
    tab.set_default_timeout(Duration::from_secs(60));
    let dl = downloads.display().to_string();
    if tab
        .call_method(Cdp::SetDownloadBehavior {
            behavior: Cdp::SetDownloadBehaviorBehaviorOption::Allow,
            browser_context_id: None,
            download_path: Some(dl.clone()),
            events_enabled: None,
        })
        .is_err()
    {
        tab.call_method(Page::SetDownloadBehavior {
            behavior: Page::SetDownloadBehaviorBehaviorOption::Allow,
            download_path: Some(dl),
        })
        .unwrap();
    }
    (browser, tab)
}

/// The full path of a program on PATH.
pub(crate) fn which(prog: &str) -> Option<std::path::PathBuf> {
    std::env::var_os("PATH").and_then(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join(prog))
            .find(|f| f.is_file())
    })
}
