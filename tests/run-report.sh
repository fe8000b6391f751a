#!/bin/sh
# medan-referee report: the HTML page from real results (a two-seat match
# with an SPRT, a three-seat Battalion match), its content, and its
# rendering in headless Chromium (the screenshot must not be blank); hostile
# text in every field rendered as text (Chromium via selenium); what the
# readers of results files refuse (the caps, /dev/zero, NUL, bad UTF-8,
# directories, FIFOs, numbers out of range) and outputs left whole or absent.
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

# ---- hostile results: every outside string is text, never markup ----------
HOSTILE="$(dirname "$0")/tools/report-hostile.py"
python3 "$HOSTILE" make "$T/loa.jsonl" "$T/hostile.jsonl"
$REF report "$T/hostile.jsonl" --html "$T/hostile.html" --sprt elo0=0 elo1=20 \
    --title "$(python3 "$HOSTILE" title)" >"$T/hostile.out" 2>&1
check $? 0 "report of hostile names, event, parameters, opening, reasons: exit 0"
check "$(grep -ciE '<(script|img|b>|svg on)' "$T/hostile.html")" 0 \
    "report: no script, img, b or svg tag from the records in the page's source"
if /usr/bin/python3 -c 'import selenium' 2>/dev/null && [ -x /usr/bin/chromedriver ]; then
    timeout 300 /usr/bin/python3 "$HOSTILE" check "$T/hostile.html" >"$T/hostile.check" 2>&1 &&
        ok "report: in Chromium the title is unchanged, no element injected, every payload shown as text" ||
        bad "report: hostile text got through: $(cat "$T/hostile.check")"
else
    bad "python3-selenium or chromedriver missing (tests/deps.sh installs them)"
fi

# ---- what the readers of results files refuse ------------------------------
# $1 want status, $2 message (grep -F), $3 what, then the command.
refuse() {
    want=$1 msg=$2 what=$3
    shift 3
    rm -f "$T/out.html"
    "$@" >"$T/r.out" 2>"$T/r.err"
    st=$?
    if [ $st != "$want" ] || ! grep -qF -- "$msg" "$T/r.err"; then
        bad "$what: status $st, want $want and '$msg': $(head -c 300 "$T/r.err")"
    elif [ -e "$T/out.html" ]; then
        bad "$what: an output file was left"
    elif grep -q "$(printf '\033')" "$T/r.err"; then
        bad "$what: a control character from the file reached the terminal"
    else
        ok "$what"
    fi
}
case $BUILD in *san*) VLIM=unlimited ;; *) VLIM=400000 ;; esac # ASan maps terabytes
refuse 1 "/dev/zero: line 1 longer than 4194304 bytes" \
    "report /dev/zero: the line cap, not endless memory (ulimit -v $VLIM)" \
    sh -c "ulimit -v $VLIM; exec timeout 120 $REF report /dev/zero --html $T/out.html"
refuse 1 "/dev/zero: line 1 longer than 4194304 bytes" "merge /dev/zero: the line cap" \
    sh -c "ulimit -v $VLIM; exec timeout 120 $REF merge /dev/zero"
truncate -s 1100M "$T/huge.jsonl"
refuse 1 "huge.jsonl: 1153433600 bytes; a results file holds 1073741824 at most" \
    "report: a results file above 1 GiB is refused before it is read" \
    $REF report "$T/huge.jsonl" --html "$T/out.html"
rm -f "$T/huge.jsonl"
# The same cap on a stream (a pipe has no size): 1 GiB of blank lines.
head -c 4194303 /dev/zero | tr '\0' ' ' >"$T/spaces" && echo >>"$T/spaces"
refuse 1 "/dev/stdin: more than 1073741824 bytes (at line 257)" \
    "report: a stream is cut at 1 GiB (256 lines of 4 MiB)" \
    sh -c "while cat $T/spaces; do :; done | timeout 600 $REF report /dev/stdin --html $T/out.html"
refuse 1 "$T: is a directory" "report: a directory is not a results file" \
    $REF report "$T" --html "$T/out.html"
mkfifo "$T/fifo"
refuse 1 "no games in the results" "report: a FIFO with no writer reads as empty (no hang)" \
    timeout 60 $REF report "$T/fifo" --html "$T/out.html"
refuse 1 "none.jsonl: cannot open: No such file or directory" "report: a missing file named" \
    $REF report "$T/none.jsonl" --html "$T/out.html"
if [ "$(id -u)" != 0 ]; then
    cp "$T/loa.jsonl" "$T/locked.jsonl" && chmod 000 "$T/locked.jsonl"
    refuse 1 "locked.jsonl: cannot open: Permission denied" "report: an unreadable file named" \
        $REF report "$T/locked.jsonl" --html "$T/out.html"
