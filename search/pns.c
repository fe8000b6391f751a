/* pns.c - depth-first proof-number search (see pns.h).
 *
 * Proof and disproof numbers are kept from the attacker's view (the seat
 * whose win a run proves): pn 0 = the attacker wins, dn 0 = it does not
 * (a loss or a draw for it).  An OR node is one where the attacker moves:
 * pn = min over the children, dn = their sum; an AND node the reverse.
 * MID (Nagai's multiple iterative deepening) searches a node until its pn
 * or dn reaches its thresholds, always going down the most-proving child
 * with thresholds from the second best: the 1+epsilon trick lets the
 * child run until it is epsilon worse than the second best (not merely
 * one worse), which cuts the thrashing between two close children that
 * makes plain df-pn slow in LOA (Pawlewicz & Lew 2007).
 *
 * Repetition.  LOA and Fetlar draw by threefold repetition, and Fetlar
 * also after 100 plies without a capture (a count the game's hash leaves
 * out: the table's key is pns_ops.key, which holds it).  The solver takes
 * any position met earlier on the line or in the game's history as a draw
 * (no win for either side).  That only takes options away from both
 * sides, so a proof stays a proof under the real rules: a proof never runs
 * through such a node, and proofs only ever use earlier proofs and
 * terminal positions, so there is no cycle in what a proof rests on.  A
 * disproof that rests on such a draw (or on the cut at PNS_MAX_PLY) holds
 * only on its line: it is stored with the hash of its path and read only
 * on that same path (elsewhere it is a miss); a disproof resting on
 * rules-only draws and losses is stored for every path.  Disproofs are
 * never reported (a solve with neither side winning is `unknown`).  The
 * table is emptied (a new generation) at every solve, since the history
 * changes what a position's line may meet.
 *
 * The table: buckets of 4 entries of 32 bytes; an entry of an older
 * generation is empty; the one replaced is the one with the least work
 * (positions searched under it), so proofs of big subtrees stay.
 */
#include "pns.h"

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../core/util.h"

#define INF 0x3fffffffu
#define BUCKET 4
#define F_PATH 1 /* a disproof valid only on the path stored with it */

struct pns_entry {
    uint64_t key;
    uint64_t path; /* F_PATH: the path's hash */
    uint32_t pn, dn;
    uint32_t work;
    uint16_t dist; /* proven: plies to the end */
    uint8_t gen, flags;
};
_Static_assert(sizeof(struct pns_entry) == 32, "an entry is 32 bytes");

/* the fixed value of a child, known when it is made */
enum { FIX_NONE = 0, FIX_WIN = 1, FIX_LOSS = 2, FIX_PATH = 3 };
#define CM_OR 0x8000 /* cmob: the attacker moves in the child */

/* A node's values as its parent reads them. */
struct val {
    uint32_t pn, dn, dist;
    int path; /* a disproof resting on the path */
};

int pns_init(struct pns *p, const struct game *g, const struct pns_ops *ops, size_t mb)
{
    size_t buckets = 1, bytes;
    memset(p, 0, sizeof *p);
    p->game = g;
    if (ops)
        p->ops = *ops;
    p->eps = PNS_EPSILON;
    if (!mb)
        mb = 1;
    if (mb > ((size_t)1 << 20))
        return -1;
    bytes = mb << 20;
    while (buckets * 2 * BUCKET * sizeof(struct pns_entry) <= bytes)
        buckets *= 2;
    p->tt = calloc(buckets * BUCKET, sizeof *p->tt);
    p->mask = buckets - 1;
    p->stack = malloc((PNS_MAX_PLY + 2) * g->state_size);
    p->moves = malloc((PNS_MAX_PLY + 1) * (size_t)g->max_moves * sizeof *p->moves);
    p->ckeys = malloc((PNS_MAX_PLY + 1) * (size_t)g->max_moves * sizeof *p->ckeys);
    p->cfix = malloc((PNS_MAX_PLY + 1) * (size_t)g->max_moves);
    p->cmob = malloc((PNS_MAX_PLY + 1) * (size_t)g->max_moves * sizeof *p->cmob);
    p->ghash = malloc((PNS_MAX_PLY + 2) * sizeof *p->ghash);
    p->pathh = malloc((PNS_MAX_PLY + 2) * sizeof *p->pathh);
    if (!p->tt || !p->stack || !p->moves || !p->ckeys || !p->cfix || !p->cmob || !p->ghash || !p->pathh) {
        pns_free(p);
        return -1;
    }
    return 0;
}

