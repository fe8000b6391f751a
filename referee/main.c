/* main.c - medan-referee: matches, merge, check (see docs/referee.md). */
#include <pthread.h>
#include <math.h>
#include <signal.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/version.h"
#include "cli.h"
#include "outfile.h"
#include "parallel.h"
#include "report.h"
#include "slurm.h"
#include "stats.h"
#include "tune.h"
#include "core/game.h"
#include "core/util.h"
#include "engines/registry.h"

struct merge_ctx {
    struct ref_table *t;
    FILE *out;
    int dup;
    char bad[160];          /* a record that does not fit: merge fails */
    const char *path;
    unsigned char *seen;    /* seen[g]: game g read (1) or read twice (2) */
    int nseen;
};

static void merge_usage(FILE *f)
{
    fprintf(f, "usage: medan-referee merge [--games N] [--sprt k=v...] "
               "[--output all.jsonl] a.jsonl b.jsonl ...\n");
}

static void sprt_sim_usage(FILE *f)
{
    fprintf(f, "usage: medan-referee sprt-sim [elo0=0 elo1=5 alpha=0.05 beta=0.05 "
               "model=logistic|normalized] [elo=0 draw=0.3 runs=1000 max-pairs=100000 seed=1]\n");
}

static void merge_one(void *ctx, const struct ref_record *r)
{
    struct merge_ctx *c = ctx;
    if (*c->bad)
        return;
    if (r->game >= c->nseen) {
        int n = c->nseen ? c->nseen : 64;
        while (n <= r->game)
            n *= 2;
        c->seen = xrealloc(c->seen, (size_t)n);
        memset(c->seen + c->nseen, 0, (size_t)(n - c->nseen));
        c->nseen = n;
    }
    if (ref_table_add(c->t, r) < 0) {
        if (!ref_table_has(c->t, r->game)) {
            snprintf(c->bad, sizeof c->bad, "game %d does not fit the others "
                     "(different game?)", r->game);
            return;
        }
        c->seen[r->game] = 2;
        c->dup++;
        return;
    }
    c->seen[r->game] = 1;
    if (c->out)
        ref_record_write_json(r, c->out);
}

/* Print the games 1..n with seen[g] == want as ranges ("3-5, 9");
 * returns how many. */
static int print_games(const struct merge_ctx *c, int n, int want)
{
    int count = 0;
    for (int g = 1; g <= n; g++) {
        int h = g;
        if ((g < c->nseen ? c->seen[g] : 0) != want)
            continue;
        while (h + 1 <= n && (h + 1 < c->nseen ? c->seen[h + 1] : 0) == want)
            h++;
        printf(count ? ", %d" : " %d", g);
        if (h > g)
            printf("-%d", h);
        count += h - g + 1;
        g = h;
    }
    return count;
}

