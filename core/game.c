/* game.c - defaults and checks for struct game (see game.h). */
#include "game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

int game_count_moves(const struct game *g, const void *st)
{
    if (g->count_moves)
        return g->count_moves(st);
    gmove *buf = game_move_buf(g);
    int n = game_gen_moves(g, st, buf);
    free(buf);
    return n;
}

gmove *game_move_buf(const struct game *g)
{
    return xmalloc((size_t)g->max_moves * sizeof(gmove));
}

int game_gen_moves(const struct game *g, const void *st, gmove *out)
{
    int n = g->gen_moves(st, out, g->max_moves);
    if (n < 0) {
        /* Not outside input: the game's own bound is wrong. */
        fprintf(stderr, "internal error: %s generated more than its max_moves (%d) moves\n",
                g->name, g->max_moves);
        abort(); /* exit-ok: internal error, as assert */
    }
    return n;
}

const char *game_outcome2(const struct game_result *r)
{
    if (!r->over)
        return "none";
    if (r->rank[0] == r->rank[1])
        return "draw";
    return r->rank[0] < r->rank[1] ? "p1win" : "p2win";
}

int game_check(const struct game *g, char *err, size_t n)
{
    if (!g->name || !*g->name || strchr(g->name, ' '))
        return set_err(err, n, -1, "game without a usable name");
    if (g->min_seats < 2 || g->max_seats > GAME_MAX_SEATS ||
        g->min_seats > g->max_seats)
        return set_err(err, n, -1, "%s: bad seat range", g->name);
    if (!g->state_size || g->state_size > GAME_MAX_STATE)
        return set_err(err, n, -1, "%s: bad state_size", g->name);
    if (g->config_size > GAME_MAX_CONFIG)
        return set_err(err, n, -1, "%s: config_size too large", g->name);
    if (g->max_moves < 1 || g->max_moves > GAME_MAX_MOVES)
        return set_err(err, n, -1, "%s: max_moves %d is not 1..%d", g->name, g->max_moves,
                       GAME_MAX_MOVES);
    if (g->default_max_plies < 0)
        return set_err(err, n, -1, "%s: negative default_max_plies", g->name);
    if (!g->config_default || !g->config_set || !g->config_format ||
        !g->start || !g->parse_pos || !g->format_pos || !g->show ||
        !g->parse_move || !g->format_move || !g->gen_moves || !g->play ||
        !g->to_move || !g->nseats || !g->hash || !g->result)
        return set_err(err, n, -1, "%s: a required member is NULL", g->name);
    if (!g->view != !g->is_view)
        return set_err(err, n, -1, "%s: view and is_view go together", g->name);
    if (g->view) {
        /* hidden information: a referee must be able to give the deal and
         * the seat (GAME_KEY_SEED, GAME_KEY_SEAT) */
        game_config_buf cfg;
        char e[GAME_ERR_LEN];
        if (!g->config_size)
            return set_err(err, n, -1, "%s: hidden information without a config", g->name);
        g->config_default(cfg.b);
        if (g->config_set(cfg.b, GAME_KEY_SEED, "1", e, sizeof e) != GAME_OK)
            return set_err(err, n, -1, "%s: hidden information but no %s= key: %s", g->name,
                           GAME_KEY_SEED, e);
        if (g->config_set(cfg.b, GAME_KEY_SEAT, "1", e, sizeof e) != GAME_OK)
            return set_err(err, n, -1, "%s: hidden information but no %s= key: %s", g->name,
                           GAME_KEY_SEAT, e);
    }
    return 0;
}

/* One position of game_check_play. */
static int check_position(const struct game *g, const void *cfg, const void *st, gmove *mv,
                          int *nmv, struct rng *r, char *err, size_t n)
{
    game_state_buf back;
    char buf[16384], tok[256], e[GAME_ERR_LEN];
    int k = g->gen_moves(st, mv, g->max_moves);
    g->format_pos(st, buf, sizeof buf);
    if (k < 0)
        return set_err(err, n, -1, "%s: more than max_moves (%d) moves in '%s'", g->name,
                       g->max_moves, buf);
    if (k > 0 && g->gen_moves(st, mv, k - 1) != -1)
        return set_err(err, n, -1, "%s: gen_moves with room for %d of %d moves did not answer -1",
                       g->name, k - 1, k);
    k = g->gen_moves(st, mv, g->max_moves);
    if (g->count_moves && g->count_moves(st) != k)
        return set_err(err, n, -1, "%s: count_moves %d, gen_moves %d in '%s'", g->name,
                       g->count_moves(st), k, buf);
    if (g->perft2) {
        uint64_t sum = 0;
        for (int i = 0; i < k; i++) {
            memcpy(back.b, st, g->state_size);
            g->play(back.b, mv[i]);
            sum += (uint64_t)game_count_moves(g, back.b);
        }
        if (g->perft2(st) != sum)
            return set_err(err, n, -1, "%s: perft2 %llu, played out %llu in '%s'", g->name,
                           (unsigned long long)g->perft2(st), (unsigned long long)sum, buf);
    }
    if (g->parse_pos(back.b, cfg, buf, e, sizeof e) != GAME_OK)
        return set_err(err, n, -1, "%s: '%s' does not parse back: %s", g->name, buf, e);
    if (g->hash(back.b) != g->hash(st))
        return set_err(err, n, -1, "%s: '%s' parses back with another hash", g->name, buf);
    /* the tokens of up to 32 moves parse back to their moves */
    for (int i = 0; i < k && i < 32; i++) {
        gmove m = mv[k <= 32 ? i : (int)rng_below(r, (uint64_t)k)], p;
        g->format_move(st, m, tok, sizeof tok);
        if (g->parse_move(st, tok, &p, e, sizeof e) != GAME_OK || p != m)
            return set_err(err, n, -1, "%s: move token '%s' does not parse back in '%s'",
                           g->name, tok, buf);
    }
    *nmv = k;
    return 0;
}

int game_check_play(const struct game *g, const void *cfg, int games, uint64_t seed, char *err,
                    size_t n)
{
    game_config_buf dflt;
    game_state_buf st;
    struct game_result res;
    struct rng r;
    int rc = 0;
    if ((rc = game_check(g, err, n)))
        return rc;
    if (!cfg) {
        g->config_default(dflt.b);
        cfg = dflt.b;
    }
    gmove *mv = game_move_buf(g);
    rng_seed(&r, seed);
    for (int i = 0; i < games && !rc; i++) {
        g->start(st.b, cfg);
        for (int ply = 0; ply < 400; ply++) {
            int k = 0;
            if ((rc = check_position(g, cfg, st.b, mv, &k, &r, err, n)))
                break;
            g->result(st.b, NULL, 0, &res);
            if (res.over || k == 0)
                break;
            g->play(st.b, mv[rng_below(&r, (uint64_t)k)]);
        }
    }
    free(mv);
    return rc;
}
