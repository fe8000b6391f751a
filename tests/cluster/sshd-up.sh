#!/bin/sh
# sshd-up.sh DIR [HOST...] - a private sshd for the tests: OpenSSH's sshd on
# a free port of 127.0.0.1 with a throwaway host key and user keys, its
# config, pid file and log all in DIR (the system's /etc/ssh and its sshd
# are left alone).  Each HOST (default: node1) stands for a machine of its
# own with no shared file system: logging in as HOST (ssh -F DIR/ssh_config
# HOST) gives a shell whose HOME and working directory is DIR/hosts/HOST,
# so relative paths, rsync and GNU parallel's --workdir/--return land
# there, not in the caller's directory (absolute paths still reach this
# machine's files: the engines' binaries are "at the same path on every
# node").  It prints, as shell assignments (also kept in DIR/env):
#     SSHD_CONFIG   DIR/ssh_config, for ssh -F / rsync -e
#     PARALLEL_SSH  "ssh -F DIR/ssh_config", which GNU parallel uses for
#                   --sshlogin HOST (and medan-referee parallel through it)
#     SSHD_HOSTS    the host names
#     SSHD_PORT     the port
#   eval "$(sh tests/cluster/sshd-up.sh DIR node1 node2)"
#   medan-referee parallel --sshlogin 2/node1 --sshlogin 2/node2 ...
#   sh tests/cluster/sshd-down.sh DIR
# DIR may hold only the characters A-Z a-z 0-9 / . _ - (it is written into
# sshd's config).  Works as root (root logs in with the key; sshd needs
# its privilege-separation directory /run/sshd, made when missing) or as
# another user (who then logs in as itself).
# Exit status: 0 up; 77 it cannot run here (no sshd, ssh or ssh-keygen:
# Debian openssh-server, openssh-client; tests/deps.sh installs them as
# root), the reason on stderr; 1 sshd did not start or refused the key
# (whatever was started is stopped again, the log is DIR/sshd.log).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"

[ $# -ge 1 ] || { echo "usage: sshd-up.sh DIR [HOST...]" >&2; exit 2; }
mkdir -p "$1"
D=$(cd "$1" && pwd)
shift
[ $# -ge 1 ] || set -- node1
case "$D" in *[!A-Za-z0-9/._-]*)
    echo "sshd-up: DIR may hold only A-Z a-z 0-9 / . _ - : $D" >&2; exit 2 ;;
esac
for h in "$@"; do
    case "$h" in '' | -* | *[!A-Za-z0-9._-]*)
        echo "sshd-up: bad host name '$h' (A-Z a-z 0-9 . _ -)" >&2; exit 2 ;;
    esac
done

cannot() { echo "sshd-up: cannot run here: $*" >&2; exit 77; }
SSHD=""
for p in /usr/sbin/sshd "$(command -v sshd 2>/dev/null || :)"; do
    [ -n "$p" ] && [ -x "$p" ] && { SSHD=$p; break; }
done
[ -n "$SSHD" ] || cannot "sshd is not installed (Debian: openssh-server; tests/deps.sh installs it as root)"
for p in ssh ssh-keygen python3; do
    command -v $p >/dev/null 2>&1 || cannot "$p is not installed"
done

