/* worker.c - a medan-web session's worker thread, the only one that
 * talks to its engines: engine turns, pondering on the person's time,
 * analysis, crashes and restarts. */
#include "sess.h"
#include "match.h"
#include "record.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/game.h"
#include "core/util.h"

/* ---- the worker: engines ------------------------------------------- */

struct go_ctx {
    struct sess *s;
    uint64_t gen;
    int seat;
    int show;        /* keep the info lines for the page */
};

static void parse_info(struct sess *s, const char *line)
{
    char buf[1024], *save = NULL, *w;
    struct pvline l;
    int mpv = 1;
    memset(&l, 0, sizeof l);
    snprintf(buf, sizeof buf, "%s", line);
    w = strtok_r(buf, " \t", &save); /* info */
    while ((w = strtok_r(NULL, " \t", &save)) != NULL) {
        char *v;
        if (strcmp(w, "pv") == 0) {
            v = strtok_r(NULL, "", &save);
            snprintf(l.pv, sizeof l.pv, "%s", v ? v : "");
            break;
        }
        if (strcmp(w, "string") == 0)
            break;
        v = strtok_r(NULL, " \t", &save);
        if (!v)
            break;
        if (strcmp(w, "depth") == 0)
            l.depth = atoi(v);
        else if (strcmp(w, "multipv") == 0)
            mpv = atoi(v);
        else if (strcmp(w, "nodes") == 0)
            l.nodes = strtoull(v, NULL, 10);
        else if (strcmp(w, "time") == 0)
            l.time_ms = atoi(v);
        else if (strcmp(w, "score") == 0) {
            char *x = strtok_r(NULL, " \t", &save);
            snprintf(l.score, sizeof l.score, "%s %s", v, x ? x : "");
        } else if (strcmp(w, "values") == 0 && !l.score[0])
            snprintf(l.score, sizeof l.score, "values %.20s", v);
    }
    if (mpv < 1 || mpv > MAX_PV)
        return;
    if (!l.pv[0] && !l.depth) {          /* a progress line: nodes only */
        s->pv[mpv - 1].nodes = l.nodes;
        s->pv[mpv - 1].time_ms = l.time_ms;
        return;
    }
    s->pv[mpv - 1] = l;
    if (mpv == 1)
        for (int i = s->multipv; i < MAX_PV; i++)
            memset(&s->pv[i], 0, sizeof s->pv[i]);
}

static int on_info(void *arg, const char *line)
{
    struct go_ctx *c = arg;
    struct sess *s = c->s;
    int cancel;
    pthread_mutex_lock(&s->mu);
    cancel = s->closing || web_quitting() || s->pos_gen != c->gen;
    if (!cancel && c->seat == 0 && !s->analysing)
        cancel = 1;
    if (line && c->show && !cancel) {
        parse_info(s, line);
        s->pv_seat = c->seat;
        /* At most about ten updates a second for search output. */
        if (now_us() - s->last_bump > 100000)
            sess_bump(s);
    }
    pthread_mutex_unlock(&s->mu);
    return cancel;
}

/* Make sure seat k's engine runs with its settings; unlocked. */
static int ensure_engine(struct sess *s, int k, int cfg, const char *strategy,
                         int threads, char *err, size_t n)
{
    struct seat *x = &s->seat[k];
    if (web_eng_running(x->e) && (x->started_cfg != cfg ||
                                  strcmp(x->started_strategy, strategy) != 0 ||
                                  x->started_threads != threads))
        web_eng_stop(x->e);
    if (!web_eng_running(x->e)) {
        const struct web_engine_cfg *c = sess_engine_cfg(cfg);
        if (!c) {
            snprintf(err, n, "no engine for %s", s->g->name);
            return -1;
        }
        if (web_eng_start(x->e, c, strategy, threads, err, n) < 0)
            return -1;
        x->started_cfg = cfg;
        x->started_threads = threads;
        snprintf(x->started_strategy, sizeof x->started_strategy, "%s", strategy);
        x->newgame_gen = 0;
    }
    return 0;
}

