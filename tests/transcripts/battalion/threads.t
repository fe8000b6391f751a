%info
# Threads: parallel determinizations, each thread its own tree, the root
# actions' statistics summed.  A go nodes budget is split between the
# threads (the total is the budget); the option cannot change during a search.
> setoption name Threads value 0
error bad_value *
> setoption name Threads value 257
error bad_value *
> newgame players=3 seat=2
ok
> position fen view:2 phase=attack act=2 turn=9 attacks=42 last=h chips=8,1,21 bids=p,7,p hands=+10/Ac5c7cJcQc2d7dJdQd7h/+10 known=-/-/- battle=- pile=2h8hQh deck=71
ok
> setoption name Threads value 4
ok
> go nodes 3001
info iterations 3001 nodes * time * nps * visits * values *,*,* pv attack:*
bestmove attack:*
# fewer iterations than threads: one iteration per thread that runs
> go nodes 3
info iterations 3 nodes * time * nps * visits * values *,*,* pv attack:*
bestmove attack:*
# go depth N: 1000·N iterations in all
> go depth 2
info iterations 2000 nodes * time * nps * visits * values *,*,* pv attack:*
bestmove attack:*
> setoption name Threads value 2
ok
> go nodes 500 multipv 3
info iterations 500 nodes * time * nps * multipv 1 visits * values *,*,* pv attack:*
info iterations 500 nodes * time * nps * multipv 2 visits * values *,*,* pv *
info iterations 500 nodes * time * nps * multipv 3 visits * values *,*,* pv *
bestmove attack:*
