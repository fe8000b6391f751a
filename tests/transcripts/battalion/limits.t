%info
# Every limit is honoured (issue 10).  go depth N is N thousand ISMCTS
# iterations (docs/games/battalion.md); it ended never before.
> newgame players=4 seat=1
ok
> setoption name Seed value 3
ok
> go depth 2
info iterations 2000 nodes * time * nps * visits * values * pv *
bestmove *
# depth and nodes together: the smaller budget ends the search
> go depth 3 nodes 500
info iterations 500 nodes * time * nps * visits * values * pv *
bestmove *
# a clock for a seat this game does not have; clocks without the mover's
> newgame players=3 seat=1
ok
> go p4time 1000
error bad_value go: p4time: this game has 3 seats
> go p2time 1000 p3time 1000
error bad_value go: clocks given but none for seat 1, the seat to move
> go p7time 1000
error syntax *
> go movetime 9223372036854776
error bad_value *
# with another limit the other seats' clocks are only information
> go p2time 1000 nodes 300
info iterations 300 nodes * time * nps * visits * values * pv *
bestmove *
# multipv k > 1: the k most visited root actions, one line each (here
# the seat may draw from the deck or the pile: two lines for k = 3)
> go multipv 3 nodes 100
info iterations 100 nodes * time * nps * multipv 1 visits * values * pv *
info iterations 100 nodes * time * nps * multipv 2 visits * values * pv *
bestmove *
