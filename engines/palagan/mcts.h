/* mcts.h - Palagan's Monte Carlo tree search, maneuver by maneuver.
 *
 * Every tree level is one maneuver; a node after a turn's first maneuver
 * also has an explicit "end the turn" edge.  UCT plus RAVE statistics keyed
 * on maneuvers (pal_man_key), priors from captures, playouts by the policy
 * of rules_core.h, and proven win/draw/loss backup (MCTS-solver) near the
 * end of the game.  Options: GRAVE (par.grave_ref > 0: a node with fewer
 * visits reads the AMAF statistics of its closest same-side ancestor that
 * has them), and tree reuse between turns (par.reuse: the next search
 * starts from the old tree's node for its position).
 */
#ifndef PALAGAN_MCTS_H
#define PALAGAN_MCTS_H

#include <stddef.h>
#include <stdint.h>

#include "../../core/util.h"
#include "../../search/request.h"
#include "palagan.h"

struct mc_edge {
    pal_man man;    /* 0: pass (turn start) or end the turn (after one) */
    uint32_t child; /* node index, 0 = none yet */
    uint32_t n, an; /* visits, AMAF visits */
    float w, aw;    /* wins of the mover at the parent (draw = 1/2) */
    uint16_t key;   /* pal_man_key, PAL_KEY_END for man 0 */
    uint16_t pn;    /* prior visits included in n */
};

struct mc_node {
    uint32_t edges; /* first edge */
    uint32_t n;     /* visits */
    uint16_t nedges;
    uint8_t side;     /* to act */
    uint8_t expanded; /* edges generated */
    int8_t proven;    /* 0 unknown, else final capture difference (black - white) + 64 */
    uint8_t pad[3];
};

/* ---- tunables, named (the defaults of struct mc_params, then the rest) -- */
#define MC_UCT_C 0.20         /* exploration constant of UCT */
#define MC_RAVE_BIAS 0.002    /* b^2 of Gelly & Silver's RAVE beta */
#define MC_EXPAND_AT 2        /* visits before a leaf gets its edges */
#define MC_PRIOR_N 12         /* weight of the heuristic prior, in visits */
#define MC_MARGIN 0.1         /* share of a result given by the capture margin */
#define MC_MARGIN_SCALE 6.0   /* captures for tanh of the margin to reach 0.76 */
#define MC_FPU 0.6            /* value of an unvisited edge (first-play urgency) */
/* The prior of a maneuver's result for its mover (pal_shape's counts): 0.5,
 * plus per capture; when the turn ends, minus per own piece in a cluster of
 * one or two liberties and plus per such enemy piece; with a maneuver left,
 * plus per enemy piece in a one-liberty cluster and minus per own one; plus
 * per liberty of difference; kept in [min, max]. */
#define MC_PRIOR_CAPTURE 0.1
#define MC_PRIOR_OWN_WEAK 0.05
#define MC_PRIOR_THEIR_WEAK 0.01
#define MC_PRIOR_TAKE_NEXT 0.05
#define MC_PRIOR_OWN_ATARI 0.02
#define MC_PRIOR_LIBERTY 0.002
#define MC_PRIOR_MIN 0.05
#define MC_PRIOR_MAX 0.95

struct mc_params {
    double uct_c;     /* exploration */
    double rave_bias; /* b^2 of Gelly & Silver's beta */
    int expand_at;    /* visits before a leaf gets its edges */
    int prior_n;      /* weight of the heuristic prior, in visits */
    double margin;    /* share of a result given by the capture margin */
    int grave_ref;    /* GRAVE: AMAF of the closest ancestor (same side to
                       * act) with >= this many visits; 0 = plain RAVE */
    bool reuse;       /* keep the subtree of the new position between turns */
};

struct mcts {
    struct mc_node *nodes;
    struct mc_edge *edges;
    uint32_t nodes_cap, edges_cap, nnodes, nedges;
    struct mc_params par;
    struct pal_policy pol;
    struct rng rng;
    struct pal_trace trace;
    uint32_t stamp;
    uint32_t seen[2][PAL_KEYS]; /* stamp of the simulation that played key */
    int32_t last[2][PAL_KEYS];  /* its last trace index there */
    uint64_t sims;
    int maxdepth;
    uint32_t root;            /* root node (1 after a fresh start) */
    struct pal_state root_st; /* its position, for tree reuse */
    bool have_tree;           /* a tree from the last search is there */
    uint64_t reused;          /* visits the root had from earlier searches */
    /* GRAVE: the AMAF of a reference node's edges by key, per side */
    uint32_t gref[2], gstamp[2];
    uint32_t gseen[2][PAL_KEYS];
    uint32_t gn[2][PAL_KEYS];
    float gw[2][PAL_KEYS];
};

void mc_init(struct mcts *t, size_t mb, uint64_t seed);
void mc_free(struct mcts *t);
/* New tree memory of mb MiB; -1 (old tree kept) if it cannot be had. */
int mc_resize(struct mcts *t, size_t mb);
void mc_seed(struct mcts *t, uint64_t seed);
/* Forget the tree (newgame): the next search starts afresh. */
void mc_clear(struct mcts *t);

/* Full search for `go`. */
gmove mc_go(struct mcts *t, const struct search_req *req);
/* Fixed number of simulations from st, no output; returns the turn. */
gmove mc_search_sims(struct mcts *t, const struct pal_state *st, uint64_t sims);

#endif
