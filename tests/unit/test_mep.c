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
#include "engines/battalion/battalion_api.h"
#include "engines/fetlar/fetlar_api.h"
#include "engines/loa/loa_api.h"
#include "engines/palagan/mcts.h"
#include "engines/palagan/palagan_api.h"
#include "engines/registry.h"
#include "tests/games/nim/nim_api.h"
#include "protocol/mep.h"
#include "protocol/options.h"
#include "search/timeman.h"
#include "search/tt.h"

struct session {
    struct mep *m;
    FILE *f;
    long pos; /* read offset */
};

static void open_e(struct session *s, const struct engine *e)
{
    s->f = tmpfile();
    assert_non_null(s->f);
    s->m = mep_new(e, s->f);
    s->pos = 0;
}

static void open_s(struct session *s) { open_e(s, &loa_engine); }

static void close_s(struct session *s)
{
    mep_free(s->m);
    fclose(s->f);
}

/* Everything written since the last call. */
/* Read what the session wrote past s->pos into buf.  The engine's
 * threads write to the same FILE at its current position: the read holds
 * the FILE's lock and leaves the position at the end, so a line written
 * while we read can neither land on unread output nor be overwritten
 * (before, a busy machine lost a bestmove that way now and then). */
static size_t read_new(struct session *s, char *buf, size_t n)
{
    size_t k;
    flockfile(s->f);
    fflush(s->f);
    fseek(s->f, s->pos, SEEK_SET);
    k = fread(buf, 1, n, s->f);
    s->pos += (long)k;
    fseek(s->f, 0, SEEK_END);
    funlockfile(s->f);
    return k;
}

static char *output(struct session *s)
{
    static char out[1 << 18];
    size_t n = read_new(s, out, sizeof out - 1);
    out[n] = '\0';
    return out;
}

/* Send a line and return everything written since the last call. */
static char *cmd(struct session *s, const char *line)
{
    mep_line(s->m, line);
    return output(s);
}

/* The same for raw bytes (which may hold NULs). */
static char *cmd_n(struct session *s, const char *line, size_t n)
{
    mep_input(s->m, line, n);
    return output(s);
}

