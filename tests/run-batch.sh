#!/bin/sh
# The batched early-stopping SPRT across shards, faults and quoting (issue
# 28 §3-5): `medan-referee parallel --sprt` and `medan-slurm-match --sprt`
# play batch after batch and stop when the SPRT over the merged games
# decides, with the decision and the games of one unsharded run; a shard
# killed (kill -9) or a Slurm task cancelled loses no game and plays none
# twice; every word that reaches a shell is quoted; the referee's other
# spellings (-variant, -pgnout) reach Slurm's shards; on the real Slurm,
# two SPSA iterations as array jobs (`slurm N -- tune`, tests/run-tune.sh
# has the rest of the batched tune).  Slurm is the fake
# sbatch (tests/mock) and, where tests/cluster/slurm-up.sh can start one
# (root, slurm-wlm), a real one-node Slurm.
#   usage: sh tests/run-batch.sh BUILD BIN
set -u
BUILD=${1:-build}
BIN=${2:-bin}
REF=$BIN/medan-referee
ABS=$(cd "$BIN" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/batch-test.XXXXXX")
SL=""
SS=""
cleanup() {
    [ -z "$SL" ] || sh "$HERE/cluster/slurm-down.sh" "$SL" >/dev/null 2>&1
    [ -z "$SS" ] || sh "$HERE/cluster/sshd-down.sh" "$SS" >/dev/null 2>&1
    rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
. "$HERE/check-lib.sh"
FAKE="sh $HERE/mock/fake-sbatch.sh"
# Records without the fields that vary from run to run, in game order.
norm() { sed -e 's/"ms":[0-9]*//g' -e 's/"date":"[^"]*"//g' "$1" | sort -t, -k1,1; }
same() { norm "$1" >"$T/same.a"; norm "$2" >"$T/same.b"; [ -s "$T/same.a" ] && cmp -s "$T/same.a" "$T/same.b"; }
# Game numbers that occur more than once in a results file.
dups() { sed 's/^{"game":\([0-9]*\),.*/\1/' "$1" | sort | uniq -d | tr '\n' ' '; }

# An SPRT that decides early: depth 2 against the greedy player.
set -- --game loa --engine name=a cmd="$ABS/medan-loa" \
    --engine name=b cmd="$ABS/medan-loa" option.Strategy=greedy \
    --each depth=2 --games 200 --seed 5 --openings random-plies=4 --logdir none \
    --sprt elo0=0 elo1=100
$REF "$@" --quiet --results "$T/one.jsonl" >"$T/one.out" 2>&1
d=$(wc -l <"$T/one.jsonl" | tr -d ' ')
grep -q 'Match stopped early: SPRT: H1 accepted' "$T/one.out" && [ "$d" -lt 200 ] &&
    ok "single run: the SPRT decides after $d games" ||
    bad "single run: no early decision: $(tail -3 "$T/one.out")"

# kill -9 of a shard's referee in the middle of a batch: the next batch
# (or the last batch run again) plays exactly its missing games.
k="--game loa --engine name=a cmd=$ABS/medan-loa --engine name=b cmd=$ABS/medan-loa
   option.Strategy=greedy --each depth=3 --games 24 --seed 9 --openings random-plies=4
   --logdir none --sprt elo0=-10 elo1=10"
$REF $k --quiet --results "$T/k1.jsonl" >/dev/null 2>&1

# A job stopped as Slurm stops it: SIGTERM to every process, the engine a
# moment before the referee.  The game under way is not recorded as the
# engine's crash: the referee's own SIGTERM ends the match first.
$REF --game loa --engine name=a cmd="$ABS/medan-loa" --engine name=b cmd="$ABS/medan-loa" \
    --each depth=5 --games 2 --seed 3 --logdir none --results "$T/term.jsonl" \
    >"$T/term.out" 2>&1 &
rp=$!
e=""
i=0
# an engine of game 1 (not of the start-up check before it)
while [ $i -lt 600 ] && [ -z "$e" ] && kill -0 $rp 2>/dev/null; do
    sleep 0.1
    grep -q '^Started game 1 ' "$T/term.out" && e=$(pgrep -P $rp | head -1)
    i=$((i + 1))
done
sleep 0.3
if [ -n "$e" ] && kill -TERM "$e" 2>/dev/null; then
    sleep 0.3
    kill -TERM $rp 2>/dev/null
    wait $rp
    check "$?/$(grep -c '"crash"' "$T/term.jsonl" 2>/dev/null || true)" "143/0" \
        "SIGTERM to an engine, then to the referee: exit 143, no crash recorded"
else
    kill $rp 2>/dev/null
    wait $rp
    echo "skipped: SIGTERM test: no engine process of the referee found"
fi

# --- GNU parallel ---------------------------------------------------------------
if command -v parallel >/dev/null 2>&1; then
    $REF parallel --shards 2 --batch 10 "$@" --results "$T/par.jsonl" >"$T/par.out" 2>&1
    check $? 0 "parallel --sprt: exit 0"
    same "$T/one.jsonl" "$T/par.jsonl" && ok "parallel --sprt: the merged games = the single run's, game for game" ||
        bad "parallel --sprt: merged games differ from the single run"
    grep -q "^SPRT decided at game $d (H1 accepted" "$T/par.out" &&
        ok "parallel --sprt: decided at the single run's game ($d)" ||
        bad "parallel --sprt: $(grep -i decided "$T/par.out")"
    grep -q '^Batch 1: games 1-10: 10 played, 0 missing' "$T/par.out" &&
        grep -q '^SPRT (elo0=0 elo1=100 alpha=0.05 beta=0.05): LLR [-0-9.]* \[-2.94, 2.94\] continue$' "$T/par.out" &&
        ok "parallel --sprt: a line per batch with the LLR so far" ||
        bad "parallel --sprt: no batch lines: $(head -4 "$T/par.out")"
    played=$(cat "$T"/par.jsonl.shard-*-of-2 | wc -l | tr -d ' ')
    [ "$played" -ge "$d" ] && [ "$played" -lt $((d + 10)) ] &&
        ok "parallel --sprt: $played games played, within one batch of the decision" ||
        bad "parallel --sprt: $played games played for a decision at $d"
    [ -z "$(dups "$T/par.jsonl.shard-1-of-2")$(dups "$T/par.jsonl.shard-2-of-2")" ] &&
        ok "parallel --sprt: no game played twice across batches" || bad "parallel --sprt: games played twice"
    $REF parallel --shards 2 --batch 10 "$@" --results "$T/par.jsonl" --resume >"$T/par2.out" 2>&1
    check "$?/$(cat "$T"/par.jsonl.shard-*-of-2 | wc -l | tr -d ' ')" "0/$played" \
        "parallel --sprt --resume of a decided match: plays nothing more"
    same "$T/one.jsonl" "$T/par.jsonl" && ok "parallel --sprt --resume: the same games" ||
        bad "parallel --sprt --resume changed the games"

    # --max-games: no decision within 12 games; every game of 1-12 played.
    $REF parallel --shards 3 --batch 8 --max-games 12 "$@" --results "$T/mx.jsonl" >"$T/mx.out" 2>&1
    check "$?/$(wc -l <"$T/mx.jsonl" | tr -d ' ')" "0/12" "parallel --max-games 12: 12 games merged"
    head -12 "$T/one.jsonl" >"$T/one12.jsonl"
    same "$T/one12.jsonl" "$T/mx.jsonl" && ok "parallel --max-games: games 1-12 of the schedule" ||
        bad "parallel --max-games: other games"
    tail -1 "$T/mx.out" | grep -q '^Elo difference' && grep -q '^Batch 2: games 1-12: 12 played' "$T/mx.out" &&
        grep -q 'LLR .* continue$' "$T/mx.out" && ok "parallel --max-games: two batches, no decision" ||
        bad "parallel --max-games: $(grep '^Batch' "$T/mx.out")"

    $REF parallel --shards 2 --batch 8 $k --results "$T/kill.jsonl" >"$T/kill.out" 2>&1 &
    # kill -9 of shard 1's referee once it has a game.
    bg=$!
    killed=""
    i=0
    while [ $i -lt 3000 ] && [ -z "$killed" ] && kill -0 $bg 2>/dev/null; do
        # shard 1's referee, in whichever batch, once it has a game
        if [ -s "$T/kill.jsonl.shard-1-of-2" ] && [ "$(wc -l <"$T/kill.jsonl.shard-1-of-2")" -lt 10 ]; then
            p=$(pgrep -f -- "kill.jsonl.shard-1-of-2 --shard 1/2 --quiet --resume" | head -1)
            [ -n "$p" ] && kill -9 "$p" 2>/dev/null && killed=$p
        fi
        sleep 0.1
        i=$((i + 1))
    done
    wait $bg
    st=$?
    if [ -n "$killed" ]; then
        check $st 0 "kill -9 of a shard: the batched match still ends with exit 0"
        grep -q '^Batch [0-9]*: .* [1-9][0-9]* missing' "$T/kill.out" &&
            ok "kill -9 of a shard: the batch reports its missing games" ||
            echo "skipped: kill -9 of a shard: it fell between two batches (no game missing)"
        same "$T/k1.jsonl" "$T/kill.jsonl" && ok "kill -9 of a shard: the next batch played exactly the missing games (= the single run)" ||
            bad "kill -9 of a shard: merged games differ from the single run"
        [ -z "$(dups "$T/kill.jsonl.shard-1-of-2")" ] && ok "kill -9 of a shard: no game played twice" ||
            bad "kill -9 of a shard: games played twice: $(dups "$T/kill.jsonl.shard-1-of-2")"
    else
        echo "skipped: kill -9 of a shard: shard 1 finished before it could be killed"
    fi

    # Quoting: a results path with a quote and a command substitution.
    q="$T/q'\$(touch PWNED)'.jsonl"
    (cd "$T" && "$ABS/medan-referee" parallel --shards 2 --game loa --engine name=a cmd="$ABS/medan-loa" \
        --engine name=b cmd="$ABS/medan-loa" option.Strategy=greedy --each depth=1 \
        --games 4 --seed 5 --logdir none --results "$q" --records "$q.pgn" >"$T/q.out" 2>&1)
    check "$?/$(wc -l <"$q" | tr -d ' ')/$(grep -c '^\[Result ' "$q.pgn")" "0/4/4" \
        "parallel: a results path with ' and \$( ) works"
    [ ! -e "$T/PWNED" ] && ok "parallel: nothing in a path runs" || bad "parallel: a results path ran a command"
else
    bad "GNU parallel is not installed (Debian: parallel; tests/deps.sh installs it)"
fi

# --- Slurm through the fake sbatch ------------------------------------------------
# Hostile path, and task 2 of the first array cancelled (scancel): the
# decider sees its games missing and the next batch plays them.
mkdir "$T/s"
q="$T/s/x'\$(touch PWNED)'.jsonl"
echo 2 >"$T/cancel"
(cd "$T/s" && SBATCH=$FAKE FAKE_SBATCH_CANCEL="$T/cancel" FAKE_SBATCH_LOG="$T/sb.log" \
    sh "$ABS/medan-slurm-match" 3 --batch 12 "$@" --results "$q" >"$T/s.out" 2>&1)
check $? 0 "slurm --sprt: submitted"
[ ! -e "$T/cancel" ] && ok "slurm: the fake scancel of task 2 happened" || bad "slurm: task 2 was not cancelled"
[ ! -e "$T/s/PWNED" ] && [ ! -e "$T/PWNED" ] && ok "slurm: nothing in a results path runs" ||
    bad "slurm: a results path ran a command"
same "$T/one.jsonl" "$q" && ok "slurm --sprt: the merged games = the single run's (a cancelled task's games played by the next batch)" ||
    bad "slurm --sprt: merged games differ: $(cat "$T/s.out")"
grep -q '^Batch 1: games 1-12: 8 played, 4 missing' "$q.table" &&
    grep -q "^SPRT decided at game $d (H1 accepted" "$q.table" &&
    ok "slurm --sprt: the deciders' table: the missing games, then the decision at game $d" ||
    bad "slurm --sprt: table: $(grep -e '^Batch' -e decided "$q.table")"
grep -q -- "--dependency=afterany:101 " "$T/sb.log" && ok "slurm: the decider depends on the batch's array (afterany)" ||
    bad "slurm: no afterany dependency: $(cat "$T/sb.log")"
[ -z "$(dups "$q.shard-2-of-3")" ] && ok "slurm: no game played twice" || bad "slurm: games played twice"
SBATCH=$FAKE sh "$ABS/medan-slurm-match" 2 "$@" --results "$q" >"$T/s2.out" 2>&1 &&
    bad "slurm overwrites a results file" || ok "slurm refuses a non-empty results file"

# --dry-run: the sbatch command lines; the user's sbatch options go to
# every job, except what the decider sets itself (--output).
SBATCH=sbatch sh "$ABS/medan-slurm-match" 2 --time=5 --output=o.log -- --dry-run "$@" \
    --results "$T/dry'1.jsonl" >"$T/dry.out" 2>&1
check "$?/$(wc -l <"$T/dry.out" | tr -d ' ')" "0/2" "slurm --dry-run: two sbatch commands, nothing submitted"
head -1 "$T/dry.out" | grep -q "^'sbatch' '--parsable' .*'--array=1-2' '--time=5' '--output=o.log' '--wrap' " &&
    sed -n 2p "$T/dry.out" | grep -q "'--dependency=afterany:JOB' .*'--open-mode=append' '--time=5' '--wrap' 'exec '" &&
    ! sed -n 2p "$T/dry.out" | sed 's/--wrap.*//' | grep -q "o.log" &&
    ! sed -n 2p "$T/dry.out" | grep -q "dry-run" &&
    ok "slurm --dry-run: the array and its decider (afterany; no --dry-run in it), the user's options but --output for both" ||
    bad "slurm --dry-run: $(cat "$T/dry.out")"
[ ! -e "$T/dry'1.jsonl.table" ] && ok "slurm --dry-run writes nothing" || bad "slurm --dry-run wrote the table"

# The referee's other spellings reach every shard: -variant (a hidden-
# information game: one key for all shards), -pgnout (each shard its own
# records file, gathered at the end), -srand, -games.
bat="-variant battalion players=3 -engine name=r1 cmd=$ABS/medan-battalion option.Strategy=random
     -engine name=r2 cmd=$ABS/medan-battalion option.Strategy=random -each st=2 -games 6 -srand 3
     --logdir none"
SBATCH=$FAKE sh "$ABS/medan-slurm-match" 2 $bat -pgnout "$T/bat.pgn" min --results "$T/bat.jsonl" \
    >"$T/bat.out" 2>&1
check "$?/$(wc -l <"$T/bat.jsonl" | tr -d ' ')/$(grep -c '^\[Result ' "$T/bat.pgn")" "0/6/6" \
    "slurm: -variant battalion -pgnout F: 6 games merged, 6 records gathered"
[ -s "$T/bat.jsonl.key" ] && ok "slurm: the shards of a hidden-information game share F.key" ||
    bad "slurm: no key file"
[ -s "$T/bat.pgn.shard-1-of-2" ] && [ -s "$T/bat.pgn.shard-2-of-2" ] &&
    ok "slurm: each shard wrote its own records file" || bad "slurm: the shards' records files"
$REF $bat --key-file "$T/bat.jsonl.key" --quiet --results "$T/bat1.jsonl" >/dev/null 2>&1
same "$T/bat1.jsonl" "$T/bat.jsonl" && ok "slurm, hidden information: the same deals and games as one run with the key" ||
    bad "slurm, hidden information: other deals"
SBATCH=$FAKE sh "$ABS/medan-slurm-match" 2 --game loa --engine cmd=x --engine cmd=y \
    --gmaes 4 --results "$T/bad.jsonl" >"$T/bad.out" 2>&1 &&
    bad "slurm accepts a misspelt option" ||
    { grep -q 'unknown argument --gmaes; did you mean --games?' "$T/bad.out" && [ ! -e "$T/bad.jsonl.table" ] &&
        ok "slurm: a bad option fails once, at submission" || bad "slurm: $(cat "$T/bad.out")"; }

# --- batches over real ssh hosts without a shared file system ------------------
# (tests/cluster/sshd-up.sh: two logins, each with its own home): every
# batch sends each shard its file so far (--transferfile), so a shard that
# lands on the other host plays nothing twice (that replay itself is
# checked by tests/cluster/run-ssh-real.sh).
SS=$T/sshd
if command -v parallel >/dev/null 2>&1 &&
    (sh "$HERE/cluster/sshd-up.sh" "$SS" node1 node2 >"$T/sshd.env" 2>"$T/sshd.err"); then
    . "$T/sshd.env"
    mkdir -p "$T/ctl/match"
    (cd "$T/ctl/match" && HOME=$T/ctl "$ABS/medan-referee" parallel --shards 2 --batch 10 \
        --sshlogin 1/node1 --sshlogin 1/node2 "$@" --results r.jsonl >"$T/ssh.out" 2>&1)
    check $? 0 "ssh --sprt: exit 0"
    same "$T/one.jsonl" "$T/ctl/match/r.jsonl" && ok "ssh --sprt: the merged games = the single run's" ||
        bad "ssh --sprt: merged games differ: $(grep -e '^Batch' -e decided "$T/ssh.out")"
    grep -q "^SPRT decided at game $d (H1 accepted" "$T/ssh.out" &&
        ok "ssh --sprt: decided at the single run's game ($d)" || bad "ssh --sprt: $(tail -3 "$T/ssh.out")"
    [ -z "$(dups "$T/ctl/match/r.jsonl.shard-1-of-2")$(dups "$T/ctl/match/r.jsonl.shard-2-of-2")" ] &&
        ok "ssh --sprt: no game twice in a shard's file" || bad "ssh --sprt: games played twice"
    sh "$HERE/cluster/sshd-down.sh" "$SS" >/dev/null 2>&1
    SS=""
else
    echo "skipped: ssh hosts: $(tail -1 "$T/sshd.err" 2>/dev/null)"
    SS=""
fi

# --- a real one-node Slurm (tests/cluster) --------------------------------------
SL=$T/slurm
if (sh "$HERE/cluster/slurm-up.sh" "$SL" >"$T/slurm-up.env" 2>"$T/slurm-up.err"); then
    eval "$(cat "$T/slurm-up.env")"
    export SLURM_CONF
    PATH=$PATH:/usr/sbin
    # wait_table F: until the deciders are done (bounded: a hang guard).
    wait_table() {
        i=0
        while [ $i -lt 600 ] && ! grep -q -e '^Results (' -e '^Games still missing' "$1" 2>/dev/null; do
            sleep 1
            i=$((i + 1))
        done
        j=0
        while [ $j -lt 60 ] && [ -n "$(squeue -h 2>/dev/null)" ]; do sleep 1; j=$((j + 1)); done
    }
    mkdir "$T/rs"
    r="$T/rs/it's.jsonl"
    (cd "$T/rs" && sh "$ABS/medan-slurm-match" 2 --batch 10 "$@" --results "$r" >"$T/rs.out" 2>&1)
    check $? 0 "real Slurm --sprt: submitted"
    wait_table "$r.table"
    same "$T/one.jsonl" "$r" && ok "real Slurm --sprt: the merged games = the single run's" ||
        bad "real Slurm --sprt: merged games differ: $(cat "$r.table" "$T/rs.out")"
    grep -q "^SPRT decided at game $d (H1 accepted" "$r.table" &&
        ok "real Slurm --sprt: decided at the single run's game ($d)" ||
        bad "real Slurm --sprt: $(grep -e '^Batch' -e decided "$r.table")"
    # scancel of a running task: the next batch plays its missing games.
    r="$T/rs/cancel.jsonl"
    (cd "$T/rs" && sh "$ABS/medan-slurm-match" 2 --batch 8 $k --results "$r" >"$T/rc.out" 2>&1)
    # task 1 of whichever batch runs, once shard 1 has a game
    cancelled=""
    i=0
    while [ $i -lt 3000 ] && [ -z "$cancelled" ] && ! grep -q '^Results (' "$r.table" 2>/dev/null; do
        if [ -s "$r.shard-1-of-2" ] && [ "$(wc -l <"$r.shard-1-of-2")" -lt 10 ]; then
            t1=$(squeue -h -t R -n medan-match -o %i 2>/dev/null | grep '_1$' | head -1)
            [ -n "$t1" ] && scancel "$t1" 2>/dev/null && cancelled=$t1
        fi
        sleep 0.1
        i=$((i + 1))
    done
    wait_table "$r.table"
    if [ -n "$cancelled" ] && grep -q '^Batch [0-9]*: .* [1-9][0-9]* missing' "$r.table"; then
        ok "real Slurm: scancel of a running task ($cancelled) left games missing"
        same "$T/k1.jsonl" "$r" && ok "real Slurm: after scancel the next batch played exactly the missing games (= the single run)" ||
            bad "real Slurm: after scancel the merged games differ: $(grep '^Batch' "$r.table")"
        [ -z "$(dups "$r.shard-1-of-2")" ] && ok "real Slurm: after scancel no game played twice" ||
            bad "real Slurm: games played twice"
    else
        echo "skipped: real Slurm scancel: no game missing (task 1 not running when cancelled)"
        same "$T/k1.jsonl" "$r" && ok "real Slurm: the batched match = the single run" ||
            bad "real Slurm: merged games differ"
    fi
    # SPSA: each iteration one array job, waited for (sbatch --wait); the
    # state file of the same run in one process, byte for byte.
    set -- --game loa --engine cmd="$ABS/medan-loa" nodes=500 \
        --param Weights.concentration,20,0,100,5,0.002 --param SearchParams.futility_margin,100,0,400,20,0.002 \
        --iterations 2 --pairs 2 --seed 3 --openings random-plies=4
    $REF tune "$@" --state "$T/rs/tune1.json" >/dev/null 2>&1
    (cd "$T/rs" && timeout 600 "$ABS/medan-referee" slurm 2 --cpus-per-task=1 -- tune "$@" --state tune2.json \
        >"$T/rt.out" 2>&1)
    check $? 0 "real Slurm tune: 2 iterations as 2 array jobs of 2 tasks"
    cmp -s "$T/rs/tune1.json" "$T/rs/tune2.json" && ok "real Slurm tune: the one-process state file, byte for byte" ||
        bad "real Slurm tune: $(diff "$T/rs/tune1.json" "$T/rs/tune2.json" | head -c 400) $(tail -3 "$T/rt.out")"
    sh "$HERE/cluster/slurm-down.sh" "$SL" >/dev/null 2>&1
    SL=""
else
    [ $? = 77 ] && echo "skipped: real Slurm: $(tail -1 "$T/slurm-up.err")" ||
        bad "real Slurm: slurm-up.sh failed: $(tail -3 "$T/slurm-up.err")"
    SL=""
fi

[ $fail = 0 ] && echo "batch tests: all $n passed" || echo "batch tests: FAILED" >&2
exit $fail
