//! New Salem's deducing bots (issue 44): the evidence the engine keeps,
//! the information boundary of what a bot may see of it, the Bayesian
//! update, the learned likelihoods, and the playtester's toolkit (rule
//! grid, per-building statistics, the paired A/B).

use domsim::new_salem::bot::{self, Seated};
use domsim::new_salem::data::Data;
use domsim::new_salem::engine::{ev, testing as T, Bots, Game, Keep, NoLog, Table, View};
use domsim::new_salem::sim::{self as ssim, SalemMatch};
use domsim::new_salem::{belief, toolkit};
use domsim::sim::{run_match, Match, RunConfig};
use std::sync::atomic::AtomicBool;

const C1: u8 = 0;
const C2: u8 = 1;
const C3: u8 = 2; // Wharf: one add-Despair icon
const F1: u8 = 3;
const F2: u8 = 4;
const F3: u8 = 5; // Mint: one add-Despair icon
const E1: u8 = 6;
const E2: u8 = 7;
const E3: u8 = 8;
const D1: u8 = 12;
const P1: u8 = 4;
const P2: u8 = 5;
const P3: u8 = 6;
const P4: u8 = 7;
const TRIAL: u8 = 0;
const PURIFICATION: u8 = 1;

fn deducer(d: &Data) -> bot::SalemBot {
    bot::SHIPPED
        .iter()
        .find(|b| b.0 == "deducer.salem")
        .map(|b| bot::compile("deducer.salem", b.1, d).unwrap())
        .unwrap()
}

struct First;
impl Bots for First {
    fn pick(&mut self, _: &View) -> usize {
        0
    }
    fn keep(&mut self, _: &View) -> Keep {
        Keep::Card(0)
    }
    fn gift(&mut self, _: &View) -> Option<(u8, u16)> {
        None
    }
    fn launch(&mut self, _: &View, _: u64, _: bool) -> Option<u8> {
        None
    }
    fn target(&mut self, _: &View, _: u8, e: u8) -> u8 {
        e.trailing_zeros() as u8
    }
    fn building(&mut self, _: &View, _: u8, _: u8) -> usize {
        0
    }
    fn next_constable(&mut self, _: &View, e: u8) -> u8 {
        e.trailing_zeros() as u8
    }
}

/// One draft round of 3 players, each picking its first card: seat 0
/// holds [C1 C2 C3], picks C1 (clean) and passes C2 and Wharf (Despair)
/// to seat 1. The public counts show every pick; the pass shows only to
/// seat 1, seat 0's left neighbour.
#[test]
fn the_engine_counts_evidence_and_a_pass_shows_only_to_the_left_neighbour() {
    let t = Table::new(&Data::sample(), 3).unwrap();
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3], 0);
    T::set_round(&mut g, 0);
    T::set_deck(&mut g, &[C1, C2, C3, F1, F2, F3, E1, E2, E3]);
    T::set_display(&mut g, 0);
    T::set_event_deck(&mut g, &[]);
    T::round(&mut g, &t, &mut First, &mut NoLog);
    // Seat 0: picked C1, kept E2 of [E2 E3]; seat 1: F1, then C2 of [C2 C3];
    // seat 2: E1, then F2 of [F2 F3].
    let e = T::view(&g, &t, 2).evidence(0);
    assert_eq!((e[ev::PICKS], e[ev::ADD], e[ev::DISCARDS]), (2, 0, 1));
    assert_eq!(&e[ev::PUBLIC..], &[0, 0, 0], "seat 2 is not seat 0's left");
    let e = T::view(&g, &t, 1).evidence(0);
    assert_eq!(&e[ev::PUBLIC..], &[1, 0, 1], "picked cleaner than Wharf");
    // Seat 2 saw seat 1 pass [F2 F3] after picking F1: cleaner than Mint.
    assert_eq!(&T::view(&g, &t, 2).evidence(1)[ev::PUBLIC..], &[1, 0, 1]);
    // Nobody sees their own passes as evidence about themselves.
    assert_eq!(&T::view(&g, &t, 0).evidence(0)[ev::PUBLIC..], &[0, 0, 0]);
    // The omniscient count (for learning) holds the pass too.
    assert_eq!(&g.evidence(0)[ev::PUBLIC..], &[1, 0, 1]);
}

