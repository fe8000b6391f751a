/* session.c - medan-web's sessions: one game per tab, its rules through
 * `struct game`, its engines driven by one worker thread (see web.h). */
#include "web.h"
#include "match.h"
#include "record.h"

#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <unistd.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/game.h"
#include "engines/registry.h"
#include "core/util.h"

#define MAX_SESSIONS 64
#define TOK_LEN 96
#define MAX_LEGAL 131072
#define MAX_PV 8
#define FEN_LEN 65536

struct web_config web_cfg;

struct pvline {
    int depth;
    char score[32];
    uint64_t nodes;
    int time_ms;
    char pv[512];
};

struct seat {
    struct web_eng *e;
    int cfg;                 /* index in web_cfg.eng, -1 = none */
    char strategy[32];
    int movetime;            /* ms */
    int threads;             /* the Threads option (1: not sent unless offered) */
    int ponder;              /* play: think on the person's time */
    int started_cfg;         /* what the running process was started with */
    char started_strategy[32];
    int started_threads;
    /* A ponder search out (changed under the session's lock only): the
     * expected reply ponder_tok at ply ponder_ply of game ponder_game. */
    int pondering, ponder_ply;
    uint64_t ponder_game;
    char ponder_tok[TOK_LEN];
    int ponder_hits, ponder_misses;
    uint64_t newgame_gen;    /* the game the engine was told about */
    char state[24];          /* idle thinking crashed failed */
    int crashes;
    int64_t used_ms, last_ms;
};

struct sess {
    char id[40];
    char secret[WEB_SECRET_LEN + 1];   /* the creating page's key to the game */
    pthread_mutex_t mu;
    pthread_cond_t wake, changed;
    int refs, removed, closing;
    uint64_t version;
    int64_t last_bump;
    enum web_mode mode;
    const struct game *g;
    unsigned char cfg[GAME_MAX_CONFIG];
    char pub_params[128];    /* what the page may see ("size=5", "players=4") */
    char eng_params[128];    /* newgame for the engines (no deal seed) */
    int hidden, nseats;
    void *start, *st, *tmp;
    gmove *mv;
    char (*tok)[TOK_LEN];
    uint64_t *hist;          /* hist[i]: hash of the position before move i */
    int n, ply, cap;
    int human;               /* 0 = none (analysis: every seat; match) */
    struct seat seat[GAME_MAX_SEATS + 1];   /* [0]: the analysis engine */
    uint64_t pos_gen, game_gen;
    int thinking;
    int paused;              /* an engine failed for good: wait for the person */
    char message[512];
    struct pvline pv[MAX_PV];
    int pv_seat;
    int analysing, multipv;
    /* match: played by the referee's library (match.c) */
    struct web_match *wm;
    int a_cfg, b_cfg, match_game;
    char a_strategy[32], b_strategy[32];
    uint64_t seed;           /* Battalion deal seed: never sent to the page */
    int seed_given;
    int64_t last_seen;
    int listeners;
    pthread_t worker;
    int has_worker;
};

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static struct sess *g_sess[MAX_SESSIONS];
static volatile int g_quit;
static pthread_t g_reaper;
static int g_has_reaper;

int web_quitting(void)
{
    return g_quit;
}

/* Under s->mu: the state changed; wake the event streams. */
static void bump(struct sess *s)
{
    s->version++;
    s->last_bump = now_us();
    pthread_cond_broadcast(&s->changed);
}

static void say(struct sess *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void say(struct sess *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->message, sizeof s->message, fmt, ap);
    va_end(ap);
    web_utf8_clean(s->message);     /* it may quote what an engine or a page sent */
}

void web_utf8_clean(char *p)
{
    unsigned char *u = (unsigned char *)p;
    while (*u) {
        int k = *u < 0x80 ? 0 : (*u & 0xe0) == 0xc0 ? 1 : (*u & 0xf0) == 0xe0 ? 2
                : (*u & 0xf8) == 0xf0 ? 3 : -1;
        int ok = k >= 0;
        uint32_t c = k == 0 ? *u : k == 1 ? *u & 0x1fu : k == 2 ? *u & 0x0fu : *u & 0x07u;
        for (int i = 1; ok && i <= k; i++) {
            if ((u[i] & 0xc0) != 0x80)
                ok = 0;
            else
                c = c << 6 | (u[i] & 0x3fu);
        }
        /* no overlong forms, no surrogates, nothing past U+10FFFF */
        if (ok && ((k == 1 && c < 0x80) || (k == 2 && (c < 0x800 || (c >= 0xd800 && c < 0xe000))) ||
                   (k == 3 && (c < 0x10000 || c > 0x10ffff))))
            ok = 0;
        if (!ok) {
            *u++ = '?';
            continue;
        }
        u += k + 1;
    }
}

/* ---- the game model -------------------------------------------------- */

static void grow(struct sess *s, int need)
{
    if (need <= s->cap)
        return;
    int cap = s->cap ? s->cap * 2 : 256;
    while (cap < need)
        cap *= 2;
    s->mv = xrealloc(s->mv, (size_t)cap * sizeof *s->mv);
    s->tok = xrealloc(s->tok, (size_t)cap * sizeof *s->tok);
    s->hist = xrealloc(s->hist, (size_t)cap * sizeof *s->hist);
    s->cap = cap;
}

/* Rebuild s->st from the start and the first `ply` moves. */
static void replay(struct sess *s, int ply)
{
    memcpy(s->st, s->start, s->g->state_size);
    for (int i = 0; i < ply; i++)
        s->g->play(s->st, s->mv[i]);
    s->ply = ply;
}

static void result_now(struct sess *s, struct game_result *r)
{
    s->g->result(s->st, s->hist, s->ply, r);
}

static int to_move(struct sess *s)
{
    struct game_result r;
    result_now(s, &r);
    return r.over ? 0 : s->g->to_move(s->st);
}

/* Play a token at the cursor (later moves are dropped).  0, or a game_err
 * with err. */
static int play_token(struct sess *s, const char *tok, char *err, size_t n)
{
    struct game_result r;
    gmove m;
    int rc;
    char canon[TOK_LEN];

    result_now(s, &r);
    if (r.over) {
        snprintf(err, n, "the game is over (%s)", r.reason ? r.reason : "over");
        return GAME_EOVER;
    }
    if (strlen(tok) >= TOK_LEN) {
        snprintf(err, n, "move token too long");
        return GAME_ESYNTAX;
    }
    rc = s->g->parse_move(s->st, tok, &m, err, n);
    if (rc != GAME_OK)
        return rc;
    s->g->format_move(s->st, m, canon, sizeof canon);
    grow(s, s->ply + 1);
    s->hist[s->ply] = s->g->hash(s->st);
    s->mv[s->ply] = m;
    snprintf(s->tok[s->ply], TOK_LEN, "%s", canon);
    s->g->play(s->st, m);
    s->ply++;
    s->n = s->ply;
    s->pos_gen++;
    return GAME_OK;
}

