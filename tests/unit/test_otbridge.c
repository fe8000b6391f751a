/* test_otbridge.c - unit tests of medan-otbridge's pieces: OpenTafl move
 * records, the Fetlar rules record (read back by medan-opentafl's checker),
 * and the think-time budget with its OTEP clock line. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "core/util.h"
#include "gui-adapters/opentafl/otbudget.h"
#include "gui-adapters/opentafl/otrules.h"

#define START "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/"

static const char *simple(const char *rec)
{
    static char out[32];
    char err[128];
    if (ot_move_simple(rec, out, sizeof out, err, sizeof err) != 0)
        return "ERR";
    return out;
}

static void test_move_records(void **state)
{
    (void)state;
    assert_string_equal(simple("e5-e8"), "e5-e8");
    assert_string_equal(simple("e5-e8xe9"), "e5-e8");
    assert_string_equal(simple("a3-e3+"), "a3-e3");
    assert_string_equal(simple("e3-e4++"), "e3-e4");
    assert_string_equal(simple("Ke5-e1-"), "e5-e1");
    assert_string_equal(simple("Ke1-a1--"), "e1-a1");
    assert_string_equal(simple("k10-k11"), "k10-k11");
    assert_string_equal(simple("kf6-f1"), "f6-f1");  /* an attacker king symbol */
    assert_string_equal(simple("f2-j2xj3/Tk4/e6+"), "f2-j2");
    assert_string_equal(simple("g5-g7xg8"), "g5-g7"); /* file g, not a guard */
    assert_string_equal(simple("---"), "ERR");        /* resignation */
    assert_string_equal(simple("ce6^e8"), "ERR");     /* jump */
    assert_string_equal(simple("Ne8=e4xe3"), "ERR");  /* berserk */
    assert_string_equal(simple("l1-l2"), "ERR");      /* off the board */
    assert_string_equal(simple("a12-a1"), "ERR");
    assert_string_equal(simple("a0-a1"), "ERR");
    assert_string_equal(simple("e5e8"), "ERR");
    assert_string_equal(simple("e5-e8 "), "ERR");
    assert_string_equal(simple("e5-e8x"), "ERR");
    assert_string_equal(simple("e5-e8?"), "ERR");
    assert_string_equal(simple(""), "ERR");
}

static void test_rules_record(void **state)
{
    char rec[1024], err[256];
    struct ot_rules r;
    (void)state;
    ot_rules_fetlar(START, 1, rec, sizeof rec);
    assert_true(strstr(rec, "dim:11 ") == rec);
    assert_non_null(strstr(rec, " surf:n "));
    assert_non_null(strstr(rec, " atkf:y "));
    assert_non_null(strstr(rec, " start:" START));
    /* medan-opentafl's checker plays exactly this */
    assert_int_equal(ot_rules_parse(rec, &r, err, sizeof err), 0);
    assert_int_equal(r.attackers_first, 1);
    assert_int_equal(r.surround_fatal, 0);
    assert_string_equal(r.start, START);
    ot_rules_fetlar(START, 0, rec, sizeof rec);
    assert_non_null(strstr(rec, " atkf:n "));
}

static void req_init(struct search_req *req)
{
    memset(req, 0, sizeof *req);
    limits_clear(&req->lim);
    req->start_us = now_us();
}

/* Milliseconds since req's start: the budget comes off by the time spent
 * before ot_budget ran, which a busy machine makes anything from 0 to this. */
static int64_t since_ms(const struct search_req *req)
{
    return (now_us() - req->start_us) / 1000 + 1;
}

