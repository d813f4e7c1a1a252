//! New Salem's rule options (issue 44): each open reading of the rulebook
//! is an option, and each value changes exactly what it should, shown from
//! an explicit position with the exact result; and the defects of the
//! outputs (`despair_reached`, `salem log --view`, `salem rules`).

use domsim::new_salem::data::{Data, OPTION_DOCS};
use domsim::new_salem::engine::{testing as T, Bots, Game, Keep, Log, NoLog, Table, View};
use domsim::new_salem::sim::{self as ssim, SalemMatch, Tally};
use domsim::new_salem::{bot, log};
use domsim::sim::Match;
use std::process::Command;

// Sample design indices (rows of buildings.csv).
const C1: u8 = 0;
const C2: u8 = 1;
const C3: u8 = 2;
const F1: u8 = 3;
const F2: u8 = 4;
const F3: u8 = 5;
const E1: u8 = 6;
const E2: u8 = 7; // Library: one remove-Despair icon
const E3: u8 = 8;
const P1: u8 = 4;
const P2: u8 = 5;
const P3: u8 = 6;
const P4: u8 = 7;
const TRIAL: u8 = 0;
const PURIFICATION: u8 = 1;
const SERMON: u8 = 2;

fn table_with(p: usize, opts: &[(&str, &str)]) -> Table {
    let mut d = Data::sample();
    for (k, v) in opts {
        d.rules.options.set(k, v).unwrap();
    }
    Table::new(&d, p).unwrap()
}

/// A bot that answers from a script (and "no" / the first option otherwise).
#[derive(Default)]
struct Script {
    keep: Vec<Keep>,
    /// (giver, recipient, amount): the giver gifts once.
    gift: Option<(u8, u8, u16)>,
    launches: Vec<Option<u8>>,
    target: u8,
    next: u8,
}

impl Bots for Script {
    fn pick(&mut self, _: &View) -> usize {
        0
    }
    fn keep(&mut self, _: &View) -> Keep {
        if self.keep.is_empty() {
            Keep::Card(0)
        } else {
            self.keep.remove(0)
        }
    }
    fn gift(&mut self, v: &View) -> Option<(u8, u16)> {
        match self.gift {
            Some((s, to, k)) if s == v.me() => {
                self.gift = None;
                Some((to, k))
            }
            _ => None,
        }
    }
    fn launch(&mut self, _: &View, _: u64, _: bool) -> Option<u8> {
        if self.launches.is_empty() {
            None
        } else {
            self.launches.remove(0)
        }
    }
    fn target(&mut self, _: &View, _: u8, _: u8) -> u8 {
        self.target
    }
    fn building(&mut self, _: &View, _: u8, _: u8) -> usize {
        0
    }
    fn next_constable(&mut self, _: &View, _: u8) -> u8 {
        self.next
    }
}

#[derive(Default)]
struct Steps {
    decks: Vec<Vec<u8>>,
}
impl Log for Steps {
    const ON: bool = true;
    fn line(&mut self, _: Option<u8>, _: String) {}
    fn step(&mut self, g: &Game, _: &Table) {
        self.decks.push(T::deck(g));
    }
}

fn designs(g: &Game, seat: u8) -> Vec<u8> {
    T::tableau(g, seat).iter().map(|b| b.design).collect()
}

fn cubes(g: &Game, seat: u8) -> Vec<(u16, u16)> {
    T::tableau(g, seat)
        .iter()
        .map(|b| (b.hope, b.despair))
        .collect()
}

fn domsim() -> Command {
    Command::new(env!("CARGO_BIN_EXE_domsim"))
}

// ------------------------------------------------------------ defects

