/* main.c - medan-web: a board in the browser for the four Medan games.
 *
 * An HTTP server (libmicrohttpd: epoll and a small pool of threads, with
 * limits per address and an idle timeout) that serves the page in www/ and
 * a JSON API over sessions (session.c); live updates go to the page over a
 * WebSocket (ws.c).  A game answers only to the page that created it (its
 * secret, sent as X-Medan-Secret).  Engines are fixed on the command line.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/game.h"
#include "engines/registry.h"
#include "core/util.h"
#include "core/version.h"
#include "web.h"
#include "match.h"
#include "results.h"
#include "host.h"
#include "conn.h"

#define FILE_MAX (4 * 1024 * 1024)
#define CONN_IDLE_S 20        /* a connection silent this long is closed */
#define POOL_THREADS 4
#define MAX_ALLOW_HOST 16

static const char usage[] =
    "usage: medan-web [--port N] [--bind ADDR] [--engine KEYS...]... [options]\n"
    "  A board in the browser for the Medan games: play against an engine,\n"
    "  analyse a position, watch a match.  Open the address it prints.\n"
    "  --port N             TCP port (default 8080; 0 = any free port)\n"
    "  --bind ADDR          address to listen on (default 127.0.0.1: this machine only;\n"
    "                       another address warns: other machines can reach it)\n"
    "  --allow-host NAME    a host name the page may be asked for by, beside localhost,\n"
    "                       127.0.0.1, [::1] and the --bind address (repeatable)\n"
    "  --engine game=G [name=N] cmd=PATH [arg=A]... [option.NAME=VALUE]...\n"
    "                       an engine for game G (repeatable; default: the four\n"
    "                       medan-<game> programs beside medan-web, name medan)\n"
    "  --www DIR            the page's files (default: found beside the program)\n"
    "  --idle SECONDS       close a game whose page has been gone this long (default 120)\n"
    "  --max-sessions N     games open at once (default 16; at most 64)\n"
    "  --max-games-per-address N  games one address may hold (default half of\n"
    "                       --max-sessions); at the cap its own oldest without a page goes\n"
    "  --max-movetime MS    the longest time per move a page may ask for (default 60000)\n"
    "  --results-dir DIR    the match view's results files: its matches write\n"
    "                       DIR/web-*.jsonl, and the page may open and follow any\n"
    "                       *.jsonl file of DIR (a running medan-referee's --results)\n"
    "  --allow-seed         let a page choose a Battalion deal's seed in play (for tests:\n"
    "                       whoever knows the seed knows every hand)\n"
    "  Each game answers only to the page that created it (a secret it sends as\n"
    "  X-Medan-Secret).  At most 256 connections: each address its fair share (32 at\n"
    "  most), 16 places kept for a new address, the oldest idle connection evicted\n"
    "  when the table is full; a request must be whole within 10 s.\n"
    "  --help, --version\n";

/* ---- one request ----------------------------------------------------- */

struct req {
    char *body;
    size_t len;
    int too_big;
    void *ws;            /* a WebSocket handshake answered (ws.c's hold) */
};

static enum MHD_Result send_text(struct MHD_Connection *c, unsigned code,
                                 const char *type, const char *data, size_t n)
{
    struct MHD_Response *r =
        MHD_create_response_from_buffer(n, (void *)data, MHD_RESPMEM_MUST_COPY);
    enum MHD_Result ret;
    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, "Content-Type", type);
    MHD_add_response_header(r, "Cache-Control", "no-store");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    ret = MHD_queue_response(c, code, r);
    MHD_destroy_response(r);
    return ret;
}

static enum MHD_Result send_json(struct MHD_Connection *c, unsigned code,
                                 json_t *o)
{
    char *s = json_dumps(o, JSON_COMPACT);
    enum MHD_Result ret;
    json_decref(o);
    if (!s)
        return MHD_NO;
    ret = send_text(c, code, "application/json", s, strlen(s));
    free(s);
    return ret;
}

/* An error as JSON; what is not UTF-8 in it (a quoted token cut in the
 * middle of a character) becomes '?', so it always makes JSON. */
static enum MHD_Result send_error(struct MHD_Connection *c, unsigned code,
                                  const char *msg)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", msg);
    web_utf8_clean(buf);
    return send_json(c, code, json_pack("{s:s}", "error", buf));
}

/* ---- the page's files ------------------------------------------------ */

