//! New Salem: every worked example of the specification (docs/NEW_SALEM.md
//! §5 and §6) from an explicit position with exact expectations, the draft
//! and reveal mechanics, the launch phase rules, the hidden-information
//! boundary, a soak over 3–8 players with invariants checked at every step,
//! determinism across threads, and bad data / bot files.

use domsim::new_salem::bot::{self, Seated};
use domsim::new_salem::data::{Data, Team};
use domsim::new_salem::engine::{testing as T, Bots, Game, Keep, Log, NoLog, Table, View};
use domsim::new_salem::sim::{SalemMatch, Tally};
use domsim::sim::rng::GameRng;
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
const D1: u8 = 12; // Cemetery: one add-Despair icon
const D2: u8 = 13;
const D3: u8 = 14;
const J1: u8 = 15;
const J2: u8 = 16;
const J3: u8 = 17;
// Characters: W1..W4 are 0..3, P1..P6 are 4..9.
const W1: u8 = 0;
const W2: u8 = 1;
const P1: u8 = 4; // commerce, finance
const P2: u8 = 5; // education, entertainment
const P3: u8 = 6;
const P4: u8 = 7;
// Events.
const TRIAL: u8 = 0;
const PURIFICATION: u8 = 1;
const LAND_GRANT: u8 = 4;
const FIRE: u8 = 5;
const SERMON: u8 = 2;
const CHARTER: u8 = 6;
const OMEN: u8 = 8;
const INQUIRY: u8 = 9;

fn table(p: usize) -> Table {
    Table::new(&Data::sample(), p).unwrap()
}

/// A bot that answers from a script (and "no" / the first option otherwise).
#[derive(Default)]
struct Script {
    picks: Vec<usize>,
    keep: Vec<Keep>,
    /// (giver, amount): the giver gifts once.
    /// (giver, recipient, amount).
    gift: Option<(u8, u8, u16)>,
    launches: Vec<Option<u8>>,
    target: u8,
    building: usize,
    next: u8,
    asked_targets: Vec<u8>,
    /// The eligible masks each hand-off offered.
    asked_next: Vec<u8>,
}

impl Bots for Script {
    fn pick(&mut self, _: &View) -> usize {
        if self.picks.is_empty() {
            0
        } else {
            self.picks.remove(0)
        }
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
    fn target(&mut self, _: &View, _: u8, eligible: u8) -> u8 {
        self.asked_targets.push(eligible);
        self.target
    }
    fn building(&mut self, _: &View, _: u8, _: u8) -> usize {
        self.building
    }
    fn next_constable(&mut self, _: &View, eligible: u8) -> u8 {
        self.asked_next.push(eligible);
        self.next
    }
}

/// The designs of `seat`'s row, in order.
fn designs(g: &Game, seat: u8) -> Vec<u8> {
    T::tableau(g, seat).iter().map(|b| b.design).collect()
}

fn bld(design: u8, hope: u16, despair: u16) -> domsim::new_salem::engine::Bld {
    domsim::new_salem::engine::Bld {
        design,
        hope,
        despair,
    }
}

// ------------------------------------------------------------ §5 worked examples

#[test]
fn example_trials_seven_cubes_become_nine() {
    // 4 players: a Witch on Trial (-2), a free Witch (+2), a Puritan on Trial (+2), a free Puritan (0).
    let t = table(4);
    let mut g = Game::new();
    T::position(&mut g, &t, &[W1, W2, P1, P2], 3);
    T::put(&mut g, &t, 0, C1, 0, 3);
    T::put(&mut g, &t, 1, C1, 0, 2);
    T::put(&mut g, &t, 3, F1, 0, 2);
    T::set_on_trial(&mut g, 0b0101);
    let o = T::finish(&mut g, &t, &mut NoLog);
    assert_eq!((o.cubes, o.despair), (7, 9));
    // 9 >= 8 at 4 players: the Witches' side wins.
    assert_eq!(o.side, Some(Team::Witch));
    assert_eq!(o.winners & !0b0011, 0);
}

#[test]
fn example_sets_one_justice_two_death_net_plus_three() {
    let t = table(4);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3, P4], 0);
    for d in [J1, J2, J3] {
        T::put(&mut g, &t, 0, d, 0, 0);
    }
    for d in [D1, D2, D3, D3, D2, D1] {
        T::put(&mut g, &t, 1, d, 0, 0);
    }
    let o = T::finish(&mut g, &t, &mut NoLog);
    assert_eq!((o.cubes, o.despair), (0, 3));
}

#[test]
fn example_check_four_players_five_below_eight_puritans_win() {
    let t = table(4);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3, P4], 0);
    T::put(&mut g, &t, 2, C1, 0, 5);
    let o = T::finish(&mut g, &t, &mut NoLog);
    assert_eq!(o.despair, 5);
    assert_eq!(o.side, Some(Team::Puritan));
    assert_ne!(o.winners, 0);
}

#[test]
fn example_points_eight_and_seven() {
    let t = table(4);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3, P4], 0);
    // P1 (commerce, finance): matching Commerce set 2 + 3, one Finance 1, off-category Death set 2.
    for d in [C1, C2, C3, F1, D1, D2, D3] {
        T::put(&mut g, &t, 0, d, 0, 0);
    }
    // P2 (education, entertainment): Education set 2, three matching 3, Death set 2.
    for d in [E1, E2, E3, D1, D2, D3] {
        T::put(&mut g, &t, 1, d, 0, 0);
    }
    let o = T::finish(&mut g, &t, &mut NoLog);
    // Two Death sets: D = 6 < 8, the Puritans win.
    assert_eq!(o.despair, 6);
    assert_eq!(o.side, Some(Team::Puritan));
    assert_eq!(&o.points[..4], &[8, 7, 0, 0]);
    assert_eq!(o.winners, 0b0001);
}

#[test]
fn example_launch_gift_trial_handoff_badge_reset() {
    // Seats 0..3 are P1..P4; P4 (seat 3) is Constable with 3 Hope; P1 holds a badge.
    let t = table(4);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3, P4], 3);
    T::put(&mut g, &t, 0, C1, 0, 0);
    T::put(&mut g, &t, 1, C1, 0, 0);
    T::put(&mut g, &t, 2, C1, 1, 0);
    T::put(&mut g, &t, 3, C1, 3, 0);
    T::set_badges(&mut g, 0b1001);
    T::set_display(&mut g, 1 << TRIAL | 1 << PURIFICATION);
    let mut s = Script {
        gift: Some((2, 3, 1)),
        launches: vec![Some(TRIAL)],
        target: 1,
        next: 2,
        ..Script::default()
    };
    T::launch_phase(&mut g, &t, &mut s, &mut NoLog);
    assert_eq!(T::on_trial(&g), 0b0010, "P2 is on Trial");
    assert_eq!(T::constable(&g), 2, "P3 is Constable");
    assert_eq!(
        T::badges(&g),
        0b0100,
        "P1 and P4 returned their badges; P3 keeps theirs"
    );
    assert_eq!(T::hope(&g, 3), 0, "3 + 1 gifted - 4");
    assert_eq!(T::hope(&g, 2), 1, "1 - 1 gifted + 1 as new Constable");
    // Trial stays on the display (red border).
    assert_eq!(T::display(&g), 1 << TRIAL | 1 << PURIFICATION);
    // Trial could name anyone but the Constable and players on Trial.
    assert_eq!(s.asked_targets, vec![0b0111]);
}

// ------------------------------------------------------------ §6 FAQ and rules

/// §4.4: anyone but the Constable may give Hope to *other players*, not
/// only to the Constable; a gift to oneself or to a seat not at the table
/// is no gift.
#[test]
fn hope_may_be_given_to_any_other_player() {
    let t = table(4);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3, P4], 3);
    T::put(&mut g, &t, 0, C1, 2, 0);
    T::put(&mut g, &t, 1, C1, 0, 0);
    T::put(&mut g, &t, 2, C1, 1, 0);
    T::put(&mut g, &t, 3, C1, 0, 0);
    T::set_display(&mut g, 1 << TRIAL | 1 << PURIFICATION);
    // P1 (seat 0) gives 2 Hope to P2 (seat 1), who is not the Constable.
    let mut s = Script {
        gift: Some((0, 1, 2)),
        launches: vec![None],
        ..Script::default()
    };
    T::launch_phase(&mut g, &t, &mut s, &mut NoLog);
    assert_eq!(
        [0, 1, 2, 3].map(|p| T::hope(&g, p)),
        [0, 2, 1, 0],
        "2 Hope moved from P1 to P2; the Constable P4 got none"
    );
    // A gift to oneself, or to a seat not at the table, moves nothing.
    for to in [0u8, 4, 200] {
        let mut g = Game::new();
        T::position(&mut g, &t, &[P1, P2, P3, P4], 3);
        T::put(&mut g, &t, 0, C1, 2, 0);
        T::set_display(&mut g, 1 << TRIAL | 1 << PURIFICATION);
        let mut s = Script {
            gift: Some((0, to, 2)),
            launches: vec![None],
            ..Script::default()
        };
        T::launch_phase(&mut g, &t, &mut s, &mut NoLog);
        assert_eq!(T::hope(&g, 0), 2, "a gift to seat {to} moves nothing");
    }
}

#[test]
fn a_building_that_changes_owner_keeps_its_cubes() {
    let t = table(4);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3, P4], 0);
    T::put(&mut g, &t, 0, C3, 3, 0);
    T::put(&mut g, &t, 1, F1, 2, 1);
    T::put(&mut g, &t, 1, F2, 0, 0);
    T::set_badges(&mut g, 0b0001);
    T::set_display(&mut g, 1 << LAND_GRANT);
    let mut s = Script {
        launches: vec![Some(LAND_GRANT)],
        target: 1,
        building: 0,
        next: 2,
        ..Script::default()
    };
    T::launch_phase(&mut g, &t, &mut s, &mut NoLog);
    assert_eq!(T::tableau(&g, 0), vec![bld(C3, 0, 0), bld(F1, 2, 1)]);
    assert_eq!(T::tableau(&g, 1), vec![bld(F2, 0, 0)]);
    assert_eq!(T::despair(&g), 1);
}

#[test]
fn a_destroyed_building_sends_its_cubes_to_the_supply_and_goes_under_the_deck() {
    let t = table(4);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3, P4], 0);
    T::put(&mut g, &t, 0, C3, 3, 0);
    T::put(&mut g, &t, 1, D1, 2, 4);
    T::set_deck(&mut g, &[E1, E3]);
    T::set_badges(&mut g, 0b0001);
    T::set_display(&mut g, 1 << FIRE);
    let mut s = Script {
        launches: vec![Some(FIRE)],
        target: 1,
        next: 3,
        ..Script::default()
    };
    T::launch_phase(&mut g, &t, &mut s, &mut NoLog);
    assert_eq!(T::tableau(&g, 1), vec![]);
    assert_eq!(T::despair(&g), 0);
    assert_eq!(T::hope(&g, 0), 0);
    assert_eq!(T::deck(&g), vec![E1, E3, D1]);
    // Great Fire is not red-bordered: it left the display and went under the
    // event deck, and the top event replaced it.
    assert_eq!(T::display(&g).count_ones(), 1);
    assert_eq!(T::display(&g) & 1 << FIRE, 0);
}

#[test]
fn destroyed_building_removed_option_takes_the_card_out_of_the_game() {
    let mut d = Data::sample();
    d.rules
        .options
        .set("destroyed_building", "removed")
        .unwrap();
    let t = Table::new(&d, 4).unwrap();
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3, P4], 0);
    T::put(&mut g, &t, 0, C3, 3, 0);
    T::put(&mut g, &t, 1, D1, 2, 4);
    T::set_deck(&mut g, &[E1, E3]);
    T::set_display(&mut g, 1 << FIRE);
    let mut s = Script {
        launches: vec![Some(FIRE)],
        target: 1,
        next: 3,
        ..Script::default()
    };
    T::launch_phase(&mut g, &t, &mut s, &mut NoLog);
    assert_eq!(T::tableau(&g, 1), vec![]);
    assert_eq!(T::despair(&g), 0);
    assert_eq!(
        T::deck(&g),
        vec![E1, E3],
        "the card is not put under the deck"
    );
}

