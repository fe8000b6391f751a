/* client.c - controller side of MEP (see client.h). */
#include "client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int ref_client_send(struct ref_client *c, int64_t deadline_us,
                    const char *line)
{
    return ref_proc_send(&c->proc, deadline_us, line);
}

int ref_client_read(struct ref_client *c, int64_t deadline_us, char *line,
                    size_t n)
{
    return ref_proc_read(&c->proc, deadline_us, line, n);
}

/* Wait for a line starting with `kw` (rest in *arg); on `error` return
 * REF_ERROR when want_error.  Everything else is skipped. */
static int wait_for(struct ref_client *c, int64_t deadline_us, const char *kw,
                    int want_error, char *line, size_t n, char **arg)
{
    for (;;) {
        char *a;
        int r = ref_proc_read(&c->proc, deadline_us, line, n);
        if (r == REF_IO_TIMEOUT)
            return REF_TIMEOUT;
        if (r == REF_IO_EOF) {
            c->alive = 0;
            return REF_EOF;
        }
        if (strncmp(line, "info ", 5) == 0) {
            /* Remember the depth the engine reached (for the records). */
            char *d = strstr(line, " depth ");
            long v = d ? strtol(d + 7, NULL, 10) : 0;
            if (v > 0 && v < 10000)
                c->last_depth = (int)v;
        }
        if ((a = word2(line, kw)) != NULL) {
            if (arg)
                *arg = a;
            return REF_OK;
        }
        if (want_error && (a = word2(line, "error")) != NULL) {
            snprintf(c->last_error, sizeof c->last_error, "%s", a);
            return REF_ERROR;
        }
    }
}

static int send_or_eof(struct ref_client *c, int64_t deadline_us,
                       const char *line)
{
    if (ref_proc_send(&c->proc, deadline_us, line) < 0) {
        /* A full pipe is a stall; a closed one a crash. */
        if (ref_proc_exited(&c->proc) || c->proc.eof) {
            c->alive = 0;
            return REF_EOF;
        }
        return REF_TIMEOUT;
    }
    return REF_OK;
}

int ref_client_cmd(struct ref_client *c, int64_t deadline_us, const char *cmd)
{
    char line[REF_LINE_MAX];
    int r = send_or_eof(c, deadline_us, cmd);
    if (r != REF_OK)
        return r;
    return wait_for(c, deadline_us, "ok", 1, line, sizeof line, NULL);
}

int ref_client_sync(struct ref_client *c, int64_t deadline_us)
{
    char line[REF_LINE_MAX], want[32], *arg;
    int r;
    if (c->searching) {
        r = send_or_eof(c, deadline_us, "stop");
        if (r != REF_OK)
            return r;
    }
    snprintf(want, sizeof want, "ping %u", ++c->ping_seq);
    r = send_or_eof(c, deadline_us, want);
    if (r != REF_OK)
        return r;
    for (;;) {
        r = wait_for(c, deadline_us, "pong", 0, line, sizeof line, &arg);
        if (r != REF_OK)
            return r;
        if ((unsigned)strtoul(arg, NULL, 10) == c->ping_seq)
            break;
    }
    /* A bestmove that was due comes before the pong (MEP answers in
     * order), so the engine is idle now. */
    c->searching = 0;
    return REF_OK;
}

int ref_client_seed(struct ref_client *c, int64_t deadline_us, uint64_t seed)
{
    char cmd[96];
    uint64_t span, v;
    if (!c->has_seed)
        return REF_OK;
    span = (uint64_t)(c->seed_max - c->seed_min);
    v = span == UINT64_MAX ? seed : (uint64_t)c->seed_min + seed % (span + 1);
    snprintf(cmd, sizeof cmd, "setoption name Seed value %lld", (long long)v);
    return ref_client_cmd(c, deadline_us, cmd);
}

/* `option name Seed type spin default 0 min 0 max 2147483647` */
static void parse_option(struct ref_client *c, char *arg)
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

int ref_client_start(struct ref_client *c, const struct ref_engine_spec *s,
                     const char *logpath, int trace, int timeout_ms,
                     char *err, size_t n)
{
    char line[REF_LINE_MAX], *arg;
    char **argv = xcalloc((size_t)s->nargs + 2, sizeof *argv);
    int64_t t0, deadline;
    int r;

    memset(c, 0, sizeof *c);
    c->spec = s;
    argv[0] = s->cmd;
    for (int i = 0; i < s->nargs; i++)
        argv[i + 1] = s->args[i];
    r = ref_proc_start(&c->proc, argv, s->dir, logpath, trace, err, n);
    free(argv);
    if (r < 0)
        return REF_EOF;
    t0 = now_us();
    deadline = t0 + (int64_t)timeout_ms * 1000;
    if ((r = send_or_eof(c, deadline, "mep")) != REF_OK)
        goto fail;
    for (;;) {
        int io = ref_proc_read(&c->proc, deadline, line, sizeof line);
        if (io == REF_IO_TIMEOUT) {
            r = REF_TIMEOUT;
            goto fail;
        }
        if (io == REF_IO_EOF) {
            r = REF_EOF;
            goto fail;
        }
        if (strcmp(line, "mepok") == 0)
            break;
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
        r = ref_client_cmd(c, now_us() + (int64_t)timeout_ms * 1000, cmd);
        if (r == REF_ERROR) {
            set_err(err, n, 0, "%s: option %s=%s refused: %s", s->name,
                    s->opt_name[i], s->opt_val[i], c->last_error);
            ref_client_kill(c);
            return REF_ERROR;
        }
        if (r != REF_OK)
            goto fail;
    }
    deadline = now_us() + (int64_t)timeout_ms * 1000;
    if ((r = send_or_eof(c, deadline, "isready")) != REF_OK ||
        (r = wait_for(c, deadline, "readyok", 0, line, sizeof line, NULL)) !=
            REF_OK)
        goto fail;
    return REF_OK;
fail:
    set_err(err, n, 0, "%s: %s", s->name,
            r == REF_TIMEOUT ? "no answer in time during start-up (handshake)"
                             : "engine exited during start-up");
    ref_client_kill(c);
    return r;
}

int ref_client_go(struct ref_client *c, const char *limits,
                  int64_t deadline_us, char *move, size_t n,
                  int64_t *elapsed_us)
{
    char line[REF_LINE_MAX], cmd[512], *arg;
    int64_t t0;
    int r;
    snprintf(cmd, sizeof cmd, "go%s%s", *limits ? " " : "", limits);
    r = send_or_eof(c, deadline_us, cmd);
    t0 = now_us();
    if (r != REF_OK)
        return r;
    c->searching = 1;
    c->last_depth = 0;
    r = wait_for(c, deadline_us, "bestmove", 1, line, sizeof line, &arg);
    *elapsed_us = now_us() - t0;
    if (r == REF_OK || r == REF_ERROR)
        c->searching = 0;
    if (r == REF_OK) {
        char *sp = strpbrk(arg, " \t");
        size_t k = sp ? (size_t)(sp - arg) : strlen(arg);
        if (k >= n)
            k = n - 1;
        memcpy(move, arg, k);
        move[k] = '\0';
    }
    return r;
}

int ref_client_recover(struct ref_client *c, int64_t deadline_us)
{
    return ref_client_sync(c, deadline_us);
}

void ref_client_quit(struct ref_client *c)
{
    ref_proc_stop(&c->proc, 200);
    c->alive = 0;
}

void ref_client_kill(struct ref_client *c)
{
    ref_proc_kill(&c->proc);
    c->alive = 0;
}
