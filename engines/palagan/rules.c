/* rules.c - Palagan board geometry, maneuvers, captures and turn
 * generation (RULES.md section 3).  Pure functions over struct pal_state. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "../../core/util.h"
#include "palagan.h"

const int pal_dx[PAL_NDIR] = {1, -1, 0, 0, 1, -1};
const int pal_dy[PAL_NDIR] = {0, 0, 1, -1, 1, -1};

static struct pal_geom geoms[PAL_MAX_N + 1];
static pthread_once_t geoms_once = PTHREAD_ONCE_INIT;

/* Can this processor run rules_w1h.c (POPCNT, BMI1, BMI2, and a fast PDEP:
 * not AMD's Zen 1 and 2, whose PDEP takes hundreds of cycles)?  Found once,
 * with the geometry tables; `use_hw` is what the dispatch reads. */
static bool cpu_hw, use_hw;

static bool cpu_has_hw(void)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    return __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("bmi") &&
           __builtin_cpu_supports("bmi2") && !__builtin_cpu_is("znver1") &&
           !__builtin_cpu_is("znver2");
#else
    return false;
#endif
}

static void geom_build(struct pal_geom *g, int n)
{
    memset(g, 0, sizeof *g);
    g->n = n;
    g->d = 2 * n - 1;
    memset(g->idx, -1, sizeof g->idx);
    int c = 0;
    for (int y = 0; y < g->d; y++)
        for (int x = 0; x < g->d; x++)
            if (x - y < n && y - x < n) {
                g->idx[x][y] = (int16_t)c;
                g->cx[c] = (uint8_t)x;
                g->cy[c] = (uint8_t)y;
                pal_set(g->all, c);
                c++;
            }
    g->ncells = c;
    assert(c == 3 * n * n - 3 * n + 1 && c <= PAL_MAX_CELLS);
    for (int i = 0; i < c; i++)
        for (int k = 0; k < PAL_NDIR; k++) {
            int x = g->cx[i] + pal_dx[k], y = g->cy[i] + pal_dy[k];
            int j = (x >= 0 && y >= 0 && x < g->d && y < g->d) ? g->idx[x][y] : -1;
            g->step[i][k] = (int16_t)j;
            if (j >= 0) {
                pal_set(g->nbr[i], j);
                if (i < 64)
                    g->nbr1[i] = g->nbr[i][0];
                g->degree[i]++;
            }
        }
    /* run[]: the neighbours in turning order are directions 0 4 2 1 5 3,
     * each next to the one before and after it */
    static const int turn_pos[PAL_NDIR] = {0, 3, 2, 5, 1, 4}; /* direction -> place */
    for (int i = 0; i < c; i++) {
        int place[PAL_NDIR], nn = 0;
        for (int j = 0; j < c; j++) /* the neighbours by number */
            for (int k = 0; k < PAL_NDIR; k++)
                if (g->step[i][k] == j)
                    place[nn++] = turn_pos[k];
        for (unsigned m = 0; m < 1u << nn; m++) {
            unsigned ring = 0;
            for (int b = 0; b < nn; b++)
                if (m >> b & 1)
                    ring |= 1u << place[b];
            int starts = 0; /* set places whose predecessor is clear */
            for (int q = 0; q < PAL_NDIR; q++)
                starts += (ring >> q & 1) && !(ring >> ((q + PAL_NDIR - 1) % PAL_NDIR) & 1);
            if (starts <= 1)
                g->run[i] |= (uint64_t)1 << m;
        }
    }
}

static void geoms_init(void)
{
    for (int n = PAL_MIN_N; n <= PAL_MAX_N; n++)
        geom_build(&geoms[n], n);
    cpu_hw = use_hw = cpu_has_hw();
}

bool pal_fast_cpu(int want)
{
    pthread_once(&geoms_once, geoms_init);
    if (want >= 0)
        use_hw = want && cpu_hw;
    return use_hw;
}

const struct pal_geom *pal_geom(int n)
{
    assert(n >= PAL_MIN_N && n <= PAL_MAX_N);
    pthread_once(&geoms_once, geoms_init);
    return &geoms[n];
}

void pal_start(struct pal_state *s, int n)
{
    memset(s, 0, sizeof *s);
    s->n = (uint8_t)n;
    s->first = 1;
    s->reserve[0] = s->reserve[1] = PAL_PIECES;
}

bool pal_over(const struct pal_state *s) { return pal_over_inline(s); }

