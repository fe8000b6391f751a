/* ab.c - iterative-deepening PVS (see ab.h).
 *
 * Copy-make: every ply has its own copy of the state in ab->stack.  The
 * tree is searched with a transposition table, null-move pruning (when the
 * game can pass), reverse futility pruning, late-move reductions, killer and
 * history move ordering, aspiration windows and an optional quiescence
 * search over tactical moves.  Repetitions inside the tree or of the game
 * history score as draws.
 */
#include "ab.h"

#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/util.h"
#include "timeman.h"

#define INF 32000

static int lmr_table[64][64];

__attribute__((constructor)) static void ab_tables(void)
{
    for (int d = 1; d < 64; d++)
        for (int i = 1; i < 64; i++)
            lmr_table[d][i] = (int)(AB_LMR_BASE + log(d) * log(i) / AB_LMR_DIV);
}

const struct ab_params ab_default_params = {
    .null_min_depth = AB_NULL_MIN_DEPTH,
    .null_reduction = AB_NULL_REDUCTION,
    .lmr_min_depth = AB_LMR_MIN_DEPTH,
    .lmr_min_moves = AB_LMR_MIN_MOVES,
    .futility_margin = AB_RFP_MARGIN,
    .lmp_depth = AB_LMP_MAX_DEPTH,
    .lmp_moves = AB_LMP_MOVES,
    .fut_depth = AB_FUT_MAX_DEPTH,
    .fut_margin = AB_FUT_MARGIN,
    .aspiration = AB_ASP_WINDOW,
    .root_pns = AB_ROOT_PNS_NODES / AB_ROOT_PNS_UNIT,
    .root_pns_cp = AB_ROOT_PNS_CP,
    .shared_history = AB_SHARED_HISTORY,
    .helper_ahead = AB_HELPER_AHEAD,
};

/* The per-thread buffers (one state, move list and score list a ply, the
 * sort scratch); 0, or -1 with none kept. */
static int alloc_buffers(struct ab *ab)
{
    const struct game *g = ab->game;
    ab->stack = malloc((AB_MAX_PLY + 2) * g->state_size);
    ab->moves = malloc((AB_MAX_PLY + 2) * (size_t)g->max_moves * sizeof *ab->moves);
    ab->scores = malloc((AB_MAX_PLY + 1) * (size_t)g->max_moves * sizeof *ab->scores);
    ab->sortkeys = malloc(2 * (size_t)g->max_moves * sizeof *ab->sortkeys);
    ab->sortmoves = malloc((size_t)g->max_moves * sizeof *ab->sortmoves);
    if (ab->stack && ab->moves && ab->scores && ab->sortkeys && ab->sortmoves)
        return 0;
    free(ab->stack);
    free(ab->moves);
    free(ab->scores);
    free(ab->sortkeys);
    free(ab->sortmoves);
    ab->stack = NULL;
    ab->moves = NULL;
    ab->scores = NULL;
    ab->sortkeys = NULL;
    ab->sortmoves = NULL;
    return -1;
}

static void free_buffers(struct ab *ab)
{
    free(ab->stack);
    free(ab->path);
    free(ab->moves);
    free(ab->scores);
    free(ab->sortkeys);
    free(ab->sortmoves);
    ab->sortkeys = NULL;
    ab->sortmoves = NULL;
    ab->stack = NULL;
    ab->path = NULL;
    ab->moves = NULL;
    ab->scores = NULL;
}

void ab_init(struct ab *ab, const struct game *g, const struct ab_ops *ops, void *eng,
             size_t hash_mb)
{
    memset(ab, 0, sizeof *ab);
    ab->game = g;
    ab->ops = ops;
    ab->eng = eng;
    ab->par = ab_default_params;
    if (tt_init(&ab->tt, hash_mb) && tt_init(&ab->tt, 1))
        die("out of memory for the transposition table"); /* exit-ok: out of memory */
    ab->ttp = &ab->tt;
    ab->hist = ab->history;
    ab->threads = 1;
    ab->pns_mb = hash_mb;
    ab->prev_score = INT_MIN;
    if (alloc_buffers(ab) || !(ab->lostmv = malloc((size_t)g->max_moves * sizeof *ab->lostmv)))
        die("out of memory"); /* exit-ok: out of memory */
    pthread_mutex_init(&ab->done_lock, NULL);
}

static void free_helpers(struct ab *ab)
{
    for (int i = 0; i < ab->threads - 1; i++) {
        assert(!ab->helpers[i].thread_live);
        free_buffers(&ab->helpers[i]);
    }
    free(ab->helpers);
    ab->helpers = NULL;
    free(ab->busy);
    ab->busy = NULL;
    ab->threads = 1;
}

void ab_free(struct ab *ab)
{
    free_helpers(ab);
    pthread_mutex_destroy(&ab->done_lock);
    tt_free(&ab->tt);
    free_buffers(ab);
    if (ab->pns)
        pns_free(ab->pns);
    free(ab->pns);
    free(ab->lostmv);
}

int ab_set_threads(struct ab *ab, int n)
{
    struct ab *h;
    assert(ab->id == 0);
    if (n < 1 || n > AB_MAX_THREADS)
        return -1;
    if (n == ab->threads)
        return 0;
    if (n == 1) {
        free_helpers(ab);
        return 0;
    }
    if (!(h = calloc((size_t)n - 1, sizeof *h)))
        return -1;
    /* the table of the moves being searched, kept from the last helpers */
    _Atomic uint64_t *busy = ab->busy;
    if (!busy && !(busy = calloc(AB_BUSY_SLOTS, sizeof *busy))) {
        free(h);
        return -1;
    }
    for (int i = 0; i < n - 1; i++) {
        h[i].game = ab->game;
        h[i].ops = ab->ops;
        h[i].eng = ab->eng;
        h[i].par = ab->par;
        h[i].id = i + 1;
        h[i].end = &ab->helpers_end;
        h[i].main = ab;
        if (alloc_buffers(&h[i])) {
            for (int j = 0; j < i; j++)
                free_buffers(&h[j]);
            free(h);
            if (busy != ab->busy)
                free(busy);
            return -1; /* the old helpers stay */
        }
    }
    ab->busy = NULL; /* kept: free_helpers would free it */
    free_helpers(ab);
    ab->busy = busy;
    ab->helpers = h;
    ab->threads = n;
    return 0;
}

