#!/bin/sh
# slurm-down.sh DIR - stop the test cluster slurm-up.sh DIR started: cancels
# its jobs (and waits, bounded, until they are gone), then stops slurmd,
# slurmctld and munged by the PIDs in DIR's pid files and waits for each to
# exit.  Leaves nothing of the cluster running; the logs stay in DIR.
# Safe to run twice, or on a half-started cluster.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
[ $# = 1 ] || { echo "usage: slurm-down.sh DIR" >&2; exit 2; }
[ -d "$1" ] || exit 0
D=$(cd "$1" && pwd)
PATH=$PATH:/usr/sbin
rc=0
if [ -f "$D/slurm.conf" ] && [ -s "$D/slurmctld.pid" ]; then
    export SLURM_CONF="$D/slurm.conf"
    # Every job of this cluster (it has no others), then wait until the
    # node has no job step running, so no slurmstepd outlives the cluster.
    scancel --full --quiet --partition=test >/dev/null 2>&1 ||
        scancel --quiet --partition=test >/dev/null 2>&1 || :
    t=60
    while [ $t -gt 0 ] && [ -n "$(squeue -h -o %i 2>/dev/null)" ]; do
        sleep 0.5
        t=$((t - 1))
    done
fi
# Job steps of this cluster that are still around: slurmstepd processes
# whose environment names our slurm.conf (slurmd passes it on).
for p in /proc/[0-9]*; do
    [ "$(cat "$p/comm" 2>/dev/null)" = slurmstepd ] || continue
    { tr '\0' '\n' <"$p/environ"; } 2>/dev/null | grep -qx "SLURM_CONF=$D/slurm.conf" ||
        grep -qF "$D/" "$p/maps" 2>/dev/null || continue
    pid=${p#/proc/}
    kill -KILL "$pid" 2>/dev/null || :
done
stop_pidfile slurmd "$D/slurmd.pid" slurmd || rc=1
stop_pidfile slurmctld "$D/slurmctld.pid" slurmctld || rc=1
stop_pidfile munged "$D/munged.pid" munged || rc=1
exit $rc
