//! Playtest statistics (issue 7): every statistic on small fixed-seed runs
//! against values computed independently here.

use domsim::bots::{BigMoney, RandomBots};
use domsim::cards::Card;
use domsim::engine::{Bots, Event, Game, Kingdom};
use domsim::stats::{
    self, csv::write_csv_to, html, playtest, playtest_range, playtest_sequential, run_sequential,
    seat_strategies, PlaytestStats, Recorder, Sequential, TURNS,
};
use domsim::strategy::{self as strat, Compiled, StrategyBots};

fn first_game() -> Kingdom {
    domsim::dominion::presets::Preset::find("First Game")
        .and_then(|p| p.kingdom(2))
        .expect("First Game preset")
}

/// The two bots of these tests, the shipped strategy files Big Money and
/// Smithy Big Money, compiled for the First Game kingdom.
fn bots() -> &'static [Compiled; 2] {
    static BOTS: std::sync::OnceLock<[Compiled; 2]> = std::sync::OnceLock::new();
    BOTS.get_or_init(|| {
        let k = first_game();
        ["big_money.dom", "smithy_big_money.dom"].map(|f| {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("strategies")
                .join(f);
            let st = strat::load(&path).unwrap_or_else(|e| panic!("{e}"));
            st.compile(&k).unwrap_or_else(|e| panic!("{e}")).0
        })
    })
}

fn names() -> Vec<String> {
    bots().iter().map(|b| b.name.clone()).collect()
}

fn make(seats: &[usize]) -> StrategyBots<'static> {
    let seats: Vec<&Compiled> = seats.iter().map(|&s| &bots()[s]).collect();
    StrategyBots::new(&seats)
}

fn run(games: u64, seed: u64, threads: usize) -> PlaytestStats {
    playtest(&first_game(), &names(), games, seed, threads, make)
}

/// Counts events by itself, per seat: an independent replay of the games.
struct Counter<B> {
    inner: B,
    gained: [[u64; Card::COUNT]; 2],
    bought: [[u64; Card::COUNT]; 2],
    played: [[u64; Card::COUNT]; 2],
    trashed: [[u64; Card::COUNT]; 2],
    /// Own turn number of the first gain of each card (0: never gained).
    first: [[u64; Card::COUNT]; 2],
    /// Treasure value played per (seat, turn).
    money: [[u64; 128]; 2],
    turn: [usize; 2],
}

impl<B: Bots> Bots for Counter<B> {
    forward_questions!(inner);
    fn event(&mut self, _g: &Game, e: Event) {
        match e {
            Event::TurnStart { player, turn } => self.turn[player as usize] = turn as usize,
            Event::Gain { player, card } => {
                let (p, c) = (player as usize, card as usize);
                if self.gained[p][c] == 0 {
                    self.first[p][c] = self.turn[p].max(1) as u64;
                }
                self.gained[p][c] += 1;
            }
            Event::Buy { player, card } => self.bought[player as usize][card as usize] += 1,
            Event::Trash { player, card } => self.trashed[player as usize][card as usize] += 1,
            Event::Play { player, card } => {
                let p = player as usize;
                self.played[p][card as usize] += 1;
                // Every coin source of the base set is printed: a Treasure's
                // value or an Action's +$ (no Coppersmith in these kingdoms).
                self.money[p][self.turn[p]] += (card.info().value + card.info().coins) as u64;
            }
            _ => {}
        }
    }
}

#[test]
fn game_length_and_endings_sum_to_the_game_count() {
    let st = run(600, 7, 2);
    assert_eq!(st.games, 600);
    assert_eq!(st.length.iter().sum::<u64>(), 600);
    assert_eq!(st.ended_provinces + st.ended_piles + st.ended_cap, 600);
    assert_eq!(st.faults, 0);
    // Rotation: each strategy plays each seat equally often.
    for s in &st.strategies {
        assert_eq!(s.seats[0].games, 300);
        assert_eq!(s.seats[1].games, 300);
        assert_eq!(s.margin.iter().sum::<u64>(), 600);
    }
    assert_eq!(st.seats[0].games + st.seats[1].games, 1200);
    // Turn 1 is played by every player of every game.
    for s in &st.strategies {
        assert_eq!(s.turns[0].n, 600);
        assert_eq!(
            s.turns.iter().map(|t| t.n).sum::<u64>(),
            s.turns_taken,
            "player-turns counted once each"
        );
    }
}

