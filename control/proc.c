/* proc.c - child processes on pipes (see proc.h). */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"

extern char **environ;

/* Exit detection: a wait for output wakes at least this often to ask
 * waitpid whether the child is still there. */
#define EXIT_POLL_MS 50

/* ---- every running child group (for ctl_proc_kill_all) ------------------- */

static pthread_mutex_t reg_mu = PTHREAD_MUTEX_INITIALIZER;
static pid_t *reg;
static size_t nreg, capreg;

static void reg_add(pid_t g)
{
    pthread_mutex_lock(&reg_mu);
    if (nreg == capreg) {
        capreg = capreg ? 2 * capreg : 16;
        reg = xrealloc(reg, capreg * sizeof *reg);
    }
    reg[nreg++] = g;
    pthread_mutex_unlock(&reg_mu);
}

/* Kill the group and forget it, under the lock, so kill_all never signals
 * a group that is gone (its number could be reused). */
static void reg_kill(pid_t g)
{
    pthread_mutex_lock(&reg_mu);
    for (size_t i = 0; i < nreg; i++)
        if (reg[i] == g) {
            kill(-g, SIGKILL);
            reg[i] = reg[--nreg];
            break;
        }
    if (!nreg) {
        free(reg);
        reg = NULL;
        capreg = 0;
    }
    pthread_mutex_unlock(&reg_mu);
}

void ctl_proc_kill_all(void)
{
    pthread_mutex_lock(&reg_mu);
    for (size_t i = 0; i < nreg; i++)
        kill(-reg[i], SIGKILL);
    pthread_mutex_unlock(&reg_mu);
}

/* ---- the log ------------------------------------------------------------- */

static void log_write(struct ctl_proc *p, const char *s, size_t n)
{
    if (p->log_fd < 0 || p->log_cut || !n)
        return;
    if (p->log_left >= 0 && (int64_t)n > p->log_left) {
        char note[160];
        int k = snprintf(note, sizeof note,
                         "\n[%s: log cut at %lld bytes%s; the rest is "
                         "dropped]\n",
                         program_invocation_short_name,
                         (long long)p->log_limit,
                         p->log_cut_hint ? p->log_cut_hint : "");
        n = (size_t)p->log_left;
        if (n && write(p->log_fd, s, n) < 0) {
            /* a log is best effort */
        }
        if (write(p->log_fd, note, (size_t)k) < 0) {
        }
        p->log_cut = 1;
        return;
    }
    if (write(p->log_fd, s, n) < 0) {
    }
    if (p->log_left >= 0)
        p->log_left -= (int64_t)n;
}

static void trace(struct ctl_proc *p, char dir, const char *s, size_t n)
{
    char head[48];
    int h;
    char *tmp;
    if (!p->trace || p->log_fd < 0 || p->log_cut)
        return;
    h = snprintf(head, sizeof head, "[%lld %c] ", (long long)now_ms(), dir);
    /* One write per line keeps lines whole next to the child's stderr. */
    tmp = xmalloc((size_t)h + n + 1);
    memcpy(tmp, head, (size_t)h);
    memcpy(tmp + h, s, n);
    tmp[(size_t)h + n] = '\n';
    log_write(p, tmp, (size_t)h + n + 1);
    free(tmp);
}

/* Move what the child wrote to stderr into the log (never blocks). */
static void drain_err(struct ctl_proc *p)
{
    char b[16384];
    while (p->err_fd >= 0) {
        ssize_t r = read(p->err_fd, b, sizeof b);
        if (r > 0) {
            log_write(p, b, (size_t)r);
            continue;
        }
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        close(p->err_fd);
        p->err_fd = -1;
    }
}

/* ---- start ---------------------------------------------------------------- */

void ctl_proc_init(struct ctl_proc *p)
{
    memset(p, 0, offsetof(struct ctl_proc, buf));
    p->in_fd = p->out_fd = p->err_fd = p->log_fd = -1;
}

