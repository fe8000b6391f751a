/* rules_core.h - the hot Palagan code (maneuvers, captures, liberties),
 * written once over a bitboard of W words and instantiated by
 * rules_w1.c (N <= 5), rules_w2.c (N <= 7) and rules_w4.c (N <= 9).
 * The includer defines W and SFX(name) (name##_<W>).
 */
#include <assert.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#if defined(__BMI2__)
#include <immintrin.h>
#endif

#include "../../core/util.h"
#include "palagan.h"

#if W == 1
typedef uint64_t BB;
static inline BB ld(const pal_bb p) { return p[0]; }
static inline void st(pal_bb p, BB b) { p[0] = b; }
static inline BB band(BB a, BB b) { return a & b; }
static inline BB bor(BB a, BB b) { return a | b; }
static inline BB bandn(BB a, BB b) { return a & ~b; }
static inline bool nz(BB a) { return a != 0; }
static inline int ctz(BB a) { return __builtin_ctzll(a); }
static inline BB poplow(BB a) { return a & (a - 1); }
static inline BB bit(int i) { return (uint64_t)1 << i; }
static inline bool has(BB a, int i) { return (a >> i) & 1; }
static inline int popc(BB a) { return __builtin_popcountll(a); }
static inline BB zero(void) { return 0; }
#else
typedef struct {
    uint64_t w[W];
} BB;
static inline BB ld(const pal_bb p)
{
    BB b;
    memcpy(b.w, p, sizeof b.w);
    return b;
}
static inline void st(pal_bb p, BB b) { memcpy(p, b.w, sizeof b.w); }
static inline BB band(BB a, BB b)
{
    for (int i = 0; i < W; i++)
        a.w[i] &= b.w[i];
    return a;
}
static inline BB bor(BB a, BB b)
{
    for (int i = 0; i < W; i++)
        a.w[i] |= b.w[i];
    return a;
}
static inline BB bandn(BB a, BB b)
{
    for (int i = 0; i < W; i++)
        a.w[i] &= ~b.w[i];
    return a;
}
static inline bool nz(BB a)
{
    uint64_t o = 0;
    for (int i = 0; i < W; i++)
        o |= a.w[i];
    return o != 0;
}
static inline int ctz(BB a)
{
    for (int i = 0; i < W; i++)
        if (a.w[i])
            return 64 * i + __builtin_ctzll(a.w[i]);
    return -1;
}
static inline BB poplow(BB a)
{
    for (int i = 0; i < W; i++)
        if (a.w[i]) {
            a.w[i] &= a.w[i] - 1;
            break;
        }
    return a;
}
static inline BB bit(int i)
{
    BB b = {{0}};
    b.w[i >> 6] = (uint64_t)1 << (i & 63);
    return b;
}
static inline bool has(BB a, int i) { return (a.w[i >> 6] >> (i & 63)) & 1; }
static inline int popc(BB a)
{
    int n = 0;
    for (int i = 0; i < W; i++)
        n += __builtin_popcountll(a.w[i]);
    return n;
}
static inline BB zero(void)
{
    BB b = {{0}};
    return b;
}
#endif

#define NBR(g, i) ld((g)->nbr[i])

static inline BB empty_of(const struct pal_geom *g, const struct pal_state *s)
{
    return bandn(ld(g->all), bor(ld(s->occ[0]), ld(s->occ[1])));
}

static int dir_of(const struct pal_geom *g, int a, int b)
{
    for (int k = 0; k < PAL_NDIR; k++)
        if (g->step[a][k] == b)
            return k;
    return -1;
}

