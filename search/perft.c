/* perft.c - leaf counts of the legal-move tree for any game (perft.h). */
#include "perft.h"

#include <stdlib.h>
#include <string.h>

#include "../core/util.h"

static uint64_t perft_rec(const struct game *g, const void *st, int depth,
                          unsigned char *scratch, atomic_bool *stop)
{
    gmove *moves;
    unsigned char *child;
    uint64_t total = 0;
    int n;
    /* every node, also the bulk-counted ones: one count on Palagan N = 9
     * takes a millisecond, a node above it tens of seconds */
    if (stop && atomic_load_explicit(stop, memory_order_relaxed))
        return 0;
    if (depth == 1)
        return (uint64_t)game_count_moves(g, st);
    if (depth == 2 && g->perft2)
        return g->perft2(st);
    moves = game_move_buf(g);
    n = game_gen_moves(g, st, moves);
    child = scratch;
    for (int i = 0; i < n; i++) {
        if (stop && atomic_load_explicit(stop, memory_order_relaxed))
            break;
        memcpy(child, st, g->state_size);
        g->play(child, moves[i]);
        total += perft_rec(g, child, depth - 1, scratch + g->state_size, stop);
    }
    free(moves);
    return total;
}

uint64_t perft(const struct game *g, const void *st, int depth)
{
    return perft_stoppable(g, st, depth, NULL);
}

uint64_t perft_stoppable(const struct game *g, const void *st, int depth,
                         atomic_bool *stop)
{
    unsigned char *scratch;
    uint64_t n;
    if (depth <= 0)
        return 1;
    scratch = xmalloc(g->state_size * (size_t)(depth + 1));
    n = perft_rec(g, st, depth, scratch, stop);
    free(scratch);
    return n;
}

uint64_t perft_divide(const struct game *g, const void *st, int depth,
                      divide_fn fn, void *ctx, atomic_bool *stop)
{
    gmove *moves = game_move_buf(g);
    unsigned char *child = xmalloc(g->state_size);
    uint64_t total = 0;
    char tok[256];
    int n = depth > 0 ? game_gen_moves(g, st, moves) : 0;
    for (int i = 0; i < n; i++) {
        uint64_t c;
        if (stop && atomic_load_explicit(stop, memory_order_relaxed))
            break;
        memcpy(child, st, g->state_size);
        g->format_move(st, moves[i], tok, sizeof tok);
        g->play(child, moves[i]);
        c = perft_stoppable(g, child, depth - 1, stop);
        if (stop && atomic_load_explicit(stop, memory_order_relaxed))
            break; /* c is partial: not shown */
        fn(ctx, tok, c);
        total += c;
    }
    free(child);
    free(moves);
    return total;
}