static const char *mime(const char *name)
{
    const char *dot = strrchr(name, '.');
    if (!dot)
        return NULL;
    if (strcmp(dot, ".html") == 0)
        return "text/html; charset=utf-8";
    if (strcmp(dot, ".js") == 0)
        return "text/javascript; charset=utf-8";
    if (strcmp(dot, ".css") == 0)
        return "text/css; charset=utf-8";
    if (strcmp(dot, ".svg") == 0)
        return "image/svg+xml";
    if (strcmp(dot, ".png") == 0)
        return "image/png";
    if (strcmp(dot, ".ico") == 0)
        return "image/x-icon";
    return NULL;
}

static enum MHD_Result serve_file(struct MHD_Connection *c, const char *url)
{
    char path[PATH_MAX];
    const char *name = strcmp(url, "/") == 0 ? "index.html" : url + 1;
    const char *type = mime(name);
    FILE *f;
    char *data;
    size_t n;
    enum MHD_Result ret;

    /* One plain name: no directories, no dot files, nothing else. */
    if (!type || !*name || name[0] == '.' ||
        strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789._-") != strlen(name))
        return send_error(c, 404, "no such page");
    if (snprintf(path, sizeof path, "%s/%s", web_cfg.www, name) >= (int)sizeof path)
        return send_error(c, 404, "no such page");
    f = fopen(path, "rb");
    if (!f)
        return send_error(c, 404, "no such page");
    data = xmalloc(FILE_MAX);
    n = fread(data, 1, FILE_MAX, f);
    fclose(f);
    ret = send_text(c, 200, type, data, n);
    free(data);
    return ret;
}

/* ---- the API ------------------------------------------------------------ */

static json_t *info_json(void)
{
    json_t *o = json_object(), *games = json_array();
    for (int i = 0; game_registry[i]; i++) {
        const struct game *g = game_registry[i];
        json_t *x, *engs;
        if (!web_game_drawn(g->name))
            continue;
        x = json_object();
        engs = json_array();
        for (int k = 0; k < web_cfg.neng; k++) {
            const struct web_engine_cfg *e = &web_cfg.eng[k];
            json_t *ej, *st;
            if (strcmp(e->game, g->name) != 0)
                continue;
            ej = json_object();
            st = json_array();
            for (int j = 0; j < e->nstrategies; j++)
                json_array_append_new(st, json_string(e->strategies[j]));
            json_object_set_new(ej, "name", json_string(e->name));
            json_object_set_new(ej, "strategies", st);
            /* the page offers Threads only where the engine has it */
            json_object_set_new(ej, "threads_max",
                                json_integer(e->threads_max ? e->threads_max : 1));
            json_array_append_new(engs, ej);
        }
        json_object_set_new(x, "name", json_string(g->name));
        json_object_set_new(x, "title", json_string(g->title));
        json_object_set_new(x, "min_seats", json_integer(g->min_seats));
        json_object_set_new(x, "max_seats", json_integer(g->max_seats));
        json_object_set_new(x, "params", json_string(g->params_help));
        json_object_set_new(x, "engines", engs);
        json_array_append_new(games, x);
    }
    json_object_set_new(o, "version", json_string(MEDAN_VERSION));
    json_object_set_new(o, "games", games);
    json_object_set_new(o, "max_movetime", json_integer(web_cfg.max_movetime));
    return o;
}

/* A POST from a page of another site is refused (its Origin names another
 * host than the one it was sent to). */
static int foreign_origin(struct MHD_Connection *c)
{
    const char *origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
    const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host");
    const char *p;
    if (!origin || strcmp(origin, "null") == 0)
        return origin != NULL;
    p = strstr(origin, "://");
    if (!p || !host)
        return 1;
    return strcmp(p + 3, host) != 0;
}

static const char *secret_of(struct MHD_Connection *c);

static enum MHD_Result api(struct MHD_Connection *c, const char *method,
                           const char *url, struct req *rq)
{
    char err[512] = "", id[64], action[32];
    const char *p;
    int post = strcmp(method, "POST") == 0;
    json_t *body = NULL;
    json_error_t je;

    if (strcmp(url, "/api/info") == 0 && !post)
        return send_json(c, 200, info_json());
    if (strcmp(url, "/api/status") == 0 && !post) {
        json_t *o = sess_status();
        int live;
        long ev, ex;
        web_conn_counts(&live, &ev, &ex);
        json_object_set_new(o, "connections", json_integer(live));
        json_object_set_new(o, "evicted", json_integer(ev));
        json_object_set_new(o, "expired", json_integer(ex));
        return send_json(c, 200, o);
    }
    if ((strcmp(url, "/api/results") == 0 || strncmp(url, "/api/results/", 13) == 0) &&
        !post) {
        /* Results files of --results-dir only, by plain name (match.c). */
        json_t *o = NULL;
        int code;
        if (url[12] == '\0')
            code = web_results_list(&o, err, sizeof err);
        else {
            const char *q = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "since");
            int64_t since = 0;
            if (q && parse_i64(q, 0, 100000000, &since) < 0)
                return send_error(c, 400, "'since' takes a number of games");
            code = web_results_read(url + 13, (long)since, &o, err, sizeof err);
        }
        return code == 200 ? send_json(c, 200, o) : send_error(c, (unsigned)code, err);
    }
    if (post) {
        if (foreign_origin(c))
            return send_error(c, 403, "requests from another site's page are refused");
        if (rq->too_big)
            return send_error(c, 413, "request body larger than 64 KiB");
        body = rq->len ? json_loadb(rq->body, rq->len, 0, &je) : json_object();
        if (!body) {
            snprintf(err, sizeof err, "bad JSON: %s (line %d column %d)", je.text,
                     je.line, je.column);
            return send_error(c, 400, err);
        }
        if (!json_is_object(body)) {
            json_decref(body);
            return send_error(c, 400, "the request body must be a JSON object");
        }
    }
    if (strcmp(url, "/api/session") == 0) {
        int code;
        if (!post)
            return send_error(c, 405, "POST a new game here");
        char addr[64];
        web_conn_addr(c, addr, sizeof addr);
        code = sess_create(body, addr, id, sizeof id, err, sizeof err);
        json_decref(body);
        if (code != 200)
            return send_error(c, code, err);
        {
            struct sess *s = sess_get(id);
            json_t *st;
            if (!s)
                return send_error(c, 503, "the game closed at once");
            char secret[WEB_SECRET_LEN + 1];
            st = sess_state(s, NULL);
            /* the secret goes to the creating page, in this answer only */
            sess_secret(s, secret, sizeof secret);
            json_object_set_new(st, "secret", json_string(secret));
            sess_put(s);
            return send_json(c, 200, st);
        }
    }
    /* /api/session/<id>[/<action>] */
    if (strncmp(url, "/api/session/", 13) != 0) {
        json_decref(body);
        return send_error(c, 404, "no such API");
    }
    p = url + 13;
    {
        size_t k = strcspn(p, "/");
        if (k == 0 || k >= sizeof id) {
            json_decref(body);
            return send_error(c, 404, "no such game");
        }
        memcpy(id, p, k);
        id[k] = '\0';
        p += k;
        action[0] = '\0';
        if (*p == '/') {
            snprintf(action, sizeof action, "%s", p + 1);
            if (strlen(p + 1) >= sizeof action) {
                json_decref(body);
                return send_error(c, 404, "no such action");
            }
        }
    }
    {
        /* only the page that created the game: no secret, or another
         * game's, is the same as no game (nothing says whether it exists) */
        struct sess *s = sess_get_owned(id, secret_of(c));
        enum MHD_Result ret;
        if (!s) {
            json_decref(body);
            return send_error(c, 404, "no such game (it was closed: start a new one)");
        }
        if (!post && !*action)
            ret = send_json(c, 200, sess_state(s, NULL));
        else if (!post && strcmp(action, "ws") == 0) {
            unsigned code;
            if (foreign_origin(c))
                ret = send_error(c, 403, "requests from another site's page are refused");
            else if (!web_ws_is_upgrade(c))
                ret = send_error(c, 400, "the live updates come over a WebSocket");
            else if (web_ws_accept(c, s, &rq->ws, err, sizeof err, &code))
                return MHD_YES;              /* the socket keeps the reference */
            else
                ret = send_error(c, code, err);
        } else if (!post && strcmp(action, "engines") == 0) {
            ret = send_json(c, 200, sess_engines(s));
        } else if (!post && strcmp(action, "legal") == 0) {
            const char *first = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "first");
            json_t *l = sess_legal_after(s, first ? first : "", err, sizeof err);
            ret = l ? send_json(c, 200, json_pack("{s:s,s:o}", "first", first, "legal", l))
                    : send_error(c, 400, err);
        } else if (!post)
            ret = send_error(c, 405, "actions are POSTed");
        else {
            int code = sess_action(s, action, body, err, sizeof err);
            if (code == 200)
                ret = send_json(c, 200, sess_state(s, NULL));
            else
                ret = send_error(c, (unsigned)code, err);
        }
        json_decref(body);
        sess_put(s);
        return ret;
    }
}

