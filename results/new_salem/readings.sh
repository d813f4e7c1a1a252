#!/bin/sh
# results/NEW_SALEM.md, "The readings that decide the results": team win
# rates at 3-8 players under every combination of the three decisive rule
# readings, with the six default bots and with the deducing field, one
# `salem sweep` each (10,000 games per cell, seed 2026).
# Run from the repository root: sh results/new_salem/readings.sh [path/to/domsim]
set -e
D=${1:-domsim}
axes="--rule no_eligible_constable=keep,reset --rule trial=unlimited,single,2,moving --rule remove_target=any,own,own_first"
# shellcheck disable=SC2086
$D salem sweep $axes -p 3..8 -n 10000 --seed 2026 \
  -o results/new_salem/readings_default.csv > results/new_salem/readings_default.md
# shellcheck disable=SC2086
$D salem sweep deducer sly_witch $axes -p 3..8 -n 10000 --seed 2026 \
  -o results/new_salem/readings_deducing.csv > results/new_salem/readings_deducing.md
