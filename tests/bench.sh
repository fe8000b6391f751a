#!/bin/sh
# make bench: perft speed and search speed of every engine (medians of 3
# runs; these machines are shared and noisy).  usage: bench.sh BIN [full|quick]
# quick (`make bench BENCH=quick`, seconds instead of minutes; the readme
# stage of `make test` runs it): the same steps at small depths, one run
# each; the perft counts are still checked.
bin=${1:-bin}
mode=${2:-full}
case $mode in
full) runs="1 2 3" ;;
quick) runs=1 ;;
*) echo "bench.sh: unknown mode '$mode' (full or quick)" >&2; exit 2 ;;
esac
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
perft_bench() { # engine depth expected [args...]
    eng=$1 d=$2 want=$3; shift 3
    [ -x "$bin/$eng" ] || return 0
    : >/tmp/medan-perft.$$
    for i in $runs; do
        out=$("$bin/$eng" perft "$d" "$@")
        got=$(echo "$out" | awk '{print $3}')
        if [ "$got" != "$want" ]; then
            echo "BAD perft $eng $d: $got (want $want)" >&2
            rm -f /tmp/medan-perft.$$
            return 1
        fi
        echo "$out" | awk '{print $7}' >>/tmp/medan-perft.$$
    done
    nps=$(median </tmp/medan-perft.$$)
    rm -f /tmp/medan-perft.$$
    n=$(echo $runs | wc -w)
    echo "$eng perft $d = $want${label:-}: median $nps leaves/s ($n run$([ $n = 1 ] || echo s))"
}
# LOA and Fetlar: the fast copies of the hot routines (POPCNT, BMI; picked
# by cpuid) against the portable ones (MEDAN_CPU=portable), run in turns.
perft_paths() { # engine depth expected
    eng=$1 d=$2 want=$3
    [ -x "$bin/$eng" ] || return 0
    : >/tmp/medan-pf.$$
    : >/tmp/medan-pp.$$
    for i in $runs; do
        for path in fast portable; do
            if [ $path = fast ]; then out=$("$bin/$eng" perft "$d")
            else out=$(MEDAN_CPU=portable "$bin/$eng" perft "$d"); fi
            got=$(echo "$out" | awk '{print $3}')
            if [ "$got" != "$want" ]; then
                echo "BAD perft $eng $d ($path): $got (want $want)" >&2
                rm -f /tmp/medan-pf.$$ /tmp/medan-pp.$$
                return 1
            fi
            echo "$out" | awk '{print $7}' >>"/tmp/medan-p$(echo $path | cut -c1).$$"
        done
    done
    f=$(median </tmp/medan-pf.$$) p=$(median </tmp/medan-pp.$$)
    rm -f /tmp/medan-pf.$$ /tmp/medan-pp.$$
    n=$(echo $runs | wc -w)
    echo "$eng perft $d = $want: median $f leaves/s fast path, $p portable (MEDAN_CPU=portable):" \
        "$(awk -v a="$f" -v b="$p" 'BEGIN {printf "%.2fx", (b > 0 ? a / b : 0)}') ($n run$([ $n = 1 ] || echo s) each, in turns)"
}
search_bench() {
    eng=$1
    [ -x "$bin/$eng" ] || return 0
    for i in $runs; do "$bin/$eng" bench $depth | head -1; done > /tmp/medan-bench.$$
    nodes=$(awk '{print $3}' /tmp/medan-bench.$$ | head -1)
    nps=$(awk '{print $7}' /tmp/medan-bench.$$ | median)
    rm -f /tmp/medan-bench.$$
    echo "$eng bench: $nodes nodes, median $nps nps"
}
if [ $mode = quick ]; then
    # counts from tests/unit/test_loa.c, test_fetlar.c, test_palagan.c
    perft_paths medan-loa 4 1563208 || exit 1
    perft_paths medan-fetlar 3 806344 || exit 1
    perft_bench medan-palagan 2 242361 || exit 1
    depth=3 playouts=2000 batits=20000
else
    perft_paths medan-loa 5 55963132 || exit 1
    perft_paths medan-fetlar 5 6116568016 || exit 1
    perft_bench medan-palagan 2 242361 || exit 1
    depth="" playouts=20000 batits=200000