static int merge_main(int argc, char **argv)
{
    struct ref_table t;
    struct ref_sprt sprt;
    int have_sprt = 0, files = 0, rc = 1, last = 0, missing = 0;
    int64_t games = 0;
    struct merge_ctx c = {&t, NULL, 0, "", NULL, NULL, 0};
    struct ref_outfile of;
    memset(&of, 0, sizeof of);
    ref_sprt_default(&sprt);
    ref_table_init(&t);
    /* --output before any file is read, wherever it stands (the last one
     * counts); written through a temporary file, so an error leaves no
     * partial file. */
    for (int i = 0; i + 1 < argc; i++)
        if (strcmp(argv[i], "--output") == 0) {
            char err[256];
            ref_outfile_discard(&of);
            if (ref_outfile_open(&of, argv[++i], err, sizeof err) < 0) {
                fprintf(stderr, "medan-referee merge: %s\n", err);
                goto done;
            }
            c.out = of.f;
        }
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
        if (strcmp(argv[i], "--games") == 0) {
            if (i + 1 >= argc || parse_i64(argv[i + 1], 1, 100000000, &games) < 0) {
                fprintf(stderr, "medan-referee merge: --games needs a number of games\n");
                goto done;
            }
            i++;
            continue;
        }
        if (strcmp(argv[i], "--output") == 0 && i + 1 < argc) {
            i++; /* opened above */
            continue;
        }
        c.path = argv[i];
        if (ref_record_read_file(argv[i], merge_one, &c, NULL, err, sizeof err) < 0) {
            fprintf(stderr, "medan-referee merge: %s\n", err);
            goto done;
        }
        if (*c.bad) {
            fprintf(stderr, "medan-referee merge: %s: %s\n", argv[i], c.bad);
            goto done;
        }
        files++;
    }
    if (!files) {
        merge_usage(stderr);
        goto done;
    }
    /* Shards that overlap, and games that no file has. */
    for (int g = 1; g < c.nseen; g++)
        if (c.seen[g])
            last = g;
    if (games > last)
        last = (int)games;
    if (c.dup) {
        printf("Overlap: %d duplicate games ignored (the first record kept):", c.dup);
        print_games(&c, last, 2);
        printf("\n");
    }
    for (int g = 1; g <= last; g++)
        missing += (g < c.nseen ? c.seen[g] : 0) == 0;
    if (missing) {
        printf("Missing: %d of %d games are in no file:", missing, last);
        print_games(&c, last, 0);
        printf("\n");
    }
    if (c.out) {
        char err[256];
        c.out = NULL;
        if (ref_outfile_commit(&of, err, sizeof err) < 0) {
            fprintf(stderr, "medan-referee merge: %s\n", err);
            goto done;
        }
    }
    ref_table_print(&t, have_sprt ? &sprt : NULL, stdout);
    rc = missing ? 2 : 0;
done:
    ref_outfile_discard(&of);
    free(c.seen);
    ref_table_free(&t);
    return rc;
}

/* medan-referee parallel: shards over GNU parallel, then merge. */
static int parallel_main(int argc, char **argv)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        die("cannot find my own path (/proc/self/exe)");
    self[n] = 0;
    ref_cli_canon(argc, argv);
    return ref_parallel_main(argc, argv, self, merge_main);
}

/* medan-referee slurm: the match as Slurm job arrays in batches. */
static int slurm_main(int argc, char **argv)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        die("cannot find my own path (/proc/self/exe)");
    self[n] = 0;
    return ref_slurm_main(argc, argv, self);
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
        fprintf(stderr, "medan-referee sprt-sim: bad setting %s\n", a);
        sprt_sim_usage(stderr);
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

/* SIGINT / SIGTERM: every thread blocks them and this thread takes them.
 * It kills every engine's process group (engines have their own groups,
 * so the terminal's Ctrl-C does not reach them), prints the table of the
 * finished games (they are already in the results file; the running ones
 * are not, --resume plays them) and exits with 128 + the signal. */
static sigset_t stop_sigs;

static void *stop_thread(void *arg)
{
    struct ref_match *m = arg;
    int sig = 0;
    while (sigwait(&stop_sigs, &sig) != 0)
        ;
    if (m) {
        pthread_mutex_lock(&m->mu);
        if (m->finished) { /* too late to matter: the table is coming */
            pthread_mutex_unlock(&m->mu);
            return NULL;
        }
        ctl_proc_kill_all();
        m->quiet = 1; /* no more live lines from running games */
        printf("\nInterrupted by %s: the table of the %d finished games; "
               "the running games are not recorded (--resume plays them)\n",
               sig == SIGINT ? "SIGINT" : "SIGTERM", m->table.nsum);
        ref_table_print(&m->table, m->sprt_on ? &m->sprt : NULL, stdout);
    } else
        ctl_proc_kill_all();
    fflush(stdout);
    _exit(128 + sig);
}

static void catch_stops(struct ref_match *m)
{
    pthread_t th;
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&th, &at, stop_thread, m) != 0)
        die("cannot start the signal thread");
    pthread_attr_destroy(&at);
}

