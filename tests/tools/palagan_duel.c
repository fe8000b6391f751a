/* palagan_duel.c - in-process Palagan matches for strength figures (not run
 * by `make test`; see tests/palagan-strength.sh).
 *
 *   palagan_duel <opponent> <games> <ms> [size] [seed] [params] [opp-params]
 *
 * params set the search of the engine (and opp-params that of a `search`
 * opponent): comma-separated grave=<ref> (GRAVE, as Rave=grave
 * GraveRef=<ref>; 0 = plain RAVE), reuse=0|1 (TreeReuse), threads=<n>
 * (Threads: n threads on the shared tree), or - for the defaults.  The last line gives the engine's Elo against the opponent
 * with a 95% interval (normal approximation over the game scores).
 *
 * The MCTS engine (mcts.c, `go movetime <ms>` through the real time
 * manager) plays `games` games against `opponent` (random, greedy, or
 * search: MCTS at the same time), colours alternating, and prints one line
 * per game and the totals.  Every turn is checked by formatting it and
 * parsing it back as a legal move token.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "engines/palagan/mcts.h"
#include "engines/palagan/palagan.h"
#include "engines/palagan/strategy.h"

static gmove search_turn(struct mcts *t, const struct pal_state *s, int64_t ms)
{
    atomic_bool stop = false;
    struct search_req req;
    memset(&req, 0, sizeof req);
    req.game = &palagan_game;
    req.pos = s;
    limits_clear(&req.lim);
    req.lim.movetime = ms;
    req.start_us = now_us();
    req.stop = &stop;
    return mc_go(t, &req);
}

static int set_params(struct mcts *t, const char *spec)
{
    struct mc_params *p = &t->par;
    if (!spec || strcmp(spec, "-") == 0)
        return 0;
    char buf[128];
    snprintf(buf, sizeof buf, "%s", spec);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        if (strncmp(tok, "grave=", 6) == 0)
            p->grave_ref = atoi(tok + 6);
        else if (strncmp(tok, "reuse=", 6) == 0)
            p->reuse = atoi(tok + 6) != 0;
        else if (strncmp(tok, "threads=", 8) == 0) {
            int n = atoi(tok + 8);
            if (n < 1 || n > MC_MAX_THREADS || mc_set_threads(t, n) != 0)
                return -1;
        }
        else
            return -1;
    }
    return 0;
}

/* Elo of a score share p, clamped away from 0 and 1. */
static double elo_of(double p)
{
    p = p < 0.001 ? 0.001 : p > 0.999 ? 0.999 : p;
    return -400.0 * log10(1.0 / p - 1.0);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: palagan_duel random|greedy|search <games> <ms> [size] [seed]\n");
        return 2;
    }
    const char *opp = argv[1];
    int games = atoi(argv[2]), size = argc > 4 ? atoi(argv[4]) : 5;
    int64_t ms = atoll(argv[3]);
    uint64_t seed = argc > 5 ? strtoull(argv[5], NULL, 10) : 1;
    if (size < PAL_MIN_N || size > PAL_MAX_N || games < 1 || ms < 1)
        return 2;
    static struct mcts me, other;
    mc_init(&me, 64, seed);
    mc_init(&other, 64, seed + 1000);
    if (set_params(&me, argc > 6 ? argv[6] : NULL) != 0 ||
        set_params(&other, argc > 7 ? argv[7] : NULL) != 0) {
        fprintf(stderr, "bad params: grave=<ref>,reuse=0|1,threads=<n> or -\n");
        return 2;
    }
    struct rng r;
    rng_seed(&r, seed);
    int w = 0, d = 0, l = 0, capfor = 0, capagainst = 0;
    unsigned long long searches = 0, reused = 0, sims = 0;
    for (int gi = 0; gi < games; gi++) {
        int my = gi % 2; /* 0: the engine plays black */
        struct pal_state s;
        pal_start(&s, size);
        int plies = 0;
        mc_clear(&me);
        mc_clear(&other);
        while (!pal_over(&s)) {
            gmove m;
            if (s.stm == my) {
                m = search_turn(&me, &s, ms);
                searches++;
                reused += me.reused;
                sims += me.sims;
            }
            else if (strcmp(opp, "random") == 0)
                m = pal_random_turn(&s, &r);
            else if (strcmp(opp, "greedy") == 0)
                m = pal_greedy_turn(&s, &r);
            else
                m = search_turn(&other, &s, ms);
            char tok[64], err[GAME_ERR_LEN];
            gmove back;
            palagan_game.format_move(&s, m, tok, sizeof tok);
            if (palagan_game.parse_move(&s, tok, &back, err, sizeof err) != 0 || back != m) {
                fprintf(stderr, "illegal turn %s: %s\n", tok, err);
                return 1;
            }
            palagan_game.play(&s, m);
            plies++;
        }
        int mine = s.captures[my], theirs = s.captures[my ^ 1];
        capfor += mine;
        capagainst += theirs;
        const char *res = mine > theirs ? "win" : mine < theirs ? "loss" : "draw";
        w += mine > theirs;
        l += mine < theirs;
        d += mine == theirs;
        printf("game %d engine=%s %s %d-%d plies %d reason %s\n", gi + 1, my ? "white" : "black",
               res, mine, theirs, plies, s.passes >= 2 ? "passes" : "quiet");
        fflush(stdout);
    }
    printf("total vs %s: %d games at %lld ms/turn, size %d: %d wins %d draws %d losses, "
           "captures %d-%d\n",
           opp, games, (long long)ms, size, w, d, l, capfor, capagainst);
    const double n = games, p = (w + 0.5 * d) / n;
    const double var = (w * (1 - p) * (1 - p) + d * (0.5 - p) * (0.5 - p) + l * p * p) / n;
    const double se = sqrt(var / n);
    printf("elo %+.0f [%+.0f, %+.0f] (95%%), score %.3f over %d games\n", elo_of(p),
           elo_of(p - 1.96 * se), elo_of(p + 1.96 * se), p, games);
    fprintf(stderr, "engine: %llu searches, %llu simulations, %llu root visits reused\n",
            searches, sims, reused);
    mc_free(&me);
    mc_free(&other);
    return 0;
}
