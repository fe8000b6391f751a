#!/bin/sh
# sshd-down.sh DIR - stop the sshd that sshd-up.sh DIR started, by the PID
# in DIR/sshd.pid, and wait for it to exit; then end the sessions it had
# open (sshd processes whose parent was that PID).  Safe to run twice.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
[ $# = 1 ] || { echo "usage: sshd-down.sh DIR" >&2; exit 2; }
[ -d "$1" ] || exit 0
D=$(cd "$1" && pwd)
[ -s "$D/sshd.pid" ] || exit 0
main=$(cat "$D/sshd.pid")
# The per-connection sshd processes are children of the listener.
kids=""
for p in /proc/[0-9]*; do
    [ "$(cat "$p/comm" 2>/dev/null)" = sshd ] || continue
    ppid=$(sed -n 's/^PPid:[[:space:]]*//p' "$p/status" 2>/dev/null)
    [ "$ppid" = "$main" ] && kids="$kids ${p#/proc/}"
done
rc=0
stop_pidfile sshd "$D/sshd.pid" sshd || rc=1
for k in $kids; do
    [ "$(cat "/proc/$k/comm" 2>/dev/null)" = sshd ] && kill -TERM "$k" 2>/dev/null
done
# shellcheck disable=SC2086
[ -z "$kids" ] || wait_gone 10 $kids || { echo "sshd-down: sessions$kids still run" >&2; rc=1; }
exit $rc