fi
# Palagan playouts per CPU-second from the N = 5 start (the fingerprint
# changes when a policy decision changes for the same random numbers)
playout_bench() {
    tool=build/tools/palagan_playouts
    make -s "$tool" >/dev/null 2>&1 || return 0
    for i in $runs; do "$tool" $playouts 5 1; done > /tmp/medan-po.$$
    rate=$(awk '{print $6}' /tmp/medan-po.$$ | median)
    fp=$(awk '{print $12}' /tmp/medan-po.$$ | sort -u | tr -d ',' | tr '\n' ' ')
    rm -f /tmp/medan-po.$$
    echo "medan-palagan playouts (N = 5 start): median $rate per CPU-second, fingerprint $fp"
}
playout_bench
# Palagan's Threads: MCTS simulations per wall-clock second with Threads 1
# and 2 on the shared tree, from the bench positions, and their ratio (at
# most the free cores); the per-CPU-second ratio is the threads' efficiency.
palagan_threads_bench() {
    tool=build/tools/palagan_threads
    make -s "$tool" >/dev/null 2>&1 || return 0
    if [ $mode = quick ]; then "$tool" 1000 2 1; else "$tool" 20000 2 3; fi | tail -1
}
palagan_threads_bench
# Palagan's MCTS rate as issue 40 asks for it: one timed search (`go movetime`,
# 3 s; quick: 0.5 s) from the N = 5 start over MEP, with Threads 1 and 2; the
# figure is the last info line's nps (simulations, each one playout, per
# wall-clock second of all threads).  Wall time: state the load with it.
palagan_search_rate() {
    [ -x "$bin/medan-palagan" ] || return 0
    if [ $mode = quick ]; then ms=500; else ms=3000; fi
    for t in 1 2; do
        for i in $runs; do
            printf 'setoption name Threads value %s\nnewgame size=5\nposition startpos\ngo movetime %s\n' \
                "$t" "$ms" | "$bin/medan-palagan" |
                awk '/^info/ {for (k = 1; k < NF; k++) if ($k == "nps") n = $(k + 1)} END {print n + 0}'
        done | median > /tmp/medan-psr.$$.$t
    done
    one=$(cat /tmp/medan-psr.$$.1) two=$(cat /tmp/medan-psr.$$.2)
    rm -f /tmp/medan-psr.$$.1 /tmp/medan-psr.$$.2
    echo "medan-palagan search (N = 5 start, go movetime $ms): median $one playouts/s with Threads 1," \
        "$two with Threads 2: $(awk -v a="$one" -v b="$two" 'BEGIN {printf "%.2f", (a > 0 ? b / a : 0)}')x" \
        "(load $(cut -d' ' -f1 /proc/loadavg 2>/dev/null))"
}
palagan_search_rate
# Lazy SMP: time to depth with Threads=2 against 1 over the bench positions
# (tests/tools/time_to_depth.c; its last line, the median ratio; wall
# times: state the machine's load with them)
ttd_bench() { # game depth
    tool=build/tools/time_to_depth
    make -s "$tool" >/dev/null 2>&1 || return 0
    n=$(echo $runs | wc -w)
    "$tool" "$1" "$2" 2 "$n" | tail -1
}
if [ $mode = quick ]; then
    ttd_bench loa 5
    ttd_bench fetlar 4
else
    ttd_bench loa 9
    ttd_bench fetlar 8
