/* test_referee_opening.c - opening books (referee/opening.c): the EPD-like
 * and PGN-like parsers, their errors (file and line), start/order/plies,
 * the opening slot of each game by policy (referee/schedule.c), and every
 * shipped suite (openings/<game>.epd) loads, is canonical, distinct and
 * unfinished. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "engines/registry.h"
#include "referee/match.h"
#include "referee/opening.h"
#include "referee/schedule.h"

#define START "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b"

static const struct game *loa(void)
{
    const struct game *g = game_find("loa");
    assert_non_null(g);
    return g;
}

/* Parse text as a book of the given format; rc, err, the openings. */
static int book(struct ref_openings *o, int format, int plies,
                const char *text, char *err, size_t n)
{
    const struct game *g = loa();
    game_config_buf cfg;
    memset(o, 0, sizeof *o);
    o->format = format;
    o->plies = plies;
    g->config_default(cfg.b);
    err[0] = '\0';
    return ref_openings_parse(o, "t.book", text, strlen(text), g, cfg.b, err, n);
}

static void test_epd(void **state)
{
    struct ref_openings o;
    char err[256];
    (void)state;
    assert_int_equal(book(&o, REF_BOOK_EPD, 0,
                          "# a comment\n"
                          "\n"
                          START " ; id \"start\"; c0 \"the start\"\n"
                          "fen " START "\n"
                          "   " START ";\n"
                          "b7/2b5/8/8/8/3w4/8/w5ww b ; plies 0;\r\n",
                          err, sizeof err), 0);
    assert_int_equal(o.nlines, 4);
    assert_string_equal(o.lines[0], "fen " START);
    assert_string_equal(o.lines[1], "fen " START);
    assert_string_equal(o.lines[2], "fen " START);
    assert_string_equal(o.lines[3], "fen b7/2b5/8/8/8/3w4/8/w5ww b");
    ref_openings_free(&o);
}

static void test_epd_errors(void **state)
{
    struct ref_openings o;
    char err[256];
    (void)state;
    /* a bad position names the file and its line */
    assert_int_equal(book(&o, REF_BOOK_EPD, 0, START "\n# x\n8/8/8 b ; id 1\n",
                          err, sizeof err), -1);
    assert_non_null(strstr(err, "t.book:3:"));
    ref_openings_free(&o);
    /* fields without a position */
    assert_int_equal(book(&o, REF_BOOK_EPD, 0, START "\n ; id 1\n", err,
                          sizeof err), -1);
    assert_non_null(strstr(err, "t.book:2: no position before ';'"));
    ref_openings_free(&o);
    /* a finished game (black's lone piece is connected) */
    assert_int_equal(book(&o, REF_BOOK_EPD, 0, "b7/8/8/8/8/8/8/w5ww w\n", err,
                          sizeof err), -1);
    assert_non_null(strstr(err, "t.book:1: the game is over there"));
    ref_openings_free(&o);
    /* moves belong in a PGN book */
    assert_int_equal(book(&o, REF_BOOK_EPD, 0, "fen " START " moves b1-b3\n",
                          err, sizeof err), -1);
    assert_non_null(strstr(err, "t.book:1: an EPD line is one position"));
    ref_openings_free(&o);
    /* nothing in it; a NUL byte */
    assert_int_equal(book(&o, REF_BOOK_EPD, 0, "# only comments\n\n", err,
                          sizeof err), -1);
    assert_string_equal(err, "t.book: no openings");
    ref_openings_free(&o);
    memset(&o, 0, sizeof o);
    assert_int_equal(ref_openings_parse(&o, "t.book", START "\0x", sizeof START + 1,
                                        loa(), NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "NUL"));
    ref_openings_free(&o);
    /* start= beyond the book */
    memset(&o, 0, sizeof o);
    {
        game_config_buf cfg;
        loa()->config_default(cfg.b);
        o.start = 3;
        assert_int_equal(ref_openings_parse(&o, "t.book", START "\n" START "\n",
                                            2 * strlen(START "\n"), loa(), cfg.b,
                                            err, sizeof err), -1);
        assert_string_equal(err, "t.book: start=3 but the book has 2 openings");
        ref_openings_free(&o);
    }
}

/* The referee's own records as a book, with everything PGN allows around
 * the moves. */
