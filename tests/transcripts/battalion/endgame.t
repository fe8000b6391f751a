# Battles: defences, chip transfers, the end of the game and the result.
> newgame players=3
ok
> position fen full phase=defend act=3 turn=9 attacks=42 last=h chips=5,1,24 bids=p,7,p hands=6c8c2dQd3s4sKs/Ac5c7cJcQc2d7dJdQd7h/3c9cAhAh2h3h9h9h3s4s known=-/-/- battle=1>3:2h8hQh pile=- deck=6hAs2s2c4cQc8hAdKhTs6d2s9sJcTd5d8d9d3c4hJs9d5hJsJhJh4h2c3dKs6h5sJdKd4dAdKhAs6s7hKc6s6d6cThTcKdQs5d5c9sQh8s8sQs4d7d5h3h4c9c7s8d8cKcTh7s5sTsAc7cTcTd3d rng=75276af2ec830286:4678f900cc707e2f:165d6c61a37ea4ee:64d6ac3e071165b4
ok
> show
board Battalion, 3 players, full state
board battle 42: seat 3 to defend (last suit h, at least 1 points)
board seat 1  chips  5 bid p  cards  7: 6c8c 2dQd 3s4sKs
board seat 2  chips  1 bid 7  cards 10: Ac5c7cJcQc 2d7dJdQd 7h
board seat 3* chips 24 bid p  cards 10: 3c9c AhAh2h3h9h9h 3s4s
board battle: seat 1 attacks seat 3 with 2h 8h Qh (3 points)
board discard pile 0, top -; draw pile 74
ok
> legalmoves
moves surrender defend:Ah defend:Ah,Ah defend:2h defend:Ah,2h defend:Ah,Ah,2h defend:3h defend:Ah,3h defend:Ah,Ah,3h defend:2h,3h defend:Ah,2h,3h defend:Ah,Ah,2h,3h defend:9h defend:Ah,9h defend:Ah,Ah,9h defend:2h,9h defend:Ah,2h,9h defend:Ah,Ah,2h,9h defend:3h,9h defend:Ah,3h,9h defend:Ah,Ah,3h,9h defend:2h,3h,9h defend:Ah,2h,3h,9h defend:Ah,Ah,2h,3h,9h defend:9h,9h defend:Ah,9h,9h defend:Ah,Ah,9h,9h defend:2h,9h,9h defend:Ah,2h,9h,9h defend:Ah,Ah,2h,9h,9h defend:3h,9h,9h defend:Ah,3h,9h,9h defend:Ah,Ah,3h,9h,9h defend:2h,3h,9h,9h defend:Ah,2h,3h,9h,9h defend:Ah,Ah,2h,3h,9h,9h
ok
> play defend:2h,Kh
error illegal_move defend:2h,Kh seat 3 does not hold these cards
> play defend:2h,3s
error illegal_move defend:2h,3s all cards must be of one suit
# 3 points against 10: the attacker owes 14 but has only 5
> play defend:Ah,Ah,2h,3h,9h,9h
ok
> result
result ranks 3 2 1 reason bankrupt scores 0 1 29
ok
> legalmoves
moves
ok
> go
error game_over the game is over (bankrupt)
> undo
ok
# a surrender: the defender pays the attack's 3 points (the record shows it: s0 in hearts)
> play surrender
ok
> fen
fen full phase=attack act=2 turn=9 attacks=42 last=h chips=8,1,21 bids=p,7,p hands=6c8cTc2d3dTdQd3s4sKs/Ac5c7cJcQc2d7dJdQd7h/3c9cAhAh2h3h9h9h3s4s known=-/-/- shown=----/----/--s0- battle=- pile=2h8hQh deck=6hAs2s2c4cQc8hAdKhTs6d2s9sJcTd5d8d9d3c4hJs9d5hJsJhJh4h2c3dKs6h5sJdKd4dAdKhAs6s7hKc6s6d6cThTcKdQs5d5c9sQh8s8sQs4d7d5h3h4c9c7s8d8cKcTh7s5sTsAc7c rng=75276af2ec830286:4678f900cc707e2f:165d6c61a37ea4ee:64d6ac3e071165b4
ok
> result
result none
ok
# the next attacker may not use hearts, the last attack's suit
> play attack:1:7h
error illegal_move attack:1:7h the last attack was in h: another suit is needed
> play attack:2:Ac
error illegal_move attack:2:Ac bad target seat 2