/* Dispatch to the instantiation of rules_core.h for the board's size. */
#define PAL_DECL(w)                                                              \
    int pal_gen_man_##w(const struct pal_geom *, const struct pal_state *,      \
                        pal_man *);                                              \
    bool pal_man_ok_##w(const struct pal_geom *, const struct pal_state *,      \
                        pal_man);                                                \
    int pal_apply_##w(const struct pal_geom *, struct pal_state *, pal_man);    \
    bool pal_can_end_##w(const struct pal_geom *, const struct pal_state *);    \
    bool pal_all_alive_##w(const struct pal_geom *, const struct pal_state *);  \
    int pal_cluster_libs_##w(const struct pal_geom *, const struct pal_state *, \
                             int, int *);                                        \
    pal_man pal_policy_man_##w(const struct pal_geom *, struct pal_state *,     \
                               struct rng *, const struct pal_policy *);         \
    int pal_playout_##w(const struct pal_geom *, struct pal_state *,            \
                        struct rng *, const struct pal_policy *,                 \
                        struct pal_trace *);                                     \
    void pal_liberties_##w(const struct pal_geom *, const struct pal_state *,   \
                           int *);                                               \
    int pal_count_turns_##w(const struct pal_geom *, const struct pal_state *); \
    void pal_shape_##w(const struct pal_geom *, const struct pal_state *,       \
                       int (*)[3]);                                              \
    long pal_po_check_##w(const struct pal_geom *, struct pal_state *,          \
                          struct rng *, int);
