#!/bin/sh
# What a user of the programs meets outside MEP (a stage of make test):
# --help/--version/usage errors of every program, subcommand errors that
# name the program, analyze of a finished game, the Bench: fingerprints of
# the MCTS engines, the build (portable default, NATIVE=1, quiet recipes), the
# referee's refusals (another game, no time control),
# `make install` into a DESTDIR with every manual page rendered, and the
# interactive console driven through tmux (Ctrl-C, completion, show during
# a search, the prompt after bestmove).
#   usage: MAKE=make SAN=0 sh tests/run-cli.sh BUILD BIN
set -u
BUILD=${1:-build}
BIN=${2:-bin}
T=$(mktemp -d "${TMPDIR:-/tmp}/cli-test.XXXXXX")
TMUX_SOCK=medan-cli-$$
trap 'tmux -L $TMUX_SOCK kill-server 2>/dev/null; rm -rf "$T"' EXIT
. "$(dirname "$0")/check-lib.sh"
VERSION=$(sed -n 's/^#define MEDAN_VERSION "\(.*\)"/\1/p' core/version.h)

# --- --help, --version, usage errors ---------------------------------------------------
for p in medan-loa medan-fetlar medan-palagan medan-battalion medan-referee medan-opentafl \
         medan-otbridge medan-battalion-duplicate medan-slurm-match medan-web medan-xboard; do
    [ -x "$BIN/$p" ] || { bad "$p not built"; continue; }
    for a in --help -h help; do
        "$BIN/$p" $a </dev/null >"$T/o" 2>"$T/e"; rc=$?
        check "$rc/$(grep -c '^usage:' "$T/o")/$(wc -c <"$T/e" | tr -d ' ')" "0/1/0" \
            "$p $a: usage on stdout, exit 0"
    done
    "$BIN/$p" --version </dev/null >"$T/o" 2>"$T/e"; rc=$?
    check "$rc/$(cat "$T/o")" "0/$p (Medan) $VERSION$(case $p in medan-loa|medan-fetlar|medan-palagan|medan-battalion) echo ', MEP 1';; esac)" \
        "$p --version"
    "$BIN/$p" --no-such-flag </dev/null >"$T/o" 2>"$T/e"; rc=$?
    [ $rc != 0 ] && grep -q -- "^usage: \|--help" "$T/e" && ok "$p: a bad argument exits $rc with usage on stderr" ||
        bad "$p --no-such-flag: exit $rc, stderr: $(head -2 "$T/e")"
done
# Thread-local storage is paid by every thread of a program (medan-web's
# WebSocket threads have 256 KB stacks, and 268 KB of an engine's static
# thread-local scratch made them all fail): each program keeps it under 16 KB.
if command -v readelf >/dev/null 2>&1; then
    for p in "$BIN"/medan-*; do
        tls=$(readelf -lW "$p" 2>/dev/null | awk '$1 == "TLS" {print $6}')
        tls=$(printf '%d' "${tls:-0}")
        [ "${tls:-0}" -lt 16384 ] && ok "${p##*/}: thread-local storage ${tls:-0} bytes (< 16 KB)" ||
            bad "${p##*/}: thread-local storage $tls bytes: move big per-thread scratch out of _Thread_local"
    done
fi
"$BIN/medan-referee" </dev/null >"$T/o" 2>"$T/e"; rc=$?
check "$rc/$(wc -c <"$T/o" | tr -d ' ')/$(count '^usage: ' "$T/e")" "1/0/1" "medan-referee without arguments: usage on stderr, exit 1"
# Every subcommand's --help (and -h) is help: its usage on stdout, exit 0.
for sub in tune report check sprt-sim parallel slurm merge; do
    for a in --help -h; do
        "$BIN/medan-referee" $sub $a </dev/null >"$T/o" 2>"$T/e"; rc=$?
        check "$rc/$(grep -c "^usage: medan-referee $sub" "$T/o")/$(wc -c <"$T/e" | tr -d ' ')" "0/1/0" \
            "medan-referee $sub $a: its usage on stdout, exit 0"
    done
done
"$BIN/medan-opentafl" "$T/no-such-engine" </dev/null >"$T/o" 2>"$T/e"; rc=$?
check "$rc/$(count 'cannot start the engine' "$T/o")" "1/1" "medan-opentafl: an engine that cannot start is an error (exit 1)"

