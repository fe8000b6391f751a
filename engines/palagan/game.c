/* game.c - Palagan's struct game: configuration, position strings, move
 * tokens, the board drawing, hashing and the result (docs/games/palagan.md).
 */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/util.h"
#include "palagan.h"

/* ---- configuration ------------------------------------------------------ */

static void cfg_default(void *cfg)
{
    struct pal_config *c = cfg;
    c->size = 5;
}

static int cfg_set(void *cfg, const char *key, const char *val, char *err,
                   size_t errlen)
{
    struct pal_config *c = cfg;
    int64_t v;
    if (strcmp(key, "size") != 0)
        return set_err(err, errlen, GAME_EVALUE, "unknown parameter '%s' (size=4..9)", key);
    if (parse_i64(val, PAL_MIN_N, PAL_MAX_N, &v) != 0)
        return set_err(err, errlen, GAME_EVALUE, "size must be 4..9, not '%s'", val);
    c->size = (int)v;
    return GAME_OK;
}

static void cfg_format(const void *cfg, char *buf, size_t n)
{
    const struct pal_config *c = cfg;
    snprintf(buf, n, "size=%d", c->size);
}

/* ---- positions ---------------------------------------------------------- */

static void g_start(void *st, const void *cfg)
{
    const struct pal_config *c = cfg;
    pal_start(st, c->size);
}

/* Strict small unsigned integer; returns -1 if not one. */
static int small_uint(const char *s, int hi)
{
    int64_t v;
    if (parse_i64(s, 0, hi, &v) != 0 || !isdigit((unsigned char)s[0]))
        return -1;
    return (int)v;
}

static int parse_pair(const char *s, int hi, int out[2])
{
    char tmp[16];
    const char *slash = strchr(s, '/');
    if (!slash || (size_t)(slash - s) >= sizeof tmp)
        return -1;
    memcpy(tmp, s, (size_t)(slash - s));
    tmp[slash - s] = 0;
    out[0] = small_uint(tmp, hi);
    out[1] = small_uint(slash + 1, hi);
    return out[0] < 0 || out[1] < 0 ? -1 : 0;
}

static int g_parse_pos(void *st, const void *cfg, const char *str, char *err,
                       size_t errlen)
{
    (void)cfg;
    char buf[512];
    if (strlen(str) >= sizeof buf)
        return set_err(err, errlen, GAME_ESYNTAX, "position string too long");
    strcpy(buf, str);
    char *tok[9];
    int nt = str_split(buf, tok, 9);
    if (nt != 7)
        return set_err(err, errlen, GAME_ESYNTAX,
                       "expected 7 fields: board side reserves captures first quiet passes");
    /* board */
    const char *b = tok[0];
    int rows = 1;
    for (const char *p = b; *p; p++)
        rows += *p == '/';
    if (rows % 2 == 0 || (rows + 1) / 2 < PAL_MIN_N || (rows + 1) / 2 > PAL_MAX_N)
        return set_err(err, errlen, GAME_EVALUE,
                       "board has %d rows; need 2N-1 for N in 4..9", rows);
    struct pal_state s;
    pal_start(&s, (rows + 1) / 2);
    const struct pal_geom *g = pal_geom(s.n);
    const char *p = b;
    for (int y = g->d - 1; y >= 0; y--) {
        int x0 = y - (g->n - 1) > 0 ? y - (g->n - 1) : 0;
        int x1 = y + g->n - 1 < g->d - 1 ? y + g->n - 1 : g->d - 1;
        int x = x0;
        while (*p && *p != '/') {
            if (*p == 'b' || *p == 'w') {
                if (x > x1)
                    return set_err(err, errlen, GAME_EPOSITION, "rank %d too long", y + 1);
                pal_set(s.occ[*p == 'w'], g->idx[x][y]);
                x++;
                p++;
            } else if (isdigit((unsigned char)*p) && *p != '0') {
                int run = 0;
                while (isdigit((unsigned char)*p) && run <= 99)
                    run = run * 10 + (*p++ - '0');
                if (x + run > x1 + 1)
                    return set_err(err, errlen, GAME_EPOSITION, "rank %d too long", y + 1);
                x += run;
            } else {
                return set_err(err, errlen, GAME_ESYNTAX,
                               "bad character '%c' in board", *p);
            }
        }
        if (x != x1 + 1)
            return set_err(err, errlen, GAME_EPOSITION, "rank %d has %d cells, not %d",
                           y + 1, x - x0, x1 - x0 + 1);
        if (*p == '/')
            p++;
    }
    /* side */
    if (strcmp(tok[1], "b") == 0)
        s.stm = 0;
    else if (strcmp(tok[1], "w") == 0)
        s.stm = 1;
    else
        return set_err(err, errlen, GAME_ESYNTAX, "side to move must be b or w");
    int res[2], cap[2];
    if (parse_pair(tok[2], PAL_PIECES, res) != 0)
        return set_err(err, errlen, GAME_ESYNTAX, "reserves must be <black>/<white>, 0..20");
    if (parse_pair(tok[3], PAL_PIECES, cap) != 0)
        return set_err(err, errlen, GAME_ESYNTAX, "captures must be <black>/<white>, 0..20");
    int first = small_uint(tok[4], 1), quiet = small_uint(tok[5], PAL_QUIET_END),
        passes = small_uint(tok[6], 2);
    if (first < 0)
        return set_err(err, errlen, GAME_ESYNTAX, "first-turn flag must be 0 or 1");
    if (quiet < 0)
        return set_err(err, errlen, GAME_ESYNTAX, "quiet counter must be 0..20");
    if (passes < 0)
        return set_err(err, errlen, GAME_ESYNTAX, "pass counter must be 0..2");
    for (int side = 0; side < 2; side++) {
        s.reserve[side] = (uint8_t)res[side];
        s.captures[side] = (uint8_t)cap[side];
        if (res[side] + pal_count(s.occ[side]) + cap[side ^ 1] > PAL_PIECES)
            return set_err(err, errlen, GAME_EPOSITION,
                           "%s has more than 20 pieces (reserve + board + lost)",
                           side ? "white" : "black");
    }
    s.first = (uint8_t)first;
    s.quiet = (uint8_t)quiet;
    s.passes = (uint8_t)passes;
    if (first && (s.stm != 0 || passes != 0 || quiet != 0))
        return set_err(err, errlen, GAME_EPOSITION,
                       "the first turn is black's, with no pass or quiet turn before it");
    if (!pal_all_alive(g, &s))
        return set_err(err, errlen, GAME_EPOSITION, "a cluster has no liberty");
    memcpy(st, &s, sizeof s);
    return GAME_OK;
}

