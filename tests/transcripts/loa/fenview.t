# fen view is for hidden-information games only
> fen view 1
error not_supported loa has no hidden information
> fen x
error syntax usage: fen, or fen view <seat>
