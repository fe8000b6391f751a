#!/bin/sh
# make bench BENCH=strength: the strength figures of issue 40, each with its
# 95% interval, so the next change is compared with one command.  Matches,
# not timings of a routine: an hour or more on a quiet 2-core machine (run
# nothing else; one match at a time).  Each part can be run alone:
#
#   sh tests/bench-strength.sh BIN [PART...]
#
# PART: smp-loa smp-fetlar (Threads=2 against 1 at equal time),
#       fetlar-greedy (the attackers against the greedy baseline),
#       fetlar-hnef (the attackers against libhnefatafl; needs make hnef),
#       battalion (chips against the three heuristics, duplicate deals),
#       battalion-threads (Threads=2 against 1, duplicate deals);
#       none: all of them.
# Sizes (environment): SMP_GAMES (200), SMP_ST (0.05 s a move; Fetlar's
# SMP_ST_FETLAR, 0.1, with a draw adjudicated after SMP_MAXMOVES_FETLAR
# moves, 150: some games run to 800 plies),
# GREEDY_SEEDS ("104 105 106 107 108 109 110 111 112 113") with GREEDY_ROUNDS
# (20) attacker games each at GREEDY_NODES (40000), HNEF_GAMES (50, at HNEF_ST=1 s a move), BAT_DEALS
# (300), BAT_MS (the search's ms a decision, 50).
bin=${1:-bin}
[ $# -gt 0 ] && shift
parts=${*:-smp-loa smp-fetlar fetlar-greedy fetlar-hnef battalion battalion-threads}
out=${STRENGTH_OUT:-build/strength}
mkdir -p "$out"
SMP_GAMES=${SMP_GAMES:-200} SMP_ST=${SMP_ST:-0.05}
SMP_ST_FETLAR=${SMP_ST_FETLAR:-0.1} SMP_MAXMOVES_FETLAR=${SMP_MAXMOVES_FETLAR:-150}
GREEDY_SEEDS=${GREEDY_SEEDS:-104 105 106 107 108 109 110 111 112 113}
GREEDY_NODES=${GREEDY_NODES:-40000} GREEDY_ROUNDS=${GREEDY_ROUNDS:-20}
HNEF_GAMES=${HNEF_GAMES:-50} HNEF_ST=${HNEF_ST:-1}
BAT_DEALS=${BAT_DEALS:-300} BAT_MS=${BAT_MS:-50}

# The first engine's score over the results files given (one JSON line a
# game, the referee's), with a 95% interval from the games' variance.
score_of() { # name files...
    name=$1; shift
    cat "$@" | awk -v me="$name" '
        { if (!match($0, /"seats":\[[^]]*\]/)) next
          ns = split(substr($0, RSTART + 9, RLENGTH - 10), seat, ",")
          if (!match($0, /"scores":\[[^]]*\]/)) next
          split(substr($0, RSTART + 10, RLENGTH - 11), sc, ",")
          k = 0; for (i = 1; i <= ns; i++) if (seat[i] == "\"" me "\"") k = i
          if (!k) next
          s = sc[k] + 0
          n++; t += s; q += s * s; if (s == 1) W++; else if (s == 0) L++; else D++ }
        END { if (!n) { print "no games"; exit }
              m = t / n; v = q / n - m * m; e = 1.96 * sqrt(v / n)
              printf "%d / %d / %d (W/D/L), score %.3f [%.3f, %.3f], %d games\n", W, D, L, m, m - e, m + e, n }'
}

smp() { # game
    g=$1 st=$SMP_ST adj=
    [ "$g" = fetlar ] && st=$SMP_ST_FETLAR adj="--maxmoves $SMP_MAXMOVES_FETLAR"
    rm -f "$out/smp-$g.jsonl"
    # shellcheck disable=SC2086 # $adj: none or two words
    "$bin/medan-referee" --game "$g" \
        --engine name=threads2 cmd="$bin/medan-$g" option.Threads=2 \
        --engine name=threads1 cmd="$bin/medan-$g" option.Threads=1 \
        --each st="$st" timemargin=200 --games 2 --rounds $((SMP_GAMES / 2)) $adj \
        --concurrency 1 --seed 40 --openings file=openings/$g.epd \
        --results "$out/smp-$g.jsonl" --logdir "$out/logs" >"$out/smp-$g.txt" 2>&1 || {
        echo "$g Threads=2 against 1: the match failed (see $out/smp-$g.txt)" >&2; return 1; }
    echo "$g Threads=2 against Threads=1, st=$st${adj:+ ($adj)}, $SMP_GAMES games:" \
        "$(grep '^Elo difference (pairs)' "$out/smp-$g.txt")"
}

