/* mcts.c - Monte Carlo tree search for Palagan (see mcts.h). */
#include "mcts.h"

#include <assert.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "../../search/timeman.h"

#define MC_MAXPATH 512
#define MC_INFO_US 1000000 /* an info line every second */

/* Relaxed atomics for the statistics; acquire/release where a field
 * publishes others (node->expanded: the edges; edge->child: the node). */
#define LD(x) atomic_load_explicit(&(x), memory_order_relaxed)
#define ST(x, v) atomic_store_explicit(&(x), (v), memory_order_relaxed)
#define LDA(x) atomic_load_explicit(&(x), memory_order_acquire)

/* Add to a shared counter: a read-modify-write with several threads, a
 * plain load and store (the single-threaded search's instructions) with
 * one. */
static inline void add_u32(_Atomic uint32_t *p, uint32_t v, bool mt)
{
    if (mt)
        atomic_fetch_add_explicit(p, v, memory_order_relaxed);
    else
        atomic_store_explicit(p, atomic_load_explicit(p, memory_order_relaxed) + v,
                              memory_order_relaxed);
}

static inline void add_u64_sims(struct mcts *t, bool mt)
{
    if (mt)
        atomic_fetch_add_explicit(&t->sims, 1, memory_order_relaxed);
    else
        ST(t->sims, LD(t->sims) + 1);
}

static inline void add_f(_Atomic float *p, float v, bool mt)
{
    float old = atomic_load_explicit(p, memory_order_relaxed);
    if (!mt) {
        atomic_store_explicit(p, old + v, memory_order_relaxed);
        return;
    }
    while (!atomic_compare_exchange_weak_explicit(p, &old, old + v, memory_order_relaxed,
                                                  memory_order_relaxed))
        ;
}

static const struct mc_params default_params = {
    .uct_c = MC_UCT_C,
    .rave_bias = MC_RAVE_BIAS,
    .expand_at = MC_EXPAND_AT,
    .prior_n = MC_PRIOR_N,
    .margin = MC_MARGIN,
    .margin_scale = MC_MARGIN_SCALE,
    .fpu = MC_FPU,
    .prior_capture = MC_PRIOR_CAPTURE,
    .prior_own_weak = MC_PRIOR_OWN_WEAK,
    .prior_their_weak = MC_PRIOR_THEIR_WEAK,
    .prior_take_next = MC_PRIOR_TAKE_NEXT,
    .prior_own_atari = MC_PRIOR_OWN_ATARI,
    .prior_liberty = MC_PRIOR_LIBERTY,
    .prior_min = MC_PRIOR_MIN,
    .prior_max = MC_PRIOR_MAX,
    .grave_ref = 0,
    .reuse = false,
};

/* 1 / sqrt(k) for the exploration term of the edges with fewer visits
 * (most of them): sqrt(log N / (n + 1)) = sqrt(log N) / sqrt(n + 1), one
 * square root a node, not one an edge. */
#define MC_ISQ 4096
static double isq_tab[MC_ISQ];
static pthread_once_t isq_once = PTHREAD_ONCE_INIT;
static void isq_init(void)
{
    for (int k = 1; k < MC_ISQ; k++)
        isq_tab[k] = 1.0 / sqrt((double)k);
}
static inline double inv_sqrt_visits(uint32_t k)
{
    return k < MC_ISQ ? isq_tab[k] : 1.0 / sqrt((double)k);
}

/* Worker i's stream: worker 0's is the single-threaded search's. */
static void seed_worker(struct mc_worker *w, uint64_t seed, int i)
{
    rng_seed(&w->rng, (seed ^ 0x9a1a9a40ULL) + (uint64_t)i * 0x9e3779b97f4a7c15ULL);
}

void mc_seed(struct mcts *t, uint64_t seed)
{
    t->seed = seed;
    for (int i = 0; i < t->nthreads; i++)
        seed_worker(&t->w[i], seed, i);
}

int mc_set_threads(struct mcts *t, int n)
{
    assert(n >= 1 && n <= MC_MAX_THREADS);
    if (n == t->nthreads)
        return 0;
    struct mc_worker *w = realloc(t->w, (size_t)n * sizeof *w);
    if (!w)
        return -1;
    for (int i = t->nthreads; i < n; i++) {
        memset(&w[i], 0, sizeof w[i]);
        seed_worker(&w[i], t->seed, i);
    }
    t->w = w;
    t->nthreads = n;
    return 0;
}

/* A pool of the tree: 2 MiB aligned and, from 2 MiB up, asked for
 * transparent huge pages (Linux gives them only on request where
 * /sys/kernel/mm/transparent_hugepage/enabled is `madvise`).  A descent
 * reads nodes and edges all over the pool, and a fresh search faults its
 * pages in as the tree grows: measured (perf, 3 s search at N = 5) 3.5% of
 * the time in page faults with 4 KiB pages.  A refused hint leaves small
 * pages; the pool is freed with free(). */
#define MC_HUGE ((size_t)2 << 20)
static void *pool_alloc(size_t bytes)
{
    void *p = NULL;
    if (bytes < MC_HUGE)
        return malloc(bytes);
    if (posix_memalign(&p, MC_HUGE, bytes))
        return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return p;
}

