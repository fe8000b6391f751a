#!/bin/sh
# perft-compare.sh - bulk perft from the start, Medan (bin/medan-fetlar perft)
# and libhnefatafl (build/hnef/hnef-perft) side by side: RUNS alternating runs
# each (default 3), the times each program reports for its count (process
# start-up left out) and their medians in ms.
#
#   bench/hnefatafl/perft-compare.sh [DEPTH] [RUNS]     (defaults 5 3)
#
# Needs `make hnef HNEF_DIR=...` (and `make` or `make NATIVE=1` for Medan).
set -eu
cd "$(dirname "$0")/../.."
depth=${1:-5} runs=${2:-3}
medan=${MEDAN_BIN:-bin}/medan-fetlar hnef=${HNEF_BUILD:-build}/hnef/hnef-perft
for p in "$medan" "$hnef"; do
    [ -x "$p" ] || { echo "perft-compare.sh: $p missing (make hnef HNEF_DIR=...)" >&2; exit 2; }
done
ms() { # run a perft, check its count, print the time it reports ("time N")
    out=$("$@" 2>&1)
    echo "$out" | grep -q "perft $depth $want " || { echo "perft-compare.sh: $* did not count $want: $out" >&2; exit 1; }
    echo "$out" | sed -n 's/.* time \([0-9]*\).*/\1/p'
}
case $depth in 1) want=116 ;; 2) want=6788 ;; 3) want=806344 ;; 4) want=50456804 ;;
    5) want=6116568016 ;; *) want= ;; esac
m_all= h_all=
i=1
while [ "$i" -le "$runs" ]; do
    m=$(ms "$medan" perft "$depth")
    h=$(ms "$hnef" "$depth")
    echo "run $i: medan-fetlar perft $depth $m ms, hnef-perft $depth $h ms"
    m_all="$m_all $m" h_all="$h_all $h"
    i=$((i + 1))
done
med() { printf '%s\n' $* | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2)}'; }
mm=$(med $m_all) hm=$(med $h_all)
echo "median: medan-fetlar $mm ms, hnef-perft $hm ms (libhnefatafl / Medan = $(awk -v a="$hm" -v b="$mm" 'BEGIN{printf "%.2f", a/b}'))"
