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
 *
 * Threads (mc_set_threads): tree parallelism on this one shared tree.  Each
 * thread has its own worker (random stream, playout board, AMAF and GRAVE
 * scratch); the tree's counters and statistics are C11 atomics (relaxed:
 * a statistic read a little stale only steers the selection), nodes and
 * edges come from the shared pools by compare-and-swap (bounded by Hash),
 * one thread expands a node (a claim on `expanded`; another one reaching it
 * meanwhile plays out from there), and with more than one thread a
 * simulation puts a virtual loss (MC_VLOSS visits without a win) on every
 * edge it descends, taken back when it backs up, so that the threads spread
 * over the tree.  With one thread every update is a plain load and store
 * and the search is the single-threaded one, number for number.
 */
#ifndef PALAGAN_MCTS_H
#define PALAGAN_MCTS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "../../core/util.h"
#include "../../search/request.h"
#include "palagan.h"

/* The fields other threads may touch during a search are atomic; key and
 * pn are written before the edge is published (node->expanded).  The
 * maneuver is not kept: pal_key_man gives it back from the key, so an edge
 * is 24 bytes, not 28 (more of a node's edges to a cache line when
 * select_edge reads them all). */
struct mc_edge {
    _Atomic uint32_t child;  /* node index, 0 = none yet */
    _Atomic uint32_t n, an;  /* visits (plus virtual losses in flight), AMAF visits */
    _Atomic float w, aw;     /* wins of the mover at the parent (draw = 1/2) */
    uint16_t key;            /* pal_man_key; PAL_KEY_END: the pass (turn start)
                              * or the end of the turn (after one maneuver) */
    uint16_t pn;             /* prior visits included in n */
};

/* expanded: 0 no edges, 1 edges generated (edges, nedges valid: written
 * before it is set with release), 2 a thread is generating them. */
struct mc_node {
    uint32_t edges; /* first edge */
    _Atomic uint32_t n; /* visits */
    uint16_t nedges;
    uint8_t side;     /* to act */
    _Atomic uint8_t expanded;
    _Atomic int8_t proven; /* 0 unknown, else final capture difference (black - white) + 64 */
    _Atomic uint8_t pchild; /* 1: a child may be proven (set when one is; select_edge
                             * reads the children's `proven` only then) */
    uint8_t pad[2];
};

#define MC_MAX_THREADS 256
#define MC_VLOSS 3 /* virtual loss: visits an edge gets while a simulation is below it */

/* ---- tunables, named (the defaults of struct mc_params, then the rest) -- */
#define MC_UCT_C 0.058        /* exploration constant of UCT (SPSA; 0.20 before) */
#define MC_RAVE_BIAS 0.0021   /* b^2 of Gelly & Silver's RAVE beta (SPSA; 0.002) */
#define MC_EXPAND_AT 2        /* visits before a leaf gets its edges */
#define MC_PRIOR_N 14         /* weight of the heuristic prior, in visits (SPSA; 12) */
#define MC_MARGIN 0.1         /* share of a result given by the capture margin */
#define MC_MARGIN_SCALE 6.0   /* captures for tanh of the margin to reach 0.76 */
#define MC_FPU 0.514          /* value of an unvisited edge, first-play urgency (SPSA; 0.6) */
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

/* The search's numbers: the MC_* defaults above, changed by name with
 * mc_set_tunables (the engine's SearchParams option) except grave_ref and
 * reuse, which are options of their own (GraveRef, TreeReuse). */
struct mc_params {
    double uct_c;     /* exploration */
    double rave_bias; /* b^2 of Gelly & Silver's beta */
    int expand_at;    /* visits before a leaf gets its edges */
    int prior_n;      /* weight of the heuristic prior, in visits */
    double margin;    /* share of a result given by the capture margin */
    double margin_scale; /* captures for tanh of the margin to reach 0.76 */
    double fpu;       /* value of an unvisited edge */
    /* the prior (MC_PRIOR_*) */
    double prior_capture, prior_own_weak, prior_their_weak, prior_take_next, prior_own_atari,
        prior_liberty, prior_min, prior_max;
    int grave_ref;    /* GRAVE: AMAF of the closest ancestor (same side to
                       * act) with >= this many visits; 0 = plain RAVE */
    bool reuse;       /* keep the subtree of the new position between turns */
};

