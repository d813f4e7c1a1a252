//! The designer's workbench in a real browser (issue 45): `domsim --cards
//! cards/post_rider.toml serve`, its card editor (an error shown at its
//! line as it is typed, then fixed), the card put in the kingdom and the
//! bots' results changing, the card file among the downloads; then a whole
//! game played through the page as the person's seat against two bots,
//! clicking the answers, and its log downloaded. Screenshots go to the
//! folder `DOMSIM_WORKBENCH_SHOTS` names (results/workbench/ in the
//! repository). Without Chromium the test says it is skipped.

use crate::browser::chromium;
use crate::cli::scratch;
use crate::serve::Server;
use crate::serve_browser::{
    done_count, download, eval, launch, score, set_bot, wait_done_after, wait_for,
};
use headless_chrome::protocol::cdp::Page;
use headless_chrome::Tab;

/// Keep a screenshot of the page as `name` (when asked to), scrolled to
/// `at`.
fn shot_at(tab: &Tab, at: &str, name: &str) {
    eval(
        tab,
        &format!("document.querySelector('{at}').scrollIntoView(); true"),
    );
    shot(tab, name);
}

/// Keep a screenshot of the page as `name` (when asked to).
fn shot(tab: &Tab, name: &str) {
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

/// Replace the card editor's text as typing would.
fn set_cards(tab: &Tab, text: &str) {
    eval(
        tab,
        &format!(
            "(() => {{ const t = document.querySelector('#card-editor textarea'); t.value = {}; t.dispatchEvent(new Event('input')); return true; }})()",
            serde_json::Value::String(text.into())
        ),
    );
}

const PR_BOT: &str = "# Big Money with Post Riders\nbuy:\n    Province if total_money >= 16\n    Gold\n    Post Rider if count(Post Rider) < 3\n    Silver\n";

#[test]
fn the_workbench_designs_a_card_and_plays_a_game() {
    let Some(chrome) = chromium() else {
        eprintln!("SKIPPED: no chromium (scripts/setup-browser.sh installs it)");
        return;
    };
    let d = scratch("workbench-browser");
    let downloads = d.join("downloads");
    std::fs::create_dir(&downloads).unwrap();
    let srv = Server::start_with(&["--cards", "cards/post_rider.toml"]);
    let (_browser, tab) = launch(chrome, &d, &downloads);
    tab.navigate_to(&format!("http://127.0.0.1:{}/", srv.port))
        .unwrap()
        .wait_until_navigated()
        .unwrap();
    wait_done_after(&tab, 0, "the first batch");

    // The editor holds the file; its card is listed with its text.
    wait_for(
        &tab,
        "document.querySelector('#card-list li') !== null",
        "the card list",
    );
    let listed = eval(&tab, "document.querySelector('#card-list li').textContent");
    assert!(
        listed
            .as_str()
            .unwrap()
            .contains("Post Rider ($4 Action)+2 Cards, +$1."),
        "{listed}"
    );
    let file = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/cards/post_rider.toml"
    ))
    .unwrap();

    // A typo: shown at its line as it is typed, and nothing plays.
    set_cards(&tab, &file.replace("cards = 2", "cardz = 2"));
    wait_for(
        &tab,
        "document.querySelector('#card-panel .gutter .ln.err') !== null",
        "the card error in the gutter",
    );
    let line = file
        .lines()
        .position(|l| l.starts_with("cards = 2"))
        .unwrap()
        + 1;
    assert_eq!(
        eval(
            &tab,
            "document.querySelector('#card-panel .gutter .ln.err').dataset.line"
        ),
        line.to_string()
    );
    let msg = eval(
        &tab,
        "document.querySelector('#card-panel .problems li.err').textContent",
    );
    assert!(msg.as_str().unwrap().contains("cardz"), "{msg}");
    shot_at(&tab, "header", "card-error.png");

    // Fixed, put in the kingdom, and a bot that buys it: the results change.
    set_cards(&tab, &file);
    wait_for(
        &tab,
        "document.querySelector('#card-panel .gutter .ln.err') === null && document.querySelector('#card-list .to-kingdom') !== null",
        "the error cleared",
    );
    let before = done_count(&tab);
    let smithy = score(&tab, 1);
    eval(
        &tab,
        "document.querySelector('#card-list .to-kingdom').click(); true",
    );
    set_bot(&tab, 1, PR_BOT);
    wait_done_after(&tab, before, "the batch with Post Rider");
    // (The batch of this kingdom and bot, not one begun before the edit.)
    wait_for(
        &tab,
        "document.querySelector('#stop').disabled && document.querySelector('#command').textContent.includes('Woodcutter, Post Rider') && [...document.querySelectorAll('#table td:first-child')].some(td => td.textContent === 'smithy_big_money')",
        "the results of the Post Rider bot",
    );
    wait_for(
        &tab,
        "document.querySelector('#command').textContent.includes('--cards cards/post_rider.toml sim')",
        "the command with the card file",
    );
    let rider = score(&tab, 1);
    assert!(
        (rider - smithy).abs() > 0.005,
        "Smithy BM scored {smithy}, Post Rider BM {rider}"
    );
    assert!(eval(&tab, "document.querySelector('#cards').value")
        .as_str()
        .unwrap()
        .contains("Post Rider"));
    let got = download(&tab, "#dl-cards", &downloads, "post_rider.toml");
    assert_eq!(got, file, "the card file is among the downloads");

    // A variant typed in the editor (cost 5) plays at once.
    let before = done_count(&tab);
    set_cards(&tab, &file.replace("cost = 4", "cost = 5"));
    wait_done_after(&tab, before, "the batch of the $5 Post Rider");
    wait_for(
        &tab,
        "document.querySelector('#command').textContent.startsWith('domsim --cards cards.toml sim')",
        "the command naming the typed card file",
    );
    shot(&tab, "cards.png");

    // A/B: the file's card ($4) against a $5 variant, the paired interval
    // drawn for each bot. The card file has a second card, first, also put
    // in the kingdom (in place of a kingdom card, not of Post Rider): the
    // designer chooses the card measured, Post Rider.
    // (Automatic runs off meanwhile: a run of the page would replace it.)
    let _ = done_count(&tab);
    eval(
        &tab,
        "document.querySelector('#auto').checked = false; true",
    );
    let village = "[[card]]\nname = \"Test Village\"\ncost = 3\ntypes = [\"Action\"]\ncards = 1\nactions = 2\n\n";
    set_cards(&tab, &format!("{village}{file}"));
    wait_for(
        &tab,
        "document.querySelectorAll('#card-list .to-kingdom').length === 2 && document.querySelectorAll('#card-list .to-kingdom')[0].textContent === 'put in the kingdom'",
        "two cards listed",
    );
    eval(
        &tab,
        "document.querySelectorAll('#card-list .to-kingdom')[0].click(); true",
    );
    let kingdom = eval(&tab, "document.querySelector('#cards').value");
    let kingdom = kingdom.as_str().unwrap();
    assert!(
        kingdom.contains("Post Rider")
            && kingdom.contains("Test Village")
            && kingdom.split(',').count() == 10,
        "{kingdom}"
    );
    eval(&tab, "document.querySelector('#ab').open = true; true");
    eval(
        &tab,
        &format!(
            "(() => {{ const t = document.querySelector('#card-b'); t.value = {}; t.dispatchEvent(new Event('input')); return true; }})()",
            serde_json::Value::String(format!("{village}{}", file.replace("cost = 4", "cost = 5")))
        ),
    );
    wait_for(
        &tab,
        "!document.querySelector('#ab-run').disabled && document.querySelectorAll('#ab-diff tr.changed').length === 1",
        "variant B parsed, one card changed",
    );
    let changed = eval(
        &tab,
        "document.querySelector('#ab-diff tr.changed').textContent",
    );
    assert!(
        changed
            .as_str()
            .unwrap()
            .starts_with("Post Rider (measured)$4 Action: +2 Cards, +$1.$5 Action"),
        "{changed}"
    );
    assert_eq!(
        eval(
            &tab,
            "[...document.querySelectorAll('#ab-card option')].map(o => o.value).join(', ')"
        ),
        "Test Village, Post Rider"
    );
    // (Post Rider, chosen while it was the only card, stays chosen; the
    // server's default would be the first card in the kingdom, Test
    // Village.)
    assert_eq!(
        eval(&tab, "document.querySelector('#ab-card').value"),
        "Post Rider"
    );
    let choose = |card: &str| {
        eval(
            &tab,
            &format!("(() => {{ const s = document.querySelector('#ab-card'); s.value = '{card}'; s.dispatchEvent(new Event('change')); return true; }})()"),
        )
    };
    choose("Test Village");
    assert!(eval(
        &tab,
        "document.querySelector('#ab-diff tr.measured').textContent"
    )
    .as_str()
    .unwrap()
    .starts_with("Test Village (measured)"));
    choose("Post Rider");
    assert!(eval(
        &tab,
        "document.querySelector('#ab-diff tr.measured').textContent"
    )
    .as_str()
    .unwrap()
    .starts_with("Post Rider (measured)"));
    let _ = done_count(&tab);
    eval(&tab, "document.querySelector('#ab-run').click(); true");
    wait_for(
        &tab,
        "Number(document.body.dataset.abDone || 0) > 0",
        "the A/B comparison",
    );
    assert_eq!(
        eval(&tab, "document.querySelectorAll('#ab-chart circle').length"),
        2,
        "one interval per bot"
    );
    assert!(
        eval(&tab, "document.querySelector('#ab-command').textContent")
            .as_str()
            .unwrap()
            .starts_with("domsim compare --a a.toml --b b.toml --card 'Post Rider'")
    );
    assert_eq!(
        eval(&tab, "document.querySelector('#ab-title').textContent"),
        "A/B of Post Rider: variant B − variant A"
    );
    assert!(eval(&tab, "document.querySelector('#ab-what').textContent")
        .as_str()
        .unwrap()
        .contains("Post Rider: A $4 Action: +2 Cards, +$1. → B $5 Action"),);
    shot_at(&tab, "#ab-panel", "ab.png");
    eval(
        &tab,
        "(() => { const a = document.querySelector('#auto'); a.checked = true; a.dispatchEvent(new Event('change')); return true; })()",
    );

    // Three players: you in seat 2, the bots of seats 1 and 3 against you.
    let before = done_count(&tab);
    eval(
        &tab,
        "(() => { const s = document.querySelector('#players'); s.value = '3'; s.dispatchEvent(new Event('change')); return true; })()",
    );
    wait_for(
        &tab,
        "document.querySelectorAll('#play-seat option').length === 3 && document.querySelectorAll('.bot textarea').length === 3 && document.querySelectorAll('.bot textarea')[2].value.length > 0",
        "three seats, the third bot loaded",
    );
    wait_done_after(&tab, before, "the 3-player batch");
    eval(
        &tab,
        "(() => { const s = document.querySelector('#play-seat'); s.value = '1'; document.querySelector('#play-start').click(); return true; })()",
    );
    wait_for(
        &tab,
        "document.querySelectorAll('#answers button').length > 0",
        "the first question",
    );
    assert_eq!(
        eval(&tab, "document.querySelectorAll('#hand .card').length > 0"),
        true
    );
    // Answer as the advisor does (the outlined button), else the first.
    let mut answered = 0u64;
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
        answered = n + 1;
        // A buy says what there is to spend.
        let prompt = eval(&tab, "document.querySelector('#prompt').textContent");
        let prompt = prompt.as_str().unwrap_or("");
        if prompt.starts_with("Buy a card") {
            assert!(prompt.contains(": you have $"), "{prompt}");
        }
        if step == 12 {
            shot_at(&tab, "#play-panel", "play.png");
        }
    }
    assert!(answered > 20, "{answered} answers");
    let result = eval(&tab, "document.querySelector('#play-result').textContent");
    assert!(
        result.as_str().unwrap().starts_with("Game over"),
        "{result}"
    );
    // At the end, no turn or phase is shown as if the game went on.
    assert!(
        eval(&tab, "document.querySelector('#play-status').textContent")
            .as_str()
            .unwrap()
            .starts_with("The game is over"),
    );
    assert_eq!(
        eval(&tab, "document.querySelector('#seats tr.active') === null"),
        true
    );
    shot_at(&tab, "#play-panel", "play-over.png");
    let log = download(&tab, "#dl-game", &downloads, "game.txt");
    assert!(log.starts_with("A game against the bots"), "{log}");
    assert!(log.contains("P2 (seat 2): you (advised by"), "{log}");
    assert!(log.contains("\nGame over"), "{log}");
    let record = download(&tab, "#dl-record", &downloads, "game.json");
    let record: serde_json::Value = serde_json::from_str(&record).unwrap();
    assert_eq!(record["seat"], 1);
    assert!(record["answers"].as_array().unwrap().len() as u64 >= answered - 1);
}
