/* parallel.c - medan-referee parallel: one match split into --shard i/n
 * runs by GNU parallel (here or over ssh hosts), then merged (see
 * docs/referee.md, "Matches across many machines"). */
#include "parallel.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/game.h"
#include "core/util.h"
#include "engines/registry.h"
#include "tournament.h"

#define MAX_HOSTS 64

/* A growing string. */
struct sbuf {
    char *s;
    size_t len, cap;
};

static void sbuf_init(struct sbuf *b)
{
    b->cap = 256;
    b->len = 0;
    b->s = xmalloc(b->cap);
    b->s[0] = 0;
}

static void sbuf_addc(struct sbuf *b, char c)
{
    if (b->len + 2 > b->cap)
        b->s = xrealloc(b->s, b->cap *= 2);
    b->s[b->len++] = c;
    b->s[b->len] = 0;
}

static void sbuf_add(struct sbuf *b, const char *s)
{
    while (*s)
        sbuf_addc(b, *s++);
}

static void sbuf_free(struct sbuf *b) { free(b->s); }

/* Append s to the command text, quoted for a POSIX shell. */
static void quote(struct sbuf *b, const char *s)
{
    sbuf_addc(b, '\'');
    for (; *s; s++)
        if (*s == '\'')
            sbuf_add(b, "'\\''");
        else
            sbuf_addc(b, *s);
    sbuf_addc(b, '\'');
}

static int usage(const char *why)
{
    if (why)
        fprintf(stderr, "medan-referee parallel: %s\n", why);
    fprintf(stderr,
            "usage: medan-referee parallel --shards N [--jobs J] [--sshlogin HOST]...\n"
            "           [--parallel PROG] [--dry-run] MATCH OPTIONS (with --results F)\n");
    return 1;
}

static int file_nonempty(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && st.st_size > 0;
}

