#!/bin/sh
# make bench: perft speed and search speed of every engine (medians of 3
# runs; these machines are shared and noisy).  usage: bench.sh BIN
bin=${1:-bin}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
perft_bench() { # engine depth expected [args...]
    eng=$1 d=$2 want=$3; shift 3
    [ -x "$bin/$eng" ] || return 0
    nps=$(for i in 1 2 3; do
        out=$("$bin/$eng" perft "$d" "$@")
        got=$(echo "$out" | awk '{print $3}')
        [ "$got" = "$want" ] || { echo "BAD perft $eng $d: $got (want $want)" >&2; exit 1; }
        echo "$out" | awk '{print $7}'
    done | median) || exit 1
    echo "$eng perft $d = $want: median $nps leaves/s"
}
search_bench() {
    eng=$1
    [ -x "$bin/$eng" ] || return 0
    for i in 1 2 3; do "$bin/$eng" bench | head -1; done > /tmp/medan-bench.$$
    nodes=$(awk '{print $3}' /tmp/medan-bench.$$ | head -1)
    nps=$(awk '{print $7}' /tmp/medan-bench.$$ | median)
    rm -f /tmp/medan-bench.$$
    echo "$eng bench: $nodes nodes, median $nps nps"
}
perft_bench medan-loa 5 55963132
perft_bench medan-fetlar 5 6116568016
perft_bench medan-palagan 2 242361
# Palagan playouts per CPU-second from the N = 5 start (the fingerprint
# changes when a policy decision changes for the same random numbers)
playout_bench() {
    tool=build/tools/palagan_playouts
    make -s "$tool" >/dev/null 2>&1 || return 0
    for i in 1 2 3; do "$tool" 20000 5 1; done > /tmp/medan-po.$$
    rate=$(awk '{print $6}' /tmp/medan-po.$$ | median)
    fp=$(awk '{print $12}' /tmp/medan-po.$$ | sort -u | tr -d ',' | tr '\n' ' ')
    rm -f /tmp/medan-po.$$
    echo "medan-palagan playouts (N = 5 start): median $rate per CPU-second, fingerprint $fp"
}
playout_bench
search_bench medan-loa
search_bench medan-fetlar
search_bench medan-palagan
search_bench medan-battalion