static void g_format_pos(const void *st, char *buf, size_t n)
{
    const struct pal_state *s = st;
    const struct pal_geom *g = pal_geom(s->n);
    size_t len = 0;
    buf[0] = 0;
    for (int y = g->d - 1; y >= 0; y--) {
        int run = 0;
        for (int x = 0; x < g->d; x++) {
            int c = g->idx[x][y];
            if (c < 0)
                continue;
            int col = pal_has(s->occ[0], c) ? 0 : pal_has(s->occ[1], c) ? 1 : -1;
            if (col < 0) {
                run++;
                continue;
            }
            if (run)
                buf_printf(buf, n, &len, "%d", run);
            run = 0;
            buf_printf(buf, n, &len, "%c", col ? 'w' : 'b');
        }
        if (run)
            buf_printf(buf, n, &len, "%d", run);
        if (y)
            buf_printf(buf, n, &len, "/");
    }
    buf_printf(buf, n, &len, " %c %d/%d %d/%d %d %d %d", s->stm ? 'w' : 'b',
               s->reserve[0], s->reserve[1], s->captures[0], s->captures[1],
               s->first, s->quiet, s->passes);
}

/* Hex drawing: cell (x, y) at column 2x - y, rank D on top; each file's
 * letter sits where the file would continue past its top end. */
static void g_show(const void *st, char *buf, size_t n)
{
    const struct pal_state *s = st;
    const struct pal_geom *g = pal_geom(s->n);
    const int off = g->n + 1; /* column of x=0,y=0 is off (leaves room for 'a') */
    size_t len = 0;
    buf[0] = 0;
    char line[64];
    /* letters above the top rank: files e.. (N=5) continue to y = D */
    for (int y = g->d; y >= 0; y--) {
        int w = (int)sizeof line - 1;
        memset(line, ' ', sizeof line);
        int last = 0;
        for (int x = 0; x < g->d; x++) {
            int col = 2 * x - y + off;
            if (col < 0 || col >= w)
                continue;
            int c = y < g->d ? g->idx[x][y] : -1;
            char ch = 0;
            if (c >= 0)
                ch = pal_has(s->occ[0], c) ? 'b' : pal_has(s->occ[1], c) ? 'w' : '.';
            else if (y >= g->n && y - 1 >= 0 && g->idx[x][y - 1] >= 0 &&
                     (y == g->d || x == y - g->n))
                ch = (char)('a' + x); /* top end of file x */
            if (ch) {
                line[col] = ch;
                if (col + 1 > last)
                    last = col + 1;
            }
        }
        line[last] = 0;
        if (y == g->d)
            buf_printf(buf, n, &len, "    %s\n", line);
        else
            buf_printf(buf, n, &len, "%2d  %s\n", y + 1, line);
    }
    buf_printf(buf, n, &len, "to move %s%s, quiet %d, passes %d\n",
               s->stm ? "white" : "black", s->first ? " (first turn: one maneuver)" : "",
               s->quiet, s->passes);
    buf_printf(buf, n, &len, "reserve black %d white %d\n", s->reserve[0], s->reserve[1]);
    buf_printf(buf, n, &len, "captured by black %d by white %d", s->captures[0],
               s->captures[1]);
}