PAL_DECL(1)
PAL_DECL(1h)
PAL_DECL(2)
PAL_DECL(4)
#define DISPATCH(f, ...)                                                          \
    (g->n <= 5 ? (use_hw ? f##_1h(__VA_ARGS__) : f##_1(__VA_ARGS__))             \
               : g->n <= 7 ? f##_2(__VA_ARGS__) : f##_4(__VA_ARGS__))

int pal_gen_man(const struct pal_geom *g, const struct pal_state *s, pal_man *out)
{
    return DISPATCH(pal_gen_man, g, s, out);
}
bool pal_man_ok(const struct pal_geom *g, const struct pal_state *s, pal_man m)
{
    return DISPATCH(pal_man_ok, g, s, m);
}
int pal_apply(const struct pal_geom *g, struct pal_state *s, pal_man m)
{
    return DISPATCH(pal_apply, g, s, m);
}
bool pal_can_end(const struct pal_geom *g, const struct pal_state *s)
{
    return DISPATCH(pal_can_end, g, s);
}
bool pal_all_alive(const struct pal_geom *g, const struct pal_state *s)
{
    return DISPATCH(pal_all_alive, g, s);
}
int pal_cluster_libs(const struct pal_geom *g, const struct pal_state *s, int c,
                     int *size)
{
    return DISPATCH(pal_cluster_libs, g, s, c, size);
}
pal_man pal_policy_man(const struct pal_geom *g, struct pal_state *s,
                       struct rng *r, const struct pal_policy *p)
{
    return DISPATCH(pal_policy_man, g, s, r, p);
}
int pal_playout(const struct pal_geom *g, struct pal_state *s, struct rng *r,
                const struct pal_policy *p, struct pal_trace *tr)
{
    return DISPATCH(pal_playout, g, s, r, p, tr);
}
void pal_liberties(const struct pal_geom *g, const struct pal_state *s, int libs[2])
{
    DISPATCH(pal_liberties, g, s, libs);
}

void pal_shape(const struct pal_geom *g, const struct pal_state *s, int out[2][3])
{
    DISPATCH(pal_shape, g, s, out);
}

long pal_po_check(const struct pal_geom *g, struct pal_state *s, struct rng *r, int turns)
{
    return DISPATCH(pal_po_check, g, s, r, turns);
}

int pal_count_turns(const struct pal_state *s)
{
    const struct pal_geom *g = pal_geom(s->n);
    return DISPATCH(pal_count_turns, g, s);
}

const struct pal_policy pal_default_policy = {
    .capture = 990, .save = 900, .attack = 500, .end_early = 60, .maxply = 400,
};

unsigned pal_man_key(const struct pal_geom *g, pal_man m)
{
    if (PAL_KIND(m) == PAL_SUMMON)
        return PAL_TO(m);
    unsigned f = PAL_FROM(m);
    for (int k = 0; k < PAL_NDIR; k++)
        if (g->step[f][k] == (int)PAL_TO(m))
            return PAL_MAX_CELLS + 6 * f + (unsigned)k;
    assert(0);
    return PAL_KEY_END;
}

pal_man pal_key_man(const struct pal_geom *g, unsigned key)
{
    assert(key <= PAL_KEY_END);
    if (key == PAL_KEY_END)
        return 0;
    if (key < PAL_MAX_CELLS)
        return PAL_MAN(PAL_SUMMON, 0, key);
    const unsigned f = (key - PAL_MAX_CELLS) / 6, k = (key - PAL_MAX_CELLS) % 6;
    assert(g->step[f][k] >= 0);
    return PAL_MAN(PAL_STEP, f, (unsigned)g->step[f][k]);
}

void pal_end_turn(struct pal_state *s) { pal_end_turn_inline(s); }

void pal_play_turn(const struct pal_geom *g, struct pal_state *s, gmove t)
{
    pal_man m1 = PAL_M1(t), m2 = PAL_M2(t);
    if (m1) {
        assert(pal_man_ok(g, s, m1));
        pal_apply(g, s, m1);
        if (m2) {
            assert(pal_man_ok(g, s, m2));
            pal_apply(g, s, m2);
        }
        assert(pal_can_end(g, s));
    }
    pal_end_turn(s);
}

/* Is this second maneuver legal without playing it out?  (s1 can end.) */
static bool sure_second(const struct pal_geom *g, const struct pal_state *s1, pal_man m)
{
    unsigned t = PAL_TO(m);
    if (PAL_KIND(m) == PAL_SUMMON) {
        for (int k = 0; k < PAL_NDIR; k++) {
            int c = g->step[t][k];
            if (c >= 0 && pal_at(s1, c) < 0)
                return true;
        }
        return false;
    }
    return pal_at(s1, (int)t) < 0; /* a move (a push needs checking) */
}

int pal_gen_turns(const struct pal_state *s, gmove *out, int max)
{
    if (pal_over(s))
        return 0;
    const struct pal_geom *g = pal_geom(s->n);
    int n = 0;
#define EMIT(t)                        \
    do {                               \
        if (n >= max)                  \
            return -1;                 \
        if (out)                       \
            out[n] = (t);              \
        n++;                           \
    } while (0)
    EMIT(PAL_PASS);
    pal_man m1s[PAL_MAX_MAN], m2s[PAL_MAX_MAN];
    int n1 = pal_gen_man(g, s, m1s);
    for (int i = 0; i < n1; i++) {
        struct pal_state s1 = *s;
        pal_apply(g, &s1, m1s[i]);
        bool end1 = pal_can_end(g, &s1);
        if (end1)
            EMIT(PAL_TURN(m1s[i], 0));
        if (s->first)
            continue;
        int n2 = pal_gen_man(g, &s1, m2s);
        for (int j = 0; j < n2; j++) {
            /* after a first maneuver that can end the turn, only summons
             * into holes and pushes can break the liberty rule (see
             * count_second in rules_core.h) */
            if (end1 && sure_second(g, &s1, m2s[j])) {
                EMIT(PAL_TURN(m1s[i], m2s[j]));
                continue;
            }
            struct pal_state s2 = s1;
            pal_apply(g, &s2, m2s[j]);
            if (pal_can_end(g, &s2))
                EMIT(PAL_TURN(m1s[i], m2s[j]));
        }
    }
#undef EMIT
    return n;
}

void pal_cell_name(const struct pal_geom *g, int c, char *buf)
{
    int y = g->cy[c] + 1;
    *buf++ = (char)('a' + g->cx[c]);
    if (y >= 10)
        *buf++ = (char)('0' + y / 10);
    *buf++ = (char)('0' + y % 10);
    *buf = 0;
}

void pal_format_man(const struct pal_geom *g, pal_man m, char *buf)
{
    if (PAL_KIND(m) == PAL_SUMMON) {
        *buf = '@';
        pal_cell_name(g, PAL_TO(m), buf + 1);
        return;
    }
    pal_cell_name(g, PAL_FROM(m), buf);
    buf += strlen(buf);
    *buf++ = '-';
    pal_cell_name(g, PAL_TO(m), buf);
}

void pal_format_turn(const struct pal_geom *g, gmove t, char *buf, size_t n)
{
    pal_man m1 = PAL_M1(t), m2 = PAL_M2(t);
    if (!m1) {
        snprintf(buf, n, "pass");
        return;
    }
    char a[8], b[8];
    pal_format_man(g, m1, a);
    if (!m2) {
        snprintf(buf, n, "%s", a);
        return;
    }
    pal_format_man(g, m2, b);
    snprintf(buf, n, "%s,%s", a, b);
}
