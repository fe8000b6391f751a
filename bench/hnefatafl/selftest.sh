#!/bin/sh
# selftest.sh - checks of the libhnefatafl tools after `make hnef HNEF_DIR=...`
# (not part of `make test`: CI has no library).  HNEF_BUILD / MEDAN_BIN pick
# the ASan build (build-san, build-san/bin).  Exit status 1 on any failure.
#   - hnef-perft 1..4 counts Medan's leaves;
#   - medan-referee check passes against the adapter (latency as a report);
#   - a king beside a corner, defenders to move: the adapter plays the corner move;
#   - the same position, attackers to move (libhnefatafl thinks the game
#     is lost and returns no move): a legal fallback move, counted on stderr.
set -u
cd "$(dirname "$0")/../.."
hb=${HNEF_BUILD:-build} bin=${MEDAN_BIN:-bin}
eng=$hb/hnef/medan-hnefatafl perft=$hb/hnef/hnef-perft
fail=0
ok() { echo "PASS  $1"; }
ko() { echo "FAIL  $1"; fail=1; }
for p in "$eng" "$perft" "$bin/medan-referee"; do
    [ -x "$p" ] || { echo "selftest.sh: $p missing (make hnef HNEF_DIR=...)" >&2; exit 2; }
done
for dc in 1:116 2:6788 3:806344 4:50456804; do
    d=${dc%%:*} c=${dc#*:}
    "$perft" "$d" | grep -q "^perft $d $c " && ok "hnef-perft $d = $c" || ko "hnef-perft $d != $c"
done
"$bin/medan-referee" check --game fetlar --engine cmd="$eng" --latency report >/tmp/hnef-check.$$ 2>&1 \
    && ok "medan-referee check" || { ko "medan-referee check"; cat /tmp/hnef-check.$$; }
rm -f /tmp/hnef-check.$$
pos=/1K1ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TT1TT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/
out=$( (printf 'mep\nposition fen %s w 0\ngo movetime 300\n' "$pos"; sleep 1; printf 'quit\n') | "$eng" 2>&1)
echo "$out" | grep -q '^bestmove b1-a1$' && ok "king beside a corner: b1-a1" || ko "king beside a corner: $out"
out=$( (printf 'mep\nposition fen %s b 0\ngo movetime 300\n' "$pos"; sleep 1; printf 'quit\n') | "$eng" 2>&1)
mv=$(echo "$out" | sed -n 's/^bestmove //p')
legal=$( (printf 'position fen %s b 0\nlegalmoves\nquit\n' "$pos") | "$bin/medan-fetlar" 2>/dev/null | grep '^moves ')
if [ -n "$mv" ] && echo " $legal " | grep -q " $mv " && echo "$out" | grep -q 'fallback 1 of 1'; then
    ok "no move from libhnefatafl: fallback $mv, counted"
else
    ko "fallback: $out"
fi
[ $fail = 0 ] && echo "selftest: all passed" || echo "selftest: FAILED"
exit $fail