static void cleanup(struct ref_match *m)
{
    if (m->results)
        fclose(m->results);
    if (m->records)
        fclose(m->records);
    m->results = m->records = NULL;
    ref_match_free(m);
}

/* The value after the last `opt` on the command line, or NULL. */
/* check's --time-use ms,ms,... | none and --time-use-moves N; 0 or -1. */
static int parse_time_use(const char *opt, const char *v, struct ref_time_use *tu)
{
    int64_t x;
    if (strcmp(opt, "--time-use-moves") == 0) {
        if (parse_i64(v, 1, 100, &x) < 0)
            return -1;
        tu->n = (int)x;
        return 0;
    }
    tu->nms = 0;
    if (strcmp(v, "none") == 0)
        return 0;
    for (const char *p = v;;) {
        char one[32];
        size_t l = strcspn(p, ",");
        if (l == 0 || l >= sizeof one || tu->nms == REF_TIME_USE_MAX)
            return -1;
        memcpy(one, p, l);
        one[l] = '\0';
        if (parse_i64(one, 1, 60000, &x) < 0)
            return -1;
        tu->ms[tu->nms++] = x;
        if (!p[l])
            return 0;
        p += l + 1;
    }
}

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

static void check_usage(FILE *f)
{
    fprintf(f, "usage: medan-referee check --game G [key=value...] --engine cmd=... "
               "[KEYS...] [--latency strict|report]\n"
               "           [--time-use none|MS,MS,...] [--time-use-moves N]\n"
               "(medan-referee --help, docs/referee.md \"Checking an engine\")\n");
}

/* `medan-referee SUB --help` (or -h anywhere among SUB's arguments): SUB's
 * usage on stdout, exit 0, as the top-level --help does.  1 when done. */
static int sub_help(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*usage)(FILE *f);
    } subs[] = {{"tune", ref_tune_usage},       {"report", ref_report_usage},
                {"check", check_usage},         {"sprt-sim", sprt_sim_usage},
                {"parallel", ref_parallel_usage}, {"slurm", ref_slurm_usage},
                {"merge", merge_usage}};
    int help = 0;
    for (int i = 2; i < argc && !help; i++)
        help = strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0;
    if (!help)
        return 0;
    for (size_t k = 0; k < sizeof subs / sizeof subs[0]; k++)
        if (strcmp(argv[1], subs[k].name) == 0) {
            subs[k].usage(stdout);
            return 1;
        }
    return 0;
}

