#!/usr/bin/env bash
# Throughput on this machine: builds an optimized domsim and runs
# `domsim bench` (the one way to measure; see README "Benchmarks"). Every
# argument is passed through:
#   scripts/bench.sh                          # the standard suite, about a minute on 2 cores
#   scripts/bench.sh --quick                  # a few seconds: does it run?
#   scripts/bench.sh --scale 3 -o mine.csv    # 3x the games, CSV copy of the table
#   scripts/bench.sh --only witch --threads 1,2,4
#   scripts/bench.sh 0.5                      # a bare number is --scale (older usage)
# Prints the machine description and a Markdown table of games/s on 1 thread,
# 2 threads and every core; `domsim bench --help` lists the options.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -ge 1 && $1 =~ ^[0-9]*\.?[0-9]+$ ]]; then
    set -- --scale "$@"
fi
cargo build --release -q
exec ./target/release/domsim bench "$@"
