/* mep.c - the engine side of MEP v1 (docs/protocol.md): a session holding
 * the position, a command table, and the search thread.
 *
 * Threads: the caller's thread reads lines and runs commands; `go`, `perft`
 * and `divide` run as a job on one worker thread.  While a job runs only
 * stop, ponderhit, ping, isready and quit are served; the rest get
 * `error busy`.  Output lines are written whole under a mutex and flushed.
 */
#include "mep.h"

#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/util.h"
#include "../search/perft.h"
#include "options.h"

#define MAX_TOKENS 4096
#define POS_BUF 16384

enum job { JOB_NONE, JOB_GO, JOB_PERFT, JOB_DIVIDE };

/* Options of the library itself, offered by every engine after its own. */
struct mep_opts {
    int64_t move_overhead;
};

static const struct opt_spec lib_options[] = {
    {"MoveOverhead", OPT_SPIN, "10", 0, MEP_MAX_MOVE_OVERHEAD_MS, NULL,
     offsetof(struct mep_opts, move_overhead),
     "ms kept in hand per move for pipes and a loaded machine (clocks and movetime)"},
    {NULL, 0, NULL, 0, 0, NULL, 0, NULL},
};

struct mep {
    const struct engine *e;
    const struct game *g;
    void *eng;
    struct mep_opts lib;       /* values of lib_options */
    FILE *out;
    mep_out_fn out_fn;         /* instead of out, when set */
    void *out_ctx;
    pthread_mutex_t out_lock;

    game_config_buf cfg;
    /* The game so far: states[0] is the base position, states[i] the
     * position after i moves; hashes likewise. */
    unsigned char *states;
    uint64_t *hashes;
    gmove *moves;
    int nmoves, cap;

    /* the worker */
    pthread_t thread;
    int thread_live;           /* joined yet? */
    atomic_bool busy;          /* a job runs (until its final line is out) */
    atomic_bool stop;
    atomic_bool pondering;
    atomic_llong ponderhit_us;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    enum job job;
    int job_depth;
    struct search_req req;
    game_state_buf job_pos;
    gmove *legal;              /* scratch for legal move lists */
};

/* ---- output --------------------------------------------------------------- */
/* One whole line, line[n-1] being its newline, to the output; called with
 * out_lock held. */
static void put_locked(struct mep *m, char *line, size_t n)
{
    if (m->out_fn) {
        line[n - 1] = '\0';
        m->out_fn(m->out_ctx, line);
        line[n - 1] = '\n';
        return;
    }
    fwrite(line, 1, n, m->out);
    fflush(m->out);
}

/* Format a line and its newline into line (cap bytes, cut to fit); its
 * length. */
static size_t format_line(char *line, size_t cap, const char *fmt, va_list ap)
{
    int n = vsnprintf(line, cap - 1, fmt, ap);
    if (n < 0)
        n = 0;
    if ((size_t)n > cap - 2)
        n = (int)cap - 2;
    line[n++] = '\n';
    line[n] = '\0';
    return (size_t)n;
}

static void vsend(struct mep *m, const char *fmt, va_list ap)
{
    char line[MEP_MAX_LINE + 256]; /* an echo of a whole input line fits */
    size_t n = format_line(line, sizeof line, fmt, ap);
    pthread_mutex_lock(&m->out_lock);
    put_locked(m, line, n);
    pthread_mutex_unlock(&m->out_lock);
}

