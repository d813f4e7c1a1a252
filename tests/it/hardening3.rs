//! Hardening, round three (issue 48): the capacity of a game is a checked
//! rule, parts and checkpoints carry a digest, card files load in linear
//! time, inputs that are not regular files are refused before they are
//! opened, names hold no control characters, and data cards are soaked.

use super::cli::{domsim, entries, scratch, stderr};
use domsim::cards::data;

// ---------------------------------------------------------------------------
// 1. Capacity

/// Ten data cards within every documented range, each of pile `pile`:
/// free, +1 Card +4 Buys, "play an Action card from your hand four times".
/// The reproduction of issue 48's crash (with `pile = 60`).
fn echo_cards(pile: u32) -> (String, Vec<String>) {
    let names: Vec<String> = (0..10)
        .map(|i| format!("Echo {}", (b'A' + i) as char))
        .collect();
    let mut t = String::new();
    for n in &names {
        t.push_str(&format!(
            "[[card]]\nname = \"{n}\"\ncost = 0\ntypes = [\"Action\"]\npile = {pile}\ncards = 1\nbuys = 4\neffect = [{{ do = \"play_action\", times = 4 }}]\n\n"
        ));
    }
    (t, names)
}

/// A bot that buys every one of `names` it can, always from the fullest
/// pile (so that no pile empties before the others: against a bot that
/// buys nothing, it ends up holding nearly every card of the game), and
/// nothing else. With `pile = 60` this crashed `sim` at zone.rs:273.
fn hoarder(names: &[String], pile: u32) -> String {
    let mut t = String::from("name: Hoarder\nbuy:\n");
    for left in (1..=pile).rev() {
        for n in names {
            t.push_str(&format!("    {n} if supply({n}) >= {left}\n"));
        }
    }
    t
}

/// A bot that never buys.
const IDLE: &str = "name: Idle\nbuy:\n    Copper if turn > 1000\n";

#[test]
fn a_game_whose_cards_do_not_fit_is_refused_by_every_verb() {
    let d = scratch("capacity-refused");
    let (cards, names) = echo_cards(60);
    let f = d.join("echo.toml");
    std::fs::write(&f, cards).unwrap();
    let st = d.join("hoarder.dom");
    std::fs::write(&st, hoarder(&names, 60)).unwrap();
    let idle = d.join("idle.dom");
    std::fs::write(&idle, IDLE).unwrap();
    let (f, st, idle) = (
        f.to_str().unwrap(),
        st.to_str().unwrap(),
        idle.to_str().unwrap(),
    );
    let kingdom = names.join(",");
    let out = d.join("out.csv");
    let out = out.to_str().unwrap();
    for args in [
        vec![
            "sim",
            "--cards",
            f,
            "--kingdom",
            &kingdom,
            st,
            idle,
            "-n",
            "20",
            "-o",
            out,
        ],
        vec!["log", "--cards", f, "--kingdom", &kingdom, st, idle],
        vec!["check", "--cards", f, "--kingdom", &kingdom, st],
        vec!["kingdom", "--cards", f, "--kingdom", &kingdom],
        vec![
            "compare",
            "--a",
            f,
            "--b",
            f,
            "--kingdom",
            &kingdom,
            st,
            idle,
            "-n",
            "20",
            "-o",
            out,
        ],
    ] {
        let o = domsim(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        for needle in [
            "770 cards",
            "more than the 600",
            "echo.toml",
            "Echo A 60",
            "at most 43 each",
        ] {
            assert!(err.contains(needle), "{args:?}: {needle:?} not in {err}");
        }
        assert!(!err.contains("panicked"), "{err}");
        assert_eq!(
            entries(&d),
            ["echo.toml", "hoarder.dom", "idle.dom"],
            "{args:?}"
        );
    }
}

/// The largest piles that fit (43 each: 150 basic cards, 430 in the data
/// piles, 20 in the starting decks: exactly 600) play: 10,000 games of a
/// bot that buys every card it can (from the fullest pile), four at a time,
/// and plays each one four times, against one that never buys, without a
/// fault, and without a zone ever dropping a card.
#[test]
fn the_adversarial_cards_within_the_bound_play_ten_thousand_games() {
    let d = scratch("capacity-plays");
    let (cards, names) = echo_cards(43);
    let f = d.join("echo.toml");
    std::fs::write(&f, cards).unwrap();
    let st = d.join("hoarder.dom");
    std::fs::write(&st, hoarder(&names, 43)).unwrap();
    let idle = d.join("idle.dom");
    std::fs::write(&idle, IDLE).unwrap();
    let out = d.join("out.csv");
    let o = domsim(&[
        "sim",
        "--cards",
        f.to_str().unwrap(),
        "--kingdom",
        &names.join(","),
        st.to_str().unwrap(),
        idle.to_str().unwrap(),
        "-n",
        "10000",
        "-j",
        "2",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let csv = std::fs::read_to_string(&out).unwrap();
    assert!(csv.contains("10000"), "{csv}");
    assert!(!stderr(&o).contains("fault"), "{}", stderr(&o));

    // The same games in the library, each checked against the
    // conservation invariant at its end.
    let dc = data::load_files(&[&f]).unwrap();
    let _binding = data::bind(&dc).unwrap();
    let k = domsim::Kingdom::from_names(2, &names).unwrap();
    assert_eq!(k.total_cards(), domsim::engine::MAX_CARDS);
    let before = domsim::engine::zone::zone_overflows();
    let mut g = domsim::Game::new(&k, 1, 0);
    for i in 0..300 {
        g.reset(&k, 1, i);
        g.play_game(&mut Hoard);
        g.check_invariants()
            .unwrap_or_else(|e| panic!("game {i}: {e}"));
        assert!(g.fault.is_none(), "game {i}");
    }
    assert_eq!(domsim::engine::zone::zone_overflows(), before);
}

/// Seat 0 buys a data card from the fullest pile whenever it can and
/// plays every Action; seat 1 never buys; every other question gets the
/// first legal answer.
struct Hoard;

impl domsim::Bots for Hoard {
    fn pick(&mut self, g: &domsim::Game, q: &domsim::engine::Pick) -> Option<domsim::Card> {
        let fullest = q
            .legal
            .iter()
            .filter(|c| c.info().set == domsim::cards::Set::Data)
            .max_by_key(|&c| g.supply[c as usize]);
        match q.why {
            domsim::engine::Why::Buy if q.player == 0 => fullest,
            domsim::engine::Why::Buy => None,
            _ => fullest.or_else(|| q.legal.iter().next()),
        }
    }
    fn yes_no(&mut self, _g: &domsim::Game, _q: &domsim::engine::YesNo) -> bool {
        true
    }
    fn play_all_treasures(&mut self, _g: &domsim::Game, _player: u8) -> bool {
        true
    }
    fn choose(&mut self, _g: &domsim::Game, _q: &domsim::engine::Choose) -> u8 {
        0
    }
}
