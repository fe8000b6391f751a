/* player.c - the shared part of two-seat alpha-beta engines (player.h). */
#include "player.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "../../search/tt.h"

/* Greedy: equal one-ply scores are broken at random among this many steps
 * (the score is multiplied by it and a random remainder added). */
#define ABP_GREEDY_TIEBREAK 8

void abp_init(struct ab_player *p, const struct game *g, const struct ab_ops *ops, void *eng,
              const struct ab_params *defaults)
{
    ab_init(&p->ab, g, ops, eng, (size_t)p->hash_mb);
    if (p->threads < 1) /* a player set up without the option defaults */
        p->threads = 1;
    if (ab_set_threads(&p->ab, (int)p->threads))
        die("out of memory for %d search threads", /* exit-ok: out of memory */
            (int)p->threads);
    p->defaults = defaults ? *defaults : ab_default_params;
    p->ab.par = p->defaults;
    p->ab.par.contempt = (int)p->contempt;
    rng_seed(&p->rng, (uint64_t)p->seed);
}

void abp_destroy(struct ab_player *p) { ab_free(&p->ab); }

void abp_engine_destroy(void *eng) { abp_destroy(eng); }
void abp_engine_newgame(void *eng) { abp_newgame(eng); }
gmove abp_engine_go(void *eng, const struct search_req *req, gmove *ponder)
{
    return abp_go(eng, req, ponder);
}

void abp_newgame(struct ab_player *p)
{
    ab_clear(&p->ab);
    rng_seed(&p->rng, (uint64_t)p->seed);
}

#define P(f) {#f, offsetof(struct ab_params, f)}
static const struct named_int search_names[] = {
    P(null_min_depth), P(null_reduction), P(lmr_min_depth), P(lmr_min_moves),
    P(futility_margin), P(lmp_depth), P(lmp_moves), P(fut_depth), P(fut_margin),
    P(aspiration), P(root_pns), P(root_pns_cp), P(shared_history),
    P(helper_ahead),
};
#undef P

/* Set the search tunables named in spec ("null_min_depth=1000,lmr_min_depth=4";
 * empty: the defaults).  Returns 0, or -1 with a message in err and the
 * tunables unchanged. */
static int search_params(struct ab_player *p, const char *spec, char *err, size_t n)
{
    struct ab_params t = p->defaults;
    if (named_ints_parse(&t, sizeof t, search_names, ARRAY_LEN(search_names), 0, 1000,
                         "search parameter", spec, err, n))
        return -1;
    t.contempt = p->ab.par.contempt; /* its own option */
    p->ab.par = t;
    ab_clear(&p->ab); /* stored scores came from the old search */
    return 0;
}

int abp_option_changed(struct ab_player *p, const struct opt_spec *o, char *err, size_t n)
{
    if (strcmp(o->name, "Hash") == 0) {
        if (ab_resize(&p->ab, (size_t)p->hash_mb)) {
            size_t phys = tt_physical_mb();
            if ((size_t)p->hash_mb > phys)
                return set_err(err, n, -1,
                               "Hash %lld MiB is more than this machine's memory (%zu MiB); "
                               "the table stays as it was",
                               (long long)p->hash_mb, phys);
            return set_err(err, n, -1,
                           "cannot allocate %lld MiB for Hash; the table stays as it was",
                           (long long)p->hash_mb);
        }
    } else if (strcmp(o->name, "Threads") == 0) {
        if (p->threads < 1) /* a player set up without the option defaults */
        p->threads = 1;
    if (ab_set_threads(&p->ab, (int)p->threads))
            return set_err(err, n, -1, "cannot allocate %lld search threads; %d kept",
                           (long long)p->threads, p->ab.threads);
    } else if (strcmp(o->name, "Seed") == 0)
        rng_seed(&p->rng, (uint64_t)p->seed);
    else if (strcmp(o->name, "ClearHash") == 0)
        ab_clear(&p->ab);
    else if (strcmp(o->name, "SearchParams") == 0)
        return search_params(p, p->search, err, n);
    else if (strcmp(o->name, "Contempt") == 0) {
        p->ab.par.contempt = (int)p->contempt;
        ab_clear(&p->ab); /* stored scores hold the old contempt */
    }
    return 0;
}

/* Outcome of st for the player who just moved into it: 1 won, -1 lost,
 * 0 drawn, 2 the game goes on. */
static int mover_outcome(const struct ab_player *p, const void *st)
{
    int o;
    if (p->ab.ops->terminal) {
        if (!p->ab.ops->terminal(st, &o))
            return 2;
        return -o;
    }
    struct game_result r;
    p->ab.game->result(st, NULL, 0, &r);
    if (!r.over)
        return 2;
    int mover = 2 - p->ab.game->to_move(st); /* seat index of the other one */
    if (r.rank[0] == r.rank[1])
        return 0;
    return r.rank[mover] == 1 ? 1 : -1;
}

/* Greedy: the best one-ply evaluation; an immediate win first, random
 * tie-breaks so that greedy games differ. */
static gmove go_greedy(struct ab_player *p, const void *pos)
{
    const struct game *g = p->ab.game;
    gmove *mv = game_move_buf(g);
    game_state_buf child;
    int n = game_gen_moves(g, pos, mv), best = 0;
    gmove bm = n > 0 ? mv[0] : GAME_MOVE_NONE;
    for (int i = 0; i < n; i++) {
        int o, sc;
        memcpy(child.b, pos, g->state_size);
        g->play(child.b, mv[i]);
        o = mover_outcome(p, child.b);
        sc = o == 1 ? AB_WIN : o == -1 ? -AB_WIN : o == 0 ? 0 : -p->ab.ops->eval(p->ab.eng, child.b);
        sc = sc * ABP_GREEDY_TIEBREAK + (int)rng_below(&p->rng, ABP_GREEDY_TIEBREAK);
        if (i == 0 || sc > best) {
            best = sc;
            bm = mv[i];
        }
    }
    free(mv);
    return bm;
}

gmove abp_go(struct ab_player *p, const struct search_req *req, gmove *ponder)
{
    *ponder = GAME_MOVE_NONE;
    if (req->lim.solve) /* go solve: whatever the Strategy */
        return ab_solve(&p->ab, req);
    if (strcmp(p->strategy, "random") == 0) {
        gmove *mv = game_move_buf(p->ab.game), m;
        int n = game_gen_moves(p->ab.game, req->pos, mv);
        m = n > 0 ? mv[rng_below(&p->rng, (uint64_t)n)] : GAME_MOVE_NONE;
        free(mv);
        return m;
    }
    if (strcmp(p->strategy, "greedy") == 0)
        return go_greedy(p, req->pos);
    return ab_go(&p->ab, req, ponder);
}

uint64_t abp_bench(struct ab_player *p, int depth, const char *const *positions, int64_t *ms)
{
    const struct game *g = p->ab.game;
    game_config_buf cfg;
    game_state_buf st;
    char err[GAME_ERR_LEN];
    uint64_t nodes = 0;
    int64_t t0 = now_us();
    g->config_default(cfg.b);
    for (int i = 0; positions[i]; i++) {
        int rc = g->parse_pos(st.b, cfg.b, positions[i], err, sizeof err);
        assert(rc == GAME_OK); /* a fixed table, checked by test_mep's bench test */
        (void)rc;
        ab_clear(&p->ab);
        nodes += ab_bench_position(&p->ab, st.b, depth);
    }
    *ms = (now_us() - t0) / 1000;
    return nodes;
}