void pns_free(struct pns *p)
{
    free(p->tt);
    free(p->stack);
    free(p->moves);
    free(p->ckeys);
    free(p->cfix);
    free(p->cmob);
    free(p->ghash);
    free(p->pathh);
    free(p->hist);
    memset(p, 0, sizeof *p);
}

/* ---- the table ------------------------------------------------------------- */

/* Empty the table (every 255 solves): its whole pages handed back to the
 * system, which gives zeroed pages at their next touch, and only the
 * partial pages at its ends cleared here.  A memset of the whole table ran
 * inside a timed search and touched every page of a Hash-sized table: 214
 * ms with `go movetime 20` the first time (Fetlar, Hash 64), a time forfeit
 * at st=0.1.  Where the system refuses, the memset. */
static void table_clear(struct pns_entry *t, size_t bytes)
{
    long pg = sysconf(_SC_PAGESIZE);
    uintptr_t a = (uintptr_t)t, end = a + bytes;
    uintptr_t lo = pg > 0 ? (a + (uintptr_t)pg - 1) & ~((uintptr_t)pg - 1) : 0;
    uintptr_t hi = pg > 0 ? end & ~((uintptr_t)pg - 1) : 0;
    if (pg <= 0 || hi <= lo || madvise((void *)lo, hi - lo, MADV_DONTNEED) != 0) {
        memset(t, 0, bytes);
        return;
    }
    memset(t, 0, lo - a);
    memset((void *)hi, 0, end - hi);
}

static uint64_t tkey(const struct pns *p, uint64_t key)
{
    /* the two questions of a solve have their own entries */
    return p->attacker == 2 ? key ^ 0x9e3779b97f4a7c15ULL : key;
}

static struct pns_entry *bucket(struct pns *p, uint64_t k)
{
    return p->tt + ((k >> 7) & p->mask) * BUCKET;
}

static int lookup(struct pns *p, uint64_t key, uint64_t path, struct val *v)
{
    uint64_t k = tkey(p, key);
    struct pns_entry *b = bucket(p, k);
    for (int i = 0; i < BUCKET; i++)
        if (b[i].gen == p->gen && b[i].key == k) {
            if ((b[i].flags & F_PATH) && b[i].path != path)
                break;
            v->pn = b[i].pn;
            v->dn = b[i].dn;
            v->dist = b[i].dist;
            v->path = b[i].flags & F_PATH;
            return 1;
        }
    v->pn = v->dn = 1;
    v->dist = 0;
    v->path = 0;
    return 0;
}

static void store(struct pns *p, uint64_t key, uint64_t path, const struct val *v, uint64_t work)
{
    uint64_t k = tkey(p, key);
    struct pns_entry *b = bucket(p, k), *e = NULL;
    for (int i = 0; i < BUCKET && !e; i++)
        if (b[i].gen == p->gen && b[i].key == k)
            e = &b[i];
    for (int i = 0; i < BUCKET && !e; i++)
        if (b[i].gen != p->gen)
            e = &b[i];
    if (!e) {
        e = &b[0];
        for (int i = 1; i < BUCKET; i++)
            if (b[i].work < e->work)
                e = &b[i];
    }
    e->key = k;
    e->pn = v->pn;
    e->dn = v->dn;
    e->dist = (uint16_t)(v->dist > 65535 ? 65535 : v->dist);
    e->gen = p->gen;
    e->flags = v->path && v->dn == 0 ? F_PATH : 0;
    e->path = e->flags ? path : 0;
    e->work = work > UINT32_MAX ? UINT32_MAX : (uint32_t)work;
}