#[test]
#[allow(clippy::needless_range_loop)] // parallel per-seat arrays read best indexed
fn per_card_and_per_turn_counts_match_a_replay() {
    let k = first_game();
    let games = 200;
    let st = run(games, 11, 2);
    let mut want_gained = [[0u64; Card::COUNT]; 2];
    let mut want_bought = [[0u64; Card::COUNT]; 2];
    let mut want_played = [[0u64; Card::COUNT]; 2];
    let mut want_trashed = [[0u64; Card::COUNT]; 2];
    let mut want_owned = [[0u64; Card::COUNT]; 2];
    let mut want_money = [[0u64; 128]; 2];
    let mut want_vp = [0i64; 2];
    let mut want_wins = [0u64; 2];
    let mut want_first = [[0u64; Card::COUNT]; 2];
    let mut want_first_turn = [[0u64; Card::COUNT]; 2];
    for i in 0..games {
        let seats = seat_strategies(2, 2, i);
        let mut g = Game::new(&k, 11, i);
        let mut c = Counter {
            inner: make(&seats[..2]),
            gained: [[0; Card::COUNT]; 2],
            bought: [[0; Card::COUNT]; 2],
            played: [[0; Card::COUNT]; 2],
            trashed: [[0; Card::COUNT]; 2],
            first: [[0; Card::COUNT]; 2],
            money: [[0; 128]; 2],
            turn: [0; 2],
        };
        let o = g.play_game(&mut c);
        for p in 0..2 {
            let s = seats[p];
            for card in 0..Card::COUNT {
                want_gained[s][card] += c.gained[p][card];
                want_bought[s][card] += c.bought[p][card];
                want_played[s][card] += c.played[p][card];
                want_trashed[s][card] += c.trashed[p][card];
                want_owned[s][card] += g.players[p].owned[card] as u64;
                want_first[s][card] += (c.gained[p][card] > 0) as u64;
                want_first_turn[s][card] += c.first[p][card];
            }
            for t in 0..128 {
                want_money[s][t] += c.money[p][t];
            }
            want_vp[s] += o.vp[p] as i64;
            want_wins[s] += o.won(p) as u64;
        }
    }
    for s in 0..2 {
        let ss = &st.strategies[s];
        for &card in Card::PRINTED {
            let a = &ss.cards[card as usize];
            let i = card as usize;
            assert_eq!(a.gained, want_gained[s][i], "{card} gained");
            assert_eq!(a.bought, want_bought[s][i], "{card} bought");
            assert_eq!(a.played, want_played[s][i], "{card} played");
            assert_eq!(a.trashed, want_trashed[s][i], "{card} trashed");
            assert_eq!(a.owned_end, want_owned[s][i], "{card} owned");
            assert_eq!(a.first_gain_games, want_first[s][i], "{card} first gain");
            assert_eq!(
                a.first_gain_turn, want_first_turn[s][i],
                "{card} first turn"
            );
        }
        // Neither bot plays a card that makes coins other than Treasures.
        for t in 1..TURNS {
            assert_eq!(ss.turns[t - 1].money, want_money[s][t], "money of turn {t}");
        }
        assert_eq!(ss.vp_end, want_vp[s]);
        let gains: u64 = ss.cards.iter().map(|a| a.gained).sum();
        assert_eq!(ss.turns.iter().map(|t| t.gained).sum::<u64>(), gains);
        assert_eq!(ss.gain_turn.iter().sum::<u64>(), gains);
        let sc = ss.score();
        assert_eq!(sc.sole_wins + sc.shared_wins, want_wins[s]);
    }
    // Gain curves end at the total gains per game.
    let ss = &st.strategies[1];
    let curve = ss.gain_curve(Card::Smithy);
    let total = ss.cards[Card::Smithy as usize].gained as f64 / ss.games() as f64;
    assert!((curve[TURNS - 1] - total).abs() < 1e-12);
    assert!(total > 0.5, "Smithy-BM buys Smithies ({total})");
}

#[test]
fn opening_money_matches_the_exact_hypergeometric_expectation() {
    // Big Money mirror: turns 1 and 2 draw the 10 starting cards exactly once,
    // so the coins of turns 1 and 2 always sum to 7; turn 1 draws 5 of
    // 7 Copper + 3 Estate: E = 5·7/10 = 3.5, Var = 5·0.7·0.3·(5/9) = 7/12.
    let k = first_game();
    let names = vec!["BM".to_string(), "BM".to_string()];
    let n_games = 2000u64;
    let st = playtest(&k, &names, n_games, 3, 2, |_| BigMoney);
    let mut t1 = domsim::stats::TurnAcc::default();
    let mut t2 = domsim::stats::TurnAcc::default();
    for s in &st.strategies {
        t1 += &s.turns[0];
        t2 += &s.turns[1];
    }
    let n = 2 * n_games;
    assert_eq!(t1.n, n);
    assert_eq!(t2.n, n);
    assert_eq!(t1.money + t2.money, 7 * n, "turns 1+2 always make $7");
    let sd = (7.0 / 12.0 / n as f64).sqrt();
    assert!(
        (t1.money_avg() - 3.5).abs() < 5.0 * sd,
        "{}",
        t1.money_avg()
    );
    assert!(
        (t2.money_avg() - 3.5).abs() < 5.0 * sd,
        "{}",
        t2.money_avg()
    );
    // P($5 on turn 1) = C(7,5)/C(10,5) = 21/252; never $6.
    let p5 = 21.0 / 252.0;
    let sd5 = (p5 * (1.0 - p5) / n as f64).sqrt();
    assert!((t1.p5() - p5).abs() < 5.0 * sd5, "{}", t1.p5());
    assert_eq!(t1.hit6, 0);
    // Openings: only 5/2 (probability 42/252 = 1/6) and 4/3.
    let mut opened = 0;
    for s in &st.strategies {
        for hi in 0..=domsim::stats::OPEN_MAX {
            for lo in 0..=hi {
                let g = s.opening(hi, lo).games;
                if g > 0 {
                    assert!(hi + lo == 7 && (hi == 5 || hi == 4), "{hi}/{lo}");
                }
                opened += g;
            }
        }
    }
    assert_eq!(opened, n);
    let fifty_two: u64 = st.strategies.iter().map(|s| s.opening(5, 2).games).sum();
    let p = fifty_two as f64 / n as f64;
    let sdp = (1.0 / 6.0 * 5.0 / 6.0 / n as f64).sqrt();
    assert!((p - 1.0 / 6.0).abs() < 5.0 * sdp, "5/2 share {p}");
    // Deck size after turn 1: 10 cards + the buy (BM buys Silver with $3-$5,
    // nothing with $2); VP is still 3 Estates.
    for s in &st.strategies {
        let t = &s.turns[0];
        assert_eq!(t.deck, 10 * t.n + t.gained);
        assert!(t.gained < t.n && t.gained > t.n / 2);
        assert!((t.vp_avg() - 3.0).abs() < 1e-12);
    }
}

#[test]
fn results_do_not_depend_on_the_thread_count_or_the_split() {
    let a = run(300, 5, 1);
    let b = run(300, 5, 2);
    let c = run(300, 5, 3);
    assert_eq!(a, b);
    assert_eq!(a, c);
    let k = first_game();
    let names = names();
    let mut d = playtest_range(&k, &names, 0..100, 5, &make);
    d += playtest_range(&k, &names, 100..300, 5, &make);
    assert_eq!(a, d);
    assert_ne!(a, run(300, 6, 2), "a different seed gives different games");
}

