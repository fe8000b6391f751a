%engine medan-palagan
%info
# A forced win proven by the solver with 4 threads on the shared tree:
# black is a capture ahead, the quiet counter is at 18 and neither side has
# a reserve, so any black turn wins (white's 20th quiet ply ends the game).
# The proven root ends the search at once with its exact value.
> setoption name Threads value 4
ok
> position fen 5/6/7/8/4bb3/8/7/6/w4 b 0/0 1/0 0 18 0
ok
> go nodes 100000
...
info depth * score cp 544 values 0.958,0.042 pv *
bestmove *
