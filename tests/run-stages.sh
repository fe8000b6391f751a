#!/bin/sh
# run-stages.sh - the stages of `make test`, each run even when an earlier
# one failed, then one summary line per stage (result and seconds) and a
# last line `N passed, N failed` that counts stages (CI reads it; `, N
# skipped` follows when a stage could not run here: exit status 77, e.g. the
# real-cluster stages when not root).  The exit status is non-zero when any
# stage failed.
#   usage: MAKE=make sh tests/run-stages.sh all|san TARGET...
# all: the architecture map; per pass (plain, then ASan/UBSan) the build
# and each TARGET (the test targets of one pass, $(TEST_STAGES)); after the
# plain pass the real-cluster stages slurm-real and ssh-real (tests/cluster/,
# once: they test the shell and Slurm plumbing, not the C code); the clang
# build; readme, the docs' commands in a clean clone (tests/run-readme.sh).
# san: only the sanitizer pass.
set -u
MAKE=${MAKE:-make}
which=$1
shift
summary=""
pass=0 failn=0 skipn=0

now() { date +%s; }
# stage NAME COMMAND...: run it, keep its result and time.
stage() {
    name=$1
    shift
    echo "=== stage $name: $*"
    t0=$(now)
    "$@"
    case $? in
    0) r=passed pass=$((pass + 1)) ;;
    77) r=skipped skipn=$((skipn + 1)) ;;
    *) r=FAILED failn=$((failn + 1)) ;;
    esac
    t=$(($(now) - t0))
    echo "=== stage $name: $r (${t} s)"
    summary="$summary$(printf '%-24s %-7s %4d s' "$name" "$r" "$t")
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
    # A real one-node Slurm and a real sshd (`make slurm-real`, `make
    # ssh-real`; run directly here so their exit status 77, skipped, shows).
    if [ $san = 0 ]; then
        stage plain:slurm-real sh tests/cluster/run-slurm-real.sh build bin
        stage plain:ssh-real sh tests/cluster/run-ssh-real.sh build bin
    fi
done
if [ "$which" = all ]; then
    stage clang $MAKE --no-print-directory $jobs clang-build
    stage readme sh tests/run-readme.sh
fi

echo
echo "make test: stages (total $(($(now) - t_start)) s)"
printf '%s' "$summary"
if [ $skipn = 0 ]; then
    echo "$pass passed, $failn failed"
else
    echo "$pass passed, $failn failed, $skipn skipped"
fi
[ $failn = 0 ]