int mc_resize(struct mcts *t, size_t mb)
{
    size_t bytes = (mb ? mb : 1) << 20;
    uint32_t ncap = (uint32_t)(bytes / 8 / sizeof(struct mc_node));
    uint32_t ecap = (uint32_t)(bytes / 8 * 7 / sizeof(struct mc_edge));
    struct mc_node *nodes = pool_alloc((size_t)ncap * sizeof *nodes);
    struct mc_edge *edges = pool_alloc((size_t)ecap * sizeof *edges);
    if (!nodes || !edges) {
        free(nodes);
        free(edges);
        return -1;
    }
    /* node 0 is none (an edge's child 0: not made yet); its proven stays
     * 0, so select_edge reads it without a test */
    memset(&nodes[0], 0, sizeof nodes[0]);
    free(t->nodes);
    free(t->edges);
    t->nodes = nodes;
    t->edges = edges;
    t->nodes_cap = ncap;
    t->edges_cap = ecap;
    ST(t->nnodes, 1);
    ST(t->nedges, 0);
    t->root = 1;
    t->have_tree = false;
    return 0;
}

void mc_clear(struct mcts *t) { t->have_tree = false; }

/* What SearchParams sets: the search's numbers and the playout policy's. */
struct mc_tunables {
    struct mc_params par;
    struct pal_policy pol;
};

#define R(f, lo, hi) {#f, offsetof(struct mc_tunables, par.f), 1, lo, hi}
#define I(f, lo, hi) {#f, offsetof(struct mc_tunables, par.f), 0, lo, hi}
#define P(f, lo, hi) {"policy_" #f, offsetof(struct mc_tunables, pol.f), 0, lo, hi}
static const struct named_param tunable_names[] = {
    R(uct_c, 0, 10),           R(rave_bias, 0, 1),          I(expand_at, 0, 1000),
    I(prior_n, 0, 1000),       R(margin, 0, 1),             R(margin_scale, 0.01, 1000),
    R(fpu, 0, 1),              R(prior_capture, 0, 1),      R(prior_own_weak, 0, 1),
    R(prior_their_weak, 0, 1), R(prior_take_next, 0, 1),    R(prior_own_atari, 0, 1),
    R(prior_liberty, 0, 1),    R(prior_min, 0, 1),          R(prior_max, 0, 1),
    /* the policy's chances are in 1024ths (1024: always) */
    P(capture, 0, 1024),       P(save, 0, 1024),            P(attack, 0, 1024),
    P(end_early, 0, 1024),     P(maxply, 1, 10000),
};
#undef R
#undef I
#undef P

int mc_set_tunables(struct mcts *t, const char *spec, char *err, size_t n)
{
    struct mc_tunables x = {default_params, pal_default_policy};
    if (named_params_parse(&x, sizeof x, tunable_names, ARRAY_LEN(tunable_names),
                           "search parameter", spec, err, n))
        return -1;
    if (x.par.prior_min > x.par.prior_max)
        return set_err(err, n, -1, "search parameter prior_min (%g) is above prior_max (%g)",
                       x.par.prior_min, x.par.prior_max);
    /* (the prior's visits are kept in 16 bits, pn) */
    _Static_assert(1000 <= UINT16_MAX, "prior_n's range fits mc_edge.pn");
    x.par.grave_ref = t->par.grave_ref; /* their own options */
    x.par.reuse = t->par.reuse;
    t->par = x.par;
    t->pol = x.pol;
    mc_clear(t); /* the tree's statistics came from the old numbers */
    return 0;
}

void mc_init(struct mcts *t, size_t mb, uint64_t seed)
{
    pthread_once(&isq_once, isq_init);
    memset(t, 0, sizeof *t);
    t->par = default_params;
    t->pol = pal_default_policy;
    t->seed = seed;
    if (mc_set_threads(t, 1) != 0)
        die("out of memory for the search"); /* exit-ok: out of memory */
    if (mc_resize(t, mb) != 0 && mc_resize(t, 1) != 0)
        die("out of memory for the search tree"); /* exit-ok: out of memory */
}

void mc_free(struct mcts *t)
{
    free(t->nodes);
    free(t->edges);
    free(t->w);
    t->nodes = NULL;
    t->edges = NULL;
    t->w = NULL;
    t->nthreads = 0;
}

/* A node from the pool (its memory is this thread's until it is
 * published through an edge's child, with release), 0 when the pool is
 * full.  Acquire: a node given back by another thread (simulate) was
 * written by it first. */
static uint32_t new_node(struct mcts *t, int side)
{
    uint32_t i = LD(t->nnodes);
    do {
        if (i >= t->nodes_cap)
            return 0;
    } while (!atomic_compare_exchange_weak_explicit(&t->nnodes, &i, i + 1, memory_order_acquire,
                                                    memory_order_relaxed));
    memset(&t->nodes[i], 0, sizeof t->nodes[i]);
    t->nodes[i].side = (uint8_t)side;
    return i;
}

static int outcome_of(const struct pal_state *s) { return s->captures[0] - s->captures[1]; }

/* Black's result in [0,1] for a capture difference: mostly win/draw/loss,
 * a little for the margin (so a lost game is still fought). */
static float black_val_of(const struct mcts *t, int diff)
{
    double m = t->par.margin;
    double base = diff > 0 ? 1.0 : diff < 0 ? 0.0 : 0.5;
    return (float)((1 - m) * base + m * (0.5 + 0.5 * tanh(diff / t->par.margin_scale)));
}

/* black_val_of for the differences a game can have, from the table filled
 * at each search's start (a tanh every simulation was 0.3% of a search's
 * time); the same numbers. */