int ab_resize(struct ab *ab, size_t mb)
{
    struct tt t;
    if (tt_init(&t, mb))
        return -1; /* the old table stays */
    tt_free(&ab->tt);
    ab->tt = t;
    ab->pns_mb = mb;
    if (ab->pns) { /* the solver's table follows at its next use */
        pns_free(ab->pns);
        free(ab->pns);
        ab->pns = NULL;
    }
    return 0;
}

void ab_clear(struct ab *ab)
{
    ab->prev_score = INT_MIN;
    tt_clear(&ab->tt);
    memset(ab->history, 0, sizeof ab->history);
    memset(ab->killers, 0, sizeof ab->killers);
    for (int i = 0; i < ab->threads - 1; i++) {
        memset(ab->helpers[i].history, 0, sizeof ab->helpers[i].history);
        memset(ab->helpers[i].killers, 0, sizeof ab->helpers[i].killers);
    }
}

/* The move list of a ply (ply AB_MAX_PLY + 1: the root's, for ab_go) and
 * its scores. */
static gmove *ply_moves(struct ab *ab, int ply)
{
    return ab->moves + (size_t)ply * (size_t)ab->game->max_moves;
}

static int *ply_scores(struct ab *ab, int ply)
{
    return ab->scores + (size_t)ply * (size_t)ab->game->max_moves;
}

static void *ply_state(struct ab *ab, int ply)
{
    return ab->stack + (size_t)ply * ab->game->state_size;
}

/* ---- helpers ------------------------------------------------------------------ */
static int terminal(struct ab *ab, const void *st, int *outcome)
{
    struct game_result r;
    if (ab->ops->terminal)
        return ab->ops->terminal(st, outcome);
    ab->game->result(st, NULL, 0, &r);
    if (!r.over)
        return 0;
    int me = ab->game->to_move(st) - 1, best = 1;
    for (int i = 0; i < r.nseats; i++)
        if (i != me && r.rank[i] < r.rank[me])
            best = 0;
    int tie = 0;
    for (int i = 0; i < r.nseats; i++)
        if (i != me && r.rank[i] == r.rank[me])
            tie = 1;
    *outcome = tie ? 0 : best ? 1 : -1;
    return 1;
}

/* The game's static evaluation, kept below the proven-result band (and so
 * inside the table's 16-bit scores) whatever weights a tuner sets. */
static int static_eval(struct ab *ab, const void *st)
{
    int v = ab->ops->eval(ab->eng, st);
    return v >= AB_WIN_BOUND ? AB_WIN_BOUND - 1 : v <= -AB_WIN_BOUND ? -(AB_WIN_BOUND - 1) : v;
}

/* A draw from the view of the side to move at `ply` (contempt: the root
 * side values a draw below even, its opponent above). */
static int draw_score(const struct ab *ab, int ply)
{
    return ply % 2 ? ab->par.contempt : -ab->par.contempt;
}

static int is_repetition(struct ab *ab)
{
    uint64_t h = ab->path[ab->npath - 1];
    for (int i = ab->npath - 3; i >= 0; i -= 2)
        if (ab->path[i] == h)
            return 1;
    return 0;
}

static void path_push(struct ab *ab, uint64_t h)
{
    if (ab->npath == ab->path_cap) {
        ab->path_cap = ab->path_cap ? ab->path_cap * 2 : 1024;
        ab->path = xrealloc(ab->path, (size_t)ab->path_cap * sizeof *ab->path);
    }
    ab->path[ab->npath++] = h;
}

static int score_to_tt(int s, int ply)
{
    return s >= AB_WIN_BOUND ? s + ply : s <= -AB_WIN_BOUND ? s - ply : s;
}
static int score_from_tt(int s, int ply)
{
    return s >= AB_WIN_BOUND ? s - ply : s <= -AB_WIN_BOUND ? s + ply : s;
}

/* Nodes searched by every thread: the main search's own and what its
 * helpers last published (exact once they are joined). */
static uint64_t total_nodes(const struct ab *ab)
{
    uint64_t n = ab->nodes;
    for (int i = 0; i < ab->threads - 1; i++)
        n += atomic_load_explicit(&ab->helpers[i].nodes_seen, memory_order_relaxed);
    return n;
}

/* Threads > 1 with a node limit: publish this thread's last step of nodes
 * into the shared total; stop once it reached the limit (AB_NL_SHARE). */
static void node_limit_shared(struct ab *ab)
{
    struct ab *m = ab->id ? ab->main : ab;
    uint64_t add = ab->nodes - ab->nl_last;
    uint64_t all = atomic_fetch_add_explicit(&m->nl_total, add, memory_order_relaxed) + add;
    ab->nl_last = ab->nodes;
    if (all >= ab->nl_limit)
        atomic_store_explicit(&m->nl_reached, true, memory_order_relaxed);
    if (atomic_load_explicit(&m->nl_reached, memory_order_relaxed) && !ab->nl_hold)
        ab->stopped = 1;
}

static void check_time(struct ab *ab)
{
    if (ab->nl_step && ab->nodes - ab->nl_last >= ab->nl_step && !ab->stopped)
        node_limit_shared(ab);
    /* the flags are relaxed loads: at every node; the clock less often.
     * The main search ends its depth 1 before `stop` or the clock end it
     * (nl_hold): the move is then a searched one, a few milliseconds at most */
    if (ab->req &&
        ((!ab->nl_hold && search_stopped(ab->req)) ||
         (ab->end && atomic_load_explicit(ab->end, memory_order_relaxed)) ||
         atomic_load_explicit(&ab->helper_reached, memory_order_relaxed)))
        ab->stopped = 1;
    if ((ab->nodes & AB_CLOCK_MASK) != 0 || ab->stopped)
        return;
    if (ab->id) { /* a helper: no clock, no limit; its count for the main search */
        if ((ab->nodes & AB_NODES_MASK) == 0)
            atomic_store_explicit(&ab->nodes_seen, ab->nodes, memory_order_relaxed);
        return;
    }
    if (ab->tm && !ab->nl_hold && tm_hard_stop(ab->tm))
        ab->stopped = 1;
    else if ((ab->nodes & AB_NODES_MASK) == 0 && ab->node_limit &&
             total_nodes(ab) >= ab->node_limit)
        ab->stopped = 1;
}

