/* ws.c - medan-web's live updates over WebSocket (RFC 6455).
 *
 * A page opens one WebSocket per game (GET /api/session/ID/ws, the game's
 * secret offered as the subprotocol "secret.HEX" beside "medan"); the
 * browser's limit of 6 HTTP/1.1 connections per host does not count
 * WebSockets, so any number of tabs get their updates.  libmicrohttpd does
 * the HTTP part and hands over the socket (MHD_create_response_for_upgrade);
 * this file does the handshake's accept key (SHA-1 and base64, written
 * here), the server's framing, and one small thread per socket that sends
 * the state at every change and answers the client's ping and close (the
 * client's frames read by wsproto.c, failures closed with RFC 6455's
 * codes).  Sockets are admitted as connections by conn.c (an idle one may
 * be evicted: its thread sees the end); WEB_WS_MAX is a backstop.  A client
 * that stops reading is dropped after a send timeout.
 */
#include <errno.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"
#include "web.h"
#include "conn.h"
#include "wsproto.h"

/* ---- SHA-1 (FIPS 180-4), for the accept key only ------------------------ */

static uint32_t rol(uint32_t x, int k)
{
    return (x << k) | (x >> (32 - k));
}

static void sha1_block(uint32_t h[5], const unsigned char *p)
{
    uint32_t w[80], a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 80; i++)
        w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    for (int i = 0; i < 80; i++) {
        uint32_t f, k, t;
        if (i < 20) {
            f = (b & c) | (~b & d);
            k = 0x5a827999;
        } else if (i < 40) {
            f = b ^ c ^ d;
            k = 0x6ed9eba1;
        } else if (i < 60) {
            f = (b & c) | (b & d) | (c & d);
            k = 0x8f1bbcdc;
        } else {
            f = b ^ c ^ d;
            k = 0xca62c1d6;
        }
        t = rol(a, 5) + f + e + k + w[i];
        e = d;
        d = c;
        c = rol(b, 30);
        b = a;
        a = t;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
}

