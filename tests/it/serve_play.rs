//! `domsim serve`'s data cards and its games against the bots (issue 45),
//! over HTTP: `domsim --cards FILE serve` starts the card editor with the
//! file, a typed card parses with its errors at line and column, plays in
//! the kingdom and gives the CSV `domsim --cards FILE sim` writes; a game
//! with a person's seat is replayed from its seed and answers, question by
//! question, to its end, the same way twice. The page in a browser:
//! `serve_workbench_browser.rs`.

use crate::cli::{domsim, scratch, stderr};
use crate::serve::{bot, shipped, Server};
use serde_json::{json, Value};

const POST_RIDER: &str =
    "[[card]]\nname = \"Post Rider\"\ncost = 4\ntypes = [\"Action\"]\ncards = 2\ncoins = 1\n";

/// A whole kingdom with the card (a partial list's `kingdom_source` says
/// how to fill it in the command line's words).
const KINGDOM: &str =
    "Cellar, Market, Militia, Mine, Moat, Remodel, Smithy, Village, Woodcutter, Post Rider";

fn bots() -> Value {
    json!([
        bot("big_money.dom", &shipped("big_money.dom")),
        bot(
            "post_rider_big_money.dom",
            "# Big Money with a Post Rider\nbuy:\n    Province if total_money >= 16\n    Gold\n    Post Rider if count(Post Rider) < 2\n    Silver\n"
        ),
    ])
}

