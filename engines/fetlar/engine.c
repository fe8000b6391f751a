/* engine.c - the Fetlar Hnefatafl player behind medan-fetlar: alpha-beta
 * (search/ab.c) with the tafl evaluation of eval.c, plus the greedy and
 * random baselines of the Strategy option. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../../core/util.h"
#include "../../protocol/engine.h"
#include "../../search/ab.h"
#include "../common/player.h"
#include "eval.h"
#include "fetlar.h"

/* The Contempt option's default, in centipawns: a draw counts this much
 * below even for the engine's side. */
#define FETLAR_DEFAULT_CONTEMPT "200"

struct fetlar_engine {
    struct ab_player p; /* first: the abp_engine_* members rely on it */
};
AB_PLAYER_FIRST(struct fetlar_engine, p);

/* Draws (repetition, the 100-ply rule) count Contempt below even for the
 * side the engine plays (search/ab.c), so it plays on instead of taking a
 * draw in a position its evaluation finds slightly worse. */
static int ev(void *eng, const void *st)
{
    (void)eng;
    return fetlar_evaluate(st, NULL);
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
    return fetlar_has_move(s) ? 0 : -1;
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
    abp_init(&e->p, &fetlar_game, &fetlar_ab_ops, e);
}

static int option_changed(void *eng, const struct opt_spec *o, char *err, size_t n)
{
    struct fetlar_engine *e = eng;
    return abp_option_changed(&e->p, o, err, n);
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

/* Bench: the start and 11 positions reached by seeded random play. */
static uint64_t bench(void *eng, int depth, int64_t *ms, info_fn info, void *ctx)
{
    struct fetlar_engine *e = eng;
    (void)info;
    (void)ctx;
    return abp_bench(&e->p, depth > 0 ? depth : 6, 12, 4, 5000, ms);
}

static const struct opt_spec options[] = {
    AB_PLAYER_OPTIONS(struct fetlar_engine, p),
    AB_PLAYER_CONTEMPT(struct fetlar_engine, p, FETLAR_DEFAULT_CONTEMPT),
    {NULL, 0, NULL, 0, 0, NULL, 0, NULL},
};

const struct engine fetlar_engine = {
    .game = &fetlar_game,
    .name = "Medan Fetlar",
    .author = "the Medan developers",
    .size = sizeof(struct fetlar_engine),
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
