/* test_control.c - the controller library (control/) against real child
 * processes (/bin/sh scripts): start failures, deadlines, a child that
 * exits, one that floods, over-long lines, the stderr log and its cap,
 * inherited stderr, the process group, raw writes, the event-loop
 * interface, and the MEP client on a scripted engine (commands, queries,
 * go, take, final lines, start-up failures).  Timing is asserted only as "ends", never
 * as a tight bound: the deadlines here are generous. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "control/client.h"
#include "control/proc.h"
#include "core/util.h"

static char line[CTL_LINE_MAX];

static int sh(struct ctl_proc *p, const char *script,
              const struct ctl_proc_opts *o)
{
    char *argv[] = {"/bin/sh", "-c", (char *)script, NULL};
    char err[256];
    int r = ctl_proc_start(p, argv, o, err, sizeof err);
    if (r != 0)
        fprintf(stderr, "start: %s\n", err);
    return r;
}

static int64_t in_ms(int ms) { return now_us() + (int64_t)ms * 1000; }

/* A temporary file name under /tmp (removed by the test). */
static void tmpname(char *buf, size_t n, const char *tag)
{
    snprintf(buf, n, "/tmp/test_control.%ld.%s", (long)getpid(), tag);
    unlink(buf);
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *s;
    size_t k;
    assert_non_null(f);
    s = xmalloc(1 << 20);
    k = fread(s, 1, (1 << 20) - 1, f);
    s[k] = '\0';
    fclose(f);
    if (len)
        *len = k;
    return s;
}

/* ---- proc ---------------------------------------------------------------- */

static void test_start_failures(void **state)
{
    struct ctl_proc p;
    char err[256];
    char *argv[] = {"/nonexistent/engine", NULL};
    struct ctl_proc_opts o = {.dir = "/nonexistent-dir"};
    (void)state;
    assert_int_equal(ctl_proc_start(&p, argv, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "cannot start /nonexistent/engine"));
    assert_int_equal(p.pid, 0);
    assert_int_equal(ctl_proc_start(&p, argv, &o, err, sizeof err), -1);
    assert_non_null(strstr(err, "working directory /nonexistent-dir"));
    o = (struct ctl_proc_opts){.logpath = "/nonexistent-dir/x.log"};
    assert_int_equal(ctl_proc_start(&p, argv, &o, err, sizeof err), -1);
    assert_non_null(strstr(err, "log file /nonexistent-dir/x.log"));
    ctl_proc_kill(&p); /* harmless on a process that never ran */
}

static void test_lines_and_exit(void **state)
{
    struct ctl_proc p;
    char why[64];
    (void)state;
    assert_int_equal(sh(&p, "read x; echo \"got $x\"; printf 'a\\r\\nlast'; "
                            "exit 3", NULL), 0);
    assert_int_equal(ctl_proc_send(&p, in_ms(5000), "hello"), 0);
    assert_int_equal(ctl_proc_read(&p, in_ms(5000), line, sizeof line),
                     CTL_IO_LINE);
    assert_string_equal(line, "got hello");
    assert_int_equal(ctl_proc_read(&p, in_ms(5000), line, sizeof line),
                     CTL_IO_LINE);
    assert_string_equal(line, "a"); /* CR stripped */
    assert_int_equal(ctl_proc_read(&p, in_ms(5000), line, sizeof line),
                     CTL_IO_LINE);
    assert_string_equal(line, "last"); /* no newline, still a line */
    assert_int_equal(ctl_proc_read(&p, in_ms(5000), line, sizeof line),
                     CTL_IO_EOF);
    /* Writing to it now fails and does not kill us (SIGPIPE ignored). */
    while (ctl_proc_send(&p, in_ms(1000), "more") == 0)
        ;
    assert_int_equal(ctl_proc_wait(&p, in_ms(10000)), 1);
    ctl_proc_exit_text(&p, why, sizeof why);
    assert_string_equal(why, "exit status 3");
    assert_int_equal(p.exit_code, 3);
    assert_int_equal(p.pid, 0);
}

static void test_deadline_silent(void **state)
{
    struct ctl_proc p;
    int64_t t0, dl;
    (void)state;
    assert_int_equal(sh(&p, "exec sleep 30", NULL), 0);
    t0 = now_us();
    dl = t0 + 200000;
    assert_int_equal(ctl_proc_read(&p, dl, line, sizeof line),
                     CTL_IO_TIMEOUT);
    assert_true(now_us() >= dl); /* not before the deadline */
    assert_false(ctl_proc_exited(&p));
    ctl_proc_kill(&p);
    assert_true(p.exit_code == -SIGKILL);
}