#[test]
fn reveal_resolves_every_add_before_the_removes() {
    let t = table(3);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3], 1);
    // Seat 0 reveals Library (remove 1), seat 1 a Cemetery (add 1), together.
    T::put(&mut g, &t, 0, C1, 0, 0);
    T::reveal(&mut g, &t, &[Some(E2), Some(D1), None]);
    assert_eq!(
        T::despair(&g),
        0,
        "the add landed first, then the remove took it"
    );
    assert_eq!(T::tableau(&g, 1), vec![bld(D1, 0, 0)]);
    // A remove with no Despair in play is lost, not saved.
    T::reveal(&mut g, &t, &[Some(E2), None, None]);
    T::reveal(&mut g, &t, &[None, Some(D1), None]);
    assert_eq!(T::despair(&g), 1);
    // New cubes go on the revealing player's own building.
    assert_eq!(T::tableau(&g, 1)[1], bld(D1, 0, 1));
}

#[test]
fn remove_target_own_takes_only_from_the_owners_buildings() {
    let mut d = Data::sample();
    d.rules.options.set("remove_target", "own").unwrap();
    let t = Table::new(&d, 3).unwrap();
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3], 0);
    T::put(&mut g, &t, 1, C1, 0, 2);
    T::reveal(&mut g, &t, &[Some(E2), None, None]);
    assert_eq!(
        T::despair(&g),
        2,
        "seat 0 has no Despair of its own: the icon is lost"
    );
}

#[test]
fn draft_round_picks_pass_left_and_discards_go_under_the_deck() {
    let t = table(3);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3], 0);
    T::set_round(&mut g, 0);
    // Dealt in seat order from the top: seat 0 [C1 C2 C3], seat 1 [F1 F2 F3], seat 2 [E1 E2 E3].
    T::set_deck(&mut g, &[C1, C2, C3, F1, F2, F3, E1, E2, E3, J1, J2]);
    let mut s = Script {
        picks: vec![0, 0, 0],
        keep: vec![Keep::Blind, Keep::Card(1), Keep::Card(0)],
        ..Script::default()
    };
    let mut log = Steps::default();
    T::round(&mut g, &t, &mut s, &mut log);
    // Seat 0 picked C1 and got [E2 E3] from seat 2: both under, keeps the top (J1) blind.
    assert_eq!(designs(&g, 0), vec![C1, J1]);
    // Seat 1 picked F1, got [C2 C3] and kept the second.
    assert_eq!(designs(&g, 1), vec![F1, C3]);
    // Seat 2 picked E1, got [F2 F3] and kept the first.
    assert_eq!(designs(&g, 2), vec![E1, F2]);
    // The deck after the discards, before the end-of-round shuffle: J2 then
    // the discards in seat order.
    assert_eq!(log.decks[1], vec![J2, E2, E3, C2, F3]);
    let mut deck = T::deck(&g);
    deck.sort();
    assert_eq!(deck, vec![C2, F3, E2, E3, J2]);
    // One event turned face up beside Trial and Purification.
    assert_eq!(T::display(&g).count_ones(), 3);
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

#[test]
fn forced_launch_when_the_constable_can_afford_the_costliest_event() {
    let t = table(4);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3, P4], 0);
    T::put(&mut g, &t, 0, C3, 4, 0);
    for s in 1..4 {
        T::put(&mut g, &t, s, C1, 0, 0);
    }
    T::set_display(&mut g, 1 << TRIAL | 1 << PURIFICATION);
    // The bot declines (None), but 4 Hope >= Trial's 4: the first launchable goes.
    let mut s = Script {
        target: 2,
        next: 1,
        ..Script::default()
    };
    T::launch_phase(&mut g, &t, &mut s, &mut NoLog);
    assert_eq!(T::on_trial(&g), 0b0100);
    assert_eq!(T::constable(&g), 1);
}

#[test]
fn the_constable_keeps_the_token_when_nobody_is_eligible() {
    let t = table(3);
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
        ..Script::default()
    };
    T::launch_phase(&mut g, &t, &mut s, &mut NoLog);
    assert_eq!(T::constable(&g), 0);
    assert_eq!(T::badges(&g), 0b011);
    assert_eq!(T::hope(&g, 0), 0, "no Hope for keeping the token");
}

#[test]
fn the_launch_cap_ends_endless_forced_launches() {
    let mut d = Data::sample();
    d.rules.options.set("launch_cap", "3").unwrap();
    // Harvest Feast made red-bordered, so that it stays on the display.
    d.events[7].red_border = true;
    let t = Table::new(&d, 3).unwrap();
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3], 0);
    for s in 0..3 {
        T::put(&mut g, &t, s, C1, 0, 0);
    }
    // Harvest Feast costs 0 and is the only event: every Constable must launch it.
    T::set_display(&mut g, 1 << 7);
    // next = 9 is illegal: the engine picks the first eligible seat.
    let mut s = Script {
        next: 9,
        ..Script::default()
    };
    T::launch_phase(&mut g, &t, &mut s, &mut NoLog);
    // Three launches: each gives everyone 1 Hope (Harvest Feast), plus new Constables' Hope.
    assert_eq!((0..3).map(|p| T::hope(&g, p)).sum::<u16>(), 3 * 3 + 3);
}

#[test]
fn no_witch_in_play_and_the_threshold_reached_means_everybody_loses() {
    let t = table(3);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3], 0);
    T::put(&mut g, &t, 0, C1, 0, 6);
    let o = T::finish(&mut g, &t, &mut NoLog);
    assert_eq!((o.despair, o.side, o.winners), (6, None, 0));
    // "more than" instead of "at least": 6 is not more than 6.
    let mut d = Data::sample();
    d.rules.options.set("threshold", "more_than").unwrap();
    let t2 = Table::new(&d, 3).unwrap();
    T::position(&mut g, &t2, &[P1, P2, P3], 0);
    T::put(&mut g, &t, 0, C1, 0, 6);
    assert_eq!(T::finish(&mut g, &t2, &mut NoLog).side, Some(Team::Puritan));
}

#[test]
fn ties_go_to_hope_then_everyone_tied_wins() {
    let t = table(3);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P1 + 5, P2], 0);
    // Seats 0 and 1 (both commerce): one matching building each.
    T::put(&mut g, &t, 0, C1, 2, 0);
    T::put(&mut g, &t, 1, C2, 1, 0);
    let o = T::finish(&mut g, &t, &mut NoLog);
    assert_eq!(o.winners, 0b001, "more Hope breaks the tie");
    T::position(&mut g, &t, &[P1, P1 + 5, P2], 0);
    T::put(&mut g, &t, 0, C1, 1, 0);
    T::put(&mut g, &t, 1, C2, 1, 0);
    assert_eq!(T::finish(&mut g, &t, &mut NoLog).winners, 0b011);
}

// ------------------------------------------------------------ hidden information

#[test]
fn a_bot_sees_only_its_own_character_and_hand() {
    let t = table(5);
    let mut g = Game::new();
    g.reset(&t, GameRng::for_game(3, 1));
    let chars = T::characters(&g);
    for me in 0..5u8 {
        let v = T::view(&g, &t, me);
        assert_eq!(v.my_character(), chars[me as usize]);
        for other in 0..5u8 {
            let known = v.known_team(other);
            if other == me {
                assert!(known.is_some());
            } else {
                assert_eq!(known, None, "P{me} must not know P{other}'s team");
            }
        }
    }
    // The type has no way to the other fields: see the compile_fail
    // doctests on `View` (reading `View::g` or `Game`'s characters does not compile).
}

#[test]
fn confession_shows_one_character_to_the_launcher_only() {
    let t = table(4);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, W1, P3, P4], 0);
    for s in 0..4 {
        T::put(&mut g, &t, s, C1, if s == 0 { 2 } else { 0 }, 0);
    }
    T::set_display(&mut g, 1 << 3); // Confession (peek)
    let mut s = Script {
        launches: vec![Some(3)],
        target: 1,
        next: 2,
        ..Script::default()
    };
    T::launch_phase(&mut g, &t, &mut s, &mut NoLog);
    assert_eq!(T::view(&g, &t, 0).known_team(1), Some(Team::Witch));
    assert_eq!(T::view(&g, &t, 2).known_team(1), None);
}

// ------------------------------------------------------------ soak and determinism

/// Random answers, often illegal (the engine must correct them).
struct Chaos(GameRng);
impl Bots for Chaos {
    fn pick(&mut self, _: &View) -> usize {
        self.0.below(9) as usize
    }
    fn keep(&mut self, _: &View) -> Keep {
        match self.0.below(4) {
            0 => Keep::Blind,
            k => Keep::Card(k as u8),
        }
    }
    fn gift(&mut self, v: &View) -> Option<(u8, u16)> {
        if self.0.below(4) == 0 {
            let k = self.0.below(v.hope(v.me()) as u32 + 3) as u16;
            // Any other player may receive it (a bad seat is no gift).
            let to = self.0.below(v.players() as u32 + 1) as u8;
            Some((to, k))
        } else {
            None
        }
    }
    fn launch(&mut self, _: &View, launchable: u64, _: bool) -> Option<u8> {
        match self.0.below(4) {
            0 => None,
            1 => Some(self.0.below(64) as u8),
            _ => Some(launchable.trailing_zeros() as u8),
        }
    }
    fn target(&mut self, _: &View, _: u8, _: u8) -> u8 {
        self.0.below(10) as u8
    }
    fn building(&mut self, _: &View, _: u8, _: u8) -> usize {
        self.0.below(40) as usize
    }
    fn next_constable(&mut self, _: &View, _: u8) -> u8 {
        self.0.below(10) as u8
    }
}

struct Checked;
impl Log for Checked {
    const ON: bool = true;
    fn line(&mut self, _: Option<u8>, _: String) {}
    fn step(&mut self, g: &Game, t: &Table) {
        if let Err(e) = T::check_invariants(g, t) {
            panic!("round {}: {e}", T::round_index(g) + 1);
        }
    }
}

fn check_outcome(g: &Game, o: &domsim::new_salem::engine::Outcome, p: usize) {
    for s in 0..p as u8 {
        assert_eq!(T::drafted(g, s), 14, "14 buildings drafted per player");
    }
    match o.side {
        Some(Team::Witch) => assert_eq!(o.winners & !o.witches, 0),
        Some(Team::Puritan) => assert_eq!(o.winners & o.witches, 0),
        None => assert_eq!((o.winners, o.witches), (0, 0)),
    }
    if o.side.is_some() {
        assert_ne!(o.winners, 0);
    }
}

#[test]
fn soak_three_to_eight_players_invariants_at_every_step() {
    soak(Data::sample());
    // The same with every non-default rule option at once.
    let mut d = Data::sample();
    for (k, v) in [
        ("despair_per_icon", "2"),
        ("remove_target", "own"),
        ("reveal_removes_from", "seat0"),
        ("launch_cap", "3"),
        ("clamp_despair", "true"),
        ("threshold", "more_than"),
        ("trial_target", "anyone"),
        ("hope_per_round", "1"),
        ("destroyed_building", "removed"),
    ] {
        d.rules.options.set(k, v).unwrap();
    }
    soak(d);
}

fn soak(data: Data) {
    let bots = bot::shipped(&data).unwrap();
    for p in 3..=8 {
        let t = Table::new(&data, p).unwrap();
        let m = SalemMatch {
            table: &t,
            bots: &bots,
        };
        let mut g = Game::new();
        for i in 0..300u64 {
            let seats = m.setup(&mut g, 99, i);
            T::check_invariants(&g, &t).unwrap();
            let o = g.play(&t, &mut m.seated(&seats), &mut Checked);
            check_outcome(&g, &o, p);
            // The same game with chaotic, often illegal answers.
            g.reset(&t, GameRng::for_game(7, i));
            let o = g.play(&t, &mut Chaos(GameRng::for_game(11, i)), &mut Checked);
            check_outcome(&g, &o, p);
        }
    }
}

