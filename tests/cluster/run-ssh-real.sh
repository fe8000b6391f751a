#!/bin/sh
# run-ssh-real.sh BUILD BIN - the ssh-real stage: `medan-referee parallel
# --sshlogin` over a real sshd (tests/cluster/sshd-up.sh) with two hosts,
# node1 and node2, each a login whose home is a directory of its own (no
# shared file system).  The controller works in a directory under its own
# HOME, so GNU parallel's --workdir . is the same path relative to each
# host's home: the shards play and write there, and --return brings their
# results, records and output back.  The merged results must equal a single
# run of the same match move for move, game by game.  Stops the sshd it
# started.  Where it cannot run (no sshd/ssh/rsync/GNU parallel and no way
# to install them, sshd does not start) it prints `skipped: why` and exits 77.
set -u
BIN=${2:-bin}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
ABS=$(cd "$BIN" && pwd)
REF=$ABS/medan-referee
. "$here/common.sh"
. "$top/tests/check-lib.sh"

tools() {
    { [ -x /usr/sbin/sshd ] || command -v sshd >/dev/null 2>&1; } || return 1
    for p in ssh ssh-keygen rsync parallel python3; do
        command -v $p >/dev/null 2>&1 || return 1
    done
}
[ "$(id -u)" = 0 ] && { tools || sh "$top/tests/deps.sh" >&2 || :; }
tools || skip "sshd, ssh, rsync or GNU parallel is not installed (Debian: openssh-server openssh-client rsync parallel; tests/deps.sh installs them as root)"

T=$(mktemp -d "${TMPDIR:-/tmp}/ssh-real.XXXXXX")
S=$T/sshd
cleanup() {
    rc=$?
    trap '' PIPE
    exec >&2
    sh "$here/sshd-down.sh" "$T/sshd"   # a first try, when there was a second
    sh "$here/sshd-down.sh" "$S" || { echo "ssh-real: sshd did not stop cleanly" >&2; rc=1; }
    rm -rf "$T"
    exit $rc
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP PIPE

sh "$here/sshd-up.sh" "$S" node1 node2 >"$T/env" 2>"$T/up.err"
st=$?
if [ $st = 1 ]; then
    # Once more in a new directory (a free port may be taken meanwhile).
    echo "sshd-up.sh: $(head -1 "$T/up.err"); trying once more" >&2
    S=$T/sshd2
    sh "$here/sshd-up.sh" "$S" node1 node2 >"$T/env" 2>"$T/up.err"
    st=$?
fi
[ $st = 0 ] || {
    cat "$T/up.err" >&2
    [ $st = 77 ] && skip "$(sed -n 's/^sshd-up: cannot run here: //p' "$T/up.err" | head -1)"
    skip "sshd does not start here (sshd-up.sh: $(head -1 "$T/up.err"))"
}
. "$T/env"
ok "sshd is up on port $SSHD_PORT, hosts $SSHD_HOSTS"

# A deterministic match (fixed depth, seeded openings): 12 games.
set -- --game loa --engine name=a cmd="$ABS/medan-loa" \
    --engine name=b cmd="$ABS/medan-loa" option.Strategy=greedy \
    --each depth=2 --games 12 --seed 9 --openings random-plies=4 --logdir none
"$REF" "$@" --quiet --results "$T/one.jsonl" >"$T/one.out" 2>&1
check "$?/$(wc -l <"$T/one.jsonl" | tr -d ' ')" 0/12 "single run: 12 games"

# The controller: its own HOME (so GNU parallel's files stay in $T too),
# the match in a directory under it, relative file names.
mkdir -p "$T/ctl/match"
cd "$T/ctl/match" || exit 1
HOME=$T/ctl "$REF" parallel --shards 4 --sshlogin 2/node1 --sshlogin 2/node2 "$@" \
    --results r.jsonl --records r.pgn >"$T/par.out" 2>&1
check $? 0 "parallel --sshlogin 2/node1 --sshlogin 2/node2: exit 0"
python3 "$here/same-games.py" "$T/one.jsonl" r.jsonl 12 >"$T/cmp.out" 2>&1 &&
    ok "merged results over ssh = the single run, move for move ($(cat "$T/cmp.out"))" ||
    bad "merged results over ssh differ from the single run: $(cat "$T/cmp.out") $(cat "$T/par.out")"
grep -q '^a vs b: ' "$T/par.out" && ok "parallel over ssh prints the merged table" ||
    bad "no table: $(cat "$T/par.out")"
check "$(grep -c '^\[Result ' r.pgn 2>/dev/null)" 12 "the hosts' records came back and were gathered"

# Every shard ran on one of the hosts, in that host's home, and came back.
hosts_used=""
for i in 1 2 3 4; do
    f=r.jsonl.shard-$i-of-4
    on=""
    for h in node1 node2; do
        [ -s "$S/hosts/$h/match/$f" ] && on="$on $h"
    done
    case "$on" in
    " node1" | " node2")
        cmp -s "$S/hosts/${on# }/match/$f" "$f" &&
            [ -s "$f.out" ] && [ -s "r.pgn.shard-$i-of-4" ] &&
            ok "shard $i/4 played on${on} (in its home) and returned its results, records and output" ||
            bad "shard $i/4: played on${on} but its files did not come back"
        hosts_used="$hosts_used$on" ;;
    *) bad "shard $i/4 ran on '${on# }' (want exactly one host)" ;;
    esac
