/* game.c - Battalion's `struct game` (core/game.h): config, the table. */
#include <stdio.h>
#include <string.h>

#include "../../core/util.h"
#include "battalion.h"

static void config_default(void *cfg)
{
    struct bat_config *c = cfg;
    memset(c, 0, sizeof *c);
    c->players = 4;
}

static int config_set(void *cfg, const char *key, const char *val, char *err,
                      size_t n)
{
    struct bat_config *c = cfg;
    int64_t v;
    uint64_t u;
    if (strcmp(key, "players") == 0) {
        if (parse_i64(val, BAT_MIN_SEATS, BAT_MAX_SEATS, &v))
            return set_err(err, n, GAME_EVALUE, "players: %d..%d", BAT_MIN_SEATS,
                           BAT_MAX_SEATS);
        c->players = (int)v;
        return 0;
    }
    if (strcmp(key, "seat") == 0) {
        if (parse_i64(val, 1, BAT_MAX_SEATS, &v))
            return set_err(err, n, GAME_EVALUE, "seat: 1..%d", BAT_MAX_SEATS);
        c->seat = (int)v;
        return 0;
    }
    if (strcmp(key, "seed") == 0 || strcmp(key, "game") == 0) {
        if (parse_u64(val, &u))
            return set_err(err, n, GAME_EVALUE, "%s: an unsigned 64-bit number", key);
        *(key[1] == 'e' ? &c->seed : &c->game) = u;
        return 0;
    }
    return set_err(err, n, GAME_EVALUE,
                   "unknown parameter '%s' (players seat seed game)", key);
}

static int config_check(const void *cfg, char *err, size_t n)
{
    const struct bat_config *c = cfg;
    if (c->seat > c->players)
        return set_err(err, n, GAME_EVALUE, "seat=%d: the seats are 1..%d "
                       "(players=%d)", c->seat, c->players, c->players);
    return 0;
}

static void config_format(const void *cfg, char *buf, size_t n)
{
    const struct bat_config *c = cfg;
    size_t len = 0;
    if (n)
        buf[0] = '\0';
    buf_printf(buf, n, &len, "players=%d", c->players);
    if (c->seat)
        buf_printf(buf, n, &len, " seat=%d", c->seat);
    buf_printf(buf, n, &len, " seed=%llu game=%llu", (unsigned long long)c->seed,
               (unsigned long long)c->game);
}

static void start(void *st, const void *cfg)
{
    const struct bat_config *c = cfg;
    bat_deal(st, c->players, c->seed, c->game);
}

static int parse_pos(void *st, const void *cfg, const char *s, char *err,
                     size_t n)
{
    (void)cfg;
    return bat_parse_pos(st, s, err, n);
}

static void format_pos(const void *st, char *buf, size_t n)
{
    bat_format_pos(st, buf, n);
}

static void show(const void *st, char *buf, size_t n) { bat_show(st, buf, n); }

static int parse_move(const void *st, const char *s, gmove *m, char *err,
                      size_t n)
{
    return bat_parse_move(st, s, m, err, n);
}

static void format_move(const void *st, gmove m, char *buf, size_t n)
{
    (void)st;
    bat_format_move(m, buf, n);
}

static int gen_moves(const void *st, gmove *out, int max)
{
    return bat_gen(st, out, max);
}

static void play(void *st, gmove m) { bat_play(st, m); }

static int to_move(const void *st)
{
    return ((const struct bat_state *)st)->act + 1;
}

static int nseats(const void *st)
{
    return ((const struct bat_state *)st)->nseats;
}

static uint64_t hash(const void *st) { return bat_hash(st); }

static void result(const void *vst, const uint64_t *hist, int nhist,
                   struct game_result *r)
{
    const struct bat_state *st = vst;
    int bankrupt = 0;
    (void)hist;
    (void)nhist;
    memset(r, 0, sizeof *r);
    if (!bat_over(st))
        return;
    r->over = 1;
    r->nseats = st->nseats;
    for (int s = 0; s < st->nseats; s++) {
        int better = 0;
        for (int o = 0; o < st->nseats; o++)
            better += st->chips[o] > st->chips[s];
        r->rank[s] = better + 1;
        r->score[s] = st->chips[s];
        bankrupt |= st->chips[s] == 0;
    }
    r->reason = bankrupt ? "bankrupt" : "maxattacks";
}

static int view(const void *full, int seat, void *out)
{
    const struct bat_state *st = full;
    if (seat < 1 || seat > st->nseats)
        return GAME_EVALUE;
    if (st->is_view && st->viewer != seat - 1)
        return GAME_EPOSITION;
    bat_make_view(st, seat - 1, out);
    return 0;
}

static int is_view(const void *st)
{
    return ((const struct bat_state *)st)->is_view;
}

const struct game battalion_game = {
    .name = "battalion",
    .title = "Battalion",
    .min_seats = BAT_MIN_SEATS,
    .config_check = config_check,
    .max_seats = BAT_MAX_SEATS,
    .state_size = sizeof(struct bat_state),
    .config_size = sizeof(struct bat_config),
    .params_help = "players=3..6 seat=1..6 seed=<u64> game=<u64>",
    .max_moves = BAT_MAX_MOVES,
    .config_default = config_default,
    .config_set = config_set,
    .config_format = config_format,
    .start = start,
    .parse_pos = parse_pos,
    .format_pos = format_pos,
    .show = show,
    .parse_move = parse_move,
    .format_move = format_move,
    .gen_moves = gen_moves,
    .play = play,
    .to_move = to_move,
    .nseats = nseats,
    .hash = hash,
    .result = result,
    .view = view,
    .is_view = is_view,
};
