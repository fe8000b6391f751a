# The generic alpha-beta (search/ab.c) solves Nim with an evaluation that
# knows nothing: from 3,4,5 (nim-sum 2) the one winning move is a2 (to
# 1,4,5, nim-sum 0), proven as a win.
%info
> position start
ok
> go depth 12
...
info depth 12 seldepth * multipv 1 score win * pv a2 *
bestmove a2 ponder *
# One stone left: take it and win.
> position fen 0,0,1 1
ok
> go depth 3
...
bestmove c1
# The random baseline every engine offers: a legal move, the same again
# for the same Seed.
> setoption name Strategy value random
ok
> setoption name Seed value 5
ok
> position start
ok
> go depth 1
bestmove *
> setoption name Strategy value search
ok