/// Choices from round 4 on count in the late kinds, not the early ones:
/// a round-4 draft of 3 players each picking its first card. Seat 0 holds
/// [Wharf C1 C2 F1], picks Wharf (add-Despair), then E1 of what seat 2
/// passed, and keeps F2; seat 1 picks Mint (add-Despair), C1, keeps E3;
/// seat 2 picks Library (remove-Despair), F1, keeps C2.
#[test]
fn choices_from_round_4_count_as_late_evidence() {
    let t = Table::new(&Data::sample(), 3).unwrap();
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3], 0);
    T::set_round(&mut g, ev::LATE_ROUND);
    T::set_deck(&mut g, &[C3, C1, C2, F1, F3, F1, F2, C1, E2, E1, E3, C2]);
    T::set_display(&mut g, 0);
    T::set_event_deck(&mut g, &[]);
    T::round(&mut g, &t, &mut First, &mut NoLog);
    let late = |s: u8| {
        let e = T::view(&g, &t, 0).evidence(s);
        assert_eq!(e[ev::PICKS..=ev::JUSTICE], [0; 5], "seat {s}: early kinds");
        let k = &e[ev::LATE_PICKS..=ev::LATE_JUSTICE];
        [k[0], k[1], k[2], k[3], k[4]]
    };
    assert_eq!(late(0), [3, 1, 0, 0, 0]);
    assert_eq!(late(1), [3, 1, 0, 0, 0]);
    assert_eq!(late(2), [3, 0, 1, 0, 0]);
    // Round 3 is still early.
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3], 0);
    T::set_round(&mut g, ev::LATE_ROUND - 1);
    T::set_deck(
        &mut g,
        &[C3, C1, C2, C1, F3, F1, F2, F1, E2, E1, E3, E1, C1, C2, C3],
    );
    T::set_display(&mut g, 0);
    T::set_event_deck(&mut g, &[]);
    T::round(&mut g, &t, &mut First, &mut NoLog);
    let e = T::view(&g, &t, 1).evidence(0);
    assert_eq!((e[ev::PICKS], e[ev::ADD], e[ev::LATE_PICKS]), (4, 1, 0));
}

/// The belief weighs the two phases of a player's drafts by their own
/// rates: with add-Despair drafts rarer for a Witch early (one that hides)
/// and commoner late, three early add-Despair choices of six lower the
/// chance that a player is a Witch, three late ones of three raise it.
#[test]
fn belief_weighs_early_and_late_drafts_apart() {
    let d = Data::sample();
    let t = Table::new(&d, 5).unwrap();
    let mut rates = [(0.5f32, 0.5f32); bot::KINDS];
    let name = |n: &str| bot::EVIDENCE.iter().position(|e| e.name == n).unwrap();
    rates[name("add_despair")] = (0.1, 0.3);
    rates[name("late_add_despair")] = (0.8, 0.3);
    let b = bot::Belief::from_rates(&rates);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3, P4, 8], 0);
    T::set_evidence(&mut g, 1, ev::PICKS, 6);
    T::set_evidence(&mut g, 1, ev::ADD, 3);
    T::set_evidence(&mut g, 2, ev::LATE_PICKS, 3);
    T::set_evidence(&mut g, 2, ev::LATE_ADD, 3);
    let v = T::view(&g, &t, 0);
    let seen = bot::Belief::seen(&v);
    let prior = seen.prior;
    let (early, late) = (b.log_odds(&v, 1, &seen), b.log_odds(&v, 2, &seen));
    // 3 × ln(0.1/0.3) + 3 × ln(0.9/0.7) below the prior; 3 × ln(0.8/0.3) above.
    let want_early = prior + 3.0 * (0.1f32 / 0.3).ln() + 3.0 * (0.9f32 / 0.7).ln();
    let want_late = prior + 3.0 * (0.8f32 / 0.3).ln();
    assert!((early - want_early).abs() < 1e-4, "{early} {want_early}");
    assert!((late - want_late).abs() < 1e-4, "{late} {want_late}");
    assert!(early < prior && late > prior);
}