static const struct web_engine_cfg *engine_cfg(int i)
{
    return i >= 0 && i < web_cfg.neng ? &web_cfg.eng[i] : NULL;
}

int web_game_drawn(const char *name)
{
    static const char *const drawn[] = {"loa", "fetlar", "palagan", "battalion", NULL};
    for (int i = 0; drawn[i]; i++)
        if (strcmp(drawn[i], name) == 0)
            return 1;
    return 0;
}

static int first_engine(const char *game)
{
    for (int i = 0; i < web_cfg.neng; i++)
        if (strcmp(web_cfg.eng[i].game, game) == 0)
            return i;
    return -1;
}

static int find_engine(const char *game, const char *name)
{
    if (!name)
        return first_engine(game);
    for (int i = 0; i < web_cfg.neng; i++)
        if (strcmp(web_cfg.eng[i].game, game) == 0 &&
            strcmp(web_cfg.eng[i].name, name) == 0)
            return i;
    return -1;
}

static int strategy_ok(int cfg, const char *st)
{
    const struct web_engine_cfg *c = engine_cfg(cfg);
    if (!*st)
        return 1;
    if (!c)
        return 0;
    for (int i = 0; i < c->nstrategies; i++)
        if (strcmp(c->strategies[i], st) == 0)
            return 1;
    return 0;
}

/* A fresh game from s->cfg: start position, no moves, engines told anew. */
static void new_game(struct sess *s)
{
    char buf[256];
    if (s->hidden) {
        uint64_t seed = s->seed_given ? s->seed : 0;
        if (!s->seed_given) {
            if (os_random(&seed, sizeof seed) < 0)
                seed = (uint64_t)now_us() * 0x9e3779b97f4a7c15ull;
            s->seed = seed;
        }
        snprintf(buf, sizeof buf, "%" PRIu64, s->seed);
        s->g->config_set(s->cfg, "seed", buf, buf, sizeof buf);
    }
    s->g->start(s->start, s->cfg);
    s->nseats = s->g->nseats(s->start);
    replay(s, 0);
    s->n = 0;
    s->pos_gen++;
    s->game_gen++;
    s->paused = 0;
    s->thinking = 0;
    memset(s->pv, 0, sizeof s->pv);
    for (int i = 0; i <= GAME_MAX_SEATS; i++) {
        s->seat[i].crashes = 0;
        s->seat[i].used_ms = s->seat[i].last_ms = 0;
        s->seat[i].ponder_hits = s->seat[i].ponder_misses = 0;
        snprintf(s->seat[i].state, sizeof s->seat[i].state, "idle");
    }
}

/* ---- sessions ------------------------------------------------------- */

static void sess_free(struct sess *s)
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

struct sess *sess_get(const char *id)
{
    struct sess *s = NULL;
    pthread_mutex_lock(&g_mu);
    for (int i = 0; i < MAX_SESSIONS; i++)
        if (g_sess[i] && strcmp(g_sess[i]->id, id) == 0) {
            s = g_sess[i];
            pthread_mutex_lock(&s->mu);
            s->refs++;
            s->last_seen = now_us();
            pthread_mutex_unlock(&s->mu);
            break;
        }
    pthread_mutex_unlock(&g_mu);
    return s;
}

struct sess *sess_get_owned(const char *id, const char *secret)
{
    struct sess *s;
    unsigned char diff = 0;
    if (!secret || strlen(secret) != WEB_SECRET_LEN)
        return NULL;
    s = sess_get(id);
    if (!s)
        return NULL;
    for (int i = 0; i < WEB_SECRET_LEN; i++)      /* constant time */
        diff |= (unsigned char)(s->secret[i] ^ secret[i]);
    if (diff) {
        sess_put(s);
        return NULL;
    }
    return s;
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
        if (s->closing || g_quit) {
            r = -1;
            break;
        }
        if (s->version != version) {
            r = 1;
            break;
        }
        if (pthread_cond_timedwait(&s->changed, &s->mu, &ts) == ETIMEDOUT) {
            r = s->version != version ? 1 : 0;
            if (s->closing || g_quit)
                r = -1;
            break;
        }
    }
    s->last_seen = now_us();
    pthread_mutex_unlock(&s->mu);
    return r;
}

/* Stop the worker and the engines; the table's reference is dropped. */
static void close_session(struct sess *s)
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

static void *worker(void *arg);
static int sess_create_req(json_t *req, char *id, size_t idn, char *err, size_t n);

/* ---- JSON helpers --------------------------------------------------- */

static const char *jstr(json_t *o, const char *k, const char *def)
{
    json_t *v = json_object_get(o, k);
    return json_is_string(v) ? json_string_value(v) : def;
}

/* An integer field: def when absent; -1 with err when not an integer or
 * out of lo..hi. */
static int jint(json_t *o, const char *k, long long def, long long lo,
                long long hi, long long *out, char *err, size_t n)
{
    json_t *v = json_object_get(o, k);
    if (!v || json_is_null(v)) {
        *out = def;
        return 0;
    }
    if (!json_is_integer(v) || json_integer_value(v) < lo ||
        json_integer_value(v) > hi) {
        snprintf(err, n, "'%s' takes a whole number from %lld to %lld", k, lo,
                 hi);
        return -1;
    }
    *out = json_integer_value(v);
    return 0;
}

