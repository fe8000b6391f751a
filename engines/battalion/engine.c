/* engine.c - the Battalion player behind medan-battalion: ISMCTS
 * (ismcts.c) or a baseline (Strategy random / heuristic). */
#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../../core/util.h"
#include "../../protocol/engine.h"
#include "../../search/timeman.h"
#include "ismcts.h"
#include "policy.h"
#include "battalion.h"

#define TREE_NODES (1u << 19) /* ~40 MiB of tree */
/* With Threads = T each thread has a tree of TREE_NODES / T nodes, at
 * least TREE_MIN_NODES (~1.3 MiB). */
#define TREE_MIN_NODES (1u << 14)
/* `go depth N` is N thousand iterations (as `bench N`): ISMCTS has no
 * plies to count.  docs/games/battalion.md. */
#define BAT_DEPTH_ITERATIONS 1000

struct bat_engine {
    int64_t seed;
    int64_t iterations;
    int64_t cutoff;
    int64_t inference; /* percent: bat_search_params.infer */
    int64_t threads;
    char strategy[OPT_STR_LEN];
    char search[OPT_STR_LEN];        /* SearchParams */
    struct bat_search_params params; /* the defaults changed by SearchParams */
    struct rng rng;              /* Strategy random/heuristic, the first search thread */
    struct rng helper_rng[BAT_MAX_THREADS]; /* [i]: search thread i >= 1 */
    int ntrees;
    struct bat_tree *trees[BAT_MAX_THREADS];
};

struct go_ctx {
    const struct search_req *req;
    struct timeman tm;
    int timed;
};

/* The random streams: the first search thread (and the baselines) from
 * Seed, as with one thread; thread i >= 1 from Seed and i. */
static void seed_all(struct bat_engine *e)
{
    rng_seed(&e->rng, (uint64_t)e->seed);
    for (int i = 1; i < BAT_MAX_THREADS; i++)
        rng_seed(&e->helper_rng[i], mix64((uint64_t)e->seed, (uint64_t)i));
}

static void free_trees(struct bat_engine *e)
{
    for (int i = 0; i < e->ntrees; i++) {
        bat_tree_free(e->trees[i]);
        e->trees[i] = NULL;
    }
    e->ntrees = 0;
}

/* One tree per thread (Threads = 1: one tree of TREE_NODES, as always). */
static void alloc_trees(struct bat_engine *e)
{
    size_t per = TREE_NODES / (size_t)e->threads;
    free_trees(e);
    if (per < TREE_MIN_NODES)
        per = TREE_MIN_NODES;
    for (int i = 0; i < (int)e->threads; i++)
        e->trees[i] = bat_tree_new(per);
    e->ntrees = (int)e->threads;
}

static void init(void *eng)
{
    struct bat_engine *e = eng;
    bat_search_defaults(&e->params);
    alloc_trees(e);
    seed_all(e);
}

static void destroy(void *eng)
{
    free_trees(eng);
}

static void newgame(void *eng)
{
    seed_all(eng);
}

/* The parameters SearchParams may not set, and why.  oracle makes a search
 * given a full state read the other seats' hands: an engine must only ever
 * use its own seat's view (docs/protocol.md, Hidden information), so it is
 * for medan-battalion-duplicate's measurement alone.  The others have
 * their own options, which would override them. */
static const struct {
    const char *name, *why;
} refused[] = {
    {"oracle", "it would read the other seats' hidden cards"},
    {"cutoff", "it is the option PlayoutAttacks"},
    {"infer", "it is the option Inference (percent)"},
    {"iterations", "it is the option Iterations (or go nodes)"},
};

/* SearchParams: the search's parameters named in spec ("explore=0.5,
 * epsilon=0.05"), bat_search_set's names but those refused above, each
 * other one at its default (an empty spec: all of them).  0, or -1 with
 * err naming the bad entry and nothing changed (parsed into a copy). */