/// The deducing bots find the Witches: over a fixed sample (1,000 games
/// at each of 5 and 8 players, seed 2026, `deducer` and `sly_witch`, their
/// field learned first as `salem sim` does), the Trials a Puritan launched
/// hit a Witch clearly more often than naming at random among the players
/// each Trial could name. Deterministic: the same games every run.
/// The least margin, in hit rate: before the draft evidence was split by
/// round and the deducers stopped trying on forced launches, the margin
/// was 2–5 points (results/NEW_SALEM.md).
const MARGIN: f64 = 0.08;

#[test]
fn deducing_puritans_trials_hit_witches_above_chance() {
    let d = Data::sample();
    let mut bots: Vec<bot::SalemBot> = ["deducer.salem", "sly_witch.salem"]
        .iter()
        .map(|n| {
            let (f, x) = bot::SHIPPED.iter().find(|b| b.0 == *n).unwrap();
            bot::compile(f, x, &d).unwrap()
        })
        .collect();
    belief::prepare_field(&d, &mut bots).unwrap();
    for p in [5usize, 8] {
        let t = Table::new(&d, p).unwrap();
        let m = SalemMatch {
            table: &t,
            bots: &bots,
        };
        let mut g = Game::new();
        let (mut trials, mut hits, mut chance) = (0u64, 0u64, 0u64);
        for i in 0..1000 {
            let seats = m.setup(&mut g, 2026, i);
            let o = g.play(&t, &mut m.seated(&seats), &mut NoLog);
            trials += o.puritan_trials as u64;
            hits += o.puritan_trials_on_witch as u64;
            chance += o.puritan_trial_chance as u64;
        }
        let hit = hits as f64 / trials as f64;
        let by_chance = chance as f64 / 840.0 / trials as f64;
        assert!(trials > 1000, "{p} players: {trials} Trials");
        assert!(
            hit - by_chance >= MARGIN,
            "{p} players: {hits}/{trials} = {hit:.3} against {by_chance:.3} by chance"
        );
    }
}

/// The Bayesian update: with the built-in likelihoods, a player who chose
/// add-Despair buildings is more likely a Witch than one who chose clean
/// ones, both start at the deal's prior (5 players, a Puritan: 2 Witch
/// cards among the 5 others, 40%), and a known team is 100 or 0.
#[test]
fn belief_starts_at_the_deal_and_rises_with_despair_picks() {
    let d = Data::sample();
    let t = Table::new(&d, 5).unwrap();
    let b = deducer(&d);
    let mut g = Game::new();
    T::position(&mut g, &t, &[P1, P2, P3, P4, 8], 0);
    let v = T::view(&g, &t, 0);
    assert_eq!(b.suspicion(&v, 1), 40);
    for (seat, add) in [(1u8, 4u8), (2, 0)] {
        T::set_evidence(&mut g, seat, ev::PICKS, 6);
        T::set_evidence(&mut g, seat, ev::ADD, add);
    }
    let v = T::view(&g, &t, 0);
    let (dirty, clean) = (b.suspicion(&v, 1), b.suspicion(&v, 2));
    assert!(dirty > 40 && clean < 40, "{dirty} {clean}");
    // A Witch's prior: 1 Witch card among the 5 others, 20%.
    let mut g = Game::new();
    T::position(&mut g, &t, &[0, P2, P3, P4, 8], 0);
    assert_eq!(b.suspicion(&T::view(&g, &t, 0), 1), 20);
}

