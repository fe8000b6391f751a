# medan-nim, the toy fifth game (tests/games/nim/): the handshake shows the
# options every engine offers (Seed, Strategy with random; engine_check).
> mep
id name Medan Nim (test game)
id author the Medan developers
id version *
protocol 1
game nim players 2 heaps=3,4,5 (1..8 heaps of 1..20)
option name Hash type spin default 64 min 1 max 65536
option name Threads type spin default 1 min 1 max 256
option name Seed type spin default 0 min 0 max *
option name Strategy type combo default search var search var greedy var random
option name ClearHash type button
option name SearchParams type string default <empty>
option name MoveOverhead type spin default 10 min 0 max 10000
mepok
> isready
readyok
# newgame parameters, and refused ones (nothing changes)
> newgame heaps=1,2
ok
> fen
fen 1,2 1
ok
> newgame heaps=0
error bad_value a heap holds 1..20 stones, not 0
> newgame heaps=1,2,3,4,5,6,7,8,9
error bad_value at most 8 heaps
> newgame heaps=21
error bad_value a heap holds 1..20 stones, not 21
> newgame size=3
error bad_value nim has no parameter 'size' (heaps=3,4,5)
> newgame heaps=3,,4
error syntax heaps are numbers separated by ',' (like 3,4,5)
> fen
fen 1,2 1
ok
> newgame
ok
> fen
fen 3,4,5 1
ok
> fen view 1
error not_supported nim has no hidden information