int SFX(pal_gen_man)(const struct pal_geom *g, const struct pal_state *s,
                     pal_man *out)
{
    int n = 0;
    if (s->nman >= (s->first ? 1 : 2))
        return 0;
    const BB own = ld(s->occ[s->stm]), opp = ld(s->occ[s->stm ^ 1]);
    const BB empty = bandn(ld(g->all), bor(own, opp));
    if (s->reserve[s->stm])
        for (BB b = empty; nz(b); b = poplow(b))
            out[n++] = PAL_MAN(PAL_SUMMON, 0, ctz(b));
    for (BB b = own; nz(b); b = poplow(b)) {
        int f = ctz(b);
        for (int k = 0; k < PAL_NDIR; k++) {
            int t = g->step[f][k];
            if (t < 0)
                continue;
            if (has(empty, t)) {
                if (s->nman == 1 && f == s->last_to && t == s->last_from)
                    continue; /* rule 7: no undoing the first maneuver */
            } else if (has(opp, t)) {
                int t2 = g->step[t][k];
                if (t2 < 0 || !has(empty, t2))
                    continue;
            } else {
                continue;
            }
            out[n++] = PAL_MAN(PAL_STEP, f, t);
        }
    }
    assert(n <= PAL_MAX_MAN);
    return n;
}

bool SFX(pal_man_ok)(const struct pal_geom *g, const struct pal_state *s,
                     pal_man m)
{
    if (s->nman >= (s->first ? 1 : 2))
        return false;
    unsigned kind = PAL_KIND(m), f = PAL_FROM(m), t = PAL_TO(m);
    if ((int)t >= g->ncells || (int)f >= g->ncells)
        return false;
    const BB own = ld(s->occ[s->stm]), opp = ld(s->occ[s->stm ^ 1]);
    const BB empty = bandn(ld(g->all), bor(own, opp));
    if (kind == PAL_SUMMON)
        return f == 0 && s->reserve[s->stm] && has(empty, (int)t);
    if (kind != PAL_STEP || !has(own, (int)f))
        return false;
    int k = dir_of(g, (int)f, (int)t);
    if (k < 0)
        return false;
    if (has(empty, (int)t))
        return !(s->nman == 1 && f == s->last_to && t == s->last_from);
    if (!has(opp, (int)t))
        return false;
    int t2 = g->step[t][k];
    return t2 >= 0 && has(empty, t2);
}

/* Liberty search of the cluster of `own` holding c, stopping at the first
 * liberty.  Adds what it saw of the cluster to *seen. */
static inline bool has_lib(const struct pal_geom *g, BB own, BB empty, int c,
                           BB *seen)
{
    BB cl = bit(c), fr = cl;
    while (nz(fr)) {
        int i = ctz(fr);
        fr = poplow(fr);
        BB nb = NBR(g, i);
        if (nz(band(nb, empty))) {
            *seen = bor(*seen, cl);
            return true;
        }
        BB nx = bandn(band(nb, own), cl);
        cl = bor(cl, nx);
        fr = bor(fr, nx);
    }
    *seen = bor(*seen, cl);
    return false;
}

/* Full cluster of `own` at c and its liberties. */
static inline BB cluster_of(const struct pal_geom *g, BB own, BB empty, int c,
                            BB *libs)
{
    BB cl = bit(c), fr = cl, lb = zero();
    while (nz(fr)) {
        int i = ctz(fr);
        fr = poplow(fr);
        BB nb = NBR(g, i);
        lb = bor(lb, band(nb, empty));
        BB nx = bandn(band(nb, own), cl);
        cl = bor(cl, nx);
        fr = bor(fr, nx);
    }
    *libs = lb;
    return cl;
}

int SFX(pal_cluster_libs)(const struct pal_geom *g, const struct pal_state *s,
                          int c, int *size)
{
    int col = pal_at(s, c);
    assert(col >= 0);
    BB libs;
    BB cl = cluster_of(g, ld(s->occ[col]), empty_of(g, s), c, &libs);
    if (size)
        *size = popc(cl);
    return popc(libs);
}

/* Remove the enemy clusters without liberties among those holding a cell
 * of `cand`.  Returns the number of pieces removed. */
