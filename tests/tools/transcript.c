/* transcript.c - run a protocol transcript against an engine binary.
 *
 *   transcript <bindir> <file.t>...
 *
 * A transcript (tests/transcripts/GAME/NAME.t) holds commands and the exact
 * output expected:
 *   > <command>     send the command, wait for its final line
 *   >& <command>    send without waiting (e.g. go infinite before stop)
 *   <pattern>       an expected output line, fnmatch(3) pattern
 *   ...             any number of output lines (none too); the lines after
 *                   it are matched wherever they fit
 *   %engine NAME    the binary (default: medan-<folder name>)
 *   %info           also compare `info` lines (skipped by default)
 *   # comment       and blank lines are ignored
 * The runner appends `quit` and wants exit status 0.
 */
#include <fnmatch.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control/client.h"
#include "control/proc.h"
#include "core/util.h"

#define MAXL 70000
#define TIMEOUT_MS 60000

struct lines {
    char **v;
    int *src; /* transcript line number */
    int n, cap;
};

static void add(struct lines *l, const char *s, int src)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->v = xrealloc(l->v, (size_t)l->cap * sizeof *l->v);
        l->src = xrealloc(l->src, (size_t)l->cap * sizeof *l->src);
    }
    l->v[l->n] = xstrdup(s);
    l->src[l->n++] = src;
}

static int is_any(const char *pat) { return strcmp(pat, "...") == 0; }

/* ok[i][j]: expect[i..] matches output[j..] (`...` takes any number of
 * lines).  Filled backwards; (ne+1)*(no+1) cells. */
static int matches(const struct lines *e, const struct lines *o)
{
    int ne = e->n, no = o->n, w = no + 1, r;
    unsigned char *ok = xcalloc((size_t)(ne + 1) * (size_t)w, 1);
    ok[ne * w + no] = 1;
    for (int i = ne - 1; i >= 0; i--)
        for (int j = no; j >= 0; j--) {
            if (is_any(e->v[i]))
                ok[i * w + j] = ok[(i + 1) * w + j] || (j < no && ok[i * w + j + 1]);
            else
                ok[i * w + j] = j < no && fnmatch(e->v[i], o->v[j], 0) == 0 &&
                                ok[(i + 1) * w + j + 1];
        }
    r = ok[0];
    free(ok);
    return r;
}

/* 0 when the output matches; otherwise says where it first differs (a
 * `...` skips to the first line its successor matches). */
static int compare(const char *path, const struct lines *expect, const struct lines *output)
{
    int i = 0, j = 0, skipped = 0;
    if (matches(expect, output))
        return 0;
    while (i < expect->n || j < output->n) {
        if (i < expect->n && is_any(expect->v[i])) {
            i++;
            if (i == expect->n)
                break;
            while (j < output->n && fnmatch(expect->v[i], output->v[j], 0) != 0)
                j++;
            skipped = 1;
            continue;
        }
        if (j >= output->n) {
            fprintf(stderr, "%s:%d: expected '%s', got nothing more%s\n", path, expect->src[i],
                    expect->v[i], skipped ? " (after the `...` lines)" : "");
            return 1;
        }
        skipped = 0;
        if (i >= expect->n) {
            fprintf(stderr, "%s: unexpected output '%s' (after the command on line %d)\n", path,
                    output->v[j], output->src[j]);
            return 1;
        }
        if (fnmatch(expect->v[i], output->v[j], 0) != 0) {
            fprintf(stderr, "%s:%d: expected '%s'\n%*s got '%s'\n", path, expect->src[i],
                    expect->v[i], (int)strlen(path) + 8, "", output->v[j]);
            return 1;
        }
        i++;
        j++;
    }
    fprintf(stderr, "%s: the output does not fit the transcript's `...` lines\n", path);
    return 1;
}

