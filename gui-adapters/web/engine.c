/* engine.c - medan-web's engines on the shared MEP controller (engine.h). */
#include "engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "control/client.h"

struct web_eng {
    struct ctl_client c;
    struct ctl_engine_spec spec;   /* the client points at it */
    char *opt_name[18], *opt_val[18];
    char strategy[32], threads[16];
    char ponder[96];               /* the last bestmove's ponder move */
    int running;
    int pondering;                 /* a go ponder is out */
};

struct web_eng *web_eng_new(void)
{
    struct web_eng *e = xcalloc(1, sizeof *e);
    ctl_proc_init(&e->c.proc);
    return e;
}

void web_eng_free(struct web_eng *e)
{
    if (!e)
        return;
    web_eng_stop(e);
    free(e);
}

int web_eng_running(const struct web_eng *e)
{
    return e && e->running && e->c.alive;
}

int web_eng_pid(const struct web_eng *e)
{
    return web_eng_running(e) ? (int)e->c.proc.pid : 0;
}

static const char *rc_text(const struct web_eng *e, int r)
{
    return r == CTL_TIMEOUT ? "no answer in time" : e->c.last_error;
}

int web_eng_start(struct web_eng *e, const struct web_engine_cfg *cfg,
                  const char *strategy, int threads, char *err, size_t n)
{
    int k = 0, r;

    web_eng_stop(e);
    memset(&e->spec, 0, sizeof e->spec);
    e->spec.name = cfg->name;
    e->spec.cmd = cfg->cmd;
    e->spec.args = (char **)cfg->args;
    e->spec.nargs = cfg->nargs;
    for (int i = 0; i < cfg->nopts && k < 16; i++, k++) {
        e->opt_name[k] = cfg->opt_name[i];
        e->opt_val[k] = cfg->opt_val[i];
    }
    if (strategy && *strategy) {
        snprintf(e->strategy, sizeof e->strategy, "%s", strategy);
        e->opt_name[k] = "Strategy";
        e->opt_val[k++] = e->strategy;
    }
    if (cfg->threads_max > 0 && threads >= 1) {
        snprintf(e->threads, sizeof e->threads, "%d", threads);
        e->opt_name[k] = "Threads";
        e->opt_val[k++] = e->threads;
    }
    e->spec.opt_name = e->opt_name;
    e->spec.opt_val = e->opt_val;
    e->spec.nopts = k;
    r = ctl_client_start(&e->c, &e->spec, NULL, 10000, err, n);
    if (r != CTL_OK) {
        if (!*err)
            snprintf(err, n, "%s: %s", cfg->name, rc_text(e, r));
        ctl_client_kill(&e->c);
        return -1;
    }
    e->running = 1;
    return 0;
}

int web_eng_cmd(struct web_eng *e, const char *cmd, int timeout_ms, char *err,
                size_t n)
{
    int r;
    if (!web_eng_running(e)) {
        snprintf(err, n, "engine not running");
        return -1;
    }
    r = ctl_client_cmd(&e->c, now_us() + (int64_t)timeout_ms * 1000, cmd);
    if (r == CTL_OK)
        return 0;
    snprintf(err, n, "%s", rc_text(e, r));
    if (r != CTL_ERROR)
        web_eng_stop(e);
    return -1;
}

static int starts(const char *line, const char *kw)
{
    size_t k = strlen(kw);
    return strncmp(line, kw, k) == 0 && (line[k] == ' ' || line[k] == '\0');
}

/* Wait for the bestmove of a stopped search (it comes within a few ms). */
static int drain(struct web_eng *e, char *line, size_t n)
{
    int64_t dl = now_us() + 5000000;
    for (;;) {
        int io = ctl_client_read(&e->c, dl, line, n);
        if (io != CTL_IO_LINE)
            return -1;
        if (starts(line, "bestmove") || starts(line, "error"))
            return 0;
    }
}

/* Stop the search and wait for its bestmove in `line` (CTL_LINE_MAX);
 * -1 when the engine is gone. */
static int stop_search(struct web_eng *e, char *line)
{
    ctl_client_send(&e->c, now_us() + 1000000, "stop");
    return drain(e, line, CTL_LINE_MAX);
}

int web_cores(void)
{
    long k = sysconf(_SC_NPROCESSORS_ONLN);
    return k < 1 ? 1 : k > 4096 ? 4096 : (int)k;
}

