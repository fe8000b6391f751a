/* tournament.h - tournaments of N engines: the command-line flags
 * (--tournament, --rounds, --noswap, --repeat), their checks, and the
 * Elo and rank ranges of N engines (the crosstable that prints them is
 * table.c's: table.c calls this file, never the other way). */
#ifndef REF_TOURNAMENT_H
#define REF_TOURNAMENT_H

#include <stddef.h>

struct ref_match;

/* If argv[*i] is a tournament flag: consume it (and its value), return 1;
 * *rc = -1 on a bad value (its message in err).  Else 0. */
int ref_cli_tournament_flag(struct ref_match *m, int argc, char **argv,
                            int *i, int *rc, char *err, size_t n);
/* After the game and the engines are known: check the combination, pick
 * the default tournament, and set m->games to the whole schedule (--games
 * is per encounter).  0 or -1 (its message in err). */
int ref_cli_tournament_check(struct ref_match *m, int neng, int sprt_given,
                             char *err, size_t n);
/* Rank ranges from intervals: best[i] = 1 + engines whose lower bound is
 * above i's upper bound, worst[i] = n - engines whose upper bound is below
 * i's lower bound.  A NaN bound counts as unbounded. */
void ref_rank_ranges(int n, const double *lo, const double *hi, int *best,
                     int *worst);
/* Elo (ref_ratings), its 95% interval and rank range of n engines from
 * the games[i*n+j] and points[i*n+j] of i against j; lo/hi NaN when the
 * engines fall apart into groups that never met. */
void ref_tournament_ratings(int n, const double *games, const double *points,
                            double *elo, double *lo, double *hi, int *best,
                            int *worst);
/* The number of games a match command line schedules (for `parallel`'s
 * merge), or -1 when it cannot tell. */
long long ref_tournament_total_args(int argc, char **argv);

#endif
