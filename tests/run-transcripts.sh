#!/bin/sh
# Run every transcript under tests/transcripts/ against the engines in BIN
# (the toy games of tests/games/: in BUILD/games).
# usage: run-transcripts.sh BUILD BIN
build=$1 bin=$2
files=$(find tests/transcripts -name '*.t' | sort)
toys=""
[ -n "$files" ] || { echo "no transcripts"; exit 1; }
for f in $files; do
    eng=$(sed -n 's/^%engine //p' "$f" | head -1)
    [ -n "$eng" ] || eng=medan-$(basename "$(dirname "$f")")
    if [ -x "$bin/$eng" ]; then set -- "$@" "$f"
    elif [ -x "$build/games/$eng" ]; then toys="$toys $f"
    else echo "transcripts: skipping $f ($eng not built)"; fi
done
shift 2
rc=0
"$build/tools/transcript" "$bin" "$@" || rc=1
if [ -n "$toys" ]; then
    # shellcheck disable=SC2086 # one word per file
    "$build/tools/transcript" "$build/games" $toys || rc=1
fi
exit $rc
