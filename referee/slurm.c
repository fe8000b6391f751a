/* slurm.c - medan-referee slurm (see slurm.h and docs/referee.md,
 * "Slurm"). */
#include "slurm.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "batch.h"
#include "tune.h"
#include "core/util.h"

struct sl {
    const char *self;
    char **sbatch;          /* the sbatch command ($SBATCH split on spaces) */
    int nsbatch;
    char **sbopt;           /* the user's sbatch options */
    int nsbopt;
    char **orig;            /* our arguments, for the decider */
    int norig;
    int dry;
};

void ref_slurm_usage(FILE *f)
{
    fprintf(f, "usage: medan-referee slurm N [SBATCH OPTIONS --] [--batch G] "
                    "[--max-games M] [--dry-run]\n"
                    "           MATCH OPTIONS (with --results F)\n"
                    "       medan-referee slurm N [SBATCH OPTIONS --] [--dry-run] tune TUNE OPTIONS\n"
                    "           (with --state F; each iteration an array job, sbatch --wait)\n");
}

static int usage(const char *why)
{
    if (why)
        fprintf(stderr, "medan-referee slurm: %s\n", why);
    ref_slurm_usage(stderr);
    return 1;
}

/* Run argv with stdout into out (n bytes); the exit status, -1 when it
 * could not start. */