#[test]
fn the_recorder_does_not_change_the_game() {
    // RandomBots use pick, yes_no and choose; the recorder must forward all.
    let k = first_game();
    for i in 0..20 {
        let mut g1 = Game::new(&k, 9, i);
        let o1 = g1.play_game(&mut RandomBots::new(i, false));
        let mut g2 = Game::new(&k, 9, i);
        let names = vec!["a".to_string(), "b".to_string()];
        let mut rec = Recorder::new(RandomBots::new(i, false), PlaytestStats::new(&k, &names));
        rec.begin(&g2, &[0, 1]);
        let o2 = g2.play_game(&mut rec);
        rec.end(&g2);
        assert_eq!(o1, o2);
        assert_eq!(g1.trash.as_slice(), g2.trash.as_slice());
        assert_eq!(rec.stats().games, 1);
    }
}

#[test]
fn win_rate_interval_matches_the_binomial_formula() {
    let st = run(400, 21, 2);
    for s in &st.strategies {
        let sc = s.score();
        let n = sc.games as f64;
        // The score is 1, 1/2 or 0; recompute the sample variance directly.
        let wins = sc.sole_wins as f64;
        let ties = sc.shared_wins as f64;
        let mean = (wins + 0.5 * ties) / n;
        let sq = wins + 0.25 * ties;
        let var = (sq - n * mean * mean) / (n - 1.0);
        let half = 1.959_963_984_540_054 * (var / n).sqrt();
        assert!((sc.rate() - mean).abs() < 1e-12);
        assert!((sc.ci95() - half).abs() < 1e-12);
    }
    // Two players: the win rates sum to 1 (a tie gives 1/2 each).
    let total: f64 = st.strategies.iter().map(|s| s.score().rate()).sum();
    assert!((total - 1.0).abs() < 1e-12);
    assert!(st.strategies[1].score().rate() > 0.6, "Smithy-BM beats BM");
}

#[test]
fn sequential_mode_stops_at_the_first_batch_under_the_precision() {
    // A toy accumulator: the half-width after k batches is 1/k.
    #[derive(Debug, PartialEq)]
    struct Batches(u64);
    impl std::ops::AddAssign for Batches {
        fn add_assign(&mut self, o: Batches) {
            self.0 += o.0;
        }
    }
    let cfg = Sequential {
        precision: 0.3,
        batch: 10,
        max_games: 1000,
    };
    let mut ranges = Vec::new();
    let r = run_sequential(
        &cfg,
        |range| {
            ranges.push(range);
            Batches(1)
        },
        |b: &Batches| 1.0 / b.0 as f64,
    );
    assert_eq!(r.stats, Batches(4), "1/4 < 0.3 <= 1/3");
    assert_eq!(r.games, 40);
    assert!(r.converged);
    assert_eq!(ranges, vec![0..10, 10..20, 20..30, 30..40]);
    let capped = run_sequential(
        &Sequential {
            precision: 0.01,
            ..cfg
        },
        |_| Batches(1),
        |b: &Batches| 1.0 / b.0 as f64,
    );
    assert_eq!(capped.games, 1000);
    assert!(!capped.converged);

    // The real thing: same result for any thread count; stops at the first
    // batch boundary where the widest interval is under the precision.
    let k = first_game();
    let cfg = Sequential {
        precision: 0.06,
        batch: 50,
        max_games: 5000,
    };
    let a = playtest_sequential(&k, &names(), &cfg, 4, 1, make);
    let b = playtest_sequential(&k, &names(), &cfg, 4, 2, make);
    assert_eq!(a, b);
    assert!(a.converged);
    assert!(a.half_width < 0.06);
    assert_eq!(a.games % 50, 0);
    assert_eq!(a.stats, run(a.games, 4, 2));
    assert!(a.games > 50, "one batch is not enough at this precision");
    let before = run(a.games - 50, 4, 2);
    assert!(before.max_ci95() >= 0.06);
}

#[test]
fn csv_has_every_statistic_in_long_format() {
    let st = run(100, 2, 2);
    let mut buf = Vec::new();
    write_csv_to(&mut buf, &st).unwrap();
    let text = String::from_utf8(buf.clone()).unwrap();
    assert!(text.starts_with("# domsim_version: "), "{text}");
    assert!(
        text.contains("\n# kingdom: Cellar; Market; "),
        "kingdom joined by '; '"
    );
    let mut r = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .from_reader(buf.as_slice());
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(header, stats::csv::COLUMNS);
    let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
    fn stat<'a>(
        rows: &'a [csv::StringRecord],
        name: &'a str,
    ) -> impl Iterator<Item = &'a csv::StringRecord> + 'a {
        rows.iter().filter(move |r| &r[0] == name)
    }
    let lengths: f64 = stat(&rows, "game_length")
        .map(|r| r[6].parse::<f64>().unwrap())
        .sum();
    assert_eq!(lengths, 100.0);
    for name in [
        "games",
        "ending",
        "seat_score",
        "score",
        "strategy_seat_score",
        "vp_margin",
        "turn_money",
        "turn_vp",
        "turn_deck",
        "turn_gained",
        "turn_p5",
        "turn_p6",
        "turn_p8",
        "turn_money_q1",
        "turn_money_median",
        "turn_money_q3",
        "card_gained",
        "card_bought",
        "card_played",
        "card_trashed",
        "card_avg_owned_end",
        "card_first_gain_turn",
        "card_gain_curve",
        "card_gained_score",
        "card_gained_by_score",
        "opening",
        "opening_buys",
    ] {
        assert!(stat(&rows, name).count() > 0, "no {name} rows");
    }
    let money1: Vec<_> = stat(&rows, "turn_money").filter(|r| &r[3] == "1").collect();
    assert_eq!(money1.len(), 2);
    for r in money1 {
        let s = if r[1] == names()[0] { 0 } else { 1 };
        let v: f64 = r[6].parse().unwrap();
        assert!((v - st.strategies[s].turns[0].money_avg()).abs() < 1e-6);
    }
}