/* Wait until the output holds `want` (polling, up to ms). */
static char *wait_for(struct session *s, const char *want, int ms, int64_t *latency_us)
{
    static char acc[1 << 16];
    int64_t t0 = now_us();
    size_t len = 0;
    acc[0] = '\0';
    while (now_us() - t0 < (int64_t)ms * 1000) {
        size_t n = read_new(s, acc + len, sizeof acc - 1 - len);
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
    assert_non_null(strstr(o, "game loa players 2 size=6|8\n"));
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
    static char before[1 << 18]; /* as much as cmd() returns */
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

static void go_ok(struct session *s, const char *line);

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
    /* go_ok: the depth-2 bestmove may already be in the go's own output
     * (a fast search), so waiting for a later one would wait forever */
    go_ok(&s, "go depth 2 p1time 1000 p2time 1000");
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


/* Start a go that must be accepted and wait for its bestmove (the output
 * of the go itself is part of what is waited on: a short search may be
 * done before mep_line returns). */
static void go_ok(struct session *s, const char *line)
{
    mep_line(s->m, line);
    char *o = wait_for(s, "bestmove ", 20000, NULL);
    if (strstr(o, "error"))
        fail_msg("'%s' answered: %s", line, o);
}

/* ---- framing (issue 10, section 3) ------------------------------------------ */
static int all_ascii(const char *o)
{
    for (; *o; o++)
        if ((*o < 32 && *o != '\n') || (unsigned char)*o > 126)
            return 0;
    return 1;
}

static void test_framing_bytes(void **st)
{
    struct session s;
    static char before[1 << 18]; /* as much as cmd() returns */
    char *o;
    (void)st;
    open_s(&s);
    snprintf(before, sizeof before, "%s", cmd(&s, "fen"));
    /* a NUL byte gets an error, never a silent cut */
    assert_true(str_prefix(cmd_n(&s, "\0legalmoves", 11), "error syntax "));
    assert_true(str_prefix(cmd_n(&s, "position start\0 moves zzz", 25), "error syntax "));
    assert_string_equal(cmd(&s, "fen"), before);
    assert_true(str_prefix(cmd_n(&s, "position start moves b1-b3\0", 27), "error syntax "));
    assert_string_equal(cmd(&s, "fen"), before);
    /* no byte outside printable ASCII is echoed: CR inside, UTF-8, controls */
    o = cmd(&s, "ping 1\r2");
    assert_true(str_prefix(o, "error syntax "));
    assert_true(all_ascii(o));
    o = cmd(&s, "ping \xc3\xa9t\xc3\xa9");
    assert_true(str_prefix(o, "error syntax "));
    assert_true(all_ascii(o));
    o = cmd(&s, "ping \xff\xfe");
    assert_true(str_prefix(o, "error syntax ") && all_ascii(o));
    o = cmd(&s, "ping a\x1b[2Jb");
    assert_true(str_prefix(o, "error syntax ") && all_ascii(o));
    o = cmd(&s, "setoption name Weights value \x7f");
    assert_true(str_prefix(o, "error syntax ") && all_ascii(o));
    o = cmd(&s, "play b1\xe2\x80\x93" "b3");
    assert_true(str_prefix(o, "error syntax ") && all_ascii(o));
    assert_string_equal(cmd(&s, "fen"), before);
    /* what stays allowed: CR LF, tabs, comments whatever they hold */
    assert_string_equal(cmd(&s, "ping 7\r\n"), "pong 7\n");
    assert_string_equal(cmd(&s, "ping\t8"), "pong 8\n");
    assert_string_equal(cmd(&s, "# caf\xc3\xa9 \r x"), "");
    assert_string_equal(cmd_n(&s, "#\0legalmoves", 12), "");
    close_s(&s);
}

static void test_framing_length(void **st)
{
    struct session s;
    size_t max = MEP_MAX_LINE - 1; /* 65 535 bytes, as docs/protocol.md says */
    char *line = malloc(max + 3), *o;
    (void)st;
    assert_non_null(line);
    open_s(&s);
    memcpy(line, "ping ", 5);
    memset(line + 5, 'x', max - 5);
    line[max] = '\0';
    o = cmd(&s, line);
    assert_true(str_prefix(o, "pong xxx"));
    assert_int_equal(strlen(o), max + 1); /* the whole token, echoed */
    /* with its CR LF the same line is as long */
    memcpy(line + max, "\r\n", 3);
    assert_int_equal(strlen(cmd(&s, line)), max + 1);
    /* one byte more is too long */
    line[max] = 'x';
    line[max + 1] = '\0';
    assert_string_equal(cmd(&s, line), "error syntax line longer than 65535 bytes\n");
    assert_string_equal(cmd(&s, "ping z"), "pong z\n");
    close_s(&s);
    free(line);
}

/* mep_read_line keeps at most cap-1 bytes of a line, whatever its length,
 * and the next line comes whole after it. */
static void test_read_line_bounded(void **st)
{
    FILE *f = tmpfile();
    char buf[64];
    size_t len = 0, big = 10u << 20;
    (void)st;
    assert_non_null(f);
    fputs("ping ", f);
    for (size_t i = 0; i < big; i++)
        putc('x', f);
    fputs("\nping z\r\nlast", f);
    rewind(f);
    assert_int_equal(mep_read_line(f, buf, sizeof buf, &len), 1);
    assert_int_equal(len, big + 5);
    assert_int_equal(strlen(buf), sizeof buf - 1);
    assert_int_equal(mep_read_line(f, buf, sizeof buf, &len), 1);
    assert_int_equal(len, 7);
    assert_memory_equal(buf, "ping z\r", 7);
    assert_int_equal(mep_read_line(f, buf, sizeof buf, &len), 1);
    assert_string_equal(buf, "last");
    assert_int_equal(mep_read_line(f, buf, sizeof buf, &len), 0);
    fclose(f);
}

/* ---- limits (issue 10, section 2) --------------------------------------------- */
static void test_limit_ranges(void **st)
{
    struct session s;
    (void)st;
    open_s(&s);
    /* ms values whose microseconds overflowed int64 in timeman */
    assert_true(str_prefix(cmd(&s, "go movetime 9223372036854776"), "error bad_value "));
    assert_true(str_prefix(cmd(&s, "go p1time 2305843009213693951"), "error bad_value "));
    assert_true(str_prefix(cmd(&s, "go p1time 100 p1inc 2305843009213693951"),
                           "error bad_value "));
    assert_true(str_prefix(cmd(&s, "go movetime 1000000000001"), "error bad_value "));
    assert_true(str_prefix(cmd(&s, "go movetime -1"), "error bad_value "));
    /* the largest accepted values search, and stop */
    assert_null(strstr(cmd(&s, "go movetime 1000000000000"), "error"));
    usleep(50000);
    assert_null(strstr(output(&s), "bestmove")); /* ~31 years to think */
    mep_line(s.m, "stop");
    wait_for(&s, "bestmove ", 10000, NULL);
    assert_null(strstr(cmd(&s, "go p1time 1000000000000 p2time 1000000000000 "
                               "p1inc 1000000000000 p2inc 1000000000000 movestogo 1"),
                       "error"));
    usleep(50000);
    mep_line(s.m, "stop");
    wait_for(&s, "bestmove ", 10000, NULL);
    close_s(&s);
}

static void test_clock_seats(void **st)
{
    struct session s;
    (void)st;
    open_s(&s);
    /* a seat this game does not have */
    assert_true(str_prefix(cmd(&s, "go p3time 100"), "error bad_value "));
    assert_true(str_prefix(cmd(&s, "go p1time 100 p2time 100 p3inc 5"), "error bad_value "));
    /* only another seat's clock: no limit for the mover, refused */
    assert_true(str_prefix(cmd(&s, "go p2time 100"), "error bad_value "));
    assert_true(str_prefix(cmd(&s, "go p2time 100 p2inc 100 p1inc 100"), "error bad_value "));
    /* with the mover's clock, or another limit, it searches */
    go_ok(&s, "go p1time 300 p2time 100");
    go_ok(&s, "go p2time 100 depth 2");
    /* seat 2 to move: its clock is the one that counts */
    assert_string_equal(cmd(&s, "position start moves b1-b3"), "ok\n");
    assert_true(str_prefix(cmd(&s, "go p1time 100"), "error bad_value go: clocks given but none "
                                                     "for seat 2"));
    go_ok(&s, "go p2time 300");
    close_s(&s);
}

static void test_move_overhead(void **st)
{
    struct session s;
    int64_t lat = 0;
    (void)st;
    open_s(&s);
    assert_non_null(strstr(cmd(&s, "mep"),
                           "option name MoveOverhead type spin default 10 min 0 max 10000\n"));
    assert_true(str_prefix(cmd(&s, "setoption name MoveOverhead value 10001"), "error bad_value "));
    assert_true(str_prefix(cmd(&s, "setoption name MoveOverhead value -1"), "error bad_value "));
    assert_string_equal(cmd(&s, "setoption name moveoverhead value 8000"), "ok\n");
    /* movetime 1000 less 800 ms kept in hand, but never less than half:
     * 500 ms, and the whole of it (no soft stop under movetime: the search
     * used to stop between iterations at 60 % of it).  Only a lower bound:
     * a loaded machine makes the answer later, never earlier; the exact
     * budget is test_timeman_overhead's. */
    assert_string_equal(cmd(&s, "setoption name moveoverhead value 800"), "ok\n");
    lat = now_us(); /* before go: the session's clock starts inside mep_line */
    mep_line(s.m, "go movetime 1000");
    wait_for(&s, "bestmove ", 30000, NULL);
    lat = now_us() - lat;
    if (lat < 500000)
        fprintf(stderr, "test_move_overhead: bestmove after %lld us\n", (long long)lat);
    assert_true(lat >= 500000);
    close_s(&s);
}

static void test_timeman_overhead(void **st)
{
    struct search_req req;
    struct timeman tm;
    atomic_bool stop = false;
    (void)st;
    memset(&req, 0, sizeof req);
    limits_clear(&req.lim);
    assert_int_equal(req.lim.overhead_ms, 10);
    req.stop = &stop;
    req.start_us = now_us();
    req.lim.movetime = 2000;
    tm_init(&tm, &req, 1);
    assert_int_equal(tm.hard_us, 1990000);
    /* st=0.1 leaves 90 ms (it left 51 ms with the old 50 ms default);
     * short movetimes keep at least half (TM_MOVETIME_MIN_PCT) */
    req.lim.movetime = 100;
    tm_init(&tm, &req, 1);
    assert_int_equal(tm.hard_us, 90000);
    req.lim.movetime = 12;
    tm_init(&tm, &req, 1);
    assert_int_equal(tm.hard_us, 6000);
    req.lim.movetime = 2000;
    req.lim.overhead_ms = 300;
    tm_init(&tm, &req, 1);
    assert_int_equal(tm.hard_us, 1700000);
    req.lim.overhead_ms = 0;
    tm_init(&tm, &req, 1);
    assert_int_equal(tm.hard_us, 2000000);
}

/* go movetime: no soft stop, whatever the stability of the best move; the
 * search goes on to the hard stop (movetime less MoveOverhead).  A clock
 * keeps its soft stop.  Elapsed time is set by moving the start back, so
 * nothing here depends on the machine's speed. */
static void test_timeman_movetime_whole(void **st)
{
    struct search_req req;
    struct timeman tm;
    atomic_bool stop = false;
    (void)st;
    memset(&req, 0, sizeof req);
    limits_clear(&req.lim);
    req.stop = &stop;
    req.lim.movetime = 1000;
    req.start_us = now_us() - 800000; /* 80 % of it gone: 990 ms to use */
    tm_init(&tm, &req, 1);
    assert_true(tm.fixed);
    assert_true(tm_continue(&tm, 1.0)); /* a stable best move stopped at 60 % */
    assert_true(tm_continue(&tm, 0.0));
    assert_false(tm_hard_stop(&tm));
    req.start_us = now_us() - 995000; /* past movetime less MoveOverhead */
    tm_init(&tm, &req, 1);
    assert_false(tm_continue(&tm, 0.0));
    assert_true(tm_hard_stop(&tm));
    /* a clock: the soft stop stays (30 s, no increment: about 0.6 s soft) */
    limits_clear(&req.lim);
    req.lim.time[1] = 30000;
    req.start_us = now_us() - 800000;
    tm_init(&tm, &req, 1);
    assert_false(tm.fixed);
    assert_false(tm_continue(&tm, 1.0));
    /* both: the clock binds when it allows less than movetime */
    req.lim.movetime = 5000;
    tm_init(&tm, &req, 1);
    assert_false(tm.fixed);
    assert_false(tm_continue(&tm, 1.0));
    /* ... and movetime when it is the shorter */
    req.lim.time[1] = 3000000;
    req.lim.movetime = 1000;
    tm_init(&tm, &req, 1);
    assert_true(tm.fixed);
    assert_true(tm_continue(&tm, 1.0));
}

/* timeman itself, for callers that do not go through MEP (medan-otbridge,
 * analyze): no input overflows, limits stay positive. */
static void test_timeman_saturates(void **st)
{
    struct search_req req;
    struct timeman tm;
    atomic_bool stop = false;
    const int64_t huge[] = {INT64_MAX, INT64_MAX / 4, INT64_MAX / 1000 + 1, 9223372036854776LL,
                            MEP_MAX_MS};
    (void)st;
    for (size_t i = 0; i < ARRAY_LEN(huge); i++) {
        memset(&req, 0, sizeof req);
        limits_clear(&req.lim);
        req.stop = &stop;
        req.start_us = now_us();
        req.lim.movetime = huge[i];
        tm_init(&tm, &req, 1);
        assert_true(tm.hard_us >= 1000000 && tm.soft_us >= 1000000);
        limits_clear(&req.lim);
        req.lim.time[1] = huge[i];
        req.lim.inc[1] = huge[i];
        req.lim.overhead_ms = huge[i];
        tm_init(&tm, &req, 1);
        assert_true(tm.hard_us >= 1000000 && tm.soft_us > 0 && tm.soft_us <= tm.hard_us);
        assert_true(tm_continue(&tm, 0.0));
        assert_false(tm_hard_stop(&tm));
    }
}

/* ---- Hash that cannot be had (issue 10) ----------------------------------------- */
static void *no_calloc(size_t n, size_t size)
{
    (void)n;
    (void)size;
    return NULL;
}

static void test_hash_alloc_fails(void **st)
{
    struct session s;
    char *o;
    (void)st;
    open_s(&s);
    assert_string_equal(cmd(&s, "setoption name Hash value 2"), "ok\n");
    tt_set_calloc(no_calloc);
    o = cmd(&s, "setoption name Hash value 4");
    tt_set_calloc(NULL);
    assert_true(str_prefix(o, "error bad_value "));
    /* the old table is kept and used */
    go_ok(&s, "go depth 4");
    assert_non_null(strstr(cmd(&s, "position start moves b1-b3"), "ok"));
    /* more than the machine has: refused before any allocation */
    if (tt_physical_mb() < 65536) {
        o = cmd(&s, "setoption name Hash value 65536");
        assert_true(str_prefix(o, "error bad_value Hash 65536 MiB is more than"));
    }
    assert_string_equal(cmd(&s, "setoption name Hash value 1"), "ok\n");
    close_s(&s);
}

/* ---- perft and stop (issue 10) ----------------------------------------------------- */
static void test_perft_stop_every_node(void **st)
{
    struct session s;
    int64_t lat = 0;
    (void)st;
    open_e(&s, &palagan_engine);
    assert_string_equal(cmd(&s, "newgame size=9"), "ok\n");
    /* a depth-2 node here has ~80 000 bulk-counted children (86 s) */
    mep_line(s.m, "perft 3");
    usleep(200000);
    assert_string_equal(cmd(&s, "ping 1"), "pong 1\n");
    lat = now_us();
    mep_line(s.m, "stop"); /* returns when the final line is out */
    lat = now_us() - lat;
    wait_for(&s, "log perft interrupted by stop\nok\n", 10000, NULL);
    print_message("palagan N=9 perft 3: stop answered in %.1f ms\n", lat / 1000.0);
    mep_line(s.m, "divide 3");
    usleep(200000);
    mep_line(s.m, "stop");
    wait_for(&s, "log perft interrupted by stop\nok\n", 10000, NULL);
    close_s(&s);
}

static void test_registry(void **st)
{
    char err[GAME_ERR_LEN], buf[8192];
    int i;
    (void)st;
    assert_non_null(game_registry[0]);
    for (i = 0; game_registry[i]; i++) {
        const struct game *g = game_registry[i];
        game_config_buf cfg;
        game_state_buf a, b;
        if (game_check(g, err, sizeof err))
            fail_msg("%s", err);
        assert_ptr_equal(game_find(g->name), g);
        for (int j = 0; j < i; j++)
            assert_string_not_equal(game_registry[j]->name, g->name);
        /* the start position round-trips through its string */
        g->config_default(cfg.b);
        g->start(a.b, cfg.b);
        g->format_pos(a.b, buf, sizeof buf);
        if (g->parse_pos(b.b, cfg.b, buf, err, sizeof err))
            fail_msg("%s: start string '%s' does not parse: %s", g->name, buf, err);
        assert_true(g->hash(a.b) == g->hash(b.b));
        /* the engine of every game keeps the engine contract */
        assert_non_null(engine_registry[i]);
        assert_ptr_equal(engine_registry[i]->game, g);
        if (engine_check(engine_registry[i], err, sizeof err))
            fail_msg("%s", err);
    }
    assert_null(engine_registry[i]);
    assert_null(game_find("chess"));
}

/* Every engine's bench positions (its Bench fingerprint) are a fixed list of
 * readable, canonical position strings of positions where the game goes on:
 * each parses with the default config, is written back the same, and has
 * a legal move.  A table entry that did not parse would stop `bench` (an
 * assert), and one that is not canonical would not be the position it
 * reads as. */
static void test_bench_positions(void **st)
{
    static const struct {
        const struct engine *e;
        const char *const *pos;
    } benches[] = {
        {&loa_engine, loa_bench_positions},
        {&fetlar_engine, fetlar_bench_positions},
        {&palagan_engine, palagan_bench_positions},
        {&battalion_engine, battalion_bench_positions},
        {&nim_engine, nim_bench_positions},
    };
    (void)st;
    for (int i = 0; engine_registry[i]; i++) {
        int found = 0;
        for (size_t k = 0; k < sizeof benches / sizeof benches[0]; k++)
            found += benches[k].e == engine_registry[i];
        if (found != 1)
            fail_msg("engine of %s: no bench positions in this test",
                     engine_registry[i]->game->name);
    }
    for (size_t k = 0; k < sizeof benches / sizeof benches[0]; k++) {
        const struct game *g = benches[k].e->game;
        game_config_buf cfg;
        game_state_buf a;
        char err[GAME_ERR_LEN], buf[8192];
        gmove *mv = game_move_buf(g);
        struct game_result r;
        int n = 0;
        g->config_default(cfg.b);
        for (; benches[k].pos[n]; n++) {
            const char *s = benches[k].pos[n];
            if (g->parse_pos(a.b, cfg.b, s, err, sizeof err))
                fail_msg("%s bench position %d '%s': %s", g->name, n + 1, s, err);
            g->format_pos(a.b, buf, sizeof buf);
            assert_string_equal(buf, s);
            g->result(a.b, NULL, 0, &r);
            assert_int_equal(r.over, 0);
            assert_true(game_gen_moves(g, a.b, mv) != 0);
        }
        assert_true(n >= 6);
        free(mv);
    }
}

/* max_moves bounds generation, count_moves agrees, strings and tokens
 * round-trip, over random games of every registered game. */
static void test_registry_play(void **st)
{
    char err[GAME_ERR_LEN];
    (void)st;
    for (int i = 0; game_registry[i]; i++)
        if (game_check_play(game_registry[i], NULL, 4, 12, err, sizeof err))
            fail_msg("%s", err);
}

/* The contracts refuse what breaks them. */
static void test_contract_checks(void **st)
{
    char err[GAME_ERR_LEN];
    struct game g = *game_registry[0];
    struct engine e = *engine_registry[0];
    struct opt_spec opts[8];
    (void)st;
    g.max_moves = 0;
    assert_int_equal(game_check(&g, err, sizeof err), -1);
    assert_non_null(strstr(err, "max_moves"));
    g = *game_registry[0];
    g.max_moves = 3; /* too small for the positions it reaches */
    assert_int_equal(game_check(&g, err, sizeof err), 0);
    assert_int_equal(game_check_play(&g, NULL, 1, 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "more than max_moves"));
    g = *game_registry[0];
    g.default_max_plies = -1;
    assert_int_equal(game_check(&g, err, sizeof err), -1);
    /* a hidden-information game must take seed= and seat= */
    for (int i = 0; game_registry[i]; i++)
        if (game_registry[i]->view) {
            g = *game_registry[i];
            g.config_set = game_registry[0]->config_set; /* knows no keys */
            assert_int_equal(game_check(&g, err, sizeof err), -1);
            assert_non_null(strstr(err, "seed"));
        }
    /* an engine without Seed, or whose Strategy has no random */
    for (int k = 0; k < 8; k++)
        opts[k] = (struct opt_spec){NULL, 0, NULL, 0, 0, NULL, 0, NULL};
    e.options = opts;
    assert_int_equal(engine_check(&e, err, sizeof err), -1);
    assert_non_null(strstr(err, ENGINE_OPT_SEED));
    opts[0] = (struct opt_spec){ENGINE_OPT_SEED, OPT_SPIN, "0", 0, INT64_MAX, NULL, 0, "seed"};
    opts[1] = (struct opt_spec){ENGINE_OPT_STRATEGY, OPT_COMBO, "search", 0, 0, "search greedy",
                                OPT_STR_LEN, "strategy"};
    assert_int_equal(engine_check(&e, err, sizeof err), -1);
    assert_non_null(strstr(err, ENGINE_OPT_STRATEGY));
    opts[1].vars = "search random";
    assert_int_equal(engine_check(&e, err, sizeof err), 0);
    opts[1].def = "greedy"; /* a default that is not a value */
    assert_int_equal(engine_check(&e, err, sizeof err), -1);
    opts[1].def = "search";
    opts[1].offset = e.size; /* outside the object */
    assert_int_equal(engine_check(&e, err, sizeof err), -1);
}

/* ---- SearchParams of the MCTS engines (Palagan, Battalion) --------------- */

/* A search's fingerprint: Seed 1 again, `go nodes N` from `pos`, and the
 * last info line without its time and nps (which vary): the tree's size,
 * the root's visits, the scores and the line.  Into out. */
static void search_print(struct session *s, const char *pos, int nodes, char *out, size_t n)
{
    char line[64];
    assert_string_equal(cmd(s, "setoption name Seed value 1"), "ok\n");
    assert_string_equal(cmd(s, pos), "ok\n");
    snprintf(line, sizeof line, "go nodes %d", nodes);
    mep_line(s->m, line);
    char *acc = wait_for(s, "bestmove ", 30000, NULL);
    char *last = NULL;
    for (char *p = strstr(acc, "info "); p; p = strstr(p + 1, "\ninfo "))
        last = p[0] == '\n' ? p + 1 : p;
    assert_non_null(last);
    size_t len = 0;
    out[0] = '\0';
    /* every word but the values of time and nps */
    char buf[4096];
    snprintf(buf, sizeof buf, "%.*s", (int)strcspn(last, "\n"), last);
    char *save, *w;
    int skip = 0;
    for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        if (!skip)
            buf_printf(out, n, &len, "%s ", w);
        skip = strcmp(w, "time") == 0 || strcmp(w, "nps") == 0;
    }
    char *bm = strstr(acc, "bestmove ");
    buf_printf(out, n, &len, "| %.*s", (int)strcspn(bm, "\n"), bm);
}

/* setoption as the session does it, on an engine object of our own (for
 * its bench): the value set, then the engine told; 0 or -1. */
static int set_direct(const struct engine *e, void *eng, const char *name, const char *v)
{
    char err[GAME_ERR_LEN];
    const struct opt_spec *o = opt_find(e->options, name);
    assert_non_null(o);
    if (opt_set(o, eng, v, err, sizeof err))
        return -1;
    return e->option_changed(eng, o, err, sizeof err) ? -1 : 0;
}

/* An engine's bench of k thousand simulations or iterations under the
 * SearchParams value spec (set on a fresh engine object). */
static uint64_t bench_with(const struct engine *e, const char *spec, int k)
{
    void *eng = xcalloc(1, e->size);
    int64_t ms;
    opt_defaults(e->options, eng);
    e->init(eng);
    assert_int_equal(set_direct(e, eng, "SearchParams", spec), 0);
    uint64_t b = e->bench(eng, k, &ms, NULL, NULL);
    e->destroy(eng);
    free(eng);
    return b;
}

/* Palagan's SearchParams: a good value changes the search (uct_c=0: another
 * tree, other visits); a bad name, an out-of-range or malformed value is
 * error bad_value naming it, and the value before stays in effect; empty
 * (or the defaults written out) is the default search, bench for bench. */
static void test_palagan_search_params(void **st)
{
    struct session s;
    char def[4096], zero[4096], x[4096];
    const char *pos = "position start moves @e5 @d4,@f6";
    (void)st;
    open_e(&s, &palagan_engine);
    assert_non_null(strstr(cmd(&s, "mep"), "option name SearchParams type string default <empty>\n"));
    search_print(&s, pos, 400, def, sizeof def);
    assert_string_equal(cmd(&s, "setoption name SearchParams value uct_c=0"), "ok\n");
    search_print(&s, pos, 400, zero, sizeof zero);
    if (strcmp(def, zero) == 0)
        fail_msg("uct_c=0 searched as the default: %s", def);
    const char *bad[][2] = {
        {"uct_c=11", "uct_c"},          {"uct_c=-0.1", "uct_c"},     {"frob=1", "frob"},
        {"prior_n=1.5", "prior_n"},      {"uct_c", "uct_c"},          {"uct_c=nan", "uct_c"},
        {"policy_capture=1025", "policy_capture"}, {"prior_min=0.9,prior_max=0.5", "prior_min"},
        {"uct_c=0.3,rave_bias=2", "rave_bias"},    {"grave_ref=3", "grave_ref"},
    };
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        char line[128];
        snprintf(line, sizeof line, "setoption name SearchParams value %s", bad[i][0]);
        const char *o = cmd(&s, line);
        if (strncmp(o, "error bad_value ", 16) || !strstr(o, bad[i][1]))
            fail_msg("%s: %s", line, o);
    }
    search_print(&s, pos, 400, x, sizeof x); /* uct_c=0 still */
    assert_string_equal(x, zero);
    assert_string_equal(cmd(&s, "setoption name SearchParams value <empty>"), "ok\n");
    search_print(&s, pos, 400, x, sizeof x);
    assert_string_equal(x, def);
    assert_string_equal(cmd(&s, "setoption name SearchParams value uct_c=0.058,rave_bias=0.0021,"
                                "expand_at=2,prior_n=14,margin=0.1,margin_scale=6,fpu=0.514,"
                                "prior_capture=0.1,prior_own_weak=0.05,prior_their_weak=0.01,"
                                "prior_take_next=0.05,prior_own_atari=0.02,prior_liberty=0.002,"
                                "prior_min=0.05,prior_max=0.95,policy_capture=990,"
                                "policy_save=900,policy_attack=500,policy_end_early=60,"
                                "policy_maxply=400"),
                        "ok\n");
    search_print(&s, pos, 400, x, sizeof x); /* the defaults written out */
    assert_string_equal(x, def);
    /* the other search options are kept: GRAVE on, then SearchParams */
    assert_string_equal(cmd(&s, "setoption name Rave value grave"), "ok\n");
    search_print(&s, pos, 400, def, sizeof def);
    assert_string_equal(cmd(&s, "setoption name SearchParams value policy_save=901"), "ok\n");
    assert_string_equal(cmd(&s, "setoption name SearchParams"), "ok\n");
    search_print(&s, pos, 400, x, sizeof x);
    assert_string_equal(x, def);
    close_s(&s);
    uint64_t b0 = bench_with(&palagan_engine, "", 1);
    assert_true(bench_with(&palagan_engine, "uct_c=0", 1) != b0);
    assert_true(bench_with(&palagan_engine, "uct_c=0.058,prior_n=14", 1) == b0);
}

