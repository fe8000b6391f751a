# Perft against counts by hand.  heaps=1,2: a1 b1 b2 (3); then (0,2): b1 b2,
# (1,1): a1 b1, (1,0): a1 (5); then (0,1): b1 twice, (1,0): a1 (3); then
# nothing is left (0).  Start 3,4,5: one move per stone (12); after taking
# k stones, 12 - k moves: (11+10+9) + (11+10+9+8) + (11+10+9+8+7) = 113.
> newgame heaps=1,2
ok
> perft 1
perft 1 3 time * nps *
ok
> perft 2
perft 2 5 time * nps *
ok
> perft 3
perft 3 3 time * nps *
ok
> perft 4
perft 4 0 time * nps *
ok
> divide 2
perft 2 move a1 2
perft 2 move b1 2
perft 2 move b2 1
perft 2 5 time * nps *
ok
> newgame
ok
> perft 1
perft 1 12 time * nps *
ok
> perft 2
perft 2 113 time * nps *
ok
