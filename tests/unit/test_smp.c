/* test_smp.c - Threads (Lazy SMP, search/ab.c) in the alpha-beta engines
 * (LOA, Fetlar, Nim), in-process through the MEP library: the option and
 * its busy rule, legal moves and proven results with 2-4 threads, stop and
 * quit during a 4-thread search, Threads 1 -> 4 -> 1 searching exactly as
 * a fresh Threads=1 engine, the threads' SearchParams (shared_history,
 * helper_ahead), the node limit summed over threads, and the
 * lockless table and evaluation cache rejecting a torn slot.  No wall-clock bound is asserted:
 * the waits below only catch a hang. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/util.h"
#include "engines/common/evalcache.h"
#include "engines/fetlar/fetlar_api.h"
#include "engines/loa/loa_api.h"
#include "protocol/mep.h"
#include "search/ab.h"
#include "search/request.h"
#include "search/tt.h"
#include "tests/games/nim/nim_api.h"

/* A hang, not a slow machine: generous. */
#define HANG_MS 300000

/* A session whose output comes line by line through the callback (from
 * the search thread too) into a buffer under a lock; `pos` is how much of it
 * has been read. */
struct session {
    struct mep *m;
    pthread_mutex_t lock;
    char *buf;
    size_t len, cap, pos;
};

static void out_line(void *ctx, const char *line)
{
    struct session *s = ctx;
    size_t n = strlen(line);
    pthread_mutex_lock(&s->lock);
    if (s->len + n + 2 > s->cap) {
        s->cap = (s->len + n + 2) * 2;
        s->buf = xrealloc(s->buf, s->cap);
    }
    memcpy(s->buf + s->len, line, n);
    s->len += n;
    s->buf[s->len++] = '\n';
    s->buf[s->len] = '\0';
    pthread_mutex_unlock(&s->lock);
}

static void open_e(struct session *s, const struct engine *e)
{
    pthread_mutex_init(&s->lock, NULL);
    s->cap = 1 << 16;
    s->buf = xmalloc(s->cap);
    s->buf[0] = '\0';
    s->len = s->pos = 0;
    s->m = mep_new_cb(e, out_line, s);
}

static void close_s(struct session *s)
{
    mep_free(s->m);
    free(s->buf);
    pthread_mutex_destroy(&s->lock);
}

/* Everything written since the last call (a static copy). */
static char *output(struct session *s)
{
    static char out[1 << 18];
    pthread_mutex_lock(&s->lock);
    size_t n = s->len - s->pos < sizeof out - 1 ? s->len - s->pos : sizeof out - 1;
    memcpy(out, s->buf + s->pos, n);
    out[n] = '\0';
    s->pos += n;
    pthread_mutex_unlock(&s->lock);
    return out;
}

static char *cmd(struct session *s, const char *line)
{
    mep_line(s->m, line);
    return output(s);
}

/* Everything up to and including the line starting with `want`. */
static char *wait_for(struct session *s, const char *want)
{
    static char acc[1 << 18];
    int64_t t0 = now_us();
    size_t len = 0;
    acc[0] = '\0';
    while (now_us() - t0 < (int64_t)HANG_MS * 1000) {
        char *o = output(s);
        size_t n = strlen(o);
        if (n > sizeof acc - 1 - len)
            n = sizeof acc - 1 - len;
        memcpy(acc + len, o, n);
        len += n;
        acc[len] = '\0';
        if (strstr(acc, want))
            return acc;
        usleep(1000);
    }
    fail_msg("no '%s' (hung?); got: %s", want, acc);
    return acc;
}

/* The move of the `bestmove` line in out (a static copy). */
static const char *bestmove(const char *out)
{
    static char mv[256];
    const char *p = strstr(out, "bestmove ");
    assert_non_null(p);
    p += 9;
    size_t n = strcspn(p, " \n");
    assert_true(n > 0 && n < sizeof mv);
    memcpy(mv, p, n);
    mv[n] = '\0';
    return mv;
}

/* Is mv a legal move in fen (NULL: the start position) of e's game?
 * (Read with the game's own parser and generator.) */