static int capture(const struct pal_geom *g, struct pal_state *s, BB cand)
{
    const int side = s->stm ^ 1;
    int got = 0;
    BB opp = ld(s->occ[side]), seen = zero();
    const BB empty0 = empty_of(g, s);
    BB empty = empty0;
    cand = band(cand, opp);
    while (nz(cand)) {
        int c = ctz(cand);
        BB before = seen;
        if (!has_lib(g, opp, empty, c, &seen)) {
            BB cl = bandn(seen, before);
            opp = bandn(opp, cl);
            empty = bor(empty, cl);
            got += popc(cl);
        }
        cand = bandn(cand, seen);
    }
    if (got)
        st(s->occ[side], opp);
    return got;
}

int SFX(pal_apply)(const struct pal_geom *g, struct pal_state *s, pal_man m)
{
    const int me = s->stm;
    const int t = (int)PAL_TO(m);
    BB own = ld(s->occ[me]);
    BB check = bor(ld(s->check), bit(t));
    BB cand = NBR(g, t);
    if (PAL_KIND(m) == PAL_SUMMON) {
        assert(s->reserve[me] > 0);
        s->reserve[me]--;
        s->active = 1;
    } else {
        const int f = (int)PAL_FROM(m);
        own = bandn(own, bit(f));
        BB opp = ld(s->occ[me ^ 1]);
        if (has(opp, t)) { /* push */
            int k = dir_of(g, f, t);
            int t2 = g->step[t][k];
            assert(t2 >= 0);
            opp = bor(bandn(opp, bit(t)), bit(t2));
            st(s->occ[me ^ 1], opp);
            cand = bor(cand, bit(t2));
            check = bor(check, NBR(g, t2));
        }
        if (s->nman == 0) {
            s->last_from = (uint8_t)f;
            s->last_to = (uint8_t)t;
        }
    }
    st(s->occ[me], bor(own, bit(t)));
    st(s->check, check);
    s->nman++;
    int got = capture(g, s, cand);
    if (got) {
        s->captures[me] = (uint8_t)(s->captures[me] + got);
        s->active = 1;
    }
    return got;
}

bool SFX(pal_can_end)(const struct pal_geom *g, const struct pal_state *s)
{
    const BB own = ld(s->occ[s->stm]), empty = empty_of(g, s);
    BB cand = band(ld(s->check), own), seen = zero();
    while (nz(cand)) {
        if (!has_lib(g, own, empty, ctz(cand), &seen))
            return false;
        cand = bandn(cand, seen);
    }
    return true;
}

bool SFX(pal_all_alive)(const struct pal_geom *g, const struct pal_state *s)
{
    const BB empty = empty_of(g, s);
    for (int side = 0; side < 2; side++) {
        BB own = ld(s->occ[side]), cand = own, seen = zero();
        while (nz(cand)) {
            if (!has_lib(g, own, empty, ctz(cand), &seen))
                return false;
            cand = bandn(cand, seen);
        }
    }
    return true;
}

/* ---- playout policy ---------------------------------------------------- */

/* Liberty points of the clusters of `own` touching `hot` with exactly one
 * (*a1) and two (*a2) liberties.  A fill stops at the third liberty (the
 * rest of that cluster may seed another short fill: cheaper than whole
 * clusters). */
static void short_libs(const struct pal_geom *g, BB own, BB empty, BB hot, BB *a1,
                       BB *a2)
{
    BB cand = band(own, hot), x1 = zero(), x2 = zero();
    while (nz(cand)) {
        int c = ctz(cand);
        BB cl = bit(c), fr = cl, lb = zero();
        int n = 0;
        while (nz(fr)) {
            int i = ctz(fr);
            fr = poplow(fr);
            BB nb = NBR(g, i);
            lb = bor(lb, band(nb, empty));
            BB nx = bandn(band(nb, own), cl);
            cl = bor(cl, nx);
            fr = bor(fr, nx);
            if ((n = popc(lb)) >= 3)
                break;
        }
        if (n == 1)
            x1 = bor(x1, lb);
        else if (n == 2)
            x2 = bor(x2, lb);
        cand = bandn(cand, cl);
    }
    *a1 = x1;
    *a2 = x2;
}