# The first engine's draws in positions it scored as won: for each drawn
# game, the score (cp) it gave at its last move; the drawn games where that
# was WON_CP or more, by ending.
draws_won() { # name files...
    name=$1; shift
    cat "$@" | awk -v me="$name" -v won="${WON_CP:-300}" '
        { if (!match($0, /"seats":\[[^]]*\]/)) next
          ns = split(substr($0, RSTART + 9, RLENGTH - 10), seat, ",")
          if (!match($0, /"scores":\[[^]]*\]/)) next
          split(substr($0, RSTART + 10, RLENGTH - 11), sc, ",")
          k = 0; for (i = 1; i <= ns; i++) if (seat[i] == "\"" me "\"") k = i
          if (!k || sc[k] + 0 != 0.5) next
          reason = "?"; if (match($0, /"reason":"[^"]*"/)) reason = substr($0, RSTART + 10, RLENGTH - 11)
          d++; last = ""; rest = $0
          while (match(rest, "\"seat\":" k ",[^}]*\"cp\":-?[0-9]+")) {
              m = substr(rest, RSTART, RLENGTH); sub(/.*"cp":/, "", m); last = m
              rest = substr(rest, RSTART + RLENGTH) }
          if (last != "" && last + 0 >= won) { w++; by[reason]++ } }
        END { printf "%d of %d draws in positions scored %+d cp or more at the last move", w, d, won
              for (r in by) printf " (%s %d)", r, by[r]
              printf "\n" }'
}

fetlar_greedy() {
    files=
    for s in $GREEDY_SEEDS; do
        rm -f "$out/greedy-$s.jsonl"
        "$bin/medan-referee" --game fetlar \
            --engine name=medan cmd="$bin/medan-fetlar" \
            --engine name=greedy cmd="$bin/medan-fetlar" option.Strategy=greedy \
            --each nodes="$GREEDY_NODES" --games 1 --rounds "$GREEDY_ROUNDS" --noswap --concurrency 2 --seed "$s" \
            --openings random-plies=2 --results "$out/greedy-$s.jsonl" --logdir "$out/logs" \
            >"$out/greedy-$s.txt" 2>&1 || { echo "fetlar-greedy seed $s failed" >&2; return 1; }
        files="$files $out/greedy-$s.jsonl"
    done
    echo "fetlar attackers against greedy (nodes=$GREEDY_NODES, seeds $GREEDY_SEEDS):" \
        "$(score_of medan $files);" "$(draws_won medan $files)"
}

fetlar_hnef() {
    if [ ! -x build/hnef/medan-hnefatafl ]; then
        echo "fetlar attackers against libhnefatafl: skipped (make hnef HNEF_DIR=...; docs/games/fetlar.md)"
        return 0
    fi
    rm -f "$out/hnef.jsonl"
    "$bin/medan-referee" --game fetlar \
        --engine name=medan cmd="$bin/medan-fetlar" \
        --engine name=libhnefatafl cmd=build/hnef/medan-hnefatafl \
        --each st="$HNEF_ST" timemargin=200 --games 1 --rounds "$HNEF_GAMES" --noswap \
        --concurrency 1 --seed 21 --openings random-plies=4 \
        --results "$out/hnef.jsonl" --logdir "$out/logs" >"$out/hnef.txt" 2>&1 ||
        { echo "fetlar-hnef failed (see $out/hnef.txt)" >&2; return 1; }
    echo "fetlar attackers against libhnefatafl (st=$HNEF_ST):" "$(score_of medan "$out/hnef.jsonl");" "$(draws_won medan "$out/hnef.jsonl")"
}

battalion() {
    "$bin/medan-battalion-duplicate" --deals "$BAT_DEALS" --ms "$BAT_MS" >"$out/battalion.txt" 2>&1 ||
        { echo "battalion duplicate failed (see $out/battalion.txt)" >&2; return 1; }
    echo "battalion against the three heuristics, $BAT_DEALS duplicate deals, ${BAT_MS} ms:" \
        "$(grep 'chips gained' "$out/battalion.txt")"
}

battalion_threads() {
    "$bin/medan-battalion-duplicate" --deals "$BAT_DEALS" --ms "$BAT_MS" --strong search \
        --weak search --threads 2 --base-threads 1 >"$out/battalion-threads.txt" 2>&1 ||
        { echo "battalion threads duplicate failed (see $out/battalion-threads.txt)" >&2; return 1; }
    echo "battalion Threads=2 against 1, $BAT_DEALS duplicate deals, ${BAT_MS} ms:" \
        "$(grep 'chips gained' "$out/battalion-threads.txt")"
}

for p in $parts; do # every part known before any runs
    case $p in
    smp-loa | smp-fetlar | fetlar-greedy | fetlar-hnef | battalion | battalion-threads) ;;
    *) echo "bench-strength.sh: unknown part '$p'" >&2; exit 2 ;;
    esac
done
rc=0
for p in $parts; do
    case $p in
    smp-loa) smp loa || rc=1 ;;
    smp-fetlar) smp fetlar || rc=1 ;;
    fetlar-greedy) fetlar_greedy || rc=1 ;;
    fetlar-hnef) fetlar_hnef || rc=1 ;;
    battalion) battalion || rc=1 ;;
    battalion-threads) battalion_threads || rc=1 ;;
    esac
done
exit $rc
