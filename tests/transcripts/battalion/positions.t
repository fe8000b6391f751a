# The full state: the deal is a pure function of (seed, game); collection
# moves; errors leave the position unchanged.
> newgame players=4 seat=1 seed=3
ok
> fen
fen full phase=draw act=1 turn=0 attacks=0 last=- chips=10,10,10,10 bids=-,-,-,- hands=6cQcKcAd4dAh6hTh2s7s/2c2c4c7cTc8h9hJhAs4s/9c5d6d8d5hKh4s5s5sTs/3cJc6d7dJd6h7hJh8sJs known=-/-/-/- battle=- pile=Qc deck=Js6s9d8c3h3c9h2dKh7d5h7cAcAcTdTdJc3s3s2sQs6cQh3d5c9cQs5d9d2hQd6s8d7h4cKd4hKd9sAs7sQhJdAd5c2h4hAhKc9sTs8sQd8hKsThTc3h4dKs3d8c2d rng=2969e5390d51b4db:c9b032eb97511248:1654a091b6e4faad:46779479189f01f1
ok
> show
board Battalion, 4 players, full state
board collection round 1: seat 1 to draw
board seat 1* chips 10 bid -  cards 10: 6cQcKc Ad4d Ah6hTh 2s7s
board seat 2  chips 10 bid -  cards 10: 2c2c4c7cTc 8h9hJh As4s
board seat 3  chips 10 bid -  cards 10: 9c 5d6d8d 5hKh 4s5s5sTs
board seat 4  chips 10 bid -  cards 10: 3cJc 6d7dJd 6h7hJh 8sJs
board discard pile 1, top Qc; draw pile 63
ok
> legalmoves
moves draw:deck draw:pile
ok
> play draw:pile
ok
> fen
fen full phase=discard act=1 turn=0 attacks=0 last=- chips=10,10,10,10 bids=-,-,-,- hands=6cQcQcKcAd4dAh6hTh2s7s/2c2c4c7cTc8h9hJhAs4s/9c5d6d8d5hKh4s5s5sTs/3cJc6d7dJd6h7hJh8sJs known=Qc/-/-/- battle=- pile=- deck=Js6s9d8c3h3c9h2dKh7d5h7cAcAcTdTdJc3s3s2sQs6cQh3d5c9cQs5d9d2hQd6s8d7h4cKd4hKd9sAs7sQhJdAd5c2h4hAhKc9sTs8sQd8hKsThTc3h4dKs3d8c2d rng=2969e5390d51b4db:c9b032eb97511248:1654a091b6e4faad:46779479189f01f1
ok
> legalmoves
moves discard:6c discard:Qc discard:Kc discard:Ad discard:4d discard:Ah discard:6h discard:Th discard:2s discard:7s
ok
> play discard:Zz
error syntax discard:Zz discard:<card>, e.g. discard:7h
> play discard:5h
error illegal_move discard:5h seat 1 does not hold 5h
> play bid:5
error illegal_move bid:5 seat 1 must discard now
> result
result none
ok
> undo
ok
> fen
fen full phase=draw act=1 turn=0 attacks=0 last=- chips=10,10,10,10 bids=-,-,-,- hands=6cQcKcAd4dAh6hTh2s7s/2c2c4c7cTc8h9hJhAs4s/9c5d6d8d5hKh4s5s5sTs/3cJc6d7dJd6h7hJh8sJs known=-/-/-/- battle=- pile=Qc deck=Js6s9d8c3h3c9h2dKh7d5h7cAcAcTdTdJc3s3s2sQs6cQh3d5c9cQs5d9d2hQd6s8d7h4cKd4hKd9sAs7sQhJdAd5c2h4hAhKc9sTs8sQd8hKsThTc3h4dKs3d8c2d rng=2969e5390d51b4db:c9b032eb97511248:1654a091b6e4faad:46779479189f01f1
ok
> position start moves draw:deck discard:2d draw:pile discard:7c
ok
> fen
fen full phase=draw act=3 turn=2 attacks=0 last=- chips=10,10,10,10 bids=-,-,-,- hands=6cQcKcAd4dAh6hTh2s7s/2c2c4cTc2d8h9hJhAs4s/9c5d6d8d5hKh4s5s5sTs/3cJc6d7dJd6h7hJh8sJs known=-/2d/-/- discards=2d/7c/-/- battle=- pile=Qc7c deck=Js6s9d8c3h3c9h2dKh7d5h7cAcAcTdTdJc3s3s2sQs6cQh3d5c9cQs5d9d2hQd6s8d7h4cKd4hKd9sAs7sQhJdAd5c2h4hAhKc9sTs8sQd8hKsThTc3h4dKs3d8c rng=2969e5390d51b4db:c9b032eb97511248:1654a091b6e4faad:46779479189f01f1
ok
> position start moves draw:deck discard:2d draw:deck discard:2d
error illegal_move 4 discard:2d seat 2 does not hold 2d
> position fen full phase=draw act=1 turn=0 attacks=0 last=- chips=10,10,10,10
error syntax field 'bids' missing
> position fen full phase=draw act=2 turn=0 attacks=0 last=- chips=10,10,10,10 bids=-,-,-,- hands=6cQcKcAd4dAh6hTh2s7s/2c2c4c7cTc8h9hJhAs4s/9c5d6d8d5hKh4s5s5sTs/3cJc6d7dJd6h7hJh8sJs known=-/-/-/- battle=- pile=Qc deck=Js6s9d8c3h3c9h2dKh7d5h7cAcAcTdTdJc3s3s2sQs6cQh3d5c9cQs5d9d2hQd6s8d7h4cKd4hKd9sAs7sQhJdAd5c2h4hAhKc9sTs8sQd8hKsThTc3h4dKs3d8c2d rng=2969e5390d51b4db:c9b032eb97511248:1654a091b6e4faad:46779479189f01f1
error illegal_position collection turn 0 is seat 1's
> position fen full phase=draw act=1 turn=0 attacks=0 last=- chips=10,10,10,10 bids=-,-,-,- hands=6cQcKcAd4dAh6hTh2s7s/2c2c4c7cTc8h9hJhAs4s/9c5d6d8d5hKh4s5s5sTs/3cJc6d7dJd6h7hJh8sJs known=-/-/-/- battle=- pile=Qc deck=Js6s9d8c3h3c9h2dKh7d5h7cAcAcTdTdJc3s3s2sQs6cQh3d5c9cQs5d9d2hQd6s8d7h4cKd4hKd9sAs7sQhJdAd5c2h4hAhKc9sTs8sQd8hKsThTc3h4dKs3d8c2c rng=2969e5390d51b4db:c9b032eb97511248:1654a091b6e4faad:46779479189f01f1
error illegal_position card 2c appears 3 times (two decks: twice)