static int search_params(struct bat_engine *e, const char *spec, char *err, size_t n)
{
    struct bat_search_params p;
    char buf[OPT_STR_LEN], *save, *kv;
    bat_search_defaults(&p);
    snprintf(buf, sizeof buf, "%s", spec); /* (spec is an option value: it fits) */
    for (kv = strtok_r(buf, ", ", &save); kv; kv = strtok_r(NULL, ", ", &save)) {
        char *eq = strchr(kv, '='), range[64];
        if (!eq)
            return set_err(err, n, -1, "search parameter '%s' needs name=value", kv);
        *eq = '\0';
        for (size_t i = 0; i < ARRAY_LEN(refused); i++)
            if (strcmp(kv, refused[i].name) == 0)
                return set_err(err, n, -1, "search parameter %s is refused: %s", kv,
                               refused[i].why);
        if (!bat_search_range(kv, range, sizeof range))
            return set_err(err, n, -1, "no search parameter '%s'", kv);
        if (bat_search_set(&p, kv, eq + 1))
            return set_err(err, n, -1, "search parameter %s takes %s, not '%s'", kv, range,
                           eq + 1);
    }
    assert(!p.oracle); /* never from here: the engine sees its seat's view only */
    e->params = p;
    return 0;
}

static int option_changed(void *eng, const struct opt_spec *o, char *err, size_t n)
{
    struct bat_engine *e = eng;
    if (strcmp(o->name, "SearchParams") == 0)
        return search_params(e, e->search, err, n);
    if (strcmp(o->name, "Seed") == 0)
        seed_all(e);
    if (strcmp(o->name, "Threads") == 0 && e->threads != e->ntrees)
        alloc_trees(e);
    return 0;
}

static int go_stop(void *ctx)
{
    struct go_ctx *g = ctx;
    if (search_stopped(g->req))
        return 1;
    return g->timed && (tm_hard_stop(&g->tm) || !tm_continue(&g->tm, 0.5));
}

/* One info line per root action, `multipv` of them (1 by default): the
 * search's figures, then the action's visits, its expected result per seat
 * (values, comma separated) and the action. */
static void put_report(const struct search_req *req, const struct bat_report *rep)
{
    int64_t ms = rep->us / 1000;
    int k = req->lim.multipv > 1 ? req->lim.multipv : 1;
    if (k > rep->nlines)
        k = rep->nlines;
    if (k == 0 || rep->best == GAME_MOVE_NONE || !rep->best_visits) {
        search_info(req, "iterations %llu nodes %llu time %lld nps %llu",
                    (unsigned long long)rep->iterations, (unsigned long long)rep->nodes,
                    (long long)ms,
                    (unsigned long long)(rep->us > 0 ? rep->iterations * 1000000 / (uint64_t)rep->us : 0));
        return;
    }
    for (int i = 0; i < k; i++) {
        char line[512], mv[64];
        size_t len = 0;
        const struct bat_line *l = &rep->lines[i];
        buf_printf(line, sizeof line, &len, "iterations %llu nodes %llu time %lld nps %llu",
                   (unsigned long long)rep->iterations, (unsigned long long)rep->nodes,
                   (long long)ms,
                   (unsigned long long)(rep->us > 0 ? rep->iterations * 1000000 / (uint64_t)rep->us : 0));
        if (req->lim.multipv > 1)
            buf_printf(line, sizeof line, &len, " multipv %d", i + 1);
        buf_printf(line, sizeof line, &len, " visits %u values", l->visits);
        for (int s = 0; s < rep->nseats; s++)
            buf_printf(line, sizeof line, &len, "%s%.3f", s ? "," : " ", l->values[s]);
        bat_format_move(l->move, mv, sizeof mv);
        buf_printf(line, sizeof line, &len, " pv %s", mv);
        search_info(req, "%s", line);
    }
}

static void go_report(void *ctx, const struct bat_report *rep)
{
    struct go_ctx *g = ctx;
    put_report(g->req, rep);
}

