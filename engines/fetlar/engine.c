/* engine.c - the Fetlar Hnefatafl player behind medan-fetlar: alpha-beta
 * (search/ab.c) with the tafl evaluation of eval.c, plus the greedy and
 * random baselines of the Strategy option. */
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../../core/util.h"
#include "../../protocol/engine.h"
#include "../../search/ab.h"
#include "../common/evalcache.h"
#include "../common/player.h"
#include "eval.h"
#include "fetlar.h"

/* The Contempt option's default, in centipawns: a draw counts this much
 * below even for the engine's side. */
#define FETLAR_DEFAULT_CONTEMPT "200"
/* Late-move pruning up to this depth (search/ab.h's default is none). */
#define FETLAR_LMP_DEPTH 3

/* Evaluations already made, by position: the quiescence search evaluates
 * every node it visits, and many are reached again (transpositions, the
 * next iteration).  Direct-mapped, the whole key kept; emptied when the
 * weights change.  Shared by the search threads (Threads) without a lock:
 * two words read and written with relaxed atomics, the key stored XOR-ed
 * with the score, so a slot torn by two threads storing at once (one's
 * score, the other's key) does not match and is a miss. */
#define FETLAR_EVAL_CACHE (1 << 14)

struct fetlar_engine {
    struct ab_player p; /* first: the abp_engine_* members rely on it */
    char weights[OPT_STR_LEN];
    struct fetlar_weights w;
    struct evalcache_slot cache[FETLAR_EVAL_CACHE];
};
AB_PLAYER_FIRST(struct fetlar_engine, p);

/* Draws (repetition, the 100-ply rule) count Contempt below even for the
 * side the engine plays (search/ab.c), so it plays on instead of taking a
 * draw in a position its evaluation finds slightly worse. */
static int ev(void *eng, const void *st)
{
    struct fetlar_engine *e = eng;
    const struct fetlar_state *s = st;
    /* the score also depends on the quiet-ply count once it fades */
    uint64_t key = s->hash ^ (s->quiet > e->w.quiet_fade
                                  ? (uint64_t)s->quiet * 0x9e3779b97f4a7c15u : 0);
    struct evalcache_slot *slot = evalcache_slot(e->cache, FETLAR_EVAL_CACHE, key);
    int score;
    if (evalcache_get(slot, key, &score))
        return score;
    score = fetlar_evaluate(s, &e->w, NULL);
    evalcache_put(slot, key, score);
    return score;
}

