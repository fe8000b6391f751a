/* engine.c - medan-hnefatafl: libhnefatafl's search behind MEP, playing
 * Fetlar by Medan's rules (docs/games/fetlar.md, "libhnefatafl").  Built
 * only by `make hnef HNEF_DIR=...`; links the library, contains none of it.
 *
 * The rules are Medan's: the MEP session (protocol/mep.c) parses positions
 * and moves with fetlar_game and knows the legal moves and the result.  At
 * every `go` the adapter rebuilds libhnefatafl's board from Medan's, hands
 * it the libhnefatafl hashes of the game's earlier positions (so its
 * repetition rule sees them) and runs its iterative deepening.  It plays
 * only a move that is legal in Fetlar:
 *   - a king move to a corner when there is one (libhnefatafl already counts
 *     a king beside a corner as escaped and returns no move there);
 *   - else libhnefatafl's best move when Fetlar allows it;
 *   - else (no move: it thinks the game is over, e.g. an exit fort or an
 *     encirclement; or a move Fetlar refuses) the fallback: the first legal
 *     move that captures, else the first legal move.  Every fallback is
 *     counted on stderr.
 * No administrative endings (resign, draw offers): the search is called
 * directly. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../../core/util.h"
#include "../../engines/fetlar/fetlar.h"
#include "../../protocol/engine.h"
#include "../../protocol/mep.h"

/* module.mk renames the library's tt_* (Medan has its own tt_clear, ...). */
#define tt_create hnef_tt_create
#define tt_destroy hnef_tt_destroy
#define tt_clear hnef_tt_clear
#define tt_new_generation hnef_tt_new_generation
#define tt_store hnef_tt_store
#define tt_probe hnef_tt_probe
#include <board.h>
#include <layer.h>
#include <search.h>
#include <transposition_table.h>
#include <types.h>
#include <zobrist.h>

/* libhnefatafl's search_trusted stops at depth 8; so do we unless `go depth`. */
#define HN_DEFAULT_DEPTH 8
/* Its PV tables hold 32 plies, quiescence included. */
#define HN_MAX_DEPTH 16
/* Medan hash -> libhnefatafl hash of every position met (open addressing). */
#define HN_CACHE (1u << 15)

struct hnef_engine {
    int64_t hash_mb;
    int64_t seed;
    char strategy[OPT_STR_LEN];
    transposition_table *tt;
    int64_t tt_mb;
    struct rng rng;
    unsigned ncache;
    uint64_t key[HN_CACHE], val[HN_CACHE];
    unsigned long fallbacks, moves;
};

/* ---- the two boards ------------------------------------------------------ */

/* Medan's square r*11+c (c = file, a = 0) and libhnefatafl's index name the
 * same square with the files mirrored: r*11 + (10-c).  The map is its own
 * inverse. */
static int sq_map(int sq) { return sq / FETLAR_N * FETLAR_N + (FETLAR_N - 1 - sq % FETLAR_N); }

static board to_hnef(const struct fetlar_state *s)
{
    compact_board cb;
    memset(&cb, 0, sizeof cb);
    for (int sq = 0; sq < FETLAR_SQ; sq++) {
        int i = sq_map(sq);
        if (s->board[sq] == FETLAR_ATT)
            SET_INDEX(cb.black, i);
        else if (s->board[sq] == FETLAR_DEF)
            SET_INDEX(cb.white, i);
        else if (s->board[sq] == FETLAR_KING)
            cb.king = (u8)i;
    }
    return from_compact(&cb);
}

static uint64_t hnef_hash(const struct fetlar_state *s)
{
    return hash_for_board(to_hnef(s), s->side == FETLAR_BLACK);
}

static void cache_put(struct hnef_engine *e, uint64_t k, uint64_t v)
{
    if (e->ncache >= HN_CACHE / 4 * 3) { /* full: start again (rare) */
        memset(e->key, 0, sizeof e->key);
        e->ncache = 0;
    }
    unsigned i = (unsigned)mix64(k, 0) & (HN_CACHE - 1);
    while (e->key[i] && e->key[i] != k)
        i = (i + 1) & (HN_CACHE - 1);
    if (!e->key[i])
        e->ncache++;
    e->key[i] = k;
    e->val[i] = v;
}

