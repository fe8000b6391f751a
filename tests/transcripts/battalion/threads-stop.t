# Threads during a search: a 4-thread infinite search is busy until stop
# (every thread ends, one bestmove), ping is answered during it, and quit
# during a 3-thread search ends the engine cleanly (the runner checks exit 0).
> newgame players=3 seat=2
ok
> position fen view:2 phase=attack act=2 turn=9 attacks=42 last=h chips=8,1,21 bids=p,7,p hands=+10/Ac5c7cJcQc2d7dJdQd7h/+10 known=-/-/- battle=- pile=2h8hQh deck=71
ok
> setoption name Threads value 4
ok
>& go infinite
> setoption name Threads value 2
error busy *
> ping 7
pong 7
> stop
...
bestmove attack:*
> setoption name Threads value 1
ok
> go nodes 200
bestmove attack:*
# quit during a multi-threaded search ends it (the runner checks exit 0)
> setoption name Threads value 3
ok
>& go infinite
