/* eval.c - Lines of Action evaluation (see eval.h). */
#include "eval.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/util.h"

const struct loa_weights loa_default_weights = {
    /* tuned by SPSA (medan-referee tune, 6000 games at nodes=16000; the
     * hand-set values before it in comments; docs/games/loa.md) */
    .concentration = 30, /* 20 */
    .centre = 3,         /* 8 */
    .com_centre = 0,     /* 6 */
    .groups = 14,        /* 15 */
    .euler = 12,         /* 8 */
    .mobility = 13,      /* 8 */
    .edge_mobility = 54, /* 100 */
    .blocked = 1,        /* 0 */
    .tempo = 22,         /* 15 */
};

static const struct named_int weight_names[] = {
    {"concentration", offsetof(struct loa_weights, concentration)},
    {"centre", offsetof(struct loa_weights, centre)},
    {"com_centre", offsetof(struct loa_weights, com_centre)},
    {"groups", offsetof(struct loa_weights, groups)},
    {"euler", offsetof(struct loa_weights, euler)},
    {"mobility", offsetof(struct loa_weights, mobility)},
    {"edge_mobility", offsetof(struct loa_weights, edge_mobility)},
    {"blocked", offsetof(struct loa_weights, blocked)},
    {"tempo", offsetof(struct loa_weights, tempo)},
};

int loa_weights_parse(struct loa_weights *w, const char *spec, char *err, size_t n)
{
    return named_ints_parse(w, sizeof *w, weight_names, ARRAY_LEN(weight_names), -1000, 1000,
                            "weight", spec, err, n);
}

/* Smallest possible sum of Chebyshev distances from the centre of mass for
 * n pieces: the centre, then the ring of 8 at distance 1, then 16 at 2. */
static int min_spread(int n)
{
    int sum = 0;
    for (int i = 1; i < n; i++)
        sum += i <= 8 ? 1 : i <= 24 ? 2 : 3;
    return sum;
}

/* centralisation: ring 0 (edge) .. 3 (centre four; 2 on 6x6, whose last
 * file and rank are `last` = 5) */
static int ring(int sq, int last)
{
    int x = sq & 7, y = sq >> 3;
    int a = x < last - x ? x : last - x, b = y < last - y ? y : last - y;
    return a < b ? a : b;
}

struct side_terms {
    int n, spread, centre, com_dist, groups, euler, mobility, edge_moves, blocked;
};

LOA_INLINE int euler_number(uint64_t bb)
{
    /* 2x2 windows over a board padded by one square on each side. */
    unsigned char win[9][9] = {{0}};
    int q1 = 0, q3 = 0, qd = 0;
    for (uint64_t b = bb; b; b &= b - 1) {
        int sq = __builtin_ctzll(b), x = sq & 7, y = sq >> 3;
        /* window (wx,wy) covers squares (wx-1..wx, wy-1..wy) */
        win[x][y] |= 8;         /* piece is the window's top-right */
        win[x + 1][y] |= 4;     /* top-left */
        win[x][y + 1] |= 2;     /* bottom-right */
        win[x + 1][y + 1] |= 1; /* bottom-left */
    }
    for (int x = 0; x < 9; x++)
        for (int y = 0; y < 9; y++) {
            int w = win[x][y], c = __builtin_popcount((unsigned)w);
            q1 += c == 1;
            q3 += c == 3;
            qd += w == 9 || w == 6;
        }
    return (q1 - q3 - 2 * qd) / 4;
}

LOA_INLINE int terms(const struct loa_state *s, int side, struct side_terms *t)
{
    uint64_t bb = s->bb[side];
    int sx = 0, sy = 0, cx, cy, last = loa_last(s);
    t->n = __builtin_popcountll(bb);
    t->centre = 0;
    for (uint64_t b = bb; b; b &= b - 1) {
        int sq = __builtin_ctzll(b);
        sx += sq & 7;
        sy += sq >> 3;
        t->centre += ring(sq, last);
    }
    cx = (sx + t->n / 2) / t->n;
    cy = (sy + t->n / 2) / t->n;
    t->spread = 0;
    for (uint64_t b = bb; b; b &= b - 1) {
        int sq = __builtin_ctzll(b), dx = abs((sq & 7) - cx), dy = abs((sq >> 3) - cy);
        t->spread += dx > dy ? dx : dy;
    }
    t->spread -= min_spread(t->n);
    /* twice the distance of the centre of mass from the board centre (3.5, 3.5;
     * 2.5, 2.5 on 6x6) */
    t->com_dist = abs(2 * sx - last * t->n) + abs(2 * sy - last * t->n);
    t->com_dist = t->com_dist / t->n;
    t->groups = loa_groups(bb);
    t->euler = euler_number(bb);
    struct loa_mob mob;
    loa_mobility(s, side, &mob);
    t->mobility = mob.moves;
    t->edge_moves = mob.edge;
    t->blocked = mob.blocked;
    return t->n;
}

LOA_INLINE int combine(const struct side_terms *t, const struct loa_weights *w)
{
    return -w->concentration * t->spread + w->centre * t->centre * 4 / t->n -
           w->com_centre * t->com_dist - w->groups * (t->groups - 1) -
           w->euler * (t->euler > 1 ? t->euler - 1 : 0) +
           w->mobility * (100 * (t->mobility - t->edge_moves) + w->edge_mobility * t->edge_moves) / 100 -
           w->blocked * t->blocked;
}

LOA_INLINE int eval_body(const struct loa_state *s, const struct loa_weights *w)
{
    struct side_terms us, them;
    terms(s, s->side, &us);
    terms(s, s->side ^ 1, &them);
    return combine(&us, w) - combine(&them, w) + w->tempo;
}

/* the evaluation's fast copy (POPCNT, BMI) where the processor has it */
LOA_DISPATCH(, int, loa_eval, (const struct loa_state *s, const struct loa_weights *w), (s, w),
             eval_body(s, w))

int loa_eval_terms(const struct loa_state *s, const struct loa_weights *w, char *buf, size_t n)
{
    struct side_terms t[2];
    size_t len = 0;
    int score;
    terms(s, s->side, &t[0]);
    terms(s, s->side ^ 1, &t[1]);
    score = combine(&t[0], w) - combine(&t[1], w) + w->tempo;
    buf_printf(buf, n, &len, "%d", score);
    for (int i = 0; i < 2; i++)
        buf_printf(buf, n, &len,
                   " %s.pieces=%d %s.spread=%d %s.centre=%d %s.com_dist=%d %s.groups=%d"
                   " %s.euler=%d %s.mobility=%d %s.edge_moves=%d %s.blocked=%d",
                   i ? "them" : "us", t[i].n, i ? "them" : "us", t[i].spread, i ? "them" : "us",
                   t[i].centre, i ? "them" : "us", t[i].com_dist, i ? "them" : "us", t[i].groups,
                   i ? "them" : "us", t[i].euler, i ? "them" : "us", t[i].mobility,
                   i ? "them" : "us", t[i].edge_moves, i ? "them" : "us", t[i].blocked);
    buf_printf(buf, n, &len, " tempo=%d", w->tempo);
    return score;
}
