/* proc.h - one engine child process: pipes, absolute deadlines, stderr log.
 *
 * Every wait takes an absolute deadline on the monotonic clock (now_us), so
 * an engine that floods output without ever answering is still cut off.
 * Both pipe ends are non-blocking: neither a silent engine nor one that
 * stops reading its input can block the referee.
 *
 * Each engine runs in its own process group.  Its exit is seen by waitpid
 * (an engine that exits while a child of it still holds its stdout is a
 * crash at once, not a silence), and killing it kills the whole group, so
 * no child of an engine outlives it.  The engine's stderr comes back to the
 * referee through a pipe and is appended to its log, which is capped.
 */
#ifndef REF_PROC_H
#define REF_PROC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define REF_LINE_MAX 65536

enum ref_io { REF_IO_LINE = 1, REF_IO_TIMEOUT = 0, REF_IO_EOF = -1 };

struct ref_proc {
    pid_t pid;          /* the engine, 0 when not running (reaped) */
    pid_t pgid;         /* its process group, 0 when killed */
    int in_fd;          /* the engine's stdin (we write) */
    int out_fd;         /* the engine's stdout (we read) */
    int err_fd;         /* the engine's stderr (we read, into the log) */
    int log_fd;         /* the log file (-1 = none) */
    int trace;          /* also log the protocol exchange */
    int64_t log_left;   /* bytes the log may still take, -1 = no cap */
    int64_t log_limit;
    int log_cut;        /* the log reached its cap */
    int exited;         /* the engine exited (a zombie until reaped) */
    int exit_code;      /* its exit status, or -signal */
    int eof;            /* stdout closed (or the engine gone) */
    size_t off, len;    /* buffered output: buf[off .. off + len) */
    int64_t last_read_for; /* the deadline past which one last read was made */
    char buf[2 * REF_LINE_MAX];
};

/* Start argv[0] with argv (NULL-terminated) in dir (NULL = here) in a new
 * process group; stderr is appended to logpath (NULL = /dev/null), cut at
 * log_limit bytes (0 = no cap).  trace != 0 also writes the protocol
 * exchange there.  Returns 0 or -1 with err naming the culprit (the
 * directory, the log file or the command). */
int ref_proc_start(struct ref_proc *p, char *const argv[], const char *dir,
                   const char *logpath, int trace, int64_t log_limit,
                   char *err, size_t n);
/* Send one line (a newline is appended); waits for pipe room at most until
 * deadline.  Returns 0, or -1 (engine gone or not reading). */
int ref_proc_send(struct ref_proc *p, int64_t deadline_us, const char *line);
/* Next output line without its newline (CR stripped; over-long lines are
 * cut at REF_LINE_MAX-1).  REF_IO_LINE, REF_IO_TIMEOUT or REF_IO_EOF (end
 * of output, or the engine exited: what it wrote before is still read). */
int ref_proc_read(struct ref_proc *p, int64_t deadline_us, char *line,
                  size_t n);
/* Has the process exited?  (Never blocks.) */
int ref_proc_exited(struct ref_proc *p);
/* "exit status 1", "killed by signal 9" or "closed its output". */
void ref_proc_exit_text(const struct ref_proc *p, char *buf, size_t n);
/* Send `quit`, give it grace_ms to exit, then SIGKILL its group; reaps and
 * closes. */
void ref_proc_stop(struct ref_proc *p, int grace_ms);
/* SIGKILL its group at once; reaps and closes. */
void ref_proc_kill(struct ref_proc *p);
/* SIGKILL every engine group still running (for an interrupted match; safe
 * from any thread). */
void ref_proc_kill_all(void);
/* Mark p as not running (before its first start). */
void ref_proc_init(struct ref_proc *p);

#endif