fi
{ head -1 "$T/loa.jsonl"; printf '{"game":2,\0}\n'; sed -n 3p "$T/loa.jsonl"; } >"$T/nul.jsonl"
refuse 1 "nul.jsonl:2: a NUL byte in the line" "report: a NUL byte inside a line" \
    $REF report "$T/nul.jsonl" --html "$T/out.html"
{ head -1 "$T/loa.jsonl"; printf '{"game":2,"seats":["\377\033[2J"]}\n'; sed -n 3p "$T/loa.jsonl"; } >"$T/utf.jsonl"
refuse 1 "utf.jsonl:2: bad JSON: unable to decode byte 0xff" "report: invalid UTF-8 (and no escape byte echoed)" \
    $REF report "$T/utf.jsonl" --html "$T/out.html"
refuse 1 "utf.jsonl:2: bad JSON: unable to decode byte 0xff" "merge: invalid UTF-8" \
    $REF merge "$T/utf.jsonl"
{ sed 's/"ms":[0-9]*/"ms":-100000/' "$T/loa.jsonl"; } >"$T/ms.jsonl"
refuse 1 "ms.jsonl: game 1, move 1: a think time of -100000 ms" \
    "report: a negative think time is refused, not drawn" \
    $REF report "$T/ms.jsonl" --html "$T/out.html"
{ head -1 "$T/loa.jsonl" | sed 's/"game":1,/"game":4294967295,/'; sed -n 2p "$T/loa.jsonl"; } >"$T/big.jsonl"
refuse 1 "big.jsonl:1: game number 4294967295 is not in 1..100000000" \
    "merge: a game number out of range is refused (it wrapped to -1 and crashed)" \
    $REF merge "$T/big.jsonl"
# A blank or CRLF-only line is skipped; a damaged last line is ignored.
{ head -2 "$T/loa.jsonl"; printf '\r\n  \n'; sed -n 3p "$T/loa.jsonl"; printf '{"game":9,\0\n'; } >"$T/blank.jsonl"
$REF report "$T/blank.jsonl" --html "$T/out.html" >"$T/r.out" 2>&1
check "$?:$(cat "$T/r.out")" "0:report: 3 games -> $T/out.html" "report: blank lines skipped, a damaged last line ignored"
# Thousands of engine names: merge and report end (the crosstable was n*n*G
# and its ratings n^3: 6000 names ran past 120 s), the table says why the
# ratings are not shown; a round robin of 40 keeps its crosstable.
python3 - "$T/loa.jsonl" "$T/many.jsonl" "$T/rr.jsonl" <<'PY'
import json, sys
recs = [json.loads(x) for x in open(sys.argv[1])]
with open(sys.argv[2], "w") as f:
    for g in range(1, 6001):
        r = dict(recs[(g - 1) % len(recs)], game=g, seats=["e%d" % (g - 1), "e%d" % (g % 6000)])
        f.write(json.dumps(r) + "\n")
with open(sys.argv[3], "w") as f:
    for g in range(1, 401):
        a = g % 40
        r = dict(recs[(g - 1) % len(recs)], game=g, seats=["e%d" % a, "e%d" % ((a + 1 + g // 40) % 40)])
        f.write(json.dumps(r) + "\n")
PY
timeout 120 $REF merge "$T/many.jsonl" >"$T/many.out" 2>&1
check "$?:$(grep -c '^Ratings and crosstable: not shown for 6000 engines' "$T/many.out")" "0:1" \
    "merge: 6000 engine names end, the ratings not shown (a crosstable of n*n*G ran past 120 s)"
timeout 120 $REF merge "$T/rr.jsonl" >"$T/rr.out" 2>&1
check "$?:$(grep -c '^Ratings (40 engines' "$T/rr.out"):$(grep -c '^Crosstable' "$T/rr.out"):$(grep -c '^e[0-9]* ' "$T/rr.out")" "0:1:1:80" \
    "merge: 40 engines keep their ratings and crosstable (its 40 rows and the results table's 40)"
# Outputs are whole or absent: a failed merge leaves the old file as it was.
echo old >"$T/all.jsonl"
$REF merge "$T/loa.jsonl" "$T/nul.jsonl" --output "$T/all.jsonl" >/dev/null 2>&1
check "$?:$(cat "$T/all.jsonl"):$(ls "$T" | grep -c 'all.jsonl.')" "1:old:0" \
    "merge: an error leaves --output as it was and no temporary file"
$REF merge "$T/loa.jsonl" --output "$T/all.jsonl" >/dev/null 2>&1
check "$?:$(wc -l <"$T/all.jsonl" | tr -d ' ')" "0:8" "merge: --output after the files gets every record"
refuse 1 "cannot write /dev/full" "report: a write error (/dev/full) is an error" \
    $REF report "$T/loa.jsonl" --html /dev/full
ln -s page.html "$T/link.html"
$REF report "$T/loa.jsonl" --html "$T/link.html" >/dev/null 2>&1 # a link to nothing yet
$REF report "$T/loa.jsonl" --html "$T/link.html" >/dev/null 2>&1 # a link to a page
[ -L "$T/link.html" ] && grep -q '</html>' "$T/page.html" &&
    ok "report: --html through a symbolic link writes its target and keeps the link" ||
    bad "report: --html through a symbolic link"

[ $fail = 0 ] && echo "report tests: all $n passed" || echo "report tests: FAILED" >&2
exit $fail