static void black_vals(struct mcts *t)
{
    for (int d = -MC_BVAL; d <= MC_BVAL; d++)
        t->bval[d + MC_BVAL] = black_val_of(t, d);
}
static inline float black_val(const struct mcts *t, int diff)
{
    return diff >= -MC_BVAL && diff <= MC_BVAL ? t->bval[diff + MC_BVAL] : black_val_of(t, diff);
}

static inline float side_val(float vb, int side) { return side == 0 ? vb : 1.0f - vb; }

/* Proven outcome for a side: +1 win, 0 draw, -1 loss. */
static inline int proven_sign(int8_t proven, int side)
{
    int d = proven - 64;
    int sg = d > 0 ? 1 : d < 0 ? -1 : 0;
    return side == 0 ? sg : -sg;
}

/* Can the turn still end legally after this first maneuver (now or with a
 * second one)? */
static bool mendable(const struct pal_geom *g, const struct pal_state *s1)
{
    if (pal_can_end(g, s1))
        return true;
    if (s1->first)
        return false;
    pal_man list[PAL_MAX_MAN];
    int n = pal_gen_man(g, s1, list);
    for (int i = 0; i < n; i++) {
        struct pal_state s2 = *s1;
        pal_apply(g, &s2, list[i]);
        if (pal_can_end(g, &s2))
            return true;
    }
    return false;
}

static void set_edge(struct mc_edge *e, unsigned key, float prior_n, float prior_w)
{
    memset(e, 0, sizeof *e);
    e->key = (uint16_t)key;
    ST(e->n, (uint32_t)prior_n);
    e->pn = (uint16_t)prior_n;
    ST(e->w, prior_w);
}

/* Heuristic value in [0,1] for the mover of a position reached by a
 * maneuver: captures, and which clusters the next maneuvers can take. */
static float prior_value(const struct mcts *t, const struct pal_geom *g,
                         const struct pal_state *before, const struct pal_state *c,
                         bool turn_ends)
{
    const struct mc_params *p = &t->par;
    const int me = before->stm;
    int sh[2][3];
    pal_shape(g, c, sh);
    int got = c->captures[me] - before->captures[me];
    double v = 0.5 + p->prior_capture * got;
    if (turn_ends) {
        /* the opponent now has two maneuvers: one or two liberties are lost */
        v -= p->prior_own_weak * (sh[me][0] + sh[me][1]);
        v += p->prior_their_weak * (sh[me ^ 1][0] + sh[me ^ 1][1]);
    } else {
        /* one maneuver left: a one-liberty enemy cluster is ours */
        v += p->prior_take_next * sh[me ^ 1][0] - p->prior_own_atari * sh[me][0];
    }
    v += p->prior_liberty * (sh[me][2] - sh[me ^ 1][2]);
    return (float)(v < p->prior_min ? p->prior_min : v > p->prior_max ? p->prior_max : v);
}

/* Generate the edges of a node: true when it has them (from this thread
 * or another); false when the edge pool is full or another thread is
 * generating them now. */
static bool expand(struct mcts *t, uint32_t ni, const struct pal_state *s)
{
    struct mc_node *node = &t->nodes[ni];
    uint8_t ex = 0;
    if (!atomic_compare_exchange_strong_explicit(&node->expanded, &ex, 2, memory_order_acquire,
                                                 memory_order_acquire))
        return ex == 1;
    const struct pal_geom *g = pal_geom(s->n);
    pal_man list[PAL_MAX_MAN];
    int n = pal_gen_man(g, s, list);
    uint32_t base = LD(t->nedges);
    do {
        if (base + (uint32_t)n + 1 > t->edges_cap) {
            atomic_store_explicit(&node->expanded, 0, memory_order_release);
            return false;
        }
    } while (!atomic_compare_exchange_weak_explicit(&t->nedges, &base, base + (uint32_t)n + 1,
                                                    memory_order_acquire, memory_order_relaxed));
    const float pn = (float)t->par.prior_n;
    uint32_t k = 0;
    if (s->nman == 0 || pal_can_end(g, s)) /* pass, or end after one */
        set_edge(&t->edges[base + k++], PAL_KEY_END, pn, pn * prior_value(t, g, s, s, true));
    for (int i = 0; i < n; i++) {
        struct pal_state c = *s;
        pal_apply(g, &c, list[i]);
        bool ok = s->nman == 0 ? mendable(g, &c) : pal_can_end(g, &c);
        if (!ok)
            continue;
        bool ends = s->nman == 1 || s->first;
        const unsigned key = pal_man_key(g, list[i]);
        assert(pal_key_man(g, key) == list[i]);
        set_edge(&t->edges[base + k++], key, pn, pn * prior_value(t, g, s, &c, ends));
    }
    node->edges = base;
    node->nedges = (uint16_t)k;
    /* give back the reserved edges not used, unless the pool moved on */
    uint32_t end = base + (uint32_t)n + 1;
    atomic_compare_exchange_strong_explicit(&t->nedges, &end, base + k, memory_order_release,
                                            memory_order_relaxed);
    atomic_store_explicit(&node->expanded, 1, memory_order_release);
    return true;
}

/* GRAVE: the AMAF statistics to use at a node of side `side` whose own
 * visits are too few: those of the reference node's edges, kept in a table
 * by key.  The table is filled when the reference changes and at most once
 * a simulation (simulate clears t->gref first), so it follows the
 * reference's statistics as they grow. */
