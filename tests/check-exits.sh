#!/bin/sh
# check-exits.sh - library code never ends the process.
#
# A long-running program (medan-web) plays matches through the referee's
# library, the MEP client and the games: an error there must come back to
# the caller, never exit().  So only a file holding a program's main() may
# call exit(), _exit(), _Exit(), quick_exit(), abort(), die() or err()/
# errx()/verr()/verrx().  Every other tracked .c/.h file is library code.
#
# Exceptions, each visible where it is:
#  - core/util.c and core/util.h: die() itself and the x*alloc helpers
#    (out of memory ends the process: there is nothing to return to);
#  - a line carrying the marker  exit-ok: REASON  in a comment (a forked
#    child that failed to exec, an out-of-memory path like x*alloc's, an
#    internal-error abort like assert's).
# Comments and string literals are ignored (a message may say "exit").
#
#   sh tests/check-exits.sh              check the tracked files
#   sh tests/check-exits.sh --self-test  check that the check catches a
#                                        planted call (and passes clean code)
#   sh tests/check-exits.sh FILE...      check these files as library files
cd "$(dirname "$0")/.." || exit 1

# check FILE...: prints "FILE:LINE: CALL" for each process exit; exit 1 if any.
scan() {
    awk '
    FNR == 1 { incom = 0 }
    {
        raw = $0; out = ""; i = 1; n = length(raw)
        while (i <= n) {
            c = substr(raw, i, 1); d = substr(raw, i, 2)
            if (incom) {
                if (d == "*/") { incom = 0; i += 2 } else i++
                continue
            }
            if (d == "/*") { incom = 1; i += 2; continue }
            if (d == "//") break
            if (c == "\"" || c == "\047") {
                q = c; i++
                while (i <= n && substr(raw, i, 1) != q) {
                    if (substr(raw, i, 1) == "\\") i++
                    i++
                }
                i++; out = out q q
                continue
            }
            out = out c; i++
        }
        if (raw ~ /exit-ok: [^ ]/) next
        if (match(out, /(^|[^A-Za-z0-9_.>])(exit|_exit|_Exit|quick_exit|abort|die|err|errx|verr|verrx)[ \t]*\(/)) {
            call = substr(out, RSTART, RLENGTH)
            sub(/^[^A-Za-z_]/, "", call); sub(/[ \t]*\($/, "", call)
            printf "%s:%d: %s() in library code (return the error to the caller)\n", FILENAME, FNR, call
            bad = 1
        }
    }
    END { exit bad ? 1 : 0 }' "$@"
}

# The tracked C files that are library code: not holding a main(), not
# core/util.[ch].
library_files() {
    for f in $(git ls-files -- '*.c' '*.h'); do
        case "$f" in core/util.c|core/util.h) continue ;; esac
        grep -Eq '^[a-z ]*int[ \t]+main[ \t]*\(' "$f" && continue
        echo "$f"
    done
}

if [ "$1" = "--self-test" ]; then
    t=$(mktemp -d) || exit 1
    trap 'rm -rf "$t"' EXIT
    fail=0
    cat > "$t/clean.c" <<'EOF'
/* exit() in a comment, and die() too */
static int f(struct s *p) { p->exit(1); ctl_proc_exit_text(p); puts("die(now)"); return my_die(2); }
static void g(void) { _exit(127); /* exit-ok: forked child, exec failed */ }
EOF
    for call in 'exit(2);' 'die("no %s", x);' 'abort();' '_exit(1);' 'errx(1, "x");' 'exit (3);'; do
        printf 'static void h(void)\n{\n    if (x)\n        %s\n}\n' "$call" > "$t/bad.c"
        if scan "$t/bad.c" > "$t/out" 2>&1; then
            echo "FAIL check-exits self-test: a planted '$call' was not caught" >&2
            fail=1
        elif ! grep -q 'bad.c:4:' "$t/out"; then
            echo "FAIL check-exits self-test: '$call' reported on the wrong line: $(cat "$t/out")" >&2
            fail=1
        fi
    done
    if ! scan "$t/clean.c" > "$t/out" 2>&1; then
        echo "FAIL check-exits self-test: clean code refused: $(cat "$t/out")" >&2
        fail=1
    fi
    [ $fail = 0 ] && echo "check-exits self-test: planted exits caught, clean code passed"
    exit $fail
fi

if [ $# -gt 0 ]; then
    scan "$@"
    exit $?
fi
files=$(library_files)
if scan $files >&2; then
    echo "library code: no process exit in $(echo "$files" | wc -l) files"
else
    echo "library code ends the process (above): only a program's main may" >&2
    exit 1
fi
