/* engine.c - the Lines of Action player behind medan-loa: alpha-beta
 * (search/ab.c) with the evaluation of eval.c, plus the greedy and random
 * baselines of the Strategy option. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../../core/util.h"
#include "../../protocol/engine.h"
#include "../../search/ab.h"
#include "../common/player.h"
#include "eval.h"
#include "loa.h"

struct loa_engine {
    struct ab_player p; /* first: the abp_engine_* members rely on it */
    char weights[OPT_STR_LEN];
    struct loa_weights w;
};
AB_PLAYER_FIRST(struct loa_engine, p);

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

static void init(void *eng)
{
    struct loa_engine *e = eng;
    e->w = loa_default_weights;
    abp_init(&e->p, &loa_game, &loa_ab_ops, e);
}

static int option_changed(void *eng, const struct opt_spec *o, char *err, size_t n)
{
    struct loa_engine *e = eng;
    if (strcmp(o->name, "Weights") == 0) {
        struct loa_weights w = loa_default_weights;
        if (loa_weights_parse(&w, e->weights, err, n))
            return -1;
        e->w = w;
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

/* Bench: the start and 11 middlegames reached by seeded random play. */
static uint64_t bench(void *eng, int depth, int64_t *ms, info_fn info, void *ctx)
{
    struct loa_engine *e = eng;
    (void)info;
    (void)ctx;
    return abp_bench(&e->p, depth > 0 ? depth : 8, 12, 3, 1000, ms);
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
    .options = options,
    .init = init,
    .destroy = abp_engine_destroy,
    .newgame = abp_engine_newgame,
    .option_changed = option_changed,
    .go = abp_engine_go,
    .eval = eval_cmd,
    .bench = bench,
};