/* Proven lost by the root solve (helpers may run during it: the count is
 * published after the moves). */
static int proven_lost(const struct ab *ab, gmove m)
{
    const struct ab *main = ab->main ? ab->main : ab;
    int nlost = atomic_load_explicit(&main->nlost, memory_order_acquire);
    for (int i = 0; i < nlost; i++)
        if (main->lostmv[i] == m)
            return 1;
    return 0;
}

static int excluded(const struct ab *ab, gmove m)
{
    for (int i = 0; i < ab->nexcluded; i++)
        if (ab->excluded[i] == m)
            return 1;
    return proven_lost(ab, m);
}

/* A quiet move's history score: the table of this thread, or the main
 * search's when the helpers share it (ab_params.shared_history); read
 * atomically, as another thread may be writing it. */
static int hist_get(const struct ab *ab, int side, gmove m)
{
    return __atomic_load_n(&ab->hist[side][ab->ops->move_key(m)], __ATOMIC_RELAXED);
}

/* Order moves: TT move, tactical, killers, history.  Selection sort on use.
 * Up to AB_MARK_MAX moves are classified by the game's mark_tactical in one
 * call (a node with more asks move by move). */
#define AB_MARK_MAX 1024
static void score_moves(struct ab *ab, const void *st, const gmove *mv, int *sc, int n,
                        uint32_t ttmove, int ply, int side)
{
    unsigned char tac[AB_MARK_MAX];
    const int batch = ab->ops->mark_tactical && n <= AB_MARK_MAX;
    if (batch)
        ab->ops->mark_tactical(st, mv, n, tac);
    for (int i = 0; i < n; i++) {
        uint32_t m32 = (uint32_t)mv[i];
        if (m32 == ttmove)
            sc[i] = AB_ORDER_TT;
        else if (batch ? tac[i] : ab->ops->is_tactical && ab->ops->is_tactical(st, mv[i]))
            sc[i] = AB_ORDER_TACTICAL + hist_get(ab, side, mv[i]);
        else if (m32 == ab->killers[ply][0])
            sc[i] = AB_ORDER_KILLER1;
        else if (m32 == ab->killers[ply][1])
            sc[i] = AB_ORDER_KILLER2;
        else
            sc[i] = hist_get(ab, side, mv[i]);
    }
}

static gmove pick(gmove *mv, int *sc, int n, int i)
{
    int b = i;
    for (int j = i + 1; j < n; j++)
        if (sc[j] > sc[b])
            b = j;
    if (b != i) {
        gmove t = mv[i];
        int s = sc[i];
        mv[i] = mv[b];
        sc[i] = sc[b];
        mv[b] = t;
        sc[b] = s;
    }
    return mv[i];
}

/* ab_sort_moves: mv[from..n) by score, best first; among equal scores the one later
 * in the list first (a fixed order, as pick's swaps were: pick also tends
 * to bring late moves forward).  Each move becomes one key, score above and
 * position below, merge-sorted descending.  pick costs n - i compares a
 * move, so a node that tries all its moves pays n^2 / 2: a fifth of a
 * Fetlar search's time before this. */
void ab_sort_moves(struct ab *ab, gmove *mv, int *sc, int from, int n)
{
    int len = n - from;
    uint64_t *k = ab->sortkeys, *tmp = ab->sortkeys + ab->game->max_moves;
    if (len < 2)
        return;
    for (int i = 0; i < len; i++)
        k[i] = (uint64_t)((uint32_t)sc[from + i] ^ 0x80000000u) << 32 | (uint32_t)(i + 1);
    for (int w = 1; w < len; w *= 2) {
        for (int lo = 0; lo < len; lo += 2 * w) {
            int mid = lo + w < len ? lo + w : len, hi = lo + 2 * w < len ? lo + 2 * w : len;
            int a = lo, b = mid, o = lo;
            while (a < mid && b < hi)
                tmp[o++] = k[a] >= k[b] ? k[a++] : k[b++];
            while (a < mid)
                tmp[o++] = k[a++];
            while (b < hi)
                tmp[o++] = k[b++];
        }
        uint64_t *t = k;
        k = tmp;
        tmp = t;
    }
    memcpy(ab->sortmoves, mv + from, (size_t)len * sizeof *mv);
    for (int i = 0; i < len; i++) {
        int src = (int)(uint32_t)k[i] - 1;
        mv[from + i] = ab->sortmoves[src];
        sc[from + i] = (int)((uint32_t)(k[i] >> 32) ^ 0x80000000u);
    }
}

/* The i-th move to try: picked while few have been tried, from the sorted
 * rest after. */
static gmove next_move(struct ab *ab, gmove *mv, int *sc, int n, int i)
{
    if (i < AB_PICK_LAZY)
        return pick(mv, sc, n, i);
    if (i == AB_PICK_LAZY)
        ab_sort_moves(ab, mv, sc, i, n);
    return mv[i];
}

/* Is the move scored sc by score_moves tactical?  Its band says so, except
 * for the TT move, whose band hides it. */
static int scored_tactical(const struct ab *ab, const void *st, gmove m, int sc)
{
    if (sc >= AB_ORDER_TT)
        return ab->ops->is_tactical && ab->ops->is_tactical(st, m);
    return sc >= AB_ORDER_TACTICAL - AB_HIST_MAX;
}

