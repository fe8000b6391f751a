/* ismcts.c - SO-ISMCTS for Battalion (see ismcts.h). */
#include "ismcts.h"

#include <assert.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"

#define DET_TRIES 48       /* rejection samples per constrained hand */
#define MAX_PATH 512

struct node {
    gmove move;
    int32_t child, sibling; /* -1 = none */
    uint32_t visits, avail;
    uint8_t player;         /* the seat that chose `move` */
    double reward[BAT_MAX_SEATS];
};

/* The candidates of a node by move, for matching the node's children to
 * them: open addressing, slots valid when their stamp is the current one
 * (no clearing between uses). */
#define IX_BITS 12
#define IX_SIZE (1 << IX_BITS)
struct move_index {
    uint32_t stamp;
    uint32_t used[IX_SIZE];
    int16_t at[IX_SIZE];
};

/* A root action's statistics: a root child of one tree, or the sum of the
 * children with the same action over the trees of a parallel search. */
struct root_stat {
    gmove move;
    uint8_t player;
    uint64_t visits;
    double reward[BAT_MAX_SEATS];
};

/* The node array's header in a cache line of its own: the threads of a
 * parallel search each write their tree's `used` at every new node.  The
 * search's scratch lives here, one per tree and so one per thread, not in
 * static thread-local arrays: those cost every thread of every program that
 * links the engine their size (medan-web's small-stack threads failed to
 * start). */
struct bat_tree {
    _Alignas(64) struct node *n;
    size_t used, max;
    _Alignas(64) struct move_index ix;
    struct root_stat rs[BAT_MAX_CAND];
};

/* The leaf's weights per number of seats, from `medan-battalion-duplicate
 * --fit 100000 --players N --fit-drop chips` (100 000 games of the
 * heuristic against itself; the chips term held at 0: fitted (-0.55), it
 * gained the search no chips and the leaf without it did, see
 * docs/games/battalion.md). */
static const double leaf_fit[BAT_MAX_SEATS + 1][BAT_LEAF_NF] = {
    [3] = {0.571, 0.494, 0.135, 0.397, 0.319, 0.608, 0.111, 0},
    [4] = {0.449, 0.304, -0.011, 1.118, 0.128, 1.339, -0.032, 0},
    [5] = {0.340, 0.220, -0.075, 0.761, 0.176, 1.315, -0.020, 0},
    [6] = {0.277, 0.179, -0.078, 0.182, 0.283, 0.984, 0.044, 0},
};

void bat_search_defaults(struct bat_search_params *p)
{
    memset(p, 0, sizeof *p);
    p->cutoff = 4;
    p->explore = 0.7;
    p->epsilon = 0.1;
    p->epsilon_opp = -1;
    p->eval_strength = 0.25;
    p->eval_scale = 8.0;
    p->actions = BAT_ACTIONS_PRUNED;
    p->opp_model = 0;
    p->infer = 1;
    p->infer_bids = 1;
    p->infer_collect = 0;
    p->report_us = 1000000;
    p->leaf = 1;
    p->abstract = 0; /* the keyed tree and crn gained nothing measurable (docs) */
    p->crn = 0;
    memcpy(p->leaf_w, leaf_fit, sizeof leaf_fit);
    memcpy(p->self_w, leaf_fit, sizeof leaf_fit); /* leaf_self=1 alone: the same leaf */
}

const char *const bat_leaf_names[BAT_LEAF_NF] = {
    "best", "second", "rest", "next", "next_allowed", "after", "after_best", "chips",
};

void bat_leaf_features(const struct bat_state *st, int s, double *f)
{
    int N = st->nseats, pts[4], next, k, sum = 0;
    for (int x = 0; x < 4; x++)
        pts[x] = bat_suit_points(st->hand[s], x);
    /* sort descending (4 entries) */
    for (int i = 1; i < 4; i++)
        for (int j = i; j > 0 && pts[j] > pts[j - 1]; j--) {
            int t = pts[j];
            pts[j] = pts[j - 1];
            pts[j - 1] = t;
        }
    next = st->phase == BAT_ATTACK   ? st->act
           : st->phase == BAT_DEFEND ? (st->attacker + 1) % N
                                     : 0;
    k = (s - next + N) % N;
    f[0] = pts[0];
    f[1] = pts[1];
    f[2] = pts[2] + pts[3];
    f[3] = k == 0;
    f[4] = 0;
    if (k == 0) {
        int b = 0; /* the next attack may not use the last attack's suit */
        for (int x = 0; x < 4; x++)
            if (x != st->last_suit && bat_suit_points(st->hand[s], x) > b)
                b = bat_suit_points(st->hand[s], x);
        f[4] = b;
    }
    f[5] = k == 1;
    f[6] = k == 1 ? pts[0] : 0;
    for (int i = 0; i < N; i++)
        sum += st->chips[i];
    f[7] = st->chips[s] - (double)sum / N;
}

static int set_double(const char *v, double lo, double hi, double *out)
{
    char *end;
    double x = strtod(v, &end);
    if (end == v || *end || !(x >= lo && x <= hi))
        return -1;
    *out = x;
    return 0;
}

/* The plain parameters: a double in [lo, hi], or an int 0/1 flag (lo = hi =
 * -1).  A field of another type does not compile (an array of size -1). */
#define FIELD(f, T)                                                                                \
    offsetof(struct bat_search_params, f) +                                                        \
        0 * sizeof(char[_Generic(((struct bat_search_params *)0)->f, T: 1, default: -1)])
#define DBL(f, lo, hi) {#f, FIELD(f, double), lo, hi}
#define FLAG(f) {#f, FIELD(f, int), -1, -1}
static const struct {
    const char *name;
    size_t off;
    double lo, hi;
} plain[] = {
    DBL(explore, 0, 100),     DBL(epsilon, 0, 1),     DBL(epsilon_opp, -1, 1),
    DBL(eval_strength, 0, 10), FLAG(oracle),          DBL(infer, 0, 1),
    FLAG(infer_bids),         FLAG(collect_heuristic), DBL(final, 0, 1),
    FLAG(infer_collect),      DBL(opp_model, 0, 1),   DBL(eval_scale, 0.01, 1000),
    FLAG(leaf),               FLAG(abstract),         FLAG(abstract_discard),
    FLAG(crn),                FLAG(expand_heuristic), FLAG(bid_heuristic),
    FLAG(opp_model_bid),      FLAG(opp_model_collect),  DBL(rollout_temp, 0, 100),
    DBL(prog_bias, 0, 100),   FLAG(root_sym),         FLAG(attack_heuristic),
    FLAG(defend_heuristic),   FLAG(own_sym),          FLAG(leaf_self),
};
#undef DBL
#undef FLAG
#undef FIELD