static void grave_table(struct mcts *t, struct mc_worker *w, int side, uint32_t ref)
{
    if (w->gref[side] == ref)
        return;
    uint32_t stamp = ++w->gstamp[side];
    if (stamp == 0) {
        memset(w->gseen[side], 0, sizeof w->gseen[side]);
        stamp = w->gstamp[side] = 1;
    }
    w->gref[side] = ref;
    const struct mc_node *r = &t->nodes[ref];
    for (uint32_t i = r->edges; i < r->edges + r->nedges; i++) {
        struct mc_edge *e = &t->edges[i];
        if (e->key == PAL_KEY_END)
            continue;
        w->gseen[side][e->key] = stamp;
        w->gn[side][e->key] = LD(e->an);
        w->gw[side][e->key] = LD(e->aw);
    }
}

/* `grave`: take the AMAF of edges from the GRAVE table of the node's side
 * (when it has the key), else from the edge itself. */
/* The proven value of node ni (0: unknown). */
static inline int8_t proven_of(struct mcts *t, uint32_t ni) { return LD(t->nodes[ni].proven); }

/* select_edge's loop; pchild: read the children's proven values (when
 * none is proven the loads are skipped: a child node is a random access
 * an edge). */
static inline __attribute__((always_inline)) uint32_t
select_in(struct mcts *t, const struct mc_worker *w, struct mc_node *node, bool grave,
          const bool pchild)
{
    const double logn = log((double)LD(node->n) + 1.0);
    const double b = t->par.rave_bias;
    const double c = t->par.uct_c * sqrt(logn); /* times 1 / sqrt(n + 1) an edge */
    const int gs = node->side;
    const uint32_t gst = w->gstamp[gs];
    uint32_t best = 0;
    double bestv = -1e9;
    const double fpu = t->par.fpu;
    /* (the pools' addresses and the node's edges read once, not again
     * after each atomic load) */
    struct mc_node *const nodes = t->nodes;
    struct mc_edge *const e0 = &t->edges[node->edges];
    const uint32_t ne = node->nedges;
    for (uint32_t i = 0; i < ne; i++) {
        struct mc_edge *e = &e0[i];
        /* (no child: node 0, never proven -- one load, not a test that
         * goes either way edge after edge; and none at all while no
         * child is proven) */
        const int8_t pr = pchild ? LD(nodes[LDA(e->child)].proven) : 0;
        double v;
        if (__builtin_expect(pr != 0, 0)) {
            int sg = proven_sign(pr, node->side);
            if (sg > 0)
                return node->edges + i;
            v = sg < 0 ? -1.0 : 0.5; /* proven draw: no exploration */
        } else {
            const uint32_t en = LD(e->n);
            double n = en, an = LD(e->an), aw = LD(e->aw);
            if (grave && e->key != PAL_KEY_END && w->gseen[gs][e->key] == gst) {
                an = w->gn[gs][e->key];
                aw = w->gw[gs][e->key];
            }
            /* Gelly & Silver's (1 - beta) w / n + beta aw / an with
             * beta = an / (an + n + b an n), over one denominator: one
             * division, not three.  Without AMAF visits (an = 0, so aw =
             * +0) it is exactly w / n, so no test of an; without any
             * visits, first-play urgency. */
            const double den = an + n + b * an * n;
            const double q = den > 0 ? (LD(e->w) * (1 + b * an) + aw) / den : fpu;
            v = q + c * inv_sqrt_visits(en + 1);
        }
        /* (a select, not a branch: new maxima come at random) */
        best = v > bestv ? i : best;
        bestv = v > bestv ? v : bestv;
    }
    return node->edges + best;
}

static uint32_t select_edge(struct mcts *t, const struct mc_worker *w, struct mc_node *node,
                            bool grave)
{
    return LD(node->pchild) ? select_in(t, w, node, grave, true)
                            : select_in(t, w, node, grave, false);
}

/* Mark ni proven if its edges decide it; returns whether it is. */
/* Mark ni proven if its edges decide it; returns whether it is.  Proven
 * values are facts of the position, so threads proving the same node
 * store the same value. */
static bool try_prove(struct mcts *t, uint32_t ni)
{
    struct mc_node *node = &t->nodes[ni];
    if (LDA(node->expanded) != 1 || !node->nedges)
        return false;
    float best = -1;
    int8_t bp = 0;
    for (uint32_t i = node->edges; i < node->edges + node->nedges; i++) {
        const uint32_t ch = LDA(t->edges[i].child);
        const int8_t pr = ch ? proven_of(t, ch) : 0;
        if (!pr)
            return false; /* (a win would have been found first below) */
        float v = side_val(black_val(t, pr - 64), node->side);
        if (v > best) {
            best = v;
            bp = pr;
        }
    }
    ST(node->proven, bp);
    return true;
}

/* The proven value of edge ei's child if it is a win for the mover at ni,
 * else 0. */
static int8_t win_child(struct mcts *t, uint32_t ni, uint32_t ei)
{
    const uint32_t ch = LDA(t->edges[ei].child);
    const int8_t pr = ch ? proven_of(t, ch) : 0;
    return pr && proven_sign(pr, t->nodes[ni].side) > 0 ? pr : 0;
}

/* One simulation by worker w: select and expand down the shared tree,
 * play out, back up.  mt: other threads search the tree too (atomic
 * read-modify-writes, virtual loss). */
