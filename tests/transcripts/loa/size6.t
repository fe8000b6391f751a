# 6x6 LOA (newgame size=6): the start, show, notation a1..f6, moves off the
# board refused, a position string of the other size refused, perft, a win
# found by the search, and back to 8x8.
> newgame size=6
ok
> fen
fen 1bbbb1/w4w/w4w/w4w/w4w/1bbbb1 b
ok
> show
board   a b c d e f
board 6 . x x x x . 6
board 5 o . . . . o 5
board 4 o . . . . o 4
board 3 o . . . . o 3
board 2 o . . . . o 2
board 1 . x x x x . 1
board   a b c d e f
board black (x) 8  white (o) 8  black to move
ok
> legalmoves
moves b1-f1 b1-b3 b1-d3 c1-c3 c1-e3 c1xa3 d1-d3 d1xf3 d1-b3 e1-a1 e1-e3 e1-c3 b6-f6 b6-b4 b6-d4 c6-c4 c6xa4 c6-e4 d6-d4 d6-b4 d6xf4 e6-a6 e6-e4 e6-c4
ok
> perft 4
perft 4 234560 *
ok
# c1 would go to g1 along rank 1 (4 pieces): off the board
> play c1-g1
error illegal_move c1-g1 c1-g1 is off the 6x6 board (a1..f6)
> play b1-b7
error illegal_move b1-b7 b1-b7 is off the 6x6 board (a1..f6)
> play i1-a1
error syntax i1-a1 'i1-a1' is not a move (like b1-b3 or b1xd3)
> position start moves c1-c3 a2xc2 b1-b3
ok
> fen
fen 1bbbb1/w4w/w4w/wbb2w/2w2w/3bb1 w
ok
> position fen 1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b
error illegal_position an 8x8 position, but the game is 6x6 (size=8)
> fen
fen 1bbbb1/w4w/w4w/wbb2w/2w2w/3bb1 w
ok
> position fen bbbbb1/w4w/w4w/w4w/w4w/1bbbb1 b
error illegal_position a side has more than 8 pieces
# black to move connects with e3-e2 (one piece on file e)
> position fen w5/6/6/4b1/6/1bbb1w b
ok
> go depth 3
...
bestmove e3-e2
> play e3-e2
ok
> result
result p1win reason connected scores 1 0
ok
> newgame
ok
> fen
fen 1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b
ok
> position fen 1bbbb1/w4w/w4w/w4w/w4w/1bbbb1 b
error illegal_position a 6x6 position, but the game is 8x8 (size=6)
