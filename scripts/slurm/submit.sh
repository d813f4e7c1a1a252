#!/usr/bin/env bash
# Submit a domsim run as a Slurm job array of SHARDS shards plus a merge job
# that depends on it (afterok): the merged CSV equals a one-machine run's.
#
#   scripts/slurm/submit.sh 8 table.csv sim strategies/big_money.dom \
#       strategies/smithy_big_money.dom -n 10000000 --seed 7
#
# The jobs run in the folder you submit from, so OUT.csv and the paths in
# the domsim arguments mean what they mean here. Parts go to PARTS (default
# ./parts-<pid>); domsim is taken from DOMSIM (default: this repository's
# target/release/domsim, built if missing). For a sweep, SUMMARY=FILE.csv
# also writes the merged run's --summary; for a rank, matrix or compare,
# HTML=FILE.html its HTML page (merge --html). Prints the job ids and the
# command that re-runs one failed task.
set -euo pipefail
usage="usage: submit.sh SHARDS OUT.csv VERB ARGS..."
here="$(cd "$(dirname "$0")" && pwd)"
shards="${1:?$usage}"
out="${2:?$usage}"
shift 2
[ $# -ge 1 ] || { echo "submit.sh: no domsim verb given; $usage" >&2; exit 2; }
case "$shards" in
    '' | *[!0-9]* | 0*) echo "submit.sh: SHARDS must be a whole number from 1 (got '$shards')" >&2; exit 2 ;;
esac
root="$(cd "$here/../.." && pwd)"
if [ -z "${DOMSIM:-}" ]; then
    (cd "$root" && cargo build --release --quiet)
    DOMSIM="$root/target/release/domsim"
fi
# Absolute paths: Slurm opens the log files and runs the jobs on other
# machines, where only the folder submitted from (--chdir) is the same.
case "$DOMSIM" in
    */*) DOMSIM="$(cd "$(dirname "$DOMSIM")" && pwd)/$(basename "$DOMSIM")" ;;
esac
parts="${PARTS:-parts-$$}"
mkdir -p "$parts"
parts="$(cd "$parts" && pwd)"
for v in "$parts" "$DOMSIM"; do
    case "$v" in
        *,*) echo "submit.sh: '$v' holds a comma, which sbatch --export cannot pass" >&2; exit 2 ;;
    esac
done
merge_args=("$out")
if [ -n "${SUMMARY:-}" ]; then
    merge_args+=(--summary "$SUMMARY")
fi
if [ -n "${HTML:-}" ]; then
    merge_args+=(--html "$HTML")
fi
env_list="ALL,SHARDS=$shards,PARTS=$parts,DOMSIM=$DOMSIM"
# Job logs go beside the parts, not into the folder submitted from.
array=$(sbatch --parsable --chdir="$PWD" --array="1-$shards" --export="$env_list" \
    --output="$parts/domsim-shard-%A_%a.log" "$here/shard.sbatch" "$@")
merge=$(sbatch --parsable --chdir="$PWD" --dependency="afterok:${array%%;*}" \
    --export="$env_list" --output="$parts/domsim-merge-%j.log" "$here/merge.sbatch" "${merge_args[@]}")
echo "array job $array ($shards shards), merge job $merge -> $out"
echo "a failed task I runs again with the same part (then submit the merge again; afterok never fires after a failure):"
printf '  sbatch --chdir=%q --array=I --export=%q --output=%q %q' \
    "$PWD" "$env_list" "$parts/domsim-shard-%A_%a.log" "$here/shard.sbatch"
printf ' %q' "$@"
printf '\n  sbatch --chdir=%q --export=%q --output=%q %q' \
    "$PWD" "$env_list" "$parts/domsim-merge-%j.log" "$here/merge.sbatch"
printf ' %q' "${merge_args[@]}"
printf '\n'
