%engine medan-palagan
# Errors: each gets one error line and changes nothing.
> newgame size=3
error bad_value *
> newgame size=10
error bad_value *
> newgame colour=5
error bad_value *
> newgame
ok
> position start moves @e5 @e5
error illegal_move *
> fen
fen 5/6/7/8/9/8/7/6/5 b 20/20 0/0 1 0 0
ok
> play @e5,@e6
error illegal_move *
> play @z9
error illegal_move *
> play e5
error syntax *
> play @e5,,@e6
error syntax *
> play @e5
ok
> play e5-f5
error illegal_move *
> play @e5,@e4,@e3
error syntax *
> play @f6,@f6
error illegal_move *
> fen
fen 5/6/7/8/4b4/8/7/6/5 w 19/20 0/0 0 0 0
ok
# bad position strings
> position fen 5/6/7/8/9/8/7/6/5 b 20/20 0/0 1 0
error syntax *
> position fen 5/6/7/8/9/8/7/6/4 b 20/20 0/0 0 0 0
error illegal_position *
> position fen 5/6/7/8/9/8/7/6/5 b 20/20 0/21 0 0 0
error syntax *
> position fen 5/6/7/8/9/8/7/6/5 b 20/20 0/1 0 0 0
error illegal_position *
> position fen 5/6/7/8/9/8/7/bb4/wb3 b 16/19 0/0 0 0 0
error illegal_position *
> position fen 3/4/5/4/3 b 20/20 0/0 1 0 0
error illegal_position *
> fen
fen 5/6/7/8/4b4/8/7/6/5 w 19/20 0/0 0 0 0
ok
# the game is over after two passes
> play pass
ok
> play pass
ok
> result
result draw reason passes scores 0 0
ok
> play @e6
error game_over *
> legalmoves
moves
ok
> go nodes 10
error game_over *
> undo
ok
> result
result none
ok