/* Apply the game's parameters of a request (size, players, seed) to cfg. */
static int apply_params(struct sess *s, json_t *req, char *err, size_t n)
{
    static const char *const keys[] = {"size", "players", NULL};
    char val[32];
    size_t len = 0;
    s->g->config_default(s->cfg);
    s->pub_params[0] = s->eng_params[0] = '\0';
    for (int i = 0; keys[i]; i++) {
        json_t *v = json_object_get(req, keys[i]);
        if (!v || json_is_null(v))
            continue;
        if (!json_is_integer(v)) {
            snprintf(err, n, "'%s' takes a whole number", keys[i]);
            return -1;
        }
        snprintf(val, sizeof val, "%lld", (long long)json_integer_value(v));
        if (s->g->config_set(s->cfg, keys[i], val, err, n) != GAME_OK)
            return -1;
        buf_printf(s->pub_params, sizeof s->pub_params, &len, "%s%s=%s",
                   len ? " " : "", keys[i], val);
    }
    snprintf(s->eng_params, sizeof s->eng_params, "%s", s->pub_params);
    if (s->hidden) {
        json_t *v = json_object_get(req, "seed");
        s->seed_given = 0;
        if (v && !json_is_null(v)) {
            /* whoever knows the deal's seed computes every hand: a player
             * never chooses it (the engines' rule for hidden information) */
            if (s->mode == WEB_PLAY && !web_cfg.allow_seed) {
                snprintf(err, n, "'seed' is refused: whoever knows the deal's seed "
                                 "knows every hand (the server draws the deal)");
                return -1;
            }
            if (!json_is_integer(v) || json_integer_value(v) < 0) {
                snprintf(err, n, "'seed' takes a whole number >= 0");
                return -1;
            }
            s->seed = (uint64_t)json_integer_value(v);
            s->seed_given = 1;
        }
    }
    if (s->g->config_check && s->g->config_check(s->cfg, err, n) != GAME_OK)
        return -1;
    return 0;
}

/* The seat settings of a request: seat, movetime, strategy, engine. */
static int apply_settings(struct sess *s, json_t *req, int creating, char *err,
                          size_t n)
{
    long long seat, mt, th;
    const char *st, *en;
    int cfg, ponder;
    int maxseat = s->g->max_seats;
    json_t *pj = json_object_get(req, "ponder");

    if (jint(req, "seat", creating ? 1 : s->human, 0, maxseat, &seat, err, n) < 0 ||
        jint(req, "movetime", creating ? 500 : s->seat[1].movetime, 10,
             web_cfg.max_movetime, &mt, err, n) < 0 ||
        jint(req, "threads", creating ? 1 : s->seat[1].threads, 1, 256, &th, err,
             n) < 0)
        return -1;
    if (pj && !json_is_boolean(pj)) {
        snprintf(err, n, "'ponder' must be true or false");
        return -1;
    }
    ponder = pj ? json_is_true(pj) : creating ? 0 : s->seat[1].ponder;
    /* Pondering guesses the person's reply in a position both see. */
    if (ponder && (s->hidden || s->g->max_seats != 2)) {
        snprintf(err, n, "pondering needs a two-seat game of perfect information "
                 "(%s has %s)", s->g->name,
                 s->hidden ? "hidden information" : "more seats");
        return -1;
    }
    st = jstr(req, "strategy", creating ? "" : s->seat[1].strategy);
    en = jstr(req, "engine", NULL);
    cfg = find_engine(s->g->name, en);
    if (cfg < 0) {
        snprintf(err, n, en ? "no engine '%s' for %s" : "%s%s has no engine",
                 en ? en : "", s->g->name);
        return -1;
    }
    if (!strategy_ok(cfg, st)) {
        snprintf(err, n, "engine %s has no Strategy '%s'",
                 web_cfg.eng[cfg].name, st);
        return -1;
    }
    if (th > 1 && th > web_cfg.eng[cfg].threads_max) {
        if (web_cfg.eng[cfg].threads_max)
            snprintf(err, n, "engine %s takes at most %d threads",
                     web_cfg.eng[cfg].name, web_cfg.eng[cfg].threads_max);
        else
            snprintf(err, n, "engine %s has no Threads option (one thread only)",
                     web_cfg.eng[cfg].name);
        return -1;
    }
    if (s->mode == WEB_PLAY && seat == 0) {
        snprintf(err, n, "'seat' takes a seat from 1 to %d", maxseat);
        return -1;
    }
    if (s->mode == WEB_PLAY)
        s->human = (int)seat;
    for (int i = 0; i <= GAME_MAX_SEATS; i++) {
        s->seat[i].cfg = cfg;
        s->seat[i].movetime = (int)mt;
        s->seat[i].threads = (int)th;
        s->seat[i].ponder = ponder;
        snprintf(s->seat[i].strategy, sizeof s->seat[i].strategy, "%s", st);
    }
    return 0;
}

/* The match's engines as the page names them (the referee's library
 * checks them again, with everything else: match.c). */
static int apply_match(struct sess *s, json_t *req, char *err, size_t n)
{
    s->a_cfg = find_engine(s->g->name, jstr(req, "a", NULL));
    s->b_cfg = find_engine(s->g->name, jstr(req, "b", NULL));
    if (s->a_cfg < 0 || s->b_cfg < 0) {
        snprintf(err, n, "no such engine for %s", s->g->name);
        return -1;
    }
    snprintf(s->a_strategy, sizeof s->a_strategy, "%s", jstr(req, "a_strategy", ""));
    snprintf(s->b_strategy, sizeof s->b_strategy, "%s", jstr(req, "b_strategy", ""));
    return 0;
}

/* ---- the referee's match on the board (calls from match.c) ------------ */

static void mh_start(void *ctx, int game, const void *st, const int eng_of_seat[])
{
    struct sess *s = ctx;
    pthread_mutex_lock(&s->mu);
    memcpy(s->start, st, s->g->state_size);
    s->nseats = s->g->nseats(s->start);
    replay(s, 0);
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
    s->thinking = to_move(s);
    bump(s);
    pthread_mutex_unlock(&s->mu);
}

static void mh_move(void *ctx, int seat, const char *tok, int64_t ms)
{
    struct sess *s = ctx;
    char err[GAME_ERR_LEN];
    pthread_mutex_lock(&s->mu);
    if (play_token(s, tok, err, sizeof err) != GAME_OK)
        say(s, "the referee's move %.40s does not fit the board: %s", tok, err);
    if (seat >= 1 && seat <= GAME_MAX_SEATS) {
        s->seat[seat].last_ms = ms;
        s->seat[seat].used_ms += ms;
    }
    s->thinking = to_move(s);
    bump(s);
    pthread_mutex_unlock(&s->mu);
}

static void mh_changed(void *ctx)
{
    struct sess *s = ctx;
    pthread_mutex_lock(&s->mu);
    bump(s);
    pthread_mutex_unlock(&s->mu);
}

/* A game that starts from a position string (play or analysis of a
 * perfect-information game; a hidden game starts from its deal). */
