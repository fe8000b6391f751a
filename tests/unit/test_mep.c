/* test_mep.c - the MEP library in-process (with the LOA engine behind it):
 * framing, atomic errors, options without clamping, busy/ping/stop during
 * search; and the game registry's start-up check. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/game.h"
#include "core/util.h"
#include "protocol/mep.h"

extern const struct engine loa_engine;

struct session {
    struct mep *m;
    FILE *f;
    long pos; /* read offset */
};

static void open_s(struct session *s)
{
    s->f = tmpfile();
    assert_non_null(s->f);
    s->m = mep_new(&loa_engine, s->f);
    s->pos = 0;
}

static void close_s(struct session *s)
{
    mep_free(s->m);
    fclose(s->f);
}

/* Send a line and return everything written since the last call. */
static char *cmd(struct session *s, const char *line)
{
    static char out[1 << 16];
    size_t n;
    mep_line(s->m, line);
    fflush(s->f);
    fseek(s->f, s->pos, SEEK_SET);
    n = fread(out, 1, sizeof out - 1, s->f);
    out[n] = '\0';
    s->pos += (long)n;
    return out;
}

/* Wait until the output holds `want` (polling, up to ms). */
static char *wait_for(struct session *s, const char *want, int ms, int64_t *latency_us)
{
    static char acc[1 << 16];
    int64_t t0 = now_us();
    size_t len = 0;
    acc[0] = '\0';
    while (now_us() - t0 < (int64_t)ms * 1000) {
        fflush(s->f);
        fseek(s->f, s->pos, SEEK_SET);
        size_t n = fread(acc + len, 1, sizeof acc - 1 - len, s->f);
        s->pos += (long)n;
        len += n;
        acc[len] = '\0';
        if (strstr(acc, want)) {
            if (latency_us)
                *latency_us = now_us() - t0;
            return acc;
        }
        usleep(1000);
    }
    fail_msg("no '%s' within %d ms; got: %s", want, ms, acc);
    return acc;
}

static void test_handshake(void **st)
{
    struct session s;
    char *o;
    (void)st;
    open_s(&s);
    o = cmd(&s, "mep");
    assert_non_null(strstr(o, "id name Medan LOA\n"));
    assert_non_null(strstr(o, "protocol 1\n"));
    assert_non_null(strstr(o, "game loa players 2\n"));
    assert_non_null(strstr(o, "option name Hash type spin default 64 min 1 max"));
    assert_non_null(strstr(o, "option name Strategy type combo default search var search var greedy var random\n"));
    assert_true(strlen(o) > 6 && strcmp(o + strlen(o) - 6, "mepok\n") == 0);
    assert_string_equal(cmd(&s, "isready"), "readyok\n");
    assert_string_equal(cmd(&s, "ping abc"), "pong abc\n");
    assert_string_equal(cmd(&s, ""), "");
    assert_string_equal(cmd(&s, "# a comment"), "");
    assert_string_equal(cmd(&s, "bogus 1 2"), "error unknown_command 'bogus' (try help)\n");
    close_s(&s);
}

static void test_position_atomic(void **st)
{
    struct session s;
    char before[256];
    (void)st;
    open_s(&s);
    assert_string_equal(cmd(&s, "position start moves b1-b3 a2-c2"), "ok\n");
    snprintf(before, sizeof before, "%s", cmd(&s, "fen"));
    assert_string_equal(before, "fen 1bbbbbb1/w6w/w6w/w6w/w6w/wb5w/2w4w/2bbbbb1 b\nok\n");
    assert_true(str_prefix(cmd(&s, "position start moves b1-b3 a2-c2 zz9"),
                           "error illegal_move 3 zz9 "));
    assert_string_equal(cmd(&s, "fen"), before);
    assert_true(str_prefix(cmd(&s, "position fen 8/8 b"), "error syntax "));
    assert_string_equal(cmd(&s, "fen"), before);
    assert_true(str_prefix(cmd(&s, "position fen 8/8/8/8/8/8/8/8 b"), "error illegal_position "));
    assert_string_equal(cmd(&s, "fen"), before);
    assert_true(str_prefix(cmd(&s, "play b1-b3"), "error illegal_move "));
    assert_true(str_prefix(cmd(&s, "undo 3"), "error bad_value "));
    assert_string_equal(cmd(&s, "fen"), before);
    assert_string_equal(cmd(&s, "undo 2"), "ok\n");
    assert_true(str_prefix(cmd(&s, "fen"), "fen 1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b\n"));
    close_s(&s);
}

