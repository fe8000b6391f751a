#!/bin/sh
# bench.sh BIN [GAMES] - games per minute for one fixed match (LOA, depth 4
# against greedy, seeded openings; default 32 games) played four ways on
# this machine: one referee at --concurrency 2; 2 shards through GNU
# parallel; 2 shards through the test Slurm cluster (slurm-up.sh, as root);
# 2 shards over the test sshd (sshd-up.sh, one host, 2 slots).  Each way's
# games must equal the single run's move for move.  Prints the load
# (uptime) before and after: the figures are only as quiet as the machine.
# Not part of make test (docs/referee.md, "Your first cluster match").
set -u
BIN=${1:-bin}
G=${2:-32}
here=$(cd "$(dirname "$0")" && pwd)
ABS=$(cd "$BIN" && pwd)
REF=$ABS/medan-referee
. "$here/common.sh"
PATH=$PATH:/usr/sbin
T=$(mktemp -d "${TMPDIR:-/tmp}/cluster-bench.XXXXXX")
cleanup() {
    trap '' PIPE
    exec >&2
    sh "$here/slurm-down.sh" "$T/slurm" 2>/dev/null
    sh "$here/sshd-down.sh" "$T/sshd" 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP PIPE
set -- --game loa --engine name=a cmd="$ABS/medan-loa" \
    --engine name=b cmd="$ABS/medan-loa" option.Strategy=greedy \
    --each depth=4 --games "$G" --seed 11 --openings random-plies=4 --logdir none
now() { date +%s.%N; }
# report NAME T0 T1 FILE: games per minute, and whether FILE = the single run.
report() {
    same=$(python3 "$here/same-games.py" "$T/one.jsonl" "$4" "$G" 2>&1 | tail -1)
    awk -v n="$1" -v a="$2" -v b="$3" -v g="$G" -v s="$same" 'BEGIN {
        printf "%-34s %6.1f s  %6.1f games/min  (%s)\n", n, b - a, g * 60 / (b - a), s }'
}
echo "load before: $(uptime)"
t0=$(now)
"$REF" "$@" --concurrency 2 --quiet --results "$T/one.jsonl" >/dev/null 2>&1
report "single run, --concurrency 2" "$t0" "$(now)" "$T/one.jsonl"

t0=$(now)
"$REF" parallel --shards 2 "$@" --results "$T/par.jsonl" >/dev/null 2>&1
report "parallel --shards 2 (this host)" "$t0" "$(now)" "$T/par.jsonl"

if sh "$here/slurm-up.sh" "$T/slurm" >"$T/slurm.env" 2>"$T/slurm.err"; then
    . "$T/slurm.env"
    cd "$T" || exit 1
    t0=$(now)
    MEDAN_REFEREE=$REF sh "$ABS/medan-slurm-match" 2 --cpus-per-task=1 \
        --output="$T/task-%A_%a.log" -- "$@" --results "$T/slurm.jsonl" >"$T/submit.out" 2>&1
    ids=$(sed -n 's/^submitted: shards job \([0-9]*\) .* merge job \([0-9]*\)$/\1,\2/p' "$T/submit.out")
    k=1200
    while [ $k -gt 0 ] && [ -n "$(squeue -h -o %i -j "$ids" 2>/dev/null)" ]; do
        sleep 0.25
        k=$((k - 1))
    done
    report "medan-slurm-match 2 (test Slurm)" "$t0" "$(now)" "$T/slurm.jsonl"
    cd / || exit 1
else
    echo "Slurm: not measured ($(head -1 "$T/slurm.err"))"
fi

if sh "$here/sshd-up.sh" "$T/sshd" node1 >"$T/sshd.env" 2>"$T/sshd.err"; then
    . "$T/sshd.env"
    mkdir -p "$T/ctl/m"
    cd "$T/ctl/m" || exit 1
    t0=$(now)
    HOME=$T/ctl "$REF" parallel --shards 2 --sshlogin 2/node1 "$@" --results r.jsonl >/dev/null 2>&1
    report "parallel --sshlogin 2/node1 (ssh)" "$t0" "$(now)" "$T/ctl/m/r.jsonl"
    cd / || exit 1
else
    echo "ssh: not measured ($(head -1 "$T/sshd.err"))"
fi
echo "load after: $(uptime)"
