/* palagan_duel.c - in-process Palagan matches for strength figures (not run
 * by `make test`; see tests/palagan-strength.sh).
 *
 *   palagan_duel <opponent> <games> <ms> [size] [seed]
 *
 * The MCTS engine (mcts.c, `go movetime <ms>` through the real time
 * manager) plays `games` games against `opponent` (random, greedy, or
 * search: MCTS at the same time), colours alternating, and prints one line
 * per game and the totals.  Every turn is checked by formatting it and
 * parsing it back as a legal move token.
 */
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
    struct rng r;
    rng_seed(&r, seed);
    int w = 0, d = 0, l = 0, capfor = 0, capagainst = 0;
    for (int gi = 0; gi < games; gi++) {
        int my = gi % 2; /* 0: the engine plays black */
        struct pal_state s;
        pal_start(&s, size);
        int plies = 0;
        while (!pal_over(&s)) {
            gmove m;
            if (s.stm == my)
                m = search_turn(&me, &s, ms);
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
    mc_free(&me);
    mc_free(&other);
    return 0;
}