static void mark_tactical(const void *st, const gmove *mv, int n, unsigned char *out)
{
    fetlar_mark_tactical(st, mv, n, out);
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

/* The solver's key: the 100-ply rule makes the quiet-ply count part of a
 * position's result, and the game's hash leaves it out. */
static uint64_t solve_key(const void *st)
{
    const struct fetlar_state *s = st;
    return s->hash ^ ((uint64_t)s->quiet + 1) * 0xd6e8feb86659fd93ULL;
}

static const struct ab_ops fetlar_ab_ops = {
    .eval = ev,
    .is_tactical = is_tactical,
    .mark_tactical = mark_tactical,
    .move_key = move_key,
    .gen_tactical = gen_tactical,
    .null_move = null_move,
    .terminal = terminal,
    .solve_key = solve_key,
};

static void init(void *eng)
{
    struct fetlar_engine *e = eng;
    e->w = fetlar_default_weights;
    memset(e->cache, 0, sizeof e->cache);
    /* the search's tunables: search/ab.h's, with late-move pruning (a tafl
     * position has about a hundred moves; docs/games/fetlar.md) */
    struct ab_params par = ab_default_params;
    par.lmp_depth = FETLAR_LMP_DEPTH;
    abp_init(&e->p, &fetlar_game, &fetlar_ab_ops, e, &par);
}

static int option_changed(void *eng, const struct opt_spec *o, char *err, size_t n)
{
    struct fetlar_engine *e = eng;
    if (strcmp(o->name, "Weights") == 0) {
        struct fetlar_weights w = fetlar_default_weights;
        if (fetlar_weights_parse(&w, e->weights, err, n))
            return -1;
        e->w = w;
        memset(e->cache, 0, sizeof e->cache);
        return 0;
    }
    return abp_option_changed(&e->p, o, err, n);
}

static int eval_cmd(void *eng, const void *pos, char *buf, size_t n)
{
    const struct fetlar_engine *e = eng;
    struct fetlar_terms t;
    size_t len = 0;
    int score = fetlar_evaluate(pos, &e->w, &t);
    buf_printf(buf, n, &len,
               "%d tactic=%d material=%d routes=%d corner_dist=%d guards=%d "
               "king_free=%d cordon=%d pressure=%d",
               score, t.tactic, t.material, t.king_routes, t.corner_dist,
               t.guards, t.king_free, t.cordon, t.pressure);
    return 0;
}

/* Bench: fixed-depth searches of these positions, the start and 11 from
 * random play (4 to 44 plies), written out: the fingerprint depends on the
 * search alone, not on the order the move generator yields moves in. */
#define FETLAR_BENCH_DEPTH 6
const char *const fetlar_bench_positions[] = {
    "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ b 0",
    "/3ttttt3/t4t5/11/5T4t/t2T1TT3t/tt1TTKTT1tt/t4TT3t/t4T4t/11/4Tt5/1t2tttt3/ b 4",
    "/3ttttt3/5t5/11/t1T4t3/1t2TT3Tt/1t1TTKT2tt/ttT2TT3t/t4T1T2t/11/5t5/3ttttt3/ b 8",
    "/3ttt1t3/5t5/11/tT4t2Tt/t2T1TT3t/tt2TKT3t/t2TTTT3t/4t5t/1t9/5Tt4/3ttttt3/ b 12",
    "/3tt1tt3/2t8/3T7/t4t4t/3tTTT3t/tt2TKTT1tt/t3T1T3t/3Tt4Tt/t1T8/3t1t5/5tt1t2/ b 16",
    "/1t2ttt4/1T4t4/6T4/t3T2t2t/t2t1T1Tt2/t2T1KT2tt/t3TTT3t/t4Tt3t/11/9t1/3ttt1tT2/ b 20",
    "/2t1tttt3/1t3tT4/9t1/2t2T4t/t6Tt2/2TK2T3t/t2TTTT1tt1/1T7Tt/7T3/4tt5/3ttttt3/ b 24",
    "/3ttt1t3/4T6/10T/t3t1tt1t1/tT2T1T2Tt/tt1TTKT3t/t4TTt1t1/2t2T4t/4t6/1t9/3t1tt4/ b 28",
    "/5tt4/5tTt3/3t7/3Tt1t4/t5Tt2T/t1T1TKT3t/t1t1TT1t2t/tt7Tt/9t1/6t4/1t2ttTt3/ b 17",
    "/1tt1t1tt3/t5TT3/3t7/t3Tt4t/t1t2T1t3/t2TTK1T1tt/T1TT6t/1t9/t6T3/3t7/3tttt4/ b 19",
    "/3tttt4/1T2T5t/11/8t2/tT4Tt2t/tt1tTKTt3/1tTT1TT3t/2t1t4Tt/5tt4/2t8/4t3tt1/ b 27",
    "/3tt2t3/2tT5T1/10t/3t2tt2t/2t1TTT2Tt/tt2TKT2t1/t3T5t/tT1t7/6T4/5t5/2Tttttt3/ b 44",
    NULL,
};

static uint64_t bench(void *eng, int depth, int64_t *ms, info_fn info, void *ctx)
{
    struct fetlar_engine *e = eng;
    (void)info;
    (void)ctx;
    return abp_bench(&e->p, depth > 0 ? depth : FETLAR_BENCH_DEPTH, fetlar_bench_positions, ms);
}

static const struct opt_spec options[] = {
    AB_PLAYER_OPTIONS(struct fetlar_engine, p),
    AB_PLAYER_CONTEMPT(struct fetlar_engine, p, FETLAR_DEFAULT_CONTEMPT),
    {"Weights", OPT_STRING, "", 0, 0, NULL, offsetof(struct fetlar_engine, weights),
     "evaluation weights to change, name=value,... (for tuning; see docs/games/fetlar.md)"},
    {NULL, 0, NULL, 0, 0, NULL, 0, NULL},
};

const struct engine fetlar_engine = {
    .game = &fetlar_game,
    .name = "Medan Fetlar",
    .author = "the Medan developers",
    .size = sizeof(struct fetlar_engine),
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