int bat_search_set(struct bat_search_params *p, const char *name, const char *v)
{
    double x;
    for (size_t i = 0; i < ARRAY_LEN(plain); i++) {
        if (strcmp(name, plain[i].name))
            continue;
        char *field = (char *)p + plain[i].off;
        if (plain[i].lo < 0 && plain[i].hi < 0) { /* a flag */
            if (strcmp(v, "0") && strcmp(v, "1"))
                return -1;
            *(int *)field = v[0] == '1';
            return 0;
        }
        return set_double(v, plain[i].lo, plain[i].hi, (double *)field);
    }
    if ((strncmp(name, "leaf", 4) == 0 || strncmp(name, "self", 4) == 0) &&
        name[4] >= '0' + BAT_MIN_SEATS && name[4] <= '0' + BAT_MAX_SEATS && name[5] == '_') {
        /* leaf<N>_<feature>, self<N>_<feature>: a weight of the learned leaf */
        double(*w)[BAT_LEAF_NF] = name[0] == 'l' ? p->leaf_w : p->self_w;
        for (int i = 0; i < BAT_LEAF_NF; i++)
            if (strcmp(name + 6, bat_leaf_names[i]) == 0)
                return set_double(v, -10, 10, &w[name[4] - '0'][i]);
        return -1;
    }
    if (strcmp(name, "cutoff") == 0) {
        if (set_double(v, 1, 200, &x) || x != (int)x)
            return -1;
        p->cutoff = (int)x;
        return 0;
    }
    if (strcmp(name, "iterations") == 0) {
        if (set_double(v, 0, 1e12, &x) || x != (uint64_t)x)
            return -1;
        p->iterations = (uint64_t)x;
        return 0;
    }
    if (strcmp(name, "actions") == 0) {
        if (strcmp(v, "pruned") == 0)
            p->actions = BAT_ACTIONS_PRUNED;
        else if (strcmp(v, "full") == 0)
            p->actions = BAT_ACTIONS_FULL;
        else
            return -1;
        return 0;
    }
    return -1;
}

const char *bat_search_range(const char *name, char *buf, size_t n)
{
    for (size_t i = 0; i < ARRAY_LEN(plain); i++)
        if (strcmp(name, plain[i].name) == 0) {
            if (plain[i].lo < 0 && plain[i].hi < 0)
                snprintf(buf, n, "0 or 1");
            else
                snprintf(buf, n, "a number from %g to %g", plain[i].lo, plain[i].hi);
            return buf;
        }
    if ((strncmp(name, "leaf", 4) == 0 || strncmp(name, "self", 4) == 0) &&
        name[4] >= '0' + BAT_MIN_SEATS && name[4] <= '0' + BAT_MAX_SEATS && name[5] == '_') {
        for (int i = 0; i < BAT_LEAF_NF; i++)
            if (strcmp(name + 6, bat_leaf_names[i]) == 0) {
                snprintf(buf, n, "a number from -10 to 10");
                return buf;
            }
        return NULL;
    }
    if (strcmp(name, "cutoff") == 0)
        snprintf(buf, n, "a whole number from 1 to 200");
    else if (strcmp(name, "iterations") == 0)
        snprintf(buf, n, "a whole number from 0 to 1e12");
    else if (strcmp(name, "actions") == 0)
        snprintf(buf, n, "pruned or full");
    else
        return NULL;
    return buf;
}

struct bat_tree *bat_tree_new(size_t max_nodes)
{
    struct bat_tree *t = aligned_alloc(64, sizeof *t);
    if (!t)
        die("out of memory"); /* exit-ok: out of memory */
    memset(t, 0, sizeof *t);
    t->max = max_nodes < 16 ? 16 : max_nodes;
    t->n = xmalloc(t->max * sizeof *t->n);
    return t;
}

void bat_tree_free(struct bat_tree *t)
{
    if (!t)
        return;
    free(t->n);
    free(t);
}

int bat_unsearched(const struct bat_search_params *p, const struct bat_state *v)
{
    return (p->collect_heuristic && v->phase <= BAT_DISCARD) ||
           (p->bid_heuristic && v->phase == BAT_BID) ||
           (p->attack_heuristic && v->phase == BAT_ATTACK) ||
           (p->defend_heuristic && v->phase == BAT_DEFEND);
}

int bat_tree_children(const struct bat_tree *t, int32_t node, int32_t *kids, gmove *moves,
                      int max)
{
    int n = 0;
    if (node < 0 || (size_t)node >= t->used)
        return 0;
    for (int32_t c = t->n[node].child; c >= 0 && n < max; c = t->n[c].sibling, n++) {
        kids[n] = c;
        moves[n] = t->n[c].move;
    }
    return n;
}

/* ---- determinization ---------------------------------------------------- */
static int bid_untouched(const struct bat_state *v)
{
    return v->phase >= BAT_BID &&
           (v->attacks == 0 || (v->attacks == 1 && v->phase == BAT_DEFEND));
}

/* Has seat s kept the hand it bid with?  Its record shows no cards played
 * (surrenders and skips keep a hand; an entry cleared after 10 draws is
 * missed, which is rare and only loosens nothing worse than one bid). */
static int hand_kept(const struct bat_state *v, int s)
{
    if (v->phase < BAT_ATTACK)
        return v->phase == BAT_BID;
    for (int x = 0; x < 4; x++)
        if (bat_shown_kind(v->shown[s][x]) == BAT_SHOWN_PLAYED)
            return 0;
    return 1;
}

