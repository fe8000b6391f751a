#!/bin/sh
# run-docs.sh - replay every MEP session in README.md and docs/**/*.md
# against the binaries in BIN, so a doc that drifts from the code fails
# `make test`.  usage: sh tests/run-docs.sh BUILD BIN
#
# A session is a fenced block whose first line is exactly `$ bin/medan-NAME`
# (docs/protocol.md, "Transcripts in these docs"):
#   mep> CMD     a line sent to the engine (the prompt of its console);
#                `go infinite`, `go ponder …` and a bare `go` are sent
#                without waiting for an answer (it comes after stop/ponderhit)
#   …  or ...    alone on a line: any number of output lines (none too)
#   …            inside a line: any text
#   other lines  the engine's output, literally; `info` lines are compared
#                only in a block that shows at least one (else skipped, as
#                a GUI that shows no analysis would)
# Each block becomes a tests/tools/transcript.c file whose line numbers are
# the doc's, so a failure names the doc's file and line.
set -u
BUILD=${1:-build}
BIN=${2:-bin}
T=$(mktemp -d "${TMPDIR:-/tmp}/docs-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
cd "$(dirname "$0")/.." || exit 1

files=$( (ls README.md; find docs -name '*.md') | sort)
for f in $files; do
    mkdir -p "$T/$(dirname "$f")"
    awk -v out="$T/$f" '
    function esc(s,   r, c, i) {
        r = ""
        for (i = 1; i <= length(s); i++) {
            c = substr(s, i, 1)
            if (c == "*" || c == "?" || c == "[" || c == "\\") r = r "\\" c
            else r = r c
        }
        return r
    }
    /^```/ {
        if (!inb) { inb = 1; start = NR; sess = 0; info = 0; next }
        inb = 0
        # info lines are compared when the block shows one, else skipped
        if (sess) { if (info) print "%info" > file; close(file); sess = 0 }
        next
    }
    inb && NR == start + 1 && /^\$ bin\/medan-[a-z]+$/ {
        sess = 1
        file = out "-" NR ".t"
        # the doc line numbers, kept: blank lines above the block
        for (i = 1; i < start; i++) print "" > file
        print "" > file
        eng = substr($0, 7)
        print "%engine " eng > file
        next
    }
    inb && sess {
        line = $0
        if (line ~ /^mep> /) {
            cmd = substr(line, 6)
            if (cmd ~ /^go( |$)/ && (cmd ~ / infinite( |$)/ || cmd ~ / ponder( |$)/ || cmd == "go"))
                print ">& " cmd > file
            else
                print "> " cmd > file
        } else if (line == "…" || line == "...") {
            print "..." > file
        } else if (line == "") {
            print "" > file
        } else {
            if (line ~ /^info( |$)/) info = 1
            line = esc(line)
            gsub(/…/, "*", line)
            print line > file
        }
    }
    ' "$f"
done
set -- $(find "$T" -name '*.t' | sort)
[ $# -gt 0 ] || { echo "docs: no MEP sessions found"; exit 1; }
# The transcripts are named DOC-LINE.t with the doc's line numbers: show
# them as DOC:LINE.
"$BUILD/tools/transcript" "$BIN" "$@" >"$T/out" 2>&1
rc=$?
sed "s|$T/||g; s|\.md-[0-9]*\.t:|.md:|g; s|\.md-\([0-9]*\)\.t|.md (the session of line \1)|g;
    s|^transcripts: |docs transcripts: |" "$T/out"
exit $rc
