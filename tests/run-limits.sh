#!/bin/sh
# Limits every engine must honour, end to end (tests/tools/limits.c): end of
# input bounds every job, stop and quit end a perft, Battalion's go depth,
# a 100 MB line, a Hash the process cannot allocate.  Prints latency
# figures; asserts only generous bounds.  usage: run-limits.sh BUILD BIN
build=$1 bin=$2
for g in loa fetlar palagan battalion; do
    [ -x "$bin/medan-$g" ] || { echo "run-limits: $bin/medan-$g missing" >&2; exit 1; }
done
exec "$build/tools/limits" "$bin"
