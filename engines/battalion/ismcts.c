/* ismcts.c - SO-ISMCTS for Battalion (see ismcts.h). */
#include "ismcts.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"

#define EVAL_STRENGTH 0.25 /* chips per point of the best suit in hand */
#define EVAL_SCALE 4.0     /* chips: width of the reward's sigmoid */
#define DET_TRIES 48       /* rejection samples per constrained hand */
#define MAX_PATH 512

struct node {
    gmove move;
    int32_t child, sibling; /* -1 = none */
    uint32_t visits, avail;
    uint8_t player;         /* the seat that chose `move` */
    double reward[BAT_MAX_SEATS];
};

struct bat_tree {
    struct node *n;
    size_t used, max;
};

void bat_search_defaults(struct bat_search_params *p)
{
    memset(p, 0, sizeof *p);
    p->cutoff = 4;
    p->explore = 0.7;
    p->epsilon = 0.1;
    p->report_us = 1000000;
}

struct bat_tree *bat_tree_new(size_t max_nodes)
{
    struct bat_tree *t = xcalloc(1, sizeof *t);
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

/* ---- determinization ---------------------------------------------------- */
static int bid_untouched(const struct bat_state *v)
{
    return v->phase >= BAT_BID &&
           (v->attacks == 0 || (v->attacks == 1 && v->phase == BAT_DEFEND));
}

static int satisfies(const struct bat_state *st, int s)
{
    if (st->phase == BAT_ATTACK && s == st->act && !bat_can_attack(st, s))
        return 0;
    if (bid_untouched(st) && st->bid[s] > 0) {
        uint8_t h[BAT_NCARD];
        memcpy(h, st->hand[s], sizeof h);
        if (st->phase == BAT_DEFEND && s == st->attacker)
            for (int c = 0; c < BAT_NCARD; c++)
                h[c] = (uint8_t)(h[c] + st->battle[c]);
        if (bat_best_suit_points(h) < st->bid[s])
            return 0;
    }
    return 1;
}

void bat_determinize(const struct bat_state *view, struct rng *r,
                     struct bat_state *full)
{
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
        for (int tries = 0; tries < DET_TRIES; tries++) {
            /* partial Fisher-Yates: u random cards to pool[np-u .. np) */
            for (int k = 0; k < u; k++) {
                int j = (int)rng_below(r, (uint64_t)(np - k));
                uint8_t t = pool[j];
                pool[j] = pool[np - 1 - k];
                pool[np - 1 - k] = t;
            }
            memcpy(full->hand[s], view->hand[s], BAT_NCARD);
            for (int k = 0; k < u; k++)
                full->hand[s][pool[np - 1 - k]]++;
            if (satisfies(full, s))
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
static void evaluate(const struct bat_state *st, double *reward)
{
    int N = st->nseats;
    double v[BAT_MAX_SEATS], sum = 0;
    int over = bat_over(st);
    for (int s = 0; s < N; s++) {
        v[s] = st->chips[s];
        if (!over)
            v[s] += EVAL_STRENGTH * bat_best_suit_points(st->hand[s]);
        sum += v[s];
    }
    for (int s = 0; s < N; s++) {
        double others = (sum - v[s]) / (N - 1);
        reward[s] = 1.0 / (1.0 + exp(-(v[s] - others) / EVAL_SCALE));
    }
}

static int cut(const struct bat_state *st, int attacks_end)
{
    return bat_over(st) || (st->phase == BAT_ATTACK && st->attacks >= attacks_end);
}

static gmove playout_move(const struct bat_state *st, double eps, struct rng *r)
{
    if (eps > 0 && rng_double(r) < eps) {
        gmove c[BAT_MAX_CAND];
        int n = bat_candidates(st, c, BAT_MAX_CAND);
        if (n > 0)
            return c[rng_below(r, (uint64_t)n)];
    }
    return bat_heuristic_move(st, r);
}

void bat_playout(struct bat_state *st, int attacks_end, double eps,
                 struct rng *r, double *reward)
{
    for (int guard = 0; guard < 4096 && !cut(st, attacks_end); guard++) {
        gmove m = playout_move(st, eps, r);
        if (m == GAME_MOVE_NONE)
            break;
        bat_play(st, m);
    }
    evaluate(st, reward);
}

/* ---- the tree ------------------------------------------------------------- */
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

static void report(const struct bat_tree *t, const struct bat_state *root,
                   uint64_t it, int64_t t0, struct bat_report *rep)
{
    const struct node *best = NULL;
    memset(rep, 0, sizeof *rep);
    rep->iterations = it;
    rep->nodes = t->used;
    rep->us = now_us() - t0;
    rep->nseats = root->nseats;
    rep->best = GAME_MOVE_NONE;
    for (int32_t c = t->n[0].child; c >= 0; c = t->n[c].sibling)
        if (!best || t->n[c].visits > best->visits)
            best = &t->n[c];
    for (int32_t c = t->n[0].child; c >= 0; c = t->n[c].sibling) {
        const struct node *nd = &t->n[c];
        int k;
        if (!nd->visits)
            continue;
        /* insertion by visits (ties keep the order of the best-move scan) */
        for (k = rep->nlines; k > 0 && rep->lines[k - 1].visits < nd->visits; k--)
            if (k < BAT_REPORT_LINES)
                rep->lines[k] = rep->lines[k - 1];
        if (k >= BAT_REPORT_LINES)
            continue;
        rep->lines[k].move = nd->move;
        rep->lines[k].visits = nd->visits;
        for (int s = 0; s < root->nseats; s++)
            rep->lines[k].values[s] = nd->reward[s] / nd->visits;
        if (rep->nlines < BAT_REPORT_LINES)
            rep->nlines++;
    }
    if (best && best->visits) {
        rep->best = best->move;
        rep->best_visits = best->visits;
        for (int s = 0; s < root->nseats; s++)
            rep->values[s] = best->reward[s] / best->visits;
    }
}

gmove bat_search(struct bat_tree *t, const struct bat_state *pos,
                 const struct bat_search_params *p, struct rng *r,
                 struct bat_report *rep)
{
    struct bat_state root, d;
    gmove cand[BAT_MAX_CAND];
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
        int n = bat_candidates(&root, cand, BAT_MAX_CAND);
        if (n == 0) {
            report(t, &root, 0, t0, rep);
            return GAME_MOVE_NONE;
        }
        if (n == 1) {
            report(t, &root, 0, t0, rep);
            rep->best = cand[0];
            return cand[0];
        }
    }
    for (it = 0; !p->iterations || it < p->iterations; it++) {
        double reward[BAT_MAX_SEATS];
        int depth = 0;
        int32_t cur = 0;
        if ((it & 15) == 0 && it) {
            if (p->stop && p->stop(p->stop_ctx))
                break;
            if (p->report && now_us() >= next_report) {
                report(t, &root, it, t0, rep);
                p->report(p->report_ctx, rep);
                next_report = now_us() + p->report_us;
            }
        }
        bat_determinize(&root, r, &d);
        path[depth++] = 0;
        while (!cut(&d, attacks_end) && depth < MAX_PATH) {
            int nc = bat_candidates(&d, cand, BAT_MAX_CAND), nun = 0;
            uint8_t tried[BAT_MAX_CAND];
            int32_t best = -1;
            double bv = -1e300;
            if (nc <= 0)
                break;
            memset(tried, 0, (size_t)nc);
            for (int32_t c = t->n[cur].child; c >= 0; c = t->n[c].sibling) {
                struct node *ch = &t->n[c];
                int i;
                for (i = 0; i < nc && cand[i] != ch->move; i++)
                    ;
                if (i == nc)
                    continue; /* not available in this determinization */
                tried[i] = 1;
                ch->avail++;
                {
                    double v = ch->reward[ch->player] / ch->visits +
                               p->explore * sqrt(log((double)ch->avail) / ch->visits);
                    if (v > bv) {
                        bv = v;
                        best = c;
                    }
                }
            }
            for (int i = 0; i < nc; i++)
                nun += !tried[i];
            if (nun > 0 && t->used < t->max) {
                int k = (int)rng_below(r, (uint64_t)nun), i;
                int32_t c;
                for (i = 0; i < nc; i++)
                    if (!tried[i] && k-- == 0)
                        break;
                c = new_node(t, cand[i], d.act);
                t->n[c].avail = 1;
                t->n[c].sibling = t->n[cur].child;
                t->n[cur].child = c;
                bat_play(&d, cand[i]);
                path[depth++] = c;
                break;
            }
            if (best < 0)
                break;
            bat_play(&d, t->n[best].move);
            path[depth++] = best;
            cur = best;
        }
        bat_playout(&d, attacks_end, p->epsilon, r, reward);
        for (int i = 0; i < depth; i++) {
            struct node *nd = &t->n[path[i]];
            nd->visits++;
            for (int s = 0; s < root.nseats; s++)
                nd->reward[s] += reward[s];
        }
    }
    report(t, &root, it, t0, rep);
    return rep->best;
}
