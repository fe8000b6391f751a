# What a person at the console (or a UCI habit) types: did-you-mean for
# other protocols' words, help <command>, position startpos, and show/help
# served during a search.
> d
error unknown_command 'd' (did you mean show?)
> showboard
error unknown_command 'showboard' (did you mean show?)
> board
error unknown_command 'board' (did you mean show?)
> legal
error unknown_command 'legal' (did you mean legalmoves?)
> frobnicate
error unknown_command 'frobnicate' (try help)
> help go
log go          go *
ok
> help position
log position    position start|fen <S> *
ok
> help frob
error bad_value no command 'frob' (try help)
> help go stop
error syntax usage: help *
> position startpos moves b1-b3
ok
> fen
fen 1bbbbbb1/w6w/w6w/w6w/w6w/wb5w/w6w/2bbbbb1 w
ok
> position startpos
ok
> position startposition
error syntax usage: position start|fen <S> *
>& go infinite
> show
board   a b c d e f g h
board 8 . x x x x x x . 8
board *
board *
board *
board *
board *
board *
board *
board   a b c d e f g h
board black (x) 12  white (o) 12  black to move
ok
> help stop
log stop        stop the search -> bestmove
ok
> undo
error busy a search is running: *
> stop
bestmove *
