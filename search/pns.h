/* pns.h - a game-agnostic proof-number solver: depth-first proof-number
 * search (df-pn, Nagai 2002) with the 1+epsilon trick (Pawlewicz & Lew
 * 2007) and its own bounded transposition table, for any two-seat game of
 * perfect information with a result (struct game).
 *
 * A solve asks two questions of the position, in turns with growing node
 * budgets: "does the side to move force a win?" and "does the opponent
 * force a win?".  A proof of either is sound whatever the repetition rules
 * (see pns.c, "Repetition"); a disproof of both is not reported as a draw.
 *
 * The distance: the proof's longest line in plies (the winner's quickest
 * finish the proof holds against the loser's longest resistance in it), an
 * upper bound on the game-theoretic distance; a bounded exact search then
 * tries every shorter distance and, when it runs to the end, marks the
 * distance exact.
 */
#ifndef MEDAN_PNS_H
#define MEDAN_PNS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/game.h"
#include "request.h"

#define PNS_MAX_PLY 160 /* a line deeper than this is cut (not a win for either side) */
#define PNS_EPSILON 0.25 /* the 1+epsilon trick's epsilon (pns.c, "Measured") */

struct pns_ops {
    /* Is the game over in st by the rules needing no history?  1 with
     * *outcome +1 (side to move won), -1 (lost), 0 (draw).  NULL:
     * game->result without history. */
    int (*terminal)(const void *st, int *outcome);
    /* The table's key of a position: everything that decides its result
     * apart from the game's history (Fetlar: the quiet-ply count the
     * game's hash leaves out).  NULL: game->hash. */
    uint64_t (*key)(const void *st);
};

enum { PNS_UNKNOWN = 0, PNS_WIN = 1, PNS_LOSS = 2 };

struct pns_result {
    int status;      /* PNS_WIN / PNS_LOSS for the side to move, or PNS_UNKNOWN */
    int plies;       /* proven: plies to the game's end */
    int exact;       /* plies is the exact distance (else an upper bound) */
    gmove move;      /* the proving move (a loss: the longest resistance); the
                        most promising one when unknown; GAME_MOVE_NONE when
                        there is no legal move */
    uint64_t nodes;  /* positions made (moves played) */
    int64_t us;      /* time taken */
    int finished;    /* 1: the game was already over at the root */
};

struct pns_entry;

struct pns {
    const struct game *game;
    struct pns_ops ops;
    double eps;
    struct pns_entry *tt;
    size_t mask; /* buckets - 1 */
    uint8_t gen;
    /* per solve */
    int attacker;        /* the seat whose win is being proven */
    uint64_t nodes, node_limit;
    int64_t deadline_us; /* 0: none */
    const atomic_bool *stop;
    int stopped;
    int exact_budget_out;
    unsigned char *stack; /* one state per ply */
    gmove *moves;         /* max_moves per ply */
    uint64_t *ckeys;      /* the children's keys, per ply */
    unsigned char *cfix;  /* the children's fixed values, per ply */
    uint16_t *cmob;       /* the children's numbers of moves (and who moves), per ply */
    uint64_t *ghash;      /* the path's game hashes (repetition) */
    uint64_t *pathh;      /* the path's hash so far (path-dependent entries) */
    uint64_t *hist;       /* the game's history (game hashes), sorted */
    int nhist;
    uint8_t pathcount[4096]; /* ancestors by game hash & 4095: a quick "not on the path" */
};

/* A solver with a table of mb MiB (0 counts as 1).  0, or -1 (nothing
 * allocated) when the memory cannot be had. */
int pns_init(struct pns *p, const struct game *g, const struct pns_ops *ops, size_t mb);
void pns_free(struct pns *p);
/* Solve pos (hist: the game hashes of the earlier positions, oldest first;
 * a position met there or on the line is no win for either side).  Ends
 * when proven, after node_limit positions (0: no limit), at deadline_us
 * (now_us clock, 0: none), or when *stop (may be NULL) becomes true; the
 * stop flag is read at every expansion.  Pass report (may be NULL) to be
 * called with the nodes so far about every 100000 positions. */
void pns_solve(struct pns *p, const void *pos, const uint64_t *hist, int nhist,
               uint64_t node_limit, int64_t deadline_us, const atomic_bool *stop,
               struct pns_result *out);
/* For alpha-beta at the root: which moves of pos are proven losses for the
 * side to move, by a solve of at most node_limit positions.  lost[i] is
 * set for mv[i] (n moves, pos's legal moves).  Returns the solve's status
 * (a PNS_WIN fills *win_move, *win_plies). */
int pns_root_check(struct pns *p, const void *pos, const uint64_t *hist, int nhist,
                   uint64_t node_limit, int64_t deadline_us, const atomic_bool *stop,
                   const gmove *mv, int n,
                   unsigned char *lost, struct pns_result *out);

/* `go solve` (req->lim.solve): solve req's position within its nodes and
 * movetime limits (none: until proven or stopped), report `score win N` /
 * `score loss N` (with `info string` when N is an upper bound) or `info
 * string unsolved after N nodes`, and return the move (GAME_MOVE_NONE when
 * there is none). */
gmove pns_go(struct pns *p, const struct search_req *req);
/* The info line's score of a result: "win 7", "loss 4" ("" unknown). */
void pns_format_score(const struct pns_result *r, char *buf, size_t n);

#endif
