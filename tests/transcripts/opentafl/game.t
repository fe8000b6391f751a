%engine medan-opentafl
# A full short game through the adapter: OpenTafl (the attackers) against
# Medan (the defenders, moving first here).  The king runs to the edge with
# an unstoppable route and escapes.
hello
simple-moves on
>& rules dim:11 name:Test surf:n atkf:n start:/11/11/11/11/3K7/t9t/11/11/2t8/11/11/
>& medan-limits depth 4
>& play defenders
> ping 1
move d5-a5
pong 1
>& move /11/11/11/11/K10/t9t/11/11/2t8/11/11/
>& opponent-move a6-a7 /11/11/11/11/K10/10t/t10/11/2t8/11/11/
>& clock 60000 60000 0 0 0
>& play defenders
> ping 2
move a5-a1
pong 2
>& move /K10/11/11/11/11/10t/t10/11/2t8/11/11/
>& finish 3
>& medan-state
> ping 3
status fen /K10/11/11/11/11/10t/t10/11/2t8/11/11/ b 3 moves 3
pong 3
>& goodbye
