#!/usr/bin/env bash
# Submit a domsim run as a Slurm job array of SHARDS shards plus a merge job
# that depends on it (afterok): the merged CSV equals a one-machine run's.
#
#   scripts/slurm/submit.sh 8 results/table.csv sim strategies/big_money.dom \
#       strategies/smithy_big_money.dom -n 10000000 --seed 7
#
# Prints the two job ids. Parts go to PARTS (default parts-<pid>); domsim is
# taken from DOMSIM (default: target/release/domsim, built if missing).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
shards="${1:?usage: submit.sh SHARDS OUT.csv VERB ARGS...}"
out="${2:?usage: submit.sh SHARDS OUT.csv VERB ARGS...}"
shift 2
root="$(cd "$here/../.." && pwd)"
if [ -z "${DOMSIM:-}" ]; then
    (cd "$root" && cargo build --release --quiet)
    DOMSIM="$root/target/release/domsim"
fi
parts="${PARTS:-$PWD/parts-$$}"
mkdir -p "$parts"
env_list="ALL,SHARDS=$shards,PARTS=$parts,DOMSIM=$DOMSIM"
# Job logs go beside the parts, not into the repository.
array=$(sbatch --parsable --chdir="$root" --array="1-$shards" --export="$env_list" \
    --output="$parts/domsim-shard-%A_%a.log" "$here/shard.sbatch" "$@")
merge=$(sbatch --parsable --chdir="$root" --dependency="afterok:${array%%;*}" \
    --export="$env_list" --output="$parts/domsim-merge-%j.log" "$here/merge.sbatch" "$out")
echo "array job $array ($shards shards), merge job $merge -> $out"