/* ---- moves -------------------------------------------------------------- */

/* Parse a cell name at *p; advances *p.  -1 syntax, -2 off board. */
static int parse_cell(const struct pal_geom *g, const char **p)
{
    const char *q = *p;
    int c = tolower((unsigned char)*q);
    if (c < 'a' || c > 'z')
        return -1;
    q++;
    if (!isdigit((unsigned char)*q) || *q == '0')
        return -1;
    int num = 0;
    while (isdigit((unsigned char)*q) && num < 100)
        num = num * 10 + (*q++ - '0');
    *p = q;
    int x = c - 'a', y = num - 1;
    if (num >= 100)
        return -2;
    if (x >= g->d || y >= g->d || g->idx[x][y] < 0)
        return -2;
    return g->idx[x][y];
}

/* One maneuver token: @c | c-c | cc.  Returns 0, or GAME_ESYNTAX/EILLEGAL. */
static int parse_man(const struct pal_geom *g, const char *s, pal_man *m)
{
    const char *p = s;
    int off = 0;
    if (*p == '@') {
        p++;
        int c = parse_cell(g, &p);
        if (c == -1 || *p)
            return GAME_ESYNTAX;
        if (c < 0)
            return GAME_EILLEGAL;
        *m = PAL_MAN(PAL_SUMMON, 0, c);
        return 0;
    }
    int a = parse_cell(g, &p);
    if (a == -1)
        return GAME_ESYNTAX;
    off |= a < 0;
    if (*p == '-' || *p == 'x')
        p++;
    int b = parse_cell(g, &p);
    if (b == -1 || *p)
        return GAME_ESYNTAX;
    off |= b < 0;
    if (off)
        return GAME_EILLEGAL;
    *m = PAL_MAN(PAL_STEP, a, b);
    return 0;
}

static int g_parse_move(const void *st, const char *str, gmove *mv, char *err,
                        size_t errlen)
{
    const struct pal_state *s = st;
    const struct pal_geom *g = pal_geom(s->n);
    if (pal_over(s))
        return set_err(err, errlen, GAME_EOVER, "the game is over");
    if (strcmp(str, GAME_PASS_TOKEN) == 0) {
        *mv = PAL_PASS;
        return GAME_OK;
    }
    char buf[32];
    if (strlen(str) >= sizeof buf)
        return set_err(err, errlen, GAME_ESYNTAX, "move token too long");
    strcpy(buf, str);
    char *parts[2] = {buf, NULL};
    char *comma = strchr(buf, ',');
    if (comma) {
        *comma = 0;
        parts[1] = comma + 1;
        if (strchr(parts[1], ','))
            return set_err(err, errlen, GAME_ESYNTAX, "at most two maneuvers per turn");
    }
    pal_man m[2] = {0, 0};
    for (int i = 0; i < 2 && parts[i]; i++) {
        int rc = parse_man(g, parts[i], &m[i]);
        if (rc == GAME_ESYNTAX)
            return set_err(err, errlen, rc,
                           "expected pass, @<cell>, <cell>-<cell> or two joined by ','");
        if (rc)
            return set_err(err, errlen, rc, "a cell off the board");
    }
    struct pal_state t = *s;
    for (int i = 0; i < 2 && m[i]; i++) {
        if (i == 1 && t.first)
            return set_err(err, errlen, GAME_EILLEGAL,
                           "the game's first turn has one maneuver");
        if (!pal_man_ok(g, &t, m[i]))
            return set_err(err, errlen, GAME_EILLEGAL, "maneuver %d is not legal here", i + 1);
        pal_apply(g, &t, m[i]);
    }
    if (!pal_can_end(g, &t))
        return set_err(err, errlen, GAME_EILLEGAL,
                       "leaves a cluster of the mover without liberties");
    *mv = PAL_TURN(m[0], m[1]);
    return GAME_OK;
}