static void send(struct mep *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void send(struct mep *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsend(m, fmt, ap);
    va_end(ap);
}

static const char *err_word(int rc)
{
    switch (rc) {
    case GAME_ESYNTAX: return "syntax";
    case GAME_EVALUE: return "bad_value";
    case GAME_EILLEGAL: return "illegal_move";
    case GAME_EPOSITION: return "illegal_position";
    case GAME_EOVER: return "game_over";
    case GAME_ENOTSUP: return "not_supported";
    default: return "bad_value";
    }
}

static int fail(struct mep *m, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct mep *m, const char *code, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    send(m, "error %s %s", code, msg);
    return -1;
}

static int ok(struct mep *m)
{
    send(m, "ok");
    return 0;
}

static void info_to_out(void *ctx, const char *line) { send(ctx, "info %s", line); }

/* ---- the game record --------------------------------------------------------- */
static void *state_at(struct mep *m, int i) { return m->states + (size_t)i * m->g->state_size; }
static void *cur(struct mep *m) { return state_at(m, m->nmoves); }

static void reserve(struct mep *m, int n)
{
    if (n < m->cap)
        return;
    while (m->cap <= n)
        m->cap = m->cap ? m->cap * 2 : 64;
    m->states = xrealloc(m->states, (size_t)m->cap * m->g->state_size);
    m->hashes = xrealloc(m->hashes, (size_t)m->cap * sizeof *m->hashes);
    m->moves = xrealloc(m->moves, (size_t)m->cap * sizeof *m->moves);
}

static void set_base(struct mep *m, const void *st)
{
    reserve(m, 1);
    memcpy(m->states, st, m->g->state_size);
    m->hashes[0] = m->g->hash(st);
    m->nmoves = 0;
}

static void result_now(struct mep *m, struct game_result *r)
{
    m->g->result(cur(m), m->hashes, m->nmoves, r);
}

/* Parse and play one move token on the current position. */
static int push_move(struct mep *m, const char *tok, char *err, size_t en)
{
    struct game_result r;
    gmove mv;
    int rc;
    result_now(m, &r);
    if (r.over)
        return set_err(err, en, GAME_EOVER, "the game is over (%s)", r.reason);
    rc = m->g->parse_move(cur(m), tok, &mv, err, en);
    if (rc)
        return rc;
    reserve(m, m->nmoves + 1);
    memcpy(state_at(m, m->nmoves + 1), cur(m), m->g->state_size);
    m->g->play(state_at(m, m->nmoves + 1), mv);
    m->moves[m->nmoves] = mv;
    m->nmoves++;
    m->hashes[m->nmoves] = m->g->hash(cur(m));
    return GAME_OK;
}

/* ---- session ------------------------------------------------------------------ */
struct mep *mep_new(const struct engine *e, FILE *out)
{
    struct mep *m = mep_new_cb(e, NULL, NULL);
    m->out = out;
    return m;
}

struct mep *mep_new_cb(const struct engine *e, mep_out_fn fn, void *ctx)
{
    struct mep *m = xcalloc(1, sizeof *m);
    game_state_buf st;
    m->e = e;
    m->g = e->game;
    m->out_fn = fn;
    m->out_ctx = ctx;
    pthread_mutex_init(&m->out_lock, NULL);
    pthread_mutex_init(&m->lock, NULL);
    pthread_cond_init(&m->cond, NULL);
    m->legal = game_move_buf(e->game);
    m->eng = xcalloc(1, e->size ? e->size : 1);
    opt_defaults(e->options, m->eng);
    opt_defaults(lib_options, &m->lib);
    if (e->init)
        e->init(m->eng);
    m->g->config_default(m->cfg.b);
    m->g->start(st.b, m->cfg.b);
    set_base(m, st.b);
    return m;
}

static void join_worker(struct mep *m)
{
    if (m->thread_live) {
        pthread_join(m->thread, NULL);
        m->thread_live = 0;
    }
}

void mep_wait(struct mep *m) { join_worker(m); }

static void raise_stop(struct mep *m)
{
    pthread_mutex_lock(&m->lock);
    atomic_store(&m->stop, true);
    pthread_cond_broadcast(&m->cond);
    pthread_mutex_unlock(&m->lock);
}

void mep_eof(struct mep *m)
{
    /* End of input: infinite or ponder searches stop at once; a search
     * with limits, a perft or a divide may run on for MEP_EOF_GRACE_MS
     * (piped scripts want their answer), then it is stopped too. */
    int64_t deadline = now_us() + (int64_t)MEP_EOF_GRACE_MS * 1000;
    if (atomic_load(&m->busy) && m->job == JOB_GO &&
        (m->req.lim.infinite || atomic_load(&m->pondering)))
        raise_stop(m);
    while (atomic_load(&m->busy) && !atomic_load(&m->stop) && now_us() < deadline) {
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
    if (atomic_load(&m->busy))
        raise_stop(m);
    join_worker(m);
}

void mep_free(struct mep *m)
{
    if (!m)
        return;
    atomic_store(&m->stop, true);
    pthread_mutex_lock(&m->lock);
    pthread_cond_broadcast(&m->cond);
    pthread_mutex_unlock(&m->lock);
    join_worker(m);
    if (m->e->destroy)
        m->e->destroy(m->eng);
    free(m->eng);
    free(m->legal);
    free(m->states);
    free(m->hashes);
    free(m->moves);
    pthread_mutex_destroy(&m->out_lock);
    pthread_mutex_destroy(&m->lock);
    pthread_cond_destroy(&m->cond);
    free(m);
}

/* ---- the worker ----------------------------------------------------------------- */
static void divide_line(void *ctx, const char *mv, uint64_t count)
{
    struct mep *m = ctx;
    send(m, "perft %d move %s %llu", m->job_depth, mv, (unsigned long long)count);
}

static int legal_contains(struct mep *m, const void *pos, gmove mv)
{
    int n = game_gen_moves(m->g, pos, m->legal);
    for (int i = 0; i < n; i++)
        if (m->legal[i] == mv)
            return 1;
    return 0;
}

static void finish_line(struct mep *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void finish_go(struct mep *m, gmove best, gmove ponder)
{
    char b[256], p[256];
    game_state_buf child;
    const void *pos = m->job_pos.b;
    /* Never send an illegal move, whatever the engine did. */
    if (best == GAME_MOVE_NONE || !legal_contains(m, pos, best)) {
        int n = game_gen_moves(m->g, pos, m->legal);
        fprintf(stderr, "medan: engine gave no legal move; playing the first\n");
        best = n > 0 ? m->legal[0] : GAME_MOVE_NONE;
    }
    if (best == GAME_MOVE_NONE)
        snprintf(b, sizeof b, "pass");
    else
        m->g->format_move(pos, best, b, sizeof b);
    p[0] = '\0';
    if (ponder != GAME_MOVE_NONE && best != GAME_MOVE_NONE) {
        memcpy(child.b, pos, m->g->state_size);
        m->g->play(child.b, best);
        if (legal_contains(m, child.b, ponder)) {
            size_t len = 0;
            char t[256];
            m->g->format_move(child.b, ponder, t, sizeof t);
            buf_printf(p, sizeof p, &len, " ponder %s", t);
        }
    }
    /* busy goes false together with the final line, under the output lock,
     * so a controller that reads bestmove may send its next command at once. */
    finish_line(m, "bestmove %s%s", b, p);
}

static void finish_line(struct mep *m, const char *fmt, ...)
{
    char line[1024];
    size_t n;
    va_list ap;
    va_start(ap, fmt);
    n = format_line(line, sizeof line, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&m->out_lock);
    atomic_store(&m->busy, false);
    put_locked(m, line, n);
    pthread_mutex_unlock(&m->out_lock);
}

static void *worker(void *arg)
{
    struct mep *m = arg;
    if (m->job == JOB_GO) {
        gmove ponder = GAME_MOVE_NONE;
        gmove best = m->e->go(m->eng, &m->req, &ponder);
        /* In infinite or ponder mode bestmove waits for stop/ponderhit. */
        pthread_mutex_lock(&m->lock);
        while (!atomic_load(&m->stop) &&
               (m->req.lim.infinite || atomic_load(&m->pondering)))
            pthread_cond_wait(&m->cond, &m->lock);
        pthread_mutex_unlock(&m->lock);
        finish_go(m, best, ponder);
    } else {
        int64_t t0 = now_us();
        uint64_t n;
        if (m->job == JOB_PERFT)
            n = perft_stoppable(m->g, m->job_pos.b, m->job_depth, &m->stop);
        else
            n = perft_divide(m->g, m->job_pos.b, m->job_depth, divide_line, m, &m->stop);
        int64_t us = now_us() - t0;
        if (atomic_load(&m->stop)) {
            send(m, "log perft interrupted by stop");
            finish_line(m, "ok");
        } else {
            send(m, "perft %d %llu time %lld nps %llu", m->job_depth, (unsigned long long)n,
                 (long long)(us / 1000),
                 (unsigned long long)(us > 0 ? n * 1000000ULL / (uint64_t)us : n));
            finish_line(m, "ok");
        }
    }
    return NULL;
}

/* 0, or -1 with the error line sent when no thread can be started (the
 * session goes on: the command failed and changed nothing). */
static int start_job(struct mep *m, enum job job)
{
    join_worker(m);
    m->job = job;
    memcpy(m->job_pos.b, cur(m), m->g->state_size);
    atomic_store(&m->stop, false);
    atomic_store(&m->busy, true);
    if (pthread_create(&m->thread, NULL, worker, m)) {
        atomic_store(&m->busy, false);
        return fail(m, "not_supported", "cannot start the search thread now "
                    "(the system's thread limit)");
    }
    m->thread_live = 1;
    return 0;
}

/* ---- commands ------------------------------------------------------------------ */
typedef int (*cmd_fn)(struct mep *m, int argc, char **argv);

struct command {
    const char *name;
    cmd_fn fn;
    int during_search;  /* served while a job runs */
    const char *help;
};

static int c_mep(struct mep *m, int argc, char **argv)
{
    char line[1024];
    (void)argc;
    (void)argv;
    send(m, "id name %s", m->e->name);
    send(m, "id author %s", m->e->author);
    send(m, "id version %s", MEP_VERSION);
    send(m, "protocol 1");
    if (m->g->min_seats == m->g->max_seats)
        snprintf(line, sizeof line, "game %s players %d", m->g->name, m->g->min_seats);
    else
        snprintf(line, sizeof line, "game %s players %d-%d", m->g->name, m->g->min_seats,
                 m->g->max_seats);
    if (m->g->params_help && *m->g->params_help)
        send(m, "%s %s", line, m->g->params_help);
    else
        send(m, "%s", line);
    for (const struct opt_spec *o = m->e->options; o && o->name; o++) {
        opt_describe(o, line, sizeof line);
        send(m, "%s", line);
    }
    for (const struct opt_spec *o = lib_options; o->name; o++) {
        opt_describe(o, line, sizeof line);
        send(m, "%s", line);
    }
    send(m, "mepok");
    return 0;
}

static int c_ping(struct mep *m, int argc, char **argv)
{
    if (argc > 2)
        return fail(m, "syntax", "ping takes one token");
    send(m, "pong%s%s", argc == 2 ? " " : "", argc == 2 ? argv[1] : "");
    return 0;
}

static int c_isready(struct mep *m, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    send(m, "readyok");
    return 0;
}

/* setoption name <Name> [value <v...>] */
static int c_setoption(struct mep *m, int argc, char **argv)
{
    const struct opt_spec *o;
    struct opt_saved sv;
    char err[GAME_ERR_LEN], val[MEP_MAX_LINE];
    size_t len = 0;
    void *obj = m->eng;
    int rc;
    if (argc < 3 || strcmp(argv[1], "name") != 0)
        return fail(m, "syntax", "usage: setoption name <Name> value <v>");
    if (!(o = opt_find(m->e->options, argv[2]))) {
        if (!(o = opt_find(lib_options, argv[2])))
            return fail(m, "unknown_option", "no option '%s'", argv[2]);
        obj = &m->lib;
    }
    if (argc == 3) {
        if (o->type != OPT_BUTTON && o->type != OPT_STRING)
            return fail(m, "syntax", "%s needs 'value <v>'", o->name);
        val[0] = '\0';
    } else {
        if (strcmp(argv[3], "value") != 0 || (argc == 4 && o->type != OPT_STRING))
            return fail(m, "syntax", "usage: setoption name <Name> value <v>");
        val[0] = '\0';
        for (int i = 4; i < argc; i++)
            buf_printf(val, sizeof val, &len, "%s%s", i > 4 ? " " : "", argv[i]);
        if (o->type == OPT_BUTTON)
            return fail(m, "syntax", "%s is a button and takes no value", o->name);
    }
    opt_save(o, obj, &sv);
    if ((rc = opt_set(o, obj, val, err, sizeof err)))
        return fail(m, err_word(rc), "%s", err);
    if (obj == m->eng && m->e->option_changed &&
        m->e->option_changed(m->eng, o, err, sizeof err)) {
        opt_restore(o, m->eng, &sv);
        return fail(m, "bad_value", "%s", err);
    }
    return ok(m);
}

static int c_newgame(struct mep *m, int argc, char **argv)
{
    game_config_buf cfg;
    game_state_buf st;
    char err[GAME_ERR_LEN];
    m->g->config_default(cfg.b);
    for (int i = 1; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        int rc;
        if (!eq || eq == argv[i])
            return fail(m, "syntax", "expected key=value, got '%s'", argv[i]);
        *eq = '\0';
        rc = m->g->config_set(cfg.b, argv[i], eq + 1, err, sizeof err);
        *eq = '=';
        if (rc)
            return fail(m, err_word(rc), "%s", err);
    }
    if (m->g->config_check) {
        int rc = m->g->config_check(cfg.b, err, sizeof err);
        if (rc)
            return fail(m, err_word(rc), "%s", err);
    }
    m->cfg = cfg;
    m->g->start(st.b, m->cfg.b);
    set_base(m, st.b);
    if (m->e->newgame)
        m->e->newgame(m->eng);
    return ok(m);
}

/* Apply argv[from..argc) as moves on the current record; on error restore
 * the record to `keep` moves on base `saved`. */
static int c_position(struct mep *m, int argc, char **argv)
{
    game_state_buf st;
    char err[GAME_ERR_LEN], fen[MEP_MAX_LINE];
    int i = 2, rc;
    /* keep the old record to restore on error */
    int old_n = m->nmoves;
    size_t ss = m->g->state_size;
    unsigned char *old_states;
    uint64_t *old_hashes;
    gmove *old_moves;

    if (argc < 2)
        return fail(m, "syntax", "usage: position start|fen <S> [moves m...]");
    if (strcmp(argv[1], "start") == 0 || strcmp(argv[1], "startpos") == 0) { /* UCI's word too */
        m->g->start(st.b, m->cfg.b);
    } else if (strcmp(argv[1], "fen") == 0) {
        size_t len = 0;
        fen[0] = '\0';
        for (; i < argc && strcmp(argv[i], "moves") != 0; i++)
            buf_printf(fen, sizeof fen, &len, "%s%s", len ? " " : "", argv[i]);
        if (!len)
            return fail(m, "syntax", "position fen needs a position string");
        if ((rc = m->g->parse_pos(st.b, m->cfg.b, fen, err, sizeof err)))
            return fail(m, rc == GAME_ESYNTAX ? "syntax" : "illegal_position", "%s", err);
    } else
        return fail(m, "syntax", "usage: position start|fen <S> [moves m...]");
    if (i < argc && strcmp(argv[i], "moves") != 0)
        return fail(m, "syntax", "expected 'moves' after the position");
    if (i < argc)
        i++;

    old_states = xmalloc((size_t)(old_n + 1) * ss);
    old_hashes = xmalloc((size_t)(old_n + 1) * sizeof *old_hashes);
    old_moves = xmalloc((size_t)(old_n + 1) * sizeof *old_moves);
    memcpy(old_states, m->states, (size_t)(old_n + 1) * ss);
    memcpy(old_hashes, m->hashes, (size_t)(old_n + 1) * sizeof *old_hashes);
    memcpy(old_moves, m->moves, (size_t)old_n * sizeof *old_moves);

    set_base(m, st.b);
    rc = 0;
    for (int k = 1; i < argc; i++, k++) {
        if ((rc = push_move(m, argv[i], err, sizeof err))) {
            reserve(m, old_n + 1);
            memcpy(m->states, old_states, (size_t)(old_n + 1) * ss);
            memcpy(m->hashes, old_hashes, (size_t)(old_n + 1) * sizeof *old_hashes);
            memcpy(m->moves, old_moves, (size_t)old_n * sizeof *old_moves);
            m->nmoves = old_n;
            fail(m, "illegal_move", "%d %s %s", k, argv[i], err);
            break;
        }
    }
    free(old_states);
    free(old_hashes);
    free(old_moves);
    return rc ? -1 : ok(m);
}

static int c_play(struct mep *m, int argc, char **argv)
{
    char err[GAME_ERR_LEN];
    int rc;
    if (argc != 2)
        return fail(m, "syntax", "usage: play <move>");
    if ((rc = push_move(m, argv[1], err, sizeof err)))
        return fail(m, rc == GAME_EOVER ? "game_over" : rc == GAME_ESYNTAX ? "syntax" : "illegal_move",
                    "%s %s", argv[1], err);
    return ok(m);
}

static int c_undo(struct mep *m, int argc, char **argv)
{
    int64_t n = 1;
    if (argc > 2 || (argc == 2 && parse_i64(argv[1], 1, 1000000, &n)))
        return fail(m, "syntax", "usage: undo [n], n >= 1");
    if (n > m->nmoves)
        return fail(m, "bad_value", "only %d move%s to undo", m->nmoves, m->nmoves == 1 ? "" : "s");
    m->nmoves -= (int)n;
    return ok(m);
}

static int c_legalmoves(struct mep *m, int argc, char **argv)
{
    struct game_result r;
    char *line;
    size_t len = 0, cap = 1 << 21;
    int n;
    (void)argv;
    if (argc != 1)
        return fail(m, "syntax", "legalmoves takes no argument");
    result_now(m, &r);
    n = r.over ? 0 : game_gen_moves(m->g, cur(m), m->legal);
    line = xmalloc(cap);
    buf_printf(line, cap, &len, "moves");
    for (int i = 0; i < n; i++) {
        char t[256];
        m->g->format_move(cur(m), m->legal[i], t, sizeof t);
        buf_printf(line, cap, &len, " %s", t);
    }
    if (len > cap - 2) /* never: a list is far below cap (max_moves short tokens) */
        len = cap - 2;
    line[len++] = '\n';
    line[len] = '\0';
    pthread_mutex_lock(&m->out_lock);
    put_locked(m, line, len); /* to the FILE or, in a mep_new_cb session, the callback */
    pthread_mutex_unlock(&m->out_lock);
    free(line);
    return ok(m);
}

static int c_fen(struct mep *m, int argc, char **argv)
{
    char buf[POS_BUF];
    if (argc == 3 && strcmp(argv[1], "view") == 0) {
        /* fen view <k>: seat k's view of the full state held (hidden-information
         * games); the position itself does not change */
        game_state_buf v;
        int64_t k;
        int n = m->g->nseats(cur(m));
        if (!m->g->view)
            return fail(m, "not_supported", "%s has no hidden information", m->g->name);
        if (parse_i64(argv[2], 1, n, &k))
            return fail(m, "bad_value", "fen view takes a seat from 1 to %d", n);
        if (m->g->is_view && m->g->is_view(cur(m)))
            return fail(m, "not_supported", "the position is a view: only a full state has views");
        if (m->g->view(cur(m), (int)k, v.b))
            return fail(m, "bad_value", "no view of seat %lld", (long long)k);
        m->g->format_pos(v.b, buf, sizeof buf);
        send(m, "fen %s", buf);
        return ok(m);
    }
    if (argc != 1)
        return fail(m, "syntax", "usage: fen, or fen view <seat>");
    m->g->format_pos(cur(m), buf, sizeof buf);
    send(m, "fen %s", buf);
    return ok(m);
}

static int c_show(struct mep *m, int argc, char **argv)
{
    char buf[POS_BUF], *p, *nl;
    (void)argv;
    if (argc != 1)
        return fail(m, "syntax", "show takes no argument");
    m->g->show(cur(m), buf, sizeof buf);
    for (p = buf; *p; p = nl + 1) {
        nl = strchr(p, '\n');
        if (nl)
            *nl = '\0';
        send(m, "board %s", p);
        if (!nl)
            break;
    }
    return ok(m);
}

static int c_result(struct mep *m, int argc, char **argv)
{
    struct game_result r;
    char line[512];
    size_t len = 0;
    (void)argv;
    if (argc != 1)
        return fail(m, "syntax", "result takes no argument");
    result_now(m, &r);
    if (!r.over) {
        send(m, "result none");
        return ok(m);
    }
    if (r.nseats == 2)
        buf_printf(line, sizeof line, &len, "result %s", game_outcome2(&r));
    else {
        buf_printf(line, sizeof line, &len, "result ranks");
        for (int i = 0; i < r.nseats; i++)
            buf_printf(line, sizeof line, &len, " %d", r.rank[i]);
    }
    buf_printf(line, sizeof line, &len, " reason %s scores", r.reason ? r.reason : "unknown");
    for (int i = 0; i < r.nseats; i++)
        buf_printf(line, sizeof line, &len, " %g", r.score[i]);
    send(m, "%s", line);
    return ok(m);
}

static int c_perft(struct mep *m, int argc, char **argv)
{
    int64_t d;
    if (argc != 2 || parse_i64(argv[1], 0, 64, &d))
        return fail(m, "syntax", "usage: %s <depth>, depth 0..64", argv[0]);
    m->job_depth = (int)d;
    return start_job(m, strcmp(argv[0], "divide") == 0 ? JOB_DIVIDE : JOB_PERFT);
}

static int c_eval(struct mep *m, int argc, char **argv)
{
    char buf[4096];
    (void)argv;
    if (argc != 1)
        return fail(m, "syntax", "eval takes no argument");
    if (!m->e->eval)
        return fail(m, "not_supported", "this engine has no static evaluation");
    if (m->e->eval(m->eng, cur(m), buf, sizeof buf))
        return fail(m, "not_supported", "%s", buf);
    send(m, "eval %s", buf);
    return ok(m);
}

static int parse_limits(struct mep *m, int argc, char **argv, struct limits *l)
{
    int any = 0, clocks = 0, nseats = m->g->nseats(cur(m)), mover = m->g->to_move(cur(m));
    limits_clear(l);
    for (int i = 1; i < argc; i++) {
        const char *k = argv[i];
        int64_t v;
        int seat;
        char rest[16];
        if (strcmp(k, "solve") == 0) {
            if (i != 1)
                return fail(m, "syntax", "go: solve comes first: go solve, then movetime MS or nodes N");
            l->solve = true;
            continue;
        }
        if (l->solve && strcmp(k, "movetime") != 0 && strcmp(k, "nodes") != 0)
            return fail(m, "syntax", "go solve takes movetime MS or nodes N, not '%s'", k);
        if (strcmp(k, "infinite") == 0) {
            l->infinite = true;
            any = 1;
            continue;
        }
        if (strcmp(k, "ponder") == 0) {
            l->ponder = true;
            continue;
        }

        if (i + 1 >= argc)
            return fail(m, "syntax", "go: '%s' needs a value", k);
        if (sscanf(k, "p%d%15s", &seat, rest) == 2 && seat >= 1 && seat <= GAME_MAX_SEATS &&
            (strcmp(rest, "time") == 0 || strcmp(rest, "inc") == 0) && k[1] != '0' &&
            k[2] == rest[0]) {
            if (seat > nseats)
                return fail(m, "bad_value", "go: %s: this game has %d seats", k, nseats);
            if (parse_i64(argv[++i], 0, MEP_MAX_MS, &v))
                return fail(m, "bad_value", "go: %s takes milliseconds 0..%lld", k,
                            (long long)MEP_MAX_MS);
            if (rest[0] == 't')
                l->time[seat] = v;
            else
                l->inc[seat] = v;
            clocks |= rest[0] == 't';
        } else if (strcmp(k, "movestogo") == 0) {
            if (parse_i64(argv[++i], 1, 100000, &v))
                return fail(m, "bad_value", "go: movestogo takes a number >= 1");
            l->movestogo = (int)v;
        } else if (strcmp(k, "movetime") == 0) {
            if (parse_i64(argv[++i], 0, MEP_MAX_MS, &v))
                return fail(m, "bad_value", "go: movetime takes milliseconds 0..%lld",
                            (long long)MEP_MAX_MS);
            l->movetime = v;
            any = 1;
        } else if (strcmp(k, "depth") == 0) {
            if (parse_i64(argv[++i], 1, 1000, &v))
                return fail(m, "bad_value", "go: depth takes 1..1000");
            l->depth = (int)v;
            any = 1;
        } else if (strcmp(k, "nodes") == 0) {
            uint64_t u;
            if (parse_u64(argv[++i], &u) || u == 0)
                return fail(m, "bad_value", "go: nodes takes a number >= 1");
            l->nodes = u;
            any = 1;
        } else if (strcmp(k, "multipv") == 0) {
            if (parse_i64(argv[++i], 1, 256, &v))
                return fail(m, "bad_value", "go: multipv takes 1..256");
            l->multipv = (int)v;
        } else
            return fail(m, "syntax", "go: unknown limit '%s'", k);
    }
    /* Another seat's clock is no limit for the seat to move: clocks alone
     * must include the mover's. */
    if (clocks && !any && (mover < 1 || mover > nseats || l->time[mover] < 0))
        return fail(m, "bad_value", "go: clocks given but none for seat %d, the seat to move",
                    mover);
    if (l->solve && l->movetime >= 0 && l->nodes)
        return fail(m, "syntax", "go solve takes movetime MS or nodes N, not both");
    if (!any && !clocks && !l->solve) /* go solve alone: until proven or stopped */
        l->infinite = true;
    l->overhead_ms = m->lib.move_overhead;
    return 0;
}

static int c_go(struct mep *m, int argc, char **argv)
{
    struct game_result r;
    struct limits l;
    int n;
    if (parse_limits(m, argc, argv, &l))
        return -1;
    result_now(m, &r);
    if (r.over)
        return fail(m, "game_over", "the game is over (%s)", r.reason);
    n = game_gen_moves(m->g, cur(m), m->legal);
    if (n == 0)
        return fail(m, "not_supported", "no decision to take in this position");
    if (l.solve && !m->e->solve)
        return fail(m, "not_supported", "go solve: this engine has no solver");
    if (l.multipv > 1 && !m->e->multipv)
        return fail(m, "not_supported", "go: multipv: this engine reports one line");
    memset(&m->req, 0, sizeof m->req);
    m->req.game = m->g;
    m->req.pos = m->job_pos.b;
    m->req.hist = m->hashes;
    m->req.nhist = m->nmoves;
    m->req.lim = l;
    m->req.start_us = now_us();
    m->req.stop = &m->stop;
    m->req.pondering = &m->pondering;
    m->req.ponderhit_us = &m->ponderhit_us;
    m->req.info = info_to_out;
    m->req.info_ctx = m;
    atomic_store(&m->pondering, l.ponder);
    atomic_store(&m->ponderhit_us, 0);
    if (start_job(m, JOB_GO) < 0) {
        atomic_store(&m->pondering, false);
        return -1;
    }
    return 0;
}

static int c_stop(struct mep *m, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    if (!atomic_load(&m->busy))
        return ok(m);
    pthread_mutex_lock(&m->lock);
    atomic_store(&m->stop, true);
    pthread_cond_broadcast(&m->cond);
    pthread_mutex_unlock(&m->lock);
    join_worker(m); /* its final line (bestmove) is out when this returns */
    return 0;
}

static int c_ponderhit(struct mep *m, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    if (!atomic_load(&m->busy) || !atomic_load(&m->pondering))
        return ok(m);
    pthread_mutex_lock(&m->lock);
    atomic_store(&m->ponderhit_us, now_us());
    atomic_store(&m->pondering, false);
    pthread_cond_broadcast(&m->cond);
    pthread_mutex_unlock(&m->lock);
    return 0; /* the final line is the bestmove */
}

static int c_help(struct mep *m, int argc, char **argv);
static int c_quit(struct mep *m, int argc, char **argv)
{
    (void)m;
    (void)argc;
    (void)argv;
    return 1;
}

static const struct command commands[] = {
    {"mep", c_mep, 0, "handshake: id, protocol, game, option lines, mepok"},
    {"ping", c_ping, 1, "ping <token> -> pong <token>, at once, also during search"},
    {"isready", c_isready, 1, "-> readyok, at once, also during search"},
    {"setoption", c_setoption, 0, "setoption name <Name> [value <v>]"},
    {"newgame", c_newgame, 0, "newgame [key=value ...]: new game with these parameters"},
    {"position", c_position, 0, "position start|fen <S> [moves m ...]: set the position (atomic; startpos = start)"},
    {"play", c_play, 0, "play <move>: play one move on the current position"},
    {"undo", c_undo, 0, "undo [n]: take back n moves (default 1)"},
    {"legalmoves", c_legalmoves, 0, "-> moves m1 m2 ...: every legal move, canonical"},
    {"fen", c_fen, 0, "fen [view <k>] -> fen <S>: the canonical position string (or seat k's view)"},
    {"show", c_show, 1, "-> board lines: the position, drawn (also during a search)"},
    {"result", c_result, 0, "-> result none | result <outcome> reason <r> scores ..."},
    {"perft", c_perft, 0, "perft <d> -> perft <d> <count> time <ms> nps <n>"},
    {"divide", c_perft, 0, "divide <d> -> perft <d> move <m> <count> per move, then the total"},
    {"eval", c_eval, 0, "-> eval <score> [terms...]: static evaluation, side to move's view"},
    {"go", c_go, 0, "go [p<i>time p<i>inc movestogo movetime depth nodes infinite ponder multipv] | go solve [movetime MS | nodes N]"},
    {"stop", c_stop, 1, "stop the search -> bestmove"},
    {"ponderhit", c_ponderhit, 1, "the pondered move was played: search on with the clock"},
    {"help", c_help, 1, "help [command] -> log lines: the commands, or one command's help"},
    {"quit", c_quit, 1, "exit at once"},
};

static int c_help(struct mep *m, int argc, char **argv)
{
    if (argc > 2)
        return fail(m, "syntax", "usage: help [command]");
    for (size_t i = 0; i < ARRAY_LEN(commands); i++)
        if (argc == 1 || strcmp(argv[1], commands[i].name) == 0) {
            send(m, "log %-11s %s", commands[i].name, commands[i].help);
            if (argc == 2)
                return ok(m);
        }
    if (argc == 2)
        return fail(m, "bad_value", "no command '%.40s' (try help)", argv[1]);
    return ok(m);
}

/* A command a user of another protocol may type: the MEP command meant. */
static const char *did_you_mean(const char *w)
{
    static const char *const alias[][2] = {
        {"d", "show"}, {"board", "show"}, {"showboard", "show"}, {"display", "show"},
        {"uci", "mep"}, {"ucinewgame", "newgame"}, {"new", "newgame"}, {"moves", "legalmoves"},
        {"exit", "quit"}, {"bye", "quit"}, {"undomove", "undo"},
    };
    const char *hit = NULL;
    size_t n = strlen(w);
    for (size_t i = 0; i < ARRAY_LEN(alias); i++)
        if (strcmp(w, alias[i][0]) == 0)
            return alias[i][1];
    for (size_t i = 0; n >= 2 && i < ARRAY_LEN(commands); i++) /* a unique prefix */
        if (strncmp(commands[i].name, w, n) == 0) {
            if (hit)
                return NULL;
            hit = commands[i].name;
        }
    return hit;
}

int mep_busy(struct mep *m) { return atomic_load(&m->busy); }
const void *mep_position(struct mep *m) { return cur(m); }
const void *mep_config(struct mep *m) { return m->cfg.b; }
const struct engine *mep_engine(struct mep *m) { return m->e; }

const char *mep_command_name(int i)
{
    return i >= 0 && (size_t)i < ARRAY_LEN(commands) ? commands[i].name : NULL;
}

int mep_read_line(FILE *in, char *buf, size_t cap, size_t *len)
{
    size_t n = 0;
    int ch, any = 0;
    while ((ch = getc_unlocked(in)) != EOF) {
        any = 1;
        if (ch == '\n')
            break;
        if (n + 1 < cap)
            buf[n] = (char)ch;
        n++; /* past cap-1 the bytes are counted, not kept */
    }
    if (cap)
        buf[n + 1 < cap ? n : cap - 1] = '\0';
    *len = n;
    return any;
}

/* Where the first byte that MEP does not allow on a line is, or -1:
 * printable ASCII and TAB only. */
static long bad_byte(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c < 32 && c != '\t') || c > 126)
            return (long)i;
    }
    return -1;
}