static void test_budget(void **state)
{
    struct ot_budget_cfg c;
    struct search_req req;
    struct ot_budget b;
    char line[128];
    (void)state;
    ot_budget_defaults(&c);

    /* movetime 1000: timeman's 990 ms (MoveOverhead 10), an overtime period */
    req_init(&req);
    req.lim.movetime = 1000;
    ot_budget(&c, &req, 1, &b);
    assert_true(b.think_ms >= 990 - since_ms(&req) && b.think_ms <= 990);
    assert_int_equal(b.clock_ms, b.think_ms + OT_DEFAULT_PAD_MS);
    assert_true(b.giveup_us >= 1980000 && b.giveup_us <= 1990000);
    ot_clock_line(&b, line, sizeof line);
    char want[128];
    snprintf(want, sizeof want, "clock %lld* %lld* %lld 2 2", (long long)b.clock_ms,
             (long long)b.clock_ms, (long long)((b.clock_ms + 999) / 1000));
    assert_string_equal(line, want);

    /* seat clocks: seat 2's own clock counts, as timeman has it */
    req_init(&req);
    req.lim.time[1] = 1000;
    req.lim.time[2] = 60000;
    ot_budget(&c, &req, 2, &b);
    assert_true(b.think_ms > 1000 - since_ms(&req) && b.think_ms < 2000); /* 0.6 * 58.5 s / 30 */
    ot_budget(&c, &req, 1, &b);
    assert_true(b.think_ms < 50);

    /* depth, nodes, infinite: --movetime; infinite never gives up */
    req_init(&req);
    req.lim.depth = 5;
    ot_budget(&c, &req, 1, &b);
    assert_true(b.think_ms >= OT_DEFAULT_MOVETIME_MS - since_ms(&req) &&
                b.think_ms <= OT_DEFAULT_MOVETIME_MS);
    assert_true(b.giveup_us > 0);
    req_init(&req);
    req.lim.infinite = true;
    ot_budget(&c, &req, 1, &b);
    assert_true(b.think_ms >= OT_DEFAULT_MOVETIME_MS - since_ms(&req) &&
                b.think_ms <= OT_DEFAULT_MOVETIME_MS);
    assert_true(b.giveup_us < 0);

    /* time already spent (the settle wait) comes off */
    req_init(&req);
    req.lim.movetime = 1000;
    req.start_us -= 400000;
    ot_budget(&c, &req, 1, &b);
    assert_true(b.think_ms >= 990 - since_ms(&req) && b.think_ms <= 590);

    /* limits far beyond what MEP accepts (issue 10): timeman clamps them,
     * nothing overflows (UBSan aborted here), the budget stays long */
    const int64_t huge[] = {INT64_MAX, INT64_MAX / 4, 9223372036854776LL, MEP_MAX_MS};
    for (size_t i = 0; i < sizeof huge / sizeof *huge; i++) {
        req_init(&req);
        req.lim.movetime = huge[i];
        ot_budget(&c, &req, 1, &b);
        assert_true(b.think_ms > 1000000 && b.clock_ms > b.think_ms && b.giveup_us > 0);
        req_init(&req);
        req.lim.time[1] = huge[i];
        req.lim.inc[1] = huge[i];
        req.lim.overhead_ms = huge[i];
        ot_budget(&c, &req, 1, &b);
        assert_true(b.think_ms > 1000000 && b.clock_ms > b.think_ms && b.giveup_us > 0);
    }
}

static void test_mep_limits(void **state)
{
    struct limits l;
    char out[256];
    (void)state;
    limits_clear(&l);
    l.time[1] = 5000;
    l.inc[1] = 100;
    l.time[2] = 7000;
    l.movestogo = 10;
    ot_mep_limits(&l, 2, 300, out, sizeof out);
    assert_string_equal(out, "p1time 5000 p1inc 100 p2time 6700 p2inc 0 movestogo 10");
    limits_clear(&l);
    l.movetime = 200;
    l.depth = 4;
    l.nodes = 1000;
    ot_mep_limits(&l, 1, 50, out, sizeof out);
    assert_string_equal(out, "movetime 150 depth 4 nodes 1000");
    limits_clear(&l);
    l.ponder = true;
    l.movetime = 100;
    ot_mep_limits(&l, 1, 0, out, sizeof out);
    assert_string_equal(out, "infinite");
    limits_clear(&l);
    ot_mep_limits(&l, 1, 0, out, sizeof out);
    assert_string_equal(out, "infinite");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_move_records),
        cmocka_unit_test(test_rules_record),
        cmocka_unit_test(test_budget),
        cmocka_unit_test(test_mep_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
