/* tc.c - time controls and seat clocks (see tc.h). */
#include "tc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

void ref_tc_clear(struct ref_tc *tc)
{
    memset(tc, 0, sizeof *tc);
    tc->base_ms = -1;
    tc->movetime_ms = -1;
    tc->margin_ms = -1;
}

/* How far past zero a clock may go. */
static int64_t clock_margin_ms(const struct ref_tc *tc)
{
    return tc->margin_ms >= 0 ? tc->margin_ms : 0;
}

/* How late past st= a bestmove may come (see REF_ST_GRACE_MS). */
static int64_t st_margin_ms(const struct ref_tc *tc)
{
    return tc->margin_ms >= 0 ? tc->margin_ms : tc->movetime_ms + REF_ST_GRACE_MS;
}

/* Decimal seconds with at most 3 decimals, exact in milliseconds. */
static int parse_dec(const char *s, int64_t *ms)
{
    int64_t whole = 0, frac = 0;
    int nd = 0, any = 0;
    while (isdigit((unsigned char)*s)) {
        whole = whole * 10 + (*s++ - '0');
        if (whole > 100000000)
            return -1;
        any = 1;
    }
    if (*s == '.') {
        s++;
        while (isdigit((unsigned char)*s)) {
            if (nd < 3) {
                frac = frac * 10 + (*s - '0');
                nd++;
            }
            s++;
            any = 1;
        }
    }
    if (*s || !any)
        return -1;
    while (nd < 3) {
        frac *= 10;
        nd++;
    }
    *ms = whole * 1000 + frac;
    return 0;
}

int ref_parse_seconds(const char *s, int64_t *ms)
{
    const char *colon = strchr(s, ':');
    if (colon) {
        char mins[32];
        int64_t m, sec;
        size_t k = (size_t)(colon - s);
        if (k == 0 || k >= sizeof mins)
            return -1;
        memcpy(mins, s, k);
        mins[k] = '\0';
        if (parse_i64(mins, 0, 1000000, &m) < 0 || parse_dec(colon + 1, &sec) < 0)
            return -1;
        *ms = m * 60000 + sec;
        return 0;
    }
    return parse_dec(s, ms);
}

static int parse_tc(struct ref_tc *tc, const char *v)
{
    char tmp[64], *base = tmp, *plus, *slash;
    int64_t x;
    if (strlen(v) >= sizeof tmp)
        return -1;
    strcpy(tmp, v);
    if (strcmp(tmp, "inf") == 0 || strcmp(tmp, "infinite") == 0) {
        tc->base_ms = -1;
        tc->inc_ms = 0;
        tc->moves = 0;
        tc->inf = 1;
        return 0;
    }
    tc->inf = 0;
    if ((slash = strchr(tmp, '/')) != NULL) {
        *slash = '\0';
        if (parse_i64(tmp, 1, 100000, &x) < 0)
            return -1;
        tc->moves = (int)x;
        base = slash + 1;
    } else
        tc->moves = 0;
    if ((plus = strchr(base, '+')) != NULL) {
        *plus = '\0';
        if (ref_parse_seconds(plus + 1, &tc->inc_ms) < 0)
            return -1;
    } else
        tc->inc_ms = 0;
    if (ref_parse_seconds(base, &tc->base_ms) < 0)
        return -1;
    if (tc->base_ms == 0) /* the first move would lose on time */
        return -1;
    return 0;
}

int ref_tc_set(struct ref_tc *tc, const char *key, const char *val)
{
    int64_t x;
    uint64_t u;
    if (strcmp(key, "tc") == 0)
        return parse_tc(tc, val);
    if (strcmp(key, "st") == 0)
        return ref_parse_seconds(val, &tc->movetime_ms) < 0 ||
                       tc->movetime_ms <= 0
                   ? -1
                   : 0;
    if (strcmp(key, "depth") == 0) {
        if (parse_i64(val, 1, 1000, &x) < 0)
            return -1;
        tc->depth = (int)x;
        return 0;
    }
    if (strcmp(key, "nodes") == 0) {
        if (parse_u64(val, &u) < 0 || u == 0)
            return -1;
        tc->nodes = u;
        return 0;
    }
    if (strcmp(key, "timemargin") == 0) {
        if (parse_i64(val, 0, 86400000, &x) < 0)
            return -1;
        tc->margin_ms = x;
        return 0;
    }
    return -1;
}

static void fmt_sec(char *b, size_t n, int64_t ms)
{
    if (ms % 1000 == 0)
        snprintf(b, n, "%lld", (long long)(ms / 1000));
    else {
        snprintf(b, n, "%lld.%03lld", (long long)(ms / 1000),
                 (long long)(ms % 1000));
        for (size_t k = strlen(b); b[k - 1] == '0'; k--)
            b[k - 1] = '\0';
    }
}

void ref_tc_format(const struct ref_tc *tc, char *buf, size_t n)
{
    size_t len = 0;
    char a[32], b[32];
    buf[0] = '\0';
    if (tc->base_ms >= 0) {
        fmt_sec(a, sizeof a, tc->base_ms);
        fmt_sec(b, sizeof b, tc->inc_ms);
        if (tc->moves)
            buf_printf(buf, n, &len, "%d/", tc->moves);
        buf_printf(buf, n, &len, "%s", a);
        if (tc->inc_ms)
            buf_printf(buf, n, &len, "+%s", b);
    }
    if (tc->movetime_ms >= 0) {
        fmt_sec(a, sizeof a, tc->movetime_ms);
        buf_printf(buf, n, &len, "%sst=%s", len ? " " : "", a);
    }
    if (tc->depth)
        buf_printf(buf, n, &len, "%sdepth=%d", len ? " " : "", tc->depth);
    if (tc->nodes)
        buf_printf(buf, n, &len, "%snodes=%llu", len ? " " : "",
                   (unsigned long long)tc->nodes);
    if (!len)
        buf_printf(buf, n, &len, "inf");
}

int ref_tc_has_limit(const struct ref_tc *tc)
{
    return tc->base_ms >= 0 || tc->movetime_ms >= 0 || tc->depth ||
           tc->nodes;
}

void ref_clock_start(struct ref_clock *c, const struct ref_tc *tc)
{
    c->left_ms = tc->base_ms;
    c->moves = 0;
}

int ref_clock_charge(struct ref_clock *c, const struct ref_tc *tc,
                     int64_t used_us)
{
    int64_t used_ms = (used_us + 999) / 1000; /* never round in its favour */
    c->moves++;
    if (tc->movetime_ms >= 0 &&
        used_us > (tc->movetime_ms + st_margin_ms(tc)) * 1000)
        return -1;
    if (tc->base_ms < 0)
        return 0;
    if (used_us > (c->left_ms + clock_margin_ms(tc)) * 1000)
        return -1;
    c->left_ms -= used_ms;
    if (c->left_ms < 0)
        c->left_ms = 0;
    c->left_ms += tc->inc_ms;
    if (tc->moves && c->moves % tc->moves == 0)
        c->left_ms += tc->base_ms;
    return 0;
}

int64_t ref_clock_allow_us(const struct ref_clock *c, const struct ref_tc *tc)
{
    int64_t a = -1;
    if (tc->base_ms >= 0)
        a = (c->left_ms + clock_margin_ms(tc)) * 1000;
    if (tc->movetime_ms >= 0) {
        int64_t m = (tc->movetime_ms + st_margin_ms(tc)) * 1000;
        if (a < 0 || m < a)
            a = m;
    }
    return a;
}