static void update_history(struct ab *ab, int side, gmove m, int bonus)
{
    /* with a shared table (shared_history) another thread may update the
     * entry between the load and the store: one of the two updates is
     * lost, which only blurs an ordering score */
    int16_t *h = &ab->hist[side][ab->ops->move_key(m)];
    int old = __atomic_load_n(h, __ATOMIC_RELAXED);
    int v = old + bonus - old * abs(bonus) / AB_HIST_GRAVITY;
    __atomic_store_n(h, (int16_t)(v > AB_HIST_MAX ? AB_HIST_MAX : v < -AB_HIST_MAX ? -AB_HIST_MAX : v),
                     __ATOMIC_RELAXED);
}

/* The busy table's hash of (position, move): never 0 (an empty slot). */
static uint64_t busy_hash(uint64_t key, gmove m)
{
    uint64_t h = key ^ ((uint64_t)(uint32_t)m + 1) * 0x9e3779b97f4a7c15u;
    return h ? h : 1;
}

static int busy_marked(const struct ab *ab, uint64_t h)
{
    return atomic_load_explicit(&ab->busy_use[h & (AB_BUSY_SLOTS - 1)], memory_order_relaxed) == h;
}

/* ---- quiescence ---------------------------------------------------------------- */
static int qsearch(struct ab *ab, int ply, int alpha, int beta)
{
    const void *st = ply_state(ab, ply);
    gmove *mv = ply_moves(ab, ply);
    int *sc = ply_scores(ab, ply), n, outcome, best;
    ab->nodes++;
    check_time(ab);
    if (ab->stopped)
        return 0;
    if (ply > ab->seldepth)
        ab->seldepth = ply;
    if (terminal(ab, st, &outcome))
        return outcome > 0 ? AB_WIN - ply : outcome < 0 ? -AB_WIN + ply : draw_score(ab, ply);
    best = static_eval(ab, st);
    if (best >= beta || ply >= AB_MAX_PLY - 1)
        return best;
    if (best > alpha)
        alpha = best;
    n = ab->ops->gen_tactical(st, mv, ab->game->max_moves);
    for (int i = 0; i < n; i++)
        sc[i] = hist_get(ab, ab->game->to_move(st) - 1, mv[i]);
    for (int i = 0; i < n; i++) {
        gmove m = pick(mv, sc, n, i);
        void *child = ply_state(ab, ply + 1);
        memcpy(child, st, ab->game->state_size);
        ab->game->play(child, m);
        int s = -qsearch(ab, ply + 1, -beta, -alpha);
        if (ab->stopped)
            return 0;
        if (s > best) {
            best = s;
            if (s > alpha)
                alpha = s;
            if (s >= beta)
                break;
        }
    }
    return best;
}

