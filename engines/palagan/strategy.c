/* strategy.c - the baseline players: random and greedy (strategy.h). */
#include "strategy.h"

#include <stdlib.h>

#include "../../core/util.h"

gmove pal_random_turn(const struct pal_state *s, struct rng *r)
{
    int n = pal_gen_turns(s, NULL, 1 << 30);
    if (n <= 0)
        return GAME_MOVE_NONE;
    gmove *mv = xmalloc((size_t)n * sizeof *mv);
    pal_gen_turns(s, mv, n);
    gmove m = mv[rng_below(r, (uint64_t)n)];
    free(mv);
    return m;
}

/* Captures gained, then own minus enemy liberties, then chance. */
static int64_t score(const struct pal_geom *g, const struct pal_state *before,
                     const struct pal_state *after, struct rng *r)
{
    int me = before->stm, libs[2];
    pal_liberties(g, after, libs);
    int64_t got = after->captures[me] - before->captures[me];
    return (got * 100000 + (libs[me] - libs[me ^ 1]) + 1000) * 64 + (int64_t)rng_below(r, 64);
}

gmove pal_greedy_turn(const struct pal_state *s, struct rng *r)
{
    if (pal_over(s))
        return GAME_MOVE_NONE;
    const struct pal_geom *g = pal_geom(s->n);
    gmove best = PAL_PASS;
    int64_t bs = score(g, s, s, r);
    pal_man l1[PAL_MAX_MAN], l2[PAL_MAX_MAN];
    int n1 = pal_gen_man(g, s, l1);
    for (int i = 0; i < n1; i++) {
        struct pal_state s1 = *s;
        pal_apply(g, &s1, l1[i]);
        if (pal_can_end(g, &s1)) {
            int64_t v = score(g, s, &s1, r);
            if (v > bs) {
                bs = v;
                best = PAL_TURN(l1[i], 0);
            }
        }
        int n2 = pal_gen_man(g, &s1, l2);
        for (int j = 0; j < n2; j++) {
            struct pal_state s2 = s1;
            pal_apply(g, &s2, l2[j]);
            if (!pal_can_end(g, &s2))
                continue;
            int64_t v = score(g, s, &s2, r);
            if (v > bs) {
                bs = v;
                best = PAL_TURN(l1[i], l2[j]);
            }
        }
    }
    return best;
}