#[test]
fn html_report_is_self_contained_and_written_atomically() {
    let st = run(100, 2, 2);
    let m = vec![vec![None, Some((30.0, 100))], vec![Some((70.0, 100)), None]];
    let names = names();
    let opts = html::ReportOptions {
        title: Some("test <report>".into()),
        note: None,
        matrix: Some((&m, &names)),
    };
    let page = html::render_html(&st, &opts);
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains("test &lt;report&gt;"));
    assert!(page.matches("<svg").count() >= 10, "charts present");
    assert!(page.contains("class=\"errorbar\""));
    assert!(page.contains("class=\"cell\""), "heat map present");
    assert!(!page.contains("<script"), "no JavaScript");
    assert!(!page.contains("http://") || !page.contains("src=\"http"));
    assert!(!page.contains("NaN"));
    let dir = crate::cli::scratch("stats-html");
    let path = dir.join("r.html");
    html::write_html(&path, &st, &opts).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), page);
    let leftovers = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(leftovers, 1, "no temporary file left behind");
}

#[test]
#[allow(clippy::needless_range_loop)] // parallel per-seat arrays read best indexed
fn random_play_counts_match_a_replay() {
    // Random bots play every card of the First Game kingdom (Remodel and Mine
    // trash, Workshop gains without buying, Woodcutter/Market/Militia make +$),
    // sometimes decline to play Treasures, and may hit the turn cap.
    let k = first_game();
    let games = 40;
    let names = vec!["r0".to_string(), "r1".to_string()];
    let st = playtest(&k, &names, games, 13, 2, |_| RandomBots::new(1, false));
    let mut gained = [[0u64; Card::COUNT]; 2];
    let mut bought = [[0u64; Card::COUNT]; 2];
    let mut played = [[0u64; Card::COUNT]; 2];
    let mut trashed = [[0u64; Card::COUNT]; 2];
    let mut money = [[0u64; 128]; 2];
    let mut endings = [0u64; 3];
    for i in 0..games {
        let seats = seat_strategies(2, 2, i);
        let mut g = Game::new(&k, 13, i);
        let mut c = Counter {
            inner: RandomBots::new(1, false),
            gained: [[0; Card::COUNT]; 2],
            bought: [[0; Card::COUNT]; 2],
            played: [[0; Card::COUNT]; 2],
            trashed: [[0; Card::COUNT]; 2],
            first: [[0; Card::COUNT]; 2],
            money: [[0; 128]; 2],
            turn: [0; 2],
        };
        g.play_game(&mut c);
        endings[stats::ending(&g) as usize] += 1;
        for p in 0..2 {
            let s = seats[p];
            for card in 0..Card::COUNT {
                gained[s][card] += c.gained[p][card];
                bought[s][card] += c.bought[p][card];
                played[s][card] += c.played[p][card];
                trashed[s][card] += c.trashed[p][card];
            }
            for t in 0..128 {
                money[s][t] += c.money[p][t];
            }
        }
    }
    assert_eq!([st.ended_provinces, st.ended_piles, st.ended_cap], endings);
    let mut any_trash = 0;
    for s in 0..2 {
        let ss = &st.strategies[s];
        for &card in Card::PRINTED {
            let a = &ss.cards[card as usize];
            let i = card as usize;
            assert_eq!(
                (a.gained, a.bought, a.played, a.trashed),
                (gained[s][i], bought[s][i], played[s][i], trashed[s][i]),
                "{card} (gained, bought, played, trashed)"
            );
            any_trash += a.trashed;
        }
        for t in 1..=TURNS {
            assert_eq!(ss.turns[t - 1].money, money[s][t], "money of turn {t}");
        }
    }
    assert!(any_trash > 0, "random play trashed something");
}

#[test]
fn fewer_strategies_than_seats_rotate_too() {
    assert_eq!(seat_strategies(2, 3, 0)[..3], [0, 1, 0]);
    assert_eq!(seat_strategies(2, 3, 1)[..3], [1, 0, 1]);
    assert_eq!(seat_strategies(1, 4, 7)[..4], [0, 0, 0, 0]);
    let k = domsim::dominion::presets::Preset::find("First Game")
        .and_then(|p| p.kingdom(3))
        .expect("First Game preset");
    let st = playtest(&k, &names(), 100, 1, 2, make);
    assert_eq!(st.games, 100);
    for s in &st.strategies {
        for seat in 0..3 {
            assert_eq!(s.seats[seat].games, 50, "each seat half the games");
        }
    }
    assert_eq!(st.strategies.iter().map(|s| s.games()).sum::<u64>(), 300);
}

#[test]
fn statistics_round_trip_through_json() {
    let st = run(50, 8, 2);
    let dir = crate::cli::scratch("stats-json");
    let path = dir.join("run.json");
    stats::save_json(&path, &st).unwrap();
    assert_eq!(stats::load_json(&path).unwrap(), st);
    std::fs::write(&path, "{\"format\": \"other\"}").unwrap();
    assert!(stats::load_json(&path).is_err());
}

#[test]
fn an_empty_run_renders_without_nan() {
    let st = PlaytestStats::new(&first_game(), &names());
    let page = html::render_html(&st, &html::ReportOptions::default());
    assert!(!page.contains("NaN") && !page.contains("inf"), "{page}");
    let mut buf = Vec::new();
    write_csv_to(&mut buf, &st).unwrap();
    assert!(!String::from_utf8(buf).unwrap().contains("NaN"));
}

