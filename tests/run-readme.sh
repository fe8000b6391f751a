#!/bin/sh
# run-readme.sh - the `readme` stage of `make test` (also `make readme`):
# every command README.md and docs/**/*.md offer to type, run as a new user
# would, in a clean clone of this checkout.  It fails when any of them fails.
#   usage: sh tests/run-readme.sh [--list]
#
# The clone: `git clone` of this checkout's HEAD into a temporary directory,
# so a file that is not committed is missed as it would be for a user;
# uncommitted changes to tracked files (`git diff HEAD`) are applied there,
# and the stage says so.  It is built once, then every command runs at the
# top of the clone with stdin from /dev/null and no make variables of the
# caller (MAKEFLAGS and the like).  Untracked files a command leaves are
# removed after each block (git clean), so each block starts as a user's.
#
# The commands, extracted from the docs themselves:
#  - every line of a fenced ```sh (or bash, shell) block: a `\` at the end
#    continues it; a line that starts with `#` is a comment; a comment after
#    a command is prose, except its part after `→ `, which is an output line
#    the command prints (`…` or `...` matches any text; both streams);
#  - a fenced block whose first line is `$ COMMAND`, other than the bare
#    `$ bin/medan-NAME` of a MEP session (tests/run-docs.sh replays those):
#    a shell transcript; each `$ ` line is a command and the lines after it,
#    up to the next `$ `, what it prints (`…` alone: any lines);
#  - the .nf/.fi blocks of the EXAMPLES of docs/man/*.1, as shell lines,
#    run with an installed copy (make install into a temporary DESTDIR)
#    first in PATH, since they name the installed programs.
# A block that cannot run here is exempted in the doc, by marker lines just
# above its fence, each with its reason (printed when skipped):
#    <!-- readme-test: skip REASON -->          the whole block
#    <!-- readme-test: skip `PREFIX` REASON --> its commands that start with PREFIX
# (in a manual page: `.\" readme-test: skip REASON` above the .nf).
# An unknown marker, or one that exempts nothing, is an error.
# `sh tests/run-readme.sh --list` prints what would run, from this checkout.
#
# Substitutions (the command still runs through the same recipe or binary;
# the stage prints the command as run under the doc's):
#    --games N (N > 2)            --games 2
#    tc=[M/]B[+I] (B > 1 s)       tc=1+0.05
#    make match                   make match MATCH_GAMES=2
#    make bench                   make bench BENCH=quick (tests/bench.sh quick)
#    medan-referee check ...      ... --latency report (latency printed, not judged)
#    make install / uninstall     DESTDIR=<temporary> (never the real PREFIX)
#    man NAME                     man -l <DESTDIR><PREFIX>/share/man/man1/NAME.1
#    make web [WEB_PORT=N]        make web WEB_PORT=0 (any free port)
#    bin/medan-web [--port N]     ... --port 0
# Servers (make web, bin/medan-web) run in the background in a session of
# their own: the stage waits for `serving http://...`, fetches that address
# (the page's <title> must be the one in gui-adapters/web/www/index.html),
# then stops the whole process group by its id.  `make install` is followed
# by a check that every program, manual page, doc and web file is in place
# and every page renders with `man -l` (or groff -ww) without a warning;
# `make uninstall` by a check that no file is left.  A referee match whose
# output shows an illegal move, an engine error or a crash fails; time
# forfeits and stalls are printed as notes (a busy machine may cause them).
# Nothing here bounds wall-clock time; a command gets 15 minutes before it
# is called hung.
#
# Before the docs, the stage checks itself on a small fixture repository
# (--repo DIR runs on another checkout): a failing command, a wrong `→`
# line, a wrong transcript, a file that is not committed, a skip marker,
# the uncommitted changes and the clean-up between blocks must come out
# as expected, or the stage fails.
set -u
SELF=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
mode=run
case ${1:-} in
--list) mode=list ;;
--repo) mode=repo; cd "${2:?--repo DIR}" || exit 1 ;;
"") ;;
*) echo "usage: sh tests/run-readme.sh [--list]" >&2; exit 2 ;;
esac
[ $mode = repo ] || cd "$(dirname "$0")/.." || exit 1
ROOT=$(pwd)
if [ -n "${MEDAN_README_RUN:-}" ] && [ $mode != repo ]; then
    echo "readme: already inside a readme run (a doc runs make test or make readme" \
        "without a readme-test skip marker)" >&2
    exit 1
