#!/bin/sh
# match.sh - medan-fetlar against libhnefatafl through the referee, as issue 13
# measures it: colour-swapped pairs (the referee's default), 4 random opening
# plies, the same think time a move for both (st = seconds), results as JSONL.
#
#   bench/hnefatafl/match.sh [GAMES] [ST] [SEED] [RESULTS] [CONCURRENCY] [MARGIN]
#   defaults:                 30      1    1      hnef-match.jsonl  1         200
#
# MARGIN is the referee's timemargin (ms a bestmove may come late before it is
# a time loss): both engines aim at ST less their MoveOverhead (now 10 ms), but on
# a loaded machine the answer can still arrive a little after ST (seen: up to
# 1.3 s for st=1 at load 14, for both engines), which without a margin ends
# games as time forfeits.
# Needs `make hnef HNEF_DIR=...` first (BUILD=build-san for the ASan build:
# set HNEF_BUILD=build-san and MEDAN_BIN=build-san/bin).  A game lasts up to
# about 2 x 100 x ST seconds; CONCURRENCY > 1 only on an idle machine.
set -eu
cd "$(dirname "$0")/../.."
games=${1:-30} st=${2:-1} seed=${3:-1} out=${4:-hnef-match.jsonl} conc=${5:-1} margin=${6:-200}
bin=${MEDAN_BIN:-bin} hb=${HNEF_BUILD:-build}
for p in "$bin/medan-referee" "$bin/medan-fetlar" "$hb/hnef/medan-hnefatafl"; do
    [ -x "$p" ] || { echo "match.sh: $p missing (make hnef HNEF_DIR=...)" >&2; exit 2; }
done
exec "$bin/medan-referee" --game fetlar \
    --engine name=medan cmd="$bin/medan-fetlar" \
    --engine name=libhnefatafl cmd="$hb/hnef/medan-hnefatafl" \
    --each st="$st" timemargin="$margin" --games "$games" --concurrency "$conc" --seed "$seed" \
    --openings random-plies=4 --results "$out"
