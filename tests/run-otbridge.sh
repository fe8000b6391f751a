#!/bin/sh
# medan-otbridge end to end (no Java needed): the referee's conformance
# battery through the bridge, a short referee match of medan-fetlar against
# the bridge (medan-opentafl -> medan-fetlar behind it), and fake OpenTafl
# engines that fail in each way the bridge must report.
#   usage: sh tests/run-otbridge.sh BUILD BIN
set -u
BUILD=${1:-build}
BIN=${2:-bin}
REF=$BIN/medan-referee
OTB=$BIN/medan-otbridge
T=$(mktemp -d "${TMPDIR:-/tmp}/otbridge-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/check-lib.sh"

for p in "$REF" "$OTB" "$BIN/medan-opentafl" "$BIN/medan-fetlar"; do
    [ -x "$p" ] || { echo "run-otbridge: $p missing" >&2; exit 1; }
done
# --grace 5000: on a busy machine (or a sanitizer build) the chain
# otbridge -> opentafl -> fetlar can take over a second for a 20 ms move;
# the bridge must not give its child up for that in a test.
LOOP="cmd=$OTB arg=--settle arg=0 arg=--grace arg=5000 arg=--medan-limits arg=-- arg=$BIN/medan-opentafl"

# --- the conformance battery ------------------------------------------------
# Latency figures are reported (SLOW lines), not asserted: the chain
# otbridge -> opentafl -> fetlar on a busy machine is slower than the
# strict bounds, which `make bench`-style runs of check show.
$REF check --latency report --game fetlar --engine $LOOP >"$T/check.out" 2>&1
rc=$?
check "$rc/$(count '^FAIL' "$T/check.out")" "0/0" "check: every item passes through the bridge"
[ $rc = 0 ] || cat "$T/check.out" >&2
grep '^SLOW' "$T/check.out" | sed 's/^/     (figure) /'

# --- a short referee match ------------------------------------------------------
$REF --game fetlar --engine name=fetlar cmd="$BIN/medan-fetlar" \
    --engine name=bridge $LOOP --each depth=2 --games 2 --seed 1 \
    --openings random-plies=2 --maxplies 160 --logdir "$T/logs" \
    --results "$T/m.jsonl" >"$T/m.out" 2>&1
rc=$?
check "$rc" 0 "match: exit 0"
check "$(wc -l <"$T/m.jsonl" | tr -d ' ')" 2 "match: 2 games recorded"
check "$(count '"forfeit":null' "$T/m.jsonl")" 2 "match: no forfeit, no error"
[ $rc = 0 ] || cat "$T/m.out" >&2

# --- fake OpenTafl engines ---------------------------------------------------------
# fake NAME BODY: an OTEP engine in sh that says hello, then runs BODY for
# every `play` (n counts them); goodbye ends it.
fake() {
    cat >"$T/$1.sh" <<EOS
echo hello
n=0
while read -r cmd rest; do
    case \$cmd in
    play) n=\$((n + 1)); $2 ;;
    goodbye) exit 0 ;;
    esac
done
EOS
}
# run NAME MEP-COMMANDS...: the bridge in front of fake NAME (run in $T).
run() {
    name=$1; shift
    for a in mep "$@"; do
        case $a in
        sleep*) sleep "${a#sleep }" ;;
        *) printf '%s\n' "$a" ;;
        esac
    done | timeout 30 "$OTB" --dir "$T" --grace 300 ${ARGS:-} -- sh "$name.sh" \
        >"$T/$name.out" 2>"$T/$name.err"
    echo $? >"$T/$name.rc"
}
go="go movetime 300"

fake suffix 'echo "move f2-j2xj3/Tk4+"'
run suffix "position start" "$go"
check "$(cat "$T/suffix.rc")/$(grep bestmove "$T/suffix.out")" "0/bestmove f2-j2" \
    "a move record with captures and + is read"

fake illegal 'echo "move f2-f6"'
run illegal "position start" "$go"
check "$(cat "$T/illegal.rc")" 2 "an illegal child move: the bridge exits (2)"
check "$(count '^error not_supported the OpenTafl engine failed: .*f2-f6' "$T/illegal.out")" 1 \
    "an illegal child move: a MEP error says which"

fake garbage 'echo "move banana"'
run garbage "position start" "$go"
check "$(cat "$T/garbage.rc")/$(count '^error not_supported' "$T/garbage.out")" "2/1" \
    "a garbage move record: MEP error, exit"

fake crash 'exit 3'
run crash "position start" "$go"
check "$(cat "$T/crash.rc")/$(count '^error not_supported.*status 3' "$T/crash.out")" "2/1" \
    "the child exits during go: MEP error with its status, exit"

fake critical 'echo "error -1 cannot play"'
run critical "position start" "$go"
check "$(cat "$T/critical.rc")/$(count '^error not_supported.*critical' "$T/critical.out")" \
    "2/1" "a critical OTEP error from the child: MEP error, exit"

fake silent ':'
run silent "position start" "$go" "sleep 1.5" "$go"
check "$(cat "$T/silent.rc")/$(count '^bestmove' "$T/silent.out")/$(count '^error' "$T/silent.out")" \
    "2/1/1" "no answer: a fallback move once, then an error"

# A late answer: the fake answers its first play only 0.1 s after the
# bridge's `finish` (stop), which is later than the bridge waits at the
# stop, so the bridge plays a fallback move; the answer must then be
# dropped, not taken for the next search's move.  The stop comes 1 s after
# the go (the bridge has asked by then even on a busy machine) and the next
# go 1 s after the stop (the late answer is there by then).
cat >"$T/late.sh" <<'EOS'
echo hello
n=0
while read -r cmd rest; do
    case $cmd in
    play) n=$((n + 1)); [ $n = 1 ] || echo "move e1-e4" ;;
    finish) if [ $n = 1 ]; then sleep 0.1; echo "move f2-j2"; fi ;;
    goodbye) exit 0 ;;
    esac
done
EOS
ARGS="--settle 0" run late "position start" "go infinite" "sleep 1" "stop" "sleep 1" \
    "go movetime 2000"
check "$(cat "$T/late.rc")/$(grep bestmove "$T/late.out" | tail -1)" "0/bestmove e1-e4" \
    "stop: the late answer of the stopped search is dropped"
check "$(count 'dropped the late move f2-j2' "$T/late.err")" 1 "stop: the drop is logged"

printf 'exit 0\n' >"$T/nohello.sh"
run nohello
check "$(cat "$T/nohello.rc")/$(count mepok "$T/nohello.out")" "2/0" "no hello: exit 2 before the handshake"
printf 'mep\n' | "$OTB" -- /nonexistent/engine >/dev/null 2>"$T/noexec.err"
check "$?/$(count 'cannot start' "$T/noexec.err")" "2/1" "a child that cannot start: exit 2"

[ $fail = 0 ] && echo "otbridge tests: all $n passed" || echo "otbridge tests: FAILED" >&2
exit $fail
