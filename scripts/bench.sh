#!/usr/bin/env bash
# Throughput table of whole games played by strategy files, as a user would
# run them: `domsim sim` on 1 and 2 threads, games per second of wall time
# and per CPU-second (user time). Usage:
#   scripts/bench.sh [GAMES_SCALE]      # default 1 (about a minute in all)
# Prints a Markdown table; copy it into results/ with the machine description.
set -euo pipefail
cd "$(dirname "$0")/.."
scale=${1:-1}
cargo build --release -q
d=./target/release/domsim
money="Witch,Smithy,Militia,Moneylender,Laboratory,Council Room,Library,Chapel,Workshop,Gardens"
engine="Village,Smithy,Throne Room,Market,Witch,Militia,Chapel,Laboratory,Moat,Cellar"

row() { # name games threads args...
    local name=$1 games=$2 threads=$3; shift 3
    local t
    t=$( { /usr/bin/time -f "%e %U" "$d" sim "$@" -n "$games" -j "$threads" >/dev/null 2>/dev/null; } 2>&1 | tail -1)
    local wall=${t% *} user=${t#* }
    awk -v n="$name" -v g="$games" -v j="$threads" -v w="$wall" -v u="$user" \
        'BEGIN { printf "| %s | %d | %d | %.2f | %.0f | %.0f |\n", n, g, j, w, g / w, g / u }'
}

echo "| run | games | threads | wall s | games/s (wall) | games/s per CPU-s |"
echo "|---|---|---|---|---|---|"
for j in 1 2; do
    row "Big Money mirror (hand-coded)" $((1000000 * scale)) $j builtin:big-money builtin:big-money --preset "First Game"
    row "Big Money mirror (strategy file)" $((1000000 * scale)) $j strategies/big_money.dom strategies/big_money.dom --preset "First Game"
    row "Smithy BM vs BM Ultimate" $((300000 * scale)) $j strategies/smithy_big_money.dom strategies/big_money_ultimate.dom --preset "First Game"
    row "Double Witch mirror" $((200000 * scale)) $j strategies/double_witch.dom strategies/double_witch.dom --kingdom "$money"
    row "Village/Smithy engine mirror" $((100000 * scale)) $j strategies/village_smithy.dom strategies/village_smithy.dom --kingdom "$engine"
    row "Masquerade BM mirror" $((200000 * scale)) $j strategies/masquerade_big_money.dom strategies/masquerade_big_money.dom --preset "Victory Dance"
    row "Big Money, 4 players" $((200000 * scale)) $j builtin:big-money builtin:big-money builtin:big-money builtin:big-money --preset "First Game"
    row "Big Money, 6 players" $((100000 * scale)) $j builtin:big-money builtin:big-money builtin:big-money builtin:big-money builtin:big-money builtin:big-money --preset "First Game"
done
