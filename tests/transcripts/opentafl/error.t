%engine medan-opentafl
# OpenTafl refuses Medan's move twice (error 2, then the opponent's move and
# the position again, then play): the adapter never offers a refused move
# again and keeps the history (one move: e1-e4).
hello
simple-moves on
>& rules dim:11 name:Fetlar atkf:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/
>& medan-limits depth 3
>& opponent-move e1-e4 /3t1ttt3/5t5/11/t3tT4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/
>& play defenders
> ping 1
move d6-d4
pong 1
>& error 2
>& opponent-move e1-e4 /3t1ttt3/5t5/11/t3tT4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/
>& play defenders
> ping 2
move g5-j5
pong 2
>& error 2
>& opponent-move e1-e4 /3t1ttt3/5t5/11/t3tT4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/
>& play defenders
> ping 3
move g7-g10
pong 3
>& medan-state
> ping 4
status fen /3t1ttt3/5t5/11/t3tT4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ w 1 moves 1
pong 4
# Rules Medan cannot play: a clear critical error.
> rules dim:9 name:Tablut start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/
error -1 Medan cannot play these rules: Medan plays Fetlar on 11x11 only, not dim:9
> rules dim:11 name:Copenhagen atkf:n sw:s efe:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/
error -1 Medan cannot play these rules: Medan's Fetlar does not play shieldwall captures (sw:s)
> rules dim:11 ks:w start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/
error -1 Medan cannot play these rules: Medan's Fetlar needs a strong king (ks:s), not ks:w
> rules dim:11 start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TNKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/
error -1 Medan cannot play these rules: piece 'N' is not in Fetlar (only t T K)
>& goodbye
