/* engine.c - the Palagan player behind medan-palagan: MCTS (mcts.c), plus
 * the greedy and random baselines of the Strategy option. */
#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/util.h"
#include "../../protocol/engine.h"
#include "mcts.h"
#include "palagan.h"
#include "strategy.h"

struct pal_engine {
    int64_t hash_mb;
    int64_t seed;
    char strategy[OPT_STR_LEN];
    char rave[OPT_STR_LEN];
    int64_t grave_ref;
    int64_t tree_reuse;
    int64_t threads;
    char search[OPT_STR_LEN]; /* SearchParams */
    struct rng rng;
    struct mcts mc;
};

/* The search options into the search's parameters. */
static void set_params(struct pal_engine *e)
{
    e->mc.par.grave_ref = strcmp(e->rave, "grave") == 0 ? (int)e->grave_ref : 0;
    e->mc.par.reuse = e->tree_reuse != 0;
    mc_clear(&e->mc);
}

static void init(void *eng)
{
    struct pal_engine *e = eng;
    mc_init(&e->mc, (size_t)e->hash_mb, (uint64_t)e->seed);
    if (mc_set_threads(&e->mc, (int)e->threads) != 0)
        die("out of memory for %lld search threads", /* exit-ok: out of memory */
            (long long)e->threads);
    rng_seed(&e->rng, (uint64_t)e->seed);
    set_params(e);
}

static void destroy(void *eng)
{
    struct pal_engine *e = eng;
    mc_free(&e->mc);
}

static void newgame(void *eng)
{
    struct pal_engine *e = eng;
    rng_seed(&e->rng, (uint64_t)e->seed);
    mc_seed(&e->mc, (uint64_t)e->seed);
    mc_clear(&e->mc);
}

static int option_changed(void *eng, const struct opt_spec *o, char *err, size_t n)
{
    struct pal_engine *e = eng;
    if (strcmp(o->name, "Hash") == 0) {
        if (mc_resize(&e->mc, (size_t)e->hash_mb) != 0)
            return set_err(err, n, -1, "cannot allocate %lld MiB", (long long)e->hash_mb);
    } else if (strcmp(o->name, "Seed") == 0) {
        newgame(e);
    } else if (strcmp(o->name, "SearchParams") == 0) {
        /* (between searches: mep refuses setoption while one runs) */
        return mc_set_tunables(&e->mc, e->search, err, n);
    } else if (strcmp(o->name, "Threads") == 0) {
        /* (the tree is kept: the next search may reuse it) */
        if (mc_set_threads(&e->mc, (int)e->threads) != 0) {
            return set_err(err, n, -1, "cannot allocate %lld search threads",
                           (long long)e->threads);
        }
    } else {
        set_params(e);
    }
    return 0;
}

static gmove go(void *eng, const struct search_req *req, gmove *ponder)
{
    struct pal_engine *e = eng;
    const struct pal_state *s = req->pos;
    *ponder = GAME_MOVE_NONE;
    if (strcmp(e->strategy, "random") == 0)
        return pal_random_turn(s, &e->rng);
    if (strcmp(e->strategy, "greedy") == 0)
        return pal_greedy_turn(s, &e->rng);
    return mc_go(&e->mc, req);
}

/* eval: captures and liberties, from the side to move's point of view. */
static int eval_cmd(void *eng, const void *pos, char *buf, size_t n)
{
    (void)eng;
    const struct pal_state *s = pos;
    const struct pal_geom *g = pal_geom(s->n);
    int libs[2], me = s->stm;
    pal_liberties(g, s, libs);
    int cap = s->captures[me] - s->captures[me ^ 1];
    int lib = libs[me] - libs[me ^ 1];
    snprintf(buf, n, "%d us.captures=%d them.captures=%d us.liberties=%d them.liberties=%d "
             "us.reserve=%d them.reserve=%d", 100 * cap + 2 * lib,
             s->captures[me], s->captures[me ^ 1], libs[me], libs[me ^ 1], s->reserve[me],
             s->reserve[me ^ 1]);
    return 0;
}

/* bench: a fixed MCTS search (`depth` thousand simulations each, default
 * 2) from each of these positions, the tree seeded the same way every time:
 * the N = 5 and N = 7 starts and 4 positions from random turns (6 and 12
 * at N = 5, 8 at N = 6, 10 at N = 7), written out so that the fingerprint
 * depends on the search alone.  Returns the total tree size (nodes
 * created), a fingerprint of the search: any change to the simulations,
 * priors, expansion or playouts changes it. */