/// `despair_reached` is the share of games whose D reached the threshold
/// under the run's reading: with `threshold = more_than` a game ending at
/// D == threshold does not count (it used to: the row read the margin
/// histogram from 0 up whatever the reading).
#[test]
fn despair_reached_follows_the_threshold_reading() {
    let data = {
        let mut d = Data::sample();
        d.rules.options.set("threshold", "more_than").unwrap();
        d
    };
    let table = Table::new(&data, 5).unwrap();
    let bots = bot::shipped(&data).unwrap();
    let m = SalemMatch {
        table: &table,
        bots: &bots,
    };
    let mut t = m.tally();
    let mut g = Box::new(Game::new());
    for i in 0..3000 {
        m.play(&mut g, 7, i, &mut t);
    }
    let at_zero = t.margin_hist[ssim::MARGIN as usize];
    assert!(at_zero > 0, "some game ends exactly at the threshold");
    let csv = ssim::csv_rows(5, &t, &bots);
    let row = csv
        .lines()
        .find(|l| l.starts_with("5,all,despair_reached,"))
        .unwrap();
    let value: f64 = row.split(',').nth(4).unwrap().parse().unwrap();
    let want = (t.witch_wins + t.nobody_wins) as f64 / t.games as f64;
    assert!((value - want).abs() < 1e-6, "{row} vs {want}");
    let witch: f64 = csv
        .lines()
        .find(|l| l.starts_with("5,all,witch_team_wins,"))
        .unwrap()
        .split(',')
        .nth(4)
        .unwrap()
        .parse()
        .unwrap();
    // At 5 players a Witch is always dealt: reached == the Witches' wins.
    assert_eq!(t.nobody_wins, 0);
    assert!((value - witch).abs() < 1e-6);
    // The caption says where the Witches win under this reading.
    let html = ssim::render_html("t", "n", &[(5, t.clone())], &bots);
    assert!(html.contains("Witches win at 1 and above"), "caption");
    let at_least = Tally {
        more_than: false,
        ..t
    };
    let html = ssim::render_html("t", "n", &[(5, at_least)], &bots);
    assert!(html.contains("Witches win at 0 and above"));
}

/// `salem log --view Pk`: the end-of-game reveal of every character (the
/// rulebook: "Tous les joueurs révèlent leurs cartes Personnage") is
/// public, so the player's view shows it; the other chairs' bots are not.
#[test]
fn a_players_log_shows_the_final_reveal_and_only_its_own_bot() {
    let data = Data::sample();
    let table = Table::new(&data, 5).unwrap();
    let bots = bot::shipped(&data).unwrap();
    let m = SalemMatch {
        table: &table,
        bots: &bots,
    };
    let all = log::game_log(&m, 4, 0, None);
    let mine = log::game_log(&m, 4, 0, Some(2));
    for s in 0..5 {
        let reveal = format!("Reveal: P{s} is ");
        assert!(mine.iter().any(|l| l.starts_with(&reveal)), "{mine:#?}");
        assert!(all.iter().any(|l| l.starts_with(&reveal)));
        let chair = format!("P{s}: ");
        assert!(all.iter().any(|l| l.starts_with(&chair)));
        assert_eq!(
            mine.iter().any(|l| l.starts_with(&chair)),
            s == 2,
            "P{s}'s bot in P2's view:\n{mine:#?}"
        );
    }
    // Before the reveal, no other character shows in P2's view.
    let end = mine.iter().position(|l| l.starts_with("Reveal:")).unwrap();
    for l in &mine[..end] {
        for s in [0, 1, 3, 4] {
            assert!(!l.starts_with(&format!("P{s} is ")), "{l}");
        }
    }
    // The CLI prints the same.
    let o = domsim()
        .args(["salem", "log", "-p", "5", "--seed", "4", "--view", "P2"])
        .output()
        .unwrap();
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("Reveal: P0 is "), "{text}");
    for b in &bots {
        let named = text.lines().filter(|l| l.ends_with(&b.name)).count();
        assert!(named <= 1, "{} named {named} times", b.name);
    }
}

