/* test_pns.c - the proof-number solver (search/pns.c) against known
 * answers: Nim by its theory (nim-sum) and by a full-depth search; LOA and
 * Fetlar endgames from seeded random games valued by a plain full-width
 * search (tests/tools/endgames.h), wins and losses both, with the exact
 * distance; the game's history (a repeated position is no win), also
 * across the table's generation wrap; hostile
 * input (a finished game, no legal move, a huge node limit with stop, stop
 * mid-proof through MEP's go solve, refused limits); the alpha-beta
 * root solve never playing a move it proved lost.  Waits only catch a
 * hang: no wall-clock bound is asserted. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "engines/fetlar/fetlar.h"
#include "engines/fetlar/fetlar_api.h"
#include "engines/loa/loa_api.h"
#include "protocol/mep.h"
#include "search/ab.h"
#include "search/pns.h"
#include "tests/games/nim/nim_api.h"
#include "tests/tools/endgames.h"

static void parse(const struct game *g, void *st, const char *fen)
{
    char err[GAME_ERR_LEN];
    game_config_buf cfg;
    g->config_default(cfg.b);
    if (g->parse_pos(st, cfg.b, fen, err, sizeof err))
        fail_msg("parse '%s': %s", fen, err);
}

static uint64_t fetlar_key(const void *st)
{
    const struct fetlar_state *s = st;
    return s->hash ^ ((uint64_t)s->quiet + 1) * 0xd6e8feb86659fd93ULL;
}

static int exact_count;

/* pos solved with a budget, compared with its known value v (+d / -d). */
static void check_known(struct pns *p, const void *pos, int v, const char *what)
{
    struct pns_result r;
    char fen[4096];
    pns_solve(p, pos, NULL, 0, 2000000, 0, NULL, &r);
    p->game->format_pos(pos, fen, sizeof fen);
    if (r.status != (v > 0 ? PNS_WIN : PNS_LOSS))
        fail_msg("%s %s: known %+d, solver status %d after %llu nodes", what, fen, v, r.status,
                 (unsigned long long)r.nodes);
    /* exact: the distance; else an upper bound (the refinement's budget
     * ran out) */
    if (r.exact ? r.plies != abs(v) : r.plies < abs(v))
        fail_msg("%s %s: known %+d, solver %d plies (exact %d)", what, fen, v, r.plies, r.exact);
    exact_count += r.exact;
    /* the move keeps the promise: after it the other side does not win
     * sooner than the rest of the distance, and a win wins within it */
    game_state_buf c;
    uint64_t nodes = 0;
    assert_true(r.move != GAME_MOVE_NONE);
    memcpy(c.b, pos, p->game->state_size);
    p->game->play(c.b, r.move);
    if (v > 0)
        assert_true(eg_win_within(p->game, c.b, p->game->to_move(pos), abs(v) - 1, &nodes));
}

/* Nim: win iff the nim-sum is not 0; the distance equals a full-depth
 * search's. */
static void test_nim(void **unused)
{
    struct pns p;
    const struct game *g = &nim_game;
    (void)unused;
    assert_int_equal(pns_init(&p, g, NULL, 4), 0);
    int wins = 0, losses = 0;
    for (int a = 0; a <= 3; a++)
        for (int b = 0; b <= 3; b++)
            for (int c = 0; c <= 4; c++) {
                char fen[64];
                game_state_buf st;
                struct pns_result r;
                uint64_t nodes = 0;
                if (a + b + c == 0)
                    continue;
                snprintf(fen, sizeof fen, "%d,%d,%d 1", a, b, c);
                parse(g, st.b, fen);
                pns_solve(&p, st.b, NULL, 0, 0, 0, NULL, &r);
                int v = eg_value(g, st.b, a + b + c, &nodes);
                assert_int_equal(r.status, (a ^ b ^ c) ? PNS_WIN : PNS_LOSS);
                assert_int_equal(r.status, v > 0 ? PNS_WIN : PNS_LOSS);
                assert_true(r.exact);
                assert_int_equal(r.plies, abs(v));
                wins += v > 0;
                losses += v < 0;
            }
    assert_true(wins > 10 && losses > 5);
    pns_free(&p);
}

