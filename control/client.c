/* client.c - controller side of MEP (see client.h). */
#include "client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/util.h"

static char *word2(char *line, const char *kw)
{
    size_t k = strlen(kw);
    if (strncmp(line, kw, k) != 0 || (line[k] != ' ' && line[k] != '\0' &&
                                      line[k] != '\t'))
        return NULL;
    line += k;
    while (*line == ' ' || *line == '\t')
        line++;
    return line;
}

int ctl_client_send(struct ctl_client *c, int64_t deadline_us,
                    const char *line)
{
    return ctl_proc_send(&c->proc, deadline_us, line);
}

int ctl_client_read(struct ctl_client *c, int64_t deadline_us, char *line,
                    size_t n)
{
    return ctl_proc_read(&c->proc, deadline_us, line, n);
}

int ctl_client_pollfds(const struct ctl_client *c, struct pollfd pf[2])
{
    return ctl_proc_pollfds(&c->proc, pf);
}

static void note_info(struct ctl_client *c, const char *line);
static int gone(struct ctl_client *c);

int ctl_client_take(struct ctl_client *c, char *line, size_t n)
{
    int r = ctl_proc_take(&c->proc, line, n);
    if (r == CTL_IO_LINE) {
        note_info(c, line);
        if (word2(line, "bestmove"))
            c->searching = 0;
    } else if (r == CTL_IO_EOF && c->alive)
        gone(c);
    return r;
}

/* The line as it came, made printable and short, for an error message. */
static void quote_line(char *dst, size_t n, const char *line)
{
    size_t k = 0;
    for (; *line && k + 4 < n; line++)
        dst[k++] = *line >= 32 && *line < 127 ? *line : '?';
    if (*line && n > 4) {
        memcpy(dst + (k < n - 4 ? k : n - 4), "...", 4);
        return;
    }
    dst[k < n ? k : n - 1] = '\0';
}

/* Is the first word of line a MEP keyword a controller reads, written
 * otherwise (`BESTMOVE`, `Ok`)?  Such a line is an engine error, not a line
 * to skip: skipping it would turn a readable intent into a time loss. */
static int miswritten(const char *line)
{
    static const char *const kw[] = {"mepok", "pong", "readyok", "ok",
                                     "error", "bestmove", NULL};
    size_t k = strcspn(line, " \t");
    for (int i = 0; kw[i]; i++)
        if (strlen(kw[i]) == k && strncasecmp(line, kw[i], k) == 0 &&
            strncmp(line, kw[i], k) != 0)
            return 1;
    return 0;
}

static int unreadable(struct ctl_client *c, const char *line)
{
    char q[160];
    quote_line(q, sizeof q, line);
    snprintf(c->last_error, sizeof c->last_error, "unreadable line '%s'", q);
    return CTL_ERROR;
}

