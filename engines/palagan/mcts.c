/* mcts.c - Monte Carlo tree search for Palagan (see mcts.h). */
#include "mcts.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../search/timeman.h"

#define MC_MAXPATH 512
#define MC_INFO_US 1000000 /* an info line every second */

static const struct mc_params default_params = {
    .uct_c = MC_UCT_C,
    .rave_bias = MC_RAVE_BIAS,
    .expand_at = MC_EXPAND_AT,
    .prior_n = MC_PRIOR_N,
    .margin = MC_MARGIN,
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

void mc_seed(struct mcts *t, uint64_t seed) { rng_seed(&t->rng, seed ^ 0x9a1a9a40ULL); }

int mc_resize(struct mcts *t, size_t mb)
{
    size_t bytes = (mb ? mb : 1) << 20;
    uint32_t ncap = (uint32_t)(bytes / 8 / sizeof(struct mc_node));
    uint32_t ecap = (uint32_t)(bytes / 8 * 7 / sizeof(struct mc_edge));
    struct mc_node *nodes = malloc((size_t)ncap * sizeof *nodes);
    struct mc_edge *edges = malloc((size_t)ecap * sizeof *edges);
    if (!nodes || !edges) {
        free(nodes);
        free(edges);
        return -1;
    }
    free(t->nodes);
    free(t->edges);
    t->nodes = nodes;
    t->edges = edges;
    t->nodes_cap = ncap;
    t->edges_cap = ecap;
    t->nnodes = 1;
    t->nedges = 0;
    t->root = 1;
    t->have_tree = false;
    return 0;
}

void mc_clear(struct mcts *t) { t->have_tree = false; }

void mc_init(struct mcts *t, size_t mb, uint64_t seed)
{
    pthread_once(&isq_once, isq_init);
    memset(t, 0, sizeof *t);
    t->par = default_params;
    t->pol = pal_default_policy;
    mc_seed(t, seed);
    if (mc_resize(t, mb) != 0 && mc_resize(t, 1) != 0)
        die("out of memory for the search tree");
}

void mc_free(struct mcts *t)
{
    free(t->nodes);
    free(t->edges);
    t->nodes = NULL;
    t->edges = NULL;
}

static uint32_t new_node(struct mcts *t, int side)
{
    if (t->nnodes >= t->nodes_cap)
        return 0;
    uint32_t i = t->nnodes++;
    memset(&t->nodes[i], 0, sizeof t->nodes[i]);
    t->nodes[i].side = (uint8_t)side;
    return i;
}

static int outcome_of(const struct pal_state *s) { return s->captures[0] - s->captures[1]; }

/* Black's result in [0,1] for a capture difference: mostly win/draw/loss,
 * a little for the margin (so a lost game is still fought). */
static float black_val(const struct mcts *t, int diff)
{
    double m = t->par.margin;
    double base = diff > 0 ? 1.0 : diff < 0 ? 0.0 : 0.5;
    return (float)((1 - m) * base + m * (0.5 + 0.5 * tanh(diff / MC_MARGIN_SCALE)));
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

static void set_edge(struct mc_edge *e, pal_man m, unsigned key, float prior_n,
                     float prior_w)
{
    memset(e, 0, sizeof *e);
    e->man = m;
    e->key = (uint16_t)key;
    e->n = (uint32_t)prior_n;
    e->pn = (uint16_t)prior_n;
    e->w = prior_w;
}

/* Heuristic value in [0,1] for the mover of a position reached by a
 * maneuver: captures, and which clusters the next maneuvers can take. */
static float prior_value(const struct pal_geom *g, const struct pal_state *before,
                         const struct pal_state *c, bool turn_ends)
{
    const int me = before->stm;
    int sh[2][3];
    pal_shape(g, c, sh);
    int got = c->captures[me] - before->captures[me];
    double v = 0.5 + MC_PRIOR_CAPTURE * got;
    if (turn_ends) {
        /* the opponent now has two maneuvers: one or two liberties are lost */
        v -= MC_PRIOR_OWN_WEAK * (sh[me][0] + sh[me][1]);
        v += MC_PRIOR_THEIR_WEAK * (sh[me ^ 1][0] + sh[me ^ 1][1]);
    } else {
        /* one maneuver left: a one-liberty enemy cluster is ours */
        v += MC_PRIOR_TAKE_NEXT * sh[me ^ 1][0] - MC_PRIOR_OWN_ATARI * sh[me][0];
    }
    v += MC_PRIOR_LIBERTY * (sh[me][2] - sh[me ^ 1][2]);
    return (float)(v < MC_PRIOR_MIN ? MC_PRIOR_MIN : v > MC_PRIOR_MAX ? MC_PRIOR_MAX : v);
}

/* Generate the edges of a node.  false when the edge pool is full. */
static bool expand(struct mcts *t, uint32_t ni, const struct pal_state *s)
{
    const struct pal_geom *g = pal_geom(s->n);
    pal_man list[PAL_MAX_MAN];
    int n = pal_gen_man(g, s, list);
    if (t->nedges + (uint32_t)n + 1 > t->edges_cap)
        return false;
    const float pn = (float)t->par.prior_n;
    struct mc_node *node = &t->nodes[ni];
    uint32_t base = t->nedges, k = 0;
    if (s->nman == 0 || pal_can_end(g, s)) /* pass, or end after one */
        set_edge(&t->edges[base + k++], 0, PAL_KEY_END, pn,
                 pn * prior_value(g, s, s, true));
    for (int i = 0; i < n; i++) {
        struct pal_state c = *s;
        pal_apply(g, &c, list[i]);
        bool ok = s->nman == 0 ? mendable(g, &c) : pal_can_end(g, &c);
        if (!ok)
            continue;
        bool ends = s->nman == 1 || s->first;
        set_edge(&t->edges[base + k++], list[i], pal_man_key(g, list[i]), pn,
                 pn * prior_value(g, s, &c, ends));
    }
    node->edges = base;
    node->nedges = (uint16_t)k;
    node->expanded = 1;
    t->nedges += k;
    return true;
}

/* GRAVE: the AMAF statistics to use at a node of side `side` whose own
 * visits are too few: those of the reference node's edges, kept in a table
 * by key.  The table is filled when the reference changes and at most once
 * a simulation (simulate clears t->gref first), so it follows the
 * reference's statistics as they grow. */
static void grave_table(struct mcts *t, int side, uint32_t ref)
{
    if (t->gref[side] == ref)
        return;
    uint32_t stamp = ++t->gstamp[side];
    if (stamp == 0) {
        memset(t->gseen[side], 0, sizeof t->gseen[side]);
        stamp = t->gstamp[side] = 1;
    }
    t->gref[side] = ref;
    const struct mc_node *r = &t->nodes[ref];
    for (uint32_t i = r->edges; i < r->edges + r->nedges; i++) {
        const struct mc_edge *e = &t->edges[i];
        if (!e->man)
            continue;
        t->gseen[side][e->key] = stamp;
        t->gn[side][e->key] = e->an;
        t->gw[side][e->key] = e->aw;
    }
}

/* `grave`: take the AMAF of edges from the GRAVE table of the node's side
 * (when it has the key), else from the edge itself. */
static uint32_t select_edge(struct mcts *t, const struct mc_node *node, bool grave)
{
    const double logn = log((double)node->n + 1.0);
    const double b = t->par.rave_bias;
    const double c = t->par.uct_c * sqrt(logn); /* times 1 / sqrt(n + 1) an edge */
    const int gs = node->side;
    const uint32_t gst = t->gstamp[gs];
    uint32_t best = node->edges;
    double bestv = -1e9;
    for (uint32_t i = node->edges; i < node->edges + node->nedges; i++) {
        const struct mc_edge *e = &t->edges[i];
        double v;
        if (e->child && t->nodes[e->child].proven) {
            int sg = proven_sign(t->nodes[e->child].proven, node->side);
            if (sg > 0)
                return i;
            v = sg < 0 ? -1.0 : 0.5; /* proven draw: no exploration */
        } else {
            double n = e->n, an = e->an, aw = e->aw;
            if (grave && e->man && t->gseen[gs][e->key] == gst) {
                an = t->gn[gs][e->key];
                aw = t->gw[gs][e->key];
            }
            double q = n > 0 ? e->w / n : MC_FPU; /* first-play urgency */
            if (an > 0) {
                double beta = an / (an + n + b * an * n);
                q = (1 - beta) * q + beta * (aw / an);
            }
            v = q + c * inv_sqrt_visits(e->n + 1);
        }
        if (v > bestv) {
            bestv = v;
            best = i;
        }
    }
    return best;
}

/* Mark ni proven if its edges decide it; returns whether it is. */
static bool try_prove(struct mcts *t, uint32_t ni)
{
    struct mc_node *node = &t->nodes[ni];
    if (!node->expanded || !node->nedges)
        return false;
    float best = -1;
    int8_t bp = 0;
    for (uint32_t i = node->edges; i < node->edges + node->nedges; i++) {
        const struct mc_edge *e = &t->edges[i];
        if (!e->child || !t->nodes[e->child].proven)
            return false; /* (a win would have been found first below) */
        float v = side_val(black_val(t, t->nodes[e->child].proven - 64), node->side);
        if (v > best) {
            best = v;
            bp = t->nodes[e->child].proven;
        }
    }
    node->proven = bp;
    return true;
}

static bool win_child(struct mcts *t, uint32_t ni, uint32_t ei)
{
    const struct mc_edge *e = &t->edges[ei];
    return e->child && t->nodes[e->child].proven &&
           proven_sign(t->nodes[e->child].proven, t->nodes[ni].side) > 0;
}

static void simulate(struct mcts *t, const struct pal_state *root)
{
    const struct pal_geom *g = pal_geom(root->n);
    struct pal_state s = *root;
    uint32_t pn[MC_MAXPATH], pe[MC_MAXPATH];
    int d = 0, outcome;
    uint32_t cur = t->root;
    uint32_t ref[2] = {0, 0}; /* GRAVE: the deepest node per side with enough visits */
    const uint32_t gref = (uint32_t)t->par.grave_ref;
    t->gref[0] = t->gref[1] = 0; /* (no node 0: the tables are refilled) */
    t->trace.n = 0;
    for (;;) {
        struct mc_node *node = &t->nodes[cur];
        if (node->proven) {
            outcome = node->proven - 64;
            break;
        }
        if (s.nman == 0 && pal_over(&s)) {
            outcome = outcome_of(&s);
            node->proven = (int8_t)(outcome + 64);
            break;
        }
        if (!node->expanded &&
            ((node->n < (uint32_t)t->par.expand_at && cur != t->root) || !expand(t, cur, &s))) {
            outcome = pal_playout(g, &s, &t->rng, &t->pol, &t->trace);
            break;
        }
        if (!node->nedges || d >= MC_MAXPATH - 1) {
            outcome = pal_playout(g, &s, &t->rng, &t->pol, &t->trace);
            break;
        }
        bool grave = false;
        if (gref) {
            if (node->n >= gref)
                ref[node->side] = cur;
            else if (ref[node->side]) {
                grave_table(t, node->side, ref[node->side]);
                grave = true;
            }
        }
        uint32_t ei = select_edge(t, node, grave);
        struct mc_edge *e = &t->edges[ei];
        pn[d] = cur;
        pe[d] = ei;
        d++;
        t->trace.side[t->trace.n] = s.stm;
        t->trace.key[t->trace.n++] = e->key;
        if (e->man == 0) {
            pal_end_turn(&s);
        } else {
            pal_apply(g, &s, e->man);
            if (s.nman >= (s.first ? 1 : 2))
                pal_end_turn(&s);
        }
        if (!e->child) {
            uint32_t c = new_node(t, s.stm);
            if (!c) {
                outcome = s.nman == 0 && pal_over(&s) ? outcome_of(&s)
                          : pal_playout(g, &s, &t->rng, &t->pol, &t->trace);
                break;
            }
            e = &t->edges[ei];
            e->child = c;
        }
        cur = e->child;
    }
    t->nodes[cur].n++;
    if (d > t->maxdepth)
        t->maxdepth = d;
    /* AMAF: the last trace index where each side played each key */
    uint32_t stamp = ++t->stamp;
    if (stamp == 0) {
        memset(t->seen, 0, sizeof t->seen);
        stamp = t->stamp = 1;
    }
    for (int i = 0; i < t->trace.n; i++) {
        int sd = t->trace.side[i], k = t->trace.key[i];
        t->seen[sd][k] = stamp;
        t->last[sd][k] = i;
    }
    bool proving = true;
    const float vb = black_val(t, outcome);
    for (int i = d - 1; i >= 0; i--) {
        struct mc_node *node = &t->nodes[pn[i]];
        const int side = node->side;
        const float r = side_val(vb, side);
        struct mc_edge *e = &t->edges[pe[i]];
        e->n++;
        e->w += r;
        node->n++;
        for (uint32_t j = node->edges; j < node->edges + node->nedges; j++) {
            struct mc_edge *f = &t->edges[j];
            if (f->man && t->seen[side][f->key] == stamp && t->last[side][f->key] >= i) {
                f->an++;
                f->aw += r;
            }
        }
        if (proving && !node->proven) {
            if (win_child(t, pn[i], pe[i]))
                node->proven = t->nodes[e->child].proven;
            else
                proving = try_prove(t, pn[i]);
        }
    }
    t->sims++;
}

/* The edge to play at a node: a proven win, else the most visited one
 * that is not a proven loss. */
static int best_edge(const struct mcts *t, uint32_t ni)
{
    const struct mc_node *node = &t->nodes[ni];
    int best = -1;
    double bv = -1;
    for (uint32_t i = node->edges; i < node->edges + node->nedges; i++) {
        const struct mc_edge *e = &t->edges[i];
        double v = (double)(e->n - e->pn) + (e->n ? e->w / e->n : 0) * 1e-3;
        if (e->child && t->nodes[e->child].proven) {
            int sg = proven_sign(t->nodes[e->child].proven, node->side);
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
    t->nnodes = 1;
    t->nedges = 0;
    t->sims = 0;
    t->maxdepth = 0;
    t->root = 1;
    t->reused = 0;
    t->have_tree = false;
    t->gref[0] = t->gref[1] = 0;
}

/* Tree reuse: the node of the last search's tree whose position is `pos`
 * (the old root itself, or down to two turns, four maneuvers, below it
 * along edges already visited; the most visited if several); 0 if none. */
static uint32_t find_node(const struct mcts *t, uint32_t ni, const struct pal_state *s,
                          const struct pal_state *pos, int depth)
{
    const struct pal_geom *g = pal_geom(s->n);
    const struct mc_node *node = &t->nodes[ni];
    if (s->nman == 0 && memcmp(s, pos, sizeof *s) == 0)
        return ni;
    if (depth >= 4 || !node->expanded)
        return 0;
    uint32_t best = 0, bn = 0;
    for (uint32_t i = node->edges; i < node->edges + node->nedges; i++) {
        const struct mc_edge *e = &t->edges[i];
        if (!e->child)
            continue;
        struct pal_state c = *s;
        if (e->man == 0) {
            pal_end_turn(&c);
        } else {
            pal_apply(g, &c, e->man);
            if (c.nman >= (c.first ? 1 : 2))
                pal_end_turn(&c);
        }
        if (c.captures[0] > pos->captures[0] || c.captures[1] > pos->captures[1])
            continue; /* captures never come back */
        uint32_t f = find_node(t, e->child, &c, pos, depth + 1);
        if (f && t->nodes[f].n >= bn) {
            best = f;
            bn = t->nodes[f].n;
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
    if (t->par.reuse && t->have_tree && t->nnodes < t->nodes_cap / 2 &&
        t->nedges < t->edges_cap / 2 && t->root_st.n == pos->n)
        keep = find_node(t, t->root, &t->root_st, pos, 0);
    if (!keep) {
        reset(t);
        new_node(t, pos->stm);
        keep = 1;
    }
    t->root = keep;
    t->root_st = *pos;
    t->sims = 0;
    t->maxdepth = 0;
    t->reused = t->nodes[keep].n;
    t->have_tree = true;
    return t->nodes[keep].expanded || expand(t, keep, pos);
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

static gmove extract(const struct mcts *t, const struct pal_state *root)
{
    const struct pal_geom *g = pal_geom(root->n);
    int ei = best_edge(t, t->root);
    if (ei < 0 || t->edges[ei].man == 0)
        return PAL_PASS;
    pal_man m1 = t->edges[ei].man, m2 = 0;
    if (root->first)
        return PAL_TURN(m1, 0);
    struct pal_state s1 = *root;
    pal_apply(g, &s1, m1);
    uint32_t c = t->edges[ei].child;
    int ej = c && t->nodes[c].expanded ? best_edge(t, c) : -1;
    if (ej >= 0 && t->edges[ej].n > t->edges[ej].pn)
        m2 = t->edges[ej].man;
    else
        m2 = fallback_m2(g, &s1);
    return PAL_TURN(m1, m2);
}

/* Principal variation as turn tokens; first < 0: the best root edge, else
 * that root edge and the best continuation. */
static void format_pv(const struct mcts *t, const struct pal_state *root, int first, char *buf,
                      size_t n)
{
    const struct pal_geom *g = pal_geom(root->n);
    struct pal_state s = *root;
    size_t len = 0;
    uint32_t cur = t->root;
    pal_man turn[2] = {0, 0};
    int nt = 0, turns = 0;
    buf[0] = 0;
    while (cur && t->nodes[cur].expanded && turns < 12) {
        int ei = cur == t->root && first >= 0 ? first : best_edge(t, cur);
        if (ei < 0 || t->edges[ei].n == t->edges[ei].pn)
            break;
        const struct mc_edge *e = &t->edges[ei];
        bool end = e->man == 0;
        if (!end) {
            turn[nt++] = e->man;
            pal_apply(g, &s, e->man);
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
        cur = e->child;
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
    const struct mc_node *r = &t->nodes[t->root];
    double w = 0, n = 0;
    for (uint32_t i = r->edges; i < r->edges + r->nedges; i++) {
        w += t->edges[i].w;
        n += t->edges[i].n;
    }
    double q = n > 0 ? w / n : 0.5; /* for the side to move */
    if (r->proven)
        q = side_val(black_val(t, r->proven - 64), root->stm);
    double vb = root->stm == 0 ? q : 1 - q;
    char pv[512];
    int64_t ms = us / 1000;
    uint64_t nps = us > 0 ? t->sims * 1000000ULL / (uint64_t)us : 0;
    int k = req->lim.multipv;
    if (k <= 1) {
        format_pv(t, root, -1, pv, sizeof pv);
        search_info(req, "depth %d visits %u nodes %u nps %llu time %lld score cp %d values %.3f,%.3f pv %s",
                    t->maxdepth, r->n, t->nnodes - 1, (unsigned long long)nps, (long long)ms,
                    win_cp(q), vb, 1 - vb, pv);
        return;
    }
    /* the k most visited root edges (visits beyond the prior), most first */
    uint8_t used[4096] = {0};
    for (int j = 0; j < k; j++) {
        int be = -1;
        uint32_t bn = 0;
        for (uint32_t i = r->edges; i < r->edges + r->nedges && i - r->edges < sizeof used; i++) {
            const struct mc_edge *e = &t->edges[i];
            if (!used[i - r->edges] && e->n > e->pn && (be < 0 || e->n - e->pn > bn)) {
                be = (int)i;
                bn = e->n - e->pn;
            }
        }
        if (be < 0)
            break;
        used[be - (int)r->edges] = 1;
        const struct mc_edge *e = &t->edges[be];
        double qe = e->n ? e->w / e->n : 0.5;
        double vbe = root->stm == 0 ? qe : 1 - qe;
        format_pv(t, root, be, pv, sizeof pv);
        search_info(req,
                    "depth %d visits %u nodes %u nps %llu time %lld multipv %d score cp %d values %.3f,%.3f pv %s",
                    t->maxdepth, bn, t->nnodes - 1, (unsigned long long)nps, (long long)ms, j + 1,
                    win_cp(qe), vbe, 1 - vbe, pv);
    }
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
    for (;;) {
        if (!only_pass)
            simulate(t, root);
        else
            t->sims++;
        { /* every simulation: one on N = 9 can take a millisecond */
            if (tm_hard_stop(&tm))
                break;
            if (max_sims && t->sims >= max_sims && !forever)
                break;
            if ((only_pass || t->nodes[rt].proven) && !forever)
                break;
            if (search_stopped(req))
                break;
            if ((only_pass || t->nodes[rt].proven) && forever) {
                /* nothing to learn: wait for stop without spinning hard */
                struct timespec ts = {0, 1000000};
                nanosleep(&ts, NULL);
            }
        }
        if ((t->sims & 127) == 0) {
            int be = best_edge(t, rt);
            double share = be >= 0 && t->nodes[rt].n ? (double)t->edges[be].n / t->nodes[rt].n : 0;
            if (!tm_continue(&tm, share > 0.5 ? 1.0 : share * 2))
                break;
            int64_t now = now_us();
            if (now >= next_info) {
                info(t, req, root, now - t0);
                next_info = now + MC_INFO_US;
            }
        }
    }
    info(t, req, root, now_us() - t0);
    return extract(t, root);
}

gmove mc_search_sims(struct mcts *t, const struct pal_state *st, uint64_t sims)
{
    if (pal_over(st))
        return GAME_MOVE_NONE;
    reset(t);
    new_node(t, st->stm);
    expand(t, 1, st);
    if (t->nodes[1].nedges == 1)
        return PAL_PASS;
    while (t->sims < sims && !t->nodes[1].proven)
        simulate(t, st);
    return extract(t, st);
}
