#!/bin/sh
# medan-web in headless Chromium (tests/web/test_web.py): every game played
# through the page, analysis, a match, the server's refusals, engine crash
# and reaping; then the analysis board (tests/web/test_board.py).  Screenshots and the benchmark figures go to BUILD/web/.
#   usage: sh tests/run-web.sh BUILD BIN
set -u
BUILD=${1:-build}
BIN=${2:-bin}
OUT=$BUILD/web
# Debian's python3-selenium lives in the system Python.
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
if ! "$PY" -c 'import selenium' 2>/dev/null; then
    echo "web tests: python3-selenium is not installed (tests/deps.sh installs it)" >&2
    exit 1
fi
if ! command -v chromedriver >/dev/null 2>&1 && [ ! -x /usr/bin/chromedriver ]; then
    echo "web tests: chromium-driver is not installed (tests/deps.sh installs it)" >&2
    exit 1
fi
rm -rf "$OUT" && mkdir -p "$OUT"
timeout 1200 "$PY" tests/web/test_web.py "$BIN" "$OUT"
rc=$?
# errors of the referee's library end a match, never the server (over HTTP):
# no opening, a full results directory, refused settings with their message
timeout 900 "$PY" tests/web/test_web_errors.py "$BIN" "$OUT" || rc=1
# the analysis board: variations, eval bar and graph, records, share link, drag and drop
timeout 900 "$PY" tests/web/test_board.py "$BIN" "$OUT" || rc=1
[ $rc = 0 ] && echo "web tests: all passed (screenshots in $OUT)" || {
    echo "web tests: FAILED (server log: $OUT/server.log)" >&2
    tail -20 "$OUT/server.log" >&2
}
exit $rc
