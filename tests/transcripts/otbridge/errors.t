%engine medan-otbridge
# The MEP side is the protocol library's: bad input is refused and changes
# nothing, without asking the child.
> position fen /t10/11/11/11/5K5/11/11/11/11/11/11/ b 0
error illegal_position *
> position start moves f2-f6
error illegal_move 1 f2-f6 *
> fen
fen /3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ b 0
ok
> go depth 0
error bad_value *
> go movetime 9223372036854776
error bad_value *
> go p1time 9223372036854776
error bad_value *
> go p1time 100 p3time 100
error bad_value *
> setoption name Seed value -1
error *
> setoption name Hash value 64
error unknown_option *
> frobnicate
error unknown_command *
> newgame size=9
error bad_value *