static const char *g_allow[MAX_ALLOW_HOST + 4];   /* host names the page may be asked by */
static int g_nallow;

/* The page must be asked for by a name this server was told about: a page
 * of another site that rebinds its own name to this address (DNS
 * rebinding) names itself in Host and is refused, whatever --bind says. */
static int foreign_host(struct MHD_Connection *c)
{
    const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host");
    size_t k;
    if (!host)
        return 0;                 /* HTTP/1.0 without Host: not a browser */
    if (!web_host_valid(host, &k))
        return 1;                 /* "[::1]evil", "localhost:abc", "a b": refused */
    for (int i = 0; i < g_nallow; i++)
        if (strlen(g_allow[i]) == k && strncasecmp(host, g_allow[i], k) == 0)
            return 0;
    return 1;
}

/* The game's secret: the X-Medan-Secret header, or for a WebSocket (whose
 * page cannot set headers) the subprotocol "secret.HEX" it offers. */
static const char *secret_of(struct MHD_Connection *c)
{
    static __thread char buf[WEB_SECRET_LEN + 1];
    const char *v = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Medan-Secret");
    const char *p;
    if (v)
        return v;
    v = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Sec-WebSocket-Protocol");
    for (p = v; p && (p = strstr(p, "secret.")) != NULL; p += 7)
        if (p == v || p[-1] == ' ' || p[-1] == ',') {
            size_t k = strspn(p + 7, "0123456789abcdef");
            if (k != WEB_SECRET_LEN)
                return NULL;
            memcpy(buf, p + 7, k);
            buf[k] = '\0';
            return buf;
        }
    return NULL;
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *c,
                               const char *url, const char *method,
                               const char *version, const char *upload,
                               size_t *upload_size, void **con_cls)
{
    struct req *rq = *con_cls;
    (void)cls;
    (void)version;
    if (!rq) {
        rq = xcalloc(1, sizeof *rq);
        *con_cls = rq;
        return MHD_YES;
    }
    if (*upload_size) {
        if (!rq->too_big && rq->len + *upload_size <= WEB_BODY_MAX) {
            rq->body = xrealloc(rq->body, rq->len + *upload_size + 1);
            memcpy(rq->body + rq->len, upload, *upload_size);
            rq->len += *upload_size;
        } else
            rq->too_big = 1;
        *upload_size = 0;
        return MHD_YES;
    }
    web_conn_busy(c);            /* answering: not idle, no deadline (conn.c) */
    if (foreign_host(c))
        return send_error(c, 403, "this server is not asked for by that name "
                                  "(localhost, 127.0.0.1, its address, or --allow-host NAME)");
    if (strncmp(url, "/api/", 5) == 0)
        return api(c, method, url, rq);
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
        return send_error(c, 405, "only GET here");
    return serve_file(c, url);
}