/* The search with Threads threads: the first uses e->rng, as a single
 * thread does, thread i >= 1 its own stream. */
static gmove search(struct bat_engine *e, const struct bat_state *st,
                    const struct bat_search_params *p, struct bat_report *rep)
{
    struct rng r[BAT_MAX_THREADS];
    gmove m;
    int n = e->ntrees;
    if (n == 1)
        return bat_search(e->trees[0], st, p, &e->rng, rep);
    r[0] = e->rng;
    for (int i = 1; i < n; i++)
        r[i] = e->helper_rng[i];
    m = bat_search_par(e->trees, n, st, p, r, rep);
    e->rng = r[0];
    for (int i = 1; i < n; i++)
        e->helper_rng[i] = r[i];
    return m;
}

static gmove go(void *eng, const struct search_req *req, gmove *ponder)
{
    struct bat_engine *e = eng;
    const struct bat_state *st = req->pos;
    struct bat_search_params p;
    struct bat_report rep;
    struct go_ctx g;
    gmove m;
    *ponder = GAME_MOVE_NONE;
    if (strcmp(e->strategy, "random") == 0)
        return bat_random_move(st, &e->rng);
    if (strcmp(e->strategy, "heuristic") == 0) {
        struct bat_state v;
        bat_make_view(st, st->act, &v); /* the player sees its view only */
        return bat_heuristic_move(&v, &e->rng);
    }
    memset(&g, 0, sizeof g);
    g.req = req;
    p = e->params;
    p.cutoff = (int)e->cutoff;
    p.infer = (double)e->inference / 100.0;
    /* Budgets: go nodes N (else the Iterations option), go depth N as
     * BAT_DEPTH_ITERATIONS·N iterations, and the clocks: the first one
     * reached ends the search. */
    p.iterations = req->lim.nodes ? req->lim.nodes : (uint64_t)e->iterations;
    if (req->lim.depth > 0) {
        uint64_t d = (uint64_t)req->lim.depth * BAT_DEPTH_ITERATIONS;
        if (!p.iterations || d < p.iterations)
            p.iterations = d;
    }
    tm_init(&g.tm, req, st->act + 1);
    g.timed = g.tm.hard_us >= 0;
    p.stop = go_stop;
    p.stop_ctx = &g;
    p.report = go_report;
    p.report_ctx = &g;
    m = search(e, st, &p, &rep);
    put_report(req, &rep);
    return m;
}

static int eval_cmd(void *eng, const void *pos, char *buf, size_t n)
{
    const struct bat_state *st = pos;
    int me = st->act, N = st->nseats;
    double others = 0, score;
    (void)eng;
    for (int s = 0; s < N; s++)
        if (s != me)
            others += st->chips[s];
    others /= N - 1;
    score = st->chips[me] - others;
    if (!st->is_view || st->viewer == me)
        score += 0.25 * bat_best_suit_points(st->hand[me]);
    snprintf(buf, n, "%d us.chips=%d others.chips=%.2f us.best_suit=%d", (int)(score * 100),
             st->chips[me], others, bat_best_suit_points(st->hand[me]));
    return 0;
}

/* Bench: a fixed ISMCTS search (`depth` thousand iterations, default 5;
 * one determinization + tree walk + playout each), seeded the same way
 * every time, from each of these 8 mid-game views: 4 players, seeded deals
 * played by the heuristic to the 2nd, 3rd ... 9th attack (seed 2026, the
 * first game 10 g + k whose record shows something of two other seats),
 * the view of the seat to act, written out so that the fingerprint depends
 * on the search alone.  Returns the total tree size (nodes created), a fingerprint of the
 * search: any change to determinizations, selection, expansion or
 * playouts changes it. */