static const char *const pgn_text =
    "[Event \"medan-referee match\"]\n"
    "[Site \"?\"]\n"
    "[Game \"loa\"]\n"
    "[P1 \"a \\\"quoted\\\" name\"]\n"
    "[Result \"1-0\"]\n"
    "[Opening \"start moves b1-b3 a2-c2\"]\n"
    "\n"
    "1. d1-d3 {0.120s} a4-c4 {multi\n"
    "line comment} 2. c1-e3! $1 (2. g1-g3 a5-c5) ; rest of line\n"
    "a5-c5?! 4. e1-e4 {no move} * \n"
    "\n"
    "% an escape line\n"
    "[Event \"no Opening tag\"] [Round \"2\"]\n"
    "1.d1-d3 2.a4-c4 1/2-1/2\n"
    "[FEN \"" START "\"]\n"
    "\n"
    "b1-b3\n";

static void test_pgn(void **state)
{
    struct ref_openings o;
    char err[256];
    (void)state;
    assert_int_equal(book(&o, REF_BOOK_PGN, 0, pgn_text, err, sizeof err), 0);
    assert_int_equal(o.nlines, 3);
    assert_string_equal(o.lines[0], "start moves b1-b3 a2-c2 d1-d3 a4-c4 "
                                    "c1-e3 a5-c5 e1-e4");
    assert_string_equal(o.lines[1], "start moves d1-d3 a4-c4");
    assert_string_equal(o.lines[2], "fen " START " moves b1-b3");
    ref_openings_free(&o);
    /* plies= counts from the root: the Opening tag's moves first */
    assert_int_equal(book(&o, REF_BOOK_PGN, 3, pgn_text, err, sizeof err), 0);
    assert_string_equal(o.lines[0], "start moves b1-b3 a2-c2 d1-d3");
    assert_string_equal(o.lines[1], "start moves d1-d3 a4-c4");
    ref_openings_free(&o);
    assert_int_equal(book(&o, REF_BOOK_PGN, 1, pgn_text, err, sizeof err), 0);
    assert_string_equal(o.lines[0], "start moves b1-b3");
    assert_string_equal(o.lines[2], "fen " START " moves b1-b3");
    ref_openings_free(&o);
}

static void test_pgn_errors(void **state)
{
    struct ref_openings o;
    char err[256];
    (void)state;
    /* an illegal move names the line it is on */
    assert_int_equal(book(&o, REF_BOOK_PGN, 0,
                          "[Event \"x\"]\n\n1. b1-b3 a2-c2\n2. b3-b9 *\n", err,
                          sizeof err), -1);
    assert_non_null(strstr(err, "t.book:4: opening move b3-b9 #3"));
    ref_openings_free(&o);
    /* a second game's bad FEN names the tag's line */
    assert_int_equal(book(&o, REF_BOOK_PGN, 0,
                          "1. b1-b3 *\n[FEN \"8/8 b\"]\n1. b1-b3 *\n", err,
                          sizeof err), -1);
    assert_non_null(strstr(err, "t.book:2: opening:"));
    ref_openings_free(&o);
    assert_int_equal(book(&o, REF_BOOK_PGN, 0, "[Event x]\n1. b1-b3 *\n", err,
                          sizeof err), -1);
    assert_string_equal(err, "t.book:1: bad tag pair (want [Name \"value\"])");
    ref_openings_free(&o);
    assert_int_equal(book(&o, REF_BOOK_PGN, 0, "1. b1-b3 {open\n\n", err,
                          sizeof err), -1);
    assert_string_equal(err, "t.book:1: '{' comment never closed");
    ref_openings_free(&o);
    assert_int_equal(book(&o, REF_BOOK_PGN, 0, "1. b1-b3 ) *\n", err,
                          sizeof err), -1);
    assert_string_equal(err, "t.book:1: ')' without '('");
    ref_openings_free(&o);
    /* a stray '}' (it once stopped the reader for ever) */
    assert_int_equal(book(&o, REF_BOOK_PGN, 0, "1. b1-b3 } *\n", err,
                          sizeof err), -1);
    assert_string_equal(err, "t.book:1: '}' without '{'");
    ref_openings_free(&o);
    /* a game played to its end is refused without plies= ... */
    static const char *const ended =
        "[FEN \"b7/2b5/8/8/8/3w4/8/w5ww b\"]\n"
        "1. c7-c6 d3-d4 2. c6-c7 d4-d3\n"
        "3. a8-b8 {connected} 1-0\n";
    assert_int_equal(book(&o, REF_BOOK_PGN, 0, ended, err, sizeof err), -1);
    assert_string_equal(err, "t.book:3: the game is over there (connected)");
    ref_openings_free(&o);
    /* ... and kept short of its end with it */
    assert_int_equal(book(&o, REF_BOOK_PGN, 4, ended, err, sizeof err), 0);
    assert_string_equal(o.lines[0], "fen b7/2b5/8/8/8/3w4/8/w5ww b moves "
                                    "c7-c6 d3-d4 c6-c7 d4-d3");
    ref_openings_free(&o);
    /* a move after the end */
    assert_int_equal(book(&o, REF_BOOK_PGN, 0,
                          "[FEN \"b7/2b5/8/8/8/3w4/8/w5ww b\"]\n"
                          "1. c7-c6 d3-d4 2. c6-c7 d4-d3 3. a8-b8\nd3-d4 *\n",
                          err, sizeof err), -1);
    assert_non_null(strstr(err, "t.book:3: opening move d3-d4 #6: the game is over"));
    ref_openings_free(&o);
}

