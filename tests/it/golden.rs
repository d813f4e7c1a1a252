//! Golden game logs (DESIGN "Testing" 5): a few complete games with fixed
//! seeds, every engine [`Event`] written as one line of text and compared with
//! `tests/golden/*.txt`. Any change of behaviour — a rule, the order of draws,
//! a shuffle, a default answer, the random stream — shows up as a diff.
//!
//! When a change is intended, regenerate the files and review the diff:
//!
//! ```text
//! DOMSIM_BLESS=1 cargo test golden
//! git diff tests/golden
//! ```

use domsim::bots::{BigMoney, RandomBots};
use domsim::engine::{Bots, Choose, Event, Game, Kingdom, Pick, YesNo};
use domsim::Card;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Wraps any bots and writes every event as a line of text.
struct Logged<B> {
    inner: B,
    log: String,
}

impl<B: Bots> Bots for Logged<B> {
    fn pick(&mut self, g: &Game, q: &Pick) -> Option<Card> {
        self.inner.pick(g, q)
    }
    fn yes_no(&mut self, g: &Game, q: &YesNo) -> bool {
        self.inner.yes_no(g, q)
    }
    fn choose(&mut self, g: &Game, q: &Choose) -> u8 {
        self.inner.choose(g, q)
    }
    fn event(&mut self, g: &Game, e: Event) {
        self.inner.event(g, e);
        let l = &mut self.log;
        let _ = match e {
            Event::TurnStart { player, turn } => writeln!(l, "-- p{player} turn {turn}"),
            Event::Play { player, card } => writeln!(l, "p{player} plays {card}"),
            Event::Buy { player, card } => writeln!(l, "p{player} buys {card}"),
            Event::Gain { player, card } => writeln!(l, "p{player} gains {card}"),
            Event::Trash { player, card } => writeln!(l, "p{player} trashes {card}"),
            Event::Discard { player, card } => writeln!(l, "p{player} discards {card}"),
            Event::Reveal { player, card } => writeln!(l, "p{player} reveals {card}"),
            Event::Topdeck { player, card } => writeln!(l, "p{player} topdecks {card}"),
            Event::React { player, card } => writeln!(l, "p{player} reacts with {card}"),
            Event::Pass { player, to, card } => writeln!(l, "p{player} passes {card} to p{to}"),
            Event::Shuffle { player } => writeln!(l, "p{player} shuffles"),
            Event::Draw { player, card } => writeln!(l, "p{player} draws {card}"),
            Event::DeckToDiscard { player, cards } => {
                writeln!(l, "p{player} puts deck ({cards} cards) into discard")
            }
            Event::ReturnToPile { player, card } => writeln!(l, "p{player} returns {card} to pile"),
            Event::TrashToHand { player, card } => {
                writeln!(l, "p{player} puts {card} from trash into hand")
            }
        };
    }
}

/// Play one game and render its log: a header, every event, the outcome.
fn log_game<B: Bots>(title: &str, k: &Kingdom, seed: u64, index: u64, bots: B) -> String {
    let mut b = Logged {
        inner: bots,
        log: String::new(),
    };
    let mut g = Game::new(k, seed, index);
    let mut out = String::new();
    let _ = writeln!(out, "# {title}");
    let _ = writeln!(out, "# regenerate: DOMSIM_BLESS=1 cargo test golden");
    let _ = writeln!(
        out,
        "players: {}, kingdom: {}, seed: {seed}, game: {index}",
        k.players,
        k.describe()
    );
    for p in 0..k.n() {
        let hand: Vec<&str> = g.players[p].hand.iter().map(|c| c.name()).collect();
        let _ = writeln!(out, "p{p} starting hand: {}", hand.join(", "));
    }
    let o = g.play_game(&mut b);
    out.push_str(&b.log);
    assert!(g.fault.is_none(), "{title}: bot fault {:?}", g.fault);
    g.check_invariants().unwrap();
    let _ = writeln!(
        out,
        "== over: vp {:?}, turns {:?}, winners {:?}, capped {}",
        &o.vp[..k.n()],
        &o.turns[..k.n()],
        (0..k.n()).filter(|&p| o.won(p)).collect::<Vec<_>>(),
        o.capped
    );
    out
}

fn compare(file: &str, actual: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(file);
    if std::env::var_os("DOMSIM_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, actual).unwrap();
        eprintln!("blessed {}", path.display());
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run `DOMSIM_BLESS=1 cargo test golden` to create it",
            path.display()
        )
    });
    if expected == actual {
        return;
    }
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    let i = e
        .iter()
        .zip(&a)
        .position(|(x, y)| x != y)
        .unwrap_or(e.len().min(a.len()));
    let from = i.saturating_sub(5);
    panic!(
        "{file} differs from line {} on (expected {} lines, got {}).\n\
         expected:\n  {}\ngot:\n  {}\n\
         If the change is intended: DOMSIM_BLESS=1 cargo test golden, then review `git diff tests/golden`.",
        i + 1,
        e.len(),
        a.len(),
        e[from..(i + 5).min(e.len())].join("\n  "),
        a[from..(i + 5).min(a.len())].join("\n  "),
    );
}

fn kingdom(players: usize, names: &[&str]) -> Kingdom {
    Kingdom::from_names(players, names).unwrap()
}

#[test]
fn golden_big_money_mirror() {
    let k = kingdom(
        2,
        &[
            "Cellar",
            "Market",
            "Militia",
            "Mine",
            "Moat",
            "Remodel",
            "Smithy",
            "Village",
            "Woodcutter",
            "Workshop",
        ],
    );
    let log = log_game("Big Money mirror, 2 players", &k, 1, 0, BigMoney);
    compare("big_money_2p_seed1.txt", &log);
}

/// Attacks, the Moat reaction window, Throne Room, revealing and setting
/// aside (Adventurer, Library, Spy, Thief), topdecking (Bureaucrat).
#[test]
fn golden_random_attacks_2p() {
    let k = kingdom(
        2,
        &[
            "Adventurer",
            "Bureaucrat",
            "Cellar",
            "Library",
            "Militia",
            "Moat",
            "Spy",
            "Thief",
            "Throne Room",
            "Witch",
        ],
    );
    let log = log_game(
        "Random bots, attacks and reactions, 2 players",
        &k,
        2,
        0,
        RandomBots::new(2, true),
    );
    compare("random_attacks_2p_seed2.txt", &log);
}

/// Trashing and gaining (Chapel, Feast, Mine, Moneylender, Remodel,
/// Workshop), Gardens scoring, Council Room's draw for others, 3 players.
#[test]
fn golden_random_trash_gain_3p() {
    let k = kingdom(
        3,
        &[
            "Chancellor",
            "Chapel",
            "Council Room",
            "Feast",
            "Gardens",
            "Mine",
            "Moneylender",
            "Remodel",
            "Workshop",
            "Witch",
        ],
    );
    let log = log_game(
        "Random bots, trashing and gaining, 3 players",
        &k,
        3,
        0,
        RandomBots::new(3, true),
    );
    compare("random_trash_gain_3p_seed3.txt", &log);
}