static int is_legal(const struct engine *e, const char *fen, const char *mv)
{
    const struct game *g = e->game;
    game_config_buf cfg;
    game_state_buf st;
    char err[GAME_ERR_LEN];
    gmove m, *list = game_move_buf(g);
    int found = 0;
    g->config_default(cfg.b);
    if (fen)
        assert_int_equal(g->parse_pos(st.b, cfg.b, fen, err, sizeof err), GAME_OK);
    else
        g->start(st.b, cfg.b);
    if (g->parse_move(st.b, mv, &m, err, sizeof err) == GAME_OK) {
        int n = game_gen_moves(g, st.b, list);
        for (int i = 0; i < n; i++)
            found |= list[i] == m;
    }
    free(list);
    return found;
}

/* The search's last info line is at `depth` (no deeper: `go depth` binds
 * whichever thread's result is taken) and its pv starts with the bestmove. */
static void check_last_info(const char *o, int depth)
{
    const char *last = NULL, *p = o;
    char want[64];
    while ((p = strstr(p, "info depth ")) != NULL)
        last = p++;
    assert_non_null(last);
    snprintf(want, sizeof want, "info depth %d ", depth);
    assert_true(str_prefix(last, want));
    const char *pv = strstr(last, " pv ");
    assert_non_null(pv);
    char mv[256];
    snprintf(mv, sizeof mv, "%s", bestmove(o));
    assert_true(str_prefix(pv + 4, mv));
}

/* Start a search and wait for its bestmove: all of its output. */
static char *go_wait(struct session *s, const char *line)
{
    mep_line(s->m, line);
    return wait_for(s, "bestmove");
}

static void set_threads(struct session *s, int n)
{
    char line[64];
    snprintf(line, sizeof line, "setoption name Threads value %d", n);
    assert_string_equal(cmd(s, line), "ok\n");
}

static void test_option_and_busy(void **st)
{
    struct session s;
    (void)st;
    open_e(&s, &loa_engine);
    assert_true(str_prefix(cmd(&s, "setoption name Threads value 0"), "error bad_value "));
    assert_true(str_prefix(cmd(&s, "setoption name Threads value 257"), "error bad_value "));
    assert_true(str_prefix(cmd(&s, "setoption name Threads value 2x"), "error bad_value "));
    set_threads(&s, 4);
    assert_null(strstr(cmd(&s, "go infinite"), "bestmove"));
    usleep(20000);
    /* never during a search: the busy rule, and the search goes on */
    assert_non_null(strstr(cmd(&s, "setoption name Threads value 1"), "error busy "));
    assert_non_null(strstr(cmd(&s, "ping 3"), "pong 3\n"));
    char *o = cmd(&s, "stop"); /* joins the search: bestmove is out */
    assert_non_null(strstr(o, "bestmove "));
    assert_true(is_legal(&loa_engine, NULL, bestmove(o)));
    assert_string_equal(cmd(&s, "stop"), "ok\n");
    set_threads(&s, 1);
    close_s(&s);
}

/* A callback session (mep_new_cb: no FILE) answers legalmoves through its
 * callback like every other line (it wrote to a NULL FILE once). */
static void test_cb_legalmoves(void **st)
{
    struct session s;
    (void)st;
    open_e(&s, &loa_engine);
    assert_string_equal(cmd(&s, "position fen ww6/8/8/8/8/4b3/7b/6w1 b"), "ok\n");
    char *o = cmd(&s, "legalmoves");
    assert_true(str_prefix(o, "moves "));
    assert_non_null(strstr(o, " e3xg1"));
    assert_non_null(strstr(o, "\nok\n"));
    close_s(&s);
}

/* Threads 2..4: legal moves from the start, and the proven results the
 * one-thread transcripts show (tests/transcripts/{loa,fetlar}/). */