static void nonblock(int fd)
{
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

/* A write to a child that is gone must fail with EPIPE, not kill us. */
static void ignore_sigpipe(void)
{
    struct sigaction sa;
    if (sigaction(SIGPIPE, NULL, &sa) == 0 && sa.sa_handler == SIG_DFL &&
        !(sa.sa_flags & SA_SIGINFO))
        signal(SIGPIPE, SIG_IGN);
}

int ctl_proc_start(struct ctl_proc *p, char *const argv[],
                   const struct ctl_proc_opts *o, char *err, size_t n)
{
    static const struct ctl_proc_opts none_given;
    int in[2], out[2], er[2] = {-1, -1}, rc;
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    sigset_t def, none;
    struct stat sb;
    const char *dir, *logpath;
    int64_t log_limit;

    if (!o)
        o = &none_given;
    dir = o->dir;
    logpath = o->logpath;
    log_limit = o->log_limit;
    ctl_proc_init(p);
    ignore_sigpipe();
    p->log_left = -1;
    p->log_limit = log_limit;
    p->log_cut_hint = o->log_cut_hint;
    /* Name the real culprit: the directory and the log before the command. */
    if (dir && stat(dir, &sb) < 0)
        return set_err(err, n, -1, "working directory %s: %s", dir,
                       strerror(errno));
    if (dir && !S_ISDIR(sb.st_mode))
        return set_err(err, n, -1, "working directory %s: %s", dir,
                       strerror(ENOTDIR));
    if (logpath) {
        p->log_fd = open(logpath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
                         0644);
        if (p->log_fd < 0)
            return set_err(err, n, -1, "log file %s: %s", logpath,
                           strerror(errno));
        if (log_limit > 0) {
            p->log_left = log_limit;
            if (fstat(p->log_fd, &sb) == 0)
                p->log_left -= sb.st_size;
            if (p->log_left <= 0) {
                p->log_left = 0;
                p->log_cut = 1; /* full from an earlier process */
            }
        }
        p->trace = o->trace;
    }
    if (pipe2(in, O_CLOEXEC) < 0)
        goto pipe_fail;
    if (pipe2(out, O_CLOEXEC) < 0) {
        close(in[0]);
        close(in[1]);
        goto pipe_fail;
    }
    if (logpath && pipe2(er, O_CLOEXEC) < 0) {
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        goto pipe_fail;
    }
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    if (logpath)
        posix_spawn_file_actions_adddup2(&fa, er[1], 2);
    else if (o->err_mode != CTL_STDERR_INHERIT)
        posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    if (dir)
        posix_spawn_file_actions_addchdir_np(&fa, dir);
    posix_spawnattr_init(&at);
    sigemptyset(&def);
    sigaddset(&def, SIGPIPE);
    sigaddset(&def, SIGINT);
    sigaddset(&def, SIGTERM);
    sigaddset(&def, SIGHUP);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&at, &def);
    posix_spawnattr_setsigmask(&at, &none); /* the caller may block some */
    posix_spawnattr_setpgroup(&at, 0);      /* a group of its own */
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK |
                                      POSIX_SPAWN_SETPGROUP);
    rc = posix_spawnp(&p->pid, argv[0], &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(in[0]);
    close(out[1]);
    if (er[1] >= 0)
        close(er[1]);
    if (rc != 0) {
        close(in[1]);
        close(out[0]);
        if (er[0] >= 0)
            close(er[0]);
        if (p->log_fd >= 0)
            close(p->log_fd);
        ctl_proc_init(p);
        return set_err(err, n, -1, "cannot start %s: %s", argv[0],
                       strerror(rc));
    }
    p->pgid = p->pid;
    reg_add(p->pgid);
    p->in_fd = in[1];
    p->out_fd = out[0];
    p->err_fd = er[0];
    nonblock(p->in_fd);
    nonblock(p->out_fd);
    if (p->err_fd >= 0)
        nonblock(p->err_fd);
    return 0;
pipe_fail:
    rc = errno;
    if (p->log_fd >= 0)
        close(p->log_fd);
    ctl_proc_init(p);
    return set_err(err, n, -1, "pipe: %s", strerror(rc));
}

/* ---- exit and waiting ---------------------------------------------------- */

/* Has the child exited?  Leaves it a zombie (WNOWAIT), so its process
 * group number stays reserved until ctl_proc_kill kills the group. */
