#!/bin/sh
# run-slurm-real.sh BUILD BIN - the slurm-real stage: medan-slurm-match on a
# real one-node Slurm cluster (tests/cluster/slurm-up.sh: munged, slurmctld,
# slurmd started here, as root), waits for the array and the merge job,
# and checks the merged results equal a single run of the same match move
# for move, game by game.  Stops the daemons it started.  Where it cannot
# run (not root, no Slurm/munge and no way to install them, the daemons do
# not start) it prints `skipped: why` and exits 77.
#   SLURM_REAL_WAIT: seconds to wait for the jobs (default 240).
set -u
BIN=${2:-bin}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
ABS=$(cd "$BIN" && pwd)
REF=$ABS/medan-referee
. "$here/common.sh"
. "$top/tests/check-lib.sh"

[ "$(id -u)" = 0 ] || skip "not root (a test Slurm cluster's slurmd runs as root)"
PATH=$PATH:/usr/sbin
tools() {
    for p in munged slurmctld slurmd sbatch squeue scontrol; do
        command -v $p >/dev/null 2>&1 || return 1
    done
}
# The build's set-up step installs slurm-wlm and munge as root; it ran
# once per checkout, so run it again when they are still missing.
tools || sh "$top/tests/deps.sh" >&2 || :
tools || skip "Slurm or munge is not installed and tests/deps.sh could not install them (Debian: slurm-wlm munge)"

