/* session.c - one medan-web session's life: made from a request (a
 * record, a share link, a match through the referee's library), held and
 * released, waited on by its live updates, closed (see web.h). */
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
#include "engines/registry.h"

/* ---- sessions ------------------------------------------------------- */

void sess_free(struct sess *s)
{
    web_match_free(s->wm);      /* before the lock its calls take goes */
    for (int i = 0; i <= GAME_MAX_SEATS; i++)
        web_eng_free(s->seat[i].e);
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->wake);
    pthread_cond_destroy(&s->changed);
    free(s->start);
    free(s->st);
    free(s->tmp);
    free(s->mv);
    free(s->tok);
    free(s->hist);
    free(s);
}

void sess_secret(struct sess *s, char *out, size_t n)
{
    snprintf(out, n, "%s", s->secret);
}

void sess_put(struct sess *s)
{
    int dead;
    pthread_mutex_lock(&s->mu);
    dead = --s->refs == 0 && s->removed;
    pthread_mutex_unlock(&s->mu);
    if (dead)
        sess_free(s);
}

void sess_listen(struct sess *s, int delta)
{
    pthread_mutex_lock(&s->mu);
    s->listeners += delta;
    s->last_seen = now_us();
    pthread_mutex_unlock(&s->mu);
}

struct timespec web_deadline_in(int ms)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += ms / 1000;
    ts.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    return ts;
}

int sess_wait(struct sess *s, uint64_t version, int timeout_ms)
{
    struct timespec ts = web_deadline_in(timeout_ms);
    int r = 0;
    pthread_mutex_lock(&s->mu);
    for (;;) {
        if (s->closing || web_quitting()) {
            r = -1;
            break;
        }
        if (s->version != version) {
            r = 1;
            break;
        }
        if (pthread_cond_timedwait(&s->changed, &s->mu, &ts) == ETIMEDOUT) {
            r = s->version != version ? 1 : 0;
            if (s->closing || web_quitting())
                r = -1;
            break;
        }
    }
    s->last_seen = now_us();
    pthread_mutex_unlock(&s->mu);
    return r;
}

/* Stop the worker and the engines; the table's reference is dropped. */
void sess_close(struct sess *s)
{
    struct web_match *wm;
    pthread_mutex_lock(&s->mu);
    s->closing = 1;
    s->removed = 1;
    wm = s->wm;
    s->wm = NULL;
    pthread_cond_broadcast(&s->wake);
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->mu);
    if (s->has_worker)
        pthread_join(s->worker, NULL);
    web_match_free(wm);         /* its engines stop now, not at the last put */
    sess_put(s);
}

/* ---- the referee's match on the board (calls from match.c) ------------ */

static void mh_start(void *ctx, int game, const void *st, const int eng_of_seat[])
{
    struct sess *s = ctx;
    pthread_mutex_lock(&s->mu);
    memcpy(s->start, st, s->g->state_size);
    s->nseats = s->g->nseats(s->start);
    sess_replay(s, 0);
    s->n = 0;
    s->pos_gen++;
    s->game_gen++;
    s->match_game = game;
    for (int i = 1; i <= s->nseats && i <= GAME_MAX_SEATS; i++) {
        int a = eng_of_seat[i - 1] == 0;
        s->seat[i].cfg = a ? s->a_cfg : s->b_cfg;
        snprintf(s->seat[i].strategy, sizeof s->seat[i].strategy, "%s",
                 a ? s->a_strategy : s->b_strategy);
        s->seat[i].used_ms = s->seat[i].last_ms = 0;
        snprintf(s->seat[i].state, sizeof s->seat[i].state, "idle");
    }
    s->thinking = sess_to_move(s);
    sess_bump(s);
    pthread_mutex_unlock(&s->mu);
}

static void mh_move(void *ctx, int seat, const char *tok, int64_t ms)
{
    struct sess *s = ctx;
    char err[GAME_ERR_LEN];
    pthread_mutex_lock(&s->mu);
    if (sess_play_token(s, tok, err, sizeof err) != GAME_OK)
        sess_say(s, "the referee's move %.40s does not fit the board: %s", tok, err);
    if (seat >= 1 && seat <= GAME_MAX_SEATS) {
        s->seat[seat].last_ms = ms;
        s->seat[seat].used_ms += ms;
    }
    s->thinking = sess_to_move(s);
    sess_bump(s);
    pthread_mutex_unlock(&s->mu);
}

