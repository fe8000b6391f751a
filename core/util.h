/* util.h - small helpers shared by every module: clocks, PRNG, strings. */
#ifndef MEDAN_UTIL_H
#define MEDAN_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Print "medan: <msg>" to stderr and exit(2): only for the environment
 * (out of memory, a pipe that cannot be made), never for input. */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* Monotonic clock. */
int64_t now_ms(void);
int64_t now_us(void);

/* PRNG: xoshiro256** seeded through splitmix64. Deterministic everywhere. */
struct rng {
    uint64_t s[4];
};
uint64_t splitmix64(uint64_t *x);
void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, n), n > 0, without modulo bias. */
uint64_t rng_below(struct rng *r, uint64_t n);
/* Uniform in [0, n), n > 0, without bias, by a multiplication (Lemire's
 * multiply-and-shift with rejection): no division but for 2^64 mod n, and
 * that only when the low word of the product falls below n (a chance of
 * n / 2^64).  Other numbers than rng_below's for the same state. */
uint64_t rng_range(struct rng *r, uint64_t n);
double rng_double(struct rng *r); /* [0, 1) */

/* rng_next and rng_range for hot loops (Palagan's playouts): the same
 * numbers, the code in line where a call and its frame would cost. */
static inline uint64_t rng_next_inline(struct rng *r)
{
    uint64_t *s = r->s;
    const uint64_t x = s[1] * 5, result = ((x << 7) | (x >> 57)) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19);
    return result;
}

static inline uint64_t rng_range_inline(struct rng *r, uint64_t n)
{
    /* x n = 2^64 v + l; the v of a draw with l < 2^64 mod n is drawn again,
     * so each v in [0, n) has exactly floor(2^64 / n) draws */
    unsigned __int128 m = (unsigned __int128)rng_next_inline(r) * n;
    if ((uint64_t)m < n) {
        const uint64_t t = (0 - n) % n;
        while ((uint64_t)m < t)
            m = (unsigned __int128)rng_next_inline(r) * n;
    }
    return (uint64_t)(m >> 64);
}

/* A stable 64-bit mix of several values: seeds for (match, game, seat). */
uint64_t mix64(uint64_t a, uint64_t b);
/* mix64 is invertible (anyone can undo it): never use it to hide a value.
 * SipHash-2-4, a keyed one-way function (a PRF): without the 16-byte key
 * its outputs tell nothing about its inputs or about each other. */
uint64_t siphash24(const uint8_t key[16], const void *msg, size_t len);
/* n bytes from the operating system's random source (getrandom, else
 * /dev/urandom).  0, or -1 when there is none. */
int os_random(void *buf, size_t n);

/* Split s in place at spaces/tabs; returns the token count (<= max). */
int str_split(char *s, char **tok, int max);
/* Strip trailing CR/LF and spaces in place. */
void str_chomp(char *s);
int str_ieq(const char *a, const char *b);            /* case-insensitive */
int str_prefix(const char *s, const char *prefix);    /* s starts with */
/* Strict integer parse of the whole string within [lo, hi]. */
int parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *out);
int parse_u64(const char *s, uint64_t *out);

/* Append to a bounded buffer: `*len` is the current length. Truncates
 * safely; returns 0, or -1 when truncated. */
int buf_printf(char *buf, size_t n, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Named integer tunables inside a struct of ints (evaluation weights): one
 * row per name with its offset. */
struct named_int {
    const char *name;
    size_t off;
};
/* Change the fields of `w` named in "name=value,name=value" (commas or
 * spaces), each within [lo, hi]; on error w is unchanged and err says why,
 * calling a field a `what` ("weight"). */
int named_ints_parse(void *w, size_t wsize, const struct named_int *names, size_t count,
                     int64_t lo, int64_t hi, const char *what, const char *spec, char *err,
                     size_t n);

/* Named tunables of either kind (search parameters): an int or a double
 * field at `off`, each with its own range [lo, hi] (an int field takes
 * whole numbers only). */
struct named_param {
    const char *name;
    size_t off;
    int real; /* 1: a double, 0: an int */
    double lo, hi;
};
/* Change the fields of `w` named in "name=value,name=value" (commas or
 * spaces; a later entry wins over an earlier one); on error w is unchanged
 * and err says why, naming the entry and calling a field a `what`. */
int named_params_parse(void *w, size_t wsize, const struct named_param *names, size_t count,
                       const char *what, const char *spec, char *err, size_t n);
/* Strict parse of a whole string as a finite real within [lo, hi]. */
int parse_real(const char *s, double lo, double hi, double *out);

/* Bounded error message helper: writes into err (if err && n). Returns rc. */
int set_err(char *err, size_t n, int rc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