/* A growing string. */
struct dstr {
    char *s;
    size_t len, cap;
};

static void ds_add(struct dstr *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void ds_add(struct dstr *d, const char *fmt, ...)
{
    va_list ap;
    int k;
    va_start(ap, fmt);
    k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (d->len + (size_t)k + 1 > d->cap) {
        d->cap = (d->len + (size_t)k + 1) * 2;
        d->s = xrealloc(d->s, d->cap);
    }
    va_start(ap, fmt);
    vsnprintf(d->s + d->len, d->cap - d->len, fmt, ap);
    va_end(ap);
    d->len += (size_t)k;
}

/* Build the position command for seat k (locked). */
static char *position_cmd(struct sess *s, int k)
{
    struct dstr b = {NULL, 0, 0};
    char *fen = xmalloc(FEN_LEN);
    if (s->hidden && k > 0) {
        int rc = s->g->view(s->st, k, s->tmp);
        assert(rc == GAME_OK);
        (void)rc;
        s->g->format_pos(s->tmp, fen, FEN_LEN);
        ds_add(&b, "position fen %s", fen);
    } else {
        s->g->format_pos(s->start, fen, FEN_LEN);
        ds_add(&b, "position fen %s", fen);
        if (s->ply) {
            ds_add(&b, " moves");
            for (int i = 0; i < s->ply; i++)
                ds_add(&b, " %s", s->tok[i]);
        }
    }
    free(fen);
    return b.s;
}

/* Play mode, pondering on: seat k just moved and its engine named a
 * ponder move legal here, the person to move: the position with that
 * move played and `go ponder movetime M` (locked; unlocks around the
 * engine's work). */
static void start_ponder(struct sess *s, int k)
{
    struct seat *x = &s->seat[k];
    char err[512], tok[TOK_LEN], limits[64];
    const char *pm = web_eng_ponder_move(x->e);
    struct game_result r;
    struct dstr b = {NULL, 0, 0};
    char *pos;
    gmove m;
    int rc;

    if (!x->ponder || s->mode != WEB_PLAY || s->hidden || !s->human ||
        sess_to_move(s) != s->human || s->ply != s->n || !*pm || s->ply < 1)
        return;
    sess_result_now(s, &r);
    if (r.over || s->g->parse_move(s->st, pm, &m, err, sizeof err) != GAME_OK)
        return;
    s->g->format_move(s->st, m, tok, sizeof tok);
    pos = position_cmd(s, k);              /* it has " moves": ply >= 1 */
    ds_add(&b, "%s %s", pos, tok);
    free(pos);
    snprintf(limits, sizeof limits, "movetime %d", x->movetime);
    x->pondering = 1;
    x->ponder_ply = s->ply;
    x->ponder_game = s->game_gen;
    snprintf(x->ponder_tok, sizeof x->ponder_tok, "%s", tok);
    snprintf(x->state, sizeof x->state, "pondering");
    sess_bump(s);
    pthread_mutex_unlock(&s->mu);
    rc = web_eng_ponder_start(x->e, b.s, limits, err, sizeof err);
    free(b.s);
    pthread_mutex_lock(&s->mu);
    if (rc < 0) {
        x->pondering = 0;
        snprintf(x->state, sizeof x->state, "idle");
        sess_say(s, "the engine at seat %d could not ponder (%s); it is restarted", k, err);
    }
}

/* Seat k (0 = analysis) searches the current position; called locked,
 * unlocks around the engine's work. */
static void engine_turn(struct sess *s, int k)
{
    struct seat *x = &s->seat[k];
    char err[512], move[TOK_LEN], newgame[256], limits[64];
    int cfg = x->cfg, rc;
    char strategy[32];
    uint64_t gen = s->pos_gen, ggen = s->game_gen;
    int show = k == 0 || !s->hidden || s->mode != WEB_PLAY;
    char *pos = position_cmd(s, k);
    struct go_ctx ctx = {s, gen, k, show};
    int64_t t0;
    int threads = x->threads, hit = 0, was_pondering = x->pondering;

    /* A ponder search of this seat: the person played the expected reply
     * in the same game with the same settings (ponderhit: the movetime
     * runs from now), or not (stop; its move is dropped). */
    if (was_pondering) {
        hit = k > 0 && s->game_gen == x->ponder_game &&
              s->ply == x->ponder_ply + 1 && s->n == s->ply &&
              strcmp(s->tok[x->ponder_ply], x->ponder_tok) == 0 &&
              x->started_cfg == cfg && x->started_threads == threads &&
              strcmp(x->started_strategy, x->strategy) == 0;
        x->pondering = 0;
        if (hit)
            x->ponder_hits++;
        else
            x->ponder_misses++;
    }
    snprintf(strategy, sizeof strategy, "%s", x->strategy);
    if (s->hidden && k > 0)
        snprintf(newgame, sizeof newgame, "newgame %s%sseat=%d", s->eng_params,
                 *s->eng_params ? " " : "", k);
    else
        snprintf(newgame, sizeof newgame, "newgame%s%s", *s->eng_params ? " " : "",
                 s->eng_params);
    if (k == 0)
        snprintf(limits, sizeof limits, "infinite%s", s->multipv > 1 ? "" : "");
    else
        snprintf(limits, sizeof limits, "movetime %d", x->movetime);
    if (k == 0 && s->multipv > 1)
        snprintf(limits, sizeof limits, "infinite multipv %d", s->multipv);
    if (!x->e)
        x->e = web_eng_new();      /* made under the lock: /api/status reads it */
    s->thinking = k;
    snprintf(x->state, sizeof x->state, "thinking");
    if (show)
        memset(s->pv, 0, sizeof s->pv);
    sess_bump(s);
    pthread_mutex_unlock(&s->mu);

    err[0] = '\0';
    if (hit) {
        t0 = now_us();
        rc = web_eng_ponderhit(x->e, x->movetime + 10000, on_info, &ctx, move,
                               sizeof move, err, sizeof err);
        free(pos);
        goto answered;
    }
    if (was_pondering)
        web_eng_ponder_stop(x->e); /* gone: ensure_engine restarts it */
    rc = ensure_engine(s, k, cfg, strategy, threads, err, sizeof err) < 0
             ? WEB_GO_CRASHED : WEB_GO_OK;
    if (rc == WEB_GO_OK && x->newgame_gen != ggen) {
        if (web_eng_cmd(x->e, newgame, 10000, err, sizeof err) < 0)
            rc = WEB_GO_CRASHED;
        else
            x->newgame_gen = ggen;
    }
    if (rc == WEB_GO_OK && web_eng_cmd(x->e, pos, 10000, err, sizeof err) < 0)
        rc = web_eng_running(x->e) ? WEB_GO_ERROR : WEB_GO_CRASHED;
    t0 = now_us();
    if (rc == WEB_GO_OK)
        rc = web_eng_go(x->e, limits, k == 0 ? 0 : x->movetime + 10000, on_info,
                        &ctx, move, sizeof move, err, sizeof err);
    free(pos);
answered:
    pthread_mutex_lock(&s->mu);
    s->thinking = 0;
    if (s->closing)
        return;
    if (rc == WEB_GO_OK && k > 0) {
        x->last_ms = (now_us() - t0) / 1000;
        x->used_ms += x->last_ms;
    }
    if (rc == WEB_GO_CANCELLED || s->pos_gen != gen) {
        snprintf(x->state, sizeof x->state, "idle");
        sess_bump(s);
        return;
    }
    if (rc == WEB_GO_OK) {
        snprintf(x->state, sizeof x->state, "idle");
        if (k == 0) {
            s->analysing = 0;      /* the search ended by itself */
        } else {
            char e2[GAME_ERR_LEN];
            if (sess_play_token(s, move, e2, sizeof e2) != GAME_OK) {
                sess_say(s, "the engine at seat %d played an illegal move '%.40s' (%s); "
                    "it is restarted", k, move, e2);
                web_eng_stop(x->e);
                if (++x->crashes > 2) {
                    s->paused = 1;
                    snprintf(x->state, sizeof x->state, "failed");
                }
            } else {
                if (s->message[0] && strstr(s->message, "restarted") == NULL)
                    s->message[0] = '\0';
                start_ponder(s, k);
            }
        }
        sess_bump(s);
        return;
    }
    /* The engine crashed, timed out or refused: report, restart next time. */
    web_eng_stop(x->e);
    x->crashes++;
    if (k == 0)
        s->analysing = 0;
    if (x->crashes > 3) {
        s->paused = 1;
        snprintf(x->state, sizeof x->state, "failed");
        sess_say(s, "the engine at seat %d failed %d times (%s): it is not restarted; "
            "start a new game", k, x->crashes, err);
    } else {
        snprintf(x->state, sizeof x->state, "crashed");
        if (k)
            sess_say(s, "the engine at seat %d crashed (%s) and is restarted", k, err);
        else
            sess_say(s, "the analysis engine crashed (%s) and is restarted", err);
    }
    sess_bump(s);
}

void *sess_worker(void *arg)
{
    struct sess *s = arg;
    pthread_mutex_lock(&s->mu);
    while (!s->closing && !web_quitting()) {
        int tm = sess_to_move(s);
        int wait_ms = 1000, again = 0;
        /* Ponder searches: stopped when the position went elsewhere than
         * the engine's turn (a take-back, a new game, new settings, a
         * pause), else read (so the engine's output never fills the pipe)
         * until the person moves. */
        for (int k = 1; k <= s->nseats && !again; k++) {
            struct seat *x = &s->seat[k];
            char perr[WEB_ENG_ERR];
            int prc;
            if (!x->pondering)
                continue;
            if (s->ply == x->ponder_ply + 1 && tm == k && !s->paused &&
                s->mode == WEB_PLAY && s->ply == s->n)
                continue;                  /* engine_turn decides: hit or miss */
            if (!(s->mode == WEB_PLAY && !s->paused && x->ponder &&
                  s->game_gen == x->ponder_game && s->ply == x->ponder_ply &&
                  s->n == s->ply && x->started_cfg == x->cfg &&
                  x->started_threads == x->threads &&
                  strcmp(x->started_strategy, x->strategy) == 0)) {
                x->pondering = 0;
                snprintf(x->state, sizeof x->state, "idle");
                sess_bump(s);
                pthread_mutex_unlock(&s->mu);
                web_eng_ponder_stop(x->e);
                pthread_mutex_lock(&s->mu);
                again = 1;
                break;
            }
            pthread_mutex_unlock(&s->mu);
            prc = web_eng_ponder_poll(x->e, perr, sizeof perr);
            pthread_mutex_lock(&s->mu);
            if (prc < 0 && x->pondering) {
                x->pondering = 0;
                snprintf(x->state, sizeof x->state, "crashed");
                sess_say(s, "the engine at seat %d failed while pondering (%s); it is "
                    "restarted", k, perr);
                sess_bump(s);
            }
            wait_ms = 100;
        }
        if (again)
            continue;
        if (s->mode == WEB_ANALYSE) {
            if (s->analysing && tm) {
                engine_turn(s, 0);
                continue;
            }
            if (s->analysing && !tm)
                s->analysing = 0, sess_bump(s);
        } else if (tm && !s->paused && s->ply == s->n && s->mode == WEB_PLAY &&
                   tm != s->human) {
            engine_turn(s, tm);
            continue;
        }
        {
            struct timespec ts = web_deadline_in(wait_ms);
            pthread_cond_timedwait(&s->wake, &s->mu, &ts);
        }
    }
    pthread_mutex_unlock(&s->mu);
    for (int i = 0; i <= GAME_MAX_SEATS; i++)
        web_eng_stop(s->seat[i].e);
    return NULL;
}
