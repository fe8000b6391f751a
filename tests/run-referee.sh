#!/bin/sh
# End-to-end tests of medan-referee: mock engines that misbehave (each
# failure classified, nothing lost from the results file), determinism
# across concurrency, --resume after a cut write, --shard + merge, SPRT,
# `check`, hidden information (a spy engine and a deal solver, keys through
# resume and shards), the hardening of issue 10 (process groups, log cap,
# culprits named, rejected flags, handshake flood, miswritten keywords,
# SIGINT), and a referee game of every game with an engine on disk.
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

# Identical engines: a few pairs must never decide (the old normal
# approximation accepted H1 after one 2-0 pair).
# Seed 1 starts with a 2-0 pair.
rm -f "$T/same.jsonl"
$REF --game loa $good --engine name=same cmd=$MOCK arg=--game arg=loa \
    --each tc=0.5+0.01 --games 12 --seed 1 --logdir "$T/logs" \
    --results "$T/same.jsonl" --sprt elo0=0 elo1=10 >"$T/same.out" 2>&1
grep -q 'accepted' "$T/same.out" && bad "SPRT decided between identical engines: $(grep accepted "$T/same.out")" ||
    ok "SPRT: identical engines, 6 pairs, no decision"
check "$(lines "$T/same.jsonl")" 12 "SPRT: identical engines play the whole schedule"
$REF sprt-sim elo0=0 elo1=10 elo=0 runs=300 seed=5 >"$T/sim.out" 2>&1
h1=$(sed -n 's/^H1 accepted \([0-9]*\) .*/\1/p' "$T/sim.out")
[ -n "$h1" ] && [ "$h1" -le 25 ] && ok "sprt-sim: identical engines pass H1 in $h1 of 300" ||
    bad "sprt-sim: false positives '$h1' of 300: $(cat "$T/sim.out")"
$REF sprt-sim elo0=5 elo1=0 >/dev/null 2>&1 && bad "sprt-sim accepts elo0 > elo1" ||
    ok "sprt-sim refuses elo0 > elo1"

# --- adjudication (cutechess-cli's --draw, --resign, --maxmoves) -----------------------
scored() { # scored NAME SCORE1 SCORE2 [args]: mocks that report fixed scores
    nm=$1; s1=$2; s2=$3; shift 3
    rm -f "$T/$nm.jsonl"
    $REF --game loa --engine name=a cmd=$MOCK arg=--game arg=loa arg=--score arg="$s1" \
        --engine name=b cmd=$MOCK arg=--game arg=loa arg=--score arg="$s2" \
        --each tc=10+0.1 --games 2 --seed 3 --logdir none --results "$T/$nm.jsonl" "$@" \
        >"$T/$nm.out" 2>&1
}
scored draw 5 -5 --draw movenumber=3 movecount=2 score=10
check "$(count '"reason":"draw_adjudication"' "$T/draw.jsonl")" 2 "--draw: both games adjudicated drawn"
check "$(count '"result":"draw"' "$T/draw.jsonl")" 2 "--draw: booked as draws"
grep -q '"plies":6,' "$T/draw.jsonl" && ok "--draw: after move 3 with small scores for 2 moves" ||
    bad "--draw: wrong length: $(grep -o '"plies":[0-9]*' "$T/draw.jsonl")"
grep -q '"detail":"both scores within 10 cp for 2 moves after move 3"' "$T/draw.jsonl" &&
    ok "--draw: the record says why" || bad "--draw: no detail"
scored draw2 5 -50 --draw movenumber=3 movecount=2 score=10
check "$(count 'adjudication' "$T/draw2.jsonl")" 0 "--draw: a score above the bound keeps the game going"
scored resign 300 -700 --resign movecount=3 score=600
check "$(count '"reason":"resign_adjudication"' "$T/resign.jsonl")" 2 "--resign: both games adjudicated"
check "$(count '"p2win"' "$T/resign.jsonl")" 1 "--resign: b (seat 1 in game 2) loses game 2"
check "$(count '"p1win"' "$T/resign.jsonl")" 1 "--resign: b (seat 2 in game 1) loses game 1"
scored resign2 300 -700 --resign movecount=3 score=600 twosided=true
check "$(count 'adjudication' "$T/resign2.jsonl")" 0 "--resign twosided: 300 does not agree with -700"
scored maxm 0 0 --maxmoves 4
check "$(count '"reason":"maxmoves"' "$T/maxm.jsonl")" 2 "--maxmoves 4: draws after 4 moves"
grep -q '"plies":8,' "$T/maxm.jsonl" && ok "--maxmoves: 8 plies" || bad "--maxmoves: wrong length"
$REF --game battalion players=3 $good --engine name=x cmd=$MOCK arg=--game arg=battalion \
    --maxmoves 4 >"$T/adjb.out" 2>&1 && bad "--maxmoves accepted for three seats" ||
    ok "adjudication refused for N-seat games"
$REF --game loa $good $good --draw movecount=2 >"$T/adjc.out" 2>&1 &&
    bad "--draw with a missing key accepted" || ok "--draw needs all three keys"

# --- cutechess habits ---------------------------------------------------------------
rm -f "$T/cc.pgn"
$REF -game loa -engine name=a cmd=$MOCK arg=--game arg=loa proto=mep \
    -engine name=b cmd=$MOCK arg=--game arg=loa restart=on -each tc=10+0.1 -games 4 \
    -srand 3 -pgnout "$T/cc.pgn" min -event "Spring cup" -site "lab 4" -concurrency 2 \
    --logdir none >"$T/cc.out" 2>&1
check $? 0 "single-dash flags (-engine -each -games -srand -pgnout -event -site -concurrency)"
check "$(count '^\[Result ' "$T/cc.pgn")" 4 "-pgnout FILE min: 4 records"
check "$(count '^\[Event "Spring cup"\]' "$T/cc.pgn")" 4 "--event in the records"
check "$(count '^\[Site "lab 4"\]' "$T/cc.pgn")" 4 "--site in the records"
grep -q '^Elo difference: .* +/- .*, LOS: .* %, DrawRatio: .* %$' "$T/cc.out" &&
    ok "the closing line as cutechess prints it" || bad "no cutechess closing line"
grep -q '^Engine starts: 6,' "$T/cc.out" && ok "restart=on: b restarted for each of 4 games (a kept)" ||
    bad "restart=on: $(grep 'Engine starts' "$T/cc.out")"
$REF -game loa -engine name=a cmd=$MOCK arg=--game arg=loa -engine name=b cmd=$MOCK arg=--game arg=loa \
    -engine name=c cmd=$MOCK arg=--game arg=loa -each tc=10+0.1 -tournament round-robin \
    -rounds 2 -games 2 -srand 4 -pgnout "$T/cct.pgn" --logdir none >"$T/cct.out" 2>&1
check "$?/$(count '^\[Result ' "$T/cct.pgn")" "0/12" "-tournament round-robin -rounds 2 -games 2: 12 games"
grep -q '^Crosstable' "$T/cct.out" && ok "cutechess-style tournament: crosstable" || bad "no crosstable"
$REF --game loa $good --engine cmd=$MOCK proto=uci >"$T/proto.out" 2>&1 &&
    bad "proto=uci accepted" || { grep -q 'MEP only' "$T/proto.out" && ok "proto=uci refused: MEP only" ||
    bad "proto=uci: $(cat "$T/proto.out")"; }
$REF --game loa $good $good --gmaes 4 >"$T/dym.out" 2>&1
grep -q 'unknown argument --gmaes; did you mean --games?' "$T/dym.out" && ok "did you mean --games?" ||
    bad "no suggestion: $(cat "$T/dym.out")"
$REF --game loa $good $good -concurency 2 >"$T/dym2.out" 2>&1
grep -q 'did you mean --concurrency?' "$T/dym2.out" && ok "did you mean --concurrency? (single dash)" ||
    bad "no suggestion: $(cat "$T/dym2.out")"