/// `salem rules` prints every option whole: its values, default, meaning
/// (each a full sentence) and the rulebook sentence behind it.
#[test]
fn salem_rules_prints_every_option_in_full() {
    let o = domsim().args(["salem", "rules"]).output().unwrap();
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    for d in OPTION_DOCS {
        assert!(d.meaning.ends_with('.'), "{}: {:?}", d.name, d.meaning);
        assert!(!d.rulebook.is_empty() && !d.default.is_empty());
        for part in [d.meaning, d.rulebook, d.values] {
            assert!(text.contains(part), "{}: {part:?} missing", d.name);
        }
        assert!(
            text.contains(&format!("{} = {}\n", d.name, d.default)),
            "{}",
            d.name
        );
        // The default is one of the values, and setting it is accepted.
        let mut opts = Data::sample().rules.options;
        opts.set(d.name, d.default).unwrap();
        assert_eq!(opts, Data::sample().rules.options, "{}", d.name);
    }
    let o = domsim()
        .args(["salem", "rules", "--rule", "trial=single"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("trial = single (changed)"), "{text}");
}

/// Every option accepts each of its listed values and refuses others with
/// exit status 2.
#[test]
fn every_listed_value_is_accepted_and_others_refused() {
    for d in OPTION_DOCS {
        for v in d.values.split('|') {
            let vals: Vec<String> = match v.split_once("..=") {
                Some((a, b)) => {
                    let (a, b): (u8, u8) = (a.parse().unwrap(), b.parse().unwrap());
                    vec![a.to_string(), b.to_string()]
                }
                None => vec![v.to_string()],
            };
            for v in vals {
                let mut o = Data::sample().rules.options;
                o.set(d.name, &v)
                    .unwrap_or_else(|e| panic!("{}={v}: {e}", d.name));
                assert_eq!(o.value(d.name).unwrap(), v, "{}", d.name);
            }
        }
        let mut o = Data::sample().rules.options;
        assert!(o.set(d.name, "nonsense").is_err(), "{}", d.name);
    }
    let o = domsim()
        .args(["salem", "rules", "--rule", "no_eligible_constable=maybe"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("keep|reset"));
}

// ------------------------------------------------------------ each option

/// `empty_deck = round_robin`: 7 cards for 3 players dealt 3 each, one at
/// a time: seat 0 gets C1 F1 E1, seat 1 C2 F2, seat 2 C3 F3 (with `stop`
/// seats 0 and 1 get 3 and seat 2 one: see new_salem.rs).
#[test]
fn empty_deck_round_robin_deals_one_card_at_a_time() {
    let t = table_with(3, &[("empty_deck", "round_robin")]);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3], 0);
    T::set_round(&mut g, 0);
    T::set_deck(&mut g, &[C1, C2, C3, F1, F2, F3, E1]);
    T::set_display(&mut g, 0);
    T::set_event_deck(&mut g, &[]);
    let mut log = Steps::default();
    T::round(&mut g, &t, &mut Script::default(), &mut log);
    // Seat 0 picks C1 and passes [F1 E1]; seats 1 and 2 hold 2 and pass.
    // Then seat 0 keeps C3 of [C3 F3], seat 1 F1 of [F1 E1], seat 2 C2 of [C2 F2].
    assert_eq!(designs(&g, 0), vec![C1, C3]);
    assert_eq!(designs(&g, 1), vec![F1]);
    assert_eq!(designs(&g, 2), vec![C2]);
    assert_eq!(log.decks[1], vec![F3, E1, F2]);
}