/* The collection model of seat s (the heuristic player's way): its last
 * discard d had the least keep value in its hand then (the hand now while
 * `discard` is set, plus d), and a card it took from the discard pile and
 * still holds made a twin or went to a suit of 4 points or more (now 5;
 * the suit is only ever played whole). */
int bat_collection_fits(const struct bat_state *st, int s)
{
    const uint8_t *h = st->hand[s];
    for (int c = 0; c < BAT_NCARD; c++)
        if (st->known[s][c] && h[c] < 2 && bat_suit_points(h, bat_suit(c)) < 5)
            return 0;
    if (st->discard[s] && !(st->phase == BAT_DISCARD && st->act == s)) {
        uint8_t hd[BAT_NCARD];
        int d = st->discard[s] - 1, kd;
        memcpy(hd, h, sizeof hd);
        if (hd[d] < 2)
            hd[d]++;
        kd = bat_keep_value(hd, d);
        for (int c = 0; c < BAT_NCARD; c++)
            if (hd[c] && bat_keep_value(hd, c) < kd)
                return 0;
    }
    return 1;
}

/* Does seat s's dealt hand fit what is public?  Hard: the bid of a hand
 * unchanged since bidding, the attacker's ability to attack.  With `model`
 * also the heuristic player's bidding (a bid b means a best suit of b + 1
 * points; a pass at most max(5, the earlier high bid + 1)); with `collect`
 * its collection (bat_collection_fits). */
static int satisfies(const struct bat_state *st, int s, int model, int collect)
{
    int kept;
    if (st->phase == BAT_ATTACK && s == st->act && !bat_can_attack(st, s))
        return 0;
    if (collect && !bat_collection_fits(st, s))
        return 0;
    kept = bid_untouched(st) || (model && hand_kept(st, s));
    if (kept && st->bid[s] >= 0 && (st->bid[s] > 0 || model)) {
        uint8_t h[BAT_NCARD];
        int best;
        memcpy(h, st->hand[s], sizeof h);
        if (st->phase == BAT_DEFEND && s == st->attacker)
            for (int c = 0; c < BAT_NCARD; c++)
                h[c] = (uint8_t)(h[c] + st->battle[c]);
        best = bat_best_suit_points(h);
        if (best < st->bid[s])
            return 0;
        if (model) {
            int hi = 0;
            for (int i = 0; i < s; i++)
                if (st->bid[i] > hi)
                    hi = st->bid[i];
            if (st->bid[s] > 0 ? best > st->bid[s] + 1
                               : best > (hi + 1 > 5 ? hi + 1 : 5))
                return 0;
        }
    }
    return 1;
}

/* The model's limits on seat s's unknown cards from the public record:
 * a seat that played cards of suit x (attack or defence) played them all,
 * one that skipped held none of the allowed suits, and one that surrendered
 * held at most one card of the suit (the heuristic defends with 2 points or
 * more).  The cards drawn since are free, so of s's u unknown cards (i = 0
 * the newest) the i-th may be of suit x when i < drawn[x]; older ones not
 * (surrender: at most one of them). */
struct limits {
    int drawn[4];  /* cards drawn since x was shown; BAT_HAND = no limit */
    int one[4];    /* surrender: one old card of x allowed */
    int any;
};

static void get_limits(const struct bat_state *v, int s, struct limits *L)
{
    L->any = 0;
    for (int x = 0; x < 4; x++) {
        uint8_t e = v->shown[s][x];
        L->drawn[x] = e ? bat_shown_drawn(e) : BAT_HAND + 1;
        L->one[x] = bat_shown_kind(e) == BAT_SHOWN_SURRENDER;
        L->any |= e != 0;
    }
}

/* Move u cards of pool[0..np) to pool[np-u..np), at random, respecting the
 * limits when L is given (a slot no pool card fits takes any card). */
static void draw_unknown(uint8_t *pool, int np, int u, struct limits *L, struct rng *r)
{
    int one[4];
    if (L)
        memcpy(one, L->one, sizeof one);
    for (int k = 0; k < u; k++) {
        int n = np - k, j = (int)rng_below(r, (uint64_t)n);
        if (L) {
            /* slot i = u-1-k: the oldest cards first (the most limited) */
            int i = u - 1 - k;
            unsigned mask = 0;
            for (int x = 0; x < 4; x++)
                if (i < L->drawn[x] || one[x])
                    mask |= 1u << x;
            if (!(mask >> bat_suit(pool[j]) & 1)) {
                int tries = 0;
                while (tries++ < 6 && !(mask >> bat_suit(pool[j]) & 1))
                    j = (int)rng_below(r, (uint64_t)n);
                if (!(mask >> bat_suit(pool[j]) & 1)) {
                    int start = j;
                    do
                        j = j + 1 == n ? 0 : j + 1;
                    while (j != start && !(mask >> bat_suit(pool[j]) & 1));
                }
            }
            if (i >= L->drawn[bat_suit(pool[j])])
                one[bat_suit(pool[j])] = 0;
        }
        {
            uint8_t t = pool[j];
            pool[j] = pool[n - 1];
            pool[n - 1] = t;
        }
    }
}

