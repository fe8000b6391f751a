/* test_web_host.c - medan-web's strict Host check (gui-adapters/web/host.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gui-adapters/web/host.h"

static void accepted(void **state)
{
    static const struct { const char *h; size_t k; } ok[] = {
        {"localhost", 9}, {"localhost:8080", 9}, {"127.0.0.1:1", 9},
        {"[::1]", 5}, {"[::1]:65535", 5}, {"EXAMPLE.org", 11},
        {"[::ffff:127.0.0.1]:80", 18}, {"a-b.c", 5},
    };
    (void)state;
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        size_t k = 0;
        assert_int_equal(web_host_valid(ok[i].h, &k), 1);
        assert_int_equal(k, ok[i].k);
    }
}

static void refused(void **state)
{
    static const char *const bad[] = {
        "[::1]evil", "localhost:abc", "localhost:", "localhost:0", "localhost:65536",
        "localhost:123456", "localhost:80x", "", "a b", "[::1", "[]", "[::1]:",
        "[::1]:8080x", "[evil]", "local/host", "localhost\r\n", ".", "-x", ":80",
        "localhost:+80", "localhost:-1", "a@b", "[::1]]", "x:80:80",
    };
    (void)state;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t k = 99;
        assert_int_equal(web_host_valid(bad[i], &k), 0);
        assert_int_equal(k, 99);            /* nothing written */
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(accepted),
        cmocka_unit_test(refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
