%info
# A search stopped inside an iteration (go nodes here; movetime's hard stop
# alike) plays the interrupted iteration's best when the previous best has
# been searched to the end in it, and shows its line: depth 3 says b8-b6,
# depth 4 is cut at 9216 nodes (a full depth 4 takes 10281) and already
# prefers b8-d6, which the full depth 4 below confirms.
# (the root solve off: its positions would count in the limit and move the cut)
> setoption name SearchParams value root_pns=0
ok
> position start moves g8-g6 h7-f7
ok
> go nodes 9216
info depth 1 seldepth 4 multipv 1 score cp 45 nodes 89 nps * time * hashfull * pv f8xh6
info depth 2 seldepth 7 multipv 1 score cp 32 nodes 1046 nps * time * hashfull * pv b8-b6 h2-f2
info depth 3 seldepth 9 multipv 1 score cp 48 nodes 1900 nps * time * hashfull * pv b8-b6 h2-f2 c8-c6
info depth 4 seldepth 13 multipv 1 score cp 27 nodes 9216 nps * time * hashfull * pv b8-d6 h2-f4 c8-c6 f4xd6
bestmove b8-d6 ponder h2-f4
> setoption name ClearHash
ok
> go depth 4
info depth 1 seldepth 4 multipv 1 score cp 45 nodes * nps * time * hashfull * pv f8xh6
info depth 2 seldepth 7 multipv 1 score cp 32 nodes * nps * time * hashfull * pv b8-b6 h2-f2
info depth 3 seldepth 9 multipv 1 score cp 48 nodes * nps * time * hashfull * pv b8-b6 h2-f2 c8-c6
info depth 4 seldepth 13 multipv 1 score cp 27 nodes * nps * time * hashfull * pv b8-d6 h2-f4 c8-c6 f4xd6
bestmove b8-d6 ponder h2-f4
