//! The `domsim compare --html` page (issue 45, 3): a headline sentence
//! with the owner's change in win rate and its interval, one chart of every
//! measure on labelled axes coloured better/worse for the card's owner, the
//! numbers and the run's metadata folded away; rendered in headless
//! Chromium with a screenshot (`DOMSIM_WORKBENCH_SHOTS` keeps it, as
//! `compare.png`). Without Chromium the browser half says it is skipped.

use crate::browser::chromium;
use crate::cli::{domsim, scratch, stderr};
use crate::serve_browser::{eval, launch, wait_for};
use headless_chrome::protocol::cdp::Page;

#[test]
fn the_compare_page_says_its_result_in_a_sentence() {
    let d = scratch("compare-page");
    let html = d.join("c.html");
    let o = domsim(&[
        "compare",
        "--a",
        "cards/post_rider.toml",
        "--b-set",
        "Post Rider:cost=5",
        "--kingdom",
        "Post Rider",
        "strategies/playtest/post_rider_big_money.dom",
        "strategies/big_money_ultimate.dom",
        "-n",
        "4000",
        "--html",
        html.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let page = std::fs::read_to_string(&html).unwrap();
    // The headline names the variants by what differs (the cost) and the
    // bot that buys the card.
    let head = page
        .split("<p class=\"headline\">")
        .nth(1)
        .and_then(|r| r.split("</p>").next())
        .expect("a headline");
    assert!(
        head.starts_with("At $5, Post Rider Big Money wins <b>"),
        "{head}"
    );
    assert!(head.contains(" than at $4 ["), "{head}");
    // One chart; a panel per measure with its axis title; the metadata and
    // the numbers folded away; the opponent's zero rows left out.
    assert_eq!(page.matches("<svg").count(), 1);
    for t in [
        "change in win rate, percentage points",
        "change in copies bought per game",
        "change in rounds per game",
    ] {
        assert!(page.contains(t), "{t}");
    }
    assert!(page.contains("<details><summary>How this was run</summary>"));
    assert!(
        page.contains("measures that are 0 with both variants"),
        "zero rows left out"
    );
    assert!(!page.contains("<tr data-measure=\"bought\"><td>bought</td><td>Big Money Ultimate<"));

    let Some(chrome) = chromium() else {
        eprintln!("SKIPPED (browser half): no chromium (scripts/setup-browser.sh installs it)");
        return;
    };
    let downloads = d.join("downloads");
    std::fs::create_dir(&downloads).unwrap();
    let (_browser, tab) = launch(chrome, &d, &downloads);
    tab.navigate_to(&format!("file://{}", html.display()))
        .unwrap()
        .wait_until_navigated()
        .unwrap();
    wait_for(
        &tab,
        "document.querySelectorAll('svg circle').length > 5",
        "the chart",
    );
    // Every interval is drawn inside the chart.
    assert_eq!(
        eval(
            &tab,
            "(() => { const s = document.querySelector('svg').getBoundingClientRect(); return [...document.querySelectorAll('svg circle')].every(c => { const r = c.getBoundingClientRect(); return r.left >= s.left && r.right <= s.right; }); })()"
        ),
        true
    );
    let png = tab
        .capture_screenshot(Page::CaptureScreenshotFormatOption::Png, None, None, true)
        .unwrap();
    assert!(png.starts_with(b"\x89PNG") && png.len() > 20_000);
    if let Some(dir) = std::env::var_os("DOMSIM_WORKBENCH_SHOTS") {
        let dir = std::path::PathBuf::from(dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("compare.png"), &png).unwrap();
    }
}