static int cache_get(const struct hnef_engine *e, uint64_t k, uint64_t *v)
{
    unsigned i = (unsigned)mix64(k, 0) & (HN_CACHE - 1);
    while (e->key[i]) {
        if (e->key[i] == k) {
            *v = e->val[i];
            return 1;
        }
        i = (i + 1) & (HN_CACHE - 1);
    }
    return 0;
}

/* The session hands `go` only Medan's hashes of the earlier positions, so
 * the adapter remembers the libhnefatafl hash of every position it searches
 * and of every position one move from it: that covers each position of the
 * game from the adapter's first move on (its own moves and the opponent's
 * replies alike).  Positions before that (an opening's plies) stay unknown
 * and are left out of the history. */
static void remember(struct hnef_engine *e, const struct fetlar_state *s, const gmove *mv, int n)
{
    cache_put(e, s->hash, hnef_hash(s));
    for (int i = 0; i < n; i++) {
        struct fetlar_state c = *s;
        fetlar_play(&c, mv[i]);
        cache_put(e, c.hash, hnef_hash(&c));
    }
}

/* ---- the stop flag ------------------------------------------------------- */

struct watch {
    const struct search_req *req;
    int64_t deadline_us; /* -1: none */
    _Atomic bool stop;   /* libhnefatafl's should_stop */
    atomic_bool done;
};

static void *watcher(void *arg)
{
    struct watch *w = arg;
    struct timespec ms = {0, 1000000};
    while (!atomic_load(&w->done)) {
        bool pondering = w->req->pondering && atomic_load(w->req->pondering);
        if (search_stopped(w->req) ||
            (w->deadline_us >= 0 && !pondering && now_us() >= w->deadline_us)) {
            atomic_store(&w->stop, true);
            break;
        }
        nanosleep(&ms, NULL);
    }
    return NULL;
}

/* The think time: movetime less MoveOverhead (at least half of it); with a
 * clock time/movestogo (30) + 3/4 inc, at most a third of what is left,
 * less MoveOverhead; the smaller when both are given.  -1: none. */
static int64_t budget_ms(const struct limits *l, int seat)
{
    int64_t b = -1;
    if (l->movetime >= 0) {
        b = l->movetime - l->overhead_ms;
        if (b < l->movetime / 2)
            b = l->movetime / 2;
    }
    if (l->time[seat] >= 0) {
        int64_t t = l->time[seat], mtg = l->movestogo > 0 ? l->movestogo : 30;
        int64_t c = t / mtg + l->inc[seat] * 3 / 4;
        if (c > t / 3)
            c = t / 3;
        c -= l->overhead_ms;
        if (c < 1)
            c = 1;
        if (b < 0 || c < b)
            b = c;
    }
    return b;
}

/* ---- go ------------------------------------------------------------------ */

static gmove to_gmove(move m)
{
    return FETLAR_MOVE(sq_map(m.orig), sq_map(m.dest));
}

static int is_legal(gmove m, const gmove *mv, int n)
{
    for (int i = 0; i < n; i++)
        if (mv[i] == m)
            return 1;
    return 0;
}

static void print_info(const struct search_req *req, const struct fetlar_state *s, int depth,
                       const search_result *r, uint64_t nodes)
{
    char pv[2048], tok[16];
    size_t len = 0;
    struct fetlar_state c = *s;
    gmove mv[FETLAR_MAX_MOVES];
    pv[0] = 0;
    for (int i = 0; i < r->pv.length; i++) {
        gmove m = to_gmove(r->pv.moves[i]);
        int n = fetlar_gen(&c, mv, FETLAR_MAX_MOVES);
        if (!is_legal(m, mv, n))
            break;
        fetlar_game.format_move(&c, m, tok, sizeof tok);
        len += (size_t)snprintf(pv + len, sizeof pv - len, " %s", tok);
        if (len >= sizeof pv - 16)
            break;
        fetlar_play(&c, m);
    }
    int64_t ms = (now_us() - req->start_us) / 1000;
    uint64_t nps = ms > 0 ? nodes * 1000 / (uint64_t)ms : nodes;
    i32 sc = r->pv.score;
    char score[48];
    if (sc > MAX_SCORE - 2 * MAX_PLY - 2 || sc < -(MAX_SCORE - 2 * MAX_PLY - 2)) {
        /* VICTORY_SCORE(ply) = MAX_SCORE - ply; the "inevitable" scores sit
         * MAX_PLY + 1 lower */
        i32 a = sc > 0 ? sc : -sc, plies = MAX_SCORE - a;
        if (plies > MAX_PLY)
            plies -= MAX_PLY + 1;
        if (plies < 1)
            plies = 1;
        snprintf(score, sizeof score, "%s %d", sc > 0 ? "win" : "loss", (int)plies);
    } else
        snprintf(score, sizeof score, "cp %d", (int)sc);
    search_info(req, "depth %d multipv 1 score %s nodes %llu nps %llu time %lld pv%s", depth,
                score, (unsigned long long)nodes, (unsigned long long)nps, (long long)ms, pv);
}