#[test]
fn serve_takes_card_files_and_typed_cards() {
    let srv = Server::start_with(&["--cards", "cards/post_rider.toml"]);
    // The editor starts with the file; printed cards only in the list of
    // Kingdom cards (the data cards are the editor's).
    let meta = srv.request("GET", "/api/meta", None).json();
    assert_eq!(
        meta["card_text"].as_str().unwrap(),
        std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/cards/post_rider.toml"
        ))
        .unwrap()
    );
    assert_eq!(meta["card_files"], json!(["cards/post_rider.toml"]));
    assert!(!meta["cards"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["name"] == "Post Rider"));

    // Parsing as you type: the card and its text, or the error's position.
    let ok = srv
        .post("/api/cards", &json!({ "text": POST_RIDER }))
        .json();
    assert_eq!(ok["ok"], true, "{ok}");
    assert_eq!(ok["cards"][0]["name"], "Post Rider");
    assert_eq!(ok["cards"][0]["text"], "+2 Cards, +$1.");
    let bad = srv
        .post(
            "/api/cards",
            &json!({ "text": POST_RIDER.replace("cards = 2", "cardz = 2") }),
        )
        .json();
    assert_eq!(bad["ok"], false, "{bad}");
    assert_eq!(bad["error"]["line"], 5, "{bad}");
    assert!(bad["error"]["col"].as_u64().unwrap() > 0, "{bad}");
    assert!(
        bad["error"]["message"].as_str().unwrap().contains("cardz"),
        "{bad}"
    );
    // Too many bytes is a diagnosis too, not a crash.
    let big = srv
        .post("/api/cards", &json!({ "text": "#".repeat(40_000) }))
        .json();
    assert_eq!(big["ok"], false, "{big}");

    // A check of the bots with the file's cards (no `cards` field) and
    // with a typed card of another name: the kingdom knows the card.
    let kingdom = json!({ "cards": KINGDOM });
    let c = srv
        .post("/api/check", &json!({ "kingdom": kingdom, "bots": bots() }))
        .json();
    assert_eq!(c["kingdom"]["ok"], true, "{c}");
    assert_eq!(c["bots"][1]["ok"], true, "{c}");
    let renamed = POST_RIDER.replace("Post Rider", "Post Horse");
    let c = srv
        .post(
            "/api/check",
            &json!({ "kingdom": { "cards": "Post Horse" }, "bots": bots(), "cards": renamed }),
        )
        .json();
    assert_eq!(c["kingdom"]["ok"], true, "{c}");
    assert_eq!(c["cards"][0]["name"], "Post Horse", "{c}");
    // The strategy names Post Rider, which is no card now: a compile
    // error at its position.
    assert_eq!(c["bots"][1]["ok"], false, "{c}");
    // A card error in a check request is a 400 naming the position.
    let r = srv.post(
        "/api/check",
        &json!({ "kingdom": kingdom, "bots": bots(), "cards": POST_RIDER.replace("cost = 4", "cost = 40") }),
    );
    assert_eq!(r.status, 400, "{}", r.body);
    let j = r.json();
    assert_eq!(j["card_error"]["line"], 3, "{j}");
    assert!(
        j["error"]
            .as_str()
            .unwrap()
            .starts_with("cards: cards.toml:3:"),
        "{j}"
    );

    // A batch of the typed card (as the page sends it) gives the CSV of
    // `domsim --cards FILE sim` with the same card in the file.
    let r = srv.post(
        "/api/run",
        &json!({ "client": "t1", "kingdom": kingdom, "bots": bots(), "games": 600, "seed": 3, "cards": POST_RIDER }),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let events = r.events();
    let done = &events.iter().find(|(n, _)| n == "done").expect("done").1;
    let command = done["command"].as_str().unwrap();
    assert!(
        command.starts_with("domsim --cards cards.toml sim "),
        "{command}"
    );
    let d = scratch("serve-cards");
    let card_file = d.join("cards.toml");
    std::fs::write(&card_file, POST_RIDER).unwrap();
    let pr = d.join("post_rider_big_money.dom");
    std::fs::write(&pr, bots()[1]["text"].as_str().unwrap()).unwrap();
    let out = d.join("sim.csv");
    let o = domsim(&[
        "--cards",
        card_file.to_str().unwrap(),
        "sim",
        "strategies/big_money.dom",
        pr.to_str().unwrap(),
        "--kingdom",
        KINGDOM,
        "-n",
        "600",
        "--seed",
        "3",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        done["csv"]
            .as_str()
            .unwrap()
            .replace("typed:post_rider_big_money.dom", pr.to_str().unwrap()),
        std::fs::read_to_string(&out).unwrap(),
        "the typed card's CSV is domsim sim's"
    );
    // The file's own cards (no `cards` field): the command names the file.
    let r = srv.post(
        "/api/run",
        &json!({ "client": "t1", "kingdom": kingdom, "bots": bots(), "games": 100, "seed": 3 }),
    );
    let events = r.events();
    let done = &events.iter().find(|(n, _)| n == "done").expect("done").1;
    assert!(
        done["command"]
            .as_str()
            .unwrap()
            .starts_with("domsim --cards cards/post_rider.toml sim "),
        "{}",
        done["command"]
    );
    // A/B: the typed card at $4 against $5, paired; the rows are those of
    // `domsim compare` for the same files (its pairing does not depend on
    // how the games are split into blocks).
    let b = POST_RIDER.replace("cost = 4", "cost = 5");
    let r = srv.post(
        "/api/ab",
        &json!({ "client": "t1", "kingdom": kingdom, "bots": bots(), "games": 1200, "seed": 3, "cards": POST_RIDER, "cards_b": b }),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let events = r.events();
    assert!(events.iter().any(|(n, _)| n == "progress"), "{events:?}");
    let done = &events.iter().find(|(n, _)| n == "done").expect("done").1;
    assert_eq!(done["games"], 1200, "{done}");
    assert_eq!(done["card"], "Post Rider");
    let command = done["command"].as_str().unwrap();
    assert!(
        command.starts_with("domsim compare --a a.toml --b b.toml --card 'Post Rider' "),
        "{command}"
    );
    std::fs::write(d.join("a.toml"), POST_RIDER).unwrap();
    std::fs::write(d.join("b.toml"), &b).unwrap();
    let out = d.join("compare.csv");
    let o = domsim(&[
        "compare",
        "--a",
        d.join("a.toml").to_str().unwrap(),
        "--b",
        d.join("b.toml").to_str().unwrap(),
        "--card",
        "Post Rider",
        "strategies/big_money.dom",
        pr.to_str().unwrap(),
        "--kingdom",
        KINGDOM,
        "-n",
        "1200",
        "--seed",
        "3",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = |csv: &str| -> Vec<String> {
        csv.lines()
            .filter(|l| !l.starts_with('#'))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(
        rows(done["csv"].as_str().unwrap()),
        rows(&std::fs::read_to_string(&out).unwrap()),
        "the page's A/B rows are domsim compare's"
    );
    // Variant B must define the same cards.
    let r = srv.post(
        "/api/ab",
        &json!({ "client": "t1", "kingdom": kingdom, "bots": bots(), "games": 100, "cards": POST_RIDER, "cards_b": renamed }),
    );
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("the same cards"), "{}", r.body);
    let r = srv.post(
        "/api/ab",
        &json!({ "client": "t1", "kingdom": kingdom, "bots": bots(), "games": 100, "cards": POST_RIDER, "cards_b": "[[card]]\nname = 3\n" }),
    );
    assert_eq!(r.status, 400, "{}", r.body);
    assert_eq!(r.json()["card_error_b"]["line"], 2, "{}", r.body);

    // Many edits of a card bind again and again (each new definition
    // takes one arena row; known ones none).
    for cost in [2, 3, 4, 5, 2, 3, 4, 5] {
        let c = srv
            .post(
                "/api/check",
                &json!({ "kingdom": kingdom, "bots": bots(), "cards": POST_RIDER.replace("cost = 4", &format!("cost = {cost}")) }),
            )
            .json();
        assert_eq!(c["cards"][0]["cost"], cost, "{c}");
        assert_eq!(c["bots"][1]["ok"], true, "{c}");
    }
}

/// A bad card file at start is refused like any `--cards` (exit 2, the
/// position), and `--cards-only` starts the editor with the chosen cards.
#[test]
fn serve_refuses_bad_card_files_at_start() {
    let d = scratch("serve-bad-cards");
    let f = d.join("bad.toml");
    std::fs::write(&f, POST_RIDER.replace("cost = 4", "cost = x")).unwrap();
    let o = domsim(&["--cards", f.to_str().unwrap(), "serve", "--port", "0"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("bad.toml:3:"), "{}", stderr(&o));
    let srv = Server::start_with(&[
        "--cards",
        "cards/examples.toml",
        "--cards-only",
        "Hamlet Smith",
    ]);
    let meta = srv.request("GET", "/api/meta", None).json();
    let text = meta["card_text"].as_str().unwrap();
    assert!(
        text.starts_with("# from cards/examples.toml\n[[card]]\nname = \"Hamlet Smith\""),
        "{text}"
    );
    assert_eq!(text.matches("[[card]]").count(), 1, "{text}");
}

/// Plays the person's seat with `choose` (given the question, the answer
/// to send) until the game ends; the answers and the last reply.
fn play_out(
    srv: &Server,
    base: &Value,
    mut choose: impl FnMut(&Value) -> String,
) -> (Vec<String>, Value) {
    let mut answers: Vec<String> = Vec::new();
    for _ in 0..3000 {
        let mut req = base.clone();
        req["answers"] = json!(answers);
        let r = srv.post("/api/play", &req);
        assert_eq!(r.status, 200, "{}", r.body);
        let j = r.json();
        if j["question"].is_null() {
            return (answers, j);
        }
        let q = &j["question"];
        let a = choose(q);
        assert!(
            q["options"]
                .as_array()
                .unwrap()
                .iter()
                .any(|o| o["answer"] == a.as_str()),
            "{a} among {q}"
        );
        answers.push(a);
    }
    panic!("the game did not end in 3000 answers");
}

#[test]
fn a_game_against_the_bots_is_replayed_to_its_end() {
    let srv = Server::start();
    let base = json!({
        "kingdom": { "preset": "First Game" },
        "bots": [
            bot("big_money.dom", &shipped("big_money.dom")),
            bot("smithy_big_money.dom", &shipped("smithy_big_money.dom")),
            bot("big_money.dom", &shipped("big_money.dom")),
        ],
        "seat": 1,
        "seed": "7",
    });
    // The first question: seat 2's first turn comes after seat 1's, so the
    // log so far shows P1's turn, and the question is P2's.
    let first = srv.post("/api/play", &base).json();
    let q = &first["question"];
    assert!(q["kind"].is_string(), "{first}");
    assert_eq!(first["view"]["active"], 1, "{first}");
    assert_eq!(first["view"]["hand"].as_array().unwrap().len(), 5);
    assert!(first["log"].as_str().unwrap().contains("Turn 1 — P1"));
    assert_eq!(first["view"]["supply"].as_array().unwrap().len(), 17);

    // The person follows the advisor: the game is the one the bots play
    // with the advisor in that seat, the very log of `domsim log`... (the
    // advisor is asked the same questions in the same order).
    let (answers, end) = play_out(&srv, &base, |q| q["suggestion"].as_str().unwrap().into());
    assert!(answers.len() > 20, "{}", answers.len());
    let log = end["log"].as_str().unwrap();
    assert!(log.contains("Game over"), "{log}");
    assert!(
        log.contains("P2 (seat 2): you (advised by Smithy Big Money"),
        "{log}"
    );
    assert_eq!(end["outcome"]["vp"].as_array().unwrap().len(), 3);
    // The same seed and answers: the same game (a record is replayable).
    let mut again = base.clone();
    again["answers"] = json!(answers);
    let again = srv.post("/api/play", &again).json();
    assert_eq!(again["log"], end["log"]);

    // Another person, buying what is cheapest and answering the first
    // option: a different game, played to its end all the same.
    let (_, other) = play_out(&srv, &base, |q| {
        let opts = q["options"].as_array().unwrap();
        opts.iter()
            .filter(|o| o["answer"] != "-")
            .min_by_key(|o| o["cost"].as_u64().unwrap_or(0))
            .unwrap_or(&opts[0])["answer"]
            .as_str()
            .unwrap()
            .into()
    });
    assert_ne!(other["log"], end["log"]);

    // An answer that does not fit its question is refused with its place.
    let mut bad = base.clone();
    bad["answers"] = json!(["Province"]);
    let r = srv.post("/api/play", &bad);
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(
        r.json()["error"]
            .as_str()
            .unwrap()
            .starts_with("answer 1 ('Province')"),
        "{}",
        r.body
    );
    // Too many answers for the game, and a seat that does not exist.
    let mut long = base.clone();
    let mut more = answers.clone();
    more.push("-".into());
    long["answers"] = json!(more);
    let r = srv.post("/api/play", &long);
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("the game ended after answer"), "{}", r.body);
    let mut seat = base.clone();
    seat["seat"] = json!(3);
    assert_eq!(srv.post("/api/play", &seat).status, 400);
}

/// Every kind of question reaches the person: a kingdom of cards that ask
/// yes/no (Chancellor, Library), choose-one (Steward, Minion, Pawn) and
/// picks of every sort; the person answers the last option each time.
#[test]
fn every_kind_of_question_reaches_the_person() {
    let srv = Server::start();
    let base = json!({
        "kingdom": { "cards": "Chancellor, Library, Steward, Minion, Pawn, Chapel, Militia, Moat, Throne Room, Remodel" },
        "bots": [
            bot("big_money.dom", &shipped("big_money.dom")),
            bot("big_money.dom", &shipped("big_money.dom")),
        ],
        "seat": 0,
        "seed": "5",
        "cards": "",
    });
    let mut kinds = std::collections::BTreeSet::new();
    let mut turn = 0usize;
    let mut buys = 0usize;
    let wanted = [
        "Minion",
        "Steward",
        "Pawn",
        "Chancellor",
        "Library",
        "Throne Room",
    ];
    let (_, end) = play_out(&srv, &base, |q| {
        kinds.insert(q["kind"].as_str().unwrap().to_string());
        turn += 1;
        let opts = q["options"].as_array().unwrap();
        let prompt = q["prompt"].as_str().unwrap();
        let pick = if q["kind"] == "treasures" || prompt.starts_with("Play a Treasure") {
            // Money played in full (else the person buys nothing).
            &opts[0]
        } else if prompt.starts_with("Buy") {
            // The cards that ask questions, in turn; else the best card.
            buys += 1;
            let some: Vec<&Value> = opts
                .iter()
                .filter(|o| wanted.contains(&o["answer"].as_str().unwrap()))
                .collect();
            if some.is_empty() {
                opts.iter().find(|o| o["answer"] != "-").unwrap_or(&opts[0])
            } else {
                some[buys % some.len()]
            }
        } else {
            // Anything else: the options in turn.
            &opts[turn % opts.len()]
        };
        pick["answer"].as_str().unwrap().into()
    });
    assert!(end["log"].as_str().unwrap().contains("Game over"));
    for k in ["pick", "yes_no", "choose", "treasures"] {
        assert!(kinds.contains(k), "{k} never asked: {kinds:?}");
    }
}
