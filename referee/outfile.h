/* outfile.h - output files written whole or not at all: through a
 * temporary file beside the target, renamed into place when complete, so
 * an error (bad input found late, a full disk) leaves no partial file and
 * an older file stays as it was. */
#ifndef REF_OUTFILE_H
#define REF_OUTFILE_H

#include <stdio.h>

struct ref_outfile {
    FILE *f;       /* write here */
    char *path;    /* the target */
    char *tmp;     /* the temporary file, NULL when writing in place */
};

/* Open PATH for writing.  A path that exists and is not a regular file
 * (/dev/stdout, a FIFO) is written in place; a symbolic link's target is
 * replaced.  0, or -1 with err set. */
int ref_outfile_open(struct ref_outfile *o, const char *path, char *err,
                     size_t n);
/* Flush, close and move into place: 0, or -1 with err set (nothing left
 * behind). */
int ref_outfile_commit(struct ref_outfile *o, char *err, size_t n);
/* Close and remove what was written (nothing if not open). */
void ref_outfile_discard(struct ref_outfile *o);

#endif