done
case "$hosts_used" in
*node1*node2* | *node2*node1*) ok "both hosts played shards" ;;
*) bad "the shards did not use both hosts:$hosts_used" ;;
esac
[ -e "$S/hosts/node1/match/r.jsonl" ] || [ -e "$S/hosts/node2/match/r.jsonl" ] &&
    bad "a host wrote the merged file" || ok "only the controller merged"

# Hosts that share no files (issue 28; fixed by parallel's --transferfile):
# 1. --resume: the controller's shard files are sent to the hosts, so a
#    shard that lands on a host without its file plays nothing again.
# 2. a hidden-information game: the shards deal with one key, made by the
#    controller, which keeps it (F.key) to replay or resume.
    # 1: the hosts lose their copies; the controller has all 12 games.
    mkdir -p "$T/before"
    cp r.jsonl.shard-*-of-4 "$T/before/"
    rm -rf "$S/hosts/node1/match" "$S/hosts/node2/match"
    HOME=$T/ctl "$REF" parallel --shards 4 --sshlogin 2/node1 --sshlogin 2/node2 "$@" \
        --results r.jsonl --records r.pgn --resume >"$T/res.out" 2>&1
    check $? 0 "parallel --resume over ssh: exit 0"
    same=0
    for i in 1 2 3 4; do
        cmp -s "$T/before/r.jsonl.shard-$i-of-4" "r.jsonl.shard-$i-of-4" && same=$((same + 1))
    done
    [ $same = 4 ] || bad "--resume over ssh played $((4 - same)) finished shard(s) again (their records were rewritten)"
    # 2: a hidden-information match over both hosts.
    bat="--game battalion players=3 --engine name=r1 cmd=$ABS/medan-battalion option.Strategy=random
        --engine name=r2 cmd=$ABS/medan-battalion option.Strategy=random --each st=2
        --games 6 --seed 3 --logdir none"
    # shellcheck disable=SC2086
    HOME=$T/ctl "$REF" parallel --shards 2 --sshlogin 1/node1 --sshlogin 1/node2 $bat \
        --results b.jsonl >"$T/bat.out" 2>&1
    check $? 0 "parallel over ssh, hidden information: exit 0"
    nkeys=$(grep -o '"key":"[0-9a-f]*"' b.jsonl | sort -u | wc -l | tr -d ' ')
    [ "$nkeys" = 1 ] || bad "the shards on two hosts dealt with $nkeys different keys"
    if [ -s b.jsonl.key ]; then
        # shellcheck disable=SC2086
        "$REF" $bat --key-file b.jsonl.key --quiet --results "$T/bat1.jsonl" >/dev/null 2>&1
        python3 "$here/same-games.py" "$T/bat1.jsonl" b.jsonl 6 >"$T/bcmp.out" 2>&1 ||
            bad "hidden information over ssh differs from one run with F.key: $(head -2 "$T/bcmp.out")"
    else
        bad "the controller has no b.jsonl.key (the key stayed on the hosts)"
    fi
    :

cd / || exit 1
pid=$(cat "$S/sshd.pid" 2>/dev/null)
sh "$here/sshd-down.sh" "$S"
check "$?" 0 "sshd-down.sh: exit 0"
[ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null && ok "the sshd started here has exited" ||
    bad "sshd (pid '$pid') still runs"
[ $fail = 0 ] && echo "ssh-real tests: all $n passed" || echo "ssh-real tests: FAILED" >&2
exit $fail
