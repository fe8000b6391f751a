/* test_referee.c - unit tests of the referee: statistics against
 * hand-computed values, time controls and clocks, records round-trip,
 * the schedule (pairs, rotated deals, shards, seeds). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "referee/adjudicate.h"
#include "referee/match.h"
#include "referee/record.h"
#include "referee/stats.h"
#include "referee/table.h"
#include "referee/tc.h"
#include "referee/tournament.h"

#define NEAR(a, b, eps) assert_true(fabs((a) - (b)) < (eps))

/* W=30 L=20 D=50: s = 0.55, per-game variance 0.1225, se 0.035. */
static void test_elo_trinomial(void **state)
{
    struct ref_elo e;
    (void)state;
    ref_elo_trinomial(30, 20, 50, &e);
    NEAR(e.score, 0.55, 1e-12);
    NEAR(e.se, 0.035, 1e-12);
    NEAR(e.elo, 34.8601, 1e-3);   /* -400 log10(1/0.55 - 1) */
    NEAR(e.lo, -12.9297, 1e-3);   /* score 0.55 - 1.96 * 0.035 */
    NEAR(e.hi, 84.0108, 1e-3);
    ref_elo_trinomial(10, 10, 0, &e);
    NEAR(e.elo, 0, 1e-9);
    ref_elo_trinomial(5, 0, 0, &e);
    assert_true(isinf(e.elo) && e.elo > 0);
    NEAR(ref_elo_of(0.75), 190.8485, 1e-3); /* 400 log10(3) */
    NEAR(ref_score_of(ref_elo_of(0.3)), 0.3, 1e-12);
}

static void test_los(void **state)
{
    (void)state;
    NEAR(ref_los(30, 20), 0.9213504, 1e-6); /* (1 + erf(1)) / 2 */
    NEAR(ref_los(7, 7), 0.5, 1e-12);
    NEAR(ref_los(0, 0), 0.5, 1e-12);
    NEAR(ref_los(0, 4), 0.0227501, 1e-6);  /* (1 + erf(-sqrt 2)) / 2 */
}

/* Pairs [2,10,20,12,6]: mean 27.5/50 = 0.55, variance per pair 3.25/50 = 0.065. */
static void test_elo_pentanomial(void **state)
{
    int p[5] = {2, 10, 20, 12, 6};
    struct ref_elo e;
    (void)state;
    ref_elo_pentanomial(p, &e);
    NEAR(e.score, 0.55, 1e-12);
    NEAR(e.se, sqrt(0.065 / 50), 1e-12);
    NEAR(e.elo, 34.8601, 1e-3);
    NEAR(e.lo, -14.3694, 1e-3);
    NEAR(e.hi, 85.5356, 1e-3);
}

/* Expected LLRs from an independent implementation of the generalized
 * SPRT (maximum-likelihood pentanomial distributions with mean s0 and s1,
 * empty cells counted 1e-3), written in Python for this test. */
static void test_sprt(void **state)
{
    struct ref_sprt s = {0, 10, 0.05, 0.05, REF_SPRT_LOGISTIC};
    int p[5] = {2, 10, 20, 12, 6}, win[5] = {0, 0, 10, 40, 150}, all[5] = {0, 0, 0, 0, 3},
        one[5] = {0, 0, 0, 0, 1}, lose[5] = {150, 40, 10, 0, 0}, none[5] = {0};
    double lo, hi, llr;
    (void)state;
    ref_sprt_bounds(&s, &lo, &hi);
    NEAR(lo, -2.944439, 1e-6); /* ln(0.05 / 0.95) */
    NEAR(hi, 2.944439, 1e-6);
    NEAR(ref_sprt_llr(&s, p), 0.469449, 1e-5);
    NEAR(ref_sprt_llr(&s, win), 5.673567, 1e-5);
    NEAR(ref_sprt_llr(&s, one), 0.028311, 1e-5);
    NEAR(ref_sprt_llr(&s, all), 0.085047, 1e-5);
    assert_int_equal(ref_sprt_decide(&s, p, &llr), 0);
    assert_int_equal(ref_sprt_decide(&s, win, &llr), 1);
    assert_int_equal(ref_sprt_decide(&s, lose, &llr), -1);
    assert_int_equal(ref_sprt_decide(&s, none, &llr), 0);
    /* A few one-sided pairs must not decide: the old normal
     * approximation with a near-zero variance gave LLR 3.79 for one 2-0
     * pair and accepted H1 between identical engines. */
    assert_int_equal(ref_sprt_decide(&s, one, &llr), 0);
    assert_int_equal(ref_sprt_decide(&s, all, &llr), 0);
    assert_true(llr < 0.5);
}

/* The text settings shared by --sprt and merge --sprt. */
static void test_sprt_set(void **state)
{
    struct ref_sprt s;
    (void)state;
    ref_sprt_default(&s);
    assert_true(ref_sprt_valid(&s));
    assert_int_equal(ref_sprt_set(&s, "elo1=10"), 0);
    assert_int_equal(ref_sprt_set(&s, "model=normalized"), 0);
    assert_int_equal(s.model, REF_SPRT_NORMALIZED);
    NEAR(s.elo1, 10, 1e-12);
    assert_int_equal(ref_sprt_set(&s, "elo1=x"), -1);
    assert_int_equal(ref_sprt_set(&s, "elo1="), -1);
    assert_int_equal(ref_sprt_set(&s, "elo=3"), -1);
    assert_int_equal(ref_sprt_set(&s, "elo00=3"), -1);
    assert_int_equal(ref_sprt_set(&s, "model=bayes"), -1);
    assert_int_equal(ref_sprt_set(&s, "alpha"), -1);
    NEAR(s.elo1, 10, 1e-12);
    assert_int_equal(ref_sprt_set(&s, "alpha=0.5"), 0);
    assert_false(ref_sprt_valid(&s));
    assert_int_equal(ref_sprt_set(&s, "alpha=0.05"), 0);
    assert_int_equal(ref_sprt_set(&s, "elo0=10"), 0);
    assert_false(ref_sprt_valid(&s)); /* elo0 must be below elo1 */
}

/* The error rates, on seeded simulated matches: identical engines must
 * accept H1 at most at rate alpha, an engine at elo1 at least at 1-beta
 * (with the sampling error of 400 runs: sd 1.1 %).  Both models. */
static void test_sprt_simulated(void **state)
{
    struct ref_sprt s = {0, 20, 0.05, 0.05, REF_SPRT_LOGISTIC};
    struct ref_sprt_sim r;
    (void)state;
    ref_sprt_simulate(&s, 0, 0.3, 400, 50000, 1, &r);
    assert_int_equal(r.runs, 400);
    assert_int_equal(r.h1 + r.h0 + r.undecided, 400);
    assert_true(r.h1 <= 20 + 9);      /* alpha = 5 % of 400, + 2 sd */
    assert_true(r.undecided == 0);
    ref_sprt_simulate(&s, 20, 0.3, 400, 50000, 2, &r);
    assert_true(r.h1 >= 380 - 9);     /* 1 - beta = 95 % */
    /* Very unequal engines decide in a few dozen pairs, never on one. */
    ref_sprt_simulate(&s, 300, 0.1, 100, 50000, 3, &r);
    assert_int_equal(r.h1, 100);
    assert_true(r.pairs > 100 * 3 && r.pairs < 100 * 100);
    /* Normalized Elo: nElo 0 vs 20 (about 10 logistic Elo at draw ratio
     * 0.3); identical engines rarely pass, +20 logistic Elo usually does. */
    s.model = REF_SPRT_NORMALIZED;
    ref_sprt_simulate(&s, 0, 0.3, 300, 50000, 4, &r);
    assert_true(r.h1 <= 15 + 8);
    ref_sprt_simulate(&s, 20, 0.3, 300, 50000, 5, &r);
    assert_true(r.h1 >= 285 - 8);
}

