//! Deterministic shards (issue 16): `--shard I/N --save-partial` then
//! `domsim merge` writes the very bytes a one-machine run writes, for
//! `sim`, `matrix`, `sweep`, `rank` (and `compare`) and N = 1, 2, 3, 7; parts of another run, a shard
//! given twice and a missing shard are refused.

use crate::bad_inputs::next_in;
use crate::cli::{domsim, scratch, stderr, stdout, COMPARE_POST_RIDER};

fn run_ok(args: &[&str]) {
    let o = domsim(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
}

fn sharded(verb_args: &[&str], dir: &std::path::Path, tag: &str, n: usize) -> Vec<String> {
    let mut parts = Vec::new();
    for i in 1..=n {
        let part = dir.join(format!("{tag}-{i}of{n}.json"));
        let spec = format!("{i}/{n}");
        let mut args = verb_args.to_vec();
        args.extend(["--shard", &spec, "--save-partial", part.to_str().unwrap()]);
        run_ok(&args);
        parts.push(part.to_str().unwrap().to_string());
    }
    parts
}

fn merge(parts: &[String], out: &std::path::Path) -> std::process::Output {
    let mut args = vec!["merge"];
    args.extend(parts.iter().map(String::as_str));
    args.extend(["-o", out.to_str().unwrap()]);
    domsim(&args)
}

#[test]
fn merged_shards_equal_the_one_machine_run_byte_for_byte() {
    let d = scratch("shards");
    let sim: Vec<&str> = vec![
        "sim",
        "builtin:big-money",
        "strategies/smithy_big_money.dom",
        "strategies/double_witch.dom",
        "-n",
        "500",
        "--seed",
        "3",
        "--kingdom",
        "Witch,Smithy,Moat,Village,Market,Cellar,Chapel,Laboratory,Festival,Militia",
    ];
    let matrix: Vec<&str> = vec![
        "matrix",
        "builtin:big-money",
        "strategies/smithy_big_money.dom",
        "strategies/big_money_ultimate.dom",
        "-n",
        "101",
        "--seed",
        "5",
    ];
    let sweep: Vec<&str> = vec![
        "sweep",
        "builtin:big-money",
        "strategies/smithy_big_money.dom",
        "strategies/double_witch.dom",
        "--random",
        "9",
        "--sets",
        "base,intrigue",
        "-n",
        "20",
        "--seed",
        "8",
    ];
    let rank: Vec<&str> = vec![
        "rank",
        "--absent",
        "keep",
        "builtin:big-money",
        "strategies/smithy_big_money.dom",
        "strategies/big_money_ultimate.dom",
        "strategies/double_witch.dom",
        "-n",
        "60",
        "--seed",
        "4",
    ];
    // Tables of 3 over two random kingdoms: the Plackett–Luce path.
    let rank3: Vec<&str> = vec![
        "rank",
        "--absent",
        "keep",
        "builtin:big-money",
        "strategies/smithy_big_money.dom",
        "strategies/big_money_ultimate.dom",
        "strategies/double_witch.dom",
        "-p",
        "3",
        "--random-kingdoms",
        "2",
        "-n",
        "30",
        "--seed",
        "2",
    ];
    for (tag, verb) in [
        ("sim", &sim),
        ("matrix", &matrix),
        ("sweep", &sweep),
        ("rank", &rank),
        ("rank3", &rank3),
    ] {
        let full = d.join(format!("{tag}-full.csv"));
        let mut args = verb.clone();
        args.extend(["-o", full.to_str().unwrap()]);
        run_ok(&args);
        let want = std::fs::read(&full).unwrap();
        for n in [1, 2, 3, 7] {
            let parts = sharded(verb, &d, tag, n);
            let out = d.join(format!("{tag}-merged-{n}.csv"));
            let o = merge(&parts, &out);
            assert!(o.status.success(), "{tag} {n}: {}", stderr(&o));
            assert!(
                std::fs::read(&out).unwrap() == want,
                "{tag}: {n} shards merged differ from the one-machine CSV"
            );
            // Any order of the parts gives the same bytes.
            let mut rev = parts.clone();
            rev.reverse();
            let o = merge(&rev, &out);
            assert!(o.status.success());
            assert!(std::fs::read(&out).unwrap() == want, "{tag} {n} reversed");
        }
    }
}

/// A shard killed part-way (SIGKILL: no handler runs) resumes from its
/// checkpoint when the same command runs again (`--shard` with
/// `--checkpoint`); its partial is then the uninterrupted shard's, so the
/// merged CSV is still the one-machine CSV. A checkpoint belongs to one
/// shard: another shard of the same run refuses it.
#[test]
fn a_killed_shard_resumes_from_its_checkpoint() {
    let d = scratch("shards-ck");
    let common = ["sim", "-n", "60000", "--seed", "6", "-j", "1"];
    let full = d.join("full.csv");
    let mut args = common.to_vec();
    args.extend(["-o", full.to_str().unwrap()]);
    run_ok(&args);
    let want = std::fs::read(&full).unwrap();
    // Shard 2/2 is games 30000..60000.
    let ck = d.join("shard2.ck");
    let p2 = d.join("p2.json");
    let mut shard2 = common.to_vec();
    shard2.extend([
        "--shard",
        "2/2",
        "--save-partial",
        p2.to_str().unwrap(),
        "--checkpoint",
        ck.to_str().unwrap(),
        "--checkpoint-every",
        "500",
    ]);
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_domsim"))
        .args(&shard2)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let t = std::time::Instant::now();
    while next_in(&ck) <= 30000 && t.elapsed() < std::time::Duration::from_secs(60) {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let saved = next_in(&ck);
    assert!(
        saved > 30000 && saved < 60000,
        "killed mid-shard (next {saved})"
    );
    assert_eq!(saved % 500, 0, "checkpoints at batch boundaries");
    assert!(!p2.exists(), "a killed shard writes no partial");
    let text = std::fs::read_to_string(&ck).unwrap();
    assert!(text.contains("\nfirst 30000\n"), "{text}");

    // Shard 1/2 may not use shard 2's checkpoint.
    let p1 = d.join("p1.json");
    let mut shard1 = common.to_vec();
    shard1.extend(["--shard", "1/2", "--save-partial", p1.to_str().unwrap()]);
    let mut wrong = shard1.clone();
    wrong.extend(["--checkpoint", ck.to_str().unwrap()]);
    let o = crate::cli::domsim(&wrong);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("belongs to another run"),
        "{}",
        stderr(&o)
    );
    assert!(!p1.exists());

    // The same command again resumes shard 2 and completes it.
    let o = crate::cli::domsim(&shard2);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("resumed from checkpoint"),
        "{}",
        stderr(&o)
    );
    assert_eq!(next_in(&ck), 60000);
    run_ok(&shard1);
    let out = d.join("merged.csv");
    let o = merge(
        &[p1.to_str().unwrap().into(), p2.to_str().unwrap().into()],
        &out,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        std::fs::read(&out).unwrap() == want,
        "a resumed shard merged differs from the one-machine CSV"
    );
}

#[test]
fn merge_refuses_foreign_duplicate_and_missing_parts() {
    let d = scratch("shards-bad");
    let base = ["sim", "builtin:big-money", "builtin:big-money", "-n", "90"];
    let mut a = base.to_vec();
    a.extend(["--seed", "1"]);
    let mut b = base.to_vec();
    b.extend(["--seed", "2"]);
    let pa = sharded(&a, &d, "a", 3);
    let pb = sharded(&b, &d, "b", 3);
    let out = d.join("m.csv");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec![pa[0].clone(), pa[1].clone(), pb[2].clone()],
            "different runs (seed",
        ),
        (
            vec![pa[0].clone(), pa[1].clone(), pa[1].clone()],
            "given twice",
        ),
        (vec![pa[0].clone(), pa[2].clone()], "missing: 2/3"),
    ];
    for (parts, needle) in cases {
        let o = merge(&parts, &out);
        assert_eq!(o.status.code(), Some(2), "{needle}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{needle}: {}", stderr(&o));
        assert!(!out.exists(), "nothing written");
    }
    // A part of another shard count.
    let p2 = sharded(&a, &d, "c", 2);
    let o = merge(&[pa[0].clone(), p2[1].clone(), pa[2].clone()], &out);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("one of 3 shards"), "{}", stderr(&o));
    // Not a partial file at all.
    let junk = d.join("junk.json");
    std::fs::write(&junk, "{}").unwrap();
    let o = merge(&[junk.to_str().unwrap().to_string()], &out);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("not a domsim partial file"),
        "{}",
        stderr(&o)
    );
    // --shard needs --save-partial and refuses -o.
    let o = domsim(&["sim", "-n", "10", "--shard", "1/2"]);
    assert_eq!(o.status.code(), Some(2));
    let o = domsim(&[
        "sim",
        "-n",
        "10",
        "--shard",
        "3/2",
        "--save-partial",
        d.join("x.json").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("numbered 1 to 2"), "{}", stderr(&o));
}