static void simulate(struct mcts *t, struct mc_worker *w, const struct pal_state *root, bool mt)
{
    const struct pal_geom *g = pal_geom(root->n);
    struct pal_state s = *root;
    uint32_t pn[MC_MAXPATH], pe[MC_MAXPATH];
    int d = 0, outcome;
    uint32_t cur = t->root;
    uint32_t ref[2] = {0, 0}; /* GRAVE: the deepest node per side with enough visits */
    const uint32_t gref = (uint32_t)t->par.grave_ref;
    w->gref[0] = w->gref[1] = 0; /* (no node 0: the tables are refilled) */
    w->trace.n = 0;
    for (;;) {
        struct mc_node *node = &t->nodes[cur];
        int8_t pr = LD(node->proven);
        if (pr) {
            outcome = pr - 64;
            break;
        }
        if (s.nman == 0 && pal_over(&s)) {
            outcome = outcome_of(&s);
            ST(node->proven, (int8_t)(outcome + 64));
            break;
        }
        if (LDA(node->expanded) != 1 &&
            ((LD(node->n) < (uint32_t)t->par.expand_at && cur != t->root) ||
             !expand(t, cur, &s))) {
            outcome = pal_playout(g, &s, &w->rng, &t->pol, &w->trace);
            break;
        }
        if (!node->nedges || d >= MC_MAXPATH - 1) {
            outcome = pal_playout(g, &s, &w->rng, &t->pol, &w->trace);
            break;
        }
        bool grave = false;
        if (gref) {
            if (LD(node->n) >= gref)
                ref[node->side] = cur;
            else if (ref[node->side]) {
                grave_table(t, w, node->side, ref[node->side]);
                grave = true;
            }
        }
        uint32_t ei = select_edge(t, w, node, grave);
        struct mc_edge *e = &t->edges[ei];
        if (mt)
            atomic_fetch_add_explicit(&e->n, MC_VLOSS, memory_order_relaxed);
        pn[d] = cur;
        pe[d] = ei;
        d++;
        w->trace.side[w->trace.n] = s.stm;
        w->trace.key[w->trace.n++] = e->key;
        if (e->key == PAL_KEY_END) {
            pal_end_turn(&s);
        } else {
            pal_apply(g, &s, pal_key_man(g, e->key));
            if (s.nman >= (s.first ? 1 : 2))
                pal_end_turn(&s);
        }
        uint32_t ch = LDA(e->child);
        if (!ch) {
            uint32_t c = new_node(t, s.stm);
            if (!c) {
                outcome = s.nman == 0 && pal_over(&s) ? outcome_of(&s)
                          : pal_playout(g, &s, &w->rng, &t->pol, &w->trace);
                break;
            }
            ch = 0;
            if (atomic_compare_exchange_strong_explicit(&e->child, &ch, c, memory_order_release,
                                                        memory_order_acquire)) {
                ch = c;
            } else { /* another thread's node is there: give ours back if we can */
                uint32_t top = c + 1;
                atomic_compare_exchange_strong_explicit(&t->nnodes, &top, c, memory_order_release,
                                                        memory_order_relaxed);
            }
        }
        cur = ch;
    }
    add_u32(&t->nodes[cur].n, 1, mt);
    int md = LD(t->maxdepth);
    while (d > md && !atomic_compare_exchange_weak_explicit(&t->maxdepth, &md, d,
                                                            memory_order_relaxed,
                                                            memory_order_relaxed))
        ;
    /* AMAF: the last trace index where each side played each key, under
     * this simulation's stamp (codes of older stamps are smaller) */
    uint32_t stamp = ++w->stamp;
    if (stamp >= 1u << (32 - MC_AMAF_IBITS)) {
        memset(w->amaf, 0, sizeof w->amaf);
        stamp = w->stamp = 1;
    }
    const uint32_t base = stamp << MC_AMAF_IBITS;
    for (int i = 0; i < w->trace.n; i++)
        w->amaf[w->trace.side[i]][w->trace.key[i]] = base | (uint32_t)i;
    /* a pass or a turn's end is no maneuver for AMAF: its key's code kept
     * below every stamp, so the edges without a maneuver (key PAL_KEY_END,
     * the only ones with it) are never hit -- no test of man below */
    w->amaf[0][PAL_KEY_END] = w->amaf[1][PAL_KEY_END] = 0;
    bool proving = true;
    /* the node below pn[i] is proven: pn[i] is told (pchild) */
    bool below = LD(t->nodes[cur].proven) != 0;
    const float vb = black_val(t, outcome);
    for (int i = d - 1; i >= 0; i--) {
        struct mc_node *node = &t->nodes[pn[i]];
        if (below && !LD(node->pchild))
            ST(node->pchild, 1);
        const int side = node->side;
        const float r = side_val(vb, side);
        struct mc_edge *e = &t->edges[pe[i]];
        add_u32(&e->n, mt ? 1u - MC_VLOSS : 1u, mt); /* (mod 2^32: the virtual loss back) */
        add_f(&e->w, r, mt);
        add_u32(&node->n, 1, mt);
        const uint32_t *code = w->amaf[side];
        const uint32_t from = base | (uint32_t)i; /* played at index >= i */
        struct mc_edge *f = &t->edges[node->edges], *fend = f + node->nedges;
        if (mt) {
            /* several threads: a relaxed load and store, not a
             * read-modify-write -- an AMAF update another thread makes to
             * the same edge at the same moment may be lost (a statistic,
             * not a count anything depends on; the edge's own n and w
             * above stay exact) */
            for (; f < fend; f++)
                if (code[f->key] >= from) {
                    ST(f->an, LD(f->an) + 1);
                    ST(f->aw, LD(f->aw) + r);
                }
        } else { /* one thread: without a branch to mispredict (aw + 0 is aw) */
            /* r where hit, else +0 (r >= +0): r's bits masked, not r *
             * (float)hit -- the same sums, no conversion and product */
            uint32_t rbits;
            memcpy(&rbits, &r, sizeof rbits);
            for (; f < fend; f++) {
                const bool hit = code[f->key] >= from;
                const uint32_t addbits = rbits & (0u - (uint32_t)hit);
                float add;
                memcpy(&add, &addbits, sizeof add);
                ST(f->an, LD(f->an) + hit);
                ST(f->aw, LD(f->aw) + add);
            }
        }
        if (proving && !LD(node->proven)) {
            int8_t pw = win_child(t, pn[i], pe[i]);
            if (pw)
                ST(node->proven, pw);
            else
                proving = try_prove(t, pn[i]);
        }
        below = LD(node->proven) != 0;
    }
    add_u64_sims(t, mt);
}