/* Ratings against a gradient-ascent fit of the same likelihood in Python;
 * the standard error of two engines by hand: var(r1) = 1 / (4 n p (1-p))
 * with n = 101, p = 55.5/101 (one virtual draw). */
static void test_ratings(void **state)
{
    double g2[4] = {0, 100, 100, 0}, p2[4] = {0, 55, 45, 0}, elo[3], se[3];
    double g3[9] = {0, 20, 20, 20, 0, 20, 20, 20, 0}, p3[9] = {0, 14, 16, 6, 0, 11, 4, 9, 0};
    double g3apart[9] = {0, 20, 0, 20, 0, 0, 0, 0, 0}, p3apart[9] = {0, 10, 0, 10, 0, 0, 0, 0, 0};
    double pp = 55.5 / 101;
    (void)state;
    assert_int_equal(ref_ratings(2, g2, p2, elo, se), 0);
    NEAR(elo[0], 17.256317, 1e-4);
    NEAR(elo[1], -17.256317, 1e-4);
    NEAR(se[0], 400 / log(10) * sqrt(1 / (4 * 101 * pp * (1 - pp))), 1e-6);
    assert_int_equal(ref_ratings(3, g3, p3, elo, se), 0);
    NEAR(elo[0], 120.517872, 1e-4);
    NEAR(elo[1], -36.268844, 1e-4);
    NEAR(elo[2], -84.249028, 1e-4);
    assert_true(se[0] > 30 && se[0] < 120);
    /* An engine that met nobody: no interval. */
    assert_int_equal(ref_ratings(3, g3apart, p3apart, elo, se), -1);
    assert_true(isnan(se[2]));
}

/* Adjudication as cutechess-cli does it, move by move. */
static void test_adjudication(void **state)
{
    struct ref_adjudication a;
    struct ref_adj_state st;
    char why[160];
    int loser = -1, ply = 0, r = 0;
    (void)state;
    memset(&a, 0, sizeof a);
    assert_int_equal(ref_adj_set_draw(&a, "movenumber=4"), 0);
    assert_int_equal(ref_adj_set_draw(&a, "movecount=3"), 0);
    assert_int_equal(ref_adj_set_draw(&a, "score=10"), 0);
    assert_int_equal(ref_adj_set_draw(&a, "score=-1"), -1);
    assert_int_equal(ref_adj_set_draw(&a, "moves=3"), -1);
    assert_int_equal(ref_adj_set_resign(&a, "movecount=2"), 0);
    assert_int_equal(ref_adj_set_resign(&a, "score=500"), 0);
    assert_int_equal(ref_adj_set_resign(&a, "twosided=maybe"), -1);
    /* Small scores from move 1: a draw once 4 moves are played and both
     * scores have been small for 3 full moves (6 plies). */
    ref_adj_start(&st);
    for (ply = 1; ply <= 20 && !r; ply++)
        r = ref_adj_move(&a, &st, (ply - 1) % 2, 1, (ply % 3) - 1, ply, &loser, why, sizeof why);
    assert_int_equal(r, REF_ADJ_DRAW);
    assert_int_equal(ply - 1, 8); /* 4 full moves; the run (7 plies) is long enough */
    /* A large score breaks the run. */
    ref_adj_start(&st);
    r = 0;
    for (ply = 1; ply <= 20 && !r; ply++)
        r = ref_adj_move(&a, &st, (ply - 1) % 2, 1, ply == 7 ? 40 : 0, ply, &loser, why, sizeof why);
    assert_int_equal(r, REF_ADJ_DRAW);
    assert_int_equal(ply - 1, 14); /* seat 1's 40 stands until ply 9: plies 9-14 */
    /* A move without a score breaks it too. */
    ref_adj_start(&st);
    assert_int_equal(ref_adj_move(&a, &st, 0, 0, 0, 1, &loser, why, sizeof why), REF_ADJ_NONE);
    /* Resign: seat 2 (index 1) sees -600 on two of its moves in a row. */
    a.draw_on = 0;
    ref_adj_start(&st);
    assert_int_equal(ref_adj_move(&a, &st, 0, 1, 300, 1, &loser, why, sizeof why), 0);
    assert_int_equal(ref_adj_move(&a, &st, 1, 1, -600, 2, &loser, why, sizeof why), 0);
    assert_int_equal(ref_adj_move(&a, &st, 0, 1, 300, 3, &loser, why, sizeof why), 0);
    assert_int_equal(ref_adj_move(&a, &st, 1, 1, -600, 4, &loser, why, sizeof why), REF_ADJ_LOSS);
    assert_int_equal(loser, 1);
    assert_string_equal(why, "p2 scored <= -500 cp for 2 moves");
    /* Two-sided: the opponent's 300 does not agree (needs >= 500). */
    assert_int_equal(ref_adj_set_resign(&a, "twosided=true"), 0);
    ref_adj_start(&st);
    for (ply = 1; ply <= 8; ply++)
        assert_int_equal(ref_adj_move(&a, &st, (ply - 1) % 2, 1, ply % 2 ? 300 : -600, ply,
                                      &loser, why, sizeof why), REF_ADJ_NONE);
    ref_adj_start(&st);
    r = 0;
    for (ply = 1; ply <= 8 && !r; ply++)
        r = ref_adj_move(&a, &st, (ply - 1) % 2, 1, ply % 2 ? 700 : -600, ply, &loser, why,
                         sizeof why);
    assert_int_equal(r, REF_ADJ_LOSS);
    assert_int_equal(loser, 1);
    /* --maxmoves 3: a draw after 6 plies. */
    memset(&a, 0, sizeof a);
    a.maxmoves = 3;
    ref_adj_start(&st);
    for (ply = 1; ply <= 5; ply++)
        assert_int_equal(ref_adj_move(&a, &st, (ply - 1) % 2, 0, 0, ply, &loser, why, sizeof why), 0);
    assert_int_equal(ref_adj_move(&a, &st, 1, 0, 0, 6, &loser, why, sizeof why), REF_ADJ_MAXMOVES);
}

static void test_mean_ci(void **state)
{
    double x[4] = {10, 12, 8, 14}, m, h;
    (void)state;
    ref_mean_ci(x, 4, &m, &h);
    NEAR(m, 11, 1e-12);
    NEAR(h, 1.959964 * sqrt(20.0 / 3) / 2, 1e-6); /* sd sqrt(20/3) */
    ref_mean_ci(x, 1, &m, &h);
    NEAR(m, 10, 1e-12);
    NEAR(h, 0, 1e-12);
}

static void test_tc_parse(void **state)
{
    struct ref_tc tc;
    char b[64];
    int64_t ms;
    (void)state;
    ref_tc_clear(&tc);
    assert_int_equal(ref_tc_set(&tc, "tc", "40/60+0.5"), 0);
    assert_int_equal(tc.moves, 40);
    assert_int_equal(tc.base_ms, 60000);
    assert_int_equal(tc.inc_ms, 500);
    ref_tc_format(&tc, b, sizeof b);
    assert_string_equal(b, "40/60+0.5");
    assert_int_equal(ref_tc_set(&tc, "tc", "1:30+1"), 0);
    assert_int_equal(tc.moves, 0);
    assert_int_equal(tc.base_ms, 90000);
    assert_int_equal(tc.inc_ms, 1000);
    assert_int_equal(ref_tc_set(&tc, "tc", "10+0.1"), 0);
    assert_int_equal(tc.base_ms, 10000);
    assert_int_equal(tc.inc_ms, 100);
    assert_int_equal(ref_tc_set(&tc, "st", "0.25"), 0);
    assert_int_equal(tc.movetime_ms, 250);
    assert_int_equal(ref_tc_set(&tc, "depth", "7"), 0);
    assert_int_equal(ref_tc_set(&tc, "nodes", "100000"), 0);
    assert_int_equal(ref_tc_set(&tc, "timemargin", "50"), 0);
    ref_tc_format(&tc, b, sizeof b);
    assert_string_equal(b, "10+0.1 st=0.25 depth=7 nodes=100000");
    assert_int_equal(ref_tc_set(&tc, "tc", "abc"), -1);
    assert_int_equal(ref_tc_set(&tc, "tc", "0+0"), -1);
    assert_int_equal(ref_tc_set(&tc, "tc", "/5"), -1);
    assert_int_equal(ref_tc_set(&tc, "st", "-1"), -1);
    assert_int_equal(ref_tc_set(&tc, "depth", "0"), -1);
    assert_int_equal(ref_tc_set(&tc, "bogus", "1"), -1);
    assert_int_equal(ref_parse_seconds("2:05.5", &ms), 0);
    assert_int_equal(ms, 125500);
    assert_int_equal(ref_parse_seconds("0.0005", &ms), 0);
    assert_int_equal(ms, 0);
    assert_int_equal(ref_parse_seconds("1.", &ms), 0);
    assert_int_equal(ms, 1000);
    assert_int_equal(ref_parse_seconds(":5", &ms), -1);
}