/// The Slurm scripts, run as Slurm would run them (each array task with its
/// SLURM_ARRAY_TASK_ID, then the merge job), give the one-machine CSV. This
/// checks the scripts' own logic on any machine; the scheduler itself is
/// exercised by scripts/slurm/local-cluster.sh where Slurm is installed.
#[test]
fn slurm_scripts_run_the_shards_and_merge() {
    let d = scratch("slurm-scripts");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let args = [
        "sim",
        "builtin:big-money",
        "strategies/smithy_big_money.dom",
        "-n",
        "300",
        "--seed",
        "4",
    ];
    let full = d.join("full.csv");
    let mut one = args.to_vec();
    one.extend(["-o", full.to_str().unwrap()]);
    run_ok(&one);
    let parts = d.join("parts");
    for i in 1..=4 {
        let o = std::process::Command::new("bash")
            .arg(root.join("scripts/slurm/shard.sbatch"))
            .args(args)
            .current_dir(root)
            .env("SLURM_ARRAY_TASK_ID", i.to_string())
            .env("SLURM_CPUS_PER_TASK", "1")
            .env("SHARDS", "4")
            .env("PARTS", &parts)
            .env("DOMSIM", env!("CARGO_BIN_EXE_domsim"))
            .output()
            .unwrap();
        assert!(o.status.success(), "task {i}: {}", stderr(&o));
    }
    let merged = d.join("merged.csv");
    let o = std::process::Command::new("bash")
        .arg(root.join("scripts/slurm/merge.sbatch"))
        .arg(&merged)
        .env("SHARDS", "4")
        .env("PARTS", &parts)
        .env("DOMSIM", env!("CARGO_BIN_EXE_domsim"))
        .output()
        .unwrap();
    assert!(o.status.success(), "merge: {}", stderr(&o));
    assert!(std::fs::read(&merged).unwrap() == std::fs::read(&full).unwrap());
    // A task that did not run: the merge job refuses and writes nothing.
    std::fs::remove_file(parts.join("part-3.json")).unwrap();
    let again = d.join("again.csv");
    let o = std::process::Command::new("bash")
        .arg(root.join("scripts/slurm/merge.sbatch"))
        .arg(&again)
        .env("SHARDS", "4")
        .env("PARTS", &parts)
        .env("DOMSIM", env!("CARGO_BIN_EXE_domsim"))
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(!again.exists());
}

