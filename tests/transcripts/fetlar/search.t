# go, eval, the baselines; a proven escape is reported as a win.
> position fen /11/11/11/11/3K7/t9t/11/11/2t8/11/11/ w 0
ok
> go depth 4
bestmove d5-* ponder *
> eval
eval * tactic=* material=* routes=* corner_dist=* guards=* king_free=* cordon=* pressure=*
ok
> position start
ok
> go depth 3
bestmove * ponder *
> go nodes 2000
bestmove *
> setoption name Strategy value greedy
ok
> go depth 1
bestmove *
> setoption name Strategy value random
ok
> setoption name Seed value 7
ok
> go depth 1
bestmove *
> setoption name Strategy value search
ok
>& go infinite
> stop
bestmove *