/// A deducing bot decides the same in two games that differ only in what
/// its seat may not see: the other players' characters and hands, the
/// decks, and what the *other* seats saw their neighbours pass; what its
/// own right neighbour passed it changes its suspicion of that player.
#[test]
fn a_deducing_bot_sees_only_what_its_player_may_see() {
    let d = Data::sample();
    let t = Table::new(&d, 4).unwrap();
    let bots: Vec<bot::SalemBot> = bot::SHIPPED
        .iter()
        .map(|(f, x)| bot::compile(f, x, &d).unwrap())
        .collect();
    let game = |others: [u8; 3], hands: [&[u8]; 3], deck: &[u8], pass: [[u8; 3]; 4]| {
        let mut g = Game::new();
        T::position(&mut g, &t, &[P4, others[0], others[1], others[2]], 0);
        for s in 0..4u8 {
            T::put(&mut g, &t, s, C1, 2, 0);
            T::put(&mut g, &t, s, D1, 0, 1);
            T::set_evidence(&mut g, s, ev::PICKS, 5);
            T::set_evidence(&mut g, s, ev::ADD, s);
            T::set_pass_evidence(&mut g, s, pass[s as usize]);
        }
        T::set_hand(&mut g, 0, &[C2, C3, E3]);
        for (s, h) in hands.into_iter().enumerate() {
            T::set_hand(&mut g, s as u8 + 1, h);
        }
        T::set_deck(&mut g, deck);
        T::set_display(&mut g, 1 << TRIAL | 1 << PURIFICATION);
        T::set_round(&mut g, 2);
        g
    };
    let a = game(
        [0, P2, P3],
        [&[C1, C2, C3], &[F1], &[]],
        &[D1, F2],
        [[3, 1, 0], [3, 3, 0], [3, 0, 3], [2, 2, 0]],
    );
    let b = game(
        [P3, 1, P2],
        [&[E1, E2, E3], &[], &[F1, F2]],
        &[F2, D1],
        [[3, 1, 0], [3, 0, 3], [3, 3, 0], [2, 0, 2]],
    );
    for bt in &bots {
        let mut s = Seated { seats: [bt; 8] };
        let answers = |g: &Game, s: &mut Seated| {
            let v = T::view(g, &t, 0);
            (
                s.pick(&v),
                s.keep(&v),
                s.launch(&v, 1 << TRIAL | 1 << PURIFICATION, false),
                s.target(&v, TRIAL, 0b1110),
                s.next_constable(&v, 0b1110),
                (1..4).map(|x| bt.suspicion(&v, x)).collect::<Vec<_>>(),
            )
        };
        assert_eq!(answers(&a, &mut s), answers(&b, &mut s), "{}", bt.name);
    }
    // What seat 0's right neighbour (seat 3) passed it is its own to see.
    let dd = deducer(&d);
    let mut c = game(
        [0, P2, P3],
        [&[], &[], &[]],
        &[],
        [[3, 3, 0], [0; 3], [0; 3], [0; 3]],
    );
    let dirty = dd.suspicion(&T::view(&c, &t, 0), 3);
    T::set_pass_evidence(&mut c, 0, [3, 0, 3]);
    let clean = dd.suspicion(&T::view(&c, &t, 0), 3);
    assert!(dirty > clean, "{dirty} {clean}");
}

/// A `[belief]` model starts from the likelihoods `belief::learn` gives
/// for the data in use (the six original bots, every player count, 500
/// games each, seed 44), and on the SAMPLE they say what the bots do: a
/// Witch chooses add-Despair buildings more often than a Puritan.
#[test]
fn belief_likelihoods_are_learned_from_the_data_in_use() {
    let d = Data::sample();
    let bots = bot::shipped(&d).unwrap();
    let l = belief::learn(
        &d,
        &bots,
        &[3, 4, 5, 6, 7, 8],
        belief::LEARN_GAMES,
        belief::LEARN_SEED,
    )
    .unwrap();
    assert_eq!(l.games, 3000);
    let rates = l.rates();
    assert_eq!(belief::learned_rates(&d).unwrap(), rates);
    // As compiled (before its field is learned, `learn = "field"`), the
    // deducer weighs by these rates, and hides by them.
    let b = deducer(&d).belief.unwrap();
    let want = bot::Belief::from_rates(&rates);
    assert_eq!((b.hit, b.miss), (want.hit, want.miss), "\n{}", l.table());
    assert!(b.from_field);
    assert_eq!(&b.hide[0][..4], &want.hit[..4]);
    assert_eq!(&b.hide[0][4..], &want.miss[..4]);
    // From round 4 on, by the late draft kinds' rates.
    assert_eq!(&b.hide[1][..4], &want.hit[12..16]);
    assert_eq!(&b.hide[1][4..], &want.miss[12..16]);
    assert!(rates[0].0 > rates[0].1, "\n{}", l.table());
    // Other data, other likelihoods.
    let mut d2 = d.clone();
    toolkit::apply_change(&mut d2, "C1:despair_add=3").unwrap();
    assert_ne!(belief::learned_rates(&d2).unwrap(), rates);
}

