/* tournament.h - tournaments of N engines: the command-line flags
 * (--tournament, --rounds, --noswap, --repeat), their checks, and the
 * crosstable with Elo and rank ranges printed after the result table. */
#ifndef REF_TOURNAMENT_H
#define REF_TOURNAMENT_H

#include <stdio.h>

struct ref_match;
struct ref_table;

/* If argv[*i] is a tournament flag: consume it (and its value), return 1;
 * *rc = -1 on a bad value (message printed).  Else 0. */
int ref_cli_tournament_flag(struct ref_match *m, int argc, char **argv,
                            int *i, int *rc);
/* After the game and the engines are known: check the combination, pick
 * the default tournament, and set m->games to the whole schedule (--games
 * is per encounter).  0 or -1 (message printed). */
int ref_cli_tournament_check(struct ref_match *m, int neng, int sprt_given);
/* Two seats, more than two engines: Elo per engine with its 95% interval
 * and rank range (ref_ratings), and the crosstable. */
void ref_table_crosstable(const struct ref_table *t, FILE *f);
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