/* ---- the main search ------------------------------------------------------------- */
static int search(struct ab *ab, int ply, int depth, int alpha, int beta, int null_ok)
{
    const void *st = ply_state(ab, ply);
    const int pvnode = beta - alpha > 1, root = ply == 0;
    gmove *mv = ply_moves(ab, ply);
    int *sc = ply_scores(ab, ply), n, outcome, best = -INF, side, legal = 0, eval;
    uint32_t ttmove = 0, bestmove = 0;
    uint64_t key = ab->game->hash(st);
    struct tt_entry tte, *te;
    int orig_alpha = alpha;

    ab->pvlen[ply] = 0;
    if (!root) {
        if (terminal(ab, st, &outcome))
            return outcome > 0 ? AB_WIN - ply : outcome < 0 ? -AB_WIN + ply : draw_score(ab, ply);
        if (is_repetition(ab))
            return draw_score(ab, ply);
        /* mate distance pruning */
        if (alpha < -AB_WIN + ply)
            alpha = -AB_WIN + ply;
        if (beta > AB_WIN - ply - 1)
            beta = AB_WIN - ply - 1;
        if (alpha >= beta)
            return alpha;
    }
    if (depth <= 0 || ply >= AB_MAX_PLY - 1) {
        if (ab->ops->gen_tactical && ply < AB_MAX_PLY - 1)
            return qsearch(ab, ply, alpha, beta);
        ab->nodes++;
        if (ply > ab->seldepth)
            ab->seldepth = ply;
        return static_eval(ab, st);
    }
    ab->nodes++;
    check_time(ab);
    if (ab->stopped)
        return 0;
    if (ply > ab->seldepth)
        ab->seldepth = ply;

    te = tt_probe(ab->ttp, key, &tte) ? &tte : NULL;
    if (te) {
        ttmove = te->move;
        if (!pvnode && te->depth >= depth) {
            int s = score_from_tt(te->score, ply), b = te->flags & 3;
            if (b == TT_EXACT || (b == TT_LOWER && s >= beta) || (b == TT_UPPER && s <= alpha))
                return s;
        }
    }
    eval = te ? te->eval : static_eval(ab, st);
    side = ab->game->to_move(st) - 1;

    /* reverse futility: far above beta near the leaves */
    if (!pvnode && !root && depth <= AB_RFP_MAX_DEPTH && abs(beta) < AB_WIN_BOUND &&
        eval - ab->par.futility_margin * depth >= beta)
        return eval;

    /* null move */
    if (!pvnode && !root && null_ok && ab->ops->null_move && depth >= ab->par.null_min_depth &&
        eval >= beta && abs(beta) < AB_WIN_BOUND) {
        int r = ab->par.null_reduction + depth / AB_NULL_DEPTH_DIV;
        void *child = ply_state(ab, ply + 1);
        memcpy(child, st, ab->game->state_size);
        ab->ops->null_move(child);
        path_push(ab, ab->game->hash(child));
        int s = -search(ab, ply + 1, depth - 1 - r, -beta, -beta + 1, 0);
        ab->npath--;
        if (ab->stopped)
            return 0;
        if (s >= beta)
            return s >= AB_WIN_BOUND ? beta : s;
    }

    /* more than max_moves is the game's internal error, not a loss */
    n = game_gen_moves(ab->game, st, mv);
    if (n == 0)
        return -AB_WIN + ply; /* no legal move loses (terminal() saw none) */
    score_moves(ab, st, mv, sc, n, ttmove, ply, side);

    /* Threads > 1: moves another thread is in, searched last (AB_DEFER_DEPTH) */
    const int defer_ok = ab->busy_use && depth >= AB_DEFER_DEPTH;
    int ndefer = 0;
    short defer[AB_DEFER_MAX];
    for (int k = 0; k < n + ndefer; k++) {
        int i = k < n ? k : defer[k - n];
        gmove m = k < n ? next_move(ab, mv, sc, n, i) : mv[i];
        void *child;
        int s, newdepth = depth - 1, tactical, reduce = 0;
        uint64_t bh = 0;
        if (root && excluded(ab, m))
            continue;
        tactical = scored_tactical(ab, st, m, sc[i]);
        /* near the leaves, quiet moves that cannot matter: the tail of the
         * list (late-move pruning), or all of them when even a margin over
         * the evaluation stays below alpha (futility) */
        if (!pvnode && !root && !tactical && sc[i] < AB_ORDER_KILLER2 &&
            best > -AB_WIN_BOUND && legal > 0) {
            if (depth <= ab->par.lmp_depth && legal >= ab->par.lmp_moves * depth * depth)
                continue;
            if (depth <= ab->par.fut_depth && abs(alpha) < AB_WIN_BOUND &&
                eval + ab->par.fut_margin * depth <= alpha)
                continue;
        }
        if (defer_ok) {
            bh = busy_hash(key, m);
            if (k < n && legal > 0 && ndefer < AB_DEFER_MAX && busy_marked(ab, bh)) {
                defer[ndefer++] = (short)i;
                continue;
            }
            atomic_store_explicit(&ab->busy_use[bh & (AB_BUSY_SLOTS - 1)], bh,
                                  memory_order_relaxed);
        }
        child = ply_state(ab, ply + 1);
        memcpy(child, st, ab->game->state_size);
        ab->game->play(child, m);
        path_push(ab, ab->game->hash(child));
        if (newdepth > 0)
            tt_prefetch(ab->ttp, ab->path[ab->npath - 1]); /* the child probes it */
        legal++;
        if (legal > 1 && depth >= ab->par.lmr_min_depth && legal > ab->par.lmr_min_moves &&
            !tactical && sc[i] < AB_ORDER_KILLER2) {
            reduce = lmr_table[depth < 64 ? depth : 63][legal < 64 ? legal : 63];
            if (pvnode)
                reduce -= AB_LMR_PV_LESS;
            if (reduce < 0)
                reduce = 0;
            if (reduce > newdepth - 1)
                reduce = newdepth - 1 > 0 ? newdepth - 1 : 0;
        }
        if (legal == 1)
            s = -search(ab, ply + 1, newdepth, -beta, -alpha, 1);
        else {
            s = -search(ab, ply + 1, newdepth - reduce, -alpha - 1, -alpha, 1);
            if (reduce && s > alpha && !ab->stopped)
                s = -search(ab, ply + 1, newdepth, -alpha - 1, -alpha, 1);
            if (pvnode && s > alpha && s < beta && !ab->stopped)
                s = -search(ab, ply + 1, newdepth, -beta, -alpha, 1);
        }
        ab->npath--;
        if (bh && busy_marked(ab, bh))
            atomic_store_explicit(&ab->busy_use[bh & (AB_BUSY_SLOTS - 1)], 0,
                                  memory_order_relaxed);
        if (ab->stopped)
            return 0;
        if (root && m == ab->root_prev)
            ab->root_prev_done = 1;
        if (s > best) {
            best = s;
            if (s > alpha) {
                alpha = s;
                if (root)
                    ab->root_score = s;
                bestmove = (uint32_t)m;
                ab->pv[ply][0] = m;
                memcpy(&ab->pv[ply][1], ab->pv[ply + 1], (size_t)ab->pvlen[ply + 1] * sizeof(gmove));
                ab->pvlen[ply] = ab->pvlen[ply + 1] + 1;
                if (s >= beta) {
                    if (!tactical) {
                        if (ab->killers[ply][0] != (uint32_t)m) {
                            ab->killers[ply][1] = ab->killers[ply][0];
                            ab->killers[ply][0] = (uint32_t)m;
                        }
                        update_history(ab, side, m, depth * depth);
                        /* the quiet moves tried before lose credit */
                        for (int j = 0; j < i; j++)
                            if (!scored_tactical(ab, st, mv[j], sc[j]))
                                update_history(ab, side, mv[j], -depth * depth);
                    }
                    break;
                }
            }
        }
    }
    if (!legal)
        return alpha; /* every root move excluded (multipv) */
    tt_store(ab->ttp, key, bestmove, score_to_tt(best, ply), eval, depth,
             best >= beta ? TT_LOWER : best > orig_alpha ? TT_EXACT : TT_UPPER);
    return best;
}

/* ---- driver --------------------------------------------------------------------- */
static void format_score(char *buf, size_t n, int s)
{
    if (s >= AB_WIN_BOUND)
        snprintf(buf, n, "win %d", AB_WIN - s);
    else if (s <= -AB_WIN_BOUND)
        snprintf(buf, n, "loss %d", AB_WIN + s);
    else
        snprintf(buf, n, "cp %d", s);
}

static void report(struct ab *ab, struct timeman *tm, int depth, int mpv, int score,
                   const gmove *pv, int pvlen)
{
    char line[4096], sc[32], tok[64];
    size_t len = 0;
    game_state_buf st;
    uint64_t nodes = total_nodes(ab);
    int64_t us = tm_elapsed_us(tm);
    if (us < 1)
        us = 1;
    format_score(sc, sizeof sc, score);
    buf_printf(line, sizeof line, &len,
               "depth %d seldepth %d multipv %d score %s nodes %llu nps %llu time %lld hashfull %d pv",
               depth, ab->seldepth, mpv, sc, (unsigned long long)nodes,
               (unsigned long long)(nodes * 1000000ULL / (uint64_t)us), (long long)(us / 1000),
               tt_hashfull(ab->ttp));
    memcpy(st.b, ab->req->pos, ab->game->state_size);
    for (int i = 0; i < pvlen; i++) {
        ab->game->format_move(st.b, pv[i], tok, sizeof tok);
        buf_printf(line, sizeof line, &len, " %s", tok);
        ab->game->play(st.b, pv[i]);
    }
    search_info(ab->req, "%s", line);
}