/* Mutated books (bytes replaced, cut short, pieces of PGN syntax thrown
 * in): every one is read or refused with a message, nothing else (ASan and
 * UBSan watch the SAN=1 build). */
static void test_mutated_books(void **state)
{
    static const char *const bits[] = {"{", "}", "(", ")", "[", "]", "\"", ";",
                                       "\n", "1.", "...", "$", "*", "%", "\\",
                                       " moves ", "fen ", "\r"};
    struct rng r;
    size_t base = strlen(pgn_text);
    char *buf = xmalloc(base + 64);
    (void)state;
    rng_seed(&r, 25);
    for (int i = 0; i < 3000; i++) {
        struct ref_openings o;
        char err[256];
        size_t len = base;
        int rc;
        memcpy(buf, pgn_text, base);
        for (int k = 0; k < 3; k++) {
            size_t at = (size_t)rng_below(&r, len);
            if (rng_below(&r, 2)) {
                buf[at] = (char)(1 + rng_below(&r, 255));
            } else {
                const char *b = bits[rng_below(&r, sizeof bits / sizeof *bits)];
                size_t bl = strlen(b);
                memcpy(buf + at, b, at + bl <= len ? bl : len - at);
            }
        }
        if (rng_below(&r, 4) == 0)
            len = (size_t)rng_below(&r, len + 1);
        buf[len] = '\0';
        memset(&o, 0, sizeof o);
        o.format = (int)rng_below(&r, 2) ? REF_BOOK_PGN : REF_BOOK_EPD;
        o.plies = (int)rng_below(&r, 4);
        err[0] = '\0';
        rc = ref_openings_parse(&o, "m.book", buf, len, loa(), NULL, err, sizeof err);
        if (rc == 0)
            assert_true(o.nlines > 0);
        else
            assert_true(rc == -1 && err[0] != '\0');
        ref_openings_free(&o);
    }
    free(buf);
}

/* order= and start=: which line each slot gets. */
static void test_order_start(void **state)
{
    struct ref_openings o;
    char err[256];
    const char *text = START "\n"
                       "b7/2b5/8/8/8/3w4/8/w5ww b\n"
                       "b7/2b5/8/8/8/2w5/8/w5ww b\n";
    int seen[3] = {0, 0, 0};
    (void)state;
    assert_int_equal(book(&o, REF_BOOK_EPD, 0, text, err, sizeof err), 0);
    for (int k = 0; k < 6; k++) {
        char *s = ref_opening_make(&o, loa(), NULL, 7, k, err, sizeof err);
        assert_string_equal(s, o.lines[k % 3]);
        free(s);
    }
    o.start = 2; /* 1-based: the second line first */
    for (int k = 0; k < 6; k++) {
        char *s = ref_opening_make(&o, loa(), NULL, 7, k, err, sizeof err);
        assert_string_equal(s, o.lines[(k + 1) % 3]);
        free(s);
    }
    o.random_order = 1; /* a pure function of (seed, slot), every line used */
    for (int k = 0; k < 60; k++) {
        char *a = ref_opening_make(&o, loa(), NULL, 7, k, err, sizeof err);
        char *b = ref_opening_make(&o, loa(), NULL, 7, k, err, sizeof err);
        assert_string_equal(a, b);
        for (int i = 0; i < 3; i++)
            seen[i] += strcmp(a, o.lines[i]) == 0;
        free(a);
        free(b);
    }
    assert_true(seen[0] && seen[1] && seen[2]);
    ref_openings_free(&o);
}

