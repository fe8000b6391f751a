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
/* `go depth N` is N thousand iterations (as `bench N`): ISMCTS has no
 * plies to count.  docs/games/battalion.md. */
#define BAT_DEPTH_ITERATIONS 1000

struct bat_engine {
    int64_t seed;
    int64_t iterations;
    int64_t cutoff;
    char strategy[OPT_STR_LEN];
    struct rng rng;
    struct bat_tree *tree;
};

struct go_ctx {
    const struct search_req *req;
    struct timeman tm;
    int timed;
};

static void init(void *eng)
{
    struct bat_engine *e = eng;
    e->tree = bat_tree_new(TREE_NODES);
    rng_seed(&e->rng, (uint64_t)e->seed);
}

static void destroy(void *eng)
{
    struct bat_engine *e = eng;
    bat_tree_free(e->tree);
    e->tree = NULL;
}

static void newgame(void *eng)
{
    struct bat_engine *e = eng;
    rng_seed(&e->rng, (uint64_t)e->seed);
}

static int option_changed(void *eng, const struct opt_spec *o, char *err, size_t n)
{
    struct bat_engine *e = eng;
    (void)err;
    (void)n;
    if (strcmp(o->name, "Seed") == 0)
        rng_seed(&e->rng, (uint64_t)e->seed);
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
    bat_search_defaults(&p);
    p.cutoff = (int)e->cutoff;
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
    m = bat_search(e->tree, st, &p, &e->rng, &rep);
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
 * played by the heuristic to the 2nd, 3rd ... 9th attack, the view of the
 * seat to act, written out so that the fingerprint depends on the search
 * alone.  Returns the total tree size (nodes created), a fingerprint of the
 * search: any change to determinizations, selection, expansion or
 * playouts changes it. */
#define BAT_BENCH_KITERATIONS 5
const char *const battalion_bench_positions[] = {
    "view:2 phase=attack act=2 turn=12 attacks=2 last=d chips=16,4,1,19 bids=5,7,p,8 "
        "hands=+10/4c7cTc2dAh2h8h9hJhJh/5d8d+8/+10 known=-/2h9hJh/5d8d/- battle=- "
        "pile=Ac6s8c3sKcAs2dAh3h4h6h7hThTh7d9dQdQd deck=46",
    "view:1 phase=attack act=1 turn=12 attacks=3 last=d chips=10,9,11,10 bids=p,7,p,p "
        "hands=3c5c2d7d8d9dJdTsJsQs/+10/+10/+10 known=7d/-/-/- battle=- "
        "pile=5c2cJc9cKc8s2h7h8hJhKhKhAh4h4hAs5s6s7s8sTsKs2s2s4sKsAdTdQdQdKd3d4d6d deck=30",
    "view:3 phase=attack act=3 turn=12 attacks=4 last=d chips=4,14,12,10 bids=p,p,7,p "
        "hands=+10/+10/5c7cQcKc4d7h8hTh5s8s/+10 known=-/-/-/- battle=- "
        "pile=TcTd2hJs5c3dAh6s4cQh4h4s2c4c8c8cJcQc4d5d8d9dTdQdKdAd6dJd3h4h6h7hQh5h6hTh5d7d8dJd "
        "deck=24",
    "view:3 phase=attack act=3 turn=12 attacks=5 last=s chips=9,14,11,6 bids=5,6,p,p "
        "hands=+10/+10/5cAd5d6d4h8h9h9hThJh/+10 known=-/-/-/- battle=- "
        "pile=JhTh8d2cTc7h2d9cJdJdAs9c4c6c7c8c8c5dTdQdKd2h5hQhAcJcJcKc6s7s9sJsQs6s8s deck=29",
    "view:3 phase=attack act=3 turn=12 attacks=6 last=c chips=15,12,7,6 bids=8,p,p,p "
        "hands=+10/+10/4cJc2d6dKd3s8sJsQsKs/+10 known=-/-/-/- battle=- "
        "pile=4c4d2h9dQcTdJd9c2s4s6s7s7sTsQs2h5h7h9hKhAh6h9hKh5c6c7c8cTcKcAc6cJcAd"
        "3d3d4dTdQd2d7d8d3h4h5hThJhQh3c8cTcKc3c7c9c "
        "deck=9",
    "view:2 phase=attack act=2 turn=12 attacks=7 last=c chips=10,10,9,11 bids=6,p,8,p "
        "hands=+10/2c3c5c8c3d5dKh2s7s8s/+10/+10 known=-/-/-/- battle=- "
        "pile=Jh4d2h3d3hKhTdAcQhAd8d8dKdKdAs4s6s8sJsQs5s9sTsKs4h6h9hThTh2s3s3s6sKsAc3c"
        "8cTcJcQc4c9cJcQcKc2d6d9d9dAd6d7dJd2c4c9cKc5c6c "
        "deck=5",
    "view:2 phase=attack act=2 turn=12 attacks=8 last=s chips=4,7,6,23 bids=p,8,p,p "
        "hands=+10/TcKc2h3h3h5h8hThQh8s/+10/+10 known=-/-/-/- battle=- pile=- deck=64",
    "view:2 phase=attack act=2 turn=12 attacks=9 last=s chips=11,3,22,4 bids=7,p,p,p "
        "hands=+10/Ac5c8c9cJcJcKc8d5hJh/+10/+10 known=-/-/-/- battle=- "
        "pile=4s5s7s8s9sTsAs2s3s9sJs deck=53",
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
    bat_search_defaults(&p);
    p.cutoff = (int)e->cutoff;
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
        bat_search(e->tree, &v, &p, &r, &rep);
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