static void setup_path(struct ab *ab, const struct search_req *req)
{
    ab->npath = 0;
    for (int i = 0; i < req->nhist; i++)
        path_push(ab, req->hist[i]);
    path_push(ab, ab->game->hash(req->pos));
}

/* One root search at depth: with an aspiration window around score when
 * window is set (and the depth and score allow one), widened on a fail. */
static int root_search(struct ab *ab, int depth, int score, int window)
{
    int alpha = -INF, beta = INF, delta = ab->par.aspiration, s;
    if (window && depth >= AB_ASP_MIN_DEPTH && delta && abs(score) < AB_WIN_BOUND) {
        alpha = score - delta;
        beta = score + delta;
    }
    for (;;) {
        ab->root_prev_done = 0;
        s = search(ab, 0, depth, alpha, beta, 0);
        if (ab->stopped)
            break;
        if (s <= alpha) {
            beta = (alpha + beta) / 2;
            alpha = s - delta > -INF ? s - delta : -INF;
        } else if (s >= beta)
            beta = s + delta < INF ? s + delta : INF;
        else
            break;
        delta += delta / 2 + AB_ASP_GROW;
        if (delta > AB_ASP_MAX)
            alpha = -INF, beta = INF;
    }
    return s;
}

/* ---- Lazy SMP helpers ------------------------------------------------------------- */
/* A helper's search: iterative deepening from the main search's depth (or
 * one more), without output, until the main search ends it (or a proven result
 * stands, or the deepest depth is done).  Its results reach the main search
 * through the table only.  No depth limit: `go depth` binds the main search,
 * and a helper ahead of it fills the table with deeper entries. */
static void *helper_run(void *arg)
{
    struct ab *h = arg;
    int score = 0;
    gmove best = GAME_MOVE_NONE;
    for (int depth = 1; depth <= AB_MAX_PLY - 2; depth++) {
        /* odd helpers one depth ahead of the main search, even ones at its
         * depth; never back, never a depth twice */
        int md = atomic_load_explicit(&h->main->cur_depth, memory_order_relaxed) +
                 (h->id & 1 ? h->par.helper_ahead : 0);
        if (md > depth)
            depth = md;
        if (depth > AB_MAX_PLY - 2)
            break;
        h->seldepth = 0;
        h->nexcluded = 0;
        h->root_prev = best;
        int s = root_search(h, depth, score, 1);
        if (h->stopped || h->pvlen[0] == 0)
            break;
        best = h->pv[0][0];
        score = s;
        /* a completed iteration deeper than any other helper's (up to the
         * depth `go depth` asked for): the main search may take its move;
         * that depth reached ends the search */
        pthread_mutex_lock(&h->main->done_lock);
        if (depth > h->main->done_depth && depth <= h->helper_maxdepth) {
            h->main->done_depth = depth;
            h->main->done_seldepth = h->seldepth;
            h->main->done_score = s;
            h->main->done_pvlen = h->pvlen[0];
            memcpy(h->main->done_pv, h->pv[0], (size_t)h->pvlen[0] * sizeof(gmove));
        }
        pthread_mutex_unlock(&h->main->done_lock);
        if (depth >= h->helper_maxdepth)
            atomic_store_explicit(&h->main->helper_reached, true, memory_order_relaxed);
        if (abs(score) >= AB_WIN_BOUND && depth > AB_WIN - abs(score) + 2 &&
            !h->req->lim.infinite)
            break;
    }
    atomic_store_explicit(&h->nodes_seen, h->nodes, memory_order_relaxed);
    return NULL;
}

/* The threads a search uses: all of them, but with a node limit no more
 * than one per AB_NL_HELPER_NODES of it beyond the first (a helper with
 * less to search costs more to start than it adds). */
static int search_threads(const struct ab *ab, uint64_t limit)
{
    if (!limit || ab->threads < 2)
        return ab->threads;
    uint64_t most = 1 + limit / AB_NL_HELPER_NODES;
    return most < (uint64_t)ab->threads ? (int)most : ab->threads;
}

/* The step of the shared node limit (AB_NL_SHARE): 0 with one thread or
 * no limit. */
static uint64_t node_limit_step(const struct ab *ab, uint64_t limit)
{
    if (ab->active < 2 || !limit)
        return 0;
    uint64_t want = limit / ((uint64_t)AB_NL_SHARE * (uint64_t)ab->active), step = 1;
    while (step * 2 <= want && step * 2 <= AB_NODES_MASK + 1)
        step *= 2;
    return step;
}

static void start_helpers(struct ab *ab, const struct search_req *req, int maxdepth)
{
    atomic_store_explicit(&ab->helpers_end, false, memory_order_relaxed);
    atomic_store_explicit(&ab->helper_reached, false, memory_order_relaxed);
    atomic_store_explicit(&ab->cur_depth, 1, memory_order_relaxed);
    ab->done_depth = 0;
    ab->done_pvlen = 0;
    for (int i = 0; i < ab->threads - 1; i++) {
        struct ab *h = &ab->helpers[i];
        atomic_store_explicit(&h->nodes_seen, 0, memory_order_relaxed);
        h->thread_live = 0;
        if (i >= ab->active - 1)
            continue; /* not needed by this search (search_threads) */
        h->par = ab->par;
        h->ttp = &ab->tt;
        h->hist = ab->par.shared_history ? ab->history : h->history;
        h->busy_use = ab->busy_use;
        h->req = req;
        h->tm = NULL;
        h->nodes = 0;
        atomic_store_explicit(&h->nodes_seen, 0, memory_order_relaxed);
        h->stopped = 0;
        h->node_limit = 0;
        h->nl_step = ab->nl_step;
        h->nl_limit = ab->nl_limit;
        h->nl_hold = 0;
        h->nl_last = 0;
        h->root_seat = ab->root_seat;
        h->helper_maxdepth = maxdepth;
        memcpy(ply_state(h, 0), req->pos, ab->game->state_size);
        setup_path(h, req);
        memset(h->killers, 0, sizeof h->killers);
        /* a thread the system refuses: one helper fewer, not an error */
        h->thread_live = pthread_create(&h->thread, NULL, helper_run, h) == 0;
    }
}

