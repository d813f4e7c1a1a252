//! Hardening (issue 8): a short soak, fuzzing of the two text parsers on
//! stable Rust (random and mutated inputs; the cargo-fuzz targets in `fuzz/`
//! do the same with coverage guidance on nightly), and the round-trip
//! property of the scenario notation.
//!
//! `DOMSIM_FUZZ=N` multiplies the number of fuzz inputs (use `--release`).

use domsim::bots::RandomBots;
use domsim::engine::{Game, GameRng, Kingdom};
use domsim::scenario::{state_json, to_text, Scenario};
use domsim::soak::{self, SoakConfig};
use domsim::Card;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::atomic::AtomicBool;

fn scale() -> usize {
    std::env::var("DOMSIM_FUZZ")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

// ---------------------------------------------------------------------------
// Soak

#[test]
fn small_soak_passes() {
    let cfg = SoakConfig::new(120, 2026);
    let r = soak::run(&cfg, &AtomicBool::new(false));
    assert!(r.ok(), "{}", r.text(&cfg));
    assert_eq!(r.games, 120);
    assert_eq!(
        r.strategy_games, 30,
        "one game in four uses generated strategies"
    );
    assert!(r.decisions > 10_000, "{}", r.text(&cfg));
    assert_eq!(r.kingdoms.len(), 120);
    assert!(!r.interrupted);
    // Split piles count by their cards; Shelters are not gainable by design.
    let never = r.never_gained();
    for c in [
        Card::Knights,
        Card::Ruins,
        Card::Hovel,
        Card::Necropolis,
        Card::OvergrownEstate,
    ] {
        assert!(!never.contains(&c), "{c} listed as never gained");
    }
    assert!(!r.never_played().contains(&Card::Knights));
    let text = r.text(&cfg);
    assert!(
        text.contains("not gainable by design: Hovel, Necropolis, Overgrown Estate"),
        "{text}"
    );
    // The figures are a function of (seed, game index) alone.
    let again = soak::run(&cfg, &AtomicBool::new(false));
    assert_eq!(again.decisions, r.decisions);
    assert_eq!(again.played, r.played);
}

#[test]
fn soak_stops_when_asked() {
    let cfg = SoakConfig::new(1_000_000, 1);
    let r = soak::run(&cfg, &AtomicBool::new(true));
    assert_eq!(r.games, 0);
    assert!(r.interrupted);
    assert!(r.text(&cfg).contains("INTERRUPTED"));
}

// ---------------------------------------------------------------------------
// Input generation

/// Tokens that make mutations interesting for both grammars.
const DICT: &[&str] = &[
    "(",
    ")",
    "((((",
    "))))",
    ":",
    "\n",
    "\n    ",
    "\t",
    " ",
    ",",
    "#",
    "if ",
    " and ",
    " or ",
    "not ",
    "max ",
    "keep ",
    "none",
    "yes",
    "no",
    "=",
    "==",
    "<=",
    ">",
    "+",
    "-",
    "*",
    "/ 0",
    "% 0",
    "*99",
    "x4",
    "0",
    "-1",
    "99999999999999999999",
    "65535",
    "255",
    "count(",
    "supply(",
    "cost(",
    "hand(Action)",
    "Province",
    "Curse",
    "Throne Room",
    "Feast",
    "Copper*3",
    "buy:",
    "play:",
    "extends: ",
    "extends: big_money.dom",
    "name: x",
    "Chapel trash:",
    "p0.hand: ",
    "p1.deck: ",
    "p7.hand: ",
    "answers.p0: ",
    "do: turn",
    "do: play Feast",
    "do: buy Province",
    "do: treasures",
    "do: cleanup",
    "expect p0.hand: ",
    "expect error: ",
    "players: 6",
    "players: 1",
    "coins: 65535",
    "actions: 65535",
    "buys: 65535",
    "action_plays: 65535",
    "cost_reduction: 255",
    "copper_bonus: 255",
    "turns: 65535",
    "kingdom: ",
    "supply: Duchy=0",
    "phase: buy",
    "é",
    "\u{0}",
    "\u{feff}",
    "🂡",
];

fn mutate(rng: &mut GameRng, base: &str) -> String {
    let mut b: Vec<u8> = base.as_bytes().to_vec();
    let rounds = 1 + rng.below(6);
    for _ in 0..rounds {
        let len = b.len();
        let at = if len == 0 {
            0
        } else {
            rng.below(len as u32 + 1) as usize
        };
        match rng.below(6) {
            0 if len > 0 => {
                let n = (1 + rng.below(16) as usize).min(len - at.min(len));
                b.drain(at..at + n);
            }
            1 if len > 0 => {
                let i = at.min(len - 1);
                b[i] = rng.next_u64() as u8;
            }
            2 if len > 0 => {
                let n = (1 + rng.below(40) as usize).min(len - at.min(len));
                let piece: Vec<u8> = b[at..at + n].to_vec();
                let to = rng.below(len as u32 + 1) as usize;
                b.splice(to..to, piece);
            }
            _ => {
                let t = DICT[rng.below(DICT.len() as u32) as usize];
                b.splice(at..at, t.bytes());
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

fn random_bytes(rng: &mut GameRng) -> String {
    let n = rng.below(300) as usize;
    let b: Vec<u8> = (0..n)
        .map(|_| {
            // Mostly printable ASCII and newlines, sometimes anything.
            match rng.below(10) {
                0 => rng.next_u64() as u8,
                1 => b'\n',
                _ => 32 + rng.below(95) as u8,
            }
        })
        .collect();
    String::from_utf8_lossy(&b).into_owned()
}

fn files(dir: &str, ext: &str) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut v: Vec<(String, String)> = std::fs::read_dir(&root)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no *.{ext} in {dir}");
    v
}

// ---------------------------------------------------------------------------
// Strategy parser

/// Parse (and compile, if it parses) one input: no panic, and every error
/// has a position and a message.
fn strategy_case(text: &str, file: &str, k: &Kingdom) -> Result<(), String> {
    let r = catch_unwind(AssertUnwindSafe(|| {
        match domsim::strategy::parse(text, file) {
            Ok(st) => {
                let mut k = *k;
                k.track_turn |= st.uses_turn_counters();
                if let Err(e) = st.compile(&k) {
                    check_strategy_error(&e)?;
                }
                Ok(())
            }
            Err(e) => check_strategy_error(&e),
        }
    }));
    match r {
        Ok(x) => x,
        Err(_) => Err("panicked".into()),
    }
}

fn check_strategy_error(e: &domsim::strategy::StrategyError) -> Result<(), String> {
    if e.msg.trim().is_empty() {
        return Err(format!("error without a message: {e:?}"));
    }
    // Line 0 is reserved for errors about a whole file (cannot read it).
    if e.line == 0 && !e.msg.starts_with("cannot read") {
        return Err(format!("error without a position: {e:?}"));
    }
    if e.line > 0 && e.col == 0 {
        return Err(format!("error without a column: {e:?}"));
    }
    // Display must not panic either (it slices the source line).
    let _ = e.to_string();
    Ok(())
}

#[test]
fn strategy_parser_survives_random_and_mutated_input() {
    let seeds = files("strategies", "dom");
    let k = Kingdom::random(3, &soak::implemented_sets(), 5).unwrap();
    let mut rng = GameRng::for_game(0xF022, 1);
    let n = 3000 * scale();
    let mut failures = Vec::new();
    for i in 0..n {
        let (file, text) = match i % 4 {
            0 => ("random.dom".to_string(), random_bytes(&mut rng)),
            1 => {
                let gen = soak::random_strategy(&mut rng, &k);
                ("strategies/gen.dom".to_string(), mutate(&mut rng, &gen))
            }
            _ => {
                let (f, t) = &seeds[rng.below(seeds.len() as u32) as usize];
                (f.clone(), mutate(&mut rng, t))
            }
        };
        if let Err(why) = strategy_case(&text, &file, &k) {
            failures.push(format!("case {i}: {why}\n--- input ---\n{text:?}"));
            if failures.len() >= 5 {
                break;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn strategy_parser_deep_nesting_is_an_error_not_a_crash() {
    let k = Kingdom::random(2, &soak::implemented_sets(), 1).unwrap();
    for depth in [10, 100, 10_000, 100_000] {
        let text = format!(
            "buy:\n    Gold if {}coins >= 6{}\n",
            "(".repeat(depth),
            ")".repeat(depth)
        );
        strategy_case(&text, "deep.dom", &k).unwrap();
        let text = format!("buy:\n    Gold if {}coins >= 6\n", "not ".repeat(depth));
        strategy_case(&text, "deep.dom", &k).unwrap();
        let text = format!("buy:\n    Gold if coins{}\n", " + 1".repeat(depth));
        strategy_case(&text, "deep.dom", &k).unwrap();
    }
}

// ---------------------------------------------------------------------------
// Scenario parser

fn scenario_case(text: &str) -> Result<(), String> {
    let r = catch_unwind(AssertUnwindSafe(|| -> Result<(), String> {
        let e = match Scenario::parse(text) {
            Ok(sc) => match sc.run() {
                Ok(_) => return Ok(()),
                Err(e) => e,
            },
            Err(e) => e,
        };
        if e.msg.trim().is_empty() || e.line == 0 || e.col == 0 {
            return Err(format!("error without position or message: {e:?}"));
        }
        Ok(())
    }));
    match r {
        Ok(x) => x,
        Err(_) => Err("panicked".into()),
    }
}

#[test]
fn scenario_parser_survives_random_and_mutated_input() {
    let seeds = files("tests/scenarios", "txt");
    let mut rng = GameRng::for_game(0xF022, 2);
    let n = 3000 * scale();
    let mut failures = Vec::new();
    for i in 0..n {
        let text = if i % 5 == 0 {
            random_bytes(&mut rng)
        } else {
            let (_, t) = &seeds[rng.below(seeds.len() as u32) as usize];
            mutate(&mut rng, t)
        };
        if let Err(why) = scenario_case(&text) {
            failures.push(format!("case {i}: {why}\n--- input ---\n{text}"));
            if failures.len() >= 5 {
                break;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

// ---------------------------------------------------------------------------
// Round trip: notation → Game → notation → Game

fn round_trip(g1: &Game, what: &str) {
    let t1 = to_text(g1);
    let g2 = Scenario::parse(&t1)
        .unwrap_or_else(|e| panic!("{what}: printed state does not parse: {e}\n{t1}"))
        .game;
    let t2 = to_text(&g2);
    assert_eq!(t1, t2, "{what}: text differs after a round trip");
    assert_eq!(
        state_json(g1, &[]),
        state_json(&g2, &[]),
        "{what}: state differs after a round trip\n{t1}"
    );
    for p in 0..g1.n() {
        let (a, b) = (&g1.players[p], &g2.players[p]);
        assert_eq!(a.owned, b.owned, "{what}: cached counts of p{p}");
        assert_eq!(
            a.hand.iter().collect::<Vec<_>>(),
            b.hand.iter().collect::<Vec<_>>(),
            "{what}: p{p} hand order"
        );
    }
    assert_eq!(g1.supply, g2.supply, "{what}: supply");
    assert_eq!(g1.turn, g2.turn, "{what}: turn state");
    assert_eq!(g1.kingdom.supply, g2.kingdom.supply, "{what}: supply piles");
    assert_eq!(g1.kingdom.kingdom, g2.kingdom.kingdom, "{what}: kingdom");
}

#[test]
fn scenario_files_round_trip() {
    for (f, text) in files("tests/scenarios", "txt") {
        let g = Scenario::parse(&text).unwrap().game;
        round_trip(&g, &f);
    }
}

#[test]
fn random_game_states_round_trip() {
    let sets = soak::implemented_sets();
    for i in 0..60u64 {
        let players = 2 + (i % 5) as usize;
        let k = Kingdom::random(players, &sets, i).unwrap();
        let mut g = Game::new(&k, 9, i);
        let mut b = RandomBots::new(i, false);
        let turns = (i * 7) % 40;
        for _ in 0..turns {
            if g.over {
                break;
            }
            g.play_turn(&mut b);
        }
        round_trip(&g, &format!("game {i} after {turns} turns"));
    }
}

#[test]
fn scenario_counters_cannot_overflow_the_engine() {
    // Found by hand after the fuzzers (debug builds panicked on the add in
    // the vanilla bonuses): set-up counters are bounded.
    let big = "players: 2\ncoins: 65535\np0.hand: Market\ndo: play Market\n";
    let e = Scenario::parse(big).err().expect("refused");
    assert_eq!((e.line, e.col), (2, 8));
    assert!(e.msg.contains("too large"), "{e}");
    let max = "players: 2\nkingdom: Market, Bridge, Coppersmith\nactions: 1000\nbuys: 1000\n\
               coins: 1000\ncost_reduction: 100\ncopper_bonus: 100\naction_plays: 1000\n\
               turns: 10000, 10000\np0.hand: Market, Bridge, Coppersmith, Gold, Copper\n\
               do: play Market\ndo: play Bridge\ndo: play Coppersmith\ndo: treasures\n\
               do: buy Province\ndo: cleanup\ndo: turn\n";
    scenario_case(max).unwrap();
}
