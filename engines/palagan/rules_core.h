/* rules_core.h - the hot Palagan code (maneuvers, captures, liberties),
 * written once over a bitboard of W words and instantiated by
 * rules_w1.c (N <= 5), rules_w2.c (N <= 7) and rules_w4.c (N <= 9), and
 * rules_w1h.c (N <= 5 on processors with POPCNT and BMI2: PAL_HW).
 * The includer defines W and SFX(name) (name##_<W>).
 */
#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__BMI2__) || defined(PAL_HW)
#include <immintrin.h>
#endif

#include "../../core/util.h"
#include "palagan.h"

/* Population count of a word: the instruction where the build has it (make
 * NATIVE=1), else inline arithmetic (the portable build would call libgcc). */
static inline int pc64(uint64_t x)
{
#if defined(__POPCNT__) || defined(PAL_HW)
    return __builtin_popcountll(x);
#else
    x -= (x >> 1) & 0x5555555555555555ull;
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (int)((x * 0x0101010101010101ull) >> 56);
#endif
}

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
static inline int popc(BB a) { return pc64(a); }
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
        n += pc64(a.w[i]);
    return n;
}
static inline BB zero(void)
{
    BB b = {{0}};
    return b;
}
#endif

#if W == 1
#define NBR(g, i) ((g)->nbr1[i])
#else
#define NBR(g, i) ld((g)->nbr[i])
#endif

/* The number of cells in a, up to 3: min(popc(a), 3). */
static inline int cnt3(BB a)
{
#if defined(__POPCNT__) || defined(PAL_HW)
    const int n = popc(a);
    return n < 3 ? n : 3;
#else
    int n = nz(a);
    a = poplow(a);
    n += nz(a);
    return n + nz(poplow(a));
#endif
}

/* The cells numbered c and above. */
static inline BB at_or_above(int c)
{
#if W == 1
    return ~(uint64_t)0 << c;
#else
    BB b;
    for (int i = 0; i < W; i++)
        b.w[i] = c >= 64 * (i + 1) ? 0 : c <= 64 * i ? ~(uint64_t)0 : ~(uint64_t)0 << (c - 64 * i);
    return b;
#endif
}

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

