#!/bin/sh
# Regenerates tests/fixtures/partials/: small sharded runs of every verb that
# shards (sim, matrix, sweep, rank, compare), each as its parts
# (`--shard I/N --save-partial`) and as the outputs the one-machine run
# writes. tests/it/partials.rs merges the committed parts with today's
# binary and must get the committed one-machine bytes: a change to the
# partial format or to a merged output fails it until this script is run
# again (on purpose: say why in the commit).
#
# This script is the single source of those files; it checks, before
# writing anything, that merging the fresh parts gives the one-machine
# bytes.
#
# Usage (from anywhere in the source tree):
#   scripts/make-partial-fixtures.sh            # builds target/debug/domsim
#   DOMSIM=path/to/domsim scripts/make-partial-fixtures.sh
#
# File names, which the test reads: TAG.partI.json (I = 1..N), TAG.csv (the
# one-machine -o), and when the verb writes them TAG.html (matrix --report,
# rank/compare --html), TAG.summary.csv (sweep --summary), TAG.matrix.csv
# (rank --matrix).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if [ -z "${DOMSIM:-}" ]; then
    cargo build --quiet --bin domsim
    DOMSIM="$root/target/debug/domsim"
fi
out=tests/fixtures/partials
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# ds ARGS...: run domsim quietly; on failure show its messages and stop.
ds() {
    "$DOMSIM" "$@" >/dev/null 2>"$tmp/err" || {
        cat "$tmp/err" >&2
        exit 1
    }
}

# run TAG SHARDS "one-machine output options" -- verb args...
# The one-machine options use @ for the output folder.
run() {
    tag=$1 n=$2 outs=$3
    shift 4
    # shellcheck disable=SC2086 # the output options are words
    ds "$@" $(echo "$outs" | sed "s|@|$tmp|g")
    i=1
    while [ "$i" -le "$n" ]; do
        ds "$@" --shard "$i/$n" --save-partial "$tmp/$tag.part$i.json"
        i=$((i + 1))
    done
    parts=$(i=1; while [ "$i" -le "$n" ]; do printf '%s ' "$tmp/$tag.part$i.json"; i=$((i + 1)); done)
    extra=""
    [ -e "$tmp/$tag.html" ] && extra="$extra --html $tmp/$tag.merged.html"
    [ -e "$tmp/$tag.summary.csv" ] && extra="$extra --summary $tmp/$tag.merged.summary.csv"
    [ -e "$tmp/$tag.matrix.csv" ] && extra="$extra --matrix $tmp/$tag.merged.matrix.csv"
    # shellcheck disable=SC2086
    ds merge $parts -o "$tmp/$tag.merged.csv" $extra
    for f in csv html summary.csv matrix.csv; do
        if [ -e "$tmp/$tag.$f" ]; then
            cmp -s "$tmp/$tag.$f" "$tmp/$tag.merged.$f" || {
                echo "$tag: the merged $f differs from the one-machine run's" >&2
                exit 1
            }
            rm "$tmp/$tag.merged.$f"
        fi
    done
}

run sim 2 "-o @/sim.csv" -- sim builtin:big-money strategies/smithy_big_money.dom \
    -n 300 --seed 3
run matrix 3 "-o @/matrix.csv --report @/matrix.html" -- matrix builtin:big-money \
    strategies/smithy_big_money.dom strategies/big_money_ultimate.dom -n 41 --seed 5
run sweep 2 "-o @/sweep.csv --summary @/sweep.summary.csv" -- sweep builtin:big-money \
    strategies/smithy_big_money.dom --random 3 --sets base,intrigue -n 10 --seed 8
run rank 2 "-o @/rank.csv --html @/rank.html --matrix @/rank.matrix.csv" -- rank \
    builtin:big-money strategies/smithy_big_money.dom strategies/big_money_ultimate.dom \
    -n 30 --seed 4
run rank3 2 "-o @/rank3.csv --html @/rank3.html" -- rank builtin:big-money \
    strategies/smithy_big_money.dom strategies/big_money_ultimate.dom -p 3 \
    --random-kingdoms 2 -n 12 --seed 2
run compare 2 "-o @/compare.csv --html @/compare.html" -- compare \
    --a cards/post_rider.toml --b cards/post_rider_b.toml --kingdom "Post Rider" \
    strategies/playtest/post_rider_big_money.dom strategies/big_money_ultimate.dom \
    -n 200 --seed 6

rm -f "$out"/*.json "$out"/*.csv "$out"/*.html
mkdir -p "$out"
rm -f "$tmp/err"
cp "$tmp"/*.json "$tmp"/*.csv "$tmp"/*.html "$out"/
echo "wrote $(ls "$out" | wc -l) files to $out"
