#!/bin/sh
# Run every transcript under tests/transcripts/ against the engines in BIN.
# usage: run-transcripts.sh BUILD BIN
build=$1 bin=$2
files=$(find tests/transcripts -name '*.t' | sort)
[ -n "$files" ] || { echo "no transcripts"; exit 1; }
for f in $files; do
    eng=$(sed -n 's/^%engine //p' "$f" | head -1)
    [ -n "$eng" ] || eng=medan-$(basename "$(dirname "$f")")
    if [ ! -x "$bin/$eng" ]; then echo "transcripts: skipping $f ($eng not built)"; continue; fi
    set -- "$@" "$f"
done
shift 2
exec "$build/tools/transcript" "$bin" "$@"
