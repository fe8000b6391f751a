/* ismcts.h - information-set Monte Carlo tree search for Battalion.
 *
 * Single-observer ISMCTS (Cowling, Powley & Whitehouse, "Information Set
 * Monte Carlo Tree Search", IEEE TCIAIG 2012): one tree over the searching
 * seat's information; every iteration samples a determinization (a full
 * state consistent with the view), descends the tree with availability-
 * aware UCB (a child's exploration term uses how often it was available,
 * not its parent's visits), expands one action, plays a heuristic playout
 * cut off after a few attacks, and backs up a reward per seat; each node
 * is judged by the reward of the seat that chose its action. */
#ifndef BAT_ISMCTS_H
#define BAT_ISMCTS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "../../core/util.h"
#include "battalion.h"

#define BAT_REPORT_LINES 16

/* One root action with its statistics (for multipv). */
struct bat_line {
    gmove move;
    uint32_t visits;
    double values[BAT_MAX_SEATS];
};

struct bat_report {
    uint64_t iterations;
    size_t nodes;
    int64_t us;
    int nseats;
    double values[BAT_MAX_SEATS]; /* expected reward per seat (0..1) */
    gmove best;
    uint32_t best_visits;
    int nlines;                           /* root actions by visits, most first */
    struct bat_line lines[BAT_REPORT_LINES];
};

/* The learned leaf's features of seat s in a full state (not over), in the
 * order of the leaf<N>_* parameters: points of its best suit, of its second,
 * of the other two; 1 if it attacks next; if so, the points of its best
 * suit allowed then; 1 if it attacks after the next attacker; if so, its
 * best suit's points; its chips less the table's mean.  The names are the
 * parameters' (bat_leaf_names[i]: parameter leaf<N>_<name>). */
#define BAT_LEAF_NF 8
extern const char *const bat_leaf_names[BAT_LEAF_NF];
void bat_leaf_features(const struct bat_state *st, int s, double *f);

/* A search's running figures, published every 16 iterations for another
 * thread to read (the main thread of a parallel search reports them). */
struct bat_progress {
    _Atomic uint64_t iterations;
    _Atomic uint64_t nodes;
};

/* Threads of a parallel search (the engine's Threads option). */
#define BAT_MAX_THREADS 256