void web_sha1(const void *data, size_t n, unsigned char out[20])
{
    uint32_t h[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
    const unsigned char *p = data;
    unsigned char tail[128];
    size_t full = n / 64 * 64, rest = n - full, tn;
    uint64_t bits = (uint64_t)n * 8;
    for (size_t i = 0; i < full; i += 64)
        sha1_block(h, p + i);
    memset(tail, 0, sizeof tail);
    memcpy(tail, p + full, rest);
    tail[rest] = 0x80;
    tn = rest + 1 + 8 <= 64 ? 64 : 128;
    for (int i = 0; i < 8; i++)
        tail[tn - 1 - i] = (unsigned char)(bits >> (8 * i));
    sha1_block(h, tail);
    if (tn == 128)
        sha1_block(h, tail + 64);
    for (int i = 0; i < 5; i++) {
        out[4 * i] = (unsigned char)(h[i] >> 24);
        out[4 * i + 1] = (unsigned char)(h[i] >> 16);
        out[4 * i + 2] = (unsigned char)(h[i] >> 8);
        out[4 * i + 3] = (unsigned char)h[i];
    }
}

/* Base64 of n bytes into out (4 * ceil(n / 3) + 1 bytes). */
void web_base64(const unsigned char *p, size_t n, char *out)
{
    static const char al[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
                     (i + 2 < n ? p[i + 2] : 0);
        out[o++] = al[v >> 18 & 63];
        out[o++] = al[v >> 12 & 63];
        out[o++] = i + 1 < n ? al[v >> 6 & 63] : '=';
        out[o++] = i + 2 < n ? al[v & 63] : '=';
    }
    out[o] = '\0';
}

/* ---- the sockets ------------------------------------------------------------ */

static pthread_mutex_t ws_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ws_gone = PTHREAD_COND_INITIALIZER;
static int ws_n;                 /* sockets open (threads running) */

struct ws {
    int refs;                    /* the upgrade side's and the request's (ws_mu) */
    int state;                   /* 0 waiting for the upgrade, 1 upgraded, 2 given up */
    struct sess *s;
    struct MHD_Connection *c;    /* its connection (conn.c: idle or not) */
    MHD_socket fd;
    struct MHD_UpgradeResponseHandle *urh;
    struct wsp p;                /* the client's frames as they come (wsproto.c) */
    unsigned char *extra;        /* what came behind the handshake, read first */
    size_t nextra, extra_off;
};

/* The most read from a client in one turn of its thread (a turn waits for
 * a change of the game or 250 ms): a client that floods pings or data
 * costs little, and its pings get one pong a turn (for the last one, as
 * RFC 6455 5.5.3 allows). */
#define WS_READ_MAX 16384

/* The hold on the session and the count, given back once. */
static void release(struct ws *w)
{
    sess_listen(w->s, -1);
    sess_put(w->s);
    pthread_mutex_lock(&ws_mu);
    ws_n--;
    pthread_cond_broadcast(&ws_gone);
    pthread_mutex_unlock(&ws_mu);
}

static void drop(struct ws *w)
{
    int last;
    pthread_mutex_lock(&ws_mu);
    last = --w->refs == 0;
    pthread_mutex_unlock(&ws_mu);
    if (last) {
        free(w->extra);
        free(w);
    }
}

static int send_all(int fd, const void *p, size_t n)
{
    const char *q = p;
    while (n) {
        ssize_t k = send(fd, q, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        q += k;
        n -= (size_t)k;
    }
    return 0;
}

/* One unmasked frame (the server's are never masked). */
static int send_frame(int fd, int opcode, const void *p, size_t n)
{
    unsigned char h[10];
    size_t hn;
    h[0] = (unsigned char)(0x80 | opcode);
    if (n < 126) {
        h[1] = (unsigned char)n;
        hn = 2;
    } else if (n < 65536) {
        h[1] = 126;
        h[2] = (unsigned char)(n >> 8);
        h[3] = (unsigned char)n;
        hn = 4;
    } else {
        h[1] = 127;
        for (int i = 0; i < 8; i++)
            h[2 + i] = (unsigned char)((uint64_t)n >> (8 * (7 - i)));
        hn = 10;
    }
    if (send_all(fd, h, hn) < 0)
        return -1;
    return n ? send_all(fd, p, n) : 0;
}

static void send_close(int fd, unsigned code)
{
    unsigned char b[2] = {(unsigned char)(code >> 8), (unsigned char)code};
    send_frame(fd, 8, b, 2);
}

/* Read what the client sent (without waiting): 0 to go on, -1 when the
 * socket is closed, the client said close (answered), or it broke the
 * protocol (closed with the code RFC 6455 gives: wsproto.c). */
static int read_client(struct ws *w)
{
    unsigned char buf[WS_READ_MAX], pong[125];
    size_t n, off = 0, npong = 0;
    int want_pong = 0;

    if (w->extra_off < w->nextra) {
        n = w->nextra - w->extra_off < sizeof buf ? w->nextra - w->extra_off : sizeof buf;
        memcpy(buf, w->extra + w->extra_off, n);
        w->extra_off += n;
    } else {
        struct pollfd pfd = {.fd = w->fd, .events = POLLIN};
        ssize_t k;
        if (poll(&pfd, 1, 0) <= 0)
            return 0;
        if (pfd.revents & (POLLERR | POLLNVAL))
            return -1;
        do
            k = recv(w->fd, buf, sizeof buf, 0);
        while (k < 0 && errno == EINTR);
        if (k <= 0)
            return -1;
        n = (size_t)k;
    }
    while (off < n) {
        struct wsp_ev ev;
        off += wsp_feed(&w->p, buf + off, n - off, &ev);
        if (ev.ev != WSP_NONE)
            web_conn_touch(w->c);              /* a whole frame: the client is there */
        if (ev.ev == WSP_PING) {
            want_pong = 1;
            npong = ev.len;
            memcpy(pong, ev.data, ev.len);
        } else if (ev.ev == WSP_CLOSE || ev.ev == WSP_FAIL) {
            if (want_pong)
                send_frame(w->fd, 10, pong, npong);
            if (ev.ev == WSP_CLOSE && ev.code == 0)
                send_frame(w->fd, 8, NULL, 0);  /* no code given: none echoed */
            else
                send_close(w->fd, ev.code);      /* the client's code, or the failure's */
            return -1;
        }
    }
    if (want_pong && send_frame(w->fd, 10, pong, npong) < 0)
        return -1;
    return 0;
}

/* After our close frame: end our side and read what the client still
 * sends, for at most 2 s and 256 KiB, before the socket closes; closed with
 * unread input, the kernel would send a reset that can destroy the close
 * frame before the client reads it. */
static void linger(int fd)
{
    unsigned char buf[4096];
    size_t total = 0;
    int64_t end = now_us() + 2000000;
    shutdown(fd, SHUT_WR);
    while (total < 256 * 1024 && now_us() < end) {
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        ssize_t k;
        if (poll(&pfd, 1, 100) <= 0)
            continue;
        k = recv(fd, buf, sizeof buf, 0);
        if (k <= 0)
            break;
        total += (size_t)k;
    }
}

static void *ws_thread(void *arg)
{
    struct ws *w = arg;
    uint64_t version = 0;
    int first = 1;
    int64_t last_sent = now_us();
    int fl = fcntl(w->fd, F_GETFL);
    struct timeval tv = {.tv_sec = 10};

    /* Blocking sends, but a page that stops reading is dropped after 10 s. */
    if (fl >= 0)
        fcntl(w->fd, F_SETFL, fl & ~O_NONBLOCK);
    setsockopt(w->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    for (;;) {
        int r = first ? 1 : sess_wait(w->s, version, 250);
        first = 0;
        if (r < 0 || web_quitting()) {
            send_close(w->fd, 1001);           /* going away */
            break;
        }
        if (r > 0) {
            json_t *o = sess_state(w->s, &version);
            char *js = json_dumps(o, JSON_COMPACT);
            int bad;
            json_decref(o);
            bad = !js || send_frame(w->fd, 1, js, strlen(js)) < 0;
            free(js);
            if (bad)
                break;
            last_sent = now_us();
        } else if (now_us() - last_sent > 20 * 1000000LL) {
            /* a ping now and then finds a page that is gone for good */
            if (send_frame(w->fd, 9, NULL, 0) < 0)
                break;
            last_sent = now_us();
        }
        if (read_client(w) < 0) {
            linger(w->fd);
            break;
        }
    }
    MHD_upgrade_action(w->urh, MHD_UPGRADE_ACTION_CLOSE);
    release(w);
    drop(w);
    return NULL;
}

/* libmicrohttpd hands over the socket once the 101 answer is sent. */
static void upgraded(void *cls, struct MHD_Connection *c, void *con_cls,
                     const char *extra, size_t extra_n, MHD_socket fd,
                     struct MHD_UpgradeResponseHandle *urh)
{
    struct ws *w = cls;
    pthread_t t;
    pthread_attr_t at;
    int err;
    int given_up;
    (void)con_cls;
    pthread_mutex_lock(&ws_mu);
    given_up = w->state == 2;
    if (!given_up)
        w->state = 1;
    pthread_mutex_unlock(&ws_mu);
    if (given_up) {
        MHD_upgrade_action(urh, MHD_UPGRADE_ACTION_CLOSE);
        drop(w);
        return;
    }
    w->fd = fd;
    w->urh = urh;
    w->c = c;
    web_conn_ws(c);                  /* idle until the client speaks */
    wsp_init(&w->p);
    if (extra_n) {                   /* frames sent behind the handshake: read first */
        w->extra = xmalloc(extra_n);
        memcpy(w->extra, extra, extra_n);
        w->nextra = extra_n;
    }
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    /* A small stack (one per held stream): the C library takes the program's
     * thread-local storage out of it too, so that must stay small (the cli
     * stage checks every program's is under 16 KB). */
    pthread_attr_setstacksize(&at, 256 * 1024);
    if ((err = pthread_create(&t, &at, ws_thread, w)) != 0) {
        fprintf(stderr, "medan-web: a live stream refused: no thread (%s)\n", strerror(err));
        MHD_upgrade_action(urh, MHD_UPGRADE_ACTION_CLOSE);
        release(w);
        drop(w);
    }
    pthread_attr_destroy(&at);
}

void web_ws_request_done(void *hold)
{
    struct ws *w = hold;
    int never;
    if (!w)
        return;
    pthread_mutex_lock(&ws_mu);
    never = w->state == 0;
    if (never)
        w->state = 2;
    pthread_mutex_unlock(&ws_mu);
    if (never)                 /* the connection went before the upgrade */
        release(w);
    drop(w);
}

/* Does the comma-separated header value hold `word` (any case)? */
static int has_word(const char *v, const char *word)
{
    size_t k = strlen(word);
    while (v && *v) {
        v += strspn(v, " \t,");
        if (strncasecmp(v, word, k) == 0 && (v[k] == '\0' || v[k] == ',' ||
                                             v[k] == ' ' || v[k] == '\t'))
            return 1;
        v += strcspn(v, ",");
    }
    return 0;
}

int web_ws_is_upgrade(struct MHD_Connection *c)
{
    return has_word(MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Upgrade"), "websocket");
}

int web_ws_accept(struct MHD_Connection *c, struct sess *s, void **hold,
                  char *err, size_t n, unsigned *code)
{
    static const char guid[] = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    const char *key = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Sec-WebSocket-Key");
    const char *ver = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Sec-WebSocket-Version");
    const char *proto = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Sec-WebSocket-Protocol");
    const char *conn = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Connection");
    char buf[128], accept[32];
    unsigned char dig[20];
    struct MHD_Response *r;
    struct ws *w;
    enum MHD_Result ret = MHD_NO;

    *code = 400;
    if (!has_word(conn, "upgrade") || !ver || strcmp(ver, "13") != 0 || !key ||
        strlen(key) != 24) {
        snprintf(err, n, "a WebSocket handshake needs Connection: Upgrade, "
                         "Sec-WebSocket-Version: 13 and a Sec-WebSocket-Key");
        return 0;
    }
    if (!has_word(proto, "medan")) {
        snprintf(err, n, "a WebSocket here speaks the subprotocol 'medan'");
        return 0;
    }
    pthread_mutex_lock(&ws_mu);
    if (ws_n >= WEB_WS_MAX) {
        pthread_mutex_unlock(&ws_mu);
        *code = 503;
        snprintf(err, n, "too many live connections (%d): close a tab", WEB_WS_MAX);
        return 0;
    }
    ws_n++;
    pthread_mutex_unlock(&ws_mu);
    snprintf(buf, sizeof buf, "%s%s", key, guid);
    web_sha1(buf, strlen(buf), dig);
    web_base64(dig, sizeof dig, accept);
    w = xcalloc(1, sizeof *w);
    w->refs = 2;
    w->s = s;
    w->fd = -1;
    sess_listen(s, +1);
    r = MHD_create_response_for_upgrade(upgraded, w);
    if (r) {
        MHD_add_response_header(r, "Upgrade", "websocket");
        MHD_add_response_header(r, "Sec-WebSocket-Accept", accept);
        MHD_add_response_header(r, "Sec-WebSocket-Protocol", "medan");
        ret = MHD_queue_response(c, MHD_HTTP_SWITCHING_PROTOCOLS, r);
        MHD_destroy_response(r);
    }
    if (!r || ret != MHD_YES) {
        /* never upgraded: the count and the listener go back; the caller
         * still holds its reference to the session */
        sess_listen(s, -1);
        pthread_mutex_lock(&ws_mu);
        ws_n--;
        pthread_mutex_unlock(&ws_mu);
        free(w);
        *code = 500;
        snprintf(err, n, "cannot upgrade the connection");
        return 0;
    }
    *hold = w;          /* the session's reference now belongs to the socket */
    *code = 101;
    return 1;
}

int web_ws_count(void)
{
    int k;
    pthread_mutex_lock(&ws_mu);
    k = ws_n;
    pthread_mutex_unlock(&ws_mu);
    return k;
}

void web_ws_wait_all(int timeout_ms)
{
    struct timespec ts = web_deadline_in(timeout_ms);
    pthread_mutex_lock(&ws_mu);
    while (ws_n > 0)
        if (pthread_cond_timedwait(&ws_gone, &ws_mu, &ts) != 0)
            break;
    pthread_mutex_unlock(&ws_mu);
}
