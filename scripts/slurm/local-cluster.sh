#!/usr/bin/env bash
# A single-node Slurm cluster on this machine, from Debian's packages
# (slurmctld + slurmd + munge), to try the job-array path for real:
#
#   sudo scripts/slurm/local-cluster.sh up       # install, configure, start; waits for the node
#   scripts/slurm/local-cluster.sh demo [SHARDS] # a sharded sweep as a job array + merge, compared with a one-machine run
#   sudo scripts/slurm/local-cluster.sh down     # stop the daemons
#
# Needs root for 'up' and 'down' (apt-get, /etc/slurm, daemons). Only for a
# throwaway machine or container: it writes /etc/slurm/slurm.conf and a munge key.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cmd="${1:-}"

up() {
    if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
    fi
    host="$(hostname -s)"
    cpus="$(nproc)"
    mem="$(awk '/MemTotal/ {print int($2/1024) - 512}' /proc/meminfo)"
    mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm /run/munge
    if [ ! -s /etc/munge/munge.key ]; then
        mkdir -p /etc/munge
        dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
    fi
    chown -R munge:munge /etc/munge /run/munge 2>/dev/null || true
    chmod 400 /etc/munge/munge.key
    pgrep -x munged >/dev/null || runuser -u munge -- munged --force 2>/dev/null || munged --force
    cat > /etc/slurm/slurm.conf <<CONF
ClusterName=domsim-local
SlurmctldHost=$host
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
ReturnToService=2
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmUser=root
SlurmdUser=root
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
DependencyParameters=kill_invalid_depend
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
    printf 'ConstrainCores=no\n' > /etc/slurm/cgroup.conf
    pgrep -x slurmctld >/dev/null || slurmctld
    pgrep -x slurmd >/dev/null || slurmd
    for _ in $(seq 1 60); do
        if sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then
            sinfo
            return 0
        fi
        scontrol update nodename="$host" state=resume >/dev/null 2>&1 || true
        sleep 1
    done
    echo "the node did not become idle; see /var/log/slurm/" >&2
    sinfo >&2 || true
    return 1
}

down() {
    pkill -x slurmd || true
    pkill -x slurmctld || true
    pkill -x munged || true
}

demo() {
    local shards="${1:-8}"
    (cd "$root" && cargo build --release --quiet)
    local domsim="$root/target/release/domsim"
    local work
    work="$(mktemp -d)"
    local run=(sweep strategies/big_money_ultimate.dom strategies/smithy_big_money.dom
               strategies/double_witch.dom strategies/militia_big_money.dom
               --random 64 --sets base,intrigue,dark-ages -n 400 --seed 7)
    local t0 t1 t2
    t0=$(date +%s.%N)
    (cd "$root" && "$domsim" "${run[@]}" -o "$work/one-machine.csv" >/dev/null)
    t1=$(date +%s.%N)
    local out
    out=$(cd "$root" && PARTS="$work/parts" DOMSIM="$domsim" "$here/submit.sh" "$shards" "$work/merged.csv" "${run[@]}")
    echo "$out"
    local merge_id
    merge_id=$(sed -n 's/.*merge job \([0-9]*\).*/\1/p' <<<"$out" | head -n 1)
    # A failed shard cancels the merge (kill_invalid_depend): the loop ends.
    while squeue -h -j "$merge_id" 2>/dev/null | grep -q .; do sleep 1; done
    if [ ! -s "$work/merged.csv" ]; then
        echo "no merged CSV: a shard or the merge failed; logs in $work/parts" >&2
        sacct -X --format=JobID,JobName,State,ExitCode 2>/dev/null >&2 || true
        return 1
    fi
    t2=$(date +%s.%N)
    sacct >/dev/null 2>&1 || true
    if cmp "$work/one-machine.csv" "$work/merged.csv"; then
        echo "IDENTICAL: $shards shards merged == one-machine CSV ($(wc -c < "$work/merged.csv") bytes)"
        sacct -X --format=JobID,JobName,State,Elapsed,ExitCode 2>/dev/null | tail -n +1 || true
    else
        echo "DIFFERENT" >&2
        return 1
    fi
    printf 'one machine: %.1f s; %s shards through Slurm (submit to merged): %.1f s\n' \
        "$(echo "$t1 - $t0" | bc)" "$shards" "$(echo "$t2 - $t1" | bc)"
    echo "outputs in $work"
}

case "$cmd" in
    up) up ;;
    down) down ;;
    demo) shift; demo "$@" ;;
    *) sed -n '2,10p' "$0"; exit 2 ;;
esac
