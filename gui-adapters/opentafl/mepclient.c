/* mepclient.c - run a MEP engine on pipes (see mepclient.h). */
#include "mepclient.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../core/util.h"

int mepc_spawn(struct mepc *c, char *const argv[], const char *dir, int quiet_stderr)
{
    int in[2], out[2], ex[2];
    memset(c, 0, sizeof *c);
    c->pid = -1;
    if (pipe(in) || pipe(out) || pipe(ex))
        return -1;
    fcntl(ex[1], F_SETFD, FD_CLOEXEC);
    fcntl(in[1], F_SETFD, FD_CLOEXEC);
    fcntl(out[0], F_SETFD, FD_CLOEXEC);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        if (quiet_stderr) {
            int null = open("/dev/null", O_WRONLY);
            if (null >= 0)
                dup2(null, 2);
        }
        close(in[0]);
        close(out[1]);
        close(ex[0]);
        int e = 0;
        if (dir && chdir(dir) != 0)
            e = errno;
        else {
            execvp(argv[0], argv);
            e = errno;
        }
        if (write(ex[1], &e, sizeof e) < 0)
            _exit(127);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    close(ex[1]);
    int e = 0;
    ssize_t r = read(ex[0], &e, sizeof e); /* EOF: exec worked */
    close(ex[0]);
    c->pid = pid;
    c->to_fd = in[1];
    c->from_fd = out[0];
    signal(SIGPIPE, SIG_IGN);
    if (r > 0) {
        waitpid(pid, NULL, 0);
        c->pid = -1;
        close(c->to_fd);
        close(c->from_fd);
        errno = e;
        return -1;
    }
    return 0;
}

int mepc_start(struct mepc *c, const char *path)
{
    char buf[4096];
    /* a bare name is a file here, as for execl(): never a PATH lookup */
    snprintf(buf, sizeof buf, "%s%s", strchr(path, '/') ? "" : "./", path);
    char *argv[] = {buf, NULL};
    return mepc_spawn(c, argv, NULL, 1);
}

int mepc_send(struct mepc *c, const char *fmt, ...)
{
    char line[MEPC_LINE];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0 || n >= (int)sizeof line - 1)
        return -1;
    line[n++] = '\n';
    for (int off = 0; off < n;) {
        ssize_t w = write(c->to_fd, line + off, (size_t)(n - off));
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        off += (int)w;
    }
    return 0;
}

int mepc_take(struct mepc *c, char *line, size_t n)
{
    char *nl = memchr(c->buf, '\n', c->len);
    if (!nl) {
        if (c->len == sizeof c->buf) /* an over-long line: cut it */
            nl = c->buf + c->len - 1;
        else
            return 0;
    }
    size_t k = (size_t)(nl - c->buf);
    size_t m = k < n - 1 ? k : n - 1;
    memcpy(line, c->buf, m);
    line[m] = '\0';
    if (m && line[m - 1] == '\r')
        line[m - 1] = '\0';
    memmove(c->buf, nl + 1, c->len - k - 1);
    c->len -= k + 1;
    return 1;
}

int mepc_fill(struct mepc *c)
{
    ssize_t r;
    do
        r = read(c->from_fd, c->buf + c->len, sizeof c->buf - c->len);
    while (r < 0 && errno == EINTR);
    if (r <= 0) {
        c->eof = 1;
        return -1;
    }
    c->len += (size_t)r;
    return 0;
}

int mepc_line(struct mepc *c, char *line, size_t n, int timeout_ms)
{
    int64_t end = now_ms() + timeout_ms;
    for (;;) {
        if (mepc_take(c, line, n))
            return 1;
        if (c->eof)
            return 0;
        int left = (int)(end - now_ms());
        if (left <= 0)
            return -1;
        struct pollfd p = {.fd = c->from_fd, .events = POLLIN};
        int r = poll(&p, 1, left);
        if (r < 0 && errno != EINTR)
            return 0;
        if (r > 0 && mepc_fill(c) < 0 && !memchr(c->buf, '\n', c->len))
            return 0;
    }
}

static int is_final(const char *l)
{
    return strcmp(l, "ok") == 0 || strncmp(l, "error", 5) == 0;
}

int mepc_cmd(struct mepc *c, const char *cmd, char *payload, size_t pn,
             char *final, size_t fn)
{
    char line[MEPC_LINE];
    size_t len = 0;
    if (payload && pn)
        payload[0] = '\0';
    if (mepc_send(c, "%s", cmd))
        return -1;
    for (;;) {
        int r = mepc_line(c, line, sizeof line, 30000);
        if (r <= 0)
            return -1;
        if (is_final(line)) {
            if (final && fn)
                snprintf(final, fn, "%s", line);
            return strcmp(line, "ok") == 0 ? 0 : 1;
        }
        if (payload && pn && strncmp(line, "info ", 5) != 0)
            buf_printf(payload, pn, &len, "%s%s", len ? "\n" : "", line);
    }
}

int mepc_finish(struct mepc *c, const char *bye, int wait_ms)
{
    int status = -1;
    if (c->pid <= 0)
        return -1;
    if (bye)
        mepc_send(c, "%s", bye);
    close(c->to_fd);
    for (int i = 0; i <= wait_ms / 10; i++) {
        if (waitpid(c->pid, &status, WNOHANG) == c->pid) {
            c->pid = -1;
            break;
        }
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    if (c->pid > 0) {
        kill(c->pid, SIGKILL);
        waitpid(c->pid, &status, 0);
        c->pid = -1;
    }
    close(c->from_fd);
    return status;
}

void mepc_stop(struct mepc *c) { mepc_finish(c, "quit", 1000); }
