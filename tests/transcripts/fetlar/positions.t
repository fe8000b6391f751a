# Position strings, moves, errors that change nothing, results.
> position start
ok
> fen
fen /3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ b 0
ok
> position start moves e1-e4 d6d4
ok
> fen
fen /3t1ttt3/5t5/11/t2T1T4t/t3TTT3t/tt2TKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ b 0
ok
# d6-d4 captured e4 against f4; a bad third move leaves the old position
> position start moves e1-e4 d6-d4 e4-e2
error illegal_move 3 e4-e2 *
> fen
fen /3t1ttt3/5t5/11/t2T1T4t/t3TTT3t/tt2TKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ b 0
ok
> undo
ok
> fen
fen /3t1ttt3/5t5/11/t3tT4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ w 1
ok
> play f6-f5
error illegal_move f6-f5 *
> play e5-e1
error illegal_move e5-e1 *
> play e1-e2
error illegal_move e1-e2 *
> play e5e
error syntax *
> play d6-d4
ok
> fen
fen /3t1ttt3/5t5/11/t2T1T4t/t3TTT3t/tt2TKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ b 0
ok
> result
result none
ok
# the king escapes
> position fen /11/11/11/11/3K7/t9t/11/11/2t8/11/11/ w 0
ok
> legalmoves
moves d5-a5 d5-b5 d5-c5 d5-e5 d5-f5 d5-g5 d5-h5 d5-i5 d5-j5 d5-k5 d5-d1 d5-d2 d5-d3 d5-d4 d5-d6 d5-d7 d5-d8 d5-d9 d5-d10 d5-d11
ok
> position fen /11/11/11/11/3K7/t9t/11/11/2t8/11/11/ w 0 moves d5-a5 a6-a7 a5-a1
ok
> result
result p2win reason king_escaped scores 0 1
ok
> legalmoves
moves
ok
> go depth 1
error game_over *
# the king captured (three attackers and the throne)
> position fen /11/11/11/11/11/11/4tK5/5t1t3/6t4/11/11/ b 0 moves g9-g7
ok
> result
result p1win reason king_captured scores 1 0
ok
> fen
fen /11/11/11/11/11/11/4t1t4/5t1t3/11/11/11/ w 0
ok
# white walled in: no legal move loses
> position fen /11/11/11/4t6/3tKt5/4t6/11/11/11/11/11/ w 0
ok
> result
result p1win reason no_moves scores 1 0
ok
# 100 plies without capture
> position fen /11/11/11/11/11/5K5/11/11/11/11/11/ w 100
ok
> result
result draw reason no_capture scores 0.5 0.5
ok
# threefold repetition (the start position for the third time)
> position start moves h1-h2 f4-i4 h2-h1 i4-f4 h1-h2 f4-i4 h2-h1
ok
> result
result none
ok
> play i4-f4
ok
> result
result draw reason repetition scores 0.5 0.5
ok
# impossible or malformed strings
> position fen /11/11/11/11/11/5t5/11/11/11/11/11/ b 0
error illegal_position *
> position fen /11/11/11/11/11/5K5/11/11/11/11/11/ b 101
error illegal_position *
> position fen /11/11/11/11/11/5K5/11/11/11/11/11/ x 0
error syntax *
> position fen /11/11/11/11/11/5K5/11/11/11/11/10/ b 0
error syntax *
> fen
fen /3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ b 8
ok
