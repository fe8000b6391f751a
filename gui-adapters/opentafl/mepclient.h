/* mepclient.h - the adapter's side of MEP: run an engine binary on pipes and
 * exchange lines with it. */
#ifndef MEDAN_OPENTAFL_MEPCLIENT_H
#define MEDAN_OPENTAFL_MEPCLIENT_H

#include <stddef.h>
#include <sys/types.h>

#define MEPC_LINE 65536

struct mepc {
    pid_t pid;
    int to_fd;   /* engine's stdin */
    int from_fd; /* engine's stdout */
    char buf[MEPC_LINE];
    size_t len;
    int eof;
};

/* Start `path` with stderr sent to /dev/null.  0 or -1. */
int mepc_start(struct mepc *c, const char *path);
/* Start argv[0] (looked up in PATH if it has no '/') with argv, in `dir`
 * (NULL: here), stderr inherited or (quiet_stderr) sent to /dev/null.
 * 0, or -1 with errno set (also when the program cannot be run). */
int mepc_spawn(struct mepc *c, char *const argv[], const char *dir, int quiet_stderr);
/* Send one line (the newline is added), in one write.  0 or -1. */
int mepc_send(struct mepc *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Next complete line without its newline: 1 got one, 0 none buffered yet.
 * mepc_fill reads what the pipe has (after poll said so): 0, or -1 at EOF. */
int mepc_take(struct mepc *c, char *line, size_t n);
int mepc_fill(struct mepc *c);
/* Blocking read of one line with a timeout: 1, 0 on EOF, -1 on timeout. */
int mepc_line(struct mepc *c, char *line, size_t n, int timeout_ms);
/* Send a command and read to its final `ok` / `error` line.  The payload
 * lines (all before the final one) are joined with '\n' into payload.
 * Returns 0 for ok, 1 for an error (its text in `final`), -1 on failure. */
int mepc_cmd(struct mepc *c, const char *cmd, char *payload, size_t pn,
             char *final, size_t fn);
/* quit, wait a little, kill if needed. */
void mepc_stop(struct mepc *c);
/* Send `bye` (if not NULL), close the pipes, wait up to wait_ms for the
 * process to exit, then kill it.  Returns its wait status, or -1. */
int mepc_finish(struct mepc *c, const char *bye, int wait_ms);

#endif