/* policy=: the opening slot of each game (referee/schedule.c). */
static void test_policy_slots(void **state)
{
    struct ref_match m;
    (void)state;
    /* 3 engines round-robin (3 pairings), 2 rounds, 4 games an encounter */
    memset(&m, 0, sizeof m);
    m.nseats = 2;
    m.neng = 3;
    m.tournament = REF_TOUR_ROUND_ROBIN;
    m.rounds = 2;
    m.encounter_games = 4;
    m.games = (int)ref_sched_total(2, 3, m.tournament, 2, 4);
    assert_int_equal(m.games, 24);
    for (int g = 1; g <= m.games; g++) {
        int k = g - 1, round = k / 12, pairing = k % 12 / 4;
        m.open.policy = REF_POLICY_DEFAULT;
        assert_int_equal(ref_opening_slot(&m, g), ref_group_of(&m, g));
        assert_int_equal(ref_opening_slot(&m, g), k / 2);
        m.open.policy = REF_POLICY_ENCOUNTER;
        assert_int_equal(ref_opening_slot(&m, g), round * 3 + pairing);
        m.open.policy = REF_POLICY_ROUND;
        assert_int_equal(ref_opening_slot(&m, g), round);
    }
    /* a match of two engines: one encounter, one round */
    m.neng = 2;
    m.rounds = 1;
    m.encounter_games = 10;
    m.games = 10;
    for (int g = 1; g <= 10; g++) {
        m.open.policy = REF_POLICY_ENCOUNTER;
        assert_int_equal(ref_opening_slot(&m, g), 0);
        m.open.policy = REF_POLICY_ROUND;
        assert_int_equal(ref_opening_slot(&m, g), 0);
    }
}

/* Every shipped suite: loads, every line canonical, distinct, unfinished,
 * between 200 and 1000 positions. */
static void test_shipped_suites(void **state)
{
    glob_t gl;
    int suites = 0;
    (void)state;
    assert_int_equal(glob("openings/*.epd", 0, NULL, &gl), 0);
    for (size_t i = 0; i < gl.gl_pathc; i++) {
        const char *path = gl.gl_pathv[i], *base = strrchr(path, '/') + 1;
        char name[32], err[512];
        const struct game *g;
        game_config_buf cfg;
        struct ref_openings o;
        void *st;
        snprintf(name, sizeof name, "%.*s", (int)(strcspn(base, ".")), base);
        g = game_find(name);
        if (!g)
            fail_msg("%s: no game %s", path, name);
        g->config_default(cfg.b);
        memset(&o, 0, sizeof o);
        if (ref_openings_load(&o, path, g, cfg.b, err, sizeof err) < 0)
            fail_msg("%s", err);
        assert_in_range(o.nlines, 200, 1000);
        st = xmalloc(g->state_size);
        for (int k = 0; k < o.nlines; k++) {
            char buf[4096];
            assert_true(str_prefix(o.lines[k], "fen "));
            assert_int_equal(g->parse_pos(st, cfg.b, o.lines[k] + 4, err, sizeof err),
                             GAME_OK);
            g->format_pos(st, buf, sizeof buf);
            assert_string_equal(buf, o.lines[k] + 4);
            for (int j = 0; j < k; j++)
                assert_string_not_equal(o.lines[j], o.lines[k]);
        }
        free(st);
        ref_openings_free(&o);
        suites++;
    }
    globfree(&gl);
    assert_true(suites >= 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_epd),
        cmocka_unit_test(test_epd_errors),
        cmocka_unit_test(test_pgn),
        cmocka_unit_test(test_pgn_errors),
        cmocka_unit_test(test_mutated_books),
        cmocka_unit_test(test_order_start),
        cmocka_unit_test(test_policy_slots),
        cmocka_unit_test(test_shipped_suites),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