#[test]
fn the_same_tally_whatever_the_thread_count() {
    let data = Data::sample();
    let bots = bot::shipped(&data).unwrap();
    let t = Table::new(&data, 6).unwrap();
    let m = SalemMatch {
        table: &t,
        bots: &bots,
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let cfg = domsim::sim::RunConfig {
        games: 40_000,
        first: 0,
        seed: 5,
        threads: 0,
        progress: false,
        precision: None,
    };
    let one: Tally = domsim::sim::pool(1)
        .unwrap()
        .install(|| domsim::sim::run_match(&m, &cfg, &stop))
        .tally;
    let two: Tally = domsim::sim::pool(2)
        .unwrap()
        .install(|| domsim::sim::run_match(&m, &cfg, &stop))
        .tally;
    assert_eq!(one, two);
    assert_eq!(one.games, 40_000);
    assert_eq!(one.witch_wins + one.puritan_wins + one.nobody_wins, 40_000);
    let chairs: u64 = one.bots.iter().map(|b| b.seats).sum();
    assert_eq!(chairs, 6 * 40_000);
}

#[test]
fn strategy_bots_are_deterministic_and_not_all_alike() {
    // Different bots make different choices: their results differ.
    let data = Data::sample();
    let bots = bot::shipped(&data).unwrap();
    let t = Table::new(&data, 5).unwrap();
    let m = SalemMatch {
        table: &t,
        bots: &bots,
    };
    let mut g = Game::new();
    let seats = m.setup(&mut g, 1, 0);
    let a = g.play(&t, &mut m.seated(&seats), &mut NoLog);
    let seats2 = m.setup(&mut g, 1, 0);
    assert_eq!(seats, seats2);
    let b = g.play(&t, &mut m.seated(&seats2), &mut NoLog);
    assert_eq!(a, b);
    let naive = Seated {
        seats: [&bots[0]; 8],
    };
    let accuser = Seated {
        seats: [&bots[4]; 8],
    };
    let (mut na, mut ac) = (0, 0);
    for i in 0..200 {
        g.reset(&t, GameRng::for_game(2, i));
        na += g
            .play(&t, &mut Seated { seats: naive.seats }, &mut NoLog)
            .trials as u32;
        g.reset(&t, GameRng::for_game(2, i));
        ac += g
            .play(
                &t,
                &mut Seated {
                    seats: accuser.seats,
                },
                &mut NoLog,
            )
            .trials as u32;
    }
    assert_ne!(na, ac);
}

// ------------------------------------------------------------ CLI and bad input

fn domsim() -> Command {
    Command::new(env!("CARGO_BIN_EXE_domsim"))
}

#[test]
fn salem_sim_runs_every_player_count_and_writes_a_csv() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("t.csv");
    let html = dir.path().join("r.html");
    let out = domsim()
        .args(["salem", "sim", "-p", "3..8", "-n", "600", "-o"])
        .arg(&csv)
        .arg("--report")
        .arg(&html)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.contains("SAMPLE"));
    for p in 3..=8 {
        assert!(
            text.contains(&format!("\n{p},all,witch_team_wins,600,")),
            "{p} players missing"
        );
        assert!(text.contains(&format!("\n{p},Hidden Witch,team_win_as_witch,")));
    }
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<svg") && page.contains("8 players"));
}

#[test]
fn salem_sim_csv_is_identical_for_one_and_two_threads() {
    let dir = tempfile::tempdir().unwrap();
    let mut outs = Vec::new();
    for j in ["1", "2"] {
        let f = dir.path().join(format!("t{j}.csv"));
        let o = domsim()
            .args([
                "salem", "sim", "-p", "5", "-n", "20000", "--seed", "9", "-j", j, "-o",
            ])
            .arg(&f)
            .output()
            .unwrap();
        assert!(o.status.success());
        outs.push(std::fs::read(&f).unwrap());
    }
    assert_eq!(outs[0], outs[1]);
}

#[test]
fn salem_checkpoint_resumes_to_the_same_result() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("ck");
    let whole = dir.path().join("whole.csv");
    let resumed = dir.path().join("resumed.csv");
    let run = |n: &str, out: &std::path::Path, ck: Option<&std::path::Path>| {
        let mut c = domsim();
        c.args(["salem", "sim", "-p", "4", "-n", n, "--seed", "3", "-o"])
            .arg(out);
        if let Some(ck) = ck {
            c.arg("--checkpoint")
                .arg(ck)
                .args(["--checkpoint-every", "1000"]);
        }
        let o = c.output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    run("5000", &whole, None);
    // A first run of 3000 games leaves its checkpoint; the second resumes from it.
    run("3000", &dir.path().join("part.csv"), Some(&ck));
    let o = domsim()
        .args(["salem", "sim", "-p", "4", "-n", "5000", "--seed", "3", "-o"])
        .arg(&resumed)
        .arg("--checkpoint")
        .arg(&ck)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("resumed from checkpoint"), "{err}");
    assert_eq!(
        std::fs::read(&whole).unwrap(),
        std::fs::read(&resumed).unwrap()
    );
}

/// Interrupted, a checkpointed New Salem run says how many games its
/// checkpoint holds and how to resume, as Dominion's `sim` does (it said
/// only "interrupted: N of M games completed").
#[test]
fn salem_interrupted_checkpoint_says_what_it_holds() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("ck");
    let child = domsim()
        .args(["salem", "sim", "-p", "4", "-n", "1000000000", "-j", "1"])
        .args(["--checkpoint-every", "1000", "--checkpoint"])
        .arg(&ck)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Until a first batch is saved (a guard against a hang, not a measure).
    // The run saves an empty checkpoint before its first game ("next 0"):
    // the file existing is not enough (killed then, it holds 0 games).
    let saved_a_batch = || {
        std::fs::read_to_string(&ck)
            .is_ok_and(|t| t.lines().any(|l| l.starts_with("next ") && l != "next 0"))
    };
    let t = std::time::Instant::now();
    while !saved_a_batch() && t.elapsed() < std::time::Duration::from_secs(60) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let k = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(k.success());
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    let holds = format!("checkpoint '{}' holds ", ck.display());
    let line = err
        .lines()
        .find(|l| l.starts_with(&holds))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(
        line.ends_with(" of 1000000000 games; run the same command again to resume"),
        "{line}"
    );
    let held: u64 = line[holds.len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(held >= 1000 && held.is_multiple_of(1000), "{line}");
}

#[test]
fn salem_log_shows_a_players_view_without_other_characters() {
    let o = domsim()
        .args(["salem", "log", "-p", "5", "--seed", "4", "--view", "P2"])
        .output()
        .unwrap();
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("P2 is "), "{text}");
    for s in [0, 1, 3, 4] {
        for team in ["(Witch)", "(Puritan)"] {
            assert!(
                !text
                    .lines()
                    .any(|l| l.starts_with(&format!("P{s} is ")) && l.ends_with(team)),
                "P{s}'s character leaked:\n{text}"
            );
        }
        assert!(!text.contains(&format!("P{s} holds")), "P{s}'s hand leaked");
    }
    let all = domsim()
        .args(["salem", "log", "-p", "5", "--seed", "4"])
        .output()
        .unwrap();
    let all = String::from_utf8_lossy(&all.stdout);
    for s in 0..5 {
        assert!(all.contains(&format!("P{s} is ")));
    }
}

fn sample_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (f, text) in [
        ("rules.toml", domsim::new_salem::data::SAMPLE_RULES),
        ("buildings.csv", domsim::new_salem::data::SAMPLE_BUILDINGS),
        ("events.toml", domsim::new_salem::data::SAMPLE_EVENTS),
        (
            "characters.toml",
            domsim::new_salem::data::SAMPLE_CHARACTERS,
        ),
    ] {
        std::fs::write(dir.path().join(f), text).unwrap();
    }
    dir
}

