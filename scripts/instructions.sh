#!/usr/bin/env bash
# Instructions per game of the issue-18 workloads, counted by callgrind
# (valgrind), which does not depend on the machine's load: the way to steer
# engine speed when wall time is noisy (results/BENCHMARKS.md).
#
#   scripts/instructions.sh                      # this tree's release build
#   scripts/instructions.sh OLD_BIN NEW_BIN ...  # compare binaries, same games?
#   scripts/instructions.sh --salem [BIN ...]    # New Salem's workloads instead
#
# For each workload and binary: `domsim sim A B -j 1` under callgrind at
# N1 and N2 games; instructions per game = (Ir(N2) - Ir(N1)) / (N2 - N1),
# which cancels start-up and strategy compilation. With several binaries it
# also compares their per-game CSVs (`--games-csv`, N1 games, data rows
# only, in a run of
# its own: writing it costs instructions): a speed change must play the
# very same games. N1/N2 default to 1000/6000
# (environment variables N1, N2). Needs valgrind (Debian: apt-get install
# valgrind); nothing else beyond the repository.
#
# --salem: New Salem's workloads (`salem sim -p P --seed 1 -j 1` with the
# default field of shipped bots at 3, 5 and 8 players -- the 5-player one
# is `domsim bench`'s -- and the deducing bots `deducer sly_witch` at 5),
# the same way; "same games" compares the runs' whole CSV (every tally,
# N1 games; `salem sim` writes no per-game file), `#` lines left out.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || {
    echo "instructions.sh: valgrind is not installed (Debian: apt-get install valgrind)" >&2
    exit 2
}
N1=${N1:-1000}
N2=${N2:-6000}
salem=no
if [[ ${1:-} == --salem ]]; then
    salem=yes
    shift
fi
if [[ $# -eq 0 ]]; then
    cargo build --release -q
    set -- ./target/release/domsim
fi
for b in "$@"; do
    [[ -x $b ]] || { echo "instructions.sh: $b is not an executable" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

S=strategies
# Workload `$1` (0-3; s0-s3 with --salem): its name in `name`, its
# `domsim sim` arguments in `a` (`domsim salem sim` ones for s0-s3).
workload() {
    case $1 in
        s0) name="New Salem, 3 players (shipped bots)" a=(-p 3) ;;
        s1) name="New Salem, 5 players (shipped bots)" a=(-p 5) ;;
        s2) name="New Salem, 8 players (shipped bots)" a=(-p 8) ;;
        s3) name="New Salem, 5 players (deducer, sly_witch)" a=(-p 5 deducer sly_witch) ;;
        0) name="Big Money mirror"
           a=("$S/big_money.dom" "$S/big_money.dom" --preset "First Game") ;;
        1) name="Smithy BM vs BMU (HiveMind rules)"
           a=("$S/hivemind_smithy_bm.dom" "$S/hivemind_bmu.dom" --preset "First Game") ;;
        2) name="Double Witch mirror"
           a=("$S/double_witch.dom" "$S/double_witch.dom" --kingdom
              "Witch,Smithy,Militia,Moneylender,Laboratory,Council Room,Library,Chapel,Workshop,Gardens") ;;
        3) name="Masquerade BM mirror"
           a=("$S/masquerade_big_money.dom" "$S/masquerade_big_money.dom" --preset "Victory Dance") ;;
    esac
}

# The verb of the workloads: `sim`, or `salem sim` (with its seed).
if [[ $salem == yes ]]; then
    verb=(salem sim --seed 1)
    workloads=(s0 s1 s2 s3)
else
    verb=(sim)
    workloads=(0 1 2 3)
fi

# Ir of one run: binary, games, workload arguments...
ir() {
    local bin=$1 n=$2
    shift 2
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$bin" "${verb[@]}" "$@" \
        -n "$n" -j 1 -o "$tmp/out.csv" 2>"$tmp/err" >/dev/null ||
        { cat "$tmp/err" >&2; exit 1; }
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/err"
}

header="| workload |"
rule="|---|"
for b in "$@"; do
    header+=" $(basename "$b") |"
    rule+="---:|"
done
[[ $# -gt 1 ]] && { header+=" change | same games |"; rule+="---:|---|"; }
echo "Instructions per game (callgrind, ($N2 − $N1 games) / $((N2 - N1)), -j 1)"
echo
echo "$header"
echo "$rule"
for w in "${workloads[@]}"; do
    workload "$w"
    row="| $name |"
    first="" last="" same=yes k=0
    for b in "$@"; do
        lo=$(ir "$b" "$N1" "${a[@]}")
        hi=$(ir "$b" "$N2" "${a[@]}")
        if [[ $# -gt 1 && $salem == yes ]]; then
            "$b" "${verb[@]}" "${a[@]}" -n "$N1" -j 1 -o "$tmp/games$k.csv" \
                >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
        elif [[ $# -gt 1 ]]; then
            "$b" sim "${a[@]}" -n "$N1" -j 1 -o "$tmp/out.csv" \
                --games-csv "$tmp/games$k.csv" >/dev/null 2>"$tmp/err" ||
                { cat "$tmp/err" >&2; exit 1; }
        fi
        per=$(((hi - lo) / (N2 - N1)))
        row+=" $per |"
        [[ -z $first ]] && first=$per
        last=$per
        # The games themselves: the data rows, not the `#` provenance lines
        # (a version or the replay line's quoting may differ).
        if [[ $k -gt 0 ]] && ! cmp -s <(grep -v '^#' "$tmp/games0.csv") \
            <(grep -v '^#' "$tmp/games$k.csv"); then
            same=no
        fi
        k=$((k + 1))
    done
    if [[ $# -gt 1 ]]; then
        row+=" $(awk -v a="$first" -v b="$last" 'BEGIN { printf "%+.1f%%", 100 * (b / a - 1) }') | $same |"
    fi
    echo "$row"
done