static void done(void *cls, struct MHD_Connection *c, void **con_cls,
                 enum MHD_RequestTerminationCode toe)
{
    struct req *rq = *con_cls;
    (void)cls;
    (void)toe;
    web_conn_answered(c);        /* waits for its next request (conn.c) */
    if (rq) {
        web_ws_request_done(rq->ws);
        free(rq->body);
        free(rq);
        *con_cls = NULL;
    }
}

/* libmicrohttpd's messages, less the one about a page that went away
 * (that is how a tab closes), and the one about a connection refused at
 * the limits or cut short at most once a minute (a greedy client must not
 * flood the log). */
static void mhd_log(void *cls, const char *fmt, va_list ap)
{
    static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    static int64_t last_limit = INT64_MIN / 2;
    char buf[512];
    (void)cls;
    vsnprintf(buf, sizeof buf, fmt, ap);
    if (strstr(buf, "no longer available") || strstr(buf, "Connection reset"))
        return;
    if (strstr(buf, "limit") || strstr(buf, "incomplete")) {
        int64_t t = now_us(), quiet;
        pthread_mutex_lock(&mu);
        quiet = t - last_limit < 60 * 1000000LL;
        if (!quiet)
            last_limit = t;
        pthread_mutex_unlock(&mu);
        if (quiet)
            return;
    }
    fprintf(stderr, "medan-web: %s", buf);
}

