/* fetlar.h - Fetlar Hnefatafl 11x11 (RULES.md §2): the state the rules,
 * the evaluation and the engine share.
 *
 * Squares are r*11+c with r = rank-1 (0 = rank 1) and c = file (0 = a).
 * The board is kept twice: a mailbox for captures and per-rank / per-file
 * occupancy masks (11 bits) so that a piece's slides are two table lookups.
 */
#ifndef MEDAN_FETLAR_H
#define MEDAN_FETLAR_H

#include <stdbool.h>
#include <stdint.h>

#include "../../core/game.h"
#include "fetlar_api.h" /* the game and engine objects */

#define FETLAR_N 11
/* Slides of the side to move end on an empty square, which at most four
 * pieces (the nearest in each direction) reach: 4 x 121. */
#define FETLAR_MAX_MOVES (4 * FETLAR_N * FETLAR_N)
#define FETLAR_SQ 121
#define FETLAR_THRONE 60 /* f6 */
#define FETLAR_NOSQ 255

enum { FETLAR_EMPTY = 0, FETLAR_ATT = 1, FETLAR_DEF = 2, FETLAR_KING = 3 };
enum { FETLAR_BLACK = 0, FETLAR_WHITE = 1 }; /* attackers, defenders */
enum { FETLAR_PLAYING = 0, FETLAR_CAPTURED = 1, FETLAR_ESCAPED = 2 };
#define FETLAR_DRAW_PLIES 100

/* The lines of one side's pieces, 16 bits a line, four lines to a 64-bit
 * word (the move counter adds whole words, fetlar_count): lanes 0..10 are
 * the ranks (bit c = file c), 12..22 the files (bit r = rank r), 24..34 the
 * ranks mirrored (bit 10-c), 36..46 the files mirrored (bit 10-r); lanes
 * 11, 23, 35 and 47 stay 0. */
#define FETLAR_LANES 48
#define FETLAR_LANE_FILE 12
#define FETLAR_LANE_MRANK 24
#define FETLAR_LANE_MFILE 36

struct fetlar_state {
    uint64_t hash;                  /* board + side (not the counter) */
    /* [side]: the side's pieces (the king white's), bit sq of the 121 in
     * two words (sq < 64 in [0]): the evaluation's bitboards, kept by the
     * same flips as the lanes */
    uint64_t bb[2][2];
    /* [side][lane]: rows[side][r] for r < 11 is rank r (bit c = a piece of
     * that side on file c); the other lanes as above. */
    uint16_t rows[2][FETLAR_LANES];
    uint16_t cols[FETLAR_N];        /* [file]: bit r = any piece on rank r */
    uint8_t board[FETLAR_SQ];
    uint8_t king;                   /* square, FETLAR_NOSQ once captured */
    uint8_t side;                   /* FETLAR_BLACK (seat 1) or FETLAR_WHITE */
    uint8_t quiet;                  /* plies since the last capture */
    uint8_t over;                   /* FETLAR_PLAYING / CAPTURED / ESCAPED */
    uint8_t natt, ndef;             /* attackers, defenders (king excluded) */
};

#define FETLAR_MOVE(from, to) ((gmove)(from) | ((gmove)(to) << 8))
#define FETLAR_FROM(m) ((int)((m)&0xff))
#define FETLAR_TO(m) ((int)(((m) >> 8) & 0xff))

extern const char fetlar_start_pos[];

/* Tables shared with the evaluation. */
extern uint16_t fetlar_slide[FETLAR_N][1 << FETLAR_N]; /* reachable on a line */
extern const uint16_t fetlar_ban[FETLAR_N];            /* throne/corner stops */
extern int8_t fetlar_nb[FETLAR_SQ][4];                 /* neighbours, -1 off */

/* Bits set in x: one instruction where the target has it (NATIVE=1, or a
 * processor whose base set counts bits), else a few shifts and adds, not
 * libgcc's table-driven call. */
static inline int fetlar_popcount64(uint64_t x)
{
#if defined(__POPCNT__) || !(defined(__x86_64__) || defined(__i386__))
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555u);
    x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fu;
    return (int)((x * 0x0101010101010101u) >> 56);
#endif
}

