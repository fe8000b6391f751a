%engine medan-palagan
# Every limit is honoured (issue 10).
> newgame size=5
ok
> go p3time 1000
error bad_value go: p3time: this game has 2 seats
> go p2time 1000
error bad_value go: clocks given but none for seat 1, the seat to move
> go p1time 100 p1inc 9223372036854776
error bad_value *
> go p2time 1000 nodes 200
bestmove *
# a budget holds while pondering; ponderhit then gives the bestmove (it
# searched for ever before)
>& go ponder nodes 300
> ponderhit
bestmove *
>& go ponder depth 2
> ponderhit
bestmove *
# multipv k > 1: the k most visited root moves (docs/games/palagan.md)
> go multipv 2 nodes 100
bestmove *
> go multipv 1 nodes 100
bestmove *