struct bat_search_params {
    uint64_t iterations;  /* stop after this many (0 = only `stop`) */
    int cutoff;           /* playouts stop this many attacks after the root */
    double explore;       /* UCB exploration constant */
    double epsilon;       /* playout: chance of a random candidate move */
    double epsilon_opp;   /* ... for the other seats than the searching one
                           * (< 0: the same as epsilon) */
    double rollout_temp;  /* > 0: the searching seat's playout attacks are drawn by
                           * softmax over the heuristic's scores at this
                           * temperature (points), not the heuristic's best */
    double prog_bias;     /* > 0: in the tree a child that is the heuristic's move
                           * gets prog_bias / (visits + 1) more */
    double eval_strength; /* leaf value: chips per point of the best suit in hand */
    double eval_scale;    /* leaf value: width of the reward's sigmoid, in chips */
    int leaf;             /* 0: leaf value chips + eval_strength x best-suit points;
                           * 1: chips + the fitted chip gain, leaf_w[N] . bat_leaf_features */
    /* The fitted leaf per number of seats N (`medan-battalion-duplicate
     * --fit`): chips expected to be gained by the end of the game per unit
     * of each feature, in the order of bat_leaf_features; parameter
     * "leaf<N>_<feature>", e.g. leaf4_best. */
    double leaf_w[BAT_MAX_SEATS + 1][BAT_LEAF_NF];
    /* leaf_self = 1: the searching seat's leaf uses self_w[N] instead (fitted
     * to the search's own games: `--fit G --fit-strong 1`; parameter
     * "self<N>_<feature>"; by default the same as leaf_w) */
    int leaf_self;
    double self_w[BAT_MAX_SEATS + 1][BAT_LEAF_NF];
    int actions;          /* enum bat_actions: the move set searched */
    int collect_heuristic; /* 1: collection decisions are the heuristic's, unsearched */
    double final;         /* the move played: 0 the most visited root child; f > 0
                           * the best mean among those visited >= f times as
                           * often as the most visited */
    double opp_model;     /* chance that another seat plays the heuristic in the tree */
    int opp_model_bid;    /* 1: in the tree another seat always bids the heuristic's way */
    int opp_model_collect; /* 1: ... and plays its collection the heuristic's way */
    double infer;         /* chance that a determinization uses the public record
                           * (`shown`) of a seat: its older cards avoid the suits
                           * it played whole, skipped or surrendered to */
    int infer_bids;       /* ... and its bid or pass, the heuristic's way, while it
                           * keeps the hand it bid with */
    int infer_collect;    /* ... and its collection: its last discard was of least
                           * keep value, a card it took from the discard pile made
                           * a twin or a long suit */
    int abstract;         /* 1: the tree's children are keyed by what a move is worth,
                           * not by its ranks (bat_move_key), so determinizations
                           * whose hands differ only in ranks share statistics */
    int root_sym;         /* 1: the root's discards that differ only in ranks (the same
                           * suit, count held, count known, twin out of play or
                           * not) are one child (bat_discard_class) */
    int own_sym;          /* 1: the searching seat's discards below the root keyed by
                           * those classes (suit, count held, count known, twin
                           * out of play), so they are shared across
                           * determinizations whose hands differ in ranks */
    int abstract_discard; /* 1: also a collection discard below the root, keyed by
                           * its suit and whether it breaks a twin */
    int crn;              /* 1: common random numbers at the root: the k-th visit of
                           * every root action uses the same determinization */
    int expand_heuristic; /* 1: a node's first new child is the heuristic's move
                           * (when among its untried candidates), not a random one */
    int bid_heuristic;    /* 1: the bid is the heuristic's (one under the best suit
                           * when that is >= 5 and beats the high bid), unsearched */
    int attack_heuristic; /* 1: the attacks are the heuristic's, unsearched */
    int defend_heuristic; /* 1: the defences are the heuristic's, unsearched */
    int oracle;           /* measurement only (medan-battalion-duplicate): given a full
                           * state, search it with the other hands known */
    /* Polled every few iterations: nonzero ends the search. */
    int (*stop)(void *ctx);
    void *stop_ctx;
    /* Called about every `report_us` with the running figures. */
    void (*report)(void *ctx, const struct bat_report *rep);
    void *report_ctx;
    int64_t report_us;
    /* NULL, or where the search publishes its figures as it runs. */
    struct bat_progress *progress;
};

void bat_search_defaults(struct bat_search_params *p);

/* Does the search answer in the view v's phase with the heuristic's move,
 * unsearched (collect_heuristic in the collection, bid_heuristic in the
 * bidding, attack_heuristic and defend_heuristic in the battles)? */
int bat_unsearched(const struct bat_search_params *p, const struct bat_state *v);

/* The determinization of the `crn` search's k-th visit of a root action:
 * from the seat's view only, dealt by a generator seeded from (base, k)
 * and left in *rr for the rest of the iteration; the same for every root
 * action, whatever *rr held before. */
void bat_crn_determinize(const struct bat_state *view, const struct bat_search_params *p,
                         uint64_t base, uint64_t k, struct rng *rr, struct bat_state *full);

/* The key of move m in state st for the tree (the `abstract` parameter):
 * an attack or a defence with its cards replaced by a canonical set of the
 * same suit with as many pairs played whole, pairs split (a card whose twin
 * stays in the mover's hand) and singles; any other move is its own key.
 * Ranks do not count in Battalion, so two moves with one key are worth the
 * same. */
gmove bat_move_key(const struct bat_state *st, gmove m);

/* The `root_sym` key of discard m in st (the seat to act discarding): the
 * first of the seat's candidates (bat_candidates order) whose card has the
 * same suit, count in the hand, count publicly known there, and whose twin
 * is out of play for the others (in the pile, in a battle, known in another
 * hand) or not.  Any other move is its own key. */
gmove bat_discard_class(const struct bat_state *st, gmove m);

