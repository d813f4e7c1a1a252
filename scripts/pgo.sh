#!/usr/bin/env bash
# A profile-guided (PGO) build of domsim: the same source and the very same
# games, laid out by the compiler for the branches domsim really takes.
#
#   scripts/pgo.sh                 # builds target/pgo/release/domsim
#   scripts/pgo.sh --train-only    # only (re)collects the profile
#   scripts/pgo.sh --verify        # builds it, then checks that it plays the
#                                  # very same games as target/release/domsim
#
# Steps:
#   1. an instrumented release build (target/pgo-instrumented);
#   2. training: the `domsim bench --quick` workloads on 1 and 2 threads
#      (2-6 players, New Salem), a `domsim matrix` of the shipped card
#      strategies in the kingdoms they were written for (the lineups of
#      results/intrigue_matrix.sh and dark_ages_matrix.sh), and random
#      kingdoms of every set: the profile covers the cards, not only the
#      benchmarks;
#   3. the profile merged by llvm-profdata into target/pgo/domsim.profdata;
#   4. the optimized build, target/pgo/release/domsim.
#
# llvm-profdata must come from the LLVM that rustc is built on (`rustc -vV`,
# "LLVM version"). The script looks for it on PATH (llvm-profdata-N, then
# llvm-profdata), in /usr/lib/llvm-N/bin and in rustup's llvm-tools
# component; when none is found and apt-get is available as root, it
# installs Debian's llvm-N package. Otherwise it says what to install and
# exits with status 3. Exit status 2: a bad argument; 1: a build or a
# training run failed (its messages are printed).
#
# Two full release builds and the training: about 4 minutes on the 2-core
# machine of results/BENCHMARKS.md, where the gains are measured. The plain
# build (`cargo build --release`) is unaffected, and both play the very
# same games (`scripts/instructions.sh target/release/domsim
# target/pgo/release/domsim` compares them).
set -euo pipefail
cd "$(dirname "$0")/.."

train_only=false
verify=false
case "${1:-}" in
    "") ;;
    --train-only) train_only=true ;;
    --verify) verify=true ;;
    -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "pgo.sh: unknown argument '$1' (expected --train-only, --verify or --help)" >&2; exit 2 ;;
esac

die() { echo "pgo.sh: $*" >&2; exit 1; }