/* dir_of for neighbours a and b, from their coordinates. */
static inline int adj_dir(const struct pal_geom *g, int a, int b)
{
    static const int8_t k[3][3] = {{5, 1, -1}, {3, -1, 2}, {-1, 0, 4}};
    int d = k[g->cx[b] - g->cx[a] + 1][g->cy[b] - g->cy[a] + 1];
    assert(d >= 0 && g->step[a][d] == b);
    return d;
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

/* The cluster of `own` grown from `start` (cells of own) and its
 * liberties (in `empty`).  With upto > 0 the fill stops as soon as it has
 * found `upto` liberties (then the cluster and liberties are partial);
 * *nlibs gets the count found (with upto <= 3, at most 3).  Callers pass
 * upto as a constant, so the test folds away where they want the whole
 * cluster. */
static inline BB cluster_upto(const struct pal_geom *g, BB own, BB empty, BB start, int upto,
                              BB *libs, int *nlibs)
{
    BB cl = start, fr = cl, lb = zero();
    int n = 0;
    while (nz(fr)) {
        int i = ctz(fr);
        fr = poplow(fr);
        BB nb = NBR(g, i);
        lb = bor(lb, band(nb, empty));
        BB nx = bandn(band(nb, own), cl);
        cl = bor(cl, nx);
        fr = bor(fr, nx);
        if (upto > 0 && (n = upto <= 3 ? cnt3(lb) : popc(lb)) >= upto)
            break;
    }
    *libs = lb;
    if (nlibs)
        *nlibs = upto > 0 ? n : popc(lb);
    return cl;
}

/* Full cluster of `own` at c and its liberties. */
static inline BB cluster_of(const struct pal_geom *g, BB own, BB empty, int c,
                            BB *libs)
{
    return cluster_upto(g, own, empty, bit(c), 0, libs, NULL);
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
        int c = ctz(cand), n;
        BB lb, cl = cluster_upto(g, own, empty, bit(c), 3, &lb, &n);
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

/* Index of the k-th set bit of the word x (k < popcount(x)). */
static inline int sel64(uint64_t x, int k)
{
#if defined(__BMI2__) || defined(PAL_HW)
    return __builtin_ctzll(_pdep_u64((uint64_t)1 << k, x));
#else
    /* the bytes' counts, summed up to each byte by a multiplication; the
     * byte holding the bit is the number of sums <= k (all sums < 128, so
     * the bytes' subtractions do not borrow from each other); then the
     * nibble, and a table inside the nibble */
    static const uint8_t sel4[16][4] = {
        {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {2, 0, 0, 0}, {0, 2, 0, 0},
        {1, 2, 0, 0}, {0, 1, 2, 0}, {3, 0, 0, 0}, {0, 3, 0, 0}, {1, 3, 0, 0}, {0, 1, 3, 0},
        {2, 3, 0, 0}, {0, 2, 3, 0}, {1, 2, 3, 0}, {0, 1, 2, 3}};
    const uint64_t L8 = 0x0101010101010101ull, H8 = 0x8080808080808080ull;
    uint64_t c = x - ((x >> 1) & 0x5555555555555555ull);
    c = (c & 0x3333333333333333ull) + ((c >> 2) & 0x3333333333333333ull);
    c = ((c + (c >> 4)) & 0x0f0f0f0f0f0f0f0full) * L8;
    const uint64_t le = ((((uint64_t)k * L8) | H8) - c) & H8;
    const int b = (int)(((le >> 7) * L8) >> 56) << 3;
    int r = k - (int)(((c << 8) >> b) & 255);
    const unsigned v = (unsigned)(x >> b) & 255;
    const int lo = (int)((0x4332322132212110ull >> ((v & 15) << 2)) & 15);
    const int hi = r >= lo;
    r -= hi ? lo : 0;
    const unsigned nib = hi ? v >> 4 : v & 15;
    return b + (hi << 2) + sel4[nib][r];
#endif
}

/* Index of the k-th set bit of b (k < popc(b)). */
static inline int nth_bit(BB b, int k)
{
#if W == 1
    return sel64(b, k);
#else
    for (int i = 0;; i++) {
        const int c = pc64(b.w[i]);
        if (k < c)
            return 64 * i + sel64(b.w[i], k);
        k -= c;
    }
#endif
}

static inline int pick_bit(BB b, struct rng *r)
{
    return nth_bit(b, (int)rng_range_inline(r, (uint64_t)popc(b)));
}

/* ---- the playout board: clusters kept up to date -------------------------
 *
 * Playouts play on a `struct po`: the position plus, per side, the list of
 * its clusters (stones and liberties), updated by every maneuver instead of
 * recounted: a piece put down merges the clusters next to it and takes a
 * liberty from the others, a piece taken away splits its cluster (a fill
 * over that cluster only) and gives a liberty to its neighbours, a capture
 * gives liberties to the capturer's clusters next to it.  The policy reads
 * short liberties and turn-end legality off these lists and tests most
 * candidate maneuvers without playing them (po_summon_ok, po_occupy_ok);
 * only pushes and "mend" positions (a mover's cluster without a liberty
 * after a suicidal first maneuver) are tried on a copy.  The decisions are
 * exactly those of a policy that recounts everything: the same random
 * numbers give the same games (pal_po_check tests the lists against a full
 * recount).
 */
#define PO_NCL PAL_PIECES /* a side has at most 20 pieces on the board */

struct po {
    struct pal_state s;
    uint32_t used[2];                /* slots in use, per side */
    uint64_t cls[2];                 /* slots with no, one, two liberties: bits 0, 20, 40 on */
    BB st[2][PO_NCL], lb[2][PO_NCL]; /* stones and liberties per slot */
    uint8_t cid[64 * W];             /* the slot of the piece on a cell */
    /* the last maneuver (po_apply): where it took liberties (the cell it
     * filled and the cell a push filled, with their neighbours; a vacated
     * cell only gives liberties) and its key (pal_man_key) */
    BB near;
    unsigned key;
};

/* The slots of `side` with j = 0, 1, 2 liberties. */
#define PO_CLW 20 /* bits a class takes in cls (PO_NCL slots) */
#define PO_CLS3 (1 | (uint64_t)1 << PO_CLW | (uint64_t)1 << (2 * PO_CLW))
#define PO_CLS(p, side, j) ((uint32_t)((p)->cls[side] >> (PO_CLW * (j))) & ((1u << PO_CLW) - 1))
_Static_assert(PO_NCL <= PO_CLW, "a class holds every slot");
_Static_assert(offsetof(struct pal_state, last_to) == offsetof(struct pal_state, last_from) + 1,
               "po_apply writes the two as one");

/* Set the liberties of slot k (and its class: no, one, two liberties). */
static inline void po_lb(struct po *p, int side, int k, BB lb)
{
    /* slot 0's bit in cls for no, one, two, three or more liberties */
    static const uint64_t of[4] = {1, (uint64_t)1 << PO_CLW, (uint64_t)1 << (2 * PO_CLW), 0};
    p->lb[side][k] = lb;
    p->cls[side] = (p->cls[side] & ~(PO_CLS3 << k)) | (of[cnt3(lb)] << k);
}

static inline void po_free(struct po *p, int side, int k)
{
    const uint32_t b = ~(1u << k);
    p->used[side] &= b;
    p->cls[side] &= ~(PO_CLS3 << k);
}

/* b if c, else nothing. */
static inline BB bsel(bool c, BB b)
{
#if W == 1
    return b & (0 - (uint64_t)c);
#else
    for (int i = 0; i < W; i++)
        b.w[i] &= 0 - (uint64_t)c;
    return b;
#endif
}

static inline void po_label(struct po *p, BB cl, int k)
{
    for (; nz(cl); cl = poplow(cl))
        p->cid[ctz(cl) & (64 * W - 1)] = (uint8_t)k; /* (ctz >= 0 here) */
}

static inline int po_new(struct po *p, int side, BB cl, BB lb)
{
    int k = __builtin_ctz(~p->used[side]);
    assert(k < PO_NCL);
    p->used[side] |= 1u << k;
    p->st[side][k] = cl;
    po_lb(p, side, k, lb);
    po_label(p, cl, k);
    return k;
}

static void po_init(const struct pal_geom *g, struct po *p)
{
    const BB empty = empty_of(g, &p->s);
    for (int side = 0; side < 2; side++) {
        BB own = ld(p->s.occ[side]), cand = own;
        p->used[side] = 0;
        p->cls[side] = 0;
        while (nz(cand)) {
            BB lb, cl = cluster_of(g, own, empty, ctz(cand), &lb);
            po_new(p, side, cl, lb);
            cand = bandn(cand, cl);
        }
    }
}

/* A piece of `side` onto the empty cell t. */
static inline __attribute__((always_inline)) void po_put(const struct pal_geom *g, struct po *p, int side, int t)
{
    const BB nb = NBR(g, t), tb = bit(t);
    const BB own = ld(p->s.occ[side]), opp = ld(p->s.occ[side ^ 1]);
    BB cl = tb, lb = bandn(ld(g->all), bor(own, opp));
    lb = band(lb, nb);
    BB a = band(nb, own); /* the clusters it joins */
    if (!nz(a)) {
        po_new(p, side, cl, bandn(lb, tb));
    } else {
        /* the first keeps its slot and labels (out of the loop: no test
         * of the first time in it) */
        const int keep = p->cid[ctz(a)];
        const BB s0 = p->st[side][keep];
        a = bandn(a, s0);
        lb = bor(lb, p->lb[side][keep]);
        cl = bor(cl, s0);
        while (nz(a)) {
            int k = p->cid[ctz(a)];
            const BB s = p->st[side][k];
            a = bandn(a, s);
            lb = bor(lb, p->lb[side][k]);
            po_free(p, side, k);
            po_label(p, s, keep);
            cl = bor(cl, s);
        }
        p->st[side][keep] = cl;
        po_lb(p, side, keep, bandn(lb, tb));
        p->cid[t] = (uint8_t)keep;
    }
    for (BB b = band(nb, opp); nz(b);) { /* enemy clusters lose t */
        int k = p->cid[ctz(b)];
        b = bandn(b, p->st[side ^ 1][k]);
        po_lb(p, side ^ 1, k, bandn(p->lb[side ^ 1][k], tb));
    }
    st(p->s.occ[side], bor(own, tb));
}

/* The piece of `side` on f leaves the board for `to`, the next cell (a step
 * or a push), which the caller fills with po_put right after (the other
 * side's take and put for a push may come between: they change only
 * liberties of this side's clusters).  The cluster may then be kept whole
 * in its slot even where the piece's going splits it, when the piece on
 * `to` joins it again (the slot's stones are one cluster again after
 * po_put, its liberties the union's all along). */
static inline __attribute__((always_inline)) void po_take(const struct pal_geom *g, struct po *p, int side, int f, int to)
{
    const BB fb = bit(f), nb = NBR(g, f);
    const BB own = bandn(ld(p->s.occ[side]), fb);
    st(p->s.occ[side], own);
    (void)to; /* (the portable build tests only the run without it) */
    const int k = p->cid[f];
    BB rest = bandn(p->st[side][k], fb);
    const BB empty = empty_of(g, &p->s);
    if (!nz(rest)) {
        po_free(p, side, k);
    } else if (!nz(poplow(rest))) { /* one piece left: no split */
        p->st[side][k] = rest;
        po_lb(p, side, k, band(NBR(g, ctz(rest)), empty));
#if W == 1 && defined(PAL_HW)
    } else if ((g->run[f] >> _pext_u64(own, nb)) & 1 || (g->run[f] >> _pext_u64(own | bit(to), nb)) & 1) {
        /* f's neighbours in the cluster, or those and `to`, are one run
         * around it, which holds the rest together (with the piece on
         * `to`): no split.  f is a new liberty, and the liberties next to f
         * and to nothing else of the cluster go (po_put gives back those
         * next to `to`). */
        BB lb = bor(p->lb[side][k], fb);
        for (BB e = band(lb, nb); nz(e); e = poplow(e)) {
            const int c = ctz(e);
            lb = bandn(lb, bsel(!nz(band(NBR(g, c), rest)), bit(c)));
        }
        p->st[side][k] = rest;
        po_lb(p, side, k, lb);
#endif
    } else {
        /* the parts of what is left (two or more pieces): the first keeps
         * the slot (and its labels), the others take new ones */
        BB lb, cl = cluster_upto(g, rest, empty, bit(ctz(rest)), 0, &lb, NULL);
        p->st[side][k] = cl;
        po_lb(p, side, k, lb);
        for (rest = bandn(rest, cl); nz(rest); rest = bandn(rest, cl)) {
            cl = cluster_upto(g, rest, empty, bit(ctz(rest)), 0, &lb, NULL);
            po_new(p, side, cl, lb);
        }
    }
    for (BB b = band(nb, ld(p->s.occ[side ^ 1])); nz(b);) { /* a liberty */
        int j = p->cid[ctz(b)];
        b = bandn(b, p->st[side ^ 1][j]);
        po_lb(p, side ^ 1, j, bor(p->lb[side ^ 1][j], fb));
    }
}

/* The pushed piece of `side` from t to t2.  Built into po_apply_kind: out
 * of line it was a call for one random step in six (232k pushes of 1.47M
 * random_man steps in go nodes 20000 from the start). */
static inline __attribute__((always_inline)) void po_shove(const struct pal_geom *g, struct po *p,
                                                           int side, int t, int t2)
{
    po_take(g, p, side, t, t2);
    po_put(g, p, side, t2);
}

/* Remove the clusters of `side` without a liberty (those a maneuver of
 * the other side left so: all of them, since a side never keeps one);
 * returns the pieces. */
static __attribute__((noinline)) int po_capture_some(const struct pal_geom *g, struct po *p,
                                                     int side)
{
    BB gone = zero();
    for (uint32_t m = PO_CLS(p, side, 0); m; m &= m - 1) {
        int k = __builtin_ctz(m);
        gone = bor(gone, p->st[side][k]);
        po_free(p, side, k);
    }
    if (!nz(gone))
        return 0;
    st(p->s.occ[side], bandn(ld(p->s.occ[side]), gone));
    BB near = zero();
    for (BB b = gone; nz(b); b = poplow(b))
        near = bor(near, NBR(g, ctz(b)));
    const int o = side ^ 1;
    for (BB b = band(near, ld(p->s.occ[o])); nz(b); b = poplow(b)) {
        int c = ctz(b), k = p->cid[c];
        po_lb(p, o, k, bor(p->lb[o][k], band(NBR(g, c), gone)));
    }
    return popc(gone);
}

/* (most maneuvers capture nothing: that test inline) */
static inline int po_capture(const struct pal_geom *g, struct po *p, int side)
{
    return PO_CLS(p, side, 0) ? po_capture_some(g, p, side) : 0;
}

/* pal_apply on the playout board; dir: the direction of a step.  Built twice (po_apply_summon, po_apply_step:
 * kind is a constant) so a caller that knows the kind skips its test. */
static inline __attribute__((always_inline)) int po_apply_kind(const struct pal_geom *g,
                                                               struct po *p, pal_man m, int dir,
                                                               const unsigned kind)
{
    struct pal_state *s = &p->s;
    const int me = s->stm;
    const int t = (int)PAL_TO(m);
    BB check = bor(ld(s->check), bit(t));
    int t2 = -1;
    p->key = (unsigned)t;
    assert(PAL_KIND(m) == kind);
    if (kind == PAL_SUMMON) {
        assert(s->reserve[me] > 0);
        s->reserve[me]--;
        s->active = 1;
    } else {
        const int f = (int)PAL_FROM(m), k = dir;
        assert(k >= 0 && g->step[f][k] == t);
        t2 = g->step[t][k];
        p->key = PAL_MAX_CELLS + 6 * (unsigned)f + (unsigned)k; /* pal_man_key */
        po_take(g, p, me, f, t);
        if (has(ld(s->occ[me ^ 1]), t)) { /* push */
            assert(t2 >= 0);
            po_shove(g, p, me ^ 1, t, t2);
            check = bor(check, NBR(g, t2));
        }
        /* the first maneuver's cells (both bytes by one select) */
        const uint8_t now[2] = {(uint8_t)f, (uint8_t)t};
        uint16_t ft, nft;
        memcpy(&ft, &s->last_from, 2);
        memcpy(&nft, now, 2);
        ft = s->nman == 0 ? nft : ft;
        memcpy(&s->last_from, &ft, 2);
    }
    po_put(g, p, me, t);
    st(s->check, check);
    s->nman++;
    int got = po_capture(g, p, me ^ 1);
    if (got) {
        s->captures[me] = (uint8_t)(s->captures[me] + got);
        s->active = 1;
    }
    /* an enemy piece beyond t: pushed there, likely */
    const int u = t2 + ((t - t2) & (t2 >> 31)); /* t2, or t where there is none */
    p->near = bor(bor(NBR(g, t), bit(t)),
                  bsel((t2 >= 0) & has(ld(s->occ[me ^ 1]), u), bor(NBR(g, u), bit(u))));
    return got;
}

static __attribute__((noinline)) int po_apply_summon(const struct pal_geom *g, struct po *p,
                                                     pal_man m)
{
    return po_apply_kind(g, p, m, -1, PAL_SUMMON);
}

static __attribute__((noinline)) int po_apply_step(const struct pal_geom *g, struct po *p,
                                                   pal_man m, int dir)
{
    return po_apply_kind(g, p, m, dir, PAL_STEP);
}

/* dir: a step's direction, -1 to look it up. */
static inline int po_apply(const struct pal_geom *g, struct po *p, pal_man m, int dir)
{
    if (PAL_KIND(m) == PAL_SUMMON)
        return po_apply_summon(g, p, m);
    return po_apply_step(g, p, m, dir >= 0 ? dir : adj_dir(g, (int)PAL_FROM(m), (int)PAL_TO(m)));
}

/* pal_can_end on the playout board: has every cluster of the mover a
 * liberty?  (The same: at a turn's start every cluster has one, so one
 * without is one this turn touched.) */
static inline bool po_can_end(const struct po *p) { return PO_CLS(p, p->s.stm, 0) == 0; }

/* Liberty points of the clusters of `side` touching `hot` with exactly one
 * (*a1) and two (*a2) liberties. */
static inline void po_short(const struct po *p, int side, BB hot, BB *a1, BB *a2)
{
    BB x1 = zero(), x2 = zero();
    const uint32_t one = PO_CLS(p, side, 1);
    for (uint32_t m = one | PO_CLS(p, side, 2); m; m &= m - 1) { /* one loop for both */
        const int k = __builtin_ctz(m);
        const BB lb = bsel(nz(band(p->st[side][k], hot)), p->lb[side][k]);
        const bool is1 = (one >> k) & 1;
        x1 = bor(x1, bsel(is1, lb));
        x2 = bor(x2, bsel(!is1, lb));
    }
    *a1 = x1;
    *a2 = x2;
}

/* Could the turn end after a summon on the empty cell t?  (Every cluster of
 * the mover has a liberty now.)  Only the new cluster can lack one: it has
 * one if t has an empty neighbour, a cluster it joins has a liberty besides
 * t, or it captures (the captured pieces are next to it). */
static bool po_summon_ok(const struct pal_geom *g, const struct po *p, int t)
{
    const int me = p->s.stm;
    const BB nb = NBR(g, t), tb = bit(t);
    if (nz(band(nb, empty_of(g, &p->s))))
        return true;
    for (BB c = band(nb, ld(p->s.occ[me])); nz(c); c = poplow(c))
        if (nz(bandn(p->lb[me][p->cid[ctz(c)]], tb)))
            return true;
    for (BB c = band(nb, ld(p->s.occ[me ^ 1])); nz(c); c = poplow(c))
        if (!nz(bandn(p->lb[me ^ 1][p->cid[ctz(c)]], tb)))
            return true;
    return false;
}

/* Can the turn surely end after the push f-t (the enemy piece on t to the
 * empty t2)?  Every cluster of the mover has a liberty now.  After the
 * push the cluster on t has f; so have the rest of f's cluster (it touched
 * f) and the clusters next to t (they join the one on t).  Another cluster
 * loses at most t2: only one whose single liberty is t2 may be left without
 * (unless the push captures next to it: false here, the caller plays it). */
static inline bool po_push_safe(const struct pal_geom *g, const struct po *p, int f, int t,
                                int t2)
{
    const int me = p->s.stm, kf = p->cid[f];
    const BB nt = NBR(g, t), t2b = bit(t2);
    for (uint32_t m = PO_CLS(p, me, 1); m; m &= m - 1) {
        const int k = __builtin_ctz(m);
        if (nz(band(p->lb[me][k], t2b)) && k != kf && !nz(band(p->st[me][k], nt)))
            return false;
    }
    return true;
}

/* What occupying the empty cell L by m (a summon, or a move from a
 * neighbour f) would do, every cluster of the mover having a liberty: the
 * pieces it captures, and the liberties of the mover's cluster on L
 * (counted up to `upto`); *ok: could the turn end.  Built into occupy
 * (its one call there; the answers stay in registers). */
static inline __attribute__((always_inline)) int
po_occupy_eval(const struct pal_geom *g, const struct po *p, pal_man m, int L, int upto, int *libs,
               bool *ok)
{
    const int me = p->s.stm, o = me ^ 1;
    const bool move = PAL_KIND(m) == PAL_STEP;
    const int f = move ? (int)PAL_FROM(m) : -1;
    const BB Lb = bit(L), nbL = NBR(g, L);
    const BB fb = move ? bit(f) : zero();
    /* captures: enemy clusters next to L left without a liberty (a move
     * frees f, a liberty of those next to f) */
    BB gone = zero();
    const BB nbf = move ? NBR(g, f) : zero();
    for (BB c = band(nbL, ld(p->s.occ[o])); nz(c);) {
        int k = p->cid[ctz(c)];
        const BB cl = p->st[o][k];
        c = bandn(c, cl);
        BB lb = bandn(p->lb[o][k], Lb);
        if (nz(band(cl, nbf)))
            lb = bor(lb, fb);
        if (!nz(lb))
            gone = bor(gone, cl);
    }
    const int got = popc(gone);
    *ok = true;
    if (!move && got == 0 && !po_summon_ok(g, p, L))
        *ok = false;
    if (upto > 0) { /* the cluster on L after: a fill */
        const BB own = bor(bandn(ld(p->s.occ[me]), fb), Lb);
        const BB empty = bor(bandn(bor(empty_of(g, &p->s), fb), Lb), gone);
        BB lb;
        int n;
        cluster_upto(g, own, empty, Lb, upto, &lb, &n);
        *libs = n;
    }
    return got;
}

/* Play m (step direction dir, or -1) on a copy of p and keep it if the
 * turn can end then (rare: out of line, the copy off the common path). */
static __attribute__((noinline)) bool po_try(const struct pal_geom *g, struct po *p, pal_man m,
                                             int dir)
{
    struct po c = *p;
    po_apply(g, &c, m, dir);
    if (!po_can_end(&c))
        return false;
    *p = c;
    return true;
}

/* A uniformly drawn maneuver (summon on an empty cell or a piece and a
 * direction), found by rejection; applied if the turn can still end.
 * 0 if none found in a few tries.  Every cluster of the mover has a
 * liberty.  Built into policy_man (so into the playout's loop): once
 * policy_man was, the compiler made this a call of its own, a call and a
 * frame for most maneuvers. */
static inline __attribute__((always_inline)) pal_man random_man(const struct pal_geom *g, struct po *p,
                                                               struct rng *r)
{
    struct pal_state *s = &p->s;
    const int me = s->stm;
    const BB own = ld(s->occ[me]), opp = ld(s->occ[me ^ 1]);
    const BB empty = bandn(ld(g->all), bor(own, opp));
    const int ne = s->reserve[me] ? popc(empty) : 0, np = popc(own);
    if (ne + np == 0)
        return 0;
    const uint64_t nx = (uint64_t)(ne + 6 * np);
    /* rule 7: the draw that would step the first maneuver's piece back
     * (none after a summon: last_from = last_to then) */
    int xbad = -1;
    if (s->nman == 1 && s->last_from != s->last_to) {
        assert(has(own, s->last_to));
        xbad = ne + 6 * popc(bandn(own, at_or_above(s->last_to))) +
               adj_dir(g, s->last_to, s->last_from);
    }
    int x, k = 0, f = 0, tc = 0, tries;
    for (tries = 0; tries < 24; tries++) {
        x = (int)rng_range_inline(r, nx); /* a multiplication: the loop waits on it */
        if (x < ne) {
            int t = nth_bit(empty, x);
            if (!po_summon_ok(g, p, t))
                continue;
            /* the summon, played here (as the step below) */
            const pal_man m = PAL_MAN(PAL_SUMMON, 0, t);
            po_apply_kind(g, p, m, -1, PAL_SUMMON);
            return m;
        }
        f = nth_bit(own, (x - ne) / 6);
        k = (x - ne) % 6;
        const int t = g->step[f][k];
        /* t, or off the board a cell number no board has */
        tc = t & (64 * W - 1);
        /* a move (not undoing the first maneuver) keeps a liberty, the
         * cell it leaves: one test for the common case */
        if (has(empty, tc) & (x != xbad))
            break;
        if (!has(opp, tc))
            continue;
        int t2 = g->step[t][k];
        if (t2 < 0 || !has(empty, t2))
            continue;
        if (po_push_safe(g, p, f, t, t2))
            break;
        if (po_try(g, p, PAL_MAN(PAL_STEP, f, t), k)) /* tried on a copy */
            return PAL_MAN(PAL_STEP, f, t);
    }
    if (tries == 24)
        return 0;
    /* the step, played here (the one call site of the common path) */
    const pal_man m = PAL_MAN(PAL_STEP, f, tc);
    po_apply_kind(g, p, m, k, PAL_STEP);
    return m;
}

/* occupy's candidate m (direction dir) when mending: played on a copy,
 * kept if it passes `want` and the turn can end. */
static __attribute__((noinline, cold)) bool occupy_mend(const struct pal_geom *g, struct po *p,
                                                        pal_man m, int dir, int L, int want)
{
    struct po t = *p;
    int got = po_apply(g, &t, m, dir);
    if (want == 0 || (want == 1 ? got > 0 : SFX(pal_cluster_libs)(g, &t.s, L, NULL) >= want)) {
        if (!po_can_end(&t))
            return false;
        *p = t;
        return true;
    }
    return false;
}

/* Try maneuvers that put a piece of the mover on the empty cell L (a
 * summon, then steps from neighbours); keep the first that passes `want`
 * (0: any, 1: captures, k >= 2: leaves the piece on L with >= k
 * liberties) and lets the turn end.  0 if none.  `mend`: a cluster of the
 * mover has no liberty (then every candidate is played out on a copy). */
/* occupy's candidate m (direction dir): kept and played if it passes
 * `want` and the turn can end then. */
static inline __attribute__((always_inline)) bool occupy_try(const struct pal_geom *g, struct po *p,
                                                             pal_man m, int dir, int L, int want,
                                                             bool mend)
{
    if (__builtin_expect(mend, 0))
        return occupy_mend(g, p, m, dir, L, want);
    int libs = 0;
    bool ok;
    int got = po_occupy_eval(g, p, m, L, want >= 2 ? want : 0, &libs, &ok);
    if ((want == 0 || (want == 1 ? got > 0 : libs >= want)) && ok) {
        if (PAL_KIND(m) == PAL_SUMMON) /* (the kind known here: occupy's candidates) */
            po_apply_kind(g, p, m, -1, PAL_SUMMON);
        else
            po_apply_kind(g, p, m, dir, PAL_STEP);
        return true;
    }
    return false;
}

static inline __attribute__((always_inline)) pal_man occupy(const struct pal_geom *g, struct po *p,
                                                            int L, int want, bool mend)
{
    const struct pal_state *s = &p->s;
    const BB own = ld(s->occ[s->stm]);
    assert(pal_at(s, L) < 0);
    /* the steps onto L as bits, bit k the one from L's neighbour in
     * direction k (a piece of the mover; rule 7: not back to the cell just
     * left), found without a branch per direction; each made into a
     * maneuver only when its turn comes (the first candidate is mostly
     * taken) */
    const int back = s->nman == 1 && L == s->last_from ? s->last_to : -1;
    unsigned todo = 0;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 6
#endif
    for (int k = 0; k < PAL_NDIR; k++) {
        const int f = g->step[L][k];
        todo |= (unsigned)((f >= 0) & has(own, f & (64 * W - 1)) & (f != back)) << k;
    }
    /* the summon first, then the steps in direction order */
    if (s->reserve[s->stm]) {
        const pal_man m = PAL_MAN(PAL_SUMMON, 0, L);
        if (occupy_try(g, p, m, 0, L, want, mend))
            return m;
    }
    for (; todo; todo &= todo - 1) {
        const int k = __builtin_ctz(todo);
        const pal_man m = PAL_MAN(PAL_STEP, g->step[L][k], L);
        if (occupy_try(g, p, m, k ^ 1, L, want, mend)) /* (the direction onto L) */
            return m;
    }
    return 0;
}

/* occupy built once for each `want` the policy asks (a constant there:
 * its tests and the liberty count's bound fold away) */
static __attribute__((noinline)) pal_man occupy_capture(const struct pal_geom *g, struct po *p,
                                                        int L, bool mend)
{
    return occupy(g, p, L, 1, mend);
}
static __attribute__((noinline)) pal_man occupy_any(const struct pal_geom *g, struct po *p, int L,
                                                    bool mend)
{
    return occupy(g, p, L, 0, mend);
}
static __attribute__((noinline)) pal_man occupy_libs(const struct pal_geom *g, struct po *p, int L,
                                                     int want)
{
    return want == 3 ? occupy(g, p, L, 3, false) : occupy(g, p, L, 2, false);
}

/* The policy's last resort (rare: out of its own line, so the common path
 * keeps a small frame): maneuvers from the full list, tried on a copy --
 * all of them in order when mending, else four drawn at random. */
static __attribute__((noinline, cold)) pal_man listed_man(const struct pal_geom *g, struct po *p,
                                                          struct rng *r, bool mend)
{
    pal_man list[PAL_MAX_MAN];
    int n = SFX(pal_gen_man)(g, &p->s, list);
    for (int tries = 0; n > 0 && tries < (mend ? n : 4); tries++) {
        int i = mend ? tries : (int)rng_range_inline(r, (uint64_t)n);
        struct po t = *p;
        po_apply(g, &t, list[i], -1);
        if (po_can_end(&t)) {
            *p = t;
            return list[i];
        }
    }
    return 0;
}

/* The policy looks for short liberties only in the clusters touching
 * `hot` (the cells the last turns changed, and their neighbours).  Built
 * into the playout's loop (a call a maneuver, with its frame, was 1.3% of
 * a search's instructions); policy_man_call for the other callers. */
static inline __attribute__((always_inline)) pal_man
policy_man(const struct pal_geom *g, struct po *p, struct rng *r, const struct pal_policy *pol,
           BB hot)
{
    struct pal_state *s = &p->s;
    const int left = (s->first ? 1 : 2) - s->nman; /* maneuvers left */
    if (left <= 0)
        return 0;
    const bool mend = !po_can_end(p); /* after a suicidal first */
    if (left == 1 && !s->first && !mend && (int)(rng_next_inline(r) & 1023) < pol->end_early)
        return 0;
    const int me = s->stm;
    BB o1, o2, m1, m2;
    po_short(p, me ^ 1, hot, &o1, &o2);
    pal_man m;
    /* capture now, or start a two-maneuver capture */
    if (nz(o1) && (mend || (int)(rng_next_inline(r) & 1023) < pol->capture))
        if ((m = occupy_capture(g, p, pick_bit(o1, r), mend)))
            return m;
    if (left == 2 && nz(o2) && (int)(rng_next_inline(r) & 1023) < pol->capture)
        if ((m = occupy_any(g, p, pick_bit(o2, r), mend)))
            return m;
    if (!mend) {
        /* the opponent gets two maneuvers: two liberties are not safe */
        po_short(p, me, hot, &m1, &m2);
        if (nz(m1) && (int)(rng_next_inline(r) & 1023) < pol->save)
            if ((m = occupy_libs(g, p, pick_bit(m1, r), 3)) ||
                (m = occupy_libs(g, p, pick_bit(m1, r), 2)))
                return m;
        if (nz(m2) && (int)(rng_next_inline(r) & 1023) < pol->save)
            if ((m = occupy_libs(g, p, pick_bit(m2, r), 3)))
                return m;
        if (nz(o2) && (int)(rng_next_inline(r) & 1023) < pol->attack)
            if ((m = occupy_libs(g, p, pick_bit(o2, r), 2)))
                return m;
    }
    if (!mend && (m = random_man(g, p, r)))
        return m;
    return listed_man(g, p, r, mend);
}

static __attribute__((noinline)) pal_man policy_man_call(const struct pal_geom *g, struct po *p,
                                                         struct rng *r,
                                                         const struct pal_policy *pol, BB hot)
{
    return policy_man(g, p, r, pol, hot);
}

pal_man SFX(pal_policy_man)(const struct pal_geom *g, struct pal_state *s,
                            struct rng *r, const struct pal_policy *pol)
{
    struct po p;
    p.s = *s;
    po_init(g, &p);
    pal_man m = policy_man_call(g, &p, r, pol, ld(g->all));
    *s = p.s;
    return m;
}

int SFX(pal_playout)(const struct pal_geom *g, struct pal_state *s, struct rng *r,
                     const struct pal_policy *pol, struct pal_trace *tr)
{
    struct po p;
    p.s = *s;
    po_init(g, &p);
    /* at first, everything is news */
    BB hot_prev = ld(g->all), hot_cur = zero();
    /* the position before the first turn: only a turn begun before the
     * playout (a suicidal first maneuver) can fail to end; every later
     * one begins with liberties for all and the policy keeps them */
    const struct pal_state save = p.s;
    /* the trace's length in a local, written back at the end (through tr,
     * every maneuver loaded and stored it: other stores might have changed
     * it, for all the compiler knew) */
    int ntr = tr ? tr->n : PAL_TRACE_MAX;
    for (int ply = 0; ply < pol->maxply && !pal_over_inline(&p.s); ply++) {
        pal_man m;
        /* (a turn with its maneuvers made ends without asking the policy) */
        while (p.s.nman < (p.s.first ? 1 : 2) &&
               (m = policy_man(g, &p, r, pol, bor(hot_prev, hot_cur)))) {
            hot_cur = bor(hot_cur, p.near);
            if (ntr < PAL_TRACE_MAX) {
                tr->side[ntr] = p.s.stm;
                tr->key[ntr++] = (uint16_t)p.key;
            }
        }
        hot_prev = hot_cur;
        hot_cur = zero();
        if (!po_can_end(&p)) { /* cannot happen from a legal tree node */
            assert(ply == 0);
            p.s = save;
            po_init(g, &p);
        }
        pal_end_turn_inline(&p.s);
    }
    if (tr)
        tr->n = ntr;
    *s = p.s;
    return s->captures[0] - s->captures[1];
}

/* Test support: play `turns` policy turns from s on a playout board and
 * after every maneuver compare its clusters, turn-end legality and short
 * liberties (for random hot sets) with a full recount, the shortcuts for
 * summons and occupying moves with playing them.  Returns the number of
 * maneuvers checked, -1 at the first disagreement. */
long SFX(pal_po_check)(const struct pal_geom *g, struct pal_state *s, struct rng *r,
                       int turns)
{
    struct po p;
    p.s = *s;
    po_init(g, &p);
    long checked = 0;
    for (int ply = 0; ply < turns && !pal_over(&p.s); ply++) {
        struct pal_state save = p.s;
        for (;;) {
            /* the lists against a recount */
            const BB empty = empty_of(g, &p.s);
            for (int side = 0; side < 2; side++) {
                BB all = zero();
                for (int i = 0; i < PO_NCL; i++) {
                    if (!(p.used[side] >> i & 1))
                        continue;
                    for (BB c = p.st[side][i]; nz(c); c = poplow(c))
                        if (p.cid[ctz(c)] != i)
                            return -1;
                    int nl = popc(p.lb[side][i]);
                    if ((nl == 1) != (PO_CLS(&p, side, 1) >> i & 1) ||
                        (nl == 2) != (PO_CLS(&p, side, 2) >> i & 1) ||
                        (nl == 0) != (PO_CLS(&p, side, 0) >> i & 1))
                        return -1;
                    BB lb;
                    BB cl = cluster_of(g, ld(p.s.occ[side]), empty, ctz(p.st[side][i]), &lb);
                    if (popc(cl) != popc(p.st[side][i]) || popc(band(cl, p.st[side][i])) != popc(cl) ||
                        popc(lb) != popc(p.lb[side][i]) || popc(band(lb, p.lb[side][i])) != popc(lb))
                        return -1;
                    all = bor(all, cl);
                }
                if (popc(all) != popc(ld(p.s.occ[side])))
                    return -1;
                BB hot = zero();
                for (int c = 0; c < g->ncells; c++)
                    if (rng_below(r, 4) == 0)
                        hot = bor(hot, bit(c));
                BB a1, a2, b1, b2;
                po_short(&p, side, hot, &a1, &a2);
                short_libs(g, ld(p.s.occ[side]), empty, hot, &b1, &b2);
                if (popc(a1) != popc(b1) || popc(band(a1, b1)) != popc(a1) ||
                    popc(a2) != popc(b2) || popc(band(a2, b2)) != popc(a2))
                    return -1;
            }
            if (po_can_end(&p) != SFX(pal_can_end)(g, &p.s))
                return -1;
            /* the untried candidates against playing them out */
            if (!pal_over(&p.s) && p.s.nman < (p.s.first ? 1 : 2) && po_can_end(&p)) {
                pal_man list[PAL_MAX_MAN];
                int n = SFX(pal_gen_man)(g, &p.s, list);
                for (int i = 0; i < n; i++) {
                    struct pal_state t = p.s;
                    int got = SFX(pal_apply)(g, &t, list[i]);
                    bool end = SFX(pal_can_end)(g, &t);
                    int L = (int)PAL_TO(list[i]);
                    if (PAL_KIND(list[i]) == PAL_SUMMON && po_summon_ok(g, &p, L) != end)
                        return -1;
                    if (pal_at(&p.s, L) >= 0)
                        continue; /* a push */
                    int libs = 0;
                    bool ok;
                    int got2 = po_occupy_eval(g, &p, list[i], L, 64, &libs, &ok);
                    if (got2 != got || ok != end || libs != SFX(pal_cluster_libs)(g, &t, L, NULL))
                        return -1;
                }
            }
            checked++;
            if (!policy_man_call(g, &p, r, &pal_default_policy, ld(g->all)))
                break;
        }
        if (!po_can_end(&p)) {
            p.s = save;
            po_init(g, &p);
        }
        pal_end_turn(&p.s);
    }
    *s = p.s;
    return checked;
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