static gmove fallback(struct hnef_engine *e, const struct fetlar_state *s, const gmove *mv, int n,
                      const char *why)
{
    gmove m = mv[0];
    for (int i = 0; i < n; i++)
        if (fetlar_captures(s, mv[i])) {
            m = mv[i];
            break;
        }
    e->fallbacks++;
    char tok[16];
    fetlar_game.format_move(s, m, tok, sizeof tok);
    fprintf(stderr, "medan-hnefatafl: fallback %lu of %lu moves (%s): %s\n", e->fallbacks,
            e->moves, why, tok);
    return m;
}

static gmove go(void *eng, const struct search_req *req, gmove *ponder)
{
    struct hnef_engine *e = eng;
    const struct fetlar_state *s = req->pos;
    gmove mv[FETLAR_MAX_MOVES];
    int n = fetlar_gen(s, mv, FETLAR_MAX_MOVES);
    *ponder = GAME_MOVE_NONE;
    if (n == 0) /* mep asks only when there is a decision */
        return GAME_MOVE_NONE;
    e->moves++;
    if (strcmp(e->strategy, "random") == 0)
        return mv[rng_below(&e->rng, (uint64_t)n)];
    remember(e, s, mv, n);
    if (s->side == FETLAR_WHITE)
        for (int i = 0; i < n; i++)
            if (FETLAR_FROM(mv[i]) == s->king && fetlar_is_corner(FETLAR_TO(mv[i]))) {
                char tok[16];
                fetlar_game.format_move(s, mv[i], tok, sizeof tok);
                search_info(req, "depth 1 multipv 1 score win 1 nodes 0 time 0 pv %s", tok);
                return mv[i];
            }

    /* The history for libhnefatafl: the known earlier positions, oldest
     * first, then the current one (which it drops and inserts itself). */
    static u64 hist[4096];
    int nh = 0, from = req->nhist > 4095 ? req->nhist - 4095 : 0;
    for (int i = from; i < req->nhist; i++) {
        uint64_t h;
        if (cache_get(e, req->hist[i], &h))
            hist[nh++] = h;
    }
    hist[nh++] = hnef_hash(s);

    struct watch w = {.req = req, .deadline_us = -1};
    atomic_init(&w.stop, false);
    atomic_init(&w.done, false);
    int64_t b = budget_ms(&req->lim, s->side == FETLAR_BLACK ? 1 : 2);
    if (b >= 0)
        w.deadline_us = req->start_us + b * 1000;
    pthread_t th;
    if (pthread_create(&th, NULL, watcher, &w))
        die("medan-hnefatafl: cannot start the timer thread");

    /* A fresh table for every move, as libhnefatafl's own server does (it
     * creates one per search): a root found in an old table with enough
     * depth would come back without a move. */
    tt_clear(e->tt);
    board hb = to_hnef(s);
    int maxd = req->lim.depth > 0 ? req->lim.depth : HN_DEFAULT_DEPTH;
    if (maxd > HN_MAX_DEPTH)
        maxd = HN_MAX_DEPTH;
    search_result best;
    memset(&best, 0, sizeof best);
    int have = 0;
    uint64_t nodes = 0;
    /* Iterative deepening one call per depth (the library's own loop
     * reports nothing between depths); its table keeps the earlier
     * iterations' work. */
    for (int d = 1; d <= maxd; d++) {
        search_result r = search_runner_iterative_trusted(hb, d, &w.stop, s->side == FETLAR_BLACK,
                                                          hist, nh, e->tt);
        const stats *st = &r.statistics;
        nodes += (uint64_t)st->search_positions_black + (uint64_t)st->search_positions_white +
                 (uint64_t)st->quiescence_positions_black +
                 (uint64_t)st->quiescence_positions_white;
        if (d > 1 && atomic_load(&w.stop)) { /* the last depth did not finish */
            destroy_pv_line(&r.pv);
            break;
        }
        /* A root found in the table with enough depth returns its score and
         * no PV: keep the last line and go deeper. */
        if (r.pv.length == 0 || !r.pv.moves) {
            destroy_pv_line(&r.pv);
            continue;
        }
        if (have)
            destroy_pv_line(&best.pv);
        best = r;
        have = 1;
        print_info(req, s, d, &r, nodes);
    }
    if (!have) { /* every depth answered from the table: once more without it */
        tt_clear(e->tt);
        _Atomic bool never = false;
        search_result r = search_runner_iterative_trusted(hb, 1, &never, s->side == FETLAR_BLACK,
                                                          hist, nh, e->tt);
        if (r.pv.length > 0 && r.pv.moves) {
            best = r;
            have = 1;
            print_info(req, s, 1, &r, nodes);
        } else
            destroy_pv_line(&r.pv);
    }
    atomic_store(&w.done, true);
    pthread_join(th, NULL);

    gmove m;
    if (!have || best.pv.length == 0 || !best.pv.moves)
        m = fallback(e, s, mv, n, "libhnefatafl returned no move");
    else {
        m = to_gmove(best.pv.moves[0]);
        if (!is_legal(m, mv, n))
            m = fallback(e, s, mv, n, "libhnefatafl's move is not legal in Fetlar");
    }
    if (have)
        destroy_pv_line(&best.pv);
    return m;
}