static void test_game_over(void **st)
{
    struct session s;
    (void)st;
    open_s(&s);
    assert_string_equal(cmd(&s, "position fen ww6/8/8/8/8/4b3/7b/6w1 b moves e3xg1"), "ok\n");
    assert_string_equal(cmd(&s, "result"), "result p1win reason connected scores 1 0\nok\n");
    assert_true(str_prefix(cmd(&s, "go depth 3"), "error game_over "));
    assert_string_equal(cmd(&s, "legalmoves"), "moves\nok\n");
    assert_true(str_prefix(cmd(&s, "play a8-a7"), "error game_over "));
    close_s(&s);
}

static void test_options(void **st)
{
    struct session s;
    (void)st;
    open_s(&s);
    assert_string_equal(cmd(&s, "setoption name hash value 8"), "ok\n");
    assert_true(str_prefix(cmd(&s, "setoption name Hash value 0"), "error bad_value "));
    assert_true(str_prefix(cmd(&s, "setoption name Hash value 99999999"), "error bad_value "));
    assert_true(str_prefix(cmd(&s, "setoption name Hash value 12x"), "error bad_value "));
    assert_true(str_prefix(cmd(&s, "setoption name Nope value 1"), "error unknown_option "));
    assert_true(str_prefix(cmd(&s, "setoption name Strategy value clever"), "error bad_value "));
    assert_string_equal(cmd(&s, "setoption name Strategy value GREEDY"), "ok\n");
    assert_true(str_prefix(cmd(&s, "setoption name Strategy"), "error syntax "));
    assert_true(str_prefix(cmd(&s, "setoption name ClearHash value 1"), "error syntax "));
    assert_string_equal(cmd(&s, "setoption name ClearHash"), "ok\n");
    assert_true(str_prefix(cmd(&s, "setoption Hash 8"), "error syntax "));
    close_s(&s);
}

static void test_go_busy_ping_stop(void **st)
{
    struct session s;
    char *o;
    (void)st;
    open_s(&s);
    assert_null(strstr(cmd(&s, "go infinite"), "bestmove")); /* info lines may come */
    usleep(100000);
    o = cmd(&s, "legalmoves");
    assert_non_null(strstr(o, "error busy "));
    o = cmd(&s, "ping 9");
    assert_non_null(strstr(o, "pong 9\n"));
    o = cmd(&s, "isready");
    assert_non_null(strstr(o, "readyok\n"));
    /* stop joins the search: the bestmove is written when stop returns
     * (no clock involved; the latency figure is medan-referee check's) */
    o = cmd(&s, "stop");
    assert_non_null(strstr(o, "bestmove "));
    assert_string_equal(cmd(&s, "stop"), "ok\n");
    o = cmd(&s, "go depth 2 p1time 1000 p2time 1000");
    wait_for(&s, "bestmove ", 10000, NULL);
    assert_true(str_prefix(cmd(&s, "go depth x"), "error bad_value "));
    assert_true(str_prefix(cmd(&s, "go wtime 100"), "error syntax "));
    assert_true(str_prefix(cmd(&s, "go p9time 100"), "error syntax "));
    close_s(&s);
}

static void test_perft_divide(void **st)
{
    struct session s;
    char *o;
    (void)st;
    open_s(&s);
    mep_line(s.m, "perft 3");
    mep_wait(s.m);
    o = cmd(&s, "isready");
    assert_true(str_prefix(o, "perft 3 44952 time "));
    mep_line(s.m, "divide 1");
    mep_wait(s.m);
    o = cmd(&s, "isready");
    assert_non_null(strstr(o, "perft 1 move b1-b3 1\n"));
    assert_non_null(strstr(o, "perft 1 36 time "));
    assert_true(str_prefix(cmd(&s, "perft -1"), "error syntax "));
    close_s(&s);
}

static void test_registry(void **st)
{
    char err[GAME_ERR_LEN], buf[8192];
    (void)st;
    assert_non_null(game_registry[0]);
    for (int i = 0; game_registry[i]; i++) {
        const struct game *g = game_registry[i];
        unsigned char cfg[GAME_MAX_CONFIG], a[GAME_MAX_STATE], b[GAME_MAX_STATE];
        if (game_check(g, err, sizeof err))
            fail_msg("%s", err);
        assert_ptr_equal(game_find(g->name), g);
        for (int j = 0; j < i; j++)
            assert_string_not_equal(game_registry[j]->name, g->name);
        /* the start position round-trips through its string */
        g->config_default(cfg);
        g->start(a, cfg);
        g->format_pos(a, buf, sizeof buf);
        if (g->parse_pos(b, cfg, buf, err, sizeof err))
            fail_msg("%s: start string '%s' does not parse: %s", g->name, buf, err);
        assert_true(g->hash(a) == g->hash(b));
    }
    assert_null(game_find("chess"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_handshake),
        cmocka_unit_test(test_position_atomic),
        cmocka_unit_test(test_game_over),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_go_busy_ping_stop),
        cmocka_unit_test(test_perft_divide),
        cmocka_unit_test(test_registry),
    };
    return cmocka_run_group_tests_name("mep", tests, NULL, NULL);
}
