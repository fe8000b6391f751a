/* test_web_wsproto.c - medan-web's reader of a client's WebSocket frames
 * (gui-adapters/web/wsproto.c): events and failure codes, the same whether
 * the bytes come whole or one at a time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "gui-adapters/web/wsproto.h"

/* A masked client frame into out: its length. */
static size_t frame(unsigned char *out, int b0, const void *payload, size_t n)
{
    static const unsigned char key[4] = {0x12, 0x34, 0x56, 0x78};
    size_t h = 0;
    out[h++] = (unsigned char)b0;
    if (n < 126)
        out[h++] = (unsigned char)(0x80 | n);
    else {
        out[h++] = 0x80 | 126;
        out[h++] = (unsigned char)(n >> 8);
        out[h++] = (unsigned char)n;
    }
    memcpy(out + h, key, 4);
    h += 4;
    for (size_t i = 0; i < n; i++)
        out[h + i] = ((const unsigned char *)payload)[i] ^ key[i & 3];
    return h + n;
}

/* Feed buf whole (step 0) or `step` bytes at a time: the events seen, as a
 * string of letters (p ping, o pong, d data, c close, f fail), and the last
 * close or fail code. */
static void run(const unsigned char *buf, size_t n, size_t step, char *evs, unsigned *code)
{
    struct wsp p;
    size_t off = 0, k = 0;
    wsp_init(&p);
    *code = 0;
    while (off < n) {
        size_t end = step ? (off + step < n ? off + step : n) : n;
        while (off < end) {
            struct wsp_ev ev;
            off += wsp_feed(&p, buf + off, end - off, &ev);
            if (ev.ev == WSP_NONE)
                continue;
            evs[k++] = "-podcf"[ev.ev];
            if (ev.ev == WSP_CLOSE || ev.ev == WSP_FAIL) {
                *code = ev.code;
                evs[k] = '\0';
                return;
            }
        }
    }
    evs[k] = '\0';
}

static void expect(const unsigned char *buf, size_t n, const char *evs, unsigned code)
{
    for (size_t step = 0; step <= 3; step++) {
        char got[64];
        unsigned c;
        run(buf, n, step, got, &c);
        assert_string_equal(got, evs);
        assert_int_equal(c, code);
    }
}

static void good(void **state)
{
    unsigned char b[512];
    size_t n = 0;
    (void)state;
    n += frame(b + n, 0x81, "hello", 5);                 /* text */
    n += frame(b + n, 0x01, "\xce", 1);                  /* fragment: half a character */
    n += frame(b + n, 0x89, "ping", 4);                  /* a ping between fragments */
    n += frame(b + n, 0x80, "\xba", 1);                  /* ... the rest of it */
    n += frame(b + n, 0x82, "\xff\xfe", 2);              /* binary: no UTF-8 check */
    n += frame(b + n, 0x8a, "", 0);                      /* unsolicited pong */
    n += frame(b + n, 0x88, "\x03\xe8" "bye", 5);        /* close 1000 */
    expect(b, n, "dpddoc", 1000);
}

static void failures(void **state)
{
    static const struct {
        int b0;
        const char *pl;
        size_t n;
        unsigned code;
    } one[] = {
        {0xc1, "x", 1, 1002},            /* RSV1 */
        {0x83, "", 0, 1002},             /* reserved data opcode */
        {0x8b, "", 0, 1002},             /* reserved control opcode */
        {0x09, "", 0, 1002},             /* fragmented ping */
        {0x80, "x", 1, 1002},            /* continuation of nothing */
        {0x81, "\xed\xa0\x80", 3, 1007}, /* a surrogate */
        {0x81, "\xc0\xaf", 2, 1007},     /* overlong */
        {0x81, "\xce", 1, 1007},         /* text ends inside a character */
        {0x88, "\x03", 1, 1002},         /* close of one byte */
        {0x88, "\x00\x00", 2, 1002},     /* close code 0 */
        {0x88, "\x03\xed", 2, 1002},     /* 1005 */
        {0x88, "\x03\xe8\xff", 3, 1007}, /* a reason not UTF-8 */
    };
    unsigned char b[300];
    char pl[130];
    (void)state;
    for (size_t i = 0; i < sizeof one / sizeof one[0]; i++) {
        size_t n = frame(b, one[i].b0, one[i].pl, one[i].n);
        expect(b, n, "f", one[i].code);
    }
    memset(pl, 'x', sizeof pl);
    expect(b, frame(b, 0x89, pl, 126), "f", 1002);        /* a long control frame */
    {
        size_t n = frame(b, 0x01, "a", 1);
        n += frame(b + n, 0x81, "b", 1);                   /* a message inside one */
        expect(b, n, "f", 1002);
    }
    b[0] = 0x81;                                           /* unmasked */
    b[1] = 1;
    b[2] = 'x';
    expect(b, 3, "f", 1002);
    b[0] = 0x82;                                           /* over WSP_MSG_MAX */
    b[1] = 0x80 | 127;
    memset(b + 2, 0, 8);
    b[7] = 0x20;                                           /* 2^24 */
    memset(b + 10, 0, 4);
    expect(b, 14, "f", 1009);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(good),
        cmocka_unit_test(failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
