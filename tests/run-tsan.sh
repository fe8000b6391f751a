#!/bin/sh
# run-tsan.sh - the ThreadSanitizer stage of `make test` (once, not per
# pass; also `make tsan`): every engine built with clang -fsanitize=thread
# into build-tsan/, then driven through multi-threaded searches by
# tests/tools/tsan_drive.py (Threads 2..4 set between searches, stop at
# random moments, ping during a search, go ponder + ponderhit, quit during
# a search).  Any ThreadSanitizer report, non-zero exit or protocol
# surprise fails the stage.  No timing is asserted.
#
# Environment:
#   TSAN_REQUIRE_THREADS=0  an engine without the Threads option is driven
#                           single-threaded instead of failing the stage
#                           (for branches where an engine has no Threads yet)
#   TSAN_ALLOW_SKIP=1       where TSan cannot run here (no clang, no runtime),
#                           print `skipped: why` and pass; otherwise a skip fails
#   TSAN_SEED=N             the seed of the random moments (default: from the
#                           clock; printed, to replay a failure)
set -u
MAKE=${MAKE:-make}
require=${TSAN_REQUIRE_THREADS:-1}
seed=${TSAN_SEED:-$(date +%s)}
build=build-tsan

skip() {
    echo "tsan: skipped: $*"
    if [ "${TSAN_ALLOW_SKIP:-0}" = 1 ]; then
        return 0
    fi
    echo "tsan: a skipped ThreadSanitizer stage fails (TSAN_ALLOW_SKIP=1 allows it)" >&2
    return 1
}

command -v clang >/dev/null 2>&1 || { skip "no clang (tests/deps.sh installs it)"; exit $?; }
command -v python3 >/dev/null 2>&1 || { skip "no python3"; exit $?; }
# The runtime must link and run here (some kernels' address layouts defeat it).
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf '#include <pthread.h>\nstatic void *f(void *a) { return a; }\nint main(void) { pthread_t t; pthread_create(&t, 0, f, 0); return pthread_join(t, 0); }\n' >"$probe/p.c"
if ! clang -fsanitize=thread -pthread "$probe/p.c" -o "$probe/p" >"$probe/log" 2>&1; then
    skip "clang -fsanitize=thread does not link: $(head -1 "$probe/log")"
    exit $?
fi
if ! "$probe/p" >"$probe/log" 2>&1; then
    skip "a ThreadSanitizer program does not run here: $(head -1 "$probe/log")"
    exit $?
fi

engines=""
for m in engines/*/main.c; do
    g=${m#engines/}
    engines="$engines medan-${g%/main.c}"
done
targets=""
for e in $engines; do targets="$targets $build/bin/$e"; done
echo "tsan: building$engines with clang -fsanitize=thread into $build/"
if ! $MAKE --no-print-directory CC=clang SAN=0 NATIVE=0 BUILD=$build BIN=$build/bin \
    OPT="-O1 -fsanitize=thread -fno-omit-frame-pointer" LDFLAGS=-fsanitize=thread $targets; then
    echo "tsan: the ThreadSanitizer build failed" >&2
    exit 1
fi

export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
echo "tsan: seed $seed (TSAN_SEED=$seed replays it); Threads required: $([ "$require" = 1 ] && echo yes || echo no)"
fail=0
for e in $engines; do
    python3 tests/tools/tsan_drive.py "$build/bin/$e" "$seed" --require-threads "$require" || fail=1
done
[ $fail = 0 ] && echo "tsan: clean"
exit $fail
