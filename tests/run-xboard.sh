#!/bin/sh
# tests/run-xboard.sh BUILD BIN - the `xboard` stage: medan-xboard over CECP
# without X (every command, bad input), then XBoard 4.9 under Xvfb playing a
# whole engine-vs-engine game of each variant with the adapter on both
# sides; screenshots to SHOTS/xboard-<variant>.png (BUILD/xboard, or
# $XBOARD_SHOTS: `XBOARD_SHOTS=docs/img make xboard` renews the docs' ones).  Exit 77 (skipped)
# only when xboard or Xvfb is missing and cannot be installed.
BUILD=${1:-build}; BIN=${2:-bin}
SHOTS=${XBOARD_SHOTS:-$BUILD/xboard}
mkdir -p "$SHOTS" || { echo "xboard: FAIL: cannot make $SHOTS"; exit 1; }
BIN=$(cd "$BIN" && pwd)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail() { echo "xboard: FAIL: $*"; exit 1; }
X="$BIN/medan-xboard"
# a sanitizer build's reports, from the adapter and its engines wherever
# they run (under XBoard too), go to files checked at the end
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=$T/san"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}log_path=$T/san:print_stacktrace=1"
sancheck() {
    ! ls "$T"/san.* >/dev/null 2>&1 || fail "sanitizer report: $(cat "$T"/san.* | head -20)"
}

# (a) CECP transcript, no X.  A ping after our own move is answered only
# after the move, so the order of the lines is fixed.
printf '%s\n' xboard 'protover 2' new 'variant fetlar' post 'sd 2' 'st 1' \
  'level 40 5 0' 'time 30000' 'otim 30000' 'usermove f2f3' 'ping 1' \
  'lift f4' 'usermove d6d7' 'usermove zz9' 'ping 2' undo undo remove \
  'setboard 3MMMMM3/5M5/11/M4m4M/M3mmm3M/MM1mmqmm1MM/M3mmm3M/M4m4M/11/5M5/3MMMMM3 w - - 0 1' \
  'setboard garbage' 'variant chess' 'foo bar' 'option Hash=16' 'option Nope=1' \
  force 'usermove f2f3' go '?' 'ping 3' analyze 'usermove f4c4' exit 'ping 4' \
  new 'variant loa' force 'setboard 6mm/8/8/8/8/4M3/7M/6m1 w - - 0 1' \
  'usermove e3g1' 'ping 5' quit | "$X" > "$T/a.out" 2>"$T/a.err" || fail "exit status"
check() { grep -q -- "$1" "$T/a.out" || fail "no line '$1' in the transcript (see below)"; }
check '^feature variants="loa,fetlar"'
check '^feature option="Hash -spin 64 1 65536"'
check '^feature option="Strategy -combo \*search /// greedy /// random"'
check '^feature done=1'
check '^setup (....Q.....MK....q.....mk) 11x11+0_fairy 3MMMMM3/5M5/11/M4m4M/M3mmm3M/MM1mmqmm1MM/M3mmm3M/M4m4M/11/5M5/3MMMMM3 w - - 0 1'
check '^1 [-0-9]* [0-9]* [0-9]* '
check '^Illegal move: d6d7'
check '^Illegal move (not a move of fetlar): zz9'
check '^Error (no move to take back): remove'
check "^tellusererror Illegal position: 'g' is not a piece of fetlar here"
check '^Error (unsupported variant): chess'
check '^Error (unknown command): foo bar'
check '^Error (option refused'
check '^highlight 11/11/11/11/11/11/11/11/11/11/11'
check '^1-0 {Black wins: connected}'
# the move comes before its pong
awk '/^move /{m=1} /^pong 1$/{exit !m}' "$T/a.out" || fail "pong 1 before the move"
[ "$(grep -c '^pong' "$T/a.out")" = 5 ] || fail "not five pongs"
[ "$(grep -c '^move ' "$T/a.out")" = 2 ] || fail "not two engine moves"
# Fetlar captures entered in the GUI: lift marks the victim cyan, lift on
# the victim marks the to-square and clicks it; a capture without its
# victims is refused (XBoard would keep them on its board); two victims as
# three legs; three victims: two of them entered (all XBoard can show)
printf '%s\n' xboard 'protover 2' new 'variant fetlar' force \
  'setboard 11/11/11/4M6/4m6/11/11/4M6/11/2q8/11 w - - 0 1' 'lift e4' 'put e5' 'lift e7' \
  'lift e4' 'put e7' 'lift e7' \
  'usermove e4e6' 'usermove e4e7,e7e6' 'ping 1' \
  'setboard 11/11/11/11/11/4M6/4m6/2Mm1m5/11/9q1/4M6 w - - 0 1' 'usermove e1d4,d4e4' \
  'usermove e1d4,d4e5,e5e4' 'ping 2' \
  'setboard 11/11/11/11/11/4M6/4m6/2Mm1mM4/11/9q1/4M6 w - - 0 1' 'usermove e1e4' \
  'usermove e1d4,d4f4,f4e4' 'ping 3' | "$X" > "$T/b.out" 2>&1