void bat_determinize(const struct bat_state *view, const struct bat_search_params *p,
                     struct rng *r, struct bat_state *full)
{
    double infer = p ? p->infer : 0;
    int bid_model = p && p->infer_bids, collect_model = p && p->infer_collect;
    uint8_t pool[BAT_NDECK], left[BAT_NCARD];
    int np = 0, N = view->nseats, unk[BAT_MAX_SEATS], order[BAT_MAX_SEATS], no = 0;
    *full = *view;
    if (!view->is_view)
        return;
    memset(left, 2, sizeof left);
    for (int c = 0; c < BAT_NCARD; c++) {
        int seen = view->battle[c];
        for (int s = 0; s < N; s++)
            seen += view->hand[s][c];
        left[c] = (uint8_t)(seen > 2 ? 0 : 2 - seen);
    }
    for (int i = 0; i < view->npile; i++)
        if (left[view->pile[i]])
            left[view->pile[i]]--;
    for (int c = 0; c < BAT_NCARD; c++)
        for (int k = 0; k < left[c]; k++)
            pool[np++] = (uint8_t)c;
    for (int s = 0; s < N; s++)
        unk[s] = view->size[s] - bat_set_count(view->hand[s]);
    /* constrained seats first, so the others take what is left */
    for (int s = 0; s < N; s++)
        if (unk[s] > 0 && (view->bid[s] > 0 || s == view->act))
            order[no++] = s;
    for (int s = 0; s < N; s++)
        if (unk[s] > 0 && !(view->bid[s] > 0 || s == view->act))
            order[no++] = s;
    for (int i = 0; i < no; i++) {
        int s = order[i], u = unk[s] < np ? unk[s] : np;
        struct limits L, *lp = NULL;
        int model = infer >= 1 || (infer > 0 && rng_double(r) < infer);
        if (model) {
            get_limits(view, s, &L);
            if (L.any)
                lp = &L;
        }
        for (int tries = 0; tries < DET_TRIES; tries++) {
            draw_unknown(pool, np, u, lp, r);
            memcpy(full->hand[s], view->hand[s], BAT_NCARD);
            for (int k = 0; k < u; k++)
                full->hand[s][pool[np - 1 - k]]++;
            if (satisfies(full, s, model && bid_model, model && collect_model))
                break;
        }
        np -= u;
    }
    /* the rest is the draw pile, in random order */
    for (int i = np - 1; i > 0; i--) {
        int j = (int)rng_below(r, (uint64_t)i + 1);
        uint8_t t = pool[i];
        pool[i] = pool[j];
        pool[j] = t;
    }
    memset(full->deck, 0, sizeof full->deck);
    memcpy(full->deck, pool, (size_t)np);
    full->ndeck = (uint8_t)np;
    for (int i = 0; i < 4; i++)
        full->rng[i] = rng_next(r) | 1;
    full->is_view = 0;
    full->viewer = 0;
}

/* ---- playouts ------------------------------------------------------------ */
static void evaluate(const struct bat_state *st, const struct bat_search_params *p, int me,
                     double *reward)
{
    int N = st->nseats;
    double v[BAT_MAX_SEATS], sum = 0;
    int over = bat_over(st);
    for (int s = 0; s < N; s++) {
        /* `leaf_self`: the searching seat's own weights (fitted to its games) */
        const double *w = p->leaf_self && s == me ? p->self_w[N] : p->leaf_w[N];
        v[s] = st->chips[s];
        if (!over && p->leaf) {
            double f[BAT_LEAF_NF];
            bat_leaf_features(st, s, f);
            for (int i = 0; i < BAT_LEAF_NF; i++)
                v[s] += w[i] * f[i];
        } else if (!over) {
            v[s] += p->eval_strength * bat_best_suit_points(st->hand[s]);
        }
        sum += v[s];
    }
    for (int s = 0; s < N; s++) {
        double others = (sum - v[s]) / (N - 1);
        reward[s] = 1.0 / (1.0 + exp(-(v[s] - others) / p->eval_scale));
    }
}

static int cut(const struct bat_state *st, int attacks_end)
{
    return bat_over(st) || (st->phase == BAT_ATTACK && st->attacks >= attacks_end);
}

static gmove playout_move(const struct bat_state *st, double eps, double temp, struct rng *r)
{
    if (temp > 0 && st->phase == BAT_ATTACK) { /* `rollout_temp`: the attack by softmax */
        gmove m = bat_softmax_attack(st, temp, r);
        if (m != GAME_MOVE_NONE)
            return m;
    }
    if (eps > 0 && rng_double(r) < eps) {
        gmove c[BAT_MAX_CAND];
        int n = bat_candidates(st, BAT_ACTIONS_PRUNED, c, BAT_MAX_CAND);
        if (n > 0)
            return c[rng_below(r, (uint64_t)n)];
    }
    return bat_heuristic_move(st, r);
}

void bat_playout(struct bat_state *st, int attacks_end,
                 const struct bat_search_params *p, int me, struct rng *r, double *reward)
{
    double eps_opp = p->epsilon_opp < 0 ? p->epsilon : p->epsilon_opp;
    for (int guard = 0; guard < 4096 && !cut(st, attacks_end); guard++) {
        gmove m = st->act == me ? playout_move(st, p->epsilon, p->rollout_temp, r)
                                : playout_move(st, eps_opp, 0, r);
        if (m == GAME_MOVE_NONE)
            break;
        bat_play(st, m);
    }
    evaluate(st, p, me, reward);
}

/* ---- the tree ------------------------------------------------------------- */
static unsigned ix_slot(gmove m)
{
    return (unsigned)(((uint64_t)m * 0x9E3779B97F4A7C15ull) >> (64 - IX_BITS));
}

static void index_moves(struct move_index *ix, const gmove *cand, int nc)
{
    assert(nc < IX_SIZE / 2);
    if (++ix->stamp == 0) { /* wrapped: every slot is stale again */
        memset(ix->used, 0, sizeof ix->used);
        ix->stamp = 1;
    }
    for (int i = 0; i < nc; i++) {
        unsigned h = ix_slot(cand[i]);
        while (ix->used[h] == ix->stamp)
            h = (h + 1) & (IX_SIZE - 1);
        ix->used[h] = ix->stamp;
        ix->at[h] = (int16_t)i;
    }
}

/* The index of m among the candidates (the first if repeated), or -1. */
static int find_move(const struct move_index *ix, const gmove *cand, gmove m)
{
    int found = -1;
    for (unsigned h = ix_slot(m); ix->used[h] == ix->stamp; h = (h + 1) & (IX_SIZE - 1))
        if (cand[ix->at[h]] == m && (found < 0 || ix->at[h] < found))
            found = ix->at[h];
    return found;
}

static int32_t new_node(struct bat_tree *t, gmove m, int player)
{
    struct node *n;
    if (t->used >= t->max)
        return -1;
    n = &t->n[t->used];
    memset(n, 0, sizeof *n);
    n->move = m;
    n->child = n->sibling = -1;
    n->player = (uint8_t)player;
    return (int32_t)t->used++;
}

static int popcount32(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}

