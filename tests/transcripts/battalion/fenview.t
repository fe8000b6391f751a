# fen view <k>: seat k's view of the full state the engine holds (what a
# controller sends to seat k's engine); the position itself is unchanged.
> newgame players=3 seat=2 seed=7 game=1
ok
> position start moves draw:pile
ok
> fen view 2
fen view:2 phase=discard act=1 turn=0 attacks=0 last=- chips=10,10,10 bids=-,-,- hands=5d+10/2cQc3d4d7dAh9h4s5sKs/+10 known=5d/-/- battle=- pile=- deck=73
ok
> fen view 1
fen view:1 phase=discard act=1 turn=0 attacks=0 last=- chips=10,10,10 bids=-,-,- hands=Ac7c9c2d5dJdQd5h6s7sKs/+10/+10 known=5d/-/- battle=- pile=- deck=73
ok
# the position is still the full state
> fen
fen full phase=discard act=1 *
ok
# bad seats, extra words
> fen view 4
error bad_value fen view takes a seat from 1 to 3
> fen view 0
error bad_value fen view takes a seat from 1 to 3
> fen view
error syntax usage: fen, or fen view <seat>
> fen view 1 2
error syntax usage: fen, or fen view <seat>
# the view round-trips through position fen ...
> position fen view:2 phase=discard act=1 turn=0 attacks=0 last=- chips=10,10,10 bids=-,-,- hands=5d+10/2cQc3d4d7dAh9h4s5sKs/+10 known=5d/-/- battle=- pile=- deck=73
ok
> fen
fen view:2 phase=discard act=1 turn=0 attacks=0 last=- chips=10,10,10 bids=-,-,- hands=5d+10/2cQc3d4d7dAh9h4s5sKs/+10 known=5d/-/- battle=- pile=- deck=73
ok
# ... and a view has no other views (nor its own: only a full state has views)
> fen view 1
error not_supported the position is a view: only a full state has views
> fen view 2
error not_supported the position is a view: only a full state has views