static void test_legal_and_wins(void **st)
{
    (void)st;
    for (int t = 2; t <= 4; t++) {
        struct session s;
        char *o;
        open_e(&s, &loa_engine);
        set_threads(&s, t);
        o = go_wait(&s, "go depth 5");
        assert_true(is_legal(&loa_engine, NULL, bestmove(o)));
        check_last_info(o, 5);
        /* black wins at once: e3xg1 connects */
        assert_string_equal(cmd(&s, "position fen ww6/8/8/8/8/4b3/7b/6w1 b"), "ok\n");
        o = go_wait(&s, "go depth 4");
        assert_non_null(strstr(o, "score win 1 "));
        assert_string_equal(bestmove(o), "e3xg1");
        close_s(&s);

        open_e(&s, &fetlar_engine);
        set_threads(&s, t);
        o = go_wait(&s, "go depth 3");
        assert_true(is_legal(&fetlar_engine, NULL, bestmove(o)));
        check_last_info(o, 3);
        /* the king escapes in 3 plies */
        assert_string_equal(cmd(&s, "position fen /11/11/11/11/3K7/t9t/11/11/2t8/11/11/ w 0"),
                            "ok\n");
        o = go_wait(&s, "go depth 5");
        assert_non_null(strstr(o, "score win 3 "));
        assert_string_equal(bestmove(o), "d5-a5");
        /* lost in 2 whatever is played */
        assert_string_equal(cmd(&s, "position fen /11/11/11/11/11/K10/t10/11/11/11/11/ b 0"),
                            "ok\n");
        o = go_wait(&s, "go depth 4");
        assert_non_null(strstr(o, "score loss 2 "));
        close_s(&s);

        /* Nim 3,4,5: nim-sum 2, a win for the side to move; the search
         * alone proves it (the evaluation is 0) */
        open_e(&s, &nim_engine);
        set_threads(&s, t);
        o = go_wait(&s, "go depth 14");
        assert_non_null(strstr(o, "score win "));
        assert_true(is_legal(&nim_engine, NULL, bestmove(o)));
        close_s(&s);
    }
}

/* The info lines of a search with the numbers after nps and time dropped
 * (they vary). */
static void blank_times(char *o)
{
    regex_t re;
    regmatch_t m;
    assert_int_equal(regcomp(&re, " (nps|time) [0-9]+", REG_EXTENDED), 0);
    for (char *p = o; regexec(&re, p, 1, &m, 0) == 0;) {
        char *num = strchr(p + m.rm_so + 1, ' ') + 1;
        memmove(num, p + m.rm_eo, strlen(p + m.rm_eo) + 1);
        p = num;
    }
    regfree(&re);
}

/* Threads 1 -> 4 -> 1 between searches: each search ends with a legal move,
 * and back at one thread the engine searches exactly as a fresh one (the
 * same info lines and nodes: no helper is left, the table is the same). */
static void test_threads_1_4_1(void **st)
{
    const struct engine *engines[] = {&loa_engine, &fetlar_engine};
    (void)st;
    for (int k = 0; k < 2; k++) {
        struct session s, fresh;
        char *o, want[1 << 15];
        open_e(&fresh, engines[k]);
        o = go_wait(&fresh, "go depth 5");
        snprintf(want, sizeof want, "%s", o);
        blank_times(want);
        close_s(&fresh);

        open_e(&s, engines[k]);
        for (int round = 0; round < 2; round++) {
            set_threads(&s, 4);
            o = go_wait(&s, "go depth 4");
            assert_true(is_legal(engines[k], NULL, bestmove(o)));
            set_threads(&s, 1);
            assert_string_equal(cmd(&s, "newgame"), "ok\n");
            o = go_wait(&s, "go depth 5");
            blank_times(o);
            assert_string_equal(o, want);
        }
        close_s(&s);
    }
}

/* The SearchParams of the threads: shared_history=1 (the helpers order by
 * and update the main search's history table) and helper_ahead=0 (helper 1
 * at the main search's depth, not one ahead).  With 2 and 3 threads the
 * moves are legal and the proven results stand; with one thread neither
 * changes anything (the main search keeps its own table, and there is no
 * helper): the same info lines as without them. */
