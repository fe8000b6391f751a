/* loa.h - Lines of Action rules on bitboards (RULES.md §1).
 * Square index sq = rank * 8 + file, a1 = 0, h8 = 63.  The 6x6 variant
 * (config size=6) uses the same squares, files a-f and ranks 1-6 of the
 * 8x8 board: the squares off its board are always empty, so the line
 * counts need no change, and move generation only refuses destinations
 * off the board (loa_off_board). */
#ifndef MEDAN_LOA_H
#define MEDAN_LOA_H

#include <stdbool.h>
#include <stdint.h>

#include "../../core/game.h"
#include "loa_api.h" /* the game and engine objects */

enum { LOA_BLACK = 0, LOA_WHITE = 1 };

struct loa_state {
    uint64_t bb[2];  /* pieces of black (seat 1) and white (seat 2) */
    uint64_t hash;   /* Zobrist, kept incrementally */
    uint8_t side;    /* LOA_BLACK or LOA_WHITE to move */
    uint8_t size;    /* 8, or 6 for the 6x6 variant (any other value reads as 8) */
    uint8_t pad[6];
};

/* The config (newgame size=6|8). */
struct loa_config {
    int size;
};

/* The 6x6 board: files a-f of ranks 1-6. */
#define LOA_BOARD6 0x00003f3f3f3f3f3fULL
/* The squares a state's pieces may never stand on: none on 8x8. */
static inline uint64_t loa_off_board(const struct loa_state *s)
{
    return s->size == 6 ? ~LOA_BOARD6 : 0;
}
/* The last file and rank index: 7, or 5 on 6x6. */
static inline int loa_last(const struct loa_state *s) { return s->size == 6 ? 5 : 7; }

/* move = from | to << 6 | capture << 12 */
#define LOA_FROM(m) ((int)((m)&63))
#define LOA_TO(m) ((int)(((m) >> 6) & 63))
#define LOA_CAP(m) ((int)(((m) >> 12) & 1))
#define LOA_MOVE(f, t, c) ((gmove)((f) | ((t) << 6) | ((c) << 12)))
#define LOA_MAX_MOVES 96 /* 12 pieces x one move per direction (8); 6x6: 8 pieces */

extern const char *const LOA_START;
extern const char *const LOA_START6; /* the 6x6 start */

/* For the engine: fast primitives. */
int loa_gen(const struct loa_state *s, gmove *out);         /* all moves */
int loa_gen_captures(const struct loa_state *s, gmove *out);
int loa_count(const struct loa_state *s, int side);          /* move count */
struct loa_mob {
    int moves;    /* legal moves */
    int edge;     /* of which to an edge square */
    int captures; /* of which captures */
    int blocked;  /* pieces without a legal move */
};
void loa_mobility(const struct loa_state *s, int side, struct loa_mob *mob);
/* Both sides' at once (mob[LOA_BLACK], mob[LOA_WHITE]). */
void loa_mobility2(const struct loa_state *s, struct loa_mob mob[2]);
void loa_play(struct loa_state *s, gmove m);
int loa_connected(uint64_t bb);                              /* one group? */
int loa_groups(uint64_t bb);                                 /* group count */
/* Game over without history: 1 = side to move has won, -1 = lost, 0 = no. */
int loa_decided(const struct loa_state *s);
/* The fast copies of the hot routines (game.c, eval.c; x86-64 with POPCNT,
 * BMI1, BMI2): are they in use?  want 0 or 1 switches them off or on (on
 * only where the processor has them; for the tests), -1 only asks. */
bool loa_fast_cpu(int want);

/* The two copies: LOA_DISPATCH(storage, ret, name, (params), (args), body)
 * defines `storage ret name(params)`, which returns `body` compiled either
 * for the fast processors (name_hw) or portably (name_port), as
 * loa_fast_cpu says; bodies are LOA_INLINE so that each copy inlines its
 * own.  Elsewhere than x86-64 there is one portable copy. */
#define LOA_INLINE static inline __attribute__((always_inline))
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define LOA_HW 1
#define LOA_DISPATCH(storage, ret, name, params, args, body)                                      \
    __attribute__((target("popcnt,bmi,bmi2"))) static ret name##_hw params { return body; }        \
    static ret name##_port params { return body; }                                                \
    storage ret name params { return loa_fast_cpu(-1) ? name##_hw args : name##_port args; }
#else
#define LOA_HW 0
#define LOA_DISPATCH(storage, ret, name, params, args, body)                                      \
    storage ret name params { return body; }
#endif
uint64_t loa_zobrist_side(void);

#endif
