//! Simulator tests: seat rotation, tie accounting, determinism across thread
//! counts, interruption and atomic output.

use crate::cli::{domsim, entries, scratch, stderr};
use domsim::bots::BigMoney;
use domsim::dominion::matches::{self, WIN_UNITS};
use domsim::dominion::presets::Preset;
use domsim::engine::Kingdom;
use domsim::sim::{self, RunConfig};
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;

fn first_game(players: usize) -> Kingdom {
    Preset::find("First Game")
        .unwrap()
        .kingdom(players)
        .unwrap()
}

fn cfg(games: u64, threads: usize) -> RunConfig {
    RunConfig {
        games,
        first: 0,
        seed: 42,
        threads,
        progress: false,
        precision: None,
    }
}

#[test]
fn every_seat_order_is_played_equally_often() {
    for players in 2..=4 {
        let k = first_game(players);
        let orders = matches::seat_orders(players);
        let games = 2 * orders.len() as u64;
        let seen = Mutex::new(vec![0u32; orders.len()]);
        let stop = AtomicBool::new(false);
        let r = sim::pool(2).unwrap().install(|| {
            matches::run(
                &k,
                &cfg(games, 2),
                |order: &[u8]| {
                    let i = orders.iter().position(|o| &o[..players] == order).unwrap();
                    seen.lock().unwrap()[i] += 1;
                    BigMoney
                },
                &stop,
            )
        });
        assert_eq!(r.completed, games);
        assert!(seen.into_inner().unwrap().iter().all(|&n| n == 2));
        for e in &r.stats.entrants[..players] {
            assert_eq!(e.games, games);
            for s in 0..players {
                assert_eq!(e.seat_games[s], games / players as u64, "{players} players");
            }
        }
    }
}

#[test]
fn ties_are_shared_and_wins_add_up() {
    let k = first_game(3);
    let stop = AtomicBool::new(false);
    let r = matches::run(&k, &cfg(300, 1), |_: &[u8]| BigMoney, &stop);
    let s = &r.stats;
    assert!(s.tied_games > 0, "a Big Money mirror has ties");
    let units: u64 = s.entrants.iter().map(|e| e.win_units()).sum();
    assert_eq!(
        units,
        300 * WIN_UNITS,
        "exactly one win per game, ties split"
    );
    for e in &s.entrants[..3] {
        assert_eq!(e.wins + e.ties + e.losses, 300);
        // A tied game gives each tied player 1/2 or 1/3 of a win.
        assert!(e.tie_units >= e.ties * WIN_UNITS / 3 && e.tie_units <= e.ties * WIN_UNITS / 2);
    }
    let ties: u64 = s.entrants.iter().map(|e| e.ties).sum();
    assert!(ties >= 2 * s.tied_games);
}

#[test]
fn stats_do_not_depend_on_threads() {
    let k = first_game(2);
    let stop = AtomicBool::new(false);
    let one = sim::pool(1)
        .unwrap()
        .install(|| matches::run(&k, &cfg(500, 1), |_: &[u8]| BigMoney, &stop));
    let two = sim::pool(2)
        .unwrap()
        .install(|| matches::run(&k, &cfg(500, 2), |_: &[u8]| BigMoney, &stop));
    assert_eq!(one.stats, two.stats);
}

#[test]
fn stop_flag_stops_before_scheduling() {
    let k = first_game(2);
    let stop = AtomicBool::new(true);
    let r = matches::run(&k, &cfg(1000, 1), |_: &[u8]| BigMoney, &stop);
    assert_eq!(r.completed, 0);
    assert!(r.interrupted);
}

