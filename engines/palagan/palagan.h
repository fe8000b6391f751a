/* palagan.h - Palagan rules internals shared by the rules glue (game.c) and
 * the engine (mcts.c, engine.c).  See docs/games/palagan.md.
 *
 * Board: hex-hex of side N (4..9), cells numbered 0..ncells-1 rank by rank
 * (rank 1 first, files a.. within a rank): 61 cells for N = 5, 217 for N = 9.
 * A set of cells is a bitboard of 1 (N <= 5), 2 (N <= 7) or 4 words.
 *
 * A maneuver is 18 bits: kind (2 bits) << 16 | from (8) << 8 | to (8).
 * A turn (gmove) is m1 | m2 << 16; 0 is `pass`, m2 == 0 a one-maneuver turn.
 */
#ifndef PALAGAN_H
#define PALAGAN_H

#include <stdbool.h>
#include <stdint.h>

#include "../../core/game.h"
#include "palagan_api.h" /* the game and engine objects */

/* A set of cells: 4 words (217 cells for N = 9).  The hot code works on
 * only the words a size needs (rules_core.h, instantiated for 1, 2, 4). */
#define PAL_WORDS 4
typedef uint64_t pal_bb[PAL_WORDS];

#define PAL_MIN_N 4
#define PAL_MAX_N 9
#define PAL_MAX_D (2 * PAL_MAX_N - 1)
#define PAL_MAX_CELLS 217
#define PAL_PIECES 20
#define PAL_QUIET_END 20 /* plies without capture or summon that end the game */
#define PAL_NDIR 6

/* Maneuver kinds. */
enum { PAL_NONE = 0, PAL_SUMMON = 1, PAL_STEP = 2 };

typedef uint32_t pal_man;

#define PAL_MAN(kind, from, to) \
    ((pal_man)(((unsigned)(kind) << 16) | ((unsigned)(from) << 8) | (unsigned)(to)))
#define PAL_KIND(m) ((unsigned)(m) >> 16)
#define PAL_FROM(m) (((unsigned)(m) >> 8) & 255u)
#define PAL_TO(m) ((unsigned)(m) & 255u)
#define PAL_TURN(m1, m2) ((gmove)(m1) | ((gmove)(m2) << 32))
#define PAL_M1(t) ((pal_man)((t) & 0xffffffffu))
#define PAL_M2(t) ((pal_man)(((t) >> 32) & 0xffffffffu))
#define PAL_PASS ((gmove)0)

/* Largest number of maneuvers at one point: 217 summons + 20 pieces x 6. */
#define PAL_MAX_MAN 344
/* Turns: the pass, one maneuver, or two. */
#define PAL_MAX_TURNS (1 + PAL_MAX_MAN + PAL_MAX_MAN * PAL_MAX_MAN)

struct pal_geom {
    int n, d, ncells;
    int16_t idx[PAL_MAX_D][PAL_MAX_D]; /* [x][y] -> cell or -1 */
    uint8_t cx[PAL_MAX_CELLS], cy[PAL_MAX_CELLS];
    int16_t step[PAL_MAX_CELLS][PAL_NDIR]; /* neighbour in direction k, -1 */
    uint8_t degree[PAL_MAX_CELLS];
    pal_bb nbr[PAL_MAX_CELLS];
    uint64_t nbr1[64]; /* nbr's first word, packed (the one-word code: N <= 5) */
    pal_bb all;
    /* Bit m of run[c]: the neighbours of c picked by m (bit i: the i-th
     * lowest-numbered neighbour) are one unbroken run around c, or none or
     * all of them (then taking c out of a cluster leaves it in one piece). */
    uint64_t run[PAL_MAX_CELLS];
};

/* Directions: (+1,0) (-1,0) (0,+1) (0,-1) (+1,+1) (-1,-1); k^1 is opposite. */
extern const int pal_dx[PAL_NDIR], pal_dy[PAL_NDIR];

struct pal_config {
    int size;
};

/* The whole position (fixed size, memcpy-able).  Mid-turn fields (nman,
 * last_*, active) are zero at turn boundaries, which is all the game
 * interface ever sees. */
struct pal_state {
    pal_bb occ[2];     /* [0] black (player 1), [1] white */
    pal_bb check;      /* cells whose mover clusters the turn-end must check */
    uint8_t n;         /* board side */
    uint8_t stm;       /* 0 black, 1 white */
    uint8_t first;     /* 1: the game's first turn (one maneuver at most) */
    uint8_t quiet;     /* plies in a row without capture or summon */
    uint8_t passes;    /* consecutive passes (2 ends the game) */
    uint8_t reserve[2];
    uint8_t captures[2]; /* pieces captured BY each side */
    /* mid-turn */
    uint8_t nman;      /* maneuvers made this turn so far */
    uint8_t active;    /* a summon or capture happened this turn */
    uint8_t last_from, last_to; /* the first maneuver's step, for rule 7 */
    uint8_t pad[3];
};

const struct pal_geom *pal_geom(int n);

/* Word access for the slow paths (text, hash). */
static inline bool pal_has(const pal_bb b, int i) { return (b[i >> 6] >> (i & 63)) & 1; }
static inline void pal_set(pal_bb b, int i) { b[i >> 6] |= (uint64_t)1 << (i & 63); }
static inline void pal_clr(pal_bb b, int i) { b[i >> 6] &= ~((uint64_t)1 << (i & 63)); }
/* 0 black, 1 white, -1 empty. */
static inline int pal_at(const struct pal_state *s, int c)
{
    return pal_has(s->occ[0], c) ? 0 : pal_has(s->occ[1], c) ? 1 : -1;
}
static inline int pal_count(const pal_bb b)
{
    int n = 0;
    for (int i = 0; i < PAL_WORDS; i++)
        n += __builtin_popcountll(b[i]);
    return n;
}

