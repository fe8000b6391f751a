/* palagan_threads.c - simulations per second of Palagan's MCTS with 1 and
 * with N threads on its shared tree (make bench).
 *
 *   palagan_threads [sims] [threads] [runs]
 *
 * Searches `sims` simulations (default 20000) from each of the bench
 * positions (palagan_bench_positions) with one thread and then with
 * `threads` (default 2), `runs` times each (default 1, alternating), and
 * prints each one's simulations (each a playout) per wall-clock second
 * and per CPU-second, the best of the runs, and the ratios.  Wall clock:
 * a parallel search's gain is in elapsed time, and on a shared machine
 * that ratio is only as good as the cores free during the run (run
 * `uptime` alongside); the CPU-second ratio is the threads' efficiency
 * (1.00: no time lost to sharing the tree), which load does not change.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/util.h"
#include "engines/palagan/mcts.h"
#include "engines/palagan/palagan.h"
#include "engines/palagan/palagan_api.h"

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Seconds (wall clock) for the simulations from every bench position;
 * *cpu: the process CPU seconds they took. */
static double run(struct mcts *t, int threads, uint64_t sims, uint64_t *done, double *cpu)
{
    game_config_buf cfg;
    palagan_game.config_default(cfg.b);
    if (mc_set_threads(t, threads) != 0)
        die("cannot start %d threads", threads);
    int64_t t0 = now_us();
    double c0 = cpu_s();
    for (size_t i = 0; palagan_bench_positions[i]; i++) {
        struct pal_state s;
        char err[GAME_ERR_LEN];
        if (palagan_game.parse_pos(&s, cfg.b, palagan_bench_positions[i], err, sizeof err))
            die("bench position %zu: %s", i + 1, err);
        mc_seed(t, 1);
        mc_search_sims(t, &s, sims);
        *done += t->sims;
    }
    *cpu = cpu_s() - c0;
    return (double)(now_us() - t0) / 1e6;
}

int main(int argc, char **argv)
{
    long sims = argc > 1 ? atol(argv[1]) : 20000;
    int threads = argc > 2 ? atoi(argv[2]) : 2;
    int runs = argc > 3 ? atoi(argv[3]) : 1;
    if (argc > 4 || sims < 1 || threads < 1 || threads > MC_MAX_THREADS || runs < 1) {
        fprintf(stderr, "usage: palagan_threads [sims] [threads 1..%d] [runs]\n",
                MC_MAX_THREADS);
        return 2;
    }
    static struct mcts t;
    mc_init(&t, 256, 1);
    double best[2] = {0, 0}, bestc[2] = {0, 0};
    for (int r = 0; r < runs; r++)
        for (int k = 0; k < 2; k++) {
            uint64_t done = 0;
            double cpu, s = run(&t, k ? threads : 1, (uint64_t)sims, &done, &cpu);
            double rate = s > 0 ? (double)done / s : 0, crate = cpu > 0 ? (double)done / cpu : 0;
            printf("palagan mcts threads %d: %llu simulations in %.3f s (%.3f CPU-s), %.0f per "
                   "second, %.0f per CPU-second\n",
                   k ? threads : 1, (unsigned long long)done, s, cpu, rate, crate);
            if (rate > best[k])
                best[k] = rate;
            if (crate > bestc[k])
                bestc[k] = crate;
        }
    printf("palagan mcts simulations per second: threads 1 %.0f, threads %d %.0f, ratio %.2f; "
           "per CPU-second ratio %.2f\n",
           best[0], threads, best[1], best[0] > 0 ? best[1] / best[0] : 0,
           bestc[0] > 0 ? bestc[1] / bestc[0] : 0);
    mc_free(&t);
    return 0;
}