static void end_helpers(struct ab *ab)
{
    atomic_store_explicit(&ab->helpers_end, true, memory_order_relaxed);
    for (int i = 0; i < ab->threads - 1; i++) {
        struct ab *h = &ab->helpers[i];
        if (h->thread_live)
            pthread_join(h->thread, NULL);
        h->thread_live = 0;
        h->req = NULL;
    }
}

/* One line of a multipv iteration, kept until the iteration's lines are
 * all searched (or the search stops), then shown best first. */
struct mpv_line {
    int score, len;
    gmove pv[AB_MAX_PLY + 1];
};

static void mpv_keep(struct mpv_line *l, int score, const gmove *pv, int len)
{
    l->score = score;
    l->len = len;
    memcpy(l->pv, pv, (size_t)len * sizeof *pv);
}

/* Best first; equal scores keep their search order (insertion sort). */
static void mpv_sort(struct mpv_line *l, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && l[j].score > l[j - 1].score; j--) {
            struct mpv_line t = l[j];
            l[j] = l[j - 1];
            l[j - 1] = t;
        }
}

int ab_solver(struct ab *ab)
{
    static const struct pns_ops none;
    struct pns_ops ops = none;
    if (ab->pns)
        return 0;
    if (!(ab->pns = malloc(sizeof *ab->pns)))
        return -1;
    ops.terminal = ab->ops->terminal;
    ops.key = ab->ops->solve_key;
    if (pns_init(ab->pns, ab->game, &ops, ab->pns_mb)) {
        free(ab->pns);
        ab->pns = NULL;
        return -1;
    }
    return 0;
}

gmove ab_solve(struct ab *ab, const struct search_req *req)
{
    if (ab_solver(ab)) {
        search_info(req, "string cannot allocate %zu MiB for the solver's table", ab->pns_mb);
        return GAME_MOVE_NONE;
    }
    return pns_go(ab->pns, req);
}

/* The root solve before iterative deepening (AB_ROOT_PNS_NODES): the moves
 * it proves lost go to ab->lostmv unless every move is lost; *pres its
 * result (PNS_UNKNOWN when it did not run). */
static void root_solve(struct ab *ab, const struct search_req *req, const struct timeman *tm,
                       const gmove *rootmv, int nroot, int multipv, struct pns_result *pres)
{
    uint64_t budget = (uint64_t)ab->par.root_pns * AB_ROOT_PNS_UNIT;
    unsigned char *lost;
    int nl = 0;
    int64_t deadline = 0;
    memset(pres, 0, sizeof *pres);
    pres->status = PNS_UNKNOWN;
    pres->move = GAME_MOVE_NONE;
    if (ab->node_limit && ab->node_limit / 10 < budget)
        budget = ab->node_limit / 10;
    if (ab->prev_score != INT_MIN && abs(ab->prev_score) < ab->par.root_pns_cp)
        return; /* balanced when last searched: no proof near */
    if (!budget || nroot < 2 || multipv > 1 || ab_solver(ab) || !(lost = malloc((size_t)nroot)))
        return;
    /* an eighth of the hard limit at most, none while pondering */
    if (tm->hard_us >= 0 && !(req->pondering && atomic_load(req->pondering)))
        deadline = tm->start_us + tm->hard_us / 8 + 1;
    pns_root_check(ab->pns, req->pos, req->hist, req->nhist, budget,
                   deadline, req->stop, rootmv, nroot, lost, pres);
    for (int i = 0; i < nroot; i++)
        nl += lost[i];
    if (nl < nroot) {
        int k = 0;
        for (int i = 0; i < nroot; i++)
            if (lost[i])
                ab->lostmv[k++] = rootmv[i];
        atomic_store_explicit(&ab->nlost, k, memory_order_release);
    }
    ab->nodes += pres->nodes;
    free(lost);
}