/* Boards of N <= 5 run on rules_w1h.c (built for POPCNT and BMI2) when the
 * processor has them, else on rules_w1.c: the same results.  want 0 or 1
 * picks the portable code or the fast one (if the processor has it), -1
 * only asks; returns whether the fast code is in use.  For tests and
 * measurements, not to be called while other threads play. */
bool pal_fast_cpu(int want);

/* Start position of side n. */
void pal_start(struct pal_state *s, int n);
/* Is the game over by the rules (passes or quiet counter)? */
bool pal_over(const struct pal_state *s);
static inline bool pal_over_inline(const struct pal_state *s)
{
    return s->passes >= 2 || s->quiet >= PAL_QUIET_END;
}

/* Maneuvers legal as such right now (summon/move/push; rule 7 applied on
 * the second maneuver).  Does not check the end-of-turn liberty rule.
 * Returns the count (<= PAL_MAX_MAN).  None once a turn has its maneuvers. */
int pal_gen_man(const struct pal_geom *g, const struct pal_state *s,
                pal_man *out);
/* Is m a legal maneuver now (as pal_gen_man would list it)? */
bool pal_man_ok(const struct pal_geom *g, const struct pal_state *s, pal_man m);
/* Play a legal maneuver for the side to move; captures enemy clusters left
 * without liberties.  Returns the number of pieces captured. */
int pal_apply(const struct pal_geom *g, struct pal_state *s, pal_man m);
/* May the turn end now: does every cluster of the mover that touches the
 * cells this turn changed have a liberty?  (All others do by invariant.) */
bool pal_can_end(const struct pal_geom *g, const struct pal_state *s);
/* End the turn (after 0, 1 or 2 maneuvers): counters, side to move. */
void pal_end_turn(struct pal_state *s);
static inline void pal_end_turn_inline(struct pal_state *s)
{
    s->passes = (uint8_t)(s->nman == 0 ? s->passes + 1 : 0);
    s->quiet = (uint8_t)(s->active ? 0 : s->quiet + 1);
    s->first = 0;
    s->stm ^= 1;
    s->nman = 0;
    s->active = 0;
    s->last_from = s->last_to = 0;
    for (int i = 0; i < PAL_WORDS; i++)
        s->check[i] = 0;
}
/* Play a whole legal turn. */
void pal_play_turn(const struct pal_geom *g, struct pal_state *s, gmove t);

/* Liberties of the cluster holding cell c (colour of the piece at c);
 * its size in *size if size is not NULL. */
int pal_cluster_libs(const struct pal_geom *g, const struct pal_state *s,
                     int c, int *size);
/* Does every cluster of both sides have a liberty? */
bool pal_all_alive(const struct pal_geom *g, const struct pal_state *s);

/* ---- for the engine ------------------------------------------------------ */
struct rng;

/* Small index of a maneuver for RAVE tables: summon c -> c, step from f in
 * direction k -> PAL_MAX_CELLS + 6 f + k; PAL_KEY_END ends a turn. */
#define PAL_KEY_END (PAL_MAX_CELLS * 7)
#define PAL_KEYS (PAL_KEY_END + 1)
unsigned pal_man_key(const struct pal_geom *g, pal_man m);
/* The maneuver of a key (its inverse; 0 for PAL_KEY_END). */
pal_man pal_key_man(const struct pal_geom *g, unsigned key);

#define PAL_TRACE_MAX 2048
struct pal_trace {
    int n;
    uint8_t side[PAL_TRACE_MAX];
    uint16_t key[PAL_TRACE_MAX];
};

/* Playout policy knobs (probabilities in 1/1024). */
struct pal_policy {
    int capture, save, attack, end_early;
    int maxply; /* turns before the playout stops and counts captures */
};
extern const struct pal_policy pal_default_policy;

/* One maneuver by the playout policy for the side to move (s may be at
 * the start of a turn or after its first maneuver); applied to s.  Returns
 * the maneuver, or 0 when the policy ends the turn here.  Never leaves the
 * turn unable to end unless it was so before and nothing mends it. */
pal_man pal_policy_man(const struct pal_geom *g, struct pal_state *s,
                       struct rng *r, const struct pal_policy *p);
/* Play the game out from s (start of a turn, or mid-turn) with the policy;
 * records the maneuvers in tr (may be NULL).  Returns black's captures
 * minus white's. */
int pal_playout(const struct pal_geom *g, struct pal_state *s, struct rng *r,
                const struct pal_policy *p, struct pal_trace *tr);
/* Test support: `turns` policy turns from s, the playouts' incremental
 * cluster lists checked against a full recount after every maneuver.
 * Returns the maneuvers checked, -1 at a disagreement. */
long pal_po_check(const struct pal_geom *g, struct pal_state *s, struct rng *r, int turns);
/* Per side: pieces in clusters with one liberty [0], with two [1], and
 * the liberty total [2] (clusters with no liberty count in neither). */
void pal_shape(const struct pal_geom *g, const struct pal_state *s, int out[2][3]);
/* Liberty totals of both sides' clusters (sum over clusters). */
void pal_liberties(const struct pal_geom *g, const struct pal_state *s, int libs[2]);

/* Every legal turn (pass first).  Returns count, -1 if over max; out may
 * be NULL to count only. */
int pal_gen_turns(const struct pal_state *s, gmove *out, int max);

/* The number of legal turns, as pal_gen_turns counts them, faster. */
int pal_count_turns(const struct pal_state *s);

/* Text. */
void pal_cell_name(const struct pal_geom *g, int c, char *buf);
void pal_format_man(const struct pal_geom *g, pal_man m, char *buf);
void pal_format_turn(const struct pal_geom *g, gmove t, char *buf, size_t n);

#endif
