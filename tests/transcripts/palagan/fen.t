%engine medan-palagan
# Position strings: <ranks from the top> <side> <reserves b/w> <captures b/w>
# <first-turn flag> <quiet plies> <passes>; they round-trip.
> newgame
ok
> fen
fen 5/6/7/8/9/8/7/6/5 b 20/20 0/0 1 0 0
ok
> position start moves @e5 @d4,@f6
ok
> fen
fen 5/6/7/4w3/4b4/3w4/7/6/5 b 19/18 0/0 0 0 0
ok
> position fen 5/6/7/4w3/4b4/3w4/7/6/5 b 19/18 0/0 0 0 0
ok
> fen
fen 5/6/7/4w3/4b4/3w4/7/6/5 b 19/18 0/0 0 0 0
ok
# the string decides the size, whatever newgame said
> newgame size=6
ok
> position fen 4/5/6/7/6/5/b3 b 0/20 0/0 0 19 1
ok
> fen
fen 4/5/6/7/6/5/b3 b 0/20 0/0 0 19 1
ok
> position fen 9/10/11/12/13/14/15/16/17/16/15/14/13/12/11/10/b8 w 19/20 0/0 0 0 0
ok
> fen
fen 9/10/11/12/13/14/15/16/17/16/15/14/13/12/11/10/b8 w 19/20 0/0 0 0 0
ok
# a capture: counters and captures in the string
> position fen 4/5/6/7/bb4/wwb2/1wb1 b 16/17 0/0 0 7 0 moves @a1,@c3
ok
> fen
fen 4/5/6/7/bbb3/2b2/b1b1 w 14/17 3/0 0 0 0
ok
# the quiet counter ends the game at 20, the winner has more captures
> position fen 4/5/6/7/6/5/bw1w b 0/0 3/1 0 19 0
ok
> play a1-b1
ok
> fen
fen 4/5/6/7/6/5/1bww w 0/0 3/1 0 20 0
ok
> result
result p1win reason quiet scores 3 1
ok
> position fen 4/5/6/7/6/5/1bww w 0/0 3/1 0 20 0
ok
> result
result p1win reason quiet scores 3 1
ok
> position fen 4/5/6/7/6/5/b3 b 0/20 0/0 0 19 1 moves a1-b1
ok
> result
result draw reason quiet scores 0 0
ok
