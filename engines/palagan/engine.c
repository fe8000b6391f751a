/* engine.c - the Palagan player behind medan-palagan: MCTS (mcts.c), plus
 * the greedy and random baselines of the Strategy option. */
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
    struct rng rng;
    struct mcts mc;
};

static void init(void *eng)
{
    struct pal_engine *e = eng;
    mc_init(&e->mc, (size_t)e->hash_mb, (uint64_t)e->seed);
    rng_seed(&e->rng, (uint64_t)e->seed);
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
}

static int option_changed(void *eng, const struct opt_spec *o, char *err, size_t n)
{
    struct pal_engine *e = eng;
    if (strcmp(o->name, "Hash") == 0) {
        if (mc_resize(&e->mc, (size_t)e->hash_mb) != 0)
            return set_err(err, n, -1, "cannot allocate %lld MiB", (long long)e->hash_mb);
    } else if (strcmp(o->name, "Seed") == 0)
        newgame(e);
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
    snprintf(buf, n, "%d captures %d %d liberties %d %d reserve %d %d", 100 * cap + 2 * lib,
             s->captures[me], s->captures[me ^ 1], libs[me], libs[me ^ 1], s->reserve[me],
             s->reserve[me ^ 1]);
    return 0;
}

/* bench: playouts with the full policy from the N = 5 start; `depth` is the
 * number of thousands (default 20).  Returns playouts; nps = playouts/s. */
static uint64_t bench(void *eng, int depth, int64_t *ms, info_fn infofn, void *ctx)
{
    struct pal_engine *e = eng;
    (void)infofn;
    (void)ctx;
    const struct pal_geom *g = pal_geom(5);
    struct rng r;
    rng_seed(&r, 12345);
    uint64_t n = (uint64_t)(depth > 0 ? depth : 20) * 1000, plies = 0;
    int64_t t0 = now_us();
    int wins[3] = {0, 0, 0};
    uint64_t mans = 0;
    for (uint64_t i = 0; i < n; i++) {
        struct pal_state s;
        pal_start(&s, 5);
        e->mc.trace.n = 0;
        int o = pal_playout(g, &s, &r, &e->mc.pol, &e->mc.trace);
        wins[(o > 0) - (o < 0) + 1]++;
        plies += (uint64_t)s.captures[0] + s.captures[1];
        mans += (uint64_t)e->mc.trace.n;
    }
    *ms = (now_us() - t0) / 1000;
    fprintf(stderr, "bench: %llu playouts from the N=5 start: black %d white %d draw %d, "
            "%.1f captures and %.1f maneuvers per game\n", (unsigned long long)n, wins[2],
            wins[0], wins[1], (double)plies / (double)n, (double)mans / (double)n);
    return n;
}

static const struct opt_spec options[] = {
    {"Hash", OPT_SPIN, "64", 1, 16384, NULL, offsetof(struct pal_engine, hash_mb),
     "search tree size limit in MiB"},
    {"Seed", OPT_SPIN, "0", 0, INT64_MAX, NULL, offsetof(struct pal_engine, seed),
     "seed of the engine's random choices"},
    {"Strategy", OPT_COMBO, "search", 0, 0, "search greedy random",
     offsetof(struct pal_engine, strategy),
     "search (MCTS), or a baseline: greedy (most captures, then liberties), random"},
    {NULL, 0, NULL, 0, 0, NULL, 0, NULL},
};

const struct engine palagan_engine = {
    .game = &palagan_game,
    .name = "Medan Palagan",
    .author = "the Medan developers",
    .size = sizeof(struct pal_engine),
    .options = options,
    .init = init,
    .destroy = destroy,
    .newgame = newgame,
    .option_changed = option_changed,
    .go = go,
    .eval = eval_cmd,
    .bench = bench,
};
