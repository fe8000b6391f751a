/* test_web_record.c - unit tests of medan-web's record reader
 * (gui-adapters/web/record.c): the referee's PGN-style record with any
 * tags, comments, variations, numbers and results, turned into the request
 * a share link makes; malformed records refused with the line. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "gui-adapters/web/record.h"

/* The tokens of a record, joined by spaces ("ERR: ..." when refused). */
static const char *toks(const char *text)
{
    static char out[1024];
    char err[256];
    struct web_rec r;
    size_t len = 0;
    if (web_rec_parse(text, &r, err, sizeof err) < 0) {
        snprintf(out, sizeof out, "ERR: %s", err);
        return out;
    }
    out[0] = '\0';
    for (int i = 0; i < r.ntok; i++)
        len += (size_t)snprintf(out + len, sizeof out - len, "%s%s", i ? " " : "", r.tok[i]);
    web_rec_free(&r);
    return out;
}

static void test_movetext(void **state)
{
    (void)state;
    /* the referee's two-seat record: numbers, time comments, result */
    assert_string_equal(toks("1. b1-b3 {0.105s} a2-c2 {0.100s} 2. c1-c3 {connected} 1-0"),
                        "b1-b3 a2-c2 c1-c3");
    /* and its N-seat numbering */
    assert_string_equal(toks("1.p1 draw:deck {0.010s} 2.p2 discard:Ah 3.p3 bid:2 {ok} *"),
                        "draw:deck discard:Ah bid:2");
    /* numbers glued to moves, 12... , NAGs, ; comments, nested variations */
    assert_string_equal(toks("12.b1-b3 12... a2-c2 $1 ; the rest\n(12... h2-h4 (12... a7-c7) 13. c1-c3) "
                             "13. @c3,a1-b2 1/2-1/2"),
                        "b1-b3 a2-c2 @c3,a1-b2");
    /* a ; comment inside a variation runs to the end of its line: a ')' or
     * '(' there is comment text (it was read as closing the variation, and
     * the variation's real ')' refused); so is a '{' */
    assert_string_equal(toks("1. b1-b3 (1... a2-c2 ; worse :) see (2)\n2. c1-c3) a7-c7 1-0"),
                        "b1-b3 a7-c7");
    assert_string_equal(toks("1. b1-b3 (1... a2-c2 ; a { here\n) a7-c7 *"), "b1-b3 a7-c7");
    assert_string_equal(toks("1. b1-b3 (1... a2-c2 ; the end ("), "ERR: record line 1: a variation '(' is not closed");
    /* score comments of any shape, a bare number, % escape lines */
    assert_string_equal(toks("%escaped line\n1. pass {+0.12/7 0.105s} {cp -3/6} 7 pass 0-1"), "pass pass");
    assert_string_equal(toks(""), "");
    /* refused, with the line */
    assert_string_equal(toks("1. b1-b3\n{open"), "ERR: record line 2: a comment '{' is not closed");
    assert_string_equal(toks("1. b1-b3 (1... a2"), "ERR: record line 1: a variation '(' is not closed");
    assert_string_equal(toks("1. b1-b3 )"), "ERR: record line 1: ')' closes no variation");
    assert_string_equal(toks("[Game loa]\n1. b1-b3"), "ERR: record line 1: a tag is [Name \"value\"]");
    assert_string_equal(toks("[Game \"loa\"\n"), "ERR: record line 1: a tag is [Name \"value\"]");
    assert_string_equal(toks("1. b1-b3 }"), "ERR: record line 1: unexpected '}'");
}

