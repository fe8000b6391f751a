/* perft.h - move-generation check for any game: counts the leaves of the
 * legal-move tree.  Finished positions (no legal moves by gen_moves) have
 * nothing below them.  Bulk-counts the last ply with count_moves, or the
 * last two with the game's perft2 where it has one. */
#ifndef MEDAN_PERFT_H
#define MEDAN_PERFT_H

#include <stdint.h>

#include "../core/game.h"

#include <stdatomic.h>
#include <stdbool.h>

uint64_t perft(const struct game *g, const void *st, int depth);
/* Same, giving up (returning 0) once *stop turns true; stop may be NULL. */
uint64_t perft_stoppable(const struct game *g, const void *st, int depth,
                         atomic_bool *stop);

/* divide: calls fn for every root move with its subtree count. */
typedef void (*divide_fn)(void *ctx, const char *move, uint64_t count);
uint64_t perft_divide(const struct game *g, const void *st, int depth,
                      divide_fn fn, void *ctx, atomic_bool *stop);

#endif
