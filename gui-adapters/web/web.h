/* web.h - medan-web: the server's configuration and its sessions.
 *
 * A session is one game in one browser tab: a `struct game` position with
 * its history, the seat the person plays (or none: an engine match), and
 * the engines at the other seats.  The server owns the rules: the page gets
 * the position string (a seat's view in hidden-information games), the
 * legal moves and the result, and sends move tokens back.  Each session has
 * one worker thread, the only one that talks to its engines.
 */
#ifndef WEB_H
#define WEB_H

#include <stdint.h>
#include <time.h>
#include <jansson.h>

#include "engine.h"

#define WEB_MAX_ENGINES 32
#define WEB_BODY_MAX (64 * 1024)       /* request body limit */
#define WEB_WS_MAX 384                 /* a backstop: conn.c admits connections */
#define WEB_SECRET_LEN 32              /* hex digits of a session's secret */

struct web_config {
    struct web_engine_cfg eng[WEB_MAX_ENGINES];
    int neng;
    int idle_s;          /* a session with no open page is closed after it */
    int max_sessions;
    int games_per_addr;  /* --max-games-per-address (0: half of max_sessions) */
    int max_movetime;    /* ms */
    int allow_seed;      /* --allow-seed: a page may choose Battalion's deal (tests) */
    char www[4096];
    char results_dir[4096]; /* --results-dir: the results files the page may
                               open and where its matches write ("" = none) */
};
extern struct web_config web_cfg;

/* Is `name` a game the page has a board for (the registry also holds the
 * tests' toy game)? */
int web_game_drawn(const char *name);

enum web_mode { WEB_PLAY = 0, WEB_ANALYSE = 1, WEB_MATCH = 2 };

struct sess;

/* Create a session from a request ({"game": ..., "mode": ...}) of a page
 * at address addr; HTTP status (200, or 400/503 with err), the new id in
 * id.  An address holds at most web_games_per_addr() games (at the cap its
 * own oldest without a page goes); a full table evicts a game without a
 * page, else the oldest of the address holding the most. */
int sess_create(json_t *req, const char *addr, char *id, size_t idn, char *err, size_t n);
int web_games_per_addr(void);
/* Find a session and hold it (NULL: no such session). */
struct sess *sess_get(const char *id);
/* The same for a request from outside: NULL unless `secret` is the
 * session's own (compared in constant time). */
struct sess *sess_get_owned(const char *id, const char *secret);
/* The session's secret (WEB_SECRET_LEN hex digits), given only to the page
 * that created it. */
void sess_secret(struct sess *s, char *out, size_t n);
/* Palagan's compact legal list: the whole turns that begin with the
 * maneuver `first` (new reference; NULL with err when there are none). */
json_t *sess_legal_after(struct sess *s, const char *first, char *err, size_t n);
void sess_put(struct sess *s);
/* The page's state (new reference); *version is its version. */
json_t *sess_state(struct sess *s, uint64_t *version);
/* An action (move, undo, new, settings, position, step, analyse, close);
 * HTTP status, with err for a 400. */
int sess_action(struct sess *s, const char *action, json_t *req, char *err,
                size_t n);
/* Wait until the state's version differs from version: 1, 0 after
 * timeout_ms, -1 when the session or the server closes. */
int sess_wait(struct sess *s, uint64_t version, int timeout_ms);
/* The CLOCK_REALTIME time `ms` from now, for pthread_cond_timedwait. */
struct timespec web_deadline_in(int ms);
/* An event stream opened (+1) or closed (-1). */
void sess_listen(struct sess *s, int delta);
/* The game's engine processes now ({"engine_pids": [...]}, for its page
 * and the tests). */
json_t *sess_engines(struct sess *s);
/* How many sessions, engine processes, live streams now (/api/status). */
json_t *sess_status(void);
void sess_start_reaper(void);
/* Close every session (stops their engines); wakes every event stream. */
void sess_shutdown(void);
/* Mark the server as stopping and wake every event stream and worker. */
void sess_wake_all(void);
int web_quitting(void);

/* Replace what is not UTF-8 in s by '?' (so JSON can carry it). */
void web_utf8_clean(char *s);

/* ws.c: live updates over WebSocket. */
struct MHD_Connection;
void web_sha1(const void *data, size_t n, unsigned char out[20]);
void web_base64(const unsigned char *p, size_t n, char *out);
/* Does the request ask for a WebSocket (Upgrade: websocket)? */
int web_ws_is_upgrade(struct MHD_Connection *c);
/* Answer the handshake for session s (held by the caller): 1 with *hold
 * set (the socket now owns the caller's reference; give *hold to
 * web_ws_request_done when the request ends), else 0 with an HTTP status
 * and err. */
int web_ws_accept(struct MHD_Connection *c, struct sess *s, void **hold,
                  char *err, size_t n, unsigned *code);
void web_ws_request_done(void *hold);
int web_ws_count(void);
/* Wait (at most timeout_ms) until every socket is closed. */
void web_ws_wait_all(int timeout_ms);

#endif
