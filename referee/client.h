/* client.h - the controller side of MEP: one running engine.
 *
 * Starts an engine process, does the handshake (`mep` -> `mepok` within a
 * timeout), sets options, and sends commands that end in `ok`/`error`,
 * `pong`, `readyok` or `bestmove`, each with an absolute deadline.  Lines
 * with unknown keywords are skipped, as MEP says controllers do.
 */
#ifndef REF_CLIENT_H
#define REF_CLIENT_H

#include <stdint.h>

#include "proc.h"

/* How a command ended. */
enum ref_rc {
    REF_OK = 0,      /* final line ok / pong / readyok / bestmove */
    REF_ERROR = 1,   /* the engine answered `error ...` */
    REF_TIMEOUT = 2, /* no final line before the deadline */
    REF_EOF = 3      /* the engine closed its output or died */
};

/* The command line of one engine (from --engine / --each). */
struct ref_engine_spec {
    char *name;
    char *cmd;
    char **args;
    int nargs;
    char *dir;
    char **opt_name, **opt_val;
    int nopts;
    int restart;           /* restart=on: a fresh process for every game */
};

#define REF_SCORE_MATE 100000

struct ref_client {
    const struct ref_engine_spec *spec;
    struct ref_proc proc;
    int alive;             /* started, handshake done, not crashed */
    int searching;         /* a go is out without its bestmove */
    unsigned ping_seq;
    char id_name[128];
    char game[64];         /* from the `game` line */
    int has_seed;          /* declares a Seed option */
    int64_t seed_min, seed_max;
    int64_t handshake_us;  /* measured */
    char last_error[256];  /* the last `error` line, unreadable line or exit */
    int last_depth;        /* depth of the last info line of a go, or 0 */
    int has_score;         /* the last info line of a go had a score */
    int last_score;        /* it, in centipawns from the mover's view
                              (win/loss: +-REF_SCORE_MATE) */
};

/* Spawn and handshake (timeout in ms), then send the spec's options and
 * wait for readyok.  REF_OK or the failure, with err set. */
int ref_client_start(struct ref_client *c, const struct ref_engine_spec *s,
                     const char *logpath, int trace, int64_t log_limit,
                     int timeout_ms, char *err, size_t n);
/* Send a command ending in ok/error; waits until deadline. */
int ref_client_cmd(struct ref_client *c, int64_t deadline_us,
                   const char *cmd);
/* ping <n> / pong <n>; also drains a pending bestmove (sends stop first). */
int ref_client_sync(struct ref_client *c, int64_t deadline_us);
/* setoption name Seed value <derived from seed> if the engine has Seed. */
int ref_client_seed(struct ref_client *c, int64_t deadline_us,
                    uint64_t seed);
/* Send `go <limits>` and wait for bestmove until deadline.  On REF_OK the
 * move token is in move and *elapsed_us is the time from the end of the
 * write of `go` to the arrival of `bestmove`. */
int ref_client_go(struct ref_client *c, const char *limits,
                  int64_t deadline_us, char *move, size_t n,
                  int64_t *elapsed_us);
/* After a timed-out go: stop, and wait for the late bestmove until the
 * deadline.  REF_OK if the engine is usable again. */
int ref_client_recover(struct ref_client *c, int64_t deadline_us);
/* Send a raw line (tests, check). 0 or -1. */
int ref_client_send(struct ref_client *c, int64_t deadline_us,
                    const char *line);
/* Next protocol line (unknown keywords included). */
int ref_client_read(struct ref_client *c, int64_t deadline_us, char *line,
                    size_t n);
void ref_client_quit(struct ref_client *c);
void ref_client_kill(struct ref_client *c);

#endif
