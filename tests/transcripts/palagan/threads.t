%engine medan-palagan
# Threads: searches on one shared tree.  Changeable between searches (the
# tree is kept: TreeReuse goes on from it), refused during one with
# `error busy`; each search answers a legal turn.
> setoption name Threads value 4
ok
> setoption name Threads value 0
error bad_value *
> setoption name Threads value 257
error bad_value *
> position start moves @e5 @d4,@f6
ok
> go nodes 2000
bestmove *
>& go infinite
> setoption name Threads value 1
error busy *
> stop
bestmove *
> setoption name Threads value 1
ok
> setoption name TreeReuse value true
ok
> go nodes 500
bestmove *
> setoption name Threads value 3
ok
> position start moves @e5 @d4,@f6 @e6 @e4
ok
> go nodes 1000
bestmove *
# a capture: white a1..d1 has one liberty, e2; two threads take it too
> setoption name Threads value 2
ok
> position fen 4/5/6/7/6/bbbb1/wwww b 16/16 0/0 0 0 0
ok
> go nodes 2000
bestmove *e2*