/* ---- positions --------------------------------------------------------------- */
static uint64_t pkey(const struct pns *p, const void *st)
{
    return p->ops.key ? p->ops.key(st) : p->game->hash(st);
}

static int terminal(const struct pns *p, const void *st, int *outcome)
{
    struct game_result r;
    if (p->ops.terminal)
        return p->ops.terminal(st, outcome);
    p->game->result(st, NULL, 0, &r);
    if (!r.over)
        return 0;
    int me = p->game->to_move(st) - 1, best = 1, tie = 0;
    for (int i = 0; i < r.nseats; i++) {
        if (i != me && r.rank[i] < r.rank[me])
            best = 0;
        if (i != me && r.rank[i] == r.rank[me])
            tie = 1;
    }
    *outcome = tie ? 0 : best ? 1 : -1;
    return 1;
}

static int in_history(const struct pns *p, uint64_t h)
{
    int lo = 0, hi = p->nhist;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (p->hist[mid] < h)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->nhist && p->hist[lo] == h;
}

/* Is the game hash h met before on the line to ply (ancestors 0..ply) or
 * in the game's history? */
static int repeated(const struct pns *p, int ply, uint64_t h)
{
    if (!p->pathcount[h & 4095])
        return 0;
    for (int i = ply; i >= 0; i--)
        if (p->ghash[i] == h)
            return 1;
    return in_history(p, h);
}

static void *ply_state(struct pns *p, int ply)
{
    return p->stack + (size_t)ply * p->game->state_size;
}

static int out_of_budget(struct pns *p)
{
    if (p->stopped)
        return 1;
    if ((p->stop && atomic_load_explicit(p->stop, memory_order_relaxed)) ||
        (p->node_limit && p->nodes >= p->node_limit))
        p->stopped = 1;
    else if (p->deadline_us && now_us() >= p->deadline_us)
        p->stopped = 1;
    return p->stopped;
}

/* Make the children of the node at ply: their moves, keys and fixed values
 * (terminal, repeated, past the depth cut).  Returns their number; -1 when
 * the node itself is over (no legal move), with *v set. */
static int expand(struct pns *p, int ply, int *fixed_any)
{
    const struct game *g = p->game;
    const void *st = ply_state(p, ply);
    gmove *mv = p->moves + (size_t)ply * (size_t)g->max_moves;
    uint64_t *ck = p->ckeys + (size_t)ply * (size_t)g->max_moves;
    unsigned char *cf = p->cfix + (size_t)ply * (size_t)g->max_moves;
    uint16_t *cm = p->cmob + (size_t)ply * (size_t)g->max_moves;
    void *child = ply_state(p, ply + 1);
    int n = game_gen_moves(g, st, mv);
    *fixed_any = 0;
    for (int i = 0; i < n; i++) {
        int outcome;
        memcpy(child, st, g->state_size);
        g->play(child, mv[i]);
        p->nodes++;
        ck[i] = pkey(p, child);
        cf[i] = FIX_NONE;
        int mover = g->to_move(child);
        cm[i] = 1;
        if (terminal(p, child, &outcome)) {
            int win = outcome == 0 ? 0 : (outcome > 0) == (mover == p->attacker);
            cf[i] = win ? FIX_WIN : FIX_LOSS;
        } else if (ply + 1 >= PNS_MAX_PLY || repeated(p, ply, g->hash(child)))
            cf[i] = FIX_PATH;
        else {
            /* its moves, the first guess of the number it sums (df-pn+
             * style): a new node is as hard to refute as it has moves */
            int nm = game_count_moves(g, child);
            if (nm == 0) /* no legal move: the side to move loses */
                cf[i] = mover == p->attacker ? FIX_LOSS : FIX_WIN;
            cm[i] = (uint16_t)(nm < 1 ? 1 : nm > 32767 ? 32767 : nm);
            if (mover == p->attacker)
                cm[i] |= CM_OR;
        }
        if (cf[i])
            *fixed_any = 1;
    }
    return n;
}