static void test_clock(void **state)
{
    struct ref_tc tc;
    struct ref_clock c;
    (void)state;
    ref_tc_clear(&tc);
    ref_tc_set(&tc, "tc", "2/1+0.1");
    ref_clock_start(&c, &tc);
    assert_int_equal(c.left_ms, 1000);
    assert_int_equal(ref_clock_allow_us(&c, &tc), 1000000);
    assert_int_equal(ref_clock_charge(&c, &tc, 300000), 0);
    assert_int_equal(c.left_ms, 800);            /* 1000 - 300 + 100 */
    assert_int_equal(ref_clock_charge(&c, &tc, 500400), 0);
    assert_int_equal(c.left_ms, 800 - 501 + 100 + 1000); /* ceil, control */
    assert_int_equal(ref_clock_charge(&c, &tc, 1399001), -1); /* over */
    /* the margin forgives a small overrun; the clock restarts at 0 */
    ref_tc_set(&tc, "timemargin", "50");
    ref_clock_start(&c, &tc);
    assert_int_equal(ref_clock_allow_us(&c, &tc), 1050000);
    assert_int_equal(ref_clock_charge(&c, &tc, 1030000), 0);
    assert_int_equal(c.left_ms, 100);
    assert_int_equal(ref_clock_charge(&c, &tc, 151000), -1);
    /* movetime only: without timemargin a few ms (or 1 s) late is no loss,
     * only past 2 * st + REF_ST_GRACE_MS (a hung engine) */
    ref_tc_clear(&tc);
    ref_tc_set(&tc, "st", "0.2");
    ref_clock_start(&c, &tc);
    assert_int_equal(ref_clock_allow_us(&c, &tc), 400000 + REF_ST_GRACE_MS * 1000);
    assert_int_equal(ref_clock_charge(&c, &tc, 199000), 0);
    assert_int_equal(ref_clock_charge(&c, &tc, 201000), 0);
    assert_int_equal(ref_clock_charge(&c, &tc, 1400000), 0);
    assert_int_equal(ref_clock_charge(&c, &tc, 1400001), -1);
    /* timemargin given: the strict rule, st + margin (cutechess's) */
    ref_tc_set(&tc, "timemargin", "0");
    assert_int_equal(ref_clock_allow_us(&c, &tc), 200000);
    assert_int_equal(ref_clock_charge(&c, &tc, 199000), 0);
    assert_int_equal(ref_clock_charge(&c, &tc, 201000), -1);
    ref_tc_set(&tc, "timemargin", "30");
    assert_int_equal(ref_clock_allow_us(&c, &tc), 230000);
    assert_int_equal(ref_clock_charge(&c, &tc, 229000), 0);
    assert_int_equal(ref_clock_charge(&c, &tc, 231000), -1);
    /* a clock with st=: the clock's margin stays 0 when none is given */
    ref_tc_clear(&tc);
    ref_tc_set(&tc, "tc", "0.1");
    ref_tc_set(&tc, "st", "0.2");
    ref_clock_start(&c, &tc);
    assert_int_equal(ref_clock_allow_us(&c, &tc), 100000);
    assert_int_equal(ref_clock_charge(&c, &tc, 101000), -1);
    ref_tc_clear(&tc);
    ref_tc_set(&tc, "depth", "3");
    assert_int_equal(ref_clock_allow_us(&c, &tc), -1);
}

static void make_rec(struct ref_record *r, int game, const char *p1,
                     const char *p2, int r1, int r2)
{
    ref_record_init(r);
    r->game = game;
    r->nseats = 2;
    r->seed = 12345;
    r->match_seed = 7;
    strcpy(r->game_name, "loa");
    strcpy(r->seat_name[0], p1);
    strcpy(r->seat_name[1], p2);
    r->rank[0] = r1;
    r->rank[1] = r2;
    strcpy(r->reason, "connected");
}

/* cutechess-cli's closing line against values worked out by hand (mu = (W +
 * D/2)/N; per-game variance (W(1-mu)^2 + D(1/2-mu)^2 + L mu^2)/N; sd =
 * sqrt(var/N); margin = (elo(mu + 1.96 sd) - elo(mu - 1.96 sd))/2), and
 * cutechess's IEEE arithmetic where a figure is not finite. */