static void test_tags(void **state)
{
    char err[256];
    struct web_rec r;
    (void)state;
    assert_int_equal(web_rec_parse("[Event \"a \\\"quoted\\\" \\\\ name\"]\n[Game \"loa\"]\n"
                                   "[Game \"fetlar\"]\n[X_1 \"\"]\n\n1. d1-d3 *", &r, err, sizeof err), 0);
    assert_string_equal(web_rec_tag(&r, "Event"), "a \"quoted\" \\ name");
    assert_string_equal(web_rec_tag(&r, "Game"), "fetlar");       /* the last one */
    assert_string_equal(web_rec_tag(&r, "X_1"), "");
    assert_null(web_rec_tag(&r, "Site"));
    assert_int_equal(r.ntok, 1);
    web_rec_free(&r);
    /* more tags than kept: read, the first ones kept, no leak */
    {
        char big[8192];
        size_t len = 0;
        for (int i = 0; i < WEB_REC_MAX_TAGS + 20; i++)
            len += (size_t)snprintf(big + len, sizeof big - len, "[T%d \"%d\"]\n", i, i);
        snprintf(big + len, sizeof big - len, "1. a *");
        assert_int_equal(web_rec_parse(big, &r, err, sizeof err), 0);
        assert_int_equal(r.ntags, WEB_REC_MAX_TAGS);
        assert_string_equal(web_rec_tag(&r, "T0"), "0");
        assert_int_equal(r.ntok, 1);
        web_rec_free(&r);
    }
}

/* The request a record becomes. */
static json_t *request(const char *game, const char *record, char *err, size_t n)
{
    json_t *req = json_pack("{s:s, s:s, s:s, s:i}", "game", game, "mode", "analyse", "record", record, "ply", 3);
    json_t *q = web_rec_request(req, err, n);
    json_decref(req);
    return q;
}

static void test_request(void **state)
{
    char err[256];
    json_t *q;
    char *s;
    (void)state;
    q = request("loa", "[Game \"palagan\"]\n[Variant \"size=7 other=x\"]\n"
                       "[Opening \"fen 5/6/7/8/9/8/2b4/6/5 w 19/20 0/0 0 0 0 moves @c4 pass\"]\n1. @d4 *",
                err, sizeof err);
    assert_non_null(q);
    s = json_dumps(q, JSON_SORT_KEYS | JSON_COMPACT);
    assert_string_equal(s, "{\"fen\":\"5/6/7/8/9/8/2b4/6/5 w 19/20 0/0 0 0 0\",\"game\":\"palagan\","
                           "\"mode\":\"analyse\",\"moves\":[\"@c4\",\"pass\",\"@d4\"],\"size\":7}");
    free(s);
    json_decref(q);
    /* a FEN tag wins over the Opening; startpos with moves; a deal */
    q = request("loa", "[FEN \"x y\"]\n[Opening \"startpos moves a b\"]\n1. c", err, sizeof err);
    assert_string_equal(json_string_value(json_object_get(q, "fen")), "x y");
    assert_int_equal(json_array_size(json_object_get(q, "moves")), 1);
    json_decref(q);
    q = request("loa", "[Opening \"startpos moves a b\"]\n1. c", err, sizeof err);
    assert_null(json_object_get(q, "fen"));
    assert_int_equal(json_array_size(json_object_get(q, "moves")), 3);
    json_decref(q);
    q = request("battalion", "[Variant \"players=4\"]\n[Opening \"deal 12345\"]\n1.p1 draw:deck *", err, sizeof err);
    assert_int_equal(json_integer_value(json_object_get(q, "seed")), 12345);
    assert_int_equal(json_integer_value(json_object_get(q, "players")), 4);
    json_decref(q);
    /* refused */
    assert_null(request("loa", "[Opening \"somewhere\"]", err, sizeof err));
    assert_string_equal(err, "record: Opening 'somewhere' is not startpos, fen <position> or deal <seed>");
    assert_null(request("loa", "[Opening \"deal -1\"]", err, sizeof err));
    assert_null(request("loa", "[Variant \"size=big\"]", err, sizeof err));
    assert_string_equal(err, "record: Variant size=big is not a whole number");
    /* no record: a copy */
    {
        json_t *req = json_pack("{s:s}", "game", "loa");
        q = web_rec_request(req, err, sizeof err);
        assert_true(json_equal(q, req));
        json_decref(q);
        json_decref(req);
        req = json_pack("{s:i}", "record", 3);
        assert_null(web_rec_request(req, err, sizeof err));
        json_decref(req);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_movetext),
        cmocka_unit_test(test_tags),
        cmocka_unit_test(test_request),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