static int run_capture(char **argv, char *out, size_t n)
{
    int fd[2], st;
    size_t len = 0;
    ssize_t k;
    pid_t pid;
    if (pipe(fd) < 0)
        return -1;
    if ((pid = fork()) < 0) {
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        close(fd[0]);
        dup2(fd[1], 1);
        close(fd[1]);
        execvp(argv[0], argv);
        fprintf(stderr, "medan-referee slurm: cannot run %s: %s\n", argv[0],
                strerror(errno));
        _exit(127); /* exit-ok: the forked child, its exec failed */
    }
    close(fd[1]);
    while ((k = read(fd[0], out + len, n - 1 - len)) != 0) {
        if (k < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        len += (size_t)k;
        if (len + 1 >= n)
            len = 0; /* only the start matters: keep reading, overwrite */
    }
    out[len] = 0;
    close(fd[0]);
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* A user's sbatch option that would take the decider's output or
 * dependency away (the decider sets them itself). */
static int decider_own(const char *o)
{
    return str_prefix(o, "--output") || str_prefix(o, "--open-mode") ||
           str_prefix(o, "--array") || str_prefix(o, "--dependency") ||
           str_prefix(o, "--wrap");
}

/* sbatch ARGS... --wrap CMD: the job id, or NULL (message printed).
 * failed: NULL, or (sbatch --wait) set to 1 when the job ran and a task
 * failed (sbatch's status is the job's). */
static char *sbatch(const struct sl *s, char **args, int nargs, const char *wrap,
                    int decider, int *failed)
{
    char **v = xcalloc((size_t)(s->nsbatch + nargs + s->nsbopt + 4), sizeof *v), out[256];
    int n = 0, st;
    size_t l;
    for (int i = 0; i < s->nsbatch; i++)
        v[n++] = s->sbatch[i];
    v[n++] = "--parsable";
    for (int i = 0; i < nargs; i++)
        v[n++] = args[i];
    for (int i = 0; i < s->nsbopt; i++)
        if (!decider || !decider_own(s->sbopt[i]))
            v[n++] = s->sbopt[i];
    v[n++] = "--wrap";
    v[n++] = (char *)wrap;
    v[n] = NULL;
    if (s->dry) {
        for (int i = 0; i < n; i++) {
            char *q = ref_shell_quote(v[i]);
            printf("%s%s", i ? " " : "", q);
            free(q);
        }
        printf("\n");
        free(v);
        return xstrdup("JOB");
    }
    fflush(stdout);
    st = run_capture(v, out, sizeof out);
    free(v);
    l = strspn(out, "0123456789_");
    if (failed && l > 0 && st > 0 && st != 127) {
        *failed = 1;
        st = 0;
    }
    if (st != 0 || l == 0) {
        fprintf(stderr, "medan-referee slurm: %s failed (status %d)%s\n", s->sbatch[0],
                st, st == 127 ? "; is Slurm's sbatch in PATH (or $SBATCH)?" : "");
        return NULL;
    }
    out[l] = 0;
    return xstrdup(out);
}

/* Submit batch k (games 1..upto) and its decider; 0 or -1. */
static int submit(const struct sl *s, const struct ref_batch *b, int k, long long upto,
                  int retry)
{
    char **sv = ref_batch_argv(b, s->self, upto);
    char *task = ref_batch_shell(b, sv, "\"$SLURM_ARRAY_TASK_ID\""), *job, *dec = NULL;
    char arr[32], dep[96], kb[16], ub[24], rb[16], *table, *outarg;
    char *args[6];
    struct {
        char *s;
        size_t len, cap;
    } w = {NULL, 0, 0};
    int rc = -1;

    snprintf(arr, sizeof arr, "--array=1-%d", b->shards);
    args[0] = "--job-name=medan-match";
    args[1] = "--cpus-per-task=2";
    args[2] = "--output=/dev/null";
    args[3] = arr;
    if (!(job = sbatch(s, args, 4, task, 0, NULL)))
        goto out;
    /* The decider: this program again, every word quoted. */
    snprintf(kb, sizeof kb, "%d", k);
    snprintf(ub, sizeof ub, "%lld", upto);
    snprintf(rb, sizeof rb, "%d", retry);
    {
        const char *pre[] = {s->self, "slurm", "--decide", kb, ub, rb};
        size_t need = 16;
        char *p;
        for (int i = 0; i < 6; i++)
            need += 4 * strlen(pre[i]) + 3;
        for (int i = 0; i < s->norig; i++)
            need += 4 * strlen(s->orig[i]) + 3;
        w.s = p = xmalloc(need);
        p += sprintf(p, "exec");
        for (int i = 0; i < 6 + s->norig; i++) {
            char *q;
            if (i >= 6 && strcmp(s->orig[i - 6], "--dry-run") == 0)
                continue; /* the deciders of a dry run never run */
            q = ref_shell_quote(i < 6 ? pre[i] : s->orig[i - 6]);
            p += sprintf(p, " %s", q);
            free(q);
        }
    }
    table = xmalloc(strlen(b->results) + 8);
    sprintf(table, "%s.table", b->results);
    outarg = xmalloc(strlen(table) + 16);
    sprintf(outarg, "--output=%s", table);
    snprintf(dep, sizeof dep, "--dependency=afterany:%s", job);
    args[0] = "--job-name=medan-decide";
    args[1] = dep;
    args[2] = outarg;
    args[3] = "--open-mode=append";
    dec = sbatch(s, args, 4, w.s, 1, NULL);
    if (dec && s->dry)
        rc = 0;
    else if (dec) {
        printf("submitted: shards job %s (array 1-%d; batch %d: games 1-%lld), "
               "merge job %s\n", job, b->shards, k, upto, dec);
        if (k == 1)
            printf("the table will be in %s, the merged results in %s\n", table,
                   b->results);
        rc = 0;
    }
    free(table);
    free(outarg);
    free(w.s);
    free(dec);
    free(job);
out:
    free(task);
    ref_batch_argv_free(sv);
    return rc;
}

/* A tune iteration's batch (ref_batch_loop's runner): one array job,
 * waited for (sbatch --wait); 0, 1 (a task failed: the next batch plays
 * its games), -1 (not submitted). */
static int run_tune_batch(void *ctx, const struct ref_batch *b, long long upto)
{
    struct sl *s = ctx;
    char **sv = ref_batch_argv(b, s->self, upto);
    char *task = ref_batch_shell(b, sv, "\"$SLURM_ARRAY_TASK_ID\""), *job, arr[32];
    char *args[5];
    int failed = 0;
    snprintf(arr, sizeof arr, "--array=1-%d", b->shards);
    args[0] = "--wait";
    args[1] = "--job-name=medan-tune";
    args[2] = "--cpus-per-task=2";
    args[3] = "--output=/dev/null";
    args[4] = arr;
    job = sbatch(s, args, 5, task, 0, &failed);
    free(task);
    ref_batch_argv_free(sv);
    if (!job)
        return -1;
    free(job);
    return failed;
}

/* The sbatch command: $SBATCH (or "sbatch") split on spaces into s->sbatch,
 * pointing into the copy returned (free it after s->sbatch). */
static char *sbatch_words(struct sl *s, const char *env)
{
    char *copy = xstrdup(env && *env ? env : "sbatch"), *tok, *save = NULL;
    for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        s->sbatch = xrealloc(s->sbatch, (size_t)(s->nsbatch + 1) * sizeof *s->sbatch);
        s->sbatch[s->nsbatch++] = tok;
    }
    return copy;
}

int ref_slurm_main(int argc, char **argv, const char *self)
{
    struct sl s;
    struct ref_batch b;
    const char *env = getenv("SBATCH");
    char *sbcopy, err[512];
    int shards, rc = 1, decide = 0, dk = 0, dretry = 0, sep = -1;
    long long batch = 0, maxg = 0, dupto = 0;
    int64_t v;

    memset(&s, 0, sizeof s);
    s.self = self;
    if (argc >= 4 && strcmp(argv[0], "--decide") == 0) {
        if (parse_i64(argv[1], 1, 100000000, &v) < 0)
            return usage("--decide needs K U R");
        dk = (int)v;
        if (parse_i64(argv[2], 1, 100000000, &v) < 0)
            return usage("--decide needs K U R");
        dupto = v;
        if (parse_i64(argv[3], 0, 100, &v) < 0)
            return usage("--decide needs K U R");
        dretry = (int)v;
        decide = 1;
        argc -= 4;
        argv += 4;
    }
    s.orig = argv;
    s.norig = argc;
    if (argc < 1 || parse_i64(argv[0], 1, 10000, &v) < 0)
        return usage("N, the number of shards (1..10000), comes first");
    shards = (int)v;
    argc--, argv++;
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "--") == 0)
            sep = i;
    if (sep >= 0) {
        s.sbopt = argv;
        s.nsbopt = sep;
        argc -= sep + 1;
        argv += sep + 1;
    }
    for (; argc > 0; argc--, argv++) {
        if (strcmp(argv[0], "--batch") == 0 && argc > 1) {
            if (parse_i64(argv[1], 2, 100000000, &v) < 0)
                return usage("--batch needs a number of games 2..100000000");
            batch = v;
        } else if (strcmp(argv[0], "--max-games") == 0 && argc > 1) {
            if (parse_i64(argv[1], 1, 100000000, &v) < 0)
                return usage("--max-games needs a number of games 1..100000000");
            maxg = v;
        } else if (strcmp(argv[0], "--dry-run") == 0) {
            s.dry = 1;
            continue;
        } else
            break;
        argc--, argv++;
    }
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "--shard") == 0 || strcmp(argv[i], "--quiet") == 0 ||
            strcmp(argv[i], "--last-game") == 0)
            return usage("--shard, --quiet and --last-game are set by slurm itself");
    if (argc > 0 && strcmp(argv[0], "tune") == 0) {
        /* SPSA: every iteration one array job, waited for here (tune.h) */
        struct ref_tune_runner r = {"slurm", shards, s.dry, run_tune_batch, &s};
        if (batch || maxg || decide)
            return usage("--batch, --max-games and --decide are for matches: "
                         "tune plays each iteration's games as one array job");
        sbcopy = sbatch_words(&s, env);
        rc = s.nsbatch ? ref_tune_batched_main(argc - 1, argv + 1, &r)
                       : usage("$SBATCH is empty");
        free(s.sbatch);
        free(sbcopy);
        return rc;
    }
    if (ref_batch_init(&b, shards, batch, maxg, argc, argv, err, sizeof err) < 0)
        return usage(err);
    sbcopy = sbatch_words(&s, env);
    if (!s.nsbatch)
        goto done;
    if (decide) {
        struct ref_batch_state st;
        long long next;
        if (ref_batch_eval(&b, dk, dupto, &st, stdout) < 0)
            goto done;
        if (st.done) {
            rc = 0;
            goto done;
        }
        if (!(next = ref_batch_next(&b, &st, &dretry))) {
            printf("Games still missing after the last batch was run again twice: "
                   "submit the same command with --resume to play them\n");
            rc = 2;
            goto done;
        }
        fflush(stdout);
        rc = submit(&s, &b, dk + 1, next, next == dupto ? dretry : 0) < 0;
        goto done;
    }
    {
        FILE *f;
        char *table = xmalloc(strlen(b.results) + 8);
        sprintf(table, "%s.table", b.results);
        if (!b.resume && (f = fopen(b.results, "r")) != NULL) {
            int c = fgetc(f);
            fclose(f);
            if (c != EOF) {
                fprintf(stderr, "medan-referee slurm: %s exists and is not empty "
                        "(use --resume to continue it, or another file)\n", b.results);
                free(table);
                goto done;
            }
        }
        if (!s.dry && (f = fopen(table, "w")) != NULL) /* the deciders append */
            fclose(f);
        free(table);
    }
    rc = submit(&s, &b, 1, b.batch < b.total ? b.batch : b.total, 0) < 0;
done:
    free(s.sbatch);
    free(sbcopy);
    ref_batch_free(&b);
    return rc;
}
