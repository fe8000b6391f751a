/* time_to_depth.c - Lazy SMP's time to depth (make bench).
 *
 *   time_to_depth <loa|fetlar> <depth> [threads] [runs] [Name=value ...]
 *
 * Searches each of the engine's bench positions (<game>_bench_positions,
 * the ones of `medan-<game> bench`) to the fixed depth (`go depth`), once
 * with Threads=1 and once with Threads=threads (default 2), `runs` times
 * (default 1) alternating the two so that a change of the machine's load
 * falls on both; the table is cleared (newgame) before every search.  For
 * each position it prints the wall time of each (the median over the
 * runs), the nodes (summed over threads) and the ratio time(1) /
 * time(threads); then the median of the ratios over the positions and
 * their geometric mean:
 *
 *   ttd loa depth 8 threads 2: median 1.62 geomean 1.58 min 1.10 max 2.31, by nodes
 *   median 1.71, by CPU median 1.65 (12 positions, 1 run)
 *
 * "By nodes" is threads * nodes(1) / nodes(threads): the ratio the times
 * would show if every thread searched as fast as one thread alone (the
 * search overhead of Lazy SMP only, not the machine's scaling); on a busy
 * machine, where the threads do not get a core each, it is the figure that
 * says what the search does, the times what the machine gave.  "By CPU" is
 * threads * CPU time(1) / CPU time(threads) (process CPU time): the ratio
 * if each thread had a core of its own, the threads' slow-down on shared
 * caches and memory included.
 *
 * Each Name=value after runs sets an engine option of the searches with
 * `threads` threads only (split at the first '=': SearchParams=shared_history=1),
 * so a change of the parallel search can be measured against one thread
 * searching as before.
 *
 * A benchmark, not a test: the times are wall times on whatever machine
 * runs it (state its load with them), and more threads search differently
 * each time.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/util.h"
#include "engines/fetlar/fetlar_api.h"
#include "engines/loa/loa_api.h"
#include "protocol/engine.h"
#include "protocol/options.h"

#define MAX_RUNS 100
#define MAX_POS 64

static void set_option(const struct engine *e, void *eng, const char *name, const char *value)
{
    char err[256];
    const struct opt_spec *o = opt_find(e->options, name);
    if (!o || opt_set(o, eng, value, err, sizeof err) ||
        (e->option_changed && e->option_changed(eng, o, err, sizeof err)))
        die("time_to_depth: cannot set %s to %s", name, value);
}

/* One search of pos to depth with a cleared table: wall microseconds, and
 * the nodes of every thread through the info line of the last depth. */
struct result {
    int64_t us, cpu_us; /* wall and process CPU time */
    uint64_t nodes;
};

static int64_t cpu_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void last_info(void *ctx, const char *line)
{
    const char *p = strstr(line, " nodes ");
    if (p)
        *(uint64_t *)ctx = strtoull(p + 7, NULL, 10);
}