/* Endgames a few plies before the end of random games, valued by a
 * full-width search to maxd plies: the solver agrees, wins and losses. */
static void endgames(const struct game *g, const struct pns_ops *ops, int maxd, int want)
{
    struct pns p;
    int wins = 0, losses = 0;
    assert_int_equal(pns_init(&p, g, ops, 16), 0);
    exact_count = 0;
    for (uint64_t seed = 1; wins + losses < want && seed < 5000; seed++) {
        unsigned char *st;
        int n;
        if (eg_random_game(g, seed, 400, &st, &n)) {
            int k = 1 + (int)(seed % (uint64_t)(2 * maxd));
            if (n - 1 - k >= 0) {
                const void *pos = st + (size_t)(n - 1 - k) * g->state_size;
                uint64_t nodes = 0;
                int v = eg_value(g, pos, maxd, &nodes);
                if (v) {
                    check_known(&p, pos, v, g->name);
                    wins += v > 0;
                    losses += v < 0;
                }
            }
        }
        free(st);
    }
    assert_int_equal(wins + losses, want);
    assert_true(wins > 0 && losses > 0);
    assert_true(exact_count * 4 >= want * 3); /* most distances exact */
    pns_free(&p);
}

static void test_loa_endgames(void **unused)
{
    (void)unused;
    endgames(&loa_game, NULL, 5, 30);
}

static void test_fetlar_endgames(void **unused)
{
    struct pns_ops ops = {.key = fetlar_key};
    (void)unused;
    endgames(&fetlar_game, &ops, 3, 20);
}

/* A win whose every winning move leads to a position of the game's
 * history is no win by those moves: the solver plays none of them. */
static void test_history(void **unused)
{
    struct pns p;
    struct pns_result r;
    game_state_buf st, c;
    gmove *mv = game_move_buf(&loa_game);
    uint64_t hist[128];
    int nh = 0;
    (void)unused;
    /* black wins in one (tests/transcripts/loa/search.t) */
    parse(&loa_game, st.b, "ww6/8/8/8/8/4b3/7b/6w1 b");
    assert_int_equal(pns_init(&p, &loa_game, NULL, 4), 0);
    pns_solve(&p, st.b, NULL, 0, 100000, 0, NULL, &r);
    assert_int_equal(r.status, PNS_WIN);
    assert_int_equal(r.plies, 1);
    /* every move that does not end the game at once, in the history:
     * reaching one is a repetition; the win in one must stay */
    int n = game_gen_moves(&loa_game, st.b, mv);
    for (int i = 0; i < n && nh < 128; i++) {
        struct game_result res;
        memcpy(c.b, st.b, loa_game.state_size);
        loa_game.play(c.b, mv[i]);
        loa_game.result(c.b, NULL, 0, &res);
        if (!res.over)
            hist[nh++] = loa_game.hash(c.b);
    }
    pns_solve(&p, st.b, hist, nh, 100000, 0, NULL, &r);
    assert_int_equal(r.status, PNS_WIN);
    assert_int_equal(r.plies, 1);
    /* a win in three (from the LOA suite) and its winning first moves all
     * made repetitions: no proof may run through them */
    parse(&loa_game, st.b, "2b4w/8/3w4/5wb1/3b4/w6w/w5w1/8 b");
    pns_solve(&p, st.b, NULL, 0, 1000000, 0, NULL, &r);
    assert_int_equal(r.status, PNS_WIN);
    assert_int_equal(r.plies, 3);
    nh = 0;
    n = game_gen_moves(&loa_game, st.b, mv);
    for (int i = 0; i < n && nh < 128; i++) {
        uint64_t nodes = 0;
        memcpy(c.b, st.b, loa_game.state_size);
        loa_game.play(c.b, mv[i]);
        if (eg_win_within(&loa_game, c.b, loa_game.to_move(st.b), 2, &nodes))
            hist[nh++] = loa_game.hash(c.b);
    }
    assert_true(nh > 0);
    pns_solve(&p, st.b, hist, nh, 200000, 0, NULL, &r);
    if (r.status == PNS_WIN) {
        assert_true(r.plies > 3);
        memcpy(c.b, st.b, loa_game.state_size);
        loa_game.play(c.b, r.move);
        for (int i = 0; i < nh; i++)
            assert_true(hist[i] != loa_game.hash(c.b));
    }
    pns_free(&p);
    free(mv);
}

