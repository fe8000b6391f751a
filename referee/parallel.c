/* parallel.c - medan-referee parallel: one match split into --shard i/n
 * runs by GNU parallel (here or over ssh hosts), then merged (see
 * docs/referee.md, "Matches across many machines"). */
#include "parallel.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/game.h"
#include "core/util.h"
#include "engines/registry.h"
#include "batch.h"
#include "tune.h"

#define MAX_HOSTS 64

void ref_parallel_usage(FILE *f)
{
    fprintf(f,
            "usage: medan-referee parallel --shards N [--jobs J] [--sshlogin HOST]...\n"
            "           [--parallel PROG] [--batch G] [--max-games M] [--dry-run]\n"
            "           MATCH OPTIONS (with --results F)\n"
            "       medan-referee parallel --shards N [--jobs J] [--sshlogin HOST]...\n"
            "           [--parallel PROG] [--dry-run] tune TUNE OPTIONS (with --state F)\n");
}

static int usage(const char *why)
{
    if (why)
        fprintf(stderr, "medan-referee parallel: %s\n", why);
    ref_parallel_usage(stderr);
    return 1;
}

static int file_nonempty(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && st.st_size > 0;
}

/* The GNU parallel run in progress, for the signal handler: a SIGINT,
 * SIGTERM or SIGHUP to this referee is passed on to it (GNU parallel then
 * kills its shards), so stopping the controller stops the run instead of
 * leaving the shards to write on. */
static volatile sig_atomic_t child_pid, got_signal;

static void pass_on(int sig)
{
    got_signal = sig;
    if (child_pid > 0)
        kill((pid_t)child_pid, sig);
}

/* Run argv, wait; the exit status, or -1 when it could not start.  A
 * signal that came meanwhile is passed on, and once the child has ended
 * this process ends by it too. */
