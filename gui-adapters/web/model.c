/* model.c - a medan-web session's game: the position and its history
 * through `struct game` (moves played, replayed, refused), the engines
 * configured for it, a fresh game, a start from a position or moves. */
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

/* Under s->mu: the state changed; wake the event streams. */
void sess_bump(struct sess *s)
{
    s->version++;
    s->last_bump = now_us();
    pthread_cond_broadcast(&s->changed);
}

void sess_say(struct sess *s, const char *fmt, ...)
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

void sess_grow(struct sess *s, int need)
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
void sess_replay(struct sess *s, int ply)
{
    memcpy(s->st, s->start, s->g->state_size);
    for (int i = 0; i < ply; i++)
        s->g->play(s->st, s->mv[i]);
    s->ply = ply;
}

void sess_result_now(struct sess *s, struct game_result *r)
{
    s->g->result(s->st, s->hist, s->ply, r);
}

int sess_to_move(struct sess *s)
{
    struct game_result r;
    sess_result_now(s, &r);
    return r.over ? 0 : s->g->to_move(s->st);
}

/* Play a token at the cursor (later moves are dropped).  0, or a game_err
 * with err. */
int sess_play_token(struct sess *s, const char *tok, char *err, size_t n)
{
    struct game_result r;
    gmove m;
    int rc;
    char canon[TOK_LEN];

    sess_result_now(s, &r);
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
    sess_grow(s, s->ply + 1);
    s->hist[s->ply] = s->g->hash(s->st);
    s->mv[s->ply] = m;
    snprintf(s->tok[s->ply], TOK_LEN, "%s", canon);
    s->g->play(s->st, m);
    s->ply++;
    s->n = s->ply;
    s->pos_gen++;
    return GAME_OK;
}

const struct web_engine_cfg *sess_engine_cfg(int i)
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

int sess_first_engine(const char *game)
{
    for (int i = 0; i < web_cfg.neng; i++)
        if (strcmp(web_cfg.eng[i].game, game) == 0)
            return i;
    return -1;
}

int sess_find_engine(const char *game, const char *name)
{
    if (!name)
        return sess_first_engine(game);
    for (int i = 0; i < web_cfg.neng; i++)
        if (strcmp(web_cfg.eng[i].game, game) == 0 &&
            strcmp(web_cfg.eng[i].name, name) == 0)
            return i;
    return -1;
}

int sess_strategy_ok(int cfg, const char *st)
{
    const struct web_engine_cfg *c = sess_engine_cfg(cfg);
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
void sess_new_game(struct sess *s)
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
    sess_replay(s, 0);
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

/* A game that starts from a position string (play or analysis of a
 * perfect-information game; a hidden game starts from its deal). */
int sess_start_from(struct sess *s, const char *fen, char *err, size_t n)
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
    sess_replay(s, 0);
    return 0;
}

/* The moves of a request (a record, a share link) played from the start,
 * then the cursor put at "ply" (default: the last move). */
int sess_start_moves(struct sess *s, json_t *req, char *err, size_t n)
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
        if (sess_play_token(s, json_string_value(v), e2, sizeof e2) != GAME_OK) {
            snprintf(err, n, "move %zu '%.40s': %s", i + 1, json_string_value(v), e2);
            return -1;
        }
    }
    /* a game played goes on from its last move; an analysis anywhere */
    if (sess_jint(req, "ply", s->n, s->mode == WEB_ANALYSE ? 0 : s->n, s->n, &ply, err, n) < 0)
        return -1;
    sess_replay(s, (int)ply);
    return 0;
}
