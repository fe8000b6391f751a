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
/* Start cfg's command, handshake, set its options and Strategy (NULL or ""
 * = its default).  0 or -1 with err. */
int web_eng_start(struct web_eng *e, const struct web_engine_cfg *cfg,
                  const char *strategy, char *err, size_t n);
/* A command answered by ok/error (newgame, position ...). 0 or -1 with err
 * (the engine's error line, or why it is gone). */
int web_eng_cmd(struct web_eng *e, const char *cmd, int timeout_ms, char *err,
                size_t n);
/* `go <limits>`; waits for bestmove at most max_ms after the engine's own
 * limit (0 = until cancelled).  WEB_GO_OK with the move, or why not in err. */
int web_eng_go(struct web_eng *e, const char *limits, int64_t max_ms,
               web_info_fn fn, void *ctx, char *move, size_t mn, char *err,
               size_t en);
void web_eng_stop(struct web_eng *e);          /* quit, then kill: reaped */
/* Read cfg's Strategy values from its handshake (a short-lived process).
 * 0 or -1 with err. */
int web_eng_probe(struct web_engine_cfg *cfg, char *err, size_t n);
/* Kill every engine process (at exit, from any thread). */
void web_eng_kill_all(void);

#endif