# --- subcommands --------------------------------------------------------------------------
"$BIN/medan-loa" perft x >"$T/o" 2>"$T/e"; rc=$?
check "$rc/$(count '^medan-loa: usage: perft' "$T/e")" "1/1" "subcommand errors name the program"
"$BIN/medan-palagan" analyze --fen "nonsense" >"$T/o" 2>"$T/e"
check "$(count '^medan-palagan: bad position' "$T/e")" "1" "medan-palagan analyze: error names the program"
"$BIN/medan-loa" analyze --fen "ww6/8/8/8/8/4b3/7b/6w1 b" --moves e3xg1 >"$T/o" 2>"$T/e"; rc=$?
check "$rc/$(cat "$T/o")" "0/result p1win reason connected scores 1 0" "analyze of a finished game prints its result"
"$BIN/medan-battalion" analyze players=3 --depth 1 >"$T/o" 2>"$T/e"; rc=$?
check "$rc/$(count '^bestmove ' "$T/o")" "0/1" "medan-battalion analyze --depth ends (1000 iterations)"
# analyze drives the MEP session in-process: its errors and guards, not a copy.
"$BIN/medan-loa" analyze --moves a1a1 >"$T/o" 2>"$T/e"; rc=$?
check "$rc/$(wc -c <"$T/o" | tr -d ' ')/$(count '^medan-loa: bad move: error illegal_move 1 a1a1 ' "$T/e")" "1/0/1" \
    "analyze: an illegal move gets the session's error (exit 1, nothing on stdout)"
"$BIN/medan-loa" analyze --fen "ww6/8/8/8/8/4b3/7b/6w1 b" --moves e3xg1 a1b1 >"$T/o" 2>"$T/e"; rc=$?
check "$rc/$(count "^medan-loa: bad move: error illegal_move 2 a1b1 the game is over" "$T/e")" "1/1" \
    "analyze: a move after the end of the game is refused"
"$BIN/medan-battalion" analyze players=3 seat=5 --depth 1 >"$T/o" 2>"$T/e"; rc=$?
check "$rc/$(wc -c <"$T/o" | tr -d ' ')/$(count '^medan-battalion: bad parameter: error bad_value seat=5' "$T/e")" "1/0/1" \
    "analyze: parameters get the whole-config check (seat=5 of 3 refused, no search)"
"$BIN/medan-loa" analyze --depth 0 >"$T/o" 2>"$T/e"; rc=$?
check "$rc/$(count '^medan-loa: cannot search: error bad_value go: depth takes 1..1000' "$T/e")" "1/1" \
    "analyze: the limits get go's checks"
"$BIN/medan-loa" analyze --option Nope=1 >"$T/o" 2>"$T/e"; rc=$?
check "$rc/$(count "^medan-loa: bad option: error unknown_option no option 'Nope'" "$T/e")" "1/1" \
    "analyze: --option gets setoption's checks"
"$BIN/medan-loa" analyze --option Hash=2 --nodes 500 >"$T/o" 2>"$T/e"; rc=$?
check "$rc/$(count '^info ' "$T/o" | sed 's/^[1-9][0-9]*$/N/')/$(count '^bestmove [a-h][1-8]-[a-h][1-8]' "$T/o")" "0/N/1" \
    "analyze: info lines, then one bestmove"
# analyze --multipv N: go multipv N, the N best moves at every depth, one line each
"$BIN/medan-loa" analyze --depth 3 --multipv 3 >"$T/o" 2>"$T/e"; rc=$?
firsts=$(sed -n 's/^info depth 3 .* multipv \([1-3]\) .* pv \([^ ]*\).*/\1 \2/p' "$T/o")
check "$rc/$(echo "$firsts" | awk '{print $1}' | tr -d '\n')/$(echo "$firsts" | awk '{print $2}' | sort -u | wc -l | tr -d ' ')" \
    "0/123/3" "analyze --multipv 3: three lines at the last depth, three different first moves"
check "$(sed -n 's/^bestmove \([^ ]*\).*/\1/p' "$T/o")" "$(echo "$firsts" | sed -n 's/^1 //p')" \
    "analyze --multipv 3: the bestmove is line 1's first move"
"$BIN/medan-palagan" analyze --multipv 2 --nodes 300 >"$T/o" 2>"$T/e"; rc=$?
check "$rc/$(count ' multipv 2 ' "$T/o" | sed 's/^[1-9][0-9]*$/N/')/$(count '^bestmove ' "$T/o")" "0/N/1" \
    "medan-palagan analyze --multipv 2: second lines, one bestmove"
