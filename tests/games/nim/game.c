/* game.c - Nim's rules behind struct game `nim_game` (nim.h). */
#include <stdio.h>
#include <string.h>

#include "../../../core/util.h"
#include "nim.h"
#include "nim_api.h"

int nim_sum(const struct nim_state *s)
{
    int x = 0;
    for (int i = 0; i < s->nheaps; i++)
        x ^= s->heap[i];
    return x;
}

/* "3,4,5" -> heaps; 1..NIM_MAX_HEAPS numbers in lo..NIM_MAX_HEAP. */
static int parse_heaps(const char *s, uint8_t *heap, uint8_t *nheaps, int lo, char *err,
                       size_t n)
{
    char tok[16];
    int k = 0;
    for (;;) {
        size_t len = strcspn(s, ",");
        int64_t v;
        if (k == NIM_MAX_HEAPS)
            return set_err(err, n, GAME_EVALUE, "at most %d heaps", NIM_MAX_HEAPS);
        if (len == 0 || len >= sizeof tok)
            return set_err(err, n, GAME_ESYNTAX, "heaps are numbers separated by ',' (like 3,4,5)");
        memcpy(tok, s, len);
        tok[len] = '\0';
        if (parse_i64(tok, INT64_MIN, INT64_MAX, &v))
            return set_err(err, n, GAME_ESYNTAX, "'%s' is not a number of stones", tok);
        if (v < lo || v > NIM_MAX_HEAP)
            return set_err(err, n, GAME_EVALUE, "a heap holds %d..%d stones, not %s", lo,
                           NIM_MAX_HEAP, tok);
        heap[k++] = (uint8_t)v;
        s += len;
        if (!*s)
            break;
        s++;
    }
    *nheaps = (uint8_t)k;
    return GAME_OK;
}

static void format_heaps(const uint8_t *heap, int nheaps, char *buf, size_t n, size_t *len)
{
    for (int i = 0; i < nheaps; i++)
        buf_printf(buf, n, len, "%s%d", i ? "," : "", heap[i]);
}

/* ---- configuration ---------------------------------------------------------- */
static void cfg_default(void *c)
{
    static const struct nim_config d = {3, {3, 4, 5}};
    memcpy(c, &d, sizeof d);
}

static int cfg_set(void *vc, const char *key, const char *val, char *err, size_t n)
{
    struct nim_config *c = vc, t = *c;
    if (strcmp(key, "heaps") != 0)
        return set_err(err, n, GAME_EVALUE, "nim has no parameter '%s' (heaps=3,4,5)", key);
    memset(t.heap, 0, sizeof t.heap);
    int rc = parse_heaps(val, t.heap, &t.nheaps, 1, err, n);
    if (rc == GAME_OK)
        *c = t;
    return rc;
}

static void cfg_format(const void *vc, char *buf, size_t n)
{
    const struct nim_config *c = vc;
    size_t len = 0;
    if (n)
        buf[0] = '\0';
    buf_printf(buf, n, &len, "heaps=");
    format_heaps(c->heap, c->nheaps, buf, n, &len);
}

/* ---- positions --------------------------------------------------------------- */
static void start(void *st, const void *vc)
{
    const struct nim_config *c = vc;
    struct nim_state s;
    memset(&s, 0, sizeof s);
    s.nheaps = c->nheaps;
    memcpy(s.heap, c->heap, sizeof s.heap);
    memcpy(st, &s, sizeof s);
}

/* "<heaps> <seat>", like "3,4,5 1" */
static int parse_pos(void *st, const void *cfg, const char *str, char *err, size_t n)
{
    struct nim_state s;
    char heaps[64];
    size_t len = strcspn(str, " \t");
    const char *p = str + len;
    int rc;
    (void)cfg;
    memset(&s, 0, sizeof s);
    if (len >= sizeof heaps)
        return set_err(err, n, GAME_ESYNTAX, "expected '<heaps> <seat>' like '3,4,5 1'");
    memcpy(heaps, str, len);
    heaps[len] = '\0';
    if ((rc = parse_heaps(heaps, s.heap, &s.nheaps, 0, err, n)))
        return rc;
    p += strspn(p, " \t");
    if ((p[0] != '1' && p[0] != '2') || p[1 + strspn(p + 1, " \t")])
        return set_err(err, n, GAME_ESYNTAX, "expected the seat to move (1 or 2) after the heaps");
    s.side = (uint8_t)(p[0] - '1');
    memcpy(st, &s, sizeof s);
    return GAME_OK;
}