/// `salem check --data dir` refuses the folder (exit 2, no panic): its
/// message.
fn data_refused(dir: &std::path::Path) -> String {
    let o = domsim()
        .args(["salem", "check", "--data"])
        .arg(dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// Replace `from` by `to` in data file `file`, run `salem check --data`,
/// and expect exit 2 with every piece of `want` in the message.
fn bad_data(file: &str, from: &str, to: &str, want: &[&str]) {
    let dir = sample_dir();
    let p = dir.path().join(file);
    let text = std::fs::read_to_string(&p).unwrap();
    assert!(text.contains(from), "{from:?} not in {file}");
    std::fs::write(&p, text.replacen(from, to, 1)).unwrap();
    let err = data_refused(dir.path());
    for w in want {
        assert!(err.contains(w), "expected {w:?} in: {err}");
    }
}

#[test]
fn bad_data_files_name_the_file_line_and_field() {
    bad_data(
        "characters.toml",
        "\"death\"]",
        "\"deth\"]",
        &[
            "characters.toml:3:",
            "unknown category \"deth\"",
            "did you mean \"death\"",
        ],
    );
    bad_data(
        "buildings.csv",
        "C2,Trading Post,commerce,com_a,,moon,triangle",
        "C2,Trading Post,commerce,com_a,,triangle,triangle",
        &["set \"com_a\" can never complete"],
    );
    bad_data(
        "buildings.csv",
        "3@3 1@4 1@5 1@6 1@7 1@8\nF1",
        "3@3 1@4 1@5 1@6 1@7 x@8\nF1",
        &["buildings.csv:5:", "field copies", "\"x@8\""],
    );
    bad_data(
        "buildings.csv",
        "D1,Cemetery,death,death_a,death",
        "D1,Cemetery,death,death_a,deathh",
        &[
            "buildings.csv:15:",
            "field endgame",
            "did you mean \"death\"",
        ],
    );
    bad_data(
        "events.toml",
        "effect = \"peek_character\"",
        "effect = \"peek\"",
        &["events.toml:6:", "effect \"peek\""],
    );
    bad_data(
        "events.toml",
        "cost = 4,",
        "cost = 4, colour = 1,",
        &["events.toml:3:", "colour"],
    );
    bad_data(
        "rules.toml",
        "despair_threshold = [6, 8, 10, 12, 14, 16]",
        "despair_threshold = [6, 8, 10, 12, 14]",
        &["rules.toml:5:", "despair_threshold has 5 values"],
    );
    bad_data(
        "rules.toml",
        "kept_per_round    = [2, 3, 4, 3, 2]",
        "kept_per_round    = [2, 3, 3, 3, 2]",
        &["round 3: 5 dealt and 3 kept"],
    );
    bad_data(
        "rules.toml",
        "launch_cap = 20",
        "launch_capp = 20",
        &[
            "rules.toml:",
            "unknown rule option \"launch_capp\"",
            "did you mean \"launch_cap\"",
        ],
    );
    bad_data(
        "rules.toml",
        "player_counts",
        "player_count",
        &["rules.toml:2:"],
    );
    // Too few buildings: the copies numbered 7 and 8 removed leave 108 at 8 players.
    let dir = sample_dir();
    let p = dir.path().join("buildings.csv");
    let text = std::fs::read_to_string(&p).unwrap().replace(" 1@7 1@8", "");
    std::fs::write(&p, text).unwrap();
    let err = data_refused(dir.path());
    assert!(
        err.contains("8 players need at least 120 buildings") && err.contains("has 108"),
        "{err}"
    );
    // Missing folder, binary garbage.
    let o = domsim()
        .args(["salem", "check", "--data", "/nonexistent/dir"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let dir = sample_dir();
    std::fs::write(dir.path().join("events.toml"), [0xff, 0xfe, 0x00, 0x41]).unwrap();
    let o = domsim()
        .args(["salem", "check", "--data"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("events.toml"));
}

#[test]
fn a_copied_sample_folder_is_accepted_as_data() {
    let dir = sample_dir();
    let o = domsim()
        .args(["salem", "sim", "-p", "5", "-n", "500", "--data"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("Card data: "));
}

fn bad_bot(text: &str, want: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("b.salem");
    std::fs::write(&f, text).unwrap();
    let o = domsim().args(["salem", "check"]).arg(&f).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    for w in want {
        assert!(err.contains(w), "expected {w:?} in: {err}");
    }
}

#[test]
fn bad_bot_files_name_the_line_and_column() {
    bad_bot(
        "name = \"x\"\n[all]\ndraft = [\"hope\", \"my_categry\"]\n",
        &[
            "b.salem:3:",
            "unknown draft feature \"my_categry\"",
            "did you mean \"my_category\"",
        ],
    );
    bad_bot(
        "[puritan]\nlaunch = [\"trail\"]\n",
        &[
            "b.salem:2:",
            "unknown event \"trail\"",
            "did you mean \"trial\"",
        ],
    );
    bad_bot(
        "[witch]\ndraft = [\"hope if rnd >= 2\"]\n",
        &[
            "b.salem:2:",
            "unknown variable \"rnd\"",
            "did you mean \"round\"",
        ],
    );
    bad_bot(
        "[witch]\ndraft = [\"hope if round => 2\"]\n",
        &["unknown comparison \"=>\""],
    );
    bad_bot("[witch]\ndraft = [\"hope\"\n", &["b.salem:"]);
    bad_bot("[wich]\n", &["b.salem:1:", "wich"]);
    bad_bot(
        "[all]\nnext_constable = \"lefty\"\n",
        &["b.salem:2:", "did you mean \"left\""],
    );
    bad_bot(
        "[suspicion]\ndespair = 2\n",
        &["unknown weight \"despair\""],
    );
    let o = domsim()
        .args(["salem", "sim", "no_such_bot"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let o = domsim().args(["salem", "sim", "naiv"]).output().unwrap();
    assert!(String::from_utf8_lossy(&o.stderr).contains("did you mean \"naive\""));
}

#[test]
fn bad_options_and_player_counts_exit_2() {
    for args in [
        vec!["salem", "sim", "-p", "9"],
        vec!["salem", "sim", "-p", "2"],
        vec!["salem", "sim", "-p", "8..3"],
        vec!["salem", "sim", "--rule", "threshold=most"],
        vec!["salem", "sim", "--rule", "nonsense"],
        vec!["salem", "sim", "--precision", "2"],
        vec!["salem", "sim", "-p", "3..5", "--checkpoint", "x"],
        vec!["salem", "log", "--view", "P7"],
    ] {
        let o = domsim().args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with("error"), "{args:?}: {err}");
    }
}

#[test]
fn shipped_bots_compile_and_rules_lists_every_option() {
    let data = Data::sample();
    let bots = bot::shipped(&data).unwrap();
    assert_eq!(bots.len(), 6);
    assert!(bots.iter().all(|b| !b.idea.is_empty()));
    let o = domsim().args(["salem", "rules"]).output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    for o in domsim::new_salem::data::OPTION_DOCS {
        let name = o.name;
        assert!(text.contains(name), "{name} missing");
    }
}

/// Stable-Rust fuzzing of the data and bot formats (the libFuzzer target is
/// `fuzz/fuzz_targets/salem_data.rs`): thousands of mutated sample files and
/// bots load or fail with a message naming the file, never a panic, and
/// whatever loads plays a game to the end.
#[test]
fn mutated_data_and_bot_files_never_panic() {
    use domsim::new_salem::data;
    let originals = [
        data::SAMPLE_RULES,
        data::SAMPLE_BUILDINGS,
        data::SAMPLE_EVENTS,
        data::SAMPLE_CHARACTERS,
        bot::SHIPPED[2].1,
    ];
    let tokens = [
        "0", "-1", "99", "\"\"", ",", "=", "[", "]", "{", "}", "moon", "death", "@", "\n", "#",
        "true", "if", ">=",
    ];
    let mut rng = GameRng::for_game(2026, 0);
    let rounds: u64 = std::env::var("DOMSIM_FUZZ")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let (mut loaded, mut refused) = (0, 0);
    for _ in 0..1500 * rounds {
        let which = rng.below(5) as usize;
        let mut text = originals[which].to_string();
        for _ in 0..1 + rng.below(3) {
            let cut = |t: &str, r: &mut GameRng| {
                let mut i = r.below(t.len() as u32 + 1) as usize;
                while !t.is_char_boundary(i) {
                    i -= 1;
                }
                i
            };
            let i = cut(&text, &mut rng);
            match rng.below(3) {
                0 => text.insert_str(i, tokens[rng.below(tokens.len() as u32) as usize]),
                1 => {
                    let j = cut(&text, &mut rng);
                    let (a, b) = (i.min(j), i.max(j).min(i.min(j) + 12));
                    let mut b = b;
                    while !text.is_char_boundary(b) {
                        b -= 1;
                    }
                    text.replace_range(a..b, "");
                }
                _ => {
                    let j = cut(&text, &mut rng);
                    let piece: String = text[i.min(j)..i.max(j)].chars().take(40).collect();
                    text.insert_str(i.max(j), &piece);
                }
            }
        }
        let mut files = [originals[0], originals[1], originals[2], originals[3]];
        if which < 4 {
            files[which] = &text;
        }
        let parsed = std::panic::catch_unwind(|| {
            Data::parse(
                [
                    ("rules.toml", files[0]),
                    ("buildings.csv", files[1]),
                    ("events.toml", files[2]),
                    ("characters.toml", files[3]),
                ],
                "mutant",
            )
        })
        .unwrap_or_else(|_| panic!("Data::parse panicked on:\n{text}"));
        let d = match parsed {
            Ok(d) => d,
            Err(e) => {
                refused += 1;
                let m = e.to_string();
                assert!(
                    data::FILES.iter().any(|f| m.contains(f)),
                    "no file named: {m}"
                );
                continue;
            }
        };
        let b = if which == 4 {
            bot::compile("m.salem", &text, &d)
        } else {
            bot::compile("m.salem", originals[4], &d)
        };
        let b = match b {
            Ok(b) => b,
            Err(e) => {
                refused += 1;
                assert!(e.to_string().starts_with("m.salem"), "{e}");
                continue;
            }
        };
        loaded += 1;
        let p = d.rules.player_counts[rng.below(d.rules.player_counts.len() as u32) as usize];
        let t = Table::new(&d, p).unwrap();
        let mut g = Game::new();
        g.reset(&t, GameRng::for_game(1, loaded));
        g.play(&t, &mut Seated { seats: [&b; 8] }, &mut Checked);
    }
    assert!(
        loaded > 100 && refused > 100,
        "loaded {loaded}, refused {refused}"
    );
}

// ------------------------------------------------------------ §4.4 card movement

/// §4.4: a "give" card (Town Charter) goes to the named player, who holds
/// it; the top event replaces it on the display.
#[test]
fn a_give_card_goes_to_the_named_player_and_is_held() {
    let t = table(4);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3, P4], 0);
    T::put(&mut g, &t, 0, C3, 3, 0);
    for s in 1..4 {
        T::put(&mut g, &t, s, C1, 0, 0);
    }
    T::set_display(&mut g, 1 << TRIAL | 1 << PURIFICATION | 1 << CHARTER);
    T::set_event_deck(&mut g, &[SERMON, FIRE]);
    let mut s = Script {
        launches: vec![Some(CHARTER)],
        target: 2,
        next: 1,
        ..Script::default()
    };
    T::launch_phase(&mut g, &t, &mut s, &mut NoLog);
    // Town Charter: the named P3 (seat 2) gains 2 Hope and holds the card.
    assert_eq!(T::tableau(&g, 0), vec![bld(C3, 2, 0)], "3 - 1 paid");
    assert_eq!(T::tableau(&g, 2), vec![bld(C1, 2, 0)]);
    assert_eq!([0, 1, 2, 3].map(|p| T::hope(&g, p)), [2, 1, 2, 0]);
    assert_eq!(
        [0, 1, 2, 3].map(|p| T::held(&g, p)),
        [0, 0, 1 << CHARTER, 0]
    );
    // Sermon, the top event, replaced it; Great Fire stays in the deck.
    assert_eq!(T::display(&g), 1 << TRIAL | 1 << PURIFICATION | 1 << SERMON);
    assert_eq!(T::event_deck(&g), vec![FIRE]);
    assert_eq!((T::constable(&g), T::badges(&g)), (1, 0b0011));
    assert_eq!(T::despair(&g), 0);
}

/// §4.4: a "take" card (Ill Omen, naming nobody) goes to the launcher.
#[test]
fn a_take_card_goes_to_the_launcher_and_is_held() {
    let t = table(4);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3, P4], 0);
    T::put(&mut g, &t, 0, C1, 0, 0);
    T::put(&mut g, &t, 0, C3, 1, 0);
    for s in 1..4 {
        T::put(&mut g, &t, s, C1, 0, 0);
    }
    T::set_display(&mut g, 1 << TRIAL | 1 << PURIFICATION | 1 << OMEN);
    T::set_event_deck(&mut g, &[SERMON, FIRE]);
    let mut s = Script {
        launches: vec![Some(OMEN)],
        next: 3,
        ..Script::default()
    };
    T::launch_phase(&mut g, &t, &mut s, &mut NoLog);
    // Ill Omen: the launcher pays 1 and puts 1 Despair on their own most
    // recent building; then holds the card.
    assert_eq!(T::tableau(&g, 0), vec![bld(C1, 0, 0), bld(C3, 0, 1)]);
    assert_eq!(T::despair(&g), 1);
    assert!(s.asked_targets.is_empty(), "Ill Omen names nobody");
    assert_eq!([0, 1, 2, 3].map(|p| T::held(&g, p)), [1 << OMEN, 0, 0, 0]);
    assert_eq!(T::display(&g), 1 << TRIAL | 1 << PURIFICATION | 1 << SERMON);
    assert_eq!(T::event_deck(&g), vec![FIRE]);
    assert_eq!((T::constable(&g), T::badges(&g)), (3, 0b1001));
    assert_eq!([0, 1, 2, 3].map(|p| T::hope(&g, p)), [0, 0, 0, 1]);
}

/// §4.4: a card that is neither red-bordered nor give/take (Sermon) goes
/// under the event deck, and the top event replaces it on the display.
/// Sermon's remove-Despair icon takes the cube off the building with the
/// most Despair.
#[test]
fn a_plain_card_goes_under_the_event_deck_and_the_top_event_replaces_it() {
    let t = table(4);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3, P4], 0);
    T::put(&mut g, &t, 0, C3, 2, 0);
    T::put(&mut g, &t, 1, D1, 0, 1);
    T::put(&mut g, &t, 2, D2, 0, 2);
    T::put(&mut g, &t, 3, C1, 0, 0);
    T::set_display(&mut g, 1 << TRIAL | 1 << PURIFICATION | 1 << SERMON);
    T::set_event_deck(&mut g, &[FIRE, CHARTER]);
    let mut s = Script {
        launches: vec![Some(SERMON)],
        next: 1,
        ..Script::default()
    };
    T::launch_phase(&mut g, &t, &mut s, &mut NoLog);
    assert_eq!(T::tableau(&g, 0), vec![bld(C3, 0, 0)]);
    assert_eq!(
        T::tableau(&g, 1),
        vec![bld(D1, 1, 1)],
        "+1 Hope as Constable"
    );
    assert_eq!(
        T::tableau(&g, 2),
        vec![bld(D2, 0, 1)],
        "Sermon took one of its 2"
    );
    assert_eq!(T::despair(&g), 2);
    assert_eq!(T::display(&g), 1 << TRIAL | 1 << PURIFICATION | 1 << FIRE);
    assert_eq!(T::event_deck(&g), vec![CHARTER, SERMON]);
    assert_eq!([0, 1, 2, 3].map(|p| T::held(&g, p)), [0; 4]);
    assert_eq!((T::constable(&g), T::badges(&g)), (1, 0b0011));
}

/// Engine choice (docs): held give/take cards have no effect while held:
/// a whole later round with Town Charter and Ill Omen held changes no cube,
/// and a held card cannot be launched.
#[test]
fn held_give_and_take_cards_have_no_effect_while_held() {
    let t = table(4);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3, P4], 0);
    T::put(&mut g, &t, 0, C3, 1, 0);
    for s in 1..4 {
        T::put(&mut g, &t, s, C1, 0, 0);
    }
    T::set_display(&mut g, 1 << CHARTER | 1 << OMEN);
    T::set_event_deck(&mut g, &[]);
    // P1 launches Town Charter naming P3; P2 (new Constable, 1 Hope)
    // launches Ill Omen and takes it; P3 becomes Constable.
    let mut s = Script {
        launches: vec![Some(CHARTER), Some(OMEN)],
        target: 2,
        next: 1,
        ..Script::default()
    };
    T::launch_phase(&mut g, &t, &mut s, &mut NoLog);
    assert_eq!(
        [0, 1, 2, 3].map(|p| T::held(&g, p)),
        [0, 1 << OMEN, 1 << CHARTER, 0]
    );
    assert_eq!(T::display(&g), 0);
    assert_eq!(T::constable(&g), 2);
    let rows: Vec<_> = (0..4).map(|p| T::tableau(&g, p)).collect();
    assert_eq!(rows[1], vec![bld(C1, 0, 1)]);
    assert_eq!(
        rows[2],
        vec![bld(C1, 3, 0)],
        "2 from the Charter, 1 as Constable"
    );
    // A whole round (no buildings left to deal). The Constable P3 (3 Hope)
    // could launch Purification but asks for the held Town Charter: refused,
    // and the phase ends. Nothing changes.
    T::set_round(&mut g, 1);
    T::set_display(&mut g, 1 << TRIAL | 1 << PURIFICATION);
    let mut s = Script {
        launches: vec![Some(CHARTER), Some(OMEN)],
        target: 2,
        ..Script::default()
    };
    T::round(&mut g, &t, &mut s, &mut NoLog);
    for p in 0..4 {
        assert_eq!(T::tableau(&g, p), rows[p as usize], "P{p}'s row unchanged");
    }
    assert_eq!(
        [0, 1, 2, 3].map(|p| T::held(&g, p)),
        [0, 1 << OMEN, 1 << CHARTER, 0]
    );
    assert_eq!(T::despair(&g), 1);
    assert_eq!(T::constable(&g), 2);
    assert_eq!(T::display(&g), 1 << TRIAL | 1 << PURIFICATION);
    // And the end of the game does not count them.
    let o = T::finish(&mut g, &t, &mut NoLog);
    assert_eq!((o.cubes, o.despair), (1, 1));
}

