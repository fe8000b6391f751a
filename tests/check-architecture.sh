#!/bin/sh
# The house as docs/architecture.md describes it:
#  1. every tracked file appears in the map (by full path, or by its base
#     name on a line that names a sibling by full path);
#  2. every `#include "..."` of every tracked .c/.h file follows the Layers
#     section: a file may include files of its own layer and of the layers
#     its layer's line names, nothing else.  No exception list.
#  3. library code never ends the process (tests/check-exits.sh, with its
#     self-test: a planted exit() must be caught).
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

# The Layers section: lines "- `layer`: `other` `other` ..." (or "(nothing)")
# between "## Layers" and the next "## " heading.  A layer is a folder;
# `*` in it stands for any one folder name (each match a layer of its own).
# A file belongs to the first layer, in the order listed, whose folder
# holds it.
bad_layers=0
git ls-files -- '*.c' '*.h' | awk -v doc="$doc" '
function fail(msg) { print msg > "/dev/stderr"; nbad++ }
# "a/../b/./c" -> "b/c"; "" when it climbs out of the checkout.
function norm(p,    n, a, i, k, st, out) {
    n = split(p, a, "/"); k = 0
    for (i = 1; i <= n; i++) {
        if (a[i] == "" || a[i] == ".") continue
        if (a[i] == "..") { if (k == 0) return ""; k--; continue }
        st[++k] = a[i]
    }
    out = ""
    for (i = 1; i <= k; i++) out = out (i > 1 ? "/" : "") st[i]
    return out
}
# The layer of path f: sets LI (index of its line) and LN (the layer it is
# in, `*` filled in); returns 0 when no layer holds f.
function layer_of(f,    i, j, np, nf, pp, fp, name) {
    nf = split(f, fp, "/")
    for (i = 1; i <= nl; i++) {
        np = split(L[i], pp, "/")
        if (nf <= np) continue
        name = ""
        for (j = 1; j <= np; j++) {
            if (pp[j] != "*" && pp[j] != fp[j]) break
            name = name (j > 1 ? "/" : "") fp[j]
        }
        if (j > np) { LI = i; LN = name; return 1 }
    }
    return 0
}
BEGIN {
    insec = 0; nl = 0
    while ((getline line < doc) > 0) {
        if (line ~ /^## /) { insec = (line ~ /^## Layers/); continue }
        if (!insec || line !~ /^- `[^`]+`:/) continue
        name = line; sub(/^- `/, "", name); sub(/`.*/, "", name)
        rest = line; sub(/^- `[^`]+`:/, "", rest)
        L[++nl] = name; IDX[name] = nl
        ALLOWSTR[nl] = rest
    }
    close(doc)
    if (nl == 0) { fail(doc ": no Layers section (lines \"- `layer`: `other` ...\")"); exit }
    for (i = 1; i <= nl; i++) {
        rest = ALLOWSTR[i]
        if (rest ~ /^[ \t]*\(nothing\)[ \t]*$/) continue
        while (match(rest, /`[^`]+`/)) {
            a = substr(rest, RSTART + 1, RLENGTH - 2)
            rest = substr(rest, RSTART + RLENGTH)
            if (!(a in IDX)) fail(doc ": layer " L[i] " names " a ", which is no layer")
            else ALLOW[i, IDX[a]] = 1
        }
    }
}
{ tracked[$0] = 1; files[++nf] = $0 }
END {
    if (nl == 0) exit 1
    nchecked = 0
    for (k = 1; k <= nf; k++) {
        f = files[k]
        if (!layer_of(f)) { fail(f ": in no layer of " doc); continue }
        fi = LI; fl = LN
        dir = f; if (!sub(/\/[^\/]*$/, "", dir)) dir = "."
        ln = 0
        while ((getline line < f) > 0) {
            ln++
            if (line !~ /^[ \t]*#[ \t]*include[ \t]*"/) continue
            inc = line; sub(/^[ \t]*#[ \t]*include[ \t]*"/, "", inc); sub(/".*/, "", inc)
            # as the compiler looks: beside the file, then from the top (-I.)
            t = norm(dir "/" inc)
            if (!(t in tracked)) t = norm(inc)
            if (!(t in tracked)) { fail(f ":" ln ": includes \"" inc "\", which is no tracked file"); continue }
            nchecked++
            if (!layer_of(t)) { fail(f ":" ln ": includes " t ", which is in no layer"); continue }
            if (LN == fl || ALLOW[fi, LI]) continue
            fail(f ":" ln ": " fl " (layer " L[fi] ") may not include " t " (layer " L[LI] ")")
        }
        close(f)
    }
    if (!nbad) printf "layers: %d includes of %d files follow the Layers section\n", nchecked, nf
    exit nbad ? 1 : 0
}' || bad_layers=1
bad_exits=0
sh tests/check-exits.sh --self-test || bad_exits=1
sh tests/check-exits.sh || bad_exits=1
[ $missing = 0 ] && [ $bad_layers = 0 ] && [ $bad_exits = 0 ]