fi
export MEDAN_README_RUN=1
MAKE=${MAKE:-make}
TIMEOUT=900

T=$(mktemp -d "${TMPDIR:-/tmp}/readme-test.XXXXXX") || exit 1
C=$T/medan
D=$T/destdir
I=$T/installed
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3   # not a slow version-manager shim
pgids=""
cleanup() {
    for g in $pgids; do kill -KILL "-$g" 2>/dev/null; done
    rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- extraction ------------------------------------------------------------------------------------
# One record a command in $T/cmd/NNNN.{meta,run,want}: the meta lines are
#   where FILE:LINE / block N / doc COMMAND / skip REASON / kind plain|server|
#   install|uninstall|man|transcript / expect TEXT (one a `→`);
# .run is the command as run, .want a transcript's stated output.
extract() { # DIR
mkdir -p "$T/cmd"
files=$(cd "$1" && { ls README.md; find docs -name '*.md'; ls docs/man/*.[1-9]; } 2>/dev/null | sort)
(cd "$1" && awk -v out="$T/cmd" -v dest="$D" '
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
# the index of a comment outside quotes (` #` or a leading #), 0 if none
function comment_at(s,   i, c, q) {
    q = ""
    for (i = 1; i <= length(s); i++) {
        c = substr(s, i, 1)
        if (q != "") { if (c == q) q = ""; else if (c == "\\" && q == "\"") i++; continue }
        if (c == "\\") { i++; continue }
        if (c == "\"" || c == "'\''") { q = c; continue }
        if (c == "#" && (i == 1 || substr(s, i - 1, 1) ~ /[ \t]/)) return i
    }
    return 0
}
function die(msg) { print FILENAME ":" FNR ": " msg > "/dev/stderr"; bad = 1 }
# seconds of a tc base: 10, 0.5, 1:30
function secs(b,   p) {
    if (b ~ /:/) { split(b, p, ":"); return p[1] * 60 + p[2] }
    return b + 0
}
function subst(c,   r, pre, tok, n, base, p, head) {
    # --games N -> 2
    r = ""
    while (match(c, /--games [0-9]+/)) {
        tok = substr(c, RSTART, RLENGTH); n = substr(tok, 9) + 0
        r = r substr(c, 1, RSTART - 1) (n > 2 ? "--games 2" : tok)
        c = substr(c, RSTART + RLENGTH)
    }
    c = r c
    # tc=[moves/]base[+inc] with a base over 1 s -> tc=1+0.05
    r = ""
    while (match(c, /tc=([0-9]+\/)?[0-9.:]+(\+[0-9.]+)?/)) {
        tok = substr(c, RSTART, RLENGTH)
        base = substr(tok, 4); sub(/^[0-9]+\//, "", base); sub(/\+.*/, "", base)
        r = r substr(c, 1, RSTART - 1) (secs(base) > 1 ? "tc=1+0.05" : tok)
        c = substr(c, RSTART + RLENGTH)
    }
    c = r c
    kind = "plain"
    if (c ~ /^make( |$)/) {
        if (c ~ / match( |$)/ && c !~ /MATCH_GAMES=/) c = c " MATCH_GAMES=2"
        if (c ~ / bench( |$)/ && c !~ /BENCH=/) c = c " BENCH=quick"
        if (c ~ / (install|uninstall)( |$)/) {
            kind = (c ~ / uninstall( |$)/) ? "uninstall" : "install"
            gsub(/ DESTDIR=[^ ]*/, "", c)
            c = c " DESTDIR=" dest
            prefix = "/usr/local"
            if (match(c, / PREFIX=[^ ]+/)) prefix = substr(c, RSTART + 8, RLENGTH - 8)
        }
        if (c ~ / web( |$)/) {
            kind = "server"
            if (c ~ /WEB_PORT=/) gsub(/WEB_PORT=[^ ]*/, "WEB_PORT=0", c)
            else c = c " WEB_PORT=0"
        }
    } else if (c ~ /^(bin\/)?medan-web( |$)/ && c !~ / --(help|version)/) {
        kind = "server"
        if (c ~ / --port /) gsub(/ --port [^ ]+/, " --port 0", c)
        else c = c " --port 0"
    } else if (c ~ /^(bin\/)?medan-referee check( |$)/ && c !~ / --latency /) {
        c = c " --latency report"
    } else if (c ~ /^man [a-z0-9-]+$/) {
        kind = "man"
        c = "man -l " dest prefix "/share/man/man1/" substr(c, 5) ".1"
    }
    return c
}
function emit(doc, run, line, expect,   b, i, f) {
    ncmd++
    b = sprintf("%s/%04d", out, ncmd)
    f = b ".meta"
    print "where " FILENAME ":" line > f
    print "block " nblock > f
    print "doc " doc > f
    print "kind " kind > f
    if (man) print "path installed" > f
    for (i = 1; i <= nskip; i++)
        if (skip_pfx[i] == "" || index(doc, skip_pfx[i]) == 1) {
            print "skip " skip_why[i] > f
            skip_used[i] = 1
            break
        }
    if (expect != "") print "expect " expect > f
    close(f)
    print run > (b ".run"); close(b ".run")
}
function flush_tr() {
    if (tr_cmd == "") return
    kind = "plain"
    run = subst(tr_cmd)
    emit(tr_cmd, run, tr_line, "")
    print "kind transcript" >> (sprintf("%s/%04d", out, ncmd) ".meta")
    close(sprintf("%s/%04d", out, ncmd) ".meta")
    printf "%s", tr_out > (sprintf("%s/%04d", out, ncmd) ".want")
    close(sprintf("%s/%04d", out, ncmd) ".want")
    tr_cmd = ""
}
function end_markers(   i) {
    for (i = 1; i <= nskip; i++)
        if (!skip_used[i]) die("readme-test marker exempts nothing: " skip_pfx[i] " " skip_why[i])
    nskip = 0
}
# a marker line (markdown: <!-- readme-test: ... -->; roff: .\" readme-test: ...)
function marker(m) {
    sub(/^<!-- readme-test: /, "", m); sub(/ -->$/, "", m)
    sub(/^\.\\" readme-test: /, "", m)
    if (m !~ /^skip /) { die("unknown readme-test marker: " $0); return }
    m = substr(m, 6)
    nskip++; skip_pfx[nskip] = ""; skip_used[nskip] = 0
    if (m ~ /^`[^`]+`/) {
        skip_pfx[nskip] = substr(m, 2, index(substr(m, 2), "`") - 1)
        m = trim(substr(m, length(skip_pfx[nskip]) + 3))
        sub(/^[:,] */, "", m)
    }
    if (m == "") die("readme-test marker without a reason")
    skip_why[nskip] = m
    pending = 1
}
function open_block(sh) {
    inb = 1; nblock++; shell = sh
    first = 1; cont = ""; tr = 0; tr_cmd = ""
    if (!pending) nskip = 0
    pending = 0
}
function close_block() {
    inb = 0
    if (cont != "") die("a continued command at the end of the block")
    if (tr) flush_tr()
    end_markers()
}
# one line of a shell block
function shell_line(line,   k, comment, cmd, expect, run) {
    if (cont == "") { if (trim(line) == "" || trim(line) ~ /^#/) return; start = FNR }
    if (line ~ /\\$/) { cont = cont substr(line, 1, length(line) - 1) " "; return }
    cmd = cont line; cont = ""
    expect = ""
    k = comment_at(cmd)
    if (k > 0) {
        comment = substr(cmd, k + 1)
        cmd = substr(cmd, 1, k - 1)
        if (index(comment, "→ ") > 0) expect = trim(substr(comment, index(comment, "→ ") + length("→ ")))
    }
    cmd = trim(cmd); gsub(/[ \t]+/, " ", cmd)
    run = subst(cmd)
    emit(cmd, run, start, expect)
}
# roff to text, for the lines of a manual page example
function unroff(s) {
    gsub(/\\\(aq/, "'\''", s); gsub(/\\\(dq/, "\"", s)
    gsub(/\\-/, "-", s); gsub(/\\&/, "", s); gsub(/\\e/, "\\", s)
    return s
}
FNR == 1 { prefix = "/usr/local"; inb = 0; nskip = 0; pending = 0; ex = 0; man = (FILENAME ~ /\.[1-9]$/) }
# manual pages: the .nf/.fi (or .EX/.EE) blocks of EXAMPLES, run against an
# installed copy (the names are the installed programs)
man {
    if ($0 ~ /^\.SH /) { if (inb) close_block(); ex = ($0 ~ /^\.SH "?EXAMPLES?"?$/); next }
    if (!ex) next
    if (!inb && $0 ~ /^\.\\" readme-test:/) { marker($0); next }
    if (!inb && $0 ~ /^\.(nf|EX)/) { open_block(1); next }
    if (inb && $0 ~ /^\.(fi|EE)/) { close_block(); next }
    if (inb && $0 !~ /^\./) shell_line(unroff($0))
    next
}
!inb && /^<!-- readme-test:/ { marker($0); next }
/^```/ {
    if (!inb) {
        info = trim(substr($0, 4)); sub(/ .*/, "", info)
        open_block(info == "sh" || info == "bash" || info == "shell")
        next
    }
    close_block()
    next
}
!inb && pending && !/^[ \t]*$/ { die("a readme-test marker must stand just above a fence"); pending = 0; nskip = 0 }
inb && !shell {
    if (first) {
        first = 0
        tr = ($0 ~ /^\$ / && $0 !~ /^\$ bin\/medan-[a-z]+$/)
    }
    if (!tr) next
    if ($0 ~ /^\$ /) {
        flush_tr()
        tr_cmd = substr($0, 3); tr_line = FNR; tr_out = ""
    } else tr_out = tr_out $0 "\n"
    next
}
inb && shell { shell_line($0) }
END { exit bad }
' $files) || { echo "readme: the docs markers are wrong (above)"; exit 1; }
}


# --list: what would run, from this checkout's docs (no clone, no build).
if [ $mode = list ]; then
    extract "$ROOT"
    for m in "$T"/cmd/*.meta; do
        [ -f "$m" ] || continue
        sed -n 's/^where //p' "$m" | tr '\n' ' '
        sed -n 's/^doc //p' "$m"
        r=$(cat "${m%.meta}.run")
        [ "$r" = "$(sed -n 's/^doc //p' "$m")" ] || grep -q '^skip ' "$m" || printf '    as: %s\n' "$r"
        sed -n 's/^skip /    skip: /p; s/^expect /    expect: /p' "$m"
    done
    exit 0
fi

# --- the self-test -------------------------------------------------------------------------------
selftest() {
    F=$T/fixture
    mkdir -p "$F/docs" || return 1
    printf 'all:\n\t@echo built\n' >"$F/Makefile"
    echo old >"$F/data.txt"
    cat >"$F/README.md" <<'FIXTURE'
```sh
true
echo hello              # prose, then → hello
cat data.txt            # → new
```
<!-- readme-test: skip `false` it fails on purpose -->
```sh
false
echo x >leftover.txt
```
```sh
test ! -e leftover.txt
```
```
$ printf 'a\nb\nc\n'
a
…
c
```
FIXTURE
    cat >"$F/docs/x.md" <<'FIXTURE'
```sh
false
echo hi                 # → bye
cat untracked.txt
sh -c 'exit 3'
```
```
$ echo one
two
```
FIXTURE
    (cd "$F" && git init -q && git add -A &&
        git -c user.name=t -c user.email=t@localhost commit -q -m fixture) ||
        { echo "readme: self-test: cannot make the fixture repository" >&2; return 1; }
    echo new >"$F/data.txt"
    echo untracked >"$F/untracked.txt"
    env -u MEDAN_README_RUN sh "$SELF" --repo "$F" >"$T/selftest.out" 2>&1
    rc=$?
    got=$(awk '/^run  / { w = $2 } /^  FAIL:/ && w != last { printf "%s", w; last = w }' "$T/selftest.out")
    want="docs/x.md:2:docs/x.md:3:docs/x.md:4:docs/x.md:5:docs/x.md:8:"
    if [ $rc = 0 ] || [ "$got" != "$want" ] ||
        ! grep -q '^readme: 11 commands run, 5 failed, 1 skipped' "$T/selftest.out" ||
        ! grep -q '^readme: applied the uncommitted changes to 1 tracked' "$T/selftest.out"; then
        echo "readme: self-test on a fixture: exit status $rc, failures at '$got' (want '$want'):"
        sed 's/^/  | /' "$T/selftest.out"
        return 1
    fi
    echo "readme: self-test: the 5 bad commands of a fixture's 11 are caught"
}
[ $mode = run ] && { selftest || exit 1; }

# --- the clone -----------------------------------------------------------------------------------
head=$(git rev-parse HEAD) || { echo "readme: not a git checkout" >&2; exit 1; }
git clone -q "$ROOT" "$C" || { echo "readme: git clone failed" >&2; exit 1; }
if [ "$(git -C "$C" rev-parse HEAD)" != "$head" ]; then
    git -C "$C" checkout -q --detach "$head" ||
        { echo "readme: the clone has no $head" >&2; exit 1; }
fi
echo "readme: clean clone of $(git log -1 --format='%h %s' | cut -c1-70) in $C"
git diff HEAD --binary >"$T/wip.diff"
if [ -s "$T/wip.diff" ]; then
    n=$(git diff HEAD --name-only | wc -l)
    git -C "$C" apply --binary "$T/wip.diff" ||
        { echo "readme: cannot apply the uncommitted changes" >&2; exit 1; }
    # committed in the clone, so the clean-up between blocks keeps them
    git -C "$C" add -A &&
        git -C "$C" -c user.name=readme -c user.email=readme@localhost \
            commit -q -m "uncommitted changes of $ROOT" ||
        { echo "readme: cannot commit the uncommitted changes in the clone" >&2; exit 1; }
    echo "readme: applied the uncommitted changes to $n tracked file(s) (git diff HEAD)"
fi
untracked=$(git ls-files --others --exclude-standard | head -5 | tr '\n' ' ')
[ -n "$untracked" ] && echo "readme: not in the clone (untracked, as for a user): $untracked"

jobs=""
case " ${MAKEFLAGS:-} " in
*j*) ;;
*) jobs=-j$(nproc 2>/dev/null || echo 2) ;;
esac
t0=$(date +%s)
if ! $MAKE -C "$C" --no-print-directory $jobs all >"$T/build.log" 2>&1; then
    tail -30 "$T/build.log"
    echo "readme: the clone does not build: every command fails"
    exit 1
fi
echo "readme: built the clone ($(($(date +%s) - t0)) s)"

extract "$C"

# --- running ---------------------------------------------------------------------------------------
failn=0 ran=0 skipped=0
fail() { printf '  FAIL: %s\n' "$*"; failn=$((failn + 1)); }
meta() { sed -n "s/^$1 //p" "$2" | head -1; }

# glob_line PATTERN LINE: does LINE match PATTERN (… or ... = any text)?
glob_line() {
    awk -v p="$1" -v s="$2" 'BEGIN {
        gsub(/…/, "\001", p); gsub(/\.\.\./, "\001", p)
        gsub(/[][\\^$.|()*+?{}]/, "\\\\&", p); gsub(/\001/, ".*", p)
        exit !(s ~ ("^" p "$")) }'
}
# any_line PATTERN FILE: does some line of FILE match PATTERN?
any_line() {
    while IFS= read -r l; do glob_line "$1" "$l" && return 0; done <"$2"
    return 1
}
# transcript WANT GOT: the stated lines in order (`…` alone: any lines);
# prints the first stated line that is not there.
transcript() {
    awk -v wantf="$1" '
    function pat(p) {
        gsub(/…/, "\001", p); gsub(/\.\.\./, "\001", p)
        gsub(/[][\\^$.|()*+?{}]/, "\\\\&", p); gsub(/\001/, ".*", p)
        return "^" p "$"
    }
    BEGIN { while ((getline l < wantf) > 0) w[++nw] = l }
    { g[++ng] = $0 }
    END {
        i = 1; j = 1
        while (i <= nw) {
            if (w[i] == "…" || w[i] == "...") {
                if (i == nw) exit 0
                while (j <= ng && g[j] !~ pat(w[i + 1])) j++
                i++
                continue
            }
            if (j > ng || g[j] !~ pat(w[i])) { print w[i]; exit 1 }
            i++; j++
        }
        if (j <= ng) { print "(nothing more; it printed: " g[j] ")"; exit 1 }
    }' "$2"
}
# The run's environment: a user's shell, none of the caller's make state.
run_env() {
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES -u MAKE -u MAKEFILES \
        MANPAGER=cat PAGER=cat MANWIDTH=80 "$@"
}
# renders FILE: man -l (or groff -man -ww) without a warning
render() {
    if command -v man >/dev/null 2>&1; then
        run_env man -l "$1" >"$T/man.out" 2>"$T/man.err"
    else
        groff -man -Tutf8 -ww "$1" >"$T/man.out" 2>"$T/man.err"
    fi
    [ -s "$T/man.err" ] && { echo "$(basename "$1"): $(head -3 "$T/man.err")"; return 1; }
    [ "$(wc -l <"$T/man.out")" -gt 10 ] || { echo "$(basename "$1"): renders nearly empty"; return 1; }
    return 0
}
check_install() { # PREFIX
    p=$D$1 missing=""
    for f in "$C"/bin/*; do [ -x "$p/bin/${f##*/}" ] || missing="$missing bin/${f##*/}"; done
    for f in "$C"/docs/man/*.1; do [ -f "$p/share/man/man1/${f##*/}" ] || missing="$missing man1/${f##*/}"; done
    for f in README.md $(cd "$C/docs" && find . -name '*.md' | sed 's|^\./||'); do
        [ -f "$p/share/doc/medan/$f" ] || missing="$missing doc/$f"
    done
    for f in "$C"/gui-adapters/web/www/*; do
        [ -f "$p/share/medan/www/${f##*/}" ] || missing="$missing share/medan/www/${f##*/}"
    done
    [ -z "$missing" ] || fail "make install left out:$missing"
    n=0
    for m in "$p"/share/man/man1/*.1; do
        [ -f "$m" ] || continue
        r=$(render "$m") || fail "man -l $r"
        n=$((n + 1))
    done
    echo "  installed: $(ls "$C"/bin | wc -l) programs, $n manual pages (each rendered), the docs"
}
# referee matches: illegal moves, engine errors and crashes fail; time
# forfeits and stalls are noted.
check_match() { # LOG
    if grep -Eq '\{(illegal_move|engine_error|crash)' "$1"; then
        fail "an engine failed: $(grep -E '\{(illegal_move|engine_error|crash)' "$1" | head -3 | tr '\n' ' ')"
    fi
    n=$(grep -Ec '\{(time_forfeit|stall)' "$1")
    [ "$n" -gt 0 ] && echo "  note: $n game(s) forfeited on time or stalled (a busy machine?)"
    return 0
}
# serve RUN LOG EXPECT: start a server, fetch the address it prints, stop it.
title=$(sed -n 's|.*<title>\(.*\)</title>.*|\1|p' "$C/gui-adapters/web/www/index.html" 2>/dev/null | head -1)
# launch RUN LOG: start RUN at the top of the clone in a session of its own
# (under timeout), in the background; sets spid and g, its process group.
launch() {
    rm -f "$T/pgid"
    (cd "$C" && run_env setsid sh -c 'echo $$ >"$1"; exec timeout -k 10 "$2" sh -c "$3"' \
        sh "$T/pgid" $TIMEOUT "$1" </dev/null >"$2" 2>&1) &
    spid=$!
    g=""
    while [ -z "$g" ]; do
        [ -s "$T/pgid" ] && g=$(cat "$T/pgid") && break
        kill -0 $spid 2>/dev/null || break
        sleep 0.05
    done
    [ -n "$g" ] && pgids="$pgids $g"
}
# stop: the process group of the last launch, SIGTERM then SIGKILL.
stop() {
    [ -n "$g" ] || return 0
    kill -TERM "-$g" 2>/dev/null
    i=0
    while kill -0 "-$g" 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
    if kill -0 "-$g" 2>/dev/null; then
        echo "  note: still running after SIGTERM; killed"
        kill -KILL "-$g" 2>/dev/null
    fi
    pgids=$(echo " $pgids " | sed "s/ $g / /")
}
serve() {
    launch "$1" "$2"
    i=0 url=""
    while [ $i -lt 3000 ]; do   # a guard against a hang, not a bound
        url=$(sed -n 's|.*serving \(http://[^ ]*\).*|\1|p' "$2" | head -1)
        [ -n "$url" ] && break
        kill -0 $spid 2>/dev/null || break
        sleep 0.1
        i=$((i + 1))
    done
    if [ -z "$url" ]; then
        fail "it printed no 'serving http://...' line"
    elif ! $PY - "$url" "$title" >"$T/fetch.out" 2>&1 <<'EOF'
import sys, urllib.request
url, title = sys.argv[1], sys.argv[2]
with urllib.request.urlopen(url, timeout=120) as r:
    body = r.read().decode("utf-8", "replace")
    if r.status != 200 or ("<title>%s</title>" % title) not in body:
        sys.exit("%s: status %d, no <title>%s</title> in %d bytes" % (url, r.status, title, len(body)))
print("%s: the page (%d bytes)" % (url, len(body)))
EOF
    then
        fail "$(tail -1 "$T/fetch.out")"
    else
        echo "  fetched $(cat "$T/fetch.out")"
    fi
    stop
    wait $spid 2>/dev/null
    [ -z "$3" ] || any_line "$3" "$2" || fail "no line '$3' in its output"
}

prev_block=""
for m in "$T"/cmd/*.meta; do
    [ -f "$m" ] || continue
    b=${m%.meta}
    where=$(meta where "$m") doc=$(meta doc "$m") kind=$(grep '^kind ' "$m" | tail -1 | cut -c6-)
    skip=$(meta skip "$m") expect=$(meta expect "$m") block=$(meta block "$m")
    run=$(cat "$b.run") path=$(meta path "$m")
    if [ "$block" != "$prev_block" ]; then
        # a new block starts as a fresh checkout would (build outputs stay)
        git -C "$C" clean -fdq >/dev/null 2>&1
        prev_block=$block
    fi
    if [ -n "$skip" ]; then
        printf 'skip %s: %s\n' "$where" "$doc"
        printf '  why: %s\n' "$skip"
        skipped=$((skipped + 1))
        continue
    fi
    printf 'run  %s: %s\n' "$where" "$doc"
    [ "$run" = "$doc" ] || printf '  as: %s\n' "$run"
    ran=$((ran + 1))
    f0=$failn t1=$(date +%s)
    log=$T/out.$(basename "$b")
    if [ "$path" = installed ]; then
        # a manual page's example: the installed programs, as its reader has them
        if [ ! -d "$I" ]; then
            (cd "$C" && run_env make -s install DESTDIR="$I" PREFIX=/usr/local) >"$T/inst.log" 2>&1 ||
                { cat "$T/inst.log"; fail "make install for the manual pages' examples failed"; }
        fi
        echo "  with $I/usr/local/bin first in PATH"
        run="PATH=\"$I/usr/local/bin:\$PATH\"; export PATH; $run"
    fi
    case $kind in
    server)
        serve "$run" "$log" "$expect"
        ;;
    *)
        launch "$run" "$log"
        wait $spid
        rc=$?
        stop   # what the command left running
        [ $rc = 124 ] && fail "no end after $TIMEOUT s (hung?)"
        [ $rc != 0 ] && [ $rc != 124 ] && fail "exit status $rc"
        if [ $rc = 0 ]; then
            case $kind in
            install)
                pfx=$(printf '%s\n' "$run" | sed -n 's/.* PREFIX=\([^ ]*\).*/\1/p')
                check_install "${pfx:-/usr/local}"
                ;;
            uninstall)
                left=$(find "$D" -type f 2>/dev/null | head -5)
                [ -z "$left" ] || fail "make uninstall left: $left"
                rm -rf "$D"
                ;;
            man) r=$(render "${run##* }") || fail "$r" ;;
            transcript)
                miss=$(transcript "$b.want" "$log") || fail "the doc says '$miss'"
                ;;
            esac
        fi
        case $run in *medan-referee*|make*match*) check_match "$log" ;; esac
        [ -z "$expect" ] || any_line "$expect" "$log" || fail "no line '$expect' in its output"
        ;;
    esac
    if [ $failn != "$f0" ]; then
        echo "  --- its output (last 25 lines):"
        tail -25 "$log" | sed 's/^/  | /'
    else
        echo "  ok ($(($(date +%s) - t1)) s)"
    fi
done
[ $ran -gt 0 ] || { echo "readme: no commands found in the docs"; exit 1; }
echo "readme: $ran commands run, $failn failed, $skipped skipped (reasons above)"
[ $failn = 0 ]
