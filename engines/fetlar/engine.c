/* engine.c - the Fetlar Hnefatafl player behind medan-fetlar: alpha-beta
 * (search/ab.c) with the tafl evaluation of eval.c, plus the greedy and
 * random baselines of the Strategy option. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../../core/util.h"
#include "../../protocol/engine.h"
#include "../../search/ab.h"
#include "eval.h"
#include "fetlar.h"

struct fetlar_engine {
    int64_t hash_mb;
    int64_t seed;
    int64_t contempt;
    char strategy[OPT_STR_LEN];
    int root_side; /* side to move at the root of the running search */
    struct ab ab;
    struct rng rng;
};

/* The static evaluation plus contempt: the side the engine plays counts
 * every undecided position `Contempt` better than a draw (the search scores
 * repetition and the 100-ply rule 0), so it plays on instead of taking a
 * draw in a position its evaluation finds slightly worse. */
static int ev(void *eng, const void *st)
{
    const struct fetlar_engine *e = eng;
    const struct fetlar_state *s = st;
    int v = fetlar_evaluate(s, NULL);
    if (v > -FETLAR_EVAL_WIN + 1000 && v < FETLAR_EVAL_WIN - 1000)
        v += s->side == e->root_side ? (int)e->contempt : -(int)e->contempt;
    return v;
}

static int is_tactical(const void *st, gmove m)
{
    return fetlar_is_tactical(st, m);
}

static unsigned move_key(gmove m)
{
    return (unsigned)(FETLAR_FROM(m) * FETLAR_SQ + FETLAR_TO(m));
}

static int gen_tactical(const void *st, gmove *out, int max)
{
    return fetlar_gen_tactical(st, out, max);
}

static void null_move(void *st) { fetlar_pass(st); }

/* Game over by the rules needing no history: the last mover won (king
 * captured or escaped), 100 quiet plies drew, no legal move loses. */
static int decided(const struct fetlar_state *s)
{
    if (s->over)
        return -1;
    if (s->quiet >= FETLAR_DRAW_PLIES)
        return 2;
    return fetlar_count(s) == 0 ? -1 : 0;
}

static int terminal(const void *st, int *outcome)
{
    int d = decided(st);
    if (!d)
        return 0;
    *outcome = d == 2 ? 0 : d;
    return 1;
}

static const struct ab_ops fetlar_ab_ops = {
    .eval = ev,
    .is_tactical = is_tactical,
    .move_key = move_key,
    .gen_tactical = gen_tactical,
    .null_move = null_move,
    .terminal = terminal,
};

static void init(void *eng)
{
    struct fetlar_engine *e = eng;
    ab_init(&e->ab, &fetlar_game, &fetlar_ab_ops, e, (size_t)e->hash_mb);
    rng_seed(&e->rng, (uint64_t)e->seed);
}

static void destroy(void *eng)
{
    struct fetlar_engine *e = eng;
    ab_free(&e->ab);
}

static void newgame(void *eng)
{
    struct fetlar_engine *e = eng;
    ab_clear(&e->ab);
    rng_seed(&e->rng, (uint64_t)e->seed);
}

static int option_changed(void *eng, const struct opt_spec *o, char *err,
                          size_t n)
{
    struct fetlar_engine *e = eng;
    (void)err;
    (void)n;
    if (strcmp(o->name, "Hash") == 0)
        ab_resize(&e->ab, (size_t)e->hash_mb);
    else if (strcmp(o->name, "Seed") == 0)
        rng_seed(&e->rng, (uint64_t)e->seed);
    else if (strcmp(o->name, "ClearHash") == 0)
        ab_clear(&e->ab);
    return 0;
}

/* Greedy: the best one-ply evaluation; a win at once is taken. */
static gmove go_greedy(struct fetlar_engine *e, const struct fetlar_state *s)
{
    gmove mv[512];
    int n = fetlar_gen(s, mv, 512), best = -AB_WIN * 8 - 8;
    gmove bm = n > 0 ? mv[0] : GAME_MOVE_NONE;
    for (int i = 0; i < n; i++) {
        struct fetlar_state c = *s;
        fetlar_play(&c, mv[i]);
        int d = decided(&c);
        int sc = d == -1 ? AB_WIN : d == 1 ? -AB_WIN : d == 2 ? 0
                 : -fetlar_evaluate(&c, NULL);
        sc = sc * 8 + (int)rng_below(&e->rng, 8); /* tie-break */
        if (sc > best) {
            best = sc;
            bm = mv[i];
        }
    }
    return bm;
}