static void test_thread_params(void **st)
{
    const struct engine *engines[] = {&loa_engine, &fetlar_engine};
    static const char *const specs[] = {"shared_history=1", "helper_ahead=0",
                                        "shared_history=1,helper_ahead=2"};
    (void)st;
    for (int k = 0; k < 2; k++) {
        struct session plain;
        char *o, want[1 << 15], line[128];
        open_e(&plain, engines[k]);
        o = go_wait(&plain, "go depth 5");
        snprintf(want, sizeof want, "%s", o);
        blank_times(want);
        close_s(&plain);

        for (size_t p = 0; p < ARRAY_LEN(specs); p++) {
            struct session s;
            open_e(&s, engines[k]);
            snprintf(line, sizeof line, "setoption name SearchParams value %s", specs[p]);
            assert_string_equal(cmd(&s, line), "ok\n");
            o = go_wait(&s, "go depth 5");
            blank_times(o);
            assert_string_equal(o, want);
            for (int t = 2; t <= 3; t++) {
                set_threads(&s, t);
                assert_string_equal(cmd(&s, "newgame"), "ok\n");
                o = go_wait(&s, "go depth 6");
                assert_true(is_legal(engines[k], NULL, bestmove(o)));
                check_last_info(o, 6);
            }
            if (engines[k] == &fetlar_engine) {
                /* the king escapes in 3 plies */
                assert_string_equal(
                    cmd(&s, "position fen /11/11/11/11/3K7/t9t/11/11/2t8/11/11/ w 0"), "ok\n");
                o = go_wait(&s, "go depth 5");
                assert_non_null(strstr(o, "score win 3 "));
                assert_string_equal(bestmove(o), "d5-a5");
            } else {
                assert_string_equal(cmd(&s, "position fen ww6/8/8/8/8/4b3/7b/6w1 b"), "ok\n");
                o = go_wait(&s, "go depth 4");
                assert_non_null(strstr(o, "score win 1 "));
                assert_string_equal(bestmove(o), "e3xg1");
            }
            close_s(&s);
        }
    }
}

/* stop during a 4-thread infinite search yields a legal bestmove, at any
 * moment (at once, after a little, after more). */
static void test_stop_infinite(void **st)
{
    const struct engine *engines[] = {&loa_engine, &fetlar_engine};
    static const int waits_us[] = {0, 1000, 30000, 200000};
    (void)st;
    for (int k = 0; k < 2; k++) {
        struct session s;
        open_e(&s, engines[k]);
        set_threads(&s, 4);
        for (size_t w = 0; w < ARRAY_LEN(waits_us); w++) {
            cmd(&s, "go infinite");
            usleep((useconds_t)waits_us[w]);
            char *o = cmd(&s, "stop");
            if (!strstr(o, "bestmove"))
                o = wait_for(&s, "bestmove");
            assert_true(is_legal(engines[k], NULL, bestmove(o)));
        }
        close_s(&s);
    }
}

/* quit (mep_free, what the program does after quit) during 2..4-thread
 * searches: every thread ends, nothing leaks (ASan in make unit SAN=1). */
static void test_quit_during_search(void **st)
{
    const struct engine *engines[] = {&loa_engine, &fetlar_engine, &nim_engine};
    (void)st;
    for (int k = 0; k < 3; k++)
        for (int t = 2; t <= 4; t++) {
            struct session s;
            open_e(&s, engines[k]);
            set_threads(&s, t);
            cmd(&s, t == 3 ? "go depth 60" : "go infinite");
            usleep(t == 4 ? 50000 : 5000);
            assert_int_equal(mep_line(s.m, "quit"), 1);
            close_s(&s);
        }
}

/* go nodes N with helpers (the limit counts the nodes of every thread):
 * the search ends with a legal move. */
static void test_nodes_limit(void **st)
{
    struct session s;
    (void)st;
    open_e(&s, &loa_engine);
    set_threads(&s, 3);
    char *o = go_wait(&s, "go nodes 30000");
    assert_true(is_legal(&loa_engine, NULL, bestmove(o)));
    close_s(&s);
}

/* The bound ab.h states for `go nodes N` with Threads = T > 1: N + N/8 +
 * 4T + 1024, plus the main search's first iteration (first1: its nodes
 * searched alone; doubled, since the helpers' table entries can change
 * its shape).  One thread: N + 1023 plus the step it unwinds in. */
static uint64_t nodes_bound(uint64_t n, int t, uint64_t first1)
{
    if (t == 1)
        return n + AB_NODES_MASK + 1 + 64;
    return n + n / AB_NL_SHARE + (uint64_t)AB_NL_SLACK_THREAD * (uint64_t)t +
           AB_NODES_MASK + 1 + 2 * first1;
}

/* An evaluation for the search alone (LOA's moves, a hash-noise score):
 * the node limit is the search's, whatever the game's knowledge. */