up=0
cleanup() {
    rc=$?
    trap '' PIPE
    exec >&2
    if [ $up = 0 ]; then
        sh "$here/sshd-down.sh" "$D" >&2 || :
        [ $rc = 0 ] && rc=1
    fi
    exit $rc
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP PIPE

[ ! -e "$D/sshd.pid" ] ||
    { echo "sshd-up: $D already holds an sshd (sshd-down.sh $D first)" >&2; exit 1; }
chmod 700 "$D"
user=$(id -un)
if [ "$(id -u)" = 0 ] && [ ! -d /run/sshd ]; then
    mkdir -p /run/sshd
    chmod 755 /run/sshd
fi

rm -f "$D/ssh_host_key" "$D/ssh_host_key.pub" "$D/authorized_keys"
ssh-keygen -q -t ed25519 -N '' -C medan-test-host -f "$D/ssh_host_key"
port=$(free_port)
: >"$D/authorized_keys"
cat >"$D/ssh_config" <<CONF
# Written by tests/cluster/sshd-up.sh: the test sshd's hosts.
CONF
for h in "$@"; do
    mkdir -p "$D/hosts/$h"
    rm -f "$D/id_$h" "$D/id_$h.pub"
    ssh-keygen -q -t ed25519 -N '' -C "medan-test-$h" -f "$D/id_$h"
    # The key of HOST may only run commands in HOST's own home.
    printf 'command="HOME=%s; export HOME; cd \\"$HOME\\" || exit 1; exec \\"${SHELL:-/bin/sh}\\" -c \\"${SSH_ORIGINAL_COMMAND:-exec ${SHELL:-/bin/sh} -i}\\"",no-port-forwarding,no-agent-forwarding,no-X11-forwarding %s\n' \
        "$D/hosts/$h" "$(cat "$D/id_$h.pub")" >>"$D/authorized_keys"
    cat >>"$D/ssh_config" <<CONF
Host $h
    HostName 127.0.0.1
    Port $port
    User $user
    IdentityFile $D/id_$h
    IdentitiesOnly yes
    HostKeyAlias medan-test-sshd
    UserKnownHostsFile $D/known_hosts
    GlobalKnownHostsFile /dev/null
    StrictHostKeyChecking yes
    BatchMode yes
    PasswordAuthentication no
    ControlMaster no
    ControlPath none
    LogLevel ERROR
CONF
done
printf 'medan-test-sshd %s\n' "$(cut -d' ' -f1,2 "$D/ssh_host_key.pub")" >"$D/known_hosts"
chmod 600 "$D/authorized_keys" "$D/ssh_config"

cat >"$D/sshd_config" <<CONF
# Written by tests/cluster/sshd-up.sh: a throwaway sshd for the tests.
Port $port
ListenAddress 127.0.0.1
HostKey $D/ssh_host_key
PidFile $D/sshd.pid
AuthorizedKeysFile $D/authorized_keys
AuthorizedPrincipalsFile none
StrictModes no
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
HostbasedAuthentication no
PermitRootLogin prohibit-password
AllowUsers $user
UsePAM no
PermitUserEnvironment no
PrintMotd no
PrintLastLog no
X11Forwarding no
AllowTcpForwarding no
MaxStartups 100:30:200
MaxSessions 100
LogLevel INFO
CONF
"$SSHD" -t -f "$D/sshd_config" >"$D/sshd.log" 2>&1 ||
    { echo "sshd-up: sshd refuses the config:" >&2; cat "$D/sshd.log" >&2; exit 1; }
"$SSHD" -f "$D/sshd_config" -E "$D/sshd.log" ||
    { echo "sshd-up: sshd did not start:" >&2; tail -5 "$D/sshd.log" >&2; exit 1; }

# Wait (bounded, 20 s) until sshd listens, then check that every host
# answers, in its own home (3 tries: a refused key fails at once).
python3 -c 'import socket, sys, time
for i in range(200):
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1).close()
        sys.exit(0)
    except OSError:
        time.sleep(0.1)
sys.exit(1)' "$port" || {
    echo "sshd-up: sshd does not listen on port $port:" >&2; tail -5 "$D/sshd.log" >&2; exit 1; }
for h in "$@"; do
    t=3
    while [ $t -gt 0 ]; do
        got=$(ssh -F "$D/ssh_config" "$h" pwd 2>"$D/ssh-$h.err") && break
        sleep 0.5
        t=$((t - 1))
    done
    [ "${got:-}" = "$D/hosts/$h" ] || {
        echo "sshd-up: ssh $h does not work (pwd: '${got:-}'):" >&2
        cat "$D/ssh-$h.err" >&2
        tail -5 "$D/sshd.log" >&2
        exit 1
    }
    rm -f "$D/ssh-$h.err"
done
{
    printf 'SSHD_CONFIG=%s; export SSHD_CONFIG\n' "$(sq "$D/ssh_config")"
    printf 'PARALLEL_SSH=%s; export PARALLEL_SSH\n' "$(sq "ssh -F $D/ssh_config")"
    printf 'SSHD_HOSTS=%s; export SSHD_HOSTS\n' "$(sq "$*")"
    printf 'SSHD_PORT=%s; export SSHD_PORT\n' "$port"
} >"$D/env"
cat "$D/env"
up=1