/* With Threads > 1 every worker searches with the new numbers: after
 * prior_n=7 every edge of the shared tree, whichever thread expanded its
 * node, starts with 7 prior visits. */
static void test_palagan_search_params_threads(void **st)
{
    struct session s;
    (void)st;
    open_e(&s, &palagan_engine);
    assert_string_equal(cmd(&s, "setoption name Threads value 4"), "ok\n");
    assert_string_equal(cmd(&s, "setoption name SearchParams value prior_n=7,uct_c=0.5"), "ok\n");
    assert_string_equal(cmd(&s, "position start"), "ok\n");
    mep_line(s.m, "go nodes 3000");
    wait_for(&s, "bestmove ", 30000, NULL);
    close_s(&s);
    /* the same on the search itself, where the tree can be read */
    static struct mcts t;
    char err[GAME_ERR_LEN];
    struct pal_state p;
    mc_init(&t, 8, 1);
    pal_start(&p, 5);
    assert_int_equal(mc_set_threads(&t, 4), 0);
    assert_int_equal(mc_set_tunables(&t, "prior_n=7", err, sizeof err), 0);
    mc_search_sims(&t, &p, 3000);
    uint32_t checked = 0;
    for (uint32_t k = 1; k < t.nnodes; k++)
        if (t.nodes[k].expanded == 1)
            for (uint32_t i = t.nodes[k].edges; i < t.nodes[k].edges + t.nodes[k].nedges; i++) {
                assert_int_equal(t.edges[i].pn, 7);
                checked++;
            }
    assert_true(checked > 1000);
    assert_int_equal(mc_set_tunables(&t, "prior_n=7,uct_c=99", err, sizeof err), -1);
    assert_non_null(strstr(err, "uct_c"));
    assert_true(t.par.prior_n == 7 && t.par.uct_c == MC_UCT_C); /* nothing changed */
    assert_int_equal(mc_set_tunables(&t, "", err, sizeof err), 0);
    assert_true(t.par.prior_n == MC_PRIOR_N);
    mc_free(&t);
}

