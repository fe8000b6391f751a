/* test_nim.c - the toy fifth game (tests/games/nim/): its contracts
 * (game_check, game_check_play, engine_check), perft against counts by
 * hand and a naive count, the generic search solving it, and generation
 * past max_moves as an internal error of ab.c, not a lost position. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/game.h"
#include "core/util.h"
#include "engines/common/player.h"
#include "engines/registry.h"
#include "protocol/engine.h"
#include "protocol/options.h"
#include "search/ab.h"
#include "search/perft.h"
#include "tests/games/nim/nim.h"
#include "tests/games/nim/nim_api.h"

static const struct game *G = &nim_game;

static void load(struct nim_state *s, const char *fen)
{
    char err[GAME_ERR_LEN];
    if (G->parse_pos(s, NULL, fen, err, sizeof err))
        fail_msg("parse '%s': %s", fen, err);
}

static void config(void *cfg, const char *heaps)
{
    char err[GAME_ERR_LEN];
    G->config_default(cfg);
    if (G->config_set(cfg, "heaps", heaps, err, sizeof err))
        fail_msg("heaps=%s: %s", heaps, err);
}

/* The game is registered, and keeps the game and engine contracts. */
static void test_contracts(void **unused)
{
    char err[GAME_ERR_LEN];
    game_config_buf cfg;
    (void)unused;
    assert_ptr_equal(game_find("nim"), G);
    if (game_check(G, err, sizeof err) || engine_check(&nim_engine, err, sizeof err))
        fail_msg("%s", err);
    if (game_check_play(G, NULL, 20, 1, err, sizeof err))
        fail_msg("%s", err);
    /* the largest config reaches max_moves exactly at its start */
    config(cfg.b, "20,20,20,20,20,20,20,20");
    if (game_check_play(G, cfg.b, 3, 2, err, sizeof err))
        fail_msg("%s", err);
    struct nim_state s;
    G->start(&s, cfg.b);
    assert_int_equal(G->count_moves(&s), G->max_moves);
}

/* Independent count: leaves at depth d of the tree of heap vectors. */
static uint64_t naive(int *heap, int n, int d)
{
    uint64_t t = 0;
    if (d == 0)
        return 1;
    for (int i = 0; i < n; i++)
        for (int k = 1; k <= heap[i]; k++) {
            heap[i] -= k;
            t += naive(heap, n, d - 1);
            heap[i] += k;
        }
    return t;
}

static void test_perft(void **unused)
{
    game_config_buf cfg;
    struct nim_state s;
    (void)unused;
    /* heaps 1,2 by hand: a1 b1 b2; (0,2): b1 b2, (1,1): a1 b1, (1,0): a1;
     * (0,1) twice and (1,0) once one move each; then nothing */
    config(cfg.b, "1,2");
    G->start(&s, cfg.b);
    assert_int_equal(perft(G, &s, 1), 3);
    assert_int_equal(perft(G, &s, 2), 5);
    assert_int_equal(perft(G, &s, 3), 3);
    assert_int_equal(perft(G, &s, 4), 0);
    /* 3,4,5 by hand: 12 stones, then 12 - k after taking k:
     * (11+10+9) + (11+10+9+8) + (11+10+9+8+7) = 113 */
    config(cfg.b, "3,4,5");
    G->start(&s, cfg.b);
    assert_int_equal(perft(G, &s, 1), 12);
    assert_int_equal(perft(G, &s, 2), 113);
    int heap[3] = {3, 4, 5};
    for (int d = 3; d <= 5; d++)
        assert_true(perft(G, &s, d) == naive(heap, 3, d));
}

/* The engine, in-process, with its option defaults. */
static void *new_engine(void)
{
    void *e = xcalloc(1, nim_engine.size);
    opt_defaults(nim_engine.options, e);
    nim_engine.init(e);
    return e;
}

static gmove search(void *e, const void *pos, int depth)
{
    struct search_req req;
    atomic_bool stop = false, pond = false;
    atomic_llong hit = 0;
    gmove ponder;
    memset(&req, 0, sizeof req);
    limits_clear(&req.lim);
    req.lim.depth = depth;
    req.game = G;
    req.pos = pos;
    req.start_us = now_us();
    req.stop = &stop;
    req.pondering = &pond;
    req.ponderhit_us = &hit;
    return nim_engine.go(e, &req, &ponder);
}

/* From every position with a non-zero nim-sum the search (whose evaluation
 * knows nothing) finds a move to nim-sum 0. */