/* A child that writes without end: every read still ends at its deadline
 * (one last read of what is there, then a timeout), and a line longer than
 * CTL_LINE_MAX comes in pieces. */
static void test_flood(void **state)
{
    struct ctl_proc p;
    int64_t dl;
    long lines = 0;
    int r;
    (void)state;
    assert_int_equal(sh(&p, "while :; do echo info depth 1 "
                            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; done",
                        NULL), 0);
    dl = in_ms(300);
    while ((r = ctl_proc_read(&p, dl, line, sizeof line)) == CTL_IO_LINE)
        lines++;
    assert_int_equal(r, CTL_IO_TIMEOUT);
    assert_true(lines > 0);
    ctl_proc_kill(&p);

    /* 200 000 bytes without a newline, then "end". */
    assert_int_equal(sh(&p, "head -c 200000 /dev/zero | tr '\\0' x; "
                            "echo; echo end", NULL), 0);
    {
        size_t total = 0;
        int pieces = 0;
        while ((r = ctl_proc_read(&p, in_ms(10000), line, sizeof line)) ==
                   CTL_IO_LINE &&
               strcmp(line, "end") != 0) {
            assert_true(strlen(line) <= CTL_LINE_MAX - 1);
            total += strlen(line);
            pieces++;
        }
        assert_int_equal(r, CTL_IO_LINE);
        assert_true(total == 200000);
        assert_true(pieces >= 4);
    }
    ctl_proc_kill(&p);
    /* The longest whole line, CTL_LINE_MAX-1 bytes, comes whole. */
    assert_int_equal(sh(&p, "head -c 65535 /dev/zero | tr '\\0' y; echo; "
                            "echo end", NULL), 0);
    assert_int_equal(ctl_proc_read(&p, in_ms(10000), line, sizeof line),
                     CTL_IO_LINE);
    assert_int_equal(strlen(line), CTL_LINE_MAX - 1);
    assert_int_equal(ctl_proc_read(&p, in_ms(10000), line, sizeof line),
                     CTL_IO_LINE);
    assert_string_equal(line, "end");
    ctl_proc_kill(&p);
}

/* A child that exits while its own child holds the pipes: the exit is
 * seen (EOF), not waited out; the kill takes the whole group. */
static void test_group(void **state)
{
    struct ctl_proc p;
    char path[64], stat[512];
    long gc;
    int gone = 0;
    (void)state;
    assert_int_equal(sh(&p, "sleep 60 & echo $!; exit 0", NULL), 0);
    assert_int_equal(ctl_proc_read(&p, in_ms(5000), line, sizeof line),
                     CTL_IO_LINE);
    gc = strtol(line, NULL, 10);
    assert_true(gc > 1);
    assert_int_equal(ctl_proc_read(&p, in_ms(20000), line, sizeof line),
                     CTL_IO_EOF);
    assert_true(ctl_proc_exited(&p));
    ctl_proc_kill(&p);
    /* The grandchild is killed: gone, or a zombie of whoever adopted it. */
    snprintf(path, sizeof path, "/proc/%ld/stat", gc);
    for (int i = 0; i < 500 && !gone; i++) {
        FILE *f = fopen(path, "r");
        if (!f) {
            gone = 1;
            break;
        }
        if (fgets(stat, sizeof stat, f)) {
            char *rp = strrchr(stat, ')');
            gone = rp && (rp[2] == 'Z' || rp[2] == 'X');
        }
        fclose(f);
        if (!gone)
            usleep(10000);
    }
    assert_true(gone);
}