static struct val child_val(struct pns *p, int ply, int i)
{
    struct val v = {1, 1, 0, 0};
    size_t at = (size_t)ply * (size_t)p->game->max_moves + (size_t)i;
    unsigned char f = p->cfix[at];
    if (f == FIX_WIN)
        v.pn = 0, v.dn = INF;
    else if (f == FIX_LOSS)
        v.pn = INF, v.dn = 0;
    else if (f == FIX_PATH)
        v.pn = INF, v.dn = 0, v.path = 1;
    else if (!lookup(p, p->ckeys[at], mix64(p->pathh[ply], p->ckeys[at]), &v)) {
        /* not searched yet: 1 for the number it minimises, its moves for
         * the one it sums */
        if (p->cmob[at] & CM_OR)
            v.dn = p->cmob[at] & ~CM_OR;
        else
            v.pn = p->cmob[at];
    }
    return v;
}

static uint32_t sat_add(uint32_t a, uint32_t b)
{
    if (a >= INF || b >= INF)
        return INF;
    return a + b >= INF ? INF - 1 : a + b;
}

/* The node's values from its children's; *best the child to search, *second
 * the second best's number (what the 1+epsilon threshold comes from). */
static struct val aggregate(struct pns *p, int ply, int n, int or_node, int *best,
                            uint32_t *second)
{
    struct val v = {0, 0, 0, 0};
    uint32_t b1 = UINT32_MAX, b2 = UINT32_MAX;
    int any_free_disproof = 0, disproofs_path = 0, maxdist = 0, mindist = 1 << 30;
    *best = -1;
    /* phi: the number the node minimises (pn at OR), delta: the one it sums */
    uint32_t phi = INF, delta = 0;
    for (int i = 0; i < n; i++) {
        struct val c = child_val(p, ply, i);
        uint32_t cphi = or_node ? c.pn : c.dn, cdelta = or_node ? c.dn : c.pn;
        if (cphi < b1) {
            b2 = b1;
            b1 = cphi;
            *best = i;
        } else if (cphi < b2)
            b2 = cphi;
        if (cphi < phi)
            phi = cphi;
        delta = sat_add(delta, cdelta);
        if (c.pn == 0) {
            if ((int)c.dist < mindist)
                mindist = (int)c.dist;
            if ((int)c.dist > maxdist)
                maxdist = (int)c.dist;
        } else if (c.dn == 0) {
            if (c.path)
                disproofs_path = 1;
            else
                any_free_disproof = 1;
        }
    }
    *second = b2 > INF ? INF : b2;
    if (or_node) {
        v.pn = phi;
        v.dn = delta;
    } else {
        v.dn = phi;
        v.pn = delta;
    }
    if (v.pn == 0)
        v.dist = 1 + (uint32_t)(or_node ? mindist : maxdist);
    if (v.dn == 0)
        /* OR: every child is disproven, one resting on the path taints it;
         * AND: one free disproof is enough */
        v.path = or_node ? disproofs_path : !any_free_disproof;
    return v;
}

static uint32_t eps_threshold(const struct pns *p, uint32_t second)
{
    double t;
    if (second >= INF)
        return INF;
    t = (double)second * (1.0 + p->eps);
    if (t < (double)second + 1)
        t = (double)second + 1;
    return t >= (double)INF ? INF : (uint32_t)t;
}

/* Search the node at ply until pn >= thpn or dn >= thdn (or the budget
 * ends); its values into *out. */