static void test_search_solves(void **unused)
{
    struct rng r;
    void *e = new_engine();
    int tried = 0;
    (void)unused;
    rng_seed(&r, 3);
    while (tried < 30) {
        struct nim_state s;
        char fen[64];
        size_t len = 0;
        int n = 2 + (int)rng_below(&r, 3);
        for (int i = 0; i < n; i++)
            buf_printf(fen, sizeof fen, &len, "%s%d", i ? "," : "", (int)rng_below(&r, 6));
        buf_printf(fen, sizeof fen, &len, " 1");
        load(&s, fen);
        if (nim_sum(&s) == 0)
            continue;
        tried++;
        nim_engine.newgame(e);
        gmove m = search(e, &s, 20);
        assert_true(m != GAME_MOVE_NONE);
        G->play(&s, m);
        if (nim_sum(&s) != 0)
            fail_msg("%s: the search's move leaves nim-sum %d", fen, nim_sum(&s));
    }
    nim_engine.destroy(e);
    free(e);
}

static int ev0(void *eng, const void *st)
{
    (void)eng;
    (void)st;
    return 0;
}

static unsigned key(gmove m) { return (unsigned)(m & 1023); }

/* A game whose max_moves is wrong (3, and the start has 12 moves): ab.c
 * once read gen_moves' -1 as "no legal move, loses" and went on; now it is
 * an internal error that stops the program (SIGABRT, with a message). */
static void test_too_many_moves_is_internal_error(void **unused)
{
    static const struct ab_ops ops = {.eval = ev0, .move_key = key};
    struct game broken = nim_game;
    game_config_buf cfg;
    struct nim_state s;
    int status;
    (void)unused;
    broken.max_moves = 3;
    G->config_default(cfg.b);
    G->start(&s, cfg.b);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct ab *ab = xcalloc(1, sizeof *ab);
        if (freopen("/dev/null", "w", stderr) == NULL)
            _exit(3);
        ab_init(ab, &broken, &ops, NULL, 1);
        ab_bench_position(ab, &s, 2);
        _exit(0); /* the old code: a search over "lost" positions */
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGABRT);
}

/* The search looks at its stop flag at every node and at the clock every
 * AB_CLOCK_MASK + 1 nodes, once its depth 1 is complete (the move is a
 * searched one): a node can be slow (a page of a big table faulted in took
 * milliseconds), and with looks every 256 nodes `stop` took 276 ms.
 * Counted in evaluations, not in time: the evaluation sets the flag at its
 * k-th call, and the search ends at its next node or when depth 1 is
 * done; with a movetime and 1 ms evaluations after depth 1 no more than a
 * clock step of them start after the whole movetime is over, however slow
 * the machine. */
static struct {
    atomic_bool stop;
    long evals, at, late, sleep_after;
    int64_t deadline_us;
    unsigned sleep_us;
} probe;

static int ev_probe(void *eng, const void *st)
{
    (void)eng;
    (void)st;
    /* depth 1 is searched whatever the clock: only later ones count */
    if (probe.deadline_us && probe.evals >= probe.sleep_after && now_us() > probe.deadline_us)
        probe.late++;
    if (++probe.evals == probe.at)
        atomic_store(&probe.stop, true);
    if (probe.sleep_us && probe.evals > probe.sleep_after)
        usleep(probe.sleep_us);
    return 0;
}

static void probe_search(struct ab *ab, const struct nim_state *s, int64_t movetime, int depth)
{
    struct search_req req;
    gmove ponder;
    memset(&req, 0, sizeof req);
    limits_clear(&req.lim);
    req.lim.movetime = movetime;
    req.lim.depth = depth;
    req.lim.infinite = movetime < 0 && !depth;
    req.game = G;
    req.pos = s;
    req.stop = &probe.stop;
    req.start_us = now_us();
    probe.deadline_us = movetime < 0 ? 0 : req.start_us + movetime * 1000;
    ab_go(ab, &req, &ponder);
}

/* no tactical moves: every leaf a quiescence node, which looks too */
static int no_tactics(const void *st, gmove *out, int max)
{
    (void)st;
    (void)out;
    (void)max;
    return 0;
}

static void test_stop_is_seen_at_once(void **unused)
{
    static const struct ab_ops ops = {.eval = ev_probe, .move_key = key, .gen_tactical = no_tactics};
    static const long at[] = {1, 2, 300, 1001, 4097, 9999};
    game_config_buf cfg;
    struct nim_state s;
    (void)unused;
    config(cfg.b, "20,20,20,20,20,20,20,20"); /* no proof within reach */
    G->start(&s, cfg.b);
    struct ab *ab = xcalloc(1, sizeof *ab);
    ab_init(ab, G, &ops, NULL, 1);
    ab->par.root_pns = 0; /* no root solve: the search's own nodes only */
    memset(&probe, 0, sizeof probe);
    probe_search(ab, &s, -1, 1);
    long d1 = probe.evals; /* depth 1's evaluations */
    assert_true(d1 > 1);
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        memset(&probe, 0, sizeof probe);
        probe.at = at[i];
        probe_search(ab, &s, -1, 0);
        assert_true(probe.evals >= probe.at); /* the flag was set: no proof came first */
        if (probe.evals > (probe.at > d1 ? probe.at : d1) + 1)
            fail_msg("stop set at evaluation %ld, the search went on to %ld (depth 1: %ld)",
                     probe.at, probe.evals, d1);
    }
    /* 1 ms a node and a movetime of 30 ms: the clock is read every
     * AB_CLOCK_MASK + 1 nodes, so no more evaluations than that start
     * after it ran out */
    memset(&probe, 0, sizeof probe);
    probe.sleep_us = 1000;
    probe.sleep_after = d1;
    probe_search(ab, &s, 30, 0);
    assert_true(probe.evals > 0);
    if (probe.late > AB_CLOCK_MASK + 1)
        fail_msg("%ld evaluations after the movetime was over (of %ld)", probe.late,
                 probe.evals);
    ab_free(ab);
    free(ab);
}