/* The edge to play at a node: a proven win, else the most visited one
 * that is not a proven loss. */
static int best_edge(struct mcts *t, uint32_t ni)
{
    const struct mc_node *node = &t->nodes[ni];
    int best = -1;
    double bv = -1;
    for (uint32_t i = node->edges; i < node->edges + node->nedges; i++) {
        struct mc_edge *e = &t->edges[i];
        const uint32_t en = LD(e->n), ch = LDA(e->child);
        const int8_t pr = ch ? proven_of(t, ch) : 0;
        double v = (double)(en - e->pn) + (en ? LD(e->w) / en : 0) * 1e-3;
        if (pr) {
            int sg = proven_sign(pr, node->side);
            if (sg > 0)
                return (int)i;
            if (sg < 0)
                v = -0.5 + v * 1e-9;
        }
        if (v > bv) {
            bv = v;
            best = (int)i;
        }
    }
    return best;
}

static void reset(struct mcts *t)
{
    ST(t->nnodes, 1);
    ST(t->nedges, 0);
    ST(t->sims, 0);
    ST(t->maxdepth, 0);
    t->root = 1;
    t->reused = 0;
    t->have_tree = false;
    for (int i = 0; i < t->nthreads; i++)
        t->w[i].gref[0] = t->w[i].gref[1] = 0;
}

/* Tree reuse: the node of the last search's tree whose position is `pos`
 * (the old root itself, or down to two turns, four maneuvers, below it
 * along edges already visited; the most visited if several); 0 if none. */
static uint32_t find_node(struct mcts *t, uint32_t ni, const struct pal_state *s,
                          const struct pal_state *pos, int depth)
{
    const struct pal_geom *g = pal_geom(s->n);
    struct mc_node *node = &t->nodes[ni];
    if (s->nman == 0 && memcmp(s, pos, sizeof *s) == 0)
        return ni;
    if (depth >= 4 || LDA(node->expanded) != 1)
        return 0;
    uint32_t best = 0, bn = 0;
    for (uint32_t i = node->edges; i < node->edges + node->nedges; i++) {
        struct mc_edge *e = &t->edges[i];
        const uint32_t ch = LDA(e->child);
        if (!ch)
            continue;
        struct pal_state c = *s;
        if (e->key == PAL_KEY_END) {
            pal_end_turn(&c);
        } else {
            pal_apply(g, &c, pal_key_man(g, e->key));
            if (c.nman >= (c.first ? 1 : 2))
                pal_end_turn(&c);
        }
        if (c.captures[0] > pos->captures[0] || c.captures[1] > pos->captures[1])
            continue; /* captures never come back */
        uint32_t f = find_node(t, ch, &c, pos, depth + 1);
        if (f && LD(t->nodes[f].n) >= bn) {
            best = f;
            bn = LD(t->nodes[f].n);
        }
    }
    return best;
}

/* Start a search from pos: the old tree's node for it when reuse is on and
 * the pools are less than half used, else a fresh tree.  false when the
 * root cannot be expanded (cannot happen). */
static bool start(struct mcts *t, const struct pal_state *pos)
{
    uint32_t keep = 0;
    black_vals(t);
    if (t->par.reuse && t->have_tree && LD(t->nnodes) < t->nodes_cap / 2 &&
        LD(t->nedges) < t->edges_cap / 2 && t->root_st.n == pos->n)
        keep = find_node(t, t->root, &t->root_st, pos, 0);
    if (!keep) {
        reset(t);
        new_node(t, pos->stm);
        keep = 1;
    }
    t->root = keep;
    t->root_st = *pos;
    ST(t->sims, 0);
    ST(t->maxdepth, 0);
    t->reused = LD(t->nodes[keep].n);
    t->have_tree = true;
    return LD(t->nodes[keep].expanded) == 1 || expand(t, keep, pos);
}

/* Second maneuver when the tree says nothing: end if allowed, else the
 * first maneuver that mends the turn. */
static pal_man fallback_m2(const struct pal_geom *g, const struct pal_state *s1)
{
    if (pal_can_end(g, s1))
        return 0;
    pal_man list[PAL_MAX_MAN];
    int n = pal_gen_man(g, s1, list);
    for (int i = 0; i < n; i++) {
        struct pal_state s2 = *s1;
        pal_apply(g, &s2, list[i]);
        if (pal_can_end(g, &s2))
            return list[i];
    }
    return 0;
}