static void format_pos(const void *st, char *buf, size_t n)
{
    const struct nim_state *s = st;
    size_t len = 0;
    if (n)
        buf[0] = '\0';
    format_heaps(s->heap, s->nheaps, buf, n, &len);
    buf_printf(buf, n, &len, " %d", s->side + 1);
}

static void show(const void *st, char *buf, size_t n)
{
    const struct nim_state *s = st;
    size_t len = 0;
    if (n)
        buf[0] = '\0';
    for (int i = 0; i < s->nheaps; i++) {
        buf_printf(buf, n, &len, "%c %2d%s", 'a' + i, s->heap[i], s->heap[i] ? " " : "");
        for (int k = 0; k < s->heap[i]; k++)
            buf_printf(buf, n, &len, "o");
        buf_printf(buf, n, &len, "\n");
    }
    buf_printf(buf, n, &len, "seat %d to move, nim-sum %d", s->side + 1, nim_sum(s));
}

/* ---- moves ------------------------------------------------------------------- */
static int gen_moves(const void *st, gmove *out, int max)
{
    const struct nim_state *s = st;
    int n = 0;
    for (int i = 0; i < s->nheaps; i++)
        for (int k = 1; k <= s->heap[i]; k++) {
            if (n >= max)
                return -1;
            out[n++] = NIM_MOVE(i, k);
        }
    return n;
}

static int count_moves(const void *st)
{
    const struct nim_state *s = st;
    int n = 0;
    for (int i = 0; i < s->nheaps; i++)
        n += s->heap[i];
    return n;
}

/* "<heap letter><stones>", like c2: take 2 stones from heap c */
static int parse_move(const void *st, const char *str, gmove *m, char *err, size_t n)
{
    const struct nim_state *s = st;
    int64_t k;
    if (str[0] < 'a' || str[0] > 'a' + NIM_MAX_HEAPS - 1 || parse_i64(str + 1, 1, 99, &k))
        return set_err(err, n, GAME_ESYNTAX, "'%s' is not a move (like c2: 2 stones from heap c)",
                       str);
    int i = str[0] - 'a';
    if (count_moves(s) == 0)
        return set_err(err, n, GAME_EOVER, "the game is over");
    if (i >= s->nheaps)
        return set_err(err, n, GAME_EILLEGAL, "there is no heap %c", str[0]);
    if (k > s->heap[i])
        return set_err(err, n, GAME_EILLEGAL, "heap %c has only %d", str[0], s->heap[i]);
    *m = NIM_MOVE(i, k);
    return GAME_OK;
}

static void format_move(const void *st, gmove m, char *buf, size_t n)
{
    (void)st;
    snprintf(buf, n, "%c%d", 'a' + NIM_HEAP(m), NIM_TAKE(m));
}

static void play(void *st, gmove m)
{
    struct nim_state *s = st;
    s->heap[NIM_HEAP(m)] = (uint8_t)(s->heap[NIM_HEAP(m)] - NIM_TAKE(m));
    s->side ^= 1;
}

static int to_move(const void *st) { return ((const struct nim_state *)st)->side + 1; }

static int nseats(const void *st)
{
    (void)st;
    return 2;
}

static uint64_t hash(const void *st)
{
    const struct nim_state *s = st;
    uint64_t h = (uint64_t)s->nheaps << 1 | s->side; /* 5 bits a heap: one-to-one */
    for (int i = 0; i < s->nheaps; i++)
        h |= (uint64_t)s->heap[i] << (5 + 5 * i);
    return mix64(h, 0x4e494d); /* "NIM" */
}

/* Over when no stone is left: the seat to move has lost (the other took
 * the last stone).  No repetition: every move takes a stone. */
static void result(const void *st, const uint64_t *hist, int nhist, struct game_result *r)
{
    const struct nim_state *s = st;
    (void)hist;
    (void)nhist;
    memset(r, 0, sizeof *r);
    if (count_moves(s))
        return;
    int w = s->side ^ 1;
    r->over = 1;
    r->nseats = 2;
    r->rank[w] = 1;
    r->rank[w ^ 1] = 2;
    r->score[w] = 1;
    r->reason = "last_stone";
}

const struct game nim_game = {
    .name = "nim",
    .title = "Nim (a test game)",
    .min_seats = 2,
    .max_seats = 2,
    .state_size = sizeof(struct nim_state),
    .config_size = sizeof(struct nim_config),
    .params_help = "heaps=3,4,5 (1..8 heaps of 1..20)",
    .max_moves = NIM_MAX_MOVES,
    .default_max_plies = 0, /* every move takes a stone: the game ends */
    .config_default = cfg_default,
    .config_set = cfg_set,
    .config_format = cfg_format,
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
    .count_moves = count_moves,
};
