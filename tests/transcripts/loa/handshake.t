# The MEP handshake and the commands that answer in every state.
> mep
id name Medan LOA
id author the Medan developers
id version *
protocol 1
game loa players 2 size=6|8
option name Hash type spin default 64 min 1 max 65536
option name Threads type spin default 1 min 1 max 256
option name Seed type spin default 0 min 0 max *
option name Strategy type combo default search var search var greedy var random
option name ClearHash type button
option name SearchParams type string default <empty>
option name Weights type string default <empty>
option name MoveOverhead type spin default 10 min 0 max 10000
mepok
> isready
readyok
> ping 17
pong 17
> help
log mep *
log ping *
log isready *
log setoption *
log newgame *
log position *
log play *
log undo *
log legalmoves *
log fen *
log show *
log result *
log perft *
log divide *
log eval *
log go *
log stop *
log ponderhit *
log help *
log quit *
ok
> frobnicate
error unknown_command 'frobnicate' (try help)
> newgame size=5
error bad_value size must be 6 or 8, not '5'
> newgame players=3
error bad_value loa has no parameter 'players' (size=6|8)
> newgame
ok
# a GUI echoes every default back: an empty string default is <empty>
> setoption name Weights value tempo=0
ok
> eval
eval 0 us.pieces=12 * tempo=0
ok
> setoption name Weights value <empty>
ok
> eval
eval 22 us.pieces=12 * tempo=22
ok
> setoption name Hash value 64
ok
> setoption name Strategy value search
ok