// ------------------------------------------------------------ §4.4 Constable and Trial

/// §4.4: a Constable put on Trial (here by their own Trial, with
/// `trial_target = anyone`) keeps the role for now: they still hand the
/// token off. They can never be Constable again, even after the badges
/// return.
#[test]
fn a_constable_put_on_trial_keeps_the_role_for_now_but_never_again() {
    let mut d = Data::sample();
    d.rules.options.set("trial_target", "anyone").unwrap();
    let t = Table::new(&d, 3).unwrap();
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3], 0);
    T::put(&mut g, &t, 0, C3, 4, 0);
    T::put(&mut g, &t, 1, C1, 2, 0);
    T::put(&mut g, &t, 2, C1, 2, 0);
    T::set_display(&mut g, 1 << TRIAL | 1 << PURIFICATION);
    // P1 tries themself, hands to P2; P2 launches Purification and must hand
    // to P3 (badges return: P1 is on Trial, P2 holds one); P3 launches
    // Purification and may only hand to P2 (next = 1 each time).
    let mut s = Script {
        launches: vec![Some(TRIAL), Some(PURIFICATION), Some(PURIFICATION)],
        target: 0,
        next: 1,
        ..Script::default()
    };
    T::launch_phase(&mut g, &t, &mut s, &mut NoLog);
    assert_eq!(T::on_trial(&g), 0b001);
    assert_eq!(s.asked_targets, vec![0b111]);
    // P1, on Trial, still made the first hand-off; then P1 is never offered.
    assert_eq!(s.asked_next, vec![0b110, 0b100, 0b010]);
    assert_eq!(T::constable(&g), 1);
    assert_eq!(
        T::badges(&g),
        0b010,
        "returned when P3 took the token, and again when P2 did"
    );
    assert_eq!([0, 1, 2].map(|p| T::hope(&g, p)), [0, 1, 0]);
    assert_eq!(T::display(&g), 1 << TRIAL | 1 << PURIFICATION);
}

/// §4.4: the token and the badges carry over to the next round; the next
/// round's launches start from the same Constable.
#[test]
fn the_token_and_the_badges_carry_over_between_rounds() {
    let t = table(4);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3, P4], 2);
    for s in 0..4 {
        T::put(&mut g, &t, s, C1, if s == 2 { 3 } else { 0 }, 0);
    }
    T::set_badges(&mut g, 0b0110);
    T::set_display(&mut g, 0);
    T::set_event_deck(&mut g, &[]);
    T::set_round(&mut g, 0);
    T::round(&mut g, &t, &mut Script::default(), &mut NoLog);
    assert_eq!((T::constable(&g), T::badges(&g)), (2, 0b0110));
    // Round 2: P3 is still Constable and launches Purification.
    T::set_round(&mut g, 1);
    T::set_display(&mut g, 1 << TRIAL | 1 << PURIFICATION);
    let mut s = Script {
        launches: vec![Some(PURIFICATION)],
        next: 3,
        ..Script::default()
    };
    T::round(&mut g, &t, &mut s, &mut NoLog);
    assert_eq!(s.asked_next, vec![0b1001], "P2 kept the badge of round 1");
    assert_eq!((T::constable(&g), T::badges(&g)), (3, 0b1110));
    assert_eq!([0, 1, 2, 3].map(|p| T::hope(&g, p)), [0, 0, 0, 1]);
}

// ------------------------------------------------------------ §5.4 Trial and winning

/// §5.4: being on Trial does not stop a player winning (a Puritan on Trial
/// for the Puritans, a Witch on Trial for the Witches).
#[test]
fn being_on_trial_does_not_stop_a_player_winning() {
    let t = table(4);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3, P4], 0);
    for d in [C1, C2, C3] {
        T::put(&mut g, &t, 0, d, 0, 0);
    }
    T::put(&mut g, &t, 1, E1, 0, 0);
    T::set_on_trial(&mut g, 0b0001);
    let o = T::finish(&mut g, &t, &mut NoLog);
    // D = 0 cubes + 2 (a Puritan on Trial) < 8.
    assert_eq!((o.cubes, o.despair, o.side), (0, 2, Some(Team::Puritan)));
    assert_eq!(&o.points[..4], &[5, 1, 0, 0]);
    assert_eq!((o.winners, o.on_trial), (0b0001, 0b0001));

    let mut g = Game::new();
    T::position(&mut g, &t, &[W1, W2, P1, P2], 0);
    T::put(&mut g, &t, 0, C1, 0, 0);
    T::put(&mut g, &t, 0, C2, 0, 0);
    T::put(&mut g, &t, 1, F1, 0, 0);
    T::put(&mut g, &t, 2, C1, 0, 8);
    T::set_on_trial(&mut g, 0b0001);
    let o = T::finish(&mut g, &t, &mut NoLog);
    // D = 8 - 2 (W1 on Trial) + 2 (W2 free) = 8 >= 8.
    assert_eq!((o.cubes, o.despair, o.side), (8, 8, Some(Team::Witch)));
    assert_eq!(&o.points[..2], &[2, 1]);
    assert_eq!((o.winners, o.on_trial), (0b0001, 0b0001));
}

// ------------------------------------------------------------ §4.1 / §4.2 deal and reveal

/// §4.1: each player is dealt 3, 4, 5, 4, 3 buildings in rounds 1 to 5 and
/// keeps 2, 3, 4, 3, 2 (one of the last two goes under the deck).
#[test]
fn deal_sizes_and_kept_cards_per_round() {
    let t = table(3);
    let cycle = [C1, C2, E1, E3, 9, 11, J3, F1, F2];
    let deck: Vec<u8> = (0..40).map(|i| cycle[i % cycle.len()]).collect();
    for (r, (dealt, kept)) in [(3, 2), (4, 3), (5, 4), (4, 3), (3, 2)]
        .into_iter()
        .enumerate()
    {
        let mut g = Game::new();
        T::position(&mut g, &t, &[P1, P2, P3], 0);
        T::set_round(&mut g, r as u8);
        T::set_deck(&mut g, &deck);
        T::set_display(&mut g, 0);
        T::set_event_deck(&mut g, &[]);
        let mut log = Steps::default();
        T::round(&mut g, &t, &mut Script::default(), &mut log);
        // Dealt in seat order from the top; each seat picks its first card.
        assert_eq!(T::tableau(&g, 0)[0].design, deck[0], "round {}", r + 1);
        assert_eq!(T::tableau(&g, 1)[0].design, deck[dealt], "round {}", r + 1);
        assert_eq!(
            T::tableau(&g, 2)[0].design,
            deck[2 * dealt],
            "round {}",
            r + 1
        );
        for s in 0..3 {
            assert_eq!(T::drafted(&g, s), kept, "round {}", r + 1);
            assert_eq!(T::tableau(&g, s).len(), kept as usize, "round {}", r + 1);
        }
        // 3 x dealt off the top, one discard per player back under.
        assert_eq!(T::deck(&g).len(), 40 - 3 * dealt + 3, "round {}", r + 1);
        // dealt - 2 draft steps, the discard, the end of the round.
        assert_eq!(log.decks.len(), dealt, "round {}", r + 1);
    }
}

/// §4.2: each Hope icon of a revealed building puts a Hope cube on it (with
/// its add-Despair cubes), and a remove of the same reveal then takes one.
#[test]
fn a_revealed_buildings_hope_icons_put_hope_cubes_on_it() {
    let t = table(3);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3], 0);
    // Wharf: 2 Hope, 1 add; Counting House: 2 Hope; Library: 1 remove.
    T::reveal(&mut g, &t, &[Some(C3), Some(F1), Some(E2)]);
    assert_eq!(T::tableau(&g, 0), vec![bld(C3, 2, 0)]);
    assert_eq!(T::tableau(&g, 1), vec![bld(F1, 2, 0)]);
    assert_eq!(T::tableau(&g, 2), vec![bld(E2, 0, 0)]);
    assert_eq!([0, 1, 2].map(|p| T::hope(&g, p)), [2, 2, 0]);
    assert_eq!(T::despair(&g), 0);
    // Market Stall and Courthouse: 1 Hope each.
    T::reveal(&mut g, &t, &[Some(C1), None, Some(J1)]);
    assert_eq!(T::tableau(&g, 0)[1], bld(C1, 1, 0));
    assert_eq!(T::tableau(&g, 2)[1], bld(J1, 1, 0));
    assert_eq!([0, 1, 2].map(|p| T::hope(&g, p)), [3, 2, 1]);
}

/// §4.2: the removes of one reveal go in seat order starting from the
/// Constable; with two removers the order decides which cubes go.
#[test]
fn reveal_removes_go_in_seat_order_from_the_constable() {
    let t = table(4);
    let run = |constable: u8| {
        let mut g = Game::new();
        T::position(&mut g, &t, &[P1, P2, P3, P4], constable);
        T::put(&mut g, &t, 0, D1, 0, 2);
        T::put(&mut g, &t, 1, D2, 0, 1);
        // P2 reveals Library, P4 Jail: one remove each.
        T::reveal(&mut g, &t, &[None, Some(E2), None, Some(J2)]);
        assert_eq!(T::despair(&g), 1);
        assert_eq!(T::tableau(&g, 3), vec![bld(J2, 0, 0)]);
        (T::tableau(&g, 0), T::tableau(&g, 1))
    };
    // Constable P4: P4 first takes from the most loaded (Cemetery, 2), then
    // P2 takes from its own Undertaker.
    assert_eq!(
        run(3),
        (vec![bld(D1, 0, 1)], vec![bld(D2, 0, 0), bld(E2, 0, 0)])
    );
    // Constable P2: P2 first takes from the Cemetery (2 > its own 1), then P4
    // takes the Cemetery's last (seat 1 of P4's scan comes after seat 0).
    assert_eq!(
        run(1),
        (vec![bld(D1, 0, 0)], vec![bld(D2, 0, 1), bld(E2, 0, 0)])
    );
}

// ------------------------------------------------------------ sample events

/// Public Inquiry: the named player's character is revealed to every player.
#[test]
fn public_inquiry_reveals_a_character_to_all() {
    let t = table(4);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, W1, P3, P4], 0);
    T::put(&mut g, &t, 0, C3, 6, 0);
    for s in 1..4 {
        T::put(&mut g, &t, s, C1, 0, 0);
    }
    T::set_display(&mut g, 1 << TRIAL | 1 << PURIFICATION | 1 << INQUIRY);
    T::set_event_deck(&mut g, &[FIRE]);
    let mut s = Script {
        launches: vec![Some(INQUIRY)],
        target: 1,
        next: 2,
        ..Script::default()
    };
    T::launch_phase(&mut g, &t, &mut s, &mut NoLog);
    assert_eq!(s.asked_targets, vec![0b1110]);
    assert_eq!(T::revealed(&g), 0b0010);
    for me in 0..4 {
        let v = T::view(&g, &t, me);
        assert_eq!(
            v.known_team(1),
            Some(Team::Witch),
            "P{me} sees P2's character"
        );
        if me != 2 {
            assert_eq!(v.known_team(2), None, "P3's stays hidden from P{me}");
        }
    }
    // Not red-bordered, not give/take: under the event deck.
    assert_eq!(T::display(&g), 1 << TRIAL | 1 << PURIFICATION | 1 << FIRE);
    assert_eq!(T::event_deck(&g), vec![INQUIRY]);
    assert_eq!((T::constable(&g), T::badges(&g)), (2, 0b0101));
    assert_eq!([0, 1, 2, 3].map(|p| T::hope(&g, p)), [0, 0, 1, 0]);
}

/// A data file that is not UTF-8 is refused with the offset of the first
/// bad byte, as the other input formats say it.
#[test]
fn data_file_not_utf8_names_the_offset() {
    let dir = sample_dir();
    let p = dir.path().join("events.toml");
    let mut bytes = std::fs::read(&p).unwrap();
    bytes.insert(10, 0xff);
    std::fs::write(&p, bytes).unwrap();
    let err = data_refused(dir.path());
    assert!(
        err.contains("events.toml: not UTF-8 text (invalid byte at offset 10)"),
        "{err}"
    );
}

