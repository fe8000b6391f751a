# Perft from the start (RULES.md §2), and divide on a small position.
> perft 1
perft 1 116 time * nps *
ok
> perft 2
perft 2 6788 time * nps *
ok
> perft 3
perft 3 806344 time * nps *
ok
> position fen /11/11/11/11/3K7/t9t/11/11/2t8/11/11/ w 0
ok
> divide 1
perft 1 move d5-a5 1
perft 1 move d5-b5 1
perft 1 move d5-c5 1
perft 1 move d5-e5 1
perft 1 move d5-f5 1
perft 1 move d5-g5 1
perft 1 move d5-h5 1
perft 1 move d5-i5 1
perft 1 move d5-j5 1
perft 1 move d5-k5 1
perft 1 move d5-d1 1
perft 1 move d5-d2 1
perft 1 move d5-d3 1
perft 1 move d5-d4 1
perft 1 move d5-d6 1
perft 1 move d5-d7 1
perft 1 move d5-d8 1
perft 1 move d5-d9 1
perft 1 move d5-d10 1
perft 1 move d5-d11 1
perft 1 20 time * nps *
ok
# Game-ending moves are leaves: after d5-a5 a6-a7, a5-a1 ends the game.
> position fen /11/11/11/11/3K7/t9t/11/11/2t8/11/11/ w 0 moves d5-a5 a6-a7
ok
> perft 2
perft 2 749 time * nps *
ok