/// Stable-Rust fuzzing of the statistics JSON that `domsim report` reads
/// (the libFuzzer target is `fuzz/fuzz_targets/stats_json.rs`): numbers
/// replaced by extreme values, text cut short or bytes flipped. Loading
/// never panics, and whatever loads renders as HTML and CSV without panic.
#[test]
fn edited_statistics_json_never_panics() {
    let st = run(40, 3, 1);
    let dir = crate::cli::scratch("stats-fuzz");
    let path = dir.join("s.json");
    stats::save_json(&path, &st).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(stats::parse_json(&text).unwrap(), st);
    // Byte offsets of every number in the text.
    let mut nums = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() {
            let s = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            nums.push((s, i));
        } else {
            i += 1;
        }
    }
    let mut rng = domsim::engine::GameRng::for_game(7, 0);
    let mut loaded = 0;
    let scale = std::env::var("DOMSIM_FUZZ")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1usize);
    for round in 0..400 * scale {
        let edited = match round % 3 {
            0 => {
                let (s, e) = nums[rng.below(nums.len() as u32) as usize];
                let v = [
                    "0",
                    "1",
                    "9",
                    "255",
                    "18446744073709551615",
                    "-1",
                    "1e9",
                    "99999",
                ][rng.below(8) as usize];
                format!("{}{v}{}", &text[..s], &text[e..])
            }
            1 => text[..rng.below(text.len() as u32) as usize].to_string(),
            _ => {
                let mut v = text.clone().into_bytes();
                let k = rng.below(v.len() as u32) as usize;
                v[k] = b"{}[],:0\"x"[rng.below(9) as usize];
                String::from_utf8_lossy(&v).into_owned()
            }
        };
        if let Ok(st) = stats::parse_json(&edited) {
            loaded += 1;
            let page = html::render_html(&st, &html::ReportOptions::default());
            assert!(page.contains("</html>"));
            let mut csv = Vec::new();
            stats::csv::write_csv_to(&mut csv, &st).unwrap();
        }
    }
    // Some edits (a number within range) must still load.
    assert!(loaded > 0, "no edit loaded: the mutations test nothing");
}

