#!/bin/sh
# Every tracked file must appear in docs/architecture.md (by full path, or by
# its base name on a line that names a sibling by full path).
cd "$(dirname "$0")/.." || exit 1
doc=docs/architecture.md
missing=0
for f in $(git ls-files 2>/dev/null); do
    [ "$f" = "$doc" ] && continue
    grep -q "\`$f\`" "$doc" && continue
    dir=$(dirname "$f") base=$(basename "$f")
    grep "\`$dir/" "$doc" | grep -q "\`$base\`" && continue
    echo "docs/architecture.md does not map $f" >&2
    missing=$((missing + 1))
done
[ $missing = 0 ] && echo "architecture map: every file listed"
[ $missing = 0 ]
