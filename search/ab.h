/* ab.h - generic iterative-deepening PVS alpha-beta for two-player games of
 * perfect information (LOA, Fetlar).  The game comes through struct game
 * (copy-make with memcpy); the engine adds its evaluation and move-ordering
 * knowledge through struct ab_ops.
 *
 * Scores are from the side to move's point of view.  AB_WIN - n means
 * "the side to move wins in n plies"; printed as `score win n`.
 *
 * Threads (Lazy SMP): the search of `go` runs on the calling thread (the
 * main search, the one that reports, manages time and gives the move) and
 * on threads - 1 helper threads started for it, each with its own stacks,
 * history and killers, all sharing the main search's transposition table
 * (lockless, tt.h).  Helpers iterate at staggered depths (the main
 * search's, or one more), so that they fill the table ahead of it; they
 * start before the root solve (they search while it runs) and stop when
 * the main search ends.  A move another thread is searching is deferred
 * to the end of a node's moves (AB_DEFER_DEPTH).  The move is the main search's, or a helper's that completed a
 * deeper iteration (the deepest completed one; multipv 1 only), and a
 * `go depth N` ends when any thread has completed depth N.  One thread
 * searches exactly as before threads existed.
 */
#ifndef MEDAN_AB_H
#define MEDAN_AB_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "pns.h"
#include "request.h"
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
    /* is_tactical of n moves of st at once, 1 or 0 into out[i] (NULL: one
     * is_tactical call a move): a game can work out once a node what
     * every move's test shares. */
    void (*mark_tactical)(const void *st, const gmove *mv, int n, unsigned char *out);
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
    /* The proof-number solver's table key (pns_ops.key): the position with
     * whatever counter the game's hash leaves out.  NULL: game->hash. */
    uint64_t (*solve_key)(const void *st);
};

/* ---- tunables, Ethereal style: every number the search decides by ------- */
/* Null-move pruning: from this depth, reduced by R = base + depth / div. */
#define AB_NULL_MIN_DEPTH 3
#define AB_NULL_REDUCTION 2
#define AB_NULL_DEPTH_DIV 4
/* Reverse futility pruning: at depth <= max, eval - margin * depth >= beta. */
#define AB_RFP_MAX_DEPTH 3
#define AB_RFP_MARGIN 90
/* Late-move reductions: from this depth, after this many legal moves, by
 * base + log(depth) * log(moves) / div (one ply less at PV nodes). */
#define AB_LMR_MIN_DEPTH 3
#define AB_LMR_MIN_MOVES 4
#define AB_LMR_BASE 0.75
#define AB_LMR_DIV 2.25
#define AB_LMR_PV_LESS 1
/* Late-move pruning: at depth <= max (0: none), outside the PV, once
 * moves * depth^2 moves have been tried and one of them does not lose,
 * the remaining quiet moves (those ordered by history) are not searched. */
#define AB_LMP_MAX_DEPTH 0
#define AB_LMP_MOVES 6
/* Futility pruning: at depth <= max (0: none), outside the PV, once a move
 * that does not lose has been tried, a quiet move is not searched when the
 * static evaluation plus margin * depth cannot reach alpha. */
#define AB_FUT_MAX_DEPTH 0
#define AB_FUT_MARGIN 150
/* Aspiration windows: from this depth, half-width first; a fail widens the
 * window by half plus grow; past max the window is the whole range. */
#define AB_ASP_MIN_DEPTH 5
#define AB_ASP_WINDOW 40
#define AB_ASP_GROW 10
#define AB_ASP_MAX 1000
/* History: bonus depth^2 for a cutoff (malus for the quiets tried before),
 * kept in [-max, max] by the gravity term h * |bonus| / gravity. */
#define AB_HIST_MAX 16000
#define AB_HIST_GRAVITY 16384
/* Move-ordering score bands, best first.  Quiet moves score their history,
 * inside [-AB_HIST_MAX, AB_HIST_MAX]; tactical moves add theirs to their
 * band.  LMR reads the bands back: it reduces only what scores below the
 * second killer (quiet moves by history). */
