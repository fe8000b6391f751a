#!/bin/sh
# medan-web at the socket level, no browser (a stage of `make test`):
# tests/web/test_hostile.py (slow and idle connections from many 127.0.0.x
# addresses, one address holding every game, creators racing for a full
# table, Host headers, Threads above the cores) and tests/web/test_ws.py
# (the WebSocket conformance cases, after the Autobahn suite's sections
# 1-7).  Server logs go to BUILD/web-hostile/.
#   usage: sh tests/run-web-hostile.sh BUILD BIN
set -u
BUILD=${1:-build}
BIN=${2:-bin}
OUT=$BUILD/web-hostile
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
rm -rf "$OUT" && mkdir -p "$OUT"
rc=0
timeout 900 "$PY" tests/web/test_hostile.py "$BIN" "$OUT" || rc=1
timeout 600 "$PY" tests/web/test_ws.py "$BIN" "$OUT" || rc=1
[ $rc = 0 ] && echo "web hostile tests: all passed" ||
    echo "web hostile tests: FAILED (server logs in $OUT)" >&2
exit $rc