/* ---- the rest of struct engine --------------------------------------------- */

static void newgame(void *eng)
{
    struct hnef_engine *e = eng;
    if (e->tt)
        tt_clear(e->tt);
    memset(e->key, 0, sizeof e->key);
    e->ncache = 0;
}

static void init(void *eng)
{
    struct hnef_engine *e = eng;
    e->tt = tt_create((size_t)e->hash_mb);
    if (!e->tt)
        die("medan-hnefatafl: cannot allocate %lld MiB", (long long)e->hash_mb);
    e->tt_mb = e->hash_mb;
    rng_seed(&e->rng, (uint64_t)e->seed);
}

static void destroy(void *eng)
{
    struct hnef_engine *e = eng;
    if (e->tt)
        tt_destroy(e->tt);
    e->tt = NULL;
    if (e->fallbacks)
        fprintf(stderr, "medan-hnefatafl: %lu fallbacks in %lu moves\n", e->fallbacks, e->moves);
}

static int option_changed(void *eng, const struct opt_spec *o, char *err, size_t n)
{
    struct hnef_engine *e = eng;
    if (strcmp(o->name, "Hash") == 0 && e->hash_mb != e->tt_mb) {
        transposition_table *t = tt_create((size_t)e->hash_mb);
        if (!t) {
            snprintf(err, n, "Hash: cannot allocate %lld MiB", (long long)e->hash_mb);
            return -1;
        }
        tt_destroy(e->tt);
        e->tt = t;
        e->tt_mb = e->hash_mb;
    } else if (strcmp(o->name, "Seed") == 0)
        rng_seed(&e->rng, (uint64_t)e->seed);
    return 0;
}

static const struct opt_spec options[] = {
    {"Hash", OPT_SPIN, "64", 1, 1024, NULL, offsetof(struct hnef_engine, hash_mb),
     "libhnefatafl's transposition table, MiB"},
    {"Seed", OPT_SPIN, "0", 0, INT64_MAX, NULL, offsetof(struct hnef_engine, seed),
     "seed of the random strategy"},
    {"Strategy", OPT_COMBO, "search", 0, 0, "search random", offsetof(struct hnef_engine, strategy),
     "libhnefatafl's search, or a uniformly random legal move"},
    {NULL, 0, NULL, 0, 0, NULL, 0, NULL},
};

static const struct engine hnef_engine = {
    .game = &fetlar_game,
    .name = "libhnefatafl (Medan adapter)",
    .author = "libhnefatafl: ftzm; adapter: the Medan authors",
    .size = sizeof(struct hnef_engine),
    .options = options,
    .init = init,
    .destroy = destroy,
    .newgame = newgame,
    .option_changed = option_changed,
    .go = go,
};

int main(int argc, char **argv)
{
    return mep_main(&hnef_engine, argc, argv);
}