#[test]
fn csv_is_byte_identical_across_thread_counts() {
    let d = scratch("determinism");
    let mut files = Vec::new();
    for threads in ["1", "2"] {
        let out = d.join(format!("t{threads}.csv"));
        let o = domsim(&[
            "sim",
            "-p",
            "3",
            "-n",
            "300",
            "--seed",
            "7",
            "--threads",
            threads,
            "-o",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        files.push(std::fs::read(&out).unwrap());
    }
    assert_eq!(files[0], files[1]);
    // A different seed gives different results.
    let out = d.join("other.csv");
    let o = domsim(&[
        "sim",
        "-p",
        "3",
        "-n",
        "300",
        "--seed",
        "8",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    assert_ne!(std::fs::read(&out).unwrap(), files[0]);
}

#[test]
fn failed_run_leaves_existing_file_untouched() {
    let d = scratch("untouched");
    let out = d.join("keep.csv");
    std::fs::write(&out, "old\n").unwrap();
    let o = domsim(&["sim", "--preset", "nope", "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "old\n");
    assert_eq!(entries(&d), vec!["keep.csv"]);
}

/// The run has started once a file appears in `dir`: the first one is the
/// temporary file of the configuration's output check or of the output
/// itself. domsim catches signals before either exists, so a signal from
/// then on must leave nothing behind whatever stage it interrupts.
#[cfg(unix)]
fn wait_for_temp_file(dir: &std::path::Path) {
    for _ in 0..200 {
        if !entries(dir).is_empty() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("domsim did not start within 10 s");
}

/// Start a long `domsim sim` writing into `d` (extra arguments appended),
/// send it `signal` once it has prepared its outputs, and return what it
/// printed: the run must stop with status 130, report what was completed,
/// and leave no file at all in `d`.
#[cfg(unix)]
fn interrupted_run(d: &std::path::Path, extra: &[&str], signal: &str) -> String {
    let out = d.join("big.csv");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_domsim"))
        .args([
            "sim",
            "-n",
            "1000000000",
            "-j",
            "1",
            "-o",
            out.to_str().unwrap(),
        ])
        .args(extra)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_temp_file(d);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let killed = std::process::Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let o = child.wait_with_output().unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted:"), "{err}");
    assert!(entries(d).is_empty(), "left {:?}", entries(d));
    err
}

/// SIGTERM stops a long run cleanly: status 130, completed games reported,
/// no output file and no temporary file.
#[cfg(unix)]
#[test]
fn sigterm_stops_cleanly_without_output() {
    let d = scratch("sigterm");
    let err = interrupted_run(&d, &[], "-TERM");
    assert!(err.contains("games completed"), "{err}");
}

/// Two signals in a row force an immediate exit: still no file left behind.
#[cfg(unix)]
#[test]
fn second_signal_exits_at_once_without_files() {
    let d = scratch("sigterm2");
    let out = d.join("big.csv");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_domsim"))
        .args([
            "sim",
            "-n",
            "1000000000",
            "-j",
            "1",
            "-o",
            out.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    wait_for_temp_file(&d);
    for _ in 0..2 {
        std::process::Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .unwrap();
    }
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130));
    assert!(entries(&d).is_empty(), "left {:?}", entries(&d));
}

/// A strategy file that is a FIFO nobody writes is refused at once, before
/// it is opened, with status 2 and no file. (This test used to send
/// SIGTERM to a domsim blocked opening such a FIFO, to show that signals
/// are caught from the start; since issue 48 no input is opened unless it
/// is a regular file, so nothing blocks there any more.)
#[cfg(target_os = "linux")]
#[test]
fn a_fifo_strategy_file_is_refused_at_once_without_files() {
    let d = scratch("sigearly");
    let fifo = d.join("never_written.dom");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let out = d.join("out.csv");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_domsim"))
        .args(["sim", "-n", "10", "-o", out.to_str().unwrap()])
        .arg(&fifo)
        .arg("builtin:big-money")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let t = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t.elapsed() > std::time::Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("domsim blocked on its FIFO strategy file");
        }
        std::thread::sleep(std::time::Duration::from_millis(25));
    }
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("not a regular file (a FIFO)"),
        "{}",
        stderr(&o)
    );
    assert_eq!(entries(&d), vec!["never_written.dom"]);
}

/// Issue 17.4: rounds (mean and distribution) and per-seat wins, ties and
/// losses in the console and the CSV, consistent with each other.
#[test]
fn rounds_and_seat_records_are_reported() {
    use crate::cli::{domsim, scratch, stderr, stdout};
    let d = scratch("rounds");
    let csv = d.join("r.csv");
    let o = domsim(&[
        "sim",
        "builtin:big-money",
        "strategies/smithy_big_money.dom",
        "builtin:big-money",
        "-n",
        "600",
        "-o",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("rounds on average"), "{out}");
    assert!(out.contains("by seat (all strategies)"), "{out}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let hist = text
        .lines()
        .find_map(|l| l.strip_prefix("# rounds_histogram: "))
        .expect("histogram line");
    let pairs: Vec<(f64, f64)> = hist
        .split(' ')
        .map(|p| {
            let (r, c) = p.split_once(':').unwrap();
            (r.parse().unwrap(), c.parse().unwrap())
        })
        .collect();
    let games: f64 = pairs.iter().map(|p| p.1).sum();
    assert_eq!(games, 600.0);
    let mean = pairs.iter().map(|p| p.0 * p.1).sum::<f64>() / games;
    let mut rdr = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .from_reader(text.as_bytes());
    let header = rdr.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let mut seat_totals = [[0u64; 3]; 3];
    for rec in rdr.records() {
        let rec = rec.unwrap();
        let avg: f64 = rec[col("avg_rounds")].parse().unwrap();
        assert!((avg - mean).abs() < 1e-5, "{avg} vs {mean}");
        let p10: f64 = rec[col("rounds_p10")].parse().unwrap();
        let p90: f64 = rec[col("rounds_p90")].parse().unwrap();
        assert!(p10 <= mean && mean <= p90);
        let mut wins = 0;
        let mut ties = 0;
        for (seat, tot) in seat_totals.iter_mut().enumerate() {
            let get =
                |k: &str| -> u64 { rec[col(&format!("seat{}_{k}", seat + 1))].parse().unwrap() };
            let (w, t, l) = (get("wins"), get("ties"), get("losses"));
            // Every entrant plays every seat equally often (600 = 100 × 3!).
            assert_eq!(w + t + l, 200);
            wins += w;
            ties += t;
            tot[0] += w;
            tot[1] += t;
            tot[2] += l;
        }
        assert_eq!(wins.to_string(), rec[col("wins")]);
        assert_eq!(ties.to_string(), rec[col("ties")]);
        // Seats 4–6 are empty in a 3-player game.
        assert_eq!(&rec[col("seat4_wins")], "");
    }
    for tot in seat_totals {
        assert_eq!(tot.iter().sum::<u64>(), 600);
    }
}

/// Issue 20.2: with playtest outputs, Ctrl-C behaves as without them (one
/// pass): the run stops, exit status 130, and no file at all is written.
#[cfg(unix)]
#[test]
fn sigint_with_playtest_outputs_writes_nothing() {
    let d = scratch("sigint-report");
    let report = d.join("r.html");
    let saved = d.join("s.json");
    interrupted_run(
        &d,
        &[
            "--report",
            report.to_str().unwrap(),
            "--save-stats",
            saved.to_str().unwrap(),
        ],
        "-INT",
    );
}

/// The replay line of a games CSV is a command a shell runs as it is: it
/// names the run's card files (`--cards`, `--cards-only`), without which
/// `domsim log` does not know a data card of the kingdom, and quotes a
/// strategy path with a space. Run by `sh`, it replays the row's game.
#[test]
fn games_csv_replay_line_runs_with_data_cards_and_spaces() {
    let d = scratch("games-csv-replay");
    let dir = d.join("my bots");
    std::fs::create_dir(&dir).unwrap();
    let bot = dir.join("post rider.dom");
    std::fs::copy("strategies/playtest/post_rider_big_money.dom", &bot).unwrap();
    // `extends: ../big_money_ultimate.dom` of the copy: give it a neighbour.
    std::fs::copy(
        "strategies/big_money_ultimate.dom",
        d.join("big_money_ultimate.dom"),
    )
    .unwrap();
    let g = d.join("g.csv");
    let o = domsim(&[
        "sim",
        "--cards",
        "cards/examples.toml",
        "--cards",
        "cards/post_rider.toml",
        "--cards-only",
        "Post Rider,Tally Stick",
        "--kingdom",
        "Post Rider,Tally Stick",
        bot.to_str().unwrap(),
        "strategies/big_money.dom",
        "-n",
        "20",
        "--seed",
        "5",
        "--games-csv",
        g.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&g).unwrap();
    let replay = text
        .lines()
        .find_map(|l| l.strip_prefix("# replay: domsim "))
        .unwrap();
    assert!(
        replay.contains(
            " --cards cards/examples.toml --cards cards/post_rider.toml --cards-only 'Post Rider,Tally Stick'"
        ),
        "{replay}"
    );
    let row: Vec<&str> = text
        .lines()
        .find(|l| l.starts_with("13,"))
        .unwrap()
        .split(',')
        .collect();
    let exe = env!("CARGO_BIN_EXE_domsim");
    let cmd = format!("'{exe}' {}", replay.replace(" N", " 13"));
    let o = std::process::Command::new("sh")
        .arg("-c")
        .arg(&cmd)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{cmd}: {}", stderr(&o));
    let log = crate::cli::stdout(&o);
    for s in 0..2 {
        let want = format!("  P{}: {} VP in {} turns", s + 1, row[3 + s], row[5 + s]);
        assert!(log.contains(&want), "{want}\n{log}");
    }
}

/// `--games-csv` (issue 20.10): one row per game, in game order, whose
/// every row `domsim log --game N` replays (same VP and turns), with the
/// replay command in the file; refused with --checkpoint.
#[test]
fn games_csv_rows_replay_with_log() {
    let d = scratch("games-csv");
    let g = d.join("g.csv");
    let o = crate::cli::domsim(&[
        "sim",
        "strategies/big_money.dom",
        "strategies/militia_big_money.dom",
        "strategies/smithy_big_money.dom",
        "-n",
        "60",
        "--seed",
        "9",
        "--games-csv",
        g.to_str().unwrap(),
        "--stats",
        d.join("s.csv").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&g).unwrap();
    let replay = text
        .lines()
        .find_map(|l| l.strip_prefix("# replay: domsim "))
        .unwrap()
        .to_string();
    let rows: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(
        rows[0],
        "game,seat_1,seat_2,seat_3,vp_1,vp_2,vp_3,turns_1,turns_2,turns_3,winners,capped"
    );
    assert_eq!(rows.len(), 61);
    for (k, r) in rows[1..].iter().enumerate() {
        assert!(r.starts_with(&format!("{k},")), "in game order: {r}");
    }
    // Replay games 7 and 41: the log ends with the same VP and turns.
    for n in [7usize, 41] {
        let f: Vec<&str> = rows[n + 1].split(',').collect();
        let mut args: Vec<String> = Vec::new();
        // The replay line quotes the kingdom for a shell: split it back.
        let (before, rest) = replay.split_once("--kingdom '").unwrap();
        let (kingdom, after) = rest.split_once('\'').unwrap();
        args.extend(before.split_whitespace().map(String::from));
        args.push("--kingdom".into());
        args.push(kingdom.into());
        args.extend(
            after
                .split_whitespace()
                .map(|w| w.replace('N', &n.to_string())),
        );
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = crate::cli::domsim(&args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        let log = crate::cli::stdout(&o);
        for s in 0..3 {
            let want = format!("  P{}: {} VP in {} turns", s + 1, f[4 + s], f[7 + s]);
            assert!(log.contains(&want), "game {n}: {want}\n{log}");
            assert!(log.contains(&format!("P{} (seat {}): {} [", s + 1, s + 1, f[1 + s])));
        }
    }
    let o = crate::cli::domsim(&[
        "sim",
        "-n",
        "10",
        "--games-csv",
        d.join("x.csv").to_str().unwrap(),
        "--checkpoint",
        d.join("ck").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
}