#define PAL_BENCH_KSIMS 2
const char *const palagan_bench_positions[] = {
    "5/6/7/8/9/8/7/6/5 b 20/20 0/0 1 0 0",
    "7/8/9/10/11/12/13/12/11/10/9/8/7 b 20/20 0/0 1 0 0",
    "5/5w/5w1/4w3/b6bw/1w5b/4w2/6/4b b 16/14 0/0 0 0 0",
    "2w1b/5b/b1w1b2/1b1b4/1w1bb3w/2ww4/b1w4/4w1/1b3 b 10/12 0/0 0 1 0",
    "5b/wb5/8/4b4/5b2w1/2w8/1b8/3b3w1/1w3w2/6w/5w b 14/12 0/0 0 0 0",
    "7/6w1/7b1/10/9b1/2b9/www4b5/12/w10/w4w4/1b2w4/8/b3w1b b 13/11 0/0 0 0 0",
    NULL,
};

static uint64_t bench(void *eng, int depth, int64_t *ms, info_fn infofn, void *ctx)
{
    struct pal_engine *e = eng;
    uint64_t sims = (uint64_t)(depth > 0 ? depth : PAL_BENCH_KSIMS) * 1000, total = 0, totsims = 0;
    game_config_buf cfg;
    int64_t t0 = now_us();
    palagan_game.config_default(cfg.b);
    for (size_t i = 0; palagan_bench_positions[i]; i++) {
        struct pal_state s;
        char line[160], err[GAME_ERR_LEN];
        int rc = palagan_game.parse_pos(&s, cfg.b, palagan_bench_positions[i], err, sizeof err);
        assert(rc == GAME_OK); /* a fixed table, checked by test_mep's bench test */
        (void)rc;
        mc_seed(&e->mc, 1);
        mc_search_sims(&e->mc, &s, sims);
        total += e->mc.nnodes - 1;
        totsims += e->mc.sims;
        if (infofn) {
            snprintf(line, sizeof line, "string bench position %zu size %d nodes %u", i + 1, s.n,
                     e->mc.nnodes - 1);
            infofn(ctx, line);
        }
    }
    *ms = (now_us() - t0) / 1000;
    fprintf(stderr, "bench: %llu simulations, %llu tree nodes\n", (unsigned long long)totsims,
            (unsigned long long)total);
    return total;
}

static const struct opt_spec options[] = {
    {"Hash", OPT_SPIN, "64", 1, 16384, NULL, offsetof(struct pal_engine, hash_mb),
     "search tree size limit in MiB"},
    {"Threads", OPT_SPIN, "1", 1, MC_MAX_THREADS, NULL, offsetof(struct pal_engine, threads),
     "search threads on one shared tree (tree parallelism with virtual loss)"},
    {"Seed", OPT_SPIN, "0", 0, INT64_MAX, NULL, offsetof(struct pal_engine, seed),
     "seed of the engine's random choices"},
    {"Strategy", OPT_COMBO, "search", 0, 0, "search greedy random",
     offsetof(struct pal_engine, strategy),
     "search (MCTS), or a baseline: greedy (most captures, then liberties), random"},
    {"Rave", OPT_COMBO, "rave", 0, 0, "rave grave", offsetof(struct pal_engine, rave),
     "AMAF statistics: rave (each node's own), grave (the closest ancestor's with GraveRef visits)"},
    {"GraveRef", OPT_SPIN, "25", 1, 1000000, NULL, offsetof(struct pal_engine, grave_ref),
     "GRAVE: visits a node needs for its own AMAF statistics to be used"},
    {"TreeReuse", OPT_CHECK, "false", 0, 0, NULL, offsetof(struct pal_engine, tree_reuse),
     "keep the subtree of the new position from the last search"},
    {"SearchParams", OPT_STRING, "", 0, 0, NULL, offsetof(struct pal_engine, search),
     "search tunables to change, name=value,... (for tuning; see docs/games/palagan.md)"},
    {NULL, 0, NULL, 0, 0, NULL, 0, NULL},
};

const struct engine palagan_engine = {
    .game = &palagan_game,
    .name = "Medan Palagan",
    .author = "the Medan developers",
    .size = sizeof(struct pal_engine),
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