int main(int argc, char **argv)
{
    struct ref_match m;
    char *resume = NULL;
    int rc;

    signal(SIGPIPE, SIG_IGN);
    if (argc < 2) {
        fprintf(stderr, "usage: medan-referee --game G --engine KEYS... --engine KEYS... [options]\n"
                        "       medan-referee check|merge|report|tune ...   (medan-referee --help for all)\n");
        return 1;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        ref_cli_help();
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        printf("medan-referee (Medan) %s\n", MEDAN_VERSION);
        return 0;
    }
    if (sub_help(argc, argv))
        return 0;
    if (strcmp(argv[1], "merge") == 0)
        return merge_main(argc - 2, argv + 2);
    if (strcmp(argv[1], "games") == 0) {
        /* The games this referee knows: name, seats, hidden information. */
        for (int i = 0; game_registry[i]; i++)
            printf("%s%s\n", game_registry[i]->name,
                   game_registry[i]->view ? " hidden" : "");
        return 0;
    }
    if (strcmp(argv[1], "report") == 0)
        return ref_report_main(argc - 2, argv + 2);
    if (strcmp(argv[1], "parallel") == 0)
        return parallel_main(argc - 2, argv + 2);
    if (strcmp(argv[1], "slurm") == 0)
        return slurm_main(argc - 2, argv + 2);
    if (strcmp(argv[1], "sprt-sim") == 0)
        return sprt_sim_main(argc - 2, argv + 2);
    /* Taken by stop_thread; blocked before any other thread or engine
     * starts (engines get an empty mask back: proc.c). */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    sigemptyset(&stop_sigs);
    sigaddset(&stop_sigs, SIGINT);
    sigaddset(&stop_sigs, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_sigs, NULL);
    if (strcmp(argv[1], "tune") == 0) {
        /* SIGINT/SIGTERM kill the engines and exit: the state file holds
         * the last whole iteration, the same command continues it. */
        catch_stops(NULL);
        return ref_tune_main(argc - 2, argv + 2);
    }
    memset(&m, 0, sizeof m);
    pthread_mutex_init(&m.mu, NULL);
    ref_table_init(&m.table);
    if (strcmp(argv[1], "check") == 0) {
        /* --latency strict (default: a figure over its bound fails) or
         * report (it is printed as SLOW; the tests use this). */
        int strict = 1, n = 0;
        struct ref_time_use tu = {{100, 300, 1000}, 3, 5};
        for (int i = 2; i < argc; i++) {
            if (strcmp(argv[i], "--latency") == 0 && i + 1 < argc &&
                (strcmp(argv[i + 1], "strict") == 0 || strcmp(argv[i + 1], "report") == 0)) {
                strict = argv[++i][0] == 's';
                continue;
            }
            if (strcmp(argv[i], "--time-use") == 0 || strcmp(argv[i], "--time-use-moves") == 0) {
                if (i + 1 >= argc || parse_time_use(argv[i], argv[i + 1], &tu) < 0) {
                    fprintf(stderr, "medan-referee: %s takes %s, not '%s'\n", argv[i],
                            strcmp(argv[i], "--time-use") != 0 ? "a count 1..100"
                                        : "none or ms,ms,... (at most 8, each 1..60000)",
                            i + 1 < argc ? argv[i + 1] : "");
                    cleanup(&m);
                    return 1;
                }
                i++;
                continue;
            }
            argv[2 + n++] = argv[i];
        }
        if (ref_cli_parse(&m, n, argv + 2, 1, NULL) < 0) {
            cleanup(&m);
            return 1;
        }
        catch_stops(NULL);
        rc = ref_check_main(&m, strict, &tu);
        cleanup(&m);
        return rc;
    }
    if (ref_cli_parse(&m, argc - 1 - (strcmp(argv[1], "match") == 0),
                      argv + 1 + (strcmp(argv[1], "match") == 0), 0, &resume) < 0) {
        cleanup(&m);
        return 1;
    }
    ref_cores_warning(&m, 0, stderr); /* once, before the first game */
    if (resume) {
        char err[512];
        if (ref_match_resume(&m, resume, err, sizeof err) < 0) {
            fprintf(stderr, "medan-referee: %s\n", err);
            cleanup(&m);
            return 1;
        }
    }
    catch_stops(&m);
    rc = ref_match_run(&m);
    pthread_mutex_lock(&m.mu);
    m.finished = 1;
    pthread_mutex_unlock(&m.mu);
    ref_table_print(&m.table, m.sprt_on ? &m.sprt : NULL, stdout);
    /* cutechess-cli prints the endings at the end unless the last
     * interval has just printed them */
    if (m.outcome_interval && m.table.nsum &&
        (m.quiet || m.table.nsum % m.outcome_interval != 0)) {
        putchar('\n');
        ref_table_print_outcomes(&m.table, stdout);
    }
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
    if (m.starts)
        printf("Engine starts: %lld%s, %.1f ms each (start-up and handshake)\n",
               (long long)m.starts,
               m.hidden ? " (fresh processes for every game: hidden information)"
                        : "",
               (double)m.start_us / 1000.0 / (double)m.starts);
    where_written(&m, argc, argv);
    if (m.stop)
        printf("Match stopped early: %s\n", m.stop_why);
    cleanup(&m);
    return rc;
}
