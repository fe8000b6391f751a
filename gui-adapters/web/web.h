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
#include <jansson.h>

#include "engine.h"

#define WEB_MAX_ENGINES 32
#define WEB_BODY_MAX (64 * 1024)       /* request body limit */

struct web_config {
    struct web_engine_cfg eng[WEB_MAX_ENGINES];
    int neng;
    int idle_s;          /* a session with no open page is closed after it */
    int max_sessions;
    int max_movetime;    /* ms */
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

/* Create a session from a request ({"game": ..., "mode": ...}); HTTP
 * status (200, or 400/503 with err), the new id in id. */
int sess_create(json_t *req, char *id, size_t idn, char *err, size_t n);
/* Find a session and hold it (NULL: no such session). */
struct sess *sess_get(const char *id);
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
/* An event stream opened (+1) or closed (-1). */
void sess_listen(struct sess *s, int delta);
/* Sessions and engine processes now (for /api/status and the tests). */
json_t *sess_status(void);
void sess_start_reaper(void);
/* Close every session (stops their engines); wakes every event stream. */
void sess_shutdown(void);
/* Mark the server as stopping and wake every event stream and worker. */
void sess_wake_all(void);
int web_quitting(void);

#endif