b() { grep -q -- "$1" "$T/b.out" || fail "no line '$1': $(grep -v '^feature' "$T/b.out")"; }
nb() { ! grep -q -- "$1" "$T/b.out" || fail "a line '$1'"; }
b '^highlight 11/11/11/11/4C6/11/4Y6/YYYY1YYYYYY/4Y6/4Y6/4Y6$'
b '^highlight 11/11/11/11/11/4Y6/11/11/11/11/11$'
# a drop on a quiet square ends the entry: lifting e7 then is a new lift of
# a piece that cannot move (attackers to move), nothing marked
b '^highlight 11/11/11/11/11/11/11/11/11/11/11$'
b '^click e6$'
b '^Illegal move (it captures 1, enter the victims): e4e6$'
nb '^Illegal move.*e4e7,e7e6'
b '^Illegal move (it captures 2, enter the victims): e1d4,d4e4$'
nb '^Illegal move.*e1d4,d4e5,e5e4'
b '^Illegal move (it captures 3, enter the victims): e1e4$'
nb '^Illegal move.*e1d4,d4f4,f4e4'
[ "$(grep -c '^pong' "$T/b.out")" = 3 ] || fail "multi-leg: not three pongs"
# analysis bounded by sd (so its lines come before the next pong), post,
# unprintable bytes, an over-long line
{ printf '%s\n' xboard 'protover 2' new 'variant loa' force post 'sd 3' analyze 'ping 1' \
    'usermove b1b3' 'ping 2' exit 'ping 3'
  printf 'usermove \001\002b1b3\n'
  head -c 70000 /dev/zero | tr '\0' 'x'; printf '\nping 4\nquit\n'; } | "$X" > "$T/c.out" 2>&1 || fail "analysis session: exit status"
awk '/^3 -?[0-9]+ [0-9]+ [0-9]+ [a-h][1-8][a-h][1-8]/{d++} /^pong 1$/{p1 = d} /^pong 2$/{p2 = d}
     END { exit !(p1 >= 1 && p2 >= 2) }' "$T/c.out" || fail "analysis lines not before the pongs: $(grep -v '^feature' "$T/c.out")"
grep -q '^Error (not printable ASCII): the line$' "$T/c.out" || fail "unprintable bytes not refused"
grep -q '^pong 4$' "$T/c.out" || fail "no pong after an over-long line"
! grep -q "$(printf '\001')" "$T/c.out" || fail "a control byte echoed"
# a variant whose engine cannot start (no medan-fetlar beside the adapter)
# is said, and the adapter stays usable; an engine of another game is
# refused at start
mkdir "$T/lonely" && cp "$X" "$BIN/medan-loa" "$T/lonely/"
printf '%s\n' xboard 'protover 2' new 'variant fetlar' 'usermove e1e4' 'lift e1' 'ping 1' \
  'variant loa' 'usermove b1b3' 'ping 2' quit | "$T/lonely/medan-xboard" > "$T/d.out" 2>&1 || fail "lonely: exit status"
grep -q "^tellusererror Medan: cannot start $T/lonely/medan-fetlar" "$T/d.out" || fail "lonely: $(grep -v '^feature' "$T/d.out")"
grep -q '^pong 2$' "$T/d.out" && ! grep -q '^Illegal move: b1b3' "$T/d.out" || fail "lonely: not usable after: $(grep -v '^feature' "$T/d.out")"
if "$X" "$BIN/medan-palagan" </dev/null >/dev/null 2>&1; then fail "a Palagan engine was taken"; fi
# a draw (Fetlar's 100 plies without a capture: XBoard's half-move clock
# goes to the engine), and no move after the end
printf '%s\n' xboard 'protover 2' new 'variant fetlar' force \
  'setboard 11/11/11/11/11/4M6/4m6/2Mm1m5/11/9q1/4M6 w - - 99 1' 'usermove e1e2' \
  'usermove j2j3' 'ping 1' | "$X" > "$T/e.out" 2>&1
grep -q '^1/2-1/2 {Draw: no capture}$' "$T/e.out" && grep -q '^Illegal move (the game is over): j2j3$' "$T/e.out" ||
    fail "draw: $(grep -v '^feature' "$T/e.out")"
# clocks: level/time/otim and st/sd become the engine's go limits (--log)
printf '%s\n' xboard 'protover 2' new 'variant fetlar' 'sd 2' 'level 40 5 2' 'time 30000' \
  'otim 29000' 'usermove f2f3' 'ping 1' 'st 1' force go 'ping 2' quit |
  "$X" --log "$T/clock.log" > "$T/f.out" 2>&1
grep -q '^e< go depth 2 p2time 300000 p1time 290000 p1inc 2000 p2inc 2000 movestogo 40$' "$T/clock.log" &&
  grep -q '^e< go depth 2 movetime 1000$' "$T/clock.log" || fail "clocks: $(grep 'e< go' "$T/clock.log")"