static void mh_changed(void *ctx)
{
    struct sess *s = ctx;
    pthread_mutex_lock(&s->mu);
    sess_bump(s);
    pthread_mutex_unlock(&s->mu);
}

static int sess_create_req(json_t *req, const char *addr, char *id, size_t idn, char *err,
                           size_t n);

int sess_create(json_t *req0, const char *addr, char *id, size_t idn, char *err, size_t n)
{
    /* A pasted record becomes the request a share link makes. */
    json_t *req = web_rec_request(req0, err, n);
    int code;
    if (!req)
        return 400;
    code = sess_create_req(req, addr, id, idn, err, n);
    json_decref(req);
    return code;
}

static int sess_create_req(json_t *req, const char *addr, char *id, size_t idn, char *err,
                           size_t n)
{
    const char *game = sess_jstr(req, "game", NULL), *mode = sess_jstr(req, "mode", "play");
    const struct game *g;
    struct sess *s;
    uint64_t rnd[4];

    if (!game || !web_game_drawn(game) || !(g = game_find(game))) {
        snprintf(err, n, "'game' must be one of loa fetlar palagan battalion");
        return 400;
    }
    s = xcalloc(1, sizeof *s);
    s->g = g;
    s->hidden = g->view != NULL;
    if (strcmp(mode, "play") == 0)
        s->mode = WEB_PLAY;
    else if (strcmp(mode, "analyse") == 0)
        s->mode = WEB_ANALYSE;
    else if (strcmp(mode, "match") == 0)
        s->mode = WEB_MATCH;
    else {
        snprintf(err, n, "'mode' must be play, analyse or match");
        free(s);
        return 400;
    }
    s->start = xcalloc(1, g->state_size);
    s->st = xcalloc(1, g->state_size);
    s->tmp = xcalloc(1, g->state_size);
    for (int i = 0; i <= GAME_MAX_SEATS; i++)
        s->seat[i].cfg = -1;
    s->multipv = 1;
    if (sess_apply_params(s, req, err, n) < 0 ||
        sess_apply_settings(s, req, 1, err, n) < 0 ||
        (s->mode == WEB_MATCH && sess_apply_match(s, req, err, n) < 0)) {
        free(s->start);
        free(s->st);
        free(s->tmp);
        free(s);
        return 400;
    }
    if (s->mode != WEB_PLAY)
        s->human = 0;
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->wake, NULL);
    pthread_cond_init(&s->changed, NULL);
    if (os_random(rnd, sizeof rnd) < 0) {
        /* no random source: no secret worth the name, no game */
        snprintf(err, n, "the system's random source is not available");
        sess_free(s);
        return 503;
    }
    snprintf(s->id, sizeof s->id, "%016" PRIx64 "%016" PRIx64, rnd[0], rnd[1]);
    snprintf(s->secret, sizeof s->secret, "%016" PRIx64 "%016" PRIx64, rnd[2], rnd[3]);
    sess_new_game(s);
    if (s->mode == WEB_MATCH && sess_jstr(req, "fen", NULL)) {
        snprintf(err, n, "a match starts from its openings, not a position string");
        sess_free(s);
        return 400;
    }
    if (sess_start_from(s, sess_jstr(req, "fen", NULL), err, n) < 0 ||
        sess_start_moves(s, req, err, n) < 0) {
        sess_free(s);
        return 400;
    }
    if (s->mode == WEB_MATCH) {
        /* The referee's library plays it (match.c); the board follows. */
        static const struct web_match_hooks hooks0 = {NULL, mh_start, mh_move,
                                                      mh_changed};
        struct web_match_hooks h = hooks0;
        h.ctx = s;
        s->wm = web_match_start(s->g, s->eng_params, req, &h, err, n);
        if (!s->wm) {
            sess_free(s);
            return 400;
        }
    }
    if (s->human > s->nseats) {
        snprintf(err, n, "'seat' takes a seat from 1 to %d", s->nseats);
        sess_free(s);
        return 400;
    }
    s->version = 1;
    s->refs = 1;                 /* the table's */
    s->last_seen = s->created = now_us();
    snprintf(s->addr, sizeof s->addr, "%s", addr);

    if (sess_table_add(s, err, n) != 200) {
        sess_free(s);
        return 503;
    }
    snprintf(id, idn, "%s", s->id);
    return 200;
}