/* ---- command line --------------------------------------------------------- */

static void exe_dir(char *buf, size_t n)
{
    ssize_t k = readlink("/proc/self/exe", buf, n - 1);
    char *slash;
    if (k <= 0) {
        snprintf(buf, n, ".");
        return;
    }
    buf[k] = '\0';
    slash = strrchr(buf, '/');
    if (slash)
        *slash = '\0';
}

static int is_dir(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static int is_exec(const char *p)
{
    return access(p, X_OK) == 0;
}

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void fail(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "medan-web: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(medan-web --help for usage)\n");
    exit(2);
}

/* --engine KEY=VALUE...: the keys up to the next --option. */
static int parse_engine(int argc, char **argv, int i)
{
    struct web_engine_cfg *e;
    if (web_cfg.neng >= WEB_MAX_ENGINES)
        fail("more than %d engines", WEB_MAX_ENGINES);
    e = &web_cfg.eng[web_cfg.neng++];
    memset(e, 0, sizeof *e);
    for (; i < argc && strncmp(argv[i], "--", 2) != 0; i++) {
        char *eq = strchr(argv[i], '=');
        const char *v;
        if (!eq)
            fail("--engine: '%s' is not key=value", argv[i]);
        v = eq + 1;
        if (strncmp(argv[i], "game=", 5) == 0) {
            if (!game_find(v) || !web_game_drawn(v))
                fail("--engine: no game '%s' (loa fetlar palagan battalion)", v);
            e->game = xstrdup(v);
        } else if (strncmp(argv[i], "name=", 5) == 0)
            e->name = xstrdup(v);
        else if (strncmp(argv[i], "cmd=", 4) == 0)
            e->cmd = xstrdup(v);
        else if (strncmp(argv[i], "arg=", 4) == 0) {
            if (e->nargs >= 15)
                fail("--engine: too many arg=");
            e->args[e->nargs++] = xstrdup(v);
        } else if (strncmp(argv[i], "option.", 7) == 0 && eq > argv[i] + 7) {
            if (e->nopts >= 15)
                fail("--engine: too many options");
            e->opt_name[e->nopts] = xstrdup(argv[i] + 7);
            e->opt_name[e->nopts][eq - argv[i] - 7] = '\0';
            e->opt_val[e->nopts++] = xstrdup(v);
        } else
            fail("--engine: unknown key '%s' (game name cmd arg option.X)", argv[i]);
    }
    if (!e->game || !e->cmd)
        fail("--engine needs game= and cmd=");
    if (!e->name)
        e->name = xstrdup("medan");
    for (int k = 0; k < web_cfg.neng - 1; k++)
        if (strcmp(web_cfg.eng[k].game, e->game) == 0 &&
            strcmp(web_cfg.eng[k].name, e->name) == 0)
            fail("--engine: two engines named '%s' for %s", e->name, e->game);
    return i;
}

static long num_arg(int argc, char **argv, int i, long lo, long hi)
{
    int64_t v;
    if (i + 1 >= argc || parse_i64(argv[i + 1], lo, hi, &v) < 0)
        fail("%s takes a whole number from %ld to %ld", argv[i], lo, hi);
    return (long)v;
}