# --- records ---------------------------------------------------------------------
mt --games 2 --records "$T/rec.pgn" --results "$T/rec.jsonl" >/dev/null 2>&1
check "$(count '^\[Result ' "$T/rec.pgn")" 2 "PGN: two records"
grep -q '^1\. ' "$T/rec.pgn" && ok "PGN: movetext" || bad "PGN: no movetext"
for k in game seed variant seats opening moves result reason scores; do
    grep -q "\"$k\":" "$T/rec.jsonl" || bad "JSON key $k missing"
done
ok "JSON: required keys present"

# --- records other tools read (issue 25): PGN tags, move comments, scores -----------
PGNCHECK="python3 $(dirname "$0")/tools/pgn-check.py"
$PGNCHECK "$T/rec.pgn" >"$T/pc.out" 2>&1 && ok "PGN: the strict tag checker passes the records" ||
    bad "PGN: $(cat "$T/pc.out")"
# the checker fails what the standard forbids (so that its passes mean something)
printf '[Event "e"]\n[Site "s"]\n[Date "2026.1.2"]\n[Round "1"]\n[White "a"]\n[Black "b"]\n[Result "1-0"]\n\n1. x {0s} 1-0\n\n' >"$T/bad1.pgn"
printf '[Event "e"]\n[Date "2026.01.02"]\n[Site "s"]\n[Round "1"]\n[White "a"]\n[Black "b"]\n[Result "1-0"]\n\n1. x {0s} 1-0\n\n' >"$T/bad2.pgn"
printf '[Event "e"]\n[Site "s"]\n[Date "2026.01.02"]\n[Round "1"]\n[White "a "q""]\n[Black "b"]\n[Result "1-0"]\n\n1. x {0s} 1-0\n\n' >"$T/bad3.pgn"
printf '[Event "e"]\n[Site "s"]\n[Date "2026.01.02"]\n[Round "1"]\n[White "a\\\\"]\n[Black "b\\x"]\n[Result "1-0"]\n\n1. x {0s} 1-0\n\n' >"$T/bad4.pgn"
printf '[Event "e"]\n[Site "s"]\n[Date "2026.01.02"]\n[Round "1"]\n[White "a"]\n[Black "b"]\n[Result "1-0"]\n\n1. x {0s} 0-1\n\n' >"$T/bad5.pgn"
printf '[Event "e"]\n[Site "s"]\n[Date "2026.01.02"]\n[Round "1"]\n[White "a"]\n[Black "b"]\n[Result "1-0"]\n[p1 "x"]\n\n1. x {+0.3/1 0s} 1-0\n\n' >"$T/bad6.pgn"
nb=0
for k in 1 2 3 4 5 6; do $PGNCHECK --comments "$T/bad$k.pgn" >/dev/null 2>&1 || nb=$((nb + 1)); done
check $nb 6 "PGN checker refuses a bad date, the roster out of order, a bare quote, a bad escape, a wrong end, a lower-case tag"
sed -e 's/^\[Black "b\\x"\]/[Black "b"]/' "$T/bad4.pgn" >"$T/good4.pgn"
$PGNCHECK --comments "$T/good4.pgn" >/dev/null 2>&1 && ok "PGN checker: an escaped backslash is fine" ||
    bad "PGN checker refuses a valid escape"

# names with quotes and backslashes; scores in the comments and the results
q='q "uote" \back\'
$REF --game loa --engine name="$q" cmd=$MOCK arg=--game arg=loa arg=--score arg=31 \
    --engine name=w cmd=$MOCK arg=--game arg=loa arg=--score arg=win:5 --each tc=10+0.1 \
    --games 2 --seed 3 --logdir none --quiet --records "$T/q.pgn" --results "$T/q.jsonl" \
    >"$T/q.out" 2>&1
$PGNCHECK --comments "$T/q.pgn" >"$T/qc.out" 2>&1 && ok "PGN: names with quotes and backslashes, valid tags" ||
    bad "PGN: $(cat "$T/qc.out")"
check "$($PGNCHECK --tag White "$T/q.pgn" | head -1)" "$q" "PGN: White holds seat 1's engine, escaped and read back"
check "$($PGNCHECK --tag Black "$T/q.pgn" | head -1)" "w" "PGN: Black holds seat 2's engine"
check "$($PGNCHECK --tag White "$T/q.pgn" | sed -n 2p)" "w" "PGN: the colours swap in game 2"
grep -q '^\[White "q \\"uote\\" \\\\back\\\\"\]$' "$T/q.pgn" && ok "PGN: the escapes as the standard writes them" ||
    bad "PGN: $(grep '^\[White' "$T/q.pgn" | head -1)"
grep -q '{+0\.31/1 [0-9.]*s}' "$T/q.pgn" && ok "PGN: score cp 31 at depth 1 is {+0.31/1 <time>s}" ||
    bad "PGN: no +0.31/1 comment"
grep -q '{+M5/1 [0-9.]*s}' "$T/q.pgn" && ok "PGN: score win 5 is {+M5/1 <time>s}" || bad "PGN: no +M5 comment"
grep -q '"depth":1,"cp":31}' "$T/q.jsonl" && grep -q '"depth":1,"win":5}' "$T/q.jsonl" &&
    ok "JSON: each move's depth and score (cp, win)" || bad "JSON: no per-move scores"
$REF --game loa --engine name=l cmd=$MOCK arg=--game arg=loa arg=--score arg=loss:3 \
    --engine name=n cmd=$MOCK arg=--game arg=loa --each tc=10+0.1 --games 1 --seed 3 \
    --logdir none --quiet --records "$T/l.pgn" --results "$T/l.jsonl" >/dev/null 2>&1
grep -q '{-M3/1 [0-9.]*s} [^{]* {[0-9.]*s}' "$T/l.pgn" && grep -q '"loss":3}' "$T/l.jsonl" &&
    ok "score loss 3: {-M3/1 ...} and \"loss\":3; a move without a score: its time only" ||
    bad "score loss: $(head -c 300 "$T/l.jsonl")"
$REF merge "$T/q.jsonl" >"$T/qm.out" 2>&1; rc=$?
check "$rc/$(count '^Results (game loa): 2 games' "$T/qm.out")" "0/1" "merge reads the records with scores"
check "$(grep '^Elo difference: ' "$T/qm.out")" "$(grep '^Elo difference: ' "$T/q.out")" \
    "merge: the same closing line as the match"
sed 's/,"depth":[0-9]*//g; s/,"cp":[-0-9]*//g; s/,"win":[0-9]*//g' "$T/q.jsonl" >"$T/qold.jsonl"
$REF merge "$T/qold.jsonl" >"$T/qo.out" 2>&1
check "$?/$(count '^Results (game loa): 2 games' "$T/qo.out")" "0/1" "merge reads records of an older referee (no scores)"

# --- live statistics: -ratinginterval, -outcomeinterval (as cutechess-cli) ----------
li() { $REF --game loa --engine name=a cmd=$MOCK arg=--game arg=loa \
    --engine name=b cmd=$MOCK arg=--game arg=loa --each tc=10+0.1 --games 6 --seed 3 \
    --logdir none "$@"; }
li -ratinginterval 2 --sprt elo0=0 elo1=10 >"$T/ri.out" 2>&1
check "$(count '^Elo difference: ' "$T/ri.out")" 4 "-ratinginterval 2, 6 games: the Elo line after games 2, 4, 6 and at the end"
check "$(count '^SPRT: llr [-0-9.e]* ([-0-9.]*%), lbound -2.94, ubound 2.94$' "$T/ri.out")" 3 \
    "-ratinginterval with --sprt: the SPRT line as cutechess prints it, each time"
awk '/^Score of/ {s = $0} /^Elo difference/ && s {print s; s = ""}' "$T/ri.out" |
    sed -n 2p | grep -q ' 4$' && ok "-ratinginterval 2: the second line after game 4" ||
    bad "-ratinginterval: $(grep -n 'Elo difference\|^Score' "$T/ri.out")"