static void test_stderr_log_cap(void **state)
{
    struct ctl_proc p;
    char log[128];
    char *s;
    size_t len;
    struct ctl_proc_opts o = {.log_limit = 1000, .trace = 1,
                              .log_cut_hint = " (test)"};
    (void)state;
    tmpname(log, sizeof log, "log");
    o.logpath = log;
    assert_int_equal(sh(&p, "read x; echo answer; "
                            "head -c 50000 /dev/zero | tr '\\0' e >&2; "
                            "echo done", &o), 0);
    assert_int_equal(ctl_proc_send(&p, in_ms(5000), "question"), 0);
    assert_int_equal(ctl_proc_read(&p, in_ms(5000), line, sizeof line),
                     CTL_IO_LINE);
    assert_string_equal(line, "answer");
    /* 50 000 bytes on stderr do not block it: the log takes them. */
    assert_int_equal(ctl_proc_read(&p, in_ms(10000), line, sizeof line),
                     CTL_IO_LINE);
    assert_string_equal(line, "done");
    ctl_proc_stop(&p, 2000);
    s = slurp(log, &len);
    assert_non_null(strstr(s, " >] question\n"));
    assert_non_null(strstr(s, " <] answer\n"));
    assert_non_null(strstr(s, "log cut at 1000 bytes (test); the rest is "
                              "dropped"));
    assert_true(len < 1200);
    free(s);
    unlink(log);
}

static void test_stderr_inherit(void **state)
{
    struct ctl_proc p;
    struct ctl_proc_opts o = {.err_mode = CTL_STDERR_INHERIT};
    char path[128];
    char *s;
    int saved, fd;
    (void)state;
    tmpname(path, sizeof path, "err");
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    saved = dup(2);
    dup2(fd, 2);
    close(fd);
    assert_int_equal(sh(&p, "echo to-stderr >&2; echo out", &o), 0);
    assert_int_equal(ctl_proc_read(&p, in_ms(5000), line, sizeof line),
                     CTL_IO_LINE);
    assert_int_equal(ctl_proc_wait(&p, in_ms(5000)), 1);
    dup2(saved, 2);
    close(saved);
    s = slurp(path, NULL);
    assert_string_equal(s, "to-stderr\n");
    free(s);
    unlink(path);

    /* Discarded (the default): nothing reaches our stderr. */
    tmpname(path, sizeof path, "err2");
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    saved = dup(2);
    dup2(fd, 2);
    close(fd);
    assert_int_equal(sh(&p, "echo to-stderr >&2; echo out", NULL), 0);
    assert_int_equal(ctl_proc_read(&p, in_ms(5000), line, sizeof line),
                     CTL_IO_LINE);
    assert_int_equal(ctl_proc_wait(&p, in_ms(5000)), 1);
    dup2(saved, 2);
    close(saved);
    s = slurp(path, NULL);
    assert_string_equal(s, "");
    free(s);
    unlink(path);
}

/* ctl_proc_wait: a child that exits by itself on end of input (status
 * kept), and one that ignores it (killed at the deadline). */
static void test_wait(void **state)
{
    struct ctl_proc p;
    (void)state;
    assert_int_equal(sh(&p, "cat >/dev/null; exit 7", NULL), 0);
    ctl_proc_close_input(&p);
    assert_int_equal(ctl_proc_send(&p, in_ms(100), "x"), -1);
    assert_int_equal(ctl_proc_wait(&p, in_ms(10000)), 1);
    assert_int_equal(p.exit_code, 7);
    assert_int_equal(sh(&p, "trap '' TERM; exec sleep 30", NULL), 0);
    ctl_proc_close_input(&p);
    assert_int_equal(ctl_proc_wait(&p, in_ms(200)), 0);
    assert_int_equal(p.exit_code, -SIGKILL);
    /* A child that floods until its input ends still reaches its exit:
     * the wait reads (and drops) what it writes. */
    assert_int_equal(sh(&p, "yes flood & y=$!; cat >/dev/null; kill $y; "
                            "exit 0", NULL), 0);
    ctl_proc_close_input(&p);
    assert_int_equal(ctl_proc_wait(&p, in_ms(20000)), 1);
    assert_int_equal(p.exit_code, 0);
}

/* Raw bytes go out as they are: no newline added, NUL and CR kept. */
static void test_write_raw(void **state)
{
    struct ctl_proc p;
    static const char bytes[] = {'a', '\0', 'b', '\r', 'c', '\n', 'd'};
    (void)state;
    assert_int_equal(sh(&p, "od -An -c | tr -s ' ' | tr -d '\\n'", NULL), 0);
    assert_int_equal(ctl_proc_write(&p, in_ms(5000), bytes, sizeof bytes), 0);
    ctl_proc_close_input(&p);
    assert_int_equal(ctl_proc_read(&p, in_ms(10000), line, sizeof line),
                     CTL_IO_LINE);
    assert_string_equal(line, " a \\0 b \\r c \\n d");
    assert_int_equal(ctl_proc_wait(&p, in_ms(10000)), 1);
    assert_int_equal(ctl_proc_write(&p, in_ms(100), "x", 1), -1);
}