static int start_from(struct sess *s, const char *fen, char *err, size_t n)
{
    if (!fen || !*fen || strcmp(fen, "start") == 0)
        return 0;
    if (s->hidden && s->mode != WEB_ANALYSE) {
        snprintf(err, n, "%s starts from a deal, not a position string", s->g->title);
        return -1;
    }
    if (strlen(fen) >= FEN_LEN) {
        snprintf(err, n, "position string too long");
        return -1;
    }
    if (s->g->parse_pos(s->start, s->cfg, fen, err, n) != GAME_OK)
        return -1;
    s->nseats = s->g->nseats(s->start);
    replay(s, 0);
    return 0;
}

/* The moves of a request (a record, a share link) played from the start,
 * then the cursor put at "ply" (default: the last move). */
static int start_moves(struct sess *s, json_t *req, char *err, size_t n)
{
    json_t *moves = json_object_get(req, "moves"), *v;
    long long ply;
    size_t i;
    if (!moves || json_is_null(moves))
        return 0;
    if (!json_is_array(moves)) {
        snprintf(err, n, "'moves' is a list of move tokens");
        return -1;
    }
    if (json_array_size(moves) && (s->mode == WEB_MATCH || (s->hidden && s->mode != WEB_ANALYSE))) {
        snprintf(err, n, "moves to start from are for play and analysis%s",
                 s->hidden ? " (analysis only in a hidden-card game)" : "");
        return -1;
    }
    json_array_foreach(moves, i, v) {
        char e2[GAME_ERR_LEN];
        if (!json_is_string(v)) {
            snprintf(err, n, "'moves' is a list of move tokens");
            return -1;
        }
        if (play_token(s, json_string_value(v), e2, sizeof e2) != GAME_OK) {
            snprintf(err, n, "move %zu '%.40s': %s", i + 1, json_string_value(v), e2);
            return -1;
        }
    }
    /* a game played goes on from its last move; an analysis anywhere */
    if (jint(req, "ply", s->n, s->mode == WEB_ANALYSE ? 0 : s->n, s->n, &ply, err, n) < 0)
        return -1;
    replay(s, (int)ply);
    return 0;
}

int sess_create(json_t *req0, char *id, size_t idn, char *err, size_t n)
{
    /* A pasted record becomes the request a share link makes. */
    json_t *req = web_rec_request(req0, err, n);
    int code;
    if (!req)
        return 400;
    code = sess_create_req(req, id, idn, err, n);
    json_decref(req);
    return code;
}