int main(int argc, char **argv)
{
    const char *bind_addr = "127.0.0.1";
    long port = 8080;
    char dir[PATH_MAX];
    struct MHD_Daemon *d;
    sigset_t set;
    int sig;
    union {
        struct sockaddr_in v4;
        struct sockaddr_in6 v6;
    } sa;
    int v6 = 0;

    web_cfg.idle_s = 120;
    web_cfg.max_sessions = 16;
    web_cfg.max_movetime = 60000;
    for (int i = 1; i < argc;) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0 || strcmp(a, "help") == 0) {
            fputs(usage, stdout);
            return 0;
        } else if (strcmp(a, "--version") == 0 || strcmp(a, "-V") == 0) {
            printf("medan-web (Medan) %s\n", MEDAN_VERSION);
            return 0;
        } else if (strcmp(a, "--port") == 0) {
            port = num_arg(argc, argv, i, 0, 65535);
            i += 2;
        } else if (strcmp(a, "--bind") == 0) {
            if (i + 1 >= argc)
                fail("--bind takes an address");
            bind_addr = argv[i + 1];
            i += 2;
        } else if (strcmp(a, "--allow-host") == 0) {
            if (i + 1 >= argc || !argv[i + 1][0] || strchr(argv[i + 1], '/') ||
                (argv[i + 1][0] != '[' && strchr(argv[i + 1], ':')) ||
                (argv[i + 1][0] == '[' && argv[i + 1][strlen(argv[i + 1]) - 1] != ']'))
                fail("--allow-host takes a host name, or [IPv6] (no port)");
            if (g_nallow >= MAX_ALLOW_HOST)
                fail("more than %d --allow-host", MAX_ALLOW_HOST);
            g_allow[g_nallow++] = argv[i + 1];
            i += 2;
        } else if (strcmp(a, "--allow-seed") == 0) {
            web_cfg.allow_seed = 1;
            i++;
        } else if (strcmp(a, "--www") == 0) {
            if (i + 1 >= argc)
                fail("--www takes a directory");
            snprintf(web_cfg.www, sizeof web_cfg.www, "%s", argv[i + 1]);
            i += 2;
        } else if (strcmp(a, "--idle") == 0) {
            web_cfg.idle_s = (int)num_arg(argc, argv, i, 1, 86400);
            i += 2;
        } else if (strcmp(a, "--max-sessions") == 0) {
            web_cfg.max_sessions = (int)num_arg(argc, argv, i, 1, 64);
            i += 2;
        } else if (strcmp(a, "--max-games-per-address") == 0) {
            web_cfg.games_per_addr = (int)num_arg(argc, argv, i, 1, 64);
            i += 2;
        } else if (strcmp(a, "--max-movetime") == 0) {
            web_cfg.max_movetime = (int)num_arg(argc, argv, i, 10, 3600000);
            i += 2;
        } else if (strcmp(a, "--results-dir") == 0) {
            struct stat sb;
            if (i + 1 >= argc || strlen(argv[i + 1]) >= sizeof web_cfg.results_dir - 300)
                fail("--results-dir takes a directory");
            if (stat(argv[i + 1], &sb) < 0 || !S_ISDIR(sb.st_mode))
                fail("--results-dir %s: not a directory", argv[i + 1]);
            snprintf(web_cfg.results_dir, sizeof web_cfg.results_dir, "%s", argv[i + 1]);
            i += 2;
        } else if (strcmp(a, "--engine") == 0) {
            i = parse_engine(argc, argv, i + 1);
        } else
            fail("unknown argument '%s'", a);
    }

    exe_dir(dir, sizeof dir);
    if (!web_cfg.www[0]) {
        const char *cand[] = {"%s/../gui-adapters/web/www", "%s/../share/medan/www",
                              "%s/../../gui-adapters/web/www", NULL};
        for (int i = 0; cand[i]; i++) {
            char p[PATH_MAX + 64];
            snprintf(p, sizeof p, cand[i], dir);
            if (is_dir(p) &&
                snprintf(web_cfg.www, sizeof web_cfg.www, "%s", p) < (int)sizeof web_cfg.www)
                break;
            web_cfg.www[0] = '\0';
        }
        if (!web_cfg.www[0])
            fail("cannot find the page's files beside %s (use --www DIR)", dir);
    } else if (!is_dir(web_cfg.www))
        fail("--www %s: not a directory", web_cfg.www);
    /* Default engines: medan-<game> beside this program, for games that
     * have no --engine. */
    for (int i = 0; game_registry[i]; i++) {
        const char *g = game_registry[i]->name;
        int have = 0;
        if (!web_game_drawn(g))
            continue;
        char p[PATH_MAX + 64];
        for (int k = 0; k < web_cfg.neng; k++)
            have |= strcmp(web_cfg.eng[k].game, g) == 0;
        snprintf(p, sizeof p, "%s/medan-%s", dir, g);
        if (!have && is_exec(p) && web_cfg.neng < WEB_MAX_ENGINES) {
            struct web_engine_cfg *e = &web_cfg.eng[web_cfg.neng++];
            memset(e, 0, sizeof *e);
            e->game = xstrdup(g);
            e->name = xstrdup("medan");
            e->cmd = xstrdup(p);
        }
    }
    for (int k = 0; k < web_cfg.neng; k++) {
        char err[512];
        if (web_eng_probe(&web_cfg.eng[k], err, sizeof err) < 0)
            fprintf(stderr, "medan-web: engine %s for %s does not start: %s\n",
                    web_cfg.eng[k].name, web_cfg.eng[k].game, err);
    }

    memset(&sa, 0, sizeof sa);
    if (inet_pton(AF_INET, bind_addr, &sa.v4.sin_addr) == 1) {
        sa.v4.sin_family = AF_INET;
        sa.v4.sin_port = htons((uint16_t)port);
    } else if (inet_pton(AF_INET6, bind_addr, &sa.v6.sin6_addr) == 1) {
        sa.v6.sin6_family = AF_INET6;
        sa.v6.sin6_port = htons((uint16_t)port);
        v6 = 1;
    } else
        fail("--bind: '%s' is not an IPv4 or IPv6 address", bind_addr);

    {
        static char bracketed[INET6_ADDRSTRLEN + 2];
        int any = strcmp(bind_addr, "0.0.0.0") == 0 || strcmp(bind_addr, "::") == 0;
        int loop = strncmp(bind_addr, "127.", 4) == 0 || strcmp(bind_addr, "::1") == 0;
        g_allow[g_nallow++] = "localhost";
        g_allow[g_nallow++] = "127.0.0.1";
        g_allow[g_nallow++] = "[::1]";
        if (!any) {      /* its own address: http://127.0.0.2:PORT/ works */
            snprintf(bracketed, sizeof bracketed, v6 ? "[%s]" : "%s", bind_addr);
            g_allow[g_nallow++] = bracketed;
        }
        if (!loop) {
            fprintf(stderr, "medan-web: warning: --bind %s: other machines can reach this "
                            "server; each game still answers only to the page that created it, "
                            "and the page must be asked for as", bind_addr);
            for (int i = 0; i < g_nallow; i++)
                fprintf(stderr, "%s %s", i ? (i == g_nallow - 1 ? " or" : ",") : "", g_allow[i]);
            fprintf(stderr, " (--allow-host NAME adds a name)\n");
        }
    }
    /* Signals are taken by this thread only (sigwait below). */
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    signal(SIGPIPE, SIG_IGN);

    /* epoll with a small pool of threads: no request blocks (live updates
     * go over WebSockets, ws.c), so a few threads serve everyone, and the
     * limits keep one greedy or slow address from starving the others. */
    d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_ALLOW_UPGRADE |
                             MHD_USE_ERROR_LOG | (v6 ? MHD_USE_IPv6 : 0),
                         (uint16_t)port, NULL, NULL, handler, NULL,
                         MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
                         MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
                         MHD_OPTION_NOTIFY_COMPLETED, done, NULL,
                         MHD_OPTION_THREAD_POOL_SIZE, (unsigned)POOL_THREADS,
                         /* conn.c admits each connection (fair shares, a
                          * reserve for a new address, idle ones evicted);
                          * libmicrohttpd's own limit leaves room for the
                          * evicted ones closing */
                         MHD_OPTION_NOTIFY_CONNECTION, web_conn_notify, NULL,
                         MHD_OPTION_CONNECTION_LIMIT, (unsigned)WEB_CONN_HARD,
                         MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(128 * 1024),
                         MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)CONN_IDLE_S,
                         MHD_OPTION_END);
    if (!d) {
        fprintf(stderr, "medan-web: cannot listen on %s port %ld: %s\n", bind_addr,
                port, strerror(errno));
        return 1;
    }
    {
        const union MHD_DaemonInfo *di = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
        if (di)
            port = di->port;
    }
    sess_start_reaper();
    web_conn_start();
    printf("medan-web: serving http://%s%s%s:%ld/ (Ctrl-C stops)\n", v6 ? "[" : "",
           bind_addr, v6 ? "]" : "", port);
    fflush(stdout);
    sigwait(&set, &sig);
    fprintf(stderr, "medan-web: stopping\n");
    sess_wake_all();
    web_ws_wait_all(5000);     /* the sockets close (ws.c) before the daemon goes */
    MHD_stop_daemon(d);
    web_conn_stop();
    sess_shutdown();
    web_eng_kill_all();
    for (int k = 0; k < web_cfg.neng; k++) {
        struct web_engine_cfg *e = &web_cfg.eng[k];
        free(e->game);
        free(e->name);
        free(e->cmd);
        for (int j = 0; j < e->nargs; j++)
            free(e->args[j]);
        for (int j = 0; j < e->nopts; j++) {
            free(e->opt_name[j]);
            free(e->opt_val[j]);
        }
    }
    return 0;
}
