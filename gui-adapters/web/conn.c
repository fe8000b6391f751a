/* conn.c - medan-web's connections: admission, fair shares, eviction of
 * idle ones, deadlines for slow requests (conn.h). */
#include "conn.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "core/util.h"

enum { C_FREE = 0, C_WAIT, C_BUSY, C_WS };

struct conn {
    struct MHD_Connection *c;
    int fd;
    int state;
    int shut;               /* shut by us: going, not counted */
    int answered;           /* it has answered a request (keep-alive) */
    int64_t since;          /* C_WAIT: since its last answer; C_WS: last client frame */
    char addr[INET6_ADDRSTRLEN];
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t stop_cv = PTHREAD_COND_INITIALIZER;
static struct conn tab[WEB_CONN_HARD + 8];
static long n_evicted, n_expired;
static int stopping;
static pthread_t sweeper;
static int has_sweeper;

static void addr_text(const struct sockaddr *sa, char *out, size_t n)
{
    snprintf(out, n, "?");
    if (!sa)
        return;
    if (sa->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, out, (socklen_t)n);
    else if (sa->sa_family == AF_INET6) {
        const struct in6_addr *a = &((const struct sockaddr_in6 *)sa)->sin6_addr;
        if (IN6_IS_ADDR_V4MAPPED(a))        /* ::ffff:127.0.0.2 is 127.0.0.2 */
            inet_ntop(AF_INET, &a->s6_addr[12], out, (socklen_t)n);
        else
            inet_ntop(AF_INET6, a, out, (socklen_t)n);
    }
}

/* Under mu: live connections of addr (all when addr is NULL). */
static int count(const char *addr)
{
    int k = 0;
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (tab[i].state != C_FREE && !tab[i].shut &&
            (!addr || strcmp(tab[i].addr, addr) == 0))
            k++;
    return k;
}

/* Under mu: the addresses present, `extra` counted if it has none. */
static int addresses(const char *extra)
{
    int k = 0, seen_extra = 0;
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
        int first = 1;
        if (tab[i].state == C_FREE || tab[i].shut)
            continue;
        for (size_t j = 0; j < i && first; j++)
            if (tab[j].state != C_FREE && !tab[j].shut &&
                strcmp(tab[j].addr, tab[i].addr) == 0)
                first = 0;
        k += first;
        seen_extra |= strcmp(tab[i].addr, extra) == 0;
    }
    return k + !seen_extra;
}

static int is_idle(const struct conn *x)
{
    return !x->shut && (x->state == C_WAIT || x->state == C_WS);
}

/* Under mu: the idle connection of addr (NULL: of the address with the
 * most live connections) that has been idle longest, or NULL. */
static struct conn *victim(const char *addr)
{
    struct conn *best = NULL;
    char most[INET6_ADDRSTRLEN];
    if (!addr) {
        int top = 0;
        most[0] = '\0';
        for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
            if (is_idle(&tab[i])) {
                int k = count(tab[i].addr);
                if (k > top) {
                    top = k;
                    snprintf(most, sizeof most, "%s", tab[i].addr);
                }
            }
        if (!top)
            return NULL;
        addr = most;
    }
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (is_idle(&tab[i]) && strcmp(tab[i].addr, addr) == 0 &&
            (!best || tab[i].since < best->since))
            best = &tab[i];
    return best;
}

/* Under mu: shut a connection (libmicrohttpd or its WebSocket thread sees
 * the end and closes it; the fd stays open until the CLOSED notice, which
 * takes the lock). */
static void shut(struct conn *x)
{
    x->shut = 1;
    shutdown(x->fd, SHUT_RDWR);
}

