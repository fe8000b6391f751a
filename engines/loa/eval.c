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

/* ---- the terms on bitboards (square sq = rank * 8 + file) ---------------- */
#define FILE_A 0x0101010101010101ULL
#define FILE_H 0x8080808080808080ULL
#define RANK_1 0x00000000000000ffULL
#define RANK_8 0xff00000000000000ULL
/* The files (ranks) whose index has bit k set: a sum of file indices is
 * three popcounts. */
static const uint64_t XBIT[3] = {0xaaaaaaaaaaaaaaaaULL, 0xccccccccccccccccULL,
                                 0xf0f0f0f0f0f0f0f0ULL};
static const uint64_t YBIT[3] = {0xff00ff00ff00ff00ULL, 0xffff0000ffff0000ULL,
                                 0xffffffff00000000ULL};
/* Centralisation (ring 0 at the edge): the squares of ring >= k, k = 1..3 on
 * 8x8 (b2-g7, c3-f6, d4-e5) and k = 1..2 on 6x6 (b2-e5, c3-d4). */
static const uint64_t RING8[3] = {0x007e7e7e7e7e7e00ULL, 0x00003c3c3c3c0000ULL,
                                  0x0000001818000000ULL};
static const uint64_t RING6[3] = {0x0000001e1e1e1e00ULL, 0x000000000c0c0000ULL, 0};
/* BALL_COLS[c][r]: the files c-r..c+r (on the board); BALL_ROWS the ranks.
 * Their intersection is the square of Chebyshev radius r around (c, y). */
static uint64_t BALL_COLS[8][8], BALL_ROWS[8][8];

__attribute__((constructor)) static void eval_tables(void)
{
    for (int c = 0; c < 8; c++)
        for (int r = 0; r < 8; r++) {
            int lo = c - r < 0 ? 0 : c - r, hi = c + r > 7 ? 7 : c + r;
            uint64_t byte = (2ULL << hi) - (1ULL << lo);
            BALL_COLS[c][r] = byte * FILE_A;
            for (int y = lo; y <= hi; y++)
                BALL_ROWS[c][r] |= RANK_1 << (8 * y);
        }
}

static inline int pc(uint64_t b) { return __builtin_popcountll(b); }

/* sum over the pieces of the Chebyshev distance from (cx, cy): the pieces
 * outside the ball of radius r, for r = 0, 1, ... */
LOA_INLINE int chebyshev_sum(uint64_t bb, int cx, int cy)
{
    int sum = 0;
    for (int r = 0; r < 8; r++) {
        uint64_t out = bb & ~(BALL_COLS[cx][r] & BALL_ROWS[cy][r]);
        if (!out)
            break;
        sum += pc(out);
    }
    return sum;
}

struct side_terms {
    int n, spread, centre, com_dist, groups, euler, mobility, edge_moves, blocked;
};

/* The Euler number of the pieces (8-connected) by bit quads: over the 2x2
 * windows of the board padded by one square a side, (Q1 - Q3 - 2 QD) / 4
 * (Q1 windows with one piece, Q3 with three, QD with two on a diagonal).
 * The 49 windows inside the board at once, a window named by its lower
 * left square; the edge windows hold two squares (one at a corner): those
 * with one piece are the changes along the edge rank or file. */
LOA_INLINE int euler_number(uint64_t bb)
{
    const uint64_t in = ~FILE_H & ~RANK_8; /* lower left squares of inner windows */
    const uint64_t a = bb, b = bb >> 1, c = bb >> 8, d = bb >> 9;
    const uint64_t par = a ^ b ^ c ^ d, pair = (a & b) | (c & d);
    int q1 = pc(par & ~pair & in), q3 = pc(par & pair & in);
    int qd = pc(((a & d & ~b & ~c) | (b & c & ~a & ~d)) & in);
    /* the bottom and top ranks (9 windows each, corners included) */
    const uint64_t r1 = bb & RANK_1, r8 = bb >> 56;
    q1 += pc(r1 ^ (r1 << 1)) + pc(r8 ^ (r8 << 1));
    /* the a- and h-files (7 windows each: the corners were counted) */
    const uint64_t fa = bb & FILE_A, fh = (bb & FILE_H) >> 7;
    q1 += pc((fa ^ (fa >> 8)) & FILE_A & ~RANK_8) + pc((fh ^ (fh >> 8)) & FILE_A & ~RANK_8);
    return (q1 - q3 - 2 * qd) / 4;
}

LOA_INLINE int terms(const struct loa_state *s, int side, const struct loa_mob *mob,
                     struct side_terms *t)
{
    uint64_t bb = s->bb[side];
    int last = loa_last(s);
    const uint64_t *ring = last == 5 ? RING6 : RING8;
    t->n = pc(bb);
    int sx = pc(bb & XBIT[0]) + 2 * pc(bb & XBIT[1]) + 4 * pc(bb & XBIT[2]);
    int sy = pc(bb & YBIT[0]) + 2 * pc(bb & YBIT[1]) + 4 * pc(bb & YBIT[2]);
    t->centre = pc(bb & ring[0]) + pc(bb & ring[1]) + pc(bb & ring[2]);
    int cx = (sx + t->n / 2) / t->n, cy = (sy + t->n / 2) / t->n;
    t->spread = chebyshev_sum(bb, cx, cy) - min_spread(t->n);
    /* twice the distance of the centre of mass from the board centre (3.5, 3.5;
     * 2.5, 2.5 on 6x6) */
    t->com_dist = abs(2 * sx - last * t->n) + abs(2 * sy - last * t->n);
    t->com_dist = t->com_dist / t->n;
    t->groups = loa_groups(bb);
    t->euler = euler_number(bb);
    t->mobility = mob->moves;
    t->edge_moves = mob->edge;
    t->blocked = mob->blocked;
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
    struct loa_mob mob[2];
    loa_mobility2(s, mob);
    terms(s, s->side, &mob[s->side], &us);
    terms(s, s->side ^ 1, &mob[s->side ^ 1], &them);
    return combine(&us, w) - combine(&them, w) + w->tempo;
}

/* the evaluation's fast copy (POPCNT, BMI) where the processor has it */
LOA_DISPATCH(, int, loa_eval, (const struct loa_state *s, const struct loa_weights *w), (s, w),
             eval_body(s, w))

int loa_eval_terms(const struct loa_state *s, const struct loa_weights *w, char *buf, size_t n)
{
    struct side_terms t[2];
    struct loa_mob mob[2];
    size_t len = 0;
    int score;
    loa_mobility2(s, mob);
    terms(s, s->side, &mob[s->side], &t[0]);
    terms(s, s->side ^ 1, &mob[s->side ^ 1], &t[1]);
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