/* The table's generations wrap every 255 solves and the table is emptied
 * then (search/pns.c, table_clear): a proof stored 255 solves earlier must
 * not be read as current.  The win in three is proved without a history;
 * 254 other solves follow; then it is solved again, in the generation the
 * first proof was stored in, with every position the defender can reach
 * after a winning first move in the history: there the defender repeats,
 * so no win in three stands, but a stale entry of a first move's position
 * (lost in two) would give the old proof.  Twice, so that the emptied
 * table is used and emptied again. */
static void test_generation_wrap(void **unused)
{
    struct pns p;
    struct pns_result r;
    game_state_buf st, one, c, d;
    gmove *mv = game_move_buf(&loa_game), *rep = game_move_buf(&loa_game);
    enum { HMAX = 4096 };
    uint64_t *hist = xmalloc(HMAX * sizeof *hist);
    int nh = 0, nwin = 0;
    (void)unused;
    parse(&loa_game, st.b, "2b4w/8/3w4/5wb1/3b4/w6w/w5w1/8 b");
    parse(&loa_game, one.b, "ww6/8/8/8/8/4b3/7b/6w1 b");
    int n = game_gen_moves(&loa_game, st.b, mv);
    for (int i = 0; i < n; i++) {
        uint64_t nodes = 0;
        memcpy(c.b, st.b, loa_game.state_size);
        loa_game.play(c.b, mv[i]);
        if (!eg_win_within(&loa_game, c.b, loa_game.to_move(st.b), 2, &nodes))
            continue;
        nwin++;
        int nr = game_gen_moves(&loa_game, c.b, rep);
        for (int k = 0; k < nr; k++) {
            struct game_result res;
            memcpy(d.b, c.b, loa_game.state_size);
            loa_game.play(d.b, rep[k]);
            loa_game.result(d.b, NULL, 0, &res);
            if (!res.over) {
                assert_true(nh < HMAX);
                hist[nh++] = loa_game.hash(d.b);
            }
        }
    }
    assert_true(nwin > 0 && nh > 0);
    assert_int_equal(pns_init(&p, &loa_game, NULL, 4), 0);
    for (int round = 0; round < 2; round++) {
        pns_solve(&p, st.b, NULL, 0, 1000000, 0, NULL, &r);
        assert_int_equal(r.status, PNS_WIN);
        assert_int_equal(r.plies, 3);
        for (int i = 0; i < 254; i++) {
            pns_solve(&p, one.b, NULL, 0, 100000, 0, NULL, &r);
            assert_int_equal(r.status, PNS_WIN);
            assert_int_equal(r.plies, 1);
        }
        pns_solve(&p, st.b, hist, nh, 200000, 0, NULL, &r);
        if (r.status == PNS_WIN)
            assert_true(r.plies > 3);
    }
    pns_free(&p);
    free(hist);
    free(rep);
    free(mv);
}

static atomic_bool stop_flag;
static void *stopper(void *arg)
{
    (void)arg;
    usleep(20000);
    atomic_store(&stop_flag, true);
    return NULL;
}

/* Hostile input: the game already over, no legal move, a huge node
 * limit ended by the stop flag mid-proof, the flag already raised. */