static void test_cutechess_line(void **state)
{
    struct ref_cc c;
    char b[160];
    (void)state;
    /* 3-1-0: mu 3/4, var 3/16, sd sqrt(3/64) = 0.21651, mu + 1.96 sd =
     * 1.174 > 1, so cutechess's elo(mu_max) is NaN: a finite Elo, 400
     * log10 3 = 190.85, and a NaN margin; LOS (1 + erf(2/sqrt 8))/2. */
    ref_elo_cutechess(3, 1, 0, &c);
    NEAR(c.elo, 190.8485, 1e-3);
    assert_true(isnan(c.margin));
    NEAR(c.los, 84.13447, 1e-4);
    NEAR(c.draw_ratio, 0, 1e-12);
    ref_fmt_cc_line(b, sizeof b, 3, 1, 0);
    assert_string_equal(b, "Elo difference: 190.8 +/- nan, LOS: 84.1 %, DrawRatio: 0.0 %");
    ref_fmt_cc_line(b, sizeof b, 1, 3, 0); /* mu - 1.96 sd < 0 */
    assert_string_equal(b, "Elo difference: -190.8 +/- nan, LOS: 15.9 %, DrawRatio: 0.0 %");
    /* 4-0-0: mu 1, sd 0: elo(1) = +inf, inf - inf = NaN */
    ref_fmt_cc_line(b, sizeof b, 4, 0, 0);
    assert_string_equal(b, "Elo difference: inf +/- nan, LOS: 97.7 %, DrawRatio: 0.0 %");
    ref_fmt_cc_line(b, sizeof b, 0, 4, 0);
    assert_string_equal(b, "Elo difference: -inf +/- nan, LOS: 2.3 %, DrawRatio: 0.0 %");
    /* 0-0-4: mu 1/2, sd 0: 0 +/- 0; LOS 0/0 (no decisive game) is NaN */
    ref_fmt_cc_line(b, sizeof b, 0, 0, 4);
    assert_string_equal(b, "Elo difference: 0.0 +/- 0.0, LOS: nan %, DrawRatio: 100.0 %");
    /* 30-20-50: mu 0.55, var 0.1225, sd 0.035; mu -+ 0.068599 = 0.481401,
     * 0.618599: elo -12.930, +84.011, margin 48.470; LOS (1 + erf 1)/2 */
    ref_elo_cutechess(30, 20, 50, &c);
    NEAR(c.elo, 34.8601, 1e-3);
    NEAR(c.margin, 48.4702, 1e-3);
    NEAR(c.los, 92.13504, 1e-4);
    ref_fmt_cc_line(b, sizeof b, 30, 20, 50);
    assert_string_equal(b, "Elo difference: 34.9 +/- 48.5, LOS: 92.1 %, DrawRatio: 50.0 %");
    /* 60-40-100: the same mu, sd 0.035/sqrt 2 = 0.024749; mu -+ 0.048507 =
     * 0.501493, 0.598507: elo +1.038, +69.356, margin 34.159 */
    ref_fmt_cc_line(b, sizeof b, 60, 40, 100);
    assert_string_equal(b, "Elo difference: 34.9 +/- 34.2, LOS: 97.7 %, DrawRatio: 50.0 %");
    /* 10-0-10: every decisive game won, yet both bounds inside (0, 1):
     * mu 3/4, var 1/16, sd 1/(4 sqrt 20) = 0.055902; mu -+ 0.109566 =
     * 0.640434, 0.859566: elo +100.28, +314.72, margin 107.22 */
    ref_elo_cutechess(10, 0, 10, &c);
    NEAR(c.elo, 190.8485, 1e-3);
    NEAR(c.margin, 107.2215, 1e-3);
    ref_fmt_cc_line(b, sizeof b, 10, 0, 10);
    assert_string_equal(b, "Elo difference: 190.8 +/- 107.2, LOS: 99.9 %, DrawRatio: 50.0 %");
    /* 2-2-0: mu 1/2 (Elo 0, never "-0.0"), sd 1/4: mu -+ 0.49 = 0.0100,
     * 0.9900: margin 400 log10(0.99/0.01) = 798.10 */
    ref_fmt_cc_line(b, sizeof b, 2, 2, 0);
    assert_string_equal(b, "Elo difference: 0.0 +/- 798.1, LOS: 50.0 %, DrawRatio: 0.0 %");
    /* 6-2-2: mu 0.7, var 0.16, sd 0.126491; mu -+ 0.247918 = 0.452082,
     * 0.947918: elo -33.40, +504.03, margin 268.72 */
    ref_fmt_cc_line(b, sizeof b, 6, 2, 2);
    assert_string_equal(b, "Elo difference: 147.2 +/- 268.7, LOS: 92.1 %, DrawRatio: 20.0 %");
    ref_elo_cutechess(0, 0, 0, &c); /* no games: nothing finite */
    assert_true(isnan(c.elo) && isnan(c.margin) && isnan(c.los));
}

/* The PGN record: the seven-tag roster first and in order, a date as
 * YYYY.MM.DD, escaped names, cutechess's move comments. */
static void test_record_pgn(void **state)
{
    struct ref_record r;
    char *buf = NULL, c[64];
    size_t len = 0;
    FILE *f;
    struct ref_move m = {.seat = 1, .depth = 12, .has_score = 1, .cp = 31, .ms = 250};
    (void)state;
    ref_record_move_comment(&m, c, sizeof c);
    assert_string_equal(c, "+0.31/12 0.25s");
    m.cp = -5, m.ms = 43;
    ref_record_move_comment(&m, c, sizeof c);
    assert_string_equal(c, "-0.05/12 0.043s");
    m.cp = 0, m.ms = 1234;
    ref_record_move_comment(&m, c, sizeof c);
    assert_string_equal(c, "0.00/12 1.2s");
    m.mate = 5, m.cp = REF_SCORE_MATE, m.ms = 12600;
    ref_record_move_comment(&m, c, sizeof c);
    assert_string_equal(c, "+M5/12 13s");
    m.mate = -3, m.cp = -REF_SCORE_MATE, m.ms = 0;
    ref_record_move_comment(&m, c, sizeof c);
    assert_string_equal(c, "-M3/12 0s");
    m.depth = 0; /* cutechess: no depth, no score */
    ref_record_move_comment(&m, c, sizeof c);
    assert_string_equal(c, "0s");
    m.depth = 4, m.has_score = 0, m.ms = 7;
    ref_record_move_comment(&m, c, sizeof c);
    assert_string_equal(c, "0.007s");

    make_rec(&r, 5, "A \"q\" \\b", "B\tC", 2, 1);
    strcpy(r.date, "2026.12.02 14:05:09");
    ref_record_add_move(&r, 1, "c1-c3", 120);
    ref_record_add_move(&r, 2, "a2xc4", 90);
    r.moves[1].depth = 3, r.moves[1].has_score = 1, r.moves[1].cp = 144;
    f = open_memstream(&buf, &len);
    assert_int_equal(ref_record_write_pgn(&r, f), 0);
    fclose(f);
    assert_true(strncmp(buf,
                        "[Event \"medan-referee match\"]\n"
                        "[Site \"?\"]\n"
                        "[Date \"2026.12.02\"]\n"
                        "[Round \"5\"]\n"
                        "[White \"A \\\"q\\\" \\\\b\"]\n"
                        "[Black \"B?C\"]\n"
                        "[Result \"0-1\"]\n"
                        "[Time \"14:05:09\"]\n",
                        strlen("[Event \"medan-referee match\"]\n[Site \"?\"]\n"
                               "[Date \"2026.12.02\"]\n[Round \"5\"]\n"
                               "[White \"A \\\"q\\\" \\\\b\"]\n[Black \"B?C\"]\n"
                               "[Result \"0-1\"]\n[Time \"14:05:09\"]\n")) == 0);
    assert_non_null(strstr(buf, "\n1. c1-c3 {0.12s} a2xc4 {+1.44/3 0.090s} {connected} 0-1\n"));
    free(buf);
    /* N seats: "?" players, the seat tags, "*"; an old record without a
     * date gets the standard's unknown date */
    r.nseats = 3;
    strcpy(r.seat_name[2], "D");
    r.rank[2] = 3;
    r.date[0] = '\0';
    buf = NULL;
    f = open_memstream(&buf, &len);
    assert_int_equal(ref_record_write_pgn(&r, f), 0);
    fclose(f);
    assert_non_null(strstr(buf, "[Date \"????.??.??\"]\n[Round \"5\"]\n[White \"?\"]\n"
                                "[Black \"?\"]\n[Result \"*\"]\n[Time \"??:??:??\"]\n"));
    assert_non_null(strstr(buf, "[P3 \"D\"]\n"));
    assert_non_null(strstr(buf, "[Ranks \"2 1 3\"]\n"));
    assert_non_null(strstr(buf, "1.p1 c1-c3 {0.12s} 2.p2 a2xc4 {+1.44/3 0.090s}"));
    free(buf);
    ref_record_free(&r);
}

