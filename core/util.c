/* util.c - clocks, PRNG, strings, allocation (see util.h). */
#define _POSIX_C_SOURCE 200809L
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", program_invocation_short_name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        die("out of memory (%zu bytes)", n);
    return p;
}

void *xcalloc(size_t n, size_t m)
{
    void *p = calloc(n ? n : 1, m ? m : 1);
    if (!p)
        die("out of memory (%zu x %zu bytes)", n, m);
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        die("out of memory (%zu bytes)", n);
    return q;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int64_t now_ms(void) { return now_us() / 1000; }

uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t rng_next(struct rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t rng_below(struct rng *r, uint64_t n)
{
    uint64_t lim = UINT64_MAX - UINT64_MAX % n, x;
    do
        x = rng_next(r);
    while (x >= lim);
    return x % n;
}

double rng_double(struct rng *r) { return (rng_next(r) >> 11) * 0x1.0p-53; }

uint64_t mix64(uint64_t a, uint64_t b)
{
    uint64_t x = a ^ (b * 0x9e3779b97f4a7c15ULL);
    return splitmix64(&x);
}

int str_split(char *s, char **tok, int max)
{
    int n = 0;
    while (*s) {
        while (*s == ' ' || *s == '\t')
            *s++ = '\0';
        if (!*s)
            break;
        if (n == max)
            return n;
        tok[n++] = s;
        while (*s && *s != ' ' && *s != '\t')
            s++;
    }
    return n;
}

void str_chomp(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' ||
                 s[n - 1] == '\t'))
        s[--n] = '\0';
}

int str_ieq(const char *a, const char *b) { return strcasecmp(a, b) == 0; }

int str_prefix(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

int parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    char *end;
    long long v;
    if (!s || !*s || isspace((unsigned char)*s))
        return -1;
    errno = 0;
    v = strtoll(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int parse_u64(const char *s, uint64_t *out)
{
    char *end;
    unsigned long long v;
    if (!s || !isdigit((unsigned char)*s))
        return -1;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

int buf_printf(char *buf, size_t n, size_t *len, const char *fmt, ...)
{
    va_list ap;
    int w;
    if (*len >= n)
        return -1;
    va_start(ap, fmt);
    w = vsnprintf(buf + *len, n - *len, fmt, ap);
    va_end(ap);
    if (w < 0)
        return -1;
    if ((size_t)w >= n - *len) {
        *len = n - 1;
        return -1;
    }
    *len += (size_t)w;
    return 0;
}

int set_err(char *err, size_t n, int rc, const char *fmt, ...)
{
    va_list ap;
    if (err && n) {
        va_start(ap, fmt);
        vsnprintf(err, n, fmt, ap);
        va_end(ap);
    }
    return rc;
}
