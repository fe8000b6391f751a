/* spsa-nim.c - a Nim engine whose strength is a known function of its
 * options: the synthetic problem of `medan-referee tune`'s test
 * (tests/run-tune.sh).
 *
 *   spsa-nim        a MEP engine for the referee's `nim` game
 *
 * Options: Skill (a spin 0..1000), Temper (a string holding a real number)
 * and Weights (named integers: bias=N, -100..100).  Each move it plays a
 * winning move (one that leaves a nim-sum of 0) with probability
 *
 *   p = max(0, 1 - d / 5),  d = sqrt(dx^2 + dy^2 + dz^2),
 *   dx = (Skill - 700) / 250, dy = (Temper - 0.35) / 0.25,
 *   dz = (bias - 40) / 50
 *
 * (a cone: its slope is the same far from the optimum as near it, so a
 * start far away still feels which way to go), *
 * and otherwise a uniformly random legal move, all drawn from a PRNG seeded
 * by the Seed option (and reseeded by newgame): the optimum is Skill 700,
 * Temper 0.35, bias 40, and the farther an engine is from it, the more
 * games it loses.  Strategy=random plays random moves.  It ignores every
 * limit (it answers at once).
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "protocol/engine.h"
#include "protocol/mep.h"
#include "tests/games/nim/nim.h"
#include "tests/games/nim/nim_api.h"

struct spsa_nim {
    int64_t seed, skill;
    char strategy[OPT_STR_LEN], temper[OPT_STR_LEN], weights[OPT_STR_LEN];
    double temper_v;
    struct {
        int bias;
    } w;
    struct rng rng;
};

static const struct named_int weight_names[] = {
    {"bias", offsetof(struct spsa_nim, w.bias) - offsetof(struct spsa_nim, w)},
};

static int parse_temper(const char *s, double *out)
{
    char *end;
    double x = strtod(s, &end);
    if (!*s || *end || !isfinite(x) || x < 0 || x > 1)
        return -1;
    *out = x;
    return 0;
}

static void init(void *eng)
{
    struct spsa_nim *e = eng;
    e->temper_v = 0.5;
    e->w.bias = 0;
    rng_seed(&e->rng, (uint64_t)e->seed);
}

static void newgame(void *eng)
{
    struct spsa_nim *e = eng;
    rng_seed(&e->rng, (uint64_t)e->seed);
}

static int option_changed(void *eng, const struct opt_spec *o, char *err, size_t n)
{
    struct spsa_nim *e = eng;
    if (strcmp(o->name, "Seed") == 0)
        rng_seed(&e->rng, (uint64_t)e->seed);
    else if (strcmp(o->name, "Temper") == 0) {
        if (parse_temper(e->temper, &e->temper_v) < 0)
            return set_err(err, n, -1, "Temper takes a number from 0 to 1");
    } else if (strcmp(o->name, "Weights") == 0) {
        e->w.bias = 0;
        return named_ints_parse(&e->w, sizeof e->w, weight_names, 1, -100, 100,
                                "weight", e->weights, err, n);
    }
    return 0;
}

static gmove go(void *eng, const struct search_req *req, gmove *ponder)
{
    struct spsa_nim *e = eng;
    gmove *mv = game_move_buf(&nim_game), best;
    int nm = game_gen_moves(&nim_game, req->pos, mv), nwin = 0;
    double dx = ((double)e->skill - 700) / 250, dy = (e->temper_v - 0.35) / 0.25,
           dz = ((double)e->w.bias - 40) / 50;
    double p = 1.0 - sqrt(dx * dx + dy * dy + dz * dz) / 5;
    *ponder = GAME_MOVE_NONE;
    if (nm <= 0) {
        free(mv);
        return GAME_MOVE_NONE;
    }
    if (strcmp(e->strategy, "tuned") == 0 && rng_double(&e->rng) < p) {
        /* the winning moves, moved to the front */
        for (int i = 0; i < nm; i++) {
            struct nim_state s;
            memcpy(&s, req->pos, sizeof s);
            nim_game.play(&s, mv[i]);
            if (nim_sum(&s) == 0) {
                gmove t = mv[nwin];
                mv[nwin++] = mv[i];
                mv[i] = t;
            }
        }
    }
    best = mv[rng_below(&e->rng, (uint64_t)(nwin ? nwin : nm))];
    free(mv);
    return best;
}

static const struct opt_spec options[] = {
    {"Seed", OPT_SPIN, "0", 0, INT64_MAX, NULL, offsetof(struct spsa_nim, seed),
     "seed of the engine's random choices"},
    {"Strategy", OPT_COMBO, "tuned", 0, 0, "tuned random",
     offsetof(struct spsa_nim, strategy), "tuned: the skill the options give; random"},
    {"Skill", OPT_SPIN, "500", 0, 1000, NULL, offsetof(struct spsa_nim, skill),
     "the integer parameter (best at 700)"},
    {"Temper", OPT_STRING, "0.5", 0, 0, NULL, offsetof(struct spsa_nim, temper),
     "the real parameter, 0..1 (best at 0.35)"},
    {"Weights", OPT_STRING, "", 0, 0, NULL, offsetof(struct spsa_nim, weights),
     "named integers: bias=N, -100..100 (best at 40)"},
    {NULL, 0, NULL, 0, 0, NULL, 0, NULL},
};

static const struct engine spsa_nim_engine = {
    .game = &nim_game,
    .name = "spsa-nim (tune's synthetic problem)",
    .author = "the Medan developers",
    .size = sizeof(struct spsa_nim),
    .options = options,
    .init = init,
    .newgame = newgame,
    .option_changed = option_changed,
    .go = go,
};

int main(int argc, char **argv) { return mep_main(&spsa_nim_engine, argc, argv); }
