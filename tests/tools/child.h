/* child.h - a child process on pipes with deadline-bounded line reads,
 * shared by the test tools (header-only: each tool is one program). */
#ifndef MEDAN_TEST_CHILD_H
#define MEDAN_TEST_CHILD_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../core/util.h"

struct child {
    pid_t pid;
    int in, out;        /* write to in, read from out */
    char buf[1 << 17];
    size_t len;
    int eof;
};

static int child_start(struct child *c, char *const argv[], const char *errlog)
{
    int pin[2], pout[2];
    memset(c, 0, sizeof *c);
    if (pipe(pin) || pipe(pout))
        return -1;
    signal(SIGPIPE, SIG_IGN);
    c->pid = fork();
    if (c->pid < 0)
        return -1;
    if (c->pid == 0) {
        dup2(pin[0], 0);
        dup2(pout[1], 1);
        if (errlog) {
            int fd = open(errlog, O_WRONLY | O_CREAT | O_APPEND, 0644);
            if (fd >= 0)
                dup2(fd, 2);
        }
        close(pin[0]);
        close(pin[1]);
        close(pout[0]);
        close(pout[1]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(pin[0]);
    close(pout[1]);
    c->in = pin[1];
    c->out = pout[0];
    return 0;
}

static int child_send(struct child *c, const char *s, size_t n)
{
    while (n) {
        ssize_t w = write(c->in, s, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        s += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Read one line (without '\n') into line. 1 = got one, 0 = EOF, -1 = timeout. */
static int child_line(struct child *c, char *line, size_t max, int timeout_ms)
{
    int64_t deadline = now_ms() + timeout_ms;
    for (;;) {
        char *nl = memchr(c->buf, '\n', c->len);
        if (nl) {
            size_t l = (size_t)(nl - c->buf);
            size_t k = l < max - 1 ? l : max - 1;
            memcpy(line, c->buf, k);
            line[k] = '\0';
            memmove(c->buf, nl + 1, c->len - l - 1);
            c->len -= l + 1;
            return 1;
        }
        if (c->eof || c->len == sizeof c->buf) {
            if (!c->len)
                return 0;
            size_t k = c->len < max - 1 ? c->len : max - 1;
            memcpy(line, c->buf, k);
            line[k] = '\0';
            c->len = 0;
            return 1;
        }
        int64_t left = deadline - now_ms();
        if (left <= 0)
            return -1;
        struct pollfd p = {c->out, POLLIN, 0};
        int r = poll(&p, 1, (int)left);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            continue;
        ssize_t got = read(c->out, c->buf + c->len, sizeof c->buf - c->len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            c->eof = 1;
        else
            c->len += (size_t)got;
    }
}

/* Close stdin, wait up to timeout for exit; returns the wait status or -1
 * (killed after the timeout). */
static int child_finish(struct child *c, int timeout_ms)
{
    int status;
    int64_t deadline = now_ms() + timeout_ms;
    close(c->in);
    for (;;) {
        pid_t r = waitpid(c->pid, &status, WNOHANG);
        if (r == c->pid)
            break;
        if (now_ms() > deadline) {
            kill(c->pid, SIGKILL);
            waitpid(c->pid, &status, 0);
            close(c->out);
            return -1;
        }
        usleep(2000);
    }
    close(c->out);
    return status;
}

/* Is this line a command's final answer? */
__attribute__((unused)) static int is_final(const char *l)
{
    static const char *const fin[] = {"ok", "error", "bestmove", "pong", "readyok", "mepok"};
    for (size_t i = 0; i < sizeof fin / sizeof *fin; i++) {
        size_t n = strlen(fin[i]);
        if (strncmp(l, fin[i], n) == 0 && (l[n] == '\0' || l[n] == ' '))
            return 1;
    }
    return 0;
}

#endif
