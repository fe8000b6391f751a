%engine medan-palagan
# go with small limits: a legal bestmove, and the info keys of MCTS.
> newgame
ok
> position start
ok
> go nodes 300
bestmove @*
> position start moves @e5
ok
> go nodes 500
bestmove *
> go movetime 50
bestmove *
> go depth 1
bestmove *
> go p1time 2000 p2time 2000
bestmove *
# only a pass is legal: no pieces, no reserve
> position fen 4/5/6/7/6/5/4 b 0/20 0/0 0 0 0
ok
> go nodes 100
bestmove pass
# a capture: white a1..d1 has one liberty, e2; search and greedy take it
# (newgame reseeds: the timed searches above leave the generator anywhere)
> newgame
ok
> position fen 4/5/6/7/6/bbbb1/wwww b 16/16 0/0 0 0 0
ok
> go nodes 2000
bestmove *e2*
> setoption name Strategy value greedy
ok
> go nodes 1
bestmove *e2*
> setoption name Strategy value random
ok
> go nodes 1
bestmove *
> setoption name Strategy value search
ok
> setoption name Strategy value minimax
error bad_value *
> setoption name Hash value 0
error bad_value *
> setoption name Hash value 8
ok
> setoption name Seed value 3
ok
> position start moves @e5 pass
ok
> go nodes 50
bestmove *
> result
result none
ok