/* What one search thread owns. */
#define MC_AMAF_IBITS 11 /* trace indexes: PAL_TRACE_MAX = 2^11 */
_Static_assert(PAL_TRACE_MAX <= (1 << MC_AMAF_IBITS), "trace index does not fit the AMAF code");
struct mc_worker {
    struct rng rng;
    struct pal_trace trace;
    /* AMAF: per side and key, the stamp of the last simulation that
     * played it, shifted above its last trace index there (0: never), so
     * that "played in this simulation at index i or later" is one compare
     * (older stamps give smaller codes) */
    uint32_t stamp;
    uint32_t amaf[2][PAL_KEYS];
    /* GRAVE: the AMAF of a reference node's edges by key, per side */
    uint32_t gref[2], gstamp[2];
    uint32_t gseen[2][PAL_KEYS];
    uint32_t gn[2][PAL_KEYS];
    float gw[2][PAL_KEYS];
};

/* The counters every thread writes during a search (nnodes/nedges at each
 * new node or expansion, sims/claimed/maxdepth every simulation) are kept
 * MC_LINE bytes away from the fields the threads only read (the pools'
 * addresses, par, pol, root, halt), whatever the struct's own alignment:
 * a write then no longer evicts those from the other core's cache. */
#define MC_LINE 64
struct mcts {
    struct mc_node *nodes;
    struct mc_edge *edges;
    uint32_t nodes_cap, edges_cap;
    char pad0[MC_LINE];
    _Atomic uint32_t nnodes, nedges; /* pool entries in use (the first is none) */
    char pad1[MC_LINE];
    struct mc_params par;
    struct pal_policy pol;
#define MC_BVAL 64
    float bval[2 * MC_BVAL + 1]; /* black_val of -64 .. 64, for this search's par */
    int nthreads;              /* search threads (mc_set_threads) */
    struct mc_worker *w;       /* their workers, w[0] the calling thread's */
    uint64_t seed;             /* of the workers' random streams */
    char pad2[MC_LINE];
    _Atomic uint64_t sims;     /* simulations of this search, all threads */
    _Atomic uint64_t claimed;  /* simulations started (a budget shared by threads) */
    _Atomic int maxdepth;
    char pad3[MC_LINE];
    atomic_bool halt;          /* the helper threads stop */
    uint32_t root;            /* root node (1 after a fresh start) */
    struct pal_state root_st; /* its position, for tree reuse */
    bool have_tree;           /* a tree from the last search is there */
    uint64_t reused;          /* visits the root had from earlier searches */
};

void mc_init(struct mcts *t, size_t mb, uint64_t seed);
void mc_free(struct mcts *t);
/* New tree memory of mb MiB; -1 (old tree kept) if it cannot be had. */
int mc_resize(struct mcts *t, size_t mb);
/* Seed every worker: worker 0 from seed, worker i from seed and i. */
void mc_seed(struct mcts *t, uint64_t seed);
/* Search with n threads (1..MC_MAX_THREADS) from now on; the tree is kept.
 * -1 (nothing changed) if the workers' memory cannot be had. */
int mc_set_threads(struct mcts *t, int n);
/* Set the tunables named in spec ("uct_c=0.3,prior_n=8,policy_save=800"):
 * the fields of struct mc_params but grave_ref and reuse, and the playout
 * policy's numbers (policy_capture, policy_save, policy_attack,
 * policy_end_early, policy_maxply); every other one back to its default
 * (an empty spec: all of them).  Returns 0, or -1 with err naming the bad
 * entry and nothing changed.  Between searches only (every thread of the
 * next search reads the new values); the tree is forgotten. */
int mc_set_tunables(struct mcts *t, const char *spec, char *err, size_t n);
/* Forget the tree (newgame): the next search starts afresh. */
void mc_clear(struct mcts *t);

/* Full search for `go`. */
gmove mc_go(struct mcts *t, const struct search_req *req);
/* Fixed number of simulations from st (a fresh tree), no output; returns
 * the turn.  With one thread a fingerprint of the search (bench). */
gmove mc_search_sims(struct mcts *t, const struct pal_state *st, uint64_t sims);

#endif