grep '^Elo difference: ' "$T/ri.out" | grep -qv '^Elo difference: -\{0,1\}\(inf\|[0-9]*\.[0-9]\) +/- \(nan\|inf\|[0-9]*\.[0-9]\), LOS: \(nan\|[0-9]*\.[0-9]\) %, DrawRatio: [0-9]*\.[0-9] %$' &&
    bad "-ratinginterval: a line not in cutechess's format" || ok "-ratinginterval: every line in cutechess's format"
li --ratinginterval 4 --quiet >"$T/ri2.out" 2>&1
check "$(count '^Elo difference: ' "$T/ri2.out")" 1 "--ratinginterval with --quiet: only the table's line"
li -outcomeinterval 4 >"$T/oi.out" 2>&1
check "$(count '^Player: a$' "$T/oi.out")/$(count '^Player: b$' "$T/oi.out")" 2/2 \
    "-outcomeinterval 4, 6 games: after game 4 and at the end"
tot=$(awk '/^Player: a$/ {p = 1; n = 0; next} /^Player:/ {p = 0} p && /^   "/ {n += $NF} END {print n}' "$T/oi.out")
check "$tot" 6 "-outcomeinterval: the last block counts a's 6 games"
grep -q '^   "\(Win\|Loss\|Draw\): [a-z_]*": [0-9]*$' "$T/oi.out" && ok "-outcomeinterval: \"Win: reason\": N lines" ||
    bad "-outcomeinterval: $(grep -A3 '^Player' "$T/oi.out" | head -8)"
li --outcomeinterval 3 >"$T/oi2.out" 2>&1
check "$(count '^Player: a$' "$T/oi2.out")" 2 "--outcomeinterval 3, 6 games: after games 3 and 6, not again at the end"
li --outcomeinterval 4 --quiet >"$T/oi3.out" 2>&1
check "$(count '^Player: a$' "$T/oi3.out")" 1 "--outcomeinterval with --quiet: the endings once, after the table"
li --ratinginterval -1 >"$T/ri3.out" 2>&1 && bad "--ratinginterval -1 accepted" ||
    ok "--ratinginterval -1 refused"

# --- pondering (ponder=on, issue 27) ------------------------------------------------
# Mocks in ponder mode: `bestmove X ponder M` (M the first legal reply), a
# go ponder held until ponderhit (then the move) or stop (then the stale
# token zz99-zz98, which must never be played); --first 50 makes the
# guesses come true about half the time, so hits and misses both happen.
pm() { echo "cmd=$MOCK arg=--game arg=loa arg=--mode arg=ponder arg=--first arg=50 $*"; }
$REF --game loa --engine name=P $(pm arg=--spy arg="$T/pspy1") ponder=on \
    --engine name=Q $(pm) ponder --each tc=60+0 --games 2 --maxplies 80 --seed 3 \
    --logdir none --results "$T/pond.jsonl" --records "$T/pond.pgn" >"$T/pond.out" 2>&1
check "$?/$(lines "$T/pond.jsonl")/$(count '"forfeit":null' "$T/pond.jsonl")" 0/2/2 \
    "ponder=on both sides (and the bare cutechess ponder): 2 games, no forfeit"
hits=$(grep -o '"ponderhit":true' "$T/pond.jsonl" | wc -l)
miss=$(grep -o '"ponderhit":false' "$T/pond.jsonl" | wc -l)
[ "$hits" -ge 1 ] && [ "$miss" -ge 1 ] && ok "ponder=on: ponderhits ($hits) and misses ($miss) in the results" ||
    bad "ponder=on: hits $hits, misses $miss"
check "$(count 'zz99-zz98' "$T/pond.jsonl")/$(count '"illegal_move"' "$T/pond.jsonl")" 0/0 \
    "ponder=on: a stopped ponder search's bestmove is never played"
grep -q '^Ponder hits: P [0-9]*/[0-9]* ([0-9]*%), Q [0-9]*/[0-9]* ([0-9]*%)$' "$T/pond.out" &&
    ok "ponder=on: the table shows each engine's ponder hits" || bad "ponder=on: no ponder hits line"
$PGNCHECK --comments "$T/pond.pgn" >"$T/pond.pc" 2>&1 && ok "ponder=on: the records pass the strict PGN check" ||
    bad "ponder=on: $(head -3 "$T/pond.pc")"
# Clock accounting, exactly: a pondering P against an opponent thinking
# 100 ms a move (tests/tools/ponder-check.py says what is checked).
$REF --game loa --engine name=P $(pm arg=--spy arg="$T/pspy2") ponder=on \
    --engine name=O cmd=$MOCK arg=--game arg=loa arg=--first arg=50 arg=--delay arg=100 \
    arg=--spy arg="$T/ospy2" --each tc=60+0 --games 2 --maxplies 60 --seed 3 --logdir none \
    --quiet --results "$T/pond2.jsonl" >"$T/pond2.out" 2>&1
python3 "$(dirname "$0")/tools/ponder-check.py" "$T/pond2.jsonl" "$T/ospy2" P "$T/pspy2" 100 \
    >"$T/pond2.pc" 2>&1 && ok "ponder=on: clocks charged from ponderhit only, the opponent's untouched: $(cat "$T/pond2.pc")" ||
    bad "ponder=on clocks: $(head -5 "$T/pond2.pc")"
# A real engine on both sides, fixed depth (a ponder search ends at the
# depth and waits for ponderhit or stop).
$REF --game loa --engine name=a cmd="$BIN/medan-loa" ponder=on --engine name=b cmd="$BIN/medan-loa" \
    ponder=on --each depth=2 --games 2 --maxplies 40 --seed 5 --logdir none --quiet \
    --results "$T/pond3.jsonl" >"$T/pond3.out" 2>&1
check "$?/$(lines "$T/pond3.jsonl")/$(count '"forfeit":null' "$T/pond3.jsonl")/$(count '"ponderhit":' "$T/pond3.jsonl")" 0/2/2/2 \
    "ponder=on: medan-loa against itself at depth 2, records with ponderhit fields"
$REF --game battalion --engine cmd=$MOCK ponder=on --engine cmd=$MOCK --each tc=1 >"$T/pond4.out" 2>&1
check "$?/$(count 'ponder=on needs a two-seat game of perfect information' "$T/pond4.out")" 1/1 \
    "ponder=on refused for battalion (hidden information, more seats)"
$REF --game loa --engine cmd=$MOCK ponder=yes --engine cmd=$MOCK --each tc=1 >"$T/pond5.out" 2>&1
check "$?/$(count 'ponder=on or ponder=off' "$T/pond5.out")" 1/1 "ponder=yes refused"
# The cores warning: --concurrency x Threads (x 2 pondering) over the cores.
$REF --game loa --engine cmd=$MOCK option.Threads=100000 --engine cmd=$MOCK --each tc=0.5 \
    --games 2 --logdir none --quiet >"$T/cores1.out" 2>&1
check "$(count 'warning: --concurrency 1 x 100000 searching threads (.*: Threads=100000) = 100000 on' "$T/cores1.out")" 1 \
    "Threads over the machine's cores: one warning"
$REF --game loa --engine cmd=$MOCK --engine cmd=$MOCK --each tc=0.5 --games 2 --logdir none \
    --quiet >"$T/cores2.out" 2>&1
check "$(count 'searching threads on' "$T/cores2.out")" 0 "one thread, one game at a time: no cores warning"
# check: the ponder exchange of a correct engine, and of a mock that
# answers go ponder at once
$REF check --game loa --latency report --time-use none --engine cmd="$BIN/medan-loa" >"$T/pchk1.out" 2>&1
check "$(grep -c '^\(PASS\|SLOW\)  \(go ponder: no bestmove\|ping answered while pondering\|ponderhit -> legal bestmove\|ponderhit: bestmove within clock\|ponder stop -> bestmove\)' "$T/pchk1.out")" 5 \
    "check: medan-loa passes the five ponder items"