/* The event-loop side: poll the descriptors, take what has come. */
static void test_poll_take(void **state)
{
    struct ctl_proc a, b;
    struct pollfd pf[4];
    int got_a = 0, got_b = 0, eof_a = 0, eof_b = 0;
    int64_t until = in_ms(20000);
    (void)state;
    assert_int_equal(sh(&a, "read x; echo \"a:$x\"; printf 'a2\\n'", NULL), 0);
    assert_int_equal(sh(&b, "sleep 0.2; echo b1; echo b2", NULL), 0);
    /* Nothing there yet: NONE at once, not a wait. */
    assert_int_equal(ctl_proc_take(&a, line, sizeof line), CTL_IO_NONE);
    assert_int_equal(ctl_proc_send(&a, in_ms(5000), "x"), 0);
    while ((!eof_a || !eof_b) && now_us() < until) {
        int na = ctl_proc_pollfds(&a, pf);
        int nb = ctl_proc_pollfds(&b, pf + na);
        int r;
        assert_true(na + nb > 0);
        assert_true(poll(pf, (nfds_t)(na + nb), 1000) >= 0);
        while ((r = ctl_proc_take(&a, line, sizeof line)) == CTL_IO_LINE) {
            assert_string_equal(line, got_a == 0 ? "a:x" : "a2");
            got_a++;
        }
        if (r == CTL_IO_EOF)
            eof_a = 1;
        while ((r = ctl_proc_take(&b, line, sizeof line)) == CTL_IO_LINE) {
            assert_string_equal(line, got_b == 0 ? "b1" : "b2");
            got_b++;
        }
        if (r == CTL_IO_EOF)
            eof_b = 1;
    }
    assert_int_equal(got_a, 2);
    assert_int_equal(got_b, 2);
    assert_true(eof_a && eof_b);
    assert_int_equal(ctl_proc_pollfds(&a, pf), 0); /* nothing left */
    ctl_proc_kill(&a);
    ctl_proc_kill(&b);
}

/* A flood seen through take: each call returns a line or NONE, never
 * blocks; the loop's own deadline ends it. */
static void test_take_flood(void **state)
{
    struct ctl_proc p;
    struct pollfd pf[2];
    int64_t until = in_ms(300);
    long lines = 0, none = 0;
    (void)state;
    assert_int_equal(sh(&p, "exec yes flood", NULL), 0);
    while (now_us() < until) {
        int k = ctl_proc_pollfds(&p, pf), r;
        assert_int_equal(k, 1);
        poll(pf, (nfds_t)k, 100);
        while ((r = ctl_proc_take(&p, line, sizeof line)) == CTL_IO_LINE &&
               now_us() < until)
            lines++;
        if (r == CTL_IO_NONE)
            none++;
        assert_true(r != CTL_IO_EOF);
    }
    assert_true(lines > 0);
    ctl_proc_kill(&p);
}

/* ---- client -------------------------------------------------------------- */

/* A scripted MEP engine. */
static const char *fake_engine =
    "while read -r l; do case \"$l\" in "
    "mep) echo 'id name fake'; echo 'game loa'; "
    "echo 'option name Seed type spin default 0 min 5 max 9'; "
    "echo 'news unknown line'; echo mepok;; "
    "isready) echo readyok;; "
    "ping*) echo \"pong ${l#ping }\";; "
    "go*) echo 'info depth 3 score cp 12 pv a1'; echo 'bestmove a1 ponder b2';; "
    "'setoption name Bad value 1') echo 'error bad-option no such option';; "
    "hang) sleep 30;; "
    "legalmoves) echo 'info string x'; echo 'moves a1 b2'; "
    "echo 'log two lines'; echo ok;; "
    "quit) exit 0;; "
    "*) echo ok;; esac; done";

static void spec_of(struct ctl_engine_spec *s, char **args)
{
    memset(s, 0, sizeof *s);
    s->name = "fake";
    s->cmd = "/bin/sh";
    s->args = args;
    s->nargs = 2;
}