/// A stand-in for Slurm's `sbatch`: runs the job at once in its `--chdir`
/// with its `--export` variables (an array's tasks one after another) and
/// prints a job id.
const FAKE_SBATCH: &str = r#"#!/usr/bin/env bash
set -euo pipefail
chdir=. array= export=ALL
while [[ $# -gt 0 && $1 == --* ]]; do
  case $1 in
    --chdir=*) chdir=${1#--chdir=} ;;
    --array=*) array=${1#--array=} ;;
    --export=*) export=${1#--export=} ;;
  esac
  shift
done
script=$1; shift
vars=()
IFS=, read -ra kv <<<"$export"
for x in "${kv[@]}"; do [[ $x == ALL ]] || vars+=("$x"); done
cd "$chdir"
if [[ -n $array ]]; then
  for ((i=${array%-*}; i<=${array#*-}; i++)); do
    env "${vars[@]}" SLURM_ARRAY_TASK_ID=$i bash "$script" "$@" >&2
  done
else
  env "${vars[@]}" bash "$script" "$@" >&2
fi
echo 4242
"#;

/// `scripts/slurm/submit.sh` runs the jobs in the folder it is called
/// from: a relative OUT, PARTS and the user's own strategy file there mean
/// what they mean there (they used to be taken from the repository root,
/// so every task failed). A sweep's SUMMARY is merged too. Slurm is a
/// stand-in that runs each job at once.
#[cfg(unix)]
#[test]
fn slurm_submit_runs_in_the_folder_it_is_called_from() {
    use std::os::unix::fs::PermissionsExt;
    let d = scratch("slurm-submit");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let bin = d.join("bin");
    std::fs::create_dir(&bin).unwrap();
    std::fs::write(bin.join("sbatch"), FAKE_SBATCH).unwrap();
    std::fs::set_permissions(bin.join("sbatch"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let user = d.join("user dir");
    std::fs::create_dir(&user).unwrap();
    std::fs::copy(root.join("strategies/big_money.dom"), user.join("mine.dom")).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let exe = env!("CARGO_BIN_EXE_domsim");
    let here = |args: &[&str], env: &[(&str, &str)]| {
        let o = std::process::Command::new("bash")
            .arg(root.join("scripts/slurm/submit.sh"))
            .args(args)
            .current_dir(&user)
            .env("PATH", &path)
            .env("DOMSIM", exe)
            .envs(env.iter().copied())
            .output()
            .unwrap();
        assert!(o.status.success(), "submit.sh {args:?}: {}", stderr(&o));
    };
    let one = |args: &[&str]| {
        let o = std::process::Command::new(exe)
            .args(args)
            .current_dir(&user)
            .output()
            .unwrap();
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    };
    // submit.sh with `shards` shards merging into `out` (plus what `env`
    // asks for), then the one-machine run with `outs`: each pair of files
    // holds the same bytes (both must exist).
    let against_one_machine = |verb: &[&str],
                               shards: &str,
                               out: &str,
                               env: &[(&str, &str)],
                               outs: &[&str],
                               pairs: &[(&str, &str)]| {
        let mut args = vec![shards, out];
        args.extend(verb);
        here(&args, env);
        let mut args = verb.to_vec();
        args.extend(outs);
        one(&args);
        for (merged, full) in pairs {
            let read = |f: &str| std::fs::read(user.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
            assert!(read(merged) == read(full), "{merged} differs from {full}");
        }
    };
    let sim = [
        "sim",
        "mine.dom",
        "builtin:big-money",
        "-n",
        "300",
        "--seed",
        "4",
    ];
    against_one_machine(
        &sim,
        "3",
        "table.csv",
        &[("PARTS", "myparts")],
        &["-o", "full.csv"],
        &[("table.csv", "full.csv")],
    );
    assert!(user.join("myparts/part-3.json").exists());

    let sweep = [
        "sweep",
        "mine.dom",
        "builtin:big-money",
        "--random",
        "3",
        "-n",
        "10",
        "--seed",
        "2",
    ];
    against_one_machine(
        &sweep,
        "2",
        "sweep.csv",
        &[("PARTS", "sweepparts"), ("SUMMARY", "sum.csv")],
        &["-o", "sweep-full.csv", "--summary", "sum-full.csv"],
        &[("sweep.csv", "sweep-full.csv"), ("sum.csv", "sum-full.csv")],
    );

    // A compare, with its HTML page (HTML= was not passed to the merge,
    // so a sharded compare or rank could not get its page from submit.sh).
    std::fs::copy(root.join("cards/post_rider.toml"), user.join("a.toml")).unwrap();
    std::fs::copy(root.join("cards/post_rider_b.toml"), user.join("b.toml")).unwrap();
    let compare = [
        "compare",
        "--a",
        "a.toml",
        "--b",
        "b.toml",
        "--kingdom",
        "Post Rider",
        "mine.dom",
        "builtin:big-money",
        "-n",
        "90",
    ];
    against_one_machine(
        &compare,
        "3",
        "ab.csv",
        &[("PARTS", "abparts"), ("HTML", "ab.html")],
        &["-o", "ab-full.csv", "--html", "ab-full.html"],
        &[("ab.csv", "ab-full.csv"), ("ab.html", "ab-full.html")],
    );
}

/// What a part or checkpoint is keyed by covers what changes the games:
/// the contents of a kingdoms file, not only its path (parts of two edits
/// of the file used to merge into a CSV of no run), and the Shelters
/// setting (a `--shelters on` checkpoint used to resume a `--shelters off`
/// run with the other run's counts). A kingdoms file may also separate
/// cards with the "; " a sweep CSV writes them with, and `merge --summary`
/// belongs to sweep parts.
#[test]
fn run_keys_cover_kingdoms_file_contents_and_shelters() {
    let d = scratch("run-keys");
    let kfile = d.join("k.txt");
    let k1 = "Cellar; Chapel; Moat; Village; Smithy; Festival; Market; Laboratory; Mine; Witch\n";
    let k2 =
        "Workshop,Gardens,Woodcutter,Moneylender,Militia,Bureaucrat,Remodel,Spy,Thief,Library\n";
    std::fs::write(&kfile, format!("{k1}{k2}")).unwrap();
    let sweep = [
        "sweep",
        "builtin:big-money",
        "strategies/smithy_big_money.dom",
        "--kingdoms",
        kfile.to_str().unwrap(),
        "-n",
        "6",
    ];
    let part = |i: &str| {
        let p = d.join(format!("part-{}.json", i.replace('/', "of")));
        let mut a = sweep.to_vec();
        a.extend(["--shard", i, "--save-partial", p.to_str().unwrap()]);
        run_ok(&a);
        p.to_str().unwrap().to_string()
    };
    let p1 = part("1/2");
    std::fs::write(&kfile, format!("{k1}{}", k2.replace("Library", "Witch"))).unwrap();
    let p2 = part("2/2");
    let out = d.join("mixed.csv");
    let o = merge(&[p1.clone(), p2], &out);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("different runs"), "{}", stderr(&o));
    assert!(!out.exists());
    // --summary is a sweep's: refused for the parts of a sim.
    let sim = [
        "sim",
        "builtin:big-money",
        "strategies/smithy_big_money.dom",
        "-n",
        "40",
    ];
    let sp = d.join("sim-1.json");
    let mut a = sim.to_vec();
    a.extend(["--shard", "1/1", "--save-partial", sp.to_str().unwrap()]);
    run_ok(&a);
    let sum = d.join("sum.csv");
    let o = domsim(&[
        "merge",
        sp.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--summary",
        sum.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("only the parts of a `domsim sweep`"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists() && !sum.exists());
    // A checkpoint of a --shelters on run does not resume a --shelters off run.
    let ck = d.join("run.ck");
    let mut on = sim.to_vec();
    on.extend([
        "--kingdom",
        "Hermit,Rats,Cultist,Village,Smithy,Market,Moat,Cellar,Chapel,Witch",
    ]);
    on.extend(["--checkpoint", ck.to_str().unwrap()]);
    let mut off = on.clone();
    on.extend(["--shelters", "on"]);
    off.extend(["--shelters", "off"]);
    run_ok(&on);
    let o = domsim(&off);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("belongs to another run"),
        "{}",
        stderr(&o)
    );
}

/// `domsim sweep`: one row per kingdom × strategy, kingdoms from a file or
/// drawn from the seed, a summary by card; bad kingdom files are refused
/// with their line.
#[test]
fn sweep_rows_summary_and_kingdom_files() {
    let d = scratch("sweep");
    let kfile = d.join("k.txt");
    std::fs::write(
        &kfile,
        "# two kingdoms\nCellar,Chapel,Moat,Village,Smithy,Festival,Market,Laboratory,Mine,Witch\n\n\
         Workshop,Gardens,Woodcutter,Moneylender,Militia,Bureaucrat,Remodel,Spy,Thief,Library\n",
    )
    .unwrap();
    let out = d.join("s.csv");
    let summary = d.join("sum.csv");
    let o = domsim(&[
        "sweep",
        "builtin:big-money",
        "strategies/double_witch.dom",
        "--kingdoms",
        kfile.to_str().unwrap(),
        "-n",
        "40",
        "-o",
        out.to_str().unwrap(),
        "--summary",
        summary.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&out).unwrap();
    let rows: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(rows.len(), 1 + 2 * 2, "{text}");
    assert!(rows[0].starts_with("kingdom_index,kingdom,strategy,source_hash,games,score"));
    // In each kingdom the two strategies' scores sum to 1 (one pair).
    let mut rdr = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .from_reader(text.as_bytes());
    let recs: Vec<csv::StringRecord> = rdr.records().map(|r| r.unwrap()).collect();
    for pair in recs.chunks(2) {
        let s: f64 = pair.iter().map(|r| r[5].parse::<f64>().unwrap()).sum();
        assert!((s - 1.0).abs() < 1e-5, "{pair:?}");
        assert_eq!(&pair[0][4], "40");
    }
    // Double Witch names Witch: its entries are ignored in the kingdom without it.
    assert_eq!(&recs[1][9], "0");
    assert_ne!(&recs[3][9], "0", "{:?}", recs[3]);
    let sum = std::fs::read_to_string(&summary).unwrap();
    assert!(
        sum.contains("strategy,card,kingdoms_with,score_with"),
        "{sum}"
    );
    assert!(sum.contains("Double Witch,Witch,1,"), "{sum}");
    // A bad card in the kingdoms file is named with its line.
    std::fs::write(
        &kfile,
        "Cellar,Chapel,Moat,Village,Smithy,Festival,Market,Laboratory,Mine,Witch\nSmithee\n",
    )
    .unwrap();
    let o = domsim(&[
        "sweep",
        "builtin:big-money",
        "builtin:big-money",
        "--kingdoms",
        kfile.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("k.txt:2: "), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("did you mean 'Smithy'"),
        "{}",
        stderr(&o)
    );
}

/// `domsim rank` (issue 15): the acceptance command on the shipped folder's
/// bots; a leaderboard with a rating and an interval per bot, sorted, and
/// the head-to-head matrix beside it.
#[test]
fn rank_writes_a_leaderboard_with_intervals() {
    let d = scratch("rank");
    let out = d.join("r.csv");
    let m = d.join("m.csv");
    let o = domsim(&[
        "rank",
        "--absent",
        "keep",
        "strategies/big_money.dom",
        "strategies/smithy_big_money.dom",
        "strategies/militia_big_money.dom",
        "strategies/double_witch.dom",
        "--preset",
        "First Game",
        "-n",
        "400",
        "-o",
        out.to_str().unwrap(),
        "--matrix",
        m.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Double Witch names Witch, absent from First Game: said once.
    assert!(stderr(&o).contains("Double Witch"), "{}", stderr(&o));
    let text = std::fs::read_to_string(&out).unwrap();
    let mut rdr = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .from_reader(text.as_bytes());
    let recs: Vec<csv::StringRecord> = rdr.records().map(|r| r.unwrap()).collect();
    assert_eq!(recs.len(), 4);
    let mut last = f64::INFINITY;
    let mut total = 0.0;
    for (k, r) in recs.iter().enumerate() {
        assert_eq!(r[0], (k + 1).to_string());
        let (rating, lo, hi): (f64, f64, f64) = (
            r[4].parse().unwrap(),
            r[5].parse().unwrap(),
            r[6].parse().unwrap(),
        );
        assert!(lo < rating && rating < hi, "{r:?}");
        assert!(hi - lo > 5.0 && hi - lo < 200.0, "{r:?}");
        assert!(rating <= last);
        last = rating;
        total += rating;
        assert_eq!(&r[7], "1200");
    }
    assert!(total.abs() < 0.01, "ratings centred: {total}");
    // Big Money is last of these four on First Game.
    assert_eq!(&recs[3][1], "Big Money");
    assert!(std::fs::read_to_string(&m)
        .unwrap()
        .contains("Militia Big Money"));
    // A folder is every .dom inside it.
    let o = domsim(&["rank", "--absent", "keep", "strategies", "-n", "4"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// `rank --precision` over several kingdoms stops only when every rating
/// it writes is that precise: each kingdom's as well as the overall ones.
#[test]
fn rank_precision_covers_every_kingdom() {
    let d = scratch("rank-prec");
    let out = d.join("r.csv");
    let o = domsim(&[
        "rank",
        "--absent",
        "keep",
        "strategies/big_money.dom",
        "strategies/smithy_big_money.dom",
        "strategies/militia_big_money.dom",
        "strategies/throne_room.dom",
        "--random-kingdoms",
        "4",
        "--sets",
        "base",
        "-n",
        "5000",
        "--precision",
        "20",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("# precision_reached: true"), "{text}");
    let mut rdr = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .from_reader(text.as_bytes());
    let mut kingdoms = 0;
    for r in rdr.records() {
        let r = r.unwrap();
        let (lo, hi): (f64, f64) = (r[7].parse().unwrap(), r[8].parse().unwrap());
        assert!((hi - lo) / 2.0 < 20.0, "{r:?}");
        kingdoms += (&r[0] != "overall") as usize;
    }
    assert_eq!(kingdoms, 16, "4 kingdoms × 4 strategies checked");
}

/// `matrix` and `sweep` take a folder as `rank` does: every `*.dom` inside.
#[test]
fn matrix_and_sweep_take_a_folder() {
    let d = scratch("field-folder");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("strategies");
    for f in [
        "big_money.dom",
        "smithy_big_money.dom",
        "big_money_ultimate.dom",
    ] {
        std::fs::copy(root.join(f), d.join(f)).unwrap();
    }
    let dir = d.to_str().unwrap();
    let o = domsim(&["matrix", dir, "-n", "20"]);
    assert!(o.status.success(), "{}", stderr(&o));
    for name in ["Big Money", "Big Money Ultimate", "Smithy Big Money"] {
        assert!(stdout(&o).contains(name), "{}", stdout(&o));
    }
    let o = domsim(&["sweep", dir, "--random", "2", "-n", "4"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Big Money Ultimate"), "{}", stdout(&o));
}

/// At 2 players every pair plays, however large the field: the shipped
/// folder has more than 28 bots (over 400 pairs, which used to be
/// sampled down to `--tables`), and the matrix has no empty cell but the
/// diagonal. `--tables` belongs to larger tables.
#[test]
fn rank_of_two_plays_every_pair_of_a_large_field() {
    let d = scratch("rank-all");
    let m = d.join("m.csv");
    let o = domsim(&[
        "rank",
        "--absent",
        "keep",
        "strategies",
        "--preset",
        "First Game",
        "-n",
        "2",
        "--matrix",
        m.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&m).unwrap();
    let rows: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let n = rows.len() - 1;
    assert!(n > 28, "{n} bots");
    let pairs = n * (n - 1) / 2;
    assert!(
        stdout(&o).contains(&format!("{pairs} table(s) of 2")),
        "{}",
        stdout(&o)
    );
    let empty: usize = rows[1..]
        .iter()
        .map(|r| r.split(',').skip(1).filter(|c| c.is_empty()).count())
        .sum();
    assert_eq!(empty, n, "only the diagonal is empty");
    let o = domsim(&[
        "rank",
        "--absent",
        "keep",
        "strategies",
        "-n",
        "2",
        "--tables",
        "10",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--tables is for tables of 3 to 6 players"),
        "{}",
        stderr(&o)
    );
}

/// `rank -p 3..6` plays tables and fits Plackett–Luce; several kingdoms
/// give a leaderboard per kingdom and one overall; `--precision` stops
/// early and says whether it was reached; `--html` is a self-contained
/// page with every strategy and, for 2 players, the sorted heat map.
#[test]
fn rank_tables_kingdoms_precision_and_html() {
    let d = scratch("rank-more");
    let field = [
        "strategies/big_money.dom",
        "strategies/smithy_big_money.dom",
        "strategies/militia_big_money.dom",
        "strategies/double_witch.dom",
        "strategies/big_money_ultimate.dom",
    ];
    let out = d.join("r4.csv");
    let mut args = vec![
        "rank",
        "--absent",
        "keep",
        "-p",
        "4",
        "--preset",
        "Size Distortion",
        "-n",
        "300",
    ];
    args.extend(field);
    args.extend(["-o", out.to_str().unwrap()]);
    let o = domsim(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("5 table(s) of 4"), "{}", stdout(&o));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("# players: 4\n") && text.contains("Plackett-Luce"));
    let rows: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(rows.len(), 6);
    // Double Witch leads in a Witch kingdom; every bot sat at 4 of the 5 tables.
    assert!(rows[1].starts_with("1,Double Witch,"), "{}", rows[1]);
    assert!(rows[1..].iter().all(|r| r.contains(",1200,")), "{rows:?}");

    // Several kingdoms: overall rows, then each kingdom's.
    let out = d.join("rk.csv");
    let mut args = vec![
        "rank",
        "--absent",
        "keep",
        "--random-kingdoms",
        "3",
        "--sets",
        "base",
        "-n",
        "100",
    ];
    args.extend(field);
    args.extend(["-o", out.to_str().unwrap()]);
    let o = domsim(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("overall, 3 kingdoms"), "{}", stdout(&o));
    let text = std::fs::read_to_string(&out).unwrap();
    let rows: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(
        rows[0].starts_with("scope,kingdom,rank,strategy"),
        "{}",
        rows[0]
    );
    assert_eq!(rows.len(), 1 + 4 * 5);
    assert_eq!(rows.iter().filter(|r| r.starts_with("overall,")).count(), 5);
    assert_eq!(rows.iter().filter(|r| r.starts_with("3,")).count(), 5);

    // --precision: reached well before -n, at a 500-game step.
    let mut args = vec![
        "rank",
        "--absent",
        "keep",
        "--preset",
        "First Game",
        "-n",
        "100000",
        "--precision",
        "25",
    ];
    args.extend(&field[..3]);
    let o = domsim(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = stdout(&o);
    assert!(s.contains("precision ±25 Elo reached after"), "{s}");
    assert!(!s.contains("100000 games per table"), "{s}");
    // Not reached: said on stdout and stderr.
    let mut args = vec![
        "rank",
        "--absent",
        "keep",
        "--preset",
        "First Game",
        "-n",
        "500",
        "--precision",
        "1",
    ];
    args.extend(&field[..3]);
    let o = domsim(&args);
    assert!(o.status.success());
    assert!(stdout(&o).contains("NOT reached") && stderr(&o).contains("not reached"));

    // HTML: every strategy, intervals, the heat map with a mean column.
    let html = d.join("r.html");
    let mut args = vec![
        "rank",
        "--absent",
        "keep",
        "--preset",
        "First Game",
        "-n",
        "200",
    ];
    args.extend(field);
    args.extend(["--html", html.to_str().unwrap()]);
    let o = domsim(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let page = std::fs::read_to_string(&html).unwrap();
    for name in [
        "Big Money",
        "Smithy Big Money",
        "Militia Big Money",
        // Kept (--absent keep) and labelled: no Witch in First Game.
        "Double Witch (without Witch)",
    ] {
        assert!(page.contains(&format!(">{name}<")), "{name}");
    }
    assert!(page.contains("Head to head") && page.contains(">mean</th>"));
    assert_eq!(
        page.matches("<svg").count(),
        5,
        "one interval per strategy (the matrix is a table)"
    );
    assert_eq!(
        page.matches("<table class=\"m\">").count(),
        1,
        "the head-to-head matrix"
    );
    assert!(
        !page.contains("src=") && !page.contains("href=") && !page.contains("<script"),
        "self-contained"
    );

    // Bad combinations: exit 2.
    for bad in [
        vec![
            "rank",
            "--absent",
            "keep",
            "-p",
            "7",
            "strategies/big_money.dom",
            "strategies/chapel.dom",
        ],
        vec![
            "rank",
            "--absent",
            "keep",
            "-p",
            "3",
            "strategies/big_money.dom",
            "strategies/chapel.dom",
        ],
        vec![
            "rank",
            "--absent",
            "keep",
            "--precision",
            "0",
            "strategies/big_money.dom",
            "strategies/chapel.dom",
        ],
        vec![
            "rank",
            "--absent",
            "keep",
            "-p",
            "3",
            "--matrix",
            "m.csv",
            "strategies/big_money.dom",
            "strategies/chapel.dom",
            "strategies/rats.dom",
        ],
        vec![
            "rank",
            "--absent",
            "keep",
            "--random-kingdoms",
            "2",
            "--preset",
            "First Game",
            "strategies/big_money.dom",
            "strategies/chapel.dom",
        ],
    ] {
        let o = domsim(&bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {}", stderr(&o));
    }
}

// ---------------------------------------------------------------------------
// Damaged partials and checkpoints (the audit of `merge` and resume): every
// field a file carries is checked against the others and the limits; a
// damaged one is refused with status 2 and a message naming the file and
// the field, without a panic, and nothing is written.

/// `src` with its JSON changed by `f`, saved as `dst`.
fn damaged(src: &str, dst: &std::path::Path, f: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(src).unwrap()).unwrap();
    f(&mut v);
    std::fs::write(dst, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
    dst.to_str().unwrap().to_string()
}

/// `o` is a refusal of bad input: status 2, every needle in its message,
/// no panic or abort.
fn assert_refused(o: &std::process::Output, needles: &[&str]) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{needles:?}: {err}");
    for n in needles {
        assert!(err.contains(n), "{n:?} not in: {err}");
    }
    assert!(
        !err.contains("panicked") && !err.contains("memory allocation"),
        "{err}"
    );
}

/// Each damaged checkpoint text of `cases`, written to `ck`, makes `resume`
/// exit 2 naming the file and the field (`inconsistent`, the needle),
/// write no `out` and leave the checkpoint as it was (and nothing else in
/// its folder).
fn resume_refuses_each(
    ck: &std::path::Path,
    out: &std::path::Path,
    cases: Vec<(String, &str)>,
    resume: impl Fn() -> std::process::Output,
) {
    for (text, needle) in cases {
        std::fs::write(ck, &text).unwrap();
        assert_refused(&resume(), &[ck.to_str().unwrap(), "inconsistent", needle]);
        assert!(!out.exists(), "{needle}: no output");
        assert_eq!(
            std::fs::read_to_string(ck).unwrap(),
            text,
            "{needle}: checkpoint kept"
        );
        let dir = ck.parent().unwrap();
        assert_eq!(crate::cli::entries(dir), vec!["run.ck".to_string()]);
    }
}

/// `merge` of `parts` is refused naming `needles`, and writes nothing.
fn merge_refused(parts: &[String], out: &std::path::Path, needles: &[&str]) {
    let o = merge(parts, out);
    assert_refused(&o, needles);
    assert!(
        !stdout(&o).contains("merged"),
        "{needles:?}: {}",
        stdout(&o)
    );
    assert!(!out.exists(), "{needles:?}: nothing written");
    let dir = out.parent().unwrap();
    let stray: Vec<String> = crate::cli::entries(dir)
        .into_iter()
        .filter(|e| !e.ends_with(".json") && !e.ends_with(".ck"))
        .collect();
    assert!(stray.is_empty(), "{needles:?}: left {stray:?}");
}

/// A sweep over kingdoms holding a data card shards and merges like any
/// other: the card's name is read back from the run's `data_cards`
/// metadata, and the merge equals the one-machine run.
#[test]
fn sweep_with_a_data_card_merges_byte_for_byte() {
    let d = scratch("sweep-data-merge");
    let k = d.join("k.txt");
    std::fs::write(
        &k,
        "Post Rider,Village,Market,Militia,Mine,Moat,Remodel,Cellar,Workshop,Woodcutter\n\
         Post Rider,Smithy,Market,Militia,Mine,Moat,Remodel,Cellar,Workshop,Woodcutter\n",
    )
    .unwrap();
    let whole = d.join("whole.csv");
    let args = [
        "--cards",
        "cards/post_rider.toml",
        "sweep",
        "builtin:big-money",
        "strategies/big_money.dom",
        "--kingdoms",
        k.to_str().unwrap(),
        "-n",
        "10",
    ];
    let mut one = args.to_vec();
    one.extend(["-o", whole.to_str().unwrap()]);
    run_ok(&one);
    let parts = sharded(&args, &d, "p", 2);
    let merged = d.join("merged.csv");
    let o = merge(&parts, &merged);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read(&merged).unwrap(),
        std::fs::read(&whole).unwrap()
    );
}

#[test]
fn merge_refuses_damaged_sim_partials() {
    let d = scratch("shards-damaged");
    let run = [
        "sim",
        "-n",
        "100",
        "builtin:big-money",
        "strategies/smithy_big_money.dom",
    ];
    let p = sharded(&run, &d, "p", 2);
    let out = d.join("m.csv");
    // The good parts merge (the damaged ones below differ only as stated).
    assert!(merge(&p, &out).status.success());
    std::fs::remove_file(&out).unwrap();
    let bad = d.join("bad.json");
    let bad2 = d.join("bad2.json");
    let name = bad.to_str().unwrap().to_string();
    let set = |path: &str, ptr: &str, x: serde_json::Value| {
        damaged(path, &bad, |v| *v.pointer_mut(ptr).unwrap() = x)
    };
    use serde_json::json;
    let max = json!(u64::MAX);
    let cases: Vec<(&str, serde_json::Value, Vec<&str>)> = vec![
        ("/shard/index", json!(5), vec!["shard.index 5"]),
        ("/shard/index", json!(0), vec!["shard.index 0"]),
        (
            "/shard/count",
            json!(4_000_000_000u64),
            vec!["shard.count 4000000000"],
        ),
        ("/shard/count", max.clone(), vec!["shard.count"]),
        ("/first", json!(7), vec!["should hold games 0.."]),
        (
            "/key/games",
            max.clone(),
            vec!["key.games 18446744073709551615"],
        ),
        ("/key/meta/5/1", json!("9"), vec!["players 9"]),
        (
            "/key/meta/5/1",
            json!("3"),
            vec!["key.entrants has 2 strategies", "3 players"],
        ),
        ("/key/verb", json!("matrix"), vec!["key.verb 'matrix'"]),
        (
            "/counts/Sim/games",
            json!(49),
            vec!["counts.Sim: rounds histogram counts 50 games, not 49"],
        ),
        (
            "/counts/Sim/tied_games",
            json!(51),
            vec!["counts.Sim: tied_games 51"],
        ),
        (
            "/counts/Sim/entrants/0/games",
            max.clone(),
            vec!["counts.Sim: entrants[0]: wins"],
        ),
        (
            "/counts/Sim/entrants/1/wins",
            json!(500),
            vec!["counts.Sim: entrants[1]: wins 500"],
        ),
        (
            "/counts/Sim/entrants/0/seat_games/4",
            json!(3),
            vec!["entrants[0]: seat_games[4]"],
        ),
        (
            "/counts/Sim/entrants/0/seat_units/0",
            json!(7777),
            vec!["entrants[0]: seat_units"],
        ),
        (
            "/counts/Sim/entrants/1/turns_sum",
            max.clone(),
            vec!["entrants[1]: turns_sum"],
        ),
        (
            "/counts/Sim/entrants/3/games",
            json!(1),
            vec!["entrants[3] has counts"],
        ),
        (
            "/counts/Sim/rounds/20",
            json!(1000),
            vec!["rounds histogram"],
        ),
        // Sums no 50 games can reach: at most 100 turns and 372000 VP a
        // player a game (an average VP of 21 million was merged).
        (
            "/counts/Sim/entrants/0/vp_sum",
            json!(4_294_967_296u64),
            vec!["entrants[0]: vp_sum 4294967296 is more than 50 games can score"],
        ),
        (
            "/counts/Sim/entrants/1/vp_sum",
            json!(-18_600_001i64),
            vec!["entrants[1]: vp_sum -18600001"],
        ),
        (
            "/counts/Sim/entrants/1/turns_sum",
            json!(5001),
            vec!["entrants[1]: turns_sum 5001 is more than 50 games can take"],
        ),
        // The strategies as a run writes them.
        (
            "/key/entrants/1/name",
            json!(" "),
            vec!["key.entrants[1]: the strategy name is empty"],
        ),
        (
            "/key/entrants/1/hash",
            json!("not-hex-at-all!!"),
            vec!["key.entrants[1]: hash \"not-hex-at-all!!\""],
        ),
        (
            "/key/entrants/1/hash",
            json!(""),
            vec!["key.entrants[1]: hash \"\""],
        ),
        (
            "/key/entrants/0/source",
            json!(""),
            vec!["key.entrants[0]: strategy 'Big Money (built-in)' has no source"],
        ),
    ];
    for (ptr, x, needles) in cases {
        let b = set(&p[0], ptr, x);
        let mut want = vec![name.as_str()];
        want.extend(needles.iter().copied());
        merge_refused(&[b, p[1].clone()], &out, &want);
    }
    // Empty strategies in both parts.
    let a = damaged(&p[0], &bad, |v| v["key"]["entrants"] = json!([]));
    let b = damaged(&p[1], &bad2, |v| v["key"]["entrants"] = json!([]));
    merge_refused(&[a, b], &out, &[&name, "key.entrants is empty"]);
    // Alone, a huge shard count is refused before anything is allocated.
    let c = set(&p[0], "/shard/count", json!(4_000_000_000u64));
    merge_refused(&[c], &out, &[&name, "shard.count"]);
}

/// A line break in a partial's metadata would end its `# key: value`
/// comment line and put a data row of the partial's choosing before the
/// header: the value (or key) is refused, naming the field, and nothing
/// is written.
#[test]
fn merge_refuses_line_breaks_in_metadata() {
    let d = scratch("shards-meta-lines");
    let run = [
        "matrix",
        "-n",
        "20",
        "builtin:big-money",
        "strategies/smithy_big_money.dom",
    ];
    let p = sharded(&run, &d, "p", 1);
    let out = d.join("m.csv");
    let bad = d.join("bad.json");
    let name = bad.to_str().unwrap().to_string();
    use serde_json::json;
    for (ptr, x, needle) in [
        (
            "/key/meta/0/1",
            json!("x\n# injected\nfoo,bar"),
            "key.meta[0] (domsim_version): the value has a line break",
        ),
        (
            "/key/meta/2/1",
            json!("1\rfoo,bar"),
            "key.meta[2] (seed): the value has a line break",
        ),
        (
            "/key/meta/1/0",
            json!("command\nfoo,bar"),
            "key.meta[1]: key \"command\\nfoo,bar\" is not a metadata key",
        ),
    ] {
        let b = damaged(&p[0], &bad, |v| *v.pointer_mut(ptr).unwrap() = x);
        merge_refused(&[b], &out, &[&name, needle]);
    }
    // To standard output: refused before a byte is printed.
    let b = damaged(&p[0], &bad, |v| {
        v["key"]["meta"][0][1] = json!("x\nfoo,bar")
    });
    let o = domsim(&["merge", &b, "-o", "-"]);
    assert_refused(&o, &[&name, "line break"]);
    assert!(!stdout(&o).contains("foo,bar"), "{}", stdout(&o));
}

#[test]
fn merge_refuses_damaged_sweep_rank_and_matrix_partials() {
    let d = scratch("shards-damaged-kinds");
    let sweep = sharded(
        &[
            "sweep",
            "builtin:big-money",
            "strategies/smithy_big_money.dom",
            "--random",
            "3",
            "-n",
            "4",
        ],
        &d,
        "sweep",
        2,
    );
    let rank = sharded(
        &[
            "rank",
            "--absent",
            "keep",
            "builtin:big-money",
            "strategies/smithy_big_money.dom",
            "strategies/big_money_ultimate.dom",
            "-n",
            "10",
        ],
        &d,
        "rank",
        2,
    );
    let rank_random = sharded(
        &[
            "rank",
            "--absent",
            "keep",
            "builtin:big-money",
            "strategies/smithy_big_money.dom",
            "--random-kingdoms",
            "2",
            "-n",
            "10",
        ],
        &d,
        "rankr",
        2,
    );
    let matrix = sharded(
        &[
            "matrix",
            "builtin:big-money",
            "strategies/smithy_big_money.dom",
            "-n",
            "10",
        ],
        &d,
        "matrix",
        2,
    );
    let out = d.join("m.csv");
    for good in [&sweep, &rank, &rank_random, &matrix] {
        assert!(merge(good, &out).status.success());
        std::fs::remove_file(&out).unwrap();
    }
    let bad = d.join("bad.json");
    let name = bad.to_str().unwrap().to_string();
    use serde_json::json;
    type Case<'a> = (&'a [String], &'a str, serde_json::Value, &'a str);
    let cases: Vec<Case> = vec![
        (
            &sweep,
            "/counts/Sweep/0/cells",
            json!([]),
            "counts.Sweep[0]: cells: not 2×2",
        ),
        (
            &sweep,
            "/counts/Sweep/0/cells/0/1/wins",
            json!(1000),
            "counts.Sweep[0]: cells: [0][1]: wins",
        ),
        (
            &sweep,
            "/counts/Sweep/0/cells/0/1/games",
            json!(5),
            "counts.Sweep[0]: cells: [0][1]: wins",
        ),
        (
            &sweep,
            "/counts/Sweep/0/cards/3",
            json!("Bogus Card"),
            "counts.Sweep[0]: cards: unknown card 'Bogus Card'",
        ),
        (
            &sweep,
            "/counts/Sweep/0/ignored",
            json!([0]),
            "counts.Sweep[0]: ignored",
        ),
        // A real card, but not the one kingdom 0 of the seed holds: a
        // random kingdom is drawn again and compared.
        (
            &sweep,
            "/counts/Sweep/0/cards",
            json!([
                "Cellar",
                "Chapel",
                "Moat",
                "Village",
                "Smithy",
                "Festival",
                "Market",
                "Laboratory",
                "Mine",
                "Witch"
            ]),
            "counts.Sweep[0]: cards: not kingdom 0 of the run's seed",
        ),
        (
            &sweep,
            "/key/meta/5/1",
            json!("281474976710657"),
            "games_per_pair 281474976710657",
        ),
        (
            &sweep,
            "/counts/Sweep/0/index",
            json!(1),
            "counts.Sweep[0].index 1",
        ),
        (
            &rank,
            "/counts/Tables/tables/0/stats/entrants/0/wins",
            json!(1_000_000),
            "counts.Tables.tables[0]: stats: entrants[0]: wins 1000000",
        ),
        (
            &rank,
            "/counts/Tables/players",
            json!(9),
            "counts.Tables.players 9",
        ),
        (
            &rank,
            "/counts/Tables/tables/0/members/1",
            json!(0),
            "counts.Tables.tables[0]: a strategy sits twice",
        ),
        (
            &rank,
            "/counts/Tables/tables/0/kingdom",
            json!(4),
            "counts.Tables.tables[0]: kingdom 4",
        ),
        (
            &rank,
            "/counts/Tables/kingdoms/0",
            json!("Cellar, Nope"),
            "counts.Tables.kingdoms[0]: unknown card 'Nope'",
        ),
        // Real cards, but not kingdom 1 of the run's seed: the random
        // kingdoms of a ranking are drawn again and compared, as a sweep's.
        (
            &rank_random,
            "/counts/Tables/kingdoms/1",
            json!(
                "Cellar, Chapel, Festival, Laboratory, Market, Mine, Moat, Smithy, Village, Witch"
            ),
            "counts.Tables.kingdoms[1]: not kingdom 1 of the run's seed",
        ),
        (
            &matrix,
            "/counts/Matrix/0/1/losses",
            json!(0),
            "counts.Matrix: [0][1]: wins",
        ),
        (
            &matrix,
            "/counts/Matrix/1/0/games",
            json!(4),
            "but [1][0] has 4",
        ),
        (
            &matrix,
            "/counts/Matrix/0/1",
            json!(null),
            "counts.Matrix: [0][1] is malformed",
        ),
    ];
    for (parts, ptr, x, needle) in cases {
        let b = damaged(&parts[0], &bad, |v| match v.pointer_mut(ptr) {
            Some(at) => *at = x,
            None => panic!("{ptr} not in {}", parts[0]),
        });
        merge_refused(&[b, parts[1].clone()], &out, &[&name, needle]);
    }
}

/// A checkpoint whose counts do not fit together is refused at resume
/// (status 2, its path and the field named), and neither the output nor the
/// checkpoint is written.
#[test]
fn resume_refuses_a_damaged_checkpoint() {
    let d = scratch("ck-damaged");
    let ck = d.join("run.ck");
    let out = d.join("out.csv");
    let args = |n: &'static str| {
        vec![
            "sim".to_string(),
            "-n".into(),
            n.into(),
            "--checkpoint".into(),
            ck.to_str().unwrap().into(),
            "--checkpoint-every".into(),
            "100".into(),
            "-o".into(),
            out.to_str().unwrap().into(),
        ]
    };
    let run = |a: &[String]| domsim(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(run(&args("200")).status.success());
    std::fs::remove_file(&out).unwrap();
    let good = std::fs::read_to_string(&ck).unwrap();
    let entrant0 = good.lines().find(|l| l.starts_with("entrant 0 ")).unwrap();
    let games = good.lines().find(|l| l.starts_with("games ")).unwrap();
    let tied = good.lines().find(|l| l.starts_with("tied_games ")).unwrap();
    // entrant J games wins ties tie_units losses vp_sum turns_sum capped seat_games…
    let fields: Vec<&str> = entrant0.split(' ').collect();
    let huge = "18446744073709551615";
    let edit = |i: usize, x: &str| {
        let mut f = fields.clone();
        f[i] = x;
        good.replace(entrant0, &f.join(" "))
    };
    let cases: Vec<(String, &str)> = vec![
        (edit(2, huge), "entrants[0]: wins"),
        (edit(3, "150"), "entrants[0]: wins 150"),
        (edit(11, "7"), "entrants[0]: seat_games"),
        (
            good.replace(games, "games 300"),
            "inconsistent: 300 games accounted",
        ),
        (
            good.replace(tied, "tied_games 999"),
            "tied_games 999 > games 200",
        ),
        (good.replace("\nfaults 0", "\nfaults 1"), "faults 1"),
        // Sums no 200 games can reach (a game has at most 100 turns a
        // player and 372000 VP): refused, not printed as an average.
        (edit(7, "4294967296"), "entrants[0]: vp_sum 4294967296"),
        (edit(7, "-4294967296"), "entrants[0]: vp_sum -4294967296"),
        (edit(8, "20001"), "entrants[0]: turns_sum 20001"),
    ];
    resume_refuses_each(&ck, &out, cases, || run(&args("300")));
    // The good checkpoint still resumes.
    std::fs::write(&ck, &good).unwrap();
    assert!(run(&args("300")).status.success());
}

/// A New Salem checkpoint whose counts do not fit together is refused at
/// resume, instead of percentages that do not add up to 100.
#[test]
fn salem_resume_refuses_a_damaged_checkpoint() {
    let d = scratch("salem-ck-damaged");
    let ck = d.join("run.ck");
    let out = d.join("out.csv");
    let run = |n: &str| {
        salem_checkpointed(
            &ck,
            n,
            &["--checkpoint-every", "100", "-o", out.to_str().unwrap()],
        )
    };
    assert!(run("200").status.success());
    std::fs::remove_file(&out).unwrap();
    let good = std::fs::read_to_string(&ck).unwrap();
    let line = good
        .lines()
        .find(|l| l.starts_with("salem_tally "))
        .unwrap();
    let tally: serde_json::Value = serde_json::from_str(&line["salem_tally ".len()..]).unwrap();
    let edit = |ptr: &str, x: serde_json::Value| {
        let mut t = tally.clone();
        *t.pointer_mut(ptr).unwrap() = x;
        good.replace(line, &format!("salem_tally {t}"))
    };
    use serde_json::json;
    let cases = [
        (
            edit("/witch_wins", json!(u64::MAX)),
            "witch_wins 18446744073709551615",
        ),
        (edit("/bots/0/seats", json!(1)), "chairs"),
        (edit("/bots/1/win_units", json!(u64::MAX)), "bots[1]: "),
        (edit("/margin_sq", json!(u64::MAX)), "margin_sq"),
        (edit("/witch_count/8", json!(1)), "witch_count"),
    ];
    resume_refuses_each(&ck, &out, cases.to_vec(), || run("300"));
    std::fs::write(&ck, &good).unwrap();
    assert!(run("300").status.success());
}

/// A New Salem checkpoint names its data by contents, not only by folder:
/// after a file of `--data` is edited the checkpoint belongs to another run
/// (it used to resume with the counts of the old data).
#[test]
fn salem_checkpoint_names_its_data_by_contents() {
    let d = scratch("salem-ck-data");
    let data = d.join("data");
    std::fs::create_dir(&data).unwrap();
    let sample = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/new_salem/sample");
    for f in [
        "rules.toml",
        "buildings.csv",
        "events.toml",
        "characters.toml",
    ] {
        std::fs::copy(sample.join(f), data.join(f)).unwrap();
    }
    let ck = d.join("run.ck");
    let run = |n: &str| salem_checkpointed(&ck, n, &["--data", data.to_str().unwrap()]);
    let o = run("100");
    assert!(o.status.success(), "{}", stderr(&o));
    let rules = data.join("rules.toml");
    let mut text = std::fs::read_to_string(&rules).unwrap();
    text.push_str("\n# edited\n");
    std::fs::write(&rules, text).unwrap();
    let o = run("200");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // In New Salem's words: it has no kingdom nor strategies.
    assert!(
        stderr(&o).contains(
            "belongs to another run (seed, players, card data, rule options or bots differ)"
        ),
        "{}",
        stderr(&o)
    );
}

/// `domsim salem sim -p 4 -n N --checkpoint CK` and `extra`.
fn salem_checkpointed(ck: &std::path::Path, n: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "salem",
        "sim",
        "-p",
        "4",
        "-n",
        n,
        "--checkpoint",
        ck.to_str().unwrap(),
    ];
    args.extend(extra);
    domsim(&args)
}

/// `--checkpoint -` would write every checkpoint into standard output,
/// among the results, and never read one back: refused before any game,
/// for `sim` and `salem sim`, and nothing is written.
#[test]
fn checkpoint_to_standard_output_is_refused() {
    let d = scratch("ck-dash");
    let out = d.join("out.csv");
    let o = out.to_str().unwrap();
    for args in [
        vec![
            "sim",
            "builtin:big-money",
            "strategies/smithy_big_money.dom",
            "-n",
            "30",
            "--checkpoint",
            "-",
            "--checkpoint-every",
            "10",
            "-o",
            o,
        ],
        vec![
            "salem",
            "sim",
            "-p",
            "4",
            "-n",
            "30",
            "--checkpoint",
            "-",
            "--checkpoint-every",
            "10",
            "-o",
            o,
        ],
    ] {
        let r = domsim(&args);
        assert_refused(&r, &["--checkpoint needs a file (not -)"]);
        assert!(!stdout(&r).contains("domsim-checkpoint"), "{}", stdout(&r));
        assert!(
            crate::cli::entries(&d).is_empty(),
            "{args:?}: nothing written"
        );
    }
}

/// A `--checkpoint` that is a FIFO (or a device) is refused before any
/// game, for `sim` and `salem sim`: the run reads its checkpoint back, and
/// reading a FIFO nobody writes blocked it forever (a first Ctrl-C only
/// asked the games to stop). Here a helper stands in as a writer whenever
/// domsim opens the FIFO, so that the old behaviour ends (with another
/// message) instead of hanging the test.
#[cfg(target_os = "linux")]
#[test]
fn checkpoint_on_a_fifo_or_device_is_refused() {
    use std::os::unix::fs::OpenOptionsExt;
    let d = scratch("ck-fifo");
    let fifo = d.join("ck.fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let out = d.join("out.csv");
    let (f, o) = (fifo.to_str().unwrap(), out.to_str().unwrap());
    for ck in [f, "/dev/null"] {
        for verb in [
            vec!["sim", "builtin:big-money", "builtin:big-money"],
            vec!["salem", "sim", "-p", "4"],
        ] {
            let mut args = verb.clone();
            args.extend(["-n", "30", "--checkpoint", ck, "-o", o]);
            let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_domsim"))
                .args(&args)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            while child.try_wait().unwrap().is_none() {
                // O_NONBLOCK: fails at once unless domsim is reading the FIFO.
                if let Ok(mut w) = std::fs::OpenOptions::new()
                    .write(true)
                    .custom_flags(0o4000)
                    .open(&fifo)
                {
                    use std::io::Write;
                    let _ = w.write_all(b"x\n");
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            let r = child.wait_with_output().unwrap();
            assert_refused(&r, &["is not a regular file", ck]);
            assert_eq!(
                crate::cli::entries(&d),
                ["ck.fifo"],
                "{args:?}: nothing written"
            );
        }
    }
}

/// `rank --shelters on|off` over several kingdoms holds in each of them
/// (it was read and ignored): base-only kingdoms never use Shelters by the
/// rule, so forcing them on plays other games, and the CSV says so.
#[test]
fn rank_over_several_kingdoms_takes_shelters() {
    let d = scratch("rank-shelters");
    let k = d.join("k.txt");
    std::fs::write(
        &k,
        "Cellar,Chapel,Moat,Village,Smithy,Festival,Market,Laboratory,Mine,Witch\nWorkshop,Gardens,Militia,Moneylender,Remodel,Spy,Thief,Throne Room,Library,Adventurer\n",
    )
    .unwrap();
    let run = |shelters: &str| {
        let out = d.join(format!("{shelters}.csv"));
        let o = domsim(&[
            "rank",
            "--absent",
            "keep",
            "strategies/big_money.dom",
            "strategies/smithy_big_money.dom",
            "--kingdoms",
            k.to_str().unwrap(),
            "--shelters",
            shelters,
            "-n",
            "300",
            "-o",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        std::fs::read_to_string(&out).unwrap()
    };
    let (auto, on) = (run("auto"), run("on"));
    assert!(on.contains("; Shelters forced on"), "{on}");
    assert!(!auto.contains("Shelters forced"), "{auto}");
    let body = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| !l.starts_with('#'))
            .map(String::from)
            .collect()
    };
    assert_ne!(body(&auto), body(&on), "other games with Shelters");
    assert_eq!(body(&auto), body(&run("off")), "base kingdoms: off is auto");
}

/// The HTML pages and the head-to-head CSV of a sharded run: `merge
/// --html` writes a `rank`'s leaderboard page and a `matrix`'s heat map,
/// `merge --matrix` a 2-player `rank`'s matrix CSV, each the very bytes of
/// the one-machine run (a shard refuses these outputs and names the merge
/// options that write them). Parts that have no such output are refused.
#[test]
fn merge_writes_the_html_pages_and_the_rank_matrix() {
    let d = scratch("merge-html");
    let p = |f: &str| d.join(f).to_str().unwrap().to_string();
    let rank: Vec<&str> = vec![
        "rank",
        "--absent",
        "keep",
        "strategies/big_money.dom",
        "strategies/smithy_big_money.dom",
        "strategies/double_witch.dom",
        "-n",
        "120",
        "--seed",
        "4",
    ];
    let (r_csv, r_html, r_m) = (p("r.csv"), p("r.html"), p("rm.csv"));
    let mut one = rank.clone();
    one.extend(["-o", &r_csv, "--html", &r_html, "--matrix", &r_m]);
    run_ok(&one);
    let parts = sharded(&rank, &d, "rank", 3);
    let (m_csv, m_html, m_m) = (p("m.csv"), p("m.html"), p("mm.csv"));
    let mut args = vec!["merge"];
    args.extend(parts.iter().map(String::as_str));
    args.extend(["-o", &m_csv, "--html", &m_html, "--matrix", &m_m]);
    run_ok(&args);
    for (a, b) in [(&r_csv, &m_csv), (&r_html, &m_html), (&r_m, &m_m)] {
        assert_eq!(std::fs::read(a).unwrap(), std::fs::read(b).unwrap(), "{b}");
    }
    // A shard names the options of merge that write what it refuses.
    let mut refused = rank.clone();
    refused.extend([
        "--shard",
        "1/3",
        "--save-partial",
        &parts[0],
        "--html",
        &r_html,
    ]);
    let o = domsim(&refused);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("domsim merge PARTIAL… -o FILE.csv --html FILE.html --matrix FILE.csv"),
        "{}",
        stderr(&o)
    );

    let matrix: Vec<&str> = vec![
        "matrix",
        "builtin:big-money",
        "strategies/smithy_big_money.dom",
        "strategies/big_money_ultimate.dom",
        "-n",
        "90",
        "--seed",
        "18446744073709551615",
        "--random",
        "--sets",
        "dark-ages",
        "--shelters",
        "on",
    ];
    let (x_csv, x_html) = (p("x.csv"), p("x.html"));
    let mut one = matrix.clone();
    one.extend(["-o", &x_csv, "--report", &x_html]);
    run_ok(&one);
    let mparts = sharded(&matrix, &d, "matrix", 2);
    let (y_csv, y_html) = (p("y.csv"), p("y.html"));
    let mut args = vec!["merge"];
    args.extend(mparts.iter().map(String::as_str));
    args.extend(["-o", &y_csv, "--html", &y_html]);
    run_ok(&args);
    assert_eq!(
        std::fs::read(&x_csv).unwrap(),
        std::fs::read(&y_csv).unwrap()
    );
    assert_eq!(
        std::fs::read(&x_html).unwrap(),
        std::fs::read(&y_html).unwrap()
    );

    // No such output: refused, naming the option, and nothing written.
    let (z, z2, zh) = (p("z.csv"), p("z2.csv"), p("z.html"));
    let mut args = vec!["merge"];
    args.extend(mparts.iter().map(String::as_str));
    args.extend(["-o", &z, "--matrix", &z2]);
    let o = domsim(&args);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--matrix: only the parts of a `domsim rank`"),
        "{}",
        stderr(&o)
    );
    let sim = sharded(
        &[
            "sim",
            "builtin:big-money",
            "strategies/big_money.dom",
            "-n",
            "40",
        ],
        &d,
        "sim",
        2,
    );
    let mut args = vec!["merge"];
    args.extend(sim.iter().map(String::as_str));
    args.extend(["-o", &z, "--html", &zh]);
    let o = domsim(&args);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--html: only the parts of a `domsim rank`"),
        "{}",
        stderr(&o)
    );
    let mut three = rank.clone();
    three.extend(["-p", "3"]);
    let tparts = sharded(&three, &d, "rank3", 2);
    let mut args = vec!["merge"];
    args.extend(tparts.iter().map(String::as_str));
    args.extend(["-o", &z, "--matrix", &z2]);
    let o = domsim(&args);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("tables of 3 in 1 kingdom(s)"),
        "{}",
        stderr(&o)
    );
    assert!(!d.join("z.csv").exists() && !d.join("z2.csv").exists() && !d.join("z.html").exists());
}

/// `compare` shards like the other verbs: each part holds the exact paired
/// sums of its slice of game indices, and their merge writes the CSV and
/// HTML page of the one-machine run byte for byte (N = 1, 3, 7). A shard
/// writes only its part (-o, --html and --precision refused), and a
/// damaged part is refused at the field.
#[test]
fn compare_shards_merge_byte_for_byte_and_damage_is_refused() {
    let d = scratch("shards-compare");
    let base = [&COMPARE_POST_RIDER[..], &["-n", "3000", "--seed", "5"]].concat();
    let (csv, html) = (d.join("whole.csv"), d.join("whole.html"));
    let mut args = base.to_vec();
    args.extend([
        "-o",
        csv.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
    ]);
    run_ok(&args);
    let whole = (std::fs::read(&csv).unwrap(), std::fs::read(&html).unwrap());
    let mut three = Vec::new();
    for n in [1, 3, 7] {
        let parts = sharded(&base, &d, "cmp", n);
        let (mcsv, mhtml) = (d.join(format!("m{n}.csv")), d.join(format!("m{n}.html")));
        let mut args = vec!["merge"];
        args.extend(parts.iter().map(String::as_str));
        args.extend([
            "-o",
            mcsv.to_str().unwrap(),
            "--html",
            mhtml.to_str().unwrap(),
        ]);
        let o = domsim(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(
            stdout(&o).contains(&format!(
                "merged {n} shard(s): 3000 games per variant of `domsim compare`"
            )),
            "{}",
            stdout(&o)
        );
        assert_eq!(std::fs::read(&mcsv).unwrap(), whole.0, "{n} shards: CSV");
        assert_eq!(std::fs::read(&mhtml).unwrap(), whole.1, "{n} shards: HTML");
        if n == 3 {
            three = parts;
        }
    }
    // A shard writes only its part.
    for extra in [
        &["-o", "x.csv"][..],
        &["--html", "x.html"][..],
        &["--precision", "0.01"][..],
    ] {
        let part = d.join("refused.json");
        let mut args = base.to_vec();
        args.extend(["--shard", "1/2", "--save-partial", part.to_str().unwrap()]);
        args.extend(extra);
        let o = domsim(&args);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("--shard"), "{}", stderr(&o));
        assert!(!part.exists());
    }
    // Damaged parts: counts that no games can give, a game count that is
    // not the slice's, a bot name that is not the run's.
    let bad_dir = d.join("damaged");
    std::fs::create_dir(&bad_dir).unwrap();
    let out = bad_dir.join("damaged.csv");
    type Damage = fn(&mut serde_json::Value);
    let cases: Vec<(&str, Damage, &str)> = vec![
        (
            "dd",
            |v| v["counts"]["Compare"]["length"]["dd"] = (-1).into(),
            "game_length: dd is not a sum of squares",
        ),
        (
            "d",
            |v| v["counts"]["Compare"]["winner_has"]["d"] = 7.into(),
            "winner_has_card: d is not b − a",
        ),
        (
            "n",
            |v| v["counts"]["Compare"]["seat"][0][0]["n"] = 5.into(),
            "win_rate of Post Rider Big Money: n is 5, not the 1000 games",
        ),
        (
            "names",
            |v| v["counts"]["Compare"]["names"][0] = "Someone".into(),
            "names",
        ),
    ];
    for (tag, f, needle) in cases {
        let bad = damaged(&three[1], &bad_dir.join(format!("bad-{tag}.json")), f);
        let parts = vec![three[0].clone(), bad, three[2].clone()];
        merge_refused(&parts, &out, &["counts.Compare", needle]);
    }
}