"$BUILD/games/medan-nim" analyze --multipv 2 >"$T/o" 2>"$T/e"; rc=$?
check "$rc/$(count '^info depth 8 .* multipv 2 ' "$T/o")" "0/1" \
    "analyze --multipv alone: the default depth 8 still bounds the search"
"$BIN/medan-loa" analyze --multipv 0 >"$T/o" 2>"$T/e"; rc=$?
check "$rc/$(count '^medan-loa: cannot search: error bad_value go: multipv takes 1..256' "$T/e")/$(wc -c <"$T/o" | tr -d ' ')" \
    "1/1/0" "analyze --multipv 0: go's check, nothing searched"
"$BIN/medan-loa" analyze --multipv >"$T/o" 2>"$T/e"; rc=$?
check "$rc/$(count "^medan-loa: unexpected argument '--multipv'" "$T/e")" "1/1" "analyze --multipv without N: refused"

# --- medan-battalion-duplicate --fit: the learned leaf's weights --------------------------------
"$BIN/medan-battalion-duplicate" --fit 400 --players 5 --fit-drop chips >"$T/o" 2>"$T/e"; rc=$?
best=$(sed -n 's/^--set leaf5_best=\([0-9.]*\) .*/\1/p' "$T/o")
check "$rc/$(count '^--set leaf5_' "$T/o")/$(count '^--set leaf5_chips=0   (held at 0)$' "$T/o")/$(count '^battalion leaf fit: 400 games' "$T/o")" \
    "0/8/1/1" "duplicate --fit: a weight per feature, the dropped one held at 0"
awk -v b="$best" 'BEGIN { exit !(b > 0.1 && b < 1) }' &&
    ok "duplicate --fit: a best-suit point is worth $best chips (0.1..1)" ||
    bad "duplicate --fit: best-suit weight '$best'"
"$BIN/medan-battalion-duplicate" --fit 40 --fit-strong 1 --iters 20 --fit-drop chips >"$T/o" 2>"$T/e"; rc=$?
check "$rc/$(count '^--set self4_' "$T/o")/$(count 'against the search (its seat only)' "$T/o")" \
    "0/8/1" "duplicate --fit-strong 1: the search's own weights, self4_*"
"$BIN/medan-battalion-duplicate" --fit 10 --fit-drop nosuch >"$T/o" 2>"$T/e"; rc=$?
check "$rc/$(count 'no such leaf feature' "$T/e")" "2/1" "duplicate --fit-drop: an unknown feature is refused"
# numbers are checked whole: atoi once read "--fit 0" or "--fit abc" as no fit and ran a match
for arg in "--fit 0" "--fit abc" "--deals 5x" "--seed -1" "--players 9" "--ms 0"; do
    # shellcheck disable=SC2086 # option and value as two words
    "$BIN/medan-battalion-duplicate" $arg >"$T/o" 2>"$T/e"; rc=$?
    check "$rc/$(count 'takes a whole number' "$T/e")/$(wc -c <"$T/o")" "2/1/0" \
        "duplicate $arg: refused, nothing run"
done

# --- Bench: a fingerprint of a fixed search ------------------------------------------------
for g in palagan battalion; do
    a=$("$BIN/medan-$g" bench 2>/dev/null | sed -n 's/^Bench: //p')
    b=$("$BIN/medan-$g" bench 2>/dev/null | sed -n 's/^Bench: //p')
    c=$("$BIN/medan-$g" bench 1 2>"$T/e" | sed -n 's/^Bench: //p')
    sims=$(grep -o '[0-9]* \(simulations\|iterations\)' "$T/e" | cut -d' ' -f1)
    if [ -n "$a" ] && [ "$a" = "$b" ] && [ "$a" != "$c" ] && [ "$c" != "$sims" ]; then
        ok "$g: Bench: $a is deterministic and is the tree size, not the playout count ($sims)"
    else bad "$g: Bench: '$a' '$b' (bench 1: '$c', $sims simulations)"; fi
done