/* Send cmd (`go ...` or `ponderhit`) and wait for its bestmove. */
static int go_cmd(struct web_eng *e, const char *cmd, int64_t max_ms,
                  web_info_fn fn, void *ctx, char *move, size_t mn, char *err,
                  size_t en)
{
    char *buf;
    int64_t hard = max_ms > 0 ? now_us() + max_ms * 1000 : 0;
    int stopped = 0;

    *move = '\0';
    e->ponder[0] = '\0';
    e->pondering = 0;
    if (!web_eng_running(e)) {
        snprintf(err, en, "engine not running");
        return WEB_GO_CRASHED;
    }
    buf = xmalloc(CTL_LINE_MAX);
    if (ctl_client_send(&e->c, now_us() + 5000000, cmd) < 0)
        goto crashed;
    for (;;) {
        int64_t now = now_us(), dl = now + 50000;
        int io;
        if (hard && dl > hard)
            dl = hard;
        io = ctl_client_read(&e->c, dl, buf, CTL_LINE_MAX);
        if (io == CTL_IO_EOF)
            goto crashed;
        if (io == CTL_IO_TIMEOUT) {
            if (hard && now_us() >= hard) {
                if (stop_search(e, buf) < 0) {
                    snprintf(err, en, "no bestmove in time; engine killed");
                    web_eng_stop(e);
                    free(buf);
                    return WEB_GO_TIMEOUT;
                }
                if (starts(buf, "bestmove"))
                    break;
                continue;
            }
            if (!stopped && fn && fn(ctx, NULL)) {
                stopped = 1;
                if (stop_search(e, buf) < 0)
                    goto crashed;
                free(buf);
                return WEB_GO_CANCELLED;
            }
            continue;
        }
        if (starts(buf, "info")) {
            if (fn && !stopped && fn(ctx, buf)) {
                stopped = 1;
                if (stop_search(e, buf) < 0)
                    goto crashed;
                free(buf);
                return WEB_GO_CANCELLED;
            }
        } else if (starts(buf, "bestmove")) {
            break;
        } else if (starts(buf, "error")) {
            snprintf(err, en, "%s", buf);
            free(buf);
            return WEB_GO_ERROR;
        }
    }
    {
        const char *p = buf + 8;
        size_t k;
        while (*p == ' ')
            p++;
        k = strcspn(p, " \t");
        if (k >= mn)
            k = mn - 1;
        memcpy(move, p, k);
        move[k] = '\0';
        p += strcspn(p, " \t");
        while (*p == ' ' || *p == '\t')
            p++;
        if (starts(p, "ponder")) {
            p += 6;
            while (*p == ' ')
                p++;
            k = strcspn(p, " \t");
            if (k < sizeof e->ponder) {
                memcpy(e->ponder, p, k);
                e->ponder[k] = '\0';
            }
        }
    }
    free(buf);
    return WEB_GO_OK;
crashed:
    {
        char why[96];
        ctl_proc_exit_text(&e->c.proc, why, sizeof why);
        snprintf(err, en, "engine exited (%s)", why);
    }
    web_eng_stop(e);
    free(buf);
    return WEB_GO_CRASHED;
}

int web_eng_go(struct web_eng *e, const char *limits, int64_t max_ms,
               web_info_fn fn, void *ctx, char *move, size_t mn, char *err,
               size_t en)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "go%s%s", *limits ? " " : "", limits);
    return go_cmd(e, cmd, max_ms, fn, ctx, move, mn, err, en);
}

const char *web_eng_ponder_move(const struct web_eng *e)
{
    return e ? e->ponder : "";
}

int web_eng_pondering(const struct web_eng *e)
{
    return web_eng_running(e) && e->pondering;
}

int web_eng_ponder_start(struct web_eng *e, const char *pos, const char *limits,
                         char *err, size_t n)
{
    char cmd[600];
    int r;
    if (web_eng_cmd(e, pos, 10000, err, n) < 0)
        return -1;
    snprintf(cmd, sizeof cmd, "ponder%s%s", *limits ? " " : "", limits);
    r = ctl_client_go_async(&e->c, now_us() + 5000000, cmd);
    if (r != CTL_OK) {
        snprintf(err, n, "go ponder: %s", rc_text(e, r));
        web_eng_stop(e);
        return -1;
    }
    e->pondering = 1;
    return 0;
}

int web_eng_ponderhit(struct web_eng *e, int64_t max_ms, web_info_fn fn,
                      void *ctx, char *move, size_t mn, char *err, size_t en)
{
    if (web_eng_ponder_poll(e, err, en) < 0) {
        *move = '\0';
        return WEB_GO_CRASHED;
    }
    return go_cmd(e, "ponderhit", max_ms, fn, ctx, move, mn, err, en);
}