/// `salem sim --precision` says what it played: per player count, the
/// games, whether the target was reached and the widest half-width, in the
/// console and the CSV header (which used to give the games requested).
#[test]
fn salem_precision_records_the_games_played() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("p.csv");
    let o = domsim()
        .args([
            "salem",
            "sim",
            "-p",
            "3",
            "-n",
            "100000",
            "--precision",
            "0.02",
            "-o",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let console = String::from_utf8_lossy(&o.stdout);
    assert!(
        console.contains("precision ±0.02 reached after 16384 games at 3 players"),
        "{console}"
    );
    let csv = std::fs::read_to_string(&out).unwrap();
    let head = csv.lines().next().unwrap();
    assert!(
        head.contains("games requested 100000; precision ±0.02: 3p 16384 (reached, widest ±"),
        "{head}"
    );
    assert!(
        csv.lines().skip(3).all(|l| !l.contains(",100000,")),
        "{csv}"
    );
}

/// `salem check` says when a bot file sets no decision of its own (an
/// empty file, or an empty `[witch]` table): it is accepted, as a bot that
/// plays every built-in default, and said to be one. A bot that sets one
/// decision is not, nor is a shipped bot.
#[test]
fn check_says_when_a_bot_sets_no_decision() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.salem");
    std::fs::write(&empty, "").unwrap();
    let table = dir.path().join("table.salem");
    std::fs::write(&table, "name = \"Table only\"\n[witch]\n").unwrap();
    let one = dir.path().join("one.salem");
    std::fs::write(&one, "name = \"One\"\n[all]\ndestroy = \"best\"\n").unwrap();
    let o = domsim()
        .args(["salem", "check"])
        .arg(&empty)
        .arg(&table)
        .arg(&one)
        .arg("naive")
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let note = "sets no decision of its own: it plays every built-in default";
    let line = |name: &str| {
        out.lines()
            .find(|l| l.starts_with(&format!("{name}: OK")))
            .unwrap_or_else(|| panic!("{name} in {out}"))
            .to_string()
    };
    assert!(
        line("empty").contains("(no idea line)") && line("empty").contains(note),
        "{out}"
    );
    assert!(line("Table only").contains(note), "{out}");
    assert!(!line("One").contains(note), "{out}");
    assert!(!line("Naive").contains(note), "{out}");
}

// ------------------------------------------------------------ audit 3: numbers out of range

/// rules.toml's end-of-game numbers (Trial and set Despair, points) are
/// bounded when loaded: `death = 20000` used to load, and the first game
/// with two Death sets panicked on an overflow (a silent wrap in a release
/// build). It is refused with the file, line and column.
#[test]
fn end_of_game_numbers_out_of_range_are_refused() {
    bad_data(
        "rules.toml",
        "death = 3,",
        "death = 20000,",
        &[
            "rules.toml:9:",
            "set_despair.death = 20000 is outside -100..=100",
        ],
    );
    bad_data(
        "rules.toml",
        "matching_building = 1",
        "matching_building = 5000",
        &[
            "rules.toml:10:",
            "points.matching_building = 5000 is outside -100..=100",
        ],
    );
    bad_data(
        "rules.toml",
        "witch_free = 2",
        "witch_free = -101",
        &["rules.toml:8:", "trial_despair.witch_free = -101"],
    );
}

/// The end of the game adds the set Despair and the points in wide
/// integers: numbers set in code beyond the file's bounds still give the
/// right side (two Death sets of 20000 each: D far above the threshold).
#[test]
fn the_final_sums_do_not_overflow() {
    let mut d = Data::sample();
    d.rules.death_set = 20_000;
    d.rules.matching_building = 20_000;
    let t = Table::new(&d, 3).unwrap();
    let mut g = Game::new();
    T::position(&mut g, &t, &[W1, P1, P2], 0);
    for x in [D1, D2, D3, D1, D2, D3] {
        T::put(&mut g, &t, 0, x, 0, 0);
    }
    let o = T::finish(&mut g, &t, &mut NoLog);
    assert_eq!(o.side, Some(Team::Witch));
    assert_eq!(o.despair, i16::MAX, "40002 clamped");
    // W1 (commerce, death): 6 matching buildings of 20000, clamped.
    assert_eq!((o.points[0], o.winners), (i16::MAX, 0b001));
}

/// An event that adds Despair to everybody, launched at every forced
/// launch (everything costs 0) up to a launch cap of 100, puts more than
/// 32767 Despair cubes in play over a game at 8 players: the count used to
/// overflow (a panic, `salem sim` exit 101). It is now counted wide, the
/// invariants hold at every step, and D is clamped into the outcome.
#[test]
fn despair_beyond_an_i16_is_counted() {
    use domsim::new_salem::data;
    let events = r#"events = [
  { id = "plague", name = "Plague", cost = 0, red_border = true, start_face_up = true, effect = "add_despair", who = "all", n = 20 },
  { id = "trial", name = "Trial", cost = 0, red_border = true, start_face_up = true, give_take = "give", effect = "put_on_trial", who = "target" },
]"#;
    let rules = data::SAMPLE_RULES.replace("launch_cap = 20 ", "launch_cap = 100 ");
    let d = Data::parse(
        [
            ("rules.toml", &rules),
            ("buildings.csv", data::SAMPLE_BUILDINGS),
            ("events.toml", events),
            ("characters.toml", data::SAMPLE_CHARACTERS),
        ],
        "test",
    )
    .unwrap();
    let t = Table::new(&d, 8).unwrap();
    let b = bot::compile("p.salem", "[all]\nlaunch = [\"plague\"]\n", &d).unwrap();
    let mut g = Game::new();
    g.reset(&t, GameRng::for_game(1, 0));
    let o = g.play(&t, &mut Seated { seats: [&b; 8] }, &mut Checked);
    // 5 rounds x 100 launches x 20 cubes x 8 players, less what the
    // buildings' remove icons took.
    assert!(T::despair(&g) == i16::MAX && o.cubes == i16::MAX, "{o:?}");
    assert_eq!(o.despair, i16::MAX);
    assert_eq!(o.side.unwrap_or(Team::Witch), Team::Witch);
}

/// buildings.csv errors name the line the row is on, also after comment
/// and empty lines: the reader's position is where it started reading, so
/// a bad header under the sample's comment line was said to be on line 1
/// (line 3 before that), and a bad row under two comments and an empty
/// line was said to be on the first of them.
#[test]
fn csv_errors_count_comment_and_empty_lines() {
    bad_data(
        "buildings.csv",
        "id,name,category",
        "id,nam,category",
        &["buildings.csv:2: header column 2 is \"nam\", expected \"name\""],
    );
    bad_data(
        "buildings.csv",
        "F1,Counting House,finance,fin_a,,,triangle,2,",
        "# finance\n\n# its three designs\nF1,Counting House,finance,fin_a,,,triangle,x,",
        &["buildings.csv:9: field hope: \"x\""],
    );
}

/// A category exists by being used in buildings.csv, so a misspelt
/// category on one row ("edducation") used to load as a new category that
/// scores for no character. A category on one row only that no character
/// names is now refused at that row, with the close name; one on two rows
/// or more, or named by a character, is still a category.
#[test]
fn a_category_on_one_row_that_no_character_names_is_refused() {
    use domsim::new_salem::data;
    bad_data(
        "buildings.csv",
        "E2,Library,education,",
        "E2,Library,edducation,",
        &[
            "buildings.csv:10: field category: \"edducation\"",
            "did you mean \"education\"",
            "no character in",
            "characters.toml",
        ],
    );
    // The field is quoted as written; a word unlike any category gets no hint.
    bad_data(
        "buildings.csv",
        "J2,Jail,justice,",
        "J2,Jail,Prison,",
        &["buildings.csv:19: field category: \"Prison\" is on this row only"],
    );
    let parse = |b: &str, c: &str| {
        Data::parse(
            [
                ("rules.toml", data::SAMPLE_RULES),
                ("buildings.csv", b),
                ("events.toml", data::SAMPLE_EVENTS),
                ("characters.toml", c),
            ],
            "test",
        )
    };
    let e = parse(
        &data::SAMPLE_BUILDINGS.replace("J2,Jail,justice,", "J2,Jail,prison,"),
        data::SAMPLE_CHARACTERS,
    )
    .unwrap_err()
    .to_string();
    assert!(!e.contains("did you mean"), "{e}");
    // On two rows: a category, though no character scores it.
    let two = data::SAMPLE_BUILDINGS
        .replace("E1,Schoolhouse,education,", "E1,Schoolhouse,harbour,")
        .replace("E2,Library,education,", "E2,Library,harbour,");
    let d = parse(&two, data::SAMPLE_CHARACTERS).unwrap();
    assert!(d.categories.iter().any(|c| c == "harbour"));
    // On one row and named by a character: a category.
    let one = data::SAMPLE_BUILDINGS.replace("E2,Library,education,", "E2,Library,harbour,");
    let chars = data::SAMPLE_CHARACTERS.replace(
        "[\"education\", \"death\"]",
        "[\"education\", \"death\", \"harbour\"]",
    );
    assert_ne!(chars, data::SAMPLE_CHARACTERS);
    let d = parse(&one, &chars).unwrap();
    assert!(d.categories.iter().any(|c| c == "harbour"));
    assert!(parse(&one, data::SAMPLE_CHARACTERS).is_err());
    // Every row of a category misspelt the same way: the characters file
    // names the right spelling, and its error says where the close
    // spelling is written, since buildings.csv is where the typo may be.
    let typo = data::SAMPLE_BUILDINGS.replace(",justice,just_a,", ",justise,just_a,");
    assert_ne!(typo, data::SAMPLE_BUILDINGS);
    let e = parse(&typo, data::SAMPLE_CHARACTERS)
        .unwrap_err()
        .to_string();
    for want in [
        "characters.toml:6:",
        "unknown category \"justice\"",
        "did you mean \"justise\"",
        "buildings.csv:18 is the first row with \"justise\": if the misspelling is there, fix it in buildings.csv",
    ] {
        assert!(e.contains(want), "expected {want:?} in: {e}");
    }
    // No close category: no row to point at.
    let e = parse(
        data::SAMPLE_BUILDINGS,
        &data::SAMPLE_CHARACTERS
            .replace("[\"justice\", \"commerce\"]", "[\"harbour\", \"commerce\"]"),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("unknown category \"harbour\"") && !e.contains("first row"),
        "{e}"
    );
}

/// §3.1: each team's pile is cut *at random*. A characters file with more
/// than 16 characters of a team loaded, but the setup copied only the
/// first 16 of each team into its pile, so the 17th and later were never
/// dealt. Every character of a 20-Witch file is now dealt; a file with more
/// Witches than the setup holds (32) is refused, naming the character.
#[test]
fn every_character_of_a_large_team_can_be_dealt() {
    use domsim::new_salem::data;
    let chars = |witches: usize| {
        let mut s = String::from("characters = [\n");
        for i in 0..witches {
            s += &format!("  {{ id = \"W{i}\", team = \"witch\", categories = [\"death\"] }},\n");
        }
        for i in 0..6 {
            s += &format!(
                "  {{ id = \"P{i}\", team = \"puritan\", categories = [\"commerce\"] }},\n"
            );
        }
        s + "]\n"
    };
    let parse = |c: &str| {
        Data::parse(
            [
                ("rules.toml", data::SAMPLE_RULES),
                ("buildings.csv", data::SAMPLE_BUILDINGS),
                ("events.toml", data::SAMPLE_EVENTS),
                ("characters.toml", c),
            ],
            "test",
        )
    };
    let d = parse(&chars(20)).unwrap();
    let t = Table::new(&d, 3).unwrap();
    let mut g = Game::new();
    let mut dealt = [0u32; 26];
    for i in 0..3000 {
        g.reset(&t, GameRng::for_game(4, i));
        for c in T::characters(&g) {
            dealt[c as usize] += 1;
        }
    }
    assert!(dealt.iter().all(|&k| k > 0), "never dealt: {dealt:?}");
    let e = parse(&chars(33)).unwrap_err().to_string();
    assert!(
        e.contains("characters.toml:34:")
            && e.contains("character \"W32\": more than 32 Witch characters"),
        "{e}"
    );
}

// ------------------------------------------------------------ audit 3: the worked examples as the rulebook tells them

