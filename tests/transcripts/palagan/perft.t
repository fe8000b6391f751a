%engine medan-palagan
# Perft from the start (RULES.md section 3; an independent implementation
# agrees): N = 4: 38, 55 977; N = 5: 62, 242 361.
> newgame size=4
ok
> perft 1
perft 1 38 time * nps *
ok
> perft 2
perft 2 55977 time * nps *
ok
> newgame
ok
> perft 1
perft 1 62 time * nps *
ok
> perft 2
perft 2 242361 time * nps *
ok
# every other size: the cells plus pass
> newgame size=6
ok
> perft 1
perft 1 92 time * nps *
ok
> newgame size=9
ok
> perft 1
perft 1 218 time * nps *
ok
# after a pass the first turn is used up: the reply has two maneuvers
> newgame size=4
ok
> position start moves pass
ok
> perft 1
perft 1 1550 time * nps *
ok
# divide on a small position: one black piece in the corner, no reserve
> position fen 4/5/6/7/6/5/b3 b 0/20 0/0 0 0 0
ok
> divide 1
perft 1 move pass 1
perft 1 move a1-b1 1
perft 1 move a1-b1,b1-c1 1
perft 1 move a1-b1,b1-b2 1
perft 1 move a1-b1,b1-c2 1
perft 1 move a1-a2 1
perft 1 move a1-a2,a2-b2 1
perft 1 move a1-a2,a2-a3 1
perft 1 move a1-a2,a2-b3 1
perft 1 move a1-b2 1
perft 1 move a1-b2,b2-c2 1
perft 1 move a1-b2,b2-a2 1
perft 1 move a1-b2,b2-b3 1
perft 1 move a1-b2,b2-b1 1
perft 1 move a1-b2,b2-c3 1
perft 1 15 time * nps *
ok