int mep_line(struct mep *m, const char *line)
{
    size_t n = strlen(line);
    if (n > 0 && line[n - 1] == '\n')
        n--;
    return mep_input(m, line, n);
}

int mep_input(struct mep *m, const char *line, size_t n)
{
    char *buf, **argv;
    int argc, rc = 0;
    long bad;
    size_t lead = 0;
    const struct command *c = NULL;

    /* a CR before the (already removed) LF is not part of the line */
    if (n > 0 && n <= MEP_MAX_LINE && line[n - 1] == '\r')
        n--;
    if (n > MEP_MAX_LINE - 1) {
        fail(m, "syntax", "line longer than %d bytes", MEP_MAX_LINE - 1);
        return 0;
    }
    while (lead < n && (line[lead] == ' ' || line[lead] == '\t'))
        lead++;
    if (lead < n && line[lead] == '#')
        return 0; /* a comment, whatever it holds: no answer */
    if ((bad = bad_byte(line, n)) >= 0) {
        unsigned char b = (unsigned char)line[bad];
        if (b == 0)
            fail(m, "syntax", "NUL byte at column %ld: lines are printable ASCII", bad + 1);
        else
            fail(m, "syntax", "byte 0x%02x at column %ld: lines are printable ASCII", b, bad + 1);
        return 0;
    }
    buf = xmalloc(n + 1);
    memcpy(buf, line, n);
    buf[n] = '\0';
    str_chomp(buf);
    argv = xmalloc(MAX_TOKENS * sizeof *argv);
    argc = str_split(buf, argv, MAX_TOKENS);
    if (argc == 0 || argv[0][0] == '#')
        goto out;
    if (argc == MAX_TOKENS) {
        fail(m, "syntax", "more than %d tokens on a line", MAX_TOKENS - 1);
        goto out;
    }
    for (size_t i = 0; i < ARRAY_LEN(commands); i++)
        if (strcmp(commands[i].name, argv[0]) == 0)
            c = &commands[i];
    if (!c) {
        char shown[64];
        snprintf(shown, sizeof shown, "%s", argv[0]);
        for (char *p = shown; *p; p++)
            if ((unsigned char)*p < 32 || (unsigned char)*p > 126)
                *p = '?';
        if (did_you_mean(argv[0]))
            fail(m, "unknown_command", "'%s' (did you mean %s?)", shown, did_you_mean(argv[0]));
        else
            fail(m, "unknown_command", "'%s' (try help)", shown);
        goto out;
    }
    /* perft and divide are for scripts: what follows them waits its turn */
    if (atomic_load(&m->busy) && !c->during_search && m->job != JOB_GO)
        join_worker(m);
    if (atomic_load(&m->busy) && !c->during_search) {
        fail(m, "busy", "a search is running: only stop, ponderhit, ping, isready, show, help, quit");
        goto out;
    }
    if (!atomic_load(&m->busy))
        join_worker(m);
    rc = c->fn(m, argc, argv) == 1;
out:
    free(argv);
    free(buf);
    return rc;
}