/// `no_eligible_constable`: 3 players, P0 Constable, P1 holds a badge, P2
/// is on Trial. With `keep` P0 keeps the token (new_salem.rs); with `reset`
/// P1 returns their badge and takes the token, a badge and 1 Hope.
#[test]
fn no_eligible_constable_reset_returns_the_badges() {
    let t = table_with(3, &[("no_eligible_constable", "reset")]);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3], 0);
    T::put(&mut g, &t, 0, C3, 3, 0);
    T::put(&mut g, &t, 1, C1, 0, 0);
    T::put(&mut g, &t, 2, C1, 0, 0);
    T::set_badges(&mut g, 0b011);
    T::set_on_trial(&mut g, 0b100);
    T::set_display(&mut g, 1 << PURIFICATION);
    let mut s = Script {
        launches: vec![Some(PURIFICATION)],
        next: 1,
        ..Script::default()
    };
    T::launch_phase(&mut g, &t, &mut s, &mut NoLog);
    assert_eq!(T::constable(&g), 1);
    // P1 took a badge; then every other player held one or was on Trial,
    // so P0 returned theirs.
    assert_eq!(T::badges(&g), 0b010);
    assert_eq!(T::hope(&g, 1), 1);

    // Every other player on Trial: nobody to hand to, even after a reset.
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3], 0);
    T::put(&mut g, &t, 0, C3, 3, 0);
    T::set_on_trial(&mut g, 0b110);
    T::set_display(&mut g, 1 << PURIFICATION);
    let mut s = Script {
        launches: vec![Some(PURIFICATION)],
        next: 1,
        ..Script::default()
    };
    T::launch_phase(&mut g, &t, &mut s, &mut NoLog);
    assert_eq!((T::constable(&g), T::badges(&g)), (0, 0b001));
}

/// Two Trial launches in one phase (P3 names P1, hands to P2; P2 names
/// P0) under each Trial supply.
fn two_trials(trial: &str) -> Game {
    let t = table_with(4, &[("trial", trial)]);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3, P4], 3);
    for s in 0..2 {
        T::put(&mut g, &t, s, C1, 0, 0);
    }
    T::put(&mut g, &t, 2, C1, 4, 0);
    T::put(&mut g, &t, 3, C1, 4, 0);
    T::set_display(&mut g, 1 << TRIAL | 1 << PURIFICATION);
    T::set_event_deck(&mut g, &[SERMON]);
    let mut s = Script {
        launches: vec![Some(TRIAL), Some(TRIAL)],
        target: 1,
        next: 2,
        ..Script::default()
    };
    // The second Trial's asked-for P1 is on Trial (or, moving, holds the
    // card): the engine names the first eligible, P0.
    T::launch_phase(&mut g, &t, &mut s, &mut NoLog);
    g
}

#[test]
fn trial_unlimited_stays_face_up() {
    let g = two_trials("unlimited");
    assert_eq!(T::on_trial(&g), 0b0011);
    assert_eq!(T::display(&g), 1 << TRIAL | 1 << PURIFICATION);
    assert_eq!((T::held(&g, 0), T::held(&g, 1)), (0, 0));
}

#[test]
fn trial_single_is_given_away_and_replaced() {
    let g = two_trials("single");
    // One Trial only: P1 holds it; the second launch had nothing to launch.
    assert_eq!(T::on_trial(&g), 0b0010);
    assert_eq!(T::held(&g, 1), 1 << TRIAL);
    assert_eq!(T::display(&g), 1 << PURIFICATION | 1 << SERMON);
    assert_eq!(T::event_deck(&g), Vec::<u8>::new());
}

#[test]
fn trial_two_cards_the_second_leaves_the_display() {
    let g = two_trials("2");
    assert_eq!(T::on_trial(&g), 0b0011);
    // The first card stays face up until the last one is given.
    assert_eq!(T::held(&g, 0), 1 << TRIAL);
    assert_eq!(T::display(&g), 1 << PURIFICATION | 1 << SERMON);
}

#[test]
fn trial_moving_frees_its_holder() {
    let g = two_trials("moving");
    assert_eq!(T::on_trial(&g), 0b0001, "the card moved from P1 to P0");
    assert_eq!(T::display(&g), 1 << TRIAL | 1 << PURIFICATION);
}

