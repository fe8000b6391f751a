/* engine.c - Nim's player `nim_engine`: the generic alpha-beta of search/ab.c
 * through the shared two-seat player (engines/common/player.h: Hash, Seed, Strategy
 * search|greedy|random, ClearHash).  The evaluation knows nothing (0): the
 * search alone proves wins, with the nim-sum shown by `eval`. */
#include <stddef.h>
#include <stdio.h>

#include "../../../protocol/engine.h"
#include "../../../search/ab.h"
#include "../../../engines/common/player.h"
#include "nim.h"
#include "nim_api.h"

struct nim_engine {
    struct ab_player p; /* first: the abp_engine_* members rely on it */
};
AB_PLAYER_FIRST(struct nim_engine, p);

static int ev(void *eng, const void *st)
{
    (void)eng;
    (void)st;
    return 0;
}

static unsigned move_key(gmove m) { return (unsigned)(m & 1023); }

/* No stone left: the side to move has lost. */
static int terminal(const void *st, int *outcome)
{
    if (nim_game.count_moves(st))
        return 0;
    *outcome = -1;
    return 1;
}

static const struct ab_ops nim_ab_ops = {
    .eval = ev,
    .move_key = move_key,
    .terminal = terminal,
};

static void init(void *eng)
{
    struct nim_engine *e = eng;
    abp_init(&e->p, &nim_game, &nim_ab_ops, e, NULL);
}

static int option_changed(void *eng, const struct opt_spec *o, char *err, size_t n)
{
    struct nim_engine *e = eng;
    return abp_option_changed(&e->p, o, err, n);
}

static int eval_cmd(void *eng, const void *pos, char *buf, size_t n)
{
    (void)eng;
    snprintf(buf, n, "0 nimsum %d", nim_sum(pos));
    return 0;
}

/* Bench: a fixed list of positions (nim_api.h), searched to depth 6. */
const char *const nim_bench_positions[] = {
    "3,4,5 1", "1,2,3 2", "2,3,4 1", "1,4,5 2", "5,5 1", "2,6,7 2", NULL,
};

static uint64_t bench(void *eng, int depth, int64_t *ms, info_fn info, void *ctx)
{
    struct nim_engine *e = eng;
    (void)info;
    (void)ctx;
    return abp_bench(&e->p, depth > 0 ? depth : 6, nim_bench_positions, ms);
}

static const struct opt_spec options[] = {
    AB_PLAYER_OPTIONS(struct nim_engine, p),
    {NULL, 0, NULL, 0, 0, NULL, 0, NULL},
};

const struct engine nim_engine = {
    .game = &nim_game,
    .name = "Medan Nim (test game)",
    .author = "the Medan developers",
    .size = sizeof(struct nim_engine),
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