static int noise_eval(void *eng, const void *st)
{
    (void)eng;
    return (int)(loa_game.hash(st) % 401) - 200;
}
static unsigned noise_key(gmove m) { return (unsigned)m % AB_KEYS; }
/* No captures to resolve, but a quiescence node (as the engines have): every
 * node looks at the limits, as in LOA and Fetlar. */
static int noise_tactical(const void *st, gmove *out, int max)
{
    (void)st, (void)out, (void)max;
    return 0;
}
static const struct ab_ops noise_ops = {
    .eval = noise_eval, .move_key = noise_key, .gen_tactical = noise_tactical};

static uint64_t search_nodes(int threads, uint64_t limit, int depth)
{
    struct ab ab;
    struct search_req req;
    atomic_bool stop = false;
    game_config_buf cfg;
    game_state_buf st;
    gmove ponder;
    loa_game.config_default(cfg.b);
    loa_game.start(st.b, cfg.b);
    ab_init(&ab, &loa_game, &noise_ops, NULL, 1);
    assert_int_equal(ab_set_threads(&ab, threads), 0);
    memset(&req, 0, sizeof req);
    limits_clear(&req.lim);
    req.lim.nodes = limit;
    req.lim.depth = depth;
    req.game = &loa_game;
    req.pos = st.b;
    req.start_us = now_us();
    req.stop = &stop;
    gmove m = ab_go(&ab, &req, &ponder);
    assert_true(m != GAME_MOVE_NONE);
    uint64_t n = ab_nodes(&ab);
    ab_free(&ab);
    return n;
}

/* go nodes N counts the nodes of every thread: at Threads 1, 2, 8 and 256
 * the nodes searched in all (ab_nodes, exact after the search) stay within
 * the bound ab.h states.  (Before, helpers never looked at the limit:
 * Threads=256 searched millions of nodes for go nodes 100.) */
static void test_nodes_limit_summed(void **st)
{
    static const int threads[] = {1, 2, 8, 256};
    static const uint64_t limits[] = {100, 5000, 100000};
    (void)st;
    uint64_t first1 = search_nodes(1, 0, 1);
    for (size_t i = 0; i < ARRAY_LEN(threads); i++)
        for (size_t j = 0; j < ARRAY_LEN(limits); j++) {
            uint64_t n = search_nodes(threads[i], limits[j], 0);
            uint64_t bound = nodes_bound(limits[j], threads[i], first1);
            if (n > bound)
                fail_msg("Threads=%d go nodes %llu searched %llu nodes (bound %llu)", threads[i],
                         (unsigned long long)limits[j], (unsigned long long)n,
                         (unsigned long long)bound);
        }
}

/* The same through MEP with the real engines: the nodes of the last info
 * line before bestmove (what a GUI is shown) within the bound, and a move
 * searched (an info line; LOA, Fetlar). */
static void test_nodes_limit_reported(void **st)
{
    static const struct engine *const engines[] = {&loa_engine, &fetlar_engine};
    static const int threads[] = {1, 2, 8, 256};
    (void)st;
    for (size_t e = 0; e < ARRAY_LEN(engines); e++)
        for (size_t i = 0; i < ARRAY_LEN(threads); i++) {
            struct session s;
            open_e(&s, engines[e]);
            set_threads(&s, threads[i]);
            assert_string_equal(cmd(&s, "newgame"), "ok\n");
            assert_string_equal(cmd(&s, "position start"), "ok\n");
            char *o = go_wait(&s, "go nodes 100");
            const char *last = NULL, *p = o;
            while ((p = strstr(p, " nodes ")) != NULL)
                last = p++;
            assert_non_null(last);
            unsigned long long n = strtoull(last + 7, NULL, 10);
            /* first iteration: at most 4096 nodes in either start position */
            if (n > nodes_bound(100, threads[i], 4096))
                fail_msg("%s Threads=%d go nodes 100: info nodes %llu", engines[e]->game->name,
                         threads[i], n);
            assert_true(is_legal(engines[e], NULL, bestmove(o)));
            close_s(&s);
        }
}

/* The moves being searched (AB_DEFER_DEPTH, deferred by the other
 * threads): every thread takes its mark back when it leaves the move, also
 * when the search stops under it, so after a search the table is empty (a
 * mark left behind would defer that move in every later search).  Threads
 * 2 and 4, to a depth and stopped by a node limit mid-iteration; a
 * 1-thread search has no table. */
