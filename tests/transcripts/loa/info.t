%info
# info lines: depth, seldepth, score, nodes, nps, time, hashfull, pv; win scores.
> position fen ww6/8/8/8/8/4b3/7b/6w1 b
ok
> go depth 1
info depth 1 seldepth * multipv 1 score win 1 nodes * nps * time * hashfull * pv e3xg1
bestmove e3xg1
