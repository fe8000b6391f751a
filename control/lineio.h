/* lineio.h - an adapter's own side of a line protocol: its stdin read in
 * whole lines without blocking past one read(), and its lines written to
 * stdout at once, each copied to an optional log.  The GUI adapters
 * (medan-opentafl, medan-xboard) speak their GUI's protocol through these;
 * their engine is a child (proc.h, client.h).
 */
#ifndef CTL_LINEIO_H
#define CTL_LINEIO_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* What has been read of a descriptor and not yet taken as lines.  A line
 * longer than the buffer is cut at its size; eof is set by the first read
 * that returns 0 or fails. */
struct lio_in {
    char buf[1 << 16];
    size_t len;
    int eof;
};

/* Take the next whole line (the rest of the input at end of input) into
 * line (NUL-terminated, at most n - 1 bytes, the rest dropped, the line
 * end removed): 1, or 0 when no line is complete yet. */
int lio_take(struct lio_in *in, char *line, size_t n);
/* One read() of fd into what is left of the buffer (call it when poll()
 * says fd is readable; nothing is read while lio_room is 0). */
void lio_fill(struct lio_in *in, int fd);
/* Room left in the buffer: 0 until a line is taken. */
size_t lio_room(const struct lio_in *in);

/* Append "DIR LINE" to log (none when log is NULL) and flush it. */
void lio_log(FILE *log, const char *dir, const char *line);
/* Write the formatted text as one line to stdout (file descriptor 1,
 * unbuffered, cut at 8190 bytes), logged as "> LINE".  A failed write is
 * dropped: the GUI has gone, and the input's end will say so. */
void lio_vout(FILE *log, const char *fmt, va_list ap);

#endif