static void refuse(int fd)
{
    static const char msg[] = "HTTP/1.1 503 Service Unavailable\r\n"
                              "Content-Type: text/plain\r\nContent-Length: 38\r\n"
                              "Connection: close\r\n\r\n"
                              "too many connections from your address";
    ssize_t k = send(fd, msg, sizeof msg - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
    (void)k;
    shutdown(fd, SHUT_RDWR);
}

static void admit(struct MHD_Connection *c, void **ctx)
{
    const union MHD_ConnectionInfo *fi = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    const union MHD_ConnectionInfo *ai = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    char addr[INET6_ADDRSTRLEN];
    struct conn *slot = NULL, *out = NULL;
    int fd, n, na, share, ok;

    *ctx = NULL;
    if (!fi)
        return;
    fd = fi->connect_fd;
    addr_text(ai ? ai->client_addr : NULL, addr, sizeof addr);
    pthread_mutex_lock(&mu);
    for (size_t i = 0; i < sizeof tab / sizeof tab[0] && !slot; i++)
        if (tab[i].state == C_FREE)
            slot = &tab[i];
    n = count(NULL);
    na = count(addr);
    share = WEB_CONN_MAX / addresses(addr);
    if (share < WEB_CONN_SHARE_MIN)
        share = WEB_CONN_SHARE_MIN;
    if (share > WEB_CONN_PER_ADDR)
        share = WEB_CONN_PER_ADDR;
    ok = slot != NULL;
    if (ok && na >= share)
        ok = (out = victim(addr)) != NULL;        /* its own oldest idle one goes */
    else if (ok && n >= WEB_CONN_MAX - (na ? WEB_CONN_RESERVE : 0))
        ok = (out = victim(NULL)) != NULL;        /* the biggest address's goes */
    if (out) {
        shut(out);
        n_evicted++;
    }
    if (ok) {
        memset(slot, 0, sizeof *slot);
        slot->c = c;
        slot->fd = fd;
        slot->state = C_WAIT;
        slot->since = now_us();
        snprintf(slot->addr, sizeof slot->addr, "%s", addr);
        *ctx = slot;
    }
    pthread_mutex_unlock(&mu);
    if (!ok)
        refuse(fd);
}

void web_conn_notify(void *cls, struct MHD_Connection *c, void **socket_context,
                     enum MHD_ConnectionNotificationCode code)
{
    struct conn *x = *socket_context;
    (void)cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        admit(c, socket_context);
        return;
    }
    if (!x)
        return;
    pthread_mutex_lock(&mu);
    if (x->c == c)
        memset(x, 0, sizeof *x);
    pthread_mutex_unlock(&mu);
    *socket_context = NULL;
}

/* Under mu: c's entry, or NULL. */
static struct conn *find(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *i = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    struct conn *x = i ? i->socket_context : NULL;
    return x && x->c == c && x->state != C_FREE ? x : NULL;
}

static void set_state(struct MHD_Connection *c, int state)
{
    struct conn *x;
    pthread_mutex_lock(&mu);
    x = find(c);
    if (x && x->state != C_WS) {     /* a WebSocket stays one */
        x->state = state;
        x->since = now_us();
        if (state == C_WAIT)
            x->answered = 1;
    }
    pthread_mutex_unlock(&mu);
}

void web_conn_busy(struct MHD_Connection *c)
{
    set_state(c, C_BUSY);
}

void web_conn_answered(struct MHD_Connection *c)
{
    set_state(c, C_WAIT);
}

void web_conn_ws(struct MHD_Connection *c)
{
    struct conn *x;
    pthread_mutex_lock(&mu);
    x = find(c);
    if (x) {
        x->state = C_WS;
        x->since = now_us();
    }
    pthread_mutex_unlock(&mu);
}

void web_conn_touch(struct MHD_Connection *c)
{
    struct conn *x;
    pthread_mutex_lock(&mu);
    x = find(c);
    if (x && x->state == C_WS)
        x->since = now_us();
    pthread_mutex_unlock(&mu);
}

void web_conn_addr(struct MHD_Connection *c, char *out, size_t n)
{
    const union MHD_ConnectionInfo *ai = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    addr_text(ai ? ai->client_addr : NULL, out, n);
}

void web_conn_counts(int *live, long *evicted, long *expired)
{
    pthread_mutex_lock(&mu);
    *live = count(NULL);
    *evicted = n_evicted;
    *expired = n_expired;
    pthread_mutex_unlock(&mu);
}

/* A request not whole within the deadline of the connection's start (or
 * its last answer, twice that for a keep-alive connection between
 * requests) is shut: a client sending a byte now and then holds nothing. */
static void *sweep(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&mu);
    while (!stopping) {
        struct timespec ts;
        int64_t now = now_us();
        for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
            struct conn *x = &tab[i];
            int64_t limit = (int64_t)WEB_CONN_DEADLINE_S * (x->answered ? 2 : 1) * 1000000;
            if (x->state == C_WAIT && !x->shut && now - x->since > limit) {
                shut(x);
                n_expired++;
            }
        }
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 500000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&stop_cv, &mu, &ts);
    }
    pthread_mutex_unlock(&mu);
    return NULL;
}

void web_conn_start(void)
{
    if (pthread_create(&sweeper, NULL, sweep, NULL) == 0)
        has_sweeper = 1;
}

void web_conn_stop(void)
{
    pthread_mutex_lock(&mu);
    stopping = 1;
    pthread_cond_broadcast(&stop_cv);
    pthread_mutex_unlock(&mu);
    if (has_sweeper)
        pthread_join(sweeper, NULL);
    has_sweeper = 0;
}