static gmove extract(struct mcts *t, const struct pal_state *root)
{
    const struct pal_geom *g = pal_geom(root->n);
    int ei = best_edge(t, t->root);
    if (ei < 0 || t->edges[ei].key == PAL_KEY_END)
        return PAL_PASS;
    pal_man m1 = pal_key_man(g, t->edges[ei].key), m2 = 0;
    if (root->first)
        return PAL_TURN(m1, 0);
    struct pal_state s1 = *root;
    pal_apply(g, &s1, m1);
    uint32_t c = LDA(t->edges[ei].child);
    int ej = c && LDA(t->nodes[c].expanded) == 1 ? best_edge(t, c) : -1;
    if (ej >= 0 && LD(t->edges[ej].n) > t->edges[ej].pn)
        m2 = pal_key_man(g, t->edges[ej].key);
    else
        m2 = fallback_m2(g, &s1);
    return PAL_TURN(m1, m2);
}

/* Principal variation as turn tokens; first < 0: the best root edge, else
 * that root edge and the best continuation. */
static void format_pv(struct mcts *t, const struct pal_state *root, int first, char *buf,
                      size_t n)
{
    const struct pal_geom *g = pal_geom(root->n);
    struct pal_state s = *root;
    size_t len = 0;
    uint32_t cur = t->root;
    pal_man turn[2] = {0, 0};
    int nt = 0, turns = 0;
    buf[0] = 0;
    while (cur && LDA(t->nodes[cur].expanded) == 1 && turns < 12) {
        int ei = cur == t->root && first >= 0 ? first : best_edge(t, cur);
        if (ei < 0 || LD(t->edges[ei].n) == t->edges[ei].pn)
            break;
        struct mc_edge *e = &t->edges[ei];
        bool end = e->key == PAL_KEY_END;
        if (!end) {
            turn[nt++] = pal_key_man(g, e->key);
            pal_apply(g, &s, turn[nt - 1]);
            end = s.nman >= (s.first ? 1 : 2);
        }
        if (end) {
            char tok[32];
            pal_format_turn(g, PAL_TURN(turn[0], nt > 1 ? turn[1] : 0), tok, sizeof tok);
            buf_printf(buf, n, &len, "%s%s", len ? " " : "", tok);
            pal_end_turn(&s);
            turn[0] = turn[1] = 0;
            nt = 0;
            turns++;
        }
        cur = LDA(e->child);
    }
    if (nt) { /* the tree stops mid-turn: show the turn so far */
        char tok[32];
        pal_format_turn(g, PAL_TURN(turn[0], 0), tok, sizeof tok);
        buf_printf(buf, n, &len, "%s%s", len ? " " : "", tok);
    }
}

static int win_cp(double q)
{
    double qc = q < 0.001 ? 0.001 : q > 0.999 ? 0.999 : q;
    return (int)lround(400.0 * log10(qc / (1 - qc)));
}

/* The info line(s): with multipv k > 1, one line per root maneuver, the k
 * most visited, each with its best continuation. */
static void info(struct mcts *t, const struct search_req *req, const struct pal_state *root,
                 int64_t us)
{
    if (!req->info)
        return;
    struct mc_node *r = &t->nodes[t->root];
    double w = 0, n = 0;
    for (uint32_t i = r->edges; i < r->edges + r->nedges; i++) {
        w += LD(t->edges[i].w);
        n += LD(t->edges[i].n);
    }
    double q = n > 0 ? w / n : 0.5; /* for the side to move */
    const int8_t rp = LD(r->proven);
    if (rp)
        q = side_val(black_val(t, rp - 64), root->stm);
    double vb = root->stm == 0 ? q : 1 - q;
    char pv[512];
    int64_t ms = us / 1000;
    uint64_t nps = us > 0 ? LD(t->sims) * 1000000ULL / (uint64_t)us : 0;
    const int maxdepth = LD(t->maxdepth);
    const uint32_t nodes = LD(t->nnodes) - 1;
    int k = req->lim.multipv;
    if (k <= 1) {
        format_pv(t, root, -1, pv, sizeof pv);
        search_info(req, "depth %d visits %u nodes %u nps %llu time %lld score cp %d values %.3f,%.3f pv %s",
                    maxdepth, LD(r->n), nodes, (unsigned long long)nps, (long long)ms,
                    win_cp(q), vb, 1 - vb, pv);
        return;
    }
    /* the k most visited root edges (visits beyond the prior), most first */
    uint8_t used[4096] = {0};
    for (int j = 0; j < k; j++) {
        int be = -1;
        uint32_t bn = 0;
        for (uint32_t i = r->edges; i < r->edges + r->nedges && i - r->edges < sizeof used; i++) {
            const uint32_t en = LD(t->edges[i].n), pn = t->edges[i].pn;
            if (!used[i - r->edges] && en > pn && (be < 0 || en - pn > bn)) {
                be = (int)i;
                bn = en - pn;
            }
        }
        if (be < 0)
            break;
        used[be - (int)r->edges] = 1;
        struct mc_edge *e = &t->edges[be];
        const uint32_t en = LD(e->n);
        double qe = en ? LD(e->w) / en : 0.5;
        double vbe = root->stm == 0 ? qe : 1 - qe;
        format_pv(t, root, be, pv, sizeof pv);
        search_info(req,
                    "depth %d visits %u nodes %u nps %llu time %lld multipv %d score cp %d values %.3f,%.3f pv %s",
                    maxdepth, bn, nodes, (unsigned long long)nps, (long long)ms, j + 1,
                    win_cp(qe), vbe, 1 - vbe, pv);
    }
}

/* A helper thread of a search: simulations until the search halts, the
 * shared budget is spent or the root is proven. */
struct mc_job {
    struct mcts *t;
    struct mc_worker *w;
    const struct pal_state *root;
    uint64_t max_sims; /* 0: no budget */
    pthread_t th;
    bool running;
};