static void mid(struct pns *p, int ply, uint32_t thpn, uint32_t thdn, struct val *out)
{
    const struct game *g = p->game;
    const void *st = ply_state(p, ply);
    int or_node = g->to_move(st) == p->attacker, fixed_any, n;
    uint64_t nodes0 = p->nodes, key = pkey(p, st);
    uint64_t path = p->pathh[ply];
    struct val v;

    if (out_of_budget(p)) {
        lookup(p, key, path, out);
        return;
    }
    p->ghash[ply] = g->hash(st);
    p->pathcount[p->ghash[ply] & 4095]++;
    n = expand(p, ply, &fixed_any);
    if (n == 0) { /* no legal move: the side to move loses */
        p->pathcount[p->ghash[ply] & 4095]--;
        v.pn = or_node ? INF : 0;
        v.dn = or_node ? 0 : INF;
        v.dist = 0;
        v.path = 0;
        store(p, key, path, &v, 1);
        *out = v;
        return;
    }
    for (;;) {
        int best;
        uint32_t second, cth_pn, cth_dn;
        struct val c;
        v = aggregate(p, ply, n, or_node, &best, &second);
        if (v.pn >= thpn || v.dn >= thdn || v.pn == 0 || v.dn == 0 || p->stopped)
            break;
        c = child_val(p, ply, best);
        if (or_node) {
            cth_pn = eps_threshold(p, second);
            if (thpn < cth_pn)
                cth_pn = thpn;
            cth_dn = thdn >= INF ? INF : thdn - v.dn + c.dn;
        } else {
            cth_dn = eps_threshold(p, second);
            if (thdn < cth_dn)
                cth_dn = thdn;
            cth_pn = thpn >= INF ? INF : thpn - v.pn + c.pn;
        }
        /* descend */
        void *child = ply_state(p, ply + 1);
        memcpy(child, st, g->state_size);
        g->play(child, p->moves[(size_t)ply * (size_t)g->max_moves + best]);
        p->pathh[ply + 1] = mix64(path, p->ckeys[(size_t)ply * (size_t)g->max_moves + best]);
        mid(p, ply + 1, cth_pn, cth_dn, &c);
        if (out_of_budget(p)) {
            v = aggregate(p, ply, n, or_node, &best, &second);
            break;
        }
    }
    p->pathcount[p->ghash[ply] & 4095]--;
    store(p, key, path, &v, p->nodes - nodes0 + 1);
    *out = v;
}

/* ---- exact distance ------------------------------------------------------------ */
/* Does the attacker force a win within d plies from the node at ply?  A
 * plain AND/OR search (a repeated position: no win), with the table's
 * proofs short enough and its path-free disproofs as shortcuts. */
static int win_within(struct pns *p, int ply, int d, uint64_t budget)
{
    const struct game *g = p->game;
    const void *st = ply_state(p, ply);
    int or_node = g->to_move(st) == p->attacker, fixed_any, n, res;
    struct val v;
    if (d <= 0 || p->nodes >= budget || out_of_budget(p)) {
        if (d > 0)
            p->exact_budget_out = 1;
        return 0;
    }
    if (lookup(p, pkey(p, st), p->pathh[ply], &v)) {
        if (v.pn == 0 && (int)v.dist <= d)
            return 1;
        if (v.dn == 0 && !v.path)
            return 0;
    }
    p->ghash[ply] = g->hash(st);
    p->pathcount[p->ghash[ply] & 4095]++;
    n = expand(p, ply, &fixed_any);
    res = !or_node; /* no legal move: the side to move loses */
    for (int i = 0; i < n; i++) {
        unsigned char f = p->cfix[(size_t)ply * (size_t)g->max_moves + i];
        int w;
        if (f == FIX_WIN)
            w = 1;
        else if (f)
            w = 0;
        else if (d == 1)
            w = 0;
        else {
            void *child = ply_state(p, ply + 1);
            memcpy(child, st, g->state_size);
            g->play(child, p->moves[(size_t)ply * (size_t)g->max_moves + i]);
            p->pathh[ply + 1] =
                mix64(p->pathh[ply], p->ckeys[(size_t)ply * (size_t)g->max_moves + i]);
            w = win_within(p, ply + 1, d - 1, budget);
        }
        if (or_node && w) {
            res = 1;
            break;
        }
        if (!or_node && !w) {
            res = 0;
            break;
        }
    }
    p->pathcount[p->ghash[ply] & 4095]--;
    return res;
}