/// A hiding Witch drafts by `looks_puritan`: of a clean and an add-Despair
/// building it takes the clean one while hiding, and the Despair one
/// after.
#[test]
fn a_hiding_witch_drafts_to_look_puritan() {
    let d = Data::sample();
    let t = Table::new(&d, 4).unwrap();
    let b = deducer(&d);
    for (round, want) in [(1u8, 1usize), (4, 0)] {
        let mut g = Game::new();
        T::position(&mut g, &t, &[0, P2, P3, P4], 1);
        T::set_hand(&mut g, 0, &[C3, C2, F3]);
        T::set_round(&mut g, round);
        let mut s = Seated { seats: [&b; 8] };
        assert_eq!(s.pick(&T::view(&g, &t, 0)), want, "round {}", round + 1);
    }
}

// ------------------------------------------------------------ toolkit

/// A rule grid plays every combination of the readings at every player
/// count, each cell the same as a plain run under those readings.
#[test]
fn a_rule_grid_is_every_reading_at_every_player_count() {
    let d = Data::sample();
    let bots = bot::shipped(&d).unwrap();
    let axes = vec![
        toolkit::parse_axis("trial=unlimited,single").unwrap(),
        toolkit::parse_axis("no_eligible_constable=keep,reset").unwrap(),
    ];
    let stop = AtomicBool::new(false);
    let cells =
        toolkit::rule_grid(&d, &|d| bot::shipped(d), &axes, &[4, 5], 300, 9, &stop).unwrap();
    assert_eq!(cells.len(), 8);
    let csv = toolkit::grid_csv(&axes, &cells);
    assert_eq!(csv.lines().count(), 9);
    assert!(csv.starts_with("trial,no_eligible_constable,players,games,"));
    assert!(csv.contains("\nsingle,reset,5,300,"));
    // The (single, keep, 5) cell is the plain run with those readings.
    let mut d2 = d.clone();
    d2.rules.options.set("trial", "single").unwrap();
    let t = Table::new(&d2, 5).unwrap();
    let m = SalemMatch {
        table: &t,
        bots: &bots,
    };
    let cfg = RunConfig {
        games: 300,
        first: 0,
        seed: 9,
        threads: 0,
        progress: false,
        precision: None,
    };
    let plain = run_match(&m, &cfg, &stop).tally;
    let cell = cells
        .iter()
        .find(|c| c.players == 5 && c.readings[0].1 == "single" && c.readings[1].1 == "keep")
        .unwrap();
    assert_eq!(cell.tally, plain);
    // Readings change the results.
    assert_ne!(cells[0].tally.witch_wins, cells[4].tally.witch_wins);
    assert!(toolkit::parse_axis("trial=none").is_err());
}

/// The stats CSV carries per-character and per-building rows and the
/// distributions, consistent with the games.
#[test]
fn the_stats_csv_has_per_building_rows_and_distributions() {
    let d = Data::sample();
    let bots = bot::shipped(&d).unwrap();
    let t = Table::new(&d, 5).unwrap();
    let m = SalemMatch {
        table: &t,
        bots: &bots,
    };
    let mut tally = m.tally();
    let mut g = Box::new(Game::new());
    for i in 0..400 {
        m.play(&mut g, 3, i, &mut tally);
    }
    assert_eq!(tally.on_trial_hist.iter().sum::<u64>(), 400);
    assert_eq!(tally.characters.iter().map(|c| c[0]).sum::<u64>(), 2000);
    // Every chair keeps 14 buildings: the copies drafted add up.
    assert_eq!(
        tally.designs.iter().map(|x| x[0]).sum::<u64>(),
        400 * 5 * 14
    );
    let csv = ssim::csv_rows(5, &tally, &bots);
    for m in [
        "5,all,building_C1_pick_rate,2000,",
        "5,all,building_D1_despair_added_per_game,400,",
        "5,all,building_C3_win_when_drafted,",
        "5,all,character_W1_team_win,",
        "5,all,on_trial_players_0,400,",
        "5,all,despair_after_round_5,400,",
        "5,all,seat_0_personal_win,400,",
        "5,all,trial_hits_witch_by_chance,",
    ] {
        assert!(csv.contains(m), "{m} missing");
    }
    // Cemetery (one add icon): Despair added = copies drafted.
    let copies = tally.designs[D1 as usize][0] as f64 / 400.0;
    let row = csv
        .lines()
        .find(|l| l.starts_with("5,all,building_D1_despair_added_per_game,"))
        .unwrap();
    let v: f64 = row.split(',').nth(4).unwrap().parse().unwrap();
    assert!((v - copies).abs() < 1e-6);
}