/* The fast copies of the hot routines (game.c: move counting, perft's two
 * plies; eval.c: the evaluation), compiled for x86-64 processors with
 * POPCNT, BMI1 and BMI2 beside the portable ones and picked once by cpuid
 * (MEDAN_CPU=portable keeps the portable ones): are they in use?  want 0
 * or 1 switches them off or on (on only where the processor has them; for
 * the tests), -1 only asks. */
bool fetlar_fast_cpu(int want);

/* FETLAR_DISPATCH(storage, ret, name, (params), (args), body) defines
 * `storage ret name(params)` returning `body`, compiled twice: for the fast
 * processors (name_hw, where `hw_` is 1) and portably (name_port, `hw_` 0);
 * the bodies are FETLAR_INLINE and take hw_ as a constant, so each copy
 * inlines its own, and count bits with fetlar_pc64(x, hw_). */
#define FETLAR_INLINE static inline __attribute__((always_inline))
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define FETLAR_HW 1
#define FETLAR_DISPATCH(storage, ret, name, params, args, body)                                   \
    __attribute__((target("popcnt,bmi,bmi2"))) static ret name##_hw params                         \
    {                                                                                               \
        const int hw_ = 1;                                                                          \
        return body;                                                                                \
    }                                                                                               \
    static ret name##_port params                                                                   \
    {                                                                                               \
        const int hw_ = 0;                                                                          \
        return body;                                                                                \
    }                                                                                               \
    storage ret name params { return fetlar_fast_cpu(-1) ? name##_hw args : name##_port args; }
#else
#define FETLAR_HW 0
#define FETLAR_DISPATCH(storage, ret, name, params, args, body)                                   \
    storage ret name params                                                                         \
    {                                                                                               \
        const int hw_ = 0;                                                                          \
        return body;                                                                                \
    }
#endif
/* Is the one-instruction popcount there (a constant in each copy)? */
#ifdef __POPCNT__
#define FETLAR_POPCNT(hw) 1
#else
#define FETLAR_POPCNT(hw) (hw)
#endif
FETLAR_INLINE int fetlar_pc64(uint64_t x, const int hw)
{
    (void)hw; /* unused where the build has POPCNT (the hnef adapter's flags) */
    return FETLAR_POPCNT(hw) ? __builtin_popcountll(x) : fetlar_popcount64(x);
}

static inline int fetlar_is_corner(int sq)
{
    return sq == 0 || sq == 10 || sq == 110 || sq == 120;
}
static inline int fetlar_on_edge(int sq)
{
    int r = sq / FETLAR_N, c = sq % FETLAR_N;
    return r == 0 || c == 0 || r == FETLAR_N - 1 || c == FETLAR_N - 1;
}
/* The side a piece belongs to: FETLAR_BLACK for an attacker, else white. */
static inline int fetlar_side_of(int p)
{
    return p == FETLAR_ATT ? FETLAR_BLACK : FETLAR_WHITE;
}
/* Is `sq` hostile to a soldier of the side other than `side`?  A piece of
 * `side` (the king too: he is armed), a corner, or the empty throne. */
static inline int fetlar_hostile(const struct fetlar_state *s, int sq, int side)
{
    int p = s->board[sq];
    if (p)
        return fetlar_side_of(p) == side;
    return fetlar_is_corner(sq) || sq == FETLAR_THRONE;
}
static inline uint16_t fetlar_rowocc(const struct fetlar_state *s, int r)
{
    return (uint16_t)(s->rows[0][r] | s->rows[1][r]);
}

/* Rules entry points with concrete types (also behind fetlar_game). */
int fetlar_gen(const struct fetlar_state *s, gmove *out, int max);
int fetlar_count(const struct fetlar_state *s);
/* fetlar_count(s) > 0, answered at the first movable piece. */
int fetlar_has_move(const struct fetlar_state *s);
/* Play a legal move; returns the number of pieces captured (king incl.). */
int fetlar_play(struct fetlar_state *s, gmove m);
/* Would this move capture something (soldier or king)? */
int fetlar_captures(const struct fetlar_state *s, gmove m);
/* Squares the king reaches in one move (a mask per line is not enough for
 * corners, so: bit i of the result = corner i reachable; corners in the
 * order a1 k1 a11 k11). */
int fetlar_king_corner_routes(const struct fetlar_state *s);
/* Leaves two plies below s: fetlar_count summed over the children. */
uint64_t fetlar_perft2(const struct fetlar_state *s);
/* Pass the turn (null move for the search). */
void fetlar_pass(struct fetlar_state *s);

#endif
