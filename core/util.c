/* util.c - clocks, PRNG, strings, allocation (see util.h). */
#define _POSIX_C_SOURCE 200809L
#include "util.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

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

uint64_t rng_next(struct rng *r) { return rng_next_inline(r); }

uint64_t rng_below(struct rng *r, uint64_t n)
{
    uint64_t lim = UINT64_MAX - UINT64_MAX % n, x;
    do
        x = rng_next(r);
    while (x >= lim);
    return x % n;
}

uint64_t rng_range(struct rng *r, uint64_t n) { return rng_range_inline(r, n); }

double rng_double(struct rng *r) { return (rng_next(r) >> 11) * 0x1.0p-53; }

uint64_t mix64(uint64_t a, uint64_t b)
{
    uint64_t x = a ^ (b * 0x9e3779b97f4a7c15ULL);
    return splitmix64(&x);
}

/* SipHash-2-4 (Aumasson and Bernstein, 2012), written from the paper. */
#define SIPROUND(v0, v1, v2, v3)                                              \
    do {                                                                      \
        v0 += v1; v1 = rotl(v1, 13); v1 ^= v0; v0 = rotl(v0, 32);             \
        v2 += v3; v3 = rotl(v3, 16); v3 ^= v2;                                \
        v0 += v3; v3 = rotl(v3, 21); v3 ^= v0;                                \
        v2 += v1; v1 = rotl(v1, 17); v1 ^= v2; v2 = rotl(v2, 32);             \
    } while (0)

static uint64_t load_le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

uint64_t siphash24(const uint8_t key[16], const void *msg, size_t len)
{
    const uint8_t *m = msg;
    uint64_t k0 = load_le64(key), k1 = load_le64(key + 8);
    uint64_t v0 = k0 ^ 0x736f6d6570736575ULL, v1 = k1 ^ 0x646f72616e646f6dULL;
    uint64_t v2 = k0 ^ 0x6c7967656e657261ULL, v3 = k1 ^ 0x7465646279746573ULL;
    uint64_t b = (uint64_t)len << 56, w;
    size_t i;
    for (i = 0; i + 8 <= len; i += 8) {
        w = load_le64(m + i);
        v3 ^= w;
        SIPROUND(v0, v1, v2, v3);
        SIPROUND(v0, v1, v2, v3);
        v0 ^= w;
    }
    for (size_t j = 0; i + j < len; j++)
        b |= (uint64_t)m[i + j] << (8 * j);
    v3 ^= b;
    SIPROUND(v0, v1, v2, v3);
    SIPROUND(v0, v1, v2, v3);
    v0 ^= b;
    v2 ^= 0xff;
    for (int r = 0; r < 4; r++)
        SIPROUND(v0, v1, v2, v3);
    return v0 ^ v1 ^ v2 ^ v3;
}

int os_random(void *buf, size_t n)
{
    unsigned char *p = buf;
    size_t got = 0;
    int fd;
    while (got < n) {
        ssize_t k = getrandom(p + got, n - got, 0);
        if (k > 0)
            got += (size_t)k;
        else if (k < 0 && errno == EINTR)
            continue;
        else
            break;
    }
    if (got == n)
        return 0;
    if ((fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)) < 0)
        return -1;
    while (got < n) {
        ssize_t k = read(fd, p + got, n - got);
        if (k > 0)
            got += (size_t)k;
        else if (!(k < 0 && errno == EINTR))
            break;
    }
    close(fd);
    return got == n ? 0 : -1;
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

int parse_real(const char *s, double lo, double hi, double *out)
{
    char *end;
    double v;
    if (!s || !*s || isspace((unsigned char)*s))
        return -1;
    errno = 0;
    v = strtod(s, &end);
    /* (NaN fails both comparisons; hex floats and inf/nan words are not
     * numbers here) */
    if (errno || *end || strpbrk(s, "xXiInN") || !(v >= lo && v <= hi))
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

int named_ints_parse(void *w, size_t wsize, const struct named_int *names, size_t count,
                     int64_t lo, int64_t hi, const char *what, const char *spec, char *err,
                     size_t n)
{
    /* the same entries as named_params_parse's, every one an int in [lo, hi] */
    struct named_param p[128];
    if (count > ARRAY_LEN(p))
        return set_err(err, n, -1, "internal: too many %ss", what);
    for (size_t i = 0; i < count; i++)
        p[i] = (struct named_param){names[i].name, names[i].off, 0, (double)lo, (double)hi};
    return named_params_parse(w, wsize, p, count, what, spec, err, n);
}

int named_params_parse(void *w, size_t wsize, const struct named_param *names, size_t count,
                       const char *what, const char *spec, char *err, size_t n)
{
    char buf[512], *save, *kv;
    unsigned char tmp[1024];
    if (wsize > sizeof tmp)
        return set_err(err, n, -1, "internal: %ss too large", what);
    if (strlen(spec) >= sizeof buf)
        return set_err(err, n, -1, "%ss: at most %zu characters", what, sizeof buf - 1);
    memcpy(tmp, w, wsize);
    snprintf(buf, sizeof buf, "%s", spec);
    for (kv = strtok_r(buf, ", ", &save); kv; kv = strtok_r(NULL, ", ", &save)) {
        char *eq = strchr(kv, '=');
        size_t i;
        double v;
        if (!eq)
            return set_err(err, n, -1, "%s '%s' needs name=value", what, kv);
        *eq = '\0';
        for (i = 0; i < count; i++)
            if (strcmp(names[i].name, kv) == 0)
                break;
        if (i == count)
            return set_err(err, n, -1, "no %s '%s'", what, kv);
        const struct named_param *p = &names[i];
        if (p->real) {
            if (parse_real(eq + 1, p->lo, p->hi, &v))
                return set_err(err, n, -1, "%s %s takes a number from %g to %g, not '%s'",
                               what, kv, p->lo, p->hi, eq + 1);
            assert(p->off + sizeof(double) <= wsize);
            memcpy(tmp + p->off, &v, sizeof v);
        } else {
            int64_t x;
            if (parse_i64(eq + 1, (int64_t)p->lo, (int64_t)p->hi, &x))
                return set_err(err, n, -1,
                               "%s %s takes a whole number from %g to %g, not '%s'", what, kv,
                               p->lo, p->hi, eq + 1);
            assert(p->off + sizeof(int) <= wsize);
            memcpy(tmp + p->off, &(int){(int)x}, sizeof(int));
        }
    }
    memcpy(w, tmp, wsize);
    return 0;
}