/// `remove_target` and `remove_cube`: P0 reveals Library (one remove
/// icon); P0's row has 1 cube, P1's 3 and P2's 1.
fn one_remove(opts: &[(&str, &str)], own_cube: bool) -> Vec<Vec<(u16, u16)>> {
    let t = table_with(3, opts);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3], 0);
    T::put(&mut g, &t, 0, C1, 0, own_cube as u16);
    T::put(&mut g, &t, 1, C1, 0, 3);
    T::put(&mut g, &t, 2, C1, 0, 1);
    T::reveal(&mut g, &t, &[Some(E2), None, None]);
    (0..3).map(|s| cubes(&g, s)).collect()
}

#[test]
fn remove_target_and_remove_cube_choose_the_cube() {
    let lib = (0, 0);
    // any, most: P1's building.
    assert_eq!(
        one_remove(&[], true),
        vec![vec![(0, 1), lib], vec![(0, 2)], vec![(0, 1)]]
    );
    // own_first: P0's own cube while it has one...
    assert_eq!(
        one_remove(&[("remove_target", "own_first")], true),
        vec![vec![(0, 0), lib], vec![(0, 3)], vec![(0, 1)]]
    );
    // ...else anyone's (own: lost).
    assert_eq!(
        one_remove(&[("remove_target", "own_first")], false),
        vec![vec![(0, 0), lib], vec![(0, 2)], vec![(0, 1)]]
    );
    assert_eq!(
        one_remove(&[("remove_target", "own")], false),
        vec![vec![(0, 0), lib], vec![(0, 3)], vec![(0, 1)]]
    );
    // least: the building with the fewest cubes, the owner's first among equals.
    assert_eq!(
        one_remove(&[("remove_cube", "least")], true),
        vec![vec![(0, 0), lib], vec![(0, 3)], vec![(0, 1)]]
    );
    assert_eq!(
        one_remove(&[("remove_cube", "least")], false),
        vec![vec![(0, 0), lib], vec![(0, 3)], vec![(0, 0)]]
    );
}

/// `discard_order = constable`: the blind draws of new_salem.rs's
/// seat-order test, with P1 Constable, go P1, P2, P0.
#[test]
fn discard_order_constable_starts_the_discards_at_the_constable() {
    let t = table_with(3, &[("discard_order", "constable")]);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3], 1);
    T::set_round(&mut g, 0);
    T::set_deck(&mut g, &[C1, C2, C3, F1, F2, F3, E1, E2, E3]);
    T::set_display(&mut g, 0);
    T::set_event_deck(&mut g, &[]);
    let mut s = Script {
        keep: vec![Keep::Blind, Keep::Blind, Keep::Card(1)],
        ..Script::default()
    };
    let mut log = Steps::default();
    T::round(&mut g, &t, &mut s, &mut log);
    // P1 held [C2 C3]: both under the empty deck, draws C2 back. P2 held
    // [F2 F3]: deck [C3 F2 F3], draws C3. P0 keeps E3 of [E2 E3].
    assert_eq!(designs(&g, 0), vec![C1, E3]);
    assert_eq!(designs(&g, 1), vec![F1, C2]);
    assert_eq!(designs(&g, 2), vec![E1, C3]);
    assert_eq!(log.decks[1], vec![F2, F3, E2]);
}

/// `forced_launch`: P0 has 3 Hope; Trial (4) cannot be launched (everyone
/// else is on Trial), Sermon (2) can. face_up: 3 < 4, not forced, the
/// declining Constable stops; launchable: 3 >= 2, forced, Sermon goes.
#[test]
fn forced_launch_launchable_ignores_unlaunchable_events() {
    for (reading, hope) in [("face_up", 3), ("launchable", 1)] {
        let t = table_with(3, &[("forced_launch", reading)]);
        let mut g = Game::new();
        T::position(&mut g, &t, &[P1, P2, P3], 0);
        T::put(&mut g, &t, 0, C3, 3, 0);
        T::set_on_trial(&mut g, 0b110);
        T::set_display(&mut g, 1 << TRIAL | 1 << SERMON);
        T::set_event_deck(&mut g, &[]);
        T::launch_phase(&mut g, &t, &mut Script::default(), &mut NoLog);
        assert_eq!(T::hope(&g, 0), hope, "{reading}");
    }
}