static void test_client(void **state)
{
    struct ctl_client c;
    struct ctl_engine_spec s;
    char *args[] = {"-c", (char *)fake_engine};
    char err[256], mv[64];
    int64_t el;
    struct pollfd pf[2];
    int r;
    (void)state;
    spec_of(&s, args);
    assert_int_equal(ctl_client_start(&c, &s, NULL, 5000, err, sizeof err),
                     CTL_OK);
    assert_string_equal(c.id_name, "fake");
    assert_string_equal(c.game, "loa");
    assert_true(c.has_seed);
    assert_true(c.seed_min == 5 && c.seed_max == 9);
    assert_int_equal(ctl_client_cmd(&c, in_ms(5000), "position startpos"),
                     CTL_OK);
    assert_int_equal(ctl_client_cmd(&c, in_ms(5000),
                                    "setoption name Bad value 1"),
                     CTL_ERROR);
    assert_string_equal(c.last_error, "bad-option no such option");
    assert_int_equal(ctl_client_go(&c, "movetime 10", in_ms(5000), mv,
                                   sizeof mv, &el),
                     CTL_OK);
    assert_string_equal(mv, "a1");
    assert_int_equal(c.last_depth, 3);
    assert_true(c.has_score && c.last_score == 12);
    assert_int_equal(ctl_client_sync(&c, in_ms(5000)), CTL_OK);
    /* A command with answer lines: all but info and the final one. */
    {
        char pay[256];
        assert_int_equal(ctl_client_query(&c, in_ms(5000), "legalmoves", pay,
                                          sizeof pay),
                         CTL_OK);
        assert_string_equal(pay, "moves a1 b2\nlog two lines");
        assert_int_equal(ctl_client_query(&c, in_ms(5000),
                                          "setoption name Bad value 1", pay,
                                          sizeof pay),
                         CTL_ERROR);
        assert_string_equal(pay, "");
        assert_string_equal(c.last_error, "bad-option no such option");
    }
    /* A command that never ends: a timeout at the deadline. */
    assert_int_equal(ctl_client_cmd(&c, in_ms(200), "hang"), CTL_TIMEOUT);
    ctl_client_kill(&c);
    assert_false(c.alive);

    /* The event-loop side: go, then take lines as they come. */
    assert_int_equal(ctl_client_start(&c, &s, NULL, 5000, err, sizeof err),
                     CTL_OK);
    assert_int_equal(ctl_client_go_async(&c, in_ms(5000), "infinite"), CTL_OK);
    assert_true(c.searching);
    assert_int_equal(c.last_depth, 0);
    for (int64_t until = in_ms(10000); now_us() < until;) {
        int k = ctl_client_pollfds(&c, pf);
        poll(pf, (nfds_t)k, 500);
        r = ctl_client_take(&c, line, sizeof line);
        if (r == CTL_IO_LINE && strncmp(line, "bestmove", 8) == 0)
            break;
        assert_true(r != CTL_IO_EOF);
    }
    assert_string_equal(line, "bestmove a1 ponder b2");
    assert_false(c.searching);
    assert_int_equal(c.last_depth, 3);
    /* quit: the engine ends, take says EOF and the client is not alive. */
    assert_int_equal(ctl_client_send(&c, in_ms(5000), "quit"), 0);
    for (int64_t until = in_ms(10000); now_us() < until;) {
        int k = ctl_client_pollfds(&c, pf);
        poll(pf, (nfds_t)k, 500);
        if ((r = ctl_client_take(&c, line, sizeof line)) == CTL_IO_EOF)
            break;
    }
    assert_int_equal(r, CTL_IO_EOF);
    assert_false(c.alive);
    assert_string_equal(c.last_error, "engine exited (exit status 0)");
    ctl_client_kill(&c);
}

/* An engine that answers go only when told to stop: ctl_client_go with
 * c->cancel set by another thread sends `stop` and gets the bestmove
 * (without the cancel it would wait for the deadline, a minute away). */
static const char *stop_engine =
    "while read -r l; do case \"$l\" in "
    "mep) echo 'id name stopper'; echo 'game loa'; echo mepok;; "
    "isready) echo readyok;; "
    "go*) ;; "
    "stop) echo 'info depth 1 score cp 5 pv c3'; echo 'bestmove c3';; "
    "quit) exit 0;; "
    "*) echo ok;; esac; done";

static void *set_later(void *arg)
{
    struct timespec ts = {0, 100 * 1000 * 1000};
    nanosleep(&ts, NULL);
    atomic_store((atomic_int *)arg, 1);
    return NULL;
}