/// §4.4 worked example, at the rulebook's table (players 1, 2, 3): the
/// Constable P1 has 3 Hope and Trial costs 4; P3 gives P1 one Hope; P1
/// puts P2 on Trial and hands the token to P3, the only player with no
/// badge and not on Trial; P3 takes a badge and a Hope; everyone else now
/// holds a badge (P1) or is on Trial (P2), so P1 returns their badge.
#[test]
fn example_launch_as_in_the_rulebook_three_players() {
    let t = table(3);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3], 0);
    T::put(&mut g, &t, 0, C3, 3, 0);
    T::put(&mut g, &t, 1, C1, 0, 0);
    T::put(&mut g, &t, 2, C1, 1, 0);
    T::set_display(&mut g, 1 << TRIAL | 1 << PURIFICATION);
    let mut s = Script {
        gift: Some((2, 0, 1)),
        launches: vec![Some(TRIAL)],
        target: 1,
        next: 2,
        ..Script::default()
    };
    T::launch_phase(&mut g, &t, &mut s, &mut NoLog);
    assert_eq!(s.asked_targets, vec![0b110], "Trial may name P2 or P3");
    assert_eq!(s.asked_next, vec![0b100], "only P3 may take the token");
    assert_eq!(T::on_trial(&g), 0b010);
    assert_eq!((T::constable(&g), T::badges(&g)), (2, 0b100));
    // P1: 3 + 1 - 4; P3: 1 - 1 + 1.
    assert_eq!([0, 1, 2].map(|p| T::hope(&g, p)), [0, 0, 1]);
    assert_eq!(T::display(&g), 1 << TRIAL | 1 << PURIFICATION);
}

/// §5.2 worked example as the rulebook tells it: player 1 has no Death or
/// Justice set, player 2 a Justice set (-3), players 3 and 4 a Death set
/// each (+3 each): net +3.
#[test]
fn example_sets_as_in_the_rulebook() {
    let t = table(4);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3, P4], 0);
    for d in [C1, C2, D1, J1] {
        T::put(&mut g, &t, 0, d, 0, 0);
    }
    for d in [J1, J2, J3] {
        T::put(&mut g, &t, 1, d, 0, 0);
    }
    for s in [2, 3] {
        for d in [D3, D1, D2] {
            T::put(&mut g, &t, s, d, 0, 0);
        }
    }
    let o = T::finish(&mut g, &t, &mut NoLog);
    assert_eq!((o.cubes, o.despair), (0, 3));
}

/// §5.3 worked example: 5 Despair at 4 players is below 8, so the Puritan
/// with the most points wins; players 1 and 2 (the Witches) cannot win,
/// even with more points. (W1 on Trial -2 and W2 free +2 leave the 5
/// cubes at D = 5.)
#[test]
fn example_check_as_in_the_rulebook() {
    let t = table(4);
    let mut g = Game::new();
    T::position(&mut g, &t, &[W1, W2, P1, P2], 0);
    // W1 (commerce, death): a Commerce set, 5 points if the Witches won.
    T::put(&mut g, &t, 0, C1, 0, 2);
    T::put(&mut g, &t, 0, C2, 0, 2);
    T::put(&mut g, &t, 0, C3, 0, 1);
    // P1 (commerce, finance): 1 point; P2 (education, entertainment): 2.
    T::put(&mut g, &t, 2, F1, 0, 0);
    T::put(&mut g, &t, 3, E1, 0, 0);
    T::put(&mut g, &t, 3, E3, 0, 0);
    T::set_on_trial(&mut g, 0b0001);
    let o = T::finish(&mut g, &t, &mut NoLog);
    assert_eq!((o.cubes, o.despair), (5, 5));
    assert_eq!(o.side, Some(Team::Puritan));
    assert_eq!(
        &o.points[..4],
        &[0, 0, 1, 2],
        "only the winning side scores"
    );
    assert_eq!(o.winners, 0b1000, "player 4, a Puritan");
}

/// §5.4 worked example as the rulebook tells it. Player 3 (Commerce and
/// Finance): a matching Commerce set 2 + 3, one Finance 1, an off-category
/// Death set 2: 8. Player 4 (Entertainment and Finance): an off-category
/// Education set 2, three matching Entertainment and Finance buildings 3, a
/// Death set 2: 7. Player 3 wins. (No sample Puritan has Entertainment
/// and Finance: P2's categories are changed for the test.)
#[test]
fn example_points_as_in_the_rulebook() {
    let mut d = Data::sample();
    let cat = |n: &str| 1u16 << d.category_index(n).unwrap();
    d.characters[P2 as usize].categories = cat("entertainment") | cat("finance");
    let t = Table::new(&d, 4).unwrap();
    let (n1, n3) = (9, 11); // Tavern, Fairground (Entertainment)
    let mut g = Game::new();
    T::position(&mut g, &t, &[P3, P4, P1, P2], 0);
    for x in [C1, C2, C3, F1, D1, D2, D3] {
        T::put(&mut g, &t, 2, x, 0, 0);
    }
    for x in [E1, E2, E3, n1, n3, F2, D1, D2, D3] {
        T::put(&mut g, &t, 3, x, 0, 0);
    }
    let o = T::finish(&mut g, &t, &mut NoLog);
    // Two Death sets: D = 6 < 8.
    assert_eq!((o.despair, o.side), (6, Some(Team::Puritan)));
    assert_eq!(&o.points[..4], &[0, 0, 8, 7]);
    assert_eq!(o.winners, 0b0100);
}

// ------------------------------------------------------------ audit 3: setup

/// The hypergeometric chance of `k` Witches among `n` cards dealt from `w`
/// Witches and `p` Puritans.
fn hypergeometric(w: u64, p: u64, n: u64, k: u64) -> f64 {
    let c = |a: u64, b: u64| -> f64 {
        if b > a {
            return 0.0;
        }
        (0..b).fold(1.0, |x, i| x * (a - i) as f64 / (i + 1) as f64)
    };
    if k > n {
        return 0.0;
    }
    c(w, k) * c(p, n - k) / c(w + p, n)
}

/// §3: at every player count, the character deck is each team's pile cut
/// to the table's count (2/4, 2/4, 2/4, 2/5, 3/6, 3/6), shuffled together,
/// one card dealt to each player: the number of Witches dealt follows the
/// hypergeometric law (0 Witches is possible at 3, 4, 5 and 7 players, not
/// at 6 or 8: the 6-player example's 2 Witches and 5 Puritans for 6 seats).
/// The filter leaves Ill Omen (number 4) out at 3 players; Trial and
/// Purification start face up; the first Constable holds the only badge and
/// no Hope; the deck holds 54 buildings plus 18 per extra player.
#[test]
fn setup_at_every_player_count() {
    let d = Data::sample();
    let games = 4000u64;
    for p in 3..=8usize {
        let t = Table::new(&d, p).unwrap();
        let (w, pu) = (
            d.rules.witch_cards[p] as u64,
            d.rules.puritan_cards[p] as u64,
        );
        let mut hist = [0u64; 9];
        let mut constables = 0u8;
        let mut g = Game::new();
        for i in 0..games {
            g.reset(&t, GameRng::for_game(17, i));
            let chars = T::characters(&g);
            let mut seen = chars.clone();
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len(), p, "a character dealt twice");
            let k = chars.iter().filter(|&&c| c < 4).count();
            hist[k] += 1;
            let c = T::constable(&g);
            constables |= 1 << c;
            assert_eq!(T::badges(&g), 1 << c);
            assert!((0..p as u8).all(|s| T::hope(&g, s) == 0 && T::tableau(&g, s).is_empty()));
            assert_eq!(T::deck(&g).len(), 54 + 18 * (p - 3));
            assert_eq!(T::display(&g), 1 << TRIAL | 1 << PURIFICATION);
            let events = T::event_deck(&g);
            // 24 events, 2 face up, the rest numbered 3 to 8.
            assert_eq!(events.len(), [9, 12, 15, 17, 19, 22][p - 3], "{p} players");
            assert_eq!(events.contains(&OMEN), p >= 4);
        }
        assert_eq!(
            constables,
            ((1u16 << p) - 1) as u8,
            "every seat starts as Constable"
        );
        for (k, &n) in hist.iter().enumerate().take(p + 1) {
            let want = hypergeometric(w, pu, p as u64, k as u64);
            let got = n as f64 / games as f64;
            assert!(
                (got - want).abs() < 0.03,
                "{p} players, {k} Witches: {got:.3}, expected {want:.3}"
            );
        }
    }
}

// ------------------------------------------------------------ audit 3: rules without a test

/// §5.2: the sets of players on Trial count too (a Puritan on Trial with a
/// Death set: +2 and +3). §7 default: D is signed, not clamped (a Justice
/// set and a Witch on Trial take it below zero), unless `clamp_despair`.
#[test]
fn sets_count_on_trial_and_despair_is_signed() {
    let t = table(3);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3], 0);
    for d in [D1, D2, D3] {
        T::put(&mut g, &t, 1, d, 0, 0);
    }
    T::set_on_trial(&mut g, 0b010);
    let o = T::finish(&mut g, &t, &mut NoLog);
    assert_eq!(o.despair, 2 + 3);

    let run = |t: &Table| {
        let mut g = Game::new();
        T::position(&mut g, t, &[W1, P1, P2], 0);
        for d in [J1, J2, J3] {
            T::put(&mut g, t, 1, d, 0, 0);
        }
        T::put(&mut g, t, 2, C1, 0, 1);
        T::set_on_trial(&mut g, 0b001);
        T::finish(&mut g, t, &mut NoLog)
    };
    let o = run(&t);
    assert_eq!(
        (o.cubes, o.despair, o.side),
        (1, 1 - 2 - 3, Some(Team::Puritan))
    );
    let mut d = Data::sample();
    d.rules.options.set("clamp_despair", "true").unwrap();
    assert_eq!(run(&Table::new(&d, 3).unwrap()).despair, 0);
}

/// §4.4: when forced, the Constable launches *any* event, not necessarily
/// the costliest; below the costliest event's cost, they may launch an
/// affordable one or stop, and an unaffordable choice ends the phase.
#[test]
fn forced_launch_is_any_event_and_below_the_costliest_the_constable_may_stop() {
    let t = table(4);
    let setup = |hope: u16| {
        let mut g = Game::new();
        T::position(&mut g, &t, &[P1, P2, P3, P4], 0);
        T::put(&mut g, &t, 0, C3, hope, 0);
        T::put(&mut g, &t, 1, D1, 0, 2);
        for s in 2..4 {
            T::put(&mut g, &t, s, C1, 0, 0);
        }
        T::set_display(&mut g, 1 << TRIAL | 1 << PURIFICATION | 1 << SERMON);
        T::set_event_deck(&mut g, &[FIRE]);
        g
    };
    // 4 Hope = Trial's cost: forced; the Constable chooses Sermon (2).
    let mut g = setup(4);
    let mut s = Script {
        launches: vec![Some(SERMON)],
        next: 1,
        ..Script::default()
    };
    T::launch_phase(&mut g, &t, &mut s, &mut NoLog);
    assert_eq!(T::despair(&g), 1, "Sermon removed one");
    assert_eq!(T::hope(&g, 0), 2);
    assert_eq!(T::display(&g), 1 << TRIAL | 1 << PURIFICATION | 1 << FIRE);
    assert_eq!(T::constable(&g), 1);
    let o = T::finish(&mut g, &t, &mut NoLog);
    assert_eq!((o.launches[0], o.forced[0]), (1, 1));
    // 3 Hope < 4: not forced. Stopping launches nothing.
    for choice in [None, Some(TRIAL), Some(INQUIRY)] {
        let mut g = setup(3);
        let mut s = Script {
            launches: vec![choice],
            ..Script::default()
        };
        T::launch_phase(&mut g, &t, &mut s, &mut NoLog);
        assert_eq!((T::hope(&g, 0), T::constable(&g)), (3, 0), "{choice:?}");
        assert_eq!(T::on_trial(&g), 0);
        assert_eq!(T::finish(&mut g, &t, &mut NoLog).launches[0], 0);
    }
    // 3 Hope: Purification is affordable and may be launched.
    let mut g = setup(3);
    let mut s = Script {
        launches: vec![Some(PURIFICATION)],
        next: 2,
        ..Script::default()
    };
    T::launch_phase(&mut g, &t, &mut s, &mut NoLog);
    assert_eq!(
        (T::despair(&g), T::hope(&g, 0), T::constable(&g)),
        (0, 0, 2)
    );
    let o = T::finish(&mut g, &t, &mut NoLog);
    assert_eq!((o.launches[0], o.forced[0]), (1, 0));
}

