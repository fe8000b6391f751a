%engine medan-opentafl
# OpenTafl 0.4.8 passes any `status` line to the game's UI callback, which is
# null while the engine is being set up: a `status` there (e.g. after `rules`)
# ends OpenTafl with a NullPointerException.  So after `rules` with the
# encirclement win on (surf:y, OpenTafl's Fetlar) nothing but the answer to
# the next command may come.
hello
simple-moves on
>& rules dim:11 name:Fetlar atkf:y nj:n cj:n start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/
> ping 1
pong 1