static void test_record_roundtrip(void **state)
{
    struct ref_record r, q;
    char path[] = "/tmp/test_referee_XXXXXX", err[256], *line = NULL;
    size_t cap = 0;
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w+");
    (void)state;
    make_rec(&r, 3, "A \"quoted\"", "B", 1, 2);
    r.opening = strdup("start moves b1-b3");
    ref_record_add_move(&r, 1, "c1-c3", 12);
    ref_record_add_move(&r, 2, "a2xc4", 1500);
    r.moves[1].depth = 7; /* the first move has none */
    ref_record_add_move(&r, 1, "d1-d3", 5);
    ref_record_add_move(&r, 2, "e1-e3", 6);
    r.moves[1].has_score = 1, r.moves[1].cp = -31;
    r.moves[2].has_score = 1, r.moves[2].mate = 5, r.moves[2].cp = REF_SCORE_MATE;
    r.moves[3].has_score = 1, r.moves[3].mate = -2, r.moves[3].cp = -REF_SCORE_MATE;
    r.has_scores = 1;
    r.score[0] = 1;
    strcpy(r.key, "00112233445566778899aabbccddeeff");
    assert_int_equal(ref_record_write_json(&r, f), 0);
    rewind(f);
    assert_true(getline(&line, &cap, f) > 0);
    assert_non_null(strstr(line, "\"result\":\"p1win\""));
    assert_non_null(strstr(line, "\"moves\":[{\"seat\":1,\"move\":\"c1-c3\",\"ms\":12}"));
    /* the one result-to-text mapping (PGN and the live lines) */
    assert_string_equal(ref_record_result_text(&r), "1-0");
    r.rank[0] = 2, r.rank[1] = 1;
    assert_string_equal(ref_record_result_text(&r), "0-1");
    r.rank[0] = 1;
    assert_string_equal(ref_record_result_text(&r), "1/2-1/2");
    r.rank[1] = 2;
    assert_int_equal(ref_record_parse_json(&q, line, err, sizeof err), 0);
    assert_int_equal(q.game, 3);
    assert_string_equal(q.key, "00112233445566778899aabbccddeeff");
    assert_non_null(strstr(line, "{\"seat\":2,\"move\":\"a2xc4\",\"ms\":1500,"
                                 "\"depth\":7,\"cp\":-31}"));
    assert_non_null(strstr(line, "\"ms\":5,\"win\":5}"));
    assert_non_null(strstr(line, "\"ms\":6,\"loss\":2}"));
    assert_int_equal(q.nmoves, 4);
    assert_false(q.moves[0].has_score);
    assert_true(q.moves[1].has_score && q.moves[1].cp == -31 && q.moves[1].mate == 0);
    assert_true(q.moves[2].has_score && q.moves[2].mate == 5);
    assert_true(q.moves[3].has_score && q.moves[3].mate == -2 &&
                q.moves[3].cp == -REF_SCORE_MATE);
    assert_string_equal(q.moves[1].tok, "a2xc4");
    assert_int_equal(q.moves[1].ms, 1500);
    assert_int_equal(q.moves[0].depth, 0);
    assert_int_equal(q.moves[1].depth, 7);
    assert_string_equal(q.seat_name[0], "A \"quoted\"");
    assert_int_equal(q.rank[0], 1);
    assert_int_equal(q.rank[1], 2);
    assert_string_equal(q.opening, "start moves b1-b3");
    assert_true(q.has_scores);
    ref_record_free(&q);
    /* a record of an older referee (no score keys) and out-of-range
     * scores load, without scores */
    assert_int_equal(ref_record_parse_json(&q,
                         "{\"game\":2,\"variant\":{\"name\":\"loa\"},\"seats\":[\"A\",\"B\"],"
                         "\"moves\":[{\"seat\":1,\"move\":\"b1-b3\",\"ms\":3,\"depth\":2},"
                         "{\"seat\":2,\"move\":\"a2-c2\",\"ms\":3,\"cp\":100000,\"win\":0}],"
                         "\"result\":\"draw\"}", err, sizeof err), 0);
    assert_int_equal(q.nmoves, 2);
    assert_false(q.moves[0].has_score);
    assert_false(q.moves[1].has_score);
    ref_record_free(&q);
    assert_int_equal(ref_record_parse_json(&q, "{\"game\":1}", err, sizeof err), -1);
    assert_int_equal(ref_record_parse_json(&q, "not json", err, sizeof err), -1);
    /* N seats: ranks */
    r.nseats = 4;
    r.rank[2] = 1;
    r.rank[3] = 3;
    strcpy(r.seat_name[2], "C");
    strcpy(r.seat_name[3], "D");
    rewind(f);
    assert_int_equal(ftruncate(fd, 0), 0);
    ref_record_write_json(&r, f);
    rewind(f);
    assert_true(getline(&line, &cap, f) > 0);
    assert_non_null(strstr(line, "\"result\":{\"ranks\":[1,2,1,3]}"));
    assert_null(ref_record_result_text(&r));
    assert_int_equal(ref_record_parse_json(&q, line, err, sizeof err), 0);
    assert_int_equal(q.rank[3], 3);
    ref_record_free(&q);
    ref_record_free(&r);
    free(line);
    fclose(f);
    unlink(path);
}

/* ponder=on: the ponderhit key round-trips (true: a hit, false: a miss,
 * absent: no ponder search), and the table counts each engine's hits. */
static void test_record_ponderhit(void **state)
{
    struct ref_record r, q;
    struct ref_table t;
    char path[] = "/tmp/test_referee_XXXXXX", err[256], *line = NULL;
    size_t cap = 0;
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w+");
    (void)state;
    make_rec(&r, 1, "P", "Q", 1, 2);
    r.opening = strdup("start");
    ref_record_add_move(&r, 1, "c1-c3", 12);
    ref_record_add_move(&r, 2, "a2xc4", 15);
    ref_record_add_move(&r, 1, "d1-d3", 5);
    ref_record_add_move(&r, 2, "e1-e3", 6);
    ref_record_add_move(&r, 1, "f1-f3", 7);
    r.moves[2].ponderhit = 1;
    r.moves[3].ponderhit = -1;
    r.moves[4].ponderhit = -1;
    assert_int_equal(ref_record_write_json(&r, f), 0);
    rewind(f);
    assert_true(getline(&line, &cap, f) > 0);
    assert_non_null(strstr(line, "{\"seat\":1,\"move\":\"c1-c3\",\"ms\":12}"));
    assert_non_null(strstr(line, "\"move\":\"d1-d3\",\"ms\":5,\"ponderhit\":true}"));
    assert_non_null(strstr(line, "\"move\":\"e1-e3\",\"ms\":6,\"ponderhit\":false}"));
    assert_int_equal(ref_record_parse_json(&q, line, err, sizeof err), 0);
    assert_int_equal(q.moves[0].ponderhit, 0);
    assert_int_equal(q.moves[2].ponderhit, 1);
    assert_int_equal(q.moves[3].ponderhit, -1);
    ref_table_init(&t);
    assert_int_equal(ref_table_add(&t, &q), 0);
    assert_int_equal(t.eng[ref_table_engine(&t, "P")].ponders, 2);
    assert_int_equal(t.eng[ref_table_engine(&t, "P")].ponderhits, 1);
    assert_int_equal(t.eng[ref_table_engine(&t, "Q")].ponders, 1);
    assert_int_equal(t.eng[ref_table_engine(&t, "Q")].ponderhits, 0);
    ref_table_free(&t);
    ref_record_free(&q);
    ref_record_free(&r);
    free(line);
    fclose(f);
    unlink(path);
}

/* The cores warning: --concurrency x the largest Threads (x 2 pondering)
 * against the cores given. */
static void test_cores_warning(void **state)
{
    struct ref_match m;
    struct ctl_engine_spec eng[2];
    int ponder[2] = {0, 0};
    char *on[1] = {"Threads"}, *v4[1] = {"4"}, *vbad[1] = {"x"};
    char buf[512];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    (void)state;
    memset(&m, 0, sizeof m);
    memset(eng, 0, sizeof eng);
    eng[0].name = "a";
    eng[1].name = "b";
    m.eng = eng;
    m.neng = 2;
    m.concurrency = 1;
    m.ponder = ponder;
    assert_int_equal(ref_cores_warning(&m, 1, f), 0);    /* 1 x 1 on 1 */
    m.concurrency = 2;
    assert_int_equal(ref_cores_warning(&m, 2, f), 0);    /* 2 x 1 on 2 */
    assert_int_equal(ref_cores_warning(&m, 1, f), 1);    /* 2 x 1 on 1 */
    eng[1].opt_name = on, eng[1].opt_val = v4, eng[1].nopts = 1;
    assert_int_equal(ref_cores_warning(&m, 8, f), 0);    /* 2 x 4 on 8 */
    ponder[0] = 1;                                       /* a: 1 x 2 */
    assert_int_equal(ref_cores_warning(&m, 8, f), 0);
    ponder[1] = 1;                                       /* b: 4 x 2 */
    fflush(f);
    rewind(f);
    assert_int_equal(ref_cores_warning(&m, 15, f), 1);   /* 2 x 8 = 16 */
    fflush(f);
    assert_non_null(strstr(buf, "--concurrency 2 x 8 searching threads (b: Threads=4, "
                                "x 2 for ponder=on) = 16 on 15 cores"));
    assert_int_equal(ref_cores_warning(&m, 16, f), 0);
    eng[1].opt_val = vbad;                               /* refused later: 1 */
    assert_int_equal(ref_cores_warning(&m, 4, f), 0);
    fclose(f);
}