/* ---- the driver ------------------------------------------------------------------ */
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int set_history(struct pns *p, const uint64_t *hist, int nhist)
{
    free(p->hist);
    p->hist = NULL;
    p->nhist = 0;
    memset(p->pathcount, 0, sizeof p->pathcount);
    if (nhist <= 0)
        return 0;
    p->hist = malloc((size_t)nhist * sizeof *p->hist);
    if (!p->hist)
        return -1;
    memcpy(p->hist, hist, (size_t)nhist * sizeof *hist);
    qsort(p->hist, (size_t)nhist, sizeof *p->hist, cmp_u64);
    p->nhist = nhist;
    for (int i = 0; i < nhist; i++)
        if (p->pathcount[hist[i] & 4095] < 255)
            p->pathcount[hist[i] & 4095]++; /* never taken off: history stays */
    return 0;
}

/* One run of the question "does seat attacker win?" from the root, until
 * proven, disproven or out of budget. */
static struct val run(struct pns *p, int attacker, uint64_t budget)
{
    struct val v;
    uint64_t limit = p->node_limit;
    p->attacker = attacker;
    p->node_limit = budget;
    p->stopped = 0;
    mid(p, 0, INF, INF, &v);
    p->node_limit = limit;
    return v;
}

/* The root's child to play: for a proof (OR at the root) the proven child
 * nearest the end; for a proof of the opponent (AND at the root) the
 * child resisting longest; else the child with the best ratio. */
static int root_pick(struct pns *p, int n, int proven_or, int proven_and)
{
    int best = -1, fixed_any;
    double bestr = 0;
    n = expand(p, 0, &fixed_any);
    for (int i = 0; i < n; i++) {
        struct val c = child_val(p, 0, i);
        if (proven_or) {
            if (c.pn == 0 && (best < 0 || c.dist < child_val(p, 0, best).dist))
                best = i;
        } else if (proven_and) {
            if (best < 0 || c.dist > child_val(p, 0, best).dist)
                best = i;
        } else {
            /* the attacker (the side to move) wants small pn, large dn */
            double r = (double)c.pn / ((double)c.dn + 1);
            if (best < 0 || r < bestr)
                best = i, bestr = r;
        }
    }
    return best;
}

/* Is the whole solve's budget spent (stop, nodes, time)? */
static int exhausted(const struct pns *p, uint64_t node_limit)
{
    return (p->stop && atomic_load_explicit(p->stop, memory_order_relaxed)) ||
           (node_limit && p->nodes >= node_limit) ||
           (p->deadline_us && now_us() >= p->deadline_us);
}

/* Set up the root: position, history, no path. */
static int root_setup(struct pns *p, const void *pos, const uint64_t *hist, int nhist)
{
    if (set_history(p, hist, nhist))
        return -1;
    memcpy(ply_state(p, 0), pos, p->game->state_size);
    p->pathh[0] = 0x2545f4914f6cdd1dULL;
    p->ghash[0] = p->game->hash(pos);
    return 0;
}

/* The shortest win: every distance below out->plies, on a budget of half
 * the solve's positions more (at least 20000, at most what node_limit
 * leaves); out->plies becomes the first distance that wins, exact when
 * found or when every shorter one was searched to the end. */