# Palagan: the first legal move is a pass and two passes end the game, so
# the ponder position takes the first moves that do not end it
$REF check --game palagan --latency report --time-use none --engine cmd="$BIN/medan-palagan" >"$T/pchk3.out" 2>&1
check "$(grep -c '^\(PASS\|SLOW\)  \(go ponder: no bestmove\|ping answered while pondering\|ponderhit -> legal bestmove\|ponderhit: bestmove within clock\|ponder stop -> bestmove\)' "$T/pchk3.out")" 5 \
    "check: medan-palagan passes the five ponder items (a ponder position the game goes on from)"
grep 'ponder' "$T/pchk1.out" | grep -v '^.... *go movetime\|bestmove after stop\|during search' | sed 's/^/    /'
$REF check --game loa --latency report --time-use none \
    --engine cmd=$MOCK arg=--game arg=loa arg=--mode arg=ponderbad >"$T/pchk2.out" 2>&1
check "$?/$(count '^FAIL  go ponder: no bestmove in 500 ms *bestmove' "$T/pchk2.out")" 1/1 \
    "check: a bestmove during go ponder before ponderhit fails"

# --- check ---------------------------------------------------------------------------
$REF check --game loa --engine cmd=$MOCK arg=--game arg=loa arg=--mode arg=normal >"$T/chk.out" 2>&1
grep -q 'PASS  handshake' "$T/chk.out" && ok "check: runs on a mock" || bad "check: no table"
# An engine 400 ms late on one go (the mock fails other items too): the
# late figure is a FAIL by default, a SLOW figure with --latency report.
slow="--game loa --engine cmd=$MOCK arg=--game arg=loa arg=--mode arg=slow"
$REF check $slow >"$T/slow1.out" 2>&1
check "$(count '^FAIL  movetime respected' "$T/slow1.out")" 1 "check: a late bestmove fails by default"
$REF check --latency report $slow >"$T/slow2.out" 2>&1
# (On a busy machine other items may be SLOW too: count at least one.)
check "$(count '^SLOW  movetime respected' "$T/slow2.out")/$(count ' [1-9][0-9]* slow ' "$T/slow2.out")" "1/1" \
    "check --latency report: the late bestmove is a SLOW figure, not a failure"
# Time use: a figure per movetime (median, max, share of it), reported, not
# bounded (a loaded machine makes it late), except a gross overrun.
$REF check --game loa --latency report --time-use 30,100 --time-use-moves 3 \
    --engine cmd="$BIN/medan-loa" >"$T/tu.out" 2>&1
check "$(grep -c '^PASS  time use, go movetime \(30\|100\) .*median [0-9.]* ms ([0-9]*%), max [0-9.]* ms ([0-9]*%), 3 moves$' "$T/tu.out")" 2 \
    "check: time use of medan-loa for movetime 30 and 100 (median, max, %)"
grep '^.... *time use' "$T/tu.out" | sed 's/^/    /'
$REF check --game loa --latency report --time-use 100 --time-use-moves 2 \
    --engine cmd=$MOCK arg=--game arg=loa arg=--mode arg=overrun st=0.05 >"$T/tu2.out" 2>&1
check "$?/$(grep -c '^FAIL  time use, go movetime 100 .*1 moves; over 2 x 100 ms + 1 s$' "$T/tu2.out")" 1/1 \
    "check: a bestmove over 2 x movetime + 1 s fails the time use item"
$REF check --game loa --time-use 0 --engine cmd=$MOCK >"$T/tu3.out" 2>&1
check "$?/$(count 'time-use takes' "$T/tu3.out")" 1/1 "check: --time-use 0 refused"
$REF check --game loa --engine cmd=$MOCK arg=--mode arg=crash >"$T/chk2.out" 2>&1 &&
    bad "check passes a crashing engine" || ok "check fails a crashing engine"

# --- hidden information: no seat can learn the deal (issue 10) --------------
SOLVER=$BUILD/tools/deal_solver
"$SOLVER" --selftest >"$T/solver-self.out" 2>&1 &&
    ok "deal solver: every attack works on old-style input" ||
    bad "deal solver self test failed"
# spy MATCH_ARGS...: two spy mocks in a 3-seat Battalion match, 6 games
spy() {
    rm -f "$T/spy1.log" "$T/spy2.log" "$T/spy.jsonl"
    $REF --game battalion players=3 \
        --engine name=s1 cmd=$MOCK arg=--game arg=battalion arg=--spy arg="$T/spy1.log" \
        --engine name=s2 cmd=$MOCK arg=--game arg=battalion arg=--spy arg="$T/spy2.log" \
        --each tc=10+0.1 --games 6 --logdir none --quiet --results "$T/spy.jsonl" \
        "$@" >"$T/spy.out" 2>"$T/spy.err"
}
spy --seed 7
check "$(lines "$T/spy.jsonl")" 6 "spy match: 6 games"
"$SOLVER" "$T/spy1.log" "$T/spy2.log" >"$T/solver.out" 2>&1
check "$?" 1 "spy + solver: no deal recovered (keyed deals, --seed 7)"
grep -q 'nothing recovered' "$T/solver.out" && grep -q 'of 1[0-9] games' "$T/solver.out" &&
    ok "solver saw every game of both spies" || bad "solver read no games: $(tail -1 "$T/solver.out")"
key=$(grep -o '"key":"[0-9a-f]*"' "$T/spy.jsonl" | sort -u | cut -d'"' -f4)
check "$(echo "$key" | wc -w | tr -d ' ')" 1 "results: one secret key for the match"
leak=0
for k in $key $(grep -o '"seed":[0-9]*' "$T/spy.jsonl" | cut -d: -f2 | sort -u); do
    grep -q "$k" "$T/spy1.log" "$T/spy2.log" && leak=1
