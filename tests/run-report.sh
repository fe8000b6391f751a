#!/bin/sh
# medan-referee report: the HTML page from real results (a two-seat match
# with an SPRT, a three-seat Battalion match), its content, and its
# rendering in headless Chromium (the screenshot must not be blank).
#   usage: sh tests/run-report.sh BUILD BIN
set -u
BUILD=${1:-build}
BIN=${2:-bin}
REF=$BIN/medan-referee
T=$(mktemp -d "${TMPDIR:-/tmp}/report-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/check-lib.sh"
PNGSTATS="$(dirname "$0")/tools/png-stats.py"

$REF --game loa --engine name=deep cmd="$BIN/medan-loa" \
    --engine name=greedy cmd="$BIN/medan-loa" option.Strategy=greedy \
    --each depth=3 --games 8 --seed 4 --openings random-plies=4 --logdir none \
    --quiet --results "$T/loa.jsonl" >/dev/null 2>&1
check "$(wc -l <"$T/loa.jsonl" | tr -d ' ')" 8 "a two-seat match to report on"
grep -q '"depth":3' "$T/loa.jsonl" && ok "records carry the depth of each move" ||
    bad "no depth in the records"
$REF report "$T/loa.jsonl" --html "$T/loa.html" --sprt elo0=0 elo1=20 --title 'deep <vs> greedy' \
    >"$T/loa.out" 2>&1
check $? 0 "report: exit 0"
check "$(grep -o "<svg" "$T/loa.html" | wc -l | tr -d " ")" 9 "report: Elo, SPRT, openings, 4 ending bars, time, depth"
for h in 'Elo of deep against greedy' 'SPRT (elo0=0 elo1=20' 'Score of deep by opening' \
    'Endings per engine and seat' 'Time used per move' 'Depth reached per move' \
    'deep &lt;vs&gt; greedy'; do
    grep -qF "$h" "$T/loa.html" || bad "report: no '$h'"
done
ok "report: every section and an escaped title"
grep -Eq 'src=|href=|@import|url\(' "$T/loa.html" && bad "report loads something from outside" ||
    ok "report: self-contained (no src, href, url)"

$REF --game battalion players=3 --engine name=r1 cmd="$BIN/medan-battalion" option.Strategy=random \
    --engine name=r2 cmd="$BIN/medan-battalion" option.Strategy=random \
    --each st=2 --games 3 --seed 2 --logdir none --quiet --results "$T/bat.jsonl" >/dev/null 2>&1
$REF report "$T/bat.jsonl" --html "$T/bat.html" >"$T/bat.out" 2>&1
check $? 0 "report of a three-seat match: exit 0"
grep -q 'Results per engine' "$T/bat.html" && ok "report: N seats get the per-engine table" ||
    bad "report: no per-engine table for N seats"

$REF report "$T/none.jsonl" --html "$T/x.html" >/dev/null 2>&1 && bad "report of a missing file succeeds" ||
    ok "report: a missing results file is an error"
$REF report "$T/loa.jsonl" >/dev/null 2>&1 && bad "report without --html succeeds" ||
    ok "report: --html is required"

# Rendered by a browser: the screenshot has pictures on it.
CHROME=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROME" ]; then
    bad "chromium is not installed (Debian: chromium; tests/deps.sh installs it)"
elif ! command -v python3 >/dev/null 2>&1; then
    bad "python3 is not installed (needed to read the screenshot)"
else
    timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --user-data-dir="$T/chrome" --window-size=800,2200 \
        --screenshot="$T/loa.png" "file://$T/loa.html" >"$T/chrome.out" 2>&1
    if [ -s "$T/loa.png" ]; then
        stats=$(python3 "$PNGSTATS" "$T/loa.png")
        distinct=$(echo "$stats" | sed -n 's/.*distinct=\([0-9]*\).*/\1/p')
        ink=$(echo "$stats" | sed -n 's/.*ink=0\.\([0-9][0-9]\).*/\1/p')
        [ "${distinct:-0}" -ge 20 ] && [ "${ink:-0}" -ge 5 ] &&
            ok "report: rendered by Chromium, not blank ($stats)" ||
            bad "report: the screenshot looks blank ($stats)"
    else
        bad "report: Chromium wrote no screenshot: $(tail -3 "$T/chrome.out")"
    fi
fi

[ $fail = 0 ] && echo "report tests: all $n passed" || echo "report tests: FAILED" >&2
exit $fail
