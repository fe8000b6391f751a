%info
# go on a seat's view: ISMCTS reports iterations and values per seat;
# the baselines answer at once.
> newgame players=3 seat=2
ok
> position fen view:2 phase=attack act=2 turn=9 attacks=42 last=h chips=8,1,21 bids=p,7,p hands=-/Ac5c7cJcQc2d7dJdQd7h/- known=-/-/- battle=- pile=2h8hQh deck=71
error illegal_position 84 cards in play, not 104
> position fen view:2 phase=attack act=2 turn=9 attacks=42 last=h chips=8,1,21 bids=p,7,p hands=+10/Ac5c7cJcQc2d7dJdQd7h/+10 known=-/-/- battle=- pile=2h8hQh deck=71
ok
> setoption name Seed value 5
ok
> go nodes 300
info iterations 300 nodes * time * nps * visits * values *,*,* pv attack:*
bestmove attack:*
> setoption name Strategy value heuristic
ok
> go movetime 50
bestmove attack:3:Ac,5c,7c,Jc,Qc
> setoption name Strategy value random
ok
> go movetime 50
bestmove attack:*
> setoption name Strategy value search
ok
> go movetime 100
info iterations * nodes * time * nps * visits * values *,*,* pv attack:*
bestmove attack:*
# go multipv N: the N most visited actions, one info line each
> setoption name Seed value 5
ok
> go nodes 300 multipv 2
info iterations 300 nodes * time * nps * multipv 1 visits * values *,*,* pv attack:*
info iterations 300 nodes * time * nps * multipv 2 visits * values *,*,* pv *
bestmove attack:*
# go depth N is 1000·N iterations (it used to search until stop)
> go depth 1
info iterations 1000 nodes * time * nps * visits * values *,*,* pv attack:*
bestmove attack:*