static int gone(struct ctl_client *c)
{
    char why[64];
    /* The end of its output usually means the engine is exiting: give it
     * a moment, so the message can say how it ended. */
    for (int i = 0; i < 25 && !ctl_proc_exited(&c->proc); i++) {
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
    ctl_proc_exit_text(&c->proc, why, sizeof why);
    snprintf(c->last_error, sizeof c->last_error, "engine exited (%s)", why);
    c->alive = 0;
    return CTL_EOF;
}

/* The score of an info line: `score cp X`, `score win N`, `score loss N`
 * (for adjudication). */
static void info_score(struct ctl_client *c, const char *line)
{
    const char *p = strstr(line, " score ");
    char kind[8];
    long v;
    if (!p || sscanf(p + 7, "%7s %ld", kind, &v) != 2)
        return;
    if (strcmp(kind, "cp") == 0 && v > -CTL_SCORE_MATE && v < CTL_SCORE_MATE) {
        c->last_score = (int)v;
        c->last_mate = 0;
    } else if (strcmp(kind, "win") == 0 || strcmp(kind, "loss") == 0) {
        int win = kind[0] == 'w';
        c->last_score = win ? CTL_SCORE_MATE : -CTL_SCORE_MATE;
        c->last_mate = (v < 1 ? 1 : v > 99999 ? 99999 : (int)v) * (win ? 1 : -1);
    } else
        return;
    c->has_score = 1;
}

/* Remember the depth and score of an info line (for the records and
 * adjudication). */
static void note_info(struct ctl_client *c, const char *line)
{
    if (strncmp(line, "info ", 5) == 0) {
        const char *d = strstr(line, " depth ");
        long v = d ? strtol(d + 7, NULL, 10) : 0;
        if (v > 0 && v < 10000)
            c->last_depth = (int)v;
        info_score(c, line);
    }
}

/* Wait for a line starting with `kw` (rest in *arg); on `error` return
 * CTL_ERROR when want_error, and on a miswritten keyword always.
 * Everything else is skipped. */
static int wait_for(struct ctl_client *c, int64_t deadline_us, const char *kw,
                    int want_error, char *line, size_t n, char **arg)
{
    for (;;) {
        char *a;
        int r = ctl_proc_read(&c->proc, deadline_us, line, n);
        if (r == CTL_IO_TIMEOUT)
            return CTL_TIMEOUT;
        if (r == CTL_IO_EOF)
            return gone(c);
        note_info(c, line);
        if ((a = word2(line, kw)) != NULL) {
            if (arg)
                *arg = a;
            return CTL_OK;
        }
        if (want_error && (a = word2(line, "error")) != NULL) {
            snprintf(c->last_error, sizeof c->last_error, "%s", a);
            return CTL_ERROR;
        }
        if (miswritten(line))
            return unreadable(c, line);
    }
}

static int send_or_eof(struct ctl_client *c, int64_t deadline_us,
                       const char *line)
{
    if (ctl_proc_send(&c->proc, deadline_us, line) < 0) {
        /* A full pipe is a stall; a closed one a crash. */
        if (ctl_proc_exited(&c->proc) || c->proc.eof)
            return gone(c);
        return CTL_TIMEOUT;
    }
    return CTL_OK;
}

int ctl_client_cmd(struct ctl_client *c, int64_t deadline_us, const char *cmd)
{
    char line[CTL_LINE_MAX];
    int r = send_or_eof(c, deadline_us, cmd);
    if (r != CTL_OK)
        return r;
    return wait_for(c, deadline_us, "ok", 1, line, sizeof line, NULL);
}

int ctl_client_query(struct ctl_client *c, int64_t deadline_us,
                     const char *cmd, char *payload, size_t pn)
{
    char line[CTL_LINE_MAX], *a;
    size_t len = 0;
    int r = send_or_eof(c, deadline_us, cmd);
    if (pn)
        payload[0] = '\0';
    if (r != CTL_OK)
        return r;
    for (;;) {
        r = ctl_proc_read(&c->proc, deadline_us, line, sizeof line);
        if (r == CTL_IO_TIMEOUT)
            return CTL_TIMEOUT;
        if (r == CTL_IO_EOF)
            return gone(c);
        note_info(c, line);
        if (word2(line, "ok"))
            return CTL_OK;
        if ((a = word2(line, "error")) != NULL) {
            snprintf(c->last_error, sizeof c->last_error, "%s", a);
            return CTL_ERROR;
        }
        if (miswritten(line))
            return unreadable(c, line);
        if (pn && strncmp(line, "info ", 5) != 0)
            buf_printf(payload, pn, &len, "%s%s", len ? "\n" : "", line);
    }
}

int ctl_is_final(const char *line)
{
    static const char *const fin[] = {"ok", "error", "bestmove", "pong",
                                      "readyok", "mepok"};
    for (size_t i = 0; i < sizeof fin / sizeof *fin; i++) {
        size_t n = strlen(fin[i]);
        if (strncmp(line, fin[i], n) == 0 &&
            (line[n] == '\0' || line[n] == ' '))
            return 1;
    }
    return 0;
}

int ctl_client_sync(struct ctl_client *c, int64_t deadline_us)
{
    char line[CTL_LINE_MAX], want[32], *arg;
    int r;
    if (c->searching) {
        r = send_or_eof(c, deadline_us, "stop");
        if (r != CTL_OK)
            return r;
    }
    snprintf(want, sizeof want, "ping %u", ++c->ping_seq);
    r = send_or_eof(c, deadline_us, want);
    if (r != CTL_OK)
        return r;
    for (;;) {
        r = wait_for(c, deadline_us, "pong", 0, line, sizeof line, &arg);
        if (r != CTL_OK)
            return r;
        if ((unsigned)strtoul(arg, NULL, 10) == c->ping_seq)
            break;
    }
    /* A bestmove that was due comes before the pong (MEP answers in
     * order), so the engine is idle now. */
    c->searching = 0;
    return CTL_OK;
}

int ctl_client_seed(struct ctl_client *c, int64_t deadline_us, uint64_t seed)
{
    char cmd[96];
    uint64_t span, v;
    if (!c->has_seed)
        return CTL_OK;
    span = (uint64_t)(c->seed_max - c->seed_min);
    v = span == UINT64_MAX ? seed : (uint64_t)c->seed_min + seed % (span + 1);
    snprintf(cmd, sizeof cmd, "setoption name Seed value %lld", (long long)v);
    return ctl_client_cmd(c, deadline_us, cmd);
}

/* `option name Seed type spin default 0 min 0 max 2147483647` */
static void parse_option(struct ctl_client *c, char *arg)
{
    char *tok[32];
    int nt = str_split(arg, tok, 32);
    if (nt < 2 || strcmp(tok[0], "name") != 0 || !str_ieq(tok[1], "Seed"))
        return;
    c->has_seed = 1;
    c->seed_min = 0;
    c->seed_max = INT64_MAX;
    for (int i = 2; i + 1 < nt; i++) {
        int64_t v;
        if (strcmp(tok[i], "min") == 0 &&
            parse_i64(tok[i + 1], INT64_MIN, INT64_MAX, &v) == 0)
            c->seed_min = v;
        if (strcmp(tok[i], "max") == 0 &&
            parse_i64(tok[i + 1], INT64_MIN, INT64_MAX, &v) == 0)
            c->seed_max = v;
    }
    if (c->seed_max < c->seed_min)
        c->seed_max = c->seed_min;
}

int ctl_client_start(struct ctl_client *c, const struct ctl_engine_spec *s,
                     const struct ctl_proc_opts *o, int timeout_ms,
                     char *err, size_t n)
{
    char line[CTL_LINE_MAX], *arg;
    char **argv = xcalloc((size_t)s->nargs + 2, sizeof *argv);
    struct ctl_proc_opts po = {0};
    int64_t t0, deadline;
    int r;

    memset(c, 0, sizeof *c);
    c->spec = s;
    argv[0] = s->cmd;
    for (int i = 0; i < s->nargs; i++)
        argv[i + 1] = s->args[i];
    if (o)
        po = *o;
    if (s->dir)
        po.dir = s->dir;
    r = ctl_proc_start(&c->proc, argv, &po, c->last_error,
                       sizeof c->last_error);
    free(argv);
    if (r < 0) {
        set_err(err, n, 0, "%s: %s", s->name, c->last_error);
        return CTL_EOF;
    }
    t0 = now_us();
    deadline = t0 + (int64_t)timeout_ms * 1000;
    if ((r = send_or_eof(c, deadline, "mep")) != CTL_OK)
        goto fail;
    for (;;) {
        int io = ctl_proc_read(&c->proc, deadline, line, sizeof line);
        if (io == CTL_IO_TIMEOUT) {
            r = CTL_TIMEOUT;
            goto fail;
        }
        if (io == CTL_IO_EOF) {
            r = gone(c);
            goto fail;
        }
        if (strcmp(line, "mepok") == 0)
            break;
        if (miswritten(line)) {
            r = unreadable(c, line);
            goto fail;
        }
        if ((arg = word2(line, "id")) && (arg = word2(arg, "name")))
            snprintf(c->id_name, sizeof c->id_name, "%s", arg);
        else if ((arg = word2(line, "game"))) {
            char *sp = strpbrk(arg, " \t");
            size_t k = sp ? (size_t)(sp - arg) : strlen(arg);
            if (k >= sizeof c->game)
                k = sizeof c->game - 1;
            memcpy(c->game, arg, k);
            c->game[k] = '\0';
        } else if ((arg = word2(line, "option")))
            parse_option(c, arg);
    }
    c->handshake_us = now_us() - t0;
    c->alive = 1;
    for (int i = 0; i < s->nopts; i++) {
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "setoption name %s value %s",
                 s->opt_name[i], s->opt_val[i]);
        r = ctl_client_cmd(c, now_us() + (int64_t)timeout_ms * 1000, cmd);
        if (r == CTL_ERROR) {
            set_err(err, n, 0, "%s: option %s=%s refused: %s", s->name,
                    s->opt_name[i], s->opt_val[i], c->last_error);
            ctl_client_kill(c);
            return CTL_ERROR;
        }
        if (r != CTL_OK)
            goto fail;
    }
    deadline = now_us() + (int64_t)timeout_ms * 1000;
    if ((r = send_or_eof(c, deadline, "isready")) != CTL_OK ||
        (r = wait_for(c, deadline, "readyok", 0, line, sizeof line, NULL)) !=
            CTL_OK)
        goto fail;
    return CTL_OK;
fail:
    if (r == CTL_TIMEOUT)
        set_err(err, n, 0, "%s: no answer in time during start-up (handshake)",
                s->name);
    else
        set_err(err, n, 0, "%s: %s during start-up", s->name,
                r == CTL_EOF && !*c->last_error ? "engine exited"
                                                : c->last_error);
    ctl_client_kill(c);
    return r;
}