static void test_hostile(void **unused)
{
    struct pns p;
    struct pns_result r;
    game_state_buf st;
    pthread_t t;
    (void)unused;
    assert_int_equal(pns_init(&p, &loa_game, NULL, 4), 0);
    /* white's two pieces connected: over, won by white, the side to move
     * (the rules' result, `result p2win`) */
    parse(&loa_game, st.b, "ww6/8/8/8/8/4b3/7b/6b1 w");
    pns_solve(&p, st.b, NULL, 0, 0, 0, NULL, &r);
    assert_true(r.finished);
    assert_int_equal(r.status, PNS_WIN);
    assert_int_equal(r.plies, 0);
    assert_true(r.move == GAME_MOVE_NONE);
    /* the start: no proof near; a huge limit, stopped from outside */
    loa_game.start(st.b, NULL);
    {
        game_config_buf cfg;
        loa_game.config_default(cfg.b);
        loa_game.start(st.b, cfg.b);
    }
    atomic_store(&stop_flag, false);
    pthread_create(&t, NULL, stopper, NULL);
    pns_solve(&p, st.b, NULL, 0, UINT64_MAX, 0, &stop_flag, &r);
    pthread_join(t, NULL);
    assert_int_equal(r.status, PNS_UNKNOWN);
    assert_true(r.move != GAME_MOVE_NONE); /* still a move to play */
    /* stopped before it starts: a legal move, no work beyond the root */
    pns_solve(&p, st.b, NULL, 0, UINT64_MAX, 0, &stop_flag, &r);
    assert_int_equal(r.status, PNS_UNKNOWN);
    assert_true(r.nodes < 1000);
    pns_free(&p);
    /* Nim with every heap empty: over */
    assert_int_equal(pns_init(&p, &nim_game, NULL, 1), 0);
    parse(&nim_game, st.b, "0,0,0 1");
    pns_solve(&p, st.b, NULL, 0, 10, 0, NULL, &r);
    assert_true(r.finished);
    assert_int_equal(r.status, PNS_LOSS);
    pns_free(&p);
}

/* ---- through MEP ------------------------------------------------------------------ */
struct session {
    pthread_mutex_t lock;
    char buf[1 << 16];
    size_t len;
};

static void out_line(void *ctx, const char *line)
{
    struct session *s = ctx;
    pthread_mutex_lock(&s->lock);
    size_t n = strlen(line);
    if (s->len + n + 2 < sizeof s->buf) {
        memcpy(s->buf + s->len, line, n);
        s->len += n;
        s->buf[s->len++] = '\n';
        s->buf[s->len] = '\0';
    }
    pthread_mutex_unlock(&s->lock);
}

static void test_mep(void **unused)
{
    static struct session s;
    struct mep *m;
    (void)unused;
    pthread_mutex_init(&s.lock, NULL);
    m = mep_new_cb(&loa_engine, out_line, &s);
    mep_line(m, "position fen ww6/8/8/8/8/4b3/7b/6w1 w");
    mep_line(m, "go solve nodes 100000");
    mep_wait(m);
    assert_non_null(strstr(s.buf, "score loss 4"));
    assert_non_null(strstr(s.buf, "bestmove "));
    /* a hard position, no limit: stop ends it with unsolved and bestmove */
    s.len = 0;
    s.buf[0] = '\0';
    mep_line(m, "position start");
    mep_line(m, "go solve");
    usleep(30000);
    mep_line(m, "stop"); /* returns once bestmove is out */
    assert_non_null(strstr(s.buf, "info string unsolved after "));
    assert_non_null(strstr(s.buf, "bestmove "));
    /* refused: other limits, both limits, ponder, a finished game */
    s.len = 0;
    s.buf[0] = '\0';
    mep_line(m, "go solve depth 3");
    mep_line(m, "go solve nodes 5 movetime 5");
    mep_line(m, "go nodes 5 solve");
    mep_line(m, "go solve nodes 0");
    mep_line(m, "position fen ww6/8/8/8/8/4b3/7b/6b1 w");
    mep_line(m, "go solve nodes 10");
    int errors = 0;
    for (const char *q = s.buf; (q = strstr(q, "error ")); q++)
        errors++;
    assert_int_equal(errors, 5);
    assert_null(strstr(s.buf, "bestmove"));
    mep_free(m);
}

/* The last "score win|loss N" of the session's output (a static copy), or "". */
static const char *last_score(struct session *s)
{
    static char out[64];
    const char *p = s->buf, *q, *last = NULL;
    while ((q = strstr(p, " score "))) {
        last = q + 7;
        p = q + 1;
    }
    out[0] = '\0';
    if (last) {
        size_t n = strcspn(last, " ");
        n += 1 + strcspn(last + n + 1, " \n");
        snprintf(out, sizeof out, "%.*s", (int)n, last);
    }
    return out;
}

/* Nim through MEP: the generic alpha-beta (search/ab.c, evaluation 0) to
 * full depth and go solve give the same proven score, win or loss, with
 * the same distance. */