static int run(const char *bindir, const char *path)
{
    FILE *f = fopen(path, "r");
    char line[MAXL], engine[512] = "", exe[1024], got[MAXL], dir[1024];
    struct lines expect = {0}, output = {0};
    int keep_info = 0, lineno = 0, fail = 0;
    static struct ctl_proc c;
    struct ctl_proc_opts inherit = {.err_mode = CTL_STDERR_INHERIT};
    char *argv[2], err[600];
    if (!f) {
        fprintf(stderr, "transcript: cannot open %s\n", path);
        return 1;
    }
    snprintf(dir, sizeof dir, "%s", path);
    snprintf(engine, sizeof engine, "medan-%s", basename(dirname(dir)));
    /* first pass: directives */
    while (fgets(line, sizeof line, f)) {
        str_chomp(line);
        if (strncmp(line, "%engine ", 8) == 0)
            snprintf(engine, sizeof engine, "%.500s", line + 8);
        else if (strcmp(line, "%info") == 0)
            keep_info = 1;
    }
    rewind(f);
    snprintf(exe, sizeof exe, "%s/%s", bindir, engine);
    argv[0] = exe;
    argv[1] = NULL;
    if (ctl_proc_start(&c, argv, &inherit, err, sizeof err)) {
        fprintf(stderr, "transcript: %s\n", err);
        return 1;
    }
    while (fgets(line, sizeof line, f)) {
        lineno++;
        str_chomp(line);
        if (!line[0] || line[0] == '#' || line[0] == '%')
            continue;
        if (line[0] == '>') {
            int async = line[1] == '&';
            const char *cmd = line + (async ? 2 : 1);
            while (*cmd == ' ')
                cmd++;
            if (ctl_proc_send(&c, now_us() + TIMEOUT_MS * 1000LL, cmd)) {
                fprintf(stderr, "%s:%d: engine closed its input\n", path, lineno);
                fail = 1;
                break;
            }
            if (async)
                continue;
            /* one deadline per command: info lines do not extend it (a
             * search that never ends fails instead of hanging the run) */
            int64_t deadline = now_us() + TIMEOUT_MS * 1000LL;
            for (;;) {
                int r = ctl_proc_read(&c, deadline, got, sizeof got);
                if (r == CTL_IO_EOF) {
                    if (strncmp(cmd, "quit", 4) != 0) {
                        fprintf(stderr, "%s:%d: engine exited during '%s'\n", path, lineno, cmd);
                        fail = 1;
                    }
                    break;
                }
                if (r == CTL_IO_TIMEOUT) {
                    fprintf(stderr, "%s:%d: no final line for '%s' within %d s\n", path, lineno,
                            cmd, TIMEOUT_MS / 1000);
                    fail = 1;
                    break;
                }
                if (!keep_info && strncmp(got, "info ", 5) == 0)
                    continue;
                add(&output, got, lineno);
                if (ctl_is_final(got))
                    break;
            }
            if (fail)
                break;
        } else
            add(&expect, line, lineno);
    }
    fclose(f);
    ctl_proc_send(&c, now_us() + 10000000, "quit");
    ctl_proc_close_input(&c);
    int by_itself = ctl_proc_wait(&c, now_us() + 10000000);
    if (!by_itself || c.exit_code != 0) {
        char why[64];
        ctl_proc_exit_text(&c, why, sizeof why);
        fprintf(stderr, "%s: engine did not exit cleanly (%s)\n", path,
                by_itself ? why : "no exit within 10 s: killed");
        fail = 1;
    }
    if (compare(path, &expect, &output))
        fail = 1;
    for (int i = 0; i < expect.n; i++)
        free(expect.v[i]);
    for (int i = 0; i < output.n; i++)
        free(output.v[i]);
    free(expect.v);
    free(expect.src);
    free(output.v);
    free(output.src);
    return fail;
}

int main(int argc, char **argv)
{
    int fail = 0, n = 0;
    if (argc < 3) {
        fprintf(stderr, "usage: transcript <bindir> <file.t>...\n");
        return 2;
    }
    for (int i = 2; i < argc; i++, n++)
        if (run(argv[1], argv[i])) {
            fprintf(stderr, "FAIL %s\n", argv[i]);
            fail++;
        }
    printf("transcripts: %d passed, %d failed\n", n - fail, fail);
    return fail ? 1 : 0;
}