# EOF in the middle of a search ends the adapter and its engine
printf 'xboard\nprotover 2\nnew\nvariant loa\nsd 30\ngo\n' | "$X" >/dev/null 2>&1 || fail "EOF during a search"
sancheck
echo "xboard: CECP transcript ok"

# (b) XBoard under Xvfb
XB=$(command -v xboard || ls /usr/games/xboard 2>/dev/null)
if [ -z "$XB" ] || ! command -v Xvfb >/dev/null 2>&1; then
    [ "$(id -u)" = 0 ] && sh tests/deps.sh >/dev/null 2>&1
    XB=$(command -v xboard || ls /usr/games/xboard 2>/dev/null)
    if [ -z "$XB" ] || ! command -v Xvfb >/dev/null 2>&1; then
        echo "skipped: xboard or Xvfb not installed (tests/deps.sh installs them as root)"; exit 77
    fi
fi
D=:$((90 + $$ % 100))
Xvfb $D -screen 0 1024x768x24 >/dev/null 2>&1 & XV=$!
trap 'kill $XV 2>/dev/null; rm -rf "$T"' EXIT
export HOME="$T" DISPLAY=$D
for i in $(seq 100); do xwininfo -root >/dev/null 2>&1 && break; sleep 0.1; done
# xbgame NAME VARIANT FCP SCP: a one-game match, screenshot
# SHOTS/xboard-NAME.png, checks
xbgame() {
    v=$2
    "$XB" -variant $v -testLegality false -matchMode true -matchGames 1 \
        -fcp "$3" -scp "$4" -fd "$T" -sd "$T" -searchDepth 2 \
        -saveGameFile "$T/$1.pgn" -debugMode true -nameOfDebugFile "$T/$1.debug" \
        -saveSettingsOnExit false >"$T/$1.xb" 2>&1 & XP=$!
    # the game's end: the PGN has its result, then XBoard shows the match
    # result in its "Exiting" box and waits (bounds only against a hang)
    n=0
    until grep -q '^\[Result "[^*]' "$T/$1.pgn" 2>/dev/null; do
        kill -0 $XP 2>/dev/null || break
        ! grep -qi 'Illegal move\|forfeit' "$T/$1.debug" 2>/dev/null || break
        n=$((n + 1)); [ $n -lt 6000 ] || break; sleep 0.1
    done
    n=0
    grep -q '^\[Result "[^*]' "$T/$1.pgn" 2>/dev/null || n=3000
    until [ $n -ge 3000 ] || xwininfo -root -tree 2>/dev/null | grep -q '"Exiting"'; do
        kill -0 $XP 2>/dev/null || break
        n=$((n + 1)); [ $n -lt 3000 ] || break; sleep 0.1
    done
    xwd -root -silent | convert xwd:- -trim -dither None -colors 48 "png8:$SHOTS/xboard-$1.png" || fail "$1: no screenshot"
    kill $XP 2>/dev/null; wait $XP 2>/dev/null
    grep -q '^\[Result "\(1-0\|0-1\|1/2-1/2\)"\]' "$T/$1.pgn" || fail "$1: no result in the saved game: $(tail -5 "$T/$1.pgn" 2>/dev/null)"
    grep -q "^{.*} \(1-0\|0-1\|1/2-1/2\)" "$T/$1.pgn" || fail "$1: no reason"
    ! grep -q "Illegal move" "$T/$1.debug" || fail "$1: $(grep -m1 'Illegal move' "$T/$1.debug")"
    ! grep -qi "forfeit" "$T/$1.debug" || fail "$1: a forfeit"
    # the screenshot is a board: a real image with many colours
    c=$(convert "$SHOTS/xboard-$1.png" -format %k info:)
    [ "${c:-0}" -gt 12 ] || fail "$1: the screenshot has $c colours"
    echo "xboard: $1 under XBoard: $(grep '^\[Result' "$T/$1.pgn") $(grep -o '{[^}]*} [-0-9/]*$' "$T/$1.pgn"), $SHOTS/xboard-$1.png"
}
xbgame loa loa "$X" "$X"
xbgame fetlar fetlar "$X" "$X"
# three victims in one move (e1-e4 takes d4, f4 and e5; greedy plays it):
# XBoard gets two of them and passes both on to the other engine, the game
# goes on to its end
F="/4t6/11/11/2tT1Tt4/4T6/4t6/11/11/11/9K1/11/ b 0"
xbgame fetlar-3victims fetlar "$X --fen '$F' --option Strategy=greedy" "$X --fen '$F'"
grep -q '<first : # e1-e4 removes 3 pieces; XBoard shows only two of them' "$T/fetlar-3victims.debug" || fail "3 victims: no note"
grep -q '>second: e1d4,d4f4,f4e4' "$T/fetlar-3victims.debug" || fail "3 victims: not passed on as three legs: $(grep -m3 'second: usermove\|>second: e1' "$T/fetlar-3victims.debug")"
sancheck
echo "xboard: ok"