#define AB_ORDER_TT (1 << 30)
#define AB_ORDER_TACTICAL (1 << 24)
#define AB_ORDER_KILLER1 (1 << 23)
#define AB_ORDER_KILLER2 ((1 << 23) - 1)
_Static_assert(AB_HIST_MAX < AB_ORDER_KILLER2 &&
                   AB_ORDER_KILLER1 + AB_HIST_MAX < AB_ORDER_TACTICAL &&
                   AB_ORDER_TACTICAL + AB_HIST_MAX < AB_ORDER_TT,
               "move-ordering bands overlap");
/* Move picking: the first this many moves of a node are picked one at a
 * time (a cut-off often comes first); the rest are then sorted at once. */
#define AB_PICK_LAZY 3
/* Time: iterations with an unchanged best move before it counts as fully
 * stable (tm_continue's stability 1). */
#define AB_STABLE_ITERATIONS 4
/* How often the search looks at the stop flags, at the clock and at the
 * node limit.  The flags (`stop`, the helpers' end, a depth reached: relaxed
 * loads of lines no thread writes during a search) at every node, the clock
 * (a vDSO read, about 18 ns) every 8 nodes: a node that first touches a page
 * of a big table can take milliseconds (a 2 MiB page faulted in took 2.6-5
 * ms on the project's machines), and with a look every 256 nodes `stop`
 * took up to 276 ms and `go movetime 100` 157 ms in a new process
 * (search/tt.c warms the table since).  The node limit every 1024, as
 * always: `go nodes` stays the same. */
#define AB_CLOCK_MASK 7
#define AB_NODES_MASK 1023
/* The node limit with Threads > 1 (`go nodes N` counts every thread's
 * nodes): each thread adds its count to one shared total every `step`
 * nodes (leaf nodes counted without a look may carry it past a step:
 * it adds what it searched since it last added) and stops at its next
 * step once the total reached N.  step is the
 * largest power of two <= N / (AB_NL_SHARE * threads), at least 1 and at
 * most AB_NODES_MASK + 1, so the total searched stays below
 * N + N / AB_NL_SHARE + AB_NL_SLACK_THREAD * threads + AB_NODES_MASK + 1
 * (each thread's unpublished step and the step it needs to see the end;
 * the main search still also looks every 1024 of its own nodes), plus
 * the nodes of the main search's first iteration: it completes depth 1
 * before it takes the limit (a move searched, never the first one
 * generated).  threads: those the search uses (AB_NL_HELPER_NODES).  One
 * thread (or a limit too small for a helper): unchanged (every 1024 nodes,
 * up to 1023 over). */
#define AB_NL_SHARE 8
/* A search with a node limit N starts at most N / AB_NL_HELPER_NODES
 * helpers (Threads=256 with go nodes 100: none; the thread starts would
 * cost more than the search). */
#define AB_NL_HELPER_NODES 1024
#define AB_NL_SLACK_THREAD 4
/* The proof-number solver at the root (search/pns.h): before iterative
 * deepening, a df-pn solve of at most this many positions (a tenth of a
 * `go nodes` limit if less); a proven win caps the depth and is played
 * if alpha-beta does not prove one, and the moves it proves lost are not
 * searched unless every move is.  0: none. */
#define AB_ROOT_PNS_NODES 5000
#define AB_ROOT_PNS_UNIT 100 /* ab_params.root_pns counts hundreds of positions */
/* ... only when the last search of this game (since newgame) scored at
 * least this far from even for its side, or there was none: a solve in a
 * balanced position is nodes lost (measured: -24 [-94, +44] Elo at 20000
 * nodes a move without this gate, docs/solver.md). */