/* Run argv, wait; the exit status, or -1 when it could not start. */
static int run(char **argv)
{
    pid_t pid = fork();
    int st;
    if (pid < 0)
        return -1;
    if (pid == 0) {
        execvp(argv[0], argv);
        fprintf(stderr, "medan-referee parallel: cannot run %s: %s\n", argv[0],
                strerror(errno));
        _exit(127);
    }
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int ref_parallel_main(int argc, char **argv, const char *self,
                      int (*merge)(int argc, char **argv))
{
    const char *hosts[MAX_HOSTS], *results = NULL, *records = NULL,
               *jobs = NULL, *prog = "parallel", *games = NULL;
    int nhosts = 0, shards = 0, dry = 0, resume = 0, rc = 1, st, margc = 0, keyed = 0;
    const char *gname = NULL;
    const struct game *g;
    struct sbuf cmd;
    char **pargv = NULL, **margv = NULL, *shardv = NULL;
    int npargv = 0;
    long long total;
    char totalbuf[24];
    char suffix[48], tmp[96], *ret[3] = {NULL, NULL, NULL}, **owned = NULL;

    sbuf_init(&cmd);
    /* Our own options first, then the match's. */
    for (; argc > 0; argc--, argv++) {
        if (strcmp(argv[0], "--shards") == 0 && argc > 1) {
            int64_t v;
            if (parse_i64(argv[1], 1, 10000, &v) < 0)
                return usage("--shards needs a number 1..10000");
            shards = (int)v;
        } else if (strcmp(argv[0], "--jobs") == 0 && argc > 1)
            jobs = argv[1];
        else if (strcmp(argv[0], "--sshlogin") == 0 && argc > 1) {
            if (nhosts == MAX_HOSTS)
                return usage("too many --sshlogin");
            hosts[nhosts++] = argv[1];
        } else if (strcmp(argv[0], "--parallel") == 0 && argc > 1)
            prog = argv[1];
        else if (strcmp(argv[0], "--dry-run") == 0) {
            dry = 1;
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
        if (strcmp(argv[i], "--shard") == 0 || strcmp(argv[i], "--quiet") == 0)
            return usage("--shard and --quiet are set by parallel itself");
        if (strcmp(argv[i], "--resume") == 0)
            resume = 1;
        if (i + 1 < argc && strcmp(argv[i], "--results") == 0)
            results = argv[i + 1];
        if (i + 1 < argc && strcmp(argv[i], "--records") == 0)
            records = argv[i + 1];
        if (i + 1 < argc && strcmp(argv[i], "--games") == 0)
            games = argv[i + 1];
        if (i + 1 < argc && strcmp(argv[i], "--game") == 0)
            gname = argv[i + 1];
        if (strcmp(argv[i], "--key-file") == 0 || strcmp(argv[i], "--key-from-seed") == 0)
            keyed = 1;
    }
    if (!results)
        return usage("the match needs --results F (the merged results; shards "
                     "write F.shard-I-of-N.jsonl beside it)");
    if (!resume && file_nonempty(results)) {
        fprintf(stderr, "medan-referee parallel: %s exists and is not empty (use "
                        "--resume to continue it, or another file)\n", results);
        return 1;
    }

    snprintf(suffix, sizeof suffix, ".shard-{}-of-%d", shards);
    /* The command each shard runs: the match with --shard, its own
     * results, records and output files, always --resume, so a shard that
     * was cut short continues where it stopped when run again. */
    quote(&cmd, self);
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--resume") == 0)
            continue;
        if (i + 1 < argc && (strcmp(argv[i], "--results") == 0 ||
                             strcmp(argv[i], "--records") == 0)) {
            sbuf_addc(&cmd, ' ');
            sbuf_add(&cmd, argv[i]);
            sbuf_addc(&cmd, ' ');
            quote(&cmd, argv[++i]);
            sbuf_add(&cmd, suffix);
            continue;
        }
        sbuf_addc(&cmd, ' ');
        quote(&cmd, argv[i]);
    }
    snprintf(tmp, sizeof tmp, " --shard {}/%d --quiet --resume > ", shards);
    sbuf_add(&cmd, tmp);
    quote(&cmd, results);
    sbuf_add(&cmd, suffix);
    sbuf_add(&cmd, ".out 2>&1");
    /* Shards of a hidden-information game share one secret deal key. */
    if (!keyed && gname && (g = game_find(gname)) != NULL && g->view) {
        size_t at = strstr(cmd.s, " --shard {}/") - cmd.s;
        struct sbuf k;
        sbuf_init(&k);
        sbuf_add(&k, " --key-file ");
        quote(&k, results);
        sbuf_add(&k, ".key");
        sbuf_add(&k, cmd.s + at);
        cmd.len = at;
        cmd.s[at] = 0;
        sbuf_add(&cmd, k.s);
        sbuf_free(&k);
    }

    pargv = xcalloc((size_t)(16 + 4 * nhosts + shards), sizeof *pargv);
    pargv[npargv++] = (char *)prog;
    pargv[npargv++] = "--will-cite";
    pargv[npargv++] = "--halt";
    pargv[npargv++] = "never";
    if (jobs) {
        pargv[npargv++] = "--jobs";
        pargv[npargv++] = (char *)jobs;
    }
    if (nhosts) {
        /* Hosts without the shared file system send the files back
         * (the working directory is the same path relative to home). */
        const char *back[3] = {results, records, results};
        for (int h = 0; h < nhosts; h++) {
            pargv[npargv++] = "--sshlogin";
            pargv[npargv++] = (char *)hosts[h];
        }
        pargv[npargv++] = "--workdir";
        pargv[npargv++] = ".";
        for (int k = 0; k < 3; k++) {
            if (!back[k])
                continue;
            ret[k] = xmalloc(strlen(back[k]) + 64);
            sprintf(ret[k], "%s%s%s", back[k], suffix, k == 2 ? ".out" : "");
            pargv[npargv++] = "--return";
            pargv[npargv++] = ret[k];
        }
    }
    pargv[npargv++] = cmd.s;
    pargv[npargv++] = ":::";
    shardv = xcalloc((size_t)shards, 12);
    for (int s = 0; s < shards; s++) {
        snprintf(shardv + 12 * s, 12, "%d", s + 1);
        pargv[npargv++] = shardv + 12 * s;
    }
    pargv[npargv] = NULL;

    if (dry) {
        for (int i = 0; i < npargv; i++) {
            struct sbuf q;
            sbuf_init(&q);
            quote(&q, pargv[i]);
            printf("%s%s", i ? " " : "", q.s);
            sbuf_free(&q);
        }
        printf("\n");
        rc = 0;
        goto done;
    }
    st = run(pargv);
    if (st < 0 || st == 127 || st == 255) {
        fprintf(stderr, "medan-referee parallel: %s did not run (status %d); "
                        "is GNU parallel installed (Debian: parallel)?\n", prog, st);
        goto done;
    }

    /* Merge: merge --games N --output F [--sprt ...] shard files. */
    margv = xcalloc((size_t)(argc + shards + 8), sizeof *margv);
    /* --games is per encounter: merge wants the whole schedule. */
    if (games && (total = ref_tournament_total_args(argc, argv)) > 0) {
        snprintf(totalbuf, sizeof totalbuf, "%lld", total);
        margv[margc++] = "--games";
        margv[margc++] = totalbuf;
    }
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "--sprt") == 0) {
            margv[margc++] = argv[i];
            while (i + 1 < argc && strchr(argv[i + 1], '=') && argv[i + 1][0] != '-')
                margv[margc++] = argv[++i];
        }
    margv[margc++] = "--output";
    margv[margc++] = (char *)results;
    owned = xcalloc((size_t)shards, sizeof *owned);
    for (int s = 0; s < shards; s++) {
        char *p = xmalloc(strlen(results) + 48);
        sprintf(p, "%s.shard-%d-of-%d", results, s + 1, shards);
        owned[s] = p;
        if (!file_nonempty(p)) {
            fprintf(stderr, "medan-referee parallel: shard %d/%d wrote no results "
                            "(see %s.out)\n", s + 1, shards, p);
            continue;
        }
        margv[margc++] = p;
    }
    rc = merge(margc, margv);
    if (records) {
        /* The shards' records (each shard file has all of its games),
         * one after the other, in shard order. */
        FILE *out = fopen(records, "w"); /* the shards hold every record */
        if (!out) {
            fprintf(stderr, "medan-referee parallel: cannot write %s\n", records);
            rc = 1;
            goto done;
        }
        for (int s = 0; s < shards; s++) {
            char p[4096], buf[65536];
            size_t k;
            FILE *in;
            snprintf(p, sizeof p, "%s.shard-%d-of-%d", records, s + 1, shards);
            if (!(in = fopen(p, "r")))
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
    for (int k = 0; k < 3; k++)
        free(ret[k]);
    free(margv);
    free(shardv);
    free(pargv);
    sbuf_free(&cmd);
    return rc;
}
