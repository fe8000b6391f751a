%info
# The escape is proven: white wins in 3 plies (king to the edge, any reply,
# king to the corner).
> position fen /11/11/11/11/3K7/t9t/11/11/2t8/11/11/ w 0
ok
> go depth 3
info depth 1 * score cp * pv d5-a5
info depth 2 * score win 3 * pv d5-a5 *
info depth 3 * score win 3 * pv d5-a5 * a5-a1
bestmove d5-a5 ponder *
# attackers to move against an open corner: lost in 2
> position fen /11/11/11/11/11/K10/t10/11/11/11/11/ b 0
ok
> go depth 2
info depth 1 * score loss 2 *
info depth 2 * score loss 2 *
bestmove *
# the search sees new weights at once (its evaluation cache is emptied)
> position startpos
ok
> go depth 1
info depth 1 * score cp 26 *
bestmove *
> setoption name Weights value balance=0
ok
> go depth 1
info depth 1 * score cp 1856 *
bestmove *
> setoption name Weights value <empty>
ok
# extreme tuning weights: the static score stays below the proven-result band
# (a score of 240 000 once wrapped in the table and the search printed nothing)
> setoption name Weights value att=10000,def=10000
ok
> go depth 2
info depth 1 * score cp 28999 *
info depth 2 * score cp 28999 *
bestmove *
> setoption name Weights value <empty>
ok