# --- make bench BENCH=strength, at toy sizes: every part prints its figure ------------------
STRENGTH_OUT="$T/strength" SMP_GAMES=2 SMP_ST=0.02 SMP_ST_FETLAR=0.02 SMP_MAXMOVES_FETLAR=20 GREEDY_SEEDS=104 GREEDY_ROUNDS=2 \
    GREEDY_NODES=500 HNEF_GAMES=1 HNEF_ST=0.05 BAT_DEALS=2 BAT_MS=2 \
    sh tests/bench-strength.sh "$BIN" >"$T/o" 2>"$T/e"; rc=$?
check "$rc/$(count '^loa Threads=2 against Threads=1.*Elo difference' "$T/o")/$(count '^fetlar Threads=2.*--maxmoves 20.*Elo difference' "$T/o")" \
    "0/1/1" "bench-strength: the two Threads matches print their Elo (Fetlar's with its draw adjudication)"
check "$(count '^fetlar attackers against greedy.*score [0-9.]* \[.*draws in positions scored' "$T/o")/$(count '^fetlar attackers against libhnefatafl' "$T/o")" \
    "1/1" "bench-strength: the attackers' score with its interval (libhnefatafl: a figure or how to build it)"
check "$(count '^battalion against the three heuristics.*chips gained per game: [-+][0-9.]*  95% CI' "$T/o")/$(count '^battalion Threads=2 against 1.*chips gained' "$T/o")" \
    "1/1" "bench-strength: Battalion's chips and its Threads match, with intervals"
sh tests/bench-strength.sh "$BIN" no-such-part >"$T/o" 2>"$T/e"; rc=$?
check "$rc/$(count "unknown part 'no-such-part'" "$T/e")/$(wc -c <"$T/o" | tr -d ' ')" "2/1/0" \
    "bench-strength: an unknown part is refused, nothing run"

# --- the referee's refusals ------------------------------------------------------------------
"$BIN/medan-referee" --game palagan --engine cmd="$BIN/medan-loa" --engine cmd="$BIN/medan-loa" \
    --each st=0.01 --games 2 --logdir none >"$T/o" 2>"$T/e"; rc=$?
check "$rc/$(count 'plays loa, not palagan' "$T/e")/$(count 'Finished game' "$T/o")" "2/1/0" \
    "referee: an engine whose game line names another game: no game starts"
"$BIN/medan-referee" --game loa --engine name=a cmd="$BIN/medan-loa" option.Strategy=random \
    --engine name=b cmd="$BIN/medan-loa" option.Strategy=random --games 2 --logdir none \
    --nolimit-timeout 3000 --results "$T/notc.jsonl" >"$T/o" 2>"$T/e"; rc=$?
check "$rc/$(count 'has no time control' "$T/e")/$(count '"forfeit":null' "$T/notc.jsonl")" "0/2/2" \
    "referee: engines without a time control are warned about and play at st=1"
# Time controls that would mean no limit or a loss on the first move: refused
# with a message, before any engine starts (they were played as st=1, or lost).
for tc in tc=inf tc=40/0+1 tc=0+1 tc=0.0001; do
    "$BIN/medan-referee" --game loa --engine cmd="$BIN/medan-loa" --engine cmd="$BIN/medan-loa" \
        --each $tc --games 2 --logdir none >"$T/o" 2>"$T/e"; rc=$?
    check "$rc/$(count 'no limit\|bad time control' "$T/e")/$(count 'Started game' "$T/o")" "1/1/0" \
        "referee: --each $tc refused with a message ($(head -1 "$T/e" | cut -c1-60))"
done
"$BIN/medan-referee" --game loa --engine cmd="$BIN/medan-loa" --engine cmd="$BIN/medan-loa" \
    --each st=1 --rounds 99999999999999999999 >"$T/o" 2>"$T/e"; rc=$?
check "$rc/$(count 'rounds needs a whole number from 1 to 100000000' "$T/e")" "1/1" \
    "referee: --rounds out of range names its range"
# A match that cannot find its opening stops with the reason (exit 2), it
# does not die in the library (medan-web plays through it).
"$BIN/medan-referee" --game loa --engine cmd="$BIN/medan-loa" --engine cmd="$BIN/medan-loa" \
    --each depth=1 --openings random-plies=1000 --games 2 --logdir none >"$T/o" 2>"$T/e"; rc=$?
check "$rc/$(count 'Match stopped early: no random opening of 1000 plies found' "$T/o")" "2/1" \
    "referee: no opening found: the match stops with its reason, exit 2"

