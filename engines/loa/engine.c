/* engine.c - the Lines of Action player behind medan-loa: alpha-beta
 * (search/ab.c) with the evaluation of eval.c, plus the greedy and random
 * baselines of the Strategy option. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../../core/util.h"
#include "../../protocol/engine.h"
#include "../../search/ab.h"
#include "eval.h"
#include "loa.h"

struct loa_engine {
    int64_t hash_mb;
    int64_t seed;
    char strategy[OPT_STR_LEN];
    char weights[OPT_STR_LEN];
    struct ab ab;
    struct rng rng;
    struct loa_weights w;
};

static int ev(void *eng, const void *st)
{
    struct loa_engine *e = eng;
    return loa_eval(st, &e->w);
}

static int is_tactical(const void *st, gmove m)
{
    (void)st;
    return LOA_CAP(m);
}

static unsigned move_key(gmove m) { return (unsigned)(m & 4095); }

static void null_move(void *st)
{
    struct loa_state *s = st;
    s->side ^= 1;
    s->hash ^= loa_zobrist_side();
}

static int terminal(const void *st, int *outcome)
{
    int d = loa_decided(st);
    if (!d)
        return 0;
    *outcome = d;
    return 1;
}

static const struct ab_ops loa_ab_ops = {
    .eval = ev,
    .is_tactical = is_tactical,
    .move_key = move_key,
    .gen_tactical = NULL,
    .null_move = null_move,
    .terminal = terminal,
};

static void init(void *eng)
{
    struct loa_engine *e = eng;
    e->w = loa_default_weights;
    ab_init(&e->ab, &loa_game, &loa_ab_ops, e, (size_t)e->hash_mb);
    rng_seed(&e->rng, (uint64_t)e->seed);
}

static void destroy(void *eng)
{
    struct loa_engine *e = eng;
    ab_free(&e->ab);
}

static void newgame(void *eng)
{
    struct loa_engine *e = eng;
    ab_clear(&e->ab);
    rng_seed(&e->rng, (uint64_t)e->seed);
}

static int option_changed(void *eng, const struct opt_spec *o, char *err, size_t n)
{
    struct loa_engine *e = eng;
    (void)err;
    (void)n;
    if (strcmp(o->name, "Hash") == 0)
        ab_resize(&e->ab, (size_t)e->hash_mb);
    else if (strcmp(o->name, "Seed") == 0)
        rng_seed(&e->rng, (uint64_t)e->seed);
    else if (strcmp(o->name, "ClearHash") == 0)
        ab_clear(&e->ab);
    else if (strcmp(o->name, "Weights") == 0) {
        struct loa_weights w = loa_default_weights;
        if (loa_weights_parse(&w, e->weights, err, n))
            return -1;
        e->w = w;
    }
    return 0;
}

static gmove go_greedy(struct loa_engine *e, const struct loa_state *s)
{
    gmove mv[LOA_MAX_MOVES];
    int n = loa_gen(s, mv), best = -AB_WIN - 1;
    gmove bm = n ? mv[0] : GAME_MOVE_NONE;
    for (int i = 0; i < n; i++) {
        struct loa_state c = *s;
        int sc, d;
        loa_play(&c, mv[i]);
        d = loa_decided(&c);
        sc = d < 0 ? AB_WIN : d > 0 ? -AB_WIN : -loa_eval(&c, &e->w);
        /* small random tie-break so greedy games differ */
        sc = sc * 8 + (int)rng_below(&e->rng, 8);
        if (sc > best) {
            best = sc;
            bm = mv[i];
        }
    }
    return bm;
}

static gmove go(void *eng, const struct search_req *req, gmove *ponder)
{
    struct loa_engine *e = eng;
    const struct loa_state *s = req->pos;
    *ponder = GAME_MOVE_NONE;
    if (strcmp(e->strategy, "random") == 0) {
        gmove mv[LOA_MAX_MOVES];
        int n = loa_gen(s, mv);
        return n ? mv[rng_below(&e->rng, (uint64_t)n)] : GAME_MOVE_NONE;
    }
    if (strcmp(e->strategy, "greedy") == 0)
        return go_greedy(e, s);
    return ab_go(&e->ab, req, ponder);
}

static int eval_cmd(void *eng, const void *pos, char *buf, size_t n)
{
    struct loa_engine *e = eng;
    loa_eval_terms(pos, &e->w, buf, n);
    return 0;
}

/* Bench positions: the start, and middlegames reached by seeded random
 * play (fixed forever: changing them changes the Bench fingerprint). */
static uint64_t bench(void *eng, int depth, int64_t *ms, info_fn info, void *ctx)
{
    struct loa_engine *e = eng;
    uint64_t nodes = 0;
    int64_t t0 = now_us();
    (void)info;
    (void)ctx;
    if (depth <= 0)
        depth = 8;
    for (int i = 0; i < 12; i++) {
        struct loa_state s;
        struct rng r;
        loa_game.start(&s, NULL);
        rng_seed(&r, 1000 + (uint64_t)i);
        for (int ply = 0; ply < i * 3; ply++) {
            gmove mv[LOA_MAX_MOVES];
            int n = loa_gen(&s, mv);
            struct loa_state c;
            if (!n)
                break;
            c = s;
            loa_play(&c, mv[rng_below(&r, (uint64_t)n)]);
            if (loa_decided(&c))
                continue;
            s = c;
        }
        ab_clear(&e->ab);
        nodes += ab_bench_position(&e->ab, &s, depth);
    }
    *ms = (now_us() - t0) / 1000;
    return nodes;
}

static const struct opt_spec options[] = {
    {"Hash", OPT_SPIN, "64", 1, 65536, NULL, offsetof(struct loa_engine, hash_mb),
     "transposition table size in MiB"},
    {"Seed", OPT_SPIN, "0", 0, INT64_MAX, NULL, offsetof(struct loa_engine, seed),
     "seed of the engine's random choices"},
    {"Strategy", OPT_COMBO, "search", 0, 0, "search greedy random",
     offsetof(struct loa_engine, strategy), "search, or a baseline: greedy (best 1-ply eval), random"},
    {"Weights", OPT_STRING, "", 0, 0, NULL, offsetof(struct loa_engine, weights),
     "evaluation weights to change, name=value,... (for tuning; see docs/games/loa.md)"},
    {"ClearHash", OPT_BUTTON, "", 0, 0, NULL, 0, "empty the transposition table"},
    {NULL, 0, NULL, 0, 0, NULL, 0, NULL},
};

const struct engine loa_engine = {
    .game = &loa_game,
    .name = "Medan LOA",
    .author = "the Medan developers",
    .size = sizeof(struct loa_engine),
    .options = options,
    .init = init,
    .destroy = destroy,
    .newgame = newgame,
    .option_changed = option_changed,
    .go = go,
    .eval = eval_cmd,
    .bench = bench,
};