#define AB_ROOT_PNS_CP 150
/* The most root moves multipv shows. */
#define AB_MAX_MULTIPV 64
/* Threads: at most this many (the Threads option's max). */
#define AB_MAX_THREADS 256
/* Helpers start each iteration at the main search's depth (even-numbered
 * helpers) or this many plies deeper (odd-numbered ones: helper 1 with
 * Threads=2), or at their own next depth when that is deeper.  Measured
 * against the skip pattern of Stockfish 7-9 (helper i skipping depths in
 * runs of 1-4): time to depth by nodes 1.54 / 1.42 against 1.22 / 1.41
 * (LOA depth 7 / 8), Fetlar 1.28 / 1.20 against 1.39 / 1.08 (depth 6 / 7),
 * 2 threads, one run each on a loaded machine.  SearchParams helper_ahead. */
#define AB_HELPER_AHEAD 1
/* Threads > 1: moves another thread is searching are deferred (simplified
 * ABDADA).  At a node of at least this depth each thread marks the
 * (position, move) it searches in a shared table of AB_BUSY_SLOTS hashes;
 * a move after a node's first one that another thread has marked is
 * searched after the node's other moves (at most AB_DEFER_MAX of them a
 * node; more are searched in turn), so that the threads spread over the
 * tree instead of searching the same subtrees at once. */
#define AB_DEFER_DEPTH 3
#define AB_DEFER_MAX 64
#define AB_BUSY_SLOTS (1 << 15)
/* Threads > 1: 1, the helpers order quiet moves by the main search's history
 * table and update it (relaxed atomics, a lost update allowed); 0, each
 * thread keeps its own (SearchParams shared_history). */
#define AB_SHARED_HISTORY 0

/* The per-engine part of the tunables (defaults above; contempt is an
 * engine option). */
struct ab_params {
    int null_min_depth;  /* AB_NULL_MIN_DEPTH */
    int null_reduction;  /* AB_NULL_REDUCTION (+ depth / AB_NULL_DEPTH_DIV) */
    int lmr_min_depth;   /* AB_LMR_MIN_DEPTH */
    int lmr_min_moves;   /* AB_LMR_MIN_MOVES */
    int futility_margin; /* AB_RFP_MARGIN, per depth */
    int lmp_depth;       /* AB_LMP_MAX_DEPTH */
    int lmp_moves;       /* AB_LMP_MOVES, times depth^2 */
    int fut_depth;       /* AB_FUT_MAX_DEPTH */
    int fut_margin;      /* AB_FUT_MARGIN, per depth */
    int aspiration;      /* AB_ASP_WINDOW, first window half-width; 0 = none */
    int contempt;        /* a draw counts this much below even for the root side */
    int root_pns;        /* AB_ROOT_PNS_NODES / AB_ROOT_PNS_UNIT (SearchParams root_pns) */
    int root_pns_cp;     /* AB_ROOT_PNS_CP */
    int shared_history;  /* AB_SHARED_HISTORY: helpers use the main search's history table */
    int helper_ahead;    /* AB_HELPER_AHEAD (SearchParams helper_ahead) */
};

extern const struct ab_params ab_default_params;

