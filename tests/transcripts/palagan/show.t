%engine medan-palagan
# The board drawing: rank numbers on the left, each file's letter where the
# file would continue past its upper end (Havannah style).
> newgame
ok
> position start moves @e5 @d4,@f6
ok
> show
board          e f g h i
board  9      d . . . . .
board  8     c . . . . . .
board  7    b . . . . . . .
board  6   a . . . . w . . .
board  5    . . . . b . . . .
board  4     . . . w . . . .
board  3      . . . . . . .
board  2       . . . . . .
board  1        . . . . .
board to move black, quiet 0, passes 0
board reserve black 19 white 18
board captured by black 0 by white 0
ok
> newgame size=4
ok
> position start
ok
> show
board         d e f g
board  7     c . . . .
board  6    b . . . . .
board  5   a . . . . . .
board  4    . . . . . . .
board  3     . . . . . .
board  2      . . . . .
board  1       . . . .
board to move black (first turn: one maneuver), quiet 0, passes 0
board reserve black 20 white 20
board captured by black 0 by white 0
ok
> eval
eval 0 us.captures=0 them.captures=0 us.liberties=0 them.liberties=0 us.reserve=20 them.reserve=20
ok