void SFX(pal_liberties)(const struct pal_geom *g, const struct pal_state *s, int libs[2])
{
    const BB empty = empty_of(g, s);
    for (int side = 0; side < 2; side++) {
        BB own = ld(s->occ[side]), cand = own;
        libs[side] = 0;
        while (nz(cand)) {
            BB lb, cl = cluster_of(g, own, empty, ctz(cand), &lb);
            libs[side] += popc(lb);
            cand = bandn(cand, cl);
        }
    }
}

/* Index of the k-th set bit of b (k < popc(b)). */
static inline int nth_bit(BB b, int k)
{
#if W == 1 && defined(__BMI2__)
    return __builtin_ctzll(_pdep_u64((uint64_t)1 << k, b));
#else
    while (k--)
        b = poplow(b);
    return ctz(b);
#endif
}

static int pick_bit(BB b, struct rng *r)
{
    return nth_bit(b, (int)rng_below(r, (uint64_t)popc(b)));
}

/* A uniformly drawn maneuver (summon on an empty cell or a piece and a
 * direction), found by rejection; applied if the turn can still end.
 * 0 if none found in a few tries. */
static pal_man random_man(const struct pal_geom *g, struct pal_state *s, struct rng *r)
{
    const int me = s->stm;
    const BB own = ld(s->occ[me]), opp = ld(s->occ[me ^ 1]);
    const BB empty = bandn(ld(g->all), bor(own, opp));
    const int ne = s->reserve[me] ? popc(empty) : 0, np = popc(own);
    if (ne + np == 0)
        return 0;
    for (int tries = 0; tries < 24; tries++) {
        int x = (int)rng_below(r, (uint64_t)(ne + 6 * np));
        pal_man m;
        if (x < ne) {
            m = PAL_MAN(PAL_SUMMON, 0, nth_bit(empty, x));
        } else {
            x -= ne;
            int f = nth_bit(own, x / 6), k = x % 6;
            int t = g->step[f][k];
            if (t < 0)
                continue;
            if (has(empty, t)) {
                if (s->nman == 1 && f == s->last_to && t == s->last_from)
                    continue;
            } else if (has(opp, t)) {
                int t2 = g->step[t][k];
                if (t2 < 0 || !has(empty, t2))
                    continue;
            } else {
                continue;
            }
            m = PAL_MAN(PAL_STEP, f, t);
        }
        struct pal_state c = *s;
        SFX(pal_apply)(g, &c, m);
        if (SFX(pal_can_end)(g, &c)) {
            *s = c;
            return m;
        }
    }
    return 0;
}

/* Try maneuvers that put a piece of the mover on L (a summon, then steps
 * from neighbours); keep the first that passes `want` (0: any, 1: captures,
 * k >= 2: leaves the piece on L with >= k liberties).  0 if none. */
static pal_man occupy(const struct pal_geom *g, struct pal_state *s, int L,
                      int want)
{
    pal_man cands[8];
    int nc = 0;
    const BB own = ld(s->occ[s->stm]);
    if (s->reserve[s->stm])
        cands[nc++] = PAL_MAN(PAL_SUMMON, 0, L);
    for (int k = 0; k < PAL_NDIR; k++) {
        int f = g->step[L][k];
        if (f >= 0 && has(own, f) &&
            !(s->nman == 1 && f == s->last_to && L == s->last_from))
            cands[nc++] = PAL_MAN(PAL_STEP, f, L);
    }
    for (int i = 0; i < nc; i++) {
        struct pal_state t = *s;
        int got = SFX(pal_apply)(g, &t, cands[i]);
        if (want == 0 || (want == 1 ? got > 0 : SFX(pal_cluster_libs)(g, &t, L, NULL) >= want)) {
            if (!SFX(pal_can_end)(g, &t))
                continue;
            *s = t;
            return cands[i];
        }
    }
    return 0;
}