#define BAT_BENCH_KITERATIONS 5
const char *const battalion_bench_positions[] = {
    "view:2 phase=attack act=2 turn=12 attacks=2 last=d chips=6,5,10,19 bids=6,p,p,8 "
        "hands=+10/2c4c4cJcQcTd3h5h8hKh/+10/4d+9 known=-/-/-/4d "
        "shown=-p7s7-/-p2--/----/--p7- battle=- "
        "pile=2h8s9sTc6h2sAs2s7d3s5h7h9hJhJhQhKhAd3d5d7d8d9dJdAd5d deck=38",
    "view:2 phase=attack act=2 turn=12 attacks=3 last=h chips=7,1,19,13 bids=7,p,8,p "
        "hands=+10/3c2d4d4d5h2s2s3s7sKs/+10/+10 known=-/3s/-/- "
        "shown=-s8p8-/p6-p2-/-p7--/p5--- battle=- "
        "pile=6dQdKd4h5d6h9hQhAdAd3d5d6dTdJdAcAc3c5cTc2c4c6cQcAh2h3h6h7h9hThKh3h8h "
        "deck=30",
    "view:2 phase=attack act=2 turn=12 attacks=4 last=d chips=8,11,8,13 bids=p,8,p,p "
        "hands=+10/7c8c5dJd2s3s7s9sTsKs/+10/+10 known=-/-/-/- "
        "shown=-p3--/-s5p5-/s7p7--/-p4p8- battle=- "
        "pile=5s4s2h4c2cTc8s5h8cKc2c4c5cTcJcQcQcAd2d4d8d9dTdKdAhAh8hTh2h3h4h9hKh6d8dJd3d7d"
        "9dQd deck=24",
    "view:3 phase=attack act=3 turn=12 attacks=5 last=s chips=6,15,7,12 bids=6,11,p,p "
        "hands=+10/+10/7c9cTc5d9hQh6s7s8s9s/+10 known=-/-/-/- "
        "shown=p5--s5/p7--p5/-p7--/---p2 battle=- "
        "pile=4d3cTs3c2c8s3sJc9cAh4h5h5h6h6h7hKhAh2h9hJhKh2d3d4d5d7d9dJd6d9dTdAs4s5s5s6sJs"
        "Qs6c8c8cJcKcQcKcAs2s9sTsKs4sQs deck=11",
    "view:3 phase=attack act=3 turn=12 attacks=6 last=d chips=17,14,4,5 bids=7,p,p,p "
        "hands=+10/+10/7c3d7hJh2s4s9s9sQsKs/+10 known=-/-/9s/- "
        "shown=p6--p8/-p1p5-/p3p1s8-/-s5-p5 battle=- "
        "pile=Ah5h2d5h9hThAs4c3hAd2d5d8dTdTdAh2h3hTh4d5d6d9dJdAd6dQdAs2s4sJsKs3sTs2c3c8c9c"
        "TcQcAc2cKdKd deck=20",
    "view:2 phase=attack act=2 turn=12 attacks=7 last=h chips=7,13,6,14 bids=p,p,6,p "
        "hands=+10/Ad6d7d8dJdKdAh2h4h8h/+10/+10 known=-/-/-/- "
        "shown=-p9p3-/--p8p2/-p8p5-/p8-s0p6 battle=- "
        "pile=7h3h6sQcAhQhAs5s2dTd4s5s8sTsTs2s7s5c5c7cJcKc2c6cTc2d3d5d6d8d9dAd3dJdAc4c6cTc"
        "Jc2c8c3h7hThJhQh5h6h8h9h9hKh2s7sJsQsQsKs4s6s2hThJh deck=1",
    "view:1 phase=attack act=1 turn=12 attacks=8 last=d chips=7,9,13,11 bids=7,p,p,p "
        "hands=6cTc2s3s4s5s7sJsQsKs/+10/+10/+10 known=-/-/-/- "
        "shown=p3s3p6-/-p6--/-p2p9-/-p5p7- battle=- pile=- deck=64",
    "view:3 phase=attack act=3 turn=12 attacks=9 last=h chips=4,4,7,25 bids=p,7,p,p "
        "hands=+10/+10/Ad5d3hAs6s6s7sTsJsQs/+10 known=-/-/-/- "
        "shown=p3s8--/-p8p5-/p2-p7-/p7-p5- battle=- pile=Ah8hThJhKh4h6h6h7hKh deck=54",
    NULL,
};

