#!/bin/sh
# Matches across many machines, tested on this one: `medan-referee parallel`
# with real GNU parallel (local "hosts"), and medan-slurm-match with a fake
# sbatch that runs the array's tasks here; each merged result must equal a
# single-process run of the same seed game for game.  Also merge's report
# of overlapping and missing shards.
#   usage: sh tests/run-cluster.sh BUILD BIN
set -u
BUILD=${1:-build}
BIN=${2:-bin}
REF=$BIN/medan-referee
ABS=$(cd "$BIN" && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/cluster-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/check-lib.sh"
SBATCH="sh $(cd "$(dirname "$0")" && pwd)/mock/fake-sbatch.sh"

# A deterministic match: fixed depth, seeded openings.
set -- --game loa --engine name=a cmd="$ABS/medan-loa" \
    --engine name=b cmd="$ABS/medan-loa" option.Strategy=greedy \
    --each depth=2 --games 8 --seed 5 --openings random-plies=4 --logdir none
# Records without the fields that vary from run to run, in game order.
norm() { sed -e 's/"ms":[0-9]*//g' -e 's/"date":"[^"]*"//g' "$1" | sort -t, -k1,1; }

$REF "$@" --quiet --results "$T/one.jsonl" >/dev/null 2>&1
check "$(wc -l <"$T/one.jsonl" | tr -d ' ')" 8 "single run: 8 games"
norm "$T/one.jsonl" >"$T/one.n"

# --- GNU parallel -------------------------------------------------------------
if command -v parallel >/dev/null 2>&1; then
    $REF parallel --shards 4 --jobs 2 "$@" --results "$T/par.jsonl" \
        --records "$T/par.pgn" >"$T/par.out" 2>&1
    check $? 0 "parallel: exit 0"
    norm "$T/par.jsonl" >"$T/par.n"
    cmp -s "$T/one.n" "$T/par.n" && ok "parallel: 4 shards merged = the single run, game for game" ||
        bad "parallel: merged games differ from the single run"
    grep -q '^a vs b: ' "$T/par.out" && ok "parallel: prints the merged table" ||
        bad "parallel: no table: $(cat "$T/par.out")"
    check "$(grep -c '^\[Result ' "$T/par.pgn")" 8 "parallel: the shards' records gathered"
    $REF parallel --shards 4 "$@" --results "$T/par.jsonl" >"$T/par2.out" 2>&1 &&
        bad "parallel overwrites a results file" || ok "parallel refuses a non-empty results file"
    $REF parallel --shards 4 "$@" --results "$T/par.jsonl" --resume >"$T/par3.out" 2>&1
    check $? 0 "parallel --resume of a finished match: exit 0"
    norm "$T/par.jsonl" >"$T/par3.n"
    cmp -s "$T/one.n" "$T/par3.n" && ok "parallel --resume plays nothing twice" ||
        bad "parallel --resume changed the games"
    check "$(grep -c '^\[Result ' "$T/par.pgn")" 8 "parallel --resume: records not doubled"
else
    bad "GNU parallel is not installed (Debian: parallel; tests/deps.sh installs it)"
fi
$REF parallel --shards 2 --sshlogin 4/node1 --sshlogin node2 --dry-run "$@" \
    --results r.jsonl >"$T/dry.out" 2>&1
grep -q "'--sshlogin' '4/node1' '--sshlogin' 'node2'" "$T/dry.out" &&
    grep -q "'--return' 'r.jsonl.shard-{}-of-2'" "$T/dry.out" &&
    grep -qF -- "'\\''--shard'\\'' {}'\\''/2'\\'' '\\''--quiet'\\'' '\\''--resume'\\''" "$T/dry.out" &&
    ok "parallel --dry-run: hosts, returned files and shards" ||
    bad "parallel --dry-run: $(cat "$T/dry.out")"
$REF parallel --shards 2 --parallel "$T/no-such-parallel" "$@" \
    --results "$T/np.jsonl" >"$T/np.out" 2>&1 &&
    bad "parallel without GNU parallel succeeds" ||
    { grep -q 'is GNU parallel installed' "$T/np.out" && ok "parallel: missing GNU parallel named" ||
        bad "parallel: unclear error: $(cat "$T/np.out")"; }
$REF parallel --shards 2 "$@" >"$T/nr.out" 2>&1 &&
    bad "parallel without --results succeeds" || ok "parallel needs --results"

# A hidden-information game: the shards share one secret key, made by the
# first shard; a single run with that key plays the same deals and games.
if command -v parallel >/dev/null 2>&1; then
    bat="--game battalion players=3 --engine name=r1 cmd=$ABS/medan-battalion option.Strategy=random
        --engine name=r2 cmd=$ABS/medan-battalion option.Strategy=random --each st=2
        --games 6 --seed 3 --logdir none"
    $REF parallel --shards 2 $bat --results "$T/bat.jsonl" >"$T/bat.out" 2>&1
    check $? 0 "parallel, hidden information: exit 0"
    [ -s "$T/bat.jsonl.key" ] && ok "parallel: the shards' secret key is in F.key" ||
        bad "parallel: no key file for a hidden-information game"
    $REF $bat --key-file "$T/bat.jsonl.key" --quiet --results "$T/bat1.jsonl" >/dev/null 2>&1
    norm "$T/bat.jsonl" >"$T/bat.n"
    norm "$T/bat1.jsonl" >"$T/bat1.n"
    cmp -s "$T/bat.n" "$T/bat1.n" && ok "parallel, hidden information: same deals and games as one run with the key" ||
        bad "parallel, hidden information: the shards dealt other cards"
fi

# A tournament (a gauntlet of 4, two rounds of 3 games an encounter): the
# merged shards equal one run, and merge is told the whole schedule (18).
if command -v parallel >/dev/null 2>&1; then
    tg="--game loa --engine name=a cmd=$ABS/medan-loa --engine name=g cmd=$ABS/medan-loa
        option.Strategy=greedy --engine name=r cmd=$ABS/medan-loa option.Strategy=random
        --engine name=s cmd=$ABS/medan-loa option.Strategy=random --tournament gauntlet
        --rounds 2 --games 3 --each depth=2 --seed 5 --openings random-plies=4 --logdir none"
    $REF $tg --quiet --results "$T/t1.jsonl" >"$T/t1.out" 2>&1
    $REF parallel --shards 3 --jobs 2 $tg --results "$T/tp.jsonl" >"$T/tp.out" 2>&1
    check "$?/$(wc -l <"$T/tp.jsonl" | tr -d ' ')" "0/18" "parallel tournament: exit 0, 18 games"
    norm "$T/t1.jsonl" >"$T/t1.n"
    norm "$T/tp.jsonl" >"$T/tp.n"
    cmp -s "$T/t1.n" "$T/tp.n" && ok "parallel tournament: 3 shards merged = the single run, game for game" ||
        bad "parallel tournament: merged games differ from the single run"
    sed -n '/^Crosstable/,/^s /p' "$T/t1.out" >"$T/t1.x"
    sed -n '/^Crosstable/,/^s /p' "$T/tp.out" >"$T/tp.x"
    [ -s "$T/t1.x" ] && cmp -s "$T/t1.x" "$T/tp.x" && ok "parallel tournament: the same crosstable" ||
        bad "parallel tournament: crosstables differ"
    rm "$T/tp.jsonl.shard-3-of-3"
    $REF merge --games 18 --output "$T/tm.jsonl" "$T"/tp.jsonl.shard-*-of-3 >"$T/tm.out" 2>&1
    grep -q '^Missing: [0-9]* of 18 games' "$T/tm.out" && ok "tournament merge: a missing shard is reported" ||
        bad "tournament merge: $(head -3 "$T/tm.out")"
fi

# --- Slurm (a fake sbatch runs the array here) ----------------------------------
SBATCH=$SBATCH MEDAN_REFEREE="$ABS/medan-referee" sh "$BIN/medan-slurm-match" 3 "$@" \
    --results "$T/slurm.jsonl" >"$T/slurm.out" 2>&1
check $? 0 "slurm: submitted"
norm "$T/slurm.jsonl" >"$T/slurm.n"
cmp -s "$T/one.n" "$T/slurm.n" && ok "slurm: 3 array tasks merged = the single run, game for game" ||
    bad "slurm: merged games differ from the single run: $(cat "$T/slurm.out")"
grep -q '^a vs b: ' "$T/slurm.jsonl.table" && ok "slurm: the merge job wrote the table" ||
    bad "slurm: no table"

# --- merge reports overlap and missing games ------------------------------------
$REF merge --games 8 "$T/slurm.jsonl.shard-1-of-3" "$T/slurm.jsonl.shard-1-of-3" \
    "$T/slurm.jsonl.shard-2-of-3" >"$T/m.out" 2>&1
check $? 2 "merge with a shard missing: exit 2"
grep -q '^Missing: 2 of 8 games are in no file: 5-6$' "$T/m.out" && ok "merge names the missing games" ||
    bad "merge: $(grep -i missing "$T/m.out")"
grep -q '^Overlap: 4 duplicate games ignored (the first record kept): 1-2, 7-8$' "$T/m.out" &&
    ok "merge names the overlapping games" || bad "merge: $(grep -i overlap "$T/m.out")"

[ $fail = 0 ] && echo "cluster tests: all $n passed" || echo "cluster tests: FAILED" >&2
exit $fail
