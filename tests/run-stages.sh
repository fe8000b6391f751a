#!/bin/sh
# run-stages.sh - the stages of `make test`, each run even when an earlier
# one failed, then one summary line per stage (result and seconds) and a
# last line `N passed, N failed` that counts stages (CI reads it).  The exit
# status is non-zero when any stage failed.
#   usage: MAKE=make sh tests/run-stages.sh all|san TARGET...
# all: the architecture map; per pass (plain, then ASan/UBSan) the build
# and each TARGET (the test targets of one pass, $(TEST_STAGES)); the clang
# build; tsan, every engine's threads under ThreadSanitizer (tests/run-tsan.sh);
# readme, the docs' commands in a clean clone (tests/run-readme.sh).
# san: only the sanitizer pass.
set -u
MAKE=${MAKE:-make}
which=$1
shift
summary=""
pass=0 failn=0

now() { date +%s; }
# stage NAME COMMAND...: run it, keep its result and time.
stage() {
    name=$1
    shift
    echo "=== stage $name: $*"
    t0=$(now)
    if "$@"; then r=passed pass=$((pass + 1)); else r=FAILED failn=$((failn + 1)); fi
    t=$(($(now) - t0))
    echo "=== stage $name: $r (${t} s)"
    summary="$summary$(printf '%-24s %-6s %4d s' "$name" "$r" "$t")
"
}

# The builds run in parallel (one job per core) unless make was given -j.
jobs=""
case " ${MAKEFLAGS:-} " in
*j*) ;;
*) jobs=-j$(nproc 2>/dev/null || echo 2) ;;
esac

t_start=$(now)
if [ "$which" = all ]; then
    stage architecture sh tests/check-architecture.sh
fi
for san in 0 1; do
    [ "$which" = san ] && [ $san = 0 ] && continue
    pfx=plain
    [ $san = 1 ] && pfx=san
    stage "$pfx:build" $MAKE --no-print-directory $jobs SAN=$san build-all
    for t in "$@"; do
        stage "$pfx:$t" $MAKE --no-print-directory SAN=$san "$t"
    done
done
if [ "$which" = all ]; then
    stage clang $MAKE --no-print-directory $jobs clang-build
    stage tsan sh tests/run-tsan.sh
    stage readme sh tests/run-readme.sh
fi

echo
echo "make test: stages (total $(($(now) - t_start)) s)"
printf '%s' "$summary"
echo "$pass passed, $failn failed"
[ $failn = 0 ]
