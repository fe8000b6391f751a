/* engine.c - the Battalion player behind medan-battalion: ISMCTS
 * (ismcts.c) or a baseline (Strategy random / heuristic). */
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
 * one determinization + tree walk + playout each) from 8 mid-game views (4
 * players, after 2..9 attacks) reached by seeded heuristic play.  Returns
 * the total tree size (nodes created), a fingerprint of the search: any
 * change to determinizations, selection, expansion or playouts changes it.
 * Fixed forever: changing the positions or seeds changes the fingerprint. */
static uint64_t bench(void *eng, int depth, int64_t *ms, info_fn info, void *ctx)
{
    struct bat_engine *e = eng;
    struct bat_search_params p;
    uint64_t total = 0, iters = 0;
    int64_t t0 = now_us();
    (void)info;
    (void)ctx;
    bat_search_defaults(&p);
    p.cutoff = (int)e->cutoff;
    p.iterations = depth > 0 ? (uint64_t)depth * 1000 : 5000;
    for (int i = 0, found = 0; found < 8 && i < 1000; i++) {
        struct bat_state st, v;
        struct bat_report rep;
        struct rng r;
        rng_seed(&r, 7000 + (uint64_t)i);
        bat_deal(&st, 4, 7000 + (uint64_t)i, 1);
        while (!bat_over(&st) && (st.attacks < 2 + (unsigned)found || st.phase != BAT_ATTACK))
            bat_play(&st, bat_heuristic_move(&st, &r));
        if (bat_over(&st))
            continue;
        found++;
        bat_make_view(&st, st.act, &v);
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
