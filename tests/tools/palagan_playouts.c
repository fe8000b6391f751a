/* palagan_playouts.c - playout speed of the Palagan policy (make bench).
 *
 *   palagan_playouts [count] [size] [seed] [portable]
 *
 * Plays `count` (default 20000) policy playouts (pal_playout, the engine's
 * default policy) from the start of side `size` (default 5), the random
 * stream seeded with `seed` (default 1), and prints the playouts per
 * CPU-second (process CPU time, not wall time: the machines are shared)
 * and a fingerprint of the games: the sum of the capture differences and
 * of the maneuvers played.  The fingerprint changes when any decision of
 * the policy changes for the same random stream.  `portable` runs the code
 * built for every x86-64 processor even where the one built for POPCNT and
 * BMI2 could run (pal_fast_cpu); the line ends with the code used.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/util.h"
#include "engines/palagan/palagan.h"

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    long count = argc > 1 ? atol(argv[1]) : 20000;
    int size = argc > 2 ? atoi(argv[2]) : 5;
    uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
    const bool portable = argc > 4 && strcmp(argv[4], "portable") == 0;
    if (count < 1 || size < PAL_MIN_N || size > PAL_MAX_N || (argc > 4 && !portable)) {
        fprintf(stderr, "usage: palagan_playouts [count] [size 4..9] [seed] [portable]\n");
        return 2;
    }
    if (portable)
        pal_fast_cpu(0);
    const char *code = size <= 5 && pal_fast_cpu(-1) ? "POPCNT/BMI2" : "portable";
    const struct pal_geom *g = pal_geom(size);
    static struct pal_trace tr;
    struct rng r;
    rng_seed(&r, seed);
    long long diff = 0, mans = 0, caps = 0;
    double t0 = cpu_s();
    for (long i = 0; i < count; i++) {
        struct pal_state s;
        pal_start(&s, size);
        tr.n = 0;
        diff += pal_playout(g, &s, &r, &pal_default_policy, &tr);
        mans += tr.n;
        caps += s.captures[0] + s.captures[1];
    }
    double t = cpu_s() - t0;
    printf("palagan playouts %ld size %d: %.0f per CPU-second (%.3f s), fingerprint %lld/%lld, "
           "%.1f maneuvers and %.2f captures a playout, %s code\n",
           count, size, t > 0 ? count / t : 0, t, diff, mans, (double)mans / count,
           (double)caps / count, code);
    return 0;
}
