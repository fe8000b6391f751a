# Positions ("<heaps> <seat to move>"), moves ("c2": two stones from heap
# c), the end (who takes the last stone wins), refusals that change nothing.
> position start moves a2 b1
ok
> fen
fen 1,3,5 1
ok
> position fen 3,4,5 3
error syntax expected the seat to move (1 or 2) after the heaps
> position fen 3,4,x 1
error syntax 'x' is not a number of stones
> position fen 3,4,21 1
error illegal_position a heap holds 0..20 stones, not 21
> fen
fen 1,3,5 1
ok
> position fen 0,0,1 2
ok
> show
board a  0
board b  0
board c  1 o
board seat 2 to move, nim-sum 1
ok
> legalmoves
moves c1
ok
> play c2
error illegal_move c2 heap c has only 1
> play d1
error illegal_move d1 there is no heap d
> play x
error syntax x 'x' is not a move (like c2: 2 stones from heap c)
> result
result none
ok
> play c1
ok
> result
result p2win reason last_stone scores 0 1
ok
> play c1
error game_over c1 the game is over (last_stone)
> legalmoves
moves
ok
> go depth 1
error game_over the game is over (last_stone)
> undo
ok
> fen
fen 0,0,1 2
ok
> eval
eval 0 nimsum 1
ok
