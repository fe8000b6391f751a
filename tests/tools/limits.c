/* limits.c - end-to-end checks of the limits every engine must honour
 * (issue 10): end of input bounds every job, stop ends a perft at once,
 * Battalion's depth, an over-long line costs no memory, a Hash that cannot
 * be had is an error.  Latency figures are printed, never asserted: the
 * bounds asserted are generous (seconds) so a loaded machine passes.
 *
 *   limits <bindir>
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "control/proc.h"
#include "core/util.h"

#define MAXL 70000
#define LONG_MS 60000 /* "it ends": far above MEP_EOF_GRACE_MS (10 s) */


static const char *bindir;
static int failures;

static void check(int ok, const char *what, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void check(int ok, const char *what, const char *fmt, ...)
{
    va_list ap;
    printf("%s %s", ok ? "ok  " : "FAIL", what);
    if (fmt && *fmt) {
        printf(": ");
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
    }
    printf("\n");
    fflush(stdout);
    failures += !ok;
}

/* Start argv (stderr to /dev/null); its pipes are close-on-exec, so
 * children started later do not hold them (its end of input comes). */
static int start_argv(struct ctl_proc *c, char *const argv[], const char *what)
{
    char err[600];
    if (ctl_proc_start(c, argv, NULL, err, sizeof err)) {
        check(0, what, "%s", err);
        return -1;
    }
    return 0;
}

static int start(struct ctl_proc *c, const char *engine, const char *arg1, const char *arg2)
{
    static char exe[1024];
    char *argv[4] = {exe, (char *)arg1, (char *)arg2, NULL};
    snprintf(exe, sizeof exe, "%s/%s", bindir, engine);
    return start_argv(c, argv, engine);
}

static void sendf(struct ctl_proc *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sendf(struct ctl_proc *c, const char *fmt, ...)
{
    char line[MAXL];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n > 0)
        ctl_proc_write(c, now_us() + LONG_MS * 1000LL, line, strlen(line));
}

/* End of input, then wait up to ms for the exit: its status, or -1 when
 * it had to be killed. */
static int finish(struct ctl_proc *c, int ms)
{
    ctl_proc_close_input(c);
    return ctl_proc_wait(c, now_us() + ms * 1000LL) ? c->exit_code : -1;
}

/* Read lines until one starts with `want`: 1, else 0 (EOF, timeout). */
static int expect(struct ctl_proc *c, const char *want, int ms, char *got, size_t n)
{
    static char line[MAXL];
    int64_t deadline = now_us() + ms * 1000LL;
    for (;;) {
        int r = ctl_proc_read(c, deadline, line, sizeof line);
        if (r != CTL_IO_LINE) {
            if (got)
                snprintf(got, n, "%s", r == CTL_IO_EOF ? "(end of output)" : "(timeout)");
            return 0;
        }
        if (str_prefix(line, want)) {
            if (got)
                snprintf(got, n, "%.200s", line);
            return 1;
        }
    }
}

static void close_input(struct ctl_proc *c) { ctl_proc_close_input(c); }

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* ---- end of input bounds every job ---------------------------------------------- */
struct eofjob {
    const char *engine, *setup, *job, *final;
    struct ctl_proc c;
    int started;
};

static void eof_jobs(void)
{
    static struct eofjob jobs[] = {
        {"medan-loa", "", "go depth 1000", "bestmove", {0}, 0},
        {"medan-loa", "", "go nodes 18446744073709551615", "bestmove", {0}, 0},
        {"medan-loa", "", "perft 64", "ok", {0}, 0},
        {"medan-fetlar", "", "go depth 1000", "bestmove", {0}, 0},
        {"medan-fetlar", "", "perft 64", "ok", {0}, 0},
        {"medan-palagan", "newgame size=9", "go depth 1000", "bestmove", {0}, 0},
        {"medan-palagan", "newgame size=9", "perft 64", "ok", {0}, 0},
        {"medan-battalion", "newgame players=4 seat=1", "go depth 1000", "bestmove", {0}, 0},
        {"medan-battalion", "", "go nodes 18446744073709551615", "bestmove", {0}, 0},
        {"medan-battalion", "", "perft 64", "ok", {0}, 0},
    };
    int64_t t0;
    /* all at once: each one waits out the same grace period */
    for (size_t i = 0; i < ARRAY_LEN(jobs); i++) {
        struct eofjob *j = &jobs[i];
        if (start(&j->c, j->engine, NULL, NULL))
            continue;
        j->started = 1;
        if (*j->setup)
            sendf(&j->c, "%s\n", j->setup);
        sendf(&j->c, "%s\n", j->job);
    }
    usleep(200000);
    t0 = now_ms();
    for (size_t i = 0; i < ARRAY_LEN(jobs); i++)
        if (jobs[i].started)
            close_input(&jobs[i].c);
    for (size_t i = 0; i < ARRAY_LEN(jobs); i++) {
        struct eofjob *j = &jobs[i];
        char what[256], got[256];
        int found, st;
        if (!j->started)
            continue;
        snprintf(what, sizeof what, "%s: '%s' then end of input ends", j->engine, j->job);
        found = expect(&j->c, j->final, LONG_MS, got, sizeof got);
        st = finish(&j->c, LONG_MS);
        check(found && st == 0, what, "%s, exit status %d, %lld ms after end of input",
              found ? got : "no final line", st, (long long)(now_ms() - t0));
    }
}

/* ---- stop and quit during perft ------------------------------------------------- */
static void perft_stop(const char *engine, const char *setup, int depth, int runs)
{
    static struct ctl_proc c;
    int64_t lat[64];
    int n = 0, fine = 1;
    char what[256], got[256] = "";
    if (start(&c, engine, NULL, NULL))
        return;
    if (*setup) {
        sendf(&c, "%s\n", setup);
        expect(&c, "ok", LONG_MS, NULL, 0);
    }
    for (int i = 0; i < runs && i < 64; i++) {
        int64_t t;
        sendf(&c, "perft %d\n", depth);
        usleep(100000 + 20000 * (useconds_t)i);
        t = now_us();
        sendf(&c, "stop\n");
        if (!expect(&c, "ok", 10000, got, sizeof got)) {
            fine = 0;
            break;
        }
        lat[n++] = now_us() - t;
    }
    qsort(lat, (size_t)n, sizeof *lat, cmp_i64);
    snprintf(what, sizeof what, "%s %s perft %d: stop ends it", engine, setup, depth);
    if (fine && n)
        check(1, what, "stop -> ok over %d runs: p50 %.1f ms, p99 %.1f ms, max %.1f ms", n,
              lat[n / 2] / 1000.0, lat[(n * 99) / 100] / 1000.0, lat[n - 1] / 1000.0);
    else
        check(0, what, "no ok within 10 s after stop (%s)", got);
    /* quit during a perft exits */
    sendf(&c, "perft %d\n", depth);
    usleep(200000);
    int64_t t = now_ms();
    sendf(&c, "quit\n");
    int st = finish(&c, 10000);
    snprintf(what, sizeof what, "%s %s perft %d: quit exits", engine, setup, depth);
    check(st == 0, what, "exit status %d after %lld ms", st, (long long)(now_ms() - t));
}

/* ---- Battalion's depth ---------------------------------------------------------- */
static void battalion_depth(void)
{
    static struct ctl_proc c;
    char got[256];
    int ok, st;
    if (start(&c, "medan-battalion", NULL, NULL))
        return;
    sendf(&c, "newgame players=4 seat=1\ngo depth 2\n");
    ok = expect(&c, "bestmove", LONG_MS, got, sizeof got);
    sendf(&c, "quit\n");
    st = finish(&c, 10000);
    check(ok && st == 0, "medan-battalion: go depth 2 answers (input kept open)", "%s", got);

    const char *args[][2] = {{"analyze", NULL}, {"analyze", "--depth"}};
    for (int i = 0; i < 2; i++) {
        char exe[1024], what[128];
        char *argv[5] = {exe, "analyze", NULL, NULL, NULL};
        snprintf(exe, sizeof exe, "%s/medan-battalion", bindir);
        if (args[i][1]) {
            argv[2] = "--depth";
            argv[3] = "3";
        }
        snprintf(what, sizeof what, "medan-battalion %s ends", args[i][1] ? "analyze --depth 3"
                                                                          : "analyze");
        if (start_argv(&c, argv, what))
            continue;
        close_input(&c);
        ok = expect(&c, "bestmove", LONG_MS, got, sizeof got);
        st = finish(&c, 10000);
        check(ok && st == 0, what, "%s, exit status %d", got, st);
    }
}

/* ---- a 100 MB line --------------------------------------------------------------- */
static long rss_kb(pid_t pid)
{
    char path[64], line[256];
    long kb = -1;
    FILE *f;
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    if (!(f = fopen(path, "r")))
        return -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld", &kb) == 1)
            break;
    fclose(f);
    return kb;
}

static void long_line(void)
{
    static struct ctl_proc c;
    static char chunk[1 << 16];
    size_t total = 100u << 20;
    char got[256] = "", got2[256] = "";
    long before, after;
    int ok;
    if (start(&c, "medan-loa", NULL, NULL))
        return;
    /* a 1 MiB table: a table of 2 MiB or more is faulted in by a thread
     * of its own after start (search/tt.c), which RSS would count here */
    sendf(&c, "setoption name Hash value 1\nping a\n");
    expect(&c, "pong a", LONG_MS, NULL, 0);
    before = rss_kb(c.pid);
    memset(chunk, 'x', sizeof chunk);
    sendf(&c, "ping ");
    for (size_t sent = 0; sent < total; sent += sizeof chunk)
        if (ctl_proc_write(&c, now_us() + LONG_MS * 1000LL, chunk, sizeof chunk))
            break;
    sendf(&c, "\nping z\n");
    ok = expect(&c, "error syntax line longer than 65535 bytes", LONG_MS, got, sizeof got) &&
         expect(&c, "pong z", LONG_MS, got2, sizeof got2);
    after = rss_kb(c.pid);
    sendf(&c, "quit\n");
    int st = finish(&c, 10000);
    check(ok && st == 0 && before > 0 && after > 0 && after - before < 32 * 1024,
          "medan-loa: a 100 MB line is refused and not kept in memory",
          "'%s' '%s', RSS %ld kB before, %ld kB after", got, got2, before, after);
}

/* ---- Hash beyond what the process may allocate ---------------------------------------- */
static void hash_rlimit(const char *engine)
{
#if defined(__SANITIZE_ADDRESS__)
    /* AddressSanitizer needs terabytes of address space: no RLIMIT_AS
     * here (the unit test's injected allocator covers this build) */
    (void)engine;
#else
    static struct ctl_proc c;
    struct rlimit old, lim;
    char got[256] = "", got2[256] = "", what[128];
    int ok, st;
    getrlimit(RLIMIT_AS, &old);
    lim = old;
    lim.rlim_cur = (rlim_t)1 << 30;
    if (old.rlim_max != RLIM_INFINITY && old.rlim_max < lim.rlim_cur)
        lim.rlim_cur = old.rlim_max;
    setrlimit(RLIMIT_AS, &lim); /* the child inherits it */
    int r = start(&c, engine, NULL, NULL);
    setrlimit(RLIMIT_AS, &old);
    if (r)
        return;
    sendf(&c, "setoption name Hash value 4096\n");
    ok = expect(&c, "error bad_value", LONG_MS, got, sizeof got);
    sendf(&c, "go depth 3\n");
    ok = ok && expect(&c, "bestmove", LONG_MS, got2, sizeof got2);
    sendf(&c, "quit\n");
    st = finish(&c, 10000);
    snprintf(what, sizeof what, "%s: Hash 4096 under a 1 GiB address-space limit", engine);
    check(ok && st == 0, what, "'%s', then '%s', exit status %d", got, got2, st);
#endif
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: limits <bindir>\n");
        return 2;
    }
    bindir = argv[1];
    signal(SIGPIPE, SIG_IGN);
    battalion_depth();
    hash_rlimit("medan-loa");
    hash_rlimit("medan-fetlar");
    long_line();
    perft_stop("medan-palagan", "newgame size=9", 3, 10);
    perft_stop("medan-palagan", "newgame size=5", 6, 5);
    perft_stop("medan-loa", "", 7, 5);
    perft_stop("medan-fetlar", "", 6, 5);
    perft_stop("medan-battalion", "", 12, 5);
    eof_jobs();
    printf("limits: %s (%d failed)\n", failures ? "FAILED" : "all passed", failures);
    return failures != 0;
}
