//! The search bot in `domsim serve` (issue 46), over HTTP: a seat may be
//! `{"search": OPTIONS}` in every request (check, run, log, A/B, play);
//! its batches write `domsim sim search:…`'s CSV; its cost is bounded (the
//! search seats' budgets together, and games × budget a batch), with a
//! message saying how many games fit; a strategy file an option names must
//! be a bot of the folder; a game against a search bot is the game
//! `domsim log` plays, replayed question by question.

use crate::cli::{domsim, scratch, stderr, stdout};
use crate::serve::{bot, shipped, Server};
use serde_json::{json, Value};

fn search(opts: &str) -> Value {
    json!({ "search": opts })
}

fn check(srv: &Server, bots: Value) -> Value {
    let r = srv.post(
        "/api/check",
        &json!({ "kingdom": { "preset": "First Game" }, "bots": bots }),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

/// The error of a request refused with 400.
fn refused(srv: &Server, path: &str, body: &Value) -> String {
    let r = srv.post(path, body);
    assert_eq!(r.status, 400, "{path}: {}", r.body);
    r.json()["error"].as_str().unwrap().to_string()
}

#[test]
fn serve_offers_the_search_bot_with_bounded_cost() {
    let srv = Server::start();
    let meta = srv.request("GET", "/api/meta", None).json();
    let limits = &meta["limits"];
    assert_eq!(limits["max_search_budget"], 2000, "{meta}");
    assert_eq!(limits["max_search_work"], 250_000, "{meta}");
    assert_eq!(limits["search_budget"], 500, "{meta}");
    assert!(meta["search_help"]
        .as_str()
        .unwrap()
        .contains("budget=N rollouts per decision"));

    // Check: a search seat is named as the command line names it; a bad
    // option, a file that is not a bot of the folder and a budget above
    // the server's bound are its errors.
    let big_money = bot("big_money.dom", &shipped("big_money.dom"));
    let c = check(&srv, json!([search("budget=20"), big_money.clone()]));
    assert_eq!(c["bots"][0]["ok"], true, "{c}");
    assert_eq!(c["bots"][0]["name"], "Search (budget 20)", "{c}");
    assert_eq!(c["bots"][0]["source"], "search:budget=20", "{c}");
    let c = check(&srv, json!([search(""), search("rollout=big_money.dom")]));
    assert_eq!(c["bots"][0]["name"], "Search (budget 500)", "{c}");
    assert_eq!(
        c["bots"][1]["name"], "Search (budget 500, rollout Big Money)",
        "{c}"
    );
    assert_eq!(
        c["bots"][1]["source"], "search:rollout=strategies/big_money.dom",
        "{c}"
    );
    for (opts, what) in [
        ("budget=0", "budget=0 must be a whole number of rollouts"),
        ("depth=3", "unknown option 'depth'"),
        ("budget=5000", "above the 2000 rollouts a decision"),
        ("rollout=/etc/passwd", "name a bot of the strategy folder"),
        ("rollout=../README.md", "name a bot of the strategy folder"),
        ("opponent=../strategies/big_money.dom", "auto or same"),
    ] {
        let c = check(&srv, json!([search(opts), big_money.clone()]));
        let b = &c["bots"][0];
        assert_eq!(b["ok"], false, "{opts}: {c}");
        let msg = b["errors"][0]["message"].as_str().unwrap();
        assert!(msg.contains(what), "{opts}: {msg}");
        assert!(!c.to_string().contains("root:"), "nothing read: {c}");
    }
    // A seat is a strategy or the search bot, not both.
    for bad in [
        json!({ "file": "a.dom", "search": "" }),
        json!({ "text": "buy: Gold" }),
        json!({}),
    ] {
        let msg = refused(
            &srv,
            "/api/run",
            &json!({ "client": "t", "bots": [bad, big_money.clone()], "games": 2 }),
        );
        assert!(
            msg.starts_with("bot 1: give \"file\" and \"text\""),
            "{msg}"
        );
    }

    // A batch: small chunks (about 10,000 games × budget the first), the
    // CSV of `domsim sim search:…`, its command line.
    let body = json!({ "client": "t", "kingdom": { "preset": "First Game" },
        "bots": [search("budget=1000"), big_money.clone()], "games": 11, "seed": 3 });
    let r = srv.post("/api/run", &body);
    assert_eq!(r.status, 200, "{}", r.body);
    let ev = r.events();
    let counts: Vec<u64> = ev
        .iter()
        .filter(|e| e.0 == "progress")
        .map(|e| e.1["games"].as_u64().unwrap())
        .collect();
    assert_eq!(counts, [10, 11], "{ev:?}");
    let (last, done) = ev.last().unwrap();
    assert_eq!(last, "done", "{ev:?}");
    let command = done["command"].as_str().unwrap();
    assert!(
        command.starts_with(
            "domsim sim 'search:budget=1000' strategies/big_money.dom -p 2 -n 11 --seed 3 --preset 'First Game'"
        ),
        "{command}"
    );
    let d = scratch("serve_search");
    let out = d.join("sim.csv");
    let o = domsim(&[
        "sim",
        "search:budget=1000",
        "strategies/big_money.dom",
        "-p",
        "2",
        "-n",
        "11",
        "--seed",
        "3",
        "--preset",
        "First Game",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        done["csv"].as_str().unwrap(),
        std::fs::read_to_string(&out).unwrap(),
        "the page's CSV is domsim sim's"
    );

    // The bounds: games × budget, and the budgets of a request together.
    let mut over = body.clone();
    over["bots"] = json!([search(""), big_money.clone()]);
    over["games"] = json!(501);
    let msg = refused(&srv, "/api/run", &over);
    assert!(
        msg.starts_with("games: 501 games with search seats of budget 500 in all is 250500 games × budget; a batch allows at most 250000"),
        "{msg}"
    );
    assert!(msg.contains("play at most 500 games"), "{msg}");
    over["games"] = json!(10);
    over["bots"] = json!([search("budget=1500"), search("budget=1000")]);
    for path in ["/api/run", "/api/log", "/api/play"] {
        let mut b = over.clone();
        b["seat"] = json!(0);
        if path != "/api/run" {
            b.as_object_mut().unwrap().remove("client");
            b.as_object_mut().unwrap().remove("games");
        }
        if path != "/api/play" {
            b.as_object_mut().unwrap().remove("seat");
        }
        let msg = refused(&srv, path, &b);
        assert!(
            msg.starts_with("search: the search seats' budgets add up to 2500 rollouts a decision; a request allows at most 2000"),
            "{path}: {msg}"
        );
    }
    // An A/B plays each game twice: half the games.
    let post_rider =
        "[[card]]\nname = \"Post Rider\"\ncost = 4\ntypes = [\"Action\"]\ncards = 2\ncoins = 1\n";
    let ab = json!({ "client": "t",
        "kingdom": { "cards": "Cellar, Market, Militia, Mine, Moat, Remodel, Smithy, Village, Woodcutter, Post Rider" },
        "bots": [search(""), big_money.clone()], "games": 251, "seed": 1,
        "cards": post_rider, "cards_b": post_rider.replace("cost = 4", "cost = 5") });
    let msg = refused(&srv, "/api/ab", &ab);
    assert!(
        msg.starts_with("games: 251 games per variant with search seats of budget 500 in all"),
        "{msg}"
    );
    assert!(msg.contains("play at most 250 games"), "{msg}");

    // One game's log explains the search's decisions.
    let r = srv.post(
        "/api/log",
        &json!({ "kingdom": { "preset": "First Game" }, "bots": [search("budget=30"), big_money],
            "seed": 3, "game": 1, "explain": true }),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body.contains("search: "), "{}", r.body);
    assert!(r.body.contains("rollout policy's answer"), "{}", r.body);
}

/// The log of a game from its first turn (its header differs between the
/// play mode and `domsim log`).
fn from_first_turn(log: &str) -> &str {
    &log[log
        .find("Turn 1 ")
        .unwrap_or_else(|| panic!("no turn 1: {log}"))..]
}

#[test]
fn a_game_against_a_search_bot_is_the_game_domsim_log_plays() {
    let srv = Server::start();
    let base = json!({
        "kingdom": { "preset": "First Game" },
        "bots": [bot("big_money.dom", &shipped("big_money.dom")), search("budget=40")],
        "seat": 0,
        "seed": "7",
    });
    // The person follows the advisor (Big Money): each replay shows the
    // game so far as the one before showed it (the search bot's moves are
    // replayed, not searched anew with other draws), up to the end.
    let mut answers: Vec<String> = Vec::new();
    let mut before = String::new();
    let end = loop {
        let mut req = base.clone();
        req["answers"] = json!(answers);
        let r = srv.post("/api/play", &req);
        assert_eq!(r.status, 200, "{}", r.body);
        let j = r.json();
        let log = from_first_turn(j["log"].as_str().unwrap()).to_string();
        let lines = before.rfind('\n').map_or("", |k| &before[..=k]);
        assert!(
            log.starts_with(lines),
            "answer {}: the game so far changed",
            answers.len()
        );
        before = log;
        if j["question"].is_null() {
            break j;
        }
        answers.push(j["question"]["suggestion"].as_str().unwrap().to_string());
        assert!(answers.len() < 3000, "the game does not end");
    };
    let log = end["log"].as_str().unwrap();
    assert!(
        log.contains("P2 (seat 2): Search (budget 40) [search:budget=40]"),
        "{log}"
    );
    assert!(log.contains("Game over"), "{log}");
    // The very game `domsim log` plays with these bots in these seats.
    let o = domsim(&[
        "log",
        "strategies/big_money.dom",
        "search:budget=40",
        "--preset",
        "First Game",
        "--seed",
        "7",
        "--game",
        "0",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let cli = stdout(&o);
    assert!(
        cli.contains("P1 (seat 1): Big Money"),
        "seat order of game 0: {cli}"
    );
    assert_eq!(from_first_turn(log), from_first_turn(&cli));
}
