/* mep.h - the engine side of MEP, the Medan Engine Protocol (docs/protocol.md).
 *
 * The library knows nothing of any game: it speaks MEP on stdin/stdout for
 * one `struct engine` and keeps the current position through `struct game`.
 */
#ifndef MEDAN_MEP_H
#define MEDAN_MEP_H

#include <stdio.h>

#include "../core/version.h"
#include "engine.h"

#define MEP_VERSION MEDAN_VERSION /* `id version` */
#define MEP_MAX_LINE 65536     /* a line holds at most MEP_MAX_LINE - 1 bytes */
#define MEP_EOF_GRACE_MS 10000 /* after end of input a job runs at most this long */

/* The whole program for an engine binary: MEP with no arguments, or the
 * script subcommands (perft, divide, bench, analyze).  Returns exit status. */
int mep_main(const struct engine *e, int argc, char **argv);

/* A session, for tests and subcommands that drive the protocol in-process. */
struct mep;
struct mep *mep_new(const struct engine *e, FILE *out);
/* The same with every output line (without its newline) handed to fn
 * instead, one call per line, never two at once (from the caller's thread
 * or the search thread). */
typedef void (*mep_out_fn)(void *ctx, const char *line);
struct mep *mep_new_cb(const struct engine *e, mep_out_fn fn, void *ctx);
void mep_free(struct mep *m);
/* Handle one input line (a C string; a trailing LF or CR LF is dropped).
 * Returns 0, or 1 after `quit`. */
int mep_line(struct mep *m, const char *line);
/* The same for a raw line of n bytes without its LF, which may hold NUL
 * bytes (only its first MEP_MAX_LINE bytes are read when it is longer):
 * framing checks (length, printable ASCII), then the command. */
int mep_input(struct mep *m, const char *line, size_t n);
/* Read one line from `in` into buf (cap bytes) without its LF, using
 * O(cap) memory whatever the input: *len is the line's full length; when
 * it is cap or more, only the first cap-1 bytes are kept (the rest is read
 * and discarded) and mep_input answers it as too long.  Returns 0 at end
 * of input (no bytes), else 1. */
int mep_read_line(FILE *in, char *buf, size_t cap, size_t *len);
/* Wait until no search runs (the bestmove line is out). */
void mep_wait(struct mep *m);
/* End of input: stop an infinite or ponder search at once; let any other
 * job finish, but stop it MEP_EOF_GRACE_MS after the end of input. */
void mep_eof(struct mep *m);

/* For the interactive console (console.c): the command names (NULL past
 * the end), whether a job runs, the current position and parameters, the
 * engine.  Call them from the thread that calls mep_line. */
const char *mep_command_name(int i);
int mep_busy(struct mep *m);
const void *mep_position(struct mep *m);
const void *mep_config(struct mep *m);
const struct engine *mep_engine(struct mep *m);
/* The interactive console on a terminal (console.c); returns exit status. */
int mep_console(const struct engine *e);

#endif