/* The policy looks for short liberties only in the clusters touching
 * `hot` (the cells the last turns changed, and their neighbours). */
static pal_man policy_man(const struct pal_geom *g, struct pal_state *s, struct rng *r,
                          const struct pal_policy *p, BB hot)
{
    const int left = (s->first ? 1 : 2) - s->nman; /* maneuvers left */
    if (left <= 0)
        return 0;
    const bool mend = !SFX(pal_can_end)(g, s); /* after a suicidal first */
    if (left == 1 && !s->first && !mend && (int)(rng_next(r) & 1023) < p->end_early)
        return 0;
    const int me = s->stm;
    const BB empty = empty_of(g, s);
    BB o1, o2, m1, m2;
    short_libs(g, ld(s->occ[me ^ 1]), empty, hot, &o1, &o2);
    pal_man m;
    /* capture now, or start a two-maneuver capture */
    if (nz(o1) && (mend || (int)(rng_next(r) & 1023) < p->capture))
        if ((m = occupy(g, s, pick_bit(o1, r), 1)))
            return m;
    if (left == 2 && nz(o2) && (int)(rng_next(r) & 1023) < p->capture)
        if ((m = occupy(g, s, pick_bit(o2, r), 0)))
            return m;
    if (!mend) {
        /* the opponent gets two maneuvers: two liberties are not safe */
        short_libs(g, ld(s->occ[me]), empty, hot, &m1, &m2);
        if (nz(m1) && (int)(rng_next(r) & 1023) < p->save)
            if ((m = occupy(g, s, pick_bit(m1, r), 3)) ||
                (m = occupy(g, s, pick_bit(m1, r), 2)))
                return m;
        if (nz(m2) && (int)(rng_next(r) & 1023) < p->save)
            if ((m = occupy(g, s, pick_bit(m2, r), 3)))
                return m;
        if (nz(o2) && (int)(rng_next(r) & 1023) < p->attack)
            if ((m = occupy(g, s, pick_bit(o2, r), 2)))
                return m;
    }
    if (!mend && (m = random_man(g, s, r)))
        return m;
    pal_man list[PAL_MAX_MAN];
    int n = SFX(pal_gen_man)(g, s, list);
    for (int tries = 0; n > 0 && tries < (mend ? n : 4); tries++) {
        int i = mend ? tries : (int)rng_below(r, (uint64_t)n);
        struct pal_state t = *s;
        SFX(pal_apply)(g, &t, list[i]);
        if (SFX(pal_can_end)(g, &t)) {
            *s = t;
            return list[i];
        }
    }
    return 0;
}

pal_man SFX(pal_policy_man)(const struct pal_geom *g, struct pal_state *s,
                            struct rng *r, const struct pal_policy *p)
{
    return policy_man(g, s, r, p, ld(g->all));
}

/* Where a maneuver took liberties: the cell it filled and the cell a push
 * filled, with their neighbours (a vacated cell only gives liberties). */
static inline BB near(const struct pal_geom *g, const struct pal_state *s, pal_man m)
{
    int t = (int)PAL_TO(m);
    BB h = bor(NBR(g, t), bit(t));
    if (PAL_KIND(m) == PAL_STEP) {
        int k = dir_of(g, (int)PAL_FROM(m), t), t2 = g->step[t][k];
        if (t2 >= 0 && pal_at(s, t2) == (s->stm ^ 1)) /* pushed there, likely */
            h = bor(h, bor(NBR(g, t2), bit(t2)));
    }
    return h;
}