T=$(mktemp -d "${TMPDIR:-/tmp}/slurm-real.XXXXXX")
C=$T/cluster
cleanup() {
    rc=$?
    trap '' PIPE
    exec >&2
    sh "$here/slurm-down.sh" "$T/cluster"   # a first try, when there was a second
    sh "$here/slurm-down.sh" "$C" || { echo "slurm-real: the cluster did not stop cleanly" >&2; rc=1; }
    rm -rf "$T"
    exit $rc
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP PIPE

sh "$here/slurm-up.sh" "$C" >"$T/env" 2>"$T/up.err"
st=$?
if [ $st = 1 ]; then
    # Once more in a new directory (a free port may be taken meanwhile).
    echo "slurm-up.sh: $(head -1 "$T/up.err"); trying once more" >&2
    C=$T/cluster2
    sh "$here/slurm-up.sh" "$C" >"$T/env" 2>"$T/up.err"
    st=$?
fi
[ $st = 0 ] || {
    cat "$T/up.err" >&2
    [ $st = 77 ] && skip "$(sed -n 's/^slurm-up: cannot run here: //p' "$T/up.err" | head -1)"
    skip "the Slurm daemons do not start here (slurm-up.sh: $(head -1 "$T/up.err"))"
}
. "$T/env"
ok "a one-node Slurm cluster is up: $(sinfo -h -o '%P %D %T %c' | head -1) CPUs"

# A deterministic match (fixed depth, seeded openings): 12 games, 3 shards.
set -- --game loa --engine name=a cmd="$ABS/medan-loa" \
    --engine name=b cmd="$ABS/medan-loa" option.Strategy=greedy \
    --each depth=2 --games 12 --seed 7 --openings random-plies=4 --logdir none
"$REF" "$@" --quiet --results "$T/one.jsonl" >"$T/one.out" 2>&1
check "$?/$(wc -l <"$T/one.jsonl" | tr -d ' ')" 0/12 "single run: 12 games"

# run_array N RESULTS MATCH...: medan-slurm-match N as a user runs it (the
# referee beside the script), wait (bounded) for the array and the merge
# job to leave the queue, check that every task and the merge completed.
wait_s=${SLURM_REAL_WAIT:-240}
run_array() {
    k=$1 res=$2
    shift 2
    env -u MEDAN_REFEREE sh "$ABS/medan-slurm-match" "$k" --cpus-per-task=1 \
        --output="$T/task-%A_%a.log" -- "$@" --results "$res" >"$T/submit.out" 2>&1
    check $? 0 "medan-slurm-match $k: submitted ($(head -1 "$T/submit.out"))"
    job=$(sed -n 's/^submitted: shards job \([0-9]*\) .* merge job \([0-9]*\)$/\1/p' "$T/submit.out")
    merge=$(sed -n 's/^submitted: shards job \([0-9]*\) .* merge job \([0-9]*\)$/\2/p' "$T/submit.out")
    [ -n "$job" ] && [ -n "$merge" ] || { bad "no job ids in: $(cat "$T/submit.out")"; return 1; }
    t=$((wait_s * 2))
    while [ $t -gt 0 ] && [ -n "$(squeue -h -o %i -j "$job,$merge" 2>/dev/null)" ]; do
        sleep 0.5
        t=$((t - 1))
    done
    if [ $t = 0 ]; then
        bad "jobs $job and $merge are still queued or running after $wait_s s (SLURM_REAL_WAIT):"
        squeue -j "$job,$merge" >&2
        return 1
    fi
    ok "the array and the merge job have finished"
    states=$(scontrol -o show job "$job" | sed -n 's/.*JobState=\([A-Z_]*\) .*ExitCode=\([0-9:]*\) .*/\1 \2/p' | sort | uniq -c | sed 's/^ *//')
    check "$states" "$k COMPLETED 0:0" "the $k array tasks completed with exit 0"
    check "$(scontrol -o show job "$merge" | sed -n 's/.*JobState=\([A-Z_]*\) .*ExitCode=\([0-9:]*\) .*/\1 \2/p')" \
        "COMPLETED 0:0" "the merge job completed with exit 0"
}

cd "$T" || exit 1
run_array 3 "$T/slurm.jsonl" "$@" || exit 1
for i in 1 2 3; do
    [ -s "$T/slurm.jsonl.shard-$i-of-3" ] || bad "shard $i/3 wrote no results: $(cat "$T/slurm.jsonl.shard-$i-of-3.out" "$T"/task-*_$i.log 2>/dev/null)"
done
python3 "$here/same-games.py" "$T/one.jsonl" "$T/slurm.jsonl" 12 >"$T/cmp.out" 2>&1 &&
    ok "merged Slurm results = the single run, move for move ($(cat "$T/cmp.out"))" ||
    bad "merged Slurm results differ from the single run: $(cat "$T/cmp.out")"
grep -q '^a vs b: ' "$T/slurm.jsonl.table" 2>/dev/null && ok "the merge job wrote the table" ||
    bad "no table from the merge job: $(cat "$T/slurm.jsonl.table" 2>/dev/null)"
grep -q '^a vs b: ' "$T/one.out" &&
    [ "$(grep '^a vs b: ' "$T/one.out")" = "$(grep '^a vs b: ' "$T/slurm.jsonl.table")" ] &&
    ok "the same score line as the single run" || bad "score lines differ"

# A hidden-information game: the array's tasks share the key file F.key
# (made atomically by the first task on the shared file system); one run
# with that key deals the same cards and plays the same games.
bat="--game battalion players=3 --engine name=r1 cmd=$ABS/medan-battalion option.Strategy=random
    --engine name=r2 cmd=$ABS/medan-battalion option.Strategy=random --each st=2
    --games 6 --seed 3 --logdir none"
# shellcheck disable=SC2086
run_array 2 "$T/bat.jsonl" $bat || exit 1
check "$(grep -o '"key":"[0-9a-f]*"' "$T/bat.jsonl" | sort -u | wc -l | tr -d ' ')" 1 \
    "hidden information on Slurm: every game dealt with one key"
# shellcheck disable=SC2086
"$REF" $bat --key-file "$T/bat.jsonl.key" --quiet --results "$T/bat1.jsonl" >/dev/null 2>&1
python3 "$here/same-games.py" "$T/bat1.jsonl" "$T/bat.jsonl" 6 >"$T/bcmp.out" 2>&1 &&
    ok "hidden information on Slurm = one run with F.key, move for move ($(cat "$T/bcmp.out"))" ||
    bad "hidden information on Slurm differs from one run with F.key: $(cat "$T/bcmp.out")"

cd / || exit 1
pids=$(cat "$C/munged.pid" "$C/slurmctld.pid" "$C/slurmd.pid" 2>/dev/null)
sh "$here/slurm-down.sh" "$C"
check "$?" 0 "slurm-down.sh: exit 0"
left=""
for p in $pids; do kill -0 "$p" 2>/dev/null && left="$left $p"; done
check "$(echo $pids | wc -w | tr -d ' ')/${left:-none}" "3/none" "the 3 daemons started here have exited"
[ $fail = 0 ] && echo "slurm-real tests: all $n passed" || echo "slurm-real tests: FAILED" >&2
exit $fail