static struct result search_once(const struct engine *e, void *eng, const void *pos, int depth)
{
    struct search_req req;
    atomic_bool stop = false;
    gmove ponder;
    struct result r = {0, 0, 0};
    memset(&req, 0, sizeof req);
    limits_clear(&req.lim);
    req.lim.depth = depth;
    req.game = e->game;
    req.pos = pos;
    req.stop = &stop;
    req.info = last_info;
    req.info_ctx = &r.nodes;
    e->newgame(eng);
    int64_t cpu0 = cpu_now_us();
    req.start_us = now_us();
    if (e->go(eng, &req, &ponder) == GAME_MOVE_NONE)
        die("time_to_depth: no move");
    r.us = now_us() - req.start_us;
    r.cpu_us = cpu_now_us() - cpu0;
    return r;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int64_t median_i64(int64_t *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_i64);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    const struct engine *e;
    const char *const *positions;
    int depth = argc > 2 ? atoi(argv[2]) : 0, threads = argc > 3 ? atoi(argv[3]) : 2;
    int runs = argc > 4 ? atoi(argv[4]) : 1, npos = 0;
    char tval[16], err[GAME_ERR_LEN];
    double ratio[MAX_POS], logsum = 0, nratio[MAX_POS], cratio[MAX_POS];
    if (argc < 3 || depth < 1 || depth > 100 || threads < 1 || threads > 256 ||
        runs < 1 || runs > MAX_RUNS) {
        fprintf(stderr, "usage: time_to_depth <loa|fetlar> <depth 1..100> [threads 1..256] "
                        "[runs 1..%d] [Name=value ...]\n", MAX_RUNS);
        return 2;
    }
    if (strcmp(argv[1], "loa") == 0)
        e = &loa_engine, positions = loa_bench_positions;
    else if (strcmp(argv[1], "fetlar") == 0)
        e = &fetlar_engine, positions = fetlar_bench_positions;
    else {
        fprintf(stderr, "time_to_depth: unknown game '%s' (loa or fetlar)\n", argv[1]);
        return 2;
    }
    void *one = xcalloc(1, e->size), *many = xcalloc(1, e->size);
    opt_defaults(e->options, one);
    opt_defaults(e->options, many);
    e->init(one);
    e->init(many);
    snprintf(tval, sizeof tval, "%d", threads);
    set_option(e, many, "Threads", tval);
    for (int a = 5; a < argc; a++) {
        char name[64];
        const char *eq = strchr(argv[a], '=');
        if (!eq || eq == argv[a] || (size_t)(eq - argv[a]) >= sizeof name)
            die("time_to_depth: '%s' is not Name=value", argv[a]);
        memcpy(name, argv[a], (size_t)(eq - argv[a]));
        name[eq - argv[a]] = '\0';
        set_option(e, many, name, eq + 1);
    }
    game_config_buf cfg;
    e->game->config_default(cfg.b);
    for (int i = 0; positions[i] && npos < MAX_POS; i++, npos++) {
        game_state_buf st;
        int64_t t1[MAX_RUNS], tn[MAX_RUNS], c1[MAX_RUNS], cn[MAX_RUNS];
        uint64_t n1 = 0, nn = 0;
        if (e->game->parse_pos(st.b, cfg.b, positions[i], err, sizeof err) != GAME_OK)
            die("time_to_depth: bench position %d: %s", i + 1, err);
        for (int r = 0; r < runs; r++) {
            /* alternate which goes first: a load that changes falls on both */
            struct result a, b;
            if (r % 2 == 0) {
                a = search_once(e, one, st.b, depth);
                b = search_once(e, many, st.b, depth);
            } else {
                b = search_once(e, many, st.b, depth);
                a = search_once(e, one, st.b, depth);
            }
            t1[r] = a.us;
            tn[r] = b.us;
            c1[r] = a.cpu_us;
            cn[r] = b.cpu_us;
            n1 = a.nodes;
            nn += b.nodes;
        }
        int64_t m1 = median_i64(t1, runs), mn = median_i64(tn, runs);
        int64_t mc1 = median_i64(c1, runs), mcn = median_i64(cn, runs);
        cratio[npos] = (double)threads * (double)(mc1 > 0 ? mc1 : 1) / (double)(mcn > 0 ? mcn : 1);
        ratio[npos] = (double)(m1 > 0 ? m1 : 1) / (double)(mn > 0 ? mn : 1);
        logsum += log(ratio[npos]);
        nn /= (uint64_t)runs;
        nratio[npos] = (double)threads * (double)n1 / (double)(nn ? nn : 1);
        printf("ttd %s position %d depth %d: threads 1 %.3f s %llu nodes, threads %d %.3f s "
               "%llu nodes (mean), ratio %.2f (by nodes %.2f, by CPU %.2f)\n",
               argv[1], i + 1, depth, m1 / 1e6, (unsigned long long)n1, threads, mn / 1e6,
               (unsigned long long)nn, ratio[npos], nratio[npos], cratio[npos]);
        fflush(stdout);
    }
    qsort(ratio, (size_t)npos, sizeof *ratio, cmp_double);
    qsort(nratio, (size_t)npos, sizeof *nratio, cmp_double);
    qsort(cratio, (size_t)npos, sizeof *cratio, cmp_double);
    double med = npos % 2 ? ratio[npos / 2] : (ratio[npos / 2 - 1] + ratio[npos / 2]) / 2;
    double nmed = npos % 2 ? nratio[npos / 2] : (nratio[npos / 2 - 1] + nratio[npos / 2]) / 2;
    double cmed = npos % 2 ? cratio[npos / 2] : (cratio[npos / 2 - 1] + cratio[npos / 2]) / 2;
    printf("ttd %s depth %d threads %d: median %.2f geomean %.2f min %.2f max %.2f, "
           "by nodes median %.2f, by CPU median %.2f (%d positions, %d run%s)\n",
           argv[1], depth, threads, med, exp(logsum / npos), ratio[0], ratio[npos - 1], nmed,
           cmed, npos, runs, runs == 1 ? "" : "s");
    e->destroy(one);
    e->destroy(many);
    free(one);
    free(many);
    return 0;
}
