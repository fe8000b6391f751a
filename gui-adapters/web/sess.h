/* sess.h - inside medan-web's sessions (private to session.c, table.c,
 * model.c, settings.c, state.c, actions.c, worker.c): the session struct
 * and what those files share.  The rest of the server sees web.h only. */
#ifndef SESS_H
#define SESS_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "core/game.h"
#include "web.h"

#define MAX_SESSIONS 64
#define TOK_LEN 96
#define MAX_LEGAL 131072
#define MAX_PV 8
#define FEN_LEN 65536

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
    int64_t created;
    char addr[48];           /* the creating page's address (the cap per address) */
    int listeners;
    pthread_t worker;
    int has_worker;
};


/* ---- model.c: the game (all under s->mu) ---- */
/* The state changed: wake the live updates. */
void sess_bump(struct sess *s);
void sess_say(struct sess *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sess_grow(struct sess *s, int need);
/* Rebuild s->st from the start and the first `ply` moves. */
void sess_replay(struct sess *s, int ply);
void sess_result_now(struct sess *s, struct game_result *r);
/* The seat to move, 0 when the game is over. */
int sess_to_move(struct sess *s);
/* Play a token at the cursor (later moves dropped): 0 or a game_err. */
int sess_play_token(struct sess *s, const char *tok, char *err, size_t n);
const struct web_engine_cfg *sess_engine_cfg(int i);
int sess_first_engine(const char *game);
int sess_find_engine(const char *game, const char *name);
int sess_strategy_ok(int cfg, const char *st);
/* A fresh game from s->cfg. */
void sess_new_game(struct sess *s);
int sess_start_from(struct sess *s, const char *fen, char *err, size_t n);
int sess_start_moves(struct sess *s, json_t *req, char *err, size_t n);

/* ---- settings.c: a request's fields ---- */
const char *sess_jstr(json_t *o, const char *k, const char *def);
int sess_jint(json_t *o, const char *k, long long def, long long lo, long long hi,
              long long *out, char *err, size_t n);
int sess_apply_params(struct sess *s, json_t *req, char *err, size_t n);
int sess_apply_settings(struct sess *s, json_t *req, int creating, char *err, size_t n);
int sess_apply_match(struct sess *s, json_t *req, char *err, size_t n);

/* ---- session.c ---- */
void sess_free(struct sess *s);
/* Stop the worker and the engines; the table's reference is dropped. */
void sess_close(struct sess *s);

/* ---- table.c ---- */
int sess_table_add(struct sess *s, char *err, size_t n);

/* ---- worker.c ---- */
void *sess_worker(void *arg);

#endif