/* Set one named parameter from text ("explore", "epsilon", "cutoff",
 * "eval_strength", "eval_scale", "actions"=pruned|full, "opp_model", "infer",
 * "infer_bids", "infer_collect", "final", "epsilon_opp", "collect_heuristic",
 * "bid_heuristic", "attack_heuristic", "defend_heuristic", "opp_model_bid",
 * "opp_model_collect", "rollout_temp", "prog_bias", "root_sym", "own_sym",
 * "leaf_self", "iterations", "leaf", "leaf<N>_<feature>" and
 * "self<N>_<feature>" for N = 3..6 and a name of bat_leaf_names).
 * 0, or -1 for an unknown name or a bad value. */
int bat_search_set(struct bat_search_params *p, const char *name, const char *value);

/* What the parameter `name` of bat_search_set takes ("a number from 0 to
 * 100", "0 or 1", ...), written into buf; NULL when there is no such
 * parameter. */
const char *bat_search_range(const char *name, char *buf, size_t n);

struct bat_tree;
struct bat_tree *bat_tree_new(size_t max_nodes);
void bat_tree_free(struct bat_tree *t);

/* The children of node `node` of the last search's tree (0: the root), in
 * sibling order: their indices (for their own children) and moves, at most
 * max; their number (0 for a node that is not there).  For tests. */
int bat_tree_children(const struct bat_tree *t, int32_t node, int32_t *kids, gmove *moves,
                      int max);

/* Search from `view` (a view whose viewer is the seat to act, or a full
 * state: then the search uses only the view of the seat to act). */
gmove bat_search(struct bat_tree *t, const struct bat_state *view,
                 const struct bat_search_params *p, struct rng *r,
                 struct bat_report *rep);

/* Root parallelism: `nthreads` searches of the same view at once (the
 * calling thread runs the first), each with its own tree (trees[i]) and its
 * own random numbers (r[i]), so its own determinizations; every thread sees
 * only the view.  A budget of p->iterations is split between the threads
 * (the first takes the remainder; a thread whose share would be 0 does not
 * run), so the totals match a single search's.  p->stop is polled by the
 * calling thread only, until every thread is done, and ends them all;
 * p->report gets the running iterations and nodes of all threads with the
 * first thread's root statistics.  When all are done the root actions'
 * visits and rewards are summed over the trees and the move is chosen from
 * the sums as bat_search chooses it from one tree; rep gives the sums.
 * nthreads = 1 is bat_search(trees[0], view, p, &r[0], rep). */
gmove bat_search_par(struct bat_tree *const *trees, int nthreads, const struct bat_state *view,
                     const struct bat_search_params *p, struct rng *r,
                     struct bat_report *rep);

/* A full state consistent with the view: the unknown cards dealt at random
 * to the unknown hand slots and the draw pile, respecting the bids of
 * seats whose hands have not changed since bidding and the attacker's
 * ability to attack.  With chance p->infer per seat it also follows an
 * opponent model, the heuristic player's way of playing: the seat's older
 * cards avoid the suits the public record (`shown`) says it played whole or
 * skipped (at most one card of a suit it surrendered to), and with
 * p->infer_bids its bid or pass fits its best suit while it keeps the hand
 * it bid with.  p NULL: no model. */
void bat_determinize(const struct bat_state *view, const struct bat_search_params *p,
                     struct rng *r, struct bat_state *full);

/* Does seat s's hand in the full state st fit the collection part of the
 * opponent model?  Its last discard (while `discard` is set) had the least
 * keep value of the hand then, and every card it took from the discard pile
 * and still holds is a twin or in a suit of 5 points or more. */
int bat_collection_fits(const struct bat_state *st, int s);

/* Heuristic playout from a full state until `attacks_end` attacks are
 * made (and resolved) or the game ends; then the reward per seat.  Seat
 * `me` (the searching one) plays a random candidate with chance
 * p->epsilon, the others with p->epsilon_opp. */
void bat_playout(struct bat_state *st, int attacks_end,
                 const struct bat_search_params *p, int me, struct rng *r, double *reward);

#endif
