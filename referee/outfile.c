/* outfile.c - output files written whole or not at all (see outfile.h). */
#include "outfile.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"

int ref_outfile_open(struct ref_outfile *o, const char *path, char *err,
                     size_t n)
{
    struct stat st;
    size_t len;
    mode_t mask;
    char *real = NULL;
    int fd;
    memset(o, 0, sizeof *o);
    /* A symbolic link: its target is replaced, the link kept (a link to
     * nothing yet is written through, in place). */
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && (real = realpath(path, NULL)) != NULL)
        path = real;
    len = strlen(path);
    if ((stat(path, &st) == 0 && !S_ISREG(st.st_mode)) ||
        (!real && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))) {
        int rc = 0;
        if (S_ISDIR(st.st_mode))
            rc = set_err(err, n, -1, "cannot write %s: a directory", path);
        else if (!(o->f = fopen(path, "w")))
            rc = set_err(err, n, -1, "cannot write %s: %s", path, strerror(errno));
        else
            o->path = xstrdup(path);
        free(real);
        return rc;
    }
    o->tmp = xmalloc(len + 8);
    memcpy(o->tmp, path, len);
    memcpy(o->tmp + len, ".XXXXXX", 8);
    if ((fd = mkstemp(o->tmp)) < 0) {
        set_err(err, n, -1, "cannot write %s: %s", path, strerror(errno));
        free(o->tmp);
        free(real);
        o->tmp = NULL;
        return -1;
    }
    /* mkstemp makes 0600; a new file gets what the umask allows. */
    mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) < 0 || !(o->f = fdopen(fd, "w"))) {
        set_err(err, n, -1, "cannot write %s: %s", path, strerror(errno));
        close(fd);
        unlink(o->tmp);
        free(o->tmp);
        free(real);
        o->tmp = NULL;
        return -1;
    }
    o->path = xstrdup(path);
    free(real);
    return 0;
}

int ref_outfile_commit(struct ref_outfile *o, char *err, size_t n)
{
    int bad;
    assert(o->f);
    bad = ferror(o->f) | fflush(o->f);
    bad |= fclose(o->f);
    o->f = NULL;
    if (!bad && o->tmp && rename(o->tmp, o->path) < 0)
        bad = 1;
    if (bad) {
        set_err(err, n, -1, "cannot write %s: %s", o->path, strerror(errno));
        if (o->tmp)
            unlink(o->tmp);
    }
    free(o->tmp);
    free(o->path);
    o->tmp = o->path = NULL;
    return bad ? -1 : 0;
}

void ref_outfile_discard(struct ref_outfile *o)
{
    if (!o->f)
        return;
    fclose(o->f);
    if (o->tmp)
        unlink(o->tmp);
    free(o->tmp);
    free(o->path);
    memset(o, 0, sizeof *o);
}