/// `new_cubes` and `pay_from`: P2 (two buildings, 1 Hope on each) gives
/// P0 (two empty buildings) 1 Hope.
#[test]
fn new_cubes_and_pay_from_choose_the_building() {
    for (newc, pay, to, from) in [
        ("newest", "newest", [(0, 0), (1, 0)], [(1, 0), (0, 0)]),
        ("oldest", "newest", [(1, 0), (0, 0)], [(1, 0), (0, 0)]),
        ("newest", "oldest", [(0, 0), (1, 0)], [(0, 0), (1, 0)]),
    ] {
        let t = table_with(3, &[("new_cubes", newc), ("pay_from", pay)]);
        let mut g = Game::new();
        T::position(&mut g, &t, &[P1, P2, P3], 1);
        T::put(&mut g, &t, 0, C1, 0, 0);
        T::put(&mut g, &t, 0, C2, 0, 0);
        T::put(&mut g, &t, 2, F1, 1, 0);
        T::put(&mut g, &t, 2, F2, 1, 0);
        T::set_display(&mut g, 0);
        let mut s = Script {
            gift: Some((2, 0, 1)),
            ..Script::default()
        };
        T::launch_phase(&mut g, &t, &mut s, &mut NoLog);
        assert_eq!(cubes(&g, 0), to.to_vec(), "{newc} {pay}");
        assert_eq!(cubes(&g, 2), from.to_vec(), "{newc} {pay}");
    }
}

/// Whole games under every non-default reading keep every invariant (the
/// soak of new_salem.rs checks the defaults and the older options).
#[test]
fn soak_under_the_new_readings() {
    for opts in [
        &[
            ("trial", "single"),
            ("no_eligible_constable", "reset"),
            ("empty_deck", "round_robin"),
            ("remove_cube", "least"),
            ("discard_order", "constable"),
            ("forced_launch", "launchable"),
            ("new_cubes", "oldest"),
            ("pay_from", "oldest"),
        ][..],
        &[("trial", "moving"), ("remove_target", "own_first")],
        &[("trial", "3"), ("no_eligible_constable", "reset")],
    ] {
        let mut d = Data::sample();
        for (k, v) in opts {
            d.rules.options.set(k, v).unwrap();
        }
        let bots = bot::shipped(&d).unwrap();
        for p in 3..=8 {
            let t = Table::new(&d, p).unwrap();
            let m = SalemMatch {
                table: &t,
                bots: &bots,
            };
            let mut g = Game::new();
            for i in 0..150 {
                let seats = m.setup(&mut g, 11, i);
                let mut log = Checked::default();
                let o = g.play(&t, &mut m.seated(&seats), &mut log);
                assert_eq!(log.broken, None, "{opts:?} {p}p game {i}");
                assert_eq!(o.on_trial & !((1u16 << p) - 1) as u8, 0);
                if let Some(k) = match opts[0].1 {
                    "single" => Some(1),
                    "3" => Some(3),
                    "moving" => Some(1),
                    _ => None,
                } {
                    assert!(o.on_trial.count_ones() <= k, "{opts:?} {o:?}");
                }
            }
        }
    }
}

#[derive(Default)]
struct Checked {
    broken: Option<String>,
}
impl Log for Checked {
    const ON: bool = true;
    fn line(&mut self, _: Option<u8>, _: String) {}
    fn step(&mut self, g: &Game, t: &Table) {
        if self.broken.is_none() {
            self.broken = T::check_invariants(g, t).err();
        }
    }
}