# --- the build: portable by default, quiet, one convention --------------------------------
# The default build (this pass's, make install's, CI's) is nothing machine-specific; NATIVE=1
# asks for -march=native; every recipe line of the Makefile and the module.mk files is quiet
# (@ or $(Q), so V=1 shows it).
if grep -q -- '-march=native' "$BUILD/.flags" 2>/dev/null || [ ! -s "$BUILD/.flags" ]; then
    bad "the default build: $(cat "$BUILD/.flags" 2>/dev/null || echo 'no flags stamp')"
else ok "the default build is portable (no -march=native)"; fi
nat=$(${MAKE:-make} -s -n -B NATIVE=1 SAN=${SAN:-0} BUILD="$T/nb" BIN="$T/nbin" "$T/nb/core/util.o" 2>&1)
rm -rf "$T/nb"
case $nat in *-march=native*) ok "make NATIVE=1 compiles with -march=native" ;;
    *) bad "make NATIVE=1: $nat" ;; esac
# native code is never installed: make install NATIVE=1 is refused before building
if ${MAKE:-make} -s -n NATIVE=1 SAN=${SAN:-0} BUILD="$T/nb" BIN="$T/nbin" DESTDIR="$T/ni" install >"$T/ni.out" 2>&1; then
    bad "make install NATIVE=1 was not refused"
else check "$(grep -c 'make install NATIVE=1: native binaries' "$T/ni.out")" 1 "make install NATIVE=1 is refused"; fi
rm -rf "$T/nb" "$T/ni"
loud=$(awk 'FNR == 1 { cont = 0 }
    /^\t/ && !cont && !/^\t(@|\$\(Q\)|\$\$\(Q\))/ { print FILENAME ":" FNR ": " $0 }
    { cont = /\\$/ }' Makefile $(git ls-files '*module.mk'))
check "$loud" "" "every recipe line is quiet (@ or \$(Q))"
grep -q -- '-Wno-unused-parameter' Makefile && bad "Makefile: -Wno-unused-parameter is back" ||
    ok "one convention for unused parameters: (void)x, warned about otherwise"

# --- make install into a DESTDIR ---------------------------------------------------------------
D=$T/destdir
${MAKE:-make} -s install SAN=${SAN:-0} DESTDIR="$D" PREFIX=/usr >"$T/inst.out" 2>&1 ||
    { bad "make install failed"; cat "$T/inst.out" >&2; }
missing=""
for p in medan-loa medan-fetlar medan-palagan medan-battalion medan-referee medan-opentafl \
         medan-otbridge medan-battalion-duplicate medan-slurm-match medan-web medan-xboard; do
    [ -x "$D/usr/bin/$p" ] || missing="$missing bin/$p"
    [ -f "$D/usr/share/man/man1/$p.1" ] || missing="$missing man1/$p.1"
done
for f in README.md protocol.md referee.md architecture.md games/loa.md games/fetlar.md \
         games/palagan.md games/battalion.md gui-adapters/opentafl.md gui-adapters/web.md; do
    [ -f "$D/usr/share/doc/medan/$f" ] || missing="$missing doc/$f"
done
for f in index.html app.js app.css; do
    [ -f "$D/usr/share/medan/www/$f" ] || missing="$missing share/medan/www/$f"
done
for f in loa.epd fetlar.epd palagan.epd make-suite.py; do
    [ -f "$D/usr/share/medan/openings/$f" ] || missing="$missing share/medan/openings/$f"
done
check "$missing" "" "make install: programs, manual pages and docs in place"
check "$("$D/usr/bin/medan-loa" --version)" "medan-loa (Medan) $VERSION, MEP 1" "the installed engine runs"
for m in "$D"/usr/share/man/man1/*.1; do
    name=${m##*/}
    if grep -q '@[A-Z]*@' "$m"; then bad "$name: placeholders left"; continue; fi
    if command -v groff >/dev/null 2>&1; then
        groff -man -Tascii -ww "$m" >"$T/man.out" 2>"$T/man.err"
        [ ! -s "$T/man.err" ] && [ "$(wc -l <"$T/man.out")" -gt 20 ] &&
            ok "$name renders without warnings" || bad "$name: $(head -3 "$T/man.err")"
    elif command -v mandoc >/dev/null 2>&1; then
        mandoc -Tlint "$m" >"$T/man.err" 2>&1 && ok "$name: mandoc -Tlint clean" ||
            bad "$name: $(head -3 "$T/man.err")"
    else echo "skip $name: neither groff nor mandoc"; fi
    if command -v man >/dev/null 2>&1; then
        MANWIDTH=80 man -l "$m" >"$T/man.out" 2>"$T/man.err"
        [ ! -s "$T/man.err" ] && grep -q "$VERSION" "$T/man.out" && ok "man -l $name" ||
            bad "man -l $name: $(head -3 "$T/man.err")"
    fi
