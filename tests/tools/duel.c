/* duel.c - in-process engine-vs-engine games for two-seat games, for
 * measuring strength during development (the referee is the real tool).
 *
 *   duel <game> <games> <movetime-ms> [A-options] [B-options] [seed]
 *
 * Options are Name=value pairs separated by ';' (e.g. "Strategy=greedy").
 *
 * Games come in colour-swapped pairs from the same opening (4 seeded random
 * plies).  Prints each result and the score of A with a 95% interval.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "core/util.h"
#include "engines/registry.h"
#include "protocol/engine.h"
#include "protocol/options.h"

static void *make(const struct engine *e, const char *opts)
{
    void *eng = xcalloc(1, e->size);
    char buf[512], err[GAME_ERR_LEN], *save, *kv;
    opt_defaults(e->options, eng);
    e->init(eng);
    snprintf(buf, sizeof buf, "%s", opts);
    for (kv = strtok_r(buf, ";", &save); kv; kv = strtok_r(NULL, ";", &save)) {
        char *eq = strchr(kv, '=');
        const struct opt_spec *o;
        if (!eq)
            die("option '%s' needs =", kv);
        *eq = '\0';
        if (!(o = opt_find(e->options, kv)))
            die("no option %s", kv);
        if (opt_set(o, eng, eq + 1, err, sizeof err))
            die("%s", err);
        if (e->option_changed)
            e->option_changed(eng, o, err, sizeof err);
    }
    return eng;
}

/* Play one game; returns A's score (1, 0.5, 0). */
static double play(const struct engine *e, void *a, void *b, int a_seat, int movetime,
                   uint64_t seed, int *plies, const char **reason)
{
    const struct game *g = e->game;
    game_config_buf cfg_buf;
    game_state_buf st_buf;
    unsigned char *cfg = cfg_buf.b, *st = st_buf.b;
    static uint64_t hist[4096];
    gmove *mv = game_move_buf(g);
    struct game_result r;
    struct rng rng;
    int n = 0;
    atomic_bool stop = false, pond = false;
    atomic_llong hit = 0;
    g->config_default(cfg);
    g->start(st, cfg);
    rng_seed(&rng, seed);
    if (e->newgame) {
        e->newgame(a);
        e->newgame(b);
    }
    for (int i = 0; i < 4; i++) { /* opening */
        int k = game_gen_moves(g, st, mv);
        if (k <= 0)
            break;
        hist[n++] = g->hash(st);
        g->play(st, mv[rng_below(&rng, (uint64_t)k)]);
    }
    for (;;) {
        struct search_req req;
        gmove ponder, m;
        g->result(st, hist, n, &r);
        if (r.over)
            break;
        if (n >= 500) {
            r.over = 1;
            r.rank[0] = r.rank[1] = 1;
            r.reason = "maxplies";
            break;
        }
        memset(&req, 0, sizeof req);
        limits_clear(&req.lim);
        req.lim.movetime = movetime;
        req.game = g;
        req.pos = st;
        req.hist = hist;
        req.nhist = n;
        req.start_us = now_us();
        req.stop = &stop;
        req.pondering = &pond;
        req.ponderhit_us = &hit;
        m = e->go(g->to_move(st) == a_seat ? a : b, &req, &ponder);
        hist[n++] = g->hash(st);
        g->play(st, m);
    }
    free(mv);
    *plies = n;
    *reason = r.reason;
    if (r.rank[0] == r.rank[1])
        return 0.5;
    return r.rank[a_seat - 1] == 1 ? 1.0 : 0.0;
}

int main(int argc, char **argv)
{
    const struct engine *e;
    void *a, *b;
    int games, movetime;
    uint64_t seed;
    double sum = 0, sum2 = 0;
    int w = 0, l = 0, d = 0;
    if (argc < 4) {
        fprintf(stderr, "usage: duel <game> <games> <movetime-ms> [A:opts] [B:opts] [seed]\n");
        return 2;
    }
    if (!(e = engine_find(argv[1])))
        die("no engine for %s", argv[1]);
    games = atoi(argv[2]);
    movetime = atoi(argv[3]);
    a = make(e, argc > 4 ? argv[4] : "");
    b = make(e, argc > 5 ? argv[5] : "");
    seed = argc > 6 ? strtoull(argv[6], NULL, 10) : 1;
    for (int i = 0; i < games; i++) {
        int plies;
        const char *reason;
        int a_seat = i % 2 ? 2 : 1;
        double s = play(e, a, b, a_seat, movetime, mix64(seed, (uint64_t)(i / 2)), &plies, &reason);
        sum += s;
        sum2 += s * s;
        w += s == 1.0;
        l += s == 0.0;
        d += s == 0.5;
        printf("game %d: A as p%d: %s (%s, %d plies)\n", i + 1, a_seat,
               s == 1 ? "A wins" : s == 0 ? "B wins" : "draw", reason, plies);
        fflush(stdout);
    }
    double mean = sum / games, var = sum2 / games - mean * mean;
    double se = sqrt(var / games);
    printf("A: +%d -%d =%d  score %.3f +- %.3f (95%%)\n", w, l, d, mean, 1.96 * se);
    e->destroy(a);
    e->destroy(b);
    free(a);
    free(b);
    return 0;
}