int web_eng_ponder_stop(struct web_eng *e)
{
    char err[WEB_ENG_ERR], *line;
    int r;
    if (!web_eng_pondering(e)) {
        if (e)
            e->pondering = 0;
        return 0;
    }
    if (web_eng_ponder_poll(e, err, sizeof err) < 0)
        return -1;
    line = xmalloc(CTL_LINE_MAX);
    e->pondering = 0;
    r = stop_search(e, line);
    free(line);
    if (r < 0) {
        web_eng_stop(e);
        return -1;
    }
    return 0;
}

int web_eng_ponder_poll(struct web_eng *e, char *err, size_t n)
{
    char *line;
    int r = 0;
    if (!web_eng_pondering(e))
        return 0;
    line = xmalloc(CTL_LINE_MAX);
    for (;;) {
        int io = ctl_client_take(&e->c, line, CTL_LINE_MAX);
        if (io == CTL_IO_NONE)
            break;
        if (io != CTL_IO_LINE) {
            snprintf(err, n, "engine exited while pondering");
            r = -1;
            break;
        }
        if (starts(line, "bestmove") || starts(line, "error")) {
            snprintf(err, n, "'%.60s' during go ponder, before ponderhit or stop",
                     line);
            r = -1;
            break;
        }
    }
    free(line);
    if (r < 0) {
        e->pondering = 0;
        web_eng_stop(e);
    }
    return r;
}

void web_eng_stop(struct web_eng *e)
{
    if (!e || !e->running)
        return;
    if (e->pondering && e->c.alive) {
        /* a ponder search ends with stop before quit */
        char *line = xmalloc(CTL_LINE_MAX);
        e->pondering = 0;
        stop_search(e, line);
        free(line);
    }
    e->pondering = 0;
    if (e->c.alive)
        ctl_client_quit(&e->c);
    else
        ctl_client_kill(&e->c);
    e->running = 0;
}

int web_eng_probe(struct web_engine_cfg *cfg, char *err, size_t n)
{
    struct ctl_proc p;
    char *argv[18], *line = xmalloc(CTL_LINE_MAX);
    int64_t dl;
    int rc = -1;

    ctl_proc_init(&p);
    argv[0] = cfg->cmd;
    for (int i = 0; i < cfg->nargs && i < 16; i++)
        argv[i + 1] = cfg->args[i];
    argv[cfg->nargs + 1] = NULL;
    if (ctl_proc_start(&p, argv, NULL, err, n) < 0) {
        free(line);
        return -1;
    }
    dl = now_us() + 10000000;
    if (ctl_proc_send(&p, dl, "mep") < 0) {
        snprintf(err, n, "%s: does not read its input", cfg->cmd);
        goto out;
    }
    cfg->nstrategies = 0;
    cfg->threads_max = 0;
    for (;;) {
        int io = ctl_proc_read(&p, dl, line, CTL_LINE_MAX);
        if (io != CTL_IO_LINE) {
            snprintf(err, n, "%s: no mepok (%s)", cfg->cmd,
                     io == CTL_IO_EOF ? "it exited" : "timeout");
            goto out;
        }
        if (strcmp(line, "mepok") == 0)
            break;
        if (strncmp(line, "option name Threads type spin ", 30) == 0) {
            const char *mx = strstr(line, " max ");
            long v = mx ? strtol(mx + 5, NULL, 10) : 0;
            cfg->threads_max = v >= 1 && v <= 4096 ? (int)v : 0;
            /* never more threads than the machine has cores: a page (or a
             * match) asking for 256 would only slow every game down */
            if (cfg->threads_max > web_cores())
                cfg->threads_max = web_cores();
        }
        if (strncmp(line, "option name Strategy ", 21) == 0) {
            char *v = line;
            while ((v = strstr(v, " var ")) != NULL &&
                   cfg->nstrategies < WEB_MAX_STRATEGIES) {
                size_t k;
                v += 5;
                k = strcspn(v, " ");
                if (k < sizeof cfg->strategies[0]) {
                    memcpy(cfg->strategies[cfg->nstrategies], v, k);
                    cfg->strategies[cfg->nstrategies++][k] = '\0';
                }
            }
        }
    }
    cfg->probed = 1;
    rc = 0;
out:
    ctl_proc_stop(&p, 500);
    free(line);
    return rc;
}

void web_eng_kill_all(void)
{
    ctl_proc_kill_all();
}
