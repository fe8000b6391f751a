# go solve in Fetlar: the defenders' win in 3 (the king's two routes) and
# the attackers' loss in 2 (from tests/solve/fetlar.suite), exact; stop
# during an unlimited solve of the start.
%info
> position fen /5tt4/3T7/4t1tt3/11/7T1t1/1tT6t1/5t2t2/5t5/3t2t1t2/1t1t3K3/1tt2tT4/ w 26
ok
> go solve nodes 100000
info depth 3 score win 3 nodes 42265 nps * time * pv h10-k10
bestmove h10-k10
> position fen /3t4K2/3t4TT1/3T1t5/t1T6t1/4t6/t2t7/T8T1/5t1t3/T3t4t1/2T1tt1tT2/5t2t2/ b 22
ok
> go solve nodes 100000
info depth 2 score loss 2 nodes 23253 nps * time * pv d1-b1
bestmove d1-b1
> position start
ok
>& go solve
> stop
info nodes * nps * time *
info string unsolved after * nodes
bestmove *