fi
search_bench medan-loa
search_bench medan-fetlar
search_bench medan-palagan
search_bench medan-battalion
# Battalion's Threads: iterations per (wall) second of one search with
# Threads 1 and 2 (the same budget, split between the threads), from the
# first bench view; the speed-up is their ratio (at most the free cores).
batpos='view:2 phase=attack act=2 turn=12 attacks=2 last=d chips=6,5,10,19 bids=6,p,p,8 hands=+10/2c4c4cJcQcTd3h5h8hKh/+10/4d+9 known=-/-/-/4d shown=-p7s7-/-p2--/----/--p7- battle=- pile=2h8s9sTc6h2sAs2s7d3s5h7h9hJhJhQhKhAd3d5d7d8d9dJdAd5d deck=38'
threads_bench() {
    [ -x "$bin/medan-battalion" ] || return 0
    for t in 1 2; do
        for i in $runs; do
            printf 'setoption name Threads value %s\nnewgame players=4 seat=2\nposition fen %s\ngo nodes %s\n' \
                "$t" "$batpos" "$batits" | "$bin/medan-battalion" | awk '/^info/ {n = $9} END {print n}'
        done | median > /tmp/medan-thr.$$.$t
    done
    one=$(cat /tmp/medan-thr.$$.1) two=$(cat /tmp/medan-thr.$$.2)
    rm -f /tmp/medan-thr.$$.1 /tmp/medan-thr.$$.2
    echo "medan-battalion Threads ($batits iterations): median $one iterations/s with 1, $two with 2:" \
        "$(awk -v a="$one" -v b="$two" 'BEGIN {printf "%.2f", (a > 0 ? b / a : 0)}')x (load $(cut -d' ' -f1 /proc/loadavg 2>/dev/null))"
}
threads_bench
# Battalion's strength: chips gained a game against three heuristic players
# over duplicate deals at a fixed iteration budget (the same figures every
# run: seed 1, deals 0..), with its 95% interval; the measure of record is
# 300 deals at 50 ms (minutes; docs/games/battalion.md).
battalion_chips_bench() {
    tool=$bin/medan-battalion-duplicate
    [ -x "$tool" ] || return 0
    if [ $mode = quick ]; then deals=20 iters=300; else deals=100 iters=1000; fi
    out=$("$tool" --deals $deals --iters $iters) || return 1
    chips=$(echo "$out" | sed -n 's/^chips gained per game: *//p')
    wins=$(echo "$out" | sed -n 's/^win rate: *\([^(]*[^( ]\).*/\1/p')
    echo "medan-battalion vs 3 heuristic players ($deals deals, $iters iterations a decision):" \
        "chips a game $chips, win rate $wins; the measure of record:" \
        "$bin/medan-battalion-duplicate --deals 300 --ms 50"
}
battalion_chips_bench
# The proof-number solver (search/pns.c, tests/tools/solve_bench.c): the
# fixed endgame suites with known answers (tests/solve/<game>.suite), each
# position within a node limit; solved and nodes are the same on every run,
# positions per minute (of the suite's solved ones) and nodes/s are
# medians.  A wrong answer fails the bench.
solve_bench() { # game nodes
    tool=build/tools/solve_bench
    make -s "$tool" >/dev/null 2>&1 || return 0
    : >/tmp/medan-sv.$$
    for i in $runs; do
        if ! "$tool" run "$1" "tests/solve/$1.suite" "$2" >>/tmp/medan-sv.$$; then
            echo "BAD solve $1: a wrong answer" >&2
            rm -f /tmp/medan-sv.$$
            return 1
        fi
    done
    solved=$(awk '{print $3}' /tmp/medan-sv.$$ | head -1)
    nodes=$(awk '{print $9}' /tmp/medan-sv.$$ | head -1 | tr -d ,)
    ppm=$(awk '{for (i = 1; i < NF; i++) if ($(i + 1) == "positions/min,") print $i}' /tmp/medan-sv.$$ | median)
    nps=$(awk '{for (i = 1; i < NF; i++) if ($(i + 1) == "nodes/s") print $i}' /tmp/medan-sv.$$ | median)
    rm -f /tmp/medan-sv.$$
    n=$(echo $runs | wc -w)
    echo "medan-$1 solve suite ($2 nodes each): solved $solved, $nodes nodes, median $ppm positions/min, $nps nodes/s ($n run$([ $n = 1 ] || echo s), load $(cut -d' ' -f1 /proc/loadavg 2>/dev/null))"
}
if [ $mode = quick ]; then
    solve_bench loa 20000
    solve_bench fetlar 20000
else
    solve_bench loa 200000
    solve_bench fetlar 200000
fi
# 6x6 LOA from the start (the variant `newgame size=6`, when the engine has
# it): the solver's result so far, its positions, time and memory (the
# table is Hash MiB; the peak resident size from /usr/bin/time when there).
loa6_bench() {
    [ -x "$bin/medan-loa" ] || return 0
    if ! "$bin/medan-loa" solve size=6 --nodes 1 >/dev/null 2>&1; then
        echo "medan-loa 6x6 solve: skipped (this build has no size=6 variant)"
        return 0
    fi
    if [ $mode = quick ]; then n=100000 mb=64; else n=20000000 mb=1024; fi
    if [ -x /usr/bin/time ]; then
        out=$(/usr/bin/time -f 'maxrss %M KiB' "$bin/medan-loa" solve size=6 --nodes $n \
            --option Hash=$mb 2>/tmp/medan-l6.$$)
        mem=$(tail -1 /tmp/medan-l6.$$)
        rm -f /tmp/medan-l6.$$
    else
        out=$("$bin/medan-loa" solve size=6 --nodes $n --option Hash=$mb)
        mem="maxrss unknown"
    fi
    echo "medan-loa 6x6 from the start ($n positions, Hash $mb MiB): $out, $mem"
}
loa6_bench
