#!/usr/bin/env bash
# Wall-time A/B of two domsim builds on a machine too noisy to time them one
# after the other (a shared VM): both run at once, one on each of the first
# two CPUs, and swap CPUs every round, so a slow spell of the host or of a
# core hits both; the figure is the median over rounds of NEW / OLD games/s
# of the same round.
#
#   scripts/ab.sh OLD_BIN NEW_BIN                  # 6 rounds, the issue-18 workloads
#   scripts/ab.sh -r 12 --only witch OLD NEW       # 12 rounds, Double Witch only
#   scripts/ab.sh --scale 0.5 -o raw.csv OLD NEW   # half the games, raw rows kept
#
# Each run is `BIN bench -j 1 --only WORKLOAD --scale F` (one thread).
# Options: -r/--rounds N (default 6), --only NAME (repeatable; default
# "big money mirror", "hivemind", "double witch", "masquerade"), --scale F
# (default 1), -o/--out FILE.csv (every run: build,round,cpu, then
# `domsim bench`'s columns; `-` is standard output). Prints a Markdown
# table. Needs taskset (util-linux) and two CPUs this process may run on
# (the first two of its affinity list); with one, the builds alternate.
# A ratio inside the range of the rounds is no difference (the build
# against itself gave x1.000 and x0.983 over 8 rounds, ranges of about
# +-5%: results/BENCHMARKS.md); runs far shorter than the default
# (--scale below about 0.3) time start-up more than games. Exit status 2: bad
# arguments; a failing run's own status otherwise (its message printed).
set -euo pipefail
cd "$(dirname "$0")/.."
usage() {
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
    exit 0
}
die() {
    echo "ab.sh: $*" >&2
    exit 2
}
rounds=6 scale=1 out="" only=()
while [[ $# -gt 0 ]]; do
    case $1 in
        -r | --rounds) [[ $# -ge 2 ]] || die "$1 needs a number"; rounds=$2; shift 2 ;;
        --only) [[ $# -ge 2 ]] || die "--only needs a workload name"; only+=("$2"); shift 2 ;;
        --scale) [[ $# -ge 2 ]] || die "--scale needs a number"; scale=$2; shift 2 ;;
        -o | --out) [[ $# -ge 2 ]] || die "$1 needs a file name"; out=$2; shift 2 ;;
        -h | --help) usage ;;
        --) shift; break ;;
        -*) die "unknown option $1 (try --help)" ;;
        *) break ;;
    esac
done
[[ $# -eq 2 ]] || die "expected two builds, OLD_BIN NEW_BIN (got $#; try --help)"
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "--rounds must be a whole number >= 1, not \"$rounds\""
[[ $scale =~ ^[0-9]*\.?[0-9]+$ && $scale =~ [1-9] ]] || die "--scale must be a positive number, not \"$scale\""
old=$1 new=$2
if [[ -n $out && $out != - ]]; then
    # Checked now, not after the runs: the rows are written at the end. A
    # symlink is followed (its target is what gets written).
    dest=$out
    if [[ -L $out ]]; then
        dest=$(readlink -f -- "$out") || die "cannot write $out: it links into a missing directory"
    fi
    [[ -d $(dirname -- "$dest") ]] || die "cannot write $out: no such directory"
    [[ ! -d $dest ]] || die "cannot write $out: it is a directory"
fi
for b in "$old" "$new"; do
    [[ -f $b && -x $b ]] || die "$b is not an executable file"
done
[[ ${#only[@]} -gt 0 ]] || only=("big money mirror" "hivemind" "double witch" "masquerade")
# The CPUs this process may run on ("0-3", "4,6-7"), expanded in order.
cpus=()
allowed=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status 2>/dev/null || true)
IFS=, read -ra parts <<<"$allowed"
for part in "${parts[@]}"; do
    if [[ $part =~ ^([0-9]+)-([0-9]+)$ ]]; then
        for ((c = BASH_REMATCH[1]; c <= BASH_REMATCH[2] && ${#cpus[@]} < 2; c++)); do cpus+=("$c"); done
    elif [[ $part =~ ^[0-9]+$ ]]; then
        cpus+=("$part")
    fi
    [[ ${#cpus[@]} -lt 2 ]] || break
done
if [[ ${#cpus[@]} -ge 2 ]] && command -v taskset >/dev/null; then
    together=1
else
    together=0
    echo "ab.sh: one CPU (or no taskset): the builds alternate instead of running at once" >&2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rows=$tmp/rows.csv
: >"$rows"

# One run: binary, cpu (or ""), workload, output CSV.
run() {
    local pin=()
    [[ -n $2 ]] && pin=(taskset -c "$2")
    local rc=0
    "${pin[@]}" "$1" bench -j 1 --only "$3" --scale "$scale" -o "$4" >/dev/null 2>"$4.err" || rc=$?
    if [[ $rc -ne 0 ]]; then
        echo "ab.sh: $1 bench --only \"$3\" failed (exit status $rc):" >&2
        cat "$4.err" >&2
        exit "$rc"
    fi
}
# The data rows of a bench CSV, prefixed with label, round and cpu.
keep() {
    grep -v '^#' "$1" | tail -n +2 | sed "s/^/$2,$3,$4,/" >>"$rows"
}

for ((r = 1; r <= rounds; r++)); do
    for w in "${only[@]}"; do
        if [[ $together -eq 1 ]]; then
            if ((r % 2)); then ca=${cpus[0]} cb=${cpus[1]}; else ca=${cpus[1]} cb=${cpus[0]}; fi
            run "$old" "$ca" "$w" "$tmp/a.csv" &
            pa=$!
            run "$new" "$cb" "$w" "$tmp/b.csv" &
            pb=$!
            rc=0
            wait "$pa" || rc=$?
            wait "$pb" || rc=$?
            [[ $rc -eq 0 ]] || exit "$rc"
        else
            ca="" cb=""
            run "$old" "" "$w" "$tmp/a.csv"
            run "$new" "" "$w" "$tmp/b.csv"
        fi
        keep "$tmp/a.csv" old "$r" "${ca:-any}"
        keep "$tmp/b.csv" new "$r" "${cb:-any}"
    done
done

where=$([[ $together -eq 1 ]] && echo "both at once on CPUs ${cpus[0]} and ${cpus[1]}, swapped each round" || echo "one after the other")
echo "A/B of $old (OLD) and $new (NEW): $rounds round$( ((rounds == 1)) || echo s) of \`bench -j 1 --scale $scale\`, $where"
echo
echo "| workload | OLD games/s (median) | NEW games/s (median) | NEW / OLD, median of rounds | range of rounds |"
echo "|---|---:|---:|---:|---:|"
# The rows are CSV: a workload name with a comma ("New Salem, 5 players")
# comes quoted, so each row is split by a small CSV reader, not by -F,.
# Fields: 1 build, 2 round, 4 workload, 10 games/s.
awk '
    function csv(line, f,   n, i, c, q, cur) {
        n = 0; cur = ""; q = 0
        for (i = 1; i <= length(line); i++) {
            c = substr(line, i, 1)
            if (q) {
                if (c != "\"") cur = cur c
                else if (substr(line, i + 1, 1) == "\"") { cur = cur c; i++ }
                else q = 0
            } else if (c == "\"") q = 1
            else if (c == ",") { f[++n] = cur; cur = "" }
            else cur = cur c
        }
        f[++n] = cur
        return n
    }
    function median(a, n,   i, j, t) {
        for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    {
        csv($0, f); w = f[4]
        if (!(w in seen)) { seen[w] = 1; order[++nw] = w }
        v[f[1], f[2], w] = f[10]; if (f[2] + 0 > last[w] + 0) last[w] = f[2] + 0
    }
    END {
        for (k = 1; k <= nw; k++) {
            w = order[k]; n = 0; lo = ""; hi = ""
            delete ra; delete oa; delete na
            for (r = 1; r <= last[w]; r++) {
                if (!(("old", r, w) in v) || !(("new", r, w) in v)) continue
                n++; oa[n] = v["old", r, w]; na[n] = v["new", r, w]; ra[n] = na[n] / oa[n]
                if (lo == "" || ra[n] < lo) lo = ra[n]; if (hi == "" || ra[n] > hi) hi = ra[n]
            }
            printf "| %s | %.0f | %.0f | x%.3f | x%.3f - x%.3f |\n", w, median(oa, n), median(na, n), median(ra, n), lo, hi
        }
    }' "$rows"
if [[ -n $out ]]; then
    {
        echo "# command: scripts/ab.sh -r $rounds --scale $scale$(printf ' --only "%s"' "${only[@]}") OLD NEW"
        echo "# old: $old"
        echo "# new: $new"
        echo "# cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)"
        echo "# logical_cores: $(nproc)"
        echo "# together: $where"
        echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
        echo "build,round,cpu,workload,players,games,threads,wall_s,cpu_s,games_per_s,games_per_s_per_thread,speedup_vs_1_thread"; cat "$rows"; } >"$tmp/out.csv"
    if [[ $out == - ]]; then
        cat "$tmp/out.csv"
    else
        # `dest` is the symlink's target (resolved above). A device or FIFO
        # is written in place, a regular file is replaced whole (a temporary
        # file beside it, then a rename): never half written.
        if [[ -e $dest && ! -f $dest ]]; then
            cat "$tmp/out.csv" >"$dest"
        else
            part=$(mktemp "$(dirname -- "$dest")/.ab.XXXXXX")
            # mktemp makes it 0600: the mode of the file replaced, or what
            # the umask gives a new file.
            if [[ -e $dest ]]; then
                chmod --reference="$dest" -- "$part"
            else
                chmod "$(printf '%04o' $((0666 & ~0$(umask))))" -- "$part"
            fi
            if ! { cat "$tmp/out.csv" >"$part" && mv -f -- "$part" "$dest"; }; then
                rm -f -- "$part"
                echo "ab.sh: cannot write $out" >&2
                exit 1
            fi
        fi
    fi
fi