static void refine(struct pns *p, const void *pos, const uint64_t *hist, int nhist,
                   uint64_t node_limit, struct pns_result *out)
{
    const struct game *g = p->game;
    uint64_t extra = p->nodes / 2 > 20000 ? p->nodes / 2 : 20000, budget;
    if (node_limit && extra > node_limit - (p->nodes < node_limit ? p->nodes : node_limit))
        extra = node_limit - (p->nodes < node_limit ? p->nodes : node_limit);
    budget = p->nodes + extra;
    int d, found = 0, fixed_any, n;
    p->stopped = 0;
    p->exact_budget_out = 0;
    p->node_limit = 0;
    if (root_setup(p, pos, hist, nhist))
        return;
    for (d = 1; d < out->plies; d++) {
        if (win_within(p, 0, d, budget)) {
            found = 1;
            break;
        }
        if (p->exact_budget_out || p->stopped)
            break;
    }
    out->exact = found || (!p->exact_budget_out && !p->stopped);
    if (!found)
        return;
    out->plies = d;
    if (out->status != PNS_WIN)
        return;
    /* the move that wins within d */
    p->pathcount[p->ghash[0] & 4095]++;
    n = expand(p, 0, &fixed_any);
    for (int i = 0; i < n; i++) {
        unsigned char f = p->cfix[i];
        int w = f == FIX_WIN;
        if (!f && d > 1) {
            void *child = ply_state(p, 1);
            memcpy(child, pos, g->state_size);
            g->play(child, p->moves[i]);
            p->pathh[1] = mix64(p->pathh[0], p->ckeys[i]);
            w = win_within(p, 1, d - 1, UINT64_MAX);
        }
        if (w) {
            out->move = p->moves[i];
            break;
        }
    }
    p->pathcount[p->ghash[0] & 4095]--;
}

void pns_solve(struct pns *p, const void *pos, const uint64_t *hist, int nhist,
               uint64_t node_limit, int64_t deadline_us, const atomic_bool *stop,
               struct pns_result *out)
{
    const struct game *g = p->game;
    int64_t t0 = now_us();
    int me = g->to_move(pos), opp = 3 - me, outcome, n, fixed_any;
    struct val vw = {1, 1, 0, 0}, vl = {1, 1, 0, 0};
    int done_w = 0, done_l = 0;
    uint64_t step = 1000;

    memset(out, 0, sizeof *out);
    out->move = GAME_MOVE_NONE;
    p->gen++;
    if (p->gen == 0) { /* wrapped: entries 255 solves old would look current */
        table_clear(p->tt, (p->mask + 1) * BUCKET * sizeof *p->tt);
        p->gen = 1; /* 0 is a fresh table's: never current */
    }
    p->nodes = 0;
    p->deadline_us = deadline_us;
    p->stop = stop;
    p->stopped = 0;
    if (root_setup(p, pos, hist, nhist)) {
        out->us = now_us() - t0;
        return; /* no memory for the history: unknown */
    }
    if (terminal(p, pos, &outcome)) {
        out->finished = 1;
        out->status = outcome > 0 ? PNS_WIN : outcome < 0 ? PNS_LOSS : PNS_UNKNOWN;
        out->exact = 1;
        out->us = now_us() - t0;
        return;
    }
    p->attacker = me;
    n = expand(p, 0, &fixed_any);
    if (n == 0) {
        out->finished = 1;
        out->status = PNS_LOSS;
        out->exact = 1;
        out->us = now_us() - t0;
        return;
    }
    /* the two questions in turns, each with twice the last budget, each
     * resuming from the table */
    while (!(done_w && done_l) && !exhausted(p, node_limit)) {
        if (!done_w) {
            uint64_t budget = p->nodes + step;
            vw = run(p, me, node_limit && budget > node_limit ? node_limit : budget);
            if (vw.pn == 0)
                break;
            done_w = vw.dn == 0;
        }
        if (!done_l && !exhausted(p, node_limit)) {
            uint64_t budget = p->nodes + step;
            vl = run(p, opp, node_limit && budget > node_limit ? node_limit : budget);
            if (vl.pn == 0)
                break;
            done_l = vl.dn == 0;
        }
        if (step < ((uint64_t)1 << 40))
            step *= 2;
    }
    if (vw.pn == 0) {
        p->attacker = me;
        out->status = PNS_WIN;
        out->plies = (int)vw.dist;
    } else if (vl.pn == 0) {
        p->attacker = opp;
        out->status = PNS_LOSS;
        out->plies = (int)vl.dist;
    } else
        p->attacker = me;
    {
        int i = root_pick(p, n, out->status == PNS_WIN, out->status == PNS_LOSS);
        if (i >= 0)
            out->move = p->moves[i];
    }
    if (out->status != PNS_UNKNOWN)
        refine(p, pos, hist, nhist, node_limit, out);
    out->nodes = p->nodes;
    out->us = now_us() - t0;
}

