/* engine.c - the Lines of Action player behind medan-loa: alpha-beta
 * (search/ab.c) with the evaluation of eval.c, plus the greedy and random
 * baselines of the Strategy option. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../../core/util.h"
#include "../../protocol/engine.h"
#include "../../search/ab.h"
#include "../common/evalcache.h"
#include "../common/player.h"
#include "eval.h"
#include "loa.h"

/* Evaluations cached by position (the key is the Zobrist hash, which also
 * tells the 6x6 board): a position is evaluated again and again, by its
 * node, its quiescence and its transpositions. */
#define LOA_EVAL_CACHE (1 << 14)

struct loa_engine {
    struct ab_player p; /* first: the abp_engine_* members rely on it */
    char weights[OPT_STR_LEN];
    struct loa_weights w;
    struct evalcache_slot cache[LOA_EVAL_CACHE];
};
AB_PLAYER_FIRST(struct loa_engine, p);

static int ev(void *eng, const void *st)
{
    struct loa_engine *e = eng;
    const struct loa_state *s = st;
    struct evalcache_slot *slot = evalcache_slot(e->cache, LOA_EVAL_CACHE, s->hash);
    int score;
    if (evalcache_get(slot, s->hash, &score))
        return score;
    score = loa_eval(s, &e->w);
    evalcache_put(slot, s->hash, score);
    return score;
}

static int is_tactical(const void *st, gmove m)
{
    (void)st;
    return LOA_CAP(m);
}

/* Quiescence over captures: +151 Elo [+82, +234] in 100 games at 50 ms. */
static int gen_captures(const void *st, gmove *out, int max)
{
    (void)max; /* at most LOA_MAX_MOVES <= AB_MAX_MOVES */
    return loa_gen_captures(st, out);
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
    .gen_tactical = gen_captures,
    .null_move = null_move,
    .terminal = terminal,
};

#define LOA_RFP_MARGIN 27    /* reverse futility margin a ply (search/ab.h: 90) */
#define LOA_LMR_MIN_MOVES 5 /* late-move reductions after this many moves (4) */
#define LOA_ASP_WINDOW 41   /* the first aspiration window's half-width (40) */

static void init(void *eng)
{
    struct loa_engine *e = eng;
    e->w = loa_default_weights;
    memset(e->cache, 0, sizeof e->cache);
    /* the search's tunables: search/ab.h's, with LOA's own values tuned by
     * SPSA with the weights (docs/games/loa.md, "Tuning") */
    struct ab_params par = ab_default_params;
    par.futility_margin = LOA_RFP_MARGIN;
    par.lmr_min_moves = LOA_LMR_MIN_MOVES;
    par.aspiration = LOA_ASP_WINDOW;
    abp_init(&e->p, &loa_game, &loa_ab_ops, e, &par);
}

static int option_changed(void *eng, const struct opt_spec *o, char *err, size_t n)
{
    struct loa_engine *e = eng;
    if (strcmp(o->name, "Weights") == 0) {
        struct loa_weights w = loa_default_weights;
        if (loa_weights_parse(&w, e->weights, err, n))
            return -1;
        e->w = w;
        memset(e->cache, 0, sizeof e->cache);
    } else
        return abp_option_changed(&e->p, o, err, n);
    return 0;
}

static int eval_cmd(void *eng, const void *pos, char *buf, size_t n)
{
    struct loa_engine *e = eng;
    loa_eval_terms(pos, &e->w, buf, n);
    return 0;
}

/* Bench: fixed-depth searches of these positions, the start and 11 from
 * random play (3 to 33 plies), written out: the fingerprint depends on the
 * search alone, not on the order the move generator yields moves in. */
#define LOA_BENCH_DEPTH 8
const char *const loa_bench_positions[] = {
    "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b",
    "1bbbbb2/w6w/w5bw/w6w/w6w/2wb3w/w6w/1bbbb1b1 w",
    "1bb1bbb1/w6w/5b1w/w6w/w1w4w/w7/w4w2/1bbbbwb1 b",
    "1b2b1b1/w1b2b1w/w3b2w/4w2w/2w4w/2wb3w/w7/1bb1b1b1 w",
    "1wbbbbbb/8/w6w/w4w2/w4w1w/w2bbw2/w7/b1bb1w2 b",
    "1b1bbb2/5w2/b6w/w6w/w1w3w1/w2b3b/5b1w/wbwb2b1 w",
    "3b2b1/w3b1w1/w1b5/wb2wb2/w1w3ww/1bb4w/1w5w/2bb1bb1 b",
    "2bb2b1/6w1/wb6/7w/w1w1bww1/4w2b/w2b4/1bbb4 w",
    "b2bbbw1/2w3b1/b6w/b6w/2b2w2/w2b3w/w1w2b2/1b3b1w b",
    "3w4/ww3w1w/1w1b1bb1/2b2wb1/w6w/7b/8/2wbb1b1 w",
    "1bbb4/w4w2/b7/5b1w/2w1b3/2w4b/wwb1w3/2b1b1b1 b",
    "3w2w1/1bw1w3/1bw5/5w2/5w2/1w4b1/w6w/3b1bb1 w",
    NULL,
};

static uint64_t bench(void *eng, int depth, int64_t *ms, info_fn info, void *ctx)
{
    struct loa_engine *e = eng;
    (void)info;
    (void)ctx;
    return abp_bench(&e->p, depth > 0 ? depth : LOA_BENCH_DEPTH, loa_bench_positions, ms);
}

static const struct opt_spec options[] = {
    AB_PLAYER_OPTIONS(struct loa_engine, p),
    {"Weights", OPT_STRING, "", 0, 0, NULL, offsetof(struct loa_engine, weights),
     "evaluation weights to change, name=value,... (for tuning; see docs/games/loa.md)"},
    {NULL, 0, NULL, 0, 0, NULL, 0, NULL},
};

const struct engine loa_engine = {
    .game = &loa_game,
    .name = "Medan LOA",
    .author = "the Medan developers",
    .size = sizeof(struct loa_engine),
    .multipv = true,
    .solve = true,
    .options = options,
    .init = init,
    .destroy = abp_engine_destroy,
    .newgame = abp_engine_newgame,
    .option_changed = option_changed,
    .go = abp_engine_go,
    .eval = eval_cmd,
    .bench = bench,
};
