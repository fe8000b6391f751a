%engine medan-palagan
# legalmoves on small positions (N = 4)
# no pieces and no reserve: only a pass
> position fen 4/5/6/7/6/5/4 b 0/20 0/0 0 0 0
ok
> legalmoves
moves pass
ok
# one piece in the corner: moves, then second moves, never back (rule 7)
> position fen 4/5/6/7/6/5/b3 b 0/20 0/0 0 0 0
ok
> legalmoves
moves pass a1-b1 a1-b1,b1-c1 a1-b1,b1-b2 a1-b1,b1-c2 a1-a2 a1-a2,a2-b2 a1-a2,a2-a3 a1-a2,a2-b3 a1-b2 a1-b2,b2-c2 a1-b2,b2-a2 a1-b2,b2-b3 a1-b2,b2-b1 a1-b2,b2-c3
ok
# a push: black a1 pushes white b1 to c1; then b1 cannot push again (white
# d1 behind c1) nor go back to a1 (rule 7)
> position fen 4/5/6/7/6/5/bw1w b 0/0 0/0 0 0 0
ok
> legalmoves
moves pass a1-b1 a1-b1,b1-b2 a1-b1,b1-c2 a1-a2 a1-a2,a2-b2 a1-a2,a2-a3 a1-a2,a2-b3 a1-b2 a1-b2,b2-c2 a1-b2,b2-a2 a1-b2,b2-b3 a1-b2,b2-c3
ok
# first turn: one maneuver only
> newgame size=4
ok
> position start
ok
> legalmoves
moves pass @a1 @b1 @c1 @d1 @a2 @b2 @c2 @d2 @e2 @a3 @b3 @c3 @d3 @e3 @f3 @a4 @b4 @c4 @d4 @e4 @f4 @g4 @b5 @c5 @d5 @e5 @f5 @g5 @c6 @d6 @e6 @f6 @g6 @d7 @e7 @f7 @g7
ok
# suicide: white b1 a2 b2 has the liberties a1 and c3 only.  @a1 alone is
# suicide; @a1 with a second maneuver that captures is legal.
> position fen 4/5/6/7/bb4/wwb2/1wb1 b 16/17 0/0 0 0 0
ok
> play @a1
error illegal_move *without liberties
> play @a1,@d4
error illegal_move *without liberties
> play @a1,@c3
ok
> fen
fen 4/5/6/7/bbb3/2b2/b1b1 w 14/17 3/0 0 0 0
ok
> undo
ok
> play @c3,@a1
ok
> fen
fen 4/5/6/7/bbb3/2b2/b1b1 w 14/17 3/0 0 0 0
ok
