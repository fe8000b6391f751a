#!/bin/sh
# Palagan strength figures (issue 3): the MCTS engine at 250 ms per turn on
# N = 5 against the random and greedy baselines, 100 games each, colours
# alternating.  In-process driver (tests/tools/palagan_duel.c); not part of
# `make test` (it takes ~30 minutes).  Usage: sh tests/palagan-strength.sh [games] [ms]
set -e
games=${1:-100}
ms=${2:-250}
make -s build/tools/palagan_duel
for opp in random greedy; do
    ./build/tools/palagan_duel "$opp" "$games" "$ms" 5 1 | tail -1
done