int pns_root_check(struct pns *p, const void *pos, const uint64_t *hist, int nhist,
                   uint64_t node_limit, int64_t deadline_us, const atomic_bool *stop,
                   const gmove *mv, int n, unsigned char *lost, struct pns_result *out)
{
    const struct game *g = p->game;
    game_state_buf child;
    pns_solve(p, pos, hist, nhist, node_limit, deadline_us, stop, out);
    memset(lost, 0, (size_t)n);
    if (out->finished)
        return out->status;
    /* a move is lost when the opponent's win after it is proven */
    p->attacker = 3 - g->to_move(pos);
    for (int i = 0; i < n; i++) {
        struct val v;
        int outcome;
        memcpy(child.b, pos, g->state_size);
        g->play(child.b, mv[i]);
        if (terminal(p, child.b, &outcome)) {
            lost[i] = outcome != 0 && (outcome > 0) == (g->to_move(child.b) == p->attacker);
            continue;
        }
        lookup(p, pkey(p, child.b), mix64(0x2545f4914f6cdd1dULL, pkey(p, child.b)), &v);
        lost[i] = v.pn == 0;
    }
    return out->status;
}

void pns_format_score(const struct pns_result *r, char *buf, size_t n)
{
    if (r->status == PNS_WIN)
        snprintf(buf, n, "win %d", r->plies);
    else if (r->status == PNS_LOSS)
        snprintf(buf, n, "loss %d", r->plies);
    else if (n)
        buf[0] = '\0';
}

gmove pns_go(struct pns *p, const struct search_req *req)
{
    struct pns_result r;
    int64_t deadline = 0;
    char tok[64], sc[32];
    if (req->lim.movetime >= 0) {
        int64_t ms = req->lim.movetime - req->lim.overhead_ms;
        deadline = req->start_us + (ms > 0 ? ms : 0) * 1000;
        if (deadline == 0)
            deadline = 1;
    }
    pns_solve(p, req->pos, req->hist, req->nhist, req->lim.nodes, deadline, req->stop, &r);
    int64_t us = r.us > 0 ? r.us : 1;
    if (r.move != GAME_MOVE_NONE)
        p->game->format_move(req->pos, r.move, tok, sizeof tok);
    if (r.status != PNS_UNKNOWN && r.move != GAME_MOVE_NONE) {
        pns_format_score(&r, sc, sizeof sc);
        search_info(req, "depth %d score %s nodes %llu nps %llu time %lld pv %s", r.plies, sc,
                    (unsigned long long)r.nodes,
                    (unsigned long long)(r.nodes * 1000000ULL / (uint64_t)us),
                    (long long)(us / 1000), tok);
        if (!r.exact)
            search_info(req, "string proof of %d plies: an upper bound, no shorter one "
                        "checked to the end", r.plies);
    } else {
        search_info(req, "nodes %llu nps %llu time %lld", (unsigned long long)r.nodes,
                    (unsigned long long)(r.nodes * 1000000ULL / (uint64_t)us),
                    (long long)(us / 1000));
        search_info(req, "string unsolved after %llu nodes", (unsigned long long)r.nodes);
    }
    return r.move;
}