/// Issue 20.1: one run, one set of games. The playtest statistics of
/// `domsim sim --save-stats` describe exactly the games of the win-rate
/// table: every figure the table shows equals the statistics' figure, at
/// 2 to 6 players, with attacks (whose effect depends on the seating).
#[test]
fn table_and_statistics_describe_the_same_games() {
    use crate::cli::{domsim, scratch, stderr};
    let field = [
        "strategies/double_witch.dom",
        "strategies/militia_big_money.dom",
        "strategies/big_money_ultimate.dom",
        "strategies/smithy_big_money.dom",
        "strategies/double_witch.dom",
        "strategies/militia_big_money.dom",
    ];
    let kingdom = "Witch,Militia,Moat,Smithy,Village,Market,Cellar,Chapel,Laboratory,Festival";
    let d = scratch("one-pass");
    for players in [2usize, 3, 4, 5, 6] {
        let csv_path = d.join(format!("t{players}.csv"));
        let json_path = d.join(format!("s{players}.json"));
        let mut args = vec![
            "sim",
            "-n",
            "1440",
            "--seed",
            "11",
            "--kingdom",
            kingdom,
            "-o",
            csv_path.to_str().unwrap(),
            "--save-stats",
            json_path.to_str().unwrap(),
        ];
        args.extend(&field[..players]);
        let o = domsim(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        let st = stats::parse_json(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
        assert_eq!(st.games, 1440);
        assert_eq!(st.seed, Some(11));
        assert_eq!(st.sources.len(), players);
        let text = std::fs::read_to_string(&csv_path).unwrap();
        let mut rdr = csv::ReaderBuilder::new()
            .comment(Some(b'#'))
            .from_reader(text.as_bytes());
        let header = rdr.headers().unwrap().clone();
        let col = |name: &str| header.iter().position(|h| h == name).unwrap();
        for (i, rec) in rdr.records().enumerate() {
            let rec = rec.unwrap();
            let s = &st.strategies[i];
            let num = |name: &str| rec[col(name)].parse::<f64>().unwrap();
            let total = s.score();
            assert_eq!(num("games") as u64, total.games, "{players}p entrant {i}");
            assert_eq!(
                num("wins") as u64,
                total.sole_wins,
                "{players}p entrant {i}"
            );
            assert_eq!(
                num("ties") as u64,
                total.shared_wins,
                "{players}p entrant {i}"
            );
            assert!((num("score") - total.rate()).abs() < 1e-6, "{players}p {i}");
            assert!((num("avg_vp") - s.vp_end as f64 / total.games as f64).abs() < 1e-6);
            assert!((num("avg_turns") - s.turns_taken as f64 / total.games as f64).abs() < 1e-6);
            for seat in 0..players {
                let sc = num(&format!("seat{}_score", seat + 1));
                assert!(
                    (sc - s.seats[seat].rate()).abs() < 1e-6,
                    "{players}p {i} seat {seat}"
                );
                let w = num(&format!("seat{}_wins", seat + 1)) as u64;
                assert_eq!(w, s.seats[seat].sole_wins, "{players}p {i} seat {seat}");
            }
        }
    }
}

/// Issue 20.3: a precision target that is not reached is said, and the CSV
/// records the games actually played, the target and whether it was met.
#[test]
fn precision_provenance_is_recorded() {
    use crate::cli::{domsim, scratch, stderr, stdout};
    let d = scratch("precision");
    let out = d.join("p.csv");
    let o = domsim(&[
        "sim",
        "-n",
        "2000",
        "--precision",
        "0.002",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("NOT reached in"), "{}", stdout(&o));
    assert!(stderr(&o).contains("not reached"), "{}", stderr(&o));
    let text = std::fs::read_to_string(&out).unwrap();
    for line in [
        "# games: 2000",
        "# games_requested: 2000",
        "# precision_target: 0.002",
        "# precision_reached: no",
    ] {
        assert!(text.contains(line), "{line} in\n{text}");
    }
    let o = domsim(&[
        "sim",
        "-n",
        "1000000",
        "--precision",
        "0.05",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("# games_requested: 1000000"), "{text}");
    assert!(text.contains("# precision_reached: yes"), "{text}");
    assert!(
        !text.contains("# games: 1000000"),
        "games played, not asked: {text}"
    );
}

/// Charts a person can read (issue 20, 5–8), on a real run with 3
/// strategies: one colour per card across the whole report and distinct
/// within each chart; VP margins as small multiples; one P(hit) chart per
/// threshold; the matrix heat map sorted, with a mean column and a key.
#[test]
fn report_charts_for_three_strategies() {
    let d = crate::cli::scratch("report-charts");
    let page = d.join("r.html");
    let o = crate::cli::domsim(&[
        "sim",
        "strategies/big_money.dom",
        "strategies/smithy_big_money.dom",
        "strategies/militia_big_money.dom",
        "-n",
        "600",
        "--report",
        page.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", crate::cli::stderr(&o));
    let h = std::fs::read_to_string(&page).unwrap();
    // One name per interval (issue 45): the report's score interval is the
    // normal one and says so; the console's is Wilson and says so.
    assert!(
        h.contains("<th>±95% (normal)</th>"),
        "the score table's header"
    );
    assert!(h.contains("95% normal interval of the mean score"));
    assert!(h.contains("give the 95% Wilson interval of the same score"));
    assert!(crate::cli::stdout(&o).contains("95% Wilson interval."));
    // Card gain charts: (card, colour, dash) per chart.
    let mut colour_of: std::collections::HashMap<String, String> = Default::default();
    let charts: Vec<&str> = h.split("aria-label=\"Card gains: ").skip(1).collect();
    assert_eq!(charts.len(), 3);
    for chart in charts {
        let chart = &chart[..chart.find("</svg>").unwrap()];
        let mut seen = std::collections::HashSet::new();
        for p in chart.split("<path class=\"series\"").skip(1) {
            let stroke = p
                .split("stroke=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            let dashed = p[..p.find('>').unwrap()].contains("dasharray");
            let name = p
                .split("<title>")
                .nth(1)
                .unwrap()
                .split('<')
                .next()
                .unwrap();
            assert!(
                seen.insert((stroke.to_string(), dashed)),
                "colour shared in a chart: {name}"
            );
            let key = format!("{stroke}{dashed}");
            let prev = colour_of.entry(name.to_string()).or_insert(key.clone());
            assert_eq!(*prev, key, "{name} changes colour between charts");
        }
    }
    assert!(colour_of.len() >= 5, "{colour_of:?}");
    assert_eq!(
        h.matches("aria-label=\"VP margin: ").count(),
        3,
        "small multiples"
    );
    for t in ["$5", "$6", "$8"] {
        assert!(
            h.contains(&format!("aria-label=\"P(hit {t} or more) per turn\"")),
            "{t}"
        );
    }
    // The matrix report: sorted heat map with a mean column and a key.
    let m = d.join("m.html");
    let o = crate::cli::domsim(&[
        "matrix",
        "strategies/big_money.dom",
        "strategies/smithy_big_money.dom",
        "strategies/militia_big_money.dom",
        "-n",
        "200",
        "--report",
        m.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", crate::cli::stderr(&o));
    let h = std::fs::read_to_string(&m).unwrap();
    assert!(h.contains(">mean</text>") && h.contains(">100%</text>"));
    let pos = |s: &str| h.find(&format!(">{s}</text>")).unwrap();
    assert!(
        pos("Militia Big Money") < pos("Big Money"),
        "strongest first"
    );
}

/// Opening buys and card-gain win rates (issue 20.9): every game of a
/// strategy is in exactly one opening-buys row, the first-gain buckets of a
/// card add up to the games with a gain, and the numbers follow the games
/// (Smithy-BM opens Silver/Smithy or Smithy/Silver, whichever turn).
#[test]
fn opening_buys_and_card_gain_scores_add_up() {
    let d = crate::cli::scratch("openbuys");
    let js = d.join("s.json");
    let o = crate::cli::domsim(&[
        "sim",
        "strategies/big_money.dom",
        "strategies/smithy_big_money.dom",
        "-n",
        "2000",
        "--save-stats",
        js.to_str().unwrap(),
        "--report",
        d.join("r.html").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", crate::cli::stderr(&o));
    let st = stats::load_json(&js).unwrap();
    for s in &st.strategies {
        let total: u64 = s.opening_buys.iter().map(|o| o.score.games).sum();
        assert_eq!(total, s.games());
        assert!(
            s.opening_buys.windows(2).all(|w| w[0].buys < w[1].buys),
            "sorted"
        );
        for c in &s.cards {
            let by: u64 = c.gained_by.iter().map(|b| b.games).sum();
            assert_eq!(by, c.first_gain_games);
        }
    }
    let smithy = &st.strategies[1];
    let top = smithy
        .opening_buys
        .iter()
        .max_by_key(|o| o.score.games)
        .unwrap();
    assert_eq!(
        top.buys,
        ["Silver".to_string(), "Smithy".to_string()],
        "{:?}",
        smithy.opening_buys
    );
    // Big Money never buys Smithy; it buys Silver or nothing on turns 1-2.
    assert!(st.strategies[0]
        .opening_buys
        .iter()
        .all(|o| o.buys.iter().all(|b| b == "Silver" || b == "-")));
    // A first Province on turns 6-10 wins more often than one on 11-15.
    let prov = &smithy.cards[domsim::Card::Province as usize];
    let (early, late) = (&prov.gained_by[1], &prov.gained_by[2]);
    assert!(
        early.games > 100 && late.games > 100,
        "{:?}",
        prov.gained_by
    );
    assert!(early.rate() > late.rate() + 0.1, "{:?}", prov.gained_by);
    let page = std::fs::read_to_string(d.join("r.html")).unwrap();
    assert!(page.contains("<h2>Opening buys</h2>") && page.contains("<td>Silver/Smithy</td>"));
    assert!(page.contains("score when gained"));
}

/// `domsim report A.json B.json` (issue 20.9): two runs side by side, with
/// each strategy's score in both and the difference.
#[test]
fn report_compares_two_runs_side_by_side() {
    let d = crate::cli::scratch("compare");
    let (a, b) = (d.join("a.json"), d.join("b.json"));
    for (f, s) in [
        (&a, "strategies/smithy_big_money.dom"),
        (&b, "strategies/militia_big_money.dom"),
    ] {
        let o = crate::cli::domsim(&[
            "sim",
            "strategies/big_money.dom",
            s,
            "-n",
            "400",
            "--save-stats",
            f.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", crate::cli::stderr(&o));
    }
    let out = d.join("c.html");
    let o = crate::cli::domsim(&[
        "report",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", crate::cli::stderr(&o));
    let page = std::fs::read_to_string(&out).unwrap();
    assert!(page.contains("<h1>Two runs compared</h1>"));
    // Big Money is in both runs: a difference; the others in one only.
    let row = page
        .lines()
        .find(|l| l.starts_with("<tr><td>Big Money</td>"))
        .unwrap();
    assert!(row.contains(" points</td>"), "{row}");
    assert!(page.contains("A: Smithy Big Money") && page.contains("B: Militia Big Money"));
    assert_eq!(
        page.matches("<h2>Scores</h2>").count(),
        2,
        "both full reports"
    );
    // --csv is for one run; an input may not be the output.
    let o = crate::cli::domsim(&[
        "report",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--csv",
        d.join("x.csv").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let o = crate::cli::domsim(&[
        "report",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "-o",
        a.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
}

/// Spread bands (issue 20.9): per-turn money quartiles from the per-turn
/// histogram, drawn as a band under each strategy's mean line.
#[test]
fn money_quartile_bands() {
    let mut t = stats::TurnAcc::default();
    assert_eq!(t.money_quantile(0.5), None);
    // Turns with $3, $4, $4, $5, $7, $9, $20 (16+).
    for m in [3usize, 4, 4, 5, 7, 9, 16] {
        t.money_hist[m] += 1;
    }
    assert_eq!(t.money_quantile(0.25), Some(4));
    assert_eq!(t.money_quantile(0.5), Some(5));
    assert_eq!(t.money_quantile(0.75), Some(9));
    assert_eq!(t.money_quantile(1.0), Some(16));
    let st = run(300, 4, 1);
    for s in &st.strategies {
        for a in s.turns.iter().filter(|a| a.n > 0) {
            let total: u64 = a.money_hist.iter().sum();
            assert_eq!(total, a.n, "every recorded turn is in the histogram");
            let (q1, q3) = (
                a.money_quantile(0.25).unwrap(),
                a.money_quantile(0.75).unwrap(),
            );
            assert!(q1 as f64 <= a.money_avg().ceil() && a.money_avg().floor() <= q3 as f64 + 16.0);
        }
    }
    let page = html::render_html(&st, &html::ReportOptions::default());
    assert_eq!(
        page.matches("class=\"band\"").count(),
        2,
        "one band per strategy"
    );
}

/// Statistics of a run with data cards are reported with the same card
/// files (the CSV is the one `sim --stats` wrote), and without them the
/// message says which cards and what to give, not "another build".
#[test]
fn report_reads_statistics_of_a_run_with_data_cards() {
    let d = crate::cli::scratch("report-data-cards");
    let (json, sim_csv, rep_csv) = (d.join("s.json"), d.join("a.csv"), d.join("b.csv"));
    let o = crate::cli::domsim(&[
        "--cards",
        "cards/examples.toml",
        "sim",
        "--kingdom",
        "Hamlet Smith,Village,Smithy",
        "--fill",
        "strategies/playtest/hamlet_smith.dom",
        "strategies/big_money_ultimate.dom",
        "-n",
        "60",
        "--save-stats",
        json.to_str().unwrap(),
        "--stats",
        sim_csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", crate::cli::stderr(&o));
    let html = d.join("r.html");
    let o = crate::cli::domsim(&[
        "--cards",
        "cards/examples.toml",
        "report",
        json.to_str().unwrap(),
        "-o",
        html.to_str().unwrap(),
        "--csv",
        rep_csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", crate::cli::stderr(&o));
    assert_eq!(
        std::fs::read(&sim_csv).unwrap(),
        std::fs::read(&rep_csv).unwrap()
    );
    assert!(std::fs::read_to_string(&html)
        .unwrap()
        .contains("Hamlet Smith"));
    let o = crate::cli::domsim(&[
        "report",
        json.to_str().unwrap(),
        "-o",
        d.join("x.html").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = crate::cli::stderr(&o);
    assert!(
        e.contains("data cards (Hamlet Smith") && e.contains("--cards") && !e.contains("build"),
        "{e}"
    );
    assert!(!d.join("x.html").exists());
}

/// Runs of two different data cards are reported side by side (the card
/// designer's question: Post Rider or Hamlet Smith?), given both card
/// files: each file's per-card counts are found by card name, wherever
/// this command binds the card. A file read with its card in another slot
/// gives the very CSV its run wrote; a card no file given defines is
/// named in the refusal.
#[test]
fn report_compares_runs_of_different_data_cards() {
    let d = crate::cli::scratch("report-two-data-cards");
    let (a, b) = (d.join("a.json"), d.join("b.json"));
    let (b_run, b_rep) = (d.join("b_run.csv"), d.join("b_rep.csv"));
    let run = |cards: &[&str],
               kingdom: &str,
               bot: &str,
               json: &std::path::Path,
               csv: Option<&std::path::Path>| {
        let mut args: Vec<String> = cards.iter().map(|s| s.to_string()).collect();
        args.extend(
            [
                "sim",
                "--kingdom",
                kingdom,
                bot,
                "strategies/big_money_ultimate.dom",
                "-n",
                "200",
                "--save-stats",
                json.to_str().unwrap(),
            ]
            .map(String::from),
        );
        if let Some(c) = csv {
            args.extend(["--stats".to_string(), c.to_str().unwrap().to_string()]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = crate::cli::domsim(&args);
        assert!(o.status.success(), "{}", crate::cli::stderr(&o));
    };
    run(
        &["--cards", "cards/post_rider.toml"],
        "Post Rider",
        "strategies/playtest/post_rider_big_money.dom",
        &a,
        None,
    );
    run(
        &[
            "--cards",
            "cards/examples.toml",
            "--cards-only",
            "Hamlet Smith",
        ],
        "Hamlet Smith",
        "strategies/playtest/hamlet_smith.dom",
        &b,
        Some(&b_run),
    );
    let both = [
        "--cards",
        "cards/post_rider.toml",
        "--cards",
        "cards/examples.toml",
        "--cards-only",
        "Post Rider,Hamlet Smith",
    ];
    let html = d.join("ab.html");
    let mut args = both.to_vec();
    args.extend([
        "report",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "-o",
        html.to_str().unwrap(),
    ]);
    let o = crate::cli::domsim(&args);
    assert!(o.status.success(), "{}", crate::cli::stderr(&o));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("Post Rider") && page.contains("Hamlet Smith"));
    // Hamlet Smith bound in the second data slot here, the first in its run.
    let mut args = both.to_vec();
    let h1 = d.join("b.html");
    args.extend([
        "report",
        b.to_str().unwrap(),
        "-o",
        h1.to_str().unwrap(),
        "--csv",
        b_rep.to_str().unwrap(),
    ]);
    let o = crate::cli::domsim(&args);
    assert!(o.status.success(), "{}", crate::cli::stderr(&o));
    assert_eq!(
        std::fs::read(&b_run).unwrap(),
        std::fs::read(&b_rep).unwrap()
    );
    // Only Hamlet Smith's file: Post Rider's run is refused, naming it.
    let x = d.join("x.html");
    let o = crate::cli::domsim(&[
        "--cards",
        "cards/examples.toml",
        "--cards-only",
        "Hamlet Smith",
        "report",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "-o",
        x.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = crate::cli::stderr(&o);
    assert!(
        e.contains("give the card files that define Post Rider"),
        "{e}"
    );
    assert!(!x.exists());
}

/// The saved statistics keep how the kingdom was chosen and the run's data
/// cards: a report regenerated from `--save-stats` says "Shelters forced
/// on" as the run's own report does, the statistics CSV (of the run and of
/// `report --csv`, the same bytes) has `kingdom_source` and `data_cards`
/// lines, and two variants of a data card compared with `report A.json
/// B.json` are told apart by their definitions. A line break in these
/// fields of a loaded file is refused.
#[test]
fn saved_statistics_keep_the_kingdom_source_and_data_cards() {
    let d = crate::cli::scratch("provenance");
    let p = |f: &str| d.join(f).to_str().unwrap().to_string();
    let ok = |args: &[&str]| {
        let o = crate::cli::domsim(args);
        assert!(o.status.success(), "{args:?}: {}", crate::cli::stderr(&o));
    };
    ok(&[
        "sim",
        "strategies/big_money.dom",
        "strategies/cultist.dom",
        "--random",
        "--sets",
        "base",
        "--shelters",
        "on",
        "-n",
        "200",
        "--save-stats",
        &p("s.json"),
        "--stats",
        &p("s.csv"),
        "--report",
        &p("s.html"),
    ]);
    ok(&[
        "report",
        &p("s.json"),
        "-o",
        &p("r.html"),
        "--csv",
        &p("r.csv"),
    ]);
    let csv = std::fs::read_to_string(p("s.csv")).unwrap();
    assert!(
        csv.contains("\n# kingdom_source: random sets=base kingdom_seed=1; Shelters forced on\n"),
        "{csv}"
    );
    assert_eq!(csv, std::fs::read_to_string(p("r.csv")).unwrap());
    for page in ["s.html", "r.html"] {
        let page = std::fs::read_to_string(p(page)).unwrap();
        assert!(page.contains("; Shelters forced on): "), "{page}");
    }
    for (f, cards) in [
        ("a.json", "cards/post_rider.toml"),
        ("b.json", "cards/post_rider_b.toml"),
    ] {
        ok(&[
            "sim",
            "--cards",
            cards,
            "--kingdom",
            "Post Rider",
            "strategies/playtest/post_rider_big_money.dom",
            "strategies/big_money_ultimate.dom",
            "-n",
            "200",
            "--save-stats",
            &p(f),
        ]);
    }
    ok(&[
        "report",
        "--cards",
        "cards/post_rider.toml",
        &p("a.json"),
        &p("b.json"),
        "-o",
        &p("c.html"),
    ]);
    let page = std::fs::read_to_string(p("c.html")).unwrap();
    assert!(
        page.contains("data cards: Post Rider ($4, Action, +2 Cards, +$1; definition ")
            && page.contains("data cards: Post Rider ($4, Action, +3 Cards; definition "),
        "{page}"
    );
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(p("s.json")).unwrap()).unwrap();
    v["stats"]["kingdom_source"] = serde_json::json!("list\n# forged: 1");
    std::fs::write(p("bad.json"), v.to_string()).unwrap();
    let o = crate::cli::domsim(&["report", &p("bad.json"), "-o", &p("bad.html")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        crate::cli::stderr(&o).contains("field 'kingdom_source' has a line break"),
        "{}",
        crate::cli::stderr(&o)
    );
    assert!(!d.join("bad.html").exists());
}
