%engine medan-palagan
# The search options: Rave (rave, grave), GraveRef, TreeReuse, SearchParams.
# Each search still answers a legal turn; a second go on the same position
# with TreeReuse on starts from the kept tree.
> mep
id name Medan Palagan
id author *
id version *
protocol 1
game palagan players 2 size=4..9
option name Hash type spin default 64 min 1 max 16384
option name Threads type spin default 1 min 1 max 256
option name Seed type spin default 0 min 0 max 9223372036854775807
option name Strategy type combo default search var search var greedy var random
option name Rave type combo default rave var rave var grave
option name GraveRef type spin default 25 min 1 max 1000000
option name TreeReuse type check default false
option name SearchParams type string default <empty>
option name MoveOverhead type spin default 10 min 0 max 10000
mepok
> setoption name Rave value grave
ok
> setoption name GraveRef value 5
ok
> position start moves @e5 @d4,@f6
ok
> go nodes 600
bestmove *
> setoption name GraveRef value 0
error bad_value *
> setoption name Rave value grav
error bad_value *
> setoption name TreeReuse value true
ok
> go nodes 400
bestmove *
> go nodes 400
bestmove *
> position start moves @e5 @d4,@f6 @e6 @e4
ok
> go nodes 400
bestmove *
> setoption name TreeReuse value maybe
error bad_value *
> setoption name Rave value rave
ok
> setoption name TreeReuse value false
ok
> go nodes 100
bestmove *
> setoption name SearchParams value uct_c=0.35,prior_n=8,policy_save=800
ok
> go nodes 100
bestmove *
> setoption name SearchParams value uct_c=10.5
error bad_value search parameter uct_c takes a number from 0 to 10, not '10.5'
> setoption name SearchParams value prior_n=8.5
error bad_value search parameter prior_n takes a whole number from 0 to 1000, not '8.5'
> setoption name SearchParams value cpuct=1
error bad_value no search parameter 'cpuct'
> setoption name SearchParams value prior_min=0.6,prior_max=0.4
error bad_value search parameter prior_min (0.6) is above prior_max (0.4)
> setoption name SearchParams value <empty>
ok
> go nodes 100
bestmove *
