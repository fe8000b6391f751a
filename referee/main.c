/* main.c - medan-referee: matches, merge, check (see docs/referee.md). */
#include <math.h>
#include <signal.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "stats.h"
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
    struct ref_sprt sprt;
    int have_sprt = 0, files = 0, rc = 1;
    struct merge_ctx c = {&t, NULL, 0, NULL};
    ref_sprt_default(&sprt);
    ref_table_init(&t);
    for (int i = 0; i < argc; i++) {
        char err[256];
        if (strcmp(argv[i], "--sprt") == 0) {
            have_sprt = 1;
            while (i + 1 < argc && strchr(argv[i + 1], '=') &&
                   argv[i + 1][0] != '-')
                if (ref_sprt_set(&sprt, argv[++i]) < 0) {
                    fprintf(stderr, "medan-referee merge: bad --sprt setting %s\n", argv[i]);
                    goto done;
                }
            if (!ref_sprt_valid(&sprt)) {
                fprintf(stderr, "medan-referee merge: --sprt needs 0 < alpha, beta < 0.5 and elo0 < elo1\n");
                goto done;
            }
            continue;
        }
        if (strcmp(argv[i], "--output") == 0 && i + 1 < argc) {
            if (c.out)
                fclose(c.out);
            if (!(c.out = fopen(argv[++i], "w"))) {
                fprintf(stderr, "medan-referee merge: cannot write %s\n", argv[i]);
                goto done;
            }
            continue;
        }
        c.path = argv[i];
        if (ref_record_read_file(argv[i], merge_one, &c, NULL, err, sizeof err) < 0) {
            fprintf(stderr, "medan-referee merge: %s\n", err);
            goto done;
        }
        files++;
    }
    if (!files) {
        fprintf(stderr, "usage: medan-referee merge [--sprt k=v...] [--output all.jsonl] a.jsonl b.jsonl ...\n");
        goto done;
    }
    if (c.dup)
        printf("%d duplicate games ignored\n", c.dup);
    ref_table_print(&t, have_sprt ? &sprt : NULL, stdout);
    rc = 0;
done:
    if (c.out)
        fclose(c.out);
    ref_table_free(&t);
    return rc;
}

/* medan-referee sprt-sim: the SPRT on simulated matches, to see its error
 * rates and lengths for a setting before spending a cluster on it. */
static int sprt_sim_main(int argc, char **argv)
{
    struct ref_sprt s;
    struct ref_sprt_sim r;
    double elo = 0, draw = 0.3;
    int64_t runs = 1000, max_pairs = 100000, seed = 1;
    ref_sprt_default(&s);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = strchr(a, '=') ? strchr(a, '=') + 1 : "";
        char *end;
        if (str_prefix(a, "elo=") || str_prefix(a, "draw=")) {
            double x = strtod(v, &end);
            if (!*v || *end || !isfinite(x) || (a[0] == 'd' ? x < 0 || x > 1 : fabs(x) > 1000))
                goto bad;
            *(a[0] == 'd' ? &draw : &elo) = x;
        } else if (str_prefix(a, "runs=") || str_prefix(a, "max-pairs=") ||
                   str_prefix(a, "seed=")) {
            long long x = strtoll(v, &end, 10);
            if (!*v || *end || x < 1 || x > 100000000)
                goto bad;
            *(a[0] == 'r' ? &runs : a[0] == 'm' ? &max_pairs : &seed) = x;
        } else if (ref_sprt_set(&s, a) < 0)
            goto bad;
        continue;
    bad:
        fprintf(stderr, "medan-referee sprt-sim: bad setting %s\n"
                "usage: medan-referee sprt-sim [elo0=0 elo1=5 alpha=0.05 beta=0.05 "
                "model=logistic|normalized] [elo=0 draw=0.3 runs=1000 max-pairs=100000 seed=1]\n", a);
        return 1;
    }
    if (!ref_sprt_valid(&s)) {
        fprintf(stderr, "medan-referee sprt-sim: needs 0 < alpha, beta < 0.5 and elo0 < elo1\n");
        return 1;
    }
    ref_sprt_simulate(&s, elo, draw, (int)runs, (int)max_pairs, (uint64_t)seed, &r);
    printf("SPRT elo0=%g elo1=%g alpha=%g beta=%g model=%s; true Elo %+g, draw ratio %g, "
           "%d runs of at most %d pairs\n", s.elo0, s.elo1, s.alpha, s.beta,
           s.model == REF_SPRT_NORMALIZED ? "normalized" : "logistic", elo, draw,
           r.runs, (int)max_pairs);
    printf("H1 accepted %d (%.2f %%), H0 accepted %d (%.2f %%), undecided %d; "
           "mean length %.0f pairs\n", r.h1, 100.0 * r.h1 / r.runs, r.h0,
           100.0 * r.h0 / r.runs, r.undecided, (double)r.pairs / r.runs);
    return 0;
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
    if (strcmp(argv[1], "sprt-sim") == 0)
        return sprt_sim_main(argc - 2, argv + 2);
    memset(&m, 0, sizeof m);
    pthread_mutex_init(&m.mu, NULL);
    ref_table_init(&m.table);
    if (strcmp(argv[1], "check") == 0) {
        if (ref_cli_parse(&m, argc - 2, argv + 2, 1, NULL) < 0)
            return 1;
        rc = ref_check_main(&m);
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
        printf("Referee per move: %.1f us wall besides waiting for engines, "
               "%.1f us CPU (%lld moves)\n",
               (double)m.own_us / (double)m.own_moves,
               (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e6 / (double)m.own_moves +
                   (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / (double)m.own_moves,
               (long long)m.own_moves);
    }
    if (m.stop)
        printf("Match stopped early: %s\n", m.stop_why);
    if (m.results)
        fclose(m.results);
    if (m.records)
        fclose(m.records);
    ref_match_free(&m);
    return rc;
}
