/* test_referee_tune.c - unit tests of `medan-referee tune`'s pieces: the
 * parameter spelling and its refusals, the SPSA gain sequences against
 * hand-computed values (docs/referee.md, "Tuning with SPSA"). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "referee/tune.h"

#define NEAR(a, b, eps) assert_true(fabs((a) - (b)) < (eps))

static void test_param_parse(void **state)
{
    struct ref_tune_param p;
    char err[256];
    (void)state;
    assert_int_equal(ref_tune_param_parse("Skill,100,0,1000,100,0.06", &p, err, sizeof err), 0);
    assert_string_equal(p.name, "Skill");
    assert_string_equal(p.option, "Skill");
    assert_string_equal(p.entry, "");
    assert_true(p.integer);
    NEAR(p.start, 100, 1e-12);
    NEAR(p.r_end, 0.06, 1e-12);
    assert_int_equal(ref_tune_param_parse(" Weights.euler , 8, 0 ,40,2,0.002 ", &p, err,
                                          sizeof err), 0);
    assert_string_equal(p.option, "Weights");
    assert_string_equal(p.entry, "euler");
    assert_true(p.integer);
    /* a point (or exponent) in start, min or max makes a real */
    assert_int_equal(ref_tune_param_parse("Temper,0.9,0,1,0.1,0.06", &p, err, sizeof err), 0);
    assert_false(p.integer);
    assert_int_equal(ref_tune_param_parse("X,1,0,1e1,1,0.1", &p, err, sizeof err), 0);
    assert_false(p.integer);
    /* an entry may be a real (Palagan's SearchParams.uct_c) */
    assert_int_equal(ref_tune_param_parse("SearchParams.uct_c,0.2,0.05,1,0.03,0.002", &p, err,
                                          sizeof err), 0);
    assert_string_equal(p.option, "SearchParams");
    assert_string_equal(p.entry, "uct_c");
    assert_false(p.integer);
    NEAR(p.start, 0.2, 1e-12);
    NEAR(p.min, 0.05, 1e-12);
    /* c_end and r_end may be reals in an integer parameter */
    assert_int_equal(ref_tune_param_parse("X,1,0,10,0.5,0.1", &p, err, sizeof err), 0);
    assert_true(p.integer);
    /* refusals */
    const char *badv[] = {"", "X", "X,1,0,10,1", "X,1,0,10,1,0.1,7", "X,5,10,0,1,0.1",
                          "X,11,0,10,1,0.1", "X,1,0,10,0,0.1", "X,1,0,10,1,-1",
                          "X,a,0,10,1,0.1", "X,nan,0,10,1,0.1", "X,1,0,inf,1,0.1",
                          "W.e,11.5,0,10,1,0.1", ".e,1,0,10,1,0.1", "W.,1,0,10,1,0.1",
                          "a b,1,0,10,1,0.1", "a=b,1,0,10,1,0.1", "W.e.f,1,0,10,1,0.1",
                          NULL};
    for (int i = 0; badv[i]; i++) {
        err[0] = '\0';
        assert_int_equal(ref_tune_param_parse(badv[i], &p, err, sizeof err), -1);
        assert_true(err[0] != '\0');
    }
}

/* N = 1000, A = 100, alpha 0.602, gamma 0.101, c_end 4, r_end 0.002:
 * c = 4 * 1000^0.101 = 8.03637, c_10 = c / 10^0.101 = 6.36883;
 * a = 0.002 * 16 * 1100^0.602, a_1 = a / 101^0.602 = 0.134731,
 * a_10 = a / 110^0.602 = 0.127982 (by hand, python3). */
static void test_gains(void **state)
{
    struct ref_tune_param p;
    char err[64];
    (void)state;
    assert_int_equal(ref_tune_param_parse("X,10,0,100,4,0.002", &p, err, sizeof err), 0);
    NEAR(ref_tune_ck(&p, 1000, 0.101, 1), 8.036371250, 1e-6);
    NEAR(ref_tune_ck(&p, 1000, 0.101, 10), 6.368834908, 1e-6);
    NEAR(ref_tune_ak(&p, 1000, 100, 0.602, 1), 0.134730806, 1e-6);
    NEAR(ref_tune_ak(&p, 1000, 100, 0.602, 10), 0.127982320, 1e-6);
    /* at the last iteration: c_end, and a / c^2 = r_end */
    NEAR(ref_tune_ck(&p, 1000, 0.101, 1000), 4, 1e-9);
    NEAR(ref_tune_ak(&p, 1000, 100, 0.602, 1000) / pow(ref_tune_ck(&p, 1000, 0.101, 1000), 2),
         0.002, 1e-12);
    /* both shrink */
    for (int k = 1; k < 1000; k++) {
        assert_true(ref_tune_ck(&p, 1000, 0.101, k + 1) < ref_tune_ck(&p, 1000, 0.101, k));
        assert_true(ref_tune_ak(&p, 1000, 100, 0.602, k + 1) <
                    ref_tune_ak(&p, 1000, 100, 0.602, k));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_param_parse),
        cmocka_unit_test(test_gains),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