static int check_exit(struct ctl_proc *p)
{
    siginfo_t si;
    if (p->exited || !p->pid)
        return 1;
    memset(&si, 0, sizeof si);
    if (waitid(P_PID, (id_t)p->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
        si.si_pid == p->pid) {
        p->exited = 1;
        p->exit_code = si.si_code == CLD_EXITED ? si.si_status : -si.si_status;
        return 1;
    }
    return 0;
}

int ctl_proc_exited(struct ctl_proc *p) { return check_exit(p); }

void ctl_proc_exit_text(const struct ctl_proc *p, char *buf, size_t n)
{
    if (p->exited && p->exit_code >= 0)
        snprintf(buf, n, "exit status %d", p->exit_code);
    else if (p->exited)
        snprintf(buf, n, "killed by signal %d", -p->exit_code);
    else
        snprintf(buf, n, "closed its output");
}

/* Wait until fd is ready for ev (1), the child exited (-1) or the
 * deadline (0).  Logs the child's stderr meanwhile. */
static int wait_io(struct ctl_proc *p, int fd, short ev, int64_t deadline_us)
{
    for (;;) {
        struct pollfd pf[2] = {{.fd = fd, .events = ev},
                               {.fd = p->err_fd, .events = POLLIN}};
        int64_t left = deadline_us - now_us();
        struct timespec ts;
        int r;
        if (check_exit(p))
            return -1;
        if (left <= 0)
            return 0;
        if (left > EXIT_POLL_MS * 1000)
            left = EXIT_POLL_MS * 1000;
        ts.tv_sec = (time_t)(left / 1000000);
        ts.tv_nsec = (long)(left % 1000000) * 1000;
        r = ppoll(pf, p->err_fd >= 0 ? 2 : 1, &ts, NULL);
        if (r < 0 && errno != EINTR)
            return 0;
        if (r > 0 && p->err_fd >= 0 && pf[1].revents)
            drain_err(p);
        if (r > 0 && pf[0].revents)
            return 1;
    }
}

/* Write all n bytes, waiting for pipe room until the deadline. */
static int write_all(struct ctl_proc *p, int64_t deadline_us, const char *s,
                     size_t n)
{
    size_t off = 0;
    if (p->in_fd < 0)
        return -1;
    while (off < n) {
        ssize_t w = write(p->in_fd, s + off, n - off);
        if (w > 0) {
            off += (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) &&
            wait_io(p, p->in_fd, POLLOUT, deadline_us) > 0)
            continue;
        return -1;
    }
    return 0;
}

int ctl_proc_send(struct ctl_proc *p, int64_t deadline_us, const char *line)
{
    size_t n = strlen(line);
    char *msg;
    int r;
    if (p->in_fd < 0)
        return -1;
    trace(p, '>', line, n);
    /* The line and its newline in one buffer, written together. */
    msg = xmalloc(n + 1);
    memcpy(msg, line, n);
    msg[n] = '\n';
    r = write_all(p, deadline_us, msg, n + 1);
    free(msg);
    return r;
}

int ctl_proc_write(struct ctl_proc *p, int64_t deadline_us, const void *buf,
                   size_t n)
{
    if (p->in_fd < 0)
        return -1;
    if (n && p->trace) {
        const char *s = buf;
        trace(p, '>', s, s[n - 1] == '\n' ? n - 1 : n);
    }
    return write_all(p, deadline_us, buf, n);
}

/* Take one line out of the buffer if there is one (or a forced cut).
 * Constant work per byte: lines are taken from an offset, the buffer is
 * compacted only before a read, so a flood costs linear time. */
static int take_line(struct ctl_proc *p, char *line, size_t n, int force)
{
    /* A line is at most CTL_LINE_MAX-1 bytes before its newline; a longer
     * one (no newline in that span) comes as pieces of that size when
     * forced, nothing of it lost. */
    char *start = p->buf + p->off;
    char *nl = memchr(start, '\n', p->len < CTL_LINE_MAX ? p->len : CTL_LINE_MAX);
    size_t k, used;
    if (!nl && !force)
        return 0;
    if (nl) {
        k = (size_t)(nl - start);
        used = k + 1;
        if (k && start[k - 1] == '\r')
            k--;
    } else
        used = k = p->len < CTL_LINE_MAX - 1 ? p->len : CTL_LINE_MAX - 1;
    if (k >= n)
        k = n - 1;
    memcpy(line, start, k);
    line[k] = '\0';
    p->off += used;
    p->len -= used;
    if (!p->len)
        p->off = 0;
    trace(p, '<', line, k);
    return 1;
}

/* One non-blocking read of the child's output into the buffer (compacted
 * first).  1: something changed (data came, or the end: p->eof), look at
 * the buffer again; 0: nothing to read now. */
static int fill_once(struct ctl_proc *p)
{
    ssize_t r;
    int last;
    if (p->off) {
        memmove(p->buf, p->buf + p->off, p->len);
        p->off = 0;
    }
    /* Once the child has exited, what its pipe holds is read once; a
     * child of it that keeps the pipe open cannot keep it alive. */
    last = check_exit(p);
    r = read(p->out_fd, p->buf + p->len, sizeof p->buf - p->len);
    if (r > 0) {
        p->len += (size_t)r;
        if (last)
            p->eof = 1;
        return 1;
    }
    if (r == 0 || last || (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK)) {
        p->eof = 1;
        return 1;
    }
    return errno == EINTR;
}

int ctl_proc_read(struct ctl_proc *p, int64_t deadline_us, char *line,
                  size_t n)
{
    for (;;) {
        if (take_line(p, line, n, 0))
            return CTL_IO_LINE;
        if (p->len >= CTL_LINE_MAX) /* absurdly long line: cut it */
            return take_line(p, line, n, 1), CTL_IO_LINE;
        if (p->eof || p->out_fd < 0) {
            if (p->len) /* last line without newline */
                return take_line(p, line, n, 1), CTL_IO_LINE;
            return CTL_IO_EOF;
        }
        /* Past the deadline, what is already in the pipe is still read once
         * (a bestmove written in time is not lost to a slow reader), but an
         * child that keeps writing (an info flood) cannot hold the wait
         * open: the next time the buffer runs dry it is a timeout. */
        if (now_us() >= deadline_us) {
            if (p->last_read_for == deadline_us)
                return CTL_IO_TIMEOUT;
            p->last_read_for = deadline_us;
        }
        if (fill_once(p))
            continue;
        if (now_us() >= deadline_us)
            return CTL_IO_TIMEOUT;
        if (wait_io(p, p->out_fd, POLLIN, deadline_us) == 0)
            return CTL_IO_TIMEOUT;
    }
}

/* ---- the event-loop side ------------------------------------------------- */

int ctl_proc_pollfds(const struct ctl_proc *p, struct pollfd pf[2])
{
    int k = 0;
    if (p->out_fd >= 0 && !p->eof)
        pf[k++] = (struct pollfd){.fd = p->out_fd, .events = POLLIN};
    if (p->err_fd >= 0)
        pf[k++] = (struct pollfd){.fd = p->err_fd, .events = POLLIN};
    return k;
}

int ctl_proc_take(struct ctl_proc *p, char *line, size_t n)
{
    drain_err(p);
    for (;;) {
        if (take_line(p, line, n, 0))
            return CTL_IO_LINE;
        if (p->len >= CTL_LINE_MAX) /* absurdly long line: cut it */
            return take_line(p, line, n, 1), CTL_IO_LINE;
        if (p->eof || p->out_fd < 0) {
            if (p->len) /* last line without newline */
                return take_line(p, line, n, 1), CTL_IO_LINE;
            return CTL_IO_EOF;
        }
        if (fill_once(p))
            continue;
        return CTL_IO_NONE;
    }
}

/* ---- ending -------------------------------------------------------------- */

static void close_all(struct ctl_proc *p)
{
    drain_err(p);
    if (p->in_fd >= 0)
        close(p->in_fd);
    if (p->out_fd >= 0)
        close(p->out_fd);
    if (p->err_fd >= 0)
        close(p->err_fd);
    if (p->log_fd >= 0)
        close(p->log_fd);
    p->in_fd = p->out_fd = p->err_fd = p->log_fd = -1;
    p->len = p->off = 0;
    p->eof = 1;
}

void ctl_proc_kill(struct ctl_proc *p)
{
    int st;
    if (p->pgid) {
        reg_kill(p->pgid); /* the child and every process in its group */
        p->pgid = 0;
    }
    if (p->pid) {
        while (waitpid(p->pid, &st, 0) < 0 && errno == EINTR)
            ;
        if (!p->exited) {
            p->exited = 1;
            p->exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
        }
        p->pid = 0;
    }
    close_all(p);
}

void ctl_proc_close_input(struct ctl_proc *p)
{
    if (p->in_fd >= 0) {
        close(p->in_fd);
        p->in_fd = -1;
    }
}

int ctl_proc_wait(struct ctl_proc *p, int64_t deadline_us)
{
    int by_itself;
    char junk[256];
    while (p->pid && !check_exit(p) && now_us() < deadline_us) {
        struct pollfd pf[2];
        int k = ctl_proc_pollfds(p, pf);
        int64_t left = deadline_us - now_us();
        struct timespec ts;
        /* Wake often enough to see an exit that closes no pipe (a child
         * of the child holds them). */
        if (left > 2000)
            left = 2000;
        if (left < 0)
            left = 0;
        ts.tv_sec = 0;
        ts.tv_nsec = (long)left * 1000;
        if (ppoll(pf, (nfds_t)k, &ts, NULL) < 0 && errno != EINTR)
            break;
        /* Read (and drop) its output, so a child blocked on a full pipe
         * can reach its exit; bounded, so a flood cannot hold us here. */
        while (now_us() < deadline_us &&
               ctl_proc_take(p, junk, sizeof junk) == CTL_IO_LINE)
            ;
    }
    by_itself = p->exited;
    ctl_proc_kill(p);
    return by_itself;
}

void ctl_proc_stop(struct ctl_proc *p, int grace_ms)
{
    int64_t until = now_us() + (int64_t)grace_ms * 1000;
    if (p->pid && p->in_fd >= 0)
        ctl_proc_send(p, until, "quit");
    ctl_proc_close_input(p);
    ctl_proc_wait(p, until);
}