done

# --- the interactive console, through tmux ----------------------------------------------------
# screen TEXT [SECONDS]: wait until the pane shows TEXT (a grep pattern).
screen() {
    i=0
    while [ $i -lt $((${2:-30} * 10)) ]; do
        tmux -L $TMUX_SOCK capture-pane -p -S -200 >"$T/pane" 2>/dev/null
        grep -q -- "$1" "$T/pane" && return 0
        sleep 0.1; i=$((i + 1))
    done
    return 1
}
keys() { tmux -L $TMUX_SOCK send-keys "$@"; }
last_line() { grep -v '^ *$' "$T/pane" | tail -1; }
if command -v tmux >/dev/null 2>&1; then
    tmux -L $TMUX_SOCK new-session -d -x 160 -y 50 \
        "$BIN/medan-loa 2>$T/console.err; echo \"EXITED \$?\"; sleep 60"
    screen 'mep>' && ok "console: the prompt" || bad "console: no prompt"
    keys 'sho' Tab Enter
    screen 'board 8 \. x x x x x x \. 8' && ok "console: Tab completes a command" ||
        bad "console: 'sho' Tab did not run show"
    keys 'setoption name Stra' Tab 'value rand' Tab Enter
    screen 'setoption name Strategy value random' && ok "console: Tab completes option names and values" ||
        bad "console: option completion ($(last_line))"
    keys 'setoption name Strategy value search' Enter
    keys 'play c1x' Tab Enter
    screen 'play c1xa3' && ok "console: Tab completes a legal move" || bad "console: move completion ($(last_line))"
    keys 'undo' Enter 'position start moves b1-b3 a' Tab Tab
    screen 'a2-c2' && ok "console: Tab lists the legal moves after position ... moves" ||
        bad "console: position moves completion ($(last_line))"
    keys C-c
    keys 'help go' Enter
    screen 'log go          go ' && ok "console: help <command>" || bad "console: help go"
    keys 'showboard' Enter
    screen "did you mean show?" && ok "console: did you mean show" || bad "console: showboard"
    keys 'go infinite' Enter
    screen 'info depth 2' && ok "console: go infinite searches" || bad "console: no info lines"
    keys 'fen' Enter
    screen 'error busy' && ok "console: busy during a search" || bad "console: fen during a search"
    keys 'show' Enter
    screen 'board   a b c d e f g h' && ok "console: show during a search" || bad "console: show during a search"
    keys C-c
    if screen '^bestmove ' 30; then ok "console: Ctrl-C stops the search"; else bad "console: Ctrl-C did not stop the search"; fi
    sleep 0.3; screen 'x' 1
    check "$(last_line)" "mep>" "console: the prompt is drawn again after bestmove"
    keys 'garbage words'
    screen 'mep> garbage words' || bad "console: typed text not echoed"
    keys C-c
    sleep 0.5
    keys 'isready' Enter
    screen 'readyok' && ok "console: the engine lives on after Ctrl-C" || bad "console: no readyok after Ctrl-C"
    check "$(count 'garbage' "$T/pane")/$(count 'unknown_command .garbage' "$T/pane")" "1/0" \
        "console: Ctrl-C at the prompt clears the line"
    keys 'quit' Enter
    screen 'EXITED 0' 30 && ok "console: quit exits 0" || bad "console: quit ($(last_line))"
    tr -d '\007' <"$T/console.err" >"$T/console.err2" # readline's bell
    check "$(wc -l <"$T/console.err2" | tr -d ' ')/$(count '^Medan .* engine, MEP 1' "$T/console.err2")" "1/1" \
        "console: nothing on stderr but the greeting"
    [ $fail = 0 ] || { echo "--- console stderr:"; cat -A "$T/console.err"; echo "--- pane:"; cat "$T/pane"; } >&2
    tmux -L $TMUX_SOCK kill-server 2>/dev/null
else
    echo "skip console tests: no tmux (tests/deps.sh installs it as root)"
fi

[ $fail = 0 ] && echo "cli tests: all $n passed" || echo "cli tests: FAILED" >&2
exit $fail
