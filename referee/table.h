/* table.h - the result table of a match, built from game records (live,
 * --resume and `merge` all go through ref_table_add). */
#ifndef REF_TABLE_H
#define REF_TABLE_H

#include <stdio.h>

#include "record.h"
#include "stats.h"

/* Reasons counted as one engine's failure (the `forfeit` seat). */
enum ref_fail { REF_F_TIME, REF_F_ILLEGAL, REF_F_CRASH, REF_F_STALL,
                REF_F_ERROR, REF_F_N };
extern const char *const ref_fail_reason[REF_F_N];

struct ref_sum {
    int game, nseats;
    int eng[GAME_MAX_SEATS];
    int rank[GAME_MAX_SEATS];
    double score[GAME_MAX_SEATS];
    int has_scores, forfeit;
    char reason[32];        /* how it ended (the record's reason) */
};

struct ref_eng_row {
    char name[REF_NAME_LEN];
    int games, wins, losses, draws;
    int fails[REF_F_N];
    int restarts;           /* live only (not in records) */
    int ponders, ponderhits; /* ponder=on: moves after a ponder search, and
                                those that were ponderhits */
};

struct ref_table {
    struct ref_eng_row *eng;
    int neng;
    struct ref_sum *sum;
    int nsum, cap;
    int nseats;             /* 0 until the first record */
    char game_name[32];
    char params[256];
    int reasons_n;
    char reason[32][32];
    int reason_count[32];
};

void ref_table_init(struct ref_table *t);
void ref_table_free(struct ref_table *t);
/* Index of an engine name (added if new). */
int ref_table_engine(struct ref_table *t, const char *name);
/* Add a finished game; 0, or -1 if the game number is already there or
 * the record does not fit the table (other seat count). */
int ref_table_add(struct ref_table *t, const struct ref_record *r);
int ref_table_has(const struct ref_table *t, int game);
/* Games per group: 2 (a colour-swapped pair) or nseats (a rotated deal). */
int ref_table_group(const struct ref_table *t);
/* Pentanomial counts of engine a against b over complete pairs. */
void ref_table_penta(const struct ref_table *t, int a, int b, int p[5]);
/* The SPRT of a against b as one run playing games 1, 2, 3 ... in order
 * sees it: pair by pair (games 2k+1, 2k+2) over the games 1..upto present
 * without a gap, stopping at the first pair after which it decides.
 * Returns 1 (H1), -1 (H0) or 0 (no decision yet); *at: the last game
 * looked at (the decision's, or the end of the gap-free prefix); *llr and
 * p[5]: the LLR and pentanomial counts there. */
int ref_table_sprt_prefix(const struct ref_table *t, int a, int b,
                          const struct ref_sprt *sprt, int upto, int *at,
                          double *llr, int p[5]);
/* Score of engine a against b: wins, losses, draws (two-seat games). */
void ref_table_wld(const struct ref_table *t, int a, int b, int *w, int *l,
                   int *d);
/* The final table; sprt may be NULL. */
void ref_table_print(const struct ref_table *t, const struct ref_sprt *sprt,
                     FILE *f);

/* What --ratinginterval prints every N games, as cutechess-cli's
 * -ratinginterval does: for two engines in two seats the closing line
 * (ref_fmt_cc_line) and, with sprt, "SPRT: llr 0.52 (17.6%), lbound
 * -2.94, ubound 2.94" (" - H1 was accepted" once decided); for more
 * engines the ratings and crosstable, for N seats the per-deal means. */
void ref_table_print_rating(const struct ref_table *t,
                            const struct ref_sprt *sprt, FILE *f);
/* What --outcomeinterval prints, as cutechess-cli's -outcomeinterval:
 * per engine "Player: NAME", then each way its games ended, sorted,
 * '   "Win: connected": 3' (Win/Loss/Draw: the record's reason). */
void ref_table_print_outcomes(const struct ref_table *t, FILE *f);
/* Two seats, more than two engines: Elo per engine with its 95% interval
 * and rank range (ref_tournament_ratings), and the crosstable; with more
 * than REF_CROSSTABLE_MAX engines a line saying they are not shown (the
 * ratings cost n^3, the table n^2 cells: a results file of thousands of
 * names must not stall `merge` or `report`). */
#define REF_CROSSTABLE_MAX 64
void ref_table_crosstable(const struct ref_table *t, FILE *f);
/* cutechess-cli's closing line for w wins, l losses, d draws:
 * "Elo difference: 190.8 +/- nan, LOS: 84.1 %, DrawRatio: 0.0 %" (see
 * ref_elo_cutechess; non-finite figures as cutechess prints them: inf,
 * -inf, nan).  No newline. */
void ref_fmt_cc_line(char *b, size_t n, int w, int l, int d);

/* One Elo figure: "+12.3", "+inf"/"-inf" (a one-sided score), or "?". */
void ref_fmt_elo1(char *b, size_t n, double x);

#endif
