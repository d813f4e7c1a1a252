#!/bin/sh
# results/NEW_SALEM.md, "Readings": team win rates at 3-8 players under each
# reading of the three decisive rule points, with the six default bots and
# with the deducing field. 20,000 games per player count, one thread.
# Run from the repository root: sh results/new_salem/readings.sh [path/to/domsim]
set -e
D=${1:-./target/release/domsim}
out=results/new_salem/readings
for field in default deducing; do
  case $field in
    default) bots="" ;;
    deducing) bots="deducer sly_witch" ;;
  esac
  for reading in default no_eligible_constable=reset trial=single trial=moving trial=2 \
                 remove_target=own remove_target=own_first; do
    case $reading in
      default) rule="" ;;
      *) rule="--rule $reading" ;;
    esac
    name=$(echo "$reading" | tr '=' '_')
    # shellcheck disable=SC2086
    $D salem sim -p 3..8 -n 20000 --seed 2026 -j 1 $rule $bots -o "$out/${field}_$name.csv" > /dev/null
  done
done