static void test_busy_marks_cleared(void **st)
{
    static const int threads[] = {2, 4};
    static const uint64_t limits[] = {0, 30000, 200000};
    (void)st;
    for (size_t i = 0; i < ARRAY_LEN(threads); i++)
        for (size_t j = 0; j < ARRAY_LEN(limits); j++) {
            struct ab ab;
            struct search_req req;
            atomic_bool stop = false;
            game_config_buf cfg;
            game_state_buf pos;
            gmove ponder;
            loa_game.config_default(cfg.b);
            loa_game.start(pos.b, cfg.b);
            ab_init(&ab, &loa_game, &noise_ops, NULL, 1);
            assert_null(ab.busy);
            assert_int_equal(ab_set_threads(&ab, threads[i]), 0);
            assert_non_null(ab.busy);
            memset(&req, 0, sizeof req);
            limits_clear(&req.lim);
            req.lim.nodes = limits[j];
            req.lim.depth = limits[j] ? 0 : 7;
            req.game = &loa_game;
            req.pos = pos.b;
            req.start_us = now_us();
            req.stop = &stop;
            assert_true(ab_go(&ab, &req, &ponder) != GAME_MOVE_NONE);
            for (int k = 0; k < AB_BUSY_SLOTS; k++)
                if (atomic_load(&ab.busy[k]))
                    fail_msg("Threads=%d nodes %llu: busy slot %d left marked", threads[i],
                             (unsigned long long)limits[j], k);
            assert_int_equal(ab_set_threads(&ab, 1), 0);
            assert_null(ab.busy);
            ab_free(&ab);
        }
}

/* The lockless table: a slot whose two words come from two different
 * stores (two threads writing it at once) is a miss for both keys; whole
 * slots are hits. */
static void test_tt_torn_slot(void **st)
{
    struct tt t;
    struct tt_entry e;
    (void)st;
    assert_int_equal(tt_init(&t, 1), 0);
    uint64_t k1 = 0x1234567800000000ull | 5, k2 = 0x9abcdef000000000ull | 5; /* one bucket */
    tt_store(&t, k1, 111, 50, 7, 6, TT_EXACT);
    struct tt_slot *slot = &t.e[5 * 4];
    uint64_t d1 = atomic_load(&slot->data), c1 = atomic_load(&slot->check);
    assert_int_equal(tt_probe(&t, k1, &e), 1);
    assert_int_equal(e.move, 111);
    assert_int_equal(e.score, 50);
    tt_clear(&t);
    tt_store(&t, k2, 222, -80, 9, 4, TT_LOWER);
    slot = &t.e[5 * 4];
    uint64_t d2 = atomic_load(&slot->data), c2 = atomic_load(&slot->check);
    assert_int_equal(tt_probe(&t, k2, &e), 1);
    assert_int_equal(e.move, 222);
    /* torn both ways */
    atomic_store(&slot->data, d1);
    atomic_store(&slot->check, c2);
    assert_int_equal(tt_probe(&t, k1, &e), 0);
    assert_int_equal(tt_probe(&t, k2, &e), 0);
    atomic_store(&slot->data, d2);
    atomic_store(&slot->check, c1);
    assert_int_equal(tt_probe(&t, k1, &e), 0);
    assert_int_equal(tt_probe(&t, k2, &e), 0);
    /* whole again */
    atomic_store(&slot->data, d1);
    assert_int_equal(tt_probe(&t, k1, &e), 1);
    assert_int_equal(e.move, 111);
    assert_int_equal(e.depth, 6);
    tt_free(&t);
}

/* The evaluation cache (LOA's and Fetlar's): a stored score is found by
 * its key only, a slot torn between two stores is a miss, and key 0 (the
 * empty slot's) is never found. */
