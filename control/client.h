/* client.h - the controller side of MEP: one running engine.
 *
 * Starts an engine process (proc.h), does the handshake (`mep` -> `mepok`
 * within a timeout), sets options, and sends commands that end in
 * `ok`/`error`, `pong`, `readyok` or `bestmove`, each with an absolute
 * deadline.  Lines with unknown keywords are skipped, as MEP says
 * controllers do; a known keyword in the wrong case (`BESTMOVE`) is an
 * engine error.  An event loop polls ctl_client_pollfds and takes lines
 * with ctl_client_take instead of the blocking calls.
 */
#ifndef CTL_CLIENT_H
#define CTL_CLIENT_H

#include <stdatomic.h>
#include <stdint.h>

#include "proc.h"

/* How a command ended. */
enum ctl_rc {
    CTL_OK = 0,      /* final line ok / pong / readyok / bestmove */
    CTL_ERROR = 1,   /* the engine answered `error ...` */
    CTL_TIMEOUT = 2, /* no final line before the deadline */
    CTL_EOF = 3      /* the engine closed its output or died */
};

/* How to run one engine: its command line and the options set at start. */
struct ctl_engine_spec {
    char *name;            /* for messages */
    char *cmd;             /* argv[0]: looked up in PATH without a '/' */
    char **args;           /* argv[1..nargs] */
    int nargs;
    char *dir;             /* working directory, NULL = ours */
    char **opt_name, **opt_val; /* setoption name N value V, in order */
    int nopts;
};

#define CTL_SCORE_MATE 100000

struct ctl_client {
    const struct ctl_engine_spec *spec;
    struct ctl_proc proc;
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
                              (win/loss: +-CTL_SCORE_MATE) */
    int last_mate;         /* `score win N`: N, `score loss N`: -N (plies;
                              `win 0`/`loss 0` as +-1), 0 for `score cp` */
    char ponder[64];       /* the `ponder M` of the last bestmove read by
                              ctl_client_go/_ponderhit, "" = none */
    const atomic_int *cancel; /* set by the owner: when it becomes non-zero
                              during ctl_client_go, `stop` is sent (once) and
                              the bestmove awaited as usual; NULL = none */
};

/* Spawn (o: the log and stderr, NULL = discard; the spec's dir wins over
 * o->dir) and handshake (timeout in ms), then send the spec's options and
 * wait for readyok.  CTL_OK or the failure, with err set ("<name>: ..."). */
int ctl_client_start(struct ctl_client *c, const struct ctl_engine_spec *s,
                     const struct ctl_proc_opts *o, int timeout_ms,
                     char *err, size_t n);
/* Send a command ending in ok/error; waits until deadline. */
int ctl_client_cmd(struct ctl_client *c, int64_t deadline_us,
                   const char *cmd);
/* Send a command ending in ok/error and collect its answer lines (all but
 * `info` lines and the final one) into payload, joined by '\n' (cut to
 * pn-1 bytes): `fen`, `legalmoves`, `result`, `show`, `eval`...  As
 * ctl_client_cmd otherwise. */
int ctl_client_query(struct ctl_client *c, int64_t deadline_us,
                     const char *cmd, char *payload, size_t pn);
/* ping <n> / pong <n>; also drains a pending bestmove (sends stop first). */
int ctl_client_sync(struct ctl_client *c, int64_t deadline_us);
/* setoption name Seed value <derived from seed> if the engine has Seed. */
int ctl_client_seed(struct ctl_client *c, int64_t deadline_us,
                    uint64_t seed);
/* Send `go <limits>` and wait for bestmove until deadline.  On CTL_OK the
 * move token is in move and *elapsed_us is the time from the end of the
 * write of `go` to the arrival of `bestmove`.  With c->cancel set, the wait
 * looks at it every CTL_CANCEL_POLL_MS and sends `stop` once it is set, so
 * another thread can end a long search within that time plus the engine's
 * answer to `stop`. */
#define CTL_CANCEL_POLL_MS 20
int ctl_client_go(struct ctl_client *c, const char *limits,
                  int64_t deadline_us, char *move, size_t n,
                  int64_t *elapsed_us);
/* Pondering (the referee is the reference, docs/protocol.md): after a
 * `go ponder ...` sent with ctl_client_go_async (searching set),
 * ctl_client_ponderhit sends `ponderhit` and waits for the bestmove as
 * ctl_client_go does (elapsed from the end of the write of `ponderhit`,
 * the moment the engine's clock starts); ctl_client_stop_ponder sends
 * `stop` and reads the stopped search's bestmove into move (for the
 * caller to discard), *elapsed_us the time it took.  Both first look at
 * the lines already arrived: a bestmove there came before ponderhit/stop,
 * a protocol error (CTL_ERROR, last_error says so; *early is set when
 * early is not NULL). */
int ctl_client_ponderhit(struct ctl_client *c, int64_t deadline_us,
                         char *move, size_t n, int64_t *elapsed_us);
int ctl_client_stop_ponder(struct ctl_client *c, int64_t deadline_us,
                           char *move, size_t n, int64_t *elapsed_us,
                           int *early);
/* For an event loop: send `go <limits>` and return at once (CTL_OK, or
 * CTL_TIMEOUT / CTL_EOF when it cannot be written); searching is set and
 * last_depth/has_score cleared, as ctl_client_go does.  The info lines and
 * the bestmove then come through ctl_client_take (which clears searching
 * at the bestmove; a refused go comes back as an `error` line). */
int ctl_client_go_async(struct ctl_client *c, int64_t deadline_us,
                        const char *limits);
/* After a timed-out go: stop, and wait for the late bestmove until the
 * deadline.  CTL_OK if the engine is usable again. */
int ctl_client_recover(struct ctl_client *c, int64_t deadline_us);
/* Send a raw line (tests, check). 0 or -1. */
int ctl_client_send(struct ctl_client *c, int64_t deadline_us,
                    const char *line);
/* Next protocol line (unknown keywords included); CTL_IO_*. */
int ctl_client_read(struct ctl_client *c, int64_t deadline_us, char *line,
                    size_t n);
/* For an event loop: the descriptors to poll (ctl_proc_pollfds), and the
 * next line if one has arrived, never blocking (ctl_proc_take: CTL_IO_LINE,
 * CTL_IO_NONE or CTL_IO_EOF).  Info lines update last_depth/last_score; a
 * bestmove clears searching; at EOF alive is cleared and last_error says
 * how the engine ended. */
int ctl_client_pollfds(const struct ctl_client *c, struct pollfd pf[2]);
int ctl_client_take(struct ctl_client *c, char *line, size_t n);
/* Is this line the final answer of an MEP command (ok, error, bestmove,
 * pong, readyok, mepok; the keyword alone or followed by a space)? */
int ctl_is_final(const char *line);
/* quit, a short grace, then kill (ctl_proc_stop); or kill at once. */
void ctl_client_quit(struct ctl_client *c);
void ctl_client_kill(struct ctl_client *c);

#endif