struct count_ctx {
    int n, last;
};
static void count_fn(void *ctx, const struct ref_record *r)
{
    struct count_ctx *c = ctx;
    c->n++;
    c->last = r->game;
}

/* A crash in the middle of a write leaves a cut line: reading skips it. */
static void test_record_cut_file(void **state)
{
    char path[] = "/tmp/test_referee_XXXXXX", err[256];
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    struct ref_record r;
    struct count_ctx c = {0, 0};
    long good;
    (void)state;
    for (int g = 1; g <= 3; g++) {
        make_rec(&r, g, "A", "B", 1, 1);
        ref_record_write_json(&r, f);
        ref_record_free(&r);
    }
    fputs("{\"game\":4,\"seed\":1,\"va", f);
    fclose(f);
    assert_int_equal(ref_record_read_file(path, count_fn, &c, &good, err, sizeof err), 3);
    assert_int_equal(c.n, 3);
    assert_int_equal(c.last, 3);
    assert_true(good > 0);
    unlink(path);
}

/* What --outcomeinterval and --ratinginterval print: each engine's
 * endings sorted (Win/Loss/Draw: reason), and the closing line with
 * cutechess's SPRT line. */
static void test_table_intervals(void **state)
{
    struct ref_table t;
    struct ref_record r;
    struct ref_sprt sp;
    char *buf = NULL;
    size_t len = 0;
    FILE *f;
    /* A-B: A wins by connection, B wins on time (A forfeits), a draw at
     * maxplies, A wins by connection again */
    static const struct {
        int game, a_first, r1, r2;
        const char *reason;
    } g[] = {{1, 1, 1, 2, "connected"}, {2, 0, 1, 2, "time_forfeit"},
             {3, 1, 1, 1, "maxplies"}, {4, 0, 2, 1, "connected"}};
    (void)state;
    ref_table_init(&t);
    for (size_t i = 0; i < sizeof g / sizeof g[0]; i++) {
        make_rec(&r, g[i].game, g[i].a_first ? "A" : "B", g[i].a_first ? "B" : "A",
                 g[i].r1, g[i].r2);
        strcpy(r.reason, g[i].reason);
        assert_int_equal(ref_table_add(&t, &r), 0);
        ref_record_free(&r);
    }
    f = open_memstream(&buf, &len);
    ref_table_print_outcomes(&t, f);
    fclose(f);
    assert_string_equal(buf, "Player: A\n"
                             "   \"Draw: maxplies\": 1\n"
                             "   \"Loss: time_forfeit\": 1\n"
                             "   \"Win: connected\": 2\n"
                             "Player: B\n"
                             "   \"Draw: maxplies\": 1\n"
                             "   \"Loss: connected\": 2\n"
                             "   \"Win: time_forfeit\": 1\n");
    free(buf);
    /* 2-1-1: mu 5/8, var (2(3/8)^2 + (1/8)^2 + (5/8)^2)/4 = 0.171875, sd
     * 0.207289; mu + 1.96 sd = 1.031 > 1: Elo 88.7, margin nan; LOS (1 +
     * erf(1/sqrt 6))/2.  Pairs 1-2 (A 1.5 of 2) and 3-4 (A 1.5): [0,0,0,2,0]. */
    ref_sprt_default(&sp);
    {
        const int p[5] = {0, 0, 0, 2, 0};
        double llr = ref_sprt_llr(&sp, p), hi = log(0.95 / 0.05);
        char want[256];
        assert_true(llr > 0 && llr < 0.1); /* two pairs decide nothing */
        snprintf(want, sizeof want,
                 "Elo difference: 88.7 +/- nan, LOS: 71.8 %%, DrawRatio: 25.0 %%\n"
                 "SPRT: llr %.3g (%.1f%%), lbound -2.94, ubound 2.94\n",
                 llr, 100 * llr / hi);
        buf = NULL;
        f = open_memstream(&buf, &len);
        ref_table_print_rating(&t, &sp, f);
        fclose(f);
        assert_string_equal(buf, want);
        free(buf);
    }
    ref_table_free(&t);
}

static void test_table_pairs(void **state)
{
    struct ref_table t;
    struct ref_record r;
    int p[5], w, l, d;
    /* pair 1: A wins both; pair 2: A wins one, draws one; pair 3: split;
     * game 7 alone (pair incomplete). */
    static const int g[][4] = {
        {1, 0, 1, 2}, {2, 1, 2, 1}, /* games 1 (A,B) and 2 (B,A) */
        {3, 0, 1, 2}, {4, 1, 1, 1}, {5, 0, 2, 1}, {6, 1, 2, 1},
        {7, 0, 1, 2}};
    (void)state;
    ref_table_init(&t);
    for (size_t i = 0; i < sizeof g / sizeof g[0]; i++) {
        if (g[i][1] == 0)
            make_rec(&r, g[i][0], "A", "B", g[i][2], g[i][3]);
        else
            make_rec(&r, g[i][0], "B", "A", g[i][2], g[i][3]);
        assert_int_equal(ref_table_add(&t, &r), 0);
        ref_record_free(&r);
    }
    make_rec(&r, 3, "A", "B", 1, 2);
    assert_int_equal(ref_table_add(&t, &r), -1); /* duplicate */
    ref_record_free(&r);
    ref_table_penta(&t, 0, 1, p);
    assert_int_equal(p[0], 0);
    assert_int_equal(p[1], 0);
    assert_int_equal(p[2], 1);
    assert_int_equal(p[3], 1);
    assert_int_equal(p[4], 1);
    ref_table_wld(&t, 0, 1, &w, &l, &d);
    assert_int_equal(w, 5);
    assert_int_equal(l, 1);
    assert_int_equal(d, 1);
    assert_int_equal(t.eng[0].games, 7);
    assert_int_equal(t.eng[1].wins, 1);
    {
        /* The printed table: the game is not shown as an engine name, no
         * forfeit columns without forfeits, and the finite lower Elo
         * bound is printed when the upper one is infinite. */
        char buf[4096];
        FILE *f = fmemopen(buf, sizeof buf, "w");
        ref_table_print(&t, NULL, f);
        fclose(f);
        assert_non_null(strstr(buf, "Results (game "));
        assert_non_null(strstr(buf, "No forfeits"));
        assert_null(strstr(buf, "crash stall"));
        assert_null(strstr(buf, "interval unbounded"));
        assert_non_null(strstr(buf, "Elo difference (games):  +225.7 [+11.1, +inf]"));
    }
    ref_table_free(&t);
}

/* Two deals of 4 seats, engines A B A B rotated: chips per seat given.
 * Deal 1: A's mean chips (10+30+20+40)/4 = 25... computed per deal over
 * A's seats; win = shared first place. */