static void g_format_move(const void *st, gmove m, char *buf, size_t n)
{
    const struct pal_state *s = st;
    pal_format_turn(pal_geom(s->n), m, buf, n);
}

static int g_gen_moves(const void *st, gmove *out, int max)
{
    return pal_gen_turns(st, out, max);
}

static int g_count_moves(const void *st)
{
    return pal_count_turns(st);
}

static void g_play(void *st, gmove m)
{
    struct pal_state *s = st;
    pal_play_turn(pal_geom(s->n), s, m);
}

static int g_to_move(const void *st)
{
    const struct pal_state *s = st;
    return s->stm + 1;
}

static int g_nseats(const void *st)
{
    (void)st;
    return 2;
}

/* ---- hash and result ---------------------------------------------------- */

static uint64_t z_cell[2][PAL_MAX_CELLS], z_res[2][PAL_PIECES + 1],
    z_cap[2][PAL_PIECES * 2 + 1], z_quiet[PAL_QUIET_END + 1], z_pass[3],
    z_size[PAL_MAX_N + 1], z_stm, z_first;
static pthread_once_t z_once = PTHREAD_ONCE_INIT;

static void z_init(void)
{
    uint64_t x = 0x9a1a9a4ULL;
    for (int i = 0; i < 2; i++) {
        for (int c = 0; c < PAL_MAX_CELLS; c++)
            z_cell[i][c] = splitmix64(&x);
        for (int c = 0; c <= PAL_PIECES; c++)
            z_res[i][c] = splitmix64(&x);
        for (int c = 0; c <= 2 * PAL_PIECES; c++)
            z_cap[i][c] = splitmix64(&x);
    }
    for (int i = 0; i <= PAL_QUIET_END; i++)
        z_quiet[i] = splitmix64(&x);
    for (int i = 0; i < 3; i++)
        z_pass[i] = splitmix64(&x);
    for (int i = 0; i <= PAL_MAX_N; i++)
        z_size[i] = splitmix64(&x);
    z_stm = splitmix64(&x);
    z_first = splitmix64(&x);
}

static uint64_t g_hash(const void *st)
{
    const struct pal_state *s = st;
    pthread_once(&z_once, z_init);
    uint64_t h = z_size[s->n] ^ (s->stm ? z_stm : 0) ^ (s->first ? z_first : 0) ^
                 z_quiet[s->quiet] ^ z_pass[s->passes];
    for (int i = 0; i < 2; i++) {
        for (int w = 0; w < PAL_WORDS; w++)
            for (uint64_t b = s->occ[i][w]; b; b &= b - 1)
                h ^= z_cell[i][64 * w + __builtin_ctzll(b)];
        h ^= z_res[i][s->reserve[i]] ^ z_cap[i][s->captures[i]];
    }
    return h;
}

static void g_result(const void *st, const uint64_t *hist, int nhist,
                     struct game_result *r)
{
    const struct pal_state *s = st;
    (void)hist;
    (void)nhist;
    memset(r, 0, sizeof *r);
    if (!pal_over(s))
        return;
    r->over = 1;
    r->nseats = 2;
    r->score[0] = s->captures[0];
    r->score[1] = s->captures[1];
    r->rank[0] = s->captures[0] >= s->captures[1] ? 1 : 2;
    r->rank[1] = s->captures[1] >= s->captures[0] ? 1 : 2;
    r->reason = s->passes >= 2 ? "passes" : "quiet";
}

const struct game palagan_game = {
    .name = "palagan",
    .title = "Palagan",
    .min_seats = 2,
    .max_seats = 2,
    .state_size = sizeof(struct pal_state),
    .config_size = sizeof(struct pal_config),
    .params_help = "size=4..9",
    .max_moves = PAL_MAX_TURNS,
    .config_default = cfg_default,
    .config_set = cfg_set,
    .config_format = cfg_format,
    .start = g_start,
    .parse_pos = g_parse_pos,
    .format_pos = g_format_pos,
    .show = g_show,
    .parse_move = g_parse_move,
    .format_move = g_format_move,
    .gen_moves = g_gen_moves,
    .play = g_play,
    .to_move = g_to_move,
    .nseats = g_nseats,
    .hash = g_hash,
    .result = g_result,
    .count_moves = g_count_moves,
};
