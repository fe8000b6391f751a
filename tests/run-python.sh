#!/bin/sh
# run-python.sh - the `python` stage of `make test`: the `medan` Python
# client (gui-adapters/python/).
#   usage: sh tests/run-python.sh BUILD BIN
# 1. its unit tests (a mock engine in Python: split lines, unknown keys, an
#    engine that crashes mid-search or never answers, error codes; hostile
#    engines: each call ends, bounded memory, no process left) and its
#    tests against the four engines of BIN (first in PATH: the plain build,
#    or the ASan/UBSan one), and every example of docs/scripting.md
#    (tests/test_docs.py), under `python3 -m unittest`;
# 2. `pip install` into a fresh virtual environment, offline (Debian's
#    python3-venv, --system-site-packages for Debian's setuptools and wheel,
#    --no-build-isolation --no-index), then used from outside the source tree;
# 3. `make python-install` into a DESTDIR, imported from there.
# Debian's python3 (/usr/bin/python3) when there is one: python3-venv and
# python3-setuptools are its packages (tests/deps.sh).
set -u
BUILD=${1:-build}
BIN=${2:-bin}
MAKE=${MAKE:-make}
cd "$(dirname "$0")/.." || exit 1
ROOT=$(pwd)
PY=${PYTHON:-/usr/bin/python3}
[ -x "$PY" ] || PY=python3
T=$(mktemp -d "${TMPDIR:-/tmp}/python-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
export PYTHONDONTWRITEBYTECODE=1
PATH="$ROOT/$BIN:$PATH"
export PATH
fail=0
echo "python: $($PY --version 2>&1) ($PY); engines from $BIN"

# 1. unit, engines, docs
PYTHONPATH="$ROOT/gui-adapters/python" "$PY" -m unittest discover \
    -s gui-adapters/python/tests -t gui-adapters/python -p 'test_*.py' || fail=1

# 2. pip install into a fresh venv, offline, used from elsewhere
cp -r gui-adapters/python "$T/src" && rm -rf "$T/src/build" "$T/src"/*.egg-info
if "$PY" -m venv --system-site-packages "$T/venv" >"$T/venv.log" 2>&1 &&
    "$T/venv/bin/pip" install --no-index --no-build-isolation "$T/src" >>"$T/venv.log" 2>&1; then
    if (cd "$T" && "$T/venv/bin/python" - "$T/venv") <<'PYEOF'
import sys, medan
assert medan.__file__.startswith(sys.argv[1]), medan.__file__
with medan.Engine.popen("medan-loa") as e:
    info = e.analyse(medan.Position("loa"), medan.Limit(depth=2))
    assert info["depth"] == 2 and info["pv"], info
print("python: pip install into a fresh venv: medan %s from %s" % (medan.__version__, medan.__file__))
PYEOF
    then :; else echo "python: the package installed into the venv does not work"; fail=1; fi
    "$T/venv/bin/pip" uninstall -y medan >/dev/null 2>&1 || { echo "python: pip uninstall failed"; fail=1; }
else
    cat "$T/venv.log"
    echo "python: pip install into a fresh venv failed"
    fail=1
fi

# 3. make install's copy
if $MAKE --no-print-directory -s python-install DESTDIR="$T/inst" PREFIX=/usr/local PYTHON="$PY" >"$T/inst.log" 2>&1; then
    dir=$(find "$T/inst" -type d -name medan -path '*dist-packages*' | head -1)
    if [ -n "$dir" ] && (cd "$T" && PYTHONPATH="${dir%/medan}" "$PY" -c \
        'import medan, sys; assert medan.__file__.startswith(sys.argv[1]); print("python: make install:", medan.__file__)' "$T/inst"); then
        $MAKE --no-print-directory -s python-uninstall DESTDIR="$T/inst" PREFIX=/usr/local PYTHON="$PY" >/dev/null 2>&1
        left=$(find "$T/inst" -type f | head -3)
        [ -z "$left" ] || { echo "python: make python-uninstall left $left"; fail=1; }
    else
        echo "python: make install did not install an importable package"; fail=1
    fi
else
    cat "$T/inst.log"; echo "python: make python-install failed"; fail=1
fi

[ $fail = 0 ] && echo "python: all passed"
exit $fail
