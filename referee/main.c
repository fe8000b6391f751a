/* main.c - medan-referee: matches, merge, check (see docs/referee.md). */
#include <signal.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/util.h"

struct merge_ctx {
    struct ref_table *t;
    FILE *out;
    int dup;
    const char *path;
};

static void merge_one(void *ctx, const struct ref_record *r)
{
    struct merge_ctx *c = ctx;
    if (ref_table_add(c->t, r) < 0) {
        if (!ref_table_has(c->t, r->game))
            die("%s: game %d does not fit the others (different game?)",
                c->path, r->game);
        c->dup++;
        return;
    }
    if (c->out)
        ref_record_write_json(r, c->out);
}

static int merge_main(int argc, char **argv)
{
    struct ref_table t;
    struct ref_sprt sprt = {0, 5, 0.05, 0.05};
    int have_sprt = 0, files = 0;
    struct merge_ctx c = {&t, NULL, 0, NULL};
    ref_table_init(&t);
    for (int i = 0; i < argc; i++) {
        char err[256];
        if (strcmp(argv[i], "--sprt") == 0) {
            have_sprt = 1;
            while (i + 1 < argc && strchr(argv[i + 1], '=') &&
                   argv[i + 1][0] != '-') {
                char *v = strchr(argv[++i], '=') + 1;
                if (str_prefix(argv[i], "elo0="))
                    sprt.elo0 = atof(v);
                else if (str_prefix(argv[i], "elo1="))
                    sprt.elo1 = atof(v);
                else if (str_prefix(argv[i], "alpha="))
                    sprt.alpha = atof(v);
                else if (str_prefix(argv[i], "beta="))
                    sprt.beta = atof(v);
            }
            continue;
        }
        if (strcmp(argv[i], "--output") == 0 && i + 1 < argc) {
            if (!(c.out = fopen(argv[++i], "w")))
                die("cannot write %s", argv[i]);
            continue;
        }
        c.path = argv[i];
        if (ref_record_read_file(argv[i], merge_one, &c, NULL, err, sizeof err) < 0) {
            fprintf(stderr, "medan-referee merge: %s\n", err);
            return 1;
        }
        files++;
    }
    if (!files) {
        fprintf(stderr, "usage: medan-referee merge [--sprt k=v...] [--output all.jsonl] a.jsonl b.jsonl ...\n");
        return 1;
    }
    if (c.dup)
        printf("%d duplicate games ignored\n", c.dup);
    ref_table_print(&t, have_sprt ? &sprt : NULL, stdout);
    if (c.out)
        fclose(c.out);
    ref_table_free(&t);
    return 0;
}

/* The value after the last `opt` on the command line, or NULL. */
static const char *arg_of(int argc, char **argv, const char *opt)
{
    const char *v = NULL;
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], opt) == 0)
            v = argv[i + 1];
    return v;
}

/* Where the match's outputs went (docs/referee.md, "Output"). */
static void where_written(const struct ref_match *m, int argc, char **argv)
{
    const char *res = arg_of(argc, argv, "--results"),
               *rec = arg_of(argc, argv, "--records");
    printf("Written: %s%s%s%s%s%s%s\n",
           res ? "results (one JSON line per game) " : "no results file (--results)",
           res ? res : "", rec ? ", records (PGN) " : "", rec ? rec : "",
           m->logdir ? ", engine stderr logs in " : "", m->logdir ? m->logdir : "",
           m->logdir ? "/" : "");
}

int main(int argc, char **argv)
{
    struct ref_match m;
    char *resume = NULL;
    int rc;

    signal(SIGPIPE, SIG_IGN);
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        ref_cli_help();
        return argc < 2 ? 1 : 0;
    }
    if (strcmp(argv[1], "merge") == 0)
        return merge_main(argc - 2, argv + 2);
    memset(&m, 0, sizeof m);
    pthread_mutex_init(&m.mu, NULL);
    ref_table_init(&m.table);
    if (strcmp(argv[1], "check") == 0) {
        /* --latency strict (default: a figure over its bound fails) or
         * report (it is printed as SLOW; the tests use this). */
        int strict = 1, n = 0;
        for (int i = 2; i < argc; i++) {
            if (strcmp(argv[i], "--latency") == 0 && i + 1 < argc &&
                (strcmp(argv[i + 1], "strict") == 0 || strcmp(argv[i + 1], "report") == 0)) {
                strict = argv[++i][0] == 's';
                continue;
            }
            argv[2 + n++] = argv[i];
        }
        if (ref_cli_parse(&m, n, argv + 2, 1, NULL) < 0)
            return 1;
        rc = ref_check_main(&m, strict);
        ref_match_free(&m);
        return rc;
    }
    if (ref_cli_parse(&m, argc - 1 - (strcmp(argv[1], "match") == 0),
                      argv + 1 + (strcmp(argv[1], "match") == 0), 0, &resume) < 0)
        return 1;
    if (resume) {
        char err[512];
        if (ref_match_resume(&m, resume, err, sizeof err) < 0) {
            fprintf(stderr, "medan-referee: %s\n", err);
            return 1;
        }
    }
    rc = ref_match_run(&m);
    ref_table_print(&m.table, m.sprt_on ? &m.sprt : NULL, stdout);
    if (m.own_moves) {
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        printf("Referee's own work per move (rules, clocks, records; not the engines): "
               "%.0f us wall, %.0f us CPU (%lld moves)\n",
               (double)m.own_us / (double)m.own_moves,
               (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e6 / (double)m.own_moves +
                   (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / (double)m.own_moves,
               (long long)m.own_moves);
    }
    where_written(&m, argc, argv);
    if (m.stop)
        printf("Match stopped early: %s\n", m.stop_why);
    if (m.results)
        fclose(m.results);
    if (m.records)
        fclose(m.records);
    ref_match_free(&m);
    return rc;
}
