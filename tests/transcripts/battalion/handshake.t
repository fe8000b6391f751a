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
option name SearchParams type string default <empty>
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
> setoption name SearchParams value explore=0.5,epsilon=0.05,leaf4_best=0.5,actions=full
ok
> setoption name SearchParams value explore=101
error bad_value search parameter explore takes a number from 0 to 100, not '101'
> setoption name SearchParams value leaf7_best=1
error bad_value no search parameter 'leaf7_best'
> setoption name SearchParams value oracle=1
error bad_value search parameter oracle is refused: it would read the other seats' hidden cards
> setoption name SearchParams value cutoff=2
error bad_value search parameter cutoff is refused: it is the option PlayoutAttacks
> setoption name SearchParams value <empty>
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