static int sess_create_req(json_t *req, char *id, size_t idn, char *err, size_t n)
{
    const char *game = jstr(req, "game", NULL), *mode = jstr(req, "mode", "play");
    const struct game *g;
    struct sess *s;
    int slot = -1;
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
    if (apply_params(s, req, err, n) < 0 ||
        apply_settings(s, req, 1, err, n) < 0 ||
        (s->mode == WEB_MATCH && apply_match(s, req, err, n) < 0)) {
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
    new_game(s);
    if (s->mode == WEB_MATCH && jstr(req, "fen", NULL)) {
        snprintf(err, n, "a match starts from its openings, not a position string");
        sess_free(s);
        return 400;
    }
    if (start_from(s, jstr(req, "fen", NULL), err, n) < 0 ||
        start_moves(s, req, err, n) < 0) {
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
    s->last_seen = now_us();

    pthread_mutex_lock(&g_mu);
    for (int i = 0; i < MAX_SESSIONS && i < web_cfg.max_sessions; i++)
        if (!g_sess[i]) {
            slot = i;
            break;
        }
    if (slot < 0) {
        /* Full: the session whose page has been away longest goes. */
        int64_t oldest = INT64_MAX;
        for (int i = 0; i < MAX_SESSIONS && i < web_cfg.max_sessions; i++) {
            struct sess *o = g_sess[i];
            if (o && o->listeners == 0 && o->last_seen < oldest) {
                oldest = o->last_seen;
                slot = i;
            }
        }
        if (slot >= 0) {
            struct sess *o = g_sess[slot];
            g_sess[slot] = NULL;
            pthread_mutex_unlock(&g_mu);
            close_session(o);
            pthread_mutex_lock(&g_mu);
            if (g_sess[slot])
                slot = -1;
        }
    }
    if (slot < 0) {
        pthread_mutex_unlock(&g_mu);
        snprintf(err, n, "too many games open (%d): close a tab", web_cfg.max_sessions);
        sess_free(s);
        return 503;
    }
    g_sess[slot] = s;
    if (pthread_create(&s->worker, NULL, worker, s) == 0)
        s->has_worker = 1;
    pthread_mutex_unlock(&g_mu);
    snprintf(id, idn, "%s", s->id);
    return 200;
}

/* ---- the page's state ----------------------------------------------- */

static json_t *result_json(struct sess *s, const struct game_result *r)
{
    json_t *o = json_object(), *ranks = json_array(), *scores = json_array();
    char text[256];
    size_t len = 0;
    for (int i = 0; i < r->nseats; i++) {
        json_array_append_new(ranks, json_integer(r->rank[i]));
        json_array_append_new(scores, json_real(r->score[i]));
    }
    if (r->nseats == 2)
        buf_printf(text, sizeof text, &len, "%s", game_outcome2(r));
    else {
        buf_printf(text, sizeof text, &len, "ranks");
        for (int i = 0; i < r->nseats; i++)
            buf_printf(text, sizeof text, &len, " %d", r->rank[i]);
    }
    buf_printf(text, sizeof text, &len, " reason %s scores",
               r->reason ? r->reason : "over");
    for (int i = 0; i < r->nseats; i++)
        buf_printf(text, sizeof text, &len, " %g", r->score[i]);
    json_object_set_new(o, "text", json_string(text));
    json_object_set_new(o, "reason", json_string(r->reason ? r->reason : "over"));
    json_object_set_new(o, "ranks", ranks);
    json_object_set_new(o, "scores", scores);
    (void)s;
    return o;
}

/* The position the page may see: seat `human`'s view in a hidden game
 * played by a person, the whole state otherwise. */
static void page_fen(struct sess *s, const void *st, char *buf, size_t n)
{
    if (s->hidden && s->mode == WEB_PLAY) {
        int rc = s->g->view(st, s->human, s->tmp);
        assert(rc == GAME_OK);
        (void)rc;
        s->g->format_pos(s->tmp, buf, n);
    } else
        s->g->format_pos(st, buf, n);
}

/* Are the game's turns tokens of one or two parts joined by ',' (Palagan)? */
static int two_part(const struct sess *s)
{
    return strcmp(s->g->name, "palagan") == 0;
}

json_t *sess_legal_after(struct sess *s, const char *first, char *err, size_t n)
{
    json_t *out = NULL;
    size_t fl = strlen(first);
    pthread_mutex_lock(&s->mu);
    if (!two_part(s))
        snprintf(err, n, "%s lists its whole turns in the state", s->g->title);
    else if (fl == 0 || fl >= TOK_LEN || strchr(first, ','))
        snprintf(err, n, "'first' takes one maneuver");
    else {
        gmove *mv = xmalloc(MAX_LEGAL * sizeof *mv);
        struct game_result r;
        char tok[TOK_LEN];
        int k;
        result_now(s, &r);
        k = r.over ? 0 : s->g->gen_moves(s->st, mv, MAX_LEGAL);
        out = json_array();
        for (int i = 0; i < k; i++) {
            s->g->format_move(s->st, mv[i], tok, sizeof tok);
            if (strncmp(tok, first, fl) == 0 && tok[fl] == ',')
                json_array_append_new(out, json_string(tok));
        }
        free(mv);
        if (json_array_size(out) == 0) {
            json_decref(out);
            out = NULL;
            snprintf(err, n, "no turn begins with '%.40s' here", first);
        }
    }
    pthread_mutex_unlock(&s->mu);
    return out;
}

static json_t *state_locked(struct sess *s)
{
    json_t *o = json_object(), *moves = json_array(), *seats = json_array();
    struct game_result r;
    char *fen = xmalloc(FEN_LEN);
    int tm;

    result_now(s, &r);
    tm = r.over ? 0 : s->g->to_move(s->st);
    json_object_set_new(o, "id", json_string(s->id));
    json_object_set_new(o, "version", json_integer((json_int_t)s->version));
    json_object_set_new(o, "mode", json_string(s->mode == WEB_PLAY ? "play"
                                               : s->mode == WEB_ANALYSE ? "analyse"
                                                                        : "match"));
    json_object_set_new(o, "game", json_string(s->g->name));
    json_object_set_new(o, "title", json_string(s->g->title));
    json_object_set_new(o, "params", json_string(s->pub_params));
    json_object_set_new(o, "nseats", json_integer(s->nseats));
    json_object_set_new(o, "human", json_integer(s->human));
    json_object_set_new(o, "to_move", json_integer(tm));
    page_fen(s, s->st, fen, FEN_LEN);
    json_object_set_new(o, "fen", json_string(fen));
    if (!s->hidden || s->mode != WEB_PLAY) {
        s->g->format_pos(s->start, fen, FEN_LEN);
        json_object_set_new(o, "start_fen", json_string(fen));
    }
    for (int i = 0; i < s->n; i++)
        json_array_append_new(moves, json_string(s->tok[i]));
    json_object_set_new(o, "moves", moves);
    /* Who made each move (public: the page labels and numbers the moves). */
    {
        json_t *movers = json_array();
        void *x = xmalloc(s->g->state_size);
        memcpy(x, s->start, s->g->state_size);
        for (int i = 0; i < s->n; i++) {
            json_array_append_new(movers, json_integer(s->g->to_move(x)));
            s->g->play(x, s->mv[i]);
        }
        free(x);
        json_object_set_new(o, "movers", movers);
    }
    json_object_set_new(o, "ply", json_integer(s->ply));
    if (!r.over && (s->mode == WEB_ANALYSE ||
                    (s->mode == WEB_PLAY && tm == s->human && s->ply == s->n))) {
        gmove *mv = xmalloc(MAX_LEGAL * sizeof *mv);
        int k = s->g->gen_moves(s->st, mv, MAX_LEGAL);
        json_t *legal = json_array();
        if (two_part(s)) {
            /* Palagan: a turn is one maneuver or two ("a,b"); a size-9
             * board has tens of thousands.  The page gets the one-maneuver
             * turns, the first maneuvers that take a second ("firsts"),
             * and asks for the seconds of the one it picks (/legal). */
            json_t *firsts = json_array(), *seen = json_object();
            for (int i = 0; i < k; i++) {
                char *comma;
                s->g->format_move(s->st, mv[i], fen, TOK_LEN);
                comma = strchr(fen, ',');
                if (!comma) {
                    json_array_append_new(legal, json_string(fen));
                    continue;
                }
                *comma = '\0';
                if (!json_object_get(seen, fen)) {
                    json_object_set_new(seen, fen, json_true());
                    json_array_append_new(firsts, json_string(fen));
                }
            }
            json_decref(seen);
            json_object_set_new(o, "firsts", firsts);
            json_object_set_new(o, "nlegal", json_integer(k));
        } else
            for (int i = 0; i < k; i++) {
                s->g->format_move(s->st, mv[i], fen, TOK_LEN);
                json_array_append_new(legal, json_string(fen));
            }
        free(mv);
        json_object_set_new(o, "legal", legal);
    } else
        json_object_set_new(o, "legal", json_array());
    json_object_set_new(o, "result", r.over ? result_json(s, &r) : json_null());
    json_object_set_new(o, "thinking", json_integer(s->thinking));
    json_object_set_new(o, "message", json_string(s->message));
    for (int i = 1; i <= s->nseats; i++) {
        json_t *e = json_object();
        const struct web_engine_cfg *c = engine_cfg(s->seat[i].cfg);
        int human = s->mode == WEB_PLAY && i == s->human;
        json_object_set_new(e, "seat", json_integer(i));
        json_object_set_new(e, "player", json_string(human ? "you"
                                                     : s->mode == WEB_ANALYSE ? "analysis"
                                                     : c ? c->name : "?"));
        json_object_set_new(e, "strategy", json_string(human ? "" : s->seat[i].strategy));
        json_object_set_new(e, "state", json_string(human ? "" : s->seat[i].state));
        json_object_set_new(e, "used_ms", json_integer(s->seat[i].used_ms));
        json_object_set_new(e, "last_ms", json_integer(s->seat[i].last_ms));
        if (!human)
            json_object_set_new(e, "threads", json_integer(s->seat[i].threads));
        if (!human && !s->hidden) { /* pondering: never in a hidden game */
            json_object_set_new(e, "pondering", json_boolean(s->seat[i].pondering));
            /* the reply it expects (the page may show it) */
            json_object_set_new(e, "ponder_move",
                                json_string(s->seat[i].pondering ? s->seat[i].ponder_tok : ""));
            json_object_set_new(e, "ponder_hits", json_integer(s->seat[i].ponder_hits));
            json_object_set_new(e, "ponder_misses",
                                json_integer(s->seat[i].ponder_misses));
        }
        json_array_append_new(seats, e);
    }
    json_object_set_new(o, "seats", seats);
    json_object_set_new(o, "movetime", json_integer(s->seat[1].movetime));
    json_object_set_new(o, "threads", json_integer(s->seat[1].threads));
    json_object_set_new(o, "ponder", json_boolean(s->seat[1].ponder));
    json_object_set_new(o, "strategy", json_string(s->seat[1].strategy));
    {
        const struct web_engine_cfg *c = engine_cfg(s->seat[s->human > 1 ? 1 : 2].cfg);
        json_object_set_new(o, "engine", json_string(c ? c->name : ""));
    }
    /* Search output: never an engine's of another seat in a hidden game
     * (its principal variation would name the cards it holds). */
    if (!s->hidden || s->mode != WEB_PLAY) {
        json_t *lines = json_array();
        for (int i = 0; i < MAX_PV; i++) {
            json_t *l;
            if (!s->pv[i].depth && !s->pv[i].nodes && !s->pv[i].pv[0])
                continue;
            l = json_object();
            json_object_set_new(l, "multipv", json_integer(i + 1));
            json_object_set_new(l, "depth", json_integer(s->pv[i].depth));
            json_object_set_new(l, "score", json_string(s->pv[i].score));
            json_object_set_new(l, "nodes", json_integer((json_int_t)s->pv[i].nodes));
            json_object_set_new(l, "time", json_integer(s->pv[i].time_ms));
            json_object_set_new(l, "pv", json_string(s->pv[i].pv));
            json_array_append_new(lines, l);
        }
        json_object_set_new(o, "info", lines);
        json_object_set_new(o, "info_seat", json_integer(s->pv_seat));
    }
    json_object_set_new(o, "analysing", json_boolean(s->analysing));
    json_object_set_new(o, "multipv", json_integer(s->multipv));
    if (s->mode == WEB_MATCH && s->wm) {
        json_t *m = web_match_json(s->wm);
        json_object_set_new(m, "game", json_integer(s->match_game));
        json_object_set_new(o, "match", m);
    }
    free(fen);
    return o;
}

json_t *sess_state(struct sess *s, uint64_t *version)
{
    json_t *o;
    pthread_mutex_lock(&s->mu);
    o = state_locked(s);
    if (version)
        *version = s->version;
    pthread_mutex_unlock(&s->mu);
    return o;
}

json_t *sess_engines(struct sess *s)
{
    json_t *pids = json_array();
    pthread_mutex_lock(&s->mu);
    for (int k = 0; k <= GAME_MAX_SEATS; k++)
        if (web_eng_pid(s->seat[k].e))
            json_array_append_new(pids, json_integer(web_eng_pid(s->seat[k].e)));
    pthread_mutex_unlock(&s->mu);
    return json_pack("{s:o}", "engine_pids", pids);
}

/* Counts only: the ids are the pages' own business (a list of them would
 * let anyone who can reach the server find every game). */
json_t *sess_status(void)
{
    json_t *o = json_object();
    int ns = 0, ne = 0, nl = 0;
    pthread_mutex_lock(&g_mu);
    for (int i = 0; i < MAX_SESSIONS; i++) {
        struct sess *s = g_sess[i];
        if (!s)
            continue;
        ns++;
        pthread_mutex_lock(&s->mu);
        for (int k = 0; k <= GAME_MAX_SEATS; k++)
            ne += web_eng_pid(s->seat[k].e) != 0;
        nl += s->listeners;
        pthread_mutex_unlock(&s->mu);
    }
    pthread_mutex_unlock(&g_mu);
    json_object_set_new(o, "sessions", json_integer(ns));
    json_object_set_new(o, "engines", json_integer(ne));
    json_object_set_new(o, "listeners", json_integer(nl));
    return o;
}

/* ---- actions -------------------------------------------------------- */

static int act_move(struct sess *s, json_t *req, char *err, size_t n)
{
    const char *tok = jstr(req, "move", NULL);
    int tm;
    if (!tok) {
        snprintf(err, n, "'move' (a move token) is missing");
        return 400;
    }
    if (s->mode == WEB_MATCH) {
        snprintf(err, n, "a match is played by the engines");
        return 400;
    }
    tm = to_move(s);
    if (s->mode == WEB_PLAY) {
        if (tm && tm != s->human) {
            snprintf(err, n, "not your turn: seat %d is to move", tm);
            return 400;
        }
        if (s->paused && tm == 0) {
            snprintf(err, n, "the game is over");
            return 400;
        }
    }
    if (play_token(s, tok, err, n) != GAME_OK)
        return 400;
    s->message[0] = '\0';
    return 200;
}

static int act_undo(struct sess *s, char *err, size_t n)
{
    int k;
    if (s->mode != WEB_PLAY) {
        snprintf(err, n, "undo is for play (use step in analysis)");
        return 400;
    }
    if (s->hidden) {
        snprintf(err, n, "no undo in %s: taking back a draw would show a hidden card",
                 s->g->title);
        return 400;
    }
    /* Back to the person's previous turn. */
    k = s->n;
    do {
        k--;
        if (k < 0)
            break;
        replay(s, k);
    } while (to_move(s) != s->human && k > 0);
    if (k < 0) {
        snprintf(err, n, "no move to take back");
        return 400;
    }
    s->n = s->ply;
    s->pos_gen++;
    s->paused = 0;
    say(s, "took back to move %d", s->ply + 1);
    return 200;
}

static int act_position(struct sess *s, json_t *req, char *err, size_t n)
{
    long long ply = 0;
    const char *fen = jstr(req, "fen", "");
    json_t *moves = json_object_get(req, "moves");
    size_t i;
    json_t *v;
    int rc;

    if (s->mode != WEB_ANALYSE) {
        snprintf(err, n, "position is for analysis");
        return 400;
    }
    if (moves && !json_is_array(moves)) {
        snprintf(err, n, "'moves' is a list of move tokens");
        return 400;
    }
    if (strlen(fen) >= FEN_LEN) {
        snprintf(err, n, "position string too long");
        return 400;
    }
    if (*fen && strcmp(fen, "start") != 0) {
        rc = s->g->parse_pos(s->tmp, s->cfg, fen, err, n);
        if (rc != GAME_OK)
            return 400;
    } else
        s->g->start(s->tmp, s->cfg);
    /* Check the moves on a copy before anything changes. */
    {
        void *save = xmalloc(s->g->state_size), *st = s->st;
        void *old_start = xmalloc(s->g->state_size);
        gmove *omv = NULL;
        char (*otok)[TOK_LEN] = NULL;
        uint64_t *ohist = NULL;
        int on = s->n, oply = s->ply;
        memcpy(save, st, s->g->state_size);
        memcpy(old_start, s->start, s->g->state_size);
        if (on) {
            omv = xmalloc((size_t)on * sizeof *omv);
            otok = xmalloc((size_t)on * sizeof *otok);
            ohist = xmalloc((size_t)on * sizeof *ohist);
            memcpy(omv, s->mv, (size_t)on * sizeof *omv);
            memcpy(otok, s->tok, (size_t)on * sizeof *otok);
            memcpy(ohist, s->hist, (size_t)on * sizeof *ohist);
        }
        memcpy(s->start, s->tmp, s->g->state_size);
        replay(s, 0);
        s->n = 0;
        rc = GAME_OK;
        json_array_foreach(moves, i, v) {
            char e2[GAME_ERR_LEN];
            if (!json_is_string(v)) {
                snprintf(err, n, "'moves' is a list of move tokens");
                rc = GAME_ESYNTAX;
                break;
            }
            if (play_token(s, json_string_value(v), e2, sizeof e2) != GAME_OK) {
                snprintf(err, n, "move %zu '%.40s': %s", i + 1,
                         json_string_value(v), e2);
                rc = GAME_EILLEGAL;
                break;
            }
        }
        if (rc == GAME_OK && jint(req, "ply", s->n, 0, s->n, &ply, err, n) < 0)
            rc = GAME_ESYNTAX;
        if (rc != GAME_OK) {       /* put everything back */
            memcpy(s->start, old_start, s->g->state_size);
            memcpy(s->st, save, s->g->state_size);
            if (on) {
                memcpy(s->mv, omv, (size_t)on * sizeof *omv);
                memcpy(s->tok, otok, (size_t)on * sizeof *otok);
                memcpy(s->hist, ohist, (size_t)on * sizeof *ohist);
            }
            s->n = on;
            s->ply = oply;
        }
        free(save);
        free(old_start);
        free(omv);
        free(otok);
        free(ohist);
        if (rc != GAME_OK)
            return 400;
    }
    replay(s, (int)ply);            /* the cursor: "ply", else the last move */
    s->nseats = s->g->nseats(s->st);
    s->pos_gen++;
    s->game_gen++;
    memset(s->pv, 0, sizeof s->pv);
    return 200;
}

static int act_step(struct sess *s, json_t *req, char *err, size_t n)
{
    long long ply;
    if (s->mode != WEB_ANALYSE) {
        snprintf(err, n, "step is for analysis");
        return 400;
    }
    if (jint(req, "ply", s->ply, 0, s->n, &ply, err, n) < 0)
        return 400;
    replay(s, (int)ply);
    s->pos_gen++;
    memset(s->pv, 0, sizeof s->pv);
    return 200;
}

static int act_analyse(struct sess *s, json_t *req, char *err, size_t n)
{
    json_t *on = json_object_get(req, "on");
    long long mpv;
    if (s->mode != WEB_ANALYSE) {
        snprintf(err, n, "analysis runs in an analysis session");
        return 400;
    }
    if (!json_is_boolean(on)) {
        snprintf(err, n, "'on' is true or false");
        return 400;
    }
    if (jint(req, "multipv", s->multipv, 1, MAX_PV, &mpv, err, n) < 0)
        return 400;
    if (json_is_true(on) && to_move(s) == 0) {
        snprintf(err, n, "the game is over: nothing to analyse");
        return 400;
    }
    s->multipv = (int)mpv;
    s->analysing = json_is_true(on);
    s->pos_gen++;
    if (s->analysing)
        memset(s->pv, 0, sizeof s->pv);
    return 200;
}

static int act_new(struct sess *s, json_t *req, char *err, size_t n)
{
    /* Check everything on a copy of the settings first. */
    unsigned char cfg[GAME_MAX_CONFIG];
    char pp[128], ep[128];
    struct seat seats[GAME_MAX_SEATS + 1];
    int human = s->human, given = s->seed_given, bad = 0;
    uint64_t seed = s->seed;
    const char *fen;
    memcpy(cfg, s->cfg, sizeof cfg);
    memcpy(pp, s->pub_params, sizeof pp);
    memcpy(ep, s->eng_params, sizeof ep);
    memcpy(seats, s->seat, sizeof seats);
    fen = jstr(req, "fen", "");
    if (!strcmp(fen, "start"))
        fen = "";
    if (s->mode == WEB_MATCH) {
        snprintf(err, n, "a new match is a new session (POST /api/session with "
                 "mode match); stop this one with the action stop");
        return 400;
    }
    if (apply_params(s, req, err, n) < 0 || apply_settings(s, req, 0, err, n) < 0) {
        bad = 1;
    } else {
        s->g->start(s->tmp, s->cfg);
        if (*fen && s->hidden && s->mode != WEB_ANALYSE) {
            snprintf(err, n, "%s starts from a deal, not a position string", s->g->title);
            bad = 1;
        } else if (*fen && (strlen(fen) >= FEN_LEN ||
                            s->g->parse_pos(s->tmp, s->cfg, fen, err, n) != GAME_OK)) {
            if (strlen(fen) >= FEN_LEN)
                snprintf(err, n, "position string too long");
            bad = 1;
        } else if (s->human > s->g->nseats(s->tmp)) {
            snprintf(err, n, "'seat' takes a seat from 1 to %d", s->g->nseats(s->tmp));
            bad = 1;
        }
    }
    if (bad) {
        memcpy(s->cfg, cfg, sizeof cfg);
        memcpy(s->pub_params, pp, sizeof pp);
        memcpy(s->eng_params, ep, sizeof ep);
        memcpy(s->seat, seats, sizeof seats);
        s->human = human;
        s->seed_given = given;
        s->seed = seed;
        return 400;
    }
    s->analysing = 0;
    new_game(s);
    if (*fen) {
        memcpy(s->start, s->tmp, s->g->state_size);
        s->nseats = s->g->nseats(s->start);
        replay(s, 0);
    }
    s->message[0] = '\0';
    return 200;
}

static int act_settings(struct sess *s, json_t *req, char *err, size_t n)
{
    struct seat seats[GAME_MAX_SEATS + 1];
    memcpy(seats, s->seat, sizeof seats);
    if (json_object_get(req, "seat")) {
        snprintf(err, n, "a new seat needs a new game");
        return 400;
    }
    if (apply_settings(s, req, 0, err, n) < 0) {
        memcpy(s->seat, seats, sizeof seats);
        return 400;
    }
    return 200;
}

int sess_action(struct sess *s, const char *action, json_t *req, char *err,
                size_t n)
{
    int code;
    if (!json_is_object(req)) {
        snprintf(err, n, "the request body must be a JSON object");
        return 400;
    }
    pthread_mutex_lock(&s->mu);
    if (s->closing)
        code = 404, snprintf(err, n, "the session is closed");
    else if (strcmp(action, "move") == 0)
        code = act_move(s, req, err, n);
    else if (strcmp(action, "undo") == 0)
        code = act_undo(s, err, n);
    else if (strcmp(action, "new") == 0)
        code = act_new(s, req, err, n);
    else if (strcmp(action, "settings") == 0)
        code = act_settings(s, req, err, n);
    else if (strcmp(action, "position") == 0)
        code = act_position(s, req, err, n);
    else if (strcmp(action, "step") == 0)
        code = act_step(s, req, err, n);
    else if (strcmp(action, "analyse") == 0)
        code = act_analyse(s, req, err, n);
    else if (strcmp(action, "stop") == 0 && s->mode == WEB_MATCH) {
        web_match_stop(s->wm);      /* lock-free; the match says when done */
        code = 200;
    } else {
        snprintf(err, n, "no action '%.40s'", action);
        code = 404;
    }
    if (code == 200) {
        bump(s);
        pthread_cond_broadcast(&s->wake);
    }
    pthread_mutex_unlock(&s->mu);
    return code;
}

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
    cancel = s->closing || g_quit || s->pos_gen != c->gen;
    if (!cancel && c->seat == 0 && !s->analysing)
        cancel = 1;
    if (line && c->show && !cancel) {
        parse_info(s, line);
        s->pv_seat = c->seat;
        /* At most about ten updates a second for search output. */
        if (now_us() - s->last_bump > 100000)
            bump(s);
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
        const struct web_engine_cfg *c = engine_cfg(cfg);
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
        to_move(s) != s->human || s->ply != s->n || !*pm || s->ply < 1)
        return;
    result_now(s, &r);
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
    bump(s);
    pthread_mutex_unlock(&s->mu);
    rc = web_eng_ponder_start(x->e, b.s, limits, err, sizeof err);
    free(b.s);
    pthread_mutex_lock(&s->mu);
    if (rc < 0) {
        x->pondering = 0;
        snprintf(x->state, sizeof x->state, "idle");
        say(s, "the engine at seat %d could not ponder (%s); it is restarted", k, err);
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
    bump(s);
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
        bump(s);
        return;
    }
    if (rc == WEB_GO_OK) {
        snprintf(x->state, sizeof x->state, "idle");
        if (k == 0) {
            s->analysing = 0;      /* the search ended by itself */
        } else {
            char e2[GAME_ERR_LEN];
            if (play_token(s, move, e2, sizeof e2) != GAME_OK) {
                say(s, "the engine at seat %d played an illegal move '%.40s' (%s); "
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
        bump(s);
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
        say(s, "the engine at seat %d failed %d times (%s): it is not restarted; "
            "start a new game", k, x->crashes, err);
    } else {
        snprintf(x->state, sizeof x->state, "crashed");
        if (k)
            say(s, "the engine at seat %d crashed (%s) and is restarted", k, err);
        else
            say(s, "the analysis engine crashed (%s) and is restarted", err);
    }
    bump(s);
}

static void *worker(void *arg)
{
    struct sess *s = arg;
    pthread_mutex_lock(&s->mu);
    while (!s->closing && !g_quit) {
        int tm = to_move(s);
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
                bump(s);
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
                say(s, "the engine at seat %d failed while pondering (%s); it is "
                    "restarted", k, perr);
                bump(s);
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
                s->analysing = 0, bump(s);
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

/* ---- the reaper: sessions whose page went away ---------------------- */

static void *reaper(void *arg)
{
    (void)arg;
    while (!g_quit) {
        struct sess *dead[MAX_SESSIONS];
        int nd = 0;
        int64_t now = now_us();
        pthread_mutex_lock(&g_mu);
        for (int i = 0; i < MAX_SESSIONS; i++) {
            struct sess *s = g_sess[i];
            int idle;
            if (!s)
                continue;
            pthread_mutex_lock(&s->mu);
            idle = s->listeners == 0 && s->refs == 1 &&
                   now - s->last_seen > (int64_t)web_cfg.idle_s * 1000000;
            pthread_mutex_unlock(&s->mu);
            if (idle) {
                dead[nd++] = s;
                g_sess[i] = NULL;
            }
        }
        pthread_mutex_unlock(&g_mu);
        for (int i = 0; i < nd; i++)
            close_session(dead[i]);
        for (int i = 0; i < 5 && !g_quit; i++)
            usleep(100000);
    }
    return NULL;
}

void sess_start_reaper(void)
{
    if (pthread_create(&g_reaper, NULL, reaper, NULL) == 0)
        g_has_reaper = 1;
}

void sess_shutdown(void)
{
    struct sess *all[MAX_SESSIONS];
    int k = 0;
    g_quit = 1;
    pthread_mutex_lock(&g_mu);
    for (int i = 0; i < MAX_SESSIONS; i++)
        if (g_sess[i]) {
            struct sess *s = g_sess[i];
            pthread_mutex_lock(&s->mu);
            pthread_cond_broadcast(&s->changed);
            pthread_cond_broadcast(&s->wake);
            pthread_mutex_unlock(&s->mu);
        }
    pthread_mutex_unlock(&g_mu);
    if (g_has_reaper)
        pthread_join(g_reaper, NULL);
    g_has_reaper = 0;
    pthread_mutex_lock(&g_mu);
    for (int i = 0; i < MAX_SESSIONS; i++)
        if (g_sess[i]) {
            all[k++] = g_sess[i];
            g_sess[i] = NULL;
        }
    pthread_mutex_unlock(&g_mu);
    for (int i = 0; i < k; i++)
        close_session(all[i]);
}

/* Wake every event stream (the server is stopping). */
void sess_wake_all(void)
{
    g_quit = 1;
    pthread_mutex_lock(&g_mu);
    for (int i = 0; i < MAX_SESSIONS; i++)
        if (g_sess[i]) {
            pthread_mutex_lock(&g_sess[i]->mu);
            pthread_cond_broadcast(&g_sess[i]->changed);
            pthread_cond_broadcast(&g_sess[i]->wake);
            pthread_mutex_unlock(&g_sess[i]->mu);
        }
    pthread_mutex_unlock(&g_mu);
}
