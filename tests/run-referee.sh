#!/bin/sh
# End-to-end tests of medan-referee: mock engines that misbehave (each
# failure classified, nothing lost from the results file), determinism
# across concurrency, --resume after a cut write, --shard + merge, SPRT,
# `check`, and a referee game of every game with an engine on disk.
#   usage: sh tests/run-referee.sh BUILD BIN
set -u
BUILD=${1:-build}
BIN=${2:-bin}
REF=$BIN/medan-referee
MOCK=$BUILD/mock/mock-engine
T=$(mktemp -d "${TMPDIR:-/tmp}/referee-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/check-lib.sh"

[ -x "$REF" ] || { echo "run-referee: $REF missing" >&2; exit 1; }
[ -x "$MOCK" ] || { echo "run-referee: $MOCK missing" >&2; exit 1; }

good="--engine name=good cmd=$MOCK arg=--game arg=loa"
# match MODE AFTER GAMES [extra args]: bad engine misbehaves after AFTER gos
match() {
    mode=$1; after=$2; games=$3; shift 3
    rm -f "$T/$mode.jsonl"
    $REF --game loa $good --engine name=bad cmd=$MOCK arg=--game arg=loa \
        arg=--mode arg="$mode" arg=--after arg="$after" --each tc=0.5+0.01 \
        --games "$games" --seed 3 --logdir "$T/logs" --command-timeout 500 \
        --results "$T/$mode.jsonl" "$@" >"$T/$mode.out" 2>&1
    echo $? >"$T/$mode.rc"
}
lines() { wc -l <"$1" | tr -d ' '; }

# --- each misbehaviour classified -----------------------------------------
match normal 0 4
check "$(cat "$T/normal.rc")" 0 "normal mock: exit 0"
check "$(lines "$T/normal.jsonl")" 4 "normal mock: 4 records"
check "$(count '"forfeit":null' "$T/normal.jsonl")" 4 "normal mock: no forfeits"

# A long clock: a crash must be seen as one, however long the exit takes
# (a sanitizer build's leak check on a busy machine takes a while).
match crash 2 4 --each tc=10+0.1
check "$(cat "$T/crash.rc")" 2 "crash on go: match stops (exit 2)"
check "$(count '"reason":"crash"' "$T/crash.jsonl")" 1 "crash on go: classified crash"
check "$(lines "$T/crash.jsonl")" 1 "crash on go: the finished game is recorded"

match crash 2 4 --recover --each tc=10+0.1
check "$(cat "$T/crash.rc")" 0 "crash + --recover: match goes on"
check "$(count '"reason":"crash"' "$T/crash.jsonl")" 4 "crash + --recover: 4 crashes"
check "$(awk '$1 == "bad" && NF == 12 {print $NF}' "$T/crash.out")" 3 \
    "crash + --recover: 3 restarts shown"

match hang 1 2 --recover
check "$(count '"reason":"time_forfeit"' "$T/hang.jsonl")" 2 "hang: time forfeit"
check "$(lines "$T/hang.jsonl")" 2 "hang: every game recorded"

match hang 1 2 --recover --each depth=3 tc=inf --nolimit-timeout 300
check "$(count '"reason":"stall"' "$T/hang.jsonl")" 2 "hang without a clock: stall"

match illegal 1 2
check "$(count '"reason":"illegal_move"' "$T/illegal.jsonl")" 2 "illegal move: forfeit"
check "$(cat "$T/illegal.rc")" 0 "illegal move: match goes on"

match late 1 2
check "$(count '"reason":"time_forfeit"' "$T/late.jsonl")" 2 "late answer: time forfeit"
check "$(cat "$T/late.rc")" 0 "late answer: engine kept (answers stop)"

match flood 1 2
check "$(count '"reason":"time_forfeit"' "$T/flood.jsonl")" 2 "info flood: cut off at the deadline"

match nohandshake 0 2 --handshake-timeout 300
check "$(cat "$T/nohandshake.rc")" 2 "no handshake: match refused (exit 2)"
grep -q 'handshake' "$T/nohandshake.out" && ok "no handshake: said so" ||
    bad "no handshake: no message"

match garbage 0 2
check "$(count '"forfeit":null' "$T/garbage.jsonl")" 2 "garbage lines: ignored, games normal"

match stall 0 2
check "$(count '"reason":"stall"' "$T/stall.jsonl")" 2 "no ok to newgame: stall"

match error 1 2
check "$(count '"reason":"engine_error"' "$T/error.jsonl")" 2 "error to go: engine_error"

# --- determinism: concurrency does not change any game ---------------------
mt() { $REF --game loa $good --engine name=other cmd=$MOCK arg=--game arg=loa \
    --each tc=5+0.05 --openings random-plies=3 --seed 11 --quiet --logdir none "$@"; }
mt --games 8 --concurrency 1 --results "$T/c1.jsonl" >/dev/null 2>&1
mt --games 8 --concurrency 3 --results "$T/c3.jsonl" >/dev/null 2>&1
strip() { sed 's/"ms":[0-9]*//g; s/"date":"[^"]*"//' "$1" | sort; }
strip "$T/c1.jsonl" >"$T/c1.s"; strip "$T/c3.jsonl" >"$T/c3.s"
if [ "$(lines "$T/c1.jsonl")" = 8 ] && cmp -s "$T/c1.s" "$T/c3.s"; then
    ok "same games at concurrency 1 and 3"
else bad "games differ between concurrency 1 and 3"; fi
check "$(grep -o '"opening":"[^"]*"' "$T/c1.jsonl" | sort | uniq -c | awk '{print $1}' | sort -u)" 2 \
    "each opening played twice (colour-swapped pair)"

# --- shards and merge -------------------------------------------------------
mt --games 8 --shard 1/2 --results "$T/s1.jsonl" >/dev/null 2>&1
mt --games 8 --shard 2/2 --results "$T/s2.jsonl" >/dev/null 2>&1
cat "$T/s1.jsonl" "$T/s2.jsonl" >"$T/s12.jsonl"; strip "$T/s12.jsonl" >"$T/s12.s"
cmp -s "$T/c1.s" "$T/s12.s" && ok "shards 1/2 + 2/2 = the whole schedule" ||
    bad "shards differ from the whole schedule"
$REF merge "$T/s1.jsonl" "$T/s2.jsonl" >"$T/merge.out" 2>&1
grep -q 'Results (game loa): 8 games' "$T/merge.out" && ok "merge: one table of 8 games" ||
    bad "merge: no 8-game table"
$REF merge "$T/s1.jsonl" "$T/s1.jsonl" >"$T/merge2.out" 2>&1
grep -q 'duplicate' "$T/merge2.out" && ok "merge: duplicates ignored" || bad "merge: duplicates"

# --- resume after a write cut short ------------------------------------------
head -n 3 "$T/c1.jsonl" >"$T/r.jsonl"
sed -n 4p "$T/c1.jsonl" | cut -c1-40 | tr -d '\n' >>"$T/r.jsonl"
mt --games 8 --resume --results "$T/r.jsonl" >"$T/r.out" 2>&1
check "$(lines "$T/r.jsonl")" 8 "resume: 8 records after the cut line"
check "$(grep -o '"game":[0-9]*' "$T/r.jsonl" | sort -u | wc -l | tr -d ' ')" 8 "resume: games 1..8 once each"
strip "$T/r.jsonl" >"$T/r.s"
cmp -s "$T/c1.s" "$T/r.s" && ok "resume: same games as an uninterrupted run" ||
    bad "resume: games differ"
mt --games 8 --seed 12 --resume --results "$T/r.jsonl" >"$T/r2.out" 2>&1 &&
    bad "resume with another seed accepted" || ok "resume refuses another match's file"

# --- SPRT stops a one-sided match ----------------------------------------------
match illegal 0 200 --sprt elo0=0 elo1=50 alpha=0.05 beta=0.05
grep -q 'H1 accepted' "$T/illegal.out" && ok "SPRT: H1 accepted" || bad "SPRT did not decide"
[ "$(lines "$T/illegal.jsonl")" -lt 200 ] && ok "SPRT: stopped early" || bad "SPRT: did not stop"

# --- records ---------------------------------------------------------------------
mt --games 2 --records "$T/rec.pgn" --results "$T/rec.jsonl" >/dev/null 2>&1
check "$(count '^\[Result ' "$T/rec.pgn")" 2 "PGN: two records"
grep -q '^1\. ' "$T/rec.pgn" && ok "PGN: movetext" || bad "PGN: no movetext"
for k in game seed variant seats opening moves result reason scores; do
    grep -q "\"$k\":" "$T/rec.jsonl" || bad "JSON key $k missing"
done
ok "JSON: required keys present"

# --- check ---------------------------------------------------------------------------
$REF check --game loa --engine cmd=$MOCK arg=--game arg=loa arg=--mode arg=normal >"$T/chk.out" 2>&1
grep -q 'PASS  handshake' "$T/chk.out" && ok "check: runs on a mock" || bad "check: no table"
# An engine 400 ms late on one go (the mock fails other items too): the
# late figure is a FAIL by default, a SLOW figure with --latency report.
slow="--game loa --engine cmd=$MOCK arg=--game arg=loa arg=--mode arg=slow"
$REF check $slow >"$T/slow1.out" 2>&1
check "$(count '^FAIL  movetime respected' "$T/slow1.out")" 1 "check: a late bestmove fails by default"
$REF check --latency report $slow >"$T/slow2.out" 2>&1
check "$(count '^SLOW  movetime respected' "$T/slow2.out")/$(count ' 1 slow ' "$T/slow2.out")" "1/1" \
    "check --latency report: the late bestmove is a SLOW figure, not a failure"
$REF check --game loa --engine cmd=$MOCK arg=--mode arg=crash >"$T/chk2.out" 2>&1 &&
    bad "check passes a crashing engine" || ok "check fails a crashing engine"

# --- a referee game of every game that has an engine ---------------------------------
for eng in "$BIN"/medan-*; do
    g=${eng##*/medan-}
    case $g in referee|opentafl|otbridge) continue ;; esac # not game engines
    params=""; games=2
    [ "$g" = battalion ] && { params="players=3"; games=3; }
    $REF --game "$g" $params --engine name=r1 cmd="$eng" option.Strategy=random \
        --engine name=r2 cmd="$eng" option.Strategy=random --each tc=10+0.1 \
        --games $games --seed 5 --logdir none --results "$T/$g.jsonl" >"$T/$g.out" 2>&1
    rc=$?
    if [ $rc = 0 ] && [ "$(lines "$T/$g.jsonl")" = $games ] &&
        [ "$(count '"forfeit":null' "$T/$g.jsonl")" = $games ]; then
        ok "$g: $games games end to end"
    else bad "$g: end-to-end match failed (see below)"; cat "$T/$g.out" >&2; fi
done

[ $fail = 0 ] && echo "referee tests: all $n passed" || echo "referee tests: FAILED" >&2
exit $fail
