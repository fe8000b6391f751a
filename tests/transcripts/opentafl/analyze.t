%engine medan-opentafl
# Analysis mode: rules, then position + side, then analyze <n> <seconds>.
hello
simple-moves on
>& rules dim:11 name:Fetlar surf:n atkf:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/
>& medan-limits depth 3
>& position /11/11/11/11/3K7/t9t/11/11/2t8/11/11/
>& side defenders
>& analyze 2 1
> ping 1
analysis 2 d5-a5|a6-a7|a5-a1 997.00 d5-k5|k6-k7|k5-k1 997.00
pong 1
>& side attackers
>& medan-state
> ping 2
status fen /11/11/11/11/3K7/t9t/11/11/2t8/11/11/ b 0 moves 0
pong 2
>& clock 5000 5000 0 0 0
>& analyze 1 1
> ping 3
analysis 1 *|* *
pong 3
>& goodbye