/* The bestmove of a go, until deadline; with c->cancel, in slices of
 * CTL_CANCEL_POLL_MS, sending `stop` once the flag is set. */
static int wait_bestmove(struct ctl_client *c, int64_t deadline_us, char *line,
                         size_t n, char **arg)
{
    int stopped = 0;
    for (;;) {
        int64_t until = deadline_us;
        int r;
        if (c->cancel && !stopped) {
            if (atomic_load(c->cancel)) {
                stopped = 1;
                r = send_or_eof(c, deadline_us, "stop");
                if (r != CTL_OK)
                    return r;
                continue;
            }
            if (now_us() + CTL_CANCEL_POLL_MS * 1000 < until)
                until = now_us() + CTL_CANCEL_POLL_MS * 1000;
        }
        r = wait_for(c, until, "bestmove", 1, line, n, arg);
        if (r != CTL_TIMEOUT || until == deadline_us)
            return r;
    }
}

/* The move (and the ponder move) of the bestmove line whose argument is
 * arg. */
static void split_bestmove(struct ctl_client *c, char *arg, char *move,
                           size_t n)
{
    char *sp = strpbrk(arg, " \t"), *pm;
    size_t k = sp ? (size_t)(sp - arg) : strlen(arg);
    if (k >= n)
        k = n - 1;
    memcpy(move, arg, k);
    move[k] = '\0';
    c->ponder[0] = '\0';
    if (sp && (pm = word2(sp + strspn(sp, " \t"), "ponder")) != NULL && *pm) {
        k = strcspn(pm, " \t");
        if (k >= sizeof c->ponder)
            k = 0; /* absurd: no ponder move rather than a cut one */
        memcpy(c->ponder, pm, k);
        c->ponder[k] = '\0';
    }
}

