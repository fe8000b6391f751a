/* proc.h - one engine child process: pipes, absolute deadlines, stderr log.
 *
 * Every wait takes an absolute deadline on the monotonic clock (now_us), so
 * an engine that floods output without ever answering is still cut off.
 * Both pipe ends are non-blocking: neither a silent engine nor one that
 * stops reading its input can block the referee.
 */
#ifndef REF_PROC_H
#define REF_PROC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define REF_LINE_MAX 65536

enum ref_io { REF_IO_LINE = 1, REF_IO_TIMEOUT = 0, REF_IO_EOF = -1 };

struct ref_proc {
    pid_t pid;          /* 0 when not running */
    int in_fd;          /* the engine's stdin (we write) */
    int out_fd;         /* the engine's stdout (we read) */
    int log_fd;         /* protocol trace (-1 = none) */
    int eof;            /* stdout closed */
    size_t len;         /* bytes in buf */
    int64_t last_read_for; /* the deadline past which one last read was made */
    char buf[2 * REF_LINE_MAX];
};

/* Start argv[0] with argv (NULL-terminated) in dir (NULL = here); stderr
 * is appended to logpath (NULL = /dev/null).  trace != 0 also writes the
 * protocol exchange to logpath.  Returns 0 or -1 with err set. */
int ref_proc_start(struct ref_proc *p, char *const argv[], const char *dir,
                   const char *logpath, int trace, char *err, size_t n);
/* Send one line (a newline is appended); waits for pipe room at most until
 * deadline.  Returns 0, or -1 (engine gone or not reading). */
int ref_proc_send(struct ref_proc *p, int64_t deadline_us, const char *line);
/* Next output line without its newline (CR stripped; over-long lines are
 * cut at REF_LINE_MAX-1).  REF_IO_LINE, REF_IO_TIMEOUT or REF_IO_EOF. */
int ref_proc_read(struct ref_proc *p, int64_t deadline_us, char *line,
                  size_t n);
/* Has the process exited?  (Reaps it; never blocks.) */
int ref_proc_exited(struct ref_proc *p);
/* Send `quit`, give it grace_ms to exit, then SIGKILL; reaps and closes. */
void ref_proc_stop(struct ref_proc *p, int grace_ms);
/* SIGKILL at once; reaps and closes. */
void ref_proc_kill(struct ref_proc *p);

#endif
