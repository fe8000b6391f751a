# perft, divide, go, stop, eval, baselines.
> perft 3
perft 3 44952 time * nps *
ok
> divide 1
perft 1 move b1-h1 1
perft 1 move b1-b3 1
perft 1 move b1-d3 1
perft 1 move c1-c3 1
perft 1 move c1-e3 1
perft 1 move c1xa3 1
perft 1 move d1-d3 1
perft 1 move d1-f3 1
perft 1 move d1-b3 1
perft 1 move e1-e3 1
perft 1 move e1-g3 1
perft 1 move e1-c3 1
perft 1 move f1-f3 1
perft 1 move f1xh3 1
perft 1 move f1-d3 1
perft 1 move g1-a1 1
perft 1 move g1-g3 1
perft 1 move g1-e3 1
perft 1 move b8-h8 1
perft 1 move b8-b6 1
perft 1 move b8-d6 1
perft 1 move c8-c6 1
perft 1 move c8xa6 1
perft 1 move c8-e6 1
perft 1 move d8-d6 1
perft 1 move d8-b6 1
perft 1 move d8-f6 1
perft 1 move e8-e6 1
perft 1 move e8-c6 1
perft 1 move e8-g6 1
perft 1 move f8-f6 1
perft 1 move f8-d6 1
perft 1 move f8xh6 1
perft 1 move g8-a8 1
perft 1 move g8-g6 1
perft 1 move g8-e6 1
perft 1 36 time * nps *
ok
> eval
eval 22 us.pieces=12 * tempo=22
ok
# a win in one: black connects with f3-f4? no: e3xg1 connects and wins
> position fen ww6/8/8/8/8/4b3/7b/6w1 b
ok
> go depth 3
bestmove e3xg1*
>& go infinite
> ping 1
pong 1
> legalmoves
error busy a search is running: only stop, ponderhit, ping, isready, show, help, quit
> stop
bestmove e3xg1*
> stop
ok
> setoption name Strategy value random
ok
> position start
ok
> go depth 5
bestmove *
> setoption name Strategy value greedy
ok
> go movetime 10
bestmove *
