//! The search bot in the workbench page, in a real browser (issue 46): a
//! seat's menu makes it the search bot (its options instead of the
//! editor), a batch with it is bounded to the games its budget allows and
//! says so, stops when asked, names it on the command line and leaves it
//! out of the bot downloads; then a whole game is played through the page
//! against it. Screenshots go to the folder `DOMSIM_WORKBENCH_SHOTS` names
//! (results/workbench/). Without Chromium the test says it is skipped.

use crate::browser::chromium;
use crate::cli::scratch;
use crate::serve::Server;
use crate::serve_browser::{done_count, eval, launch, set_input, wait_done_after, wait_for};
use headless_chrome::protocol::cdp::Page;
use headless_chrome::Tab;

fn shot_at(tab: &Tab, at: &str, name: &str) {
    eval(
        tab,
        &format!("document.querySelector('{at}').scrollIntoView(); true"),
    );
    let png = tab
        .capture_screenshot(Page::CaptureScreenshotFormatOption::Png, None, None, true)
        .unwrap();
    assert!(png.starts_with(b"\x89PNG") && png.len() > 20_000);
    if let Some(dir) = std::env::var_os("DOMSIM_WORKBENCH_SHOTS") {
        let dir = std::path::PathBuf::from(dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(name), &png).unwrap();
    }
}

fn text(tab: &Tab, sel: &str) -> String {
    eval(tab, &format!("document.querySelector('{sel}').textContent"))
        .as_str()
        .unwrap_or("")
        .to_string()
}

const SEAT2: &str = ".bot[data-i=\"1\"]";

#[test]
fn the_workbench_plays_against_a_search_bot() {
    let Some(chrome) = chromium() else {
        eprintln!("SKIPPED: no chromium (scripts/setup-browser.sh installs it)");
        return;
    };
    let d = scratch("search-browser");
    let downloads = d.join("downloads");
    std::fs::create_dir(&downloads).unwrap();
    let srv = Server::start();
    let (_browser, tab) = launch(chrome, &d, &downloads);
    tab.navigate_to(&format!("http://127.0.0.1:{}/", srv.port))
        .unwrap()
        .wait_until_navigated()
        .unwrap();
    wait_done_after(&tab, 0, "the first batch");
    // Run by hand from here (a search batch is not played at each edit).
    eval(
        &tab,
        "(() => { const a = document.querySelector('#auto'); a.checked = false; return true; })()",
    );
    set_input(&tab, "#games", "300");

    // Seat 2 becomes the search bot: its options instead of the editor.
    eval(
        &tab,
        &format!("(() => {{ const s = document.querySelector('{SEAT2} .load'); s.value = 'search:'; s.dispatchEvent(new Event('change')); return true; }})()"),
    );
    wait_for(
        &tab,
        &format!(
            "document.querySelector('{SEAT2} .bot-status').textContent === 'Search (budget 500) ✓'"
        ),
        "the search seat checked",
    );
    assert_eq!(
        eval(
            &tab,
            &format!("getComputedStyle(document.querySelector('{SEAT2} .editor')).display === 'none' && getComputedStyle(document.querySelector('{SEAT2} .search-box')).display !== 'none'")
        ),
        true
    );
    assert!(text(&tab, &format!("{SEAT2} .search-note")).contains("at most 2,000"));

    // A bad option is its error; a budget of 1,000 allows 250 games of
    // the 300 asked, and the page says so; Stop ends the batch.
    set_input(&tab, &format!("{SEAT2} .search-opts"), "budget=0");
    wait_for(
        &tab,
        &format!("document.querySelector('{SEAT2} .problems li.err') !== null"),
        "the option's error",
    );
    assert!(text(&tab, &format!("{SEAT2} .problems li.err")).contains("budget=0 must be"));
    set_input(&tab, &format!("{SEAT2} .search-opts"), "budget=1000");
    wait_for(
        &tab,
        &format!("document.querySelector('{SEAT2} .bot-status').textContent === 'Search (budget 1000) ✓'"),
        "the budget taken",
    );
    shot_at(&tab, "#bots", "search-seat.png");
    let before = done_count(&tab);
    eval(&tab, "document.querySelector('#run').click(); true");
    wait_for(
        &tab,
        "document.querySelector('#status').textContent.startsWith('playing 250 games (not 300: with these search seats a batch plays at most 250)')",
        "the bounded batch",
    );
    eval(&tab, "document.querySelector('#stop').click(); true");
    wait_for(
        &tab,
        &format!("Number(document.body.dataset.done || 0) > {before} && document.querySelector('#status').textContent.startsWith('stopped after')"),
        "the batch stopped",
    );

    // A small budget: the batch plays, the table and the command line name
    // the search bot, the downloads hold only the strategy file.
    set_input(&tab, &format!("{SEAT2} .search-opts"), "budget=50");
    set_input(&tab, "#games", "40");
    wait_for(
        &tab,
        &format!(
            "document.querySelector('{SEAT2} .bot-status').textContent === 'Search (budget 50) ✓'"
        ),
        "the budget taken",
    );
    let before = done_count(&tab);
    eval(&tab, "document.querySelector('#run').click(); true");
    wait_done_after(&tab, before, "the search batch");
    assert!(text(&tab, "#status").starts_with("done: 40 games"));
    assert!(text(&tab, "#table").contains("Search (budget 50)"));
    assert!(text(&tab, "#command")
        .starts_with("domsim sim strategies/big_money.dom 'search:budget=50' -p 2 -n 40 --seed 1"));
    assert_eq!(
        eval(
            &tab,
            "Array.from(document.querySelectorAll('#dl-bots a')).map((a) => a.textContent).join(',')"
        ),
        "big_money.dom"
    );

    // A game against it: you in seat 1, advised by Big Money.
    eval(
        &tab,
        "(() => { document.querySelector('#play-seat').value = '0'; document.querySelector('#play-start').click(); return true; })()",
    );
    wait_for(
        &tab,
        "document.querySelectorAll('#answers button').length > 0",
        "the first question",
    );
    for step in 0.. {
        if eval(&tab, "document.body.dataset.playOver === '1'") == true {
            break;
        }
        assert!(step < 2000, "the game did not end");
        let n = eval(&tab, "Number(document.body.dataset.answers || 0)")
            .as_u64()
            .unwrap();
        eval(
            &tab,
            "(() => { const b = document.querySelector('#answers button.advised:not([disabled])') || document.querySelector('#answers button:not([disabled])'); if (b) b.click(); return true; })()",
        );
        wait_for(
            &tab,
            &format!("document.body.dataset.playOver === '1' || Number(document.body.dataset.answers || 0) > {n}"),
            "the next question",
        );
        if step == 8 {
            shot_at(&tab, "#play-panel", "search-play.png");
        }
    }
    assert!(text(&tab, "#seats").contains("Search (budget 50)"));
    assert!(text(&tab, "#play-result").starts_with("Game over"));
    assert!(text(&tab, "#play-log").contains("P2 (seat 2): Search (budget 50) [search:budget=50]"));
}
