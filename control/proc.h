/* proc.h - one child process on pipes: absolute deadlines, process group,
 * stderr log.  The controller side of every program that runs another one
 * (the referee's engines, the OpenTafl adapter and bridge, the test tools,
 * medan-web).  Lines are raw: nothing here knows MEP (client.h does).
 *
 * Every wait takes an absolute deadline on the monotonic clock (now_us), so
 * a child that floods output without ever answering is still cut off.
 * Both pipe ends are non-blocking: neither a silent child nor one that
 * stops reading its input can block the controller.
 *
 * Each child runs in its own process group.  Its exit is seen by waitpid
 * (a child that exits while a child of its own still holds its stdout is
 * gone at once, not a silence), and killing it kills the whole group, so no
 * grandchild outlives it.  The child's stderr is either appended to a log
 * (through a pipe, capped), inherited, or discarded.
 *
 * Two ways to wait: the blocking calls (ctl_proc_read, ctl_proc_send) take
 * a deadline; an event loop instead polls ctl_proc_pollfds and takes what
 * has arrived with ctl_proc_take, which never blocks.
 *
 * A struct ctl_proc is used by one thread at a time; ctl_proc_kill_all may
 * be called from any thread.  ctl_proc_start sets SIGPIPE to SIG_IGN when
 * it is SIG_DFL (a write to a child that exited must fail, not kill us).
 */
#ifndef CTL_PROC_H
#define CTL_PROC_H

#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The longest line (with its newline) read whole; a longer one is cut into
 * pieces of CTL_LINE_MAX-1 bytes. */
#define CTL_LINE_MAX 65536

/* What a read got.  CTL_IO_NONE (== CTL_IO_TIMEOUT): no complete line yet. */
enum ctl_io {
    CTL_IO_LINE = 1,
    CTL_IO_TIMEOUT = 0,
    CTL_IO_NONE = 0,
    CTL_IO_EOF = -1
};

/* Where the child's stderr goes when there is no log file. */
enum ctl_stderr {
    CTL_STDERR_DISCARD = 0, /* /dev/null */
    CTL_STDERR_INHERIT = 1  /* ours */
};

/* How to start a child.  All zero: here, stderr discarded, no trace. */
struct ctl_proc_opts {
    const char *dir;          /* working directory, NULL = ours */
    const char *logpath;      /* stderr appended to this file (a pipe we
                                 drain), NULL = see err_mode */
    enum ctl_stderr err_mode; /* without a log */
    int trace;                /* also log the exchange ("[ms >] line") */
    int64_t log_limit;        /* cut the log at this size, 0 = no cap */
    const char *log_cut_hint; /* said in the cut note, e.g. " (--log-limit)" */
};

struct ctl_proc {
    pid_t pid;          /* the child, 0 when not running (reaped) */
    pid_t pgid;         /* its process group, 0 when killed */
    int in_fd;          /* the child's stdin (we write), -1 once closed */
    int out_fd;         /* the child's stdout (we read) */
    int err_fd;         /* the child's stderr (we read, into the log) */
    int log_fd;         /* the log file (-1 = none) */
    int trace;          /* also log the exchange */
    int64_t log_left;   /* bytes the log may still take, -1 = no cap */
    int64_t log_limit;
    const char *log_cut_hint;
    int log_cut;        /* the log reached its cap */
    int exited;         /* the child exited (a zombie until reaped) */
    int exit_code;      /* its exit status, or -signal */
    int eof;            /* stdout closed (or the child gone) */
    size_t off, len;    /* buffered output: buf[off .. off + len) */
    int64_t last_read_for; /* the deadline past which one last read was made */
    char buf[2 * CTL_LINE_MAX];
};

/* Mark p as not running (before its first start; ctl_proc_kill on it is a
 * no-op). */
void ctl_proc_init(struct ctl_proc *p);
/* Start argv[0] (looked up in PATH when it has no '/') with argv
 * (NULL-terminated) in a new process group, as o says (NULL = all zero).
 * Returns 0, or -1 with err naming the culprit (the directory, the log
 * file or the command, e.g. "cannot start x: No such file or directory"). */
int ctl_proc_start(struct ctl_proc *p, char *const argv[],
                   const struct ctl_proc_opts *o, char *err, size_t n);
/* Send one line (a newline is appended); waits for pipe room at most until
 * deadline.  Returns 0, or -1 (child gone, not reading, or input closed). */
int ctl_proc_send(struct ctl_proc *p, int64_t deadline_us, const char *line);
/* Send n raw bytes as they are (any bytes, no newline added; for tests of
 * framing and for pieces of a long line).  0 or -1, as ctl_proc_send. */
int ctl_proc_write(struct ctl_proc *p, int64_t deadline_us, const void *buf,
                   size_t n);
/* Next output line without its newline (CR stripped; over-long lines are
 * cut at CTL_LINE_MAX-1 bytes, and at n-1).  Blocks until deadline.
 * CTL_IO_LINE, CTL_IO_TIMEOUT or CTL_IO_EOF (end of output, or the child
 * exited: what it wrote before is still read).  Past the deadline, what the
 * pipe already holds is still read once. */
int ctl_proc_read(struct ctl_proc *p, int64_t deadline_us, char *line,
                  size_t n);

/* ---- for an event loop --------------------------------------------------- */
/* Fill pf[0..k) with the descriptors to poll for this child (its stdout,
 * and the stderr pipe when there is a log) and return k (0, 1 or 2; 0 when
 * it is closed).  When any of them is ready, call ctl_proc_take until it
 * says CTL_IO_NONE. */
int ctl_proc_pollfds(const struct ctl_proc *p, struct pollfd pf[2]);
/* Never blocks: moves pending stderr into the log, reads what stdout has,
 * and returns CTL_IO_LINE with a complete line (as ctl_proc_read), CTL_IO_NONE
 * when no complete line is there yet, or CTL_IO_EOF when the output ended
 * (the last unterminated line is returned first). */
int ctl_proc_take(struct ctl_proc *p, char *line, size_t n);

/* ---- ending ---------------------------------------------------------------- */
/* Has the process exited?  (Never blocks; does not reap.) */
int ctl_proc_exited(struct ctl_proc *p);
/* "exit status 1", "killed by signal 9" or "closed its output". */
void ctl_proc_exit_text(const struct ctl_proc *p, char *buf, size_t n);
/* Close the child's stdin (it sees end of input). */
void ctl_proc_close_input(struct ctl_proc *p);
/* Wait until the child exits or the deadline passes, logging its stderr and
 * discarding its output meanwhile; then kill its group, reap and close.
 * Returns 1 if it exited by itself (its status in exit_code), 0 if it had
 * to be killed. */
int ctl_proc_wait(struct ctl_proc *p, int64_t deadline_us);
/* Send `quit`, give it grace_ms to exit, then SIGKILL its group; reaps and
 * closes. */
void ctl_proc_stop(struct ctl_proc *p, int grace_ms);
/* SIGKILL its group at once; reaps and closes.  exit_code keeps how the
 * child ended. */
void ctl_proc_kill(struct ctl_proc *p);
/* SIGKILL every child group still running (for an interrupted program;
 * safe from any thread, not from a signal handler). */
void ctl_proc_kill_all(void);

#endif
