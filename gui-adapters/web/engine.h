/* engine.h - medan-web's engines: one MEP engine process behind a session,
 * driven by the shared MEP controller code (the only file of medan-web that
 * talks to it).
 *
 * A web_eng is started from a configured command (fixed when the server
 * starts: a browser never names a program), gets its Strategy, and answers
 * `go` while reporting every `info` line to a callback that can also cancel
 * the search (the person took the move back, the tab went away).
 */
#ifndef WEB_ENGINE_H
#define WEB_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#define WEB_MAX_STRATEGIES 8
#define WEB_ENG_ERR 256

/* One configured engine (--engine game=loa name=medan cmd=bin/medan-loa). */
struct web_engine_cfg {
    char *game;
    char *name;
    char *cmd;
    char *args[16];
    int nargs;
    char *opt_name[16], *opt_val[16];
    int nopts;
    /* Read from the engine's `mep` answer at start-up. */
    char strategies[WEB_MAX_STRATEGIES][32];
    int nstrategies;
    int threads_max;       /* its `option name Threads type spin` max (at most the machine's cores), 0 =
                              no Threads option (then only 1 thread) */
    int probed;            /* the handshake worked */
};

enum web_go { WEB_GO_OK = 0, WEB_GO_ERROR, WEB_GO_CANCELLED, WEB_GO_CRASHED,
              WEB_GO_TIMEOUT };

struct web_eng;

/* Called with every `info` line (line != NULL) and about every 50 ms while
 * waiting (line == NULL); returns non-zero to stop the search. */
typedef int (*web_info_fn)(void *ctx, const char *line);

struct web_eng *web_eng_new(void);
void web_eng_free(struct web_eng *e);          /* quits the process first */
int web_eng_running(const struct web_eng *e);
int web_eng_pid(const struct web_eng *e);
/* Start cfg's command, handshake, set its options, Strategy (NULL or ""
 * = its default) and Threads (when threads > 1, or the engine has the
 * option: the caller checked it against cfg->threads_max).  0 or -1 with
 * err. */
int web_eng_start(struct web_eng *e, const struct web_engine_cfg *cfg,
                  const char *strategy, int threads, char *err, size_t n);
/* A command answered by ok/error (newgame, position ...). 0 or -1 with err
 * (the engine's error line, or why it is gone). */
int web_eng_cmd(struct web_eng *e, const char *cmd, int timeout_ms, char *err,
                size_t n);
/* `go <limits>`; waits for bestmove at most max_ms after the engine's own
 * limit (0 = until cancelled).  WEB_GO_OK with the move, or why not in err. */
int web_eng_go(struct web_eng *e, const char *limits, int64_t max_ms,
               web_info_fn fn, void *ctx, char *move, size_t mn, char *err,
               size_t en);
/* The `ponder M` of the last bestmove (web_eng_go, web_eng_ponderhit);
 * "" = none. */
const char *web_eng_ponder_move(const struct web_eng *e);
/* Pondering on the person's time (docs/gui-adapters/web.md): send pos (the
 * position with the expected reply played) and `go ponder <limits>`, and
 * return at once.  0 or -1 with err (the engine is stopped). */
int web_eng_ponder_start(struct web_eng *e, const char *pos, const char *limits,
                         char *err, size_t n);
int web_eng_pondering(const struct web_eng *e);
/* The expected reply was played: `ponderhit`, then as web_eng_go. */
int web_eng_ponderhit(struct web_eng *e, int64_t max_ms, web_info_fn fn,
                      void *ctx, char *move, size_t mn, char *err, size_t en);
/* Another move, a take-back, a new game: `stop`, the stopped bestmove read
 * and dropped.  0, or -1 when the engine is gone (it is stopped). */
int web_eng_ponder_stop(struct web_eng *e);
/* While pondering: read what the engine wrote (info lines are dropped), so
 * its output never fills the pipe.  0, or -1 when it broke the protocol (a
 * bestmove before ponderhit or stop) or exited; err says which (the engine
 * is stopped). */
int web_eng_ponder_poll(struct web_eng *e, char *err, size_t n);
void web_eng_stop(struct web_eng *e);          /* quit, then kill: reaped */
/* The machine's cores (online processors): the most Threads a page may ask. */
int web_cores(void);
/* Read cfg's Strategy values from its handshake (a short-lived process).
 * 0 or -1 with err. */
int web_eng_probe(struct web_engine_cfg *cfg, char *err, size_t n);
/* Kill every engine process (at exit, from any thread). */
void web_eng_kill_all(void);

#endif
