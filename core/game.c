/* game.c - defaults and checks for struct game (see game.h). */
#include "game.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

int game_count_moves(const struct game *g, const void *st)
{
    static _Thread_local gmove buf[1 << 15];
    if (g->count_moves)
        return g->count_moves(st);
    return g->gen_moves(st, buf, (int)ARRAY_LEN(buf));
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
    if (!g->config_default || !g->config_set || !g->config_format ||
        !g->start || !g->parse_pos || !g->format_pos || !g->show ||
        !g->parse_move || !g->format_move || !g->gen_moves || !g->play ||
        !g->to_move || !g->nseats || !g->hash || !g->result)
        return set_err(err, n, -1, "%s: a required member is NULL", g->name);
    return 0;
}
