%engine medan-otbridge
# medan-otbridge with its default child, medan-opentafl (which drives
# medan-fetlar): MEP on this side, the OpenTafl Engine Protocol behind it.
# The rules and positions are the bridge's own (fetlar_game); only `go`
# asks the child.
> mep
id name Medan OpenTafl bridge
id author *
id version *
protocol 1
game fetlar players 2
option name Seed type spin default 0 min 0 max *
option name Strategy type combo default opentafl var opentafl var random
option name MoveOverhead type spin default 10 min 0 max 10000
mepok
> newgame
ok
> position start moves f2-j2
ok
> fen
fen /3ttttt3/9t1/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ w 1
ok
# The defenders' king on a5 with an open road to a1: the child escapes.
> position fen /11/11/3t7/11/K10/t9t/11/11/2t8/11/11/ w 0
ok
> go depth 3
bestmove a5-a1
> play a5-a1
ok
> result
result p2win reason * scores 0 1
ok
> go depth 2
error game_over *
# The attackers to move there: only d3-a3 stops the escape.
> position fen /11/11/3t7/11/K10/t9t/11/11/2t8/11/11/ b 0
ok
> go movetime 300
bestmove d3-a3
# go infinite: nothing before stop, then a legal move at once.
> position start
ok
>& go infinite
> ping 1
pong 1
> legalmoves
error busy *
> stop
bestmove *
> go nodes 500
bestmove *
> isready
readyok
# Strategy random: a seeded random legal move, the child not asked (the
# same move again for the same Seed and position): not the escape.
> setoption name Strategy value random
ok
> setoption name Seed value 3
ok
> position fen /11/11/3t7/11/K10/t9t/11/11/2t8/11/11/ w 0
ok
> go depth 3
bestmove a5-d5
> go depth 3
bestmove a5-d5
