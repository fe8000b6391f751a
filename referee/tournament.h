/* tournament.h - tournaments of N engines: the command-line flags
 * (--tournament, --rounds, --noswap, --repeat), their checks, and the
 * schedule's length for `parallel`'s merge.  The Elo and rank ranges of N
 * engines are stats.h's, the crosstable that prints them table.h's. */
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
/* The number of games a match command line schedules (for `parallel`'s
 * merge), or -1 when it cannot tell. */
long long ref_tournament_total_args(int argc, char **argv);

#endif
