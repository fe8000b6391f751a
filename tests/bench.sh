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
    echo "$eng perft $d = $want: median $nps leaves/s ($n run$([ $n = 1 ] || echo s))"
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
    perft_bench medan-loa 4 1563208 || exit 1
    perft_bench medan-fetlar 3 806344 || exit 1
    perft_bench medan-palagan 2 242361 || exit 1
    depth=3 playouts=2000
else
    perft_bench medan-loa 5 55963132 || exit 1
    perft_bench medan-fetlar 5 6116568016 || exit 1
    perft_bench medan-palagan 2 242361 || exit 1
    depth="" playouts=20000
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
    ttd_bench loa 8
    ttd_bench fetlar 7
fi
search_bench medan-loa
search_bench medan-fetlar
search_bench medan-palagan
search_bench medan-battalion