/* ab_sort_moves against the order it promises, checked pair by pair:
 * scores never rise, equal scores keep reversed list order, and the moves
 * are the same ones with their own scores (a permutation), for lists of
 * every length up to max_moves, scores with many ties and the extremes. */
static void test_sort_moves(void **unused)
{
    static const struct ab_ops ops = {.eval = ev0, .move_key = key};
    struct game big = nim_game;
    struct rng r;
    enum { MAX = 300 };
    gmove mv[MAX];
    int sc[MAX];
    (void)unused;
    big.max_moves = MAX;
    struct ab *ab = xcalloc(1, sizeof *ab);
    ab_init(ab, &big, &ops, NULL, 1);
    rng_seed(&r, 11);
    for (int trial = 0; trial < 400; trial++) {
        int n = 1 + (int)rng_below(&r, MAX), from = (int)rng_below(&r, (uint64_t)n);
        int spread = trial % 3 == 0 ? 4 : 100000;
        for (int i = 0; i < n; i++) {
            sc[i] = (int)rng_below(&r, (uint64_t)spread) - spread / 2;
            if (rng_below(&r, 50) == 0)
                sc[i] = rng_below(&r, 2) ? AB_ORDER_TT : -AB_HIST_MAX - 1000000;
            mv[i] = (gmove)i << 20 | (gmove)(uint32_t)(sc[i] & 0xfffff); /* index and score */
        }
        ab_sort_moves(ab, mv, sc, from, n);
        char seen[MAX] = {0};
        for (int i = 0; i < n; i++) {
            int idx = (int)(mv[i] >> 20);
            assert_true(idx >= 0 && idx < n && !seen[idx]);
            seen[idx] = 1;
            assert_int_equal((int)(mv[i] & 0xfffff), sc[i] & 0xfffff); /* its own score */
            if (i < from)
                assert_int_equal(idx, i); /* the part before from is untouched */
            else if (i > from) {
                assert_true(sc[i] <= sc[i - 1]);
                if (sc[i] == sc[i - 1])
                    assert_true(idx < (int)(mv[i - 1] >> 20));
            }
        }
    }
    ab_free(ab);
    free(ab);
}

/* A game's own search defaults (abp_init's last argument): SearchParams
 * changes named tunables on top of them, and an empty one restores them,
 * not search/ab.h's. */
static void test_player_defaults(void **unused)
{
    static const struct ab_ops ops = {.eval = ev0, .move_key = key};
    static const struct opt_spec sp = {.name = "SearchParams"};
    struct ab_params game = ab_default_params;
    char err[256];
    (void)unused;
    game.lmp_depth = 2;
    struct ab_player *p = xcalloc(1, sizeof *p);
    p->hash_mb = 1;
    abp_init(p, &nim_game, &ops, NULL, &game);
    assert_int_equal(p->ab.par.lmp_depth, 2);
    snprintf(p->search, sizeof p->search, "lmp_moves=9");
    assert_int_equal(abp_option_changed(p, &sp, err, sizeof err), 0);
    assert_int_equal(p->ab.par.lmp_moves, 9);
    assert_int_equal(p->ab.par.lmp_depth, 2); /* the game's, kept */
    snprintf(p->search, sizeof p->search, "lmp_depth=0,frob=1");
    assert_int_equal(abp_option_changed(p, &sp, err, sizeof err), -1);
    assert_int_equal(p->ab.par.lmp_depth, 2); /* refused: unchanged */
    p->search[0] = 0;
    assert_int_equal(abp_option_changed(p, &sp, err, sizeof err), 0);
    assert_int_equal(p->ab.par.lmp_moves, AB_LMP_MOVES);
    assert_int_equal(p->ab.par.lmp_depth, 2);
    abp_destroy(p);
    free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_contracts),
        cmocka_unit_test(test_perft),
        cmocka_unit_test(test_search_solves),
        cmocka_unit_test(test_too_many_moves_is_internal_error),
        cmocka_unit_test(test_stop_is_seen_at_once),
        cmocka_unit_test(test_sort_moves),
        cmocka_unit_test(test_player_defaults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
