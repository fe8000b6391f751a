#!/bin/sh
# medan-referee tune (SPSA): the synthetic problem (tests/mock/spsa-nim.c,
# whose strength is a known function of its options) solved from a start
# far from the optimum; the same command twice gives the same trajectory;
# kill -9 and the same command again continues to that same trajectory;
# bounds respected; the values an engine is sent; refused input; a short
# run of LOA (Weights and SearchParams entries), Fetlar (two Weights
# entries), Palagan (a spin; a real SearchParams entry, twice: the same
# run) and Battalion (four seats: theta+, theta-, theta over rotated
# deals, twice: the same run; a real SearchParams entry likewise, and
# oracle refused by the engine); the
# report's parameter paths; every file of tuning/ taken by its engine;
# a batched run stopped by TERM to its controller alone leaves no process.
# Everything runs under deterministic limits
# (the mock answers at once; the real engines under depth= or nodes=), so
# a busy machine changes the time taken, never a result.
#   usage: sh tests/run-tune.sh BUILD BIN
set -u
BUILD=${1:-build}
BIN=${2:-bin}
REF=$BIN/medan-referee
MOCK=$BUILD/mock/spsa-nim
T=$(mktemp -d "${TMPDIR:-/tmp}/tune-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/check-lib.sh"

# state FILE EXPR: a Python expression over the state s (json) printed
state() { python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print($2)" "$1"; }

# --- the synthetic problem: optimum Skill 700, Temper 0.35, bias 40 ---------
start=$(date +%s)
$REF tune --game nim heaps=5,7,9 --engine cmd="$MOCK" nodes=1 \
    --param Skill,100,0,1000,100,0.06 --param Temper,0.9,0,1,0.1,0.06 \
    --param Weights.bias,-60,-100,100,20,0.06 \
    --iterations 250 --pairs 2 --progress 50 --seed 1 \
    --state "$T/conv.json" >"$T/conv.out" 2>"$T/conv.err"
check $? 0 "synthetic problem: exit 0"
echo "     (synthetic problem: 1000 games in $(($(date +%s) - start)) s; load $(cut -d' ' -f1 /proc/loadavg))"
check "$(state "$T/conv.json" "s['k'], s['games']")" "250 1000" "synthetic problem: 250 iterations of 2 pairs"
v=$(state "$T/conv.json" "' '.join('%.4g' % x for x in s['theta'])")
echo "     (tuned: Skill Temper bias = $v; optimum 700 0.35 40; start 100 0.9 -60)"
check "$(state "$T/conv.json" "abs(s['theta'][0] - 700) <= 100")" True "synthetic problem: Skill (integer) within 100 of 700"
check "$(state "$T/conv.json" "abs(s['theta'][1] - 0.35) <= 0.1")" True "synthetic problem: Temper (real) within 0.1 of 0.35"
check "$(state "$T/conv.json" "abs(s['theta'][2] - 40) <= 20")" True "synthetic problem: Weights.bias (named-int entry) within 20 of 40"
check "$(state "$T/conv.json" "[h['k'] for h in s['history']] == list(range(0, 251, 50))")" True \
    "synthetic problem: the path every --progress iterations, from the start"
check "$(grep -c '^tune: iteration' "$T/conv.err")" 5 "synthetic problem: a progress line every 50 iterations"
grep -q '^Engine keys: option.Skill=[0-9]* option.Temper=[0-9.]* option.Weights=bias=[0-9-]*$' "$T/conv.out" &&
    ok "synthetic problem: the tuned values as engine keys" || bad "no engine keys line: $(cat "$T/conv.out")"

# --- the same command twice: the same trajectory; kill -9 and continue -----
short() {
    $REF tune --game nim heaps=5,7,9 --engine cmd="$MOCK" nodes=1 \
        --param Skill,100,0,1000,100,0.06 --param Temper,0.9,0,1,0.1,0.06 \
        --iterations 60 --progress 5 --seed 7 "$@"
}
short --state "$T/a.json" >/dev/null 2>&1
check $? 0 "determinism: a first run"
short --state "$T/b.json" --concurrency 2 >/dev/null 2>&1
cmp -s "$T/a.json" "$T/b.json" && ok "determinism: the same command (and --concurrency 2) gives the same state, path and games" ||
    bad "determinism: two runs differ: $(diff "$T/a.json" "$T/b.json" | head -c 600)"
short --state "$T/c.json" --seed 8 >/dev/null 2>&1
cmp -s "$T/a.json" "$T/c.json" && bad "another --seed gives the same run" || ok "determinism: another --seed, another run"

# the referee itself in the background (a simple command: $! is its pid)
$REF tune --game nim heaps=5,7,9 --engine cmd="$MOCK" nodes=1 \
    --param Skill,100,0,1000,100,0.06 --param Temper,0.9,0,1,0.1,0.06 \
    --iterations 60 --progress 5 --seed 7 --state "$T/k.json" >"$T/k1.out" 2>&1 &
pid=$!
i=0
while [ $i -lt 600 ]; do
    k=$(state "$T/k.json" "s['k']" 2>/dev/null || echo 0)
    [ "${k:-0}" -ge 12 ] && break
    sleep 0.05
    i=$((i + 1))
done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
kill -0 $pid 2>/dev/null && bad "resume: the killed referee still runs"
k=$(state "$T/k.json" "s['k']")
[ "$k" -ge 12 ] && [ "$k" -lt 60 ] && ok "resume: killed (-9) after iteration $k" ||
    bad "resume: the kill came at k=$k (want 12..59)"
short --state "$T/k.json" >"$T/k2.out" 2>"$T/k2.err"
check $? 0 "resume: the same command again: exit 0"
grep -q "resuming .* after iteration $k of 60" "$T/k2.err" && ok "resume: says where it continues" ||
    bad "resume: no resuming line: $(head -3 "$T/k2.err")"
cmp -s "$T/a.json" "$T/k.json" && ok "resume: the resumed run ends where the uninterrupted one does (state, path, games)" ||
    bad "resume: differs: $(diff "$T/a.json" "$T/k.json" | head -c 600)"
cp "$T/a.json" "$T/a.keep"
short --state "$T/a.json" --seed 9 >/dev/null 2>"$T/other.err"
check $? 1 "resume: a state file of another run is refused"
grep -q "is from another run" "$T/other.err" && cmp -s "$T/a.json" "$T/a.keep" &&
    ok "resume: ... with a reason, the file unchanged" || bad "resume: $(cat "$T/other.err")"
echo '{"medan_tune": 1, "k": "x"' >"$T/broken.json"
short --state "$T/broken.json" >/dev/null 2>"$T/broken.err"
check $? 1 "resume: a damaged state file is refused"
# Values no run can write: refused on load with the reason (exit 1, the file
# as it was), not resumed and saved (issue 39 item 13).
for edit in "s['history'][1]['theta'][0] = 1e300" "s['theta'][1] = 1e300" \
            "s['history'][1]['k'] = -5" "s['history'][2]['k'] = 1" "s['games'] = -4" \
            "s['games'] = 2**62" "s['wins'] = -1; s['losses'] += 1" "s['draws'] = 1"; do
    python3 -c "import json,sys; s=json.load(open(sys.argv[1])); $edit; json.dump(s, open(sys.argv[2], 'w'))" \
        "$T/a.keep" "$T/odd.json"
    cp "$T/odd.json" "$T/odd.keep"
    short --state "$T/odd.json" >"$T/odd.out" 2>"$T/odd.err"; rc=$?
    check "$rc/$(count "state $T/odd.json: damaged" "$T/odd.err")/$(cmp -s "$T/odd.json" "$T/odd.keep" && echo same)" \
        "1/1/same" "resume: a state with $edit is refused ($(head -c 150 "$T/odd.err"))"
done
# A state file that cannot be written stops the run: exit 2 as any run that
# stops early (docs/referee.md, Exit status), not 1 (a usage error).
short --iterations 2 --state "$T/no-such-dir/s.json" >/dev/null 2>"$T/nodir.err"; rc=$?
check "$rc/$(count 'cannot write the state file' "$T/nodir.err")" "2/1" \
    "a state file that cannot be written: exit 2 with the reason"

# --- bounds: start at the edge, a perturbation far past it ------------------
# The mock refuses a Skill outside 0..1000 and a Temper outside 0..1 (the
# match would stop, exit 2): every value sent is within [min, max].
$REF tune --game nim --engine cmd="$MOCK" nodes=1 --param Skill,1000,0,1000,900,0.5 \
    --param Temper,0,0,1,5,0.5 --iterations 20 --seed 3 --state "$T/edge.json" >/dev/null 2>"$T/edge.err"
check $? 0 "bounds: perturbations past min and max are clamped (the engine accepted every value)"
check "$(state "$T/edge.json" "all(0 <= s['theta'][0] <= 1000 and 0 <= s['theta'][1] <= 1 for _ in [0])")" True \
    "bounds: theta stays within [min, max]"

# --- what the engines are sent (the protocol trace) -------------------------
$REF tune --game nim --engine cmd="$MOCK" nodes=1 option.Weights=bias=3 \
    --param Skill,500,0,1000,10,0.002 --param Weights.bias,10,-100,100,5,0.002 \
    --iterations 1 --seed 5 --logdir "$T/logs" --trace >/dev/null 2>&1
check $? 0 "trace: a run of one iteration"
cat "$T"/logs/* >"$T/trace.txt" 2>/dev/null
grep -Eq 'setoption name Skill value (49[0-9]|50[0-9]|51[01])$' "$T/trace.txt" &&
    ok "trace: Skill sent as an integer near 500 +- 10" || bad "trace: no integer Skill: $(grep -m3 setoption "$T/trace.txt")"
grep -Eq 'setoption name Weights value bias=3,bias=(5|6|7|8|9|1[0-5])$' "$T/trace.txt" &&
    ok "trace: Weights keeps the engine's own entries and adds the tuned one after them" ||
    bad "trace: Weights: $(grep -m3 'name Weights' "$T/trace.txt")"
$REF tune --game nim --engine cmd="$MOCK" nodes=1 --param Skill,500.5,0,1000,10,0.002 \
    --iterations 3 >/dev/null 2>"$T/real.err"
check $? 2 "a real parameter (500.5) for a spin option: the match stops (exit 2)"
grep -q "option Skill=[0-9.]* refused: bad_value" "$T/real.err" && ok "... naming the option the engine refused" ||
    bad "real for spin: $(cat "$T/real.err")"
# A real entry is sent as one (%.6g); the mock's Weights holds integers and
# refuses it, so the match stops naming the option (an engine with real
# entries, Palagan's SearchParams below, takes it).
$REF tune --game nim --engine cmd="$MOCK" nodes=1 --param Weights.bias,1.5,0,10,1,0.1 \
    --iterations 1 --logdir "$T/rlogs" --trace >/dev/null 2>"$T/realent.err"
check $? 2 "a real entry (Weights.bias 1.5) is tuned as a real: the integer engine refuses it (exit 2)"
grep -q "option Weights=bias=[0-9.]* refused: bad_value" "$T/realent.err" &&
    cat "$T"/rlogs/* 2>/dev/null | grep -Eq 'setoption name Weights value bias=[0-9]+\.[0-9]+$' &&
    ok "... sent with its fraction, naming the option the engine refused" ||
    bad "real entry: $(cat "$T/realent.err")"

# --- refused input ----------------------------------------------------------
refuse() {
    want=$1
    shift
    $REF tune "$@" >/dev/null 2>"$T/refuse.err"
    rc=$?
    if [ $rc -eq 1 ] && grep -qi -- "$want" "$T/refuse.err"; then ok "refused: $want"
    else bad "not refused ($rc): $* : $(head -c 300 "$T/refuse.err")"; fi
}
E="--game nim --engine cmd=$MOCK nodes=1 --iterations 2"
refuse "min must be below max" $E --param Skill,5,10,0,1,0.1
refuse "start must be within" $E --param Skill,50,0,10,1,0.1
refuse "is not a number" $E --param Skill,x,0,10,1,0.1
refuse "want name,start,min,max,c_end,r_end" $E --param Skill,1,0,10,1
refuse "c_end and r_end must be above 0" $E --param Skill,1,0,10,0,0.1
refuse "is given twice" $E --param Skill,1,0,10,1,0.1 --param skill,1,0,10,1,0.1
refuse "a parameter is an option name" $E --param 'Sk ill,1,0,10,1,0.1'
refuse "tune sets itself" $E --param Skill,1,0,10,1,0.1 --results "$T/r.jsonl"
refuse "one --engine" $E --engine cmd=$MOCK --param Skill,1,0,10,1,0.1
refuse "usage" --game nim --engine cmd=$MOCK nodes=1 --param Skill,1,0,10,1,0.1
refuse "bad --spsa setting" $E --param Skill,1,0,10,1,0.1 --spsa alpha=2
printf '# comment\nSkill, 1, 0, 10, 1, 0.1\nTemper,0.5,0,1,0.1\n' >"$T/p.txt"
refuse "p.txt:3:" $E --params "$T/p.txt"
[ ! -e "$T/r.jsonl" ] && ok "refused: nothing written" || bad "refused input wrote a file"

# --- batched: each iteration one batch of shards (parallel, Slurm) ---------
# The same games as in one process: the state file byte for byte, whatever
# runs the shards; a shard lost is played again; kill -9 of everything in
# the middle of an iteration and the same command again ends where the
# uninterrupted run does.
HERE=$(cd "$(dirname "$0")" && pwd)
iters() { ls "$T" | grep -c '\.iter-' || true; }
# the iteration files left, named (for a failed check's message)
left() { [ "$(iters)" = 0 ] || echo " (left: $(ls "$T" | grep '\.iter-' | tr '\n' ' '))"; }
# tree PID: PID and every process below it
tree() { echo "$1"; for c in $(pgrep -P "$1"); do tree "$c"; done; }
bt() {
    $REF "$@" --game nim heaps=5,7,9 --engine cmd="$MOCK" nodes=1 \
        --param Skill,100,0,1000,100,0.06 --param Temper,0.9,0,1,0.1,0.06 \
        --param Weights.bias,-60,-100,100,20,0.06 --iterations 20 --pairs 2 --progress 5 --seed 7
}
bl() {
    $REF "$@" --game loa --engine cmd="$BIN/medan-loa" nodes=500 \
        --param Weights.concentration,20,0,100,5,0.002 --param SearchParams.futility_margin,100,0,400,20,0.002 \
        --iterations 4 --pairs 4 --progress 1 --seed 3 --openings file=openings/loa.epd start=7
}
bt tune --state "$T/bt1.json" >/dev/null 2>&1
check $? 0 "batched: the synthetic problem in one process (20 iterations of 2 pairs)"
bl tune --state "$T/bl1.json" >/dev/null 2>&1
check $? 0 "batched: LOA nodes=500 from the suite at start=7 in one process (4 iterations of 4 pairs)"
if command -v parallel >/dev/null 2>&1; then
    start=$(date +%s)
    bt parallel --shards 2 tune --state "$T/bt2.json" >"$T/bt2.out" 2>"$T/bt2.err"
    check $? 0 "parallel tune: exit 0 ($(($(date +%s) - start)) s)"
    cmp -s "$T/bt1.json" "$T/bt2.json" && ok "parallel tune: 2 shards give the one-process state file, byte for byte" ||
        bad "parallel tune: differs: $(diff "$T/bt1.json" "$T/bt2.json" | head -c 600)"
    grep -q '^Engine keys: ' "$T/bt2.out" && check "$(grep -c '^tune: iteration' "$T/bt2.err")" 4 \
        "parallel tune: the progress lines and the final table of one process"
    check "$(iters)" 0 "parallel tune: each iteration's files removed once it is in the state file$(left)"
    start=$(date +%s)
    bl parallel --shards 2 tune --state "$T/bl2.json" >/dev/null 2>"$T/bl2.err"
    check $? 0 "parallel tune: LOA, exit 0 ($(($(date +%s) - start)) s)"
    cmp -s "$T/bl1.json" "$T/bl2.json" && ok "parallel tune: LOA from the book (start= of every iteration): the one-process state file" ||
        bad "parallel tune: LOA differs: $(diff "$T/bl1.json" "$T/bl2.json" | head -c 600) $(tail -3 "$T/bl2.err")"
    # kill -9 of the whole run (controller, GNU parallel, shards, engines:
    # a node that dies) once iteration 2 or later has games in a shard file
    $REF parallel --shards 2 tune --game loa --engine cmd="$BIN/medan-loa" nodes=500 \
        --param Weights.concentration,20,0,100,5,0.002 --param SearchParams.futility_margin,100,0,400,20,0.002 \
        --iterations 4 --pairs 4 --progress 1 --seed 3 --openings file=openings/loa.epd start=7 \
        --state "$T/bk.json" >/dev/null 2>&1 &
    pid=$!
    i=0
    while [ $i -lt 1200 ] && kill -0 $pid 2>/dev/null; do
        f=$(ls "$T"/bk.json.iter-[234].jsonl.shard-*-of-2 2>/dev/null | head -1)
        [ -n "$f" ] && [ -s "$f" ] && break
        sleep 0.05
        i=$((i + 1))
    done
    # GNU parallel starts each shard in a process group of its own: stop
    # the whole tree, then kill every process of it
    all=$(tree $pid)
    kill -STOP $all 2>/dev/null
    all=$(tree $pid)
    kill -9 $all 2>/dev/null
    wait $pid 2>/dev/null
    k=$(state "$T/bk.json" "s['k']" 2>/dev/null || echo none)
    partial=$(cat "$T"/bk.json.iter-*.jsonl.shard-*-of-2 2>/dev/null | wc -l | tr -d ' ')
    if [ "$k" != none ] && [ "$k" -lt 4 ]; then
        ok "parallel tune: killed (-9, every process) after iteration $k, $partial game(s) of the next in its shard files"
        bl parallel --shards 2 tune --state "$T/bk.json" >/dev/null 2>"$T/bk.err"
        check $? 0 "parallel tune: the same command again: exit 0"
        grep -q "resuming .* after iteration $k of 4" "$T/bk.err" && cmp -s "$T/bl1.json" "$T/bk.json" &&
            ok "parallel tune: the resumed run ends where the one-process run does" ||
            bad "parallel tune: resumed: $(diff "$T/bl1.json" "$T/bk.json" | head -c 600) $(tail -3 "$T/bk.err")"
    else
        echo "skipped: parallel tune kill -9: the run ended before it could be killed (k=$k)"
    fi
    # kill (TERM) of the controller alone, as a user stops a run: GNU
    # parallel and its shards stop with it at once (nothing is left writing
    # to the shard files; an iteration here takes several seconds, so
    # shards left behind would still be playing), and the same command
    # again finishes the run
    bs() { # exec: in the background, $! is the referee itself
        exec $REF parallel --shards 2 tune --game loa --engine cmd="$BIN/medan-loa" nodes=60000 \
            --param Weights.concentration,20,0,100,5,0.002 --iterations 2 --pairs 4 --seed 3 \
            --openings file=openings/loa.epd --state "$T/bs.json"
    }
    bs >/dev/null 2>"$T/bs.err" &
    pid=$!
    i=0
    while [ $i -lt 1200 ] && kill -0 $pid 2>/dev/null; do
        f=$(ls "$T"/bs.json.iter-1.jsonl.shard-*-of-2 2>/dev/null | head -1)
        [ -n "$f" ] && [ -s "$f" ] && break
        sleep 0.05
        i=$((i + 1))
    done
    if [ -z "$(ls "$T"/bs.json.iter-1.jsonl.shard-*-of-2 2>/dev/null | xargs cat 2>/dev/null | sed -n 8p)" ] &&
        kill -TERM $pid 2>/dev/null; then
        { wait $pid; } 2>/dev/null
        rc=$?
        i=0
        while [ $i -lt 60 ] && pgrep -f "$T/bs.json" >/dev/null; do # 3 s of grace
            sleep 0.05
            i=$((i + 1))
        done
        check "$rc/$(pgrep -f "$T/bs.json" | wc -l | tr -d ' ')" "143/0" \
            "parallel tune: TERM to the controller alone: it ends by it (143), no process of the run left"
        grep -q "stopped by signal 15" "$T/bs.err" && ok "... and says so" || bad "TERM: $(tail -2 "$T/bs.err")"
        (bs >/dev/null 2>"$T/bs2.err")
        check "$?/$(state "$T/bs.json" "s['k'], s['games']")" "0/2 16" \
            "parallel tune: after TERM the same command again finishes the run"
    else
        echo "skipped: parallel tune TERM: iteration 1 ended before it could be stopped"
    fi
    $REF parallel --shards 2 --dry-run tune --game nim --engine cmd="$MOCK" nodes=1 \
        --param Skill,500,0,1000,10,0.002 --iterations 3 --seed 5 --state "$T/dry.json" >"$T/dry.out" 2>/dev/null
    check "$?/$(test -e "$T/dry.json" && echo state)" 0/ "parallel tune --dry-run: exit 0, no state written"
    o=$(cat "$T/dry.out")
    case "$o" in
    "'parallel' "*name=theta-plus*option.Skill=*name=theta-minus*option.Skill=*--games*--seed*"--shard'\\'' {}'\\''/2'\\''"*"':::' '1' '2'") true ;;
    *) false ;;
    esac &&
        ok "parallel tune --dry-run: iteration 1's GNU parallel command (values, games, seed, shards)" ||
        bad "parallel tune --dry-run: $(cat "$T/dry.out")"
else
    echo "skipped: parallel tune: GNU parallel is not installed (Debian: parallel)"
fi
# Slurm (the fake sbatch: an array job runs at once, as sbatch --wait
# returns when it is done); task 2 of the first array cancelled.
echo 2 >"$T/cancel"
SBATCH="sh $HERE/mock/fake-sbatch.sh" FAKE_SBATCH_CANCEL="$T/cancel" FAKE_SBATCH_LOG="$T/sb.log" \
    bt slurm 2 --time=5 -- tune --state "$T/bt3.json" >/dev/null 2>"$T/bt3.err"
check $? 0 "slurm tune (fake sbatch): exit 0"
cmp -s "$T/bt1.json" "$T/bt3.json" && ok "slurm tune: the one-process state file, byte for byte" ||
    bad "slurm tune: differs: $(diff "$T/bt1.json" "$T/bt3.json" | head -c 600)"
check "$(grep -c -- '^sbatch --parsable --wait .*--array=1-2 --time=5 --wrap ' "$T/sb.log")/$(grep -c 'iter-1\.jsonl' "$T/sb.log")" 21/2 \
    "slurm tune: an array job a batch, waited for, the user's sbatch options; the cancelled task's games in a second batch"
check "$(iters)" 0 "slurm tune: no iteration files left$(left)"
# refused, or stopped with the reason and the state at the last iteration
$REF parallel --shards 2 tune --game nim --engine cmd="$MOCK" nodes=1 --param Skill,1,0,10,1,0.1 \
    --iterations 2 >/dev/null 2>"$T/r1.err"
check "$?/$(grep -c 'needs --state FILE' "$T/r1.err")" 1/1 "batched tune: refused without --state"
$REF parallel --shards 2 --batch 4 tune --game nim --engine cmd="$MOCK" nodes=1 --param Skill,1,0,10,1,0.1 \
    --iterations 2 --state "$T/r.json" >/dev/null 2>"$T/r2.err"
check "$?/$(grep -c 'each iteration' "$T/r2.err")" 1/1 "batched tune: --batch refused"
$REF parallel --shards 2 tune --game battalion players=3 --engine cmd="$BIN/medan-battalion" st=1 \
    --param Inference,80,0,100,10,0.02 --iterations 2 --state "$T/r.json" >/dev/null 2>"$T/r3.err"
check "$?/$(grep -c 'plays two-seat games' "$T/r3.err")" 1/1 "batched tune: Battalion (N seats) refused with the reason"
if command -v parallel >/dev/null 2>&1; then
    $REF parallel --shards 2 tune --game nim heaps=5,7,9 --engine cmd="$T/no-such-engine" nodes=1 \
        --param Skill,1,0,10,1,0.1 --iterations 2 --state "$T/stop.json" >/dev/null 2>"$T/r4.err"
    check "$?" 2 "batched tune: an engine that does not start: exit 2"
    grep -q 'iteration 1: games still missing after the shards ran three times' "$T/r4.err" &&
        grep -q 'shard 1: .*cannot start' "$T/r4.err" && [ ! -e "$T/stop.json" ] &&
        ok "batched tune: ... with each shard's reason, no iteration counted" || bad "batched tune: $(cat "$T/r4.err")"
    rm -f "$T"/stop.json*
fi
check "$(iters)" 0 "batched tests: no iteration files left$(left)"

# --- report --html --tune: each parameter's path ---------------------------
$REF report --tune "$T/conv.json" --html "$T/tune.html" --title 'SPSA <nim>' >"$T/rep.out" 2>&1
check $? 0 "report --tune: exit 0"
check "$(grep -c '<polyline' "$T/tune.html")" 3 "report --tune: a path per parameter"
for h in '<h2>Skill</h2>' '<h2>Temper</h2>' '<h2>Weights.bias</h2>' 'over 250 of 250 iterations' \
    'SPSA &lt;nim&gt;'; do
    grep -qF "$h" "$T/tune.html" || bad "report --tune: no '$h'"
done
ok "report --tune: the sections, an escaped title"
python3 - "$T/conv.json" "$T/hostile.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s['settings']['game'] = '<img src=x onerror=alert(1)>'
s['settings']['parameters'][0]['name'] = '<script>alert(1)</script>"\'&'
json.dump(s, open(sys.argv[2], 'w'))
PY
$REF report --tune "$T/hostile.json" --html "$T/hostile.html" >/dev/null 2>&1
check $? 0 "report --tune: a forged state with markup in its names"
grep -Eq '<script|<img' "$T/hostile.html" && bad "report --tune: markup from the state file reached the page" ||
    ok "report --tune: names and game escaped (no element from the file)"
grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;' "$T/hostile.html" &&
    ok "report --tune: ... shown as text" || bad "report --tune: the name is not shown as text"
python3 - "$T/conv.json" "$T/range.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s['history'][1]['theta'][0] = 1e300
json.dump(s, open(sys.argv[2], 'w'))
PY
for f in "$T/range.json" /dev/zero "$T" "$T/missing.json"; do
    $REF report --tune "$f" --html "$T/no.html" >/dev/null 2>"$T/no.err"
    r=$?
    if [ $r -eq 1 ] && [ ! -e "$T/no.html" ]; then ok "report --tune refuses $(basename "$f"), writes nothing"
    else bad "report --tune $f: exit $r: $(cat "$T/no.err")"; fi
done

# --- every game: LOA, Palagan, Battalion (three seats) ----------------------
$REF tune --game loa --engine cmd="$BIN/medan-loa" depth=1 \
    --param Weights.concentration,20,0,100,5,0.002 --param SearchParams.futility_margin,100,0,400,20,0.002 \
    --iterations 2 --pairs 1 --openings file=openings/loa.epd --state "$T/loa.json" >"$T/loa.out" 2>&1 ||
    bad "loa: $(tail -3 "$T/loa.out")"
check "$(state "$T/loa.json" "s['k'], s['games']")" "2 4" "loa: Weights and SearchParams entries, 2 iterations from the suite"
$REF tune --game fetlar --engine cmd="$BIN/medan-fetlar" depth=1 \
    --param Weights.att,100,0,400,10,0.002 --param Weights.tempo,10,0,100,4,0.002 \
    --iterations 2 --openings file=openings/fetlar.epd --state "$T/fet.json" >"$T/fet.out" 2>&1 ||
    bad "fetlar: $(tail -3 "$T/fet.out")"
check "$(state "$T/fet.json" "s['k'], s['games']")" "2 4" "fetlar: two Weights entries in one option, 2 iterations from the suite"
grep -q '^Engine keys: option.Weights=att=[0-9]*,tempo=[0-9]*$' "$T/fet.out" &&
    ok "fetlar: both entries in one option value" || bad "fetlar: $(tail -1 "$T/fet.out")"
$REF tune --game palagan size=4 --engine cmd="$BIN/medan-palagan" nodes=200 \
    --param GraveRef,25,1,200,5,0.002 --iterations 2 --state "$T/pal.json" >"$T/pal.out" 2>&1 ||
    bad "palagan: $(tail -3 "$T/pal.out")"
check "$(state "$T/pal.json" "s['k'], s['games']")" "2 4" "palagan: a spin, 2 iterations"
# Real entries of SearchParams (Palagan's uct_c, Battalion's explore): two
# iterations, the same command twice (the same run), then once more on the
# first state file (a finished run: nothing is played, the file is kept).
for i in 1 2; do
    $REF tune --game palagan size=4 --engine cmd="$BIN/medan-palagan" nodes=200 \
        --param SearchParams.uct_c,0.2,0.05,1,0.03,0.002 --iterations 2 --seed 4 \
        --logdir "$T/plogs$i" --trace --state "$T/pals$i.json" >"$T/pals.out" 2>&1 ||
        bad "palagan SearchParams: $(tail -3 "$T/pals.out")"
done
check "$(state "$T/pals1.json" "s['k'], s['games'], s['settings']['parameters'][0]['integer']")" \
    "2 4 False" "palagan: SearchParams.uct_c, a real entry, 2 iterations"
cmp -s "$T/pals1.json" "$T/pals2.json" && ok "palagan: SearchParams.uct_c, the same command, the same run" ||
    bad "palagan: SearchParams: two runs differ: $(diff "$T/pals1.json" "$T/pals2.json" | head -c 600)"
cat "$T"/plogs1/* 2>/dev/null | grep -Eq 'setoption name SearchParams value uct_c=0\.[0-9]+$' &&
    ! cat "$T"/plogs1/* | grep -q '^.*error' &&
    ok "palagan: uct_c sent as a real and taken" || bad "palagan: $(cat "$T"/plogs1/* | grep -m3 -e SearchParams -e error)"
grep -Eq '^Engine keys: option.SearchParams=uct_c=0\.[0-9]+$' "$T/pals.out" &&
    ok "palagan: the tuned uct_c as an engine key" || bad "palagan: $(tail -2 "$T/pals.out")"
cp "$T/pals1.json" "$T/pals1.keep"
$REF tune --game palagan size=4 --engine cmd="$BIN/medan-palagan" nodes=200 \
    --param SearchParams.uct_c,0.2,0.05,1,0.03,0.002 --iterations 2 --seed 4 \
    --state "$T/pals1.json" >"$T/pals3.out" 2>&1
check $? 0 "palagan: SearchParams: the same command on its finished state file: exit 0"
cmp -s "$T/pals1.json" "$T/pals1.keep" && ok "palagan: ... the state file unchanged" ||
    bad "palagan: a finished run's state changed"
# Battalion: Iterations= bounds each search (st= only a safety net), so
# the deals (from tune's --seed) and the games are the same run to run.
for i in 1 2; do
    $REF tune --game battalion players=4 --engine cmd="$BIN/medan-battalion" st=5 option.Iterations=30 \
        --param PlayoutAttacks,4,1,20,2,0.02 --param Inference,80,0,100,10,0.02 \
        --iterations 3 --seed 3 --concurrency 2 --state "$T/bat$i.json" >"$T/bat.out" 2>&1 ||
        bad "battalion: $(tail -3 "$T/bat.out")"
done
check "$(state "$T/bat1.json" "s['k'], s['games']")" "3 12" "battalion: four seats, a deal of 4 rotations per iteration"
cmp -s "$T/bat1.json" "$T/bat2.json" && ok "battalion: the same command, the same deals and run" ||
    bad "battalion: two runs differ"
grep -q "deals follow from --seed" "$T/bat.out" && ok "battalion: says where the deals come from" ||
    bad "battalion: $(head -3 "$T/bat.out")"
for i in 1 2; do
    $REF tune --game battalion players=3 --engine cmd="$BIN/medan-battalion" st=5 option.Iterations=30 \
        --param SearchParams.explore,0.7,0.1,2,0.1,0.02 --iterations 2 --seed 5 \
        --logdir "$T/blogs$i" --trace --state "$T/bats$i.json" >"$T/bats.out" 2>&1 ||
        bad "battalion SearchParams: $(tail -3 "$T/bats.out")"
done
check "$(state "$T/bats1.json" "s['k'], s['games']")" "2 6" "battalion: SearchParams.explore, a real entry, 2 iterations of 3 rotations"
cmp -s "$T/bats1.json" "$T/bats2.json" && ok "battalion: SearchParams.explore, the same command, the same run" ||
    bad "battalion: SearchParams: two runs differ"
cat "$T"/blogs1/* 2>/dev/null | grep -Eq 'setoption name SearchParams value explore=[0-9]+\.[0-9]+$' &&
    ! cat "$T"/blogs1/* | grep -q '^.*error' &&
    ok "battalion: explore sent as a real and taken" || bad "battalion: $(cat "$T"/blogs1/* | grep -m3 -e SearchParams -e error)"
cp "$T/bats1.json" "$T/bats1.keep"
$REF tune --game battalion players=3 --engine cmd="$BIN/medan-battalion" st=5 option.Iterations=30 \
    --param SearchParams.explore,0.7,0.1,2,0.1,0.02 --iterations 2 --seed 5 \
    --state "$T/bats1.json" >"$T/bats3.out" 2>&1
check $? 0 "battalion: SearchParams: the same command on its finished state file: exit 0"
cmp -s "$T/bats1.json" "$T/bats1.keep" && ok "battalion: ... the state file unchanged" ||
    bad "battalion: a finished run's state changed"
# oracle (the other seats' hands) is refused through the protocol, so a
# tuning run cannot give it to an engine: the match stops naming it.
$REF tune --game battalion players=3 --engine cmd="$BIN/medan-battalion" st=5 option.Iterations=30 \
    --param SearchParams.oracle,0,0,1,1,0.02 --iterations 1 --seed 5 >/dev/null 2>"$T/oracle.err"
check $? 2 "battalion: SearchParams.oracle: the engine refuses it, the run stops (exit 2)"
grep -q "oracle=[01] refused: bad_value.*hidden cards" "$T/oracle.err" && ok "... naming it and why" ||
    bad "oracle: $(cat "$T/oracle.err")"

# The parameter files of the runs on the engines (tuning/, docs/referee.md):
# each is read, and every entry it names is taken by its engine (one
# iteration of one pair at a tiny limit: an unknown name, a real for an int
# entry or a value out of range would stop the run with exit 2).
TUNING="$(dirname "$0")/../tuning"
for f in "$TUNING"/*.params; do
    g=$(basename "$f" .params)
    case $g in
    battalion) args="--game battalion players=4 --engine cmd=$BIN/medan-battalion nodes=20" ;;
    palagan) args="--game palagan --engine cmd=$BIN/medan-palagan nodes=50" ;;
    *) args="--game $g --engine cmd=$BIN/medan-$g depth=1" ;;
    esac
    # shellcheck disable=SC2086
    $REF tune $args --params "$f" --iterations 1 --seed 3 --maxplies 40 \
        --state "$T/file-$g.json" >"$T/file-$g.out" 2>&1
    check "$?/$(state "$T/file-$g.json" "s['k']")" "0/1" "tuning/$g.params: every entry taken by medan-$g"
done

exit $fail
