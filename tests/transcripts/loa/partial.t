%info
# A search stopped inside an iteration (go nodes here; movetime's hard stop
# alike) plays the interrupted iteration's best when the previous best has
# been searched to the end in it, and shows its line: depth 3 says b8-b6,
# depth 4 is cut at 18432 nodes (a full depth 4 takes 20969) and already
# prefers g1-g3, which the full depth 4 below confirms.
> position start moves g8-g6 h7-f7
ok
> go nodes 18432
info depth 1 seldepth 4 multipv 1 score cp 41 nodes 69 nps * time * hashfull * pv f8xh6
info depth 2 seldepth 7 multipv 1 score cp 21 nodes 1018 nps * time * hashfull * pv b8-b6 h2-g3
info depth 3 seldepth 8 multipv 1 score cp 33 nodes 2468 nps * time * hashfull * pv b8-b6 a7-c7 g1-g3
info depth 4 seldepth 13 multipv 1 score cp 23 nodes 18432 nps * time * hashfull * pv g1-g3 h2-f2 b8-b6 f7-f3
bestmove g1-g3 ponder h2-f2
> setoption name ClearHash
ok
> go depth 4
info depth 1 seldepth 4 multipv 1 score cp 41 nodes * nps * time * hashfull * pv f8xh6
info depth 2 seldepth 7 multipv 1 score cp 21 nodes * nps * time * hashfull * pv b8-b6 h2-g3
info depth 3 seldepth 8 multipv 1 score cp 33 nodes * nps * time * hashfull * pv b8-b6 a7-c7 g1-g3
info depth 4 seldepth 13 multipv 1 score cp 23 nodes * nps * time * hashfull * pv g1-g3 h2-f2 b8-b6 f7-f3
bestmove g1-g3 ponder h2-f2