static void test_table_nseat(void **state)
{
    struct ref_table t;
    struct ref_record r;
    char buf[4096];
    FILE *f;
    static const double chips[8][4] = {
        {10, 0, 30, 20}, {25, 5, 5, 5}, {0, 40, 0, 0}, {12, 12, 6, 0},
        {20, 20, 0, 0}, {8, 8, 8, 16}, {1, 2, 3, 4}, {9, 9, 9, 9}};
    (void)state;
    ref_table_init(&t);
    for (int g = 0; g < 8; g++) {
        ref_record_init(&r);
        r.game = g + 1;
        r.nseats = 4;
        strcpy(r.game_name, "battalion");
        for (int s = 0; s < 4; s++) {
            int e = ((s + g % 4) % 4) % 2; /* the schedule's seating */
            strcpy(r.seat_name[s], e ? "B" : "A");
            r.score[s] = chips[g][s];
            r.rank[s] = 1;
            for (int k = 0; k < 4; k++)
                if (chips[g][k] > chips[g][s])
                    r.rank[s]++;
        }
        r.has_scores = 1;
        strcpy(r.reason, "bankrupt");
        assert_int_equal(ref_table_add(&t, &r), 0);
    }
    assert_int_equal(ref_table_group(&t), 4);
    f = fmemopen(buf, sizeof buf, "w");
    ref_table_print(&t, NULL, f);
    fclose(f);
    /* A sits in seats 1,3 of games 1,3,5,7 and 2,4 of games 2,4,6,8.
     * Deal 1 chips of A: 10+30, 5+5, 0+0, 12+0 -> 62/8 = 7.75;
     * deal 2: 20+0, 8+16, 1+3, 9+9 -> 66/8 = 8.25. Mean 8.00.
     * Wins of A: deal 1: g1 seat3 (30) 1 of 2, g2 seat1? no: seats 2,4
     * (5, 5) lose to 25 -> 0, g3 0, g4 seats 2,4: 12 ties first -> 1 ->
     * 2/8 = 0.25; deal 2: g5 seat1 (20 shared first) 1, g6 seat4 (16) 1,
     * g7 seat? A in 1,3 -> 0, g8 all tie 9 -> 2 -> 4/8 = 0.5; mean 0.375. */
    assert_non_null(strstr(buf, "Results (game battalion): 8 games"));
    assert_non_null(strstr(buf, "8.00"));
    assert_non_null(strstr(buf, "0.375"));
    ref_table_free(&t);
}

static void test_schedule(void **state)
{
    struct ref_match m;
    int se[GAME_MAX_SEATS];
    (void)state;
    memset(&m, 0, sizeof m);
    m.nseats = 2;
    m.neng = 2;
    ref_schedule(&m, 1, se);
    assert_int_equal(se[0], 0);
    assert_int_equal(se[1], 1);
    ref_schedule(&m, 2, se);
    assert_int_equal(se[0], 1);
    assert_int_equal(se[1], 0);
    assert_int_equal(ref_group_of(&m, 1), 0);
    assert_int_equal(ref_group_of(&m, 2), 0);
    assert_int_equal(ref_group_of(&m, 3), 1);
    /* 4 seats from 2 engines: A B A B, then rotated */
    m.nseats = 4;
    ref_schedule(&m, 1, se);
    assert_int_equal(se[0], 0);
    assert_int_equal(se[1], 1);
    assert_int_equal(se[2], 0);
    assert_int_equal(se[3], 1);
    ref_schedule(&m, 2, se);
    assert_int_equal(se[0], 1);
    assert_int_equal(se[3], 0);
    /* 3 seats, 3 engines: each engine sits in every seat once per deal */
    m.nseats = 3;
    m.neng = 3;
    {
        int seen[3][3] = {{0}};
        for (int g = 1; g <= 3; g++) {
            ref_schedule(&m, g, se);
            for (int s = 0; s < 3; s++)
                seen[se[s]][s]++;
        }
        for (int e = 0; e < 3; e++)
            for (int s = 0; s < 3; s++)
                assert_int_equal(seen[e][s], 1);
    }
    assert_int_equal(ref_group_of(&m, 4), 1);
    /* shards split by group: pairs stay together */
    m.nseats = 2;
    m.neng = 2;
    m.shard_i = 2;
    m.shard_n = 3;
    assert_false(ref_in_shard(&m, 1));
    assert_true(ref_in_shard(&m, 3));
    assert_true(ref_in_shard(&m, 4));
    assert_false(ref_in_shard(&m, 5));
    assert_true(ref_in_shard(&m, 9));
    /* seeds: pure functions, below 2^53, distinct by seat and game */
    assert_true(ref_group_seed(7, 3) == ref_group_seed(7, 3));
    assert_true(ref_group_seed(7, 3) != ref_group_seed(7, 4));
    assert_true(ref_group_seed(7, 3) != ref_group_seed(8, 3));
    assert_true(ref_engine_seed(7, 1, 1) != ref_engine_seed(7, 1, 2));
    assert_true(ref_engine_seed(7, 1, 1) < (1ULL << 53));
}

/* Tournament schedules (referee/schedule.c): a pure function of the
 * settings and the game number. */
static void sched_match(struct ref_match *m, int nseats, int neng, int tour,
                        int rounds, int games, int noswap)
{
    memset(m, 0, sizeof *m);
    m->nseats = nseats;
    m->neng = neng;
    m->tournament = tour;
    m->rounds = rounds;
    m->noswap = noswap;
    m->encounter_games = games;
    m->games = (int)ref_sched_total(nseats, neng, tour, rounds, games);
}

