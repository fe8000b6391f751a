# position, play, undo, fen, show, legalmoves, result.
> position start
ok
> fen
fen 1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b
ok
> legalmoves
moves b1-h1 b1-b3 b1-d3 c1-c3 c1-e3 c1xa3 d1-d3 d1-f3 d1-b3 e1-e3 e1-g3 e1-c3 f1-f3 f1xh3 f1-d3 g1-a1 g1-g3 g1-e3 b8-h8 b8-b6 b8-d6 c8-c6 c8xa6 c8-e6 d8-d6 d8-b6 d8-f6 e8-e6 e8-c6 e8-g6 f8-f6 f8-d6 f8xh6 g8-a8 g8-g6 g8-e6
ok
> play b1b3
ok
> play a3xc1
ok
> fen
fen 1bbbbbb1/w6w/w6w/w6w/w6w/1b5w/w6w/2wbbbb1 b
ok
> show
board   a b c d e f g h
board 8 . x x x x x x . 8
board 7 o . . . . . . o 7
board 6 o . . . . . . o 6
board 5 o . . . . . . o 5
board 4 o . . . . . . o 4
board 3 . x . . . . . o 3
board 2 o . . . . . . o 2
board 1 . . o x x x x . 1
board   a b c d e f g h
board black (x) 11  white (o) 12  black to move
ok
> undo
ok
> undo
ok
> undo
error bad_value only 0 moves to undo
> play b1-b4
error illegal_move b1-b4 b1-b4 is not a legal move here
> result
result none
ok
# a capture that connects both sides: the mover wins
> position fen ww6/8/8/8/8/4b3/7b/6w1 b moves e3xg1
ok
> result
result p1win reason connected scores 1 0
ok
> go depth 1
error game_over the game is over (connected)
# atomic: the bad third move leaves the last position
> position start moves b1-b3 a2-c2 b3-b9
error illegal_move 3 b3-b9 'b3-b9' is not a move (like b1-b3 or b1xd3)
> fen
fen ww6/8/8/8/8/8/7b/6b1 w
ok
# threefold repetition of the start position
> position start moves b1-b3 a2-c2 b3-b1 c2-a2 b1-b3 a2-c2 b3-b1 c2-a2
ok
> result
result draw reason repetition scores 0.5 0.5
ok
> position fen 6wb/6ww/8/8/8/8/ww6/bw6 b
ok
> result
result p2win reason no_moves scores 0 1
ok