static void test_evalcache_torn_slot(void **st)
{
    struct evalcache_slot t[8] = {{0}};
    int v = 12345;
    (void)st;
    const uint64_t k1 = 0x1234567800000003ull, k2 = 0x9abcdef000000003ull; /* one slot */
    struct evalcache_slot *s = evalcache_slot(t, 8, k1);
    assert_ptr_equal(s, evalcache_slot(t, 8, k2));
    assert_false(evalcache_get(s, k1, &v));
    assert_false(evalcache_get(s, 0, &v)); /* the empty slot */
    evalcache_put(s, k1, -250);
    assert_true(evalcache_get(s, k1, &v));
    assert_int_equal(v, -250);
    assert_false(evalcache_get(s, k2, &v));
    uint64_t c1 = atomic_load(&s->check), d1 = atomic_load(&s->score);
    evalcache_put(s, k2, 77);
    uint64_t c2 = atomic_load(&s->check);
    atomic_store(&s->check, c1); /* k1's check, k2's score */
    assert_false(evalcache_get(s, k1, &v));
    assert_false(evalcache_get(s, k2, &v));
    atomic_store(&s->check, c2);
    atomic_store(&s->score, d1); /* k2's check, k1's score */
    assert_false(evalcache_get(s, k1, &v));
    assert_false(evalcache_get(s, k2, &v));
    atomic_store(&s->score, 77);
    assert_true(evalcache_get(s, k2, &v));
    assert_int_equal(v, 77);
}

/* A big table is mapped on a 2 MiB boundary (a huge page's) and read as
 * zero; a store survives until newgame's clear, which maps it anew, all
 * zero again; a small one comes from calloc. */
static void test_tt_mapped(void **st)
{
    struct tt t;
    struct tt_entry e;
    uint64_t k = 0x5555aaaa00000000ull | 77;
    (void)st;
    assert_int_equal(tt_init(&t, 16), 0);
    assert_true(t.mapped >= ((size_t)16 << 20));
    assert_int_equal((uintptr_t)t.e & (((uintptr_t)2 << 20) - 1), 0);
    assert_int_equal(tt_probe(&t, k, &e), 0);
    tt_store(&t, k, 333, 12, 3, 5, TT_EXACT);
    assert_int_equal(tt_probe(&t, k, &e), 1);
    assert_int_equal(e.move, 333);
    tt_clear(&t);
    assert_true(t.mapped > 0);
    assert_int_equal(tt_probe(&t, k, &e), 0);
    assert_int_equal(tt_hashfull(&t), 0);
    tt_free(&t);
    assert_int_equal(tt_init(&t, 1), 0);
    assert_int_equal(t.mapped, 0);
    assert_int_equal((uintptr_t)t.e & 63, 0);
    tt_free(&t);
}

/* A mapped table is faulted in by its warming thread, nothing stored (a
 * search then does not wait on page faults: a 2 MiB page took 2.6-5 ms on
 * the project's machines), and it still reads as empty; tt_free ends a
 * warming still under way. */
static void test_tt_warmed(void **st)
{
    struct tt t;
    struct tt_entry e;
    size_t len = (size_t)16 << 20, pg = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *vec = malloc(len / pg);
    int all = 0;
    (void)st;
    assert_non_null(vec);
    assert_int_equal(tt_init(&t, 16), 0);
    /* a minute at most for 16 MiB: only a machine that stopped fails */
    for (int i = 0; i < 6000 && !all; i++) {
        assert_int_equal(mincore(t.e, len, vec), 0);
        all = 1;
        for (size_t k = 0; k < len / pg; k++)
            all &= vec[k] & 1;
        if (!all)
            usleep(10000);
    }
    assert_true(all);
    assert_int_equal(tt_probe(&t, 12345, &e), 0); /* still all zero */
    assert_int_equal(tt_hashfull(&t), 0);
    tt_free(&t);
    assert_null(t.warm);
    assert_int_equal(tt_init(&t, 256), 0); /* freed at once, warming or not */
    tt_free(&t);
    free(vec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tt_torn_slot),
        cmocka_unit_test(test_evalcache_torn_slot),
        cmocka_unit_test(test_tt_mapped),
        cmocka_unit_test(test_tt_warmed),
        cmocka_unit_test(test_option_and_busy),
        cmocka_unit_test(test_cb_legalmoves),
        cmocka_unit_test(test_legal_and_wins),
        cmocka_unit_test(test_threads_1_4_1),
        cmocka_unit_test(test_thread_params),
        cmocka_unit_test(test_stop_infinite),
        cmocka_unit_test(test_quit_during_search),
        cmocka_unit_test(test_nodes_limit),
        cmocka_unit_test(test_nodes_limit_summed),
        cmocka_unit_test(test_nodes_limit_reported),
        cmocka_unit_test(test_busy_marks_cleared),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