/// The paired A/B: a change that changes nothing gives a difference of
/// exactly 0; a building's Despair 1 -> 2 gives a positive paired interval
/// for the Witches; two halves merged equal the whole run.
#[test]
fn compare_pairs_the_games_and_merges_halves_to_the_whole() {
    let a = Data::sample();
    let bots = bot::shipped(&a).unwrap();
    let stop = AtomicBool::new(false);
    let side = |d| toolkit::Side {
        data: d,
        bots: &bots,
    };
    let same = toolkit::compare(side(&a), side(&a), &[5], (0, 400), 2, &stop).unwrap();
    let t = &same[0].1;
    assert_eq!(t.diff, [0; toolkit::M]);
    assert_eq!(t.measure(0).3, 0.0);
    let mut b = a.clone();
    toolkit::apply_change(&mut b, "C3:despair_add=2").unwrap();
    toolkit::apply_change(&mut b, "N2:despair_add=2").unwrap();
    let whole = toolkit::compare(side(&a), side(&b), &[5], (0, 2000), 2, &stop).unwrap();
    let (_, _, diff, half) = whole[0].1.measure(0);
    assert!(diff - half > 0.0, "Witch wins +{diff} ±{half}");
    let (_, _, margin, _) = whole[0].1.measure(3);
    assert!(margin > 0.0);
    let h1 = toolkit::compare(side(&a), side(&b), &[5], (0, 1000), 2, &stop).unwrap();
    let h2 = toolkit::compare(side(&a), side(&b), &[5], (1000, 1000), 2, &stop).unwrap();
    let m = toolkit::PairedMatch {
        a: SalemMatch {
            table: &Table::new(&a, 5).unwrap(),
            bots: &bots,
        },
        b: SalemMatch {
            table: &Table::new(&b, 5).unwrap(),
            bots: &bots,
        },
    };
    let merged = m.merge(h1[0].1.clone(), h2[0].1.clone());
    assert_eq!(
        toolkit::compare_csv(&[(5, merged)]),
        toolkit::compare_csv(&whole)
    );
    for bad in [
        "C3:despair_add",
        "ZZ:hope=1",
        "C3:colour=2",
        "C3:hope=99",
        "threshold@9=3",
    ] {
        assert!(toolkit::apply_change(&mut b.clone(), bad).is_err(), "{bad}");
    }
}

/// The bots' rounding (`percent`, `looks_puritan`) without the `roundf`
/// call rounds every float as `f32::round` does: every value near a half
/// and an integer within ±5000, then a sweep of bit patterns over the
/// whole float range (NaN, infinities and magnitudes past i32 included).
#[test]
fn round_i32_rounds_as_f32_round() {
    let check = |x: f32| {
        assert_eq!(
            bot::round_i32(x),
            x.round() as i32,
            "{x:e} ({:#x})",
            x.to_bits()
        );
    };
    for k in -5000..=5000 {
        for c in [k as f32, k as f32 + 0.5] {
            let b = c.to_bits();
            for d in 0..4u32 {
                check(f32::from_bits(b.wrapping_add(d)));
                check(f32::from_bits(b.wrapping_sub(d)));
            }
        }
    }
    for b in (0..=u32::MAX).step_by(997) {
        check(f32::from_bits(b));
    }
    for x in [
        0.0,
        -0.0,
        0.5,
        -0.5,
        8_388_607.5,
        8_388_608.0,
        f32::MAX,
        f32::MIN,
    ] {
        check(x);
    }
}
