/* check.c - `medan-referee check`: a conformance battery for any MEP
 * engine, printed as a pass/fail table (docs/referee.md lists the items).
 * Latency items have a strict bound (the figure users are promised) and a
 * behaviour bound (the answer came at all); with `--latency report` a
 * figure between the two is printed as SLOW and does not fail the run, so
 * tests on a busy machine assert the behaviour and still show the figure.
 * An answer missing after slack_ms (3 s; 10 s with report) fails. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "core/util.h"

struct chk {
    struct ref_match *m;
    struct ctl_client *c;
    int pass, fail, slow, strict;
    int slack_ms; /* how long an answer may take before it counts as missing */
};

static void report(struct chk *k, int ok, const char *what, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void report(struct chk *k, int ok, const char *what, const char *fmt, ...)
{
    va_list ap;
    printf("%-4s  %-34s ", ok ? "PASS" : "FAIL", what);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
    if (ok)
        k->pass++;
    else
        k->fail++;
}

/* A latency item: ok is the behaviour (the answer came within the
 * generous deadline), us the time taken, bound_us the strict bound. */
static void report_latency(struct chk *k, int ok, int64_t us, int64_t bound_us,
                           const char *what, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static void report_latency(struct chk *k, int ok, int64_t us, int64_t bound_us,
                           const char *what, const char *fmt, ...)
{
    va_list ap;
    const char *tag = !ok ? "FAIL" : us <= bound_us ? "PASS" : k->strict ? "FAIL" : "SLOW";
    printf("%-4s  %-34s ", tag, what);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
    if (tag[0] == 'P')
        k->pass++;
    else if (tag[0] == 'F')
        k->fail++;
    else
        k->slow++;
}

/* Send cmd and read until a line starting with one of the final words
 * (space separated list); the final line goes to out.  1 found, 0 not. */
static int ask(struct chk *k, const char *cmd, const char *finals, int ms,
               char *out, size_t n)
{
    int64_t dl = now_us() + (int64_t)ms * 1000;
    if (cmd && ctl_client_send(k->c, dl, cmd) < 0)
        return 0;
    for (;;) {
        char f[128], *w, *save;
        if (ctl_client_read(k->c, dl, out, n) != CTL_IO_LINE)
            return 0;
        snprintf(f, sizeof f, "%s", finals);
        for (w = strtok_r(f, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
            size_t l = strlen(w);
            if (strncmp(out, w, l) == 0 && (out[l] == ' ' || !out[l]))
                return 1;
        }
    }
}

static int legal(const struct game *g, const void *st, const char *line,
                 gmove *mv)
{
    char tok[128], err[GAME_ERR_LEN];
    if (sscanf(line, "bestmove %127s", tok) != 1)
        return 0;
    return g->parse_move(st, tok, mv, err, sizeof err) == GAME_OK;
}

/* The position command for st (view for hidden games). */
static void pos_cmd(const struct ref_match *m, const void *st, const char *moves,
                    char *out, size_t n)
{
    if (m->g->view) {
        game_state_buf v;
        char fen[CTL_LINE_MAX];
        m->g->view(st, m->g->to_move(st), v.b);
        m->g->format_pos(v.b, fen, sizeof fen);
        size_t len = 0;
        buf_printf(out, n, &len, "position fen %s", fen);
    } else {
        size_t len = 0;
        buf_printf(out, n, &len, "position start%s%s", *moves ? " moves" : "", moves);
    }
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* Time use: `go movetime M` for each M of tu, tu->n times each, from the
 * start and from positions along the short game (moves, plies_len[i] = the
 * length of its first i plies).  A report of the bestmove latency (median
 * and max, in ms and as a share of M), not a wall-clock test: only a gross
 * overrun (over 2 * M + 1 s, or no legal answer) fails. */
static void time_use(struct chk *k, const void *st0, const char *moves,
                     const size_t *plies_len, int nplies, const struct ref_time_use *tu)
{
    const struct ref_match *m = k->m;
    const struct game *g = m->g;
    static char line[CTL_LINE_MAX], cmd[CTL_LINE_MAX], pre[CTL_LINE_MAX];
    int64_t *lat = xcalloc((size_t)tu->n, sizeof *lat);
    for (int i = 0; i < tu->nms; i++) {
        int64_t mt = tu->ms[i], gross = (2 * mt + 1000) * 1000, worst = 0;
        int done = 0, good = 1;
        char why[200] = "";
        for (int j = 0; j < tu->n && good; j++) {
            /* positions along the game (the start for hidden information,
             * whose states the game did not keep) */
            int ply = m->hidden || nplies <= 0 ? 0 : (j * 4) % (nplies + 1);
            game_state_buf s2;
            gmove mv;
            memcpy(s2.b, st0, g->state_size);
            snprintf(pre, sizeof pre, "%.*s", (int)plies_len[ply], moves);
            if (!m->hidden) {
                char tmp[CTL_LINE_MAX], *tok, *save;
                snprintf(tmp, sizeof tmp, "%s", pre);
                for (tok = strtok_r(tmp, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
                    char err[GAME_ERR_LEN];
                    if (g->parse_move(s2.b, tok, &mv, err, sizeof err) != GAME_OK)
                        break; /* cannot happen: the game's own tokens */
                    g->play(s2.b, mv);
                }
            }
            pos_cmd(m, s2.b, pre, cmd, sizeof cmd);
            if (!ask(k, cmd, "ok error", k->slack_ms, line, sizeof line) ||
                strcmp(line, "ok") != 0) {
                good = 0;
                snprintf(why, sizeof why, "position: '%.60s'", line);
                break;
            }
            snprintf(cmd, sizeof cmd, "go movetime %lld", (long long)mt);
            int64_t t0 = now_us();
            int ok = ask(k, cmd, "bestmove error", (int)(2 * mt + 1000) + k->slack_ms, line,
                         sizeof line);
            lat[done] = now_us() - t0;
            if (!ok || !legal(g, s2.b, line, &mv)) {
                good = 0;
                snprintf(why, sizeof why, "%.60s", ok ? line : "no bestmove");
                if (!ok) { /* get the engine back for what follows */
                    ask(k, "stop", "bestmove", k->slack_ms, line, sizeof line);
                }
                break;
            }
            if (lat[done] > worst)
                worst = lat[done];
            done++;
            if (worst > gross) {
                good = 0;
                snprintf(why, sizeof why, "over 2 x %lld ms + 1 s", (long long)mt);
            }
        }
        char what[64];
        snprintf(what, sizeof what, "time use, go movetime %lld", (long long)mt);
        if (done == 0) {
            report(k, 0, what, "%s", why);
            continue;
        }
        qsort(lat, (size_t)done, sizeof *lat, cmp_i64);
        int64_t med = done % 2 ? lat[done / 2] : (lat[done / 2 - 1] + lat[done / 2]) / 2;
        report(k, good, what, "median %.1f ms (%.0f%%), max %.1f ms (%.0f%%), %d moves%s%s",
               med / 1000.0, 100.0 * med / (mt * 1000.0), worst / 1000.0,
               100.0 * worst / (mt * 1000.0), done, good ? "" : "; ", why);
    }
    free(lat);
}

/* The ponder exchange (docs/protocol.md, "Pondering"), for two-seat games
 * of perfect information: the position after two plies (the engine's move
 * and the reply it expects), `go ponder` with clocks; no bestmove before
 * ponderhit, ping answered, ponderhit -> a legal bestmove within the clock;
 * again, then stop -> a bestmove promptly (its latency against the 50 ms of
 * stop, a report under --latency report). */
static void ponder_items(struct chk *k, const void *st0)
{
    const struct ref_match *m = k->m;
    const struct game *g = m->g;
    static char line[CTL_LINE_MAX], cmd[CTL_LINE_MAX];
    const int64_t clock_ms = 3000;
    game_state_buf s2;
    char moves[300] = "", go[200];
    size_t len = 0;
    int64_t t0, dt;
    int ok;
    gmove mv;

    if (m->nseats != 2 || m->hidden) {
        printf("----  %-34s %s\n", "ponder exchange",
               "not checked: the referee ponders in two-seat games of perfect "
               "information only");
        return;
    }
    memcpy(s2.b, st0, g->state_size);
    for (int ply = 0; ply < 2; ply++) {
        /* the first legal move that does not end the game (Palagan's
         * first move is a pass, and two passes end it) */
        gmove *mvs = game_move_buf(g);
        uint64_t hist[2];
        char tok[128];
        int n = game_gen_moves(g, s2.b, mvs), i;
        game_state_buf s3;
        for (i = 0; i < n; i++) {
            struct game_result res;
            memcpy(s3.b, s2.b, g->state_size);
            hist[ply] = g->hash(s2.b);
            g->play(s3.b, mvs[i]);
            g->result(s3.b, hist, ply + 1, &res);
            if (!res.over)
                break;
        }
        if (i == n) {
            free(mvs);
            break;
        }
        g->format_move(s2.b, mvs[i], tok, sizeof tok);
        buf_printf(moves, sizeof moves, &len, " %s", tok);
        g->play(s2.b, mvs[i]);
        free(mvs);
    }
    snprintf(go, sizeof go, "go ponder p1time %lld p1inc 0 p2time %lld p2inc 0",
             (long long)clock_ms, (long long)clock_ms);

    /* go ponder ... ponderhit */
    pos_cmd(m, s2.b, moves, cmd, sizeof cmd);
    ask(k, cmd, "ok error", k->slack_ms, line, sizeof line);
    ctl_client_send(k->c, now_us() + (int64_t)k->slack_ms * 1000, go);
    ok = !ask(k, NULL, "bestmove error", 500, line, sizeof line);
    report(k, ok, "go ponder: no bestmove in 500 ms", "%s",
           ok ? "" : line);
    if (!ok) {
        /* it answered at once: the rest of the exchange means nothing */
        ask(k, "ping ponder-sync", "pong", k->slack_ms, line, sizeof line);
        return;
    }
    t0 = now_us();
    ok = ask(k, "ping pondering", "pong", k->slack_ms, line, sizeof line) &&
         strcmp(line, "pong pondering") == 0;
    dt = now_us() - t0;
    report_latency(k, ok, dt, 100000, "ping answered while pondering", "%.1f ms",
                   dt / 1000.0);
    t0 = now_us();
    ok = ask(k, "ponderhit", "bestmove error", (int)clock_ms + k->slack_ms, line,
             sizeof line);
    dt = now_us() - t0;
    report(k, ok && legal(g, s2.b, line, &mv), "ponderhit -> legal bestmove",
           "'%.40s'", ok ? line : "no answer");
    report_latency(k, ok, dt, clock_ms * 1000, "ponderhit: bestmove within clock",
                   "%.1f ms of %lld ms", dt / 1000.0, (long long)clock_ms);

    /* go ponder ... stop */
    pos_cmd(m, s2.b, moves, cmd, sizeof cmd);
    ask(k, cmd, "ok error", k->slack_ms, line, sizeof line);
    ctl_client_send(k->c, now_us() + (int64_t)k->slack_ms * 1000, go);
    ok = !ask(k, NULL, "bestmove error", 200, line, sizeof line);
    if (!ok) {
        report(k, 0, "go ponder, stop -> bestmove", "bestmove before stop: '%.40s'",
               line);
        return;
    }
    t0 = now_us();
    ok = ask(k, "stop", "bestmove", k->slack_ms, line, sizeof line);
    dt = now_us() - t0;
    report_latency(k, ok, dt, 50000, "ponder stop -> bestmove (50 ms)", "%.1f ms",
                   dt / 1000.0);
}

int ref_check_main(struct ref_match *m, int strict_latency, const struct ref_time_use *tu)
{
    static char line[CTL_LINE_MAX], cmd[CTL_LINE_MAX], moves[CTL_LINE_MAX];
    const struct game *g = m->g;
    struct ctl_client *c = xcalloc(1, sizeof *c);
    struct chk k = {m, c, 0, 0, 0, strict_latency, strict_latency ? 3000 : 10000};
    game_state_buf st_buf;
    game_config_buf cfg = m->cfg;
    void *st = st_buf.b;
    char err[512], before[CTL_LINE_MAX], np[300];
    int64_t t0, dt;
    int r, ok, st_ms, nplies = 0;
    size_t plies_len[41] = {0};
    gmove mv;

    st_ms = m->tc[0].movetime_ms > 0 ? (int)m->tc[0].movetime_ms : 100;
    if (m->hidden) {
        g->config_set(cfg.b, GAME_KEY_SEED, "12345", err, sizeof err);
        snprintf(np, sizeof np, "newgame%s%s " GAME_KEY_SEAT "=1", *m->params ? " " : "",
                 m->params);
    } else
        snprintf(np, sizeof np, "newgame%s%s", *m->params ? " " : "", m->params);
    g->start(st, cfg.b);
    printf("medan-referee check: %s (%s) with %s\n\n", m->eng[0].cmd, g->name,
           m->eng[0].name);

    r = ctl_client_start(c, &m->eng[0], NULL, k.slack_ms + 2000, err, sizeof err);
    if (r != CTL_OK) {
        report(&k, 0, "handshake (mep -> mepok)", "%s", err);
        goto end;
    }
    report_latency(&k, 1, c->handshake_us, 1000000, "handshake within 1 s", "%.1f ms",
                   c->handshake_us / 1000.0);
    report(&k, strcmp(c->game, g->name) == 0, "game line names the game",
           "'%s'", c->game);
    report(&k, c->has_seed, "has a Seed option", "%s",
           c->has_seed ? "yes" : "no (matches cannot be replayed)");

    t0 = now_us();
    ok = ask(&k, "isready", "readyok", k.slack_ms, line, sizeof line);
    report(&k, ok, "isready -> readyok", "%.1f ms", (now_us() - t0) / 1000.0);
    ok = ask(&k, "ping check42", "pong", k.slack_ms, line, sizeof line) &&
         strcmp(line, "pong check42") == 0;
    report(&k, ok, "ping <t> -> pong <t>", "'%s'", ok ? line : "");

    ok = ask(&k, "frobnicate now", "ok error", k.slack_ms, line, sizeof line);
    report(&k, ok && str_prefix(line, "error unknown_command"),
           "unknown command -> error", "'%.60s'", ok ? line : "no answer");
    ok = ask(&k, "setoption name NoSuchOptionX value 1", "ok error", k.slack_ms, line,
             sizeof line);
    report(&k, ok && str_prefix(line, "error unknown_option"),
           "unknown option -> error", "'%.60s'", ok ? line : "no answer");
    ok = ask(&k, np, "ok error", k.slack_ms, line, sizeof line);
    report(&k, ok && strcmp(line, "ok") == 0, "newgame -> ok", "'%.60s'",
           ok ? line : "no answer");
    pos_cmd(m, st, "", cmd, sizeof cmd);
    ok = ask(&k, cmd, "ok error", k.slack_ms, line, sizeof line);
    report(&k, ok && strcmp(line, "ok") == 0, "position -> ok", "'%.60s'",
           ok ? line : "no answer");
    ask(&k, "fen", "ok error", k.slack_ms, line, sizeof line); /* skip to ok */
    ctl_client_send(c, now_us() + (int64_t)k.slack_ms * 1000, "fen");
    before[0] = '\0';
    for (;;) {
        if (ctl_client_read(c, now_us() + (int64_t)k.slack_ms * 1000, line, sizeof line) !=
            CTL_IO_LINE)
            break;
        if (str_prefix(line, "fen "))
            snprintf(before, sizeof before, "%s", line);
        if (strcmp(line, "ok") == 0 || str_prefix(line, "error"))
            break;
    }
    ok = ask(&k, "position fen this-is/not/a-position", "ok error", k.slack_ms, line,
             sizeof line);
    report(&k, ok && (str_prefix(line, "error illegal_position") ||
                      str_prefix(line, "error syntax")),
           "bad position -> error", "'%.60s'", ok ? line : "no answer");
    ok = ask(&k, m->hidden ? "play zz9-zz8" : "position start moves zz9-zz8",
             "ok error", k.slack_ms, line, sizeof line);
    report(&k, ok && (str_prefix(line, "error illegal_move") ||
                      str_prefix(line, "error syntax")),
           "illegal move -> error", "'%.60s'", ok ? line : "no answer");
    ctl_client_send(c, now_us() + (int64_t)k.slack_ms * 1000, "fen");
    line[0] = '\0';
    for (;;) {
        char l2[CTL_LINE_MAX];
        if (ctl_client_read(c, now_us() + (int64_t)k.slack_ms * 1000, l2, sizeof l2) !=
            CTL_IO_LINE)
            break;
        if (str_prefix(l2, "fen "))
            snprintf(line, sizeof line, "%s", l2);
        if (strcmp(l2, "ok") == 0 || str_prefix(l2, "error"))
            break;
    }
    report(&k, *before && strcmp(before, line) == 0,
           "failed commands change nothing", "%s", *before ? "fen unchanged" : "no fen answer");

    /* go movetime */
    pos_cmd(m, st, "", cmd, sizeof cmd);
    ask(&k, cmd, "ok error", k.slack_ms, line, sizeof line);
    snprintf(cmd, sizeof cmd, "go movetime %d", st_ms);
    t0 = now_us();
    ok = ask(&k, cmd, "bestmove error", st_ms + k.slack_ms, line, sizeof line);
    dt = now_us() - t0;
    report(&k, ok && legal(g, st, line, &mv), "go movetime -> legal bestmove",
           "'%.40s'", ok ? line : "no answer");
    report_latency(&k, ok, dt, (int64_t)(st_ms + 50) * 1000, "movetime respected (+50 ms)",
                   "%.1f ms for movetime %d", dt / 1000.0, st_ms);

    /* go infinite: no bestmove before stop; ping answered; stop fast */
    pos_cmd(m, st, "", cmd, sizeof cmd);
    ask(&k, cmd, "ok error", k.slack_ms, line, sizeof line);
    ctl_client_send(c, now_us() + (int64_t)k.slack_ms * 1000, "go infinite");
    ok = !ask(&k, NULL, "bestmove error", 500, line, sizeof line);
    report(&k, ok, "go infinite: no bestmove in 500 ms", "%s",
           ok ? "" : line);
    t0 = now_us();
    ok = ask(&k, "ping during", "pong", k.slack_ms, line, sizeof line);
    dt = now_us() - t0;
    report_latency(&k, ok, dt, 100000, "ping answered during search", "%.1f ms",
                   dt / 1000.0);
    ok = ask(&k, "position start", "ok error", k.slack_ms, line, sizeof line);
    report(&k, ok && str_prefix(line, "error busy"), "position during search -> busy",
           "'%.60s'", ok ? line : "no answer");
    t0 = now_us();
    ok = ask(&k, "stop", "bestmove", k.slack_ms, line, sizeof line);
    dt = now_us() - t0;
    report_latency(&k, ok, dt, 50000, "stop -> bestmove within 50 ms", "%.1f ms",
                   dt / 1000.0);
    report(&k, ok && legal(g, st, line, &mv), "bestmove after stop is legal",
           "'%.40s'", ok ? line : "");

    ponder_items(&k, st);

    /* a short game: every bestmove legal */
    {
        game_state_buf s2;
        uint64_t hist[400];
        int plies = 0, good = 1;
        size_t len = 0;
        memcpy(s2.b, st, g->state_size);
        moves[0] = '\0';
        plies_len[0] = 0;
        for (; plies < 40; plies++) {
            struct game_result res;
            char tok[128];
            g->result(s2.b, hist, plies, &res);
            if (res.over) {
                /* the game ended: time use asks for moves in positions
                 * before its last (one that is over has no move) */
                if (nplies > 0)
                    nplies--;
                break;
            }
            pos_cmd(m, s2.b, moves, cmd, sizeof cmd);
            if (!ask(&k, cmd, "ok error", k.slack_ms, line, sizeof line) ||
                strcmp(line, "ok") != 0) {
                good = 0;
                break;
            }
            if (!ask(&k, "go movetime 20", "bestmove error", k.slack_ms + 2000, line,
                     sizeof line) ||
                !legal(g, s2.b, line, &mv)) {
                good = 0;
                break;
            }
            g->format_move(s2.b, mv, tok, sizeof tok);
            buf_printf(moves, sizeof moves, &len, " %s", tok);
            plies_len[plies + 1] = len;
            nplies = plies + 1;
            hist[plies] = g->hash(s2.b);
            g->play(s2.b, mv);
        }
        report(&k, good, "a game of go movetime 20: legal", "%d plies%s%s", plies,
               good ? "" : ", then: ", good ? "" : line);
    }

    time_use(&k, st, moves, plies_len, nplies, tu);

    t0 = now_us();
    ctl_client_send(c, now_us() + (int64_t)k.slack_ms * 1000, "quit");
    for (;;) {
        if (ctl_proc_exited(&c->proc))
            break;
        if (now_us() - t0 > (int64_t)k.slack_ms * 1000)
            break;
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    dt = now_us() - t0;
    report_latency(&k, ctl_proc_exited(&c->proc), dt, 500000, "quit exits within 500 ms",
                   "%.1f ms", dt / 1000.0);
end:
    ctl_client_kill(c);
    free(c);
    printf("\n%d passed, %d failed", k.pass, k.fail);
    if (k.slow)
        printf(", %d slow (over the strict bound; reported, not failed)", k.slow);
    putchar('\n');
    return k.fail ? 1 : 0;
}
