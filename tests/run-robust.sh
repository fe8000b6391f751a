#!/bin/sh
# Robustness: >= 100 000 random and mutated lines at every engine that has a
# corpus in tests/robust/<game>.corpus; 20 000 in the sanitizer build (the
# same generators, for memory errors: 100 000 there took 32 min at load 10,
# most of make test).  usage: run-robust.sh BUILD BIN [lines]
build=$1 bin=$2
case $build in *san*) dflt=20000 ;; *) dflt=100000 ;; esac
lines=${3:-${ROBUST_LINES:-$dflt}}
fail=0 n=0
for c in tests/robust/*.corpus; do
    g=$(basename "$c" .corpus)
    exe=$bin/medan-$g
    [ -x "$exe" ] || exe=$build/games/medan-$g # a toy game of tests/games/
    [ -x "$exe" ] || { echo "robust: skipping $g (not built)"; continue; }
    n=$((n + 1))
    if ! "$build/tools/robust" "$exe" "$c" "$lines" 1; then
        echo "FAILED: robust $g" >&2; fail=$((fail + 1))
    fi
done
echo "robust: $((n - fail)) passed, $fail failed"
[ $fail = 0 ]