/* The mover's pairs per suit, as the low bits of the moves' 2-bit rank
 * counts (bit 2r: two cards of rank r held). */
static void pair_masks(const struct bat_state *st, uint32_t *pairs)
{
    const uint8_t *h = st->hand[st->act];
    for (int s = 0; s < 4; s++) {
        pairs[s] = 0;
        for (int r = 0; r < 13; r++)
            pairs[s] |= (uint32_t)(h[s * 13 + r] == 2) << (2 * r);
    }
}

#define CNT_ALL 0x3FFFFFFu  /* the 13 two-bit counts */
#define CNT_LOW 0x1555555u  /* their low bits (a count of 1) */
#define CNT_HIGH 0x2AAAAAAu /* their high bits (a count of 2) */

static gmove key_of(gmove m, const uint32_t *pairs)
{
    int k = bat_mkind(m);
    uint32_t cnt, ones, below_w, below_ws, from_s;
    int whole, split, single;
    if (k != BAT_M_ATTACK && k != BAT_M_DEFEND)
        return m;
    cnt = (uint32_t)(m >> 24) & CNT_ALL;
    ones = cnt & CNT_LOW;
    whole = popcount32(cnt & CNT_HIGH);
    split = popcount32(ones & pairs[bat_msuit(m)]);
    single = popcount32(ones) - split;
    /* whole pairs from rank A up, split pairs after them, singles from K
     * down: at most 13 ranks in all, so the three counts are read back */
    below_w = (1u << (2 * whole)) - 1;
    below_ws = (1u << (2 * (whole + split))) - 1;
    from_s = CNT_ALL & ~((1u << (2 * (13 - single))) - 1);
    cnt = (CNT_HIGH & below_w) | (CNT_LOW & below_ws & ~below_w) | (CNT_LOW & from_s);
    return (m & ~((gmove)CNT_ALL << 24)) | (gmove)cnt << 24;
}

/* A discard's key below the root (`abstract_discard`): the suit and
 * whether the card was one of a twin, as a card of that suit (rank A or 2). */
static gmove discard_key(const struct bat_state *st, gmove m)
{
    int c = bat_mvalue(m);
    if (bat_mkind(m) != BAT_M_DISCARD)
        return m;
    return bat_move(BAT_M_DISCARD, 0, 0, bat_suit(c) * 13 + (st->hand[st->act][c] == 2));
}

/* `root_sym`: the root's discards by what tells them apart (ranks do not
 * count): the card's suit, how many of it the seat holds, how many of those
 * are publicly known, and whether its twin is out of play for the others
 * (in the pile, in the battle, known in another hand); every discard of a
 * class is keyed by the class's first candidate. */
static void discard_classes(const struct bat_state *st, const gmove *cand, int nc, gmove *key,
                            int synthetic)
{
    int cls[BAT_MAX_CAND], me = st->act;
    uint8_t out[BAT_NCARD];
    memset(out, 0, sizeof out);
    for (int i = 0; i < st->npile; i++)
        out[st->pile[i]]++;
    for (int c = 0; c < BAT_NCARD; c++) {
        out[c] = (uint8_t)(out[c] + st->battle[c]);
        for (int s = 0; s < st->nseats; s++)
            if (s != me)
                out[c] = (uint8_t)(out[c] + st->known[s][c]);
    }
    for (int i = 0; i < nc; i++) {
        int c = bat_mvalue(cand[i]);
        if (bat_mkind(cand[i]) != BAT_M_DISCARD) {
            cls[i] = -1 - i;
            key[i] = cand[i];
            continue;
        }
        cls[i] = bat_suit(c) * 64 + st->hand[me][c] * 16 + st->known[me][c] * 4 + (out[c] > 0);
        if (synthetic) { /* `own_sym`: the class itself (target 1: no real discard) */
            key[i] = bat_move(BAT_M_DISCARD, 1, 0, cls[i]);
            continue;
        }
        key[i] = cand[i];
        for (int j = 0; j < i; j++)
            if (cls[j] == cls[i]) {
                key[i] = cand[j];
                break;
            }
    }
}

gmove bat_discard_class(const struct bat_state *st, gmove m)
{
    gmove cand[BAT_MAX_CAND], key[BAT_MAX_CAND];
    int nc = bat_candidates(st, BAT_ACTIONS_PRUNED, cand, BAT_MAX_CAND);
    discard_classes(st, cand, nc, key, 0);
    for (int i = 0; i < nc; i++)
        if (cand[i] == m)
            return key[i];
    return m;
}

gmove bat_move_key(const struct bat_state *st, gmove m)
{
    uint32_t pairs[4];
    int k = bat_mkind(m);
    if (k != BAT_M_ATTACK && k != BAT_M_DEFEND)
        return m;
    pair_masks(st, pairs);
    return key_of(m, pairs);
}

/* With `abstract`, the root children's moves are keys: back to the root's
 * own candidates (its hand is the view's, the same in every
 * determinization; a key no candidate has stays as it is). */
static void concrete_root(struct root_stat *rs, int n, const struct bat_state *root,
                          int actions)
{
    gmove cand[BAT_MAX_CAND];
    int nc = bat_candidates(root, actions, cand, BAT_MAX_CAND);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < nc; j++)
            if (bat_move_key(root, cand[j]) == rs[i].move) {
                rs[i].move = cand[j];
                break;
            }
}

/* The root children of t, in sibling order; their number. */
static int root_stats(const struct bat_tree *t, struct root_stat *rs)
{
    int n = 0;
    for (int32_t c = t->n[0].child; c >= 0; c = t->n[c].sibling) {
        const struct node *nd = &t->n[c];
        assert(n < BAT_MAX_CAND);
        rs[n].move = nd->move;
        rs[n].player = nd->player;
        rs[n].visits = nd->visits;
        memcpy(rs[n].reward, nd->reward, sizeof rs[n].reward);
        n++;
    }
    return n;
}

/* The root action to play: the most visited, or with final > 0 the best
 * mean reward among the actions visited at least final times as often as
 * the most visited (ties: the first in order). */
