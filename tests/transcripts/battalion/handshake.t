# The MEP handshake of medan-battalion and its options.
> mep
id name Medan Battalion
id author the Medan developers
id version *
protocol 1
game battalion players 3-6 players=3..6 seat=1..6 seed=<u64> game=<u64>
option name Seed type spin default 0 min 0 max *
option name Strategy type combo default search var search var heuristic var random
option name Iterations type spin default 0 min 0 max 100000000
option name PlayoutAttacks type spin default 4 min 1 max 200
option name Inference type spin default 100 min 0 max 100
option name Threads type spin default 1 min 1 max 256
option name MoveOverhead type spin default 10 min 0 max 10000
mepok
> isready
readyok
> setoption name Strategy value greedy
error bad_value *
> setoption name PlayoutAttacks value 0
error bad_value *
> setoption name Inference value 101
error bad_value *
> setoption name Inference value 0
ok
> newgame players=7
error bad_value players: 3..6
> newgame players=4 seat=9
error bad_value seat: 1..6
> newgame players=3 seat=4
error bad_value seat=4: the seats are 1..3 (players=3)
> newgame seat=4 players=3
error bad_value seat=4: the seats are 1..3 (players=3)
> newgame seat=6 players=6
ok
> newgame colour=red
error bad_value unknown parameter 'colour' (players seat seed game)
> newgame players=4 seat=2 seed=3 game=1
ok
