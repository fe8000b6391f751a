#!/bin/sh
# slurm-up.sh DIR - a private one-node Slurm cluster for the tests, started
# by hand (no systemd): writes DIR/slurm.conf and DIR/cgroup.conf for this
# host, a fresh munge key, starts munged, slurmctld and slurmd with their
# sockets, spool directories, logs and pid files all in DIR, on free ports,
# and waits until `sinfo` shows the node idle.  Nothing outside DIR is read
# or written (the system's /etc/slurm, /etc/munge and daemons are left
# alone).  On success it prints the environment a caller needs, as shell
# assignments (also kept in DIR/env):
#     eval "$(sh tests/cluster/slurm-up.sh DIR)"   # sets SLURM_CONF
#     sbatch ...; squeue; sinfo ...
#     sh tests/cluster/slurm-down.sh DIR
# Exit status: 0 up; 77 it cannot run here (not root, Slurm or munge not
# installed: tests/deps.sh installs them as root), the reason on stderr;
# 1 a daemon did not start or the node did not become idle (every daemon
# it started is stopped again, the logs are in DIR).
# Environment: SLURM_UP_CPUS, the node's CPU count (default: nproc; more
# than the machine has is allowed, for oversubscribed tests);
# SLURM_UP_WAIT, seconds to wait for the node (default 60).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"

[ $# = 1 ] || { echo "usage: slurm-up.sh DIR" >&2; exit 2; }
mkdir -p "$1"
D=$(cd "$1" && pwd)

cannot() { echo "slurm-up: cannot run here: $*" >&2; exit 77; }
[ "$(id -u)" = 0 ] || cannot "not root (slurmd must run as root)"
for p in munged slurmctld slurmd sbatch sinfo squeue scancel; do
    command -v $p >/dev/null 2>&1 || [ -x /usr/sbin/$p ] ||
        cannot "$p is not installed (Debian: slurm-wlm munge; tests/deps.sh installs them as root)"
done
command -v python3 >/dev/null 2>&1 || cannot "python3 is not installed"
PATH=$PATH:/usr/sbin

# Stop whatever was started when anything below fails.
up=0
cleanup() {
    rc=$?
    trap '' PIPE
    exec >&2
    if [ $up = 0 ]; then
        sh "$here/slurm-down.sh" "$D" >&2 || :
        [ $rc = 0 ] && rc=1
    fi
    exit $rc
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP PIPE

[ ! -e "$D/slurmctld.pid" ] && [ ! -e "$D/slurmd.pid" ] && [ ! -e "$D/munged.pid" ] ||
    { echo "slurm-up: $D already holds a cluster (slurm-down.sh $D first)" >&2; exit 1; }

host=$(hostname -s 2>/dev/null || hostname)
cpus=${SLURM_UP_CPUS:-$(nproc 2>/dev/null || echo 1)}
mkdir -p "$D/munge" "$D/ctld" "$D/slurmd"
chmod 700 "$D" "$D/munge"

# munge: its own key, socket, pid, log and seed files.
dd if=/dev/urandom of="$D/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 600 "$D/munge/munge.key"
sock=$D/munge/munge.socket
munged --force --key-file="$D/munge/munge.key" --socket="$sock" \
    --pid-file="$D/munged.pid" --log-file="$D/munged.log" \
    --seed-file="$D/munge/munged.seed" >>"$D/munged.log" 2>&1 ||
    { echo "slurm-up: munged did not start:" >&2; tail -5 "$D/munged.log" >&2; exit 1; }

ctlport=$(free_port)
dport=$(free_port)
while [ "$dport" = "$ctlport" ]; do dport=$(free_port); done
cat >"$D/slurm.conf" <<CONF
# A one-node test cluster written by tests/cluster/slurm-up.sh.
ClusterName=medantest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctlport
SlurmdPort=$dport
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
StateSaveLocation=$D/ctld
SlurmdSpoolDir=$D/slurmd
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/slurmctld.log
SlurmdLogFile=$D/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
ReturnToService=2
MinJobAge=300
SchedulerParameters=sched_interval=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
CONF
cat >"$D/cgroup.conf" <<CONF
# No cgroups: the test cluster tracks processes by /proc (linuxproc).
CgroupAutomount=no
CONF
: >"$D/plugstack.conf"
export SLURM_CONF="$D/slurm.conf"

# -c: no saved state (a fresh cluster each time); -i: ignore bad state.
slurmctld -c -i -f "$SLURM_CONF" >>"$D/slurmctld.log" 2>&1 ||
    { echo "slurm-up: slurmctld did not start:" >&2; tail -5 "$D/slurmctld.log" >&2; exit 1; }
slurmd -f "$SLURM_CONF" >>"$D/slurmd.log" 2>&1 ||
    { echo "slurm-up: slurmd did not start:" >&2; tail -5 "$D/slurmd.log" >&2; exit 1; }

# Wait (bounded) for the node to come up idle.
t=$(( ${SLURM_UP_WAIT:-60} * 2 ))
state=""
while [ $t -gt 0 ]; do
    state=$(sinfo -h -n "$host" -o %T 2>/dev/null | head -1) || state=""
    [ "$state" = idle ] && break
    sleep 0.5
    t=$((t - 1))
done
[ "$state" = idle ] || {
    echo "slurm-up: node $host is '${state:-not known}', not idle, after ${SLURM_UP_WAIT:-60} s; logs:" >&2
    tail -5 "$D/slurmctld.log" "$D/slurmd.log" >&2
    exit 1
}
printf 'SLURM_CONF=%s; export SLURM_CONF\n' "$(sq "$SLURM_CONF")" >"$D/env"
cat "$D/env"
up=1
