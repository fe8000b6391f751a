# go solve: the proof-number solver (search/pns.c).  A win in 5, a loss
# in 4 (exact distances), the start unsolved within its nodes, the errors,
# ping and stop during an unlimited solve, a finished game.
%info
> position fen 1w5w/1w6/2w2b2/8/b7/3w2w1/8/7w b
ok
> go solve nodes 100000
info depth 5 score win 5 nodes 16087 nps * time * pv a4xc6
bestmove a4xc6
> position fen ww6/8/8/8/8/4b3/7b/6w1 w
ok
> go solve movetime 100000
info depth 4 score loss 4 nodes 791 nps * time * pv b8-a7
bestmove b8-a7
> position start
ok
> go solve nodes 5000
info nodes 5061 nps * time *
info string unsolved after 5061 nodes
bestmove e1-g3
> go solve depth 3
error syntax go solve takes movetime MS or nodes N, not 'depth'
> go solve ponder
error syntax go solve takes movetime MS or nodes N, not 'ponder'
> go nodes 10 solve
error syntax go: solve comes first: go solve, then movetime MS or nodes N
> go solve nodes 10 movetime 10
error syntax go solve takes movetime MS or nodes N, not both
> go solve nodes 0
error bad_value go: nodes takes a number >= 1
> go solve nodes
error syntax go: 'nodes' needs a value
# no limit: until proven or stopped; ping is answered meanwhile
>& go solve
> ping 7
pong 7
> stop
info nodes * nps * time *
info string unsolved after * nodes
bestmove *
# a huge limit, stopped all the same
>& go solve nodes 18446744073709551615
> stop
info nodes * nps * time *
info string unsolved after * nodes
bestmove *
> position fen ww6/8/8/8/8/4b3/7b/6b1 w
ok
> go solve nodes 10
error game_over the game is over (connected)