int SFX(pal_playout)(const struct pal_geom *g, struct pal_state *s, struct rng *r,
                     const struct pal_policy *p, struct pal_trace *tr)
{
    /* at first, everything is news */
    BB hot_prev = ld(g->all), hot_cur = zero();
    for (int ply = 0; ply < p->maxply && !pal_over(s); ply++) {
        struct pal_state save = *s;
        pal_man m;
        while ((m = policy_man(g, s, r, p, bor(hot_prev, hot_cur)))) {
            hot_cur = bor(hot_cur, near(g, s, m));
            if (tr && tr->n < PAL_TRACE_MAX) {
                tr->side[tr->n] = s->stm;
                tr->key[tr->n++] = (uint16_t)pal_man_key(g, m);
            }
        }
        hot_prev = hot_cur;
        hot_cur = zero();
        if (!SFX(pal_can_end)(g, s)) /* cannot happen from a legal tree node */
            *s = save;
        pal_end_turn(s);
    }
    return s->captures[0] - s->captures[1];
}

void SFX(pal_shape)(const struct pal_geom *g, const struct pal_state *s, int out[2][3])
{
    const BB empty = empty_of(g, s);
    for (int side = 0; side < 2; side++) {
        BB own = ld(s->occ[side]), cand = own;
        out[side][0] = out[side][1] = out[side][2] = 0;
        while (nz(cand)) {
            BB lb, cl = cluster_of(g, own, empty, ctz(cand), &lb);
            int n = popc(lb);
            if (n >= 1 && n <= 2)
                out[side][n - 1] += popc(cl);
            out[side][2] += n;
            cand = bandn(cand, cl);
        }
    }
}

/* ---- counting turns fast (perft) ------------------------------------------ */

/* Legal second maneuvers after a first one that left every touched cluster
 * a liberty.  A summon on a cell with an empty neighbour always keeps one
 * (the new cluster has that neighbour; clusters it joins share it), and a
 * move always does (the cell it leaves is next to it and to what it left);
 * only summons into holes and pushes (the pushed piece may fill a
 * cluster's last liberty) need playing out. */
static int count_second(const struct pal_geom *g, const struct pal_state *s1)
{
    const int me = s1->stm;
    const BB own = ld(s1->occ[me]), opp = ld(s1->occ[me ^ 1]);
    const BB empty = bandn(ld(g->all), bor(own, opp));
    int n = 0;
    if (s1->reserve[me])
        for (BB b = empty; nz(b); b = poplow(b)) {
            int c = ctz(b);
            if (nz(band(NBR(g, c), empty))) {
                n++;
            } else {
                struct pal_state t = *s1;
                SFX(pal_apply)(g, &t, PAL_MAN(PAL_SUMMON, 0, c));
                n += SFX(pal_can_end)(g, &t);
            }
        }
    for (BB b = own; nz(b); b = poplow(b)) {
        int f = ctz(b);
        for (int k = 0; k < PAL_NDIR; k++) {
            int t = g->step[f][k];
            if (t < 0)
                continue;
            if (has(empty, t)) {
                n += !(f == s1->last_to && t == s1->last_from);
            } else if (has(opp, t)) {
                int t2 = g->step[t][k];
                if (t2 < 0 || !has(empty, t2))
                    continue;
                struct pal_state u = *s1;
                SFX(pal_apply)(g, &u, PAL_MAN(PAL_STEP, f, t));
                n += SFX(pal_can_end)(g, &u);
            }
        }
    }
    return n;
}

int SFX(pal_count_turns)(const struct pal_geom *g, const struct pal_state *s)
{
    if (pal_over(s))
        return 0;
    pal_man l1[PAL_MAX_MAN], l2[PAL_MAX_MAN];
    int n1 = SFX(pal_gen_man)(g, s, l1), total = 1; /* pass */
    for (int i = 0; i < n1; i++) {
        struct pal_state s1 = *s;
        SFX(pal_apply)(g, &s1, l1[i]);
        bool end1 = SFX(pal_can_end)(g, &s1);
        total += end1;
        if (s->first)
            continue;
        if (end1) {
            total += count_second(g, &s1);
            continue;
        }
        int n2 = SFX(pal_gen_man)(g, &s1, l2);
        for (int j = 0; j < n2; j++) {
            struct pal_state s2 = s1;
            SFX(pal_apply)(g, &s2, l2[j]);
            total += SFX(pal_can_end)(g, &s2);
        }
    }
    return total;
}