/* Battalion's SearchParams: explore=0 changes the search, bad names and
 * values are refused and change nothing, empty is the default search
 * (bench for bench); oracle, which would let a search given a full state
 * read the other seats' hands, is refused with the reason, as are the
 * parameters of the engine's own options. */
static void test_battalion_search_params(void **st)
{
    struct session s;
    char def[4096], zero[4096], x[4096], pos[1024];
    (void)st;
    snprintf(pos, sizeof pos, "position fen %s", battalion_bench_positions[0]);
    open_e(&s, &battalion_engine);
    assert_non_null(strstr(cmd(&s, "mep"), "option name SearchParams type string default <empty>\n"));
    assert_string_equal(cmd(&s, "newgame players=4 seat=2"), "ok\n");
    search_print(&s, pos, 400, def, sizeof def);
    assert_string_equal(cmd(&s, "setoption name SearchParams value explore=0"), "ok\n");
    search_print(&s, pos, 400, zero, sizeof zero);
    if (strcmp(def, zero) == 0)
        fail_msg("explore=0 searched as the default: %s", def);
    const char *bad[][2] = {
        {"explore=101", "explore"},    {"frob=1", "frob"},           {"epsilon=x", "epsilon"},
        {"leaf9_best=1", "leaf9_best"}, {"leaf4_best=11", "leaf4_best"}, {"explore", "explore"},
        {"actions=some", "actions"},   {"infer_bids=2", "infer_bids"},
        {"oracle=1", "hidden cards"},  {"explore=0.5,oracle=1", "oracle"}, {"oracle=0", "oracle"},
        {"cutoff=3", "PlayoutAttacks"}, {"infer=0.5", "Inference"},   {"iterations=9", "Iterations"},
    };
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        char line[128];
        snprintf(line, sizeof line, "setoption name SearchParams value %s", bad[i][0]);
        const char *o = cmd(&s, line);
        if (strncmp(o, "error bad_value ", 16) || !strstr(o, bad[i][1]))
            fail_msg("%s: %s", line, o);
    }
    search_print(&s, pos, 400, x, sizeof x); /* explore=0 still */
    assert_string_equal(x, zero);
    assert_string_equal(cmd(&s, "setoption name SearchParams value <empty>"), "ok\n");
    search_print(&s, pos, 400, x, sizeof x);
    assert_string_equal(x, def);
    assert_string_equal(cmd(&s, "setoption name SearchParams value explore=0.7,epsilon=0.1"), "ok\n");
    search_print(&s, pos, 400, x, sizeof x);
    assert_string_equal(x, def);
    /* Given the full state, an engine with any settable parameters searches
     * its seat's view: the same search as from the view itself. */
    assert_string_equal(cmd(&s, "setoption name SearchParams value explore=0.3,opp_model=0.5,"
                                "infer_collect=1,actions=full,final=0.5"), "ok\n");
    assert_string_equal(cmd(&s, "newgame players=4 seat=1 seed=3 game=1"), "ok\n");
    assert_string_equal(cmd(&s, "position start"), "ok\n");
    char *f = cmd(&s, "fen view 1");
    assert_true(strncmp(f, "fen view:1 ", 11) == 0);
    char vpos[1024], full[4096];
    snprintf(vpos, sizeof vpos, "position fen %.*s", (int)strcspn(f + 4, "\n"), f + 4);
    search_print(&s, "position start", 400, full, sizeof full);
    search_print(&s, vpos, 400, x, sizeof x);
    assert_string_equal(x, full);
    close_s(&s);
    uint64_t b0 = bench_with(&battalion_engine, "", 1);
    assert_true(bench_with(&battalion_engine, "explore=0", 1) != b0);
    assert_true(bench_with(&battalion_engine, "explore=0.7", 1) == b0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_handshake),
        cmocka_unit_test(test_registry_play),
        cmocka_unit_test(test_contract_checks),
        cmocka_unit_test(test_position_atomic),
        cmocka_unit_test(test_game_over),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_go_busy_ping_stop),
        cmocka_unit_test(test_perft_divide),
        cmocka_unit_test(test_framing_bytes),
        cmocka_unit_test(test_framing_length),
        cmocka_unit_test(test_read_line_bounded),
        cmocka_unit_test(test_limit_ranges),
        cmocka_unit_test(test_clock_seats),
        cmocka_unit_test(test_move_overhead),
        cmocka_unit_test(test_timeman_saturates),
        cmocka_unit_test(test_timeman_overhead),
        cmocka_unit_test(test_timeman_movetime_whole),
        cmocka_unit_test(test_hash_alloc_fails),
        cmocka_unit_test(test_perft_stop_every_node),
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_bench_positions),
        cmocka_unit_test(test_palagan_search_params),
        cmocka_unit_test(test_palagan_search_params_threads),
        cmocka_unit_test(test_battalion_search_params),
    };
    return cmocka_run_group_tests_name("mep", tests, NULL, NULL);
}
