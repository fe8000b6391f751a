/* lineio.c - an adapter's stdin lines and stdout lines (lineio.h). */
#include "lineio.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "../core/util.h"

int lio_take(struct lio_in *in, char *line, size_t n)
{
    char *nl = memchr(in->buf, '\n', in->len);
    if (!nl) {
        if (in->len == sizeof in->buf)
            nl = in->buf + in->len - 1; /* a line as long as the buffer: cut */
        else if (in->eof && in->len)
            nl = in->buf + in->len; /* the last line, with no end */
        else
            return 0;
    }
    size_t k = (size_t)(nl - in->buf), m = k < n - 1 ? k : n - 1;
    memcpy(line, in->buf, m);
    line[m] = '\0';
    str_chomp(line);
    size_t used = k < in->len ? k + 1 : k;
    memmove(in->buf, in->buf + used, in->len - used);
    in->len -= used;
    return 1;
}

void lio_fill(struct lio_in *in, int fd)
{
    ssize_t r;
    if (in->len == sizeof in->buf)
        return; /* no room: take a line first */
    do
        r = read(fd, in->buf + in->len, sizeof in->buf - in->len);
    while (r < 0 && errno == EINTR);
    if (r <= 0)
        in->eof = 1;
    else
        in->len += (size_t)r;
}

size_t lio_room(const struct lio_in *in) { return sizeof in->buf - in->len; }

void lio_log(FILE *log, const char *dir, const char *line)
{
    if (log) {
        fprintf(log, "%s %s\n", dir, line);
        fflush(log);
    }
}

void lio_vout(FILE *log, const char *fmt, va_list ap)
{
    char line[8192];
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    if (n < 0)
        return;
    if (n > (int)sizeof line - 2)
        n = (int)sizeof line - 2;
    lio_log(log, ">", line);
    line[n++] = '\n';
    for (int off = 0; off < n;) {
        ssize_t w = write(1, line + off, (size_t)(n - off));
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return;
        }
        off += (int)w;
    }
}