static void *helper(void *arg)
{
    struct mc_job *j = arg;
    struct mcts *t = j->t;
    while (!atomic_load_explicit(&t->halt, memory_order_acquire) &&
           !LD(t->nodes[t->root].proven)) {
        if (j->max_sims &&
            atomic_fetch_add_explicit(&t->claimed, 1, memory_order_relaxed) >= j->max_sims)
            break;
        simulate(t, j->w, j->root, true);
    }
    return NULL;
}

/* Start workers 1.. of a search from root (the pools and t->root set up);
 * the caller is worker 0.  Returns the threads started (a failure to start
 * one leaves fewer). */
static int helpers_start(struct mcts *t, struct mc_job *jobs, const struct pal_state *root,
                         uint64_t max_sims)
{
    int started = 0;
    ST(t->claimed, 0);
    atomic_store_explicit(&t->halt, false, memory_order_release);
    for (int i = 1; i < t->nthreads; i++) {
        jobs[i] = (struct mc_job){t, &t->w[i], root, max_sims, 0, false};
        if (pthread_create(&jobs[i].th, NULL, helper, &jobs[i]) == 0) {
            jobs[i].running = true;
            started++;
        }
    }
    return started;
}

static void helpers_stop(struct mcts *t, struct mc_job *jobs)
{
    atomic_store_explicit(&t->halt, true, memory_order_release);
    for (int i = 1; i < t->nthreads; i++)
        if (jobs[i].running) {
            pthread_join(jobs[i].th, NULL);
            jobs[i].running = false;
        }
}

/* Worker 0's next simulation with several threads: false when the shared
 * budget is spent. */
static bool claim(struct mcts *t, uint64_t max_sims)
{
    return !max_sims ||
           atomic_fetch_add_explicit(&t->claimed, 1, memory_order_relaxed) < max_sims;
}

gmove mc_go(struct mcts *t, const struct search_req *req)
{
    const struct pal_state *root = req->pos;
    if (pal_over(root))
        return GAME_MOVE_NONE;
    if (!start(t, root))
        return PAL_PASS; /* cannot happen: the pool holds a root */
    struct timeman tm;
    tm_init(&tm, req, root->stm + 1);
    const struct limits *l = &req->lim;
    uint64_t max_sims = l->nodes ? l->nodes : l->depth > 0 ? (uint64_t)l->depth * 100 : 0;
    /* Budgets hold also while pondering (the library holds the bestmove
     * back until ponderhit): only `infinite` searches on without one. */
    const bool forever = l->infinite;
    const int64_t t0 = now_us();
    int64_t next_info = t0 + MC_INFO_US;
    const uint32_t rt = t->root;
    bool only_pass = t->nodes[rt].nedges == 1;
    struct mc_job *jobs = NULL;
    if (t->nthreads > 1 && !only_pass && (jobs = calloc((size_t)t->nthreads, sizeof *jobs)))
        helpers_start(t, jobs, root, forever ? 0 : max_sims);
    const bool mt = jobs != NULL;
    for (uint64_t it = 1;; it++) {
        if (only_pass)
            add_u64_sims(t, false);
        else if (!mt)
            simulate(t, &t->w[0], root, false);
        else if (claim(t, forever ? 0 : max_sims))
            simulate(t, &t->w[0], root, true);
        else
            break; /* the budget is spent (the helpers finish theirs) */
        { /* every simulation: one on N = 9 can take a millisecond */
            if (tm_hard_stop(&tm))
                break;
            if (max_sims && LD(t->sims) >= max_sims && !forever)
                break;
            if ((only_pass || LD(t->nodes[rt].proven)) && !forever)
                break;
            if (search_stopped(req))
                break;
            if ((only_pass || LD(t->nodes[rt].proven)) && forever) {
                /* nothing to learn: wait for stop without spinning hard */
                struct timespec ts = {0, 1000000};
                nanosleep(&ts, NULL);
            }
        }
        if ((it & 127) == 0) {
            int be = best_edge(t, rt);
            const uint32_t rn = LD(t->nodes[rt].n);
            double share = be >= 0 && rn ? (double)LD(t->edges[be].n) / rn : 0;
            if (!tm_continue(&tm, share > 0.5 ? 1.0 : share * 2))
                break;
            int64_t now = now_us();
            if (now >= next_info) {
                info(t, req, root, now - t0);
                next_info = now + MC_INFO_US;
            }
        }
    }
    if (jobs) {
        helpers_stop(t, jobs);
        free(jobs);
    }
    info(t, req, root, now_us() - t0);
    return extract(t, root);
}

gmove mc_search_sims(struct mcts *t, const struct pal_state *st, uint64_t sims)
{
    if (pal_over(st))
        return GAME_MOVE_NONE;
    black_vals(t);
    reset(t);
    new_node(t, st->stm);
    expand(t, 1, st);
    if (t->nodes[1].nedges == 1)
        return PAL_PASS;
    struct mc_job *jobs = NULL;
    if (t->nthreads > 1 && (jobs = calloc((size_t)t->nthreads, sizeof *jobs))) {
        helpers_start(t, jobs, st, sims);
        while (!LD(t->nodes[1].proven) && claim(t, sims))
            simulate(t, &t->w[0], st, true);
        helpers_stop(t, jobs);
        free(jobs);
    } else {
        while (LD(t->sims) < sims && !LD(t->nodes[1].proven))
            simulate(t, &t->w[0], st, false);
    }
    return extract(t, st);
}
