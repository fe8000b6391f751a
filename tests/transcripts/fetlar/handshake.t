# mep handshake, options, newgame without parameters.
> mep
id name Medan Fetlar
id author *
id version *
protocol 1
game fetlar players 2
option name Hash type spin default 64 min 1 max 65536
option name Threads type spin default 1 min 1 max 256
option name Seed type spin default 0 min 0 max *
option name Strategy type combo default search var search var greedy var random
option name ClearHash type button
option name SearchParams type string default <empty>
option name Contempt type spin default 200 min 0 max 1000
option name Weights type string default <empty>
option name MoveOverhead type spin default 10 min 0 max 10000
mepok
> newgame size=9
error bad_value fetlar has no parameter 'size'
> newgame
ok
> setoption name Strategy value bogus
error *
> setoption name Hash value 0
error *
> setoption name Hash value 16
ok
# evaluation weights by name (for tuning); a bad one changes nothing
> eval
eval 22 tactic=0 *
ok
> setoption name Weights value balance=0
ok
> eval
eval 1852 tactic=0 *
ok
> setoption name Weights value balance=0,frob=3
error bad_value no weight 'frob'
> eval
eval 1852 tactic=0 *
ok
> setoption name Weights value <empty>
ok
> eval
eval 22 tactic=0 *
ok
# search tunables by name (LOA and Fetlar; for tuning); a bad one changes nothing
> setoption name SearchParams value null_min_depth=99,lmr_min_depth=4
ok
> setoption name SearchParams value lmp_depth=0,lmp_moves=4,fut_depth=2,fut_margin=120
ok
> setoption name SearchParams value lmp_depth=1001
error bad_value search parameter lmp_depth takes a whole number from 0 to 1000, not '1001'
> setoption name SearchParams value lmr_min_depth=4,frob=3
error bad_value no search parameter 'frob'
> setoption name SearchParams value futility_margin=-1
error bad_value search parameter futility_margin takes a whole number from 0 to 1000, not '-1'
> setoption name SearchParams value <empty>
ok