/// §4.4: Trial never names a player already on Trial. M is the cost of the
/// costliest *face-up* event even when it cannot be launched: with every
/// other player on Trial, a Constable with 4 Hope must still launch, and
/// Purification goes. §4.2: each remove icon of an event takes one cube;
/// with none left in play, the second is lost.
#[test]
fn trial_skips_players_on_trial_and_the_costliest_event_forces_even_unlaunchable() {
    let t = table(4);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3, P4], 0);
    T::put(&mut g, &t, 0, C3, 8, 0);
    T::put(&mut g, &t, 1, D1, 0, 1);
    T::put(&mut g, &t, 2, C1, 0, 0);
    T::put(&mut g, &t, 3, C1, 0, 0);
    T::set_on_trial(&mut g, 0b0100);
    T::set_display(&mut g, 1 << TRIAL | 1 << PURIFICATION);
    let mut s = Script {
        launches: vec![Some(TRIAL)],
        target: 2,
        next: 1,
        ..Script::default()
    };
    T::launch_phase(&mut g, &t, &mut s, &mut NoLog);
    // P3 (on Trial) could not be named: the engine named the first eligible.
    assert_eq!(s.asked_targets, vec![0b1010]);
    assert_eq!(T::on_trial(&g), 0b0110);
    // Only P4 has no badge and is not on Trial: the asked-for P2 is refused.
    assert_eq!(s.asked_next, vec![0b1000]);
    assert_eq!(T::constable(&g), 3);

    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3, P4], 0);
    T::put(&mut g, &t, 0, C3, 4, 0);
    T::put(&mut g, &t, 1, D1, 0, 1);
    T::put(&mut g, &t, 2, C1, 0, 0);
    T::put(&mut g, &t, 3, C1, 0, 0);
    T::set_on_trial(&mut g, 0b1110);
    T::set_display(&mut g, 1 << TRIAL | 1 << PURIFICATION);
    let mut s = Script::default(); // declines every launch
    T::launch_phase(&mut g, &t, &mut s, &mut NoLog);
    assert!(s.asked_targets.is_empty(), "Trial was not launchable");
    assert_eq!(
        T::despair(&g),
        0,
        "Purification took the one cube; its second icon is lost"
    );
    assert_eq!(T::hope(&g, 0), 1);
    assert_eq!(T::constable(&g), 0, "nobody may take the token");
    let o = T::finish(&mut g, &t, &mut NoLog);
    assert_eq!((o.launches[0], o.forced[0]), (1, 1));
}

/// §4.4: the Constable may receive Hope but never give it: a gift the
/// Constable would make is never asked for.
#[test]
fn the_constable_never_gives_hope() {
    let t = table(3);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3], 0);
    T::put(&mut g, &t, 0, C3, 2, 0);
    T::put(&mut g, &t, 1, C1, 0, 0);
    T::put(&mut g, &t, 2, C1, 0, 0);
    T::set_display(&mut g, 1 << TRIAL | 1 << PURIFICATION);
    let mut s = Script {
        gift: Some((0, 1, 2)),
        ..Script::default()
    };
    T::launch_phase(&mut g, &t, &mut s, &mut NoLog);
    assert_eq!([0, 1, 2].map(|p| T::hope(&g, p)), [2, 0, 0]);
    assert_eq!(s.gift, Some((0, 1, 2)), "never asked");
}

/// §4.2 with `despair_per_icon = 2`: each add-Despair icon puts 2 cubes.
#[test]
fn despair_per_icon_option_puts_that_many_cubes() {
    let mut d = Data::sample();
    d.rules.options.set("despair_per_icon", "2").unwrap();
    let t = Table::new(&d, 3).unwrap();
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3], 0);
    T::reveal(&mut g, &t, &[Some(D1), Some(C3), Some(E2)]);
    // Cemetery 2, Wharf 2 (2 Hope); then Library's remove takes one from
    // the most loaded building, scanning from its owner P3's left: Cemetery.
    assert_eq!(T::tableau(&g, 0), vec![bld(D1, 0, 1)]);
    assert_eq!(T::tableau(&g, 1), vec![bld(C3, 2, 2)]);
    assert_eq!(T::despair(&g), 3);
}

/// §7 default "running out of cards: stop dealing", and what follows (see
/// docs): the seats dealt in turn get full hands until the deck is empty;
/// a player holding 2 cards or fewer makes no pick, but every hand still
/// passes left; a player left with 1 card keeps it. 3 players, round 1,
/// 7 cards: seats 0 and 1 get 3, seat 2 gets 1.
#[test]
fn running_out_of_buildings_stops_the_deal() {
    let t = table(3);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3], 0);
    T::set_round(&mut g, 0);
    T::set_deck(&mut g, &[C1, C2, C3, F1, F2, F3, E1]);
    T::set_display(&mut g, 0);
    T::set_event_deck(&mut g, &[]);
    let mut log = Steps::default();
    T::round(&mut g, &t, &mut Script::default(), &mut log);
    // Seat 0 picked C1, got seat 2's single E1 and kept it; seat 1 picked
    // F1, got [C2 C3], kept C2; seat 2 got [F2 F3], kept F2.
    assert_eq!(designs(&g, 0), vec![C1, E1]);
    assert_eq!(designs(&g, 1), vec![F1, C2]);
    assert_eq!(designs(&g, 2), vec![F2]);
    assert_eq!(log.decks[1], vec![C3, F3]);
    assert_eq!([0, 1, 2].map(|s| T::drafted(&g, s)), [2, 2, 1]);
}

/// §7 default for blind draws (seat order, both cards under the deck
/// before drawing): with the deck empty, a blind draw takes back the first
/// of one's own two discards, and the next blind player draws from under
/// the first player's discards.
#[test]
fn blind_draws_go_in_seat_order_each_discarding_before_drawing() {
    let t = table(3);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3], 0);
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
    // Seat 0 held [E2 E3]: both under an empty deck, draws E2 back. Seat 1
    // held [C2 C3]: deck [E3 C2 C3], draws E3. Seat 2 keeps F3 of [F2 F3].
    assert_eq!(designs(&g, 0), vec![C1, E2]);
    assert_eq!(designs(&g, 1), vec![F1, E3]);
    assert_eq!(designs(&g, 2), vec![E1, F3]);
    assert_eq!(log.decks[1], vec![C2, C3, F2]);
}

/// Interpretation (docs): an effect that names one player (Town Charter's
/// gain_hope, who = target) may name the launcher; a "give" card then goes
/// to the launcher.
#[test]
fn a_give_card_may_name_the_launcher() {
    let t = table(4);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3, P4], 0);
    T::put(&mut g, &t, 0, C3, 1, 0);
    for s in 1..4 {
        T::put(&mut g, &t, s, C1, 0, 0);
    }
    T::set_display(&mut g, 1 << CHARTER);
    T::set_event_deck(&mut g, &[SERMON]);
    let mut s = Script {
        launches: vec![Some(CHARTER)],
        target: 0,
        next: 1,
        ..Script::default()
    };
    T::launch_phase(&mut g, &t, &mut s, &mut NoLog);
    assert_eq!(s.asked_targets, vec![0b1111]);
    assert_eq!(T::hope(&g, 0), 2, "1 - 1 + 2");
    assert_eq!(T::held(&g, 0), 1 << CHARTER);
    assert_eq!(T::display(&g), 1 << SERMON);
}

/// Interpretation (docs): a plain card launched with the event deck empty
/// goes under the empty deck and is at once turned face up again, the
/// text's order (under the deck, then turn the top one) read literally.
#[test]
fn a_plain_card_launched_with_the_event_deck_empty_comes_back_face_up() {
    let t = table(3);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3], 0);
    T::put(&mut g, &t, 0, C3, 2, 0);
    T::put(&mut g, &t, 1, D1, 0, 2);
    T::put(&mut g, &t, 2, C1, 0, 0);
    T::set_display(&mut g, 1 << SERMON);
    T::set_event_deck(&mut g, &[]);
    let mut s = Script {
        launches: vec![Some(SERMON)],
        next: 1,
        ..Script::default()
    };
    T::launch_phase(&mut g, &t, &mut s, &mut NoLog);
    assert_eq!(T::despair(&g), 1);
    assert_eq!(T::display(&g), 1 << SERMON);
    assert!(T::event_deck(&g).is_empty());
    assert_eq!(T::constable(&g), 1);
}

/// A bad `[suspicion]` weight is reported on its own line and column with
/// its value; it was reported at the `[suspicion]` header without the value.
#[test]
fn bad_suspicion_weights_name_their_line_and_value() {
    bad_bot(
        "name = \"x\"\n\n[suspicion]\ndespair_add = 2\n  hope = 1e9\n",
        &[
            "b.salem:5:3:",
            "[suspicion]: hope = 1000000000.0 must be a whole number from -100 to 100",
        ],
    );
    bad_bot(
        "[suspicion]\ndespair_add = 2\ndespair = 1\n",
        &["b.salem:3:1:", "unknown weight \"despair\""],
    );
}

/// Hidden information, at the level of decisions: every shipped bot, in
/// seat 0 as a Puritan and as a Witch, answers every decision the same in two games that differ only
/// in what seat 0 may not know (the other players' characters, their
/// hands, the order of the building and event decks).
#[test]
fn shipped_bots_decide_the_same_whatever_they_cannot_see() {
    let d = Data::sample();
    let t = Table::new(&d, 4).unwrap();
    let bots = bot::shipped(&d).unwrap();
    let game = |me: u8, others: [u8; 3], hands: [&[u8]; 3], deck: &[u8], events: &[u8], c: u8| {
        let mut g = Game::new();
        T::position(&mut g, &t, &[me, others[0], others[1], others[2]], c);
        for (s, row) in [
            &[C1, C2, D1][..],
            &[D2, D3, E2][..],
            &[F1, J1, C3][..],
            &[E1, D1][..],
        ]
        .into_iter()
        .enumerate()
        {
            for (i, &x) in row.iter().enumerate() {
                T::put(&mut g, &t, s as u8, x, i as u16 + 1, (x == D1) as u16 * 2);
            }
        }
        T::set_hand(&mut g, 0, &[J2, D2, E3]);
        for (s, h) in hands.into_iter().enumerate() {
            T::set_hand(&mut g, s as u8 + 1, h);
        }
        T::set_deck(&mut g, deck);
        T::set_event_deck(&mut g, events);
        T::set_display(&mut g, 1 << TRIAL | 1 << PURIFICATION | 1 << LAND_GRANT);
        T::set_round(&mut g, 2);
        g
    };
    let a = |me, c| {
        game(
            me,
            [W1, P2, P3],
            [&[C1, C2, C3], &[F1], &[]],
            &[D1, D2, J3],
            &[SERMON, FIRE],
            c,
        )
    };
    let b = |me, c| {
        game(
            me,
            [P3, W2, P4],
            [&[J1, J2, J3], &[], &[E1, E2]],
            &[J3, D2, D1],
            &[FIRE, SERMON],
            c,
        )
    };
    // Seat 0 a Puritan (P6), then a Witch (W3).
    for (me, bt) in [9u8, 2]
        .into_iter()
        .flat_map(|m| bots.iter().map(move |b| (m, b)))
    {
        let (a0, b0, a1, b1) = (a(me, 0), b(me, 0), a(me, 1), b(me, 1));
        let mut s = Seated { seats: [bt; 8] };
        let answers = |g: &Game, s: &mut Seated| {
            let v = T::view(g, &t, 0);
            (
                s.pick(&v),
                s.keep(&v),
                s.launch(&v, 1 << TRIAL | 1 << PURIFICATION | 1 << LAND_GRANT, false),
                s.launch(&v, 1 << PURIFICATION | 1 << LAND_GRANT, true),
                s.target(&v, TRIAL, 0b1110),
                s.target(&v, LAND_GRANT, 0b1110),
                s.building(&v, LAND_GRANT, 2),
                s.next_constable(&v, 0b1110),
            )
        };
        assert_eq!(answers(&a0, &mut s), answers(&b0, &mut s), "{}", bt.name);
        // And as a giver, with P2 the Constable.
        let gift = |g: &Game, s: &mut Seated| s.gift(&T::view(g, &t, 0));
        assert_eq!(gift(&a1, &mut s), gift(&b1, &mut s), "{}", bt.name);
    }
}

/// Rounds that keep more buildings than a row holds (32) are refused: 8
/// rounds of 8 dealt, 7 kept, loaded for 3 players (with enough copies),
/// and then every building past the 32nd went silently under the deck.
#[test]
fn rounds_keeping_more_than_a_row_holds_are_refused() {
    bad_data(
        "rules.toml",
        "dealt_per_round   = [3, 4, 5, 4, 3]\nkept_per_round    = [2, 3, 4, 3, 2]",
        "dealt_per_round   = [8, 8, 8, 8, 8]\nkept_per_round    = [7, 7, 7, 7, 7]",
        &[
            "rules.toml:7:",
            "kept_per_round keeps 35 buildings per player over the game; a player's row holds at most 32",
        ],
    );
}
