%engine medan-palagan
%info
# go multipv N: one info line per root maneuver, the N most visited, most
# visited first, each with its own score, values (comma separated, one per
# seat) and best continuation; the bestmove is the first line's.
> newgame size=4
ok
> setoption name Seed value 3
ok
> go nodes 400 multipv 3
info depth * visits * nodes * nps * time * multipv 1 score cp * values *,* pv @*
info depth * visits * nodes * nps * time * multipv 2 score cp * values *,* pv @*
info depth * visits * nodes * nps * time * multipv 3 score cp * values *,* pv @*
bestmove @*
# without multipv: one line, visits of the root
> go nodes 400
info depth * visits 400 nodes * nps * time * score cp * values *,* pv @*
bestmove @*
> go nodes 400 multipv 0
error bad_value go: multipv takes 1..256
