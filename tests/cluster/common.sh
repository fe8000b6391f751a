# common.sh - helpers shared by the tests' cluster scripts (sourced, not run).

# free_port: a TCP port on 127.0.0.1 that nothing listens on now (asks the
# kernel for one; python3 is one of the build's test packages).
free_port() {
    python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()'
}

# wait_gone SECONDS PID...: wait until none of the PIDs runs; 1 if some
# still runs after SECONDS.
wait_gone() {
    _t=$(($1 * 10))
    shift
    while [ $_t -gt 0 ]; do
        _alive=0
        for _p in "$@"; do kill -0 "$_p" 2>/dev/null && _alive=1; done
        [ $_alive = 0 ] && return 0
        sleep 0.1
        _t=$((_t - 1))
    done
    return 1
}

# stop_pidfile NAME FILE PROG: stop the process whose PID FILE holds (TERM,
# then KILL after 15 s), wait for it to exit, remove FILE.  Only that PID,
# and only while it is PROG (/proc/PID/comm), so a stale file whose number
# went to another process stops nothing.
stop_pidfile() {
    [ -s "$2" ] || { rm -f "$2"; return 0; }
    _pid=$(cat "$2")
    case "$_pid" in '' | *[!0-9]*) echo "$1: bad pid file $2" >&2; return 1 ;; esac
    if kill -0 "$_pid" 2>/dev/null &&
        [ "$(cat "/proc/$_pid/comm" 2>/dev/null)" = "$3" ]; then
        kill -TERM "$_pid" 2>/dev/null || :
        if ! wait_gone 15 "$_pid"; then
            echo "$1: pid $_pid did not stop on TERM; killing it" >&2
            kill -KILL "$_pid" 2>/dev/null || :
            wait_gone 5 "$_pid" || { echo "$1: pid $_pid still runs" >&2; return 1; }
        fi
    fi
    rm -f "$2"
}

# sq S: S quoted for a POSIX shell.
sq() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }

# skip WHY: this stage cannot run here: `skipped: WHY` on a line of its own
# and exit 77 (tests/run-stages.sh shows the stage as skipped).  Where the
# real run is required, as root with CI=true (CI: a fresh Debian machine)
# or MEDAN_CLUSTER_REQUIRED=1, the same line with FAIL and exit 1 instead.
skip() {
    if { [ "${CI:-}" = true ] && [ "$(id -u)" = 0 ]; } ||
        [ "${MEDAN_CLUSTER_REQUIRED:-0}" = 1 ]; then
        echo "FAIL: cannot run, and the real run is required here (CI=true as root, or MEDAN_CLUSTER_REQUIRED=1): $*" >&2
        exit 1
    fi
    echo "skipped: $*"
    exit 77
}