static gmove go(void *eng, const struct search_req *req, gmove *ponder)
{
    struct fetlar_engine *e = eng;
    const struct fetlar_state *s = req->pos;
    *ponder = GAME_MOVE_NONE;
    if (strcmp(e->strategy, "random") == 0) {
        gmove mv[512];
        int n = fetlar_gen(s, mv, 512);
        return n > 0 ? mv[rng_below(&e->rng, (uint64_t)n)] : GAME_MOVE_NONE;
    }
    if (strcmp(e->strategy, "greedy") == 0)
        return go_greedy(e, s);
    if (e->contempt && s->side != e->root_side)
        ab_clear(&e->ab); /* stored scores hold the other side's contempt */
    e->root_side = s->side;
    return ab_go(&e->ab, req, ponder);
}

static int eval_cmd(void *eng, const void *pos, char *buf, size_t n)
{
    struct fetlar_terms t;
    size_t len = 0;
    (void)eng;
    int score = fetlar_evaluate(pos, &t);
    buf_printf(buf, n, &len,
               "%d tactic=%d material=%d routes=%d corner_dist=%d guards=%d "
               "king_free=%d cordon=%d pressure=%d",
               score, t.tactic, t.material, t.king_routes, t.corner_dist,
               t.guards, t.king_free, t.cordon, t.pressure);
    return 0;
}

/* Bench positions: the start and positions reached by seeded random play
 * (fixed forever: changing them changes the Bench fingerprint). */
static uint64_t bench(void *eng, int depth, int64_t *ms, info_fn info,
                      void *ctx)
{
    struct fetlar_engine *e = eng;
    uint64_t nodes = 0;
    int64_t t0 = now_us();
    (void)info;
    (void)ctx;
    if (depth <= 0)
        depth = 6;
    for (int i = 0; i < 12; i++) {
        struct fetlar_state s;
        struct rng r;
        fetlar_game.start(&s, NULL);
        rng_seed(&r, 5000 + (uint64_t)i);
        for (int ply = 0; ply < i * 4; ply++) {
            gmove mv[512];
            int n = fetlar_gen(&s, mv, 512);
            if (n <= 0)
                break;
            struct fetlar_state c = s;
            fetlar_play(&c, mv[rng_below(&r, (uint64_t)n)]);
            if (decided(&c))
                continue;
            s = c;
        }
        ab_clear(&e->ab);
        e->root_side = s.side;
        nodes += ab_bench_position(&e->ab, &s, depth);
    }
    *ms = (now_us() - t0) / 1000;
    return nodes;
}

static const struct opt_spec options[] = {
    {"Hash", OPT_SPIN, "64", 1, 65536, NULL,
     offsetof(struct fetlar_engine, hash_mb), "transposition table size in MiB"},
    {"Seed", OPT_SPIN, "0", 0, INT64_MAX, NULL,
     offsetof(struct fetlar_engine, seed), "seed of the engine's random choices"},
    {"Contempt", OPT_SPIN, "200", 0, 1000, NULL,
     offsetof(struct fetlar_engine, contempt),
     "how much worse than an even position a draw is for the engine"},
    {"Strategy", OPT_COMBO, "search", 0, 0, "search greedy random",
     offsetof(struct fetlar_engine, strategy),
     "search, or a baseline: greedy (best 1-ply eval), random"},
    {"ClearHash", OPT_BUTTON, "", 0, 0, NULL, 0,
     "empty the transposition table"},
    {NULL, 0, NULL, 0, 0, NULL, 0, NULL},
};

const struct engine fetlar_engine = {
    .game = &fetlar_game,
    .name = "Medan Fetlar",
    .author = "the Medan developers",
    .size = sizeof(struct fetlar_engine),
    .options = options,
    .init = init,
    .destroy = destroy,
    .newgame = newgame,
    .option_changed = option_changed,
    .go = go,
    .eval = eval_cmd,
    .bench = bench,
};