done
check $leak 0 "the key and the deal seeds never reach an engine"
many=$(cat "$T/spy1.log" "$T/spy2.log" | awk '$2 == "got" && $3 == "newgame" {n[$1]++}
    END {m = 0; for (p in n) if (n[p] > m) m = n[p]; print m}')
check "$many" 1 "fresh engine processes for every game of a hidden-information game"
grep -q 'secret key' "$T/spy.err" && ok "--seed for battalion: says the deals are keyed" ||
    bad "--seed for battalion: no note"
spy --seed 7 --key-from-seed
grep -q 'WARNING: --key-from-seed' "$T/spy.err" && ok "--key-from-seed: warning" ||
    bad "--key-from-seed: no warning"
"$SOLVER" "$T/spy1.log" "$T/spy2.log" >"$T/solver2.out" 2>&1 &&
    ok "positive control: the solver rebuilds --key-from-seed deals" ||
    bad "solver failed on a guessable key: $(tail -1 "$T/solver2.out")"
d=$(grep -o 'deal seed [0-9]*' "$T/solver2.out" | head -1 | cut -d' ' -f3)
grep -q "\"seed\":$d," "$T/spy.jsonl" && ok "positive control: the recovered deal is the real one" ||
    bad "recovered deal $d not in the results"

# hidden information: resume adopts the file's key; shards share --key-file
bt() { $REF --game battalion players=3 --engine name=a cmd=$MOCK arg=--game arg=battalion \
    --engine name=b cmd=$MOCK arg=--game arg=battalion --each tc=10+0.1 --games 6 \
    --quiet --logdir none "$@"; }
bt --results "$T/b.jsonl" >/dev/null 2>&1
head -n 3 "$T/b.jsonl" >"$T/br.jsonl"
sed -n 4p "$T/b.jsonl" | cut -c1-40 | tr -d '\n' >>"$T/br.jsonl"
bt --resume --results "$T/br.jsonl" >/dev/null 2>&1
strip "$T/b.jsonl" >"$T/b.s"; strip "$T/br.jsonl" >"$T/br.s"
[ "$(lines "$T/b.jsonl")" = 6 ] && cmp -s "$T/b.s" "$T/br.s" &&
    ok "battalion resume: the key is read back, same deals" || bad "battalion resume: games differ"
bt --shard 1/2 --results "$T/bs0.jsonl" >"$T/bs0.out" 2>&1 &&
    bad "battalion --shard without --key-file accepted" ||
    ok "battalion --shard needs --key-file"
bt --key-file "$T/match.key" --results "$T/bk.jsonl" >/dev/null 2>&1
bt --key-file "$T/match.key" --shard 1/2 --results "$T/bs1.jsonl" >/dev/null 2>&1
bt --key-file "$T/match.key" --shard 2/2 --results "$T/bs2.jsonl" >/dev/null 2>&1
cat "$T/bs1.jsonl" "$T/bs2.jsonl" >"$T/bs12.jsonl"
strip "$T/bk.jsonl" >"$T/bk.s"; strip "$T/bs12.jsonl" >"$T/bs12.s"
[ "$(lines "$T/bk.jsonl")" = 6 ] && cmp -s "$T/bk.s" "$T/bs12.s" &&
    ok "battalion shards with one --key-file = the whole match" || bad "battalion shards differ"
cmp -s "$T/b.s" "$T/bk.s" && bad "two random keys gave the same deals" ||
    ok "a fresh key gives other deals"

# --- referee hardening (issue 10, section 4) ------------------------------------
tag=medan-test-tag-$$
match forkexit 1 2 --each tc=10 arg=--tag arg=$tag
check "$(count '"reason":"crash"' "$T/forkexit.jsonl")" 1 "exit with a child holding stdout: crash"
grep -q 'exit status 1' "$T/forkexit.jsonl" && ok "crash detail names the exit status" ||
    bad "crash detail: $(grep -o '"detail":"[^"]*"' "$T/forkexit.jsonl")"
sleep 1
pgrep -f "$tag" >/dev/null && bad "a child of an engine outlived the referee" ||
    ok "the engine's process group is killed: no orphan"

rm -rf "$T/logs"
match noisy 0 2 --log-limit 100k
sz=$(wc -c <"$T/logs/bad.w1.s1.log" | tr -d ' ')
[ "$sz" -le 103000 ] && ok "stderr log capped ($sz bytes for --log-limit 100k)" ||
    bad "stderr log not capped: $sz bytes"
grep -q 'log cut at 102400 bytes' "$T/logs/bad.w1.s1.log" && ok "the log says it was cut" ||
    bad "no cut notice in the log"

$REF --game loa --engine name=x cmd=$MOCK dir=/nonexistent-medan --engine cmd=$MOCK \
    --games 2 --logdir none >"$T/dir.out" 2>&1
grep -q 'working directory /nonexistent-medan: No such file' "$T/dir.out" &&
    ! grep -q 'cannot start' "$T/dir.out" &&
    ok "dir=/nonexistent: the directory is named" || bad "dir=/nonexistent: $(tail -1 "$T/dir.out")"
: >"$T/afile"
match normal 0 2 --logdir "$T/afile"
grep -q "logdir $T/afile: not a directory" "$T/normal.out" &&
    ok "--logdir on a file: said so" || bad "--logdir on a file: $(tail -1 "$T/normal.out")"
mkdir -p "$T/ld/in"
$REF --game loa --engine name=../evil cmd=$MOCK --engine name=good cmd=$MOCK \
    --games 2 --logdir "$T/ld/in" --quiet >/dev/null 2>&1
[ -z "$(ls "$T/ld" | grep -v '^in$')" ] && [ -n "$(ls "$T/ld/in" | grep evil)" ] &&
    ok "name=../evil: its log stays inside --logdir" || bad "name=../evil: $(ls "$T/ld")"

leaky=0
for a in "--games -1" "--games" "--concurrency 0" "--seed x" "--shard 3/2" "--bogus" \
    "--log-limit -3" "--key-file" "--sprt alpha=2" "--openings bogus=1" "--resume" \
    "--results $T/nodir/x" "--each tc=zz" "--each foo=1" "--each noeq" "--key-from-seed"; do
    # shellcheck disable=SC2086
    $REF --game loa --engine cmd=$MOCK --engine cmd=$MOCK $a >"$T/flag.out" 2>&1
    rc=$?
    if [ $rc != 1 ] || grep -q Sanitizer "$T/flag.out"; then
        leaky=1; echo "  rejected flag $a: rc $rc" >&2; grep Sanitizer "$T/flag.out" >&2
    fi
done
for a in "$T/s1.jsonl $T/nodir/x" "--output $T/m.jsonl"; do
    # shellcheck disable=SC2086
    $REF merge $a >"$T/flag.out" 2>&1
    rc=$?
    if [ $rc != 1 ] || grep -q Sanitizer "$T/flag.out"; then
        leaky=1; echo "  rejected merge $a: rc $rc" >&2; grep Sanitizer "$T/flag.out" >&2
    fi
done
check $leaky 0 "every rejected flag: exit 1, sanitizer-clean (leaks too)"

# The flood's cost is measured against a silent engine under the same load:
# the old referee spent seconds past the deadline on the last buffer.
t0=$(date +%s%N)
match nohandshake 0 2 --handshake-timeout 1000
t1=$(date +%s%N)
match floodstart 0 2 --handshake-timeout 1000
t2=$(date +%s%N)
quiet=$(((t1 - t0) / 1000000)); ms=$(((t2 - t1) / 1000000))
grep -q handshake "$T/floodstart.out" && [ $ms -le 4000 ] && [ $((ms - quiet)) -le 1500 ] &&
    ok "handshake timeout honoured against a flood ($ms ms, a silent engine $quiet ms)" ||
    bad "flood at handshake: $ms ms, a silent engine $quiet ms (1 s timeout)"

match shout 0 2
check "$(count '"reason":"engine_error"' "$T/shout.jsonl")" 2 "BESTMOVE in capitals: engine_error"
grep -q "unreadable line 'BESTMOVE " "$T/shout.jsonl" && ok "the line received is quoted" ||
    bad "no quoted line: $(grep -o '"detail":"[^"]*"' "$T/shout.jsonl" | head -1)"

rm -f "$T/int.jsonl"
$REF --game loa --engine name=a cmd=$MOCK arg=--delay arg=30 arg=--tag arg=$tag \
    --engine name=b cmd=$MOCK arg=--tag arg=$tag --each tc=60 --games 100 \
    --results "$T/int.jsonl" --logdir none >"$T/int.out" 2>&1 &
rp=$!
i=0
while [ ! -s "$T/int.jsonl" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
kill -INT $rp
i=0
while kill -0 $rp 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
if kill -0 $rp 2>/dev/null; then
    bad "SIGINT: still running 10 s later"; kill -KILL $rp
fi
wait $rp
rc=$?
[ $rc != 0 ] && ok "SIGINT: exit status $rc (non-zero)" || bad "SIGINT: exit status 0"
fin=$(lines "$T/int.jsonl")
grep -q "Results (game loa): $fin games" "$T/int.out" &&
    ok "SIGINT: the table of the $fin finished games is printed" ||
    bad "SIGINT: no table of $fin games"
sleep 0.5
pgrep -f "$tag" >/dev/null && bad "SIGINT: engines left running" || ok "SIGINT: no engine left"

# --- tournaments (issue 14): N engines, --rounds, --games per encounter ------
m3="--engine name=a cmd=$MOCK arg=--game arg=loa --engine name=b cmd=$MOCK arg=--game arg=loa --engine name=c cmd=$MOCK arg=--game arg=loa"
m4="$m3 --engine name=d cmd=$MOCK arg=--game arg=loa"
tour() { $REF --game loa --each tc=5+0.05 --openings random-plies=3 --seed 21 \
    --logdir none --quiet "$@"; }
# "x y px py" per game: seat names and points
pts() { sed -n 's/.*"seats":\["\([^"]*\)","\([^"]*\)"\].*"scores":\[\([0-9.]*\),\([0-9.]*\)\].*/\1 \2 \3 \4/p' "$1"; }
# the crosstable of a table output as "row col cell" lines
xtab() { awk '/^Crosstable/ {on = 1; next}
    on == 1 {n = NF; for (k = 1; k <= NF; k++) col[k] = $k; on = 2; left = n; next}
    on == 2 && left > 0 {for (k = 1; k <= n; k++) print $1, col[k], $(k + 1); left--}' "$1" | sort; }
# the same from the records
xrec() { pts "$1" | awk '{g[$1" "$2]++; g[$2" "$1]++; p[$1" "$2] += $3; p[$2" "$1] += $4; e[$1]; e[$2]}
    END {for (x in e) for (y in e) { k = x" "y
        if (x == y) c = "-"; else if (!g[k]) c = "."; else c = sprintf("%g/%g", p[k], g[k])
        print x, y, c }}' | sort; }

tour $m3 --games 4 --results "$T/rr.jsonl" >"$T/rr.out" 2>&1
check "$?/$(lines "$T/rr.jsonl")" "0/12" "round-robin of 3, --games 4: 3 pairings x 4 = 12 games"
check "$(pts "$T/rr.jsonl" | awk '{print $1, $2}' | sort | uniq -c | awk '{print $1}' | sort -u)/$(pts "$T/rr.jsonl" | awk '{print $1, $2}' | sort -u | wc -l | tr -d ' ')" \
    "2/6" "round-robin: every pairing with each colour twice"
check "$(grep -o '"opening":"[^"]*"' "$T/rr.jsonl" | sort | uniq -c | awk '{print $1}' | sort -u)" 2 \
    "round-robin: each opening played twice (colour-swapped pair)"
grep -q '^Crosstable' "$T/rr.out" && grep -q '^Ratings (3 engines' "$T/rr.out" &&
    ok "round-robin: ratings and crosstable printed" || bad "round-robin: no crosstable"
xtab "$T/rr.out" >"$T/rr.x"; xrec "$T/rr.jsonl" >"$T/rr.r"
[ "$(lines "$T/rr.x")" = 9 ] && cmp -s "$T/rr.x" "$T/rr.r" &&
    ok "round-robin: crosstable agrees with the records" ||
    bad "round-robin: crosstable differs from the records: $(diff "$T/rr.x" "$T/rr.r" | tr '\n' ' ')"
check "$(awk '/^Ratings/ {on = 1; next} on && $1 ~ /^[0-9]+$/ {n++; s += $4} /^Crosstable/ {on = 0}
    END {print n, s}' "$T/rr.out")" "3 12" "ratings: one row per engine, points add up to the games"

tour $m4 --tournament gauntlet --games 2 --results "$T/ga.jsonl" >"$T/ga.out" 2>&1
check "$?/$(lines "$T/ga.jsonl")" "0/6" "gauntlet of 4, --games 2: 3 encounters x 2 = 6 games"
check "$(pts "$T/ga.jsonl" | awk '$1 != "a" && $2 != "a"' | wc -l | tr -d ' ')/$(pts "$T/ga.jsonl" | awk '{print ($1 == "a" ? $2 : $1)}' | sort | uniq -c | awk '{print $1}' | sort -u)" \
    "0/2" "gauntlet: the first engine in every game, 2 games against each other"
xtab "$T/ga.out" >"$T/ga.x"; xrec "$T/ga.jsonl" >"$T/ga.r"
cmp -s "$T/ga.x" "$T/ga.r" && grep -q '^b c \.$' "$T/ga.x" &&
    ok "gauntlet: crosstable agrees with the records (b and c never met)" ||
    bad "gauntlet: crosstable: $(diff "$T/ga.x" "$T/ga.r" | tr '\n' ' ')"

tour $m3 --rounds 2 --games 3 --results "$T/ro.jsonl" >/dev/null 2>&1
check "$(lines "$T/ro.jsonl")" 18 "--rounds 2 --games 3, 3 engines: 2 x 3 x 3 = 18 games"
check "$(pts "$T/ro.jsonl" | awk '{print $1, $2}' | sort | uniq -c | awk '{print $1}' | sort -u)" 3 \
    "--rounds 2 --games 3: colours balance over the rounds (3 + 3 per pairing)"
tour $good --engine name=other cmd=$MOCK arg=--game arg=loa --rounds 3 --games 2 \
    --results "$T/r2.jsonl" >/dev/null 2>&1
check "$(lines "$T/r2.jsonl")" 6 "two engines, --rounds 3 --games 2: 6 games"

tour $m3 --games 2 --noswap --results "$T/ns.jsonl" >/dev/null 2>&1
check "$(lines "$T/ns.jsonl")/$(pts "$T/ns.jsonl" | awk '$1 > $2' | wc -l | tr -d ' ')" "6/0" \
    "--noswap: the engine listed first always in seat 1"

# determinism: concurrency, shards + merge (table and crosstable alike)
tour $m3 --games 4 --concurrency 2 --results "$T/rr2.jsonl" >/dev/null 2>&1
strip "$T/rr.jsonl" >"$T/rr.s"; strip "$T/rr2.jsonl" >"$T/rr2.s"
cmp -s "$T/rr.s" "$T/rr2.s" && ok "tournament: same games at concurrency 1 and 2" ||
    bad "tournament: games differ between concurrency 1 and 2"
tour $m3 --games 4 --shard 1/2 --results "$T/rs1.jsonl" >/dev/null 2>&1
tour $m3 --games 4 --shard 2/2 --results "$T/rs2.jsonl" >/dev/null 2>&1
cat "$T/rs1.jsonl" "$T/rs2.jsonl" >"$T/rs.jsonl"; strip "$T/rs.jsonl" >"$T/rs.s"
[ "$(lines "$T/rs1.jsonl")" -gt 0 ] && [ "$(lines "$T/rs2.jsonl")" -gt 0 ] &&
    cmp -s "$T/rr.s" "$T/rs.s" && ok "tournament: shards 1/2 + 2/2 = the whole schedule" ||
    bad "tournament: shards differ from the whole schedule"
$REF merge --games 12 "$T/rs1.jsonl" "$T/rs2.jsonl" >"$T/rm.out" 2>&1
check "$?" 0 "tournament merge: nothing missing of 12"
xtab "$T/rm.out" >"$T/rm.x"
cmp -s "$T/rm.x" "$T/rr.x" && ok "tournament merge: the same crosstable as the single run" ||
    bad "tournament merge: crosstable differs"
$REF report "$T/rr.jsonl" --html "$T/rr.html" >/dev/null 2>&1
grep -q '<h2>Crosstable</h2>' "$T/rr.html" && grep -q '<td>3/4</td>\|<td>[0-9.]*/4</td>' "$T/rr.html" &&
    ok "report: a tournament gets its crosstable" || bad "report: no crosstable"

# --resume of a tournament: the missing games only; another schedule refused
head -n 5 "$T/rr.jsonl" >"$T/rres.jsonl"
tour $m3 --games 4 --resume --results "$T/rres.jsonl" >/dev/null 2>&1
strip "$T/rres.jsonl" >"$T/rres.s"
cmp -s "$T/rr.s" "$T/rres.s" && ok "tournament --resume: the same 12 games as one run" ||
    bad "tournament --resume: games differ"
head -n 5 "$T/rr.jsonl" >"$T/rres.jsonl"
tour $m3 --games 4 --noswap --resume --results "$T/rres.jsonl" >"$T/rres.out" 2>&1
check "$?/$(lines "$T/rres.jsonl")" "1/5" "tournament --resume with another schedule (--noswap): refused"
grep -q 'other engines in its seats' "$T/rres.out" && ok "tournament --resume: says why" ||
    bad "tournament --resume: $(cat "$T/rres.out")"

# refused combinations
tour $m3 --sprt elo0=0 elo1=10 --results "$T/x.jsonl" >"$T/x.out" 2>&1
check "$?" 1 "--sprt in a tournament of 3: refused (usage)"
grep -q 'exactly two engines' "$T/x.out" && ok "--sprt in a tournament: says why" ||
    bad "--sprt in a tournament: $(cat "$T/x.out")"
tour $m3 --tournament swiss >"$T/x.out" 2>&1
check "$?" 1 "--tournament swiss: refused"

# N seats: 4 engines over 3 Battalion seats, every engine in every seat
# equally often (12 games = 4 deals)
b="cmd=$MOCK arg=--game arg=battalion"
$REF --game battalion players=3 --engine name=a $b --engine name=b $b \
    --engine name=c $b --engine name=d $b --each tc=10+0.1 --games 12 --seed 4 \
    --key-from-seed --logdir none --quiet --results "$T/b4.jsonl" >"$T/b4.out" 2>&1
check "$?/$(lines "$T/b4.jsonl")" "0/12" "battalion players=3, 4 engines: 12 games"
check "$(sed -n 's/.*"seats":\["\([^"]*\)","\([^"]*\)","\([^"]*\)"\].*/1 \1\n2 \2\n3 \3/p' "$T/b4.jsonl" |
    sort | uniq -c | awk '{print $1}' | sort -u)/$(sed -n 's/.*"seats":\["\([^"]*\)","\([^"]*\)","\([^"]*\)"\].*/\1 \2 \3/p' "$T/b4.jsonl" | sort | uniq -c | wc -l | tr -d ' ')" \
    "3/12" "battalion rotation: every engine 3 times in every seat"
check "$(awk '$1 ~ /^[abcd]$/ && NF >= 6 && $2 == 9 {n++} END {print n}' "$T/b4.out")" 4 \
    "battalion rotation: the table has 9 games for each of the 4 engines"
$REF --game battalion players=3 --engine name=a $b --engine name=b $b \
    --engine name=c $b --engine name=d $b --tournament gauntlet --each tc=10+0.1 \
    --logdir none >"$T/x.out" 2>&1
check "$?" 1 "battalion --tournament gauntlet: refused"
$REF --game battalion players=3 --engine name=a $b --engine name=b $b \
    --engine name=c $b --engine name=d $b --each tc=10+0.1 --games 6 --seed 4 \
    --key-from-seed --logdir none --quiet >"$T/b6.out" 2>&1
grep -q 'note: 4 engines over 3 seats: .* multiple of 12 (6 scheduled)' "$T/b6.out" &&
    ok "battalion rotation: a schedule that cannot balance the seats gets a note" ||
    bad "battalion rotation: no note for 6 games of 4 engines"

# --- a referee game of every game that has an engine ---------------------------------
# (the toy games of tests/games/ too, built in $BUILD/games/, each also
# through the conformance battery: nothing but its folder and registry line
# makes it a game the referee knows)
# --- opening books: format, order, start, plies, policy (issue 25) --------
# (which game got which opening is read back from the results file)
S0="1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b"
S1="b7/2b5/8/8/8/3w4/8/w5ww b"
S2="b7/2b5/8/8/8/2w5/8/w5ww b"
printf '# three positions\n%s ; id "zero"\n\nfen %s;c0 "one"\n%s\n' "$S0" "$S1" "$S2" >"$T/b.epd"
# game<TAB>opening of every record, in game order
openings_of() { sed 's/^{"game":\([0-9]*\),.*"opening":"\([^"]*\)".*/\1	\2/' "$1" | sort -n; }
bm() { out=$1; shift; $REF --game loa --engine name=A cmd=$MOCK --engine name=B cmd=$MOCK \
    --each tc=5+0.05 --seed 3 --quiet --logdir none --results "$T/$out.jsonl" "$@" \
    >"$T/$out.out" 2>&1; }
line_of() { case $1 in 0) echo "fen $S0" ;; 1) echo "fen $S1" ;; 2) echo "fen $S2" ;; esac; }
bm book1 --games 8 --openings file="$T/b.epd" start=2
want=""; for g in 1 2 3 4 5 6 7 8; do
    want="$want$g	$(line_of $(( (1 + (g - 1) / 2) % 3 )))
"; done
check "$(openings_of "$T/book1.jsonl")" "$(printf %s "$want")" \
    "book: EPD with ; fields, start=2: pairs take lines 2 3 1 2 (1-based)"
# a 3-engine round robin, 2 rounds of 4 games an encounter: 24 games
tourbook() { out=$1; shift; $REF --game loa --engine name=A cmd=$MOCK --engine name=B cmd=$MOCK \
    --engine name=C cmd=$MOCK --rounds 2 --games 4 --each tc=5+0.05 --seed 3 --quiet \
    --logdir none --results "$T/$out.jsonl" "$@" >"$T/$out.out" 2>&1; }
tourbook book2 --openings file="$T/b.epd" policy=encounter
want=""; for g in $(seq 1 24); do
    want="$want$g	$(line_of $(( ((g - 1) / 12 * 3 + (g - 1) % 12 / 4) % 3 )))
"; done
check "$(openings_of "$T/book2.jsonl")" "$(printf %s "$want")" \
    "book: policy=encounter: every game of an encounter on one opening, the next encounter the next"
tourbook book3 --openings file="$T/b.epd" policy=round
want=""; for g in $(seq 1 24); do
    want="$want$g	$(line_of $(( (g - 1) / 12 % 3 )))
"; done
check "$(openings_of "$T/book3.jsonl")" "$(printf %s "$want")" \
    "book: policy=round: one opening a round"
tourbook book4 --openings random-plies=3 policy=round
check "$(openings_of "$T/book4.jsonl" | cut -f2 | uniq | wc -l | tr -d ' ')" 2 \
    "book: policy=round applies to random plies too (2 rounds, 2 openings)"
# the referee's own PGN records read back as a book, cut to plies=5
bm book5 --games 4 --openings random-plies=2 --records "$T/book5.pgn"
bm book6 --games 8 --openings file="$T/book5.pgn" format=pgn plies=5
ok5=0
for g in 1 2 3 4; do
    o5=$(openings_of "$T/book5.jsonl" | awk -F'\t' -v g=$g '$1 == g {print $2}')
    o6a=$(openings_of "$T/book6.jsonl" | awk -F'\t' -v g=$((2 * g - 1)) '$1 == g {print $2}')
    o6b=$(openings_of "$T/book6.jsonl" | awk -F'\t' -v g=$((2 * g)) '$1 == g {print $2}')
    first=$(sed -n "s/^{\"game\":$g,.*\"moves\":\[{\"seat\":[0-9],\"move\":\"\([^\"]*\)\".*/\1/p" "$T/book5.jsonl")
    case $o6a in "$o5 $first "*) [ "$o6a" = "$o6b" ] &&
        [ "$(echo "$o6a" | wc -w)" = $((2 + 5)) ] && ok5=$((ok5 + 1)) ;; esac
done
check "$ok5" 4 "book: PGN records read back: game k's opening + its first moves, 5 plies, one pair each"
# refusals: exit 1, a clear message, nothing played
printf '%s\n%s ; id 2\n8/8/8 b ; id 3\n' "$S0" "$S1" >"$T/bad.epd"
printf '[Event "x"]\n\n1. b1-b3 a2-c2\n2. b3-b9 *\n' >"$T/bad.pgn"
for a in "file=$T/bad.epd|$T/bad.epd:3: " "file=$T/bad.pgn format=pgn|$T/bad.pgn:4: opening move b3-b9 #3" \
    "file=$T/b.epd random-plies=2|exclude each other" "format=pgn|need file=" \
    "file=$T/b.epd policy=game|unknown --openings setting policy=game" \
    "file=$T/b.epd start=4|start=4 but the book has 3 openings" \
    "file=$T/nothere.epd|nothere.epd: cannot open"; do
    # shellcheck disable=SC2086
    $REF --game loa --engine cmd=$MOCK --engine cmd=$MOCK --results "$T/refused.jsonl" \
        --logdir none --openings ${a%%|*} >"$T/refused.out" 2>&1
    rc=$?
    if [ $rc = 1 ] && grep -qF -- "${a#*|}" "$T/refused.out" && [ ! -s "$T/refused.jsonl" ]; then
        ok "book refused: --openings ${a%%|*}"
    else bad "book refused: --openings ${a%%|*}: rc $rc, $(cat "$T/refused.out")"; fi
done
$REF --game battalion --engine cmd=$MOCK arg=--game arg=battalion --engine cmd=$MOCK \
    arg=--game arg=battalion --openings file="$T/b.epd" >"$T/refused.out" 2>&1
check "$?/$(grep -c 'deals its games from a seed' "$T/refused.out")" 1/1 \
    "book refused for Battalion (dealt from a secret seed)"
# the old spellings: plies= alone is random-plies=
bm book7 --games 2 --openings plies=3
check "$(openings_of "$T/book7.jsonl" | cut -f2 | awk '{print NF}' | sort -u)" 5 \
    "old spelling: --openings plies=3 is three random plies"
# every shipped suite drives a match (the unit test checks every line)
for f in openings/*.epd; do
    [ -f "$f" ] || continue
    g=$(basename "$f" .epd)
    $REF --game "$g" --engine name=A cmd=$MOCK arg=--game arg="$g" --engine name=B cmd=$MOCK \
        arg=--game arg="$g" --each tc=5+0.05 --games 4 --seed 3 --quiet --logdir none \
        --openings file="$f" order=random --results "$T/suite-$g.jsonl" >"$T/suite.out" 2>&1
    check "$?/$(count '"opening":"fen ' "$T/suite-$g.jsonl")" 0/4 "$f: a match from the shipped suite"
done

for eng in "$BIN"/medan-* "$BUILD"/games/medan-*; do
    [ -x "$eng" ] || continue
    g=${eng##*/medan-}
    case $g in referee|opentafl|otbridge|slurm-match|battalion-duplicate|web|xboard) continue ;; esac # not game engines
    case $eng in
    "$BUILD"/games/*)
        $REF check --game "$g" --latency report --engine cmd="$eng" >"$T/$g.check" 2>&1
        check "$?/$(count '^FAIL' "$T/$g.check")" 0/0 "$g (toy game): medan-referee check passes"
        # the generic search against the random baseline, both colours
        $REF --game "$g" --engine name=search cmd="$eng" --engine name=rand cmd="$eng" \
            option.Strategy=random --each tc=5+0.05 --games 4 --seed 5 --logdir none \
            --results "$T/$g-sr.jsonl" >"$T/$g-sr.out" 2>&1
        won=$(($(count '"seats":\["search","rand"\].*"result":"p1win"' "$T/$g-sr.jsonl") +
            $(count '"seats":\["rand","search"\].*"result":"p2win"' "$T/$g-sr.jsonl")))
        check "$won" 4 "$g (toy game): the search beats the random baseline in 4 of 4 games" ;;
    esac
    params=""; games=2
    [ "$g" = battalion ] && { params="players=3"; games=3; }
    $REF --game "$g" $params --engine name=r1 cmd="$eng" option.Strategy=random \
        --engine name=r2 cmd="$eng" option.Strategy=random --each tc=10+0.1 \
        --games $games --seed 5 --logdir none --results "$T/$g.jsonl" \
        --records "$T/$g.pgn" >"$T/$g.out" 2>&1
    rc=$?
    if [ $rc = 0 ] && [ "$(lines "$T/$g.jsonl")" = $games ] &&
        [ "$(count '"forfeit":null' "$T/$g.jsonl")" = $games ]; then
        ok "$g: $games games end to end"
    else bad "$g: end-to-end match failed (see below)"; cat "$T/$g.out" >&2; fi
    $PGNCHECK --comments "$T/$g.pgn" >"$T/$g.pc" 2>&1 && ok "$g: records pass the strict PGN check" ||
        bad "$g: $(cat "$T/$g.pc")"
    # a searching engine (fixed depth) leaves its scores in the records
    [ "$g" = battalion ] && continue # its search reports no score
    $REF --game "$g" --engine name=s cmd="$eng" depth=2 --engine name=r cmd="$eng" \
        option.Strategy=random --each tc=10+0.1 --games 1 --maxplies 16 --seed 5 --logdir none \
        --quiet --results "$T/$g-s.jsonl" --records "$T/$g-s.pgn" >"$T/$g-s.out" 2>&1
    if $PGNCHECK --comments "$T/$g-s.pgn" >"$T/$g-s.pc" 2>&1 &&
        grep -q '{[-+]\{0,1\}\(M[0-9]*\|[0-9]*\.[0-9][0-9]\)/[0-9]* [0-9.]*s}' "$T/$g-s.pgn" &&
        grep -q '"depth":[0-9]*,"\(cp\|win\|loss\)":' "$T/$g-s.jsonl"; then
        ok "$g: a searching engine's scores and depths in the PGN comments and the results"
    else bad "$g: no scores in the records: $(cat "$T/$g-s.pc"; head -c 400 "$T/$g-s.jsonl")"; fi
done

# --- 6x6 LOA (--game loa size=6, issue 38) -----------------------------------------
L="$BIN/medan-loa"
$REF --game loa size=6 --engine name=s cmd="$L" depth=2 --engine name=r cmd="$L" \
    option.Strategy=random --each tc=10+0.1 --games 4 --seed 6 --openings random-plies=2 \
    --logdir none --quiet --results "$T/loa6.jsonl" --records "$T/loa6.pgn" >"$T/loa6.out" 2>&1
rc=$?
# every move and opening ply names squares of a1..f6 only
offb=$(grep -o '"move":"[^"]*"\|"opening":"start moves [^"]*"' "$T/loa6.jsonl" |
    sed 's/^"[a-z]*":"//; s/"$//; s/start moves //' | tr ' ' '\n' | grep -c '[gh]\|[7-9]')
if [ $rc = 0 ] && [ "$(lines "$T/loa6.jsonl")" = 4 ] && [ "$offb" = 0 ] &&
    [ "$(count '"variant":{"name":"loa","params":"size=6"}' "$T/loa6.jsonl")" = 4 ] &&
    [ "$(count '"forfeit":null' "$T/loa6.jsonl")" = 4 ] &&
    [ "$(count '"reason":"connected"' "$T/loa6.jsonl")" = 4 ]; then
    ok "loa size=6: 4 games end to end, each connected, moves on the 6x6 board only"
else bad "loa size=6: rc $rc, $offb off-board moves: $(cat "$T/loa6.out"; head -c 600 "$T/loa6.jsonl")"; fi
$PGNCHECK --comments "$T/loa6.pgn" >"$T/loa6.pc" 2>&1 && ok "loa size=6: records pass the strict PGN check" ||
    bad "loa size=6: $(cat "$T/loa6.pc")"
won=$(($(count '"seats":\["s","r"\].*"result":"p1win"' "$T/loa6.jsonl") +
    $(count '"seats":\["r","s"\].*"result":"p2win"' "$T/loa6.jsonl")))
check "$won" 4 "loa size=6: the depth-2 search beats the random baseline in 4 of 4 games"
# the 8x8 suite in a 6x6 match, and a size LOA has not: refused, nothing played
$REF --game loa size=6 --engine cmd="$L" --engine cmd="$L" --each depth=1 --results "$T/l6r.jsonl" \
    --logdir none --openings file=openings/loa.epd >"$T/l6r.out" 2>&1
check "$?/$(grep -c 'an 8x8 position, but the game is 6x6' "$T/l6r.out")/$([ -s "$T/l6r.jsonl" ] && echo played || echo none)" \
    "1/1/none" "loa size=6 refuses the 8x8 opening suite"
$REF --game loa size=7 --engine cmd="$L" --engine cmd="$L" --each depth=1 --results "$T/l7.jsonl" \
    --logdir none >"$T/l7.out" 2>&1
check "$?/$(grep -c "size must be 6 or 8, not '7'" "$T/l7.out")" "1/1" "loa size=7 refused"

[ $fail = 0 ] && echo "referee tests: all $n passed" || echo "referee tests: FAILED" >&2
exit $fail