/* Send cmd (go ... or ponderhit) and wait for its bestmove. */
static int cmd_bestmove(struct ctl_client *c, const char *cmd, int fresh,
                        int64_t deadline_us, char *move, size_t n,
                        int64_t *elapsed_us)
{
    char line[CTL_LINE_MAX], *arg;
    int64_t t0;
    int r = send_or_eof(c, deadline_us, cmd);
    t0 = now_us();
    if (r != CTL_OK)
        return r;
    c->searching = 1;
    c->ponder[0] = '\0';
    if (fresh) {
        c->last_depth = 0;
        c->has_score = 0;
        c->last_mate = 0;
    }
    r = wait_bestmove(c, deadline_us, line, sizeof line, &arg);
    *elapsed_us = now_us() - t0;
    if (r == CTL_OK || r == CTL_ERROR)
        c->searching = 0;
    if (r == CTL_OK && !*arg)
        r = unreadable(c, line); /* `bestmove` without a move */
    if (r == CTL_OK)
        split_bestmove(c, arg, move, n);
    return r;
}

int ctl_client_go(struct ctl_client *c, const char *limits,
                  int64_t deadline_us, char *move, size_t n,
                  int64_t *elapsed_us)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "go%s%s", *limits ? " " : "", limits);
    return cmd_bestmove(c, cmd, 1, deadline_us, move, n, elapsed_us);
}

