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
#define MEP_MAX_LINE 65536

/* The whole program for an engine binary: MEP with no arguments, or the
 * script subcommands (perft, divide, bench, analyze).  Returns exit status. */
int mep_main(const struct engine *e, int argc, char **argv);

/* A session, for tests that drive the protocol in-process. */
struct mep;
struct mep *mep_new(const struct engine *e, FILE *out);
void mep_free(struct mep *m);
/* Handle one input line. Returns 0, or 1 after `quit`. */
int mep_line(struct mep *m, const char *line);
/* Wait until no search runs (the bestmove line is out). */
void mep_wait(struct mep *m);
/* End of input: let a limited search finish, stop an infinite one. */
void mep_eof(struct mep *m);

#endif