static const struct root_stat *final_child(const struct root_stat *rs, int n, double final)
{
    const struct root_stat *best = NULL, *most = NULL;
    for (int i = 0; i < n; i++)
        if (!most || rs[i].visits > most->visits)
            most = &rs[i];
    if (final <= 0 || !most || !most->visits)
        return most;
    for (int i = 0; i < n; i++) {
        const struct root_stat *nd = &rs[i];
        if (nd->visits < final * (double)most->visits || !nd->visits)
            continue;
        if (!best || nd->reward[nd->player] / (double)nd->visits >
                         best->reward[best->player] / (double)best->visits)
            best = nd;
    }
    return best;
}

static uint32_t visits32(uint64_t v)
{
    return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

static void report_stats(const struct root_stat *rs, int n, const struct bat_state *root,
                         double final, uint64_t it, size_t nodes, int64_t t0,
                         struct bat_report *rep)
{
    const struct root_stat *best = final_child(rs, n, final);
    memset(rep, 0, sizeof *rep);
    rep->iterations = it;
    rep->nodes = nodes;
    rep->us = now_us() - t0;
    rep->nseats = root->nseats;
    rep->best = GAME_MOVE_NONE;
    for (int i = 0; i < n; i++) {
        const struct root_stat *nd = &rs[i];
        int k;
        if (!nd->visits)
            continue;
        /* insertion by visits (ties keep the order of the best-move scan) */
        for (k = rep->nlines; k > 0 && rep->lines[k - 1].visits < visits32(nd->visits); k--)
            if (k < BAT_REPORT_LINES)
                rep->lines[k] = rep->lines[k - 1];
        if (k >= BAT_REPORT_LINES)
            continue;
        rep->lines[k].move = nd->move;
        rep->lines[k].visits = visits32(nd->visits);
        for (int s = 0; s < root->nseats; s++)
            rep->lines[k].values[s] = nd->reward[s] / (double)nd->visits;
        if (rep->nlines < BAT_REPORT_LINES)
            rep->nlines++;
    }
    if (best && best->visits) {
        rep->best = best->move;
        rep->best_visits = visits32(best->visits);
        for (int s = 0; s < root->nseats; s++)
            rep->values[s] = best->reward[s] / (double)best->visits;
    }
}

static void report(struct bat_tree *t, const struct bat_state *root,
                   const struct bat_search_params *p, uint64_t it, int64_t t0,
                   struct bat_report *rep)
{
    int n = root_stats(t, t->rs);
    if (p->abstract)
        concrete_root(t->rs, n, root, p->actions);
    report_stats(t->rs, n, root, p->final, it, t->used, t0, rep);
}

/* Common random numbers (`crn`): the k-th visit of every root action is
 * played in the same determinization, dealt (from the seat's view, as
 * always) by a generator seeded from the search's base and k, which also
 * drives the rest of that iteration: the actions are compared on the same
 * hidden hands and the same draw pile, so their difference is measured with
 * less noise than over independent deals. */
void bat_crn_determinize(const struct bat_state *view, const struct bat_search_params *p,
                         uint64_t base, uint64_t k, struct rng *rr, struct bat_state *full)
{
    rng_seed(rr, mix64(base, k));
    bat_determinize(view, p, rr, full);
}

static struct rng *crn_deal(const struct bat_state *root, const struct bat_search_params *p,
                            uint64_t base, uint64_t k, struct rng *rr, struct bat_state *d,
                            int *need)
{
    bat_crn_determinize(root, p, base, k, rr, d);
    *need = 0;
    return rr;
}

gmove bat_search(struct bat_tree *t, const struct bat_state *pos,
                 const struct bat_search_params *p, struct rng *r,
                 struct bat_report *rep)
{
    struct bat_state root, d;
    struct rng crn_rng;
    uint64_t crn_base;
    gmove cand[BAT_MAX_CAND], key[BAT_MAX_CAND];
    int32_t path[MAX_PATH];
    int64_t t0 = now_us(), next_report = t0 + p->report_us;
    uint64_t it;
    int attacks_end;
    if (pos->is_view)
        root = *pos;
    else
        bat_make_view(pos, pos->act, &root);
    attacks_end = root.attacks + p->cutoff;
    t->used = 0;
    new_node(t, GAME_MOVE_NONE, root.act);
    {
        /* a single choice needs no search */
        int n = bat_candidates(&root, p->actions, cand, BAT_MAX_CAND);
        if (n == 0) {
            report(t, &root, p, 0, t0, rep);
            return GAME_MOVE_NONE;
        }
        if (n == 1) {
            report(t, &root, p, 0, t0, rep);
            rep->best = cand[0];
            return cand[0];
        }
        if (bat_unsearched(p, &root)) {
            /* a phase played the heuristic's way, unsearched */
            report(t, &root, p, 0, t0, rep);
            rep->best = bat_heuristic_move(&root, r);
            return rep->best;
        }
    }
    crn_base = p->crn ? rng_next(r) : 0;
    for (it = 0; !p->iterations || it < p->iterations; it++) {
        double reward[BAT_MAX_SEATS];
        int depth = 0, need_det = 0;
        int32_t cur = 0;
        struct rng *rw;
        if ((it & 15) == 0 && it) {
            if (p->progress) {
                atomic_store_explicit(&p->progress->iterations, it, memory_order_relaxed);
                atomic_store_explicit(&p->progress->nodes, t->used, memory_order_relaxed);
            }
            if (p->stop && p->stop(p->stop_ctx))
                break;
            if (p->report && now_us() >= next_report) {
                report(t, &root, p, it, t0, rep);
                p->report(p->report_ctx, rep);
                next_report = now_us() + p->report_us;
            }
        }
        if (p->oracle && !pos->is_view) {
            /* a measurement only: the other hands as they are, the pile's
             * order unknown */
            d = *pos;
            for (int i = d.ndeck - 1; i > 0; i--) {
                int j = (int)rng_below(r, (uint64_t)i + 1);
                uint8_t x = d.deck[i];
                d.deck[i] = d.deck[j];
                d.deck[j] = x;
            }
        } else if (p->crn) {
            d = root; /* dealt once the root action is chosen */
            need_det = 1;
        } else {
            bat_determinize(&root, p, r, &d);
        }
        rw = r;
        path[depth++] = 0;
        while (!cut(&d, attacks_end) && depth < MAX_PATH) {
            int nc = bat_candidates(&d, p->actions, cand, BAT_MAX_CAND), nun = 0, besti = -1;
            uint8_t tried[BAT_MAX_CAND];
            const gmove *keys = cand;
            gmove hkey = GAME_MOVE_NONE;
            int32_t best = -1;
            double bv = -1e300;
            if (nc <= 0)
                break;
            if (p->abstract && (d.phase == BAT_ATTACK || d.phase == BAT_DEFEND)) {
                uint32_t pairs[4];
                pair_masks(&d, pairs);
                for (int i = 0; i < nc; i++)
                    key[i] = key_of(cand[i], pairs);
                keys = key;
            } else if (p->root_sym && d.phase == BAT_DISCARD && cur == 0) {
                discard_classes(&d, cand, nc, key, 0);
                keys = key;
            } else if (p->own_sym && d.phase == BAT_DISCARD && cur != 0 && d.act == root.act) {
                discard_classes(&d, cand, nc, key, 1);
                keys = key;
            } else if (p->abstract_discard && d.phase == BAT_DISCARD && cur != 0) {
                for (int i = 0; i < nc; i++)
                    key[i] = discard_key(&d, cand[i]);
                keys = key;
            }
            if (d.act != root.act &&
                ((p->opp_model_collect && d.phase <= BAT_DISCARD) ||
                 (p->opp_model_bid && d.phase == BAT_BID) ||
                 (p->opp_model > 0 && rng_double(rw) < p->opp_model))) {
                /* the opponent model: another seat plays the heuristic */
                gmove m = bat_heuristic_move(&d, rw);
                gmove mk = p->abstract ? bat_move_key(&d, m) : m;
                if (p->abstract_discard && cur != 0)
                    mk = discard_key(&d, mk);
                int32_t c;
                for (c = t->n[cur].child; c >= 0 && t->n[c].move != mk; c = t->n[c].sibling)
                    ;
                if (c < 0) {
                    c = new_node(t, mk, d.act);
                    if (c < 0)
                        break;
                    t->n[c].sibling = t->n[cur].child;
                    t->n[cur].child = c;
                }
                t->n[c].avail++;
                bat_play(&d, m);
                path[depth++] = c;
                if (t->n[c].visits == 0)
                    break; /* a new node: the playout starts here */
                cur = c;
                continue;
            }
            memset(tried, 0, (size_t)nc);
            index_moves(&t->ix, keys, nc);
            if (keys != cand) /* a key's first candidate stands for it */
                for (int i = 0; i < nc; i++)
                    if (find_move(&t->ix, keys, keys[i]) != i)
                        tried[i] = 1;
            if (p->prog_bias > 0 && t->n[cur].child >= 0) {
                /* `prog_bias`: the heuristic's move gets a bonus fading with visits */
                gmove h = bat_heuristic_move(&d, rw);
                for (int i = 0; i < nc; i++)
                    if (cand[i] == h) {
                        hkey = keys[i];
                        break;
                    }
            }
            for (int32_t c = t->n[cur].child; c >= 0; c = t->n[c].sibling) {
                struct node *ch = &t->n[c];
                int i = find_move(&t->ix, keys, ch->move);
                if (i < 0)
                    continue; /* not available in this determinization */
                tried[i] = 1;
                ch->avail++;
                {
                    double v = ch->reward[ch->player] / ch->visits +
                               p->explore * sqrt(log((double)ch->avail) / ch->visits);
                    if (ch->move == hkey)
                        v += p->prog_bias / (ch->visits + 1);
                    if (v > bv) {
                        bv = v;
                        best = c;
                        besti = i;
                    }
                }
            }
            for (int i = 0; i < nc; i++)
                nun += !tried[i];
            if (nun > 0 && t->used < t->max) {
                int k = -1, i = nc;
                int32_t c;
                if (p->expand_heuristic) { /* the heuristic's move first */
                    gmove h = bat_heuristic_move(&d, rw);
                    for (i = 0; i < nc && cand[i] != h; i++)
                        ;
                    if (i < nc && tried[i])
                        i = nc;
                }
                if (i == nc) {
                    k = (int)rng_below(rw, (uint64_t)nun);
                    for (i = 0; i < nc; i++)
                        if (!tried[i] && k-- == 0)
                            break;
                }
                c = new_node(t, keys[i], d.act);
                t->n[c].avail = 1;
                t->n[c].sibling = t->n[cur].child;
                t->n[cur].child = c;
                if (need_det)
                    rw = crn_deal(&root, p, crn_base, 0, &crn_rng, &d, &need_det);
                bat_play(&d, cand[i]);
                path[depth++] = c;
                break;
            }
            if (best < 0)
                break;
            if (need_det)
                rw = crn_deal(&root, p, crn_base, t->n[best].visits, &crn_rng, &d, &need_det);
            bat_play(&d, cand[besti]);
            path[depth++] = best;
            cur = best;
        }
        if (need_det) /* no root action taken (a full tree) */
            rw = crn_deal(&root, p, crn_base, it, &crn_rng, &d, &need_det);
        bat_playout(&d, attacks_end, p, root.act, rw, reward);
        for (int i = 0; i < depth; i++) {
            struct node *nd = &t->n[path[i]];
            nd->visits++;
            for (int s = 0; s < root.nseats; s++)
                nd->reward[s] += reward[s];
        }
    }
    report(t, &root, p, it, t0, rep);
    return rep->best;
}

/* ---- root parallelism ----------------------------------------------------- */
struct par_worker;

struct par_shared {
    atomic_bool stop;    /* set by the calling thread: every thread ends */
    atomic_int running;  /* helper threads not yet done */
    const struct bat_search_params *p; /* the caller's (stop, report) */
    struct par_worker *w;
    int nthreads;
};

/* One thread's: what it writes as it searches (its random state, its
 * figures) lies in its own cache lines, not next to another thread's. */
struct par_worker {
    _Alignas(64) struct rng rng;
    _Alignas(64) struct bat_progress prog;
    _Alignas(64) struct par_shared *sh;
    struct bat_tree *t;
    const struct bat_state *view;
    struct bat_search_params p;
    struct bat_report rep;
    pthread_t tid;
};

static int helper_stop(void *ctx)
{
    const struct par_shared *sh = ctx;
    return atomic_load(&sh->stop);
}

/* The calling thread's stop: the caller's, passed on to every thread. */
static int main_stop(void *ctx)
{
    struct par_shared *sh = ctx;
    if (atomic_load(&sh->stop))
        return 1;
    if (sh->p->stop && sh->p->stop(sh->p->stop_ctx)) {
        atomic_store(&sh->stop, true);
        return 1;
    }
    return 0;
}

/* The running figures: every thread's iterations and nodes, the first
 * thread's root statistics. */
static void main_report(void *ctx, const struct bat_report *rep)
{
    struct par_shared *sh = ctx;
    struct bat_report all = *rep;
    all.iterations = 0;
    all.nodes = 0;
    for (int i = 0; i < sh->nthreads; i++) {
        all.iterations += atomic_load_explicit(&sh->w[i].prog.iterations, memory_order_relaxed);
        all.nodes += (size_t)atomic_load_explicit(&sh->w[i].prog.nodes, memory_order_relaxed);
    }
    sh->p->report(sh->p->report_ctx, &all);
}

static void *helper_main(void *arg)
{
    struct par_worker *w = arg;
    bat_search(w->t, w->view, &w->p, &w->rng, &w->rep);
    atomic_fetch_sub(&w->sh->running, 1);
    return NULL;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Add the root children of t to the sums rs[0..*n), matched by action
 * (new actions appended in t's sibling order). */
static void merge_root(const struct bat_tree *t, struct root_stat *rs, int *n)
{
    for (int32_t c = t->n[0].child; c >= 0; c = t->n[c].sibling) {
        const struct node *nd = &t->n[c];
        int i;
        for (i = 0; i < *n && rs[i].move != nd->move; i++)
            ;
        if (i == *n) {
            assert(*n < BAT_MAX_CAND);
            memset(&rs[i], 0, sizeof rs[i]);
            rs[i].move = nd->move;
            rs[i].player = nd->player;
            (*n)++;
        }
        rs[i].visits += nd->visits;
        for (int s = 0; s < BAT_MAX_SEATS; s++)
            rs[i].reward[s] += nd->reward[s];
    }
}

gmove bat_search_par(struct bat_tree *const *trees, int nthreads, const struct bat_state *view,
                     const struct bat_search_params *p, struct rng *r,
                     struct bat_report *rep)
{
    struct root_stat *rs = trees[0]->rs; /* thread 0's: used once all are done */
    struct par_worker *w;
    struct par_shared sh;
    struct bat_state root;
    gmove cand[BAT_MAX_CAND];
    int64_t t0 = now_us();
    uint64_t iterations = 0;
    size_t nodes = 0;
    int n = 0, nc, started;
    assert(nthreads >= 1 && nthreads <= BAT_MAX_THREADS);
    if (p->iterations && p->iterations < (uint64_t)nthreads)
        nthreads = (int)p->iterations;
    if (view->is_view)
        root = *view;
    else
        bat_make_view(view, view->act, &root);
    nc = bat_candidates(&root, p->actions, cand, BAT_MAX_CAND);
    /* nothing to search (bat_search answers at once): one thread */
    if (nthreads == 1 || nc <= 1 || bat_unsearched(p, &root))
        return bat_search(trees[0], view, p, &r[0], rep);
    memset(&sh, 0, sizeof sh);
    atomic_init(&sh.stop, false);
    atomic_init(&sh.running, 0);
    sh.p = p;
    sh.nthreads = nthreads;
    w = aligned_alloc(64, (size_t)nthreads * sizeof *w);
    if (!w)
        die("out of memory"); /* exit-ok: out of memory */
    memset(w, 0, (size_t)nthreads * sizeof *w);
    sh.w = w;
    for (int i = 0; i < nthreads; i++) {
        struct par_worker *x = &w[i];
        x->sh = &sh;
        x->t = trees[i];
        /* every thread gets the seat's view, never a full state (but the
         * oracle measurement's, which searches the full state) */
        x->view = p->oracle ? view : &root;
        x->p = *p;
        x->rng = r[i];
        atomic_init(&x->prog.iterations, 0);
        atomic_init(&x->prog.nodes, 0);
        x->p.progress = &x->prog;
        if (p->iterations)
            x->p.iterations = p->iterations / (uint64_t)nthreads +
                              (i == 0 ? p->iterations % (uint64_t)nthreads : 0);
        x->p.stop = i == 0 ? main_stop : helper_stop;
        x->p.stop_ctx = &sh;
        x->p.report = i == 0 && p->report ? main_report : NULL;
        x->p.report_ctx = &sh;
    }
    started = 1;
    for (int i = 1; i < nthreads; i++) {
        atomic_fetch_add(&sh.running, 1);
        if (pthread_create(&w[i].tid, NULL, helper_main, &w[i])) {
            atomic_fetch_sub(&sh.running, 1);
            break; /* no more threads: search with those there are */
        }
        started++;
    }
    bat_search(w[0].t, w[0].view, &w[0].p, &w[0].rng, &w[0].rep);
    /* the first thread is done: its budget spent, or stopped; the others
     * run on to their budgets while the caller's stop is watched */
    while (atomic_load(&sh.running) > 0) {
        if (!atomic_load(&sh.stop))
            main_stop(&sh);
        sleep_ms(1);
    }
    for (int i = 1; i < started; i++)
        pthread_join(w[i].tid, NULL);
    for (int i = 0; i < nthreads; i++)
        r[i] = w[i].rng; /* the streams go on from here next time */
    for (int i = 0; i < started; i++) {
        merge_root(w[i].t, rs, &n);
        iterations += w[i].rep.iterations;
        nodes += w[i].rep.nodes;
    }
    if (p->abstract)
        concrete_root(rs, n, &root, p->actions);
    report_stats(rs, n, &root, p->final, iterations, nodes, t0, rep);
    free(w);
    return rep->best;
}