static int run(char **argv)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction sa, old[3];
    pid_t pid;
    int st, rc;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = pass_on;
    sigemptyset(&sa.sa_mask);
    got_signal = 0;
    for (int i = 0; i < 3; i++) { /* an ignored signal stays ignored (nohup) */
        sigaction(sigs[i], NULL, &old[i]);
        if (old[i].sa_handler != SIG_IGN)
            sigaction(sigs[i], &sa, NULL);
    }
    pid = fork();
    if (pid == 0) {
        for (int i = 0; i < 3; i++)
            sigaction(sigs[i], &old[i], NULL);
        execvp(argv[0], argv);
        fprintf(stderr, "medan-referee parallel: cannot run %s: %s\n", argv[0],
                strerror(errno));
        _exit(127); /* exit-ok: the forked child, its exec failed */
    }
    child_pid = pid;
    if (pid > 0 && got_signal) /* came between fork and here */
        kill(pid, got_signal);
    rc = -1;
    if (pid > 0) {
        pid_t w;
        while ((w = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
            ;
        if (w == pid)
            rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    }
    child_pid = 0;
    for (int i = 0; i < 3; i++)
        sigaction(sigs[i], &old[i], NULL);
    if (got_signal) {
        fprintf(stderr, "medan-referee parallel: stopped by signal %d: GNU parallel and its "
                        "shards were stopped; the same command continues\n", (int)got_signal);
        raise(got_signal);
    }
    return rc;
}

struct par {
    const char *hosts[MAX_HOSTS], *jobs, *prog, *self;
    int nhosts, dry;
};

/* "path.shard-{}-of-N[.out]" for --return. */
static char *ret_path(const struct ref_batch *b, const char *path, const char *tail)
{
    char *p = xmalloc(strlen(path) + strlen(tail) + 48);
    sprintf(p, "%s.shard-{}-of-%d%s", path, b->shards, tail);
    return p;
}

/* One batch: GNU parallel runs the N shards up to game upto.  Its exit
 * status (the number of failed shards), or -1 when it did not run. */
static int run_batch(void *ctx, const struct ref_batch *b, long long upto)
{
    struct par *p = ctx;
    char **sv = ref_batch_argv(b, p->self, upto), *cmd = ref_batch_shell(b, sv, "{}");
    char **pargv = xcalloc((size_t)(24 + 2 * p->nhosts + b->shards), sizeof *pargv);
    char *ret[3] = {NULL, NULL, NULL}, *tf[3] = {NULL, NULL, NULL}, *shardv = xcalloc((size_t)b->shards, 12);
    int n = 0, st;
    pargv[n++] = (char *)p->prog;
    pargv[n++] = "--will-cite";
    pargv[n++] = "--halt";
    pargv[n++] = "never";
    if (p->jobs) {
        pargv[n++] = "--jobs";
        pargv[n++] = (char *)p->jobs;
    }
    if (p->nhosts) {
        /* Hosts without the shared file system send the files back
         * (the working directory is the same path relative to home). */
        for (int h = 0; h < p->nhosts; h++) {
            pargv[n++] = "--sshlogin";
            pargv[n++] = (char *)p->hosts[h];
        }
        pargv[n++] = "--workdir";
        pargv[n++] = ".";
        /* ... and get what the controller has first: the shard's results
         * and records so far (--resume on any host plays only what is
         * missing, and the returned files are whole), and the deal key of
         * a hidden-information game (made here, by ref_batch_init). */
        tf[0] = ret_path(b, b->results, "");
        tf[1] = b->records ? ret_path(b, b->records, "") : NULL;
        tf[2] = b->keyfile ? xstrdup(b->keyfile) : NULL;
        for (int k = 0; k < 3; k++)
            if (tf[k]) {
                pargv[n++] = "--transferfile";
                pargv[n++] = tf[k];
            }
        ret[0] = ret_path(b, b->results, "");
        ret[1] = b->records ? ret_path(b, b->records, "") : NULL;
        ret[2] = ret_path(b, b->results, ".out");
        for (int k = 0; k < 3; k++)
            if (ret[k]) {
                pargv[n++] = "--return";
                pargv[n++] = ret[k];
            }
    }
    pargv[n++] = cmd;
    pargv[n++] = ":::";
    for (int s = 0; s < b->shards; s++) {
        snprintf(shardv + 12 * s, 12, "%d", s + 1);
        pargv[n++] = shardv + 12 * s;
    }
    pargv[n] = NULL;
    if (p->dry) {
        for (int i = 0; i < n; i++) {
            char *q = ref_shell_quote(pargv[i]);
            printf("%s%s", i ? " " : "", q);
            free(q);
        }
        printf("\n");
        st = 0;
    } else {
        st = run(pargv);
        if (st < 0 || st == 127 || st == 255) {
            fprintf(stderr, "medan-referee parallel: %s did not run (status %d); "
                            "is GNU parallel installed (Debian: parallel)?\n", p->prog, st);
            st = -1;
        }
    }
    for (int k = 0; k < 3; k++) {
        free(ret[k]);
        free(tf[k]);
    }
    free(shardv);
    free(pargv);
    free(cmd);
    ref_batch_argv_free(sv);
    return st;
}

int ref_parallel_main(int argc, char **argv, const char *self,
                      int (*merge)(int argc, char **argv))
{
    struct par p;
    struct ref_batch b;
    int shards = 0, rc = 1, st, margc = 0;
    long long batch = 0, maxg = 0;
    char **margv = NULL, **owned = NULL, totalbuf[24], err[512];

    memset(&p, 0, sizeof p);
    p.prog = "parallel";
    p.self = self;
    /* Our own options first, then the match's. */
    for (; argc > 0; argc--, argv++) {
        int64_t v;
        if (strcmp(argv[0], "--shards") == 0 && argc > 1) {
            if (parse_i64(argv[1], 1, 10000, &v) < 0)
                return usage("--shards needs a number 1..10000");
            shards = (int)v;
        } else if (strcmp(argv[0], "--batch") == 0 && argc > 1) {
            if (parse_i64(argv[1], 2, 100000000, &v) < 0)
                return usage("--batch needs a number of games 2..100000000");
            batch = v;
        } else if (strcmp(argv[0], "--max-games") == 0 && argc > 1) {
            if (parse_i64(argv[1], 1, 100000000, &v) < 0)
                return usage("--max-games needs a number of games 1..100000000");
            maxg = v;
        } else if (strcmp(argv[0], "--jobs") == 0 && argc > 1)
            p.jobs = argv[1];
        else if (strcmp(argv[0], "--sshlogin") == 0 && argc > 1) {
            if (p.nhosts == MAX_HOSTS)
                return usage("too many --sshlogin");
            p.hosts[p.nhosts++] = argv[1];
        } else if (strcmp(argv[0], "--parallel") == 0 && argc > 1)
            p.prog = argv[1];
        else if (strcmp(argv[0], "--dry-run") == 0) {
            p.dry = 1;
            continue;
        } else
            break;
        argc--, argv++;
    }
    if (!shards)
        return usage("--shards N is required");
    for (int i = 0; i < argc; i++) {
        if (strchr(argv[i], '{') || strchr(argv[i], '}'))
            return usage("match options may not contain { or } (GNU parallel's "
                         "replacement strings)");
        if (strcmp(argv[i], "--shard") == 0 || strcmp(argv[i], "--quiet") == 0 ||
            strcmp(argv[i], "--last-game") == 0)
            return usage("--shard, --quiet and --last-game are set by parallel itself");
    }
    if (argc > 0 && strcmp(argv[0], "tune") == 0) {
        /* SPSA: every iteration one batch of the shards (tune.h) */
        struct ref_tune_runner r = {"parallel", shards, p.dry, run_batch, &p};
        if (batch || maxg)
            return usage("--batch and --max-games are for matches: tune plays "
                         "each iteration's games as one batch");
        return ref_tune_batched_main(argc - 1, argv + 1, &r);
    }
    if (ref_batch_init(&b, shards, batch, maxg, argc, argv, err, sizeof err) < 0)
        return usage(err);
    if (!b.resume && file_nonempty(b.results)) {
        fprintf(stderr, "medan-referee parallel: %s exists and is not empty (use "
                        "--resume to continue it, or another file)\n", b.results);
        ref_batch_free(&b);
        return 1;
    }
    if (b.sprt_on) {
        /* Batches until the SPRT over the merged games decides. */
        if (p.dry)
            rc = run_batch(&p, &b, b.batch < b.total ? b.batch : b.total) < 0;
        else
            rc = ref_batch_loop(&b, run_batch, &p, stdout);
        ref_batch_free(&b);
        return rc;
    }
    st = run_batch(&p, &b, b.total);
    if (st < 0 || p.dry) {
        ref_batch_free(&b);
        return st < 0;
    }

    /* Merge: merge --games N --output F shard files. */
    margv = xcalloc((size_t)(shards + 8), sizeof *margv);
    snprintf(totalbuf, sizeof totalbuf, "%lld", b.total);
    margv[margc++] = "--games";
    margv[margc++] = totalbuf;
    margv[margc++] = "--output";
    margv[margc++] = b.results;
    owned = xcalloc((size_t)shards, sizeof *owned);
    for (int s = 0; s < shards; s++) {
        char *q = xmalloc(strlen(b.results) + 48);
        sprintf(q, "%s.shard-%d-of-%d", b.results, s + 1, shards);
        owned[s] = q;
        if (!file_nonempty(q)) {
            fprintf(stderr, "medan-referee parallel: shard %d/%d wrote no results "
                            "(see %s.out)\n", s + 1, shards, q);
            continue;
        }
        margv[margc++] = q;
    }
    rc = merge(margc, margv);
    if (b.records) {
        /* The shards' records (each shard file has all of its games),
         * one after the other, in shard order. */
        FILE *out = fopen(b.records, "w");
        if (!out) {
            fprintf(stderr, "medan-referee parallel: cannot write %s\n", b.records);
            rc = 1;
            goto done;
        }
        for (int s = 0; s < shards; s++) {
            char q[4096], buf[65536];
            size_t k;
            FILE *in;
            snprintf(q, sizeof q, "%s.shard-%d-of-%d", b.records, s + 1, shards);
            if (!(in = fopen(q, "r")))
                continue;
            while ((k = fread(buf, 1, sizeof buf, in)) > 0)
                fwrite(buf, 1, k, out);
            fclose(in);
        }
        fclose(out);
    }
    if (rc == 0 && st != 0) {
        fprintf(stderr, "medan-referee parallel: %d shard(s) ended with an error; "
                        "their .out files say why; run the same command with "
                        "--resume to finish them\n", st);
        rc = 2;
    }
done:
    for (int s = 0; owned && s < shards; s++)
        free(owned[s]);
    free(owned);
    free(margv);
    ref_batch_free(&b);
    return rc;
}
