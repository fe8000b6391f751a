/* main.c - medan-referee: matches, merge, check (see docs/referee.md). */
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
            if (c.out)
                fclose(c.out);
            ref_table_free(&t);
            return 1;
        }
        files++;
    }
    if (!files) {
        fprintf(stderr, "usage: medan-referee merge [--sprt k=v...] [--output all.jsonl] a.jsonl b.jsonl ...\n");
        if (c.out)
            fclose(c.out);
        ref_table_free(&t);
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
        ref_proc_kill_all();
        m->quiet = 1; /* no more live lines from running games */
        printf("\nInterrupted by %s: the table of the %d finished games; "
               "the running games are not recorded (--resume plays them)\n",
               sig == SIGINT ? "SIGINT" : "SIGTERM", m->table.nsum);
        ref_table_print(&m->table, m->sprt_on ? &m->sprt : NULL, stdout);
    } else
        ref_proc_kill_all();
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
    /* Taken by stop_thread; blocked before any other thread or engine
     * starts (engines get an empty mask back: proc.c). */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    sigemptyset(&stop_sigs);
    sigaddset(&stop_sigs, SIGINT);
    sigaddset(&stop_sigs, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_sigs, NULL);
    memset(&m, 0, sizeof m);
    pthread_mutex_init(&m.mu, NULL);
    ref_table_init(&m.table);
    if (strcmp(argv[1], "check") == 0) {
        if (ref_cli_parse(&m, argc - 2, argv + 2, 1, NULL) < 0) {
            cleanup(&m);
            return 1;
        }
        catch_stops(NULL);
        rc = ref_check_main(&m);
        ref_match_free(&m);
        return rc;
    }
    if (ref_cli_parse(&m, argc - 1 - (strcmp(argv[1], "match") == 0),
                      argv + 1 + (strcmp(argv[1], "match") == 0), 0, &resume) < 0) {
        cleanup(&m);
        return 1;
    }
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
    if (m.starts)
        printf("Engine starts: %lld%s, %.1f ms each (start-up and handshake)\n",
               (long long)m.starts,
               m.hidden ? " (fresh processes for every game: hidden information)"
                        : "",
               (double)m.start_us / 1000.0 / (double)m.starts);
    if (m.stop)
        printf("Match stopped early: %s\n", m.stop_why);
    cleanup(&m);
    return rc;
}