static uint64_t bench(void *eng, int depth, int64_t *ms, info_fn info, void *ctx)
{
    struct bat_engine *e = eng;
    struct bat_search_params p;
    game_config_buf cfg;
    uint64_t total = 0, iters = 0;
    int64_t t0 = now_us();
    (void)info;
    (void)ctx;
    p = e->params;
    p.cutoff = (int)e->cutoff;
    p.infer = (double)e->inference / 100.0;
    p.iterations = (uint64_t)(depth > 0 ? depth : BAT_BENCH_KITERATIONS) * 1000;
    battalion_game.config_default(cfg.b);
    for (int i = 0; battalion_bench_positions[i]; i++) {
        struct bat_state v;
        struct bat_report rep;
        struct rng r;
        char err[GAME_ERR_LEN];
        int rc = battalion_game.parse_pos(&v, cfg.b, battalion_bench_positions[i], err, sizeof err);
        assert(rc == GAME_OK); /* a fixed table, checked by test_mep's bench test */
        (void)rc;
        rng_seed(&r, 1);
        bat_search(e->trees[0], &v, &p, &r, &rep);
        total += rep.nodes;
        iters += rep.iterations;
    }
    *ms = (now_us() - t0) / 1000;
    fprintf(stderr, "bench: %llu iterations, %llu tree nodes\n", (unsigned long long)iters,
            (unsigned long long)total);
    return total;
}

static const struct opt_spec options[] = {
    {"Seed", OPT_SPIN, "0", 0, INT64_MAX, NULL, offsetof(struct bat_engine, seed),
     "seed of the engine's random choices (determinizations, playouts)"},
    {"Strategy", OPT_COMBO, "search", 0, 0, "search heuristic random",
     offsetof(struct bat_engine, strategy),
     "search (ISMCTS), or a baseline: heuristic (rule-based), random"},
    {"Iterations", OPT_SPIN, "0", 0, 100000000, NULL, offsetof(struct bat_engine, iterations),
     "ISMCTS iterations per decision (0 = by time; go nodes N overrides)"},
    {"PlayoutAttacks", OPT_SPIN, "4", 1, 200, NULL, offsetof(struct bat_engine, cutoff),
     "playouts stop this many attacks after the decision and are scored"},
    {"Inference", OPT_SPIN, "100", 0, 100, NULL, offsetof(struct bat_engine, inference),
     "percent of determinizations that deal a seat's hidden cards by the heuristic "
     "player's model read from the public record and the bids (0: uniformly)"},
    {"Threads", OPT_SPIN, "1", 1, BAT_MAX_THREADS, NULL, offsetof(struct bat_engine, threads),
     "search threads: each samples its own determinizations into its own tree, the root "
     "actions' statistics summed at the end (a go nodes budget is split between them)"},
    {"SearchParams", OPT_STRING, "", 0, 0, NULL, offsetof(struct bat_engine, search),
     "search parameters to change, name=value,... (for tuning; see docs/games/battalion.md)"},
    {NULL, 0, NULL, 0, 0, NULL, 0, NULL},
};

const struct engine battalion_engine = {
    .game = &battalion_game,
    .name = "Medan Battalion",
    .author = "the Medan developers",
    .size = sizeof(struct bat_engine),
    .multipv = true, /* the N most visited root moves */
    .options = options,
    .init = init,
    .destroy = destroy,
    .newgame = newgame,
    .option_changed = option_changed,
    .go = go,
    .eval = eval_cmd,
    .bench = bench,
};