static void test_tournament_schedule(void **state)
{
    struct ref_match m;
    int se[GAME_MAX_SEATS], a, b;
    (void)state;
    /* two engines, one round: today's match, game for game */
    for (int G = 7; G <= 8; G++) {
        sched_match(&m, 2, 2, REF_TOUR_ROUND_ROBIN, 1, G, 0);
        assert_int_equal(m.games, G);
        for (int g = 1; g <= G; g++) {
            ref_schedule(&m, g, se);
            assert_int_equal(se[0], (g - 1) % 2);
            assert_int_equal(se[1], 1 - (g - 1) % 2);
            assert_int_equal(ref_group_of(&m, g), (g - 1) / 2);
        }
    }
    /* pairings in order */
    assert_int_equal(ref_sched_pairings(REF_TOUR_ROUND_ROBIN, 4), 6);
    assert_int_equal(ref_sched_pairings(REF_TOUR_GAUNTLET, 4), 3);
    assert_int_equal(ref_sched_pairings(REF_TOUR_ROUND_ROBIN, 2), 1);
    {
        static const int rr[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
        for (int p = 0; p < 6; p++) {
            ref_sched_pairing(REF_TOUR_ROUND_ROBIN, 4, p, &a, &b);
            assert_int_equal(a, rr[p][0]);
            assert_int_equal(b, rr[p][1]);
        }
        for (int p = 0; p < 3; p++) {
            ref_sched_pairing(REF_TOUR_GAUNTLET, 4, p, &a, &b);
            assert_int_equal(a, 0);
            assert_int_equal(b, p + 1);
        }
    }
    /* totals: rounds x games x pairings; N seats: rounds x games */
    assert_int_equal(ref_sched_total(2, 3, REF_TOUR_ROUND_ROBIN, 2, 4), 24);
    assert_int_equal(ref_sched_total(2, 4, REF_TOUR_GAUNTLET, 3, 2), 18);
    assert_int_equal(ref_sched_total(3, 4, REF_TOUR_ROUND_ROBIN, 2, 12), 24);
    /* round-robin of 3, 4 games an encounter, 2 rounds: every pairing 8
     * games, 4 with each colour; the pairs share an opening, colours
     * swapped; no group is used twice by different pairings */
    sched_match(&m, 2, 3, REF_TOUR_ROUND_ROBIN, 2, 4, 0);
    {
        int first[3][3] = {{0}}, geng[64][2];
        for (int g = 1; g <= m.games; g++) {
            int grp = ref_group_of(&m, g);
            ref_schedule(&m, g, se);
            assert_true(se[0] != se[1]);
            first[se[0]][se[1]]++;
            assert_true(grp >= 0 && grp < 64);
            if (g % 2 == 0) {
                assert_int_equal(grp, ref_group_of(&m, g - 1));
                assert_int_equal(se[0], geng[grp][1]);
                assert_int_equal(se[1], geng[grp][0]);
            } else {
                for (int h = 1; h < g; h++)
                    assert_true(ref_group_of(&m, h) != grp);
                geng[grp][0] = se[0];
                geng[grp][1] = se[1];
            }
        }
        for (int x = 0; x < 3; x++)
            for (int y = 0; y < 3; y++)
                assert_int_equal(first[x][y], x == y ? 0 : 4);
    }
    /* gauntlet of 4: engine 0 in every game, against each other 2 x 2 */
    sched_match(&m, 2, 4, REF_TOUR_GAUNTLET, 1, 2, 0);
    assert_int_equal(m.games, 6);
    {
        int met[4] = {0};
        for (int g = 1; g <= m.games; g++) {
            ref_schedule(&m, g, se);
            assert_true(se[0] == 0 || se[1] == 0);
            met[se[0] + se[1]]++;
        }
        assert_int_equal(met[1], 2);
        assert_int_equal(met[2], 2);
        assert_int_equal(met[3], 2);
    }
    /* --noswap: the engine listed first always in seat 1 */
    sched_match(&m, 2, 3, REF_TOUR_ROUND_ROBIN, 2, 3, 1);
    for (int g = 1; g <= m.games; g++) {
        ref_schedule(&m, g, se);
        assert_true(se[0] < se[1]);
    }
    /* odd games per encounter over two rounds: colours balance, and the
     * lone last games (3 and 6) share an opening, colours swapped */
    sched_match(&m, 2, 2, REF_TOUR_ROUND_ROBIN, 2, 3, 0);
    {
        int white0 = 0, s3[2];
        for (int g = 1; g <= 6; g++) {
            ref_schedule(&m, g, se);
            white0 += se[0] == 0;
        }
        assert_int_equal(white0, 3);
        ref_schedule(&m, 3, s3);
        ref_schedule(&m, 6, se);
        assert_int_equal(s3[0], se[1]);
        assert_int_equal(ref_group_of(&m, 3), ref_group_of(&m, 6));
    }
    /* 4 engines over 3 seats: over 4 deals every engine plays every seat
     * exactly 3 times, and the engines of a game are distinct; a deal is
     * one group */
    sched_match(&m, 3, 4, REF_TOUR_ROUND_ROBIN, 1, 12, 0);
    {
        int seat[4][3] = {{0}};
        for (int g = 1; g <= 12; g++) {
            ref_schedule(&m, g, se);
            assert_int_equal(ref_group_of(&m, g), (g - 1) / 3);
            for (int s = 0; s < 3; s++) {
                seat[se[s]][s]++;
                for (int t = 0; t < s; t++)
                    assert_true(se[s] != se[t]);
            }
        }
        for (int e = 0; e < 4; e++)
            for (int s = 0; s < 3; s++)
                assert_int_equal(seat[e][s], 3);
    }
}

/* Rank ranges from overlapping intervals. */
static void test_rank_ranges(void **state)
{
    /* A clearly first; B and C overlap; D overlaps C only */
    double lo[4] = {200, 0, -50, -120}, hi[4] = {300, 100, 60, -40};
    int best[4], worst[4];
    (void)state;
    ref_rank_ranges(4, lo, hi, best, worst);
    assert_int_equal(best[0], 1);
    assert_int_equal(worst[0], 1);
    assert_int_equal(best[1], 2);
    assert_int_equal(worst[1], 3);
    assert_int_equal(best[2], 2);
    assert_int_equal(worst[2], 4);
    assert_int_equal(best[3], 3);
    assert_int_equal(worst[3], 4);
    /* unknown intervals: anything */
    lo[0] = hi[0] = NAN;
    ref_rank_ranges(4, lo, hi, best, worst);
    assert_int_equal(best[0], 1);
    assert_int_equal(worst[0], 4);
}

/* SipHash-2-4 against the reference vectors of the paper (key 00..0f,
 * message 00 01 .. of length n), and the keyed seeds of hidden games. */
static void test_keyed_seeds(void **state)
{
    uint8_t k[16], msg[16], k2[16];
    char hex[33];
    struct ref_match m;
    (void)state;
    for (int i = 0; i < 16; i++)
        k[i] = msg[i] = (uint8_t)i;
    assert_true(siphash24(k, msg, 0) == 0x726fdb47dd0e0e31ULL);
    assert_true(siphash24(k, msg, 1) == 0x74f839c593dc67fdULL);
    assert_true(siphash24(k, msg, 15) == 0xa129ca6149be45e5ULL);
    /* hex round trip, strict parsing */
    ref_key_hex(k, hex);
    assert_string_equal(hex, "000102030405060708090a0b0c0d0e0f");
    assert_int_equal(ref_key_parse(" 000102030405060708090A0B0C0D0E0F\n", k2), 0);
    assert_memory_equal(k, k2, 16);
    assert_int_equal(ref_key_parse("0001", k2), -1);
    assert_int_equal(ref_key_parse("000102030405060708090a0b0c0d0e0fff", k2), -1);
    assert_int_equal(ref_key_parse("zz0102030405060708090a0b0c0d0e0f", k2), -1);
    /* keyed: below 2^53, the key and the domain matter */
    memset(&m, 0, sizeof m);
    m.hidden = 1;
    m.seed = 7;
    memcpy(m.key, k, 16);
    assert_true(ref_match_deal_seed(&m, 0) < (1ULL << 53));
    assert_true(ref_match_deal_seed(&m, 0) == ref_keyed_seed(k, "deal", 7, 0, 0));
    assert_true(ref_match_deal_seed(&m, 0) != ref_group_seed(7, 0));
    assert_true(ref_match_engine_seed(&m, 1, 1) != ref_engine_seed(7, 1, 1));
    assert_true(ref_keyed_seed(k, "deal", 7, 1, 0) != ref_keyed_seed(k, "engine", 7, 1, 0));
    m.key[0] ^= 1;
    assert_true(ref_match_deal_seed(&m, 0) != ref_keyed_seed(k, "deal", 7, 0, 0));
    /* perfect information: unchanged, reproducible from the seed */
    m.hidden = 0;
    assert_true(ref_match_deal_seed(&m, 3) == ref_group_seed(7, 3));
    assert_true(ref_match_engine_seed(&m, 2, 1) == ref_engine_seed(7, 2, 1));
    /* --key-from-seed: a function of the seed */
    ref_key_from_seed(7, k);
    ref_key_from_seed(7, k2);
    assert_memory_equal(k, k2, 16);
    ref_key_from_seed(8, k2);
    assert_memory_not_equal(k, k2, 16);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keyed_seeds),
        cmocka_unit_test(test_elo_trinomial),
        cmocka_unit_test(test_los),
        cmocka_unit_test(test_elo_pentanomial),
        cmocka_unit_test(test_sprt),
        cmocka_unit_test(test_sprt_set),
        cmocka_unit_test(test_sprt_simulated),
        cmocka_unit_test(test_ratings),
        cmocka_unit_test(test_adjudication),
        cmocka_unit_test(test_mean_ci),
        cmocka_unit_test(test_tc_parse),
        cmocka_unit_test(test_clock),
        cmocka_unit_test(test_cutechess_line),
        cmocka_unit_test(test_record_pgn),
        cmocka_unit_test(test_record_roundtrip),
        cmocka_unit_test(test_record_ponderhit),
        cmocka_unit_test(test_cores_warning),
        cmocka_unit_test(test_record_cut_file),
        cmocka_unit_test(test_table_pairs),
        cmocka_unit_test(test_table_intervals),
        cmocka_unit_test(test_table_nseat),
        cmocka_unit_test(test_schedule),
        cmocka_unit_test(test_tournament_schedule),
        cmocka_unit_test(test_rank_ranges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