/* Lines that arrived during a ponder search, before ponderhit/stop: info
 * lines are noted, a bestmove is a protocol error (1), the rest skipped. */
static int early_bestmove(struct ctl_client *c)
{
    char line[CTL_LINE_MAX];
    int r;
    while ((r = ctl_proc_take(&c->proc, line, sizeof line)) == CTL_IO_LINE) {
        note_info(c, line);
        if (word2(line, "bestmove")) {
            char q[160];
            quote_line(q, sizeof q, line);
            snprintf(c->last_error, sizeof c->last_error,
                     "'%s' during go ponder, before ponderhit or stop", q);
            c->searching = 0;
            return 1;
        }
    }
    return 0;
}

int ctl_client_ponderhit(struct ctl_client *c, int64_t deadline_us,
                         char *move, size_t n, int64_t *elapsed_us)
{
    *elapsed_us = 0;
    if (early_bestmove(c))
        return CTL_ERROR;
    return cmd_bestmove(c, "ponderhit", 0, deadline_us, move, n, elapsed_us);
}

int ctl_client_stop_ponder(struct ctl_client *c, int64_t deadline_us,
                           char *move, size_t n, int64_t *elapsed_us,
                           int *early)
{
    char line[CTL_LINE_MAX], *arg;
    int64_t t0;
    int r;
    *elapsed_us = 0;
    if (early)
        *early = 0;
    if (early_bestmove(c)) {
        if (early)
            *early = 1;
        return CTL_ERROR;
    }
    r = send_or_eof(c, deadline_us, "stop");
    t0 = now_us();
    if (r != CTL_OK)
        return r;
    r = wait_for(c, deadline_us, "bestmove", 1, line, sizeof line, &arg);
    *elapsed_us = now_us() - t0;
    if (r == CTL_OK || r == CTL_ERROR)
        c->searching = 0;
    if (r == CTL_OK)
        split_bestmove(c, arg, move, n);
    return r;
}

int ctl_client_go_async(struct ctl_client *c, int64_t deadline_us,
                        const char *limits)
{
    char cmd[512];
    int r;
    snprintf(cmd, sizeof cmd, "go%s%s", *limits ? " " : "", limits);
    r = send_or_eof(c, deadline_us, cmd);
    if (r == CTL_OK) {
        c->searching = 1;
        c->last_depth = 0;
        c->has_score = 0;
        c->last_mate = 0;
    }
    return r;
}

int ctl_client_recover(struct ctl_client *c, int64_t deadline_us)
{
    return ctl_client_sync(c, deadline_us);
}

void ctl_client_quit(struct ctl_client *c)
{
    ctl_proc_stop(&c->proc, 200);
    c->alive = 0;
}

void ctl_client_kill(struct ctl_client *c)
{
    ctl_proc_kill(&c->proc);
    c->alive = 0;
}
