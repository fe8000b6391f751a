/* proc.c - engine child processes (see proc.h). */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"

extern char **environ;

static void trace(struct ref_proc *p, char dir, const char *s, size_t n)
{
    char head[48];
    int h;
    if (p->log_fd < 0)
        return;
    h = snprintf(head, sizeof head, "[%lld %c] ", (long long)now_ms(), dir);
    /* One write per line: O_APPEND keeps lines whole next to stderr. */
    char *tmp = xmalloc((size_t)h + n + 1);
    memcpy(tmp, head, (size_t)h);
    memcpy(tmp + h, s, n);
    tmp[(size_t)h + n] = '\n';
    if (write(p->log_fd, tmp, (size_t)h + n + 1) < 0) {
        /* a trace is best effort */
    }
    free(tmp);
}

int ref_proc_start(struct ref_proc *p, char *const argv[], const char *dir,
                   const char *logpath, int trace_on, char *err, size_t n)
{
    int in[2], out[2], rc;
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    sigset_t def;

    memset(p, 0, offsetof(struct ref_proc, buf));
    p->in_fd = p->out_fd = p->log_fd = -1;
    if (pipe2(in, O_CLOEXEC) < 0)
        return set_err(err, n, -1, "pipe: %s", strerror(errno));
    if (pipe2(out, O_CLOEXEC) < 0) {
        close(in[0]);
        close(in[1]);
        return set_err(err, n, -1, "pipe: %s", strerror(errno));
    }
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, logpath ? logpath : "/dev/null",
                                     O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (dir)
        posix_spawn_file_actions_addchdir_np(&fa, dir);
    posix_spawnattr_init(&at);
    sigemptyset(&def);
    sigaddset(&def, SIGPIPE);
    posix_spawnattr_setsigdefault(&at, &def);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF);
    rc = posix_spawnp(&p->pid, argv[0], &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(in[0]);
    close(out[1]);
    if (rc != 0) {
        close(in[1]);
        close(out[0]);
        p->pid = 0;
        return set_err(err, n, -1, "cannot start %s: %s", argv[0],
                       strerror(rc));
    }
    p->in_fd = in[1];
    p->out_fd = out[0];
    fcntl(p->in_fd, F_SETFL, fcntl(p->in_fd, F_GETFL) | O_NONBLOCK);
    fcntl(p->out_fd, F_SETFL, fcntl(p->out_fd, F_GETFL) | O_NONBLOCK);
    if (trace_on && logpath)
        p->log_fd = open(logpath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
                         0644);
    return 0;
}

/* poll one fd until the absolute deadline; >0 ready, 0 timeout. */
static int wait_fd(int fd, short ev, int64_t deadline_us)
{
    for (;;) {
        struct pollfd pf = {.fd = fd, .events = ev};
        int64_t left = deadline_us - now_us();
        struct timespec ts;
        int r;
        if (left < 0)
            left = 0;
        ts.tv_sec = (time_t)(left / 1000000);
        ts.tv_nsec = (long)(left % 1000000) * 1000;
        r = ppoll(&pf, 1, &ts, NULL);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return 0;
        return 1;
    }
}

int ref_proc_send(struct ref_proc *p, int64_t deadline_us, const char *line)
{
    size_t n = strlen(line), off = 0;
    char *msg;
    if (p->in_fd < 0)
        return -1;
    trace(p, '>', line, n);
    msg = xmalloc(n + 1);
    memcpy(msg, line, n);
    msg[n++] = '\n';
    while (off < n) {
        ssize_t w = write(p->in_fd, msg + off, n - off);
        if (w > 0) {
            off += (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) &&
            wait_fd(p->in_fd, POLLOUT, deadline_us) > 0)
            continue;
        free(msg);
        return -1;
    }
    free(msg);
    return 0;
}

/* Take one line out of the buffer if there is one (or a forced cut). */
static int take_line(struct ref_proc *p, char *line, size_t n, int force)
{
    char *nl = memchr(p->buf, '\n', p->len);
    size_t k, used;
    if (!nl && !force)
        return 0;
    k = nl ? (size_t)(nl - p->buf) : p->len;
    used = nl ? k + 1 : k;
    if (k && p->buf[k - 1] == '\r')
        k--;
    if (k >= n)
        k = n - 1;
    memcpy(line, p->buf, k);
    line[k] = '\0';
    memmove(p->buf, p->buf + used, p->len - used);
    p->len -= used;
    trace(p, '<', line, k);
    return 1;
}

int ref_proc_read(struct ref_proc *p, int64_t deadline_us, char *line,
                  size_t n)
{
    for (;;) {
        ssize_t r;
        if (take_line(p, line, n, 0))
            return REF_IO_LINE;
        if (p->len >= REF_LINE_MAX) /* absurdly long line: cut it */
            return take_line(p, line, n, 1), REF_IO_LINE;
        if (p->eof || p->out_fd < 0) {
            if (p->len) /* last line without newline */
                return take_line(p, line, n, 1), REF_IO_LINE;
            return REF_IO_EOF;
        }
        /* Past the deadline, what is already in the pipe is still read once
         * (a bestmove written in time is not lost to a slow reader), but an
         * engine that keeps writing (an info flood) cannot hold the wait
         * open: the next time the buffer runs dry it is a timeout. */
        if (now_us() >= deadline_us) {
            if (p->last_read_for == deadline_us)
                return REF_IO_TIMEOUT;
            p->last_read_for = deadline_us;
        }
        r = read(p->out_fd, p->buf + p->len, sizeof p->buf - p->len);
        if (r > 0) {
            p->len += (size_t)r;
            continue;
        }
        if (r == 0) {
            p->eof = 1;
            continue;
        }
        if (errno == EINTR)
            continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) {
            p->eof = 1;
            continue;
        }
        if (now_us() >= deadline_us || !wait_fd(p->out_fd, POLLIN, deadline_us))
            return REF_IO_TIMEOUT;
    }
}

int ref_proc_exited(struct ref_proc *p)
{
    int st;
    if (!p->pid)
        return 1;
    return waitpid(p->pid, &st, WNOHANG) == p->pid ? (p->pid = 0, 1) : 0;
}

static void close_all(struct ref_proc *p)
{
    if (p->in_fd >= 0)
        close(p->in_fd);
    if (p->out_fd >= 0)
        close(p->out_fd);
    if (p->log_fd >= 0)
        close(p->log_fd);
    p->in_fd = p->out_fd = p->log_fd = -1;
    p->len = 0;
    p->eof = 1;
}

void ref_proc_kill(struct ref_proc *p)
{
    int st;
    if (p->pid) {
        kill(p->pid, SIGKILL);
        while (waitpid(p->pid, &st, 0) < 0 && errno == EINTR)
            ;
        p->pid = 0;
    }
    close_all(p);
}

void ref_proc_stop(struct ref_proc *p, int grace_ms)
{
    int64_t until = now_us() + (int64_t)grace_ms * 1000;
    if (p->pid && p->in_fd >= 0)
        ref_proc_send(p, until, "quit");
    if (p->in_fd >= 0) {
        close(p->in_fd);
        p->in_fd = -1;
    }
    while (p->pid && now_us() < until) {
        if (ref_proc_exited(p))
            break;
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
    ref_proc_kill(p);
}
