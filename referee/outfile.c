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
    size_t len = strlen(path);
    mode_t mask;
    int fd;
    memset(o, 0, sizeof *o);
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode))
            return set_err(err, n, -1, "cannot write %s: a directory", path);
        if (!(o->f = fopen(path, "w")))
            return set_err(err, n, -1, "cannot write %s: %s", path, strerror(errno));
        o->path = xstrdup(path);
        return 0;
    }
    o->tmp = xmalloc(len + 8);
    memcpy(o->tmp, path, len);
    memcpy(o->tmp + len, ".XXXXXX", 8);
    if ((fd = mkstemp(o->tmp)) < 0) {
        set_err(err, n, -1, "cannot write %s: %s", path, strerror(errno));
        free(o->tmp);
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
        o->tmp = NULL;
        return -1;
    }
    o->path = xstrdup(path);
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