gmove ab_go(struct ab *ab, const struct search_req *req, gmove *ponder)
{
    struct pns_result pres;
    struct timeman tm;
    gmove best = GAME_MOVE_NONE, *rootmv = ply_moves(ab, AB_MAX_PLY + 1);
    gmove bestpv[AB_MAX_PLY + 1];
    int bestpvlen = 0, score = 0, stable = 0, maxdepth, nroot, multipv, completed = 0;
    int nlines = 0;
    struct mpv_line *mpv = NULL; /* the lines of an iteration (multipv > 1) */

    assert(ab->id == 0);
    tm_init(&tm, req, ab->game->to_move(req->pos));
    ab->req = req;
    ab->tm = &tm;
    ab->nodes = 0;
    ab->stopped = 0;
    ab->node_limit = req->lim.nodes;
    ab->active = search_threads(ab, req->lim.nodes);
    ab->busy_use = ab->active > 1 ? ab->busy : NULL;
    ab->nl_step = node_limit_step(ab, req->lim.nodes);
    ab->nl_limit = req->lim.nodes;
    ab->nl_hold = 1;
    ab->nl_last = 0;
    atomic_store_explicit(&ab->nl_total, 0, memory_order_relaxed);
    atomic_store_explicit(&ab->nl_reached, false, memory_order_relaxed);
    if (ab->par.contempt && ab->game->to_move(req->pos) != ab->root_seat)
        tt_clear(&ab->tt); /* stored draw scores hold the other side's contempt */
    ab->root_seat = ab->game->to_move(req->pos);
    tt_new_search(&ab->tt);
    memcpy(ply_state(ab, 0), req->pos, ab->game->state_size);
    setup_path(ab, req);
    memset(ab->killers, 0, sizeof ab->killers);
    nroot = game_gen_moves(ab->game, req->pos, rootmv);
    *ponder = GAME_MOVE_NONE;
    if (nroot <= 0)
        return GAME_MOVE_NONE;
    best = rootmv[0];
    multipv = req->lim.multipv < nroot ? req->lim.multipv : nroot;
    if (multipv > AB_MAX_MULTIPV)
        multipv = AB_MAX_MULTIPV;
    if (multipv > 1 && !(mpv = calloc((size_t)multipv, sizeof *mpv)))
        multipv = 1; /* no room for the lines: the best one alone */
    maxdepth = req->lim.depth > 0 ? req->lim.depth : AB_MAX_PLY - 2;
    if (maxdepth > AB_MAX_PLY - 2)
        maxdepth = AB_MAX_PLY - 2;
    /* the helpers search while the root solve runs (they read the moves it
     * proves lost once it has published them) */
    atomic_store_explicit(&ab->nlost, 0, memory_order_relaxed);
    start_helpers(ab, req, maxdepth);
    root_solve(ab, req, &tm, rootmv, nroot, multipv, &pres);
    for (int i = 0; i < nroot && atomic_load_explicit(&ab->nlost, memory_order_relaxed); i++)
        if (!excluded(ab, rootmv[i])) {
            best = rootmv[i]; /* a move not proven lost, should no iteration end */
            break;
        }
    if (pres.status == PNS_WIN && maxdepth > pres.plies + 2)
        maxdepth = pres.plies + 2; /* alpha-beta's own proof, if any, by then */

    for (int depth = 1; depth <= maxdepth; depth++) {
        atomic_store_explicit(&ab->cur_depth, depth, memory_order_relaxed);
        ab->seldepth = 0;
        ab->nexcluded = 0;
        for (int k = 0; k < multipv; k++) {
            int s;
            ab->root_prev = depth > 1 ? best : GAME_MOVE_NONE;
            s = root_search(ab, depth, score, k == 0);
            if (ab->stopped && k == 0 && ab->root_prev_done && ab->pvlen[0] > 0) {
                /* stopped mid-iteration (the hard stop of movetime, stop,
                 * nodes): the move in pv[0] was searched to the end at this
                 * depth and scored best among those searched, the previous
                 * iteration's best among them, so it is at least as good;
                 * its line is shown, so the bestmove is the last pv's */
                best = ab->pv[0][0];
                bestpvlen = ab->pvlen[0];
                memcpy(bestpv, ab->pv[0], (size_t)bestpvlen * sizeof(gmove));
                report(ab, &tm, depth, 1, ab->root_score, bestpv, bestpvlen);
            }
            if (ab->stopped || ab->pvlen[0] == 0)
                break;
            if (k == 0) {
                completed = depth;
                ab->nl_hold = 0;
                stable = ab->pv[0][0] == best ? stable + 1 : 0;
                best = ab->pv[0][0];
                score = s;
                bestpvlen = ab->pvlen[0];
                memcpy(bestpv, ab->pv[0], (size_t)bestpvlen * sizeof(gmove));
            }
            if (multipv == 1)
                report(ab, &tm, depth, 1, s, ab->pv[0], ab->pvlen[0]);
            else
                mpv_keep(&mpv[k], s, ab->pv[0], ab->pvlen[0]);
            ab->excluded[ab->nexcluded++] = ab->pv[0][0];
            nlines = k + 1;
        }
        if (multipv > 1 && nlines > 0) {
            /* A later line can score above an earlier one (the first
             * search proved less about it, under pruning and the window):
             * the lines are shown best first, and the best is the move. */
            mpv_sort(mpv, nlines);
            for (int k = 0; k < nlines; k++)
                report(ab, &tm, depth, k + 1, mpv[k].score, mpv[k].pv, mpv[k].len);
            if (completed == depth) {
                if (mpv[0].pv[0] != best)
                    stable = 0;
                best = mpv[0].pv[0];
                score = mpv[0].score;
                bestpvlen = mpv[0].len;
                memcpy(bestpv, mpv[0].pv, (size_t)bestpvlen * sizeof(gmove));
            }
            nlines = 0;
        }
        if (ab->stopped)
            break;
        if (abs(score) >= AB_WIN_BOUND && depth > AB_WIN - abs(score) + 2 && !req->lim.infinite)
            break; /* the proven result will not change */
        if (!tm_continue(&tm, stable / (double)AB_STABLE_ITERATIONS))
            break;
    }
    end_helpers(ab);
    if (pres.status == PNS_WIN && pres.move != GAME_MOVE_NONE &&
        !(completed && score >= AB_WIN_BOUND && AB_WIN - score <= pres.plies) &&
        !(ab->done_depth > completed && ab->done_score >= AB_WIN_BOUND &&
          AB_WIN - ab->done_score <= pres.plies)) {
        /* the solver proved a win alpha-beta did not see (as short): its
         * move, with its exact or bounded distance */
        best = pres.move;
        bestpv[0] = best;
        bestpvlen = 1;
        ab->done_depth = 0;
        report(ab, &tm, completed > 0 ? completed : 1, 1, AB_WIN - pres.plies, bestpv, 1);
    }
    if (ab->done_depth > completed && multipv == 1 && ab->done_pvlen > 0 &&
        !proven_lost(ab, ab->done_pv[0])) {
        /* a helper completed a deeper iteration than the main search: the
         * deepest completed result is the move */
        best = ab->done_pv[0];
        bestpvlen = ab->done_pvlen;
        memcpy(bestpv, ab->done_pv, (size_t)bestpvlen * sizeof(gmove));
        ab->seldepth = ab->done_seldepth;
        report(ab, &tm, ab->done_depth, 1, ab->done_score, bestpv, bestpvlen);
    }
    free(mpv);
    if (completed > 0)
        ab->prev_score = score;
    if (bestpvlen > 1)
        *ponder = bestpv[1];
    ab->req = NULL;
    ab->tm = NULL;
    return best;
}

uint64_t ab_nodes(const struct ab *ab) { return total_nodes(ab); }

uint64_t ab_bench_position(struct ab *ab, const void *st, int depth)
{
    struct search_req req;
    atomic_bool stop = false;
    gmove ponder;
    memset(&req, 0, sizeof req);
    limits_clear(&req.lim);
    req.lim.depth = depth;
    req.game = ab->game;
    req.pos = st;
    req.start_us = now_us();
    req.stop = &stop;
    ab_go(ab, &req, &ponder);
    return total_nodes(ab);
}
