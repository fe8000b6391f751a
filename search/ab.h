/* ab.h - generic iterative-deepening PVS alpha-beta for two-player games of
 * perfect information (LOA, Fetlar).  The game comes through struct game
 * (copy-make with memcpy); the engine adds its evaluation and move-ordering
 * knowledge through struct ab_ops.
 *
 * Scores are from the side to move's point of view.  AB_WIN - n means
 * "the side to move wins in n plies"; printed as `score win n`.
 */
#ifndef MEDAN_AB_H
#define MEDAN_AB_H

#include <stdint.h>

#include "../protocol/engine.h"
#include "tt.h"

#define AB_WIN 30000
#define AB_WIN_BOUND (AB_WIN - 1000) /* |score| >= this: proven result */
#define AB_MAX_PLY 128
#define AB_KEYS 16384    /* move_key range for history tables */

struct ab_ops {
    /* Static evaluation from the side to move's view, |score| < AB_WIN_BOUND. */
    int (*eval)(void *eng, const void *st);
    /* A capture or other forcing move, tried early (may be NULL). */
    int (*is_tactical)(const void *st, gmove m);
    /* Small index of a move for history/killer tables: < AB_KEYS. */
    unsigned (*move_key)(gmove m);
    /* Quiescence moves: captures worth resolving (NULL: no quiescence). */
    int (*gen_tactical)(const void *st, gmove *out, int max);
    /* Pass the move (for null-move pruning); NULL: no null move. */
    void (*null_move)(void *st);
    /* Is the game over in st (by rules needing no history)?  Return 1 and
     * set *outcome to +1 (side to move has won), -1 (lost) or 0 (draw);
     * else return 0.  NULL: game->result without history. */
    int (*terminal)(const void *st, int *outcome);
};

/* Search tunables, Ethereal style, named. */
struct ab_params {
    int null_min_depth;  /* 3 */
    int null_reduction;  /* 2 + depth/4 */
    int lmr_min_depth;   /* 3 */
    int lmr_min_moves;   /* 4 */
    int futility_margin; /* per depth */
    int aspiration;      /* first window half-width; 0 = none */
    int contempt;        /* a draw counts this much below even for the root side */
};

struct ab {
    const struct game *game;
    const struct ab_ops *ops;
    void *eng;
    struct ab_params par;
    struct tt tt;
    int16_t history[2][AB_KEYS];
    uint32_t killers[AB_MAX_PLY][2];
    /* per search */
    uint64_t nodes;
    int seldepth;
    uint64_t *path;   /* game history + search path hashes */
    int npath, path_cap;
    unsigned char *stack; /* one state per ply */
    gmove *moves;         /* game->max_moves per ply, and the root's */
    int *scores;          /* their ordering scores */
    const struct search_req *req;
    void *tm;         /* struct timeman *, NULL in bench */
    uint64_t node_limit;
    int stopped;
    int root_seat;      /* seat to move at the root of the last search */
    gmove excluded[64]; /* root moves already shown (multipv) */
    int nexcluded;
    gmove pv[AB_MAX_PLY + 1][AB_MAX_PLY + 1];
    int pvlen[AB_MAX_PLY + 1];
};

void ab_init(struct ab *ab, const struct game *g, const struct ab_ops *ops,
             void *eng, size_t hash_mb);
void ab_free(struct ab *ab);
/* A new table of hash_mb MiB; -1 (the old one kept) if it cannot be had. */
int ab_resize(struct ab *ab, size_t hash_mb);
void ab_clear(struct ab *ab); /* newgame */
/* Full search for `go`: info lines, time management, returns best move. */
gmove ab_go(struct ab *ab, const struct search_req *req, gmove *ponder);
/* Fixed-depth search without output (bench): returns nodes searched. */
uint64_t ab_bench_position(struct ab *ab, const void *st, int depth);

#endif