static void test_nim_against_alpha_beta(void **unused)
{
    static struct session s;
    static const char *const fens[] = {"1,2,3 1", "2,2,1 1", "3,4,5 1", "1,1,4 2", "2,3,3 1",
                                       "0,4,4 2", "1,5,2 1"};
    struct mep *m;
    (void)unused;
    pthread_mutex_init(&s.lock, NULL);
    m = mep_new_cb(&nim_engine, out_line, &s);
    for (size_t i = 0; i < sizeof fens / sizeof *fens; i++) {
        char line[128], ab_score[64];
        snprintf(line, sizeof line, "position fen %s", fens[i]);
        mep_line(m, line);
        s.len = 0;
        s.buf[0] = '\0';
        mep_line(m, "go depth 20");
        mep_wait(m);
        snprintf(ab_score, sizeof ab_score, "%s", last_score(&s));
        s.len = 0;
        s.buf[0] = '\0';
        mep_line(m, "go solve nodes 1000000");
        mep_wait(m);
        if (!ab_score[0] || strcmp(ab_score, last_score(&s)) != 0)
            fail_msg("nim %s: alpha-beta '%s', solver '%s'", fens[i], ab_score, last_score(&s));
    }
    mep_free(m);
}

/* ---- the alpha-beta root solve --------------------------------------------------------- */
static int zero_eval(void *eng, const void *st)
{
    (void)eng;
    (void)st;
    return 0;
}
static unsigned key12(gmove m) { return (unsigned)(m & 4095); }

/* Positions where the side to move wins: alpha-beta at depth 1 (which
 * sees no further than one ply) with the root solve plays no move the
 * solve proved lost, and a proven loss for every move is still a move. */
static void test_ab_root(void **unused)
{
    static const struct ab_ops ops = {.eval = zero_eval, .move_key = key12};
    struct ab ab;
    const struct game *g = &loa_game;
    gmove *mv = game_move_buf(g);
    unsigned char lost[512];
    int checked = 0;
    (void)unused;
    ab_init(&ab, g, &ops, NULL, 4);
    for (uint64_t seed = 1; checked < 8 && seed < 3000; seed++) {
        unsigned char *st;
        int n;
        if (eg_random_game(g, seed, 400, &st, &n) && n > 4) {
            const void *pos = st + (size_t)(n - 4) * g->state_size;
            struct pns_result r;
            struct search_req req;
            atomic_bool stop = false;
            gmove ponder, best;
            int nm = game_gen_moves(g, pos, mv), nl = 0;
            assert_int_equal(ab_solver(&ab), 0);
            pns_root_check(ab.pns, pos, NULL, 0, 200000, 0, NULL, mv, nm, lost, &r);
            for (int i = 0; i < nm; i++) {
                nl += lost[i];
                if (lost[i]) { /* sound: the opponent really wins after it */
                    game_state_buf c;
                    uint64_t nodes = 0;
                    memcpy(c.b, pos, g->state_size);
                    g->play(c.b, mv[i]);
                    /* never a win for us within 5 plies after it */
                    assert_true(eg_value(g, c.b, 5, &nodes) >= 0);
                }
            }
            if (nl > 0 && nl < nm) {
                memset(&req, 0, sizeof req);
                limits_clear(&req.lim);
                req.lim.depth = 1;
                req.game = g;
                req.pos = pos;
                req.start_us = now_us();
                req.stop = &stop;
                best = ab_go(&ab, &req, &ponder);
                for (int i = 0; i < nm; i++)
                    if (mv[i] == best)
                        assert_false(lost[i]);
                checked++;
            }
        }
        free(st);
    }
    assert_true(checked > 0);
    ab_free(&ab);
    free(mv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nim),
        cmocka_unit_test(test_loa_endgames),
        cmocka_unit_test(test_fetlar_endgames),
        cmocka_unit_test(test_history),
        cmocka_unit_test(test_generation_wrap),
        cmocka_unit_test(test_hostile),
        cmocka_unit_test(test_mep),
        cmocka_unit_test(test_nim_against_alpha_beta),
        cmocka_unit_test(test_ab_root),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
