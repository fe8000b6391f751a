/* endgames.h - endgame positions with a known answer, for the solver's
 * tests (tests/unit/test_pns.c) and its benchmark (tests/tools/solve_bench.c):
 * positions a few plies before the end of seeded random games, each valued
 * by a plain full-width AND/OR search (no table, no pruning but the
 * short cut of a decided node): the shortest forced win of either side
 * within a small depth.  The shortest win never repeats a position (its
 * distance falls at every ply of the winner), so repetition rules cannot
 * change these values. */
#ifndef MEDAN_ENDGAMES_H
#define MEDAN_ENDGAMES_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "core/util.h"

/* Does seat `att` force a win from st within d plies? */
static int eg_win_within(const struct game *g, const void *st, int att, int d, uint64_t *nodes)
{
    struct game_result r;
    game_state_buf c;
    gmove *mv;
    int n, res, me = g->to_move(st), or_node = me == att;
    (*nodes)++;
    g->result(st, NULL, 0, &r);
    if (r.over)
        return r.rank[att - 1] == 1 && r.rank[2 - att] != 1;
    if (d <= 0)
        return 0;
    mv = game_move_buf(g);
    n = game_gen_moves(g, st, mv);
    res = n == 0 ? !or_node : !or_node;
    for (int i = 0; i < n; i++) {
        memcpy(c.b, st, g->state_size);
        g->play(c.b, mv[i]);
        int w = eg_win_within(g, c.b, att, d - 1, nodes);
        if (or_node && w) {
            res = 1;
            break;
        }
        if (!or_node && !w) {
            res = 0;
            break;
        }
    }
    free(mv);
    return res;
}

/* The value of st for the side to move: +d (wins in d plies at best), -d
 * (loses in d plies at best resistance), 0 (neither within maxd). */
static int eg_value(const struct game *g, const void *st, int maxd, uint64_t *nodes)
{
    int me = g->to_move(st);
    for (int d = 1; d <= maxd; d++) {
        if (eg_win_within(g, st, me, d, nodes))
            return d;
        if (eg_win_within(g, st, 3 - me, d, nodes))
            return -d;
    }
    return 0;
}

/* A seeded random game from the start of the default config, played
 * until its end (or maxplies); *states gets every position (xmalloc'd,
 * *n of them).  Returns 1 when the game ended with a winner. */
static int eg_random_game(const struct game *g, uint64_t seed, int maxplies,
                          unsigned char **states, int *n)
{
    game_config_buf cfg;
    struct game_result r;
    struct rng rng;
    gmove *mv = game_move_buf(g);
    size_t sz = g->state_size;
    unsigned char *s = xmalloc((size_t)(maxplies + 1) * sz);
    int k = 0;
    rng_seed(&rng, seed);
    g->config_default(cfg.b);
    g->start(s, cfg.b);
    for (;;) {
        g->result(s + (size_t)k * sz, NULL, 0, &r);
        if (r.over || k == maxplies)
            break;
        int nm = game_gen_moves(g, s + (size_t)k * sz, mv);
        if (nm == 0)
            break;
        memcpy(s + (size_t)(k + 1) * sz, s + (size_t)k * sz, sz);
        g->play(s + (size_t)(k + 1) * sz, mv[rng_below(&rng, (uint64_t)nm)]);
        k++;
    }
    free(mv);
    *states = s;
    *n = k + 1;
    return r.over && r.rank[0] != r.rank[1];
}

#endif