struct ab {
    const struct game *game;
    const struct ab_ops *ops;
    void *eng; /* shared by every thread: ops->eval must be thread-safe */
    struct ab_params par;
    struct tt tt;     /* the main search's; a helper's is unused */
    struct tt *ttp;   /* the table searched: the main search's tt */
    /* Lazy SMP (main search): threads - 1 helpers, the flag that ends them */
    int threads;
    struct ab *helpers;
    atomic_bool helpers_end;
    /* the deepest iteration a helper completed in this search (under
     * done_lock), and the flag a helper raises when it completes the
     * depth `go depth` asked for */
    pthread_mutex_t done_lock;
    int done_depth, done_seldepth, done_score, done_pvlen;
    gmove done_pv[AB_MAX_PLY + 1];
    atomic_bool helper_reached;
    atomic_int cur_depth; /* the main search's iteration (helpers read it) */
    /* the moves being searched (AB_DEFER_DEPTH; the main search's, made
     * with the helpers), and the table a search uses: NULL with one thread */
    _Atomic uint64_t *busy;
    _Atomic uint64_t *busy_use;
    struct ab *main; /* a helper's main search */
    /* a helper: its number (0: the main search), the main search's flag,
     * its thread, its node count as the main search may read it */
    int id;
    const atomic_bool *end;
    pthread_t thread;
    int thread_live;
    _Atomic uint64_t nodes_seen;
    int helper_maxdepth;
    /* the node limit summed over threads (Threads > 1 with `go nodes`):
     * the step (a power of two; 0: off) and the limit of every thread, the
     * shared total and end flag of the main search */
    uint64_t nl_step, nl_limit, nl_last; /* nl_last: nodes at the last publish */
    int nl_hold; /* the main search: depth 1 not yet completed */
    int active;  /* threads this search uses (<= threads) */
    _Atomic uint64_t nl_total;
    atomic_bool nl_reached;
    int16_t history[2][AB_KEYS];
    int16_t (*hist)[AB_KEYS]; /* the table searched: history, or the main search's (shared_history) */
    uint32_t killers[AB_MAX_PLY][2];
    /* per search */
    uint64_t nodes;
    int seldepth;
    uint64_t *path;   /* game history + search path hashes */
    int npath, path_cap;
    unsigned char *stack; /* one state per ply */
    gmove *moves;         /* game->max_moves per ply, and the root's */
    int *scores;          /* their ordering scores */
    uint64_t *sortkeys;   /* 2 * max_moves: scratch of ab_sort_moves */
    gmove *sortmoves;     /* max_moves: scratch of ab_sort_moves */
    const struct search_req *req;
    void *tm;         /* struct timeman *, NULL in bench */
    uint64_t node_limit;
    int stopped;
    int root_seat;      /* seat to move at the root of the last search */
    gmove excluded[AB_MAX_MULTIPV]; /* root moves already shown (multipv) */
    int nexcluded;
    gmove root_prev;    /* the previous iteration's best move (GAME_MOVE_NONE at depth 1) */
    int root_prev_done; /* ... searched to the end in this iteration */
    int root_score;     /* the score of pv[0][0] at the root */
    gmove pv[AB_MAX_PLY + 1][AB_MAX_PLY + 1];
    int pvlen[AB_MAX_PLY + 1];
    /* the solver (main search only; made at its first use, its table of
     * pns_mb MiB), the root moves it proved lost in this search */
    struct pns *pns;
    size_t pns_mb;
    gmove *lostmv;
    atomic_int nlost; /* published after lostmv: helpers read it */
    int prev_score; /* the last search's score (its side's view); INT_MIN: none since newgame */
};

void ab_init(struct ab *ab, const struct game *g, const struct ab_ops *ops,
             void *eng, size_t hash_mb);
void ab_free(struct ab *ab);
/* A new table of hash_mb MiB; -1 (the old one kept) if it cannot be had. */
int ab_resize(struct ab *ab, size_t hash_mb);
/* Search with n threads (1..AB_MAX_THREADS) from the next search on; -1
 * (the old number kept) if their memory cannot be had.  Between searches
 * only. */
int ab_set_threads(struct ab *ab, int n);
void ab_clear(struct ab *ab); /* newgame */
/* Full search for `go`: info lines, time management, returns best move. */
gmove ab_go(struct ab *ab, const struct search_req *req, gmove *ponder);
/* `go solve`: the proof-number solver on req's position (pns_go); its
 * table the Hash size, made at the first solve.  GAME_MOVE_NONE and an
 * info string when its memory cannot be had. */
gmove ab_solve(struct ab *ab, const struct search_req *req);
/* The solver's object and table (ab->pns), made at the first use; 0, or
 * -1 when its memory cannot be had. */
int ab_solver(struct ab *ab);
/* Sort mv[from..n) (n <= the game's max_moves) with their scores sc, the
 * highest score first, equal scores later-listed first: the order the
 * search tries a node's moves in after the first AB_PICK_LAZY. */
void ab_sort_moves(struct ab *ab, gmove *mv, int *sc, int from, int n);
/* Fixed-depth search without output (bench): returns nodes searched (by
 * every thread). */
uint64_t ab_bench_position(struct ab *ab, const void *st, int depth);
/* The nodes the last search searched, summed over every thread (exact
 * once ab_go has returned). */
uint64_t ab_nodes(const struct ab *ab);

#endif
