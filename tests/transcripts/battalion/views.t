# The view of one seat: unknown cards as +n, the draw pile as a count, no
# rng.  A view can only act for its own seat.
> newgame players=4 seat=2
ok
> position fen view:2 phase=draw act=1 turn=0 attacks=0 last=- chips=10,10,10,10 bids=-,-,-,- hands=+10/2c2c4c7cTc8h9hJhAs4s/+10/+10 known=-/-/-/- battle=- pile=Qc deck=63
ok
> legalmoves
moves
ok
> play draw:deck
error illegal_move draw:deck this is the view of seat 2; seat 1 is to act
> go
error not_supported no decision to take in this position
> show
board Battalion, 4 players, view of seat 2
board collection round 1: seat 1 to draw
board seat 1* chips 10 bid -  cards 10: +10 unknown
board seat 2  chips 10 bid -  cards 10: 2c2c4c7cTc 8h9hJh As4s
board seat 3  chips 10 bid -  cards 10: +10 unknown
board seat 4  chips 10 bid -  cards 10: +10 unknown
board discard pile 1, top Qc; draw pile 63
ok
> position fen view:2 phase=draw act=2 turn=1 attacks=0 last=- chips=10,10,10,10 bids=-,-,-,- hands=+10/2c2c4c7cTc8h9hJhAs4s/+10/+10 known=-/-/-/- battle=- pile=Qc3d deck=62
ok
> legalmoves
moves draw:deck draw:pile
ok
> play draw:pile
ok
> fen
fen view:2 phase=discard act=2 turn=1 attacks=0 last=- chips=10,10,10,10 bids=-,-,-,- hands=+10/2c2c4c7cTc3d8h9hJhAs4s/+10/+10 known=-/3d/-/- battle=- pile=Qc deck=62
ok
> play discard:2c
ok
> fen
fen view:2 phase=draw act=3 turn=2 attacks=0 last=- chips=10,10,10,10 bids=-,-,-,- hands=+10/2c4c7cTc3d8h9hJhAs4s/+10/+10 known=-/3d/-/- discards=-/2c/-/- battle=- pile=Qc2c deck=62
ok
# seat 3 takes the 2c: it becomes public knowledge in every view
> position fen view:2 phase=draw act=3 turn=2 attacks=0 last=- chips=10,10,10,10 bids=-,-,-,- hands=+10/2c4c7cTc3d8h9hJhAs4s/+10/+10 known=-/3d/-/- battle=- pile=Qc2c deck=62 moves draw:pile
error illegal_move 1 draw:pile this is the view of seat 2; seat 3 is to act
# a view must not list hidden cards of another seat, nor an rng
> position fen view:2 phase=draw act=1 turn=0 attacks=0 last=- chips=10,10,10,10 bids=-,-,-,- hands=Qc+9/2c2c4c7cTc8h9hJhAs4s/+10/+10 known=-/-/-/- battle=- pile=Qc deck=63
error illegal_position view: seat 1's hand must list exactly its known cards
> position fen view:2 phase=draw act=1 turn=0 attacks=0 last=- chips=10,10,10,10 bids=-,-,-,- hands=+10/2c2c4c7cTc8h9hJhAs4s/+10/+10 known=-/-/-/- battle=- pile=Qc deck=63 rng=1:2:3:4
error syntax a view has no rng field
> position fen view:2 phase=draw act=1 turn=0 attacks=0 last=- chips=10,10,10,10 bids=-,-,-,- hands=+10/2c2c4c7cTc8h9hJhAs4s/+10/+10 known=-/-/-/- battle=- pile=Qc deck=62
error illegal_position 103 cards in play, not 104