static void test_client_cancel(void **state)
{
    struct ctl_client c;
    struct ctl_engine_spec s;
    char *args[] = {"-c", (char *)stop_engine};
    char err[256], mv[64];
    int64_t el;
    atomic_int cancel = 0;
    pthread_t t;
    (void)state;
    spec_of(&s, args);
    assert_int_equal(ctl_client_start(&c, &s, NULL, 5000, err, sizeof err),
                     CTL_OK);
    c.cancel = &cancel;
    assert_int_equal(pthread_create(&t, NULL, set_later, &cancel), 0);
    assert_int_equal(ctl_client_go(&c, "infinite", in_ms(60000), mv, sizeof mv,
                                   &el),
                     CTL_OK);
    pthread_join(t, NULL);
    assert_string_equal(mv, "c3");
    assert_false(c.searching);
    assert_int_equal(c.last_depth, 1);
    /* Already set before go: stop goes out at once. */
    assert_int_equal(ctl_client_go(&c, "infinite", in_ms(60000), mv, sizeof mv,
                                   &el),
                     CTL_OK);
    assert_string_equal(mv, "c3");
    /* No cancel: an engine that never answers is a timeout, as before. */
    c.cancel = NULL;
    assert_int_equal(ctl_client_go(&c, "infinite", in_ms(200), mv, sizeof mv,
                                   &el),
                     CTL_TIMEOUT);
    ctl_client_kill(&c);
}

static void test_is_final(void **state)
{
    (void)state;
    assert_true(ctl_is_final("ok"));
    assert_true(ctl_is_final("error syntax x"));
    assert_true(ctl_is_final("bestmove a1"));
    assert_true(ctl_is_final("pong 3"));
    assert_true(ctl_is_final("readyok"));
    assert_true(ctl_is_final("mepok"));
    assert_false(ctl_is_final("okay"));
    assert_false(ctl_is_final("info depth 1"));
    assert_false(ctl_is_final("moves ok"));
    assert_false(ctl_is_final(""));
}

static void test_client_start_fails(void **state)
{
    struct ctl_client c;
    struct ctl_engine_spec s;
    char *silent[] = {"-c", "exec sleep 30"};
    char *wrong[] = {"-c", "read l; echo MEPOK; sleep 30"};
    char *dies[] = {"-c", "read l; exit 2"};
    char *opts[] = {"-c", (char *)fake_engine};
    char *on[] = {"Bad"}, *ov[] = {"1"};
    char err[256];
    (void)state;
    spec_of(&s, silent);
    assert_int_equal(ctl_client_start(&c, &s, NULL, 200, err, sizeof err),
                     CTL_TIMEOUT);
    assert_string_equal(err, "fake: no answer in time during start-up "
                             "(handshake)");
    spec_of(&s, wrong);
    assert_int_equal(ctl_client_start(&c, &s, NULL, 5000, err, sizeof err),
                     CTL_ERROR);
    assert_non_null(strstr(err, "unreadable line 'MEPOK'"));
    spec_of(&s, dies);
    assert_int_equal(ctl_client_start(&c, &s, NULL, 5000, err, sizeof err),
                     CTL_EOF);
    assert_non_null(strstr(err, "engine exited (exit status 2)"));
    spec_of(&s, opts);
    s.opt_name = on;
    s.opt_val = ov;
    s.nopts = 1;
    assert_int_equal(ctl_client_start(&c, &s, NULL, 5000, err, sizeof err),
                     CTL_ERROR);
    assert_non_null(strstr(err, "option Bad=1 refused"));
    s.cmd = "/nonexistent/engine";
    assert_int_equal(ctl_client_start(&c, &s, NULL, 5000, err, sizeof err),
                     CTL_EOF);
    assert_non_null(strstr(err, "cannot start /nonexistent/engine"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start_failures),
        cmocka_unit_test(test_lines_and_exit),
        cmocka_unit_test(test_deadline_silent),
        cmocka_unit_test(test_flood),
        cmocka_unit_test(test_group),
        cmocka_unit_test(test_stderr_log_cap),
        cmocka_unit_test(test_stderr_inherit),
        cmocka_unit_test(test_wait),
        cmocka_unit_test(test_write_raw),
        cmocka_unit_test(test_poll_take),
        cmocka_unit_test(test_take_flood),
        cmocka_unit_test(test_client),
        cmocka_unit_test(test_client_cancel),
        cmocka_unit_test(test_is_final),
        cmocka_unit_test(test_client_start_fails),
    };
    alarm(300); /* a hang is a failure, not a stuck test run */
    return cmocka_run_group_tests(tests, NULL, NULL);
}