major=$(rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')
[[ -n $major ]] || die "cannot read rustc's LLVM version from 'rustc -vV'"

# llvm-profdata of LLVM $major, or nothing.
find_profdata() {
    local c host
    host=$(rustc -vV | sed -n 's/^host: //p')
    for c in "llvm-profdata-$major" "/usr/lib/llvm-$major/bin/llvm-profdata" \
        "$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata" llvm-profdata; do
        if command -v "$c" >/dev/null 2>&1 &&
            "$c" --version 2>/dev/null | grep -q "LLVM version $major\."; then
            command -v "$c"
            return
        fi
    done
}

profdata=$(find_profdata)
if [[ -z $profdata ]]; then
    if command -v apt-get >/dev/null && [[ $(id -u) -eq 0 ]]; then
        echo "pgo.sh: installing Debian's llvm-$major (llvm-profdata for rustc's LLVM $major)" >&2
        { apt-get update -qq >/dev/null 2>&1 || true; } &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "llvm-$major" >/dev/null ||
            die "apt-get install llvm-$major failed"
        profdata=$(find_profdata)
    fi
    if [[ -z $profdata ]]; then
        echo "pgo.sh: no llvm-profdata of LLVM $major found: install llvm-$major (Debian/Ubuntu) or 'rustup component add llvm-tools'" >&2
        exit 3
    fi
fi
echo "pgo.sh: using $profdata" >&2

root=$PWD/target/pgo
raw=$root/raw
mkdir -p "$root"
rm -rf "$raw"

step() { printf '\n==> %s\n' "$*" >&2; }

step "instrumented build (target/pgo-instrumented)"
RUSTFLAGS="-Cprofile-generate=$raw" \
    cargo build --release -q --target-dir target/pgo-instrumented
bin=target/pgo-instrumented/release/domsim

step "training runs"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# One run of domsim (training or check); its messages only if it fails.
run() {
    "$@" >/dev/null 2>"$out/log" || { cat "$out/log" >&2; die "failed: $*"; }
}
S=strategies
run "$bin" bench --quick --threads 1,2
# Card strategies on the kingdoms they were written for (the lineups of
# results/intrigue_matrix.sh and results/dark_ages_matrix.sh), so every
# card's code is trained, not only the benchmarks'.
matrix() {
    local flag=$1 value=$2
    shift 2
    run "$bin" matrix "${@/#/$S/}" "$flag" "$value" -n 300 -o "$out/matrix.csv"
}
matrix --preset "First Game" big_money.dom smithy_big_money.dom big_money_ultimate.dom \
    village_smithy.dom militia_big_money.dom
matrix --preset "Victory Dance" big_money_ultimate.dom masquerade_big_money.dom nobles.dom \
    duke_duchy.dom great_hall.dom bridge.dom upgrade.dom harem.dom scout.dom
matrix --preset "Best Wishes" courtyard_big_money.dom wishing_well.dom torturer.dom
matrix --preset "Secret Schemes" conspirator.dom tribute.dom saboteur.dom harem.dom
matrix --preset "Deconstruction" secret_chamber.dom torturer.dom saboteur.dom bridge.dom
matrix --preset "Hand Madness" minion.dom nobles.dom courtyard_big_money.dom
matrix --preset "Grim Parade" cultist.dom knights.dom procession.dom catacombs.dom \
    fortress_engine.dom band_of_misfits.dom
matrix --preset "Invasion" marauder.dom beggar.dom squire.dom big_money_ultimate.dom
matrix --preset "Playing Chess with Death" graverobber.dom rats.dom junk_dealer.dom
matrix --preset "Chivalry and Revelry" altar.dom knights.dom rats.dom
matrix --preset "High and Low" hermit.dom poor_house.dom big_money_ultimate.dom
matrix --preset "Prophecy" rebuild.dom big_money_ultimate.dom
matrix --kingdom "Count,Counterfeit,Death Cart,Feodum,Market Square,Storeroom,Beggar,Urchin,Sage,Forager" \
    count.dom counterfeit.dom death_cart.dom feodum.dom
# Random kingdoms of every set (their cards played by the engine's default
# answers where no strategy names them).
for sets in base intrigue dark-ages base,intrigue,dark-ages; do
    run "$bin" sim $S/big_money_ultimate.dom $S/smithy_big_money.dom $S/double_witch.dom \
        --random --sets "$sets" -n 2000 -o "$out/sim.csv"
done
ls "$raw"/*.profraw >/dev/null 2>&1 || die "the training runs wrote no profile into $raw"

step "merging the profile (target/pgo/domsim.profdata)"
"$profdata" merge -o "$root/domsim.profdata" "$raw"
rm -rf "$raw"
$train_only && exit 0

step "optimized build (target/pgo/release/domsim)"
RUSTFLAGS="-Cprofile-use=$root/domsim.profdata" \
    cargo build --release -q --target-dir target/pgo
echo "pgo.sh: built target/pgo/release/domsim" >&2

$verify || exit 0
step "same games as the plain build (target/release/domsim)"
cargo build --release -q
check() {
    local what=$1
    shift
    run target/release/domsim sim "$@" -n 20000 --seed 11 -o "$out/a.csv" --games-csv "$out/ga.csv"
    run target/pgo/release/domsim sim "$@" -n 20000 --seed 11 -o "$out/b.csv" --games-csv "$out/gb.csv"
    cmp -s "$out/ga.csv" "$out/gb.csv" && cmp -s "$out/a.csv" "$out/b.csv" ||
        die "$what: the PGO build played other games than the plain build"
    echo "pgo.sh: $what: the same 20,000 games" >&2
}
# Each build says which it is (build.rs reads the compiler flags).
says() {
    local text
    text=$("$1" bench --quick --only "big money mirror" --threads 1 2>&1) ||
        die "$1 bench --quick failed: $text"
    grep -q -- "$2" <<<"$text" || die "$1 bench does not say '$2'"
}
says target/pgo/release/domsim "^- build: release, profile-guided (scripts/pgo.sh)$"
says target/release/domsim "^- build: release$"
check "Smithy BM vs BMU" $S/hivemind_smithy_bm.dom $S/hivemind_bmu.dom --preset "First Game"
check "Masquerade mirror" $S/masquerade_big_money.dom $S/masquerade_big_money.dom --preset "Victory Dance"
check "Grim Parade, 4 players" $S/cultist.dom $S/knights.dom $S/procession.dom $S/band_of_misfits.dom \
    --preset "Grim Parade"
check "random kingdom" $S/big_money_ultimate.dom $S/double_witch.dom --random \
    --sets base,intrigue,dark-ages --kingdom-seed 5
